//! Roles, as MariaDB 10.11 has them: an account `'name'@''` no client logs
//! in as, holding privileges like any account, granted to accounts and to
//! other roles (`Account::roles`). CREATE / DROP ROLE, GRANT / REVOKE of a
//! role and SET DEFAULT ROLE are account changes, planned here and logged
//! as the others are; SET ROLE only changes the session (`run`).

use super::store::{Account, AccountStore, RoleGrant};
use super::{no_matching_row, AccountContext, AccountPlan, Changes};
use crate::ast::account::*;
use crate::parse::account::invalid_role;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use std::sync::Arc;

/// The account a name stands for where a role may stand: without a host,
/// the role of that name if there is one, else `'name'@'%'`.
pub fn grantee(accounts: &AccountStore, name: &UserName) -> UserName {
    resolve_with(|role| accounts.role(role).is_some(), name)
}

fn resolve_with(is_role: impl Fn(&str) -> bool, name: &UserName) -> UserName {
    if name.host != HOST_NOT_GIVEN {
        return name.clone();
    }
    if is_role(&name.user) {
        UserName::role(&name.user)
    } else {
        UserName { user: name.user.clone(), host: "%".into() }
    }
}

/// A name as role statements' messages quote it: `'role'` or
/// `'user'@'host'`.
fn quoted(account: &Account) -> String {
    if account.is_role {
        format!("'{}'", account.name.user)
    } else {
        account.name.quoted()
    }
}

/// Names the current account where a statement left it implicit (the
/// logged form must name it: a replay has no session).
pub fn resolve(stmt: &AccountStmt, ctx: &AccountContext) -> SqlResult<AccountStmt> {
    Ok(match stmt {
        AccountStmt::CreateRole { or_replace, if_not_exists, role, admin } => {
            let admin = match (admin, ctx.current, ctx.current_role) {
                (RoleAdmin::CurrentUser, Some(user), _) => RoleAdmin::Named(user.clone()),
                (RoleAdmin::CurrentRole, _, Some(role)) => {
                    RoleAdmin::Named(UserName { user: role.to_string(), host: HOST_NOT_GIVEN.into() })
                }
                (RoleAdmin::CurrentRole, _, None) => {
                    return Err(SqlError::new(ErrorCode::MALFORMED_DEFINER, "Invalid definer"))
                }
                (other, ..) => other.clone(),
            };
            AccountStmt::CreateRole {
                or_replace: *or_replace,
                if_not_exists: *if_not_exists,
                role: role.clone(),
                admin,
            }
        }
        AccountStmt::SetDefaultRole { role, user: None } => {
            let user = ctx.current.cloned().ok_or_else(no_matching_row)?;
            AccountStmt::SetDefaultRole { role: role.clone(), user: Some(user) }
        }
        other => other.clone(),
    })
}

