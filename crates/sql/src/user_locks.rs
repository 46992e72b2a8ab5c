//! User-level locks: GET_LOCK(), RELEASE_LOCK(), IS_FREE_LOCK(),
//! IS_USED_LOCK() and RELEASE_ALL_LOCKS().
//!
//! Owns the server's table of named locks that applications take for
//! their own mutual exclusion (migration tools' "one migrator at a time",
//! job schedulers, cache rebuilds). The rules are MariaDB's (10.0.2+):
//! - names are case-sensitive byte strings of at most [`MAX_NAME_BYTES`];
//! - a connection may hold several locks, and the same lock several times:
//!   each GET_LOCK needs its own RELEASE_LOCK;
//! - locks belong to the connection, not its transaction: COMMIT and
//!   ROLLBACK keep them, the connection's end releases them;
//! - a wait that would close a cycle of connections waiting for each
//!   other's locks fails at once with 1213 instead of waiting out its
//!   timeout.
//!
//! Nothing here is logged or durable: like MariaDB's, the locks live in
//! memory only. Calls nothing above [`crate::mdl`] (for [`Wait`]).

use crate::kill::KILL_POLL;
use crate::mdl::{MdlOwner, Wait};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::collections::HashMap;
use std::time::Instant;

/// The longest lock name MariaDB accepts (NAME_LEN, 64 characters of 3
/// bytes); a longer one is error 1059.
pub const MAX_NAME_BYTES: usize = 192;

/// How much of a too-long name error 1059 quotes, "..." included.
const QUOTED_NAME_BYTES: usize = 100;

/// One held lock.
#[derive(Debug)]
struct Holder {
    owner: MdlOwner,
    /// GET_LOCKs not yet matched by a RELEASE_LOCK; at least 1.
    count: u32,
}

#[derive(Debug, Default)]
struct State {
    held: HashMap<Vec<u8>, Holder>,
    /// The lock each waiting connection waits for: the edges deadlock
    /// detection follows.
    waits_for: HashMap<MdlOwner, Vec<u8>>,
}

impl State {
    /// Whether `owner` waiting for `name` would close a cycle: `name`'s
    /// holder waits, through holders of what it waits for, for `owner`.
    /// Each connection waits for one lock at a time, so the chain visits
    /// each waiter at most once.
    fn would_deadlock(&self, owner: MdlOwner, name: &[u8]) -> bool {
        let mut holder = self.held.get(name).map(|h| h.owner);
        for _ in 0..=self.waits_for.len() {
            match holder {
                Some(h) if h == owner => return true,
                Some(h) => holder = self.waits_for.get(&h).and_then(|n| self.held.get(n)).map(|x| x.owner),
                None => return false,
            }
        }
        false
    }

    /// Takes `name` for `owner` if it is free or already `owner`'s.
    fn try_take(&mut self, owner: MdlOwner, name: &[u8]) -> bool {
        match self.held.get_mut(name) {
            Some(h) if h.owner == owner => h.count += 1,
            Some(_) => return false,
            None => {
                self.held.insert(name.to_vec(), Holder { owner, count: 1 });
            }
        }
        true
    }
}

/// What a GET_LOCK came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Acquired {
    Granted,
    /// Another connection kept it for the whole timeout (GET_LOCK is 0).
    TimedOut,
    /// KILL or the statement's time limit ended the wait (GET_LOCK is
    /// NULL, as in MariaDB).
    Interrupted,
}

/// The server's user-level locks.
#[derive(Default)]
pub struct UserLocks {
    state: Mutex<State>,
    released: Condvar,
}

/// Error 1059 for a name over [`MAX_NAME_BYTES`], quoting its first bytes
/// as MariaDB does.
pub fn check_name(name: &[u8]) -> SqlResult<()> {
    if name.len() <= MAX_NAME_BYTES {
        return Ok(());
    }
    let text = String::from_utf8_lossy(name);
    let mut quoted = String::new();
    for c in text.chars() {
        if quoted.len() + c.len_utf8() > QUOTED_NAME_BYTES - 3 {
            break;
        }
        quoted.push(c);
    }
    Err(SqlError::new(ErrorCode::TOO_LONG_IDENT, format!("Identifier name '{quoted}...' is too long")))
}

impl UserLocks {
    /// GET_LOCK(name, timeout) for `owner`, waiting at most `wait.timeout`.
    /// Error 1213 when the wait would deadlock.
    pub fn acquire(&self, owner: MdlOwner, name: &[u8], wait: Wait<'_>) -> SqlResult<Acquired> {
        let deadline = Instant::now() + wait.timeout;
        let mut st = self.state.lock();
        if st.try_take(owner, name) {
            return Ok(Acquired::Granted);
        }
        if st.would_deadlock(owner, name) {
            return Err(SqlError::new(
                ErrorCode::LOCK_DEADLOCK,
                "Deadlock found when trying to get lock; try restarting transaction",
            ));
        }
        (wait.on_wait)();
        st.waits_for.insert(owner, name.to_vec());
        let outcome = self.wait_until_taken(&mut st, owner, name, deadline, wait);
        st.waits_for.remove(&owner);
        Ok(outcome)
    }

