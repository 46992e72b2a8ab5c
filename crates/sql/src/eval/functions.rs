//! The scalar function library (`Expr::Function`).

use super::locale::{self, NumberStyle};
use super::temporal::{self, date_format, day_of_year, str_to_date, to_datetime, to_days, to_time, weekday};
use super::{
    bool_value, compare, eval, int_arg, set_scale, to_num, to_u64_bits, truth, truthy, value_bytes, value_string,
    EvalEnv, Num, Row, UserLockCall, MAX_ALLOWED_PACKET,
};
use crate::ast::{Expr, VarScope};
use crate::time_zone::TimeZone;
use onelog_core::decimal::{Decimal, RoundingStrategy};
use onelog_core::value::format_double;
use onelog_core::{ErrorCode, SqlError, SqlResult, Temporal, Value};
use sha2::Digest;
use std::cmp::Ordering;

fn param_count(name: &str) -> SqlError {
    SqlError::new(
        ErrorCode::WRONG_PARAMCOUNT_TO_NATIVE_FCT,
        format!("Incorrect parameter count in the call to native function '{}'", name.to_ascii_uppercase()),
    )
}

fn check_args(name: &str, n: usize, min: usize, max: usize) -> SqlResult<()> {
    if n < min || n > max {
        Err(param_count(name))
    } else {
        Ok(())
    }
}

/// Arity of each known function: (min, max). `usize::MAX` = variadic.
fn arity(name: &str) -> Option<(usize, usize)> {
    const V: usize = usize::MAX;
    Some(match name {
        "concat" => (1, V),
        "concat_ws" => (2, V),
        "length" | "octet_length" | "bit_length" | "char_length" | "character_length" | "upper" | "ucase" | "lower"
        | "lcase" | "trim" | "ltrim" | "rtrim" | "reverse" | "soundex" | "to_base64" | "from_base64" | "space"
        | "ascii" | "ord" | "hex" | "unhex" | "abs" | "ceil" | "ceiling" | "floor" | "sqrt" | "exp" | "ln"
        | "log10" | "log2" | "sign" | "crc32" | "date" | "time" | "year" | "month" | "day" | "dayofmonth" | "hour"
        | "minute" | "second" | "microsecond" | "dayofweek" | "dayofyear" | "weekday" | "quarter" | "to_days"
        | "dayname" | "monthname" | "last_day" | "isnull" | "bit_count" | "bin" | "oct" | "sleep" | "charset"
        | "collation" | "binary" | "radians" | "degrees" | "sin" | "cos" | "tan" | "asin" | "acos" | "cot"
        | "release_lock" | "is_free_lock" | "is_used_lock" | "time_to_sec" | "sec_to_time" | "from_days"
        | "coercibility" | "load_file" => (1, 1),
        "substring" | "substr" | "mid" => (2, 3),
        "left" | "right" | "repeat" | "ifnull" | "nullif" | "pow" | "power" | "datediff" | "date_format"
        | "str_to_date" | "find_in_set" | "strcmp" | "mod" | "get_lock" | "truncate" | "atan2" | "trim_chars"
        | "ltrim_chars" | "rtrim_chars" | "timediff" | "instr" | "position" | "binlog_gtid_pos" => (2, 2),
        "replace" | "if" | "conv" | "substring_index" => (3, 3),
        // MariaDB 10.3+ pads with spaces when the padding is left out.
        "lpad" | "rpad" => (2, 3),
        "insert" => (4, 4),
        "locate" => (2, 3),
        "coalesce" => (1, V),
        "greatest" | "least" | "elt" | "field" | "interval" => (2, V),
        "round" | "log" | "atan" => (1, 2),
        "format" => (2, 3),
        "rand" | "unix_timestamp" | "now" | "current_timestamp" | "sysdate" | "localtime" | "localtimestamp"
        | "curtime" | "current_time" | "utc_timestamp" | "utc_time" | "last_insert_id" => (0, 1),
        "from_unixtime" | "timestamp" => (1, 2),
        "convert_tz" => (3, 3),
        "pi" | "curdate" | "current_date" | "utc_date" | "database" | "schema" | "user" | "current_user"
        | "session_user" | "system_user" | "version" | "connection_id" | "row_count" | "found_rows" | "uuid"
        | "uuid_short" | "current_role" | "sys_guid" | "rownum" | "release_all_locks" => (0, 0),
        "timestampdiff" => (3, 3),
        "md5" | "sha1" | "sha" | "password" | "quote" | "weekofyear" | "inet_aton" | "inet_ntoa" | "to_seconds"
        | "inet6_aton" | "inet6_ntoa" | "is_ipv4" | "is_ipv6" | "is_ipv4_compat" | "is_ipv4_mapped" => (1, 1),
        "sha2" | "time_format" | "adddate" | "subdate" | "addtime" | "subtime" => (2, 2),
        "date_add" | "date_sub" => (3, 3),
        "maketime" => (3, 3),
        "char" => (1, V),
        "week" | "yearweek" => (1, 2),
        "makedate" | "extract" | "period_add" | "period_diff" | "get_format" | "benchmark" => (2, 2),
        "timestampadd" => (3, 3),
        _ => return None,
    })
}

/// Evaluations of BENCHMARK()'s expression between looks at KILL and
/// max_statement_time.
const BENCHMARK_KILL_CHECK_EVERY: u64 = 1024;

/// BENCHMARK(count, expr): evaluates `expr` `count` times and answers 0;
/// NULL for a NULL count, and NULL with warning 1411 for a negative one.
fn benchmark(count: &Expr, expr: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    let count_value = eval(count, row, env)?;
    if count_value.is_null() {
        return Ok(Value::Null);
    }
    let Some(times) = int_arg(&count_value, env).filter(|n| *n >= 0) else {
        env.warn(
            ErrorCode::WRONG_VALUE_FOR_TYPE.number,
            format!("Incorrect count value: '{}' for function benchmark", value_string(&count_value)),
        );
        return Ok(Value::Null);
    };
    for done in 0..times as u64 {
        if done % BENCHMARK_KILL_CHECK_EVERY == 0 {
            env.check_killed()?;
        }
        eval(expr, row, env)?;
    }
    Ok(Value::Int(0))
}

/// The parameter count MariaDB checks as it parses a call of a native
/// function (1582); other names (stored functions) pass.
pub(crate) fn check_param_count(name: &str, n: usize) -> SqlResult<()> {
    let limits = super::json::arity(name).or_else(|| super::regexp::arity(name)).or_else(|| arity(name));
    let Some((min, max)) = limits else {
        return Ok(());
    };
    check_args(name, n, min, max)?;
    if super::json::arity(name).is_some() && !super::json::count_fits(name, n) {
        return Err(param_count(name));
    }
    Ok(())
}

pub(super) fn call(name: &str, args: &[Expr], row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    check_param_count(name, args.len())?;
    if super::json::arity(name).is_some() {
        return super::json::call(name, args, row, env);
    }
    if super::regexp::arity(name).is_some() {
        return super::regexp::call(name, args, row, env);
    }
    if arity(name).is_none() {
        let eval_arg = |a: &Expr| eval(a, row, env);
        if let Some(result) = env.stored_function(name, args, &eval_arg) {
            return result;
        }
        let db = env.session_fact("database");
        return Err(SqlError::new(
            ErrorCode::SP_DOES_NOT_EXIST,
            match db {
                _ if name.contains('.') => format!("FUNCTION {name} does not exist"),
                Value::Null => format!("FUNCTION {name} does not exist"),
                d => format!("FUNCTION {}.{name} does not exist", value_string(&d)),
            },
        ));
    }
    // Lazily evaluated functions.
    match name {
        "if" => {
            let c = eval(&args[0], row, env)?;
            return if truth(&c, env) == Some(true) { eval(&args[1], row, env) } else { eval(&args[2], row, env) };
        }
        "ifnull" => {
            let a = eval(&args[0], row, env)?;
            return if a.is_null() { eval(&args[1], row, env) } else { Ok(a) };
        }
        "coalesce" => {
            for a in args {
                let v = eval(a, row, env)?;
                if !v.is_null() {
                    return Ok(v);
                }
            }
            return Ok(Value::Null);
        }
        "charset" | "collation" | "coercibility" => {
            return Ok(collation_function(name, &args[0], &eval(&args[0], row, env)?, env))
        }
        "benchmark" => return benchmark(&args[0], &args[1], row, env),
        _ => {}
    }
    // The functions that compare text do it under their arguments'
    // collation (1267 for an illegal mix, as MariaDB).
    let collation = match (name, args) {
        ("locate" | "instr" | "position" | "strcmp" | "find_in_set", [a, b, ..]) => super::pair_collation(a, b, name)?,
        _ => onelog_core::Collation::default(),
    };
    let mut vals: Vec<Value> = if takes_numbers(name) {
        args.iter().map(|a| super::hybrid::eval_number(a, row, env)).collect::<SqlResult<_>>()?
    } else {
        args.iter().map(|a| eval(a, row, env)).collect::<SqlResult<_>>()?
    };
    if works_on_bytes(name) {
        stored_bytes(args, &mut vals, env);
    }
    let value = call_values(name, &vals, collation, env)?;
    if matches!(name, "round" | "truncate") {
        return Ok(pad_round(value, args.get(1)));
    }
    Ok(value)
}

/// ROUND / TRUNCATE(decimal, d) with a constant `d` past the argument's
/// scale show `d` digits (`TRUNCATE(-0.5, 2)` is `-0.50`): MariaDB types the
/// result by the constant. A `d` read from a column only rounds.
fn pad_round(value: Value, digits: Option<&Expr>) -> Value {
    match (value, digits) {
        (Value::Decimal(mut d), Some(Expr::Literal(Value::Int(n)))) => {
            if let Some(scale) = u32::try_from(*n).ok().filter(|s| *s > d.scale() && *s <= 28) {
                d.rescale(scale);
            }
            Value::Decimal(d)
        }
        (value, _) => value,
    }
}

fn s_of(v: &Value) -> String {
    value_string(v)
}

fn bytes(v: Vec<u8>) -> Value {
    Value::Bytes(v)
}

fn text(s: String) -> Value {
    Value::Bytes(s.into_bytes())
}

