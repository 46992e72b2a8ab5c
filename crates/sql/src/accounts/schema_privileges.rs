//! information_schema.USER_PRIVILEGES, SCHEMA_PRIVILEGES, TABLE_PRIVILEGES
//! and COLUMN_PRIVILEGES, as MariaDB 10.11 fills them (`sql_acl.cc`'s
//! `fill_schema_*_privileges`): a row per privilege of each grant, GRANT
//! OPTION as IS_GRANTABLE rather than a row, USAGE for a grant of nothing
//! but GRANT OPTION.

use super::privs;
use super::store::{Account, AccountStore, TableGrant};
use crate::ast::account::UserName;
use onelog_core::Value;

/// The privilege tables' columns, with their lengths in characters.
pub fn columns(table: &str) -> Option<&'static [(&'static str, u32)]> {
    const GRANTEE: (&str, u32) = ("GRANTEE", 385);
    const CATALOG: (&str, u32) = ("TABLE_CATALOG", 512);
    const SCHEMA: (&str, u32) = ("TABLE_SCHEMA", 64);
    const TABLE: (&str, u32) = ("TABLE_NAME", 64);
    const PRIVILEGE: [(&str, u32); 2] = [("PRIVILEGE_TYPE", 64), ("IS_GRANTABLE", 3)];
    Some(match table {
        "USER_PRIVILEGES" => &[GRANTEE, CATALOG, PRIVILEGE[0], PRIVILEGE[1]],
        "SCHEMA_PRIVILEGES" => &[GRANTEE, CATALOG, SCHEMA, PRIVILEGE[0], PRIVILEGE[1]],
        "TABLE_PRIVILEGES" => &[GRANTEE, CATALOG, SCHEMA, TABLE, PRIVILEGE[0], PRIVILEGE[1]],
        "COLUMN_PRIVILEGES" => &[GRANTEE, CATALOG, SCHEMA, TABLE, ("COLUMN_NAME", 64), PRIVILEGE[0], PRIVILEGE[1]],
        _ => return None,
    })
}

/// Rows of privilege table `table` (upper case). `viewer` is the account
/// a session without SELECT on `mysql` logged in as: it sees only its own
/// grants (not those of its roles), as in MariaDB; `None` sees them all.
pub fn rows(accounts: &AccountStore, viewer: Option<&UserName>, table: &str) -> Vec<Vec<Value>> {
    let shown = |a: &Account| viewer.is_none_or(|v| v.user == a.name.user && v.host.eq_ignore_ascii_case(&a.name.host));
    let mut rows = Vec::new();
    for account in accounts.all().filter(|a| shown(a)) {
        let account = &with_included_roles(accounts, account);
        match table {
            // Roles have no row: MariaDB lists its users only.
            "USER_PRIVILEGES" if !account.is_role => rows.extend(user_rows(account)),
            "SCHEMA_PRIVILEGES" => rows.extend(schema_rows(account)),
            "TABLE_PRIVILEGES" => account.tables.iter().for_each(|t| rows.extend(table_rows(account, t))),
            "COLUMN_PRIVILEGES" => account.tables.iter().for_each(|t| rows.extend(column_rows(account, t))),
            _ => {}
        }
    }
    rows
}

/// A role's grants with those of the roles it includes, as MariaDB keeps
/// a role's privileges (and fills these tables from); an account's own.
fn with_included_roles(accounts: &AccountStore, account: &Account) -> Account {
    let mut merged = account.clone();
    if account.is_role {
        for included in accounts.role_closure(&account.name.user).iter().skip(1) {
            merged.add_role(included);
        }
    }
    merged
}

fn s(text: &str) -> Value {
    Value::from_str(text)
}

/// The names of the privileges in `bits` but GRANT OPTION, in bit order;
/// USAGE when there are none.
fn privilege_names(bits: u64) -> Vec<&'static str> {
    let names: Vec<&str> =
        (0..64).map(|i| 1u64 << i).filter(|b| bits & !privs::GRANT & b != 0).map(privs::name).collect();
    if names.is_empty() {
        vec!["USAGE"]
    } else {
        names
    }
}

