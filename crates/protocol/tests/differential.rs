//! Differential check against a real MariaDB server: our encoders must
//! produce byte-for-byte what mariadbd 10.11 sends for the same table
//! (column definitions, text rows, binary rows, OK and ERR packets).
//!
//! Runs only when `ONELOG_MARIADB_SOCKET` names the Unix socket of a
//! disposable mariadbd whose `root@localhost` has an empty
//! mysql_native_password (e.g. `mariadb-install-db
//! --auth-root-authentication-method=normal`); otherwise it passes after
//! printing that it was skipped. It creates and drops database `onelog_diff`.

use onelog_core::decimal::Decimal;
use onelog_core::schema::{BlobSize, ColumnDefault, IndexDef, TableDef};
use onelog_core::{Collation, ColumnDef, ColumnType, ErrorCode, SqlError, Temporal, Value};
use onelog_protocol::handshake::{parse_auth_switch_request, server_capabilities, HandshakeResponse};
use onelog_protocol::resultset::{
    column_meta_for, encode_binary_row, encode_column_definition, encode_err, encode_text_row, key_flags,
};
use onelog_protocol::{InitialHandshake, PacketStream};
use std::os::unix::net::UnixStream;
use std::str::FromStr;

type Conn = PacketStream<UnixStream>;

fn connect(path: &str) -> Conn {
    let sock = UnixStream::connect(path).expect("connect to mariadbd");
    let mut ps = PacketStream::new(sock, 1 << 30);
    let hs = InitialHandshake::parse(&ps.read_packet().unwrap()).expect("parse real handshake");
    assert!(hs.server_version.contains("MariaDB"), "{}", hs.server_version);
    let caps = server_capabilities() & hs.capabilities;
    let resp = HandshakeResponse {
        capabilities: caps,
        max_packet_size: 1 << 24,
        collation: 45,
        username: "root".into(),
        auth_response: Vec::new(),
        auth_plugin: Some("mysql_native_password".into()),
        ..HandshakeResponse::default()
    };
    let mut p = Vec::new();
    resp.encode(&mut p);
    ps.write_packet(&p).unwrap();
    ps.flush().unwrap();
    let mut reply = ps.read_packet().unwrap();
    if reply[0] == 0xFE {
        // Empty password: the answer to any switch is an empty response.
        let (plugin, _) = parse_auth_switch_request(&reply).unwrap();
        assert_eq!(plugin, "mysql_native_password");
        ps.write_packet(&[]).unwrap();
        ps.flush().unwrap();
        reply = ps.read_packet().unwrap();
    }
    assert_eq!(reply[0], 0x00, "login failed: {}", String::from_utf8_lossy(&reply));
    ps
}

fn command(ps: &mut Conn, payload: &[u8]) -> Vec<u8> {
    ps.reset_seq();
    ps.write_packet(payload).unwrap();
    ps.flush().unwrap();
    ps.read_packet().unwrap()
}

fn query_ok(ps: &mut Conn, sql: &str) {
    let mut p = vec![0x03];
    p.extend_from_slice(sql.as_bytes());
    let r = command(ps, &p);
    assert_eq!(r[0], 0x00, "{sql}: {}", String::from_utf8_lossy(&r));
}

/// Reads a result set (DEPRECATE_EOF framing): (column defs, rows).
fn read_result(ps: &mut Conn, first: Vec<u8>) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    assert_ne!(first[0], 0xFF, "{}", String::from_utf8_lossy(&first));
    let n = usize::from(first[0]);
    let mut cols = Vec::new();
    for _ in 0..n {
        cols.push(ps.read_packet().unwrap());
    }
    let mut rows = Vec::new();
    loop {
        let p = ps.read_packet().unwrap();
        if p[0] == 0xFE && p.len() < 0xFF_FFFF {
            break;
        }
        rows.push(p);
    }
    (cols, rows)
}

fn def(name: &str, ty: ColumnType, unsigned: bool, nullable: bool) -> ColumnDef {
    let mut d = ColumnDef::new(name, ty);
    d.unsigned = unsigned;
    d.nullable = nullable;
    d
}

