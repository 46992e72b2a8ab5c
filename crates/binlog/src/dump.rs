//! Reading the binlog for replicas (COM_BINLOG_DUMP): whole events in file
//! order from a position, never past the [`ReplicaLimit`] — a replica sees
//! only transactions this server has made visible.
//!
//! Owns the [`EventCursor`]. It reads files through their own descriptors
//! (positioned reads, never the writer's), and stops short of a live file's
//! preallocated zeros because the limit ends before them.

use crate::event::{parse_event, type_code, Event, HEADER_LEN};
use crate::file::io_err;
use crate::pipeline::ReplicaLimit;
use crate::{BinlogError, BinlogPos, Gtid};
use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Largest event a cursor accepts: MariaDB's `max_allowed_packet` ceiling.
/// A longer length field means a corrupt file, not an event.
pub const MAX_EVENT_BYTES: u64 = 1 << 30;

/// What a cursor found next.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// One whole event, header to checksum.
    Event(Vec<u8>),
    /// Nothing more is readable under the limit yet.
    Wait,
    /// A completed file was read to its end: go on to the next file.
    EndOfFile,
}

/// A reading position in one binlog file.
pub struct EventCursor {
    file: File,
    path: PathBuf,
    seq: u32,
    offset: u64,
}

impl EventCursor {
    /// Opens file `seq` at `path` for reading from `offset`.
    pub fn open(path: &Path, seq: u32, offset: u64) -> Result<EventCursor, BinlogError> {
        let file = File::open(path).map_err(|e| io_err(path, e))?;
        Ok(EventCursor { file, path: path.to_path_buf(), seq, offset })
    }

    /// The position after the last event returned.
    pub fn position(&self) -> BinlogPos {
        BinlogPos { file_seq: self.seq, offset: self.offset }
    }

    /// Whether this file's events carry CRC32 checksums, from its
    /// FORMAT_DESCRIPTION (`binlog_checksum` may differ between files
    /// written before and after a restart).
    pub fn checksums(&self) -> Result<bool, BinlogError> {
        let fd = self.event_at(4)?.ok_or_else(|| self.corrupt("no format description"))?;
        match parse_event(&fd, true)? {
            Event::FormatDescription { checksum, .. } => Ok(checksum),
            _ => Err(self.corrupt("the first event is not a format description")),
        }
    }

    /// The event starting at `offset`, wherever the cursor is (a replica
    /// starting mid-file first gets the file's FORMAT_DESCRIPTION at 4).
    pub fn event_at(&self, offset: u64) -> Result<Option<Vec<u8>>, BinlogError> {
        let Some(header) = self.read_exact_at(offset, HEADER_LEN)? else { return Ok(None) };
        let len = self.event_len(offset, &header)?;
        self.read_exact_at(offset, len as usize)
    }

    /// The next event readable under `limit`.
    pub fn next(&mut self, limit: &ReplicaLimit) -> Result<Next, BinlogError> {
        let end = limit.readable_end(self.seq);
        let completed = limit.is_completed(self.seq);
        if end.is_some_and(|end| self.offset >= end) && !(completed && end == Some(self.offset)) {
            return Ok(Next::Wait);
        }
        let Some(header) = self.read_exact_at(self.offset, HEADER_LEN)? else {
            return match (completed, end) {
                (true, None) if self.at_file_end()? => Ok(Next::EndOfFile),
                (true, None) => Err(self.corrupt("truncated event header")),
                _ => Ok(Next::Wait),
            };
        };
        let len = self.event_len(self.offset, &header)?;
        if let Some(end) = end {
            // A completed file's closing ROTATE is no transaction's: it is
            // readable once every transaction before it is.
            let closing_rotate = completed && self.offset == end && header[4] == type_code::ROTATE;
            if self.offset + len > end && !closing_rotate {
                return Ok(Next::Wait);
            }
        }
        let event = self.read_exact_at(self.offset, len as usize)?.ok_or_else(|| self.corrupt("truncated event"))?;
        self.offset += len;
        Ok(Next::Event(event))
    }

