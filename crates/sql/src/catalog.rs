//! The catalog: databases and table definitions, cached in memory and
//! persisted as ordinary keys in the storage key space (so a DDL commit is a
//! storage write like any other, applied in binlog order).

use crate::ast::routine::RoutineKind;
use crate::ast::trigger::{TriggerEvent, TriggerTiming};
use crate::routine::{RoutineDef, RoutineEntry};
use crate::trigger::{TriggerDef, TriggerEntry};
use crate::view::{ViewDef, ViewEntry};
use onelog_core::{Collation, SqlError, SqlResult, TableDef};
use onelog_storage::key::{self, CATALOG_DB, CATALOG_TABLE, FIRST_USER_INDEX_ID};
use onelog_storage::{Mutation, Snapshot, StorageError};
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Per-table runtime state next to its definition.
#[derive(Debug)]
pub struct TableEntry {
    pub def: TableDef,
    /// Next AUTO_INCREMENT value to hand out.
    pub auto_increment_next: Mutex<u64>,
    /// Next hidden row id for tables without a primary key.
    pub next_row_id: AtomicU64,
    /// [`Catalog::generation`] when this definition was installed: a read
    /// view taken at an older generation must not read the table (its rows
    /// may be encoded for another definition).
    pub def_generation: u64,
    /// The definition's CHECK constraints, parsed and bound to its row on
    /// first use (see `check`).
    pub bound_checks: OnceLock<BoundChecks>,
    /// The definition's expression DEFAULTs, parsed and bound to its row on
    /// first use (see `default_expr`).
    pub bound_defaults: OnceLock<BoundDefaults>,
    /// The definition's generated columns, parsed and bound to its row on
    /// first use (see `generated`).
    pub bound_generated: OnceLock<BoundDefaults>,
}

/// CHECK constraints bound to a table's row: (name, condition).
pub type BoundChecks = Vec<(String, crate::ast::Expr)>;

/// Expression DEFAULTs (or generated columns) bound to a table's row:
/// (column, expression), only the columns that have one.
pub type BoundDefaults = Vec<(usize, crate::ast::Expr)>;

impl TableEntry {
    pub fn new(def: TableDef) -> Arc<TableEntry> {
        Self::installed_at(def, 0)
    }

    fn installed_at(def: TableDef, def_generation: u64) -> Arc<TableEntry> {
        let auto_increment_next = Mutex::new(def.auto_increment_start.max(1));
        Arc::new(TableEntry {
            def,
            auto_increment_next,
            next_row_id: AtomicU64::new(1),
            def_generation,
            bound_checks: OnceLock::new(),
            bound_defaults: OnceLock::new(),
            bound_generated: OnceLock::new(),
        })
    }

    /// Key prefix of the clustered index (rows): the primary key's index id,
    /// or the table id for tables that use a hidden row id.
    pub fn clustered_id(&self) -> u64 {
        self.def.primary_key().map_or(self.def.id, |pk| pk.id)
    }
}

/// A database's options (`db.opt` in MariaDB), the value of its catalog
/// key. Databases created before they were kept have an empty value and
/// read as utf8mb4_general_ci, the only collation OneLog had then.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DatabaseDef {
    /// `DEFAULT CHARACTER SET ... COLLATE ...`: tables created without
    /// their own take it.
    #[serde(default)]
    pub collation: Collation,
    /// `COMMENT '...'` (MariaDB 10.5+).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
}

impl DatabaseDef {
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a DatabaseDef always serializes")
    }

    fn decode(value: &[u8]) -> Result<DatabaseDef, serde_json::Error> {
        if value.is_empty() {
            return Ok(DatabaseDef::default());
        }
        serde_json::from_slice(value)
    }
}

/// Catalog: one entry per view, key `[CATALOG_VIEW][db \0 name]` (ids
/// below `FIRST_USER_INDEX_ID` are the catalog's).
const CATALOG_VIEW: u64 = 3;
/// Catalog: one entry per stored routine, key `[CATALOG_ROUTINE][db \0
/// kind:lower-case name]` (see `routine`).
const CATALOG_ROUTINE: u64 = 4;
/// Catalog: one entry per trigger, key `[CATALOG_TRIGGER][db \0 lower-case
/// name]` (see `trigger`; 5 is the accounts'). The bare prefix, with
/// nothing after it, is the accounts' "initialized" marker
/// (`accounts::store::initialized_key`), which shared the id before
/// triggers existed and stays there so data directories keep their layout.
const CATALOG_TRIGGER: u64 = 6;

