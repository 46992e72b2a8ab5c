//! Temporary tables (`CREATE TEMPORARY TABLE`): private to their session,
//! shadowing a base table of the same name for it, gone when it ends.
//!
//! A temporary table is an ordinary [`TableEntry`] whose table and index
//! ids come from `key::FIRST_TEMP_INDEX_ID` up (`Engine::next_temp_id`), so
//! the executor reads and writes its rows exactly as a base table's: through
//! the transaction's write set, under statement and transaction rollback.
//! Only where committed rows live differs: in the session's in-memory map
//! ([`TempRows`]), never in storage. At commit the transaction's temporary
//! keys move there (`Session::commit_txn`); at ROLLBACK they are discarded
//! with the rest of the write set, as InnoDB's temporary tables roll back.
//! The map is a session's memory, as large as its temporary rows: nothing
//! bounds it but the rows written (OneLog has no spill-to-disk for them).
//!
//! Nothing about them reaches the binlog, as in MariaDB with
//! binlog_format=ROW: CREATE / DROP TEMPORARY TABLE log no QUERY event and
//! their rows no row events (`Txn::log_row`), so recovery never meets them
//! (they vanish on restart, as in MariaDB). They are in no catalog another
//! session reads and take no metadata lock (`Session::statement_tables`
//! leaves them out): LOCK TABLE ... WRITE elsewhere never holds them up.
//! CREATE / DROP TEMPORARY TABLE do not end the open transaction; ALTER and
//! TRUNCATE of one commit it first, as MariaDB's DDL does.

use crate::ast::*;
use crate::catalog::TableEntry;
use crate::ddl;
use crate::session::{QueryResult, Session};
use onelog_core::{ErrorCode, SqlError, SqlResult, TableDef};
use parking_lot::RwLock;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// A session's committed temporary rows: key → row (or index entry).
pub type TempRows = RwLock<BTreeMap<Vec<u8>, Vec<u8>>>;

/// A session's temporary tables and their committed rows; the list is
/// shared with the sessions of the stored functions it calls, which may
/// create and drop them too.
#[derive(Default)]
pub struct TempTables {
    tables: Arc<RwLock<Vec<Arc<TableEntry>>>>,
    rows: Arc<TempRows>,
}

/// The index (or table) id a key belongs to: its first 8 bytes.
fn key_owner(key: &[u8]) -> Option<u64> {
    key.get(..8).and_then(|p| <[u8; 8]>::try_from(p).ok()).map(u64::from_be_bytes)
}

fn owned_ids(def: &TableDef) -> impl Iterator<Item = u64> + '_ {
    def.indexes.iter().map(|i| i.id).chain([def.id])
}

impl TempTables {
    /// The same tables and rows, for a stored function's session (see
    /// `Session::nested_for_function`): it reads and writes their rows
    /// through its transaction; the tables it creates or drops are the
    /// caller's.
    pub fn shared(&self) -> TempTables {
        TempTables { tables: self.tables.clone(), rows: self.rows.clone() }
    }

    /// The temporary table `db.name`, if the session has one.
    pub fn table(&self, db: &str, name: &str) -> Option<Arc<TableEntry>> {
        self.tables.read().iter().find(|t| t.def.db == db && t.def.name == name).cloned()
    }

    /// The committed rows, for the session's transactions to read.
    pub fn rows(&self) -> Arc<TempRows> {
        self.rows.clone()
    }

    fn install(&self, entry: Arc<TableEntry>) {
        self.tables.write().push(entry);
    }

    /// Removes `db.name` and its committed rows; whether it existed.
    fn remove(&self, db: &str, name: &str) -> Option<Arc<TableEntry>> {
        let table = {
            let mut tables = self.tables.write();
            let position = tables.iter().position(|t| t.def.db == db && t.def.name == name)?;
            tables.remove(position)
        };
        self.discard_rows(&table.def);
        Some(table)
    }

    fn discard_rows(&self, def: &TableDef) {
        let ids: HashSet<u64> = owned_ids(def).collect();
        self.rows.write().retain(|k, _| !key_owner(k).is_some_and(|id| ids.contains(&id)));
    }

