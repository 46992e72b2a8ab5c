//! SELECT: binding names to row slots, choosing an access path per table
//! (primary-key get, index point/range scan, ordered index scan for ORDER
//! BY ... LIMIT, full scan as the last resort), nested-loop joins with index
//! lookups, grouping and aggregates, DISTINCT, ORDER BY and LIMIT.

use crate::ast::*;
use crate::catalog::TableEntry;
use crate::covering;
use crate::eval::{self, truthy, EvalEnv};
use crate::rows;
use crate::session::{QueryResult, ResultColumn, Session};
use crate::sort::KeyedRow;
use crate::time_zone::{session_zone, TimeZone};
use crate::txn::Txn;
use crate::window;
use onelog_core::schema::ColumnDefault;
use onelog_core::{
    Collation, ColumnDef, ColumnType, ErrorCode, KeyMembership, SqlError, SqlResult, TableDef, Temporal, Value,
};
use onelog_storage::{key, Snapshot};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Everything a statement's evaluation needs; implements [`EvalEnv`].
pub struct Ctx<'a> {
    pub session: &'a Session,
    pub txn: &'a Txn,
    pub view: Arc<Snapshot>,
    pub params: &'a [Value],
    subquery_cache: RefCell<HashMap<*const Select, Vec<Vec<Value>>>>,
    /// Clustered keys read by a locking SELECT, locked after the read.
    selected: RefCell<Vec<(Vec<u8>, crate::locks::LockMode)>>,
    lock_mode: RefCell<Option<crate::locks::LockMode>>,
    /// Scopes of the queries being evaluated, innermost last: a subquery
    /// sees the innermost as its outer scope.
    scopes: RefCell<Vec<Vec<ScopeColumn>>>,
    /// Recursive CTEs being computed, by name: the rows their previous round
    /// added, which the step reads as the CTE.
    recursing: RefCell<HashMap<String, ResultRows>>,
    /// Query blocks with window functions already counted in
    /// Feature_window_functions: a correlated subquery counts once however
    /// often it runs.
    window_blocks: RefCell<std::collections::HashSet<*const Select>>,
    /// What ROWNUM() is while a query block's WHERE (or a DML statement's)
    /// looks at a row: the rows it accepted so far, plus one.
    pub(crate) rownum: std::cell::Cell<u64>,
}

impl<'a> Ctx<'a> {
    /// Runs `f` with `scope` as the columns of the row being evaluated, so
    /// a correlated subquery in it finds the outer columns it names.
    pub(crate) fn in_scope<R>(&self, scope: &[ScopeColumn], f: impl FnOnce() -> R) -> R {
        self.scopes.borrow_mut().push(scope.to_vec());
        let result = f();
        self.scopes.borrow_mut().pop();
        result
    }

    /// `expr` over `row`, whose columns are `scope` (see [`Self::in_scope`];
    /// the scope is only set up for an expression with a subquery).
    pub(crate) fn eval_in(&self, scope: &[ScopeColumn], expr: &Expr, row: &[Value]) -> SqlResult<Value> {
        if has_subquery(expr) {
            self.in_scope(scope, || self.eval(expr, row))
        } else {
            self.eval(expr, row)
        }
    }

    pub fn new(session: &'a Session, txn: &'a Txn, view: Arc<Snapshot>, params: &'a [Value]) -> Ctx<'a> {
        Ctx {
            session,
            txn,
            view,
            params,
            subquery_cache: RefCell::new(HashMap::new()),
            selected: RefCell::new(Vec::new()),
            lock_mode: RefCell::new(None),
            scopes: RefCell::new(Vec::new()),
            recursing: RefCell::new(HashMap::new()),
            window_blocks: RefCell::new(std::collections::HashSet::new()),
            rownum: std::cell::Cell::new(0),
        }
    }

    pub fn row<'r>(&'r self, values: &'r [Value]) -> eval::Row<'r> {
        eval::Row { values, params: self.params, aggregates: &[], insert_values: None }
    }

    pub fn eval(&self, expr: &Expr, values: &[Value]) -> SqlResult<Value> {
        eval::eval(expr, &self.row(values), self)
    }

    /// The value of an expression that names no column (a routine's or
    /// SET's), bound and evaluated here.
    pub fn eval_constant(&self, expr: &Expr) -> SqlResult<Value> {
        self.eval(&bind_constant(expr)?, &[])
    }

    pub fn test(&self, expr: &Expr, values: &[Value]) -> SqlResult<bool> {
        Ok(truthy(&self.eval(expr, values)?).unwrap_or(false))
    }

    /// Takes the row locks a SELECT ... FOR UPDATE / LOCK IN SHARE MODE read.
    pub fn lock_selected(&self) -> SqlResult<()> {
        let timeout = lock_timeout(self.session);
        for (key, mode) in self.selected.borrow().iter() {
            self.session.engine.locks.lock(self.txn.id, key, *mode, timeout, self.session.guard())?;
        }
        Ok(())
    }
}

pub fn lock_timeout(session: &Session) -> std::time::Duration {
    let secs = session.session_value("innodb_lock_wait_timeout").parse().unwrap_or(50u64);
    std::time::Duration::from_secs(secs)
}

impl EvalEnv for Ctx<'_> {
    fn system_var(&self, scope: VarScope, name: &str) -> SqlResult<Value> {
        self.session.system_var(scope, name)
    }
    fn user_var(&self, name: &str) -> Value {
        self.session.user_var(name)
    }
    fn set_user_var(&self, name: &str, value: Value) {
        self.session.set_user_var(name, value)
    }
    fn subquery(&self, query: &Select, outer_row: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        let key = query as *const Select;
        if let Some(rows) = self.subquery_cache.borrow().get(&key) {
            return Ok(rows.clone());
        }
        let ((_, rows), correlated) = self.run_subquery(query, outer_row)?;
        // Only an uncorrelated subquery has one answer for the statement.
        if !correlated {
            self.subquery_cache.borrow_mut().insert(key, rows.clone());
        }
        Ok(rows)
    }
    fn subquery_width(&self, query: &Select, outer_row: &[Value]) -> SqlResult<usize> {
        Ok(self.run_subquery(query, outer_row)?.0 .0.len())
    }
    fn rownum(&self) -> u64 {
        self.rownum.get()
    }
    fn session_fact(&self, name: &str) -> Value {
        self.session.session_fact(name)
    }
    fn binlog_gtid_pos(&self, file: &str, offset: u64) -> SqlResult<Value> {
        self.session.binlog_gtid_pos(file, offset)
    }
    fn warning_row(&self) -> u64 {
        self.session.warning_row.get()
    }
    fn warn(&self, code: u16, message: String) {
        self.session.warn(code, message)
    }
    fn ignores_errors(&self) -> bool {
        self.session.ignoring_errors
    }
    fn note(&self, code: u16, message: String) {
        self.session.note(code, message)
    }
    fn set_last_insert_id(&self, id: u64) {
        self.session.set_last_insert_id(id)
    }
    fn sleep(&self, duration: std::time::Duration) -> SqlResult<()> {
        self.session.sleep(duration)
    }
    fn check_killed(&self) -> SqlResult<()> {
        self.session.check_killed()
    }
    fn load_file(&self, name: &[u8]) -> SqlResult<Value> {
        self.session.load_file(name)
    }
    fn user_lock(&self, call: crate::eval::UserLockCall<'_>) -> SqlResult<Value> {
        self.session.user_lock(call)
    }
    fn division_by_zero(&self) -> SqlResult<()> {
        self.session.division_by_zero()
    }
    fn sql_mode_has(&self, mode: &str) -> bool {
        self.session.sql_mode_has(mode)
    }
    fn warning_or_error(&self, code: ErrorCode, message: &str) -> SqlResult<()> {
        self.session.warning_or_error(code, message)
    }
    fn stored_function(
        &self,
        name: &str,
        args: &[Expr],
        eval_arg: &dyn Fn(&Expr) -> SqlResult<Value>,
    ) -> Option<SqlResult<Value>> {
        crate::routine::call_function(self, name, args, eval_arg)
    }
}

impl crate::typing::TypeFacts for Ctx<'_> {
    fn returns(&self, name: &str) -> Option<ColumnDef> {
        crate::routine::function_returns(self.session, name)
    }

    fn param_type(&self, i: usize) -> Option<ColumnDef> {
        self.session.routine_param_types.borrow().get(i).cloned()
    }

    fn user_var(&self, name: &str) -> Option<Value> {
        self.session.user_vars.borrow().get(&name.to_ascii_lowercase()).cloned()
    }

    fn system_var(&self, scope: VarScope, name: &str) -> Option<crate::typing::SystemVarType> {
        let value = EvalEnv::system_var(self.session, scope, name).ok()?;
        Some(crate::vars::lookup(name)?.read_type(&value))
    }

    fn subquery_column(&self, query: &Select) -> Option<ColumnDef> {
        let scope = base_table_scope(self, &query.from)?;
        let [SelectItem::Expr { .. }] = query.items.as_slice() else { return None };
        if query.union.is_some() {
            return None;
        }
        let items = expand_items(&query.items, &scope).ok()?;
        let item = items.first()?;
        crate::typing::result_def(&item.expr, &self.type_env(&scope), &item.column.name)
    }
}

/// The columns of `from` when it joins base tables only (no view, derived,
/// system or information_schema table, whose columns would take running
/// something), with ON conditions but no USING or RIGHT JOIN: what typing a subquery
/// needs without running it.
fn base_table_scope(ctx: &Ctx, from: &[Join]) -> Option<Vec<ScopeColumn>> {
    let mut scope = Vec::new();
    for join in from {
        let TableFactor::Table { name, alias, .. } = &join.factor else { return None };
        let db = ctx.session.resolve_db(name).ok()?;
        let is_view = ctx.session.temp.table(db, &name.name).is_none()
            && ctx.session.engine.catalog.read().view(db, &name.name).is_some();
        let special = db.eq_ignore_ascii_case("information_schema")
            || is_view
            || !join.using.is_empty()
            || join.natural
            || join.kind == JoinKind::Right;
        if special || system_table_rows(ctx.session, db, &name.name).ok()?.is_some() {
            return None;
        }
        if ctx.session.sequence_table(db, &name.name).ok()?.is_some() {
            return None;
        }
        let entry = ctx.session.table_entry_in(db, &name.name).ok()?;
        let mut columns = table_columns(&entry, alias.as_deref().unwrap_or(&name.name));
        if join.kind == JoinKind::Left {
            columns.iter_mut().for_each(|c| c.def.nullable = true);
        }
        scope.extend(columns);
    }
    Some(scope)
}

impl Ctx<'_> {
    /// Runs a subquery with `outer_row` as the row its outer columns name;
    /// also says whether it named one (is correlated).
    fn run_subquery(&self, query: &Select, outer_row: &[Value]) -> SqlResult<(ResultRows, bool)> {
        let scope = self.scopes.borrow().last().cloned().unwrap_or_default();
        OUTER.with(|f| f.borrow_mut().push(OuterFrame { scope, row: outer_row.to_vec(), used: false }));
        let result = run_select(self, query);
        let correlated = OUTER.with(|f| f.borrow_mut().pop()).is_some_and(|frame| frame.used);
        Ok((result?, correlated))
    }

    /// What typing an expression over `scope` needs of this statement.
    pub(crate) fn type_env<'a>(&'a self, scope: &'a [ScopeColumn]) -> crate::typing::TypeEnv<'a> {
        let connection_collation = crate::eval::connection_collation(self).unwrap_or_default();
        crate::typing::TypeEnv { scope, facts: self, connection_collation, created_user_vars: Vec::new() }
    }
}

/// One column visible in a scope.
#[derive(Debug, Clone)]
pub struct ScopeColumn {
    pub table: String,
    pub db: String,
    pub org_table: String,
    pub def: ColumnDef,
    /// The right side's copy of a `JOIN ... USING` column: the left one
    /// stands for both, so only a qualified name or `t.*` reaches it.
    pub merged: bool,
    /// Where `*` lists it (stable: equal positions keep scope order); a
    /// USING join lists its common columns first, as MySQL does.
    pub star_position: usize,
    /// Its part in its base table's keys.
    pub key: KeyMembership,
}

impl ScopeColumn {
    pub fn new(table: String, db: String, org_table: String, def: ColumnDef) -> Self {
        ScopeColumn { table, db, org_table, def, merged: false, star_position: 0, key: KeyMembership::default() }
    }

    /// Whether a reference `[table.]name` names this column.
    fn answers(&self, table: &Option<String>, name: &str) -> bool {
        self.def.name.eq_ignore_ascii_case(name)
            && match table {
                Some(t) => *t == self.table,
                None => !self.merged,
            }
    }
}

/// The row of an enclosing query while a correlated subquery runs.
struct OuterFrame {
    scope: Vec<ScopeColumn>,
    row: Vec<Value>,
    used: bool,
}

thread_local! {
    /// Enclosing rows visible to subqueries, innermost last. Thread-local
    /// because a statement runs on its connection's thread from start to
    /// end; it spares threading a context through every binder call.
    static OUTER: RefCell<Vec<OuterFrame>> = const { RefCell::new(Vec::new()) };
}

/// An outer-query column as a constant, if some enclosing query has it.
fn outer_value(table: &Option<String>, name: &str) -> Option<Value> {
    OUTER.with(|frames| {
        let mut frames = frames.borrow_mut();
        for frame in frames.iter_mut().rev() {
            let pos = frame.scope.iter().position(|c| c.answers(table, name));
            if let Some(pos) = pos {
                frame.used = true;
                return Some(frame.row.get(pos).cloned().unwrap_or(Value::Null));
            }
        }
        None
    })
}

/// A slot, seen through a COLLATE wrapper.
pub fn slot_of(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Slot(i) => Some(*i),
        Expr::Collate { expr, .. } => match expr.as_ref() {
            Expr::Slot(i) => Some(*i),
            _ => None,
        },
        _ => None,
    }
}

