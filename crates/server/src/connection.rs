//! One client connection: handshake and authentication, then the command
//! loop (COM_QUERY with multi-statements, prepared statements, COM_INIT_DB,
//! COM_PING, ...), answering through the protocol codec.
//!
//! Threading: each connection has its own OS thread doing blocking socket
//! I/O, so statements may block on row locks and on the commit pipeline
//! without stalling anyone else — the thread-per-connection model MariaDB
//! uses. Blocking reads, not an async runtime per thread: waiting for the
//! next command is then one `recv` instead of `epoll_wait` + `recv` and a
//! runtime turn, about 5% of the server's CPU per `oltp_read_write`
//! transaction. Shutdown closes the read side of every connection's socket
//! (see `server`), which ends a thread waiting for a command. The answer
//! to a statement that ends with a commit may instead be written by the
//! commit pipeline (see `commit_ack`); the loop then waits for it before
//! the next command.

use crate::commit_ack::AckSlot;
use crate::limits::{self, Client};
use crate::replication::DumpRequest;
use crate::tls::{Tls, TlsSocket};
use mysql_common::constants::{CapabilityFlags, StatusFlags};
use onelog_core::{Charset, Collation, ErrorCode, SqlError, SqlResult, Value};
use onelog_protocol::auth::{decide, AuthDecision, Challenge, FAST_AUTH_SUCCESS};
use onelog_protocol::command::{parse_command, Command, MYSQL_OPTION_MULTI_STATEMENTS_OFF};
use onelog_protocol::full_auth::{self, RsaKeys};
use onelog_protocol::handshake::{self, InitialHandshake};
use onelog_protocol::packet::{PacketError, PacketStream};
use onelog_protocol::resultset::{
    column_meta_for, computed_column_meta, encode_column_definition, encode_eof, encode_err, encode_ok,
    encode_result_set, encode_result_set_end, encode_result_set_head, encode_text_row, key_flags, ColumnMeta, OkPacket,
    ResultSetOptions, BINARY_COLLATION_ID,
};
use onelog_protocol::stmt::{decode_execute_params, encode_prepare_response, ParamType};
use onelog_sql::ast::account::AuthPlugin;
use onelog_sql::connections::{AccountSlot, TlsSession};
use onelog_sql::load_data::ClientFiles;
use onelog_sql::parse::{parse_single, ParsedStatement};
use onelog_sql::session::Interrupt;
use onelog_sql::{Engine, QueryClient, QueryResult, ResultColumn, ResultSink, Session};
use std::collections::HashMap;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

/// Runs session work, turning a panic into error 1105 after rolling back
/// the session's transaction.
fn guard_panics<T>(
    session: &mut Session,
    f: impl FnOnce(&mut Session) -> T,
    on_panic: impl FnOnce(SqlError) -> T,
) -> T {
    match std::panic::catch_unwind(AssertUnwindSafe(|| f(session))) {
        Ok(v) => v,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            tracing::error!("connection {}: internal error (panic): {what}", session.connection_id);
            session.rollback_txn();
            on_panic(SqlError::internal(format!("Internal error in OneLog: {what}; the transaction was rolled back")))
        }
    }
}

/// The client's side of LOAD DATA LOCAL on this connection: the request
/// (0xFB and the file name) and the file's packets, which end with an
/// empty one, in the command's packet sequence.
impl<S: Socket> ClientFiles for QueryChannel<'_, S> {
    fn request(&mut self, name: &[u8]) -> SqlResult<()> {
        let mut packet = Vec::with_capacity(name.len() + 1);
        packet.push(0xFB);
        packet.extend_from_slice(name);
        self.stream.write_packet(&packet).and_then(|_| self.stream.flush()).map_err(upload_error)
    }

    fn next_packet(&mut self) -> SqlResult<Vec<u8>> {
        self.stream.read_packet().map_err(upload_error)
    }
}

fn upload_error(e: PacketError) -> SqlError {
    match e {
        PacketError::TooLarge { .. } => {
            sql_err(ErrorCode::NET_PACKET_TOO_LARGE, "Got a packet bigger than 'max_allowed_packet' bytes")
        }
        other => sql_err(ErrorCode::NET_READ_ERROR, format!("Got an error reading communication packets: {other}")),
    }
}

/// Shared by every connection.
pub struct Shared {
    pub engine: Arc<Engine>,
    /// `None` with --skip-ssl.
    pub tls: Option<Arc<Tls>>,
    /// caching_sha2_password's key pair for passwords sent without TLS.
    pub rsa: Arc<RsaKeys>,
    pub sha2_cache: crate::users::Sha2Cache,
    /// Threads of one-thread-per-connection, reused.
    pub thread_cache: Arc<crate::thread_cache::ThreadCache>,
}

/// A connection's socket: the accepted TCP or Unix socket, or TLS over it.
pub trait Socket: Read + Write + AsFd {
    /// Input read from the socket but not yet returned (TLS records
    /// decrypted ahead): waiting for the socket would not see it.
    fn has_buffered_input(&self) -> bool {
        false
    }

    /// The connection's TLS, if it has one.
    fn tls(&self) -> Option<TlsSession> {
        None
    }
}

impl Socket for std::net::TcpStream {}

impl Socket for std::os::unix::net::UnixStream {}

impl<S: Socket + ?Sized> Socket for Box<S> {
    fn has_buffered_input(&self) -> bool {
        (**self).has_buffered_input()
    }

