//! Stored procedures and functions: the catalog entry ([`RoutineDef`],
//! persisted like a view's definition and committed as a QUERY event like
//! other DDL), CREATE / DROP planning, and execution — CALL and stored
//! functions called from expressions. The body (parsed by
//! `parse::routine`) is interpreted here: ordinary statements run through
//! the session as if the client had sent them, with local variables bound
//! as `?` parameters, so what a CALL changes is logged as the row events
//! of those statements (never the CALL itself) and a replay or a replica
//! never runs a body. Functions run with a shared session (they are called
//! while a statement holds it): they read through a snapshot and may not
//! write.

use crate::ast::routine::record_field;
use crate::ast::{Assignment, Expr, ObjectName, SetTarget, Statement, VarScope};
use crate::catalog::{routine_key, Catalog};
use crate::ddl::{CatalogChange, DdlPlan};
use crate::eval::{coerce_to_column, coerce_to_variable, truthy, EvalEnv};
use crate::parse::routine::{
    Characteristic, Characteristics, Compound, Condition, ConditionItem, CreateRoutine, DiagnosticsItem,
    GetDiagnostics, LoopKind, ParamMode, Routine, RoutineKind, RoutineParam, RowSource, SignalCondition, SpExpr, SpSql,
    SpStmt, SpTarget, VarType,
};
use crate::session::{QueryResult, Session, Warning};
use crate::txn::Txn;
use onelog_core::{ColumnDef, ErrorCode, SqlError, SqlResult, Value};
use onelog_storage::{Mutation, Snapshot};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

mod out_args;
mod params;
pub(crate) use out_args::as_statement;
use params::Argument;

/// A routine as the catalog keeps it: the texts as written and what
/// MariaDB shows about it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoutineDef {
    pub db: String,
    pub name: String,
    pub kind: RoutineKind,
    pub params_text: String,
    pub returns_text: Option<String>,
    pub body_text: String,
    pub definer: (String, String),
    pub characteristics: Characteristics,
    pub sql_mode: String,
    /// `YYYY-MM-DD hh:mm:ss`.
    pub created: String,
    /// When ALTER last changed it, as `created`; `None`: never.
    #[serde(default)]
    pub last_altered: Option<String>,
    pub character_set_client: String,
    pub collation_connection: String,
}

/// A catalog entry: the definition and its parsed body.
#[derive(Debug)]
pub struct RoutineEntry {
    pub def: RoutineDef,
    pub routine: Arc<Routine>,
}

impl RoutineDef {
    /// When it was last created or altered (LAST_ALTERED, Modified).
    pub fn modified(&self) -> &str {
        self.last_altered.as_deref().unwrap_or(&self.created)
    }
}

impl RoutineEntry {
    pub fn new(def: RoutineDef) -> SqlResult<RoutineEntry> {
        let parsed = crate::parse::routine::parse_create_routine(&create_statement(&def, None))?
            .ok_or_else(|| SqlError::internal("stored routine definition is no CREATE"))?;
        Ok(RoutineEntry { def, routine: parsed.routine })
    }
}

fn quote(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// `CREATE DEFINER=.. PROCEDURE | FUNCTION name(..) ..` as SHOW CREATE
/// prints it and the binlog logs it; the name is qualified when the
/// statement is logged under another database (`logged_in`).
pub fn create_statement(def: &RoutineDef, logged_in: Option<&str>) -> String {
    let name = match logged_in {
        Some(db) if db != def.db => format!("{}.{}", quote(&def.db), quote(&def.name)),
        _ => quote(&def.name),
    };
    let mut out = format!(
        "CREATE DEFINER={}@{} {} {name}({})",
        quote(&def.definer.0),
        quote(&def.definer.1),
        def.kind.name(),
        def.params_text
    );
    if let Some(returns) = &def.returns_text {
        out.push_str(" RETURNS ");
        out.push_str(returns);
    }
    out.push('\n');
    let c = &def.characteristics;
    if c.data_access != "CONTAINS SQL" {
        out.push_str(&format!("    {}\n", c.data_access));
    }
    if c.deterministic {
        out.push_str("    DETERMINISTIC\n");
    }
    if c.security == "INVOKER" {
        out.push_str("    SQL SECURITY INVOKER\n");
    }
    if !c.comment.is_empty() {
        // As MariaDB's append_unescaped: a quote doubled.
        out.push_str(&format!("    COMMENT '{}'\n", c.comment.replace('\\', "\\\\").replace('\'', "''")));
    }
    out.push_str(&def.body_text);
    out
}

/// Fills in what a client's CREATE takes from its session (definer, SQL
/// mode, charsets) and returns the definition with the text to log.
pub fn define(session: &Session, create: &CreateRoutine, current_db: &str) -> SqlResult<(RoutineDef, String)> {
    let db = crate::ddl::db_of(&create.name, current_db)?.to_string();
    let var = |name: &str| session.var(name).unwrap_or_default();
    let def = RoutineDef {
        db,
        name: create.name.name.clone(),
        kind: create.kind,
        params_text: create.params_text.clone(),
        returns_text: create.routine.returns.as_ref().map(returns_text),
        body_text: create.body_text.clone(),
        definer: create.definer.clone().unwrap_or_else(|| (session.user.clone(), session.host.clone())),
        characteristics: create.characteristics.clone(),
        sql_mode: var("sql_mode"),
        created: crate::dml::now().datetime_string(0),
        last_altered: None,
        character_set_client: var("character_set_client"),
        collation_connection: var("collation_connection"),
    };
    let mut text = create_statement(&def, Some(current_db));
    if create.or_replace {
        text = text.replacen("CREATE ", "CREATE OR REPLACE ", 1);
    } else if create.if_not_exists {
        text = text.replacen(&format!("{} ", def.kind.name()), &format!("{} IF NOT EXISTS ", def.kind.name()), 1);
    }
    Ok((def, text))
}

/// A RETURNS type as MariaDB shows it: the type's canonical text, and a
/// text type's charset and collation.
fn returns_text(ty: &ColumnDef) -> String {
    let mut text = crate::show::column_type_text(ty);
    if ty.ty.is_text() {
        text.push_str(&format!(" CHARSET {} COLLATE {}", ty.collation.charset().name(), ty.collation.name()));
    }
    text
}

/// `SHOW CREATE PROCEDURE | FUNCTION name`.
pub fn show_create(session: &Session, kind: RoutineKind, name: &ObjectName) -> SqlResult<QueryResult> {
    let entry = lookup(session, kind, name)?;
    let d = &entry.def;
    let (title, create) = match kind {
        RoutineKind::Procedure => ("Procedure", "Create Procedure"),
        RoutineKind::Function => ("Function", "Create Function"),
    };
    let names = [title, "sql_mode", create, "character_set_client", "collation_connection", "Database Collation"];
    let row = [&d.name, &d.sql_mode, &create_statement(d, None), &d.character_set_client, &d.collation_connection]
        .into_iter()
        .map(|v| Value::from_str(v))
        .chain([Value::from_str(database_collation(session, &d.db))])
        .collect();
    Ok(text_rows(&names, vec![row]))
}

/// The collation a routine's database has, as SHOW shows beside it.
fn database_collation(session: &Session, db: &str) -> &'static str {
    session.engine.catalog.read().database(db).map(|d| d.collation).unwrap_or_default().name()
}

fn text_rows(names: &[&str], rows: Vec<Vec<Value>>) -> QueryResult {
    let columns = names.iter().map(|n| crate::session::ResultColumn::text(n)).collect();
    QueryResult::Rows { columns, rows }
}

/// `SHOW PROCEDURE | FUNCTION STATUS`: one row per routine of that kind,
/// by database and name.
pub fn show_status(
    session: &Session,
    kind: Option<RoutineKind>,
    filter: Option<&crate::ast::ShowFilter>,
) -> SqlResult<QueryResult> {
    let mut routines: Vec<Arc<RoutineEntry>> =
        session.engine.catalog.read().all_routines().into_iter().filter(|r| Some(r.def.kind) == kind).collect();
    routines.sort_by(|a, b| (&a.def.db, &a.def.name).cmp(&(&b.def.db, &b.def.name)));
    let rows = routines
        .iter()
        .map(|r| {
            let d = &r.def;
            let collation = database_collation(session, &d.db);
            let definer = format!("{}@{}", d.definer.0, d.definer.1);
            let c = &d.characteristics;
            [d.db.as_str(), &d.name, d.kind.name(), &definer, d.modified(), &d.created, &c.security, &c.comment]
                .into_iter()
                .chain([d.character_set_client.as_str(), &d.collation_connection, collation])
                .map(Value::from_str)
                .collect()
        })
        .collect();
    let names = [
        "Db",
        "Name",
        "Type",
        "Definer",
        "Modified",
        "Created",
        "Security_type",
        "Comment",
        "character_set_client",
        "collation_connection",
        "Database Collation",
    ];
    crate::show::filter_rows(session, text_rows(&names, rows), filter)
}

/// Plans CREATE PROCEDURE / FUNCTION. A replayed statement names its
/// definer; its other session facts take the defaults.
pub fn plan_create(catalog: &Catalog, db: &str, create: &CreateRoutine) -> SqlResult<DdlPlan> {
    let def = match &create.defined {
        Some(def) => (**def).clone(),
        None => RoutineDef {
            db: crate::ddl::db_of(&create.name, db)?.to_string(),
            name: create.name.name.clone(),
            kind: create.kind,
            params_text: create.params_text.clone(),
            returns_text: create.routine.returns.as_ref().map(returns_text),
            body_text: create.body_text.clone(),
            definer: create.definer.clone().unwrap_or_else(|| ("root".into(), "localhost".into())),
            characteristics: create.characteristics.clone(),
            sql_mode: crate::vars::lookup("sql_mode").map(|d| d.default.to_string()).unwrap_or_default(),
            created: crate::dml::now().datetime_string(0),
            last_altered: None,
            character_set_client: "utf8mb4".into(),
            collation_connection: "utf8mb4_general_ci".into(),
        },
    };
    if !catalog.has_database(&def.db) {
        return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{}'", def.db)));
    }
    if catalog.routine(&def.db, def.kind, &def.name).is_some() && !create.or_replace {
        let message = format!("{} {} already exists", def.kind.name(), def.name);
        if create.if_not_exists {
            return Ok(crate::ddl::noop_with_note(ErrorCode::SP_ALREADY_EXISTS.number, message));
        }
        return Err(SqlError::new(ErrorCode::SP_ALREADY_EXISTS, message));
    }
    put_plan(def, create.routine.clone())
}

