//! Server responses: OK, ERR and EOF packets, column definitions, text and
//! binary result rows, and a helper that writes a whole result set.
//!
//! Hand-written (mysql_common's packet structs are tuned for parsing on the
//! client side and do not render [`onelog_core::Value`]s): all encoders append
//! one packet payload to a `Vec<u8>`; framing is [`crate::packet`]'s job.

use crate::buf::{put_lenenc_bytes, put_lenenc_int, put_u16, put_u32, put_u64};
use crate::packet::{PacketError, PacketStream};
use mysql_common::constants::{ColumnFlags, ColumnType as MyType, StatusFlags};
use onelog_core::decimal::{Decimal, RoundingStrategy};
use onelog_core::schema::{BlobSize, ColumnDef, ColumnType, KeyMembership};
use onelog_core::value::{format_double, Temporal};
use onelog_core::{Collation, SqlError, Value};
use std::borrow::Cow;
use std::io::{Read, Write};

/// Collation id of the `binary` pseudo-charset (numbers, dates, blobs).
pub const BINARY_COLLATION_ID: u16 = 63;

/// `decimals` value meaning "not fixed" (FLOAT/DOUBLE without a scale,
/// computed expressions).
pub const NOT_FIXED_DEC: u8 = 31;
/// MariaDB's largest DECIMAL scale; a DECIMAL column's values are sent with
/// exactly its scale's digits.
const MAX_DECIMAL_SCALE: u8 = 38;

/// One column of a result set (Protocol::ColumnDefinition41).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnMeta {
    pub schema: String,
    /// The table alias (or name).
    pub table: String,
    pub org_table: String,
    /// The column alias (or name).
    pub name: String,
    pub org_name: String,
    pub collation_id: u16,
    pub column_length: u32,
    pub column_type: MyType,
    pub flags: u16,
    pub decimals: u8,
}

impl ColumnMeta {
    /// A column not taken from a table (an expression such as `SELECT 1`).
    pub fn expr(
        name: &str,
        column_type: MyType,
        collation_id: u16,
        column_length: u32,
        flags: u16,
        decimals: u8,
    ) -> Self {
        ColumnMeta {
            schema: String::new(),
            table: String::new(),
            org_table: String::new(),
            name: name.to_string(),
            org_name: String::new(),
            collation_id,
            column_length,
            column_type,
            flags,
            decimals,
        }
    }

    /// A utf8mb4 VAR_STRING expression column of `chars` characters (what
    /// `SHOW ...` statements and string expressions return).
    pub fn text(name: &str, chars: u32) -> Self {
        ColumnMeta::expr(name, MyType::MYSQL_TYPE_VAR_STRING, 45, chars.saturating_mul(4), 0, 0)
    }

    /// A BIGINT expression column.
    pub fn bigint(name: &str, unsigned: bool, not_null: bool) -> Self {
        let mut flags = ColumnFlags::BINARY_FLAG;
        if unsigned {
            flags |= ColumnFlags::UNSIGNED_FLAG;
        }
        if not_null {
            flags |= ColumnFlags::NOT_NULL_FLAG;
        }
        ColumnMeta::expr(
            name,
            MyType::MYSQL_TYPE_LONGLONG,
            BINARY_COLLATION_ID,
            if unsigned { 20 } else { 21 },
            flags.bits(),
            0,
        )
    }

    /// The placeholder definition sent for each `?` of a prepared statement.
    pub fn param() -> Self {
        ColumnMeta::expr("?", MyType::MYSQL_TYPE_VAR_STRING, BINARY_COLLATION_ID, 0, ColumnFlags::BINARY_FLAG.bits(), 0)
    }

    pub fn has_flag(&self, f: ColumnFlags) -> bool {
        self.flags & f.bits() != 0
    }

    /// Fractional-second digits to render for a temporal value.
    fn fsp(&self, micros: u32) -> u8 {
        if self.decimals <= 6 {
            self.decimals
        } else if micros != 0 {
            6
        } else {
            0
        }
    }
}

