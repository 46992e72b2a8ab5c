//! UUID(), SYS_GUID() and UUID_SHORT(): MariaDB's generated identifiers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

/// 100-nanosecond intervals from the UUID epoch (1582-10-15) to 1970.
const UUID_EPOCH_OFFSET: u64 = 0x01B2_1DD2_1381_4000;

/// The last UUID timestamp handed out: each UUID gets a later one, so two
/// in the same 100 ns still differ (as MariaDB's generator guarantees).
static LAST_TICKS: AtomicU64 = AtomicU64::new(0);

/// This process's clock sequence and node (random, with the multicast bit
/// set as RFC 4122 asks of a node that is not a MAC address).
fn clock_seq_and_node() -> (u16, u64) {
    static NODE: OnceLock<(u16, u64)> = OnceLock::new();
    *NODE.get_or_init(|| {
        let seq = rand::random::<u16>() & 0x3fff | 0x8000;
        let node = rand::random::<u64>() & 0xffff_ffff_ffff | 0x0100_0000_0000;
        (seq, node)
    })
}

fn next_ticks() -> u64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64 / 100);
    let ticks = now + UUID_EPOCH_OFFSET;
    let prev = LAST_TICKS.fetch_max(ticks, Ordering::SeqCst);
    if prev >= ticks {
        LAST_TICKS.fetch_add(1, Ordering::SeqCst) + 1
    } else {
        ticks
    }
}

/// A version-1 (time-based) UUID's 16 bytes, as UUID() makes them.
pub fn uuid_v1() -> [u8; 16] {
    let ticks = next_ticks();
    let (seq, node) = clock_seq_and_node();
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&((ticks & 0xffff_ffff) as u32).to_be_bytes());
    b[4..6].copy_from_slice(&(((ticks >> 32) & 0xffff) as u16).to_be_bytes());
    b[6..8].copy_from_slice(&((((ticks >> 48) & 0x0fff) as u16) | 0x1000).to_be_bytes());
    b[8..10].copy_from_slice(&seq.to_be_bytes());
    b[10..16].copy_from_slice(&node.to_be_bytes()[2..8]);
    b
}

/// UUID(): `xxxxxxxx-xxxx-1xxx-yxxx-xxxxxxxxxxxx`.
pub fn uuid_text() -> String {
    let h: String = uuid_v1().iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// SYS_GUID(): the same UUID without dashes.
pub fn sys_guid() -> String {
    uuid_v1().iter().map(|x| format!("{x:02x}")).collect()
}

/// UUID_SHORT(): (server_id & 255) << 56, plus the server's start time in
/// seconds << 24, plus a counter — increasing within a server's life.
pub fn uuid_short(server_id: u64) -> u64 {
    static NEXT: OnceLock<AtomicU64> = OnceLock::new();
    let next = NEXT.get_or_init(|| {
        let start = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        AtomicU64::new(((server_id & 255) << 56).wrapping_add(start << 24))
    });
    next.fetch_add(1, Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn uuid_has_version_1_and_rfc_variant() {
        let u = uuid_text();
        assert_eq!(u.len(), 36);
        assert_eq!(u.matches('-').count(), 4);
        assert_eq!(&u[14..15], "1", "{u}");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
        assert!(u.chars().all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    }

    #[test]
    fn uuids_are_unique_even_within_one_tick() {
        let all: HashSet<String> = (0..10_000).map(|_| uuid_text()).collect();
        assert_eq!(all.len(), 10_000);
        let g = sys_guid();
        assert_eq!(g.len(), 32);
        assert_eq!(&g[12..13], "1");
    }

    #[test]
    fn uuid_short_increases_and_carries_server_id() {
        let a = uuid_short(1);
        let b = uuid_short(1);
        assert_eq!(b, a + 1);
        assert_eq!(a >> 56, 1);
    }
}
