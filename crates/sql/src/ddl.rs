//! DDL: CREATE/DROP DATABASE, CREATE/DROP/ALTER/TRUNCATE TABLE (CREATE
//! TABLE ... LIKE too), CREATE/DROP INDEX. Each is planned into storage
//! mutations plus a catalog change, then committed as a standalone QUERY
//! event through the binlog — or, during recovery, replayed from that QUERY
//! event by the same planner. CREATE TABLE ... SELECT writes rows too: see
//! `create_select`.

use crate::ast::*;
use crate::catalog::{db_key, put_table_mutation, table_key, Catalog, TableEntry};
use crate::mdl::TableName;
use crate::parse;
use crate::rows;
use crate::session::{QueryResult, Session};
use crate::txn::storage_err;
use onelog_binlog::event::{header_flag, query_body, type_code, GroupKind, QueryEvent};
use onelog_binlog::pipeline::{PendingEvent, TxnEvents};
use onelog_core::schema::ColumnDefault;
use onelog_core::{ColumnDef, ErrorCode, IndexDef, SqlError, SqlResult, TableDef, Value};
use onelog_storage::{key, Mutation, Snapshot, Store};
use std::sync::Arc;

/// A planned schema change.
pub struct DdlPlan {
    pub mutations: Vec<Mutation>,
    pub change: CatalogChange,
    /// Notes for the client (IF [NOT] EXISTS cases): (code, message).
    pub note: Option<(u16, String)>,
    pub affected_rows: u64,
}

pub enum CatalogChange {
    None,
    AddDatabase(String),
    DropDatabase(String),
    PutTables(Vec<TableDef>),
    DropTables(Vec<(String, String)>),
    Truncate(TableDef),
}

impl CatalogChange {
    pub fn apply(self, catalog: &mut Catalog) {
        match self {
            CatalogChange::None => {}
            CatalogChange::AddDatabase(name) => catalog.add_database(&name),
            CatalogChange::DropDatabase(name) => catalog.remove_database(&name),
            CatalogChange::PutTables(defs) => defs.into_iter().for_each(|d| catalog.put_table(d)),
            CatalogChange::DropTables(names) => names.iter().for_each(|(db, t)| catalog.remove_table(db, t)),
            CatalogChange::Truncate(def) => {
                let (db, name) = (def.db.clone(), def.name.clone());
                catalog.remove_table(&db, &name);
                catalog.put_table(def);
            }
        }
    }
}

/// Executes a DDL statement for a client session.
pub fn execute(session: &mut Session, stmt: &Statement, text: &str) -> SqlResult<QueryResult> {
    if let Statement::CreateTable(ct @ CreateTable { select: Some(select), .. }) = stmt {
        return crate::create_select::execute(session, ct, select);
    }
    let engine = session.engine.clone();
    let db = session.db.clone().unwrap_or_default();
    // Before the DDL mutex: a DDL that waits for a table's users must not
    // hold up DDL on other tables (see `mdl` for why this cannot deadlock).
    let tables = changed_tables(&engine.catalog.read(), &db, stmt);
    let _mdl = session.request_mdl(crate::session::TABLE_WAIT, |wait| {
        engine.mdl.lock_exclusive(session.connection_id, tables, wait)
    })?;
    let _ddl = engine.ddl_lock.lock();
    let snapshot = engine.store.snapshot();
    let plan = {
        let mut catalog = engine.catalog.write();
        plan(&mut catalog, &snapshot, &db, stmt)?
    };
    let (db, header_flags) = logged_as(stmt, db);
    if let Some((code, message)) = &plan.note {
        session.note(*code, message.clone());
    }
    if !plan.mutations.is_empty() {
        let body = query_body(&QueryEvent::new(session.connection_id as u32, &db, text));
        let events = TxnEvents {
            events: vec![PendingEvent { type_code: type_code::QUERY, flags: header_flags, body }],
            kind: GroupKind::StandaloneDdl,
            thread_id: session.connection_id as u32,
        };
        engine.commit(events, plan.mutations)?;
    }
    let affected = plan.affected_rows;
    plan.change.apply(&mut engine.catalog.write());
    if let Statement::DropDatabase { name, .. } = stmt {
        if session.db.as_deref() == Some(name.as_str()) {
            session.db = None;
        }
    }
    Ok(QueryResult::ok(affected))
}

