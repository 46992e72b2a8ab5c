//! Group commit: the flush, sync and commit stages (DESIGN.md "Commit
//! pipeline"), the sync policy and the binlog status counters.
//!
//! Owns: GTID and XID assignment, the commit queue, encoding a group's
//! events (with a transaction's spilled binlog cache, see [`crate::cache`])
//! into one buffer written with one positioned write — in 4 MiB parts for
//! a large group, removed whole if a part fails — the sync policy
//! (`sync_binlog`, `binlog_sync_method`, `binlog_group_commit_sync_delay`,
//! `binlog_group_commit_sync_no_delay_count`), poisoning after a failed sync,
//! and the ordered hand-off of durable groups to a [`GroupSink`].
//!
//! Threads:
//! - **flush** drains the whole commit queue (that is the group), assigns
//!   GTIDs in queue order, encodes and writes, hands the group to sync and to
//!   commit, and rotates the file when it passed `max_binlog_size` (between
//!   groups).
//! - **sync** waits `sync_delay` for more groups (unless `no_delay_count`
//!   transactions are already waiting), syncs per `sync_binlog`, and
//!   releases the groups. While it syncs, flush writes the next group — but
//!   at most one: a second group waits in the queue and grows, as in MySQL.
//!   With no sync delay (the default) the flush thread syncs each group it
//!   wrote itself, saving the hand-off; the commit queue gathers the next
//!   group meanwhile. The `syncing` flag keeps one sync at a time either way.
//! - **commit** takes every written group waiting (at most
//!   [`MAX_APPLY_BATCH_TXNS`] transactions plus one group) and applies them
//!   with one [`GroupSink::apply_group`] call *while* the sync stage syncs
//!   them, so storage work leaves the commit latency. Whichever of sync and
//!   commit finishes a batch last calls the publisher `apply_group`
//!   returned and wakes the sessions.
//! - **inline**: a session that finds nothing in flight anywhere does all of
//!   this itself on its own thread (write, sync, apply, publish) while the
//!   flush stage waits; at low concurrency the three hand-offs cost more
//!   than the transaction.
//!
//! Invariants:
//! - GTID sequence numbers are contiguous in file order; a group that fails
//!   to write gives its numbers back.
//! - A session is acknowledged, and its changes published to readers, only
//!   after its group was synced (when the policy syncs it) and applied; a
//!   failed sync poisons the binlog and is never retried (fsyncgate): that
//!   group and every later commit fail, and their applied changes are never
//!   published (nor persisted: the checkpointer syncs the binlog first).
//! - A failed write never leaves part of the group in the file (the file is
//!   truncated to the group's start, or the binlog is poisoned).

use crate::cache::SpilledEvents;
use crate::file::{ev, now_unix_s, BinlogConfig, BinlogFileInfo, FileSet, IoFile, RotateParams, SyncMethod};
use crate::recovery::RecoveryScan;
use crate::{BinlogError, BinlogPos, Gtid};
use parking_lot::{Condvar, Mutex};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// Bound on how many durable transactions the commit stage merges into one
/// storage apply: large enough to amortise a storage transaction under
/// hundreds of sessions, small enough that one apply stays short.
pub const MAX_APPLY_BATCH_TXNS: usize = 1024;
/// A group larger than this is written in parts of about this size.
const GROUP_WRITE_PART_BYTES: usize = 4 << 20;
/// Room a part's buffer keeps for the event that crosses
/// [`GROUP_WRITE_PART_BYTES`]: rows events are cut near 8 KiB; a larger
/// event (one huge row or statement) just grows the buffer.
const MAX_EVENT_OVERHEAD_BYTES: usize = 64 << 10;

/// The part of a group being encoded: events from `off` on, not yet
/// written; `start` is where the group starts in the current file.
struct GroupPart {
    start: u64,
    buf: Vec<u8>,
    /// Binlog offset where the next event goes.
    off: u64,
    ts: u32,
}

impl GroupPart {
    fn event<T: Send + 'static>(&mut self, binlog: &Shared<T>, type_code: u8, flags: u16, body: &[u8]) {
        self.off = ev::write_event(
            &mut self.buf,
            self.off,
            self.ts,
            binlog.server_id,
            type_code,
            flags,
            body,
            binlog.checksum,
        );
    }

    /// Writes the part once it reached [`GROUP_WRITE_PART_BYTES`].
    fn write_if_full(&mut self, files: &mut FileSet) -> Result<(), GroupWriteError> {
        if self.buf.len() >= GROUP_WRITE_PART_BYTES {
            files.append_to_group(self.start, &self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// Why a group could not be written.
enum GroupWriteError {
    /// The binlog write failed; true if the group could not be removed.
    Write(BinlogError, bool),
    /// A transaction's spilled events could not be read back.
    ReadCache(std::io::Error),
}

impl From<(BinlogError, bool)> for GroupWriteError {
    fn from((e, poison): (BinlogError, bool)) -> Self {
        GroupWriteError::Write(e, poison)
    }
}

impl From<std::io::Error> for GroupWriteError {
    fn from(e: std::io::Error) -> Self {
        GroupWriteError::ReadCache(e)
    }
}

/// One event of a transaction, encoded by the layer above (without header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingEvent {
    pub type_code: u8,
    pub flags: u16,
    pub body: Vec<u8>,
}

/// A transaction's events. Row transaction: TABLE_MAP/ROWS… (the pipeline
/// adds GTID before and XID after). DDL: `[QUERY]`, `StandaloneDdl`
/// (standalone GTID, no XID). CREATE … SELECT: `[QUERY, TABLE_MAP, ROWS…]`,
/// `DdlWithRows` (XID after).
#[derive(Debug, Default)]
pub struct TxnEvents {
    /// Events a large transaction's binlog cache moved to a temporary
    /// file: written before `events`.
    pub spilled: Option<SpilledEvents>,
    pub events: Vec<PendingEvent>,
    pub kind: ev::GroupKind,
    pub thread_id: u32,
}

/// What a committed transaction got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommitInfo {
    pub gtid: Gtid,
    /// Position right after its last event.
    pub end_pos: BinlogPos,
    /// Group commit id (also MariaDB's commit_id when the group has >1 member).
    pub group_id: u64,
}

/// Makes one applied batch visible to readers (see [`GroupSink`]).
pub type Publish = Box<dyn FnOnce() + Send>;

/// The layer above: applies written groups to storage and publishes them
/// once durable.
pub trait GroupSink<T>: Send + Sync + 'static {
    /// Called in binlog order from the commit stage once the transactions
    /// are written to the binlog, while the sync stage makes them durable.
    /// Applies their payloads to storage *without making them visible* and
    /// returns what publishes exactly this result. `group` holds one or more
    /// consecutive commit groups (the commit stage merges those waiting).
    /// The pipeline calls the returned publishers in apply order, each only
    /// once its transactions are durable under the sync policy (DESIGN.md:
    /// a commit is visible only once durable), and never for transactions
    /// the binlog failed to make durable. An error poisons the binlog: the
    /// group is in the binlog (so committed) but storage no longer matches;
    /// a restart replays it.
    fn apply_group(&self, group: &mut [(T, CommitInfo)]) -> Result<Publish, String>;
}

