//! Accounts and privileges as data: CREATE / ALTER / DROP / RENAME USER,
//! SET PASSWORD, GRANT and REVOKE are planned here into account changes,
//! committed as a QUERY event like other DDL and replayed from it by the
//! same planner (see `ddl::replay`).
//!
//! A password never reaches the log: a statement is first rewritten with
//! every plaintext password replaced by its hash (`IDENTIFIED BY PASSWORD
//! '*HEX'`, `SET PASSWORD FOR .. = '*HEX'`), then planned and logged in
//! that form, so the live server and a replay (or a MariaDB replica) apply
//! the same statement. (MariaDB 10.11 itself logs CREATE USER and GRANT
//! with the plaintext; only its SET PASSWORD is logged hashed.)

pub mod plugins;
pub mod privs;
pub mod roles;
pub mod run;
pub mod schema_privileges;
pub mod show;
pub mod store;
pub mod tables;

use crate::ast::account::*;
use crate::catalog::Catalog;
use crate::ddl::{CatalogChange, DdlPlan};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use onelog_storage::Mutation;
pub use store::{ed25519_key, ed25519_password, native_hash, Account, AccountStore, RoleGrant, TableGrant};

/// One change to the account store, in order.
#[derive(Debug, Clone)]
pub enum AccountChange {
    Put(Box<Account>),
    Remove(UserName),
}

impl AccountChange {
    pub fn mutation(&self) -> SqlResult<Mutation> {
        Ok(match self {
            AccountChange::Put(a) => Mutation::Put(
                store::account_key(&a.name),
                serde_json::to_vec(a).map_err(|e| SqlError::internal(format!("account encode: {e}")))?,
            ),
            AccountChange::Remove(name) => Mutation::Delete(store::account_key(name)),
        })
    }

    pub fn apply(self, accounts: &mut AccountStore) {
        match self {
            AccountChange::Put(a) => accounts.put(*a),
            AccountChange::Remove(name) => accounts.remove(&name),
        }
    }
}

/// What an account statement is planned in.
#[derive(Debug, Clone, Copy)]
pub struct AccountContext<'a> {
    /// The current database ("" for none): GRANT ... ON * and ON t.
    pub db: &'a str,
    /// The session's account (SET PASSWORD without FOR).
    pub current: Option<&'a UserName>,
    /// The session's enabled role (CREATE ROLE ... WITH ADMIN CURRENT_ROLE).
    pub current_role: Option<&'a str>,
    /// GRANT may create a missing account without a password (sql_mode
    /// without NO_AUTO_CREATE_USER; a replay, whose statement succeeded).
    pub auto_create: bool,
}

/// A planned account statement.
pub struct AccountPlan {
    pub changes: Vec<AccountChange>,
    /// The statement as logged: passwords hashed, names resolved, and only
    /// the accounts it changed (`None`: it changed nothing).
    pub logged: Option<String>,
    /// The statement's error for the accounts it could not change, reported
    /// after those it could are committed (as MariaDB does).
    pub error: Option<SqlError>,
    pub notes: Vec<(u16, String)>,
}

impl AccountPlan {
    pub fn into_ddl(self) -> SqlResult<DdlPlan> {
        let mutations = self.changes.iter().map(AccountChange::mutation).collect::<SqlResult<Vec<_>>>()?;
        Ok(crate::ddl::ok_plan(mutations, CatalogChange::Accounts(self.changes)))
    }
}

