//! Expression DEFAULTs (`DEFAULT (expr)`, MariaDB 10.2+): what CREATE and
//! ALTER TABLE keep (the expression's text as MariaDB prints it in SHOW
//! CREATE TABLE and information_schema.COLUMNS) and what an INSERT
//! computes for a column it leaves out.
//!
//! A column keeps its expression as text in the table definition; the
//! expressions are parsed and bound to the table's columns once per table
//! definition ([`TableEntry::bound_defaults`]). As in MariaDB, an INSERT
//! first places the given values and the constant defaults, then computes
//! the expression defaults in column order over that row: one may read any
//! column, a later column's constant default included.
//!
//! The rows an INSERT writes carry the computed values into the binlog, so
//! a replica or a recovery replays them as they were. ALTER TABLE, whose
//! QUERY event a recovery replays by computing again, may not fill existing
//! rows from an expression (see [`existing_rows_refused`]).

use crate::ast::Expr;
use crate::catalog::TableEntry;
use crate::check::scope;
use crate::eval::EvalEnv;
use crate::select;
use onelog_core::schema::ColumnDefault;
use onelog_core::{ErrorCode, SqlError, SqlResult, TableDef, Value};

pub use crate::catalog::BoundDefaults;

/// Checks the expression defaults of `def` and puts their text in
/// MariaDB's printed form: no aggregate (1901), only the table's columns
/// (1054).
pub fn canonicalize(def: &mut TableDef) -> SqlResult<()> {
    let scope = scope(def);
    for c in &mut def.columns {
        let Some(ColumnDefault::Expr(text)) = &c.default else { continue };
        let parsed = crate::parse::parse_expr_text(text)?;
        if let Some(refused) = refused_part(&parsed) {
            return Err(SqlError::new(
                ErrorCode::GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED,
                format!("Function or expression '{refused}' cannot be used in the DEFAULT clause of `{}`", c.name),
            ));
        }
        select::bind(&parsed, &scope).map_err(select::in_clause("DEFAULT"))?;
        c.default = Some(ColumnDefault::Expr(printed(&parsed)?));
    }
    Ok(())
}

/// What a DEFAULT expression may not hold (a subquery is refused by the
/// parser already), as 1901 names it. MariaDB refuses aggregates too; it
/// accepts variables but computes NULL for them, which OneLog refuses
/// rather than imitate.
fn refused_part(expr: &Expr) -> Option<&'static str> {
    let aggregate = |e: &Expr| matches!(e, Expr::Aggregate { .. } | Expr::GroupConcat { .. } | Expr::Window(_));
    let variable = |e: &Expr| matches!(e, Expr::UserVar(_) | Expr::AssignUserVar { .. } | Expr::SystemVar { .. });
    if expr.contains(&variable) {
        return Some("a variable");
    }
    expr.contains(&aggregate).then_some("aggregate function")
}

/// MariaDB's Item::print of the expression: an operator at the top is
/// parenthesized (`(1 + 1)`), a function call is not (`concat('x',`a`)`).
fn printed(expr: &Expr) -> SqlResult<String> {
    let text = crate::view::expression_text(expr)?;
    Ok(match expr {
        Expr::Binary(..) => format!("({text})"),
        _ => text,
    })
}

/// A table's expression defaults parsed and bound, once per definition:
/// (column, expression) in column order, only the columns that have one —
/// empty for most tables, so an INSERT into them pays nothing per row.
fn bound(table: &TableEntry) -> SqlResult<&BoundDefaults> {
    if let Some(bound) = table.bound_defaults.get() {
        return Ok(bound);
    }
    let scope = scope(&table.def);
    let bound = (table.def.columns.iter().enumerate())
        .filter_map(|(col, c)| match &c.default {
            Some(ColumnDefault::Expr(text)) => Some((col, text)),
            _ => None,
        })
        .map(|(col, text)| Ok((col, select::bind(&crate::parse::parse_expr_text(text)?, &scope)?)))
        .collect::<SqlResult<BoundDefaults>>()?;
    Ok(table.bound_defaults.get_or_init(|| bound))
}

/// Computes, in column order, the expression defaults of the columns of
/// `row` that `leave` says the statement left out.
pub fn fill(ctx: &dyn EvalEnv, table: &TableEntry, row: &mut [Value], leave: &dyn Fn(usize) -> bool) -> SqlResult<()> {
    for (col, expr) in bound(table)? {
        if leave(*col) {
            row[*col] = eval_over(ctx, expr, row)?;
        }
    }
    Ok(())
}

/// The one column `col`'s expression default over `row` (`SET c = DEFAULT`).
pub fn value(ctx: &dyn EvalEnv, table: &TableEntry, col: usize, row: &[Value]) -> SqlResult<Value> {
    let Some((_, expr)) = bound(table)?.iter().find(|(c, _)| *c == col) else {
        return Err(SqlError::internal(format!("column {col} has no expression default")));
    };
    eval_over(ctx, expr, row)
}

fn eval_over(ctx: &dyn EvalEnv, expr: &Expr, row: &[Value]) -> SqlResult<Value> {
    let r = crate::eval::Row { values: row, params: &[], aggregates: &[], insert_values: None };
    crate::eval::eval(expr, &r, ctx)
}

/// ALTER TABLE filling existing rows of a column from its expression
/// default is refused: a replay of the logged ALTER would compute the
/// values again and might not find the same (RAND(), UUID(), the clock);
/// MariaDB computes them, OneLog does not yet.
pub fn existing_rows_refused() -> SqlError {
    SqlError::not_supported(
        "ALTER TABLE filling existing rows from an expression DEFAULT (add the column, then UPDATE)",
    )
}
