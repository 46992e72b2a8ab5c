//! A client session: current database, session variables, user variables,
//! the open transaction, warnings; and statement dispatch.
//!
//! Statement atomicity: a failing statement undoes its own writes; a failed
//! autocommit statement leaves nothing behind. Deadlock (1213) rolls back
//! the whole transaction, as InnoDB does.

use crate::accounts::privs;
use crate::ast::*;
use crate::engine::Engine;
use crate::eval::{EvalEnv, UserLockCall};
use crate::kill::{KillFlag, StatementGuard, TimeLimit};
use crate::mdl::{TableName, TableUse, Wait};
use crate::sequence::Sequence;
use crate::txn::Txn;
use crate::vars::{self, Kind};
use onelog_binlog::pipeline::TxnEvents;
use onelog_core::{
    Charset, Collation, ColumnDef, ColumnType, ErrorCode, KeyMembership, SqlError, SqlResult, TableDef, Value,
};
use parking_lot::Mutex;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A column of a result set.
#[derive(Debug, Clone)]
pub struct ResultColumn {
    pub name: String,
    pub org_name: String,
    pub table: String,
    pub org_table: String,
    pub db: String,
    pub def: ColumnDef,
    /// Its part in its base table's keys (none for a computed column).
    pub key: KeyMembership,
    /// A stored function's result: MariaDB describes it by the function's
    /// RETURNS field (flags and decimals of a field, no table), not as a
    /// computed expression.
    pub stored_function: bool,
    /// A string result its function describes with decimals 0 where other
    /// string items say 39 (MariaDB's HEX, DATE_FORMAT, CAST(... AS CHAR)...).
    pub decimals_zero: bool,
}

/// Fractional-second digits `micros` needs (0 for whole seconds).
fn micros_digits(micros: u32) -> u8 {
    if micros == 0 {
        return 0;
    }
    let (mut digits, mut rest) = (6, micros);
    while rest % 10 == 0 {
        rest /= 10;
        digits -= 1;
    }
    digits
}

impl ResultColumn {
    /// A computed column whose type is inferred from its values.
    pub fn computed(name: &str, values: impl Iterator<Item = Value> + Clone) -> ResultColumn {
        let values_again = values.clone();
        let mut ty = None;
        for v in values {
            ty = match v {
                Value::Null => continue,
                Value::Int(_) | Value::UInt(_) => Some((ColumnType::BigInt, matches!(v, Value::UInt(_)))),
                Value::Double(_) => Some((ColumnType::Double, false)),
                // The scale a decimal column shows is the widest its values have.
                Value::Decimal(d) => {
                    Some((ColumnType::Decimal { precision: 28, scale: d.scale().min(28) as u8 }, false))
                }
                Value::Bytes(_) => Some((ColumnType::VarChar(255), false)),
                Value::Date(_) => Some((ColumnType::Date, false)),
                Value::DateTime(_) => Some((ColumnType::DateTime { fsp: 6 }, false)),
                Value::Time(_) => Some((ColumnType::Time { fsp: 6 }, false)),
                Value::Uuid(_) => Some((ColumnType::Uuid, false)),
            };
            break;
        }
        let (mut ty, unsigned) = ty.unwrap_or((ColumnType::VarChar(0), false));
        match &mut ty {
            ColumnType::Decimal { scale, .. } => {
                for v in values_again {
                    if let Value::Decimal(d) = v {
                        *scale = (*scale).max(d.scale().min(28) as u8);
                    }
                }
            }
            // Fractional digits: as many as the values need (none for whole
            // seconds), as date arithmetic on a DATETIME(0) shows in MySQL.
            ColumnType::DateTime { fsp } => {
                *fsp = values_again
                    .filter_map(|v| if let Value::DateTime(t) = v { Some(micros_digits(t.micros)) } else { None })
                    .max()
                    .unwrap_or(0);
            }
            // Likewise a computed TIME: SEC_TO_TIME(3661) is 01:01:01.
            ColumnType::Time { fsp } => {
                *fsp = values_again
                    .filter_map(|v| match v {
                        Value::Time(us) => Some(micros_digits((us.unsigned_abs() % 1_000_000) as u32)),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
            }
            _ => {}
        }
        let mut def = ColumnDef::new(name, ty);
        def.unsigned = unsigned;
        ResultColumn::named(name, def)
    }

    pub fn named(name: &str, def: ColumnDef) -> ResultColumn {
        ResultColumn {
            name: name.to_string(),
            org_name: String::new(),
            table: String::new(),
            org_table: String::new(),
            db: String::new(),
            def,
            key: KeyMembership::default(),
            stored_function: false,
            decimals_zero: false,
        }
    }

    /// The result of a call of a stored function that RETURNS `def`.
    pub fn stored_function(name: &str, def: ColumnDef) -> ResultColumn {
        ResultColumn { stored_function: true, ..ResultColumn::named(name, def) }
    }

    pub fn text(name: &str) -> ResultColumn {
        ResultColumn::named(name, ColumnDef::new(name, ColumnType::VarChar(255)))
    }

    pub fn int(name: &str) -> ResultColumn {
        ResultColumn::named(name, ColumnDef::new(name, ColumnType::BigInt))
    }
}

#[derive(Debug, Clone)]
pub enum QueryResult {
    Rows {
        columns: Vec<ResultColumn>,
        rows: Vec<Vec<Value>>,
    },
    Ok {
        affected_rows: u64,
        last_insert_id: u64,
        info: String,
    },
    /// A result set already handed to the client's [`ResultSink`] as it
    /// was produced (see [`Session::execute_client_query`]); only its end
    /// is left to send. `found_rows`: the rows it found before LIMIT
    /// stopped it, those OFFSET skipped included (FOUND_ROWS()).
    Streamed {
        found_rows: u64,
    },
}

/// The client of a COM_QUERY, for the statements that talk to it while
/// they run.
pub trait QueryClient {
    /// Where LOAD DATA LOCAL reads the client's file; `None`: the client
    /// sends none.
    fn files(&mut self) -> Option<&mut dyn crate::load_data::ClientFiles>;
    /// Where a query's lone SELECT sends its rows as they come.
    fn rows(&mut self) -> &mut dyn ResultSink;
}

/// Where a COM_QUERY's SELECT sends its result set as the rows come, so
/// that the server holds a bounded part of it whatever its size (see
/// `stream`): the columns once, before the first row, then each row.
pub trait ResultSink {
    /// `session` is the statement's, for what the head says of its state
    /// (status flags, warnings so far).
    fn columns(&mut self, session: &Session, columns: &[ResultColumn]) -> SqlResult<()>;
    fn row(&mut self, row: Vec<Value>) -> SqlResult<()>;
}

impl QueryResult {
    pub fn ok(affected_rows: u64) -> QueryResult {
        QueryResult::Ok { affected_rows, last_insert_id: 0, info: String::new() }
    }
}

/// SHOW STATUS counters kept per session and for the server.
#[derive(Clone, Copy)]
pub(crate) enum StatusCounter {
    /// Feature_window_functions: query blocks with window functions, once
    /// per statement that binds them, as MariaDB counts.
    WindowFunctions,
    /// Sort_merge_passes: merges of a sort's runs on disk (`sort`).
    SortMergePasses,
    /// Binlog_cache_use: transactions that ended (committed or rolled back)
    /// with events in their binlog cache.
    BinlogCacheUse,
    /// Binlog_cache_disk_use: those of them whose cache went to a
    /// temporary file.
    BinlogCacheDiskUse,
}

/// How many `StatusCounter`s there are.
pub const STATUS_COUNTERS: usize = 4;

/// Warnings a statement keeps for SHOW WARNINGS (max_error_count's default).
const MAX_WARNINGS: usize = 64;

/// How many warnings a statement had kept and only counted at some point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WarningsMark {
    kept: usize,
    dropped: u64,
    raised: u64,
    claimed: bool,
}

/// Whether `stmt` names a table (MariaDB's test for emptying the
/// diagnostics area before it runs).
fn stmt_uses_table(stmt: &Statement) -> bool {
    let table_ddl = matches!(
        stmt,
        Statement::CreateTable(_)
            | Statement::DropTable { .. }
            | Statement::CreateView(_)
            | Statement::DropView { .. }
            | Statement::CreateIndex { .. }
            | Statement::DropIndex { .. }
            | Statement::AlterTable { .. }
            | Statement::Truncate(_)
            | Statement::RenameTables(_)
    );
    let mut uses_table = table_ddl;
    stmt.for_each_table(&mut |_| uses_table = true);
    uses_table
}

/// A condition of the diagnostics area: a note, a warning or the error
/// that ended a statement.
#[derive(Debug, Clone)]
pub struct Warning {
    pub level: &'static str,
    pub code: u16,
    pub sqlstate: &'static str,
    pub message: String,
    pub items: Option<Box<onelog_core::ConditionItems>>,
}

impl Warning {
    /// A note or warning raised by number: its SQLSTATE is the code's
    /// (HY000 for a number OneLog does not name).
    fn raised(level: &'static str, code: u16, message: String) -> Warning {
        let sqlstate = ErrorCode::by_number(code).map_or("HY000", |c| c.sqlstate);
        Warning { level, code, sqlstate, message, items: None }
    }

    /// `error` as a condition of level `level`.
    pub(crate) fn from_error(level: &'static str, error: &SqlError) -> Warning {
        Warning {
            level,
            code: error.code.number,
            sqlstate: error.code.sqlstate,
            message: error.message.clone(),
            items: error.items.clone(),
        }
    }
}

impl Session {
    /// Records a Note (IF [NOT] EXISTS outcomes), shown by SHOW WARNINGS.
    pub fn note(&self, code: u16, message: String) {
        self.push_warning(Warning::raised("Note", code, message));
    }
}

/// Row of SHOW PROCESSLIST.
#[derive(Debug, Clone)]
pub struct ProcessInfo {
    pub user: String,
    pub host: String,
    pub db: Option<String>,
    pub command: String,
    pub started: Instant,
    pub info: Option<String>,
    /// What the running statement waits for (PROCESSLIST State), if anything.
    pub state: &'static str,
    /// Set by KILL; read by the session's running statement.
    pub kill: Arc<KillFlag>,
    /// Wakes the connection's thread when KILL ends the connection.
    pub interrupt: Option<Interrupt>,
}

/// How KILL reaches a connection's thread that waits for a command: the
/// server passes one that shuts its socket's read side down.
#[derive(Clone)]
pub struct Interrupt(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interrupt")
    }
}

#[derive(Default)]
pub struct ProcessList {
    /// Each session updates its own entry (its own mutex) on every
    /// statement; the map's lock is taken only to add, remove or list.
    pub entries: Mutex<BTreeMap<u64, Arc<Mutex<ProcessInfo>>>>,
}

/// The session's variables before a `SET STATEMENT ... FOR` set them.
struct StatementVars {
    session: BTreeMap<&'static str, String>,
    routine_sql_mode: Option<String>,
}

