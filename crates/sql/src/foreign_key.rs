//! FOREIGN KEY constraints, as InnoDB keeps them: their definition (CREATE
//! and ALTER TABLE), and their enforcement on every row a statement writes.
//!
//! A child row whose key columns are all non-NULL must match a parent row:
//! inserting or changing it to one that does not is 1452. Deleting or
//! changing a parent row that child rows match does what the constraint
//! says: RESTRICT / NO ACTION refuse (1451), CASCADE deletes or updates the
//! child rows, SET NULL sets their key columns to NULL. `foreign_key_checks=0`
//! turns all of it off, cascades included, as in InnoDB.
//!
//! Logging: MariaDB's binlog leaves cascaded changes out (a replica's InnoDB
//! repeats them). OneLog's binlog is its only log, so every change a
//! cascade makes is logged as a row event, and the statement's row events
//! carry NO_FOREIGN_KEY_CHECKS_F so that a MariaDB replica applies exactly
//! those rows without cascading a second time (see `Txn::flush_rows`).
//!
//! Locking follows InnoDB: the parent row a child row references is locked
//! shared (a concurrent DELETE of it waits), the child rows a parent change
//! reaches are locked exclusively, and each row is re-read under its lock.

use crate::ast::ForeignKeySpec;
use crate::catalog::TableEntry;
use crate::locks::LockMode;
use crate::rows;
use crate::session::Session;
use onelog_binlog::event::{RowChange, RowsKind};
use onelog_core::{ColumnDef, ColumnType, ErrorCode, ForeignKey, IndexDef, ReferentialAction, SqlError, SqlResult};
use onelog_core::{TableDef, Value};
use onelog_storage::key;
use std::sync::Arc;

/// InnoDB's bound on nested cascades (FK_MAX_CASCADE_DEL): a deeper chain
/// fails rather than recursing without end through a cycle of constraints.
const MAX_CASCADE_DEPTH: usize = 15;

/// 1005 with InnoDB's errno 150, for a constraint InnoDB cannot create.
pub(crate) fn incorrectly_formed(db: &str, table: &str) -> SqlError {
    SqlError::new(
        ErrorCode::CANT_CREATE_TABLE,
        format!("Can't create table `{db}`.`{table}` (errno: 150 \"Foreign key constraint is incorrectly formed\")"),
    )
}

/// [`incorrectly_formed`] where the table is not known yet (the parser's
/// refusal of `SET DEFAULT`).
pub(crate) fn incorrectly_formed_error() -> SqlError {
    SqlError::new(
        ErrorCode::CANT_CREATE_TABLE,
        "Can't create table (errno: 150 \"Foreign key constraint is incorrectly formed\")",
    )
}

/// What [`define`] needs to know of the tables around the one it defines.
pub(crate) trait ParentLookup {
    /// The definition of `db.name`, if it exists.
    fn parent_def(&self, db: &str, name: &str) -> Option<TableDef>;
    /// Whether a constraint named `name` exists in `db` on a table other
    /// than `except` (constraint names are unique per database in InnoDB).
    fn constraint_taken(&self, db: &str, name: &str, except: &str) -> bool;
}

impl ParentLookup for crate::catalog::Catalog {
    fn parent_def(&self, db: &str, name: &str) -> Option<TableDef> {
        self.table(db, name).map(|t| t.def.clone())
    }

    fn constraint_taken(&self, db: &str, name: &str, except: &str) -> bool {
        self.tables_in(db)
            .iter()
            .filter(|t| t.def.name != except)
            .any(|t| t.def.foreign_keys.iter().any(|f| f.name.eq_ignore_ascii_case(name)))
    }
}

