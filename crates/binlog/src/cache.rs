//! A transaction's binlog cache: the events it will commit, in memory up
//! to `binlog_cache_size`, past it in an anonymous temporary file under
//! `tmpdir` — as MariaDB's binlog cache spills to disk — so that a large
//! transaction holds its events on disk rather than in memory until the
//! commit pipeline copies them into the binlog.
//!
//! Owns: the events' order, their binlog size (for `max_binlog_cache_size`)
//! and truncation back to an earlier length (statement and savepoint
//! rollback). The temporary file is never part of durability: it is
//! anonymous (gone with its handle or a crash), and a transaction is
//! committed only once the pipeline has written its events to the binlog.
//!
//! Invariant: the spilled events all precede the ones in memory; a
//! transaction's events are `spilled ++ memory`.

use crate::pipeline::PendingEvent;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

/// What an event adds to the binlog besides its body: header and CRC32.
pub const EVENT_OVERHEAD_BYTES: u64 = 19 + 4;
/// A spilled event's record in the temporary file: type code (1 byte),
/// flags (2), body length (4), then the body.
const RECORD_HEADER_BYTES: u64 = 7;
/// Read buffer for the temporary file.
const SPILL_BUFFER_BYTES: usize = 1 << 20;

/// Events moved to a temporary file, in order.
#[derive(Debug)]
pub struct SpilledEvents {
    file: File,
    /// Where each spilled event's record starts in `file`.
    starts: Vec<u64>,
    /// Where the next record goes: the file's used length.
    end_bytes: u64,
}

