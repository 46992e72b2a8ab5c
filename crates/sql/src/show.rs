//! SHOW statements, DESCRIBE, the information_schema tables drivers query
//! on connect, and binlog administration (SHOW BINARY LOGS, SHOW MASTER
//! STATUS, SHOW BINLOG EVENTS, PURGE BINARY LOGS, RESET MASTER).

use crate::accounts::privs;
use crate::ast::*;
use crate::eval::EvalEnv;
use crate::privilege::Visibility;
use crate::schema_columns::{
    self, SchemaColumn,
    SchemaType::{LongText, Text},
};
use crate::session::{ProcessInfo, QueryResult, ResultColumn, Session, StatusCounter};
use crate::vars;
use crate::view::ViewEntry;
use onelog_binlog::listing::list_events;
use onelog_core::schema::ColumnDefault;
use onelog_core::{Charset, Collation, ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, TableDef, Value};
use parking_lot::Mutex;
use std::sync::Arc;

fn s(v: &str) -> Value {
    Value::from_str(v)
}

/// A SHOW column as MariaDB describes it: NOT NULL text of at most `chars`
/// characters (or an integer of `int_len` digits), either an item of the
/// statement's own (`is_table` empty: SHOW CREATE, SHOW WARNINGS) or a
/// field of the information_schema table MariaDB reads the SHOW from (SHOW
/// TABLES, VARIABLES).
#[derive(Clone, Copy)]
struct ShowColumn<'a> {
    name: &'a str,
    chars: u32,
    int_len: Option<u32>,
    unsigned: bool,
    is_table: &'a str,
}

/// An item column of text.
fn item<'a>(name: &'a str, chars: u32) -> ShowColumn<'a> {
    ShowColumn { name, chars, int_len: None, unsigned: false, is_table: "" }
}

/// A field of information_schema table `is_table`.
fn field<'a>(is_table: &'a str, name: &'a str, chars: u32) -> ShowColumn<'a> {
    ShowColumn { is_table, ..item(name, chars) }
}

impl ShowColumn<'_> {
    fn integer(self, len: u32) -> Self {
        ShowColumn { int_len: Some(len), ..self }
    }

    fn unsigned(self) -> Self {
        ShowColumn { unsigned: true, ..self }
    }

    fn result_column(&self) -> ResultColumn {
        let ty = match self.int_len {
            Some(len) => crate::typing::int_type_for_length(len),
            None => ColumnType::VarChar(self.chars),
        };
        let mut def = ColumnDef::new(self.name, ty);
        def.nullable = false;
        def.unsigned = self.unsigned;
        def.display_width = self.int_len;
        let mut column = ResultColumn::named(self.name, def);
        if !self.is_table.is_empty() {
            column.org_table = self.is_table.to_string();
            column.table = self.is_table.to_string();
            column.db = "information_schema".into();
        }
        column
    }
}

fn typed_result(columns: &[ShowColumn], rows: Vec<Vec<Value>>) -> QueryResult {
    QueryResult::Rows { columns: columns.iter().map(ShowColumn::result_column).collect(), rows }
}

/// SHOW OPEN TABLES: the tables in use (see `MetadataLocks::tables_in_use`).
/// MariaDB's Name_locked is always 0 since 5.5.
fn open_tables(session: &Session, db: Option<&str>, filter: Option<&ShowFilter>) -> QueryResult {
    let pattern = match filter {
        Some(ShowFilter::Like(p)) => Some(p.as_str()),
        _ => None,
    };
    let rows = session
        .engine
        .mdl
        .tables_in_use(db)
        .into_iter()
        .filter(|((_, table), _)| pattern.is_none_or(|p| like(p, table)))
        .map(|((db, table), in_use)| vec![s(&db), s(&table), Value::UInt(in_use as u64), Value::UInt(0)])
        .collect();
    let table = |name| field("OPEN_TABLES", name, 64);
    let columns = [table("Database"), table("Table"), table("In_use").integer(1), table("Name_locked").integer(4)];
    let columns = columns
        .iter()
        .map(|c| {
            // Both counts are BIGINTs of that display width.
            let mut column = c.result_column();
            if c.int_len.is_some() {
                column.def.ty = ColumnType::BigInt;
            }
            column
        })
        .collect();
    QueryResult::Rows { columns, rows }
}

/// SHOW EVENTS' columns, as MariaDB names them.
const EVENTS_COLUMNS: [&str; 15] = [
    "Db",
    "Name",
    "Definer",
    "Time zone",
    "Type",
    "Execute at",
    "Interval value",
    "Interval field",
    "Starts",
    "Ends",
    "Status",
    "Originator",
    "character_set_client",
    "collation_connection",
    "Database Collation",
];

fn text_result(names: &[&str], rows: Vec<Vec<Value>>) -> QueryResult {
    result_with_numbers(names, &[], rows)
}

/// A SHOW result whose columns at `numeric` are integers, as MariaDB sends
/// them (clients read a File_size, Position or warning Code as a number and
/// KILL the Id of SHOW PROCESSLIST); the other columns are text.
fn result_with_numbers(names: &[&str], numeric: &[usize], rows: Vec<Vec<Value>>) -> QueryResult {
    let mut columns: Vec<ResultColumn> = names.iter().map(|n| ResultColumn::text(n)).collect();
    for &i in numeric {
        columns[i] = ResultColumn::computed(names[i], rows.iter().map(|r| r[i].clone()));
    }
    QueryResult::Rows { columns, rows }
}

/// SHOW VARIABLES' columns, read from information_schema table `is_table`.
fn variable_columns(is_table: &str) -> [ShowColumn<'_>; 2] {
    [field(is_table, "Variable_name", 64), field(is_table, "Value", 4096)]
}