/// The plan that stores `def` (new or changed) in the catalog.
fn put_plan(def: RoutineDef, routine: Arc<Routine>) -> SqlResult<DdlPlan> {
    let json = serde_json::to_vec(&def).map_err(|e| SqlError::internal(format!("catalog encode: {e}")))?;
    let mutations = vec![Mutation::Put(routine_key(&def.db, def.kind, &def.name), json)];
    let entry = RoutineEntry { def, routine };
    Ok(crate::ddl::ok_plan(mutations, CatalogChange::PutRoutine(Box::new(entry))))
}

/// MariaDB's 1305 for a routine `db.name` that is not there.
fn does_not_exist_message(kind: RoutineKind, db: &str, name: &str) -> String {
    format!("{} {db}.{name} does not exist", kind.name())
}

/// Plans ALTER PROCEDURE / FUNCTION: the characteristics named change,
/// and LAST_ALTERED.
pub fn plan_alter(
    catalog: &Catalog,
    db: &str,
    kind: RoutineKind,
    name: &ObjectName,
    changes: &[Characteristic],
) -> SqlResult<DdlPlan> {
    let db = crate::ddl::db_of(name, db)?;
    let Some(entry) = catalog.routine(db, kind, &name.name) else {
        return Err(SqlError::new(ErrorCode::SP_DOES_NOT_EXIST, does_not_exist_message(kind, db, &name.name)));
    };
    let mut def = entry.def.clone();
    changes.iter().for_each(|c| c.apply(&mut def.characteristics));
    def.last_altered = Some(crate::dml::now().datetime_string(0));
    put_plan(def, entry.routine.clone())
}

/// Plans DROP PROCEDURE / FUNCTION [IF EXISTS].
pub fn plan_drop(
    catalog: &Catalog,
    db: &str,
    kind: RoutineKind,
    name: &ObjectName,
    if_exists: bool,
) -> SqlResult<DdlPlan> {
    let db = crate::ddl::db_of(name, db)?;
    if catalog.routine(db, kind, &name.name).is_none() {
        let message = does_not_exist_message(kind, db, &name.name);
        if if_exists {
            return Ok(crate::ddl::noop_with_note(ErrorCode::SP_DOES_NOT_EXIST.number, message));
        }
        return Err(SqlError::new(ErrorCode::SP_DOES_NOT_EXIST, message));
    }
    Ok(crate::ddl::ok_plan(
        vec![Mutation::Delete(routine_key(db, kind, &name.name))],
        CatalogChange::DropRoutine(db.to_string(), kind, name.name.clone()),
    ))
}

/// The storage deletions DROP DATABASE makes for its routines.
pub fn drop_database_mutations(catalog: &Catalog, db: &str) -> Vec<Mutation> {
    catalog.routines_in(db).iter().map(|r| Mutation::Delete(routine_key(&r.def.db, r.def.kind, &r.def.name))).collect()
}

thread_local! {
    /// The routines running on this thread, innermost last: a statement
    /// runs on its connection's thread from start to end, so this is the
    /// session's call stack (for the recursion limits).
    static ACTIVE: RefCell<Vec<(RoutineKind, String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Pops its routine off [`ACTIVE`] however the call ends.
struct ActiveGuard;

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.borrow_mut().pop());
    }
}

/// Enters a routine: procedures may nest themselves `max_sp_recursion_depth`
/// times, functions never.
fn enter(session: &Session, def: &RoutineDef) -> SqlResult<ActiveGuard> {
    let key = (def.kind, def.db.clone(), def.name.to_lowercase());
    let depth = ACTIVE.with(|a| a.borrow().iter().filter(|k| **k == key).count());
    if depth > 0 {
        if def.kind == RoutineKind::Function {
            return Err(SqlError::new(
                ErrorCode::SP_NO_RECURSION,
                "Recursive stored functions and triggers are not allowed",
            ));
        }
        let limit: usize = session.session_value("max_sp_recursion_depth").parse().unwrap_or(0);
        if depth > limit {
            return Err(SqlError::new(
                ErrorCode::SP_RECURSION_LIMIT,
                format!(
                    "Recursive limit {limit} (as set by the max_sp_recursion_depth variable) was exceeded for routine {}",
                    def.name
                ),
            ));
        }
    }
    ACTIVE.with(|a| a.borrow_mut().push(key));
    Ok(ActiveGuard)
}

fn lookup(session: &Session, kind: RoutineKind, name: &ObjectName) -> SqlResult<Arc<RoutineEntry>> {
    let db = session.resolve_db(name)?;
    session.engine.catalog.read().routine(db, kind, &name.name).ok_or_else(|| {
        SqlError::new(ErrorCode::SP_DOES_NOT_EXIST, format!("{} {db}.{} does not exist", kind.name(), name.name))
    })
}

fn check_arg_count(def: &RoutineDef, routine: &Routine, got: usize) -> SqlResult<()> {
    if routine.params.len() != got {
        return Err(SqlError::new(
            ErrorCode::SP_WRONG_NO_OF_ARGS,
            format!(
                "Incorrect number of arguments for {} {}.{}; expected {}, got {got}",
                def.kind.name(),
                def.db,
                def.name,
                routine.params.len()
            ),
        ));
    }
    Ok(())
}

fn not_var_arg(def: &RoutineDef, position: usize) -> SqlError {
    SqlError::new(
        ErrorCode::SP_NOT_VAR_ARG,
        format!(
            "OUT or INOUT argument {position} for routine {}.{} is not a variable or NEW pseudo-variable in BEFORE trigger",
            def.db, def.name
        ),
    )
}

/// A compound statement a client sent on its own (`BEGIN NOT ATOMIC`,
/// SIGNAL, GET DIAGNOSTICS, ...): run like a procedure's body without
/// parameters, in the session's database; result sets go to
/// `session.call_results` as a CALL's do.
pub fn run_compound(session: &mut Session, compound: &Compound) -> SqlResult<QueryResult> {
    let caller_db = session.db.clone();
    let mut interp = Interp::new(ProcedureRunner { session, in_trigger: false }, Frame::default(), caller_db);
    interp.read_anchors(&compound.body)?;
    if let Flow::Return(_) = interp.exec_list(std::slice::from_ref(&compound.body))? {
        return Err(SqlError::new(ErrorCode::SP_BADRETURN, "RETURN is only allowed in a FUNCTION"));
    }
    Ok(QueryResult::ok(interp.affected))
}

/// `CALL name(args)` from a client: result sets of the body's SELECTs go
/// to `session.call_results`, OUT and INOUT parameters to the user
/// variables passed for them.
pub fn call(session: &mut Session, name: &ObjectName, args: &[Expr], params: &[Value]) -> SqlResult<QueryResult> {
    let entry = lookup(session, RoutineKind::Procedure, name)?;
    check_arg_count(&entry.def, &entry.routine, args.len())?;
    let declared = params::declared(session, session.db.as_deref(), &entry.routine.params)?;
    let mut values = Vec::with_capacity(args.len());
    for (i, ((arg, param), declared)) in args.iter().zip(&entry.routine.params).zip(&declared).enumerate() {
        if param.mode != ParamMode::In && !matches!(arg, Expr::UserVar(_)) {
            return Err(not_var_arg(&entry.def, i + 1));
        }
        values.push(params::argument(param, declared, arg, &mut |e| session.eval_constant(e, params))?);
    }
    let (outs, affected) = run_procedure(session, &entry, values)?;
    for ((arg, param), value) in args.iter().zip(&entry.routine.params).zip(outs) {
        // `params::argument` refused a ROW for a user variable.
        if let (Expr::UserVar(var), ParamMode::Out | ParamMode::InOut, params::Argument::Scalar(_, value)) =
            (arg, param.mode, value)
        {
            session.set_user_var(var, value);
        }
    }
    Ok(QueryResult::ok(affected))
}

/// Runs a procedure's body with its parameters' values; returns their
/// values at the end and the last statement's affected rows.
fn run_procedure(
    session: &mut Session,
    entry: &RoutineEntry,
    values: Vec<Argument>,
) -> SqlResult<(Vec<Argument>, u64)> {
    // The body's unqualified names are the routine's database's, as in
    // MariaDB; the caller's database comes back however the call ends.
    let caller_db = session.db.replace(entry.def.db.clone());
    let outcome = run_procedure_in_its_db(session, entry, values, caller_db.clone());
    session.db = caller_db;
    outcome
}

fn run_procedure_in_its_db(
    session: &mut Session,
    entry: &RoutineEntry,
    values: Vec<Argument>,
    caller_db: Option<String>,
) -> SqlResult<(Vec<Argument>, u64)> {
    let _active = enter(session, &entry.def)?;
    // Arguments are bound under the caller's sql_mode, the body runs under
    // the routine's.
    let frame = params::frame_outside_rows(session, &entry.routine.params, values)?;
    session.enter_routine_sql_mode(&entry.def.sql_mode);
    let mut interp = Interp::new(ProcedureRunner { session, in_trigger: false }, frame, caller_db);
    let flow = interp.run_body(&entry.routine.body);
    interp.runner.session.leave_routine_sql_mode();
    if let Flow::Return(_) = flow? {
        return Err(SqlError::new(ErrorCode::SP_BADRETURN, "RETURN is only allowed in a FUNCTION"));
    }
    let affected = interp.affected;
    let outs = params::final_values(interp.frames.remove(0), &entry.routine.params)?;
    Ok((outs, affected))
}