impl SpilledEvents {
    fn create(tmpdir: &PathBuf) -> io::Result<SpilledEvents> {
        Ok(SpilledEvents { file: tempfile::tempfile_in(tmpdir)?, starts: Vec::new(), end_bytes: 0 })
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The bytes the spilled events take in a binlog file.
    pub fn binlog_bytes(&self) -> u64 {
        binlog_bytes_of(self.end_bytes, self.starts.len())
    }

    /// Appends `events` at the end of the file, with one write.
    fn write(&mut self, events: &[PendingEvent]) -> io::Result<()> {
        let records_bytes = events.iter().map(|e| RECORD_HEADER_BYTES as usize + e.body.len()).sum();
        let mut records = Vec::with_capacity(records_bytes);
        let mut starts = Vec::with_capacity(events.len());
        for e in events {
            let body_len = u32::try_from(e.body.len()).map_err(|_| io::Error::other("binlog event over 4 GiB"))?;
            starts.push(self.end_bytes + records.len() as u64);
            records.push(e.type_code);
            records.extend_from_slice(&e.flags.to_le_bytes());
            records.extend_from_slice(&body_len.to_le_bytes());
            records.extend_from_slice(&e.body);
        }
        self.file.write_all_at(&records, self.end_bytes)?;
        self.starts.append(&mut starts);
        self.end_bytes += records.len() as u64;
        Ok(())
    }

    /// Keeps the first `len` spilled events.
    fn truncate(&mut self, len: usize) {
        if len < self.starts.len() {
            self.end_bytes = self.starts[len];
            self.starts.truncate(len);
            // Only gives the disk space back: what lies past `end_bytes` is
            // never read and is overwritten by the next records, so a
            // failure here changes nothing.
            let _ = self.file.set_len(self.end_bytes);
        }
    }

    /// Reads the spilled events back in order, calling `each` with every
    /// one's type code, flags and body; stops at `each`'s first error.
    pub fn read_each<E: From<io::Error>>(
        &self,
        mut each: impl FnMut(u8, u16, &[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut reader = BufReader::with_capacity(SPILL_BUFFER_BYTES, &self.file);
        reader.seek(SeekFrom::Start(0))?;
        let mut body = Vec::new();
        for _ in 0..self.starts.len() {
            let mut header = [0u8; RECORD_HEADER_BYTES as usize];
            reader.read_exact(&mut header)?;
            let flags = u16::from_le_bytes([header[1], header[2]]);
            let body_len = u32::from_le_bytes([header[3], header[4], header[5], header[6]]) as usize;
            body.resize(body_len, 0);
            reader.read_exact(&mut body)?;
            each(header[0], flags, &body)?;
        }
        Ok(())
    }
}

/// The binlog bytes of `count` spilled events whose records take
/// `record_bytes` in the file.
fn binlog_bytes_of(record_bytes: u64, count: usize) -> u64 {
    record_bytes + count as u64 * (EVENT_OVERHEAD_BYTES - RECORD_HEADER_BYTES)
}

/// A transaction's events; see the module comment.
#[derive(Debug, Default)]
pub struct EventCache {
    spilled: Option<SpilledEvents>,
    memory: Vec<PendingEvent>,
    /// The binlog bytes of `memory`.
    memory_bytes: u64,
    /// `binlog_cache_size`: past it the events in memory go to the file.
    memory_limit_bytes: u64,
    /// Where the file is made (`tmpdir`); `None`: the cache never spills.
    tmpdir: Option<PathBuf>,
}

impl EventCache {
    /// A cache that keeps up to `memory_limit_bytes` of events in memory,
    /// spilling the rest to a file under `tmpdir`.
    pub fn new(memory_limit_bytes: u64, tmpdir: Option<PathBuf>) -> EventCache {
        EventCache { memory_limit_bytes, tmpdir, ..EventCache::default() }
    }

    /// Changes where and past what size the cache spills from now on.
    pub fn set_spill(&mut self, memory_limit_bytes: u64, tmpdir: Option<PathBuf>) {
        self.memory_limit_bytes = memory_limit_bytes;
        self.tmpdir = tmpdir;
    }

    pub fn len(&self) -> usize {
        self.spilled_len() + self.memory.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True once some events went to the temporary file, even if they
    /// were taken back since (MariaDB's `Binlog_cache_disk_use` counts such
    /// a transaction).
    pub fn has_spilled(&self) -> bool {
        self.spilled.is_some()
    }

    fn spilled_len(&self) -> usize {
        self.spilled.as_ref().map_or(0, SpilledEvents::len)
    }

    /// The bytes the events take in a binlog file.
    pub fn binlog_bytes(&self) -> u64 {
        self.spilled.as_ref().map_or(0, SpilledEvents::binlog_bytes) + self.memory_bytes
    }

    /// Adds an event at the end; the events in memory go to the file once
    /// they pass the memory limit.
    pub fn push(&mut self, event: PendingEvent) -> io::Result<()> {
        self.memory_bytes += event.body.len() as u64 + EVENT_OVERHEAD_BYTES;
        self.memory.push(event);
        if self.memory_bytes > self.memory_limit_bytes {
            if let Some(tmpdir) = &self.tmpdir {
                let spilled = match &mut self.spilled {
                    Some(s) => s,
                    None => self.spilled.insert(SpilledEvents::create(tmpdir)?),
                };
                spilled.write(&self.memory)?;
                self.memory.clear();
                self.memory_bytes = 0;
            }
        }
        Ok(())
    }

    /// Keeps the first `len` events.
    pub fn truncate(&mut self, len: usize) {
        let spilled_len = self.spilled_len();
        if len >= spilled_len {
            self.memory.truncate(len - spilled_len);
        } else {
            self.memory.clear();
            if let Some(s) = &mut self.spilled {
                s.truncate(len);
            }
        }
        self.memory_bytes = self.memory.iter().map(|e| e.body.len() as u64 + EVENT_OVERHEAD_BYTES).sum();
    }

    /// Adds `other`'s events after these.
    pub fn append(&mut self, other: EventCache) -> io::Result<()> {
        let (spilled, memory) = other.into_parts();
        if let Some(spilled) = spilled {
            spilled.read_each(|type_code, flags, body| {
                self.push(PendingEvent { type_code, flags, body: body.to_vec() })
            })?;
        }
        memory.into_iter().try_for_each(|e| self.push(e))
    }

    /// The spilled events (first) and those in memory (after them).
    pub fn into_parts(self) -> (Option<SpilledEvents>, Vec<PendingEvent>) {
        (self.spilled.filter(|s| !s.is_empty()), self.memory)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(i: usize, body_bytes: usize) -> PendingEvent {
        PendingEvent { type_code: (i % 200) as u8, flags: i as u16, body: vec![i as u8; body_bytes] }
    }

    fn all_events(cache: EventCache) -> Vec<PendingEvent> {
        let (spilled, memory) = cache.into_parts();
        let mut out = Vec::new();
        if let Some(s) = spilled {
            s.read_each(|type_code, flags, body| {
                out.push(PendingEvent { type_code, flags, body: body.to_vec() });
                Ok::<_, io::Error>(())
            })
            .expect("read spilled events");
        }
        out.extend(memory);
        out
    }

    #[test]
    fn spills_past_the_limit_and_reads_back_in_order() {
        let dir = tempfile::tempdir().expect("tmpdir");
        let mut cache = EventCache::new(1000, Some(dir.path().to_path_buf()));
        let events: Vec<PendingEvent> = (0..50).map(|i| event(i, 10 + i * 7)).collect();
        for e in &events {
            cache.push(e.clone()).expect("push");
        }
        assert!(cache.has_spilled());
        assert_eq!(cache.len(), 50);
        let expected_bytes: u64 = events.iter().map(|e| e.body.len() as u64 + EVENT_OVERHEAD_BYTES).sum();
        assert_eq!(cache.binlog_bytes(), expected_bytes);
        assert_eq!(all_events(cache), events);
    }

    #[test]
    fn truncates_into_the_spilled_part_and_goes_on() {
        let dir = tempfile::tempdir().expect("tmpdir");
        let mut cache = EventCache::new(500, Some(dir.path().to_path_buf()));
        let events: Vec<PendingEvent> = (0..40).map(|i| event(i, 100)).collect();
        for e in &events {
            cache.push(e.clone()).expect("push");
        }
        cache.truncate(7);
        assert_eq!(cache.len(), 7);
        assert_eq!(cache.binlog_bytes(), 7 * (100 + EVENT_OVERHEAD_BYTES));
        for e in &events[20..25] {
            cache.push(e.clone()).expect("push");
        }
        let mut expected = events[..7].to_vec();
        expected.extend_from_slice(&events[20..25]);
        assert_eq!(all_events(cache), expected);
    }

    #[test]
    fn without_tmpdir_stays_in_memory() {
        let mut cache = EventCache::new(10, None);
        for i in 0..5 {
            cache.push(event(i, 100)).expect("push");
        }
        assert!(!cache.has_spilled());
        cache.truncate(2);
        let mut other = EventCache::new(10, None);
        other.push(event(9, 3)).expect("push");
        cache.append(other).expect("append");
        assert_eq!(all_events(cache), vec![event(0, 100), event(1, 100), event(9, 3)]);
    }
}
