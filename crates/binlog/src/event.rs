//! Binlog events, MariaDB 10.11 flavour: encoding and decoding.
//!
//! Owns: the byte layout of every event OneLog writes (v4 common header,
//! FORMAT_DESCRIPTION, GTID_LIST, BINLOG_CHECKPOINT, GTID, QUERY, TABLE_MAP
//! with full optional metadata, WRITE/UPDATE/DELETE_ROWS v1, XID, ROTATE, STOP)
//! and their CRC32 checksums, plus decoding of the same events back (for
//! recovery, the replica applier and tests). Row images themselves are
//! encoded by [`onelog_core::rowimage`]. Decoding never panics: every read is
//! bounds-checked and garbage yields [`BinlogError::Malformed`].
//!
//! Layouts follow MariaDB's sql/log_event.h, log_event.cc and
//! log_event_server.cc.

use crate::{BinlogError, Gtid};
use onelog_core::rowimage::{self, mysql_type};
use onelog_core::{ColumnType, TableDef, Value};

/// The four bytes every binlog file starts with.
pub const BINLOG_MAGIC: [u8; 4] = [0xfe, b'b', b'i', b'n'];
/// Length of the v4 common event header.
pub const HEADER_LEN: usize = 19;
/// Length of the CRC32 trailer of a checksummed event.
pub const CHECKSUM_LEN: usize = 4;

/// Event type codes (`enum Log_event_type`).
pub mod type_code {
    pub const UNKNOWN: u8 = 0;
    pub const START_V3: u8 = 1;
    pub const QUERY: u8 = 2;
    pub const STOP: u8 = 3;
    pub const ROTATE: u8 = 4;
    pub const INTVAR: u8 = 5;
    pub const LOAD: u8 = 6;
    pub const SLAVE: u8 = 7;
    pub const CREATE_FILE: u8 = 8;
    pub const APPEND_BLOCK: u8 = 9;
    pub const EXEC_LOAD: u8 = 10;
    pub const DELETE_FILE: u8 = 11;
    pub const NEW_LOAD: u8 = 12;
    pub const RAND: u8 = 13;
    pub const USER_VAR: u8 = 14;
    pub const FORMAT_DESCRIPTION: u8 = 15;
    pub const XID: u8 = 16;
    pub const BEGIN_LOAD_QUERY: u8 = 17;
    pub const EXECUTE_LOAD_QUERY: u8 = 18;
    pub const TABLE_MAP: u8 = 19;
    pub const PRE_GA_WRITE_ROWS: u8 = 20;
    pub const PRE_GA_UPDATE_ROWS: u8 = 21;
    pub const PRE_GA_DELETE_ROWS: u8 = 22;
    pub const WRITE_ROWS_V1: u8 = 23;
    pub const UPDATE_ROWS_V1: u8 = 24;
    pub const DELETE_ROWS_V1: u8 = 25;
    pub const INCIDENT: u8 = 26;
    pub const HEARTBEAT: u8 = 27;
    pub const IGNORABLE: u8 = 28;
    pub const ROWS_QUERY: u8 = 29;
    pub const WRITE_ROWS_V2: u8 = 30;
    pub const UPDATE_ROWS_V2: u8 = 31;
    pub const DELETE_ROWS_V2: u8 = 32;
    pub const MYSQL_GTID: u8 = 33;
    pub const MYSQL_ANONYMOUS_GTID: u8 = 34;
    pub const MYSQL_PREVIOUS_GTIDS: u8 = 35;
    pub const TRANSACTION_CONTEXT: u8 = 36;
    pub const VIEW_CHANGE: u8 = 37;
    pub const XA_PREPARE: u8 = 38;
    pub const ANNOTATE_ROWS: u8 = 160;
    pub const BINLOG_CHECKPOINT: u8 = 161;
    pub const GTID: u8 = 162;
    pub const GTID_LIST: u8 = 163;
    pub const START_ENCRYPTION: u8 = 164;
    pub const QUERY_COMPRESSED: u8 = 165;
    pub const WRITE_ROWS_COMPRESSED_V1: u8 = 166;
    pub const UPDATE_ROWS_COMPRESSED_V1: u8 = 167;
    pub const DELETE_ROWS_COMPRESSED_V1: u8 = 168;
    pub const WRITE_ROWS_COMPRESSED: u8 = 169;
    pub const UPDATE_ROWS_COMPRESSED: u8 = 170;
    pub const DELETE_ROWS_COMPRESSED: u8 = 171;
}

/// Common-header flags (`LOG_EVENT_*_F`).
pub mod header_flag {
    /// Set in the FORMAT_DESCRIPTION of a file still being written; a reader
    /// that finds it on a file that is not the newest knows the server crashed.
    pub const BINLOG_IN_USE: u16 = 0x1;
    pub const THREAD_SPECIFIC: u16 = 0x4;
    pub const SUPPRESS_USE: u16 = 0x8;
    pub const ARTIFICIAL: u16 = 0x20;
    pub const IGNORABLE: u16 = 0x80;
    pub const SKIP_REPLICATION: u16 = 0x8000;
}

/// MariaDB GTID event `flags2` bits.
pub mod gtid_flag {
    pub const STANDALONE: u8 = 1;
    pub const GROUP_COMMIT_ID: u8 = 2;
    pub const TRANSACTIONAL: u8 = 4;
    pub const ALLOW_PARALLEL: u8 = 8;
    pub const WAITED: u8 = 16;
    pub const DDL: u8 = 32;
    pub const PREPARED_XA: u8 = 64;
    pub const COMPLETED_XA: u8 = 128;
}

/// Rows event flags.
pub mod rows_flag {
    /// Last rows event of a statement: the applier may release table locks.
    pub const STMT_END: u16 = 1;
    pub const NO_FOREIGN_KEY_CHECKS: u16 = 2;
    pub const RELAXED_UNIQUE_CHECKS: u16 = 4;
    pub const COMPLETE_ROWS: u16 = 8;
}

/// FORMAT_DESCRIPTION checksum algorithm byte values.
pub mod checksum_alg {
    pub const OFF: u8 = 0;
    pub const CRC32: u8 = 1;
}

/// Binlog format version written in FORMAT_DESCRIPTION.
const BINLOG_VERSION: u16 = 4;
/// Width of the NUL-padded server version in FORMAT_DESCRIPTION.
const SERVER_VERSION_LEN: usize = 50;
/// Event types MariaDB 10.11 describes in FORMAT_DESCRIPTION (1..=171).
const NUMBER_OF_EVENT_TYPES: usize = type_code::DELETE_ROWS_COMPRESSED as usize;
/// FORMAT_DESCRIPTION's own post-header: version, server version,
/// timestamp, header length, the length table.
const FORMAT_DESCRIPTION_HEADER_LEN: usize = 2 + SERVER_VERSION_LEN + 4 + 1 + NUMBER_OF_EVENT_TYPES;
const QUERY_HEADER_LEN: u8 = 13;
const ROWS_HEADER_LEN_V1: u8 = 8;
const ROWS_HEADER_LEN_V2: u8 = 10;
const GTID_HEADER_LEN: usize = 19;
/// MariaDB's `binlog_row_event_max_size` default.
pub const DEFAULT_ROW_EVENT_MAX_BYTES: usize = 8192;

