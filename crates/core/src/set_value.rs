//! SET column values: a set of the column's members, shown as the members
//! in definition order joined by ',' and stored as a bitmask (member i is
//! bit i), as MariaDB's Field_set keeps them.

use crate::collation::Collation;

/// The most members a SET column has (its bitmask is 64 bits).
pub const MAX_SET_MEMBERS: usize = 64;

/// What separates the members of a SET value.
pub const SET_SEPARATOR: u8 = b',';

/// A string read as a SET value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedSet {
    pub mask: u64,
    /// True when some element named no member (an empty one included):
    /// MariaDB's "Data truncated" for the value.
    pub unknown: bool,
}

/// Reads 'a,b' as a SET of `members`: elements in any order, repeated, and
/// compared under the column's collation (so case and trailing spaces
/// follow it). The first member an element equals gives its bit.
pub fn parse_set(members: &[String], collation: Collation, text: &[u8]) -> ParsedSet {
    let mut parsed = ParsedSet { mask: 0, unknown: false };
    if text.is_empty() {
        return parsed;
    }
    for element in text.split(|b| *b == SET_SEPARATOR) {
        match members.iter().position(|m| !element.is_empty() && collation.equal(m.as_bytes(), element)) {
            Some(bit) => parsed.mask |= 1u64 << bit,
            None => parsed.unknown = true,
        }
    }
    parsed
}

/// The members whose bits `mask` has, in definition order, joined by ','.
pub fn set_text(members: &[String], mask: u64) -> String {
    let chosen: Vec<&str> =
        members.iter().enumerate().filter(|(bit, _)| mask >> bit & 1 == 1).map(|(_, m)| m.as_str()).collect();
    chosen.join(",")
}

/// The longest value in characters: every member, joined by ','.
pub fn set_max_chars(members: &[String]) -> u64 {
    let chars: usize = members.iter().map(|m| m.chars().count()).sum();
    (chars + members.len().saturating_sub(1)) as u64
}

/// The bitmask with every member's bit set.
pub fn full_mask(members: &[String]) -> u64 {
    u64::MAX >> (64 - members.len().clamp(1, MAX_SET_MEMBERS))
}

/// Bytes of a SET bitmask in a row image: 1, 2, 3, 4 or 8 for up to 8, 16,
/// 24, 32 and 64 members (Field_set::pack_length).
pub fn set_pack_length(members: usize) -> usize {
    match members.div_ceil(8) {
        0 | 1 => 1,
        n @ 2..=4 => n,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn parses_any_order_case_and_repeats() {
        let m = members(&["x", "Y", "z"]);
        let c = Collation::default();
        assert_eq!(parse_set(&m, c, b"z,x,X"), ParsedSet { mask: 5, unknown: false });
        assert_eq!(parse_set(&m, c, b"y  "), ParsedSet { mask: 2, unknown: false });
        assert_eq!(parse_set(&m, c, b""), ParsedSet { mask: 0, unknown: false });
        assert_eq!(parse_set(&m, c, b"x,,z"), ParsedSet { mask: 5, unknown: true });
        assert_eq!(parse_set(&m, c, b"x,q"), ParsedSet { mask: 1, unknown: true });
        assert_eq!(set_text(&m, 7), "x,Y,z");
        assert_eq!(set_text(&m, 4), "z");
        assert_eq!(set_text(&m, 0), "");
    }

    #[test]
    fn pack_lengths_and_masks() {
        assert_eq!([1, 8, 9, 17, 25, 32, 33, 64].map(set_pack_length), [1, 1, 2, 3, 4, 4, 8, 8]);
        assert_eq!(full_mask(&members(&["a", "b", "c"])), 7);
        assert_eq!(full_mask(&vec![String::new(); 64]), u64::MAX);
    }
}