    fn event_len(&self, offset: u64, header: &[u8]) -> Result<u64, BinlogError> {
        let len = u64::from(u32::from_le_bytes([header[9], header[10], header[11], header[12]]));
        if len < HEADER_LEN as u64 || len > MAX_EVENT_BYTES {
            return Err(BinlogError::Corrupt {
                file: self.path.display().to_string(),
                offset,
                reason: format!("event length {len}"),
            });
        }
        Ok(len)
    }

    fn at_file_end(&self) -> Result<bool, BinlogError> {
        let len = self.file.metadata().map_err(|e| io_err(&self.path, e))?.len();
        Ok(self.offset >= len)
    }

    /// `len` bytes at `offset`, or `None` if the file ends before them.
    fn read_exact_at(&self, offset: u64, len: usize) -> Result<Option<Vec<u8>>, BinlogError> {
        let mut buf = vec![0u8; len];
        match self.file.read_exact_at(&mut buf, offset) {
            Ok(()) => Ok(Some(buf)),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(io_err(&self.path, e)),
        }
    }

    fn corrupt(&self, reason: &str) -> BinlogError {
        BinlogError::Corrupt { file: self.path.display().to_string(), offset: self.offset, reason: reason.into() }
    }
}

/// A GTID-mode replica's position (MariaDB's `@slave_connect_state`): the
/// last GTID it applied in each domain.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GtidPosition(BTreeMap<u32, Gtid>);

impl GtidPosition {
    /// Parses `domain-server-seq[,domain-server-seq...]` (empty: nothing
    /// applied yet).
    pub fn parse(text: &str) -> Result<GtidPosition, String> {
        let mut by_domain = BTreeMap::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let fields: Vec<&str> = part.split('-').collect();
            let gtid = match fields.as_slice() {
                [d, s, n] => d.parse().ok().zip(s.parse().ok()).zip(n.parse().ok()),
                _ => None,
            }
            .map(|((domain_id, server_id), seq_no)| Gtid { domain_id, server_id, seq_no })
            .ok_or_else(|| format!("Failed to parse GTID position '{text}'"))?;
            if by_domain.insert(gtid.domain_id, gtid).is_some() {
                return Err(format!("GTID position '{text}' names domain {} twice", gtid.domain_id));
            }
        }
        Ok(GtidPosition(by_domain))
    }

    /// The replica applied `gtid` already (or a later one of its domain).
    pub fn has_applied(&self, gtid: &Gtid) -> bool {
        self.0.get(&gtid.domain_id).is_some_and(|have| have.seq_no >= gtid.seq_no)
    }

    /// A GTID of the replica's position that this server never logged
    /// (given its binlog state, the last GTID per domain).
    pub fn ahead_of(&self, binlog_state: &[Gtid]) -> Option<Gtid> {
        self.0
            .values()
            .copied()
            .find(|g| binlog_state.iter().find(|b| b.domain_id == g.domain_id).is_none_or(|b| b.seq_no < g.seq_no))
    }
}

