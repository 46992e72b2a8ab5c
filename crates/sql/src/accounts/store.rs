//! The accounts as the catalog keeps them: one storage key per account
//! (`[CATALOG_ACCOUNT][user \0 host]`, its JSON as the value), written by
//! the account statements' commits and replays like any DDL, and an
//! in-memory copy sorted the way MariaDB searches accounts.

use super::privs;
use crate::ast::account::{AuthPlugin, Require, UserName};
use onelog_storage::key;
use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Catalog: one entry per account (ids below `FIRST_USER_INDEX_ID` are the
/// catalog's; 3 and 4 are views and routines).
pub const CATALOG_ACCOUNT: u64 = 5;

/// Catalog: present once the data directory's accounts were initialized.
/// The bare key of the id triggers' entries use too (see
/// `catalog::CATALOG_TRIGGER`, whose loader skips it).
const CATALOG_ACCOUNTS_INITIALIZED: u64 = 6;

pub fn initialized_key() -> Vec<u8> {
    key::index_prefix(CATALOG_ACCOUNTS_INITIALIZED)
}

pub fn account_key(name: &UserName) -> Vec<u8> {
    let mut k = key::index_prefix(CATALOG_ACCOUNT);
    k.extend_from_slice(name.user.as_bytes());
    k.push(0);
    k.extend_from_slice(name.host.as_bytes());
    k
}

/// Privileges on one table, and on its columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TableGrant {
    pub db: String,
    pub table: String,
    pub privs: u64,
    /// Column name → privileges (only [`privs::COLUMN_ALL`] bits).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub columns: BTreeMap<String, u64>,
}

impl TableGrant {
    /// Any privilege on any of its columns.
    pub fn column_privs(&self) -> u64 {
        self.columns.values().fold(0, |a, b| a | b)
    }
}

/// One account: `'user'@'host'`, its credential, options and privileges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    pub name: UserName,
    /// How it authenticates (mysql_native_password when absent, as the
    /// accounts stored before there were others).
    #[serde(default, skip_serializing_if = "AuthPlugin::is_native")]
    pub plugin: AuthPlugin,
    /// The plugin's stored string: mysql_native_password's `*HEX` of
    /// SHA1(SHA1(password)) ("" is no password), ed25519's base64 public
    /// key, nothing for unix_socket.
    pub auth_string: String,
    /// Hex of SHA256(SHA256(password)) for caching_sha2_password's fast
    /// path: only accounts created at initialization have it (the log
    /// carries only the native hash, so an account created by SQL cannot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha2_hash: Option<String>,
    #[serde(default)]
    pub locked: bool,
    #[serde(default)]
    pub password_expired: bool,
    /// Checked at login (server's `tls::meets_account_requirement`).
    #[serde(default)]
    pub require: Require,
    /// By [`crate::ast::account::LIMIT_NAMES`]: the connection limits are
    /// checked at login (the server's `limits`), the hourly statement
    /// limits by [`crate::Session`]; MAX_STATEMENT_TIME is stored and shown.
    #[serde(default)]
    pub limits: [u64; 5],
    /// `*.*` privileges (GRANT OPTION included as [`privs::GRANT`]).
    #[serde(default)]
    pub global: u64,
    /// `db.*` privileges by database name (which may hold wildcards).
    #[serde(default)]
    pub dbs: BTreeMap<String, u64>,
    #[serde(default)]
    pub tables: Vec<TableGrant>,
    /// A role (`'name'@''`), which no client logs in as.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_role: bool,
    /// The roles granted to it, in the order they were granted (the order
    /// SHOW GRANTS lists them in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<RoleGrant>,
    /// The role enabled at login ("" for none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub default_role: String,
}

/// A role granted to an account or to another role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoleGrant {
    pub role: String,
    /// WITH ADMIN OPTION: it may grant the role on.
    #[serde(default)]
    pub admin: bool,
}

impl Account {
    pub fn new(name: UserName, auth_string: String) -> Account {
        Account {
            name,
            plugin: AuthPlugin::MysqlNativePassword,
            auth_string,
            sha2_hash: None,
            locked: false,
            password_expired: false,
            require: Require::None,
            limits: [0; 5],
            global: 0,
            dbs: BTreeMap::new(),
            tables: Vec::new(),
            is_role: false,
            roles: Vec::new(),
            default_role: String::new(),
        }
    }

    pub fn role_grant(&self, role: &str) -> Option<&RoleGrant> {
        self.roles.iter().find(|g| g.role == role)
    }