/// Replaces plaintext passwords by their hashes and names the current
/// account and database where the statement left them implicit. SET
/// PASSWORD hashes for the plugin the account in `accounts` has, as
/// MariaDB's does (an ed25519 account stays one).
pub fn resolve(stmt: &AccountStmt, ctx: &AccountContext, accounts: &AccountStore) -> SqlResult<AccountStmt> {
    let hash = |auth: &Option<Auth>| auth.as_ref().map(hash_auth).transpose();
    let specs = |users: &[UserSpec]| -> SqlResult<Vec<UserSpec>> {
        users.iter().map(|u| Ok(UserSpec { name: u.name.clone(), auth: hash(&u.auth)? })).collect()
    };
    let level = |level: &PrivLevel| -> SqlResult<PrivLevel> {
        let db = || -> SqlResult<String> {
            match ctx.db {
                "" => Err(SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected")),
                db => Ok(db.to_string()),
            }
        };
        Ok(match level {
            PrivLevel::Db(None) => PrivLevel::Db(Some(db()?)),
            PrivLevel::Table(None, t) => PrivLevel::Table(Some(db()?), t.clone()),
            other => other.clone(),
        })
    };
    Ok(match stmt {
        AccountStmt::CreateUser { or_replace, if_not_exists, users, options } => AccountStmt::CreateUser {
            or_replace: *or_replace,
            if_not_exists: *if_not_exists,
            users: specs(users)?,
            options: options.clone(),
        },
        AccountStmt::AlterUser { if_exists, users, options } => {
            AccountStmt::AlterUser { if_exists: *if_exists, users: specs(users)?, options: options.clone() }
        }
        AccountStmt::SetPassword { user, auth } => {
            let user = match (user, ctx.current) {
                (Some(u), _) => u.clone(),
                (None, Some(current)) if current.user.is_empty() => {
                    return Err(SqlError::new(
                        ErrorCode::PASSWORD_ANONYMOUS_USER,
                        "You are using MariaDB as an anonymous user and anonymous users are not allowed to modify user settings",
                    ))
                }
                (None, Some(current)) => current.clone(),
                (None, None) => return Err(no_matching_row()),
            };
            let plugin = accounts.get(&user).map_or(AuthPlugin::MysqlNativePassword, |a| a.plugin);
            let auth = match plugin {
                AuthPlugin::Ed25519 => match hash_auth(&Auth::Plugin(plugin, Some(Box::new(auth.clone()))))? {
                    Auth::Plugin(_, Some(hashed)) => *hashed,
                    _ => return Err(SqlError::internal("ed25519 SET PASSWORD lost its hash")),
                },
                _ => hash_auth(auth)?,
            };
            AccountStmt::SetPassword { user: Some(user), auth }
        }
        AccountStmt::Grant { privs, all, level: l, to, grant_option, options } => AccountStmt::Grant {
            privs: privs.clone(),
            all: *all,
            level: level(l)?,
            to: specs(to)?,
            grant_option: *grant_option,
            options: options.clone(),
        },
        AccountStmt::Revoke { privs, all, grant_option, level: l, from } => AccountStmt::Revoke {
            privs: privs.clone(),
            all: *all,
            grant_option: *grant_option,
            level: level(l)?,
            from: from.clone(),
        },
        other => roles::resolve(other, ctx)?,
    })
}

fn hash_auth(auth: &Auth) -> SqlResult<Auth> {
    match auth {
        Auth::Password(pw) => Ok(Auth::Hash(native_hash(&crate::parse::literal_bytes(pw)))),
        Auth::Hash(h) if store::valid_native_hash(h) => Ok(Auth::Hash(h.to_ascii_uppercase())),
        Auth::Hash(_) => {
            Err(SqlError::new(ErrorCode::PASSWORD_FORMAT, "Password hash should be a 41-digit hexadecimal number"))
        }
        Auth::Plugin(AuthPlugin::Ed25519, Some(using)) => {
            let key = match &**using {
                // MariaDB stores nothing for the empty password (and then
                // no password logs in).
                Auth::Password(pw) if pw.is_empty() => String::new(),
                Auth::Password(pw) => store::ed25519_password(&crate::parse::literal_bytes(pw)),
                Auth::Hash(h) if store::ed25519_key(h).is_some() => h.clone(),
                Auth::Hash(h) if h.len() == store::ED25519_PASSWORD_LEN => {
                    return Err(SqlError::new(ErrorCode::PASSWORD_FORMAT, "Password hash should be base64 encoded"))
                }
                _ => {
                    return Err(SqlError::new(
                        ErrorCode::PASSWORD_FORMAT,
                        format!("Password hash should be {} characters long", store::ED25519_PASSWORD_LEN),
                    ))
                }
            };
            Ok(Auth::Plugin(AuthPlugin::Ed25519, Some(Box::new(Auth::Hash(key)))))
        }
        Auth::Plugin(plugin, using) => match using.as_deref() {
            None | Some(Auth::Hash(_)) => Ok(auth.clone()),
            // unix_socket has no password to hash: MariaDB refuses one.
            Some(_) => Err(SqlError::new(
                ErrorCode::SET_PASSWORD_AUTH_PLUGIN,
                format!("SET PASSWORD is not applicable for users authenticating via {} plugin", plugin.name()),
            )),
        },
    }
}

fn no_matching_row() -> SqlError {
    SqlError::new(ErrorCode::PASSWORD_NO_MATCH, "Can't find any matching row in the user table")
}

fn operation_failed(operation: &str, names: &[&UserName]) -> SqlError {
    let list: Vec<String> = names.iter().map(|n| n.quoted()).collect();
    SqlError::new(ErrorCode::CANNOT_USER, format!("Operation {operation} failed for {}", list.join(",")))
}

/// The working copy of the accounts a statement changes.
struct Changes<'a> {
    store: &'a AccountStore,
    /// Accounts as the statement leaves them so far (`None`: removed).
    touched: Vec<(UserName, Option<Account>)>,
}

