//! MySQL binlog row-image codec.
//!
//! Owns: the byte format of one row as a MySQL/MariaDB rows event stores it
//! (null bitmap, then every non-NULL column in its binlog binary form), and the
//! TABLE_MAP type code and metadata bytes that describe each column. The binlog
//! writer uses it for WRITE/UPDATE/DELETE_ROWS events and the storage layer
//! reuses it as its row format, so one codec is tested once.
//!
//! The formats follow MariaDB's `Field_*::pack`/`unpack` (sql/field.cc),
//! `decimal2bin` (strings/decimal.c) and `my_*_packed_to_binary`
//! (sql-common/my_time.c).

use crate::decimal::Decimal;
use crate::schema::{ColumnDef, ColumnType};
use crate::set_value::{parse_set, set_pack_length, set_text};
use crate::uuid::{Uuid, UUID_BYTES};
use crate::value::{Temporal, Value};

/// MySQL field type codes (`enum_field_types`) used in TABLE_MAP events.
pub mod mysql_type {
    pub const DECIMAL: u8 = 0;
    pub const TINY: u8 = 1;
    pub const SHORT: u8 = 2;
    pub const LONG: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const DOUBLE: u8 = 5;
    pub const NULL: u8 = 6;
    pub const TIMESTAMP: u8 = 7;
    pub const LONGLONG: u8 = 8;
    pub const INT24: u8 = 9;
    pub const DATE: u8 = 10;
    pub const TIME: u8 = 11;
    pub const DATETIME: u8 = 12;
    pub const YEAR: u8 = 13;
    pub const NEWDATE: u8 = 14;
    pub const VARCHAR: u8 = 15;
    pub const BIT: u8 = 16;
    pub const TIMESTAMP2: u8 = 17;
    pub const DATETIME2: u8 = 18;
    pub const TIME2: u8 = 19;
    pub const NEWDECIMAL: u8 = 246;
    pub const ENUM: u8 = 247;
    pub const SET: u8 = 248;
    pub const TINY_BLOB: u8 = 249;
    pub const MEDIUM_BLOB: u8 = 250;
    pub const LONG_BLOB: u8 = 251;
    pub const BLOB: u8 = 252;
    pub const VAR_STRING: u8 = 253;
    pub const STRING: u8 = 254;
    pub const GEOMETRY: u8 = 255;
}

/// Errors of the row-image codec.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RowImageError {
    #[error("row has {values} values but the table has {columns} columns")]
    ColumnCount { columns: usize, values: usize },
    #[error("column `{column}`: value {value} cannot be stored in {ty}")]
    OutOfRange { column: String, ty: String, value: String },
    #[error("column `{column}`: {value} is not a valid {ty} value")]
    WrongType { column: String, ty: String, value: String },
    #[error("column `{column}`: decimal({precision},{scale}) value does not fit a 96-bit decimal (precision above 28 digits is not supported)")]
    DecimalTooWide { column: String, precision: u8, scale: u8 },
    #[error("row image truncated: column `{column}` needs {needed} bytes, {available} left")]
    Truncated { column: String, needed: usize, available: usize },
    #[error("column `{column}`: corrupt {ty} image: {reason}")]
    Corrupt { column: String, ty: String, reason: String },
}

/// Bytes of a null (or presence) bitmap covering `n` columns.
pub fn bitmap_bytes(n: usize) -> usize {
    n.div_ceil(8)
}

/// Appends the row image of `values` (one per column of `columns`, all columns present) as a MySQL
/// rows event stores it: null bitmap (ceil(n/8) bytes, bit i set = column i NULL) then each non-NULL
/// value in its binlog binary format. Errors if a value cannot be represented in the column type.
pub fn encode_row(columns: &[ColumnDef], values: &[Value], out: &mut Vec<u8>) -> Result<(), RowImageError> {
    if columns.len() != values.len() {
        return Err(RowImageError::ColumnCount { columns: columns.len(), values: values.len() });
    }
    let bitmap_start = out.len();
    out.resize(bitmap_start + bitmap_bytes(columns.len()), 0);
    for (i, (column, value)) in columns.iter().zip(values).enumerate() {
        if value.is_null() {
            out[bitmap_start + i / 8] |= 1 << (i % 8);
        } else if let Err(e) = encode_value(column, value, out) {
            // Leave `out` as it was, so a caller may keep appending to it.
            out.truncate(bitmap_start);
            return Err(e);
        }
    }
    Ok(())
}

/// Decodes one row image from the start of `buf`; returns the values and bytes consumed.
pub fn decode_row(columns: &[ColumnDef], buf: &[u8]) -> Result<(Vec<Value>, usize), RowImageError> {
    decode_row_columns(columns, buf, None)
}

/// [`decode_row`] that materialises only the columns `wanted` marks (all
/// when `None`); the others read as NULL. Skipped strings are stepped over
/// without being copied — a scan reading `c` of a wide row allocates for `c`
/// alone.
pub fn decode_row_columns(
    columns: &[ColumnDef],
    buf: &[u8],
    wanted: Option<&[bool]>,
) -> Result<(Vec<Value>, usize), RowImageError> {
    let nb = bitmap_bytes(columns.len());
    let bitmap = buf.get(..nb).ok_or_else(|| RowImageError::Truncated {
        column: "(null bitmap)".into(),
        needed: nb,
        available: buf.len(),
    })?;
    let mut pos = nb;
    let mut values = Vec::with_capacity(columns.len());
    for (i, column) in columns.iter().enumerate() {
        if bitmap[i / 8] & (1 << (i % 8)) != 0 {
            values.push(Value::Null);
        } else {
            let mut r = Reader { buf, pos, column };
            if wanted.is_none_or(|w| w.get(i).copied().unwrap_or(true)) {
                values.push(decode_value(column, &mut r)?);
            } else {
                skip_value(column, &mut r)?;
                values.push(Value::Null);
            }
            pos = r.pos;
        }
    }
    Ok((values, pos))
}

/// The MySQL field type code (MYSQL_TYPE_*) written in TABLE_MAP for the column and its metadata bytes.
pub fn binlog_type(column: &ColumnDef) -> (u8, Vec<u8>) {
    use mysql_type as t;
    match &column.ty {
        ColumnType::TinyInt => (t::TINY, vec![]),
        ColumnType::SmallInt => (t::SHORT, vec![]),
        ColumnType::MediumInt => (t::INT24, vec![]),
        ColumnType::Int => (t::LONG, vec![]),
        ColumnType::BigInt => (t::LONGLONG, vec![]),
        ColumnType::Year => (t::YEAR, vec![]),
        // Bits past the whole bytes, then whole bytes (Field_bit's metadata).
        ColumnType::Bit(bits) => (t::BIT, vec![bits % 8, bits / 8]),
        ColumnType::Float => (t::FLOAT, vec![4]),
        ColumnType::Double => (t::DOUBLE, vec![8]),
        ColumnType::Decimal { precision, scale } => (t::NEWDECIMAL, vec![*precision, *scale]),
        // MariaDB logs a UUID as the BINARY(16) of its in-memory form.
        ColumnType::Char(_) | ColumnType::Binary(_) | ColumnType::Uuid => {
            // The length (up to 1023 bytes) shares its top two bits with the
            // real type byte, XOR-ed in so that a plain real type means <256.
            let len = column.max_bytes().min(0x3ff) as u16;
            let real = t::STRING ^ (((len & 0x300) >> 4) as u8);
            (t::STRING, vec![real, (len & 0xff) as u8])
        }
        ColumnType::VarChar(_) | ColumnType::VarBinary(_) => {
            let len = column.max_bytes().min(0xffff) as u16;
            (t::VARCHAR, len.to_le_bytes().to_vec())
        }
        ColumnType::Text(size) | ColumnType::Blob(size) => (t::BLOB, vec![size.pack_length() as u8]),
        ColumnType::Enum(labels) => (t::STRING, vec![t::ENUM, enum_pack_length(labels.len()) as u8]),
        ColumnType::Set(members) => (t::STRING, vec![t::SET, set_pack_length(members.len()) as u8]),
        ColumnType::Date => (t::DATE, vec![]),
        ColumnType::DateTime { fsp } => (t::DATETIME2, vec![*fsp]),
        ColumnType::Timestamp { fsp } => (t::TIMESTAMP2, vec![*fsp]),
        ColumnType::Time { fsp } => (t::TIME2, vec![*fsp]),
    }
}