/// Snapshot of the status counters (SHOW GLOBAL STATUS) and positions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BinlogStats {
    pub binlog_commits: u64,
    pub binlog_group_commits: u64,
    pub binlog_group_commit_trigger_count: u64,
    pub binlog_group_commit_trigger_timeout: u64,
    pub binlog_bytes_written: u64,
    /// Explicit fdatasync/fsync calls (O_DSYNC writes are not counted).
    pub binlog_syncs: u64,
    /// Syncs the checkpointer asked for under `sync_binlog=0`/`N` (so
    /// storage is never persisted past the binlog); not part of the commit
    /// policy, so counted apart from `binlog_syncs`.
    pub binlog_checkpoint_syncs: u64,
    pub binlog_sync_time_us: u64,
    pub current_file: String,
    pub current_pos: BinlogPos,
    pub synced_pos: BinlogPos,
    pub last_committed_gtid: Option<Gtid>,
    pub poisoned: bool,
}

/// Where a transaction's outcome goes.
enum ReplyTo {
    /// A session waiting on the receiver.
    Channel(oneshot::Sender<Result<CommitInfo, BinlogError>>),
    /// Run by whichever thread settles the transaction (usually a pipeline
    /// thread), so that no session has to sleep and be woken for it.
    Call(OnCommitted),
}

/// How often [`Binlog::pause_commits`] checks whether the commits in flight
/// have settled.
const PAUSE_POLL_US: u64 = 200;

/// While this lives no commit enters the pipeline and none is in flight
/// (see [`Binlog::pause_commits`]).
pub struct CommitPause<'a, T> {
    shared: &'a Shared<T>,
}

impl<T> Drop for CommitPause<'_, T> {
    fn drop(&mut self) {
        self.shared.queue.lock().paused = false;
        self.shared.space_cv.notify_all();
    }
}

/// Called with a transaction's outcome; see [`Binlog::commit_then`].
pub type OnCommitted = Box<dyn FnOnce(Result<CommitInfo, BinlogError>) + Send>;

/// A session's reply. While it exists its transaction counts as in
/// flight: the inline path may only run when nothing is.
struct Reply {
    to: Option<ReplyTo>,
    in_flight: Arc<AtomicU64>,
}

impl Reply {
    fn send(mut self, result: Result<CommitInfo, BinlogError>) {
        if let Some(to) = self.to.take() {
            // Before the send: the woken session's next commit must find the
            // pipeline empty.
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            match to {
                // The session may have gone away; nothing to tell then.
                ReplyTo::Channel(tx) => drop(tx.send(result)),
                ReplyTo::Call(f) => f(result),
            }
        }
    }
}

impl Drop for Reply {
    fn drop(&mut self) {
        if let Some(to) = self.to.take() {
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            // A receiver sees its sender dropped; a callback must be told,
            // or its client would wait for an answer forever.
            if let ReplyTo::Call(f) = to {
                f(Err(poisoned_err("commit pipeline stopped")));
            }
        }
    }
}

struct Queued<T> {
    txn: TxnEvents,
    payload: T,
    reply: Reply,
}

/// A written group on its way to the commit stage.
struct Group<T> {
    items: Vec<(T, CommitInfo)>,
    replies: Vec<Reply>,
}

/// An applied batch waiting for the sync stage to release it.
struct Ready {
    last_group_id: u64,
    publish: Publish,
    infos: Vec<CommitInfo>,
    replies: Vec<Reply>,
}

/// A written group on its way through the sync stage.
struct SyncItem {
    group_id: u64,
    txns: usize,
    /// Its file's handle for the pipeline's syncs.
    sync_handle: Arc<dyn IoFile>,
    /// Its file is written with O_DSYNC: writes are durable on return.
    o_dsync: bool,
    end_pos: BinlogPos,
}

#[derive(Default)]
struct Counters {
    commits: AtomicU64,
    group_commits: AtomicU64,
    trigger_count: AtomicU64,
    trigger_timeout: AtomicU64,
    bytes_written: AtomicU64,
    syncs: AtomicU64,
    checkpoint_syncs: AtomicU64,
    sync_time_us: AtomicU64,
}

/// Live variables.
struct Live {
    sync_binlog: AtomicU32,
    sync_method: AtomicU8,
    sync_delay_us: AtomicU64,
    no_delay_count: AtomicU32,
    max_binlog_size_bytes: AtomicU64,
    preallocate_size_bytes: AtomicU64,
    queue_capacity: AtomicUsize,
}

struct CommitQueue<T> {
    items: VecDeque<Queued<T>>,
    /// A session is committing inline; the flush stage waits for it.
    inline_active: bool,
    /// A [`CommitPause`] holds new commits back.
    paused: bool,
    shutdown: bool,
}

struct SyncQueue {
    groups: VecDeque<SyncItem>,
    /// A batch is being synced (by the sync thread or the flush thread) or
    /// handed off after its sync: one at a time.
    syncing: bool,
    /// The sync thread is waiting out `sync_delay` for these groups; the
    /// flush thread leaves them to it.
    collecting: bool,
    flush_done: bool,
}

/// Flush-stage state, also locked by admin operations (rotate, purge,
/// reset), which therefore always run between groups.
struct Writer {
    files: FileSet,
    next_seq: u64,
    next_group_id: u64,
    next_xid: u64,
    gtid_state: BTreeMap<u32, Gtid>,
}

#[derive(Default)]
struct Positions {
    current_file: String,
    current: BinlogPos,
    synced: BinlogPos,
    /// Id of the last group the sync stage let through (synced, or not due
    /// for a sync under the policy): the commit stage may publish up to it.
    /// Group ids, unlike positions, keep increasing across RESET MASTER.
    released_group_id: u64,
    /// Applied batches in apply order, each published by whichever of the
    /// sync and commit stages sees it both applied and released first.
    ready: VecDeque<Ready>,
    last_committed: Option<Gtid>,
    /// End of the last published transaction (see [`ReplicaLimit`]).
    published: BinlogPos,
    /// Where the current file's header events end.
    current_header_end: u64,
}

impl Positions {
    fn replica_limit(&self) -> ReplicaLimit {
        ReplicaLimit {
            current_file_seq: self.current.file_seq,
            current_header_end: self.current_header_end,
            published: self.published,
        }
    }
}

/// How far a replica may read the binlog: up to `published`, the end of
/// the last transaction made visible on this server — a replica never sees
/// a transaction this server's own clients cannot see yet. Events that are
/// no transaction's are readable once everything before them is: a
/// completed file's closing ROTATE (a rotation writes it, trims and syncs
/// the file before the next one becomes current) and the current file's
/// header events, up to `current_header_end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplicaLimit {
    pub current_file_seq: u32,
    pub current_header_end: u64,
    pub published: BinlogPos,
}

impl ReplicaLimit {
    /// How far file `seq` may be read: `None` for all of it (a completed
    /// file whose transactions are all published), else an offset. In a
    /// completed file, a ROTATE starting at that offset is readable too.
    pub fn readable_end(&self, seq: u32) -> Option<u64> {
        if self.published.file_seq > seq {
            None
        } else if self.published.file_seq == seq {
            Some(self.published.offset)
        } else if seq == self.current_file_seq {
            Some(self.current_header_end)
        } else {
            Some(0)
        }
    }

    pub fn is_completed(&self, seq: u32) -> bool {
        seq < self.current_file_seq
    }
}