/// A column reference as evaluation needs it: string columns carry their
/// collation along (implicit derivation), so comparisons, grouping and
/// sorting use it.
fn column_slot(i: usize, column: &ColumnDef) -> Expr {
    if !column.ty.is_text() && !column.ty.is_binary_string() {
        return Expr::Slot(i);
    }
    Expr::Collate { expr: Box::new(Expr::Slot(i)), collation: column.collation, explicit: false }
}

/// Binds `Column` references to `Slot`s over `columns`; a column found only
/// in an enclosing query (correlated subquery) becomes its current value.
pub fn bind(expr: &Expr, columns: &[ScopeColumn]) -> SqlResult<Expr> {
    Ok(match expr {
        Expr::Column { table, name } => {
            let mut found = columns.iter().enumerate().filter(|(_, c)| c.answers(table, name));
            match (found.next(), found.next()) {
                (Some((i, c)), None) => column_slot(i, &c.def),
                (Some(_), Some(_)) => {
                    return Err(SqlError::new(
                        ErrorCode::NON_UNIQ,
                        format!("Column '{name}' in field list is ambiguous"),
                    ))
                }
                (None, _) if name.eq_ignore_ascii_case("_rowid") && rowid_column(columns, table).is_some() => {
                    let (i, c) = rowid_column(columns, table).ok_or_else(|| SqlError::bad_field(name, "SELECT"))?;
                    column_slot(i, &c.def)
                }
                (None, _) if outer_value(table, name).is_some() => {
                    Expr::Literal(outer_value(table, name).unwrap_or(Value::Null))
                }
                (None, _) => {
                    let shown = match table {
                        Some(t) => format!("{t}.{name}"),
                        None => name.clone(),
                    };
                    return Err(SqlError::bad_field(&shown, "SELECT"));
                }
            }
        }
        Expr::Function { name, args } if name == "default" => bind(&column_default(args, columns)?, columns)?,
        other => map_children(other, &mut |e| bind(e, columns))?,
    })
}

/// `DEFAULT(col)`: the column's default as an expression, as MariaDB
/// computes it for each row (its expression over the row, CURRENT_TIMESTAMP
/// now, 0 for an AUTO_INCREMENT column); a NOT NULL column without a
/// default is 1364. Anything but a column in the parentheses is 1064.
fn column_default(args: &[Expr], columns: &[ScopeColumn]) -> SqlResult<Expr> {
    let [column @ Expr::Column { name, .. }] = args else {
        return Err(SqlError::parse("", 1));
    };
    let slot = match bind(column, columns)? {
        Expr::Collate { expr, .. } => *expr,
        bound => bound,
    };
    // A column of an enclosing query arrives as its value, not a slot.
    let Expr::Slot(i) = slot else { return Err(SqlError::bad_field(name, "SELECT")) };
    let def = &columns[i].def;
    Ok(match &def.default {
        Some(ColumnDefault::Value(v)) => Expr::Literal(v.clone()),
        Some(ColumnDefault::CurrentTimestamp) => {
            let fsp = match def.ty {
                ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp } => fsp,
                _ => 0,
            };
            Expr::Function { name: "current_timestamp".into(), args: vec![Expr::Literal(Value::Int(fsp.into()))] }
        }
        Some(ColumnDefault::Expr(text)) => crate::parse::parse_expr_text(text)?,
        None if def.auto_increment => Expr::Literal(Value::Int(0)),
        None if def.nullable => Expr::Literal(Value::Null),
        None => {
            return Err(SqlError::new(
                ErrorCode::NO_DEFAULT_FOR_FIELD,
                format!("Field '{}' doesn't have a default value", def.name),
            ))
        }
    })
}

/// The column `[table.]_rowid` stands for when no column has that name:
/// a table's single-column integer primary key, as in MariaDB. Unqualified,
/// it must be the only such column in scope.
fn rowid_column<'a>(columns: &'a [ScopeColumn], table: &Option<String>) -> Option<(usize, &'a ScopeColumn)> {
    let mut found = columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.key.rowid && !c.merged && table.as_ref().is_none_or(|t| *t == c.table));
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// A scope over a result's columns, named by their headings (ORDER BY of a
/// UNION, SHOW ... WHERE).
pub fn result_scope(columns: &[ResultColumn]) -> Vec<ScopeColumn> {
    columns
        .iter()
        .map(|c| {
            let mut def = c.def.clone();
            def.name = c.name.clone();
            ScopeColumn::new(String::new(), String::new(), String::new(), def)
        })
        .collect()
}

/// Binds an expression that may not reference columns.
pub fn bind_constant(expr: &Expr) -> SqlResult<Expr> {
    bind(expr, &[])
}

/// Rebuilds `expr` with `f` applied to each direct child expression
/// (subqueries are left for their own binding).
pub fn map_children(expr: &Expr, f: &mut dyn FnMut(&Expr) -> SqlResult<Expr>) -> SqlResult<Expr> {
    let b = |e: &Expr, f: &mut dyn FnMut(&Expr) -> SqlResult<Expr>| -> SqlResult<Box<Expr>> { Ok(Box::new(f(e)?)) };
    Ok(match expr {
        Expr::Unary(op, e) => Expr::Unary(*op, b(e, f)?),
        Expr::Binary(op, l, r) => Expr::Binary(*op, b(l, f)?, b(r, f)?),
        Expr::IsNull { expr, negated } => Expr::IsNull { expr: b(expr, f)?, negated: *negated },
        Expr::IsBool { expr, value, negated } => Expr::IsBool { expr: b(expr, f)?, value: *value, negated: *negated },
        Expr::Between { expr, low, high, negated } => {
            Expr::Between { expr: b(expr, f)?, low: b(low, f)?, high: b(high, f)?, negated: *negated }
        }
        Expr::InList { expr, list, negated } => Expr::InList {
            expr: b(expr, f)?,
            list: list.iter().map(&mut *f).collect::<SqlResult<_>>()?,
            negated: *negated,
        },
        Expr::InSubquery { expr, query, negated } => {
            Expr::InSubquery { expr: b(expr, f)?, query: query.clone(), negated: *negated }
        }
        Expr::Like { expr, pattern, escape, negated } => {
            Expr::Like { expr: b(expr, f)?, pattern: b(pattern, f)?, escape: *escape, negated: *negated }
        }
        Expr::Function { name, args } => {
            Expr::Function { name: name.clone(), args: args.iter().map(&mut *f).collect::<SqlResult<_>>()? }
        }
        Expr::Aggregate { func, arg, distinct } => {
            Expr::Aggregate { func: *func, arg: arg.as_ref().map(|a| b(a, f)).transpose()?, distinct: *distinct }
        }
        Expr::GroupConcat { args, distinct, order_by, separator } => Expr::GroupConcat {
            args: args.iter().map(&mut *f).collect::<SqlResult<_>>()?,
            distinct: *distinct,
            order_by: order_by
                .iter()
                .map(|o| Ok(crate::ast::OrderBy { expr: f(&o.expr)?, desc: o.desc }))
                .collect::<SqlResult<_>>()?,
            separator: separator.clone(),
        },
        Expr::Case { operand, whens, otherwise } => Expr::Case {
            operand: operand.as_ref().map(|a| b(a, f)).transpose()?,
            whens: whens.iter().map(|(w, t)| Ok((f(w)?, f(t)?))).collect::<SqlResult<_>>()?,
            otherwise: otherwise.as_ref().map(|a| b(a, f)).transpose()?,
        },
        Expr::Cast { expr, to } => Expr::Cast { expr: b(expr, f)?, to: *to },
        Expr::Collate { expr, collation, explicit } => {
            Expr::Collate { expr: b(expr, f)?, collation: *collation, explicit: *explicit }
        }
        Expr::AssignUserVar { name, value } => Expr::AssignUserVar { name: name.clone(), value: b(value, f)? },
        Expr::Window(call) => Expr::Window(Box::new(WindowCall {
            args: call.args.iter().map(&mut *f).collect::<SqlResult<_>>()?,
            partition_by: call.partition_by.iter().map(&mut *f).collect::<SqlResult<_>>()?,
            order_by: call
                .order_by
                .iter()
                .map(|o| Ok(OrderBy { expr: f(&o.expr)?, desc: o.desc }))
                .collect::<SqlResult<_>>()?,
            ..(**call).clone()
        })),
        Expr::Tuple(items) => Expr::Tuple(items.iter().map(f).collect::<SqlResult<_>>()?),
        other => other.clone(),
    })
}

fn visit(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(expr);
    expr.for_each_child(&mut |child| visit(child, f));
}

fn max_slot(expr: &Expr) -> Option<usize> {
    let mut max = None;
    visit(expr, &mut |e| {
        if let Expr::Slot(i) = e {
            max = Some(max.map_or(*i, |m: usize| m.max(*i)));
        }
    });
    max
}

/// Whether a bound expression reads its row: a column slot, or a subquery
/// that may name an outer column.
pub(crate) fn reads_row(expr: &Expr) -> bool {
    max_slot(expr).is_some() || has_subquery(expr)
}

pub(crate) fn has_aggregate(expr: &Expr) -> bool {
    expr.contains(&Expr::is_aggregate)
}

fn has_subquery(expr: &Expr) -> bool {
    expr.contains(&|e| matches!(e, Expr::InSubquery { .. } | Expr::ScalarSubquery(_) | Expr::Exists { .. }))
}

/// The columns of `scope` that `exprs` (bound to its slots) read. A
/// correlated subquery reads the outer row by column name, past any slot,
/// so a column of `scope` a subquery may name (by its name, and its
/// table's when qualified) counts as read.
fn wanted_columns<'a>(scope: &[ScopeColumn], exprs: impl Iterator<Item = &'a Expr>) -> Vec<bool> {
    let mut wanted = vec![false; scope.len()];
    for expr in exprs {
        mark_read(expr, scope, &mut wanted);
    }
    wanted
}

/// Marks in `wanted` the columns of `scope` that `expr` reads (see
/// [`wanted_columns`]).
fn mark_read(expr: &Expr, scope: &[ScopeColumn], wanted: &mut [bool]) {
    visit(expr, &mut |e| {
        if let Some(w) = slot_of(e).and_then(|i| wanted.get_mut(i)) {
            *w = true;
        }
    });
    expr.for_each_column_name(&mut |table, name| {
        for (w, column) in wanted.iter_mut().zip(scope) {
            let in_table = table.is_none_or(|t| t.eq_ignore_ascii_case(&column.table));
            *w |= in_table && column.def.name.eq_ignore_ascii_case(name);
        }
    });
}

/// Gives each base table of `sources` the columns the query reads of it:
/// `read` (over the whole scope: what its clauses read) and what the join
/// conditions read. The others are not decoded, and a secondary index
/// that holds them all may be scanned instead of the rows. Left alone
/// (every column read) for a multi-table UPDATE / DELETE, which changes
/// whole rows, and where a join condition does not bind (the join then
/// reports why).
pub(crate) fn set_wanted(sources: &mut [Source], mut read: Vec<bool>) {
    if sources.iter().any(|s| s.row_key) {
        return;
    }
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    for source in sources.iter() {
        if let Some(on) = &source.on {
            // Bound as `join_level` binds it: over this table and those before.
            let Ok(bound) = bind(on, &scope[..source.offset + source.columns.len()]) else { return };
            mark_read(&bound, &scope, &mut read);
        }
    }
    for source in sources.iter_mut().filter(|s| s.entry.is_some()) {
        source.wanted = read.get(source.offset..source.offset + source.columns.len()).map(<[bool]>::to_vec);
    }
}

/// A table in FROM, resolved.
pub struct Source {
    pub alias: String,
    pub entry: Option<Arc<TableEntry>>,
    pub columns: Vec<ScopeColumn>,
    /// Rows of a derived table or a system table.
    pub rows: Option<Vec<Vec<Value>>>,
    pub offset: usize,
    pub kind: JoinKind,
    pub on: Option<Expr>,
    /// The columns the query reads, by position in `columns`; `None`: all.
    pub wanted: Option<Vec<bool>>,
    /// The last of `columns` is hidden and holds each row's clustered key
    /// (see [`resolve_with_row_keys`]).
    pub row_key: bool,
}

pub fn table_columns(entry: &TableEntry, alias: &str) -> Vec<ScopeColumn> {
    entry
        .def
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| ScopeColumn {
            key: entry.def.key_membership(i),
            ..ScopeColumn::new(alias.to_string(), entry.def.db.clone(), entry.def.name.clone(), c.clone())
        })
        .collect()
}

/// The scope columns of a computed table (of `mysql`, or a SEQUENCE one).
fn computed_table_columns(def: &TableDef, alias: &str) -> Vec<ScopeColumn> {
    let columns = def.columns.iter().enumerate().map(|(i, c)| ScopeColumn {
        key: def.key_membership(i),
        ..ScopeColumn::new(alias.to_string(), def.db.clone(), def.name.clone(), c.clone())
    });
    columns.collect()
}

/// A computed table of `mysql` and its rows as the catalog is now.
fn system_table_rows(session: &Session, db: &str, name: &str) -> SqlResult<Option<(TableDef, Vec<Vec<Value>>)>> {
    crate::system_tables::rows(&session.engine.catalog.read(), db, name)
}

