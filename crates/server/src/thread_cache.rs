//! MariaDB's thread cache for one-thread-per-connection
//! (`thread_cache_size`): a connection thread whose client left waits for
//! the next connection instead of exiting, so that clients which connect
//! and disconnect often do not pay a thread's creation and exit each time.
//! As in MariaDB, an idle cached thread exits after five minutes, and at
//! most `thread_cache_size` wait (a smaller SET GLOBAL takes effect as they
//! wake). `Threads_cached` / `Threads_created` in SHOW GLOBAL STATUS.

use onelog_sql::Engine;
use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a cached thread waits for a connection before it exits.
const IDLE_LIMIT: Duration = Duration::from_secs(300);
/// How often a waiting thread looks at `thread_cache_size` again.
const SIZE_RECHECK: Duration = Duration::from_secs(5);
/// Each connection thread's stack.
const STACK_BYTES: usize = 1 << 20;

/// A connection to serve, on whichever thread takes it.
pub type Job = Box<dyn FnOnce() + Send>;

pub struct ThreadCache {
    engine: Arc<Engine>,
    state: Mutex<State>,
    job_ready: Condvar,
}

#[derive(Default)]
struct State {
    /// Threads waiting for a job.
    idle: usize,
    /// Jobs handed over, each promised to one of the idle threads: never
    /// more than `idle`.
    jobs: VecDeque<Job>,
}

impl ThreadCache {
    pub fn new(engine: Arc<Engine>) -> Arc<ThreadCache> {
        Arc::new(ThreadCache { engine, state: Mutex::new(State::default()), job_ready: Condvar::new() })
    }

    /// Runs `job` on a cached thread if one is idle, else on a new one.
    pub fn run(self: &Arc<Self>, job: Job) -> std::io::Result<()> {
        {
            let mut state = self.state.lock();
            if state.idle > state.jobs.len() {
                state.jobs.push_back(job);
                self.job_ready.notify_one();
                return Ok(());
            }
        }
        let cache = self.clone();
        std::thread::Builder::new().name("conn".into()).stack_size(STACK_BYTES).spawn(move || cache.serve(job))?;
        self.engine.connections.threads_created.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn serve(&self, first: Job) {
        let mut job = Some(first);
        while let Some(next) = job.take() {
            next();
            job = self.wait_for_job();
        }
    }

    /// The next job, or `None` when this thread should exit: the cache is
    /// full, or nothing came within the idle limit.
    fn wait_for_job(&self) -> Option<Job> {
        let mut state = self.state.lock();
        if state.idle >= self.cache_size() {
            return None;
        }
        self.add_idle(&mut state, 1);
        let give_up = Instant::now() + IDLE_LIMIT;
        loop {
            // Taken before any exit: a job handed over while this thread
            // counted as idle is this thread's to run.
            if let Some(job) = state.jobs.pop_front() {
                self.add_idle(&mut state, -1);
                return Some(job);
            }
            let now = Instant::now();
            if now >= give_up || state.idle > self.cache_size() {
                self.add_idle(&mut state, -1);
                return None;
            }
            self.job_ready.wait_for(&mut state, SIZE_RECHECK.min(give_up - now));
        }
    }

    fn add_idle(&self, state: &mut State, delta: isize) {
        state.idle = state.idle.checked_add_signed(delta).expect("idle threads counted in and out once");
        self.engine.connections.threads_cached.store(state.idle as u64, Ordering::Relaxed);
    }

    fn cache_size(&self) -> usize {
        usize::try_from(self.engine.vars.int("thread_cache_size")).unwrap_or(0)
    }
}
