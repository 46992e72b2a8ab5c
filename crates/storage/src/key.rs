//! Memcomparable key encoding: byte order of encoded keys equals SQL order
//! of the values under each column's collation.
//!
//! Layout: `index_id` (8 bytes big-endian), then per key column a NULL
//! marker (0x00 NULL sorts first, 0x01 not NULL) and the value. Hand-written
//! because no maintained crate covers MySQL's collations and types; the
//! escaping scheme is the classic one (0x00 → 0x00 0xFF, terminator
//! 0x00 0x00), which keeps prefixes ordered.

use onelog_core::decimal::Decimal;
use onelog_core::{Collation, ColumnDef, ColumnType, Temporal, Value};

/// Reserved index ids below this value hold the catalog, not tables.
pub const FIRST_USER_INDEX_ID: u64 = 16;
/// Catalog: one entry per database, key `[CATALOG_DB][name]`.
pub const CATALOG_DB: u64 = 1;
/// Catalog: one entry per table, key `[CATALOG_TABLE][db \0 name]`.
pub const CATALOG_TABLE: u64 = 2;

/// Index ids from here up belong to sessions' temporary tables, whose keys
/// never reach storage or the binlog (the SQL layer keeps them per session).
pub const FIRST_TEMP_INDEX_ID: u64 = 1 << 62;

/// Whether `key` belongs to a temporary table (see [`FIRST_TEMP_INDEX_ID`]).
pub fn is_temp_key(key: &[u8]) -> bool {
    key.get(..8).and_then(|p| <[u8; 8]>::try_from(p).ok()).is_some_and(|p| u64::from_be_bytes(p) >= FIRST_TEMP_INDEX_ID)
}

pub fn index_prefix(index_id: u64) -> Vec<u8> {
    index_id.to_be_bytes().to_vec()
}

/// The smallest key greater than every key starting with `prefix`, or
/// `None` if there is none (all 0xFF).
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xFF {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// Appends one value of `column` in memcomparable form.
pub fn encode_value(out: &mut Vec<u8>, column: &ColumnDef, value: &Value) {
    if value.is_null() {
        out.push(0x00);
        return;
    }
    out.push(0x01);
    match (&column.ty, value) {
        // The encoding depends on the column's signedness, never on which
        // integer variant the value arrived as.
        (_, Value::Int(v)) if column.ty.is_integer() => {
            let bits = if column.unsigned { (*v).max(0) as u64 } else { (*v as u64) ^ (1 << 63) };
            out.extend_from_slice(&bits.to_be_bytes())
        }
        (_, Value::UInt(v)) if column.ty.is_integer() => {
            let bits = if column.unsigned { *v } else { (*v).min(i64::MAX as u64) ^ (1 << 63) };
            out.extend_from_slice(&bits.to_be_bytes())
        }
        (ColumnType::Float | ColumnType::Double, v) => encode_f64(out, as_f64(v)),
        (ColumnType::Decimal { precision, scale }, v) => encode_decimal(out, &as_decimal(v), *precision, *scale),
        (ColumnType::Date | ColumnType::DateTime { .. } | ColumnType::Timestamp { .. }, v) => {
            out.extend_from_slice(&temporal_bits(as_temporal(v)).to_be_bytes())
        }
        (ColumnType::Time { .. }, Value::Time(us)) => out.extend_from_slice(&((*us as u64) ^ (1 << 63)).to_be_bytes()),
        // Fixed width, so the bytes compare as they are; index order is
        // MariaDB's record order.
        (_, Value::Uuid(u)) => out.extend_from_slice(&u.record_bytes()),
        (_, Value::Bytes(bytes)) => {
            let weight = weight_string(column.collation, &column.ty, bytes);
            encode_bytes(out, &weight)
        }
        (_, other) => encode_bytes(out, other.to_string().as_bytes()),
    }
}

/// Encodes a whole key: prefix then each (column, value).
pub fn encode_key<'a>(index_id: u64, parts: impl IntoIterator<Item = (&'a ColumnDef, &'a Value)>) -> Vec<u8> {
    let mut out = index_prefix(index_id);
    for (column, value) in parts {
        encode_value(&mut out, column, value);
    }
    out
}

/// The bytes that decide text comparison under `collation`: its sort key
/// ([`Collation::sort_key`], the one definition of text order), except
/// that BINARY(n) values, stored padded with zero bytes, compare without
/// that padding.
pub fn weight_string(collation: Collation, ty: &ColumnType, bytes: &[u8]) -> Vec<u8> {
    match (collation, ty) {
        (Collation::Binary, ColumnType::Binary(_)) => trim_end(bytes, 0).to_vec(),
        _ => collation.sort_key(bytes),
    }
}

