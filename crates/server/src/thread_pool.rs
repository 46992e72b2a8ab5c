//! The thread pool (`thread_handling=pool-of-threads`), after MariaDB's.
//!
//! With one thread per connection, 1,024 connections are 1,024 runnable
//! threads on a few cores, and the cost of a statement becomes scheduling.
//! Here an idle connection costs its socket and session, not a thread:
//!
//! - **Parked** between commands, a connection's socket waits in its
//!   **group**'s epoll instance (armed `EPOLLONESHOT`; one group of
//!   `thread_pool_size`), its `Conn` in [`Inner::parked`].
//! - One worker of a group with nothing to run is its **listener**: it
//!   waits in epoll, takes the connections whose sockets became readable
//!   (a command, end of input, or KILL / shutdown closing it) out of
//!   `parked` and queues them, in the high-priority queue if
//!   `thread_pool_priority` says so (`auto`: inside a transaction, which
//!   holds locks others wait for), then runs the first itself — at low
//!   load a command is run by the thread that saw it arrive, as in MariaDB.
//! - A group's **workers** run queued connections, a whole command each
//!   (its reads, the statement, its answer), then park the connection
//!   again. At most `1 + thread_pool_oversubscribe` of a group's workers
//!   are *active* (running, not in a blocking wait) unless the group is
//!   stalled; others wait idle and end after `thread_pool_idle_timeout`.
//! - **Admission control** (`thread_pool_max_lock_waiters`, OneLog's own):
//!   once that many of a group's workers wait for row locks, commands that
//!   would start a new transaction stay queued; commands of open
//!   transactions still run, since they release the locks. Under overload
//!   on hot rows (1,024 clients on a few rows) this keeps the lock queues
//!   short: the waiting is done in the group's queue, at the cost of a
//!   queue entry, instead of by a worker thread per waiter. A stalled group
//!   admits anyway, so nothing waits on admission for longer than the
//!   stall limit without progress.
//! - Blocking waits (row and metadata locks, `SLEEP()`, the commit
//!   pipeline, a binlog dump) are announced through
//!   [`onelog_sql::wait`]: a worker that blocks stops counting as active,
//!   and if its group then has no active worker but queued work or no
//!   listener, another worker is woken or created at once — so the
//!   statement that would release a lock is never stuck behind its
//!   waiters. (Each blocked waiter holds a worker, so with many lock
//!   waiters MariaDB's pool grows toward `thread_pool_max_threads`; here
//!   admission control bounds the row-lock waiters per group.)
//! - The **timer** thread looks at each group every
//!   `thread_pool_stall_limit` ms: a group with queued work that dequeued
//!   nothing since the last look is stalled (a long statement, a client
//!   that does not read), and gets another worker; so does a group without
//!   a listener that has not looked at its epoll since. The timer also closes
//!   parked connections idle for longer than their `wait_timeout`.
//!
//! Invariants: a connection is in exactly one place — parked and armed,
//! queued once in one group, or owned by the one worker running its
//! command — so its commands run one at a time and the queues hold at most
//! one entry per connection; the workers of all groups together never
//! exceed `thread_pool_max_threads`.
//!
//! `information_schema.THREAD_POOL_GROUPS / QUEUES / STATS / WAITS` read
//! the groups through [`onelog_sql::wait::PoolIntrospection`]. Workers never
//! poll epoll themselves (only listeners do) and thread creation is never
//! throttled, so POLLS_BY_WORKER and THROTTLES stay 0.
//!
//! Not done (MariaDB has them): `thread_pool_prio_kickup_timer`,
//! `thread_pool_dedicated_listener`, throttled thread creation, resizing
//! with SET GLOBAL thread_pool_size, `extra_port`.

