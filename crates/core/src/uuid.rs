//! MariaDB's UUID data type (plugin/type_uuid, 10.11.5+ storage order).
//!
//! A value is 16 bytes in RFC 4122 order, `llllllll-mmmm-Vhhh-vsss-nnnnnnnnnnnn`
//! (MariaDB's "in-memory" form: what the text shows, what a BINARY(16)
//! becomes, and what the binlog row image carries). Tables and indexes
//! order values by the "record" form, which for versions 1..5 of the
//! RFC variant reverses the five groups (`nnnnnnnnnnnn-vsss-Vhhh-mmmm-llllllll`)
//! so that time-based UUIDs cluster; other values are kept as they are
//! (MDEV-29959).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// Bytes of a UUID value.
pub const UUID_BYTES: usize = 16;
/// Characters of its text form.
pub const UUID_TEXT_CHARS: u32 = 36;

/// The five groups as (in-memory position, in-record position, length).
const SEGMENTS: [(usize, usize, usize); 5] = [(0, 12, 4), (4, 10, 2), (6, 8, 2), (8, 6, 2), (10, 0, 6)];

/// A UUID value in RFC (in-memory) byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Uuid(pub [u8; UUID_BYTES]);

impl Uuid {
    /// Parses MariaDB's text form: 32 hex digits, either case, with any
    /// number of hyphens after any digit but the last and none before the
    /// first; `None` for anything else (braces included).
    pub fn parse_text(text: &[u8]) -> Option<Uuid> {
        if text.len() < 32 {
            return None;
        }
        let mut out = [0u8; UUID_BYTES];
        let mut pos = 0;
        for (i, byte) in out.iter_mut().enumerate() {
            let hi = hex_digit(*text.get(pos)?)?;
            pos = skip_hyphens(text, pos + 1);
            let lo = hex_digit(*text.get(pos)?)?;
            pos += 1;
            *byte = hi << 4 | lo;
            if i + 1 < UUID_BYTES {
                pos = skip_hyphens(text, pos);
            }
        }
        let uuid = Uuid(out);
        (pos == text.len() && !uuid.is_swapped_record()).then_some(uuid)
    }

    /// MariaDB's test for an in-memory value stored with its groups
    /// reversed: version 1..5 and a variant with the top bit set.
    fn needs_swap(&self) -> bool {
        (1..0x60).contains(&self.0[6]) && self.0[8] & 0x80 != 0
    }

    /// The bit pattern a reversed record has at bytes 6 and 8 (MariaDB's
    /// `s[6] & -s[8] & 0x80` on signed chars); a text value with it would
    /// read back as a different UUID, so MariaDB refuses it.
    fn is_swapped_record(&self) -> bool {
        swapped_pattern(&self.0)
    }

    /// The record (storage and index order) form.
    pub fn record_bytes(&self) -> [u8; UUID_BYTES] {
        if !self.needs_swap() {
            return self.0;
        }
        let mut out = [0u8; UUID_BYTES];
        for (mem, rec, len) in SEGMENTS {
            out[rec..rec + len].copy_from_slice(&self.0[mem..mem + len]);
        }
        out
    }

    /// The value whose record form is `record`.
    pub fn from_record(record: &[u8; UUID_BYTES]) -> Uuid {
        if !swapped_pattern(record) {
            return Uuid(*record);
        }
        let mut out = [0u8; UUID_BYTES];
        for (mem, rec, len) in SEGMENTS {
            out[mem..mem + len].copy_from_slice(&record[rec..rec + len]);
        }
        Uuid(out)
    }

    /// A value from its binary form, as a BINARY(16) or a hex literal of
    /// 16 bytes gives it; `None` for another length.
    pub fn from_binary(bytes: &[u8]) -> Option<Uuid> {
        bytes.try_into().ok().map(Uuid)
    }
}

/// Tables, indexes and ORDER BY order UUIDs by their record form.
impl Ord for Uuid {
    fn cmp(&self, other: &Self) -> Ordering {
        self.record_bytes().cmp(&other.record_bytes())
    }
}

impl PartialOrd for Uuid {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Uuid {
    /// Lower-case hex with hyphens at 8, 12, 16 and 20 digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

fn swapped_pattern(bytes: &[u8; UUID_BYTES]) -> bool {
    let b6 = i32::from(bytes[6] as i8);
    let b8 = i32::from(bytes[8] as i8);
    b6 & -b8 & 0x80 != 0
}

fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn skip_hyphens(text: &[u8], mut pos: usize) -> usize {
    while text.get(pos) == Some(&b'-') {
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Option<String> {
        Uuid::parse_text(s.as_bytes()).map(|u| u.to_string())
    }

    #[test]
    fn text_forms() {
        let canonical = "123e4567-e89b-12d3-a456-426655440000";
        assert_eq!(parse(canonical).as_deref(), Some(canonical));
        assert_eq!(parse("123E4567E89B12D3A456426655440000").as_deref(), Some(canonical));
        assert_eq!(parse("1-23e4567-e89b-12d3-a456-426655440000").as_deref(), Some(canonical));
        assert_eq!(parse("1--2-3e4567e89b12d3a456426655440000").as_deref(), Some(canonical));
        assert_eq!(parse("{123e4567-e89b-12d3-a456-426655440000}"), None);
        assert_eq!(parse("-123e4567-e89b-12d3-a456-426655440000"), None);
        assert_eq!(parse("123e4567-e89b-12d3-a456-426655440000-"), None);
        assert_eq!(parse("123e4567-e89b-12d3-a456-42665544000"), None);
        assert_eq!(parse("bad"), None);
    }

    #[test]
    fn record_form_reverses_groups_of_versions_1_to_5() {
        let v1 = Uuid::parse_text(b"123e4567-e89b-12d3-a456-426655440000").unwrap();
        let rec = v1.record_bytes();
        assert_eq!(rec[..6], [0x42, 0x66, 0x55, 0x44, 0x00, 0x00]);
        assert_eq!(rec[12..], [0x12, 0x3e, 0x45, 0x67]);
        assert_eq!(Uuid::from_record(&rec), v1);
        let v7 = Uuid::parse_text(b"01890a5d-ac96-774b-bcce-b302099a8057").unwrap();
        assert_eq!(v7.record_bytes(), v7.0);
        assert_eq!(Uuid::from_record(&v7.record_bytes()), v7);
    }

    #[test]
    fn order_follows_the_record_form() {
        let a = Uuid::parse_text(b"190bbe34-ea09-11f1-8a44-02fc00000001").unwrap();
        let b = Uuid::parse_text(b"123e4567-e89b-12d3-a456-426655440000").unwrap();
        assert!(a < b);
    }
}