fn trim_end(bytes: &[u8], pad: u8) -> &[u8] {
    let end = bytes.iter().rposition(|b| *b != pad).map_or(0, |p| p + 1);
    &bytes[..end]
}

fn encode_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    for b in bytes {
        out.push(*b);
        if *b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

fn encode_f64(out: &mut Vec<u8>, v: f64) {
    let v = if v == 0.0 { 0.0 } else { v }; // -0.0 equals 0.0
    let bits = v.to_bits();
    let ordered = if bits >> 63 == 1 { !bits } else { bits | (1 << 63) };
    out.extend_from_slice(&ordered.to_be_bytes());
}

/// The value at the column's scale as a two's complement integer with the
/// sign bit flipped, so keys sort as the numbers do: 16 bytes up to 38
/// digits (the format of every key written before wider columns existed),
/// 32 beyond. A value beyond the column (a search bound) saturates.
fn encode_decimal(out: &mut Vec<u8>, v: &Decimal, precision: u8, scale: u8) {
    let width = if precision <= 38 { 16 } else { 32 };
    let scaled = v.to_scaled_be_bytes(u32::from(scale));
    let mut bytes = scaled.unwrap_or_default();
    let (high, key) = bytes.split_at_mut(32 - width);
    // The dropped high bytes must only repeat the key's sign bit.
    let extension = if key[0] & 0x80 != 0 { 0xFF } else { 0 };
    if scaled.is_none() || high.iter().any(|b| *b != extension) {
        // Two's complement minimum or maximum.
        key.fill(if v.is_sign_negative() { 0 } else { 0xFF });
        key[0] ^= 0x80;
    }
    key[0] ^= 0x80;
    out.extend_from_slice(key);
}

/// What a key holds of one column's value.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValue {
    /// The value itself, as a row decodes it: the encoding is reversible.
    Value(Value),
    /// Only that a value is there: text sort weights, floating point bits
    /// (-0 is encoded as 0), UUIDs and wide decimals are not read back.
    Opaque,
}

/// Whether [`decode_value`] gives back the values of `column`, rather than
/// [`KeyValue::Opaque`].
pub fn decodable(column: &ColumnDef) -> bool {
    match column.ty {
        ColumnType::Decimal { precision, .. } => precision <= 38,
        ColumnType::Date | ColumnType::DateTime { .. } | ColumnType::Timestamp { .. } | ColumnType::Time { .. } => true,
        ref ty => ty.is_integer(),
    }
}

/// Reads one value of `column` from the front of `key` (as [`encode_value`]
/// wrote it) and advances past it; `None` when the bytes are not such a
/// value, so that the caller reads the row instead.
pub fn decode_value(key: &mut &[u8], column: &ColumnDef) -> Option<KeyValue> {
    let (&marker, rest) = key.split_first()?;
    *key = rest;
    match marker {
        0x00 => return Some(KeyValue::Value(Value::Null)),
        0x01 => {}
        _ => return None,
    }
    let value = match &column.ty {
        ty if ty.is_integer() => {
            let bits = u64::from_be_bytes(take(key)?);
            if column.unsigned {
                Value::UInt(bits)
            } else {
                Value::Int((bits ^ (1 << 63)) as i64)
            }
        }
        ColumnType::Decimal { precision, scale } if *precision <= 38 => {
            let mut bytes: [u8; 16] = take(key)?;
            bytes[0] ^= 0x80;
            Value::Decimal(Decimal::from_i128_with_scale(i128::from_be_bytes(bytes), u32::from(*scale)))
        }
        ColumnType::Decimal { .. } => {
            take::<32>(key)?;
            return Some(KeyValue::Opaque);
        }
        ColumnType::Date => Value::Date(temporal_from_bits(u64::from_be_bytes(take(key)?))?),
        ColumnType::DateTime { .. } | ColumnType::Timestamp { .. } => {
            Value::DateTime(temporal_from_bits(u64::from_be_bytes(take(key)?))?)
        }
        ColumnType::Time { .. } => Value::Time((u64::from_be_bytes(take(key)?) ^ (1 << 63)) as i64),
        ColumnType::Float | ColumnType::Double => {
            take::<8>(key)?;
            return Some(KeyValue::Opaque);
        }
        ColumnType::Uuid => {
            take::<16>(key)?;
            return Some(KeyValue::Opaque);
        }
        _ => {
            skip_bytes(key)?;
            return Some(KeyValue::Opaque);
        }
    };
    Some(KeyValue::Value(value))
}

