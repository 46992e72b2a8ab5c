//! Column grants (`GRANT SELECT (a, b) ON t`): which columns a statement
//! uses of its table, by the privilege each needs, so that an account
//! whose table-level check fails may still run it with the columns it was
//! granted, as in MariaDB (1143 names the first column it lacks; 1142 for
//! `SELECT *` or an INSERT without a column list that needs every column).
//!
//! Analysed: SELECT over tables joined without NATURAL (each column
//! resolved to its table by qualifier, or by the table that has it),
//! INSERT ... VALUES, INSERT ... SELECT, UPDATE of one table; none with
//! subqueries. Any other statement keeps the table-level answer (1142) for
//! an account with column grants only.

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
/// `columns_of(db, table)` lists a table's columns (empty for one that
/// does not exist), to resolve an unqualified column of a join.
pub(crate) fn column_uses(
    stmt: &Statement,
    current: &str,
    columns_of: &dyn Fn(&str, &str) -> Vec<String>,
) -> Vec<ColumnUse> {
    let mut uses: Vec<ColumnUse> = Vec::new();
    let db_of = |name: &ObjectName| name.db.clone().unwrap_or_else(|| current.to_string());
    // A table read twice (a self-join) is one use of the columns of both.
    let mut add = |name: &ObjectName, bit: u64, columns: Option<Vec<String>>, by_column: bool| {
        let (db, table) = (db_of(name), name.name.clone());
        match uses.iter_mut().find(|u| u.db == db && u.table == table && u.bit == bit) {
            Some(existing) => match (&mut existing.columns, columns) {
                (Some(mine), Some(more)) => mine.extend(more),
                (mine, None) => *mine = None,
                (None, Some(_)) => {}
            },
            None => uses.push(ColumnUse { db, table, bit, columns, by_column }),
        }
    };
    let has_column = |name: &ObjectName, column: &str| {
        columns_of(&db_of(name), &name.name).iter().any(|c| c.eq_ignore_ascii_case(column))
    };
    match stmt {
        Statement::Select(select) => {
            for (name, columns) in select_columns(select, &has_column).unwrap_or_default() {
                add(name, privs::SELECT, columns, false);
            }
        }
        Statement::Insert(ins) if ins.on_duplicate.is_empty() && ins.returning.is_empty() => {
            let columns = (!ins.columns.is_empty()).then(|| ins.columns.clone());
            match &ins.source {
                InsertSource::Values(rows) => {
                    if rows
                        .iter()
                        .flatten()
                        .all(|e| !has_subquery(e) && !e.contains(&|e| matches!(e, Expr::Column { .. })))
                    {
                        add(&ins.table, privs::INSERT, columns, false);
                    }
                }
                InsertSource::Select(select) => {
                    if let Some(read) = select_columns(select, &has_column) {
                        add(&ins.table, privs::INSERT, columns, false);
                        for (name, columns) in read {
                            add(name, privs::SELECT, columns, false);
                        }
                    }
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
                read.iter().for_each(|e| column_names(e, &mut columns));
                add(&upd.table, privs::SELECT, Some(columns), true);
            }
        }
        _ => {}
    }
    uses
}

/// A table and the columns a statement names of it (`None`: every one).
type TableColumns<'a> = (&'a ObjectName, Option<Vec<String>>);

/// The tables a SELECT reads, each with the columns it names of it (`None`:
/// every column), if it reads only tables, joined without NATURAL, with no
/// subqueries or UNION. `has(table, column)` says whether a table has a
/// column, for the columns named without a table.
fn select_columns<'a>(select: &'a Select, has: &dyn Fn(&ObjectName, &str) -> bool) -> Option<Vec<TableColumns<'a>>> {
    let tables: Vec<(&ObjectName, &str)> = (select.from.iter())
        .map(|join| match &join.factor {
            TableFactor::Table { name, alias, .. } if !join.natural => {
                Some((name, alias.as_deref().unwrap_or(name.name.as_str())))
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    if tables.is_empty() || select.union.is_some() {
        return None;
    }
    let items = select.items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    });
    let clauses: Vec<&Expr> = (select.selection.iter())
        .chain(select.from.iter().filter_map(|j| j.on.as_ref()))
        .chain(&select.group_by)
        .chain(&select.having)
        .chain(select.order_by.iter().map(|o| &o.expr))
        .collect();
    if items.clone().chain(clauses.iter().copied()).any(has_subquery) {
        return None;
    }
    // GROUP BY, HAVING and ORDER BY may name a select item's alias.
    let aliases: Vec<&str> = (select.items.iter())
        .filter_map(|i| match i {
            SelectItem::Expr { alias: Some(a), .. } => Some(a.as_str()),
            _ => None,
        })
        .collect();
    let mut named = Vec::new();
    items.for_each(|e| column_refs(e, &[], &mut named));
    if let Some(e) = &select.selection {
        column_refs(e, &[], &mut named);
    }
    for join in &select.from {
        if let Some(on) = &join.on {
            column_refs(on, &[], &mut named);
        }
        named.extend(join.using.iter().map(|c| (None, c.clone())));
    }
    (select.group_by.iter().chain(&select.having).chain(select.order_by.iter().map(|o| &o.expr)))
        .for_each(|e| column_refs(e, &aliases, &mut named));
    let mut uses: Vec<(&ObjectName, Option<Vec<String>>)> =
        tables.iter().map(|(name, _)| (*name, Some(vec![]))).collect();
    for item in &select.items {
        match item {
            SelectItem::Wildcard => uses.iter_mut().for_each(|u| u.1 = None),
            SelectItem::QualifiedWildcard(q) => {
                if let Some(i) = tables.iter().position(|(_, alias)| alias.eq_ignore_ascii_case(q)) {
                    uses[i].1 = None;
                }
            }
            SelectItem::Expr { .. } => {}
        }
    }
    for (qualifier, column) in named {
        // One table takes every column; of a join, the table named, else
        // each table that has the column (USING's are in both).
        let of = |i: usize| match &qualifier {
            Some(q) => tables[i].1.eq_ignore_ascii_case(q),
            None => tables.len() == 1 || has(tables[i].0, &column),
        };
        for (i, use_) in uses.iter_mut().enumerate() {
            if let (true, Some(columns)) = (of(i), &mut use_.1) {
                columns.push(column.clone());
            }
        }
    }
    Some(uses)
}

fn has_subquery(e: &Expr) -> bool {
    e.contains(&|e| matches!(e, Expr::InSubquery { .. } | Expr::ScalarSubquery(_) | Expr::Exists { .. }))
}

/// The columns `e` refers to, with their table qualifier, except those
/// named without one that are `aliases`.
fn column_refs(e: &Expr, aliases: &[&str], out: &mut Vec<(Option<String>, String)>) {
    match e {
        Expr::Column { name, table: None } if aliases.iter().any(|a| a.eq_ignore_ascii_case(name)) => return,
        Expr::Column { name, table } => out.push((table.clone(), name.clone())),
        _ => {}
    }
    e.for_each_child(&mut |child| column_refs(child, aliases, out));
}

/// The column names `e` refers to.
fn column_names(e: &Expr, out: &mut Vec<String>) {
    let mut refs = Vec::new();
    column_refs(e, &[], &mut refs);
    out.extend(refs.into_iter().map(|(_, name)| name));
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
