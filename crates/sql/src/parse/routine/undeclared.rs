//! MariaDB's check of a routine's own expressions (SET of a variable, IF,
//! WHILE, REPEAT, CASE, RETURN, DECLARE ... DEFAULT, CALL's and a cursor's
//! arguments) as the body is read (MDEV-14347): a name no table around it
//! can give a column for — outside any query, or in a query block without
//! FROM whose enclosing blocks have none either — is an undeclared
//! variable (1327), not a column left for the statement to find. GROUP BY,
//! ORDER BY and HAVING outside aggregates are not checked, as in MariaDB;
//! nor are derived tables, which have a FROM of their own to look in.

use crate::ast::routine::SpExpr;
use crate::ast::{Expr, Select, SelectItem};
use onelog_core::{ErrorCode, SqlError, SqlResult};

/// 1327 for the first such name in `e`.
pub(super) fn check(e: &SpExpr) -> SqlResult<()> {
    match in_expr(&e.expr, false) {
        Some(name) => Err(SqlError::new(ErrorCode::SP_UNDECLARED_VAR, format!("Undeclared variable: {name}"))),
        None => Ok(()),
    }
}

/// The first unresolvable name in `e`; `tables`: a query block around it
/// has tables.
fn in_expr(e: &Expr, tables: bool) -> Option<String> {
    let found = match e {
        Expr::Column { table, name } if !tables => {
            // `a.b.c` names `a` first, as MariaDB reports it.
            let first = table.as_deref().map_or(name.as_str(), |t| t.split('.').next().unwrap_or(t));
            return Some(first.to_string());
        }
        // `VALUES(name)` / `VALUE(name)`, the value INSERT would give a
        // column, names one as well.
        Expr::InsertValue(name) if !tables => return Some(name.clone()),
        Expr::InSubquery { query, .. } | Expr::ScalarSubquery(query) | Expr::Exists { query, .. } => {
            in_select(query, tables)
        }
        _ => None,
    };
    let mut found = found;
    e.for_each_child(&mut |child| {
        if found.is_none() {
            found = in_expr(child, tables);
        }
    });
    found
}

fn in_select(query: &Select, tables_around: bool) -> Option<String> {
    let tables = tables_around || !query.from.is_empty();
    let items = query.items.iter().filter_map(|item| match item {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    });
    let checked = items.chain(&query.selection).chain(&query.limit).chain(&query.offset);
    checked
        .map(|e| in_expr(e, tables))
        .chain(query.having.iter().map(|h| in_aggregates(h, tables)))
        .chain(query.union.iter().map(|(_, next)| in_select(next, tables_around)))
        .find_map(|found| found)
}

/// The first unresolvable name inside an aggregate of a HAVING condition.
fn in_aggregates(e: &Expr, tables: bool) -> Option<String> {
    if matches!(e, Expr::Aggregate { .. } | Expr::GroupConcat { .. }) {
        return in_expr(e, tables);
    }
    let mut found = None;
    e.for_each_child(&mut |child| {
        if found.is_none() {
            found = in_aggregates(child, tables);
        }
    });
    found
}
