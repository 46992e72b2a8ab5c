//! Generated columns (`[GENERATED ALWAYS] AS (expr) VIRTUAL | STORED |
//! PERSISTENT`, MariaDB 10.2+): what CREATE and ALTER TABLE accept and
//! keep (the expression's text as MariaDB prints it), and the values every
//! row write computes.
//!
//! OneLog keeps the values of VIRTUAL columns in the row as it does STORED
//! ones: MariaDB's binlog row images carry every column's value, virtual
//! ones included, so the row OneLog logs is the row it stores, and reads
//! and index keys need no computation. The values are the same as long as
//! the row is computed again whenever a column it reads changes, which
//! every write does here ([`fill`]) and ALTER TABLE does for the rows it
//! copies.
//!
//! As with expression DEFAULTs, the expressions are parsed and bound to
//! the table's columns once per table definition
//! ([`TableEntry::bound_generated`]).

use crate::ast::Expr;
use crate::catalog::TableEntry;
use crate::check::scope;
use crate::eval::EvalEnv;
use crate::select;
use onelog_core::schema::ColumnDefault;
use onelog_core::{ErrorCode, SqlError, SqlResult, TableDef, Value};

pub use crate::catalog::BoundDefaults as BoundGenerated;

/// The clause MariaDB's messages name.
const CLAUSE: &str = "GENERATED ALWAYS AS";

/// Checks the generated columns of `def` and puts their expressions in
/// MariaDB's printed form: no aggregate, stored function or (when the
/// value is kept: STORED or indexed) non-deterministic part (1901), only
/// the table's columns (1054), no generated column at or after its own
/// (4029), none in the primary key (1903); an expression DEFAULT may not
/// read a generated column (4029), which MariaDB computes after defaults.
pub fn canonicalize(def: &mut TableDef) -> SqlResult<()> {
    if def.columns.iter().all(|c| c.generated.is_none()) {
        return Ok(());
    }
    if def.primary_key().is_some_and(|pk| pk.columns.iter().any(|&c| def.columns[c].generated.is_some())) {
        return Err(SqlError::new(
            ErrorCode::PRIMARY_KEY_BASED_ON_GENERATED_COLUMN,
            "Primary key cannot be defined upon a generated column",
        ));
    }
    let scope = scope(def);
    // Per column: whether its value depends on the AUTO_INCREMENT value.
    let mut counts_rows: Vec<bool> = def.columns.iter().map(|c| c.auto_increment).collect();
    for col in 0..def.columns.len() {
        let column = &def.columns[col];
        let parsed = match (&column.generated, &column.default) {
            (Some(g), _) => crate::parse::parse_expr_text(&g.expr)?,
            (None, Some(ColumnDefault::Expr(text))) => {
                uninitialized(def, col, &crate::parse::parse_expr_text(text)?, 0)?;
                continue;
            }
            _ => continue,
        };
        let kept =
            column.generated.as_ref().is_some_and(|g| g.stored) || def.indexes.iter().any(|i| i.columns.contains(&col));
        if let Some(refused) = refused_part(&parsed, kept) {
            return Err(SqlError::new(
                ErrorCode::GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED,
                format!(
                    "Function or expression '{refused}' cannot be used in the {CLAUSE} clause of `{}`",
                    column.name
                ),
            ));
        }
        // OneLog keeps a virtual column's value in the row, computed at
        // the write: MariaDB computes one of these again at each read.
        if let Some(varying) = refused_part(&parsed, true).filter(|_| !kept) {
            let what = format!("a VIRTUAL column whose value varies between reads ('{varying}' in `{}`)", column.name);
            return Err(SqlError::not_supported(&what));
        }
        select::bind(&parsed, &scope).map_err(select::in_clause(CLAUSE))?;
        uninitialized(def, col, &parsed, col)?;
        counts_rows[col] = auto_increment_read(def, col, &parsed, &counts_rows, kept)?;
        let text = crate::view::expression_text(&parsed)?;
        if let Some(g) = def.columns[col].generated.as_mut() {
            g.expr = text;
        }
    }
    Ok(())
}

/// 4029: column `col`'s expression reads a generated column at or after
/// position `from`, whose value is not computed yet when it is.
fn uninitialized(def: &TableDef, col: usize, expr: &Expr, from: usize) -> SqlResult<()> {
    for read in def.columns[from..].iter().filter(|c| c.generated.is_some()) {
        let reads = |e: &Expr| matches!(e, Expr::Column { name, .. } if name.eq_ignore_ascii_case(&read.name));
        if expr.contains(&reads) {
            let message = format!(
                "Expression for field `{}` is referring to uninitialized field `{}`",
                def.columns[col].name, read.name
            );
            return Err(SqlError::new(ErrorCode::EXPRESSION_REFERS_TO_UNINIT_FIELD, message));
        }
    }
    Ok(())
}