/// Where a GTID-mode dump starts: the newest of `files` (name, sequence,
/// path; oldest first) whose starting binlog state — its GTID_LIST — the
/// replica has applied, so that file holds everything the replica lacks.
/// `None`: the files it needs were purged.
pub fn gtid_start_file(
    files: &[(String, u32, PathBuf)],
    position: &GtidPosition,
) -> Result<Option<usize>, BinlogError> {
    for (i, (_, seq, path)) in files.iter().enumerate().rev() {
        let cursor = EventCursor::open(path, *seq, 4)?;
        if cursor.start_state()?.iter().all(|g| position.has_applied(g)) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// MariaDB's `BINLOG_GTID_POS(file, offset)`: the binlog state (last GTID
/// per domain) at `offset` of file `seq` — its GTID_LIST advanced by every
/// GTID event before `offset`. `None` if `offset` is no event boundary
/// readable under `limit`.
pub fn gtid_pos_at(path: &Path, seq: u32, offset: u64, limit: &ReplicaLimit) -> Result<Option<Vec<Gtid>>, BinlogError> {
    let mut cursor = EventCursor::open(path, seq, 4)?;
    let checksum = cursor.checksums()?;
    let mut state: BTreeMap<u32, Gtid> = cursor.start_state()?.into_iter().map(|g| (g.domain_id, g)).collect();
    while cursor.offset < offset {
        match cursor.next(limit)? {
            Next::Event(event) if event[4] == type_code::GTID => {
                if let Event::Gtid { gtid, .. } = parse_event(&event, checksum)? {
                    state.insert(gtid.domain_id, gtid);
                }
            }
            Next::Event(_) => {}
            Next::Wait | Next::EndOfFile => return Ok(None),
        }
    }
    Ok((cursor.offset == offset).then(|| state.into_values().collect()))
}

impl EventCursor {
    /// The binlog state at the start of this file: its GTID_LIST (the
    /// event after the FORMAT_DESCRIPTION).
    fn start_state(&self) -> Result<Vec<Gtid>, BinlogError> {
        let fd_len = self.event_at(4)?.map_or(0, |fd| fd.len() as u64);
        let checksum = self.checksums()?;
        match self.event_at(4 + fd_len)? {
            Some(next) => match parse_event(&next, checksum)? {
                Event::GtidList(state) => Ok(state),
                _ => Ok(Vec::new()),
            },
            None => Ok(Vec::new()),
        }
    }
}

/// Drops the transactions a GTID-mode replica already applied from its
/// dump: a GTID event it has starts a skipped group, which lasts until the
/// next GTID event. Events of no transaction (file headers, ROTATE, STOP)
/// always pass.
pub struct AppliedFilter {
    position: GtidPosition,
    skipping: bool,
}

impl AppliedFilter {
    pub fn new(position: GtidPosition) -> AppliedFilter {
        AppliedFilter { position, skipping: false }
    }

    /// Whether `event` (header to checksum) goes to the replica.
    pub fn passes(&mut self, event: &[u8]) -> bool {
        match event.get(4).copied() {
            Some(type_code::GTID) => {
                self.skipping = gtid_of(event).is_some_and(|g| self.position.has_applied(&g));
                !self.skipping
            }
            Some(
                type_code::FORMAT_DESCRIPTION
                | type_code::GTID_LIST
                | type_code::BINLOG_CHECKPOINT
                | type_code::ROTATE
                | type_code::STOP,
            ) => true,
            _ => !self.skipping,
        }
    }
}

/// The GTID a GTID event carries: seq_no and domain in its body, the
/// server id in its header.
fn gtid_of(event: &[u8]) -> Option<Gtid> {
    let u32_at = |at: usize| Some(u32::from_le_bytes(event.get(at..at + 4)?.try_into().ok()?));
    let seq_no = u64::from_le_bytes(event.get(HEADER_LEN..HEADER_LEN + 8)?.try_into().ok()?);
    Some(Gtid { domain_id: u32_at(HEADER_LEN + 8)?, server_id: u32_at(5)?, seq_no })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{gtid_body, write_event, GroupKind};

    fn gtid_event(g: Gtid) -> Vec<u8> {
        let mut out = Vec::new();
        write_event(
            &mut out,
            4,
            0,
            g.server_id,
            type_code::GTID,
            0,
            &gtid_body(&g, GroupKind::Transaction, None),
            true,
        );
        out
    }

    fn event(type_code: u8) -> Vec<u8> {
        let mut out = Vec::new();
        write_event(&mut out, 4, 0, 1, type_code, 0, &[0; 8], true);
        out
    }

    /// A completed file: two transactions' worth of events, then ROTATE.
    fn completed_file(dir: &Path) -> (PathBuf, Vec<u64>) {
        let mut bytes = crate::event::BINLOG_MAGIC.to_vec();
        let mut ends = Vec::new();
        for type_code in [type_code::GTID, type_code::XID, type_code::GTID, type_code::XID, type_code::ROTATE] {
            let start = bytes.len() as u64;
            ends.push(write_event(&mut bytes, start, 0, 1, type_code, 0, &[7; 12], true));
        }
        let path = dir.join("onelog-bin.000001");
        std::fs::write(&path, &bytes).expect("write");
        (path, ends)
    }

    #[test]
    fn cursor_never_reads_past_the_published_end() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, ends) = completed_file(dir.path());
        let mut cursor = EventCursor::open(&path, 1, 4).expect("open");
        let limit = |current_file_seq, published| ReplicaLimit {
            current_file_seq,
            current_header_end: 4,
            published: BinlogPos { file_seq: 1, offset: published },
        };
        // Live file, first transaction published: its two events, then wait.
        let live = limit(1, ends[1]);
        assert!(matches!(cursor.next(&live), Ok(Next::Event(_))));
        assert!(matches!(cursor.next(&live), Ok(Next::Event(_))));
        assert_eq!(cursor.next(&live).ok(), Some(Next::Wait));
        assert_eq!(cursor.position().offset, ends[1]);
        // Rotated, second transaction not yet published: still wait.
        assert_eq!(cursor.next(&limit(2, ends[1])).ok(), Some(Next::Wait));
        // Published: its events, then the closing ROTATE, then the end.
        let done = limit(2, ends[3]);
        for _ in 0..3 {
            assert!(matches!(cursor.next(&done), Ok(Next::Event(_))));
        }
        assert_eq!(cursor.position().offset, ends[4]);
        let later = ReplicaLimit { published: BinlogPos { file_seq: 2, offset: 300 }, ..done };
        assert_eq!(cursor.next(&later).ok(), Some(Next::EndOfFile));
    }

    #[test]
    fn position_parses_like_slave_connect_state() {
        let p = GtidPosition::parse("0-1-100, 2-5-7").expect("valid");
        assert!(p.has_applied(&Gtid { domain_id: 0, server_id: 9, seq_no: 100 }));
        assert!(!p.has_applied(&Gtid { domain_id: 0, server_id: 1, seq_no: 101 }));
        assert!(!p.has_applied(&Gtid { domain_id: 1, server_id: 1, seq_no: 1 }));
        assert_eq!(GtidPosition::parse(""), Ok(GtidPosition::default()));
        assert!(GtidPosition::parse("0-1").is_err());
        assert!(GtidPosition::parse("0-1-2,0-1-3").is_err());
        let state = [Gtid { domain_id: 0, server_id: 1, seq_no: 120 }];
        assert_eq!(p.ahead_of(&state), Some(Gtid { domain_id: 2, server_id: 5, seq_no: 7 }));
        assert_eq!(GtidPosition::parse("0-1-120").expect("valid").ahead_of(&state), None);
    }

    #[test]
    fn filter_skips_applied_transactions_whole() {
        let mut filter = AppliedFilter::new(GtidPosition::parse("0-1-2").expect("valid"));
        let g = |seq_no| Gtid { domain_id: 0, server_id: 1, seq_no };
        let stream = [
            (event(type_code::FORMAT_DESCRIPTION), true),
            (gtid_event(g(2)), false),
            (event(type_code::TABLE_MAP), false),
            (event(type_code::XID), false),
            (event(type_code::ROTATE), true),
            (gtid_event(g(3)), true),
            (event(type_code::QUERY), true),
        ];
        for (i, (ev, passes)) in stream.iter().enumerate() {
            assert_eq!(filter.passes(ev), *passes, "event {i}");
        }
    }
}