    fn tls(&self) -> Option<TlsSession> {
        (**self).tls()
    }
}

/// A connection's socket as the server holds it (TCP, Unix or TLS).
pub type PooledSocket = Box<dyn Socket + Send>;

struct Prepared {
    /// Shared with each execution, which must not copy the statement.
    parsed: Arc<ParsedStatement>,
    types: Vec<ParamType>,
    long_data: Vec<Option<Vec<u8>>>,
}

pub(crate) struct Conn<S: Socket> {
    stream: PacketStream<S>,
    caps: CapabilityFlags,
    session: Session,
    multi_statements: bool,
    statements: HashMap<u32, Prepared>,
    next_stmt_id: u32,
    /// Where a handed-off commit's answer waits (see `commit_ack`).
    ack: Arc<AckSlot>,
    /// The `wait_timeout` the socket's read timeout is set to (0: none yet).
    wait_timeout_s: u64,
    /// This connection's places in the connection counts, freed with it.
    _admission: limits::Admission,
    /// The connection is TLS: the commit pipeline cannot write to its
    /// socket directly (see `offer_commit_ack`).
    tls: bool,
}

pub(crate) enum Flow {
    Continue,
    Close,
}

fn sql_err(code: ErrorCode, msg: impl Into<String>) -> SqlError {
    SqlError::new(code, msg)
}

/// Serves one connection to completion on the current thread
/// (`thread_handling=one-thread-per-connection`). `duplicate` is another
/// descriptor of the socket, which the commit pipeline writes
/// acknowledgements to and KILL shuts down.
pub fn serve<S: Socket + From<TlsSocket>>(stream: S, duplicate: Arc<OwnedFd>, client: Client, shared: Arc<Shared>) {
    let Some(mut conn) = Conn::start(stream, duplicate, client, &shared) else { return };
    while conn.prepare_wait() {
        if !conn.has_transaction() {
            conn.wait_for_admission();
        }
        if let Flow::Close = conn.run_command() {
            break;
        }
    }
}

impl<S: Socket> Conn<S> {
    /// Handshake and authentication; `None` when the connection ended
    /// there (the client was told why, if it was still listening).
    pub(crate) fn start(stream: S, duplicate: Arc<OwnedFd>, client: Client, shared: &Shared) -> Option<Conn<S>>
    where
        S: From<TlsSocket>,
    {
        let ack = AckSlot::new(duplicate.clone());
        let max_packet = shared.engine.vars.int("max_allowed_packet").max(1024) as usize;
        let mut stream = PacketStream::new(stream, max_packet);
        let host = client.host.as_str();
        let (session, caps, account) = match handshake_within_connect_timeout(&mut stream, shared, host) {
            Ok(Some((session, caps, account))) => {
                session.set_interrupt(interrupt_for(duplicate));
                (session, caps, account)
            }
            Ok(None) => return None,
            Err(e) => {
                tracing::debug!("connection from {host} ended during handshake: {e}");
                shared.engine.connections.handshake_error(host);
                return None;
            }
        };
        let tls = stream.get_ref().tls().is_some();
        Some(Conn {
            tls,
            stream,
            caps,
            session,
            multi_statements: caps.contains(CapabilityFlags::CLIENT_MULTI_STATEMENTS),
            statements: HashMap::new(),
            next_stmt_id: 1,
            ack,
            wait_timeout_s: 0,
            _admission: limits::Admission::new(client.slot, account),
        })
    }

    /// Before waiting for the next command: bounds the wait by the
    /// session's `wait_timeout`. False: the connection must end.
    pub(crate) fn prepare_wait(&mut self) -> bool {
        match self.apply_wait_timeout() {
            Ok(()) => true,
            Err(e) => {
                tracing::debug!("connection {}: {e}", self.session.connection_id);
                false
            }
        }
    }