    /// Adds a role's privileges and role grants to its own: a session's
    /// privileges are its account's and those of its enabled role and the
    /// roles that role includes, and it may grant on a role any of them
    /// holds WITH ADMIN OPTION. (Database grants of the same name add up;
    /// MariaDB looks the account's and the role's up apart, which differs
    /// only where each holds a different wildcard name matching a
    /// database.)
    pub fn add_role(&mut self, other: &Account) {
        for grant in &other.roles {
            match self.roles.iter_mut().find(|g| g.role == grant.role) {
                Some(mine) => mine.admin |= grant.admin,
                None => self.roles.push(grant.clone()),
            }
        }
        self.global |= other.global;
        for (db, bits) in &other.dbs {
            *self.dbs.entry(db.clone()).or_default() |= bits;
        }
        for grant in &other.tables {
            match self.tables.iter_mut().find(|t| t.db == grant.db && t.table == grant.table) {
                Some(mine) => {
                    mine.privs |= grant.privs;
                    for (column, bits) in &grant.columns {
                        *mine.columns.entry(column.clone()).or_default() |= bits;
                    }
                }
                None => self.tables.push(grant.clone()),
            }
        }
    }

    /// Privileges on database `db`: the global ones a database can hold,
    /// and those of the first database grant whose name matches, as
    /// MariaDB's `acl_get` takes it.
    pub fn db_privs(&self, db: &str) -> u64 {
        let mut grants: Vec<(&String, &u64)> = self.dbs.iter().filter(|(pattern, _)| db_matches(pattern, db)).collect();
        grants.sort_by_key(|(pattern, _)| std::cmp::Reverse(wild_sort(pattern)));
        (self.global & privs::DB_ALL) | grants.first().map_or(0, |(_, p)| **p)
    }

    /// The key its connections and hourly use are counted by.
    pub fn counting_key(&self) -> String {
        format!("{}@{}", self.name.user, self.name.host)
    }

    pub fn table_grant(&self, db: &str, table: &str) -> Option<&TableGrant> {
        self.tables.iter().find(|t| t.db == db && t.table == table)
    }

    /// Privileges on a table (global, database and table level).
    pub fn table_privs(&self, db: &str, table: &str) -> u64 {
        self.db_privs(db) | self.table_grant(db, table).map_or(0, |t| t.privs)
    }

    /// Whether it has any privilege on `db` or on something in it (what
    /// USE and SHOW DATABASES need).
    pub fn sees_db(&self, db: &str) -> bool {
        self.db_privs(db) & privs::DB_ALL & !privs::GRANT != 0
            || self.tables.iter().any(|t| t.db == db && (t.privs | t.column_privs()) & !privs::GRANT != 0)
    }

    /// Whether it has any privilege on a table or its columns.
    pub fn sees_table(&self, db: &str, table: &str) -> bool {
        self.table_and_column_privs(db, table) & privs::TABLE_ALL & !privs::GRANT != 0
    }

    /// Whether it has a column privilege (SELECT, INSERT, UPDATE or
    /// REFERENCES) on a table or on one of its columns: what SHOW COLUMNS
    /// and SHOW INDEX need in MariaDB (SHOW VIEW alone is not enough).
    pub fn sees_columns(&self, db: &str, table: &str) -> bool {
        self.table_and_column_privs(db, table) & privs::COLUMN_ALL != 0
    }

    /// Its privileges on a table at every level, with those it holds on
    /// some of the table's columns.
    fn table_and_column_privs(&self, db: &str, table: &str) -> u64 {
        self.table_privs(db, table) | self.table_grant(db, table).map_or(0, TableGrant::column_privs)
    }
}

/// mysql_native_password's stored form of a password: `*` and the upper
/// hex of SHA1(SHA1(password)), as MariaDB's PASSWORD() returns it; ""
/// for the empty password, as MariaDB stores it.
pub fn native_hash(password: &[u8]) -> String {
    if password.is_empty() {
        return String::new();
    }
    let stage2 = Sha1::digest(Sha1::digest(password));
    let mut out = String::with_capacity(41);
    out.push('*');
    for b in stage2 {
        out.push_str(&format!("{b:02X}"));
    }
    out
}

/// ed25519's stored form of a password, as MariaDB's auth_ed25519 makes
/// it: the public key of the key pair whose expanded secret key is
/// SHA-512(password) (ref10's `crypto_sign_keypair` fed the password
/// instead of a 32-byte seed), base64 without its `=` padding (43
/// characters).
pub fn ed25519_password(password: &[u8]) -> String {
    use base64::Engine;
    let expanded: [u8; 64] = sha2::Sha512::digest(password).into();
    let secret = ed25519_dalek::hazmat::ExpandedSecretKey::from_bytes(&expanded);
    let public = ed25519_dalek::VerifyingKey::from(&secret);
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(public.as_bytes())
}

