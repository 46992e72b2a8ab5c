//! The binlog file set: `<base>.000001`, `<base>.000002`, … plus `<base>.index`.
//!
//! Owns: creating files (magic, FORMAT_DESCRIPTION, GTID_LIST,
//! BINLOG_CHECKPOINT), background zero-fill preallocation of the *next* file,
//! positioned appends at the current end, rotation (ROTATE, trim, sync, next
//! file), the index file (rewritten via temp file + rename + directory
//! fsync), purge, RESET MASTER and clean close (STOP, trim, sync). It also
//! owns the I/O seam ([`BinlogIo`] / [`IoFile`]) through which every binlog
//! data write and sync goes, with the real implementation ([`StdIo`]) and a
//! fault-injecting one for tests ([`FaultIo`]).
//!
//! Invariants:
//! - A file only gets its final name after its header is written and synced,
//!   so every named binlog file starts with a complete header.
//! - `end_bytes` of the current file is the offset right after the last
//!   complete event group written; every byte in `[end_bytes, alloc_bytes)`
//!   is zero (preallocation), which recovery reads as "end of data".
//! - The index lists files in increasing sequence; the current file is last.

use crate::recovery::RecoveryScan;
use crate::{BinlogError, BinlogPos, Gtid};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Event encoding used by this module, `pipeline` and `recovery`.
pub use crate::event as ev;

// ---------------------------------------------------------------------------
// I/O seam
// ---------------------------------------------------------------------------

/// An open binlog data file. Every write and sync of binlog data goes through
/// this trait so tests can inject ENOSPC, EIO and power loss.
pub trait IoFile: Send + Sync {
    /// Positioned write of the whole buffer (`pwrite` loop).
    fn write_at(&self, buf: &[u8], offset_bytes: u64) -> io::Result<()>;
    /// Positioned read; returns bytes read (0 at EOF).
    fn read_at(&self, buf: &mut [u8], offset_bytes: u64) -> io::Result<usize>;
    /// `fdatasync`.
    fn sync_data(&self) -> io::Result<()>;
    /// `fsync`.
    fn sync_all(&self) -> io::Result<()>;
    /// `ftruncate`.
    fn set_len(&self, len_bytes: u64) -> io::Result<()>;
    /// Current size from `fstat`.
    fn len_bytes(&self) -> io::Result<u64>;
    /// True if opened with `O_DSYNC` (every write is durable on return, so
    /// the sync stage issues no explicit sync).
    fn is_o_dsync(&self) -> bool;
}

/// File-system operations on binlog data files.
pub trait BinlogIo: Send + Sync + 'static {
    /// Opens `path` read-write; `create` creates it (truncating any old
    /// content); `o_dsync` opens it with `O_DSYNC`.
    fn open(&self, path: &Path, create: bool, o_dsync: bool) -> io::Result<Arc<dyn IoFile>>;
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// fsync of a directory, making creates/renames/removes in it durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
}

/// Real files.
#[derive(Debug, Default, Clone, Copy)]
pub struct StdIo;

struct StdFile {
    file: std::fs::File,
    o_dsync: bool,
}

impl IoFile for StdFile {
    fn write_at(&self, buf: &[u8], offset_bytes: u64) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.file.write_all_at(buf, offset_bytes)
    }
    fn read_at(&self, buf: &mut [u8], offset_bytes: u64) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        self.file.read_at(buf, offset_bytes)
    }
    fn sync_data(&self) -> io::Result<()> {
        self.file.sync_data()
    }
    fn sync_all(&self) -> io::Result<()> {
        self.file.sync_all()
    }
    fn set_len(&self, len_bytes: u64) -> io::Result<()> {
        self.file.set_len(len_bytes)
    }
    fn len_bytes(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }
    fn is_o_dsync(&self) -> bool {
        self.o_dsync
    }
}

impl BinlogIo for StdIo {
    fn open(&self, path: &Path, create: bool, o_dsync: bool) -> io::Result<Arc<dyn IoFile>> {
        use std::os::unix::fs::OpenOptionsExt;
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true);
        if create {
            o.create(true).truncate(true);
        }
        if o_dsync {
            o.custom_flags(libc::O_DSYNC);
        }
        Ok(Arc::new(StdFile { file: o.open(path)?, o_dsync }))
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        std::fs::File::open(dir)?.sync_all()
    }
}

// ---------------------------------------------------------------------------
// Fault injection (tests)
// ---------------------------------------------------------------------------

/// One write not yet covered by a sync: enough to undo it on "power loss".
struct UnsyncedWrite {
    offset_bytes: u64,
    len_bytes: u64,
    /// File content that the write overwrote (only the part below `old_len`).
    old: Vec<u8>,
    old_len_bytes: u64,
}

#[derive(Default)]
struct FaultState {
    /// Data bytes that may still be written before writes fail with ENOSPC.
    enospc_budget_bytes: Option<u64>,
    fail_sync: bool,
    /// Writeback errors injected so far; each open handle reports each one
    /// once (see [`FaultIo::inject_writeback_error`]).
    writeback_errors: u64,
    /// After a power cut every operation fails with EIO.
    dead: bool,
    /// Per file (device and inode, as the kernel tracks dirty data — not per
    /// path: a handle keeps its file across renames, and a new file may take
    /// over an old one's path while the old one is still being written).
    unsynced: HashMap<FileId, (Arc<dyn IoFile>, Vec<UnsyncedWrite>)>,
}

/// A [`BinlogIo`] over real files that can inject ENOSPC after N bytes, EIO
/// on sync, and a power cut that keeps only synced bytes plus a torn prefix
/// of the unsynced writes. Writes are journaled (old contents saved) until
/// the next sync of the file, which is what makes the cut possible.
#[derive(Clone, Default)]
pub struct FaultIo {
    state: Arc<Mutex<FaultState>>,
}

