//! Connection accounting, shared by the server (which admits and refuses
//! connections) and SQL (SHOW STATUS, FLUSH HOSTS, FLUSH SSL):
//!
//! - `max_connections`: at most `max_connections + 1` connections are
//!   admitted at all; the last one only for an account with the admin
//!   privilege (see [`Connections::over_limit_after_login`]), as MariaDB
//!   keeps one for SUPER / CONNECTION ADMIN.
//! - `max_user_connections` (global): connections per account.
//! - The host cache: handshake errors per client address, which block the
//!   address once `max_connect_errors` is reached, until FLUSH HOSTS; and
//!   consecutive failed logins, which delay the next refusal.
//! - Per-account hourly limits (MAX_QUERIES_PER_HOUR, MAX_UPDATES_PER_HOUR,
//!   MAX_CONNECTIONS_PER_HOUR): what each account with one used in its
//!   current hour, until FLUSH USER_RESOURCES.
//! - The status counters of all of it.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How much longer each consecutive failed login from one address waits
/// before its refusal is sent, and the most it waits: password guessing
/// from one address gets slow, a mistyped password costs a moment.
pub const FAILED_LOGIN_DELAY_STEP: Duration = Duration::from_millis(100);
pub const FAILED_LOGIN_DELAY_MAX: Duration = Duration::from_secs(2);

/// The TLS parameters of a session's connection (SHOW STATUS LIKE 'Ssl_%').
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSession {
    /// `TLSv1.2` or `TLSv1.3`.
    pub version: &'static str,
    /// The cipher suite in OpenSSL's spelling, as MariaDB shows it.
    pub cipher: &'static str,
    /// The certificate the client sent, verified against --ssl-ca (the
    /// handshake fails on one that does not verify): what REQUIRE X509
    /// asks for, and what REQUIRE ISSUER / SUBJECT compare.
    pub client_certificate: Option<CertificateNames>,
}

/// A certificate's issuer and subject in OpenSSL's one-line form
/// (`/C=US/O=Org/CN=name`), the form MariaDB compares REQUIRE ISSUER and
/// SUBJECT with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CertificateNames {
    pub issuer: String,
    pub subject: String,
}

/// Reloads the server's certificates (FLUSH SSL); set by the server.
pub type TlsReloader = Box<dyn Fn() -> Result<(), String> + Send + Sync>;

#[derive(Default)]
pub struct Connections {
    /// Admitted connections, from accept to close (Threads_connected).
    connected: Arc<AtomicU64>,
    max_used: AtomicU64,
    errors_max_connections: AtomicU64,
    errors_accept: AtomicU64,
    aborted_connects: AtomicU64,
    tls_accepts: AtomicU64,
    tls_finished_accepts: AtomicU64,
    /// Connections per account (`user@host` of the account).
    per_account: Arc<Mutex<HashMap<String, u64>>>,
    hosts: Mutex<HashMap<String, HostEntry>>,
    /// By account (`user@host`), only for accounts with an hourly limit.
    hourly: Mutex<HashMap<String, HourlyUse>>,
    tls_reloader: OnceLock<TlsReloader>,
    /// The server's thread cache: threads waiting for a connection, and
    /// connection threads created (Threads_cached, Threads_created).
    pub threads_cached: AtomicU64,
    pub threads_created: AtomicU64,
}

#[derive(Default)]
struct HostEntry {
    /// Handshake errors since the last successful login (MariaDB's
    /// SUM_CONNECT_ERRORS).
    handshake_errors: u64,
    /// Failed logins in a row.
    failed_logins: u32,
}

/// What an account used in its current hour, as MariaDB's USER_CONN
/// counts it: an hour after `since` the counts start again.
struct HourlyUse {
    since: Instant,
    queries: u64,
    updates: u64,
    logins: u64,
}

const HOUR: Duration = Duration::from_secs(3600);

/// An hourly resource an account ran out of: MariaDB's name for it, and
/// the account's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitReached {
    pub resource: &'static str,
    pub limit: u64,
}

/// Counts one use against `limit` (0: none) as MariaDB does: refused
/// once `limit` uses were counted, the refused one counted too.
fn count_use(used: &mut u64, limit: u64, resource: &'static str) -> Result<(), LimitReached> {
    let before = *used;
    *used += 1;
    if limit > 0 && before >= limit {
        return Err(LimitReached { resource, limit });
    }
    Ok(())
}

/// An admitted connection's place in `Threads_connected`; dropping it
/// frees the place.
pub struct ConnectionSlot {
    connected: Arc<AtomicU64>,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.connected.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A logged-in connection's place in its account's count.
pub struct AccountSlot {
    per_account: Arc<Mutex<HashMap<String, u64>>>,
    account: String,
}

impl Drop for AccountSlot {
    fn drop(&mut self) {
        let mut counts = self.per_account.lock();
        if let Some(n) = counts.get_mut(&self.account) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.account);
            }
        }
    }
}