/// What a role statement changes; `None` for other statements.
pub(super) fn plan(changes: &mut Changes, stmt: &AccountStmt) -> SqlResult<Option<AccountPlan>> {
    let mut notes = Vec::new();
    let mut failed = Vec::new();
    let logged: Option<AccountStmt>;
    let failure: fn(&str, &[String]) -> SqlError;
    let subject: &str;
    match stmt {
        AccountStmt::CreateRole { or_replace, if_not_exists, role, admin } => {
            (failure, subject) = (operation_failed, "CREATE ROLE");
            let exists = changes.get(&UserName::role(role)).is_some();
            if exists && *if_not_exists {
                notes.push((1975, format!("Can't create role '{role}'; it already exists")));
                logged = None;
            } else if exists && !*or_replace {
                failed.push(format!("'{role}'"));
                logged = None;
            } else {
                if exists {
                    drop_role(changes, role);
                }
                create_role(changes, role, admin, &mut notes);
                logged = Some(stmt.clone());
            }
        }
        AccountStmt::DropRole { if_exists, roles } => {
            (failure, subject) = (operation_failed, "DROP ROLE");
            let mut done = Vec::new();
            for role in roles {
                if changes.get(&UserName::role(role)).is_some_and(|a| a.is_role) {
                    drop_role(changes, role);
                    done.push(role.clone());
                } else if *if_exists {
                    notes.push((1976, format!("Can't drop role '{role}'; it doesn't exist")));
                } else {
                    failed.push(format!("'{role}'"));
                }
            }
            logged = (!done.is_empty()).then_some(AccountStmt::DropRole { if_exists: *if_exists, roles: done });
        }
        AccountStmt::GrantRole { role, to, admin_option } => {
            (failure, subject) = (cannot_grant, role);
            existing_role(changes, role)?;
            for name in to {
                let name = changes.grantee(name);
                let mut account = changes.get(&name).ok_or_else(no_matching_row)?;
                if account.is_role && changes.role_includes(role, &account.name.user) {
                    failed.push(quoted(&account));
                    continue;
                }
                match account.roles.iter_mut().find(|g| g.role == *role) {
                    Some(held) => held.admin |= *admin_option,
                    None => account.roles.push(RoleGrant { role: role.clone(), admin: *admin_option }),
                }
                changes.put(account);
            }
            logged = Some(stmt.clone());
        }
        AccountStmt::RevokeRole { role, admin_option_only, from } => {
            (failure, subject) = (cannot_revoke, role);
            existing_role(changes, role)?;
            for name in from {
                let name = changes.grantee(name);
                let mut account = changes.get(&name).ok_or_else(no_matching_row)?;
                let Some(at) = account.roles.iter().position(|g| g.role == *role) else {
                    failed.push(quoted(&account));
                    continue;
                };
                if *admin_option_only {
                    account.roles[at].admin = false;
                } else {
                    account.roles.remove(at);
                }
                changes.put(account);
            }
            logged = Some(stmt.clone());
        }
        AccountStmt::SetDefaultRole { role, user: Some(user) } => {
            (failure, subject) = (operation_failed, "SET DEFAULT ROLE");
            let account = changes.get(user);
            if let Some(role) = role {
                existing_role(changes, role)?;
                if account.as_ref().is_none_or(|a| a.role_grant(role).is_none()) {
                    return Err(not_granted(user, role));
                }
            }
            let mut account = account.ok_or_else(no_matching_row)?;
            account.default_role = role.clone().unwrap_or_default();
            changes.put(account);
            logged = Some(stmt.clone());
        }
        _ => return Ok(None),
    }
    let error = (!failed.is_empty()).then(|| failure(subject, &failed));
    // The caller fills in the changes.
    Ok(Some(AccountPlan { changes: Vec::new(), logged: logged.map(|s| render(&s)), error, notes }))
}

/// MariaDB's 1959 for a role the account was not granted.
pub fn not_granted(user: &UserName, role: &str) -> SqlError {
    SqlError::new(ErrorCode::INVALID_ROLE, format!("User {} has not been granted role `{role}`", user.backquoted()))
}

fn operation_failed(operation: &str, names: &[String]) -> SqlError {
    SqlError::new(ErrorCode::CANNOT_USER, format!("Operation {operation} failed for {}", names.join(",")))
}

fn cannot_grant(role: &str, names: &[String]) -> SqlError {
    SqlError::new(ErrorCode::CANNOT_GRANT_ROLE, format!("Cannot grant role '{role}' to: {}", names.join(", ")))
}

fn cannot_revoke(role: &str, names: &[String]) -> SqlError {
    SqlError::new(ErrorCode::CANNOT_REVOKE_ROLE, format!("Cannot revoke role '{role}' from: {}", names.join(", ")))
}

fn existing_role(changes: &Changes, role: &str) -> SqlResult<()> {
    match changes.get(&UserName::role(role)) {
        Some(a) if a.is_role => Ok(()),
        _ => Err(invalid_role(role)),
    }
}

/// A new role, granted WITH ADMIN OPTION to its admin (a named admin that
/// does not exist is skipped with MariaDB's warning).
fn create_role(changes: &mut Changes, role: &str, admin: &RoleAdmin, notes: &mut Vec<(u16, String)>) {
    let mut account = Account::new(UserName::role(role), String::new());
    account.is_role = true;
    changes.put(account);
    // CURRENT_USER of the server's own session (a replay names its admin).
    let RoleAdmin::Named(name) = admin else { return };
    let name = changes.grantee(name);
    match changes.get(&name) {
        Some(mut admin) => {
            admin.roles.push(RoleGrant { role: role.to_string(), admin: true });
            changes.put(admin);
        }
        None => notes.push((1449, format!("The user specified as a definer ({}) does not exist", name.quoted()))),
    }
}

/// Removes a role and every grant of it.
fn drop_role(changes: &mut Changes, role: &str) {
    changes.remove(&UserName::role(role));
    let names: Vec<UserName> = changes.store.all().map(|a| a.name.clone()).collect();
    for name in names {
        if let Some(mut account) = changes.get(&name) {
            if account.role_grant(role).is_some() {
                account.roles.retain(|g| g.role != role);
                changes.put(account);
            }
        }
    }
}

