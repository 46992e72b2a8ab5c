//! A power-loss fault layer under redb, for tests only.
//!
//! Why it exists: OneLog's storage has no WAL; redb is made durable only by
//! checkpoints, and recovery trusts that redb comes back at *some* durable
//! commit whose position marker says which binlog prefix it holds. A kill -9
//! test cannot check that: the OS page cache survives a process kill, so
//! every unsynced write still reaches the disk. This backend (a
//! [`redb::StorageBackend`], opened through
//! [`crate::Store::open_with_backend`]) keeps the file in memory as two
//! images — what reads see (the page cache) and what has been synced (the
//! disk) — plus the ordered list of writes and resizes issued since the
//! last `sync_data`. [`FaultBackend::power_cut`] throws the unsynced part
//! away (keeping, per mode, a torn part of it), and [`FaultBackend::reopen`]
//! hands out a fresh backend on the surviving image, as a restart after
//! power loss would see the file. The binlog's counterpart is
//! `onelog_binlog::file::FaultIo`.
//!
//! The model follows redb's own assumptions about media (redb
//! `docs/design.md`, "Assumptions about underlying media"): single bytes
//! are written atomically, a write never changes bytes outside its range,
//! and everything written before a `sync_data` survives. Nothing else is
//! promised, so the cut may keep any subset of the unsynced writes
//! ([`CutMode::Reordered`]) or a prefix of them in issue order
//! ([`CutMode::Prefix`]), with one write torn at a random byte.

use parking_lot::Mutex;
use std::fmt;
use std::io;
use std::sync::Arc;

/// One operation issued since the last sync.
#[derive(Clone)]
enum Op {
    Write { offset: u64, data: Vec<u8> },
    SetLen(u64),
}

/// Which unsynced operations a power cut lets reach the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutMode {
    /// A random prefix of the unsynced operations in issue order; the first
    /// one not kept whole is torn at a random byte (a write) or kept or lost
    /// (a resize). Includes "nothing survives".
    Prefix,
    /// Each unsynced operation independently survives whole, torn at a
    /// random byte, or not at all (the page cache writes back in any
    /// order). Bytes written beyond a lost extension are lost with it.
    Reordered,
}

#[derive(Default)]
struct Disk {
    /// What reads see: every write so far (the page cache).
    live: Vec<u8>,
    /// What is on the medium: the state at the last sync.
    synced: Vec<u8>,
    /// Operations since the last sync, in issue order.
    pending: Vec<Op>,
    /// After a power cut every mutation and sync fails with EIO.
    dead: bool,
    /// Every sync fails with EIO; the disk stays up.
    fail_syncs: bool,
    syncs: u64,
    /// Armed cut: (operations left before it, seed, mode).
    armed: Option<(u64, u64, CutMode)>,
}

/// A redb storage backend with simulated power loss. Cloning gives another
/// handle to the same simulated file (keep one to cut power while redb owns
/// the other).
#[derive(Clone, Default)]
pub struct FaultBackend {
    disk: Arc<Mutex<Disk>>,
}

impl fmt::Debug for FaultBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.disk.lock();
        f.debug_struct("FaultBackend")
            .field("len", &d.live.len())
            .field("pending_ops", &d.pending.len())
            .field("dead", &d.dead)
            .finish()
    }
}

fn eio() -> io::Error {
    io::Error::from_raw_os_error(libc_eio())
}

/// EIO without a libc dependency (the value is 5 on every Unix).
const fn libc_eio() -> i32 {
    5
}

fn out_of_range() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "fault backend: access beyond the end of the file")
}

/// splitmix64: deterministic per seed so a failing cut reproduces.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform-enough in `0..=n`.
    fn upto(&mut self, n: u64) -> u64 {
        self.next() % (n + 1)
    }
}

/// Applies `op` to `image`, keeping only the first `keep` bytes of a write.
/// A write is clipped to the image's length: bytes past an extension that
/// did not survive have nowhere to land.
fn apply(image: &mut Vec<u8>, op: &Op, keep: usize) {
    match op {
        Op::Write { offset, data } => {
            let start = (*offset as usize).min(image.len());
            let end = (*offset as usize + keep.min(data.len())).min(image.len());
            if start < end {
                image[start..end].copy_from_slice(&data[..end - start]);
            }
        }
        Op::SetLen(len) => image.resize(*len as usize, 0),
    }
}

impl FaultBackend {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// A file whose synced (and visible) content is `image`.
    pub fn from_image(image: Vec<u8>) -> Self {
        let disk = Disk { live: image.clone(), synced: image, ..Disk::default() };
        FaultBackend { disk: Arc::new(Mutex::new(disk)) }
    }