/// Bytes of an ENUM index: 1 for up to 255 labels, else 2.
pub fn enum_pack_length(labels: usize) -> usize {
    if labels < 256 {
        1
    } else {
        2
    }
}

/// Bytes of the length prefix of a CHAR/BINARY/VARCHAR/VARBINARY value.
fn string_prefix_len(column: &ColumnDef) -> usize {
    if column.max_bytes() < 256 {
        1
    } else {
        2
    }
}

fn out_of_range(column: &ColumnDef, value: &Value) -> RowImageError {
    RowImageError::OutOfRange { column: column.name.clone(), ty: column.ty.sql_name(), value: short_debug(value) }
}

fn wrong_type(column: &ColumnDef, value: &Value) -> RowImageError {
    RowImageError::WrongType { column: column.name.clone(), ty: column.ty.sql_name(), value: short_debug(value) }
}

fn short_debug(value: &Value) -> String {
    let mut s = format!("{value:?}");
    if s.len() > 64 {
        let mut cut = 64;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// Integer view of a value for an integer column; `Int` and `UInt` are both
/// accepted when the number is in range.
fn int_value(column: &ColumnDef, value: &Value) -> Result<i128, RowImageError> {
    match value {
        Value::Int(v) => Ok(i128::from(*v)),
        Value::UInt(v) => Ok(i128::from(*v)),
        _ => Err(wrong_type(column, value)),
    }
}

fn encode_value(column: &ColumnDef, value: &Value, out: &mut Vec<u8>) -> Result<(), RowImageError> {
    match &column.ty {
        ColumnType::TinyInt | ColumnType::SmallInt | ColumnType::MediumInt | ColumnType::Int | ColumnType::BigInt => {
            let width_bytes = int_width_bytes(&column.ty);
            let bits = 8 * width_bytes as u32;
            let v = int_value(column, value)?;
            let (min, max) = if column.unsigned {
                (0i128, (1i128 << bits) - 1)
            } else {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            };
            if v < min || v > max {
                return Err(out_of_range(column, value));
            }
            // Two's complement little-endian, truncated to the width.
            out.extend_from_slice(&(v as i64).to_le_bytes()[..width_bytes]);
        }
        ColumnType::Bit(bits) => {
            let v = int_value(column, value)?;
            if v < 0 || v >= 1i128 << bits {
                return Err(out_of_range(column, value));
            }
            let width_bytes = bit_width_bytes(*bits);
            out.extend_from_slice(&(v as u64).to_be_bytes()[8 - width_bytes..]);
        }
        ColumnType::Year => {
            let v = int_value(column, value)?;
            let byte = match v {
                0 => 0u8,
                1901..=2155 => (v - 1900) as u8,
                _ => return Err(out_of_range(column, value)),
            };
            out.push(byte);
        }
        ColumnType::Float => {
            let v = float_value(column, value)?;
            let f = v as f32;
            // MySQL stores neither NaN nor infinities.
            if !f.is_finite() {
                return Err(out_of_range(column, value));
            }
            out.extend_from_slice(&f.to_le_bytes());
        }
        ColumnType::Double => {
            let v = float_value(column, value)?;
            if !v.is_finite() {
                return Err(out_of_range(column, value));
            }
            out.extend_from_slice(&v.to_le_bytes());
        }
        ColumnType::Decimal { precision, scale } => {
            let Value::Decimal(d) = value else {
                return Err(wrong_type(column, value));
            };
            encode_decimal(column, d, *precision, *scale, out)?;
        }
        ColumnType::Char(n) | ColumnType::VarChar(n) => {
            let stored = column.collation.charset().encode(bytes_value(column, value)?);
            // CHAR drops trailing pad spaces, as MySQL's Field_string::pack.
            let bytes = if matches!(column.ty, ColumnType::Char(_)) { trim_end(&stored, b' ') } else { &stored };
            check_string_len(column, value, bytes, Some(*n))?;
            put_prefixed(out, bytes, string_prefix_len(column));
        }
        ColumnType::Binary(_) => {
            let bytes = trim_end(bytes_value(column, value)?, 0);
            check_string_len(column, value, bytes, None)?;
            put_prefixed(out, bytes, string_prefix_len(column));
        }
        ColumnType::VarBinary(_) => {
            let bytes = bytes_value(column, value)?;
            check_string_len(column, value, bytes, None)?;
            put_prefixed(out, bytes, string_prefix_len(column));
        }
        ColumnType::Text(size) | ColumnType::Blob(size) => {
            let bytes = &column.collation.charset().encode(bytes_value(column, value)?);
            if bytes.len() as u64 > size.max_bytes() {
                return Err(out_of_range(column, value));
            }
            put_prefixed(out, bytes, size.pack_length());
        }
        ColumnType::Enum(labels) => {
            let index = enum_index(column, labels, value)?;
            let width = enum_pack_length(labels.len());
            out.extend_from_slice(&(index as u16).to_le_bytes()[..width]);
        }
        ColumnType::Set(members) => {
            let parsed = parse_set(members, column.collation, bytes_value(column, value)?);
            if parsed.unknown {
                return Err(out_of_range(column, value));
            }
            out.extend_from_slice(&parsed.mask.to_le_bytes()[..set_pack_length(members.len())]);
        }
        ColumnType::Date => {
            let t = temporal_value(column, value)?;
            check_date(column, value, &t)?;
            let packed = u32::from(t.day) | u32::from(t.month) << 5 | u32::from(t.year) << 9;
            out.extend_from_slice(&packed.to_le_bytes()[..3]);
        }
        ColumnType::DateTime { fsp } => {
            let t = temporal_value(column, value)?;
            check_date(column, value, &t)?;
            check_time_of_day(column, value, &t)?;
            let ymd = (u64::from(t.year) * 13 + u64::from(t.month)) << 5 | u64::from(t.day);
            let hms = u64::from(t.hour) << 12 | u64::from(t.minute) << 6 | u64::from(t.second);
            // 1 sign bit (always set: DATETIME is never negative), 17 bits
            // year*13+month, 5 day, 5 hour, 6 minute, 6 second = 40 bits.
            let int_part = (ymd << 17 | hms) + 0x80_0000_0000;
            out.extend_from_slice(&int_part.to_be_bytes()[3..]);
            put_fraction(out, t.micros, *fsp);
        }
        ColumnType::Timestamp { fsp } => {
            let t = temporal_value(column, value)?;
            let secs = timestamp_seconds(&t).ok_or_else(|| out_of_range(column, value))?;
            out.extend_from_slice(&secs.to_be_bytes());
            put_fraction(out, t.micros, *fsp);
        }
        ColumnType::Time { fsp } => {
            let Value::Time(us) = value else {
                return Err(wrong_type(column, value));
            };
            encode_time(column, value, *us, *fsp, out)?;
        }
        ColumnType::Uuid => {
            let Value::Uuid(u) = value else {
                return Err(wrong_type(column, value));
            };
            put_prefixed(out, trim_end(&u.0, 0), string_prefix_len(column));
        }
    }
    Ok(())
}

/// Appends the bytes of a non-NULL field as MariaDB's CHECKSUM TABLE
/// hashes them (`handler::calculate_checksum`): the field's in-record
/// image — CHAR padded with spaces and BINARY with zero bytes to their full
/// byte length, other fixed-size types as a rows event stores them — but
/// for VARCHAR, BLOB/TEXT and BIT, which it reads as strings, the value's
/// bytes alone, without a length.
pub fn append_checksum_field(column: &ColumnDef, value: &Value, out: &mut Vec<u8>) -> Result<(), RowImageError> {
    let full_bytes = column.max_bytes() as usize;
    match &column.ty {
        ColumnType::Char(_) => {
            let charset = column.collation.charset();
            let start = out.len();
            out.extend_from_slice(&charset.encode(bytes_value(column, value)?));
            let space = charset.encode(b" ");
            while out.len() - start < full_bytes && !space.is_empty() {
                out.extend_from_slice(&space);
            }
        }
        ColumnType::Binary(_) => {
            let start = out.len();
            out.extend_from_slice(bytes_value(column, value)?);
            out.resize(start + full_bytes.max(out.len() - start), 0);
        }
        ColumnType::VarChar(_) | ColumnType::Text(_) => {
            out.extend_from_slice(&column.collation.charset().encode(bytes_value(column, value)?));
        }
        ColumnType::VarBinary(_) | ColumnType::Blob(_) => out.extend_from_slice(bytes_value(column, value)?),
        ColumnType::Uuid => {
            let Value::Uuid(u) = value else {
                return Err(wrong_type(column, value));
            };
            out.extend_from_slice(&u.0);
        }
        _ => encode_value(column, value, out)?,
    }
    Ok(())
}

/// The bytes a BIT(bits) value takes in a row image.
pub fn bit_width_bytes(bits: u8) -> usize {
    usize::from(bits).div_ceil(8)
}

fn int_width_bytes(ty: &ColumnType) -> usize {
    match ty {
        ColumnType::TinyInt | ColumnType::Year => 1,
        ColumnType::SmallInt => 2,
        ColumnType::MediumInt => 3,
        ColumnType::Int => 4,
        _ => 8,
    }
}

fn float_value(column: &ColumnDef, value: &Value) -> Result<f64, RowImageError> {
    match value {
        Value::Double(v) => Ok(*v),
        Value::Int(v) => Ok(*v as f64),
        Value::UInt(v) => Ok(*v as f64),
        _ => Err(wrong_type(column, value)),
    }
}

fn bytes_value<'v>(column: &ColumnDef, value: &'v Value) -> Result<&'v [u8], RowImageError> {
    match value {
        Value::Bytes(b) => Ok(b),
        _ => Err(wrong_type(column, value)),
    }
}