struct Shared<T> {
    server_id: u32,
    domain_id: u32,
    checksum: bool,
    live: Live,
    counters: Counters,
    queue: Mutex<CommitQueue<T>>,
    queue_cv: Condvar,
    space_cv: Condvar,
    sync_q: Mutex<SyncQueue>,
    /// Wakes the sync thread (a group arrived, or flush finished).
    sync_cv: Condvar,
    /// Wakes the flush thread (the sync stage has room).
    room_cv: Condvar,
    writer: Mutex<Writer>,
    poisoned: AtomicBool,
    poison_reason: Mutex<String>,
    pos: Mutex<Positions>,
    /// Wakes replicas waiting for the [`ReplicaLimit`] to move (with `pos`).
    replica_cv: Condvar,
    /// Groups written since the last sync (`sync_binlog=N`).
    groups_since_sync: AtomicU64,
    /// Transactions enqueued and not yet answered (see [`Reply`]).
    in_flight: Arc<AtomicU64>,
    sink: Arc<dyn GroupSink<T>>,
}

/// The binlog: file set plus group-commit pipeline.
pub struct Binlog<T: Send + 'static> {
    shared: Arc<Shared<T>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

fn poisoned_err(reason: &str) -> BinlogError {
    BinlogError::Poisoned(reason.to_string())
}

