//! CREATE TABLE ... [IGNORE|REPLACE] [AS] SELECT, as MariaDB runs and logs
//! it in row format: one binlog group holding the generated CREATE TABLE
//! (the definition SHOW CREATE TABLE gives, not the SELECT) as a QUERY
//! event, then the TABLE_MAP and WRITE_ROWS events of the rows, then an XID.
//! Recovery and replicas create the table at the QUERY event and apply the
//! rows after it, in one storage batch: the table never exists without its
//! rows. A failing SELECT or row creates and logs nothing.

use crate::ast::*;
use crate::ddl::{self, CatalogChange};
use crate::session::{QueryResult, ResultColumn, Session, TABLE_WAIT};
use onelog_binlog::event::{query_body, type_code, GroupKind};
use onelog_binlog::pipeline::{PendingEvent, TxnEvents};
use onelog_core::schema::ColumnDefault;
use onelog_core::{ColumnDef, ColumnType, SqlError, SqlResult, TableDef, Value};
use onelog_storage::Mutation;

/// Runs `stmt`, a CREATE TABLE whose `select` is set.
/// `params` are the query's `?` values (a stored program's variables).
pub fn execute(session: &mut Session, stmt: &CreateTable, select: &Select, params: &[Value]) -> SqlResult<QueryResult> {
    let engine = session.engine.clone();
    let current_db = session.db.clone().unwrap_or_default();
    let db = ddl::db_of(&stmt.name, &current_db)?.to_string();
    // An existing table is reported before the query runs, as in MariaDB
    // (IF NOT EXISTS inserts nothing then); checked again under the lock.
    if let Some(result) = existing_table(session, &db, stmt)? {
        return Ok(result);
    }
    let (columns, rows) = session.read_select(select, params)?;
    let tables = session.ddl_tables_to_lock(vec![(db.clone(), stmt.name.name.clone())]);
    let _mdl =
        session.request_mdl(TABLE_WAIT, |wait| engine.mdl.lock_exclusive(session.connection_id, tables, wait))?;
    let _ddl = engine.ddl_lock.lock();
    if let Some(result) = existing_table(session, &db, stmt)? {
        return Ok(result);
    }
    let definition = CreateTable { columns: table_columns(stmt, select, &columns), select: None, ..stmt.clone() };
    let plan = ddl::plan(
        &mut engine.catalog.write(),
        &engine.store.snapshot(),
        &session.ddl_context(&current_db),
        &Statement::CreateTable(definition),
    )?;
    let CatalogChange::PutTables(mut defs) = plan.change else {
        return Err(SqlError::internal("CREATE TABLE planned no table"));
    };
    let def = defs.pop().ok_or_else(|| SqlError::internal("CREATE TABLE planned no table"))?;
    // The rows go in through INSERT, which finds the table in the catalog:
    // it is installed first, under the exclusive metadata lock that keeps
    // every other session away from it, and removed again on failure.
    engine.catalog.write().put_table(def.clone());
    let outcome = insert_and_commit(session, stmt, &def, plan.mutations, &current_db, &columns, rows);
    if outcome.is_err() {
        engine.catalog.write().remove_table(&def.db, &def.name);
    }
    outcome
}

/// The note (IF NOT EXISTS) or error 1050 when the table exists already.
/// CREATE OR REPLACE ... SELECT of an existing table is refused: replacing
/// it would have to take the old table's triggers and AUTO_INCREMENT
/// counter out of the catalog while the rows go in, and put them back if
/// the insert fails — not built yet.
fn existing_table(session: &Session, db: &str, stmt: &CreateTable) -> SqlResult<Option<QueryResult>> {
    if session.engine.catalog.read().table(db, &stmt.name.name).is_none() {
        return Ok(None);
    }
    if stmt.or_replace {
        return Err(SqlError::not_supported("CREATE OR REPLACE TABLE ... SELECT of an existing table"));
    }
    if let Some((code, message)) = ddl::table_exists(stmt)?.note {
        session.note(code, message);
    }
    Ok(Some(QueryResult::ok(0)))
}