impl Changes<'_> {
    fn grantee(&self, name: &UserName) -> UserName {
        resolve_with(|role| self.get(&UserName::role(role)).is_some_and(|a| a.is_role), name)
    }

    /// Whether `role` includes `other` (itself included), as the statement
    /// has left the roles so far.
    fn role_includes(&self, role: &str, other: &str) -> bool {
        let mut seen: Vec<String> = Vec::new();
        let mut pending = vec![role.to_string()];
        while let Some(next) = pending.pop() {
            if next == other {
                return true;
            }
            if seen.contains(&next) {
                continue;
            }
            if let Some(account) = self.get(&UserName::role(&next)) {
                pending.extend(account.roles.iter().map(|g| g.role.clone()));
            }
            seen.push(next);
        }
        false
    }
}

/// A role statement as SQL text that reads back as itself.
pub fn render(stmt: &AccountStmt) -> String {
    let names = |users: &[UserName]| users.iter().map(UserName::sql).collect::<Vec<_>>().join(", ");
    match stmt {
        AccountStmt::CreateRole { or_replace, if_not_exists, role, admin } => format!(
            "CREATE {}ROLE {}{}{}",
            if *or_replace { "OR REPLACE " } else { "" },
            if *if_not_exists { "IF NOT EXISTS " } else { "" },
            sql_string(role),
            match admin {
                RoleAdmin::Named(name) => format!(" WITH ADMIN {}", name.sql()),
                _ => String::new(),
            }
        ),
        AccountStmt::DropRole { if_exists, roles } => format!(
            "DROP ROLE {}{}",
            if *if_exists { "IF EXISTS " } else { "" },
            roles.iter().map(|r| sql_string(r)).collect::<Vec<_>>().join(", ")
        ),
        AccountStmt::GrantRole { role, to, admin_option } => format!(
            "GRANT {} TO {}{}",
            sql_string(role),
            names(to),
            if *admin_option { " WITH ADMIN OPTION" } else { "" }
        ),
        AccountStmt::RevokeRole { role, admin_option_only, from } => format!(
            "REVOKE {}{} FROM {}",
            if *admin_option_only { "ADMIN OPTION FOR " } else { "" },
            sql_string(role),
            names(from)
        ),
        AccountStmt::SetDefaultRole { role, user } => format!(
            "SET DEFAULT ROLE {}{}",
            role.as_deref().map_or("NONE".to_string(), sql_string),
            user.as_ref().map(|u| format!(" FOR {}", u.sql())).unwrap_or_default()
        ),
        _ => String::new(),
    }
}

/// The roles a session's privileges come from: its enabled role and those
/// it includes (none when the role is gone or no longer granted to it).
pub fn enabled_roles(accounts: &AccountStore, account: &Account, role: Option<&str>) -> Vec<Arc<Account>> {
    match role {
        Some(role) if account.role_grant(role).is_some() => accounts.role_closure(role),
        _ => Vec::new(),
    }
}

fn yes_no(yes: bool) -> Value {
    Value::from_str(if yes { "YES" } else { "NO" })
}

/// information_schema.APPLICABLE_ROLES: each role granted to the account,
/// and to those roles in turn, depth first (IS_DEFAULT is NULL for a
/// role's own grants).
pub fn applicable_rows(accounts: &AccountStore, account: &Account) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    applicable_from(accounts, account, &mut Vec::new(), &mut rows);
    rows
}

fn applicable_from(accounts: &AccountStore, grantee: &Account, seen: &mut Vec<String>, rows: &mut Vec<Vec<Value>>) {
    let name = match grantee.is_role {
        true => grantee.name.user.clone(),
        false => format!("{}@{}", grantee.name.user, grantee.name.host),
    };
    for grant in &grantee.roles {
        let is_default = if grantee.is_role { Value::Null } else { yes_no(grant.role == grantee.default_role) };
        rows.push(vec![Value::from_str(&name), Value::from_str(&grant.role), yes_no(grant.admin), is_default]);
        if !seen.contains(&grant.role) {
            seen.push(grant.role.clone());
            if let Some(role) = accounts.role(&grant.role) {
                applicable_from(accounts, role, seen, rows);
            }
        }
    }
}

/// information_schema.ENABLED_ROLES: the enabled role and those it
/// includes; one NULL row when none is, as MariaDB answers.
pub fn enabled_rows(accounts: &AccountStore, role: Option<&str>) -> Vec<Vec<Value>> {
    let closure = role.map(|r| accounts.role_closure(r)).unwrap_or_default();
    if closure.is_empty() {
        return vec![vec![Value::Null]];
    }
    closure.iter().map(|r| vec![Value::from_str(&r.name.user)]).collect()
}