    /// Reads one command (waiting for it if it has not arrived), runs it
    /// and answers it.
    pub(crate) fn run_command(&mut self) -> Flow {
        let packet = self.stream.read_command_packet();
        // A pipelined command may arrive before the last commit's answer
        // left: it must not run before that commit is visible.
        self.ack.settle();
        let packet = match packet {
            Ok(p) => p,
            Err(PacketError::TooLarge { .. }) => {
                let err =
                    sql_err(ErrorCode::NET_PACKET_TOO_LARGE, "Got a packet bigger than 'max_allowed_packet' bytes");
                let _ = write_err(&mut self.stream, &err);
                return Flow::Close;
            }
            Err(PacketError::Eof) => return Flow::Close,
            Err(PacketError::Io(e)) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                self.log_wait_timeout();
                return Flow::Close;
            }
            Err(e) => {
                tracing::debug!("connection {}: {e}", self.session.connection_id);
                return Flow::Close;
            }
        };
        if self.session.kill_requested() {
            return Flow::Close;
        }
        match self.handle(&packet) {
            // After its own KILL a connection ends once it has answered.
            Ok(Flow::Continue) if self.session.kill_requested() => Flow::Close,
            Ok(flow) => flow,
            Err(e) => {
                tracing::debug!("connection {}: write failed: {e}", self.session.connection_id);
                Flow::Close
            }
        }
    }

    pub(crate) fn log_wait_timeout(&self) {
        tracing::info!(
            "connection {}: closed after {} s without a command (wait_timeout)",
            self.session.connection_id,
            self.wait_timeout_s
        );
    }

    /// The `wait_timeout` in force (after [`Conn::prepare_wait`]).
    pub(crate) fn wait_timeout(&self) -> Duration {
        Duration::from_secs(self.wait_timeout_s)
    }

    /// A next command was read ahead already: do not wait for the socket.
    pub(crate) fn has_buffered_input(&self) -> bool {
        self.stream.has_buffered_input() || self.stream.get_ref().has_buffered_input()
    }

    /// Whether the next command goes to the thread pool's high-priority
    /// queue (`thread_pool_priority`; `auto`: inside a transaction, so that
    /// transactions holding locks finish first, as in MariaDB).
    pub(crate) fn connection_id(&self) -> u64 {
        self.session.connection_id
    }

    pub(crate) fn high_priority(&self) -> bool {
        match self.session.session_value("thread_pool_priority") {
            "high" => true,
            "low" => false,
            _ => self.session.in_transaction(),
        }
    }

    /// Admission control with one thread per connection: past
    /// `thread_pool_max_lock_waiters` row-lock waits per core (the pool's
    /// limit per group, and the pool has a group per core by default),
    /// a connection about to start a transaction waits, at most
    /// `thread_pool_stall_limit` as a stalled pool group would.
    fn wait_for_admission(&self) {
        if self.session.engine.locks.queued_requests() == 0 {
            return;
        }
        let vars = &self.session.engine.vars;
        let per_core = vars.int("thread_pool_max_lock_waiters") as usize;
        let cores = vars.int("thread_pool_size").max(1) as usize;
        let max_wait = Duration::from_millis(vars.int("thread_pool_stall_limit").max(1));
        self.session.engine.locks.wait_for_admission(per_core * cores, max_wait);
    }

    /// The session has a transaction open (and may hold row locks).
    pub(crate) fn has_transaction(&self) -> bool {
        self.session.has_transaction()
    }

    pub(crate) fn socket(&self) -> &S {
        self.stream.get_ref()
    }
}

/// The handshake, bounded by `connect_timeout` as in MariaDB: a client
/// that connects and says nothing does not hold a thread. (The command
/// loop then bounds each wait by `wait_timeout`.)
fn handshake_within_connect_timeout<S: Socket + From<TlsSocket>>(
    stream: &mut PacketStream<S>,
    shared: &Shared,
    host: &str,
) -> Result<Option<LoggedIn>, PacketError> {
    let socket = socket2::SockRef::from(stream.get_ref());
    let connect_timeout_s = shared.engine.vars.int("connect_timeout").max(1);
    socket.set_read_timeout(Some(Duration::from_secs(connect_timeout_s)))?;
    // Mostly waiting for the client: in the thread pool, a storm of new
    // connections must not hold the group's workers from its commands.
    let _waiting = onelog_sql::wait::begin(onelog_sql::wait::WaitReason::Net);
    handshake_and_auth(stream, shared, host)
}

/// A login's session, the capabilities both sides speak and the
/// connection's place in its account's count.
type LoggedIn = (Session, CapabilityFlags, AccountSlot);