/// Inserts the selected rows into the new table `def` in a transaction of
/// their own and commits them after the table's definition (its
/// `def_mutations`) as one group.
fn insert_and_commit(
    session: &mut Session,
    stmt: &CreateTable,
    def: &TableDef,
    def_mutations: Vec<Mutation>,
    current_db: &str,
    columns: &[ResultColumn],
    rows: Vec<Vec<Value>>,
) -> SqlResult<QueryResult> {
    let records = rows.len() as u64;
    let insert = insert_rows(stmt, columns, rows);
    session.txn().begin_statement();
    let inserted = crate::dml::execute(session, &Statement::Insert(insert), &[])
        .and_then(|result| session.txn().finish_statement().map(|()| result));
    let txn = session.txn.take().ok_or_else(|| SqlError::internal("no transaction"))?;
    let (txn_id, engine) = (txn.id, session.engine.clone());
    let committed = inserted.and_then(|result| {
        let (row_mutations, row_cache) = txn.into_commit_parts();
        // The QUERY event goes first, so the rows must not have spilled:
        // this transaction's cache was never given a `tmpdir` (it skips the
        // statement wrapper), and the rows came in memory anyway.
        let (spilled, row_events) = row_cache.into_parts();
        assert!(spilled.is_none(), "CREATE ... SELECT rows spilled before their QUERY event");
        let mut text = crate::show::create_table_sql(def, None);
        // As MariaDB: the table's database named when it is not the
        // session's, which the QUERY event carries.
        if def.db != current_db {
            text = text.replacen("CREATE TABLE ", &format!("CREATE TABLE `{}`.", def.db), 1);
        }
        let query = query_body(&session.query_event(current_db, &text));
        let mut events = vec![PendingEvent { type_code: type_code::QUERY, flags: 0, body: query }];
        events.extend(row_events);
        let mut mutations = def_mutations;
        mutations.extend(row_mutations);
        let group =
            TxnEvents { spilled: None, events, kind: GroupKind::DdlWithRows, thread_id: session.connection_id as u32 };
        engine.commit(group, mutations)?;
        Ok(with_records_info(session, stmt.on_duplicate, records, result))
    });
    engine.locks.release_all(txn_id);
    committed
}

/// The INSERT that puts the selected `rows` into the new table.
pub(crate) fn insert_rows(stmt: &CreateTable, columns: &[ResultColumn], rows: Vec<Vec<Value>>) -> Insert {
    Insert {
        table: stmt.name.clone(),
        columns: columns.iter().map(|c| c.name.clone()).collect(),
        source: InsertSource::Values(rows.into_iter().map(|r| r.into_iter().map(Expr::Literal).collect()).collect()),
        ignore: stmt.on_duplicate == CreateSelectDuplicates::Ignore,
        replace: stmt.on_duplicate == CreateSelectDuplicates::Replace,
        on_duplicate: Vec::new(),
        returning: Vec::new(),
    }
}

/// The INSERT's answer with MariaDB's CREATE ... SELECT info.
pub(crate) fn with_records_info(
    session: &Session,
    duplicates: CreateSelectDuplicates,
    records: u64,
    result: QueryResult,
) -> QueryResult {
    let info = records_info(session, duplicates, records, &result);
    match result {
        QueryResult::Ok { affected_rows, last_insert_id, .. } => {
            QueryResult::Ok { affected_rows, last_insert_id, info }
        }
        rows => rows,
    }
}

/// MariaDB's OK info for CREATE ... SELECT: the rows selected, those a
/// duplicate key skipped (IGNORE) or replaced (REPLACE, which counts each
/// replaced row twice in the affected rows), and the warnings.
fn records_info(session: &Session, duplicates: CreateSelectDuplicates, records: u64, inserted: &QueryResult) -> String {
    let affected = match inserted {
        QueryResult::Ok { affected_rows, .. } => *affected_rows,
        QueryResult::Rows { .. } | QueryResult::Streamed { .. } => records,
    };
    let duplicate_rows = match duplicates {
        CreateSelectDuplicates::Error => 0,
        CreateSelectDuplicates::Ignore => records.saturating_sub(affected),
        CreateSelectDuplicates::Replace => affected.saturating_sub(records),
    };
    crate::dml::records_info(session, records, duplicate_rows)
}

