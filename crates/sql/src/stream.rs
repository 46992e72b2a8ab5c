//! Streamed SELECT of one table: `SELECT ... FROM t [WHERE ...] [GROUP BY
//! ...] [HAVING ...] [ORDER BY ...] [LIMIT n [OFFSET m]]` runs in memory
//! bounded whatever the table's size.
//!
//! - A plain scan (no grouping) with no ORDER BY, or one an index gives,
//!   hands each row to the client's [`ResultSink`] as the scan reads it:
//!   the server holds one row of the result, and LIMIT ends the scan.
//! - An ORDER BY no index gives goes through an external sort ([`Sorter`]):
//!   rows past `sort_buffer_size` wait in files under `tmpdir`, and
//!   ORDER BY ... LIMIT n keeps only the first n.
//! - Grouping (GROUP BY, or an aggregate) sorts the rows by their GROUP BY
//!   values the same way and aggregates each group as its rows come out of
//!   the sort, so only one group's running state is in memory; without
//!   GROUP BY there is one group and no sort. The groups then go through a
//!   second sort by the ORDER BY (or none, keeping GROUP BY's order).
//!
//! Any other SELECT (DISTINCT, window functions, joins, UNION, locking
//! reads, or a column whose type is only known from its values, which the
//! head must give before the first row) runs as before in `select` and is
//! sent whole.
//!
//! While its rows go out the statement holds what any SELECT holds while
//! it runs — its read view, its metadata locks, its guard (KILL QUERY,
//! `max_statement_time` and `max_execution_time`, checked by the scan at
//! every row and by the sorts' output) — so the client's pace decides how
//! long. The head goes out with the first row (or after the scan when there
//! is none), so that an error before any row is answered, as before, with
//! the error alone.