/// SQL LIKE with `%` and `_`, case-insensitive (SHOW ... LIKE).
pub fn like(pattern: &str, text: &str) -> bool {
    fn go(p: &[char], t: &[char]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some('%') => (0..=t.len()).any(|i| go(&p[1..], &t[i..])),
            Some('_') => !t.is_empty() && go(&p[1..], &t[1..]),
            Some('\\') if p.len() > 1 => !t.is_empty() && t[0] == p[1] && go(&p[2..], &t[1..]),
            Some(c) => !t.is_empty() && t[0].to_lowercase().eq(c.to_lowercase()) && go(&p[1..], &t[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    go(&p, &t)
}

/// Applies LIKE (on the first column) or WHERE (over the columns) to rows.
pub(crate) fn filter_rows(
    session: &Session,
    result: QueryResult,
    filter: Option<&ShowFilter>,
) -> SqlResult<QueryResult> {
    let QueryResult::Rows { columns, rows } = result else { return Ok(result) };
    let rows = match filter {
        None => rows,
        Some(ShowFilter::Like(p)) => rows.into_iter().filter(|r| like(p, &r[0].to_string())).collect(),
        Some(ShowFilter::Where(expr)) => {
            let scope = crate::select::result_scope(&columns);
            let bound = crate::select::bind(expr, &scope)?;
            let view = session.engine.store.snapshot();
            let txn = crate::txn::Txn::new(0, IsolationLevel::RepeatableRead, true, false)
                .with_temp_rows(session.temp.rows());
            let ctx = crate::select::Ctx::new(session, &txn, view, &[]);
            let mut kept = Vec::new();
            for r in rows {
                if ctx.test(&bound, &r)? {
                    kept.push(r);
                }
            }
            kept
        }
    };
    Ok(QueryResult::Rows { columns, rows })
}

pub fn execute(session: &mut Session, what: &Show, filter: Option<&ShowFilter>) -> SqlResult<QueryResult> {
    let result = match what {
        Show::Databases => {
            let rows = database_names(session).into_iter().map(|d| vec![s(&d)]).collect();
            typed_result(&[field("SCHEMATA", "Database", 64)], rows)
        }
        Show::Tables { db, full } => {
            let db = match db {
                Some(d) => d.clone(),
                None => session.current_db()?.to_string(),
            };
            if !session.engine.catalog.read().has_database(&db) && !crate::session::is_system_db(&db) {
                return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
            }
            let visibility = session.visibility();
            let mut names: Vec<(String, &str)> = {
                let catalog = session.engine.catalog.read();
                let tables = catalog.tables_in(&db).into_iter().map(|t| (t.def.name.clone(), "BASE TABLE"));
                let views = catalog.views_in(&db).into_iter().map(|v| (v.def.name.clone(), "VIEW"));
                let system_tables = (db == "mysql").then(crate::system_tables::names).into_iter();
                let system_tables = system_tables.flatten().map(|(name, kind)| (name.to_string(), kind));
                tables.chain(views).chain(system_tables).collect()
            };
            names.retain(|(name, _)| visibility.table(&db, name));
            names.sort();
            let header = format!("Tables_in_{db}");
            let name_column = field("TABLE_NAMES", &header, 73);
            if *full {
                let columns = [name_column, field("TABLE_NAMES", "Table_type", 64)];
                typed_result(&columns, names.iter().map(|(n, kind)| vec![s(n), s(kind)]).collect())
            } else {
                typed_result(&[name_column], names.iter().map(|(n, _)| vec![s(n)]).collect())
            }
        }
        Show::Columns { table, full } => show_columns(session, table, *full)?,
        Show::Index { table } => show_index(session, table)?,
        Show::CreateTable(name) if unshadowed_view(session, name)?.is_some() => show_create_view(session, name)?,
        Show::CreateView(name) => show_create_view(session, name)?,
        Show::CreateTable(name) => show_create_table(session, name)?,
        Show::CreateDatabase { name, if_not_exists } => {
            if !database_names(session).contains(name) {
                return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{name}'")));
            }
            let if_not_exists = if *if_not_exists { "/*!32312 IF NOT EXISTS*/ " } else { "" };
            let def = database_def(session, name);
            let mut sql = format!(
                "CREATE DATABASE {if_not_exists}`{name}` /*!40100 DEFAULT CHARACTER SET {} COLLATE {} */",
                def.collation.charset().name(),
                def.collation.name()
            );
            if !def.comment.is_empty() {
                sql.push_str(&format!(" COMMENT '{}'", def.comment.replace('\'', "''")));
            }
            typed_result(&[item("Database", 64), item("Create Database", 1024)], vec![vec![s(name), s(&sql)]])
        }
        Show::Variables { global } => {
            let rows = vars::VARIABLES
                .iter()
                .filter(|d| !*global || d.scope != vars::Scope::Session)
                .map(|d| vec![s(d.name), s(&var_value(session, d, *global).unwrap_or_default())])
                .collect();
            typed_result(&variable_columns(if *global { "GLOBAL_VARIABLES" } else { "SESSION_VARIABLES" }), rows)
        }
        Show::Status { global } => text_result(&["Variable_name", "Value"], status_rows(session, *global)),
        Show::Processlist { .. } => result_with_numbers(
            &["Id", "User", "Host", "db", "Command", "Time", "State", "Info"],
            &[0, 5],
            process_rows(session),
        ),
        Show::ReplicaHosts => {
            let master_id = Value::UInt(u64::from(session.engine.binlog.server_id()));
            let rows = (session.engine.replicas.all().into_iter())
                .filter(|r| r.registered)
                .map(|r| {
                    vec![Value::UInt(r.server_id.into()), s(&r.host), Value::UInt(r.port.into()), master_id.clone()]
                })
                .collect();
            result_with_numbers(&["Server_id", "Host", "Port", "Master_id"], &[0, 2, 3], rows)
        }
        Show::Warnings | Show::Errors => {
            let only_errors = matches!(what, Show::Errors);
            let rows = session
                .warnings
                .borrow()
                .iter()
                .filter(|w| !only_errors || w.level == "Error")
                .map(|w| vec![s(w.level), Value::UInt(u64::from(w.code)), s(&w.message)])
                .collect();
            typed_result(&[item("Level", 7), item("Code", 0).integer(4).unsigned(), item("Message", 512)], rows)
        }
        Show::Engines => text_result(
            &["Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"],
            ENGINES.iter().map(|row| row.iter().map(|v| s(v)).collect()).collect(),
        ),
        Show::Plugins => text_result(
            &["Name", "Status", "Type", "Library", "License"],
            PLUGINS.iter().map(|p| vec![s(p.name), s("ACTIVE"), s(p.kind), Value::Null, s(p.license)]).collect(),
        ),
        Show::Collation => result_with_numbers(
            &["Collation", "Charset", "Id", "Default", "Compiled", "Sortlen"],
            &[2, 5],
            collation_rows(),
        ),
        Show::CharacterSet => {
            result_with_numbers(&["Charset", "Description", "Default collation", "Maxlen"], &[3], charset_rows())
        }
        Show::TableStatus { db } => {
            let db = match db {
                Some(d) => d.clone(),
                None => session.current_db()?.to_string(),
            };
            let visibility = session.visibility();
            let catalog = session.engine.catalog.read();
            let tables = catalog.tables_in(&db);
            let views = catalog.views_in(&db);
            let table_rows = tables.iter().map(|t| (&t.def.name, table_status(t)));
            let view_rows = views.iter().map(|v| (&v.def.name, view_status()));
            let mut named: Vec<(&String, Vec<Value>)> =
                table_rows.chain(view_rows).filter(|(name, _)| visibility.table(&db, name)).collect();
            named.sort_by(|a, b| a.0.cmp(b.0));
            let rows =
                named.into_iter().map(|(name, status)| std::iter::once(s(name)).chain(status).collect()).collect();
            QueryResult::Rows { columns: status_columns(&TABLE_STATUS_COLUMNS, 1), rows }
        }
        Show::BinaryLogs => {
            let files = session.engine.binlog.list_files().map_err(binlog_err)?;
            let rows = files.iter().map(|f| vec![s(&f.name), Value::UInt(f.size_bytes)]).collect();
            result_with_numbers(&["Log_name", "File_size"], &[1], rows)
        }
        Show::MasterStatus => {
            let (file, pos) = session.engine.binlog.master_status();
            result_with_numbers(
                &["File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB"],
                &[1],
                vec![vec![s(&file), Value::UInt(pos.offset), s(""), s("")]],
            )
        }
        Show::BinlogEvents { file, from, limit } => show_binlog_events(session, file.as_deref(), *from, *limit)?,
        Show::Events { db } => {
            let db = db
                .clone()
                .or_else(|| session.db.clone())
                .ok_or_else(|| SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected"))?;
            if !database_names(session).contains(&db) {
                return Err(SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{db}'")));
            }
            // No event scheduler: a database has no events.
            text_result(&EVENTS_COLUMNS, Vec::new())
        }
        Show::OpenTables { db } => open_tables(session, db.as_deref(), filter),
        Show::EngineStatus => text_result(
            &["Type", "Name", "Status"],
            vec![vec![s("InnoDB"), s(""), s("OneLog: see SHOW GLOBAL STATUS LIKE 'Binlog%'")]],
        ),
    };
    // SHOW OPEN TABLES matches LIKE against the table name, not the first column.
    let filter = filter.filter(|f| !(matches!(what, Show::OpenTables { .. }) && matches!(f, ShowFilter::Like(_))));
    let mut result = filter_rows(session, result, filter)?;
    // SHOW DATABASES / TABLES LIKE name their column after the pattern.
    if let (Show::Databases | Show::Tables { .. }, Some(ShowFilter::Like(pattern))) = (what, filter) {
        if let QueryResult::Rows { columns, .. } = &mut result {
            if let Some(first) = columns.first_mut() {
                first.name = format!("{} ({pattern})", first.name);
            }
        }
    }
    Ok(result)
}

fn display_var(def: &vars::VarDef, text: &str) -> String {
    if def.kind == vars::Kind::Bool {
        if text == "1" {
            "ON".into()
        } else {
            "OFF".into()
        }
    } else {
        text.to_string()
    }
}

/// A variable's value as SHOW VARIABLES shows it: the session's (or, for
/// a global-only variable, the global one) or the global value.
fn var_value(session: &Session, def: &vars::VarDef, global: bool) -> Option<String> {
    let text = match def.name {
        // Computed on each read, as SELECT @@ computes them.
        "gtid_binlog_pos" | "gtid_current_pos" | "warning_count" | "error_count" | "last_insert_id"
        | "in_transaction" => {
            return session.system_var(VarScope::Default, def.name).map(|v| v.to_string()).ok();
        }
        _ if global => session.engine.vars.get(def.name),
        _ => session.var(def.name),
    };
    text.map(|t| display_var(def, &t))
}

/// information_schema.SYSTEM_VARIABLES' row of a variable, with MariaDB's
/// columns.
fn system_variable_row(session: &Session, def: &vars::VarDef) -> Vec<Value> {
    let text = |v: Option<&str>| v.map_or(Value::Null, s);
    let session_value = if def.scope == vars::Scope::Global { None } else { var_value(session, def, false) };
    let global_value = if def.scope == vars::Scope::Session { None } else { var_value(session, def, true) };
    vec![
        s(&def.name.to_ascii_uppercase()),
        text(session_value.as_deref()),
        text(global_value.as_deref()),
        s(session.engine.vars.origin(def.name)),
        if def.default_is_null { Value::Null } else { s(&display_var(def, def.default)) },
        s(match def.scope {
            vars::Scope::Global => "GLOBAL",
            vars::Scope::Session => "SESSION ONLY",
            vars::Scope::Both => "SESSION",
        }),
        s(def.type_name),
        s(def.comment),
        text(def.min),
        text(def.max),
        text(def.block_size),
        text(def.values),
        s(if def.read_only { "YES" } else { "NO" }),
        text(def.command_line),
        Value::Null,
    ]
}

/// The storage engines OneLog has, as SHOW ENGINES and
/// information_schema.ENGINES show them: one, OneLog's own, under the name
/// tables report (ENGINE=InnoDB), so that clients and test suites asking
/// for InnoDB find it, and MariaDB's SEQUENCE (see `crate::sequence`). XA
/// is not supported.
const ENGINES: &[[&str; 6]] = &[
    [
        "InnoDB",
        "DEFAULT",
        "OneLog's transactional engine (reported as InnoDB): row-level locking, savepoints; the binlog is its only log",
        "YES",
        "NO",
        "YES",
    ],
    ["SEQUENCE", "YES", "Generated tables filled with sequential values", "YES", "NO", "YES"],
];

struct Plugin {
    name: &'static str,
    version: &'static str,
    kind: &'static str,
    type_version: &'static str,
    author: &'static str,
    description: &'static str,
    license: &'static str,
    load_option: &'static str,
}

/// What OneLog has that MariaDB packages as plugins: the binlog, the
/// password authentication it speaks, and its engine under InnoDB's name.
const PLUGINS: &[Plugin] = &[
    Plugin {
        name: "binlog",
        version: "1.0",
        kind: "STORAGE ENGINE",
        type_version: "101199.0",
        author: "OneLog",
        description: "The binary log: OneLog's only durable log",
        license: "Apache-2.0",
        load_option: "FORCE",
    },
    Plugin {
        name: "mysql_native_password",
        version: "1.0",
        kind: "AUTHENTICATION",
        type_version: "2.2",
        author: "OneLog",
        description: "Native MySQL authentication",
        license: "Apache-2.0",
        load_option: "FORCE",
    },
    Plugin {
        name: "InnoDB",
        version: "10.11",
        kind: "STORAGE ENGINE",
        type_version: "101199.0",
        author: "OneLog",
        description: ENGINES[0][2],
        license: "Apache-2.0",
        load_option: "ON",
    },
    Plugin {
        name: "SEQUENCE",
        version: "1.0",
        kind: "STORAGE ENGINE",
        type_version: "101199.0",
        author: "OneLog",
        description: ENGINES[1][2],
        license: "Apache-2.0",
        load_option: "ON",
    },
];

fn plugin_row(p: &Plugin) -> Vec<Value> {
    vec![
        s(p.name),
        s(p.version),
        s("ACTIVE"),
        s(p.kind),
        s(p.type_version),
        Value::Null,
        Value::Null,
        s(p.author),
        s(p.description),
        s(p.license),
        s(p.load_option),
        s("Stable"),
        s(p.version),
    ]
}

fn binlog_err(e: onelog_binlog::BinlogError) -> SqlError {
    SqlError::internal(e.to_string())
}

/// One row per connection: Id, User, Host, db, Command, Time, State, Info.
/// The threads of SHOW PROCESSLIST and information_schema.PROCESSLIST:
/// without PROCESS an account sees only those of its own user name, as
/// MariaDB compares them.
fn process_rows(session: &Session) -> Vec<Vec<Value>> {
    let own_only = match &session.account {
        Some(name) if !session.visibility().has_global(privs::PROCESS) => Some(name.user.clone()),
        _ => None,
    };
    let entries = session.engine.processes.entries.lock();
    let row = |(id, p): (&u64, &Arc<Mutex<ProcessInfo>>)| {
        let p = p.lock();
        vec![
            Value::UInt(*id),
            s(&p.user),
            s(&p.host),
            p.db.as_deref().map(s).unwrap_or(Value::Null),
            s(&p.command),
            Value::UInt(p.started.elapsed().as_secs()),
            s(p.state),
            p.info.as_deref().map(s).unwrap_or(Value::Null),
        ]
    };
    let visible = |(_, p): &(&u64, &Arc<Mutex<ProcessInfo>>)| own_only.as_ref().is_none_or(|u| p.lock().user == *u);
    entries.iter().filter(visible).map(row).collect()
}

/// NUMERIC_PRECISION, NUMERIC_SCALE and DATETIME_PRECISION of a column,
/// as information_schema.COLUMNS shows them.
/// DATA_TYPE through COLLATION_NAME of a column (information_schema.COLUMNS)
/// or of a function's return type (ROUTINES): the same eight columns.
pub(crate) fn type_columns(c: &ColumnDef) -> [Value; 8] {
    let (precision, scale, fsp) = numeric_precision(c);
    let uint = |n: Option<u64>| n.map_or(Value::Null, Value::UInt);
    let text_only = |v: &str| if c.ty.is_text() { s(v) } else { Value::Null };
    // An ENUM holds its longest label (which its storage size is not).
    let max_bytes = match &c.ty {
        ColumnType::Enum(labels) => {
            let longest = labels.iter().map(|l| l.chars().count() as u64).max().unwrap_or(0);
            longest * u64::from(c.collation.mbmaxlen())
        }
        _ => c.max_bytes(),
    };
    [
        s(c.ty.sql_name().split('(').next().unwrap_or("")),
        // TEXT's maximum is in bytes (65535 for TEXT of any charset). A UUID
        // is no character column here, though logged as a BINARY(16).
        match c.ty {
            _ if max_bytes == 0 => Value::Null,
            ColumnType::Uuid => Value::Null,
            ColumnType::Text(_) => Value::UInt(max_bytes),
            _ => Value::UInt(max_bytes / u64::from(c.collation.mbmaxlen())),
        },
        uint((max_bytes > 0 && c.ty != ColumnType::Uuid).then_some(max_bytes)),
        uint(precision),
        uint(scale),
        uint(fsp),
        text_only(c.collation.charset().name()),
        text_only(c.collation.name()),
    ]
}

fn numeric_precision(c: &onelog_core::ColumnDef) -> (Option<u64>, Option<u64>, Option<u64>) {
    match c.ty {
        ColumnType::TinyInt => (Some(3), Some(0), None),
        ColumnType::SmallInt => (Some(5), Some(0), None),
        ColumnType::MediumInt => (Some(if c.unsigned { 8 } else { 7 }), Some(0), None),
        ColumnType::Int => (Some(10), Some(0), None),
        ColumnType::BigInt => (Some(if c.unsigned { 20 } else { 19 }), Some(0), None),
        ColumnType::Decimal { precision, scale } => (Some(u64::from(precision)), Some(u64::from(scale)), None),
        ColumnType::Float | ColumnType::Double => match c.float_digits {
            Some(d) => (Some(u64::from(d.digits)), Some(u64::from(d.decimals)), None),
            None => (c.display_width().map(u64::from), None, None),
        },
        ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp } | ColumnType::Time { fsp } => {
            (None, None, Some(u64::from(fsp)))
        }
        ColumnType::Bit(bits) => (Some(u64::from(bits)), None, None),
        _ => (None, None, None),
    }
}

/// The databases the session may see.
fn database_names(session: &Session) -> Vec<String> {
    let visibility = session.visibility();
    let mut names: Vec<String> =
        session.engine.catalog.read().databases().filter(|d| visibility.db(d)).cloned().collect();
    names.push("information_schema".into());
    names.sort();
    names
}

/// SHOW [GLOBAL] STATUS: the server's counters; Feature_window_functions
/// is the session's own unless `global`.
fn status_rows(session: &Session, global: bool) -> Vec<Vec<Value>> {
    let st = session.engine.binlog.stats();
    let threads = session.engine.processes.entries.lock().len() as u64;
    let (pool_threads, pool_idle_threads) = crate::wait::POOL_COUNTERS.snapshot();
    let mut rows = vec![
        ("Binlog_bytes_written", st.binlog_bytes_written),
        // Global in MariaDB too (no session value).
        ("Binlog_cache_disk_use", session.status_count(StatusCounter::BinlogCacheDiskUse, true)),
        ("Binlog_cache_use", session.status_count(StatusCounter::BinlogCacheUse, true)),
        ("Binlog_checkpoint_syncs", st.binlog_checkpoint_syncs),
        ("Binlog_commits", st.binlog_commits),
        ("Binlog_group_commit_trigger_count", st.binlog_group_commit_trigger_count),
        ("Binlog_group_commit_trigger_timeout", st.binlog_group_commit_trigger_timeout),
        ("Binlog_group_commits", st.binlog_group_commits),
        ("Binlog_sync_time_us", st.binlog_sync_time_us),
        ("Binlog_syncs", st.binlog_syncs),
        ("Feature_window_functions", session.status_count(StatusCounter::WindowFunctions, global)),
        ("Sort_merge_passes", session.status_count(StatusCounter::SortMergePasses, global)),
        ("Threadpool_idle_threads", pool_idle_threads),
        ("Threadpool_threads", pool_threads),
        ("Threads_running", threads),
        ("Uptime", session.engine.started_at.elapsed().as_secs()),
    ]
    .into_iter()
    .chain(session.engine.connections.status())
    .map(|(k, v)| vec![s(k), Value::UInt(v)])
    .collect::<Vec<_>>();
    rows.push(vec![s("Binlog_poisoned"), s(if st.poisoned { "ON" } else { "OFF" })]);
    // MariaDB's: where the session's consistent snapshot stands in the
    // binlog (else the last published transaction) — what mariadb-dump
    // --single-transaction --master-data records, without a global lock.
    let snapshot = (session.txn.as_ref().and_then(|t| t.view_binlog_pos()))
        .unwrap_or_else(|| session.engine.binlog.published_position());
    rows.push(vec![s("Binlog_snapshot_file"), s(&session.engine.binlog.file_name(snapshot.file_seq))]);
    rows.push(vec![s("Binlog_snapshot_position"), Value::UInt(snapshot.offset)]);
    // Empty without TLS, as in MariaDB.
    let tls = session.tls.as_ref();
    rows.push(vec![s("Ssl_cipher"), s(tls.map_or("", |t| t.cipher))]);
    rows.push(vec![s("Ssl_version"), s(tls.map_or("", |t| t.version))]);
    rows.sort_by_key(|r| r[0].to_string());
    rows
}

/// information_schema.GLOBAL_STATUS / SESSION_STATUS: SHOW [GLOBAL]
/// STATUS as a table, names upper-cased, typed as MariaDB's.
fn status_table(session: &Session, table: &str) -> (Vec<ResultColumn>, Vec<Vec<Value>>) {
    let rows = status_rows(session, table == "GLOBAL_STATUS")
        .iter()
        .map(|row| {
            let name = crate::eval::value_string(&row[0]).to_ascii_uppercase();
            vec![s(&name), s(&crate::eval::value_string(&row[1]))]
        })
        .collect();
    let columns = [field(table, "VARIABLE_NAME", 64), field(table, "VARIABLE_VALUE", 2048)];
    (columns.iter().map(ShowColumn::result_column).collect(), rows)
}

/// The view `name` (SHOW CREATE VIEW sees views only, temporary tables
/// of the same name aside, as in MariaDB).
fn view_named(session: &Session, name: &ObjectName) -> SqlResult<Option<Arc<ViewEntry>>> {
    let db = session.resolve_db(name)?;
    Ok(session.engine.catalog.read().view(db, &name.name))
}

/// The view `name` unless a temporary table of that name shadows it, as
/// for every statement on tables.
fn unshadowed_view(session: &Session, name: &ObjectName) -> SqlResult<Option<Arc<ViewEntry>>> {
    if session.temp_table(name)?.is_some() {
        return Ok(None);
    }
    view_named(session, name)
}

/// SHOW CREATE VIEW (and SHOW CREATE TABLE of a view).
fn show_create_view(session: &Session, name: &ObjectName) -> SqlResult<QueryResult> {
    let Some(view) = view_named(session, name)? else {
        let db = session.resolve_db(name)?;
        return Err(if session.engine.catalog.read().table(db, &name.name).is_some() {
            SqlError::new(ErrorCode::WRONG_OBJECT, format!("'{db}.{}' is not of type 'VIEW'", name.name))
        } else {
            SqlError::no_such_table(db, &name.name)
        });
    };
    let d = &view.def;
    let row = vec![
        s(&d.name),
        s(&view.create_statement(session.db.as_deref())),
        s(&d.character_set_client),
        s(&d.collation_connection),
    ];
    let columns = [
        item("View", 64),
        item("Create View", 1024),
        item("character_set_client", 32),
        item("collation_connection", 64),
    ];
    Ok(typed_result(&columns, vec![row]))
}

/// information_schema.VIEWS rows.
fn view_rows(views: &[Arc<ViewEntry>], visibility: &Visibility) -> Vec<Vec<Value>> {
    views
        .iter()
        .map(|v| {
            let d = &v.def;
            let shown = visibility.view_definition(&d.db, &d.name, (&d.definer_user, &d.definer_host));
            let check = match d.check_option {
                CheckOption::None => "NONE",
                CheckOption::Local => "LOCAL",
                CheckOption::Cascaded => "CASCADED",
            };
            vec![
                s("def"),
                s(&d.db),
                s(&d.name),
                s(if shown { &d.definition } else { "" }),
                s(check),
                s(if d.updatable { "YES" } else { "NO" }),
                s(&format!("{}@{}", d.definer_user, d.definer_host)),
                s(&d.security),
                s(&d.character_set_client),
                s(&d.collation_connection),
                s(&d.algorithm),
            ]
        })
        .collect()
}

/// information_schema.TABLE_CONSTRAINTS rows of a table: its primary and
/// unique keys and CHECK constraints.
fn table_constraints(def: &TableDef) -> Vec<Vec<Value>> {
    let keys = def.indexes.iter().filter(|i| i.unique).map(|i| {
        let kind = if i.primary { "PRIMARY KEY" } else { "UNIQUE" };
        (i.name.as_str(), kind)
    });
    let foreign_keys = def.foreign_keys.iter().map(|f| (f.name.as_str(), "FOREIGN KEY"));
    let checks = def.checks.iter().map(|c| (c.name.as_str(), "CHECK"));
    keys.chain(foreign_keys)
        .chain(checks)
        .map(|(name, kind)| vec![s("def"), s(&def.db), s(name), s(&def.db), s(&def.name), s(kind)])
        .collect()
}

/// information_schema.KEY_COLUMN_USAGE rows of a table: the columns of its
/// primary and unique keys, then of its FOREIGN KEY constraints with the
/// columns they reference.
fn key_column_usage(def: &TableDef) -> Vec<Vec<Value>> {
    let head = |constraint: &str, column: usize, ordinal: usize| {
        vec![
            s("def"),
            s(&def.db),
            s(constraint),
            s("def"),
            s(&def.db),
            s(&def.name),
            s(&def.columns[column].name),
            Value::Int(ordinal as i64 + 1),
        ]
    };
    let mut rows = Vec::new();
    for index in def.indexes.iter().filter(|i| i.unique) {
        for (n, &c) in index.columns.iter().enumerate() {
            let mut row = head(&index.name, c, n);
            row.extend([Value::Null, Value::Null, Value::Null, Value::Null]);
            rows.push(row);
        }
    }
    for fk in &def.foreign_keys {
        for (n, (&c, referenced)) in fk.columns.iter().zip(&fk.ref_columns).enumerate() {
            let mut row = head(&fk.name, c, n);
            row.extend([Value::Int(n as i64 + 1), s(&fk.ref_db), s(&fk.ref_table), s(referenced)]);
            rows.push(row);
        }
    }
    rows
}

/// information_schema.REFERENTIAL_CONSTRAINTS rows of a table: one per
/// FOREIGN KEY, naming the parent's key it matches.
fn referential_constraints(catalog: &crate::catalog::Catalog, def: &TableDef) -> Vec<Vec<Value>> {
    def.foreign_keys
        .iter()
        .map(|fk| {
            let parent_key = catalog.table(&fk.ref_db, &fk.ref_table).and_then(|parent| {
                let positions: Option<Vec<usize>> = fk.ref_columns.iter().map(|c| parent.def.column_index(c)).collect();
                let positions = positions?;
                let index = parent.def.indexes.iter().find(|i| i.columns.starts_with(&positions))?;
                Some(index.name.clone())
            });
            vec![
                s("def"),
                s(&def.db),
                s(&fk.name),
                s("def"),
                s(&fk.ref_db),
                parent_key.map_or(Value::Null, |k| s(&k)),
                s("NONE"),
                s(fk.on_update.sql_name()),
                s(fk.on_delete.sql_name()),
                s(&def.name),
                s(&fk.ref_table),
            ]
        })
        .collect()
}

/// SHOW CREATE TABLE of a table (a temporary one first) or of a computed
/// table of `mysql`.
fn show_create_table(session: &Session, name: &ObjectName) -> SqlResult<QueryResult> {
    let temporary = session.temp_table(name)?.is_some();
    let system = match temporary {
        true => None,
        false => crate::system_tables::create_table_sql(session.resolve_db(name)?, &name.name)?,
    };
    let sequence = match (temporary, &system) {
        (false, None) => session.sequence_table(session.resolve_db(name)?, &name.name)?,
        _ => None,
    };
    let system = system.or_else(|| sequence.map(|(def, _)| create_table_sql(&def, None)));
    let (table_name, sql) = match system {
        Some(sql) => (name.name.clone(), sql),
        None => {
            let table = session.table_entry(name)?;
            let mut sql = create_table_sql(&table.def, Some(*table.auto_increment_next.lock()));
            if temporary {
                sql = sql.replacen("CREATE TABLE", "CREATE TEMPORARY TABLE", 1);
            }
            (table.def.name.clone(), sql)
        }
    };
    // MariaDB's column is as long as the text, 1024 at least.
    let width = u32::try_from(sql.len()).unwrap_or(u32::MAX).max(1024);
    Ok(typed_result(&[item("Table", 64), item("Create Table", width)], vec![vec![s(&table_name), s(&sql)]]))
}

/// A database's options; the system databases' are MariaDB's.
fn database_def(session: &Session, name: &str) -> crate::catalog::DatabaseDef {
    match name {
        "information_schema" | "performance_schema" | "sys" => {
            crate::catalog::DatabaseDef { collation: onelog_core::Collation::Utf8mb3GeneralCi, comment: String::new() }
        }
        _ => session.engine.catalog.read().database(name).cloned().unwrap_or_default(),
    }
}

/// A table's definition; for a view, its columns as its query yields them
/// (SHOW COLUMNS of a view, which mariadb-dump asks), without indexes.
fn table_def(session: &Session, name: &ObjectName) -> SqlResult<TableDef> {
    let db = session.resolve_db(name)?;
    match unshadowed_view(session, name)? {
        Some(view) => view_as_table(session, &view),
        None => match crate::system_tables::def(db, &name.name)? {
            Some(def) => Ok(def),
            None => match session.sequence_table(db, &name.name)? {
                Some((def, _)) => Ok(def),
                None => Ok(session.table_entry_in(db, &name.name)?.def.clone()),
            },
        },
    }
}

fn view_as_table(session: &Session, view: &ViewEntry) -> SqlResult<TableDef> {
    Ok(TableDef {
        id: 0,
        db: view.def.db.clone(),
        name: view.def.name.clone(),
        columns: session.view_columns(view)?,
        indexes: Vec::new(),
        engine: String::new(),
        comment: "VIEW".into(),
        ..Default::default()
    })
}

/// Every view whose query runs, as a table of its columns: a view that no
/// longer runs (a table it reads was dropped) has no columns in
/// information_schema.COLUMNS, as in MariaDB.
fn views_as_tables(session: &Session) -> Vec<TableDef> {
    let views = session.engine.catalog.read().all_views();
    views.iter().filter_map(|v| view_as_table(session, v).ok()).collect()
}

/// A column's type as SHOW CREATE TABLE, SHOW COLUMNS and
/// information_schema.COLUMNS print it: integers with their display width,
/// FLOAT(M,D) / DOUBLE(M,D), then `unsigned` and `zerofill`.
pub(crate) fn column_type_text(c: &onelog_core::ColumnDef) -> String {
    let mut t = match (&c.ty, c.float_digits) {
        (ColumnType::Float | ColumnType::Double, Some(d)) => {
            format!("{}({},{})", c.ty.sql_name(), d.digits, d.decimals)
        }
        (ty, _) if ty.is_integer() && *ty != ColumnType::Year => {
            format!("{}({})", ty.sql_name(), c.display_width().unwrap_or_default())
        }
        (ty, _) => ty.sql_name(),
    };
    if c.unsigned {
        t.push_str(" unsigned");
    }
    if c.zerofill {
        t.push_str(" zerofill");
    }
    t
}

fn default_text(c: &onelog_core::ColumnDef) -> Option<String> {
    match &c.default {
        Some(ColumnDefault::Value(Value::Null)) | None => None,
        // A BIT default (kept as written) is shown as the bit-value literal
        // of the number the column stores for it.
        Some(ColumnDefault::Value(v)) if matches!(c.ty, ColumnType::Bit(_)) => {
            match crate::eval::coerce_to_column(v.clone(), c, false, &crate::eval::NoWarn) {
                Ok(Value::UInt(n)) => Some(format!("b'{n:b}'")),
                _ => Some(v.to_string()),
            }
        }
        Some(ColumnDefault::Value(v)) => Some(v.to_string()),
        Some(ColumnDefault::CurrentTimestamp) => Some("current_timestamp()".into()),
        Some(ColumnDefault::Expr(text)) => Some(text.clone()),
    }
}

/// The Extra of SHOW COLUMNS and information_schema.COLUMNS.
fn column_extra(c: &ColumnDef) -> &'static str {
    match &c.generated {
        Some(g) if g.stored => "STORED GENERATED",
        Some(_) => "VIRTUAL GENERATED",
        None if c.auto_increment => "auto_increment",
        None if c.on_update_current_timestamp => "on update current_timestamp()",
        None => "",
    }
}

fn key_kind(t: &TableDef, col: usize) -> &'static str {
    // Every column of the primary key is PRI, as in MariaDB.
    if t.indexes.iter().any(|i| i.primary && i.columns.contains(&col)) {
        return "PRI";
    }
    for i in &t.indexes {
        if i.columns.first() == Some(&col) {
            return if i.primary {
                "PRI"
            } else if i.unique {
                "UNI"
            } else {
                "MUL"
            };
        }
    }
    ""
}

fn show_columns(session: &Session, table: &ObjectName, full: bool) -> SqlResult<QueryResult> {
    let t = table_def(session, table)?;
    let visibility = session.visibility();
    let rows = t
        .columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let privileges = visibility.column_privileges(&t.db, &t.name, &c.name)?;
            let mut row = vec![s(&c.name), s(&column_type_text(c))];
            if full {
                row.push(if c.ty.is_text() { s(c.collation.name()) } else { Value::Null });
            }
            row.push(s(if c.nullable { "YES" } else { "NO" }));
            row.push(s(key_kind(&t, i)));
            row.push(default_text(c).map(|d| s(&d)).unwrap_or(Value::Null));
            row.push(s(column_extra(c)));
            if full {
                row.push(s(&privileges));
                row.push(s(&c.comment));
            }
            Some(row)
        })
        .collect();
    let names: &[&str] = if full {
        &["Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"]
    } else {
        &["Field", "Type", "Null", "Key", "Default", "Extra"]
    };
    Ok(text_result(names, rows))
}

