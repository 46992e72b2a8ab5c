//! INSERT (multi-row, IGNORE, ON DUPLICATE KEY UPDATE), REPLACE, UPDATE and
//! DELETE (WHERE / ORDER BY / LIMIT), under row locks, into the
//! transaction's write set and binlog cache.
//!
//! Locking: every row a statement changes is locked exclusively by its
//! clustered key and re-read with a fresh view after the lock is granted
//! (a "current read", as InnoDB does), so concurrent updates never lose a
//! change. Unique values are locked before their duplicate check.

use crate::ast::trigger::{TriggerEvent, TriggerTiming};
use crate::ast::*;
use crate::catalog::TableEntry;
use crate::eval::{self, coerce_to_column, EvalEnv};
use crate::foreign_key::ParentChange;
use crate::locks::LockMode;
use crate::rows;
use crate::select::{self, access_conjuncts, bind, lock_timeout, Ctx, ScopeColumn};
use crate::session::{QueryResult, Session};
use crate::time_zone::session_zone;
use crate::txn::Txn;
use crate::view::ViewCheck;
use onelog_binlog::event::{RowChange, RowsKind};
use onelog_core::schema::ColumnDefault;
use onelog_core::{ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, TableDef, Temporal, Value};
use onelog_storage::key;
use std::sync::Arc;

pub fn execute(session: &mut Session, stmt: &Statement, params: &[Value]) -> SqlResult<QueryResult> {
    // A temporary table shadows a view of the same name.
    let writes_temporary = match stmt.written_table() {
        Some(name) => session.temp_table(name)?.is_some(),
        None => false,
    };
    let through_view = match writes_temporary {
        true => None,
        false => {
            let db = session.db.clone().unwrap_or_default();
            crate::view::write_through_views(&session.engine.catalog.read(), &db, stmt)?
        }
    };
    let (stmt, check) = match &through_view {
        Some(target) => (&target.statement, target.check.as_ref()),
        None => (stmt, None),
    };
    check_not_firing(session, stmt)?;
    match stmt {
        Statement::Insert(ins) => insert(session, ins, params, check),
        Statement::Update(upd) => update(session, upd, params, check),
        Statement::Delete(del) => delete(session, del, params),
        Statement::MultiUpdate(upd) => crate::multi_dml::update(session, upd, params),
        Statement::MultiDelete(del) => crate::multi_dml::delete(session, del, params),
        _ => Err(SqlError::internal("not a DML statement")),
    }
}

/// A trigger may not write a table whose statement fired it, nor a stored
/// function one its calling statement uses (1442).
pub(crate) fn check_not_firing(session: &Session, stmt: &Statement) -> SqlResult<()> {
    let mut in_use = session.trigger_tables.iter().chain(&session.caller_tables).peekable();
    let Some(name) = stmt.written_table().filter(|_| in_use.peek().is_some()) else { return Ok(()) };
    let db = session.resolve_db(name)?;
    if in_use.any(|(d, t)| d == db && t.eq_ignore_ascii_case(&name.name)) {
        return Err(SqlError::new(
            ErrorCode { number: 1442, sqlstate: "HY000" },
            format!(
                "Can't update table '{}' in stored function/trigger because it is already used by statement which invoked this stored function/trigger",
                name.name
            ),
        ));
    }
    Ok(())
}

fn table_entry(session: &Session, name: &ObjectName) -> SqlResult<Arc<TableEntry>> {
    session.table_entry(name)
}

/// Runs `f` with an evaluation context over the session's transaction and
/// the statement's read view (taken once per statement: rows the statement
/// changes are re-read under their locks, never through this view).
pub(crate) fn with_ctx<R>(
    session: &mut Session,
    params: &[Value],
    f: impl FnOnce(&Ctx) -> SqlResult<R>,
) -> SqlResult<R> {
    let view = match &session.stmt_view {
        Some(v) => v.clone(),
        None => {
            let v = session.engine.store.snapshot();
            session.stmt_view = Some(v.clone());
            v
        }
    };
    let txn = session.txn.take().ok_or_else(|| SqlError::internal("no transaction"))?;
    let result = {
        let ctx = Ctx::new(session, &txn, view, params);
        // ROWNUM() in a row a statement writes is that row's number (the
        // row its warnings name), as MariaDB counts them.
        ctx.rownum.set(session.warning_row.get());
        f(&ctx)
    };
    session.txn = Some(txn);
    result
}

pub(crate) fn now() -> Temporal {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    Temporal::from_unix_seconds(secs as i64)
}

/// CURRENT_TIMESTAMP as a default or ON UPDATE value: the session zone's
/// wall clock, which a TIMESTAMP column stores back as the real now.
pub(crate) fn local_now(env: &dyn EvalEnv) -> Temporal {
    session_zone(env).utc_to_local(&now())
}

/// The value a column gets when an INSERT omits it.
pub(crate) fn default_value(session: &Session, table: &TableEntry, col: usize) -> SqlResult<Value> {
    default_value_in_mode(session, table, col, session.strict())
}

/// `SET c = DEFAULT` over `row`: the column's default, its expression
/// computed over the row.
pub(crate) fn assigned_default(session: &Session, table: &TableEntry, col: usize, row: &[Value]) -> SqlResult<Value> {
    match &table.def.columns[col].default {
        Some(ColumnDefault::Expr(_)) => crate::default_expr::value(session, table, col, row),
        _ => default_value(session, table, col),
    }
}

/// [`default_value`] with a column that has none an error (`strict`) or
/// warning 1364.
pub(crate) fn default_value_in_mode(
    session: &Session,
    table: &TableEntry,
    col: usize,
    strict: bool,
) -> SqlResult<Value> {
    let c = &table.def.columns[col];
    Ok(match &c.default {
        Some(ColumnDefault::Value(v)) => v.clone(),
        Some(ColumnDefault::CurrentTimestamp) => Value::DateTime(local_now(session)),
        // Computed over the row by `default_expr::fill`, after the others.
        Some(ColumnDefault::Expr(_)) => Value::Null,
        None if c.nullable || c.auto_increment => Value::Null,
        None => {
            if strict {
                return Err(SqlError::new(
                    ErrorCode::NO_DEFAULT_FOR_FIELD,
                    format!("Field '{}' doesn't have a default value", c.name),
                ));
            }
            session.warn(1364, format!("Field '{}' doesn't have a default value", c.name));
            implicit_default(&c.ty)
        }
    })
}