use crate::aggregate::{Finisher, Group, Grouper};
use crate::ast::{Expr, OrderBy, Select, TableFactor};
use crate::select::{self, Clauses, Ctx, Item, KeyOrder, ScopeColumn, SortKey, Source};
use crate::session::{QueryResult, ResultColumn, ResultSink, Session, StatusCounter};
use crate::sort::{Sorted, Sorter};
use crate::{covering, eval, typing, window};
use onelog_core::{SqlResult, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::cmp::Ordering;

/// Runs `query`, streaming its rows to `sink` where it reads one table.
pub(crate) fn select(ctx: &Ctx, query: &Select, sink: &mut dyn ResultSink) -> SqlResult<QueryResult> {
    // ROWNUM() numbers the rows WHERE accepts: `select` keeps the number
    // with each row.
    if !is_one_table_block(query) || select::uses_rownum(query) {
        return ctx.session.select_result(ctx, query);
    }
    let sources = select::resolve_sources(ctx, &query.from)?;
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    ctx.in_scope(&scope, || {
        let clauses = select::bind_clauses(ctx, query, &scope)?;
        if clauses.windowed || query.rollup || (clauses.having.is_some() && !clauses.aggregated) {
            materialized(ctx, query, sources, &scope)
        } else if clauses.aggregated {
            grouped(ctx, query, sources, &scope, clauses, sink)
        } else {
            scan(ctx, query, sources, &scope, clauses, sink)
        }
    })
}

/// What the statement says makes it one query block over one table.
fn is_one_table_block(query: &Select) -> bool {
    let one_table = matches!(query.from.as_slice(), [only] if only.on.is_none() && matches!(only.factor, TableFactor::Table { .. }));
    one_table && query.union.is_none() && !query.distinct && query.lock.is_none()
}

/// The plain scan of `sources` (one table) streamed, sorted when no index
/// gives its ORDER BY, or the whole result where `head_columns` says it
/// cannot be.
fn scan(
    ctx: &Ctx,
    query: &Select,
    mut sources: Vec<Source>,
    scope: &[ScopeColumn],
    clauses: Clauses,
    sink: &mut dyn ResultSink,
) -> SqlResult<QueryResult> {
    select::set_wanted(&mut sources, clauses.wanted(scope));
    let Clauses { items, where_bound: filter, order, .. } = clauses;
    let order_exprs: Vec<Expr> = order.iter().map(|o| o.expr.clone()).collect();
    let head = head_columns(&items, ctx.type_env(scope), filter.iter().chain(&order_exprs));
    let Some(columns) = head else {
        return materialized(ctx, query, sources, scope);
    };
    let window = Window::of(ctx, query)?;
    let mut conds = Vec::new();
    if let Some(w) = &filter {
        select::access_conjuncts(w, &mut conds);
    }
    let outputs: Vec<Expr> = items.into_iter().map(|i| i.expr).collect();
    let indexed_order = order.is_empty() || sources.first().is_some_and(|s| select::ordered_index(s, &order).is_some());
    let mut out = Sender::new(sink, &columns, window);
    if indexed_order {
        // What the statement warned of before the scan, should it be undone.
        let warnings_before = ctx.session.warnings_mark();
        let order = (!order.is_empty()).then_some(order.as_slice());
        let scan = Scan { ctx, sources: &sources, conds: &conds, filter: filter.as_ref() };
        if scan.in_index_order(order, &outputs, &columns, &mut out)? {
            return out.finish(ctx.session);
        }
        // The WHERE chose another index than the ORDER BY's: sorted, as if
        // this had not been tried (its access path's evaluation warns again).
        ctx.session.rewind_warnings(warnings_before);
    }
    let orders: Vec<KeyOrder> = order.iter().map(|o| KeyOrder::of(&o.expr, o.desc)).collect();
    let (sort_keys, extra_exprs) = select::split_sort_keys(&order_exprs, &outputs);
    let movable = select::movable_slots(&outputs, &extra_exprs);
    let mut sorter = sorter_for(ctx.session, orders, window.keep_first());
    let mut emit = |mut row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
        if let Some(w) = &filter {
            if !ctx.test(w, &row)? {
                return Ok(true);
            }
        }
        let extras: Vec<Value> = extra_exprs.iter().map(|e| ctx.eval(e, &row)).collect::<SqlResult<_>>()?;
        let keyed = (extras, output_row(ctx, &mut row, &outputs, &movable, &columns)?);
        sorter.push(SortKey::values(&sort_keys, &keyed), keyed.1)?;
        Ok(true)
    };
    if out.wants_more() {
        select::join_level(ctx, &sources, 0, Vec::new(), &conds, None, &Cell::new(false), &mut emit)?;
    }
    out.send_sorted(ctx.session, finish_sort(ctx.session, sorter)?)?;
    out.finish(ctx.session)
}

/// OFFSET and LIMIT.
#[derive(Clone, Copy)]
struct Window {
    offset: u64,
    limit: Option<u64>,
}

impl Window {
    fn of(ctx: &Ctx, query: &Select) -> SqlResult<Window> {
        let offset = select::limit_value(ctx, &query.offset)?.unwrap_or(0);
        Ok(Window { offset, limit: select::limit_value(ctx, &query.limit)? })
    }

    /// How many rows of a sort can be wanted at most.
    fn keep_first(self) -> Option<usize> {
        self.limit.map(|l| usize::try_from(l.saturating_add(self.offset)).unwrap_or(usize::MAX))
    }
}

/// A one-table scan's parts, for the rows streamed in scan (or index) order.
struct Scan<'a> {
    ctx: &'a Ctx<'a>,
    sources: &'a [Source],
    conds: &'a [Expr],
    filter: Option<&'a Expr>,
}

