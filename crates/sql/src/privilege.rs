//! Privilege checks: what each statement needs, checked in one place before
//! it runs, with MariaDB's errors (1142 table, 1044 database, 1227 global,
//! 1370 routine). The session keeps its account's privileges and reloads
//! them only when the engine's accounts version moves, so a check costs an
//! atomic load and, for an account with every privilege, nothing more.

use crate::accounts::{privs, Account};
use crate::ast::account::{
    AccountStmt, PrivLevel, UserName, HOST_NOT_GIVEN, MAX_QUERIES_PER_HOUR, MAX_UPDATES_PER_HOUR,
};
use crate::ast::*;
use crate::column_privilege::ColumnUse;
use crate::connections::LimitReached;
use crate::session::{is_system_db, Session};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use std::sync::Arc;

/// The session's privileges as last loaded.
#[derive(Debug, Default)]
pub struct PrivilegeCache {
    loaded: Option<(u64, Arc<Account>)>,
}

/// Which databases and tables a session may see: those it has some
/// privilege on (`None`: the server's own session, which sees all).
pub struct Visibility(Option<Arc<Account>>);

impl Visibility {
    /// Whether it holds any of `bits` globally.
    pub fn has_global(&self, bits: u64) -> bool {
        self.0.as_ref().is_none_or(|a| a.global & bits != 0)
    }

    /// Whether it holds any of `bits` on database `db`.
    pub fn has_db_privilege(&self, db: &str, bits: u64) -> bool {
        self.0.as_ref().is_none_or(|a| a.db_privs(db) & bits != 0)
    }

    pub fn db(&self, db: &str) -> bool {
        open_to_all(db) || self.0.as_ref().is_none_or(|a| a.global & privs::SHOW_DATABASES != 0 || a.sees_db(db))
    }

    /// The privileges SHOW FULL COLUMNS and information_schema.COLUMNS
    /// list for a column (`select,insert,update,references` at most), as
    /// the table's and the column's grants give them; `None` hides a
    /// column the account has none on, as MariaDB does.
    pub fn column_privileges(&self, db: &str, table: &str, column: &str) -> Option<String> {
        let bits = match &self.0 {
            Some(account) if !open_to_all(db) && account.global & privs::COLUMN_ALL != privs::COLUMN_ALL => {
                let grant = account.table_grant(db, table);
                let of_column = grant
                    .and_then(|g| g.columns.iter().find(|(name, _)| name.eq_ignore_ascii_case(column)))
                    .map_or(0, |(_, bits)| *bits);
                (account.table_privs(db, table) | of_column) & privs::COLUMN_ALL
            }
            _ => privs::COLUMN_ALL,
        };
        let names = [(privs::SELECT, "select"), (privs::INSERT, "insert"), (privs::UPDATE, "update")];
        let listed: Vec<&str> = (names.iter().chain(&[(privs::REFERENCES, "references")]))
            .filter(|(b, _)| bits & b != 0)
            .map(|(_, n)| *n)
            .collect();
        (!listed.is_empty()).then(|| listed.join(","))
    }

    pub fn table(&self, db: &str, table: &str) -> bool {
        open_to_all(db) || self.0.as_ref().is_none_or(|a| a.sees_table(db, table))
    }

    /// Whether information_schema.ROUTINES and PARAMETERS list every
    /// routine: with SELECT on mysql.proc, which holds them all, as in
    /// MariaDB.
    pub fn all_routines(&self) -> bool {
        self.0.as_ref().is_none_or(|a| a.table_privs("mysql", "proc") & privs::SELECT != 0)
    }

    /// Whether SHOW TRIGGERS, information_schema.TRIGGERS and SHOW CREATE
    /// TRIGGER show a trigger of `db`.`table`: with TRIGGER on the table,
    /// as in MariaDB (mariadb-dump leaves out the triggers it cannot see).
    pub fn trigger(&self, db: &str, table: &str) -> bool {
        self.0.as_ref().is_none_or(|a| a.table_privs(db, table) & privs::TRIGGER != 0)
    }

    /// Whether information_schema.VIEWS shows a view's definition: to its
    /// definer, and to an account with both SELECT and SHOW VIEW on it, as
    /// MariaDB does (others see an empty VIEW_DEFINITION).
    pub fn view_definition(&self, db: &str, view: &str, (definer_user, definer_host): (&str, &str)) -> bool {
        let both = privs::SELECT | privs::SHOW_VIEW;
        self.0.as_ref().is_none_or(|a| {
            (a.name.user == definer_user && a.name.host.eq_ignore_ascii_case(definer_host))
                || a.table_privs(db, view) & both == both
        })
    }

