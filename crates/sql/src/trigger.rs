//! Triggers: the catalog entry ([`TriggerDef`], persisted like a routine's
//! and committed as a QUERY event like other DDL), CREATE / DROP planning,
//! SHOW, and firing. A trigger's body runs through the routine interpreter
//! inside the statement that fires it, with `NEW.col` / `OLD.col` as
//! pseudo-variables: what it writes is logged as row events of the firing
//! transaction, so a replay or a replica never runs a trigger.

use crate::ast::routine::Routine;
use crate::ast::trigger::{CreateTrigger, RowReference, TriggerEvent, TriggerOrder, TriggerTiming};
use crate::ast::{ObjectName, ShowFilter};
use crate::catalog::{trigger_key, Catalog, TableEntry};
use crate::ddl::{CatalogChange, DdlPlan};
use crate::session::{QueryResult, ResultColumn, Session};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use onelog_storage::Mutation;
use std::sync::Arc;

/// A trigger as the catalog keeps it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TriggerDef {
    pub db: String,
    pub name: String,
    pub table: String,
    pub timing: TriggerTiming,
    pub event: TriggerEvent,
    /// Firing order among the table's triggers of the same timing and
    /// event, from 1 (information_schema's ACTION_ORDER).
    pub action_order: u32,
    /// The definition from its TRIGGER keyword on, as written.
    pub text_from_trigger: String,
    pub body_text: String,
    pub definer: (String, String),
    pub sql_mode: String,
    /// `YYYY-MM-DD hh:mm:ss.cc`, as MariaDB shows it.
    pub created: String,
    pub character_set_client: String,
    pub collation_connection: String,
}

/// A catalog entry: the definition and its parsed body.
#[derive(Debug)]
pub struct TriggerEntry {
    pub def: TriggerDef,
    pub body: Arc<Routine>,
}

impl TriggerEntry {
    pub fn new(def: TriggerDef) -> SqlResult<TriggerEntry> {
        let parsed = crate::parse::trigger::parse_create_trigger(&create_statement(&def))?
            .ok_or_else(|| SqlError::internal("trigger definition is no CREATE TRIGGER"))?;
        Ok(TriggerEntry { def, body: parsed.body })
    }
}