impl Scan<'_> {
    /// Streams the rows as the scan reads them, in `order` when given (an
    /// index's); `None` when the access path turned out not to give that
    /// order, before any row was evaluated.
    fn in_index_order(
        &self,
        order: Option<&[OrderBy]>,
        outputs: &[Expr],
        columns: &[ResultColumn],
        out: &mut Sender,
    ) -> SqlResult<bool> {
        let ctx = self.ctx;
        let movable = select::movable_slots(outputs, &[]);
        let in_index_order = Cell::new(false);
        let mut unordered = false;
        if out.wants_more() {
            let mut emit = |mut row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
                // The access path is chosen before the first row: here,
                // before anything of this row is evaluated, it can still be
                // undone.
                if order.is_some() && !in_index_order.get() {
                    unordered = true;
                    return Ok(false);
                }
                if let Some(w) = self.filter {
                    if !ctx.test(w, &row)? {
                        return Ok(true);
                    }
                }
                if out.skips_next() {
                    return Ok(true);
                }
                out.send(ctx.session, output_row(ctx, &mut row, outputs, &movable, columns)?)
            };
            select::join_level(ctx, self.sources, 0, Vec::new(), self.conds, order, &in_index_order, &mut emit)?;
        }
        Ok(!unordered)
    }
}

/// A result's rows on their way to the client: OFFSET skipped, LIMIT
/// counted, the head sent with the first row (or alone at the end).
struct Sender<'a> {
    sink: &'a mut dyn ResultSink,
    columns: &'a [ResultColumn],
    window: Window,
    skipped: u64,
    sent: u64,
}

impl<'a> Sender<'a> {
    fn new(sink: &'a mut dyn ResultSink, columns: &'a [ResultColumn], window: Window) -> Sender<'a> {
        Sender { sink, columns, window, skipped: 0, sent: 0 }
    }

    fn wants_more(&self) -> bool {
        self.window.limit.is_none_or(|l| self.sent < l)
    }

    /// Whether the next row is one OFFSET skips (counting it).
    fn skips_next(&mut self) -> bool {
        let skip = self.skipped < self.window.offset;
        self.skipped += u64::from(skip);
        skip
    }

    /// Sends `row`; whether more rows are wanted.
    fn send(&mut self, session: &Session, row: Vec<Value>) -> SqlResult<bool> {
        if self.sent == 0 {
            self.sink.columns(session, self.columns)?;
        }
        self.sink.row(row)?;
        self.sent += 1;
        Ok(self.wants_more())
    }

    /// Sends the rows of `sorted` that the window takes.
    fn send_sorted(&mut self, session: &Session, mut sorted: Sorted) -> SqlResult<()> {
        while self.wants_more() {
            session.guard().check()?;
            let Some((_, row)) = sorted.next_row()? else { break };
            if !self.skips_next() {
                self.send(session, row)?;
            }
        }
        Ok(())
    }

    fn finish(self, session: &Session) -> SqlResult<QueryResult> {
        if self.sent == 0 {
            self.sink.columns(session, self.columns)?;
        }
        Ok(QueryResult::Streamed { found_rows: self.skipped + self.sent })
    }
}

