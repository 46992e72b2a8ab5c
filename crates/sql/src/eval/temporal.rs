//! Date and time: parsing strings and numbers the way MySQL does, calendar
//! arithmetic, DATE_FORMAT and STR_TO_DATE.

use super::temporal_text::{scan_datetime, scan_time, Cut, Scanned};
use super::{to_num, EvalEnv, Num};
use onelog_core::{ErrorCode, Temporal, Value};

pub fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

pub fn days_in_month(y: i64, m: u8) -> u8 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 => {
            if is_leap(y) {
                29
            } else {
                28
            }
        }
        _ => 0,
    }
}

pub use onelog_core::value::{civil_from_days, days_from_civil};

/// Day number as MySQL's TO_DAYS counts it (0000-01-01 is day 1).
pub fn to_days(t: &Temporal) -> i64 {
    days_from_civil(i64::from(t.year), t.month, t.day) + 719_528
}

/// 0 = Monday .. 6 = Sunday.
pub fn weekday(t: &Temporal) -> i64 {
    (days_from_civil(i64::from(t.year), t.month, t.day) + 3).rem_euclid(7)
}

pub fn day_of_year(t: &Temporal) -> i64 {
    days_from_civil(i64::from(t.year), t.month, t.day) - days_from_civil(i64::from(t.year), 1, 1) + 1
}

fn valid(t: &Temporal) -> bool {
    if t.month > 12 || t.hour > 23 || t.minute > 59 || t.second > 59 || t.year > 9999 {
        return false;
    }
    if t.month == 0 || t.day == 0 {
        // Zero dates and zero parts are allowed (no NO_ZERO_IN_DATE).
        return t.day <= 31;
    }
    t.day <= days_in_month(i64::from(t.year), t.month)
}

fn two_digit_year(y: u32) -> u32 {
    if y < 70 {
        2000 + y
    } else {
        1900 + y
    }
}

fn parse_frac(digits: &str) -> u32 {
    let mut s: String = digits.chars().take(6).collect();
    while s.len() < 6 {
        s.push('0');
    }
    s.parse().unwrap_or(0)
}

/// Parses a DATE or DATETIME string as MariaDB reads it (see
/// [`scan_datetime`]); text after the value is ignored.
pub fn parse_datetime(s: &str) -> Option<Temporal> {
    scan_datetime(s, false).map(|scanned| scanned.value.0)
}

/// Parses a TIME string as MariaDB reads it (see [`scan_time`]): signed
/// microseconds, not yet limited to ±838:59:59.
pub fn parse_time(s: &str) -> Option<i64> {
    scan_time(s).map(|scanned| scanned.value)
}

/// Warns of what reading `v` as a `kind` value left out: a warning for
/// ignored text, a note for fraction digits past the sixth.
fn warn_cut(env: &dyn EvalEnv, kind: &str, v: &Value, cut: Cut) {
    let message = format!("Truncated incorrect {kind} value: '{}'", super::value_string(v));
    match cut {
        Cut::Nothing | Cut::DatePart => {}
        Cut::FractionDigits => env.note(ErrorCode::TRUNCATED_WRONG_VALUE.number, message),
        Cut::Text => env.warn(ErrorCode::TRUNCATED_WRONG_VALUE.number, message),
    }
}

/// Time of day of a datetime in microseconds.
pub fn time_of(t: &Temporal) -> i64 {
    (i64::from(t.hour) * 3600 + i64::from(t.minute) * 60 + i64::from(t.second)) * 1_000_000 + i64::from(t.micros)
}

/// A number as a date/datetime: YYYYMMDD, YYMMDD, YYYYMMDDhhmmss.
pub fn datetime_from_number(n: i64, micros: u32) -> Option<Temporal> {
    if n <= 0 {
        return if n == 0 { Some(Temporal::default()) } else { None };
    }
    let s = n.to_string();
    let padded = match s.len() {
        1..=6 => format!("{n:06}"),
        7 | 8 => format!("{n:08}"),
        9..=12 => format!("{n:012}"),
        13 | 14 => format!("{n:014}"),
        _ => return None,
    };
    let mut t = parse_datetime(&padded)?;
    t.micros = micros;
    Some(t)
}