fn handshake_and_auth<S: Socket + From<TlsSocket>>(
    stream: &mut PacketStream<S>,
    shared: &Shared,
    host: &str,
) -> Result<Option<LoggedIn>, PacketError> {
    let engine = &shared.engine;
    let challenge = Challenge::random();
    let conn_id = engine.next_connection_id();
    let mut greeting = InitialHandshake::new(conn_id as u32, challenge.scramble);
    if shared.tls.is_some() {
        greeting.capabilities |= CapabilityFlags::CLIENT_SSL;
    }
    let mut hs = Vec::new();
    greeting.encode(&mut hs);
    stream.write_packet(&hs)?;
    stream.flush()?;
    let mut payload = stream.read_packet()?;
    if let Some(tls) = shared.tls.as_deref().filter(|_| handshake::is_ssl_request(&payload)) {
        crate::tls::accept(stream, tls, &engine.connections)?;
        payload = stream.read_packet()?;
    }
    let response = match handshake::parse_handshake_response(&payload) {
        Ok(r) => r,
        Err(e) => {
            tracing::debug!("bad handshake from {host}: {e}");
            engine.connections.handshake_error(host);
            write_err(stream, &sql_err(ErrorCode::HANDSHAKE_ERROR, "Bad handshake"))?;
            return Ok(None);
        }
    };
    let (client_host, client_ip) = client_names(host);
    let account = engine.catalog.read().accounts.find_login(&response.username, &client_host, client_ip);
    let cred = account.as_deref().map(|a| shared.sha2_cache.credential(a)).unwrap_or_default();
    // unix_socket: the client process's OS user must be the account's
    // user; whatever the client sent is not looked at, as in MariaDB.
    let by_socket_owner = account.as_ref().is_some_and(|a| a.plugin == AuthPlugin::UnixSocket);
    if by_socket_owner {
        let owner = if host == "localhost" { crate::peer::os_user(stream.get_ref()) } else { None };
        if owner.as_deref() != Some(response.username.as_str()) {
            limits::wait_after_failed_login(engine, host);
            let message = format!("Access denied for user '{}'@'{client_host}'", response.username);
            write_err(stream, &sql_err(ErrorCode::ACCESS_DENIED_NO_PASSWORD, message))?;
            return Ok(None);
        }
    }
    let mut plugin = response.auth_plugin.clone().unwrap_or_else(|| handshake::NATIVE_PASSWORD_PLUGIN.to_string());
    let mut auth = response.auth_response.clone();
    let mut switched = false;
    let accepted = by_socket_owner
        || loop {
            match decide(&plugin, &challenge, &auth, &cred, switched) {
                AuthDecision::Accept => break account.is_some(),
                AuthDecision::AcceptFastAuth => {
                    let mut more = Vec::new();
                    handshake::encode_auth_more_data(&[FAST_AUTH_SUCCESS], &mut more);
                    stream.write_packet(&more)?;
                    break account.is_some();
                }
                AuthDecision::SwitchTo(p) => {
                    let mut req = Vec::new();
                    handshake::encode_auth_switch_request(p, &challenge.switch_data(p), &mut req);
                    stream.write_packet(&req)?;
                    stream.flush()?;
                    auth = handshake::parse_auth_switch_response(&stream.read_packet()?);
                    plugin = p.to_string();
                    switched = true;
                }
                AuthDecision::FullAuth => {
                    // The Unix socket (peer "localhost") is as private as TLS.
                    let secure = host == "localhost" || stream.get_ref().tls().is_some();
                    // Asked of an unknown account too, which must look
                    // like a wrong password.
                    let password = full_authentication(stream, shared, &challenge, secure)?;
                    let verified = password.as_deref().is_some_and(|p| full_auth::verify_password(&cred, p));
                    match (account.as_deref(), password) {
                        (Some(account), Some(password)) if verified => {
                            shared.sha2_cache.learn(account, &password);
                            break true;
                        }
                        _ => break false,
                    }
                }
                AuthDecision::Reject => break false,
            }
        };
    let using_password = !(response.auth_response.is_empty() && auth.is_empty());
    let access_denied = sql_err(
        ErrorCode::ACCESS_DENIED,
        format!(
            "Access denied for user '{}'@'{client_host}' (using password: {})",
            response.username,
            if using_password { "YES" } else { "NO" }
        ),
    );
    let account = match account {
        Some(account) if accepted => account,
        _ => {
            limits::wait_after_failed_login(engine, host);
            write_err(stream, &access_denied)?;
            return Ok(None);
        }
    };
    if account.locked {
        write_err(stream, &sql_err(ErrorCode::ACCOUNT_HAS_BEEN_LOCKED, "Access denied, this account is locked"))?;
        return Ok(None);
    }
    // MariaDB answers a login over plain TCP under require_secure_transport,
    // or one without the TLS its account requires, as a wrong password.
    let tls = stream.get_ref().tls();
    if crate::tls::insecure_transport_refused(engine, host, tls.is_some())
        || !crate::tls::meets_account_requirement(&account, tls.as_ref())
    {
        engine.connections.refused();
        write_err(stream, &access_denied)?;
        return Ok(None);
    }
    let account_slot = match limits::admit_login(engine, &account) {
        Ok(slot) => slot,
        Err(e) => {
            engine.connections.refused();
            write_err(stream, &e)?;
            return Ok(None);
        }
    };
    engine.connections.login_succeeded(host);
    // An expired password logs in to a sandbox where only SET PASSWORD
    // runs (see `privilege`), as with MariaDB's default
    // disconnect_on_expired_password=OFF.
    let mut session = Session::with_connection_id(engine.clone(), conn_id, &response.username, &client_host);
    session.log_in(&account);
    session.tls = tls;
    // The client's collation sets its charsets, as MariaDB's; one OneLog
    // does not implement leaves the server's.
    if let Some(collation) = Collation::from_id(u16::from(response.collation)) {
        session.set_names(collation);
    }
    if response.capabilities.contains(CapabilityFlags::CLIENT_INTERACTIVE) {
        session.start_interactive();
    }
    if let Some(db) = response.database.as_deref().filter(|d| !d.is_empty()) {
        if let Err(e) = session.use_database(db) {
            write_err(stream, &e)?;
            return Ok(None);
        }
    }
    let mut ok = Vec::new();
    encode_ok(&OkPacket::default(), &mut ok);
    stream.write_packet(&ok)?;
    stream.flush()?;
    // What both sides support is what this connection speaks.
    Ok(Some((session, response.capabilities & handshake::server_capabilities(), account_slot)))
}

/// caching_sha2_password's full authentication: the client is asked for
/// its password, which it sends in clear over TLS or the Unix socket
/// (`secure`) and otherwise encrypted with the server's RSA public key
/// (sent when it asks with `0x02`, as a client that knows the key already
/// need not). `None` when it does not decrypt.
fn full_authentication<S: Socket>(
    stream: &mut PacketStream<S>,
    shared: &Shared,
    challenge: &Challenge,
    secure: bool,
) -> Result<Option<Vec<u8>>, PacketError> {
    let mut more = Vec::new();
    handshake::encode_auth_more_data(&[full_auth::PERFORM_FULL_AUTH], &mut more);
    stream.write_packet(&more)?;
    stream.flush()?;
    let mut packet = stream.read_packet()?;
    if secure {
        return Ok(Some(full_auth::cleartext_password(&packet).to_vec()));
    }
    if packet == [full_auth::REQUEST_PUBLIC_KEY] {
        let mut key = Vec::new();
        handshake::encode_auth_more_data(shared.rsa.public_pem().as_bytes(), &mut key);
        stream.write_packet(&key)?;
        stream.flush()?;
        packet = stream.read_packet()?;
    }
    Ok(shared.rsa.decrypt_password(&packet, &challenge.scramble).map(|d| full_auth::cleartext_password(&d).to_vec()))
}