impl FaultIo {
    pub fn new() -> Self {
        Self::default()
    }
    /// Writes fail with ENOSPC once `bytes` more data bytes have been written
    /// (the failing write is partially applied, as a real full disk does).
    pub fn set_enospc_after(&self, bytes: Option<u64>) {
        self.state.lock().enospc_budget_bytes = bytes;
    }
    /// Every sync from now on fails with EIO.
    pub fn set_fail_sync(&self, fail: bool) {
        self.state.lock().fail_sync = fail;
    }
    /// A background writeback failed: as Linux reports it (errseq_t), the
    /// next sync through each handle open now fails with EIO once, and
    /// later syncs through that handle succeed again. A second sync through
    /// the handle that was told does not hear of it.
    pub fn inject_writeback_error(&self) {
        self.state.lock().writeback_errors += 1;
    }
    /// Simulates power loss: per file, keeps the synced content plus a random
    /// prefix of the unsynced writes (in order), the last kept one torn at a
    /// random byte; then makes every later operation fail with EIO.
    pub fn power_cut(&self, seed: u64) -> io::Result<()> {
        let mut st = self.state.lock();
        let mut rng = seed | 1;
        let mut next = move || {
            // xorshift64: deterministic per seed so failures reproduce.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for (file, writes) in st.unsynced.values() {
            if writes.is_empty() {
                continue;
            }
            let keep_whole = (next() % (writes.len() as u64 + 1)) as usize;
            // Undo, newest first, everything after the kept prefix.
            for (i, w) in writes.iter().enumerate().skip(keep_whole).rev() {
                let torn_keep = if i == keep_whole { next() % (w.len_bytes + 1) } else { 0 };
                let undo_from = w.offset_bytes + torn_keep;
                let old_end = w.offset_bytes + w.old.len() as u64;
                if undo_from < old_end {
                    let skip = (undo_from - w.offset_bytes) as usize;
                    file.write_at(&w.old[skip..], undo_from)?;
                }
                let end = w.offset_bytes + w.len_bytes;
                if end > w.old_len_bytes {
                    file.set_len(w.old_len_bytes.max(undo_from))?;
                }
            }
            file.sync_all()?;
        }
        st.unsynced.clear();
        st.dead = true;
        Ok(())
    }
}

/// A real EIO (callers may match on the errno); `what` is traced for debugging.
fn eio(what: &str) -> io::Error {
    tracing::debug!(what, "fault layer: injected EIO");
    io::Error::from_raw_os_error(libc::EIO)
}

/// A file's identity: (device, inode).
type FileId = (u64, u64);

fn file_id(path: &Path) -> io::Result<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path)?;
    Ok((m.dev(), m.ino()))
}

struct FaultFile {
    inner: Arc<dyn IoFile>,
    id: FileId,
    state: Arc<Mutex<FaultState>>,
    /// Writeback errors this handle (open file description) reported.
    writeback_errors_seen: AtomicU64,
}

impl FaultFile {
    fn journal(&self, st: &mut FaultState, buf_len: usize, offset: u64) -> io::Result<()> {
        let old_len = self.inner.len_bytes()?;
        let old_part = old_len.saturating_sub(offset).min(buf_len as u64) as usize;
        let mut old = vec![0u8; old_part];
        if old_part > 0 {
            let n = self.inner.read_at(&mut old, offset)?;
            old.truncate(n);
        }
        st.unsynced.entry(self.id).or_insert_with(|| (self.inner.clone(), Vec::new())).1.push(UnsyncedWrite {
            offset_bytes: offset,
            len_bytes: buf_len as u64,
            old,
            old_len_bytes: old_len,
        });
        Ok(())
    }
    /// The sync's outcome once the real sync succeeded.
    fn synced(&self, st: &mut FaultState, what: &str) -> io::Result<()> {
        if self.writeback_errors_seen.swap(st.writeback_errors, Ordering::Relaxed) < st.writeback_errors {
            return Err(eio(what));
        }
        st.unsynced.remove(&self.id);
        Ok(())
    }
}

impl IoFile for FaultFile {
    fn write_at(&self, buf: &[u8], offset_bytes: u64) -> io::Result<()> {
        let mut st = self.state.lock();
        if st.dead {
            return Err(eio("write after power cut"));
        }
        if let Some(budget) = st.enospc_budget_bytes {
            if (buf.len() as u64) > budget {
                let part = &buf[..budget as usize];
                self.journal(&mut st, part.len(), offset_bytes)?;
                self.inner.write_at(part, offset_bytes)?;
                st.enospc_budget_bytes = Some(0);
                return Err(io::Error::from_raw_os_error(libc::ENOSPC));
            }
            st.enospc_budget_bytes = Some(budget - buf.len() as u64);
        }
        self.journal(&mut st, buf.len(), offset_bytes)?;
        self.inner.write_at(buf, offset_bytes)
    }
    fn read_at(&self, buf: &mut [u8], offset_bytes: u64) -> io::Result<usize> {
        self.inner.read_at(buf, offset_bytes)
    }
    fn sync_data(&self) -> io::Result<()> {
        let mut st = self.state.lock();
        if st.dead || st.fail_sync {
            return Err(eio("fdatasync"));
        }
        self.inner.sync_data()?;
        self.synced(&mut st, "fdatasync after a writeback error")
    }
    fn sync_all(&self) -> io::Result<()> {
        let mut st = self.state.lock();
        if st.dead || st.fail_sync {
            return Err(eio("fsync"));
        }
        self.inner.sync_all()?;
        self.synced(&mut st, "fsync after a writeback error")
    }
    fn set_len(&self, len_bytes: u64) -> io::Result<()> {
        let st = self.state.lock();
        if st.dead {
            return Err(eio("ftruncate after power cut"));
        }
        self.inner.set_len(len_bytes)
    }
    fn len_bytes(&self) -> io::Result<u64> {
        self.inner.len_bytes()
    }
    fn is_o_dsync(&self) -> bool {
        self.inner.is_o_dsync()
    }
}

