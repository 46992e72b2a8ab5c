//! Multi-table UPDATE and DELETE: the join of FROM runs once over the
//! statement's read view; every row of a target table it matches changes
//! at most once, however many joined rows match it. As in MariaDB, each
//! assignment reads the joined row as it was read (not values other
//! assignments of the statement set), and the tables' changes are applied
//! table by table in FROM order, so the binlog holds one run of row
//! events per table, as MariaDB's multi-update writes them.
//!
//! Each target row is then locked and re-read (a "current read"); if it
//! changed since the join read it, its assignments are evaluated again over
//! the current version.

use crate::ast::*;
use crate::catalog::TableEntry;
use crate::dml::{apply_row_update, assigned_default, delete_row_firing, finish_row, local_now, with_ctx};
use crate::locks::LockMode;
use crate::rows;
use crate::select::{self, bind, lock_timeout, Source};
use crate::session::{QueryResult, Session};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// One table of the join the statement writes.
struct Target {
    entry: Arc<TableEntry>,
    alias: String,
    /// Where its columns start in a joined row; its hidden key column
    /// follows them.
    offset: usize,
    /// Its rows the join matched, in the order first met, each with the
    /// joined row that matched it first.
    rows: Vec<(Vec<u8>, Vec<Value>)>,
    seen: HashSet<Vec<u8>>,
}

impl Target {
    fn of(source: &Source, statement: &str) -> SqlResult<Target> {
        // A view or derived table: its rows are computed, not stored.
        match &source.entry {
            Some(entry) if source.row_key => Ok(Target {
                entry: entry.clone(),
                alias: source.alias.clone(),
                offset: source.offset,
                rows: Vec::new(),
                seen: HashSet::new(),
            }),
            _ => Err(SqlError::new(
                ErrorCode::NON_UPDATABLE_TABLE,
                format!("The target table {} of the {statement} is not updatable", source.alias),
            )),
        }
    }

    fn is_table(&self, other: &Target) -> bool {
        (&self.entry.def.db, &self.entry.def.name) == (&other.entry.def.db, &other.entry.def.name)
    }

    fn width(&self) -> usize {
        self.entry.def.columns.len()
    }

    /// Notes the row of this table in `joined`, unless the join NULL-
    /// extended it or met it before.
    fn note(&mut self, joined: &[Value]) {
        let Value::Bytes(key) = &joined[self.offset + self.width()] else { return };
        if self.seen.insert(key.clone()) {
            self.rows.push((key.clone(), joined.to_vec()));
        }
    }
}

/// Locks the row `key` of `table` and reads its current version (`None`:
/// deleted meanwhile).
fn lock_current(session: &mut Session, table: &TableEntry, key: &[u8]) -> SqlResult<Option<Vec<Value>>> {
    let timeout = lock_timeout(session);
    let guard = session.guard().clone();
    let engine = session.engine.clone();
    let txn_id = session.txn().id;
    engine.locks.lock(txn_id, key, LockMode::Exclusive, timeout, &guard)?;
    let view = engine.store.snapshot();
    let Some(bytes) = session.txn().get(&view, key)? else { return Ok(None) };
    let mut row = rows::decode(table, &bytes)?;
    rows::show_in_zone(table, &mut row, rows::zone_for(table, session));
    Ok(Some(row))
}

/// An assignment bound: target table (index into the targets), column,
/// value over the joined row (`Expr::Default` for DEFAULT).
type Assignment = (usize, usize, Expr);

