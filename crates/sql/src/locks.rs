//! Row locks: a lock table keyed by index key bytes, shared and exclusive
//! modes, waits bounded by `innodb_lock_wait_timeout` (error 1205), and
//! deadlock detection on the wait-for graph (error 1213).
//!
//! A waiting session is only ever blocked by a holder that will release
//! (commit, rollback or disconnect); the wait-for graph holds an edge set
//! per waiting transaction for exactly as long as it waits.

use crate::kill::{StatementGuard, KILL_POLL};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

pub type TxnId = u64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

#[derive(Debug, Default)]
struct LockState {
    exclusive: Option<TxnId>,
    shared: Vec<TxnId>,
}

impl LockState {
    /// Transactions other than `txn` that block a `mode` request.
    fn blockers(&self, txn: TxnId, mode: LockMode) -> Vec<TxnId> {
        let mut out: Vec<TxnId> = self.exclusive.into_iter().filter(|h| *h != txn).collect();
        if mode == LockMode::Exclusive {
            out.extend(self.shared.iter().copied().filter(|h| *h != txn));
        }
        out
    }

    fn is_free(&self) -> bool {
        self.exclusive.is_none() && self.shared.is_empty()
    }
}

/// Lock-table shards: sessions locking different rows rarely meet on one
/// mutex, and a release wakes only the waiters of its own shard.
const LOCK_SHARDS: usize = 64;

#[derive(Default)]
struct Shard {
    locks: HashMap<Vec<u8>, LockState>,
    /// Sessions blocked on this shard's condvar; a release notifies only
    /// when there are some.
    waiting: usize,
}

#[derive(Default)]
struct ShardSlot {
    shard: Mutex<Shard>,
    released: Condvar,
}

/// The lock table, sharded by key; the keys each transaction holds, sharded
/// by transaction; and the wait-for graph, touched only by sessions about to
/// wait. Lock order: a key shard, then `waits_for` or a `held` shard; never
/// two key shards at once.
pub struct LockManager {
    shards: Vec<ShardSlot>,
    held: Vec<Mutex<HashMap<TxnId, Vec<Vec<u8>>>>>,
    waits_for: Mutex<HashMap<TxnId, Vec<TxnId>>>,
}

impl Default for LockManager {
    fn default() -> Self {
        LockManager {
            shards: (0..LOCK_SHARDS).map(|_| ShardSlot::default()).collect(),
            held: (0..LOCK_SHARDS).map(|_| Mutex::default()).collect(),
            waits_for: Mutex::default(),
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
    fn slot(&self, key: &[u8]) -> &ShardSlot {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        key.hash(&mut h);
        &self.shards[(h.finish() % LOCK_SHARDS as u64) as usize]
    }

    fn held_of(&self, txn: TxnId) -> &Mutex<HashMap<TxnId, Vec<Vec<u8>>>> {
        &self.held[(txn % LOCK_SHARDS as u64) as usize]
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
        let slot = self.slot(key);
        let mut shard = slot.shard.lock();
        let mut waited = false;
        loop {
            let state = match shard.locks.get_mut(key) {
                Some(state) => state,
                None => shard.locks.entry(key.to_vec()).or_default(),
            };
            let blockers = state.blockers(txn, mode);
            if blockers.is_empty() {
                let newly_held = grant(state, txn, mode);
                drop(shard);
                if newly_held {
                    self.held_of(txn).lock().entry(txn).or_default().push(key.to_vec());
                }
                if waited {
                    self.waits_for.lock().remove(&txn);
                }
                return Ok(());
            }
            {
                let mut waits_for = self.waits_for.lock();
                if reaches(&waits_for, &blockers, txn) {
                    waits_for.remove(&txn);
                    return Err(SqlError::new(
                        ErrorCode::LOCK_DEADLOCK,
                        "Deadlock found when trying to get lock; try restarting transaction",
                    ));
                }
                waits_for.insert(txn, blockers);
            }
            waited = true;
            shard.waiting += 1;
            let waiting = crate::wait::begin(crate::wait::WaitReason::RowLock);
            slot.released.wait_until(&mut shard, deadline.min(Instant::now() + KILL_POLL));
            drop(waiting);
            shard.waiting -= 1;
            let ended = if Instant::now() >= deadline {
                Err(SqlError::new(
                    ErrorCode::LOCK_WAIT_TIMEOUT,
                    "Lock wait timeout exceeded; try restarting transaction",
                ))
            } else {
                guard.check()
            };
            if let Err(e) = ended {
                drop(shard);
                self.waits_for.lock().remove(&txn);
                return Err(e);
            }
        }
    }

    /// Releases every lock `txn` holds and wakes the waiters of the shards
    /// it touched.
    pub fn release_all(&self, txn: TxnId) {
        let Some(keys) = self.held_of(txn).lock().remove(&txn) else { return };
        for key in keys {
            let slot = self.slot(&key);
            let mut shard = slot.shard.lock();
            if let Some(state) = shard.locks.get_mut(&key) {
                if state.exclusive == Some(txn) {
                    state.exclusive = None;
                }
                state.shared.retain(|t| *t != txn);
                if state.is_free() {
                    shard.locks.remove(&key);
                }
            }
            if shard.waiting > 0 {
                drop(shard);
                slot.released.notify_all();
            }
        }
    }
}

/// Grants the lock; returns true if `txn` did not hold `key` before.
fn grant(state: &mut LockState, txn: TxnId, mode: LockMode) -> bool {
    let held_before = state.exclusive == Some(txn) || state.shared.contains(&txn);
    match mode {
        LockMode::Exclusive => {
            state.shared.retain(|t| *t != txn);
            state.exclusive = Some(txn);
        }
        LockMode::Shared => {
            if state.exclusive != Some(txn) && !state.shared.contains(&txn) {
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
        assert!(m.shards.iter().all(|s| s.shard.lock().locks.is_empty()));
        assert!(m.waits_for.lock().is_empty());
    }
}