fn packet_guard(name: &str, len: u64, env: &dyn EvalEnv) -> bool {
    if len > MAX_ALLOWED_PACKET as u64 {
        env.warn(
            1301,
            format!("Result of {name}() was larger than max_allowed_packet ({MAX_ALLOWED_PACKET}) - truncated"),
        );
        false
    } else {
        true
    }
}

/// MariaDB's SOUNDEX: the first letter, then the code of each later
/// letter that differs from the last code written (vowels, H, W, Y and
/// letters outside A-Z write nothing), padded with `0` to four characters;
/// not cut to four. No letter at all is the empty string.
fn soundex(s: &str) -> String {
    const CODES: &[u8; 26] = b"01230120022455012623010202";
    let code =
        |c: char| if c.is_ascii_alphabetic() { CODES[usize::from(c.to_ascii_uppercase() as u8 - b'A')] } else { b'0' };
    let mut letters = s.chars().filter(|c| c.is_alphabetic());
    let Some(first) = letters.next() else { return String::new() };
    let mut out = String::from(first.to_ascii_uppercase());
    let mut last = code(first);
    for c in letters {
        let digit = code(c);
        if digit != b'0' && digit != last {
            out.push(char::from(digit));
            last = digit;
        }
    }
    while out.chars().count() < 4 {
        out.push('0');
    }
    out
}

/// MariaDB's TO_BASE64: padded, a line break after every 76 characters.
fn to_base64(data: &[u8]) -> String {
    use base64::Engine;
    const LINE_CHARS: usize = 76;
    let encoded = base64::engine::general_purpose::STANDARD.encode(data);
    let lines: Vec<&str> = encoded.as_bytes().chunks(LINE_CHARS).filter_map(|l| std::str::from_utf8(l).ok()).collect();
    lines.join("\n")
}

/// MariaDB's FROM_BASE64: whitespace is skipped and the padding required;
/// bad data is the position (in the text without whitespace) where
/// decoding failed.
fn from_base64(text: &[u8]) -> Result<Vec<u8>, usize> {
    use base64::{DecodeError, Engine};
    let compact: Vec<u8> = text.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD.decode(&compact).map_err(|e| match e {
        DecodeError::InvalidByte(at, _) | DecodeError::InvalidLastSymbol(at, _) => at,
        DecodeError::InvalidLength(_) | DecodeError::InvalidPadding => compact.len(),
    })
}

fn f64_of(v: &Value, env: &dyn EvalEnv) -> Option<f64> {
    to_num(v, env).map(|n| match n {
        Num::I(i) => i as f64,
        Num::U(u) => u as f64,
        Num::D(d) => d.to_f64().unwrap_or(0.0),
        Num::F(f) => f,
    })
}

fn double(f: f64) -> Value {
    if f.is_finite() {
        Value::Double(f)
    } else {
        Value::Null
    }
}

fn opt_int(o: Option<i64>) -> Value {
    o.map(Value::Int).unwrap_or(Value::Null)
}

/// SUBSTRING semantics on characters: 1-based `pos`, negative from the end.
fn substring(s: &str, pos: i64, len: Option<i64>) -> String {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len() as i64;
    let start = if pos > 0 {
        pos - 1
    } else if pos < 0 {
        n + pos
    } else {
        return String::new();
    };
    if start < 0 || start >= n {
        return String::new();
    }
    let len = len.unwrap_or(n);
    if len <= 0 {
        return String::new();
    }
    let end = start.saturating_add(len).min(n);
    chars[start as usize..end as usize].iter().collect()
}

/// `v` as HOUR(), MINUTE(), SECOND() and MICROSECOND() read it.
enum ClockValue {
    /// A TIME, or a string that reads as one: its hours may pass 23.
    Span(i64),
    /// A DATETIME.
    Moment(Temporal),
}

/// Reads `v` once, with its warnings. HOUR('10:05:03') reads a TIME (past
/// 838:59:59 cut to it with warning 1292; one that is no time is NULL
/// with its warning, not read again as a DATETIME, as in MariaDB);
/// HOUR('2024-01-02 10:05') reads a DATETIME.
fn clock_value(v: &Value, env: &dyn EvalEnv) -> Option<ClockValue> {
    match v {
        Value::Time(us) => Some(ClockValue::Span(*us)),
        Value::Bytes(_) if looks_like_time(v) => to_time(v, env).map(ClockValue::Span),
        _ => to_datetime(v, env).map(ClockValue::Moment),
    }
}

/// [`clock_value`] as clock fields (a TIME's hours capped at 255).
fn temporal_field(v: &Value, env: &dyn EvalEnv) -> Option<Temporal> {
    Some(match clock_value(v, env)? {
        ClockValue::Span(us) => {
            let a = us.unsigned_abs();
            let secs = a / 1_000_000;
            Temporal {
                hour: (secs / 3600).min(255) as u8,
                minute: (secs / 60 % 60) as u8,
                second: (secs % 60) as u8,
                micros: (a % 1_000_000) as u32,
                ..Temporal::default()
            }
        }
        ClockValue::Moment(t) => t,
    })
}

/// `amount` `unit`s added to (`negate`: taken from) a date or datetime, as
/// DATE_ADD, DATE_SUB, ADDDATE, SUBDATE and `± INTERVAL` do. Month-based
/// units keep the day of the month, clamped to the target month's last day;
/// a DATE (or a date-only string or number) stays a DATE for units of a day
/// or longer. NULL for a NULL or zero date and outside years 0–9999.
fn add_interval(base: &Value, amount: &Value, unit: &str, negate: bool, env: &dyn EvalEnv) -> SqlResult<Value> {
    let date_only = match base {
        Value::Date(_) | Value::Int(_) | Value::UInt(_) => true,
        Value::Bytes(b) => !b.contains(&b':') && b.len() <= 10,
        _ => false,
    };
    let Some(t) = date_part(base, env).filter(|t| t.month > 0 && t.day > 0) else {
        return Ok(Value::Null);
    };
    let keeps_date = matches!(unit, "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAY" | "YEAR_MONTH");
    // A NULL amount or a malformed compound one is NULL without a warning.
    let Some((months, micros)) = interval_shift(amount, unit, env) else { return Ok(Value::Null) };
    let (months, micros) = if negate { (months.saturating_neg(), micros.saturating_neg()) } else { (months, micros) };
    let moved = add_months(&t, months).and_then(|t| temporal::add_micros(&t, micros));
    Ok(match moved {
        Some(t) if date_only && keeps_date => Value::Date(t),
        Some(t) => Value::DateTime(t),
        None => {
            let overflow = "Datetime function: datetime field overflow";
            env.warning_or_error(ErrorCode::DATETIME_FUNCTION_OVERFLOW, overflow)?;
            Value::Null
        }
    })
}

/// What `amount` `unit`s move a date by: (months, microseconds).
fn interval_shift(amount: &Value, unit: &str, env: &dyn EvalEnv) -> Option<(i64, i64)> {
    const DAY_US: i64 = 86_400_000_000;
    if unit.contains('_') {
        return temporal::compound_interval(&value_string(amount), unit);
    }
    let n = if unit == "SECOND" { seconds_as_micros(amount, env) } else { int_arg(amount, env) }?;
    // What one unit moves: (months, microseconds).
    let (unit_months, unit_us) = match unit {
        "YEAR" => (12, 0),
        "QUARTER" => (3, 0),
        "MONTH" => (1, 0),
        "WEEK" => (0, 7 * DAY_US),
        "DAY" => (0, DAY_US),
        "HOUR" => (0, 3_600_000_000),
        "MINUTE" => (0, 60_000_000),
        "SECOND" | "MICROSECOND" => (0, 1), // a SECOND amount is already in microseconds
        _ => return None,                   // the parser admits no other unit
    };
    // Amounts past any date's reach saturate (and then overflow the date).
    Some((n.saturating_mul(unit_months), n.saturating_mul(unit_us)))
}

/// An INTERVAL ... SECOND amount, which may have a fraction, in microseconds;
/// digits past the microsecond are dropped, as MariaDB drops them
/// (`INTERVAL 0.0000029 SECOND` adds 2 microseconds, `-0.0000019` takes 1).
fn seconds_as_micros(amount: &Value, env: &dyn EvalEnv) -> Option<i64> {
    let limit = Decimal::from(1_i64 << 40);
    let secs = match to_num(amount, env)? {
        Num::I(i) => Decimal::from(i),
        Num::U(u) => Decimal::from(u),
        Num::D(d) => d,
        Num::F(f) => Decimal::from_f64(f)?,
    };
    (secs.clamp(-limit.clone(), limit) * Decimal::from(1_000_000)).trunc().to_i64()
}

/// `t` moved by `months`, its day clamped to the target month's length.
fn add_months(t: &Temporal, months: i64) -> Option<Temporal> {
    let index = (i64::from(t.year) * 12 + i64::from(t.month) - 1).checked_add(months)?;
    let (year, month) = (index.div_euclid(12), (index.rem_euclid(12) + 1) as u8);
    if !(0..=9999).contains(&year) {
        return None;
    }
    let day = t.day.min(temporal::days_in_month(year, month));
    Some(Temporal { year: year as u16, month, day, ..*t })
}

