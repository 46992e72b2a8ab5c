//! Transactions: a read view, a private write set read through by the
//! transaction's own statements, an undo log for statement and savepoint
//! rollback, and the binlog cache of row events.
//!
//! Nothing here touches the shared engine state except through the storage
//! snapshot; commit is the engine's job (it hands the write set and the
//! binlog cache to the commit pipeline).

use crate::ast::IsolationLevel;
use crate::catalog::TableEntry;
use crate::locks::TxnId;
use crate::temp::TempRows;
use onelog_binlog::cache::EventCache;
use onelog_binlog::event::{rows_bodies, table_map_body, type_code, RowChange, RowsKind};
use onelog_binlog::pipeline::PendingEvent;
use onelog_binlog::BinlogPos;
use onelog_core::{ErrorCode, SqlError, SqlResult};
use onelog_storage::store::KvIter as KvIterOwned;
use onelog_storage::{key, Mutation, Slice, Snapshot, Store};
use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::PathBuf;
use std::sync::Arc;

/// MariaDB's default `binlog_row_event_max_size`.
const ROW_EVENT_MAX_BYTES: usize = 8192;
/// Row changes a statement keeps as values before
/// [`Txn::flush_rows_if_many`] encodes them into binlog events.
const STMT_ROWS_FLUSH_COUNT: usize = 4096;

pub type Kv = (Slice, Slice);
/// A write-set entry: key and new value (`None`: deleted).
type WriteRef<'a> = (&'a Vec<u8>, &'a Option<Vec<u8>>);
/// (key, the write-set entry it replaced) for undo.
type UndoEntry = (Vec<u8>, Option<Option<Vec<u8>>>);
pub type KvIter<'a> = Box<dyn Iterator<Item = SqlResult<Kv>> + 'a>;

struct Savepoint {
    name: String,
    undo_len: usize,
    events_len: usize,
}

pub struct Txn {
    pub id: TxnId,
    pub isolation: IsolationLevel,
    pub read_only: bool,
    /// Started by BEGIN / START TRANSACTION (or autocommit=0).
    pub explicit: bool,
    snapshot: Option<Arc<Snapshot>>,
    /// The catalog generation read just before `snapshot` was taken.
    view_generation: u64,
    /// Where in the binlog `snapshot` stands, when it was taken WITH
    /// CONSISTENT SNAPSHOT.
    view_binlog_pos: Option<BinlogPos>,
    /// Key → new value (`None`: deleted) for every key this transaction wrote.
    writes: BTreeMap<Vec<u8>, Option<Vec<u8>>>,
    /// (key, the write-set entry before the change) in change order.
    undo: Vec<UndoEntry>,
    /// The binlog cache: in memory up to `binlog_cache_size`, then in a
    /// temporary file.
    events: EventCache,
    /// `max_binlog_cache_size`: past it a statement fails with 1197.
    max_events_bytes: u64,
    stmt_rows: Vec<(Arc<TableEntry>, RowsKind, Vec<RowChange>)>,
    /// The row changes `stmt_rows` holds.
    stmt_rows_count: usize,
    /// Flags every rows event of the statement carries besides STMT_END:
    /// NO_FOREIGN_KEY_CHECKS when it ran with `foreign_key_checks=0` or
    /// logged the rows a cascade changed (see `foreign_key`).
    stmt_rows_flags: u16,
    stmt_undo_start: usize,
    /// Where the current statement's binlog events start (a statement
    /// may encode its rows before it ends, see [`Txn::flush_rows`]).
    stmt_events_start: usize,
    savepoints: Vec<Savepoint>,
    /// The session's committed temporary-table rows: what this transaction
    /// reads for temporary keys instead of storage (see `temp`).
    temp_rows: Option<Arc<TempRows>>,
}

pub(crate) fn storage_err(e: onelog_storage::StorageError) -> SqlError {
    SqlError::internal(e.to_string())
}