impl<T: Send + 'static> Shared<T> {
    fn poison(&self, reason: String) {
        tracing::error!(%reason, "binlog poisoned: every further commit fails until restart");
        {
            let mut r = self.poison_reason.lock();
            if r.is_empty() {
                *r = reason;
            }
        }
        self.poisoned.store(true, Ordering::SeqCst);
        // Wake everyone waiting for stage capacity so they see the poison,
        // and fail the applied batches the binlog will never release.
        self.room_cv.notify_all();
        self.space_cv.notify_all();
        self.publish_released();
    }

    fn poison_error(&self) -> BinlogError {
        poisoned_err(&self.poison_reason.lock())
    }

    fn is_poisoned(&self) -> bool {
        self.poisoned.load(Ordering::SeqCst)
    }

    fn rotate_params(&self) -> RotateParams {
        RotateParams {
            preallocate_size_bytes: self.live.preallocate_size_bytes.load(Ordering::Relaxed),
            o_dsync: SyncMethod::from_u8(self.live.sync_method.load(Ordering::Relaxed)) == SyncMethod::ODsync,
        }
    }

    fn fail_all(replies: Vec<Reply>, err: impl Fn() -> BinlogError) {
        for r in replies {
            // The session may have gone away; nothing to tell then.
            r.send(Err(err()));
        }
    }

    /// Encodes one transaction of a group into `part`: GTID, its spilled
    /// events, its events in memory, XID (unless standalone DDL), writing
    /// each full part.
    fn write_txn(
        &self,
        w: &mut Writer,
        part: &mut GroupPart,
        gtid: &Gtid,
        txn: &TxnEvents,
        commit_id: Option<u64>,
    ) -> Result<(), GroupWriteError> {
        part.event(self, ev::type_code::GTID, 0, &ev::gtid_body(gtid, txn.kind, commit_id));
        if let Some(spilled) = &txn.spilled {
            spilled.read_each(|type_code, flags, body| {
                part.event(self, type_code, flags, body);
                part.write_if_full(&mut w.files)
            })?;
        }
        for e in &txn.events {
            part.event(self, e.type_code, e.flags, &e.body);
            part.write_if_full(&mut w.files)?;
        }
        if txn.kind != ev::GroupKind::StandaloneDdl {
            let xid = w.next_xid;
            w.next_xid += 1;
            part.event(self, ev::type_code::XID, 0, &ev::xid_body(xid));
        }
        Ok(())
    }

    /// Fails every member of a group whose write failed. Nothing of the
    /// group is left in the file unless `poison` (its removal failed too):
    /// then the binlog refuses every further commit.
    fn fail_group_write(&self, e: BinlogError, poison: bool, replies: Vec<Reply>) {
        if poison {
            let reason = format!("write failed and the partial group could not be removed: {e}");
            self.poison(reason);
            return Self::fail_all(replies, || self.poison_error());
        }
        // The GTIDs are given back (next_seq untouched). Every member gets
        // the same error.
        let (path, kind, errno, msg) = match &e {
            BinlogError::Io { path, source } => {
                (path.clone(), source.kind(), source.raw_os_error(), source.to_string())
            }
            other => (String::new(), std::io::ErrorKind::Other, None, other.to_string()),
        };
        for r in replies {
            let source = match errno {
                Some(code) => std::io::Error::from_raw_os_error(code),
                None => std::io::Error::new(kind, msg.clone()),
            };
            r.send(Err(BinlogError::Io { path: path.clone(), source }));
        }
    }

    fn publish_position(&self, w: &Writer) {
        let mut p = self.pos.lock();
        p.current = w.files.position();
        if p.current_file != w.files.current_name() {
            p.current_file = w.files.current_name().to_string();
            // No group is in the new file yet: its header ends here.
            p.current_header_end = p.current.offset;
            self.replica_cv.notify_all();
        }
    }

    // ------------------------------------------------------------- flush

    fn flush_loop(self: &Arc<Self>, to_commit: std::sync::mpsc::Sender<Group<T>>) {
        loop {
            // Room in the sync stage: at most one written group waits while
            // a sync runs, so later arrivals gather into a bigger group.
            {
                // Without a sync delay, a written group waits untaken only
                // while a sync runs; with a delay, groups gather while the
                // sync stage is collecting (syncing == false) but not while
                // it syncs.
                let mut sq = self.sync_q.lock();
                while !sq.groups.is_empty()
                    && (sq.syncing || self.live.sync_delay_us.load(Ordering::Relaxed) == 0)
                    && !self.is_poisoned()
                {
                    self.room_cv.wait(&mut sq);
                }
            }
            let batch: Vec<Queued<T>> = {
                let mut q = self.queue.lock();
                while (q.items.is_empty() && !q.shutdown) || q.inline_active {
                    self.queue_cv.wait(&mut q);
                }
                if q.items.is_empty() {
                    break;
                }
                let b = q.items.drain(..).collect();
                self.space_cv.notify_all();
                b
            };
            if self.is_poisoned() {
                Self::fail_all(batch.into_iter().map(|q| q.reply).collect(), || self.poison_error());
                continue;
            }
            // Read once: the same answer must decide both who is told about
            // the group and who syncs it, or a live SET GLOBAL in between
            // could leave it to nobody.
            let sync_here = self.live.sync_delay_us.load(Ordering::Relaxed) == 0;
            self.flush_group(batch, &to_commit, sync_here);
            if sync_here {
                self.sync_waiting_groups();
            }
        }
        let mut sq = self.sync_q.lock();
        sq.flush_done = true;
        self.sync_cv.notify_all();
    }

    fn flush_group(
        self: &Arc<Self>,
        batch: Vec<Queued<T>>,
        to_commit: &std::sync::mpsc::Sender<Group<T>>,
        sync_here: bool,
    ) {
        let mut w = self.writer.lock();
        let Some((group, sync_item)) = self.write_group(&mut w, batch) else { return };
        // The sync is the commit latency: start it first. The commit stage
        // applies the group to storage meanwhile (unpublished until the sync
        // stage releases it).
        {
            let mut sq = self.sync_q.lock();
            sq.groups.push_back(sync_item);
            // Without a sync delay this thread syncs the group itself right
            // after (see `sync_waiting_groups`): no wake-up for the sync
            // thread.
            if !sync_here {
                self.sync_cv.notify_all();
            }
        }
        if let Err(std::sync::mpsc::SendError(group)) = to_commit.send(group) {
            // The commit stage is gone (it panicked): nothing can be
            // acknowledged any more.
            self.poison("binlog commit stage stopped".into());
            Self::fail_all(group.replies, || self.poison_error());
        }
        self.rotate_if_full(&mut w);
    }

    /// Encodes and writes one group: with one positioned write, or in parts
    /// of [`GROUP_WRITE_PART_BYTES`] when it is larger, so a large
    /// transaction is never encoded whole in memory. `None` if the write
    /// failed (its sessions have their error).
    fn write_group(&self, w: &mut Writer, batch: Vec<Queued<T>>) -> Option<(Group<T>, SyncItem)> {
        let n = batch.len();
        debug_assert!(n > 0);
        let group_id = w.next_group_id;
        w.next_group_id += 1;
        let first_seq = w.next_seq;
        // MariaDB only marks commit_id on groups a replica can parallelise.
        let commit_id = (n > 1).then_some(group_id);
        let file_seq = w.files.current_seq();
        let start = w.files.end_bytes();
        let ts = now_unix_s();
        let group_bytes: usize =
            batch.iter().map(|q| q.txn.events.iter().map(|e| e.body.len() + 23).sum::<usize>() + 80).sum();
        let buf = Vec::with_capacity(group_bytes.min(GROUP_WRITE_PART_BYTES + MAX_EVENT_OVERHEAD_BYTES));
        let off = start;
        let mut items = Vec::with_capacity(n);
        let mut replies = Vec::with_capacity(n);
        let mut txns = Vec::with_capacity(n);
        for q in batch {
            replies.push(q.reply);
            txns.push((q.txn, q.payload));
        }
        let mut part = GroupPart { start, buf, off, ts };
        let mut written = Ok(());
        for (i, (txn, payload)) in txns.into_iter().enumerate() {
            let gtid = Gtid { domain_id: self.domain_id, server_id: self.server_id, seq_no: first_seq + i as u64 };
            written = self.write_txn(w, &mut part, &gtid, &txn, commit_id);
            if written.is_err() {
                break;
            }
            let info = CommitInfo { gtid, end_pos: BinlogPos { file_seq, offset: part.off }, group_id };
            items.push((payload, info));
        }
        let written = written.and_then(|()| w.files.append_to_group(start, &part.buf).map_err(GroupWriteError::from));
        if let Err(e) = written {
            let (e, poison) = match e {
                GroupWriteError::Write(e, poison) => (e, poison),
                GroupWriteError::ReadCache(source) => (
                    BinlogError::Io { path: "binlog cache temporary file".into(), source },
                    w.files.remove_group(start),
                ),
            };
            tracing::error!(error = %e, group_id, txns = n, "binlog: group write failed; its commits fail");
            self.fail_group_write(e, poison, replies);
            return None;
        }
        let off = part.off;
        debug_assert_eq!(off, w.files.end_bytes());
        w.next_seq = first_seq + n as u64;
        let last = items.last().map(|(_, i)| i.gtid).expect("non-empty group");
        w.gtid_state.insert(last.domain_id, last);
        self.counters.group_commits.fetch_add(1, Ordering::Relaxed);
        self.counters.bytes_written.fetch_add(off - start, Ordering::Relaxed);
        let sync_item = SyncItem {
            group_id,
            txns: n,
            sync_handle: w.files.current_sync_handle(),
            o_dsync: w.files.current_file().is_o_dsync(),
            end_pos: w.files.position(),
        };
        self.publish_position(w);
        Some((Group { items, replies }, sync_item))
    }

    /// Rotates between groups once the file passed `max_binlog_size`.
    fn rotate_if_full(&self, w: &mut Writer) {
        if w.files.end_bytes() >= self.live.max_binlog_size_bytes.load(Ordering::Relaxed) {
            let state: Vec<Gtid> = w.gtid_state.values().copied().collect();
            if let Err(e) = w.files.rotate(&state, self.rotate_params()) {
                self.poison(format!("rotation failed: {e}"));
            }
            self.publish_position(w);
        }
    }

    // ------------------------------------------------------------ inline

    /// Commits one transaction on the session's own thread while every
    /// stage is idle: write, sync per policy, apply, publish — the same
    /// steps and invariants as the staged path, without its three thread
    /// hand-offs (each a cross-CPU wake-up that costs more than the
    /// transaction's SQL at low concurrency). The flush stage waits while
    /// this runs (`inline_active`), and nothing else is in flight, so order
    /// and the storage single-writer rule hold.
    fn commit_inline(&self, queued: Queued<T>) {
        if self.is_poisoned() {
            return queued.reply.send(Err(self.poison_error()));
        }
        let written = {
            let mut w = self.writer.lock();
            let written = self.write_group(&mut w, vec![queued]);
            self.rotate_if_full(&mut w);
            written
        };
        let Some((mut group, sync_item)) = written else { return };
        let group_id = sync_item.group_id;
        if self.sync_batch(&[sync_item]).is_err() {
            return Self::fail_all(group.replies, || self.poison_error());
        }
        {
            let mut p = self.pos.lock();
            p.released_group_id = p.released_group_id.max(group_id);
        }
        // Publishes and answers through the same path as the commit stage;
        // a storage failure poisons the binlog there.
        let _ = self.apply_durable(&mut group.items, group.replies);
    }

    // -------------------------------------------------------------- sync

    fn sync_loop(self: &Arc<Self>) {
        loop {
            let batch: Vec<SyncItem> = {
                let mut sq = self.sync_q.lock();
                loop {
                    if !sq.groups.is_empty() && !sq.syncing {
                        break;
                    }
                    if sq.flush_done && sq.groups.is_empty() {
                        return;
                    }
                    self.sync_cv.wait(&mut sq);
                }
                let delay_us = self.live.sync_delay_us.load(Ordering::Relaxed);
                if delay_us > 0 {
                    sq.collecting = true;
                    let deadline = Instant::now() + Duration::from_micros(delay_us);
                    loop {
                        let want = u64::from(self.live.no_delay_count.load(Ordering::Relaxed));
                        let have: u64 = sq.groups.iter().map(|g| g.txns as u64).sum();
                        if want > 0 && have >= want {
                            self.counters.trigger_count.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        if sq.flush_done {
                            break; // shutting down: sync what is there
                        }
                        if Instant::now() >= deadline {
                            self.counters.trigger_timeout.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        self.sync_cv.wait_until(&mut sq, deadline);
                    }
                    sq.collecting = false;
                }
                debug_assert!(!sq.groups.is_empty() && !sq.syncing, "collected groups were taken by another syncer");
                sq.syncing = true;
                let b = sq.groups.drain(..).collect();
                self.room_cv.notify_all();
                b
            };
            self.sync_and_release(&batch);
        }
    }

    /// The flush thread's sync when there is no sync delay to gather groups
    /// over: it syncs the group it just wrote instead of waking the sync
    /// thread — that hand-off is a cross-CPU wake-up on every commit's
    /// latency — while the next group gathers in the commit queue. Skipped
    /// if the sync thread is busy with or collecting an earlier batch (the
    /// delay was just turned off); it takes these groups when done.
    fn sync_waiting_groups(&self) {
        let batch: Vec<SyncItem> = {
            let mut sq = self.sync_q.lock();
            if sq.syncing || sq.collecting || sq.groups.is_empty() {
                return;
            }
            sq.syncing = true;
            sq.groups.drain(..).collect()
        };
        self.sync_and_release(&batch);
    }

    /// Syncs one batch of written groups per policy and releases them for
    /// publication. The caller set `syncing`, so only one batch syncs at a
    /// time and batches are released in file order.
    fn sync_and_release(&self, batch: &[SyncItem]) {
        let result = self.sync_batch(batch);
        {
            let mut sq = self.sync_q.lock();
            debug_assert!(sq.syncing);
            sq.syncing = false;
            self.room_cv.notify_all();
            if !sq.groups.is_empty() {
                self.sync_cv.notify_all();
            }
        }
        if result.is_ok() {
            let last = batch.last().expect("non-empty batch");
            {
                let mut p = self.pos.lock();
                p.released_group_id = p.released_group_id.max(last.group_id);
            }
            self.publish_released();
        }
        // On failure the binlog is poisoned, which failed every applied
        // batch; groups still to be applied fail in the commit stage.
    }

    /// Syncs the current file through its written end, whatever the
    /// policy: the checkpointer calls this so storage can be persisted under
    /// `sync_binlog=0` or `N` (storage may never be durable past the binlog).
    fn sync_written(&self) -> Result<BinlogPos, BinlogError> {
        if self.is_poisoned() {
            return Err(self.poison_error());
        }
        let (file, end) = {
            let w = self.writer.lock();
            (w.files.current_file(), w.files.position())
        };
        if !file.is_o_dsync() {
            let t0 = Instant::now();
            if let Err(e) = file.sync_data() {
                self.poison(format!("binlog sync failed at {}:{}: {e}", end.file_seq, end.offset));
                return Err(self.poison_error());
            }
            self.counters.checkpoint_syncs.fetch_add(1, Ordering::Relaxed);
            self.counters.sync_time_us.fetch_add(t0.elapsed().as_micros() as u64, Ordering::Relaxed);
        }
        let mut p = self.pos.lock();
        if end > p.synced {
            p.synced = end;
        }
        Ok(p.synced)
    }

    /// Syncs per policy. `Err` means the binlog is (now) poisoned.
    fn sync_batch(&self, batch: &[SyncItem]) -> Result<(), ()> {
        if self.is_poisoned() {
            return Err(());
        }
        let last = batch.last().expect("non-empty batch");
        // One syncer at a time — the holder of `syncing` (sync or flush
        // thread) or an inline commit, which runs only when nothing is in
        // flight — so this read-modify-write does not race.
        let since = self.groups_since_sync.fetch_add(batch.len() as u64, Ordering::Relaxed) + batch.len() as u64;
        let n = u64::from(self.live.sync_binlog.load(Ordering::Relaxed));
        if n == 0 || since < n {
            return Ok(());
        }
        self.groups_since_sync.store(0, Ordering::Relaxed);
        // Rotation fsyncs the old file, so syncing the newest group's file
        // covers every group of the batch.
        if !last.o_dsync {
            let file = &last.sync_handle;
            let t0 = Instant::now();
            let r = match SyncMethod::from_u8(self.live.sync_method.load(Ordering::Relaxed)) {
                SyncMethod::Fsync => file.sync_all(),
                SyncMethod::Fdatasync | SyncMethod::ODsync => file.sync_data(),
            };
            let us = t0.elapsed().as_micros() as u64;
            self.counters.syncs.fetch_add(1, Ordering::Relaxed);
            self.counters.sync_time_us.fetch_add(us, Ordering::Relaxed);
            if let Err(e) = r {
                // fsyncgate: after a failed sync the page cache may have
                // dropped the dirty pages; a retry could "succeed" without the
                // data. Never acknowledge anything again.
                self.poison(format!("binlog sync failed at {}:{}: {e}", last.end_pos.file_seq, last.end_pos.offset));
                return Err(());
            }
        }
        // Another sync of this file (the checkpointer's, a rotation's) may
        // have failed meanwhile; its error may concern these pages too.
        if self.is_poisoned() {
            return Err(());
        }
        let mut p = self.pos.lock();
        if last.end_pos > p.synced {
            p.synced = last.end_pos;
        }
        Ok(())
    }

    // ------------------------------------------------------------ commit

    fn commit_loop(self: &Arc<Self>, from_flush: std::sync::mpsc::Receiver<Group<T>>) {
        let mut broken: Option<String> = None;
        while let Ok(first) = from_flush.recv() {
            // The commit stage is the serial step of the pipeline: every
            // written group already waiting is applied in one storage
            // transaction, so its fixed cost is paid once per batch, not once
            // per group. Groups arrive in file order.
            let mut items: Vec<(T, CommitInfo)> = first.items;
            let mut replies: Vec<Reply> = first.replies;
            while items.len() < MAX_APPLY_BATCH_TXNS {
                match from_flush.try_recv() {
                    Ok(g) => {
                        items.extend(g.items);
                        replies.extend(g.replies);
                    }
                    Err(_) => break,
                }
            }
            if let Some(reason) = &broken {
                Self::fail_all(replies, || poisoned_err(reason));
                continue;
            }
            if let Err(reason) = self.apply_durable(&mut items, replies) {
                broken = Some(reason);
            }
        }
    }

    /// Applies written transactions to storage (unpublished) while the sync
    /// stage makes them durable, then queues them for publication. `Err`
    /// means storage failed: the binlog is poisoned and every later commit
    /// fails too.
    fn apply_durable(&self, items: &mut [(T, CommitInfo)], replies: Vec<Reply>) -> Result<(), String> {
        debug_assert_eq!(items.len(), replies.len());
        let Some(last_group_id) = items.last().map(|(_, i)| i.group_id) else { return Ok(()) };
        // A panicking sink must not kill the stage silently and hang every
        // later session: turn it into an apply error.
        let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.sink.apply_group(items)))
            .unwrap_or_else(|_| Err("apply_group panicked".to_string()));
        let publish = match applied {
            Ok(publish) => publish,
            Err(e) => {
                let reason = format!("storage failed to apply a durable group: {e}");
                self.poison(reason.clone());
                Self::fail_all(replies, || poisoned_err(&reason));
                return Err(reason);
            }
        };
        let infos = items.iter().map(|(_, i)| *i).collect();
        self.pos.lock().ready.push_back(Ready { last_group_id, publish, infos, replies });
        self.publish_released();
        Ok(())
    }

    /// Publishes, in apply order, every applied batch the sync stage has
    /// released, and acknowledges its sessions; once the binlog is poisoned,
    /// fails the batches it will never release. Called by both the sync and
    /// the commit stage, so whichever finishes last wakes the sessions
    /// without a further hand-off.
    fn publish_released(&self) {
        let mut done: Vec<(Vec<CommitInfo>, Vec<Reply>)> = Vec::new();
        let mut failed: Vec<Ready> = Vec::new();
        {
            let mut p = self.pos.lock();
            while p.ready.front().is_some_and(|r| r.last_group_id <= p.released_group_id) {
                let Some(Ready { publish, infos, replies, .. }) = p.ready.pop_front() else { break };
                // Publishing under `pos` keeps publications in apply order
                // when both stages publish at once.
                publish();
                if let Some(last) = infos.last() {
                    p.last_committed = Some(last.gtid);
                    p.published = last.end_pos;
                }
                done.push((infos, replies));
            }
            if self.is_poisoned() {
                failed.extend(p.ready.drain(..));
            }
        }
        if !done.is_empty() {
            self.replica_cv.notify_all();
        }
        for (infos, replies) in done {
            self.counters.commits.fetch_add(infos.len() as u64, Ordering::Relaxed);
            for (info, reply) in infos.iter().zip(replies) {
                reply.send(Ok(*info));
            }
        }
        for r in failed {
            // Not durable and never will be: storage holds it unpublished,
            // the checkpointer cannot persist it (the binlog refuses to
            // sync), and a restart replays only what the binlog kept.
            Self::fail_all(r.replies, || self.poison_error());
        }
    }
}

