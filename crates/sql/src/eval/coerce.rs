//! Converting a value for storage in a column (INSERT / UPDATE), with
//! MySQL's strict and non-strict behaviour.

use super::temporal::{number_time, time_of, to_datetime, to_time};
use super::temporal_text::{scan_datetime, scan_time, Cut, Scanned};
use super::{decimal_fit, parse_decimal_prefix, set_scale, to_num, value_bytes, EvalEnv, NoWarn, Num};
use crate::time_zone::session_zone;
use onelog_core::decimal::{Decimal, RoundingStrategy};
use onelog_core::schema::FloatDigits;
use onelog_core::set_value::{full_mask, parse_set, set_text};
use onelog_core::{ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, Temporal, Uuid, Value};

pub(crate) fn int_range(ty: &ColumnType, unsigned: bool) -> (i128, i128) {
    let bits = match ty {
        ColumnType::TinyInt => 8,
        ColumnType::SmallInt => 16,
        ColumnType::MediumInt => 24,
        ColumnType::Int => 32,
        _ => 64,
    };
    if unsigned {
        (0, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    }
}

/// Problems found while converting, reported per mode.
enum Issue {
    /// 1264: clamp.
    OutOfRange,
    /// 1366: wrong value for the column type (string to number).
    WrongValue(&'static str),
    /// 1265: data truncated.
    Truncated,
    /// 1406: string too long.
    TooLong,
    /// 1292: bad date/time.
    BadTemporal(&'static str),
}

thread_local! {
    /// The (database, table) whose column a value is being stored in, for
    /// the `db`.`table`.`column` that 1366 and 1292 name; empty for a
    /// routine's variable, as MariaDB prints ``.``.`v`. Set by
    /// [`storing_into`] around a row's conversion on this thread.
    static STORED_TABLE: std::cell::RefCell<(String, String)> = const { std::cell::RefCell::new((String::new(), String::new())) };
}

/// While the guard lives, conversion messages name `db`.`table`.
pub(crate) fn storing_into(db: &str, table: &str) -> StoringInto {
    let outer = STORED_TABLE.with(|t| t.replace((db.to_string(), table.to_string())));
    StoringInto { outer }
}

/// Restores the enclosing statement's table (a trigger stores into
/// another table while its statement's row is being converted).
pub(crate) struct StoringInto {
    outer: (String, String),
}

impl Drop for StoringInto {
    fn drop(&mut self) {
        STORED_TABLE.with(|t| t.replace(std::mem::take(&mut self.outer)));
    }
}

/// `db`.`table`.`column`, as 1366 and 1292 name the column stored into.
fn qualified_column(column: &str) -> String {
    STORED_TABLE.with(|t| {
        let (db, table) = &*t.borrow();
        format!("`{db}`.`{table}`.`{column}`")
    })
}

fn report(issue: Issue, v: &Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<()> {
    let c = &column.name;
    let row = env.warning_row();
    let shown = String::from_utf8_lossy(&value_bytes(v)).into_owned();
    let (code, msg) = match issue {
        Issue::OutOfRange => {
            (ErrorCode::WARN_DATA_OUT_OF_RANGE, format!("Out of range value for column '{c}' at row {row}"))
        }
        Issue::WrongValue(kind) => (
            ErrorCode::TRUNCATED_WRONG_VALUE_FOR_FIELD,
            format!("Incorrect {kind} value: '{shown}' for column {} at row {row}", qualified_column(c)),
        ),
        Issue::Truncated => (ErrorCode::WARN_DATA_TRUNCATED, format!("Data truncated for column '{c}' at row {row}")),
        Issue::TooLong => (ErrorCode::DATA_TOO_LONG, format!("Data too long for column '{c}' at row {row}")),
        Issue::BadTemporal(kind) => (
            ErrorCode::TRUNCATED_WRONG_VALUE,
            format!("Incorrect {kind} value: '{shown}' for column {} at row {row}", qualified_column(c)),
        ),
    };
    if strict {
        return Err(SqlError::new(code, msg));
    }
    // Non-strict: MySQL downgrades 1406 and 1292 to 1265 warnings.
    let (code, msg) = match code.number {
        1406 | 1292 => (1265, format!("Data truncated for column '{c}' at row {row}")),
        n => (n, msg),
    };
    env.warn(code, msg);
    Ok(())
}

/// A value for a UUID column: a UUID, its text form, or 16 bytes of its
/// binary form (a BINARY(16), a hex literal). Text that is no UUID is
/// error 1292 in strict mode, else warning 1292 (MariaDB does not turn it
/// into 1265) and NULL; a number or a temporal value is error 4078 in
/// every mode.
fn coerce_uuid(v: Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let from = match &v {
        Value::Uuid(_) => return Ok(v),
        Value::Bytes(b) => {
            if let Some(u) = Uuid::from_binary(b).or_else(|| Uuid::parse_text(b)) {
                return Ok(Value::Uuid(u));
            }
            let msg = format!(
                "Incorrect uuid value: '{}' for column `{}` at row {}",
                String::from_utf8_lossy(b),
                column.name,
                env.warning_row()
            );
            if strict {
                return Err(SqlError::new(ErrorCode::TRUNCATED_WRONG_VALUE, msg));
            }
            env.warn(ErrorCode::TRUNCATED_WRONG_VALUE.number, msg);
            return Ok(if column.nullable { Value::Null } else { Value::Uuid(Uuid::default()) });
        }
        Value::Int(i) if i32::try_from(*i).is_ok() => "int",
        Value::Int(_) | Value::UInt(_) => "bigint",
        Value::Decimal(_) => "decimal",
        Value::Double(_) => "double",
        Value::Date(_) => "date",
        Value::DateTime(_) => "datetime",
        Value::Time(_) => "time",
        Value::Null => return Ok(Value::Null),
    };
    Err(SqlError::new(
        ErrorCode::CANT_CAST_IN_ASSIGNMENT,
        format!("Cannot cast '{from}' as 'uuid' in assignment of `{}`", column.name),
    ))
}

/// Note 1265: a value lost digits or a time of day that the column cannot
/// hold, which MariaDB does not count as an error in any mode.
fn truncation_note(column: &ColumnDef, env: &dyn EvalEnv) {
    let message = format!("Data truncated for column '{}' at row {}", column.name, env.warning_row());
    env.note(ErrorCode::WARN_DATA_TRUNCATED.number, message);
}

/// A temporal value read from text that left something out: ignored text
/// is `issue` (an error in strict mode, else a warning and the value
/// kept), ignored fraction digits a note.
/// NO_ZERO_DATE and NO_ZERO_IN_DATE, as MariaDB applies them to a stored
/// date: a zero date is 1292 in strict mode, else kept with warning 1264;
/// a zero month or day is 1292 in strict mode, else the zero date with
/// warning 1265. Without those modes both are stored as given.
fn check_zero_parts(
    t: Temporal,
    v: &Value,
    kind: &'static str,
    column: &ColumnDef,
    strict: bool,
    env: &dyn EvalEnv,
) -> SqlResult<Temporal> {
    let zero_date = t.year == 0 && t.month == 0 && t.day == 0;
    if zero_date && env.sql_mode_has("NO_ZERO_DATE") {
        let issue = if strict { Issue::BadTemporal(kind) } else { Issue::OutOfRange };
        report(issue, v, column, strict, env)?;
        return Ok(t);
    }
    if !zero_date && (t.month == 0 || t.day == 0) && env.sql_mode_has("NO_ZERO_IN_DATE") {
        let issue = if strict { Issue::BadTemporal(kind) } else { Issue::Truncated };
        report(issue, v, column, strict, env)?;
        return Ok(Temporal::default());
    }
    Ok(t)
}

fn report_cut<T>(
    scanned: Scanned<T>,
    issue: Issue,
    v: &Value,
    column: &ColumnDef,
    strict: bool,
    env: &dyn EvalEnv,
) -> SqlResult<T> {
    match scanned.cut {
        Cut::Nothing => {}
        Cut::FractionDigits | Cut::DatePart => truncation_note(column, env),
        Cut::Text => report(issue, v, column, strict, env)?,
    }
    Ok(scanned.value)
}

/// Converts a value for storage in `column`: range and length checks,
/// string→number, number→string, dates. In strict mode an impossible
/// conversion is an error (1264, 1366, 1406, 1292); otherwise it is clamped
/// or truncated with a warning through `env`.
pub fn coerce_to_column(v: Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    coerce(v, column, strict, true, env)
}

/// As [`coerce_to_column`], for a stored program's variable or a trigger's
/// `NEW.col`: MariaDB notes no rounded DECIMAL or dropped time of day there.
pub fn coerce_to_variable(v: Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    coerce(v, column, strict, false, env)
}

fn coerce(v: Value, column: &ColumnDef, strict: bool, notes: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    match &column.ty {
        ColumnType::TinyInt | ColumnType::SmallInt | ColumnType::MediumInt | ColumnType::Int | ColumnType::BigInt => {
            coerce_int(v, column, strict, env)
        }
        ColumnType::Year => coerce_year(v, column, strict, env),
        ColumnType::Bit(bits) => coerce_bit(v, *bits, column, strict, env),
        ColumnType::Set(members) => coerce_set(v, members, column, strict, env),
        ColumnType::Decimal { precision, scale } => {
            let d = match &v {
                Value::Bytes(b) => {
                    let (d, complete) = parse_decimal_prefix(b);
                    match d {
                        None if super::numeric_prefix_len(b, true) > 0 => {
                            Decimal::saturated(super::parse_f64_prefix(b).0 < 0.0)
                        }
                        None => {
                            report(Issue::WrongValue("decimal"), &v, column, strict, env)?;
                            Decimal::ZERO
                        }
                        Some(d) => {
                            if !complete {
                                report(Issue::Truncated, &v, column, strict, env)?;
                            }
                            d
                        }
                    }
                }
                Value::Double(f) if !f.is_finite() => Decimal::ZERO,
                other => match to_num(other, &NoWarn) {
                    Some(Num::F(f)) => match Decimal::try_from(f) {
                        Ok(d) => d,
                        Err(_) => {
                            report(Issue::OutOfRange, &v, column, strict, env)?;
                            Decimal::saturated(f < 0.0)
                        }
                    },
                    Some(n) => n.to_decimal().unwrap_or_default(),
                    None => return Ok(Value::Null),
                },
            };
            let (mut r, clamped) = decimal_fit(&d, *precision, *scale);
            if column.unsigned && r.is_sign_negative() && !r.is_zero() {
                report(Issue::OutOfRange, &v, column, strict, env)?;
                r = set_scale(Decimal::ZERO, u32::from(*scale));
            } else if clamped {
                report(Issue::OutOfRange, &v, column, strict, env)?;
            } else if r != d {
                // Rounding away digits past the scale is a note, even in strict mode.
                if notes {
                    truncation_note(column, env);
                }
            }
            Ok(Value::Decimal(r))
        }
        ColumnType::Float | ColumnType::Double => {
            let f = match &v {
                Value::Bytes(b) => {
                    let (f, _, complete) = super::parse_f64_prefix(b);
                    if !complete {
                        let end = super::numeric_prefix_len(b, true);
                        if end == 0 {
                            report(Issue::WrongValue("double"), &v, column, strict, env)?;
                        } else {
                            report(Issue::Truncated, &v, column, strict, env)?;
                        }
                    }
                    f
                }
                other => to_num(other, &NoWarn).map(|n| n.to_f64()).unwrap_or(0.0),
            };
            // A string's exponent can pass DOUBLE's range ('1e1000').
            let f = if f.is_infinite() {
                report(Issue::OutOfRange, &v, column, strict, env)?;
                f64::MAX.copysign(f)
            } else {
                f
            };
            let f = if column.unsigned && f < 0.0 {
                report(Issue::OutOfRange, &v, column, strict, env)?;
                0.0
            } else {
                f
            };
            let f = match column.float_digits {
                Some(digits) => {
                    let (rounded, clamped) = round_to_digits(f, digits);
                    if clamped {
                        report(Issue::OutOfRange, &v, column, strict, env)?;
                    }
                    rounded
                }
                None => f,
            };
            if matches!(column.ty, ColumnType::Float) {
                if f.abs() > f64::from(f32::MAX) {
                    report(Issue::OutOfRange, &v, column, strict, env)?;
                    return Ok(Value::Double(f64::from(f32::MAX).copysign(f)));
                }
                // The f32's shortest decimal form, so 1.1 stays 1.1.
                let short = format!("{}", f as f32);
                return Ok(Value::Double(short.parse().unwrap_or(f)));
            }
            Ok(Value::Double(f))
        }
        ColumnType::Char(n) => {
            // CHAR drops trailing spaces (they come back as padding).
            match coerce_string(v, column, u64::from(*n), true, strict, env)? {
                Value::Bytes(mut b) => {
                    let keep = b.len() - b.iter().rev().take_while(|c| **c == b' ').count();
                    b.truncate(keep);
                    Ok(Value::Bytes(b))
                }
                other => Ok(other),
            }
        }
        ColumnType::VarChar(n) => coerce_string(v, column, u64::from(*n), true, strict, env),
        ColumnType::Text(size) => coerce_string(v, column, size.max_bytes(), false, strict, env),
        // BINARY(n) holds n bytes, zero-padded (a table's row image drops
        // the padding and gives it back; a variable keeps it).
        ColumnType::Binary(n) => match coerce_string(v, column, u64::from(*n), false, strict, env)? {
            Value::Bytes(mut b) if b.len() < *n as usize => {
                b.resize(*n as usize, 0);
                Ok(Value::Bytes(b))
            }
            other => Ok(other),
        },
        ColumnType::VarBinary(n) => coerce_string(v, column, u64::from(*n), false, strict, env),
        ColumnType::Blob(size) => coerce_string(v, column, size.max_bytes(), false, strict, env),
        ColumnType::Uuid => coerce_uuid(v, column, strict, env),
        ColumnType::Date | ColumnType::DateTime { .. } | ColumnType::Timestamp { .. } => {
            let is_date = matches!(column.ty, ColumnType::Date);
            let kind = if is_date { "date" } else { "datetime" };
            let parsed = match &v {
                Value::Bytes(b) => scan_datetime(&String::from_utf8_lossy(b), false)
                    .map(|scanned| Scanned { value: scanned.value.0, cut: scanned.cut }),
                other => to_datetime(other, &NoWarn).map(|value| Scanned { value, cut: Cut::Nothing }),
            };
            let t = match parsed {
                Some(scanned) => report_cut(scanned, Issue::BadTemporal(kind), &v, column, strict, env)?,
                None => {
                    report(Issue::BadTemporal(kind), &v, column, strict, env)?;
                    Temporal::default()
                }
            };
            let t = check_zero_parts(t, &v, kind, column, strict, env)?;
            match column.ty {
                ColumnType::Date => {
                    let date = t.date();
                    // Dropping a time of day is a note, even in strict mode.
                    if notes && date != t {
                        truncation_note(column, env);
                    }
                    Ok(Value::Date(date))
                }
                ColumnType::Timestamp { fsp } => {
                    let t = cut_fraction(t, fsp, env);
                    // TIMESTAMP holds 1970-01-01 00:00:01 .. 2038-01-19 03:14:07 UTC;
                    // `t` is the session zone's wall clock.
                    let lo = Temporal { year: 1970, month: 1, day: 1, second: 1, ..Temporal::default() };
                    let hi =
                        Temporal { year: 2038, month: 1, day: 19, hour: 3, minute: 14, second: 7, micros: 999_999 };
                    let in_range = session_zone(env).local_to_utc(&t).is_some_and(|utc| utc >= lo && utc <= hi);
                    if t != Temporal::default() && !in_range {
                        if strict {
                            return Err(SqlError::new(
                                ErrorCode::TRUNCATED_WRONG_VALUE,
                                format!(
                                    "Incorrect datetime value: '{}' for column {} at row {}",
                                    String::from_utf8_lossy(&value_bytes(&v)),
                                    qualified_column(&column.name),
                                    env.warning_row()
                                ),
                            ));
                        }
                        report(Issue::OutOfRange, &v, column, false, env)?;
                        return Ok(Value::DateTime(Temporal::default()));
                    }
                    Ok(Value::DateTime(t))
                }
                ColumnType::DateTime { fsp } => Ok(Value::DateTime(cut_fraction(t, fsp, env))),
                _ => Ok(Value::DateTime(t)),
            }
        }
        ColumnType::Time { fsp } => {
            let parsed = match &v {
                Value::Bytes(b) => scan_time(&String::from_utf8_lossy(b)),
                Value::DateTime(t) => Some(Scanned { value: time_of(t), cut: Cut::Nothing }),
                Value::Date(_) | Value::Time(_) => {
                    to_time(&v, &NoWarn).map(|value| Scanned { value, cut: Cut::Nothing })
                }
                other => number_time(other, &NoWarn),
            };
            let us = match parsed {
                Some(scanned) => report_cut(scanned, Issue::BadTemporal("time"), &v, column, strict, env)?,
                None => {
                    report(Issue::BadTemporal("time"), &v, column, strict, env)?;
                    0
                }
            };
            use super::temporal::MAX_TIME;
            // Out of range is the limit with as many nines as the column
            // keeps fractional digits (838:59:59.999 for TIME(3)).
            let limit_us = MAX_TIME + 999_999 - 999_999 % 10i64.pow(6 - u32::from((*fsp).min(6)));
            let us = if us == i64::MIN || us.abs() > limit_us {
                // Strict mode calls it an incorrect value, others out of range.
                let issue = if strict { Issue::BadTemporal("time") } else { Issue::OutOfRange };
                report(issue, &v, column, strict, env)?;
                limit_us * us.signum()
            } else {
                us
            };
            Ok(Value::Time(cut_time_fraction(us, *fsp, env)))
        }
        ColumnType::Enum(labels) => {
            let found = match &v {
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
                    let i = super::to_i64_cast(&v, &NoWarn).unwrap_or(0);
                    usize::try_from(i).ok().filter(|i| *i >= 1).and_then(|i| labels.get(i - 1))
                }
                other => {
                    let s = String::from_utf8_lossy(&value_bytes(other)).into_owned();
                    let t = s.trim_end_matches(' ');
                    labels.iter().find(|l| {
                        super::compare_bytes(l.as_bytes(), t.as_bytes(), column.collation) == std::cmp::Ordering::Equal
                    })
                }
            };
            match found {
                Some(l) => Ok(Value::Bytes(l.clone().into_bytes())),
                None => {
                    report(Issue::Truncated, &v, column, strict, env)?;
                    // Non-strict MySQL stores the '' error value.
                    Ok(Value::Bytes(Vec::new()))
                }
            }
        }
    }
}

/// A FLOAT(M,D) / DOUBLE(M,D) value as MariaDB stores it: the fraction
/// rounded half-even to D decimals, then limited to ±(10^(M-D) - 10^-D);
/// true when it was limited.
fn round_to_digits(f: f64, digits: FloatDigits) -> (f64, bool) {
    if !f.is_finite() {
        return (f, false);
    }
    let scale = 10f64.powi(i32::from(digits.decimals));
    let whole = f.floor();
    let rounded = whole + ((f - whole) * scale).round_ties_even() / scale;
    let max = 10f64.powi(i32::from(digits.digits) - i32::from(digits.decimals)) - 1.0 / scale;
    if rounded.abs() > max {
        (max.copysign(rounded), true)
    } else {
        (rounded, false)
    }
}

/// Whether fractional seconds past a type's precision round (sql_mode
/// TIME_ROUND_FRACTIONAL) rather than being cut off, MariaDB's default.
fn rounds_fractions(env: &dyn EvalEnv) -> bool {
    match env.system_var(crate::ast::VarScope::Session, "sql_mode") {
        Ok(Value::Bytes(mode)) => mode.split(|b| *b == b',').any(|f| f == b"TIME_ROUND_FRACTIONAL"),
        _ => false,
    }
}

/// A date and time kept to `fsp` fractional digits, as a DATETIME(fsp) or
/// TIMESTAMP(fsp) stores it and CAST(.. AS DATETIME(fsp)) gives it.
pub(crate) fn cut_fraction(t: Temporal, fsp: u8, env: &dyn EvalEnv) -> Temporal {
    let unit = 10u32.pow(6 - u32::from(fsp.min(6)));
    if t.micros.is_multiple_of(unit) {
        return t;
    }
    if !rounds_fractions(env) {
        return Temporal { micros: t.micros / unit * unit, ..t };
    }
    let rounded = (t.micros + unit / 2) / unit * unit;
    if rounded >= 1_000_000 {
        let base = Temporal { micros: 0, ..t };
        super::temporal::add_micros(&base, 1_000_000).unwrap_or(base)
    } else {
        Temporal { micros: rounded, ..t }
    }
}

/// A TIME in microseconds kept to `fsp` fractional digits (cut toward
/// zero, or rounded under TIME_ROUND_FRACTIONAL), within TIME's range.
pub(crate) fn cut_time_fraction(us: i64, fsp: u8, env: &dyn EvalEnv) -> i64 {
    let unit = 10i64.pow(6 - u32::from(fsp.min(6)));
    if us % unit == 0 {
        return us;
    }
    let kept = if rounds_fractions(env) { (us as f64 / unit as f64).round() as i64 } else { us / unit };
    kept.saturating_mul(unit).clamp(-super::temporal::MAX_TIME, super::temporal::MAX_TIME)
}

fn coerce_int(v: Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let (lo, hi) = int_range(&column.ty, column.unsigned);
    let n: i128 = match &v {
        Value::Int(i) => i128::from(*i),
        Value::UInt(u) => i128::from(*u),
        Value::Bytes(b) => {
            let (d, complete) = parse_decimal_prefix(b);
            match d {
                None if super::numeric_prefix_len(b, true) > 0 => {
                    // Beyond DECIMAL's range, e.g. '1e100': saturate.
                    let f = super::parse_f64_prefix(b).0;
                    if f < 0.0 {
                        i128::MIN
                    } else {
                        i128::MAX
                    }
                }
                None => {
                    report(Issue::WrongValue("integer"), &v, column, strict, env)?;
                    0
                }
                Some(d) => {
                    if !complete {
                        report(Issue::Truncated, &v, column, strict, env)?;
                    }
                    round_decimal(d)
                }
            }
        }
        Value::Double(f) => {
            let r = f.round_ties_even();
            if r.is_nan() {
                0
            } else if r > 1e30 {
                i128::MAX
            } else if r < -1e30 {
                i128::MIN
            } else {
                r as i128
            }
        }
        other => match to_num(other, &NoWarn) {
            Some(Num::D(d)) => round_decimal(d),
            Some(n) => n.to_i128(),
            None => 0,
        },
    };
    let c = n.clamp(lo, hi);
    if c != n {
        report(Issue::OutOfRange, &v, column, strict, env)?;
    }
    Ok(if column.unsigned { Value::UInt(c as u64) } else { Value::Int(c as i64) })
}

fn round_decimal(d: Decimal) -> i128 {
    let r = d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
    r.to_i128().unwrap_or(if r.is_sign_negative() { i128::MIN } else { i128::MAX })
}

/// A value for BIT(bits), as MariaDB's Field_bit stores it: a string is its
/// bytes read as a big-endian number; a number its 64-bit two's complement
/// (so -1 fills BIT(64)), rounded first. What does not fit is out of range
/// and becomes all ones: error 1406 in strict mode, else warning 1264.
fn coerce_bit(v: Value, bits: u8, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let pattern: Option<u64> = match &v {
        Value::Bytes(b) => {
            let significant = &b[b.iter().take_while(|byte| **byte == 0).count()..];
            (significant.len() <= 8).then(|| significant.iter().fold(0u64, |n, byte| n << 8 | u64::from(*byte)))
        }
        Value::Int(i) => Some(*i as u64),
        Value::UInt(u) => Some(*u),
        other => Some(match to_num(other, &NoWarn) {
            Some(Num::D(d)) => round_decimal(d) as i64 as u64,
            Some(Num::F(f)) => f.round_ties_even() as i64 as u64,
            Some(n) => n.to_i128() as i64 as u64,
            None => 0,
        }),
    };
    let max = u64::MAX >> (64 - u32::from(bits));
    match pattern {
        Some(n) if n <= max => Ok(Value::UInt(n)),
        _ if strict => {
            let row = env.warning_row();
            Err(SqlError::new(
                ErrorCode::DATA_TOO_LONG,
                format!("Data too long for column '{}' at row {row}", column.name),
            ))
        }
        _ => {
            report(Issue::OutOfRange, &v, column, false, env)?;
            Ok(Value::UInt(max))
        }
    }
}

/// A value for SET(members), as MariaDB's Field_set stores it: a string
/// names members ('b,a', any order, repeated); one naming none that is a
/// whole integer is a bitmask; a number is the bitmask, its fraction
/// dropped. Unknown members and bits past the members are dropped with
/// 1265 (an error in strict mode).
fn coerce_set(v: Value, members: &[String], column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let full = full_mask(members);
    let (mask, lost) = match &v {
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => {
            let n = set_number(&v);
            (n & full, n & !full != 0)
        }
        other => {
            let text = value_bytes(other);
            let parsed = parse_set(members, column.collation, &text);
            match std::str::from_utf8(&text).ok().filter(|_| parsed.mask == 0 && !text.is_empty()) {
                Some(digits) => match digits.parse::<i64>().map(|i| i as u64).or_else(|_| digits.parse::<u64>()) {
                    Ok(n) => (n & full, n & !full != 0),
                    Err(_) => (0, true),
                },
                None => (parsed.mask, parsed.unknown),
            }
        }
    };
    if lost {
        report(Issue::Truncated, &v, column, strict, env)?;
    }
    Ok(Value::Bytes(set_text(members, mask).into_bytes()))
}

/// A number as a SET bitmask: its 64-bit two's complement, the fraction
/// truncated.
fn set_number(v: &Value) -> u64 {
    match v {
        Value::Int(i) => *i as u64,
        Value::UInt(u) => *u,
        Value::Decimal(d) => d.trunc().to_i128().map_or(u64::MAX, |i| i as u64),
        Value::Double(f) => f.trunc() as i64 as u64,
        _ => 0,
    }
}

fn coerce_year(v: Value, column: &ColumnDef, strict: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let (n, from_string) = match &v {
        Value::Bytes(b) => {
            let s = String::from_utf8_lossy(b);
            let (d, complete) = parse_decimal_prefix(b);
            match d {
                None => {
                    report(Issue::WrongValue("integer"), &v, column, strict, env)?;
                    return Ok(Value::Int(0));
                }
                Some(d) => {
                    if !complete {
                        report(Issue::Truncated, &v, column, strict, env)?;
                    }
                    // '0' / '00' as strings mean 2000.
                    (round_decimal(d), s.trim().len() <= 2)
                }
            }
        }
        Value::Date(t) | Value::DateTime(t) => (i128::from(t.year), false),
        other => (
            match to_num(other, &NoWarn) {
                Some(Num::D(d)) => round_decimal(d),
                Some(Num::F(f)) => f.round_ties_even() as i128,
                Some(n) => n.to_i128(),
                None => 0,
            },
            false,
        ),
    };
    let y = match n {
        0 if from_string => 2000,
        0 => 0,
        1..=69 => 2000 + n,
        70..=99 => 1900 + n,
        1901..=2155 => n,
        _ => {
            report(Issue::OutOfRange, &v, column, strict, env)?;
            0
        }
    };
    Ok(Value::Int(y as i64))
}

fn coerce_string(
    v: Value,
    column: &ColumnDef,
    max: u64,
    chars: bool,
    strict: bool,
    env: &dyn EvalEnv,
) -> SqlResult<Value> {
    let bytes = match v {
        Value::Bytes(b) => b,
        other => value_bytes(&other).into_owned(),
    };
    let binary_string = column.ty.is_binary_string();
    let len = if chars && !binary_string {
        String::from_utf8_lossy(&bytes).chars().count() as u64
    } else {
        bytes.len() as u64
    };
    if len <= max {
        return Ok(Value::Bytes(bytes));
    }
    // Truncation of trailing spaces only is not an error for CHAR/VARCHAR.
    let cut = if chars && !binary_string {
        let s = String::from_utf8_lossy(&bytes).into_owned();
        let idx = s.char_indices().nth(max as usize).map(|(i, _)| i).unwrap_or(s.len());
        idx
    } else {
        max as usize
    };
    let (head, tail) = bytes.split_at(cut.min(bytes.len()));
    if tail.iter().all(|b| *b == b' ') && !binary_string {
        truncation_note(column, env);
        return Ok(Value::Bytes(head.to_vec()));
    }
    report(Issue::TooLong, &Value::Null, column, strict, env)?;
    Ok(Value::Bytes(head.to_vec()))
}