pub(crate) fn implicit_default(ty: &ColumnType) -> Value {
    match ty {
        t if t.is_integer() => Value::Int(0),
        ColumnType::Decimal { .. } => Value::Decimal(0.into()),
        ColumnType::Float | ColumnType::Double => Value::Double(0.0),
        ColumnType::Date => Value::Date(Temporal::default()),
        ColumnType::DateTime { .. } | ColumnType::Timestamp { .. } => Value::DateTime(Temporal::default()),
        ColumnType::Time { .. } => Value::Time(0),
        ColumnType::Enum(labels) => Value::from_str(labels.first().map(String::as_str).unwrap_or("")),
        _ => Value::from_str(""),
    }
}

/// Coerces a full row for storage and checks NOT NULL, then computes its
/// generated columns from the stored values. `strict` is the session's
/// strict mode unless IGNORE turned errors into warnings.
pub(crate) fn finish_row(
    strict: bool,
    ctx: &dyn EvalEnv,
    table: &TableEntry,
    mut row: Vec<Value>,
) -> SqlResult<Vec<Value>> {
    for (i, c) in table.def.columns.iter().enumerate() {
        if c.generated.is_none() {
            row[i] = stored_value(strict, ctx, table, i, std::mem::take(&mut row[i]))?;
        }
    }
    crate::generated::fill(ctx, table, &mut row, &|i, v| stored_value(strict, ctx, table, i, v))?;
    Ok(row)
}

/// Column `i`'s value as a write stores it.
pub(crate) fn stored_value(
    strict: bool,
    ctx: &dyn EvalEnv,
    table: &TableEntry,
    i: usize,
    v: Value,
) -> SqlResult<Value> {
    let c = &table.def.columns[i];
    if v.is_null() {
        if c.nullable {
            return Ok(v);
        }
        let message = format!("Column '{}' cannot be null", c.name);
        if strict {
            return Err(SqlError::new(ErrorCode::COLUMN_CANNOT_BE_NULL, message));
        }
        ctx.warn(ErrorCode::COLUMN_CANNOT_BE_NULL.number, message);
        return Ok(implicit_default(&c.ty));
    }
    let _storing = crate::eval::coerce::storing_into(&table.def.db, &table.def.name);
    let v = coerce_to_column(v, c, strict, ctx)?;
    fit_charset(v, c, &table.def, strict, ctx)
}

/// Error 1048 for a NULL in a stored NOT NULL column of `row`.
fn refuse_null(table: &TableEntry, row: &[Value]) -> SqlResult<()> {
    let null_in_not_null = |(c, v): &(&ColumnDef, &Value)| !c.nullable && c.generated.is_none() && v.is_null();
    match table.def.columns.iter().zip(row).find(null_in_not_null) {
        Some((c, _)) => {
            Err(SqlError::new(ErrorCode::COLUMN_CANNOT_BE_NULL, format!("Column '{}' cannot be null", c.name)))
        }
        None => Ok(()),
    }
}

/// A text value whose characters the column's charset cannot all hold (a
/// latin1 column given '中'): 1366 in strict mode, otherwise each such
/// character becomes '?' with the warning, as MariaDB stores it.
fn fit_charset(v: Value, c: &ColumnDef, def: &TableDef, strict: bool, ctx: &dyn EvalEnv) -> SqlResult<Value> {
    let charset = c.collation.charset();
    let Value::Bytes(bytes) = &v else { return Ok(v) };
    let Some((at, _)) = charset.first_unrepresentable(bytes) else { return Ok(v) };
    // MariaDB shows up to 6 bytes from the first bad character, non-ASCII
    // ones as \xHH.
    let shown: String = bytes[at..]
        .iter()
        .take(6)
        .map(|b| if b.is_ascii() { char::from(*b).to_string() } else { format!("\\x{b:02X}") })
        .collect();
    let more = if bytes.len() - at > 6 { "..." } else { "" };
    let (db, table, row) = (&def.db, &def.name, ctx.warning_row());
    let message =
        format!("Incorrect string value: '{shown}{more}' for column `{db}`.`{table}`.`{}` at row {row}", c.name);
    if strict {
        return Err(SqlError::new(ErrorCode::TRUNCATED_WRONG_VALUE_FOR_FIELD, message));
    }
    ctx.warn(ErrorCode::TRUNCATED_WRONG_VALUE_FOR_FIELD.number, message);
    Ok(Value::Bytes(charset.fit(bytes).into_owned()))
}

/// A view's CHECK OPTION condition bound to the table's columns.
fn bind_check<'a>(table: &TableEntry, check: Option<&'a ViewCheck>) -> SqlResult<Option<(Expr, &'a ViewCheck)>> {
    let scope = select::table_columns(table, &table.def.name);
    check.map(|c| Ok((bind(&c.condition, &scope)?, c))).transpose()
}

/// Fails with 1369 when `row` is outside the view it is written through.
fn check_row(
    session: &mut Session,
    params: &[Value],
    check: &Option<(Expr, &ViewCheck)>,
    row: &[Value],
) -> SqlResult<()> {
    let Some((condition, view)) = check else { return Ok(()) };
    if with_ctx(session, params, |ctx| ctx.test(condition, row))? {
        Ok(())
    } else {
        Err(view.failed())
    }
}