pub struct Session {
    pub engine: Arc<Engine>,
    process: Arc<Mutex<ProcessInfo>>,
    pub connection_id: u64,
    /// The name the client logged in with, and its host (USER()).
    pub user: String,
    pub host: String,
    /// The account it logged in as (CURRENT_USER()); `None` for the
    /// server's own sessions, which are not checked.
    pub account: Option<crate::ast::account::UserName>,
    /// The account's password expired: only SET PASSWORD may run.
    pub(crate) password_expired: bool,
    pub(crate) privilege_cache: crate::privilege::PrivilegeCache,
    /// The role SET ROLE (or the default role at login) enabled
    /// (CURRENT_ROLE()).
    pub(crate) current_role: Option<String>,
    pub db: Option<String>,
    pub(crate) session_vars: BTreeMap<&'static str, String>,
    /// The sql_mode of each stored routine or trigger being run, innermost
    /// last: a body runs under the mode it was created with (MariaDB keeps
    /// it with the routine), whatever the caller's.
    routine_sql_modes: RefCell<Vec<String>>,
    pub(crate) user_vars: RefCell<HashMap<String, Value>>,
    /// The declared types of the `?` values of what a stored program is
    /// running (its variables): MariaDB types the expressions by them.
    pub(crate) routine_param_types: RefCell<Vec<ColumnDef>>,
    /// `PREPARE name FROM ...` statements, by lower-case name.
    pub(crate) sql_prepared: HashMap<String, crate::parse::ParsedStatement>,
    /// Names (lower case) of the prepared statements EXECUTE is running:
    /// a routine they call may not execute one of them again (1444).
    pub(crate) sql_executing: Vec<String>,
    pub(crate) txn: Option<Txn>,
    pub(crate) warnings: RefCell<Vec<Warning>>,
    /// Warnings of the statement past the MAX_WARNINGS kept: counted in
    /// warning_count (as MariaDB counts every one) but not shown.
    warnings_dropped: std::cell::Cell<u64>,
    /// SHOW STATUS counters: this session's counts, by `StatusCounter`.
    status_counts: [std::cell::Cell<u64>; STATUS_COUNTERS],
    pub(crate) last_insert_id: std::cell::Cell<u64>,
    /// An INSERT generated `last_insert_id` and no SELECT has used it for
    /// `sql_auto_is_null` yet (MariaDB's substitute_null_with_insert_id).
    pub(crate) auto_is_null_pending: std::cell::Cell<bool>,
    pub(crate) row_count: std::cell::Cell<i64>,
    pub(crate) found_rows: u64,
    /// What the last LIMIT applied to a whole result found before it
    /// stopped: min(rows, OFFSET + LIMIT), MariaDB's FOUND_ROWS() after a
    /// SELECT without SQL_CALC_FOUND_ROWS (see `select::apply_limit`).
    pub(crate) rows_before_limit: std::cell::Cell<Option<u64>>,
    /// The running statement's read view for DML evaluation (see
    /// `dml::with_ctx`); cleared at every statement.
    pub(crate) stmt_view: Option<Arc<onelog_storage::Snapshot>>,
    /// Conditions the running statement raised (its answer's warning
    /// count), kept or not.
    statement_conditions: std::cell::Cell<u64>,
    /// The diagnostics area holds the running statement's conditions: a
    /// statement that uses no table keeps the previous statement's until it
    /// raises one itself, as in MariaDB (see `begin_diagnostics`).
    diagnostics_claimed: std::cell::Cell<bool>,
    /// The row of a multi-row INSERT / UPDATE being stored, which
    /// conversion warnings and errors name (`at row N`); 1 otherwise.
    pub(crate) warning_row: std::cell::Cell<u64>,
    /// When the running top-level statement started (µs since the epoch):
    /// NOW() and its kin read it, so they are constant within a statement.
    statement_start_us: i64,
    /// The running statement wrote a row of a non-transactional table
    /// (MariaDB's `modified_non_trans_table`), which it cannot undo: from
    /// then on STRICT_TRANS_TABLES no longer makes bad values errors.
    pub(crate) non_transactional_written: std::cell::Cell<bool>,
    /// The running statement is INSERT / UPDATE IGNORE.
    pub(crate) ignoring_errors: bool,
    /// MariaDB's abort_on_warning: strict mode and a statement that stores
    /// the rows it computes, or a value being stored in a routine's
    /// variable; a division by zero is then error 1365.
    pub(crate) abort_on_warning: std::cell::Cell<bool>,
    next_isolation: Option<IsolationLevel>,
    next_read_only: Option<bool>,
    /// Offered by the connection for the next statement: if it ends with a
    /// commit, hand the commit off and let this deliver the answer.
    commit_ack: Option<Arc<dyn CommitAck>>,
    /// The last statement handed its commit off to `commit_ack`.
    commit_handed_off: bool,
    /// Set by KILL from other sessions (shared with PROCESSLIST).
    kill: Arc<KillFlag>,
    /// What may end the running statement early.
    guard: StatementGuard,
    /// This session holds the global read lock (FLUSH TABLES WITH READ LOCK).
    global_read_lock: bool,
    /// The tables LOCK TABLES holds for this session, with whether each is
    /// locked WRITE; `None` outside LOCK TABLES.
    locked_tables: Option<Vec<TableUse>>,
    /// Result sets a CALL's SELECTs produced, sent before its own answer.
    pub(crate) call_results: Vec<QueryResult>,
    /// The tables whose triggers are running, innermost last: a trigger's
    /// statements belong to the statement that fired it (one statement
    /// for atomicity) and may not write these tables (1442).
    pub(crate) trigger_tables: Vec<(String, String)>,
    /// The tables the running statement locked: a stored function it
    /// calls may not write them (1442).
    statement_tables: Vec<TableUse>,
    /// In a stored function's session: the tables the statements that
    /// called it use, which it may not write (1442).
    pub(crate) caller_tables: Vec<TableName>,
    /// The connection's TLS, if it has one (SHOW STATUS LIKE 'Ssl_%').
    pub tls: Option<crate::connections::TlsSession>,
    /// The session's temporary tables (see `temp`); dropped with it.
    pub(crate) temp: crate::temp::TempTables,
    /// Open HANDLER cursors.
    pub(crate) handlers: crate::handler::Handlers,
    /// A session nested in a connection's own to run a stored function's
    /// statements (see [`Session::nested_for_function`]): it shares the
    /// connection's locks and releases nothing when dropped.
    pub(crate) in_function: bool,
    /// What the stored functions the running statement called wrote: a
    /// fork of the transaction the statement reads (see
    /// `routine::FunctionRunner`), merged into the session's transaction
    /// when the statement ends (see [`Session::settle_function_writes`]).
    pub(crate) function_txn: RefCell<Option<Txn>>,
}

/// Told the outcome of a commit the session did not wait for (see
/// [`Session::offer_commit_ack`]). Called on the commit path, once the
/// commit is durable and visible (or failed) and its row locks are
/// released; it must not block.
pub trait CommitAck: Send + Sync {
    fn committed(&self, outcome: SqlResult<()>);
}

impl Drop for Session {
    fn drop(&mut self) {
        if self.in_function {
            // Its transaction and locks are the connection's own session's.
            return;
        }
        self.rollback_txn();
        self.engine.mdl.release_all(self.connection_id);
        self.engine.mdl.release_write_intent(self.connection_id);
        self.engine.mdl.release_global_read(self.connection_id);
        self.engine.mdl.release_table_locks(self.connection_id);
        self.engine.user_locks.release_all(self.connection_id);
        self.engine.processes.entries.lock().remove(&self.connection_id);
        self.engine.replicas.gone(self.connection_id);
    }
}

impl Session {
    pub fn new(engine: Arc<Engine>, user: &str, host: &str) -> Session {
        let connection_id = engine.next_connection_id();
        Session::with_connection_id(engine, connection_id, user, host)
    }

    /// A session for the connection whose greeting announced
    /// `connection_id` (clients KILL by that id).
    pub fn with_connection_id(engine: Arc<Engine>, connection_id: u64, user: &str, host: &str) -> Session {
        let kill = Arc::new(KillFlag::default());
        let process = Arc::new(Mutex::new(ProcessInfo {
            user: user.to_string(),
            host: host.to_string(),
            db: None,
            command: "Sleep".into(),
            started: Instant::now(),
            info: None,
            state: "",
            kill: kill.clone(),
            interrupt: None,
        }));
        engine.processes.entries.lock().insert(connection_id, process.clone());
        let session_vars = engine.vars.session_copy();
        Session {
            engine,
            process,
            connection_id,
            user: user.to_string(),
            host: host.to_string(),
            account: None,
            password_expired: false,
            privilege_cache: Default::default(),
            current_role: None,
            db: None,
            session_vars,
            routine_sql_modes: RefCell::new(Vec::new()),
            user_vars: RefCell::new(HashMap::new()),
            routine_param_types: RefCell::new(Vec::new()),
            sql_prepared: HashMap::new(),
            sql_executing: Vec::new(),
            txn: None,
            warnings: RefCell::new(Vec::new()),
            warnings_dropped: std::cell::Cell::new(0),
            status_counts: Default::default(),
            last_insert_id: std::cell::Cell::new(0),
            auto_is_null_pending: std::cell::Cell::new(false),
            row_count: std::cell::Cell::new(-1),
            found_rows: 0,
            rows_before_limit: std::cell::Cell::new(None),
            stmt_view: None,
            statement_conditions: std::cell::Cell::new(0),
            diagnostics_claimed: std::cell::Cell::new(false),
            warning_row: std::cell::Cell::new(1),
            statement_start_us: 0,
            non_transactional_written: std::cell::Cell::new(false),
            ignoring_errors: false,
            abort_on_warning: std::cell::Cell::new(false),
            next_isolation: None,
            next_read_only: None,
            commit_ack: None,
            commit_handed_off: false,
            guard: StatementGuard::start(&kill, None),
            kill,
            global_read_lock: false,
            locked_tables: None,
            call_results: Vec::new(),
            trigger_tables: Vec::new(),
            statement_tables: Vec::new(),
            caller_tables: Vec::new(),
            tls: None,
            temp: Default::default(),
            handlers: Default::default(),
            in_function: false,
            function_txn: RefCell::new(None),
        }
    }

    /// A session for the statements of a stored function this one's
    /// running statement calls: the same connection, account, variables
    /// and temporary tables, `txn` (a fork of the caller's transaction)
    /// as its transaction, and the tables the calling statement uses as
    /// tables it may not write (1442). The user variables and the
    /// diagnostics move in, and [`Session::end_nested`] moves them back.
    pub(crate) fn nested_for_function(&self, db: &str, txn: Txn) -> Session {
        let mut caller_tables = self.caller_tables.clone();
        caller_tables.extend(self.trigger_tables.iter().cloned());
        caller_tables.extend(self.statement_tables.iter().map(|(table, _)| table.clone()));
        Session {
            engine: self.engine.clone(),
            process: self.process.clone(),
            connection_id: self.connection_id,
            user: self.user.clone(),
            host: self.host.clone(),
            account: self.account.clone(),
            password_expired: self.password_expired,
            privilege_cache: Default::default(),
            current_role: self.current_role.clone(),
            db: Some(db.to_string()),
            session_vars: self.session_vars.clone(),
            routine_sql_modes: RefCell::new(self.routine_sql_modes.borrow().clone()),
            user_vars: RefCell::new(self.user_vars.take()),
            // The calling body's variables are the `?` of its statements.
            routine_param_types: RefCell::new(self.routine_param_types.borrow().clone()),
            sql_prepared: HashMap::new(),
            sql_executing: self.sql_executing.clone(),
            txn: Some(txn),
            warnings: RefCell::new(self.warnings.take()),
            warnings_dropped: std::cell::Cell::new(self.warnings_dropped.get()),
            status_counts: Default::default(),
            last_insert_id: std::cell::Cell::new(self.last_insert_id.get()),
            auto_is_null_pending: std::cell::Cell::new(self.auto_is_null_pending.get()),
            row_count: std::cell::Cell::new(self.row_count.get()),
            found_rows: self.found_rows,
            rows_before_limit: std::cell::Cell::new(None),
            stmt_view: None,
            statement_conditions: std::cell::Cell::new(self.statement_conditions.get()),
            diagnostics_claimed: std::cell::Cell::new(true),
            warning_row: std::cell::Cell::new(self.warning_row.get()),
            statement_start_us: self.statement_start_us,
            non_transactional_written: std::cell::Cell::new(self.non_transactional_written.get()),
            ignoring_errors: self.ignoring_errors,
            abort_on_warning: std::cell::Cell::new(self.abort_on_warning.get()),
            next_isolation: None,
            next_read_only: None,
            commit_ack: None,
            commit_handed_off: false,
            kill: self.kill.clone(),
            guard: self.guard.clone(),
            global_read_lock: self.global_read_lock,
            locked_tables: self.locked_tables.clone(),
            call_results: Vec::new(),
            trigger_tables: Vec::new(),
            statement_tables: Vec::new(),
            caller_tables,
            tls: None,
            temp: self.temp.shared(),
            handlers: Default::default(),
            in_function: true,
            function_txn: RefCell::new(None),
        }
    }

    /// Ends a [`Session::nested_for_function`] session: what it moved in
    /// goes back to `caller`, and its transaction is returned.
    pub(crate) fn end_nested(mut self, caller: &Session) -> SqlResult<Txn> {
        caller.user_vars.replace(self.user_vars.take());
        caller.warnings.replace(self.warnings.take());
        caller.warnings_dropped.set(self.warnings_dropped.get());
        caller.statement_conditions.set(self.statement_conditions.get());
        caller.last_insert_id.set(self.last_insert_id.get());
        caller.auto_is_null_pending.set(self.auto_is_null_pending.get());
        caller.row_count.set(self.row_count.get());
        caller.non_transactional_written.set(self.non_transactional_written.get());
        self.txn.take().ok_or_else(|| SqlError::internal("a stored function's session lost its transaction"))
    }

    /// Merges what the stored functions of a statement wrote into the
    /// session's transaction once the statement (`result`) succeeded, or
    /// drops it when it failed. A fork taken without a transaction becomes
    /// the session's, committed at once in autocommit mode unless it is
    /// part of an enclosing statement.
    pub(crate) fn settle_function_writes<T>(&mut self, result: SqlResult<T>) -> SqlResult<T> {
        let Some(fork) = self.function_txn.take() else { return result };
        if result.is_err() {
            if self.txn.as_ref().map(|t| t.id) != Some(fork.id) {
                self.engine.locks.release_all(fork.id);
            }
            return result;
        }
        match self.txn.as_mut() {
            Some(txn) => txn.absorb(fork)?,
            None => {
                self.txn = Some(fork);
                if self.autocommit() && !self.in_function && self.trigger_tables.is_empty() {
                    self.commit_txn()?;
                }
            }
        }
        result
    }

    /// Lets the next statement end with a commit it does not wait for:
    /// `ack` is told the outcome instead, and the connection thread is not
    /// put to sleep and woken once per commit. Only for a command whose
    /// whole answer is that statement's OK: nothing may run between the
    /// commit and its acknowledgement.
    pub fn offer_commit_ack(&mut self, ack: Arc<dyn CommitAck>) {
        self.commit_ack = Some(ack);
    }

    /// Whether the last statement handed its commit off; withdraws the offer.
    pub fn take_commit_handed_off(&mut self) -> bool {
        self.commit_ack = None;
        std::mem::take(&mut self.commit_handed_off)
    }

    /// A client that announced CLIENT_INTERACTIVE (the `mariadb` command
    /// line) may idle for `interactive_timeout`, not `wait_timeout`: the
    /// session's `wait_timeout` starts from it, as in MariaDB.
    pub fn start_interactive(&mut self) {
        if let Some(timeout) = self.engine.vars.get("interactive_timeout") {
            self.session_vars.insert("wait_timeout", timeout);
        }
    }

    /// After authentication: the account this session acts as.
    pub fn log_in(&mut self, account: &crate::accounts::Account) {
        self.account = Some(account.name.clone());
        self.password_expired = account.password_expired;
        // The default role, if it is still a role granted to the account.
        let default_role = &account.default_role;
        let enabled = account.role_grant(default_role).is_some()
            && self.engine.catalog.read().accounts.role(default_role).is_some();
        self.enable_role(enabled.then(|| default_role.clone()));
    }