/// Adds the constraints `specs` to `def`, with the index each needs when
/// none of `def`'s keys starts with its columns; such an index has id 0
/// until the caller gives it one ([`assign_index_ids`]: the lookup is the
/// catalog, which hands out ids too). With `checks` (the session's
/// `foreign_key_checks`) the parent must exist and fit.
pub(crate) fn define(
    lookup: &dyn ParentLookup,
    def: &mut TableDef,
    specs: &[ForeignKeySpec],
    checks: bool,
) -> SqlResult<()> {
    for spec in specs {
        let columns = spec
            .columns
            .iter()
            .map(|c| {
                def.column_index(c).ok_or_else(|| {
                    SqlError::new(
                        ErrorCode::KEY_COLUMN_DOES_NOT_EXIST,
                        format!("Key column '{c}' doesn't exist in table"),
                    )
                })
            })
            .collect::<SqlResult<Vec<_>>>()?;
        let ref_db = spec.ref_table.db.clone().unwrap_or_else(|| def.db.clone());
        let key_name = spec.index_name.clone().or_else(|| spec.name.clone());
        if !def.is_transactional() {
            // MyISAM, Aria and MEMORY parse a FOREIGN KEY and keep only its
            // index, as MariaDB's SQL layer adds it for any engine.
            add_generated_key(def, &columns, key_name);
            continue;
        }
        let name = match spec.name.clone().or_else(|| spec.index_name.clone()) {
            Some(name) => name,
            None => generated_name(def),
        };
        let taken = def.foreign_keys.iter().any(|f| f.name.eq_ignore_ascii_case(&name))
            || lookup.constraint_taken(&def.db, &name, &def.name);
        if taken {
            return Err(SqlError::new(
                ErrorCode::CANT_CREATE_TABLE,
                format!(
                    "Can't create table `{}`.`{}` (errno: 121 \"Duplicate key on write or update\")",
                    def.db, def.name
                ),
            ));
        }
        let fk = ForeignKey {
            name,
            columns,
            ref_db,
            ref_table: spec.ref_table.name.clone(),
            ref_columns: spec.ref_columns.clone(),
            on_delete: spec.on_delete,
            on_update: spec.on_update,
        };
        let fits = fk.columns.len() == fk.ref_columns.len()
            && !sets_not_null_column(def, &fk)
            && match parent_of(lookup, def, &fk) {
                Some(parent) => parent_fits(def, &parent, &fk),
                None => !checks,
            };
        if !fits {
            return Err(incorrectly_formed(&def.db, &def.name));
        }
        add_generated_key(def, &fk.columns, key_name);
        def.foreign_keys.push(fk);
    }
    def.foreign_keys.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(())
}

/// Gives the indexes [`define`] added their ids.
pub(crate) fn assign_index_ids(def: &mut TableDef, next_id: crate::ddl::NextId) {
    for index in def.indexes.iter_mut().filter(|i| i.id == 0) {
        index.id = next_id();
    }
}

/// InnoDB's name for an unnamed constraint: `<table>_ibfk_<n>`, one past
/// the largest such `n` the table has.
fn generated_name(def: &TableDef) -> String {
    let prefix = format!("{}_ibfk_", def.name);
    let largest = def
        .foreign_keys
        .iter()
        .filter_map(|f| f.name.strip_prefix(&prefix).and_then(|n| n.parse::<u64>().ok()))
        .max()
        .unwrap_or(0);
    format!("{prefix}{}", largest + 1)
}

/// SET NULL on a NOT NULL column cannot be carried out: InnoDB refuses it.
fn sets_not_null_column(def: &TableDef, fk: &ForeignKey) -> bool {
    let sets_null = fk.on_delete == ReferentialAction::SetNull || fk.on_update == ReferentialAction::SetNull;
    sets_null && fk.columns.iter().any(|&c| !def.columns[c].nullable)
}

fn parent_of(lookup: &dyn ParentLookup, def: &TableDef, fk: &ForeignKey) -> Option<TableDef> {
    if fk.ref_db == def.db && fk.ref_table == def.name {
        return Some(def.clone());
    }
    lookup.parent_def(&fk.ref_db, &fk.ref_table)
}

/// The referenced columns exist, lead one of the parent's keys, and have
/// the types of the referencing ones (InnoDB's "incorrectly formed" rules:
/// same integer type and sign; strings of one character set).
fn parent_fits(child: &TableDef, parent: &TableDef, fk: &ForeignKey) -> bool {
    let Some(positions) = ref_positions(parent, fk) else { return false };
    parent.indexes.iter().any(|i| starts_with(&i.columns, &positions))
        && fk.columns.iter().zip(&positions).all(|(&c, &p)| compatible(&child.columns[c], &parent.columns[p]))
}

