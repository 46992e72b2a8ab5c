//! LOCK TABLES prelocking: the tables a locked table or view brings with
//! it, as MariaDB's `LOCK TABLES` opens them (its "prelocking list").
//!
//! - A table locked WRITE brings the tables its triggers use: a trigger
//!   fires on a write, and under LOCK TABLES every table a statement
//!   touches must already be locked.
//! - A view brings its base tables (locked as the view is).
//! - Every trigger, stored function and procedure reached that way brings
//!   the tables its statements use: written ones WRITE, the others READ,
//!   and a table written there brings its own triggers in turn.
//!
//! The prelocked tables are locked (metadata locks included) and usable
//! afterwards like the named ones: MariaDB lets a session under `LOCK
//! TABLE t1 WRITE` read and write the table t1's trigger updates.

use crate::ast::routine::{LoopKind, RoutineKind, RowSource, SpExpr, SpSql, SpStmt};
use crate::ast::{AstPart, Expr, ObjectName};
use crate::catalog::Catalog;
use crate::mdl::TableUse;
use crate::parse::routine::any_statement;
use crate::session::{add_table_use, is_system_db, Session};
use std::cell::RefCell;
use std::collections::HashSet;

/// What `locked` (the tables LOCK TABLES names, temporary ones excepted)
/// locks in all: those tables and everything they bring (see the module
/// comment), each once, WRITE where anything writes it.
pub(crate) fn with_prelocked(session: &Session, locked: Vec<TableUse>) -> Vec<TableUse> {
    let catalog = session.engine.catalog.read();
    let mut walk =
        Walk { session, catalog: &catalog, tables: Vec::new(), triggers_of: HashSet::new(), routines: HashSet::new() };
    for ((db, table), write) in locked {
        walk.table(&db, &table, write);
    }
    walk.tables
}

struct Walk<'s> {
    session: &'s Session,
    catalog: &'s Catalog,
    tables: Vec<TableUse>,
    /// Tables whose triggers were walked already.
    triggers_of: HashSet<(String, String)>,
    /// Routines walked already: (db, kind is a function, lower-case name).
    routines: HashSet<(String, bool, String)>,
}

impl Walk<'_> {
    fn table(&mut self, db: &str, table: &str, write: bool) {
        if is_system_db(db) || self.session.temp.table(db, table).is_some() {
            return;
        }
        add_table_use(&mut self.tables, (db, table), write);
        if let Some(view) = self.catalog.view(db, table) {
            // Its query names its tables with their database.
            let (tables, functions) = query_uses(|f| view.query.for_each_part(f));
            tables.iter().for_each(|name| self.named_table(name, db, write));
            functions.iter().for_each(|name| self.function(name, db));
            return;
        }
        if write && self.triggers_of.insert((db.to_string(), table.to_string())) {
            for trigger in self.catalog.triggers_on(db, table) {
                self.body(&trigger.body.body, &trigger.def.db);
            }
        }
    }

    fn named_table(&mut self, name: &ObjectName, current_db: &str, write: bool) {
        let db = name.db.as_deref().unwrap_or(current_db);
        self.table(db, &name.name, write);
    }

    /// A stored function call of `name` (`db.f` or `f` of `current_db`);
    /// built-in functions are not in the catalog and bring nothing.
    fn function(&mut self, name: &str, current_db: &str) {
        let (db, name) = name.split_once('.').unwrap_or((current_db, name));
        self.routine(db, RoutineKind::Function, name);
    }

    fn routine(&mut self, db: &str, kind: RoutineKind, name: &str) {
        let key = (db.to_string(), kind == RoutineKind::Function, name.to_lowercase());
        if !self.routines.insert(key) {
            return;
        }
        if let Some(entry) = self.catalog.routine(db, kind, name) {
            self.body(&entry.routine.body, &entry.def.db);
        }
    }

    /// The tables and routines a routine or trigger body uses; `db` is the
    /// database it runs in.
    fn body(&mut self, body: &SpStmt, db: &str) {
        let uses = RefCell::new(BodyUses::default());
        any_statement(body, &|stmt| {
            uses.borrow_mut().add(stmt);
            false
        });
        let uses = uses.into_inner();
        for (name, write) in &uses.tables {
            self.named_table(name, db, *write);
        }
        uses.functions.iter().for_each(|name| self.function(name, db));
        for name in &uses.procedures {
            self.routine(name.db.as_deref().unwrap_or(db), RoutineKind::Procedure, &name.name);
        }
    }
}

