//! The replication source: COM_REGISTER_SLAVE and COM_BINLOG_DUMP, so that
//! MariaDB replicas, `mariadb-binlog --read-from-remote-server` and CDC
//! clients stream OneLog's binlog as they stream MariaDB's.
//!
//! Owns the dump loop of one connection: the artificial ROTATE and
//! FORMAT_DESCRIPTION that start a dump, the events themselves (read by
//! the binlog crate's [`EventCursor`], never past what this server has
//! published), heartbeats while idle, and the end of a non-blocking dump.
//! A dump runs until the client goes, KILL or shutdown shuts its socket,
//! or the binlog cannot be read; then the connection ends, as in MariaDB
//! (and with its session, its entry in the replica registry).
//! Calls the binlog crate (cursor, limits), the engine's replica registry
//! and the protocol's packet stream.

use crate::connection::{write_err, Socket};
use mysql_common::constants::StatusFlags;
use onelog_binlog::dump::{gtid_start_file, AppliedFilter, EventCursor, GtidPosition, Next};
use onelog_binlog::event::{header_flag, rotate_body, type_code, write_event, CHECKSUM_LEN, HEADER_LEN};
use onelog_core::{ErrorCode, SqlError, Value};
use onelog_protocol::packet::{PacketError, PacketStream};
use onelog_protocol::resultset::encode_eof;
use onelog_sql::eval::EvalEnv;
use onelog_sql::Session;
use std::mem::MaybeUninit;
use std::time::{Duration, Instant};

/// COM_BINLOG_DUMP flag: answer EOF at the end of the binlog instead of
/// waiting for more (`mariadb-binlog --read-from-remote-server` without
/// `--stop-never`).
pub const BINLOG_DUMP_NON_BLOCK: u16 = 1;

/// How often a waiting dump checks whether its client is still there.
const CLIENT_CHECK: Duration = Duration::from_secs(1);

/// Marks the packets of a dump that carry an event.
const EVENT_PACKET: u8 = 0x00;

/// What the client asked for in COM_BINLOG_DUMP.
pub struct DumpRequest {
    pub file: String,
    pub pos: u32,
    pub flags: u16,
    pub server_id: u32,
}

/// Why a dump ended (for the server log).
enum DumpEnd {
    ClientGone,
    NonBlockingEnd,
}

/// Streams the binlog to the client; returns once the dump is over (the
/// caller then closes the connection).
pub fn dump<S: Socket>(
    stream: &mut PacketStream<S>,
    session: &Session,
    request: &DumpRequest,
) -> Result<(), PacketError> {
    let engine = &session.engine;
    let mut dumper = match Dumper::start(session, request) {
        Ok(d) => d,
        Err(e) => return write_err(stream, &e),
    };
    // A replica that stops reading must not hold the dump forever: its
    // writes are bounded by `net_write_timeout`, as in MariaDB.
    let write_timeout_s: u64 = session.session_value("net_write_timeout").parse().unwrap_or(60);
    socket2::SockRef::from(stream.get_ref()).set_write_timeout(Some(Duration::from_secs(write_timeout_s.max(1))))?;
    let start = dumper.cursor.position();
    let mode = match session.user_var("slave_connect_state") {
        Value::Null => String::new(),
        state => format!(" (GTID position '{state}')"),
    };
    tracing::info!(
        "connection {}: binlog dump to server id {} from {}:{}{mode}",
        session.connection_id,
        request.server_id,
        engine.binlog.file_name(start.file_seq),
        start.offset,
    );
    session.set_process_command("Binlog Dump");
    let outcome = dumper.run(stream, session);
    match outcome {
        Ok(DumpEnd::NonBlockingEnd) => {
            // A classic EOF whatever the client negotiated, as MariaDB's.
            let mut eof = Vec::new();
            encode_eof(0, StatusFlags::SERVER_STATUS_AUTOCOMMIT, &mut eof);
            stream.write_packet(&eof)?;
            stream.flush()
        }
        Ok(DumpEnd::ClientGone) => {
            tracing::info!("connection {}: binlog dump ended: the client went away", session.connection_id);
            Ok(())
        }
        Err(DumpError::Packet(e)) => Err(e),
        Err(DumpError::Sql(e)) => {
            tracing::warn!("connection {}: binlog dump ended: {}", session.connection_id, e.message);
            write_err(stream, &e)
        }
    }
}