use crate::connection::{Conn, Flow, PooledSocket, Shared};
use crate::limits::Client;
use onelog_sql::wait::{
    PoolGroupRow, PoolIntrospection, PoolQueueRow, PoolStatsRow, WaitObserver, WaitReason, POOL_COUNTERS,
};
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::collections::{HashMap, VecDeque};
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a listener looks up from epoll to notice shutdown.
const POLL_TIMEOUT_MS: i32 = 200;
/// Readiness events taken from epoll at once.
const POLL_BATCH: usize = 256;

/// The pool; dropping it does not stop it, [`ThreadPool::shutdown`] does.
pub struct ThreadPool {
    inner: Arc<Inner>,
}

struct Inner {
    shared: Arc<Shared>,
    groups: Vec<Group>,
    /// Connections waiting for their next command, by key.
    parked: Mutex<HashMap<u64, Parked>>,
    next_key: AtomicU64,
    settings: Settings,
    /// Workers of all groups.
    threads: AtomicUsize,
    shutting_down: AtomicBool,
}

/// The pool's variables, read from the global values by the timer each
/// tick (SET GLOBAL takes effect within `thread_pool_stall_limit`).
struct Settings {
    stall_limit_ms: AtomicU64,
    oversubscribe: AtomicUsize,
    idle_timeout_s: AtomicU64,
    max_threads: AtomicUsize,
    /// `thread_pool_max_lock_waiters` (0: no admission control).
    max_lock_waiters: AtomicUsize,
}

struct Group {
    /// The group's parked connections' sockets.
    epoll: Epoll,
    state: Mutex<GroupState>,
    /// Idle workers wait here for queued work.
    work: Condvar,
}

#[derive(Default)]
struct GroupState {
    high: VecDeque<Queued>,
    low: VecDeque<Queued>,
    /// Connections of this group: parked, queued or running a command.
    connections: usize,
    /// Workers of this group.
    threads: usize,
    /// Workers running a task and not in a blocking wait.
    active: usize,
    /// Workers waiting for work.
    idle: usize,
    /// Workers in a row-lock wait: past the admission limit, commands
    /// that would start a transaction stay queued.
    row_lock_waiters: usize,
    /// A worker waits in the group's epoll.
    listening: bool,
    /// Turns of a listener, ever: the timer's measure of someone watching
    /// the sockets.
    polls: u64,
    /// `polls` at the timer's last look.
    polls_at_last_tick: u64,
    /// Tasks taken from the queues, ever: the timer's measure of progress.
    dequeued: u64,
    /// `dequeued` at the timer's last look.
    dequeued_at_last_tick: u64,
    /// The timer found queued work and no progress: the limit on active
    /// workers is lifted until a worker takes a task.
    stalled: bool,
    /// THREAD_POOL_STATS counters (`polls` is POLLS_BY_LISTENER).
    stats: PoolStatsRow,
}

impl GroupState {
    fn has_queued(&self) -> bool {
        !self.high.is_empty() || !self.low.is_empty()
    }

    /// Admission control: with this many workers of the group in row-lock
    /// waits, a command that would start a transaction stays queued, unless
    /// the group is stalled. Commands of open transactions always run: they
    /// are what releases the locks (a row lock is only ever held by an open
    /// transaction or one in the commit pipeline, which needs no worker).
    fn admission_closed(&self, lock_waiters_limit: usize) -> bool {
        lock_waiters_limit > 0 && self.row_lock_waiters >= lock_waiters_limit && !self.stalled
    }

    /// Some queued task may run now (admission control aside from the
    /// limit on active workers).
    fn has_runnable(&self, lock_waiters_limit: usize) -> bool {
        !self.high.is_empty()
            || self.low.front().is_some_and(|q| !q.starts_transaction || !self.admission_closed(lock_waiters_limit))
    }

    fn push(&mut self, task: Task, high_priority: bool) {
        let starts_transaction = match &task {
            Task::Command(pooled) => !pooled.conn.has_transaction(),
            Task::Connect { .. } => false,
        };
        let queued = Queued { task, since: Instant::now(), starts_transaction };
        if high_priority {
            self.high.push_back(queued);
        } else {
            self.low.push_back(queued);
        }
    }