    /// Enables a role (or none) and drops the privileges loaded without it.
    pub(crate) fn enable_role(&mut self, role: Option<String>) {
        self.current_role = role;
        self.privilege_cache = Default::default();
    }

    /// COM_RESET_CONNECTION: roll back and forget session state.
    pub fn reset(&mut self) {
        self.rollback_txn();
        self.unlock_tables();
        self.session_vars = self.engine.vars.session_copy();
        self.user_vars.borrow_mut().clear();
        self.empty_diagnostics();
        self.last_insert_id.set(0);
    }

    pub fn use_database(&mut self, name: &str) -> SqlResult<()> {
        // COM_INIT_DB and the handshake's database come here without a
        // statement to check.
        self.check_privileges(&Statement::Use(name.to_string()))?;
        if !is_system_db(name) && !self.engine.catalog.read().has_database(name) {
            return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{name}'")));
        }
        self.db = Some(name.to_string());
        self.process.lock().db = self.db.clone();
        self.set_database_collation();
        Ok(())
    }

    /// character_set_database / collation_database: the current
    /// database's, or the server's when there is none (MariaDB sets them
    /// on USE and when the current database is altered or dropped).
    pub(crate) fn set_database_collation(&mut self) {
        let collation = match &self.db {
            Some(db) if is_system_db(db) => Collation::Utf8mb3GeneralCi,
            Some(db) => {
                self.engine.catalog.read().database(db).map_or_else(|| self.collation_server(), |d| d.collation)
            }
            None => self.collation_server(),
        };
        for (name, value) in
            [("collation_database", collation.name()), ("character_set_database", collation.charset().name())]
        {
            if let Some(def) = vars::lookup(name) {
                self.session_vars.insert(def.name, value.to_string());
            }
        }
    }

    /// `collation_server`: what a database created without a collation
    /// takes.
    pub fn collation_server(&self) -> Collation {
        Collation::named(self.session_value("collation_server")).unwrap_or_default()
    }

