//! Commit acknowledgements written by the commit pipeline.
//!
//! An autocommit write (or a COMMIT) ends with a commit whose OK the client
//! may see only once the commit is durable and visible. Waiting for that on
//! the connection thread costs a sleep and a wake-up per commit — with
//! sync_binlog=1 on two busy cores, about a fifth of the CPU an
//! `oltp_update_non_index` transaction costs. Instead the session hands the
//! commit off ([`onelog_sql::Session::offer_commit_ack`]), the connection
//! parks the encoded answer here and goes back to reading its socket, and
//! the pipeline thread that settles the commit writes the answer (or, if
//! the commit failed, an ERR in its place) to the socket itself. Whichever
//! side comes second — the pipeline with the outcome, or the connection
//! with the answer — sends it.
//!
//! The pipeline never blocks on a socket (it sends with `MSG_DONTWAIT` on
//! the connection's blocking socket): bytes a full socket buffer cannot
//! take (a client that does not read) are finished by a writer thread of
//! their own, since the connection thread may be blocked reading.
//!
//! Invariants: at most one acknowledgement is pending per connection, and
//! the connection runs no further command while one is ([`AckSlot::settle`]),
//! so its next statement sees its own commit and the bytes on the socket
//! stay in protocol order; while one is pending, only the settling side
//! writes to the socket.

use onelog_core::SqlResult;
use onelog_protocol::packet::packet_header;
use onelog_protocol::resultset::encode_err;
use onelog_sql::CommitAck;
use parking_lot::{Condvar, Mutex};
use socket2::SockRef;
use std::io::{ErrorKind, Write};
use std::net::Shutdown;
use std::os::fd::OwnedFd;
use std::sync::{Arc, Weak};

pub struct AckSlot {
    /// The connection's socket (the server's duplicate descriptor of it;
    /// blocking, like the connection's).
    socket: Arc<OwnedFd>,
    state: Mutex<State>,
    settled: Condvar,
    /// This slot, for the writer thread that finishes an answer.
    me: Weak<AckSlot>,
}

#[derive(Default)]
struct State {
    /// A commit was handed off and its answer is not fully sent yet.
    pending: bool,
    /// The commit's outcome, when it came before the answer.
    outcome: Option<SqlResult<()>>,
    /// The answer, when it came before the outcome.
    answer: Option<Answer>,
}

/// A command's answer, framed by the connection thread so that the
/// pipeline thread, which runs every commit, only writes it.
struct Answer {
    /// The command's packets, framed for the wire.
    framed: Vec<u8>,
    /// The first packet's sequence id, for an ERR that replaces them.
    seq: u8,
}

impl Answer {
    fn new(packets: &[Vec<u8>], seq: u8) -> Answer {
        let mut framed = Vec::with_capacity(packets.iter().map(|p| p.len() + 4).sum());
        for (i, p) in packets.iter().enumerate() {
            framed.extend_from_slice(&packet_header(p.len(), seq.wrapping_add(i as u8)));
            framed.extend_from_slice(p);
        }
        Answer { framed, seq }
    }

    /// The bytes to send; a failed commit replaces the answer with its error.
    fn bytes(self, outcome: &SqlResult<()>) -> Vec<u8> {
        match outcome {
            Ok(()) => self.framed,
            Err(e) => {
                let mut p = Vec::new();
                encode_err(e, &mut p);
                Answer::new(&[p], self.seq).framed
            }
        }
    }
}

impl AckSlot {
    pub fn new(socket: Arc<OwnedFd>) -> Arc<AckSlot> {
        Arc::new_cyclic(|me| AckSlot {
            socket,
            state: Mutex::new(State::default()),
            settled: Condvar::new(),
            me: me.clone(),
        })
    }