/// EXTRACT(unit FROM v). A TIME (or time-like string, read as an interval
/// whose hours may pass 838) has no date: its DAY is its hours / 24, YEAR
/// and MONTH are 0, and its sign applies to every field.
fn extract(unit: &str, v: &Value, env: &dyn EvalEnv) -> Value {
    let time_us = match v {
        Value::Time(us) => Some(*us),
        Value::Bytes(_) if looks_like_time(v) => match temporal::string_interval(v, env) {
            Some(us) => Some(us),
            None => return Value::Null,
        },
        _ => None,
    };
    let (t, sign, day) = match time_us {
        Some(us) => {
            let a = us.unsigned_abs();
            let hours = (a / 3_600_000_000) as i64;
            let t = Temporal {
                hour: (hours % 24) as u8,
                minute: (a / 60_000_000 % 60) as u8,
                second: (a / 1_000_000 % 60) as u8,
                micros: (a % 1_000_000) as u32,
                ..Temporal::default()
            };
            (t, if us < 0 { -1 } else { 1 }, hours / 24)
        }
        None => match date_part(v, env) {
            Some(t) => (t, 1, i64::from(t.day)),
            None => return Value::Null,
        },
    };
    let (h, m, sec, us) = (i64::from(t.hour), i64::from(t.minute), i64::from(t.second), i64::from(t.micros));
    let hms = h * 10_000 + m * 100 + sec;
    let n = match unit {
        "YEAR" => i64::from(t.year),
        "QUARTER" => (i64::from(t.month) + 2) / 3,
        "MONTH" => i64::from(t.month),
        "WEEK" if t.month == 0 || t.day == 0 => 0,
        "WEEK" => temporal::week_of(&t, 0, false).1,
        "DAY" => day,
        "HOUR" => h,
        "MINUTE" => m,
        "SECOND" => sec,
        "MICROSECOND" => us,
        "YEAR_MONTH" => i64::from(t.year) * 100 + i64::from(t.month),
        "DAY_HOUR" => day * 100 + h,
        "DAY_MINUTE" => day * 10_000 + h * 100 + m,
        "DAY_SECOND" => day * 1_000_000 + hms,
        "DAY_MICROSECOND" => (day * 1_000_000 + hms) * 1_000_000 + us,
        "HOUR_MINUTE" => h * 100 + m,
        "HOUR_SECOND" => hms,
        "HOUR_MICROSECOND" => hms * 1_000_000 + us,
        "MINUTE_SECOND" => m * 100 + sec,
        "MINUTE_MICROSECOND" => (m * 100 + sec) * 1_000_000 + us,
        "SECOND_MICROSECOND" => sec * 1_000_000 + us,
        _ => return Value::Null, // the parser admits no other unit
    };
    Value::Int(sign * n)
}

/// A string holding a TIME rather than a date: 'hh:mm:ss', '-30:05:03'.
fn looks_like_time(v: &Value) -> bool {
    let s = value_string(v);
    let s = s.trim();
    let body = s.strip_prefix('-').unwrap_or(s);
    match body.split_once(':') {
        Some((head, _)) => !body.contains('-') && head.trim().bytes().all(|c| c.is_ascii_digit() || c == b' '),
        None => false,
    }
}

/// GET_FORMAT(DATE|TIME|DATETIME|TIMESTAMP, 'EUR'|'USA'|'JIS'|'ISO'|'INTERNAL').
fn get_format(kind: &str, standard: &str) -> Option<&'static str> {
    let kind = if kind.eq_ignore_ascii_case("TIMESTAMP") { "DATETIME" } else { kind };
    Some(match (kind.to_ascii_uppercase().as_str(), standard.to_ascii_uppercase().as_str()) {
        ("DATE", "USA") => "%m.%d.%Y",
        ("DATE", "JIS" | "ISO") => "%Y-%m-%d",
        ("DATE", "EUR") => "%d.%m.%Y",
        ("DATE", "INTERNAL") => "%Y%m%d",
        ("DATETIME", "USA" | "EUR") => "%Y-%m-%d %H.%i.%s",
        ("DATETIME", "JIS" | "ISO") => "%Y-%m-%d %H:%i:%s",
        ("DATETIME", "INTERNAL") => "%Y%m%d%H%i%s",
        ("TIME", "USA") => "%h:%i:%s %p",
        ("TIME", "JIS" | "ISO") => "%H:%i:%s",
        ("TIME", "EUR") => "%H.%i.%s",
        ("TIME", "INTERNAL") => "%H%i%s",
        _ => return None,
    })
}

/// SEC_TO_TIME: seconds (with their fraction, cut to microseconds) as a
/// TIME, limited to ±838:59:59 and as many nines of a second as the
/// argument has fractional digits (838:59:59.99999 for 3020399.99999).
/// A value past the limit is warned about (1292), as MariaDB does.
fn seconds_to_time_micros(seconds: Num, env: &dyn EvalEnv) -> i64 {
    let fraction_digits = match &seconds {
        Num::I(_) | Num::U(_) => 0,
        Num::D(d) => d.scale().min(6),
        Num::F(_) => 6,
    };
    let limit_us = temporal::MAX_TIME + (999_999 - 999_999 % 10i64.pow(6 - fraction_digits));
    let us = match &seconds {
        Num::I(i) => i.saturating_mul(1_000_000),
        Num::U(u) => i64::try_from(*u).unwrap_or(i64::MAX).saturating_mul(1_000_000),
        Num::D(d) => {
            let overflow = if d.is_sign_negative() { i64::MIN } else { i64::MAX };
            (d.clone() * Decimal::from(1_000_000)).trunc().to_i64().unwrap_or(overflow)
        }
        Num::F(f) => (f * 1e6).round() as i64,
    };
    if !(-limit_us..=limit_us).contains(&us) {
        let shown = match seconds {
            Num::I(i) => i.to_string(),
            Num::U(u) => u.to_string(),
            Num::D(mut d) => {
                d.rescale(6);
                d.to_string()
            }
            Num::F(f) => onelog_core::value::format_double(f),
        };
        env.warn(1292, format!("Truncated incorrect seconds value: '{shown}'"));
    }
    us.clamp(-limit_us, limit_us)
}

fn date_part(v: &Value, env: &dyn EvalEnv) -> Option<Temporal> {
    match v {
        Value::Time(_) => None,
        other => to_datetime(other, env),
    }
}

fn round_value(v: &Value, d: i64, truncate: bool, env: &dyn EvalEnv) -> Value {
    let strategy = if truncate { RoundingStrategy::ToZero } else { RoundingStrategy::MidpointAwayFromZero };
    match to_num(v, env) {
        None => Value::Null,
        Some(Num::I(i)) => {
            if d >= 0 {
                return Value::Int(i);
            }
            let p = 10i128.checked_pow(d.unsigned_abs().min(38) as u32).unwrap_or(i128::MAX);
            let r = round_i128(i128::from(i), p, truncate);
            Value::Int(i64::try_from(r).unwrap_or(0))
        }
        Some(Num::U(u)) => {
            if d >= 0 {
                return Value::UInt(u);
            }
            let p = 10i128.checked_pow(d.unsigned_abs().min(38) as u32).unwrap_or(i128::MAX);
            let r = round_i128(i128::from(u), p, truncate);
            Value::UInt(u64::try_from(r).unwrap_or(0))
        }
        Some(Num::D(x)) => {
            if d >= 0 {
                let sc = (d as u32).min(38);
                let mut r = x.round_dp_with_strategy(sc, strategy);
                // ROUND(decimal, d) keeps min(d, scale) digits (see `pad_round`).
                r.rescale(sc.min(x.scale()));
                Value::Decimal(r)
            } else {
                // Past 65 digits every DECIMAL rounds to 0.
                let p = Decimal::power_of_ten(d.unsigned_abs().min(66) as u32);
                let Some(mut q) =
                    x.checked_div(p.clone()).and_then(|q| q.round_dp_with_strategy(0, strategy).checked_mul(p))
                else {
                    return Value::Null;
                };
                q.rescale(0);
                Value::Decimal(q)
            }
        }
        Some(Num::F(f)) => {
            // As MariaDB's my_double_round: scale, rint (half to even), unscale.
            let p = 10f64.powi(d.unsigned_abs().min(308) as i32);
            let scaled = if d >= 0 { f * p } else { f / p };
            let r = if truncate { scaled.trunc() } else { scaled.round_ties_even() };
            let r = if !scaled.is_finite() {
                f
            } else if d >= 0 {
                r / p
            } else {
                r * p
            };
            double(if r.is_finite() { r } else { f })
        }
    }
}

fn round_i128(v: i128, p: i128, truncate: bool) -> i128 {
    let q = v / p;
    let r = v % p;
    let adj = if !truncate && r.abs() * 2 >= p { v.signum() } else { 0 };
    (q + adj) * p
}

fn format_number(v: &Value, d: i64, style: NumberStyle, env: &dyn EvalEnv) -> Option<String> {
    let d = d.clamp(0, 30) as u32;
    let dec = match to_num(v, env)? {
        Num::F(f) => Decimal::from_f64(f).unwrap_or_default(),
        n => n.to_decimal().unwrap_or_default(),
    };
    let r = set_scale(dec, d.min(28));
    let s = r.abs().to_string();
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s, None),
    };
    let mut out = String::new();
    if r.is_sign_negative() && !r.is_zero() {
        out.push('-');
    }
    out.push_str(&locale::group_digits(&int, style));
    if let Some(f) = frac {
        out.push(style.decimal_point);
        out.push_str(&f);
    }
    Some(out)
}

/// FORMAT's third argument: an unknown (or NULL) locale is en_US, with
/// warning 1649.
fn format_style(locale: Option<&Value>, env: &dyn EvalEnv) -> NumberStyle {
    let Some(v) = locale else { return locale::EN_US };
    let name = if v.is_null() { "NULL".to_string() } else { value_string(v) };
    locale::number_style(&name).unwrap_or_else(|| {
        env.warn(1649, format!("Unknown locale: '{name}'"));
        locale::EN_US
    })
}