fn warn_bad(env: &dyn EvalEnv, kind: &str, v: &Value) {
    env.warn(ErrorCode::TRUNCATED_WRONG_VALUE.number, format!("Incorrect {kind} value: '{}'", super::value_string(v)));
}

/// Any value as a datetime (dates at midnight); NULL + warning if invalid.
pub fn to_datetime(v: &Value, env: &dyn EvalEnv) -> Option<Temporal> {
    let r = match v {
        Value::Null => return None,
        Value::Date(t) | Value::DateTime(t) => Some(*t),
        Value::Time(us) => {
            let now = now_utc();
            add_micros(&Temporal { year: now.year, month: now.month, day: now.day, ..Temporal::default() }, *us)
        }
        Value::Bytes(b) => scan_datetime(&String::from_utf8_lossy(b), false).map(|scanned| {
            warn_cut(env, "datetime", v, scanned.cut);
            scanned.value.0
        }),
        other => match to_num(other, env) {
            Some(Num::I(i)) => datetime_from_number(i, 0),
            Some(Num::U(u)) => i64::try_from(u).ok().and_then(|i| datetime_from_number(i, 0)),
            Some(Num::D(d)) => {
                let whole = d.trunc().to_i64();
                let frac = (d.fract() * onelog_core::decimal::Decimal::from(1_000_000)).trunc().to_u32().unwrap_or(0);
                whole.and_then(|w| datetime_from_number(w, frac))
            }
            Some(Num::F(f)) => {
                if (0.0..1e15).contains(&f) {
                    datetime_from_number(f.trunc() as i64, ((f.fract()) * 1e6).round() as u32)
                } else {
                    None
                }
            }
            None => None,
        },
    };
    if r.is_none() {
        warn_bad(env, "datetime", v);
    }
    r
}

/// Largest TIME magnitude, 838:59:59.
pub const MAX_TIME: i64 = (838 * 3600 + 59 * 60 + 59) * 1_000_000;

/// Any value as TIME microseconds; NULL + warning if invalid.
pub fn to_time(v: &Value, env: &dyn EvalEnv) -> Option<i64> {
    let r = match v {
        Value::Null => return None,
        Value::Time(t) => Some(*t),
        Value::DateTime(t) => Some(time_of(t)),
        Value::Date(_) => Some(0),
        Value::Bytes(b) => scan_time(&String::from_utf8_lossy(b)).map(|scanned| {
            let us = scanned.value;
            // 838:59:59.999999 is still a TIME.
            if us.unsigned_abs() > (MAX_TIME + 999_999) as u64 {
                warn_cut(env, "time", v, Cut::Text);
                MAX_TIME * us.signum()
            } else {
                warn_cut(env, "time", v, scanned.cut);
                us
            }
        }),
        other => number_time(other, env).map(|scanned| {
            let us = scanned.value;
            if us.unsigned_abs() > MAX_TIME as u64 {
                warn_cut(env, "time", v, Cut::Text);
                MAX_TIME * us.signum()
            } else {
                us
            }
        }),
    };
    if r.is_none() {
        warn_bad(env, "time", v);
    }
    r
}

/// A time-like string as EXTRACT reads it: an interval, so its hours are
/// not limited to 838 (`EXTRACT(DAY FROM '100000:02:03')` is 4166); NULL
/// with MariaDB's "Incorrect interval value" warning if it is no time.
pub fn string_interval(v: &Value, env: &dyn EvalEnv) -> Option<i64> {
    let Value::Bytes(b) = v else { return None };
    match scan_time(&String::from_utf8_lossy(b)) {
        Some(scanned) => {
            warn_cut(env, "time", v, scanned.cut);
            Some(scanned.value)
        }
        None => {
            warn_bad(env, "interval", v);
            None
        }
    }
}

/// The largest number that reads as a TIME (`hhmmss`, 838:59:59).
const TIME_MAX_NUMBER: u64 = 8_385_959;
/// The smallest number read as a `YYYYMMDD[hhmmss]` datetime when it is
/// too large for a TIME.
const DATETIME_MIN_NUMBER: u64 = 10_000_101;
/// From here on a number too large for a TIME can only be a datetime.
const DATETIME_ONLY_NUMBER: u64 = 10_000_000_000;