#[derive(Debug, Default)]
pub struct Catalog {
    databases: BTreeMap<String, DatabaseDef>,
    tables: BTreeMap<(String, String), Arc<TableEntry>>,
    /// Views share the tables' namespace: a name is one or the other.
    views: BTreeMap<(String, String), Arc<ViewEntry>>,
    /// Stored procedures and functions by (db, kind, lower-case name).
    routines: BTreeMap<(String, RoutineKind, String), Arc<RoutineEntry>>,
    /// Triggers by (db, lower-case name): names are unique in a database.
    triggers: BTreeMap<(String, String), Arc<TriggerEntry>>,
    /// Accounts and their privileges (see `accounts`).
    pub accounts: crate::accounts::AccountStore,
    next_id: u64,
    /// How many tables hold FOREIGN KEY constraints: a row change checks
    /// for referencing tables only when some exist.
    tables_with_foreign_keys: usize,
    /// Counts table definitions installed; see [`TableEntry::def_generation`].
    generation: u64,
}

pub(crate) fn db_key(name: &str) -> Vec<u8> {
    let mut k = key::index_prefix(CATALOG_DB);
    k.extend_from_slice(name.as_bytes());
    k
}

pub(crate) fn table_key(db: &str, name: &str) -> Vec<u8> {
    object_key(CATALOG_TABLE, db, name)
}

pub(crate) fn view_key(db: &str, name: &str) -> Vec<u8> {
    object_key(CATALOG_VIEW, db, name)
}

pub(crate) fn routine_key(db: &str, kind: RoutineKind, name: &str) -> Vec<u8> {
    object_key(CATALOG_ROUTINE, db, &format!("{}:{}", kind.name(), name.to_lowercase()))
}

pub(crate) fn trigger_key(db: &str, name: &str) -> Vec<u8> {
    object_key(CATALOG_TRIGGER, db, &name.to_lowercase())
}

fn object_key(kind: u64, db: &str, name: &str) -> Vec<u8> {
    let mut k = key::index_prefix(kind);
    k.extend_from_slice(db.as_bytes());
    k.push(0);
    k.extend_from_slice(name.as_bytes());
    k
}

impl Catalog {
    /// Loads the catalog from a storage snapshot.
    pub fn load(snapshot: &Snapshot) -> Result<Catalog, StorageError> {
        let mut catalog = Catalog { next_id: FIRST_USER_INDEX_ID, ..Default::default() };
        let start = key::index_prefix(CATALOG_DB);
        let end = key::index_prefix(CATALOG_DB + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (k, v) = kv?;
            let name = String::from_utf8_lossy(&k[8..]).into_owned();
            let def = DatabaseDef::decode(&v).unwrap_or_else(|e| {
                tracing::error!("database {name}: unreadable options, taken as the defaults: {e}");
                DatabaseDef::default()
            });
            catalog.databases.insert(name, def);
        }
        let start = key::index_prefix(CATALOG_TABLE);
        let end = key::index_prefix(CATALOG_TABLE + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (_, v) = kv?;
            match serde_json::from_slice::<TableDef>(&v) {
                Ok(def) => catalog.put_table(def),
                Err(e) => tracing::error!("skipping unreadable table definition: {e}"),
            }
        }
        let start = key::index_prefix(CATALOG_VIEW);
        let end = key::index_prefix(CATALOG_VIEW + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (_, v) = kv?;
            let entry = serde_json::from_slice::<ViewDef>(&v)
                .map_err(|e| SqlError::internal(e.to_string()))
                .and_then(ViewEntry::new);
            match entry {
                Ok(entry) => catalog.put_view(entry),
                Err(e) => tracing::error!("skipping unreadable view definition: {e}"),
            }
        }
        let start = key::index_prefix(CATALOG_ROUTINE);
        let end = key::index_prefix(CATALOG_ROUTINE + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (_, v) = kv?;
            let entry = serde_json::from_slice::<RoutineDef>(&v)
                .map_err(|e| SqlError::internal(e.to_string()))
                .and_then(RoutineEntry::new);
            match entry {
                Ok(entry) => catalog.put_routine(entry),
                Err(e) => tracing::error!("skipping unreadable routine definition: {e}"),
            }
        }
        let start = key::index_prefix(CATALOG_TRIGGER);
        let end = key::index_prefix(CATALOG_TRIGGER + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (k, v) = kv?;
            if k.len() == start.len() {
                continue; // the accounts' marker (see CATALOG_TRIGGER)
            }
            let entry = serde_json::from_slice::<TriggerDef>(&v)
                .map_err(|e| SqlError::internal(e.to_string()))
                .and_then(TriggerEntry::new);
            match entry {
                Ok(entry) => catalog.put_trigger(entry),
                Err(e) => tracing::error!("skipping unreadable trigger definition: {e}"),
            }
        }
        let start = key::index_prefix(crate::accounts::store::CATALOG_ACCOUNT);
        let end = key::index_prefix(crate::accounts::store::CATALOG_ACCOUNT + 1);
        for kv in snapshot.scan(&start, Some(&end), false)? {
            let (_, v) = kv?;
            match serde_json::from_slice::<crate::accounts::Account>(&v) {
                Ok(account) => catalog.accounts.put(account),
                Err(e) => tracing::error!("skipping unreadable account: {e}"),
            }
        }
        Ok(catalog)
    }

