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
//! LOCK TABLES takes all its tables at once too, as table locks the session
//! keeps across statements and transactions until UNLOCK TABLES: a WRITE
//! lock is an exclusive lock, a READ lock lets other owners read the table
//! but not write it (shared locks record whether their statement writes).
//! The session then uses no other table, so while it holds them it waits
//! only for locks it is compatible with; a pending READ lock holds back
//! new writers as a pending DDL holds back new owners. A session holding
//! table locks or the global read lock counts as holding a lock for those
//! rules.
//!
//! The global read lock (FLUSH TABLES WITH READ LOCK) follows the same
//! rules: every write statement and commit holds a *write intent* from its
//! start until it is published; FTWRL waits until none is held (holding new
//! owners back meanwhile) and then holds every writer back until UNLOCK
//! TABLES. Several sessions may hold it at once, as in MariaDB. A DDL takes
//! its write intent before its table locks, so FTWRL never waits for a DDL
//! that waits for a table FTWRL's holder reads. LOCK TABLES ... WRITE
//! counts as a write intent from its grant to UNLOCK TABLES, for the same
//! reason: FTWRL's holder never waits for a table a writer keeps.

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
    /// The owners in `shared` whose statements write the table.
    writing: Vec<MdlOwner>,
    /// A DDL's lock, or a LOCK TABLES ... WRITE.
    exclusive: Option<MdlOwner>,
    /// LOCK TABLES ... READ holders: no other owner may write the table.
    read_locked: Vec<MdlOwner>,
    /// DDLs and LOCK TABLES ... WRITE waiting for this table.
    pending_exclusive: u32,
    /// LOCK TABLES ... READ waiting for this table's writers.
    pending_read_lock: u32,
}

impl Entry {
    fn is_unused(&self) -> bool {
        self.shared.is_empty()
            && self.exclusive.is_none()
            && self.read_locked.is_empty()
            && self.pending_exclusive == 0
            && self.pending_read_lock == 0
    }
}

/// A table a statement or LOCK TABLES locks, and whether it writes it.
pub type TableUse = (TableName, bool);

/// The global read lock and the write intents it conflicts with.
#[derive(Debug, Default)]
struct Global {
    writers: Vec<MdlOwner>,
    /// LOCK TABLES ... WRITE holders: writers until UNLOCK TABLES.
    table_lock_writers: Vec<MdlOwner>,
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
    /// The tables each owner holds with LOCK TABLES.
    table_locks: HashMap<MdlOwner, Vec<TableUse>>,
    /// Sessions blocked on `changed`; releases notify only when there are some.
    waiting: usize,
}

impl State {
    /// Whether `owner` holds any metadata lock — a table's, LOCK TABLES' or
    /// the global read lock: then no pending request may hold it back (see
    /// the module doc).
    fn holds_any(&self, owner: MdlOwner) -> bool {
        self.held.get(&owner).is_some_and(|h| !h.is_empty())
            || self.table_locks.contains_key(&owner)
            || self.global.readers.contains(&owner)
    }

    fn holds(&self, owner: MdlOwner, (table, write): &TableUse) -> bool {
        let shared = self.held.get(&owner).is_some_and(|h| h.contains(table));
        shared && (!write || self.tables.get(table).is_some_and(|e| e.writing.contains(&owner)))
    }

    fn may_share(&self, owner: MdlOwner, holds_any: bool, (table, write): &TableUse) -> bool {
        let Some(e) = self.tables.get(table) else { return true };
        let others_read_lock = *write && e.read_locked.iter().any(|x| *x != owner);
        e.exclusive.is_none_or(|x| x == owner)
            && !others_read_lock
            && (holds_any || (e.pending_exclusive == 0 && (!write || e.pending_read_lock == 0)))
    }

    fn may_own(&self, owner: MdlOwner, table: &TableName) -> bool {
        let Some(e) = self.tables.get(table) else { return true };
        e.exclusive.is_none() && e.shared.iter().all(|s| *s == owner) && e.read_locked.iter().all(|s| *s == owner)
    }

    /// LOCK TABLES ... READ: no other owner writes the table or holds it
    /// exclusively, and (for a new owner) no DDL waits for it.
    fn may_read_lock(&self, owner: MdlOwner, holds_any: bool, table: &TableName) -> bool {
        let Some(e) = self.tables.get(table) else { return true };
        e.exclusive.is_none() && e.writing.iter().all(|s| *s == owner) && (holds_any || e.pending_exclusive == 0)
    }