fn insert(session: &mut Session, ins: &Insert, params: &[Value], check: Option<&ViewCheck>) -> SqlResult<QueryResult> {
    let table = table_entry(session, &ins.table)?;
    let check = bind_check(&table, check)?;
    let def = &table.def;
    let targets: Vec<usize> = if ins.columns.is_empty() {
        (0..def.columns.len()).collect()
    } else {
        ins.columns
            .iter()
            .map(|c| def.column_index(c).ok_or_else(|| SqlError::bad_field(c, "INSERT INTO")))
            .collect::<SqlResult<_>>()?
    };
    check_on_duplicate(&table, ins)?;
    // A NOT NULL column without a default that a BEFORE INSERT trigger may
    // set is left NULL until the triggers ran (see `insert_row`).
    let defer_missing = {
        let catalog = session.engine.catalog.read();
        !catalog.triggers_for(&def.db, &def.name, TriggerTiming::Before, TriggerEvent::Insert).is_empty()
    };
    // Build every candidate row first (expressions may read the table).
    let scope = select::table_columns(&table, &def.name);
    let candidates: Vec<(Vec<Value>, Vec<bool>)> = with_ctx(session, params, |ctx| {
        let source_rows: Vec<Vec<Value>> = match &ins.source {
            InsertSource::Values(rows) => (1..)
                .zip(rows)
                .map(|(row_number, r)| {
                    // `VALUES ()` with no column list: every column gets its default.
                    if r.is_empty() && ins.columns.is_empty() {
                        return Ok(Vec::new());
                    }
                    if r.len() != targets.len() {
                        return Err(SqlError::new(
                            ErrorCode::WRONG_VALUE_COUNT_ON_ROW,
                            format!("Column count doesn't match value count at row {row_number}"),
                        ));
                    }
                    ctx.rownum.set(row_number);
                    values_row(ctx, &table, &scope, &targets, r)
                })
                .collect::<SqlResult<_>>()?,
            InsertSource::Select(q) => select::run_select(ctx, q)?.1,
        };
        source_rows
            .into_iter()
            .enumerate()
            .map(|(n, values)| {
                let explicit_default: Vec<bool> = match &ins.source {
                    InsertSource::Values(rows) => rows[n].iter().map(|e| matches!(e, Expr::Default)).collect(),
                    InsertSource::Select(_) => vec![false; values.len()],
                };
                let mut row = vec![Value::Null; def.columns.len()];
                let mut given = vec![false; def.columns.len()];
                let explicit_default = if values.is_empty() { Vec::new() } else { explicit_default };
                let strict = ctx.session.strict() && !ins.ignore;
                for ((&col, v), is_default) in targets.iter().zip(values).zip(explicit_default) {
                    if !is_default {
                        crate::generated::check_assigned(ctx, &table, col, &v, strict)?;
                        row[col] = v;
                        given[col] = true;
                    }
                }
                let mut omitted = vec![false; def.columns.len()];
                for (col, g) in given.iter().enumerate() {
                    if !g && defer_missing && lacks_default(&table, col) {
                        omitted[col] = true;
                    } else if !g && n > 0 && lacks_default(&table, col) {
                        // MariaDB checks the columns an INSERT leaves out
                        // once: the first row warned or failed for this one.
                        row[col] = implicit_default(&def.columns[col].ty);
                    } else if !g {
                        // IGNORE makes a missing default a warning (1364).
                        let strict = ctx.session.strict() && !ins.ignore;
                        row[col] = default_value_in_mode(ctx.session, &table, col, strict)?;
                    }
                }
                crate::default_expr::fill(ctx.session, &table, &mut row, &|col| !given[col])?;
                Ok((row, omitted))
            })
            .collect()
    })?;
    let mut affected = 0u64;
    let mut generated: Option<u64> = None;
    let mut reported: Option<u64> = None;
    let mut written = Vec::new();
    let mut records = 0u64;
    let mut duplicates = 0u64;
    for (row_number, (row, omitted)) in (1..).zip(candidates) {
        session.txn().flush_rows_if_many()?;
        session.warning_row.set(row_number);
        check_row(session, params, &check, &row)?;
        let outcome = insert_row(session, &table, ins, row, &omitted, params)?;
        if outcome.affected > 0 && !table.def.is_transactional() {
            session.non_transactional_written.set(true);
        }
        // IGNORE: every row not written; otherwise the rows a duplicate
        // key turned into an update or a replacement (two affected rows).
        let duplicate = if ins.ignore { outcome.affected == 0 } else { outcome.affected >= 2 };
        records += u64::from(!outcome.failed_check);
        duplicates += u64::from(duplicate && !outcome.failed_check);
        affected += outcome.affected;
        generated = generated.or(outcome.generated);
        // MariaDB reports the last explicit value of a multi-row INSERT.
        reported = outcome.reported.or(reported);
        written.extend(outcome.written);
    }
    // LAST_INSERT_ID() follows generated values only; the OK packet also
    // reports an explicit AUTO_INCREMENT value or the row ODKU updated.
    if let Some(id) = generated {
        session.generated_insert_id(id);
    }
    if !ins.returning.is_empty() {
        return with_ctx(session, params, |ctx| select::returning(ctx, &table, &ins.returning, &written));
    }
    // MariaDB's OK carries `Records: ...` unless one row was given.
    let one_row = matches!(&ins.source, InsertSource::Values(rows) if rows.len() == 1);
    let info = if one_row { String::new() } else { records_info(session, records, duplicates) };
    Ok(QueryResult::Ok { affected_rows: affected, last_insert_id: generated.or(reported).unwrap_or(0), info })
}

/// The OK info of an INSERT of several rows (and of CREATE ... SELECT).
pub(crate) fn records_info(session: &Session, records: u64, duplicates: u64) -> String {
    format!("Records: {records}  Duplicates: {duplicates}  Warnings: {}", session.warning_count())
}

/// One row of `INSERT ... VALUES`, its expressions evaluated left to right.
/// As in MariaDB, a column named in a value reads the row being built: the
/// value assigned to it earlier in this row, else its default (the record
/// MariaDB starts each row from), so `VALUES (3, a+1)` gives 3, 4.
fn values_row(
    ctx: &Ctx,
    table: &TableEntry,
    scope: &[ScopeColumn],
    targets: &[usize],
    exprs: &[Expr],
) -> SqlResult<Vec<Value>> {
    // Built when the first value reads a column, from the values before it.
    let mut record: Option<Vec<Value>> = None;
    let mut values = Vec::with_capacity(exprs.len());
    for (expr, &col) in exprs.iter().zip(targets) {
        if matches!(expr, Expr::Default) {
            values.push(Value::Null);
            continue;
        }
        let bound = eval::assigned(bind(expr, scope)?, &table.def.columns[col].ty);
        let value = if select::reads_row(&bound) {
            let record = record.get_or_insert_with(|| {
                let mut record = starting_record(table);
                // DEFAULT leaves the record's default in place.
                let assigned = targets.iter().zip(exprs).zip(&values).filter(|((_, e), _)| !matches!(e, Expr::Default));
                for ((&col, _), value) in assigned {
                    record[col] = value.clone();
                }
                record
            });
            ctx.eval_in(scope, &bound, record)?
        } else {
            ctx.eval(&bound, &[])?
        };
        if let Some(record) = record.as_mut() {
            record[col] = value.clone();
        }
        values.push(value);
    }
    Ok(values)
}

/// The row MariaDB fills before assigning an INSERT's values: declared
/// literal defaults, NULL for a nullable column, else the type's zero.
fn starting_record(table: &TableEntry) -> Vec<Value> {
    let columns = &table.def.columns;
    columns
        .iter()
        .map(|c| match &c.default {
            Some(ColumnDefault::Value(v)) => v.clone(),
            _ if c.nullable => Value::Null,
            _ => implicit_default(&c.ty),
        })
        .collect()
}