    fn row(&self) -> (PoolGroupRow, PoolStatsRow) {
        let group = PoolGroupRow {
            connections: self.connections as u64,
            threads: self.threads as u64,
            active_threads: self.active as u64,
            standby_threads: self.idle as u64,
            queue_length: (self.high.len() + self.low.len()) as u64,
            has_listener: self.listening,
            is_stalled: self.stalled,
        };
        (group, PoolStatsRow { polls_by_listener: self.polls, ..self.stats.clone() })
    }
}

impl PoolIntrospection for Inner {
    fn groups(&self) -> Vec<(PoolGroupRow, PoolStatsRow)> {
        self.groups.iter().map(|g| g.state.lock().row()).collect()
    }

    fn queues(&self) -> Vec<PoolQueueRow> {
        let now = Instant::now();
        let mut rows = Vec::new();
        for (group_id, g) in self.groups.iter().enumerate() {
            let st = g.state.lock();
            let queued = st.high.iter().map(|q| (0, q)).chain(st.low.iter().map(|q| (1, q)));
            for (position, (priority, q)) in queued.enumerate() {
                rows.push(PoolQueueRow {
                    group_id: group_id as u64,
                    position: position as u64,
                    priority,
                    connection_id: match &q.task {
                        Task::Command(pooled) => pooled.conn.connection_id(),
                        Task::Connect { .. } => 0,
                    },
                    queueing_time_us: now.saturating_duration_since(q.since).as_micros() as u64,
                });
            }
        }
        rows
    }
}

/// A task in a group's queue, since when (THREAD_POOL_QUEUES).
struct Queued {
    task: Task,
    since: Instant,
    /// A command of a connection with no transaction open: it may start
    /// one, so admission control may hold it back.
    starts_transaction: bool,
}

/// Work for a group.
enum Task {
    /// A new connection: handshake and authentication.
    Connect { socket: PooledSocket, duplicate: Arc<OwnedFd>, client: Client, alive: Arc<()>, key: u64, group: usize },
    /// A parked connection became readable: run its command.
    Command(Box<Pooled>),
}

/// A connection served by the pool.
struct Pooled {
    conn: Conn<PooledSocket>,
    key: u64,
    group: usize,
    /// Added to the epoll set once; re-armed after each command.
    registered: bool,
    /// Ends the connection for the client when dropped.
    _closer: Closer,
}

struct Parked {
    pooled: Box<Pooled>,
    /// When `wait_timeout` closes it.
    idle_until: Instant,
}

/// The server's duplicate descriptor of a connection's socket and its
/// liveness token: dropping it shuts the socket down (the duplicate, held
/// by the commit pipeline and KILL, outlives the connection) and tells the
/// server's registry the connection is gone.
struct Closer {
    duplicate: Arc<OwnedFd>,
    _alive: Arc<()>,
}

impl Drop for Closer {
    fn drop(&mut self) {
        // Fails only for a socket the client already closed.
        let _ = socket2::SockRef::from(&*self.duplicate).shutdown(std::net::Shutdown::Both);
    }
}

impl ThreadPool {
    /// Starts the timer thread; workers start on demand.
    pub fn start(shared: Arc<Shared>) -> io::Result<ThreadPool> {
        let vars = &shared.engine.vars;
        let group_count = vars.int("thread_pool_size").max(1) as usize;
        let groups = (0..group_count)
            .map(|_| Ok(Group { epoll: Epoll::new()?, state: Mutex::default(), work: Condvar::new() }))
            .collect::<io::Result<Vec<Group>>>()?;
        let inner = Arc::new(Inner {
            groups,
            parked: Mutex::default(),
            next_key: AtomicU64::new(1),
            settings: Settings {
                stall_limit_ms: AtomicU64::new(0),
                oversubscribe: AtomicUsize::new(0),
                idle_timeout_s: AtomicU64::new(0),
                max_threads: AtomicUsize::new(0),
                max_lock_waiters: AtomicUsize::new(0),
            },
            threads: AtomicUsize::new(0),
            shutting_down: AtomicBool::new(false),
            shared,
        });
        inner.read_settings();
        let timer = inner.clone();
        std::thread::Builder::new().name("pool-timer".into()).spawn(move || timer.timer_loop())?;
        onelog_sql::wait::publish_pool(Some(inner.clone()));
        Ok(ThreadPool { inner })
    }

