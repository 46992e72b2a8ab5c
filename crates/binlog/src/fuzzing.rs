//! Fuzzing support shared by the bounded binlog fuzz test that runs in CI
//! (`tests/fuzz.rs`) and the coverage-guided targets in `fuzz/`.
//!
//! Owns: the seed binlogs (written by the real commit pipeline, then made
//! byte-for-byte reproducible), checksum re-sealing (so mutated bodies get
//! past the CRC and reach the decoders behind it), and the invariants that
//! every byte sequence fed to the binlog readers must keep. A violated
//! invariant is reported by panicking, which is what both the test harness
//! and libFuzzer catch. Not used by the server; hidden from the docs.

use crate::dump::{EventCursor, Next};
use crate::event::{self as ev, Event, RowChange, RowsKind};
use crate::file::{file_name, write_index, BinlogConfig};
use crate::pipeline::{Binlog, CommitInfo, GroupSink, PendingEvent, Publish, ReplicaLimit, TxnEvents};
use crate::recovery::{scan, CutKind, RecoveredTxn, RecoveryScan};
use crate::{BinlogError, BinlogPos};
use onelog_core::decimal::Decimal;
use onelog_core::{BlobSize, ColumnDef, ColumnType, IndexDef, TableDef, Temporal, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The binlog basename the seeds and the checks use.
pub const BASENAME: &str = "onelog-bin";
/// Every header timestamp of a seed, so seeds are identical run to run (no
/// zero byte, so a cut inside one is never mistaken for preallocated zeros).
const SEED_TIMESTAMP: u32 = 1_700_000_001;

// ------------------------------------------------------------------ seeds

/// The two tables the seed transactions write: one with a column of every
/// type OneLog stores, and one without a primary key whose wide ENUM and
/// VARCHAR take the 2-byte encodings. Built once: the checks decode rows
/// against them on every fuzz run.
pub fn seed_tables() -> &'static [TableDef] {
    static TABLES: std::sync::OnceLock<Vec<TableDef>> = std::sync::OnceLock::new();
    TABLES.get_or_init(build_seed_tables)
}

fn build_seed_tables() -> Vec<TableDef> {
    use ColumnType as T;
    let wide = vec![
        T::TinyInt,
        T::SmallInt,
        T::MediumInt,
        T::BigInt,
        T::Decimal { precision: 10, scale: 2 },
        T::Decimal { precision: 40, scale: 20 },
        T::Float,
        T::Double,
        T::Char(10),
        T::VarChar(40),
        T::Binary(4),
        T::VarBinary(20),
        T::Text(BlobSize::Tiny),
        T::Blob(BlobSize::Long),
        T::Date,
        T::DateTime { fsp: 0 },
        T::DateTime { fsp: 6 },
        T::Timestamp { fsp: 3 },
        T::Time { fsp: 0 },
        T::Time { fsp: 2 },
        T::Time { fsp: 5 },
        T::Year,
        T::Enum(vec!["small".into(), "large".into()]),
        T::Uuid,
        T::Set(vec!["red".into(), "green".into(), "blue".into()]),
    ];
    // A SET of 40 members takes the 8-byte bitmask.
    let narrow = vec![
        T::VarChar(300),
        T::Enum((0..300).map(|i| format!("e{i}")).collect()),
        T::Int,
        T::Set((0..40).map(|i| format!("s{i}")).collect()),
    ];
    vec![table(70, "types", wide, true), table(71, "nopk", narrow, false)]
}

fn table(id: u64, name: &str, types: Vec<ColumnType>, with_pk: bool) -> TableDef {
    let mut columns = vec![ColumnDef { nullable: false, ..ColumnDef::new("id", ColumnType::Int) }];
    for (i, ty) in types.into_iter().enumerate() {
        // Every other integer is unsigned, so both decodings are seeded.
        let unsigned = ty.is_integer() && i % 2 == 1;
        columns.push(ColumnDef { unsigned, ..ColumnDef::new(&format!("c{i}"), ty) });
    }
    let indexes = if with_pk { vec![IndexDef::primary_key(id * 10, vec![0])] } else { Vec::new() };
    TableDef { id, db: "fz".into(), name: name.into(), columns, indexes, ..Default::default() }
}