/// Column metadata for a table column, as MariaDB 10.11 reports it to a
/// client whose `character_set_results` is utf8mb4 (checked against a real
/// mariadbd with `mariadb --column-type-info`): character columns carry
/// collation 45 whatever their own utf8mb4 collation (a `_bin` one adds
/// BINARY_FLAG) and a length of characters x 4; numbers, dates and binary
/// strings carry collation 63. `alias` is the `AS` name, if any.
/// Key flags are not known from a [`ColumnDef`] alone: OR in [`key_flags`].
pub fn column_meta_for(def: &ColumnDef, schema: &str, table: &str, alias: Option<&str>) -> ColumnMeta {
    use ColumnType as T;
    let mut flags = ColumnFlags::empty();
    if !def.nullable {
        flags |= ColumnFlags::NOT_NULL_FLAG;
        if def.default.is_none() && !def.auto_increment {
            flags |= ColumnFlags::NO_DEFAULT_VALUE_FLAG;
        }
    }
    if def.unsigned {
        flags |= ColumnFlags::UNSIGNED_FLAG;
    }
    if def.auto_increment {
        flags |= ColumnFlags::AUTO_INCREMENT_FLAG;
    }
    if def.on_update_current_timestamp {
        flags |= ColumnFlags::ON_UPDATE_NOW_FLAG | ColumnFlags::TIMESTAMP_FLAG;
    }
    if def.zerofill {
        flags |= ColumnFlags::ZEROFILL_FLAG;
    }
    let u = def.unsigned;
    let width = def.display_width().unwrap_or_default();
    let float_decimals = def.float_digits.map_or(NOT_FIXED_DEC, |d| d.decimals);
    // Results are always sent as utf8mb4.
    let text_coll = Collation::Utf8mb4GeneralCi.id();
    if def.ty.is_text() && def.collation.name().ends_with("_bin") {
        flags |= ColumnFlags::BINARY_FLAG;
    }
    let time_len = |base: u32, fsp: u8| {
        if fsp > 0 {
            base + 1 + u32::from(fsp.min(6))
        } else {
            base
        }
    };
    let (ty, coll, len, decimals) = match &def.ty {
        T::TinyInt => (MyType::MYSQL_TYPE_TINY, BINARY_COLLATION_ID, width, 0),
        T::SmallInt => (MyType::MYSQL_TYPE_SHORT, BINARY_COLLATION_ID, width, 0),
        T::MediumInt => (MyType::MYSQL_TYPE_INT24, BINARY_COLLATION_ID, width, 0),
        T::Int => (MyType::MYSQL_TYPE_LONG, BINARY_COLLATION_ID, width, 0),
        T::BigInt => (MyType::MYSQL_TYPE_LONGLONG, BINARY_COLLATION_ID, width, 0),
        // A display width: a computed DECIMAL MariaDB describes longer than
        // its 65 digits (a sum of two DECIMAL(65,s), a user variable).
        T::Decimal { precision, scale } => {
            let len = def.display_width.unwrap_or(u32::from(*precision) + u32::from(*scale > 0) + u32::from(!u));
            (MyType::MYSQL_TYPE_NEWDECIMAL, BINARY_COLLATION_ID, len, *scale)
        }
        T::Float => (MyType::MYSQL_TYPE_FLOAT, BINARY_COLLATION_ID, width, float_decimals),
        T::Double => (MyType::MYSQL_TYPE_DOUBLE, BINARY_COLLATION_ID, width, float_decimals),
        T::Char(n) => (MyType::MYSQL_TYPE_STRING, text_coll, n.saturating_mul(4), 0),
        T::VarChar(n) => (MyType::MYSQL_TYPE_VAR_STRING, text_coll, n.saturating_mul(4), 0),
        T::Binary(n) => {
            flags |= ColumnFlags::BINARY_FLAG;
            (MyType::MYSQL_TYPE_STRING, BINARY_COLLATION_ID, *n, 0)
        }
        T::VarBinary(n) => {
            flags |= ColumnFlags::BINARY_FLAG;
            (MyType::MYSQL_TYPE_VAR_STRING, BINARY_COLLATION_ID, *n, 0)
        }
        T::Text(size) => {
            flags |= ColumnFlags::BLOB_FLAG;
            // A display width in characters: an information_schema
            // LONGTEXT, which MariaDB describes by its own length.
            let bytes = def.display_width.map_or(size.max_bytes(), u64::from);
            let len = u32::try_from(bytes.saturating_mul(4)).unwrap_or(u32::MAX);
            (MyType::MYSQL_TYPE_BLOB, text_coll, len, 0)
        }
        T::Blob(size) => {
            flags |= ColumnFlags::BLOB_FLAG | ColumnFlags::BINARY_FLAG;
            // A display width: a computed LONGBLOB MariaDB describes by
            // its own length (LOAD_FILE(), a user variable).
            let len = def.display_width.unwrap_or_else(|| blob_len(*size));
            (MyType::MYSQL_TYPE_BLOB, BINARY_COLLATION_ID, len, 0)
        }
        T::Date => {
            flags |= ColumnFlags::BINARY_FLAG;
            (MyType::MYSQL_TYPE_DATE, BINARY_COLLATION_ID, 10, 0)
        }
        T::DateTime { fsp } => {
            flags |= ColumnFlags::BINARY_FLAG;
            (MyType::MYSQL_TYPE_DATETIME, BINARY_COLLATION_ID, time_len(19, *fsp), (*fsp).min(6))
        }
        T::Timestamp { fsp } => {
            flags |= ColumnFlags::BINARY_FLAG | ColumnFlags::UNSIGNED_FLAG;
            (MyType::MYSQL_TYPE_TIMESTAMP, BINARY_COLLATION_ID, time_len(19, *fsp), (*fsp).min(6))
        }
        T::Time { fsp } => {
            flags |= ColumnFlags::BINARY_FLAG;
            (MyType::MYSQL_TYPE_TIME, BINARY_COLLATION_ID, time_len(10, *fsp), (*fsp).min(6))
        }
        T::Year => {
            flags |= ColumnFlags::UNSIGNED_FLAG | ColumnFlags::ZEROFILL_FLAG;
            (MyType::MYSQL_TYPE_YEAR, BINARY_COLLATION_ID, 4, 0)
        }
        // Its length is in bits; binary bytes, but without BINARY_FLAG.
        T::Bit(bits) => {
            flags |= ColumnFlags::UNSIGNED_FLAG;
            (MyType::MYSQL_TYPE_BIT, BINARY_COLLATION_ID, u32::from(*bits), 0)
        }
        T::Enum(labels) => {
            flags |= ColumnFlags::ENUM_FLAG;
            let longest = labels.iter().map(|l| l.chars().count() as u32).max().unwrap_or(0);
            (MyType::MYSQL_TYPE_STRING, text_coll, longest.saturating_mul(4), 0)
        }
        // As long as all members joined by ','.
        T::Set(members) => {
            flags |= ColumnFlags::SET_FLAG;
            let chars = u32::try_from(onelog_core::set_value::set_max_chars(members)).unwrap_or(u32::MAX);
            (MyType::MYSQL_TYPE_STRING, text_coll, chars.saturating_mul(4), 0)
        }
        // MariaDB's Field_fbt: a CHAR(36) of the connection charset,
        // flagged BINARY and UNSIGNED.
        T::Uuid => {
            flags |= ColumnFlags::BINARY_FLAG | ColumnFlags::UNSIGNED_FLAG;
            (MyType::MYSQL_TYPE_STRING, text_coll, onelog_core::uuid::UUID_TEXT_CHARS * 4, 0)
        }
    };
    ColumnMeta {
        schema: schema.to_string(),
        table: table.to_string(),
        org_table: table.to_string(),
        name: alias.unwrap_or(&def.name).to_string(),
        org_name: def.name.clone(),
        collation_id: coll,
        column_length: len,
        column_type: ty,
        flags: flags.bits(),
        decimals,
    }
}

/// The decimals MariaDB sends for a computed string: "not fixed" as for
/// any item that is not a table's field.
const STRING_ITEM_DECIMALS: u8 = 39;

