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

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Told when the thread it is installed on starts and ends a blocking wait.
pub trait WaitObserver: Send + Sync {
    fn wait_begin(&self);
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
pub fn begin() -> Waiting {
    let outermost = DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get() == 1
    });
    let announced = if outermost { OBSERVER.with(|o| o.borrow().clone()) } else { None };
    if let Some(o) = &announced {
        o.wait_begin();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    #[derive(Default)]
    struct Count(AtomicI64, AtomicI64);

    impl WaitObserver for Count {
        fn wait_begin(&self) {
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
            let _outer = begin();
            let _inner = begin();
            assert_eq!(count.0.load(Ordering::SeqCst), 1);
            assert_eq!(count.1.load(Ordering::SeqCst), 0);
        }
        assert_eq!(count.1.load(Ordering::SeqCst), 1);
        observe_waits(None);
        drop(begin());
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
    }
}
