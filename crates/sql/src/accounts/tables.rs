//! The columns and rows of the grant tables of the `mysql` database
//! (`user`, `global_priv`, `db`, `tables_priv`, `columns_priv`,
//! `roles_mapping`) as MariaDB 10.11 shows them to the tools that read
//! them, computed from the account store; `crate::system_tables` serves
//! them as read-only tables.

use super::privs;
use super::store::{Account, AccountStore, TableGrant};
use crate::ast::account::{AuthPlugin, Require, LIMIT_NAMES, MAX_CONNECTIONS_PER_HOUR, MAX_USER_CONNECTIONS};
use onelog_core::{Temporal, Value};

/// mysql.user's `*_priv` columns, one per global privilege bit from
/// SELECT (bit 0) to DELETE HISTORY (bit 29).
const USER_PRIV_COLUMNS: [&str; 30] = [
    "Select",
    "Insert",
    "Update",
    "Delete",
    "Create",
    "Drop",
    "Reload",
    "Shutdown",
    "Process",
    "File",
    "Grant",
    "References",
    "Index",
    "Alter",
    "Show_db",
    "Super",
    "Create_tmp_table",
    "Lock_tables",
    "Execute",
    "Repl_slave",
    "Repl_client",
    "Create_view",
    "Show_view",
    "Create_routine",
    "Alter_routine",
    "Create_user",
    "Event",
    "Trigger",
    "Create_tablespace",
    "Delete_history",
];

/// mysql.db's `*_priv` columns in the table's order, with their bits.
const DB_PRIV_COLUMNS: [(&str, u64); 20] = [
    ("Select", privs::SELECT),
    ("Insert", privs::INSERT),
    ("Update", privs::UPDATE),
    ("Delete", privs::DELETE),
    ("Create", privs::CREATE),
    ("Drop", privs::DROP),
    ("Grant", privs::GRANT),
    ("References", privs::REFERENCES),
    ("Index", privs::INDEX),
    ("Alter", privs::ALTER),
    ("Create_tmp_table", privs::CREATE_TEMPORARY_TABLES),
    ("Lock_tables", privs::LOCK_TABLES),
    ("Create_view", privs::CREATE_VIEW),
    ("Show_view", privs::SHOW_VIEW),
    ("Create_routine", privs::CREATE_ROUTINE),
    ("Alter_routine", privs::ALTER_ROUTINE),
    ("Execute", privs::EXECUTE),
    ("Event", privs::EVENT),
    ("Trigger", privs::TRIGGER),
    ("Delete_history", privs::DELETE_HISTORY),
];

/// The members of tables_priv's Table_priv SET, with their bits.
const TABLE_PRIV_SET: [(&str, u64); 14] = [
    ("Select", privs::SELECT),
    ("Insert", privs::INSERT),
    ("Update", privs::UPDATE),
    ("Delete", privs::DELETE),
    ("Create", privs::CREATE),
    ("Drop", privs::DROP),
    ("Grant", privs::GRANT),
    ("References", privs::REFERENCES),
    ("Index", privs::INDEX),
    ("Alter", privs::ALTER),
    ("Create View", privs::CREATE_VIEW),
    ("Show view", privs::SHOW_VIEW),
    ("Trigger", privs::TRIGGER),
    ("Delete versioning rows", privs::DELETE_HISTORY),
];

/// The members of the Column_priv SETs, with their bits.
const COLUMN_PRIV_SET: [(&str, u64); 4] = [
    ("Select", privs::SELECT),
    ("Insert", privs::INSERT),
    ("Update", privs::UPDATE),
    ("References", privs::REFERENCES),
];

/// Host and User as the grant tables declare them.
const HOST_USER: &str = "Host char(255) NOT NULL DEFAULT '', User char(128) NOT NULL DEFAULT ''";
/// A `Y`/`N` column of mysql.db and roles_mapping.
const YES_NO_ENUM: &str = "enum('N','Y') CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci NOT NULL DEFAULT 'N'";

fn s(text: &str) -> Value {
    Value::from_str(text)
}