    /// Takes a new connection: its handshake runs on a worker.
    pub fn accept(&self, socket: PooledSocket, duplicate: Arc<OwnedFd>, client: Client, alive: Arc<()>) {
        let key = self.inner.next_key.fetch_add(1, Ordering::Relaxed);
        let group = (key % self.inner.groups.len() as u64) as usize;
        self.inner.groups[group].state.lock().connections += 1;
        self.inner.enqueue(group, Task::Connect { socket, duplicate, client, alive, key, group }, false);
    }

    /// Stops the timer, the listeners and idle workers; workers running a
    /// command finish it first. Connections still parked are closed.
    pub fn shutdown(&self) {
        self.inner.shutting_down.store(true, Ordering::SeqCst);
        onelog_sql::wait::publish_pool(None);
        for g in &self.inner.groups {
            let _st = g.state.lock();
            g.work.notify_all();
        }
        let parked: Vec<Parked> = self.inner.parked.lock().drain().map(|(_, p)| p).collect();
        for p in parked {
            self.inner.close(p.pooled);
        }
    }
}

impl Inner {
    fn read_settings(&self) {
        let vars = &self.shared.engine.vars;
        let s = &self.settings;
        s.stall_limit_ms.store(vars.int("thread_pool_stall_limit").max(1), Ordering::Relaxed);
        s.oversubscribe.store(vars.int("thread_pool_oversubscribe") as usize, Ordering::Relaxed);
        s.idle_timeout_s.store(vars.int("thread_pool_idle_timeout").max(1), Ordering::Relaxed);
        s.max_threads.store(vars.int("thread_pool_max_threads").max(1) as usize, Ordering::Relaxed);
        s.max_lock_waiters.store(vars.int("thread_pool_max_lock_waiters") as usize, Ordering::Relaxed);
    }

    fn max_lock_waiters(&self) -> usize {
        self.settings.max_lock_waiters.load(Ordering::Relaxed)
    }