pub(crate) fn resolve_sources(ctx: &Ctx, from: &[Join]) -> SqlResult<Vec<Source>> {
    let swapped = right_join_as_left(from)?;
    let from = swapped.as_deref().unwrap_or(from);
    let mut sources = Vec::new();
    let mut offset = 0;
    // Scope positions in the order `*` lists them, when USING changes it.
    let using = from.iter().any(|j| !j.using.is_empty() || j.natural);
    let mut star_order: Vec<usize> = Vec::new();
    for join in from {
        let (alias, entry, columns, rows) = match &join.factor {
            TableFactor::Table { name, alias, index_hints } => {
                let db = ctx.session.resolve_db(name)?;
                let alias = alias.clone().unwrap_or_else(|| name.name.clone());
                // Taken apart from the `if`: running the view reads the
                // catalog again, which must not be held meanwhile.
                // A temporary table shadows a view of the same name too.
                let view = match ctx.session.temp.table(db, &name.name) {
                    Some(_) => None,
                    None => ctx.session.engine.catalog.read().view(db, &name.name),
                };
                if db.eq_ignore_ascii_case("information_schema") {
                    let (columns, rows) = crate::show::information_schema(ctx.session, &name.name)?;
                    let columns = columns
                        .into_iter()
                        .map(|c| ScopeColumn::new(alias.clone(), db.to_string(), name.name.clone(), c.def))
                        .collect();
                    (alias, None, columns, Some(rows))
                } else if let Some((def, rows)) = system_table_rows(ctx.session, db, &name.name)? {
                    let columns = computed_table_columns(&def, &alias);
                    (alias, None, columns, Some(rows))
                } else if let Some(view) = view {
                    let (cols, rows) = run_view(ctx, &view)?;
                    (alias.clone(), None, derived_scope(&alias, cols), Some(rows))
                } else if let Some((def, sequence)) = ctx.session.sequence_table(db, &name.name)? {
                    let columns = computed_table_columns(&def, &alias);
                    (alias, None, columns, Some(sequence.rows()?))
                } else {
                    let entry = ctx.session.table_entry_in(db, &name.name)?;
                    check_index_hints(&entry, index_hints, &alias)?;
                    let columns = table_columns(&entry, &alias);
                    (alias, Some(entry), columns, None)
                }
            }
            TableFactor::Derived { query, alias, columns } => {
                let (cols, rows) = run_select(ctx, query)?;
                let cols = rename_columns(cols, columns)?;
                (alias.clone(), None, derived_scope(alias, cols), Some(rows))
            }
            TableFactor::Recursive(cte) => {
                let (cols, rows) = run_recursive(ctx, cte)?;
                (cte.alias.clone(), None, derived_scope(&cte.alias, cols), Some(rows))
            }
            TableFactor::CteSelf { name, alias } => {
                let (cols, rows) = ctx.recursing.borrow().get(name).cloned().unwrap_or_default();
                (alias.clone(), None, derived_scope(alias, cols), Some(rows))
            }
        };
        let mut source = Source {
            alias,
            entry,
            columns,
            rows,
            offset,
            kind: join.kind,
            on: join.on.clone(),
            wanted: None,
            row_key: false,
        };
        // The inner side of an outer join reads NULL where nothing matched:
        // its columns are nullable in the result (metadata, CREATE ... SELECT).
        if join.kind == JoinKind::Left {
            source.columns.iter_mut().for_each(|c| c.def.nullable = true);
        }
        if sources.iter().any(|s: &Source| s.alias == source.alias) {
            return Err(SqlError::new(
                ErrorCode::NON_UNIQ_TABLE,
                format!("Not unique table/alias: '{}'", source.alias),
            ));
        }
        let names = if join.natural { natural_columns(&sources, &source) } else { join.using.clone() };
        let common = join_using(&sources, &mut source, &names)?;
        if using {
            // The common columns where the left side lists them, then the
            // left side's others, then the right side's own.
            let (first, rest): (Vec<usize>, Vec<usize>) = star_order.into_iter().partition(|i| common.contains(i));
            let right = source.columns.iter().enumerate().filter(|(_, c)| !c.merged).map(|(j, _)| offset + j);
            star_order = first.into_iter().chain(rest).chain(right).collect();
        }
        offset += source.columns.len();
        sources.push(source);
    }
    for (position, i) in star_order.into_iter().enumerate() {
        if let Some(source) = sources.iter_mut().rev().find(|s| s.offset <= i) {
            source.columns[i - source.offset].star_position = position;
        }
    }
    if swapped.is_some() && !using {
        // `a RIGHT JOIN b ON ...` runs as `b LEFT JOIN a`; `*` lists `a`
        // first, as written. (With USING, MariaDB lists b's side first,
        // as the swapped join already does.)
        for (i, source) in sources.iter_mut().enumerate() {
            let position = [1, 0].get(i).copied().unwrap_or(i);
            source.columns.iter_mut().for_each(|c| c.star_position = position);
        }
    }
    Ok(sources)
}

/// A view's rows, as a derived table of its stored query. A table or
/// column it names that is gone is MariaDB's 1356 for the view.
fn run_view(ctx: &Ctx, view: &crate::view::ViewEntry) -> SqlResult<ResultRows> {
    run_select(ctx, &view.query).map_err(|e| match e.code.number {
        1054 | 1146 | 1305 | 1356 => SqlError::new(
            ErrorCode::VIEW_INVALID,
            format!(
                "View '{}.{}' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them",
                view.def.db, view.def.name
            ),
        ),
        _ => e,
    })
}

/// A derived table's columns go by their result names (an item's alias,
/// not the name of the column it reads).
fn derived_scope(alias: &str, columns: Vec<ResultColumn>) -> Vec<ScopeColumn> {
    columns
        .into_iter()
        .map(|c| {
            let def = ColumnDef { name: c.name, ..c.def };
            ScopeColumn::new(alias.to_string(), String::new(), alias.to_string(), def)
        })
        .collect()
}

/// A WITH query's columns under the names of its column list, if any.
fn rename_columns(mut columns: Vec<ResultColumn>, names: &[String]) -> SqlResult<Vec<ResultColumn>> {
    if names.is_empty() {
        return Ok(columns);
    }
    if names.len() != columns.len() {
        return Err(SqlError::new(
            ErrorCode::WITH_COL_WRONG_LIST,
            "WITH column list and SELECT field list have different column counts",
        ));
    }
    for (column, name) in columns.iter_mut().zip(names) {
        column.name = name.clone();
        column.def.name = name.clone();
    }
    Ok(columns)
}

/// Runs a recursive CTE: the seed, then the step over each round's new rows
/// until a round adds none. Rounds stop at `max_recursive_iterations` with
/// MariaDB's warning 1931; KILL and the statement's time limit end them.
fn run_recursive(ctx: &Ctx, cte: &RecursiveCte) -> SqlResult<ResultRows> {
    let (columns, mut added) = run_select(ctx, &cte.seed)?;
    let columns = rename_columns(columns, &cte.columns)?;
    let mut seen = KeySet::default();
    let collations = column_collations(&columns);
    if cte.distinct {
        added.retain(|row| seen.insert(group_key(row, &collations)));
    }
    let max_rounds: u64 = ctx.session.session_value("max_recursive_iterations").parse().unwrap_or(u64::MAX);
    let mut all = added.clone();
    let mut rounds = 0u64;
    while !added.is_empty() {
        if rounds == max_rounds {
            ctx.session.warn(
                ErrorCode::QUERY_RESULT_INCOMPLETE.number,
                format!(
                    "Query execution was interrupted. The query exceeded max_recursive_iterations = {max_rounds}. \
                     The query result may be incomplete"
                ),
            );
            break;
        }
        ctx.session.guard().check()?;
        ctx.recursing.borrow_mut().insert(cte.name.clone(), (columns.clone(), std::mem::take(&mut added)));
        // Uncorrelated subqueries of the step may read the CTE: not cached
        // across rounds.
        ctx.subquery_cache.borrow_mut().clear();
        let round = run_select(ctx, &cte.step);
        ctx.recursing.borrow_mut().remove(&cte.name);
        let (step_columns, mut rows) = round?;
        if step_columns.len() != columns.len() {
            return Err(SqlError::new(
                ErrorCode::WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
                "The used SELECT statements have a different number of columns",
            ));
        }
        if cte.distinct {
            rows.retain(|row| seen.insert(group_key(row, &collations)));
        }
        all.extend(rows.iter().cloned());
        added = rows;
        rounds += 1;
    }
    Ok((columns, all))
}

/// `a RIGHT JOIN b ON c [joins ...]` as `b LEFT JOIN a ON c [joins ...]`,
/// which the nested-loop join runs with `b` outer; `None` without a RIGHT
/// JOIN. Only the first join may be RIGHT: a later one would need its whole
/// left side (a join) as the inner side of a LEFT JOIN, which the left-deep
/// join does not run.
fn right_join_as_left(from: &[Join]) -> SqlResult<Option<Vec<Join>>> {
    if from.iter().skip(2).any(|j| j.kind == JoinKind::Right) {
        return Err(SqlError::not_supported("RIGHT JOIN after another join"));
    }
    let [left, right, rest @ ..] = from else { return Ok(None) };
    if right.kind != JoinKind::Right {
        return Ok(None);
    }
    let outer = Join { kind: JoinKind::Inner, on: None, using: Vec::new(), natural: false, ..right.clone() };
    let inner = Join { kind: JoinKind::Left, factor: left.factor.clone(), ..right.clone() };
    Ok(Some([outer, inner].into_iter().chain(rest.iter().cloned()).collect()))
}

/// NATURAL JOIN's USING list: the right side's columns whose names the
/// left side has (visible ones), in the right side's order.
fn natural_columns(sources: &[Source], source: &Source) -> Vec<String> {
    let left = sources.iter().flat_map(|s| &s.columns);
    let unqualified = None;
    source
        .columns
        .iter()
        .filter(|c| left.clone().any(|l| l.answers(&unqualified, &c.def.name)))
        .map(|c| c.def.name.clone())
        .collect()
}

/// `JOIN ... USING (columns)`: each column must name exactly one column of
/// the tables joined so far and one of `source`; the join condition becomes
/// their equalities and `source`'s copies are marked merged. Returns the
/// left side's columns (scope positions); none without USING.
fn join_using(sources: &[Source], source: &mut Source, using: &[String]) -> SqlResult<Vec<usize>> {
    let unknown = |name: &str| SqlError::bad_field(name, "from clause");
    let mut common = Vec::new();
    let mut on: Option<Expr> = None;
    for name in using {
        let unqualified = None;
        let left = sources.iter().flat_map(|s| s.columns.iter().enumerate().map(move |(j, c)| (s.offset + j, c)));
        let mut matches = left.filter(|(_, c)| c.answers(&unqualified, name));
        let (position, left_column) = match (matches.next(), matches.next()) {
            (Some(found), None) => found,
            (Some(_), Some(_)) => {
                return Err(SqlError::new(ErrorCode::NON_UNIQ, format!("Column '{name}' in from clause is ambiguous")))
            }
            (None, _) => return Err(unknown(name)),
        };
        let right_column =
            source.columns.iter_mut().find(|c| c.answers(&unqualified, name)).ok_or_else(|| unknown(name))?;
        right_column.merged = true;
        let column = |table: &str| Box::new(Expr::Column { table: Some(table.to_string()), name: name.clone() });
        let equal = Expr::Binary(BinOp::Eq, column(&left_column.table), column(&source.alias));
        on = Some(match on {
            None => equal,
            Some(earlier) => Expr::Binary(BinOp::And, Box::new(earlier), Box::new(equal)),
        });
        common.push(position);
    }
    if on.is_some() {
        source.on = on;
    }
    Ok(common)
}

/// How one table's rows are found.
#[derive(Debug, Clone)]
pub enum Access {
    /// Full primary key equality: one get.
    Get(Vec<u8>),
    /// Key ranges `[start, end)` of an index; `index` None = clustered.
    Ranges { index: Option<usize>, ranges: Vec<(Vec<u8>, Option<Vec<u8>>)>, reverse: bool },
}

/// Predicates on one column usable for index access.
#[derive(Default, Debug, Clone)]
struct ColumnBounds {
    eq: Option<Vec<Value>>,
    lower: Option<(Value, bool)>,
    upper: Option<(Value, bool)>,
    /// `col BETWEEN a AND b OR col BETWEEN c AND d ...`: a union of ranges.
    any_of: Option<Vec<ColumnBounds>>,
}

/// Splits an expression into AND-ed conjuncts.
pub fn conjuncts(expr: &Expr, out: &mut Vec<Expr>) {
    if let Expr::Binary(BinOp::And, l, r) = expr {
        conjuncts(l, out);
        conjuncts(r, out);
    } else {
        out.push(expr.clone());
    }
}

/// The conditions an access path may use, `expr` being true: its
/// [`conjuncts`] and, of each OR among them, the conjuncts every branch
/// has (`(x AND p) OR (x AND q)` is `x AND (p OR q)` in SQL's three-valued
/// logic too), so a condition each branch repeats can still pick an index.
/// For choosing access only: each row is still tested with all of `expr`.
pub fn access_conjuncts(expr: &Expr, out: &mut Vec<Expr>) {
    let start = out.len();
    conjuncts(expr, out);
    let ors: Vec<Expr> = out[start..].iter().filter(|c| matches!(c, Expr::Binary(BinOp::Or, ..))).cloned().collect();
    for or in &ors {
        out.extend(common_conjuncts(or));
    }
}

/// The [`access_conjuncts`] every branch of the OR `or` has.
fn common_conjuncts(or: &Expr) -> Vec<Expr> {
    let Expr::Binary(BinOp::Or, left, right) = or else {
        let mut own = Vec::new();
        access_conjuncts(or, &mut own);
        return own;
    };
    let on_right = common_conjuncts(right);
    common_conjuncts(left).into_iter().filter(|c| on_right.contains(c)).collect()
}