    /// What this session plans DDL in, with `db` as the current database.
    pub(crate) fn ddl_context<'a>(&self, db: &'a str) -> crate::ddl::DdlContext<'a> {
        crate::ddl::DdlContext {
            db,
            strict: self.strict(),
            collation_server: self.collation_server(),
            foreign_key_checks: crate::foreign_key::session_checks(self),
        }
    }

    /// The QUERY event this session logs `sql` in: with its server
    /// collation, which a replay of CREATE DATABASE needs.
    pub(crate) fn query_event<'a>(&self, db: &'a str, sql: &'a str) -> onelog_binlog::event::QueryEvent<'a> {
        let mut event = onelog_binlog::event::QueryEvent::new(self.connection_id as u32, db, sql);
        event.collation_server = self.collation_server().id();
        if !crate::foreign_key::session_checks(self) {
            event.flags2 |= onelog_binlog::event::query_flags2::NO_FOREIGN_KEY_CHECKS;
        }
        event
    }

    /// The value the session sees: its own for a variable with a session
    /// scope, the global one for a global-only variable.
    pub fn var(&self, name: &str) -> Option<String> {
        let def = vars::lookup(name)?;
        match def.scope {
            vars::Scope::Global => self.engine.vars.get(def.name),
            _ => Some(self.session_value(def.name).to_string()),
        }
    }

    /// The session's value of a variable with a session scope, by its
    /// canonical name; borrowed, as several are read on every statement.
    pub fn session_value(&self, name: &'static str) -> &str {
        match self.session_vars.get(name) {
            Some(v) => v,
            None => vars::lookup(name).map_or("", |d| d.default),
        }
    }

    /// The charset statement text arrives in (`character_set_client`).
    pub fn client_charset(&self) -> Charset {
        Charset::named(self.session_value("character_set_client")).unwrap_or(Charset::Utf8mb4)
    }

    /// The charset result text is sent in (`character_set_results`); `None`
    /// (NULL, binary) sends text as it is.
    pub fn results_charset(&self) -> Option<Charset> {
        Charset::named(self.session_value("character_set_results")).filter(|c| *c != Charset::Binary)
    }

    /// SET NAMES, or the collation a client asked for in its handshake:
    /// the client, connection and results charsets and the connection's
    /// collation.
    pub fn set_names(&mut self, collation: Collation) {
        let charset = collation.charset().name().to_string();
        for name in ["character_set_client", "character_set_connection", "character_set_results"] {
            if let Some(def) = vars::lookup(name) {
                self.session_vars.insert(def.name, charset.clone());
            }
        }
        if let Some(def) = vars::lookup("collation_connection") {
            self.session_vars.insert(def.name, collation.name().to_string());
        }
    }

    pub fn autocommit(&self) -> bool {
        self.session_value("autocommit") == "1"
    }

    /// `sql_safe_updates`: UPDATE and DELETE must find their rows by a key
    /// or have a LIMIT (1175).
    pub fn safe_updates(&self) -> bool {
        self.session_flag("sql_safe_updates")
    }

    /// Whether the boolean session variable `name` is on.
    pub(crate) fn session_flag(&self, name: &'static str) -> bool {
        let value = self.session_value(name);
        value == "1" || value.eq_ignore_ascii_case("ON")
    }

    /// Strict mode for the value being stored: STRICT_ALL_TABLES, or
    /// STRICT_TRANS_TABLES until the statement wrote a row it cannot undo
    /// (see `non_transactional_written`).
    pub fn strict(&self) -> bool {
        let undoable = !self.non_transactional_written.get();
        self.with_sql_mode(|mode| {
            mode.split(',').any(|f| f == "STRICT_ALL_TABLES" || (f == "STRICT_TRANS_TABLES" && undoable))
        })
    }

    /// Whether the sql_mode in force has `flag`.
    pub fn sql_mode_has(&self, flag: &str) -> bool {
        self.with_sql_mode(|mode| mode.split(',').any(|f| f == flag))
    }

    /// `read` applied to the sql_mode in force: the running routine's, else
    /// the session's.
    fn with_sql_mode<R>(&self, read: impl FnOnce(&str) -> R) -> R {
        match self.routine_sql_modes.borrow().last() {
            Some(mode) => read(mode),
            None => read(self.session_value("sql_mode")),
        }
    }

    /// Runs the body of a routine or trigger created under `sql_mode` from
    /// here to the matching `leave_routine_sql_mode`.
    pub(crate) fn enter_routine_sql_mode(&self, sql_mode: &str) {
        self.routine_sql_modes.borrow_mut().push(sql_mode.to_string());
    }

    pub(crate) fn leave_routine_sql_mode(&self) {
        self.routine_sql_modes.borrow_mut().pop();
    }

    pub fn in_transaction(&self) -> bool {
        self.txn.as_ref().is_some_and(|t| t.explicit)
    }

    /// A transaction is open, explicit or not: it may hold row locks.
    pub fn has_transaction(&self) -> bool {
        self.txn.is_some()
    }

    /// Adds `n` to a SHOW STATUS counter, the session's and the server's.
    pub(crate) fn count(&self, counter: StatusCounter, n: u64) {
        let i = counter as usize;
        self.status_counts[i].set(self.status_counts[i].get() + n);
        self.engine.status_counts[i].fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// A SHOW STATUS counter: this session's count, or with `global` every
    /// session's.
    pub(crate) fn status_count(&self, counter: StatusCounter, global: bool) -> u64 {
        let i = counter as usize;
        match global {
            true => self.engine.status_counts[i].load(std::sync::atomic::Ordering::Relaxed),
            false => self.status_counts[i].get(),
        }
    }

    /// The running statement's own conditions, for its answer.
    pub fn warning_count(&self) -> u16 {
        self.statement_conditions.get().min(u64::from(u16::MAX)) as u16
    }

    /// Every warning and note of the statement, shown or not.
    fn warnings_total(&self) -> u64 {
        self.warnings.borrow().len() as u64 + self.warnings_dropped.get()
    }

    /// The Error conditions of the diagnostics area (@@error_count).
    fn errors_total(&self) -> u64 {
        self.warnings.borrow().iter().filter(|w| w.level == "Error").count() as u64
    }

    /// The statement's time as NOW() sees it (µs since the epoch): the
    /// session's `timestamp` when one is set (`SET timestamp = …`, as
    /// mariadb-binlog output replays), else when the statement started.
    fn statement_time_us(&self) -> i64 {
        let fixed_s: f64 = self.session_value("timestamp").parse().unwrap_or(0.0);
        if fixed_s > 0.0 {
            (fixed_s * 1e6).round() as i64
        } else if self.statement_start_us > 0 {
            self.statement_start_us
        } else {
            crate::eval::temporal::now_unix_micros()
        }
    }

    /// Starts a statement's diagnostics as MariaDB does: a statement that
    /// uses a table empties the area; one that uses none leaves the previous
    /// statement's conditions until it raises one (so `SELECT 1` between a
    /// warning and SHOW WARNINGS keeps the warning); SHOW WARNINGS and GET
    /// DIAGNOSTICS read the area and add to it.
    fn begin_diagnostics(&self, stmt: &Statement) {
        self.statement_conditions.set(0);
        self.warning_row.set(1);
        self.non_transactional_written.set(false);
        let reads_diagnostics = matches!(stmt, Statement::Show { what: Show::Warnings | Show::Errors, .. })
            || matches!(stmt, Statement::Compound(block) if block.reads_diagnostics);
        self.diagnostics_claimed.set(reads_diagnostics);
        if stmt_uses_table(stmt) {
            self.claim_diagnostics();
        }
    }

    /// A procedure's statement that uses a table starts the diagnostics
    /// area afresh, as each of MariaDB's routine instructions does (a
    /// trigger's statements are part of the firing one and do not).
    pub(crate) fn begin_routine_statement(&self, stmt: &Statement) {
        if stmt_uses_table(stmt) {
            self.diagnostics_claimed.set(true);
            self.empty_diagnostics();
            self.statement_conditions.set(0);
        }
    }

    /// Makes the diagnostics area the running statement's, emptying it of
    /// the previous statement's conditions the first time.
    pub(crate) fn claim_diagnostics(&self) {
        if !self.diagnostics_claimed.replace(true) {
            self.empty_diagnostics();
        }
    }

    /// Drops every condition, kept or only counted.
    fn empty_diagnostics(&self) {
        self.warnings.borrow_mut().clear();
        self.warnings_dropped.set(0);
    }

    /// Where the statement's warnings stand, kept and only counted, for
    /// [`Session::rewind_warnings`].
    pub(crate) fn warnings_mark(&self) -> WarningsMark {
        WarningsMark {
            kept: self.warnings.borrow().len(),
            dropped: self.warnings_dropped.get(),
            raised: self.statement_conditions.get(),
            claimed: self.diagnostics_claimed.get(),
        }
    }

    /// Takes back the warnings raised since `mark`: work that is undone
    /// and run again warns again. (Where the first of them emptied the
    /// area of the previous statement's conditions, those stay gone.)
    pub(crate) fn rewind_warnings(&self, mark: WarningsMark) {
        let emptied_since = !mark.claimed && self.diagnostics_claimed.get();
        let (kept, dropped) = if emptied_since { (0, 0) } else { (mark.kept, mark.dropped) };
        self.warnings.borrow_mut().truncate(kept);
        self.warnings_dropped.set(dropped);
        self.statement_conditions.set(mark.raised);
    }

    /// Keeps a condition for SHOW WARNINGS, up to MAX_WARNINGS (MariaDB's
    /// default max_error_count); past that it is only counted.
    pub(crate) fn push_warning(&self, warning: Warning) {
        self.claim_diagnostics();
        self.statement_conditions.set(self.statement_conditions.get() + 1);
        let mut w = self.warnings.borrow_mut();
        if w.len() < MAX_WARNINGS {
            w.push(warning);
        } else {
            self.warnings_dropped.set(self.warnings_dropped.get() + 1);
        }
    }

    /// The error that ended a statement joins its conditions, for SHOW
    /// WARNINGS / SHOW ERRORS, @@error_count and GET DIAGNOSTICS.
    fn record_error(&self, error: &SqlError) {
        self.push_warning(Warning::from_error("Error", error));
    }

    /// The diagnostics area's conditions, in order.
    pub(crate) fn conditions(&self) -> std::cell::Ref<'_, Vec<Warning>> {
        self.warnings.borrow()
    }

    pub fn current_db(&self) -> SqlResult<&str> {
        self.db.as_deref().ok_or_else(|| SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected"))
    }

    pub(crate) fn resolve_db<'a>(&'a self, name: &'a ObjectName) -> SqlResult<&'a str> {
        match &name.db {
            Some(db) => Ok(db),
            None => self.current_db(),
        }
    }

    fn isolation(&self) -> IsolationLevel {
        IsolationLevel::from_name(self.session_value("transaction_isolation")).unwrap_or(IsolationLevel::RepeatableRead)
    }

    /// The open transaction, starting an implicit one if needed.
    pub(crate) fn txn(&mut self) -> &mut Txn {
        if self.txn.is_none() {
            let isolation = self.next_isolation.take().unwrap_or_else(|| self.isolation());
            let read_only = self.next_read_only.take().unwrap_or(false);
            let explicit = !self.autocommit();
            let txn = Txn::new(self.engine.next_txn_id(), isolation, read_only, explicit);
            self.txn = Some(txn.with_temp_rows(self.temp.rows()));
        }
        match self.txn.as_mut() {
            Some(t) => t,
            None => unreachable!("transaction was just created"),
        }
    }

    /// Moves the open transaction's temporary-table writes to the
    /// session's temporary rows: their part of the commit, which never
    /// reaches the binlog (see `temp`).
    fn commit_temp_writes(&mut self) {
        if let Some(txn) = self.txn.as_mut() {
            self.temp.apply(txn.take_temp_writes());
        }
    }

    /// Commits the open transaction through the binlog.
    pub fn commit_txn(&mut self) -> SqlResult<()> {
        self.commit_temp_writes();
        let Some(txn) = self.txn.take() else { return Ok(()) };
        let id = txn.id;
        let result = if txn.has_writes() {
            let (events, mutations) = self.commit_parts(txn);
            self.engine.commit(events, mutations).map(|_| ())
        } else {
            Ok(())
        };
        self.engine.release_txn_locks(id, self.connection_id);
        result
    }

    /// Commits as the statement's last step: hands the commit off when the
    /// connection offered to deliver its acknowledgement, else waits.
    fn commit_txn_last(&mut self) -> SqlResult<()> {
        self.commit_temp_writes();
        let Some(ack) = self.commit_ack.take() else { return self.commit_txn() };
        let Some(txn) = self.txn.take_if(|t| t.has_writes()) else { return self.commit_txn() };
        let id = txn.id;
        let (events, mutations) = self.commit_parts(txn);
        let engine = self.engine.clone();
        let connection_id = self.connection_id;
        self.engine.commit_then(
            events,
            mutations,
            Box::new(move |outcome| {
                // Before the answer: the connection runs nothing further
                // until it has left, so its next statement's locks are not
                // released here.
                engine.release_txn_locks(id, connection_id);
                engine.mdl.release_write_intent(connection_id);
                ack.committed(outcome.map(|_| ()));
            }),
        );
        self.commit_handed_off = true;
        Ok(())
    }

    /// Counts a transaction that ends in the binlog cache counters.
    fn count_binlog_cache(&self, txn: &Txn) {
        let (used, spilled) = txn.binlog_cache_use();
        if used {
            self.count(StatusCounter::BinlogCacheUse, 1);
        }
        if spilled {
            self.count(StatusCounter::BinlogCacheDiskUse, 1);
        }
    }

    fn commit_parts(&self, txn: Txn) -> (TxnEvents, Vec<onelog_storage::Mutation>) {
        self.count_binlog_cache(&txn);
        let (mutations, cache) = txn.into_commit_parts();
        let (spilled, events) = cache.into_parts();
        (
            TxnEvents {
                spilled,
                events,
                kind: onelog_binlog::event::GroupKind::Transaction,
                thread_id: self.connection_id as u32,
            },
            mutations,
        )
    }

    pub fn rollback_txn(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.count_binlog_cache(&txn);
            self.engine.release_txn_locks(txn.id, self.connection_id);
        }
    }

    /// Executes every statement of a COM_QUERY; stops at the first error.
    pub fn execute_query(&mut self, sql: &str) -> Vec<SqlResult<QueryResult>> {
        self.execute_client_query(sql, true, None)
    }

    /// [`Session::execute_query`] as a client asked for it: without
    /// CLIENT_MULTI_STATEMENTS (`multi_statements` false) a query of several
    /// statements is a syntax error, as in MariaDB. Through `client` (`None`:
    /// a query no client waits on) a LOAD DATA LOCAL reads the client's file
    /// and a query that is one SELECT sends its rows as they come, where
    /// `stream` can (its answer is then [`QueryResult::Streamed`]). A query
    /// of several statements answers once all have run: its results are not
    /// streamed.
    pub fn execute_client_query(
        &mut self,
        sql: &str,
        multi_statements: bool,
        mut client: Option<&mut dyn QueryClient>,
    ) -> Vec<SqlResult<QueryResult>> {
        let statements = match crate::parse::parse(sql) {
            Ok(s) if s.len() > 1 && !multi_statements => Err(SqlError::parse(sql, 1)),
            parsed => parsed,
        };
        let statements = match statements {
            Ok(s) => s,
            Err(e) => {
                // A statement that could not be read is one that failed.
                self.begin_diagnostics(&Statement::Empty);
                self.record_error(&e);
                return vec![Err(e)];
            }
        };
        // Later statements must see the first one's commit.
        let lone = statements.len() == 1;
        if !lone {
            self.commit_ack = None;
        }
        let mut results = Vec::with_capacity(statements.len());
        for parsed in statements {
            let client = client.as_mut().map(|c| &mut **c as &mut dyn QueryClient);
            let result = self.execute_for(&parsed.statement, &parsed.text, client, lone);
            results.extend(self.call_results.drain(..).map(Ok));
            let failed = result.is_err();
            results.push(result);
            if failed {
                break;
            }
        }
        results
    }

    /// One statement of a client's query (see
    /// [`Session::execute_client_query`]); `lone`: the query's only one.
    fn execute_for(
        &mut self,
        stmt: &Statement,
        text: &str,
        client: Option<&mut dyn QueryClient>,
        lone: bool,
    ) -> SqlResult<QueryResult> {
        let Some(client) = client else { return self.execute(stmt, text, &[]) };
        match stmt.statement_vars().2 {
            Statement::LoadData(load) if load.local => match client.files() {
                Some(files) => self.execute_load_local(stmt, text, load, files),
                None => self.execute(stmt, text, &[]),
            },
            Statement::Select(select) if lone && select.into.is_none() => {
                self.execute_framed(stmt, text, &[], |s, stmt, _| {
                    s.check_and_lock(stmt)?;
                    // Its answer is on its way before it ends: no commit of a
                    // function it calls may answer for it.
                    s.commit_ack = None;
                    s.select_counting_found_rows(select, &[], Some(client.rows()))
                })
            }
            _ => self.execute(stmt, text, &[]),
        }
    }

    /// Executes one statement with bound parameters.
    pub fn execute(&mut self, stmt: &Statement, text: &str, params: &[Value]) -> SqlResult<QueryResult> {
        self.execute_framed(stmt, text, params, |s, stmt, params| s.run_statement_body(stmt, text, params))
    }

    /// LOAD DATA LOCAL, which reads the file the client sends.
    fn execute_load_local(
        &mut self,
        stmt: &Statement,
        text: &str,
        load: &LoadData,
        files: &mut dyn crate::load_data::ClientFiles,
    ) -> SqlResult<QueryResult> {
        self.execute_framed(stmt, text, &[], |s, stmt, _| {
            s.check_and_lock(stmt)?;
            s.run_write_with(|s| crate::load_data::execute(s, load, Some(files)))
        })
    }

    /// What every statement does around `body`: warnings, PROCESSLIST,
    /// the variables of a `SET STATEMENT ... FOR` (its guard's time limit
    /// among them), its guard, its metadata locks' release. `body` runs the
    /// statement itself, without SET STATEMENT, with its parameters.
    fn execute_framed(
        &mut self,
        stmt: &Statement,
        text: &str,
        params: &[Value],
        body: impl FnOnce(&mut Session, &Statement, &[Value]) -> SqlResult<QueryResult>,
    ) -> SqlResult<QueryResult> {
        let (assignments, var_params, stmt) = stmt.statement_vars();
        self.begin_diagnostics(stmt);
        self.statement_start_us = crate::eval::temporal::now_unix_micros();
        self.ignoring_errors = stmt.ignores_errors();
        self.set_process_info(Some(text));
        // Only a COM_QUERY sends a CALL's result sets (see `execute_query`).
        self.call_results.clear();
        let (var_params, params) = params.split_at(var_params.min(params.len()));
        let result = self.with_statement_vars(assignments, var_params, |s| {
            s.guard = StatementGuard::start(&s.kill, s.time_limit(stmt));
            s.stmt_view = None;
            let result = crate::routine::as_statement(Some(stmt), || body(s, stmt, params));
            s.stmt_view = None;
            result
        });
        // A handed-off commit releases them once it is published.
        if !self.commit_handed_off {
            if self.txn.is_none() {
                self.engine.mdl.release_all(self.connection_id);
            }
            self.engine.mdl.release_write_intent(self.connection_id);
        }
        self.set_process_info(None);
        match &result {
            Ok(QueryResult::Ok { affected_rows, .. }) => self.row_count.set(*affected_rows as i64),
            Ok(QueryResult::Rows { .. } | QueryResult::Streamed { .. }) => self.row_count.set(-1),
            Err(e) => {
                self.row_count.set(-1);
                if e.code == ErrorCode::LOCK_DEADLOCK {
                    self.rollback_txn();
                }
                self.record_error(e);
            }
        }
        result
    }

    /// Takes the statement's locks and runs it; EXECUTE runs its prepared
    /// statement through here as well.
    pub(crate) fn run_statement_body(
        &mut self,
        stmt: &Statement,
        text: &str,
        params: &[Value],
    ) -> SqlResult<QueryResult> {
        if self.in_function || !self.trigger_tables.is_empty() {
            // What a procedure a function or trigger calls may not run either.
            if crate::parse::routine::is_dynamic_sql(stmt) {
                return Err(crate::parse::routine::dynamic_sql_error());
            }
            if crate::parse::routine::commits(stmt) {
                return Err(crate::parse::routine::commit_in_function_error());
            }
        }
        self.check_and_lock(stmt)?;
        // A routine's SELECT ... INTO keeps the mode of what runs it (see
        // `routine::Interp::sql`); each statement gives the outer mode back.
        let outer = self.abort_on_warning.get();
        let aborts = match stmt {
            _ if stmt.stores_rows() => self.strict() && !stmt.ignores_errors(),
            Statement::Select(_) => outer,
            _ => false,
        };
        self.abort_on_warning.set(aborts);
        let result = crate::routine::as_statement(Some(stmt), || self.dispatch(stmt, text, params));
        self.abort_on_warning.set(outer);
        // What a function called from an expression of SET, CALL's
        // arguments and the like wrote.
        self.settle_function_writes(result)
    }

    /// Division by zero: nothing without ERROR_FOR_DIVISION_BY_ZERO in the
    /// sql_mode, else a warning, or an error where warnings abort.
    pub(crate) fn division_by_zero(&self) -> SqlResult<()> {
        if !self.sql_mode_has("ERROR_FOR_DIVISION_BY_ZERO") {
            return Ok(());
        }
        self.warning_or_error(ErrorCode::DIVISION_BY_ZERO, "Division by 0")
    }

    /// A warning, or the error it becomes where warnings abort the statement.
    pub(crate) fn warning_or_error(&self, code: ErrorCode, message: &str) -> SqlResult<()> {
        if self.abort_on_warning.get() {
            return Err(SqlError::new(code, message));
        }
        self.warn(code.number, message.to_string());
        Ok(())
    }

    /// What every statement passes before it runs: its privileges, then
    /// its locks.
    fn check_and_lock(&mut self, stmt: &Statement) -> SqlResult<()> {
        self.check_privileges(stmt)?;
        self.lock_statement(stmt)
    }

    fn lock_statement(&mut self, stmt: &Statement) -> SqlResult<()> {
        self.lock_write_intent(stmt)?;
        self.lock_statement_tables(stmt)
    }

    /// The shortest time limit `stmt` runs under: `max_statement_time`
    /// for any statement, `max_execution_time` for a SELECT.
    fn time_limit(&self, stmt: &Statement) -> Option<(Duration, TimeLimit)> {
        let statement_s: f64 = self.session_value("max_statement_time").parse().unwrap_or(0.0);
        let statement =
            (statement_s > 0.0).then(|| (Duration::from_secs_f64(statement_s), TimeLimit::MaxStatementTime));
        let select_ms: u64 = match stmt {
            Statement::Select(_) => self.session_value("max_execution_time").parse().unwrap_or(0),
            _ => 0,
        };
        let select = (select_ms > 0).then(|| (Duration::from_millis(select_ms), TimeLimit::MaxExecutionTime));
        match (statement, select) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        }
    }

    /// What may end the running statement early (KILL, time limits).
    /// Where temporary files go: `tmpdir`, else the system's.
    pub fn tmpdir(&self) -> std::path::PathBuf {
        self.engine
            .vars
            .get("tmpdir")
            .filter(|d| !d.is_empty())
            .map_or_else(std::env::temp_dir, std::path::PathBuf::from)
    }

    pub fn guard(&self) -> &StatementGuard {
        &self.guard
    }

    /// What SHOW PROCESSLIST shows this connection doing outside
    /// statements (a replica's "Binlog Dump").
    pub fn set_process_command(&self, command: &str) {
        self.process.lock().command = command.to_string();
    }

    fn set_process_info(&self, info: Option<&str>) {
        let mut p = self.process.lock();
        p.info = info.map(|s| s.chars().take(100).collect());
        p.command = if info.is_some() { "Query" } else { "Sleep" }.into();
        p.state = "";
        p.started = Instant::now();
    }

    /// An INSERT (or LOAD DATA) generated AUTO_INCREMENT value `id`:
    /// what LAST_INSERT_ID() returns from now on.
    pub(crate) fn generated_insert_id(&self, id: u64) {
        self.last_insert_id.set(id);
        self.auto_is_null_pending.set(true);
    }

    /// `sql_auto_is_null`'s substitution, once per generated value: the
    /// value `auto_increment_column IS NULL` is to find, if it is due.
    pub(crate) fn take_auto_is_null_id(&self) -> Option<u64> {
        let due = self.auto_is_null_pending.get() && self.session_flag("sql_auto_is_null");
        let id = self.last_insert_id.get();
        (due && id > 0).then(|| {
            self.auto_is_null_pending.set(false);
            id
        })
    }

    /// Runs a metadata-lock request (see `mdl`) with what it needs from the
    /// session — the `lock_wait_timeout`, the statement's guard, and what
    /// shows `state` in PROCESSLIST while it waits, as MariaDB does.
    pub(crate) fn request_mdl<R>(&self, state: &'static str, request: impl FnOnce(Wait<'_>) -> R) -> R {
        let timeout = Duration::from_secs(self.session_value("lock_wait_timeout").parse().unwrap_or(86_400));
        self.wait_showing(state, timeout, request)
    }

    /// Runs `request`, which may wait up to `timeout`, showing `state` in
    /// PROCESSLIST while it waits.
    fn wait_showing<R>(&self, state: &'static str, timeout: Duration, request: impl FnOnce(Wait<'_>) -> R) -> R {
        let mut waited = false;
        let outcome = request(Wait {
            timeout,
            guard: &self.guard,
            on_wait: &mut || {
                waited = true;
                self.process.lock().state = state;
            },
        });
        if waited {
            self.process.lock().state = "";
        }
        outcome
    }

    /// A statement that writes — or commits writes — holds a write intent
    /// until it ends or its commit is published, so that FLUSH TABLES WITH
    /// READ LOCK can wait for it and hold the next one back (see `mdl`).
    /// The lock's own holder gets error 1223 instead, as in MariaDB.
    fn lock_write_intent(&mut self, stmt: &Statement) -> SqlResult<()> {
        let commits_writes = matches!(stmt, Statement::Commit) && self.txn.as_ref().is_some_and(Txn::has_writes);
        if !stmt.writes() && !commits_writes {
            return Ok(());
        }
        if self.global_read_lock {
            return Err(SqlError::new(
                ErrorCode::CANT_UPDATE_WITH_READLOCK,
                "Can't execute the query because you have a conflicting read lock",
            ));
        }
        let (mdl, owner) = (&self.engine.mdl, self.connection_id);
        self.request_mdl(BACKUP_WAIT, |wait| mdl.lock_write_intent(owner, wait))
    }

    /// FLUSH TABLES WITH READ LOCK: commits the open transaction, as
    /// MariaDB does, then waits for the running writes (see `mdl`).
    fn flush_tables_with_read_lock(&mut self) -> SqlResult<QueryResult> {
        if self.locked_tables.is_some() {
            return Err(locked_tables_forbid());
        }
        self.commit_txn()?;
        let (mdl, owner) = (&self.engine.mdl, self.connection_id);
        self.request_mdl(BACKUP_WAIT, |wait| mdl.lock_global_read(owner, wait))?;
        self.global_read_lock = true;
        Ok(QueryResult::ok(0))
    }

    /// FLUSH SSL: the server reads its certificate and key files again;
    /// connections made from then on use them. Without TLS there is
    /// nothing to reload.
    fn flush_ssl(&mut self) -> SqlResult<QueryResult> {
        self.engine.connections.reload_tls().map_err(|e| SqlError::internal(format!("Failed to refresh SSL: {e}")))?;
        Ok(QueryResult::ok(0))
    }

    fn unlock_tables(&mut self) {
        if std::mem::take(&mut self.global_read_lock) {
            self.engine.mdl.release_global_read(self.connection_id);
        }
        self.release_locked_tables();
    }

    fn release_locked_tables(&mut self) {
        if self.locked_tables.take().is_some() {
            self.engine.mdl.release_table_locks(self.connection_id);
        }
    }

    /// LOCK TABLES: as in MariaDB it commits the open transaction and
    /// releases the session's earlier table locks, then waits for all the
    /// named tables at once (see `mdl`). Tables of the system databases are
    /// read-only views, always readable: nothing to lock.
    fn lock_tables(&mut self, tables: &[(ObjectName, bool)]) -> SqlResult<QueryResult> {
        self.commit_txn()?;
        self.release_locked_tables();
        let mut wanted: Vec<TableUse> = Vec::new();
        // Temporary tables are the session's own: nothing to wait for, but
        // the session is under LOCK TABLES with them all the same.
        let mut temporary: Vec<TableUse> = Vec::new();
        for (name, write) in tables {
            let db = self.resolve_db(name)?;
            if self.temp.table(db, &name.name).is_some() {
                add_table_use(&mut temporary, (db, &name.name), *write);
                continue;
            }
            if is_system_db(db) {
                continue;
            }
            // A view is locked by its name, which is what statements using
            // it name (mariadb-dump locks views with their tables).
            let catalog = self.engine.catalog.read();
            if catalog.view(db, &name.name).is_none() {
                catalog.get_table(db, &name.name)?;
            }
            drop(catalog);
            add_table_use(&mut wanted, (db, &name.name), *write);
        }
        let mut wanted = crate::prelock::with_prelocked(self, wanted);
        let (mdl, owner) = (&self.engine.mdl, self.connection_id);
        self.request_mdl(TABLE_WAIT, |wait| mdl.lock_tables(owner, wanted.clone(), wait))?;
        wanted.extend(temporary);
        self.locked_tables = Some(wanted);
        Ok(QueryResult::ok(0))
    }

    /// The tables `stmt` reads or writes outside the system databases, each
    /// once, marked as written where it is the statement's target.
    pub(crate) fn statement_tables(&self, stmt: &Statement) -> Vec<TableUse> {
        let current = self.db.as_deref();
        // An unqualified name without a current database fails later with
        // "No database selected".
        fn key<'a>(name: &'a ObjectName, current: Option<&'a str>) -> Option<(&'a str, &'a str)> {
            name.db.as_deref().or(current).map(|db| (db, name.name.as_str()))
        }
        let written: Vec<(&str, &str)> =
            stmt.written_tables().into_iter().filter_map(|name| key(name, current)).collect();
        let mut tables: Vec<TableUse> = Vec::new();
        // A temporary table is the session's own: no lock, nothing to wait for.
        stmt.for_each_table(&mut |name| {
            let table = key(name, current).filter(|(db, t)| !is_system_db(db) && self.temp.table(db, t).is_none());
            if let Some(table) = table {
                add_table_use(&mut tables, table, written.contains(&table));
            }
        });
        tables
    }

    /// Under LOCK TABLES a statement may use only the locked tables and
    /// write only those locked WRITE; a DDL may change only tables locked
    /// WRITE, and only the DDL MariaDB allows there (see `locked_ddl_tables`).
    fn check_locked_tables(&self, stmt: &Statement, tables: &[TableUse]) -> SqlResult<()> {
        let Some(locked) = &self.locked_tables else { return Ok(()) };
        if stmt.is_ddl() && !self.is_temporary_ddl(stmt) {
            let Some(changed) = self.locked_ddl_tables(stmt) else { return Err(locked_tables_forbid()) };
            // A view LOCK TABLES holds is no table a DDL may change: MariaDB
            // answers 1100 for it (TRUNCATE of a locked view), as if it were
            // not locked.
            let catalog = self.engine.catalog.read();
            if let Some(((_, view), _)) = changed.iter().find(|((db, t), _)| catalog.view(db, t).is_some()) {
                return Err(table_not_locked(view));
            }
            drop(catalog);
            return check_locked(locked, &changed);
        }
        // The tables of the triggers and stored functions the statement
        // may run must be locked too (see `prelock`).
        check_locked(locked, &crate::prelock::with_prelocked(self, tables.to_vec()))
    }

    /// The tables a DDL allowed under LOCK TABLES changes (each must be
    /// locked WRITE) and reads: `None` for the DDL MariaDB refuses there
    /// with 1192 (RENAME TABLE, views, databases, routines, accounts).
    fn locked_ddl_tables(&self, stmt: &Statement) -> Option<Vec<TableUse>> {
        let current = self.db.as_deref().unwrap_or_default();
        let key = |name: &ObjectName| (name.db.as_deref().unwrap_or(current).to_string(), name.name.clone());
        let written = |names: &mut dyn Iterator<Item = &ObjectName>| names.map(|n| (key(n), true)).collect::<Vec<_>>();
        Some(match stmt {
            Statement::CreateTable(ct) => {
                let mut tables = written(&mut std::iter::once(&ct.name));
                let mut read = |name: &ObjectName| add_table_use(&mut tables, (&key(name).0, &name.name), false);
                match (&ct.like, &ct.select) {
                    (Some(like), _) => read(like),
                    (None, Some(select)) => select.for_each_table(&mut |name| read(name)),
                    (None, None) => {}
                }
                tables
            }
            Statement::DropTable { names, .. } => written(&mut names.iter()),
            Statement::AlterTable { table, .. }
            | Statement::Truncate(table)
            | Statement::CreateIndex { table, .. }
            | Statement::DropIndex { table, .. } => written(&mut std::iter::once(table)),
            Statement::CreateTrigger(create) => written(&mut std::iter::once(&create.table)),
            Statement::DropTrigger { name, .. } => {
                let (db, trigger) = key(name);
                let table = self.engine.catalog.read().trigger(&db, &trigger).map(|t| t.def.table.clone());
                table.map(|table| vec![((db, table), true)]).unwrap_or_default()
            }
            _ => return None,
        })
    }

    /// After a DDL under LOCK TABLES: a dropped table, and a table renamed
    /// by ALTER TABLE ... RENAME, are no longer locked (MariaDB then answers
    /// 1100 for both names); without any locked table left the session is no
    /// longer under LOCK TABLES, as in MariaDB.
    pub(crate) fn forget_locked_tables(&mut self, stmt: &Statement) {
        let Some(locked) = &mut self.locked_tables else { return };
        let current = self.db.as_deref().unwrap_or_default();
        let gone: Vec<&ObjectName> = match stmt {
            Statement::DropTable { names, .. } => names.iter().collect(),
            Statement::AlterTable { table, ops } if ops.iter().any(|op| matches!(op, AlterOp::RenameTable(_))) => {
                vec![table]
            }
            _ => return,
        };
        for name in gone {
            let table = (name.db.as_deref().unwrap_or(current).to_string(), name.name.clone());
            locked.retain(|(t, _)| *t != table);
            self.engine.mdl.release_table_lock(self.connection_id, &table);
        }
        if locked.is_empty() {
            self.release_locked_tables();
        }
    }

    /// Of the tables a DDL changes, those it must lock exclusively: not the
    /// ones its own LOCK TABLES holds WRITE already.
    pub(crate) fn ddl_tables_to_lock(&self, tables: Vec<TableName>) -> Vec<TableName> {
        let Some(locked) = &self.locked_tables else { return tables };
        tables.into_iter().filter(|t| !locked.iter().any(|(l, write)| *write && l == t)).collect()
    }
    /// Takes shared metadata locks on every table `stmt` reads or writes,
    /// before it takes a read view (see `mdl`). They are kept until the
    /// transaction ends — or the statement, outside a transaction. A
    /// repeatable-read view taken earlier in the transaction may predate a
    /// table's definition, whose rows it would misread: a SELECT through it
    /// gets error 1412, as in MariaDB after a DDL that rebuilds the table.
    fn lock_statement_tables(&mut self, stmt: &Statement) -> SqlResult<()> {
        let tables = self.statement_tables(stmt);
        let locked = self.lock_tables_of(stmt, &tables);
        self.statement_tables = tables;
        locked
    }

    fn lock_tables_of(&mut self, stmt: &Statement, tables: &[TableUse]) -> SqlResult<()> {
        self.check_locked_tables(stmt, tables)?;
        if tables.is_empty() {
            return Ok(());
        }
        let (mdl, owner) = (&self.engine.mdl, self.connection_id);
        self.request_mdl(TABLE_WAIT, |wait| mdl.lock_shared(owner, tables, wait))?;
        // Only a SELECT reads through the transaction's view; DML reads the
        // latest committed rows under their locks.
        let Statement::Select(_) = stmt else { return Ok(()) };
        let Some(view_generation) = self.txn.as_ref().and_then(Txn::reused_view_generation) else { return Ok(()) };
        let catalog = self.engine.catalog.read();
        if tables.iter().any(|((db, t), _)| catalog.table(db, t).is_some_and(|e| e.def_generation > view_generation)) {
            return Err(SqlError::new(
                ErrorCode::TABLE_DEF_CHANGED,
                "Table definition has changed, please retry transaction",
            ));
        }
        Ok(())
    }

    fn dispatch(&mut self, stmt: &Statement, text: &str, params: &[Value]) -> SqlResult<QueryResult> {
        match stmt {
            Statement::Select(select) => {
                let result = self.select_counting_found_rows(select, params, None)?;
                match &select.into {
                    Some(into) => crate::select_into::store(self, into, result),
                    None => Ok(result),
                }
            }
            Statement::Do(select) => {
                self.run_read(|s, ctx| s.select_result(ctx, select), false, params)?;
                Ok(QueryResult::ok(0))
            }
            Statement::Account(account) => crate::accounts::run::execute(self, account),
            Statement::Insert(_)
            | Statement::Update(_)
            | Statement::Delete(_)
            | Statement::MultiUpdate(_)
            | Statement::MultiDelete(_) => self.run_write(stmt, params),
            // Only a COM_QUERY reads a LOCAL file (see `execute_client_query`).
            Statement::LoadData(load) => self.run_write_with(|s| crate::load_data::execute(s, load, None)),
            // Nor does CREATE TEMPORARY TABLE.
            Statement::CreateTable(ct) if ct.temporary => {
                let ct = self.with_default_engine(ct);
                crate::temp::create(self, &ct, params)
            }

            Statement::CreateDatabase { .. }
            | Statement::DropDatabase { .. }
            | Statement::CreateTable(_)
            | Statement::DropTable { .. }
            | Statement::CreateIndex { .. }
            | Statement::DropIndex { .. }
            | Statement::AlterTable { .. }
            | Statement::Truncate(_)
            | Statement::CreateView(_)
            | Statement::DropView { .. }
            | Statement::RenameTables(_)
            | Statement::AlterDatabase { .. }
            | Statement::CreateRoutine(_)
            | Statement::DropRoutine { .. }
            | Statement::AlterRoutine { .. }
            | Statement::CreateTrigger(_)
            | Statement::DropTrigger { .. } => {
                // DDL commits the open transaction first, as MySQL does.
                self.commit_txn()?;
                self.run_ddl(stmt, text, params)
            }
            // DROP TEMPORARY TABLE does not end the transaction, as in MariaDB.
            Statement::DropTemporaryTable { names, if_exists } => crate::temp::drop_temporary(self, names, *if_exists),
            Statement::Prepare { name, source } => self.prepare_sql(name, source, params),
            Statement::Execute { name, using } => self.execute_sql(name, using, params),
            Statement::ExecuteImmediate { source, using } => self.execute_immediate(source, using, params),
            Statement::Deallocate(name) => self.deallocate_sql(name),
            Statement::Use(db) => self.use_database(db).map(|_| QueryResult::ok(0)),
            Statement::AlterTableKeys { table, enable } => {
                let db = self.resolve_db(table)?.to_string();
                let table = self.table_entry_in(&db, &table.name)?;
                if let Some(message) = crate::ddl::keys_note(&table.def, *enable) {
                    self.note(1031, message);
                }
                Ok(QueryResult::ok(0))
            }
            Statement::Begin { read_only, consistent_snapshot } => {
                self.commit_txn()?;
                // As in MariaDB, a transaction's start ends LOCK TABLES.
                self.release_locked_tables();
                let isolation = self.next_isolation.take().unwrap_or_else(|| self.isolation());
                let mut txn =
                    Txn::new(self.engine.next_txn_id(), isolation, *read_only, true).with_temp_rows(self.temp.rows());
                // As in InnoDB, only a repeatable-read view outlives its
                // first statement; READ COMMITTED ignores the request.
                if *consistent_snapshot && txn.keeps_view() {
                    let generation = self.engine.catalog.read().generation();
                    let (view, pos) = self.engine.binlog.at_published(|| self.engine.store.snapshot());
                    txn.set_consistent_view(view, generation, pos);
                }
                self.txn = Some(txn);
                Ok(QueryResult::ok(0))
            }
            Statement::Commit => self.commit_txn_last().map(|_| QueryResult::ok(0)),
            Statement::Rollback => {
                self.rollback_txn();
                Ok(QueryResult::ok(0))
            }
            Statement::Savepoint(name) => {
                self.txn().savepoint(name);
                Ok(QueryResult::ok(0))
            }
            Statement::RollbackToSavepoint(name) => self.txn().rollback_to_savepoint(name).map(|_| QueryResult::ok(0)),
            Statement::ReleaseSavepoint(name) => self.txn().release_savepoint(name).map(|_| QueryResult::ok(0)),
            Statement::Set(assignments) => self.set_vars(assignments, params),
            // An EXECUTE's or a routine's (a client's is taken apart in
            // `execute_framed`).
            Statement::SetStatement { assignments, params: var_params, statement } => {
                let (var_params, params) = params.split_at((*var_params).min(params.len()));
                self.with_statement_vars(assignments, var_params, |s| s.run_statement_body(statement, text, params))
            }
            Statement::SetNames { collation } => {
                self.set_names(*collation);
                Ok(QueryResult::ok(0))
            }
            Statement::SetTransaction { scope, isolation, read_only } => {
                self.set_transaction(*scope, *isolation, *read_only)
            }
            Statement::Show { what, filter } => crate::show::execute(self, what, filter.as_ref()),
            Statement::Explain { statement, mode } => {
                self.run_read(|s, ctx| s.explain(ctx, statement, *mode), false, params)
            }
            Statement::Kill { id, query_only } => self.kill(*id, *query_only),
            Statement::FlushTablesWithReadLock => self.flush_tables_with_read_lock(),
            Statement::UnlockTables => {
                // It ends a LOCK TABLES transaction, as in MariaDB.
                if self.locked_tables.is_some() {
                    self.commit_txn()?;
                }
                self.unlock_tables();
                Ok(QueryResult::ok(0))
            }
            Statement::LockTables(tables) => self.lock_tables(tables),
            Statement::TableMaintenance { op, tables } => crate::maintenance::execute(self, *op, tables),
            Statement::ChecksumTable { tables, quick } => crate::checksum::execute(self, tables, *quick),
            Statement::HandlerOpen { table, alias } => crate::handler::open(self, table, alias.as_deref()),
            Statement::HandlerRead { alias, how, filter, limit } => {
                crate::handler::read(self, alias, *how, filter.as_ref(), *limit)
            }
            Statement::HandlerClose(alias) => crate::handler::close(self, alias),
            Statement::Shutdown => {
                self.engine.request_shutdown(self.connection_id);
                Ok(QueryResult::ok(0))
            }
            Statement::FlushBinaryLogs => {
                self.engine.binlog.rotate().map_err(|e| SqlError::internal(e.to_string()))?;
                Ok(QueryResult::ok(0))
            }
            Statement::PurgeBinaryLogsTo(_) | Statement::PurgeBinaryLogsBefore(_) | Statement::ResetMaster => {
                crate::show::binlog_admin(self, stmt)
            }
            Statement::FlushHosts => {
                self.engine.connections.flush_hosts();
                Ok(QueryResult::ok(0))
            }
            Statement::FlushUserResources => {
                self.engine.connections.flush_user_resources();
                Ok(QueryResult::ok(0))
            }
            Statement::FlushSsl => self.flush_ssl(),
            Statement::InstallPlugin { plugin, soname } => {
                crate::accounts::plugins::install(plugin.as_deref(), soname).map(|()| QueryResult::ok(0))
            }
            Statement::FlushOther | Statement::Empty => Ok(QueryResult::ok(0)),
            Statement::ShowCreateRoutine { kind, name } => crate::routine::show_create(self, *kind, name),
            Statement::ShowCreateTrigger(name) => crate::trigger::show_create(self, name),
            Statement::ShowTriggers { db, filter } => {
                crate::trigger::show_triggers(self, db.as_deref(), filter.as_ref())
            }
            Statement::ShowRoutineStatus { kind, filter } => crate::routine::show_status(self, *kind, filter.as_ref()),
            Statement::Compound(compound) => {
                // Its statements commit one by one: none may be handed off.
                self.commit_ack = None;
                crate::routine::run_compound(self, compound)
            }
            Statement::Call { name, args } => {
                // Its statements commit one by one: none may be handed off.
                self.commit_ack = None;
                crate::routine::call(self, name, args, params)
            }
        }
    }

    /// A DDL statement after its implicit commit: on the session's
    /// temporary tables where it names them (see `temp`), else logged.
    /// `params` are a CREATE TABLE ... SELECT's `?` values.
    fn run_ddl(&mut self, stmt: &Statement, text: &str, params: &[Value]) -> SqlResult<QueryResult> {
        match stmt {
            Statement::CreateTable(ct @ CreateTable { select: Some(select), .. }) => {
                let ct = self.with_default_engine(ct);
                crate::create_select::execute(self, &ct, select, params)
            }
            Statement::CreateTable(ct) if ct.engine.is_none() && ct.like.is_none() => {
                let ct = self.with_default_engine(ct);
                // A replay reads a CREATE TABLE without ENGINE= as InnoDB's
                // (the session's default is not in the event): another
                // engine's name is logged with the statement. A line of
                // its own ends a trailing `--` or `#` comment.
                let logged = match ct.engine.as_deref() {
                    Some("InnoDB") | None => text.to_string(),
                    Some(engine) => format!("{}\nENGINE={engine}", text.trim_end()),
                };
                crate::ddl::execute(self, &Statement::CreateTable(ct), &logged)
            }
            Statement::DropTable { names, if_exists } => {
                let rest = crate::temp::drop_shadowing(self, names)?;
                if rest.len() == names.len() {
                    return crate::ddl::execute(self, stmt, text);
                }
                if rest.is_empty() {
                    return Ok(QueryResult::ok(0));
                }
                // As MariaDB: the base tables' DROP is logged without the
                // temporary names.
                let logged = crate::temp::drop_text(self, &rest, *if_exists)?;
                crate::ddl::execute(self, &Statement::DropTable { names: rest, if_exists: *if_exists }, &logged)
            }
            Statement::RenameTables(pairs)
                if pairs.iter().any(|(from, _)| self.temp_table(from).is_ok_and(|t| t.is_some())) =>
            {
                crate::temp::rename(self, pairs)
            }
            Statement::CreateView(view) => match self.reads_temporary(&view.query) {
                Some(name) => Err(SqlError::new(
                    ErrorCode::VIEW_SELECT_TMPTABLE,
                    format!("View's SELECT refers to a temporary table '{name}'"),
                )),
                None => crate::ddl::execute(self, stmt, text),
            },
            Statement::Truncate(name) => match self.temp_table(name)? {
                Some(table) => Ok(crate::temp::truncate(self, &table)),
                None => crate::ddl::execute(self, stmt, text),
            },
            Statement::AlterTable { table, ops } => match self.temp_table(table)? {
                Some(entry) => crate::temp::alter(self, &entry, ops),
                None => crate::ddl::execute(self, stmt, text),
            },
            Statement::CreateIndex { table, .. } | Statement::DropIndex { table, .. } => {
                match self.temp_table(table)? {
                    Some(entry) => match crate::ddl::index_ops(&entry.def, stmt) {
                        crate::ddl::IndexOps::Alter(ops) => crate::temp::alter(self, &entry, &ops),
                        crate::ddl::IndexOps::Nothing(code, message) => {
                            self.note(code, message);
                            Ok(QueryResult::ok(0))
                        }
                    },
                    None => crate::ddl::execute(self, stmt, text),
                }
            }
            _ => crate::ddl::execute(self, stmt, text),
        }
    }

    /// `ct` naming the engine the session's default_storage_engine (for a
    /// temporary table, default_tmp_storage_engine when set) gives, when it
    /// names none.
    fn with_default_engine(&self, ct: &CreateTable) -> CreateTable {
        let temporary_default = self.var("default_tmp_storage_engine").filter(|_| ct.temporary);
        let default = temporary_default.filter(|e| !e.is_empty()).or_else(|| self.var("default_storage_engine"));
        CreateTable { engine: ct.engine.clone().or(default), ..ct.clone() }
    }

    /// Whether `stmt` is DDL on temporary tables only, which LOCK TABLES
    /// allows (as MariaDB does).
    fn is_temporary_ddl(&self, stmt: &Statement) -> bool {
        match stmt {
            Statement::CreateTable(ct) => ct.temporary,
            Statement::DropTable { names, .. } => names.iter().all(|n| self.temp_table(n).is_ok_and(|t| t.is_some())),
            Statement::Truncate(name)
            | Statement::AlterTable { table: name, .. }
            | Statement::CreateIndex { table: name, .. }
            | Statement::DropIndex { table: name, .. } => self.temp_table(name).is_ok_and(|t| t.is_some()),
            _ => false,
        }
    }

    /// The first temporary table of the session `query` reads, if any (a
    /// view may not read one: it would mean another table elsewhere).
    fn reads_temporary(&self, query: &Select) -> Option<String> {
        let mut found = None;
        query.for_each_table(&mut |name| {
            if found.is_none() && self.temp_table(name).is_ok_and(|t| t.is_some()) {
                found = Some(name.name.clone());
            }
        });
        found
    }

    /// The session's temporary table `name`, if it has one.
    pub(crate) fn temp_table(&self, name: &ObjectName) -> SqlResult<Option<Arc<crate::catalog::TableEntry>>> {
        let db = self.resolve_db(name)?;
        Ok(self.temp.table(db, &name.name))
    }

    /// The table `db.name` as this session sees it: its temporary table of
    /// that name if it has one (which shadows a base table), else the base
    /// table.
    pub(crate) fn table_entry_in(&self, db: &str, name: &str) -> SqlResult<Arc<crate::catalog::TableEntry>> {
        let table = match self.temp.table(db, name) {
            Some(t) => Ok(t),
            None => self.engine.catalog.read().get_table(db, name),
        };
        // What reads a SEQUENCE table resolves it before this; what gets
        // here would write, lock or alter it, which its engine cannot do.
        match table {
            Err(e) if e.code == ErrorCode::NO_SUCH_TABLE && Sequence::parse(name).is_some() => Err(SqlError::new(
                ErrorCode::ILLEGAL_HA,
                format!("Storage engine SEQUENCE of the table `{db}`.`{name}` doesn't have this option"),
            )),
            table => table,
        }
    }

    /// The SEQUENCE table `db.name` (see `crate::sequence`): its definition
    /// and numbers, when `name` is a sequence's and no table of that name
    /// (temporary or not) shadows it.
    pub(crate) fn sequence_table(&self, db: &str, name: &str) -> SqlResult<Option<(TableDef, Sequence)>> {
        let Some(sequence) = Sequence::parse(name) else { return Ok(None) };
        let catalog = self.engine.catalog.read();
        if self.temp.table(db, name).is_some() || catalog.table(db, name).is_some() || catalog.view(db, name).is_some()
        {
            return Ok(None);
        }
        let collation = catalog.database(db).map_or_else(|| self.collation_server(), |d| d.collation);
        Ok(Some((Sequence::def(db, name, collation)?, sequence)))
    }

    /// [`Session::table_entry_in`] of a name the statement gave.
    pub(crate) fn table_entry(&self, name: &ObjectName) -> SqlResult<Arc<crate::catalog::TableEntry>> {
        self.table_entry_in(self.resolve_db(name)?, &name.name)
    }

    fn kill(&mut self, id: u64, query_only: bool) -> SqlResult<QueryResult> {
        let target = self.engine.processes.entries.lock().get(&id).cloned();
        // Another user's thread takes CONNECTION ADMIN (or SUPER).
        let owner = target.as_ref().map(|p| p.lock().user.clone());
        if owner.is_some_and(|o| o != self.user) && !self.has_global(privs::CONNECTION_ADMIN | privs::SUPER) {
            return Err(SqlError::new(ErrorCode::KILL_DENIED, format!("You are not owner of thread {id}")));
        }
        match target {
            Some(p) => {
                if id == self.connection_id && query_only {
                    // The query it interrupts is the KILL itself, as in
                    // MariaDB.
                    return Err(SqlError::new(ErrorCode::QUERY_INTERRUPTED, "Query execution was interrupted"));
                }
                let interrupt = {
                    let p = p.lock();
                    if query_only {
                        p.kill.kill_query();
                        None
                    } else {
                        p.kill.kill_connection();
                        p.interrupt.clone()
                    }
                };
                if id == self.connection_id && !query_only {
                    // Its own KILL: the answer says so, then the
                    // connection ends (see the server's command loop).
                    return Err(SqlError::new(ErrorCode::CONNECTION_KILLED, "Connection was killed"));
                }
                if let Some(Interrupt(wake)) = interrupt {
                    wake();
                }
                Ok(QueryResult::ok(0))
            }
            None => Err(SqlError::new(ErrorCode::NO_SUCH_THREAD, format!("Unknown thread id: {id}"))),
        }
    }

    /// Lets KILL wake this connection's thread (see [`Interrupt`]).
    pub fn set_interrupt(&self, interrupt: Interrupt) {
        self.process.lock().interrupt = Some(interrupt);
    }

    /// True once another session asked KILL for this connection.
    pub fn kill_requested(&self) -> bool {
        self.kill.connection_killed()
    }

    fn set_transaction(
        &mut self,
        scope: VarScope,
        isolation: Option<IsolationLevel>,
        read_only: Option<bool>,
    ) -> SqlResult<QueryResult> {
        match scope {
            VarScope::Default => {
                if self.in_transaction() {
                    return Err(SqlError::new(
                        ErrorCode::UNKNOWN_ERROR,
                        "Transaction characteristics can't be changed while a transaction is in progress",
                    ));
                }
                self.next_isolation = isolation;
                self.next_read_only = read_only;
            }
            VarScope::Session | VarScope::Global => {
                if let Some(level) = isolation {
                    for name in ["transaction_isolation", "tx_isolation"] {
                        let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
                        self.store_var(def, scope, level.name().to_string());
                    }
                }
                if let Some(ro) = read_only {
                    for name in ["transaction_read_only", "tx_read_only"] {
                        let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
                        self.store_var(def, scope, if ro { "1" } else { "0" }.into());
                    }
                }
            }
        }
        Ok(QueryResult::ok(0))
    }

    fn store_var(&mut self, def: &'static vars::VarDef, scope: VarScope, text: String) {
        if scope == VarScope::Global {
            self.engine.vars.set(def, text);
            return;
        }
        // A routine's SET sql_mode holds for the rest of its body only.
        if def.name == "sql_mode" {
            if let Some(mode) = self.routine_sql_modes.get_mut().last_mut() {
                *mode = text;
                return;
            }
        }
        self.session_vars.insert(def.name, text);
    }

    /// The value of an expression that reads no table (SET's values,
    /// EXECUTE's USING), with subqueries seeing the session's view.
    pub(crate) fn eval_constant(&self, expr: &Expr, params: &[Value]) -> SqlResult<Value> {
        let view = self.engine.store.snapshot();
        let empty = Txn::new(0, IsolationLevel::RepeatableRead, true, false).with_temp_rows(self.temp.rows());
        let txn = self.txn.as_ref().unwrap_or(&empty);
        crate::select::Ctx::new(self, txn, view, params).eval_constant(expr)
    }

    fn set_vars(&mut self, assignments: &[Assignment], params: &[Value]) -> SqlResult<QueryResult> {
        for a in assignments {
            let value = self.eval_constant(&a.value, params).map_err(crate::select::in_clause("SET"))?;
            match &a.target {
                SetTarget::User(name) => {
                    self.user_vars.borrow_mut().insert(name.clone(), user_var_value(value));
                }
                SetTarget::System { scope, name } => self.set_system_var(*scope, name, &value, &a.value)?,
            }
        }
        Ok(QueryResult::ok(0))
    }

    /// Runs `body` with the session variables of a `SET STATEMENT ... FOR`
    /// set, and puts back the values they had after it, whether it failed
    /// or not. Names are checked before any value, as MariaDB's parser
    /// checks them (1193, 1971).
    fn with_statement_vars(
        &mut self,
        assignments: &[Assignment],
        params: &[Value],
        body: impl FnOnce(&mut Session) -> SqlResult<QueryResult>,
    ) -> SqlResult<QueryResult> {
        if assignments.is_empty() {
            return body(self);
        }
        for a in assignments {
            if let SetTarget::System { name, .. } = &a.target {
                let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
                vars::check_set_statement(def)?;
            }
        }
        let before = StatementVars { session: self.session_vars.clone(), routine_sql_mode: self.routine_sql_mode() };
        let set = self.set_vars(assignments, params);
        // What the assignments changed, and what they name even where the
        // value stayed (a SET of it inside the statement is undone too).
        let mut changed: Vec<&'static str> = assignments
            .iter()
            .filter_map(|a| match &a.target {
                SetTarget::System { name, .. } => vars::lookup(name).map(|d| d.name),
                SetTarget::User(_) => None,
            })
            .collect();
        changed.extend(
            (self.session_vars.iter())
                .filter(|(name, value)| before.session.get(*name) != Some(*value))
                .map(|(name, _)| *name),
        );
        changed.extend(before.session.keys().filter(|name| !self.session_vars.contains_key(*name)));
        let result = set.and_then(|_| body(self));
        for name in changed {
            match before.session.get(name) {
                Some(value) => self.session_vars.insert(name, value.clone()),
                None => self.session_vars.remove(name),
            };
        }
        if let (Some(mode), Some(top)) = (before.routine_sql_mode, self.routine_sql_modes.get_mut().last_mut()) {
            *top = mode;
        }
        result
    }

    /// The sql_mode of the running routine, which its SETs change.
    fn routine_sql_mode(&self) -> Option<String> {
        self.routine_sql_modes.borrow().last().cloned()
    }

    fn set_system_var(&mut self, scope: VarScope, name: &str, value: &Value, expr: &Expr) -> SqlResult<()> {
        let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
        if let Some(deprecation) = def.deprecation {
            // Before any error, as MariaDB warns while parsing.
            self.warn(ErrorCode::WARN_DEPRECATED_SYNTAX.number, deprecation.to_string());
        }
        vars::check_scope(def, scope)?;
        self.engine.vars.check_settable(def)?;
        let text = if matches!(expr, Expr::Default) {
            // A session's DEFAULT is the global value, the global's the
            // compiled-in default.
            match (scope, self.engine.vars.get(def.name)) {
                (VarScope::Global, _) | (_, None) => def.default.to_string(),
                (_, Some(global)) => global,
            }
        } else {
            let strict_all = self.sql_mode_has("STRICT_ALL_TABLES");
            let checked = vars::normalize(def, value, strict_all)?;
            if let Some(w) = checked.warning {
                self.warn(w.code.number, w.message);
            }
            checked.text
        };
        let scope = if scope == VarScope::Default { VarScope::Session } else { scope };
        let charset_settings = vars::charset_settings(def, &text)?;
        if !charset_settings.is_empty() {
            for (name, text) in charset_settings {
                let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
                self.store_var(def, scope, text);
            }
            return Ok(());
        }
        let text = if def.kind == Kind::Flags {
            let current = match scope {
                VarScope::Global => self.engine.vars.get(def.name),
                _ => self.var(def.name),
            };
            vars::merge_flags(def, &current.unwrap_or_else(|| def.default.to_string()), &text)?
        } else {
            text
        };
        match def.name {
            "autocommit" if text == "1" => {
                // Turning autocommit on commits the open transaction.
                self.store_var(def, scope, text);
                return self.commit_txn();
            }
            "default_storage_engine" | "storage_engine" => {
                for alias in ["default_storage_engine", "storage_engine"] {
                    if let Some(d) = vars::lookup(alias) {
                        self.store_var(d, scope, text.clone());
                    }
                }
                return Ok(());
            }
            "transaction_isolation" | "tx_isolation" => {
                for alias in ["transaction_isolation", "tx_isolation"] {
                    if let Some(d) = vars::lookup(alias) {
                        self.store_var(d, scope, text.clone());
                    }
                }
                return Ok(());
            }
            "sync_binlog" => self.engine.binlog.set_sync_binlog(text.parse().unwrap_or(1)),
            "binlog_group_commit_sync_delay" => {
                self.engine.binlog.set_group_commit_sync_delay_us(text.parse().unwrap_or(0))
            }
            "binlog_group_commit_sync_no_delay_count" => {
                self.engine.binlog.set_group_commit_sync_no_delay_count(text.parse().unwrap_or(0))
            }
            "max_binlog_size" => self.engine.binlog.set_max_binlog_size_bytes(text.parse().unwrap_or(1 << 30)),
            "binlog_preallocate_size" => self.engine.binlog.set_preallocate_size_bytes(text.parse().unwrap_or(0)),
            "binlog_sync_method" => {
                let method = crate::config::sync_method(&text).map_err(|m| {
                    SqlError::new(
                        ErrorCode::WRONG_VALUE_FOR_VAR,
                        format!("Variable 'binlog_sync_method' can't be set to the value of '{m}'"),
                    )
                })?;
                self.engine.binlog.set_sync_method(method)
            }
            "innodb_flush_log_at_trx_commit" => {
                // Documented alias: 1 → sync every group, 0/2 → no sync.
                let n = if text == "1" { 1 } else { 0 };
                self.engine.binlog.set_sync_binlog(n);
                if let Some(d) = vars::lookup("sync_binlog") {
                    self.engine.vars.set(d, n.to_string());
                }
            }
            _ => {}
        }
        if def.kind == Kind::Bool && def.name == "autocommit" && text == "0" {
            self.store_var(def, scope, text);
            return Ok(());
        }
        self.store_var(def, scope, text);
        Ok(())
    }

    /// A top-level SELECT, remembering for FOUND_ROWS() how many rows it
    /// found up to where its LIMIT stopped it (OFFSET's included, as
    /// MariaDB counts them), or with SQL_CALC_FOUND_ROWS how many it would
    /// have returned without LIMIT.
    /// With a `sink`, its result set is streamed to it where `stream` can.
    fn select_counting_found_rows(
        &mut self,
        select: &Select,
        params: &[Value],
        mut sink: Option<&mut dyn ResultSink>,
    ) -> SqlResult<QueryResult> {
        let limited = select.limit.is_some() || select.offset.is_some();
        if !(select.calc_found_rows && limited) {
            self.rows_before_limit.set(None);
            let locking = crate::select::requested_lock(select).is_some();
            let result = self.run_read(
                |s, ctx| match sink.as_deref_mut() {
                    // A locking read locks its rows after reading them all.
                    Some(sink) if !locking => crate::stream::select(ctx, select, sink),
                    _ => s.select_result(ctx, select),
                },
                locking,
                params,
            )?;
            match &result {
                QueryResult::Rows { rows, .. } => {
                    self.found_rows = self.rows_before_limit.get().unwrap_or(rows.len() as u64)
                }
                QueryResult::Streamed { found_rows } => self.found_rows = *found_rows,
                QueryResult::Ok { .. } => {}
            }
            return Ok(result);
        }
        let unlimited = Select { limit: None, offset: None, ..select.clone() };
        let found = std::cell::Cell::new(0u64);
        let result = self.run_read(
            |s, ctx| {
                let mut result = s.select_result(ctx, &unlimited)?;
                if let QueryResult::Rows { rows, .. } = &mut result {
                    found.set(rows.len() as u64);
                    crate::select::apply_limit(ctx, select, rows)?;
                }
                Ok(result)
            },
            crate::select::requested_lock(select).is_some(),
            params,
        )?;
        self.found_rows = found.get();
        Ok(result)
    }

    /// Runs a read-only statement in the current (or an implicit) transaction.
    ///
    /// A locking read (FOR UPDATE / LOCK IN SHARE MODE) reads the latest
    /// committed rows, as InnoDB's do, not the transaction's view: it reads,
    /// locks what it read, and when a commit was published meanwhile (one it
    /// may have waited for) reads again under those locks.
    fn run_read(
        &mut self,
        mut f: impl FnMut(&Session, &crate::select::Ctx) -> SqlResult<QueryResult>,
        locking: bool,
        params: &[Value],
    ) -> SqlResult<QueryResult> {
        let implicit = self.txn.is_none();
        if locking {
            // SELECT ... FOR UPDATE is a write-path read: same transaction
            // handling as DML.
            self.txn();
        }
        let view = match self.txn.as_mut() {
            Some(t) if locking => {
                t.begin_statement();
                self.engine.store.snapshot()
            }
            Some(t) => {
                t.begin_statement();
                // Read before the view is taken: see `TableEntry::def_generation`.
                let generation = self.engine.catalog.read().generation();
                t.view(&self.engine.store, generation)
            }
            None => self.engine.store.snapshot(),
        };
        let empty = Txn::new(0, IsolationLevel::RepeatableRead, true, false).with_temp_rows(self.temp.rows());
        let result = {
            let txn = self.txn.as_ref().unwrap_or(&empty);
            let warnings_before = self.warnings_mark();
            let mut read = |view| -> SqlResult<QueryResult> {
                let ctx = crate::select::Ctx::new(self, txn, view, params);
                let result = f(self, &ctx);
                if locking && matches!(result, Ok(QueryResult::Rows { .. })) {
                    ctx.lock_selected()?;
                }
                result
            };
            let result = read(view.clone());
            let latest = self.engine.store.snapshot();
            if locking && result.is_ok() && !Arc::ptr_eq(&view, &latest) {
                self.rewind_warnings(warnings_before);
                read(latest)
            } else {
                result
            }
        };
        let result = self.settle_function_writes(result);
        if implicit && locking && self.autocommit() {
            self.commit_txn()?;
        }
        result
    }

    /// Runs the query of a CREATE TABLE ... SELECT under shared metadata
    /// locks on the tables it reads, as a SELECT statement would.
    pub(crate) fn read_select(
        &mut self,
        select: &Select,
        params: &[Value],
    ) -> SqlResult<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
        self.lock_statement_tables(&Statement::Select(Box::new(select.clone())))?;
        match self.run_read(
            |s, ctx| s.select_result(ctx, select),
            crate::select::requested_lock(select).is_some(),
            params,
        )? {
            QueryResult::Rows { columns, rows } => Ok((columns, rows)),
            QueryResult::Ok { .. } | QueryResult::Streamed { .. } => {
                Err(SqlError::internal("a SELECT gave no result set"))
            }
        }
    }

    /// Runs INSERT/UPDATE/DELETE with statement atomicity and autocommit.
    fn run_write(&mut self, stmt: &Statement, params: &[Value]) -> SqlResult<QueryResult> {
        self.run_write_with(|s| crate::dml::execute(s, stmt, params))
    }

    /// Runs a statement that writes rows as one statement of the
    /// transaction (autocommitted when none is open): all of it or none.
    pub(crate) fn run_write_with(
        &mut self,
        body: impl FnOnce(&mut Session) -> SqlResult<QueryResult>,
    ) -> SqlResult<QueryResult> {
        if !self.trigger_tables.is_empty() {
            // Part of the firing statement: its failure undoes this too.
            let result = body(self);
            return self.settle_function_writes(result);
        }
        let autocommit_stmt = self.txn.is_none() && self.autocommit();
        if self.txn.as_ref().is_some_and(|t| t.read_only) {
            return Err(SqlError::new(
                ErrorCode::READ_ONLY_TRANSACTION,
                "Cannot execute statement in a READ ONLY transaction",
            ));
        }
        let max_binlog_cache_bytes = self.engine.vars.int("max_binlog_cache_size");
        let binlog_cache_bytes = self.engine.vars.int("binlog_cache_size");
        let tmpdir = self.tmpdir();
        let txn = self.txn();
        txn.set_binlog_cache(max_binlog_cache_bytes, binlog_cache_bytes, tmpdir);
        txn.begin_statement();
        if !crate::foreign_key::session_checks(self) {
            self.txn().mark_no_foreign_key_checks();
        }
        let result = body(self);
        let result = match self.settle_function_writes(result) {
            Ok(r) => self.txn().finish_statement().map(|_| r),
            Err(e) => Err(e),
        };
        match result {
            Ok(r) => {
                if autocommit_stmt {
                    self.commit_txn_last()?;
                }
                Ok(r)
            }
            Err(e) => {
                if let Some(t) = self.txn.as_mut() {
                    t.rollback_statement();
                }
                if autocommit_stmt {
                    self.rollback_txn();
                }
                Err(e)
            }
        }
    }
}