impl BinlogIo for FaultIo {
    fn open(&self, path: &Path, create: bool, o_dsync: bool) -> io::Result<Arc<dyn IoFile>> {
        let writeback_errors = {
            let st = self.state.lock();
            if st.dead {
                return Err(eio("open after power cut"));
            }
            st.writeback_errors
        };
        // O_DSYNC is not passed down: the fault layer must see every write
        // as unsynced until an explicit sync to simulate power loss.
        let _ = o_dsync;
        let inner = StdIo.open(path, create, false)?;
        Ok(Arc::new(FaultFile {
            inner,
            id: file_id(path)?,
            state: self.state.clone(),
            writeback_errors_seen: AtomicU64::new(writeback_errors),
        }))
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut st = self.state.lock();
        if st.dead {
            return Err(eio("rename after power cut"));
        }
        // The journal follows the file (its inode), not the name. A file the
        // rename replaces is gone, and so are its unsynced writes.
        if let Ok(replaced) = file_id(to) {
            st.unsynced.remove(&replaced);
        }
        std::fs::rename(from, to)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut st = self.state.lock();
        if st.dead {
            return Err(eio("unlink after power cut"));
        }
        if let Ok(id) = file_id(path) {
            st.unsynced.remove(&id);
        }
        std::fs::remove_file(path)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        if self.state.lock().dead {
            return Err(eio("dir fsync after power cut"));
        }
        StdIo.sync_dir(dir)
    }
}

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

/// How the sync stage makes a group durable (`binlog_sync_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncMethod {
    /// `fdatasync`: enough on a preallocated file (no size change to journal).
    #[default]
    Fdatasync,
    Fsync,
    /// Open the file with `O_DSYNC`; writes are durable on return and no
    /// explicit sync is issued. Takes effect for files opened after the change.
    ODsync,
}

impl SyncMethod {
    pub fn as_u8(self) -> u8 {
        match self {
            SyncMethod::Fdatasync => 0,
            SyncMethod::Fsync => 1,
            SyncMethod::ODsync => 2,
        }
    }
    pub fn from_u8(v: u8) -> Self {
        match v {
            1 => SyncMethod::Fsync,
            2 => SyncMethod::ODsync,
            _ => SyncMethod::Fdatasync,
        }
    }
}

/// Start-up configuration of the binlog. Live-changeable values are copied
/// into atomics by [`crate::pipeline::Binlog`] and changed through its setters.
#[derive(Clone)]
pub struct BinlogConfig {
    pub dir: PathBuf,
    /// `log_bin` basename, default `onelog-bin`.
    pub basename: String,
    pub server_id: u32,
    /// `gtid_domain_id`.
    pub domain_id: u32,
    /// Server version written into FORMAT_DESCRIPTION.
    pub server_version: String,
    /// `binlog_checksum=CRC32`.
    pub checksum: bool,
    pub max_binlog_size_bytes: u64,
    /// `binlog_preallocate_size`; 0 disables preallocation.
    pub preallocate_size_bytes: u64,
    pub sync_binlog: u32,
    pub sync_method: SyncMethod,
    pub group_commit_sync_delay_us: u64,
    pub group_commit_sync_no_delay_count: u32,
    /// Most transactions waiting for the flush stage; `commit` blocks beyond.
    pub commit_queue_capacity: usize,
    pub io: Arc<dyn BinlogIo>,
}

impl BinlogConfig {
    /// MySQL-like defaults in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        BinlogConfig {
            dir: dir.into(),
            basename: "onelog-bin".to_string(),
            server_id: 1,
            domain_id: 0,
            server_version: onelog_core::SERVER_VERSION.to_string(),
            checksum: true,
            max_binlog_size_bytes: 1 << 30,
            preallocate_size_bytes: 64 << 20,
            sync_binlog: 1,
            sync_method: SyncMethod::Fdatasync,
            group_commit_sync_delay_us: 0,
            group_commit_sync_no_delay_count: 0,
            commit_queue_capacity: 16_384,
            io: Arc::new(StdIo),
        }
    }
}

impl std::fmt::Debug for BinlogConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BinlogConfig")
            .field("dir", &self.dir)
            .field("basename", &self.basename)
            .field("server_id", &self.server_id)
            .field("max_binlog_size_bytes", &self.max_binlog_size_bytes)
            .field("preallocate_size_bytes", &self.preallocate_size_bytes)
            .field("sync_binlog", &self.sync_binlog)
            .field("sync_method", &self.sync_method)
            .finish_non_exhaustive()
    }
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

/// `<base>.000042`
pub fn file_name(basename: &str, seq: u32) -> String {
    format!("{basename}.{seq:06}")
}

/// Parses the sequence out of `<base>.NNNNNN` (at least 6 digits).
pub fn parse_file_seq(basename: &str, name: &str) -> Option<u32> {
    let name = name.rsplit('/').next()?;
    let rest = name.strip_prefix(basename)?.strip_prefix('.')?;
    if rest.len() >= 6 && rest.bytes().all(|b| b.is_ascii_digit()) {
        rest.parse().ok()
    } else {
        None
    }
}

pub fn index_path(dir: &Path, basename: &str) -> PathBuf {
    dir.join(format!("{basename}.index"))
}

fn prealloc_path(dir: &Path, basename: &str) -> PathBuf {
    dir.join(format!("{basename}.prealloc-tmp"))
}

pub(crate) fn io_err(path: &Path, source: io::Error) -> BinlogError {
    BinlogError::Io { path: path.display().to_string(), source }
}

/// Reads the index: file names in order (a leading `./` or directory is
/// dropped). `Ok(None)` if there is no index.
pub fn read_index(dir: &Path, basename: &str) -> Result<Option<Vec<String>>, BinlogError> {
    let p = index_path(dir, basename);
    match std::fs::read_to_string(&p) {
        Ok(s) => Ok(Some(
            s.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| l.rsplit('/').next().unwrap_or(l).to_string())
                .collect(),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&p, e)),
    }
}