impl<'a> Changes<'a> {
    fn new(store: &'a AccountStore) -> Self {
        Changes { store, touched: Vec::new() }
    }

    fn get(&self, name: &UserName) -> Option<Account> {
        match self.touched.iter().rev().find(|(n, _)| n == name) {
            Some((_, a)) => a.clone(),
            None => self.store.get(name).map(|a| (**a).clone()),
        }
    }

    fn put(&mut self, account: Account) {
        self.touched.push((account.name.clone(), Some(account)));
    }

    fn remove(&mut self, name: &UserName) {
        self.touched.push((name.clone(), None));
    }

    /// The changes in order, leaving out accounts that end as they began.
    fn into_changes(self) -> Vec<AccountChange> {
        let mut out = Vec::new();
        for (name, account) in self.touched {
            let before = self.store.get(&name).map(|a| (**a).clone());
            let change = match account {
                Some(a) if Some(&a) != before.as_ref() => AccountChange::Put(Box::new(a)),
                None if before.is_some() => AccountChange::Remove(name),
                _ => continue,
            };
            out.retain(|c: &AccountChange| !same_name(c, change_name(&change)));
            out.push(change);
        }
        out
    }
}

fn change_name(c: &AccountChange) -> &UserName {
    match c {
        AccountChange::Put(a) => &a.name,
        AccountChange::Remove(n) => n,
    }
}

fn same_name(c: &AccountChange, name: &UserName) -> bool {
    change_name(c) == name
}

fn set_options(account: &mut Account, options: &AccountOptions) {
    if let Some(require) = &options.require {
        account.require = require.clone();
    }
    for &(i, value) in &options.limits {
        account.limits[i] = value;
    }
    if let Some(lock) = options.lock {
        account.locked = lock;
    }
    if let Some(expire) = options.password_expire {
        account.password_expired = expire;
    }
}

/// IDENTIFIED ...: the plugin and its stored string (`resolve` left only
/// hashes).
fn set_auth(account: &mut Account, auth: &Option<Auth>) {
    let (plugin, auth_string) = match auth {
        None => return,
        Some(Auth::Hash(h) | Auth::Password(h)) => (AuthPlugin::MysqlNativePassword, h.clone()),
        Some(Auth::Plugin(plugin, using)) => (*plugin, using.as_deref().map(auth_text).unwrap_or_default()),
    };
    account.plugin = plugin;
    set_password(account, auth_string);
}

/// SET PASSWORD: a new stored string for the plugin the account has.
fn set_password(account: &mut Account, auth_string: String) {
    account.auth_string = auth_string;
    account.sha2_hash = None;
    account.password_expired = false;
}

/// The text a (resolved) USING holds.
fn auth_text(auth: &Auth) -> String {
    match auth {
        Auth::Hash(h) | Auth::Password(h) => h.clone(),
        Auth::Plugin(_, using) => using.as_deref().map(auth_text).unwrap_or_default(),
    }
}