/// A number as TIME microseconds, as MariaDB reads it: `[-]hhmmss[.ffffff]`,
/// or past 838:59:59 the time of a `YYYYMMDDhhmmss` datetime (with
/// [`Cut::DatePart`]). Not yet limited to ±838:59:59; `None` if invalid.
pub fn number_time(v: &Value, env: &dyn EvalEnv) -> Option<Scanned<i64>> {
    let (negative, whole, micros) = match to_num(v, env)? {
        Num::I(i) => (i < 0, i.unsigned_abs(), 0u32),
        Num::U(u) => (false, u, 0),
        Num::D(d) => {
            let a = d.abs();
            let micros = (a.fract() * onelog_core::decimal::Decimal::from(1_000_000)).trunc().to_u32().unwrap_or(0);
            (d.is_sign_negative(), a.trunc().to_u64().unwrap_or(u64::MAX), micros)
        }
        Num::F(f) => (f < 0.0, f.abs().trunc() as u64, (f.abs().fract() * 1e6).round() as u32),
    };
    let signed = |us: i64| if negative { -us } else { us };
    if whole > TIME_MAX_NUMBER {
        let datetime = (whole >= DATETIME_MIN_NUMBER)
            .then(|| i64::try_from(whole).ok().and_then(|w| datetime_from_number(w, micros)))
            .flatten();
        if let Some(t) = datetime {
            let cut = if t.date() == Temporal::default() { Cut::Nothing } else { Cut::DatePart };
            return Some(Scanned { value: signed(time_of(&t)), cut });
        }
        if whole >= DATETIME_ONLY_NUMBER {
            return None;
        }
    }
    let (h, m, s) = (whole / 10000, whole / 100 % 100, whole % 100);
    if m > 59 || s > 59 {
        return None;
    }
    let us = ((h * 3600 + m * 60 + s) * 1_000_000 + u64::from(micros)) as i64;
    Some(Scanned { value: signed(us), cut: Cut::Nothing })
}

/// Adds microseconds to a datetime; `None` outside years 0..=9999.
pub fn add_micros(t: &Temporal, us: i64) -> Option<Temporal> {
    let days = days_from_civil(i64::from(t.year), t.month.max(1), t.day.max(1));
    let total = i128::from(days) * 86_400_000_000 + i128::from(time_of(t)) + i128::from(us);
    let d = total.div_euclid(86_400_000_000);
    let rem = total.rem_euclid(86_400_000_000) as i64;
    let (y, m, dd) = civil_from_days(i64::try_from(d).ok()?);
    if !(0..=9999).contains(&y) {
        return None;
    }
    let secs = rem / 1_000_000;
    Some(Temporal {
        year: y as u16,
        month: m,
        day: dd,
        hour: (secs / 3600) as u8,
        minute: (secs / 60 % 60) as u8,
        second: (secs % 60) as u8,
        micros: (rem % 1_000_000) as u32,
    })
}

/// Current UTC wall clock.
pub fn now_utc() -> Temporal {
    from_unix_micros(now_unix_micros()).unwrap_or_default()
}

/// The clock in microseconds since the epoch.
pub fn now_unix_micros() -> i64 {
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(d.as_micros()).unwrap_or(0)
}

/// Seconds since the epoch as a UTC datetime.
pub fn from_unix_micros(us: i64) -> Option<Temporal> {
    add_micros(&Temporal { year: 1970, month: 1, day: 1, ..Temporal::default() }, us)
}

