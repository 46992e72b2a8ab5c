//! Ending a running statement early: `KILL QUERY` and `KILL [CONNECTION]`
//! from another session, and the statement time limits (MariaDB's
//! `max_statement_time`; MySQL's `max_execution_time`, SELECT only).
//!
//! Owns the per-connection [`KillFlag`] (shared between the session and its
//! PROCESSLIST entry, which KILL reaches) and the per-statement
//! [`StatementGuard`]. A statement calls [`StatementGuard::check`] for every
//! row it reads and at least every [`KILL_POLL`] while it waits (metadata
//! locks, `SLEEP()`), so KILL and a time limit end any of them within that
//! bound. A row-lock wait is woken by KILL itself
//! ([`StatementGuard::wake_on_kill`]) and sleeps until its time limit, so
//! hundreds of sessions queued on hot rows do not each wake twenty times a
//! second to look.
//! A commit waiting for its binlog sync is not interrupted: it is already
//! being made durable. Calls nothing above `onelog-core`.

use onelog_core::{ErrorCode, SqlError, SqlResult};
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How soon a waiting statement notices KILL or its time limit.
pub const KILL_POLL: Duration = Duration::from_millis(50);

/// How long a wait that KILL wakes ([`StatementGuard::wake_on_kill`])
/// sleeps before it looks at the flag itself: the backstop for a KILL that
/// lands between the waiter's last look at the flag and its parking (KILL
/// does not take the waiter's mutex, which belongs to the lock table).
pub const KILL_WAKE_BACKSTOP: Duration = Duration::from_secs(1);

/// The longest `max_statement_time` MariaDB accepts: one year, in seconds.
pub const MAX_STATEMENT_TIME_S: f64 = 31_536_000.0;

const RUNNING: u8 = 0;
const QUERY_KILLED: u8 = 1;
const CONNECTION_KILLED: u8 = 2;

/// What KILL asked of one connection.
#[derive(Debug, Default)]
pub struct KillFlag {
    state: AtomicU8,
    /// The condvar the connection's statement sleeps on while KILL is to
    /// wake it (a row-lock wait).
    waiter: Mutex<Option<Arc<Condvar>>>,
}

impl KillFlag {
    /// KILL QUERY: ends the running statement. One that arrives while the
    /// connection is idle is forgotten when its next statement starts, as
    /// in MariaDB.
    pub fn kill_query(&self) {
        let _ = self.state.compare_exchange(RUNNING, QUERY_KILLED, Ordering::SeqCst, Ordering::SeqCst);
        self.wake_waiter();
    }

    /// KILL [CONNECTION]: ends the running statement and the connection.
    pub fn kill_connection(&self) {
        self.state.store(CONNECTION_KILLED, Ordering::SeqCst);
        self.wake_waiter();
    }

    pub fn connection_killed(&self) -> bool {
        self.state.load(Ordering::SeqCst) == CONNECTION_KILLED
    }

    fn wake_waiter(&self) {
        if let Some(wake) = self.waiter.lock().as_ref() {
            wake.notify_all();
        }
    }

    fn forget_query_kill(&self) {
        let _ = self.state.compare_exchange(QUERY_KILLED, RUNNING, Ordering::SeqCst, Ordering::SeqCst);
    }

    fn error(&self) -> Option<SqlError> {
        match self.state.load(Ordering::SeqCst) {
            QUERY_KILLED => Some(SqlError::new(ErrorCode::QUERY_INTERRUPTED, "Query execution was interrupted")),
            CONNECTION_KILLED => Some(SqlError::new(ErrorCode::CONNECTION_KILLED, "Connection was killed")),
            _ => None,
        }
    }
}

/// Which limit a statement runs under, for its error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeLimit {
    /// MariaDB's `max_statement_time` (seconds, any statement).
    MaxStatementTime,
    /// MySQL's `max_execution_time` (milliseconds, SELECT).
    MaxExecutionTime,
}

impl TimeLimit {
    fn error(self) -> SqlError {
        match self {
            TimeLimit::MaxStatementTime => SqlError::new(
                ErrorCode::STATEMENT_TIMEOUT,
                "Query execution was interrupted (max_statement_time exceeded)",
            ),
            TimeLimit::MaxExecutionTime => SqlError::new(
                ErrorCode::QUERY_TIMEOUT,
                "Query execution was interrupted, maximum statement execution time exceeded",
            ),
        }
    }
}

