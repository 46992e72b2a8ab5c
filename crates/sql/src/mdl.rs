//! Metadata locks: what keeps a schema change and the transactions using a
//! table apart, as MySQL's MDL does.
//!
//! Without them a DDL committed while another transaction had uncommitted
//! rows of the same table: the rows reached storage encoded for the old
//! definition and the binlog logged them after the DDL, so reads failed
//! with "corrupt row" and crash recovery could not replay the binlog.
//!
//! Owns the lock table keyed by (database, table) name. A session takes a
//! *shared* lock on every table a statement reads or writes before the
//! statement takes its read view, and keeps it until its transaction ends
//! (a commit's locks until it is published); a DDL takes *exclusive* locks
//! on the tables it changes, waiting until no other session holds them, and
//! keeps them until its catalog change is applied. Owners are connection
//! ids: a connection runs one statement at a time. Calls nothing above
//! [`crate::kill`].
//!
//! Why this can never deadlock:
//! - a DDL acquires all its tables at once and holds none while it waits;
//!   once it holds them it waits for no metadata lock (only for the commit
//!   pipeline);
//! - a pending DDL holds back new shared requests only from owners that hold
//!   no metadata lock yet — and so hold no row lock either, since every row
//!   access happens under the table's metadata lock — which keeps a stream
//!   of short transactions from starving the DDL;
//! - an owner that already holds some metadata lock waits only for a table
//!   whose exclusive lock is *held*, and its holder waits for nothing.
//!
//! The global read lock (FLUSH TABLES WITH READ LOCK) follows the same
//! rules: every write statement and commit holds a *write intent* from its
//! start until it is published; FTWRL waits until none is held (holding new
//! owners back meanwhile) and then holds every writer back until UNLOCK
//! TABLES. Several sessions may hold it at once, as in MariaDB. A DDL takes
//! its write intent before its table locks, so FTWRL never waits for a DDL
//! that waits for a table FTWRL's holder reads.

use crate::kill::{StatementGuard, KILL_POLL};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A connection id.
pub type MdlOwner = u64;

/// (database, table), as the catalog names it (case-sensitive).
pub type TableName = (String, String);

#[derive(Debug, Default)]
struct Entry {
    shared: Vec<MdlOwner>,
    exclusive: Option<MdlOwner>,
    /// DDLs waiting for this table.
    pending_exclusive: u32,
}

impl Entry {
    fn is_unused(&self) -> bool {
        self.shared.is_empty() && self.exclusive.is_none() && self.pending_exclusive == 0
    }
}

/// The global read lock and the write intents it conflicts with.
#[derive(Debug, Default)]
struct Global {
    writers: Vec<MdlOwner>,
    readers: Vec<MdlOwner>,
    /// FTWRLs waiting for the writers to finish.
    pending_readers: u32,
}

#[derive(Debug, Default)]
struct State {
    tables: HashMap<TableName, Entry>,
    global: Global,
    /// The tables each owner holds shared.
    held: HashMap<MdlOwner, Vec<TableName>>,
    /// Sessions blocked on `changed`; releases notify only when there are some.
    waiting: usize,
}

impl State {
    fn may_share(&self, owner: MdlOwner, holds_any: bool, table: &TableName) -> bool {
        let Some(e) = self.tables.get(table) else { return true };
        e.exclusive.is_none_or(|x| x == owner) && (holds_any || e.pending_exclusive == 0)
    }

    fn may_own(&self, owner: MdlOwner, table: &TableName) -> bool {
        let Some(e) = self.tables.get(table) else { return true };
        e.exclusive.is_none() && e.shared.iter().all(|s| *s == owner)
    }

    fn entry(&mut self, table: &TableName) -> &mut Entry {
        if !self.tables.contains_key(table) {
            self.tables.insert(table.clone(), Entry::default());
        }
        self.tables.get_mut(table).expect("inserted above")
    }

    fn forget_if_unused(&mut self, table: &TableName) {
        if self.tables.get(table).is_some_and(Entry::is_unused) {
            self.tables.remove(table);
        }
    }
}

/// The server's metadata locks.
#[derive(Default)]
pub struct MetadataLocks {
    state: Mutex<State>,
    changed: Condvar,
}

/// Exclusive locks held by a DDL; released on drop.
pub struct ExclusiveLocks<'a> {
    locks: &'a MetadataLocks,
    owner: MdlOwner,
    tables: Vec<TableName>,
}