/// Column metadata for a computed result column (an expression, or a SHOW
/// column: anything but a base table's field). MariaDB describes these as
/// items, not fields: numbers and temporals carry BINARY_FLAG (their
/// collation is `binary`), strings (binary ones too) carry decimals 39, and there is no
/// NO_DEFAULT_VALUE_FLAG, which only a table's field can have.
pub fn computed_column_meta(def: &ColumnDef, alias: &str) -> ColumnMeta {
    let mut meta = column_meta_for(def, "", "", Some(alias));
    meta.org_name.clear();
    meta.flags &= !ColumnFlags::NO_DEFAULT_VALUE_FLAG.bits();
    use onelog_core::ColumnType as T;
    let binary = meta.collation_id == BINARY_COLLATION_ID;
    if binary {
        meta.flags |= ColumnFlags::BINARY_FLAG.bits();
    }
    // An item's BLOB type names its size (MariaDB's type handlers for
    // results), without BLOB_FLAG; only a table's field says BLOB whatever
    // its size.
    if let T::Text(size) | T::Blob(size) = def.ty {
        meta.flags &= !ColumnFlags::BLOB_FLAG.bits();
        meta.column_type = match size {
            BlobSize::Tiny => MyType::MYSQL_TYPE_TINY_BLOB,
            BlobSize::Normal => MyType::MYSQL_TYPE_BLOB,
            BlobSize::Medium => MyType::MYSQL_TYPE_MEDIUM_BLOB,
            BlobSize::Long => MyType::MYSQL_TYPE_LONG_BLOB,
        };
    }
    let is_string = !binary || matches!(def.ty, T::Binary(_) | T::VarBinary(_) | T::Blob(_));
    // (A UUID item keeps decimals 0, as its field has.)
    if is_string && def.ty != T::Uuid {
        meta.decimals = STRING_ITEM_DECIMALS;
    }
    meta
}

fn blob_len(size: BlobSize) -> u32 {
    u32::try_from(size.max_bytes()).unwrap_or(u32::MAX)
}

/// PRI_KEY / UNIQUE_KEY / MULTIPLE_KEY / PART_KEY flags for a column's
/// part in its table's keys.
pub fn key_flags(key: KeyMembership) -> u16 {
    let mut f = ColumnFlags::empty();
    f.set(ColumnFlags::PART_KEY_FLAG, key.part);
    f.set(ColumnFlags::PRI_KEY_FLAG, key.primary);
    f.set(ColumnFlags::UNIQUE_KEY_FLAG, key.unique);
    f.set(ColumnFlags::MULTIPLE_KEY_FLAG, key.leads_multiple);
    f.bits()
}

/// Appends Protocol::ColumnDefinition41.
pub fn encode_column_definition(col: &ColumnMeta, out: &mut Vec<u8>) {
    put_lenenc_bytes(out, b"def");
    put_lenenc_bytes(out, col.schema.as_bytes());
    put_lenenc_bytes(out, col.table.as_bytes());
    put_lenenc_bytes(out, col.org_table.as_bytes());
    put_lenenc_bytes(out, col.name.as_bytes());
    put_lenenc_bytes(out, col.org_name.as_bytes());
    out.push(0x0C);
    put_u16(out, col.collation_id);
    put_u32(out, col.column_length);
    out.push(col.column_type as u8);
    put_u16(out, col.flags);
    out.push(col.decimals);
    put_u16(out, 0);
}

/// An OK packet's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OkPacket {
    pub affected_rows: u64,
    pub last_insert_id: u64,
    pub status: StatusFlags,
    pub warnings: u16,
    /// Human-readable info ("Rows matched: 1  Changed: 1  Warnings: 0").
    pub info: String,
}

impl Default for OkPacket {
    fn default() -> Self {
        OkPacket {
            affected_rows: 0,
            last_insert_id: 0,
            status: StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            warnings: 0,
            info: String::new(),
        }
    }
}

impl OkPacket {
    pub fn with_status(status: StatusFlags) -> Self {
        OkPacket { status, ..OkPacket::default() }
    }
}

fn encode_ok_with_header(header: u8, ok: &OkPacket, out: &mut Vec<u8>) {
    out.push(header);
    put_lenenc_int(out, ok.affected_rows);
    put_lenenc_int(out, ok.last_insert_id);
    put_u16(out, ok.status.bits());
    put_u16(out, ok.warnings);
    // Length-encoded, as MariaDB's net_send_ok writes it and both libmariadb
    // and libmysqlclient read it (we never offer CLIENT_SESSION_TRACK).
    if !ok.info.is_empty() {
        put_lenenc_bytes(out, ok.info.as_bytes());
    }
}

/// Appends an OK packet (header 0x00).
pub fn encode_ok(ok: &OkPacket, out: &mut Vec<u8>) {
    encode_ok_with_header(0x00, ok, out);
}

/// Appends the 0xFE-headed OK packet that ends a result set instead of EOF
/// when CLIENT_DEPRECATE_EOF was agreed.
pub fn encode_eof_ok(ok: &OkPacket, out: &mut Vec<u8>) {
    encode_ok_with_header(0xFE, ok, out);
}

/// Appends an EOF packet.
pub fn encode_eof(warnings: u16, status: StatusFlags, out: &mut Vec<u8>) {
    out.push(0xFE);
    put_u16(out, warnings);
    put_u16(out, status.bits());
}

/// Appends an ERR packet: 0xFF, code, `#`, SQLSTATE, message.
pub fn encode_err_raw(code: u16, sqlstate: &str, message: &str, out: &mut Vec<u8>) {
    out.push(0xFF);
    put_u16(out, code);
    out.push(b'#');
    let mut state = [b'H', b'Y', b'0', b'0', b'0'];
    for (d, s) in state.iter_mut().zip(sqlstate.bytes()) {
        *d = s;
    }
    out.extend_from_slice(&state);
    // MySQL caps error messages at 512 bytes (MYSQL_ERRMSG_SIZE).
    let mut end = message.len().min(512);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    out.extend_from_slice(&message.as_bytes()[..end]);
}

/// Appends an ERR packet for an [`SqlError`].
pub fn encode_err(err: &SqlError, out: &mut Vec<u8>) {
    encode_err_raw(err.code.number, err.code.sqlstate, &err.message, out);
}

// ---------------------------------------------------------------- values

/// Formats TIME microseconds as `[-]hh:mm:ss[.f...]` with `fsp` digits.
pub fn format_time(us: i64, fsp: u8) -> String {
    let sign = if us < 0 { "-" } else { "" };
    let us = us.unsigned_abs();
    let secs = us / 1_000_000;
    let mut s = format!("{sign}{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if fsp > 0 {
        let frac = format!("{:06}", us % 1_000_000);
        s.push('.');
        s.push_str(&frac[..usize::from(fsp.min(6))]);
    }
    s
}