/// The new table's columns as MariaDB orders them: the defined columns the
/// select does not name, then one per select column — its definition in the
/// statement if it has one, else derived from the select.
pub(crate) fn table_columns(stmt: &CreateTable, select: &Select, columns: &[ResultColumn]) -> Vec<ColumnDef> {
    let items: Vec<Option<&Expr>> = match select.union {
        None if columns.len() == select.items.len() => select
            .items
            .iter()
            .map(|i| match i {
                SelectItem::Expr { expr, .. } => Some(expr),
                _ => None,
            })
            .collect(),
        _ => vec![None; columns.len()],
    };
    let defined = |name: &str| stmt.columns.iter().find(|c| c.name.eq_ignore_ascii_case(name));
    let selected = |name: &str| columns.iter().any(|c| c.name.eq_ignore_ascii_case(name));
    let mut out: Vec<ColumnDef> = stmt.columns.iter().filter(|c| !selected(&c.name)).cloned().collect();
    for (column, item) in columns.iter().zip(items) {
        out.push(match defined(&column.name) {
            Some(def) => def.clone(),
            None => select_column(column, item),
        });
    }
    out
}

/// The column MariaDB makes of a select column: a table's column keeps its
/// definition but not AUTO_INCREMENT (its implicit default 0 becomes
/// explicit); a literal or COUNT gets its own type; a stored function its
/// RETURNS type; any other expression its result column's type. A
/// generated column's values are copied as those of a plain column.
fn select_column(column: &ResultColumn, item: Option<&Expr>) -> ColumnDef {
    if !column.org_table.is_empty() {
        let mut def = ColumnDef { name: column.name.clone(), generated: None, ..column.def.clone() };
        if std::mem::take(&mut def.auto_increment) && def.default.is_none() {
            def.default = Some(ColumnDefault::Value(Value::Int(0)));
        }
        return def;
    }
    let typed = |ty: ColumnType, nullable: bool| {
        let mut def = ColumnDef::new(&column.name, ty);
        def.nullable = nullable;
        def
    };
    match item {
        Some(Expr::Literal(Value::Null)) => typed(ColumnType::Binary(0), true),
        Some(Expr::Literal(Value::Decimal(d))) => {
            let digits = d.coefficient_digits().len().max(d.scale() as usize + 1);
            typed(ColumnType::Decimal { precision: digits.min(65) as u8, scale: d.scale().min(30) as u8 }, false)
        }
        Some(Expr::Aggregate { func: AggFunc::Count, .. }) => typed(ColumnType::BigInt, false),
        _ if column.stored_function => stored_function_column(column),
        _ => ColumnDef {
            name: column.name.clone(),
            generated: None,
            ty: fixed_if_empty(&column.def.ty),
            // A result's length past its type's (a long DECIMAL, a BLOB
            // type) describes the result, not a column.
            display_width: match column.def.ty {
                ColumnType::Decimal { .. } | ColumnType::Text(_) | ColumnType::Blob(_) => None,
                _ => column.def.display_width,
            },
            ..column.def.clone()
        },
    }
}

/// MariaDB stores an always-empty string result ('', `REPEAT(s, 0)`) as
/// CHAR(0) / BINARY(0), where its result set says VARCHAR.
fn fixed_if_empty(ty: &ColumnType) -> ColumnType {
    match ty {
        ColumnType::VarChar(0) => ColumnType::Char(0),
        ColumnType::VarBinary(0) => ColumnType::Binary(0),
        ty => ty.clone(),
    }
}

/// A stored function's column: its RETURNS type, except that an ENUM
/// becomes a VARCHAR of its longest label (MariaDB stores the function's
/// text, not its ENUM, although the result set describes the ENUM).
fn stored_function_column(column: &ResultColumn) -> ColumnDef {
    let mut def = ColumnDef { name: column.name.clone(), ..column.def.clone() };
    if let ColumnType::Enum(labels) = &def.ty {
        let longest = labels.iter().map(|l| l.chars().count() as u32).max().unwrap_or(0);
        def.ty = ColumnType::VarChar(longest);
    }
    def
}