/// The post-header length of each event type (index = type code - 1), as
/// MariaDB 10.11's Format_description_log_event constructor fills it.
fn post_header_lengths() -> [u8; NUMBER_OF_EVENT_TYPES] {
    use type_code as t;
    let mut len = [0u8; NUMBER_OF_EVENT_TYPES];
    let mut set = |code: u8, value: u8| len[usize::from(code) - 1] = value;
    set(t::START_V3, 2 + SERVER_VERSION_LEN as u8 + 4);
    set(t::QUERY, QUERY_HEADER_LEN);
    set(t::ROTATE, 8);
    set(t::LOAD, 18);
    set(t::CREATE_FILE, 4);
    set(t::APPEND_BLOCK, 4);
    set(t::EXEC_LOAD, 4);
    set(t::DELETE_FILE, 4);
    set(t::NEW_LOAD, 18);
    set(t::FORMAT_DESCRIPTION, FORMAT_DESCRIPTION_HEADER_LEN as u8);
    set(t::BEGIN_LOAD_QUERY, 4);
    set(t::EXECUTE_LOAD_QUERY, QUERY_HEADER_LEN + 13);
    set(t::TABLE_MAP, 8);
    for code in [t::WRITE_ROWS_V1, t::UPDATE_ROWS_V1, t::DELETE_ROWS_V1] {
        set(code, ROWS_HEADER_LEN_V1);
    }
    set(t::INCIDENT, 2);
    for code in [t::WRITE_ROWS_V2, t::UPDATE_ROWS_V2, t::DELETE_ROWS_V2] {
        set(code, ROWS_HEADER_LEN_V2);
    }
    set(t::BINLOG_CHECKPOINT, 4);
    set(t::GTID, GTID_HEADER_LEN as u8);
    set(t::GTID_LIST, 4);
    set(t::QUERY_COMPRESSED, QUERY_HEADER_LEN);
    for code in [t::WRITE_ROWS_COMPRESSED_V1, t::UPDATE_ROWS_COMPRESSED_V1, t::DELETE_ROWS_COMPRESSED_V1] {
        set(code, ROWS_HEADER_LEN_V1);
    }
    for code in [t::WRITE_ROWS_COMPRESSED, t::UPDATE_ROWS_COMPRESSED, t::DELETE_ROWS_COMPRESSED] {
        set(code, ROWS_HEADER_LEN_V2);
    }
    len
}

/// The name SHOW BINLOG EVENTS prints in its Event_type column.
pub fn event_type_name(code: u8) -> &'static str {
    use type_code as t;
    match code {
        t::START_V3 => "Start_v3",
        t::QUERY => "Query",
        t::STOP => "Stop",
        t::ROTATE => "Rotate",
        t::INTVAR => "Intvar",
        t::LOAD => "Load",
        t::SLAVE => "Slave",
        t::CREATE_FILE => "Create_file",
        t::APPEND_BLOCK => "Append_block",
        t::EXEC_LOAD => "Exec_load",
        t::DELETE_FILE => "Delete_file",
        t::NEW_LOAD => "New_load",
        t::RAND => "RAND",
        t::USER_VAR => "User var",
        t::FORMAT_DESCRIPTION => "Format_desc",
        t::XID => "Xid",
        t::BEGIN_LOAD_QUERY => "Begin_load_query",
        t::EXECUTE_LOAD_QUERY => "Execute_load_query",
        t::TABLE_MAP => "Table_map",
        t::PRE_GA_WRITE_ROWS => "Write_rows_event_old",
        t::PRE_GA_UPDATE_ROWS => "Update_rows_event_old",
        t::PRE_GA_DELETE_ROWS => "Delete_rows_event_old",
        t::WRITE_ROWS_V1 => "Write_rows_v1",
        t::UPDATE_ROWS_V1 => "Update_rows_v1",
        t::DELETE_ROWS_V1 => "Delete_rows_v1",
        t::INCIDENT => "Incident",
        t::HEARTBEAT => "Heartbeat",
        t::IGNORABLE => "Ignorable",
        t::ROWS_QUERY => "rows_query",
        t::WRITE_ROWS_V2 => "Write_rows",
        t::UPDATE_ROWS_V2 => "Update_rows",
        t::DELETE_ROWS_V2 => "Delete_rows",
        t::MYSQL_GTID => "Gtid_log_event",
        t::MYSQL_ANONYMOUS_GTID => "Anonymous_Gtid",
        t::MYSQL_PREVIOUS_GTIDS => "Previous_gtids",
        t::TRANSACTION_CONTEXT => "Transaction_context",
        t::VIEW_CHANGE => "View_change",
        t::XA_PREPARE => "XA_prepare",
        t::ANNOTATE_ROWS => "Annotate_rows",
        t::BINLOG_CHECKPOINT => "Binlog_checkpoint",
        t::GTID => "Gtid",
        t::GTID_LIST => "Gtid_list",
        t::START_ENCRYPTION => "Start_encryption",
        t::QUERY_COMPRESSED => "Query_compressed",
        t::WRITE_ROWS_COMPRESSED_V1 => "Write_rows_compressed_v1",
        t::UPDATE_ROWS_COMPRESSED_V1 => "Update_rows_compressed_v1",
        t::DELETE_ROWS_COMPRESSED_V1 => "Delete_rows_compressed_v1",
        t::WRITE_ROWS_COMPRESSED => "Write_rows_compressed",
        t::UPDATE_ROWS_COMPRESSED => "Update_rows_compressed",
        t::DELETE_ROWS_COMPRESSED => "Delete_rows_compressed",
        _ => "Unknown",
    }
}

// ------------------------------------------------------------------ writing

/// The v4 common header of every event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventHeader {
    pub timestamp: u32,
    pub type_code: u8,
    pub server_id: u32,
    /// Whole event: header, body and checksum.
    pub event_size: u32,
    /// File offset just past this event.
    pub log_pos: u32,
    pub flags: u16,
}