    /// Simulates power loss: the file keeps its synced content plus what
    /// `mode` lets survive of the unsynced operations (chosen by `seed`).
    /// Every later write, resize or sync through any handle fails with EIO.
    /// Returns how many unsynced operations were pending.
    pub fn power_cut(&self, seed: u64, mode: CutMode) -> usize {
        Self::cut(&mut self.disk.lock(), seed, mode)
    }

    /// Arms a power cut that happens by itself at the `after_ops`-th next
    /// write, resize or sync (counting from 0): a write or resize is issued
    /// (unsynced) and then power fails, a sync fails before promoting
    /// anything. The operation returns EIO. Lets a test cut power in the
    /// middle of a checkpoint, which a timer rarely hits.
    pub fn arm_cut(&self, after_ops: u64, seed: u64, mode: CutMode) {
        self.disk.lock().armed = Some((after_ops, seed, mode));
    }

    /// Every `sync_data` from now on fails with EIO (the medium keeps what
    /// was synced before; reads and writes still work).
    pub fn set_fail_sync(&self, fail: bool) {
        self.disk.lock().fail_syncs = fail;
    }

    /// True once power was cut (by [`Self::power_cut`] or an armed cut).
    pub fn is_dead(&self) -> bool {
        self.disk.lock().dead
    }

    /// Counts down an armed cut; true if power fails at this operation.
    fn armed_fires(d: &mut Disk) -> bool {
        match &mut d.armed {
            Some((0, _, _)) => true,
            Some((n, _, _)) => {
                *n -= 1;
                false
            }
            None => false,
        }
    }

    fn fire(d: &mut Disk) -> io::Error {
        if let Some((_, seed, mode)) = d.armed.take() {
            Self::cut(d, seed, mode);
        }
        eio()
    }

    fn cut(d: &mut Disk, seed: u64, mode: CutMode) -> usize {
        let mut rng = Rng(seed);
        let mut image = std::mem::take(&mut d.synced);
        let n = d.pending.len();
        match mode {
            CutMode::Prefix => {
                let whole = rng.upto(n as u64) as usize;
                for op in &d.pending[..whole] {
                    apply(&mut image, op, usize::MAX);
                }
                if let Some(op) = d.pending.get(whole) {
                    match op {
                        Op::Write { data, .. } => apply(&mut image, op, rng.upto(data.len() as u64) as usize),
                        Op::SetLen(_) if rng.next().is_multiple_of(2) => apply(&mut image, op, 0),
                        Op::SetLen(_) => {}
                    }
                }
            }
            CutMode::Reordered => {
                for op in &d.pending {
                    match (op, rng.next() % 3) {
                        (_, 0) => {}
                        (Op::Write { data, .. }, 1) => apply(&mut image, op, rng.upto(data.len() as u64) as usize),
                        _ => apply(&mut image, op, usize::MAX),
                    }
                }
            }
        }
        d.pending.clear();
        d.live = image.clone();
        d.synced = image;
        d.dead = true;
        n
    }

    /// A new backend on what the medium holds now (after a power cut: what
    /// survived it), as the next process would find the file.
    pub fn reopen(&self) -> FaultBackend {
        Self::from_image(self.disk.lock().synced.clone())
    }

    /// Number of successful `sync_data` calls.
    pub fn syncs(&self) -> u64 {
        self.disk.lock().syncs
    }

    /// Operations issued since the last sync.
    pub fn unsynced_ops(&self) -> usize {
        self.disk.lock().pending.len()
    }
}

impl redb::StorageBackend for FaultBackend {
    fn len(&self) -> Result<u64, io::Error> {
        Ok(self.disk.lock().live.len() as u64)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), io::Error> {
        let d = self.disk.lock();
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let end = start.checked_add(out.len()).ok_or_else(out_of_range)?;
        if end > d.live.len() {
            return Err(out_of_range());
        }
        out.copy_from_slice(&d.live[start..end]);
        Ok(())
    }

    fn set_len(&self, len: u64) -> Result<(), io::Error> {
        let mut d = self.disk.lock();
        if d.dead {
            return Err(eio());
        }
        let len_usize = usize::try_from(len).map_err(|_| out_of_range())?;
        d.live.resize(len_usize, 0);
        d.pending.push(Op::SetLen(len));
        if Self::armed_fires(&mut d) {
            return Err(Self::fire(&mut d));
        }
        Ok(())
    }

