//! MariaDB's HANDLER statements: `HANDLER t OPEN [[AS] alias]`,
//! `HANDLER alias READ {FIRST | NEXT} [WHERE cond] [LIMIT [offset,] n]`,
//! `HANDLER alias CLOSE` — a per-session cursor over a table's rows in
//! storage order.
//!
//! As in MariaDB, a handler is a dirty, non-transactional reader: each READ
//! takes a fresh snapshot (with the session's own uncommitted writes) and
//! goes on after the last row it returned, so rows committed meanwhile
//! by others are seen. A handler holds no metadata lock; instead a READ
//! finds its table re-installed by a DDL (TRUNCATE, ALTER, DROP, RENAME)
//! and reports the handler closed (1109), as MariaDB's DDL closes open
//! handlers. Reads by index (`READ idx FIRST`, `READ idx = (...)`) are not
//! supported yet.

use crate::ast::{Expr, HandlerRead, IsolationLevel, ObjectName};
use crate::rows;
use crate::session::{QueryResult, ResultColumn, Session};
use crate::txn::Txn;
use onelog_core::{ErrorCode, SqlError, SqlResult};
use onelog_storage::key;
use std::collections::HashMap;

/// A session's open handlers by alias (lowercase: MariaDB compares
/// handler aliases case-insensitively).
#[derive(Default)]
pub struct Handlers(HashMap<String, OpenHandler>);

struct OpenHandler {
    db: String,
    table: String,
    /// The table definition the handler was opened on (see the module doc).
    def_generation: u64,
    /// Clustered key of the last row returned; `None` before the first.
    last_key: Option<Vec<u8>>,
}

fn unknown_handler(alias: &str) -> SqlError {
    SqlError::new(ErrorCode::UNKNOWN_TABLE, format!("Unknown table '{alias}' in HANDLER"))
}

pub fn open(session: &mut Session, table: &ObjectName, alias: Option<&str>) -> SqlResult<QueryResult> {
    let alias = alias.unwrap_or(&table.name);
    let handler_key = alias.to_lowercase();
    // The alias is checked before the table, as in MariaDB.
    if session.handlers.0.contains_key(&handler_key) {
        return Err(SqlError::new(ErrorCode::NON_UNIQ_TABLE, format!("Not unique table/alias: '{alias}'")));
    }
    let entry = session.table_entry(table)?;
    let handler = OpenHandler {
        db: entry.def.db.clone(),
        table: entry.def.name.clone(),
        def_generation: entry.def_generation,
        last_key: None,
    };
    session.handlers.0.insert(handler_key, handler);
    Ok(QueryResult::ok(0))
}

pub fn close(session: &mut Session, alias: &str) -> SqlResult<QueryResult> {
    match session.handlers.0.remove(&alias.to_lowercase()) {
        Some(_) => Ok(QueryResult::ok(0)),
        None => Err(unknown_handler(alias)),
    }
}

/// `limit` is (offset, count) as LIMIT gives them; MariaDB reads one row
/// without a LIMIT.
pub fn read(
    session: &mut Session,
    alias: &str,
    how: HandlerRead,
    filter: Option<&Expr>,
    limit: (u64, u64),
) -> SqlResult<QueryResult> {
    let handler_key = alias.to_lowercase();
    let handler = session.handlers.0.get(&handler_key).ok_or_else(|| unknown_handler(alias))?;
    let current = session.table_entry_in(&handler.db, &handler.table);
    let entry = match current {
        Ok(entry) if entry.def_generation == handler.def_generation => entry,
        _ => {
            session.handlers.0.remove(&handler_key);
            return Err(unknown_handler(alias));
        }
    };
    let last_returned = session.handlers.0.get(&handler_key).and_then(|h| h.last_key.clone());
    let prefix = key::index_prefix(entry.clustered_id());
    let start = match (&how, &last_returned) {
        (HandlerRead::Next, Some(last)) => key::prefix_end(last).unwrap_or_else(|| last.clone()),
        _ => prefix.clone(),
    };
    let end = key::prefix_end(&prefix);
    let columns: Vec<ResultColumn> = entry
        .def
        .columns
        .iter()
        .map(|c| {
            let mut column = ResultColumn::named(&c.name, c.clone());
            column.table = alias.to_string();
            column.org_table = entry.def.name.clone();
            column.db = entry.def.db.clone();
            column
        })
        .collect();
    let bound = filter.map(|f| crate::select::bind(f, &crate::select::result_scope(&columns))).transpose()?;
    let view = session.engine.store.snapshot();
    let empty = Txn::new(0, IsolationLevel::RepeatableRead, true, false).with_temp_rows(session.temp.rows());
    let txn = session.txn.as_ref().unwrap_or(&empty);
    let ctx = crate::select::Ctx::new(session, txn, view.clone(), &[]);
    let zone = rows::zone_for(&entry, &ctx);
    let (mut skip, mut wanted) = limit;
    let mut out = Vec::new();
    let mut last_key = None;
    for kv in txn.scan(&view, &start, end.as_deref(), false)? {
        if wanted == 0 {
            break;
        }
        let (clustered, bytes) = kv?;
        let mut row = rows::decode(&entry, &bytes)?;
        rows::show_in_zone(&entry, &mut row, zone);
        last_key = Some(clustered.to_vec());
        if bound.as_ref().map(|b| ctx.test(b, &row)).transpose()? == Some(false) {
            continue;
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        out.push(row);
        wanted -= 1;
    }
    drop(ctx);
    if let (Some(handler), Some(last)) = (session.handlers.0.get_mut(&handler_key), last_key) {
        handler.last_key = Some(last);
    }
    Ok(QueryResult::Rows { columns, rows: out })
}