/// Appends one complete event (header + body + CRC32 of both when `checksum`) that will start at file
/// offset `start_offset`; the header's log_pos is the end offset. Returns the end offset.
///
/// A FORMAT_DESCRIPTION event always gets its CRC: MariaDB readers find the
/// checksum-algorithm byte 5 bytes from the end of that event whatever the
/// algorithm is, so a checksum-free file still carries the 4 bytes there.
/// Offsets past 4 GiB do not fit log_pos (MySQL's limit too); files rotate
/// long before that.
#[allow(clippy::too_many_arguments)]
pub fn write_event(
    out: &mut Vec<u8>,
    start_offset: u64,
    timestamp: u32,
    server_id: u32,
    type_code: u8,
    flags: u16,
    body: &[u8],
    checksum: bool,
) -> u64 {
    let with_crc = checksum || type_code == type_code::FORMAT_DESCRIPTION;
    let event_size = HEADER_LEN + body.len() + if with_crc { CHECKSUM_LEN } else { 0 };
    let end = start_offset + event_size as u64;
    let start = out.len();
    out.extend_from_slice(&timestamp.to_le_bytes());
    out.push(type_code);
    out.extend_from_slice(&server_id.to_le_bytes());
    out.extend_from_slice(&(event_size as u32).to_le_bytes());
    out.extend_from_slice(&(end as u32).to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(body);
    if with_crc {
        let crc = crc32fast::hash(&out[start..]);
        out.extend_from_slice(&crc.to_le_bytes());
    }
    end
}

/// FORMAT_DESCRIPTION body: binlog version 4, the server version, the
/// creation time, the header length, MariaDB 10.11's post-header length
/// table and the checksum algorithm byte (CRC32 or OFF).
pub fn format_description_body(server_version: &str, created_timestamp: u32, checksum: bool) -> Vec<u8> {
    let mut body = Vec::with_capacity(FORMAT_DESCRIPTION_HEADER_LEN + 1);
    body.extend_from_slice(&BINLOG_VERSION.to_le_bytes());
    let mut version = [0u8; SERVER_VERSION_LEN];
    // Keep a terminating NUL, as MariaDB does.
    let n = server_version.len().min(SERVER_VERSION_LEN - 1);
    version[..n].copy_from_slice(&server_version.as_bytes()[..n]);
    body.extend_from_slice(&version);
    body.extend_from_slice(&created_timestamp.to_le_bytes());
    body.push(HEADER_LEN as u8);
    body.extend_from_slice(&post_header_lengths());
    body.push(if checksum { checksum_alg::CRC32 } else { checksum_alg::OFF });
    body
}

/// GTID_LIST body: the last GTID of every replication domain.
pub fn gtid_list_body(gtids: &[Gtid]) -> Vec<u8> {
    let mut body = Vec::with_capacity(4 + 16 * gtids.len());
    // The top 4 bits of the count are flags, none of which OneLog sets.
    body.extend_from_slice(&((gtids.len() as u32) & 0x0fff_ffff).to_le_bytes());
    for g in gtids {
        body.extend_from_slice(&g.domain_id.to_le_bytes());
        body.extend_from_slice(&g.server_id.to_le_bytes());
        body.extend_from_slice(&g.seq_no.to_le_bytes());
    }
    body
}

/// BINLOG_CHECKPOINT body: the oldest binlog file crash recovery needs.
pub fn binlog_checkpoint_body(file_name: &str) -> Vec<u8> {
    let mut body = Vec::with_capacity(4 + file_name.len());
    body.extend_from_slice(&(file_name.len() as u32).to_le_bytes());
    body.extend_from_slice(file_name.as_bytes());
    body
}

/// What a binlog event group holds, which its GTID flags announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupKind {
    /// Row events of a transaction, ended by an XID.
    #[default]
    Transaction,
    /// One DDL QUERY event outside BEGIN…COMMIT, no XID.
    StandaloneDdl,
    /// A DDL QUERY event followed by the rows it wrote, ended by an XID:
    /// CREATE TABLE … SELECT, as MariaDB logs it in row format.
    DdlWithRows,
}

/// MariaDB GTID event body: seq_no, domain_id, flags2, then the group
/// commit id or 6 bytes of padding. The server id is the header's.
///
/// flags2 as MariaDB sets them: a standalone DDL is FL_STANDALONE | FL_DDL,
/// a row transaction FL_TRANSACTIONAL | FL_ALLOW_PARALLEL, CREATE … SELECT
/// FL_DDL | FL_ALLOW_PARALLEL (not transactional: a replica cannot roll a
/// DDL back). `commit_id` (the group commit id) lets a parallel replica
/// apply a commit group together.
pub fn gtid_body(gtid: &Gtid, kind: GroupKind, commit_id: Option<u64>) -> Vec<u8> {
    let mut flags2 = match kind {
        GroupKind::StandaloneDdl => gtid_flag::STANDALONE | gtid_flag::DDL,
        GroupKind::Transaction => gtid_flag::TRANSACTIONAL | gtid_flag::ALLOW_PARALLEL,
        GroupKind::DdlWithRows => gtid_flag::DDL | gtid_flag::ALLOW_PARALLEL,
    };
    if commit_id.is_some() {
        flags2 |= gtid_flag::GROUP_COMMIT_ID;
    }
    let mut body = Vec::with_capacity(GTID_HEADER_LEN + 2);
    body.extend_from_slice(&gtid.seq_no.to_le_bytes());
    body.extend_from_slice(&gtid.domain_id.to_le_bytes());
    body.push(flags2);
    match commit_id {
        Some(id) => body.extend_from_slice(&id.to_le_bytes()),
        None => body.extend_from_slice(&[0u8; GTID_HEADER_LEN - 13]),
    }
    body
}

/// XID body: the transaction id, 8 bytes little-endian.
pub fn xid_body(xid: u64) -> Vec<u8> {
    xid.to_le_bytes().to_vec()
}

/// What a QUERY event records about the statement and its session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryEvent<'a> {
    pub thread_id: u32,
    pub exec_time_s: u32,
    pub error_code: u16,
    pub db: &'a str,
    pub sql: &'a str,
    pub sql_mode: u64,
    pub charset_client: u16,
    pub collation_connection: u16,
    pub collation_server: u16,
    pub auto_increment_increment: u16,
    pub auto_increment_offset: u16,
    /// The Q_FLAGS2 status variable: the session options a replica applies
    /// the statement with ([`query_flags2`]).
    pub flags2: u32,
}

/// Bits of a QUERY event's Q_FLAGS2 (MariaDB's `option_bits`).
pub mod query_flags2 {
    /// The statement ran with `foreign_key_checks=0`.
    pub const NO_FOREIGN_KEY_CHECKS: u32 = 1 << 26;
}

impl<'a> QueryEvent<'a> {
    /// A statement as every OneLog session logs it: no execution time or
    /// error, sql_mode 0 and utf8mb4_general_ci (what the applier replays
    /// with), auto-increment step and offset 1.
    pub fn new(thread_id: u32, db: &'a str, sql: &'a str) -> QueryEvent<'a> {
        QueryEvent {
            thread_id,
            exec_time_s: 0,
            error_code: 0,
            db,
            sql,
            sql_mode: 0,
            charset_client: 45,
            collation_connection: 45,
            collation_server: 45,
            auto_increment_increment: 1,
            auto_increment_offset: 1,
            flags2: 0,
        }
    }
}

/// QUERY status variable codes.
pub mod query_status {
    pub const FLAGS2: u8 = 0;
    pub const SQL_MODE: u8 = 1;
    pub const CATALOG: u8 = 2;
    pub const AUTO_INCREMENT: u8 = 3;
    pub const CHARSET: u8 = 4;
    pub const TIME_ZONE: u8 = 5;
    pub const CATALOG_NZ: u8 = 6;
    pub const LC_TIME_NAMES: u8 = 7;
    pub const CHARSET_DATABASE: u8 = 8;
    pub const TABLE_MAP_FOR_UPDATE: u8 = 9;
    pub const MASTER_DATA_WRITTEN: u8 = 10;
    pub const INVOKER: u8 = 11;
    pub const UPDATED_DB_NAMES: u8 = 12;
    pub const MICROSECONDS: u8 = 13;
    pub const HRNOW: u8 = 128;
    pub const XID: u8 = 129;
}

/// The server collation of a QUERY event's status variables: walks them
/// up to CHARSET. `None` when there is none, or when a variable before it
/// has a code this decoder does not know the size of (MySQL's and
/// MariaDB's later additions; OneLog writes CHARSET after known ones).
fn status_collation_server(mut status: &[u8]) -> Option<u16> {
    use query_status as q;
    while let Some((&code, rest)) = status.split_first() {
        let size = match code {
            q::FLAGS2 | q::MASTER_DATA_WRITTEN | q::AUTO_INCREMENT => 4,
            q::SQL_MODE | q::TABLE_MAP_FOR_UPDATE | q::XID => 8,
            q::LC_TIME_NAMES | q::CHARSET_DATABASE => 2,
            q::MICROSECONDS | q::HRNOW => 3,
            q::CATALOG_NZ | q::TIME_ZONE => 1 + usize::from(*rest.first()?),
            q::CHARSET => return Some(u16::from_le_bytes([*rest.get(4)?, *rest.get(5)?])),
            _ => return None,
        };
        status = rest.get(size..)?;
    }
    None
}

