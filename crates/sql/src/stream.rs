//! Streamed SELECT: the rows of a plain scan of one table — `SELECT exprs
//! FROM t [WHERE ...] [LIMIT n [OFFSET m]]` — are filtered, evaluated and
//! handed to the client's [`ResultSink`] one at a time as the scan reads
//! them, so the server holds one row of the result whatever the table's
//! size, and LIMIT ends the scan. Any other SELECT (grouping, aggregates,
//! DISTINCT, window functions, ORDER BY, joins, UNION, locking reads, or a
//! column whose type is only known from its values, which the head must
//! give before the first row) runs as before in `select` and is sent whole.
//!
//! While its rows go out the statement holds what any SELECT holds while
//! it runs — its read view, its metadata locks, its guard (KILL and
//! `max_execution_time`, checked by the scan at every row) — so the
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
        && query.order_by.is_empty()
        && query.lock.is_none()
}

fn scan(
    ctx: &Ctx,
    query: &Select,
    mut sources: Vec<Source>,
    scope: &[ScopeColumn],
    sink: &mut dyn ResultSink,
) -> SqlResult<QueryResult> {
    let items = select::expand_items(&query.items, scope)?;
    let filter = query.selection.as_ref().map(|w| select::bind(w, scope)).transpose()?;
    let Some(columns) = head_columns(&items, scope, filter.as_ref()) else {
        let (columns, rows) = select::run_core_in_scope(ctx, query, true, sources, scope.to_vec())?;
        return Ok(QueryResult::Rows { columns, rows });
    };
    let offset = select::limit_value(ctx, &query.offset)?.unwrap_or(0);
    let limit = select::limit_value(ctx, &query.limit)?;
    let mut conds = Vec::new();
    if let Some(w) = &filter {
        select::conjuncts(w, &mut conds);
    }
    if let [lone] = sources.as_mut_slice() {
        lone.wanted = select::wanted_columns(lone.columns.len(), items.iter().map(|i| &i.expr).chain(&filter));
    }
    let outputs: Vec<Expr> = items.into_iter().map(|i| i.expr).collect();
    let movable = select::movable_slots(&outputs, &[]);
    let (mut skipped, mut sent) = (0u64, 0u64);
    if limit != Some(0) {
        let mut emit = |mut row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
            if let Some(w) = &filter {
                if !ctx.test(w, &row)? {
                    return Ok(true);
                }
            }
            if skipped < offset {
                skipped += 1;
                return Ok(true);
            }
            let mut values = select::project_row(ctx, &mut row, &outputs, &movable)?;
            // As `select` shows a computed column's values: in its type.
            for ((value, column), output) in values.iter_mut().zip(&columns).zip(&outputs) {
                if select::slot_of(output).is_none() {
                    typing::conform(&column.def, value);
                }
            }
            if sent == 0 {
                sink.columns(ctx.session, &columns)?;
            }
            sink.row(values)?;
            sent += 1;
            Ok(limit.is_none_or(|l| sent < l))
        };
        select::join_level(ctx, &sources, 0, Vec::new(), &conds, None, &Cell::new(false), &mut emit)?;
    }
    if sent == 0 {
        sink.columns(ctx.session, &columns)?;
    }
    Ok(QueryResult::Streamed { row_count: sent })
}

/// The result columns as `select` would give them, known before any row is
/// read; `None` where that needs all the rows (a column typed by its
/// values) or where the query is not a plain scan after all (aggregates,
/// window functions — `select` then answers, or gives their errors).
fn head_columns(items: &[Item], scope: &[ScopeColumn], filter: Option<&Expr>) -> Option<Vec<ResultColumn>> {
    let exprs = || items.iter().map(|i| &i.expr).chain(filter);
    if exprs().any(|e| select::has_aggregate(e) || window::contains_window(e)) {
        return None;
    }
    items
        .iter()
        .map(|item| match select::slot_of(&item.expr) {
            Some(_) => Some(item.column.clone()),
            None => typing::result_def(&item.expr, scope, &item.column.name)
                .map(|def| ResultColumn::named(&item.column.name, def)),
        })
        .collect()
}