/// Plans a statement `resolve` has rewritten.
pub fn plan(catalog: &Catalog, stmt: &AccountStmt, ctx: &AccountContext) -> SqlResult<AccountPlan> {
    let mut changes = Changes::new(&catalog.accounts);
    if let Some(outcome) = roles::plan(&mut changes, stmt)? {
        let changes = changes.into_changes();
        let logged = outcome.logged.filter(|_| !changes.is_empty());
        return Ok(AccountPlan { changes, logged, ..outcome });
    }
    let mut notes = Vec::new();
    let mut failed: Vec<&UserName> = Vec::new();
    // The statement with only the accounts it changed, to log.
    let logged: Option<AccountStmt>;
    let operation;
    match stmt {
        AccountStmt::CreateUser { or_replace, if_not_exists, users, options } => {
            operation = "CREATE USER";
            let mut done = Vec::new();
            for spec in users {
                let exists = changes.get(&spec.name).is_some();
                if exists && *if_not_exists {
                    notes.push((1973, format!("Can't create user {}; it already exists", spec.name.quoted())));
                    continue;
                }
                if exists && !*or_replace {
                    failed.push(&spec.name);
                    continue;
                }
                let mut account = Account::new(spec.name.clone(), String::new());
                set_auth(&mut account, &spec.auth);
                set_options(&mut account, options);
                changes.put(account);
                done.push(spec.clone());
            }
            logged = (!done.is_empty()).then(|| AccountStmt::CreateUser {
                or_replace: *or_replace,
                if_not_exists: *if_not_exists,
                users: done,
                options: options.clone(),
            });
        }
        AccountStmt::AlterUser { if_exists, users, options } => {
            operation = "ALTER USER";
            let mut done = Vec::new();
            for spec in users {
                let Some(mut account) = changes.get(&spec.name) else {
                    if *if_exists {
                        notes.push((1396, format!("Operation ALTER USER failed for {}", spec.name.quoted())));
                    } else {
                        failed.push(&spec.name);
                    }
                    continue;
                };
                set_auth(&mut account, &spec.auth);
                set_options(&mut account, options);
                changes.put(account);
                done.push(spec.clone());
            }
            logged = (!done.is_empty()).then(|| AccountStmt::AlterUser {
                if_exists: *if_exists,
                users: done,
                options: options.clone(),
            });
        }
        AccountStmt::DropUser { if_exists, users } => {
            operation = "DROP USER";
            let mut done = Vec::new();
            for name in users {
                if changes.get(name).is_none() {
                    if *if_exists {
                        notes.push((1974, format!("Can't drop user {}; it doesn't exist", name.quoted())));
                    } else {
                        failed.push(name);
                    }
                    continue;
                }
                changes.remove(name);
                done.push(name.clone());
            }
            logged = (!done.is_empty()).then_some(AccountStmt::DropUser { if_exists: *if_exists, users: done });
        }
        AccountStmt::RenameUser(pairs) => {
            operation = "RENAME USER";
            let mut done = Vec::new();
            for (from, to) in pairs {
                match (changes.get(from), changes.get(to)) {
                    (Some(mut account), None) => {
                        changes.remove(from);
                        account.name = to.clone();
                        changes.put(account);
                        done.push((from.clone(), to.clone()));
                    }
                    _ => failed.push(from),
                }
            }
            logged = (!done.is_empty()).then_some(AccountStmt::RenameUser(done));
        }
        AccountStmt::SetPassword { user, auth } => {
            operation = "SET PASSWORD";
            let name = user.as_ref().ok_or_else(no_matching_row)?;
            let mut account = changes.get(name).ok_or_else(no_matching_row)?;
            set_password(&mut account, auth_text(auth));
            changes.put(account);
            logged = Some(stmt.clone());
        }
        AccountStmt::Grant { privs, all, level, to, grant_option, options } => {
            operation = "GRANT";
            let bits = grant_bits(privs, *all, level)? | if *grant_option { privs::GRANT } else { 0 };
            check_columns(catalog, privs, level)?;
            for spec in to {
                let name = roles::grantee(changes.store, &spec.name);
                let mut account = match changes.get(&name) {
                    Some(a) => a,
                    None if ctx.auto_create || spec.auth.as_ref().is_some_and(|a| !auth_text(a).is_empty()) => {
                        Account::new(name, String::new())
                    }
                    None => return Err(no_matching_row()),
                };
                set_auth(&mut account, &spec.auth);
                set_options(&mut account, options);
                add_privs(&mut account, level, bits, privs);
                changes.put(account);
            }
            logged = Some(stmt.clone());
        }
        AccountStmt::Revoke { privs, all, grant_option, level, from } => {
            operation = "REVOKE";
            let bits = grant_bits(privs, *all, level)? | if *grant_option { privs::GRANT } else { 0 };
            for name in from {
                let name = &roles::grantee(changes.store, name);
                let mut account = changes.get(name).ok_or_else(|| no_such_grant(name, level))?;
                remove_privs(&mut account, level, bits, privs)?;
                changes.put(account);
            }
            logged = Some(stmt.clone());
        }
        AccountStmt::RevokeAll { from } => {
            operation = "REVOKE ALL";
            for name in from {
                let Some(mut account) = changes.get(name) else {
                    return Err(SqlError::new(
                        ErrorCode::REVOKE_GRANTS,
                        "Can't revoke all privileges for one or more of the requested users",
                    ));
                };
                account.global = 0;
                account.dbs.clear();
                account.tables.clear();
                // Its roles go too, as in MariaDB (the default role stays).
                account.roles.clear();
                changes.put(account);
            }
            logged = Some(stmt.clone());
        }
        _ => return Err(SqlError::internal("not an account change")),
    }
    let changes = changes.into_changes();
    let logged = logged.filter(|_| !changes.is_empty()).map(|s| render(&s));
    let error = (!failed.is_empty()).then(|| operation_failed(operation, &failed));
    Ok(AccountPlan { changes, logged, error, notes })
}