/// Microseconds since the epoch of a UTC datetime.
pub fn unix_micros(t: &Temporal) -> i64 {
    days_from_civil(i64::from(t.year), t.month.max(1), t.day.max(1)) * 86_400_000_000 + time_of(t)
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// DATE_FORMAT.
pub fn date_format(t: &Temporal, fmt: &str, is_time: bool) -> String {
    let mut out = String::new();
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(f) = it.next() else {
            break;
        };
        let h12 = if t.hour.is_multiple_of(12) { 12 } else { t.hour % 12 };
        match f {
            'Y' => out.push_str(&format!("{:04}", t.year)),
            'y' => out.push_str(&format!("{:02}", t.year % 100)),
            'm' => out.push_str(&format!("{:02}", t.month)),
            'c' => out.push_str(&t.month.to_string()),
            'd' => out.push_str(&format!("{:02}", t.day)),
            'e' => out.push_str(&t.day.to_string()),
            'H' => out.push_str(&format!("{:02}", t.hour)),
            'k' => out.push_str(&t.hour.to_string()),
            'h' | 'I' => out.push_str(&format!("{h12:02}")),
            'l' => out.push_str(&h12.to_string()),
            'i' => out.push_str(&format!("{:02}", t.minute)),
            's' | 'S' => out.push_str(&format!("{:02}", t.second)),
            'f' => out.push_str(&format!("{:06}", t.micros)),
            'p' => out.push_str(if t.hour < 12 { "AM" } else { "PM" }),
            'T' => out.push_str(&format!("{:02}:{:02}:{:02}", t.hour, t.minute, t.second)),
            'r' => out.push_str(&format!(
                "{h12:02}:{:02}:{:02} {}",
                t.minute,
                t.second,
                if t.hour < 12 { "AM" } else { "PM" }
            )),
            'M' if !is_time && t.month >= 1 => out.push_str(MONTHS[usize::from(t.month - 1)]),
            'b' if !is_time && t.month >= 1 => out.push_str(&MONTHS[usize::from(t.month - 1)][..3]),
            'W' if !is_time && t.month >= 1 => out.push_str(DAYS[weekday(t) as usize]),
            'a' if !is_time && t.month >= 1 => out.push_str(&DAYS[weekday(t) as usize][..3]),
            'w' => out.push_str(&((weekday(t) + 1) % 7).to_string()),
            'j' => out.push_str(&format!("{:03}", day_of_year(t))),
            // %U %u %V %v are WEEK() modes 0, 1, 2, 3; %X %x the years of 2 and 3.
            'U' | 'u' | 'V' | 'v' if t.month >= 1 && t.day >= 1 => {
                let mode = match f {
                    'U' => 0,
                    'u' => 1,
                    'V' => 2,
                    _ => 3,
                };
                out.push_str(&format!("{:02}", week_of(t, mode, false).1));
            }
            'X' | 'x' if t.month >= 1 && t.day >= 1 => {
                out.push_str(&format!("{:04}", week_of(t, if f == 'X' { 2 } else { 3 }, false).0));
            }
            'D' => {
                let suffix = match t.day {
                    11..=13 => "th",
                    d if d % 10 == 1 => "st",
                    d if d % 10 == 2 => "nd",
                    d if d % 10 == 3 => "rd",
                    _ => "th",
                };
                out.push_str(&format!("{}{suffix}", t.day));
            }
            '%' => out.push('%'),
            other => out.push(other),
        }
    }
    out
}