impl Txn {
    pub fn new(id: TxnId, isolation: IsolationLevel, read_only: bool, explicit: bool) -> Txn {
        Txn {
            id,
            isolation,
            read_only,
            explicit,
            snapshot: None,
            view_generation: 0,
            view_binlog_pos: None,
            writes: BTreeMap::new(),
            undo: Vec::new(),
            events: EventCache::default(),
            max_events_bytes: u64::MAX,
            stmt_rows: Vec::new(),
            stmt_rows_count: 0,
            stmt_rows_flags: 0,
            stmt_undo_start: 0,
            stmt_events_start: 0,
            savepoints: Vec::new(),
            temp_rows: None,
        }
    }

    /// Reads temporary tables' committed rows from `rows`, the session's.
    pub fn with_temp_rows(mut self, rows: Arc<TempRows>) -> Txn {
        self.temp_rows = Some(rows);
        self
    }

    /// Takes the writes to temporary tables out of the write set: they go
    /// to the session's temporary rows, never to storage or the binlog.
    pub fn take_temp_writes(&mut self) -> BTreeMap<Vec<u8>, Option<Vec<u8>>> {
        self.writes.split_off(key::FIRST_TEMP_INDEX_ID.to_be_bytes().as_slice())
    }

    /// Takes the writes under the index `id` out of the write set.
    pub fn take_index_writes(&mut self, id: u64) -> BTreeMap<Vec<u8>, Option<Vec<u8>>> {
        let mut taken = self.writes.split_off(key::index_prefix(id).as_slice());
        if let Some(next) = id.checked_add(1) {
            let mut after = taken.split_off(key::index_prefix(next).as_slice());
            self.writes.append(&mut after);
        }
        taken
    }

    /// Whether the transaction logged events, and whether some of them
    /// went to a temporary file: MariaDB's `Binlog_cache_use` and
    /// `Binlog_cache_disk_use`.
    pub fn binlog_cache_use(&self) -> (bool, bool) {
        (!self.events.is_empty(), self.events.has_spilled())
    }

    pub fn has_writes(&self) -> bool {
        !self.writes.is_empty() || !self.events.is_empty()
    }

    /// Called before each statement: READ COMMITTED takes a fresh view.
    pub fn begin_statement(&mut self) {
        if !self.keeps_view() {
            self.snapshot = None;
        }
        self.stmt_undo_start = self.undo.len();
        self.stmt_events_start = self.events.len();
        self.stmt_rows.clear();
        self.stmt_rows_count = 0;
        self.stmt_rows_flags = 0;
    }

    /// The statement's rows events are to be applied without foreign key
    /// checks or cascades: it ran with `foreign_key_checks=0`, or its
    /// cascaded changes are logged as rows of their own.
    pub fn mark_no_foreign_key_checks(&mut self) {
        self.stmt_rows_flags |= onelog_binlog::event::rows_flag::NO_FOREIGN_KEY_CHECKS;
    }

    /// The transaction's read view, taken at its first read;
    /// `catalog_generation` is the catalog's generation read just before.
    pub fn view(&mut self, store: &Store, catalog_generation: u64) -> Arc<Snapshot> {
        if let Some(s) = &self.snapshot {
            return s.clone();
        }
        let s = store.snapshot();
        self.snapshot = Some(s.clone());
        self.view_generation = catalog_generation;
        s
    }

    /// Takes `snapshot`, which holds the binlog exactly up to `binlog_pos`,
    /// as the read view (START TRANSACTION WITH CONSISTENT SNAPSHOT).
    pub fn set_consistent_view(&mut self, snapshot: Arc<Snapshot>, catalog_generation: u64, binlog_pos: BinlogPos) {
        self.snapshot = Some(snapshot);
        self.view_generation = catalog_generation;
        self.view_binlog_pos = Some(binlog_pos);
    }

    /// Where a consistent-snapshot read view stands in the binlog.
    pub fn view_binlog_pos(&self) -> Option<BinlogPos> {
        self.view_binlog_pos
    }