fn yes_no(yes: bool) -> Value {
    s(if yes { "Y" } else { "N" })
}

/// A SET column's value: the names of the members whose bit is set.
fn set_text(bits: u64, members: &[(&str, u64)]) -> Value {
    s(&members.iter().filter(|(_, b)| bits & b != 0).map(|(n, _)| *n).collect::<Vec<_>>().join(","))
}

/// Host and User of a grant table row (a role's host is "").
fn host_user(account: &Account) -> [Value; 2] {
    [s(&account.name.host), s(&account.name.user)]
}

/// The stored string mysql.user's Password column shows: the
/// mysql_native_password hash, "" for other plugins.
fn native_password(account: &Account) -> &str {
    match account.plugin {
        AuthPlugin::MysqlNativePassword if !account.is_role => &account.auth_string,
        _ => "",
    }
}

pub(crate) fn user_sql() -> String {
    let privs: Vec<String> = USER_PRIV_COLUMNS.iter().map(|c| format!("{c}_priv varchar(1)")).collect();
    format!(
        "{HOST_USER}, Password longtext CHARACTER SET utf8mb4, {}, \
         ssl_type varchar(9) CHARACTER SET utf8mb4, \
         ssl_cipher longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         x509_issuer longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         x509_subject longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         max_questions bigint(20) unsigned NOT NULL DEFAULT 0, max_updates bigint(20) unsigned NOT NULL DEFAULT 0, \
         max_connections bigint(20) unsigned NOT NULL DEFAULT 0, max_user_connections bigint(21) NOT NULL DEFAULT 0, \
         plugin longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         authentication_string longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         password_expired varchar(1) CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         is_role varchar(1) CHARACTER SET utf8mb4, \
         default_role longtext CHARACTER SET utf8mb4 NOT NULL DEFAULT '', \
         max_statement_time decimal(12,6) NOT NULL DEFAULT 0.000000",
        privs.join(", ").replace("varchar(1)", "varchar(1) CHARACTER SET utf8mb4")
    )
}

/// MariaDB's ssl_type of a REQUIRE, as mysql.user's ENUM names it and
/// global_priv's number (its position, from 0).
fn ssl_type(require: &Require) -> (&'static str, u8) {
    match require {
        Require::None => ("", 0),
        Require::Ssl => ("ANY", 1),
        Require::X509 => ("X509", 2),
        Require::Specified(_) => ("SPECIFIED", 3),
    }
}

/// ssl_cipher, x509_issuer and x509_subject of a REQUIRE.
fn require_names(require: &Require) -> [&str; 3] {
    match require {
        Require::Specified(spec) => [spec.cipher.as_deref().unwrap_or(""), &spec.issuer, &spec.subject],
        _ => ["", "", ""],
    }
}

/// mysql.user's plugin column: empty for a role.
fn plugin_name(account: &Account) -> &'static str {
    if account.is_role {
        ""
    } else {
        account.plugin.name()
    }
}

fn max_statement_time(account: &Account) -> Value {
    let mut seconds = onelog_core::decimal::Decimal::from(account.limits[LIMIT_NAMES.len() - 1]);
    seconds.rescale(6);
    Value::Decimal(seconds)
}

pub(crate) fn user_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    accounts
        .all()
        .map(|a| {
            let mut row: Vec<Value> = host_user(a).into();
            row.push(s(native_password(a)));
            row.extend((0..USER_PRIV_COLUMNS.len()).map(|bit| yes_no(a.global & (1 << bit) != 0)));
            row.push(s(ssl_type(&a.require).0));
            row.extend(require_names(&a.require).map(s));
            row.extend(a.limits[..=MAX_CONNECTIONS_PER_HOUR].iter().map(|n| Value::UInt(*n)));
            row.push(Value::Int(i64::try_from(a.limits[MAX_USER_CONNECTIONS]).unwrap_or(i64::MAX)));
            let auth_string = if a.is_role { "" } else { a.auth_string.as_str() };
            row.extend([s(plugin_name(a)), s(auth_string), yes_no(a.password_expired), yes_no(a.is_role)]);
            row.extend([s(&a.default_role), max_statement_time(a)]);
            row
        })
        .collect()
}