fn quote(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// `CREATE DEFINER=.. TRIGGER ...` as SHOW CREATE TRIGGER prints it and
/// the binlog logs it.
pub fn create_statement(def: &TriggerDef) -> String {
    format!("CREATE DEFINER={}@{} {}", quote(&def.definer.0), quote(&def.definer.1), def.text_from_trigger)
}

fn error(number: u16, sqlstate: &'static str, message: impl Into<String>) -> SqlError {
    SqlError::new(ErrorCode { number, sqlstate }, message.into())
}

/// Fills in what a client's CREATE takes from its session and returns the
/// definition with the text to log (OR REPLACE kept: a replay meets the
/// same catalog).
pub fn define(session: &Session, create: &CreateTrigger, current_db: &str) -> SqlResult<(TriggerDef, String)> {
    let var = |name: &str| session.var(name).unwrap_or_default();
    let now = created_now();
    let definer = create.definer.clone().unwrap_or_else(|| (session.user.clone(), session.host.clone()));
    let def = new_def(
        create,
        current_db,
        definer,
        var("sql_mode"),
        now,
        var("character_set_client"),
        var("collation_connection"),
    )?;
    let replace = if create.or_replace { "OR REPLACE " } else { "" };
    let (user, host) = (quote(&def.definer.0), quote(&def.definer.1));
    let text = format!("CREATE {replace}DEFINER={user}@{host} {}", create.logged_from_trigger);
    Ok((def, text))
}

/// Now as a trigger's CREATED shows it, to the hundredth of a second.
fn created_now() -> String {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let seconds = onelog_core::Temporal::from_unix_seconds(since_epoch.as_secs() as i64);
    format!("{}.{:02}", seconds.datetime_string(0), since_epoch.subsec_millis() / 10)
}

fn new_def(
    create: &CreateTrigger,
    current_db: &str,
    definer: (String, String),
    sql_mode: String,
    created: String,
    character_set_client: String,
    collation_connection: String,
) -> SqlResult<TriggerDef> {
    Ok(TriggerDef {
        db: crate::ddl::db_of(&create.name, current_db)?.to_string(),
        name: create.name.name.clone(),
        table: create.table.name.clone(),
        timing: create.timing,
        event: create.event,
        action_order: 0,
        text_from_trigger: create.text_from_trigger.clone(),
        body_text: create.body_text.clone(),
        definer,
        sql_mode,
        created,
        character_set_client,
        collation_connection,
    })
}

/// MariaDB's parse-time checks of NEW and OLD (1362, 1363).
fn check_row_references(create: &CreateTrigger) -> SqlResult<()> {
    for r in &create.references {
        if r.assigned && !r.new {
            return Err(error(1362, "HY000", "Updating of OLD row is not allowed in trigger"));
        }
        match (r.new, create.event) {
            (false, TriggerEvent::Insert) => {
                return Err(error(1363, "HY000", "There is no OLD row in on INSERT trigger"))
            }
            (true, TriggerEvent::Delete) => {
                return Err(error(1363, "HY000", "There is no NEW row in on DELETE trigger"))
            }
            _ => {}
        }
        if r.assigned && create.timing == TriggerTiming::After {
            return Err(error(1362, "HY000", "Updating of NEW row is not allowed in after trigger"));
        }
    }
    Ok(())
}

fn check_columns(table: &TableEntry, references: &[RowReference]) -> SqlResult<()> {
    match references.iter().find(|r| table.def.column_index(&r.column).is_none()) {
        Some(r) => Err(SqlError::bad_field(&r.column, if r.new { "NEW" } else { "OLD" })),
        None => Ok(()),
    }
}

/// Plans CREATE TRIGGER: the new trigger takes its place among its
/// table's triggers of the same timing and event (last, or as FOLLOWS /
/// PRECEDES say), and those whose order changes are written again.
pub fn plan_create(catalog: &Catalog, db: &str, create: &CreateTrigger) -> SqlResult<DdlPlan> {
    check_row_references(create)?;
    crate::parse::routine::refuse_in_function_or_trigger(&create.body.body, "trigger")?;
    let mut def = match &create.defined {
        Some(def) => (**def).clone(),
        None => {
            let sql_mode = crate::vars::lookup("sql_mode").map(|d| d.default.to_string()).unwrap_or_default();
            let definer = create.definer.clone().unwrap_or_else(|| ("root".into(), "localhost".into()));
            let created = created_now();
            new_def(create, db, definer, sql_mode, created, "utf8mb4".into(), "utf8mb4_general_ci".into())?
        }
    };
    let table_db = crate::ddl::db_of(&create.table, db)?;
    if catalog.view(table_db, &create.table.name).is_some() {
        return Err(SqlError::new(
            ErrorCode::WRONG_OBJECT,
            format!("'{table_db}.{}' is not of type 'BASE TABLE'", create.table.name),
        ));
    }
    let table = catalog.get_table(table_db, &create.table.name)?;
    if table_db != def.db {
        return Err(error(1435, "HY000", "Trigger in wrong schema"));
    }
    def.table = table.def.name.clone();
    check_columns(&table, &create.references)?;
    let existing = catalog.trigger(&def.db, &def.name);
    if existing.is_some() && !create.or_replace {
        let message = format!("Trigger '{}.{}' already exists", def.db, def.name);
        if create.if_not_exists {
            return Ok(crate::ddl::noop_with_note(1359, message));
        }
        return Err(error(1359, "HY000", message));
    }
    let mut mutations = Vec::new();
    if let Some(old) = &existing {
        mutations.push(Mutation::Delete(trigger_key(&old.def.db, &old.def.name)));
    }
    let mut order: Vec<TriggerDef> = catalog
        .triggers_for(&def.db, &def.table, def.timing, def.event)
        .into_iter()
        .filter(|t| !t.def.name.eq_ignore_ascii_case(&def.name))
        .map(|t| t.def.clone())
        .collect();
    let at = match &create.order {
        None => order.len(),
        Some(TriggerOrder::Follows(other) | TriggerOrder::Precedes(other)) => {
            let found = order.iter().position(|t| t.name.eq_ignore_ascii_case(other)).ok_or_else(|| {
                error(
                    4031,
                    "HY000",
                    format!("Referenced trigger '{other}' for the given action time and event type does not exist"),
                )
            })?;
            found + usize::from(matches!(create.order, Some(TriggerOrder::Follows(_))))
        }
    };
    order.insert(at, def);
    let mut changed = Vec::new();
    for (i, mut t) in order.into_iter().enumerate() {
        let position = i as u32 + 1;
        if t.action_order == position && i != at {
            continue;
        }
        t.action_order = position;
        let json = serde_json::to_vec(&t).map_err(|e| SqlError::internal(format!("catalog encode: {e}")))?;
        mutations.push(Mutation::Put(trigger_key(&t.db, &t.name), json));
        let body = if i == at { create.body.clone() } else { TriggerEntry::new(t.clone())?.body };
        changed.push(TriggerEntry { def: t, body });
    }
    let removed = existing.map(|e| (e.def.db.clone(), e.def.name.clone()));
    Ok(crate::ddl::ok_plan(mutations, CatalogChange::PutTriggers(removed, changed)))
}

/// Plans DROP TRIGGER [IF EXISTS].
pub fn plan_drop(catalog: &Catalog, db: &str, name: &ObjectName, if_exists: bool) -> SqlResult<DdlPlan> {
    let db = crate::ddl::db_of(name, db)?;
    let Some(entry) = catalog.trigger(db, &name.name) else {
        if if_exists {
            return Ok(crate::ddl::noop_with_note(1360, "Trigger does not exist".into()));
        }
        return Err(error(1360, "HY000", "Trigger does not exist"));
    };
    Ok(crate::ddl::ok_plan(
        vec![Mutation::Delete(trigger_key(db, &entry.def.name))],
        CatalogChange::DropTriggers(vec![(db.to_string(), entry.def.name.clone())]),
    ))
}

/// The storage deletions dropping `tables` makes for their triggers, and
/// the triggers' names.
pub fn drop_table_triggers(catalog: &Catalog, tables: &[(String, String)]) -> (Vec<Mutation>, Vec<(String, String)>) {
    let names: Vec<(String, String)> = tables
        .iter()
        .flat_map(|(db, t)| catalog.triggers_on(db, t))
        .map(|e| (e.def.db.clone(), e.def.name.clone()))
        .collect();
    (names.iter().map(|(db, n)| Mutation::Delete(trigger_key(db, n))).collect(), names)
}

/// A table's (database, name) before and after a rename.
pub type TableMove = ((String, String), (String, String));

/// The triggers whose table `moves` renames, in order ((db, table) from
/// → to), with their new table names: the catalog entries and their
/// definitions. A table keeps its triggers only within its database
/// (1435, as in MariaDB).
pub fn follow_renames(catalog: &Catalog, moves: &[TableMove]) -> SqlResult<(Vec<TriggerEntry>, Vec<TriggerDef>)> {
    let mut moved: Vec<(TriggerDef, Arc<Routine>)> = Vec::new();
    for (from, to) in moves.iter().filter(|(from, to)| from != to) {
        let on_from = |def: &TriggerDef| def.db == from.0 && def.table == from.1;
        let mut found: Vec<usize> = (0..moved.len()).filter(|&i| on_from(&moved[i].0)).collect();
        for entry in catalog.triggers_on(&from.0, &from.1) {
            if !moved.iter().any(|(d, _)| d.db == entry.def.db && d.name == entry.def.name) {
                moved.push((entry.def.clone(), entry.body.clone()));
                found.push(moved.len() - 1);
            }
        }
        if !found.is_empty() && from.0 != to.0 {
            return Err(error(1435, "HY000", "Trigger in wrong schema"));
        }
        for i in found {
            moved[i].0.table = to.1.clone();
        }
    }
    let defs = moved.iter().map(|(d, _)| d.clone()).collect();
    Ok((moved.into_iter().map(|(def, body)| TriggerEntry { def, body }).collect(), defs))
}

/// The database collation SHOW prints beside a trigger.
fn database_collation(session: &Session, db: &str) -> &'static str {
    session.engine.catalog.read().database(db).map(|d| d.collation).unwrap_or_default().name()
}

