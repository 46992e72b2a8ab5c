//! Arbitrary bytes as a binlog event stream through every decoder the
//! server runs on binlog bytes (`onelog_binlog::fuzzing::check_events`).
//!
//! Input: a flags byte ([`onelog_fuzz::binlog_flags::RESEAL`]), two bytes
//! of the offset SHOW BINLOG EVENTS starts from (little-endian), then the
//! stream (a file with its magic, or bare events).
#![no_main]

use libfuzzer_sys::fuzz_target;
use onelog_binlog::fuzzing::{check_events, reseal};
use onelog_fuzz::binlog_flags::RESEAL;

fuzz_target!(|input: &[u8]| {
    let [flags, from_lo, from_hi, stream @ ..] = input else { return };
    let mut data = stream.to_vec();
    if flags & RESEAL != 0 {
        reseal(&mut data);
    }
    check_events(&data, u64::from(u16::from_le_bytes([*from_lo, *from_hi])));
});
