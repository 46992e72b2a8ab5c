//! Packet framing over any blocking byte stream.
//!
//! Every protocol message is a *logical packet*: a payload sent as one or
//! more physical packets, each with a 4-byte header (3-byte little-endian
//! payload length, 1-byte sequence id). A payload of 0xFFFFFF bytes or more
//! is split into 0xFFFFFF-byte pieces followed by a (possibly empty) shorter
//! piece. The sequence id starts at 0 for each command sent by the client and
//! increments (mod 256) with every physical packet in either direction.
//!
//! Hand-written (not `mysql_common::proto::codec`) so reading works on any
//! `Read` without an intermediate `BytesMut` and so that an oversized
//! packet is discarded, not buffered, before [`PacketError::TooLarge`] is
//! returned. Compression is not supported (we never offer CLIENT_COMPRESS).

use std::io::{BufReader, Read, Write};
use thiserror::Error;

/// The largest payload of one physical packet.
pub const MAX_PAYLOAD_LEN: usize = 0xFF_FFFF;

/// The server's default `max_allowed_packet` (MariaDB 10.11: 16 MiB; we use
/// the brief's 64 MiB default when the caller has no setting).
pub const DEFAULT_MAX_ALLOWED_PACKET: usize = 64 << 20;

/// Failure to read or write a packet.
#[derive(Debug, Error)]
pub enum PacketError {
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The peer closed the connection cleanly between packets.
    #[error("connection closed")]
    Eof,
    /// The peer closed the connection in the middle of a packet.
    #[error("connection closed in the middle of a packet")]
    Truncated,
    /// The logical packet is larger than `max_allowed_packet`; its bytes have
    /// been read and discarded. The server should answer error 1153
    /// (ER_NET_PACKET_TOO_LARGE) and close the connection.
    #[error("Got a packet bigger than 'max_allowed_packet' bytes")]
    TooLarge { len: usize, max: usize },
    /// A packet arrived with an unexpected sequence id (error 1156).
    #[error("Got packets out of order (expected sequence {expected}, got {got})")]
    OutOfOrder { expected: u8, got: u8 },
}