/// The public key an ed25519 account's stored string holds; `None` unless
/// it is 43 base64 characters of 32 bytes.
pub fn ed25519_key(auth_string: &str) -> Option<[u8; 32]> {
    use base64::Engine;
    if auth_string.len() != ED25519_PASSWORD_LEN {
        return None;
    }
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD.decode(auth_string).ok()?;
    bytes.try_into().ok()
}

/// Length of ed25519's stored string.
pub const ED25519_PASSWORD_LEN: usize = 43;

/// Whether `hash` is a stored form IDENTIFIED BY PASSWORD accepts: "" or
/// `*` + 40 hex digits.
pub fn valid_native_hash(hash: &str) -> bool {
    hash.is_empty() || (hash.len() == 41 && hash.starts_with('*') && hash[1..].chars().all(|c| c.is_ascii_hexdigit()))
}

/// SQL LIKE matching with `%`, `_` and `\` escapes; `fold` compares
/// without ASCII case (host names).
fn like(pattern: &[char], text: &[char], fold: bool) -> bool {
    let eq = |a: char, b: char| if fold { a.eq_ignore_ascii_case(&b) } else { a == b };
    match pattern.split_first() {
        None => text.is_empty(),
        Some(('%', rest)) => (0..=text.len()).any(|i| like(rest, &text[i..], fold)),
        Some(('_', rest)) => !text.is_empty() && like(rest, &text[1..], fold),
        Some(('\\', rest)) if !rest.is_empty() => {
            !text.is_empty() && eq(rest[0], text[0]) && like(&rest[1..], &text[1..], fold)
        }
        Some((c, rest)) => !text.is_empty() && eq(*c, text[0]) && like(rest, &text[1..], fold),
    }
}

fn db_matches(pattern: &str, db: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = db.chars().collect();
    like(&p, &t, false)
}

/// Whether an account's host pattern admits a client known by `host`
/// (its name: `localhost` for the socket and loopback) and `ip`.
/// Patterns are MariaDB's: a name or address with `%` / `_` wildcards, or
/// `address/netmask`.
pub fn host_matches(pattern: &str, host: &str, ip: &str) -> bool {
    if let Some((addr, mask)) = pattern.split_once('/') {
        let parse = |s: &str| s.parse::<std::net::Ipv4Addr>().ok().map(u32::from);
        return match (parse(addr), parse(mask), parse(ip)) {
            (Some(a), Some(m), Some(i)) => i & m == a,
            _ => false,
        };
    }
    let p: Vec<char> = pattern.chars().collect();
    [host, ip].iter().any(|t| like(&p, &t.chars().collect::<Vec<_>>(), true))
}

/// MariaDB's `get_sort` weight of one name: 128 for a name without
/// wildcards, the position of the first wildcard (+1) for a pattern, the
/// least for a lone `%` and 0 for an empty name.
pub(crate) fn wild_sort(s: &str) -> u64 {
    let chars: Vec<char> = s.chars().collect();
    let mut weight = 0u64;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => i += 1,
            '%' | '_' => {
                let lone_percent = i == 0 && chars[i] == '%' && chars.len() == 1;
                let pos = i as u64 + if lone_percent { 1 } else { 2 };
                return pos.min(127);
            }
            _ => {}
        }
        weight = 128;
        i += 1;
    }
    weight
}

/// The accounts, by name and in MariaDB's search order.
#[derive(Debug, Default)]
pub struct AccountStore {
    by_name: BTreeMap<UserName, Arc<Account>>,
    /// Most specific host first, then named users before anonymous ones:
    /// the first that matches a client is its account.
    search_order: Vec<Arc<Account>>,
}

impl AccountStore {
    pub fn get(&self, name: &UserName) -> Option<&Arc<Account>> {
        self.by_name.get(name)
    }

    pub fn all(&self) -> impl Iterator<Item = &Arc<Account>> {
        self.by_name.values()
    }

    /// The role of that name.
    pub fn role(&self, name: &str) -> Option<&Arc<Account>> {
        self.get(&UserName::role(name)).filter(|a| a.is_role)
    }

    /// `role` and every role it includes, depth first, each once (the
    /// order SHOW GRANTS and ENABLED_ROLES list them in).
    pub fn role_closure(&self, role: &str) -> Vec<Arc<Account>> {
        let mut out: Vec<Arc<Account>> = Vec::new();
        self.visit_role(role, &mut out);
        out
    }

