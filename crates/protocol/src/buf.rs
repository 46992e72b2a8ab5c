//! Bounds-checked reading of packet payloads and the basic integer/string
//! encodings of the protocol (fixed-width little-endian integers,
//! length-encoded integers and strings, NUL-terminated strings).
//!
//! Hand-written rather than taken from `mysql_common::io` because every read
//! here must return a typed error instead of panicking on short input, and the
//! encoders append to a plain `Vec<u8>` without any trait machinery.

use thiserror::Error;

/// A payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The payload ended before a field did.
    #[error("malformed packet: truncated {0}")]
    Truncated(&'static str),
    /// A field holds a value the protocol does not allow.
    #[error("malformed packet: {0}")]
    Invalid(String),
}

/// A cursor over a payload; every read is bounds-checked.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Next byte without consuming it.
    pub fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DecodeError> {
        if self.remaining() < n {
            return Err(DecodeError::Truncated(what));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = &self.buf[self.pos..];
        self.pos = self.buf.len();
        s
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, DecodeError> {
        Ok(self.take(1, what)?[0])
    }

    pub fn u16(&mut self, what: &'static str) -> Result<u16, DecodeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u24(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        let b = self.take(3, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], 0]))
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn u64(&mut self, what: &'static str) -> Result<u64, DecodeError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A length-encoded integer; `None` for the NULL marker 0xFB.
    pub fn lenenc_int_or_null(&mut self, what: &'static str) -> Result<Option<u64>, DecodeError> {
        let first = self.u8(what)?;
        Ok(Some(match first {
            0xFB => return Ok(None),
            0xFC => u64::from(self.u16(what)?),
            0xFD => u64::from(self.u24(what)?),
            0xFE => self.u64(what)?,
            0xFF => return Err(DecodeError::Invalid(format!("0xFF is not a length-encoded integer in {what}"))),
            n => u64::from(n),
        }))
    }

    /// A length-encoded integer (NULL is an error here).
    pub fn lenenc_int(&mut self, what: &'static str) -> Result<u64, DecodeError> {
        self.lenenc_int_or_null(what)?.ok_or_else(|| DecodeError::Invalid(format!("unexpected NULL in {what}")))
    }

    /// A length-encoded string.
    pub fn lenenc_bytes(&mut self, what: &'static str) -> Result<&'a [u8], DecodeError> {
        let n = self.lenenc_int(what)?;
        let n = usize::try_from(n).map_err(|_| DecodeError::Truncated(what))?;
        self.take(n, what)
    }

    /// Bytes up to (not including) the next NUL, which is consumed. A missing
    /// NUL is an error.
    pub fn nul_bytes(&mut self, what: &'static str) -> Result<&'a [u8], DecodeError> {
        let rest = &self.buf[self.pos..];
        match rest.iter().position(|&b| b == 0) {
            Some(i) => {
                self.pos += i + 1;
                Ok(&rest[..i])
            }
            None => Err(DecodeError::Truncated(what)),
        }
    }

    /// Like [`Reader::nul_bytes`], but a missing terminator takes the rest of
    /// the payload (clients are lax about the last string of a packet).
    pub fn nul_bytes_or_rest(&mut self) -> &'a [u8] {
        let rest = &self.buf[self.pos..];
        match rest.iter().position(|&b| b == 0) {
            Some(i) => {
                self.pos += i + 1;
                &rest[..i]
            }
            None => {
                self.pos = self.buf.len();
                rest
            }
        }
    }
}

/// Lossy UTF-8 (names on the wire are utf8mb4 for our clients; invalid bytes
/// must not fail a login or a command).
pub fn string(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub fn put_u24(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes()[..3]);
}

pub fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Appends a length-encoded integer.
pub fn put_lenenc_int(out: &mut Vec<u8>, v: u64) {
    if v < 0xFB {
        out.push(v as u8);
    } else if v <= 0xFFFF {
        out.push(0xFC);
        put_u16(out, v as u16);
    } else if v <= 0xFF_FFFF {
        out.push(0xFD);
        put_u24(out, v as u32);
    } else {
        out.push(0xFE);
        put_u64(out, v);
    }
}

/// Appends a length-encoded string.
pub fn put_lenenc_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_lenenc_int(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// Appends bytes and a NUL terminator.
pub fn put_nul_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(b);
    out.push(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenenc_int_round_trip_and_golden() {
        let cases: &[(u64, &[u8])] = &[
            (0, &[0x00]),
            (250, &[0xFA]),
            (251, &[0xFC, 0xFB, 0x00]),
            (0xFFFF, &[0xFC, 0xFF, 0xFF]),
            (0x1_0000, &[0xFD, 0x00, 0x00, 0x01]),
            (0xFF_FFFF, &[0xFD, 0xFF, 0xFF, 0xFF]),
            (0x100_0000, &[0xFE, 0, 0, 0, 1, 0, 0, 0, 0]),
            (u64::MAX, &[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ];
        for (v, bytes) in cases {
            let mut out = Vec::new();
            put_lenenc_int(&mut out, *v);
            assert_eq!(&out[..], *bytes, "encoding {v}");
            let mut r = Reader::new(bytes);
            assert_eq!(r.lenenc_int("x").unwrap(), *v);
            assert!(r.is_empty());
        }
    }

    #[test]
    fn lenenc_null_and_errors() {
        assert_eq!(Reader::new(&[0xFB]).lenenc_int_or_null("x").unwrap(), None);
        assert!(Reader::new(&[0xFF]).lenenc_int("x").is_err());
        assert!(Reader::new(&[0xFC, 0x01]).lenenc_int("x").is_err());
        assert!(Reader::new(&[0x05, b'a']).lenenc_bytes("x").is_err());
        assert!(Reader::new(&[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).lenenc_bytes("x").is_err());
    }

    #[test]
    fn nul_strings() {
        let mut r = Reader::new(b"abc\0de");
        assert_eq!(r.nul_bytes("a").unwrap(), b"abc");
        assert!(r.clone().nul_bytes("b").is_err());
        assert_eq!(r.nul_bytes_or_rest(), b"de");
        assert!(r.is_empty());
    }
}