impl Drop for ExclusiveLocks<'_> {
    fn drop(&mut self) {
        let mut st = self.locks.state.lock();
        for t in &self.tables {
            let e = st.entry(t);
            debug_assert_eq!(e.exclusive, Some(self.owner));
            e.exclusive = None;
            st.forget_if_unused(t);
        }
        self.locks.notify(st);
    }
}

fn lock_wait_timeout() -> SqlError {
    SqlError::new(ErrorCode::LOCK_WAIT_TIMEOUT, "Lock wait timeout exceeded; try restarting transaction")
}

/// How a request may wait: at most `timeout` (`lock_wait_timeout`); `guard`
/// ends the wait early (KILL, the statement's time limit); `on_wait` runs
/// once if it has to wait (the caller shows it in PROCESSLIST).
pub struct Wait<'a> {
    pub timeout: Duration,
    pub guard: &'a StatementGuard,
    pub on_wait: &'a mut dyn FnMut(),
}

impl MetadataLocks {
    /// Takes shared locks on `tables` for `owner` (those it holds already
    /// are kept).
    pub fn lock_shared(&self, owner: MdlOwner, tables: &[TableName], wait: Wait<'_>) -> SqlResult<()> {
        let mut st = self.state.lock();
        self.wait_for(&mut st, wait, |st| {
            let held = st.held.get(&owner);
            let wanted: Vec<&TableName> = tables.iter().filter(|t| !held.is_some_and(|h| h.contains(*t))).collect();
            let holds_any = held.is_some_and(|h| !h.is_empty());
            if !wanted.iter().all(|t| st.may_share(owner, holds_any, t)) {
                return false;
            }
            let wanted: Vec<TableName> = wanted.into_iter().cloned().collect();
            for t in &wanted {
                st.entry(t).shared.push(owner);
            }
            st.held.entry(owner).or_default().extend(wanted);
            true
        })
    }

