//! Reading DATE, DATETIME and TIME values from text the way MariaDB's
//! `str_to_datetime` / `str_to_time` read them: which digit groups are
//! fields, which separators are allowed, when a two-digit year is widened,
//! and when trailing text only truncates (a value with a "Truncated
//! incorrect … value" warning) instead of making the whole text invalid.
//!
//! Written by hand because the rules are MariaDB's own (no library parses
//! `'12:00:00 12.34.56'` as `2012-00-00 12:34:56`), and clients depend on
//! them through CAST, comparisons and column assignment.

use super::temporal::{days_in_month, time_of};
use onelog_core::Temporal;

/// Years written with two digits below this are 20xx, others 19xx.
const TWO_DIGIT_YEAR_PIVOT: u32 = 70;
/// Hours beyond any TIME (838) that still fit the arithmetic below, about
/// as many as MariaDB reads in an interval (EXTRACT); a larger hour is
/// clamped here, and a TIME then to 838:59:59 by the caller.
const HOURS_CAP: u64 = 34_000_000;

/// A value read from text, and what of the text it left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scanned<T> {
    pub value: T,
    pub cut: Cut,
}

/// What reading a value left out of its text; MariaDB keeps the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cut {
    Nothing,
    /// Fraction digits past the sixth (a note).
    FractionDigits,
    /// A TIME read from a datetime with a date other than zero (a note
    /// when stored in a column, nothing in CAST).
    DatePart,
    /// Non-space text after the value (a warning).
    Text,
}

/// What kind of value a datetime text held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateTimeKind {
    /// Three fields: year, month, day.
    Date,
    /// More than three fields.
    DateTime,
}

/// A cursor over the text's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    fields: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn at_end(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// Digits up to `max_len`, as a number (saturating); `Ok(None)` at the
    /// end of the text, `Err` on a non-digit.
    fn number(&mut self, max_len: usize) -> Result<Option<u64>, ()> {
        let Some(first) = self.peek() else { return Ok(None) };
        if !first.is_ascii_digit() {
            return Err(());
        }
        let stop = self.at.saturating_add(max_len).min(self.bytes.len());
        let mut value = 0u64;
        while self.at < stop && self.bytes[self.at].is_ascii_digit() {
            value = value.saturating_mul(10).saturating_add(u64::from(self.bytes[self.at] - b'0'));
            self.at += 1;
        }
        self.fields += 1;
        Ok(Some(value))
    }

    fn punct(&mut self) -> Result<(), ()> {
        match self.peek() {
            None => Ok(()),
            Some(c) if c.is_ascii_punctuation() => {
                self.at += 1;
                Ok(())
            }
            Some(_) => Err(()),
        }
    }

    fn skip_digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    /// Whether only spaces are left.
    fn rest_is_blank(&self) -> bool {
        self.bytes[self.at.min(self.bytes.len())..].iter().all(|c| c.is_ascii_whitespace())
    }

    /// A fraction after '.': the first six digits as microseconds, and
    /// whether more digits followed.
    fn micros(&mut self) -> (u32, Cut) {
        let start = self.at;
        let value = self.number(6).ok().flatten().unwrap_or(0);
        let len = self.at - start;
        let cut = if self.skip_digits() > 0 { Cut::FractionDigits } else { Cut::Nothing };
        let scale = 10u64.pow(6u32.saturating_sub(len as u32));
        (u32::try_from(value * scale).unwrap_or(0), cut)
    }

    /// `cut`, or [`Cut::Text`] if non-space text is left.
    fn finish(&self, cut: Cut) -> Cut {
        if self.rest_is_blank() {
            cut
        } else {
            Cut::Text
        }
    }
}

/// The fields of a datetime text before their ranges are checked.
#[derive(Default)]
struct Fields {
    parts: [u64; 6],
    micros: u32,
}