/// Row `i` of `table`: a valid value for every column, NULL in every
/// nullable column when `i` is a multiple of 5.
fn seed_row(table: &TableDef, i: u32) -> Vec<Value> {
    table
        .columns
        .iter()
        .map(|c| if c.nullable && i.is_multiple_of(5) { Value::Null } else { seed_value(c, i) })
        .collect()
}

/// Value `i` of a column: valid for its type, different for each `i`.
pub fn seed_value(c: &ColumnDef, i: u32) -> Value {
    use ColumnType as T;
    let n = i64::from(i);
    let int = |bound: i64| if c.unsigned { Value::UInt((n % bound) as u64) } else { Value::Int(-(n % bound)) };
    let time = Temporal {
        year: 1990 + (i % 40) as u16,
        month: 1 + (i % 12) as u8,
        day: 1 + (i % 28) as u8,
        hour: (i % 24) as u8,
        minute: (i % 60) as u8,
        second: (i * 7 % 60) as u8,
        micros: i * 10_101 % 1_000_000,
    };
    match &c.ty {
        T::TinyInt => int(100),
        T::SmallInt => int(30_000),
        T::MediumInt => int(8_000_000),
        T::Int | T::BigInt => int(i64::MAX),
        T::Decimal { scale, .. } => Value::Decimal(Decimal::new(n * 12_345 - 777, u32::from(*scale).min(4))),
        T::Float | T::Double => Value::Double(n as f64 * 0.5 - 3.0),
        T::Char(_) | T::VarChar(_) | T::Text(_) => Value::from_str(&format!("v{i}-{}", "x".repeat(i as usize % 5))),
        T::Binary(_) | T::VarBinary(_) | T::Blob(_) => Value::Bytes(vec![i as u8, 0, 0xff]),
        T::Date => Value::Date(time.date()),
        T::DateTime { .. } | T::Timestamp { .. } => Value::DateTime(time),
        T::Time { .. } => Value::Time((n - 3) * 3_600_000_123),
        T::Year => Value::Int(1901 + n % 200),
        T::Bit(bits) => Value::UInt(u64::from(i) & (u64::MAX >> (64 - u32::from(*bits)))),
        T::Enum(labels) => Value::from_str(&labels[i as usize % labels.len()]),
        T::Set(members) => {
            let mask = u64::from(i).wrapping_mul(0x9e37_79b9) & onelog_core::set_value::full_mask(members);
            Value::from_str(&onelog_core::set_value::set_text(members, mask))
        }
        T::Uuid => Value::Uuid(onelog_core::Uuid(u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_be_bytes())),
    }
}

struct NoStorage;

impl GroupSink<()> for NoStorage {
    fn apply_group(&self, _group: &mut [((), CommitInfo)]) -> Result<Publish, String> {
        Ok(Box::new(|| {}))
    }
}

/// A binlog the commit pipeline wrote: every file's bytes (oldest first)
/// and what each transaction got.
#[derive(Debug, Clone)]
pub struct SeedBinlog {
    pub files: Vec<Vec<u8>>,
    pub commits: Vec<CommitInfo>,
}

impl SeedBinlog {
    /// How many transactions were committed in the first `files` files,
    /// the last of them cut to `len` bytes.
    fn commits_within(&self, files: usize, len: u64) -> usize {
        let last = files as u32;
        self.commits
            .iter()
            .filter(|c| c.end_pos.file_seq < last || (c.end_pos.file_seq == last && c.end_pos.offset <= len))
            .count()
    }
}

/// Writes the seed transactions with the real pipeline into the empty
/// directory `dir` — DDL, inserts, updates and deletes on both tables, a
/// statement split over several rows events, a rotation and a clean
/// shutdown — and reads the files back. Timestamps and XIDs (clock-based)
/// are then pinned and the checksums re-sealed, so the bytes are the same
/// on every run.
pub fn write_seed_binlog(dir: &Path, checksum: bool) -> Result<SeedBinlog, BinlogError> {
    let mut config = BinlogConfig::new(dir);
    config.preallocate_size_bytes = 0;
    config.sync_binlog = 0;
    config.checksum = checksum;
    let recovered = scan(dir, &config.basename, None)?;
    let binlog: Binlog<()> = Binlog::open(config, Arc::new(NoStorage), &recovered)?;
    let mut commits = Vec::new();
    for (i, txn) in seed_transactions().into_iter().enumerate() {
        if i == 4 {
            binlog.rotate()?;
        }
        commits.push(binlog.commit(txn, ()).blocking_recv().map_err(|_| BinlogError::Poisoned("no reply".into()))??);
    }
    binlog.close()?;
    let mut files = Vec::new();
    for seq in 1.. {
        let path = dir.join(file_name(BASENAME, seq));
        if !path.exists() {
            break;
        }
        let mut data =
            std::fs::read(&path).map_err(|e| BinlogError::Io { path: path.display().to_string(), source: e })?;
        pin_clock_values(&mut data);
        reseal(&mut data);
        files.push(data);
    }
    Ok(SeedBinlog { files, commits })
}

