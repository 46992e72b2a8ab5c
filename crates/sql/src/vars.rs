//! System variables: the catalogue of known variables with their defaults
//! and scopes, global values, and validation of SET.

use crate::ast::VarScope;
use crate::time_zone::{unknown_time_zone, TimeZone};
use crate::typing::SystemVarType;
use onelog_core::{Charset, Collation, ErrorCode, SqlError, SqlResult, Value};
use parking_lot::RwLock;
use std::collections::BTreeMap;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Session,
    Both,
}

/// How SET validates a value, from MariaDB's VARIABLE_TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// An integer clamped to the variable's range.
    Int,
    /// A number with a fraction (`max_statement_time`), shown with six
    /// decimals as MariaDB does.
    Double,
    /// One name of [`VarDef::values`], or its index.
    Enum,
    /// Names of [`VarDef::values`] joined by commas, or a bit mask.
    Set,
    /// A comma-separated `flag=on|off` set (`optimizer_switch`): SET
    /// changes the flags it names and keeps the others, as in MariaDB.
    Flags,
    Str,
}

/// What a variable does in OneLog, for docs/variables.md and the start-up
/// log. `Used`, `Startup` and `Reported` are set by hand in [`ONELOG`] after checking
/// that the code reads (or computes) the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// OneLog's code reads the value and behaves by it.
    Used,
    /// Read once at start-up: a later SET GLOBAL changes the value shown,
    /// not what the running server does.
    Startup,
    /// A read-only value that describes OneLog (version, warning_count).
    Reported,
    /// Accepted and shown as MariaDB does; changes nothing in OneLog.
    None,
}

pub struct VarDef {
    pub name: &'static str,
    /// Stored text of the compiled-in value (`1`/`0` for booleans).
    pub default: &'static str,
    /// MariaDB shows no DEFAULT_VALUE (computed values such as `version`).
    pub default_is_null: bool,
    pub scope: Scope,
    pub kind: Kind,
    pub read_only: bool,
    /// MariaDB's VARIABLE_TYPE (`BIGINT UNSIGNED`, `ENUM`, ...).
    pub type_name: &'static str,
    pub min: Option<&'static str>,
    pub max: Option<&'static str>,
    pub block_size: Option<&'static str>,
    /// ENUM_VALUE_LIST: the names an ENUM, SET or BOOLEAN accepts.
    pub values: Option<&'static str>,
    pub command_line: Option<&'static str>,
    pub comment: &'static str,
    /// Warning 1287 that a SET of the variable gives in MariaDB.
    pub deprecation: Option<&'static str>,
    pub effect: Effect,
}

/// What VERSION() and @@version say.
pub use onelog_core::SERVER_VERSION;

/// MariaDB 10.11's variables (tests/tools/gen_variables.py writes the file).
const MARIADB_TSV: &str = include_str!("vars/mariadb_10_11.tsv");
/// OneLog's variables that MariaDB lacks, in the same columns.
const ONELOG_ONLY_TSV: &str = include_str!("vars/onelog_only.tsv");