/// Rewrites the index atomically: temp file, fsync, rename, directory fsync —
/// a crash leaves either the old or the new list, never a torn one.
pub fn write_index(dir: &Path, basename: &str, names: &[String]) -> Result<(), BinlogError> {
    use std::io::Write;
    let p = index_path(dir, basename);
    let tmp = dir.join(format!("{basename}.index_tmp"));
    let mut text = String::new();
    for n in names {
        // MariaDB writes names relative to the data directory as "./name".
        text.push_str("./");
        text.push_str(n);
        text.push('\n');
    }
    let mut f = std::fs::File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
    f.write_all(text.as_bytes()).map_err(|e| io_err(&tmp, e))?;
    f.sync_all().map_err(|e| io_err(&tmp, e))?;
    std::fs::rename(&tmp, &p).map_err(|e| io_err(&p, e))?;
    std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| io_err(dir, e))
}

/// Lists `<base>.NNNNNN` files in `dir`, sorted by sequence.
pub fn list_dir_files(dir: &Path, basename: &str) -> Result<Vec<(u32, String)>, BinlogError> {
    let mut out = Vec::new();
    for ent in std::fs::read_dir(dir).map_err(|e| io_err(dir, e))? {
        let ent = ent.map_err(|e| io_err(dir, e))?;
        if let Some(name) = ent.file_name().to_str() {
            if let Some(seq) = parse_file_seq(basename, name) {
                out.push((seq, name.to_string()));
            }
        }
    }
    out.sort();
    Ok(out)
}

pub(crate) fn now_unix_s() -> u32 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as u32).unwrap_or(0)
}

/// The header every binlog file starts with: magic, FORMAT_DESCRIPTION,
/// GTID_LIST (state before the file's first transaction), BINLOG_CHECKPOINT.
///
/// `at_startup`: the FORMAT_DESCRIPTION's "created" timestamp is set only in
/// the first file after a server start, as MySQL/MariaDB do; a replica reads
/// a non-zero value as "the source restarted" and drops its temporary
/// tables and any half-applied transaction, which must not happen on a
/// mere rotation.
pub fn build_file_header(
    name: &str,
    server_version: &str,
    server_id: u32,
    checksum: bool,
    gtid_state: &[Gtid],
    at_startup: bool,
) -> Vec<u8> {
    let ts = now_unix_s();
    let mut buf = ev::BINLOG_MAGIC.to_vec();
    let mut off = buf.len() as u64;
    let created_ts = if at_startup { ts } else { 0 };
    let fde = ev::format_description_body(server_version, created_ts, checksum);
    off = ev::write_event(&mut buf, off, ts, server_id, ev::type_code::FORMAT_DESCRIPTION, 0, &fde, checksum);
    let gl = ev::gtid_list_body(gtid_state);
    off = ev::write_event(&mut buf, off, ts, server_id, ev::type_code::GTID_LIST, 0, &gl, checksum);
    // The current file is the oldest one recovery needs: recovery starts at
    // the storage engine's durable_pos, not at a 2PC checkpoint.
    let cp = ev::binlog_checkpoint_body(name);
    off = ev::write_event(&mut buf, off, ts, server_id, ev::type_code::BINLOG_CHECKPOINT, 0, &cp, checksum);
    debug_assert_eq!(off, buf.len() as u64);
    buf
}

// ---------------------------------------------------------------------------
// The file set
// ---------------------------------------------------------------------------

/// One row of SHOW BINARY LOGS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinlogFileInfo {
    pub name: String,
    pub seq: u32,
    pub size_bytes: u64,
}

struct CurrentFile {
    seq: u32,
    name: String,
    file: Arc<dyn IoFile>,
    /// The same file opened once more, for the syncs commits depend on:
    /// the pipeline's and the rotation's (which covers a batch's groups in
    /// the old file). Linux reports a writeback error once per open file
    /// description (errseq_t): had these synced through `file`, a sync by
    /// the checkpointer or a cleanup could take the error report and the
    /// commit's sync then succeed — acknowledging commits whose pages were
    /// lost. Through their own description they hear of every error.
    sync_handle: Arc<dyn IoFile>,
    /// End of the last complete group written (next write offset).
    end_bytes: u64,
    /// Physical length (preallocated zeros included).
    alloc_bytes: u64,
}

/// Parameters the file set needs at each rotation (live values).
#[derive(Debug, Clone, Copy)]
pub struct RotateParams {
    pub preallocate_size_bytes: u64,
    pub o_dsync: bool,
}

type PreallocJob = JoinHandle<io::Result<(Arc<dyn IoFile>, u64)>>;

/// The set of binlog files and the current write position.
pub struct FileSet {
    dir: PathBuf,
    basename: String,
    server_version: String,
    server_id: u32,
    checksum: bool,
    io: Arc<dyn BinlogIo>,
    /// File names in the index, current last.
    index: Vec<String>,
    cur: CurrentFile,
    /// Zero-fill of the next file, running ahead of need.
    prealloc: Option<PreallocJob>,
    closed: bool,
}

/// Creates `path` and zero-fills it to `size_bytes`, then fsyncs so the
/// extents and size are durable: later fdatasyncs only flush data.
fn zero_fill(io: &dyn BinlogIo, path: &Path, size_bytes: u64) -> io::Result<(Arc<dyn IoFile>, u64)> {
    let f = io.open(path, true, false)?;
    zero_fill_range(&*f, 0, size_bytes)?;
    f.sync_all()?;
    Ok((f, size_bytes))
}

fn zero_fill_range(f: &dyn IoFile, from_bytes: u64, to_bytes: u64) -> io::Result<()> {
    const CHUNK: usize = 1 << 20;
    let zeros = vec![0u8; CHUNK];
    let mut off = from_bytes;
    while off < to_bytes {
        let n = ((to_bytes - off) as usize).min(CHUNK);
        f.write_at(&zeros[..n], off)?;
        off += n as u64;
    }
    Ok(())
}