fn seed_transactions() -> Vec<TxnEvents> {
    let tables = seed_tables();
    let (types, nopk) = (&tables[0], &tables[1]);
    let insert = |t, from, to| (t, RowsKind::Write, (from..to).map(|i| RowChange::Insert(seed_row(t, i))).collect());
    let update = RowChange::Update { before: seed_row(types, 1), after: seed_row(types, 11) };
    vec![
        ddl("CREATE DATABASE fz"),
        ddl("CREATE TABLE fz.types (id INT NOT NULL PRIMARY KEY, c0 TINYINT, c1 SMALLINT UNSIGNED)"),
        rows_txn(vec![insert(types, 0, 3)]),
        rows_txn(vec![
            (types, RowsKind::Update, vec![update]),
            (types, RowsKind::Delete, vec![RowChange::Delete(seed_row(types, 2))]),
        ]),
        // After the rotation: a statement too large for one rows event.
        rows_txn(vec![insert(nopk, 0, 40), insert(types, 20, 22)]),
        ddl("DROP TABLE fz.nopk"),
    ]
}

fn ddl(sql: &str) -> TxnEvents {
    let body = ev::query_body(&ev::QueryEvent::new(9, "fz", sql));
    TxnEvents {
        spilled: None,
        events: vec![PendingEvent { type_code: ev::type_code::QUERY, flags: 0, body }],
        kind: crate::event::GroupKind::StandaloneDdl,
        thread_id: 9,
    }
}

/// A row transaction as the SQL layer encodes one (TABLE_MAP, then rows
/// events per statement); rows events are kept small to split statements.
fn rows_txn(statements: Vec<(&TableDef, RowsKind, Vec<RowChange>)>) -> TxnEvents {
    let mut events = Vec::new();
    for (table, kind, changes) in statements {
        events.push(PendingEvent { type_code: ev::type_code::TABLE_MAP, flags: 0, body: ev::table_map_body(table) });
        for body in ev::rows_bodies(kind, table, &changes, 512).expect("seed rows are valid") {
            events.push(PendingEvent { type_code: kind.type_code(), flags: 0, body });
        }
    }
    TxnEvents { spilled: None, events, kind: crate::event::GroupKind::Transaction, thread_id: 9 }
}

/// Replaces the clock-derived values of a written file (header timestamps,
/// the FORMAT_DESCRIPTION creation time, XIDs) with fixed ones.
fn pin_clock_values(data: &mut [u8]) {
    let mut xid = 1000u64;
    for (start, size) in frames(data) {
        data[start..start + 4].copy_from_slice(&SEED_TIMESTAMP.to_le_bytes());
        let body = start + ev::HEADER_LEN;
        match data[start + 4] {
            ev::type_code::FORMAT_DESCRIPTION if size > ev::HEADER_LEN + 56 => {
                let created = body + 52..body + 56;
                if data[created.clone()] != [0; 4] {
                    data[created].copy_from_slice(&SEED_TIMESTAMP.to_le_bytes());
                }
            }
            ev::type_code::XID if size >= ev::HEADER_LEN + 8 => {
                xid += 1;
                data[body..body + 8].copy_from_slice(&xid.to_le_bytes());
            }
            _ => {}
        }
    }
}

// ------------------------------------------------------------------ framing

/// The (start, size) of each event the header chain frames in `data`, from
/// offset 4 (or 0 without the magic), until a header is missing, too short
/// or claims more bytes than are left. Framing only: no CRC or body checks.
pub fn frames(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = if data.starts_with(&ev::BINLOG_MAGIC) { ev::BINLOG_MAGIC.len() } else { 0 };
    while let Ok(h) = ev::parse_header(&data[pos..]) {
        let size = h.event_size as usize;
        if size > data.len() - pos {
            break;
        }
        out.push((pos, size));
        pos += size;
    }
    out
}

