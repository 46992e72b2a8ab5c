//! System variables: the catalogue of known variables with their defaults
//! and scopes, global values, and validation of SET.

use crate::ast::VarScope;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use parking_lot::RwLock;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Session,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int,
    /// Seconds with a fraction (`max_statement_time`), shown with six
    /// decimals as MariaDB does.
    Seconds,
    Str,
    /// A comma-separated `flag=on|off` set (`optimizer_switch`): SET
    /// changes the flags it names and keeps the others, as in MariaDB.
    Flags,
    ReadOnly,
}

pub struct VarDef {
    pub name: &'static str,
    pub default: &'static str,
    pub scope: Scope,
    pub kind: Kind,
}

macro_rules! vars {
    ($($name:literal = $default:literal, $scope:ident, $kind:ident;)*) => {
        /// Every system variable OneLog knows, sorted by name.
        pub static VARIABLES: &[VarDef] = &[$(VarDef { name: $name, default: $default, scope: Scope::$scope, kind: Kind::$kind },)*];
    };
}

vars! {
    "auto_increment_increment" = "1", Both, Int;
    "auto_increment_offset" = "1", Both, Int;
    "autocommit" = "1", Both, Bool;
    "basedir" = "/usr", Global, ReadOnly;
    "big_tables" = "0", Both, Bool;
    "bind_address" = "127.0.0.1", Global, ReadOnly;
    "binlog_cache_size" = "32768", Global, Int;
    "binlog_checksum" = "CRC32", Global, Str;
    "binlog_expire_logs_seconds" = "0", Global, Int;
    "binlog_format" = "ROW", Both, Str;
    "binlog_group_commit_sync_delay" = "0", Global, Int;
    "binlog_group_commit_sync_no_delay_count" = "0", Global, Int;
    "binlog_preallocate_size" = "67108864", Global, Int;
    "binlog_row_event_max_size" = "8192", Global, ReadOnly;
    "binlog_row_image" = "FULL", Both, Str;
    "binlog_row_metadata" = "FULL", Global, Str;
    "binlog_sync_method" = "fdatasync", Global, Str;
    "character_set_client" = "utf8mb4", Both, Str;
    "character_set_connection" = "utf8mb4", Both, Str;
    "character_set_database" = "utf8mb4", Both, Str;
    "character_set_filesystem" = "binary", Both, Str;
    "character_set_results" = "utf8mb4", Both, Str;
    "character_set_server" = "utf8mb4", Both, Str;
    "character_set_system" = "utf8mb3", Global, ReadOnly;
    "collation_connection" = "utf8mb4_general_ci", Both, Str;
    "collation_database" = "utf8mb4_general_ci", Both, Str;
    "collation_server" = "utf8mb4_general_ci", Both, Str;
    "connect_timeout" = "10", Global, Int;
    "datadir" = "", Global, ReadOnly;
    "default_storage_engine" = "InnoDB", Both, Str;
    "default_week_format" = "0", Both, Int;
    "div_precision_increment" = "4", Both, Int;
    "error_count" = "0", Session, ReadOnly;
    "expire_logs_days" = "0", Global, Int;
    "explicit_defaults_for_timestamp" = "1", Both, Bool;
    "foreign_key_checks" = "1", Both, Bool;
    "group_concat_max_len" = "1048576", Both, Int;
    "gtid_binlog_pos" = "", Global, ReadOnly;
    "gtid_current_pos" = "", Global, ReadOnly;
    "gtid_domain_id" = "0", Both, Int;
    "gtid_strict_mode" = "0", Global, Bool;
    "have_ssl" = "DISABLED", Global, ReadOnly;
    "hostname" = "localhost", Global, ReadOnly;
    "init_connect" = "", Global, Str;
    "innodb_buffer_pool_size" = "134217728", Global, Int;
    "innodb_flush_log_at_trx_commit" = "1", Global, Int;
    "innodb_lock_wait_timeout" = "50", Both, Int;
    "interactive_timeout" = "28800", Both, Int;
    "last_insert_id" = "0", Session, Int;
    "license" = "Apache-2.0", Global, ReadOnly;
    "local_infile" = "0", Global, Bool;
    "lock_wait_timeout" = "86400", Both, Int;
    "log_bin" = "1", Global, ReadOnly;
    "log_bin_basename" = "", Global, ReadOnly;
    "lower_case_table_names" = "0", Global, ReadOnly;
    "max_allowed_packet" = "16777216", Both, Int;
    // Shown with MariaDB's 64-bit defaults (mtr reads the stmt cache's to pick
    // its result files); OneLog keeps a transaction's events in one session
    // cache that these do not bound: accepted, no effect (docs/variables.md).
    "max_binlog_cache_size" = "18446744073709547520", Global, Int;
    "max_binlog_size" = "1073741824", Global, Int;
    "max_binlog_stmt_cache_size" = "18446744073709547520", Global, Int;
    "max_connections" = "1024", Global, Int;
    "max_execution_time" = "0", Both, Int;
    "max_recursive_iterations" = "1000", Both, Int;
    "max_statement_time" = "0.000000", Both, Seconds;
    "net_buffer_length" = "16384", Both, Int;
    "net_read_timeout" = "30", Both, Int;
    "net_write_timeout" = "60", Both, Int;
    "old_passwords" = "0", Both, Int;
    // MariaDB 10.11's flags, accepted and shown; OneLog's planner has its own.
    "optimizer_switch" = "index_merge=on,index_merge_union=on,index_merge_sort_union=on,index_merge_intersection=on,index_merge_sort_intersection=off,engine_condition_pushdown=off,index_condition_pushdown=on,derived_merge=on,derived_with_keys=on,firstmatch=on,loosescan=on,materialization=on,in_to_exists=on,semijoin=on,partial_match_rowid_merge=on,partial_match_table_scan=on,subquery_cache=on,mrr=off,mrr_cost_based=off,mrr_sort_keys=off,outer_join_with_cache=on,semijoin_with_cache=on,join_cache_incremental=on,join_cache_hashed=on,join_cache_bka=on,optimize_join_buffer_size=on,table_elimination=on,extended_keys=on,exists_to_in=on,orderby_uses_equalities=on,condition_pushdown_for_derived=on,split_materialized=on,condition_pushdown_for_subquery=on,rowid_filter=on,condition_pushdown_from_having=on,not_null_range_scan=off,hash_join_cardinality=off,cset_narrowing=off", Both, Flags;
    "performance_schema" = "0", Global, ReadOnly;
    "pid_file" = "", Global, ReadOnly;
    "port" = "3306", Global, ReadOnly;
    "protocol_version" = "10", Global, ReadOnly;
    "query_cache_size" = "0", Global, Int;
    "query_cache_type" = "OFF", Both, Str;
    "read_only" = "0", Global, Bool;
    "server_id" = "1", Global, Int;
    "skip_name_resolve" = "1", Global, ReadOnly;
    "skip_networking" = "0", Global, ReadOnly;
    "socket" = "", Global, ReadOnly;
    "sql_auto_is_null" = "0", Both, Bool;
    "sql_log_bin" = "1", Session, Bool;
    "sql_mode" = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION", Both, Str;
    "sql_notes" = "1", Both, Bool;
    "sql_quote_show_create" = "1", Both, Bool;
    "sql_safe_updates" = "0", Both, Bool;
    "sql_select_limit" = "18446744073709551615", Both, Int;
    "sql_warnings" = "0", Both, Bool;
    "storage_engine" = "InnoDB", Both, Str;
    "sync_binlog" = "1", Global, Int;
    "system_time_zone" = "UTC", Global, ReadOnly;
    "table_open_cache" = "2000", Global, Int;
    "thread_cache_size" = "256", Global, Int;
    "time_zone" = "SYSTEM", Both, Str;
    "timestamp" = "0", Session, Int;
    "transaction_isolation" = "REPEATABLE-READ", Both, Str;
    "transaction_read_only" = "0", Both, Bool;
    "tx_isolation" = "REPEATABLE-READ", Both, Str;
    "tx_read_only" = "0", Both, Bool;
    "unique_checks" = "1", Both, Bool;
    "version" = "10.11.99-MariaDB-OneLog", Global, ReadOnly;
    "version_comment" = "OneLog: the binlog is the only log", Global, ReadOnly;
    "version_compile_machine" = "x86_64", Global, ReadOnly;
    "version_compile_os" = "Linux", Global, ReadOnly;
    "wait_timeout" = "28800", Both, Int;
    "warning_count" = "0", Session, ReadOnly;
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

/// Renders a value as a variable's stored text, validating it.
pub fn normalize(def: &VarDef, value: &Value) -> SqlResult<String> {
    let text = match value {
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let wrong = || {
        SqlError::new(
            ErrorCode::WRONG_VALUE_FOR_VAR,
            format!("Variable '{}' can't be set to the value of '{}'", def.name, text),
        )
    };
    match def.kind {
        Kind::Bool => match text.to_ascii_uppercase().as_str() {
            "1" | "ON" | "TRUE" => Ok("1".into()),
            "0" | "OFF" | "FALSE" => Ok("0".into()),
            _ => Err(wrong()),
        },
        Kind::Int => {
            let n: i128 = text.trim().parse().map_err(|_| {
                SqlError::new(
                    ErrorCode::WRONG_TYPE_FOR_VAR,
                    format!("Incorrect argument type to variable '{}'", def.name),
                )
            })?;
            Ok(n.max(0).to_string())
        }
        Kind::Seconds => {
            let seconds = text.trim().parse::<f64>().ok().filter(|s| s.is_finite()).ok_or_else(|| {
                SqlError::new(
                    ErrorCode::WRONG_TYPE_FOR_VAR,
                    format!("Incorrect argument type to variable '{}'", def.name),
                )
            })?;
            Ok(format!("{:.6}", seconds.clamp(0.0, crate::kill::MAX_STATEMENT_TIME_S)))
        }
        Kind::Str => {
            if def.name.ends_with("isolation") {
                crate::ast::IsolationLevel::from_name(&text).map(|l| l.name().to_string()).ok_or_else(wrong)
            } else {
                Ok(text)
            }
        }
        Kind::Flags => Ok(text),
        Kind::ReadOnly => Err(SqlError::new(
            ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR,
            format!("Variable '{}' is a read only variable", def.name),
        )),
    }
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
        // Read-only variables are numeric when their value is (port, log_bin).
        Kind::Bool | Kind::Int | Kind::ReadOnly => text
            .parse::<i64>()
            .map(Value::Int)
            .or_else(|_| text.parse::<u64>().map(Value::UInt))
            .unwrap_or_else(|_| Value::from_str(text)),
        Kind::Seconds => text.parse::<f64>().map(Value::Double).unwrap_or_else(|_| Value::from_str(text)),
        _ => Value::from_str(text),
    }
}

/// Global variable values (text form), initialised from defaults and the
/// server's options.
pub struct GlobalVars {
    values: RwLock<BTreeMap<&'static str, String>>,
}

impl Default for GlobalVars {
    fn default() -> Self {
        GlobalVars { values: RwLock::new(VARIABLES.iter().map(|v| (v.name, v.default.to_string())).collect()) }
    }
}

impl GlobalVars {
    pub fn get(&self, name: &str) -> Option<String> {
        let def = lookup(name)?;
        self.values.read().get(def.name).cloned()
    }

    /// Sets from server options (read-only variables allowed).
    pub fn set_startup(&self, name: &str, value: &str) -> Result<(), String> {
        let def = lookup(name).ok_or_else(|| format!("unknown variable '{name}={value}'"))?;
        let text = if def.kind == Kind::ReadOnly {
            value.to_string()
        } else {
            normalize(def, &Value::from_str(value)).map_err(|e| e.message)?
        };
        self.values.write().insert(def.name, text);
        Ok(())
    }

    pub fn set(&self, def: &'static VarDef, text: String) {
        self.values.write().insert(def.name, text);
    }

    pub fn int(&self, name: &str) -> u64 {
        self.get(name).and_then(|v| v.parse().ok()).unwrap_or(0)
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

/// Where `SET` of a variable in `scope` is allowed.
pub fn check_scope(def: &VarDef, scope: VarScope) -> SqlResult<()> {
    let err = |what: &str| {
        SqlError::new(
            ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR,
            format!("Variable '{}' is a {what} variable and should be set with SET GLOBAL", def.name),
        )
    };
    match (def.scope, scope) {
        (Scope::Global, VarScope::Session) | (Scope::Global, VarScope::Default) => Err(err("GLOBAL")),
        (Scope::Session, VarScope::Global) => Err(SqlError::new(
            ErrorCode::INCORRECT_GLOBAL_LOCAL_VAR,
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
        for v in VARIABLES {
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
}