impl FileSet {
    /// Opens the file set after a recovery scan. Continues writing at the
    /// scan's end position in the last file if it was not closed cleanly
    /// (re-preallocating it); otherwise (clean STOP/ROTATE end, no files, or
    /// an incomplete header) starts a new file, as a server restart does.
    pub fn open(cfg: &BinlogConfig, scan: &RecoveryScan, gtid_state: &[Gtid]) -> Result<FileSet, BinlogError> {
        let io = cfg.io.clone();
        let tmp = prealloc_path(&cfg.dir, &cfg.basename);
        if tmp.exists() {
            io.remove(&tmp).map_err(|e| io_err(&tmp, e))?;
        }
        let params = RotateParams {
            preallocate_size_bytes: cfg.preallocate_size_bytes,
            o_dsync: cfg.sync_method == SyncMethod::ODsync,
        };
        let mut index: Vec<String> = scan.files.iter().map(|f| f.name.clone()).collect();
        let last = scan.files.last();
        // A changed binlog_checksum must not mix two settings in one file.
        let reuse = matches!(last, Some(l) if !scan.last_file_closed
            && scan.last_file_header_complete
            && scan.checksum == cfg.checksum
            && l.seq == scan.end_pos.file_seq);
        let cur = if reuse {
            let l = last.ok_or_else(|| BinlogError::Malformed("no last file".into()))?;
            let path = cfg.dir.join(&l.name);
            let file = io.open(&path, false, params.o_dsync).map_err(|e| io_err(&path, e))?;
            let len = file.len_bytes().map_err(|e| io_err(&path, e))?;
            let end = scan.end_pos.offset;
            debug_assert!(end <= len);
            let mut alloc = len;
            if params.preallocate_size_bytes > len {
                zero_fill_range(&*file, len, params.preallocate_size_bytes).map_err(|e| io_err(&path, e))?;
                file.sync_all().map_err(|e| io_err(&path, e))?;
                alloc = params.preallocate_size_bytes;
            }
            tracing::info!(file = %l.name, offset = end, "binlog: continuing in last file after crash recovery");
            let sync_handle = io.open(&path, false, false).map_err(|e| io_err(&path, e))?;
            CurrentFile { seq: l.seq, name: l.name.clone(), file, sync_handle, end_bytes: end, alloc_bytes: alloc }
        } else {
            let seq = match last {
                // A file without a complete header never got a transaction:
                // replace it under the same name.
                Some(l) if !scan.last_file_header_complete => {
                    index.pop();
                    l.seq
                }
                Some(l) => l.seq + 1,
                None => 1,
            };
            let header = HeaderParams {
                server_version: &cfg.server_version,
                server_id: cfg.server_id,
                checksum: cfg.checksum,
                at_startup: true,
            };
            let c = Self::create_file(&*io, &header, &cfg.dir, &cfg.basename, seq, None, gtid_state, params)?;
            index.push(c.name.clone());
            write_index(&cfg.dir, &cfg.basename, &index)?;
            c
        };
        let mut fs = FileSet {
            dir: cfg.dir.clone(),
            basename: cfg.basename.clone(),
            server_version: cfg.server_version.clone(),
            server_id: cfg.server_id,
            checksum: cfg.checksum,
            io,
            index,
            cur,
            prealloc: None,
            closed: false,
        };
        if reuse {
            // The index might lack the file if we crashed between creating it
            // and writing the index; rewrite it to match the scan.
            write_index(&fs.dir, &fs.basename, &fs.index)?;
        }
        fs.start_prealloc(params.preallocate_size_bytes);
        Ok(fs)
    }