/// QUERY body: post-header (thread id, execution time, db length, error
/// code, status length), the status variables as MariaDB writes them for an
/// ordinary session, the NUL-terminated default database and the statement.
///
/// Flags2 carries only NO_FOREIGN_KEY_CHECKS (autocommit and unique
/// checks are always on for what OneLog logs). Database names longer than
/// 255 bytes cannot be represented (MariaDB limits them to 64 characters).
pub fn query_body(q: &QueryEvent) -> Vec<u8> {
    let mut status = Vec::with_capacity(40);
    status.push(query_status::FLAGS2);
    status.extend_from_slice(&q.flags2.to_le_bytes());
    status.push(query_status::SQL_MODE);
    status.extend_from_slice(&q.sql_mode.to_le_bytes());
    status.push(query_status::CATALOG_NZ);
    status.push(3);
    status.extend_from_slice(b"std");
    // MariaDB omits the auto-increment pair when both are the default 1.
    if q.auto_increment_increment != 1 || q.auto_increment_offset != 1 {
        status.push(query_status::AUTO_INCREMENT);
        status.extend_from_slice(&q.auto_increment_increment.to_le_bytes());
        status.extend_from_slice(&q.auto_increment_offset.to_le_bytes());
    }
    status.push(query_status::CHARSET);
    status.extend_from_slice(&q.charset_client.to_le_bytes());
    status.extend_from_slice(&q.collation_connection.to_le_bytes());
    status.extend_from_slice(&q.collation_server.to_le_bytes());

    let db = &q.db.as_bytes()[..q.db.len().min(255)];
    let mut body = Vec::with_capacity(usize::from(QUERY_HEADER_LEN) + status.len() + db.len() + 1 + q.sql.len());
    body.extend_from_slice(&q.thread_id.to_le_bytes());
    body.extend_from_slice(&q.exec_time_s.to_le_bytes());
    body.push(db.len() as u8);
    body.extend_from_slice(&q.error_code.to_le_bytes());
    body.extend_from_slice(&(status.len() as u16).to_le_bytes());
    body.extend_from_slice(&status);
    body.extend_from_slice(db);
    body.push(0);
    body.extend_from_slice(q.sql.as_bytes());
    body
}

/// ROTATE body: position in the next file (4, after its magic) and its name.
pub fn rotate_body(next_file: &str, position: u64) -> Vec<u8> {
    let mut body = Vec::with_capacity(8 + next_file.len());
    body.extend_from_slice(&position.to_le_bytes());
    body.extend_from_slice(next_file.as_bytes());
    body
}

/// STOP body: empty.
pub fn stop_body() -> Vec<u8> {
    Vec::new()
}

/// Appends a MySQL length-encoded ("packed") integer.
pub fn put_packed_int(out: &mut Vec<u8>, v: u64) {
    if v < 251 {
        out.push(v as u8);
    } else if v < 1 << 16 {
        out.push(0xfc);
        out.extend_from_slice(&(v as u16).to_le_bytes());
    } else if v < 1 << 24 {
        out.push(0xfd);
        out.extend_from_slice(&v.to_le_bytes()[..3]);
    } else {
        out.push(0xfe);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// TABLE_MAP optional metadata field types.
pub mod table_map_meta {
    pub const SIGNEDNESS: u8 = 1;
    pub const DEFAULT_CHARSET: u8 = 2;
    pub const COLUMN_CHARSET: u8 = 3;
    pub const COLUMN_NAME: u8 = 4;
    pub const SET_STR_VALUE: u8 = 5;
    pub const ENUM_STR_VALUE: u8 = 6;
    pub const GEOMETRY_TYPE: u8 = 7;
    pub const SIMPLE_PRIMARY_KEY: u8 = 8;
    pub const PRIMARY_KEY_WITH_PREFIX: u8 = 9;
    pub const ENUM_AND_SET_DEFAULT_CHARSET: u8 = 10;
    pub const ENUM_AND_SET_COLUMN_CHARSET: u8 = 11;
}

/// TABLE_MAP flag MariaDB always sets: the null bitmap has exactly one bit
/// per column.
const TM_BIT_LEN_EXACT_F: u16 = 1;

fn put_table_id(out: &mut Vec<u8>, id: u64) {
    out.extend_from_slice(&id.to_le_bytes()[..6]);
}

fn put_short_name(out: &mut Vec<u8>, name: &str) {
    let bytes = &name.as_bytes()[..name.len().min(255)];
    out.push(bytes.len() as u8);
    out.extend_from_slice(bytes);
    out.push(0);
}

fn put_tlv(out: &mut Vec<u8>, kind: u8, value: &[u8]) {
    out.push(kind);
    put_packed_int(out, value.len() as u64);
    out.extend_from_slice(value);
}

/// True for columns whose type has a SIGNEDNESS bit: MariaDB's numeric
/// fields (Field_num and its children, YEAR included, as mysql_common and
/// MySQL count them too).
fn is_numeric_binlog_type(code: u8) -> bool {
    use mysql_type as t;
    matches!(
        code,
        t::TINY
            | t::SHORT
            | t::INT24
            | t::LONG
            | t::LONGLONG
            | t::FLOAT
            | t::DOUBLE
            | t::DECIMAL
            | t::NEWDECIMAL
            | t::YEAR
    )
}

/// True for columns that carry a charset in DEFAULT/COLUMN_CHARSET (string
/// and blob types, binary ones included; ENUM/SET have their own field).
fn is_character_column(ty: &ColumnType) -> bool {
    matches!(
        ty,
        ColumnType::Char(_)
            | ColumnType::VarChar(_)
            | ColumnType::Binary(_)
            | ColumnType::VarBinary(_)
            | ColumnType::Text(_)
            | ColumnType::Blob(_)
            // Logged as BINARY(16), with the binary charset.
            | ColumnType::Uuid
    )
}

/// TABLE_MAP body with binlog_row_metadata=FULL optional metadata
/// (SIGNEDNESS, DEFAULT_CHARSET, COLUMN_NAME, ENUM_AND_SET_DEFAULT_CHARSET,
/// SET_STR_VALUE, ENUM_STR_VALUE, SIMPLE_PRIMARY_KEY).
pub fn table_map_body(table: &TableDef) -> Vec<u8> {
    let mut body = Vec::with_capacity(64 + 16 * table.columns.len());
    put_table_id(&mut body, table.id);
    body.extend_from_slice(&TM_BIT_LEN_EXACT_F.to_le_bytes());
    put_short_name(&mut body, &table.db);
    put_short_name(&mut body, &table.name);
    put_packed_int(&mut body, table.columns.len() as u64);
    let types: Vec<(u8, Vec<u8>)> = table.columns.iter().map(rowimage::binlog_type).collect();
    body.extend(types.iter().map(|(code, _)| *code));
    let metadata: Vec<u8> = types.iter().flat_map(|(_, m)| m.iter().copied()).collect();
    put_packed_int(&mut body, metadata.len() as u64);
    body.extend_from_slice(&metadata);
    let mut nullable = vec![0u8; table.columns.len().div_ceil(8)];
    for (i, c) in table.columns.iter().enumerate() {
        if c.nullable {
            nullable[i / 8] |= 1 << (i % 8);
        }
    }
    body.extend_from_slice(&nullable);

    // SIGNEDNESS: one bit per numeric column, most significant bit first.
    let numeric: Vec<bool> = table
        .columns
        .iter()
        .zip(&types)
        .filter(|(_, (code, _))| is_numeric_binlog_type(*code))
        // YEAR is always UNSIGNED ZEROFILL in MariaDB.
        .map(|(c, _)| c.unsigned || c.ty == ColumnType::Year)
        .collect();
    if !numeric.is_empty() {
        let mut bits = vec![0u8; numeric.len().div_ceil(8)];
        for (i, unsigned) in numeric.iter().enumerate() {
            if *unsigned {
                bits[i / 8] |= 0x80 >> (i % 8);
            }
        }
        put_tlv(&mut body, table_map_meta::SIGNEDNESS, &bits);
    }

    // DEFAULT_CHARSET: the most common collation, then the exceptions as
    // (index among character columns, collation) pairs.
    let char_collations: Vec<u16> =
        table.columns.iter().filter(|c| is_character_column(&c.ty)).map(|c| c.collation.id()).collect();
    if let Some(default) = most_common(&char_collations) {
        let mut v = Vec::new();
        put_packed_int(&mut v, u64::from(default));
        for (i, id) in char_collations.iter().enumerate() {
            if *id != default {
                put_packed_int(&mut v, i as u64);
                put_packed_int(&mut v, u64::from(*id));
            }
        }
        put_tlv(&mut body, table_map_meta::DEFAULT_CHARSET, &v);
    }

    let mut names = Vec::new();
    for c in &table.columns {
        put_packed_int(&mut names, c.name.len() as u64);
        names.extend_from_slice(c.name.as_bytes());
    }
    put_tlv(&mut body, table_map_meta::COLUMN_NAME, &names);

    // ENUM and SET columns: their charsets, then SET's members, then
    // ENUM's (the order MariaDB writes these fields in).
    let member_collations: Vec<u16> =
        table.columns.iter().filter(|c| c.ty.has_members()).map(|c| c.collation.id()).collect();
    if let Some(default) = most_common(&member_collations) {
        let mut v = Vec::new();
        put_packed_int(&mut v, u64::from(default));
        for (i, id) in member_collations.iter().enumerate() {
            if *id != default {
                put_packed_int(&mut v, i as u64);
                put_packed_int(&mut v, u64::from(*id));
            }
        }
        put_tlv(&mut body, table_map_meta::ENUM_AND_SET_DEFAULT_CHARSET, &v);
    }
    let sets = table.columns.iter().filter_map(|c| match &c.ty {
        ColumnType::Set(members) => Some(members.as_slice()),
        _ => None,
    });
    put_member_lists(&mut body, table_map_meta::SET_STR_VALUE, sets);
    let enums = table.columns.iter().filter_map(|c| match &c.ty {
        ColumnType::Enum(labels) => Some(labels.as_slice()),
        _ => None,
    });
    put_member_lists(&mut body, table_map_meta::ENUM_STR_VALUE, enums);

    if let Some(pk) = table.primary_key() {
        let mut v = Vec::new();
        for col in &pk.columns {
            put_packed_int(&mut v, *col as u64);
        }
        put_tlv(&mut body, table_map_meta::SIMPLE_PRIMARY_KEY, &v);
    }

    body
}

/// An ENUM_STR_VALUE / SET_STR_VALUE field: per column, its member count
/// and members; no field when there is no such column.
fn put_member_lists<'a>(body: &mut Vec<u8>, kind: u8, columns: impl Iterator<Item = &'a [String]>) {
    let mut v = Vec::new();
    let mut any = false;
    for members in columns {
        any = true;
        put_packed_int(&mut v, members.len() as u64);
        for m in members {
            put_packed_int(&mut v, m.len() as u64);
            v.extend_from_slice(m.as_bytes());
        }
    }
    if any {
        put_tlv(body, kind, &v);
    }
}

fn most_common(ids: &[u16]) -> Option<u16> {
    let mut best: Option<(u16, usize)> = None;
    for id in ids {
        let n = ids.iter().filter(|x| *x == id).count();
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((*id, n));
        }
    }
    best.map(|(id, _)| id)
}

