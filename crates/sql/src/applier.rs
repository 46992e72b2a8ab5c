//! The applier: turns committed binlog transactions back into storage
//! writes. Recovery uses it for every transaction after the persisted
//! position; a replica will use the same code.

use crate::catalog::{Catalog, TableEntry};
use crate::rows;
use onelog_binlog::event::{decode_rows, Event, RowChange};
use onelog_binlog::recovery::RecoveredTxn;
use onelog_core::{Collation, SqlError, SqlResult, Value};
use onelog_storage::{key, Mutation, Snapshot, StorageError, Store};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Applies and publishes one committed transaction, with its end position
/// as the storage marker.
pub fn apply_transaction(store: &Store, catalog: &mut Catalog, txn: &RecoveredTxn) -> SqlResult<()> {
    let mut batch: Vec<Mutation> = Vec::new();
    let mut table_maps: HashMap<u64, Arc<TableEntry>> = HashMap::new();
    let snapshot = store.snapshot();
    for event in &txn.events {
        match event {
            Event::Query { db, sql, collation_server, .. } => {
                // OneLog has logged every statement with its server
                // collation since databases had one; before, it was 45.
                let collation_server = collation_server.and_then(Collation::from_id).unwrap_or_default();
                let applied = crate::ddl::replay(store, catalog, db, sql, collation_server)?;
                batch.extend(applied);
            }
            Event::TableMap(map) => {
                let entry = catalog.get_table(&map.db, &map.table)?;
                table_maps.insert(map.table_id, entry);
            }
            Event::Rows { kind, table_id, body, .. } => {
                let entry = table_maps
                    .get(table_id)
                    .ok_or_else(|| SqlError::internal(format!("rows event for unmapped table id {table_id}")))?;
                let changes = decode_rows(*kind, body, &entry.def).map_err(|e| SqlError::internal(e.to_string()))?;
                for change in changes {
                    apply_change(&snapshot, &mut batch, entry, change)?;
                }
            }
            _ => {}
        }
    }
    let applied =
        store.apply([batch.as_slice()], &crate::engine::encode_marker(txn.end_pos)).map_err(crate::txn::storage_err)?;
    // Replay runs before the commit stage exists: the next transaction
    // locates its rows in this one's result.
    store.publish(applied);
    Ok(())
}

fn apply_change(
    snapshot: &Snapshot,
    batch: &mut Vec<Mutation>,
    table: &TableEntry,
    change: RowChange,
) -> SqlResult<()> {
    match change {
        RowChange::Insert(row) => {
            let clustered = rows::new_clustered_key(table, &row);
            rows::write_row(batch, table, &clustered, None, &row)
        }
        RowChange::Update { before, after } => {
            let old_key = locate(snapshot, batch, table, &before)?;
            let new_key = if table.def.primary_key().is_some() {
                rows::new_clustered_key(table, &after)
            } else {
                old_key.clone()
            };
            if new_key != old_key {
                rows::delete_row(batch, table, &old_key, &before);
                rows::write_row(batch, table, &new_key, None, &after)
            } else {
                rows::write_row(batch, table, &new_key, Some(&before), &after)
            }
        }
        RowChange::Delete(before) => {
            let old_key = locate(snapshot, batch, table, &before)?;
            rows::delete_row(batch, table, &old_key, &before);
            Ok(())
        }
    }
}

/// Finds the clustered key of a row given its full image: from the primary
/// key, or by matching the image for tables with a hidden row id.
fn locate(snapshot: &Snapshot, batch: &[Mutation], table: &TableEntry, image: &[Value]) -> SqlResult<Vec<u8>> {
    if let Some(pk) = table.def.primary_key() {
        return Ok(rows::index_key(table, pk, image));
    }
    let encoded = rows::encode(table, image)?;
    // Rows written earlier in this same transaction are in the batch.
    for m in batch.iter().rev() {
        if let Mutation::Put(k, v) = m {
            if k.starts_with(&table.def.id.to_be_bytes()) && *v == encoded {
                return Ok(k.clone());
            }
        }
    }
    let start = key::index_prefix(table.def.id);
    let end = key::prefix_end(&start);
    for kv in snapshot.scan(&start, end.as_deref(), false).map_err(crate::txn::storage_err)? {
        let (k, v) = kv.map_err(crate::txn::storage_err)?;
        if *v == *encoded {
            return Ok(k.to_vec());
        }
    }
    Err(SqlError::internal(format!("replay: row to change not found in {}.{}", table.def.db, table.def.name)))
}

/// Sets AUTO_INCREMENT and hidden row id counters from the stored rows
/// (MariaDB computes the AUTO_INCREMENT start as max + 1 on open); never
/// lowers a counter, so recovery calls it before replay (replayed inserts
/// into a table without a primary key take hidden row ids) and after it
/// (for tables the replay created or re-keyed).
pub fn init_counters(store: &Store, catalog: &Catalog) -> Result<(), StorageError> {
    let snapshot = store.snapshot();
    for table in catalog.all_tables() {
        let start = key::index_prefix(table.clustered_id());
        let end = key::prefix_end(&start);
        if table.def.primary_key().is_none() {
            if let Some(kv) = snapshot.scan(&start, end.as_deref(), true)?.next() {
                let (k, _) = kv?;
                let id = k.get(8..16).and_then(|b| b.try_into().ok()).map(u64::from_be_bytes).unwrap_or(0);
                table.next_row_id.fetch_max(id + 1, Ordering::Relaxed);
            }
        }
        if table.def.auto_increment_column().is_none() {
            continue;
        }
        let max = largest_auto_increment(&snapshot, &table)?;
        let mut next = table.auto_increment_next.lock();
        *next = (*next).max(max + 1).max(table.def.auto_increment_start);
    }
    Ok(())
}

/// The largest AUTO_INCREMENT value in `table`'s rows (0 when none, or
/// when the table has no AUTO_INCREMENT column). Read at the end of an
/// ascending index that starts with the column, which MariaDB requires
/// (1075), so a restart does not scan the table; a whole scan only where
/// no such index exists.
fn largest_auto_increment(snapshot: &Snapshot, table: &TableEntry) -> Result<u64, StorageError> {
    let Some(col) = table.def.auto_increment_column() else { return Ok(0) };
    let leading = table
        .def
        .indexes
        .iter()
        .find(|ix| ix.columns.first() == Some(&col) && !ix.parts.first().is_some_and(|part| part.descending));
    let value =
        |row_bytes: &[u8]| rows::decode(table, row_bytes).map_or(0, |row| crate::dml::auto_increment_value(&row[col]));
    if let Some(index) = leading {
        let start = key::index_prefix(index.id);
        let end = key::prefix_end(&start);
        let Some(last) = snapshot.scan(&start, end.as_deref(), true)?.next() else { return Ok(0) };
        let (_, v) = last?;
        // A secondary index entry's value is the row's clustered key.
        return match index.primary {
            true => Ok(value(&v)),
            false => Ok(snapshot.get(&v)?.map_or(0, |row| value(&row))),
        };
    }
    let start = key::index_prefix(table.clustered_id());
    let end = key::prefix_end(&start);
    let mut max = 0u64;
    for kv in snapshot.scan(&start, end.as_deref(), false)? {
        let (_, v) = kv?;
        max = max.max(value(&v));
    }
    Ok(max)
}