pub(crate) fn global_priv_sql() -> String {
    format!(
        "{HOST_USER}, Priv longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '{{}}', \
         PRIMARY KEY (Host, User)"
    )
}

/// global_priv's Priv: the JSON MariaDB keeps, with the keys its mysql.user
/// view and tools read (`access` is the privilege bitmask). Keys MariaDB
/// writes that OneLog has no value for (`version_id`, and the time of the
/// last password change, present here only as 0 for an expired password)
/// are left out, as MariaDB itself leaves out keys never set.
fn priv_json(account: &Account) -> String {
    let text = |v: &str| serde_json::Value::from(v).to_string();
    let mut fields = vec![format!("\"access\":{}", account.global)];
    if account.is_role {
        fields.push("\"is_role\":true".into());
    } else {
        fields.push(format!("\"plugin\":{}", text(account.plugin.name())));
        fields.push(format!("\"authentication_string\":{}", text(&account.auth_string)));
    }
    if account.locked {
        fields.push("\"account_locked\":true".into());
    }
    if account.password_expired {
        fields.push("\"password_last_changed\":0".into());
    }
    let limit_keys = ["max_questions", "max_updates", "max_connections", "max_user_connections"];
    for (key, value) in limit_keys.iter().zip(account.limits) {
        if value != 0 {
            fields.push(format!("\"{key}\":{value}"));
        }
    }
    if account.require != Require::None {
        fields.push(format!("\"ssl_type\":{}", ssl_type(&account.require).1));
        let [cipher, issuer, subject] = require_names(&account.require);
        fields.push(format!("\"ssl_cipher\":{}", text(cipher)));
        fields.push(format!("\"x509_issuer\":{}", text(issuer)));
        fields.push(format!("\"x509_subject\":{}", text(subject)));
    }
    if let Value::Decimal(seconds) = max_statement_time(account) {
        if !seconds.is_zero() {
            fields.push(format!("\"max_statement_time\":{seconds}"));
        }
    }
    if !account.default_role.is_empty() {
        fields.push(format!("\"default_role\":{}", text(&account.default_role)));
    }
    format!("{{{}}}", fields.join(","))
}

pub(crate) fn global_priv_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    accounts
        .all()
        .map(|a| {
            let [host, user] = host_user(a);
            vec![host, user, s(&priv_json(a))]
        })
        .collect()
}

pub(crate) fn db_sql() -> String {
    let privs: Vec<String> = DB_PRIV_COLUMNS.iter().map(|(c, _)| format!("{c}_priv {YES_NO_ENUM}")).collect();
    format!(
        "Host char(255) NOT NULL DEFAULT '', Db char(64) NOT NULL DEFAULT '', User char(128) NOT NULL DEFAULT '', \
         {}, PRIMARY KEY (Host, Db, User), KEY User (User)",
        privs.join(", ")
    )
}

pub(crate) fn db_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    for a in accounts.all() {
        for (db, bits) in &a.dbs {
            let mut row = vec![s(&a.name.host), s(db), s(&a.name.user)];
            row.extend(DB_PRIV_COLUMNS.iter().map(|(_, bit)| yes_no(bits & bit != 0)));
            rows.push(row);
        }
    }
    rows
}

/// Host, Db, User and Table_name of a table grant's rows.
fn table_key(a: &Account, grant: &TableGrant) -> Vec<Value> {
    vec![s(&a.name.host), s(&grant.db), s(&a.name.user), s(&grant.table)]
}

/// The Timestamp of tables_priv and columns_priv rows: MariaDB 10.11
/// writes none either (its rows read the zero timestamp).
fn zero_timestamp() -> Value {
    Value::DateTime(Temporal::default())
}

/// A SET column of these members, as MariaDB declares it.
fn set_type(members: &[(&str, u64)]) -> String {
    let members: Vec<String> = members.iter().map(|(n, _)| format!("'{n}'")).collect();
    format!("set({}) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci NOT NULL DEFAULT ''", members.join(","))
}

