//! [`Slice`]: a key or value as reads return it, without a copy.
//!
//! A scan over a range of rows used to copy every key and value out of
//! redb's pages (two allocations per row) only for most of them to be
//! decoded once and dropped. A `Slice` instead holds on to where the bytes
//! already are — a redb page (reference-counted by redb), an overlay
//! version (an `Arc`), or, for a transaction's own writes, a vector — and
//! derefs to them. Callers that keep bytes past the read copy them with
//! `to_vec()`.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Bytes of a key or value, wherever they live.
pub struct Slice(Repr);

enum Repr {
    Page(redb::AccessGuard<'static, &'static [u8]>),
    Shared(Arc<[u8]>),
    Owned(Vec<u8>),
}

impl Deref for Slice {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Page(guard) => guard.value(),
            Repr::Shared(bytes) => bytes,
            Repr::Owned(bytes) => bytes,
        }
    }
}

impl From<redb::AccessGuard<'static, &'static [u8]>> for Slice {
    fn from(guard: redb::AccessGuard<'static, &'static [u8]>) -> Slice {
        Slice(Repr::Page(guard))
    }
}

impl From<Arc<[u8]>> for Slice {
    fn from(bytes: Arc<[u8]>) -> Slice {
        Slice(Repr::Shared(bytes))
    }
}

impl From<Vec<u8>> for Slice {
    fn from(bytes: Vec<u8>) -> Slice {
        Slice(Repr::Owned(bytes))
    }
}

impl PartialEq for Slice {
    fn eq(&self, other: &Slice) -> bool {
        **self == **other
    }
}

impl Eq for Slice {}

impl PartialOrd for Slice {
    fn partial_cmp(&self, other: &Slice) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Slice {
    fn cmp(&self, other: &Slice) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl fmt::Debug for Slice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_and_orders_as_its_bytes() {
        let shared: Arc<[u8]> = Arc::from(&b"b"[..]);
        let slices = [Slice::from(b"c".to_vec()), Slice::from(shared), Slice::from(b"a".to_vec())];
        let mut sorted: Vec<&Slice> = slices.iter().collect();
        sorted.sort();
        let bytes: Vec<&[u8]> = sorted.iter().map(|s| &***s).collect();
        assert_eq!(bytes, [b"a", b"b", b"c"]);
        assert_eq!(Slice::from(b"x".to_vec()), Slice::from(Arc::<[u8]>::from(&b"x"[..])));
        assert_eq!(format!("{:?}", Slice::from(vec![1u8, 2])), "[1, 2]");
    }
}
