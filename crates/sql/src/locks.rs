//! Row locks: a lock table keyed by index key bytes, shared and exclusive
//! modes, waits bounded by `innodb_lock_wait_timeout` (error 1205), and
//! deadlock detection on the wait-for graph (error 1213).
//!
//! Each key keeps its waiting requests in arrival order and grants them
//! first come, first served, as InnoDB does: a request that does not hold
//! the key yet queues behind the conflicting requests already waiting, so a
//! hot row's writers are not starved by newcomers. A waiter sleeps on its
//! own condvar and a release wakes only the requests it can let through
//! (the front of the queue, a run of shared requests, or a holder upgrading
//! its lock): with hundreds of sessions waiting, one commit costs one
//! wake-up, not one per waiter of the shard.
//!
//! A waiting session is only ever blocked by a holder that will release
//! (commit, rollback or disconnect) or by a request queued ahead of it; the
//! wait-for graph holds an edge set per waiting transaction for exactly as
//! long as it waits. A queued request's edges name the conflicting holders
//! and the nearest conflicting request ahead of it, so a long queue is a
//! chain and a deadlock check walks it once. Transaction ids are never
//! reused, so an edge to a holder that has since released ends a path.

use crate::kill::StatementGuard;
use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub type TxnId = u64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

/// A request waiting for a key. Its condvar is only ever waited on with
/// the key's shard mutex held.
struct Waiter {
    txn: TxnId,
    mode: LockMode,
    wake: Arc<Condvar>,
}

#[derive(Default)]
struct LockState {
    exclusive: Option<TxnId>,
    shared: Vec<TxnId>,
    /// Requests waiting for this key, oldest first.
    queue: VecDeque<Waiter>,
}

impl LockState {
    fn holds(&self, txn: TxnId) -> bool {
        self.exclusive == Some(txn) || self.shared.contains(&txn)
    }

    /// Holders other than `txn` that conflict with a `mode` request.
    fn conflicting_holders(&self, txn: TxnId, mode: LockMode) -> Vec<TxnId> {
        let mut out: Vec<TxnId> = self.exclusive.into_iter().filter(|h| *h != txn).collect();
        if mode == LockMode::Exclusive {
            out.extend(self.shared.iter().copied().filter(|h| *h != txn));
        }
        out
    }

    /// What keeps `txn`'s `mode` request from being granted: the
    /// conflicting holders and, unless `txn` already holds the key (an
    /// upgrade goes first), the nearest conflicting request queued ahead of
    /// it (`ahead` requests are ahead: its queue position, or the whole
    /// queue for a newcomer). Empty means grant.
    fn blockers(&self, txn: TxnId, mode: LockMode, ahead: usize) -> Vec<TxnId> {
        let mut out = self.conflicting_holders(txn, mode);
        if !self.holds(txn) {
            let nearest = self
                .queue
                .iter()
                .take(ahead)
                .rev()
                .find(|w| w.txn != txn && (mode == LockMode::Exclusive || w.mode == LockMode::Exclusive));
            out.extend(nearest.map(|w| w.txn));
        }
        out
    }

    fn is_unused(&self) -> bool {
        self.exclusive.is_none() && self.shared.is_empty() && self.queue.is_empty()
    }

    fn position(&self, wake: &Arc<Condvar>) -> Option<usize> {
        self.queue.iter().position(|w| Arc::ptr_eq(&w.wake, wake))
    }

    /// Wakes the queued requests the holders now let through: the front
    /// request, the shared requests right behind a shared front, and any
    /// holder waiting to upgrade.
    fn wake_grantable(&self) {
        // An upgrader is a holder: with no holders left, only the front can go.
        let no_upgrader_possible = self.exclusive.is_none() && self.shared.is_empty();
        let mut leading_shared_run = true;
        for (i, w) in self.queue.iter().enumerate() {
            let in_front = i == 0 || (leading_shared_run && w.mode == LockMode::Shared);
            leading_shared_run &= w.mode == LockMode::Shared;
            if (in_front || self.holds(w.txn)) && self.conflicting_holders(w.txn, w.mode).is_empty() {
                w.wake.notify_one();
            }
            if !in_front && no_upgrader_possible {
                break;
            }
        }
    }