    pub fn routine(&self, db: &str, kind: RoutineKind, name: &str) -> Option<Arc<RoutineEntry>> {
        self.routines.get(&(db.to_string(), kind, name.to_lowercase())).cloned()
    }

    pub fn routines_in(&self, db: &str) -> Vec<Arc<RoutineEntry>> {
        self.routines.iter().filter(|((d, _, _), _)| d == db).map(|(_, r)| r.clone()).collect()
    }

    pub fn all_routines(&self) -> Vec<Arc<RoutineEntry>> {
        self.routines.values().cloned().collect()
    }

    pub fn put_routine(&mut self, entry: RoutineEntry) {
        let key = (entry.def.db.clone(), entry.def.kind, entry.def.name.to_lowercase());
        self.routines.insert(key, Arc::new(entry));
    }

    pub fn remove_routine(&mut self, db: &str, kind: RoutineKind, name: &str) {
        self.routines.remove(&(db.to_string(), kind, name.to_lowercase()));
    }

    pub fn trigger(&self, db: &str, name: &str) -> Option<Arc<TriggerEntry>> {
        self.triggers.get(&(db.to_string(), name.to_lowercase())).cloned()
    }

    pub fn all_triggers(&self) -> Vec<Arc<TriggerEntry>> {
        self.triggers.values().cloned().collect()
    }

    /// The triggers on a table, in no particular order.
    pub fn triggers_on(&self, db: &str, table: &str) -> Vec<Arc<TriggerEntry>> {
        self.triggers.values().filter(|t| t.def.db == db && t.def.table == table).cloned().collect()
    }

    /// The triggers a row change on `table` fires at `timing`, in order.
    pub fn triggers_for(
        &self,
        db: &str,
        table: &str,
        timing: TriggerTiming,
        event: TriggerEvent,
    ) -> Vec<Arc<TriggerEntry>> {
        let mut found: Vec<Arc<TriggerEntry>> = self
            .triggers
            .values()
            .filter(|t| t.def.db == db && t.def.table == table && t.def.timing == timing && t.def.event == event)
            .cloned()
            .collect();
        found.sort_by_key(|t| t.def.action_order);
        found
    }

    pub fn put_trigger(&mut self, entry: TriggerEntry) {
        let key = (entry.def.db.clone(), entry.def.name.to_lowercase());
        self.triggers.insert(key, Arc::new(entry));
    }

    pub fn remove_trigger(&mut self, db: &str, name: &str) {
        self.triggers.remove(&(db.to_string(), name.to_lowercase()));
    }

    pub fn allocate_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub fn has_database(&self, name: &str) -> bool {
        self.databases.contains_key(name)
    }

    pub fn databases(&self) -> impl Iterator<Item = &String> {
        self.databases.keys()
    }

    pub fn database(&self, name: &str) -> Option<&DatabaseDef> {
        self.databases.get(name)
    }

    /// Adds a database or replaces its options.
    pub fn put_database(&mut self, name: &str, def: DatabaseDef) {
        self.databases.insert(name.to_string(), def);
    }

    pub fn remove_database(&mut self, name: &str) {
        self.databases.remove(name);
        self.tables.retain(|(db, _), _| db != name);
        self.tables_with_foreign_keys = self.tables.values().filter(|t| !t.def.foreign_keys.is_empty()).count();
        self.views.retain(|(db, _), _| db != name);
        self.routines.retain(|(db, _, _), _| db != name);
        self.triggers.retain(|(db, _), _| db != name);
    }

    pub fn view(&self, db: &str, name: &str) -> Option<Arc<ViewEntry>> {
        self.views.get(&(db.to_string(), name.to_string())).cloned()
    }

    pub fn views_in(&self, db: &str) -> Vec<Arc<ViewEntry>> {
        self.views.iter().filter(|((d, _), _)| d == db).map(|(_, v)| v.clone()).collect()
    }

    pub fn all_views(&self) -> Vec<Arc<ViewEntry>> {
        self.views.values().cloned().collect()
    }