/// What may end the running statement early.
#[derive(Debug, Clone)]
pub struct StatementGuard {
    kill: Arc<KillFlag>,
    deadline: Option<(Instant, TimeLimit)>,
}

impl StatementGuard {
    /// A guard for work no KILL or limit reaches (recovery, tests).
    pub fn unlimited() -> StatementGuard {
        StatementGuard { kill: Arc::default(), deadline: None }
    }

    /// The guard of a statement starting now: forgets a KILL QUERY that
    /// arrived while the connection was idle; `limit` is the shortest time
    /// limit that applies, if any.
    pub fn start(kill: &Arc<KillFlag>, limit: Option<(Duration, TimeLimit)>) -> StatementGuard {
        kill.forget_query_kill();
        let deadline = limit.map(|(after, which)| (Instant::now() + after, which));
        StatementGuard { kill: kill.clone(), deadline }
    }

    /// Error 1317 after KILL QUERY, 1927 after KILL CONNECTION, 1969/3024
    /// once the time limit has passed.
    pub fn check(&self) -> SqlResult<()> {
        if let Some(e) = self.kill.error() {
            return Err(e);
        }
        match self.deadline {
            Some((at, which)) if Instant::now() >= at => Err(which.error()),
            _ => Ok(()),
        }
    }

    /// When a wait that KILL wakes must look up by itself: at its own
    /// `deadline`, the statement's time limit, or the backstop.
    pub fn wake_by(&self, deadline: Instant) -> Instant {
        let limit = self.deadline.map_or(deadline, |(at, _)| at.min(deadline));
        limit.min(Instant::now() + KILL_WAKE_BACKSTOP)
    }

    /// Until the returned registration is dropped, KILL of this statement
    /// notifies `wake`. Register before the last [`StatementGuard::check`]
    /// ahead of the wait and wait at most until [`StatementGuard::wake_by`].
    pub fn wake_on_kill(&self, wake: &Arc<Condvar>) -> KillWakeRegistration<'_> {
        *self.kill.waiter.lock() = Some(wake.clone());
        KillWakeRegistration { flag: &self.kill }
    }

    /// Sleeps for `duration` (SLEEP()), checking every [`KILL_POLL`].
    pub fn sleep(&self, duration: Duration) -> SqlResult<()> {
        let until = Instant::now() + duration;
        let _waiting = crate::wait::begin(crate::wait::WaitReason::Sleep);
        loop {
            self.check()?;
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(());
            }
            std::thread::sleep(left.min(KILL_POLL));
        }
    }
}

/// A statement's wait that KILL wakes; see [`StatementGuard::wake_on_kill`].
pub struct KillWakeRegistration<'a> {
    flag: &'a KillFlag,
}

impl Drop for KillWakeRegistration<'_> {
    fn drop(&mut self) {
        *self.flag.waiter.lock() = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kill_query_ends_the_running_statement_only() {
        let flag = Arc::new(KillFlag::default());
        let guard = StatementGuard::start(&flag, None);
        assert!(guard.check().is_ok());
        flag.kill_query();
        assert_eq!(guard.check().map_err(|e| e.code.number), Err(1317));
        // The next statement starts afresh.
        assert!(StatementGuard::start(&flag, None).check().is_ok());
        assert!(!flag.connection_killed());
    }

    #[test]
    fn kill_connection_outlasts_the_statement() {
        let flag = Arc::new(KillFlag::default());
        flag.kill_connection();
        flag.kill_query();
        assert!(flag.connection_killed());
        let next = StatementGuard::start(&flag, None);
        assert_eq!(next.check().map_err(|e| e.code.number), Err(1927));
    }

    #[test]
    fn time_limit_ends_a_sleep_early() {
        let flag = Arc::new(KillFlag::default());
        let guard = StatementGuard::start(&flag, Some((Duration::from_millis(30), TimeLimit::MaxStatementTime)));
        let started = Instant::now();
        let err = guard.sleep(Duration::from_secs(5)).expect_err("limit ends the sleep");
        assert_eq!(err.code.number, 1969);
        assert!(started.elapsed() < Duration::from_secs(2));
        let select = StatementGuard::start(&flag, Some((Duration::ZERO, TimeLimit::MaxExecutionTime)));
        assert_eq!(select.check().map_err(|e| e.code.number), Err(3024));
    }
}
