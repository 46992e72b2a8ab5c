//! Command phase: decoding the first packet of each client command.
//!
//! Hand-written: mysql_common's `Command` is only the opcode enum; the
//! payload layouts follow MySQL's protocol docs and MariaDB's
//! `sql/sql_parse.cc` (`dispatch_command`).

use crate::buf::{self, DecodeError, Reader};
use crate::handshake::parse_connect_attrs;
use mysql_common::constants::CapabilityFlags;
use thiserror::Error;

/// Opcodes (the first payload byte).
pub mod opcode {
    pub const SLEEP: u8 = 0x00;
    pub const QUIT: u8 = 0x01;
    pub const INIT_DB: u8 = 0x02;
    pub const QUERY: u8 = 0x03;
    pub const FIELD_LIST: u8 = 0x04;
    pub const CREATE_DB: u8 = 0x05;
    pub const DROP_DB: u8 = 0x06;
    pub const REFRESH: u8 = 0x07;
    pub const SHUTDOWN: u8 = 0x08;
    pub const STATISTICS: u8 = 0x09;
    pub const PROCESS_INFO: u8 = 0x0A;
    pub const CONNECT: u8 = 0x0B;
    pub const PROCESS_KILL: u8 = 0x0C;
    pub const DEBUG: u8 = 0x0D;
    pub const PING: u8 = 0x0E;
    pub const TIME: u8 = 0x0F;
    pub const DELAYED_INSERT: u8 = 0x10;
    pub const CHANGE_USER: u8 = 0x11;
    pub const BINLOG_DUMP: u8 = 0x12;
    pub const TABLE_DUMP: u8 = 0x13;
    pub const CONNECT_OUT: u8 = 0x14;
    pub const REGISTER_SLAVE: u8 = 0x15;
    pub const STMT_PREPARE: u8 = 0x16;
    pub const STMT_EXECUTE: u8 = 0x17;
    pub const STMT_SEND_LONG_DATA: u8 = 0x18;
    pub const STMT_CLOSE: u8 = 0x19;
    pub const STMT_RESET: u8 = 0x1A;
    pub const SET_OPTION: u8 = 0x1B;
    pub const STMT_FETCH: u8 = 0x1C;
    pub const DAEMON: u8 = 0x1D;
    pub const BINLOG_DUMP_GTID: u8 = 0x1E;
    pub const RESET_CONNECTION: u8 = 0x1F;
}

/// COM_SET_OPTION values.
pub const MYSQL_OPTION_MULTI_STATEMENTS_ON: u16 = 0;
pub const MYSQL_OPTION_MULTI_STATEMENTS_OFF: u16 = 1;

/// MariaDB's "the statement prepared last" id in COM_STMT_EXECUTE etc.
pub const LAST_PREPARED_STMT_ID: u32 = 0xFFFF_FFFF;

/// A decoded client command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Quit,
    InitDb(String),
    /// The SQL text, as sent (normally utf8mb4; not validated here).
    Query(Vec<u8>),
    FieldList {
        table: String,
        wildcard: String,
    },
    /// COM_REFRESH with its option bits.
    Refresh(u8),
    Shutdown,
    Ping,
    Statistics,
    ProcessInfo,
    ProcessKill(u32),
    Debug,
    ChangeUser(ChangeUser),
    ResetConnection,
    SetOption(u16),
    StmtPrepare(String),
    StmtExecute {
        stmt_id: u32,
        /// Cursor type (low bits) as sent.
        flags: u8,
        iteration_count: u32,
        /// Everything after the iteration count: NULL bitmap, new-params-bound
        /// flag, types, values. Decode with
        /// [`crate::stmt::decode_execute_params`], which needs the statement's
        /// parameter count.
        params: Vec<u8>,
    },
    StmtSendLongData {
        stmt_id: u32,
        param_id: u16,
        data: Vec<u8>,
    },
    StmtClose(u32),
    StmtReset(u32),
    StmtFetch {
        stmt_id: u32,
        num_rows: u32,
    },
    BinlogDump {
        pos: u32,
        flags: u16,
        server_id: u32,
        file: String,
    },
    /// COM_BINLOG_DUMP_GTID (MySQL's; MariaDB replicas use COM_BINLOG_DUMP
    /// with `SET @slave_connect_state`): kept raw.
    BinlogDumpGtid(Vec<u8>),
    RegisterSlave(RegisterSlave),
    /// Any other opcode; the server answers ERR 1047 (ER_UNKNOWN_COM_ERROR).
    Unknown(u8),
}

