//! External sort: rows keyed by sort-key values, held in memory up to a
//! byte budget (`sort_buffer_size`) and past it sorted into runs written
//! to anonymous files under `tmpdir`, then read back merged. A sort's
//! memory is then bounded by its budget (plus one row per open run)
//! whatever the number of rows, as MariaDB's filesort is.
//!
//! Invariants:
//! - The order is stable: rows with equal keys come out in the order they
//!   were pushed. A run holds consecutive pushes, runs are numbered in push
//!   order and merges break ties by run number, so GROUP BY keeps each
//!   group's first row and ORDER BY keeps its ties as the in-memory sort
//!   does.
//! - At most [`MERGE_FAN_IN`] runs are read at once, and fewer than that
//!   many per level exist (`merge_full_levels`), so open files and the
//!   merge's row buffers stay bounded.
//! - With a `keep_first` bound (ORDER BY ... LIMIT), only that many rows
//!   can come out, so the buffer is cut to them whenever it doubles and a
//!   small LIMIT never spills.
//!
//! Written by hand because the sort compares by SQL collations and must be
//! stable across files; no external-sort crate takes a comparator and a
//! byte budget together. Rows go to disk in `postcard`'s serde encoding.

use crate::select::{cmp_keys, KeyOrder};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, Write};
use std::path::PathBuf;
use std::rc::Rc;

/// Sort-key values and the row they order.
pub(crate) type KeyedRow = (Vec<Value>, Vec<Value>);

/// The most runs one merge reads at once.
const MERGE_FAN_IN: usize = 64;

/// The least rows a `keep_first` buffer holds before it is cut, so a
/// LIMIT 1 does not sort at every row.
const KEEP_FIRST_MIN_ROWS: usize = 1024;

/// Where the rows wait to be sorted, and how.
pub(crate) struct Sorter {
    orders: Rc<[KeyOrder]>,
    budget_bytes: usize,
    keep_first: Option<usize>,
    tmpdir: PathBuf,
    buffer: Vec<KeyedRow>,
    buffer_bytes: usize,
    runs: Vec<Run>,
    /// Merges of runs so far, the final one included: `Sort_merge_passes`.
    merge_passes: u64,
}

impl Sorter {
    /// A sort by `orders` holding `budget_bytes` of rows in memory, its
    /// runs under `tmpdir`; `keep_first` bounds how many rows are wanted.
    pub(crate) fn new(
        orders: Vec<KeyOrder>,
        budget_bytes: usize,
        keep_first: Option<usize>,
        tmpdir: PathBuf,
    ) -> Sorter {
        Sorter {
            orders: orders.into(),
            budget_bytes,
            keep_first,
            tmpdir,
            buffer: Vec::new(),
            buffer_bytes: 0,
            runs: Vec::new(),
            merge_passes: 0,
        }
    }

    pub(crate) fn push(&mut self, keys: Vec<Value>, row: Vec<Value>) -> SqlResult<()> {
        debug_assert_eq!(keys.len(), self.orders.len(), "one key value per order");
        self.buffer_bytes += row_bytes(&keys) + row_bytes(&row);
        self.buffer.push((keys, row));
        if let Some(n) = self.keep_first {
            if self.buffer.len() >= (2 * n).max(KEEP_FIRST_MIN_ROWS) {
                self.sort_buffer();
                self.buffer.truncate(n);
                self.buffer_bytes = self.buffer.iter().map(|(k, r)| row_bytes(k) + row_bytes(r)).sum();
            }
        }
        if self.buffer_bytes > self.budget_bytes {
            self.spill()?;
        }
        Ok(())
    }

    /// Whether any rows went to disk.
    #[cfg(test)]
    fn spilled(&self) -> bool {
        !self.runs.is_empty()
    }

    /// The rows in order, and how many merges of runs on disk that took
    /// (none when the rows fit the budget).
    pub(crate) fn finish(mut self) -> SqlResult<(Sorted, u64)> {
        if self.runs.is_empty() {
            self.sort_buffer();
            self.buffer.truncate(self.keep_first.unwrap_or(usize::MAX));
            return Ok((Sorted::Memory(self.buffer.into_iter()), 0));
        }
        self.spill()?;
        self.merge_runs_down_to(MERGE_FAN_IN)?;
        let merge = Merge::new(std::mem::take(&mut self.runs), self.orders.clone())?;
        Ok((Sorted::Merge(merge), self.merge_passes + 1))
    }

    /// Merges consecutive runs, [`MERGE_FAN_IN`] at a time, until at most
    /// `max_runs` are left; consecutive, so that ties keep their order.
    fn merge_runs_down_to(&mut self, max_runs: usize) -> SqlResult<()> {
        while self.runs.len() > max_runs {
            let runs = std::mem::take(&mut self.runs);
            let mut chunks = runs.into_iter().peekable();
            while chunks.peek().is_some() {
                let chunk: Vec<Run> = chunks.by_ref().take(MERGE_FAN_IN).collect();
                let level = chunk.iter().map(|r| r.level).max().unwrap_or(0) + 1;
                let merged = self.merge_into_run(chunk, level)?;
                self.runs.push(merged);
            }
        }
        Ok(())
    }