/// Reads a DATE or DATETIME: `[YY]YYMMDD[[T]hhmmss[.ffffff]]` as digits
/// only, or `Y…-M…-D…[ h…:m…:s…[.ffffff]]` with any punctuation between
/// fields and `T`, a punctuation mark or spaces between date and time.
/// `for_time` (reading a TIME's text) refuses punctuation there and
/// lets a day pass its month's end, as MariaDB does for a TIME.
/// `None`: not a date (fewer than three fields) or a field out of range.
pub fn scan_datetime(text: &str, for_time: bool) -> Option<Scanned<(Temporal, DateTimeKind)>> {
    let mut cur = Cursor { bytes: text.as_bytes(), at: 0, fields: 0 };
    cur.skip_spaces();
    if !cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let (mut fields, year_digits, stopped) = match compact_digits(&cur) {
        Some(digits) => compact_fields(&mut cur, digits),
        None => delimited_fields(&mut cur, for_time)?,
    };
    if cur.fields < 3 {
        return None;
    }
    let mut cut = Cut::Nothing;
    if !stopped && cur.peek() == Some(b'.') {
        cur.at += 1;
        (fields.micros, cut) = cur.micros();
    }
    let kind = if cur.fields <= 3 { DateTimeKind::Date } else { DateTimeKind::DateTime };
    let value = checked_datetime(&fields, year_digits, for_time)?;
    Some(Scanned { value: (value, kind), cut: cur.finish(cut) })
}

/// How many digits a digits-only text has (optionally `T` and more
/// digits, and a fraction after at least twelve digits, not counted);
/// `None` if it is not digits only.
fn compact_digits(cur: &Cursor) -> Option<usize> {
    let mut probe = Cursor { bytes: cur.bytes, at: cur.at, fields: 0 };
    let mut digits = probe.skip_digits();
    if probe.peek() == Some(b'T') {
        probe.at += 1;
        digits += probe.skip_digits();
    }
    if probe.peek() == Some(b'.') && digits >= 12 {
        probe.at += 1;
        probe.skip_digits();
    }
    probe.at_end().then_some(digits)
}

/// Fixed-width fields of a digits-only text of `digits` digits: a
/// four-digit year when there are 4, 8 or at least 14 digits, else two.
fn compact_fields(cur: &mut Cursor, digits: usize) -> (Fields, usize, bool) {
    let year_digits = if digits == 4 || digits == 8 || digits >= 14 { 4 } else { 2 };
    let mut fields = Fields::default();
    let mut cut = false;
    for (i, width) in [year_digits, 2, 2, 2, 2, 2].into_iter().enumerate() {
        if i == 3 && cur.peek() == Some(b'T') {
            cur.at += 1;
        }
        match cur.number(width) {
            Ok(Some(v)) => fields.parts[i] = v,
            Ok(None) => break,
            Err(()) => {
                cut = true;
                break;
            }
        }
    }
    (fields, year_digits, cut)
}

/// Fields of any length separated by punctuation (and the date from the
/// time by `T`, punctuation or spaces). `None` when `datetime_only` and
/// punctuation separates date and time: then the text is not a datetime.
fn delimited_fields(cur: &mut Cursor, datetime_only: bool) -> Option<(Fields, usize, bool)> {
    let mut fields = Fields::default();
    let start = cur.at;
    fields.parts[0] = cur.number(usize::MAX).ok().flatten().unwrap_or(0);
    let year_digits = cur.at - start;
    for i in 1..6 {
        let separated = if i == 3 { date_time_separator(cur, datetime_only)? } else { cur.punct() };
        let read = separated.and_then(|()| cur.number(usize::MAX));
        match read {
            Ok(Some(v)) => fields.parts[i] = v,
            Ok(None) => return Some((fields, year_digits, false)),
            Err(()) => return Some((fields, year_digits, true)),
        }
    }
    Some((fields, year_digits, false))
}

fn date_time_separator(cur: &mut Cursor, datetime_only: bool) -> Option<Result<(), ()>> {
    match cur.peek() {
        None => Some(Ok(())),
        Some(b'T') => {
            cur.at += 1;
            Some(Ok(()))
        }
        Some(c) if c.is_ascii_punctuation() => {
            if datetime_only {
                return None;
            }
            cur.at += 1;
            Some(Ok(()))
        }
        Some(c) if c.is_ascii_whitespace() => {
            cur.skip_spaces();
            Some(Ok(()))
        }
        Some(_) => Some(Err(())),
    }
}

