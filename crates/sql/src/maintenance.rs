//! Table maintenance statements: CHECK, ANALYZE, OPTIMIZE and REPAIR TABLE,
//! answered with MariaDB's result set (Table, Op, Msg_type, Msg_text), one
//! outcome per table named.
//!
//! CHECK TABLE really checks, in one storage snapshot: every row decodes
//! under the table's definition, every secondary index holds exactly one
//! entry per row pointing at it, and no index holds entries for rows that
//! do not exist. A mismatch is what a bug in the commit path or in recovery
//! would leave behind, so the crash tests run it after every restart.
//! ANALYZE has no statistics to collect (the planner uses none) and says OK.
//! OPTIMIZE answers as InnoDB, the engine SHOW CREATE TABLE names: it
//! "recreates" the table as `ALTER TABLE ... FORCE` does, which in OneLog's
//! storage has nothing to reclaim (pages freed by deleted rows go back to
//! the one file's free list at once, there is no per-table free space),
//! then analyzes. REPAIR has nothing to do and says so, as InnoDB does.

use crate::ast::{MaintenanceOp, ObjectName};
use crate::catalog::TableEntry;
use crate::rows;
use crate::session::{QueryResult, ResultColumn, Session};
use crate::txn::storage_err;
use onelog_core::{ColumnDef, ColumnType, SqlResult, Value};
use onelog_storage::{key, Snapshot};

/// Problems listed for one table before the rest are summarised, so that a
/// badly damaged table gives a readable answer.
const MAX_PROBLEMS: usize = 20;

pub fn execute(session: &Session, op: MaintenanceOp, tables: &[ObjectName]) -> SqlResult<QueryResult> {
    let mut rows = Vec::new();
    for name in tables {
        let db = session.resolve_db(name)?;
        let label = format!("{db}.{}", name.name);
        let entry = session.engine.catalog.read().get_table(db, &name.name);
        let outcomes = match entry {
            Err(e) => vec![("Error", e.message), ("status", "Operation failed".to_string())],
            Ok(table) => outcomes(session, op, &table)?,
        };
        let text = |s: &str| Value::from_str(s);
        rows.extend(
            outcomes.into_iter().map(|(kind, msg)| vec![text(&label), text(op.name()), text(kind), text(&msg)]),
        );
    }
    // MariaDB's shape: Table VARCHAR(128), Op and Msg_type VARCHAR(10),
    // Msg_text a MEDIUMTEXT-sized item, all nullable items.
    let column = |name: &str, ty: ColumnType| ResultColumn::named(name, ColumnDef::new(name, ty));
    let columns = vec![
        column("Table", ColumnType::VarChar(128)),
        column("Op", ColumnType::VarChar(10)),
        column("Msg_type", ColumnType::VarChar(10)),
        column("Msg_text", ColumnType::Text(onelog_core::BlobSize::Medium)),
    ];
    Ok(QueryResult::Rows { columns, rows })
}

fn outcomes(session: &Session, op: MaintenanceOp, table: &TableEntry) -> SqlResult<Vec<(&'static str, String)>> {
    Ok(match op {
        MaintenanceOp::Check => {
            let problems = check(session, &session.engine.store.snapshot(), table)?;
            if problems.is_empty() {
                vec![("status", "OK".to_string())]
            } else {
                problems.into_iter().map(|p| ("error", p)).chain([("error", "Corrupt".to_string())]).collect()
            }
        }
        MaintenanceOp::Analyze => vec![("status", "OK".to_string())],
        MaintenanceOp::Optimize => vec![
            ("note", "Table does not support optimize, doing recreate + analyze instead".to_string()),
            ("status", "OK".to_string()),
        ],
        MaintenanceOp::Repair => {
            vec![("note", format!("The storage engine for the table doesn't support {}", op.name()))]
        }
    })
}

/// What is wrong with `table` in `snapshot`; empty if nothing.
fn check(session: &Session, snapshot: &Snapshot, table: &TableEntry) -> SqlResult<Vec<String>> {
    let mut problems = Vec::new();
    let mut note = |p: String| {
        if problems.len() < MAX_PROBLEMS {
            problems.push(p);
        }
    };
    let secondary: Vec<_> = table.def.indexes.iter().filter(|i| !i.primary).collect();
    let prefix = key::index_prefix(table.clustered_id());
    let end = key::prefix_end(&prefix);
    let mut row_count = 0u64;
    for kv in snapshot.scan(&prefix, end.as_deref(), false).map_err(storage_err)? {
        session.guard().check()?;
        let (clustered, bytes) = kv.map_err(storage_err)?;
        row_count += 1;
        let row = match rows::decode(table, &bytes) {
            Ok(row) => row,
            Err(e) => {
                note(format!("Row at key {} does not decode: {}", hex(&clustered), e.message));
                continue;
            }
        };
        for index in &secondary {
            let entry = snapshot.get(&rows::secondary_key(table, index, &row, &clustered)).map_err(storage_err)?;
            if entry.as_deref() != Some(&clustered[..]) {
                let what = if entry.is_some() { "points to another row" } else { "is missing" };
                note(format!("Index '{}': the entry for the row at key {} {what}", index.name, hex(&clustered)));
            }
        }
    }
    for index in &secondary {
        let prefix = key::index_prefix(index.id);
        let end = key::prefix_end(&prefix);
        let entries = snapshot.scan(&prefix, end.as_deref(), false).map_err(storage_err)?.count() as u64;
        if entries != row_count {
            note(format!("Index '{}' has {entries} entries for {row_count} rows", index.name));
        }
    }
    Ok(problems)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