/// Addresses MariaDB never blocks: the loopback address (and the socket,
/// which has none).
fn never_blocked(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "::1" | "::ffff:127.0.0.1")
}

impl Connections {
    /// Admits a new connection unless `max_connections + 1` are open
    /// (MariaDB's check at accept; the extra one is the admin's, checked
    /// after login). A refusal counts in Connection_errors_max_connections
    /// and Aborted_connects.
    pub fn admit(&self, max_connections: u64) -> Option<ConnectionSlot> {
        let admitted = self
            .connected
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n <= max_connections).then_some(n + 1));
        match admitted {
            Ok(before) => {
                self.max_used.fetch_max(before + 1, Ordering::Relaxed);
                Some(ConnectionSlot { connected: self.connected.clone() })
            }
            Err(_) => {
                // MariaDB counts these in Aborted_connects too.
                self.errors_max_connections.fetch_add(1, Ordering::Relaxed);
                self.aborted_connects.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// After login: an account without the admin privilege may not take
    /// the extra connection (error 1040 then, as in MariaDB).
    pub fn over_limit_after_login(&self, max_connections: u64, admin: bool) -> bool {
        !admin && self.connected.load(Ordering::Acquire) > max_connections
    }

    /// Counts a login for `account` against `max_user_connections` (0: no
    /// limit); `None` when the account has that many already.
    pub fn admit_account(&self, account: &str, max_user_connections: u64) -> Option<AccountSlot> {
        let mut counts = self.per_account.lock();
        let n = counts.entry(account.to_string()).or_default();
        if max_user_connections > 0 && *n >= max_user_connections {
            if *n == 0 {
                counts.remove(account);
            }
            return None;
        }
        *n += 1;
        Some(AccountSlot { per_account: self.per_account.clone(), account: account.to_string() })
    }

    /// Runs `count` on `account`'s use in its current hour.
    fn in_hour<T>(&self, account: &str, count: impl FnOnce(&mut HourlyUse) -> T) -> T {
        let mut hourly = self.hourly.lock();
        let fresh = || HourlyUse { since: Instant::now(), queries: 0, updates: 0, logins: 0 };
        let used = hourly.entry(account.to_string()).or_insert_with(fresh);
        if used.since.elapsed() >= HOUR {
            *used = fresh();
        }
        count(used)
    }

    /// Counts a login against MAX_CONNECTIONS_PER_HOUR (`limit` > 0); a
    /// refused login is not counted, as in MariaDB.
    pub fn count_login_in_hour(&self, account: &str, limit: u64) -> Result<(), LimitReached> {
        self.in_hour(account, |used| {
            if used.logins >= limit {
                return Err(LimitReached { resource: "max_connections_per_hour", limit });
            }
            used.logins += 1;
            Ok(())
        })
    }

    /// Counts a statement against MAX_QUERIES_PER_HOUR and, when it
    /// `changes` data, schema or accounts, MAX_UPDATES_PER_HOUR (0: no
    /// limit; at least one is set).
    pub fn count_statement_in_hour(
        &self,
        account: &str,
        queries_limit: u64,
        updates_limit: u64,
        changes: bool,
    ) -> Result<(), LimitReached> {
        self.in_hour(account, |used| {
            count_use(&mut used.queries, queries_limit, "max_queries_per_hour")?;
            if changes {
                count_use(&mut used.updates, updates_limit, "max_updates_per_hour")?;
            }
            Ok(())
        })
    }

    /// FLUSH USER_RESOURCES: every account's hour starts again.
    pub fn flush_user_resources(&self) {
        self.hourly.lock().clear();
    }

    /// Whether `host` reached `max_connect_errors` handshake errors.
    pub fn host_blocked(&self, host: &str, max_connect_errors: u64) -> bool {
        self.hosts.lock().get(host).is_some_and(|h| h.handshake_errors >= max_connect_errors)
    }

    /// A connection from `host` failed before its login was decided (it
    /// closed, timed out or sent a bad packet).
    pub fn handshake_error(&self, host: &str) {
        self.aborted_connects.fetch_add(1, Ordering::Relaxed);
        if !never_blocked(host) {
            self.hosts.lock().entry(host.to_string()).or_default().handshake_errors += 1;
        }
    }

    /// A login from `host` was refused (wrong password, limits): counts in
    /// Aborted_connects. Returns how long to wait before saying so.
    pub fn login_failed(&self, host: &str) -> Duration {
        self.aborted_connects.fetch_add(1, Ordering::Relaxed);
        let mut hosts = self.hosts.lock();
        let entry = hosts.entry(host.to_string()).or_default();
        entry.failed_logins = entry.failed_logins.saturating_add(1);
        (FAILED_LOGIN_DELAY_STEP * entry.failed_logins).min(FAILED_LOGIN_DELAY_MAX)
    }

    /// A login from `host` succeeded: its error counts start over, as in
    /// MariaDB.
    pub fn login_succeeded(&self, host: &str) {
        self.hosts.lock().remove(host);
    }

    /// A connection was refused before its handshake for another reason
    /// than `max_connections` (a blocked host).
    pub fn refused(&self) {
        self.aborted_connects.fetch_add(1, Ordering::Relaxed);
    }

    /// accept() failed (Connection_errors_accept).
    pub fn accept_failed(&self) {
        self.errors_accept.fetch_add(1, Ordering::Relaxed);
    }

    /// A client asked for TLS (Ssl_accepts) and, with `finished`, got it
    /// (Ssl_finished_accepts).
    pub fn tls_accepted(&self, finished: bool) {
        self.tls_accepts.fetch_add(1, Ordering::Relaxed);
        if finished {
            self.tls_finished_accepts.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// FLUSH HOSTS: forgets every address's errors, unblocking them.
    pub fn flush_hosts(&self) {
        self.hosts.lock().clear();
    }

    /// The server's hook for FLUSH SSL (set once at start-up).
    pub fn set_tls_reloader(&self, reload: TlsReloader) {
        // Set once by the server; a second call keeps the first.
        let _ = self.tls_reloader.set(reload);
    }

    /// FLUSH SSL: `Ok(false)` when the server has no TLS to reload.
    pub fn reload_tls(&self) -> Result<bool, String> {
        match self.tls_reloader.get() {
            Some(reload) => reload().map(|()| true),
            None => Ok(false),
        }
    }

    /// The global status counters, by MariaDB's names.
    pub fn status(&self) -> [(&'static str, u64); 9] {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        [
            ("Aborted_connects", get(&self.aborted_connects)),
            ("Connection_errors_accept", get(&self.errors_accept)),
            ("Connection_errors_max_connections", get(&self.errors_max_connections)),
            ("Max_used_connections", get(&self.max_used)),
            ("Ssl_accepts", get(&self.tls_accepts)),
            ("Ssl_finished_accepts", get(&self.tls_finished_accepts)),
            ("Threads_cached", get(&self.threads_cached)),
            ("Threads_connected", get(&self.connected)),
            ("Threads_created", get(&self.threads_created)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_extra_connection_and_only_for_the_admin() {
        let c = Connections::default();
        let slots: Vec<_> = (0..3).filter_map(|_| c.admit(2)).collect();
        assert_eq!(slots.len(), 3, "max_connections + 1 are admitted");
        assert!(c.admit(2).is_none());
        assert!(c.over_limit_after_login(2, false));
        assert!(!c.over_limit_after_login(2, true));
        drop(slots);
        assert!(c.admit(2).is_some());
        let status: HashMap<_, _> = c.status().into_iter().collect();
        assert_eq!(status["Connection_errors_max_connections"], 1);
        assert_eq!(status["Aborted_connects"], 1);
        assert_eq!(status["Max_used_connections"], 3);
        assert_eq!(status["Threads_connected"], 0, "the last slot was dropped");
    }

    #[test]
    fn per_account_limit() {
        let c = Connections::default();
        let a = c.admit_account("u@%", 2);
        let b = c.admit_account("u@%", 2);
        assert!(a.is_some() && b.is_some());
        assert!(c.admit_account("u@%", 2).is_none());
        assert!(c.admit_account("v@%", 2).is_some());
        drop(a);
        assert!(c.admit_account("u@%", 2).is_some());
        assert!(c.admit_account("u@%", 0).is_some(), "0 is no limit");
    }

    #[test]
    fn handshake_errors_block_until_flush_hosts_and_loopback_never() {
        let c = Connections::default();
        for _ in 0..3 {
            assert!(!c.host_blocked("10.0.0.7", 3));
            c.handshake_error("10.0.0.7");
            c.handshake_error("127.0.0.1");
        }
        assert!(c.host_blocked("10.0.0.7", 3));
        assert!(!c.host_blocked("127.0.0.1", 3));
        c.flush_hosts();
        assert!(!c.host_blocked("10.0.0.7", 3));
        c.handshake_error("10.0.0.7");
        c.login_succeeded("10.0.0.7");
        c.handshake_error("10.0.0.7");
        assert!(!c.host_blocked("10.0.0.7", 2), "a login starts the count over");
    }

    #[test]
    fn failed_logins_wait_longer_up_to_a_bound() {
        let c = Connections::default();
        assert_eq!(c.login_failed("10.0.0.7"), FAILED_LOGIN_DELAY_STEP);
        assert_eq!(c.login_failed("10.0.0.7"), FAILED_LOGIN_DELAY_STEP * 2);
        for _ in 0..100 {
            c.login_failed("10.0.0.7");
        }
        assert_eq!(c.login_failed("10.0.0.7"), FAILED_LOGIN_DELAY_MAX);
        assert_eq!(c.login_failed("10.0.0.8"), FAILED_LOGIN_DELAY_STEP);
        c.login_succeeded("10.0.0.7");
        assert_eq!(c.login_failed("10.0.0.7"), FAILED_LOGIN_DELAY_STEP);
    }
}
