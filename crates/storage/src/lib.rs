//! Storage: tables and indexes in redb, with no write-ahead log.
//!
//! Owns: the memcomparable key encoding ([`key`]), the in-memory overlay of
//! applied but not yet folded changes ([`overlay`]), the zero-copy read
//! result ([`slice`]) and the store
//! ([`store`]) — one ordered key/value space holding every table's rows,
//! every secondary index and the catalog, plus the binlog-position marker
//! that says which binlog prefix the persisted state reflects. It may call
//! `onelog-core` only; it knows nothing of SQL text or of binlog files (the
//! position marker is opaque bytes to it).
//!
//! Invariant (DESIGN.md "The one invariant"): commit groups are applied to
//! memory; redb is written by checkpoints (durably, with the marker of the
//! last group they hold, after the caller has synced the binlog at least
//! that far) and by in-line folds (non-durably, only for range deletions,
//! for a group too large for the overlay, and as back-pressure). So redb's persisted state is always a prefix of
//! the durable binlog, tagged with the position it reflects.

pub mod fault;
pub mod key;
pub mod overlay;
pub mod slice;
pub mod store;

pub use slice::Slice;
pub use store::{CheckpointDue, Mutation, OverlayLimits, Snapshot, StorageError, Store};