    fn wait_until_taken(
        &self,
        st: &mut MutexGuard<'_, State>,
        owner: MdlOwner,
        name: &[u8],
        deadline: Instant,
        wait: Wait<'_>,
    ) -> Acquired {
        let _waiting = crate::wait::begin(crate::wait::WaitReason::UserLock);
        loop {
            if wait.guard.check().is_err() {
                return Acquired::Interrupted;
            }
            let now = Instant::now();
            if now >= deadline {
                return Acquired::TimedOut;
            }
            // KILL does not notify this condvar: look at the guard every KILL_POLL.
            self.released.wait_until(st, deadline.min(now + KILL_POLL));
            if st.try_take(owner, name) {
                return Acquired::Granted;
            }
        }
    }

    /// RELEASE_LOCK(name): `Some(true)` once released (one level of a lock
    /// taken several times), `Some(false)` when another connection holds
    /// it, `None` when nobody does.
    pub fn release(&self, owner: MdlOwner, name: &[u8]) -> Option<bool> {
        let mut st = self.state.lock();
        let holder = st.held.get_mut(name)?;
        if holder.owner != owner {
            return Some(false);
        }
        debug_assert!(holder.count >= 1, "a held lock is held at least once");
        holder.count -= 1;
        if holder.count == 0 {
            st.held.remove(name);
            drop(st);
            self.released.notify_all();
        }
        Some(true)
    }

    /// RELEASE_ALL_LOCKS(), and a connection's end: releases every lock
    /// `owner` holds and says how many GET_LOCKs that undid.
    pub fn release_all(&self, owner: MdlOwner) -> u64 {
        let mut st = self.state.lock();
        let mut undone = 0u64;
        st.held.retain(|_, h| {
            if h.owner == owner {
                undone += u64::from(h.count);
            }
            h.owner != owner
        });
        drop(st);
        if undone > 0 {
            self.released.notify_all();
        }
        undone
    }

    /// IS_USED_LOCK(name): the connection holding it.
    pub fn holder(&self, name: &[u8]) -> Option<MdlOwner> {
        self.state.lock().held.get(name).map(|h| h.owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kill::StatementGuard;
    use std::sync::Arc;
    use std::time::Duration;

    fn get(locks: &UserLocks, owner: MdlOwner, name: &str, timeout: Duration) -> SqlResult<Acquired> {
        let guard = StatementGuard::unlimited();
        locks.acquire(owner, name.as_bytes(), Wait { timeout, guard: &guard, on_wait: &mut || {} })
    }

    fn until_someone_waits(locks: &UserLocks) {
        while locks.state.lock().waits_for.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_lock_is_recursive_and_released_as_often_as_taken() {
        let locks = UserLocks::default();
        assert_eq!(get(&locks, 1, "a", Duration::ZERO), Ok(Acquired::Granted));
        assert_eq!(get(&locks, 1, "a", Duration::ZERO), Ok(Acquired::Granted));
        assert_eq!(get(&locks, 2, "a", Duration::ZERO), Ok(Acquired::TimedOut));
        assert_eq!(get(&locks, 2, "A", Duration::ZERO), Ok(Acquired::Granted), "names are case-sensitive");
        assert_eq!(locks.release(2, b"a"), Some(false));
        assert_eq!(locks.release(1, b"a"), Some(true));
        assert_eq!(locks.holder(b"a"), Some(1));
        assert_eq!(locks.release(1, b"a"), Some(true));
        assert_eq!(locks.holder(b"a"), None);
        assert_eq!(locks.release(1, b"a"), None);
        assert_eq!(locks.release_all(2), 1);
    }

    #[test]
    fn a_waiter_gets_the_lock_when_it_is_released() {
        let locks = Arc::new(UserLocks::default());
        assert_eq!(get(&locks, 1, "a", Duration::ZERO), Ok(Acquired::Granted));
        let waiter = {
            let locks = locks.clone();
            std::thread::spawn(move || get(&locks, 2, "a", Duration::from_secs(30)))
        };
        until_someone_waits(&locks);
        assert_eq!(locks.release_all(1), 1);
        assert_eq!(waiter.join().expect("waiter"), Ok(Acquired::Granted));
        assert_eq!(locks.holder(b"a"), Some(2));
    }

    #[test]
    fn a_wait_that_closes_a_cycle_is_a_deadlock() {
        let locks = Arc::new(UserLocks::default());
        assert_eq!(get(&locks, 1, "a", Duration::ZERO), Ok(Acquired::Granted));
        assert_eq!(get(&locks, 2, "b", Duration::ZERO), Ok(Acquired::Granted));
        let first = {
            let locks = locks.clone();
            std::thread::spawn(move || get(&locks, 1, "b", Duration::from_secs(30)))
        };
        until_someone_waits(&locks);
        let err = get(&locks, 2, "a", Duration::from_secs(30)).expect_err("deadlock");
        assert_eq!(err.code.number, 1213);
        assert_eq!(locks.release_all(2), 1);
        assert_eq!(first.join().expect("first waiter"), Ok(Acquired::Granted));
    }

    #[test]
    fn a_name_over_192_bytes_is_1059() {
        assert!(check_name(&[b'x'; 192]).is_ok());
        let err = check_name(&[b'y'; 193]).expect_err("too long");
        assert_eq!(err.code.number, 1059);
        assert_eq!(err.message, format!("Identifier name '{}...' is too long", "y".repeat(97)));
    }
}