/// A value converted for key encoding in `column`, if it can be. Keys hold
/// TIMESTAMP values in UTC, the statement's values are in `zone`.
fn key_value(column: &ColumnDef, v: Value, zone: TimeZone) -> Option<Value> {
    if v.is_null() {
        return None;
    }
    match &column.ty {
        t if t.is_integer() => match v {
            Value::Int(i) if column.unsigned && i < 0 => None,
            Value::Int(_) | Value::UInt(_) => Some(v),
            Value::Decimal(d) if d.fract().is_zero() => d.to_string().parse::<i64>().ok().map(Value::Int),
            Value::Double(d) if d.fract() == 0.0 && d.abs() < 9e18 => Some(Value::Int(d as i64)),
            Value::Bytes(b) => std::str::from_utf8(&b).ok()?.trim().parse::<i64>().ok().map(Value::Int),
            _ => None,
        },
        t if t.is_text() && !t.has_members() => match v {
            Value::Bytes(_) => Some(v),
            Value::Int(_) | Value::UInt(_) | Value::Decimal(_) => Some(Value::from_str(&v.to_string())),
            _ => None,
        },
        ColumnType::Decimal { .. } => match v {
            Value::Decimal(_) => Some(v),
            Value::Int(i) => Some(Value::Decimal(i.into())),
            Value::UInt(u) => Some(Value::Decimal(u.into())),
            _ => None,
        },
        ColumnType::Double | ColumnType::Float => match v {
            Value::Double(_) => Some(v),
            Value::Int(i) => Some(Value::Double(i as f64)),
            _ => None,
        },
        ColumnType::Timestamp { .. } => match v {
            Value::Date(t) | Value::DateTime(t) if t == Temporal::default() => Some(Value::DateTime(t)),
            Value::Date(t) | Value::DateTime(t) => zone.local_to_utc(&t).map(Value::DateTime),
            _ => None,
        },
        ColumnType::Date | ColumnType::DateTime { .. } => match v {
            Value::Date(_) | Value::DateTime(_) => Some(v),
            _ => None,
        },
        ColumnType::Binary(_) | ColumnType::VarBinary(_) | ColumnType::Blob(_) => match v {
            Value::Bytes(_) => Some(v),
            _ => None,
        },
        // A string that is no UUID compares as a string: no key range.
        ColumnType::Uuid => match v {
            Value::Uuid(_) => Some(v),
            Value::Bytes(b) => {
                onelog_core::Uuid::from_binary(&b).or_else(|| onelog_core::Uuid::parse_text(&b)).map(Value::Uuid)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Collects per-column bounds from conjuncts of the form `col op const`,
/// where const may use slots below `table_offset` (earlier tables).
fn column_bounds(
    ctx: &Ctx,
    source: &Source,
    conds: &[Expr],
    outer: &[Value],
) -> SqlResult<HashMap<usize, ColumnBounds>> {
    let mut bounds: HashMap<usize, ColumnBounds> = HashMap::new();
    let zone = session_zone(ctx);
    let start = source.offset;
    let end = start + source.columns.len();
    let is_col = |e: &Expr| slot_of(e).filter(|s| *s >= start && *s < end).map(|s| s - start);
    let is_const = |e: &Expr| !has_aggregate(e) && !has_subquery(e) && max_slot(e).is_none_or(|m| m < start);
    for c in conds {
        if let Expr::Binary(BinOp::Or, _, _) = c {
            if let Some((col, union)) = or_bounds(ctx, source, c, outer)? {
                bounds.entry(col).or_default().any_of = Some(union);
            }
            continue;
        }
        let (col, op, value_expr) = match c {
            Expr::Binary(op, l, r) if matches!(op, BinOp::Eq | BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq) => {
                if let (Some(col), true) = (is_col(l), is_const(r)) {
                    (col, *op, vec![(**r).clone()])
                } else if let (Some(col), true) = (is_col(r), is_const(l)) {
                    let flipped = match op {
                        BinOp::Lt => BinOp::Gt,
                        BinOp::LtEq => BinOp::GtEq,
                        BinOp::Gt => BinOp::Lt,
                        BinOp::GtEq => BinOp::LtEq,
                        other => *other,
                    };
                    (col, flipped, vec![(**l).clone()])
                } else {
                    continue;
                }
            }
            Expr::Between { expr, low, high, negated: false } => {
                match (is_col(expr), is_const(low) && is_const(high)) {
                    (Some(col), true) => (col, BinOp::And, vec![(**low).clone(), (**high).clone()]),
                    _ => continue,
                }
            }
            Expr::InList { expr, list, negated: false } => match is_col(expr) {
                Some(col) if list.iter().all(is_const) => (col, BinOp::Or, list.clone()),
                _ => continue,
            },
            _ => continue,
        };
        let column = &source.columns[col].def;
        let mut values = Vec::with_capacity(value_expr.len());
        for e in &value_expr {
            match key_value(column, ctx.eval(e, outer)?, zone) {
                Some(v) => values.push(v),
                None => break,
            }
        }
        if values.len() != value_expr.len() {
            continue;
        }
        let b = bounds.entry(col).or_default();
        match op {
            BinOp::Eq => b.eq = Some(values),
            BinOp::Or if b.eq.is_none() => b.eq = Some(values),
            BinOp::Gt => b.lower = Some((values.remove(0), false)),
            BinOp::GtEq => b.lower = Some((values.remove(0), true)),
            BinOp::Lt => b.upper = Some((values.remove(0), false)),
            BinOp::LtEq => b.upper = Some((values.remove(0), true)),
            BinOp::And => {
                b.upper = Some((values.remove(1), true));
                b.lower = Some((values.remove(0), true));
            }
            _ => {}
        }
    }
    Ok(bounds)
}

/// Bounds for an OR of predicates that all constrain one column, if so.
fn or_bounds(
    ctx: &Ctx,
    source: &Source,
    expr: &Expr,
    outer: &[Value],
) -> SqlResult<Option<(usize, Vec<ColumnBounds>)>> {
    let mut disjuncts = Vec::new();
    flatten_or(expr, &mut disjuncts);
    let mut column = None;
    let mut union = Vec::with_capacity(disjuncts.len());
    for d in disjuncts {
        let one = column_bounds(ctx, source, std::slice::from_ref(&d), outer)?;
        let mut entries = one.into_iter();
        let (Some((col, b)), None) = (entries.next(), entries.next()) else { return Ok(None) };
        if column.is_some_and(|c| c != col) || b.any_of.is_some() {
            return Ok(None);
        }
        column = Some(col);
        union.push(b);
    }
    Ok(column.map(|c| (c, union)))
}

fn flatten_or(expr: &Expr, out: &mut Vec<Expr>) {
    if let Expr::Binary(BinOp::Or, l, r) = expr {
        flatten_or(l, out);
        flatten_or(r, out);
    } else {
        out.push(expr.clone());
    }
}

/// Key ranges for a union of bounds on the first column of `index_id`.
fn union_ranges(index_id: u64, column: &ColumnDef, union: &[ColumnBounds]) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
    let prefix = key::index_prefix(index_id);
    let mut ranges = Vec::new();
    for b in union {
        match &b.eq {
            Some(values) => {
                for v in values {
                    let mut k = prefix.clone();
                    key::encode_value(&mut k, column, v);
                    let end = key::prefix_end(&k);
                    ranges.push((k, end));
                }
            }
            None => ranges.push(range_for(&prefix, column, b)),
        }
    }
    ranges.sort();
    merge_overlapping(ranges)
}

/// Sorted key ranges (start, exclusive end, `None` unbounded) with the
/// overlapping ones merged, so a row two disjuncts select (`a IN (2) OR
/// a < 5`) is read once.
fn merge_overlapping(sorted: Vec<(Vec<u8>, Option<Vec<u8>>)>) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
    let mut merged: Vec<(Vec<u8>, Option<Vec<u8>>)> = Vec::with_capacity(sorted.len());
    for (start, end) in sorted {
        if let Some(last) = merged.last_mut() {
            let overlaps = last.1.as_ref().is_none_or(|last_end| start < *last_end);
            if overlaps {
                last.1 = match (last.1.take(), end) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                continue;
            }
        }
        merged.push((start, end));
    }
    merged
}

/// Upper bound on point keys generated from IN lists (cartesian product).
const MAX_POINT_KEYS: usize = 4096;

/// Chooses the access path for `source` given its usable conjuncts.
pub(crate) fn choose_access(
    ctx: &Ctx,
    source: &Source,
    conds: &[Expr],
    outer: &[Value],
    order: Option<&[OrderBy]>,
) -> SqlResult<(Access, bool)> {
    let entry = match &source.entry {
        Some(e) => e,
        None => return Ok((Access::Ranges { index: None, ranges: vec![], reverse: false }, false)),
    };
    let bounds = column_bounds(ctx, source, conds, outer)?;
    let def = &entry.def;
    let mut best: Option<(usize, usize, bool)> = None; // (index pos, eq cols, has range)
    for (pos, index) in def.indexes.iter().enumerate() {
        let eq_cols = index.columns.iter().take_while(|c| bounds.get(c).is_some_and(|b| b.eq.is_some())).count();
        let range = index
            .columns
            .get(eq_cols)
            .and_then(|c| bounds.get(c))
            .is_some_and(|b| b.lower.is_some() || b.upper.is_some());
        if eq_cols == 0 && !range {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, best_eq, best_range)) => (eq_cols, range) > (best_eq, best_range),
        };
        if better {
            best = Some((pos, eq_cols, range));
        }
    }
    // ORDER BY on the clustered key or an index prefix: scan in index order.
    let ordered = order.and_then(|o| ordered_index(source, o));
    if best.is_none() {
        let union = def.indexes.iter().enumerate().find_map(|(pos, index)| {
            let col = *index.columns.first()?;
            bounds.get(&col)?.any_of.as_ref().map(|u| (pos, col, u))
        });
        if let Some((pos, col, union)) = union {
            let index = &def.indexes[pos];
            let ranges = union_ranges(index.id, &def.columns[col], union);
            let idx = if index.primary { None } else { Some(pos) };
            return Ok((Access::Ranges { index: idx, ranges, reverse: false }, false));
        }
    }
    let Some((pos, eq_cols, range)) = best else {
        return Ok(match ordered {
            Some((pos, reverse)) => {
                let index = &def.indexes[pos];
                let prefix = key::index_prefix(index.id);
                let end = key::prefix_end(&prefix);
                let idx = if index.primary { None } else { Some(pos) };
                (Access::Ranges { index: idx, ranges: vec![(prefix, end)], reverse }, true)
            }
            None => {
                // A query that reads only what a secondary index holds
                // scans the narrowest such index instead of the rows.
                let covering = source.wanted.as_deref().and_then(|w| covering::narrowest_covering(def, w));
                let prefix = key::index_prefix(covering.map_or(entry.clustered_id(), |pos| def.indexes[pos].id));
                let end = key::prefix_end(&prefix);
                (Access::Ranges { index: covering, ranges: vec![(prefix, end)], reverse: false }, false)
            }
        });
    };
    let index = &def.indexes[pos];
    let mut prefixes = vec![key::index_prefix(index.id)];
    for &col in &index.columns[..eq_cols] {
        let values = bounds[&col].eq.clone().unwrap_or_default();
        let mut next = Vec::with_capacity(prefixes.len() * values.len());
        for p in &prefixes {
            for v in &values {
                let mut k = p.clone();
                key::encode_value(&mut k, &def.columns[col], v);
                next.push(k);
            }
        }
        if next.len() > MAX_POINT_KEYS {
            break;
        }
        next.sort();
        next.dedup();
        prefixes = next;
    }
    let all_eq = eq_cols == index.columns.len();
    if index.primary && all_eq && prefixes.len() == 1 {
        return Ok((Access::Get(prefixes.remove(0)), true));
    }
    let range_col = if range { index.columns.get(eq_cols).copied() } else { None };
    let ranges = prefixes
        .into_iter()
        .map(|p| match range_col {
            Some(col) => range_for(&p, &def.columns[col], &bounds[&col]),
            None => {
                let end = key::prefix_end(&p);
                (p, end)
            }
        })
        .collect();
    let (reverse, in_order) = match ordered {
        Some((opos, rev)) if opos == pos => (rev, true),
        _ => (false, false),
    };
    let idx = if index.primary { None } else { Some(pos) };
    Ok((Access::Ranges { index: idx, ranges, reverse }, in_order && !all_eq))
}

/// `[start, end)` for `prefix` + a range on one more column.
fn range_for(prefix: &[u8], column: &ColumnDef, b: &ColumnBounds) -> (Vec<u8>, Option<Vec<u8>>) {
    let start = match &b.lower {
        Some((v, inclusive)) => {
            let mut k = prefix.to_vec();
            key::encode_value(&mut k, column, v);
            if *inclusive {
                k
            } else {
                key::prefix_end(&k).unwrap_or(k)
            }
        }
        None => {
            // Skip NULLs (encoded 0x00): ranges never match NULL.
            let mut k = prefix.to_vec();
            k.push(0x01);
            k
        }
    };
    let end = match &b.upper {
        Some((v, inclusive)) => {
            let mut k = prefix.to_vec();
            key::encode_value(&mut k, column, v);
            if *inclusive {
                key::prefix_end(&k)
            } else {
                Some(k)
            }
        }
        None => key::prefix_end(prefix),
    };
    (start, end)
}

/// An index whose column order matches ORDER BY (all one direction).
pub(crate) fn ordered_index(source: &Source, order: &[OrderBy]) -> Option<(usize, bool)> {
    let entry = source.entry.as_ref()?;
    let desc = order.first()?.desc;
    let cols: Option<Vec<usize>> = order
        .iter()
        .map(|o| match slot_of(&o.expr) {
            Some(s) if o.desc == desc && s >= source.offset && s < source.offset + source.columns.len() => {
                Some(s - source.offset)
            }
            _ => None,
        })
        .collect();
    let cols = cols?;
    entry
        .def
        .indexes
        .iter()
        .position(|i| i.columns.len() >= cols.len() && i.columns[..cols.len()] == cols[..])
        .map(|pos| (pos, desc))
}

/// Takes a scanned row with its clustered key; `false` stops the scan.
pub type RowVisitor<'a> = dyn FnMut(&[u8], Vec<Value>) -> SqlResult<bool> + 'a;

/// Takes a joined row with the clustered key it came from (when it came
/// from one table); `false` stops the join.
type RowSink<'a> = dyn FnMut(Vec<Value>, Option<&[u8]>) -> SqlResult<bool> + 'a;