/// Whether `data`'s events carry CRC32s: false only if its first event is
/// a FORMAT_DESCRIPTION whose algorithm byte (the last before its own CRC)
/// says OFF. Read directly, so a mutated FORMAT_DESCRIPTION whose CRC no
/// longer matches still tells [`reseal`] where the other CRCs are.
fn file_checksum(data: &[u8]) -> bool {
    match frames(data).first() {
        Some(&(start, size))
            if data[start + 4] == ev::type_code::FORMAT_DESCRIPTION && size > ev::HEADER_LEN + ev::CHECKSUM_LEN =>
        {
            data[start + size - ev::CHECKSUM_LEN - 1] != ev::checksum_alg::OFF
        }
        _ => true,
    }
}

/// Makes every framed event of `data` self-consistent again after a
/// mutation: log_pos set to the event's end and the CRC32 recomputed (for
/// checksummed files, and always for FORMAT_DESCRIPTION, which carries
/// its CRC either way). Lets mutations of bodies reach the decoders.
pub fn reseal(data: &mut [u8]) {
    let checksum = file_checksum(data);
    for (start, size) in frames(data) {
        let end = start + size;
        data[start + 13..start + 17].copy_from_slice(&(end as u32).to_le_bytes());
        let has_crc = checksum || data[start + 4] == ev::type_code::FORMAT_DESCRIPTION;
        if has_crc && size >= ev::HEADER_LEN + ev::CHECKSUM_LEN {
            let crc = crc32fast::hash(&data[start..end - ev::CHECKSUM_LEN]);
            data[end - ev::CHECKSUM_LEN..end].copy_from_slice(&crc.to_le_bytes());
        }
    }
}

// ------------------------------------------------------------------ decoders

/// What [`check_events`] got through.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct EventsOutcome {
    pub events_decoded: usize,
    pub rows_decoded: usize,
}

/// Runs every decoder the server applies to binlog bytes over the events
/// framed in `data`: header and checksum, each event body (with the file's
/// checksum setting and the opposite one), rows against the seed table the
/// TABLE_MAP names (the applier's lookup), the replica GTID filter and the
/// SHOW BINLOG EVENTS listing from offset 4 and from `from`. Asserts what
/// a decode that succeeds promises.
pub fn check_events(data: &[u8], from: u64) -> EventsOutcome {
    let checksum = file_checksum(data);
    let mut rows = RowDecoder::default();
    let mut filter =
        crate::dump::AppliedFilter::new(crate::dump::GtidPosition::parse("0-1-3").expect("a valid GTID position"));
    let mut out = EventsOutcome::default();
    for (start, size) in frames(data) {
        let event = &data[start..start + size];
        filter.passes(event);
        let _ = ev::parse_event(event, !checksum);
        let Ok((header, parsed)) = ev::parse_event_with_header(event, checksum) else { continue };
        assert_eq!(header.event_size as usize, size, "decoded event size differs from its frame");
        out.events_decoded += 1;
        if let Event::Gtid { gtid, .. } = &parsed {
            assert_eq!(gtid.server_id, header.server_id, "GTID server id is the header's");
        }
        out.rows_decoded += rows.feed(&parsed);
    }
    for offset in [4, from] {
        check_listing(data, offset);
    }
    out
}

/// The applier's reading of rows: a TABLE_MAP names a table (looked up
/// among the seed tables by name, as the applier looks in its catalog) and
/// the rows events with its table id decode against that definition.
#[derive(Default)]
struct RowDecoder {
    maps: HashMap<u64, &'static TableDef>,
}

impl RowDecoder {
    /// Takes the next event; returns the rows it decoded.
    fn feed(&mut self, event: &Event) -> usize {
        match event {
            Event::TableMap(m) => {
                if let Some(def) = seed_tables().iter().find(|d| d.db == m.db && d.name == m.table) {
                    self.maps.insert(m.table_id, def);
                }
                0
            }
            Event::Rows { kind, table_id, body, .. } => {
                self.maps.get(table_id).map_or(0, |t| check_rows(*kind, body, t))
            }
            _ => 0,
        }
    }
}