pub(crate) fn update(session: &mut Session, upd: &MultiUpdate, params: &[Value]) -> SqlResult<QueryResult> {
    let (mut targets, assignments, scope) = with_ctx(session, params, |ctx| {
        let sources = select::resolve_with_row_keys(ctx, &upd.from)?;
        let scope: Vec<select::ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
        // (source, column, value); the targets are those sources.
        let mut bound: Vec<Assignment> = Vec::new();
        for (table, column, value) in &upd.assignments {
            let (source, col) = assigned_column(&sources, table.as_deref(), column)?;
            let value = match value {
                Expr::Default => Expr::Default,
                value => crate::eval::assigned(bind(value, &scope)?, &sources[source].columns[col].def.ty),
            };
            bound.push((source, col, value));
        }
        // Applied in FROM order, whatever order SET names them in.
        let mut written: Vec<usize> = bound.iter().map(|a| a.0).collect();
        written.sort_unstable();
        written.dedup();
        let mut targets: Vec<Target> =
            written.iter().map(|&s| Target::of(&sources[s], "UPDATE")).collect::<SqlResult<_>>()?;
        refuse_unsafe(ctx, upd.limit.is_some())?;
        for a in &mut bound {
            a.0 = written.iter().position(|&s| s == a.0).unwrap_or_default();
        }
        refuse_key_conflict(&targets, &bound)?;
        for row in joined_rows(ctx, &sources, &scope, &upd.selection, &upd.order_by, &upd.limit)? {
            targets.iter_mut().for_each(|t| t.note(&row));
        }
        Ok((targets, bound, scope))
    })?;
    let strict = session.strict() && !upd.ignore;
    let (mut matched, mut changed) = (0u64, 0u64);
    for (t, target) in targets.iter_mut().enumerate() {
        let mine: Vec<&Assignment> = assignments.iter().filter(|a| a.0 == t).collect();
        for (key, mut joined) in std::mem::take(&mut target.rows) {
            let Some(current) = lock_current(session, &target.entry, &key)? else { continue };
            matched += 1;
            session.warning_row.set(matched);
            // A newer version than the join read: assign over it.
            joined.splice(target.offset..target.offset + target.width(), current.iter().cloned());
            let new = with_ctx(session, params, |ctx| {
                let mut new = current.clone();
                for (_, col, value) in &mine {
                    new[*col] = match value {
                        Expr::Default => assigned_default(ctx.session, &target.entry, *col, &new)?,
                        e => ctx.eval_in(&scope, e, &joined)?,
                    };
                }
                let table = &target.entry;
                for (i, c) in table.def.columns.iter().enumerate() {
                    if c.on_update_current_timestamp && !mine.iter().any(|a| a.1 == i) && new != current {
                        new[i] = Value::DateTime(local_now(ctx));
                    }
                }
                let new = finish_row(strict, ctx, table, new)?;
                let violation = crate::check::violation(ctx, table, &new)?;
                Ok((new, violation))
            })?;
            if apply_row_update(session, &target.entry, &key, current, new, upd.ignore, |_, _| Ok(()))? {
                changed += 1;
            }
        }
    }
    Ok(QueryResult::Ok {
        affected_rows: changed,
        last_insert_id: 0,
        info: format!("Rows matched: {matched}  Changed: {changed}  Warnings: {}", session.warning_count()),
    })
}