    /// The catalog generation of the read view the next statement reuses
    /// (REPEATABLE READ after a first read), if any.
    pub fn reused_view_generation(&self) -> Option<u64> {
        self.snapshot.as_ref().filter(|_| self.keeps_view()).map(|_| self.view_generation)
    }

    /// Whether the read view lasts for the whole transaction.
    pub fn keeps_view(&self) -> bool {
        matches!(self.isolation, IsolationLevel::RepeatableRead | IsolationLevel::Serializable)
    }

    /// Reads `key` as this transaction sees it: its own write, else `view`.
    pub fn get(&self, view: &Snapshot, key: &[u8]) -> SqlResult<Option<Slice>> {
        if let Some(w) = self.writes.get(key) {
            return Ok(w.clone().map(Slice::from));
        }
        if key::is_temp_key(key) {
            return Ok(self.temp_rows.as_ref().and_then(|rows| rows.read().get(key).cloned()).map(Slice::from));
        }
        view.get(key).map_err(storage_err)
    }

    /// Keys in `[start, end)` as this transaction sees them, merged with
    /// its own writes.
    pub fn scan<'a>(
        &'a self,
        view: &Snapshot,
        start: &[u8],
        end: Option<&[u8]>,
        reverse: bool,
    ) -> SqlResult<KvIter<'a>> {
        let base = if key::is_temp_key(start) {
            temp_scan(self.temp_rows.as_deref(), start, end, reverse)
        } else {
            view.scan(start, end, reverse).map_err(storage_err)?
        };
        let upper = match end {
            Some(e) => Bound::Excluded(e.to_vec()),
            None => Bound::Unbounded,
        };
        let own = self.writes.range::<Vec<u8>, _>((Bound::Included(start.to_vec()), upper));
        if own.clone().next().is_none() {
            // Nothing of ours in range (every read-only statement): storage's
            // rows as they are, without a merge step per row.
            return Ok(Box::new(base.map(|r| r.map_err(storage_err))));
        }
        let own: Box<dyn Iterator<Item = WriteRef<'a>> + 'a> =
            if reverse { Box::new(own.rev()) } else { Box::new(own) };
        Ok(Box::new(MergeScan { base: base.peekable(), own: own.peekable(), reverse }))
    }

    /// Records a write in the private write set.
    pub fn put(&mut self, key: Vec<u8>, value: Option<Vec<u8>>) {
        let previous = self.writes.insert(key.clone(), value);
        self.undo.push((key, previous));
    }

    /// Adds a row change to the current statement's binlog rows; a
    /// temporary table's rows are never logged, as in MariaDB's row format.
    pub fn log_row(&mut self, table: &Arc<TableEntry>, kind: RowsKind, change: RowChange) {
        if table.def.id >= key::FIRST_TEMP_INDEX_ID {
            return;
        }
        self.stmt_rows_count += 1;
        if let Some((t, k, rows)) = self.stmt_rows.last_mut() {
            if Arc::ptr_eq(t, table) && *k == kind {
                rows.push(change);
                return;
            }
        }
        self.stmt_rows.push((table.clone(), kind, vec![change]));
    }

    /// Ends a successful statement: its row changes become binlog events.
    pub fn finish_statement(&mut self) -> SqlResult<()> {
        self.flush_rows()?;
        self.stmt_undo_start = self.undo.len();
        self.stmt_events_start = self.events.len();
        Ok(())
    }

    /// [`Txn::flush_rows`] once the statement holds many row changes: a
    /// long statement (an UPDATE of a whole table, LOAD DATA) then keeps
    /// its rows once, encoded, instead of also as values until it ends.
    /// Call it only between two of the statement's own rows, never while a
    /// row's cascades or triggers are being logged: a batch must hold a row
    /// together with what it caused, so that a replica applying the batch
    /// sees the flags that say its cascades are logged.
    pub fn flush_rows_if_many(&mut self) -> SqlResult<()> {
        if self.stmt_rows_count >= STMT_ROWS_FLUSH_COUNT {
            self.flush_rows()?;
        }
        Ok(())
    }

    /// Encodes the statement's row changes so far into binlog events. Each
    /// batch is a complete TABLE_MAP + rows group ending with STMT_END_F,
    /// as a replica expects.
    pub fn flush_rows(&mut self) -> SqlResult<()> {
        self.stmt_rows_count = 0;
        for (table, kind, rows) in std::mem::take(&mut self.stmt_rows) {
            self.events
                .push(PendingEvent { type_code: type_code::TABLE_MAP, flags: 0, body: table_map_body(&table.def) })
                .map_err(|e| crate::sort::write_error(&e))?;
            let bodies = rows_bodies(kind, &table.def, &rows, ROW_EVENT_MAX_BYTES)
                .map_err(|e| SqlError::internal(format!("binlog row encoding: {e}")))?;
            for mut body in bodies {
                onelog_binlog::event::add_rows_flags(&mut body, self.stmt_rows_flags);
                self.events
                    .push(PendingEvent { type_code: kind.type_code(), flags: 0, body })
                    .map_err(|e| crate::sort::write_error(&e))?;
            }
        }
        self.check_events_bytes()
    }

    /// A copy of this transaction for the writes of the stored functions a
    /// statement calls: the caller's statement holds this transaction
    /// shared while it evaluates, so a function writes into the fork
    /// (`id`: this transaction's, or a new one when the statement runs
    /// without a transaction), which sees everything this one wrote, and
    /// [`Txn::absorb`] hands its changes back when the statement ends.
    pub fn fork(&self, id: TxnId) -> Txn {
        let mut fork = Txn::new(id, self.isolation, self.read_only && id == self.id, self.explicit);
        fork.snapshot = self.snapshot.clone();
        fork.view_generation = self.view_generation;
        fork.view_binlog_pos = self.view_binlog_pos;
        fork.writes = self.writes.clone();
        fork.max_events_bytes = self.max_events_bytes.saturating_sub(self.events.binlog_bytes());
        fork.temp_rows = self.temp_rows.clone();
        fork
    }

    /// Takes over what a [`Txn::fork`] of this transaction changed: each key
    /// it wrote (recorded for this transaction's undo, so the running
    /// statement's rollback undoes it too) and its binlog events, after
    /// this transaction's. The fork's keys are disjoint from what this
    /// transaction changed since the fork: a function may not write a table
    /// its calling statement uses (1442).
    pub fn absorb(&mut self, mut fork: Txn) -> SqlResult<()> {
        fork.flush_rows()?;
        for (key, _) in std::mem::take(&mut fork.undo) {
            match fork.writes.remove(&key) {
                Some(value) if self.writes.get(&key) != Some(&value) => self.put(key, value),
                _ => {}
            }
        }
        self.events.append(fork.events).map_err(|e| crate::sort::write_error(&e))?;
        self.check_events_bytes()
    }

    /// Error 1197 once the events pass `max_binlog_cache_size`.
    fn check_events_bytes(&self) -> SqlResult<()> {
        if self.events.binlog_bytes() > self.max_events_bytes {
            return Err(SqlError::new(
                ErrorCode::TRANS_CACHE_FULL,
                "Multi-statement transaction required more than 'max_binlog_cache_size' bytes of storage; increase this mysqld variable and try again",
            ));
        }
        Ok(())
    }

    /// Bounds the transaction's binlog events (`max_binlog_cache_size`)
    /// and says past what size (`binlog_cache_size`) and where (`tmpdir`)
    /// they spill to a temporary file.
    pub fn set_binlog_cache(&mut self, max_bytes: u64, memory_bytes: u64, tmpdir: PathBuf) {
        self.max_events_bytes = max_bytes;
        self.events.set_spill(memory_bytes, Some(tmpdir));
    }

    /// Undoes the current statement (statement atomicity on error).
    pub fn rollback_statement(&mut self) {
        self.stmt_rows.clear();
        self.stmt_rows_count = 0;
        self.events.truncate(self.stmt_events_start);
        self.undo_to(self.stmt_undo_start);
    }

    fn undo_to(&mut self, len: usize) {
        while self.undo.len() > len {
            let Some((key, previous)) = self.undo.pop() else { break };
            match previous {
                Some(v) => {
                    self.writes.insert(key, v);
                }
                None => {
                    self.writes.remove(&key);
                }
            }
        }
    }

    pub fn savepoint(&mut self, name: &str) {
        self.savepoints.retain(|s| !s.name.eq_ignore_ascii_case(name));
        self.savepoints.push(Savepoint {
            name: name.to_string(),
            undo_len: self.undo.len(),
            events_len: self.events.len(),
        });
    }

    pub fn rollback_to_savepoint(&mut self, name: &str) -> SqlResult<()> {
        let idx = self.find_savepoint(name)?;
        let (undo_len, events_len) = (self.savepoints[idx].undo_len, self.savepoints[idx].events_len);
        self.savepoints.truncate(idx + 1);
        self.undo_to(undo_len);
        self.events.truncate(events_len);
        self.stmt_undo_start = self.undo.len();
        self.stmt_events_start = self.events.len();
        Ok(())
    }

    pub fn release_savepoint(&mut self, name: &str) -> SqlResult<()> {
        let idx = self.find_savepoint(name)?;
        self.savepoints.truncate(idx);
        Ok(())
    }

    fn find_savepoint(&self, name: &str) -> SqlResult<usize> {
        self.savepoints.iter().rposition(|s| s.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
            SqlError::new(onelog_core::ErrorCode::SP_DOES_NOT_EXIST, format!("SAVEPOINT {name} does not exist"))
        })
    }

    /// Hands over what commit needs: storage mutations and binlog events.
    pub fn into_commit_parts(self) -> (Vec<Mutation>, EventCache) {
        let mutations = self
            .writes
            .into_iter()
            .map(|(k, v)| match v {
                Some(v) => Mutation::Put(k, v),
                None => Mutation::Delete(k),
            })
            .collect();
        (mutations, self.events)
    }
}

