//! Deterministic input mutation for the bounded fuzz tests that run in CI
//! (`crates/protocol/tests/fuzz.rs`, `crates/binlog/tests/fuzz.rs`).
//!
//! Owns: the fixed-seed PRNG and the generic byte mutations those tests
//! share, and the two environment variables that stretch them
//! (`ONELOG_FUZZ_SCALE` multiplies the iteration counts, `ONELOG_FUZZ_SEED`
//! changes the stream). Not used by the server; hidden from the docs. The
//! coverage-guided targets in `fuzz/` get their mutations from libFuzzer.

/// xorshift64*: deterministic and dependency-free, so a failing iteration
/// reproduces from its seed alone.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for one test stream: `stream` distinguishes the streams
    /// of one test; `ONELOG_FUZZ_SEED` (a number) shifts them all.
    pub fn for_stream(stream: u64) -> Rng {
        let base = std::env::var("ONELOG_FUZZ_SEED").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        // xorshift must never hold 0.
        Rng((base ^ stream).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index into something of length `len` (`0` when it is empty).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Up to `max_len` random bytes.
    pub fn bytes(&mut self, max_len: u64) -> Vec<u8> {
        let len = self.below(max_len + 1) as usize;
        (0..len).map(|_| self.next_u64() as u8).collect()
    }

    /// A few random byte edits of a valid input: overwrite, bit flip,
    /// insert, delete, or truncate.
    pub fn mutate(&mut self, seed: &[u8]) -> Vec<u8> {
        let mut v = seed.to_vec();
        for _ in 0..=self.below(4) {
            self.mutate_once(&mut v);
        }
        v
    }

    /// One of [`Rng::mutate`]'s edits, in place.
    pub fn mutate_once(&mut self, v: &mut Vec<u8>) {
        match self.below(5) {
            0 if !v.is_empty() => {
                let i = self.index(v.len());
                v[i] = self.next_u64() as u8;
            }
            1 if !v.is_empty() => {
                let i = self.index(v.len());
                v[i] ^= 1 << self.below(8);
            }
            2 => {
                let i = self.index(v.len() + 1);
                v.insert(i, self.next_u64() as u8);
            }
            3 if !v.is_empty() => {
                let i = self.index(v.len());
                v.remove(i);
            }
            _ => {
                let n = self.index(v.len() + 1);
                v.truncate(n);
            }
        }
    }
}

/// Iterations for a bounded fuzz loop: `default`, times `ONELOG_FUZZ_SCALE`
/// when that is set (e.g. `ONELOG_FUZZ_SCALE=100` for a long local run).
pub fn iterations(default: u64) -> u64 {
    let scale = std::env::var("ONELOG_FUZZ_SCALE").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(1);
    default.saturating_mul(scale.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let draw = |stream| {
            let mut r = Rng::for_stream(stream);
            (0..4).map(|_| r.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
        assert_ne!(Rng::for_stream(0).next_u64(), 0);
    }

    #[test]
    fn mutations_stay_close_to_the_seed() {
        let mut r = Rng::for_stream(3);
        let seed = vec![7u8; 64];
        let mut changed = 0;
        for _ in 0..200 {
            let m = r.mutate(&seed);
            // At most five edits, each growing the input by at most one byte.
            assert!(m.len() <= seed.len() + 5);
            changed += usize::from(m != seed);
        }
        assert!(changed > 150, "only {changed} of 200 mutations changed the seed");
    }
}