/// 1706: a table written under two aliases may not have its primary key
/// changed through either (the two changes of one row could disagree on
/// where the row lives).
fn refuse_key_conflict(targets: &[Target], assignments: &[Assignment]) -> SqlResult<()> {
    for (i, first) in targets.iter().enumerate() {
        for (j, second) in targets.iter().enumerate().skip(i + 1) {
            if !first.is_table(second) {
                continue;
            }
            let key_changed = assignments.iter().any(|(t, col, _)| {
                (*t == i || *t == j) && first.entry.def.primary_key().is_some_and(|pk| pk.columns.contains(col))
            });
            if key_changed {
                return Err(SqlError::new(
                    ErrorCode::MULTI_UPDATE_KEY_CONFLICT,
                    format!(
                        "Primary key/partition key update is not allowed since the table is updated both as '{}' and '{}'",
                        first.alias, second.alias
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The column an assignment's `[table.]column` names: (source, column).
fn assigned_column(sources: &[Source], table: Option<&str>, column: &str) -> SqlResult<(usize, usize)> {
    let mut found = Vec::new();
    for (s, source) in sources.iter().enumerate().filter(|(_, s)| table.is_none_or(|t| t == s.alias)) {
        let named = |c: &select::ScopeColumn| c.def.name.eq_ignore_ascii_case(column) && (table.is_some() || !c.merged);
        found.extend(source.columns.iter().position(named).map(|c| (s, c)));
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            let shown = table.map_or(column.to_string(), |t| format!("{t}.{column}"));
            Err(SqlError::bad_field(&shown, "SET"))
        }
        _ => Err(SqlError::new(ErrorCode::NON_UNIQ, format!("Column '{column}' in SET is ambiguous"))),
    }
}

/// The joined rows WHERE accepts, in ORDER BY's order, the first LIMIT.
fn joined_rows(
    ctx: &select::Ctx,
    sources: &[Source],
    scope: &[select::ScopeColumn],
    selection: &Option<Expr>,
    order_by: &[OrderBy],
    limit: &Option<Expr>,
) -> SqlResult<Vec<Vec<Value>>> {
    let condition = selection.as_ref().map(|w| bind(w, scope)).transpose()?;
    crate::dml::reject_aggregate(condition.as_ref())?;
    let limit = crate::dml::limit_rows(ctx, limit)?;
    let mut joined = Vec::new();
    select::join_matches(ctx, sources, condition.as_ref(), &mut |row| {
        joined.push(row);
        Ok(())
    })?;
    let order: Vec<OrderBy> =
        order_by.iter().map(|o| Ok(OrderBy { expr: bind(&o.expr, scope)?, desc: o.desc })).collect::<SqlResult<_>>()?;
    let mut joined = crate::dml::sort_rows(ctx, &order, joined, |r| r)?;
    if let Some(l) = limit {
        joined.truncate(l);
    }
    Ok(joined)
}

pub(crate) fn delete(session: &mut Session, del: &MultiDelete, params: &[Value]) -> SqlResult<QueryResult> {
    let mut targets = with_ctx(session, params, |ctx| {
        let sources = select::resolve_with_row_keys(ctx, &del.from)?;
        let scope: Vec<select::ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
        let mut written = Vec::new();
        for name in &del.targets {
            let source = sources.iter().position(|s| s.alias == name.name).ok_or_else(|| {
                SqlError::new(ErrorCode::UNKNOWN_TABLE, format!("Unknown table '{}' in MULTI DELETE", name.name))
            })?;
            written.push(source);
        }
        written.sort_unstable();
        written.dedup();
        let mut targets: Vec<Target> =
            written.iter().map(|&s| Target::of(&sources[s], "DELETE")).collect::<SqlResult<_>>()?;
        refuse_unsafe(ctx, false)?;
        for row in joined_rows(ctx, &sources, &scope, &del.selection, &[], &None)? {
            targets.iter_mut().for_each(|t| t.note(&row));
        }
        Ok(targets)
    })?;
    let mut deleted = 0u64;
    for target in &mut targets {
        for (key, _) in std::mem::take(&mut target.rows) {
            let Some(current) = lock_current(session, &target.entry, &key)? else { continue };
            delete_row_firing(session, &target.entry, &key, current)?;
            deleted += 1;
        }
    }
    Ok(QueryResult::ok(deleted))
}

/// `sql_safe_updates` and a multi-table statement without LIMIT: MariaDB
/// refuses it (1175) whenever the join reads some table whole, which with
/// two or more tables is the rule; OneLog refuses them all rather than
/// guess its optimizer's plan.
fn refuse_unsafe(ctx: &select::Ctx, limited: bool) -> SqlResult<()> {
    if ctx.session.safe_updates() && !limited {
        return Err(crate::dml::unsafe_update());
    }
    Ok(())
}
