//! Connection limits as MariaDB 10.11 applies them (the counts themselves
//! are `onelog_sql::connections`, which SHOW STATUS and FLUSH HOSTS reach):
//!
//! - at accept, before any handshake: more than `max_connections + 1`
//!   open connections, or a client address blocked by `max_connect_errors`,
//!   get error 1040 or 1129 as their first packet, written by the accept
//!   loop without a thread (a connection storm costs the server no
//!   threads for the refused);
//! - after login: the extra connection is only for the admin (1040 for
//!   anyone else), and an account other than the admin's may have
//!   `max_user_connections` (1203); an account's own MAX_USER_CONNECTIONS
//!   and MAX_CONNECTIONS_PER_HOUR apply to every account (1226);
//! - a failed login is answered after a delay that grows with the
//!   address's failures in a row, slept by that connection's thread only.

use onelog_core::{ErrorCode, SqlError};
use onelog_protocol::packet::packet_header;
use onelog_sql::accounts::{privs, Account};
use onelog_sql::ast::account::{MAX_CONNECTIONS_PER_HOUR, MAX_USER_CONNECTIONS};
use onelog_sql::connections::{AccountSlot, ConnectionSlot, LimitReached};
use onelog_sql::privilege::user_limit_reached;
use onelog_sql::Engine;
use std::io::Write;

/// A connection about to be served: its client address (`localhost` for
/// the Unix socket) and its place in the connection count.
pub struct Client {
    pub host: String,
    pub slot: ConnectionSlot,
}

/// What a served connection holds until it ends: dropping it frees its
/// places in the connection and account counts.
pub(crate) struct Admission {
    _connection: ConnectionSlot,
    _account: AccountSlot,
}

impl Admission {
    pub(crate) fn new(connection: ConnectionSlot, account: AccountSlot) -> Admission {
        Admission { _connection: connection, _account: account }
    }
}

/// Whether `account` has the privilege that lets it take the connection
/// kept for the admin and ignore max_user_connections: SUPER or
/// CONNECTION ADMIN, as in MariaDB.
pub(crate) fn has_connection_admin(account: &Account) -> bool {
    account.global & (privs::SUPER | privs::CONNECTION_ADMIN) != 0
}

/// Admits a new connection from `host`, or says why not: the error to
/// send instead of the handshake.
pub fn admit(engine: &Engine, host: &str) -> Result<Client, SqlError> {
    let vars = &engine.vars;
    let Some(slot) = engine.connections.admit(vars.int("max_connections")) else {
        return Err(too_many_connections());
    };
    if engine.connections.host_blocked(host, vars.int("max_connect_errors")) {
        engine.connections.refused();
        return Err(SqlError::new(
            ErrorCode::HOST_IS_BLOCKED,
            format!(
                "Host '{host}' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'"
            ),
        ));
    }
    Ok(Client { host: host.to_string(), slot })
}

fn too_many_connections() -> SqlError {
    SqlError::new(ErrorCode::CON_COUNT_ERROR, "Too many connections")
}

/// Sends a refusal as the connection's first packet, as MariaDB does
/// before a handshake: without a SQL state, since the client has not said
/// it speaks protocol 4.1. The socket is new and non-blocking: its send
/// buffer takes the few bytes at once, or the client is not worth waiting
/// for.
pub fn refuse(mut socket: impl Write, err: &SqlError) {
    let mut payload = vec![0xFF];
    payload.extend_from_slice(&err.code.number.to_le_bytes());
    payload.extend_from_slice(err.message.as_bytes());
    let mut packet = packet_header(payload.len(), 0).to_vec();
    packet.extend_from_slice(&payload);
    // A client that left already needs no answer.
    let _ = socket.write_all(&packet);
}

/// The checks after a successful authentication, in MariaDB's order: the
/// admin's extra connection; the account's own MAX_USER_CONNECTIONS
/// (1226, the admin included) or else the global `max_user_connections`
/// (1203, not for the admin: MariaDB's PRIV_IGNORE_MAX_USER_CONNECTIONS);
/// the account's MAX_CONNECTIONS_PER_HOUR (1226). Returns the
/// connection's place in its account's count.
pub(crate) fn admit_login(engine: &Engine, account: &Account) -> Result<AccountSlot, SqlError> {
    let vars = &engine.vars;
    let admin = has_connection_admin(account);
    let user = &account.name.user;
    if engine.connections.over_limit_after_login(vars.int("max_connections"), admin) {
        return Err(too_many_connections());
    }
    let key = account.counting_key();
    let own_limit = account.limits[MAX_USER_CONNECTIONS];
    let slot = if own_limit > 0 {
        engine.connections.admit_account(&key, own_limit).ok_or_else(|| {
            user_limit_reached(user, LimitReached { resource: "max_user_connections", limit: own_limit })
        })?
    } else {
        // 0: no limit; -1: no connections at all, as in MariaDB. Every
        // login is counted, so a limit set by SET GLOBAL counts those
        // already open.
        let limit =
            if admin { 0 } else { vars.get("max_user_connections").and_then(|v| v.parse::<i64>().ok()).unwrap_or(0) };
        u64::try_from(limit).ok().and_then(|n| engine.connections.admit_account(&key, n)).ok_or_else(|| {
            SqlError::new(
                ErrorCode::TOO_MANY_USER_CONNECTIONS,
                format!("User {user} already has more than 'max_user_connections' active connections"),
            )
        })?
    };
    let per_hour = account.limits[MAX_CONNECTIONS_PER_HOUR];
    if per_hour > 0 {
        engine.connections.count_login_in_hour(&key, per_hour).map_err(|reached| user_limit_reached(user, reached))?;
    }
    Ok(slot)
}

/// Holds back a failed login's answer, longer for each failure in a row
/// from `host`, so that guessing passwords is slow. Only this connection
/// waits: in the thread pool the wait is announced, and the worker's
/// group goes on without it.
pub(crate) fn wait_after_failed_login(engine: &Engine, host: &str) {
    let delay = engine.connections.login_failed(host);
    let _waiting = onelog_sql::wait::begin(onelog_sql::wait::WaitReason::Sleep);
    std::thread::sleep(delay);
}