fn ref_positions(parent: &TableDef, fk: &ForeignKey) -> Option<Vec<usize>> {
    fk.ref_columns.iter().map(|c| parent.column_index(c)).collect()
}

fn compatible(child: &ColumnDef, parent: &ColumnDef) -> bool {
    if child.ty.is_text() || parent.ty.is_text() {
        return child.ty.is_text() && parent.ty.is_text() && child.collation.charset() == parent.collation.charset();
    }
    if child.ty.is_binary_string() || parent.ty.is_binary_string() {
        return child.ty.is_binary_string() && parent.ty.is_binary_string();
    }
    match (&child.ty, &parent.ty) {
        (ColumnType::Decimal { .. }, ColumnType::Decimal { .. }) => child.ty == parent.ty,
        _ => {
            std::mem::discriminant(&child.ty) == std::mem::discriminant(&parent.ty) && child.unsigned == parent.unsigned
        }
    }
}

fn starts_with(index_columns: &[usize], columns: &[usize]) -> bool {
    index_columns.len() >= columns.len() && index_columns[..columns.len()] == *columns
}

/// The key a constraint needs, as MariaDB derives it: none when a declared
/// key or a longer generated one starts with its columns; else a generated
/// key, which replaces the generated keys it covers (so of two constraints
/// on the same columns the later one names the key).
fn add_generated_key(def: &mut TableDef, columns: &[usize], name: Option<String>) {
    let served = def
        .indexes
        .iter()
        .any(|i| starts_with(&i.columns, columns) && (!i.generated || i.columns.len() > columns.len()));
    if served {
        return;
    }
    def.indexes.retain(|i| !(i.generated && starts_with(columns, &i.columns)));
    let index = implicit_index(def, columns, name, 0);
    def.indexes.push(index);
}

/// The key InnoDB adds for a constraint no key serves: named as the
/// constraint's index or the constraint, else after its first column.
fn implicit_index(def: &TableDef, columns: &[usize], name: Option<String>, id: u64) -> IndexDef {
    let base = name.unwrap_or_else(|| columns.first().map_or_else(String::new, |c| def.columns[*c].name.clone()));
    let mut candidate = base.clone();
    let mut n = 2;
    while def.indexes.iter().any(|i| i.name.eq_ignore_ascii_case(&candidate)) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    IndexDef {
        id,
        name: candidate,
        columns: columns.to_vec(),
        unique: false,
        primary: false,
        parts: Vec::new(),
        generated: true,
        using: None,
    }
}

/// Drops each key added for a constraint ([`IndexDef::generated`]) that
/// another key now serves (its columns lead that key), as MariaDB does.
pub(crate) fn drop_covered_generated_keys(def: &mut TableDef) {
    let covered: Vec<String> = def
        .indexes
        .iter()
        .filter(|g| g.generated)
        .filter(|g| def.indexes.iter().any(|i| i.name != g.name && starts_with(&i.columns, &g.columns)))
        .map(|g| g.name.clone())
        .collect();
    def.indexes.retain(|i| !covered.contains(&i.name));
}

/// The constraint clause of an error message and SHOW CREATE TABLE:
/// `` CONSTRAINT `n` FOREIGN KEY (`c`) REFERENCES `p` (`id`) ON DELETE CASCADE ``.
/// The parent's database is named when it is not `def`'s (or `qualify`).
pub fn clause(def: &TableDef, fk: &ForeignKey, qualify: bool) -> String {
    let quote = |names: &mut dyn Iterator<Item = &str>| names.map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let columns = quote(&mut fk.columns.iter().map(|&c| def.columns[c].name.as_str()));
    let ref_columns = quote(&mut fk.ref_columns.iter().map(String::as_str));
    let parent = if qualify || fk.ref_db != def.db {
        format!("`{}`.`{}`", fk.ref_db, fk.ref_table)
    } else {
        format!("`{}`", fk.ref_table)
    };
    let mut out = format!("CONSTRAINT `{}` FOREIGN KEY ({columns}) REFERENCES {parent} ({ref_columns})", fk.name);
    for (event, action) in [("DELETE", fk.on_delete), ("UPDATE", fk.on_update)] {
        if action != ReferentialAction::Restrict {
            out.push_str(&format!(" ON {event} {}", action.sql_name()));
        }
    }
    out
}