/// OneLog's own values and what each variable it acts on does: name, the
/// default where OneLog's differs from MariaDB's, the effect, and a kind
/// where OneLog validates differently. Every variable not listed here is
/// [`Effect::None`].
#[rustfmt::skip]
static ONELOG: &[(&str, Option<&str>, Effect, Option<Kind>)] = &[
    ("autocommit", None, Effect::Used, None),
    // OneLog has no Aria engine, for temporary tables or any other.
    ("aria_used_for_temp_tables", Some("0"), Effect::Reported, None),
    ("basedir", Some("/usr"), Effect::Reported, None),
    ("bind_address", Some("127.0.0.1"), Effect::Used, None),
    // OneLog logs rows only: other formats are accepted and change nothing.
    ("binlog_format", Some("ROW"), Effect::None, None),
    // A transaction's binlog events past it go to a temporary file under
    // tmpdir (onelog_binlog::cache), as MariaDB's binlog cache does.
    ("binlog_cache_size", None, Effect::Used, None),
    ("binlog_checksum", None, Effect::Startup, None),
    ("binlog_expire_logs_seconds", None, Effect::Used, None),
    ("binlog_group_commit_sync_delay", None, Effect::Used, None),
    ("binlog_group_commit_sync_no_delay_count", None, Effect::Used, None),
    ("binlog_preallocate_size", None, Effect::Used, None),
    ("binlog_row_event_max_size", None, Effect::Reported, None),
    ("binlog_row_metadata", Some("FULL"), Effect::Reported, None),
    ("binlog_sync_method", None, Effect::Used, None),
    // Statement text arrives in character_set_client and results leave in
    // character_set_results (latin1 and utf8mb3 are converted, see
    // Session::client_charset); character_set_connection decides which
    // COLLATE a string literal accepts.
    ("character_set_client", None, Effect::Used, None),
    ("character_set_connection", None, Effect::Used, None),
    ("character_set_results", None, Effect::Used, None),
    ("character_set_system", Some("utf8mb3"), Effect::Reported, None),
    // A database created without a charset takes the session's server
    // collation (logged with the statement, so replays agree); USE sets
    // the database pair to the database's (see Session::use_database).
    ("character_set_server", None, Effect::Used, None),
    ("collation_server", None, Effect::Used, None),
    ("character_set_database", None, Effect::Used, None),
    ("collation_database", None, Effect::Used, None),
    ("collation_connection", None, Effect::Used, None),
    ("check_constraint_checks", None, Effect::Used, None),
    ("connect_timeout", None, Effect::Used, None),
    // Off: FOREIGN KEY constraints are neither checked nor cascaded, and
    // the statement's events say so to a replica (see `foreign_key`).
    ("foreign_key_checks", None, Effect::Used, None),
    ("datadir", None, Effect::Used, None),
    // The engine a CREATE TABLE without ENGINE= names (a temporary one:
    // default_tmp_storage_engine when set). Every table is OneLog's
    // engine; the name decides what MariaDB's would do differently
    // (TableDef::is_transactional), and a name other than InnoDB is
    // logged with the statement so that a replay names the same engine.
    ("default_storage_engine", None, Effect::Used, None),
    ("default_tmp_storage_engine", None, Effect::Used, None),
    ("storage_engine", None, Effect::Used, None),
    ("error_count", Some("0"), Effect::Reported, None),
    ("expire_logs_days", None, Effect::Used, None),
    ("group_concat_max_len", None, Effect::Used, None),
    ("gtid_binlog_pos", Some(""), Effect::Reported, None),
    ("gtid_current_pos", Some(""), Effect::Reported, None),
    ("gtid_domain_id", None, Effect::Startup, None),
    // OneLog has none of these features (COMPRESS(), ENCRYPT(), plugins,
    // GEOMETRY, OpenSSL, profiling, the query cache, R-tree keys, symlinked
    // tables): MariaDB's YES would make clients and tests rely on them.
    // TLS is rustls: have_ssl is YES unless --skip-ssl, have_openssl NO,
    // as MariaDB shows a build on another TLS library.
    ("have_compress", Some("NO"), Effect::Reported, None),
    ("have_crypt", Some("NO"), Effect::Reported, None),
    ("have_dynamic_loading", Some("NO"), Effect::Reported, None),
    ("have_geometry", Some("NO"), Effect::Reported, None),
    ("have_openssl", Some("NO"), Effect::Reported, None),
    ("have_profiling", Some("NO"), Effect::Reported, None),
    ("have_query_cache", Some("NO"), Effect::Reported, None),
    ("have_rtree_keys", Some("NO"), Effect::Reported, None),
    ("have_ssl", Some("DISABLED"), Effect::Reported, None),
    ("have_symlink", Some("NO"), Effect::Reported, None),
    ("hostname", Some("localhost"), Effect::Reported, None),
    // Documented alias of sync_binlog: 1 syncs every group, 0 and 2 do not.
    ("innodb_flush_log_at_trx_commit", None, Effect::Used, None),
    ("innodb_lock_wait_timeout", None, Effect::Used, None),
    ("in_transaction", Some("0"), Effect::Reported, None),
    // The storage engine's page cache (redb's read cache and write
    // buffer): what bounds the memory a scan of a big table takes. OneLog's
    // default is redb's, 1 GiB; MariaDB's is 128 MiB.
    ("innodb_buffer_pool_size", Some("1073741824"), Effect::Startup, None),
    ("interactive_timeout", None, Effect::Used, None),
    ("last_insert_id", None, Effect::Reported, None),
    ("license", Some("Apache-2.0"), Effect::Reported, None),
    // LOAD DATA LOCAL is refused (4166) while OFF (see `load_data`).
    ("local_infile", None, Effect::Used, None),
    ("large_files_support", Some("1"), Effect::Reported, None),
    ("lock_wait_timeout", None, Effect::Used, None),
    ("log_bin", Some("1"), Effect::Used, None),
    ("log_bin_basename", Some(""), Effect::Reported, None),
    ("lower_case_file_system", Some("0"), Effect::Reported, None),
    ("lower_case_table_names", None, Effect::Reported, None),
    ("max_allowed_packet", None, Effect::Used, None),
    // A transaction's binlog events past it fail the statement with 1197.
    ("max_binlog_cache_size", None, Effect::Used, None),
    ("max_binlog_size", None, Effect::Used, None),
    // Enforced at accept and after login (crates/server/src/limits.rs).
    ("max_connect_errors", None, Effect::Used, None),
    ("max_connections", Some("1024"), Effect::Used, None),
    ("max_execution_time", None, Effect::Used, None),
    // With tmp_table_size: the memory of a GROUP BY's groups (crate::stream).
    ("max_heap_table_size", None, Effect::Used, None),
    // Bounds each session's PREPARE statements (MariaDB counts server-wide).
    ("max_prepared_stmt_count", None, Effect::Used, None),
    ("max_recursive_iterations", None, Effect::Used, None),
    ("max_statement_time", None, Effect::Used, None),
    ("max_user_connections", None, Effect::Used, None),
    ("net_write_timeout", None, Effect::Used, None),
    ("performance_schema", None, Effect::Reported, None),
    ("port", Some("3306"), Effect::Used, None),
    ("protocol_version", Some("10"), Effect::Reported, None),
    ("query_cache_size", Some("0"), Effect::None, None),
    // Refuses changes (1290) to accounts without READ ONLY ADMIN; the
    // replication applier and temporary tables are not affected.
    ("read_only", None, Effect::Used, None),
    ("require_secure_transport", None, Effect::Used, None),
    // Confines LOAD DATA's server-side files to a directory ('' : anywhere).
    ("secure_file_priv", None, Effect::Used, None),
    ("server_id", None, Effect::Startup, None),
    ("skip_name_resolve", Some("1"), Effect::Reported, None),
    ("skip_networking", None, Effect::Reported, None),
    ("socket", None, Effect::Used, None),
    // A SET of MariaDB's mode names; a combination mode (ANSI,
    // TRADITIONAL...) brings the modes it stands for (`expand_sql_mode`).
    ("sql_mode", None, Effect::Used, None),
    // ODBC's `auto_increment_column IS NULL` after an INSERT (see
    // `select::substitute_auto_is_null`).
    ("sql_auto_is_null", None, Effect::Used, None),
    // An ORDER BY no index gives, and GROUP BY, sort this much in memory
    // and the rest in files under tmpdir (crate::sort).
    ("sort_buffer_size", None, Effect::Used, None),
    // TLS (crates/server/src/tls.rs), read at start-up and by FLUSH SSL.
    ("ssl_ca", None, Effect::Startup, None),
    ("ssl_cert", None, Effect::Startup, None),
    ("ssl_cipher", None, Effect::Startup, None),
    ("ssl_key", None, Effect::Startup, None),
    ("sync_binlog", Some("1"), Effect::Used, None),
    ("system_time_zone", Some("UTC"), Effect::Reported, None),
    // NOW(), FROM_UNIXTIME(), UNIX_TIMESTAMP(expr), CONVERT_TZ(), TIMESTAMP columns (crate::time_zone).
    ("time_zone", None, Effect::Used, None),
    // The server's thread pool (crates/server/src/thread_pool.rs); the
    // size is read at start-up, the others by the pool's timer each tick.
    // The thread cache of one-thread-per-connection (crates/server/src/thread_cache.rs).
    ("thread_cache_size", None, Effect::Used, None),
    ("thread_handling", None, Effect::Used, None),
    ("thread_pool_idle_timeout", None, Effect::Used, None),
    ("thread_pool_max_lock_waiters", None, Effect::Used, None),
    ("thread_pool_max_threads", None, Effect::Used, None),
    ("thread_pool_oversubscribe", None, Effect::Used, None),
    ("thread_pool_priority", None, Effect::Used, None),
    ("thread_pool_size", None, Effect::Startup, None),
    ("thread_pool_stall_limit", None, Effect::Used, None),
    ("tls_version", None, Effect::Startup, None),
    // A GROUP BY keeps groups in memory up to the lesser of this and
    // max_heap_table_size, and sorts the rows of later groups
    // (crate::stream); its alias tmp_memory_table_size is kept apart.
    ("tmp_table_size", None, Effect::Used, None),
    // Where sorts write their runs; the server's start sets it from TMPDIR.
    ("tmpdir", None, Effect::Used, None),
    ("transaction_isolation", None, Effect::Used, None),
    ("tx_isolation", None, Effect::Used, None),
    ("version", Some(SERVER_VERSION), Effect::Reported, None),
    ("version_comment", Some("OneLog: the binlog is the only log"), Effect::Reported, None),
    ("version_compile_machine", Some("x86_64"), Effect::Reported, None),
    ("version_compile_os", Some("Linux"), Effect::Reported, None),
    ("version_ssl_library", Some("rustls 0.23"), Effect::Reported, None),
    ("wait_timeout", None, Effect::Used, None),
    ("warning_count", Some("0"), Effect::Reported, None),
];