/// The next `N` bytes of `key`, advancing past them.
fn take<const N: usize>(key: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = key.split_first_chunk::<N>()?;
    *key = rest;
    Some(*head)
}

/// Advances `key` past one value of [`encode_bytes`]: up to its 0x00 0x00
/// terminator (a 0x00 0xFF pair is an escaped zero byte).
fn skip_bytes(key: &mut &[u8]) -> Option<()> {
    let mut i = 0;
    loop {
        match key.get(i..i + 2)? {
            [0, 0] => break,
            [0, 0xFF] => i += 2,
            [0, _] => return None,
            _ => i += 1,
        }
    }
    *key = &key[i + 2..];
    Some(())
}

/// The inverse of [`temporal_bits`].
fn temporal_from_bits(bits: u64) -> Option<Temporal> {
    let date = bits >> 37;
    let time_us = bits & ((1 << 37) - 1);
    let seconds = time_us / 1_000_000;
    Some(Temporal {
        year: u16::try_from(date >> 9).ok()?,
        month: ((date >> 5) & 0xF) as u8,
        day: (date & 0x1F) as u8,
        hour: u8::try_from(seconds / 3600).ok()?,
        minute: (seconds / 60 % 60) as u8,
        second: (seconds % 60) as u8,
        micros: (time_us % 1_000_000) as u32,
    })
}

fn temporal_bits(t: Temporal) -> u64 {
    let date = (u64::from(t.year) << 9) | (u64::from(t.month) << 5) | u64::from(t.day);
    let time_us =
        ((u64::from(t.hour) * 60 + u64::from(t.minute)) * 60 + u64::from(t.second)) * 1_000_000 + u64::from(t.micros);
    (date << 37) | time_us
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Double(d) => *d,
        Value::Decimal(d) => d.to_string().parse().unwrap_or(0.0),
        other => other.to_string().parse().unwrap_or(0.0),
    }
}

fn as_decimal(v: &Value) -> Decimal {
    match v {
        Value::Decimal(d) => d.clone(),
        Value::Int(i) => Decimal::from(*i),
        Value::UInt(u) => Decimal::from(*u),
        other => other.to_string().parse().unwrap_or_default(),
    }
}

