//! Column grants (`GRANT SELECT (a, b) ON t`): which columns a statement
//! uses of its table, by the privilege each needs, so that an account
//! whose table-level check fails may still run it with the columns it was
//! granted, as in MariaDB (1143 names the first column it lacks; 1142 for
//! `SELECT *` or an INSERT without a column list that needs every column).
//!
//! Only single-table statements without subqueries are analysed: SELECT,
//! INSERT ... VALUES, UPDATE. Any other statement keeps the table-level
//! answer (1142) for an account with column grants only.

use crate::accounts::{privs, Account};
use crate::ast::*;
use onelog_core::{ErrorCode, SqlError};

/// Columns of one table a statement uses with one privilege.
pub(crate) struct ColumnUse {
    db: String,
    table: String,
    bit: u64,
    /// `None`: every column (`SELECT *`, INSERT without a column list).
    columns: Option<Vec<String>>,
    /// Refused column by column (1143) even without column grants: the
    /// columns an UPDATE reads, which MariaDB checks as it resolves them.
    by_column: bool,
}

/// The column uses of `stmt`, empty when it is not analysed.
pub(crate) fn column_uses(stmt: &Statement, current: &str) -> Vec<ColumnUse> {
    let mut uses = Vec::new();
    let db_of = |name: &ObjectName| name.db.clone().unwrap_or_else(|| current.to_string());
    let mut add = |name: &ObjectName, bit: u64, columns: Option<Vec<String>>, by_column: bool| {
        uses.push(ColumnUse { db: db_of(name), table: name.name.clone(), bit, columns, by_column })
    };
    match stmt {
        Statement::Select(select) => {
            if let Some((name, columns)) = select_columns(select) {
                add(name, privs::SELECT, columns, false);
            }
        }
        Statement::Insert(ins) if ins.on_duplicate.is_empty() && ins.returning.is_empty() => {
            if let InsertSource::Values(rows) = &ins.source {
                if rows.iter().flatten().all(|e| !has_subquery(e) && !e.contains(&|e| matches!(e, Expr::Column { .. })))
                {
                    let columns = (!ins.columns.is_empty()).then(|| ins.columns.clone());
                    add(&ins.table, privs::INSERT, columns, false);
                }
            }
        }
        Statement::Update(upd) => {
            let read: Vec<&Expr> = (upd.assignments.iter().map(|(_, e)| e))
                .chain(&upd.selection)
                .chain(upd.order_by.iter().map(|o| &o.expr))
                .collect();
            if read.iter().all(|e| !has_subquery(e)) {
                let assigned = upd.assignments.iter().map(|(c, _)| c.clone()).collect();
                add(&upd.table, privs::UPDATE, Some(assigned), false);
                let mut columns = Vec::new();
                read.iter().for_each(|e| column_names(e, &[], &mut columns));
                add(&upd.table, privs::SELECT, Some(columns), true);
            }
        }
        _ => {}
    }
    uses
}

/// The one table a SELECT reads and the columns it names, if it reads one
/// table without subqueries, derived tables or UNION.
fn select_columns(select: &Select) -> Option<(&ObjectName, Option<Vec<String>>)> {
    let [Join { factor: TableFactor::Table { name, .. }, on: None, .. }] = select.from.as_slice() else {
        return None;
    };
    if select.union.is_some() {
        return None;
    }
    let items = select.items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    });
    let clauses: Vec<&Expr> = (select.selection.iter())
        .chain(&select.group_by)
        .chain(&select.having)
        .chain(select.order_by.iter().map(|o| &o.expr))
        .collect();
    if items.clone().chain(clauses.iter().copied()).any(has_subquery) {
        return None;
    }
    if select.items.iter().any(|i| !matches!(i, SelectItem::Expr { .. })) {
        return Some((name, None));
    }
    // GROUP BY, HAVING and ORDER BY may name a select item's alias.
    let aliases: Vec<&str> = (select.items.iter())
        .filter_map(|i| match i {
            SelectItem::Expr { alias: Some(a), .. } => Some(a.as_str()),
            _ => None,
        })
        .collect();
    let mut columns = Vec::new();
    items.for_each(|e| column_names(e, &[], &mut columns));
    if let Some(e) = &select.selection {
        column_names(e, &[], &mut columns);
    }
    (select.group_by.iter().chain(&select.having).chain(select.order_by.iter().map(|o| &o.expr)))
        .for_each(|e| column_names(e, &aliases, &mut columns));
    Some((name, Some(columns)))
}

fn has_subquery(e: &Expr) -> bool {
    e.contains(&|e| matches!(e, Expr::InSubquery { .. } | Expr::ScalarSubquery(_) | Expr::Exists { .. }))
}

/// The column names `e` refers to, except those that are `aliases`.
fn column_names(e: &Expr, aliases: &[&str], out: &mut Vec<String>) {
    if let Expr::Column { name, table: None } = e {
        if aliases.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            return;
        }
    }
    if let Expr::Column { name, .. } = e {
        out.push(name.clone());
    }
    e.for_each_child(&mut |child| column_names(child, aliases, out));
}

/// The answer for a statement that lacks `bit` on table `db`.`table`:
/// `Ok` when its column grants cover every column it uses with `bit`,
/// else MariaDB's error: 1143 for the first column not granted, 1142 when
/// the statement was not analysed. For every column (`table_columns`, in
/// table order) MariaDB answers 1142 once a column with a grant was met
/// before the one refused, 1143 otherwise.
pub(crate) fn check(
    account: &Account,
    uses: &[ColumnUse],
    (db, table, bit): (&str, &str, u64),
    table_columns: impl FnOnce() -> Vec<String>,
    (user, host): (&str, &str),
) -> Result<(), SqlError> {
    let command = privs::name(bit);
    let table_denied = || {
        SqlError::new(
            ErrorCode::TABLEACCESS_DENIED,
            format!("{command} command denied to user '{user}'@'{host}' for table `{db}`.`{table}`"),
        )
    };
    let use_ = uses.iter().find(|u| u.db == db && u.table == table && u.bit == bit);
    let grant = account.table_grant(db, table).filter(|g| g.column_privs() & bit != 0);
    let Some(use_) = use_.filter(|u| grant.is_some() || u.by_column) else {
        return Err(table_denied());
    };
    let column_grant =
        |column: &str| grant.and_then(|g| g.columns.iter().find(|(name, _)| name.eq_ignore_ascii_case(column)));
    let granted = |column: &str| column_grant(column).is_some_and(|(_, bits)| bits & bit != 0);
    let column_denied = |column: &str| {
        SqlError::new(
            ErrorCode::COLUMNACCESS_DENIED,
            format!("{command} command denied to user '{user}'@'{host}' for column '{column}' in table '{table}'"),
        )
    };
    match &use_.columns {
        Some(columns) => columns.iter().find(|c| !granted(c)).map_or(Ok(()), |c| Err(column_denied(c))),
        None => {
            // A table that is gone: no column grant can cover it.
            let columns = table_columns();
            if columns.is_empty() {
                return Err(table_denied());
            }
            let Some(refused) = columns.iter().position(|c| !granted(c)) else { return Ok(()) };
            if columns[..=refused].iter().any(|c| column_grant(c).is_some()) {
                Err(table_denied())
            } else {
                Err(column_denied(&columns[refused]))
            }
        }
    }
}