/// Which rows event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowsKind {
    Write,
    Update,
    Delete,
}

impl RowsKind {
    /// The v1 event type code.
    pub fn type_code(self) -> u8 {
        match self {
            RowsKind::Write => type_code::WRITE_ROWS_V1,
            RowsKind::Update => type_code::UPDATE_ROWS_V1,
            RowsKind::Delete => type_code::DELETE_ROWS_V1,
        }
    }

    /// The kind of a rows event type code (v1, v2, compressed alike).
    pub fn from_type_code(code: u8) -> Option<RowsKind> {
        use type_code as t;
        match code {
            t::WRITE_ROWS_V1 | t::WRITE_ROWS_V2 => Some(RowsKind::Write),
            t::UPDATE_ROWS_V1 | t::UPDATE_ROWS_V2 => Some(RowsKind::Update),
            t::DELETE_ROWS_V1 | t::DELETE_ROWS_V2 => Some(RowsKind::Delete),
            _ => None,
        }
    }
}

/// One row change, with full row images.
#[derive(Debug, Clone, PartialEq)]
pub enum RowChange {
    Insert(Vec<Value>),
    Update { before: Vec<Value>, after: Vec<Value> },
    Delete(Vec<Value>),
}

fn row_image_error(e: rowimage::RowImageError) -> BinlogError {
    BinlogError::Malformed(e.to_string())
}

/// Rows events (v1) for one statement's changes to one table, split so no body exceeds `max_body_bytes`
/// (MariaDB's binlog_row_event_max_size, 8192 by default; one row bigger than that gets its own event);
/// the last body carries STMT_END_F. All changes must match `kind`.
pub fn rows_bodies(
    kind: RowsKind,
    table: &TableDef,
    changes: &[RowChange],
    max_body_bytes: usize,
) -> Result<Vec<Vec<u8>>, BinlogError> {
    let n = table.columns.len();
    let mut header = Vec::with_capacity(16 + n / 4);
    put_table_id(&mut header, table.id);
    let flags_at = header.len();
    header.extend_from_slice(&0u16.to_le_bytes());
    put_packed_int(&mut header, n as u64);
    // Every column is present (binlog_row_image=FULL): all bits set.
    let mut present = vec![0xffu8; n.div_ceil(8)];
    if !n.is_multiple_of(8) {
        if let Some(last) = present.last_mut() {
            *last = (1u8 << (n % 8)) - 1;
        }
    }
    header.extend_from_slice(&present);
    if kind == RowsKind::Update {
        header.extend_from_slice(&present);
    }

    let mut bodies: Vec<Vec<u8>> = Vec::new();
    let mut current = header.clone();
    let mut row = Vec::new();
    for change in changes {
        row.clear();
        match (kind, change) {
            (RowsKind::Write, RowChange::Insert(v)) | (RowsKind::Delete, RowChange::Delete(v)) => {
                rowimage::encode_row(&table.columns, v, &mut row).map_err(row_image_error)?;
            }
            (RowsKind::Update, RowChange::Update { before, after }) => {
                rowimage::encode_row(&table.columns, before, &mut row).map_err(row_image_error)?;
                rowimage::encode_row(&table.columns, after, &mut row).map_err(row_image_error)?;
            }
            _ => return Err(BinlogError::Malformed(format!("row change {change:?} in a {kind:?} rows event"))),
        }
        if current.len() > header.len() && current.len() + row.len() > max_body_bytes {
            bodies.push(std::mem::replace(&mut current, header.clone()));
        }
        current.extend_from_slice(&row);
    }
    bodies.push(current);
    if let Some(last) = bodies.last_mut() {
        last[flags_at..flags_at + 2].copy_from_slice(&rows_flag::STMT_END.to_le_bytes());
    }
    Ok(bodies)
}