impl<T: Send + 'static> Binlog<T> {
    /// Opens the binlog after [`crate::recovery::scan`] (and after the
    /// applier replayed what storage lacked): continues GTID numbering from
    /// the scan's state and writing at its end position.
    pub fn open(
        config: BinlogConfig,
        sink: Arc<dyn GroupSink<T>>,
        recovered: &RecoveryScan,
    ) -> Result<Self, BinlogError> {
        assert!(
            config.max_binlog_size_bytes <= u32::MAX as u64 / 2,
            "max_binlog_size must leave room below 4 GiB (log_pos is 32-bit)"
        );
        let mut gtid_state: BTreeMap<u32, Gtid> = recovered.gtid_state.iter().map(|g| (g.domain_id, *g)).collect();
        if let Some(g) = recovered.last_gtid {
            gtid_state.entry(g.domain_id).or_insert(g);
        }
        let next_seq = gtid_state.get(&config.domain_id).map_or(1, |g| g.seq_no + 1);
        let state: Vec<Gtid> = gtid_state.values().copied().collect();
        let files = FileSet::open(&config, recovered, &state)?;
        let pos = Positions {
            current_file: files.current_name().to_string(),
            current: files.position(),
            // Everything found at start-up was read back from the file.
            synced: files.position(),
            released_group_id: 0,
            ready: VecDeque::new(),
            last_committed: recovered.last_gtid,
            published: files.position(),
            current_header_end: files.position().offset,
        };
        let shared = Arc::new(Shared {
            server_id: config.server_id,
            domain_id: config.domain_id,
            checksum: config.checksum,
            live: Live {
                sync_binlog: AtomicU32::new(config.sync_binlog),
                sync_method: AtomicU8::new(config.sync_method.as_u8()),
                sync_delay_us: AtomicU64::new(config.group_commit_sync_delay_us),
                no_delay_count: AtomicU32::new(config.group_commit_sync_no_delay_count),
                max_binlog_size_bytes: AtomicU64::new(config.max_binlog_size_bytes),
                preallocate_size_bytes: AtomicU64::new(config.preallocate_size_bytes),
                queue_capacity: AtomicUsize::new(config.commit_queue_capacity.max(1)),
            },
            counters: Counters::default(),
            queue: Mutex::new(CommitQueue {
                items: VecDeque::new(),
                inline_active: false,
                paused: false,
                shutdown: false,
            }),
            queue_cv: Condvar::new(),
            space_cv: Condvar::new(),
            sync_q: Mutex::new(SyncQueue {
                groups: VecDeque::new(),
                syncing: false,
                collecting: false,
                flush_done: false,
            }),
            sync_cv: Condvar::new(),
            room_cv: Condvar::new(),
            writer: Mutex::new(Writer {
                files,
                next_seq,
                next_group_id: 1,
                // XIDs only need to be unique within a file; time-seeding
                // keeps them increasing across restarts too.
                next_xid: u64::from(now_unix_s()) << 20,
                gtid_state,
            }),
            poisoned: AtomicBool::new(false),
            poison_reason: Mutex::new(String::new()),
            pos: Mutex::new(pos),
            replica_cv: Condvar::new(),
            groups_since_sync: AtomicU64::new(0),
            in_flight: Arc::new(AtomicU64::new(0)),
            sink,
        });
        let (tx, rx) = std::sync::mpsc::channel();
        let spawn = |name: &str, f: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name.to_string())
                .spawn(f)
                .map_err(|e| BinlogError::Io { path: format!("thread {name}"), source: e })
        };
        let s1 = shared.clone();
        let s2 = shared.clone();
        let s3 = shared.clone();
        let threads = vec![
            spawn("binlog-flush", Box::new(move || s1.flush_loop(tx)))?,
            spawn("binlog-sync", Box::new(move || s2.sync_loop()))?,
            spawn("binlog-commit", Box::new(move || s3.commit_loop(rx)))?,
        ];
        Ok(Binlog { shared, threads: Mutex::new(threads) })
    }

    /// Enqueues a transaction; the receiver resolves when it is committed
    /// (durable per policy, applied, visible) or failed. Blocks while the
    /// commit queue is full (`commit_queue_capacity`), which is the
    /// back-pressure on sessions when the disk cannot keep up.
    pub fn commit(&self, txn: TxnEvents, payload: T) -> oneshot::Receiver<Result<CommitInfo, BinlogError>> {
        let (tx, rx) = oneshot::channel();
        self.enqueue(txn, payload, ReplyTo::Channel(tx));
        rx
    }

    /// [`Binlog::commit`] that calls `then` with the outcome instead of
    /// answering a receiver: at the same point (after publication), on the
    /// thread that settles the transaction — a pipeline thread, or this one
    /// when it commits inline or the commit fails at once. `then` must be
    /// short and must not block: it runs on the commit path.
    pub fn commit_then(&self, txn: TxnEvents, payload: T, then: OnCommitted) {
        self.enqueue(txn, payload, ReplyTo::Call(then));
    }

    fn enqueue(&self, txn: TxnEvents, payload: T, to: ReplyTo) {
        let s = &self.shared;
        let mut q = s.queue.lock();
        // Held back by a pause before counting as in flight, so the pause's
        // drain does not wait for this one.
        while q.paused && !q.shutdown && !s.is_poisoned() {
            s.space_cv.wait(&mut q);
        }
        s.in_flight.fetch_add(1, Ordering::SeqCst);
        let reply = Reply { to: Some(to), in_flight: s.in_flight.clone() };
        if s.is_poisoned() {
            drop(q);
            return reply.send(Err(s.poison_error()));
        }
        while q.items.len() >= s.live.queue_capacity.load(Ordering::Relaxed) && !q.shutdown && !s.is_poisoned() {
            s.space_cv.wait(&mut q);
        }
        if q.shutdown {
            drop(q);
            return reply.send(Err(poisoned_err("binlog is shut down")));
        }
        // Nothing in flight anywhere but this one (and no sync delay asked
        // for grouping): this session commits by itself, without waking
        // three stages.
        let inline = q.items.is_empty()
            && !q.inline_active
            && s.in_flight.load(Ordering::SeqCst) == 1
            && s.live.sync_delay_us.load(Ordering::Relaxed) == 0;
        let queued = Queued { txn, payload, reply };
        if inline {
            q.inline_active = true;
            drop(q);
            s.commit_inline(queued);
            let mut q = s.queue.lock();
            q.inline_active = false;
            s.queue_cv.notify_one();
        } else {
            q.items.push_back(queued);
            s.queue_cv.notify_one();
        }
    }

    /// The path of binlog file `name` if the index lists it, with its
    /// sequence number.
    pub fn indexed_path(&self, name: &str) -> Option<(u32, std::path::PathBuf)> {
        self.shared.writer.lock().files.indexed_path(name)
    }

    /// Every indexed file (name, sequence, path), oldest first.
    pub fn indexed_files(&self) -> Vec<(String, u32, std::path::PathBuf)> {
        self.shared.writer.lock().files.indexed_files()
    }

    /// The indexed file after file `seq` (name, sequence, path).
    pub fn indexed_after(&self, seq: u32) -> Option<(String, u32, std::path::PathBuf)> {
        self.shared.writer.lock().files.indexed_after(seq)
    }

    /// The name of binlog file `seq`.
    pub fn file_name(&self, seq: u32) -> String {
        self.shared.writer.lock().files.file_name(seq)
    }

    pub fn server_id(&self) -> u32 {
        self.shared.server_id
    }

    /// Runs `take` while no transaction is being published and returns its
    /// result with the end of the last published transaction: a storage
    /// snapshot `take` takes holds exactly the transactions before that
    /// position (START TRANSACTION WITH CONSISTENT SNAPSHOT).
    pub fn at_published<R>(&self, take: impl FnOnce() -> R) -> (R, BinlogPos) {
        let p = self.shared.pos.lock();
        (take(), p.published)
    }

    /// The end of the last transaction made visible to readers.
    pub fn published_position(&self) -> BinlogPos {
        self.shared.pos.lock().published
    }

    /// How far replicas may read now.
    pub fn replica_limit(&self) -> ReplicaLimit {
        self.shared.pos.lock().replica_limit()
    }

    /// Waits at most `timeout` for the replica limit to differ from `seen`;
    /// returns it either way.
    pub fn wait_replica_limit(&self, seen: ReplicaLimit, timeout: Duration) -> ReplicaLimit {
        let s = &self.shared;
        let deadline = Instant::now() + timeout;
        let mut p = s.pos.lock();
        while p.replica_limit() == seen && !s.replica_cv.wait_until(&mut p, deadline).timed_out() {}
        p.replica_limit()
    }

    pub fn stats(&self) -> BinlogStats {
        let c = &self.shared.counters;
        let p = self.shared.pos.lock();
        BinlogStats {
            binlog_commits: c.commits.load(Ordering::Relaxed),
            binlog_group_commits: c.group_commits.load(Ordering::Relaxed),
            binlog_group_commit_trigger_count: c.trigger_count.load(Ordering::Relaxed),
            binlog_group_commit_trigger_timeout: c.trigger_timeout.load(Ordering::Relaxed),
            binlog_bytes_written: c.bytes_written.load(Ordering::Relaxed),
            binlog_syncs: c.syncs.load(Ordering::Relaxed),
            binlog_checkpoint_syncs: c.checkpoint_syncs.load(Ordering::Relaxed),
            binlog_sync_time_us: c.sync_time_us.load(Ordering::Relaxed),
            current_file: p.current_file.clone(),
            current_pos: p.current,
            synced_pos: p.synced,
            last_committed_gtid: p.last_committed,
            poisoned: self.shared.is_poisoned(),
        }
    }

    /// Makes everything written so far durable regardless of
    /// `sync_binlog`; returns the synced position.
    pub fn sync_written(&self) -> Result<BinlogPos, BinlogError> {
        self.shared.sync_written()
    }

    pub fn is_poisoned(&self) -> bool {
        self.shared.is_poisoned()
    }

    /// Refuses every further commit until restart, for a failure outside
    /// the binlog after which new commits could no longer be persisted
    /// (storage failed to checkpoint). Acknowledged commits stay
    /// committed: they are in the binlog, and recovery replays them.
    pub fn refuse_commits(&self, reason: String) {
        self.shared.poison(reason);
    }

    /// `gtid_binlog_state`: the last GTID written per domain.
    pub fn gtid_binlog_state(&self) -> Vec<Gtid> {
        self.shared.writer.lock().gtid_state.values().copied().collect()
    }

    /// Why the binlog is poisoned (empty if it is not).
    pub fn poison_reason(&self) -> String {
        self.shared.poison_reason.lock().clone()
    }

    pub fn set_sync_binlog(&self, n: u32) {
        self.shared.live.sync_binlog.store(n, Ordering::Relaxed);
    }
    /// Fdatasync/Fsync apply to the next sync; O_DSYNC to the next file.
    pub fn set_sync_method(&self, m: SyncMethod) {
        self.shared.live.sync_method.store(m.as_u8(), Ordering::Relaxed);
    }
    pub fn set_group_commit_sync_delay_us(&self, us: u64) {
        self.shared.live.sync_delay_us.store(us, Ordering::Relaxed);
    }
    pub fn set_group_commit_sync_no_delay_count(&self, n: u32) {
        self.shared.live.no_delay_count.store(n, Ordering::Relaxed);
    }
    pub fn set_max_binlog_size_bytes(&self, n: u64) {
        assert!(n <= u32::MAX as u64 / 2, "max_binlog_size too large");
        self.shared.live.max_binlog_size_bytes.store(n, Ordering::Relaxed);
    }
    /// Applies from the next preallocated file.
    pub fn set_preallocate_size_bytes(&self, n: u64) {
        self.shared.live.preallocate_size_bytes.store(n, Ordering::Relaxed);
    }
    pub fn set_commit_queue_capacity(&self, n: usize) {
        self.shared.live.queue_capacity.store(n.max(1), Ordering::Relaxed);
        self.shared.space_cv.notify_all();
    }

    // ------------------------------------------------------------- admin

    /// SHOW BINARY LOGS.
    pub fn list_files(&self) -> Result<Vec<BinlogFileInfo>, BinlogError> {
        self.shared.writer.lock().files.list()
    }

    /// SHOW MASTER STATUS: current file name and write position.
    pub fn master_status(&self) -> (String, BinlogPos) {
        let w = self.shared.writer.lock();
        (w.files.current_name().to_string(), w.files.position())
    }

    /// FLUSH BINARY LOGS.
    pub fn rotate(&self) -> Result<(), BinlogError> {
        let s = &self.shared;
        if s.is_poisoned() {
            return Err(s.poison_error());
        }
        let mut w = s.writer.lock();
        let state: Vec<Gtid> = w.gtid_state.values().copied().collect();
        let r = w.files.rotate(&state, s.rotate_params());
        if let Err(e) = &r {
            s.poison(format!("rotation failed: {e}"));
        }
        s.publish_position(&w);
        r
    }

    /// PURGE BINARY LOGS TO `name`. `keep_from` = min(storage durable_pos,
    /// every replica's position): no file at or after it is removed.
    pub fn purge_to(&self, name: &str, keep_from: BinlogPos) -> Result<Vec<String>, BinlogError> {
        self.shared.writer.lock().files.purge_to(name, keep_from)
    }

    /// PURGE BINARY LOGS BEFORE (and binlog_expire_logs_seconds).
    pub fn purge_before(&self, before_unix_s: u64, keep_from: BinlogPos) -> Result<Vec<String>, BinlogError> {
        self.shared.writer.lock().files.purge_before(before_unix_s, keep_from)
    }

    /// `binlog_expire_logs_seconds`: removes, oldest first, the files last
    /// modified more than `expire_after_s` seconds ago, stopping at the
    /// first younger one and never removing the current file or one at or
    /// after `keep_from` (as [`Self::purge_before`]). `0` disables expiry.
    /// Returns the removed names.
    pub fn expire_logs(&self, expire_after_s: u64, keep_from: BinlogPos) -> Result<Vec<String>, BinlogError> {
        if expire_after_s == 0 {
            return Ok(Vec::new());
        }
        let now_s = u64::from(now_unix_s());
        if now_s == 0 {
            // A clock before 1970 would expire everything.
            return Ok(Vec::new());
        }
        self.purge_before(now_s.saturating_sub(expire_after_s), keep_from)
    }

    /// RESET MASTER: deletes every file, starts at `.000001`, and restarts
    /// GTID numbering at 1 with an empty state. Only under a
    /// [`CommitPause`] (MariaDB takes the same global lock), which the
    /// caller holds so that it can span its own steps around the reset.
    pub fn reset_master(&self, _drained: &CommitPause<'_, T>) -> Result<(), BinlogError> {
        let s = &self.shared;
        assert_eq!(s.in_flight.load(Ordering::SeqCst), 0, "a commit in flight during RESET MASTER");
        if s.is_poisoned() {
            return Err(s.poison_error());
        }
        let mut w = s.writer.lock();
        w.gtid_state.clear();
        w.next_seq = 1;
        let r = w.files.reset(&[], s.rotate_params());
        if let Err(e) = &r {
            s.poison(format!("RESET MASTER failed: {e}"));
        }
        s.publish_position(&w);
        let mut p = s.pos.lock();
        p.synced = w.files.position();
        p.published = w.files.position();
        p.current_header_end = p.published.offset;
        p.last_committed = None;
        s.replica_cv.notify_all();
        r
    }

    /// Holds every new commit back and waits until each one already admitted
    /// is settled (acknowledged or failed): applied to storage, published,
    /// and in the binlog. Commits resume when the pause is dropped; one
    /// pause at a time (a second waits for the first).
    ///
    /// RESET MASTER needs this: a group written into a file the reset
    /// deletes, or applied to storage after the reset persisted its new
    /// start position, would be acknowledged and then missing from both
    /// the binlog and storage after a crash.
    pub fn pause_commits(&self) -> CommitPause<'_, T> {
        let s = &self.shared;
        {
            let mut q = s.queue.lock();
            while q.paused && !q.shutdown {
                s.space_cv.wait(&mut q);
            }
            q.paused = true;
        }
        // `in_flight` is a bare counter on the hot path, with no condition
        // variable to wait on; a pause is rare (an administrative
        // statement), so polling it costs nothing that matters. Every
        // admitted commit settles (the pipeline answers each one, failing
        // it if poisoned), so this ends.
        while s.in_flight.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(Duration::from_micros(PAUSE_POLL_US));
        }
        CommitPause { shared: s }
    }

    /// Clean shutdown: commits everything already queued, stops the stages,
    /// then writes STOP, trims and syncs the current file. Idempotent.
    pub fn close(&self) -> Result<(), BinlogError> {
        let s = &self.shared;
        let threads: Vec<JoinHandle<()>> = std::mem::take(&mut *self.threads.lock());
        if threads.is_empty() {
            return Ok(());
        }
        {
            let mut q = s.queue.lock();
            q.shutdown = true;
            s.queue_cv.notify_all();
            s.space_cv.notify_all();
        }
        for t in threads {
            if t.join().is_err() {
                tracing::error!("binlog: a pipeline thread panicked");
            }
        }
        let mut w = s.writer.lock();
        if s.is_poisoned() {
            // Nothing more may reach the file; recovery sorts out the tail.
            w.files.abandon();
            return Err(s.poison_error());
        }
        w.files.close()
    }
}