/// Every system variable OneLog knows, sorted by name.
pub static VARIABLES: LazyLock<Vec<VarDef>> = LazyLock::new(catalogue);

fn catalogue() -> Vec<VarDef> {
    let mut defs: Vec<VarDef> = MARIADB_TSV.lines().chain(ONELOG_ONLY_TSV.lines()).filter_map(parse_row).collect();
    defs.sort_by(|a, b| a.name.cmp(b.name));
    defs.dedup_by(|later, earlier| later.name == earlier.name);
    for (name, default, effect, kind) in ONELOG {
        if let Ok(i) = defs.binary_search_by(|d| d.name.cmp(name)) {
            let def = &mut defs[i];
            def.default = default.unwrap_or(def.default);
            def.effect = *effect;
            def.kind = kind.unwrap_or(def.kind);
        }
    }
    defs
}

/// One line of a variables file; `None` for comments. The files are
/// compiled in and checked by a unit test, so a short line is skipped
/// rather than reported.
fn parse_row(line: &'static str) -> Option<VarDef> {
    if line.starts_with('#') || line.is_empty() {
        return None;
    }
    let f: Vec<&'static str> = line.split('\t').collect();
    let [name, scope, type_name, default, min, max, block_size, values, read_only, command_line, comment, deprecation] =
        f[..]
    else {
        return None;
    };
    let null = |v: &'static str| (v != "\\N").then_some(v);
    let kind = match type_name {
        "BOOLEAN" => Kind::Bool,
        "DOUBLE" => Kind::Double,
        "ENUM" if values != "\\N" => Kind::Enum,
        "SET" => Kind::Set,
        "FLAGSET" => Kind::Flags,
        t if t.contains("INT") => Kind::Int,
        _ => Kind::Str,
    };
    let default = match (kind, default) {
        (Kind::Bool, "ON") => "1",
        (Kind::Bool, "OFF") => "0",
        (_, "\\N") => "",
        (_, d) => d,
    };
    Some(VarDef {
        name,
        default,
        default_is_null: null(f[3]).is_none(),
        scope: match scope {
            "GLOBAL" => Scope::Global,
            "SESSION ONLY" => Scope::Session,
            _ => Scope::Both,
        },
        kind,
        read_only: read_only == "YES",
        type_name,
        min: null(min),
        max: null(max),
        block_size: null(block_size),
        values: null(values),
        command_line: null(command_line),
        comment,
        deprecation: null(deprecation),
        effect: Effect::None,
    })
}

/// Variables removed from MySQL/MariaDB that old my.cnf files still carry,
/// with what to do about each.
pub static REMOVED: &[(&str, &str)] = &[
    ("key_buffer", "renamed: use key_buffer_size"),
    ("thread_concurrency", "removed in MySQL 5.7 and MariaDB 10.5: delete the line"),
    ("log_slow_queries", "renamed: use slow_query_log"),
    ("table_cache", "renamed: use table_open_cache"),
    ("innodb_additional_mem_pool_size", "removed in MySQL 5.7: delete the line"),
    ("default_table_type", "renamed: use default_storage_engine"),
];

impl VarDef {
    /// How a read of the variable is typed, `value` being what it holds
    /// now (a string's type is as long as it is).
    pub fn read_type(&self, value: &Value) -> SystemVarType {
        match self.type_name {
            "BOOLEAN" => SystemVarType::Boolean,
            "DOUBLE" => SystemVarType::Double,
            "BIGINT" | "INT" => SystemVarType::Integer { unsigned: false },
            "BIGINT UNSIGNED" | "INT UNSIGNED" => SystemVarType::Integer { unsigned: true },
            _ => {
                let chars = if value.is_null() { 0 } else { value.to_string().chars().count() };
                SystemVarType::Text { chars: u32::try_from(chars).unwrap_or(u32::MAX) }
            }
        }
    }
}

/// The variable `name` spells, in any case and with `-` for `_` (option
/// files write `max-connections`). Sessions look variables up on every
/// statement, so this searches without allocating.
pub fn lookup(name: &str) -> Option<&'static VarDef> {
    let spelled = || name.bytes().map(|b| if b == b'-' { b'_' } else { b.to_ascii_lowercase() });
    VARIABLES.binary_search_by(|v| v.name.bytes().cmp(spelled())).ok().map(|i| &VARIABLES[i])
}

pub fn unknown_variable(name: &str) -> SqlError {
    SqlError::new(ErrorCode::UNKNOWN_SYSTEM_VARIABLE, format!("Unknown system variable '{name}'"))
}

/// The variables that name a storage engine: an engine MariaDB 10.11 has,
/// stored as MariaDB spells it (`heap` is MEMORY), else 1286.
const ENGINE_VARS: [&str; 3] = ["default_storage_engine", "storage_engine", "default_tmp_storage_engine"];

/// A SET value's stored text, and the 1292 warning when it was clamped.
pub struct Checked {
    pub text: String,
    pub warning: Option<SqlError>,
}