/// A grouped query over one table (see the module's doc), or the whole
/// result where a column's type needs the rows.
fn grouped(
    ctx: &Ctx,
    query: &Select,
    mut sources: Vec<Source>,
    scope: &[ScopeColumn],
    clauses: Clauses,
    sink: &mut dyn ResultSink,
) -> SqlResult<QueryResult> {
    let columns: Option<Vec<ResultColumn>> =
        typing::select_list(&clauses.items, ctx.type_env(scope)).into_iter().collect();
    let Some(columns) = columns else {
        return materialized(ctx, query, sources, scope);
    };
    let window = Window::of(ctx, query)?;
    select::set_wanted(&mut sources, clauses.wanted(scope));
    let Clauses { items, where_bound: filter, order, group_by, having, .. } = clauses;
    let mut aggs = Vec::new();
    let item_exprs: Vec<Expr> =
        items.iter().map(|i| select::extract_aggregates(&i.expr, &mut aggs)).collect::<SqlResult<_>>()?;
    let having = having.map(|h| select::extract_aggregates(&h, &mut aggs)).transpose()?;
    let order_exprs: Vec<Expr> =
        order.iter().map(|o| select::extract_aggregates(&o.expr, &mut aggs)).collect::<SqlResult<_>>()?;
    let (sort_keys, extra_exprs) = select::split_sort_keys(&order_exprs, &item_exprs);
    let orders: Vec<KeyOrder> = order.iter().map(|o| KeyOrder::of(&o.expr, o.desc)).collect();
    let mut output = GroupRows {
        ctx,
        group_by: &group_by,
        aggs: &aggs,
        item_exprs,
        conformed: items.iter().map(|i| select::slot_of(&i.expr).is_none()).collect(),
        having,
        extra_exprs,
        sort_keys,
        columns: &columns,
        // Without ORDER BY the groups go out as they come, in GROUP BY's order.
        sorter: (!orders.is_empty()).then(|| sorter_for(ctx.session, orders, window.keep_first())),
        out: Sender::new(sink, &columns, window),
    };
    let mut finisher = Finisher::new(ctx, &aggs);
    let mut conds = Vec::new();
    if let Some(w) = &filter {
        select::access_conjuncts(w, &mut conds);
    }
    // Groups are kept in memory up to a temporary table's size; past it,
    // the rows of groups not open by then go through a sort by GROUP BY
    // value (see `merge_overflow`).
    let memory_bytes = in_memory_table_bytes(ctx.session);
    let mut in_memory = Grouper::new(ctx, &group_by, &aggs);
    let group_orders = in_memory.key_orders().to_vec();
    let mut overflow: Option<Sorter> = None;
    // Rows read in GROUP BY order complete each group as the next row's
    // values differ: the groups go out one at a time, none waits.
    let group_order = index_group_order(&sources, &group_by);
    let in_group_order = Cell::new(false);
    let mut run = Run { keys: None, groups: Grouper::new(ctx, &group_by, &aggs), stopped: false };
    let mut emit = |row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
        if let Some(w) = &filter {
            if !ctx.test(w, &row)? {
                return Ok(true);
            }
        }
        let keys: Vec<Value> = group_by.iter().map(|g| ctx.eval(g, &row)).collect::<SqlResult<_>>()?;
        if in_group_order.get() {
            return run.add(&mut output, &mut finisher, keys, row);
        }
        // Without GROUP BY the one group is always in memory.
        let may_open = group_by.is_empty() || (overflow.is_none() && in_memory.bytes() < memory_bytes);
        if let Some((keys, row)) = in_memory.add_if(keys, Cow::Owned(row), may_open)? {
            let sorter = overflow.get_or_insert_with(|| sorter_for(ctx.session, group_orders.clone(), None));
            sorter.push(keys, row.into_owned())?;
        }
        Ok(true)
    };
    if window.limit != Some(0) {
        select::join_level(ctx, &sources, 0, Vec::new(), &conds, group_order.as_deref(), &in_group_order, &mut emit)?;
    }
    let last_run = if run.keys.is_some() { run.groups.into_groups() } else { Vec::new() };
    if run.stopped || !output.push(last_run, &mut finisher)? {
        return output.out.finish(ctx.session);
    }
    let mut memory_groups = in_memory.into_groups().into_iter().peekable();
    if let Some(sorter) = overflow {
        let more_wanted =
            merge_overflow(ctx, &mut output, &mut finisher, finish_sort(ctx.session, sorter)?, |run_keys| {
                let earlier = |g: &Group| select::cmp_keys(&g.keys, run_keys, &group_orders) != Ordering::Greater;
                std::iter::from_fn(|| memory_groups.next_if(earlier)).collect()
            })?;
        if !more_wanted {
            return output.out.finish(ctx.session);
        }
    }
    output.push(memory_groups, &mut finisher)?;
    let GroupRows { sorter, mut out, .. } = output;
    if let Some(sorter) = sorter {
        out.send_sorted(ctx.session, finish_sort(ctx.session, sorter)?)?;
    }
    out.finish(ctx.session)
}