impl<T: Send + 'static> Drop for Binlog<T> {
    fn drop(&mut self) {
        if let Err(e) = self.close() {
            tracing::warn!(error = %e, "binlog: close on drop failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    struct Nop;
    impl GroupSink<u64> for Nop {
        fn apply_group(&self, _g: &mut [(u64, CommitInfo)]) -> Result<Publish, String> {
            Ok(Box::new(|| {}))
        }
    }

    fn age(path: &std::path::Path, secs: u64) {
        let f = std::fs::File::options().write(true).open(path).expect("open");
        f.set_modified(SystemTime::now() - Duration::from_secs(secs)).expect("set mtime");
    }

    #[test]
    fn expire_logs_removes_old_files_but_never_what_storage_needs() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut c = BinlogConfig::new(d.path());
        c.preallocate_size_bytes = 0;
        let s = crate::recovery::scan(d.path(), &c.basename, None).expect("scan");
        let b: Binlog<u64> = Binlog::open(c, Arc::new(Nop), &s).expect("open");
        for _ in 0..4 {
            b.rotate().expect("rotate");
        }
        // Files 1..=5, 5 current. 1..=3 are a day old, 4 is fresh.
        for seq in 1..=3 {
            age(&d.path().join(format!("onelog-bin.00000{seq}")), 86_400);
        }
        let names = |b: &Binlog<u64>| b.list_files().expect("list").into_iter().map(|f| f.seq).collect::<Vec<_>>();
        // Disabled.
        assert!(b.expire_logs(0, BinlogPos { file_seq: 9, offset: 4 }).expect("expire").is_empty());
        // Storage still needs file 2: only file 1 goes.
        let removed = b.expire_logs(3600, BinlogPos { file_seq: 2, offset: 4 }).expect("expire");
        assert_eq!(removed, vec!["onelog-bin.000001".to_string()]);
        assert_eq!(names(&b), vec![2, 3, 4, 5]);
        // Storage is past everything: the old files go, the young one stays.
        let removed = b.expire_logs(3600, BinlogPos { file_seq: 5, offset: 4 }).expect("expire");
        assert_eq!(removed, vec!["onelog-bin.000002".to_string(), "onelog-bin.000003".to_string()]);
        assert_eq!(names(&b), vec![4, 5]);
        assert!(!d.path().join("onelog-bin.000003").exists());
        // The current file is never removed, however old.
        age(&d.path().join("onelog-bin.000004"), 86_400);
        age(&d.path().join("onelog-bin.000005"), 86_400);
        let removed = b.expire_logs(1, BinlogPos { file_seq: 99, offset: 0 }).expect("expire");
        assert_eq!(removed, vec!["onelog-bin.000004".to_string()]);
        assert_eq!(names(&b), vec![5]);
        b.close().expect("close");
        let index = std::fs::read_to_string(d.path().join("onelog-bin.index")).expect("index");
        assert_eq!(index, "./onelog-bin.000005\n");
    }
}
