//! DDL: CREATE/DROP DATABASE, CREATE/DROP/ALTER/TRUNCATE TABLE (CREATE
//! TABLE ... LIKE too), CREATE/DROP INDEX. Each is planned into storage
//! mutations plus a catalog change, then committed as a standalone QUERY
//! event through the binlog — or, during recovery, replayed from that QUERY
//! event by the same planner. CREATE TABLE ... SELECT writes rows too: see
//! `create_select`.

use crate::ast::*;
use crate::catalog::{
    db_key, put_table_mutation, put_view_mutation, table_key, view_key, Catalog, DatabaseDef, TableEntry,
};
use crate::eval::EvalEnv;
use crate::mdl::TableName;
use crate::parse;
use crate::rows;
use crate::session::{QueryResult, Session};
use crate::txn::storage_err;
use crate::view::ViewEntry;
use onelog_binlog::event::{header_flag, query_body, type_code, GroupKind};
use onelog_binlog::pipeline::{PendingEvent, TxnEvents};
use onelog_core::schema::{ColumnDefault, KeyPart};
use onelog_core::{Collation, ColumnDef, ColumnType, ErrorCode, IndexDef, SqlError, SqlResult, TableDef, Value};
use onelog_storage::{key, Mutation, Snapshot, Store};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A planned schema change.
pub struct DdlPlan {
    pub mutations: Vec<Mutation>,
    pub change: CatalogChange,
    /// Notes for the client (IF [NOT] EXISTS cases): (code, message).
    pub note: Option<(u16, String)>,
    /// ALTER TABLE's conversion warnings: (code, message).
    pub warnings: Vec<(u16, String)>,
    pub affected_rows: u64,
}

pub enum CatalogChange {
    None,
    /// CREATE / ALTER DATABASE: the database and its options.
    PutDatabase(String, DatabaseDef),
    DropDatabase(String),
    PutTables(Vec<TableDef>),
    DropTables(Vec<(String, String)>),
    /// CREATE OR REPLACE TABLE: the table of the definition's name goes,
    /// with its triggers, and the definition takes its place.
    RecreateTable(TableDef),
    Truncate(TableDef),
    PutView(Box<ViewEntry>),
    DropViews(Vec<(String, String)>),
    PutRoutine(Box<crate::routine::RoutineEntry>),
    DropRoutine(String, crate::ast::routine::RoutineKind, String),
    /// CREATE TRIGGER: the trigger it replaces (OR REPLACE), then the
    /// triggers written (the new one and those whose order moved).
    PutTriggers(Option<(String, String)>, Vec<crate::trigger::TriggerEntry>),
    DropTriggers(Vec<(String, String)>),
    /// ALTER TABLE and RENAME TABLE: definitions that take the place of
    /// tables, in order.
    ReplaceTables(Vec<Replacement>),
    /// Account statements: accounts put or removed, in order.
    Accounts(Vec<crate::accounts::AccountChange>),
}

/// A table's new definition, under its old name or a new one.
pub struct Replacement {
    /// The table's (database, name) before.
    pub from: (String, String),
    pub def: TableDef,
    /// ALTER TABLE ... AUTO_INCREMENT=n: the counter's new value.
    pub auto_increment_next: Option<u64>,
}

impl CatalogChange {
    pub fn apply(self, catalog: &mut Catalog) {
        match self {
            CatalogChange::None => {}
            CatalogChange::PutDatabase(name, def) => catalog.put_database(&name, def),
            CatalogChange::DropDatabase(name) => catalog.remove_database(&name),
            CatalogChange::PutTables(defs) => defs.into_iter().for_each(|d| catalog.put_table(d)),
            CatalogChange::DropTables(names) => {
                // A table's triggers go with it.
                let (_, triggers) = crate::trigger::drop_table_triggers(catalog, &names);
                triggers.iter().for_each(|(db, n)| catalog.remove_trigger(db, n));
                names.iter().for_each(|(db, t)| catalog.remove_table(db, t));
            }
            CatalogChange::RecreateTable(def) => {
                CatalogChange::DropTables(vec![(def.db.clone(), def.name.clone())]).apply(catalog);
                catalog.put_table(def);
            }
            CatalogChange::PutView(entry) => catalog.put_view(*entry),
            CatalogChange::DropViews(names) => names.iter().for_each(|(db, v)| catalog.remove_view(db, v)),
            CatalogChange::PutRoutine(entry) => catalog.put_routine(*entry),
            CatalogChange::DropRoutine(db, kind, name) => catalog.remove_routine(&db, kind, &name),
            CatalogChange::PutTriggers(replaced, entries) => {
                if let Some((db, name)) = replaced {
                    catalog.remove_trigger(&db, &name);
                }
                entries.into_iter().for_each(|e| catalog.put_trigger(e));
            }
            CatalogChange::DropTriggers(names) => names.iter().for_each(|(db, n)| catalog.remove_trigger(db, n)),
            CatalogChange::Truncate(def) => {
                let (db, name) = (def.db.clone(), def.name.clone());
                catalog.remove_table(&db, &name);
                catalog.put_table(def);
            }
            CatalogChange::Accounts(changes) => changes.into_iter().for_each(|c| c.apply(&mut catalog.accounts)),
            CatalogChange::ReplaceTables(replacements) => {
                let moves: Vec<_> =
                    replacements.iter().map(|r| (r.from.clone(), (r.def.db.clone(), r.def.name.clone()))).collect();
                if let Ok((entries, _)) = crate::trigger::follow_renames(catalog, &moves) {
                    entries.into_iter().for_each(|e| catalog.put_trigger(e));
                }
                for Replacement { from: (db, name), def, auto_increment_next } in replacements {
                    let (new_db, new_name) = (def.db.clone(), def.name.clone());
                    catalog.replace_table(&db, &name, def);
                    if let (Some(next), Some(table)) = (auto_increment_next, catalog.table(&new_db, &new_name)) {
                        *table.auto_increment_next.lock() = next;
                    }
                }
            }
        }
    }
}

/// Executes a DDL statement for a client session.
pub fn execute(session: &mut Session, stmt: &Statement, text: &str) -> SqlResult<QueryResult> {
    if let Statement::CreateTable(ct @ CreateTable { select: Some(select), .. }) = stmt {
        return crate::create_select::execute(session, ct, select, &[]);
    }
    let engine = session.engine.clone();
    let db = session.db.clone().unwrap_or_default();
    let with_definer;
    let (stmt, logged_text) = match stmt {
        Statement::CreateView(view) => {
            // The view keeps its definer, the current user unless named;
            // the log names it too, so a replay defines the same view.
            let mut view = view.clone();
            view.definer.get_or_insert_with(|| (session.user.clone(), session.host.clone()));
            let session_var = |name: &str| session.var(name).unwrap_or_default();
            view.client_charset = Some((session_var("character_set_client"), session_var("collation_connection")));
            let text = crate::view::logged_statement(&view, &db);
            with_definer = Statement::CreateView(view);
            (&with_definer, text)
        }
        Statement::CreateTrigger(create) => {
            let (def, text) = crate::trigger::define(session, create, &db)?;
            let mut create = create.clone();
            create.defined = Some(Box::new(def));
            with_definer = Statement::CreateTrigger(create);
            (&with_definer, text)
        }
        Statement::CreateRoutine(create) => {
            let (def, text) = crate::routine::define(session, create, &db)?;
            let mut create = create.clone();
            create.defined = Some(Box::new(def));
            with_definer = Statement::CreateRoutine(create);
            (&with_definer, text)
        }
        _ => (stmt, text.to_string()),
    };
    // Before the DDL mutex: a DDL that waits for a table's users must not
    // hold up DDL on other tables (see `mdl` for why this cannot deadlock).
    let tables = session.ddl_tables_to_lock(changed_tables(&engine.catalog.read(), &db, stmt));
    let _mdl = session.request_mdl(crate::session::TABLE_WAIT, |wait| {
        engine.mdl.lock_exclusive(session.connection_id, tables, wait)
    })?;
    let _ddl = engine.ddl_lock.lock();
    let snapshot = engine.store.snapshot();
    let plan = {
        let mut catalog = engine.catalog.write();
        plan(&mut catalog, &snapshot, &session.ddl_context(&db), stmt)?
    };
    for (code, message) in &plan.warnings {
        session.warn(*code, message.clone());
    }
    let (db, header_flags) = logged_as(stmt, db);
    if let Some((code, message)) = &plan.note {
        session.note(*code, message.clone());
    }
    if !plan.mutations.is_empty() {
        let body = query_body(&session.query_event(&db, &logged_text));
        let events = TxnEvents {
            spilled: None,
            events: vec![PendingEvent { type_code: type_code::QUERY, flags: header_flags, body }],
            kind: GroupKind::StandaloneDdl,
            thread_id: session.connection_id as u32,
        };
        engine.commit(events, plan.mutations)?;
    }
    let affected = plan.affected_rows;
    plan.change.apply(&mut engine.catalog.write());
    session.forget_locked_tables(stmt);
    match stmt {
        Statement::DropDatabase { name, .. } if session.db.as_deref() == Some(name.as_str()) => {
            session.db = None;
            session.set_database_collation();
        }
        Statement::AlterDatabase { .. } => session.set_database_collation(),
        _ => {}
    }
    Ok(match stmt {
        Statement::AlterTable { ops, .. } => altered(session, ops, affected),
        Statement::CreateIndex { .. } | Statement::DropIndex { .. } => altered(session, &[], affected),
        _ => QueryResult::ok(affected),
    })
}