/// Decodes a rows body as the applier does; returns the rows decoded.
fn check_rows(kind: RowsKind, body: &[u8], table: &TableDef) -> usize {
    let Ok(changes) = ev::decode_rows(kind, body, table) else { return 0 };
    let width = table.columns.len();
    for change in &changes {
        let images: Vec<&Vec<Value>> = match (kind, change) {
            (RowsKind::Write, RowChange::Insert(r)) | (RowsKind::Delete, RowChange::Delete(r)) => vec![r],
            (RowsKind::Update, RowChange::Update { before, after }) => vec![before, after],
            other => panic!("rows event of kind {:?} decoded as {:?}", other.0, other.1),
        };
        assert!(images.iter().all(|r| r.len() == width), "a decoded row image is not {width} columns wide");
    }
    changes.len()
}

/// SHOW BINLOG EVENTS' reader: rows in file order, each inside the file.
fn check_listing(data: &[u8], from: u64) {
    let listed = crate::listing::list_events(data, from);
    let mut prev_end = 0u64;
    for e in &listed {
        let end = e.pos + u64::from(e.header.event_size);
        assert!(e.pos >= prev_end && end <= data.len() as u64, "listed event {}..{end} out of order or bounds", e.pos);
        prev_end = end;
    }
}

// ------------------------------------------------------------------ recovery

/// How a recovery scan of a fuzzed binlog ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryOutcome {
    /// Nothing was cut; this many transactions would be replayed.
    Clean { txns: usize },
    /// A torn tail was cut.
    Cut { kind: CutKind, txns: usize },
    /// Start-up refused the binlog.
    Corrupt,
}

/// Where to make the scratch directory for [`check_recovery`]: tmpfs
/// (`/dev/shm`) when there is one, since recovery and the index writer
/// fsync and a fuzz loop installs thousands of binlogs; else the temp dir.
pub fn scratch_parent() -> std::path::PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Installs `files` (oldest first; the last is the live one) as the binlog
/// in `dir`, replacing whatever is there, and runs start-up recovery on it:
/// the scan, the transactions replay would apply, the applier's decoding of
/// their rows, and a replica's read of the result. Asserts the recovery
/// invariants (DESIGN.md "The one invariant"): no panic; either a typed
/// corruption error naming a file, an offset inside it and what to do, with
/// nothing cut, or an end position at an event boundary inside the live
/// file, a cut that really truncated the file and leaves no torn event
/// behind, and only transactions that end in their commit event. When
/// `seed` is given and `files` are its files with the last one cut short
/// (zero-filled or not), the replayed transactions must be exactly the
/// seed's that fit.
pub fn check_recovery(dir: &Path, files: &[Vec<u8>], seed: Option<&SeedBinlog>) -> RecoveryOutcome {
    install(dir, files);
    let last = files.len() as u32;
    let live = files.last().map_or(&[][..], Vec::as_slice);
    let scanned = match scan(dir, BASENAME, None) {
        Ok(s) => s,
        Err(e) => return check_refusal(dir, files, e, last),
    };
    check_scan(dir, &scanned, files);
    // Replay reads the earlier files too, which the scan did not validate.
    let txns = match scanned.transactions_after(BinlogPos::default()) {
        Ok(txns) => txns,
        Err(e) => return check_refusal(dir, files, e, last - 1),
    };
    check_txns(dir, &scanned, files, &txns);
    if let Some(seed) = seed {
        check_against_seed(seed, files, &txns);
    }
    check_replica_read(dir, last, scanned.end_pos.offset, live);
    match scanned.cut {
        Some(cut) => RecoveryOutcome::Cut { kind: cut.kind, txns: txns.len() },
        None => RecoveryOutcome::Clean { txns: txns.len() },
    }
}

fn install(dir: &Path, files: &[Vec<u8>]) {
    for entry in std::fs::read_dir(dir).expect("the fuzz directory is readable") {
        std::fs::remove_file(entry.expect("a directory entry").path()).expect("the fuzz directory holds only files");
    }
    let names: Vec<String> = (1..=files.len() as u32).map(|s| file_name(BASENAME, s)).collect();
    for (name, data) in names.iter().zip(files) {
        std::fs::write(dir.join(name), data).expect("write a binlog file");
    }
    write_index(dir, BASENAME, &names).expect("write the index");
}