/// Sets `flags` (`rows_flag`) in a body [`rows_bodies`] made, besides the
/// STMT_END_F it may carry.
pub fn add_rows_flags(body: &mut [u8], flags: u16) {
    // The flags follow the 6-byte table id.
    if let Some(field) = body.get_mut(6..8) {
        let old = u16::from_le_bytes([field[0], field[1]]);
        field.copy_from_slice(&(old | flags).to_le_bytes());
    }
}

// ------------------------------------------------------------------ reading

/// A bounds-checked little-endian cursor over an event body.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    fn new(buf: &'a [u8], what: &'static str) -> Self {
        Cursor { buf, pos: 0, what }
    }

    fn err(&self, reason: &str) -> BinlogError {
        BinlogError::Malformed(format!("{}: {reason} at byte {}", self.what, self.pos))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], BinlogError> {
        if n > self.remaining() {
            return Err(self.err(&format!("needs {n} bytes, {} left", self.remaining())));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn rest(&mut self) -> &'a [u8] {
        let s = &self.buf[self.pos..];
        self.pos = self.buf.len();
        s
    }

    fn uint(&mut self, n: usize) -> Result<u64, BinlogError> {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(self.take(n)?);
        Ok(u64::from_le_bytes(b))
    }

    fn u8(&mut self) -> Result<u8, BinlogError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, BinlogError> {
        Ok(self.uint(2)? as u16)
    }

    fn u32(&mut self) -> Result<u32, BinlogError> {
        Ok(self.uint(4)? as u32)
    }

    fn u64(&mut self) -> Result<u64, BinlogError> {
        self.uint(8)
    }

    fn packed(&mut self) -> Result<u64, BinlogError> {
        match self.u8()? {
            b @ 0..=250 => Ok(u64::from(b)),
            0xfc => self.uint(2),
            0xfd => self.uint(3),
            0xfe => self.uint(8),
            _ => Err(self.err("invalid packed integer")),
        }
    }

    fn packed_len(&mut self) -> Result<usize, BinlogError> {
        let v = self.packed()?;
        usize::try_from(v).ok().filter(|n| *n <= self.remaining()).ok_or_else(|| self.err("length beyond the event"))
    }

    fn string(&mut self, n: usize) -> Result<String, BinlogError> {
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| self.err("string is not UTF-8"))
    }
}

/// Parses the 19-byte common header at the start of `buf`.
pub fn parse_header(buf: &[u8]) -> Result<EventHeader, BinlogError> {
    let mut c = Cursor::new(buf, "event header");
    let header = EventHeader {
        timestamp: c.u32()?,
        type_code: c.u8()?,
        server_id: c.u32()?,
        event_size: c.u32()?,
        log_pos: c.u32()?,
        flags: c.u16()?,
    };
    if (header.event_size as usize) < HEADER_LEN {
        return Err(BinlogError::Malformed(format!("event size {} is smaller than the header", header.event_size)));
    }
    Ok(header)
}

/// A decoded TABLE_MAP event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableMapEvent {
    pub table_id: u64,
    pub flags: u16,
    pub db: String,
    pub table: String,
    /// MYSQL_TYPE_* per column.
    pub column_types: Vec<u8>,
    /// The metadata block, all columns concatenated.
    pub column_metadata: Vec<u8>,
    pub nullable: Vec<bool>,
    /// From the COLUMN_NAME optional metadata; empty when absent.
    pub column_names: Vec<String>,
    /// From SIGNEDNESS: one flag per numeric column; empty when absent.
    pub unsigned_numeric: Vec<bool>,
    /// From SIMPLE_PRIMARY_KEY; empty when absent.
    pub primary_key: Vec<usize>,
    /// From ENUM_STR_VALUE: the labels of each ENUM column; empty when absent.
    pub enum_labels: Vec<Vec<String>>,
}

/// A decoded event.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    FormatDescription {
        binlog_version: u16,
        server_version: String,
        checksum: bool,
    },
    Gtid {
        gtid: Gtid,
        flags2: u8,
        commit_id: Option<u64>,
    },
    GtidList(Vec<Gtid>),
    BinlogCheckpoint(String),
    Query {
        thread_id: u32,
        db: String,
        sql: String,
        /// The CHARSET status variable's server collation, if the status
        /// block holds one (before any variable this decoder cannot size).
        collation_server: Option<u16>,
    },
    Xid(u64),
    TableMap(TableMapEvent),
    /// A rows event; decode its rows with [`decode_rows`] and the table.
    Rows {
        kind: RowsKind,
        table_id: u64,
        flags: u16,
        body: Vec<u8>,
    },
    Rotate {
        next_file: String,
        position: u64,
    },
    Stop,
    Other {
        type_code: u8,
    },
}

/// Parses one whole event (header..checksum); verifies the CRC when `checksum`.
pub fn parse_event(buf: &[u8], checksum: bool) -> Result<Event, BinlogError> {
    parse_event_with_header(buf, checksum).map(|(_, e)| e)
}

/// Like [`parse_event`], also returning the common header.
///
/// A FORMAT_DESCRIPTION event always carries 4 trailing checksum bytes (see
/// [`write_event`]); they are verified when its own algorithm byte says CRC32,
/// whatever `checksum` says, since the reader learns the file's checksum
/// setting from this very event.
pub fn parse_event_with_header(buf: &[u8], checksum: bool) -> Result<(EventHeader, Event), BinlogError> {
    let header = parse_header(buf)?;
    let size = header.event_size as usize;
    if buf.len() < size {
        return Err(BinlogError::Malformed(format!("event needs {size} bytes, {} available", buf.len())));
    }
    let event = &buf[..size];
    let fde = header.type_code == type_code::FORMAT_DESCRIPTION;
    let has_crc = checksum || fde;
    if has_crc && size < HEADER_LEN + CHECKSUM_LEN {
        return Err(BinlogError::Malformed("event too short for its checksum".into()));
    }
    let body_end = if has_crc { size - CHECKSUM_LEN } else { size };
    let body = &event[HEADER_LEN..body_end];
    let verify = if fde { body.last() == Some(&checksum_alg::CRC32) } else { checksum };
    if verify {
        let stored =
            u32::from_le_bytes([event[body_end], event[body_end + 1], event[body_end + 2], event[body_end + 3]]);
        let computed = crc32fast::hash(&event[..body_end]);
        if stored != computed {
            return Err(BinlogError::Malformed(format!(
                "{} event checksum mismatch: stored {stored:08x}, computed {computed:08x}",
                event_type_name(header.type_code)
            )));
        }
    }
    let mut parsed = parse_body(header.type_code, body)?;
    if let Event::Gtid { gtid, .. } = &mut parsed {
        gtid.server_id = header.server_id;
    }
    Ok((header, parsed))
}