fn no_such_grant(name: &UserName, level: &PrivLevel) -> SqlError {
    match level {
        PrivLevel::Table(_, table) => SqlError::new(
            ErrorCode::NONEXISTING_TABLE_GRANT,
            format!(
                "There is no such grant defined for user '{}' on host '{}' on table '{table}'",
                name.user, name.host
            ),
        ),
        _ => SqlError::new(
            ErrorCode::NONEXISTING_GRANT,
            format!("There is no such grant defined for user '{}' on host '{}'", name.user, name.host),
        ),
    }
}

/// The privilege bits a GRANT / REVOKE list names, checked against what
/// its level can hold (MariaDB's errors 1221 and 1144).
fn grant_bits(items: &[PrivItem], all: bool, level: &PrivLevel) -> SqlResult<u64> {
    let level_all = match level {
        PrivLevel::Global => privs::GLOBAL_ALL,
        PrivLevel::Db(_) => privs::DB_ALL,
        PrivLevel::Table(..) => privs::TABLE_ALL,
    };
    let named = items.iter().filter(|i| i.columns.is_empty()).fold(0, |a, i| a | i.bits);
    let on_columns = items.iter().filter(|i| !i.columns.is_empty()).fold(0, |a, i| a | i.bits);
    let illegal = named & !level_all != 0
        || (on_columns != 0 && (!matches!(level, PrivLevel::Table(..)) || on_columns & !privs::COLUMN_ALL != 0));
    if illegal {
        return Err(match level {
            PrivLevel::Db(_) => {
                SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES")
            }
            _ => SqlError::new(
                ErrorCode::ILLEGAL_GRANT_FOR_TABLE,
                "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used",
            ),
        });
    }
    Ok(if all { level_all & !privs::GRANT } else { named })
}