/// GROUP BY as an ascending ORDER BY where the lone table has an index in
/// that order that holds every column the query reads (or is the primary
/// key): read in its order, rows come grouped at no cost.
fn index_group_order(sources: &[Source], group_by: &[Expr]) -> Option<Vec<OrderBy>> {
    let [lone] = sources else { return None };
    let (entry, wanted) = (lone.entry.as_ref()?, lone.wanted.as_deref()?);
    if group_by.is_empty() {
        return None;
    }
    let order: Vec<OrderBy> = group_by.iter().map(|g| OrderBy { expr: g.clone(), desc: false }).collect();
    let index = &entry.def.indexes[select::ordered_index(lone, &order)?.0];
    (index.primary || covering::covers(&entry.def, index, wanted)).then_some(order)
}

/// The group being read when rows come in GROUP BY order.
struct Run<'a> {
    /// Its GROUP BY values; `None` before the first row.
    keys: Option<Vec<Value>>,
    groups: Grouper<'a>,
    /// No more groups are wanted (LIMIT).
    stopped: bool,
}

impl<'a> Run<'a> {
    /// Adds `row`, whose GROUP BY values are `keys`, first handing the
    /// group before it to `output` when it is one of the next group; whether
    /// more rows are wanted.
    fn add(
        &mut self,
        output: &mut GroupRows<'a>,
        finisher: &mut Finisher,
        keys: Vec<Value>,
        row: Vec<Value>,
    ) -> SqlResult<bool> {
        let orders = self.groups.key_orders();
        if self.keys.as_ref().is_none_or(|run_keys| select::cmp_keys(run_keys, &keys, orders) != Ordering::Equal) {
            let fresh = Grouper::new(output.ctx, output.group_by, output.aggs);
            let done = std::mem::replace(&mut self.groups, fresh);
            if !output.push(done.into_groups(), finisher)? {
                self.stopped = true;
                return Ok(false);
            }
            self.keys = Some(keys.clone());
        }
        self.groups.add(keys, Cow::Owned(row))?;
        Ok(true)
    }
}

/// Groups the overflow's rows, sorted by GROUP BY value, one run of equal
/// values at a time (so only that run's groups are in memory), and adds
/// them to `output` in GROUP BY order, each run after the groups in memory
/// that `memory_before(run's values)` gives: those not after it, which
/// opened before any overflow group did. Whether more rows are wanted.
fn merge_overflow(
    ctx: &Ctx,
    output: &mut GroupRows,
    finisher: &mut Finisher,
    mut sorted: Sorted,
    mut memory_before: impl FnMut(&[Value]) -> Vec<Group>,
) -> SqlResult<bool> {
    let (group_by, aggs) = (output.group_by, output.aggs);
    let mut run = Grouper::new(ctx, group_by, aggs);
    let mut run_keys: Option<Vec<Value>> = None;
    loop {
        ctx.session.guard().check()?;
        let next = sorted.next_row()?;
        let run_ends = match (&run_keys, &next) {
            (Some(keys), Some((next_keys, _))) => {
                select::cmp_keys(keys, next_keys, run.key_orders()) != Ordering::Equal
            }
            (Some(_), None) => true,
            (None, _) => false,
        };
        if let Some(keys) = run_keys.take().filter(|_| run_ends) {
            let done = std::mem::replace(&mut run, Grouper::new(ctx, group_by, aggs));
            if !output.push(memory_before(&keys), finisher)? || !output.push(done.into_groups(), finisher)? {
                return Ok(false);
            }
        }
        let Some((keys, row)) = next else { return Ok(true) };
        if run_keys.is_none() {
            run_keys = Some(keys.clone());
        }
        run.add(keys, Cow::Owned(row))?;
    }
}