fn show_index(session: &Session, table: &ObjectName) -> SqlResult<QueryResult> {
    let t = table_def(session, table)?;
    let mut rows = Vec::new();
    for i in &t.indexes {
        for (seq, &c) in i.columns.iter().enumerate() {
            let part = i.part(seq);
            rows.push(vec![
                s(&t.name),
                Value::Int(i64::from(!i.unique)),
                s(&i.name),
                Value::Int(seq as i64 + 1),
                s(&t.columns[c].name),
                s(if part.descending { "D" } else { "A" }),
                Value::Null,
                part.prefix_length.map_or(Value::Null, |p| Value::Int(i64::from(p))),
                Value::Null,
                s(if t.columns[c].nullable { "YES" } else { "" }),
                s("BTREE"),
                s(""),
                s(""),
                s("NO"),
            ]);
        }
    }
    Ok(text_result(
        &[
            "Table",
            "Non_unique",
            "Key_name",
            "Seq_in_index",
            "Column_name",
            "Collation",
            "Cardinality",
            "Sub_part",
            "Packed",
            "Null",
            "Index_type",
            "Comment",
            "Index_comment",
            "Ignored",
        ],
        rows,
    ))
}

/// A stored (not generated) column's NULL, AUTO_INCREMENT, DEFAULT and ON
/// UPDATE in SHOW CREATE TABLE.
fn value_attributes(c: &ColumnDef) -> String {
    let mut out = String::new();
    if !c.nullable {
        out.push_str(" NOT NULL");
    } else if matches!(c.ty, ColumnType::Timestamp { .. }) {
        // MariaDB spells out a nullable TIMESTAMP's NULL.
        out.push_str(" NULL");
    }
    if c.auto_increment {
        out.push_str(" AUTO_INCREMENT");
    }
    match default_text(c) {
        Some(d) if matches!(c.default, Some(ColumnDefault::CurrentTimestamp | ColumnDefault::Expr(_))) => {
            out.push_str(&format!(" DEFAULT {d}"))
        }
        Some(d)
            if c.ty.is_integer()
                || matches!(
                    c.ty,
                    ColumnType::Decimal { .. } | ColumnType::Double | ColumnType::Float | ColumnType::Bit(_)
                ) =>
        {
            out.push_str(&format!(" DEFAULT {d}"))
        }
        Some(d) => out.push_str(&format!(" DEFAULT '{}'", d.replace('\'', "''"))),
        None if c.nullable => out.push_str(" DEFAULT NULL"),
        None => {}
    }
    if c.on_update_current_timestamp {
        out.push_str(" ON UPDATE current_timestamp()");
    }
    out
}

