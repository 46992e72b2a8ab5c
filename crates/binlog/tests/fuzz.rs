//! Bounded, deterministic fuzzing of the binlog readers, run by CI.
//!
//! Seeds are real binlogs written by the commit pipeline (with and without
//! checksums); each iteration damages one the way disks and crashes do —
//! a cut (zero-filled or not), byte edits with or without re-sealed
//! checksums, an edited length field, an event spliced in or dropped — and
//! feeds it to every event decoder and to start-up recovery, which must
//! keep the invariants of `onelog_binlog::fuzzing`. `ONELOG_FUZZ_SCALE=N`
//! runs N times as many iterations, `ONELOG_FUZZ_SEED` another stream;
//! `fuzz/` holds the coverage-guided targets over the same checks.

use onelog_binlog::fuzzing::{
    check_events, check_recovery, frames, reseal, scratch_parent, write_seed_binlog, RecoveryOutcome, SeedBinlog,
};
use onelog_binlog::recovery::CutKind;
use onelog_core::fuzz::{iterations, Rng};
use std::collections::BTreeMap;

/// How an input was made from its seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Damage {
    /// The live file cut short, maybe followed by preallocated zeros.
    Cut,
    /// Byte edits; checksums left broken.
    Bytes,
    /// Byte edits, then checksums and log_pos re-sealed.
    BytesResealed,
    /// One event's length field changed.
    Length,
    /// An event from a seed inserted at an event boundary, re-sealed.
    Splice,
    /// One event removed, re-sealed.
    Drop,
    /// The earlier file damaged, the live one intact.
    EarlierFile,
}

const DAMAGES: [Damage; 7] = [
    Damage::Cut,
    Damage::Bytes,
    Damage::BytesResealed,
    Damage::Length,
    Damage::Splice,
    Damage::Drop,
    Damage::EarlierFile,
];

fn damaged(rng: &mut Rng, seed: &SeedBinlog, damage: Damage) -> Vec<Vec<u8>> {
    // Usually both files; sometimes the first alone (it then is the live file).
    let keep = if rng.below(4) == 0 { 1 } else { seed.files.len() };
    let mut files = seed.files[..keep].to_vec();
    let target = if damage == Damage::EarlierFile && keep > 1 { 0 } else { keep - 1 };
    let data = &mut files[target];
    match damage {
        Damage::Cut => {
            data.truncate(rng.index(data.len() + 1));
            let zeros = [0, 0, 7, 300][rng.index(4)];
            data.resize(data.len() + zeros, 0);
        }
        Damage::Bytes | Damage::EarlierFile => *data = rng.mutate(data),
        Damage::BytesResealed => {
            *data = rng.mutate(data);
            reseal(data);
        }
        Damage::Length => edit_length(rng, data),
        Damage::Splice => {
            let donor = &seed.files[rng.index(seed.files.len())];
            let (start, size) = pick_frame(rng, donor);
            let (at, _) = pick_frame(rng, data);
            let event = donor[start..start + size].to_vec();
            data.splice(at..at, event);
            reseal(data);
        }
        Damage::Drop => {
            let (start, size) = pick_frame(rng, data);
            data.drain(start..start + size);
            reseal(data);
        }
    }
    files
}

fn pick_frame(rng: &mut Rng, data: &[u8]) -> (usize, usize) {
    let f = frames(data);
    f[rng.index(f.len())]
}

/// Sets one event's 32-bit length to a nearby or an arbitrary value.
fn edit_length(rng: &mut Rng, data: &mut [u8]) {
    let (start, size) = pick_frame(rng, data);
    let size = size as u32;
    let new = match rng.below(4) {
        0 => size.wrapping_add(1 + rng.below(8) as u32),
        1 => size.saturating_sub(1 + rng.below(8) as u32),
        2 => rng.below(64) as u32,
        _ => rng.next_u64() as u32,
    };
    data[start + 9..start + 13].copy_from_slice(&new.to_le_bytes());
    if rng.below(2) == 0 {
        reseal(data);
    }
}