    /// Header parameters of a file created after start-up (rotation, RESET
    /// MASTER).
    fn later_header(&self) -> HeaderParams<'_> {
        HeaderParams {
            server_version: &self.server_version,
            server_id: self.server_id,
            checksum: self.checksum,
            at_startup: false,
        }
    }

    /// Creates file `seq` with its header: from the preallocated temp file if
    /// one is given, else a fresh one. The final name appears only after the
    /// header is synced (see module invariants).
    #[allow(clippy::too_many_arguments)]
    fn create_file(
        io: &dyn BinlogIo,
        header: &HeaderParams<'_>,
        dir: &Path,
        basename: &str,
        seq: u32,
        pre: Option<(Arc<dyn IoFile>, u64)>,
        gtid_state: &[Gtid],
        params: RotateParams,
    ) -> Result<CurrentFile, BinlogError> {
        let name = file_name(basename, seq);
        let path = dir.join(&name);
        let tmp = prealloc_path(dir, basename);
        let (file, alloc) = match pre {
            Some(p) => p,
            // No background file ready (first file, or preallocation just
            // enabled/failed): preallocate in the foreground.
            None if params.preallocate_size_bytes > 0 => {
                zero_fill(io, &tmp, params.preallocate_size_bytes).map_err(|e| io_err(&tmp, e))?
            }
            None => {
                let f = io.open(&tmp, true, false).map_err(|e| io_err(&tmp, e))?;
                (f, 0)
            }
        };
        let hdr = build_file_header(
            &name,
            header.server_version,
            header.server_id,
            header.checksum,
            gtid_state,
            header.at_startup,
        );
        file.write_at(&hdr, 0).map_err(|e| io_err(&tmp, e))?;
        let sync = if alloc >= hdr.len() as u64 { file.sync_data() } else { file.sync_all() };
        sync.map_err(|e| io_err(&tmp, e))?;
        io.rename(&tmp, &path).map_err(|e| io_err(&path, e))?;
        io.sync_dir(dir).map_err(|e| io_err(dir, e))?;
        // O_DSYNC has to be chosen at open(2): reopen under the final name.
        let file = if params.o_dsync { io.open(&path, false, true).map_err(|e| io_err(&path, e))? } else { file };
        let sync_handle = io.open(&path, false, false).map_err(|e| io_err(&path, e))?;
        Ok(CurrentFile {
            seq,
            name,
            file,
            sync_handle,
            end_bytes: hdr.len() as u64,
            alloc_bytes: alloc.max(hdr.len() as u64),
        })
    }

    fn start_prealloc(&mut self, size_bytes: u64) {
        if size_bytes == 0 || self.prealloc.is_some() {
            return;
        }
        let io = self.io.clone();
        let path = prealloc_path(&self.dir, &self.basename);
        let job = std::thread::Builder::new()
            .name("binlog-prealloc".into())
            .spawn(move || zero_fill(&*io, &path, size_bytes));
        match job {
            Ok(j) => self.prealloc = Some(j),
            Err(e) => tracing::warn!(error = %e, "binlog: cannot start preallocation thread"),
        }
    }

    fn take_prealloc(&mut self) -> Option<(Arc<dyn IoFile>, u64)> {
        let job = self.prealloc.take()?;
        match job.join() {
            Ok(Ok(p)) => Some(p),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "binlog: preallocation failed; next file is not preallocated");
                None
            }
            Err(_) => {
                tracing::warn!("binlog: preallocation thread panicked");
                None
            }
        }
    }

    pub fn current_seq(&self) -> u32 {
        self.cur.seq
    }
    pub fn current_name(&self) -> &str {
        &self.cur.name
    }
    pub fn current_file(&self) -> Arc<dyn IoFile> {
        self.cur.file.clone()
    }
    /// The current file's handle reserved for the commit pipeline's syncs
    /// (see `CurrentFile::sync_handle`).
    pub fn current_sync_handle(&self) -> Arc<dyn IoFile> {
        self.cur.sync_handle.clone()
    }
    /// Offset where the next group is written.
    pub fn end_bytes(&self) -> u64 {
        self.cur.end_bytes
    }
    pub fn position(&self) -> BinlogPos {
        BinlogPos { file_seq: self.cur.seq, offset: self.cur.end_bytes }
    }
    pub fn server_id(&self) -> u32 {
        self.server_id
    }
    pub fn checksum(&self) -> bool {
        self.checksum
    }

    /// Appends one encoded group at the current end with one positioned
    /// write. On a write error the file is truncated back to the group's
    /// start (and synced) so no part of the group can be recovered as
    /// committed; `Err((err, poison))` says whether that cleanup failed too.
    pub fn append(&mut self, buf: &[u8]) -> Result<(), (BinlogError, bool)> {
        self.append_to_group(self.cur.end_bytes, buf)
    }

    /// Appends the next part of a group that starts at `group_start` in the
    /// current file (its earlier parts were appended by earlier calls). A
    /// large group is written in parts so that it is never encoded whole in
    /// memory. On a write error the whole group is removed, as in
    /// [`FileSet::append`]. A part already written is harmless before
    /// the group is published: readers stop at the published position, and
    /// recovery drops a group without its last event.
    pub fn append_to_group(&mut self, group_start: u64, buf: &[u8]) -> Result<(), (BinlogError, bool)> {
        assert!(group_start <= self.cur.end_bytes, "a group starts before the file's end");
        match self.cur.file.write_at(buf, self.cur.end_bytes) {
            Ok(()) => {
                self.cur.end_bytes += buf.len() as u64;
                self.cur.alloc_bytes = self.cur.alloc_bytes.max(self.cur.end_bytes);
                Ok(())
            }
            Err(e) => {
                let path = self.dir.join(&self.cur.name);
                Err((io_err(&path, e), self.remove_group(group_start)))
            }
        }
    }

    /// Removes what was written of a failed group from `group_start` on:
    /// truncates the file there and syncs, so no part of the group can be
    /// recovered as committed. Returns true when that failed too (the
    /// caller must then refuse further commits).
    pub fn remove_group(&mut self, group_start: u64) -> bool {
        assert!(group_start <= self.cur.end_bytes, "a group starts before the file's end");
        let cleanup = self.cur.file.set_len(group_start).and_then(|()| self.cur.file.sync_all());
        match &cleanup {
            Ok(()) => {
                self.cur.end_bytes = group_start;
                // The preallocated remainder is gone; later writes extend
                // the file (fsync-visible metadata) until the next rotation.
                self.cur.alloc_bytes = group_start;
                false
            }
            Err(ce) => {
                tracing::error!(error = %ce, file = %self.cur.name, offset = group_start, "binlog: cannot truncate a failed group");
                true
            }
        }
    }

    /// Writes an event outside any transaction (ROTATE, STOP) at the end.
    fn append_event(&mut self, type_code: u8, body: &[u8]) -> Result<(), BinlogError> {
        let mut buf = Vec::with_capacity(body.len() + ev::HEADER_LEN + ev::CHECKSUM_LEN);
        ev::write_event(&mut buf, self.cur.end_bytes, now_unix_s(), self.server_id, type_code, 0, body, self.checksum);
        self.append(&buf).map_err(|(e, _)| e)
    }

    /// Trims the preallocated tail and fsyncs (size changes need fsync).
    /// The fsync goes through the pipeline's sync handle: the pipeline
    /// counts on it for the groups of a batch written before a rotation
    /// (it syncs only the batch's newest file), so it must hear of every
    /// writeback error there, even one the checkpointer's sync through the
    /// writer's handle already took.
    fn trim_and_sync(&mut self) -> Result<(), BinlogError> {
        let path = self.dir.join(&self.cur.name);
        self.cur.file.set_len(self.cur.end_bytes).map_err(|e| io_err(&path, e))?;
        self.cur.alloc_bytes = self.cur.end_bytes;
        self.cur.sync_handle.sync_all().map_err(|e| io_err(&path, e))
    }

    /// Rotates: ROTATE into the current file, trim, fsync, then open the next
    /// file (from the preallocated one if ready) and add it to the index.
    /// Call only between groups. An error here leaves the set unusable: the
    /// caller poisons the binlog.
    pub fn rotate(&mut self, gtid_state: &[Gtid], params: RotateParams) -> Result<(), BinlogError> {
        if self.closed {
            return Err(BinlogError::Poisoned("binlog closed".into()));
        }
        let next_seq = self.cur.seq + 1;
        let next_name = file_name(&self.basename, next_seq);
        self.append_event(ev::type_code::ROTATE, &ev::rotate_body(&next_name, 4))?;
        self.trim_and_sync()?;
        let pre = self.take_prealloc();
        let c = Self::create_file(
            &*self.io,
            &self.later_header(),
            &self.dir,
            &self.basename,
            next_seq,
            pre,
            gtid_state,
            params,
        )?;
        tracing::info!(from = %self.cur.name, to = %c.name, "binlog: rotated");
        self.index.push(c.name.clone());
        write_index(&self.dir, &self.basename, &self.index)?;
        self.cur = c;
        self.start_prealloc(params.preallocate_size_bytes);
        Ok(())
    }

    /// The name of file `seq`.
    pub fn file_name(&self, seq: u32) -> String {
        file_name(&self.basename, seq)
    }

    /// The path of indexed file `name`, with its sequence number.
    pub fn indexed_path(&self, name: &str) -> Option<(u32, PathBuf)> {
        let seq = parse_file_seq(&self.basename, name)?;
        self.index.iter().any(|n| n == name).then(|| (seq, self.dir.join(name)))
    }

    /// Every indexed file: name, sequence and path, oldest first.
    pub fn indexed_files(&self) -> Vec<(String, u32, PathBuf)> {
        let with_seq = |name: &String| Some((name.clone(), parse_file_seq(&self.basename, name)?, self.dir.join(name)));
        self.index.iter().filter_map(with_seq).collect()
    }

    /// The indexed file after file `seq`: its name, sequence and path.
    pub fn indexed_after(&self, seq: u32) -> Option<(String, u32, PathBuf)> {
        self.indexed_files().into_iter().find(|(_, s, _)| *s > seq)
    }

    /// SHOW BINARY LOGS. The current file reports its logical size.
    pub fn list(&self) -> Result<Vec<BinlogFileInfo>, BinlogError> {
        let mut out = Vec::with_capacity(self.index.len());
        for name in &self.index {
            let seq = parse_file_seq(&self.basename, name).unwrap_or(0);
            let size_bytes = if seq == self.cur.seq {
                self.cur.end_bytes
            } else {
                let p = self.dir.join(name);
                std::fs::metadata(&p).map_err(|e| io_err(&p, e))?.len()
            };
            out.push(BinlogFileInfo { name: name.clone(), seq, size_bytes });
        }
        Ok(out)
    }

    /// A file may go only if it is not the current one and lies wholly before
    /// `keep_from` (min of the engine's durable_pos and every replica).
    fn purgeable(&self, seq: u32, keep_from: BinlogPos) -> bool {
        seq < self.cur.seq && seq < keep_from.file_seq
    }

    /// PURGE BINARY LOGS TO 'name': removes files before `name` (exclusive),
    /// stopping at the first one the rules protect. Returns removed names.
    pub fn purge_to(&mut self, name: &str, keep_from: BinlogPos) -> Result<Vec<String>, BinlogError> {
        let target = parse_file_seq(&self.basename, name)
            .filter(|_| self.index.iter().any(|n| n == name))
            .ok_or_else(|| BinlogError::Malformed(format!("target log '{name}' not found in index")))?;
        self.purge_while(keep_from, |seq, _| seq < target)
    }

    /// PURGE BINARY LOGS BEFORE ts: removes files last modified before
    /// `before_unix_s`, in order, stopping at the first that is not.
    pub fn purge_before(&mut self, before_unix_s: u64, keep_from: BinlogPos) -> Result<Vec<String>, BinlogError> {
        self.purge_while(keep_from, |_, path| {
            std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .is_some_and(|d| d.as_secs() < before_unix_s)
        })
    }

    fn purge_while(
        &mut self,
        keep_from: BinlogPos,
        mut pred: impl FnMut(u32, &Path) -> bool,
    ) -> Result<Vec<String>, BinlogError> {
        let mut n = 0;
        for name in &self.index {
            let seq = parse_file_seq(&self.basename, name).unwrap_or(u32::MAX);
            if !self.purgeable(seq, keep_from) || !pred(seq, &self.dir.join(name)) {
                break;
            }
            n += 1;
        }
        if n == 0 {
            return Ok(Vec::new());
        }
        let removed: Vec<String> = self.index.drain(..n).collect();
        // Index first: a crash in between leaves unlisted files, which
        // recovery ignores, never an index naming missing files.
        write_index(&self.dir, &self.basename, &self.index)?;
        for name in &removed {
            let p = self.dir.join(name);
            if let Err(e) = self.io.remove(&p) {
                tracing::warn!(file = %name, error = %e, "binlog: purge could not remove file");
            }
        }
        self.io.sync_dir(&self.dir).map_err(|e| io_err(&self.dir, e))?;
        tracing::info!(files = ?removed, "binlog: purged");
        Ok(removed)
    }

    /// RESET MASTER: deletes every file and starts again at `.000001` with
    /// the given (normally empty) GTID state.
    pub fn reset(&mut self, gtid_state: &[Gtid], params: RotateParams) -> Result<(), BinlogError> {
        // Keep the preallocated file: it is still just zeros.
        let pre = self.take_prealloc();
        for name in std::mem::take(&mut self.index) {
            let p = self.dir.join(&name);
            if let Err(e) = self.io.remove(&p) {
                tracing::warn!(file = %name, error = %e, "binlog: RESET MASTER could not remove file");
            }
        }
        let c =
            Self::create_file(&*self.io, &self.later_header(), &self.dir, &self.basename, 1, pre, gtid_state, params)?;
        self.index = vec![c.name.clone()];
        write_index(&self.dir, &self.basename, &self.index)?;
        self.cur = c;
        self.closed = false;
        self.start_prealloc(params.preallocate_size_bytes);
        tracing::info!("binlog: RESET MASTER");
        Ok(())
    }

    /// Clean shutdown: STOP, trim, fsync; drops the preallocated next file.
    pub fn close(&mut self) -> Result<(), BinlogError> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        if self.take_prealloc().is_some() {
            let tmp = prealloc_path(&self.dir, &self.basename);
            let _ = self.io.remove(&tmp);
        }
        self.append_event(ev::type_code::STOP, &ev::stop_body())?;
        self.trim_and_sync()
    }

    /// Drops the background job without touching files (crash paths).
    pub fn abandon(&mut self) {
        self.closed = true;
        let _ = self.take_prealloc();
    }
}