/// SHOW CREATE TABLE text, as MariaDB formats it.
/// `auto_increment_next`: the table's AUTO_INCREMENT counter, shown as
/// InnoDB shows it (for a table with an AUTO_INCREMENT column, above 1).
pub fn create_table_sql(t: &TableDef, auto_increment_next: Option<u64>) -> String {
    let mut lines: Vec<String> = t
        .columns
        .iter()
        .map(|c| {
            let mut l = format!("  `{}` {}", c.name, column_type_text(c));
            if c.ty.is_text() && c.collation != t.collation {
                l.push_str(&format!(" CHARACTER SET {}", c.collation.charset().name()));
                // `binary` is its charset's only collation: MariaDB names it once.
                if c.collation != Collation::Binary {
                    l.push_str(&format!(" COLLATE {}", c.collation.name()));
                }
            }
            match &c.generated {
                Some(g) => l.push_str(&format!(" GENERATED ALWAYS AS ({}) {}", g.expr, g.kind())),
                None => l.push_str(&value_attributes(c)),
            }
            if !c.comment.is_empty() {
                l.push_str(&format!(" COMMENT '{}'", c.comment.replace('\'', "''")));
            }
            if let Some(check) = t.checks.iter().find(|k| k.column_level && k.name.eq_ignore_ascii_case(&c.name)) {
                l.push_str(&format!(" CHECK ({})", check.condition));
            }
            l
        })
        .collect();
    for i in &t.indexes {
        let cols: Vec<String> = i
            .columns
            .iter()
            .enumerate()
            .map(|(n, &c)| {
                let part = i.part(n);
                let prefix = part.prefix_length.map(|p| format!("({p})")).unwrap_or_default();
                let direction = if part.descending { " DESC" } else { "" };
                format!("`{}`{prefix}{direction}", t.columns[c].name)
            })
            .collect();
        let using = i.using.as_ref().map(|u| format!(" USING {u}")).unwrap_or_default();
        lines.push(if i.primary {
            format!("  PRIMARY KEY ({}){using}", cols.join(","))
        } else if i.unique {
            format!("  UNIQUE KEY `{}` ({}){using}", i.name, cols.join(","))
        } else {
            format!("  KEY `{}` ({}){using}", i.name, cols.join(","))
        });
    }
    for fk in &t.foreign_keys {
        lines.push(format!("  {}", crate::foreign_key::clause(t, fk, false)));
    }
    for check in t.checks.iter().filter(|k| !k.column_level) {
        lines.push(format!("  CONSTRAINT `{}` CHECK ({})", check.name, check.condition));
    }
    let auto_increment = match auto_increment_next {
        Some(next) if next > 1 && t.auto_increment_column().is_some() => format!(" AUTO_INCREMENT={next}"),
        _ => String::new(),
    };
    let mut sql = format!(
        "CREATE TABLE `{}` (\n{}\n) ENGINE={}{auto_increment} DEFAULT CHARSET={} COLLATE={}",
        t.name,
        lines.join(",\n"),
        t.engine,
        t.collation.charset().name(),
        t.collation.name()
    );
    if !t.comment.is_empty() {
        sql.push_str(&format!(" COMMENT='{}'", t.comment.replace('\'', "''")));
    }
    sql
}