/// Lower-case hex of a digest, as MD5()/SHA1()/SHA2() return it.
fn hex_digest(digest: &[u8]) -> Value {
    text(digest.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

fn conv(s: &str, from: i64, to: i64) -> Option<String> {
    let fb = from.unsigned_abs();
    let tb = to.unsigned_abs();
    if !(2..=36).contains(&fb) || !(2..=36).contains(&tb) {
        return None;
    }
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let mut v: u64 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(36).filter(|d| u64::from(*d) < fb) else {
            break;
        };
        v = v.saturating_mul(fb).saturating_add(u64::from(d));
    }
    let mut val = if neg { (v as i64).wrapping_neg() as u64 } else { v };
    let mut neg_out = false;
    if to < 0 && (val as i64) < 0 {
        neg_out = true;
        val = (val as i64).unsigned_abs();
    }
    if val == 0 {
        return Some("0".into());
    }
    let mut out = Vec::new();
    while val > 0 {
        let d = (val % tb) as u32;
        out.push(std::char::from_digit(d, 36).unwrap_or('0').to_ascii_uppercase());
        val /= tb;
    }
    if neg_out {
        out.push('-');
    }
    Some(out.iter().rev().collect())
}

/// GREATEST / LEAST over dates and strings compare as dates, as MariaDB
/// aggregates DATE or DATETIME with text to the temporal type: the result
/// is a DATE when every temporal argument is one, else a DATETIME, and a
/// string that is no date counts as the zero date.
fn temporal_minmax(vals: &[Value], want: Ordering, env: &dyn EvalEnv) -> Option<Value> {
    let temporal = |v: &Value| matches!(v, Value::Date(_) | Value::DateTime(_));
    if !vals.iter().any(temporal) || !vals.iter().all(|v| temporal(v) || matches!(v, Value::Bytes(_))) {
        return None;
    }
    let as_temporal = |v: &Value| to_datetime(v, env).unwrap_or_default();
    let mut best = as_temporal(&vals[0]);
    for v in &vals[1..] {
        let t = as_temporal(v);
        if t.cmp(&best) == want {
            best = t;
        }
    }
    if vals.iter().any(|v| matches!(v, Value::DateTime(_))) {
        return Some(Value::DateTime(best));
    }
    Some(Value::Date(best.date()))
}

fn minmax(vals: &[Value], want: Ordering, env: &dyn EvalEnv) -> Value {
    if vals.iter().any(Value::is_null) {
        return Value::Null;
    }
    if let Some(r) = temporal_minmax(vals, want, env) {
        return r;
    }
    let all_int = vals.iter().all(|v| matches!(v, Value::Int(_) | Value::UInt(_)));
    let any_str = vals.iter().any(|v| matches!(v, Value::Bytes(_)));
    let all_str = vals.iter().all(|v| matches!(v, Value::Bytes(_)));
    let any_f = vals.iter().any(|v| matches!(v, Value::Double(_)));
    let mut best = vals[0].clone();
    for v in &vals[1..] {
        let o = if any_str && !all_str {
            // Mixed strings and numbers compare as doubles.
            let a = f64_of(v, &super::NoWarn).unwrap_or(0.0);
            let b = f64_of(&best, &super::NoWarn).unwrap_or(0.0);
            a.partial_cmp(&b)
        } else {
            compare(v, &best)
        };
        if o == Some(want) {
            best = v.clone();
        }
    }
    if any_str && !all_str {
        // Result type is DOUBLE when numbers are mixed with strings.
        return double(f64_of(&best, &super::NoWarn).unwrap_or(0.0));
    }
    if !all_int && !all_str {
        if any_f {
            return double(f64_of(&best, &super::NoWarn).unwrap_or(0.0));
        }
        if vals.iter().any(|v| matches!(v, Value::Decimal(_))) {
            let max_scale = vals
                .iter()
                .filter_map(|v| if let Value::Decimal(d) = v { Some(d.scale()) } else { None })
                .max()
                .unwrap_or(0);
            if let Some(d) = to_num(&best, &super::NoWarn).and_then(|n| n.to_decimal()) {
                let mut d = d;
                d.rescale(max_scale);
                return Value::Decimal(d);
            }
        }
    }
    best
}

/// UNIX_TIMESTAMP(expr): `t` is a wall-clock time of the session zone;
/// NULL outside TIMESTAMP's range of seconds, as in MariaDB.
fn unix_ts(t: &Temporal, zone: TimeZone) -> Value {
    let us = zone.local_to_unix_micros(t);
    if !(0..=MAX_TIMESTAMP_SECS * 1_000_000 + 999_999).contains(&us) {
        return Value::Null;
    }
    if us % 1_000_000 == 0 {
        Value::Int(us / 1_000_000)
    } else {
        Value::Decimal(Decimal::new(us, 6))
    }
}

/// A CONVERT_TZ() zone argument; an unknown zone makes the result NULL.
fn zone_arg(v: &Value) -> Option<TimeZone> {
    TimeZone::parse(&s_of(v))
}

/// CONVERT_TZ(): MariaDB converts only times whose instant a TIMESTAMP can
/// hold and returns the others unchanged.
fn convert_tz(t: &Temporal, from: TimeZone, to: TimeZone) -> Temporal {
    let us = from.local_to_unix_micros(t);
    if !(0..=MAX_TIMESTAMP_SECS * 1_000_000 + 999_999).contains(&us) {
        return *t;
    }
    temporal::from_unix_micros(us).map_or(*t, |utc| to.utc_to_local(&utc))
}

/// The last second a TIMESTAMP holds: 2038-01-19 03:14:07 UTC.
const MAX_TIMESTAMP_SECS: i64 = 2_147_483_647;

/// The session's `@@time_zone` (SYSTEM without a session).
pub(crate) fn session_zone(env: &dyn EvalEnv) -> TimeZone {
    match env.system_var(VarScope::Session, "time_zone") {
        Ok(Value::Bytes(b)) => std::str::from_utf8(&b).ok().and_then(TimeZone::parse).unwrap_or(TimeZone::System),
        _ => TimeZone::System,
    }
}

/// The statement's start time in UTC: `session_fact("now")` if the
/// executor provides one (so NOW() is constant within a statement), else
/// the clock.
fn statement_now_utc(env: &dyn EvalEnv) -> Temporal {
    match env.session_fact("now") {
        Value::DateTime(t) => t,
        _ => temporal::now_utc(),
    }
}

/// The clock for a NOW()-like function: UTC for the UTC_* ones, else the
/// session zone's wall clock.
fn now_value(name: &str, fsp: i64, env: &dyn EvalEnv) -> Value {
    let utc = if name == "sysdate" { temporal::now_utc() } else { statement_now_utc(env) };
    let mut t = if name.starts_with("utc_") { utc } else { session_zone(env).utc_to_local(&utc) };
    let fsp = fsp.clamp(0, 6) as u32;
    let unit = 10u32.pow(6 - fsp);
    t.micros = t.micros / unit * unit;
    match name {
        "curtime" | "current_time" | "utc_time" => Value::Time(temporal::time_of(&t)),
        _ => Value::DateTime(t),
    }
}

/// GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK, IS_USED_LOCK (see `user_locks`):
/// NULL for a NULL or empty name, as in MariaDB; a GET_LOCK timeout that is
/// NULL or negative is NULL with warning 1411 (MariaDB has no endless wait).
fn user_lock_fn(name: &str, a: &[Value], env: &dyn EvalEnv) -> SqlResult<Value> {
    let lock = value_bytes(&a[0]);
    if a[0].is_null() || lock.is_empty() {
        return Ok(Value::Null);
    }
    crate::user_locks::check_name(&lock)?;
    let call = match name {
        "get_lock" => {
            let seconds = if a[1].is_null() { None } else { f64_of(&a[1], env) };
            let Some(seconds) = seconds.filter(|s| *s >= 0.0) else {
                let shown = if a[1].is_null() { "NULL".to_string() } else { value_string(&a[1]) };
                env.warn(
                    ErrorCode::WRONG_VALUE_FOR_TYPE.number,
                    format!("Incorrect timeout value: '{shown}' for function get_lock"),
                );
                return Ok(Value::Null);
            };
            let timeout = std::time::Duration::from_secs_f64(seconds.min(crate::kill::MAX_STATEMENT_TIME_S));
            UserLockCall::Get { name: &lock, timeout }
        }
        "release_lock" => UserLockCall::Release(&lock),
        "is_free_lock" => UserLockCall::IsFree(&lock),
        _ => UserLockCall::IsUsed(&lock),
    };
    env.user_lock(call)
}

/// Applies a function to evaluated arguments.
pub fn call_values(name: &str, a: &[Value], collation: onelog_core::Collation, env: &dyn EvalEnv) -> SqlResult<Value> {
    // Functions that are not NULL-propagating.
    match name {
        "concat_ws" => {
            if a[0].is_null() {
                return Ok(Value::Null);
            }
            let sep = value_bytes(&a[0]).into_owned();
            let mut out = Vec::new();
            let mut first = true;
            for v in &a[1..] {
                if v.is_null() {
                    continue;
                }
                if !first {
                    out.extend_from_slice(&sep);
                }
                first = false;
                out.extend_from_slice(&value_bytes(v));
                if !packet_guard(name, out.len() as u64, env) {
                    return Ok(Value::Null);
                }
            }
            return Ok(bytes(out));
        }
        "nullif" => {
            return Ok(if compare(&a[0], &a[1]) == Some(Ordering::Equal) { Value::Null } else { a[0].clone() });
        }
        "isnull" => return Ok(bool_value(a[0].is_null())),
        // mysql_native_password's stored form, as GRANT ... IDENTIFIED BY
        // PASSWORD takes it; NULL hashes as the empty password, as MariaDB's.
        "password" if a[0].is_null() => return Ok(text(String::new())),
        "password" => return Ok(text(crate::accounts::native_hash(&value_bytes(&a[0])))),
        "quote" => {
            return Ok(match &a[0] {
                Value::Null => text("NULL".into()),
                v => {
                    let mut out = vec![b'\''];
                    for &c in value_bytes(v).iter() {
                        match c {
                            b'\'' | b'\\' => out.extend_from_slice(&[b'\\', c]),
                            0 => out.extend_from_slice(b"\\0"),
                            0x1a => out.extend_from_slice(b"\\Z"),
                            c => out.push(c),
                        }
                    }
                    out.push(b'\'');
                    bytes(out)
                }
            })
        }
        "char" => {
            let mut out = Vec::new();
            for v in a.iter().filter(|v| !v.is_null()) {
                let n = to_u64_bits(v, env) as u32;
                let be = n.to_be_bytes();
                let skip = be.iter().take_while(|b| **b == 0).count().min(3);
                out.extend_from_slice(&be[skip..]);
            }
            return Ok(bytes(out));
        }
        "greatest" => return Ok(minmax(a, Ordering::Greater, env)),
        "least" => return Ok(minmax(a, Ordering::Less, env)),
        "elt" => {
            let Some(i) = int_arg(&a[0], env) else {
                return Ok(Value::Null);
            };
            return Ok(usize::try_from(i)
                .ok()
                .filter(|i| *i >= 1 && *i < a.len())
                .map(|i| match &a[i] {
                    Value::Null => Value::Null,
                    v => bytes(value_bytes(v).into_owned()),
                })
                .unwrap_or(Value::Null));
        }
        // The position of the first Ni (after N) above N, from 0, or the
        // count of Ni: MariaDB assumes them sorted. A NULL Ni is never
        // above N but keeps its place; a NULL N is -1.
        "interval" => {
            if a[0].is_null() {
                return Ok(Value::Int(-1));
            }
            let n = f64_of(&a[0], &super::NoWarn);
            let above_n = |v: &Value| !v.is_null() && f64_of(v, &super::NoWarn) > n;
            let position = a[1..].iter().position(above_n).unwrap_or(a.len() - 1);
            return Ok(Value::Int(position as i64));
        }
        "field" => {
            if a[0].is_null() {
                return Ok(Value::Int(0));
            }
            let all_str = a.iter().all(|v| matches!(v, Value::Bytes(_) | Value::Null));
            for (i, v) in a[1..].iter().enumerate() {
                let eq = if all_str || !matches!(a[0], Value::Bytes(_)) {
                    compare(&a[0], v) == Some(Ordering::Equal)
                } else {
                    !v.is_null() && f64_of(&a[0], &super::NoWarn) == f64_of(v, &super::NoWarn)
                };
                if eq {
                    return Ok(Value::Int(i as i64 + 1));
                }
            }
            return Ok(Value::Int(0));
        }
        "rand" => {
            use rand::{Rng, SeedableRng};
            return Ok(Value::Double(match a.first() {
                Some(seed) if !seed.is_null() => {
                    let s = to_u64_bits(seed, env);
                    rand::rngs::StdRng::seed_from_u64(s).random::<f64>()
                }
                _ => rand::rng().random::<f64>(),
            }));
        }
        "last_insert_id" => {
            return Ok(match a.first() {
                Some(v) => {
                    match v {
                        Value::Int(i) => env.set_last_insert_id(*i as u64),
                        Value::UInt(u) => env.set_last_insert_id(*u),
                        _ => {}
                    }
                    v.clone()
                }
                None => env.session_fact("last_insert_id"),
            })
        }
        "database" | "schema" => return Ok(env.session_fact("database")),
        "user" | "session_user" | "system_user" => return Ok(env.session_fact("user")),
        "current_user" => {
            let v = env.session_fact("current_user");
            return Ok(if v.is_null() { env.session_fact("user") } else { v });
        }
        "current_role" => return Ok(env.session_fact("current_role")),
        "version" => {
            let v = env.session_fact("version");
            return Ok(if v.is_null() { text(crate::vars::SERVER_VERSION.into()) } else { v });
        }
        "connection_id" => return Ok(env.session_fact("connection_id")),
        "rownum" => return Ok(Value::UInt(env.rownum())),
        "row_count" => return Ok(env.session_fact("row_count")),
        "found_rows" => return Ok(env.session_fact("found_rows")),
        "pi" => return Ok(Value::Double(std::f64::consts::PI)),
        "uuid" => return Ok(text(super::ids::uuid_text())),
        "sys_guid" => return Ok(text(super::ids::sys_guid())),
        "uuid_short" => {
            let server_id = env.system_var(VarScope::Global, "server_id").ok().and_then(|v| int_arg(&v, env));
            return Ok(Value::UInt(super::ids::uuid_short(server_id.unwrap_or(1) as u64)));
        }
        "now" | "current_timestamp" | "sysdate" | "localtime" | "localtimestamp" | "curtime" | "current_time"
        | "utc_timestamp" | "utc_time" => {
            let fsp = match a.first() {
                Some(v) => int_arg(v, env).unwrap_or(0),
                None => 0,
            };
            if !(0..=6).contains(&fsp) {
                return Err(SqlError::new(
                    ErrorCode::TOO_BIG_PRECISION,
                    format!("Too big precision specified for '{}'. Maximum is 6", precision_name(name)),
                ));
            }
            return Ok(now_value(name, fsp, env));
        }
        "curdate" | "current_date" | "utc_date" => {
            let utc = statement_now_utc(env);
            let t = if name == "utc_date" { utc } else { session_zone(env).utc_to_local(&utc) };
            return Ok(Value::Date(Temporal { year: t.year, month: t.month, day: t.day, ..Temporal::default() }));
        }
        "unix_timestamp" if a.is_empty() => {
            return Ok(Value::Int(temporal::unix_micros(&statement_now_utc(env)).div_euclid(1_000_000)));
        }
        "get_lock" | "release_lock" | "is_free_lock" | "is_used_lock" => return user_lock_fn(name, a, env),
        "release_all_locks" => return env.user_lock(UserLockCall::ReleaseAll),
        "binlog_gtid_pos" => {
            return match int_arg(&a[1], env) {
                Some(offset) if !a[0].is_null() && offset >= 0 => env.binlog_gtid_pos(&s_of(&a[0]), offset as u64),
                _ => Ok(Value::Null),
            };
        }
        "sleep" => {
            let secs = f64_of(&a[0], env).unwrap_or(0.0);
            if secs > 0.0 {
                env.sleep(std::time::Duration::from_secs_f64(secs.min(300.0)))?;
            }
            return Ok(Value::Int(0));
        }
        // The IS_IPV* predicates are 0 for NULL.
        "is_ipv4" => return Ok(bool_value(!a[0].is_null() && super::inet::parse_ipv4(&s_of(&a[0])).is_some())),
        "is_ipv6" => return Ok(bool_value(!a[0].is_null() && super::inet::parse_ipv6(&s_of(&a[0])).is_some())),
        "is_ipv4_compat" => return Ok(bool_value(super::inet::is_ipv4_compat(&value_bytes(&a[0])))),
        "is_ipv4_mapped" => return Ok(bool_value(super::inet::is_ipv4_mapped(&value_bytes(&a[0])))),
        "format" => {
            if a[0].is_null() || a[1].is_null() {
                return Ok(Value::Null);
            }
            let style = format_style(a.get(2), env);
            let d = int_arg(&a[1], env).unwrap_or(0);
            return Ok(format_number(&a[0], d, style, env).map_or(Value::Null, text));
        }
        // An empty search string returns the subject before the
        // replacement is read, so a NULL replacement does not matter.
        "replace" if !a[0].is_null() && !a[1].is_null() && value_bytes(&a[1]).is_empty() => {
            return Ok(a[0].clone());
        }
        _ => {}
    }
    // NULL in, NULL out for the rest.
    if a.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let r = match name {
        "concat" => {
            let total: u64 = a.iter().map(|v| value_bytes(v).len() as u64).sum();
            if !packet_guard(name, total, env) {
                return Ok(Value::Null);
            }
            let mut out = Vec::new();
            for v in a {
                out.extend_from_slice(&value_bytes(v));
            }
            bytes(out)
        }
        "length" | "octet_length" => Value::Int(value_bytes(&a[0]).len() as i64),
        "bit_length" => Value::Int(value_bytes(&a[0]).len() as i64 * 8),
        "char_length" | "character_length" => Value::Int(s_of(&a[0]).chars().count() as i64),
        "binary" => bytes(value_bytes(&a[0]).into_owned()),
        "upper" | "ucase" => text(map_case(&s_of(&a[0]), char::to_uppercase)),
        "lower" | "lcase" => text(map_case(&s_of(&a[0]), char::to_lowercase)),
        "trim" => text(s_of(&a[0]).trim_matches(' ').to_string()),
        "ltrim" => text(s_of(&a[0]).trim_start_matches(' ').to_string()),
        "rtrim" => text(s_of(&a[0]).trim_end_matches(' ').to_string()),
        "trim_chars" | "ltrim_chars" | "rtrim_chars" => {
            let s = s_of(&a[0]);
            let pat = s_of(&a[1]);
            if pat.is_empty() {
                return Ok(text(s));
            }
            let mut r = s.as_str();
            if name != "rtrim_chars" {
                while let Some(x) = r.strip_prefix(pat.as_str()) {
                    r = x;
                }
            }
            if name != "ltrim_chars" {
                while let Some(x) = r.strip_suffix(pat.as_str()) {
                    r = x;
                }
            }
            text(r.to_string())
        }
        "substring" | "substr" | "mid" => {
            let s = s_of(&a[0]);
            let pos = int_arg(&a[1], env).unwrap_or(0);
            let len = a.get(2).map(|l| int_arg(l, env).unwrap_or(0));
            text(substring(&s, pos, len))
        }
        "substring_index" => text(substring_index(&s_of(&a[0]), &s_of(&a[1]), int_arg(&a[2], env).unwrap_or(0))),
        "left" => {
            let n = int_arg(&a[1], env).unwrap_or(0).max(0) as usize;
            text(s_of(&a[0]).chars().take(n).collect())
        }
        "right" => {
            let s = s_of(&a[0]);
            let n = int_arg(&a[1], env).unwrap_or(0).max(0) as usize;
            let c = s.chars().count();
            text(s.chars().skip(c.saturating_sub(n)).collect())
        }
        "replace" => {
            let s = s_of(&a[0]);
            let from = s_of(&a[1]);
            if from.is_empty() {
                text(s)
            } else {
                let to = s_of(&a[2]);
                let count = s.matches(from.as_str()).count() as u64;
                let len = s.len() as u64 + count * to.len() as u64;
                if !packet_guard(name, len, env) {
                    return Ok(Value::Null);
                }
                text(s.replace(from.as_str(), &to))
            }
        }
        "reverse" => text(s_of(&a[0]).chars().rev().collect()),
        "soundex" => text(soundex(&s_of(&a[0]))),
        "repeat" => {
            let s = value_bytes(&a[0]).into_owned();
            let n = int_arg(&a[1], env).unwrap_or(0);
            if n <= 0 || s.is_empty() {
                return Ok(text(String::new()));
            }
            if !packet_guard(name, (s.len() as u64).saturating_mul(n as u64), env) {
                return Ok(Value::Null);
            }
            bytes(s.repeat(n as usize))
        }
        "space" => {
            let n = int_arg(&a[0], env).unwrap_or(0);
            if n <= 0 {
                return Ok(text(String::new()));
            }
            if !packet_guard(name, n as u64, env) {
                return Ok(Value::Null);
            }
            text(" ".repeat(n as usize))
        }
        "lpad" | "rpad" => {
            let s: Vec<char> = s_of(&a[0]).chars().collect();
            let n = int_arg(&a[1], env).unwrap_or(0);
            let pad: Vec<char> = a.get(2).map_or_else(|| vec![' '], |p| s_of(p).chars().collect());
            if n < 0 {
                return Ok(Value::Null);
            }
            if !packet_guard(name, (n as u64).saturating_mul(4), env) {
                return Ok(Value::Null);
            }
            let n = n as usize;
            if s.len() >= n {
                return Ok(text(s[..n].iter().collect()));
            }
            if pad.is_empty() {
                return Ok(Value::Null);
            }
            let fill: String = pad.iter().cycle().take(n - s.len()).collect();
            let body: String = s.iter().collect();
            if name == "lpad" {
                text(fill + &body)
            } else {
                text(body + &fill)
            }
        }
        "locate" | "instr" | "position" => {
            let (sub, s) = if name == "instr" { (s_of(&a[1]), s_of(&a[0])) } else { (s_of(&a[0]), s_of(&a[1])) };
            let start = match a.get(2) {
                Some(p) => int_arg(p, env).unwrap_or(0),
                None => 1,
            };
            if start < 1 {
                return Ok(Value::Int(0));
            }
            // As MariaDB: at each character of `s` from `start` on, the next
            // needle-length bytes equal to the needle under the collation
            // ('É' is found in 'café'; 'ß' is not in 'SS', whose bytes and
            // general_ci weights differ).
            let starts: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let st = (start - 1) as usize;
            if st >= starts.len() {
                return Ok(Value::Int(0));
            }
            if sub.is_empty() {
                return Ok(Value::Int(start));
            }
            let found = starts[st..].iter().enumerate().find(|(_, &at)| {
                s.as_bytes().get(at..at + sub.len()).is_some_and(|w| collation.equal(w, sub.as_bytes()))
            });
            Value::Int(found.map_or(0, |(i, _)| (st + i) as i64 + 1))
        }
        "ascii" => Value::Int(value_bytes(&a[0]).first().copied().map(i64::from).unwrap_or(0)),
        "ord" => {
            let b = value_bytes(&a[0]);
            let s = String::from_utf8_lossy(&b);
            match s.chars().next() {
                Some(c) if !c.is_ascii() => {
                    let mut buf = [0u8; 4];
                    let enc = c.encode_utf8(&mut buf);
                    Value::Int(enc.bytes().fold(0i64, |acc, x| acc * 256 + i64::from(x)))
                }
                _ => Value::Int(b.first().copied().map(i64::from).unwrap_or(0)),
            }
        }
        "hex" => match &a[0] {
            Value::Bytes(b) if !packet_guard(name, b.len() as u64 * 2, env) => Value::Null,
            Value::Bytes(b) => text(b.iter().map(|x| format!("{x:02X}")).collect()),
            // HEX shows a UUID's binary (RFC order) form, as in MariaDB.
            Value::Uuid(u) => text(u.0.iter().map(|x| format!("{x:02X}")).collect()),
            Value::Double(f) => text(format!("{:X}", f.round_ties_even() as i64 as u64)),
            // Temporal values are strings to HEX, as in MariaDB.
            v @ (Value::Date(_) | Value::DateTime(_) | Value::Time(_)) => {
                text(value_bytes(v).iter().map(|x| format!("{x:02X}")).collect())
            }
            v => text(format!("{:X}", to_u64_bits(v, env))),
        },
        "to_base64" => text(to_base64(&value_bytes(&a[0]))),
        "load_file" => env.load_file(&value_bytes(&a[0]))?,
        "from_base64" => match from_base64(&value_bytes(&a[0])) {
            Ok(decoded) => bytes(decoded),
            Err(position) => {
                env.warn(ErrorCode::BAD_BASE64_DATA.number, format!("Bad base64 data as position {position}"));
                Value::Null
            }
        },
        "unhex" => {
            let s = s_of(&a[0]);
            let s = if s.len() % 2 == 1 { format!("0{s}") } else { s };
            let mut out = Vec::with_capacity(s.len() / 2);
            for i in (0..s.len()).step_by(2) {
                match s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => out.push(b),
                    None => return Ok(Value::Null),
                }
            }
            bytes(out)
        }
        "abs" => match to_num(&a[0], env) {
            Some(Num::I(i)) => match i.checked_abs() {
                Some(x) => Value::Int(x),
                None => {
                    return Err(SqlError::new(
                        ErrorCode::DATA_OUT_OF_RANGE,
                        format!("BIGINT value is out of range in 'abs({i})'"),
                    ))
                }
            },
            Some(Num::U(u)) => Value::UInt(u),
            Some(Num::D(d)) => Value::Decimal(d.abs()),
            Some(Num::F(f)) => Value::Double(f.abs()),
            None => Value::Null,
        },
        "ceil" | "ceiling" | "floor" => {
            let up = name != "floor";
            match to_num(&a[0], env) {
                Some(Num::I(i)) => Value::Int(i),
                Some(Num::U(u)) => Value::UInt(u),
                Some(Num::D(d)) => {
                    let r = if up { d.ceil() } else { d.floor() };
                    match r.to_i64() {
                        Some(i) => Value::Int(i),
                        None => {
                            let mut r = r;
                            r.rescale(0);
                            Value::Decimal(r)
                        }
                    }
                }
                Some(Num::F(f)) => double(if up { f.ceil() } else { f.floor() }),
                None => Value::Null,
            }
        }
        "round" | "truncate" => {
            let d = match a.get(1) {
                Some(v) => int_arg(v, env).unwrap_or(0),
                None => 0,
            };
            round_value(&a[0], d, name == "truncate", env)
        }
        "mod" => {
            return super::binary_values(
                crate::ast::BinOp::Mod,
                a[0].clone(),
                a[1].clone(),
                None,
                &Expr::Literal(Value::Null),
                env,
            )
        }
        "pow" | "power" => {
            let (Some(x), Some(y)) = (f64_of(&a[0], env), f64_of(&a[1], env)) else {
                return Ok(Value::Null);
            };
            let r = x.powf(y);
            if r.is_infinite() {
                return Err(SqlError::new(
                    ErrorCode::DATA_OUT_OF_RANGE,
                    format!("DOUBLE value is out of range in 'pow({},{})'", format_double(x), format_double(y)),
                ));
            }
            double(r)
        }
        "sqrt" => f64_of(&a[0], env).filter(|x| *x >= 0.0).map(|x| double(x.sqrt())).unwrap_or(Value::Null),
        "exp" => double(f64_of(&a[0], env).unwrap_or(0.0).exp()),
        "ln" | "log10" | "log2" => {
            let x = f64_of(&a[0], env).unwrap_or(0.0);
            if x <= 0.0 {
                env.warn(3020, "Invalid argument for logarithm".into());
                return Ok(Value::Null);
            }
            double(match name {
                "ln" => x.ln(),
                "log10" => x.log10(),
                _ => x.log2(),
            })
        }
        "log" => {
            if a.len() == 1 {
                let x = f64_of(&a[0], env).unwrap_or(0.0);
                if x <= 0.0 {
                    env.warn(3020, "Invalid argument for logarithm".into());
                    return Ok(Value::Null);
                }
                double(x.ln())
            } else {
                let b = f64_of(&a[0], env).unwrap_or(0.0);
                let x = f64_of(&a[1], env).unwrap_or(0.0);
                if x <= 0.0 || b <= 0.0 || b == 1.0 {
                    env.warn(3020, "Invalid argument for logarithm".into());
                    return Ok(Value::Null);
                }
                double(x.ln() / b.ln())
            }
        }
        "sign" => {
            let s = match to_num(&a[0], env) {
                Some(Num::I(i)) => i.signum(),
                Some(Num::U(u)) => i64::from(u > 0),
                Some(Num::D(d)) => {
                    if d.is_zero() {
                        0
                    } else if d.is_sign_negative() {
                        -1
                    } else {
                        1
                    }
                }
                Some(Num::F(f)) => {
                    if f == 0.0 {
                        0
                    } else if f < 0.0 {
                        -1
                    } else {
                        1
                    }
                }
                None => return Ok(Value::Null),
            };
            Value::Int(s)
        }
        "radians" => double(f64_of(&a[0], env).unwrap_or(0.0).to_radians()),
        "degrees" => double(f64_of(&a[0], env).unwrap_or(0.0).to_degrees()),
        "sin" => double(f64_of(&a[0], env).unwrap_or(0.0).sin()),
        "cos" => double(f64_of(&a[0], env).unwrap_or(0.0).cos()),
        "tan" => double(f64_of(&a[0], env).unwrap_or(0.0).tan()),
        "asin" => double(f64_of(&a[0], env).unwrap_or(0.0).asin()),
        "acos" => double(f64_of(&a[0], env).unwrap_or(0.0).acos()),
        "cot" => double(1.0 / f64_of(&a[0], env).unwrap_or(0.0).tan()),
        "atan" => {
            if a.len() == 2 {
                double(f64_of(&a[0], env).unwrap_or(0.0).atan2(f64_of(&a[1], env).unwrap_or(0.0)))
            } else {
                double(f64_of(&a[0], env).unwrap_or(0.0).atan())
            }
        }
        "atan2" => double(f64_of(&a[0], env).unwrap_or(0.0).atan2(f64_of(&a[1], env).unwrap_or(0.0))),
        "crc32" => Value::UInt(u64::from(crc32fast::hash(&value_bytes(&a[0])))),
        "bit_count" => Value::Int(i64::from(to_u64_bits(&a[0], env).count_ones())),
        "bin" => text(format!("{:b}", to_u64_bits(&a[0], env))),
        "oct" => text(format!("{:o}", to_u64_bits(&a[0], env))),
        "conv" => {
            let from = int_arg(&a[1], env).unwrap_or(0);
            let to = int_arg(&a[2], env).unwrap_or(0);
            match conv(&s_of(&a[0]), from, to) {
                Some(s) => text(s),
                None => Value::Null,
            }
        }
        "find_in_set" => {
            let needle = s_of(&a[0]);
            if needle.contains(',') {
                return Ok(Value::Int(0));
            }
            let list = s_of(&a[1]);
            if list.is_empty() {
                return Ok(Value::Int(0));
            }
            let pos = list.split(',').position(|x| collation.equal(x.as_bytes(), needle.as_bytes()));
            Value::Int(pos.map(|p| p as i64 + 1).unwrap_or(0))
        }
        "insert" => {
            let s: Vec<char> = s_of(&a[0]).chars().collect();
            let pos = int_arg(&a[1], env).unwrap_or(0);
            let len = int_arg(&a[2], env).unwrap_or(0);
            let new = s_of(&a[3]);
            let n = s.len() as i64;
            if pos < 1 || pos > n {
                return Ok(text(s.iter().collect()));
            }
            let start = (pos - 1) as usize;
            let end = if len < 0 || len > n - pos + 1 { s.len() } else { start + len as usize };
            let mut out: String = s[..start].iter().collect();
            out.push_str(&new);
            out.extend(s[end..].iter());
            text(out)
        }
        "strcmp" => {
            let o = collation.compare(&value_bytes(&a[0]), &value_bytes(&a[1]));
            Value::Int(match o {
                Ordering::Less => -1,
                Ordering::Equal => 0,
                Ordering::Greater => 1,
            })
        }
        "md5" => hex_digest(&md5::Md5::digest(value_bytes(&a[0]))),
        "sha1" | "sha" => hex_digest(&sha1::Sha1::digest(value_bytes(&a[0]))),
        "sha2" => {
            let data = value_bytes(&a[0]);
            match int_arg(&a[1], env).unwrap_or(-1) {
                0 | 256 => hex_digest(&sha2::Sha256::digest(&data)),
                224 => hex_digest(&sha2::Sha224::digest(&data)),
                384 => hex_digest(&sha2::Sha384::digest(&data)),
                512 => hex_digest(&sha2::Sha512::digest(&data)),
                _ => Value::Null,
            }
        }
        "inet_aton" => match super::inet::inet_aton(&s_of(&a[0])) {
            Some(n) => Value::UInt(n),
            None => Value::Null,
        },
        "inet6_aton" => match super::inet::inet6_aton(&s_of(&a[0])) {
            Some(b) => bytes(b),
            None => Value::Null,
        },
        "inet6_ntoa" => match &a[0] {
            Value::Bytes(b) => super::inet::inet6_ntoa(b).map_or(Value::Null, text),
            _ => Value::Null,
        },
        "inet_ntoa" => match int_arg(&a[0], env) {
            Some(n) if (0..=i64::from(u32::MAX)).contains(&n) => {
                let b = (n as u32).to_be_bytes();
                text(format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]))
            }
            _ => Value::Null,
        },
        "time_format" => match to_time(&a[0], env) {
            Some(us) => {
                let a_us = us.unsigned_abs();
                let secs = a_us / 1_000_000;
                let hours = secs / 3600;
                let t = Temporal {
                    hour: (hours % 24) as u8,
                    minute: (secs / 60 % 60) as u8,
                    second: (secs % 60) as u8,
                    micros: (a_us % 1_000_000) as u32,
                    ..Temporal::default()
                };
                // %H / %k show the full hour count for TIME values.
                let fmt = s_of(&a[1]).replace("%H", &format!("{hours:02}")).replace("%k", &hours.to_string());
                let sign = if us < 0 { "-" } else { "" };
                text(format!("{sign}{}", date_format(&t, &fmt, true)))
            }
            None => Value::Null,
        },
        "adddate" | "subdate" => add_interval(&a[0], &a[1], "DAY", name == "subdate", env)?,
        "date_add" | "date_sub" => add_interval(&a[0], &a[1], &value_string(&a[2]), name == "date_sub", env)?,
        "addtime" | "subtime" => {
            let Some(delta) = to_time(&a[1], env) else {
                return Ok(Value::Null);
            };
            let delta = if name == "subtime" { -delta } else { delta };
            let is_dt = match &a[0] {
                Value::DateTime(_) | Value::Date(_) => true,
                Value::Bytes(b) => b.contains(&b'-') && b.len() > 8,
                _ => false,
            };
            if is_dt {
                match to_datetime(&a[0], env).and_then(|t| temporal::add_micros(&t, delta)) {
                    Some(t) => Value::DateTime(t),
                    None => Value::Null,
                }
            } else {
                match to_time(&a[0], env) {
                    Some(t) => Value::Time(t.saturating_add(delta)),
                    None => Value::Null,
                }
            }
        }
        "timestamp" => {
            let delta = match a.get(1) {
                Some(time) => to_time(time, env),
                None => Some(0),
            };
            match (to_datetime(&a[0], env), delta) {
                (Some(t), Some(delta)) => temporal::add_micros(&t, delta).map_or(Value::Null, Value::DateTime),
                _ => Value::Null,
            }
        }
        "maketime" => {
            let h = int_arg(&a[0], env).unwrap_or(0);
            let m = int_arg(&a[1], env).unwrap_or(0);
            let sec = f64_of(&a[2], env).unwrap_or(0.0);
            if !(0..60).contains(&m) || !(0.0..60.0).contains(&sec) {
                return Ok(Value::Null);
            }
            let h = h.clamp(-838, 838);
            let us = (h.abs() * 3600 + m * 60) * 1_000_000 + (sec * 1e6).round() as i64;
            Value::Time(if h < 0 { -us } else { us })
        }
        "weekofyear" => opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| {
            // ISO 8601 week (WEEK mode 3).
            let d = temporal::days_from_civil(i64::from(t.year), t.month, t.day);
            let wd = weekday(&t); // 0 = Monday
            let thursday = d - wd + 3;
            let (ty, _, _) = temporal::civil_from_days(thursday);
            let jan1 = temporal::days_from_civil(ty, 1, 1);
            (thursday - jan1) / 7 + 1
        })),
        "to_seconds" => opt_int(
            date_part(&a[0], env)
                .filter(|t| t.month > 0 && t.day > 0)
                .map(|t| to_days(&t) * 86_400 + temporal::time_of(&t) / 1_000_000),
        ),
        // Date and time.
        "date" => match date_part(&a[0], env) {
            Some(t) => Value::Date(Temporal { year: t.year, month: t.month, day: t.day, ..Temporal::default() }),
            None => Value::Null,
        },
        "time" => match to_time(&a[0], env) {
            Some(t) => Value::Time(t),
            None => Value::Null,
        },
        "year" => opt_int(date_part(&a[0], env).map(|t| i64::from(t.year))),
        "month" => opt_int(date_part(&a[0], env).map(|t| i64::from(t.month))),
        "quarter" => opt_int(date_part(&a[0], env).map(|t| (i64::from(t.month) + 2) / 3)),
        "day" | "dayofmonth" => opt_int(date_part(&a[0], env).map(|t| i64::from(t.day))),
        // A TIME's hours may pass 23 (up to 838).
        "hour" => opt_int(clock_value(&a[0], env).map(|clock| match clock {
            ClockValue::Span(us) => (us.unsigned_abs() / 3_600_000_000) as i64,
            ClockValue::Moment(t) => i64::from(t.hour),
        })),
        "minute" => opt_int(temporal_field(&a[0], env).map(|t| i64::from(t.minute))),
        "second" => opt_int(temporal_field(&a[0], env).map(|t| i64::from(t.second))),
        "microsecond" => opt_int(temporal_field(&a[0], env).map(|t| i64::from(t.micros))),
        "dayofweek" => {
            opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| (weekday(&t) + 1) % 7 + 1))
        }
        "weekday" => opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| weekday(&t))),
        "dayofyear" => opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| day_of_year(&t))),
        "to_days" => opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| to_days(&t))),
        "from_days" => {
            let n = int_arg(&a[0], env).unwrap_or(0);
            if n < 366 {
                Value::Date(Temporal::default())
            } else if n > 3_652_424 {
                Value::Null
            } else {
                let (y, m, d) = temporal::civil_from_days(n - 719_528);
                if !(0..=9999).contains(&y) {
                    return Ok(Value::Null);
                }
                Value::Date(Temporal { year: y as u16, month: m, day: d, ..Temporal::default() })
            }
        }
        "dayname" => match date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0) {
            Some(t) => text(date_format(&t, "%W", false)),
            None => Value::Null,
        },
        "monthname" => match date_part(&a[0], env).filter(|t| t.month > 0) {
            Some(t) => text(date_format(&t, "%M", false)),
            None => Value::Null,
        },
        "last_day" => match date_part(&a[0], env).filter(|t| t.month > 0) {
            Some(t) => Value::Date(Temporal {
                year: t.year,
                month: t.month,
                day: temporal::days_in_month(i64::from(t.year), t.month),
                ..Temporal::default()
            }),
            None => Value::Null,
        },
        "week" | "yearweek" => {
            let mode = match a.get(1) {
                Some(m) => int_arg(m, env).unwrap_or(0),
                None => 0, // default_week_format
            };
            let year_mode = name == "yearweek";
            opt_int(date_part(&a[0], env).filter(|t| t.month > 0 && t.day > 0).map(|t| {
                let (year, week) = temporal::week_of(&t, (mode & 7) as u32, year_mode);
                if year_mode {
                    year * 100 + week
                } else {
                    week
                }
            }))
        }
        "extract" => extract(&s_of(&a[0]), &a[1], env),
        "timestampadd" => add_interval(&a[2], &a[1], &s_of(&a[0]), false, env)?,
        "period_add" | "period_diff" => {
            let (Some(p), Some(n)) = (int_arg(&a[0], env), int_arg(&a[1], env)) else {
                return Ok(Value::Null);
            };
            // MariaDB reads the periods as unsigned numbers.
            let months = temporal::period_to_months(p as u64);
            if name == "period_diff" {
                Value::Int(months as i64 - temporal::period_to_months(n as u64) as i64)
            } else if p == 0 {
                Value::Int(0)
            } else {
                Value::Int(temporal::months_to_period((months as i64).wrapping_add(n) as u64) as i64)
            }
        }
        "get_format" => match get_format(&s_of(&a[0]), &s_of(&a[1])) {
            Some(f) => text(f.to_string()),
            None => Value::Null,
        },
        "makedate" => {
            let y = int_arg(&a[0], env).unwrap_or(0);
            let doy = int_arg(&a[1], env).unwrap_or(0);
            if doy <= 0 || doy > 3_660_000 || !(0..=9999).contains(&y) {
                return Ok(Value::Null);
            }
            let y = if y < 70 {
                y + 2000
            } else if y < 100 {
                y + 1900
            } else {
                y
            };
            let (yy, m, d) = temporal::civil_from_days(temporal::days_from_civil(y, 1, 1) + doy - 1);
            if yy > 9999 {
                return Ok(Value::Null);
            }
            Value::Date(Temporal { year: yy as u16, month: m, day: d, ..Temporal::default() })
        }
        "datediff" => match (date_part(&a[0], env), date_part(&a[1], env)) {
            (Some(x), Some(y)) if x.month > 0 && y.month > 0 && x.day > 0 && y.day > 0 => {
                Value::Int(to_days(&x) - to_days(&y))
            }
            _ => Value::Null,
        },
        "timediff" => match (&a[0], &a[1]) {
            (Value::Time(_), _) | (_, Value::Time(_)) => match (to_time(&a[0], env), to_time(&a[1], env)) {
                (Some(x), Some(y)) => Value::Time(x - y),
                _ => Value::Null,
            },
            _ => match (to_datetime(&a[0], env), to_datetime(&a[1], env)) {
                (Some(x), Some(y)) => Value::Time(temporal::unix_micros(&x) - temporal::unix_micros(&y)),
                _ => Value::Null,
            },
        },
        // Fractional seconds are kept; the result's type gives the scale.
        "time_to_sec" => match to_time(&a[0], env) {
            Some(t) if t % 1_000_000 == 0 => Value::Int(t / 1_000_000),
            Some(t) => Value::Decimal(Decimal::new(t, 6).normalize()),
            None => Value::Null,
        },
        "sec_to_time" => match to_num(&a[0], env) {
            Some(seconds) => Value::Time(seconds_to_time_micros(seconds, env)),
            None => Value::Null,
        },
        "timestampdiff" => {
            let unit = s_of(&a[0]).to_ascii_uppercase();
            let (Some(x), Some(y)) = (to_datetime(&a[1], env), to_datetime(&a[2], env)) else {
                return Ok(Value::Null);
            };
            let dus = temporal::unix_micros(&y) - temporal::unix_micros(&x);
            let months = || {
                let mut m = (i64::from(y.year) - i64::from(x.year)) * 12 + i64::from(y.month) - i64::from(x.month);
                let xr = (x.day, temporal::time_of(&x));
                let yr = (y.day, temporal::time_of(&y));
                if m > 0 && yr < xr {
                    m -= 1;
                } else if m < 0 && yr > xr {
                    m += 1;
                }
                m
            };
            Value::Int(match unit.as_str() {
                "MICROSECOND" => dus,
                "SECOND" => dus / 1_000_000,
                "MINUTE" => dus / 60_000_000,
                "HOUR" => dus / 3_600_000_000,
                "DAY" => dus / 86_400_000_000,
                "WEEK" => dus / (7 * 86_400_000_000),
                "MONTH" => months(),
                "QUARTER" => months() / 3,
                "YEAR" => months() / 12,
                _ => return Err(SqlError::parse(&unit, 1)),
            })
        }
        "unix_timestamp" => match to_datetime(&a[0], env) {
            Some(t) => unix_ts(&t, session_zone(env)),
            None => Value::Null,
        },
        "from_unixtime" => {
            let us = match to_num(&a[0], env) {
                Some(Num::I(i)) => i.checked_mul(1_000_000),
                Some(Num::U(u)) => i64::try_from(u).ok().and_then(|i| i.checked_mul(1_000_000)),
                Some(Num::D(d)) => d.checked_mul(Decimal::from(1_000_000)).and_then(|x| x.trunc().to_i64()),
                Some(Num::F(f)) => Some((f * 1e6).round() as i64),
                None => None,
            };
            let Some(us) = us.filter(|u| *u >= 0 && *u <= MAX_TIMESTAMP_SECS * 1_000_000) else {
                return Ok(Value::Null);
            };
            let Some(t) = temporal::from_unix_micros(us) else {
                return Ok(Value::Null);
            };
            let t = session_zone(env).utc_to_local(&t);
            match a.get(1) {
                Some(f) => text(date_format(&t, &s_of(f), false)),
                None => Value::DateTime(t),
            }
        }
        "convert_tz" => match (to_datetime(&a[0], env), zone_arg(&a[1]), zone_arg(&a[2])) {
            (Some(t), Some(from), Some(to)) => Value::DateTime(convert_tz(&t, from, to)),
            _ => Value::Null,
        },
        "date_format" => {
            let is_time = matches!(a[0], Value::Time(_));
            match temporal_field(&a[0], env) {
                Some(t) => text(date_format(&t, &s_of(&a[1]), is_time)),
                None => Value::Null,
            }
        }
        "str_to_date" => {
            let s = s_of(&a[0]);
            match str_to_date(&s, &s_of(&a[1])) {
                Some((t, has_date, has_time)) => {
                    if has_date && !has_time {
                        Value::Date(t)
                    } else if has_time && !has_date {
                        Value::Time(temporal::time_of(&t))
                    } else {
                        Value::DateTime(t)
                    }
                }
                None => {
                    env.warn(1411, format!("Incorrect datetime value: '{s}' for function str_to_date"));
                    Value::Null
                }
            }
        }
        _ => {
            let _ = truthy;
            return Err(SqlError::not_supported(name));
        }
    };
    Ok(r)
}