/// A scan of temporary rows: a copy of the range, as storage's scans are
/// owned iterators too (temporary tables are in memory, see `temp`).
fn temp_scan(rows: Option<&TempRows>, start: &[u8], end: Option<&[u8]>, reverse: bool) -> KvIterOwned {
    let Some(rows) = rows else { return Box::new(std::iter::empty()) };
    let upper = match end {
        Some(e) => Bound::Excluded(e),
        None => Bound::Unbounded,
    };
    let rows = rows.read();
    let range = rows.range::<[u8], _>((Bound::Included(start), upper));
    let copied: Vec<_> = range.map(|(k, v)| Ok((Slice::from(k.clone()), Slice::from(v.clone())))).collect();
    if reverse {
        Box::new(copied.into_iter().rev())
    } else {
        Box::new(copied.into_iter())
    }
}

/// Merges a storage scan with the write set; the write set wins on equal
/// keys and its deletions hide storage rows.
struct MergeScan<'a> {
    base: std::iter::Peekable<onelog_storage::store::KvIter>,
    own: std::iter::Peekable<Box<dyn Iterator<Item = WriteRef<'a>> + 'a>>,
    reverse: bool,
}

impl Iterator for MergeScan<'_> {
    type Item = SqlResult<Kv>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let take_own = match (self.base.peek(), self.own.peek()) {
                (None, None) => return None,
                (Some(Err(_)), _) => return self.base.next().map(|r| r.map_err(storage_err)),
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (Some(Ok((bk, _))), Some((ok, _))) => {
                    if **bk == ***ok {
                        self.base.next();
                        true
                    } else {
                        (ok.as_slice() < &**bk) != self.reverse
                    }
                }
            };
            if !take_own {
                return self.base.next().map(|r| r.map_err(storage_err));
            }
            if let Some((k, Some(v))) = self.own.next() {
                return Some(Ok((Slice::from(k.clone()), Slice::from(v.clone()))));
            }
        }
    }
}