fn show_binlog_events(
    session: &Session,
    file: Option<&str>,
    from: Option<u64>,
    limit: Option<(u64, u64)>,
) -> SqlResult<QueryResult> {
    let (current, _) = session.engine.binlog.master_status();
    let name = file.map(str::to_string).unwrap_or_else(|| {
        session.engine.binlog.list_files().ok().and_then(|f| f.first().map(|f| f.name.clone())).unwrap_or(current)
    });
    let dir = session.engine.datadir.clone();
    let path =
        if std::path::Path::new(&name).is_absolute() { std::path::PathBuf::from(&name) } else { dir.join(&name) };
    let data = std::fs::read(&path).map_err(|_| {
        SqlError::new(
            ErrorCode::MASTER_FATAL_READING_BINLOG,
            "Error when executing command SHOW BINLOG EVENTS: Could not find target log".to_string(),
        )
    })?;
    let mut rows: Vec<Vec<Value>> = list_events(&data, from.unwrap_or(4))
        .into_iter()
        .map(|e| {
            vec![
                s(&name),
                Value::UInt(e.pos),
                s(e.type_name()),
                Value::UInt(u64::from(e.header.server_id)),
                Value::UInt(u64::from(e.header.log_pos)),
                s(&e.info),
            ]
        })
        .collect();
    if let Some((offset, count)) = limit {
        rows = rows.into_iter().skip(offset as usize).take(count as usize).collect();
    }
    Ok(result_with_numbers(&["Log_name", "Pos", "Event_type", "Server_id", "End_log_pos", "Info"], &[1, 3, 4], rows))
}

