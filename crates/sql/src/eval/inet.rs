//! INET_ATON, INET_NTOA, INET6_ATON, INET6_NTOA, IS_IPV4, IS_IPV6,
//! IS_IPV4_COMPAT, IS_IPV4_MAPPED: MySQL's own address parsing and printing
//! (leading zeros allowed in IPv4 octets; IPv6 zero runs of one group
//! compressed too, which RFC 5952 — and Rust's printer — would not).

use std::net::Ipv6Addr;

/// INET_ATON: dotted numbers, each at most 255; fewer than four parts put
/// the last at the low byte ('127.1' is 127.0.0.1); more keep shifting.
pub fn inet_aton(s: &str) -> Option<u64> {
    let (mut result, mut part, mut dots) = (0u64, 0u64, 0);
    let mut last = None;
    for c in s.chars() {
        last = Some(c);
        match c {
            '0'..='9' => {
                part = part * 10 + u64::from(c as u8 - b'0');
                if part > 255 {
                    return None;
                }
            }
            '.' => {
                dots += 1;
                result = (result << 8).wrapping_add(part);
                part = 0;
            }
            _ => return None,
        }
    }
    match last {
        None | Some('.') => None,
        _ => {
            let shift = match dots {
                1 => 16,
                2 => 8,
                _ => 0,
            };
            Some((result << shift << 8).wrapping_add(part))
        }
    }
}

/// An IPv4 address as IS_IPV4 / INET6_ATON accept it: four decimal octets
/// of at most three digits.
pub fn parse_ipv4(s: &str) -> Option<[u8; 4]> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut out = [0u8; 4];
    for (slot, p) in out.iter_mut().zip(&parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        *slot = p.parse().ok()?;
    }
    Some(out)
}

pub fn parse_ipv6(s: &str) -> Option<[u8; 16]> {
    s.parse::<Ipv6Addr>().ok().map(|a| a.octets())
}

/// INET6_ATON: 4 bytes for IPv4, 16 for IPv6.
pub fn inet6_aton(s: &str) -> Option<Vec<u8>> {
    parse_ipv4(s).map(|a| a.to_vec()).or_else(|| parse_ipv6(s).map(|a| a.to_vec()))
}

/// INET6_NTOA of a 4- or 16-byte binary address.
pub fn inet6_ntoa(b: &[u8]) -> Option<String> {
    match b.len() {
        4 => Some(format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3])),
        16 => Some(ipv6_text(b)),
        _ => None,
    }
}

/// MySQL's `ipv6_to_str`: the longest run of zero groups (the first of
/// equal ones) becomes `::`; an IPv4-compatible (`::a.b.c.d`) or mapped
/// (`::ffff:a.b.c.d`) address ends in dotted form.
fn ipv6_text(b: &[u8]) -> String {
    let words: Vec<u16> = b.chunks(2).map(|w| u16::from_be_bytes([w[0], w[1]])).collect();
    let (mut gap_pos, mut gap_len) = (usize::MAX, 0);
    let mut i = 0;
    while i < 8 {
        if words[i] == 0 {
            let start = i;
            while i < 8 && words[i] == 0 {
                i += 1;
            }
            if i - start > gap_len {
                (gap_pos, gap_len) = (start, i - start);
            }
        } else {
            i += 1;
        }
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == gap_pos {
            out.push_str(if i == 0 { "::" } else { ":" });
            i += gap_len;
            continue;
        }
        if i == 6 && gap_pos == 0 && (gap_len == 6 || (gap_len == 5 && words[5] == 0xffff)) {
            out.push_str(&format!("{}.{}.{}.{}", b[12], b[13], b[14], b[15]));
            return out;
        }
        out.push_str(&format!("{:x}", words[i]));
        if i != 7 {
            out.push(':');
        }
        i += 1;
    }
    out
}

/// IS_IPV4_COMPAT: `::a.b.c.d` with a.b.c.d past 0.0.0.1.
pub fn is_ipv4_compat(b: &[u8]) -> bool {
    b.len() == 16 && b[..12].iter().all(|x| *x == 0) && u32::from_be_bytes([b[12], b[13], b[14], b[15]]) > 1
}

/// IS_IPV4_MAPPED: `::ffff:a.b.c.d`.
pub fn is_ipv4_mapped(b: &[u8]) -> bool {
    b.len() == 16 && b[..10].iter().all(|x| *x == 0) && b[10] == 0xff && b[11] == 0xff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inet_aton_as_mariadb() {
        assert_eq!(inet_aton("1.2"), Some(16_777_218));
        assert_eq!(inet_aton("1.2.3.4.5"), Some(4_328_719_365));
        assert_eq!(inet_aton("127.1"), Some(2_130_706_433));
        assert_eq!(inet_aton("01.2.3.4"), Some(16_909_060));
        assert_eq!(inet_aton(""), None);
        assert_eq!(inet_aton("1."), None);
    }

    #[test]
    fn ipv6_printing_as_mariadb() {
        let t = |s: &str| inet6_aton(s).and_then(|b| inet6_ntoa(&b)).unwrap_or_default();
        assert_eq!(t("1:0:2:3:4:5:6:7"), "1::2:3:4:5:6:7");
        assert_eq!(t("1:0:0:3:0:0:0:7"), "1:0:0:3::7");
        assert_eq!(t("::"), "::");
        assert_eq!(t("::1"), "::1");
        assert_eq!(t("::0.0.0.2"), "::2");
        assert_eq!(t("::1.2.3.4"), "::1.2.3.4");
        assert_eq!(t("::ffff:1.2.3.4"), "::ffff:1.2.3.4");
        assert_eq!(t("FE80::A"), "fe80::a");
    }
}