    /// LOCK TABLES ... WRITE is a writer for FTWRL: none held or (for a new
    /// owner) wanted.
    fn may_write_lock(&self, owner: MdlOwner, holds_any: bool) -> bool {
        let g = &self.global;
        g.readers.iter().all(|r| *r == owner) && (holds_any || g.pending_readers == 0)
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
    /// The tables of `db` (all databases when `None`) that some owner
    /// holds — for a statement, a transaction, a DDL or LOCK TABLES —
    /// with how many owners hold each: what SHOW OPEN TABLES lists, OneLog
    /// having no table cache of unused tables.
    pub fn tables_in_use(&self, db: Option<&str>) -> Vec<(TableName, usize)> {
        let st = self.state.lock();
        let mut tables: Vec<(TableName, usize)> = st
            .tables
            .iter()
            .filter(|((table_db, _), _)| db.is_none_or(|d| d == table_db))
            .filter_map(|(name, e)| {
                let mut owners: Vec<MdlOwner> =
                    e.shared.iter().chain(&e.read_locked).chain(&e.exclusive).copied().collect();
                owners.sort_unstable();
                owners.dedup();
                (!owners.is_empty()).then(|| (name.clone(), owners.len()))
            })
            .collect();
        tables.sort();
        tables
    }

    /// Takes shared locks on `tables` for `owner`, marked as writing where
    /// the statement writes the table (those it holds already are kept; a
    /// read lock it holds becomes a writing one).
    pub fn lock_shared(&self, owner: MdlOwner, tables: &[TableUse], wait: Wait<'_>) -> SqlResult<()> {
        let mut st = self.state.lock();
        self.wait_for(&mut st, wait, |st| {
            let wanted: Vec<&TableUse> = tables.iter().filter(|t| !st.holds(owner, t)).collect();
            let holds_any = st.holds_any(owner);
            if !wanted.iter().all(|t| st.may_share(owner, holds_any, t)) {
                return false;
            }
            for (table, write) in wanted {
                let held = st.held.entry(owner).or_default();
                let new = !held.contains(table);
                if new {
                    held.push(table.clone());
                }
                let e = st.entry(table);
                if new {
                    e.shared.push(owner);
                }
                if *write {
                    e.writing.push(owner);
                }
            }
            true
        })
    }

    /// LOCK TABLES: takes all of `tables` at once for `owner` (which holds
    /// no other table lock), READ or WRITE, waiting at most the timeout.
    /// They are held until [`Self::release_table_locks`].
    pub fn lock_tables(&self, owner: MdlOwner, tables: Vec<TableUse>, wait: Wait<'_>) -> SqlResult<()> {
        let mut st = self.state.lock();
        debug_assert!(!st.table_locks.contains_key(&owner), "LOCK TABLES releases the previous locks first");
        let pending = |st: &mut State, delta: i32| {
            for (t, write) in &tables {
                let e = st.entry(t);
                let counter = if *write { &mut e.pending_exclusive } else { &mut e.pending_read_lock };
                *counter = counter.checked_add_signed(delta).expect("pending counts balance");
            }
        };
        pending(&mut st, 1);
        let any_write = tables.iter().any(|(_, write)| *write);
        let outcome =
            self.wait_for(&mut st, wait, |st| {
                let holds_any = st.holds_any(owner);
                (!any_write || st.may_write_lock(owner, holds_any))
                    && tables.iter().all(|(t, write)| {
                        if *write {
                            st.may_own(owner, t)
                        } else {
                            st.may_read_lock(owner, holds_any, t)
                        }
                    })
            });
        pending(&mut st, -1);
        if outcome.is_ok() {
            for (t, write) in &tables {
                let e = st.entry(t);
                if *write {
                    e.exclusive = Some(owner);
                } else {
                    e.read_locked.push(owner);
                }
            }
            if any_write {
                st.global.table_lock_writers.push(owner);
            }
            st.table_locks.insert(owner, tables);
        } else {
            for (t, _) in &tables {
                st.forget_if_unused(t);
            }
            // A request that gave up no longer holds anyone back.
            self.notify(st);
        }
        outcome
    }

    /// UNLOCK TABLES (or the session's end) after LOCK TABLES.
    pub fn release_table_locks(&self, owner: MdlOwner) {
        let mut st = self.state.lock();
        let Some(tables) = st.table_locks.remove(&owner) else { return };
        for (t, write) in &tables {
            let e = st.entry(t);
            if *write {
                debug_assert_eq!(e.exclusive, Some(owner));
                e.exclusive = None;
            } else {
                e.read_locked.retain(|o| *o != owner);
            }
            st.forget_if_unused(t);
        }
        st.global.table_lock_writers.retain(|o| *o != owner);
        self.notify(st);
    }

    /// A table LOCK TABLES held WRITE that the holder's own DDL dropped or
    /// renamed: its lock goes, the session's other table locks stay (as in
    /// MariaDB, which then reports the old name as not locked).
    pub fn release_table_lock(&self, owner: MdlOwner, table: &TableName) {
        let mut st = self.state.lock();
        let Some(tables) = st.table_locks.get_mut(&owner) else { return };
        let Some(at) = tables.iter().position(|(t, _)| t == table) else { return };
        let (t, write) = tables.remove(at);
        let still_writes = tables.iter().any(|(_, w)| *w);
        let e = st.entry(&t);
        if write {
            debug_assert_eq!(e.exclusive, Some(owner));
            e.exclusive = None;
        } else {
            e.read_locked.retain(|o| *o != owner);
        }
        st.forget_if_unused(&t);
        if !still_writes {
            st.global.table_lock_writers.retain(|o| *o != owner);
        }
        self.notify(st);
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
            let e = st.entry(&t);
            e.shared.retain(|o| *o != owner);
            e.writing.retain(|o| *o != owner);
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
            let holds_any = st.holds_any(owner);
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
        let outcome = self.wait_for(&mut st, wait, |st| {
            let g = &st.global;
            g.writers.iter().chain(&g.table_lock_writers).all(|w| *w == owner)
        });
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
        let waiting = crate::wait::begin(crate::wait::WaitReason::MetaDataLock);
        self.changed.wait_until(st, deadline.min(Instant::now() + KILL_POLL));
        drop(waiting);
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
        let reads: Vec<TableUse> = tables.iter().map(|t| (t.clone(), false)).collect();
        with_wait(timeout, |w| m.lock_shared(owner, &reads, w))
    }

    fn writing(m: &MetadataLocks, owner: MdlOwner, table: TableName, timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_shared(owner, &[(table, true)], w))
    }