fn temporal_value(column: &ColumnDef, value: &Value) -> Result<Temporal, RowImageError> {
    match value {
        Value::Date(t) | Value::DateTime(t) => Ok(*t),
        _ => Err(wrong_type(column, value)),
    }
}

fn trim_end(bytes: &[u8], pad: u8) -> &[u8] {
    let end = bytes.iter().rposition(|b| *b != pad).map_or(0, |p| p + 1);
    &bytes[..end]
}

/// Checks the byte length against the column's maximum and, for character
/// columns given `chars`, the character count when the bytes are UTF-8.
fn check_string_len(column: &ColumnDef, value: &Value, bytes: &[u8], chars: Option<u32>) -> Result<(), RowImageError> {
    if bytes.len() as u64 > column.max_bytes() {
        return Err(out_of_range(column, value));
    }
    if let (Some(n), Ok(s)) = (chars, std::str::from_utf8(bytes)) {
        if s.chars().count() as u64 > u64::from(n) {
            return Err(out_of_range(column, value));
        }
    }
    Ok(())
}

fn put_prefixed(out: &mut Vec<u8>, bytes: &[u8], prefix_len: usize) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes()[..prefix_len]);
    out.extend_from_slice(bytes);
}

fn enum_index(column: &ColumnDef, labels: &[String], value: &Value) -> Result<usize, RowImageError> {
    let bytes = bytes_value(column, value)?;
    if bytes.is_empty() {
        // MySQL's error value '' has index 0, unless '' is itself a label.
        return Ok(labels.iter().position(|l| l.is_empty()).map_or(0, |p| p + 1));
    }
    let s = std::str::from_utf8(bytes).map_err(|_| wrong_type(column, value))?;
    labels
        .iter()
        .position(|l| l.eq_ignore_ascii_case(s) || l.to_lowercase() == s.to_lowercase())
        .map(|p| p + 1)
        .ok_or_else(|| out_of_range(column, value))
}

fn check_date(column: &ColumnDef, value: &Value, t: &Temporal) -> Result<(), RowImageError> {
    // Zero parts are allowed (MySQL's zero date and partial dates).
    if t.year > 9999 || t.month > 12 || t.day > 31 {
        return Err(out_of_range(column, value));
    }
    Ok(())
}

fn check_time_of_day(column: &ColumnDef, value: &Value, t: &Temporal) -> Result<(), RowImageError> {
    if t.hour > 23 || t.minute > 59 || t.second > 59 || t.micros > 999_999 {
        return Err(out_of_range(column, value));
    }
    Ok(())
}

/// Microseconds truncated to `fsp` digits, in the unit the image stores
/// (hundredths for fsp 1-2, ten-thousandths for 3-4, micros for 5-6).
fn fraction_units(micros: u32, fsp: u8) -> (u32, usize) {
    match fsp {
        0 => (0, 0),
        1 | 2 => {
            let keep = 10u32.pow(u32::from(2 - fsp));
            (micros / 10_000 / keep * keep, 1)
        }
        3 | 4 => {
            let keep = 10u32.pow(u32::from(4 - fsp));
            (micros / 100 / keep * keep, 2)
        }
        _ => {
            let keep = 10u32.pow(u32::from(6 - fsp.min(6)));
            (micros / keep * keep, 3)
        }
    }
}

fn put_fraction(out: &mut Vec<u8>, micros: u32, fsp: u8) {
    let (units, width) = fraction_units(micros, fsp);
    out.extend_from_slice(&units.to_be_bytes()[4 - width..]);
}

fn fraction_scale(width: usize) -> u32 {
    match width {
        1 => 10_000,
        2 => 100,
        _ => 1,
    }
}

fn fraction_width(fsp: u8) -> usize {
    fraction_units(0, fsp).1
}

/// Largest TIME magnitude MySQL accepts: 838:59:59.999999.
const TIME_MAX_MICROS: i64 = ((838 * 3600 + 59 * 60 + 59) * 1_000_000) + 999_999;