/// COM_CHANGE_USER fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChangeUser {
    pub user: String,
    pub auth_response: Vec<u8>,
    pub database: String,
    pub collation: Option<u16>,
    pub auth_plugin: Option<String>,
    pub connect_attrs: Vec<(String, String)>,
}

/// COM_REGISTER_SLAVE fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegisterSlave {
    pub server_id: u32,
    pub host: String,
    pub user: String,
    pub password: String,
    pub port: u16,
    pub replication_rank: u32,
    pub master_id: u32,
}

/// A command packet could not be decoded; the server answers ERR 1047
/// (MariaDB replies "Malformed communication packet", 1835, in some cases;
/// 1047 is what the brief asks for).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    #[error("empty command packet")]
    Empty,
    #[error("malformed {command} packet: {source}")]
    Malformed {
        command: &'static str,
        #[source]
        source: DecodeError,
    },
}

fn malformed(command: &'static str) -> impl Fn(DecodeError) -> CommandError {
    move |source| CommandError::Malformed { command, source }
}

/// Decodes a command packet. `caps` are the capabilities agreed at login
/// (they shape COM_CHANGE_USER).
pub fn parse_command(payload: &[u8], caps: CapabilityFlags) -> Result<Command, CommandError> {
    let (&op, body) = payload.split_first().ok_or(CommandError::Empty)?;
    let mut r = Reader::new(body);
    use opcode::*;
    Ok(match op {
        QUIT => Command::Quit,
        INIT_DB => Command::InitDb(buf::string(body)),
        QUERY => Command::Query(body.to_vec()),
        FIELD_LIST => {
            let table = buf::string(r.nul_bytes_or_rest());
            Command::FieldList { table, wildcard: buf::string(r.rest()) }
        }
        REFRESH => Command::Refresh(r.u8("COM_REFRESH").map_err(malformed("COM_REFRESH"))?),
        SHUTDOWN => Command::Shutdown,
        STATISTICS => Command::Statistics,
        PROCESS_INFO => Command::ProcessInfo,
        PROCESS_KILL => Command::ProcessKill(r.u32("connection id").map_err(malformed("COM_PROCESS_KILL"))?),
        DEBUG => Command::Debug,
        PING => Command::Ping,
        CHANGE_USER => Command::ChangeUser(parse_change_user(&mut r, caps).map_err(malformed("COM_CHANGE_USER"))?),
        RESET_CONNECTION => Command::ResetConnection,
        SET_OPTION => Command::SetOption(r.u16("option").map_err(malformed("COM_SET_OPTION"))?),
        STMT_PREPARE => Command::StmtPrepare(buf::string(body)),
        STMT_EXECUTE => {
            let m = malformed("COM_STMT_EXECUTE");
            let stmt_id = r.u32("statement id").map_err(&m)?;
            let flags = r.u8("flags").map_err(&m)?;
            let iteration_count = r.u32("iteration count").map_err(&m)?;
            Command::StmtExecute { stmt_id, flags, iteration_count, params: r.rest().to_vec() }
        }
        STMT_SEND_LONG_DATA => {
            let m = malformed("COM_STMT_SEND_LONG_DATA");
            let stmt_id = r.u32("statement id").map_err(&m)?;
            let param_id = r.u16("parameter id").map_err(&m)?;
            Command::StmtSendLongData { stmt_id, param_id, data: r.rest().to_vec() }
        }
        STMT_CLOSE => Command::StmtClose(r.u32("statement id").map_err(malformed("COM_STMT_CLOSE"))?),
        STMT_RESET => Command::StmtReset(r.u32("statement id").map_err(malformed("COM_STMT_RESET"))?),
        STMT_FETCH => {
            let m = malformed("COM_STMT_FETCH");
            let stmt_id = r.u32("statement id").map_err(&m)?;
            let num_rows = r.u32("row count").map_err(&m)?;
            Command::StmtFetch { stmt_id, num_rows }
        }
        BINLOG_DUMP => {
            let m = malformed("COM_BINLOG_DUMP");
            let pos = r.u32("position").map_err(&m)?;
            let flags = r.u16("flags").map_err(&m)?;
            let server_id = r.u32("server id").map_err(&m)?;
            // A C string to MariaDB: clients send the empty name of GTID
            // mode as NUL bytes.
            let name = r.rest();
            let name = name.split(|&b| b == 0).next().unwrap_or_default();
            Command::BinlogDump { pos, flags, server_id, file: buf::string(name) }
        }
        BINLOG_DUMP_GTID => Command::BinlogDumpGtid(body.to_vec()),
        REGISTER_SLAVE => {
            Command::RegisterSlave(parse_register_slave(&mut r).map_err(malformed("COM_REGISTER_SLAVE"))?)
        }
        other => Command::Unknown(other),
    })
}

