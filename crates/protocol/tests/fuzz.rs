//! Garbage in, no panic out: every decoder is fed 100k deterministic
//! pseudo-random inputs (pure noise and mutations of valid packets), as a
//! packet stream and as each kind of packet (`onelog_protocol::fuzzing`).
//! `ONELOG_FUZZ_SCALE=N` runs N times as many, `ONELOG_FUZZ_SEED` another
//! stream; `fuzz/` has the coverage-guided version of this loop.

use mysql_common::constants::CapabilityFlags;
use onelog_core::fuzz::{iterations, Rng};
use onelog_core::{Temporal, Value};
use onelog_protocol::fuzzing::{decode_client_bytes, Session};
use onelog_protocol::handshake::{server_capabilities, HandshakeResponse};
use onelog_protocol::resultset::{encode_binary_row, encode_text_row, ColumnMeta};
use onelog_protocol::stmt::ParamType;
use onelog_protocol::{InitialHandshake, MyColumnType};

fn seeds() -> Vec<Vec<u8>> {
    let mut hs = Vec::new();
    InitialHandshake::new(1, *b"abcdefghijklmnopqrst").encode(&mut hs);
    let mut resp = Vec::new();
    HandshakeResponse {
        capabilities: server_capabilities(),
        max_packet_size: 1 << 24,
        collation: 45,
        username: "root".into(),
        auth_response: vec![1; 20],
        database: Some("db".into()),
        auth_plugin: Some("mysql_native_password".into()),
        connect_attrs: vec![("a".into(), "b".into())],
        ..HandshakeResponse::default()
    }
    .encode(&mut resp);
    vec![
        hs,
        resp,
        b"\x03select 1".to_vec(),
        b"\x11bob\0\x14aaaaaaaaaaaaaaaaaaaa\0db\0\x2d\0mysql_native_password\0\x03\x01a\0".to_vec(),
        vec![0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x08, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        vec![0x15, 1, 0, 0, 0, 1, b'h', 0, 0, 0xEA, 0x0C],
        vec![0x12, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0, b'f'],
        vec![0xFE, b'p', 0, 1, 2],
    ]
}

const ALL_TYPES: &[MyColumnType] = &[
    MyColumnType::MYSQL_TYPE_DECIMAL,
    MyColumnType::MYSQL_TYPE_TINY,
    MyColumnType::MYSQL_TYPE_SHORT,
    MyColumnType::MYSQL_TYPE_LONG,
    MyColumnType::MYSQL_TYPE_FLOAT,
    MyColumnType::MYSQL_TYPE_DOUBLE,
    MyColumnType::MYSQL_TYPE_NULL,
    MyColumnType::MYSQL_TYPE_TIMESTAMP,
    MyColumnType::MYSQL_TYPE_LONGLONG,
    MyColumnType::MYSQL_TYPE_INT24,
    MyColumnType::MYSQL_TYPE_DATE,
    MyColumnType::MYSQL_TYPE_TIME,
    MyColumnType::MYSQL_TYPE_DATETIME,
    MyColumnType::MYSQL_TYPE_YEAR,
    MyColumnType::MYSQL_TYPE_VARCHAR,
    MyColumnType::MYSQL_TYPE_BIT,
    MyColumnType::MYSQL_TYPE_JSON,
    MyColumnType::MYSQL_TYPE_NEWDECIMAL,
    MyColumnType::MYSQL_TYPE_ENUM,
    MyColumnType::MYSQL_TYPE_BLOB,
    MyColumnType::MYSQL_TYPE_VAR_STRING,
    MyColumnType::MYSQL_TYPE_STRING,
    MyColumnType::MYSQL_TYPE_GEOMETRY,
];

#[test]
fn decoders_never_panic() {
    let mut rng = Rng::for_stream(1);
    let seeds = seeds();
    let caps = [server_capabilities(), CapabilityFlags::empty(), CapabilityFlags::all()];
    for i in 0..iterations(100_000) {
        let input = if i % 2 == 0 {
            rng.bytes(if i % 10 == 0 { 300 } else { 40 })
        } else {
            let s = &seeds[rng.below(seeds.len() as u64) as usize];
            rng.mutate(s)
        };
        // COM_STMT_EXECUTE parameter blocks, with and without bound types.
        let num_params = rng.below(12) as usize;
        let bound_types = if rng.below(2) == 0 {
            (0..num_params)
                .map(|_| ParamType { type_code: rng.next_u64() as u8, unsigned: rng.below(2) == 0 })
                .collect()
        } else {
            Vec::new()
        };
        let session = Session {
            caps: caps[(i % 3) as usize],
            num_params,
            bound_types,
            long_data: (0..rng.below(4)).map(|_| Some(vec![b'1'])).collect(),
            max_packet: rng.below(64) as usize,
            seq: rng.below(3) as u8,
        };
        decode_client_bytes(&input, &session);
    }
}

#[test]
fn row_encoders_never_panic() {
    let mut rng = Rng::for_stream(3);
    for _ in 0..iterations(20_000) {
        let n = rng.below(6) as usize;
        let cols: Vec<ColumnMeta> = (0..n)
            .map(|_| {
                let ty = ALL_TYPES[rng.below(ALL_TYPES.len() as u64) as usize];
                ColumnMeta::expr("c", ty, 63, 10, rng.next_u64() as u16, rng.next_u64() as u8)
            })
            .collect();
        let row: Vec<Value> = (0..rng.below(7))
            .map(|_| match rng.below(9) {
                0 => Value::Null,
                1 => Value::Int(rng.next_u64() as i64),
                2 => Value::UInt(rng.next_u64()),
                3 => Value::Double(f64::from_bits(rng.next_u64())),
                4 => Value::Decimal(onelog_core::decimal::Decimal::from_i128_with_scale(
                    rng.next_u64() as i64 as i128,
                    rng.below(29) as u32,
                )),
                5 => Value::Bytes(rng.bytes(10)),
                6 => Value::Date(Temporal {
                    year: rng.next_u64() as u16,
                    month: rng.next_u64() as u8,
                    ..Temporal::default()
                }),
                7 => Value::DateTime(Temporal {
                    micros: rng.next_u64() as u32,
                    hour: rng.next_u64() as u8,
                    ..Temporal::default()
                }),
                _ => Value::Time(rng.next_u64() as i64),
            })
            .collect();
        let mut out = Vec::new();
        encode_text_row(&row, &cols, &mut out);
        encode_binary_row(&row, &cols, &mut out);
    }
}