/// What inserting one row did.
#[derive(Default)]
pub(crate) struct InsertOutcome {
    pub(crate) affected: u64,
    /// An AUTO_INCREMENT value this row generated and kept.
    pub(crate) generated: Option<u64>,
    /// The AUTO_INCREMENT value to report otherwise (explicit or updated).
    reported: Option<u64>,
    /// The row as written, for RETURNING (only when it asks).
    written: Option<Vec<Value>>,
    /// IGNORE skipped the row for a CHECK constraint (MariaDB counts it
    /// neither as a record nor as a duplicate).
    failed_check: bool,
}

#[derive(Clone, Copy)]
enum AutoId {
    None,
    Generated(u64),
    Explicit(u64),
}

/// Gives a generated AUTO_INCREMENT value back when its row was not
/// inserted (duplicate ignored or turned into an update), as InnoDB does
/// for a statement's own unused value.
fn give_back(table: &TableEntry, auto: AutoId) {
    if let AutoId::Generated(id) = auto {
        let mut next = table.auto_increment_next.lock();
        if *next == id + 1 {
            *next = id;
        }
    }
}

/// An AUTO_INCREMENT column's value as the counter counts it (0 for
/// NULL, negatives and non-integers).
pub(crate) fn auto_increment_value(value: &Value) -> u64 {
    match value {
        Value::Int(i) => (*i).max(0) as u64,
        Value::UInt(u) => *u,
        _ => 0,
    }
}

fn auto_value(table: &TableEntry, row: &[Value]) -> Option<u64> {
    let col = table.def.auto_increment_column()?;
    match &row[col] {
        Value::Int(i) if *i > 0 => Some(*i as u64),
        Value::UInt(u) => Some(*u),
        _ => None,
    }
}

/// Assigns AUTO_INCREMENT to a row that has no value for it; `None` when
/// the value it would generate is past the column type's largest.
fn assign_auto_increment(table: &TableEntry, row: &mut [Value]) -> Option<AutoId> {
    let Some(col) = table.def.auto_increment_column() else { return Some(AutoId::None) };
    let mut next = table.auto_increment_next.lock();
    let explicit = match &row[col] {
        Value::Int(i) if *i > 0 => Some(*i as u64),
        Value::UInt(u) if *u > 0 => Some(*u),
        Value::Bytes(b) => std::str::from_utf8(b).ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|v| *v > 0),
        Value::Decimal(d) if !d.is_sign_negative() && !d.is_zero() => d.trunc().to_string().parse().ok(),
        _ => None,
    };
    let column = &table.def.columns[col];
    match explicit {
        Some(v) => {
            *next = (*next).max(v.saturating_add(1));
            Some(AutoId::Explicit(v))
        }
        None if column.ty.is_integer()
            && i128::from(*next) > eval::coerce::int_range(&column.ty, column.unsigned).1 =>
        {
            None
        }
        None => {
            let id = *next;
            *next += 1;
            row[col] = if column.unsigned { Value::UInt(id) } else { Value::Int(id as i64) };
            Some(AutoId::Generated(id))
        }
    }
}

/// MariaDB's error for an AUTO_INCREMENT counter past its column's type,
/// whatever the sql_mode: 167 (HA_ERR_AUTOINC_ERANGE) with 1264's text.
fn auto_increment_out_of_range(session: &Session, table: &TableEntry) -> SqlError {
    let column = table.def.auto_increment_column().map_or("", |c| table.def.columns[c].name.as_str());
    let row = session.warning_row.get();
    SqlError::new(ErrorCode::AUTOINC_ERANGE, format!("Out of range value for column '{column}' at row {row}"))
}

/// Inserts one row (REPLACE, ON DUPLICATE KEY UPDATE and IGNORE
/// included), firing the table's triggers as MariaDB does: BEFORE INSERT
/// first, then the row's write with AFTER INSERT — or, for a duplicate,
/// DELETE triggers around REPLACE's deletion, UPDATE triggers around ON
/// DUPLICATE KEY UPDATE's update.
/// ON DUPLICATE KEY UPDATE's columns and expressions are checked before any
/// row is inserted, as MariaDB resolves them, so an unknown column is an
/// error even when no row conflicts.
fn check_on_duplicate(table: &TableEntry, ins: &Insert) -> SqlResult<()> {
    let scope = select::table_columns(table, &table.def.name);
    for (col, e) in &ins.on_duplicate {
        table.def.column_index(col).ok_or_else(|| SqlError::bad_field(col, "SET"))?;
        bind(e, &scope)?;
    }
    Ok(())
}

pub(crate) fn insert_row(
    session: &mut Session,
    table: &Arc<TableEntry>,
    ins: &Insert,
    mut row: Vec<Value>,
    omitted: &[bool],
    params: &[Value],
) -> SqlResult<InsertOutcome> {
    let before = TriggerTiming::Before;
    let assigned = crate::trigger::fire(session, table, before, TriggerEvent::Insert, None, Some(&mut row))?;
    // A NOT NULL column without a default that the INSERT left out waited
    // for the BEFORE INSERT triggers (see `insert`): unless one set it, it
    // is missing now, as in MariaDB.
    for (col, set) in assigned.into_iter().enumerate() {
        if !set && omitted.get(col).copied().unwrap_or(false) {
            row[col] = default_value_in_mode(session, table, col, session.strict() && !ins.ignore)?;
        }
    }
    insert_or_resolve(session, table, ins, row, params)
}

/// Fires `table`'s triggers (see `trigger::fire`). A BEFORE trigger that
/// changed the row has its generated columns computed again, as MariaDB
/// computes them after BEFORE triggers.
pub(crate) fn fire(
    session: &mut Session,
    table: &TableEntry,
    timing: TriggerTiming,
    event: TriggerEvent,
    old: Option<&[Value]>,
    new: Option<&mut Vec<Value>>,
) -> SqlResult<()> {
    let Some(new) = new else { return crate::trigger::fire(session, table, timing, event, old, None).map(|_| ()) };
    let assigned = crate::trigger::fire(session, table, timing, event, old, Some(new))?;
    if timing == TriggerTiming::Before && assigned.contains(&true) && crate::generated::any(table) {
        let strict = session.strict();
        with_ctx(session, &[], |ctx| {
            crate::generated::fill(ctx, table, new, &|i, v| stored_value(strict, ctx, table, i, v))
        })?;
    }
    Ok(())
}