/// A client's host name for account matching and USER() (`localhost` for
/// the socket and loopback, as MariaDB resolves them; otherwise its
/// address, as with skip-name-resolve), and its address.
fn client_names(peer: &str) -> (String, &str) {
    let loopback = peer == "localhost" || peer.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    match (peer, loopback) {
        // The socket has no address: only `localhost` (or a pattern that
        // matches that name) admits it, as in MariaDB.
        ("localhost", _) => ("localhost".into(), ""),
        (ip, true) => ("localhost".into(), ip),
        (ip, false) => (ip.to_string(), ip),
    }
}

/// KILL ends another connection at once, as MariaDB's does: shutting its
/// socket down ends a wait for a command, and a running statement (which
/// stops at its next row or wait, see `onelog_sql::kill`) has nowhere to
/// answer — its client sees the connection lost.
fn interrupt_for(socket: Arc<OwnedFd>) -> Interrupt {
    Interrupt(Arc::new(move || {
        // Fails only for a socket the client already closed.
        let _ = socket2::SockRef::from(&*socket).shutdown(std::net::Shutdown::Both);
    }))
}

pub(crate) fn write_err<S: Socket>(stream: &mut PacketStream<S>, err: &SqlError) -> Result<(), PacketError> {
    let mut p = Vec::new();
    encode_err(err, &mut p);
    stream.write_packet(&p)?;
    stream.flush()
}

/// Column metadata for the wire from a result column: a base table's
/// field, or a computed column (which has no original table).
fn column_meta(c: &ResultColumn) -> ColumnMeta {
    if c.stored_function {
        // MariaDB names the function's field after the column.
        return column_meta_for(&c.def, "", "", Some(&c.name));
    }
    if c.org_table.is_empty() {
        let mut meta = computed_column_meta(&c.def, &c.name);
        if c.decimals_zero {
            meta.decimals = 0;
        }
        return meta;
    }
    let mut meta = column_meta_for(&c.def, &c.db, &c.table, Some(&c.name));
    meta.org_table = c.org_table.clone();
    meta.org_name = c.org_name.clone();
    meta.flags |= key_flags(c.key);
    meta
}

/// Result text in the client's `character_set_results` when that is not
/// utf8mb4 (OneLog's text in memory): the values converted (characters the
/// charset lacks become '?', as MariaDB sends them) and the column
/// definitions saying that charset, with lengths in its bytes.
fn to_results_charset(charset: Charset, metas: &mut [ColumnMeta], rows: &mut [Vec<Value>]) {
    let text_columns = metas_to_results_charset(charset, metas);
    for row in rows {
        row_to_results_charset(charset, &text_columns, row);
    }
}

/// The column definitions' part of [`to_results_charset`]; which columns
/// hold text, whose values [`row_to_results_charset`] converts.
fn metas_to_results_charset(charset: Charset, metas: &mut [ColumnMeta]) -> Vec<bool> {
    let text_columns: Vec<bool> = metas.iter().map(|m| m.collation_id != BINARY_COLLATION_ID).collect();
    if charset == Charset::Utf8mb4 {
        return text_columns;
    }
    for meta in metas.iter_mut().filter(|m| m.collation_id != BINARY_COLLATION_ID) {
        meta.collation_id = charset.default_collation().id();
        meta.column_length = meta.column_length / Charset::Utf8mb4.mbmaxlen() * charset.mbmaxlen();
    }
    text_columns
}

/// One row's part of [`to_results_charset`].
fn row_to_results_charset(charset: Charset, text_columns: &[bool], row: &mut [Value]) {
    if charset == Charset::Utf8mb4 {
        return;
    }
    for (value, _) in row.iter_mut().zip(text_columns).filter(|(_, text)| **text) {
        if let Value::Bytes(b) = value {
            if let std::borrow::Cow::Owned(converted) = charset.encode(b) {
                *b = converted;
            }
        }
    }
}

/// The status flags a result reports for `session`'s state.
fn status_of(session: &Session) -> StatusFlags {
    let mut s = StatusFlags::empty();
    if session.autocommit() {
        s |= StatusFlags::SERVER_STATUS_AUTOCOMMIT;
    }
    if session.in_transaction() {
        s |= StatusFlags::SERVER_STATUS_IN_TRANS;
    }
    s
}

/// A COM_QUERY's client while the query runs: LOAD DATA LOCAL's upload
/// (see the [`ClientFiles`] impl), and a SELECT's result set written as
/// its rows come (see `onelog_sql::stream`): the head, then each text row,
/// through the packet stream's buffer, which goes to the socket each time
/// it fills (`WRITE_BUFFER_BYTES`) — so the server holds a buffer, not the
/// result, and a client that reads slowly holds the statement back. The
/// end (EOF, or ERR when the statement fails midway, as MariaDB sends it)
/// is written with the other answers once the statement is over.
struct QueryChannel<'a, S: Socket> {
    stream: &'a mut PacketStream<S>,
    /// The client said it sends files (CLIENT_LOCAL_FILES).
    sends_files: bool,
    deprecate_eof: bool,
    metas: Vec<ColumnMeta>,
    /// `character_set_results` when it is not utf8mb4's, and which columns
    /// hold text to convert to it.
    charset: Option<(Charset, Vec<bool>)>,
    packet: Vec<u8>,
    /// Writing to the client failed: the connection is over.
    write_error: Option<PacketError>,
}

