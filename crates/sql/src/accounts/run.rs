//! Account statements run by a session: changes committed as a QUERY
//! event through the binlog, SHOW GRANTS and SHOW CREATE USER answered
//! from the catalog.

use super::{plan, resolve, show, AccountContext};
use crate::ast::account::{AccountStmt, UserName};
use crate::ddl::CatalogChange;
use crate::session::{QueryResult, ResultColumn, Session};
use onelog_binlog::event::{query_body, type_code, GroupKind};
use onelog_binlog::pipeline::{PendingEvent, TxnEvents};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};

pub fn execute(session: &mut Session, stmt: &AccountStmt) -> SqlResult<QueryResult> {
    match stmt {
        AccountStmt::ShowGrants(user) => show_grants(session, user.as_ref()),
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
    let ctx = AccountContext {
        db: &db,
        current: current.as_ref(),
        auto_create: !session.session_value("sql_mode").contains("NO_AUTO_CREATE_USER"),
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

fn one_column(title: String, lines: Vec<String>) -> QueryResult {
    QueryResult::Rows {
        columns: vec![ResultColumn::text(&title)],
        rows: lines.into_iter().map(|l| vec![Value::from_str(&l)]).collect(),
    }
}

fn show_grants(session: &Session, user: Option<&UserName>) -> SqlResult<QueryResult> {
    let name = named_or_current(session, user)?;
    let catalog = session.engine.catalog.read();
    let account = catalog.accounts.get(&name).ok_or_else(|| {
        SqlError::new(
            ErrorCode::NONEXISTING_GRANT,
            format!("There is no such grant defined for user '{}' on host '{}'", name.user, name.host),
        )
    })?;
    Ok(one_column(format!("Grants for {}@{}", name.user, name.host), show::grant_lines(account)))
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