fn is_grantable(bits: u64) -> Value {
    s(if bits & privs::GRANT != 0 { "YES" } else { "NO" })
}

/// A row's leading GRANTEE and TABLE_CATALOG.
fn grantee(account: &Account) -> [Value; 2] {
    [s(&account.name.quoted()), s("def")]
}

fn user_rows(account: &Account) -> Vec<Vec<Value>> {
    privilege_names(account.global)
        .into_iter()
        .map(|name| [grantee(account).as_slice(), &[s(name), is_grantable(account.global)]].concat())
        .collect()
}

fn schema_rows(account: &Account) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    for (db, &bits) in account.dbs.iter().filter(|(_, bits)| **bits != 0) {
        for name in privilege_names(bits) {
            rows.push([grantee(account).as_slice(), &[s(db), s(name), is_grantable(bits)]].concat());
        }
    }
    rows
}

/// A table grant's rows; none for one of GRANT OPTION alone whose columns
/// have privileges (COLUMN_PRIVILEGES lists those).
fn table_rows(account: &Account, grant: &TableGrant) -> Vec<Vec<Value>> {
    let only_grant_option = grant.privs & !privs::GRANT == 0;
    if grant.privs == 0 || (only_grant_option && !grant.columns.is_empty()) {
        return Vec::new();
    }
    let key = [grantee(account).as_slice(), &[s(&grant.db), s(&grant.table)]].concat();
    privilege_names(grant.privs)
        .into_iter()
        .map(|name| [key.as_slice(), &[s(name), is_grantable(grant.privs)]].concat())
        .collect()
}

/// A table grant's column rows, by privilege then column; grantable when
/// the table grant has GRANT OPTION.
fn column_rows(account: &Account, grant: &TableGrant) -> Vec<Vec<Value>> {
    let key = [grantee(account).as_slice(), &[s(&grant.db), s(&grant.table)]].concat();
    let mut rows = Vec::new();
    for bit in (0..64).map(|i| 1u64 << i).filter(|b| grant.column_privs() & b != 0) {
        for (column, _) in grant.columns.iter().filter(|(_, bits)| *bits & bit != 0) {
            rows.push([key.as_slice(), &[s(column), s(privs::name(bit)), is_grantable(grant.privs)]].concat());
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(user: &str) -> Account {
        Account::new(UserName { user: user.into(), host: "%".into() }, String::new())
    }

    #[test]
    fn grant_option_is_a_column_not_a_row() {
        let mut a = account("u");
        a.global = privs::GRANT;
        a.dbs.insert("d".into(), privs::SELECT | privs::GRANT);
        let mut only_columns =
            TableGrant { db: "d".into(), table: "t".into(), privs: privs::GRANT, ..Default::default() };
        only_columns.columns.insert("c".into(), privs::INSERT | privs::SELECT);
        a.tables.push(only_columns);
        let mut store = AccountStore::default();
        store.put(a);
        store.put(account("v"));
        let text = |rows: Vec<Vec<Value>>| -> Vec<String> {
            rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")).collect()
        };
        let me = UserName { user: "u".into(), host: "%".into() };
        assert_eq!(text(rows(&store, Some(&me), "USER_PRIVILEGES")), ["'u'@'%' def USAGE YES"]);
        assert_eq!(rows(&store, None, "USER_PRIVILEGES").len(), 2);
        assert_eq!(text(rows(&store, Some(&me), "SCHEMA_PRIVILEGES")), ["'u'@'%' def d SELECT YES"]);
        assert!(rows(&store, Some(&me), "TABLE_PRIVILEGES").is_empty());
        assert_eq!(
            text(rows(&store, Some(&me), "COLUMN_PRIVILEGES")),
            ["'u'@'%' def d t c SELECT YES", "'u'@'%' def d t c INSERT YES"]
        );
    }
}