    /// Wakes every queued request (after one left the queue without the
    /// lock), so each re-checks what blocks it and refreshes its edges.
    fn wake_all(&self) {
        for w in &self.queue {
            w.wake.notify_one();
        }
    }
}

/// Lock-table shards: sessions locking different rows rarely meet on one
/// mutex.
const LOCK_SHARDS: usize = 64;

#[derive(Default)]
struct Shard {
    locks: HashMap<Vec<u8>, LockState>,
}

/// The lock table, sharded by key; the keys each transaction holds, sharded
/// by transaction; and the wait-for graph, touched only by sessions about to
/// wait. Lock order: a key shard, then `waits_for` or a `held` shard; never
/// two key shards at once.
pub struct LockManager {
    shards: Vec<Mutex<Shard>>,
    held: Vec<Mutex<HashMap<TxnId, Vec<Vec<u8>>>>>,
    waits_for: Mutex<HashMap<TxnId, Vec<TxnId>>>,
    /// Requests queued for a key, all keys together.
    queued_requests: AtomicUsize,
    /// Sessions held back by [`LockManager::wait_for_admission`].
    admission: Mutex<usize>,
    admission_open: Condvar,
}

impl Default for LockManager {
    fn default() -> Self {
        LockManager {
            shards: (0..LOCK_SHARDS).map(|_| Mutex::default()).collect(),
            held: (0..LOCK_SHARDS).map(|_| Mutex::default()).collect(),
            waits_for: Mutex::default(),
            queued_requests: AtomicUsize::new(0),
            admission: Mutex::new(0),
            admission_open: Condvar::new(),
        }
    }
}

/// True if `from` (transitively) waits for `target`.
fn reaches(waits_for: &HashMap<TxnId, Vec<TxnId>>, from: &[TxnId], target: TxnId) -> bool {
    let mut seen = HashSet::new();
    let mut stack: Vec<TxnId> = from.to_vec();
    while let Some(t) = stack.pop() {
        if t == target {
            return true;
        }
        if seen.insert(t) {
            if let Some(next) = waits_for.get(&t) {
                stack.extend(next);
            }
        }
    }
    false
}