/// The tables `stmt` changes, which it locks exclusively. Names it cannot
/// resolve are left out: planning reports them.
fn changed_tables(catalog: &Catalog, db: &str, stmt: &Statement) -> Vec<TableName> {
    let named = |names: &[&ObjectName]| -> Vec<TableName> {
        names.iter().filter_map(|n| db_of(n, db).ok().map(|d| (d.to_string(), n.name.clone()))).collect()
    };
    match stmt {
        Statement::CreateTable(ct) => named(&[&ct.name]),
        Statement::DropTable { names, .. } => named(&names.iter().collect::<Vec<_>>()),
        Statement::CreateIndex { table, .. }
        | Statement::DropIndex { table, .. }
        | Statement::AlterTable { table, .. }
        | Statement::Truncate(table) => named(&[table]),
        Statement::DropDatabase { name, .. } => {
            catalog.tables_in(name).iter().map(|t| (t.def.db.clone(), t.def.name.clone())).collect()
        }
        _ => Vec::new(),
    }
}

/// The database a DDL statement's QUERY event names, and its header flags.
/// MariaDB logs CREATE and DROP DATABASE under the database they name, not
/// the session's, with `use` suppressed: database filters (a replica's
/// `replicate-do-db`, `binlog-do-db`, a CDC client's database list) then keep
/// or drop them with that database's other statements, and `mariadb-binlog`
/// prints no `use` of a database that does not exist yet.
fn logged_as(stmt: &Statement, session_db: String) -> (String, u16) {
    match stmt {
        Statement::CreateDatabase { name, .. } | Statement::DropDatabase { name, .. } => {
            (name.clone(), header_flag::SUPPRESS_USE)
        }
        _ => (session_db, 0),
    }
}

/// Replays a DDL QUERY event during recovery; returns its mutations after
/// applying the catalog change.
pub fn replay(store: &Store, catalog: &mut Catalog, db: &str, sql: &str) -> SqlResult<Vec<Mutation>> {
    let parsed = parse::parse_single(sql)?;
    let snapshot = store.snapshot();
    let plan = plan(catalog, &snapshot, db, &parsed.statement)?;
    let mutations = plan.mutations;
    plan.change.apply(catalog);
    Ok(mutations)
}

