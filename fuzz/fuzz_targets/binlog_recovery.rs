//! Arbitrary bytes as the live binlog file through start-up recovery, the
//! replay reader and a replica's read, with the recovery invariants checked
//! (`onelog_binlog::fuzzing::check_recovery`).
//!
//! Input: a flags byte ([`onelog_fuzz::binlog_flags`]), then the live file.
//! With an earlier file, recovery and replay walk two files; the seed the
//! flags pick is also the oracle for inputs that are a cut seed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onelog_binlog::fuzzing::{check_recovery, reseal, scratch_parent, write_seed_binlog, SeedBinlog};
use onelog_fuzz::binlog_flags::{EARLIER_FILE, NO_CHECKSUM_SEED, PREALLOCATED, RESEAL};
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
    let [flags, live @ ..] = input else { return };
    let fixture = fixture();
    let seed = &fixture.seeds[usize::from(flags & NO_CHECKSUM_SEED != 0)];
    let mut live = live.to_vec();
    if flags & RESEAL != 0 {
        reseal(&mut live);
    }
    if flags & PREALLOCATED != 0 {
        live.resize(live.len() + 300, 0);
    }
    let files = if flags & EARLIER_FILE != 0 { vec![seed.files[0].clone(), live] } else { vec![live] };
    check_recovery(fixture.work.path(), &files, Some(seed));
});