impl LockManager {
    fn shard(&self, key: &[u8]) -> &Mutex<Shard> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        key.hash(&mut h);
        &self.shards[(h.finish() % LOCK_SHARDS as u64) as usize]
    }

    fn held_of(&self, txn: TxnId) -> &Mutex<HashMap<TxnId, Vec<Vec<u8>>>> {
        &self.held[(txn % LOCK_SHARDS as u64) as usize]
    }

    /// Admission control for one thread per connection (the thread pool
    /// has its own, per group): before a command that may start a
    /// transaction, waits while `limit` or more requests queue for row
    /// locks, at most `max_wait`. Sessions waiting here hold no locks, so
    /// the wait only ever delays work, never blocks what would release a
    /// lock. `limit` 0 admits at once.
    ///
    /// Not first come, first served: each request leaving a lock queue
    /// wakes one held-back session, which goes if the queues are short
    /// enough. (A strict order was tried: once the lock queues emptied,
    /// nothing was left to admit the sessions queued behind, and they
    /// waited out `max_wait`.)
    pub fn wait_for_admission(&self, limit: usize, max_wait: Duration) {
        if limit == 0 || self.queued_requests() < limit {
            return;
        }
        let until = Instant::now() + max_wait;
        let mut held_back = self.admission.lock();
        *held_back += 1;
        while self.queued_requests() >= limit {
            if self.admission_open.wait_until(&mut held_back, until).timed_out() {
                break;
            }
        }
        *held_back -= 1;
    }

    /// Requests waiting for row locks now.
    pub fn queued_requests(&self) -> usize {
        self.queued_requests.load(Ordering::Relaxed)
    }

    /// A request left a key's queue: one session held back by admission
    /// control may look again.
    fn dequeued(&self) {
        self.queued_requests.fetch_sub(1, Ordering::Relaxed);
        let held_back = self.admission.lock();
        if *held_back > 0 {
            self.admission_open.notify_one();
        }
    }

    /// Acquires `key` in `mode` for `txn`, waiting at most `timeout`;
    /// `guard` ends the wait early (KILL, the statement's time limit).
    pub fn lock(
        &self,
        txn: TxnId,
        key: &[u8],
        mode: LockMode,
        timeout: Duration,
        guard: &StatementGuard,
    ) -> SqlResult<()> {
        let deadline = Instant::now() + timeout;
        let mut shard = self.shard(key).lock();
        // Some once this request is queued: its condvar identifies it.
        let mut queued: Option<Arc<Condvar>> = None;
        loop {
            let state = match shard.locks.get_mut(key) {
                Some(state) => state,
                None => shard.locks.entry(key.to_vec()).or_default(),
            };
            let position = queued.as_ref().and_then(|wake| state.position(wake));
            debug_assert!(queued.is_none() || position.is_some(), "a queued request stays queued until it leaves");
            let blockers = state.blockers(txn, mode, position.unwrap_or(state.queue.len()));
            if blockers.is_empty() {
                if let Some(p) = position {
                    state.queue.remove(p);
                }
                let newly_held = grant(state, txn, mode);
                drop(shard);
                if position.is_some() {
                    self.dequeued();
                }
                if newly_held {
                    self.held_of(txn).lock().entry(txn).or_default().push(key.to_vec());
                }
                if queued.is_some() {
                    self.waits_for.lock().remove(&txn);
                }
                return Ok(());
            }
            {
                let mut waits_for = self.waits_for.lock();
                if reaches(&waits_for, &blockers, txn) {
                    waits_for.remove(&txn);
                    drop(waits_for);
                    self.give_up(shard, key, position);
                    return Err(SqlError::new(
                        ErrorCode::LOCK_DEADLOCK,
                        "Deadlock found when trying to get lock; try restarting transaction",
                    ));
                }
                waits_for.insert(txn, blockers);
            }
            let wake = queued
                .get_or_insert_with(|| {
                    let wake = Arc::new(Condvar::new());
                    state.queue.push_back(Waiter { txn, mode, wake: wake.clone() });
                    self.queued_requests.fetch_add(1, Ordering::Relaxed);
                    wake
                })
                .clone();
            // Registered before the look at the flag, and KILL notifies after
            // setting it: a KILL is seen here or wakes the wait, except one
            // landing in the instant before the wait parks, which the
            // backstop in `wake_by` catches.
            let registration = guard.wake_on_kill(&wake);
            let ended = guard
                .check()
                .and_then(|()| {
                    let _waiting = crate::wait::begin(crate::wait::WaitReason::RowLock);
                    wake.wait_until(&mut shard, guard.wake_by(deadline));
                    guard.check()
                })
                .and_then(|()| {
                    if Instant::now() >= deadline {
                        Err(SqlError::new(
                            ErrorCode::LOCK_WAIT_TIMEOUT,
                            "Lock wait timeout exceeded; try restarting transaction",
                        ))
                    } else {
                        Ok(())
                    }
                });
            drop(registration);
            if let Err(e) = ended {
                let position = shard.locks.get(key).and_then(|state| state.position(&wake));
                debug_assert!(position.is_some(), "a waiter stays queued until it leaves");
                self.give_up(shard, key, position);
                self.waits_for.lock().remove(&txn);
                return Err(e);
            }
        }
    }

    /// Takes a request that gives up (error, timeout, KILL) out of `key`'s
    /// queue, at `position` if it was queued; the requests left re-check
    /// what blocks them.
    fn give_up(&self, mut shard: MutexGuard<'_, Shard>, key: &[u8], position: Option<usize>) {
        let Some(state) = shard.locks.get_mut(key) else { return };
        if let Some(p) = position {
            state.queue.remove(p);
        }
        if state.is_unused() {
            shard.locks.remove(key);
        } else {
            state.wake_all();
        }
        drop(shard);
        if position.is_some() {
            self.dequeued();
        }
    }

    /// Releases every lock `txn` holds and wakes the requests each released
    /// key can now grant.
    pub fn release_all(&self, txn: TxnId) {
        let Some(keys) = self.held_of(txn).lock().remove(&txn) else { return };
        for key in keys {
            let mut shard = self.shard(&key).lock();
            let Some(state) = shard.locks.get_mut(&key) else { continue };
            if state.exclusive == Some(txn) {
                state.exclusive = None;
            }
            state.shared.retain(|t| *t != txn);
            if state.is_unused() {
                shard.locks.remove(&key);
            } else {
                state.wake_grantable();
            }
        }
    }
}

