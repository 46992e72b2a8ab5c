//! Prepared statements on the wire: COM_STMT_PREPARE's response and the
//! parameters of COM_STMT_EXECUTE.
//!
//! The server keeps, per statement, the parameter types last bound
//! ([`ParamType`]s): a COM_STMT_EXECUTE with new-params-bound = 0 reuses
//! them, so [`decode_execute_params`] takes them by `&mut` and updates them.
//! Hand-written: mysql_common's binary value parser is client-oriented
//! (decodes row values against column metadata, not parameters against
//! their types) and does not produce [`onelog_core::Value`].

use crate::buf::{put_u16, put_u32, DecodeError, Reader};
use crate::resultset::{encode_column_definition, encode_eof, ColumnMeta};
use mysql_common::constants::{ColumnType as MyType, StatusFlags};
use onelog_core::decimal::Decimal;
use onelog_core::{Temporal, Value};
use std::str::FromStr;

/// Appends COM_STMT_PREPARE_OK's first packet.
pub fn encode_prepare_ok(stmt_id: u32, num_columns: u16, num_params: u16, warnings: u16, out: &mut Vec<u8>) {
    out.push(0x00);
    put_u32(out, stmt_id);
    put_u16(out, num_columns);
    put_u16(out, num_params);
    out.push(0x00);
    put_u16(out, warnings);
}

/// All packets of a COM_STMT_PREPARE response: PREPARE_OK, the parameter
/// definitions [EOF], the column definitions [EOF] (EOFs only without
/// CLIENT_DEPRECATE_EOF, and only after a non-empty list).
pub fn encode_prepare_response(
    stmt_id: u32,
    params: &[ColumnMeta],
    columns: &[ColumnMeta],
    warnings: u16,
    deprecate_eof: bool,
    status: StatusFlags,
) -> Vec<Vec<u8>> {
    let mut packets = Vec::new();
    let mut p = Vec::new();
    let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    encode_prepare_ok(stmt_id, clamp(columns.len()), clamp(params.len()), warnings, &mut p);
    packets.push(p);
    for list in [params, columns] {
        if list.is_empty() {
            continue;
        }
        for c in list {
            let mut p = Vec::new();
            encode_column_definition(c, &mut p);
            packets.push(p);
        }
        if !deprecate_eof {
            let mut p = Vec::new();
            encode_eof(0, status, &mut p);
            packets.push(p);
        }
    }
    packets
}

/// A bound parameter type: the type byte and the unsigned flag (0x80 of the
/// second byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamType {
    pub type_code: u8,
    pub unsigned: bool,
}

impl ParamType {
    pub fn new(t: MyType, unsigned: bool) -> ParamType {
        ParamType { type_code: t as u8, unsigned }
    }

    /// The type as mysql_common's enum, if known.
    pub fn column_type(&self) -> Option<MyType> {
        MyType::try_from(self.type_code).ok()
    }
}

/// COM_STMT_EXECUTE parameter data could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// new-params-bound was 0 but no types were bound before.
    #[error("parameter types were never bound for this statement")]
    TypesNotBound,
    #[error("unsupported parameter type {0}")]
    UnsupportedType(u8),
    #[error("invalid {what} value of {len} bytes")]
    BadLength { what: &'static str, len: usize },
}

/// Decodes the parameter block of COM_STMT_EXECUTE (the `params` of
/// [`crate::command::Command::StmtExecute`]).
///
/// * `num_params` – the statement's parameter count (from prepare).
/// * `types` – the statement's last bound types; replaced when the packet
///   binds new ones, used as-is otherwise.
/// * `long_data` – data accumulated from COM_STMT_SEND_LONG_DATA per
///   parameter; such parameters have no value in the packet.
pub fn decode_execute_params(
    raw: &[u8],
    num_params: usize,
    types: &mut Vec<ParamType>,
    long_data: &[Option<Vec<u8>>],
) -> Result<Vec<Value>, ParamError> {
    if num_params == 0 {
        return Ok(Vec::new());
    }
    let mut r = Reader::new(raw);
    let bitmap = r.take(num_params.div_ceil(8), "NULL bitmap")?;
    let new_bound = r.u8("new-params-bound flag")?;
    if new_bound == 1 {
        let mut t = Vec::with_capacity(num_params.min(r.remaining() / 2));
        for _ in 0..num_params {
            let code = r.u8("parameter type")?;
            let flags = r.u8("parameter type")?;
            t.push(ParamType { type_code: code, unsigned: flags & 0x80 != 0 });
        }
        *types = t;
    } else if types.len() != num_params {
        return Err(ParamError::TypesNotBound);
    }
    let mut values = Vec::with_capacity(num_params.min(raw.len() + 1));
    for (i, ty) in types.iter().enumerate().take(num_params) {
        if let Some(Some(data)) = long_data.get(i) {
            values.push(long_data_value(data, ty));
            continue;
        }
        if bitmap[i / 8] & (1 << (i % 8)) != 0 {
            values.push(Value::Null);
            continue;
        }
        values.push(decode_value(&mut r, ty)?);
    }
    Ok(values)
}