fn text_rows(names: &[&str], rows: Vec<Vec<Value>>) -> QueryResult {
    QueryResult::Rows { columns: names.iter().map(|n| ResultColumn::text(n)).collect(), rows }
}

/// `SHOW CREATE TRIGGER name`.
pub fn show_create(session: &Session, name: &ObjectName) -> SqlResult<QueryResult> {
    let db = session.resolve_db(name)?;
    let entry = session
        .engine
        .catalog
        .read()
        .trigger(db, &name.name)
        .ok_or_else(|| error(1360, "HY000", "Trigger does not exist"))?;
    let d = &entry.def;
    if !session.visibility().trigger(&d.db, &d.table) {
        return Err(crate::privilege::global_denied(crate::accounts::privs::TRIGGER));
    }
    let names = [
        "Trigger",
        "sql_mode",
        "SQL Original Statement",
        "character_set_client",
        "collation_connection",
        "Database Collation",
        "Created",
    ];
    let row = [&d.name, &d.sql_mode, &create_statement(d), &d.character_set_client, &d.collation_connection]
        .into_iter()
        .map(|v| Value::from_str(v))
        .chain([Value::from_str(database_collation(session, &d.db)), Value::from_str(&d.created)])
        .collect();
    Ok(text_rows(&names, vec![row]))
}