/// The OK of ALTER TABLE (CREATE / DROP INDEX: no `ops`) that copied
/// `rows`: MariaDB's `Records: N  Duplicates: 0  Warnings: W`, except
/// for a rename alone.
pub(crate) fn altered(session: &Session, ops: &[AlterOp], rows: u64) -> QueryResult {
    if !ops.is_empty() && ops.iter().all(|op| matches!(op, AlterOp::RenameTable(_))) {
        return QueryResult::ok(rows);
    }
    let info = format!("Records: {rows}  Duplicates: 0  Warnings: {}", session.warning_count());
    QueryResult::Ok { affected_rows: rows, last_insert_id: 0, info }
}

/// The tables `stmt` changes, which it locks exclusively. Names it cannot
/// resolve are left out: planning reports them.
fn changed_tables(catalog: &Catalog, db: &str, stmt: &Statement) -> Vec<TableName> {
    let named = |names: &[&ObjectName]| -> Vec<TableName> {
        names.iter().filter_map(|n| db_of(n, db).ok().map(|d| (d.to_string(), n.name.clone()))).collect()
    };
    match stmt {
        Statement::CreateTable(ct) => named(&[&ct.name]),
        Statement::CreateView(view) => named(&[&view.name]),
        Statement::CreateTrigger(create) => named(&[&create.table]),
        Statement::DropTrigger { name, .. } => db_of(name, db)
            .ok()
            .and_then(|d| catalog.trigger(d, &name.name))
            .map(|t| vec![(t.def.db.clone(), t.def.table.clone())])
            .unwrap_or_default(),
        Statement::DropView { names, .. } => named(&names.iter().collect::<Vec<_>>()),
        Statement::DropTable { names, .. } => named(&names.iter().collect::<Vec<_>>()),
        Statement::AlterTable { table, ops } => {
            let renamed_to = ops.iter().filter_map(|op| match op {
                AlterOp::RenameTable(to) => Some(to),
                _ => None,
            });
            named(&[table].into_iter().chain(renamed_to).collect::<Vec<_>>())
        }
        Statement::RenameTables(pairs) => named(&pairs.iter().flat_map(|(a, b)| [a, b]).collect::<Vec<_>>()),
        Statement::CreateIndex { table, .. } | Statement::DropIndex { table, .. } | Statement::Truncate(table) => {
            named(&[table])
        }
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
        Statement::CreateDatabase { name, .. }
        | Statement::DropDatabase { name, .. }
        | Statement::AlterDatabase { name: Some(name), .. } => (name.clone(), header_flag::SUPPRESS_USE),
        Statement::AlterDatabase { name: None, .. } => (session_db, header_flag::SUPPRESS_USE),
        _ => (session_db, 0),
    }
}

/// What a DDL statement is planned in: the session's defaults, or those a
/// logged statement carries.
#[derive(Debug, Clone, Copy)]
pub struct DdlContext<'a> {
    /// The current database ("" for none).
    pub db: &'a str,
    /// ALTER TABLE's conversions fail rather than warn (the session's
    /// strict mode; replay is never strict, since what the log holds
    /// succeeded).
    pub strict: bool,
    /// The session's `collation_server`: a database created without a
    /// collation takes it.
    pub collation_server: Collation,
    /// The session's `foreign_key_checks` (replay: off, what the log holds
    /// succeeded).
    pub foreign_key_checks: bool,
}

/// Replays a DDL QUERY event during recovery; returns its mutations after
/// applying the catalog change. `collation_server` is the one the event
/// was logged with.
pub fn replay(
    store: &Store,
    catalog: &mut Catalog,
    db: &str,
    sql: &str,
    collation_server: Collation,
) -> SqlResult<Vec<Mutation>> {
    let parsed = parse::parse_single(sql)?;
    let snapshot = store.snapshot();
    let ctx = DdlContext { db, strict: false, collation_server, foreign_key_checks: false };
    let plan = plan(catalog, &snapshot, &ctx, &parsed.statement)?;
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

pub(crate) fn ok_plan(mutations: Vec<Mutation>, change: CatalogChange) -> DdlPlan {
    DdlPlan { mutations, change, note: None, warnings: Vec::new(), affected_rows: 0 }
}

pub(crate) fn noop_with_note(code: u16, message: String) -> DdlPlan {
    DdlPlan {
        mutations: Vec::new(),
        change: CatalogChange::None,
        note: Some((code, message)),
        warnings: Vec::new(),
        affected_rows: 0,
    }
}

/// Plans `stmt` against the catalog and a storage snapshot.
pub fn plan(catalog: &mut Catalog, snapshot: &Snapshot, ctx: &DdlContext, stmt: &Statement) -> SqlResult<DdlPlan> {
    let mut plan = plan_statement(catalog, snapshot, ctx, stmt)?;
    if matches!(stmt, Statement::CreateTable(_) | Statement::AlterTable { .. }) {
        check_set_members(&mut plan, ctx.strict)?;
    }
    if let CatalogChange::ReplaceTables(replacements) = &mut plan.change {
        crate::foreign_key::follow_renames(catalog, replacements, &mut plan.mutations)?;
    }
    // A renamed table keeps its triggers (RENAME TABLE, ALTER TABLE ...
    // RENAME): they are written again under its new name.
    if let CatalogChange::ReplaceTables(replacements) = &plan.change {
        let moves: Vec<_> =
            replacements.iter().map(|r| (r.from.clone(), (r.def.db.clone(), r.def.name.clone()))).collect();
        let (_, defs) = crate::trigger::follow_renames(catalog, &moves)?;
        for def in defs {
            let json = serde_json::to_vec(&def).map_err(|e| SqlError::internal(format!("catalog encode: {e}")))?;
            plan.mutations.push(Mutation::Put(crate::catalog::trigger_key(&def.db, &def.name), json));
        }
    }
    Ok(plan)
}

fn plan_statement(
    catalog: &mut Catalog,
    snapshot: &Snapshot,
    ctx: &DdlContext,
    stmt: &Statement,
) -> SqlResult<DdlPlan> {
    let DdlContext { db, strict, collation_server, foreign_key_checks } = *ctx;
    match stmt {
        // Only a replay plans an account statement here: a session runs it
        // through `accounts::run`. What the log holds succeeded, so GRANT
        // may create the accounts it names.
        Statement::Account(account) => {
            let ctx = crate::accounts::AccountContext { db, current: None, current_role: None, auto_create: true };
            crate::accounts::plan(catalog, account, &ctx)?.into_ddl()
        }
        Statement::CreateDatabase { name, if_not_exists, options } => {
            if catalog.has_database(name) || crate::session::is_system_db(name) {
                let msg = format!("Can't create database '{name}'; database exists");
                return if *if_not_exists {
                    Ok(noop_with_note(1007, msg))
                } else {
                    Err(SqlError::new(ErrorCode::DB_CREATE_EXISTS, msg))
                };
            }
            let def = DatabaseDef {
                collation: options.collation.unwrap_or(collation_server),
                comment: options.comment.clone().unwrap_or_default(),
            };
            Ok(put_database(name, def))
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
            let views = catalog.views_in(name);
            mutations.extend(views.iter().map(|v| Mutation::Delete(view_key(&v.def.db, &v.def.name))));
            mutations.extend(crate::routine::drop_database_mutations(catalog, name));
            let in_db: Vec<(String, String)> = tables.iter().map(|t| (t.def.db.clone(), t.def.name.clone())).collect();
            mutations.extend(crate::trigger::drop_table_triggers(catalog, &in_db).0);
            let mut plan = ok_plan(mutations, CatalogChange::DropDatabase(name.clone()));
            plan.affected_rows = (tables.len() + views.len()) as u64;
            Ok(plan)
        }
        Statement::CreateTable(ct) => create_table(catalog, db, ct, foreign_key_checks),
        Statement::CreateView(view) => create_view(catalog, db, view),
        Statement::CreateRoutine(create) => crate::routine::plan_create(catalog, db, create),
        Statement::CreateTrigger(create) => crate::trigger::plan_create(catalog, db, create),
        Statement::DropTrigger { name, if_exists } => crate::trigger::plan_drop(catalog, db, name, *if_exists),
        Statement::DropRoutine { kind, name, if_exists } => {
            crate::routine::plan_drop(catalog, db, *kind, name, *if_exists)
        }
        Statement::AlterRoutine { kind, name, changes } => {
            crate::routine::plan_alter(catalog, db, *kind, name, changes)
        }
        Statement::DropView { names, if_exists } => drop_views(catalog, db, names, *if_exists),
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
                    None if crate::system_tables::is_system_table(d, &n.name) => {
                        return Err(crate::system_tables::read_only(&n.name))
                    }
                    None if catalog.view(d, &n.name).is_some() => {
                        let msg = format!("'{d}.{}' is a view", n.name);
                        if !*if_exists {
                            return Err(SqlError::new(ErrorCode::IT_IS_A_VIEW, msg));
                        }
                        let mut plan = ok_plan(Vec::new(), CatalogChange::None);
                        plan.note = Some((ErrorCode::IT_IS_A_VIEW.number, msg));
                        return Ok(plan);
                    }
                    None => missing.push(format!("{d}.{}", n.name)),
                }
            }
            for (d, n) in &dropped {
                if let Some(t) = catalog.table(d, n) {
                    crate::foreign_key::check_drop(catalog, foreign_key_checks, &t.def, &dropped)?;
                }
            }
            mutations.extend(crate::trigger::drop_table_triggers(catalog, &dropped).0);
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
            crate::foreign_key::check_truncate(catalog, foreign_key_checks, &t.def)?;
            let mut mutations = drop_table_mutations(&t);
            mutations.retain(|m| !matches!(m, Mutation::Delete(_)));
            Ok(ok_plan(mutations, CatalogChange::Truncate(t.def.clone())))
        }
        Statement::CreateIndex { table, .. } | Statement::DropIndex { table, .. } => {
            let t = catalog.get_table(db_of(table, db)?, &table.name)?;
            match index_ops(&t.def, stmt) {
                IndexOps::Alter(ops) => alter(catalog, snapshot, &t, &ops, (strict, foreign_key_checks), db),
                IndexOps::Nothing(code, message) => Ok(noop_with_note(code, message)),
            }
        }
        Statement::AlterTable { table, ops } => {
            let t = catalog.get_table(db_of(table, db)?, &table.name)?;
            alter(catalog, snapshot, &t, ops, (strict, foreign_key_checks), db)
        }
        Statement::RenameTables(pairs) => rename_tables(catalog, db, pairs),
        Statement::AlterDatabase { name, options } => {
            let name = match name {
                Some(n) => n.as_str(),
                None if db.is_empty() => return Err(SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected")),
                None => db,
            };
            if !catalog.has_database(name) {
                return Err(SqlError::new(
                    ErrorCode::CANT_CREATE_FILE,
                    format!("Can't create/write to file './{name}/db.opt' (Errcode: 2 \"No such file or directory\")"),
                ));
            }
            let mut def = catalog.database(name).cloned().unwrap_or_default();
            if let Some(collation) = options.collation {
                def.collation = collation;
            }
            if let Some(comment) = &options.comment {
                def.comment = comment.clone();
            }
            // Written even when nothing changes, so that the statement is
            // logged as one transaction as MariaDB logs it.
            Ok(put_database(name, def))
        }
        _ => Err(SqlError::internal("not a DDL statement")),
    }
}