    /// Applies a committed transaction's temporary writes (key → row,
    /// `None`: deleted); those of tables dropped meanwhile are discarded.
    pub fn apply(&self, writes: BTreeMap<Vec<u8>, Option<Vec<u8>>>) {
        if writes.is_empty() {
            return;
        }
        let live: HashSet<u64> = self.tables.read().iter().flat_map(|t| owned_ids(&t.def)).collect();
        let mut rows = self.rows.write();
        for (k, v) in writes {
            if !key_owner(&k).is_some_and(|id| live.contains(&id)) {
                continue;
            }
            match v {
                Some(v) => rows.insert(k, v),
                None => rows.remove(&k),
            };
        }
    }
}

fn table_exists(name: &str) -> SqlError {
    SqlError::new(ErrorCode::TABLE_EXISTS, format!("Table '{name}' already exists"))
}

/// CREATE [OR REPLACE] TEMPORARY TABLE [IF NOT EXISTS] t (...) / LIKE /
/// [AS] SELECT. Neither a base table of the same name (the temporary one
/// shadows it) nor a missing database is an obstacle, as in MariaDB.
pub fn create(session: &mut Session, ct: &CreateTable, params: &[onelog_core::Value]) -> SqlResult<QueryResult> {
    let current_db = session.db.clone().unwrap_or_default();
    let db = ddl::db_of(&ct.name, &current_db)?.to_string();
    let name = ct.name.name.clone();
    let db_collation = match session.engine.catalog.read().database(&db) {
        Some(d) => d.collation,
        None => session.collation_server(),
    };
    if let Some(source) = &ct.like {
        if ddl::db_of(source, &current_db)? == db && source.name == name {
            return Err(SqlError::new(ErrorCode::NON_UNIQ_TABLE, format!("Not unique table/alias: '{name}'")));
        }
    }
    if session.temp.table(&db, &name).is_some() {
        if ct.or_replace {
            session.temp.remove(&db, &name);
        } else if ct.if_not_exists {
            session.note(ErrorCode::TABLE_EXISTS.number, format!("Table '{name}' already exists"));
            return Ok(QueryResult::ok(0));
        } else {
            return Err(table_exists(&name));
        }
    }
    if !ct.foreign_keys.is_empty() {
        // InnoDB keeps no FOREIGN KEY constraints on temporary tables.
        return Err(crate::foreign_key::incorrectly_formed(&db, &name));
    }
    let engine = session.engine.clone();
    let mut next_id = || engine.next_temp_id();
    if let Some(source) = &ct.like {
        let source = session.table_entry_in(ddl::db_of(source, &current_db)?, &source.name)?;
        let def = ddl::like_def(&mut next_id, &source.def, &db, &name);
        session.temp.install(TableEntry::new(def));
        return Ok(QueryResult::ok(0));
    }
    let Some(select) = &ct.select else {
        let def = ddl::new_table_def(&mut next_id, &db, db_collation, ct)?;
        session.temp.install(TableEntry::new(def));
        return Ok(QueryResult::ok(0));
    };
    let (columns, rows) = session.read_select(select, params)?;
    let definition =
        CreateTable { columns: crate::create_select::table_columns(ct, select, &columns), select: None, ..ct.clone() };
    let def = ddl::new_table_def(&mut next_id, &db, db_collation, &definition)?;
    session.temp.install(TableEntry::new(def));
    let records = rows.len() as u64;
    let insert = crate::create_select::insert_rows(ct, &columns, rows);
    match session.run_write_with(|s| crate::dml::execute(s, &Statement::Insert(insert), &[])) {
        Ok(result) => {
            keep_rows_of_new_table(session, &db, &name);
            Ok(crate::create_select::with_records_info(session, ct.on_duplicate, records, result))
        }
        Err(e) => {
            session.temp.remove(&db, &name);
            Err(e)
        }
    }
}