pub(crate) fn db_of<'a>(name: &'a ObjectName, current: &'a str) -> SqlResult<&'a str> {
    match &name.db {
        Some(d) => Ok(d),
        None if current.is_empty() => Err(SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected")),
        None => Ok(current),
    }
}

fn ok_plan(mutations: Vec<Mutation>, change: CatalogChange) -> DdlPlan {
    DdlPlan { mutations, change, note: None, affected_rows: 0 }
}

fn noop_with_note(code: u16, message: String) -> DdlPlan {
    DdlPlan { mutations: Vec::new(), change: CatalogChange::None, note: Some((code, message)), affected_rows: 0 }
}

/// Plans `stmt` against the catalog and a storage snapshot.
pub fn plan(catalog: &mut Catalog, snapshot: &Snapshot, db: &str, stmt: &Statement) -> SqlResult<DdlPlan> {
    match stmt {
        Statement::CreateDatabase { name, if_not_exists } => {
            if catalog.has_database(name) || crate::session::is_system_db(name) {
                let msg = format!("Can't create database '{name}'; database exists");
                return if *if_not_exists {
                    Ok(noop_with_note(1007, msg))
                } else {
                    Err(SqlError::new(ErrorCode::DB_CREATE_EXISTS, msg))
                };
            }
            let mut plan =
                ok_plan(vec![Mutation::Put(db_key(name), Vec::new())], CatalogChange::AddDatabase(name.clone()));
            plan.affected_rows = 1;
            Ok(plan)
        }
        Statement::DropDatabase { name, if_exists } => {
            if !catalog.has_database(name) {
                let msg = format!("Can't drop database '{name}'; database doesn't exist");
                return if *if_exists {
                    Ok(noop_with_note(1008, msg))
                } else {
                    Err(SqlError::new(ErrorCode::DB_DROP_EXISTS, msg))
                };
            }
            let tables = catalog.tables_in(name);
            let mut mutations = vec![Mutation::Delete(db_key(name))];
            for t in &tables {
                mutations.extend(drop_table_mutations(t));
            }
            let mut plan = ok_plan(mutations, CatalogChange::DropDatabase(name.clone()));
            plan.affected_rows = tables.len() as u64;
            Ok(plan)
        }
        Statement::CreateTable(ct) => create_table(catalog, db, ct),
        Statement::DropTable { names, if_exists } => {
            let mut mutations = Vec::new();
            let mut dropped = Vec::new();
            let mut missing = Vec::new();
            for n in names {
                let d = db_of(n, db)?;
                match catalog.table(d, &n.name) {
                    Some(t) => {
                        mutations.extend(drop_table_mutations(&t));
                        dropped.push((d.to_string(), n.name.clone()));
                    }
                    None => missing.push(format!("{d}.{}", n.name)),
                }
            }
            if !missing.is_empty() {
                let msg = format!("Unknown table '{}'", missing.join(","));
                if !*if_exists {
                    return Err(SqlError::new(ErrorCode::BAD_TABLE, msg));
                }
                let mut plan = ok_plan(mutations, CatalogChange::DropTables(dropped));
                plan.note = Some((1051, msg));
                return Ok(plan);
            }
            Ok(ok_plan(mutations, CatalogChange::DropTables(dropped)))
        }
        Statement::Truncate(name) => {
            let t = catalog.get_table(db_of(name, db)?, &name.name)?;
            let mut mutations = drop_table_mutations(&t);
            mutations.retain(|m| !matches!(m, Mutation::Delete(_)));
            Ok(ok_plan(mutations, CatalogChange::Truncate(t.def.clone())))
        }
        Statement::CreateIndex { table, index } => {
            let t = catalog.get_table(db_of(table, db)?, &table.name)?;
            alter(catalog, snapshot, &t, &[AlterOp::AddIndex(index.clone())])
        }
        Statement::DropIndex { table, name } => {
            let t = catalog.get_table(db_of(table, db)?, &table.name)?;
            let op = if name.eq_ignore_ascii_case("PRIMARY") {
                AlterOp::DropPrimaryKey
            } else {
                AlterOp::DropIndex(name.clone())
            };
            alter(catalog, snapshot, &t, &[op])
        }
        Statement::AlterTable { table, ops } => {
            let t = catalog.get_table(db_of(table, db)?, &table.name)?;
            alter(catalog, snapshot, &t, ops)
        }
        _ => Err(SqlError::internal("not a DDL statement")),
    }
}

fn drop_table_mutations(t: &TableEntry) -> Vec<Mutation> {
    let mut out = vec![Mutation::Delete(table_key(&t.def.db, &t.def.name))];
    let ids = t.def.indexes.iter().map(|i| i.id).chain([t.def.id]);
    for id in ids {
        let prefix = key::index_prefix(id);
        let end = key::prefix_end(&prefix);
        out.push(Mutation::DeleteRange(prefix, end));
    }
    out
}

fn build_index(catalog: &mut Catalog, def: &TableDef, spec: &IndexSpec, existing: &[IndexDef]) -> SqlResult<IndexDef> {
    let columns = spec
        .columns
        .iter()
        .map(|c| {
            def.column_index(c).ok_or_else(|| {
                SqlError::new(ErrorCode::KEY_COLUMN_DOES_NOT_EXIST, format!("Key column '{c}' doesn't exist in table"))
            })
        })
        .collect::<SqlResult<Vec<_>>>()?;
    let name = if spec.primary {
        "PRIMARY".to_string()
    } else {
        match &spec.name {
            Some(n) => n.clone(),
            None => {
                let base = def.columns[columns[0]].name.clone();
                let mut candidate = base.clone();
                let mut n = 2;
                while existing.iter().any(|i| i.name.eq_ignore_ascii_case(&candidate)) {
                    candidate = format!("{base}_{n}");
                    n += 1;
                }
                candidate
            }
        }
    };
    if existing.iter().any(|i| i.name.eq_ignore_ascii_case(&name)) {
        return Err(if spec.primary {
            SqlError::new(ErrorCode::MULTIPLE_PRI_KEY, "Multiple primary key defined")
        } else {
            SqlError::new(ErrorCode::DUP_KEY_NAME, format!("Duplicate key name '{name}'"))
        });
    }
    Ok(IndexDef {
        id: catalog.allocate_id(),
        name,
        columns,
        unique: spec.unique || spec.primary,
        primary: spec.primary,
    })
}

fn create_table(catalog: &mut Catalog, current_db: &str, ct: &CreateTable) -> SqlResult<DdlPlan> {
    let db = db_of(&ct.name, current_db)?;
    if !catalog.has_database(db) {
        return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
    }
    if let Some(source) = &ct.like {
        if db_of(source, current_db)? == db && source.name == ct.name.name {
            return Err(SqlError::new(
                ErrorCode::NON_UNIQ_TABLE,
                format!("Not unique table/alias: '{}'", ct.name.name),
            ));
        }
    }
    if catalog.table(db, &ct.name.name).is_some() {
        let msg = format!("Table '{}' already exists", ct.name.name);
        return if ct.if_not_exists {
            Ok(noop_with_note(1050, msg))
        } else {
            Err(SqlError::new(ErrorCode::TABLE_EXISTS, msg))
        };
    }
    if let Some(source) = &ct.like {
        return create_like(catalog, db, &ct.name.name, source, current_db);
    }
    if ct.select.is_some() {
        return Err(SqlError::internal("CREATE TABLE ... SELECT is planned by create_select"));
    }
    for (i, c) in ct.columns.iter().enumerate() {
        if ct.columns[..i].iter().any(|o| o.name.eq_ignore_ascii_case(&c.name)) {
            return Err(SqlError::new(ErrorCode::DUP_FIELD_NAME, format!("Duplicate column name '{}'", c.name)));
        }
    }
    let mut def = TableDef {
        id: catalog.allocate_id(),
        db: db.to_string(),
        name: ct.name.name.clone(),
        columns: ct.columns.clone(),
        indexes: Vec::new(),
        engine: ct.engine.clone().unwrap_or_else(|| "InnoDB".into()),
        comment: ct.comment.clone().unwrap_or_default(),
    };
    // Primary key first, as InnoDB keeps it.
    let mut specs: Vec<&IndexSpec> = ct.indexes.iter().filter(|s| s.primary).collect();
    specs.extend(ct.indexes.iter().filter(|s| !s.primary));
    for spec in specs {
        let index = build_index(catalog, &def, spec, &def.indexes)?;
        if index.primary {
            for &c in &index.columns {
                def.columns[c].nullable = false;
            }
        }
        def.indexes.push(index);
    }
    validate_table(&def)?;
    let put = put_table_mutation(&def)?;
    Ok(ok_plan(vec![put], CatalogChange::PutTables(vec![def])))
}

/// CREATE TABLE ... LIKE: the source's columns, indexes (names too),
/// engine and comment under new ids; the AUTO_INCREMENT counter starts
/// afresh, as in MariaDB.
fn create_like(
    catalog: &mut Catalog,
    db: &str,
    name: &str,
    source: &ObjectName,
    current_db: &str,
) -> SqlResult<DdlPlan> {
    let source = catalog.get_table(db_of(source, current_db)?, &source.name)?;
    let mut def = source.def.clone();
    def.id = catalog.allocate_id();
    def.db = db.to_string();
    def.name = name.to_string();
    for index in &mut def.indexes {
        index.id = catalog.allocate_id();
    }
    let put = put_table_mutation(&def)?;
    Ok(ok_plan(vec![put], CatalogChange::PutTables(vec![def])))
}

fn validate_table(def: &TableDef) -> SqlResult<()> {
    if let Some(col) = def.auto_increment_column() {
        let keyed = def.indexes.iter().any(|i| i.columns.first() == Some(&col));
        if !keyed || def.columns.iter().filter(|c| c.auto_increment).count() > 1 {
            return Err(SqlError::new(
                ErrorCode::WRONG_AUTO_KEY,
                "Incorrect table definition; there can be only one auto column and it must be defined as a key",
            ));
        }
    }
    for c in &def.columns {
        if let Some(ColumnDefault::Value(Value::Null)) = &c.default {
            if !c.nullable {
                return Err(SqlError::new(
                    ErrorCode::INVALID_DEFAULT,
                    format!("Invalid default value for '{}'", c.name),
                ));
            }
        }
    }
    Ok(())
}

/// ALTER TABLE: computes the new definition and rewrites what changed —
/// rows when columns change, index entries when indexes change.
fn alter(catalog: &mut Catalog, snapshot: &Snapshot, table: &Arc<TableEntry>, ops: &[AlterOp]) -> SqlResult<DdlPlan> {
    let old = &table.def;
    let mut def = old.clone();
    // For each new column position: Some(old position) or None (new column).
    let mut origin: Vec<Option<usize>> = (0..old.columns.len()).map(Some).collect();
    let mut new_indexes: Vec<IndexSpec> = Vec::new();
    for op in ops {
        match op {
            AlterOp::AddColumn(col, index) => {
                if def.column_index(&col.name).is_some() {
                    return Err(SqlError::new(
                        ErrorCode::DUP_FIELD_NAME,
                        format!("Duplicate column name '{}'", col.name),
                    ));
                }
                def.columns.push(col.clone());
                origin.push(None);
                new_indexes.extend(index.clone());
            }
            AlterOp::DropColumn(name) => {
                let pos = def.column_index(name).ok_or_else(|| {
                    SqlError::new(
                        ErrorCode::CANT_DROP_FIELD_OR_KEY,
                        format!("Can't DROP COLUMN `{name}`; check that it exists"),
                    )
                })?;
                if def.primary_key().is_some_and(|pk| pk.columns.contains(&pos)) {
                    return Err(SqlError::not_supported("dropping a primary key column"));
                }
                def.columns.remove(pos);
                origin.remove(pos);
                def.indexes.retain(|i| !i.columns.contains(&pos));
                for i in &mut def.indexes {
                    for c in &mut i.columns {
                        if *c > pos {
                            *c -= 1;
                        }
                    }
                }
            }
            AlterOp::AddIndex(spec) => new_indexes.push(spec.clone()),
            AlterOp::DropIndex(name) => {
                let before = def.indexes.len();
                def.indexes.retain(|i| i.primary || !i.name.eq_ignore_ascii_case(name));
                if def.indexes.len() == before {
                    return Err(SqlError::new(
                        ErrorCode::CANT_DROP_FIELD_OR_KEY,
                        format!("Can't DROP INDEX `{name}`; check that it exists"),
                    ));
                }
            }
            AlterOp::DropPrimaryKey => return Err(SqlError::not_supported("DROP PRIMARY KEY")),
        }
    }
    for spec in &new_indexes {
        if spec.primary && def.primary_key().is_some() {
            return Err(SqlError::new(ErrorCode::MULTIPLE_PRI_KEY, "Multiple primary key defined"));
        }
        if spec.primary {
            return Err(SqlError::not_supported("adding a primary key to an existing table"));
        }
        let index = build_index(catalog, &def, spec, &def.indexes)?;
        def.indexes.push(index);
    }
    validate_table(&def)?;
    let columns_changed = origin.len() != old.columns.len() || origin.iter().enumerate().any(|(i, o)| *o != Some(i));
    let new_entry = TableEntry::new(def.clone());
    let mut mutations = vec![put_table_mutation(&def)?];
    // Remove every secondary index that is gone or must be rebuilt.
    for index in old.indexes.iter().filter(|i| !i.primary) {
        let keep = !columns_changed && def.indexes.iter().any(|n| n.id == index.id);
        if !keep {
            let prefix = key::index_prefix(index.id);
            let end = key::prefix_end(&prefix);
            mutations.push(Mutation::DeleteRange(prefix, end));
        }
    }
    let rebuild: Vec<&IndexDef> = def
        .indexes
        .iter()
        .filter(|i| !i.primary && (columns_changed || !old.indexes.iter().any(|o| o.id == i.id)))
        .collect();
    let prefix = key::index_prefix(table.clustered_id());
    let end = key::prefix_end(&prefix);
    let mut seen_unique: Vec<std::collections::HashSet<Vec<u8>>> = vec![Default::default(); rebuild.len()];
    for kv in snapshot.scan(&prefix, end.as_deref(), false).map_err(storage_err)? {
        let (ck, bytes) = kv.map_err(storage_err)?;
        let old_row = rows::decode(table, &bytes)?;
        let new_row: Vec<Value> = origin
            .iter()
            .zip(&def.columns)
            .map(|(o, c)| match o {
                Some(p) => old_row[*p].clone(),
                None => added_column_value(c),
            })
            .collect();
        if columns_changed {
            mutations.push(Mutation::Put(ck.to_vec(), rows::encode(&new_entry, &new_row)?));
        }
        for (n, index) in rebuild.iter().enumerate() {
            let ik = rows::index_key(&new_entry, index, &new_row);
            if index.unique
                && !index.columns.iter().any(|&c| new_row[c].is_null())
                && !seen_unique[n].insert(ik.clone())
            {
                return Err(rows::duplicate_entry(index, &new_row));
            }
            let mut k = ik;
            k.extend_from_slice(&ck[8..]);
            mutations.push(Mutation::Put(k, ck.to_vec()));
        }
    }
    Ok(ok_plan(mutations, CatalogChange::PutTables(vec![def])))
}

fn added_column_value(c: &ColumnDef) -> Value {
    match &c.default {
        Some(ColumnDefault::Value(v)) => v.clone(),
        Some(ColumnDefault::CurrentTimestamp) => Value::DateTime(crate::dml::now()),
        None if c.nullable => Value::Null,
        None => match &c.ty {
            t if t.is_integer() => Value::Int(0),
            onelog_core::ColumnType::Decimal { .. } => Value::Decimal(0.into()),
            onelog_core::ColumnType::Float | onelog_core::ColumnType::Double => Value::Double(0.0),
            onelog_core::ColumnType::Date
            | onelog_core::ColumnType::DateTime { .. }
            | onelog_core::ColumnType::Timestamp { .. } => Value::DateTime(onelog_core::Temporal::default()),
            _ => Value::from_str(""),
        },
    }
}

/// `DROP VIEW` / `DROP TEMPORARY TABLE` of names that cannot be views or
/// temporary tables (OneLog has neither yet): MariaDB's error, or with IF
/// EXISTS its notes, and nothing dropped or logged.
pub fn drop_absent(
    session: &Session,
    names: &[ObjectName],
    if_exists: bool,
    kind: AbsentKind,
) -> SqlResult<QueryResult> {
    let mut qualified = Vec::with_capacity(names.len());
    for name in names {
        let db = session.resolve_db(name)?;
        if kind == AbsentKind::View && if_exists && session.engine.catalog.read().table(db, &name.name).is_some() {
            crate::eval::EvalEnv::warn(
                session,
                ErrorCode::WRONG_OBJECT.number,
                format!("'{db}.{}' is not of type 'VIEW'", name.name),
            );
        }
        qualified.push(format!("{db}.{}", name.name));
    }
    let (code, message) = match kind {
        AbsentKind::View => (ErrorCode::UNKNOWN_VIEW, format!("Unknown VIEW: '{}'", qualified.join(","))),
        AbsentKind::TemporaryTable => (ErrorCode::BAD_TABLE, format!("Unknown table '{}'", qualified.join(","))),
    };
    if !if_exists {
        return Err(SqlError::new(code, message));
    }
    session.note(code.number, message);
    Ok(QueryResult::ok(0))
}
