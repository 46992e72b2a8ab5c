//! Start-up scan of the binlog: find the end of the last complete
//! transaction, cut a torn or partial tail, refuse mid-file corruption, and
//! hand complete transactions after a position to the applier.
//!
//! Owns: the rules that decide what is committed after a crash (DESIGN.md
//! "The one invariant": a transaction is committed iff its complete event
//! group is in the binlog).
//!
//! Rules:
//! - An event is valid when its length fits the file and its CRC (if the
//!   file has checksums) matches. Zero bytes where the next header would be
//!   are the preallocated remainder: end of data, not corruption.
//! - A transaction is complete at its XID (or a `COMMIT` QUERY), or, for a
//!   standalone GTID (DDL), at its first event after the GTID.
//! - An invalid event in the last file that is *not followed by any valid
//!   event* is a torn tail: the file is truncated to the end of the last
//!   complete transaction (the preallocated zeros go too; the pipeline
//!   re-preallocates) and the cut is reported. An invalid event followed by a
//!   valid one, or any invalid event in an earlier file, is corruption:
//!   [`BinlogError::Corrupt`], never skipped. So is an event that belongs
//!   to a transaction (TABLE_MAP, rows, XID, QUERY) found outside one, and
//!   a GTID inside an unfinished one: whole groups are written at once.