/// Runs a trigger's body on one row of `table`: `vars` are its `NEW.col`
/// / `OLD.col` pseudo-variables with their types and values; returns their
/// values at the end and whether the body assigned them. The body runs in the trigger's database, inside the
/// firing statement (its read view is given back afterwards).
pub(crate) fn run_trigger(
    session: &mut Session,
    trigger: &crate::trigger::TriggerEntry,
    table: (String, String),
    vars: Vec<(String, ColumnDef, Value)>,
) -> SqlResult<Vec<(Value, bool)>> {
    let caller_db = session.db.replace(trigger.def.db.clone());
    let stmt_view = session.stmt_view.clone();
    session.trigger_tables.push(table);
    session.enter_routine_sql_mode(&trigger.def.sql_mode);
    let frame = Frame {
        vars: vars.into_iter().map(|(name, ty, value)| Var { name, ty, value, assigned: false }).collect(),
        ..Frame::default()
    };
    let outcome = {
        let runner = ProcedureRunner { session: &mut *session, in_trigger: true };
        let mut interp = Interp::new(runner, frame, caller_db.clone());
        interp
            .run_body(&trigger.body.body)
            .map(|_| interp.frames.remove(0).vars.into_iter().map(|v| (v.value, v.assigned)).collect())
    };
    session.leave_routine_sql_mode();
    session.trigger_tables.pop();
    session.stmt_view = stmt_view;
    session.db = caller_db;
    outcome
}

/// A query's answer as columns and rows (a statement that returns none
/// has neither).
fn columns_and_rows(result: QueryResult) -> (Vec<crate::session::ResultColumn>, Vec<Vec<Value>>) {
    match result {
        QueryResult::Rows { columns, rows } => (columns, rows),
        // Only a client's own query streams its rows.
        QueryResult::Ok { .. } | QueryResult::Streamed { .. } => (Vec::new(), Vec::new()),
    }
}

/// A stored function's value for `args`, or `None` when no function of
/// that name exists (`name` may be `db.name`).
pub fn call_function(
    caller: &crate::select::Ctx,
    name: &str,
    args: &[Expr],
    eval_arg: &dyn Fn(&Expr) -> SqlResult<Value>,
) -> Option<SqlResult<Value>> {
    let entry = stored_function(caller.session, name)?;
    Some(run_function(caller, &entry, args, eval_arg))
}

/// The RETURNS type of the stored function `name` (`db.f`, or `f` of the
/// current database), `None` when there is no such function.
pub fn function_returns(session: &Session, name: &str) -> Option<ColumnDef> {
    stored_function(session, name)?.routine.returns.clone()
}

/// The stored function a call of `name` runs, if there is one.
fn stored_function(session: &Session, name: &str) -> Option<Arc<RoutineEntry>> {
    let object = match name.split_once('.') {
        Some((db, n)) => ObjectName { db: Some(db.to_string()), name: n.to_string() },
        None => ObjectName { db: None, name: name.to_string() },
    };
    let db = session.resolve_db(&object).ok()?;
    session.engine.catalog.read().routine(db, RoutineKind::Function, &object.name)
}

fn run_function(
    caller: &crate::select::Ctx,
    entry: &RoutineEntry,
    args: &[Expr],
    eval_arg: &dyn Fn(&Expr) -> SqlResult<Value>,
) -> SqlResult<Value> {
    let session = caller.session;
    let params = &entry.routine.params;
    check_arg_count(&entry.def, &entry.routine, args.len())?;
    let targets = out_args::targets(session, params, args, |i| not_var_arg(&entry.def, i), &entry.def.name)?;
    let declared = params::declared(session, session.db.as_deref(), params)?;
    let values = params.iter().zip(&declared).zip(args);
    let values = values.map(|((p, d), arg)| params::argument(p, d, arg, &mut |e| eval_arg(e)));
    let values = values.collect::<SqlResult<Vec<_>>>()?;
    let _active = enter(session, &entry.def)?;
    let frame = params::frame(session, params, values)?;
    let runner = FunctionRunner { session, db: &entry.def.db, txn: caller.txn, view: &caller.view };
    let mut interp = Interp::new(runner, frame, session.db.clone());
    session.enter_routine_sql_mode(&entry.def.sql_mode);
    // Calling a function makes the diagnostics area the statement's, as
    // using a table does. The warnings of its body stay in it (MariaDB
    // shows the caller none of them); an error leaves it.
    session.claim_diagnostics();
    let warnings_before = session.warnings_mark();
    let returned = interp.run_body(&entry.routine.body).and_then(|flow| match flow {
        Flow::Return(value) => match (&entry.routine.returns, value) {
            (_, Value::Null) => Ok(Value::Null),
            (Some(ty), value) => {
                // A value the return type cannot hold is reported as MariaDB
                // names the result: `f()`.
                let ty = ColumnDef { name: format!("{}()", entry.def.name), ..ty.clone() };
                coerce_to_column(value, &ty, session.strict(), session)
            }
            (None, value) => Ok(value),
        },
        _ => Err(SqlError::new(
            ErrorCode::SP_NORETURNEND,
            format!("FUNCTION {}.{} ended without RETURN", entry.def.db, entry.def.name),
        )),
    });
    session.leave_routine_sql_mode();
    if returned.is_ok() {
        session.rewind_warnings(warnings_before);
        let finals = params::final_values(interp.frames.remove(0), params)?;
        out_args::write_back(session, &targets, finals);
    }
    returned
}

/// How a body's statements reach the session: a procedure owns it, a
/// function shares it with the statement that called it.
trait Runner {
    fn session(&self) -> &Session;
    /// Runs an ordinary statement with its variables' values.
    fn run(&mut self, sql: &SpSql, params: &[Value]) -> SqlResult<QueryResult>;
    /// A SELECT's result set, for the client.
    fn emit(&mut self, result: QueryResult) -> SqlResult<()>;
    fn set_system(&mut self, scope: VarScope, name: &str, value: Value) -> SqlResult<()>;
    fn call(&mut self, entry: &RoutineEntry, values: Vec<Argument>) -> SqlResult<(Vec<Argument>, u64)>;
    /// SELECT ... INTO found no row: a warning for a procedure's caller;
    /// a function's caller sees none, as in MariaDB.
    fn warn_no_data(&self, error: SqlError);
    /// An expression of the body (a condition, a RETURN, a SET value),
    /// read through the transaction the body runs in.
    fn eval(&mut self, expr: &Expr, params: &[Value]) -> SqlResult<Value>;
}

struct ProcedureRunner<'s> {
    session: &'s mut Session,
    /// A trigger's body: it returns no result sets.
    in_trigger: bool,
}

impl Runner for ProcedureRunner<'_> {
    fn session(&self) -> &Session {
        self.session
    }

    fn run(&mut self, sql: &SpSql, params: &[Value]) -> SqlResult<QueryResult> {
        // Each statement is the client's own: its own read view, its own
        // commit in autocommit mode.
        self.session.stmt_view = None;
        if !self.in_trigger {
            self.session.begin_routine_statement(&sql.statement);
        }
        self.session.run_statement_body(&sql.statement, &sql.text, params)
    }

    fn emit(&mut self, result: QueryResult) -> SqlResult<()> {
        if self.in_trigger {
            return Err(SqlError::new(ErrorCode::SP_NO_RETSET, "Not allowed to return a result set from a trigger"));
        }
        if self.session.in_function {
            return Err(no_result_set_from_function());
        }
        self.session.call_results.push(result);
        Ok(())
    }

    fn set_system(&mut self, scope: VarScope, name: &str, value: Value) -> SqlResult<()> {
        let set = Statement::Set(vec![Assignment {
            target: SetTarget::System { scope, name: name.to_string() },
            value: Expr::Literal(value),
        }]);
        self.session.run_statement_body(&set, "SET", &[]).map(|_| ())
    }

    fn call(&mut self, entry: &RoutineEntry, values: Vec<Argument>) -> SqlResult<(Vec<Argument>, u64)> {
        run_procedure(self.session, entry, values)
    }

    fn warn_no_data(&self, error: SqlError) {
        self.session.warn(error.code.number, error.message);
    }

    /// What a stored function the expression calls writes is the
    /// expression's own statement's: settled when it is evaluated.
    fn eval(&mut self, expr: &Expr, params: &[Value]) -> SqlResult<Value> {
        let value = self.session.eval_constant(expr, params);
        self.session.settle_function_writes(value)
    }
}

/// A function's statements run inside the statement that called it: they
/// read through its transaction (its own writes included) and its view,
/// which that statement holds shared while it evaluates. What they write
/// goes to a fork of that transaction kept in the calling session
/// (`Session::function_txn`; later calls of the statement read and write
/// it too), handed back when the statement ends (see
/// `Session::settle_function_writes`).
struct FunctionRunner<'s> {
    session: &'s Session,
    /// The database the function belongs to: its statements run there.
    db: &'s str,
    txn: &'s Txn,
    view: &'s Arc<Snapshot>,
}