/// Streams the rows of one base table along `access` to `f`, decoding the
/// `wanted` columns (all when `None`; the others read as NULL).
pub fn scan_table(
    ctx: &Ctx,
    entry: &TableEntry,
    access: &Access,
    wanted: Option<&[bool]>,
    f: &mut RowVisitor,
) -> SqlResult<()> {
    let txn = ctx.txn;
    let guard = ctx.session.guard();
    let zone = rows::zone_for(entry, ctx);
    let decode = |bytes: &[u8]| -> SqlResult<Vec<Value>> {
        let mut row = rows::decode_columns(entry, bytes, wanted)?;
        rows::show_in_zone(entry, &mut row, zone);
        Ok(row)
    };
    match access {
        Access::Get(k) => {
            guard.check()?;
            if let Some(v) = txn.get(&ctx.view, k)? {
                f(k, decode(&v)?)?;
            }
        }
        Access::Ranges { index, ranges, reverse } => {
            // The index's entries give the wanted columns themselves: the
            // rows are not read (see `covering`).
            let covering = index
                .map(|pos| &entry.def.indexes[pos])
                .filter(|index| wanted.is_some_and(|w| covering::covers(&entry.def, index, w)));
            let from_entry = |entry_key: &[u8]| {
                covering.and_then(|index| covering::decode_entry(&entry.def, index, entry_key)).map(|mut row| {
                    rows::show_in_zone(entry, &mut row, zone);
                    row
                })
            };
            for (start, end) in ranges {
                for kv in txn.scan(&ctx.view, start, end.as_deref(), *reverse)? {
                    guard.check()?;
                    let (k, v) = kv?;
                    let (ck, row) = match (index, from_entry(&k)) {
                        (None, _) => (k, decode(&v)?),
                        (Some(_), Some(row)) => (v, row),
                        (Some(_), None) => match txn.get(&ctx.view, &v)? {
                            Some(row) => (v, decode(&row)?),
                            None => continue,
                        },
                    };
                    if !f(&ck, row)? {
                        return Ok(());
                    }
                }
            }
        }
    }
    Ok(())
}

/// Describes an access path for EXPLAIN: (type, key, rows estimate text).
pub fn describe_access(entry: &TableEntry, access: &Access) -> (&'static str, Option<String>) {
    match access {
        Access::Get(_) => ("const", Some("PRIMARY".into())),
        Access::Ranges { index, ranges, .. } => {
            let name = match index {
                Some(pos) => entry.def.indexes[*pos].name.clone(),
                None => entry.def.primary_key().map(|p| p.name.clone()).unwrap_or_default(),
            };
            let full_prefix = key::index_prefix(entry.clustered_id());
            let full = ranges.len() == 1 && index.is_none() && ranges[0].0 == full_prefix;
            if full {
                ("ALL", None)
            } else if ranges.len() > 1 || ranges.first().is_some_and(|r| r.0.len() > 8) {
                ("range", Some(name))
            } else {
                ("index", Some(name))
            }
        }
    }
}

/// Runs a SELECT and returns its columns and rows.
pub fn run_select(ctx: &Ctx, select: &Select) -> SqlResult<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    let (mut columns, mut rows) = run_core(ctx, select, select.union.is_none())?;
    let Some((_, _)) = &select.union else { return Ok((columns, rows)) };
    let mut all = true;
    let mut next = &select.union;
    let mut part_columns = Vec::new();
    while let Some((is_all, part)) = next {
        let (cols, part_rows) = run_core(ctx, part, false)?;
        if cols.len() != columns.len() {
            return Err(SqlError::new(
                ErrorCode::WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
                "The used SELECT statements have a different number of columns",
            ));
        }
        all &= *is_all;
        rows.extend(part_rows);
        part_columns.push(cols);
        next = &part.union;
    }
    union_columns(&mut columns, &part_columns, &mut rows);
    if !all {
        dedup_rows(&mut rows, &column_collations(&columns), |r| r);
    }
    if !select.order_by.is_empty() {
        let scope = result_scope(&columns);
        let keys: Vec<(Expr, bool)> = select
            .order_by
            .iter()
            .map(|o| {
                Ok((bind_order_position(&o.expr, columns.len()).map_or_else(|| bind(&o.expr, &scope), Ok)?, o.desc))
            })
            .collect::<SqlResult<_>>()?;
        let mut keyed: Vec<(Vec<Value>, Vec<Value>)> = rows
            .into_iter()
            .map(|r| Ok((keys.iter().map(|(e, _)| ctx.eval(e, &r)).collect::<SqlResult<_>>()?, r)))
            .collect::<SqlResult<_>>()?;
        let orders: Vec<KeyOrder> = keys.iter().map(|(e, d)| KeyOrder::of(e, *d)).collect();
        keyed.sort_by(|a, b| cmp_keys(&a.0, &b.0, &orders));
        rows = keyed.into_iter().map(|(_, r)| r).collect();
    }
    let found = rows.len() as u64;
    apply_limit(ctx, select, &mut rows)?;
    // MariaDB finds a UNION's every row before its LIMIT cuts them.
    ctx.session.rows_before_limit.set(Some(found));
    Ok((columns, rows))
}

/// A UNION's columns: named by its first part, typed to hold every part's
/// values (which are then shown as that type).
fn union_columns(columns: &mut [ResultColumn], parts: &[Vec<ResultColumn>], rows: &mut [Vec<Value>]) {
    for (i, column) in columns.iter_mut().enumerate() {
        let defs: Vec<&ColumnDef> = std::iter::once(&column.def).chain(parts.iter().map(|p| &p[i].def)).collect();
        if let Some(def) = crate::typing::union_def(&defs, &column.name) {
            rows.iter_mut().for_each(|r| crate::typing::conform(&def, &mut r[i]));
            *column = ResultColumn::named(&column.name, def);
        }
    }
}

fn bind_order_position(expr: &Expr, n: usize) -> Option<Expr> {
    match expr {
        Expr::Literal(Value::Int(i)) if *i >= 1 && (*i as usize) <= n => Some(Expr::Slot(*i as usize - 1)),
        _ => None,
    }
}

/// Sets of [`group_key`]s. foldhash rather than std's SipHash: DISTINCT
/// hashes every row it sees (SipHash was ~1% of `oltp_read_write`), and
/// foldhash's per-process random seed still keeps keys unpredictable.
pub type KeySet = HashSet<Vec<u8>, foldhash::fast::RandomState>;

/// A query's result: its columns and rows.
pub type ResultRows = (Vec<ResultColumn>, Vec<Vec<Value>>);

/// Keeps the first of the rows whose `values` are equal under MySQL
/// equality (text under `collations`, one per column), in order (DISTINCT,
/// UNION).
fn dedup_rows<T>(rows: &mut Vec<T>, collations: &[Collation], values: impl Fn(&T) -> &[Value]) {
    let mut seen = KeySet::with_capacity_and_hasher(rows.len(), Default::default());
    rows.retain(|r| seen.insert(group_key(values(r), collations)));
}

/// The collations result columns' text compares under (DISTINCT, UNION).
fn column_collations(columns: &[ResultColumn]) -> Vec<Collation> {
    columns.iter().map(|c| c.def.collation).collect()
}

/// How one ORDER BY / GROUP BY key orders: its direction and the collation
/// its text compares under.
#[derive(Debug, Clone, Copy)]
pub struct KeyOrder {
    pub desc: bool,
    pub collation: Collation,
}

impl KeyOrder {
    /// The order of key `expr` (its collation by [`eval::expr_collation`]).
    pub fn of(expr: &Expr, desc: bool) -> KeyOrder {
        KeyOrder { desc, collation: eval::expr_collation(expr).0 }
    }
}

/// Hashable identity of values under MySQL equality: text by its
/// collation's sort key (`collations[i]` for `values[i]`, the default
/// collation past its end), so GROUP BY and DISTINCT equate exactly what
/// `=` does.
pub fn group_key(values: &[Value], collations: &[Collation]) -> Vec<u8> {
    let text_bytes: usize = values.iter().map(|v| if let Value::Bytes(b) = v { 2 * b.len() } else { 8 }).sum();
    let mut out = Vec::with_capacity(text_bytes + 6 * values.len());
    for (i, v) in values.iter().enumerate() {
        match v {
            Value::Null => out.push(0),
            Value::Bytes(b) => {
                // Length-prefixed: a sort key may hold any byte.
                out.push(1);
                let at = out.len();
                out.extend_from_slice(&[0; 4]);
                collations.get(i).copied().unwrap_or_default().sort_key_into(b, &mut out);
                let len = (out.len() - at - 4) as u32;
                out[at..at + 4].copy_from_slice(&len.to_be_bytes());
            }
            Value::Int(i) => push_display(&mut out, 2, i),
            Value::UInt(u) => push_display(&mut out, 2, u),
            Value::Decimal(d) => push_display(&mut out, 3, d.normalize()),
            other => push_display(&mut out, 4, other),
        }
        out.push(0xff);
    }
    out
}

/// Appends `tag` and `v`'s text without an intermediate String.
fn push_display(out: &mut Vec<u8>, tag: u8, v: impl std::fmt::Display) {
    use std::io::Write;
    out.push(tag);
    let _ = write!(out, "{v}"); // a Vec takes every write
}

pub fn cmp_keys(a: &[Value], b: &[Value], orders: &[KeyOrder]) -> Ordering {
    a.iter()
        .zip(b)
        .zip(orders)
        .map(|((x, y), o)| cmp_key(x, y, *o))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

/// ORDER BY's order for one key: NULLs first, text by the key's collation,
/// descending reverses.
fn cmp_key(x: &Value, y: &Value, order: KeyOrder) -> Ordering {
    let ord = match (x.is_null(), y.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => eval::compare_with_collation(x, y, order.collation).unwrap_or(Ordering::Equal),
    };
    if order.desc {
        ord.reverse()
    } else {
        ord
    }
}

/// A LIMIT or OFFSET row count. The grammar allows only integers there,
/// but a `?` or a routine variable may hold anything: it is read as an
/// integer without warnings, as MariaDB reads it (`'2abc'` is 2, `0.5` is
/// 1, NULL is 0); a negative one is 1210.
pub(crate) fn limit_value(ctx: &Ctx, e: &Option<Expr>) -> SqlResult<Option<u64>> {
    let Some(e) = e else { return Ok(None) };
    let rows = match ctx.eval_constant(e)? {
        Value::UInt(u) => Some(u),
        Value::Null => Some(0),
        Value::Bytes(text) => u64::try_from(eval::parse_int_prefix(&text).0).ok(),
        other => eval::to_i64_cast(&other, &eval::NoWarn).and_then(|i| u64::try_from(i).ok()),
    };
    let statement = if matches!(e, Expr::Param(_)) { "EXECUTE" } else { "LIMIT" };
    let wrong = || SqlError::new(ErrorCode::WRONG_ARGUMENTS, format!("Incorrect arguments to {statement}"));
    rows.map(Some).ok_or_else(wrong)
}

/// Cuts `rows` to OFFSET / LIMIT, telling the session what they found
/// before LIMIT stopped (the last call, a statement's outermost, counts).
pub(crate) fn apply_limit(ctx: &Ctx, select: &Select, rows: &mut Vec<Vec<Value>>) -> SqlResult<()> {
    let offset = limit_value(ctx, &select.offset)?.unwrap_or(0) as usize;
    let limit = limit_value(ctx, &select.limit)?;
    let reached = limit.map_or(u64::MAX, |l| (offset as u64).saturating_add(l));
    ctx.session.rows_before_limit.set(Some((rows.len() as u64).min(reached)));
    if offset > 0 {
        rows.drain(..offset.min(rows.len()));
    }
    if let Some(l) = limit {
        rows.truncate(l.min(usize::MAX as u64) as usize);
    }
    Ok(())
}

/// Output item after expanding wildcards.
pub(crate) struct Item {
    pub(crate) expr: Expr,
    pub(crate) column: ResultColumn,
}

pub(crate) fn expand_items(select_items: &[SelectItem], scope: &[ScopeColumn]) -> SqlResult<Vec<Item>> {
    let mut items = Vec::new();
    for item in select_items {
        match item {
            SelectItem::Wildcard | SelectItem::QualifiedWildcard(_) => {
                let only = match item {
                    SelectItem::QualifiedWildcard(t) => Some(t),
                    _ => None,
                };
                if scope.is_empty() {
                    return Err(SqlError::new(ErrorCode::NO_TABLES_USED, "No tables used"));
                }
                let before = items.len();
                let mut listed: Vec<(usize, &ScopeColumn)> = match only {
                    Some(t) => scope.iter().enumerate().filter(|(_, c)| c.table == *t).collect(),
                    None => scope.iter().enumerate().filter(|(_, c)| !c.merged).collect(),
                };
                if only.is_none() {
                    listed.sort_by_key(|(_, c)| c.star_position);
                }
                for (i, c) in listed {
                    items.push(Item { expr: column_slot(i, &c.def), column: scope_result_column(c, &c.def.name) });
                }
                if items.len() == before {
                    if let Some(t) = only {
                        return Err(SqlError::new(ErrorCode::UNKNOWN_TABLE, format!("Unknown table '{t}'")));
                    }
                }
            }
            SelectItem::Expr { expr, alias, text } => {
                let bound = bind(expr, scope)?;
                let name = alias.clone().unwrap_or_else(|| text.clone());
                let column = match slot_of(&bound) {
                    Some(i) => scope_result_column(&scope[i], &name),
                    None => ResultColumn::text(&name),
                };
                items.push(Item { expr: bound, column });
            }
        }
    }
    Ok(items)
}

/// The result set of MariaDB's `INSERT|REPLACE|DELETE ... RETURNING items`:
/// `items` over each row the statement wrote or deleted, in order.
pub(crate) fn returning(
    ctx: &Ctx,
    table: &TableEntry,
    items: &[SelectItem],
    rows: &[Vec<Value>],
) -> SqlResult<QueryResult> {
    let scope = table_columns(table, &table.def.name);
    let items = expand_items(items, &scope)?;
    let out: Vec<Vec<Value>> = (1..)
        .zip(rows)
        .map(|(rownum, r)| {
            ctx.rownum.set(rownum);
            items.iter().map(|i| ctx.eval(&i.expr, r)).collect()
        })
        .collect::<SqlResult<_>>()?;
    let columns = (items.iter().enumerate())
        .map(|(n, item)| match slot_of(&item.expr) {
            Some(_) => item.column.clone(),
            None => ResultColumn::computed(&item.column.name, out.iter().map(|r| r[n].clone())),
        })
        .collect();
    Ok(QueryResult::Rows { columns, rows: out })
}

fn scope_result_column(c: &ScopeColumn, name: &str) -> ResultColumn {
    ResultColumn {
        name: name.to_string(),
        org_name: c.def.name.clone(),
        table: c.table.clone(),
        org_table: c.org_table.clone(),
        db: c.db.clone(),
        def: c.def.clone(),
        key: c.key,
        stored_function: false,
        decimals_zero: false,
    }
}

/// Replaces aggregate calls with `AggSlot`s, collecting them.
pub(crate) fn extract_aggregates(expr: &Expr, aggs: &mut Vec<Expr>) -> SqlResult<Expr> {
    if expr.is_aggregate() {
        let pos = aggs.iter().position(|a| a == expr).unwrap_or_else(|| {
            aggs.push(expr.clone());
            aggs.len() - 1
        });
        return Ok(Expr::AggSlot(pos));
    }
    map_children(expr, &mut |e| extract_aggregates(e, aggs))
}

/// SELECT without UNION handling; `final_order` applies ORDER/LIMIT here.
fn run_core(ctx: &Ctx, select: &Select, final_order: bool) -> SqlResult<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    let sources = resolve_sources(ctx, &select.from)?;
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    ctx.scopes.borrow_mut().push(scope.clone());
    let result = run_core_in_scope(ctx, select, final_order, sources, scope);
    ctx.scopes.borrow_mut().pop();
    result
}