fn checks_on(session: &Session) -> bool {
    session.session_flag("foreign_key_checks")
}

/// Checks a child row about to be written (`old`: the row it replaces, for
/// an UPDATE): every constraint whose columns are all non-NULL, and
/// changed, must find its parent row, which is then locked shared.
pub(crate) fn check_child_row(
    session: &mut Session,
    table: &TableEntry,
    old: Option<&[Value]>,
    new: &[Value],
) -> SqlResult<()> {
    if table.def.foreign_keys.is_empty() || !checks_on(session) {
        return Ok(());
    }
    for fk in &table.def.foreign_keys {
        if fk.columns.iter().any(|&c| new[c].is_null()) {
            continue;
        }
        if old.is_some_and(|old| fk.columns.iter().all(|&c| old[c] == new[c])) {
            continue;
        }
        let parent = session.engine.catalog.read().table(&fk.ref_db, &fk.ref_table);
        let values: Vec<Value> = fk.columns.iter().map(|&c| new[c].clone()).collect();
        let found = match parent {
            Some(parent) => lock_parent_row(session, &parent, fk, &values)?,
            None => false,
        };
        if !found {
            return Err(SqlError::new(
                ErrorCode::NO_REFERENCED_ROW_2,
                format!(
                    "Cannot add or update a child row: a foreign key constraint fails (`{}`.`{}`, {})",
                    table.def.db,
                    table.def.name,
                    clause(&table.def, fk, false)
                ),
            ));
        }
    }
    Ok(())
}