    fn socket(&self) -> SockRef<'_> {
        SockRef::from(&*self.socket)
    }

    /// Before a command whose statement may hand its commit off.
    pub fn arm(&self) {
        let mut s = self.state.lock();
        debug_assert!(!s.pending, "armed while an acknowledgement is pending");
        *s = State { pending: true, ..State::default() };
    }

    /// After a command that did not hand a commit off.
    pub fn disarm(&self) {
        let mut s = self.state.lock();
        debug_assert!(s.outcome.is_none() && s.answer.is_none(), "disarmed with a commit handed off");
        s.pending = false;
    }

    /// The command handed its commit off and answers `packets` (payloads;
    /// the first takes sequence id `seq`). Returns the framed bytes the
    /// connection must send now if the outcome is already known; `None`:
    /// the pipeline sends them.
    pub fn answer(&self, packets: &[Vec<u8>], seq: u8) -> Option<Vec<u8>> {
        let answer = Answer::new(packets, seq);
        let mut s = self.state.lock();
        debug_assert!(s.pending && s.answer.is_none());
        match s.outcome.take() {
            Some(outcome) => {
                s.pending = false;
                Some(answer.bytes(&outcome))
            }
            None => {
                s.answer = Some(answer);
                None
            }
        }
    }

    /// Waits until no acknowledgement is pending. Call before running the
    /// next command.
    pub fn settle(&self) {
        let mut s = self.state.lock();
        if !s.pending {
            return;
        }
        let _waiting = onelog_sql::wait::begin(onelog_sql::wait::WaitReason::GroupCommit);
        while s.pending {
            self.settled.wait(&mut s);
        }
    }

    /// Writes what the socket takes without blocking; returns the rest.
    fn write_now(&self, mut bytes: &[u8]) -> std::io::Result<Vec<u8>> {
        while !bytes.is_empty() {
            match self.socket().send_with_flags(bytes, libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL) {
                Ok(0) => return Err(ErrorKind::WriteZero.into()),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(bytes.to_vec())
    }

    /// Sends `rest` from a thread of its own, which may block until the
    /// client reads, then settles the slot. At most one per connection
    /// (one acknowledgement is pending at a time).
    fn finish_in_background(&self, rest: Vec<u8>) {
        // Always some: this runs on a slot reached through an Arc.
        let Some(slot) = self.me.upgrade() else { return };
        let spawned = std::thread::Builder::new().name("ack-writer".into()).spawn(move || {
            if let Err(e) = (&*slot.socket()).write_all(&rest) {
                tracing::debug!("commit acknowledgement not delivered: {e}");
            }
            slot.state.lock().pending = false;
            slot.settled.notify_all();
        });
        if let Err(e) = spawned {
            // The answer cannot be finished: end the connection, as a lost
            // connection, rather than leave the client waiting forever.
            tracing::error!("cannot start a thread to send a commit acknowledgement: {e}");
            let _ = self.socket().shutdown(Shutdown::Both);
            self.state.lock().pending = false;
            self.settled.notify_all();
        }
    }
}

impl CommitAck for AckSlot {
    fn committed(&self, outcome: SqlResult<()>) {
        let mut s = self.state.lock();
        let Some(answer) = s.answer.take() else {
            // The connection has not answered yet; it will send.
            s.outcome = Some(outcome);
            return;
        };
        match self.write_now(&answer.bytes(&outcome)) {
            Ok(rest) if rest.is_empty() => s.pending = false,
            Ok(rest) => {
                drop(s);
                return self.finish_in_background(rest);
            }
            Err(e) => {
                // The client is gone; its connection thread will see EOF.
                tracing::debug!("commit acknowledgement not delivered: {e}");
                s.pending = false;
            }
        }
        self.settled.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onelog_core::{ErrorCode, SqlError};
    use std::io::Read;
    use std::os::unix::net::UnixStream;

    const OK: &[u8] = &[0, 1, 0, 2, 0, 0, 0];

    fn pair() -> (UnixStream, Arc<AckSlot>) {
        let (server, client) = UnixStream::pair().expect("socketpair");
        let slot = AckSlot::new(Arc::new(OwnedFd::from(server)));
        (client, slot)
    }

    fn framed(payload: &[u8], seq: u8) -> Vec<u8> {
        let mut out = packet_header(payload.len(), seq).to_vec();
        out.extend_from_slice(payload);
        out
    }

    fn read_exactly(client: &mut UnixStream, n: usize) -> Vec<u8> {
        let mut buf = vec![0u8; n];
        client.read_exact(&mut buf).expect("read");
        buf
    }

    #[test]
    fn outcome_first_leaves_the_sending_to_the_connection() {
        let (_client, slot) = pair();
        slot.arm();
        slot.committed(Ok(()));
        assert_eq!(slot.answer(&[OK.to_vec()], 1), Some(framed(OK, 1)));
        slot.settle();
        slot.arm(); // a settled slot can be armed again
        slot.disarm();
    }

    #[test]
    fn answer_first_is_written_by_the_committing_thread() {
        let (mut client, slot) = pair();
        slot.arm();
        assert_eq!(slot.answer(&[OK.to_vec()], 1), None);
        let pipeline = std::thread::spawn({
            let slot = slot.clone();
            move || slot.committed(Ok(()))
        });
        slot.settle();
        pipeline.join().expect("join");
        assert_eq!(read_exactly(&mut client, OK.len() + 4), framed(OK, 1));
    }

    #[test]
    fn a_failed_commit_answers_its_error_instead() {
        let (mut client, slot) = pair();
        slot.arm();
        assert_eq!(slot.answer(&[OK.to_vec()], 3), None);
        slot.committed(Err(SqlError::new(ErrorCode::ERROR_DURING_COMMIT, "Got error during COMMIT: disk")));
        let mut err = Vec::new();
        encode_err(&SqlError::new(ErrorCode::ERROR_DURING_COMMIT, "Got error during COMMIT: disk"), &mut err);
        assert_eq!(read_exactly(&mut client, err.len() + 4), framed(&err, 3));
        assert_eq!(err[0], 0xff);
    }

    #[test]
    fn a_full_socket_leaves_the_rest_to_a_writer_thread() {
        let (mut client, slot) = pair();
        // A client that does not read: fill its socket buffer.
        let filler = vec![7u8; 64 << 10];
        let mut queued = 0usize;
        loop {
            match slot.socket().send_with_flags(&filler, libc::MSG_DONTWAIT) {
                Ok(n) => queued += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => panic!("fill: {e}"),
            }
        }
        slot.arm();
        assert_eq!(slot.answer(&[OK.to_vec()], 1), None);
        slot.committed(Ok(())); // must not block
        assert!(slot.state.lock().pending, "the answer cannot have been sent yet");
        let connection = std::thread::spawn({
            let slot = slot.clone();
            move || slot.settle()
        });
        let mut got = read_exactly(&mut client, queued);
        assert!(got.iter().all(|b| *b == 7));
        got = read_exactly(&mut client, OK.len() + 4);
        assert_eq!(got, framed(OK, 1));
        connection.join().expect("join");
    }
}
