//! The SQL value model used from the wire protocol down to the row codec.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A calendar date and wall-clock time, as MySQL stores DATE, DATETIME and
/// TIMESTAMP (all fields may be zero, as in MySQL's zero date).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
pub struct Temporal {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub micros: u32,
}

impl Temporal {
    /// Formats as `YYYY-MM-DD`.
    pub fn date_string(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// Formats as `YYYY-MM-DD hh:mm:ss[.ffffff]` with `fsp` fractional digits.
    pub fn datetime_string(&self, fsp: u8) -> String {
        let mut s = format!("{} {:02}:{:02}:{:02}", self.date_string(), self.hour, self.minute, self.second);
        if fsp > 0 {
            let frac = format!("{:06}", self.micros);
            s.push('.');
            s.push_str(&frac[..usize::from(fsp.min(6))]);
        }
        s
    }
}

/// One SQL value. Strings of every character type and blobs are bytes
/// (OneLog stores utf8mb4 text as its UTF-8 bytes); ENUM values are their
/// label bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub enum Value {
    #[default]
    Null,
    Int(i64),
    UInt(u64),
    Double(f64),
    Decimal(Decimal),
    Bytes(Vec<u8>),
    Date(Temporal),
    DateTime(Temporal),
    /// TIME as signed microseconds.
    Time(i64),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    #[allow(clippy::should_implement_trait)] // infallible, unlike FromStr
    pub fn from_str(s: &str) -> Value {
        Value::Bytes(s.as_bytes().to_vec())
    }
}

impl fmt::Display for Value {
    /// MySQL's text-protocol rendering (NULL prints as `NULL`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Int(v) => write!(f, "{v}"),
            Value::UInt(v) => write!(f, "{v}"),
            Value::Double(v) => f.write_str(&format_double(*v)),
            Value::Decimal(v) => write!(f, "{v}"),
            Value::Bytes(b) => f.write_str(&String::from_utf8_lossy(b)),
            Value::Date(t) => f.write_str(&t.date_string()),
            Value::DateTime(t) => {
                let fsp = if t.micros == 0 { 0 } else { 6 };
                f.write_str(&t.datetime_string(fsp))
            }
            Value::Time(us) => {
                let sign = if *us < 0 { "-" } else { "" };
                let us = us.unsigned_abs();
                let secs = us / 1_000_000;
                write!(f, "{sign}{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
                if us % 1_000_000 != 0 {
                    write!(f, ".{:06}", us % 1_000_000)?;
                }
                Ok(())
            }
        }
    }
}

/// Formats a DOUBLE the way MySQL's text protocol does: shortest round-trip
/// digits, exponent form for very large or small magnitudes.
pub fn format_double(v: f64) -> String {
    if v.is_nan() || v.is_infinite() {
        return "NULL".to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let abs = v.abs();
    if (1e-15..1e15).contains(&abs) {
        let s = format!("{v}");
        return s;
    }
    let s = format!("{v:e}");
    // Rust prints `1e20`, MySQL prints `1e20`; `1.5e-20` likewise. Add the
    // explicit sign MySQL uses for positive exponents.
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e{e}"),
        _ => s,
    }
}