/// Grants the lock; returns true if `txn` did not hold `key` before.
fn grant(state: &mut LockState, txn: TxnId, mode: LockMode) -> bool {
    let held_before = state.holds(txn);
    match mode {
        LockMode::Exclusive => {
            state.shared.retain(|t| *t != txn);
            state.exclusive = Some(txn);
        }
        LockMode::Shared => {
            if !held_before {
                state.shared.push(txn);
            }
        }
    }
    !held_before
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn exclusive_blocks_then_times_out() {
        let m = LockManager::default();
        m.lock(1, b"k", LockMode::Exclusive, Duration::from_millis(10), &StatementGuard::unlimited()).unwrap();
        let err =
            m.lock(2, b"k", LockMode::Shared, Duration::from_millis(20), &StatementGuard::unlimited()).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_WAIT_TIMEOUT);
        m.release_all(1);
        m.lock(2, b"k", LockMode::Shared, Duration::from_millis(10), &StatementGuard::unlimited()).unwrap();
        m.lock(3, b"k", LockMode::Shared, Duration::from_millis(10), &StatementGuard::unlimited()).unwrap();
    }

    #[test]
    fn kill_ends_a_lock_wait() {
        let m = Arc::new(LockManager::default());
        m.lock(1, b"k", LockMode::Exclusive, Duration::from_secs(1), &StatementGuard::unlimited()).unwrap();
        let kill = Arc::new(crate::kill::KillFlag::default());
        let guard = StatementGuard::start(&kill, None);
        let waiter = {
            let m = m.clone();
            std::thread::spawn(move || m.lock(2, b"k", LockMode::Exclusive, Duration::from_secs(30), &guard))
        };
        std::thread::sleep(Duration::from_millis(20));
        let killed_at = Instant::now();
        kill.kill_query();
        let err = waiter.join().unwrap().unwrap_err();
        assert_eq!(err.code, ErrorCode::QUERY_INTERRUPTED);
        assert!(killed_at.elapsed() < Duration::from_secs(5));
        // The killed waiter left the wait-for graph: no false deadlock.
        m.lock(2, b"other", LockMode::Exclusive, Duration::from_secs(1), &StatementGuard::unlimited()).unwrap();
        let err = m.lock(1, b"other", LockMode::Shared, Duration::from_millis(10), &StatementGuard::unlimited());
        assert_eq!(err.map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
    }

    #[test]
    fn deadlock_is_detected() {
        let m = Arc::new(LockManager::default());
        m.lock(1, b"a", LockMode::Exclusive, Duration::from_secs(1), &StatementGuard::unlimited()).unwrap();
        m.lock(2, b"b", LockMode::Exclusive, Duration::from_secs(1), &StatementGuard::unlimited()).unwrap();
        let m2 = m.clone();
        let waiter = std::thread::spawn(move || {
            m2.lock(1, b"b", LockMode::Exclusive, Duration::from_secs(5), &StatementGuard::unlimited())
        });
        std::thread::sleep(Duration::from_millis(50));
        let err =
            m.lock(2, b"a", LockMode::Exclusive, Duration::from_secs(5), &StatementGuard::unlimited()).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_DEADLOCK);
        m.release_all(2);
        waiter.join().unwrap().unwrap();
    }

    /// Locks `key` for `txn` on a thread of its own, waiting up to 10 s.
    fn lock_in_thread(
        m: &Arc<LockManager>,
        txn: TxnId,
        key: &'static [u8],
        mode: LockMode,
    ) -> std::thread::JoinHandle<SqlResult<()>> {
        let m = m.clone();
        std::thread::spawn(move || m.lock(txn, key, mode, Duration::from_secs(10), &StatementGuard::unlimited()))
    }

    #[test]
    fn a_shared_request_queues_behind_a_waiting_writer() {
        let m = Arc::new(LockManager::default());
        let unlimited = StatementGuard::unlimited();
        m.lock(1, b"k", LockMode::Shared, Duration::from_secs(1), &unlimited).unwrap();
        let writer = lock_in_thread(&m, 2, b"k", LockMode::Exclusive);
        std::thread::sleep(Duration::from_millis(30));
        // Granting it now would let readers starve the writer.
        let err = m.lock(3, b"k", LockMode::Shared, Duration::from_millis(20), &unlimited).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_WAIT_TIMEOUT);
        let reader = lock_in_thread(&m, 3, b"k", LockMode::Shared);
        std::thread::sleep(Duration::from_millis(30));
        m.release_all(1);
        writer.join().unwrap().unwrap();
        assert!(!reader.is_finished(), "the reader waits for the writer it queued behind");
        m.release_all(2);
        reader.join().unwrap().unwrap();
        m.release_all(3);
        assert!(m.shards.iter().all(|s| s.lock().locks.is_empty()));
    }

    #[test]
    fn a_holder_upgrades_ahead_of_queued_writers_and_a_leaver_unblocks_the_queue() {
        let m = Arc::new(LockManager::default());
        let unlimited = StatementGuard::unlimited();
        m.lock(1, b"k", LockMode::Shared, Duration::from_secs(1), &unlimited).unwrap();
        m.lock(2, b"k", LockMode::Shared, Duration::from_secs(1), &unlimited).unwrap();
        let queued_writer = lock_in_thread(&m, 3, b"k", LockMode::Exclusive);
        std::thread::sleep(Duration::from_millis(30));
        let upgrade = lock_in_thread(&m, 1, b"k", LockMode::Exclusive);
        std::thread::sleep(Duration::from_millis(30));
        m.release_all(2);
        upgrade.join().unwrap().unwrap();
        // Transaction 2 now asks again and gives up; the writer behind is not stranded.
        let err = m.lock(4, b"k", LockMode::Exclusive, Duration::from_millis(20), &unlimited).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_WAIT_TIMEOUT);
        m.release_all(1);
        queued_writer.join().unwrap().unwrap();
        m.release_all(3);
        assert!(m.shards.iter().all(|s| s.lock().locks.is_empty()));
        assert!(m.waits_for.lock().is_empty());
    }

    #[test]
    fn hot_keys_serialize_writers_without_lost_wakeups() {
        let m = Arc::new(LockManager::default());
        let inside = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = (0..8u64)
            .map(|t| {
                let (m, inside) = (m.clone(), inside.clone());
                std::thread::spawn(move || {
                    for i in 0..300u64 {
                        let txn = t * 1000 + i + 1;
                        let key = [(i % 3) as u8];
                        m.lock(txn, &key, LockMode::Exclusive, Duration::from_secs(10), &StatementGuard::unlimited())
                            .unwrap();
                        m.lock(txn, &key, LockMode::Shared, Duration::from_secs(10), &StatementGuard::unlimited())
                            .unwrap();
                        if key[0] == 0 {
                            assert_eq!(inside.fetch_add(1, std::sync::atomic::Ordering::SeqCst), 0);
                            inside.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                        }
                        m.release_all(txn);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert!(m.shards.iter().all(|s| s.lock().locks.is_empty()));
        assert!(m.waits_for.lock().is_empty());
    }
}
