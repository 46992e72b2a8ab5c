//! The session time zone (`@@time_zone`): what NOW(), FROM_UNIXTIME(),
//! UNIX_TIMESTAMP(expr) and CONVERT_TZ() read local times in.
//!
//! `SYSTEM` is the server's zone, which OneLog reports as
//! `system_time_zone` = UTC, so it converts as UTC does. Named zones come
//! from chrono-tz (the IANA database compiled in): MariaDB knows them only
//! after mariadb-tzinfo-to-sql filled mysql.time_zone*, OneLog always does
//! (documented in docs/variables.md).

use chrono::{Offset, TimeZone as _};
use onelog_core::{ErrorCode, SqlError, Temporal, Value};

use crate::ast::VarScope;
use crate::eval::temporal::{from_unix_micros, unix_micros};
use crate::eval::EvalEnv;

/// MariaDB's accepted range of a `±HH:MM` zone: -12:59 .. +13:00.
const MIN_OFFSET_SECS: i32 = -(12 * 3600 + 59 * 60);
const MAX_OFFSET_SECS: i32 = 13 * 3600;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeZone {
    System,
    /// A fixed offset east of UTC.
    Offset {
        secs: i32,
    },
    Named(chrono_tz::Tz),
}

impl TimeZone {
    /// A zone as SET time_zone, CONVERT_TZ() and --default-time-zone spell
    /// it; `None` where MariaDB gives 1298 (no blanks are trimmed there).
    pub fn parse(text: &str) -> Option<TimeZone> {
        if text.eq_ignore_ascii_case("SYSTEM") {
            return Some(TimeZone::System);
        }
        if let Some(secs) = parse_offset(text) {
            return Some(TimeZone::Offset { secs });
        }
        chrono_tz::Tz::from_str_insensitive(text).ok().map(TimeZone::Named)
    }

    /// What `@@time_zone` shows: `SYSTEM`, `+05:00`, or the zone's name.
    pub fn name(&self) -> String {
        match self {
            TimeZone::System => "SYSTEM".to_string(),
            TimeZone::Offset { secs } => {
                let sign = if *secs < 0 { '-' } else { '+' };
                let abs_mins = secs.unsigned_abs() / 60;
                format!("{sign}{:02}:{:02}", abs_mins / 60, abs_mins % 60)
            }
            TimeZone::Named(tz) => tz.name().to_string(),
        }
    }

    /// The zone's offset east of UTC at the instant `utc_secs`.
    fn offset_at_utc(&self, utc_secs: i64) -> i64 {
        match self {
            TimeZone::System => 0,
            TimeZone::Offset { secs } => i64::from(*secs),
            TimeZone::Named(tz) => match chrono::DateTime::from_timestamp(utc_secs, 0) {
                Some(at) => i64::from(tz.offset_from_utc_datetime(&at.naive_utc()).fix().local_minus_utc()),
                None => 0,
            },
        }
    }

    /// The offset that applies to the local wall-clock second `local_secs`
    /// (seconds since 1970-01-01 00:00 of local time). A time in a DST gap
    /// takes the offset after the gap minus the gap (MariaDB maps it to the
    /// first second after the transition); a time in an overlap takes the
    /// earlier instant, as MariaDB's reverse transition table does.
    fn offset_at_local(&self, local_secs: i64) -> i64 {
        let TimeZone::Named(tz) = self else { return self.offset_at_utc(0) };
        let Some(local) = chrono::DateTime::from_timestamp(local_secs, 0).map(|d| d.naive_utc()) else { return 0 };
        match tz.offset_from_local_datetime(&local) {
            chrono::LocalResult::Single(o) => i64::from(o.fix().local_minus_utc()),
            chrono::LocalResult::Ambiguous(a, b) => i64::from(a.fix().local_minus_utc().max(b.fix().local_minus_utc())),
            chrono::LocalResult::None => self.gap_offset(local_secs),
        }
    }