    fn sort_buffer(&mut self) {
        let orders = &self.orders;
        self.buffer.sort_by(|a, b| cmp_keys(&a.0, &b.0, orders));
    }

    /// Writes the buffer, sorted, as the next run.
    fn spill(&mut self) -> SqlResult<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.sort_buffer();
        let mut writer = RunWriter::create(&self.tmpdir)?;
        let keep = self.keep_first.unwrap_or(usize::MAX);
        for row in self.buffer.drain(..).take(keep) {
            writer.write(&row)?;
        }
        self.buffer_bytes = 0;
        self.runs.push(writer.finish(0)?);
        self.merge_full_levels()
    }

    /// Each run holds a file open until the final merge. Runs have levels,
    /// as digits of a counter in base [`MERGE_FAN_IN`]: a spill is level 0,
    /// and when the newest runs are `MERGE_FAN_IN` of one level they become
    /// one run of the next. The runs stay in push order, each row is
    /// rewritten once per level, and fewer than `MERGE_FAN_IN` runs of each
    /// level are open.
    fn merge_full_levels(&mut self) -> SqlResult<()> {
        while let Some(level) = self.runs.last().map(|r| r.level) {
            let same_level = self.runs.iter().rev().take_while(|r| r.level == level).count();
            if same_level < MERGE_FAN_IN {
                return Ok(());
            }
            let newest = self.runs.split_off(self.runs.len() - same_level);
            let merged = self.merge_into_run(newest, level + 1)?;
            self.runs.push(merged);
        }
        Ok(())
    }

    fn merge_into_run(&mut self, runs: Vec<Run>, level: u32) -> SqlResult<Run> {
        self.merge_passes += 1;
        let mut merged = Merge::new(runs, self.orders.clone())?;
        let mut writer = RunWriter::create(&self.tmpdir)?;
        while let Some(row) = merged.next_row()? {
            writer.write(&row)?;
        }
        writer.finish(level)
    }
}

/// About what a row's values take in memory: the heap behind a row is
/// mostly its text and blobs.
pub(crate) fn row_bytes(values: &[Value]) -> usize {
    let heap: usize = values
        .iter()
        .map(|v| match v {
            Value::Bytes(b) => b.len(),
            Value::Decimal(_) => 32,
            _ => 0,
        })
        .sum();
    std::mem::size_of::<Vec<Value>>() + std::mem::size_of_val(values) + heap
}

/// The sorted rows, from memory or merged from runs on disk.
pub(crate) enum Sorted {
    Memory(std::vec::IntoIter<KeyedRow>),
    Merge(Merge),
}

impl Sorted {
    pub(crate) fn next_row(&mut self) -> SqlResult<Option<KeyedRow>> {
        match self {
            Sorted::Memory(rows) => Ok(rows.next()),
            Sorted::Merge(merge) => merge.next_row(),
        }
    }
}

/// One sorted run in an anonymous file (gone when closed).
struct Run {
    reader: BufReader<File>,
    /// How many merges its rows went through (see `merge_full_levels`).
    level: u32,
}

impl Run {
    fn next_row(&mut self) -> SqlResult<Option<KeyedRow>> {
        let mut len = [0u8; 4];
        match self.reader.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(read_error(&e)),
        }
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        self.reader.read_exact(&mut bytes).map_err(|e| read_error(&e))?;
        let row: KeyedRow = postcard::from_bytes(&bytes).map_err(|e| read_error(&e))?;
        Ok(Some(row))
    }
}

struct RunWriter {
    writer: BufWriter<File>,
}

impl RunWriter {
    fn create(tmpdir: &PathBuf) -> SqlResult<RunWriter> {
        let file = tempfile::tempfile_in(tmpdir).map_err(|e| write_error(&e))?;
        Ok(RunWriter { writer: BufWriter::new(file) })
    }

    fn write(&mut self, row: &KeyedRow) -> SqlResult<()> {
        let bytes = postcard::to_stdvec(row).map_err(|e| write_error(&e))?;
        let len = u32::try_from(bytes.len()).map_err(|e| write_error(&e))?;
        self.writer.write_all(&len.to_le_bytes()).map_err(|e| write_error(&e))?;
        self.writer.write_all(&bytes).map_err(|e| write_error(&e))
    }

    fn finish(self, level: u32) -> SqlResult<Run> {
        let mut file = self.writer.into_inner().map_err(|e| write_error(e.error()))?;
        file.rewind().map_err(|e| read_error(&e))?;
        Ok(Run { reader: BufReader::new(file), level })
    }
}

