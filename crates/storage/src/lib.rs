//! Storage: tables and indexes in redb, with no write-ahead log.
//!
//! Owns: the memcomparable key encoding ([`key`]) and the redb store
//! ([`store`]) — one ordered key/value space holding every table's rows,
//! every secondary index and the catalog, plus the binlog-position marker
//! that says which binlog prefix the persisted state reflects. It may call
//! `onelog-core` only; it knows nothing of SQL text or of binlog files (the
//! position marker is opaque bytes to it).
//!
//! Invariant (DESIGN.md "The one invariant"): every write reaches redb with
//! `Durability::None` together with the marker of the binlog position it
//! reflects; only [`store::Store::checkpoint`] makes state durable, and the
//! caller must have synced the binlog at least as far as the marker first.

pub mod fault;
pub mod key;
pub mod store;

pub use store::{Mutation, Snapshot, StorageError, Store};