/// PURGE BINARY LOGS and RESET MASTER.
pub fn binlog_admin(session: &mut Session, stmt: &Statement) -> SqlResult<QueryResult> {
    // Never purge what recovery still needs — everything from the position
    // storage has persisted (a fresh checkpoint moves it forward) — nor a
    // file a connected replica's dump reads.
    let persisted = session
        .engine
        .checkpoint()
        .map_err(|e| SqlError::internal(e.to_string()))?
        .unwrap_or_else(|| crate::engine::decode_marker(session.engine.store.position_marker().ok().flatten()));
    let keep_from = session.engine.purge_floor(persisted);
    let binlog = &session.engine.binlog;
    match stmt {
        Statement::PurgeBinaryLogsTo(name) => {
            binlog
                .purge_to(name, keep_from)
                .map_err(|e| SqlError::new(ErrorCode::UNKNOWN_TARGET_BINLOG, e.to_string()))?;
        }
        Statement::PurgeBinaryLogsBefore(expr) => {
            let bound = crate::select::bind_constant(expr)?;
            let view = session.engine.store.snapshot();
            let txn = crate::txn::Txn::new(0, IsolationLevel::RepeatableRead, true, false);
            let ctx = crate::select::Ctx::new(session, &txn, view, &[]);
            // A string is read as a datetime ('2026-01-01' too), as MariaDB
            // reads it.
            let value = ctx.eval(&bound, &[])?;
            let ts = match crate::eval::temporal::to_datetime(&value, &ctx) {
                Some(t) => t.unix_seconds().max(0) as u64,
                None => {
                    return Err(SqlError::new(
                        ErrorCode::WRONG_ARGUMENTS,
                        format!("Incorrect arguments to PURGE BINARY LOGS BEFORE: {value}"),
                    ))
                }
            };
            binlog.purge_before(ts, keep_from).map_err(binlog_err)?;
        }
        // Through the engine: storage's persisted position must move to the
        // new binlog start with the reset, or recovery would skip it.
        Statement::ResetMaster => session.engine.reset_master().map_err(|e| SqlError::internal(e.to_string()))?,
        _ => {}
    }
    Ok(QueryResult::ok(0))
}