/// FLOAT columns print the shortest digits that round-trip through f32.
fn format_float(v: f64) -> String {
    let f = v as f32;
    if !f.is_finite() {
        return format_double(v);
    }
    if f == 0.0 {
        return "0".into();
    }
    let abs = f.abs();
    if (1e-15..1e15).contains(&abs) {
        format!("{f}")
    } else {
        format!("{f:e}")
    }
}

fn is_temporal_datetime(t: MyType) -> bool {
    matches!(
        t,
        MyType::MYSQL_TYPE_DATETIME
            | MyType::MYSQL_TYPE_TIMESTAMP
            | MyType::MYSQL_TYPE_DATETIME2
            | MyType::MYSQL_TYPE_TIMESTAMP2
    )
}

/// The text-protocol bytes of a value in a column (`None` for NULL).
pub fn text_value<'a>(v: &'a Value, col: &ColumnMeta) -> Option<Cow<'a, [u8]>> {
    let s: String = match v {
        Value::Null => return None,
        Value::Bytes(b) => return Some(Cow::Borrowed(b)),
        Value::Int(i) => match col.column_type {
            MyType::MYSQL_TYPE_NEWDECIMAL | MyType::MYSQL_TYPE_DECIMAL
                if (1..=MAX_DECIMAL_SCALE).contains(&col.decimals) =>
            {
                format_decimal(&Decimal::from(*i), col.decimals)
            }
            _ => i.to_string(),
        },
        // A BIT value is sent as its bytes, big-endian, as many as its
        // width in bits needs.
        Value::UInt(u) if col.column_type == MyType::MYSQL_TYPE_BIT => {
            let width_bytes = (col.column_length.clamp(1, 64) as usize).div_ceil(8);
            return Some(Cow::Owned(u.to_be_bytes()[8 - width_bytes..].to_vec()));
        }
        Value::UInt(u) => match col.column_type {
            MyType::MYSQL_TYPE_NEWDECIMAL | MyType::MYSQL_TYPE_DECIMAL
                if (1..=MAX_DECIMAL_SCALE).contains(&col.decimals) =>
            {
                format_decimal(&Decimal::from(*u), col.decimals)
            }
            _ => u.to_string(),
        },
        Value::Double(d) => {
            if !d.is_finite() {
                return None;
            }
            let fixed_type = matches!(
                col.column_type,
                MyType::MYSQL_TYPE_DOUBLE
                    | MyType::MYSQL_TYPE_FLOAT
                    | MyType::MYSQL_TYPE_NEWDECIMAL
                    | MyType::MYSQL_TYPE_DECIMAL
            );
            if fixed_type && col.decimals < NOT_FIXED_DEC {
                format!("{:.*}", usize::from(col.decimals), d)
            } else if col.column_type == MyType::MYSQL_TYPE_FLOAT {
                format_float(*d)
            } else {
                format_double(*d)
            }
        }
        Value::Decimal(d) => {
            // NOT_FIXED_DEC is also a DECIMAL scale: on a DECIMAL column it is one.
            let is_decimal_scale =
                col.column_type == MyType::MYSQL_TYPE_NEWDECIMAL && col.decimals <= MAX_DECIMAL_SCALE;
            if col.decimals < NOT_FIXED_DEC || is_decimal_scale {
                format_decimal(d, col.decimals)
            } else {
                d.to_string()
            }
        }
        Value::Date(t) => {
            if is_temporal_datetime(col.column_type) {
                t.datetime_string(col.fsp(0))
            } else {
                t.date_string()
            }
        }
        Value::DateTime(t) => {
            if matches!(col.column_type, MyType::MYSQL_TYPE_DATE | MyType::MYSQL_TYPE_NEWDATE) {
                t.date_string()
            } else {
                t.datetime_string(col.fsp(t.micros))
            }
        }
        Value::Time(us) => format_time(*us, col.fsp((us.unsigned_abs() % 1_000_000) as u32)),
        Value::Uuid(u) => u.to_string(),
    };
    Some(Cow::Owned(zero_filled(s, col).into_bytes()))
}

/// A ZEROFILL column's number left-padded with zeros to the column's
/// display width, as MariaDB's text protocol sends it. Only a table's
/// field is padded: a stored function's ZEROFILL result (the one computed
/// column that carries the flag) is sent as it is.
fn zero_filled(s: String, col: &ColumnMeta) -> String {
    let width = col.column_length as usize;
    if !col.has_flag(ColumnFlags::ZEROFILL_FLAG) || col.org_table.is_empty() || s.len() >= width {
        return s;
    }
    format!("{}{s}", "0".repeat(width - s.len()))
}

fn format_decimal(d: &Decimal, scale: u8) -> String {
    let mut d = d.clone();
    d.rescale(u32::from(scale));
    d.to_string()
}

/// Appends a text-protocol row (one length-encoded string per column, 0xFB
/// for NULL). Missing values are sent as NULL; extra values are ignored.
pub fn encode_text_row(row: &[Value], columns: &[ColumnMeta], out: &mut Vec<u8>) {
    for (i, col) in columns.iter().enumerate() {
        match row.get(i).and_then(|v| text_value(v, col)) {
            Some(b) => put_lenenc_bytes(out, &b),
            None => out.push(0xFB),
        }
    }
}

fn value_i64(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::UInt(u) => *u as i64,
        Value::Double(d) => d.round() as i64,
        Value::Decimal(d) => {
            // MariaDB's decimal-to-integer conversion rounds half away from zero.
            let whole = d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
            whole.to_i64().or_else(|| whole.to_u64().map(|u| u as i64)).unwrap_or(0)
        }
        Value::Bytes(b) => {
            let s = String::from_utf8_lossy(b);
            let s = s.trim();
            s.parse::<i64>()
                .ok()
                .or_else(|| s.parse::<u64>().ok().map(|u| u as i64))
                .or_else(|| s.parse::<f64>().ok().map(|f| f.round() as i64))
                .unwrap_or(0)
        }
        Value::Date(t) | Value::DateTime(t) => i64::from(t.year) * 10_000 + i64::from(t.month) * 100 + i64::from(t.day),
        Value::Time(us) => *us / 1_000_000,
        Value::Null | Value::Uuid(_) => 0,
    }
}