/// Reads one physical header: `Ok(None)` on a clean EOF before its first byte.
fn read_header<R: Read>(r: &mut R) -> Result<Option<(usize, u8)>, PacketError> {
    let mut hdr = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = match r.read(&mut hdr[got..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if n == 0 {
            return if got == 0 { Ok(None) } else { Err(PacketError::Truncated) };
        }
        got += n;
    }
    let len = usize::from(hdr[0]) | usize::from(hdr[1]) << 8 | usize::from(hdr[2]) << 16;
    Ok(Some((len, hdr[3])))
}

/// Reads and drops `len` bytes.
fn discard<R: Read>(r: &mut R, len: usize) -> Result<(), PacketError> {
    let copied = std::io::copy(&mut (&mut *r).take(len as u64), &mut std::io::sink())?;
    if copied as usize != len {
        return Err(PacketError::Truncated);
    }
    Ok(())
}

/// Reads one logical packet, checking and advancing `seq`.
///
/// Payload memory grows only as bytes actually arrive, and never past
/// `max_allowed`: a larger packet is drained and reported as
/// [`PacketError::TooLarge`].
pub fn read_packet<R: Read>(r: &mut R, seq: &mut u8, max_allowed: usize) -> Result<Vec<u8>, PacketError> {
    let mut payload = Vec::new();
    let mut total = 0usize;
    let mut first = true;
    let mut too_large = false;
    loop {
        let (len, got_seq) = match read_header(r)? {
            Some(h) => h,
            None if first => return Err(PacketError::Eof),
            None => return Err(PacketError::Truncated),
        };
        first = false;
        if got_seq != *seq {
            return Err(PacketError::OutOfOrder { expected: *seq, got: got_seq });
        }
        *seq = seq.wrapping_add(1);
        total = total.saturating_add(len);
        if too_large || total > max_allowed {
            too_large = true;
            payload = Vec::new();
            discard(r, len)?;
        } else {
            let before = payload.len();
            let read = (&mut *r).take(len as u64).read_to_end(&mut payload)?;
            if read != len || payload.len() != before + len {
                return Err(PacketError::Truncated);
            }
        }
        if len < MAX_PAYLOAD_LEN {
            break;
        }
    }
    if too_large {
        return Err(PacketError::TooLarge { len: total, max: max_allowed });
    }
    Ok(payload)
}

/// The header of a physical packet of `len` (< [`MAX_PAYLOAD_LEN`] for a
/// whole logical packet) payload bytes.
pub fn packet_header(len: usize, seq: u8) -> [u8; 4] {
    debug_assert!(len <= MAX_PAYLOAD_LEN);
    [len as u8, (len >> 8) as u8, (len >> 16) as u8, seq]
}

/// Writes one logical packet (splitting it as needed), advancing `seq`. Does
/// not flush.
pub fn write_packet<W: Write>(w: &mut W, seq: &mut u8, payload: &[u8]) -> Result<(), PacketError> {
    let mut rest = payload;
    loop {
        let n = rest.len().min(MAX_PAYLOAD_LEN);
        let hdr = packet_header(n, *seq);
        *seq = seq.wrapping_add(1);
        w.write_all(&hdr)?;
        w.write_all(&rest[..n])?;
        rest = &rest[n..];
        // A piece of exactly MAX_PAYLOAD_LEN bytes must be followed by
        // another (maybe empty) piece so the reader knows the packet ended.
        if n < MAX_PAYLOAD_LEN {
            return Ok(());
        }
    }
}

/// Bytes of written packets held back until they reach this size or
/// [`PacketStream::flush`] is called: one send per typical answer, bounded
/// memory for a large result set.
pub const WRITE_BUFFER_BYTES: usize = 64 << 10;

/// A connection's packet layer: a socket, its sequence id and the
/// `max_allowed_packet` limit for packets read from the client.
///
/// Reads are buffered (`BufReader`); written packets collect in an outgoing
/// buffer, so call [`PacketStream::flush`] after the last packet of each
/// response. The socket is reached through the reader (`get_mut`), which
/// leaves its read buffer untouched: std has no buffered duplex stream.
#[derive(Debug)]
pub struct PacketStream<S: Read> {
    reader: BufReader<S>,
    outgoing: Vec<u8>,
    seq: u8,
    max_allowed: usize,
}

impl<S: Read + Write> PacketStream<S> {
    pub fn new(stream: S, max_allowed_packet: usize) -> PacketStream<S> {
        PacketStream { reader: BufReader::new(stream), outgoing: Vec::new(), seq: 0, max_allowed: max_allowed_packet }
    }

    /// Starts a new command exchange: the client's next packet has id 0.
    pub fn reset_seq(&mut self) {
        self.seq = 0;
    }

    /// The sequence id the next packet (either direction) will carry.
    pub fn seq(&self) -> u8 {
        self.seq
    }

    pub fn set_seq(&mut self, seq: u8) {
        self.seq = seq;
    }

    pub fn max_allowed_packet(&self) -> usize {
        self.max_allowed
    }

    /// Changes the limit (e.g. after `SET GLOBAL max_allowed_packet`).
    pub fn set_max_allowed_packet(&mut self, max: usize) {
        self.max_allowed = max;
    }

    /// Reads one logical packet.
    pub fn read_packet(&mut self) -> Result<Vec<u8>, PacketError> {
        read_packet(&mut self.reader, &mut self.seq, self.max_allowed)
    }

    /// Reads the first packet of a command: resets the sequence id first.
    pub fn read_command_packet(&mut self) -> Result<Vec<u8>, PacketError> {
        self.reset_seq();
        self.read_packet()
    }

    /// Queues one logical packet (call [`PacketStream::flush`] to send).
    pub fn write_packet(&mut self, payload: &[u8]) -> Result<(), PacketError> {
        write_packet(&mut self.outgoing, &mut self.seq, payload)?;
        if self.outgoing.len() >= WRITE_BUFFER_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Sends the queued packets.
    pub fn flush(&mut self) -> Result<(), PacketError> {
        if !self.outgoing.is_empty() {
            let socket = self.reader.get_mut();
            socket.write_all(&self.outgoing)?;
            socket.flush()?;
            self.outgoing.clear();
        }
        Ok(())
    }

    /// Writes already framed bytes at once, after anything queued.
    pub fn write_framed(&mut self, bytes: &[u8]) -> Result<(), PacketError> {
        self.flush()?;
        self.reader.get_mut().write_all(bytes)?;
        Ok(())
    }

    /// Whether bytes of a next packet were read ahead into the buffer: a
    /// caller that waits for the socket to become readable must not wait
    /// for those (a pipelining client sent them already).
    pub fn has_buffered_input(&self) -> bool {
        !self.reader.buffer().is_empty()
    }

    pub fn get_ref(&self) -> &S {
        self.reader.get_ref()
    }

    /// Puts another layer (TLS) on the connection: `wrap` gets the socket
    /// and the bytes read ahead from it, which belong to the new layer, and
    /// returns the socket to read and write from now on.
    pub fn replace_socket(&mut self, wrap: impl FnOnce(&S, Vec<u8>) -> std::io::Result<S>) -> std::io::Result<()> {
        use std::io::BufRead;
        self.flush().map_err(|e| match e {
            PacketError::Io(e) => e,
            other => std::io::Error::other(other.to_string()),
        })?;
        let read_ahead = self.reader.buffer().to_vec();
        self.reader.consume(read_ahead.len());
        let socket = wrap(self.reader.get_ref(), read_ahead)?;
        *self.reader.get_mut() = socket;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(payload: &[u8], seq: u8) -> Vec<u8> {
        let mut out = Vec::new();
        let mut s = seq;
        write_packet(&mut out, &mut s, payload).unwrap();
        out
    }

    #[test]
    fn golden_com_query() {
        // COM_QUERY "select 1", from the MySQL protocol docs.
        let mut p = vec![0x03];
        p.extend_from_slice(b"select 1");
        let bytes = encode(&p, 0);
        assert_eq!(&bytes[..4], &[0x09, 0x00, 0x00, 0x00]);
        let mut seq = 0;
        let got = read_packet(&mut &bytes[..], &mut seq, 1024).unwrap();
        assert_eq!(got, p);
        assert_eq!(seq, 1);
    }

    #[test]
    fn empty_packet() {
        let bytes = encode(&[], 7);
        assert_eq!(bytes, [0, 0, 0, 7]);
        let mut seq = 7;
        assert_eq!(read_packet(&mut &bytes[..], &mut seq, 10).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn split_and_join_large_payloads() {
        for len in [MAX_PAYLOAD_LEN - 1, MAX_PAYLOAD_LEN, MAX_PAYLOAD_LEN + 1, 2 * MAX_PAYLOAD_LEN] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let bytes = encode(&payload, 0);
            let pieces = len / MAX_PAYLOAD_LEN + 1;
            assert_eq!(bytes.len(), len + 4 * pieces, "len {len}");
            let mut seq = 0;
            let got = read_packet(&mut &bytes[..], &mut seq, DEFAULT_MAX_ALLOWED_PACKET).unwrap();
            assert!(got == payload, "len {len}");
            assert_eq!(usize::from(seq), pieces);
        }
    }

    #[test]
    fn too_large_is_discarded() {
        let mut bytes = encode(&[1u8; 100], 0);
        bytes.extend(encode(&[2u8; 3], 1));
        let mut r = &bytes[..];
        let mut seq = 0;
        match read_packet(&mut r, &mut seq, 50) {
            Err(PacketError::TooLarge { len: 100, max: 50 }) => {}
            other => panic!("{other:?}"),
        }
        // The stream is positioned after the big packet.
        assert_eq!(read_packet(&mut r, &mut seq, 50).unwrap(), vec![2u8; 3]);
        // Header claiming 16 MiB with nothing behind it: no allocation, Truncated.
        let hdr = [0xFF, 0xFF, 0xFF, 0];
        let mut seq = 0;
        assert!(matches!(read_packet(&mut &hdr[..], &mut seq, 1 << 30), Err(PacketError::Truncated)));
    }

    #[test]
    fn eof_truncation_and_order() {
        let mut seq = 0;
        assert!(matches!(read_packet(&mut &[][..], &mut seq, 10), Err(PacketError::Eof)));
        assert!(matches!(read_packet(&mut &[1, 0][..], &mut seq, 10), Err(PacketError::Truncated)));
        assert!(matches!(read_packet(&mut &[3, 0, 0, 0, 1][..], &mut seq, 10), Err(PacketError::Truncated)));
        let mut seq = 0;
        assert!(matches!(
            read_packet(&mut &[0, 0, 0, 5][..], &mut seq, 10),
            Err(PacketError::OutOfOrder { expected: 0, got: 5 })
        ));
    }

    #[test]
    fn stream_sends_queued_packets_on_flush_or_when_the_buffer_fills() {
        use std::os::unix::net::UnixStream;
        let (server, mut client) = UnixStream::pair().unwrap();
        client.set_nonblocking(true).unwrap();
        let mut ps = PacketStream::new(server, DEFAULT_MAX_ALLOWED_PACKET);
        let mut got = Vec::new();
        ps.write_packet(b"ok").unwrap();
        assert!(client.read_to_end(&mut got).is_err(), "nothing sent before flush");
        ps.flush().unwrap();
        client.read_to_end(&mut got).ok();
        assert_eq!(got, [2, 0, 0, 0, b'o', b'k']);
        // A result larger than the buffer goes out without waiting for flush.
        let row = [7u8; 1000];
        let rows = WRITE_BUFFER_BYTES / row.len() + 1;
        let mut sent = 0;
        for _ in 0..rows {
            ps.write_packet(&row).unwrap();
            got.clear();
            client.read_to_end(&mut got).ok();
            sent += got.len();
        }
        assert!(sent >= WRITE_BUFFER_BYTES, "sent {sent} bytes before flush");
        // Framed bytes follow whatever was queued, in order.
        ps.write_packet(b"a").unwrap();
        ps.write_framed(&[1, 0, 0, 9, b'b']).unwrap();
        got.clear();
        client.read_to_end(&mut got).ok();
        assert!(got.ends_with(&[1, 0, 0, 1 + rows as u8, b'a', 1, 0, 0, 9, b'b']), "{:?}", &got[got.len() - 10..]);
    }

    #[test]
    fn sequence_wraps() {
        let mut out = Vec::new();
        let mut seq = 255;
        write_packet(&mut out, &mut seq, b"x").unwrap();
        write_packet(&mut out, &mut seq, b"y").unwrap();
        assert_eq!(out[3], 255);
        assert_eq!(out[8], 0);
    }
}