    /// Keeps the information_schema rows this session may see, by their
    /// schema (and table) columns.
    pub fn filter_rows(&self, names: &[&str], rows: &mut Vec<Vec<Value>>) {
        if self.0.is_none() {
            return;
        }
        let at = |n: &str| names.iter().position(|c| *c == n);
        let Some(schema) = at("TABLE_SCHEMA").or_else(|| at("SCHEMA_NAME")) else { return };
        let table = at("TABLE_NAME");
        let text = |v: &Value| match v {
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            _ => String::new(),
        };
        rows.retain(|row| {
            let db = text(&row[schema]);
            match table {
                Some(t) => self.table(&db, &text(&row[t])),
                None => self.db(&db),
            }
        });
    }
}

/// One thing a statement needs.
enum Need<'a> {
    /// Any of these global privileges (1227 names them).
    Global(u64),
    /// A global privilege to GRANT or REVOKE (1045, as MariaDB answers).
    GrantGlobal(u64),
    /// A privilege on a database (1044).
    Db(&'a str, u64),
    /// A privilege on a table (1142, with the command's name); owned, as
    /// a query's table names are lent only one at a time.
    Table(String, String, u64),
    /// Some privilege on the database (USE: 1044).
    SeesDb(&'a str),
    /// Some privilege on the database, for SHOW CREATE DATABASE (1044).
    ShowsCreateDb(&'a str),
    /// SHOW TABLES (and SHOW TRIGGERS) of a database: as MariaDB, an account with some global
    /// privilege gets the (filtered) list, one without gets 1044 for a
    /// database it has nothing on.
    ListDb(&'a str),
    /// Some privilege on the table (SHOW CREATE TABLE: 1142 SELECT).
    SeesTable(&'a str, &'a str),
    /// A column privilege on the table or one of its columns (SHOW
    /// COLUMNS, SHOW INDEX: 1142 SELECT).
    SeesColumns(&'a str, &'a str),
    /// SHOW VIEW on the table if it is a view (SHOW CREATE of a view:
    /// 1142 SHOW VIEW).
    ShowsView(&'a str, &'a str),
    /// EXECUTE on a routine's database (1370).
    Routine(&'a str, &'a str),
    /// Reading or changing another account's grants (1044 on `mysql`).
    OtherAccount,
    /// Granting or revoking a role: held WITH ADMIN OPTION by the account
    /// or its enabled roles, whatever else it may do (1698).
    RoleAdmin(&'a str),
}

impl Session {
    /// The account's privileges, reloaded after an account change; `None`
    /// for the server's own sessions, which are not checked. An account
    /// dropped while its session lives has no privileges left.
    pub fn privileges(&mut self) -> Option<Arc<Account>> {
        let name = self.account.as_ref()?;
        let version = self.engine.accounts_version();
        if let Some((at, account)) = &self.privilege_cache.loaded {
            if *at == version {
                return Some(account.clone());
            }
        }
        let account = self.effective_account(name);
        self.privilege_cache.loaded = Some((version, account.clone()));
        Some(account)
    }

    /// The account's privileges with those of its enabled role (and the
    /// roles that includes) added.
    fn effective_account(&self, name: &UserName) -> Arc<Account> {
        let catalog = self.engine.catalog.read();
        let accounts = &catalog.accounts;
        let account =
            accounts.get(name).cloned().unwrap_or_else(|| Arc::new(Account::new(name.clone(), String::new())));
        let roles = crate::accounts::roles::enabled_roles(accounts, &account, self.current_role.as_deref());
        if roles.is_empty() {
            return account;
        }
        let mut merged = (*account).clone();
        for role in roles {
            merged.add_role(&role);
        }
        Arc::new(merged)
    }

    /// Whether the session holds any of `bits` globally (or is the server's).
    pub fn has_global(&mut self, bits: u64) -> bool {
        self.privileges().is_none_or(|a| a.global & bits != 0)
    }

    /// Fails with 1227 unless the session holds one of `bits` globally
    /// (COM_BINLOG_DUMP's REPLICATION SLAVE, ...).
    pub fn require_global(&mut self, bits: u64) -> SqlResult<()> {
        if self.has_global(bits) {
            Ok(())
        } else {
            Err(global_denied(bits))
        }
    }

    /// Fails with 1045, naming the account, unless the session holds one
    /// of `bits` globally: MariaDB's answer to a replica's
    /// COM_REGISTER_SLAVE without REPLICATION SLAVE (where COM_BINLOG_DUMP
    /// answers 1227).
    pub fn require_global_access(&mut self, bits: u64) -> SqlResult<()> {
        match self.privileges() {
            Some(account) if account.global & bits == 0 => {
                Err(access_denied(&account.name.user, &account.name.host, &account))
            }
            _ => Ok(()),
        }
    }

    /// What SHOW and information_schema may list to this session; read
    /// afresh (they are not on the hot path, and may be called without
    /// `&mut`). Take it before locking the catalog.
    pub fn visibility(&self) -> Visibility {
        Visibility(self.account.as_ref().map(|name| self.effective_account(name)))
    }

    /// Checks that the session may run `stmt`.
    pub(crate) fn check_privileges(&mut self, stmt: &Statement) -> SqlResult<()> {
        let Some(account) = self.privileges() else { return Ok(()) };
        count_hourly_statement(&self.engine, &account, stmt)?;
        if self.password_expired && !allowed_when_expired(stmt, self.account.as_ref()) {
            return Err(SqlError::new(
                ErrorCode::MUST_CHANGE_PASSWORD,
                "You must SET PASSWORD before executing this statement",
            ));
        }
        if let Statement::Account(a) = stmt {
            if let Some(outcome) = self.check_role_statement(&account, a) {
                return outcome;
            }
        }
        if account.global == privs::GLOBAL_ALL {
            return Ok(());
        }
        // As MariaDB, read_only refuses a data or schema change before its
        // privileges are checked; an account change, a table maintenance
        // and a locking read after (they meet it opening their tables).
        let read_only = account.global & privs::READ_ONLY_ADMIN == 0 && self.read_only_refuses(stmt);
        let refused_late = matches!(
            stmt,
            Statement::Account(_)
                | Statement::Select(_)
                | Statement::TableMaintenance { op: MaintenanceOp::Analyze | MaintenanceOp::Repair, .. }
        );
        if read_only && !refused_late {
            return Err(read_only_denied());
        }
        let current = self.db.clone().unwrap_or_default();
        let mut needs = Vec::new();
        needs_of(stmt, &current, self.account.as_ref(), &mut needs);
        // A session's own temporary table needs no privilege once created,
        // as in MariaDB.
        needs.retain(|need| !matches!(need, Need::Table(db, table, _) if self.temp.table(db, table).is_some()));
        // Worked out only when a table-level check fails.
        let column_uses = std::cell::OnceCell::new();
        let columns_of = |db: &str, table: &str| self.table_columns(db, table);
        let uses =
            || column_uses.get_or_init(|| crate::column_privilege::column_uses(stmt, &current, &columns_of)).as_slice();
        needs.iter().try_for_each(|need| self.check_need(&account, need, &uses))?;
        if read_only {
            return Err(read_only_denied());
        }
        Ok(())
    }

    /// A table's column names in order; none for a table that is not there.
    fn table_columns(&self, db: &str, table: &str) -> Vec<String> {
        let entry = self.table_entry_in(db, table);
        entry.map(|e| e.def.columns.iter().map(|c| c.name.clone()).collect()).unwrap_or_default()
    }

    /// Whether `read_only` (when on) refuses `stmt`: any change to a base
    /// table, the schema or the accounts, and SELECT ... FOR UPDATE, as in
    /// MariaDB; the session's temporary tables stay writable. The
    /// replication applier's sessions are never checked.
    fn read_only_refuses(&self, stmt: &Statement) -> bool {
        let persistent = |name: &ObjectName| {
            let db = name.db.as_deref().or(self.db.as_deref()).unwrap_or_default();
            self.temp.table(db, &name.name).is_none()
        };
        let changes = match stmt {
            Statement::CreateTable(ct) => !ct.temporary,
            Statement::AlterTable { table, .. }
            | Statement::AlterTableKeys { table, .. }
            | Statement::CreateIndex { table, .. }
            | Statement::DropIndex { table, .. }
            | Statement::Truncate(table) => persistent(table),
            Statement::TableMaintenance { op, tables } => *op != MaintenanceOp::Check && tables.iter().any(persistent),
            Statement::Select(select) => crate::select::requested_lock(select) == Some(LockMode::Update),
            _ if stmt.is_ddl() => true,
            _ if stmt.writes() => stmt.written_tables().into_iter().any(persistent),
            _ => false,
        };
        changes && self.engine.vars.get("read_only").as_deref() == Some("1")
    }

    /// What role statements need instead of privileges: granting or
    /// revoking a role takes its ADMIN OPTION alone (a role that does not
    /// exist is the statement's own error, 1959), and the session may
    /// always see its enabled role's grants. `None`: checked as others.
    fn check_role_statement(&self, account: &Account, stmt: &AccountStmt) -> Option<SqlResult<()>> {
        match stmt {
            AccountStmt::GrantRole { role, .. } | AccountStmt::RevokeRole { role, .. } => {
                let exists = self.engine.catalog.read().accounts.role(role).is_some();
                Some(if exists { self.check_need(account, &Need::RoleAdmin(role), &|| &[]) } else { Ok(()) })
            }
            AccountStmt::ShowGrants(Some(name))
                if name.host == HOST_NOT_GIVEN && self.current_role.as_deref() == Some(name.user.as_str()) =>
            {
                Some(Ok(()))
            }
            _ => None,
        }
    }

    fn check_need<'u>(
        &self,
        account: &Account,
        need: &Need,
        column_uses: &dyn Fn() -> &'u [ColumnUse],
    ) -> SqlResult<()> {
        let name = self.account.as_ref().map(|a| (a.user.as_str(), a.host.as_str())).unwrap_or_default();
        let db_denied_to = |host: &str, db: &str| {
            SqlError::new(
                ErrorCode::DBACCESS_DENIED,
                format!("Access denied for user '{}'@'{host}' to database '{db}'", name.0),
            )
        };
        let db_denied = |db: &str| db_denied_to(name.1, db);
        let table_denied = |bit: u64, db: &str, table: &str| {
            SqlError::new(
                ErrorCode::TABLEACCESS_DENIED,
                format!(
                    "{} command denied to user '{}'@'{}' for table `{db}`.`{table}`",
                    if bit == privs::GRANT { "GRANT" } else { privs::name(bit) },
                    self.user,
                    self.host
                ),
            )
        };
        match *need {
            Need::Global(bits) if account.global & bits == 0 => Err(global_denied(bits)),
            Need::GrantGlobal(bit) if account.global & bit == 0 => Err(access_denied(&self.user, &self.host, account)),
            Need::Db(db, bit) if !readable_system(db, privs::SELECT) && account.db_privs(db) & bit == 0 => {
                Err(db_denied(db))
            }
            // GRANT OPTION has no column level; a column grant may cover
            // what the table lacks.
            Need::Table(ref db, ref table, privs::GRANT) if account.table_privs(db, table) & privs::GRANT == 0 => {
                Err(table_denied(privs::GRANT, db, table))
            }
            Need::Table(ref db, ref table, bit)
                if !readable_system(db, bit) && account.table_privs(db, table) & bit == 0 =>
            {
                let denied_to = (self.user.as_str(), self.host.as_str());
                let table_columns = || self.table_columns(db, table);
                crate::column_privilege::check(account, column_uses(), (db, table, bit), table_columns, denied_to)
            }
            Need::SeesDb(db) if !open_to_all(db) && !account.sees_db(db) => Err(db_denied(db)),
            // MariaDB's SHOW CREATE DATABASE names the client's host, not
            // the account's.
            Need::ShowsCreateDb(db) if !open_to_all(db) && !account.sees_db(db) => Err(db_denied_to(&self.host, db)),
            Need::ListDb(db) if !open_to_all(db) && account.global & !privs::GRANT == 0 && !account.sees_db(db) => {
                Err(db_denied(db))
            }
            Need::SeesTable(db, table) if !open_to_all(db) && !account.sees_table(db, table) => {
                Err(table_denied(privs::SELECT, db, table))
            }
            Need::SeesColumns(db, table)
                if !open_to_all(db) && self.temp.table(db, table).is_none() && !account.sees_columns(db, table) =>
            {
                Err(table_denied(privs::SELECT, db, table))
            }
            Need::ShowsView(db, table)
                if account.table_privs(db, table) & privs::SHOW_VIEW == 0 && self.is_unshadowed_view(db, table) =>
            {
                Err(table_denied(privs::SHOW_VIEW, db, table))
            }
            Need::Routine(db, routine) if account.db_privs(db) & privs::EXECUTE == 0 => Err(SqlError::new(
                ErrorCode::PROCACCESS_DENIED,
                format!(
                    "execute command denied to user '{}'@'{}' for routine '{db}'.'{routine}'",
                    self.user, self.host
                ),
            )),
            Need::OtherAccount
                if account.global & privs::CREATE_USER == 0 && account.db_privs("mysql") & privs::UPDATE == 0 =>
            {
                Err(db_denied("mysql"))
            }
            Need::RoleAdmin(role) if !account.role_grant(role).is_some_and(|g| g.admin) => Err(SqlError::new(
                ErrorCode::ACCESS_DENIED_NO_PASSWORD,
                format!("Access denied for user '{}'@'{}'", name.0, name.1),
            )),
            _ => Ok(()),
        }
    }
}

impl Session {
    /// Whether `db`.`table` names a view that no temporary table of the
    /// session hides.
    fn is_unshadowed_view(&self, db: &str, table: &str) -> bool {
        self.temp.table(db, table).is_none() && self.engine.catalog.read().view(db, table).is_some()
    }
}

/// Whether everyone may use and list the system database `db`: all but
/// `mysql`, whose grant tables take privileges as in MariaDB.
fn open_to_all(db: &str) -> bool {
    is_system_db(db) && !db.eq_ignore_ascii_case("mysql")
}

/// Tables of information_schema and performance_schema are readable by
/// everyone (information_schema shows only what the user may see).
fn readable_system(db: &str, bit: u64) -> bool {
    bit == privs::SELECT
        && (db.eq_ignore_ascii_case("information_schema") || db.eq_ignore_ascii_case("performance_schema"))
}

/// Counts `stmt` against the account's MAX_QUERIES_PER_HOUR and
/// MAX_UPDATES_PER_HOUR, if it has them: 1226 once one is used up.
fn count_hourly_statement(engine: &crate::Engine, account: &Account, stmt: &Statement) -> SqlResult<()> {
    let (queries, updates) = (account.limits[MAX_QUERIES_PER_HOUR], account.limits[MAX_UPDATES_PER_HOUR]);
    if queries == 0 && updates == 0 {
        return Ok(());
    }
    let key = account.counting_key();
    engine
        .connections
        .count_statement_in_hour(&key, queries, updates, stmt.writes())
        .map_err(|reached| user_limit_reached(&account.name.user, reached))
}

/// MariaDB's 1226 for an account that used up one of its resources.
pub fn user_limit_reached(user: &str, reached: LimitReached) -> SqlError {
    SqlError::new(
        ErrorCode::USER_LIMIT_REACHED,
        format!("User '{user}' has exceeded the '{}' resource (current value: {})", reached.resource, reached.limit),
    )
}

/// MariaDB's 1290 for a change while `read_only` is on.
fn read_only_denied() -> SqlError {
    SqlError::new(
        ErrorCode::OPTION_PREVENTS_STATEMENT,
        "The MariaDB server is running with the --read-only option so it cannot execute this statement",
    )
}

/// MariaDB's 1045 for a statement refused as a login would be; "using
/// password" says whether the account has one.
fn access_denied(user: &str, host: &str, account: &Account) -> SqlError {
    let using_password = if account.auth_string.is_empty() { "NO" } else { "YES" };
    SqlError::new(
        ErrorCode::ACCESS_DENIED,
        format!("Access denied for user '{user}'@'{host}' (using password: {using_password})"),
    )
}

/// MariaDB's 1227: "you need (at least one of) the X, Y privilege(s)".
pub(crate) fn global_denied(bits: u64) -> SqlError {
    let names: Vec<&str> = (0..39).map(|i| 1u64 << i).filter(|b| bits & b != 0).map(privs::name).collect();
    SqlError::new(
        ErrorCode::SPECIFIC_ACCESS_DENIED,
        format!("Access denied; you need (at least one of) the {} privilege(s) for this operation", names.join(", ")),
    )
}

/// What an account with an expired password may still run: its own SET
/// PASSWORD, and SET statements (drivers set session variables on
/// connecting).
fn allowed_when_expired(stmt: &Statement, own: Option<&UserName>) -> bool {
    match stmt {
        Statement::Set(_) | Statement::SetNames { .. } | Statement::SetTransaction { .. } => true,
        Statement::Account(a) => match &**a {
            AccountStmt::SetPassword { user, .. } => user.is_none() || user.as_ref() == own,
            _ => false,
        },
        _ => false,
    }
}

fn db_of<'a>(name: &'a ObjectName, current: &'a str) -> &'a str {
    name.db.as_deref().unwrap_or(current)
}

/// What `stmt` needs, in the order MariaDB checks it. Names that cannot
/// be resolved (no current database) are left to fail as they do.
fn needs_of<'a>(stmt: &'a Statement, current: &'a str, own: Option<&UserName>, needs: &mut Vec<Need<'a>>) {
    let table = |name: &ObjectName, bit: u64| Need::Table(db_of(name, current).to_string(), name.name.clone(), bit);
    match stmt {
        Statement::Select(_)
        | Statement::Insert(_)
        | Statement::Update(_)
        | Statement::Delete(_)
        | Statement::MultiUpdate(_)
        | Statement::MultiDelete(_) => {
            // A file on the server (SELECT ... INTO OUTFILE / DUMPFILE).
            if let Statement::Select(select) = stmt {
                if select.into.as_ref().is_some_and(|i| !matches!(i.target, IntoTarget::UserVars(_))) {
                    needs.push(Need::Global(privs::FILE));
                }
            }
            let written = stmt.written_tables();
            let write_bit = match stmt {
                Statement::Insert(_) => privs::INSERT,
                Statement::Update(_) | Statement::MultiUpdate(_) => privs::UPDATE,
                _ => privs::DELETE,
            };
            needs.extend(written.iter().map(|w| table(w, write_bit)));
            // An UPDATE reads the columns of its SET values, WHERE and
            // ORDER BY: SELECT on them (by column, see column_privilege).
            if let Statement::Update(upd) = stmt {
                let reads_columns = (upd.assignments.iter().map(|(_, e)| e))
                    .chain(&upd.selection)
                    .chain(upd.order_by.iter().map(|o| &o.expr))
                    .any(|e| e.contains(&|e| matches!(e, Expr::Column { .. })));
                if reads_columns {
                    needs.push(table(&upd.table, privs::SELECT));
                }
            }
            stmt.for_each_table(&mut |name| {
                if !written.contains(&name) {
                    needs.push(table(name, privs::SELECT));
                }
            });
            // INSERT ... SELECT reading the table it writes reads it too.
            if let Statement::Insert(Insert { source: InsertSource::Select(select), .. }) = stmt {
                select.for_each_table(&mut |name| {
                    if written.contains(&name) {
                        needs.push(table(name, privs::SELECT));
                    }
                });
            }
        }
        Statement::CreateDatabase { name, .. } => needs.push(Need::Db(name, privs::CREATE)),
        Statement::DropDatabase { name, .. } => needs.push(Need::Db(name, privs::DROP)),
        Statement::AlterDatabase { name, .. } => needs.push(Need::Db(name.as_deref().unwrap_or(current), privs::ALTER)),
        Statement::Use(db) => needs.push(Need::SeesDb(db)),
        // CREATE TEMPORARY TABLES is a database privilege only (1044).
        Statement::CreateTable(ct) if ct.temporary => {
            needs.push(Need::Db(db_of(&ct.name, current), privs::CREATE_TEMPORARY_TABLES))
        }
        Statement::CreateTable(ct) => needs.push(table(&ct.name, privs::CREATE)),
        Statement::DropTable { names, .. } => needs.extend(names.iter().map(|n| table(n, privs::DROP))),
        Statement::CreateView(view) => needs.push(table(&view.name, privs::CREATE_VIEW)),
        Statement::DropView { names, .. } => needs.extend(names.iter().map(|n| table(n, privs::DROP))),
        Statement::CreateIndex { table: t, .. } | Statement::DropIndex { table: t, .. } => {
            needs.push(table(t, privs::INDEX))
        }
        Statement::AlterTable { table: t, .. } | Statement::AlterTableKeys { table: t, .. } => {
            needs.push(table(t, privs::ALTER))
        }
        Statement::Truncate(t) => needs.push(table(t, privs::DROP)),
        Statement::RenameTables(pairs) => {
            for (from, to) in pairs {
                needs.extend([table(from, privs::ALTER), table(from, privs::DROP)]);
                needs.extend([table(to, privs::CREATE), table(to, privs::INSERT)]);
            }
        }
        Statement::LockTables(tables) => {
            for (name, _) in tables {
                needs.push(Need::Db(db_of(name, current), privs::LOCK_TABLES));
                needs.push(table(name, privs::SELECT));
            }
        }
        // CHECK reads; ANALYZE, OPTIMIZE and REPAIR write too (MariaDB
        // asks for SELECT and INSERT).
        Statement::TableMaintenance { op, tables } => {
            for t in tables {
                needs.push(table(t, privs::SELECT));
                if *op != MaintenanceOp::Check {
                    needs.push(table(t, privs::INSERT));
                }
            }
        }
        Statement::HandlerOpen { table: t, .. } => needs.push(table(t, privs::SELECT)),
        Statement::ChecksumTable { tables, .. } => tables.iter().for_each(|t| needs.push(table(t, privs::SELECT))),
        Statement::Set(assignments) => {
            for assignment in assignments {
                if let SetTarget::System { scope, name } = &assignment.target {
                    if let Some(bits) = set_variable_privileges(name, *scope == VarScope::Global) {
                        needs.push(Need::Global(bits));
                    }
                }
            }
        }
        Statement::Show { what, .. } => show_needs(what, current, needs),
        // Listed as SHOW TABLES; without a database it fails as it runs
        // (1046).
        Statement::ShowTriggers { db, .. } => match db.as_deref().unwrap_or(current) {
            "" => {}
            db => needs.push(Need::ListDb(db)),
        },
        Statement::Explain { statement, .. } => needs_of(statement, current, own, needs),
        Statement::Shutdown => needs.push(Need::Global(privs::SHUTDOWN)),
        // A server-side file needs FILE; REPLACE deletes what it replaces.
        Statement::LoadData(load) => {
            if !load.local {
                needs.push(Need::Global(privs::FILE));
            }
            needs.push(table(&load.table, privs::INSERT));
            if load.duplicates == CreateSelectDuplicates::Replace {
                needs.push(table(&load.table, privs::DELETE));
            }
        }
        Statement::FlushHosts | Statement::FlushSsl | Statement::FlushUserResources => {
            needs.push(Need::Global(privs::RELOAD))
        }
        // MariaDB's INSTALL writes mysql.plugin.
        Statement::InstallPlugin { .. } => needs.push(Need::Table("mysql".into(), "plugin".into(), privs::INSERT)),
        Statement::FlushBinaryLogs
        | Statement::FlushTablesWithReadLock
        | Statement::FlushOther
        | Statement::ResetMaster => needs.push(Need::Global(privs::RELOAD)),
        Statement::PurgeBinaryLogsTo(_) | Statement::PurgeBinaryLogsBefore(_) => {
            needs.push(Need::Global(privs::SUPER | privs::BINLOG_ADMIN))
        }
        Statement::CreateRoutine(create) => needs.push(Need::Db(db_of(&create.name, current), privs::CREATE_ROUTINE)),
        Statement::DropRoutine { name, .. } | Statement::AlterRoutine { name, .. } => {
            needs.push(Need::Db(db_of(name, current), privs::ALTER_ROUTINE))
        }
        Statement::Call { name, .. } => needs.push(Need::Routine(db_of(name, current), &name.name)),
        // Each statement inside is checked as it runs.
        Statement::Compound(_) => {}
        Statement::Account(account) => account_needs(account, current, own, needs),
        _ => {}
    }
}

/// The privileges (any one of them) setting a system variable takes, as
/// MariaDB 10.11's privilege.h declares them: SUPER for a global variable
/// without its own, SUPER or the finer admin privilege for those split
/// off SUPER in 10.5.2, READ_ONLY ADMIN alone for read_only. `None`: a
/// session variable anyone may set.
fn set_variable_privileges(name: &str, global: bool) -> Option<u64> {
    const BINLOG_ANY_SCOPE: &[&str] = &[
        "binlog_format",
        "binlog_direct_non_transactional_updates",
        "binlog_annotate_row_events",
        "binlog_row_image",
        "sql_log_bin",
    ];
    const BINLOG_REPLAY_SESSION: &[&str] = &["gtid_seq_no", "pseudo_thread_id", "server_id", "gtid_domain_id"];
    const BINLOG_GLOBAL: &[&str] = &[
        "binlog_cache_size",
        "binlog_file_cache_size",
        "binlog_stmt_cache_size",
        "binlog_commit_wait_count",
        "binlog_commit_wait_usec",
        "binlog_row_metadata",
        "expire_logs_days",
        "binlog_expire_logs_seconds",
        "log_bin_compress",
        "log_bin_compress_min_len",
        "log_bin_trust_function_creators",
        "max_binlog_cache_size",
        "max_binlog_stmt_cache_size",
        "max_binlog_size",
        "sync_binlog",
    ];
    const CONNECTION_GLOBAL: &[&str] = &[
        "connect_timeout",
        "disconnect_on_expired_password",
        "extra_max_connections",
        "init_connect",
        "max_connections",
        "max_connect_errors",
        "max_password_errors",
        "proxy_protocol_networks",
        "secure_auth",
        "slow_launch_time",
    ];
    const MASTER_GLOBAL: &[&str] = &["master_verify_checksum", "gtid_binlog_state", "server_id", "gtid_domain_id"];
    const SLAVE_GLOBAL: &[&str] = &[
        "read_binlog_speed_limit",
        "init_slave",
        "relay_log_purge",
        "relay_log_recovery",
        "sync_master_info",
        "sync_relay_log",
        "sync_relay_log_info",
        "gtid_cleanup_batch_size",
        "gtid_ignore_duplicates",
        "gtid_pos_auto_engines",
        "gtid_slave_pos",
        "gtid_strict_mode",
    ];
    let name = name.to_ascii_lowercase();
    let is = |list: &[&str]| list.contains(&name.as_str());
    if is(BINLOG_ANY_SCOPE) {
        return Some(privs::SUPER | privs::BINLOG_ADMIN);
    }
    if !global {
        return is(BINLOG_REPLAY_SESSION).then_some(privs::SUPER | privs::BINLOG_REPLAY);
    }
    Some(if name == "read_only" {
        privs::READ_ONLY_ADMIN
    } else if name == "slave_max_statement_time" {
        privs::REPLICATION_SLAVE_ADMIN
    } else if is(BINLOG_GLOBAL) {
        privs::SUPER | privs::BINLOG_ADMIN
    } else if is(CONNECTION_GLOBAL) || name.starts_with("thread_pool_") {
        privs::SUPER | privs::CONNECTION_ADMIN
    } else if is(MASTER_GLOBAL) || name.starts_with("rpl_semi_sync_master_") {
        privs::SUPER | privs::REPLICATION_MASTER_ADMIN
    } else if is(SLAVE_GLOBAL)
        || name.starts_with("replicate_")
        || name.starts_with("slave_")
        || name.starts_with("rpl_semi_sync_slave_")
    {
        privs::SUPER | privs::REPLICATION_SLAVE_ADMIN
    } else {
        privs::SUPER
    })
}

fn show_needs<'a>(what: &'a Show, current: &'a str, needs: &mut Vec<Need<'a>>) {
    let table = |name: &'a ObjectName| Need::SeesTable(db_of(name, current), &name.name);
    match what {
        Show::MasterStatus | Show::BinaryLogs => needs.push(Need::Global(privs::SUPER | privs::BINLOG_MONITOR)),
        Show::BinlogEvents { .. } => needs.push(Need::Global(privs::BINLOG_MONITOR)),
        Show::ReplicaHosts => needs.push(Need::Global(privs::REPLICATION_MASTER_ADMIN)),
        // SHOW TABLES [STATUS] lists only what the user may see.
        Show::Tables { db, .. } | Show::TableStatus { db } => {
            needs.push(Need::ListDb(db.as_deref().unwrap_or(current)))
        }
        Show::CreateDatabase { name, .. } => needs.push(Need::ShowsCreateDb(name)),
        Show::EngineStatus => needs.push(Need::Global(privs::PROCESS)),
        // EVENT on the database (1044); without one, SHOW EVENTS fails as
        // it runs (1046).
        Show::Events { db } => match db.as_deref().unwrap_or(current) {
            "" => {}
            db => needs.push(Need::Db(db, privs::EVENT)),
        },
        Show::Columns { table: t, .. } | Show::Index { table: t } => {
            needs.push(Need::SeesColumns(db_of(t, current), &t.name))
        }
        Show::CreateTable(t) => needs.extend([table(t), Need::ShowsView(db_of(t, current), &t.name)]),
        // SHOW CREATE VIEW reads the view: SELECT on it, then SHOW VIEW,
        // in MariaDB's order (a table that is not a view is then 1347).
        Show::CreateView(t) => needs.extend([
            Need::Table(db_of(t, current).to_string(), t.name.clone(), privs::SELECT),
            Need::ShowsView(db_of(t, current), &t.name),
        ]),
        _ => {}
    }
}

fn account_needs<'a>(stmt: &'a AccountStmt, current: &'a str, own: Option<&UserName>, needs: &mut Vec<Need<'a>>) {
    // A name without a host is the session's own `'user'@'%'` (a role of
    // that name aside).
    let is_own = |name: &UserName| {
        Some(name) == own || (name.host == HOST_NOT_GIVEN && own.is_some_and(|o| o.user == name.user && o.host == "%"))
    };
    match stmt {
        AccountStmt::CreateUser { .. } | AccountStmt::DropUser { .. } | AccountStmt::RenameUser(_) => {
            needs.push(Need::Global(privs::CREATE_USER))
        }
        AccountStmt::AlterUser { .. } => needs.push(Need::Global(privs::CREATE_USER)),
        AccountStmt::SetPassword { user: Some(user), .. } | AccountStmt::SetDefaultRole { user: Some(user), .. }
            if !is_own(user) =>
        {
            needs.push(Need::OtherAccount)
        }
        AccountStmt::CreateRole { .. } | AccountStmt::DropRole { .. } => needs.push(Need::Global(privs::CREATE_USER)),
        AccountStmt::ShowGrants(Some(user)) | AccountStmt::ShowCreateUser(Some(user)) if !is_own(user) => {
            needs.push(Need::Db("mysql", privs::SELECT))
        }
        AccountStmt::Grant { privs: items, all, level, .. } | AccountStmt::Revoke { privs: items, all, level, .. } => {
            // The grantor needs GRANT OPTION where it grants, and what it
            // grants.
            // The grantor needs GRANT OPTION where it grants (checked
            // first, as MariaDB reports it), and what it grants: ALL is every
            // privilege of the level.
            let level_all = match level {
                PrivLevel::Global => privs::GLOBAL_ALL,
                PrivLevel::Db(_) => privs::DB_ALL,
                PrivLevel::Table(..) => privs::TABLE_ALL,
            };
            let granted = items.iter().fold(0, |b, i| b | i.bits);
            let bits = if *all { level_all } else { granted } & !privs::GRANT;
            let grant_first = std::iter::once(privs::GRANT);
            for bit in grant_first.chain((0..39).map(|i| 1u64 << i).filter(|b| bits & b != 0)) {
                needs.push(match level {
                    PrivLevel::Global => Need::GrantGlobal(bit),
                    PrivLevel::Db(db) => Need::Db(db.as_deref().unwrap_or(current), bit),
                    PrivLevel::Table(db, t) => {
                        Need::Table(db.as_deref().unwrap_or(current).to_string(), t.clone(), bit)
                    }
                });
            }
        }
        AccountStmt::RevokeAll { .. } => needs.push(Need::Global(privs::CREATE_USER)),
        _ => {}
    }
}