    fn shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Relaxed)
    }

    fn enqueue(self: &Arc<Self>, group: usize, task: Task, high_priority: bool) {
        let mut st = self.groups[group].state.lock();
        st.push(task, high_priority);
        if st.has_runnable(self.max_lock_waiters()) {
            self.wake_or_create(group, &mut st);
        }
    }

    /// Gets queued work going: an idle worker if there is one, else a new
    /// worker when none is active (all blocked) or the group stalled.
    fn wake_or_create(self: &Arc<Self>, group: usize, st: &mut GroupState) {
        if st.idle > 0 {
            self.groups[group].work.notify_one();
            st.stats.wakes += 1;
            st.stats.wakes_due_to_stall += u64::from(st.stalled);
        } else if st.active == 0 || st.stalled {
            self.create_worker(group, st);
        }
    }

    fn create_worker(self: &Arc<Self>, group: usize, st: &mut GroupState) {
        if self.threads.load(Ordering::Relaxed) >= self.settings.max_threads.load(Ordering::Relaxed) {
            return; // the timer tries again when a worker has ended
        }
        let pool = self.clone();
        let spawned = std::thread::Builder::new()
            .name("pool-worker".into())
            .stack_size(1 << 20)
            .spawn(move || pool.worker(group));
        match spawned {
            Ok(_) => {
                st.threads += 1;
                st.stats.thread_creations += 1;
                st.stats.thread_creations_due_to_stall += u64::from(st.stalled);
                self.threads.fetch_add(1, Ordering::Relaxed);
                POOL_COUNTERS.threads.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => tracing::warn!("thread pool: cannot start a worker: {e}"),
        }
    }

    fn worker(self: Arc<Self>, group: usize) {
        onelog_sql::wait::observe_waits(Some(Arc::new(GroupWaits {
            pool: self.clone(),
            group,
            in_row_lock_wait: AtomicBool::new(false),
        })));
        let g = &self.groups[group];
        let mut events = vec![libc::epoll_event { events: 0, u64: 0 }; POLL_BATCH];
        let mut st = g.state.lock();
        // This worker's last turn was as the listener: what it takes next,
        // it found itself (DEQUEUES_BY_LISTENER).
        let mut listened = false;
        loop {
            if let Some(task) = self.next_task(group, &mut st, listened) {
                listened = false;
                st.active += 1;
                MutexGuard::unlocked(&mut st, || self.run(task));
                st.active -= 1;
                continue;
            }
            listened = false;
            if self.shutting_down() {
                break;
            }
            if !st.listening {
                self.listen(group, &mut st, &mut events);
                listened = true;
                continue;
            }
            st.idle += 1;
            POOL_COUNTERS.idle_threads.fetch_add(1, Ordering::Relaxed);
            let idle_timeout = Duration::from_secs(self.settings.idle_timeout_s.load(Ordering::Relaxed));
            let timed_out = g.work.wait_for(&mut st, idle_timeout).timed_out();
            st.idle -= 1;
            POOL_COUNTERS.idle_threads.fetch_sub(1, Ordering::Relaxed);
            // One worker per group stays to take the next command at once.
            if timed_out && st.threads > 1 && !st.has_queued() {
                break;
            }
        }
        st.threads -= 1;
        drop(st);
        self.threads.fetch_sub(1, Ordering::Relaxed);
        POOL_COUNTERS.threads.fetch_sub(1, Ordering::Relaxed);
        onelog_sql::wait::observe_waits(None);
    }

    /// The next task for a worker of `group`, unless the group has enough
    /// active workers.
    fn next_task(&self, group: usize, st: &mut GroupState, by_listener: bool) -> Option<Task> {
        let oversubscribe = self.settings.oversubscribe.load(Ordering::Relaxed);
        if st.active > oversubscribe && !st.stalled {
            return None;
        }
        if !st.has_runnable(self.max_lock_waiters()) {
            return None;
        }
        let Queued { task, .. } = st.high.pop_front().or_else(|| st.low.pop_front())?;
        st.dequeued += 1;
        if by_listener {
            st.stats.dequeues_by_listener += 1;
        } else {
            st.stats.dequeues_by_worker += 1;
        }
        st.stalled = false;
        if st.has_runnable(self.max_lock_waiters()) && st.idle > 0 {
            // A notify can be spent on a worker that had not gone to
            // sleep yet: pass more work on.
            self.groups[group].work.notify_one();
        }
        Some(task)
    }

    fn run(self: &Arc<Self>, task: Task) {
        match task {
            Task::Connect { socket, duplicate, client, alive, key, group } => {
                let closer = Closer { duplicate: duplicate.clone(), _alive: alive };
                let Some(conn) = Conn::start(socket, duplicate, client, &self.shared) else {
                    self.groups[group].state.lock().connections -= 1;
                    return;
                };
                let pooled = Box::new(Pooled { conn, key, group, registered: false, _closer: closer });
                self.after_command(pooled);
            }
            Task::Command(mut pooled) => match pooled.conn.run_command() {
                Flow::Continue => self.after_command(pooled),
                Flow::Close => self.close(pooled),
            },
        }
    }

    /// Parks a connection until its next command (or queues it again at
    /// once when that command was read ahead already).
    fn after_command(self: &Arc<Self>, mut pooled: Box<Pooled>) {
        if !pooled.conn.prepare_wait() {
            return self.close(pooled);
        }
        if pooled.conn.has_buffered_input() {
            let (group, high) = (pooled.group, pooled.conn.high_priority());
            return self.enqueue(group, Task::Command(pooled), high);
        }
        let (key, fd, first) = (pooled.key, pooled.conn.socket().as_fd().as_raw_fd(), !pooled.registered);
        let epoll = &self.groups[pooled.group].epoll;
        pooled.registered = true;
        let idle_until = Instant::now() + pooled.conn.wait_timeout();
        // Parked before armed: the listener must find it when the event comes.
        self.parked.lock().insert(key, Parked { pooled, idle_until });
        if let Err(e) = epoll.arm(fd, key, first) {
            tracing::warn!("thread pool: cannot wait for connection's next command: {e}");
            if let Some(p) = self.parked.lock().remove(&key) {
                self.close(p.pooled);
            }
        }
    }

    /// Ends a connection. Never called with its group's lock held.
    fn close(&self, pooled: Box<Pooled>) {
        let group = &self.groups[pooled.group];
        if pooled.registered {
            group.epoll.remove(pooled.conn.socket().as_fd().as_raw_fd());
        }
        drop(pooled);
        group.state.lock().connections -= 1;
    }

    /// One turn as the group's listener: waits in its epoll (unlocked)
    /// and queues the connections that became readable; the caller's loop
    /// then runs the first.
    fn listen(&self, group: usize, st: &mut MutexGuard<'_, GroupState>, events: &mut [libc::epoll_event]) {
        st.listening = true;
        // A worker listens only when `next_task` gave it nothing, which in a
        // stalled group means the queue is empty: the stall is over
        // (IS_STALLED goes back to 0).
        debug_assert!(!st.stalled || !st.has_queued());
        st.stalled = false;
        let woken: Vec<Box<Pooled>> = MutexGuard::unlocked(st, || {
            let ready = match self.groups[group].epoll.wait(events, POLL_TIMEOUT_MS) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => 0,
                Err(e) => {
                    tracing::error!("thread pool: epoll_wait failed: {e}");
                    std::thread::sleep(Duration::from_millis(u64::from(POLL_TIMEOUT_MS.unsigned_abs())));
                    0
                }
            };
            let mut parked = self.parked.lock();
            events[..ready].iter().filter_map(|e| parked.remove(&{ e.u64 })).map(|p| p.pooled).collect()
        });
        st.listening = false;
        st.polls += 1;
        if !woken.is_empty() && st.idle > 0 {
            // This worker runs a command now: another one watches the
            // sockets meanwhile.
            self.groups[group].work.notify_one();
        }
        for pooled in woken {
            let high = pooled.conn.high_priority();
            st.push(Task::Command(pooled), high);
        }
    }

    fn timer_loop(self: Arc<Self>) {
        while !self.shutting_down() {
            std::thread::sleep(Duration::from_millis(self.settings.stall_limit_ms.load(Ordering::Relaxed)));
            self.read_settings();
            for group in 0..self.groups.len() {
                self.check_stall(group);
            }
            self.close_idle_connections();
        }
    }

    fn check_stall(self: &Arc<Self>, group: usize) {
        let mut st = self.groups[group].state.lock();
        let queue_stuck = st.has_queued() && st.dequeued == st.dequeued_at_last_tick;
        let sockets_unwatched = !st.listening && st.polls == st.polls_at_last_tick;
        if queue_stuck || sockets_unwatched {
            st.stalled = true;
            st.stats.stalls += 1;
            self.wake_or_create(group, &mut st);
        }
        st.dequeued_at_last_tick = st.dequeued;
        st.polls_at_last_tick = st.polls;
    }

    /// `wait_timeout` for parked connections (a worker's socket read
    /// timeout does it for one thread per connection).
    fn close_idle_connections(&self) {
        let now = Instant::now();
        let expired: Vec<Parked> = {
            let mut parked = self.parked.lock();
            let keys: Vec<u64> = parked.iter().filter(|(_, p)| p.idle_until <= now).map(|(k, _)| *k).collect();
            keys.iter().filter_map(|k| parked.remove(k)).collect()
        };
        for p in expired {
            p.pooled.conn.log_wait_timeout();
            self.close(p.pooled);
        }
    }
}

