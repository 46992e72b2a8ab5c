//! A call's parameters (a routine's or a cursor's): their types for this
//! call, the arguments' values checked against them, the frame of
//! variables the body starts with and the values it ends with.
//!
//! A parameter is a scalar or a ROW (MariaDB's MDEV-10914), declared as a
//! data type, `ROW(field type, ...)`, `TYPE OF [db.]table.column` or
//! `ROW TYPE OF [db.]table`. Anchored types are read when the call starts,
//! an unqualified table in the caller's database, as a DECLARE's are when
//! it runs. A ROW parameter takes a `ROW(...)` of as many values or a ROW
//! variable of as many fields (1241 otherwise); a scalar one takes one
//! value, and a row passed for it is MariaDB's cast error 4078.

use super::{anchored, operand_columns, Declared, Frame, RowVar, Var};
use crate::ast::routine::record_field;
use crate::ast::{Expr, ObjectName};
use crate::eval::coerce_to_column;
use crate::parse::routine::{ParamMode, RoutineParam, VarType};
use crate::session::Session;
use onelog_core::{ColumnDef, ErrorCode, SqlError, SqlResult, Value};

/// One parameter's type in this call with its value.
pub(super) enum Argument {
    Scalar(ColumnDef, Value),
    /// A ROW parameter's fields, in order, each with its value.
    Row(Vec<(ColumnDef, Value)>),
}

/// What each of `params` is in a call made from `caller_db`.
pub(super) fn declared(
    session: &Session,
    caller_db: Option<&str>,
    params: &[RoutineParam],
) -> SqlResult<Vec<Declared>> {
    let columns = |table: &ObjectName| anchor_columns(session, caller_db, table);
    params.iter().map(|p| table_type(&p.ty, columns)).collect()
}

/// What a type comes to that names no variable or cursor (the parser
/// reads none in a parameter list): a data type, a ROW, or one anchored to
/// a table, whose columns `columns` reads.
pub(super) fn table_type(
    ty: &VarType,
    columns: impl Fn(&ObjectName) -> SqlResult<Vec<ColumnDef>>,
) -> SqlResult<Declared> {
    Ok(match ty {
        VarType::Scalar(ty) => Declared::Scalar(ty.clone()),
        VarType::Row(fields) => Declared::Row(fields.clone()),
        VarType::ColumnOf { table, column } => Declared::Scalar(column_of(&columns(table)?, table, column)?),
        VarType::RowOfTable(table) => Declared::Row(columns(table)?.iter().map(anchored).collect()),
        VarType::VarOf(_) | VarType::RowOfCursor(_) => {
            return Err(SqlError::internal("a variable's or cursor's type read without them"))
        }
    })
}

/// The columns of the table or view an anchored type names, an
/// unqualified one in `caller_db`.
pub(super) fn anchor_columns(
    session: &Session,
    caller_db: Option<&str>,
    table: &ObjectName,
) -> SqlResult<Vec<ColumnDef>> {
    let db = match (&table.db, caller_db) {
        (Some(db), _) => db.as_str(),
        (None, Some(db)) => db,
        (None, None) => return Err(SqlError::new(ErrorCode::NO_DB_SELECTED, "No database selected")),
    };
    if db.eq_ignore_ascii_case("information_schema") {
        let (columns, _) = crate::show::information_schema(session, &table.name)?;
        return Ok(columns.into_iter().map(|c| ColumnDef { name: c.name, ..c.def }).collect());
    }
    match session.table_entry_in(db, &table.name) {
        Ok(entry) => Ok(entry.def.columns.clone()),
        Err(not_table) => {
            let view = session.engine.catalog.read().view(db, &table.name);
            view.map_or(Err(not_table), |view| session.view_columns(&view))
        }
    }
}

/// `TYPE OF table.column`: the column of `columns` (1054 without it).
pub(super) fn column_of(columns: &[ColumnDef], table: &ObjectName, column: &str) -> SqlResult<ColumnDef> {
    let found = columns.iter().find(|c| c.name.eq_ignore_ascii_case(column));
    let found = found
        .ok_or_else(|| SqlError::new(ErrorCode::BAD_FIELD, format!("Unknown column '{column}' in '{}'", table.name)))?;
    Ok(anchored(found))
}