fn parse_body(code: u8, body: &[u8]) -> Result<Event, BinlogError> {
    use type_code as t;
    let mut c = Cursor::new(body, event_type_name(code));
    let event = match code {
        t::FORMAT_DESCRIPTION => {
            let binlog_version = c.u16()?;
            let raw = c.take(SERVER_VERSION_LEN)?;
            let end = raw.iter().position(|b| *b == 0).unwrap_or(raw.len());
            let server_version = String::from_utf8_lossy(&raw[..end]).into_owned();
            let _created = c.u32()?;
            let header_len = c.u8()?;
            if usize::from(header_len) != HEADER_LEN {
                return Err(c.err("unsupported common header length"));
            }
            let rest = c.rest();
            let alg = *rest
                .last()
                .ok_or_else(|| BinlogError::Malformed("format description without a checksum byte".into()))?;
            let checksum = match alg {
                checksum_alg::OFF => false,
                checksum_alg::CRC32 => true,
                other => return Err(BinlogError::Malformed(format!("unknown checksum algorithm {other}"))),
            };
            Event::FormatDescription { binlog_version, server_version, checksum }
        }
        t::GTID => {
            let seq_no = c.u64()?;
            let domain_id = c.u32()?;
            let flags2 = c.u8()?;
            let commit_id = if flags2 & gtid_flag::GROUP_COMMIT_ID != 0 { Some(c.u64()?) } else { None };
            // server_id lives in the header; parse_event_with_header fills it.
            Event::Gtid { gtid: Gtid { domain_id, server_id: 0, seq_no }, flags2, commit_id }
        }
        t::GTID_LIST => {
            let count = (c.u32()? & 0x0fff_ffff) as usize;
            if count > c.remaining() / 16 {
                return Err(c.err("GTID count beyond the event"));
            }
            let mut gtids = Vec::with_capacity(count);
            for _ in 0..count {
                let domain_id = c.u32()?;
                let server_id = c.u32()?;
                let seq_no = c.u64()?;
                gtids.push(Gtid { domain_id, server_id, seq_no });
            }
            Event::GtidList(gtids)
        }
        t::BINLOG_CHECKPOINT => {
            let len = c.u32()? as usize;
            Event::BinlogCheckpoint(c.string(len)?)
        }
        t::QUERY => {
            let thread_id = c.u32()?;
            let _exec_time = c.u32()?;
            let db_len = usize::from(c.u8()?);
            let _error_code = c.u16()?;
            let status_len = usize::from(c.u16()?);
            let collation_server = status_collation_server(c.take(status_len)?);
            let db = c.string(db_len)?;
            if c.u8()? != 0 {
                return Err(c.err("database name not NUL-terminated"));
            }
            let sql = String::from_utf8_lossy(c.rest()).into_owned();
            Event::Query { thread_id, db, sql, collation_server }
        }
        t::XID => Event::Xid(c.u64()?),
        t::TABLE_MAP => Event::TableMap(parse_table_map(&mut c)?),
        t::WRITE_ROWS_V1 | t::UPDATE_ROWS_V1 | t::DELETE_ROWS_V1 => {
            let kind = RowsKind::from_type_code(code).ok_or_else(|| c.err("not a rows event"))?;
            let table_id = c.uint(6)?;
            let flags = c.u16()?;
            Event::Rows { kind, table_id, flags, body: body.to_vec() }
        }
        t::ROTATE => {
            let position = c.u64()?;
            let next_file = String::from_utf8_lossy(c.rest()).into_owned();
            Event::Rotate { next_file, position }
        }
        t::STOP => Event::Stop,
        other => Event::Other { type_code: other },
    };
    Ok(event)
}

fn parse_table_map(c: &mut Cursor) -> Result<TableMapEvent, BinlogError> {
    let table_id = c.uint(6)?;
    let flags = c.u16()?;
    let db_len = usize::from(c.u8()?);
    let db = c.string(db_len)?;
    c.take(1)?;
    let table_len = usize::from(c.u8()?);
    let table = c.string(table_len)?;
    c.take(1)?;
    let n = c.packed_len()?;
    let column_types = c.take(n)?.to_vec();
    let meta_len = c.packed_len()?;
    let column_metadata = c.take(meta_len)?.to_vec();
    let null_bits = c.take(n.div_ceil(8))?;
    let nullable = (0..n).map(|i| null_bits[i / 8] & (1 << (i % 8)) != 0).collect();
    let mut tm = TableMapEvent {
        table_id,
        flags,
        db,
        table,
        column_types,
        column_metadata,
        nullable,
        column_names: Vec::new(),
        unsigned_numeric: Vec::new(),
        primary_key: Vec::new(),
        enum_labels: Vec::new(),
    };
    while c.remaining() > 0 {
        let kind = c.u8()?;
        let len = c.packed_len()?;
        let mut v = Cursor::new(c.take(len)?, "table map metadata");
        match kind {
            table_map_meta::SIGNEDNESS => {
                let numeric = tm.column_types.iter().filter(|t| is_numeric_binlog_type(**t)).count();
                let bits = v.rest();
                tm.unsigned_numeric =
                    (0..numeric).map(|i| bits.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0)).collect();
            }
            table_map_meta::COLUMN_NAME => {
                while v.remaining() > 0 {
                    let l = v.packed_len()?;
                    tm.column_names.push(v.string(l)?);
                }
            }
            table_map_meta::ENUM_STR_VALUE => {
                while v.remaining() > 0 {
                    let count = v.packed_len()?;
                    let mut labels = Vec::with_capacity(count);
                    for _ in 0..count {
                        let l = v.packed_len()?;
                        labels.push(v.string(l)?);
                    }
                    tm.enum_labels.push(labels);
                }
            }
            table_map_meta::SIMPLE_PRIMARY_KEY => {
                while v.remaining() > 0 {
                    tm.primary_key.push(v.packed()? as usize);
                }
            }
            // Charsets, SET values, geometry types and prefix keys are
            // accepted and skipped: OneLog takes them from its catalog.
            _ => {}
        }
    }
    Ok(tm)
}