    /// Takes exclusive locks on all of `tables` at once for a DDL, waiting
    /// at most `timeout` until no other owner holds any of them; new
    /// transactions wait behind it meanwhile.
    pub fn lock_exclusive(
        &self,
        owner: MdlOwner,
        tables: Vec<TableName>,
        wait: Wait<'_>,
    ) -> SqlResult<ExclusiveLocks<'_>> {
        let mut st = self.state.lock();
        for t in &tables {
            st.entry(t).pending_exclusive += 1;
        }
        let outcome = self.wait_for(&mut st, wait, |st| tables.iter().all(|t| st.may_own(owner, t)));
        for t in &tables {
            let e = st.entry(t);
            e.pending_exclusive -= 1;
            if outcome.is_ok() {
                e.exclusive = Some(owner);
            }
            st.forget_if_unused(t);
        }
        // A DDL that gave up no longer holds new transactions back.
        if outcome.is_err() {
            self.notify(st);
        }
        outcome.map(|()| ExclusiveLocks { locks: self, owner, tables })
    }

    /// Releases every shared table lock `owner` holds (its write intent and
    /// global read lock have releases of their own).
    pub fn release_all(&self, owner: MdlOwner) {
        let mut st = self.state.lock();
        for t in st.held.remove(&owner).unwrap_or_default() {
            st.entry(&t).shared.retain(|o| *o != owner);
            st.forget_if_unused(&t);
        }
        self.notify(st);
    }

    /// Takes the write intent a write statement or commit holds until it is
    /// published, waiting while a global read lock is held or (for an owner
    /// holding no lock yet) wanted.
    pub fn lock_write_intent(&self, owner: MdlOwner, wait: Wait<'_>) -> SqlResult<()> {
        let mut st = self.state.lock();
        self.wait_for(&mut st, wait, |st| {
            let holds_any = st.held.get(&owner).is_some_and(|h| !h.is_empty());
            let g = &mut st.global;
            let granted = g.writers.contains(&owner) || (g.readers.is_empty() && (holds_any || g.pending_readers == 0));
            if granted && !g.writers.contains(&owner) {
                g.writers.push(owner);
            }
            granted
        })
    }

    /// Releases `owner`'s write intent: its statement ended without a
    /// commit still to publish.
    pub fn release_write_intent(&self, owner: MdlOwner) {
        let mut st = self.state.lock();
        let before = st.global.writers.len();
        st.global.writers.retain(|o| *o != owner);
        if st.global.writers.len() != before {
            self.notify(st);
        }
    }

    /// FLUSH TABLES WITH READ LOCK: waits until no write intent is held,
    /// then holds every new one back until [`Self::release_global_read`].
    pub fn lock_global_read(&self, owner: MdlOwner, wait: Wait<'_>) -> SqlResult<()> {
        let mut st = self.state.lock();
        if st.global.readers.contains(&owner) {
            return Ok(());
        }
        st.global.pending_readers += 1;
        let outcome = self.wait_for(&mut st, wait, |st| st.global.writers.iter().all(|w| *w == owner));
        st.global.pending_readers -= 1;
        match outcome {
            Ok(()) => st.global.readers.push(owner),
            // A FTWRL that gave up no longer holds writers back.
            Err(_) => self.notify(st),
        }
        outcome
    }

    /// UNLOCK TABLES (or the session's end) after FTWRL.
    pub fn release_global_read(&self, owner: MdlOwner) {
        let mut st = self.state.lock();
        let before = st.global.readers.len();
        st.global.readers.retain(|o| *o != owner);
        if st.global.readers.len() != before {
            self.notify(st);
        }
    }

    /// Waits on the lock table until `grant` — which takes what it can and
    /// says whether it got it — succeeds, or the wait ends.
    fn wait_for(
        &self,
        st: &mut parking_lot::MutexGuard<'_, State>,
        wait: Wait<'_>,
        mut grant: impl FnMut(&mut State) -> bool,
    ) -> SqlResult<()> {
        let deadline = Instant::now() + wait.timeout;
        let mut waited = false;
        while !grant(st) {
            if !waited {
                waited = true;
                (wait.on_wait)();
            }
            self.wait(st, deadline, wait.guard)?;
        }
        Ok(())
    }

    fn wait(
        &self,
        st: &mut parking_lot::MutexGuard<'_, State>,
        deadline: Instant,
        guard: &StatementGuard,
    ) -> SqlResult<()> {
        st.waiting += 1;
        self.changed.wait_until(st, deadline.min(Instant::now() + KILL_POLL));
        st.waiting -= 1;
        if Instant::now() >= deadline {
            return Err(lock_wait_timeout());
        }
        guard.check()
    }

    fn notify(&self, st: parking_lot::MutexGuard<'_, State>) {
        let waiting = st.waiting > 0;
        drop(st);
        if waiting {
            self.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn t(name: &str) -> TableName {
        ("d".to_string(), name.to_string())
    }

    /// Runs a request that waits at most `timeout`, unkillable, unobserved.
    fn with_wait<R>(timeout: Duration, request: impl FnOnce(Wait<'_>) -> R) -> R {
        request(Wait { timeout, guard: &StatementGuard::unlimited(), on_wait: &mut || {} })
    }

    const SHORT: Duration = Duration::from_millis(30);
    const LONG: Duration = Duration::from_secs(10);

    fn shared(m: &MetadataLocks, owner: MdlOwner, tables: &[TableName], timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_shared(owner, tables, w))
    }

    fn exclusive(m: &MetadataLocks, owner: MdlOwner, tables: &[TableName], timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_exclusive(owner, tables.to_vec(), w).map(drop))
    }

    #[test]
    fn exclusive_waits_for_every_shared_holder() {
        let m = Arc::new(MetadataLocks::default());
        shared(&m, 1, &[t("a")], SHORT).unwrap();
        shared(&m, 2, &[t("a"), t("b")], SHORT).unwrap();
        assert_eq!(exclusive(&m, 9, &[t("a")], SHORT).map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
        // The DDL gave up: it holds nothing back any more.
        shared(&m, 3, &[t("a")], SHORT).unwrap();
        m.release_all(1);
        m.release_all(3);
        let ddl = {
            let m = m.clone();
            std::thread::spawn(move || exclusive(&m, 9, &[t("a")], LONG))
        };
        std::thread::sleep(SHORT);
        assert!(!ddl.is_finished(), "granted while owner 2 holds the table");
        m.release_all(2);
        ddl.join().unwrap().unwrap();
        assert!(m.state.lock().tables.is_empty(), "released locks leave no entries behind");
    }

    #[test]
    fn a_waiting_ddl_holds_back_new_owners_only() {
        let m = Arc::new(MetadataLocks::default());
        shared(&m, 1, &[t("a")], SHORT).unwrap();
        shared(&m, 2, &[t("b")], SHORT).unwrap();
        let ddl = {
            let m = m.clone();
            std::thread::spawn(move || {
                with_wait(LONG, |w| {
                    m.lock_exclusive(9, vec![t("a")], w).map(|held| {
                        std::thread::sleep(Duration::from_millis(100));
                        drop(held);
                    })
                })
            })
        };
        std::thread::sleep(SHORT);
        // A new owner waits behind the DDL...
        let err = shared(&m, 3, &[t("a")], SHORT).unwrap_err();
        assert_eq!(err.code, ErrorCode::LOCK_WAIT_TIMEOUT);
        // ...but one that already holds a lock is let through: it might
        // hold row locks the DDL's blockers wait for.
        shared(&m, 2, &[t("a")], SHORT).unwrap();
        m.release_all(1);
        m.release_all(2);
        // Once the DDL holds the table (for 100 ms), everyone waits.
        std::thread::sleep(SHORT);
        let asked = Instant::now();
        shared(&m, 3, &[t("a")], LONG).unwrap();
        assert!(asked.elapsed() >= Duration::from_millis(50), "granted while the DDL held the table");
        ddl.join().unwrap().unwrap();
    }

    #[test]
    fn a_ddl_takes_all_its_tables_at_once() {
        let m = Arc::new(MetadataLocks::default());
        shared(&m, 1, &[t("b")], SHORT).unwrap();
        let ddl = {
            let m = m.clone();
            std::thread::spawn(move || exclusive(&m, 9, &[t("a"), t("b")], LONG))
        };
        std::thread::sleep(SHORT);
        // While it waits for `b` it holds no lock on `a`: an owner holding
        // something reaches `a`, so no cycle can form through it.
        shared(&m, 1, &[t("a")], SHORT).unwrap();
        m.release_all(1);
        ddl.join().unwrap().unwrap();
    }

    fn intent(m: &MetadataLocks, owner: MdlOwner, timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_write_intent(owner, w))
    }

    fn global_read(m: &MetadataLocks, owner: MdlOwner, timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_global_read(owner, w))
    }

    #[test]
    fn the_global_read_lock_waits_for_writers_then_holds_them_back() {
        let m = Arc::new(MetadataLocks::default());
        intent(&m, 1, SHORT).unwrap();
        shared(&m, 2, &[t("a")], SHORT).unwrap();
        let ftwrl = {
            let m = m.clone();
            std::thread::spawn(move || global_read(&m, 9, LONG))
        };
        std::thread::sleep(SHORT);
        // Waiting for writer 1: new owners wait behind it, owners already
        // holding a lock (an open transaction's COMMIT) do not.
        assert_eq!(intent(&m, 3, SHORT).map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
        intent(&m, 2, SHORT).unwrap();
        m.release_write_intent(1);
        m.release_write_intent(2);
        ftwrl.join().unwrap().unwrap();
        // Held: every writer waits, readers share it.
        assert_eq!(intent(&m, 2, SHORT).map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
        global_read(&m, 8, SHORT).unwrap();
        m.release_global_read(9);
        assert_eq!(intent(&m, 3, SHORT).map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
        m.release_global_read(8);
        intent(&m, 3, SHORT).unwrap();
        // Table locks and the write intent are released apart.
        m.release_all(3);
        assert_eq!(global_read(&m, 9, SHORT).map_err(|e| e.code), Err(ErrorCode::LOCK_WAIT_TIMEOUT));
        m.release_write_intent(3);
        global_read(&m, 9, SHORT).unwrap();
    }

    #[test]
    fn kill_ends_a_metadata_lock_wait() {
        let m = MetadataLocks::default();
        shared(&m, 1, &[t("a")], SHORT).unwrap();
        let kill = Arc::new(crate::kill::KillFlag::default());
        let guard = StatementGuard::start(&kill, None);
        kill.kill_query();
        let mut waited = 0;
        let wait = Wait { timeout: LONG, guard: &guard, on_wait: &mut || waited += 1 };
        let err = m.lock_exclusive(9, vec![t("a")], wait).map(drop).unwrap_err();
        assert_eq!(err.code, ErrorCode::QUERY_INTERRUPTED);
        assert_eq!(waited, 1);
        shared(&m, 2, &[t("a")], SHORT).unwrap();
    }
}
