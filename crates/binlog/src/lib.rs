//! The binary log: OneLog's one and only durable log.
//!
//! Owns: the MariaDB-flavoured MySQL v4 event format ([`event`]), the set of
//! binlog files with their index ([`file`]), the group-commit pipeline with
//! its sync policy and counters ([`pipeline`]), and the start-up scan that
//! truncates a torn tail and hands complete transactions to the applier
//! ([`recovery`]), plus the SHOW BINLOG EVENTS listing ([`listing`]). It
//! depends only on `onelog-core`; it knows nothing of SQL or storage — the
//! commit stage calls back into a [`pipeline::GroupSink`] supplied by the
//! layer above.

pub mod cache;
pub mod dump;
pub mod event;
pub mod file;
#[doc(hidden)]
pub mod fuzzing;
pub mod listing;
pub mod pipeline;
pub mod recovery;

use serde::{Deserialize, Serialize};

/// A byte position in the binlog: which file (its numeric suffix) and the
/// offset of the first byte *after* the event or transaction it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct BinlogPos {
    pub file_seq: u32,
    pub offset: u64,
}

/// A MariaDB GTID: `domain-server-seq`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Gtid {
    pub domain_id: u32,
    pub server_id: u32,
    pub seq_no: u64,
}

impl std::fmt::Display for Gtid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.domain_id, self.server_id, self.seq_no)
    }
}

/// Errors of the binlog layer.
#[derive(Debug, thiserror::Error)]
pub enum BinlogError {
    #[error("binlog I/O error on {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("corrupt binlog event in {file} at offset {offset}: {reason}")]
    Corrupt { file: String, offset: u64, reason: String },
    #[error("malformed event: {0}")]
    Malformed(String),
    #[error("binlog is read-only after a failed sync ({0}); restart the server to recover")]
    Poisoned(String),
}