pub(crate) fn tables_priv_sql() -> String {
    format!(
        "Host char(255) NOT NULL DEFAULT '', Db char(64) NOT NULL DEFAULT '', User char(128) NOT NULL DEFAULT '', \
         Table_name char(64) NOT NULL DEFAULT '', Grantor varchar(384) NOT NULL DEFAULT '', \
         Timestamp timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(), \
         Table_priv {}, Column_priv {}, PRIMARY KEY (Host, Db, User, Table_name), KEY Grantor (Grantor)",
        set_type(&TABLE_PRIV_SET),
        set_type(&COLUMN_PRIV_SET)
    )
}

/// tables_priv rows. Grantor is empty: the binlog's GRANT statements do
/// not carry who granted, so OneLog keeps no grantor.
pub(crate) fn tables_priv_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    for a in accounts.all() {
        for grant in &a.tables {
            let mut row = table_key(a, grant);
            row.extend([s(""), zero_timestamp(), set_text(grant.privs, &TABLE_PRIV_SET)]);
            row.push(set_text(grant.column_privs(), &COLUMN_PRIV_SET));
            rows.push(row);
        }
    }
    rows
}

pub(crate) fn columns_priv_sql() -> String {
    format!(
        "Host char(255) NOT NULL DEFAULT '', Db char(64) NOT NULL DEFAULT '', User char(128) NOT NULL DEFAULT '', \
         Table_name char(64) NOT NULL DEFAULT '', Column_name char(64) NOT NULL DEFAULT '', \
         Timestamp timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(), \
         Column_priv {}, PRIMARY KEY (Host, Db, User, Table_name, Column_name)",
        set_type(&COLUMN_PRIV_SET)
    )
}

pub(crate) fn columns_priv_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    for a in accounts.all() {
        for grant in &a.tables {
            for (column, bits) in &grant.columns {
                let mut row = table_key(a, grant);
                row.extend([s(column), zero_timestamp(), set_text(*bits, &COLUMN_PRIV_SET)]);
                rows.push(row);
            }
        }
    }
    rows
}

pub(crate) fn roles_mapping_sql() -> String {
    format!("{HOST_USER}, Role char(128) NOT NULL DEFAULT '', Admin_option {YES_NO_ENUM}, UNIQUE KEY Host (Host, User, Role)")
}

pub(crate) fn roles_mapping_rows(accounts: &AccountStore) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    for a in accounts.all() {
        for grant in &a.roles {
            let [host, user] = host_user(a);
            rows.push(vec![host, user, s(&grant.role), yes_no(grant.admin)]);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::account::UserName;

    #[test]
    fn rows_have_their_tables_columns() {
        let mut catalog = crate::catalog::Catalog::default();
        let mut a = Account::new(UserName { user: "u".into(), host: "%".into() }, "*AB".into());
        a.global = privs::RELOAD | privs::GRANT;
        a.dbs.insert("d".into(), privs::SELECT | privs::GRANT);
        let mut grant = TableGrant { db: "d".into(), table: "t".into(), privs: privs::SELECT, ..Default::default() };
        grant.columns.insert("c".into(), privs::UPDATE | privs::INSERT);
        a.tables.push(grant);
        a.roles.push(super::super::store::RoleGrant { role: "r".into(), admin: true });
        catalog.accounts.put(a);
        let rows_of = |name| crate::system_tables::rows(&catalog, "mysql", name).expect("ok").expect("grant table");
        for name in ["columns_priv", "db", "global_priv", "roles_mapping", "tables_priv", "user"] {
            let (def, rows) = rows_of(name);
            assert_eq!(rows.len(), 1, "{name}");
            assert_eq!(rows[0].len(), def.columns.len(), "{name}");
        }
        assert_eq!(rows_of("tables_priv").1[0][6], s("Select"));
        assert_eq!(rows_of("tables_priv").1[0][7], s("Insert,Update"));
        let global = rows_of("global_priv").1;
        assert_eq!(
            global[0][2],
            s(r#"{"access":1088,"plugin":"mysql_native_password","authentication_string":"*AB"}"#)
        );
    }
}
