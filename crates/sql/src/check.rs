//! CHECK constraints: what CREATE / ALTER TABLE define (names and the
//! condition's canonical text, as MariaDB stores and prints them) and what
//! INSERT, UPDATE and ALTER TABLE enforce (a row whose condition is false
//! is refused with 4025; NULL passes).
//!
//! A table keeps its conditions as text in its definition; they are parsed
//! and bound to the table's columns once per table definition (kept in
//! [`TableEntry::bound_checks`]), so a statement pays only for evaluating
//! them.

use crate::ast::CheckSpec;
use crate::catalog::TableEntry;
use crate::eval::{truthy, EvalEnv};
use crate::select::{self, ScopeColumn};
use onelog_core::{CheckConstraint, ErrorCode, SqlError, SqlResult, TableDef, Value};

pub use crate::catalog::BoundChecks;

/// The constraint `spec` defines on `def` (whose `checks` are the ones
/// already there): named after its column, by its CONSTRAINT name, or
/// `CONSTRAINT_<n>` as MariaDB numbers unnamed table constraints (after the
/// generated names there, skipping names taken or `reserved` by the same
/// statement). A name is the table's once (1826); the condition must name
/// only the table's columns (1054).
pub fn define(def: &TableDef, spec: &CheckSpec, reserved: &[&str]) -> SqlResult<CheckConstraint> {
    let taken = |name: &str| {
        def.checks.iter().any(|c| c.name.eq_ignore_ascii_case(name))
            || reserved.iter().any(|r| r.eq_ignore_ascii_case(name))
    };
    let name = match (&spec.column, &spec.name) {
        (Some(column), _) => column.clone(),
        (None, Some(name)) => {
            if def.checks.iter().any(|c| c.name.eq_ignore_ascii_case(name)) {
                return Err(SqlError::new(
                    ErrorCode::DUP_CONSTRAINT_NAME,
                    format!("Duplicate CHECK constraint name '{name}'"),
                ));
            }
            name.clone()
        }
        (None, None) => {
            let generated = def.checks.iter().filter(|c| is_generated_name(&c.name)).count();
            let n = (generated + 1..).find(|n| !taken(&format!("CONSTRAINT_{n}"))).unwrap_or(generated + 1);
            format!("CONSTRAINT_{n}")
        }
    };
    select::bind(&spec.condition, &scope(def)).map_err(|e| in_check_clause(e, &name))?;
    Ok(CheckConstraint {
        name,
        condition: crate::view::expression_text(&spec.condition)?,
        column_level: spec.column.is_some(),
    })
}

/// `CONSTRAINT_<n>`, the form MariaDB gives unnamed constraints.
fn is_generated_name(name: &str) -> bool {
    name.strip_prefix("CONSTRAINT_").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// MariaDB names the clause an unknown column was found in.
fn in_check_clause(e: SqlError, name: &str) -> SqlError {
    if e.code == ErrorCode::BAD_FIELD {
        let column = e.message.split('\'').nth(1).unwrap_or(name).to_string();
        return SqlError::new(ErrorCode::BAD_FIELD, format!("Unknown column '{column}' in 'CHECK'"));
    }
    e
}

/// The table's columns as an expression over its row sees them.
pub(crate) fn scope(def: &TableDef) -> Vec<ScopeColumn> {
    def.columns
        .iter()
        .map(|c| ScopeColumn::new(def.name.clone(), def.db.clone(), def.name.clone(), c.clone()))
        .collect()
}

/// A table's constraints parsed and bound, once per definition.
fn bound(table: &TableEntry) -> SqlResult<&BoundChecks> {
    if let Some(bound) = table.bound_checks.get() {
        return Ok(bound);
    }
    let scope = scope(&table.def);
    let bound = table
        .def
        .checks
        .iter()
        .map(|c| {
            let parsed = crate::parse::parse_expr_text(&c.condition)?;
            // 4025 names a column's constraint `table.column`.
            let shown = if c.column_level { format!("{}.{}", table.def.name, c.name) } else { c.name.clone() };
            Ok((shown, select::bind(&parsed, &scope)?))
        })
        .collect::<SqlResult<BoundChecks>>()?;
    Ok(table.bound_checks.get_or_init(|| bound))
}

/// The error for the first constraint `row` fails, if any; nothing when
/// the session turned `check_constraint_checks` off.
pub fn violation(ctx: &dyn EvalEnv, table: &TableEntry, row: &[Value]) -> SqlResult<Option<SqlError>> {
    if table.def.checks.is_empty() {
        return Ok(None);
    }
    let enforced = ctx.system_var(crate::ast::VarScope::Session, "check_constraint_checks")?;
    if truthy(&enforced) == Some(false) {
        return Ok(None);
    }
    let r = crate::eval::Row { values: row, params: &[], aggregates: &[], insert_values: None };
    for (name, condition) in bound(table)? {
        if truthy(&crate::eval::eval(condition, &r, ctx)?) == Some(false) {
            let def = &table.def;
            return Ok(Some(SqlError::new(
                ErrorCode::CONSTRAINT_FAILED,
                format!("CONSTRAINT `{name}` failed for `{}`.`{}`", def.db, def.name),
            )));
        }
    }
    Ok(None)
}