/// Validates a value for SET as MariaDB does: numbers are clamped to the
/// variable's range (warning 1292, or 1231 when `strict_all` — MariaDB's
/// STRICT_ALL_TABLES), names must be among the variable's values (1231),
/// and a value of the wrong type gives 1232.
pub fn normalize(def: &VarDef, value: &Value, strict_all: bool) -> SqlResult<Checked> {
    if def.read_only {
        return Err(read_only(def));
    }
    let plain = |text: String| Ok(Checked { text, warning: None });
    if ENGINE_VARS.contains(&def.name) {
        return match value {
            Value::Null if def.name == "default_tmp_storage_engine" => plain(String::new()),
            Value::Null => Err(wrong_value(def, "NULL")),
            Value::Bytes(b) => plain(onelog_core::schema::engine_name(&String::from_utf8_lossy(b))?),
            _ => Err(wrong_type(def)),
        };
    }
    if def.name == "time_zone" {
        return match value {
            Value::Null => Err(wrong_value(def, "NULL")),
            Value::Bytes(b) => time_zone_name(&String::from_utf8_lossy(b)).map(plain)?,
            _ => Err(wrong_type(def)),
        };
    }
    match (def.kind, value) {
        (Kind::Int, Value::Int(_) | Value::UInt(_)) => clamp_int(def, &value.to_string(), strict_all),
        (Kind::Double, Value::Int(_) | Value::UInt(_) | Value::Double(_) | Value::Decimal(_)) => {
            clamp_double(def, &value.to_string(), strict_all)
        }
        (Kind::Int | Kind::Double, _) => Err(wrong_type(def)),
        (Kind::Bool | Kind::Enum | Kind::Set, Value::Double(_) | Value::Decimal(_)) => Err(wrong_type(def)),
        (Kind::Bool | Kind::Enum | Kind::Set, Value::Null) => Err(wrong_value(def, "NULL")),
        (Kind::Bool | Kind::Enum | Kind::Set, _) => {
            name_or_number(def, &value.to_string()).map(|text| Checked { text, warning: None })
        }
        (Kind::Str | Kind::Flags, Value::Null) => plain(String::new()),
        (Kind::Str | Kind::Flags, other) => plain(other.to_string()),
    }
}

/// Validates a value given at start-up (my.cnf or the command line), where
/// every value is text: numbers may carry MariaDB's K/M/G/T/P/E suffixes,
/// and booleans are also spelled ON/OFF/TRUE/FALSE. Returns the stored text
/// and, when a number was clamped, what to log.
pub fn normalize_option(def: &VarDef, text: &str) -> Result<Checked, SqlError> {
    if def.name == "time_zone" {
        return time_zone_name(text).map(|text| Checked { text, warning: None });
    }
    if ENGINE_VARS.contains(&def.name) {
        return onelog_core::schema::engine_name(text).map(|text| Checked { text, warning: None });
    }
    match def.kind {
        Kind::Int => {
            let n = with_suffix(text).ok_or_else(|| wrong_value(def, text))?;
            clamp_int(def, &n.to_string(), false)
        }
        Kind::Double => clamp_double(def, text, false),
        Kind::Bool | Kind::Enum | Kind::Set => name_or_number(def, text).map(|text| Checked { text, warning: None }),
        Kind::Str | Kind::Flags => Ok(Checked { text: text.to_string(), warning: None }),
    }
}

/// `text` as a number with an optional binary-multiple suffix (`256M`).
fn with_suffix(text: &str) -> Option<i128> {
    let text = text.trim();
    let shift = match text.chars().last()?.to_ascii_uppercase() {
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        'P' => 50,
        'E' => 60,
        _ => return text.parse().ok(),
    };
    let digits: i128 = text[..text.len() - 1].parse().ok()?;
    digits.checked_mul(1i128 << shift)
}

fn clamp_int(def: &VarDef, text: &str, strict_all: bool) -> SqlResult<Checked> {
    let n: i128 = text.trim().parse().map_err(|_| wrong_type(def))?;
    let bound = |b: Option<&str>, fallback: i128| b.and_then(|b| b.parse().ok()).unwrap_or(fallback);
    let (min, max) = (bound(def.min, i128::MIN), bound(def.max, i128::MAX));
    let block = bound(def.block_size, 1).max(1);
    let clamped = n.clamp(min, max);
    // MariaDB rounds down to a multiple of the block size, within the range.
    let clamped = (clamped - clamped.rem_euclid(block)).max(min);
    truncated(def, text, clamped != n, clamped.to_string(), strict_all)
}

fn clamp_double(def: &VarDef, text: &str, strict_all: bool) -> SqlResult<Checked> {
    let x = text.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| wrong_type(def))?;
    let bound = |b: Option<&str>, fallback: f64| b.and_then(|b| b.parse().ok()).unwrap_or(fallback);
    let clamped = x.clamp(bound(def.min, f64::MIN), bound(def.max, f64::MAX));
    truncated(def, text, clamped != x, format!("{clamped:.6}"), strict_all)
}

fn truncated(def: &VarDef, given: &str, changed: bool, text: String, strict_all: bool) -> SqlResult<Checked> {
    if !changed {
        return Ok(Checked { text, warning: None });
    }
    if strict_all {
        return Err(wrong_value(def, given));
    }
    let warning =
        SqlError::new(ErrorCode::TRUNCATED_WRONG_VALUE, format!("Truncated incorrect {} value: '{given}'", def.name));
    Ok(Checked { text, warning: Some(warning) })
}

/// A BOOLEAN, ENUM or SET value given by name(s) or by number: an ENUM's
/// index, a SET's bit mask, a BOOLEAN's 0 or 1. Stored as the names,
/// spelled as the variable's value list spells them.
fn name_or_number(def: &VarDef, text: &str) -> SqlResult<String> {
    if def.name == "sql_mode" {
        let names = set_names(def, text)?;
        return set_names(def, &expand_sql_mode(&names));
    }
    set_names(def, text)
}

/// The modes each combination mode stands for (MariaDB's expand_sql_mode).
const SQL_MODE_COMBINATIONS: [(&str, &str); 9] = [
    ("ANSI", "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE"),
    (
        "TRADITIONAL",
        "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,\
         NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION",
    ),
    (
        "ORACLE",
        "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,\
         NO_AUTO_CREATE_USER,SIMULTANEOUS_ASSIGNMENT",
    ),
    ("POSTGRESQL", "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS"),
    ("MSSQL", "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS"),
    ("DB2", "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS"),
    (
        "MAXDB",
        "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,\
         NO_AUTO_CREATE_USER",
    ),
    ("MYSQL323", "HIGH_NOT_PRECEDENCE"),
    ("MYSQL40", "HIGH_NOT_PRECEDENCE"),
];

/// `modes` (canonical names, comma-separated) with the modes their
/// combination modes stand for added.
fn expand_sql_mode(modes: &str) -> String {
    let mut expanded = modes.to_string();
    for mode in modes.split(',') {
        if let Some((_, adds)) = SQL_MODE_COMBINATIONS.iter().find(|(name, _)| *name == mode) {
            expanded.push(',');
            expanded.push_str(adds);
        }
    }
    expanded
}