    fn visit_role(&self, role: &str, out: &mut Vec<Arc<Account>>) {
        let Some(account) = self.role(role) else { return };
        if out.iter().any(|a| a.name.user == role) {
            return;
        }
        out.push(account.clone());
        for grant in &account.roles {
            self.visit_role(&grant.role, out);
        }
    }

    pub fn put(&mut self, account: Account) {
        self.by_name.insert(account.name.clone(), Arc::new(account));
        self.sort();
    }

    pub fn remove(&mut self, name: &UserName) {
        self.by_name.remove(name);
        self.sort();
    }

    fn sort(&mut self) {
        let mut all: Vec<Arc<Account>> = self.by_name.values().cloned().collect();
        // Stable: equal weights keep name order.
        all.sort_by_key(|a| std::cmp::Reverse((wild_sort(&a.name.host) << 8) + wild_sort(&a.name.user)));
        self.search_order = all;
    }

    /// The account a client logging in as `user` from `host` / `ip` gets:
    /// the first in search order whose host admits it and whose user is
    /// `user` or anonymous.
    pub fn find_login(&self, user: &str, host: &str, ip: &str) -> Option<Arc<Account>> {
        self.search_order
            .iter()
            .find(|a| {
                !a.is_role && (a.name.user.is_empty() || a.name.user == user) && host_matches(&a.name.host, host, ip)
            })
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(user: &str, host: &str) -> Account {
        Account::new(UserName { user: user.into(), host: host.into() }, String::new())
    }

    #[test]
    fn search_order_is_mariadbs() {
        let mut store = AccountStore::default();
        for (u, h) in [("u", "%"), ("", "localhost"), ("u", "10.0.%"), ("u", "10.0.0.7"), ("v", "%")] {
            store.put(account(u, h));
        }
        let found = |u: &str, h: &str, ip: &str| store.find_login(u, h, ip).map(|a| a.name.quoted());
        // The anonymous localhost account wins over u@% (MariaDB's rule).
        assert_eq!(found("u", "localhost", "127.0.0.1").as_deref(), Some("''@'localhost'"));
        assert_eq!(found("u", "10.0.0.7", "10.0.0.7").as_deref(), Some("'u'@'10.0.0.7'"));
        assert_eq!(found("u", "10.0.0.8", "10.0.0.8").as_deref(), Some("'u'@'10.0.%'"));
        assert_eq!(found("u", "192.168.1.1", "192.168.1.1").as_deref(), Some("'u'@'%'"));
        assert_eq!(found("w", "192.168.1.1", "192.168.1.1"), None);
    }

    #[test]
    fn patterns() {
        assert!(host_matches("192.168.0.0/255.255.0.0", "x", "192.168.4.5"));
        assert!(!host_matches("192.168.0.0/255.255.0.0", "x", "192.169.4.5"));
        assert!(host_matches("LOCALHOST", "localhost", "127.0.0.1"));
        assert!(host_matches("127.0.0._", "localhost", "127.0.0.1"));
        let mut a = account("u", "%");
        a.dbs.insert("d%".into(), privs::SELECT);
        a.dbs.insert("db1".into(), privs::INSERT);
        assert_eq!(a.db_privs("db1"), privs::INSERT);
        assert_eq!(a.db_privs("dx"), privs::SELECT);
        assert_eq!(a.db_privs("x"), 0);
        assert_eq!(native_hash(b"password"), "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19");
        assert_eq!(native_hash(b""), "");
    }

    #[test]
    fn ed25519_as_mariadb_stores_it() {
        // MariaDB 10.11's SHOW CREATE USER after IDENTIFIED VIA ed25519
        // USING PASSWORD(...).
        assert_eq!(ed25519_password(b""), "4LH+dBF+G5W2CKTyId8xR3SyDqZoQjUNUVNxx8aWbG4");
        assert_eq!(ed25519_password(b"pw"), "vRq+ROSzhW4MwhdoPvlkL1fHkT0w6ZDDbTpVQwSNQ90");
        assert_eq!(ed25519_password(b"zz"), "y8NC0bcS6BRsyrD2kne1aTrzygYsS0zEWM9xnQhwxis");
        assert!(ed25519_key(&ed25519_password(b"pw")).is_some());
        assert_eq!(ed25519_key("abc"), None);
        assert_eq!(ed25519_key("!LH+dBF+G5W2CKTyId8xR3SyDqZoQjUNUVNxx8aWbG4"), None);
    }
}
