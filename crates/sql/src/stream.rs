//! Streamed SELECT: the rows of a plain scan of one table — `SELECT exprs
//! FROM t [WHERE ...] [ORDER BY ...] [LIMIT n [OFFSET m]]`, with an ORDER
//! BY only where an index gives the order — are filtered, evaluated and
//! handed to the client's [`ResultSink`] one at a time as the scan reads
//! them, so the server holds one row of the result whatever the table's
//! size, and LIMIT ends the scan. Any other SELECT (grouping, aggregates,
//! DISTINCT, window functions, an ORDER BY to sort, joins, UNION, locking
//! reads, or a column whose type is only known from its values, which the
//! head must give before the first row) runs as before in `select` and is
//! sent whole.
//!
//! While its rows go out the statement holds what any SELECT holds while
//! it runs — its read view, its metadata locks, its guard (KILL QUERY,
//! `max_statement_time` and `max_execution_time`, checked by the scan at
//! every row) — so the
//! client's pace decides how long. The head goes out with the first row
//! (or after the scan when there is none), so that an error before any
//! row is answered, as before, with the error alone.

use crate::ast::{Expr, Select, TableFactor};
use crate::select::{self, Ctx, Item, ScopeColumn, Source};
use crate::session::{QueryResult, ResultColumn, ResultSink};
use crate::{typing, window};
use onelog_core::{SqlResult, Value};
use std::cell::Cell;

/// Runs `query`, streaming its rows to `sink` where it is a plain scan.
pub(crate) fn select(ctx: &Ctx, query: &Select, sink: &mut dyn ResultSink) -> SqlResult<QueryResult> {
    if !is_plain_scan(query) {
        return ctx.session.select_result(ctx, query);
    }
    let sources = select::resolve_sources(ctx, &query.from)?;
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    ctx.in_scope(&scope, || scan(ctx, query, sources, &scope, sink))
}

/// What the statement says makes it a plain scan of one table.
fn is_plain_scan(query: &Select) -> bool {
    let one_table = matches!(query.from.as_slice(), [only] if only.on.is_none() && matches!(only.factor, TableFactor::Table { .. }));
    one_table
        && query.union.is_none()
        && query.group_by.is_empty()
        && query.having.is_none()
        && !query.distinct
        && query.lock.is_none()
}

/// The plain scan of `sources` (one table) streamed, or the whole result
/// where `head_columns` or the index order say it cannot be.
fn scan(
    ctx: &Ctx,
    query: &Select,
    mut sources: Vec<Source>,
    scope: &[ScopeColumn],
    sink: &mut dyn ResultSink,
) -> SqlResult<QueryResult> {
    let items = select::expand_items(&query.items, scope)?;
    let filter = query.selection.as_ref().map(|w| select::bind(w, scope)).transpose()?;
    let order = select::bind_order(query, &items, scope)?;
    let order_exprs = || order.iter().map(|o| &o.expr);
    let head = head_columns(&items, &ctx.type_env(scope), filter.iter().chain(order_exprs()));
    let indexed_order = order.is_empty() || sources.first().is_some_and(|s| select::ordered_index(s, &order).is_some());
    let Some(columns) = head.filter(|_| indexed_order) else {
        return materialized(ctx, query, sources, scope);
    };
    let offset = select::limit_value(ctx, &query.offset)?.unwrap_or(0);
    let limit = select::limit_value(ctx, &query.limit)?;
    let mut conds = Vec::new();
    if let Some(w) = &filter {
        select::conjuncts(w, &mut conds);
    }
    if let [lone] = sources.as_mut_slice() {
        let read = items.iter().map(|i| &i.expr).chain(&filter).chain(order_exprs());
        lone.wanted = select::wanted_columns(lone.columns.len(), read);
    }
    let outputs: Vec<Expr> = items.into_iter().map(|i| i.expr).collect();
    let movable = select::movable_slots(&outputs, &[]);
    let (mut skipped, mut sent) = (0u64, 0u64);
    let in_index_order = Cell::new(false);
    let mut unordered = false;
    // What the statement warned of before the scan, should it be undone.
    let warnings_before = ctx.session.warnings_mark();
    if limit != Some(0) {
        let mut emit = |mut row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
            // The access path is chosen before the first row: here, before
            // anything of this row is evaluated, it can still be undone.
            if !order.is_empty() && !in_index_order.get() {
                unordered = true;
                return Ok(false);
            }
            if let Some(w) = &filter {
                if !ctx.test(w, &row)? {
                    return Ok(true);
                }
            }
            if skipped < offset {
                skipped += 1;
                return Ok(true);
            }
            let values = output_row(ctx, &mut row, &outputs, &movable, &columns)?;
            if sent == 0 {
                sink.columns(ctx.session, &columns)?;
            }
            sink.row(values)?;
            sent += 1;
            Ok(limit.is_none_or(|l| sent < l))
        };
        let order = (!order.is_empty()).then_some(order.as_slice());
        select::join_level(ctx, &sources, 0, Vec::new(), &conds, order, &in_index_order, &mut emit)?;
    }
    if unordered {
        // The WHERE chose another index than the ORDER BY's: `select`
        // sorts, as if this had not been tried (its access path's
        // evaluation warns again there).
        ctx.session.rewind_warnings(warnings_before);
        return materialized(ctx, query, sources, scope);
    }
    if sent == 0 {
        sink.columns(ctx.session, &columns)?;
    }
    Ok(QueryResult::Streamed { row_count: sent })
}

/// The select list over `row`, each computed column's value shown in its
/// type, as `select` shows it.
fn output_row(
    ctx: &Ctx,
    row: &mut [Value],
    outputs: &[Expr],
    movable: &[Option<usize>],
    columns: &[ResultColumn],
) -> SqlResult<Vec<Value>> {
    let mut values = select::project_row(ctx, row, outputs, movable)?;
    for ((value, column), output) in values.iter_mut().zip(columns).zip(outputs) {
        if select::slot_of(output).is_none() {
            typing::conform(&column.def, value);
        }
    }
    Ok(values)
}

/// The whole result, as `select` builds it.
fn materialized(ctx: &Ctx, query: &Select, sources: Vec<Source>, scope: &[ScopeColumn]) -> SqlResult<QueryResult> {
    let (columns, rows) = select::run_core_in_scope(ctx, query, true, sources, scope.to_vec())?;
    Ok(QueryResult::Rows { columns, rows })
}

/// The result columns as `select` would give them, known before any row is
/// read; `None` where that needs all the rows (a column typed by its
/// values) or where the query is not a plain scan after all (aggregates,
/// window functions in the select list or `clauses` — `select` then
/// answers, or gives their errors).
fn head_columns<'a>(
    items: &'a [Item],
    env: &typing::TypeEnv<'_>,
    clauses: impl Iterator<Item = &'a Expr>,
) -> Option<Vec<ResultColumn>> {
    if items.iter().map(|i| &i.expr).chain(clauses).any(|e| select::has_aggregate(e) || window::contains_window(e)) {
        return None;
    }
    items
        .iter()
        .map(|item| match select::slot_of(&item.expr) {
            Some(_) => Some(item.column.clone()),
            None => typing::result_column(&item.expr, env, &item.column.name),
        })
        .collect()
}