impl<S: Socket> QueryClient for QueryChannel<'_, S> {
    fn files(&mut self) -> Option<&mut dyn ClientFiles> {
        match self.sends_files {
            true => Some(self),
            false => None,
        }
    }

    fn rows(&mut self) -> &mut dyn ResultSink {
        self
    }
}

impl<S: Socket> QueryChannel<'_, S> {
    fn write(&mut self, payload: &[u8]) -> SqlResult<()> {
        let written = self.stream.write_packet(payload);
        written.map_err(|e| {
            let message = format!("Got an error writing communication packets: {e}");
            self.write_error = Some(e);
            sql_err(ErrorCode::NET_ERROR_ON_WRITE, message)
        })
    }
}

impl<S: Socket> ResultSink for QueryChannel<'_, S> {
    fn columns(&mut self, session: &Session, columns: &[ResultColumn]) -> SqlResult<()> {
        self.metas = columns.iter().map(column_meta).collect();
        if let Some(charset) = session.results_charset().filter(|c| *c != Charset::Utf8mb4) {
            self.charset = Some((charset, metas_to_results_charset(charset, &mut self.metas)));
        }
        let opts = ResultSetOptions {
            deprecate_eof: self.deprecate_eof,
            binary: false,
            status: status_of(session),
            warnings: session.warning_count(),
            more_results: false,
        };
        let mut head = Vec::new();
        encode_result_set_head(&opts, &self.metas, &mut head);
        head.iter().try_for_each(|p| self.write(p))
    }

    fn row(&mut self, mut row: Vec<Value>) -> SqlResult<()> {
        if let Some((charset, text_columns)) = &self.charset {
            row_to_results_charset(*charset, text_columns, &mut row);
        }
        let mut packet = std::mem::take(&mut self.packet);
        packet.clear();
        encode_text_row(&row, &self.metas, &mut packet);
        let written = self.write(&packet);
        self.packet = packet;
        written
    }
}

impl<S: Socket> Conn<S> {
    fn status(&self) -> StatusFlags {
        status_of(&self.session)
    }

    /// Bounds the wait for the next command by the session's
    /// `wait_timeout`, as MariaDB does: a client that went away without
    /// closing its connection does not hold a thread forever.
    fn apply_wait_timeout(&mut self) -> std::io::Result<()> {
        let secs = self.session.session_value("wait_timeout").parse().unwrap_or(28_800u64).max(1);
        if secs != self.wait_timeout_s {
            socket2::SockRef::from(self.stream.get_ref()).set_read_timeout(Some(Duration::from_secs(secs)))?;
            self.wait_timeout_s = secs;
        }
        Ok(())
    }