/// Whether `name` is a native function: a call resolves to it before any
/// stored function of that name.
pub fn is_native_function(name: &str) -> bool {
    arity(name).is_some() || super::json::arity(name).is_some() || super::regexp::arity(name).is_some()
}

/// SUBSTRING_INDEX(s, delim, count): `s` up to the count-th `delim` from
/// the left (count > 0), or after the count-th from the right (count < 0);
/// the delimiter matches byte for byte, as in MariaDB.
fn substring_index(s: &str, delim: &str, count: i64) -> String {
    if delim.is_empty() || count == 0 {
        return String::new();
    }
    let wanted = usize::try_from(count.unsigned_abs()).unwrap_or(usize::MAX);
    let cut = match count > 0 {
        true => s.match_indices(delim).nth(wanted - 1).map(|(at, _)| &s[..at]),
        false => s.rmatch_indices(delim).nth(wanted - 1).map(|(at, _)| &s[at + delim.len()..]),
    };
    cut.unwrap_or(s).to_string()
}

/// The name MariaDB's "Too big precision" error gives a clock function:
/// NOW() and its synonyms are all CURRENT_TIMESTAMP there.
fn precision_name(name: &str) -> &str {
    match name {
        "now" | "localtime" | "localtimestamp" => "current_timestamp",
        "current_time" => "curtime",
        _ => name,
    }
}