/// Rows of an information_schema table.
pub fn information_schema(session: &Session, table: &str) -> SqlResult<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    if let Some(pool_table) = thread_pool_table(table) {
        return Ok(pool_table);
    }
    if let Some(privilege_table) = privilege_table(session, table) {
        return Ok(privilege_table);
    }
    let visibility = session.visibility();
    if let Some(routine_table) = crate::routine_schema::table(&session.engine.catalog.read(), &visibility, table) {
        return Ok(routine_table);
    }
    let table = table.to_ascii_uppercase();
    // Before the catalog is held: a view's columns come from running its
    // query, which reads the catalog itself.
    let views_as_tables = if table == "COLUMNS" { views_as_tables(session) } else { Vec::new() };
    let catalog = session.engine.catalog.read();
    let tables = catalog.all_tables();
    let (names, rows): (&[&str], Vec<Vec<Value>>) = match table.as_str() {
        "SCHEMATA" => (
            &[
                "CATALOG_NAME",
                "SCHEMA_NAME",
                "DEFAULT_CHARACTER_SET_NAME",
                "DEFAULT_COLLATION_NAME",
                "SQL_PATH",
                "SCHEMA_COMMENT",
            ],
            database_names(session)
                .iter()
                .map(|d| {
                    let def = database_def(session, d);
                    let collation = def.collation;
                    vec![
                        s("def"),
                        s(d),
                        s(collation.charset().name()),
                        s(collation.name()),
                        Value::Null,
                        s(&def.comment),
                    ]
                })
                .collect(),
        ),
        "TABLES" => (
            &[
                "TABLE_CATALOG",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "TABLE_TYPE",
                "ENGINE",
                "VERSION",
                "ROW_FORMAT",
                "TABLE_ROWS",
                "AVG_ROW_LENGTH",
                "DATA_LENGTH",
                "MAX_DATA_LENGTH",
                "INDEX_LENGTH",
                "DATA_FREE",
                "AUTO_INCREMENT",
                "CREATE_TIME",
                "UPDATE_TIME",
                "CHECK_TIME",
                "TABLE_COLLATION",
                "CHECKSUM",
                "CREATE_OPTIONS",
                "TABLE_COMMENT",
                "MAX_INDEX_LENGTH",
                "TEMPORARY",
            ],
            tables
                .iter()
                .map(|t| {
                    let mut row = vec![s("def"), s(&t.def.db), s(&t.def.name), s("BASE TABLE")];
                    row.extend(table_status(t));
                    row
                })
                .chain(catalog.all_views().iter().map(|v| {
                    let mut row = vec![s("def"), s(&v.def.db), s(&v.def.name), s("VIEW")];
                    row.extend(view_status());
                    row
                }))
                .collect(),
        ),
        "VIEWS" => (&VIEWS_NAMES, view_rows(&catalog.all_views(), &visibility)),
        "COLUMNS" => (
            &[
                "TABLE_CATALOG",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "COLUMN_NAME",
                "ORDINAL_POSITION",
                "COLUMN_DEFAULT",
                "IS_NULLABLE",
                "DATA_TYPE",
                "CHARACTER_MAXIMUM_LENGTH",
                "CHARACTER_OCTET_LENGTH",
                "NUMERIC_PRECISION",
                "NUMERIC_SCALE",
                "DATETIME_PRECISION",
                "CHARACTER_SET_NAME",
                "COLLATION_NAME",
                "COLUMN_TYPE",
                "COLUMN_KEY",
                "EXTRA",
                "PRIVILEGES",
                "COLUMN_COMMENT",
                "IS_GENERATED",
                "GENERATION_EXPRESSION",
            ],
            tables
                .iter()
                .map(|t| &t.def)
                .chain(&views_as_tables)
                .flat_map(|t| {
                    t.columns
                        .iter()
                        .enumerate()
                        .filter_map(|(i, c)| {
                            let privileges = visibility.column_privileges(&t.db, &t.name, &c.name)?;
                            let mut row = vec![
                                s("def"),
                                s(&t.db),
                                s(&t.name),
                                s(&c.name),
                                Value::Int(i as i64 + 1),
                                default_text(c).map(|d| s(&d)).unwrap_or(Value::Null),
                                s(if c.nullable { "YES" } else { "NO" }),
                            ];
                            row.extend(type_columns(c));
                            row.extend([
                                s(&column_type_text(c)),
                                s(key_kind(t, i)),
                                s(column_extra(c)),
                                s(&privileges),
                                s(&c.comment),
                                s(if c.generated.is_some() { "ALWAYS" } else { "NEVER" }),
                                c.generated.as_ref().map_or(Value::Null, |g| s(&g.expr)),
                            ]);
                            Some(row)
                        })
                        .collect::<Vec<_>>()
                })
                .collect(),
        ),
        "STATISTICS" => (
            &[
                "TABLE_CATALOG",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "NON_UNIQUE",
                "INDEX_SCHEMA",
                "INDEX_NAME",
                "SEQ_IN_INDEX",
                "COLUMN_NAME",
                "COLLATION",
                "CARDINALITY",
                "SUB_PART",
                "PACKED",
                "NULLABLE",
                "INDEX_TYPE",
                "COMMENT",
                "INDEX_COMMENT",
            ],
            tables
                .iter()
                .flat_map(|t| {
                    t.def
                        .indexes
                        .iter()
                        .flat_map(|i| {
                            i.columns
                                .iter()
                                .enumerate()
                                .map(|(seq, &c)| {
                                    vec![
                                        s("def"),
                                        s(&t.def.db),
                                        s(&t.def.name),
                                        Value::Int(i64::from(!i.unique)),
                                        s(&t.def.db),
                                        s(&i.name),
                                        Value::Int(seq as i64 + 1),
                                        s(&t.def.columns[c].name),
                                        s(if i.part(seq).descending { "D" } else { "A" }),
                                        Value::Null,
                                        i.part(seq).prefix_length.map_or(Value::Null, |p| Value::Int(i64::from(p))),
                                        Value::Null,
                                        s(if t.def.columns[c].nullable { "YES" } else { "" }),
                                        s("BTREE"),
                                        s(""),
                                        s(""),
                                    ]
                                })
                                .collect::<Vec<_>>()
                        })
                        .collect::<Vec<_>>()
                })
                .collect(),
        ),
        "ENGINES" => (
            &["ENGINE", "SUPPORT", "COMMENT", "TRANSACTIONS", "XA", "SAVEPOINTS"],
            ENGINES.iter().map(|row| row.iter().map(|v| s(v)).collect()).collect(),
        ),
        "PLUGINS" => (
            &[
                "PLUGIN_NAME",
                "PLUGIN_VERSION",
                "PLUGIN_STATUS",
                "PLUGIN_TYPE",
                "PLUGIN_TYPE_VERSION",
                "PLUGIN_LIBRARY",
                "PLUGIN_LIBRARY_VERSION",
                "PLUGIN_AUTHOR",
                "PLUGIN_DESCRIPTION",
                "PLUGIN_LICENSE",
                "LOAD_OPTION",
                "PLUGIN_MATURITY",
                "PLUGIN_AUTH_VERSION",
            ],
            PLUGINS.iter().map(plugin_row).collect(),
        ),
        "SESSION_VARIABLES" | "GLOBAL_VARIABLES" => {
            let global = table.eq_ignore_ascii_case("GLOBAL_VARIABLES");
            (
                &["VARIABLE_NAME", "VARIABLE_VALUE"],
                vars::VARIABLES
                    .iter()
                    .filter(|d| !global || d.scope != vars::Scope::Session)
                    .map(|d| {
                        vec![s(&d.name.to_ascii_uppercase()), s(&var_value(session, d, global).unwrap_or_default())]
                    })
                    .collect(),
            )
        }
        "GLOBAL_STATUS" | "SESSION_STATUS" => return Ok(status_table(session, &table)),
        "SYSTEM_VARIABLES" => (
            &[
                "VARIABLE_NAME",
                "SESSION_VALUE",
                "GLOBAL_VALUE",
                "GLOBAL_VALUE_ORIGIN",
                "DEFAULT_VALUE",
                "VARIABLE_SCOPE",
                "VARIABLE_TYPE",
                "VARIABLE_COMMENT",
                "NUMERIC_MIN_VALUE",
                "NUMERIC_MAX_VALUE",
                "NUMERIC_BLOCK_SIZE",
                "ENUM_VALUE_LIST",
                "READ_ONLY",
                "COMMAND_LINE_ARGUMENT",
                "GLOBAL_VALUE_PATH",
            ],
            vars::VARIABLES.iter().map(|d| system_variable_row(session, d)).collect(),
        ),
        "PROCESSLIST" => (
            &[
                "ID",
                "USER",
                "HOST",
                "DB",
                "COMMAND",
                "TIME",
                "STATE",
                "INFO",
                "TIME_MS",
                "STAGE",
                "MAX_STAGE",
                "PROGRESS",
                "MEMORY_USED",
                "MAX_MEMORY_USED",
                "EXAMINED_ROWS",
                "QUERY_ID",
                "INFO_BINARY",
                "TID",
            ],
            process_rows(session)
                .into_iter()
                .map(|mut row| {
                    let time_ms = Value::UInt(row[5].to_string().parse::<u64>().unwrap_or(0) * 1000);
                    let info = row[7].clone();
                    let zero = Value::UInt(0);
                    row.extend([time_ms, zero.clone(), zero.clone(), s("0.000"), zero.clone(), zero.clone()]);
                    row.extend([zero.clone(), zero, info, Value::UInt(0)]);
                    row
                })
                .collect(),
        ),
        "APPLICABLE_ROLES" => (
            &["GRANTEE", "ROLE_NAME", "IS_GRANTABLE", "IS_DEFAULT"],
            match session.account.as_ref().and_then(|name| catalog.accounts.get(name)) {
                Some(account) => crate::accounts::roles::applicable_rows(&catalog.accounts, account),
                None => Vec::new(),
            },
        ),
        "ENABLED_ROLES" => {
            (&["ROLE_NAME"], crate::accounts::roles::enabled_rows(&catalog.accounts, session.current_role.as_deref()))
        }
        // Objects OneLog has none of: the tables exist, with MariaDB's
        // columns, so that clients' queries find nothing rather than fail.
        "COLLATIONS" => {
            (&["COLLATION_NAME", "CHARACTER_SET_NAME", "ID", "IS_DEFAULT", "IS_COMPILED", "SORTLEN"], collation_rows())
        }
        "CHARACTER_SETS" => (
            &["CHARACTER_SET_NAME", "DEFAULT_COLLATE_NAME", "DESCRIPTION", "MAXLEN"],
            // SHOW CHARACTER SET's columns, with the second and third swapped.
            charset_rows()
                .into_iter()
                .map(|mut r| {
                    r.swap(1, 2);
                    r
                })
                .collect(),
        ),
        "COLLATION_CHARACTER_SET_APPLICABILITY" => (
            &["COLLATION_NAME", "CHARACTER_SET_NAME", "FULL_COLLATION_NAME", "ID", "IS_DEFAULT"],
            Collation::listed()
                .into_iter()
                .map(|c| {
                    let default = if c.is_default() { "Yes" } else { "" };
                    vec![s(c.name()), s(c.charset().name()), s(c.name()), Value::Int(c.id().into()), s(default)]
                })
                .collect(),
        ),
        "KEY_COLUMN_USAGE" => (
            &[
                "CONSTRAINT_CATALOG",
                "CONSTRAINT_SCHEMA",
                "CONSTRAINT_NAME",
                "TABLE_CATALOG",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "COLUMN_NAME",
                "ORDINAL_POSITION",
                "POSITION_IN_UNIQUE_CONSTRAINT",
                "REFERENCED_TABLE_SCHEMA",
                "REFERENCED_TABLE_NAME",
                "REFERENCED_COLUMN_NAME",
            ],
            tables.iter().flat_map(|t| key_column_usage(&t.def)).collect(),
        ),
        "REFERENTIAL_CONSTRAINTS" => (
            &[
                "CONSTRAINT_CATALOG",
                "CONSTRAINT_SCHEMA",
                "CONSTRAINT_NAME",
                "UNIQUE_CONSTRAINT_CATALOG",
                "UNIQUE_CONSTRAINT_SCHEMA",
                "UNIQUE_CONSTRAINT_NAME",
                "MATCH_OPTION",
                "UPDATE_RULE",
                "DELETE_RULE",
                "TABLE_NAME",
                "REFERENCED_TABLE_NAME",
            ],
            tables.iter().flat_map(|t| referential_constraints(&catalog, &t.def)).collect(),
        ),
        "TABLE_CONSTRAINTS" => (
            &[
                "CONSTRAINT_CATALOG",
                "CONSTRAINT_SCHEMA",
                "CONSTRAINT_NAME",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "CONSTRAINT_TYPE",
            ],
            tables.iter().flat_map(|t| table_constraints(&t.def)).collect(),
        ),
        "CHECK_CONSTRAINTS" => (
            &["CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "TABLE_NAME", "CONSTRAINT_NAME", "LEVEL", "CHECK_CLAUSE"],
            tables
                .iter()
                .flat_map(|t| {
                    t.def.checks.iter().map(|c| {
                        let level = if c.column_level { "Column" } else { "Table" };
                        vec![s("def"), s(&t.def.db), s(&t.def.name), s(&c.name), s(level), s(&c.condition)]
                    })
                })
                .collect(),
        ),
        "TRIGGERS" => (
            &[
                "TRIGGER_CATALOG",
                "TRIGGER_SCHEMA",
                "TRIGGER_NAME",
                "EVENT_MANIPULATION",
                "EVENT_OBJECT_CATALOG",
                "EVENT_OBJECT_SCHEMA",
                "EVENT_OBJECT_TABLE",
                "ACTION_ORDER",
                "ACTION_CONDITION",
                "ACTION_STATEMENT",
                "ACTION_ORIENTATION",
                "ACTION_TIMING",
                "ACTION_REFERENCE_OLD_TABLE",
                "ACTION_REFERENCE_NEW_TABLE",
                "ACTION_REFERENCE_OLD_ROW",
                "ACTION_REFERENCE_NEW_ROW",
                "CREATED",
                "SQL_MODE",
                "DEFINER",
                "CHARACTER_SET_CLIENT",
                "COLLATION_CONNECTION",
                "DATABASE_COLLATION",
            ],
            crate::trigger::sorted_triggers(&catalog, None)
                .iter()
                .filter(|t| visibility.trigger(&t.def.db, &t.def.table))
                .map(|t| {
                    let d = &t.def;
                    let collation = catalog.database(&d.db).map(|d| d.collation).unwrap_or_default().name();
                    let mut row = vec![s("def"), s(&d.db), s(&d.name), s(d.event.name()), s("def"), s(&d.db)];
                    row.extend([s(&d.table), Value::Int(d.action_order.into()), Value::Null, s(&d.body_text)]);
                    row.extend([s("ROW"), s(d.timing.name()), Value::Null, Value::Null, s("OLD"), s("NEW")]);
                    row.extend([s(&d.created), s(&d.sql_mode), s(&format!("{}@{}", d.definer.0, d.definer.1))]);
                    row.extend([s(&d.character_set_client), s(&d.collation_connection), s(collation)]);
                    row
                })
                .collect(),
        ),
        "PARTITIONS" => (
            &[
                "TABLE_CATALOG",
                "TABLE_SCHEMA",
                "TABLE_NAME",
                "PARTITION_NAME",
                "SUBPARTITION_NAME",
                "PARTITION_ORDINAL_POSITION",
                "SUBPARTITION_ORDINAL_POSITION",
                "PARTITION_METHOD",
                "SUBPARTITION_METHOD",
                "PARTITION_EXPRESSION",
                "SUBPARTITION_EXPRESSION",
                "PARTITION_DESCRIPTION",
                "TABLE_ROWS",
                "AVG_ROW_LENGTH",
                "DATA_LENGTH",
                "MAX_DATA_LENGTH",
                "INDEX_LENGTH",
                "DATA_FREE",
                "CREATE_TIME",
                "UPDATE_TIME",
                "CHECK_TIME",
                "CHECKSUM",
                "PARTITION_COMMENT",
                "NODEGROUP",
                "TABLESPACE_NAME",
            ],
            Vec::new(),
        ),
        _ => {
            return Err(SqlError::new(
                ErrorCode::UNKNOWN_TABLE,
                format!("Unknown table '{table}' in information_schema"),
            ))
        }
    };
    let mut rows = rows;
    visibility.filter_rows(names, &mut rows);
    let columns = match table.as_str() {
        "TABLES" => status_columns(names, 4),
        "VIEWS" => schema_columns::columns("VIEWS", &[&VIEWS_COLUMNS]),
        _ => names.iter().map(|n| ResultColumn::text(n)).collect(),
    };
    Ok((columns, rows))
}

