//! Ending a running statement early: `KILL QUERY` and `KILL [CONNECTION]`
//! from another session, and the statement time limits (MariaDB's
//! `max_statement_time`; MySQL's `max_execution_time`, SELECT only).
//!
//! Owns the per-connection [`KillFlag`] (shared between the session and its
//! PROCESSLIST entry, which KILL reaches) and the per-statement
//! [`StatementGuard`]. A statement calls [`StatementGuard::check`] for every
//! row it reads and at least every [`KILL_POLL`] while it waits (row locks,
//! `SLEEP()`), so KILL and a time limit end any of them within that bound.
//! A commit waiting for its binlog sync is not interrupted: it is already
//! being made durable. Calls nothing above `onelog-core`.

use onelog_core::{ErrorCode, SqlError, SqlResult};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How soon a waiting statement notices KILL or its time limit.
pub const KILL_POLL: Duration = Duration::from_millis(50);

/// The longest `max_statement_time` MariaDB accepts: one year, in seconds.
pub const MAX_STATEMENT_TIME_S: f64 = 31_536_000.0;

const RUNNING: u8 = 0;
const QUERY_KILLED: u8 = 1;
const CONNECTION_KILLED: u8 = 2;

/// What KILL asked of one connection.
#[derive(Debug, Default)]
pub struct KillFlag(AtomicU8);

impl KillFlag {
    /// KILL QUERY: ends the running statement. One that arrives while the
    /// connection is idle is forgotten when its next statement starts, as
    /// in MariaDB.
    pub fn kill_query(&self) {
        let _ = self.0.compare_exchange(RUNNING, QUERY_KILLED, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// KILL [CONNECTION]: ends the running statement and the connection.
    pub fn kill_connection(&self) {
        self.0.store(CONNECTION_KILLED, Ordering::Relaxed);
    }

    pub fn connection_killed(&self) -> bool {
        self.0.load(Ordering::Relaxed) == CONNECTION_KILLED
    }

    fn forget_query_kill(&self) {
        let _ = self.0.compare_exchange(QUERY_KILLED, RUNNING, Ordering::Relaxed, Ordering::Relaxed);
    }

    fn error(&self) -> Option<SqlError> {
        match self.0.load(Ordering::Relaxed) {
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