/// Recovery refused the binlog: a corruption error that names one of the
/// first `up_to` files, an offset inside it and, mid-file, what to do; the
/// file is as it was.
fn check_refusal(dir: &Path, files: &[Vec<u8>], e: BinlogError, up_to: u32) -> RecoveryOutcome {
    let BinlogError::Corrupt { file, offset, reason } = e else { panic!("recovery failed with an untyped error: {e}") };
    let seq = (1..=up_to).find(|s| file_name(BASENAME, *s) == file).expect("the error names a checked binlog file");
    let data = &files[seq as usize - 1];
    assert!(offset <= data.len() as u64, "corruption offset {offset} beyond {file}");
    assert!(offset == 0 || reason.contains("truncate"), "no advice on what to do: {reason}");
    let on_disk = std::fs::read(dir.join(&file)).expect("read back");
    assert!(on_disk == *data, "{file} was changed although recovery refused it");
    RecoveryOutcome::Corrupt
}

/// The scan's promises: where writing continues and what was cut.
fn check_scan(dir: &Path, s: &RecoveryScan, files: &[Vec<u8>]) {
    let last = files.len() as u32;
    let live = files.last().map_or(&[][..], Vec::as_slice);
    let end = s.end_pos.offset;
    assert_eq!(s.end_pos.file_seq, last, "writing continues in the live file");
    let boundaries = boundaries(live);
    assert!(boundaries.contains(&end), "end position {end} is not an event boundary of the live file");
    let on_disk = std::fs::read(dir.join(file_name(BASENAME, last))).expect("read back");
    match &s.cut {
        Some(cut) => {
            assert_eq!((cut.offset, on_disk.len() as u64), (end, end), "the cut truncates the file to the end");
            assert!(on_disk[..] == live[..end as usize], "the cut kept bytes other than the file's prefix");
        }
        None => {
            assert!(on_disk == live, "the live file changed without a cut");
            assert!(live[end as usize..].iter().all(|b| *b == 0), "bytes after the end {end} were ignored, not cut");
        }
    }
}

/// The transactions replay would apply: in order, inside the recovered
/// end, each ending at an event boundary and, unless standalone DDL, in its
/// commit event; replay from one of them is the rest.
fn check_txns(dir: &Path, s: &RecoveryScan, files: &[Vec<u8>], txns: &[RecoveredTxn]) {
    let mut prev = BinlogPos::default();
    for t in txns {
        assert!(
            t.end_pos > prev && t.end_pos <= s.end_pos,
            "transaction end {:?} out of order or past the end",
            t.end_pos
        );
        prev = t.end_pos;
        let data = &files[t.end_pos.file_seq as usize - 1];
        assert!(boundaries_of(data, t).is_some(), "transaction end {:?} is not an event boundary", t.end_pos);
        if !t.standalone {
            assert_commit_event(data, t);
        }
        // Replay decodes each transaction's rows on its own.
        let mut rows = RowDecoder::default();
        let _decoded: usize = t.events.iter().map(|e| rows.feed(e)).sum();
    }
    assert_eq!(
        row_events_in(files, s.end_pos.offset),
        txns.iter().flat_map(|t| &t.events).filter(|e| matches!(e, Event::TableMap(_) | Event::Rows { .. })).count(),
        "a TABLE_MAP or rows event is left out of every replayed transaction"
    );
    if let Some(mid) = txns.get(txns.len() / 2) {
        let after = s.transactions_after(mid.end_pos).expect("readable from a transaction's end");
        assert!(after[..] == txns[txns.len() / 2 + 1..], "replay from a position is not the suffix");
    }
    check_rescan(dir, s, txns.len());
}

/// TABLE_MAP and rows events replay reads: all of the earlier files', the
/// live file's up to `end`.
fn row_events_in(files: &[Vec<u8>], end: u64) -> usize {
    use ev::type_code as t;
    let last = files.len() - 1;
    let mut n = 0;
    for (i, data) in files.iter().enumerate() {
        for (start, size) in frames(data) {
            let in_range = i < last || (start + size) as u64 <= end;
            let rows =
                matches!(data[start + 4], t::TABLE_MAP | t::WRITE_ROWS_V1 | t::UPDATE_ROWS_V1 | t::DELETE_ROWS_V1);
            n += usize::from(in_range && rows);
        }
    }
    n
}

/// 0 (no header yet), 4 (magic only) and the end of every framed event.
fn boundaries(data: &[u8]) -> Vec<u64> {
    let mut b = vec![0, ev::BINLOG_MAGIC.len() as u64];
    b.extend(frames(data).into_iter().map(|(start, size)| (start + size) as u64));
    b
}

fn boundaries_of(data: &[u8], t: &RecoveredTxn) -> Option<(usize, usize)> {
    frames(data).into_iter().find(|(start, size)| (start + size) as u64 == t.end_pos.offset)
}