/// What CREATE / DROP INDEX does to a table.
pub(crate) enum IndexOps {
    /// These ALTER TABLE operations.
    Alter(Vec<AlterOp>),
    /// Nothing but IF [NOT] EXISTS's note: (code, message).
    Nothing(u16, String),
}

/// CREATE / DROP INDEX on the table `def` as ALTER TABLE operations.
pub(crate) fn index_ops(def: &TableDef, stmt: &Statement) -> IndexOps {
    match stmt {
        Statement::CreateIndex { index, if_not_exists, or_replace, .. } => {
            let name = index.name.as_deref().unwrap_or_default();
            let exists = def.indexes.iter().any(|i| i.name.eq_ignore_ascii_case(name));
            if exists && *if_not_exists {
                let message = format!("Duplicate key name '{name}'");
                return IndexOps::Nothing(ErrorCode::DUP_KEY_NAME.number, message);
            }
            let mut ops = Vec::new();
            if exists && *or_replace {
                ops.push(AlterOp::DropIndex(name.to_string()));
            }
            ops.push(AlterOp::AddIndex(index.clone()));
            IndexOps::Alter(ops)
        }
        Statement::DropIndex { name, if_exists, .. } => {
            if *if_exists && !def.indexes.iter().any(|i| i.name.eq_ignore_ascii_case(name)) {
                let message = format!("Can't DROP INDEX `{name}`; check that it exists");
                return IndexOps::Nothing(ErrorCode::CANT_DROP_FIELD_OR_KEY.number, message);
            }
            let op = if name.eq_ignore_ascii_case("PRIMARY") {
                AlterOp::DropPrimaryKey
            } else {
                AlterOp::DropIndex(name.clone())
            };
            IndexOps::Alter(vec![op])
        }
        _ => IndexOps::Alter(Vec::new()),
    }
}

fn put_database(name: &str, def: DatabaseDef) -> DdlPlan {
    let mut plan =
        ok_plan(vec![Mutation::Put(db_key(name), def.encode())], CatalogChange::PutDatabase(name.into(), def));
    plan.affected_rows = 1;
    plan
}

/// CREATE [OR REPLACE] VIEW / ALTER VIEW. A view and a table never share
/// a name: MariaDB's errors say which one is in the way.
fn create_view(catalog: &Catalog, current_db: &str, view: &CreateView) -> SqlResult<DdlPlan> {
    let db = db_of(&view.name, current_db)?;
    let name = &view.name.name;
    if !catalog.has_database(db) {
        return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
    }
    if catalog.table(db, name).is_some() {
        if view.or_replace || view.alter {
            return Err(SqlError::new(ErrorCode::WRONG_OBJECT, format!("'{db}.{name}' is not of type 'VIEW'")));
        }
        return Err(SqlError::new(ErrorCode::TABLE_EXISTS, format!("Table '{name}' already exists")));
    }
    let exists = catalog.view(db, name).is_some();
    if view.alter && !exists {
        return Err(SqlError::no_such_table(db, name));
    }
    if exists && !view.or_replace && !view.alter {
        let msg = format!("Table '{name}' already exists");
        return if view.if_not_exists {
            Ok(noop_with_note(ErrorCode::TABLE_EXISTS.number, msg))
        } else {
            Err(SqlError::new(ErrorCode::TABLE_EXISTS, msg))
        };
    }
    let definer = view.definer.clone().ok_or_else(|| SqlError::internal("CREATE VIEW without its definer"))?;
    let def = crate::view::define(catalog, db, view, definer)?;
    let mutations = vec![put_view_mutation(&def)?];
    let merge_refused = view.algorithm != def.algorithm;
    let mut plan = ok_plan(mutations, CatalogChange::PutView(Box::new(ViewEntry::new(def)?)));
    if merge_refused {
        let message = "View merge algorithm can't be used here for now (assumed undefined algorithm)";
        plan.warnings.push((ErrorCode::WARN_VIEW_MERGE.number, message.into()));
    }
    Ok(plan)
}