use crate::file::{ev, list_dir_files, parse_file_seq, read_index};
use crate::{BinlogError, BinlogPos, Gtid};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the scan cut from the tail of the last file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutKind {
    /// Complete events of a transaction whose XID never made it.
    PartialTransaction,
    /// A torn event or bytes that do not form an event.
    Garbage,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TailCut {
    pub file: String,
    /// New length of the file: end of the last complete transaction.
    pub offset: u64,
    /// Non-zero bytes removed (preallocated zeros not counted).
    pub bytes: u64,
    pub kind: CutKind,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScannedFile {
    pub seq: u32,
    pub name: String,
}

/// One committed transaction read back from the binlog.
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveredTxn {
    pub gtid: Gtid,
    pub commit_id: Option<u64>,
    pub standalone: bool,
    /// Position right after its XID (or its QUERY, for DDL).
    pub end_pos: BinlogPos,
    /// The events between GTID and XID (TABLE_MAP/ROWS…, or the DDL QUERY).
    pub events: Vec<ev::Event>,
}

/// Result of [`scan`].
#[derive(Debug, Clone)]
pub struct RecoveryScan {
    pub dir: PathBuf,
    pub basename: String,
    /// Files in order (index order, plus any newer unindexed file).
    pub files: Vec<ScannedFile>,
    /// Checksum setting of the last file (from its FORMAT_DESCRIPTION).
    pub checksum: bool,
    pub cut: Option<TailCut>,
    /// Last GTID written (highest position), to continue numbering.
    pub last_gtid: Option<Gtid>,
    /// Last GTID per domain at the end of the binlog (for GTID_LIST).
    pub gtid_state: Vec<Gtid>,
    /// Where writing continues: end of the last complete transaction.
    pub end_pos: BinlogPos,
    /// The last file ends with STOP or ROTATE (clean shutdown).
    pub last_file_closed: bool,
    /// The last file has a FORMAT_DESCRIPTION (a file whose header was torn
    /// never held a transaction and is recreated).
    pub last_file_header_complete: bool,
    pub elapsed_us: u64,
}

fn io_err(path: &Path, source: std::io::Error) -> BinlogError {
    BinlogError::Io { path: path.display().to_string(), source }
}

/// How one file walk ended.
struct Walk {
    txns: Vec<RecoveredTxn>,
    /// End of the last complete unit (transaction or file-level event).
    complete_end: u64,
    header_complete: bool,
    closed: bool,
    checksum: Option<bool>,
    gtid_list: Option<Vec<Gtid>>,
    last_gtid: Option<Gtid>,
    /// Some if bytes after `complete_end` must be cut.
    tail: Option<(CutKind, String, u64)>,
}

struct OpenTxn {
    gtid: Gtid,
    commit_id: Option<u64>,
    standalone: bool,
    events: Vec<ev::Event>,
}

fn all_zero(b: &[u8]) -> bool {
    b.iter().all(|&x| x == 0)
}

/// Offset after the last non-zero byte.
fn nonzero_end(data: &[u8]) -> usize {
    data.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1)
}

/// True if a well-formed event (consistent log_pos, valid CRC) starts at `at`.
fn valid_event_at(data: &[u8], at: usize, checksum: bool) -> bool {
    let Some(rest) = data.get(at..) else {
        return false;
    };
    let Ok(h) = ev::parse_header(rest) else {
        return false;
    };
    let size = h.event_size as usize;
    // log_pos is the strongest cheap filter against random bytes.
    size <= rest.len() && u64::from(h.log_pos) == (at + size) as u64 && ev::parse_event(&rest[..size], checksum).is_ok()
}

fn corrupt_msg(name: &str, offset: u64, reason: &str) -> String {
    format!(
        "{reason}; valid events follow, so this is corruption inside the log, not a torn tail. \
         Committed transactions after it cannot be trusted. Restore the binlog from a replica or \
         backup; only if losing every transaction from this offset on is acceptable, truncate \
         {name} to {offset} bytes and restart"
    )
}

/// Events only a transaction's group holds (between its GTID and its
/// XID): met outside one, their GTID event is missing.
fn belongs_to_a_transaction(e: &ev::Event) -> bool {
    matches!(e, ev::Event::TableMap(_) | ev::Event::Rows { .. } | ev::Event::Xid(_) | ev::Event::Query { .. })
}

/// Walks one file's events. `collect_after`: keep events of transactions
/// ending after this offset (None: keep none).
fn walk(name: &str, seq: u32, data: &[u8], is_last: bool, collect_after: Option<u64>) -> Result<Walk, BinlogError> {
    let mut w = Walk {
        txns: Vec::new(),
        complete_end: 0,
        header_complete: false,
        closed: false,
        checksum: None,
        gtid_list: None,
        last_gtid: None,
        tail: None,
    };
    let corrupt = |offset: u64, reason: String| BinlogError::Corrupt { file: name.to_string(), offset, reason };
    if data.len() < ev::BINLOG_MAGIC.len() || data[..4] != ev::BINLOG_MAGIC {
        if is_last && all_zero(data) {
            // Created, never got its header.
            return Ok(w);
        }
        if is_last && data.len() < 4 && ev::BINLOG_MAGIC.starts_with(data) {
            w.tail = Some((CutKind::Garbage, "torn magic".into(), 0));
            return Ok(w);
        }
        return Err(corrupt(0, "missing binlog magic".into()));
    }
    let mut pos = 4usize;
    w.complete_end = 4;
    let mut open: Option<OpenTxn> = None;
    let mut bad: Option<String> = None;
    while pos < data.len() {
        let rest = &data[pos..];
        if rest.len() < ev::HEADER_LEN || rest[..ev::HEADER_LEN].iter().all(|&b| b == 0) {
            if all_zero(rest) {
                break; // preallocated remainder
            }
            bad = Some(if rest.len() < ev::HEADER_LEN {
                "truncated event header".into()
            } else {
                "zeroed event header followed by data".into()
            });
            break;
        }
        let h = match ev::parse_header(rest) {
            Ok(h) => h,
            Err(e) => {
                bad = Some(format!("bad event header: {e}"));
                break;
            }
        };
        let size = h.event_size as usize;
        if size > rest.len() {
            bad = Some(format!("event length {size} runs past the end of the file ({} bytes left)", rest.len()));
            break;
        }
        if u64::from(h.log_pos) != (pos + size) as u64 {
            bad = Some(format!("event log_pos {} does not match its end {}", h.log_pos, pos + size));
            break;
        }
        let checksum = w.checksum.unwrap_or(true);
        let event = match ev::parse_event(&rest[..size], checksum) {
            Ok(e) => e,
            Err(e) => {
                bad = Some(format!("invalid event (type {}): {e}", h.type_code));
                break;
            }
        };
        let end = (pos + size) as u64;
        pos += size;
        let keep = collect_after.is_some_and(|a| end > a);
        match (&mut open, event) {
            (_, ev::Event::FormatDescription { checksum, .. }) if w.checksum.is_none() => {
                w.checksum = Some(checksum);
                w.header_complete = true;
                w.complete_end = end;
            }
            (None, ev::Event::Gtid { gtid, flags2, commit_id }) => {
                let gtid = Gtid { server_id: h.server_id, ..gtid };
                open = Some(OpenTxn {
                    gtid,
                    commit_id,
                    standalone: flags2 & ev::gtid_flag::STANDALONE != 0,
                    events: Vec::new(),
                });
            }
            (Some(_), ev::Event::Gtid { .. }) => {
                // Whole groups are written with one write, so a new GTID
                // inside an open transaction is damage, not tearing.
                return Err(corrupt(
                    end - size as u64,
                    corrupt_msg(name, w.complete_end, "GTID event inside an unfinished transaction"),
                ));
            }
            (Some(t), e) => {
                let finishes = if t.standalone {
                    !matches!(e, ev::Event::Other { type_code } if type_code == ev::type_code::ANNOTATE_ROWS)
                } else {
                    matches!(&e, ev::Event::Xid(_))
                        || matches!(&e, ev::Event::Query { sql, .. } if sql.eq_ignore_ascii_case("COMMIT"))
                };
                let is_terminator = !t.standalone && finishes;
                if keep && !is_terminator {
                    t.events.push(e);
                }
                if finishes {
                    let t = open.take().expect("open txn");
                    w.last_gtid = Some(t.gtid);
                    w.complete_end = end;
                    w.closed = false;
                    if keep {
                        w.txns.push(RecoveredTxn {
                            gtid: t.gtid,
                            commit_id: t.commit_id,
                            standalone: t.standalone,
                            end_pos: BinlogPos { file_seq: seq, offset: end },
                            events: t.events,
                        });
                    }
                }
            }
            (None, e) if belongs_to_a_transaction(&e) => {
                // Replay would skip it: a lost write, unless start-up stops.
                let reason = format!("{} event outside any transaction", ev::event_type_name(h.type_code));
                return Err(corrupt(end - size as u64, corrupt_msg(name, w.complete_end, &reason)));
            }
            (None, e) => {
                match e {
                    ev::Event::GtidList(l) if w.gtid_list.is_none() => w.gtid_list = Some(l),
                    ev::Event::Stop | ev::Event::Rotate { .. } => w.closed = true,
                    _ => {}
                }
                w.complete_end = end;
            }
        }
    }
    let reason = match (bad, &open) {
        (None, None) => return Ok(w),
        (None, Some(_)) => "transaction without its XID at the end of the data".to_string(),
        (Some(r), _) => r,
    };
    let bad_at = pos;
    let checksum = w.checksum.unwrap_or(true);
    let nz_end = nonzero_end(data);
    let followed_by_valid =
        (bad_at + 1..nz_end.saturating_sub(ev::HEADER_LEN - 1)).any(|y| valid_event_at(data, y, checksum));
    if !is_last || followed_by_valid {
        return Err(corrupt(bad_at as u64, corrupt_msg(name, w.complete_end, &reason)));
    }
    let kind = if open.is_some() { CutKind::PartialTransaction } else { CutKind::Garbage };
    let cut_bytes = (nz_end as u64).saturating_sub(w.complete_end);
    w.tail = Some((kind, reason, cut_bytes));
    Ok(w)
}

/// Files of the set in order: the index, plus newer files it does not list
/// (crash between creating a file and rewriting the index). Without an index
/// the directory listing is used.
fn list_files(dir: &Path, basename: &str) -> Result<Vec<ScannedFile>, BinlogError> {
    let on_disk = list_dir_files(dir, basename)?;
    let mut files: Vec<ScannedFile> = match read_index(dir, basename)? {
        Some(names) => {
            let mut v = Vec::with_capacity(names.len());
            for n in names {
                let seq = parse_file_seq(basename, &n).ok_or_else(|| {
                    BinlogError::Malformed(format!("index names a file '{n}' that is not {basename}.NNNNNN"))
                })?;
                if !dir.join(&n).exists() {
                    return Err(BinlogError::Io {
                        path: dir.join(&n).display().to_string(),
                        source: std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            "listed in the binlog index but missing",
                        ),
                    });
                }
                v.push(ScannedFile { seq, name: n });
            }
            v
        }
        None => {
            if !on_disk.is_empty() {
                tracing::warn!(dir = %dir.display(), "binlog: index file missing; using the directory listing");
            }
            Vec::new()
        }
    };
    let last_seq = files.last().map_or(0, |f| f.seq);
    for (seq, name) in on_disk {
        if seq > last_seq {
            if last_seq > 0 {
                tracing::warn!(file = %name, "binlog: file not in the index; including it");
            }
            files.push(ScannedFile { seq, name });
        }
    }
    Ok(files)
}