/// MariaDB's `wait_begin` / `wait_end` for a worker of one group.
struct GroupWaits {
    pool: Arc<Inner>,
    group: usize,
    /// The worker's wait is a row-lock wait.
    in_row_lock_wait: AtomicBool,
}

impl WaitObserver for GroupWaits {
    fn wait_begin(&self, reason: WaitReason) {
        onelog_sql::wait::count_pool_wait(reason);
        let mut st = self.pool.groups[self.group].state.lock();
        if reason == WaitReason::RowLock {
            self.in_row_lock_wait.store(true, Ordering::Relaxed);
            st.row_lock_waiters += 1;
        }
        st.active = st.active.saturating_sub(1);
        if st.active == 0 && (st.has_runnable(self.pool.max_lock_waiters()) || !st.listening) {
            self.pool.wake_or_create(self.group, &mut st);
        }
    }

    fn wait_end(&self) {
        let mut st = self.pool.groups[self.group].state.lock();
        st.active += 1;
        if self.in_row_lock_wait.swap(false, Ordering::Relaxed) {
            st.row_lock_waiters -= 1;
            // Admission may have opened for a queued command.
            if st.idle > 0 && st.has_runnable(self.pool.max_lock_waiters()) {
                self.pool.groups[self.group].work.notify_one();
            }
        }
    }
}