/// A BOOLEAN, ENUM or SET value given by name(s) or number, in its
/// canonical spelling (a SET's names in declaration order).
fn set_names(def: &VarDef, text: &str) -> SqlResult<String> {
    if def.kind == Kind::Bool {
        return match text.trim().to_ascii_uppercase().as_str() {
            "1" | "ON" | "TRUE" => Ok("1".into()),
            "0" | "OFF" | "FALSE" => Ok("0".into()),
            _ => Err(wrong_value(def, text)),
        };
    }
    let names: Vec<&str> = def.values.unwrap_or("").split(',').collect();
    let find = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name.trim()));
    if let Ok(n) = text.trim().parse::<u64>() {
        let picked: Option<Vec<&str>> = match def.kind {
            Kind::Enum => usize::try_from(n).ok().and_then(|i| names.get(i)).map(|name| vec![*name]),
            _ => (names.len() >= 64 || n >> names.len() == 0)
                .then(|| names.iter().enumerate().filter(|(i, _)| n >> i & 1 == 1).map(|(_, name)| *name).collect()),
        };
        return picked.map(|p| p.join(",")).ok_or_else(|| wrong_value(def, text));
    }
    if def.kind == Kind::Enum {
        return find(text).map(|i| names[i].to_string()).ok_or_else(|| wrong_value(def, text));
    }
    let mut chosen = vec![false; names.len()];
    for item in text.split(',').filter(|i| !i.trim().is_empty()) {
        chosen[find(item).ok_or_else(|| wrong_value(def, item))?] = true;
    }
    Ok(names.iter().zip(chosen).filter(|(_, on)| *on).map(|(n, _)| *n).collect::<Vec<_>>().join(","))
}

/// The character set and collation variables that come in pairs: setting
/// one sets the other (the charset's default collation, or the
/// collation's charset), as MariaDB does.
const CHARSET_PAIRS: [(&str, &str); 3] = [
    ("character_set_server", "collation_server"),
    ("character_set_database", "collation_database"),
    ("character_set_connection", "collation_connection"),
];

/// What setting a character set or collation variable to `text` (a name,
/// or a collation's number) sets: the variable and its pair's other half,
/// checked (1115 unknown charset, 1273 unknown collation, 1231 for NULL).
/// Empty for every other variable.
pub fn charset_settings(def: &VarDef, text: &str) -> SqlResult<Vec<(&'static str, String)>> {
    let by_id = || text.parse::<u16>().ok().and_then(Collation::from_id);
    if def.name.starts_with("character_set_") && def.name != "character_set_system" {
        if text.is_empty() {
            return match def.name {
                "character_set_results" => Ok(vec![(def.name, String::new())]),
                _ => Err(wrong_value(def, "NULL")),
            };
        }
        let charset = Charset::named(text).or_else(|| by_id().map(Collation::charset)).ok_or_else(|| {
            SqlError::new(ErrorCode::UNKNOWN_CHARACTER_SET, format!("Unknown character set: '{text}'"))
        })?;
        let mut out = vec![(def.name, charset.name().to_string())];
        if let Some((_, collation_var)) = CHARSET_PAIRS.iter().find(|(c, _)| *c == def.name) {
            out.push((collation_var, charset.default_collation().name().to_string()));
        }
        return Ok(out);
    }
    if let Some((charset_var, collation_var)) = CHARSET_PAIRS.iter().find(|(_, c)| *c == def.name) {
        if text.is_empty() {
            return Err(wrong_value(def, "NULL"));
        }
        let collation = Collation::named(text)
            .or_else(by_id)
            .ok_or_else(|| SqlError::new(ErrorCode::UNKNOWN_COLLATION, format!("Unknown collation: '{text}'")))?;
        return Ok(vec![
            (collation_var, collation.name().to_string()),
            (charset_var, collation.charset().name().to_string()),
        ]);
    }
    Ok(Vec::new())
}

/// `time_zone` as `@@time_zone` shows it (`+5:00` is `+05:00`, `system` is
/// `SYSTEM`); an unknown zone is error 1298.
fn time_zone_name(text: &str) -> SqlResult<String> {
    TimeZone::parse(text).map(|zone| zone.name()).ok_or_else(|| unknown_time_zone(text))
}

fn wrong_value(def: &VarDef, text: &str) -> SqlError {
    SqlError::new(
        ErrorCode::WRONG_VALUE_FOR_VAR,
        format!("Variable '{}' can't be set to the value of '{text}'", def.name),
    )
}

fn wrong_type(def: &VarDef) -> SqlError {
    SqlError::new(ErrorCode::WRONG_TYPE_FOR_VAR, format!("Incorrect argument type to variable '{}'", def.name))
}

fn read_only(def: &VarDef) -> SqlError {
    SqlError::new(ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR, format!("Variable '{}' is a read only variable", def.name))
}

/// A [`Kind::Flags`] variable after `SET name = assignment`: each `flag=on`,
/// `flag=off` or `flag=default` of the comma-separated assignment changes
/// that flag of `current`; a lone `default` first resets them all.
pub fn merge_flags(def: &VarDef, current: &str, assignment: &str) -> SqlResult<String> {
    let wrong = || {
        SqlError::new(
            ErrorCode::WRONG_VALUE_FOR_VAR,
            format!("Variable '{}' can't be set to the value of '{assignment}'", def.name),
        )
    };
    let parse = |list: &str| -> Vec<(String, String)> {
        list.split(',')
            .filter_map(|f| {
                f.split_once('=').map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_ascii_lowercase()))
            })
            .collect()
    };
    let defaults = parse(def.default);
    let mut flags = parse(current);
    for item in assignment.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if item.eq_ignore_ascii_case("default") {
            flags.clone_from(&defaults);
            continue;
        }
        let (name, value) = item.split_once('=').ok_or_else(wrong)?;
        let name = name.trim().to_ascii_lowercase();
        let value = match value.trim().to_ascii_lowercase().as_str() {
            "on" | "off" => value.trim().to_ascii_lowercase(),
            "default" => defaults.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone()).ok_or_else(wrong)?,
            _ => return Err(wrong()),
        };
        let slot = flags.iter_mut().find(|(k, _)| *k == name).ok_or_else(wrong)?;
        slot.1 = value;
    }
    Ok(flags.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","))
}