impl FunctionRunner<'_> {
    /// Runs `read` over the transaction as the function's statements see
    /// it: the fork, when a function of this statement wrote, else the
    /// caller's. A function called meanwhile that writes forks what `read`
    /// is given; that fork is merged back here.
    fn reading<R>(&self, read: impl FnOnce(&Txn) -> SqlResult<R>) -> SqlResult<R> {
        let Some(mut fork) = self.session.function_txn.take() else { return read(self.txn) };
        let result = read(&fork);
        let result = match (result, self.session.function_txn.take()) {
            (Ok(r), Some(inner)) => fork.absorb(inner).map(|_| r),
            (result, _) => result,
        };
        self.session.function_txn.replace(Some(fork));
        result
    }

    /// Runs `write` in a session nested in the caller's whose transaction
    /// is the fork (taken now if no function of the statement wrote yet;
    /// a new transaction when the statement runs outside one).
    fn writing<R>(&self, write: impl FnOnce(&mut Session) -> SqlResult<R>) -> SqlResult<R> {
        let fork = match self.session.function_txn.take() {
            Some(fork) => fork,
            None if self.txn.id == 0 => self.txn.fork(self.session.engine.next_txn_id()),
            None => self.txn.fork(self.txn.id),
        };
        let mut nested = self.session.nested_for_function(self.db, fork);
        let result = write(&mut nested);
        let fork = nested.end_nested(self.session)?;
        self.session.function_txn.replace(Some(fork));
        result
    }
}

impl Runner for FunctionRunner<'_> {
    fn session(&self) -> &Session {
        self.session
    }

    /// A query reads here; anything else runs in a nested session.
    fn run(&mut self, sql: &SpSql, params: &[Value]) -> SqlResult<QueryResult> {
        match &sql.statement {
            Statement::Select(select) => self.reading(|txn| {
                let ctx = crate::select::Ctx::new(self.session, txn, self.view.clone(), params);
                as_statement(Some(&sql.statement), || self.session.select_result(&ctx, select))
            }),
            statement => self.writing(|nested| nested.run_statement_body(statement, &sql.text, params)),
        }
    }

    fn emit(&mut self, _result: QueryResult) -> SqlResult<()> {
        Err(no_result_set_from_function())
    }

    fn set_system(&mut self, _scope: VarScope, name: &str, _value: Value) -> SqlResult<()> {
        Err(crate::parse::routine::not_in_function(&format!("SET @@{name}")))
    }

    fn call(&mut self, entry: &RoutineEntry, values: Vec<Argument>) -> SqlResult<(Vec<Argument>, u64)> {
        self.writing(|nested| run_procedure(nested, entry, values))
    }

    fn warn_no_data(&self, _error: SqlError) {}

    fn eval(&mut self, expr: &Expr, params: &[Value]) -> SqlResult<Value> {
        self.reading(|txn| crate::select::Ctx::new(self.session, txn, self.view.clone(), params).eval_constant(expr))
    }
}

fn no_result_set_from_function() -> SqlError {
    SqlError::new(ErrorCode::SP_NO_RETSET, "Not allowed to return a result set from a function")
}

struct Var {
    name: String,
    ty: ColumnDef,
    value: Value,
    /// Set by an assignment: a trigger's `SET NEW.col` makes the column
    /// given (MariaDB's check of NOT NULL columns without a default).
    assigned: bool,
}

struct Cursor<'r> {
    name: String,
    params: &'r [RoutineParam],
    query: &'r SpSql,
    rows: Option<VecDeque<Vec<Value>>>,
}

/// One BEGIN ... END's or FOR loop's variables and cursors (the first
/// frame holds the parameters); the handlers it declares are dropped with
/// it (see `in_frame`).
#[derive(Default)]
struct Frame<'r> {
    vars: Vec<Var>,
    cursors: Vec<Cursor<'r>>,
    /// The ROW variables: each field is a variable of `vars` named
    /// `record_field(row, field)`.
    rows: Vec<RowVar>,
}

struct RowVar {
    name: String,
    /// The field names, in order.
    fields: Vec<String>,
}

/// What a DECLARE's type comes to when it runs.
enum Declared {
    Scalar(ColumnDef),
    Row(Vec<ColumnDef>),
}

/// `e` with each `?` numbered in `rows` replaced by its expression
/// (subqueries keep theirs).
fn replace_params(e: &Expr, rows: &[(usize, Expr)]) -> SqlResult<Expr> {
    if let Expr::Param(n) = e {
        if let Some((_, row)) = rows.iter().find(|(i, _)| i == n) {
            return Ok(row.clone());
        }
    }
    crate::select::map_children(e, &mut |child| replace_params(child, rows))
}

/// Whether two names written in a body name the same table.
fn same_object(a: &ObjectName, b: &ObjectName) -> bool {
    let same_db = match (&a.db, &b.db) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        (x, y) => x.is_none() && y.is_none(),
    };
    same_db && a.name.eq_ignore_ascii_case(&b.name)
}

/// Error 1241 for a value of the wrong number of columns.
fn operand_columns(expected: usize) -> SqlError {
    SqlError::new(ErrorCode::OPERAND_COLUMNS, format!("Operand should contain {expected} column(s)"))
}

/// A table column's type as a variable takes it (TYPE OF): the data type
/// alone, without the column's constraints or default.
fn anchored(column: &ColumnDef) -> ColumnDef {
    ColumnDef {
        nullable: true,
        default: None,
        auto_increment: false,
        on_update_current_timestamp: false,
        comment: String::new(),
        ..column.clone()
    }
}

struct Handler<'r> {
    exit: bool,
    conditions: &'r [Condition],
    body: &'r SpStmt,
    /// The frame count where it was declared: an EXIT handler leaves that
    /// block.
    depth: usize,
}

/// How a statement ended.
enum Flow {
    Normal,
    Leave(String),
    Iterate(String),
    Return(Value),
    /// An EXIT handler ran: leave the block at this depth.
    Exit(usize),
}

struct Interp<'r, R: Runner> {
    runner: R,
    frames: Vec<Frame<'r>>,
    handlers: Vec<Handler<'r>>,
    /// Rows the statements so far changed or selected INTO (CALL's
    /// answer sums them, as MariaDB's does).
    affected: u64,
    /// The conditions of the handlers running now, innermost last: what
    /// RESIGNAL raises again and GET DIAGNOSTICS reads inside a handler.
    handling: Vec<SqlError>,
    /// The current database of what called the routine: an anchored
    /// type's table without a database is there (MariaDB resolves those
    /// types before the body runs in the routine's database).
    caller_db: Option<String>,
    /// The tables and views the body's anchored DECLAREs name, with their
    /// columns as they were when the body started (see `read_anchors`).
    anchors: Vec<(ObjectName, Vec<ColumnDef>)>,
}

/// The level a condition shows with: SQLSTATE class 01 is a warning.
fn condition_level(error: &SqlError) -> &'static str {
    if error.code.sqlstate.starts_with("01") {
        "Warning"
    } else {
        "Error"
    }
}

/// What GET DIAGNOSTICS reads of `condition` for `item`.
fn condition_item(condition: &Warning, item: ConditionItem) -> Value {
    match item {
        ConditionItem::MysqlErrno => Value::Int(i64::from(condition.code)),
        ConditionItem::MessageText => Value::from_str(&condition.message),
        ConditionItem::ReturnedSqlstate => Value::from_str(condition.sqlstate),
        ConditionItem::Named(name) => Value::from_str(condition.items.as_deref().map_or("", |i| i.get(name))),
    }
}

/// A value as MariaDB quotes it in error 1231.
fn value_text(value: &Value) -> String {
    if value.is_null() {
        "NULL".to_string()
    } else {
        value.to_string()
    }
}

fn no_data() -> SqlError {
    SqlError::new(ErrorCode::SP_FETCH_NO_DATA, "No data - zero rows fetched, selected, or processed")
}

fn same_label(label: &Option<String>, target: &str) -> bool {
    label.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(target))
}

/// SQLSTATEs outlive the statement that raised them; each distinct one a
/// SIGNAL uses is kept once.
fn interned_sqlstate(state: &str) -> &'static str {
    static STATES: parking_lot::Mutex<Vec<&'static str>> = parking_lot::Mutex::new(Vec::new());
    let mut states = STATES.lock();
    if let Some(s) = states.iter().find(|s| **s == state) {
        return s;
    }
    let leaked: &'static str = Box::leak(state.to_string().into_boxed_str());
    states.push(leaked);
    leaked
}

impl<'r, R: Runner> Interp<'r, R> {
    /// An interpreter whose outermost frame is `frame` (a routine's
    /// parameters, a trigger's NEW / OLD).
    fn new(runner: R, frame: Frame<'r>, caller_db: Option<String>) -> Self {
        Interp {
            runner,
            frames: vec![frame],
            handlers: Vec::new(),
            affected: 0,
            handling: Vec::new(),
            caller_db,
            anchors: Vec::new(),
        }
    }

    /// The columns of the table or view an anchored type names (see
    /// `caller_db`).
    fn anchor_columns(&self, table: &ObjectName) -> SqlResult<Vec<ColumnDef>> {
        let read = self.anchors.iter().find(|(t, _)| same_object(t, table));
        match read {
            Some((_, columns)) => Ok(columns.clone()),
            None => params::anchor_columns(self.runner.session(), self.caller_db.as_deref(), table),
        }
    }

    /// Runs a routine's or trigger's body. The tables its anchored
    /// DECLAREs name are read first, wherever those DECLAREs are: MariaDB
    /// fixes the variables' types as the body starts (a table missing is
    /// an error then), whatever the body then does to the tables.
    fn run_body(&mut self, body: &'r SpStmt) -> SqlResult<Flow> {
        self.read_anchors(body)?;
        self.exec(body)
    }

    /// See `run_body`.
    fn read_anchors(&mut self, body: &SpStmt) -> SqlResult<()> {
        let tables = RefCell::new(Vec::new());
        crate::parse::routine::any_statement(body, &|stmt| {
            if let SpStmt::DeclareVar { ty: VarType::ColumnOf { table, .. } | VarType::RowOfTable(table), .. } = stmt {
                tables.borrow_mut().push(table.clone());
            }
            false
        });
        for table in tables.into_inner() {
            if !self.anchors.iter().any(|(t, _)| same_object(t, &table)) {
                let columns = self.anchor_columns(&table)?;
                self.anchors.push((table, columns));
            }
        }
        Ok(())
    }