fn value_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Double(d) => *d,
        Value::Decimal(d) => d.to_f64().unwrap_or(0.0),
        Value::Bytes(b) => String::from_utf8_lossy(b).trim().parse().unwrap_or(0.0),
        other => value_i64(other) as f64,
    }
}

/// Appends a binary DATE/DATETIME/TIMESTAMP value (length 0, 4, 7 or 11).
pub fn encode_binary_datetime(t: &Temporal, date_only: bool, out: &mut Vec<u8>) {
    let has_time = !date_only && (t.hour != 0 || t.minute != 0 || t.second != 0 || t.micros != 0);
    let has_micros = !date_only && t.micros != 0;
    if t.year == 0 && t.month == 0 && t.day == 0 && !has_time {
        out.push(0);
        return;
    }
    out.push(if has_micros {
        11
    } else if has_time {
        7
    } else {
        4
    });
    put_u16(out, t.year);
    out.push(t.month);
    out.push(t.day);
    if has_time {
        out.push(t.hour);
        out.push(t.minute);
        out.push(t.second);
        if has_micros {
            put_u32(out, t.micros);
        }
    }
}

/// Appends a binary TIME value (length 0, 8 or 12) from signed microseconds.
pub fn encode_binary_time(us: i64, out: &mut Vec<u8>) {
    if us == 0 {
        out.push(0);
        return;
    }
    let neg = us < 0;
    let abs = us.unsigned_abs();
    let micros = (abs % 1_000_000) as u32;
    let secs = abs / 1_000_000;
    let days = u32::try_from(secs / 86_400).unwrap_or(u32::MAX);
    out.push(if micros != 0 { 12 } else { 8 });
    out.push(u8::from(neg));
    put_u32(out, days);
    out.push((secs / 3600 % 24) as u8);
    out.push((secs / 60 % 60) as u8);
    out.push((secs % 60) as u8);
    if micros != 0 {
        put_u32(out, micros);
    }
}

fn value_temporal(v: &Value) -> Temporal {
    match v {
        Value::Date(t) | Value::DateTime(t) => *t,
        _ => Temporal::default(),
    }
}

/// Appends a binary-protocol row: 0x00, NULL bitmap (offset 2), then the
/// non-NULL values encoded per column type.
pub fn encode_binary_row(row: &[Value], columns: &[ColumnMeta], out: &mut Vec<u8>) {
    out.push(0x00);
    let bitmap_start = out.len();
    out.resize(bitmap_start + (columns.len() + 7 + 2) / 8, 0);
    for (i, col) in columns.iter().enumerate() {
        let v = row.get(i).unwrap_or(&Value::Null);
        let is_null = match v {
            Value::Null => true,
            Value::Double(d) => !d.is_finite(),
            _ => col.column_type == MyType::MYSQL_TYPE_NULL,
        };
        if is_null {
            let bit = i + 2;
            out[bitmap_start + bit / 8] |= 1 << (bit % 8);
            continue;
        }
        match col.column_type {
            MyType::MYSQL_TYPE_TINY => out.push(value_i64(v) as u8),
            MyType::MYSQL_TYPE_SHORT | MyType::MYSQL_TYPE_YEAR => put_u16(out, value_i64(v) as u16),
            MyType::MYSQL_TYPE_INT24 | MyType::MYSQL_TYPE_LONG => put_u32(out, value_i64(v) as u32),
            MyType::MYSQL_TYPE_LONGLONG => put_u64(out, value_i64(v) as u64),
            MyType::MYSQL_TYPE_FLOAT => out.extend_from_slice(&(value_f64(v) as f32).to_le_bytes()),
            MyType::MYSQL_TYPE_DOUBLE => out.extend_from_slice(&value_f64(v).to_le_bytes()),
            MyType::MYSQL_TYPE_DATE | MyType::MYSQL_TYPE_NEWDATE => {
                encode_binary_datetime(&value_temporal(v), true, out)
            }
            MyType::MYSQL_TYPE_DATETIME
            | MyType::MYSQL_TYPE_TIMESTAMP
            | MyType::MYSQL_TYPE_DATETIME2
            | MyType::MYSQL_TYPE_TIMESTAMP2 => encode_binary_datetime(&value_temporal(v), false, out),
            MyType::MYSQL_TYPE_TIME | MyType::MYSQL_TYPE_TIME2 => {
                let us = match v {
                    Value::Time(us) => *us,
                    _ => 0,
                };
                encode_binary_time(us, out)
            }
            _ => {
                let b = text_value(v, col).unwrap_or(Cow::Borrowed(&[]));
                put_lenenc_bytes(out, &b);
            }
        }
    }
}

// ---------------------------------------------------------- whole result

/// How to frame a result set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultSetOptions {
    /// CLIENT_DEPRECATE_EOF was agreed: no EOF after the column definitions,
    /// and a 0xFE-headed OK ends the rows.
    pub deprecate_eof: bool,
    /// Binary-protocol rows (COM_STMT_EXECUTE) instead of text rows.
    pub binary: bool,
    /// Status flags for the final EOF/OK (SERVER_MORE_RESULTS_EXISTS is
    /// added when `more_results`).
    pub status: StatusFlags,
    pub warnings: u16,
    /// Another result (of a multi-statement query or a procedure) follows.
    pub more_results: bool,
}

impl Default for ResultSetOptions {
    fn default() -> Self {
        ResultSetOptions {
            deprecate_eof: false,
            binary: false,
            status: StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            warnings: 0,
            more_results: false,
        }
    }
}

impl ResultSetOptions {
    fn final_status(&self) -> StatusFlags {
        let mut s = self.status;
        s.set(StatusFlags::SERVER_MORE_RESULTS_EXISTS, self.more_results);
        s
    }
}