pub(crate) fn run_core_in_scope(
    ctx: &Ctx,
    select: &Select,
    final_order: bool,
    mut sources: Vec<Source>,
    scope: Vec<ScopeColumn>,
) -> SqlResult<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    let Clauses { items, where_bound, mut order, mut group_by, mut having, aggregated, windowed } =
        bind_clauses(ctx, select, &scope)?;
    check_join_conditions(&sources)?;
    // Typed before any row is read: MariaDB types a user variable the
    // statement assigns by what it held before the statement.
    let mut typed_columns = crate::typing::select_list(&items, ctx.type_env(&scope));
    // ROWNUM() past WHERE is the number its row got there, kept in a slot
    // after the row's columns.
    let mut item_exprs: Vec<Expr> = items.iter().map(|i| i.expr.clone()).collect();
    let rownum_slot = (item_exprs.iter().chain(order.iter().map(|o| &o.expr)).chain(&group_by).chain(&having))
        .any(|e| e.contains(&is_rownum))
        .then_some(scope.len());
    if let Some(slot) = rownum_slot {
        let to_slot = |e: &Expr| rownum_to_slot(e, slot);
        item_exprs = item_exprs.iter().map(to_slot).collect::<SqlResult<_>>()?;
        group_by = group_by.iter().map(to_slot).collect::<SqlResult<_>>()?;
        having = having.as_ref().map(to_slot).transpose()?;
        for o in &mut order {
            o.expr = to_slot(&o.expr)?;
        }
    }
    let rownum_cap = where_bound.as_ref().and_then(rownum_cap);
    let outer_rownum = ctx.rownum.replace(1);

    // Early stop: plain queries with LIMIT and no sort, or sorted by an index.
    let simple = !aggregated && !windowed && !select.distinct && final_order;
    let limit = if simple {
        limit_value(ctx, &select.limit)?.map(|l| l + limit_value(ctx, &select.offset).ok().flatten().unwrap_or(0))
    } else {
        None
    };
    let mut conds = Vec::new();
    if let Some(w) = &where_bound {
        access_conjuncts(w, &mut conds);
    }
    let order_for_index = if simple && sources.len() == 1 && !order.is_empty() { Some(order.as_slice()) } else { None };
    set_wanted(&mut sources, Clauses::read(&items, where_bound.as_ref(), &order, &group_by, having.as_ref(), &scope));
    let mut joined: Vec<Vec<Value>> = Vec::new();
    let sorted_flag = std::cell::Cell::new(false);
    let mut selected_keys: Vec<Vec<u8>> = Vec::new();
    {
        let locking = ctx.lock_mode.borrow().is_some();
        let mut emit = |mut row: Vec<Value>, ck: Option<&[u8]>| -> SqlResult<bool> {
            if let Some(w) = &where_bound {
                if !ctx.test(w, &row)? {
                    return Ok(true);
                }
            }
            if let Some(k) = ck.filter(|_| locking) {
                selected_keys.push(k.to_vec());
            }
            let rownum = ctx.rownum.get();
            if rownum_slot.is_some() {
                row.push(Value::UInt(rownum));
            }
            joined.push(row);
            ctx.rownum.set(rownum + 1);
            let enough = limit.is_some_and(|l| joined.len() as u64 >= l) && (order.is_empty() || sorted_flag.get());
            Ok(!enough && rownum_cap.is_none_or(|cap| rownum < cap))
        };
        let joined_all = if sources.is_empty() {
            emit(Vec::new(), None)
        } else {
            join_level(ctx, &sources, 0, Vec::new(), &conds, order_for_index, &sorted_flag, &mut emit)
        };
        ctx.rownum.set(outer_rownum);
        joined_all?;
    }
    let sorted_by_index = sorted_flag.get();
    if let Some(mode) = *ctx.lock_mode.borrow() {
        ctx.selected.borrow_mut().extend(selected_keys.into_iter().map(|k| (k, mode)));
    }

    // Without grouping, HAVING filters the rows as WHERE would (its names
    // may be the select list's aliases), before any window function.
    let (joined, having) = match having {
        Some(h) if !aggregated => (filter_rows(ctx, joined, &h)?, None),
        having => (joined, having),
    };
    let mut out: Vec<KeyedRow>; // (sort keys not in the output, output row)
    let sort_keys: Vec<SortKey>;
    if aggregated || windowed {
        let mut aggs = Vec::new();
        let item_exprs: Vec<Expr> =
            item_exprs.iter().map(|e| extract_aggregates(e, &mut aggs)).collect::<SqlResult<_>>()?;
        let having = having.map(|h| extract_aggregates(&h, &mut aggs)).transpose()?;
        let order_exprs: Vec<Expr> =
            order.iter().map(|o| extract_aggregates(&o.expr, &mut aggs)).collect::<SqlResult<_>>()?;
        let mut rows: Vec<window::GroupRow> = if aggregated {
            let mut kept = Vec::new();
            for (mut rep, agg_values) in grouped_rows(ctx, &joined, &group_by, &aggs, select.rollup)? {
                // The row of NULLs of an empty ungrouped query is numbered
                // as the next row would have been.
                if let Some(slot) = rownum_slot.filter(|&s| rep.get(s).is_none_or(Value::is_null)) {
                    rep.resize(slot, Value::Null);
                    rep.push(Value::UInt(joined.len() as u64 + 1));
                }
                let row = eval::Row { values: &rep, params: ctx.params, aggregates: &agg_values, insert_values: None };
                if let Some(h) = &having {
                    if !truthy(&eval::eval(h, &row, ctx)?).unwrap_or(false) {
                        continue;
                    }
                }
                kept.push((rep, agg_values));
            }
            kept
        } else {
            joined.into_iter().map(|row| (row, Vec::new())).collect()
        };
        // Window calls read the grouped rows; their values follow the
        // aggregates' in each row.
        let mut calls = Vec::new();
        let mut windows = |e: &Expr| window::extract(e, &mut calls, aggs.len());
        let item_exprs: Vec<Expr> = item_exprs.iter().map(&mut windows).collect::<SqlResult<_>>()?;
        let order_exprs: Vec<Expr> = order_exprs.iter().map(&mut windows).collect::<SqlResult<_>>()?;
        window::compute(ctx, &calls, &mut rows)?;
        let extra_exprs;
        (sort_keys, extra_exprs) = split_sort_keys(&order_exprs, &item_exprs);
        out = Vec::with_capacity(rows.len());
        for (rep, agg_values) in &rows {
            let row = eval::Row { values: rep, params: ctx.params, aggregates: agg_values, insert_values: None };
            let values: Vec<Value> = item_exprs.iter().map(|e| eval::eval(e, &row, ctx)).collect::<SqlResult<_>>()?;
            let keys: Vec<Value> = extra_exprs.iter().map(|e| eval::eval(e, &row, ctx)).collect::<SqlResult<_>>()?;
            out.push((keys, values));
        }
    } else {
        let order_exprs: Vec<Expr> =
            if sorted_by_index { Vec::new() } else { order.iter().map(|o| o.expr.clone()).collect() };
        let extra_exprs;
        (sort_keys, extra_exprs) = split_sort_keys(&order_exprs, &item_exprs);
        out = project(ctx, joined, &item_exprs, &extra_exprs)?;
    }
    let columns: Vec<ResultColumn> = items
        .iter()
        .enumerate()
        .map(|(i, item)| match slot_of(&item.expr) {
            Some(_) => item.column.clone(),
            _ => match typed_columns[i].take() {
                Some(column) => {
                    out.iter_mut().for_each(|(_, r)| crate::typing::present(&item.expr, &column.def, &mut r[i]));
                    column
                }
                None => ResultColumn::computed(&item.column.name, out.iter().map(|(_, r)| r[i].clone())),
            },
        })
        .collect();
    if select.distinct {
        dedup_rows(&mut out, &column_collations(&columns), |(_, r)| r);
    }
    if final_order && !order.is_empty() && !sorted_by_index {
        let orders: Vec<KeyOrder> = order.iter().map(|o| KeyOrder::of(&o.expr, o.desc)).collect();
        out.sort_by(|a, b| cmp_sort_keys(a, b, &sort_keys, &orders));
    }
    let mut rows: Vec<Vec<Value>> = out.into_iter().map(|(_, r)| r).collect();
    if final_order {
        apply_limit(ctx, select, &mut rows)?;
    }
    Ok((columns, rows))
}

/// Whether the query block itself (not its subqueries) calls ROWNUM().
pub(crate) fn uses_rownum(select: &Select) -> bool {
    let items = select.items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    });
    let mut exprs = items.chain(&select.selection).chain(&select.group_by).chain(&select.having);
    exprs.any(|e| e.contains(&is_rownum)) || select.order_by.iter().any(|o| o.expr.contains(&is_rownum))
}

fn is_rownum(expr: &Expr) -> bool {
    matches!(expr, Expr::Function { name, args } if name == "rownum" && args.is_empty())
}

/// `expr` with ROWNUM() read from `slot` (see `run_core_in_scope`).
fn rownum_to_slot(expr: &Expr, slot: usize) -> SqlResult<Expr> {
    match expr {
        e if is_rownum(e) => Ok(Expr::Slot(slot)),
        other => map_children(other, &mut |e| rownum_to_slot(e, slot)),
    }
}

/// The last row number a WHERE can accept when one of its conjuncts is
/// `ROWNUM() <= n`, `ROWNUM() < n` or `ROWNUM() = 1` (either way round): as
/// MariaDB does, the scan stops there.
fn rownum_cap(where_bound: &Expr) -> Option<u64> {
    let mut conds = Vec::new();
    conjuncts(where_bound, &mut conds);
    conds
        .iter()
        .filter_map(|c| {
            let Expr::Binary(op, l, r) = c else { return None };
            // `n >= ROWNUM()` is `ROWNUM() <= n`.
            let (op, n) = match (l.as_ref(), r.as_ref()) {
                (f, Expr::Literal(n)) if is_rownum(f) => (*op, n),
                (Expr::Literal(n), f) if is_rownum(f) => match op {
                    BinOp::GtEq => (BinOp::LtEq, n),
                    BinOp::Gt => (BinOp::Lt, n),
                    _ => (*op, n),
                },
                _ => return None,
            };
            let n = match n {
                Value::Int(i) => u64::try_from(*i).unwrap_or(0),
                Value::UInt(u) => *u,
                _ => return None,
            };
            match op {
                BinOp::LtEq => Some(n),
                BinOp::Lt => Some(n.saturating_sub(1)),
                BinOp::Eq if n == 1 => Some(1),
                _ => None,
            }
        })
        .min()
}

/// A query block's clauses bound to its FROM scope.
pub(crate) struct Clauses {
    pub items: Vec<Item>,
    pub where_bound: Option<Expr>,
    pub order: Vec<OrderBy>,
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    /// An aggregate anywhere, ORDER BY included, or GROUP BY: the rows are
    /// grouped (into one without GROUP BY).
    pub aggregated: bool,
    pub windowed: bool,
}

impl Clauses {
    /// The columns of `scope` that the clauses read (see [`wanted_columns`]).
    pub(crate) fn wanted(&self, scope: &[ScopeColumn]) -> Vec<bool> {
        Clauses::read(&self.items, self.where_bound.as_ref(), &self.order, &self.group_by, self.having.as_ref(), scope)
    }

    /// [`Clauses::wanted`] of clauses taken apart.
    fn read(
        items: &[Item],
        where_bound: Option<&Expr>,
        order: &[OrderBy],
        group_by: &[Expr],
        having: Option<&Expr>,
        scope: &[ScopeColumn],
    ) -> Vec<bool> {
        let exprs = items.iter().map(|i| &i.expr).chain(where_bound).chain(order.iter().map(|o| &o.expr));
        wanted_columns(scope, exprs.chain(group_by).chain(having))
    }
}