/// `(min, max)` argument count of a known function.
#[cfg(test)]
pub(super) fn arity_of(name: &str) -> Option<(usize, usize)> {
    arity(name)
}

/// Functions of a text's bytes rather than its characters: they see a
/// latin1 value's latin1 bytes (OneLog holds all text as UTF-8 in memory).
/// The functions whose arguments are numbers, so a `0x..` / `b'..'`
/// argument is its number (see `eval::hybrid`).
pub(crate) fn takes_numbers(name: &str) -> bool {
    matches!(
        name,
        "abs"
            | "ceil"
            | "ceiling"
            | "floor"
            | "round"
            | "truncate"
            | "sign"
            | "sqrt"
            | "exp"
            | "ln"
            | "log"
            | "log2"
            | "log10"
            | "pow"
            | "power"
            | "sin"
            | "cos"
            | "tan"
            | "asin"
            | "acos"
            | "atan"
            | "atan2"
            | "cot"
            | "degrees"
            | "radians"
            | "mod"
            | "char"
    )
}

fn works_on_bytes(name: &str) -> bool {
    matches!(
        name,
        "length"
            | "octet_length"
            | "bit_length"
            | "hex"
            | "md5"
            | "sha"
            | "sha1"
            | "sha2"
            | "password"
            | "crc32"
            | "to_base64"
    )
}