/// A statement LOCK TABLES' holder may not run (a DDL, FTWRL).
fn locked_tables_forbid() -> SqlError {
    SqlError::new(
        ErrorCode::LOCK_OR_ACTIVE_TRANSACTION,
        "Can't execute the given command because you have active locked tables or an active transaction",
    )
}

/// Whether every table of `tables` is in `locked` (LOCK TABLES), locked
/// WRITE where the statement writes it: else MariaDB's 1100 or 1099.
/// 1100 for a table `locked` lacks, else 1099 for one it holds READ that
/// is written: MariaDB opens every table first and checks lock types after.
fn check_locked(locked: &[TableUse], tables: &[TableUse]) -> SqlResult<()> {
    let lock_of = |(db, table): &TableName| locked.iter().find(|((d, t), _)| d == db && t == table);
    if let Some(((_, table), _)) = tables.iter().find(|(name, _)| lock_of(name).is_none()) {
        return Err(table_not_locked(table));
    }
    match tables.iter().find(|(name, write)| *write && lock_of(name).is_some_and(|(_, locked_write)| !locked_write)) {
        Some(((_, table), _)) => Err(SqlError::new(
            ErrorCode::TABLE_NOT_LOCKED_FOR_WRITE,
            format!("Table '{table}' was locked with a READ lock and can't be updated"),
        )),
        None => Ok(()),
    }
}