    fn deprecate_eof(&self) -> bool {
        self.caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF)
    }

    /// Runs session work, turning a panic into error 1105 after rolling
    /// back the session's transaction.
    fn guarded<T>(&mut self, f: impl FnOnce(&mut Session) -> T, on_panic: impl FnOnce(SqlError) -> T) -> T {
        guard_panics(&mut self.session, f, on_panic)
    }

    /// Encodes statement results: each result set or OK, with
    /// SERVER_MORE_RESULTS_EXISTS on all but the last; an error ends it.
    fn encode_results(&self, results: Vec<SqlResult<QueryResult>>, binary: bool) -> Vec<Vec<u8>> {
        let mut packets = Vec::new();
        let n = results.len();
        for (i, r) in results.into_iter().enumerate() {
            let more = i + 1 < n;
            let mut status = self.status();
            status.set(StatusFlags::SERVER_MORE_RESULTS_EXISTS, more);
            // The session counts only the last statement's conditions; a
            // CALL's result sets carry none, as MariaDB's do.
            let warnings = if more { 0 } else { self.session.warning_count() };
            let result_set = ResultSetOptions {
                deprecate_eof: self.deprecate_eof(),
                binary,
                status: self.status(),
                warnings,
                more_results: more,
            };
            match r {
                Ok(QueryResult::Rows { columns, mut rows }) => {
                    let mut metas: Vec<ColumnMeta> = columns.iter().map(column_meta).collect();
                    if let Some(charset) = self.session.results_charset() {
                        to_results_charset(charset, &mut metas, &mut rows);
                    }
                    encode_result_set(&result_set, &metas, rows.iter(), &mut packets);
                }
                // Its head and rows went out as they came.
                Ok(QueryResult::Streamed { .. }) => packets.push(encode_result_set_end(&result_set)),
                Ok(QueryResult::Ok { affected_rows, last_insert_id, info }) => {
                    let mut p = Vec::new();
                    encode_ok(&OkPacket { affected_rows, last_insert_id, status, warnings, info }, &mut p);
                    packets.push(p);
                }
                Err(e) => {
                    let mut p = Vec::new();
                    encode_err(&e, &mut p);
                    packets.push(p);
                    break;
                }
            }
        }
        packets
    }

    fn handle(&mut self, packet: &[u8]) -> Result<Flow, PacketError> {
        let command = match parse_command(packet, self.caps) {
            Ok(c) => c,
            Err(e) => {
                let err = sql_err(ErrorCode::NET_PACKETS_OUT_OF_ORDER, format!("Malformed packet: {e}"));
                write_err(&mut self.stream, &err)?;
                return Ok(Flow::Close);
            }
        };
        let packets: Vec<Vec<u8>> = match command {
            Command::Quit => return Ok(Flow::Close),
            Command::Query(sql) => {
                self.offer_commit_ack();
                let sql = match self.session.client_charset() {
                    cs if cs.is_byte_table() => String::from_utf8_lossy(&cs.decode(&sql)).into_owned(),
                    _ => onelog_sql::parse::decode_query_bytes(&sql),
                };
                let results = self.run_query(&sql)?;
                self.encode_results(results, false)
            }
            Command::Refresh(flags) => {
                let result = self.refresh(flags);
                self.encode_results(vec![result], false)
            }
            Command::InitDb(db) => {
                let r = self.session.use_database(&db).map(|_| QueryResult::ok(0));
                self.encode_results(vec![r], false)
            }
            Command::Ping => self.encode_results(vec![Ok(QueryResult::ok(0))], false),
            Command::ResetConnection => {
                self.session.reset();
                self.statements.clear();
                self.encode_results(vec![Ok(QueryResult::ok(0))], false)
            }
            Command::SetOption(opt) => {
                self.multi_statements = opt != MYSQL_OPTION_MULTI_STATEMENTS_OFF;
                let mut p = Vec::new();
                encode_eof(0, self.status(), &mut p);
                vec![p]
            }
            Command::Statistics => {
                let uptime = self.session.engine.started_at.elapsed().as_secs();
                let threads = self.session.engine.processes.entries.lock().len();
                vec![format!("Uptime: {uptime}  Threads: {threads}  Questions: 0  Slow queries: 0  Opens: 0  Open tables: 0  Queries per second avg: 0.000").into_bytes()]
            }
            Command::ProcessKill(id) => {
                let r = self.session.execute(
                    &onelog_sql::ast::Statement::Kill { id: u64::from(id), query_only: false },
                    "KILL",
                    &[],
                );
                self.encode_results(vec![r], false)
            }
            // mariadb-admin shutdown.
            Command::Shutdown => {
                let r = self.session.execute(&onelog_sql::ast::Statement::Shutdown, "SHUTDOWN", &[]);
                self.encode_results(vec![r], false)
            }
            Command::FieldList { table, .. } => self.field_list(&table),
            Command::StmtPrepare(sql) => self.prepare(&sql),
            Command::StmtExecute { stmt_id, params, .. } => {
                self.offer_commit_ack();
                self.execute(stmt_id, &params)
            }
            Command::StmtSendLongData { stmt_id, param_id, data } => {
                if let Some(p) = self.statements.get_mut(&stmt_id) {
                    if let Some(slot) = p.long_data.get_mut(usize::from(param_id)) {
                        slot.get_or_insert_with(Vec::new).extend_from_slice(&data);
                    }
                }
                return Ok(Flow::Continue); // no response, by protocol
            }
            Command::StmtClose(id) => {
                self.statements.remove(&id);
                return Ok(Flow::Continue); // no response, by protocol
            }
            Command::StmtReset(id) => match self.statements.get_mut(&id) {
                Some(p) => {
                    p.long_data.iter_mut().for_each(|d| *d = None);
                    self.encode_results(vec![Ok(QueryResult::ok(0))], false)
                }
                None => self.encode_results(vec![Err(unknown_stmt(id, "mysqld_stmt_reset"))], false),
            },
            Command::RegisterSlave(r) => {
                if let Err(e) = self.session.require_global_access(onelog_sql::accounts::privs::REPLICATION_SLAVE) {
                    self.encode_results(vec![Err(e)], false)
                } else {
                    self.session.engine.replicas.register(self.session.connection_id, r.server_id, &r.host, r.port);
                    self.encode_results(vec![Ok(QueryResult::ok(0))], false)
                }
            }
            Command::BinlogDump { pos, flags, server_id, file } => {
                // A replica's or CDC client's account needs REPLICATION SLAVE.
                if let Err(e) = self.session.require_global(onelog_sql::accounts::privs::REPLICATION_SLAVE) {
                    self.encode_results(vec![Err(e)], false)
                } else {
                    let request = DumpRequest { file, pos, flags, server_id };
                    // A dump runs until the replica goes: in the thread pool it
                    // is a wait, and the worker's group goes on without it.
                    let _waiting = onelog_sql::wait::begin(onelog_sql::wait::WaitReason::Binlog);
                    crate::replication::dump(&mut self.stream, &self.session, &request)?;
                    return Ok(Flow::Close);
                }
            }
            Command::Unknown(_)
            | Command::Debug
            | Command::ProcessInfo
            | Command::ChangeUser(_)
            | Command::StmtFetch { .. }
            | Command::BinlogDumpGtid(_) => {
                self.encode_results(vec![Err(sql_err(ErrorCode::UNKNOWN_COMMAND, "Unknown command"))], false)
            }
        };
        if self.session.take_commit_handed_off() {
            let Some(bytes) = self.ack.answer(&packets, self.stream.seq()) else {
                return Ok(Flow::Continue); // the commit pipeline sends it
            };
            self.stream.write_framed(&bytes)?;
            return Ok(Flow::Continue);
        }
        self.ack.disarm();
        for p in &packets {
            self.stream.write_packet(p)?;
        }
        self.stream.flush()?;
        Ok(Flow::Continue)
    }

    /// COM_REFRESH (`mysql_refresh`, which `mariadb-dump --flush-logs`
    /// and `mariadb-admin flush-*` send): RELOAD (1227), then the FLUSH
    /// statement of each flag, in MariaDB's order. Two flags do nothing:
    /// REFRESH_SLAVE resets a replica, which OneLog is not, and
    /// REFRESH_THREADS, which in MariaDB empties the thread cache, is not
    /// done (OneLog's cached threads leave after five idle minutes or when
    /// thread_cache_size shrinks; see `thread_cache`).
    fn refresh(&mut self, flags: u8) -> SqlResult<QueryResult> {
        const FLUSHES: [(u8, &str); 6] = [
            (0x01, "FLUSH PRIVILEGES"),
            (0x02, "FLUSH LOGS"),
            (0x04, "FLUSH TABLES"),
            (0x08, "FLUSH HOSTS"),
            (0x10, "FLUSH STATUS"),
            (0x80, "RESET MASTER"),
        ];
        self.session.require_global(onelog_sql::accounts::privs::RELOAD)?;
        for (_, sql) in FLUSHES.iter().filter(|(flag, _)| flags & flag != 0) {
            for result in self.session.execute_client_query(sql, false, None) {
                result?;
            }
        }
        Ok(QueryResult::ok(0))
    }

    /// Runs a COM_QUERY, streaming a SELECT's rows to the client (see
    /// [`QueryChannel`]); the results whose answers are still to send.
    /// Err: writing to the client failed.
    fn run_query(&mut self, sql: &str) -> Result<Vec<SqlResult<QueryResult>>, PacketError> {
        let multi = self.multi_statements;
        let mut channel = QueryChannel {
            sends_files: self.caps.contains(CapabilityFlags::CLIENT_LOCAL_FILES),
            deprecate_eof: self.deprecate_eof(),
            stream: &mut self.stream,
            metas: Vec::new(),
            charset: None,
            packet: Vec::new(),
            write_error: None,
        };
        let results = guard_panics(
            &mut self.session,
            |s| s.execute_client_query(sql, multi, Some(&mut channel)),
            |e| vec![Err(e)],
        );
        match channel.write_error {
            Some(e) => Err(e),
            None => Ok(results),
        }
    }

    /// Lets this command's statement hand its final commit off: the commit
    /// pipeline then writes the answer (see `commit_ack`).
    fn offer_commit_ack(&mut self) {
        // The pipeline writes plain bytes to the socket's descriptor: a TLS
        // connection's answers go through its TLS layer, on this thread.
        if self.tls {
            return;
        }
        self.ack.arm();
        self.session.offer_commit_ack(self.ack.clone());
    }

    fn field_list(&mut self, table: &str) -> Vec<Vec<u8>> {
        let name = onelog_sql::ast::ObjectName { db: None, name: table.to_string() };
        let columns = self.session.describe_table(&name);
        match columns {
            Ok(cols) => {
                let mut packets: Vec<Vec<u8>> = cols
                    .iter()
                    .map(|c| {
                        let mut p = Vec::new();
                        encode_column_definition(&column_meta(c), &mut p);
                        // COM_FIELD_LIST definitions end with the default value.
                        p.push(0xfb);
                        p
                    })
                    .collect();
                let mut eof = Vec::new();
                encode_eof(0, self.status(), &mut eof);
                packets.push(eof);
                packets
            }
            Err(e) => self.encode_results(vec![Err(e)], false),
        }
    }

    fn prepare(&mut self, sql: &str) -> Vec<Vec<u8>> {
        let parsed = match parse_single(sql) {
            Ok(p) => p,
            Err(e) => return self.encode_results(vec![Err(e)], false),
        };
        let columns = match self.guarded(|s| s.describe(&parsed.statement), Err) {
            Ok(c) => c,
            Err(e) => return self.encode_results(vec![Err(e)], false),
        };
        let id = self.next_stmt_id;
        self.next_stmt_id = self.next_stmt_id.wrapping_add(1).max(1);
        let params = vec![ColumnMeta::param(); parsed.param_count];
        let metas: Vec<ColumnMeta> = columns.iter().map(column_meta).collect();
        let packets = encode_prepare_response(id, &params, &metas, 0, self.deprecate_eof(), self.status());
        let n = parsed.param_count;
        self.statements.insert(id, Prepared { parsed: Arc::new(parsed), types: Vec::new(), long_data: vec![None; n] });
        packets
    }

    fn execute(&mut self, stmt_id: u32, raw: &[u8]) -> Vec<Vec<u8>> {
        let Some(prepared) = self.statements.get_mut(&stmt_id) else {
            return self.encode_results(vec![Err(unknown_stmt(stmt_id, "mysqld_stmt_execute"))], true);
        };
        let params: Vec<Value> =
            match decode_execute_params(raw, prepared.parsed.param_count, &mut prepared.types, &prepared.long_data) {
                Ok(p) => p,
                Err(e) => {
                    let err =
                        sql_err(ErrorCode::WRONG_ARGUMENTS, format!("Incorrect arguments to mysqld_stmt_execute: {e}"));
                    return self.encode_results(vec![Err(err)], true);
                }
            };
        prepared.long_data.iter_mut().for_each(|d| *d = None);
        let parsed = prepared.parsed.clone();
        let result = self.guarded(|s| s.execute(&parsed.statement, &parsed.text, &params), Err);
        self.encode_results(vec![result], true)
    }
}

fn unknown_stmt(id: u32, what: &str) -> SqlError {
    sql_err(ErrorCode::UNKNOWN_STMT_HANDLER, format!("Unknown prepared statement handler ({id}) given to {what}"))
}