fn as_temporal(v: &Value) -> Temporal {
    match v {
        Value::Date(t) | Value::DateTime(t) => *t,
        _ => Temporal::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(col: &ColumnDef, v: Value) -> Vec<u8> {
        encode_key(20, [(col, &v)])
    }

    #[test]
    fn integers_sort_numerically() {
        let col = ColumnDef::new("a", ColumnType::BigInt);
        let vals = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        let keys: Vec<_> = vals.iter().map(|v| key(&col, Value::Int(*v))).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(key(&col, Value::Null) < keys[0]);
    }

    #[test]
    fn unsigned_sort_above_signed_range() {
        let mut col = ColumnDef::new("a", ColumnType::BigInt);
        col.unsigned = true;
        assert!(key(&col, Value::UInt(5)) < key(&col, Value::UInt(u64::MAX)));
    }

    #[test]
    fn integer_variant_does_not_change_the_key() {
        let mut unsigned = ColumnDef::new("a", ColumnType::BigInt);
        unsigned.unsigned = true;
        assert_eq!(key(&unsigned, Value::Int(7919)), key(&unsigned, Value::UInt(7919)));
        let signed = ColumnDef::new("b", ColumnType::Int);
        assert_eq!(key(&signed, Value::Int(42)), key(&signed, Value::UInt(42)));
    }

    #[test]
    fn text_is_case_insensitive_and_pad_space() {
        let col = ColumnDef::new("a", ColumnType::VarChar(10));
        assert_eq!(key(&col, Value::from_str("abc")), key(&col, Value::from_str("ABC  ")));
        assert!(key(&col, Value::from_str("ab")) < key(&col, Value::from_str("abc")));
        assert!(key(&col, Value::from_str("a\0")) > key(&col, Value::from_str("a")));
    }

    #[test]
    fn doubles_and_decimals_order() {
        let col = ColumnDef::new("a", ColumnType::Double);
        let vals = [-1e10, -1.5, 0.0, 1e-3, 2.0, 1e300];
        let keys: Vec<_> = vals.iter().map(|v| key(&col, Value::Double(*v))).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let dcol = ColumnDef::new("d", ColumnType::Decimal { precision: 10, scale: 2 });
        let d = |s: &str| key(&dcol, Value::Decimal(s.parse().unwrap()));
        assert!(d("-3.5") < d("-0.01") && d("-0.01") < d("0") && d("0") < d("2.5"));
        assert_eq!(d("2.5"), d("2.50"));
    }

    /// Encodes `values` of `col` and reads them back.
    fn round_trip(col: &ColumnDef, values: &[Value]) {
        for v in values {
            let encoded = key(col, v.clone());
            let mut rest = &encoded[8..];
            assert_eq!(decode_value(&mut rest, col), Some(KeyValue::Value(v.clone())), "{v:?} of {:?}", col.ty);
            assert!(rest.is_empty());
        }
    }

    #[test]
    fn integers_decode() {
        let col = ColumnDef::new("a", ColumnType::Int);
        round_trip(&col, &[Value::Null, Value::Int(i64::MIN), Value::Int(-7), Value::Int(0), Value::Int(i64::MAX)]);
        let mut unsigned = ColumnDef::new("u", ColumnType::BigInt);
        unsigned.unsigned = true;
        round_trip(&unsigned, &[Value::UInt(0), Value::UInt(u64::MAX)]);
        round_trip(&ColumnDef::new("y", ColumnType::Year), &[Value::Int(0), Value::Int(2155)]);
    }

    #[test]
    fn decimals_decode_at_the_column_scale() {
        let col = ColumnDef::new("d", ColumnType::Decimal { precision: 38, scale: 3 });
        let d = |s: &str| Value::Decimal(s.parse().unwrap());
        round_trip(&col, &[d("-12.500"), d("0.000"), d("0.001"), d("99999999999999999999999999999999999.999")]);
        let wide = ColumnDef::new("w", ColumnType::Decimal { precision: 60, scale: 0 });
        let encoded = key(&wide, d("5"));
        let mut rest = &encoded[8..];
        assert_eq!(decode_value(&mut rest, &wide), Some(KeyValue::Opaque));
        assert!(rest.is_empty());
    }

    #[test]
    fn temporals_decode() {
        let t = Temporal { year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58, micros: 999_999 };
        round_trip(&ColumnDef::new("dt", ColumnType::DateTime { fsp: 6 }), &[Value::DateTime(t)]);
        round_trip(&ColumnDef::new("ts", ColumnType::Timestamp { fsp: 0 }), &[Value::DateTime(Temporal::default())]);
        round_trip(&ColumnDef::new("d", ColumnType::Date), &[Value::Date(t.date())]);
        let time = ColumnDef::new("t", ColumnType::Time { fsp: 6 });
        round_trip(&time, &[Value::Time(-838 * 3_600_000_000), Value::Time(0), Value::Time(1_500_000)]);
    }

    #[test]
    fn opaque_values_are_skipped() {
        let text = ColumnDef::new("s", ColumnType::VarChar(10));
        let int = ColumnDef::new("i", ColumnType::Int);
        let double = ColumnDef::new("f", ColumnType::Double);
        let values = [Value::from_str("a\0b"), Value::Double(-0.5), Value::Int(3)];
        let encoded = encode_key(20, [(&text, &values[0]), (&double, &values[1]), (&int, &values[2])]);
        let mut rest = &encoded[8..];
        assert_eq!(decode_value(&mut rest, &text), Some(KeyValue::Opaque));
        assert_eq!(decode_value(&mut rest, &double), Some(KeyValue::Opaque));
        assert_eq!(decode_value(&mut rest, &int), Some(KeyValue::Value(Value::Int(3))));
        assert!(!decodable(&text) && !decodable(&double) && decodable(&int));
    }

    #[test]
    fn truncated_keys_do_not_decode() {
        let col = ColumnDef::new("a", ColumnType::BigInt);
        let encoded = key(&col, Value::Int(5));
        let mut rest = &encoded[8..encoded.len() - 1];
        assert_eq!(decode_value(&mut rest, &col), None);
        let text = ColumnDef::new("s", ColumnType::Text(onelog_core::schema::BlobSize::Normal));
        let mut unterminated: &[u8] = &[0x01, b'a', 0];
        assert_eq!(decode_value(&mut unterminated, &text), None);
    }

    #[test]
    fn prefix_end_bounds_prefix() {
        assert_eq!(prefix_end(&[1, 2, 0xFF]), Some(vec![1, 3]));
        assert_eq!(prefix_end(&[0xFF]), None);
    }
}