/// Whether generated column `col`'s expression reads the AUTO_INCREMENT
/// value (`counts_rows` says which columns do): a VIRTUAL column may, one
/// whose value is `kept` (STORED or indexed) not (1901), since MariaDB
/// computes kept values before it numbers the row.
fn auto_increment_read(def: &TableDef, col: usize, expr: &Expr, counts_rows: &[bool], kept: bool) -> SqlResult<bool> {
    let reads = |c: &onelog_core::ColumnDef| {
        expr.contains(&|e| matches!(e, Expr::Column { name, .. } if name.eq_ignore_ascii_case(&c.name)))
    };
    let Some(read) = def.columns.iter().enumerate().find(|(n, c)| counts_rows[*n] && reads(c)).map(|(_, c)| c) else {
        return Ok(false);
    };
    if !kept {
        return Ok(true);
    }
    // MariaDB names the AUTO_INCREMENT column itself, or the virtual
    // column that reads it.
    let (refused, clause_of) =
        if read.auto_increment { ("AUTO_INCREMENT", &read.name) } else { (read.name.as_str(), &def.columns[col].name) };
    Err(SqlError::new(
        ErrorCode::GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED,
        format!("Function or expression '{refused}' cannot be used in the {CLAUSE} clause of `{clause_of}`"),
    ))
}

/// What a generated column's expression may not hold, as 1901 names it
/// (a subquery is refused by the parser already): aggregates and stored
/// functions always; variables and functions whose value is not the row's
/// alone (RAND(), NOW(), UUID(), CONNECTION_ID() ...) when the value is
/// `kept`, since a kept value must be the one computing it again gives.
fn refused_part(expr: &Expr, kept: bool) -> Option<String> {
    let mut found = None;
    visit(expr, &mut |e| {
        if found.is_some() {
            return;
        }
        found = match e {
            Expr::Aggregate { func, .. } => Some(format!("{}()", crate::view::aggregate_name(*func))),
            Expr::GroupConcat { .. } => Some("group_concat()".into()),
            Expr::Window(_) => Some("over(...)".into()),
            Expr::Function { name, .. } if !crate::eval::is_native_function(name) => Some(format!("`{name}`()")),
            Expr::Function { name, .. } if kept && varies(name) => {
                Some(format!("{}()", crate::view::function_name(name)))
            }
            Expr::UserVar(name) | Expr::AssignUserVar { name, .. } if kept => Some(format!("@{name}")),
            Expr::SystemVar { name, .. } if kept => Some(format!("@@{name}")),
            _ => None,
        };
    });
    found
}

fn visit(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(expr);
    expr.for_each_child(&mut |child| visit(child, f));
}

/// Functions whose value depends on more than their arguments.
fn varies(name: &str) -> bool {
    matches!(
        name,
        "rand"
            | "uuid"
            | "uuid_short"
            | "sys_guid"
            | "now"
            | "current_timestamp"
            | "localtime"
            | "localtimestamp"
            | "sysdate"
            | "unix_timestamp"
            | "curdate"
            | "current_date"
            | "curtime"
            | "current_time"
            | "utc_date"
            | "utc_time"
            | "utc_timestamp"
            | "connection_id"
            | "database"
            | "schema"
            | "user"
            | "current_user"
            | "session_user"
            | "system_user"
            | "current_role"
            | "last_insert_id"
            | "row_count"
            | "found_rows"
            | "get_lock"
            | "is_free_lock"
            | "is_used_lock"
            | "release_lock"
            | "benchmark"
            | "sleep"
    )
}

/// A table's generated columns parsed and bound, once per definition:
/// (column, expression) in column order — empty for most tables, so a
/// write to them pays nothing per row.
fn bound(table: &TableEntry) -> SqlResult<&BoundGenerated> {
    if let Some(bound) = table.bound_generated.get() {
        return Ok(bound);
    }
    let scope = scope(&table.def);
    let bound = (table.def.columns.iter().enumerate())
        .filter_map(|(col, c)| c.generated.as_ref().map(|g| (col, &g.expr)))
        .map(|(col, text)| Ok((col, select::bind(&crate::parse::parse_expr_text(text)?, &scope)?)))
        .collect::<SqlResult<BoundGenerated>>()?;
    Ok(table.bound_generated.get_or_init(|| bound))
}

/// Whether `table` has generated columns.
pub fn any(table: &TableEntry) -> bool {
    table.def.columns.iter().any(|c| c.generated.is_some())
}

/// Computes the generated columns of `row`, in column order, over the
/// row's other values (a later generated column reads an earlier one's
/// value); `store` gives each value the column's type as a write stores it.
pub fn fill(
    ctx: &dyn EvalEnv,
    table: &TableEntry,
    row: &mut [Value],
    store: &dyn Fn(usize, Value) -> SqlResult<Value>,
) -> SqlResult<()> {
    for (col, expr) in bound(table)? {
        let r = crate::eval::Row { values: row, params: &[], aggregates: &[], insert_values: None };
        let value = crate::eval::eval(expr, &r, ctx)?;
        row[*col] = store(*col, value)?;
    }
    Ok(())
}

/// A statement assigned `value` to column `col`: for a generated column
/// anything but DEFAULT or NULL is 1906, an error when `strict`, else a
/// warning (the value is computed anyway).
pub fn check_assigned(ctx: &dyn EvalEnv, table: &TableEntry, col: usize, value: &Value, strict: bool) -> SqlResult<()> {
    let column = &table.def.columns[col];
    if column.generated.is_none() || value.is_null() {
        return Ok(());
    }
    let message = format!(
        "The value specified for generated column '{}' in table '{}' has been ignored",
        column.name, table.def.name
    );
    if strict {
        return Err(SqlError::new(ErrorCode::WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN, message));
    }
    ctx.warn(ErrorCode::WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN.number, message);
    Ok(())
}