/// STR_TO_DATE: returns the parsed fields and whether a date part and a
/// time part were present.
pub fn str_to_date(s: &str, fmt: &str) -> Option<(Temporal, bool, bool)> {
    let mut t = Temporal::default();
    let (mut has_date, mut has_time) = (false, false);
    let sb = s.as_bytes();
    let mut pos = 0usize;
    let mut pm: Option<bool> = None;
    let mut it = fmt.chars();
    let take_num = |pos: &mut usize, max: usize| -> Option<u32> {
        let st = *pos;
        while *pos < sb.len() && *pos - st < max && sb[*pos].is_ascii_digit() {
            *pos += 1;
        }
        if *pos == st {
            return None;
        }
        s[st..*pos].parse().ok()
    };
    while let Some(c) = it.next() {
        if c != '%' {
            if c.is_whitespace() {
                while pos < sb.len() && sb[pos].is_ascii_whitespace() {
                    pos += 1;
                }
                continue;
            }
            if pos < sb.len() && sb[pos] == c as u8 {
                pos += 1;
                continue;
            }
            return None;
        }
        let f = it.next()?;
        match f {
            'Y' => {
                let st = pos;
                let y = take_num(&mut pos, 4)?;
                t.year = if pos - st <= 2 { two_digit_year(y) } else { y } as u16;
                has_date = true;
            }
            'y' => {
                t.year = two_digit_year(take_num(&mut pos, 2)?) as u16;
                has_date = true;
            }
            'm' | 'c' => {
                t.month = take_num(&mut pos, 2)? as u8;
                has_date = true;
            }
            'd' | 'e' => {
                t.day = take_num(&mut pos, 2)? as u8;
                has_date = true;
            }
            'H' | 'k' | 'h' | 'I' | 'l' => {
                t.hour = take_num(&mut pos, 2)? as u8;
                has_time = true;
            }
            'i' => {
                t.minute = take_num(&mut pos, 2)? as u8;
                has_time = true;
            }
            's' | 'S' => {
                t.second = take_num(&mut pos, 2)? as u8;
                has_time = true;
            }
            'f' => {
                let st = pos;
                take_num(&mut pos, 6)?;
                t.micros = parse_frac(&s[st..pos]);
                has_time = true;
            }
            'p' => {
                let rest = s.get(pos..pos + 2)?.to_ascii_uppercase();
                pm = Some(match rest.as_str() {
                    "AM" => false,
                    "PM" => true,
                    _ => return None,
                });
                pos += 2;
            }
            'T' => {
                t.hour = take_num(&mut pos, 2)? as u8;
                if sb.get(pos) != Some(&b':') {
                    return None;
                }
                pos += 1;
                t.minute = take_num(&mut pos, 2)? as u8;
                if sb.get(pos) != Some(&b':') {
                    return None;
                }
                pos += 1;
                t.second = take_num(&mut pos, 2)? as u8;
                has_time = true;
            }
            'M' | 'b' => {
                let rest = s[pos..].to_ascii_lowercase();
                let mut found = false;
                for (i, name) in MONTHS.iter().enumerate() {
                    let full = name.to_ascii_lowercase();
                    let n = if f == 'M' && rest.starts_with(&full) {
                        full.len()
                    } else if rest.starts_with(&full[..3]) {
                        3
                    } else {
                        0
                    };
                    if n > 0 {
                        t.month = (i + 1) as u8;
                        pos += n;
                        found = true;
                        break;
                    }
                }
                if !found {
                    return None;
                }
                has_date = true;
            }
            'W' | 'a' => {
                let rest = s[pos..].to_ascii_lowercase();
                let mut found = false;
                for name in DAYS {
                    let full = name.to_ascii_lowercase();
                    let n = if rest.starts_with(&full) {
                        full.len()
                    } else if rest.starts_with(&full[..3]) {
                        3
                    } else {
                        0
                    };
                    if n > 0 {
                        pos += n;
                        found = true;
                        break;
                    }
                }
                if !found {
                    return None;
                }
            }
            'j' => {
                let doy = take_num(&mut pos, 3)?;
                let base = days_from_civil(i64::from(t.year), 1, 1) + i64::from(doy) - 1;
                let (_, m, d) = civil_from_days(base);
                t.month = m;
                t.day = d;
                has_date = true;
            }
            '%' => {
                if sb.get(pos) != Some(&b'%') {
                    return None;
                }
                pos += 1;
            }
            other => {
                if sb.get(pos) != Some(&(other as u8)) {
                    return None;
                }
                pos += 1;
            }
        }
    }
    if let Some(p) = pm {
        if t.hour > 12 || t.hour == 0 {
            return None;
        }
        t.hour = if p { t.hour % 12 + 12 } else { t.hour % 12 };
    }
    if !valid(&t) {
        return None;
    }
    Some((t, has_date, has_time))
}

/// WEEK(t, mode) and YEARWEEK's week, MySQL's `calc_week`: the year the
/// week belongs to and its number. `mode` bit 0: weeks start on Monday;
/// bit 1: week 0 belongs to the previous year (numbers 1–53); bit 2 (after
/// MySQL's flip for Sunday-first modes): week 1 is the first week with a
/// first weekday, else the first with four days in the year.
pub fn week_of(t: &Temporal, mode: u32, year_mode: bool) -> (i64, i64) {
    let mut flags = mode & 7;
    if flags & 1 == 0 {
        flags ^= 4;
    }
    let monday_first = flags & 1 != 0;
    let mut week_year = flags & 2 != 0 || year_mode;
    let first_weekday = flags & 4 != 0;
    let days_in_year = |y: i64| if is_leap(y) { 366 } else { 365 };
    let daynr = to_days(t);
    let mut year = i64::from(t.year);
    let mut first_daynr = days_from_civil(year, 1, 1) + 719_528;
    let mut weekday = (first_daynr + 5 + i64::from(!monday_first)).rem_euclid(7);
    let late_start = |weekday: i64| (first_weekday && weekday != 0) || (!first_weekday && weekday >= 4);
    if t.month == 1 && i64::from(t.day) <= 7 - weekday {
        if !week_year && late_start(weekday) {
            return (year, 0);
        }
        week_year = true;
        year -= 1;
        let days = days_in_year(year);
        first_daynr -= days;
        weekday = (weekday + 53 * 7 - days).rem_euclid(7);
    }
    let days =
        if late_start(weekday) { daynr - (first_daynr + (7 - weekday)) } else { daynr - (first_daynr - weekday) };
    if week_year && days >= 52 * 7 {
        let next_weekday = (weekday + days_in_year(year)).rem_euclid(7);
        if !late_start(next_weekday) {
            return (year + 1, 1);
        }
    }
    (year, days / 7 + 1)
}