/// Replaces each text argument of a non-UTF-8 charset by its bytes in that
/// charset.
fn stored_bytes(args: &[Expr], vals: &mut [Value], env: &dyn EvalEnv) {
    for (arg, v) in args.iter().zip(vals.iter_mut()) {
        if let Value::Bytes(b) = v {
            let charset = super::value_collation(arg, env).0.charset();
            if let std::borrow::Cow::Owned(stored) = charset.encode(b) {
                *v = Value::Bytes(stored);
            }
        }
    }
}

/// CHARSET(), COLLATION() and COERCIBILITY() of an argument: what its text
/// compares under (a column's own, a COLLATE's, else the connection's);
/// numbers and temporals are `binary`, NULL is IGNORABLE (6).
fn collation_function(name: &str, arg: &Expr, value: &Value, env: &dyn EvalEnv) -> Value {
    let typed_null = value.is_null() && matches!(arg, Expr::Function { name, .. } if super::is_system_constant(name));
    let (collation, derivation) = match value {
        Value::Bytes(_) => super::value_collation(arg, env),
        // NULL of a system constant (CURRENT_ROLE() without a role) keeps its type.
        Value::Null if typed_null => super::value_collation(arg, env),
        _ => (onelog_core::Collation::Binary, super::Derivation::Coercible),
    };
    match name {
        "charset" => text(collation.charset().name().into()),
        "collation" => text(collation.name().into()),
        _ if value.is_null() => Value::Int(6),
        // Functions and operators derive from their arguments in MariaDB;
        // without a typed binder they count as coercible here.
        _ => Value::Int(derivation as i64),
    }
}

/// UPPER / LOWER as MariaDB's collations map case: one character to one
/// character, so a character whose case form is several ('ß' to "SS")
/// stays as it is.
fn map_case<I: Iterator<Item = char> + ExactSizeIterator>(s: &str, map: impl Fn(char) -> I) -> String {
    s.chars()
        .map(|c| {
            let mut mapped = map(c);
            match (mapped.len(), mapped.next()) {
                (1, Some(m)) => m,
                _ => c,
            }
        })
        .collect()
}