enum DumpError {
    Packet(PacketError),
    Sql(SqlError),
}

impl From<PacketError> for DumpError {
    fn from(e: PacketError) -> Self {
        DumpError::Packet(e)
    }
}

impl From<onelog_binlog::BinlogError> for DumpError {
    fn from(e: onelog_binlog::BinlogError) -> Self {
        DumpError::Sql(fatal_reading(&e.to_string()))
    }
}

/// Error 1236, what MariaDB's replica shows as its IO thread's last error.
fn fatal_reading(what: &str) -> SqlError {
    // The replica prefixes "Got fatal error 1236 from master when reading
    // data from binary log:" itself.
    SqlError::new(ErrorCode::MASTER_FATAL_READING_BINLOG, what)
}

struct Dumper {
    cursor: EventCursor,
    /// In GTID mode, drops the transactions the replica already has.
    applied: Option<AppliedFilter>,
    replica_server_id: u32,
    server_id: u32,
    /// The file being read carries CRC32 checksums.
    file_checksums: bool,
    /// The client said it understands checksums (set
    /// `@master_binlog_checksum`, to any value); one that did not cannot
    /// read a checksummed file, and MariaDB refuses it rather than strip.
    client_checksums: bool,
    /// The client asked for CRC32, so the first ROTATE made up for it
    /// carries one (`mariadb-binlog` asks for NONE and reads it without).
    client_wants_crc32: bool,
    heartbeat: Option<Duration>,
    non_blocking: bool,
    start_offset: u64,
}

impl Dumper {
    fn start(session: &Session, request: &DumpRequest) -> Result<Dumper, SqlError> {
        let engine = &session.engine;
        if engine.vars.get("log_bin").as_deref() == Some("0") {
            // DESIGN.md: with log_bin=OFF the log still makes commits
            // durable but is not served (and is purged at once).
            return Err(fatal_reading("Binary log is not open"));
        }
        // MariaDB's GTID mode (`MASTER_USE_GTID`): the replica's
        // `@slave_connect_state` says where it is, whatever file it names.
        let connect_state = session.user_var("slave_connect_state");
        let (seq, path, start_offset, applied) = if !connect_state.is_null() {
            let (seq, path, applied) = gtid_start(session, &connect_state.to_string())?;
            (seq, path, 4, Some(AppliedFilter::new(applied)))
        } else {
            let Some((seq, path)) = engine.binlog.indexed_path(&request.file) else {
                return Err(fatal_reading("Could not find first log file name in binary log index file"));
            };
            (seq, path, u64::from(request.pos).max(4), None)
        };
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if start_offset > size {
            return Err(fatal_reading("Client requested master to start replication from impossible position"));
        }
        let cursor = EventCursor::open(&path, seq, start_offset).map_err(|e| fatal_reading(&e.to_string()))?;
        let checksum_var = session.user_var("master_binlog_checksum");
        let heartbeat_ns = match session.user_var("master_heartbeat_period") {
            Value::Null => 0,
            v => v.to_string().parse::<f64>().unwrap_or(0.0).max(0.0) as u64,
        };
        engine.replicas.reading(session.connection_id, request.server_id, cursor.position());
        Ok(Dumper {
            applied,
            replica_server_id: request.server_id,
            server_id: engine.binlog.server_id(),
            file_checksums: cursor.checksums().map_err(|e| fatal_reading(&e.to_string()))?,
            client_checksums: !checksum_var.is_null(),
            client_wants_crc32: checksum_var.to_string().eq_ignore_ascii_case("CRC32"),
            heartbeat: (heartbeat_ns > 0).then(|| Duration::from_nanos(heartbeat_ns)),
            // MariaDB treats a dump for server id 0 as non-blocking too.
            non_blocking: request.flags & BINLOG_DUMP_NON_BLOCK != 0 || request.server_id == 0,
            start_offset,
            cursor,
        })
    }