fn table_not_locked(table: &str) -> SqlError {
    SqlError::new(ErrorCode::TABLE_NOT_LOCKED, format!("Table '{table}' was not locked with LOCK TABLES"))
}

/// Adds `table` to `tables`, or marks it written if it is there already and
/// `write` says so: each table once, written if any use writes it.
pub(crate) fn add_table_use(tables: &mut Vec<TableUse>, table: (&str, &str), write: bool) {
    match tables.iter_mut().find(|((d, t), _)| (d.as_str(), t.as_str()) == table) {
        Some(same) => same.1 |= write,
        None => tables.push(((table.0.to_string(), table.1.to_string()), write)),
    }
}

/// PROCESSLIST State of a statement waiting for a table's metadata lock.
pub(crate) const TABLE_WAIT: &str = "Waiting for table metadata lock";

/// PROCESSLIST's state while GET_LOCK waits, as MariaDB shows it.
const USER_LOCK_WAIT: &str = "User lock";
/// ... and of one waiting for the global read lock (MariaDB's wording).
const BACKUP_WAIT: &str = "Waiting for backup lock";

pub fn is_system_db(name: &str) -> bool {
    matches!(name.to_ascii_lowercase().as_str(), "information_schema" | "mysql" | "performance_schema" | "sys")
}

