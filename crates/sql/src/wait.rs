//! Blocking waits, announced to whoever runs the statement.
//!
//! The server's thread pool (`thread_handling=pool-of-threads`) runs many
//! connections' statements on a few worker threads. A worker that blocks
//! on a row lock, a metadata lock, `SLEEP()` or the commit pipeline must
//! let another worker run — the statement that would release the lock may
//! be queued behind it. MariaDB's pool learns of such waits through the
//! `thd_wait_begin` / `thd_wait_end` callbacks; these are OneLog's: the
//! code that blocks holds a [`Waiting`] for the length of the wait, and the
//! pool's observer installed on the worker thread ([`observe_waits`]) hears
//! of its beginning and end. On a thread without an observer (one thread
//! per connection, the engine's own threads) a wait costs one
//! thread-local read.

use parking_lot::RwLock;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Why a thread blocks: MariaDB's `thd_wait_type`, in the order and with
/// the names `information_schema.THREAD_POOL_WAITS` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitReason {
    Unknown,
    Sleep,
    DiskIo,
    RowLock,
    GlobalLock,
    MetaDataLock,
    TableLock,
    UserLock,
    Binlog,
    GroupCommit,
    Sync,
    Net,
}

impl WaitReason {
    pub const ALL: [WaitReason; 12] = [
        WaitReason::Unknown,
        WaitReason::Sleep,
        WaitReason::DiskIo,
        WaitReason::RowLock,
        WaitReason::GlobalLock,
        WaitReason::MetaDataLock,
        WaitReason::TableLock,
        WaitReason::UserLock,
        WaitReason::Binlog,
        WaitReason::GroupCommit,
        WaitReason::Sync,
        WaitReason::Net,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WaitReason::Unknown => "UNKNOWN",
            WaitReason::Sleep => "SLEEP",
            WaitReason::DiskIo => "DISKIO",
            WaitReason::RowLock => "ROW_LOCK",
            WaitReason::GlobalLock => "GLOBAL_LOCK",
            WaitReason::MetaDataLock => "META_DATA_LOCK",
            WaitReason::TableLock => "TABLE_LOCK",
            WaitReason::UserLock => "USER_LOCK",
            WaitReason::Binlog => "BINLOG",
            WaitReason::GroupCommit => "GROUP_COMMIT",
            WaitReason::Sync => "SYNC",
            WaitReason::Net => "NET",
        }
    }
}

/// Told when the thread it is installed on starts and ends a blocking wait.
pub trait WaitObserver: Send + Sync {
    fn wait_begin(&self, reason: WaitReason);
    fn wait_end(&self);
}

thread_local! {
    static OBSERVER: RefCell<Option<Arc<dyn WaitObserver>>> = const { RefCell::new(None) };
    /// Waits in progress on this thread: only the outermost is announced.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Installs (or with `None` removes) the current thread's observer.
pub fn observe_waits(observer: Option<Arc<dyn WaitObserver>>) {
    OBSERVER.with(|o| *o.borrow_mut() = observer);
}

/// A blocking wait in progress on this thread; dropping it ends the wait.
#[must_use = "the wait ends when this is dropped"]
pub struct Waiting {
    /// The observer told of the beginning (the outermost wait only).
    announced: Option<Arc<dyn WaitObserver>>,
}

/// Starts a blocking wait: call right before blocking, keep the result
/// until the wait is over.
pub fn begin(reason: WaitReason) -> Waiting {
    let outermost = DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get() == 1
    });
    let announced = if outermost { OBSERVER.with(|o| o.borrow().clone()) } else { None };
    if let Some(o) = &announced {
        o.wait_begin(reason);
    }
    Waiting { announced }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        if let Some(o) = &self.announced {
            o.wait_end();
        }
    }
}

/// The thread pool's counters for `SHOW STATUS LIKE 'Threadpool%'`
/// (zero with one thread per connection, as in MariaDB). Process-wide,
/// as the pool is.
pub struct PoolCounters {
    /// Worker threads (MariaDB's `Threadpool_threads`).
    pub threads: AtomicU64,
    /// Workers waiting for work (MariaDB's `Threadpool_idle_threads`).
    pub idle_threads: AtomicU64,
}

pub static POOL_COUNTERS: PoolCounters = PoolCounters { threads: AtomicU64::new(0), idle_threads: AtomicU64::new(0) };