/// A NOT NULL column without a default value.
fn lacks_default(table: &TableEntry, col: usize) -> bool {
    let c = &table.def.columns[col];
    c.default.is_none() && !c.nullable && !c.auto_increment
}

/// Whether `table` has triggers for `event` (at any timing).
pub(crate) fn has_triggers(session: &Session, table: &TableEntry, event: TriggerEvent) -> bool {
    let catalog = session.engine.catalog.read();
    [TriggerTiming::Before, TriggerTiming::After]
        .into_iter()
        .any(|timing| !catalog.triggers_for(&table.def.db, &table.def.name, timing, event).is_empty())
}

/// Writes a row whose BEFORE INSERT triggers ran, resolving a duplicate
/// as the statement says.
fn insert_or_resolve(
    session: &mut Session,
    table: &Arc<TableEntry>,
    ins: &Insert,
    mut row: Vec<Value>,
    params: &[Value],
) -> SqlResult<InsertOutcome> {
    let auto = assign_auto_increment(table, &mut row).ok_or_else(|| auto_increment_out_of_range(session, table))?;
    let strict = session.strict() && !ins.ignore;
    // MariaDB refuses a NULL for a NOT NULL column of a one-row INSERT
    // whatever the sql_mode; only IGNORE makes it a warning.
    let one_row = matches!(&ins.source, InsertSource::Values(rows) if rows.len() == 1);
    let checked = match one_row && !ins.ignore {
        true => refuse_null(table, &row),
        false => Ok(()),
    };
    let row = match checked.and_then(|_| with_ctx(session, params, |ctx| finish_row(strict, ctx, table, row))) {
        Ok(r) => r,
        Err(e) => {
            give_back(table, auto);
            return Err(e);
        }
    };
    if let Some(violation) = with_ctx(session, params, |ctx| crate::check::violation(ctx, table, &row))? {
        give_back(table, auto);
        if ins.ignore {
            session.warn(violation.code.number, violation.message);
            return Ok(InsertOutcome { failed_check: true, ..InsertOutcome::default() });
        }
        return Err(violation);
    }
    let zone = rows::zone_for(table, session);
    let stored = rows::stored_from_zone(table, &row, zone);
    let stored_row = stored.as_deref().unwrap_or(&row);
    let clustered = rows::new_clustered_key(table, stored_row);
    let Some((conflict_key, existing, index_name)) = find_conflict(session, table, &clustered, stored_row)? else {
        // InnoDB checks the constraints after taking the AUTO_INCREMENT
        // value: a refused row uses it up.
        crate::foreign_key::check_child_row(session, table, None, stored_row)?;
        let written = (!ins.returning.is_empty()).then(|| row.clone());
        let mut after = has_triggers(session, table, TriggerEvent::Insert).then(|| row.clone());
        let txn = session.txn();
        rows::write_row(txn, table, &clustered, None, stored.as_deref().unwrap_or(&row))?;
        txn.log_row(table, RowsKind::Write, RowChange::Insert(stored.unwrap_or(row)));
        if let Some(new) = after.as_mut() {
            fire(session, table, TriggerTiming::After, TriggerEvent::Insert, None, Some(new))?;
        }
        let (generated, reported) = match auto {
            AutoId::Generated(id) => (Some(id), None),
            AutoId::Explicit(id) => (None, Some(id)),
            AutoId::None => (None, None),
        };
        return Ok(InsertOutcome { affected: 1, generated, reported, written, ..InsertOutcome::default() });
    };
    if ins.replace {
        // MariaDB replaces a row that collides on its last unique key by
        // updating it in place: a replacement identical to that row
        // changes nothing, and counts one affected row, no deletion.
        // With DELETE triggers the row is deleted and inserted, as in
        // MariaDB, so that they fire.
        let deletes_fire = has_triggers(session, table, TriggerEvent::Delete);
        if existing == row && is_last_unique(table, &index_name) && !deletes_fire {
            let mut new = row.clone();
            fire(session, table, TriggerTiming::After, TriggerEvent::Insert, None, Some(&mut new))?;
            let reported = match auto {
                AutoId::Generated(id) | AutoId::Explicit(id) => Some(id),
                AutoId::None => None,
            };
            let written = (!ins.returning.is_empty()).then_some(row);
            return Ok(InsertOutcome { affected: 1, reported, written, ..InsertOutcome::default() });
        }
        fire(session, table, TriggerTiming::Before, TriggerEvent::Delete, Some(&existing), None)?;
        let deleted = deletes_fire.then(|| existing.clone());
        let stored_existing = rows::stored_from_zone(table, &existing, zone).unwrap_or(existing);
        crate::foreign_key::on_parent_change(session, table, &stored_existing, ParentChange::Delete)?;
        let txn = session.txn();
        rows::delete_row(txn, table, &conflict_key, &stored_existing);
        txn.log_row(table, RowsKind::Delete, RowChange::Delete(stored_existing));
        if let Some(old) = &deleted {
            fire(session, table, TriggerTiming::After, TriggerEvent::Delete, Some(old), None)?;
        }
        // The new row may still conflict on another unique key.
        let mut outcome = insert_or_resolve(session, table, ins, row, params)?;
        outcome.affected += 1;
        return Ok(outcome);
    }
    give_back(table, auto);
    if !ins.on_duplicate.is_empty() {
        let mut new = with_ctx(session, params, |ctx| {
            let scope = select::table_columns(table, &table.def.name);
            let mut updated = existing.clone();
            for (col, e) in &ins.on_duplicate {
                let idx = table.def.column_index(col).ok_or_else(|| SqlError::bad_field(col, "SET"))?;
                let bound = eval::assigned(bind(e, &scope)?, &table.def.columns[idx].ty);
                let r = eval::Row {
                    values: &updated,
                    params: ctx.params,
                    aggregates: &[],
                    insert_values: Some((&table.def.columns, &row)),
                };
                updated[idx] = eval::eval(&bound, &r, ctx)?;
                crate::generated::check_assigned(ctx, table, idx, &updated[idx], strict)?;
            }
            let updated = finish_row(strict, ctx, table, updated)?;
            match crate::check::violation(ctx, table, &updated)? {
                Some(violation) => Err(violation),
                None => Ok(updated),
            }
        })?;
        fire(session, table, TriggerTiming::Before, TriggerEvent::Update, Some(&existing), Some(&mut new))?;
        if new == existing {
            let mut unchanged = new;
            fire(session, table, TriggerTiming::After, TriggerEvent::Update, Some(&existing), Some(&mut unchanged))?;
            return Ok(InsertOutcome::default());
        }
        let reported = auto_value(table, &new);
        let written = (!ins.returning.is_empty()).then(|| new.clone());
        update_row_firing(session, table, &conflict_key, existing, new)?;
        return Ok(InsertOutcome { affected: 2, reported, written, ..InsertOutcome::default() });
    }
    let index = table.def.indexes.iter().find(|i| i.name == index_name);
    let err = match index {
        Some(i) => rows::duplicate_entry(i, &row),
        None => SqlError::new(ErrorCode::DUP_ENTRY, format!("Duplicate entry for key '{index_name}'")),
    };
    if ins.ignore {
        session.warn(err.code.number, err.message);
        return Ok(InsertOutcome::default());
    }
    Err(err)
}