/// `SHOW TRIGGERS [FROM db]`: the database's triggers by table, event,
/// timing and order, as MariaDB lists them.
pub fn show_triggers(session: &Session, db: Option<&str>, filter: Option<&ShowFilter>) -> SqlResult<QueryResult> {
    let db = match db {
        Some(db) => db.to_string(),
        None => session.db.clone().ok_or_else(|| SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected"))?,
    };
    if !session.engine.catalog.read().has_database(&db) {
        return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
    }
    let collation = database_collation(session, &db);
    let visibility = session.visibility();
    let mut triggers = sorted_triggers(&session.engine.catalog.read(), Some(&db));
    triggers.retain(|t| visibility.trigger(&t.def.db, &t.def.table));
    // LIKE matches the table, not the trigger.
    if let Some(ShowFilter::Like(pattern)) = filter {
        triggers.retain(|t| crate::show::like(pattern, &t.def.table));
    }
    let where_filter = filter.filter(|f| matches!(f, ShowFilter::Where(_)));
    let rows = triggers
        .iter()
        .map(|e| {
            let d = &e.def;
            let definer = format!("{}@{}", d.definer.0, d.definer.1);
            [d.name.as_str(), d.event.name(), &d.table, &d.body_text, d.timing.name(), &d.created, &d.sql_mode]
                .into_iter()
                .chain([definer.as_str(), &d.character_set_client, &d.collation_connection, collation])
                .map(Value::from_str)
                .collect()
        })
        .collect();
    let names = [
        "Trigger",
        "Event",
        "Table",
        "Statement",
        "Timing",
        "Created",
        "sql_mode",
        "Definer",
        "character_set_client",
        "collation_connection",
        "Database Collation",
    ];
    crate::show::filter_rows(session, text_rows(&names, rows), where_filter)
}

/// Triggers (of `db`, or all) in MariaDB's listing order: by table, then
/// event (INSERT, UPDATE, DELETE), timing (BEFORE first) and order.
pub(crate) fn sorted_triggers(catalog: &Catalog, db: Option<&str>) -> Vec<Arc<TriggerEntry>> {
    let mut all: Vec<Arc<TriggerEntry>> =
        catalog.all_triggers().into_iter().filter(|t| db.is_none_or(|d| t.def.db == d)).collect();
    all.sort_by_key(|t| {
        let d = &t.def;
        (d.db.clone(), d.table.clone(), d.event as u8, d.timing as u8, d.action_order)
    });
    all
}

/// Fires `table`'s triggers for `timing` and `event` on one row: `old` is
/// the row before (UPDATE, DELETE), `new` the row to write (INSERT,
/// UPDATE), which a BEFORE trigger may change. Returns, per column, whether
/// a trigger assigned `NEW.col`.
pub(crate) fn fire(
    session: &mut Session,
    table: &TableEntry,
    timing: TriggerTiming,
    event: TriggerEvent,
    old: Option<&[Value]>,
    mut new: Option<&mut Vec<Value>>,
) -> SqlResult<Vec<bool>> {
    let triggers = session.engine.catalog.read().triggers_for(&table.def.db, &table.def.name, timing, event);
    let mut assigned = vec![false; table.def.columns.len()];
    for trigger in triggers {
        let mut vars = Vec::new();
        for (i, column) in table.def.columns.iter().enumerate() {
            if let Some(row) = new.as_deref() {
                vars.push((crate::parse::routine::row_variable(true, &column.name), column.clone(), row[i].clone()));
            }
            if let Some(row) = old {
                vars.push((crate::parse::routine::row_variable(false, &column.name), column.clone(), row[i].clone()));
            }
        }
        let table_name = (table.def.db.clone(), table.def.name.clone());
        let values = crate::routine::run_trigger(session, &trigger, table_name, vars)?;
        if let Some(row) = new.as_deref_mut() {
            // NEW's values come first for each column (see above).
            let stride = if old.is_some() { 2 } else { 1 };
            for (i, (value, set)) in values.into_iter().step_by(stride).enumerate().take(row.len()) {
                row[i] = value;
                assigned[i] |= set;
            }
        }
    }
    Ok(assigned)
}