#[derive(Default)]
struct Tally {
    outcomes: BTreeMap<(Damage, &'static str), u64>,
    events_decoded: usize,
    rows_decoded: usize,
}

impl Tally {
    fn record(&mut self, damage: Damage, outcome: &RecoveryOutcome) {
        let name = match outcome {
            RecoveryOutcome::Clean { .. } => "clean",
            RecoveryOutcome::Cut { kind: CutKind::Garbage, .. } => "cut garbage",
            RecoveryOutcome::Cut { kind: CutKind::PartialTransaction, .. } => "cut partial transaction",
            RecoveryOutcome::Corrupt => "corrupt",
        };
        *self.outcomes.entry((damage, name)).or_default() += 1;
    }

    fn count(&self, damage: Option<Damage>, name: &str) -> u64 {
        self.outcomes.iter().filter(|((d, n), _)| damage.is_none_or(|x| x == *d) && *n == name).map(|(_, c)| c).sum()
    }
}

#[test]
fn damaged_binlogs_keep_the_reader_invariants() {
    let seeds: Vec<SeedBinlog> = [true, false]
        .into_iter()
        .map(|checksum| {
            let dir = tempfile::tempdir().expect("tempdir");
            write_seed_binlog(dir.path(), checksum).expect("seed binlog")
        })
        .collect();
    assert!(seeds.iter().all(|s| s.files.len() == 2 && s.commits.len() == 6), "seeds: two files, six commits");
    let work = tempfile::tempdir_in(scratch_parent()).expect("tempdir");
    let mut rng = Rng::for_stream(0xB1_4106);
    let mut tally = Tally::default();
    for i in 0..iterations(5_000) {
        let seed = &seeds[rng.index(seeds.len())];
        let damage = DAMAGES[i as usize % DAMAGES.len()];
        let files = damaged(&mut rng, seed, damage);
        let live = files.last().expect("at least one file");
        let decoded = check_events(live, rng.below(live.len() as u64 + 8));
        tally.events_decoded += decoded.events_decoded;
        tally.rows_decoded += decoded.rows_decoded;
        let outcome = check_recovery(work.path(), &files, Some(seed));
        tally.record(damage, &outcome);
    }
    for (what, n) in &tally.outcomes {
        println!("{what:?}: {n}");
    }
    // The damage reached every verdict recovery has, and the decoders.
    for name in ["clean", "cut garbage", "cut partial transaction", "corrupt"] {
        assert!(tally.count(None, name) > 0, "no input ended {name}");
    }
    assert!(tally.count(Some(Damage::EarlierFile), "corrupt") > 0, "earlier-file damage never refused");
    assert!(tally.events_decoded > 10_000 && tally.rows_decoded > 10_000, "decoders barely reached");
}

#[test]
fn every_cut_of_the_seed_replays_exactly_its_complete_transactions() {
    for checksum in [true, false] {
        let dir = tempfile::tempdir().expect("tempdir");
        let seed = write_seed_binlog(dir.path(), checksum).expect("seed binlog");
        let work = tempfile::tempdir_in(scratch_parent()).expect("tempdir");
        let live = seed.files.len() - 1;
        // Every transaction boundary of the live file, and a byte either side.
        let ends: Vec<usize> = seed
            .commits
            .iter()
            .filter(|c| c.end_pos.file_seq as usize == live + 1)
            .map(|c| c.end_pos.offset as usize)
            .collect();
        for cut in ends.iter().flat_map(|e| [e - 1, *e, e + 1]).filter(|c| *c <= seed.files[live].len()) {
            let mut files = seed.files.clone();
            files[live].truncate(cut);
            // check_recovery compares the replayed transactions with the seed's.
            let outcome = check_recovery(work.path(), &files, Some(&seed));
            let whole = ends.contains(&cut) || cut == seed.files[live].len();
            assert_eq!(matches!(outcome, RecoveryOutcome::Clean { .. }), whole, "cut at {cut}: {outcome:?}");
        }
    }
}