const TABLE_SQL: &str = "create table onelog_diff.t (id int not null auto_increment primary key, a tinyint, \
    b smallint unsigned, c mediumint, d bigint, e bigint unsigned, f decimal(10,2), g decimal(10,0) unsigned, \
    h float, i double, j char(5), k varchar(10) not null, l binary(4), m varbinary(7), n text, o blob, \
    p tinytext, q longblob, r date, s datetime, t datetime(3), u timestamp null, v time, w time(2), x year, \
    y enum('a','bcd'), z varchar(5) collate utf8mb4_bin, aa int not null default 5, \
    unique key(a), key(c,d)) default charset=utf8mb4";

const INSERT_SQL: &str = "insert into onelog_diff.t values (1, -5, 65535, -100, -9000000000, \
    18446744073709551615, 1234.5, 42, 1.5, 0.1, 'ab', 'h\u{e9}llo', 'ab', 'xyz', 'text', 'blob', 'tt', 'lb', \
    '2024-02-29', '2024-02-29 13:05:09', '2024-02-29 13:05:09.120', NULL, '-838:59:59', '12:34:56.78', \
    2024, 'bcd', 'Zz', 7)";

fn table() -> TableDef {
    use ColumnType as T;
    let mut id = def("id", T::Int, false, false);
    id.auto_increment = true;
    let mut z = def("z", T::VarChar(5), false, true);
    z.collation = Collation::Utf8mb4Bin;
    let mut aa = def("aa", T::Int, false, false);
    aa.default = Some(ColumnDefault::Value(Value::Int(5)));
    TableDef {
        id: 1,
        db: "onelog_diff".into(),
        name: "t".into(),
        columns: vec![
            id,
            def("a", T::TinyInt, false, true),
            def("b", T::SmallInt, true, true),
            def("c", T::MediumInt, false, true),
            def("d", T::BigInt, false, true),
            def("e", T::BigInt, true, true),
            def("f", T::Decimal { precision: 10, scale: 2 }, false, true),
            def("g", T::Decimal { precision: 10, scale: 0 }, true, true),
            def("h", T::Float, false, true),
            def("i", T::Double, false, true),
            def("j", T::Char(5), false, true),
            def("k", T::VarChar(10), false, false),
            def("l", T::Binary(4), false, true),
            def("m", T::VarBinary(7), false, true),
            def("n", T::Text(BlobSize::Normal), false, true),
            def("o", T::Blob(BlobSize::Normal), false, true),
            def("p", T::Text(BlobSize::Tiny), false, true),
            def("q", T::Blob(BlobSize::Long), false, true),
            def("r", T::Date, false, true),
            def("s", T::DateTime { fsp: 0 }, false, true),
            def("t", T::DateTime { fsp: 3 }, false, true),
            def("u", T::Timestamp { fsp: 0 }, false, true),
            def("v", T::Time { fsp: 0 }, false, true),
            def("w", T::Time { fsp: 2 }, false, true),
            def("x", T::Year, false, true),
            def("y", T::Enum(vec!["a".into(), "bcd".into()]), false, true),
            z,
            aa,
        ],
        indexes: vec![
            IndexDef::primary_key(1, vec![0]),
            IndexDef {
                id: 2,
                name: "a".into(),
                columns: vec![1],
                unique: true,
                primary: false,
                parts: Vec::new(),
                generated: false,
                using: None,
            },
            IndexDef {
                id: 3,
                name: "c".into(),
                columns: vec![3, 4],
                unique: false,
                primary: false,
                parts: Vec::new(),
                generated: false,
                using: None,
            },
        ],
        ..Default::default()
    }
}