/// Whether no unique index follows `name` in MariaDB's key order (the
/// primary key first, then the unique keys as declared).
fn is_last_unique(table: &TableEntry, name: &str) -> bool {
    let unique = table.def.indexes.iter().filter(|i| i.unique);
    let last = unique.clone().rfind(|i| !i.primary).or_else(|| unique.clone().find(|i| i.primary));
    last.is_some_and(|i| i.name == name)
}

/// A row that blocks an insert: (clustered key, its values, index name).
type Conflict = (Vec<u8>, Vec<Value>, String);

/// Locks and checks every unique key of `row` (stored form, see
/// [`rows::stored_from_zone`]); returns the conflicting row's (clustered
/// key, values as the session sees them, index name), if any. `own` is
/// excluded (an UPDATE's own row).
fn find_conflict(
    session: &mut Session,
    table: &TableEntry,
    clustered: &[u8],
    row: &[Value],
) -> SqlResult<Option<Conflict>> {
    find_conflict_excluding(session, table, clustered, row, None)
}

fn find_conflict_excluding(
    session: &mut Session,
    table: &TableEntry,
    clustered: &[u8],
    row: &[Value],
    own: Option<&[u8]>,
) -> SqlResult<Option<Conflict>> {
    let timeout = lock_timeout(session);
    let guard = session.guard().clone();
    let engine = session.engine.clone();
    let txn_id = session.txn().id;
    for index in table.def.indexes.iter().filter(|i| i.unique) {
        let probe = if index.primary { clustered.to_vec() } else { rows::index_key(table, index, row) };
        if !index.primary && index.columns.iter().any(|&c| row[c].is_null()) {
            continue; // NULLs never collide in a unique index.
        }
        engine.locks.lock(txn_id, &probe, LockMode::Exclusive, timeout, &guard)?;
        let view = engine.store.snapshot();
        let txn = session.txn();
        let found = if index.primary {
            txn.get(&view, &probe)?.map(|v| (probe.clone(), v))
        } else {
            let end = key::prefix_end(&probe);
            let mut hit = None;
            for kv in txn.scan(&view, &probe, end.as_deref(), false)? {
                let (_, ck) = kv?;
                if Some(&*ck) == own {
                    continue;
                }
                if let Some(v) = txn.get(&view, &ck)? {
                    hit = Some((ck.to_vec(), v));
                    break;
                }
            }
            hit
        };
        if let Some((ck, bytes)) = found {
            if Some(ck.as_slice()) == own {
                continue;
            }
            let mut existing = rows::decode(table, &bytes)?;
            rows::show_in_zone(table, &mut existing, rows::zone_for(table, session));
            return Ok(Some((ck, existing, index.name.clone())));
        }
    }
    Ok(None)
}

/// Writes an updated row (moving it if its primary key changed).
pub(crate) fn update_row(
    session: &mut Session,
    table: &Arc<TableEntry>,
    old_key: &[u8],
    old: Vec<Value>,
    new: Vec<Value>,
) -> SqlResult<()> {
    let zone = rows::zone_for(table, session);
    let stored_new = rows::stored_from_zone(table, &new, zone);
    let new_key = match table.def.primary_key() {
        Some(_) => rows::new_clustered_key(table, stored_new.as_deref().unwrap_or(&new)),
        None => old_key.to_vec(),
    };
    // Only a unique key whose columns change can start to collide.
    let unique_changed = table.def.indexes.iter().any(|i| i.unique && i.columns.iter().any(|&c| old[c] != new[c]));
    let conflict = if unique_changed {
        find_conflict_excluding(session, table, &new_key, stored_new.as_deref().unwrap_or(&new), Some(old_key))?
    } else {
        None
    };
    if let Some((_, _, index_name)) = conflict {
        let index = table.def.indexes.iter().find(|i| i.name == index_name);
        return Err(match index {
            Some(i) => rows::duplicate_entry(i, &new),
            None => SqlError::new(ErrorCode::DUP_ENTRY, "Duplicate entry"),
        });
    }
    let old = rows::stored_from_zone(table, &old, zone).unwrap_or(old);
    let new = stored_new.unwrap_or(new);
    // Constraints compare and cascade stored (UTC) values, as keys hold them.
    crate::foreign_key::check_child_row(session, table, Some(&old), &new)?;
    crate::foreign_key::on_parent_change(session, table, &old, ParentChange::Update(&new))?;
    let txn = session.txn();
    if new_key != old_key {
        rows::delete_row(txn, table, old_key, &old);
        rows::write_row(txn, table, &new_key, None, &new)?;
    } else {
        rows::write_row(txn, table, old_key, Some(&old), &new)?;
    }
    raise_auto_increment(table, &old, &new);
    txn.log_row(table, RowsKind::Update, RowChange::Update { before: old, after: new });
    Ok(())
}

/// An UPDATE that moves the AUTO_INCREMENT column past the counter moves
/// the counter, as InnoDB does, so the next generated value does not
/// collide with it. Recovery needs nothing more: it restarts the counter
/// from the table's largest value.
fn raise_auto_increment(table: &TableEntry, old: &[Value], new: &[Value]) {
    let Some(col) = table.def.auto_increment_column() else { return };
    if old[col] == new[col] {
        return;
    }
    if let Some(value) = auto_value(table, new) {
        let mut next = table.auto_increment_next.lock();
        *next = (*next).max(value.saturating_add(1));
    }
}