/// MariaDB's ODBC compatibility (`sql_auto_is_null`, remove_eq_conds): in
/// the first SELECT after an INSERT generated an AUTO_INCREMENT value, a
/// WHERE that is just `auto_increment_column IS NULL` is
/// `auto_increment_column = LAST_INSERT_ID()` (as a part of a larger
/// condition it stays what it is, as in MariaDB).
fn substitute_auto_is_null(ctx: &Ctx, where_bound: Expr, scope: &[ScopeColumn]) -> Expr {
    match where_bound {
        Expr::IsNull { expr, negated: false } if matches!(*expr, Expr::Slot(i) if scope.get(i).is_some_and(|c| c.def.auto_increment)) => {
            match ctx.session.take_auto_is_null_id() {
                Some(id) => Expr::Binary(BinOp::Eq, expr, Box::new(Expr::Literal(Value::UInt(id)))),
                None => Expr::IsNull { expr, negated: false },
            }
        }
        other => other,
    }
}

/// Binds `select`'s clauses to `scope`, refusing window functions where
/// they cannot be.
pub(crate) fn bind_clauses(ctx: &Ctx, select: &Select, scope: &[ScopeColumn]) -> SqlResult<Clauses> {
    let items = expand_items(&select.items, scope)?;
    let where_bound = select.selection.as_ref().map(|w| bind(w, scope)).transpose().map_err(in_clause("WHERE"))?;
    let where_bound = where_bound.map(|w| substitute_auto_is_null(ctx, w, scope));
    let order = bind_order(select, &items, scope).map_err(in_clause("ORDER BY"))?;
    let group_by: Vec<Expr> = select
        .group_by
        .iter()
        .map(|g| match bind_order_position(g, items.len()) {
            Some(Expr::Slot(i)) => Ok(items[i].expr.clone()),
            _ => bind(g, scope).or_else(|e| match g {
                Expr::Column { table: None, name } => {
                    items.iter().find(|it| it.column.name.eq_ignore_ascii_case(name)).map(|it| it.expr.clone()).ok_or(e)
                }
                _ => Err(e),
            }),
        })
        .collect::<SqlResult<_>>()
        .map_err(in_clause("GROUP BY"))?;
    if let Some(h) = &select.having {
        check_having_columns(h, scope, &items, &group_by)?;
    }
    let having =
        select.having.as_ref().map(|h| bind_having(h, scope, &items)).transpose().map_err(in_clause("HAVING"))?;
    check_row_operands(ctx, scope, &items, where_bound.as_ref(), &order, &group_by, having.as_ref())?;
    // An aggregate anywhere, ORDER BY included, groups the rows (into one
    // without GROUP BY).
    let aggregated = !group_by.is_empty()
        || items.iter().any(|i| has_aggregate(&i.expr))
        || having.as_ref().is_some_and(has_aggregate)
        || order.iter().any(|o| has_aggregate(&o.expr));
    if select.rollup && !select.order_by.is_empty() {
        return Err(SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of CUBE/ROLLUP and ORDER BY"));
    }
    if aggregated && ctx.session.sql_mode_has("ONLY_FULL_GROUP_BY") {
        check_full_group_by(scope, &items, &group_by, having.as_ref(), &order)?;
    }
    window::reject_in_clause(where_bound.as_ref())?;
    window::reject_in_clause(having.as_ref())?;
    group_by.iter().try_for_each(|g| window::reject_in_clause(Some(g)))?;
    let windowed = items.iter().map(|i| &i.expr).chain(order.iter().map(|o| &o.expr)).any(window::contains_window);
    if windowed {
        items
            .iter()
            .map(|i| &i.expr)
            .chain(order.iter().map(|o| &o.expr))
            .try_for_each(|e| window::check_types(e, &ctx.type_env(scope)))?;
        if ctx.window_blocks.borrow_mut().insert(select) {
            ctx.session.count(crate::session::StatusCounter::WindowFunctions, 1);
        }
    }
    Ok(Clauses { items, where_bound, order, group_by, having, aggregated, windowed })
}

/// ONLY_FULL_GROUP_BY, as MariaDB checks it: without GROUP BY no column
/// may be read outside an aggregate (select list, HAVING, ORDER BY: 1140);
/// with one, a select-list column outside an aggregate must be read by a
/// GROUP BY expression (1055). Subqueries are their own blocks.
fn check_full_group_by(
    scope: &[ScopeColumn],
    items: &[Item],
    group_by: &[Expr],
    having: Option<&Expr>,
    order: &[OrderBy],
) -> SqlResult<()> {
    let item_exprs = items.iter().map(|i| &i.expr);
    if group_by.is_empty() {
        let mut read = Vec::new();
        item_exprs
            .chain(having)
            .chain(order.iter().map(|o| &o.expr))
            .for_each(|e| slots_outside_aggregates(e, &mut read));
        return match read.is_empty() {
            true => Ok(()),
            false => Err(SqlError::new(
                ErrorCode::MIX_OF_GROUP_FUNC_AND_FIELDS,
                "Mixing of GROUP columns (MIN(),MAX(),COUNT(),...) with no GROUP columns is illegal if there is no GROUP BY clause",
            )),
        };
    }
    let mut grouped = Vec::new();
    group_by.iter().for_each(|g| slots_outside_aggregates(g, &mut grouped));
    let mut read = Vec::new();
    item_exprs.for_each(|e| slots_outside_aggregates(e, &mut read));
    match read.iter().find(|slot| !grouped.contains(slot)).and_then(|&slot| scope.get(slot)) {
        Some(c) => Err(SqlError::new(
            ErrorCode::WRONG_FIELD_WITH_GROUP,
            format!("'{}.{}.{}' isn't in GROUP BY", c.db, c.table, c.def.name),
        )),
        None => Ok(()),
    }
}

/// The scope slots `e` reads outside aggregates and window functions.
fn slots_outside_aggregates(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Slot(i) => out.push(*i),
        e if e.is_aggregate() || matches!(e, Expr::Window(_)) => {}
        e => e.for_each_child(&mut |child| slots_outside_aggregates(child, out)),
    }
}

/// Each clause of a query block wants values: a row anywhere in one is
/// refused before any row is read (see `row_shape`).
fn check_row_operands(
    ctx: &Ctx,
    scope: &[ScopeColumn],
    items: &[Item],
    where_bound: Option<&Expr>,
    order: &[OrderBy],
    group_by: &[Expr],
    having: Option<&Expr>,
) -> SqlResult<()> {
    let env = ctx.type_env(scope);
    items
        .iter()
        .map(|i| &i.expr)
        .chain(where_bound)
        .chain(group_by)
        .chain(having)
        .chain(order.iter().map(|o| &o.expr))
        .try_for_each(|e| crate::row_shape::check_scalar(e, &env))
}

/// ORDER BY bound: its items may name select-list aliases or positions.
pub(crate) fn bind_order(select: &Select, items: &[Item], scope: &[ScopeColumn]) -> SqlResult<Vec<OrderBy>> {
    select
        .order_by
        .iter()
        .map(|o| {
            let expr = match (&o.expr, bind_order_position(&o.expr, items.len())) {
                (_, Some(Expr::Slot(i))) => items[i].expr.clone(),
                (Expr::Column { table: None, name }, _) => match items.iter().find(|it| {
                    it.column.name.eq_ignore_ascii_case(name)
                        && bind(&o.expr, scope).ok().as_ref().and_then(slot_of).is_none()
                }) {
                    Some(it) => it.expr.clone(),
                    None => bind_order_expr(&o.expr, items, scope)?,
                },
                _ => bind_order_expr(&o.expr, items, scope)?,
            };
            Ok(OrderBy { expr, desc: o.desc })
        })
        .collect()
}

/// An ORDER BY expression bound over `scope`, where a column name the
/// scope does not have names a select-list item: MariaDB sorts `ORDER BY
/// x + 1` by the item aliased `x` (a table column of that name wins), but
/// not by an item that aggregates the groups (1247).
fn bind_order_expr(expr: &Expr, items: &[Item], scope: &[ScopeColumn]) -> SqlResult<Expr> {
    match expr {
        Expr::Column { table: None, name } => bind(expr, scope).or_else(|e| {
            let item = items.iter().find(|it| it.column.name.eq_ignore_ascii_case(name)).ok_or(e)?;
            match aggregates_groups(&item.expr) {
                true => Err(SqlError::new(
                    ErrorCode::ILLEGAL_REFERENCE,
                    format!("Reference '{name}' not supported (reference to group function)"),
                )),
                false => Ok(item.expr.clone()),
            }
        }),
        Expr::Column { .. } => bind(expr, scope),
        other => map_children(other, &mut |e| bind_order_expr(e, items, scope)),
    }
}

/// Whether `expr` has an aggregate of the query's groups outside any
/// window call.
fn aggregates_groups(expr: &Expr) -> bool {
    if expr.is_aggregate() {
        return true;
    }
    let mut found = false;
    if !matches!(expr, Expr::Window(_)) {
        expr.for_each_child(&mut |child| found = found || aggregates_groups(child));
    }
    found
}

/// Where a sort key's value is: in the output row (ORDER BY of a selected
/// expression, the usual case, sorts without a copy) or computed for the
/// sort alone.
pub(crate) enum SortKey {
    Output(usize),
    Extra(usize),
}

/// Maps each ORDER BY expression to an output column equal to it, or to a
/// new extra key; returns the mapping and the extra keys' expressions.
pub(crate) fn split_sort_keys(order: &[Expr], outputs: &[Expr]) -> (Vec<SortKey>, Vec<Expr>) {
    let mut extra = Vec::new();
    let keys = order
        .iter()
        .map(|e| match outputs.iter().position(|o| o == e) {
            Some(i) => SortKey::Output(i),
            None => {
                extra.push(e.clone());
                SortKey::Extra(extra.len() - 1)
            }
        })
        .collect();
    (keys, extra)
}

impl SortKey {
    pub(crate) fn value<'a>(&self, (extra, output): &'a KeyedRow) -> Option<&'a Value> {
        match self {
            SortKey::Output(i) => output.get(*i),
            SortKey::Extra(i) => extra.get(*i),
        }
    }

    /// The values of `keys` in `row`, for an external sort.
    pub(crate) fn values(keys: &[SortKey], row: &KeyedRow) -> Vec<Value> {
        keys.iter().map(|k| k.value(row).cloned().unwrap_or(Value::Null)).collect()
    }
}