/// Typed value of a variable's text, as SELECT @@var returns it.
pub fn typed(def: &VarDef, text: &str) -> Value {
    match def.kind {
        Kind::Bool | Kind::Int => text
            .parse::<i64>()
            .map(Value::Int)
            .or_else(|_| text.parse::<u64>().map(Value::UInt))
            .unwrap_or_else(|_| Value::from_str(text)),
        // Stored with MariaDB's six decimals, which a DECIMAL keeps when sent.
        Kind::Double => {
            text.parse::<onelog_core::decimal::Decimal>().map(Value::Decimal).unwrap_or_else(|_| Value::from_str(text))
        }
        _ => Value::from_str(text),
    }
}

/// Global variable values (text form), initialised from defaults and the
/// server's options.
pub struct GlobalVars {
    values: RwLock<BTreeMap<&'static str, String>>,
    /// GLOBAL_VALUE_ORIGIN of the variables not at their compiled-in value.
    origins: RwLock<BTreeMap<&'static str, &'static str>>,
}

impl Default for GlobalVars {
    fn default() -> Self {
        GlobalVars {
            values: RwLock::new(VARIABLES.iter().map(|v| (v.name, v.default.to_string())).collect()),
            origins: RwLock::default(),
        }
    }
}

impl GlobalVars {
    pub fn get(&self, name: &str) -> Option<String> {
        let def = lookup(name)?;
        self.values.read().get(def.name).cloned()
    }

    /// Sets from server options (read-only variables allowed). Returns
    /// the warning to log when a number was clamped to its range.
    pub fn set_startup(&self, name: &str, value: &str) -> Result<Option<String>, String> {
        let def = lookup(name).ok_or_else(|| format!("unknown variable '{name}={value}'"))?;
        let checked = normalize_option(def, value).map_err(|e| e.message)?;
        let mut settings = charset_settings(def, &checked.text).map_err(|e| e.message)?;
        if settings.is_empty() {
            settings.push((def.name, checked.text));
        }
        // A session with no database selected sees the server's.
        let server_collation = settings.iter().find(|(n, _)| *n == "collation_server").map(|(_, c)| c.clone());
        if let (Some(collation), Some(database)) = (server_collation, lookup("collation_database")) {
            settings.extend(charset_settings(database, &collation).map_err(|e| e.message)?);
        }
        for (name, text) in settings {
            self.values.write().insert(name, text);
            // Options from my.cnf and the command line are merged before
            // they get here; MariaDB would say CONFIG for the former.
            self.origins.write().insert(name, "COMMAND-LINE");
        }
        Ok(checked.warning.map(|w| w.message))
    }

    /// SET GLOBAL.
    pub fn set(&self, def: &'static VarDef, text: String) {
        self.values.write().insert(def.name, text);
        self.origins.write().insert(def.name, "SQL");
    }

    /// MariaDB counts connections per account only when started with a
    /// `max_user_connections`, and then refuses to change it from 0
    /// (error 1290). OneLog always counts, but keeps the rule: a my.cnf
    /// that works with one works with the other. Until a SET succeeds
    /// (origin SQL) the value is the startup's.
    pub fn check_settable(&self, def: &VarDef) -> SqlResult<()> {
        if def.name == "max_user_connections" && self.origin(def.name) != "SQL" && self.int(def.name) == 0 {
            return Err(SqlError::new(
                ErrorCode::OPTION_PREVENTS_STATEMENT,
                "The MariaDB server is running with the --max-user-connections=0 option so it cannot execute this statement",
            ));
        }
        Ok(())
    }

    /// Where the global value came from, as SYSTEM_VARIABLES shows it.
    pub fn origin(&self, name: &str) -> &'static str {
        self.origins.read().get(name).copied().unwrap_or("COMPILE-TIME")
    }

    /// A numeric variable's value, whole part only (`expire_logs_days` is
    /// a DOUBLE).
    pub fn int(&self, name: &str) -> u64 {
        let text = self.get(name).unwrap_or_default();
        text.parse().ok().or_else(|| text.parse::<f64>().ok().map(|x| x.max(0.0) as u64)).unwrap_or(0)
    }

    /// A new session's variables: the current global value of every
    /// variable with a session scope, as MySQL copies them at connect (a
    /// later SET GLOBAL changes new sessions only).
    pub fn session_copy(&self) -> BTreeMap<&'static str, String> {
        let values = self.values.read();
        VARIABLES
            .iter()
            .filter(|v| v.scope == Scope::Both)
            .filter_map(|v| Some((v.name, values.get(v.name)?.clone())))
            .collect()
    }

    pub fn all(&self) -> Vec<(&'static str, String)> {
        self.values.read().iter().map(|(k, v)| (*k, v.clone())).collect()
    }
}

/// Where `SET` of a variable in `scope` is allowed: 1229 for a global-only
/// variable set for the session, 1228 for a session-only one set globally.
/// The variables MariaDB marks NO_SET_STATEMENT (those of its 10.11 that
/// OneLog knows, and `transaction_isolation`, `tx_isolation`'s alias): a
/// statement cannot set them for itself.
const NO_SET_STATEMENT: [&str; 14] = [
    "autocommit",
    "character_set_client",
    "character_set_connection",
    "character_set_filesystem",
    "collation_connection",
    "interactive_timeout",
    "profiling",
    "profiling_history_size",
    "query_cache_type",
    "skip_replication",
    "sql_log_off",
    "transaction_isolation",
    "tx_isolation",
    "wait_timeout",
];

/// Error 1971 for a variable `SET STATEMENT ... FOR` cannot set.
pub fn check_set_statement(def: &VarDef) -> SqlResult<()> {
    if NO_SET_STATEMENT.contains(&def.name) {
        return Err(SqlError::new(
            ErrorCode::SET_STATEMENT_NOT_SUPPORTED,
            format!("The system variable {} cannot be set in SET STATEMENT.", def.name),
        ));
    }
    Ok(())
}