    fn var(&mut self, name: &str) -> SqlResult<&mut Var> {
        let found =
            self.frames.iter().enumerate().rev().find_map(|(f, frame)| {
                frame.vars.iter().rposition(|v| v.name.eq_ignore_ascii_case(name)).map(|v| (f, v))
            });
        match found {
            Some((f, v)) => Ok(&mut self.frames[f].vars[v]),
            // `rec.field` of a ROW whose type came from a table or cursor.
            None => match name.split_once('.') {
                Some((row, field)) if self.row(row).is_some() => Err(crate::parse::routine::no_such_field(row, field)),
                _ => Err(SqlError::new(ErrorCode::SP_UNDECLARED_VAR, format!("Undeclared variable: {name}"))),
            },
        }
    }

    /// The ROW variable `name`, unless a scalar of that name declared in
    /// a block inside hides it.
    fn row(&self, name: &str) -> Option<&RowVar> {
        for frame in self.frames.iter().rev() {
            if let Some(row) = frame.rows.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
                return Some(row);
            }
            if frame.vars.iter().any(|v| v.name.eq_ignore_ascii_case(name)) {
                return None;
            }
        }
        None
    }

    fn values(&mut self, vars: &[String]) -> SqlResult<Vec<Value>> {
        vars.iter()
            .map(|v| match self.row(v) {
                // A whole ROW where one value goes (its fields are bound one
                // by one where the parser knew them).
                Some(_) => Err(operand_columns(1)),
                None => Ok(self.var(v)?.value.clone()),
            })
            .collect()
    }

    /// Runs `f` with `vars`' declared types as the types of the `?`
    /// values it evaluates (see `Session::routine_param_types`).
    fn typed_by<T>(&mut self, vars: &[String], f: impl FnOnce(&mut Self) -> SqlResult<T>) -> SqlResult<T> {
        let types = vars.iter().map(|v| Ok(self.var(v)?.ty.clone())).collect::<SqlResult<Vec<_>>>()?;
        self.typed_as(types, f)
    }

    /// Runs `f` with `types` as the types of the `?` values it evaluates.
    fn typed_as<T>(&mut self, types: Vec<ColumnDef>, f: impl FnOnce(&mut Self) -> SqlResult<T>) -> SqlResult<T> {
        let outer = self.runner.session().routine_param_types.replace(types);
        let result = f(self);
        self.runner.session().routine_param_types.replace(outer);
        result
    }

    /// What a DECLARE's type is now: anchored types read their table,
    /// variable or cursor.
    fn resolve_type(&mut self, ty: &VarType) -> SqlResult<Declared> {
        Ok(match ty {
            VarType::VarOf(name) => match self.row(name).map(|r| (r.name.clone(), r.fields.clone())) {
                Some((row, fields)) => Declared::Row(
                    fields
                        .iter()
                        .map(|f| Ok(ColumnDef { name: f.clone(), ..self.var(&record_field(&row, f))?.ty.clone() }))
                        .collect::<SqlResult<_>>()?,
                ),
                None => Declared::Scalar(self.var(name)?.ty.clone()),
            },
            VarType::RowOfCursor(name) => {
                let (query, params) = {
                    let c = self.cursor(name)?;
                    (c.query, c.params)
                };
                // The query's columns as its variables and the cursor's
                // parameters type them, read without their values.
                let nulls = vec![Value::Null; query.vars.len()];
                let types = query.vars.iter().map(|v| match self.var(v) {
                    Ok(var) => var.ty.clone(),
                    Err(_) => params
                        .iter()
                        .find(|p| p.name.eq_ignore_ascii_case(v))
                        .and_then(|p| p.scalar_type().cloned())
                        .unwrap_or_else(|| ColumnDef::new(v, onelog_core::ColumnType::VarBinary(0))),
                });
                let types = types.collect();
                let result = self.typed_as(types, |interp| interp.runner.run(query, &nulls))?;
                let (columns, _) = columns_and_rows(result);
                Declared::Row(columns.into_iter().map(|c| ColumnDef { name: c.name, ..anchored(&c.def) }).collect())
            }
            ty => params::table_type(ty, |table| self.anchor_columns(table))?,
        })
    }

    /// DECLARE of ROW variables: one variable per field, then the default
    /// (a row of as many values) assigned to each.
    fn declare_rows(&mut self, names: &[String], fields: &[ColumnDef], default: Option<&SpExpr>) -> SqlResult<Flow> {
        for name in names {
            let frame = self.frames.last_mut().ok_or_else(|| SqlError::internal("no frame"))?;
            frame.rows.push(RowVar { name: name.clone(), fields: fields.iter().map(|f| f.name.clone()).collect() });
            frame.vars.extend(fields.iter().map(|f| {
                let var = record_field(name, &f.name);
                Var { name: var, ty: f.clone(), value: Value::Null, assigned: false }
            }));
            if let Some(e) = default {
                self.assign_row(name, e)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// `SET row = ROW(..) | other_row`: each field takes its value; a value
    /// of another number of columns is error 1241.
    fn assign_row(&mut self, name: &str, e: &SpExpr) -> SqlResult<()> {
        let (row, fields) = match self.row(name) {
            Some(r) => (r.name.clone(), r.fields.clone()),
            None => return Err(SqlError::internal("no such row variable")),
        };
        let values = match (&e.expr, e.vars.as_slice()) {
            (Expr::Tuple(items), _) if items.len() == fields.len() => items
                .iter()
                .map(|item| self.eval_stored(&SpExpr { expr: item.clone(), vars: e.vars.clone() }))
                .collect::<SqlResult<Vec<_>>>()?,
            (Expr::Param(0), [source]) if self.row(source).is_some_and(|r| r.fields.len() == fields.len()) => {
                self.row_values(source)?
            }
            (Expr::ScalarSubquery(query), vars) => self.subquery_row(query, vars, fields.len())?,
            _ => return Err(operand_columns(fields.len())),
        };
        for (field, value) in fields.iter().zip(values) {
            self.assign_set(&SpTarget::Local(record_field(&row, field)), value)?;
        }
        Ok(())
    }

    /// The row a subquery assigned to a ROW variable gives (`vars` are its
    /// `?`): NULLs when it finds none, 1242 for more than one, 1241 for
    /// another number of columns than the row's `width`.
    fn subquery_row(&mut self, query: &crate::ast::Select, vars: &[String], width: usize) -> SqlResult<Vec<Value>> {
        let statement = Statement::Select(Box::new(query.clone()));
        let sql = SpSql { text: String::new(), statement, vars: vars.to_vec(), into: Vec::new() };
        let params = self.values(vars)?;
        let result = self.typed_by(vars, |interp| interp.runner.run(&sql, &params))?;
        let (columns, mut rows) = columns_and_rows(result);
        if columns.len() != width {
            return Err(operand_columns(width));
        }
        match rows.len() {
            0 => Ok(vec![Value::Null; width]),
            1 => Ok(rows.remove(0)),
            _ => Err(SqlError::new(ErrorCode::SUBQUERY_NO_1_ROW, "Subquery returns more than 1 row")),
        }
    }

    /// INTO targets with a ROW variable as its fields: a ROW must be the
    /// only target (1241 otherwise, as MariaDB).
    fn row_targets(&self, into: &[SpTarget]) -> SqlResult<Vec<SpTarget>> {
        let row_of = |t: &SpTarget| match t {
            SpTarget::Local(name) => self.row(name),
            _ => None,
        };
        match into {
            [target] => match row_of(target) {
                Some(r) => Ok(r.fields.iter().map(|f| SpTarget::Local(record_field(&r.name, f))).collect()),
                None => Ok(into.to_vec()),
            },
            _ => match into.iter().find_map(row_of) {
                Some(r) => Err(operand_columns(r.fields.len())),
                None => Ok(into.to_vec()),
            },
        }
    }

    /// An expression the body tests or hands on (a condition, a user
    /// variable's value): a division by zero in it is at most a warning.
    fn eval(&mut self, e: &SpExpr) -> SqlResult<Value> {
        self.aborting_on_warning(false, |interp| interp.eval_here(e))
    }

    /// A value the body stores in one of its variables or returns: as in
    /// MariaDB's sp_eval_expr, strict mode makes a division by zero an error.
    fn eval_stored(&mut self, e: &SpExpr) -> SqlResult<Value> {
        let strict = self.runner.session().strict();
        self.aborting_on_warning(strict, |interp| interp.eval_here(e))
    }

    fn eval_here(&mut self, e: &SpExpr) -> SqlResult<Value> {
        let expanded = self.with_rows_expanded(e)?;
        let e = expanded.as_ref().unwrap_or(e);
        let params = self.values(&e.vars)?;
        self.taking_out_args(&e.vars, |interp| {
            interp.typed_by(&e.vars, |interp| as_statement(None, || interp.runner.eval(&e.expr, &params)))
        })
    }

    /// `e` with each whole ROW variable the parser read as one `?` (an
    /// anchored one, whose fields it could not know) as the row of its
    /// fields, so that it compares as a row and passes to a function's ROW
    /// parameter; `None` when `e` has none. The fields' `?` are added after
    /// `e`'s own, so OUT arguments keep their numbers.
    fn with_rows_expanded(&self, e: &SpExpr) -> SqlResult<Option<SpExpr>> {
        let mut vars = e.vars.clone();
        let mut rows = Vec::new();
        for (i, var) in e.vars.iter().enumerate() {
            let Some(row) = self.row(var) else { continue };
            let fields = row.fields.iter().map(|f| record_field(&row.name, f));
            let items = fields
                .map(|field| {
                    vars.push(field);
                    Expr::Param(vars.len() - 1)
                })
                .collect();
            // The row's own `?` is no longer read: a field stands in for it.
            vars[i] = record_field(&row.name, row.fields.first().map_or("", String::as_str));
            rows.push((i, Expr::Tuple(items)));
        }
        if rows.is_empty() {
            return Ok(None);
        }
        Ok(Some(SpExpr { expr: replace_params(&e.expr, &rows)?, vars }))
    }

    /// Runs `compute` (an expression or a statement whose `?` are `vars`),
    /// then assigns the values the stored functions it called gave back for
    /// its OUT / INOUT arguments, whether or not it then failed (MariaDB
    /// writes them as each call ends).
    fn taking_out_args<T>(&mut self, vars: &[String], compute: impl FnOnce(&mut Self) -> SqlResult<T>) -> SqlResult<T> {
        let mark = out_args::mark();
        let result = compute(self);
        let written = out_args::take_since(mark).into_iter().try_for_each(|(n, value)| {
            let var = vars.get(n).ok_or_else(|| SqlError::internal("OUT argument of no variable"))?;
            self.assign(&SpTarget::Local(var.clone()), value)
        });
        written.and(result)
    }

    /// Runs `compute` with the session's abort_on_warning set to `aborts`,
    /// then gives the outer setting back.
    fn aborting_on_warning<T>(
        &mut self,
        aborts: bool,
        compute: impl FnOnce(&mut Self) -> SqlResult<T>,
    ) -> SqlResult<T> {
        let outer = self.runner.session().abort_on_warning.replace(aborts);
        let result = compute(self);
        self.runner.session().abort_on_warning.set(outer);
        result
    }

    fn test(&mut self, e: &SpExpr) -> SqlResult<bool> {
        Ok(truthy(&self.eval(e)?).unwrap_or(false))
    }

    fn assign(&mut self, target: &SpTarget, value: Value) -> SqlResult<()> {
        match target {
            SpTarget::Local(name) => {
                let strict = self.runner.session().strict();
                let ty = self.var(name)?.ty.clone();
                let value = if value.is_null() {
                    value
                } else {
                    coerce_to_variable(value, &ty, strict, self.runner.session())?
                };
                let var = self.var(name)?;
                var.value = value;
                var.assigned = true;
            }
            SpTarget::User(name) => self.runner.session().set_user_var(name, value),
            SpTarget::System { scope, name } => self.runner.set_system(*scope, name, value)?,
        }
        Ok(())
    }

    /// Assigns as SET and DECLARE ... DEFAULT do: outside a trigger,
    /// MariaDB's conversion warnings name no row ("at row 0"); a trigger's
    /// name the firing statement's row.
    fn assign_set(&mut self, target: &SpTarget, value: Value) -> SqlResult<()> {
        if !self.runner.session().trigger_tables.is_empty() {
            return self.assign(target, value);
        }
        let row = self.runner.session().warning_row.replace(0);
        let assigned = self.assign(target, value);
        self.runner.session().warning_row.set(row);
        assigned
    }

    /// A row assigned to a variable (a trigger's `NEW.col` too), which
    /// evaluation refused as a row (1241): MariaDB reports it as a cast
    /// (4078), naming the variable, or the column as `db`.`table`.`col`.
    fn row_assignment(&mut self, name: &str, expr: &Expr, err: SqlError) -> SqlError {
        let row = matches!(expr, Expr::Tuple(_) | Expr::ScalarSubquery(_));
        if err.code != ErrorCode::OPERAND_COLUMNS || !row {
            return err;
        }
        let Ok(var) = self.var(name) else { return err };
        let (ty, var_name) = (crate::row_shape::handler_name(&var.ty), var.name.clone());
        let shown = match (var_name.strip_prefix("new."), self.runner.session().trigger_tables.last()) {
            (Some(column), Some((db, table))) => format!("`{db}`.`{table}`.`{column}`"),
            _ => format!("`{var_name}`"),
        };
        SqlError::new(
            ErrorCode::CANT_CAST_IN_ASSIGNMENT,
            format!("Cannot cast 'row' as '{ty}' in assignment of {shown}"),
        )
    }

    fn cursor(&mut self, name: &str) -> SqlResult<&mut Cursor<'r>> {
        self.frames
            .iter_mut()
            .rev()
            .flat_map(|f| f.cursors.iter_mut())
            .find(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SqlError::new(ErrorCode::SP_CURSOR_MISMATCH, format!("Undefined CURSOR: {name}")))
    }

    fn exec_list(&mut self, list: &'r [SpStmt]) -> SqlResult<Flow> {
        for stmt in list {
            self.runner.session().guard().check()?;
            let outcome = match self.exec(stmt) {
                // A RETURN whose value failed ends the function even when a
                // CONTINUE handler took the error: it returns NULL (as
                // MariaDB's RETURN moves to the end before evaluating).
                Err(e) if matches!(stmt, SpStmt::Return(_)) => match self.handle(e, stmt)? {
                    Flow::Normal => Flow::Return(Value::Null),
                    other => other,
                },
                Err(e) => self.handle(e, stmt)?,
                Ok(flow) => flow,
            };
            if !matches!(outcome, Flow::Normal) {
                return Ok(outcome);
            }
        }
        Ok(Flow::Normal)
    }

    /// Runs the handler for `error`, if one is active: CONTINUE goes on
    /// after the statement, EXIT leaves the handler's block. Without one,
    /// the error stands — except SELECT ... INTO finding no row, which
    /// then is only a warning.
    fn handle(&mut self, error: SqlError, stmt: &SpStmt) -> SqlResult<Flow> {
        let (errno, sqlstate) = (error.code.number, error.code.sqlstate);
        // A condition raised replaces the previous statement's in the
        // diagnostics area even when a handler takes it.
        self.runner.session().claim_diagnostics();
        let mut best: Option<(usize, usize, u8)> = None;
        for (i, h) in self.handlers.iter().enumerate().rev() {
            if best.is_some_and(|(_, depth, _)| h.depth < depth) {
                break;
            }
            if let Some(rank) = h.conditions.iter().filter(|c| c.matches(errno, sqlstate)).map(Condition::rank).min() {
                if best.is_none_or(|(_, _, r)| rank < r) {
                    best = Some((i, h.depth, rank));
                }
            }
        }
        let Some((index, _, _)) = best else {
            let select_into = matches!(stmt, SpStmt::Sql(sql) if !sql.into.is_empty());
            if select_into && errno == ErrorCode::SP_FETCH_NO_DATA.number {
                self.runner.warn_no_data(error);
                return Ok(Flow::Normal);
            }
            // A signalled warning no handler takes is only a warning.
            if sqlstate.starts_with("01") {
                self.runner.session().push_warning(Warning::from_error("Warning", &error));
                return Ok(Flow::Normal);
            }
            return Err(error);
        };
        let (exit, body, depth) = {
            let h = &self.handlers[index];
            (h.exit, h.body, h.depth)
        };
        // The handler's body runs with only the handlers declared before it.
        let hidden = self.handlers.split_off(index);
        self.handling.push(error);
        let flow = self.exec(body);
        self.handling.pop();
        self.handlers.extend(hidden);
        match flow? {
            Flow::Normal if exit => Ok(Flow::Exit(depth)),
            Flow::Normal => Ok(Flow::Normal),
            other => Ok(other),
        }
    }

    fn exec(&mut self, stmt: &'r SpStmt) -> SqlResult<Flow> {
        match stmt {
            SpStmt::Block { label, body } => {
                let depth = self.frames.len() + 1;
                let flow = self.in_frame(Frame::default(), |interp| interp.exec_list(body));
                Ok(match flow? {
                    Flow::Leave(l) if same_label(label, &l) => Flow::Normal,
                    Flow::Exit(d) if d == depth => Flow::Normal,
                    other => other,
                })
            }
            SpStmt::DeclareVar { names, ty, default } => {
                let declared = self.resolve_type(ty)?;
                if let Declared::Row(fields) = declared {
                    return self.declare_rows(names, &fields, default.as_ref());
                }
                let Declared::Scalar(ty) = declared else { return Err(SqlError::internal("row type")) };
                let value = match default {
                    Some(e) => self.eval_stored(e)?,
                    None => Value::Null,
                };
                for name in names {
                    let frame = self.frames.last_mut().ok_or_else(|| SqlError::internal("no frame"))?;
                    // Named as the variable, as a value it cannot hold reports it.
                    let ty = ColumnDef { name: name.clone(), ..ty.clone() };
                    frame.vars.push(Var { name: name.clone(), ty, value: Value::Null, assigned: false });
                    self.assign_set(&SpTarget::Local(name.clone()), value.clone())?;
                }
                Ok(Flow::Normal)
            }
            SpStmt::DeclareCursor { name, params, query } => {
                let frame = self.frames.last_mut().ok_or_else(|| SqlError::internal("no frame"))?;
                frame.cursors.push(Cursor { name: name.clone(), params, query, rows: None });
                Ok(Flow::Normal)
            }
            SpStmt::DeclareHandler { exit, conditions, body } => {
                let depth = self.frames.len();
                self.handlers.push(Handler { exit: *exit, conditions, body, depth });
                Ok(Flow::Normal)
            }
            SpStmt::Set(assignments) => {
                for (target, e) in assignments {
                    if let SpTarget::Local(name) = target {
                        if self.row(name).is_some() {
                            self.assign_row(name, e)?;
                            continue;
                        }
                    }
                    let value = match target {
                        SpTarget::Local(name) => {
                            let value = self.eval_stored(e);
                            value.map_err(|err| self.row_assignment(name, &e.expr, err))?
                        }
                        _ => self.eval(e)?,
                    };
                    self.assign_set(target, value)?;
                }
                Ok(Flow::Normal)
            }
            SpStmt::If { branches, otherwise } => {
                for (cond, body) in branches {
                    if self.test(cond)? {
                        return self.exec_list(body);
                    }
                }
                otherwise.as_deref().map_or(Ok(Flow::Normal), |body| self.exec_list(body))
            }
            SpStmt::Case { operand, whens, otherwise } => {
                let subject = operand.as_ref().map(|o| self.eval(o)).transpose()?;
                for (when, body) in whens {
                    let hit = match &subject {
                        Some(s) => {
                            let v = self.eval(when)?;
                            crate::eval::compare(s, &v) == Some(std::cmp::Ordering::Equal)
                        }
                        None => self.test(when)?,
                    };
                    if hit {
                        return self.exec_list(body);
                    }
                }
                match otherwise {
                    Some(body) => self.exec_list(body),
                    None => Err(SqlError::new(
                        ErrorCode { number: 1339, sqlstate: "20000" },
                        "Case not found for CASE statement",
                    )),
                }
            }
            SpStmt::Loop { label, kind, body } => self.run_loop(label, kind, body),
            SpStmt::Leave(l) => Ok(Flow::Leave(l.clone())),
            SpStmt::Iterate(l) => Ok(Flow::Iterate(l.clone())),
            SpStmt::Return(e) => Ok(Flow::Return(self.eval_stored(e)?)),
            SpStmt::Open { cursor, args } => {
                let (_, rows) = self.cursor_rows(cursor, args)?;
                self.cursor(cursor)?.rows = Some(rows.into());
                Ok(Flow::Normal)
            }
            SpStmt::Fetch { cursor, into } => {
                let row = match &mut self.cursor(cursor)?.rows {
                    None => return Err(SqlError::new(ErrorCode::SP_CURSOR_NOT_OPEN, "Cursor is not open")),
                    Some(rows) => rows.pop_front().ok_or_else(no_data)?,
                };
                let into = self.row_targets(into)?;
                if row.len() != into.len() {
                    return Err(SqlError::new(
                        ErrorCode::SP_WRONG_NO_OF_FETCH_ARGS,
                        "Incorrect number of FETCH variables",
                    ));
                }
                for (target, value) in into.iter().zip(row) {
                    self.assign(target, value)?;
                }
                Ok(Flow::Normal)
            }
            SpStmt::Close(name) => {
                let c = self.cursor(name)?;
                if c.rows.take().is_none() {
                    return Err(SqlError::new(ErrorCode::SP_CURSOR_NOT_OPEN, "Cursor is not open"));
                }
                Ok(Flow::Normal)
            }
            SpStmt::Signal { resignal, condition, items } => Err(self.signal(*resignal, condition.as_ref(), items)?),
            SpStmt::GetDiagnostics(get) => {
                self.get_diagnostics(get)?;
                Ok(Flow::Normal)
            }
            SpStmt::Call { name, args } => self.call(name, args),
            SpStmt::Sql(sql) => self.sql(sql),
        }
    }

    /// The condition a SIGNAL or RESIGNAL raises (`Err` for what fails
    /// while building it).
    fn signal(
        &mut self,
        resignal: bool,
        condition: Option<&SignalCondition>,
        items: &[(ConditionItem, SpExpr)],
    ) -> SqlResult<SqlError> {
        let handled = match (resignal, self.handling.last()) {
            (false, _) => None,
            (true, Some(handled)) => Some(handled.clone()),
            (true, None) => {
                return Err(SqlError::new(
                    ErrorCode::RESIGNAL_WITHOUT_ACTIVE_HANDLER,
                    "RESIGNAL when handler not active",
                ))
            }
        };
        let mut error = match (condition, handled) {
            (Some(c), handled) => {
                // RESIGNAL with a new condition keeps the handled one in
                // the diagnostics area, before it.
                if let Some(h) = handled {
                    self.runner.session().push_warning(Warning::from_error(condition_level(&h), &h));
                }
                let text = match &c.sqlstate[..2] {
                    "01" => "Unhandled user-defined warning condition",
                    "02" => "Unhandled user-defined not found condition",
                    _ => "Unhandled user-defined exception condition",
                };
                SqlError::new(ErrorCode { number: c.errno, sqlstate: interned_sqlstate(&c.sqlstate) }, text)
            }
            (None, Some(handled)) => handled,
            (None, None) => return Err(SqlError::internal("SIGNAL without a condition")),
        };
        for (item, e) in items {
            let value = self.eval(e)?;
            let refused = || {
                SqlError::new(
                    ErrorCode::WRONG_VALUE_FOR_VAR,
                    format!("Variable '{}' can't be set to the value of '{}'", item.name(), value_text(&value)),
                )
            };
            match item {
                ConditionItem::MysqlErrno => {
                    let number = crate::eval::to_i64_cast(&value, self.runner.session())
                        .filter(|n| (1..=65535).contains(n))
                        .ok_or_else(refused)?;
                    error.code.number = number as u16;
                }
                _ if value.is_null() => return Err(refused()),
                ConditionItem::MessageText => error.message = value.to_string(),
                ConditionItem::Named(name) => {
                    error.items.get_or_insert_with(Default::default).set(name, value.to_string())
                }
                ConditionItem::ReturnedSqlstate => return Err(SqlError::internal("SIGNAL SET RETURNED_SQLSTATE")),
            }
        }
        Ok(error)
    }

    /// GET DIAGNOSTICS: inside a handler it reads the handled condition,
    /// elsewhere the diagnostics area the previous statement left.
    fn get_diagnostics(&mut self, get: &GetDiagnostics) -> SqlResult<()> {
        let area: Vec<Warning> = match self.handling.last() {
            Some(handled) => vec![Warning::from_error(condition_level(handled), handled)],
            None => self.runner.session().conditions().clone(),
        };
        let condition = match &get.condition {
            None => None,
            Some(number) => {
                let number = self.eval(number)?;
                let found = crate::eval::to_i64_cast(&number, self.runner.session())
                    .and_then(|n| usize::try_from(n).ok())
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|i| area.get(i));
                match found {
                    Some(c) => Some(c.clone()),
                    None => {
                        let invalid = SqlError::new(ErrorCode::DA_INVALID_CONDITION_NUMBER, "Invalid condition number");
                        self.runner.session().push_warning(Warning::from_error("Error", &invalid));
                        return Ok(());
                    }
                }
            }
        };
        for (target, item) in &get.items {
            let value = match (item, &condition) {
                (DiagnosticsItem::Number, _) => Value::Int(area.len() as i64),
                (DiagnosticsItem::RowCount, _) => Value::Int(self.runner.session().row_count.get()),
                (DiagnosticsItem::Condition(item), Some(c)) => condition_item(c, *item),
                (DiagnosticsItem::Condition(_), None) => Value::Null,
            };
            self.assign(target, value)?;
        }
        Ok(())
    }

    fn run_loop(&mut self, label: &Option<String>, kind: &'r LoopKind, body: &'r [SpStmt]) -> SqlResult<Flow> {
        match kind {
            LoopKind::ForRange { var, lower, upper, reverse } => {
                return self.run_for_range(label, var, (lower, upper), *reverse, body)
            }
            LoopKind::ForRows { record, source } => return self.run_for_rows(label, record, source, body),
            LoopKind::Plain | LoopKind::While(_) | LoopKind::Repeat(_) => {}
        }
        loop {
            if let LoopKind::While(cond) = kind {
                if !self.test(cond)? {
                    return Ok(Flow::Normal);
                }
            }
            match self.exec_list(body)? {
                Flow::Normal => {}
                Flow::Iterate(l) if same_label(label, &l) => continue,
                Flow::Leave(l) if same_label(label, &l) => return Ok(Flow::Normal),
                other => return Ok(other),
            }
            if let LoopKind::Repeat(until) = kind {
                if self.test(until)? {
                    return Ok(Flow::Normal);
                }
            }
        }
    }

    /// What opening cursor `name` with `args` reads: its query run with its
    /// parameters bound to the arguments (MariaDB evaluates them in the
    /// caller's scope).
    fn cursor_rows(
        &mut self,
        name: &str,
        args: &[SpExpr],
    ) -> SqlResult<(Vec<crate::session::ResultColumn>, Vec<Vec<Value>>)> {
        let (query, params) = {
            let c = self.cursor(name)?;
            if c.rows.is_some() {
                return Err(SqlError::new(ErrorCode::SP_CURSOR_ALREADY_OPEN, "Cursor is already open"));
            }
            (c.query, c.params)
        };
        let caller_db = self.caller_db.clone();
        let values = self.arguments(params, args, caller_db.as_deref())?;
        let frame = params::frame_outside_rows(self.runner.session(), params, values)?;
        self.frames.push(frame);
        let query_params = self.values(&query.vars);
        self.frames.pop();
        Ok(columns_and_rows(self.runner.run(query, &query_params?)?))
    }

    /// One pass of a FOR loop's body: `Some` ends the loop with that flow.
    fn for_pass(&mut self, label: &Option<String>, body: &'r [SpStmt]) -> SqlResult<Option<Flow>> {
        Ok(match self.exec_list(body)? {
            Flow::Normal => None,
            Flow::Iterate(l) if same_label(label, &l) => None,
            Flow::Leave(l) if same_label(label, &l) => Some(Flow::Normal),
            other => Some(other),
        })
    }

    /// Runs `pass` in `frame` (a loop's variables; none for a block),
    /// dropped with the handlers declared in it however `pass` ends.
    fn in_frame(&mut self, frame: Frame<'r>, pass: impl FnOnce(&mut Self) -> SqlResult<Flow>) -> SqlResult<Flow> {
        let handlers_below = self.handlers.len();
        self.frames.push(frame);
        let flow = pass(self);
        self.frames.pop();
        self.handlers.truncate(handlers_below);
        flow
    }

    /// `FOR var IN [REVERSE] lower .. upper`: the bounds are read once; the
    /// body may change the variable, and counting goes on from its value.
    fn run_for_range(
        &mut self,
        label: &Option<String>,
        var: &str,
        (lower, upper): (&SpExpr, &SpExpr),
        reverse: bool,
        body: &'r [SpStmt],
    ) -> SqlResult<Flow> {
        let (low, high) = (self.eval(lower)?, self.eval(upper)?);
        let session = self.runner.session();
        let bounds = (crate::eval::to_i64_cast(&low, session), crate::eval::to_i64_cast(&high, session));
        let (Some(low), Some(high)) = bounds else { return Ok(Flow::Normal) };
        // MariaDB types the index BIGINT NOT NULL whatever the bounds.
        let ty = crate::parse::routine::column_type("BIGINT NOT NULL")?;
        let first = if reverse { high } else { low };
        let counter = Var { name: var.to_string(), ty, value: Value::Int(first), assigned: false };
        self.in_frame(Frame { vars: vec![counter], ..Frame::default() }, |interp| loop {
            let value = interp.var(var)?.value.clone();
            let at = crate::eval::to_i64_cast(&value, interp.runner.session()).unwrap_or(i64::MAX);
            if (!reverse && at > high) || (reverse && at < low) {
                return Ok(Flow::Normal);
            }
            if let Some(flow) = interp.for_pass(label, body)? {
                return Ok(flow);
            }
            let next = if reverse { at.checked_sub(1) } else { at.checked_add(1) };
            let Some(next) = next else { return Ok(Flow::Normal) };
            interp.var(var)?.value = Value::Int(next);
        })
    }

    /// `FOR rec IN cursor | (query)`: `rec` is a ROW of the query's
    /// columns. A cursor is open while the loop runs: each pass fetches
    /// its next row, a FETCH in the body takes one too (1329 past the last
    /// one, as any FETCH), and the loop closes it however it ends.
    fn run_for_rows(
        &mut self,
        label: &Option<String>,
        record: &str,
        source: &'r RowSource,
        body: &'r [SpStmt],
    ) -> SqlResult<Flow> {
        let (columns, mut query_rows) = match source {
            RowSource::Query(query) => {
                let params = self.values(&query.vars)?;
                let (columns, rows) = columns_and_rows(self.runner.run(query, &params)?);
                (columns, Some(VecDeque::from(rows)))
            }
            RowSource::Cursor { name, args } => {
                let (columns, rows) = self.cursor_rows(name, args)?;
                self.cursor(name)?.rows = Some(rows.into());
                (columns, None)
            }
        };
        let record_var = RowVar { name: record.to_string(), fields: columns.iter().map(|c| c.name.clone()).collect() };
        let fields = columns
            .into_iter()
            .map(|c| Var { name: record_field(record, &c.name), ty: c.def, value: Value::Null, assigned: false })
            .collect();
        let frame = Frame { vars: fields, rows: vec![record_var], ..Frame::default() };
        let flow = self.in_frame(frame, |interp| {
            while let Some(row) = interp.next_for_row(source, &mut query_rows)? {
                let frame = interp.frames.last_mut().ok_or_else(|| SqlError::internal("no frame"))?;
                for (field, value) in frame.vars.iter_mut().zip(row) {
                    field.value = value;
                }
                if let Some(flow) = interp.for_pass(label, body)? {
                    return Ok(flow);
                }
            }
            Ok(Flow::Normal)
        });
        if let RowSource::Cursor { name, .. } = source {
            self.cursor(name)?.rows = None;
        }
        flow
    }

    /// The next row of a FOR loop over `source` (`query_rows`: a query's).
    fn next_for_row(
        &mut self,
        source: &RowSource,
        query_rows: &mut Option<VecDeque<Vec<Value>>>,
    ) -> SqlResult<Option<Vec<Value>>> {
        Ok(match (query_rows, source) {
            (Some(rows), _) => rows.pop_front(),
            (None, RowSource::Cursor { name, .. }) => self.cursor(name)?.rows.as_mut().and_then(VecDeque::pop_front),
            (None, RowSource::Query(_)) => None,
        })
    }

    fn call(&mut self, name: &ObjectName, args: &[SpExpr]) -> SqlResult<Flow> {
        let entry = lookup(self.runner.session(), RoutineKind::Procedure, name)?;
        check_arg_count(&entry.def, &entry.routine, args.len())?;
        let mut targets = Vec::with_capacity(args.len());
        for (i, (arg, param)) in args.iter().zip(&entry.routine.params).enumerate() {
            let target = match (&arg.expr, arg.vars.as_slice()) {
                (Expr::Param(0), [var]) => Some(SpTarget::Local(var.clone())),
                (Expr::UserVar(u), _) => Some(SpTarget::User(u.clone())),
                _ => self.row_var_arg(arg).map(SpTarget::Local),
            };
            if param.mode != ParamMode::In && target.is_none() {
                return Err(not_var_arg(&entry.def, i + 1));
            }
            targets.push(target.filter(|_| param.mode != ParamMode::In));
        }
        // The procedure is called from this body's database (a procedure
        // runs in its own).
        let caller_db = self.runner.session().db.clone();
        let values = self.arguments(&entry.routine.params, args, caller_db.as_deref())?;
        let (outs, affected) = self.runner.call(&entry, values)?;
        self.affected += affected;
        for (target, value) in targets.iter().zip(outs) {
            if let Some(t) = target {
                self.assign_argument(t, value)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// The arguments `args` give `params` (a procedure's or a cursor's),
    /// evaluated in this body's scope; anchored parameter types are read
    /// in `caller_db`. A ROW variable passes its fields.
    fn arguments(
        &mut self,
        params: &[RoutineParam],
        args: &[SpExpr],
        caller_db: Option<&str>,
    ) -> SqlResult<Vec<Argument>> {
        let declared = params::declared(self.runner.session(), caller_db, params)?;
        let mut values = Vec::with_capacity(args.len());
        for ((param, declared), arg) in params.iter().zip(&declared).zip(args) {
            let value = match (declared, self.row_var_arg(arg)) {
                (Declared::Row(fields), Some(row)) if param.mode != ParamMode::Out => {
                    let values = self.row_values(&row)?;
                    if values.len() != fields.len() {
                        return Err(operand_columns(fields.len()));
                    }
                    params::row(fields, values)
                }
                _ => {
                    let mut eval = |e: &Expr| self.eval(&SpExpr { expr: e.clone(), vars: arg.vars.clone() });
                    params::argument(param, declared, &arg.expr, &mut eval)?
                }
            };
            values.push(value);
        }
        Ok(values)
    }

    /// The ROW variable `arg` passes whole, if it is one: `?` of the
    /// variable (its fields unknown when the body was read) or `ROW(?, ...)`
    /// of each of its fields in order.
    fn row_var_arg(&self, arg: &SpExpr) -> Option<String> {
        match (&arg.expr, arg.vars.as_slice()) {
            (Expr::Param(0), [var]) => self.row(var).map(|r| r.name.clone()),
            (Expr::Tuple(items), vars) if items.len() == vars.len() => {
                let (name, _) = vars.first()?.split_once('.')?;
                let row = self.row(name)?;
                let fields_in_order = row.fields.len() == vars.len()
                    && row.fields.iter().zip(vars).all(|(f, v)| record_field(&row.name, f) == *v);
                let params_in_order = items.iter().enumerate().all(|(i, e)| matches!(e, Expr::Param(n) if *n == i));
                (fields_in_order && params_in_order).then(|| row.name.clone())
            }
            _ => None,
        }
    }

    /// The values of ROW variable `row`'s fields.
    fn row_values(&mut self, row: &str) -> SqlResult<Vec<Value>> {
        let (row, fields) = match self.row(row) {
            Some(r) => (r.name.clone(), r.fields.clone()),
            None => return Err(SqlError::internal("no such row variable")),
        };
        fields.iter().map(|f| Ok(self.var(&record_field(&row, f))?.value.clone())).collect()
    }

    /// Gives a parameter's final value back to the variable passed for it.
    fn assign_argument(&mut self, target: &SpTarget, value: Argument) -> SqlResult<()> {
        let fields = match value {
            Argument::Scalar(_, value) => return self.assign(target, value),
            Argument::Row(fields) => fields,
        };
        let row = match target {
            SpTarget::Local(name) => self.row(name).map(|r| (r.name.clone(), r.fields.clone())),
            _ => None,
        };
        let (row, names) = row.ok_or_else(|| operand_columns(1))?;
        if names.len() != fields.len() {
            return Err(operand_columns(names.len()));
        }
        for (name, (_, value)) in names.iter().zip(fields) {
            self.assign(&SpTarget::Local(record_field(&row, name)), value)?;
        }
        Ok(())
    }

    fn sql(&mut self, sql: &SpSql) -> SqlResult<Flow> {
        let params = self.values(&sql.vars)?;
        let into_locals = sql.into.iter().any(|t| matches!(t, SpTarget::Local(_)));
        let strict = into_locals && self.runner.session().strict();
        let result = self.taking_out_args(&sql.vars, |interp| {
            interp.typed_by(&sql.vars, |interp| {
                interp.aborting_on_warning(strict, |interp| interp.runner.run(sql, &params))
            })
        })?;
        match result {
            QueryResult::Rows { columns, rows } if !sql.into.is_empty() => {
                let into = self.row_targets(&sql.into)?;
                if columns.len() != into.len() {
                    return Err(SqlError::new(
                        ErrorCode::WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
                        "The used SELECT statements have a different number of columns",
                    ));
                }
                let mut rows = rows.into_iter();
                let row = rows.next().ok_or_else(no_data)?;
                if rows.next().is_some() {
                    return Err(SqlError::new(ErrorCode::TOO_MANY_ROWS, "Result consisted of more than one row"));
                }
                for (target, value) in into.iter().zip(row) {
                    self.assign(target, value)?;
                }
                self.affected += 1;
            }
            rows @ QueryResult::Rows { .. } => self.runner.emit(rows)?,
            QueryResult::Ok { affected_rows, .. } => {
                // ROW_COUNT() after a body's statement is that statement's.
                self.runner.session().row_count.set(affected_rows as i64);
                self.affected += affected_rows
            }
            // Only a client's own query streams its rows.
            QueryResult::Streamed { .. } => {}
        }
        Ok(Flow::Normal)
    }
}