/// An epoll instance in one-shot mode. libc directly, as MariaDB's pool
/// uses epoll: `EPOLLONESHOT` is what hands a connection's readiness to
/// exactly one worker until the connection is re-armed, and mio (the
/// workspace's event library, under tokio) offers only edge-triggered
/// registration.
struct Epoll(OwnedFd);

impl Epoll {
    fn new() -> io::Result<Epoll> {
        // SAFETY: epoll_create1 takes no pointers; a valid result is a new
        // descriptor we own.
        let fd = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` is a descriptor just returned to us and owned by no one else.
        Ok(Epoll(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Arms `fd` for one readiness event carrying `key`.
    fn arm(&self, fd: RawFd, key: u64, first: bool) -> io::Result<()> {
        let mut event =
            libc::epoll_event { events: (libc::EPOLLIN | libc::EPOLLRDHUP | libc::EPOLLONESHOT) as u32, u64: key };
        let op = if first { libc::EPOLL_CTL_ADD } else { libc::EPOLL_CTL_MOD };
        // SAFETY: `event` is a valid epoll_event for the call's duration.
        if unsafe { libc::epoll_ctl(self.0.as_raw_fd(), op, fd, &mut event) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn remove(&self, fd: RawFd) {
        // SAFETY: a null event is allowed for EPOLL_CTL_DEL. Fails only for
        // a descriptor no longer in the set, which is what we want.
        unsafe { libc::epoll_ctl(self.0.as_raw_fd(), libc::EPOLL_CTL_DEL, fd, std::ptr::null_mut()) };
    }

    fn wait(&self, events: &mut [libc::epoll_event], timeout_ms: i32) -> io::Result<usize> {
        let capacity = i32::try_from(events.len()).unwrap_or(i32::MAX);
        // SAFETY: `events` has room for `capacity` entries.
        let n = unsafe { libc::epoll_wait(self.0.as_raw_fd(), events.as_mut_ptr(), capacity, timeout_ms) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }
}