fn cmp_sort_keys(a: &KeyedRow, b: &KeyedRow, keys: &[SortKey], orders: &[KeyOrder]) -> Ordering {
    keys.iter()
        .zip(orders)
        .map(|(key, o)| match (key.value(a), key.value(b)) {
            (Some(x), Some(y)) => cmp_key(x, y, *o),
            _ => Ordering::Equal,
        })
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

/// Evaluates the select list and the extra sort keys of each row.
fn project(ctx: &Ctx, rows: Vec<Vec<Value>>, outputs: &[Expr], extra_keys: &[Expr]) -> SqlResult<Vec<KeyedRow>> {
    let movable = movable_slots(outputs, extra_keys);
    rows.into_iter()
        .map(|mut row| {
            let keys: Vec<Value> = extra_keys.iter().map(|e| ctx.eval(e, &row)).collect::<SqlResult<_>>()?;
            Ok((keys, project_row(ctx, &mut row, outputs, &movable)?))
        })
        .collect()
}

/// For each of `outputs`, the row slot whose value it takes rather than
/// copies: a column read exactly once by `outputs` and `extra_keys`, as a
/// plain select-list item. Most result values are such columns. None is
/// moved when a subquery is among them: a correlated one reads the outer
/// row by column name, past any slot, and must find every value there.
pub(crate) fn movable_slots(outputs: &[Expr], extra_keys: &[Expr]) -> Vec<Option<usize>> {
    if outputs.iter().chain(extra_keys).any(has_subquery) {
        return vec![None; outputs.len()];
    }
    let mut reads: HashMap<usize, usize> = HashMap::new();
    for e in outputs.iter().chain(extra_keys) {
        visit(e, &mut |e| {
            if let Expr::Slot(i) = e {
                *reads.entry(*i).or_default() += 1;
            }
        });
    }
    outputs
        .iter()
        // A plain column (seen through its collation) read once is moved.
        .map(|e| slot_of(e).filter(|i| reads.get(i) == Some(&1)))
        .collect()
}

/// The select list over `row`, taking the values of the `movable` slots
/// (see [`movable_slots`]) out of it.
pub(crate) fn project_row(
    ctx: &Ctx,
    row: &mut [Value],
    outputs: &[Expr],
    movable: &[Option<usize>],
) -> SqlResult<Vec<Value>> {
    outputs
        .iter()
        .zip(movable)
        .map(|(e, slot)| match slot {
            Some(i) => Ok(row.get_mut(*i).map(std::mem::take).unwrap_or(Value::Null)),
            None => ctx.eval(e, row),
        })
        .collect()
}

/// An unknown column's 1054 names the clause it is in, as MariaDB's does
/// (`bind` names the select list, 'SELECT').
pub(crate) fn in_clause(clause: &'static str) -> impl Fn(SqlError) -> SqlError {
    move |e| match e.message.rsplit_once(" in '") {
        Some((head, _)) if e.code == ErrorCode::BAD_FIELD => {
            SqlError::new(ErrorCode::BAD_FIELD, format!("{head} in '{clause}'"))
        }
        _ => e,
    }
}

/// HAVING sees the select list and the GROUP BY: a column of the query's
/// tables that is in neither (and not inside an aggregate) is 1054, as
/// MariaDB resolves it.
fn check_having_columns(h: &Expr, scope: &[ScopeColumn], items: &[Item], group_by: &[Expr]) -> SqlResult<()> {
    match h {
        Expr::Column { table: None, name } if items.iter().any(|i| i.column.name.eq_ignore_ascii_case(name)) => Ok(()),
        Expr::Column { name, .. } => match bind(h, scope) {
            // An outer query's column binds to its value.
            Ok(Expr::Literal(_)) => Ok(()),
            Ok(bound) if items.iter().any(|i| i.expr == bound) || group_by.contains(&bound) => Ok(()),
            Ok(_) => {
                let shown = match h {
                    Expr::Column { table: Some(t), .. } => format!("{t}.{name}"),
                    _ => name.clone(),
                };
                Err(SqlError::bad_field(&shown, "HAVING"))
            }
            // Not a column: the binding proper rejects it.
            Err(_) => Ok(()),
        },
        e if e.is_aggregate() => Ok(()),
        other => {
            let mut outcome = Ok(());
            other.for_each_child(&mut |child| {
                if outcome.is_ok() {
                    outcome = check_having_columns(child, scope, items, group_by);
                }
            });
            outcome
        }
    }
}

/// The groups of `rows` (first row, aggregate values), with WITH ROLLUP's
/// super-aggregate rows among them: the columns of the GROUP BY values a
/// super-aggregate row is not grouped by read NULL in it.
fn grouped_rows(
    ctx: &Ctx,
    rows: &[Vec<Value>],
    group_by: &[Expr],
    aggs: &[Expr],
    rollup: bool,
) -> SqlResult<Vec<(Vec<Value>, Vec<Value>)>> {
    if !rollup {
        return crate::aggregate::group(ctx, rows, group_by, aggs);
    }
    let rows = crate::aggregate::group_rollup(ctx, rows, group_by, aggs)?;
    Ok(rows
        .into_iter()
        .map(|(mut first_row, agg_values, kept)| {
            let (mut kept_slots, mut rolled_up) = (Vec::new(), Vec::new());
            group_by[..kept].iter().for_each(|g| slots_outside_aggregates(g, &mut kept_slots));
            group_by[kept..].iter().for_each(|g| slots_outside_aggregates(g, &mut rolled_up));
            for slot in rolled_up.into_iter().filter(|s| !kept_slots.contains(s)) {
                if let Some(v) = first_row.get_mut(slot) {
                    *v = Value::Null;
                }
            }
            (first_row, agg_values)
        })
        .collect())
}

/// Every key an index hint names exists in the table (1176 otherwise,
/// naming the table by its alias as MariaDB does).
fn check_index_hints(entry: &TableEntry, hints: &[String], alias: &str) -> SqlResult<()> {
    let exists = |hint: &String| {
        entry.def.indexes.iter().any(|i| {
            if i.primary {
                hint.eq_ignore_ascii_case("PRIMARY")
            } else {
                i.name.eq_ignore_ascii_case(hint)
            }
        })
    };
    match hints.iter().find(|h| !exists(h)) {
        Some(missing) => Err(SqlError::new(
            ErrorCode::KEY_DOES_NOT_EXISTS,
            format!("Key '{missing}' doesn't exist in table '{alias}'"),
        )),
        None => Ok(()),
    }
}

/// The rows of `rows` for which `condition` is true.
fn filter_rows(ctx: &Ctx, rows: Vec<Vec<Value>>, condition: &Expr) -> SqlResult<Vec<Vec<Value>>> {
    let mut kept = Vec::with_capacity(rows.len());
    for row in rows {
        if ctx.test(condition, &row)? {
            kept.push(row);
        }
    }
    Ok(kept)
}

fn bind_having(h: &Expr, scope: &[ScopeColumn], items: &[Item]) -> SqlResult<Expr> {
    match h {
        Expr::Column { table: None, name } => match bind(h, scope) {
            Ok(e) => Ok(e),
            Err(err) => {
                items.iter().find(|i| i.column.name.eq_ignore_ascii_case(name)).map(|i| i.expr.clone()).ok_or(err)
            }
        },
        Expr::Column { .. } => bind(h, scope),
        other => map_children(other, &mut |e| bind_having(e, scope, items)),
    }
}

/// Every ON condition binds over the tables up to its own, checked before
/// any row is read (`join_level` binds each where it runs it): an unknown
/// column is an error even when a table is empty.
fn check_join_conditions(sources: &[Source]) -> SqlResult<()> {
    for level in 0..sources.len() {
        if let Some(on) = &sources[level].on {
            let scope: Vec<ScopeColumn> = sources[..=level].iter().flat_map(|s| s.columns.iter().cloned()).collect();
            bind(on, &scope).map_err(in_clause("ON"))?;
        }
    }
    Ok(())
}

/// Nested-loop join: extends `prefix` with rows of `sources[level]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn join_level(
    ctx: &Ctx,
    sources: &[Source],
    level: usize,
    prefix: Vec<Value>,
    conds: &[Expr],
    order: Option<&[OrderBy]>,
    sorted_by_index: &std::cell::Cell<bool>,
    emit: &mut RowSink,
) -> SqlResult<bool> {
    let Some(source) = sources.get(level) else {
        return emit(prefix, None);
    };
    let last = level + 1 == sources.len();
    let on = source.on.as_ref().map(|on| {
        let scope: Vec<ScopeColumn> = sources[..=level].iter().flat_map(|s| s.columns.iter().cloned()).collect();
        bind(on, &scope).map_err(in_clause("ON"))
    });
    let on = on.transpose()?;
    let mut usable: Vec<Expr> = Vec::new();
    if let Some(on) = &on {
        access_conjuncts(on, &mut usable);
    }
    // WHERE conjuncts may drive access unless this table is NULL-extended.
    if source.kind != JoinKind::Left {
        usable.extend(
            conds.iter().filter(|c| max_slot(c).is_none_or(|m| m < source.offset + source.columns.len())).cloned(),
        );
    }
    let mut matched = false;
    let mut keep_going = true;
    let mut visit_row = |ck: Option<&[u8]>, mut row: Vec<Value>| -> SqlResult<bool> {
        if source.row_key {
            row.push(ck.map_or(Value::Null, |k| Value::Bytes(k.to_vec())));
        }
        let combined = if prefix.is_empty() {
            row
        } else {
            let mut combined = prefix.clone();
            combined.extend(row);
            combined
        };
        if let Some(on) = &on {
            if !ctx.test(on, &combined)? {
                return Ok(true);
            }
        }
        matched = true;
        keep_going = if last {
            emit(combined, ck)?
        } else {
            join_level(ctx, sources, level + 1, combined, conds, None, &std::cell::Cell::new(false), emit)?
        };
        Ok(keep_going)
    };
    match (&source.entry, &source.rows) {
        (Some(entry), _) => {
            let (access, in_order) = choose_access(ctx, source, &usable, &prefix, order)?;
            sorted_by_index.set(in_order && order.is_some());
            scan_table(ctx, entry, &access, source.wanted.as_deref(), &mut |ck, row| visit_row(Some(ck), row))?;
        }
        (None, Some(rows)) => {
            for row in rows {
                if !visit_row(None, row.clone())? {
                    break;
                }
            }
        }
        (None, None) => {}
    }
    if !matched && source.kind == JoinKind::Left && keep_going {
        let mut combined = prefix;
        combined.extend(std::iter::repeat_n(Value::Null, source.columns.len()));
        keep_going = if last {
            emit(combined, None)?
        } else {
            join_level(ctx, sources, level + 1, combined, conds, None, &std::cell::Cell::new(false), emit)?
        };
    }
    Ok(keep_going)
}

/// The name of the hidden column that holds a row's clustered key: no
/// identifier a statement can write contains NUL.
const ROW_KEY_COLUMN: &str = "\0row key";

/// A multi-table UPDATE / DELETE's FROM, resolved, each base table's
/// columns followed by the hidden column of its rows' clustered keys (NULL
/// where an outer join found no row), so the statement can lock and change
/// the very rows the join matched.
pub(crate) fn resolve_with_row_keys(ctx: &Ctx, from: &[Join]) -> SqlResult<Vec<Source>> {
    let mut sources = resolve_sources(ctx, from)?;
    let mut offset = 0;
    for source in &mut sources {
        source.offset = offset;
        if let (Some(entry), Some(first)) = (&source.entry, source.columns.first()) {
            let def = ColumnDef { name: ROW_KEY_COLUMN.to_string(), nullable: true, ..first.def.clone() };
            source.columns.push(ScopeColumn::new(
                source.alias.clone(),
                entry.def.db.clone(),
                entry.def.name.clone(),
                def,
            ));
            source.row_key = true;
        }
        offset += source.columns.len();
    }
    Ok(sources)
}

/// Runs the join of `sources` (see [`resolve_with_row_keys`]), calling
/// `emit` with each joined row `condition` (bound to their columns) accepts.
pub(crate) fn join_matches(
    ctx: &Ctx,
    sources: &[Source],
    condition: Option<&Expr>,
    emit: &mut dyn FnMut(Vec<Value>) -> SqlResult<()>,
) -> SqlResult<()> {
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    let mut conds = Vec::new();
    if let Some(c) = condition {
        access_conjuncts(c, &mut conds);
    }
    let mut accepted = 0;
    let mut sink = |row: Vec<Value>, _: Option<&[u8]>| -> SqlResult<bool> {
        ctx.rownum.set(accepted + 1);
        if let Some(c) = condition {
            if !ctx.test(c, &row)? {
                return Ok(true);
            }
        }
        accepted += 1;
        emit(row)?;
        Ok(true)
    };
    ctx.in_scope(&scope, || {
        join_level(ctx, sources, 0, Vec::new(), &conds, None, &std::cell::Cell::new(false), &mut sink)
    })
    .map(|_| ())
}

/// The locking read a statement asks for: FOR UPDATE / LOCK IN SHARE MODE
/// on the statement, on a part of its UNION or inside a derived table
/// (`SELECT * FROM (SELECT ... UNION SELECT ... FOR UPDATE) t` locks what
/// it reads, as in MariaDB).
pub(crate) fn requested_lock(select: &Select) -> Option<LockMode> {
    let in_derived = |join: &Join| match &join.factor {
        TableFactor::Derived { query, .. } => requested_lock(query),
        _ => None,
    };
    select
        .lock
        .or_else(|| select.from.iter().find_map(in_derived))
        .or_else(|| select.union.as_ref().and_then(|(_, next)| requested_lock(next)))
}

impl Session {
    /// SELECT as a client sees it.
    pub fn select_result(&self, ctx: &Ctx, select: &Select) -> SqlResult<QueryResult> {
        if let Some(lock) = requested_lock(select) {
            *ctx.lock_mode.borrow_mut() = Some(match lock {
                LockMode::Share => crate::locks::LockMode::Shared,
                LockMode::Update => crate::locks::LockMode::Exclusive,
            });
        }
        let (columns, rows) = run_select(ctx, select)?;
        Ok(QueryResult::Rows { columns, rows })
    }
}

impl Session {
    /// Result columns of a statement without running it (COM_STMT_PREPARE).
    pub fn describe(&mut self, stmt: &Statement) -> SqlResult<Vec<ResultColumn>> {
        let Statement::Select(select) = stmt else { return Ok(Vec::new()) };
        let view = self.engine.store.snapshot();
        let txn = Txn::new(0, IsolationLevel::RepeatableRead, true, false);
        let ctx = Ctx::new(self, &txn, view, &[]);
        let sources = resolve_sources(&ctx, &select.from)?;
        let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
        Ok(expand_items(&select.items, &scope)?
            .into_iter()
            .map(|item| match item.expr {
                ref e if slot_of(e).is_some() => item.column,
                Expr::Aggregate { func: AggFunc::Count, .. } => ResultColumn::int(&item.column.name),
                _ => ResultColumn::text(&item.column.name),
            })
            .collect())
    }

    /// A view's columns, as running its query yields them.
    pub fn view_columns(&self, view: &crate::view::ViewEntry) -> SqlResult<Vec<ColumnDef>> {
        let snapshot = self.engine.store.snapshot();
        let txn = Txn::new(0, IsolationLevel::RepeatableRead, true, false);
        let ctx = Ctx::new(self, &txn, snapshot, &[]);
        let (columns, _) = run_view(&ctx, view)?;
        Ok(columns.into_iter().map(|c| ColumnDef { name: c.name, ..c.def }).collect())
    }

    /// Columns of a table (COM_FIELD_LIST).
    pub fn describe_table(&self, name: &ObjectName) -> SqlResult<Vec<ResultColumn>> {
        let entry = self.table_entry(name)?;
        Ok(table_columns(&entry, &entry.def.name).iter().map(|c| scope_result_column(c, &c.def.name)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot_is(slot: usize, n: i64) -> Expr {
        Expr::Binary(BinOp::Eq, Box::new(Expr::Slot(slot)), Box::new(Expr::Literal(Value::Int(n))))
    }

    fn and(l: Expr, r: Expr) -> Expr {
        Expr::Binary(BinOp::And, Box::new(l), Box::new(r))
    }

    fn or(l: Expr, r: Expr) -> Expr {
        Expr::Binary(BinOp::Or, Box::new(l), Box::new(r))
    }

    #[test]
    fn an_or_gives_access_the_conjuncts_all_its_branches_repeat() {
        // (s0 = 1 AND s1 = 2 AND s2 = 3) OR (s1 = 2 AND s0 = 1) OR (s0 = 1 AND (s1 = 2 AND s3 = 4))
        let first = and(and(slot_is(0, 1), slot_is(1, 2)), slot_is(2, 3));
        let second = and(slot_is(1, 2), slot_is(0, 1));
        let third = and(slot_is(0, 1), and(slot_is(1, 2), slot_is(3, 4)));
        let cond = and(slot_is(5, 6), or(or(first, second), third));
        let mut conds = Vec::new();
        access_conjuncts(&cond, &mut conds);
        assert_eq!(conds.len(), 4, "{conds:?}");
        assert_eq!(conds[0], slot_is(5, 6));
        assert!(matches!(conds[1], Expr::Binary(BinOp::Or, ..)));
        assert_eq!(conds[2..], [slot_is(0, 1), slot_is(1, 2)]);
    }

    #[test]
    fn an_or_without_a_common_conjunct_gives_nothing_more() {
        let cond = or(and(slot_is(0, 1), slot_is(1, 2)), slot_is(1, 3));
        let mut conds = Vec::new();
        access_conjuncts(&cond, &mut conds);
        assert_eq!(conds, [cond]);
    }
}