    /// For a local second inside a spring-forward gap: the offset that puts
    /// it on the transition instant (the first second after the gap). The
    /// transition lies between the instants the offsets on either side of
    /// the gap would give; it is found by bisection on the UTC second.
    fn gap_offset(&self, local_secs: i64) -> i64 {
        let after = self.offset_at_utc(local_secs + 86_400);
        let (mut lo, mut hi) = (local_secs - after, local_secs - self.offset_at_utc(local_secs - 86_400));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.offset_at_utc(mid) == after {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        local_secs - lo
    }

    /// A UTC datetime as this zone's wall clock.
    pub fn utc_to_local(&self, t: &Temporal) -> Temporal {
        if *self == TimeZone::System {
            return *t;
        }
        let us = unix_micros(t);
        let offset_us = self.offset_at_utc(us.div_euclid(1_000_000)) * 1_000_000;
        from_unix_micros(us + offset_us).unwrap_or(*t)
    }

    /// This zone's wall-clock datetime as microseconds since the epoch.
    pub fn local_to_unix_micros(&self, t: &Temporal) -> i64 {
        let us = unix_micros(t);
        us - self.offset_at_local(us.div_euclid(1_000_000)) * 1_000_000
    }

    /// This zone's wall-clock datetime as a UTC datetime (`None` before 1970
    /// would need negative days, which the caller treats as out of range).
    pub fn local_to_utc(&self, t: &Temporal) -> Option<Temporal> {
        if *self == TimeZone::System {
            return Some(*t);
        }
        from_unix_micros(self.local_to_unix_micros(t))
    }
}

/// The session's `@@time_zone` (SYSTEM without a session).
pub fn session_zone(env: &dyn EvalEnv) -> TimeZone {
    match env.system_var(VarScope::Session, "time_zone") {
        Ok(Value::Bytes(b)) => std::str::from_utf8(&b).ok().and_then(TimeZone::parse).unwrap_or(TimeZone::System),
        _ => TimeZone::System,
    }
}

/// `[+-]H+:MM` within MariaDB's range; `-00:00` is `+00:00`.
fn parse_offset(text: &str) -> Option<i32> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => return None,
    };
    let (hours, mins) = rest.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(hours) || !digits(mins) {
        return None;
    }
    let hours: i32 = hours.parse().ok().filter(|h| *h <= 24)?;
    let mins: i32 = mins.parse().ok().filter(|m| *m <= 59)?;
    let secs = (hours * 60 + mins) * 60;
    let secs = if negative { -secs } else { secs };
    (MIN_OFFSET_SECS..=MAX_OFFSET_SECS).contains(&secs).then_some(secs)
}

/// Error 1298 for a zone [`TimeZone::parse`] rejects.
pub fn unknown_time_zone(text: &str) -> SqlError {
    SqlError::new(ErrorCode::UNKNOWN_TIME_ZONE, format!("Unknown or incorrect time zone: '{text}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(y: u16, mo: u8, d: u8, h: u8, mi: u8, s: u8) -> Temporal {
        Temporal { year: y, month: mo, day: d, hour: h, minute: mi, second: s, micros: 0 }
    }

    #[test]
    fn offsets_as_mariadb_accepts_them() {
        let name = |s: &str| TimeZone::parse(s).map(|z| z.name());
        assert_eq!(name("+5:00").as_deref(), Some("+05:00"));
        assert_eq!(name("+005:00").as_deref(), Some("+05:00"));
        assert_eq!(name("-00:00").as_deref(), Some("+00:00"));
        assert_eq!(name("-12:59").as_deref(), Some("-12:59"));
        assert_eq!(name("+13:00").as_deref(), Some("+13:00"));
        assert_eq!(name("system").as_deref(), Some("SYSTEM"));
        assert_eq!(name("europe/berlin").as_deref(), Some("Europe/Berlin"));
        for bad in ["+5", "5:00", "+13:01", "-13:00", "+05:60", " +05:00", "+05:00 ", "+05:00:00", "Mars/Base", ""] {
            assert_eq!(TimeZone::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn named_zone_offsets_follow_dst() {
        let berlin = TimeZone::parse("Europe/Berlin").unwrap_or(TimeZone::System);
        assert_eq!(berlin.utc_to_local(&dt(2024, 1, 1, 0, 0, 0)), dt(2024, 1, 1, 1, 0, 0));
        assert_eq!(berlin.utc_to_local(&dt(2024, 7, 1, 0, 0, 0)), dt(2024, 7, 1, 2, 0, 0));
        assert_eq!(berlin.local_to_utc(&dt(2024, 7, 1, 2, 0, 0)), Some(dt(2024, 7, 1, 0, 0, 0)));
        // 02:30 on 2024-03-31 does not exist in Berlin: the transition, 01:00 UTC.
        assert_eq!(berlin.local_to_utc(&dt(2024, 3, 31, 2, 30, 0)), Some(dt(2024, 3, 31, 1, 0, 0)));
        // 02:30 on 2024-10-27 happens twice: the earlier one, still CEST.
        assert_eq!(berlin.local_to_utc(&dt(2024, 10, 27, 2, 30, 0)), Some(dt(2024, 10, 27, 0, 30, 0)));
    }
}