/// What an in-memory temporary table may hold: the least of
/// `tmp_table_size` and `max_heap_table_size`, as MariaDB bounds one.
fn in_memory_table_bytes(session: &Session) -> usize {
    let size = |name| session.session_value(name).parse::<usize>().unwrap_or(16 << 20);
    size("tmp_table_size").min(size("max_heap_table_size"))
}

/// A grouped query's groups turned into result rows, waiting in the ORDER
/// BY's sort.
struct GroupRows<'a> {
    ctx: &'a Ctx<'a>,
    group_by: &'a [Expr],
    /// The aggregates the select list, HAVING and ORDER BY call.
    aggs: &'a [Expr],
    /// The select list, HAVING and the ORDER BY keys not in the select
    /// list, over a group's first row and its aggregates.
    item_exprs: Vec<Expr>,
    having: Option<Expr>,
    extra_exprs: Vec<Expr>,
    sort_keys: Vec<SortKey>,
    /// Which items are shown in their column's type (all but plain columns).
    conformed: Vec<bool>,
    columns: &'a [ResultColumn],
    /// The ORDER BY's sort, if any; else rows go to `out` as they come.
    sorter: Option<Sorter>,
    out: Sender<'a>,
}

impl GroupRows<'_> {
    /// Adds the rows of `groups`; whether more are wanted.
    fn push(&mut self, groups: impl IntoIterator<Item = Group>, finisher: &mut Finisher) -> SqlResult<bool> {
        let ctx = self.ctx;
        for group in groups {
            let (first_row, aggregates) = (&group.first_row, group.aggregates(finisher));
            let row = eval::Row { values: first_row, params: ctx.params, aggregates: &aggregates, insert_values: None };
            if let Some(h) = &self.having {
                if !eval::truthy(&eval::eval(h, &row, ctx)?).unwrap_or(false) {
                    continue;
                }
            }
            let mut values: Vec<Value> =
                self.item_exprs.iter().map(|e| eval::eval(e, &row, ctx)).collect::<SqlResult<_>>()?;
            let items = values.iter_mut().zip(self.columns).zip(&self.conformed).zip(&self.item_exprs);
            for (((value, column), conformed), expr) in items {
                if *conformed {
                    typing::present(expr, &column.def, value);
                }
            }
            let extras: Vec<Value> =
                self.extra_exprs.iter().map(|e| eval::eval(e, &row, ctx)).collect::<SqlResult<_>>()?;
            let keyed = (extras, values);
            match &mut self.sorter {
                Some(sorter) => {
                    sorter.push(SortKey::values(&self.sort_keys, &keyed), keyed.1)?;
                }
                None if self.out.skips_next() => {}
                None => {
                    if !self.out.send(ctx.session, keyed.1)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}

/// A sort with the session's `sort_buffer_size` in memory and its runs in
/// `tmpdir`.
fn sorter_for(session: &Session, orders: Vec<KeyOrder>, keep_first: Option<usize>) -> Sorter {
    let budget_bytes = session.session_value("sort_buffer_size").parse().unwrap_or(2 << 20);
    Sorter::new(orders, budget_bytes, keep_first, session.tmpdir())
}

/// The sorted rows, the merges that took counted in Sort_merge_passes.
fn finish_sort(session: &Session, sorter: Sorter) -> SqlResult<Sorted> {
    let (sorted, merge_passes) = sorter.finish()?;
    session.count(StatusCounter::SortMergePasses, merge_passes);
    Ok(sorted)
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
            typing::present(output, &column.def, value);
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
    env: typing::TypeEnv<'_>,
    clauses: impl Iterator<Item = &'a Expr>,
) -> Option<Vec<ResultColumn>> {
    if items.iter().map(|i| &i.expr).chain(clauses).any(|e| select::has_aggregate(e) || window::contains_window(e)) {
        return None;
    }
    typing::select_list(items, env).into_iter().collect()
}