/// MariaDB's ER_ERROR_ON_WRITE, naming the temporary file as "tmpfile".
pub(crate) fn write_error(e: &dyn std::fmt::Display) -> SqlError {
    SqlError::new(ErrorCode::ERROR_ON_WRITE, format!("Error writing file 'tmpfile' ({e})"))
}

/// MariaDB's ER_ERROR_ON_READ for a temporary file.
fn read_error(e: &dyn std::fmt::Display) -> SqlError {
    SqlError::new(ErrorCode::ERROR_ON_READ, format!("Error reading file 'tmpfile' ({e})"))
}

/// The head row of one run in the merge: the least key first, and on equal
/// keys the earlier run.
struct Head {
    row: KeyedRow,
    run: usize,
    orders: Rc<[KeyOrder]>,
}

impl Ord for Head {
    fn cmp(&self, other: &Head) -> Ordering {
        // BinaryHeap pops the greatest: reversed.
        cmp_keys(&other.row.0, &self.row.0, &self.orders).then(other.run.cmp(&self.run))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Head) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Head) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head {}

/// A k-way merge of runs.
pub(crate) struct Merge {
    runs: Vec<Run>,
    heads: BinaryHeap<Head>,
    orders: Rc<[KeyOrder]>,
}

impl Merge {
    fn new(mut runs: Vec<Run>, orders: Rc<[KeyOrder]>) -> SqlResult<Merge> {
        assert!(runs.len() <= MERGE_FAN_IN, "merges read at most MERGE_FAN_IN runs");
        let mut heads = BinaryHeap::with_capacity(runs.len());
        for (run, reader) in runs.iter_mut().enumerate() {
            if let Some(row) = reader.next_row()? {
                heads.push(Head { row, run, orders: orders.clone() });
            }
        }
        Ok(Merge { runs, heads, orders })
    }

    fn next_row(&mut self) -> SqlResult<Option<KeyedRow>> {
        let Some(Head { row, run, .. }) = self.heads.pop() else { return Ok(None) };
        if let Some(next) = self.runs[run].next_row()? {
            self.heads.push(Head { row: next, run, orders: self.orders.clone() });
        }
        Ok(Some(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onelog_core::Collation;

    fn drain(mut sorted: Sorted) -> Vec<KeyedRow> {
        let mut out = Vec::new();
        while let Some(row) = sorted.next_row().expect("read back") {
            out.push(row);
        }
        out
    }

    fn ascending() -> Vec<KeyOrder> {
        vec![KeyOrder { desc: false, collation: Collation::default() }]
    }

    /// Rows keyed `i % 7`, tagged with their push order.
    fn push_all(sorter: &mut Sorter, n: i64) {
        for i in 0..n {
            sorter.push(vec![Value::Int(i % 7)], vec![Value::Int(i), Value::from_str("padding")]).expect("push");
        }
    }

    /// Sorted by key and, within a key, in push order.
    fn assert_stable_sorted(rows: &[KeyedRow]) {
        for pair in rows.windows(2) {
            let ((key_a, row_a), (key_b, row_b)) = (&pair[0], &pair[1]);
            match cmp_keys(key_a, key_b, &ascending()) {
                Ordering::Less => {}
                Ordering::Equal => assert!(matches!((&row_a[0], &row_b[0]), (Value::Int(x), Value::Int(y)) if x < y)),
                Ordering::Greater => panic!("out of order: {key_a:?} before {key_b:?}"),
            }
        }
    }

    #[test]
    fn spills_past_the_budget_and_merges_stably() {
        let tmp = tempfile::tempdir().expect("tmpdir");
        // A budget of a few rows: thousands of runs, so merges go in passes.
        let mut sorter = Sorter::new(ascending(), 512, None, tmp.path().into());
        push_all(&mut sorter, 10_000);
        assert!(sorter.spilled());
        let rows = drain(sorter.finish().expect("finish").0);
        assert_eq!(rows.len(), 10_000);
        assert_stable_sorted(&rows);
    }

    #[test]
    fn keep_first_cuts_without_spilling() {
        let tmp = tempfile::tempdir().expect("tmpdir");
        let mut sorter = Sorter::new(ascending(), 1 << 20, Some(5), tmp.path().into());
        push_all(&mut sorter, 100_000);
        assert!(!sorter.spilled());
        let rows = drain(sorter.finish().expect("finish").0);
        let firsts: Vec<Value> = rows.iter().map(|r| r.1[0].clone()).collect();
        let expected: Vec<Value> = [0, 7, 14, 21, 28].into_iter().map(Value::Int).collect();
        assert_eq!(firsts, expected);
    }

    #[test]
    fn memory_sort_is_stable() {
        let tmp = tempfile::tempdir().expect("tmpdir");
        let mut sorter = Sorter::new(ascending(), 1 << 30, None, tmp.path().into());
        push_all(&mut sorter, 1000);
        assert!(!sorter.spilled());
        assert_stable_sorted(&drain(sorter.finish().expect("finish").0));
    }
}