/// The fields as a valid datetime (zero dates and zero months or days
/// allowed; any day up to 31 with `any_day`), widening a two-digit year.
fn checked_datetime(fields: &Fields, year_digits: usize, any_day: bool) -> Option<Temporal> {
    let [year, month, day, hour, minute, second] = fields.parts;
    let zero = fields.parts.iter().all(|p| *p == 0) && fields.micros == 0;
    let year = match year_digits {
        2 if !zero => year + if year < u64::from(TWO_DIGIT_YEAR_PIVOT) { 2000 } else { 1900 },
        _ => year,
    };
    if year > 9999 || month > 12 || day > 31 || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let t = Temporal {
        year: year as u16,
        month: month as u8,
        day: day as u8,
        hour: hour as u8,
        minute: minute as u8,
        second: second as u8,
        micros: fields.micros,
    };
    let day_fits = any_day || t.month == 0 || t.day <= days_in_month(i64::from(t.year), t.month);
    day_fits.then_some(t)
}

/// Reads a TIME as signed microseconds (not yet limited to ±838:59:59):
/// a full datetime's time of day, `[-][D ]h…[:m…[:s…]][.ffffff]`, or one
/// number read as `hhmmss`.
pub fn scan_time(text: &str) -> Option<Scanned<i64>> {
    let mut cur = Cursor { bytes: text.as_bytes(), at: 0, fields: 0 };
    cur.skip_spaces();
    let negative = cur.peek() == Some(b'-');
    if negative {
        cur.at += 1;
    }
    if cur.at_end() {
        return None;
    }
    // A TIME starts with a digit (spaces may follow the sign): 'abc',
    // '.5' and ':10' are no time at all, not 00:00:00.
    let first = cur.bytes[cur.at..].iter().find(|c| !c.is_ascii_whitespace());
    if !first.is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if cur.bytes.len() - cur.at >= 12 {
        let rest = std::str::from_utf8(&cur.bytes[cur.at..]).ok()?;
        // Only a full datetime counts here: `01:02:03    ` is a time.
        if let Some(Scanned { value: (t, DateTimeKind::DateTime), cut }) = scan_datetime(rest, true) {
            let us = time_of(&t);
            let cut = if cut == Cut::Nothing && t.date() != Temporal::default() { Cut::DatePart } else { cut };
            return Some(Scanned { value: if negative { -us } else { us }, cut });
        }
        if datetime_fields_out_of_range(rest) {
            return None;
        }
    }
    let [days, hours, minutes, seconds] = time_fields(&mut cur);
    if minutes >= 60 || seconds >= 60 {
        return None;
    }
    let (mut micros, mut cut) = (0u32, Cut::Nothing);
    if cur.peek() == Some(b'.') {
        cur.at += 1;
        (micros, cut) = cur.micros();
    }
    if has_exponent(&cur) {
        return None;
    }
    let hours = (days.min(HOURS_CAP) * 24 + hours.min(HOURS_CAP)).min(HOURS_CAP);
    let us = ((hours * 3600 + minutes * 60 + seconds) * 1_000_000 + u64::from(micros)) as i64;
    Some(Scanned { value: if negative { -us } else { us }, cut: cur.finish(cut) })
}

/// Whether a text long enough to be a datetime has its fields, with a
/// year of at most four digits, but a value out of range (MariaDB then
/// rejects it as a TIME too).
fn datetime_fields_out_of_range(text: &str) -> bool {
    let mut cur = Cursor { bytes: text.as_bytes(), at: 0, fields: 0 };
    if !cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        return false;
    }
    let parsed = match compact_digits(&cur) {
        Some(digits) => Some(compact_fields(&mut cur, digits)),
        None => delimited_fields(&mut cur, true),
    };
    matches!(parsed, Some((fields, year_digits, _))
        if year_digits <= 4 && cur.fields >= 3 && checked_datetime(&fields, year_digits, true).is_none())
}

/// Days, hours, minutes and seconds of a TIME text.
fn time_fields(cur: &mut Cursor) -> [u64; 4] {
    let first = cur.number(usize::MAX).ok().flatten().unwrap_or(0);
    let end_of_days = cur.at;
    cur.skip_spaces();
    let left = cur.bytes.len() - cur.at;
    let next_is_digit = |k: usize| cur.bytes.get(cur.at + k).is_some_and(|c| c.is_ascii_digit());
    let mut parts = [0u64; 4];
    let mut state = if left > 1 && cur.at != end_of_days && next_is_digit(0) {
        parts[0] = first;
        1
    } else if left > 1 && cur.peek() == Some(b':') && next_is_digit(1) {
        parts[1] = first;
        cur.at += 1;
        2
    } else {
        // One number: hhmmss.
        cur.at = end_of_days;
        return [0, first / 10000, first / 100 % 100, first % 100];
    };
    loop {
        parts[state] = cur.number(usize::MAX).ok().flatten().unwrap_or(0);
        state += 1;
        let more = cur.bytes.len() - cur.at >= 2
            && cur.peek() == Some(b':')
            && cur.bytes.get(cur.at + 1).is_some_and(|c| c.is_ascii_digit());
        if state == 4 || !more {
            break;
        }
        cur.at += 1;
    }
    parts
}