fn encode_time(column: &ColumnDef, value: &Value, us: i64, fsp: u8, out: &mut Vec<u8>) -> Result<(), RowImageError> {
    if !(-TIME_MAX_MICROS..=TIME_MAX_MICROS).contains(&us) {
        return Err(out_of_range(column, value));
    }
    let abs = us.unsigned_abs();
    let secs = abs / 1_000_000;
    let (frac_units, width) = fraction_units((abs % 1_000_000) as u32, fsp);
    let frac_us = u64::from(frac_units) * u64::from(fraction_scale(width).max(1));
    let hms = (secs / 3600) << 12 | (secs / 60 % 60) << 6 | (secs % 60);
    // MySQL's packed TIME: (hms << 24) + micros, negated for negative times.
    let mut packed = ((hms << 24) + if width == 0 { 0 } else { frac_us }) as i64;
    if us < 0 {
        packed = -packed;
    }
    match width {
        0 => {
            let int_part = (packed >> 24) + 0x80_0000;
            out.extend_from_slice(&(int_part as u32).to_be_bytes()[1..]);
        }
        1 | 2 => {
            let int_part = (packed >> 24) + 0x80_0000;
            out.extend_from_slice(&(int_part as u32).to_be_bytes()[1..]);
            // C's `%` keeps the dividend's sign; the stored unit is then
            // truncated to the field width, which the decoder undoes by
            // borrowing one from the integer part.
            let frac = (packed % (1 << 24)) / i64::from(fraction_scale(width));
            out.extend_from_slice(&(frac as i32).to_be_bytes()[4 - width..]);
        }
        _ => {
            let stored = packed + 0x8000_0000_0000;
            out.extend_from_slice(&stored.to_be_bytes()[2..]);
        }
    }
    Ok(())
}

/// Seconds since the epoch of a UTC wall time, `Some(0)` for the zero
/// timestamp, `None` outside TIMESTAMP's range.
fn timestamp_seconds(t: &Temporal) -> Option<u32> {
    if t.year == 0 && t.month == 0 && t.day == 0 && t.hour == 0 && t.minute == 0 && t.second == 0 {
        return Some(0);
    }
    if !(1..=12).contains(&t.month) || !(1..=31).contains(&t.day) || t.hour > 23 || t.minute > 59 {
        return None;
    }
    if t.second > 59 || t.micros > 999_999 {
        return None;
    }
    let days = crate::value::days_from_civil(i64::from(t.year), t.month, t.day);
    let secs = days * 86_400 + i64::from(t.hour) * 3600 + i64::from(t.minute) * 60 + i64::from(t.second);
    // 0 is the zero timestamp; MySQL's range starts one second later.
    if secs < 1 {
        return None;
    }
    // MariaDB 10.11's TIMESTAMP ends at 2038-01-19 03:14:07 UTC (i32::MAX).
    i32::try_from(secs).ok().map(|s| s as u32)
}

fn temporal_from_seconds(secs: u32, micros: u32) -> Temporal {
    if secs == 0 {
        return Temporal { micros, ..Temporal::default() };
    }
    let secs = i64::from(secs);
    let (year, month, day) = crate::value::civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    Temporal {
        year: year as u16,
        month,
        day,
        hour: (sod / 3600) as u8,
        minute: (sod / 60 % 60) as u8,
        second: (sod % 60) as u8,
        micros,
    }
}

// ---------------------------------------------------------------- decimals