impl EvalEnv for Session {
    /// MariaDB's LOAD_FILE: NULL without the FILE privilege, outside
    /// `secure_file_priv`, for a file that cannot be read, and (warning
    /// 1301) for one larger than max_allowed_packet.
    fn load_file(&self, name: &[u8]) -> SqlResult<Value> {
        if !self.visibility().has_global(crate::accounts::privs::FILE) {
            return Ok(Value::Null);
        }
        let Ok(path) = crate::load_data::server_path(self, "", name) else { return Ok(Value::Null) };
        let Ok(meta) = std::fs::metadata(&path) else { return Ok(Value::Null) };
        let limit: u64 =
            self.session_value("max_allowed_packet").parse().unwrap_or(crate::eval::MAX_ALLOWED_PACKET as u64);
        if meta.len() > limit {
            self.warn(1301, format!("Result of load_file() was larger than max_allowed_packet ({limit}) - truncated"));
            return Ok(Value::Null);
        }
        Ok(std::fs::read(&path).map_or(Value::Null, Value::Bytes))
    }
    fn sql_mode_has(&self, mode: &str) -> bool {
        Session::sql_mode_has(self, mode)
    }
    fn warning_or_error(&self, code: ErrorCode, message: &str) -> SqlResult<()> {
        Session::warning_or_error(self, code, message)
    }
    fn system_var(&self, scope: VarScope, name: &str) -> SqlResult<Value> {
        let def = vars::lookup(name).ok_or_else(|| vars::unknown_variable(name))?;
        let wrong_scope = match (scope, def.scope) {
            (VarScope::Session, vars::Scope::Global) => Some("GLOBAL"),
            (VarScope::Global, vars::Scope::Session) => Some("SESSION"),
            _ => None,
        };
        if let Some(which) = wrong_scope {
            return Err(SqlError::new(
                ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR,
                format!("Variable '{}' is a {which} variable", def.name),
            ));
        }
        let text = match (scope, def.name) {
            (_, "warning_count") => return Ok(Value::UInt(self.warnings_total())),
            (_, "error_count") => return Ok(Value::UInt(self.errors_total())),
            (_, "in_transaction") => return Ok(Value::UInt(u64::from(self.txn.is_some()))),
            (_, "last_insert_id") => return Ok(Value::UInt(self.last_insert_id.get())),
            (_, "timestamp") => return Ok(Value::Double(self.statement_time_us() as f64 / 1e6)),
            (_, "gtid_binlog_pos") | (_, "gtid_current_pos") => {
                return Ok(Value::from_str(
                    &self.engine.binlog.stats().last_committed_gtid.map(|g| g.to_string()).unwrap_or_default(),
                ))
            }
            (VarScope::Global, _) => self.engine.vars.get(def.name).unwrap_or_default(),
            (_, "sql_mode") => self.with_sql_mode(str::to_string),
            _ => self.var(def.name).unwrap_or_default(),
        };
        if text.is_empty() && def.name == "default_tmp_storage_engine" {
            // Unset: the session's default_storage_engine applies.
            return Ok(Value::Null);
        }
        Ok(vars::typed(def, &text))
    }