/// A column grant names a table and columns that exist (MariaDB's 1146
/// and 1054).
fn check_columns(catalog: &Catalog, items: &[PrivItem], level: &PrivLevel) -> SqlResult<()> {
    let PrivLevel::Table(Some(db), table) = level else { return Ok(()) };
    let columns: Vec<&String> = items.iter().flat_map(|i| &i.columns).collect();
    if columns.is_empty() {
        return Ok(());
    }
    let entry = catalog.get_table(db, table)?;
    for c in columns {
        if entry.def.column_index(c).is_none() {
            return Err(SqlError::new(ErrorCode::BAD_FIELD, format!("Unknown column '{c}' in 'column list'")));
        }
    }
    Ok(())
}

fn column_items(items: &[PrivItem]) -> impl Iterator<Item = (&String, u64)> {
    items.iter().flat_map(|i| i.columns.iter().map(move |c| (c, i.bits)))
}

fn add_privs(account: &mut Account, level: &PrivLevel, bits: u64, items: &[PrivItem]) {
    match level {
        PrivLevel::Global => account.global |= bits,
        PrivLevel::Db(db) => *account.dbs.entry(db.clone().unwrap_or_default()).or_default() |= bits,
        PrivLevel::Table(db, table) => {
            let db = db.clone().unwrap_or_default();
            let at = match account.tables.iter().position(|t| t.db == db && t.table == *table) {
                Some(i) => i,
                None => {
                    account.tables.push(TableGrant { db, table: table.clone(), ..Default::default() });
                    account.tables.len() - 1
                }
            };
            let grant = &mut account.tables[at];
            grant.privs |= bits;
            for (column, b) in column_items(items) {
                *grant.columns.entry(column.clone()).or_default() |= b;
            }
        }
    }
}

fn remove_privs(account: &mut Account, level: &PrivLevel, bits: u64, items: &[PrivItem]) -> SqlResult<()> {
    let name = account.name.clone();
    match level {
        PrivLevel::Global => account.global &= !bits,
        PrivLevel::Db(db) => {
            let db = db.clone().unwrap_or_default();
            let held = account.dbs.get_mut(&db).ok_or_else(|| no_such_grant(&name, level))?;
            *held &= !bits;
            if *held == 0 {
                account.dbs.remove(&db);
            }
        }
        PrivLevel::Table(db, table) => {
            let db = db.clone().unwrap_or_default();
            let at = account
                .tables
                .iter()
                .position(|t| t.db == db && t.table == *table)
                .ok_or_else(|| no_such_grant(&name, level))?;
            let grant = &mut account.tables[at];
            grant.privs &= !bits;
            // REVOKE ALL on a table takes its column grants too.
            let all_columns = if bits & privs::COLUMN_ALL == privs::COLUMN_ALL { privs::COLUMN_ALL } else { 0 };
            for held in grant.columns.values_mut() {
                *held &= !(bits & all_columns);
            }
            for (column, b) in column_items(items) {
                if let Some(held) = grant.columns.get_mut(column) {
                    *held &= !b;
                }
            }
            grant.columns.retain(|_, p| *p != 0);
            if grant.privs == 0 && grant.columns.is_empty() {
                account.tables.remove(at);
            }
        }
    }
    Ok(())
}