/// Appends the payloads of a whole result set to `packets`, in order:
/// column count, column definitions, [EOF], rows, final EOF or OK.
pub fn encode_result_set<I, R>(opts: &ResultSetOptions, columns: &[ColumnMeta], rows: I, packets: &mut Vec<Vec<u8>>)
where
    I: IntoIterator<Item = R>,
    R: AsRef<[Value]>,
{
    encode_result_set_head(opts, columns, packets);
    for row in rows {
        let mut p = Vec::new();
        if opts.binary {
            encode_binary_row(row.as_ref(), columns, &mut p);
        } else {
            encode_text_row(row.as_ref(), columns, &mut p);
        }
        packets.push(p);
    }
    packets.push(encode_result_set_end(opts));
}

/// Column count, column definitions and (unless DEPRECATE_EOF) the EOF.
pub fn encode_result_set_head(opts: &ResultSetOptions, columns: &[ColumnMeta], packets: &mut Vec<Vec<u8>>) {
    let mut p = Vec::new();
    put_lenenc_int(&mut p, columns.len() as u64);
    packets.push(p);
    for c in columns {
        let mut p = Vec::new();
        encode_column_definition(c, &mut p);
        packets.push(p);
    }
    if !opts.deprecate_eof {
        let mut p = Vec::new();
        encode_eof(opts.warnings, opts.status, &mut p);
        packets.push(p);
    }
}

/// The packet that ends the rows: EOF, or the 0xFE OK with DEPRECATE_EOF.
pub fn encode_result_set_end(opts: &ResultSetOptions) -> Vec<u8> {
    let mut p = Vec::new();
    if opts.deprecate_eof {
        encode_eof_ok(
            &OkPacket { status: opts.final_status(), warnings: opts.warnings, ..OkPacket::default() },
            &mut p,
        );
    } else {
        encode_eof(opts.warnings, opts.final_status(), &mut p);
    }
    p
}

/// Writes a whole result set (does not flush, so several results can be
/// batched; call [`PacketStream::flush`] afterwards).
pub fn write_result_set<S, I, R>(
    stream: &mut PacketStream<S>,
    opts: &ResultSetOptions,
    columns: &[ColumnMeta],
    rows: I,
) -> Result<(), PacketError>
where
    S: Read + Write,
    I: IntoIterator<Item = R>,
    R: AsRef<[Value]>,
{
    let mut head = Vec::new();
    encode_result_set_head(opts, columns, &mut head);
    for p in &head {
        stream.write_packet(p)?;
    }
    let mut p = Vec::new();
    for row in rows {
        p.clear();
        if opts.binary {
            encode_binary_row(row.as_ref(), columns, &mut p);
        } else {
            encode_text_row(row.as_ref(), columns, &mut p);
        }
        stream.write_packet(&p)?;
    }
    stream.write_packet(&encode_result_set_end(opts))
}

/// Writes an OK packet (not flushed).
pub fn write_ok<S: Read + Write>(stream: &mut PacketStream<S>, ok: &OkPacket) -> Result<(), PacketError> {
    let mut p = Vec::new();
    encode_ok(ok, &mut p);
    stream.write_packet(&p)
}