/// information_schema.VIEWS's columns.
const VIEWS_COLUMNS: [SchemaColumn; 11] = [
    ("TABLE_CATALOG", Text(512), false),
    ("TABLE_SCHEMA", Text(64), false),
    ("TABLE_NAME", Text(64), false),
    ("VIEW_DEFINITION", LongText, false),
    ("CHECK_OPTION", Text(8), false),
    ("IS_UPDATABLE", Text(3), false),
    ("DEFINER", Text(384), false),
    ("SECURITY_TYPE", Text(7), false),
    ("CHARACTER_SET_CLIENT", Text(32), false),
    ("COLLATION_CONNECTION", Text(64), false),
    ("ALGORITHM", Text(10), false),
];
const VIEWS_NAMES: [&str; 11] = schema_columns::names(&VIEWS_COLUMNS);

/// SHOW TABLE STATUS's columns: the table's name, then what
/// [`table_status`] gives.
const TABLE_STATUS_COLUMNS: [&str; 20] = [
    "Name",
    "Engine",
    "Version",
    "Row_format",
    "Rows",
    "Avg_row_length",
    "Data_length",
    "Max_data_length",
    "Index_length",
    "Data_free",
    "Auto_increment",
    "Create_time",
    "Update_time",
    "Check_time",
    "Collation",
    "Checksum",
    "Create_options",
    "Comment",
    "Max_index_length",
    "Temporary",
];

/// Where the comment is in a [`table_status`] row.
const STATUS_COMMENT: usize = 16;

/// A base table's status from ENGINE to TEMPORARY, as SHOW TABLE STATUS
/// and information_schema.TABLES list it. The storage keeps no row count,
/// sizes or times per table, so those are NULL (documented in the README),
/// not made up.
fn table_status(t: &crate::catalog::TableEntry) -> Vec<Value> {
    let unknown = Value::Null;
    let auto_increment =
        t.def.auto_increment_column().map_or(Value::Null, |_| Value::UInt(*t.auto_increment_next.lock()));
    let mut row = vec![s(&t.def.engine), Value::Int(10), s("Dynamic")];
    // Rows, Avg_row_length, Data_length, Max_data_length, Index_length, Data_free.
    row.extend(std::iter::repeat_n(unknown.clone(), 6));
    row.push(auto_increment);
    // Create_time, Update_time, Check_time.
    row.extend(std::iter::repeat_n(unknown.clone(), 3));
    row.extend([s(t.def.collation.name()), Value::Null, s(""), s(&t.def.comment), unknown, s("N")]);
    row
}

/// The columns of SHOW TABLE STATUS (`names` = TABLE_STATUS_COLUMNS, one
/// naming column) or information_schema.TABLES (four), typed as MariaDB's
/// TABLES fields: the naming columns NOT NULL text, counts and sizes
/// BIGINT UNSIGNED, times DATETIME, the comment NOT NULL.
fn status_columns(names: &[&str], naming_columns: usize) -> Vec<ResultColumn> {
    const COUNTS: [usize; 10] = [1, 3, 4, 5, 6, 7, 8, 9, 14, 17];
    const TIMES: [usize; 3] = [10, 11, 12];
    // Text lengths in characters, from ENGINE on (0: not text).
    const TEXT_CHARS: [u32; 19] = [64, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 2048, 2048, 0, 1];
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (ty, nullable) = match i.checked_sub(naming_columns) {
                None if i == 0 && naming_columns == 4 => (ColumnType::VarChar(512), false),
                None => (ColumnType::VarChar(64), false),
                Some(k) if COUNTS.contains(&k) => (ColumnType::BigInt, true),
                Some(k) if TIMES.contains(&k) => (ColumnType::DateTime { fsp: 0 }, true),
                Some(k) => (ColumnType::VarChar(TEXT_CHARS.get(k).copied().unwrap_or(64)), k != STATUS_COMMENT),
            };
            let mut def = ColumnDef::new(name, ty);
            def.nullable = nullable;
            if def.ty == ColumnType::BigInt {
                def.unsigned = true;
                def.display_width = Some(21);
            }
            let mut column = ResultColumn::named(name, def);
            (column.db, column.table, column.org_table) =
                ("information_schema".into(), "TABLES".into(), "TABLES".into());
            column
        })
        .collect()
}

/// A view's status from ENGINE to TEMPORARY: all NULL but the comment.
fn view_status() -> Vec<Value> {
    let mut row = vec![Value::Null; TABLE_STATUS_COLUMNS.len() - 1];
    row[STATUS_COMMENT] = s("VIEW");
    row
}

/// information_schema.USER_ / SCHEMA_ / TABLE_ / COLUMN_PRIVILEGES, with
/// MariaDB's column types.
fn privilege_table(session: &Session, table: &str) -> Option<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    use crate::accounts::schema_privileges;
    let name = table.to_ascii_uppercase();
    let columns = schema_privileges::columns(&name)?;
    // Without SELECT on mysql a session sees its own account's grants.
    let sees_all = session.visibility().has_db_privilege("mysql", privs::SELECT);
    let viewer = session.account.as_ref().filter(|_| !sees_all);
    let rows = schema_privileges::rows(&session.engine.catalog.read().accounts, viewer, &name);
    let columns = columns.iter().map(|(column, chars)| field(&name, column, *chars).result_column()).collect();
    Some((columns, rows))
}

/// information_schema.THREAD_POOL_GROUPS / QUEUES / STATS / WAITS, with
/// MariaDB's column types; empty without the pool, as in MariaDB.
fn thread_pool_table(table: &str) -> Option<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    let name = table.to_ascii_uppercase();
    let int = |column: &'static str, len: u32| field("", column, len).integer(len);
    let (columns, rows): (Vec<ShowColumn>, _) = match name.as_str() {
        "THREAD_POOL_GROUPS" => (
            ["GROUP_ID", "CONNECTIONS", "THREADS", "ACTIVE_THREADS", "STANDBY_THREADS", "QUEUE_LENGTH"]
                .into_iter()
                .map(|c| int(c, 6))
                .chain([int("HAS_LISTENER", 1), int("IS_STALLED", 1)])
                .collect(),
            thread_pool_group_rows(false),
        ),
        "THREAD_POOL_QUEUES" => (
            vec![
                int("GROUP_ID", 6),
                int("POSITION", 6),
                int("PRIORITY", 1),
                int("CONNECTION_ID", 19).unsigned(),
                int("QUEUEING_TIME_MICROSECONDS", 19),
            ],
            thread_pool_queue_rows(),
        ),
        "THREAD_POOL_STATS" => (
            std::iter::once(int("GROUP_ID", 6))
                .chain(
                    [
                        "THREAD_CREATIONS",
                        "THREAD_CREATIONS_DUE_TO_STALL",
                        "WAKES",
                        "WAKES_DUE_TO_STALL",
                        "THROTTLES",
                        "STALLS",
                        "POLLS_BY_LISTENER",
                        "POLLS_BY_WORKER",
                        "DEQUEUES_BY_LISTENER",
                        "DEQUEUES_BY_WORKER",
                    ]
                    .into_iter()
                    .map(|c| int(c, 19)),
                )
                .collect(),
            thread_pool_group_rows(true),
        ),
        "THREAD_POOL_WAITS" => (
            vec![field("", "REASON", 16), int("COUNT", 19)],
            crate::wait::pool_waits().into_iter().map(|(reason, n)| vec![s(reason), Value::Int(n as i64)]).collect(),
        ),
        _ => return None,
    };
    let columns = columns.iter().map(|c| ShowColumn { is_table: &name, ..*c }.result_column()).collect();
    Some((columns, rows))
}

/// A row per group of information_schema.THREAD_POOL_GROUPS (or, with
/// `stats`, THREAD_POOL_STATS): empty without the pool, as in MariaDB.
fn thread_pool_group_rows(stats: bool) -> Vec<Vec<Value>> {
    let groups = crate::wait::pool().map(|p| p.groups()).unwrap_or_default();
    (groups.into_iter().enumerate())
        .map(|(id, (g, st))| {
            let numbers = if stats {
                vec![
                    st.thread_creations,
                    st.thread_creations_due_to_stall,
                    st.wakes,
                    st.wakes_due_to_stall,
                    st.throttles,
                    st.stalls,
                    st.polls_by_listener,
                    st.polls_by_worker,
                    st.dequeues_by_listener,
                    st.dequeues_by_worker,
                ]
            } else {
                vec![
                    g.connections,
                    g.threads,
                    g.active_threads,
                    g.standby_threads,
                    g.queue_length,
                    g.has_listener.into(),
                    g.is_stalled.into(),
                ]
            };
            std::iter::once(id as u64).chain(numbers).map(|n| Value::Int(n as i64)).collect()
        })
        .collect()
}

fn thread_pool_queue_rows() -> Vec<Vec<Value>> {
    let queued = crate::wait::pool().map(|p| p.queues()).unwrap_or_default();
    let int = |n: u64| Value::Int(n as i64);
    queued
        .into_iter()
        .map(|q| {
            vec![
                int(q.group_id),
                int(q.position),
                int(q.priority),
                Value::UInt(q.connection_id),
                int(q.queueing_time_us),
            ]
        })
        .collect()
}

/// The collations OneLog implements, as SHOW COLLATION and
/// information_schema.COLLATIONS list them.
fn collation_rows() -> Vec<Vec<Value>> {
    Collation::listed()
        .into_iter()
        .map(|c| {
            let default = if c.is_default() { "Yes" } else { "" };
            vec![
                s(c.name()),
                s(c.charset().name()),
                Value::Int(c.id().into()),
                s(default),
                s("Yes"),
                Value::UInt(c.sortlen().into()),
            ]
        })
        .collect()
}

/// The charsets OneLog implements, as SHOW CHARACTER SET and
/// information_schema.CHARACTER_SETS list them.
fn charset_rows() -> Vec<Vec<Value>> {
    Charset::ALL
        .iter()
        .map(|cs| {
            vec![s(cs.name()), s(cs.description()), s(cs.default_collation().name()), Value::UInt(cs.mbmaxlen().into())]
        })
        .collect()
}
