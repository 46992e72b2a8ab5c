//! Rows in the key space: the clustered entry (key = primary key or hidden
//! row id, value = the row in MySQL's row-image format) and one entry per
//! secondary index (key = index columns + primary key, value = clustered
//! key). Shared by the executor and the binlog applier so both write rows
//! the same way.

use crate::catalog::TableEntry;
use crate::eval::EvalEnv;
use crate::time_zone::{session_zone, TimeZone};
use onelog_core::rowimage::{decode_row_columns, encode_row};
use onelog_core::{ColumnType, ErrorCode, IndexDef, SqlError, SqlResult, Temporal, Value};
use onelog_storage::key;
use onelog_storage::Mutation;
use std::sync::atomic::Ordering;

/// Where row writes go: a transaction's write set or a replay batch.
pub trait RowSink {
    fn put(&mut self, key: Vec<u8>, value: Option<Vec<u8>>);
}

impl RowSink for Vec<Mutation> {
    fn put(&mut self, key: Vec<u8>, value: Option<Vec<u8>>) {
        self.push(match value {
            Some(v) => Mutation::Put(key, v),
            None => Mutation::Delete(key),
        });
    }
}

impl RowSink for crate::txn::Txn {
    fn put(&mut self, key: Vec<u8>, value: Option<Vec<u8>>) {
        crate::txn::Txn::put(self, key, value)
    }
}

/// The clustered key of `row`; tables without a primary key take a fresh
/// hidden row id.
pub fn new_clustered_key(table: &TableEntry, row: &[Value]) -> Vec<u8> {
    match table.def.primary_key() {
        Some(pk) => index_key(table, pk, row),
        None => {
            let row_id = table.next_row_id.fetch_add(1, Ordering::Relaxed);
            let mut k = key::index_prefix(table.def.id);
            k.extend_from_slice(&row_id.to_be_bytes());
            k
        }
    }
}

/// Key of `row` in `index` (its columns only, no primary key suffix).
pub fn index_key(table: &TableEntry, index: &IndexDef, row: &[Value]) -> Vec<u8> {
    let cols = &table.def.columns;
    key::encode_key(index.id, index.columns.iter().map(|&c| (&cols[c], &row[c])))
}

pub(crate) fn secondary_key(table: &TableEntry, index: &IndexDef, row: &[Value], clustered: &[u8]) -> Vec<u8> {
    let mut k = index_key(table, index, row);
    // The clustered key (minus its 8-byte prefix) makes entries unique and
    // keeps duplicates in primary key order.
    k.extend_from_slice(&clustered[8..]);
    k
}

pub fn encode(table: &TableEntry, row: &[Value]) -> SqlResult<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    encode_row(&table.def.columns, row, &mut out).map_err(|e| SqlError::internal(format!("row encoding: {e}")))?;
    // The row may be held in a transaction's write set until it commits:
    // not with up to twice its size in spare capacity.
    if out.capacity() - out.len() > out.len() / 4 {
        out.shrink_to_fit();
    }
    Ok(out)
}

pub fn decode(table: &TableEntry, bytes: &[u8]) -> SqlResult<Vec<Value>> {
    decode_columns(table, bytes, None)
}

/// [`decode`] of the `wanted` columns only; the rest read as NULL.
pub fn decode_columns(table: &TableEntry, bytes: &[u8], wanted: Option<&[bool]>) -> SqlResult<Vec<Value>> {
    decode_row_columns(&table.def.columns, bytes, wanted)
        .map(|(row, _)| row)
        .map_err(|e| SqlError::internal(format!("corrupt row in {}.{}: {e}", table.def.db, table.def.name)))
}

/// TIMESTAMP columns hold UTC in storage, index keys and binlog row images;
/// statements see them in the session zone, as MariaDB converts on every
/// read. Turns a stored `row` into what a session in `zone` sees.
pub fn show_in_zone(table: &TableEntry, row: &mut [Value], zone: TimeZone) {
    convert_timestamps(table, row, zone, |t| zone.utc_to_local(t));
}

/// A row as a session in `zone` sees it, as storage, keys and binlog hold
/// it (the inverse of [`show_in_zone`]; a local time in a DST overlap maps
/// to the earlier instant, as MariaDB's does); `None` when that is `row`
/// itself, so the common case copies nothing.
pub fn stored_from_zone(table: &TableEntry, row: &[Value], zone: TimeZone) -> Option<Vec<Value>> {
    if !converts(table, zone) {
        return None;
    }
    let mut stored = row.to_vec();
    convert_timestamps(table, &mut stored, zone, |t| zone.local_to_utc(t).unwrap_or_default());
    Some(stored)
}

fn converts(table: &TableEntry, zone: TimeZone) -> bool {
    zone != TimeZone::System && has_timestamp(table)
}

fn has_timestamp(table: &TableEntry) -> bool {
    table.def.columns.iter().any(|c| matches!(c.ty, ColumnType::Timestamp { .. }))
}

/// The zone `table`'s rows convert in for the session `env`: SYSTEM (no
/// conversion) for a table without TIMESTAMP columns, which then skips
/// reading `@@time_zone` on every row.
pub fn zone_for(table: &TableEntry, env: &dyn EvalEnv) -> TimeZone {
    if has_timestamp(table) {
        session_zone(env)
    } else {
        TimeZone::System
    }
}

/// Applies `convert` to the non-zero values of `row`'s TIMESTAMP columns
/// (0000-00-00 00:00:00 is no instant and stays as it is).
fn convert_timestamps(table: &TableEntry, row: &mut [Value], zone: TimeZone, convert: impl Fn(&Temporal) -> Temporal) {
    if !converts(table, zone) {
        return;
    }
    for (c, v) in table.def.columns.iter().zip(row.iter_mut()) {
        if let (ColumnType::Timestamp { .. }, Value::DateTime(t)) = (&c.ty, &*v) {
            if *t != Temporal::default() {
                *v = Value::DateTime(convert(t));
            }
        }
    }
}

/// Writes `new` (and its index entries) at `clustered`, first removing the
/// index entries of `old` if the row existed.
pub fn write_row(
    sink: &mut dyn RowSink,
    table: &TableEntry,
    clustered: &[u8],
    old: Option<&[Value]>,
    new: &[Value],
) -> SqlResult<()> {
    for index in table.def.indexes.iter().filter(|i| !i.primary) {
        let new_key = secondary_key(table, index, new, clustered);
        if let Some(old) = old {
            let old_key = secondary_key(table, index, old, clustered);
            if old_key == new_key {
                continue;
            }
            sink.put(old_key, None);
        }
        sink.put(new_key, Some(clustered.to_vec()));
    }
    sink.put(clustered.to_vec(), Some(encode(table, new)?));
    Ok(())
}

/// Removes the row at `clustered` and its index entries.
pub fn delete_row(sink: &mut dyn RowSink, table: &TableEntry, clustered: &[u8], old: &[Value]) {
    for index in table.def.indexes.iter().filter(|i| !i.primary) {
        sink.put(secondary_key(table, index, old, clustered), None);
    }
    sink.put(clustered.to_vec(), None);
}

/// MySQL's rendering of a key value in error 1062 (`'a-b'` for composite keys).
pub fn duplicate_entry(index: &IndexDef, row: &[Value]) -> SqlError {
    let shown: Vec<String> = index.columns.iter().map(|&c| row[c].to_string()).collect();
    SqlError::new(ErrorCode::DUP_ENTRY, format!("Duplicate entry '{}' for key '{}'", shown.join("-"), index.name))
}