/// Writes an ERR packet (not flushed).
pub fn write_err<S: Read + Write>(stream: &mut PacketStream<S>, err: &SqlError) -> Result<(), PacketError> {
    let mut p = Vec::new();
    encode_err(err, &mut p);
    stream.write_packet(&p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onelog_core::schema::{IndexDef, TableDef};
    use onelog_core::ErrorCode;
    use std::str::FromStr;

    fn col(ty: ColumnType) -> ColumnDef {
        ColumnDef::new("c", ty)
    }

    #[test]
    fn golden_ok_err_eof() {
        // OK from the MySQL docs: 07 00 00 02 00 00 00 02 00 00 00.
        let mut p = Vec::new();
        encode_ok(&OkPacket::default(), &mut p);
        assert_eq!(p, [0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
        let mut p = Vec::new();
        encode_ok(
            &OkPacket { affected_rows: 300, last_insert_id: 5, warnings: 1, info: "hi".into(), ..OkPacket::default() },
            &mut p,
        );
        assert_eq!(p, [0x00, 0xFC, 0x2C, 0x01, 0x05, 0x02, 0x00, 0x01, 0x00, 0x02, b'h', b'i']);
        let mut p = Vec::new();
        encode_eof_ok(&OkPacket::default(), &mut p);
        assert_eq!(p, [0xFE, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
        // EOF from the docs: fe 00 00 02 00.
        let mut p = Vec::new();
        encode_eof(0, StatusFlags::SERVER_STATUS_AUTOCOMMIT, &mut p);
        assert_eq!(p, [0xFE, 0x00, 0x00, 0x02, 0x00]);
        // ERR from the docs: ff 48 04 23 48 59 30 30 30 "No tables used".
        let mut p = Vec::new();
        encode_err_raw(1096, "HY000", "No tables used", &mut p);
        let mut expected = vec![0xFF, 0x48, 0x04, b'#', b'H', b'Y', b'0', b'0', b'0'];
        expected.extend_from_slice(b"No tables used");
        assert_eq!(p, expected);
        let mut p = Vec::new();
        encode_err(&SqlError::new(ErrorCode::UNKNOWN_COMMAND, "Unknown command"), &mut p);
        assert_eq!(&p[..9], &[0xFF, 0x17, 0x04, b'#', b'0', b'8', b'S', b'0', b'1']);
        let mut p = Vec::new();
        encode_err_raw(1, "X", &"é".repeat(300), &mut p);
        assert!(p.len() <= 9 + 512);
        assert!(std::str::from_utf8(&p[9..]).is_ok());
    }

    #[test]
    fn golden_column_definition() {
        // `SELECT @@version_comment` style column from the MySQL docs:
        // 03 64 65 66 00 00 00 11 40 40 76 65 72 73 69 6f 6e 5f 63 6f 6d 6d 65 6e 74 00
        // 0c 08 00 1c 00 00 00 fd 00 00 1f 00 00
        let c = ColumnMeta::expr("@@version_comment", MyType::MYSQL_TYPE_VAR_STRING, 8, 28, 0, 31);
        let mut p = Vec::new();
        encode_column_definition(&c, &mut p);
        let mut expected = vec![0x03, b'd', b'e', b'f', 0, 0, 0, 0x11];
        expected.extend_from_slice(b"@@version_comment");
        expected
            .extend_from_slice(&[0x00, 0x0c, 0x08, 0x00, 0x1c, 0x00, 0x00, 0x00, 0xfd, 0x00, 0x00, 0x1f, 0x00, 0x00]);
        assert_eq!(p, expected);
    }

    #[test]
    fn meta_for_types() {
        let m = |ty, unsigned: bool| {
            let mut d = col(ty);
            d.unsigned = unsigned;
            column_meta_for(&d, "db", "t", None)
        };
        let c = m(ColumnType::Int, false);
        assert_eq!((c.column_type, c.column_length, c.collation_id, c.decimals), (MyType::MYSQL_TYPE_LONG, 11, 63, 0));
        assert_eq!(m(ColumnType::Int, true).column_length, 10);
        assert_eq!(m(ColumnType::Int, true).flags & ColumnFlags::UNSIGNED_FLAG.bits(), 0x20);
        assert_eq!(m(ColumnType::TinyInt, false).column_length, 4);
        assert_eq!(m(ColumnType::SmallInt, true).column_length, 5);
        assert_eq!(m(ColumnType::MediumInt, false).column_type, MyType::MYSQL_TYPE_INT24);
        assert_eq!(m(ColumnType::BigInt, true).column_length, 20);
        let d = m(ColumnType::Decimal { precision: 10, scale: 2 }, false);
        assert_eq!((d.column_type, d.column_length, d.decimals), (MyType::MYSQL_TYPE_NEWDECIMAL, 12, 2));
        assert_eq!(m(ColumnType::Decimal { precision: 10, scale: 0 }, false).column_length, 11);
        let v = m(ColumnType::VarChar(10), false);
        assert_eq!((v.column_type, v.column_length, v.collation_id), (MyType::MYSQL_TYPE_VAR_STRING, 40, 45));
        let b = m(ColumnType::VarBinary(10), false);
        assert_eq!((b.column_length, b.collation_id, b.flags), (10, 63, ColumnFlags::BINARY_FLAG.bits()));
        let t = m(ColumnType::Text(BlobSize::Normal), false);
        assert_eq!(
            (t.column_type, t.collation_id, t.flags),
            (MyType::MYSQL_TYPE_BLOB, 45, ColumnFlags::BLOB_FLAG.bits())
        );
        assert_eq!(m(ColumnType::Blob(BlobSize::Long), false).column_length, u32::MAX);
        let e = m(ColumnType::Enum(vec!["a".into(), "bcd".into()]), false);
        assert_eq!((e.column_type, e.column_length), (MyType::MYSQL_TYPE_STRING, 12));
        assert_ne!(e.flags & ColumnFlags::ENUM_FLAG.bits(), 0);
        assert_eq!(m(ColumnType::DateTime { fsp: 3 }, false).column_length, 23);
        assert_eq!(m(ColumnType::Time { fsp: 0 }, false).column_length, 10);
        assert_eq!(m(ColumnType::Date, false).column_type, MyType::MYSQL_TYPE_DATE);
        assert_eq!(m(ColumnType::Year, false).column_type, MyType::MYSQL_TYPE_YEAR);
        assert_eq!(m(ColumnType::Double, false).decimals, 31);

        let mut id = col(ColumnType::Int);
        id.name = "id".into();
        id.nullable = false;
        id.auto_increment = true;
        let a = column_meta_for(&id, "db", "t", Some("ident"));
        assert_eq!((a.name.as_str(), a.org_name.as_str(), a.table.as_str()), ("ident", "id", "t"));
        assert_eq!(a.flags, (ColumnFlags::NOT_NULL_FLAG | ColumnFlags::AUTO_INCREMENT_FLAG).bits());
        let table = TableDef {
            id: 1,
            db: "db".into(),
            name: "t".into(),
            columns: vec![id, col(ColumnType::Int), col(ColumnType::Int)],
            indexes: vec![
                IndexDef::primary_key(1, vec![0]),
                IndexDef {
                    id: 2,
                    name: "u".into(),
                    columns: vec![1],
                    unique: true,
                    primary: false,
                    parts: Vec::new(),
                    generated: false,
                    using: None,
                },
                IndexDef {
                    id: 3,
                    name: "k".into(),
                    columns: vec![2, 1],
                    unique: false,
                    primary: false,
                    parts: Vec::new(),
                    generated: false,
                    using: None,
                },
            ],
            ..Default::default()
        };
        assert_eq!(key_flags(table.key_membership(0)), (ColumnFlags::PRI_KEY_FLAG | ColumnFlags::PART_KEY_FLAG).bits());
        assert_eq!(
            key_flags(table.key_membership(1)),
            (ColumnFlags::UNIQUE_KEY_FLAG | ColumnFlags::PART_KEY_FLAG).bits()
        );
        assert_eq!(
            key_flags(table.key_membership(2)),
            (ColumnFlags::MULTIPLE_KEY_FLAG | ColumnFlags::PART_KEY_FLAG).bits()
        );
        let mut bin = col(ColumnType::VarChar(5));
        bin.collation = Collation::Utf8mb4Bin;
        let b = column_meta_for(&bin, "", "", None);
        assert_eq!((b.collation_id, b.column_length, b.flags), (45, 20, ColumnFlags::BINARY_FLAG.bits()));
        let ts = column_meta_for(&col(ColumnType::Timestamp { fsp: 0 }), "", "", None);
        assert_eq!(ts.flags, (ColumnFlags::UNSIGNED_FLAG | ColumnFlags::BINARY_FLAG).bits());
        assert_eq!(m(ColumnType::Text(BlobSize::Normal), false).column_length, 262_140);
        assert_eq!(m(ColumnType::Text(BlobSize::Tiny), false).column_length, 1020);
        assert_eq!(m(ColumnType::Text(BlobSize::Medium), false).column_length, 67_108_860);
        assert_eq!(m(ColumnType::Text(BlobSize::Long), false).column_length, u32::MAX);
        assert_eq!(m(ColumnType::Blob(BlobSize::Normal), false).column_length, 65_535);
    }

    fn text(v: Value, c: &ColumnMeta) -> Option<String> {
        text_value(&v, c).map(|b| String::from_utf8(b.into_owned()).unwrap())
    }

    #[test]
    fn text_rendering() {
        let int = column_meta_for(&col(ColumnType::Int), "", "", None);
        assert_eq!(text(Value::Int(-5), &int).as_deref(), Some("-5"));
        assert_eq!(text(Value::UInt(u64::MAX), &int).as_deref(), Some("18446744073709551615"));
        assert_eq!(text(Value::Null, &int), None);
        let dbl = column_meta_for(&col(ColumnType::Double), "", "", None);
        assert_eq!(text(Value::Double(0.1), &dbl).as_deref(), Some("0.1"));
        assert_eq!(text(Value::Double(1e20), &dbl).as_deref(), Some(format_double(1e20).as_str()));
        let flt = column_meta_for(&col(ColumnType::Float), "", "", None);
        assert_eq!(text(Value::Double(0.1f32 as f64), &flt).as_deref(), Some("0.1"));
        let dec = column_meta_for(&col(ColumnType::Decimal { precision: 10, scale: 2 }), "", "", None);
        assert_eq!(text(Value::Decimal(Decimal::from_str("1.5").unwrap()), &dec).as_deref(), Some("1.50"));
        assert_eq!(text(Value::Int(3), &dec).as_deref(), Some("3.00"));
        let ts = Temporal { year: 2024, month: 2, day: 29, hour: 13, minute: 5, second: 9, micros: 120_000 };
        let dt3 = column_meta_for(&col(ColumnType::DateTime { fsp: 3 }), "", "", None);
        assert_eq!(text(Value::DateTime(ts), &dt3).as_deref(), Some("2024-02-29 13:05:09.120"));
        let dt0 = column_meta_for(&col(ColumnType::DateTime { fsp: 0 }), "", "", None);
        assert_eq!(text(Value::DateTime(ts), &dt0).as_deref(), Some("2024-02-29 13:05:09"));
        let date = column_meta_for(&col(ColumnType::Date), "", "", None);
        assert_eq!(text(Value::Date(ts), &date).as_deref(), Some("2024-02-29"));
        let t = column_meta_for(&col(ColumnType::Time { fsp: 2 }), "", "", None);
        assert_eq!(
            text(Value::Time(-(838 * 3600 + 59 * 60 + 59) * 1_000_000 - 500_000), &t).as_deref(),
            Some("-838:59:59.50")
        );
        let vc = column_meta_for(&col(ColumnType::VarChar(3)), "", "", None);
        assert_eq!(text(Value::from_str("héllo"), &vc).as_deref(), Some("héllo"));

        let mut row = Vec::new();
        encode_text_row(&[Value::Int(1), Value::Null], &[int.clone(), vc.clone(), vc], &mut row);
        assert_eq!(row, [0x01, b'1', 0xFB, 0xFB]);
    }

    #[test]
    fn binary_rows() {
        let cols: Vec<ColumnMeta> = [
            ColumnType::TinyInt,
            ColumnType::SmallInt,
            ColumnType::Int,
            ColumnType::BigInt,
            ColumnType::Float,
            ColumnType::Double,
            ColumnType::VarChar(5),
            ColumnType::Date,
            ColumnType::DateTime { fsp: 6 },
            ColumnType::Time { fsp: 0 },
            ColumnType::Int,
        ]
        .into_iter()
        .map(|t| column_meta_for(&col(t), "", "", None))
        .collect();
        let ts = Temporal { year: 2010, month: 10, day: 17, hour: 19, minute: 27, second: 30, micros: 1 };
        let row = vec![
            Value::Int(-1),
            Value::Int(300),
            Value::Int(-2),
            Value::UInt(u64::MAX),
            Value::Double(1.5),
            Value::Double(2.5),
            Value::from_str("abc"),
            Value::Date(ts),
            Value::DateTime(ts),
            Value::Time(-((24 + 1) * 3600 + 2 * 60 + 3) * 1_000_000),
            Value::Null,
        ];
        let mut p = Vec::new();
        encode_binary_row(&row, &cols, &mut p);
        let mut e = vec![0x00, 0x00, 0x10]; // 13 bits -> 2 bytes; col 10 -> bit 12.
        e.push(0xFF);
        e.extend_from_slice(&300u16.to_le_bytes());
        e.extend_from_slice(&(-2i32).to_le_bytes());
        e.extend_from_slice(&u64::MAX.to_le_bytes());
        e.extend_from_slice(&1.5f32.to_le_bytes());
        e.extend_from_slice(&2.5f64.to_le_bytes());
        e.extend_from_slice(b"\x03abc");
        e.extend_from_slice(&[4, 0xDA, 0x07, 10, 17]);
        // From the MySQL docs: 0b da 07 0a 11 13 1b 1e 01 00 00 00.
        e.extend_from_slice(&[0x0b, 0xda, 0x07, 0x0a, 0x11, 0x13, 0x1b, 0x1e, 0x01, 0x00, 0x00, 0x00]);
        e.extend_from_slice(&[8, 1, 1, 0, 0, 0, 1, 2, 3]);
        assert_eq!(p, e);

        let mut p = Vec::new();
        encode_binary_datetime(&Temporal::default(), false, &mut p);
        encode_binary_time(0, &mut p);
        encode_binary_time(1_000_001, &mut p);
        assert_eq!(p, [0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0]);
    }

    #[test]
    fn result_set_framing() {
        let cols = vec![ColumnMeta::bigint("1", false, true)];
        let rows = vec![vec![Value::Int(1)]];
        let mut packets = Vec::new();
        encode_result_set(&ResultSetOptions::default(), &cols, &rows, &mut packets);
        assert_eq!(packets.len(), 5);
        assert_eq!(packets[0], [1]);
        assert_eq!(packets[2], [0xFE, 0, 0, 2, 0]);
        assert_eq!(packets[3], [1, b'1']);
        assert_eq!(packets[4], [0xFE, 0, 0, 2, 0]);

        let opts = ResultSetOptions { deprecate_eof: true, more_results: true, ..ResultSetOptions::default() };
        let mut packets = Vec::new();
        encode_result_set(&opts, &cols, &rows, &mut packets);
        assert_eq!(packets.len(), 4);
        assert_eq!(packets[3], [0xFE, 0, 0, 0x0A, 0, 0, 0]);

        let opts = ResultSetOptions { binary: true, ..ResultSetOptions::default() };
        let mut packets = Vec::new();
        encode_result_set(&opts, &cols, &rows, &mut packets);
        assert_eq!(packets[3], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    }
}