/// Bytes used by a group of 0..=9 leftover decimal digits.
const DIG2BYTES: [usize; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
const DIGITS_PER_GROUP: usize = 9;

/// Size in bytes of a DECIMAL(precision, scale) binary image.
pub fn decimal_bin_size(precision: u8, scale: u8) -> usize {
    let intg = usize::from(precision.saturating_sub(scale));
    let frac = usize::from(scale);
    intg / DIGITS_PER_GROUP * 4
        + DIG2BYTES[intg % DIGITS_PER_GROUP]
        + frac / DIGITS_PER_GROUP * 4
        + DIG2BYTES[frac % DIGITS_PER_GROUP]
}

/// Splits a digit string into the groups decimal2bin writes: for the integer
/// part the leftover group comes first, for the fraction it comes last.
fn digit_groups(digits: &[u8], leftover_first: bool) -> Vec<&[u8]> {
    let rem = digits.len() % DIGITS_PER_GROUP;
    let mut groups = Vec::new();
    let (head, tail) = if leftover_first { digits.split_at(rem) } else { digits.split_at(digits.len() - rem) };
    if leftover_first && !head.is_empty() {
        groups.push(head);
    }
    let full = if leftover_first { tail } else { head };
    groups.extend(full.chunks(DIGITS_PER_GROUP));
    if !leftover_first && !tail.is_empty() {
        groups.push(tail);
    }
    groups
}

fn encode_decimal(
    column: &ColumnDef,
    d: &Decimal,
    precision: u8,
    scale: u8,
    out: &mut Vec<u8>,
) -> Result<(), RowImageError> {
    let refuse = || out_of_range(column, &Value::Decimal(d.clone()));
    if scale > precision || precision > 65 {
        return Err(refuse());
    }
    let negative = d.is_sign_negative() && !d.is_zero();
    let d_scale = d.scale();
    // Digits of |d| as integer part and fraction part.
    let all = d.coefficient_digits();
    let all = if all.len() <= d_scale as usize {
        format!("{}{}", "0".repeat(d_scale as usize + 1 - all.len()), all)
    } else {
        all
    };
    let (int_str, frac_str) = all.split_at(all.len() - d_scale as usize);
    let int_str = int_str.trim_start_matches('0');
    let frac_str = frac_str.trim_end_matches('0');
    let intg = usize::from(precision - scale);
    if int_str.len() > intg || frac_str.len() > usize::from(scale) {
        return Err(refuse());
    }
    let mut int_digits = vec![b'0'; intg - int_str.len()];
    int_digits.extend_from_slice(int_str.as_bytes());
    let mut frac_digits = frac_str.as_bytes().to_vec();
    frac_digits.resize(usize::from(scale), b'0');

    let start = out.len();
    for (group, _) in digit_groups(&int_digits, true)
        .into_iter()
        .map(|g| (g, ()))
        .chain(digit_groups(&frac_digits, false).into_iter().map(|g| (g, ())))
    {
        let n = group.iter().fold(0u32, |acc, c| acc * 10 + u32::from(c - b'0'));
        let width = if group.len() == DIGITS_PER_GROUP { 4 } else { DIG2BYTES[group.len()] };
        out.extend_from_slice(&n.to_be_bytes()[4 - width..]);
    }
    if negative {
        for b in &mut out[start..] {
            *b = !*b;
        }
    }
    if let Some(first) = out.get_mut(start) {
        *first ^= 0x80;
    }
    Ok(())
}

fn decode_decimal(column: &ColumnDef, precision: u8, scale: u8, r: &mut Reader) -> Result<Value, RowImageError> {
    let ty = "decimal";
    if scale > precision {
        return Err(r.corrupt(ty, "scale above precision"));
    }
    let size = decimal_bin_size(precision, scale);
    let raw = r.take(size)?;
    let mut bytes = raw.to_vec();
    let Some(first) = bytes.first_mut() else {
        return Ok(Value::Decimal(Decimal::ZERO));
    };
    let negative = *first & 0x80 == 0;
    *first ^= 0x80;
    if negative {
        for b in &mut bytes {
            *b = !*b;
        }
    }
    let intg = usize::from(precision - scale);
    let frac = usize::from(scale);
    // The groups' digits, most significant first, as ASCII.
    let mut digits = Vec::with_capacity(intg + frac);
    let mut pos = 0usize;
    let mut read_group = |count: usize, digits: &mut Vec<u8>| -> Result<(), RowImageError> {
        if count == 0 {
            return Ok(());
        }
        let width = if count == DIGITS_PER_GROUP { 4 } else { DIG2BYTES[count] };
        let mut n: u32 = 0;
        for b in &bytes[pos..pos + width] {
            n = n << 8 | u32::from(*b);
        }
        pos += width;
        if u64::from(n) >= 10u64.pow(count as u32) {
            return Err(RowImageError::Corrupt {
                column: column.name.clone(),
                ty: ty.into(),
                reason: format!("group value {n} has more than {count} digits"),
            });
        }
        digits.extend((0..count as u32).rev().map(|place| b'0' + (n / 10u32.pow(place) % 10) as u8));
        Ok(())
    };
    read_group(intg % DIGITS_PER_GROUP, &mut digits)?;
    for _ in 0..intg / DIGITS_PER_GROUP {
        read_group(DIGITS_PER_GROUP, &mut digits)?;
    }
    for _ in 0..frac / DIGITS_PER_GROUP {
        read_group(DIGITS_PER_GROUP, &mut digits)?;
    }
    read_group(frac % DIGITS_PER_GROUP, &mut digits)?;
    if digits.is_empty() {
        digits.push(b'0');
    }
    let too_wide = |_| RowImageError::DecimalTooWide { column: column.name.clone(), precision, scale };
    let d = Decimal::from_digits(negative, &digits, u32::from(scale)).map_err(too_wide)?;
    Ok(Value::Decimal(d))
}

// ---------------------------------------------------------------- decoding

/// A bounds-checked cursor over a row image.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    column: &'a ColumnDef,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RowImageError> {
        let available = self.buf.len().saturating_sub(self.pos);
        if n > available {
            return Err(RowImageError::Truncated { column: self.column.name.clone(), needed: n, available });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Unsigned little-endian integer of `n` (≤ 8) bytes.
    fn le(&mut self, n: usize) -> Result<u64, RowImageError> {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(self.take(n)?);
        Ok(u64::from_le_bytes(b))
    }

    /// Unsigned big-endian integer of `n` (≤ 8) bytes.
    fn be(&mut self, n: usize) -> Result<u64, RowImageError> {
        let mut b = [0u8; 8];
        b[8 - n..].copy_from_slice(self.take(n)?);
        Ok(u64::from_be_bytes(b))
    }

    fn corrupt(&self, ty: &str, reason: &str) -> RowImageError {
        RowImageError::Corrupt { column: self.column.name.clone(), ty: ty.to_string(), reason: reason.to_string() }
    }
}

/// Steps over one value; strings are not copied, fixed-width values are
/// decoded and dropped (no allocation) so that corruption is still caught.
fn skip_value(column: &ColumnDef, r: &mut Reader) -> Result<(), RowImageError> {
    let len = match &column.ty {
        ColumnType::Char(_)
        | ColumnType::VarChar(_)
        | ColumnType::VarBinary(_)
        | ColumnType::Binary(_)
        | ColumnType::Uuid => string_len(column, r)? as u64,
        ColumnType::Text(size) | ColumnType::Blob(size) => r.le(size.pack_length())?,
        ColumnType::Enum(labels) => return r.le(enum_pack_length(labels.len())).map(drop),
        ColumnType::Set(members) => return r.le(set_pack_length(members.len())).map(drop),
        _ => return decode_value(column, r).map(drop),
    };
    let len = usize::try_from(len).map_err(|_| r.corrupt("string", "length overflow"))?;
    r.take(len).map(drop)
}

fn decode_value(column: &ColumnDef, r: &mut Reader) -> Result<Value, RowImageError> {
    Ok(match &column.ty {
        ColumnType::TinyInt | ColumnType::SmallInt | ColumnType::MediumInt | ColumnType::Int | ColumnType::BigInt => {
            let width = int_width_bytes(&column.ty);
            let raw = r.le(width)?;
            if column.unsigned {
                Value::UInt(raw)
            } else {
                // Sign-extend from the field width.
                let shift = 64 - 8 * width as u32;
                Value::Int(((raw << shift) as i64) >> shift)
            }
        }
        ColumnType::Bit(bits) => Value::UInt(r.be(bit_width_bytes(*bits))?),
        ColumnType::Year => {
            let b = r.le(1)?;
            let year = if b == 0 { 0 } else { b + 1900 };
            if column.unsigned {
                Value::UInt(year)
            } else {
                Value::Int(year as i64)
            }
        }
        ColumnType::Float => {
            let raw = r.le(4)? as u32;
            Value::Double(f64::from(f32::from_bits(raw)))
        }
        ColumnType::Double => Value::Double(f64::from_bits(r.le(8)?)),
        ColumnType::Decimal { precision, scale } => decode_decimal(column, *precision, *scale, r)?,
        ColumnType::Char(_) | ColumnType::VarChar(_) | ColumnType::VarBinary(_) => {
            let len = string_len(column, r)?;
            Value::Bytes(column.collation.charset().decode(r.take(len)?).into_owned())
        }
        ColumnType::Binary(n) => {
            let len = string_len(column, r)?;
            let mut bytes = r.take(len)?.to_vec();
            // BINARY values are zero-padded to their full length.
            if bytes.len() < *n as usize {
                bytes.resize(*n as usize, 0);
            }
            Value::Bytes(bytes)
        }
        ColumnType::Uuid => {
            let len = string_len(column, r)?;
            let mut bytes = [0u8; UUID_BYTES];
            let image = r.take(len)?;
            // Trailing zero bytes are not logged, as for BINARY(16).
            bytes.get_mut(..len).ok_or_else(|| r.corrupt("uuid", "longer than 16 bytes"))?.copy_from_slice(image);
            Value::Uuid(Uuid(bytes))
        }
        ColumnType::Text(size) | ColumnType::Blob(size) => {
            let len = r.le(size.pack_length())?;
            let len = usize::try_from(len).map_err(|_| r.corrupt("blob", "length overflow"))?;
            Value::Bytes(column.collation.charset().decode(r.take(len)?).into_owned())
        }
        ColumnType::Enum(labels) => {
            let index = r.le(enum_pack_length(labels.len()))? as usize;
            match index {
                0 => Value::Bytes(Vec::new()),
                i => match labels.get(i - 1) {
                    Some(label) => Value::Bytes(label.as_bytes().to_vec()),
                    None => return Err(r.corrupt("enum", "index beyond the labels")),
                },
            }
        }
        ColumnType::Set(members) => {
            let mask = r.le(set_pack_length(members.len()))?;
            if mask & !crate::set_value::full_mask(members) != 0 {
                return Err(r.corrupt("set", "bits beyond the members"));
            }
            Value::Bytes(set_text(members, mask).into_bytes())
        }
        ColumnType::Date => {
            let packed = r.le(3)? as u32;
            Value::Date(Temporal {
                year: (packed >> 9) as u16,
                month: ((packed >> 5) & 0xf) as u8,
                day: (packed & 0x1f) as u8,
                ..Temporal::default()
            })
        }
        ColumnType::DateTime { fsp } => {
            let raw = r.be(5)?;
            let micros = read_fraction(r, *fsp)?;
            let Some(int_part) = raw.checked_sub(0x80_0000_0000) else {
                return Err(r.corrupt("datetime", "negative datetime"));
            };
            let ymd = int_part >> 17;
            let ym = ymd >> 5;
            let hms = int_part & 0x1_ffff;
            let year = ym / 13;
            if year > 9999 {
                return Err(r.corrupt("datetime", "year out of range"));
            }
            Value::DateTime(Temporal {
                year: year as u16,
                month: (ym % 13) as u8,
                day: (ymd & 0x1f) as u8,
                hour: (hms >> 12) as u8,
                minute: ((hms >> 6) & 0x3f) as u8,
                second: (hms & 0x3f) as u8,
                micros,
            })
        }
        ColumnType::Timestamp { fsp } => {
            let secs = r.be(4)? as u32;
            let micros = read_fraction(r, *fsp)?;
            Value::DateTime(temporal_from_seconds(secs, micros))
        }
        ColumnType::Time { fsp } => Value::Time(decode_time(r, *fsp)?),
    })
}

/// The length prefix of a CHAR/BINARY/VARCHAR/VARBINARY value. A value
/// longer than the column holds is no image the encoder writes (MariaDB's
/// `Field_string::unpack` refuses one too): corrupt, not data to keep.
fn string_len(column: &ColumnDef, r: &mut Reader) -> Result<usize, RowImageError> {
    let len = r.le(string_prefix_len(column))?;
    if len > column.max_bytes() {
        let reason = format!("{len}-byte value in a column of at most {} bytes", column.max_bytes());
        return Err(r.corrupt(&column.ty.sql_name(), &reason));
    }
    Ok(len as usize)
}

/// Reads a DATETIME2/TIMESTAMP2 fraction and returns it in microseconds.
fn read_fraction(r: &mut Reader, fsp: u8) -> Result<u32, RowImageError> {
    let width = fraction_width(fsp);
    if width == 0 {
        return Ok(0);
    }
    let units = r.be(width)? as u32;
    let micros = units.saturating_mul(fraction_scale(width));
    if micros > 999_999 {
        return Err(r.corrupt("fraction", "more than 999999 microseconds"));
    }
    Ok(micros)
}

fn decode_time(r: &mut Reader, fsp: u8) -> Result<i64, RowImageError> {
    let width = fraction_width(fsp);
    // The packed value: (hms << 24) + micros, negative for negative times.
    let packed: i64 = match width {
        0 => (r.be(3)? as i64 - 0x80_0000) << 24,
        1 | 2 => {
            let mut int_part = r.be(3)? as i64 - 0x80_0000;
            let mut frac = r.be(width)? as i64;
            if int_part < 0 && frac != 0 {
                // Undo the encoder's borrow (see encode_time).
                int_part += 1;
                frac -= 1 << (8 * width);
            }
            (int_part << 24) + frac * i64::from(fraction_scale(width))
        }
        _ => r.be(6)? as i64 - 0x8000_0000_0000,
    };
    let abs = packed.unsigned_abs();
    let hms = abs >> 24;
    let frac = abs & 0xff_ffff;
    let (hour, minute, second) = (hms >> 12, (hms >> 6) & 0x3f, hms & 0x3f);
    if minute > 59 || second > 59 || frac > 999_999 {
        return Err(r.corrupt("time", "field out of range"));
    }
    let us = ((hour * 3600 + minute * 60 + second) * 1_000_000 + frac) as i64;
    Ok(if packed < 0 { -us } else { us })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BlobSize;
    use crate::Collation;
    use std::str::FromStr;

    fn col(name: &str, ty: ColumnType) -> ColumnDef {
        ColumnDef::new(name, ty)
    }

    fn unsigned(name: &str, ty: ColumnType) -> ColumnDef {
        ColumnDef { unsigned: true, ..ColumnDef::new(name, ty) }
    }

    fn round_trip(columns: &[ColumnDef], values: Vec<Value>) -> Vec<u8> {
        let mut buf = Vec::new();
        encode_row(columns, &values, &mut buf).expect("encode");
        let (back, used) = decode_row(columns, &buf).expect("decode");
        assert_eq!(used, buf.len());
        assert_eq!(back, values);
        // Decoding one column alone steps over the others to the same end.
        for only in 0..=columns.len() {
            let wanted: Vec<bool> = (0..columns.len()).map(|i| i == only).collect();
            let (part, used) = decode_row_columns(columns, &buf, Some(&wanted)).expect("decode one column");
            assert_eq!(used, buf.len());
            let expected: Vec<Value> =
                values.iter().enumerate().map(|(i, v)| if i == only { v.clone() } else { Value::Null }).collect();
            assert_eq!(part, expected, "only column {only}");
        }
        // Every strict prefix must fail cleanly, never panic, skipped or not.
        let none = vec![false; columns.len()];
        for cut in 0..buf.len() {
            assert!(decode_row(columns, &buf[..cut]).is_err(), "prefix {cut} decoded");
            assert!(decode_row_columns(columns, &buf[..cut], Some(&none)).is_err(), "prefix {cut} skipped");
        }
        buf
    }

    fn one(column: ColumnDef, value: Value) -> Vec<u8> {
        let buf = round_trip(std::slice::from_ref(&column), vec![value]);
        buf[1..].to_vec()
    }

    fn dt(year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8, micros: u32) -> Temporal {
        Temporal { year, month, day, hour, minute, second, micros }
    }

    fn dec(s: &str) -> Value {
        Value::Decimal(Decimal::from_str(s).expect("decimal literal"))
    }

    #[test]
    fn integers() {
        assert_eq!(one(col("a", ColumnType::TinyInt), Value::Int(-1)), [0xff]);
        assert_eq!(one(col("a", ColumnType::TinyInt), Value::Int(-128)), [0x80]);
        assert_eq!(one(unsigned("a", ColumnType::TinyInt), Value::UInt(255)), [0xff]);
        assert_eq!(one(col("a", ColumnType::SmallInt), Value::Int(-2)), [0xfe, 0xff]);
        assert_eq!(one(col("a", ColumnType::MediumInt), Value::Int(-8_388_608)), [0, 0, 0x80]);
        assert_eq!(one(unsigned("a", ColumnType::MediumInt), Value::UInt(16_777_215)), [0xff; 3]);
        assert_eq!(one(col("a", ColumnType::Int), Value::Int(0x0102_0304)), [4, 3, 2, 1]);
        one(col("a", ColumnType::BigInt), Value::Int(i64::MIN));
        one(unsigned("a", ColumnType::BigInt), Value::UInt(u64::MAX));
        one(unsigned("a", ColumnType::Int), Value::UInt(4_294_967_295));
        let mut out = Vec::new();
        for (c, v) in [
            (col("a", ColumnType::TinyInt), Value::Int(128)),
            (unsigned("a", ColumnType::TinyInt), Value::Int(-1)),
            (col("a", ColumnType::MediumInt), Value::Int(8_388_608)),
            (col("a", ColumnType::BigInt), Value::UInt(u64::MAX)),
            (col("a", ColumnType::Int), Value::from_str("1")),
        ] {
            assert!(encode_row(&[c], &[v], &mut out).is_err());
        }
        // A signed column accepts an in-range UInt and decodes it as Int.
        let c = [col("a", ColumnType::Int)];
        let mut out = Vec::new();
        encode_row(&c, &[Value::UInt(7)], &mut out).unwrap();
        assert_eq!(decode_row(&c, &out).unwrap().0, vec![Value::Int(7)]);
    }

    #[test]
    fn set_is_its_little_endian_bitmask() {
        let members = |n: usize| (0..n).map(|i| format!("m{i}")).collect::<Vec<_>>();
        assert_eq!(one(col("s", ColumnType::Set(members(3))), Value::from_str("m0,m2")), [5]);
        assert_eq!(one(col("s", ColumnType::Set(members(3))), Value::from_str("")), [0]);
        assert_eq!(one(col("s", ColumnType::Set(members(9))), Value::from_str("m8")), [0, 1]);
        assert_eq!(one(col("s", ColumnType::Set(members(24))), Value::from_str("m23")), [0, 0, 0x80]);
        assert_eq!(one(col("s", ColumnType::Set(members(64))), Value::from_str("m63")), [0, 0, 0, 0, 0, 0, 0, 0x80]);
        assert_eq!(binlog_type(&col("s", ColumnType::Set(members(33)))), (mysql_type::STRING, vec![248, 8]));
        let mut out = Vec::new();
        assert!(encode_row(&[col("s", ColumnType::Set(members(3)))], &[Value::from_str("m9")], &mut out).is_err());
        // Bits past the members are corrupt, not members.
        let image = [0u8, 0b1000];
        assert!(decode_row(&[col("s", ColumnType::Set(members(3)))], &image).is_err());
    }

    #[test]
    fn bit_is_big_endian_in_its_bytes() {
        assert_eq!(one(col("b", ColumnType::Bit(3)), Value::UInt(5)), [5]);
        assert_eq!(one(col("b", ColumnType::Bit(9)), Value::UInt(300)), [1, 44]);
        assert_eq!(one(col("b", ColumnType::Bit(64)), Value::UInt(u64::MAX)), [0xff; 8]);
        assert_eq!(binlog_type(&col("b", ColumnType::Bit(9))), (mysql_type::BIT, vec![1, 1]));
        let mut out = Vec::new();
        assert!(encode_row(&[col("b", ColumnType::Bit(3))], &[Value::UInt(8)], &mut out).is_err());
    }

    #[test]
    fn year_float_double() {
        for bad in [f64::NAN, f64::INFINITY, 1e300] {
            let mut out = vec![7];
            let float = [col("f", ColumnType::Float)];
            assert!(encode_row(&float, &[Value::Double(bad)], &mut out).is_err());
            assert_eq!(out, [7], "a failed encode leaves the buffer as it was");
        }
        let double = [col("d", ColumnType::Double)];
        assert!(encode_row(&double, &[Value::Double(f64::NAN)], &mut Vec::new()).is_err());
        assert_eq!(one(col("y", ColumnType::Year), Value::Int(2024)), [124]);
        assert_eq!(one(col("y", ColumnType::Year), Value::Int(0)), [0]);
        assert!(encode_row(&[col("y", ColumnType::Year)], &[Value::Int(1800)], &mut Vec::new()).is_err());
        assert_eq!(one(col("f", ColumnType::Float), Value::Double(1.5)), 1.5f32.to_le_bytes());
        assert_eq!(one(col("d", ColumnType::Double), Value::Double(-2.25)), (-2.25f64).to_le_bytes());
    }

    #[test]
    fn decimals() {
        let c = |p, s| col("d", ColumnType::Decimal { precision: p, scale: s });
        // Known images from MySQL's decimal2bin documentation: 1234567890.1234
        // in DECIMAL(14,4) is 81 0D FB 38 D2 04 D2.
        assert_eq!(one(c(14, 4), dec("1234567890.1234")), [0x81, 0x0d, 0xfb, 0x38, 0xd2, 0x04, 0xd2]);
        assert_eq!(one(c(14, 4), dec("-1234567890.1234")), [0x7e, 0xf2, 0x04, 0xc7, 0x2d, 0xfb, 0x2d]);
        assert_eq!(one(c(10, 2), dec("0.00")), [0x80, 0, 0, 0, 0]);
        one(c(10, 2), dec("-0.01"));
        one(c(10, 0), dec("9999999999"));
        one(c(5, 5), dec("0.12345"));
        one(c(18, 9), dec("-123456789.123456789"));
        one(c(28, 10), dec("-999999999999999999.9999999999"));
        one(c(20, 0), dec("18446744073709551615"));
        one(c(1, 0), dec("7"));
        // Fewer fraction digits than the scale round trip with the scale.
        let cols = [c(10, 3)];
        let mut buf = Vec::new();
        encode_row(&cols, &[dec("1.5")], &mut buf).unwrap();
        assert_eq!(decode_row(&cols, &buf).unwrap().0, vec![dec("1.500")]);
        // Too many digits for the column.
        assert!(encode_row(&cols, &[dec("1.2345")], &mut Vec::new()).is_err());
        assert!(encode_row(&cols, &[dec("12345678")], &mut Vec::new()).is_err());
        // 65 digits round trip, narrow and wide values alike, both signs.
        let wide = [c(65, 30)];
        for text in [
            "1.5",
            "-0.000000000000000000000000000001",
            "12345678901234567890123456789012345.123456789012345678901234567890",
            "-99999999999999999999999999999999999.999999999999999999999999999999",
        ] {
            let mut buf = Vec::new();
            encode_row(&wide, &[dec(text)], &mut buf).unwrap();
            let Value::Decimal(back) = &decode_row(&wide, &buf).unwrap().0[0] else { panic!("not a decimal") };
            let expected = Decimal::from_str(text).expect("decimal literal");
            assert_eq!((back, back.scale()), (&expected, 30), "{text}");
        }
        let max = "9".repeat(65);
        let mut buf = Vec::new();
        encode_row(&[c(65, 0)], &[dec(&max)], &mut buf).unwrap();
        assert_eq!(decode_row(&[c(65, 0)], &buf).unwrap().0, vec![dec(&max)]);
        assert!(encode_row(&[c(65, 0)], &[dec(&format!("1{max}"))], &mut Vec::new()).is_err());
        // Garbage groups are reported, not decoded.
        assert!(decode_row(&[c(9, 0)], &[0, 0xff, 0xff, 0xff, 0xff]).is_err());
    }

    #[test]
    fn strings() {
        let c = |ty| col("s", ty);
        assert_eq!(one(c(ColumnType::VarChar(10)), Value::from_str("abc")), b"\x03abc");
        let long = ColumnDef::new("s", ColumnType::VarChar(64)); // 256 bytes max
        assert_eq!(one(long, Value::from_str("ab")), b"\x02\x00ab");
        one(c(ColumnType::VarChar(3)), Value::from_str("héé"));
        assert!(encode_row(&[c(ColumnType::VarChar(3))], &[Value::from_str("abcd")], &mut Vec::new()).is_err());
        one(c(ColumnType::VarBinary(300)), Value::Bytes(vec![0, 1, 2, 255]));
        assert_eq!(one(c(ColumnType::Char(5)), Value::from_str("ab")), b"\x02ab");
        // CHAR strips trailing spaces as MySQL does.
        let cols = [c(ColumnType::Char(5))];
        let mut buf = Vec::new();
        encode_row(&cols, &[Value::from_str("ab  ")], &mut buf).unwrap();
        assert_eq!(decode_row(&cols, &buf).unwrap().0, vec![Value::from_str("ab")]);
        one(c(ColumnType::Char(255)), Value::from_str(&"x".repeat(255)));
        assert_eq!(one(c(ColumnType::Binary(4)), Value::Bytes(b"ab\0\0".to_vec())), b"\x02ab");
        one(c(ColumnType::Text(BlobSize::Tiny)), Value::from_str("t"));
        assert_eq!(one(c(ColumnType::Blob(BlobSize::Normal)), Value::Bytes(vec![9; 3])), [3, 0, 9, 9, 9]);
        one(c(ColumnType::Text(BlobSize::Medium)), Value::from_str(&"m".repeat(70_000)));
        one(c(ColumnType::Blob(BlobSize::Long)), Value::Bytes(vec![]));
        assert!(
            encode_row(&[c(ColumnType::Blob(BlobSize::Tiny))], &[Value::Bytes(vec![0; 256])], &mut Vec::new()).is_err()
        );
    }

    #[test]
    fn enums() {
        let labels: Vec<String> = ["small", "Medium", "large"].iter().map(|s| s.to_string()).collect();
        let c = col("e", ColumnType::Enum(labels));
        assert_eq!(one(c.clone(), Value::from_str("Medium")), [2]);
        assert_eq!(one(c.clone(), Value::from_str("")), [0]);
        let mut buf = Vec::new();
        encode_row(std::slice::from_ref(&c), &[Value::from_str("LARGE")], &mut buf).unwrap();
        assert_eq!(decode_row(std::slice::from_ref(&c), &buf).unwrap().0, vec![Value::from_str("large")]);
        assert!(encode_row(std::slice::from_ref(&c), &[Value::from_str("huge")], &mut Vec::new()).is_err());
        assert!(decode_row(std::slice::from_ref(&c), &[0, 4]).is_err());
        let many: Vec<String> = (0..300).map(|i| format!("v{i}")).collect();
        assert_eq!(one(col("e", ColumnType::Enum(many)), Value::from_str("v299")), [44, 1]);
    }

    #[test]
    fn temporals() {
        assert_eq!(
            one(col("d", ColumnType::Date), Value::Date(dt(2024, 2, 29, 0, 0, 0, 0))),
            (29u32 | 2 << 5 | 2024 << 9).to_le_bytes()[..3]
        );
        one(col("d", ColumnType::Date), Value::Date(Temporal::default()));
        // DATETIME 2012-06-21 15:55:44 is 99 8C AA FD EC (MySQL docs).
        assert_eq!(
            one(col("t", ColumnType::DateTime { fsp: 0 }), Value::DateTime(dt(2012, 6, 21, 15, 55, 44, 0))),
            [0x99, 0x8c, 0xaa, 0xfd, 0xec]
        );
        for fsp in 0..=6u8 {
            let micros = [0, 100_000, 120_000, 123_000, 123_400, 123_450, 123_456][usize::from(fsp)];
            one(col("t", ColumnType::DateTime { fsp }), Value::DateTime(dt(9999, 12, 31, 23, 59, 59, micros)));
            one(col("t", ColumnType::Timestamp { fsp }), Value::DateTime(dt(2038, 1, 19, 3, 14, 7, micros)));
            let us = 838 * 3_600_000_000 + 59 * 60_000_000 + 59_000_000 + i64::from(micros);
            one(col("t", ColumnType::Time { fsp }), Value::Time(us));
            one(col("t", ColumnType::Time { fsp }), Value::Time(-us));
            one(col("t", ColumnType::Time { fsp }), Value::Time(-1_000_000 - i64::from(micros)));
            one(col("t", ColumnType::Time { fsp }), Value::Time(-i64::from(micros)));
            one(col("t", ColumnType::Time { fsp }), Value::Time(0));
        }
        assert_eq!(
            one(col("ts", ColumnType::Timestamp { fsp: 0 }), Value::DateTime(dt(1970, 1, 1, 0, 0, 1, 0))),
            [0, 0, 0, 1]
        );
        assert_eq!(
            one(col("ts", ColumnType::Timestamp { fsp: 3 }), Value::DateTime(dt(2001, 9, 9, 1, 46, 40, 500_000))),
            [0x3b, 0x9a, 0xca, 0x00, 0x13, 0x88]
        );
        one(col("ts", ColumnType::Timestamp { fsp: 0 }), Value::DateTime(Temporal::default()));
        // TIME -00:00:01.5 at fsp 1 borrows one from the integer part.
        assert_eq!(one(col("t", ColumnType::Time { fsp: 1 }), Value::Time(-1_500_000)), [0x7f, 0xff, 0xfe, 0xce]);
        assert_eq!(one(col("t", ColumnType::Time { fsp: 0 }), Value::Time(0)), [0x80, 0, 0]);
        let t = [col("t", ColumnType::Time { fsp: 0 })];
        assert!(encode_row(&t, &[Value::Time(839 * 3_600_000_000)], &mut Vec::new()).is_err());
        let ts = [col("t", ColumnType::Timestamp { fsp: 0 })];
        assert!(encode_row(&ts, &[Value::DateTime(dt(2040, 1, 1, 0, 0, 0, 0))], &mut Vec::new()).is_err());
        assert!(encode_row(&ts, &[Value::DateTime(dt(1969, 12, 31, 0, 0, 0, 0))], &mut Vec::new()).is_err());
    }

    #[test]
    fn nulls_and_bitmap() {
        let columns: Vec<ColumnDef> = (0..10).map(|i| col(&format!("c{i}"), ColumnType::Int)).collect();
        let values: Vec<Value> = (0..10).map(|i| if i % 3 == 0 { Value::Null } else { Value::Int(i) }).collect();
        let buf = round_trip(&columns, values);
        assert_eq!(&buf[..2], &[0b0100_1001, 0b10]);
        assert_eq!(buf.len(), 2 + 6 * 4);
        let all_null = vec![Value::Null; 10];
        assert_eq!(round_trip(&columns, all_null), [0xff, 0x03]);
        assert!(encode_row(&columns, &[Value::Int(1)], &mut Vec::new()).is_err());
    }

    #[test]
    fn table_map_types() {
        let utf = |ty| ColumnDef { collation: Collation::Utf8mb4GeneralCi, ..col("s", ty) };
        assert_eq!(binlog_type(&utf(ColumnType::VarChar(100))), (15, vec![0x90, 0x01]));
        assert_eq!(binlog_type(&utf(ColumnType::Char(10))), (254, vec![254, 40]));
        // CHAR(255) utf8mb4 = 1020 bytes: 0x3fc, top bits 0x300 folded into the type.
        assert_eq!(binlog_type(&utf(ColumnType::Char(255))), (254, vec![254 ^ 0x30, 0xfc]));
        assert_eq!(binlog_type(&col("b", ColumnType::Blob(BlobSize::Medium))), (252, vec![3]));
        assert_eq!(binlog_type(&col("d", ColumnType::Decimal { precision: 10, scale: 2 })), (246, vec![10, 2]));
        assert_eq!(binlog_type(&col("d", ColumnType::DateTime { fsp: 3 })), (18, vec![3]));
        assert_eq!(binlog_type(&col("e", ColumnType::Enum(vec!["a".into()]))), (254, vec![247, 1]));
        assert_eq!(binlog_type(&col("i", ColumnType::MediumInt)), (9, vec![]));
    }

    #[test]
    fn string_longer_than_its_column_is_corrupt() {
        // Found by the row_image fuzz target: BINARY(0) holding one zero
        // byte decoded, and re-encoded (trailing zeros trimmed) to ''.
        for (ty, image) in [
            (ColumnType::Binary(0), vec![0, 1, 0]),
            (ColumnType::Binary(2), vec![0, 3, b'a', b'b', b'c']),
            (ColumnType::VarBinary(2), vec![0, 3, b'a', b'b', b'c']),
            (ColumnType::Char(1), vec![0, 5, b'a', b'b', b'c', b'd', b'e']),
        ] {
            let c = col("s", ty);
            match decode_row(std::slice::from_ref(&c), &image) {
                Err(RowImageError::Corrupt { reason, .. }) => assert!(reason.contains("at most"), "{reason}"),
                other => panic!("{:?}: {other:?}", c.ty),
            }
            assert!(
                decode_row_columns(std::slice::from_ref(&c), &image, Some(&[false])).is_err(),
                "{:?} skipped",
                c.ty
            );
        }
        // Up to the column's size, and CHAR's 4 bytes per character, still decode.
        let c = col("s", ColumnType::Char(1));
        assert_eq!(decode_row(&[c], &[0, 4, 0xf0, 0x9f, 0x98, 0x80]).unwrap().0, vec![Value::from_str("😀")]);
    }

    #[test]
    fn garbage_never_panics() {
        let columns = vec![
            col("a", ColumnType::Int),
            col("b", ColumnType::VarChar(300)),
            col("c", ColumnType::Decimal { precision: 20, scale: 5 }),
            col("d", ColumnType::DateTime { fsp: 6 }),
            col("e", ColumnType::Time { fsp: 2 }),
            col("f", ColumnType::Blob(BlobSize::Long)),
            col("g", ColumnType::Enum(vec!["x".into()])),
            col("h", ColumnType::Timestamp { fsp: 4 }),
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..200usize {
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect();
            let _ = decode_row(&columns, &buf);
        }
    }
}
