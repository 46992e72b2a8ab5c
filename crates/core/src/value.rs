//! The SQL value model used from the wire protocol down to the row codec.

use crate::decimal::Decimal;
use crate::uuid::Uuid;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// days_from_civil; every date computation in OneLog goes through here).
pub fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    let (m, d) = (i64::from(month), i64::from(day));
    let y = if m <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Inverse of [`days_from_civil`]: (year, month, day).
pub fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

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
    /// The date alone: the time of day set to midnight (what a DATE holds).
    pub fn date(self) -> Temporal {
        Temporal { hour: 0, minute: 0, second: 0, micros: 0, ..self }
    }

    /// The UTC wall time `secs` seconds after the epoch.
    pub fn from_unix_seconds(secs: i64) -> Temporal {
        let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
        let rem = secs.rem_euclid(86_400);
        Temporal {
            year: year.clamp(0, 9999) as u16,
            month,
            day,
            hour: (rem / 3600) as u8,
            minute: (rem / 60 % 60) as u8,
            second: (rem % 60) as u8,
            micros: 0,
        }
    }

    /// Seconds since the epoch of this UTC wall time.
    pub fn unix_seconds(&self) -> i64 {
        days_from_civil(i64::from(self.year), self.month, self.day) * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
    }

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
    /// A value of MariaDB's UUID type.
    Uuid(Uuid),
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
            Value::Uuid(u) => write!(f, "{u}"),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows, sort buffers and group states hold `Value`s by the million: a
    /// wider DECIMAL backing (65 digits, issue 18) must not grow every one
    /// of them, so it goes behind a box or stays within these bytes.
    #[test]
    fn value_stays_small() {
        assert_eq!(std::mem::size_of::<Decimal>(), 16);
        assert_eq!(std::mem::size_of::<Value>(), 24);
    }
}