    fn user_var(&self, name: &str) -> Value {
        self.user_vars.borrow().get(&name.to_ascii_lowercase()).cloned().unwrap_or(Value::Null)
    }

    fn set_user_var(&self, name: &str, value: Value) {
        self.user_vars.borrow_mut().insert(name.to_ascii_lowercase(), user_var_value(value));
    }

    fn subquery(&self, _query: &Select, _outer_row: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        Err(SqlError::not_supported("subquery here"))
    }

    fn session_fact(&self, name: &str) -> Value {
        match name {
            "database" => self.db.as_deref().map(Value::from_str).unwrap_or(Value::Null),
            "last_insert_id" => Value::UInt(self.last_insert_id.get()),
            "connection_id" => Value::UInt(self.connection_id),
            "row_count" => Value::Int(self.row_count.get()),
            "found_rows" => Value::UInt(self.found_rows),
            "user" => Value::from_str(&format!("{}@{}", self.user, self.host)),
            "current_user" => match &self.account {
                Some(a) => Value::from_str(&format!("{}@{}", a.user, a.host)),
                None => Value::Null,
            },
            "current_role" => self.current_role.as_deref().map_or(Value::Null, Value::from_str),
            "version" => Value::from_str(&self.var("version").unwrap_or_default()),
            "now" => {
                crate::eval::temporal::from_unix_micros(self.statement_time_us()).map_or(Value::Null, Value::DateTime)
            }
            _ => Value::Null,
        }
    }

    fn binlog_gtid_pos(&self, file: &str, offset: u64) -> SqlResult<Value> {
        let binlog = &self.engine.binlog;
        let Some((seq, path)) = binlog.indexed_path(file) else { return Ok(Value::Null) };
        let state = onelog_binlog::dump::gtid_pos_at(&path, seq, offset, &binlog.replica_limit())
            .map_err(|e| SqlError::internal(e.to_string()))?;
        Ok(state.map_or(Value::Null, |gtids| {
            Value::from_str(&gtids.iter().map(ToString::to_string).collect::<Vec<_>>().join(","))
        }))
    }

    fn warning_row(&self) -> u64 {
        self.warning_row.get()
    }
    fn warn(&self, code: u16, message: String) {
        self.push_warning(Warning::raised("Warning", code, message));
    }

    fn note(&self, code: u16, message: String) {
        Session::note(self, code, message)
    }

    fn set_last_insert_id(&self, id: u64) {
        self.last_insert_id.set(id);
    }

    fn sleep(&self, duration: Duration) -> SqlResult<()> {
        self.guard.sleep(duration)
    }

    fn check_killed(&self) -> SqlResult<()> {
        self.guard.check()
    }

    fn user_lock(&self, call: UserLockCall<'_>) -> SqlResult<Value> {
        use crate::user_locks::Acquired;
        let locks = &self.engine.user_locks;
        let owner = self.connection_id;
        let as_int = |b: bool| Value::Int(i64::from(b));
        Ok(match call {
            UserLockCall::Get { name, timeout } => {
                match self.wait_showing(USER_LOCK_WAIT, timeout, |wait| locks.acquire(owner, name, wait))? {
                    Acquired::Granted => Value::Int(1),
                    Acquired::TimedOut => Value::Int(0),
                    Acquired::Interrupted => Value::Null,
                }
            }
            UserLockCall::Release(name) => locks.release(owner, name).map_or(Value::Null, as_int),
            UserLockCall::IsFree(name) => as_int(locks.holder(name).is_none()),
            UserLockCall::IsUsed(name) => locks.holder(name).map_or(Value::Null, Value::UInt),
            UserLockCall::ReleaseAll => Value::UInt(locks.release_all(owner)),
        })
    }
}

/// What a user variable holds of `value`: a UUID becomes its text, as
/// MariaDB keeps only string, number and NULL variables (a later
/// comparison is then a string comparison).
fn user_var_value(value: Value) -> Value {
    match value {
        Value::Uuid(u) => Value::from_str(&u.to_string()),
        other => other,
    }
}