fn parse_change_user(r: &mut Reader<'_>, caps: CapabilityFlags) -> Result<ChangeUser, DecodeError> {
    let user = buf::string(r.nul_bytes("user")?);
    let auth_response = if caps.contains(CapabilityFlags::CLIENT_SECURE_CONNECTION) {
        let n = usize::from(r.u8("auth response length")?);
        r.take(n, "auth response")?.to_vec()
    } else {
        r.nul_bytes_or_rest().to_vec()
    };
    let database = buf::string(r.nul_bytes_or_rest());
    let mut cu = ChangeUser { user, auth_response, database, ..ChangeUser::default() };
    if r.remaining() >= 2 {
        cu.collation = Some(r.u16("charset")?);
    }
    if caps.contains(CapabilityFlags::CLIENT_PLUGIN_AUTH) && !r.is_empty() {
        cu.auth_plugin = Some(buf::string(r.nul_bytes_or_rest()));
    }
    if caps.contains(CapabilityFlags::CLIENT_CONNECT_ATTRS) && !r.is_empty() {
        cu.connect_attrs = parse_connect_attrs(r)?;
    }
    Ok(cu)
}

fn parse_register_slave(r: &mut Reader<'_>) -> Result<RegisterSlave, DecodeError> {
    let server_id = r.u32("server id")?;
    let mut short = |what| -> Result<String, DecodeError> {
        let n = usize::from(r.u8(what)?);
        Ok(buf::string(r.take(n, what)?))
    };
    let host = short("host")?;
    let user = short("user")?;
    let password = short("password")?;
    let port = r.u16("port")?;
    // Rank and master id are ignored by servers; tolerate their absence.
    let replication_rank = if r.remaining() >= 4 { r.u32("rank")? } else { 0 };
    let master_id = if r.remaining() >= 4 { r.u32("master id")? } else { 0 };
    Ok(RegisterSlave { server_id, host, user, password, port, replication_rank, master_id })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handshake::server_capabilities;

    fn parse(p: &[u8]) -> Result<Command, CommandError> {
        parse_command(p, server_capabilities())
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse(&[0x01]), Ok(Command::Quit));
        assert_eq!(parse(&[0x0E]), Ok(Command::Ping));
        assert_eq!(parse(b"\x03select 1"), Ok(Command::Query(b"select 1".to_vec())));
        assert_eq!(parse(b"\x02test"), Ok(Command::InitDb("test".into())));
        assert_eq!(parse(b"\x04t1\0%"), Ok(Command::FieldList { table: "t1".into(), wildcard: "%".into() }));
        assert_eq!(parse(&[0x0C, 5, 0, 0, 0]), Ok(Command::ProcessKill(5)));
        assert_eq!(parse(&[0x1B, 1, 0]), Ok(Command::SetOption(1)));
        assert_eq!(parse(&[0x19, 1, 0, 0, 0]), Ok(Command::StmtClose(1)));
        assert_eq!(parse(&[0x1A, 2, 0, 0, 0]), Ok(Command::StmtReset(2)));
        assert_eq!(parse(&[0x1C, 2, 0, 0, 0, 10, 0, 0, 0]), Ok(Command::StmtFetch { stmt_id: 2, num_rows: 10 }));
        assert_eq!(parse(&[0x1F]), Ok(Command::ResetConnection));
        assert_eq!(parse(&[0x09]), Ok(Command::Statistics));
        assert_eq!(parse(&[0x0A]), Ok(Command::ProcessInfo));
        assert_eq!(parse(&[0x0D]), Ok(Command::Debug));
        assert_eq!(parse(&[0x07, 1]), Ok(Command::Refresh(1)));
        assert_eq!(parse(b"\x16SELECT ?"), Ok(Command::StmtPrepare("SELECT ?".into())));
        assert_eq!(parse(&[0xEE]), Ok(Command::Unknown(0xEE)));
        assert_eq!(parse(&[0x00]), Ok(Command::Unknown(0x00)));
        assert_eq!(parse(&[]), Err(CommandError::Empty));
        assert!(matches!(parse(&[0x0C, 5, 0]), Err(CommandError::Malformed { command: "COM_PROCESS_KILL", .. })));
    }

    #[test]
    fn stmt_commands() {
        let p = [0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0xAA, 0xBB];
        assert_eq!(
            parse(&p),
            Ok(Command::StmtExecute { stmt_id: 1, flags: 0, iteration_count: 1, params: vec![0xAA, 0xBB] })
        );
        let p = [0x18, 3, 0, 0, 0, 1, 0, b'h', b'i'];
        assert_eq!(parse(&p), Ok(Command::StmtSendLongData { stmt_id: 3, param_id: 1, data: b"hi".to_vec() }));
        assert!(parse(&[0x17, 1, 0]).is_err());
    }

    #[test]
    fn binlog_dump_and_register() {
        let mut p = vec![0x12];
        p.extend_from_slice(&4u32.to_le_bytes());
        p.extend_from_slice(&0u16.to_le_bytes());
        p.extend_from_slice(&2u32.to_le_bytes());
        p.extend_from_slice(b"mysql-bin.000001");
        assert_eq!(
            parse(&p),
            Ok(Command::BinlogDump { pos: 4, flags: 0, server_id: 2, file: "mysql-bin.000001".into() })
        );
        let mut p = vec![0x15];
        p.extend_from_slice(&2u32.to_le_bytes());
        p.extend_from_slice(b"\x04host\x04repl\x00");
        p.extend_from_slice(&3306u16.to_le_bytes());
        p.extend_from_slice(&[0; 8]);
        let Ok(Command::RegisterSlave(rs)) = parse(&p) else { panic!() };
        assert_eq!((rs.server_id, rs.host.as_str(), rs.user.as_str(), rs.port), (2, "host", "repl", 3306));
    }

    #[test]
    fn change_user() {
        let mut p = vec![0x11];
        p.extend_from_slice(b"bob\0");
        p.push(20);
        p.extend_from_slice(&[7; 20]);
        p.extend_from_slice(b"db\0");
        p.extend_from_slice(&45u16.to_le_bytes());
        p.extend_from_slice(b"mysql_native_password\0");
        p.extend_from_slice(&[0x04, 0x02, b'k', b'1', 0x00]);
        let Ok(Command::ChangeUser(cu)) = parse(&p) else { panic!() };
        assert_eq!(cu.user, "bob");
        assert_eq!(cu.auth_response, vec![7; 20]);
        assert_eq!(cu.database, "db");
        assert_eq!(cu.collation, Some(45));
        assert_eq!(cu.auth_plugin.as_deref(), Some("mysql_native_password"));
        assert_eq!(cu.connect_attrs, vec![("k1".to_string(), String::new())]);
    }
}