/// A row transaction is replayed only if its last event is its commit.
fn assert_commit_event(data: &[u8], t: &RecoveredTxn) {
    let (start, size) = boundaries_of(data, t).expect("checked by the caller");
    let commit = match ev::parse_event(&data[start..start + size], file_checksum(data)) {
        Ok(Event::Xid(_)) => true,
        Ok(Event::Query { sql, .. }) => sql.eq_ignore_ascii_case("COMMIT"),
        _ => false,
    };
    assert!(commit, "transaction {} replayed without its commit event", t.gtid);
}

/// A second start-up finds nothing more to cut and the same transactions.
fn check_rescan(dir: &Path, first: &RecoveryScan, txns: usize) {
    let again = scan(dir, BASENAME, None).expect("a recovered binlog scans again");
    assert!(again.cut.is_none(), "a second scan cut again: {:?}", again.cut);
    assert_eq!((again.end_pos, again.last_gtid), (first.end_pos, first.last_gtid), "a second scan disagrees");
    let replayed = again.transactions_after(BinlogPos::default()).expect("readable").len();
    assert_eq!(replayed, txns, "a second scan replays a different number of transactions");
}

/// A cut seed replays the seed's first transactions: all that it kept whole.
fn check_against_seed(seed: &SeedBinlog, files: &[Vec<u8>], txns: &[RecoveredTxn]) {
    let Some((must, may)) = expected_commits(seed, files) else { return };
    let got: Vec<(crate::Gtid, BinlogPos)> = txns.iter().map(|t| (t.gtid, t.end_pos)).collect();
    let seeded: Vec<(crate::Gtid, BinlogPos)> = seed.commits.iter().map(|c| (c.gtid, c.end_pos)).collect();
    assert!(seeded.starts_with(&got), "a cut seed replays other transactions than the seed's: {got:?}");
    assert!((must..=may).contains(&got.len()), "a cut seed replays {} transactions, not {must}..={may}", got.len());
}

/// How many of the seed's commits `files` must and may replay, if `files`
/// are the seed's with the last one cut short (zero-filled or not): those
/// ending inside the bytes it kept, and — in a file without checksums,
/// where zero fill inside an event's body goes unnoticed — also those
/// ending inside the fill.
fn expected_commits(seed: &SeedBinlog, files: &[Vec<u8>]) -> Option<(usize, usize)> {
    let (live, earlier) = files.split_last()?;
    if earlier.iter().zip(&seed.files).any(|(a, b)| a != b) {
        return None;
    }
    let original = seed.files.get(earlier.len())?;
    // Zero fill that happens to equal the lost bytes restores them.
    let kept = live.iter().zip(original).take_while(|(a, b)| a == b).count();
    if !live[kept..].iter().all(|b| *b == 0) {
        return None;
    }
    let must = seed.commits_within(files.len(), kept as u64);
    let may = if file_checksum(original) { must } else { seed.commits_within(files.len(), live.len() as u64) };
    Some((must, may))
}

/// A replica's read of the recovered binlog, as COM_BINLOG_DUMP serves it:
/// every earlier file whole (or a typed error), the live file up to the end
/// recovery found, event by event at the boundaries recovery found.
fn check_replica_read(dir: &Path, last: u32, end: u64, live: &[u8]) {
    let limit = ReplicaLimit {
        current_file_seq: last,
        current_header_end: end,
        published: BinlogPos { file_seq: last, offset: end },
    };
    for seq in 1..=last {
        let Ok(mut cursor) = EventCursor::open(&dir.join(file_name(BASENAME, seq)), seq, 4) else { continue };
        let _ = cursor.checksums();
        let mut steps = 0usize;
        while let Ok(Next::Event(e)) = cursor.next(&limit) {
            assert!(e.len() >= ev::HEADER_LEN, "a replica got a {}-byte event", e.len());
            steps += 1;
            assert!(steps <= live.len().max(1 << 16), "the replica read does not end");
        }
        if seq == last && end >= 4 {
            assert_eq!(cursor.position().offset, end.max(4), "a replica stops exactly at the recovered end");
        }
    }
    let files: Vec<_> = (1..=last).map(|s| (file_name(BASENAME, s), s, dir.join(file_name(BASENAME, s)))).collect();
    let _ = crate::dump::gtid_start_file(&files, &crate::dump::GtidPosition::default());
}