fn read_file(path: &Path) -> Result<Vec<u8>, BinlogError> {
    std::fs::read(path).map_err(|e| io_err(path, e))
}

/// Scans the binlog in `dir` at start-up: validates the last file, cuts a
/// torn tail (truncating the file), and finds where writing continues and the
/// GTID state. `checksum_expected`: the configured `binlog_checksum`, only
/// compared against the file's (a mismatch is logged; the file wins).
pub fn scan(dir: &Path, basename: &str, checksum_expected: Option<bool>) -> Result<RecoveryScan, BinlogError> {
    let t0 = std::time::Instant::now();
    let files = list_files(dir, basename)?;
    let mut out = RecoveryScan {
        dir: dir.to_path_buf(),
        basename: basename.to_string(),
        files,
        checksum: checksum_expected.unwrap_or(true),
        cut: None,
        last_gtid: None,
        gtid_state: Vec::new(),
        end_pos: BinlogPos::default(),
        last_file_closed: false,
        last_file_header_complete: false,
        elapsed_us: 0,
    };
    let Some(last) = out.files.last().cloned() else {
        tracing::info!(dir = %dir.display(), "binlog: no binlog files; starting fresh");
        return Ok(out);
    };
    let path = dir.join(&last.name);
    let data = read_file(&path)?;
    let w = walk(&last.name, last.seq, &data, true, None)?;
    if let Some((kind, reason, bytes)) = &w.tail {
        let f = std::fs::OpenOptions::new().write(true).open(&path).map_err(|e| io_err(&path, e))?;
        f.set_len(w.complete_end).map_err(|e| io_err(&path, e))?;
        f.sync_all().map_err(|e| io_err(&path, e))?;
        tracing::warn!(file = %last.name, offset = w.complete_end, bytes, ?kind, %reason, "binlog recovery: truncated torn tail");
        out.cut = Some(TailCut {
            file: last.name.clone(),
            offset: w.complete_end,
            bytes: *bytes,
            kind: *kind,
            reason: reason.clone(),
        });
    }
    out.end_pos = BinlogPos { file_seq: last.seq, offset: w.complete_end };
    out.last_file_closed = w.closed;
    out.last_file_header_complete = w.header_complete;
    if let (Some(file_ck), Some(exp)) = (w.checksum, checksum_expected) {
        if file_ck != exp {
            tracing::warn!(file = %last.name, file_checksum = file_ck, configured = exp, "binlog: checksum setting differs from the last file; new files use the configured one");
        }
    }
    out.checksum = w.checksum.or(checksum_expected).unwrap_or(true);

    // GTID state: the GTID_LIST of the newest file that has a header, plus
    // the transactions in it.
    let mut state: BTreeMap<u32, Gtid> = BTreeMap::new();
    let mut last_gtid = w.last_gtid;
    let mut walks = vec![w];
    let mut idx = out.files.len() - 1;
    while walks.last().is_some_and(|w| w.gtid_list.is_none()) && idx > 0 {
        idx -= 1;
        let f = &out.files[idx];
        let data = read_file(&dir.join(&f.name))?;
        let pw = walk(&f.name, f.seq, &data, false, None)?;
        last_gtid = last_gtid.or(pw.last_gtid);
        walks.push(pw);
    }
    for w in walks.iter().rev() {
        for g in w.gtid_list.iter().flatten() {
            state.insert(g.domain_id, *g);
        }
        if let Some(g) = w.last_gtid {
            state.insert(g.domain_id, g);
        }
    }
    // The per-domain state also needs the last GTID of other domains inside
    // the last file; only our own domain is written by this server, and a
    // file's GTID_LIST carries the others.
    out.last_gtid = last_gtid;
    out.gtid_state = state.into_values().collect();
    out.elapsed_us = t0.elapsed().as_micros() as u64;
    tracing::info!(
        files = out.files.len(),
        end_file = %last.name,
        end_offset = out.end_pos.offset,
        last_gtid = ?out.last_gtid,
        cut = out.cut.is_some(),
        elapsed_us = out.elapsed_us,
        "binlog recovery scan done"
    );
    Ok(out)
}

impl RecoveryScan {
    /// Complete transactions that end after `pos`, in binlog order, across
    /// files. `BinlogPos::default()` means from the first file. Any invalid
    /// event in an earlier file is an error (they were synced on rotation).
    pub fn transactions_after(&self, pos: BinlogPos) -> Result<Vec<RecoveredTxn>, BinlogError> {
        let Some(first) = self.files.first() else {
            return Ok(Vec::new());
        };
        if pos.file_seq != 0 && pos.file_seq < first.seq {
            return Err(BinlogError::Malformed(format!(
                "position {}:{} is before the oldest binlog file {}; the transactions after it were purged",
                pos.file_seq, pos.offset, first.name
            )));
        }
        let mut out = Vec::new();
        for f in self.files.iter().filter(|f| f.seq >= pos.file_seq) {
            let is_last = f.seq == self.end_pos.file_seq;
            let mut data = read_file(&self.dir.join(&f.name))?;
            if is_last {
                // Never read past the end the scan established.
                data.truncate(self.end_pos.offset as usize);
            }
            let after = if f.seq == pos.file_seq { pos.offset } else { 0 };
            let w = walk(&f.name, f.seq, &data, is_last, Some(after))?;
            out.extend(w.txns);
        }
        Ok(out)
    }
}