/// The argument `arg` gives `param` (of type `declared`): OUT parameters
/// start NULL; `eval` evaluates one expression in the caller's scope.
pub(super) fn argument(
    param: &RoutineParam,
    declared: &Declared,
    arg: &Expr,
    eval: &mut dyn FnMut(&Expr) -> SqlResult<Value>,
) -> SqlResult<Argument> {
    match declared {
        Declared::Row(fields) => {
            // A user variable holds one value, not a row to give back.
            if param.mode != ParamMode::In && matches!(arg, Expr::UserVar(_)) {
                return Err(operand_columns(1));
            }
            let values = match (param.mode, arg) {
                (ParamMode::Out, _) => vec![Value::Null; fields.len()],
                (_, Expr::Tuple(items)) if items.len() == fields.len() => {
                    items.iter().map(&mut *eval).collect::<SqlResult<_>>()?
                }
                _ => return Err(operand_columns(fields.len())),
            };
            Ok(row(fields, values))
        }
        Declared::Scalar(ty) => {
            let value = match param.mode {
                ParamMode::Out => Value::Null,
                _ => eval(arg).map_err(|e| row_for_scalar(&param.name, ty, arg, e))?,
            };
            Ok(Argument::Scalar(ty.clone(), value))
        }
    }
}

/// A ROW argument of `fields` holding `values` (as many).
pub(super) fn row(fields: &[ColumnDef], values: Vec<Value>) -> Argument {
    debug_assert_eq!(fields.len(), values.len());
    Argument::Row(fields.iter().cloned().zip(values).collect())
}

/// A row passed for a scalar parameter, which evaluation refused as a row
/// (1241): MariaDB reports it as a cast into the parameter (4078).
fn row_for_scalar(name: &str, ty: &ColumnDef, arg: &Expr, err: SqlError) -> SqlError {
    if err.code != ErrorCode::OPERAND_COLUMNS || !matches!(arg, Expr::Tuple(_) | Expr::ScalarSubquery(_)) {
        return err;
    }
    let ty = crate::row_shape::handler_name(ty);
    SqlError::new(ErrorCode::CANT_CAST_IN_ASSIGNMENT, format!("Cannot cast 'row' as '{ty}' in assignment of `{name}`"))
}

/// The frame a body starts with: `params` holding `args`, each value as
/// its type stores it; a ROW parameter is a ROW variable.
pub(super) fn frame(session: &Session, params: &[RoutineParam], args: Vec<Argument>) -> SqlResult<Frame<'static>> {
    let strict = session.strict();
    // A value a field cannot hold is reported naming the field alone.
    let var = |name: String, ty: ColumnDef, value: Value| {
        let value = if value.is_null() { value } else { coerce_to_column(value, &ty, strict, session)? };
        Ok(Var { name, ty, value, assigned: false })
    };
    let mut frame = Frame::default();
    for (param, arg) in params.iter().zip(args) {
        match arg {
            Argument::Scalar(ty, value) => {
                frame.vars.push(var(param.name.clone(), ColumnDef { name: param.name.clone(), ..ty }, value)?)
            }
            Argument::Row(fields) => {
                let names = fields.iter().map(|(f, _)| f.name.clone()).collect();
                frame.rows.push(RowVar { name: param.name.clone(), fields: names });
                for (field, value) in fields {
                    frame.vars.push(var(record_field(&param.name, &field.name), field, value)?);
                }
            }
        }
    }
    Ok(frame)
}

/// [`frame`] for a CALL's or a cursor's arguments: outside a trigger,
/// MariaDB's conversion warnings there name no row ("at row 0"), as SET's do.
pub(super) fn frame_outside_rows(
    session: &Session,
    params: &[RoutineParam],
    args: Vec<Argument>,
) -> SqlResult<Frame<'static>> {
    if !session.trigger_tables.is_empty() {
        return frame(session, params, args);
    }
    let row = session.warning_row.replace(0);
    let bound = frame(session, params, args);
    session.warning_row.set(row);
    bound
}

/// The parameters' values as the body left them in `frame`.
pub(super) fn final_values(frame: Frame<'_>, params: &[RoutineParam]) -> SqlResult<Vec<Argument>> {
    let Frame { vars, rows, .. } = frame;
    let mut vars = vars.into_iter().map(|v| (v.ty, v.value));
    let missing = || SqlError::internal("a parameter without its variable");
    let mut values = Vec::with_capacity(params.len());
    for param in params {
        // `frame` put each parameter's variables in order, a ROW's fields
        // one after the other.
        values.push(match rows.iter().find(|r| r.name.eq_ignore_ascii_case(&param.name)) {
            Some(row) => {
                let fields: Vec<_> = vars.by_ref().take(row.fields.len()).collect();
                if fields.len() != row.fields.len() {
                    return Err(missing());
                }
                Argument::Row(fields)
            }
            None => vars.next().map(|(ty, value)| Argument::Scalar(ty, value)).ok_or_else(missing)?,
        });
    }
    Ok(values)
}