    pub fn put_view(&mut self, entry: ViewEntry) {
        self.views.insert((entry.def.db.clone(), entry.def.name.clone()), Arc::new(entry));
    }

    pub fn remove_view(&mut self, db: &str, name: &str) {
        self.views.remove(&(db.to_string(), name.to_string()));
    }

    pub fn table(&self, db: &str, name: &str) -> Option<Arc<TableEntry>> {
        self.tables.get(&(db.to_string(), name.to_string())).cloned()
    }

    /// The table every statement but SELECT uses (SELECT reads the computed
    /// tables of `mysql` apart, which nothing else may use).
    pub fn get_table(&self, db: &str, name: &str) -> SqlResult<Arc<TableEntry>> {
        if crate::system_tables::is_system_table(db, name) {
            return Err(crate::system_tables::read_only(name));
        }
        self.table(db, name).ok_or_else(|| SqlError::no_such_table(db, name))
    }

    pub fn tables_in(&self, db: &str) -> Vec<Arc<TableEntry>> {
        self.tables.iter().filter(|((d, _), _)| d == db).map(|(_, t)| t.clone()).collect()
    }

    pub fn all_tables(&self) -> Vec<Arc<TableEntry>> {
        self.tables.values().cloned().collect()
    }

    pub fn table_by_id(&self, id: u64) -> Option<Arc<TableEntry>> {
        self.tables.values().find(|t| t.def.id == id).cloned()
    }

    /// Installs (or replaces) a table definition, keeping the runtime
    /// counters of a table that already existed.
    pub fn put_table(&mut self, def: TableDef) {
        let (db, name) = (def.db.clone(), def.name.clone());
        self.replace_table(&db, &name, def);
    }

    /// Installs `def` in place of the table `db.name` (a rename when the
    /// names differ), keeping that table's runtime counters.
    pub fn replace_table(&mut self, db: &str, name: &str, def: TableDef) {
        let max_id = def.indexes.iter().map(|i| i.id).chain([def.id]).max().unwrap_or(0);
        self.next_id = self.next_id.max(max_id + 1);
        self.generation += 1;
        let entry = TableEntry::installed_at(def, self.generation);
        self.tables_with_foreign_keys += usize::from(!entry.def.foreign_keys.is_empty());
        if let Some(old) = self.remove_entry(db, name) {
            let mut next = entry.auto_increment_next.lock();
            *next = (*next).max(*old.auto_increment_next.lock());
            drop(next);
            entry.next_row_id.store(old.next_row_id.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        self.tables.insert((entry.def.db.clone(), entry.def.name.clone()), entry);
    }

    /// Increases with every table definition installed.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn remove_table(&mut self, db: &str, name: &str) {
        self.remove_entry(db, name);
    }

    fn remove_entry(&mut self, db: &str, name: &str) -> Option<Arc<TableEntry>> {
        let old = self.tables.remove(&(db.to_string(), name.to_string()))?;
        self.tables_with_foreign_keys -= usize::from(!old.def.foreign_keys.is_empty());
        Some(old)
    }

    /// Whether any table holds a FOREIGN KEY constraint.
    pub fn has_foreign_keys(&self) -> bool {
        self.tables_with_foreign_keys > 0
    }

    /// The constraints that reference `db.name`, with the tables that hold
    /// them, in InnoDB's order (by `db/name` of the constraint: the one its
    /// errors name first).
    pub fn referencing(&self, db: &str, name: &str) -> Vec<(Arc<TableEntry>, onelog_core::ForeignKey)> {
        if !self.has_foreign_keys() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for table in self.tables.values() {
            for fk in &table.def.foreign_keys {
                if fk.ref_db == db && fk.ref_table == name {
                    out.push((table.clone(), fk.clone()));
                }
            }
        }
        out.sort_by(|(a, fa), (b, fb)| (&a.def.db, &fa.name).cmp(&(&b.def.db, &fb.name)));
        out
    }
}

/// The storage mutation that persists a view definition.
pub fn put_view_mutation(def: &ViewDef) -> SqlResult<Mutation> {
    let json = serde_json::to_vec(def).map_err(|e| SqlError::internal(format!("catalog encode: {e}")))?;
    Ok(Mutation::Put(view_key(&def.db, &def.name), json))
}

/// The storage mutation that persists a table definition.
pub fn put_table_mutation(def: &TableDef) -> SqlResult<Mutation> {
    let json = serde_json::to_vec(def).map_err(|e| SqlError::internal(format!("catalog encode: {e}")))?;
    Ok(Mutation::Put(table_key(&def.db, &def.name), json))
}