/// Decodes the row changes of a rows event against the table definition.
///
/// Only full row images (every column present, as binlog_row_image=FULL
/// writes them) are supported; a partial image is reported as malformed.
pub fn decode_rows(kind: RowsKind, body: &[u8], table: &TableDef) -> Result<Vec<RowChange>, BinlogError> {
    let mut c = Cursor::new(body, "rows event");
    let _table_id = c.uint(6)?;
    let _flags = c.u16()?;
    let width = c.packed()?;
    let n = table.columns.len();
    if width != n as u64 {
        return Err(c.err(&format!("rows event has {width} columns, the table {n}")));
    }
    let bitmaps = if kind == RowsKind::Update { 2 } else { 1 };
    for _ in 0..bitmaps {
        let bits = c.take(n.div_ceil(8))?;
        if (0..n).any(|i| bits[i / 8] & (1 << (i % 8)) == 0) {
            return Err(c.err("partial row images are not supported"));
        }
    }
    let mut changes = Vec::new();
    let mut rest = c.rest();
    let next = |rest: &mut &[u8]| -> Result<Vec<Value>, BinlogError> {
        let (values, used) = rowimage::decode_row(&table.columns, rest).map_err(row_image_error)?;
        *rest = &rest[used..];
        Ok(values)
    };
    while !rest.is_empty() {
        let change = match kind {
            RowsKind::Write => RowChange::Insert(next(&mut rest)?),
            RowsKind::Delete => RowChange::Delete(next(&mut rest)?),
            RowsKind::Update => {
                let before = next(&mut rest)?;
                let after = next(&mut rest)?;
                RowChange::Update { before, after }
            }
        };
        changes.push(change);
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onelog_core::{ColumnDef, IndexDef};

    fn table() -> TableDef {
        let mut id = ColumnDef::new("id", ColumnType::Int);
        id.nullable = false;
        TableDef {
            id: 42,
            db: "test".into(),
            name: "t".into(),
            columns: vec![
                id,
                ColumnDef::new("name", ColumnType::VarChar(20)),
                ColumnDef { unsigned: true, ..ColumnDef::new("n", ColumnType::BigInt) },
                ColumnDef::new("e", ColumnType::Enum(vec!["a".into(), "b".into()])),
            ],
            indexes: vec![IndexDef::primary_key(1, vec![0])],
            ..Default::default()
        }
    }

    fn row(i: i64) -> Vec<Value> {
        vec![Value::Int(i), Value::from_str(&format!("row {i}")), Value::UInt(i as u64), Value::from_str("b")]
    }

    #[test]
    fn fde_layout() {
        let body = format_description_body("10.11.0-OneLog", 7, true);
        assert_eq!(body.len(), 2 + 50 + 4 + 1 + 171 + 1);
        let mut out = Vec::new();
        let end = write_event(&mut out, 4, 7, 1, type_code::FORMAT_DESCRIPTION, 0, &body, false);
        // MariaDB 10.11's format description event is 252 bytes.
        assert_eq!(out.len(), 252);
        assert_eq!(end, 256);
        let e = parse_event(&out, false).unwrap();
        assert_eq!(
            e,
            Event::FormatDescription { binlog_version: 4, server_version: "10.11.0-OneLog".into(), checksum: true }
        );
        out[30] ^= 1;
        assert!(parse_event(&out, false).is_err());
    }

    #[test]
    fn simple_events_round_trip() {
        let g = Gtid { domain_id: 0, server_id: 9, seq_no: 77 };
        let cases: Vec<(u8, Vec<u8>, Event)> = vec![
            (type_code::GTID_LIST, gtid_list_body(&[g]), Event::GtidList(vec![g])),
            (
                type_code::BINLOG_CHECKPOINT,
                binlog_checkpoint_body("b.000001"),
                Event::BinlogCheckpoint("b.000001".into()),
            ),
            (type_code::XID, xid_body(5), Event::Xid(5)),
            (
                type_code::ROTATE,
                rotate_body("b.000002", 4),
                Event::Rotate { next_file: "b.000002".into(), position: 4 },
            ),
            (type_code::STOP, stop_body(), Event::Stop),
            (
                type_code::GTID,
                gtid_body(&g, GroupKind::Transaction, Some(3)),
                Event::Gtid { gtid: g, flags2: 4 | 8 | 2, commit_id: Some(3) },
            ),
            (
                type_code::GTID,
                gtid_body(&g, GroupKind::StandaloneDdl, None),
                Event::Gtid { gtid: g, flags2: 1 | 32, commit_id: None },
            ),
            // CREATE TABLE ... SELECT: flags2 40, as MariaDB 10.11 writes it.
            (
                type_code::GTID,
                gtid_body(&g, GroupKind::DdlWithRows, None),
                Event::Gtid { gtid: g, flags2: 32 | 8, commit_id: None },
            ),
        ];
        for checksum in [true, false] {
            for (code, body, want) in &cases {
                let mut out = Vec::new();
                write_event(&mut out, 100, 1, 9, *code, 0, body, checksum);
                assert_eq!(&parse_event(&out, checksum).unwrap(), want);
                for cut in 0..out.len() {
                    assert!(parse_event(&out[..cut], checksum).is_err());
                }
            }
        }
        assert_eq!(gtid_body(&g, GroupKind::StandaloneDdl, None).len(), 19);
        assert_eq!(gtid_body(&g, GroupKind::Transaction, Some(1)).len(), 21);
    }

    #[test]
    fn query_round_trip() {
        let q = QueryEvent::new(3, "test", "CREATE TABLE t (id int)");
        let mut out = Vec::new();
        write_event(&mut out, 4, 1, 1, type_code::QUERY, 0, &query_body(&q), true);
        assert_eq!(
            parse_event(&out, true).unwrap(),
            Event::Query {
                thread_id: 3,
                db: "test".into(),
                sql: "CREATE TABLE t (id int)".into(),
                collation_server: Some(45),
            }
        );
    }

    #[test]
    fn table_map_round_trip() {
        let t = table();
        let Event::TableMap(tm) = parse_body(type_code::TABLE_MAP, &table_map_body(&t)).unwrap() else {
            panic!("not a table map")
        };
        assert_eq!(tm.table_id, 42);
        assert_eq!((tm.db.as_str(), tm.table.as_str()), ("test", "t"));
        assert_eq!(tm.column_types, vec![3, 15, 8, 254]);
        assert_eq!(tm.column_metadata, vec![80, 0, 247, 1]);
        assert_eq!(tm.nullable, vec![false, true, true, true]);
        assert_eq!(tm.column_names, vec!["id", "name", "n", "e"]);
        assert_eq!(tm.unsigned_numeric, vec![false, true]);
        assert_eq!(tm.primary_key, vec![0]);
        assert_eq!(tm.enum_labels, vec![vec!["a".to_string(), "b".to_string()]]);
    }

    #[test]
    fn rows_split_and_decode() {
        let t = table();
        let inserts: Vec<RowChange> = (0..100).map(|i| RowChange::Insert(row(i))).collect();
        let bodies = rows_bodies(RowsKind::Write, &t, &inserts, 256).unwrap();
        assert!(bodies.len() > 1);
        let mut all = Vec::new();
        for (i, b) in bodies.iter().enumerate() {
            assert!(b.len() <= 256);
            let Event::Rows { flags, table_id, .. } = parse_body(type_code::WRITE_ROWS_V1, b).unwrap() else {
                panic!("not rows")
            };
            assert_eq!(table_id, 42);
            assert_eq!(flags & rows_flag::STMT_END != 0, i == bodies.len() - 1);
            all.extend(decode_rows(RowsKind::Write, b, &t).unwrap());
        }
        assert_eq!(all, inserts);

        let updates = vec![RowChange::Update { before: row(1), after: row(2) }];
        let b = rows_bodies(RowsKind::Update, &t, &updates, 8192).unwrap();
        assert_eq!(b.len(), 1);
        assert_eq!(decode_rows(RowsKind::Update, &b[0], &t).unwrap(), updates);
        // A row larger than the limit gets an event of its own.
        let big =
            rows_bodies(RowsKind::Delete, &t, &[RowChange::Delete(row(1)), RowChange::Delete(row(2))], 10).unwrap();
        assert_eq!(big.len(), 2);
        assert!(rows_bodies(RowsKind::Delete, &t, &inserts[..1], 8192).is_err());
        // Truncations fail cleanly.
        for cut in 0..b[0].len() {
            let _ = decode_rows(RowsKind::Update, &b[0][..cut], &t);
        }
    }

    #[test]
    fn garbage_never_panics() {
        let t = table();
        let mut seed: u64 = 0x1234_5678_9abc_def1;
        for len in 0..300usize {
            let mut buf: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect();
            if buf.len() >= HEADER_LEN {
                buf[9..13].copy_from_slice(&(len as u32).to_le_bytes());
                for code in [2u8, 15, 16, 19, 23, 24, 25, 4, 161, 162, 163] {
                    buf[4] = code;
                    let _ = parse_event(&buf, false);
                    let _ = parse_body(code, &buf[HEADER_LEN..]);
                }
            }
            let _ = decode_rows(RowsKind::Update, &buf, &t);
        }
    }
}