/// The rows CREATE TEMPORARY TABLE ... SELECT put in its new table stay
/// there whatever the open transaction does next, as in MariaDB (a ROLLBACK
/// leaves them): they leave the write set for the committed rows at once.
fn keep_rows_of_new_table(session: &mut Session, db: &str, name: &str) {
    let (Some(table), Some(txn)) = (session.temp.table(db, name), session.txn.as_mut()) else { return };
    for id in owned_ids(&table.def) {
        session.temp.apply(txn.take_index_writes(id));
    }
}

/// DROP TEMPORARY TABLE [IF EXISTS]: drops the named temporary tables
/// (never a base table); any other name is error 1051 (a note with IF
/// EXISTS), after the temporary ones named are dropped, as in MariaDB.
pub fn drop_temporary(session: &mut Session, names: &[ObjectName], if_exists: bool) -> SqlResult<QueryResult> {
    let missing = drop_shadowing(session, names)?;
    if missing.is_empty() {
        return Ok(QueryResult::ok(0));
    }
    let mut qualified = Vec::with_capacity(missing.len());
    for name in &missing {
        qualified.push(format!("{}.{}", session.resolve_db(name)?, name.name));
    }
    let message = format!("Unknown table '{}'", qualified.join(","));
    if !if_exists {
        return Err(SqlError::new(ErrorCode::BAD_TABLE, message));
    }
    session.note(ErrorCode::BAD_TABLE.number, message);
    Ok(QueryResult::ok(0))
}

/// Drops those of `names` that are temporary tables of the session (what
/// DROP TABLE drops first, as in MariaDB); the other names, in order.
pub fn drop_shadowing(session: &mut Session, names: &[ObjectName]) -> SqlResult<Vec<ObjectName>> {
    let mut rest = Vec::new();
    for name in names {
        let db = session.resolve_db(name)?.to_string();
        if session.temp.remove(&db, &name.name).is_none() {
            rest.push(name.clone());
        }
    }
    Ok(rest)
}

/// TRUNCATE of a temporary table: its rows gone (the open transaction was
/// committed first), its AUTO_INCREMENT counter back to its start.
pub fn truncate(session: &mut Session, table: &Arc<TableEntry>) -> QueryResult {
    session.temp.discard_rows(&table.def);
    *table.auto_increment_next.lock() = table.def.auto_increment_start.max(1);
    QueryResult::ok(0)
}

/// RENAME TABLE of temporary tables (after the implicit commit): each pair
/// in turn, as ALTER TABLE ... RENAME TO. A RENAME naming both temporary
/// and base tables is refused (1235): it would not be one atomic change.
pub fn rename(session: &mut Session, pairs: &[(ObjectName, ObjectName)]) -> SqlResult<QueryResult> {
    for (from, to) in pairs {
        let Some(table) = session.temp_table(from)? else {
            return Err(SqlError::not_supported("RENAME TABLE of temporary and base tables together"));
        };
        alter(session, &table, &[AlterOp::RenameTable(to.clone())])?;
    }
    Ok(QueryResult::ok(0))
}

/// The DROP TABLE a base table's part of a DROP naming temporary tables
/// too is logged as (MariaDB leaves the temporary names out as well).
pub fn drop_text(session: &Session, names: &[ObjectName], if_exists: bool) -> SqlResult<String> {
    let mut quoted = Vec::with_capacity(names.len());
    for name in names {
        quoted.push(format!("`{}`.`{}`", session.resolve_db(name)?, name.name));
    }
    let if_exists = if if_exists { "IF EXISTS " } else { "" };
    Ok(format!("DROP TABLE {if_exists}{} /* generated by server */", quoted.join(",")))
}

/// ALTER TABLE's view of a session's temporary tables: ids of their own,
/// and a new name free among them (a base table's name is no obstacle).
struct TempSpace<'a> {
    session: &'a Session,
}