    fn lock_tables(m: &MetadataLocks, owner: MdlOwner, tables: &[TableUse], timeout: Duration) -> SqlResult<()> {
        with_wait(timeout, |w| m.lock_tables(owner, tables.to_vec(), w))
    }

    fn timed_out(outcome: SqlResult<()>) -> bool {
        outcome.is_err_and(|e| e.code == ErrorCode::LOCK_WAIT_TIMEOUT)
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
    fn a_read_lock_keeps_writers_out_and_lets_readers_in() {
        let m = Arc::new(MetadataLocks::default());
        writing(&m, 1, t("a"), SHORT).unwrap();
        // It waits for the writer; a new writer waits behind it, one
        // already holding a lock does not.
        let lock = {
            let m = m.clone();
            std::thread::spawn(move || lock_tables(&m, 9, &[(t("a"), false), (t("b"), false)], LONG))
        };
        std::thread::sleep(SHORT);
        assert!(timed_out(writing(&m, 2, t("a"), SHORT)));
        shared(&m, 3, &[t("a")], SHORT).unwrap();
        writing(&m, 3, t("a"), SHORT).unwrap();
        m.release_all(1);
        std::thread::sleep(SHORT);
        assert!(!lock.is_finished(), "granted while owner 3 writes the table");
        m.release_all(3);
        lock.join().unwrap().unwrap();
        // Held: readers and other READ locks share it; writers and DDL wait.
        shared(&m, 2, &[t("a")], SHORT).unwrap();
        assert!(timed_out(writing(&m, 2, t("a"), SHORT)), "a reader cannot start writing");
        lock_tables(&m, 8, &[(t("a"), false)], SHORT).unwrap();
        assert!(timed_out(exclusive(&m, 7, &[t("b")], SHORT)));
        // The holder's own statements read its tables.
        shared(&m, 9, &[t("a"), t("b")], SHORT).unwrap();
        m.release_all(9);
        m.release_table_locks(9);
        assert!(timed_out(writing(&m, 4, t("a"), SHORT)), "owner 8 still holds a READ lock");
        m.release_table_locks(8);
        writing(&m, 4, t("a"), SHORT).unwrap();
        exclusive(&m, 7, &[t("b")], SHORT).unwrap();
        m.release_all(2);
        m.release_all(4);
        assert!(m.state.lock().tables.is_empty(), "released locks leave no entries behind");
    }

    #[test]
    fn a_write_lock_is_exclusive_and_a_writer_for_the_global_read_lock() {
        let m = Arc::new(MetadataLocks::default());
        shared(&m, 1, &[t("a")], SHORT).unwrap();
        assert!(timed_out(lock_tables(&m, 9, &[(t("a"), true)], SHORT)));
        m.release_all(1);
        lock_tables(&m, 9, &[(t("a"), true)], SHORT).unwrap();
        assert!(timed_out(shared(&m, 2, &[t("a")], SHORT)));
        writing(&m, 9, t("a"), SHORT).unwrap();
        m.release_all(9);
        // FTWRL waits for the WRITE lock; LOCK TABLES ... WRITE for FTWRL.
        assert!(timed_out(global_read(&m, 8, SHORT)));
        m.release_table_locks(9);
        global_read(&m, 8, SHORT).unwrap();
        lock_tables(&m, 9, &[(t("b"), false)], SHORT).unwrap();
        m.release_table_locks(9);
        let lock = {
            let m = m.clone();
            std::thread::spawn(move || lock_tables(&m, 9, &[(t("a"), true)], LONG))
        };
        std::thread::sleep(SHORT);
        // FTWRL's holder reads past the WRITE lock waiting for it.
        shared(&m, 8, &[t("a")], SHORT).unwrap();
        assert!(timed_out(shared(&m, 2, &[t("a")], SHORT)), "a new owner waits behind the WRITE lock");
        m.release_all(8);
        m.release_global_read(8);
        lock.join().unwrap().unwrap();
        m.release_table_locks(9);
        assert!(m.state.lock().tables.is_empty(), "released locks leave no entries behind");
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