/// One matched row of an UPDATE (single- or multi-table) once its new
/// values and CHECK outcome are computed: a violation (a warning under
/// IGNORE), the BEFORE UPDATE triggers, `check`, the write and AFTER UPDATE.
/// Whether the row changed.
pub(crate) fn apply_row_update(
    session: &mut Session,
    table: &Arc<TableEntry>,
    key: &[u8],
    old: Vec<Value>,
    computed: (Vec<Value>, Option<SqlError>),
    ignore: bool,
    check: impl FnOnce(&mut Session, &[Value]) -> SqlResult<()>,
) -> SqlResult<bool> {
    let mut new = match computed {
        (_, Some(violation)) if ignore => {
            session.warn(violation.code.number, violation.message);
            return Ok(false);
        }
        (_, Some(violation)) => return Err(violation),
        (new, None) => new,
    };
    fire(session, table, TriggerTiming::Before, TriggerEvent::Update, Some(&old), Some(&mut new))?;
    if new == old {
        // MariaDB fires AFTER UPDATE on a matched row left as it was.
        fire(session, table, TriggerTiming::After, TriggerEvent::Update, Some(&old), Some(&mut new))?;
        return Ok(false);
    }
    check(session, &new)?;
    match update_row_firing(session, table, key, old, new) {
        Ok(()) => Ok(true),
        // UPDATE IGNORE skips a row whose new key collides, without a
        // warning, as MariaDB does.
        Err(e) if ignore && e.code == ErrorCode::DUP_ENTRY => Ok(false),
        Err(e) => Err(e),
    }
}

/// Deletes a row between its BEFORE and AFTER DELETE triggers.
pub(crate) fn delete_row_firing(
    session: &mut Session,
    table: &Arc<TableEntry>,
    key: &[u8],
    old: Vec<Value>,
) -> SqlResult<()> {
    fire(session, table, TriggerTiming::Before, TriggerEvent::Delete, Some(&old), None)?;
    let after = has_triggers(session, table, TriggerEvent::Delete).then(|| old.clone());
    let old = rows::stored_from_zone(table, &old, rows::zone_for(table, session)).unwrap_or(old);
    crate::foreign_key::on_parent_change(session, table, &old, ParentChange::Delete)?;
    let txn: &mut Txn = session.txn();
    rows::delete_row(txn, table, key, &old);
    txn.log_row(table, RowsKind::Delete, RowChange::Delete(old));
    match after {
        Some(old) => fire(session, table, TriggerTiming::After, TriggerEvent::Delete, Some(&old), None),
        None => Ok(()),
    }
}

/// Writes an updated row, then fires AFTER UPDATE on it.
pub(crate) fn update_row_firing(
    session: &mut Session,
    table: &Arc<TableEntry>,
    old_key: &[u8],
    old: Vec<Value>,
    new: Vec<Value>,
) -> SqlResult<()> {
    let after = has_triggers(session, table, TriggerEvent::Update).then(|| (old.clone(), new.clone()));
    update_row(session, table, old_key, old, new)?;
    match after {
        Some((old, mut new)) => {
            fire(session, table, TriggerTiming::After, TriggerEvent::Update, Some(&old), Some(&mut new))
        }
        None => Ok(()),
    }
}

/// 1175: under `sql_safe_updates` an UPDATE or DELETE would read the whole
/// table without a LIMIT.
pub(crate) fn unsafe_update() -> SqlError {
    SqlError::new(
        ErrorCode::UPDATE_WITHOUT_KEY_IN_SAFE_MODE,
        "You are using safe update mode and you tried to update a table without a WHERE that uses a KEY column",
    )
}

/// 1111: an UPDATE's or DELETE's WHERE has no groups for an aggregate,
/// even when no row would reach it.
pub(crate) fn reject_aggregate(condition: Option<&Expr>) -> SqlResult<()> {
    match condition {
        Some(c) if select::has_aggregate(c) => {
            Err(SqlError::new(ErrorCode::INVALID_GROUP_FUNC_USE, "Invalid use of group function"))
        }
        _ => Ok(()),
    }
}

/// An UPDATE's or DELETE's LIMIT: a constant row count.
pub(crate) fn limit_rows(ctx: &Ctx, limit: &Option<Expr>) -> SqlResult<Option<usize>> {
    Ok(select::limit_value(ctx, limit)?.map(|rows| usize::try_from(rows).unwrap_or(usize::MAX)))
}

/// `items` sorted by `order` (bound to the rows `row` gives), stably.
pub(crate) fn sort_rows<T>(
    ctx: &Ctx,
    order: &[OrderBy],
    items: Vec<T>,
    row: impl Fn(&T) -> &[Value],
) -> SqlResult<Vec<T>> {
    if order.is_empty() {
        return Ok(items);
    }
    let orders: Vec<select::KeyOrder> = order.iter().map(|o| select::KeyOrder::of(&o.expr, o.desc)).collect();
    let mut keyed: Vec<(Vec<Value>, T)> = items
        .into_iter()
        .map(|item| Ok((order.iter().map(|o| ctx.eval(&o.expr, row(&item))).collect::<SqlResult<_>>()?, item)))
        .collect::<SqlResult<_>>()?;
    keyed.sort_by(|a, b| select::cmp_keys(&a.0, &b.0, &orders));
    Ok(keyed.into_iter().map(|(_, x)| x).collect())
}

/// The rows a single-table UPDATE or DELETE changes: their clustered keys
/// in the order it changes them, and how to re-read each one.
///
/// Only keys are kept, never row images: a statement over a whole large
/// table then holds a key per row until it ends, and each row's values only
/// while it is changed (as MariaDB re-reads each row by its position).
struct Matches {
    keys: Vec<Vec<u8>>,
    scope: Vec<ScopeColumn>,
    where_bound: Option<Expr>,
}