/// A statement as SQL text that reads back as itself (the logged form).
pub fn render(stmt: &AccountStmt) -> String {
    let specs = |users: &[UserSpec]| {
        users
            .iter()
            .map(|u| match &u.auth {
                Some(Auth::Hash(h) | Auth::Password(h)) => {
                    format!("{} IDENTIFIED BY PASSWORD {}", u.name.sql(), sql_string(h))
                }
                Some(Auth::Plugin(plugin, None)) => format!("{} IDENTIFIED VIA {}", u.name.sql(), plugin.name()),
                Some(Auth::Plugin(plugin, Some(using))) => {
                    format!("{} IDENTIFIED VIA {} USING {}", u.name.sql(), plugin.name(), sql_string(&auth_text(using)))
                }
                None => u.name.sql(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let names = |users: &[UserName]| users.iter().map(UserName::sql).collect::<Vec<_>>().join(", ");
    match stmt {
        AccountStmt::CreateUser { or_replace, if_not_exists, users, options } => format!(
            "CREATE {}USER {}{}{}",
            if *or_replace { "OR REPLACE " } else { "" },
            if *if_not_exists { "IF NOT EXISTS " } else { "" },
            specs(users),
            render_options(options, false)
        ),
        AccountStmt::AlterUser { if_exists, users, options } => format!(
            "ALTER USER {}{}{}",
            if *if_exists { "IF EXISTS " } else { "" },
            specs(users),
            render_options(options, false)
        ),
        AccountStmt::DropUser { if_exists, users } => {
            format!("DROP USER {}{}", if *if_exists { "IF EXISTS " } else { "" }, names(users))
        }
        AccountStmt::RenameUser(pairs) => format!(
            "RENAME USER {}",
            pairs.iter().map(|(a, b)| format!("{} TO {}", a.sql(), b.sql())).collect::<Vec<_>>().join(", ")
        ),
        AccountStmt::SetPassword { user, auth } => {
            let user = user.as_ref().map(|u| format!(" FOR {}", u.sql())).unwrap_or_default();
            format!("SET PASSWORD{user} = {}", sql_string(&auth_text(auth)))
        }
        AccountStmt::Grant { privs, all, level, to, grant_option, options } => format!(
            "GRANT {} ON {} TO {}{}",
            render_privs(privs, *all, false),
            render_level(level),
            specs(to),
            render_options(options, *grant_option)
        ),
        AccountStmt::Revoke { privs, all, grant_option, level, from } => format!(
            "REVOKE {} ON {} FROM {}",
            render_privs(privs, *all, *grant_option),
            render_level(level),
            names(from)
        ),
        AccountStmt::RevokeAll { from } => format!("REVOKE ALL PRIVILEGES, GRANT OPTION FROM {}", names(from)),
        other => roles::render(other),
    }
}

fn ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

fn render_level(level: &PrivLevel) -> String {
    match level {
        PrivLevel::Global => "*.*".into(),
        PrivLevel::Db(Some(db)) => format!("{}.*", ident(db)),
        PrivLevel::Db(None) => "*".into(),
        PrivLevel::Table(Some(db), t) => format!("{}.{}", ident(db), ident(t)),
        PrivLevel::Table(None, t) => ident(t),
    }
}

fn render_privs(items: &[PrivItem], all: bool, grant_option: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    if all {
        out.push("ALL PRIVILEGES".into());
    }
    for item in items {
        let name = if item.bits == 0 { "USAGE" } else { privs::name(item.bits) };
        if item.columns.is_empty() {
            out.push(name.into());
        } else {
            let cols: Vec<String> = item.columns.iter().map(|c| ident(c)).collect();
            out.push(format!("{name} ({})", cols.join(", ")));
        }
    }
    if grant_option {
        out.push("GRANT OPTION".into());
    }
    out.join(", ")
}

fn render_options(options: &AccountOptions, grant_option: bool) -> String {
    let mut out = String::new();
    match &options.require {
        Some(Require::None) => out.push_str(" REQUIRE NONE"),
        Some(require) => out.push_str(&require.clause()),
        None => {}
    }
    if grant_option || !options.limits.is_empty() {
        out.push_str(" WITH");
        if grant_option {
            out.push_str(" GRANT OPTION");
        }
        for (i, v) in &options.limits {
            out.push_str(&format!(" {} {v}", LIMIT_NAMES[*i]));
        }
    }
    if options.password_expire == Some(true) {
        out.push_str(" PASSWORD EXPIRE");
    }
    match options.lock {
        Some(true) => out.push_str(" ACCOUNT LOCK"),
        Some(false) => out.push_str(" ACCOUNT UNLOCK"),
        None => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_single;

    fn run(catalog: &mut Catalog, sql: &str) -> SqlResult<AccountPlan> {
        let Statement::Account(stmt) = parse_single(sql)?.statement else { panic!("{sql}: not an account statement") };
        let ctx = AccountContext { db: "d", current: None, current_role: None, auto_create: false };
        let plan = plan(catalog, &resolve(&stmt, &ctx, &catalog.accounts)?, &ctx)?;
        for c in plan.changes.clone() {
            c.apply(&mut catalog.accounts);
        }
        Ok(plan)
    }
    use crate::ast::Statement;

    #[test]
    fn logged_text_has_no_plaintext_and_replays_the_same() {
        let mut live = Catalog::default();
        let mut replayed = Catalog::default();
        for sql in [
            "CREATE USER a@'%' IDENTIFIED BY 'secret', b IDENTIFIED VIA mysql_native_password USING PASSWORD('s2')",
            "GRANT SELECT, INSERT ON d.t TO a WITH GRANT OPTION MAX_USER_CONNECTIONS 3",
            "GRANT ALL ON d.* TO c IDENTIFIED BY 'pw3'",
            "SET PASSWORD FOR a = PASSWORD('other')",
            "ALTER USER b ACCOUNT LOCK REQUIRE SSL",
            "RENAME USER b TO b2@localhost",
            "REVOKE INSERT ON d.t FROM a",
            "CREATE ROLE r1 WITH ADMIN a",
            "GRANT SELECT ON d.* TO r1",
            "CREATE ROLE r2",
            "GRANT r1 TO r2",
            "GRANT r2 TO a WITH ADMIN OPTION",
            "SET DEFAULT ROLE r2 FOR a",
            "REVOKE ADMIN OPTION FOR r1 FROM a",
            "CREATE OR REPLACE ROLE r3",
            "DROP ROLE r1",
        ] {
            let plan = run(&mut live, sql).unwrap_or_else(|e| panic!("{sql}: {e:?}"));
            let logged = plan.logged.expect("changed accounts");
            for secret in ["secret", "s2", "pw3", "other"] {
                assert!(!logged.contains(secret), "{logged}");
            }
            run(&mut replayed, &logged).unwrap_or_else(|e| panic!("{logged}: {e:?}"));
        }
        let all = |c: &Catalog| c.accounts.all().map(|a| (**a).clone()).collect::<Vec<_>>();
        assert_eq!(all(&live), all(&replayed));
        let a = live.accounts.get(&UserName { user: "a".into(), host: "%".into() }).unwrap();
        assert_eq!(a.auth_string, native_hash(b"other"));
        assert_eq!(a.limits[3], 3);
        assert_eq!(a.table_privs("d", "t"), privs::SELECT | privs::GRANT);
        // The dropped role is gone from the role that held it.
        assert_eq!(a.roles, [RoleGrant { role: "r2".into(), admin: true }]);
        assert_eq!(a.default_role, "r2");
        assert!(live.accounts.role("r2").is_some_and(|r| r.roles.is_empty()));
        assert!(live.accounts.role("r1").is_none());
    }

    #[test]
    fn errors_are_mariadbs() {
        let mut c = Catalog::default();
        run(&mut c, "CREATE USER a").unwrap();
        let code = |c: &mut Catalog, sql: &str| match run(c, sql) {
            Ok(plan) => plan.error.map(|e| e.code.number),
            Err(e) => Some(e.code.number),
        };
        assert_eq!(code(&mut c, "CREATE USER a, b"), Some(1396));
        assert!(c.accounts.get(&UserName { user: "b".into(), host: "%".into() }).is_some());
        assert_eq!(code(&mut c, "DROP USER nobody"), Some(1396));
        assert_eq!(code(&mut c, "GRANT SELECT ON d.* TO nobody"), Some(1133));
        assert_eq!(code(&mut c, "GRANT SUPER ON d.* TO a"), Some(1221));
        assert_eq!(code(&mut c, "GRANT EXECUTE ON d.t TO a"), Some(1144));
        assert_eq!(code(&mut c, "REVOKE SELECT ON d.* FROM a"), Some(1141));
        assert_eq!(code(&mut c, "REVOKE SELECT ON d.t FROM a"), Some(1147));
        assert_eq!(code(&mut c, "CREATE USER x IDENTIFIED BY PASSWORD 'xyz'"), Some(1372));
        assert_eq!(code(&mut c, "SET PASSWORD FOR nobody = PASSWORD('x')"), Some(1133));
        assert_eq!(code(&mut c, "CREATE USER IF NOT EXISTS a"), None);
    }
}