fn long_data_value(data: &[u8], ty: &ParamType) -> Value {
    match ty.column_type() {
        Some(MyType::MYSQL_TYPE_NEWDECIMAL | MyType::MYSQL_TYPE_DECIMAL) => decimal_value(data),
        _ => Value::Bytes(data.to_vec()),
    }
}

fn decimal_value(b: &[u8]) -> Value {
    std::str::from_utf8(b)
        .ok()
        .and_then(|s| Decimal::from_str(s.trim()).or_else(|_| Decimal::from_scientific(s.trim())).ok())
        .map(Value::Decimal)
        .unwrap_or_else(|| Value::Bytes(b.to_vec()))
}

fn decode_value(r: &mut Reader<'_>, ty: &ParamType) -> Result<Value, ParamError> {
    use MyType::*;
    let t = ty.column_type().ok_or(ParamError::UnsupportedType(ty.type_code))?;
    let u = ty.unsigned;
    Ok(match t {
        MYSQL_TYPE_NULL => Value::Null,
        MYSQL_TYPE_TINY => {
            let b = r.u8("TINY")?;
            if u {
                Value::UInt(u64::from(b))
            } else {
                Value::Int(i64::from(b as i8))
            }
        }
        MYSQL_TYPE_SHORT => {
            let v = r.u16("SHORT")?;
            if u {
                Value::UInt(u64::from(v))
            } else {
                Value::Int(i64::from(v as i16))
            }
        }
        MYSQL_TYPE_YEAR => Value::Int(i64::from(r.u16("YEAR")?)),
        MYSQL_TYPE_LONG | MYSQL_TYPE_INT24 => {
            let v = r.u32("LONG")?;
            if u {
                Value::UInt(u64::from(v))
            } else {
                Value::Int(i64::from(v as i32))
            }
        }
        MYSQL_TYPE_LONGLONG => {
            let v = r.u64("LONGLONG")?;
            if u {
                Value::UInt(v)
            } else {
                Value::Int(v as i64)
            }
        }
        MYSQL_TYPE_FLOAT => {
            let b = r.take(4, "FLOAT")?;
            Value::Double(f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        }
        MYSQL_TYPE_DOUBLE => Value::Double(f64::from_bits(r.u64("DOUBLE")?)),
        MYSQL_TYPE_NEWDECIMAL | MYSQL_TYPE_DECIMAL => decimal_value(r.lenenc_bytes("DECIMAL")?),
        MYSQL_TYPE_DATE | MYSQL_TYPE_NEWDATE => Value::Date(decode_datetime(r)?),
        MYSQL_TYPE_DATETIME | MYSQL_TYPE_TIMESTAMP | MYSQL_TYPE_DATETIME2 | MYSQL_TYPE_TIMESTAMP2 => {
            Value::DateTime(decode_datetime(r)?)
        }
        MYSQL_TYPE_TIME | MYSQL_TYPE_TIME2 => Value::Time(decode_time(r)?),
        MYSQL_TYPE_VARCHAR
        | MYSQL_TYPE_VAR_STRING
        | MYSQL_TYPE_STRING
        | MYSQL_TYPE_ENUM
        | MYSQL_TYPE_SET
        | MYSQL_TYPE_TINY_BLOB
        | MYSQL_TYPE_MEDIUM_BLOB
        | MYSQL_TYPE_LONG_BLOB
        | MYSQL_TYPE_BLOB
        | MYSQL_TYPE_JSON
        | MYSQL_TYPE_GEOMETRY
        | MYSQL_TYPE_BIT
        | MYSQL_TYPE_VECTOR => Value::Bytes(r.lenenc_bytes("string")?.to_vec()),
        MYSQL_TYPE_TYPED_ARRAY | MYSQL_TYPE_UNKNOWN => return Err(ParamError::UnsupportedType(ty.type_code)),
    })
}

/// Binary DATE/DATETIME/TIMESTAMP: a length byte (0, 4, 7 or 11) then
/// year(2) month day [hour minute second [microseconds(4)]].
pub fn decode_datetime(r: &mut Reader<'_>) -> Result<Temporal, ParamError> {
    let len = usize::from(r.u8("DATETIME length")?);
    let b = r.take(len, "DATETIME")?;
    let mut t = Temporal::default();
    match len {
        0 => {}
        4 | 7 | 11 => {
            t.year = u16::from_le_bytes([b[0], b[1]]);
            t.month = b[2];
            t.day = b[3];
            if len >= 7 {
                t.hour = b[4];
                t.minute = b[5];
                t.second = b[6];
            }
            if len == 11 {
                t.micros = u32::from_le_bytes([b[7], b[8], b[9], b[10]]);
            }
        }
        _ => return Err(ParamError::BadLength { what: "DATETIME", len }),
    }
    Ok(t)
}

/// Binary TIME: a length byte (0, 8 or 12) then is_negative days(4) hour
/// minute second [microseconds(4)]; returns signed microseconds (saturating).
pub fn decode_time(r: &mut Reader<'_>) -> Result<i64, ParamError> {
    let len = usize::from(r.u8("TIME length")?);
    let b = r.take(len, "TIME")?;
    match len {
        0 => Ok(0),
        8 | 12 => {
            let neg = b[0] != 0;
            let days = i64::from(u32::from_le_bytes([b[1], b[2], b[3], b[4]]));
            let secs = days * 86_400 + i64::from(b[5]) * 3600 + i64::from(b[6]) * 60 + i64::from(b[7]);
            let micros = if len == 12 { i64::from(u32::from_le_bytes([b[8], b[9], b[10], b[11]])) } else { 0 };
            let us = secs.saturating_mul(1_000_000).saturating_add(micros);
            Ok(if neg { -us } else { us })
        }
        _ => Err(ParamError::BadLength { what: "TIME", len }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resultset::{encode_binary_datetime, encode_binary_time};

    #[test]
    fn prepare_ok_golden() {
        // From the MySQL docs (SELECT CONCAT(?, ?) AS col1):
        // 00 01 00 00 00 01 00 02 00 00 00 00
        let mut p = Vec::new();
        encode_prepare_ok(1, 1, 2, 0, &mut p);
        assert_eq!(p, [0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00]);
        let params = vec![ColumnMeta::param(), ColumnMeta::param()];
        let cols = vec![ColumnMeta::text("col1", 10)];
        let packets = encode_prepare_response(1, &params, &cols, 0, false, StatusFlags::SERVER_STATUS_AUTOCOMMIT);
        assert_eq!(packets.len(), 1 + 2 + 1 + 1 + 1);
        assert_eq!(packets[3], [0xFE, 0, 0, 2, 0]);
        let packets = encode_prepare_response(1, &params, &[], 0, true, StatusFlags::empty());
        assert_eq!(packets.len(), 3);
    }

    fn execute_block(types: &[(MyType, bool)], nulls: &[usize], values: &[u8]) -> Vec<u8> {
        let mut p = vec![0u8; types.len().div_ceil(8)];
        for &n in nulls {
            p[n / 8] |= 1 << (n % 8);
        }
        p.push(1);
        for (t, u) in types {
            p.push(*t as u8);
            p.push(if *u { 0x80 } else { 0 });
        }
        p.extend_from_slice(values);
        p
    }

    #[test]
    fn golden_execute_from_docs() {
        // COM_STMT_EXECUTE example (after the header): one LONGLONG param = 1.
        // 00 01 08 00 01 00 00 00 00 00 00 00
        let raw = [0x00, 0x01, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
        let mut types = Vec::new();
        assert_eq!(decode_execute_params(&raw, 1, &mut types, &[]), Ok(vec![Value::Int(1)]));
        assert_eq!(types, vec![ParamType::new(MyType::MYSQL_TYPE_LONGLONG, false)]);
        // Re-execute without new types: types persist.
        let raw = [0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
        assert_eq!(decode_execute_params(&raw, 1, &mut types, &[]), Ok(vec![Value::Int(2)]));
        let mut none = Vec::new();
        assert_eq!(decode_execute_params(&raw, 1, &mut none, &[]), Err(ParamError::TypesNotBound));
    }

    #[test]
    fn every_type() {
        use MyType::*;
        let mut vals = Vec::new();
        vals.push(0xFF); // TINY signed -1
        vals.push(0xFF); // TINY unsigned 255
        vals.extend_from_slice(&(-2i16).to_le_bytes());
        vals.extend_from_slice(&65535u16.to_le_bytes());
        vals.extend_from_slice(&(-3i32).to_le_bytes());
        vals.extend_from_slice(&(-4i32).to_le_bytes()); // INT24
        vals.extend_from_slice(&u64::MAX.to_le_bytes());
        vals.extend_from_slice(&1.5f32.to_le_bytes());
        vals.extend_from_slice(&2.25f64.to_le_bytes());
        vals.extend_from_slice(b"\x051.250");
        vals.extend_from_slice(b"\x03abc");
        vals.extend_from_slice(b"\x02xy"); // BLOB
        vals.extend_from_slice(b"\x02{}"); // JSON
        vals.extend_from_slice(&2024u16.to_le_bytes()); // YEAR
        let ts = Temporal { year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5, micros: 6 };
        encode_binary_datetime(&ts, true, &mut vals);
        encode_binary_datetime(&ts, false, &mut vals);
        encode_binary_datetime(&Temporal { micros: 0, ..ts }, false, &mut vals);
        encode_binary_time(-90_061_000_007, &mut vals);
        vals.extend_from_slice(b"\x01\x05"); // BIT
        let types = [
            (MYSQL_TYPE_TINY, false),
            (MYSQL_TYPE_TINY, true),
            (MYSQL_TYPE_SHORT, false),
            (MYSQL_TYPE_SHORT, true),
            (MYSQL_TYPE_LONG, false),
            (MYSQL_TYPE_INT24, false),
            (MYSQL_TYPE_LONGLONG, true),
            (MYSQL_TYPE_FLOAT, false),
            (MYSQL_TYPE_DOUBLE, false),
            (MYSQL_TYPE_NEWDECIMAL, false),
            (MYSQL_TYPE_VAR_STRING, false),
            (MYSQL_TYPE_BLOB, false),
            (MYSQL_TYPE_JSON, false),
            (MYSQL_TYPE_YEAR, true),
            (MYSQL_TYPE_DATE, false),
            (MYSQL_TYPE_DATETIME, false),
            (MYSQL_TYPE_TIMESTAMP, false),
            (MYSQL_TYPE_TIME, false),
            (MYSQL_TYPE_BIT, false),
            (MYSQL_TYPE_NULL, false),
            (MYSQL_TYPE_STRING, false),    // NULL via bitmap
            (MYSQL_TYPE_LONG_BLOB, false), // long data
        ];
        let raw = execute_block(&types, &[20], &vals);
        let mut long = vec![None; types.len()];
        long[21] = Some(b"big".to_vec());
        let mut bound = Vec::new();
        let got = decode_execute_params(&raw, types.len(), &mut bound, &long).unwrap();
        let expected = vec![
            Value::Int(-1),
            Value::UInt(255),
            Value::Int(-2),
            Value::UInt(65535),
            Value::Int(-3),
            Value::Int(-4),
            Value::UInt(u64::MAX),
            Value::Double(1.5),
            Value::Double(2.25),
            Value::Decimal(Decimal::from_str("1.250").unwrap()),
            Value::from_str("abc"),
            Value::Bytes(b"xy".to_vec()),
            Value::from_str("{}"),
            Value::Int(2024),
            Value::Date(Temporal { year: 2024, month: 1, day: 2, ..Temporal::default() }),
            Value::DateTime(ts),
            Value::DateTime(Temporal { micros: 0, ..ts }),
            Value::Time(-90_061_000_007),
            Value::Bytes(vec![5]),
            Value::Null,
            Value::Null,
            Value::Bytes(b"big".to_vec()),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn bad_params() {
        let mut t = Vec::new();
        assert!(decode_execute_params(&[], 1, &mut t, &[]).is_err());
        let raw = execute_block(&[(MyType::MYSQL_TYPE_LONG, false)], &[], &[1, 2]);
        assert!(matches!(decode_execute_params(&raw, 1, &mut t, &[]), Err(ParamError::Decode(_))));
        let raw = [0, 1, 0xF3, 0];
        assert_eq!(decode_execute_params(&raw, 1, &mut t, &[]), Err(ParamError::UnsupportedType(0xF3)));
        let raw = execute_block(&[(MyType::MYSQL_TYPE_DATE, false)], &[], &[5, 0, 0, 0, 0, 0]);
        assert!(matches!(decode_execute_params(&raw, 1, &mut t, &[]), Err(ParamError::BadLength { .. })));
        // Huge time saturates instead of overflowing.
        let raw = execute_block(&[(MyType::MYSQL_TYPE_TIME, false)], &[], &[8, 0, 0xFF, 0xFF, 0xFF, 0xFF, 23, 59, 59]);
        assert!(decode_execute_params(&raw, 1, &mut t, &[]).is_ok());
        assert_eq!(decode_execute_params(&[1, 2, 3], 0, &mut t, &[]), Ok(vec![]));
    }
}
