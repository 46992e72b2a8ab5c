//! Account statements run by a session: changes committed as a QUERY
//! event through the binlog, SHOW GRANTS and SHOW CREATE USER answered
//! from the catalog.

use super::{plan, resolve, roles, show, AccountContext};
use crate::ast::account::{AccountStmt, UserName};
use crate::ddl::CatalogChange;
use crate::session::{QueryResult, ResultColumn, Session};
use onelog_binlog::event::{query_body, type_code, GroupKind};
use onelog_binlog::pipeline::{PendingEvent, TxnEvents};
use onelog_core::{ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, Value};

pub fn execute(session: &mut Session, stmt: &AccountStmt) -> SqlResult<QueryResult> {
    match stmt {
        AccountStmt::ShowGrants(user) => show_grants(session, user.as_ref(), user.is_none()),
        AccountStmt::ShowGrantsForCurrentUser => show_grants(session, None, false),
        AccountStmt::ShowGrantsForCurrentRole => show_grants_for_current_role(session),
        AccountStmt::SetRole(role) => set_role(session, role.as_deref()),
        AccountStmt::ShowCreateUser(user) => show_create_user(session, user.as_ref()),
        _ => change(session, stmt),
    }
}

/// Plans, logs and applies an account change. Accounts the statement could
/// not change (an existing one for CREATE USER, ...) are reported after
/// those it could are committed, as MariaDB does.
fn change(session: &mut Session, stmt: &AccountStmt) -> SqlResult<QueryResult> {
    session.commit_txn()?;
    let engine = session.engine.clone();
    let db = session.db.clone().unwrap_or_default();
    let current = session.account.clone();
    let current_role = session.current_role.clone();
    let ctx = AccountContext {
        db: &db,
        current: current.as_ref(),
        current_role: current_role.as_deref(),
        auto_create: !session.sql_mode_has("NO_AUTO_CREATE_USER"),
    };
    let resolved = resolve(stmt, &ctx, &engine.catalog.read().accounts)?;
    let _ddl = engine.ddl_lock.lock();
    let plan = plan(&engine.catalog.read(), &resolved, &ctx)?;
    for (code, message) in &plan.notes {
        session.note(*code, message.clone());
    }
    if let Some(text) = &plan.logged {
        let mutations = plan.changes.iter().map(super::AccountChange::mutation).collect::<SqlResult<Vec<_>>>()?;
        let body = query_body(&session.query_event(&db, text));
        let events = TxnEvents {
            spilled: None,
            events: vec![PendingEvent { type_code: type_code::QUERY, flags: 0, body }],
            kind: GroupKind::StandaloneDdl,
            thread_id: session.connection_id as u32,
        };
        engine.commit(events, mutations)?;
        CatalogChange::Accounts(plan.changes).apply(&mut engine.catalog.write());
        engine.accounts_changed();
    }
    // A new password of its own ends an expired account's sandbox.
    if let AccountStmt::SetPassword { user: Some(user), .. } = &resolved {
        if Some(user) == current.as_ref() {
            session.password_expired = false;
        }
    }
    match plan.error {
        Some(e) => Err(e),
        None => Ok(QueryResult::ok(0)),
    }
}

/// The account SHOW names: the given one, or the session's own.
fn named_or_current(session: &Session, user: Option<&UserName>) -> SqlResult<UserName> {
    user.cloned()
        .or_else(|| session.account.clone())
        .ok_or_else(|| SqlError::new(ErrorCode::PASSWORD_NO_MATCH, "Can't find any matching row in the user table"))
}

/// SHOW GRANTS / SHOW CREATE USER's column: VARCHAR(1024) NOT NULL, as
/// MariaDB sends it.
fn one_column(title: String, lines: Vec<String>) -> QueryResult {
    let mut def = ColumnDef::new(&title, ColumnType::VarChar(1024));
    def.nullable = false;
    QueryResult::Rows {
        columns: vec![ResultColumn::named(&title, def)],
        rows: lines.into_iter().map(|l| vec![Value::from_str(&l)]).collect(),
    }
}

fn no_such_grant(name: &UserName) -> SqlError {
    SqlError::new(
        ErrorCode::NONEXISTING_GRANT,
        format!("There is no such grant defined for user '{}' on host '{}'", name.user, name.host),
    )
}

/// SHOW GRANTS as MariaDB words it: an account's own lines; for a role,
/// then those of each role it includes; `with_role` (SHOW GRANTS without
/// FOR), then those of the session's enabled role and the roles that
/// includes; last, an account's default role.
fn show_grants(session: &Session, user: Option<&UserName>, with_role: bool) -> SqlResult<QueryResult> {
    let catalog = session.engine.catalog.read();
    let name = match user {
        Some(user) => roles::grantee(&catalog.accounts, user),
        None => named_or_current(session, None)?,
    };
    let account = catalog.accounts.get(&name).ok_or_else(|| no_such_grant(&name))?;
    let included = match (account.is_role, with_role) {
        (true, _) => catalog.accounts.role_closure(&name.user).into_iter().skip(1).collect(),
        (false, true) => session.current_role.as_deref().map(|r| catalog.accounts.role_closure(r)).unwrap_or_default(),
        (false, false) => Vec::new(),
    };
    let mut lines = show::grant_lines(account);
    lines.extend(included.iter().flat_map(|role| show::grant_lines(role)));
    lines.extend(show::default_role_line(account));
    let title = if account.is_role { name.user.clone() } else { format!("{}@{}", name.user, name.host) };
    Ok(one_column(format!("Grants for {title}"), lines))
}

fn show_grants_for_current_role(session: &Session) -> SqlResult<QueryResult> {
    let catalog = session.engine.catalog.read();
    let closure = session.current_role.as_deref().map(|r| catalog.accounts.role_closure(r)).unwrap_or_default();
    let Some(role) = closure.first() else {
        return Err(no_such_grant(&named_or_current(session, None)?));
    };
    let lines = closure.iter().flat_map(|r| show::grant_lines(r)).collect();
    Ok(one_column(format!("Grants for {}", role.name.user), lines))
}

/// SET ROLE: a role granted to the session's account (MariaDB's 1959
/// otherwise), or NONE. The session's privileges are reloaded with it.
fn set_role(session: &mut Session, role: Option<&str>) -> SqlResult<QueryResult> {
    if let Some(role) = role {
        let catalog = session.engine.catalog.read();
        if catalog.accounts.role(role).is_none() {
            return Err(crate::parse::account::invalid_role(role));
        }
        if let Some(name) = &session.account {
            if catalog.accounts.get(name).is_none_or(|a| a.role_grant(role).is_none()) {
                return Err(roles::not_granted(name, role));
            }
        }
    }
    session.enable_role(role.map(str::to_string));
    Ok(QueryResult::ok(0))
}

fn show_create_user(session: &Session, user: Option<&UserName>) -> SqlResult<QueryResult> {
    let name = named_or_current(session, user)?;
    let catalog = session.engine.catalog.read();
    let account = catalog
        .accounts
        .get(&name)
        .ok_or_else(|| SqlError::new(ErrorCode::PASSWORD_NO_MATCH, "Can't find any matching row in the user table"))?;
    Ok(one_column(format!("CREATE USER for {}@{}", name.user, name.host), vec![show::create_user(account)]))
}