    fn run<S: Socket>(&mut self, stream: &mut PacketStream<S>, session: &Session) -> Result<DumpEnd, DumpError> {
        let engine = &session.engine;
        let file_name = |seq: u32| engine.binlog.file_name(seq);
        let mut name = file_name(self.cursor.position().file_seq);
        let body = rotate_body(&name, self.start_offset);
        let crc = self.file_checksums && self.client_wants_crc32;
        self.send(stream, &artificial_event(self.server_id, type_code::ROTATE, &body, 0, crc))?;
        self.check_client_checksums(&name)?;
        if self.start_offset > 4 {
            // The replica needs the file's format before mid-file events.
            if let Some(fd) = self.cursor.event_at(4)? {
                self.send(stream, &mid_file_format_description(fd))?;
            }
        }
        let mut limit = engine.binlog.replica_limit();
        let mut last_sent = Instant::now();
        loop {
            match self.cursor.next(&limit)? {
                Next::Event(event) => {
                    // A long backlog streams without waiting; KILL and
                    // shutdown still end it between events.
                    if session.kill_requested() || engine.is_shutting_down() {
                        return Ok(DumpEnd::ClientGone);
                    }
                    if self.applied.as_mut().is_some_and(|f| !f.passes(&event)) {
                        continue;
                    }
                    self.send(stream, &event)?;
                    last_sent = Instant::now();
                }
                Next::EndOfFile => {
                    let seq = self.cursor.position().file_seq;
                    let Some((next_name, next_seq, path)) = engine.binlog.indexed_after(seq) else {
                        return Err(DumpError::Sql(fatal_reading(&format!("binary log file after {name} is missing"))));
                    };
                    self.cursor = EventCursor::open(&path, next_seq, 4)?;
                    engine.replicas.reading(session.connection_id, self.replica_server_id, self.cursor.position());
                    // As MariaDB does at each new file (the last one may
                    // have ended in STOP, not ROTATE), checksummed as the
                    // file before: `mariadb-binlog` stops here unless asked
                    // for the later files.
                    let body = rotate_body(&next_name, 4);
                    self.send(
                        stream,
                        &artificial_event(self.server_id, type_code::ROTATE, &body, 0, self.file_checksums),
                    )?;
                    self.file_checksums = self.cursor.checksums()?;
                    self.check_client_checksums(&next_name)?;
                    name = next_name;
                }
                Next::Wait => {
                    stream.flush()?;
                    if self.non_blocking {
                        return Ok(DumpEnd::NonBlockingEnd);
                    }
                    if client_gone(stream) || session.kill_requested() || engine.is_shutting_down() {
                        return Ok(DumpEnd::ClientGone);
                    }
                    let heartbeat_due = self.heartbeat.map(|h| last_sent + h);
                    let wake = heartbeat_due.map_or(CLIENT_CHECK, |at| at.saturating_duration_since(Instant::now()));
                    limit = engine.binlog.wait_replica_limit(limit, wake.min(CLIENT_CHECK));
                    if heartbeat_due.is_some_and(|at| Instant::now() >= at) {
                        let pos = self.cursor.position();
                        let body = name.as_bytes();
                        let crc = self.file_checksums;
                        self.send(
                            stream,
                            &artificial_event(self.server_id, type_code::HEARTBEAT, body, pos.offset, crc),
                        )?;
                        stream.flush()?;
                        last_sent = Instant::now();
                    }
                }
            }
        }
    }

    /// Queues one event packet.
    fn send<S: Socket>(&self, stream: &mut PacketStream<S>, event: &[u8]) -> Result<(), PacketError> {
        let mut packet = Vec::with_capacity(event.len() + 1);
        packet.push(EVENT_PACKET);
        packet.extend_from_slice(event);
        stream.write_packet(&packet)
    }

