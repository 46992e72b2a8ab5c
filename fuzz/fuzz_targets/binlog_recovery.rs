//! Arbitrary bytes as the live binlog file through start-up recovery, the
//! replay reader and a replica's read, with the recovery invariants checked
//! (`onelog_binlog::fuzzing::check_recovery`).
//!
//! Input: a flags byte ([`onelog_fuzz::binlog_flags`]), then the live file
//! — or, with `EARLIER_FILE_IN_INPUT`, a 2-byte length (little-endian), the
//! earlier file of that length, then the live file. With an earlier file,
//! recovery, replay and the replica read walk two files; the seed the flags
//! pick is also the oracle for inputs that are a cut seed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onelog_binlog::fuzzing::{check_recovery, reseal, scratch_parent, write_seed_binlog, SeedBinlog};
use onelog_fuzz::binlog_flags::{EARLIER_FILE, EARLIER_FILE_IN_INPUT, NO_CHECKSUM_SEED, PREALLOCATED, RESEAL};
use std::sync::OnceLock;
use tempfile::TempDir;

struct Fixture {
    /// Seeds written by the pipeline: with CRC32s, without.
    seeds: [SeedBinlog; 2],
    /// Where each run's binlog is installed.
    work: TempDir,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let seed = |checksum| {
            let dir = tempfile::tempdir_in(scratch_parent()).expect("tempdir");
            write_seed_binlog(dir.path(), checksum).expect("seed binlog")
        };
        Fixture { seeds: [seed(true), seed(false)], work: tempfile::tempdir_in(scratch_parent()).expect("tempdir") }
    })
}

fuzz_target!(|input: &[u8]| {
    let [flags, rest @ ..] = input else { return };
    let fixture = fixture();
    let seed = &fixture.seeds[usize::from(flags & NO_CHECKSUM_SEED != 0)];
    let (earlier, live) = if flags & EARLIER_FILE_IN_INPUT != 0 {
        let [lo, hi, rest @ ..] = rest else { return };
        let (earlier, live) = rest.split_at(usize::from(u16::from_le_bytes([*lo, *hi])).min(rest.len()));
        (Some(earlier.to_vec()), live)
    } else if flags & EARLIER_FILE != 0 {
        (Some(seed.files[0].clone()), rest)
    } else {
        (None, rest)
    };
    let mut files: Vec<Vec<u8>> = earlier.into_iter().chain([live.to_vec()]).collect();
    if flags & RESEAL != 0 {
        files.iter_mut().for_each(|f| reseal(f));
    }
    if flags & PREALLOCATED != 0 {
        let live = files.last_mut().expect("the live file");
        live.resize(live.len() + 300, 0);
    }
    check_recovery(fixture.work.path(), &files, Some(seed));
});
