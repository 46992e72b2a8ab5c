//! Row locks: a lock table keyed by index key bytes, shared and exclusive
//! modes, waits bounded by `innodb_lock_wait_timeout` (error 1205), and
//! deadlock detection on the wait-for graph (error 1213).

use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex};
use std::collections::{HashMap, HashSet};
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

#[derive(Default)]
struct LockTable {
    locks: HashMap<Vec<u8>, LockState>,
    held: HashMap<TxnId, Vec<Vec<u8>>>,
    waits_for: HashMap<TxnId, Vec<TxnId>>,
}

impl LockTable {
    /// True if `from` (transitively) waits for `target`.
    fn reaches(&self, from: &[TxnId], target: TxnId) -> bool {
        let mut seen = HashSet::new();
        let mut stack: Vec<TxnId> = from.to_vec();
        while let Some(t) = stack.pop() {
            if t == target {
                return true;
            }
            if seen.insert(t) {
                if let Some(next) = self.waits_for.get(&t) {
                    stack.extend(next);
                }
            }
        }
        false
    }
}

#[derive(Default)]
pub struct LockManager {
    table: Mutex<LockTable>,
    released: Condvar,
}

impl LockManager {
    /// Acquires `key` in `mode` for `txn`, waiting at most `timeout`.
    pub fn lock(&self, txn: TxnId, key: &[u8], mode: LockMode, timeout: Duration) -> SqlResult<()> {
        let deadline = Instant::now() + timeout;
        let mut table = self.table.lock();
        loop {
            let state = table.locks.entry(key.to_vec()).or_default();
            let blockers = state.blockers(txn, mode);
            if blockers.is_empty() {
                let newly_held = grant(state, txn, mode);
                if newly_held {
                    table.held.entry(txn).or_default().push(key.to_vec());
                }
                table.waits_for.remove(&txn);
                return Ok(());
            }
            if table.reaches(&blockers, txn) {
                table.waits_for.remove(&txn);
                return Err(SqlError::new(
                    ErrorCode::LOCK_DEADLOCK,
                    "Deadlock found when trying to get lock; try restarting transaction",
                ));
            }
            table.waits_for.insert(txn, blockers);
            if self.released.wait_until(&mut table, deadline).timed_out() {
                table.waits_for.remove(&txn);
                return Err(SqlError::new(
                    ErrorCode::LOCK_WAIT_TIMEOUT,
                    "Lock wait timeout exceeded; try restarting transaction",
                ));
            }
        }
    }

    /// Releases every lock `txn` holds and wakes waiters.
    pub fn release_all(&self, txn: TxnId) {
        let mut table = self.table.lock();
        table.waits_for.remove(&txn);
        let Some(keys) = table.held.remove(&txn) else { return };
        for key in keys {
            if let Some(state) = table.locks.get_mut(&key) {
                if state.exclusive == Some(txn) {
                    state.exclusive = None;
                }
                state.shared.retain(|t| *t != txn);
                if state.is_free() {
                    table.locks.remove(&key);
                }
            }
        }
        drop(table);
        self.released.notify_all();
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
        m.lock(1, b"k", LockMode::Exclusive, Duration::from_millis(10)).unwrap();
        let err = m.lock(2, b"k", LockMode::Shared, Duration::from_millis(20)).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_WAIT_TIMEOUT);
        m.release_all(1);
        m.lock(2, b"k", LockMode::Shared, Duration::from_millis(10)).unwrap();
        m.lock(3, b"k", LockMode::Shared, Duration::from_millis(10)).unwrap();
    }

    #[test]
    fn deadlock_is_detected() {
        let m = Arc::new(LockManager::default());
        m.lock(1, b"a", LockMode::Exclusive, Duration::from_secs(1)).unwrap();
        m.lock(2, b"b", LockMode::Exclusive, Duration::from_secs(1)).unwrap();
        let m2 = m.clone();
        let waiter = std::thread::spawn(move || m2.lock(1, b"b", LockMode::Exclusive, Duration::from_secs(5)));
        std::thread::sleep(Duration::from_millis(50));
        let err = m.lock(2, b"a", LockMode::Exclusive, Duration::from_secs(5)).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_DEADLOCK);
        m.release_all(2);
        waiter.join().unwrap().unwrap();
    }
}