/// Whether the parent row with `values` in the referenced columns exists;
/// locks it shared and re-reads it under the lock when it does.
fn lock_parent_row(session: &mut Session, parent: &TableEntry, fk: &ForeignKey, values: &[Value]) -> SqlResult<bool> {
    let Some(positions) = ref_positions(&parent.def, fk) else { return Ok(false) };
    let Some(index) = parent.def.indexes.iter().find(|i| starts_with(&i.columns, &positions)) else {
        return Ok(false);
    };
    for clustered in matching_keys(session, parent, index, &positions, values)? {
        lock(session, &clustered, LockMode::Shared)?;
        let view = session.engine.store.snapshot();
        if session.txn().get(&view, &clustered)?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn lock(session: &mut Session, clustered: &[u8], mode: LockMode) -> SqlResult<()> {
    let timeout = crate::select::lock_timeout(session);
    let guard = session.guard().clone();
    let engine = session.engine.clone();
    let txn_id = session.txn().id;
    engine.locks.lock(txn_id, clustered, mode, timeout, &guard)
}

/// The clustered keys of `table`'s rows whose `columns` (leading `index`)
/// hold `values`, as the transaction sees them now.
fn matching_keys(
    session: &mut Session,
    table: &TableEntry,
    index: &IndexDef,
    columns: &[usize],
    values: &[Value],
) -> SqlResult<Vec<Vec<u8>>> {
    let prefix = key::encode_key(index.id, columns.iter().zip(values).map(|(&c, v)| (&table.def.columns[c], v)));
    let end = key::prefix_end(&prefix);
    let view = session.engine.store.snapshot();
    let txn = session.txn();
    let mut out = Vec::new();
    for kv in txn.scan(&view, &prefix, end.as_deref(), false)? {
        let (k, v) = kv?;
        out.push(if index.primary { k.to_vec() } else { v.to_vec() });
    }
    Ok(out)
}

/// What a parent row's change is: its deletion, or its update to `new`.
#[derive(Clone, Copy)]
pub(crate) enum ParentChange<'a> {
    Delete,
    Update(&'a [Value]),
}

/// Carries out the constraints that reference `table` for the change of its
/// row `old`: refuses it (1451) or cascades to the child rows. Runs before
/// the parent row itself is written.
pub(crate) fn on_parent_change(
    session: &mut Session,
    table: &TableEntry,
    old: &[Value],
    change: ParentChange,
) -> SqlResult<()> {
    cascade(session, table, old, change, 0)
}

fn cascade(
    session: &mut Session,
    table: &TableEntry,
    old: &[Value],
    change: ParentChange,
    depth: usize,
) -> SqlResult<()> {
    if !session.engine.catalog.read().has_foreign_keys() || !checks_on(session) {
        return Ok(());
    }
    let children = session.engine.catalog.read().referencing(&table.def.db, &table.def.name);
    for (child, fk) in children {
        let Some(positions) = ref_positions(&table.def, &fk) else { continue };
        if let ParentChange::Update(new) = change {
            if positions.iter().all(|&p| old[p] == new[p]) {
                continue;
            }
        }
        let values: Vec<Value> = positions.iter().map(|&p| old[p].clone()).collect();
        if values.iter().any(Value::is_null) {
            continue;
        }
        let action = match change {
            ParentChange::Delete => fk.on_delete,
            ParentChange::Update(_) => fk.on_update,
        };
        let rows = locked_children(session, &child, &fk, &values)?;
        if rows.is_empty() {
            continue;
        }
        if depth >= MAX_CASCADE_DEPTH || matches!(action, ReferentialAction::Restrict | ReferentialAction::NoAction) {
            return Err(row_is_referenced(&child.def, &fk));
        }
        session.txn().mark_no_foreign_key_checks();
        for (clustered, row) in rows {
            apply_action(session, &child, &fk, action, change, &positions, (clustered, row), depth)?;
        }
    }
    Ok(())
}

fn row_is_referenced(child: &TableDef, fk: &ForeignKey) -> SqlError {
    SqlError::new(
        ErrorCode::ROW_IS_REFERENCED_2,
        format!(
            "Cannot delete or update a parent row: a foreign key constraint fails (`{}`.`{}`, {})",
            child.db,
            child.name,
            clause(child, fk, false)
        ),
    )
}

/// The child rows of `fk` holding `values`, each locked exclusively and
/// read under its lock.
fn locked_children(
    session: &mut Session,
    child: &Arc<TableEntry>,
    fk: &ForeignKey,
    values: &[Value],
) -> SqlResult<Vec<(Vec<u8>, Vec<Value>)>> {
    let Some(index) = child.def.indexes.iter().find(|i| starts_with(&i.columns, &fk.columns)) else {
        return Err(SqlError::internal(format!("foreign key {} has no index", fk.name)));
    };
    let mut out = Vec::new();
    for clustered in matching_keys(session, child, index, &fk.columns, values)? {
        lock(session, &clustered, LockMode::Exclusive)?;
        let view = session.engine.store.snapshot();
        if let Some(bytes) = session.txn().get(&view, &clustered)? {
            out.push((clustered, rows::decode(child, &bytes)?));
        }
    }
    Ok(out)
}

/// CASCADE or SET NULL on one child row: the child's own children first
/// (a cascade goes as deep as the constraints do), then the row, logged.
#[allow(clippy::too_many_arguments)]
fn apply_action(
    session: &mut Session,
    child: &Arc<TableEntry>,
    fk: &ForeignKey,
    action: ReferentialAction,
    change: ParentChange,
    parent_positions: &[usize],
    (clustered, row): (Vec<u8>, Vec<Value>),
    depth: usize,
) -> SqlResult<()> {
    let new = match (action, change) {
        (ReferentialAction::Cascade, ParentChange::Delete) => None,
        (ReferentialAction::Cascade, ParentChange::Update(parent_new)) => {
            let mut new = row.clone();
            for (&c, &p) in fk.columns.iter().zip(parent_positions) {
                new[c] = parent_new[p].clone();
            }
            Some(new)
        }
        _ => {
            let mut new = row.clone();
            for &c in &fk.columns {
                new[c] = Value::Null;
            }
            Some(new)
        }
    };
    match new {
        None => {
            cascade(session, child, &row, ParentChange::Delete, depth + 1)?;
            let txn = session.txn();
            rows::delete_row(txn, child, &clustered, &row);
            txn.log_row(child, RowsKind::Delete, RowChange::Delete(row));
        }
        Some(new) => {
            cascade(session, child, &row, ParentChange::Update(&new), depth + 1)?;
            let txn = session.txn();
            rows::write_row(txn, child, &clustered, Some(&row), &new)?;
            txn.log_row(child, RowsKind::Update, RowChange::Update { before: row, after: new });
        }
    }
    Ok(())
}

/// DROP TABLE / TRUNCATE of a table other tables reference (1451 / 1701),
/// unless `foreign_key_checks=0` or the children go with it.
pub(crate) fn check_drop(
    catalog: &crate::catalog::Catalog,
    checks: bool,
    table: &TableDef,
    dropped_with: &[(String, String)],
) -> SqlResult<()> {
    if !checks {
        return Ok(());
    }
    // The table's own references (a self-referencing key) go with it.
    let referenced = catalog.referencing(&table.db, &table.name).into_iter().any(|(child, _)| {
        let own = child.def.db == table.db && child.def.name == table.name;
        !own && !dropped_with.iter().any(|(d, n)| *d == child.def.db && *n == child.def.name)
    });
    if referenced {
        return Err(SqlError::new(
            ErrorCode::ROW_IS_REFERENCED_2,
            "Cannot delete or update a parent row: a foreign key constraint fails",
        ));
    }
    Ok(())
}

/// TRUNCATE of a table another table references: 1701.
pub(crate) fn check_truncate(catalog: &crate::catalog::Catalog, checks: bool, table: &TableDef) -> SqlResult<()> {
    if !checks {
        return Ok(());
    }
    let other = catalog
        .referencing(&table.db, &table.name)
        .into_iter()
        .find(|(child, _)| !(child.def.db == table.db && child.def.name == table.name));
    match other {
        Some((child, fk)) => Err(SqlError::new(
            ErrorCode::TRUNCATE_ILLEGAL_FK,
            format!(
                "Cannot truncate a table referenced in a foreign key constraint (`{}`.`{}`, {})",
                child.def.db,
                child.def.name,
                clause(&child.def, &fk, true)
            ),
        )),
        None => Ok(()),
    }
}

/// An index the table's constraints still need cannot be dropped (1553);
/// nor can a column a constraint uses (1828).
pub(crate) fn check_altered(old: &TableDef, new: &TableDef) -> SqlResult<()> {
    for fk in &new.foreign_keys {
        if !new.indexes.iter().any(|i| starts_with(&i.columns, &fk.columns)) {
            let dropped = old
                .indexes
                .iter()
                .find(|i| starts_with(&i.columns, &fk.columns) && !new.indexes.iter().any(|n| n.name == i.name));
            let name = dropped.map_or(fk.name.as_str(), |i| i.name.as_str());
            return Err(SqlError::new(
                ErrorCode::DROP_INDEX_FK,
                format!("Cannot drop index '{name}': needed in a foreign key constraint"),
            ));
        }
    }
    Ok(())
}

/// The session's `foreign_key_checks` (for DDL planning).
pub(crate) fn session_checks(session: &Session) -> bool {
    checks_on(session)
}

/// ALTER TABLE ... ADD FOREIGN KEY under `foreign_key_checks=1`: every
/// existing row of `table` must find its parent (1452), as InnoDB checks
/// when it copies the table. `new` is the altered definition; a
/// constraint on a column the ALTER adds is not checked (its rows hold the
/// column's default, which InnoDB would check; OneLog does not yet).
pub(crate) fn check_existing_rows(
    catalog: &crate::catalog::Catalog,
    snapshot: &onelog_storage::Snapshot,
    table: &TableEntry,
    new: &TableDef,
) -> SqlResult<()> {
    let old = &table.def;
    for fk in new.foreign_keys.iter().filter(|f| !old.foreign_keys.iter().any(|o| o.name == f.name)) {
        let Some(columns) =
            fk.columns.iter().map(|&c| old.column_index(&new.columns[c].name)).collect::<Option<Vec<usize>>>()
        else {
            continue;
        };
        let Some(parent) = catalog.table(&fk.ref_db, &fk.ref_table) else { continue };
        let Some(positions) = ref_positions(&parent.def, fk) else { continue };
        let Some(index) = parent.def.indexes.iter().find(|i| starts_with(&i.columns, &positions)) else { continue };
        let start = key::index_prefix(table.clustered_id());
        let end = key::prefix_end(&start);
        for kv in snapshot.scan(&start, end.as_deref(), false).map_err(crate::txn::storage_err)? {
            let (_, bytes) = kv.map_err(crate::txn::storage_err)?;
            let row = rows::decode(table, &bytes)?;
            let values: Vec<Value> = columns.iter().map(|&c| row[c].clone()).collect();
            if values.iter().any(Value::is_null) {
                continue;
            }
            let prefix =
                key::encode_key(index.id, positions.iter().zip(&values).map(|(&p, v)| (&parent.def.columns[p], v)));
            let prefix_end = key::prefix_end(&prefix);
            let mut hits = snapshot.scan(&prefix, prefix_end.as_deref(), false).map_err(crate::txn::storage_err)?;
            if hits.next().is_none() {
                return Err(SqlError::new(
                    ErrorCode::NO_REFERENCED_ROW_2,
                    format!(
                        "Cannot add or update a child row: a foreign key constraint fails (`{}`.`{}`, {})",
                        new.db,
                        new.name,
                        clause(new, fk, false)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A renamed table's constraints named `<old>_ibfk_<n>` take its new name,
/// as InnoDB renames them.
fn rename_generated_names(def: &mut TableDef, old_name: &str) {
    let old_prefix = format!("{old_name}_ibfk_");
    for fk in &mut def.foreign_keys {
        if let Some(n) = fk.name.strip_prefix(&old_prefix) {
            fk.name = format!("{}_ibfk_{n}", def.name);
        }
    }
    def.foreign_keys.sort_by(|a, b| a.name.cmp(&b.name));
}

/// RENAME TABLE (or ALTER TABLE ... RENAME) of a parent: the constraints
/// that reference it follow it, as InnoDB's do. `replacements` are the
/// statement's (the moves, in order); a child they do not replace is added
/// to them, and every changed definition's catalog key is rewritten in
/// `mutations`.
pub(crate) fn follow_renames(
    catalog: &crate::catalog::Catalog,
    replacements: &mut Vec<crate::ddl::Replacement>,
    mutations: &mut Vec<onelog_storage::Mutation>,
) -> SqlResult<()> {
    if !catalog.has_foreign_keys() {
        return Ok(());
    }
    let moves: Vec<((String, String), (String, String))> =
        replacements.iter().map(|r| (r.from.clone(), (r.def.db.clone(), r.def.name.clone()))).collect();
    let replaced = |db: &str, name: &str| replacements.iter().any(|r| r.from.0 == db && r.from.1 == name);
    let mut others: Vec<TableDef> = catalog
        .all_tables()
        .into_iter()
        .filter(|t| !t.def.foreign_keys.is_empty() && !replaced(&t.def.db, &t.def.name))
        .map(|t| t.def.clone())
        .collect();
    let mut changed_others = vec![false; others.len()];
    for (from, to) in &moves {
        let retarget = |def: &mut TableDef| {
            let mut changed = false;
            for fk in def.foreign_keys.iter_mut().filter(|f| f.ref_db == from.0 && f.ref_table == from.1) {
                (fk.ref_db, fk.ref_table) = to.clone();
                changed = true;
            }
            changed
        };
        for r in replacements.iter_mut() {
            retarget(&mut r.def);
        }
        for (def, changed) in others.iter_mut().zip(changed_others.iter_mut()) {
            *changed |= retarget(def);
        }
    }
    for r in replacements.iter_mut().filter(|r| r.from.1 != r.def.name) {
        rename_generated_names(&mut r.def, &r.from.1);
    }
    for (def, _) in others.into_iter().zip(changed_others).filter(|(_, changed)| *changed) {
        let from = (def.db.clone(), def.name.clone());
        replacements.push(crate::ddl::Replacement { from, def, auto_increment_next: None });
    }
    for r in replacements.iter() {
        let key = crate::catalog::table_key(&r.def.db, &r.def.name);
        let put = crate::catalog::put_table_mutation(&r.def)?;
        match mutations.iter_mut().find(|m| matches!(m, onelog_storage::Mutation::Put(k, _) if *k == key)) {
            Some(existing) => *existing = put,
            None => mutations.push(put),
        }
    }
    Ok(())
}