impl ddl::TableSpace for TempSpace<'_> {
    fn next_id(&mut self) -> u64 {
        self.session.engine.next_temp_id()
    }

    fn check_rename_target(&self, db: &str, name: &str) -> SqlResult<()> {
        if self.session.temp.table(db, name).is_some() {
            return Err(table_exists(name));
        }
        if !self.session.engine.catalog.read().has_database(db) {
            return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
        }
        Ok(())
    }

    /// InnoDB keeps no FOREIGN KEY constraints on temporary tables.
    fn add_foreign_keys(&mut self, def: &mut TableDef, specs: &[ForeignKeySpec], _checks: bool) -> SqlResult<()> {
        match specs.is_empty() {
            true => Ok(()),
            false => Err(crate::foreign_key::incorrectly_formed(&def.db, &def.name)),
        }
    }
}

/// ALTER TABLE (and CREATE / DROP INDEX) of a temporary table, after the
/// open transaction's commit: its committed rows rebuilt in the new shape.
pub fn alter(session: &mut Session, table: &Arc<TableEntry>, ops: &[AlterOp]) -> SqlResult<QueryResult> {
    let current_db = session.db.clone().unwrap_or_default();
    let prefix = onelog_storage::key::index_prefix(table.clustered_id());
    let end = onelog_storage::key::prefix_end(&prefix);
    let rows: Vec<_> = {
        let all = session.temp.rows.read();
        let upper = end.as_deref().map_or(std::ops::Bound::Unbounded, std::ops::Bound::Excluded);
        all.range::<[u8], _>((std::ops::Bound::Included(prefix.as_slice()), upper))
            .map(|(k, v)| Ok((k.clone().into(), v.clone().into())))
            .collect()
    };
    // MariaDB copies a temporary table for any change but a rename, and
    // counts the rows copied.
    let copied_rows = match ops.iter().all(|op| matches!(op, AlterOp::RenameTable(_))) {
        true => 0,
        false => rows.len() as u64,
    };
    let modes = (session.strict(), crate::foreign_key::session_checks(session));
    let plan = ddl::alter_in(&mut TempSpace { session }, Box::new(rows.into_iter()), table, ops, modes, &current_db)?;
    for (code, message) in &plan.warnings {
        crate::eval::EvalEnv::warn(session, *code, message.clone());
    }
    if let Some((code, message)) = &plan.note {
        session.note(*code, message.clone());
    }
    let ddl::CatalogChange::ReplaceTables(mut replacements) = plan.change else {
        return Err(SqlError::internal("ALTER TABLE planned no definition"));
    };
    let replacement = replacements.pop().ok_or_else(|| SqlError::internal("ALTER TABLE planned no definition"))?;
    apply_mutations(&session.temp.rows, plan.mutations);
    let entry = TableEntry::new(replacement.def);
    let counter = replacement.auto_increment_next.unwrap_or(*table.auto_increment_next.lock());
    *entry.auto_increment_next.lock() = counter;
    entry
        .next_row_id
        .store(table.next_row_id.load(std::sync::atomic::Ordering::Relaxed), std::sync::atomic::Ordering::Relaxed);
    let mut tables = session.temp.tables.write();
    match tables.iter().position(|t| Arc::ptr_eq(t, table)) {
        Some(p) => tables[p] = entry,
        None => return Err(SqlError::internal("temporary table vanished during ALTER TABLE")),
    }
    drop(tables);
    Ok(ddl::altered(session, ops, copied_rows))
}

/// Applies a rebuild's row mutations to the temporary rows; those of other
/// keys (the catalog's) concern base tables only.
fn apply_mutations(rows: &TempRows, mutations: Vec<onelog_storage::Mutation>) {
    use onelog_storage::key::is_temp_key;
    use onelog_storage::Mutation;
    let mut rows = rows.write();
    for m in mutations {
        match m {
            Mutation::Put(k, v) if is_temp_key(&k) => {
                rows.insert(k, v);
            }
            Mutation::Delete(k) if is_temp_key(&k) => {
                rows.remove(&k);
            }
            Mutation::DeleteRange(start, end) if is_temp_key(&start) => {
                rows.retain(|k, _| k.as_slice() < start.as_slice() || end.as_ref().is_some_and(|e| k >= e));
            }
            _ => {}
        }
    }
}