/// What a file header needs to know about the server.
struct HeaderParams<'a> {
    server_version: &'a str,
    server_id: u32,
    checksum: bool,
    /// First file of this server run (see [`build_file_header`]); false for
    /// rotation and RESET MASTER.
    at_startup: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_writeback_error_is_reported_once_per_handle() {
        let d = tempfile::tempdir().expect("tempdir");
        let io = FaultIo::new();
        let path = d.path().join("f");
        let a = io.open(&path, true, false).expect("open");
        let b = io.open(&path, false, false).expect("open");
        a.write_at(b"data", 0).expect("write");
        io.inject_writeback_error();
        assert!(a.sync_data().is_err(), "first sync through a handle reports the error");
        assert!(a.sync_data().is_ok(), "and only the first (errseq_t)");
        assert!(b.sync_all().is_err(), "every other open handle reports it too");
        let c = io.open(&path, false, false).expect("open");
        assert!(c.sync_data().is_ok(), "a handle opened later never hears of it");
    }

    /// A file set on the fault layer in `dir`, one group written, then a
    /// background writeback error (not yet reported to any handle).
    fn file_set_after_writeback_error(dir: &Path) -> FileSet {
        let io = FaultIo::new();
        let mut cfg = BinlogConfig::new(dir);
        cfg.io = Arc::new(io.clone());
        let scan = crate::recovery::scan(dir, &cfg.basename, None).expect("scan");
        let mut files = FileSet::open(&cfg, &scan, &[]).expect("open");
        files.append(b"group").expect("append");
        io.inject_writeback_error();
        files
    }

    /// The pipeline must hear of a writeback error even when another sync of
    /// the file (checkpointer, rotation) took the report first.
    #[test]
    fn pipeline_sync_handle_hears_errors_the_writer_handle_reported() {
        let d = tempfile::tempdir().expect("tempdir");
        let files = file_set_after_writeback_error(d.path());
        assert!(files.current_file().sync_data().is_err());
        assert!(files.current_sync_handle().sync_data().is_err(), "the report went to the writer's handle only");
    }

    /// A batch spanning a rotation is made durable, for its groups in the
    /// old file, by the rotation's fsync: that fsync must fail on a
    /// writeback error even when the checkpointer's sync (writer's handle)
    /// took the report first.
    #[test]
    fn rotation_sync_hears_errors_the_writer_handle_reported() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut files = file_set_after_writeback_error(d.path());
        assert!(files.current_file().sync_data().is_err(), "the checkpointer's sync takes the report");
        let params = RotateParams { preallocate_size_bytes: 0, o_dsync: false };
        assert!(files.rotate(&[], params).is_err(), "the rotation's fsync must fail too");
    }

    /// What rotation does: the preallocated temp file becomes the next
    /// binlog file, is written under its new name, and a new temp file takes
    /// the old name. A power cut must judge each file by its own syncs.
    #[test]
    fn fault_journal_follows_the_file_not_its_name() {
        let mut dropped_unsynced = false;
        for seed in 1..40u64 {
            let d = tempfile::tempdir().expect("tempdir");
            let io = FaultIo::new();
            let (temp, binlog) = (d.path().join("temp"), d.path().join("binlog"));
            let a = io.open(&temp, true, false).expect("open");
            a.write_at(b"synced", 0).expect("write");
            a.sync_all().expect("sync");
            io.rename(&temp, &binlog).expect("rename");
            a.write_at(b"+unsynced", 6).expect("write");
            let b = io.open(&temp, true, false).expect("open");
            b.write_at(&[0u8; 64], 0).expect("write");
            if seed % 2 == 0 {
                b.sync_all().expect("sync"); // must not count as a sync of `binlog`
            }
            io.power_cut(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)).expect("power cut");
            let kept = std::fs::read(&binlog).expect("read");
            assert!(kept.starts_with(b"synced"), "seed {seed}: synced bytes lost: {kept:?}");
            dropped_unsynced |= seed % 2 == 0 && kept.len() < 15;
        }
        assert!(dropped_unsynced, "a sync of another file under the old name made a write durable");
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(file_name("onelog-bin", 7), "onelog-bin.000007");
        assert_eq!(parse_file_seq("onelog-bin", "./onelog-bin.000007"), Some(7));
        assert_eq!(parse_file_seq("onelog-bin", "onelog-bin.index"), None);
        assert_eq!(parse_file_seq("onelog-bin", "onelog-bin.prealloc-tmp"), None);
        assert_eq!(parse_file_seq("onelog-bin", "onelog-bin.1234567"), Some(1_234_567));
    }

    #[test]
    fn index_round_trip() {
        let d = tempfile::tempdir().expect("tempdir");
        assert_eq!(read_index(d.path(), "b").expect("read"), None);
        let names = vec!["b.000001".to_string(), "b.000002".to_string()];
        write_index(d.path(), "b", &names).expect("write");
        assert_eq!(read_index(d.path(), "b").expect("read"), Some(names));
        let text = std::fs::read_to_string(index_path(d.path(), "b")).expect("read");
        assert_eq!(text, "./b.000001\n./b.000002\n");
    }

    #[test]
    fn fault_power_cut_keeps_synced() {
        let d = tempfile::tempdir().expect("tempdir");
        let io = FaultIo::new();
        let p = d.path().join("f");
        let f = io.open(&p, true, false).expect("open");
        f.write_at(b"hello", 0).expect("w");
        f.sync_data().expect("sync");
        f.write_at(b" world", 5).expect("w");
        f.write_at(b"!!!", 11).expect("w");
        io.power_cut(42).expect("cut");
        let data = std::fs::read(&p).expect("read");
        assert!(data.starts_with(b"hello"));
        assert!(b"hello world!!!".starts_with(&data));
        assert!(f.write_at(b"x", 0).is_err());
    }
}