/// DROP VIEW [IF EXISTS] v, ...: MariaDB's 4092 for names that are no
/// views (a table's name also warns 1347 under IF EXISTS).
fn drop_views(catalog: &Catalog, current_db: &str, names: &[ObjectName], if_exists: bool) -> SqlResult<DdlPlan> {
    let mut mutations = Vec::new();
    let mut dropped = Vec::new();
    let mut missing = Vec::new();
    let mut warnings = Vec::new();
    for n in names {
        let db = db_of(n, current_db)?;
        if catalog.view(db, &n.name).is_some() {
            mutations.push(Mutation::Delete(view_key(db, &n.name)));
            dropped.push((db.to_string(), n.name.clone()));
            continue;
        }
        if if_exists && catalog.table(db, &n.name).is_some() {
            warnings.push((ErrorCode::WRONG_OBJECT.number, format!("'{db}.{}' is not of type 'VIEW'", n.name)));
        }
        missing.push(format!("{db}.{}", n.name));
    }
    let mut plan = ok_plan(mutations, CatalogChange::DropViews(dropped));
    plan.warnings = warnings;
    if !missing.is_empty() {
        let msg = format!("Unknown VIEW: '{}'", missing.join(","));
        if !if_exists {
            return Err(SqlError::new(ErrorCode::UNKNOWN_VIEW, msg));
        }
        plan.note = Some((ErrorCode::UNKNOWN_VIEW.number, msg));
    }
    Ok(plan)
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

/// Ids for new tables and indexes: the catalog's, or a session's for its
/// temporary tables (`Engine::next_temp_id`).
pub(crate) type NextId<'a> = &'a mut dyn FnMut() -> u64;

fn build_index(next_id: NextId, def: &TableDef, spec: &IndexSpec, existing: &[IndexDef]) -> SqlResult<IndexDef> {
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
    let parts = columns
        .iter()
        .enumerate()
        .map(|(n, &c)| key_part(def, &def.columns[c], spec.parts.get(n).copied().unwrap_or_default()))
        .collect::<SqlResult<Vec<_>>>()?;
    let unique = spec.unique || spec.primary;
    let using = spec.using.clone();
    Ok(IndexDef { id: next_id(), name, columns, unique, primary: spec.primary, parts, generated: false, using })
}

/// A key part as MariaDB keeps it: a prefix only of a string column and
/// no longer than it (1089), never of length 0 (1391); a prefix of the
/// whole length is no prefix. A zero-length NOT NULL string has nothing
/// to index (1167; MariaDB's engines refuse it).
fn key_part(table: &TableDef, column: &ColumnDef, part: KeyPart) -> SqlResult<KeyPart> {
    let length = match column.ty {
        ColumnType::Char(n) | ColumnType::VarChar(n) | ColumnType::Binary(n) | ColumnType::VarBinary(n) => Some(n),
        ColumnType::Text(_) | ColumnType::Blob(_) => None,
        _ => Some(0),
    };
    let zero_length = matches!(
        column.ty,
        ColumnType::Char(0) | ColumnType::VarChar(0) | ColumnType::Binary(0) | ColumnType::VarBinary(0)
    );
    if zero_length && !column.nullable {
        return Err(SqlError::new(
            ErrorCode::WRONG_KEY_COLUMN,
            format!("The storage engine {} can't index column `{}`", table.engine, column.name),
        ));
    }
    let Some(prefix) = part.prefix_length else { return Ok(part) };
    if prefix == 0 {
        return Err(SqlError::new(ErrorCode::KEY_PART_0, format!("Key part '{}' length cannot be 0", column.name)));
    }
    match length {
        Some(n) if prefix > n => Err(SqlError::new(
            ErrorCode::WRONG_SUB_KEY,
            "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys",
        )),
        Some(n) if prefix == n => Ok(KeyPart { prefix_length: None, ..part }),
        _ => Ok(part),
    }
}

fn create_table(
    catalog: &mut Catalog,
    current_db: &str,
    ct: &CreateTable,
    foreign_key_checks: bool,
) -> SqlResult<DdlPlan> {
    let db = db_of(&ct.name, current_db)?;
    // MariaDB's discovery finds a SEQUENCE table of that name first.
    let sequence = crate::sequence::Sequence::parse(&ct.name.name).is_some();
    if crate::system_tables::is_system_table(db, &ct.name.name) || sequence {
        return table_exists(ct);
    }
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
    let replaced = replaced_table(catalog, db, ct)?;
    if replaced.is_none() && (catalog.table(db, &ct.name.name).is_some() || catalog.view(db, &ct.name.name).is_some()) {
        return table_exists(ct);
    }
    let plan = match &ct.like {
        Some(source) => create_like(catalog, db, &ct.name.name, source, current_db)?,
        None => create_new(catalog, db, ct, foreign_key_checks)?,
    };
    match replaced {
        Some(old) => replace_table(catalog, &old, plan, foreign_key_checks),
        None => Ok(plan),
    }
}

/// The table CREATE OR REPLACE TABLE `ct` replaces, if it names one: never
/// a view (1965), nor with IF NOT EXISTS (1221), as in MariaDB.
fn replaced_table(catalog: &Catalog, db: &str, ct: &CreateTable) -> SqlResult<Option<Arc<TableEntry>>> {
    if !ct.or_replace {
        return Ok(None);
    }
    if ct.if_not_exists {
        return Err(SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of OR REPLACE and IF NOT EXISTS"));
    }
    if catalog.view(db, &ct.name.name).is_some() {
        return Err(SqlError::new(ErrorCode::IT_IS_A_VIEW, format!("'{db}.{}' is a view", ct.name.name)));
    }
    Ok(catalog.table(db, &ct.name.name))
}

/// CREATE OR REPLACE TABLE: `plan` (the new table's) also drops `old`, its
/// rows and triggers, in the same transaction — refused like DROP TABLE
/// while another table's FOREIGN KEY references it.
fn replace_table(
    catalog: &Catalog,
    old: &TableEntry,
    mut plan: DdlPlan,
    foreign_key_checks: bool,
) -> SqlResult<DdlPlan> {
    let name = (old.def.db.clone(), old.def.name.clone());
    crate::foreign_key::check_drop(catalog, foreign_key_checks, &old.def, std::slice::from_ref(&name))?;
    let CatalogChange::PutTables(mut defs) = plan.change else {
        return Err(SqlError::internal("CREATE TABLE planned no table"));
    };
    let def = defs.pop().ok_or_else(|| SqlError::internal("CREATE TABLE planned no table"))?;
    let mut mutations = drop_table_mutations(old);
    mutations.extend(crate::trigger::drop_table_triggers(catalog, std::slice::from_ref(&name)).0);
    mutations.append(&mut plan.mutations);
    plan.mutations = mutations;
    plan.change = CatalogChange::RecreateTable(def);
    Ok(plan)
}

/// CREATE TABLE `ct` of a new table (neither LIKE nor SELECT) in `db`.
fn create_new(catalog: &mut Catalog, db: &str, ct: &CreateTable, foreign_key_checks: bool) -> SqlResult<DdlPlan> {
    if ct.select.is_some() {
        return Err(SqlError::internal("CREATE TABLE ... SELECT is planned by create_select"));
    }
    let db_collation = catalog.database(db).map(|d| d.collation).unwrap_or_default();
    let mut def = new_table_def(&mut || catalog.allocate_id(), db, db_collation, ct)?;
    crate::foreign_key::define(catalog, &mut def, &ct.foreign_keys, foreign_key_checks)?;
    crate::foreign_key::drop_covered_generated_keys(&mut def);
    crate::foreign_key::assign_index_ids(&mut def, &mut || catalog.allocate_id());
    sort_indexes(&mut def);
    let put = put_table_mutation(&def)?;
    Ok(ok_plan(vec![put], CatalogChange::PutTables(vec![def])))
}

/// The definition CREATE TABLE `ct` (without LIKE or SELECT) declares in
/// `db`, whose default collation is `db_collation`.
pub(crate) fn new_table_def(
    next_id: NextId,
    db: &str,
    db_collation: Collation,
    ct: &CreateTable,
) -> SqlResult<TableDef> {
    for (i, c) in ct.columns.iter().enumerate() {
        if ct.columns[..i].iter().any(|o| o.name.eq_ignore_ascii_case(&c.name)) {
            return Err(SqlError::new(ErrorCode::DUP_FIELD_NAME, format!("Duplicate column name '{}'", c.name)));
        }
    }
    let mut def = TableDef {
        id: next_id(),
        db: db.to_string(),
        name: ct.name.name.clone(),
        columns: ct.columns.clone(),
        indexes: Vec::new(),
        engine: ct.engine.clone().unwrap_or_else(|| "InnoDB".into()),
        comment: ct.comment.clone().unwrap_or_default(),
        collation: ct.collation.unwrap_or(db_collation),
        key_format: onelog_core::schema::KEY_FORMAT,
        auto_increment_start: ct.auto_increment_start.unwrap_or(0),
        checks: Vec::new(),
        foreign_keys: Vec::new(),
    };
    for column in def.columns.iter_mut() {
        if ct.take_table_collation.iter().any(|n| n.eq_ignore_ascii_case(&column.name)) {
            column.set_collation(crate::parse::inherited_collation(column, def.collation));
        }
    }
    let reserved: Vec<&str> = ct.checks.iter().filter_map(|c| c.name.as_deref()).collect();
    for spec in &ct.checks {
        let check = crate::check::define(&def, spec, &reserved)?;
        def.checks.push(check);
    }
    // Primary key first, as InnoDB keeps it.
    let mut specs: Vec<&IndexSpec> = ct.indexes.iter().filter(|s| s.primary).collect();
    specs.extend(ct.indexes.iter().filter(|s| !s.primary));
    for spec in specs {
        let index = build_index(next_id, &def, spec, &def.indexes)?;
        if index.primary {
            for &c in &index.columns {
                def.columns[c].nullable = false;
            }
        }
        def.indexes.push(index);
    }
    sort_indexes(&mut def);
    validate_table(&mut def)?;
    Ok(def)
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
    let def = like_def(&mut || catalog.allocate_id(), &source.def, db, name);
    let put = put_table_mutation(&def)?;
    Ok(ok_plan(vec![put], CatalogChange::PutTables(vec![def])))
}

/// A copy of `source` named `db.name` under new ids, its AUTO_INCREMENT
/// counter afresh.
pub(crate) fn like_def(next_id: NextId, source: &TableDef, db: &str, name: &str) -> TableDef {
    let mut def = source.clone();
    def.id = next_id();
    def.db = db.to_string();
    def.name = name.to_string();
    def.auto_increment_start = 0;
    // InnoDB's LIKE copies the keys, not the FOREIGN KEY constraints.
    def.foreign_keys.clear();
    for index in &mut def.indexes {
        index.id = next_id();
    }
    def
}

/// RENAME TABLE a TO b, c TO d, ...: each rename sees the ones before it
/// (so `a TO tmp, b TO a, tmp TO b` swaps), and any error renames nothing.
fn rename_tables(catalog: &Catalog, current_db: &str, pairs: &[(ObjectName, ObjectName)]) -> SqlResult<DdlPlan> {
    // The renames so far: a name taken (Some) or freed (None).
    let mut renamed: Vec<((String, String), Option<TableDef>)> = Vec::new();
    let lookup = |renamed: &[((String, String), Option<TableDef>)], key: &(String, String)| match renamed
        .iter()
        .rev()
        .find(|(k, _)| k == key)
    {
        Some((_, def)) => def.clone(),
        None => catalog.table(&key.0, &key.1).map(|t| t.def.clone()),
    };
    let mut mutations = Vec::new();
    let mut replacements = Vec::new();
    for (from, to) in pairs {
        let from_key = (db_of(from, current_db)?.to_string(), from.name.clone());
        let to_key = (db_of(to, current_db)?.to_string(), to.name.clone());
        if crate::system_tables::is_system_table(&from_key.0, &from_key.1) {
            return Err(crate::system_tables::read_only(&from_key.1));
        }
        let mut def = lookup(&renamed, &from_key).ok_or_else(|| SqlError::no_such_table(&from_key.0, &from_key.1))?;
        if lookup(&renamed, &to_key).is_some() || crate::system_tables::is_system_table(&to_key.0, &to_key.1) {
            return Err(SqlError::new(ErrorCode::TABLE_EXISTS, format!("Table '{}' already exists", to_key.1)));
        }
        if !catalog.has_database(&to_key.0) {
            return Err(SqlError::new(
                ErrorCode::ERROR_ON_RENAME,
                format!(
                    "Error on rename of './{}/{}' to './{}/{}' (errno: 168 \"Unknown (generic) error from engine\")",
                    from_key.0, from_key.1, to_key.0, to_key.1
                ),
            ));
        }
        (def.db, def.name) = to_key.clone();
        mutations.push(Mutation::Delete(table_key(&from_key.0, &from_key.1)));
        mutations.push(put_table_mutation(&def)?);
        renamed.push((from_key.clone(), None));
        renamed.push((to_key, Some(def.clone())));
        replacements.push(Replacement { from: from_key, def, auto_increment_next: None });
    }
    Ok(ok_plan(mutations, CatalogChange::ReplaceTables(replacements)))
}

/// A SET column of a created or altered table whose members repeat under
/// its collation: error 1291 in strict mode, else a note (MariaDB keeps
/// the duplicate).
fn check_set_members(plan: &mut DdlPlan, strict: bool) -> SqlResult<()> {
    let defs: Vec<&TableDef> = match &plan.change {
        CatalogChange::PutTables(defs) => defs.iter().collect(),
        CatalogChange::RecreateTable(def) => vec![def],
        CatalogChange::ReplaceTables(replacements) => replacements.iter().map(|r| &r.def).collect(),
        _ => return Ok(()),
    };
    let Some(message) = defs.iter().flat_map(|def| &def.columns).find_map(duplicated_set_member) else {
        return Ok(());
    };
    if strict {
        return Err(SqlError::new(ErrorCode::DUPLICATED_VALUE_IN_TYPE, message));
    }
    plan.note.get_or_insert((ErrorCode::DUPLICATED_VALUE_IN_TYPE.number, message));
    Ok(())
}

/// MariaDB's message for the first member of a SET column that a later
/// one repeats, if any.
fn duplicated_set_member(column: &ColumnDef) -> Option<String> {
    let ColumnType::Set(members) = &column.ty else { return None };
    let repeated = members
        .iter()
        .enumerate()
        .find(|(i, m)| members[i + 1..].iter().any(|later| column.collation.equal(m.as_bytes(), later.as_bytes())))?;
    Some(format!("Column '{}' has duplicated value '{}' in SET", column.name, repeated.1))
}

/// CREATE TABLE of a name that is taken: error 1050, or with IF NOT EXISTS
/// note 1050 and nothing done.
pub(crate) fn table_exists(ct: &CreateTable) -> SqlResult<DdlPlan> {
    let message = format!("Table '{}' already exists", ct.name.name);
    match ct.if_not_exists {
        true => Ok(noop_with_note(ErrorCode::TABLE_EXISTS.number, message)),
        false => Err(SqlError::new(ErrorCode::TABLE_EXISTS, message)),
    }
}

/// Orders indexes as MariaDB keeps (and SHOW CREATE TABLE lists) them: the
/// primary key, UNIQUE keys of NOT NULL columns, other UNIQUE keys, then
/// the rest, each group in the order the keys were added.
fn sort_indexes(def: &mut TableDef) {
    let columns = &def.columns;
    def.indexes.sort_by_key(|i| match (i.primary, i.unique) {
        (true, _) => 0,
        (false, true) if i.columns.iter().all(|&c| !columns[c].nullable) => 1,
        (false, true) => 2,
        (false, false) => 3,
    });
}

/// Checks a new or altered definition: no BLOB/TEXT in a MEMORY table, one AUTO_INCREMENT column, a key
/// on it, defaults the columns can hold; puts expression defaults in their
/// printed form, generated columns' too.
fn validate_table(def: &mut TableDef) -> SqlResult<()> {
    // Every table is OneLog's engine, but one named MEMORY is refused what
    // MariaDB's MEMORY cannot hold, so that a schema OneLog accepts loads
    // into MariaDB.
    if def.engine == "MEMORY" && def.columns.iter().any(|c| matches!(c.ty, ColumnType::Text(_) | ColumnType::Blob(_))) {
        return Err(SqlError::new(
            ErrorCode::TABLE_CANT_HANDLE_BLOB,
            "Storage engine MEMORY doesn't support BLOB/TEXT columns",
        ));
    }
    crate::default_expr::canonicalize(def)?;
    crate::generated::canonicalize(def)?;
    for c in def.columns.iter_mut().filter(|c| c.auto_increment) {
        // AUTO_INCREMENT is the column's default: DEFAULT NULL says
        // nothing more, any other is 1067.
        match &c.default {
            None => {}
            Some(ColumnDefault::Value(Value::Null)) => c.default = None,
            Some(_) => return Err(invalid_default(&c.name)),
        }
    }
    if let Some(col) = def.auto_increment_column() {
        let keyed = def.indexes.iter().any(|i| i.columns.first() == Some(&col));
        if !keyed || def.columns.iter().filter(|c| c.auto_increment).count() > 1 {
            return Err(SqlError::new(
                ErrorCode::WRONG_AUTO_KEY,
                "Incorrect table definition; there can be only one auto column and it must be defined as a key",
            ));
        }
    }
    for c in &mut def.columns {
        literal_default(c)?;
    }
    for c in &def.columns {
        if let Some(ColumnDefault::Value(Value::Null)) = &c.default {
            if !c.nullable {
                return Err(invalid_default(&c.name));
            }
        }
    }
    Ok(())
}

/// A literal default as the column keeps it ('B,a' is SET's 'a,B';
/// '2001-01-01 10:00' is a DATE's '2001-01-01'; 1.234 is DECIMAL(5,2)'s
/// 1.23). One the column cannot hold, or holds only with a warning, is
/// error 1067 in any sql_mode. (MariaDB notes a rounded value, 1265 "at
/// row 0"; table validation has no session to note it to.)
fn literal_default(c: &mut ColumnDef) -> SqlResult<()> {
    let Some(ColumnDefault::Value(v)) = &c.default else { return Ok(()) };
    if v.is_null() {
        return Ok(());
    }
    let conditions = DefaultConditions::default();
    let stored =
        crate::eval::coerce_to_column(v.clone(), c, true, &conditions).map_err(|_| invalid_default(&c.name))?;
    if conditions.warned.get() {
        return Err(invalid_default(&c.name));
    }
    c.default = Some(ColumnDefault::Value(stored));
    Ok(())
}

/// Error 1067 for column `name`'s default.
fn invalid_default(name: &str) -> SqlError {
    SqlError::new(ErrorCode::INVALID_DEFAULT, format!("Invalid default value for '{name}'"))
}

/// Whether storing a literal default warned (notes do not count).
#[derive(Default)]
struct DefaultConditions {
    warned: std::cell::Cell<bool>,
}

impl crate::eval::EvalEnv for DefaultConditions {
    fn system_var(&self, _: crate::ast::VarScope, _: &str) -> SqlResult<Value> {
        Ok(Value::Null)
    }
    fn user_var(&self, _: &str) -> Value {
        Value::Null
    }
    fn subquery(&self, _: &crate::ast::Select, _: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        Ok(Vec::new())
    }
    fn session_fact(&self, _: &str) -> Value {
        Value::Null
    }
    fn binlog_gtid_pos(&self, _: &str, _: u64) -> SqlResult<Value> {
        Ok(Value::Null)
    }
    fn warn(&self, _: u16, _: String) {
        self.warned.set(true);
    }
    fn note(&self, _: u16, _: String) {}
}

/// ALTER TABLE: computes the new definition and rewrites what changed —
/// rows when columns change, index entries when indexes change.
/// The new definition an ALTER TABLE builds, with where each new column's
/// values come from.
struct AlterShape {
    def: TableDef,
    /// Per new column: Some(old position) or None (an added column).
    origin: Vec<Option<usize>>,
    /// Per new column: whether MODIFY/CHANGE changed its type or made it
    /// NOT NULL, so its values are converted.
    converted: Vec<bool>,
    /// Whether a type change makes InnoDB copy the table (and report the
    /// rows it copied); other changes are in place.
    copied: bool,
}

/// Whether InnoDB copies the table for this column change: any change of
/// type, sign or collation except a VARCHAR growing.
fn copies_rows(old: &ColumnDef, new: &ColumnDef) -> bool {
    let widened = matches!((&old.ty, &new.ty), (ColumnType::VarChar(a), ColumnType::VarChar(b)) if b >= a);
    (old.ty != new.ty && !widened) || old.unsigned != new.unsigned || old.collation != new.collation
}

impl AlterShape {
    fn position(&self, name: &str) -> SqlResult<usize> {
        self.def.column_index(name).ok_or_else(|| {
            SqlError::new(ErrorCode::BAD_FIELD, format!("Unknown column '{name}' in '{}'", self.def.name))
        })
    }

    fn check_new_name(&self, name: &str, except: Option<usize>) -> SqlResult<()> {
        match self.def.column_index(name) {
            Some(p) if Some(p) != except => {
                Err(SqlError::new(ErrorCode::DUP_FIELD_NAME, format!("Duplicate column name '{name}'")))
            }
            _ => Ok(()),
        }
    }

    fn change_column(&mut self, old_name: &str, mut column: ColumnDef) -> SqlResult<()> {
        let pos = self.position(old_name)?;
        self.check_new_name(&column.name, Some(pos))?;
        self.drop_column_check(old_name);
        // Key columns are NOT NULL, as MariaDB makes them.
        if self.def.primary_key().is_some_and(|pk| pk.columns.contains(&pos)) {
            column.nullable = false;
        }
        let old = &self.def.columns[pos];
        // InnoDB turns no column into a VIRTUAL one or back.
        let is_virtual = |c: &ColumnDef| c.generated.as_ref().is_some_and(|g| !g.stored);
        if is_virtual(old) != is_virtual(&column) {
            return Err(SqlError::new(
                ErrorCode::UNSUPPORTED_ACTION_ON_GENERATED_COLUMN,
                "This is not yet supported for generated columns",
            ));
        }
        // A new expression gives every row new values; a stored one's are
        // copied.
        self.converted[pos] |= old.generated != column.generated;
        self.copied |= old.generated != column.generated && !is_virtual(&column);
        self.converted[pos] |= copies_rows(old, &column) || (old.nullable && !column.nullable);
        self.copied |= copies_rows(old, &column);
        self.def.columns[pos] = column;
        Ok(())
    }

    /// `DROP CONSTRAINT name`: a table CHECK constraint of that name, else
    /// a unique key (MariaDB's order); none is 1091, or a note with IF
    /// EXISTS.
    fn drop_constraint(&mut self, name: &str, if_exists: bool, changes: &mut TableChanges) -> SqlResult<()> {
        if let Some(at) = self.def.checks.iter().position(|c| !c.column_level && c.name.eq_ignore_ascii_case(name)) {
            self.def.checks.remove(at);
            return Ok(());
        }
        if let Some(at) = self.def.indexes.iter().position(|i| i.unique && i.name.eq_ignore_ascii_case(name)) {
            if self.def.indexes[at].primary {
                return self.drop_primary_key();
            }
            self.def.indexes.remove(at);
            return Ok(());
        }
        let message = format!("Can't DROP CONSTRAINT `{name}`; check that it exists");
        if if_exists {
            changes.note = Some((ErrorCode::CANT_DROP_FIELD_OR_KEY.number, message));
            return Ok(());
        }
        Err(SqlError::new(ErrorCode::CANT_DROP_FIELD_OR_KEY, message))
    }

    /// A column's own CHECK goes with its definition (MODIFY / CHANGE
    /// declare it again, DROP COLUMN drops it).
    fn drop_column_check(&mut self, column: &str) {
        self.def.checks.retain(|c| !(c.column_level && c.name.eq_ignore_ascii_case(column)));
    }

    fn rename_column(&mut self, old_name: &str, new_name: &str) -> SqlResult<()> {
        let pos = self.position(old_name)?;
        self.check_new_name(new_name, Some(pos))?;
        self.def.columns[pos].name = new_name.to_string();
        Ok(())
    }

    /// FIRST (`after` None) or AFTER a column; index positions follow.
    fn move_column(&mut self, name: &str, after: Option<&str>) -> SqlResult<()> {
        let from = self.position(name)?;
        let column = self.def.columns.remove(from);
        let (origin, converted) = (self.origin.remove(from), self.converted.remove(from));
        let to = match after {
            None => 0,
            Some(a) => self.position(a)? + 1,
        };
        self.def.columns.insert(to, column);
        self.origin.insert(to, origin);
        self.converted.insert(to, converted);
        let moved = |c: usize| -> usize {
            let without = if c == from {
                usize::MAX
            } else if c > from {
                c - 1
            } else {
                c
            };
            match without {
                usize::MAX => to,
                w if w >= to => w + 1,
                w => w,
            }
        };
        self.def.indexes.iter_mut().flat_map(|i| i.columns.iter_mut()).for_each(|c| *c = moved(*c));
        self.def.foreign_keys.iter_mut().flat_map(|f| f.columns.iter_mut()).for_each(|c| *c = moved(*c));
        Ok(())
    }

    /// ADD PRIMARY KEY: its columns become NOT NULL, as MariaDB makes them
    /// (a NULL is converted: error 1265 when strict, else a warning).
    fn add_primary_key(&mut self, space: &mut dyn TableSpace, spec: &IndexSpec) -> SqlResult<()> {
        if self.def.primary_key().is_some() {
            return Err(SqlError::new(ErrorCode::MULTIPLE_PRI_KEY, "Multiple primary key defined"));
        }
        let index = build_index(&mut || space.next_id(), &self.def, spec, &self.def.indexes)?;
        for &c in &index.columns {
            if self.def.columns[c].nullable {
                self.def.columns[c].nullable = false;
                self.converted[c] = true;
            }
        }
        self.def.indexes.insert(0, index);
        Ok(())
    }

    fn drop_primary_key(&mut self) -> SqlResult<()> {
        if self.def.primary_key().is_none() {
            return Err(SqlError::new(
                ErrorCode::CANT_DROP_FIELD_OR_KEY,
                "Can't DROP INDEX `PRIMARY`; check that it exists",
            ));
        }
        self.def.indexes.remove(0);
        Ok(())
    }

    /// `ALTER COLUMN c SET DEFAULT v` (a value the column can hold, else
    /// 1067) / `DROP DEFAULT` (`None`).
    fn set_default(&mut self, name: &str, default: Option<&ColumnDefault>) -> SqlResult<()> {
        let pos = self.position(name)?;
        let column = &mut self.def.columns[pos];
        let invalid = || invalid_default(&column.name);
        match default {
            Some(ColumnDefault::Value(v)) if !v.is_null() => {
                crate::eval::coerce_to_column(v.clone(), column, true, &crate::eval::NoWarn).map_err(|_| invalid())?;
            }
            Some(ColumnDefault::CurrentTimestamp)
                if !matches!(column.ty, ColumnType::DateTime { .. } | ColumnType::Timestamp { .. }) =>
            {
                return Err(invalid());
            }
            _ => {}
        }
        // MariaDB accepts a default for an AUTO_INCREMENT column here and
        // keeps none (a CREATE or MODIFY with one is 1067).
        if !column.auto_increment {
            column.default = default.cloned();
        }
        Ok(())
    }

    /// `DROP FOREIGN KEY name`: the constraint goes, its index stays.
    fn drop_foreign_key(&mut self, name: &str) -> SqlResult<()> {
        let before = self.def.foreign_keys.len();
        self.def.foreign_keys.retain(|f| !f.name.eq_ignore_ascii_case(name));
        if self.def.foreign_keys.len() == before {
            return Err(SqlError::new(
                ErrorCode::CANT_DROP_FIELD_OR_KEY,
                format!("Can't DROP FOREIGN KEY `{name}`; check that it exists"),
            ));
        }
        Ok(())
    }

    fn drop_column(&mut self, name: &str) -> SqlResult<()> {
        let pos = self.def.column_index(name).ok_or_else(|| {
            SqlError::new(
                ErrorCode::CANT_DROP_FIELD_OR_KEY,
                format!("Can't DROP COLUMN `{name}`; check that it exists"),
            )
        })?;
        if self.def.primary_key().is_some_and(|pk| pk.columns.contains(&pos)) {
            return Err(SqlError::not_supported("dropping a primary key column"));
        }
        if let Some(fk) = self.def.foreign_keys.iter().find(|f| f.columns.contains(&pos)) {
            // Dropping the column drops the key the constraint needs.
            let index = self.def.indexes.iter().find(|i| i.columns.starts_with(&fk.columns));
            let name = index.map_or(fk.name.as_str(), |i| i.name.as_str());
            return Err(SqlError::new(
                ErrorCode::DROP_INDEX_FK,
                format!("Cannot drop index '{name}': needed in a foreign key constraint"),
            ));
        }
        self.def.columns.remove(pos);
        self.origin.remove(pos);
        self.converted.remove(pos);
        self.drop_column_check(name);
        self.def.indexes.retain(|i| !i.columns.contains(&pos));
        let indexed = self.def.indexes.iter_mut().flat_map(|i| i.columns.iter_mut());
        for c in indexed.chain(self.def.foreign_keys.iter_mut().flat_map(|f| f.columns.iter_mut())) {
            if *c > pos {
                *c -= 1;
            }
        }
        Ok(())
    }

    /// Whether rows must be rewritten: columns added, dropped, moved or
    /// converted (a rename alone changes only the definition).
    fn rows_change(&self, old_width: usize) -> bool {
        self.origin.len() != old_width
            || self.origin.iter().enumerate().any(|(i, o)| *o != Some(i))
            || self.converted.iter().any(|c| *c)
    }

    /// One row of the new shape, converting MODIFY/CHANGE columns as an
    /// UPDATE would store them (strict: an error; else a warning).
    fn new_row(
        &self,
        old_row: &[Value],
        row_number: u64,
        strict: bool,
        env: &CollectWarnings,
    ) -> SqlResult<Vec<Value>> {
        let mut row = Vec::with_capacity(self.def.columns.len());
        for ((origin, converted), column) in self.origin.iter().zip(&self.converted).zip(&self.def.columns) {
            let value = match origin {
                // An added AUTO_INCREMENT column numbers the rows, as
                // MariaDB's copy does.
                None if column.auto_increment && column.unsigned => Value::UInt(row_number),
                None if column.auto_increment => Value::Int(row_number as i64),
                None => added_column_value(column)?,
                Some(p) if !converted => old_row[*p].clone(),
                Some(p) => {
                    convert_value(old_row[*p].clone(), column, strict, env).map_err(|e| at_row_error(e, row_number))?
                }
            };
            row.push(value);
        }
        env.renumber(row_number);
        Ok(row)
    }
}

/// A conversion's complaint as MariaDB words it when ALTER TABLE copies a
/// column (Field to Field) rather than storing a statement's value: a
/// string cut short is 1265, text that is not a number 1292; `None` where
/// the wording is the same.
fn as_copied(code: u16, message: &str) -> Option<(ErrorCode, String)> {
    match code {
        1406 => Some((ErrorCode::WARN_DATA_TRUNCATED, message.replacen("Data too long", "Data truncated", 1))),
        1366 => {
            let (kind_value, _) = message.strip_prefix("Incorrect ")?.split_once(" for column ")?;
            let (kind, value) = kind_value.split_once(' ')?;
            matches!(kind, "integer" | "decimal" | "double").then(|| {
                (ErrorCode::TRUNCATED_WRONG_VALUE, format!("Truncated incorrect {} {value}", kind.to_ascii_uppercase()))
            })
        }
        _ => None,
    }
}

/// A conversion's error as ALTER TABLE reports it for row `row_number`.
fn at_row_error(e: SqlError, row_number: u64) -> SqlError {
    let message = at_row(&e.message, row_number);
    match as_copied(e.code.number, &message) {
        Some((code, copied)) => SqlError::new(code, copied),
        None => SqlError::new(e.code, message),
    }
}

/// Coercion's messages name row 1; ALTER TABLE names the row it copies.
fn at_row(message: &str, row_number: u64) -> String {
    message.replace(" at row 1", &format!(" at row {row_number}"))
}

/// A value converted to a changed column: as coercion stores it, and a NULL
/// into NOT NULL as the type's zero (1265: an error when strict).
fn convert_value(value: Value, column: &ColumnDef, strict: bool, env: &CollectWarnings) -> SqlResult<Value> {
    if value.is_null() && !column.nullable {
        let message = format!("Data truncated for column '{}' at row 1", column.name);
        if strict {
            return Err(SqlError::new(ErrorCode::WARN_DATA_TRUNCATED, message));
        }
        env.warn(ErrorCode::WARN_DATA_TRUNCATED.number, message);
        return added_column_value(&ColumnDef { default: None, ..column.clone() });
    }
    crate::eval::coerce_to_column(value, column, strict, env)
}

/// ALTER TABLE's conversion warnings, numbered by row, at most as many as a
/// session keeps.
#[derive(Default)]
pub(crate) struct CollectWarnings {
    warnings: std::cell::RefCell<Vec<(u16, String)>>,
    renumbered: std::cell::Cell<usize>,
}

impl CollectWarnings {
    const MAX_WARNINGS: usize = 64;

    /// Puts the row number into the warnings the last row added.
    fn renumber(&self, row_number: u64) {
        let mut warnings = self.warnings.borrow_mut();
        for (_, message) in warnings.iter_mut().skip(self.renumbered.get()) {
            *message = at_row(message, row_number);
        }
        self.renumbered.set(warnings.len());
    }

    fn into_warnings(self) -> Vec<(u16, String)> {
        self.warnings.into_inner()
    }
}

impl EvalEnv for CollectWarnings {
    fn system_var(&self, scope: crate::ast::VarScope, name: &str) -> SqlResult<Value> {
        crate::eval::NoWarn.system_var(scope, name)
    }
    fn user_var(&self, name: &str) -> Value {
        crate::eval::NoWarn.user_var(name)
    }
    fn subquery(&self, query: &crate::ast::Select, outer_row: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        crate::eval::NoWarn.subquery(query, outer_row)
    }
    fn session_fact(&self, name: &str) -> Value {
        crate::eval::NoWarn.session_fact(name)
    }
    fn binlog_gtid_pos(&self, file: &str, offset: u64) -> SqlResult<Value> {
        crate::eval::NoWarn.binlog_gtid_pos(file, offset)
    }
    fn warn(&self, code: u16, message: String) {
        let mut warnings = self.warnings.borrow_mut();
        if warnings.len() < Self::MAX_WARNINGS {
            warnings.push(match as_copied(code, &message) {
                Some((copied_code, copied)) => (copied_code.number, copied),
                None => (code, message),
            });
        }
    }
}

/// What ALTER TABLE does besides reshaping the table.
#[derive(Default)]
struct TableChanges<'a> {
    rename_to: Option<&'a ObjectName>,
    auto_increment: Option<u64>,
    order_by: bool,
    /// ENABLE KEYS (true) / DISABLE KEYS (false).
    keys: Option<bool>,
    /// DROP CONSTRAINT IF EXISTS of one that is not there.
    note: Option<(u16, String)>,
}

/// InnoDB's note 1031 for ENABLE KEYS, and for DISABLE KEYS of a table
/// with a non-unique index (the only kind MariaDB would disable).
pub(crate) fn keys_note(def: &TableDef, enable: bool) -> Option<String> {
    (enable || def.indexes.iter().any(|i| !i.unique))
        .then(|| format!("Storage engine InnoDB of the table `{}`.`{}` doesn't have this option", def.db, def.name))
}

/// Where ALTER TABLE's new definition lives: the catalog for base tables,
/// a session's temporary tables (`temp`) for its own.
pub(crate) trait TableSpace {
    /// An id for a new index.
    fn next_id(&mut self) -> u64;
    /// Error unless `db.name` may be the table's new name.
    fn check_rename_target(&self, db: &str, name: &str) -> SqlResult<()>;
    /// Adds FOREIGN KEY constraints to `def` (see `foreign_key::define`).
    fn add_foreign_keys(&mut self, def: &mut TableDef, specs: &[ForeignKeySpec], checks: bool) -> SqlResult<()>;
}

impl TableSpace for Catalog {
    fn next_id(&mut self) -> u64 {
        self.allocate_id()
    }

    fn check_rename_target(&self, db: &str, name: &str) -> SqlResult<()> {
        if self.table(db, name).is_some() {
            return Err(SqlError::new(ErrorCode::TABLE_EXISTS, format!("Table '{name}' already exists")));
        }
        if !self.has_database(db) {
            return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
        }
        Ok(())
    }

    fn add_foreign_keys(&mut self, def: &mut TableDef, specs: &[ForeignKeySpec], checks: bool) -> SqlResult<()> {
        crate::foreign_key::define(self, def, specs, checks)?;
        crate::foreign_key::assign_index_ids(def, &mut || self.allocate_id());
        Ok(())
    }
}

/// A table's rows in clustered-key order, as ALTER TABLE copies them.
pub(crate) type TableRows<'a> =
    Box<dyn Iterator<Item = SqlResult<(onelog_storage::Slice, onelog_storage::Slice)>> + 'a>;

fn alter(
    catalog: &mut Catalog,
    snapshot: &Snapshot,
    table: &Arc<TableEntry>,
    ops: &[AlterOp],
    (strict, foreign_key_checks): (bool, bool),
    current_db: &str,
) -> SqlResult<DdlPlan> {
    let prefix = key::index_prefix(table.clustered_id());
    let end = key::prefix_end(&prefix);
    let rows = snapshot.scan(&prefix, end.as_deref(), false).map_err(storage_err)?;
    let rows = Box::new(rows.map(|r| r.map_err(storage_err)));
    let plan = alter_in(catalog, rows, table, ops, (strict, foreign_key_checks), current_db)?;
    if foreign_key_checks {
        if let CatalogChange::ReplaceTables(replacements) = &plan.change {
            for r in replacements {
                crate::foreign_key::check_existing_rows(catalog, snapshot, table, &r.def)?;
            }
        }
    }
    Ok(plan)
}

/// ALTER TABLE of `table`, whose rows are `rows`, in `space`.
pub(crate) fn alter_in(
    space: &mut dyn TableSpace,
    rows: TableRows,
    table: &Arc<TableEntry>,
    ops: &[AlterOp],
    (strict, foreign_key_checks): (bool, bool),
    current_db: &str,
) -> SqlResult<DdlPlan> {
    let old = &table.def;
    let width = old.columns.len();
    let mut shape = AlterShape {
        def: old.clone(),
        origin: (0..width).map(Some).collect(),
        converted: vec![false; width],
        copied: false,
    };
    let mut new_indexes: Vec<IndexSpec> = Vec::new();
    let mut new_foreign_keys: Vec<ForeignKeySpec> = Vec::new();
    let mut changes = TableChanges::default();
    for op in ops {
        match op {
            AlterOp::AddColumn { column, index, takes_table_collation } => {
                shape.check_new_name(&column.name, None)?;
                let mut column = column.clone();
                if *takes_table_collation {
                    column.set_collation(crate::parse::inherited_collation(&column, shape.def.collation));
                }
                // InnoDB adds a VIRTUAL column in place, a STORED one by
                // copying the rows.
                shape.copied |= column.generated.as_ref().is_some_and(|g| g.stored);
                shape.def.columns.push(column);
                shape.origin.push(None);
                shape.converted.push(false);
                new_indexes.extend(index.clone());
            }
            AlterOp::DropColumn(name) => shape.drop_column(name)?,
            AlterOp::ChangeColumn { old_name, column, takes_table_collation } => {
                let mut column = column.clone();
                if *takes_table_collation {
                    column.set_collation(crate::parse::inherited_collation(&column, shape.def.collation));
                }
                shape.change_column(old_name, column)?
            }
            AlterOp::RenameColumn { old_name, new_name } => shape.rename_column(old_name, new_name)?,
            AlterOp::MoveColumn { name, after } => shape.move_column(name, after.as_deref())?,
            AlterOp::AddIndex(spec) => new_indexes.push(spec.clone()),
            AlterOp::DropIndex(name) if name.eq_ignore_ascii_case("PRIMARY") => shape.drop_primary_key()?,
            AlterOp::DropIndex(name) => {
                let before = shape.def.indexes.len();
                shape.def.indexes.retain(|i| i.primary || !i.name.eq_ignore_ascii_case(name));
                if shape.def.indexes.len() == before {
                    return Err(SqlError::new(
                        ErrorCode::CANT_DROP_FIELD_OR_KEY,
                        format!("Can't DROP INDEX `{name}`; check that it exists"),
                    ));
                }
            }
            AlterOp::DropPrimaryKey => shape.drop_primary_key()?,
            AlterOp::AddCheck(spec) => {
                let reserved: Vec<&str> = ops
                    .iter()
                    .filter_map(|op| match op {
                        AlterOp::AddCheck(CheckSpec { name: Some(name), .. }) => Some(name.as_str()),
                        _ => None,
                    })
                    .collect();
                let check = crate::check::define(&shape.def, spec, &reserved)?;
                shape.def.checks.push(check);
                // MariaDB copies the rows to check a table constraint.
                shape.copied |= spec.column.is_none();
            }
            AlterOp::DropConstraint { name, if_exists } => shape.drop_constraint(name, *if_exists, &mut changes)?,
            AlterOp::AddForeignKey(spec) => new_foreign_keys.push(spec.clone()),
            AlterOp::DropForeignKey(name) => shape.drop_foreign_key(name)?,
            AlterOp::SetDefault { column, default } => shape.set_default(column, default.as_ref())?,
            AlterOp::RenameTable(to) => changes.rename_to = Some(to),
            AlterOp::Engine(engine) => {
                // Another engine is a copy in MariaDB (its rows are counted).
                shape.copied |= !engine.eq_ignore_ascii_case(&shape.def.engine);
                shape.def.engine = engine.clone();
            }
            AlterOp::Comment(comment) => shape.def.comment = comment.clone(),
            AlterOp::AutoIncrement(n) => {
                changes.auto_increment = Some(*n);
                shape.def.auto_increment_start = *n;
            }
            // InnoDB rebuilds in place: no rows counted, nothing to change
            // in OneLog's storage, which keeps no per-table free space.
            AlterOp::Force => {}
            AlterOp::Keys { enable } => changes.keys = Some(*enable),
            AlterOp::OrderBy => {
                changes.order_by = true;
                shape.copied = true;
            }
        }
    }
    for spec in &new_indexes {
        if spec.primary {
            shape.add_primary_key(space, spec)?;
        } else {
            let index = build_index(&mut || space.next_id(), &shape.def, spec, &shape.def.indexes)?;
            shape.def.indexes.push(index);
        }
    }
    space.add_foreign_keys(&mut shape.def, &new_foreign_keys, foreign_key_checks)?;
    // InnoDB adds a checked constraint by copying the table.
    shape.copied |= foreign_key_checks && !new_foreign_keys.is_empty();
    crate::foreign_key::drop_covered_generated_keys(&mut shape.def);
    crate::foreign_key::check_altered(old, &shape.def)?;
    sort_indexes(&mut shape.def);
    // Dropping the primary key copies the rows in MariaDB, unless a UNIQUE
    // key of NOT NULL columns takes its place as InnoDB's clustered index.
    let clustered_by_unique =
        shape.def.indexes.iter().any(|i| i.unique && i.columns.iter().all(|&c| !shape.def.columns[c].nullable));
    shape.copied |= old.primary_key().is_some() && shape.def.primary_key().is_none() && !clustered_by_unique;
    validate_table(&mut shape.def)?;
    if let Some(to) = changes.rename_to {
        rename_target(space, &mut shape.def, to, current_db)?;
    }
    let (mut plan, largest_auto_increment) = rebuild_rows(rows, table, &shape, strict)?;
    if (shape.def.db.as_str(), shape.def.name.as_str()) != (old.db.as_str(), old.name.as_str()) {
        plan.mutations.insert(0, Mutation::Delete(table_key(&old.db, &old.name)));
    }
    if let Some(message) = changes.keys.and_then(|enable| keys_note(old, enable)) {
        plan.note = Some((1031, message));
    }
    if let Some(note) = changes.note {
        plan.note = Some(note);
    }
    if changes.order_by && shape.def.primary_key().is_some() {
        let message =
            format!("ORDER BY ignored as there is a user-defined clustered index in the table '{}'", shape.def.name);
        plan.warnings.push((ErrorCode::UNKNOWN_ERROR.number, message));
    }
    // AUTO_INCREMENT=n sets the counter, never to a value the rows hold.
    let auto_increment_next = shape.def.auto_increment_column().map(|_| {
        let wanted = changes.auto_increment.unwrap_or(*table.auto_increment_next.lock());
        wanted.max(largest_auto_increment + 1)
    });
    plan.change = CatalogChange::ReplaceTables(vec![Replacement {
        from: (old.db.clone(), old.name.clone()),
        def: shape.def,
        auto_increment_next,
    }]);
    Ok(plan)
}

/// `RENAME TO name` inside ALTER TABLE: the new name must be free (the
/// table's own name is).
fn rename_target(space: &dyn TableSpace, def: &mut TableDef, to: &ObjectName, current_db: &str) -> SqlResult<()> {
    let db = db_of(to, current_db)?;
    let same = db == def.db && to.name == def.name;
    if !same {
        space.check_rename_target(db, &to.name)?;
    }
    (def.db, def.name) = (db.to_string(), to.name.clone());
    Ok(())
}

/// The mutations that give every row and secondary index the new shape,
/// and the largest AUTO_INCREMENT value of the new rows.
fn rebuild_rows(
    rows_before: TableRows,
    table: &Arc<TableEntry>,
    shape: &AlterShape,
    strict: bool,
) -> SqlResult<(DdlPlan, u64)> {
    let (old, def) = (&table.def, &shape.def);
    let new_entry = TableEntry::new(def.clone());
    // Hidden row ids continue the table's own count.
    new_entry.next_row_id.store(table.next_row_id.load(Ordering::Relaxed), Ordering::Relaxed);
    // Rows move to new clustered keys when the primary key is another one
    // (added, dropped, replaced) or a key column's values are converted.
    let key_converted = def.primary_key().is_some_and(|pk| pk.columns.iter().any(|&c| shape.converted[c]));
    let rekeyed = key_converted || old.primary_key().map(|i| i.id) != def.primary_key().map(|i| i.id);
    let columns_changed = rekeyed || shape.rows_change(old.columns.len());
    let old_prefix = key::index_prefix(table.clustered_id());
    let old_end = key::prefix_end(&old_prefix);
    let mut mutations = vec![put_table_mutation(def)?];
    if rekeyed {
        mutations.push(Mutation::DeleteRange(old_prefix.clone(), old_end.clone()));
    }
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
    let mut seen_unique: Vec<std::collections::HashSet<Vec<u8>>> = vec![Default::default(); rebuild.len()];
    let mut seen_primary: std::collections::HashSet<Vec<u8>> = Default::default();
    let warnings = CollectWarnings::default();
    let auto_column = def.auto_increment_column();
    let mut largest_auto_increment = 0u64;
    let mut rows = 0u64;
    // New CHECK constraints hold for the rows already there (4025).
    let checks_added = def.checks.iter().any(|c| !old.checks.contains(c));
    for kv in rows_before {
        let (ck, bytes) = kv?;
        rows += 1;
        let mut new_row = shape.new_row(&rows::decode(table, &bytes)?, rows, strict, &warnings)?;
        let stored = |i: usize, v: Value| crate::dml::stored_value(strict, &warnings, &new_entry, i, v);
        crate::generated::fill(&warnings, &new_entry, &mut new_row, &stored).map_err(|e| at_row_error(e, rows))?;
        if checks_added {
            if let Some(violation) = crate::check::violation(&warnings, &new_entry, &new_row)? {
                return Err(violation);
            }
        }
        if let Some(c) = auto_column {
            largest_auto_increment = largest_auto_increment.max(crate::dml::auto_increment_value(&new_row[c]));
        }
        let new_ck = if rekeyed { rows::new_clustered_key(&new_entry, &new_row) } else { ck.to_vec() };
        if columns_changed {
            if let Some(primary) = def.primary_key().filter(|_| rekeyed) {
                if !seen_primary.insert(new_ck.clone()) {
                    return Err(rows::duplicate_entry(primary, &new_row));
                }
            }
            mutations.push(Mutation::Put(new_ck.clone(), rows::encode(&new_entry, &new_row)?));
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
            k.extend_from_slice(&new_ck[8..]);
            mutations.push(Mutation::Put(k, new_ck.clone()));
        }
    }
    table.next_row_id.fetch_max(new_entry.next_row_id.load(Ordering::Relaxed), Ordering::Relaxed);
    let mut plan = ok_plan(mutations, CatalogChange::PutTables(vec![def.clone()]));
    if shape.copied {
        plan.affected_rows = rows;
    }
    plan.warnings = warnings.into_warnings();
    Ok((plan, largest_auto_increment))
}

fn added_column_value(c: &ColumnDef) -> SqlResult<Value> {
    Ok(match &c.default {
        Some(ColumnDefault::Value(v)) => v.clone(),
        Some(ColumnDefault::Expr(_)) => return Err(crate::default_expr::existing_rows_refused()),
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
    })
}