/// `e5` or `e-5` after a TIME (a `%g`-formatted number) makes it invalid.
fn has_exponent(cur: &Cursor) -> bool {
    let rest = &cur.bytes[cur.at.min(cur.bytes.len())..];
    match rest {
        [b'e' | b'E', d, ..] if d.is_ascii_digit() => true,
        [b'e' | b'E', b'-' | b'+', d, ..] => d.is_ascii_digit(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(text: &str) -> Option<(String, bool)> {
        scan_datetime(text, false).map(|s| {
            let t = s.value.0;
            let shown = format!(
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}",
                t.year, t.month, t.day, t.hour, t.minute, t.second, t.micros
            );
            (shown, s.cut != Cut::Nothing)
        })
    }

    #[test]
    fn datetime_texts_read_as_mariadb_reads_them() {
        let ok = |text: &str, want: &str| assert_eq!(dt(text), Some((want.to_string(), false)), "{text}");
        ok("2002.11.12", "2002-11-12 00:00:00.000000");
        ok("2002-011-012", "2002-11-12 00:00:00.000000");
        ok("12:00:00.12.34.56", "2012-00-00 12:34:56.000000");
        ok("12:00:00 12.34.56", "2012-00-00 12:34:56.000000");
        ok("991231", "1999-12-31 00:00:00.000000");
        ok("20030102T030405.5", "2003-01-02 03:04:05.500000");
        ok("0000-00-00", "0000-00-00 00:00:00.000000");
        ok("00-00-00", "0000-00-00 00:00:00.000000");
        assert_eq!(dt(" 2001-02-03 04:05:06.1234567 "), Some(("2001-02-03 04:05:06.123456".into(), true)));
        assert_eq!(dt("2012103123595912"), Some(("2012-10-31 23:59:59.000000".into(), true)));
        assert_eq!(dt("2001-02-03 garbage"), Some(("2001-02-03 00:00:00.000000".into(), true)));
        assert_eq!(dt("2001-02-30"), None);
        assert_eq!(dt("2001-13-01"), None);
        assert_eq!(dt("12"), None);
        assert_eq!(dt("x2001-01-01"), None);
    }

    #[test]
    fn time_texts_read_as_mariadb_reads_them() {
        let t = |text: &str| scan_time(text).map(|s| (s.value, s.cut == Cut::Text));
        let us = |h: i64, m: i64, s: i64| ((h * 60 + m) * 60 + s) * 1_000_000;
        assert_eq!(t("12:00:00 12.34.56"), Some((us(12, 34, 56), false)));
        assert_eq!(t("12:00:00.12.34.56"), Some((us(12, 0, 0) + 120_000, true)));
        assert_eq!(t("12:00:00-12.34.56"), Some((us(12, 0, 0), true)));
        assert_eq!(t("1 12"), Some((us(36, 0, 0), false)));
        assert_eq!(t("-01:02"), Some((-us(1, 2, 0), false)));
        assert_eq!(t("123456"), Some((us(12, 34, 56), false)));
        assert_eq!(t("10:61:00"), None);
        assert_eq!(t("1e5"), None);
        assert_eq!(t("100000:02:03"), Some((us(1_000_000, 0, 0).min(us(100_000, 2, 3)), false)));
        assert_eq!(t("2001-13-01 10:00:00"), None);
        assert_eq!(t("2001-02-30 10:00:00"), Some((us(10, 0, 0), false)));
        assert_eq!(scan_time("2001-02-30 10:00:00").map(|s| s.cut), Some(Cut::DatePart));
        assert_eq!(t("0000-00-00 10:00:00"), Some((us(10, 0, 0), false)));
        assert_eq!(t("01:02:03    "), Some((us(1, 2, 3), false)));
        assert_eq!(t("2001-02-03      "), Some((us(0, 20, 1), true)));
    }
}