/// Finds the rows matching WHERE, ordered and limited; see [`Matches`].
fn find_matches(
    session: &mut Session,
    table: &Arc<TableEntry>,
    alias: &str,
    selection: &Option<Expr>,
    order_by: &[OrderBy],
    limit: &Option<Expr>,
    params: &[Value],
) -> SqlResult<Matches> {
    let scope = select::table_columns(table, alias);
    let where_bound = selection.as_ref().map(|w| bind(w, &scope)).transpose().map_err(select::in_clause("WHERE"))?;
    reject_aggregate(where_bound.as_ref())?;
    let keys = with_ctx(session, params, |ctx| {
        let limit = limit_rows(ctx, limit)?;
        let order: Vec<OrderBy> = order_by
            .iter()
            .map(|o| Ok(OrderBy { expr: bind(&o.expr, &scope)?, desc: o.desc }))
            .collect::<SqlResult<_>>()
            .map_err(select::in_clause("ORDER BY"))?;
        let mut conds = Vec::new();
        if let Some(w) = &where_bound {
            access_conjuncts(w, &mut conds);
        }
        let source = select::Source {
            alias: alias.to_string(),
            entry: Some(table.clone()),
            columns: scope.clone(),
            rows: None,
            offset: 0,
            kind: JoinKind::Inner,
            on: None,
            wanted: None,
            row_key: false,
        };
        let (access, _) = select::choose_access(ctx, &source, &conds, &[], None)?;
        if limit.is_none() && ctx.session.safe_updates() && select::describe_access(table, &access).0 == "ALL" {
            return Err(unsafe_update());
        }
        // (ORDER BY values, key): the values only when there is an ORDER BY.
        let mut found: Vec<(Vec<Value>, Vec<u8>)> = Vec::new();
        ctx.in_scope(&scope, || {
            select::scan_table(ctx, table, &access, None, &mut |ck, row| {
                ctx.rownum.set(found.len() as u64 + 1);
                if let Some(w) = &where_bound {
                    if !ctx.test(w, &row)? {
                        return Ok(true);
                    }
                }
                let sort_key = order.iter().map(|o| ctx.eval(&o.expr, &row)).collect::<SqlResult<_>>()?;
                found.push((sort_key, ck.to_vec()));
                // Without ORDER BY the first LIMIT matches are the answer.
                Ok(!(order.is_empty() && limit.is_some_and(|l| found.len() >= l)))
            })
        })?;
        if !order.is_empty() {
            let orders: Vec<select::KeyOrder> = order.iter().map(|o| select::KeyOrder::of(&o.expr, o.desc)).collect();
            found.sort_by(|a, b| select::cmp_keys(&a.0, &b.0, &orders));
        }
        if let Some(l) = limit {
            found.truncate(l);
        }
        Ok(found.into_iter().map(|(_, ck)| ck).collect())
    })?;
    Ok(Matches { keys, scope, where_bound })
}

impl Matches {
    /// Locks the row at `ck` and reads its current version: `None` when it
    /// was deleted meanwhile or no longer matches WHERE.
    fn lock_current(
        &self,
        session: &mut Session,
        table: &Arc<TableEntry>,
        ck: &[u8],
        params: &[Value],
    ) -> SqlResult<Option<Vec<Value>>> {
        let timeout = lock_timeout(session);
        let engine = session.engine.clone();
        engine.locks.lock(session.txn().id, ck, LockMode::Exclusive, timeout, session.guard())?;
        let view = engine.store.snapshot();
        let Some(bytes) = session.txn().get(&view, ck)? else { return Ok(None) };
        let mut current = rows::decode(table, &bytes)?;
        rows::show_in_zone(table, &mut current, rows::zone_for(table, session));
        // Re-check WHERE on the current version.
        let still = with_ctx(session, params, |ctx| match &self.where_bound {
            Some(w) => Ok(eval::truthy(&ctx.eval_in(&self.scope, w, &current)?).unwrap_or(false)),
            None => Ok(true),
        })?;
        Ok(still.then_some(current))
    }
}

fn update(session: &mut Session, upd: &Update, params: &[Value], check: Option<&ViewCheck>) -> SqlResult<QueryResult> {
    let table = table_entry(session, &upd.table)?;
    let check = bind_check(&table, check)?;
    let alias = upd.alias.clone().unwrap_or_else(|| upd.table.name.clone());
    let scope: Vec<ScopeColumn> = select::table_columns(&table, &alias);
    let assignments: Vec<(usize, Expr)> = upd
        .assignments
        .iter()
        .map(|(c, e)| {
            let idx = table.def.column_index(c).ok_or_else(|| SqlError::bad_field(c, "SET"))?;
            let value = if matches!(e, Expr::Default) {
                Expr::Default
            } else {
                eval::assigned(bind(e, &scope).map_err(select::in_clause("SET"))?, &table.def.columns[idx].ty)
            };
            Ok((idx, value))
        })
        .collect::<SqlResult<_>>()?;
    let matches = find_matches(session, &table, &alias, &upd.selection, &upd.order_by, &upd.limit, params)?;
    let mut matched = 0u64;
    let mut changed = 0u64;
    let strict = session.strict() && !upd.ignore;
    for ck in &matches.keys {
        session.txn().flush_rows_if_many()?;
        let Some(old) = matches.lock_current(session, &table, ck, params)? else { continue };
        matched += 1;
        session.warning_row.set(matched);
        let new = with_ctx(session, params, |ctx| {
            let mut new = old.clone();
            for (idx, e) in &assignments {
                // MySQL evaluates SET left to right over the updated row.
                new[*idx] = match e {
                    Expr::Default => assigned_default(ctx.session, &table, *idx, &new)?,
                    e => ctx.eval_in(&scope, e, &new)?,
                };
                if !matches!(e, Expr::Default) {
                    crate::generated::check_assigned(ctx, &table, *idx, &new[*idx], strict)?;
                }
            }
            for (i, c) in table.def.columns.iter().enumerate() {
                if c.on_update_current_timestamp && !assignments.iter().any(|(a, _)| *a == i) && new != old {
                    new[i] = Value::DateTime(local_now(ctx));
                }
            }
            let new = finish_row(strict, ctx, &table, new)?;
            let violation = crate::check::violation(ctx, &table, &new)?;
            Ok((new, violation))
        })?;
        let check_new = |session: &mut Session, new: &[Value]| check_row(session, params, &check, new);
        if apply_row_update(session, &table, ck, old, new, upd.ignore, check_new)? {
            changed += 1;
        }
    }
    Ok(QueryResult::Ok {
        affected_rows: changed,
        last_insert_id: 0,
        info: format!("Rows matched: {matched}  Changed: {changed}  Warnings: {}", session.warning_count()),
    })
}

fn delete(session: &mut Session, del: &Delete, params: &[Value]) -> SqlResult<QueryResult> {
    let table = table_entry(session, &del.table)?;
    let matches = find_matches(session, &table, &del.table.name, &del.selection, &del.order_by, &del.limit, params)?;
    let mut n = 0u64;
    let mut deleted = Vec::new();
    for ck in &matches.keys {
        session.txn().flush_rows_if_many()?;
        let Some(old) = matches.lock_current(session, &table, ck, params)? else { continue };
        n += 1;
        if !del.returning.is_empty() {
            deleted.push(old.clone());
        }
        delete_row_firing(session, &table, ck, old)?;
    }
    if !del.returning.is_empty() {
        return with_ctx(session, params, |ctx| select::returning(ctx, &table, &del.returning, &deleted));
    }
    Ok(QueryResult::ok(n))
}