/// The tables (names as written) and function names a query uses.
fn query_uses(walk: impl FnOnce(&mut dyn FnMut(AstPart<'_>))) -> (Vec<ObjectName>, Vec<String>) {
    let (mut tables, mut functions) = (Vec::new(), Vec::new());
    walk(&mut |part| match part {
        AstPart::Table(name) => tables.push(name.clone()),
        AstPart::Expr(e) => {
            e.for_each_table(&mut |name| tables.push(name.clone()));
            e.for_each_function(&mut |name| functions.push(name.to_string()));
        }
    });
    (tables, functions)
}

/// What the statements of a body use, collected statement by statement.
#[derive(Default)]
struct BodyUses {
    /// Tables as written, and whether a statement writes them.
    tables: Vec<(ObjectName, bool)>,
    functions: Vec<String>,
    procedures: Vec<ObjectName>,
}

impl BodyUses {
    /// Adds what `stmt` itself uses (not the statements nested in it).
    fn add(&mut self, stmt: &SpStmt) {
        for sql in own_sql(stmt) {
            let written: Vec<ObjectName> = sql.statement.written_tables().into_iter().cloned().collect();
            let (tables, functions) = query_uses(|f| sql.statement.for_each_part(f));
            for name in tables {
                let write = written.contains(&name);
                self.tables.push((name, write));
            }
            self.functions.extend(functions);
        }
        for expr in own_exprs(stmt) {
            expr.for_each_function(&mut |name| self.functions.push(name.to_string()));
            expr.for_each_table(&mut |name| self.tables.push((name.clone(), false)));
        }
        if let SpStmt::Call { name, .. } = stmt {
            self.procedures.push(name.clone());
        }
    }
}

/// The statements `stmt` runs itself: its SQL, a cursor's query, a FOR
/// loop's query.
fn own_sql(stmt: &SpStmt) -> Vec<&SpSql> {
    match stmt {
        SpStmt::Sql(sql) | SpStmt::DeclareCursor { query: sql, .. } => vec![sql],
        SpStmt::Loop { kind: LoopKind::ForRows { source: RowSource::Query(sql), .. }, .. } => vec![sql],
        _ => Vec::new(),
    }
}

/// The expressions `stmt` evaluates itself (not those of nested statements).
fn own_exprs(stmt: &SpStmt) -> Vec<&Expr> {
    let exprs: Vec<&SpExpr> = match stmt {
        SpStmt::DeclareVar { default, .. } => default.iter().collect(),
        SpStmt::Set(assignments) => assignments.iter().map(|(_, e)| e).collect(),
        SpStmt::If { branches, .. } => branches.iter().map(|(e, _)| e).collect(),
        SpStmt::Case { operand, whens, .. } => operand.iter().chain(whens.iter().map(|(e, _)| e)).collect(),
        SpStmt::Loop { kind, .. } => match kind {
            LoopKind::While(e) | LoopKind::Repeat(e) => vec![e],
            LoopKind::ForRange { lower, upper, .. } => vec![lower, upper],
            LoopKind::ForRows { source: RowSource::Cursor { args, .. }, .. } => args.iter().collect(),
            LoopKind::Plain | LoopKind::ForRows { .. } => Vec::new(),
        },
        SpStmt::Return(e) => vec![e],
        SpStmt::Open { args, .. } | SpStmt::Call { args, .. } => args.iter().collect(),
        SpStmt::Signal { items, .. } => items.iter().map(|(_, e)| e).collect(),
        _ => Vec::new(),
    };
    exprs.into_iter().map(|e| &e.expr).collect()
}