impl PoolCounters {
    /// (threads, idle threads) now.
    pub fn snapshot(&self) -> (u64, u64) {
        (self.threads.load(Ordering::Relaxed), self.idle_threads.load(Ordering::Relaxed))
    }
}

/// One group of the pool as `information_schema.THREAD_POOL_GROUPS` shows it.
#[derive(Debug, Clone, Default)]
pub struct PoolGroupRow {
    pub connections: u64,
    pub threads: u64,
    /// Running a command and not in a blocking wait.
    pub active_threads: u64,
    /// Waiting for work.
    pub standby_threads: u64,
    pub queue_length: u64,
    pub has_listener: bool,
    pub is_stalled: bool,
}

/// A queued connection, as `information_schema.THREAD_POOL_QUEUES` shows it.
#[derive(Debug, Clone)]
pub struct PoolQueueRow {
    pub group_id: u64,
    /// Place in its group's queue, high priority first, from 0.
    pub position: u64,
    /// 0: the high-priority queue (a transaction in progress), 1: the other.
    pub priority: u64,
    /// 0 for a new connection not yet logged in.
    pub connection_id: u64,
    pub queueing_time_us: u64,
}

/// A group's counters since start, as `information_schema.THREAD_POOL_STATS` shows them.
#[derive(Debug, Clone, Default)]
pub struct PoolStatsRow {
    pub thread_creations: u64,
    pub thread_creations_due_to_stall: u64,
    pub wakes: u64,
    pub wakes_due_to_stall: u64,
    pub throttles: u64,
    pub stalls: u64,
    pub polls_by_listener: u64,
    pub polls_by_worker: u64,
    pub dequeues_by_listener: u64,
    pub dequeues_by_worker: u64,
}

/// The running thread pool, for `information_schema.THREAD_POOL_*`.
pub trait PoolIntrospection: Send + Sync {
    /// Each group's state and counters, by group id.
    fn groups(&self) -> Vec<(PoolGroupRow, PoolStatsRow)>;
    fn queues(&self) -> Vec<PoolQueueRow>;
}

/// The pool of this process, if one runs (process-wide, as
/// [`POOL_COUNTERS`]); with one thread per connection the tables are empty,
/// as in MariaDB.
static POOL: RwLock<Option<Arc<dyn PoolIntrospection>>> = parking_lot::const_rwlock(None);

/// Blocking waits of pool workers by reason ([`WaitReason::ALL`] order).
static POOL_WAITS: [AtomicU64; 12] = [const { AtomicU64::new(0) }; 12];

/// The pool announces itself when it starts (`None` when it stops).
pub fn publish_pool(pool: Option<Arc<dyn PoolIntrospection>>) {
    *POOL.write() = pool;
}

pub fn pool() -> Option<Arc<dyn PoolIntrospection>> {
    POOL.read().clone()
}

/// Counts a pool worker's wait for THREAD_POOL_WAITS.
pub fn count_pool_wait(reason: WaitReason) {
    let index = WaitReason::ALL.iter().position(|r| *r == reason).unwrap_or(0);
    POOL_WAITS[index].fetch_add(1, Ordering::Relaxed);
}

/// (reason, waits) in MariaDB's order; empty without a pool.
pub fn pool_waits() -> Vec<(&'static str, u64)> {
    if pool().is_none() {
        return Vec::new();
    }
    WaitReason::ALL.iter().zip(&POOL_WAITS).map(|(r, n)| (r.name(), n.load(Ordering::Relaxed))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    #[derive(Default)]
    struct Count(AtomicI64, AtomicI64);

    impl WaitObserver for Count {
        fn wait_begin(&self, _reason: WaitReason) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
        fn wait_end(&self) {
            self.1.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn only_the_outermost_wait_is_announced() {
        let count = Arc::new(Count::default());
        observe_waits(Some(count.clone()));
        {
            let _outer = begin(WaitReason::RowLock);
            let _inner = begin(WaitReason::GroupCommit);
            assert_eq!(count.0.load(Ordering::SeqCst), 1);
            assert_eq!(count.1.load(Ordering::SeqCst), 0);
        }
        assert_eq!(count.1.load(Ordering::SeqCst), 1);
        observe_waits(None);
        drop(begin(WaitReason::Sleep));
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
    }
}