    fn sync_data(&self) -> Result<(), io::Error> {
        let mut d = self.disk.lock();
        if d.dead || d.fail_syncs {
            return Err(eio());
        }
        if Self::armed_fires(&mut d) {
            return Err(Self::fire(&mut d));
        }
        // Replaying the journal (rather than copying `live`) keeps the two
        // images' bookkeeping honest: after a sync they must be equal.
        let pending = std::mem::take(&mut d.pending);
        let mut synced = std::mem::take(&mut d.synced);
        for op in &pending {
            apply(&mut synced, op, usize::MAX);
        }
        assert!(synced == d.live, "fault backend: journal replay diverged from the live image");
        d.synced = synced;
        d.syncs += 1;
        Ok(())
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), io::Error> {
        let mut d = self.disk.lock();
        if d.dead {
            return Err(eio());
        }
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let end = start.checked_add(data.len()).ok_or_else(out_of_range)?;
        if end > d.live.len() {
            return Err(out_of_range());
        }
        d.live[start..end].copy_from_slice(data);
        d.pending.push(Op::Write { offset, data: data.to_vec() });
        if Self::armed_fires(&mut d) {
            return Err(Self::fire(&mut d));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use redb::StorageBackend;

    fn content(b: &FaultBackend) -> Vec<u8> {
        let mut out = vec![0u8; b.len().unwrap() as usize];
        b.read(0, &mut out).unwrap();
        out
    }

    #[test]
    fn synced_bytes_survive_and_unsynced_ones_may_not() {
        for seed in 0..200 {
            for mode in [CutMode::Prefix, CutMode::Reordered] {
                let b = FaultBackend::new();
                b.set_len(8).unwrap();
                b.write(0, b"synced!!").unwrap();
                b.sync_data().unwrap();
                b.set_len(16).unwrap();
                b.write(8, b"later...").unwrap();
                b.write(0, b"SYNCED").unwrap();
                assert_eq!(b.power_cut(seed, mode), 3);
                assert!(b.write(0, b"x").is_err() && b.sync_data().is_err() && b.set_len(1).is_err());
                let after = content(&b.reopen());
                assert!(after.len() == 8 || after.len() == 16, "{seed}: {after:?}");
                // Bytes 2..8 were synced and are only ever rewritten with
                // the same or the "SYNCED" bytes; 6..8 were never rewritten.
                assert_eq!(&after[6..8], b"!!");
                for (i, &byte) in after[..6].iter().enumerate() {
                    assert!(byte == b"synced"[i] || byte == b"SYNCED"[i], "{seed}: {after:?}");
                }
                if after.len() == 16 {
                    for (i, &byte) in after[8..].iter().enumerate() {
                        assert!(byte == 0 || byte == b"later..."[i], "{seed}: {after:?}");
                    }
                }
                if mode == CutMode::Prefix && after.len() == 8 {
                    // The extension came first: nothing after it survived.
                    assert_eq!(after, b"synced!!");
                }
            }
        }
    }

    #[test]
    fn an_armed_cut_fires_at_its_operation() {
        let b = FaultBackend::new();
        b.arm_cut(2, 1, CutMode::Prefix);
        b.set_len(4).unwrap();
        b.write(0, b"ab").unwrap();
        assert!(!b.is_dead());
        assert!(b.sync_data().is_err());
        assert!(b.is_dead());
        assert_eq!(b.syncs(), 0);
        let after = content(&b.reopen());
        assert!(after.is_empty() || after.len() == 4, "{after:?}");
    }

    #[test]
    fn a_synced_file_survives_whole() {
        let b = FaultBackend::new();
        b.set_len(4).unwrap();
        b.write(1, b"abc").unwrap();
        b.sync_data().unwrap();
        assert_eq!(b.power_cut(7, CutMode::Reordered), 0);
        assert_eq!(content(&b.reopen()), b"\0abc");
    }

    #[test]
    fn redb_reopens_at_its_last_durable_commit() {
        use redb::{Database, Durability, ReadableDatabase, TableDefinition};
        const T: TableDefinition<u64, u64> = TableDefinition::new("t");
        for seed in 0..40u64 {
            let mode = if seed % 2 == 0 { CutMode::Prefix } else { CutMode::Reordered };
            let b = FaultBackend::new();
            let db = Database::builder().create_with_backend(b.clone()).unwrap();
            let mut durable = 0u64;
            for i in 1..=200u64 {
                let mut w = db.begin_write().unwrap();
                let immediate = i % 37 == 0;
                if !immediate {
                    w.set_durability(Durability::None).unwrap();
                }
                w.open_table(T).unwrap().insert(0, i).unwrap();
                w.commit().unwrap();
                if immediate {
                    durable = i;
                }
            }
            b.power_cut(seed, mode);
            drop(db);
            let db = Database::builder().create_with_backend(b.reopen()).unwrap();
            let r = db.begin_read().unwrap();
            let got = match r.open_table(T) {
                Ok(t) => t.get(0).unwrap().map_or(0, |g| g.value()),
                Err(_) => 0,
            };
            assert_eq!(got, durable, "seed {seed} {mode:?}");
        }
    }
}