    /// A client that did not say it reads checksums gets none of a
    /// checksummed file: error 1236, as from MariaDB.
    fn check_client_checksums(&self, name: &str) -> Result<(), DumpError> {
        if !self.file_checksums || self.client_checksums {
            return Ok(());
        }
        let start = self.start_offset;
        Err(DumpError::Sql(fatal_reading(&format!(
            "Slave can not handle replication events with the checksum that master is configured to log; the first event '{name}' at {start}, the last event read from '{name}' at 4, the last byte read from '{name}' at 4."
        ))))
    }
}

/// An event made up for a dump (not in any file), with the given
/// log_pos and a checksum or none.
fn artificial_event(server_id: u32, type_code: u8, body: &[u8], log_pos: u64, checksum: bool) -> Vec<u8> {
    // A heartbeat's flags are 0 in MariaDB's; the ROTATEs are artificial.
    let flags = if type_code == type_code::HEARTBEAT { 0 } else { header_flag::ARTIFICIAL };
    let mut event = Vec::with_capacity(HEADER_LEN + body.len() + CHECKSUM_LEN);
    write_event(&mut event, 0, 0, server_id, type_code, flags, body, checksum);
    // write_event derives log_pos from its start offset; ours is given.
    event[13..17].copy_from_slice(&(log_pos as u32).to_le_bytes());
    if checksum {
        refresh_checksum(&mut event);
    }
    event
}

/// The FORMAT_DESCRIPTION sent before a mid-file start: log_pos 0 (not the
/// replica's position) and creation time 0 (not a server start, after
/// which a replica drops its temporary tables), as MariaDB sends it.
fn mid_file_format_description(mut event: Vec<u8>) -> Vec<u8> {
    /// Body offset of the creation time: binlog version (2 bytes) and
    /// server version (50 bytes) come first.
    const CREATED_AT: usize = HEADER_LEN + 2 + 50;
    event[13..17].copy_from_slice(&0u32.to_le_bytes());
    if let Some(created) = event.get_mut(CREATED_AT..CREATED_AT + 4) {
        created.copy_from_slice(&0u32.to_le_bytes());
    }
    // A FORMAT_DESCRIPTION always carries a checksum field.
    refresh_checksum(&mut event);
    event
}

/// Where a GTID-mode replica starts: the file holding everything after
/// its `@slave_connect_state`, with that position.
fn gtid_start(session: &Session, connect_state: &str) -> Result<(u32, std::path::PathBuf, GtidPosition), SqlError> {
    let binlog = &session.engine.binlog;
    let position = GtidPosition::parse(connect_state).map_err(|e| fatal_reading(&e))?;
    if let Some(gtid) = position.ahead_of(&binlog.gtid_binlog_state()) {
        return Err(fatal_reading(&format!(
            "Error: connecting slave requested to start from GTID {gtid}, which is not in the master's binlog"
        )));
    }
    let files = binlog.indexed_files();
    let start = gtid_start_file(&files, &position).map_err(|e| fatal_reading(&e.to_string()))?;
    let Some((_, seq, path)) = start.and_then(|i| files.into_iter().nth(i)) else {
        return Err(fatal_reading(
            "Could not find GTID state requested by slave in any binlog files. Probably the slave state is too old and required binlog files have been purged.",
        ));
    };
    Ok((seq, path, position))
}

/// Recomputes the CRC32 at the end of `event` after a header change.
fn refresh_checksum(event: &mut [u8]) {
    let body_end = event.len() - CHECKSUM_LEN;
    let crc = crc32fast::hash(&event[..body_end]);
    event[body_end..].copy_from_slice(&crc.to_le_bytes());
}

/// End of input on the socket: the client closed, or KILL or shutdown
/// shut it down. (A replica sends nothing during a dump; bytes it does send
/// are left unread.)
fn client_gone<S: Socket>(stream: &PacketStream<S>) -> bool {
    let socket = socket2::SockRef::from(stream.get_ref());
    let mut probe = [MaybeUninit::<u8>::uninit(); 1];
    match socket.recv_with_flags(&mut probe, libc::MSG_PEEK | libc::MSG_DONTWAIT) {
        Ok(n) => n == 0,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}