pub fn check_scope(def: &VarDef, scope: VarScope) -> SqlResult<()> {
    match (def.scope, scope) {
        _ if def.read_only => Err(read_only(def)),
        // Shown with both scopes, but MariaDB refuses a global value for it.
        (_, VarScope::Global) if def.name == "sql_log_bin" => Err(SqlError::new(
            ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR,
            format!("Variable '{}' is a SESSION variable", def.name),
        )),
        (Scope::Global, VarScope::Session) | (Scope::Global, VarScope::Default) => Err(SqlError::new(
            ErrorCode::GLOBAL_VARIABLE,
            format!("Variable '{}' is a GLOBAL variable and should be set with SET GLOBAL", def.name),
        )),
        (Scope::Session, VarScope::Global) => Err(SqlError::new(
            ErrorCode::LOCAL_VARIABLE,
            format!("Variable '{}' is a SESSION variable and can't be used with SET GLOBAL", def.name),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_sorted_for_lookup() {
        assert!(VARIABLES.windows(2).all(|w| w[0].name < w[1].name));
        for v in VARIABLES.iter() {
            assert!(lookup(v.name).is_some_and(|d| std::ptr::eq(d, v)), "{}", v.name);
        }
    }

    #[test]
    fn lookup_ignores_case_and_dashes() {
        assert_eq!(lookup("Max-Connections").map(|d| d.name), Some("max_connections"));
        assert_eq!(lookup("SQL_MODE").map(|d| d.name), Some("sql_mode"));
        assert!(lookup("key_buffer").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn session_copy_holds_the_current_globals() {
        let globals = GlobalVars::default();
        globals.set_startup("wait_timeout", "5").expect("valid");
        let copy = globals.session_copy();
        assert_eq!(copy.get("wait_timeout").map(String::as_str), Some("5"));
        assert!(!copy.contains_key("sync_binlog"), "global-only variables stay global");
        assert!(!copy.contains_key("last_insert_id"), "session-only variables start from their defaults");
    }

    #[test]
    fn catalogue_has_every_mariadb_variable_once() {
        let rows = MARIADB_TSV.lines().filter(|l| !l.starts_with('#')).count();
        let extra = ONELOG_ONLY_TSV.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(VARIABLES.len(), rows + extra, "a short line or a duplicate name");
        assert!(VARIABLES.len() > 600);
        for text in [MARIADB_TSV, ONELOG_ONLY_TSV] {
            // Values are used as written: no escapes but \N.
            assert!(!text.replace("\\N", "").contains('\\'));
        }
        for (name, ..) in ONELOG {
            assert!(lookup(name).is_some(), "{name} is in ONELOG but not in the data");
        }
        assert_eq!(lookup("join_cache_level").map(|d| (d.kind, d.scope)), Some((Kind::Int, Scope::Both)));
        assert_eq!(lookup("sync_binlog").map(|d| (d.default, d.effect)), Some(("1", Effect::Used)));
        assert_eq!(lookup("innodb_log_file_size").map(|d| d.effect), Some(Effect::None));
        assert!(lookup("version").is_some_and(|d| d.read_only && d.default_is_null));
        assert!(lookup("big_tables").is_some_and(|d| d.deprecation.is_some()));
        assert!(lookup("sort_buffer_size").is_some_and(|d| d.deprecation.is_none()));
    }

    fn set(name: &str, value: Value) -> SqlResult<Checked> {
        normalize(lookup(name).expect("known"), &value, false)
    }

    fn code(r: SqlResult<Checked>) -> u16 {
        r.err().map_or(0, |e| e.code.number)
    }

    #[test]
    fn integers_clamp_to_their_range_with_a_warning() {
        let low = set("sort_buffer_size", Value::Int(1)).expect("clamped");
        assert_eq!(low.text, "1024");
        let warning = low.warning.expect("warned");
        assert_eq!(warning.code.number, 1292);
        assert_eq!(warning.message, "Truncated incorrect sort_buffer_size value: '1'");
        assert_eq!(set("join_cache_level", Value::Int(-1)).map(|c| c.text).ok().as_deref(), Some("0"));
        assert!(set("join_cache_level", Value::Int(4)).is_ok_and(|c| c.text == "4" && c.warning.is_none()));
        let strict = normalize(lookup("join_cache_level").expect("known"), &Value::Int(99), true);
        assert_eq!(code(strict), 1231);
        assert_eq!(code(set("join_cache_level", Value::from_str("1"))), 1232);
        assert_eq!(code(set("join_cache_level", Value::Double(1.5))), 1232);
        assert_eq!(code(set("join_cache_level", Value::Null)), 1232);
    }

    #[test]
    fn enums_sets_and_booleans_take_names_or_numbers() {
        let text = |name, v| set(name, v).map(|c| c.text).unwrap_or_else(|e| e.code.number.to_string());
        assert_eq!(text("alter_algorithm", Value::Int(2)), "INPLACE");
        assert_eq!(text("alter_algorithm", Value::from_str("copy")), "COPY");
        assert_eq!(text("alter_algorithm", Value::Int(9)), "1231");
        assert_eq!(text("alter_algorithm", Value::from_str("x")), "1231");
        assert_eq!(text("alter_algorithm", Value::Null), "1231");
        assert_eq!(text("old_mode", Value::Int(3)), "NO_DUP_KEY_WARNINGS_WITH_IGNORE,NO_PROGRESS_INFO");
        assert_eq!(
            text("old_mode", Value::from_str("zero_date_time_cast,no_progress_info")),
            "NO_PROGRESS_INFO,ZERO_DATE_TIME_CAST"
        );
        assert_eq!(text("old_mode", Value::from_str("")), "");
        assert_eq!(text("old_mode", Value::from_str("no_progress_info,bad")), "1231");
        assert_eq!(text("big_tables", Value::from_str("on")), "1");
        assert_eq!(text("big_tables", Value::Int(2)), "1231");
        assert_eq!(text("big_tables", Value::Double(1.0)), "1232");
        assert_eq!(text("long_query_time", Value::Double(1.5)), "1.500000");
        assert_eq!(text("long_query_time", Value::from_str("1")), "1232");
    }

    #[test]
    fn scope_and_read_only_errors_are_mariadbs() {
        let check = |name, scope| check_scope(lookup(name).expect("known"), scope).err().map_or(0, |e| e.code.number);
        assert_eq!(check("innodb_buffer_pool_size", VarScope::Session), 1229);
        assert_eq!(check("last_insert_id", VarScope::Global), 1228);
        assert_eq!(check("warning_count", VarScope::Global), 1238);
        assert_eq!(check("version", VarScope::Global), 1238);
        assert_eq!(check("join_cache_level", VarScope::Global), 0);
        assert_eq!(check("sql_log_bin", VarScope::Global), 1238);
    }

    #[test]
    fn options_take_suffixes_and_clamp() {
        let opt = |name, text| normalize_option(lookup(name).expect("known"), text).map(|c| c.text).ok();
        assert_eq!(opt("innodb_buffer_pool_size", "256M").as_deref(), Some("268435456"));
        assert_eq!(opt("sort_buffer_size", "1").as_deref(), Some("1024"));
        assert_eq!(opt("innodb_log_file_size", "1G").as_deref(), Some("1073741824"));
        assert_eq!(opt("big_tables", "ON").as_deref(), Some("1"));
        assert_eq!(opt("max_connections", "lots"), None);
    }

    /// Groups of docs/variables.md, by name prefix; the first match wins.
    const DOC_GROUPS: &[(&str, &[&str])] = &[
        ("InnoDB", &["innodb_"]),
        ("Aria", &["aria_"]),
        ("MyISAM and the key cache", &["myisam_", "key_", "concurrent_insert", "delay_key_write"]),
        (
            "Optimizer",
            &[
                "optimizer_",
                "join_",
                "eq_range_",
                "range_",
                "in_predicate_",
                "histogram_",
                "use_stat_tables",
                "expensive_subquery_",
                "rowid_merge_",
                "max_join_size",
                "max_seeks_for_key",
                "max_sort_length",
                "sort_buffer_size",
                "read_buffer_size",
                "read_rnd_buffer_size",
                "mrr_buffer_size",
                "max_heap_table_size",
                "tmp_",
                "big_tables",
                "analyze_",
            ],
        ),
        (
            "Replication, binlog and GTID",
            &[
                "binlog_",
                "log_bin",
                "log_slave",
                "master_",
                "slave_",
                "relay_",
                "replicate_",
                "gtid_",
                "rpl_",
                "sync_",
                "read_binlog_",
                "max_binlog_",
                "expire_logs_",
                "encrypt_binlog",
                "server_id",
                "report_",
                "init_slave",
                "skip_slave",
                "log_replica",
                "max_relay_",
            ],
        ),
        ("Galera (wsrep)", &["wsrep_"]),
        ("Performance schema", &["performance_schema"]),
        (
            "Thread pool and connections",
            &[
                "thread_",
                "max_connect",
                "extra_",
                "back_log",
                "connect_",
                "max_user_connections",
                "net_",
                "wait_timeout",
                "interactive_timeout",
            ],
        ),
        ("Logs", &["log_", "general_log", "slow_", "long_query_time", "min_examined_row_limit", "sql_log_"]),
        ("Character sets and collations", &["character_set_", "collation_"]),
    ];

    fn doc_group(name: &str) -> &'static str {
        DOC_GROUPS.iter().find(|(_, prefixes)| prefixes.iter().any(|p| name.starts_with(p))).map_or("Other", |(g, _)| g)
    }

    /// docs/variables.md, rendered from the catalogue.
    fn variables_doc() -> String {
        let names = |effect| {
            VARIABLES.iter().filter(|d| d.effect == effect).map(|d| format!("`{}`", d.name)).collect::<Vec<_>>()
        };
        let mut doc = String::from(
            "# System variables in OneLog\n\n\
             Generated from the catalogue in `crates/sql/src/vars.rs` (MariaDB 10.11's variables from\n\
             `crates/sql/src/vars/mariadb_10_11.tsv`, OneLog's from `onelog_only.tsv` and `vars::ONELOG`);\n\
             regenerate with `ONELOG_WRITE_DOCS=1 cargo test -p onelog-sql --lib variables_doc`.\n\n\
             OneLog knows every system variable a stock MariaDB 10.11 shows, with MariaDB's scope, type,\n\
             range, value list and default (where OneLog's differs, OneLog's is shown). SET checks values\n\
             as MariaDB does. Most variables tune parts of MariaDB that OneLog does not have (InnoDB's\n\
             buffer pool, Aria, the optimizer's join cache, Galera): OneLog accepts them, shows the value\n\
             set, and changes nothing. The server's log says so once at start-up for those given in\n\
             my.cnf or on the command line.\n\n",
        );
        doc += &format!(
            "## Used by OneLog ({})\n\nOneLog's code reads these and behaves by them:\n\n{}\n\n",
            names(Effect::Used).len(),
            names(Effect::Used).join(", ")
        );
        doc += "### time_zone\n\n\
                 `SYSTEM` (the default) is `system_time_zone`, UTC. Besides `SYSTEM` and `+HH:MM` offsets\n\
                 (-12:59 to +13:00, as MariaDB), OneLog knows every IANA zone name (`Europe/Berlin`) from\n\
                 the zone data compiled in (chrono-tz): MariaDB knows them only after\n\
                 `mariadb-tzinfo-to-sql` filled the `mysql.time_zone*` tables, which OneLog does not read.\n\
                 A local time in a DST gap is the first second after the gap, one in an overlap the earlier\n\
                 instant, as in MariaDB. `--default-time-zone` sets the global value. NOW() and the other\n\
                 clock functions, FROM_UNIXTIME(), UNIX_TIMESTAMP(expr) and CONVERT_TZ() follow the zone.\n\
                 TIMESTAMP columns hold UTC instants (storage, index keys, binlog row images) and read and\n\
                 write in the session zone, as in MariaDB; DATETIME columns keep their wall clock.\n\n";
        doc += &format!(
            "## Read at start-up ({})\n\nOneLog reads these when it starts; SET GLOBAL changes the value shown, not the \
             running server:\n\n{}\n\n",
            names(Effect::Startup).len(),
            names(Effect::Startup).join(", ")
        );
        doc += &format!(
            "## Reported ({})\n\nRead-only values that describe OneLog:\n\n{}\n\n",
            names(Effect::Reported).len(),
            names(Effect::Reported).join(", ")
        );
        let none: Vec<&VarDef> = VARIABLES.iter().filter(|d| d.effect == Effect::None).collect();
        doc += &format!("## Accepted, no effect in OneLog ({})\n", none.len());
        for group in DOC_GROUPS.iter().map(|(g, _)| *g).chain(["Other"]) {
            let members: Vec<String> =
                none.iter().filter(|d| doc_group(d.name) == group).map(|d| format!("`{}`", d.name)).collect();
            if !members.is_empty() {
                doc += &format!("\n### {group} ({})\n\n{}\n", members.len(), members.join(", "));
            }
        }
        doc
    }

    #[test]
    fn variables_doc_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/variables.md");
        if std::env::var_os("ONELOG_WRITE_DOCS").is_some() {
            std::fs::write(path, variables_doc()).expect("docs/variables.md is writable");
        }
        let written = std::fs::read_to_string(path).unwrap_or_default();
        assert!(written == variables_doc(), "docs/variables.md is stale: rerun with ONELOG_WRITE_DOCS=1");
    }
}