/// A PERIOD_ADD / PERIOD_DIFF period (YYMM or YYYYMM) as a month count.
pub fn period_to_months(period: u64) -> u64 {
    if period == 0 || period > 999_999 {
        return 0;
    }
    let year = match period / 100 {
        y if y < 70 => y + 2000,
        y if y < 100 => y + 1900,
        y => y,
    };
    year * 12 + period % 100 - 1
}

pub fn months_to_period(months: u64) -> u64 {
    if months == 0 {
        return 0;
    }
    let year = match months / 12 {
        y if y < 70 => y + 2000,
        y if y < 100 => y + 1900,
        y => y,
    };
    year * 100 + months % 12 + 1
}

/// The fields a compound INTERVAL unit's text gives, in order, and whether
/// its last field is microseconds (scaled as a fraction: '1.5' is 500000).
fn compound_fields(unit: &str) -> Option<(usize, bool)> {
    Some(match unit {
        "YEAR_MONTH" | "DAY_HOUR" | "HOUR_MINUTE" | "MINUTE_SECOND" => (2, false),
        "DAY_MINUTE" | "HOUR_SECOND" => (3, false),
        "DAY_SECOND" => (4, false),
        "SECOND_MICROSECOND" => (2, true),
        "MINUTE_MICROSECOND" => (3, true),
        "HOUR_MICROSECOND" => (4, true),
        "DAY_MICROSECOND" => (5, true),
        _ => return None,
    })
}

/// A compound INTERVAL's text ('1 2:30:00', '-1 2', '5') as (months,
/// microseconds), MySQL's `get_interval_info`: numbers are runs of digits
/// split by anything else, a leading '-' negates the whole, fewer numbers
/// than the unit has fill its last fields; more is NULL.
pub fn compound_interval(text: &str, unit: &str) -> Option<(i64, i64)> {
    let (count, micros_last) = compound_fields(unit)?;
    let s = text.trim_start();
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let b = s.as_bytes();
    let mut i = b.iter().position(u8::is_ascii_digit).unwrap_or(b.len());
    let mut values: Vec<i64> = Vec::with_capacity(count);
    let mut last_len = 0;
    while i < b.len() && values.len() < count {
        let start = i;
        let mut v: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            v = v.saturating_mul(10).saturating_add(i64::from(b[i] - b'0'));
            i += 1;
        }
        last_len = i - start;
        values.push(v);
        while i < b.len() && !b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() {
        return None;
    }
    let mut fields = vec![0i64; count - values.len()];
    fields.extend(values);
    if micros_last && last_len > 0 && last_len < 6 {
        if let Some(last) = fields.last_mut() {
            *last = last.saturating_mul(10i64.pow(6 - last_len as u32));
        }
    }
    let sign = if negative { -1 } else { 1 };
    if unit == "YEAR_MONTH" {
        return Some((sign * (fields[0].saturating_mul(12).saturating_add(fields[1])), 0));
    }
    // (days, hours, minutes, seconds, microseconds) from the unit's first
    // field on.
    let first = ["DAY", "HOUR", "MINUTE", "SECOND"].iter().position(|f| unit.starts_with(f))?;
    let mut dhmsu = [0i64; 5];
    for (slot, v) in dhmsu[first..].iter_mut().zip(fields) {
        *slot = v;
    }
    let [d, h, m, s, us] = dhmsu;
    let secs = d.checked_mul(24)?.checked_add(h)?.checked_mul(60)?.checked_add(m)?.checked_mul(60)?.checked_add(s)?;
    Some((0, sign * secs.checked_mul(1_000_000)?.checked_add(us)?))
}