fn row() -> Vec<Value> {
    let d = Temporal { year: 2024, month: 2, day: 29, ..Temporal::default() };
    let dt = Temporal { hour: 13, minute: 5, second: 9, ..d };
    vec![
        Value::Int(1),
        Value::Int(-5),
        Value::UInt(65535),
        Value::Int(-100),
        Value::Int(-9_000_000_000),
        Value::UInt(u64::MAX),
        Value::Decimal(Decimal::from_str("1234.5").unwrap()),
        Value::Decimal(Decimal::from(42)),
        Value::Double(1.5),
        Value::Double(0.1),
        Value::from_str("ab"),
        Value::from_str("h\u{e9}llo"),
        Value::Bytes(b"ab\0\0".to_vec()),
        Value::from_str("xyz"),
        Value::from_str("text"),
        Value::from_str("blob"),
        Value::from_str("tt"),
        Value::from_str("lb"),
        Value::Date(d),
        Value::DateTime(dt),
        Value::DateTime(Temporal { micros: 120_000, ..dt }),
        Value::Null,
        Value::Time(-(838 * 3600 + 59 * 60 + 59) * 1_000_000),
        Value::Time((12 * 3600 + 34 * 60 + 56) * 1_000_000 + 780_000),
        Value::Int(2024),
        Value::from_str("bcd"),
        Value::from_str("Zz"),
        Value::Int(7),
    ]
}

#[test]
fn matches_real_mariadb() {
    let Ok(path) = std::env::var("ONELOG_MARIADB_SOCKET") else {
        eprintln!("skipping: ONELOG_MARIADB_SOCKET is not set");
        return;
    };
    let mut ps = connect(&path);
    query_ok(&mut ps, "drop database if exists onelog_diff");
    query_ok(&mut ps, "create database onelog_diff");
    query_ok(&mut ps, TABLE_SQL);
    query_ok(&mut ps, INSERT_SQL);

    let table = table();
    let metas: Vec<_> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut m = column_meta_for(c, "onelog_diff", "t", None);
            m.flags |= key_flags(table.key_membership(i));
            m
        })
        .collect();

    // Text protocol.
    let first = command(&mut ps, b"\x03select * from onelog_diff.t");
    let (cols, rows) = read_result(&mut ps, first);
    assert_eq!(cols.len(), metas.len());
    for (i, (real, meta)) in cols.iter().zip(&metas).enumerate() {
        let mut ours = Vec::new();
        encode_column_definition(meta, &mut ours);
        assert_eq!(&ours, real, "column {i} ({}): ours {meta:?}", table.columns[i].name);
    }
    let mut ours = Vec::new();
    encode_text_row(&row(), &metas, &mut ours);
    assert_eq!(rows.len(), 1);
    assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&rows[0]));
    assert_eq!(ours, rows[0]);

    // Binary protocol: prepare + execute.
    let mut p = vec![0x16];
    p.extend_from_slice(b"select * from onelog_diff.t");
    let prep = command(&mut ps, &p);
    assert_eq!(prep[0], 0x00, "{}", String::from_utf8_lossy(&prep));
    let stmt_id = u32::from_le_bytes([prep[1], prep[2], prep[3], prep[4]]);
    let ncols = usize::from(u16::from_le_bytes([prep[5], prep[6]]));
    for _ in 0..ncols {
        ps.read_packet().unwrap();
    }
    let mut exec = vec![0x17];
    exec.extend_from_slice(&stmt_id.to_le_bytes());
    exec.push(0);
    exec.extend_from_slice(&1u32.to_le_bytes());
    let first = command(&mut ps, &exec);
    let (_, rows) = read_result(&mut ps, first);
    let mut ours = Vec::new();
    encode_binary_row(&row(), &metas, &mut ours);
    assert_eq!(rows.len(), 1);
    assert_eq!(ours, rows[0]);

    // ERR for an unknown command.
    let real = command(&mut ps, &[0xEE]);
    let mut ours = Vec::new();
    encode_err(&SqlError::new(ErrorCode::UNKNOWN_COMMAND, "Unknown command"), &mut ours);
    assert_eq!(ours, real, "{}", String::from_utf8_lossy(&real));

    query_ok(&mut ps, "drop database onelog_diff");
}
