//! Bind-time checks of row operands: MariaDB's ROW type at fix_fields.
//!
//! A row constructor `(a, b)` / `ROW(a, b)` or a subquery of several
//! columns is a value of type `row`. Only comparisons (`=`, `<>`, `<`,
//! `<=`, `>`, `>=`, `<=>`), IN and a row constructor's items take one;
//! MariaDB refuses it anywhere else before reading a row, so an empty
//! table does not hide the error:
//!
//! - arithmetic, comparisons with a scalar, IN, LEAST / GREATEST: 4078
//!   "Illegal parameter data types A and B for operation 'op'";
//! - bit operators and the functions that check their arguments' type
//!   handler (CHAR_LENGTH, YEAR, GET_LOCK...): 4079 "Illegal parameter data
//!   type row for operation 'op'";
//! - everything else, rows of different sizes, and a row where a query
//!   wants a value (select list, WHERE, ORDER BY...): 1241 "Operand should
//!   contain N column(s)".
//!
//! Evaluation (`eval`) keeps its own checks for statements bound elsewhere.

use crate::ast::{AggFunc, BinOp, Expr, Select, SelectItem, UnaryOp};
use crate::typing::{result_def, TypeEnv};
use onelog_core::{ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, Value};

/// Checks `expr` where a query wants one value (a select item, WHERE,
/// HAVING, GROUP BY, ORDER BY).
pub(crate) fn check_scalar(expr: &Expr, env: &TypeEnv<'_>) -> SqlResult<()> {
    check(expr, env)?;
    require_scalar(expr)
}

/// The number of columns `expr` has: a row constructor's items, a
/// subquery's select items; `None` for a subquery whose `*` is not
/// expanded yet (evaluation checks it).
pub(crate) fn arity(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Tuple(items) => Some(items.len()),
        Expr::ScalarSubquery(query) => query_arity(query),
        _ => Some(1),
    }
}

/// The columns a query returns, `None` when it has a `*`.
pub(crate) fn query_arity(query: &Select) -> Option<usize> {
    let wildcard = query.items.iter().any(|i| !matches!(i, SelectItem::Expr { .. }));
    (!wildcard).then_some(query.items.len())
}

fn is_row(expr: &Expr) -> bool {
    arity(expr).is_some_and(|n| n != 1)
}

pub(crate) fn operand_columns(n: usize) -> SqlError {
    SqlError::new(ErrorCode::OPERAND_COLUMNS, format!("Operand should contain {n} column(s)"))
}

fn require_scalar(expr: &Expr) -> SqlResult<()> {
    if is_row(expr) {
        return Err(operand_columns(1));
    }
    Ok(())
}

fn illegal_types(left: &str, right: &str, operation: &str) -> SqlError {
    SqlError::new(
        ErrorCode::ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION,
        format!("Illegal parameter data types {left} and {right} for operation '{operation}'"),
    )
}

fn illegal_row(operation: &str) -> SqlError {
    SqlError::new(
        ErrorCode::ILLEGAL_PARAMETER_DATA_TYPE_FOR_OPERATION,
        format!("Illegal parameter data type row for operation '{operation}'"),
    )
}

/// Checks the operands inside `expr` (not `expr` itself, which may be a
/// row where its parent takes one).
fn check(expr: &Expr, env: &TypeEnv<'_>) -> SqlResult<()> {
    match expr {
        Expr::Tuple(items) => items.iter().try_for_each(|e| check(e, env)),
        Expr::Binary(op, l, r) => {
            check(l, env)?;
            check(r, env)?;
            binary(*op, l, r, env)
        }
        Expr::Unary(UnaryOp::BitNot, inner) => {
            check(inner, env)?;
            if is_row(inner) {
                return Err(illegal_row("~"));
            }
            Ok(())
        }
        Expr::InList { expr: left, list, .. } => {
            check(left, env)?;
            list.iter().try_for_each(|e| check(e, env))?;
            in_list(left, list, env)
        }
        Expr::InSubquery { expr: left, query, .. } => {
            check(left, env)?;
            match (arity(left), query_arity(query)) {
                (Some(l), Some(r)) if l != r => Err(operand_columns(l)),
                _ => Ok(()),
            }
        }
        Expr::Function { name, args } => {
            crate::eval::check_param_count(name, args.len())?;
            args.iter().try_for_each(|e| check(e, env))?;
            function(name, args, env)
        }
        // COUNT(DISTINCT a, b) counts rows of its arguments.
        Expr::Aggregate { func: AggFunc::Count, arg: Some(arg), distinct: true } if matches!(**arg, Expr::Tuple(_)) => {
            check(arg, env)?;
            match arg.as_ref() {
                Expr::Tuple(items) => items.iter().try_for_each(require_scalar),
                _ => Ok(()),
            }
        }
        _ => {
            let mut result = Ok(());
            expr.for_each_child(&mut |child| {
                if result.is_ok() {
                    result = check_scalar(child, env);
                }
            });
            result
        }
    }
}

fn binary(op: BinOp, l: &Expr, r: &Expr, env: &TypeEnv<'_>) -> SqlResult<()> {
    use BinOp::*;
    match op {
        _ if op.is_comparison() => compare(l, r, op.symbol(), env),
        Add | Sub | Mul | Div | Mod if is_row(l) || is_row(r) => {
            let name = if op == Mod { "MOD" } else { op.symbol() };
            Err(illegal_types(&type_name(l, env), &type_name(r, env), name))
        }
        BitAnd | BitOr | BitXor | ShiftLeft | ShiftRight if is_row(l) || is_row(r) => Err(illegal_row(op.symbol())),
        _ => {
            require_scalar(l)?;
            require_scalar(r)
        }
    }
}

/// A comparison takes two values or two rows of as many columns.
fn compare(l: &Expr, r: &Expr, operation: &str, env: &TypeEnv<'_>) -> SqlResult<()> {
    match (arity(l), arity(r)) {
        (Some(1), Some(1)) => Ok(()),
        (Some(a), Some(b)) if a == 1 || b == 1 => Err(illegal_types(&type_name(l, env), &type_name(r, env), operation)),
        (Some(a), Some(b)) if a != b => Err(operand_columns(a)),
        _ => match_rows(l, r),
    }
}

/// Two rows of as many columns compare item by item, so nested rows must
/// meet rows of their own size (1241 naming the left item's).
fn match_rows(l: &Expr, r: &Expr) -> SqlResult<()> {
    let (ls, rs) = match (l, r) {
        (Expr::Tuple(ls), Expr::Tuple(rs)) => (ls, rs),
        // A subquery's columns are values: the other row's items must be.
        (Expr::Tuple(ls), _) => {
            return match ls.iter().find(|e| is_row(e)) {
                Some(item) => Err(operand_columns(arity(item).unwrap_or(1))),
                None => Ok(()),
            }
        }
        (_, Expr::Tuple(rs)) => return rs.iter().try_for_each(require_scalar),
        _ => return Ok(()),
    };
    for (x, y) in ls.iter().zip(rs) {
        match (arity(x), arity(y)) {
            (Some(a), Some(b)) if a != b => return Err(operand_columns(a)),
            (Some(1), _) | (_, Some(1)) => {}
            _ => match_rows(x, y)?,
        }
    }
    Ok(())
}

/// `left IN (items)`: each item a value if `left` is one (4078 otherwise,
/// named after `=` when the list has one item, as MariaDB rewrites it),
/// or a row of as many columns.
fn in_list(left: &Expr, list: &[Expr], env: &TypeEnv<'_>) -> SqlResult<()> {
    let operation = if list.len() == 1 { "=" } else { "in" };
    let left_row = is_row(left);
    if let Some(item) = list.iter().find(|e| arity(e).is_some() && is_row(e) != left_row) {
        return Err(illegal_types(&type_name(left, env), &type_name(item, env), operation));
    }
    if !left_row {
        return Ok(());
    }
    list.iter().try_for_each(|item| compare(left, item, operation, env))
}

fn function(name: &str, args: &[Expr], env: &TypeEnv<'_>) -> SqlResult<()> {
    if matches!(name, "least" | "greatest") {
        if let Some(k) = args.iter().position(is_row) {
            let (left, right) = match k {
                0 => ("row".to_string(), args.get(1).map_or_else(|| "row".into(), |e| type_name(e, env))),
                _ => (min_max_type(&args[..k], env), "row".to_string()),
            };
            return Err(illegal_types(&left, &right, name));
        }
        return Ok(());
    }
    // A stored function's ROW parameters take rows; its call checks each
    // argument against its parameter.
    if !crate::eval::is_native_function(name) && env.facts.returns(name).is_some() {
        return Ok(());
    }
    let typed_args = match name {
        // BENCHMARK's expression is evaluated as it is; only its count is typed.
        "benchmark" => args.get(..1).unwrap_or(&[]),
        _ => args,
    };
    if let Some(operation) = typed_operation(name, args) {
        if typed_args.iter().any(is_row) {
            return Err(illegal_row(&operation));
        }
    }
    args.iter().try_for_each(require_scalar)
}

/// The name MariaDB's functions that check their arguments' type give in
/// 4079; `None` for functions that only want one column (1241).
fn typed_operation(name: &str, args: &[Expr]) -> Option<String> {
    let operation = match name {
        "char_length" | "character_length" => "char_length",
        "length" | "octet_length" => "octet_length",
        "locate" | "instr" | "position" => "locate",
        "day" | "dayofmonth" => "dayofmonth",
        "week" | "weekofyear" => "week",
        "datediff" => "to_days",
        "extract" => {
            let unit = match args.first() {
                Some(Expr::Literal(Value::Bytes(b))) => String::from_utf8_lossy(b).to_ascii_lowercase(),
                _ => String::new(),
            };
            return Some(format!("extract({unit})"));
        }
        "to_seconds"
        | "timestampdiff"
        | "inet_aton"
        | "last_insert_id"
        | "strcmp"
        | "uncompressed_length"
        | "coercibility"
        | "ascii"
        | "crc32"
        | "ord"
        | "sign"
        | "bit_count"
        | "benchmark"
        | "sleep"
        | "get_lock"
        | "period_add"
        | "period_diff"
        | "to_days"
        | "dayofyear"
        | "quarter"
        | "year"
        | "yearweek"
        | "hour"
        | "minute"
        | "second"
        | "microsecond"
        | "json_depth"
        | "json_length"
        | "regexp_instr"
        | "find_in_set"
        | "release_lock"
        | "is_free_lock"
        | "is_used_lock"
        | "master_pos_wait" => name,
        _ => return None,
    };
    Some(operation.to_string())
}

/// The type LEAST / GREATEST aggregate `args` to, by MariaDB's rules for
/// them: one type stays; text with anything else compares as double;
/// numbers widen to double, decimal or bigint.
fn min_max_type(args: &[Expr], env: &TypeEnv<'_>) -> String {
    let names: Vec<String> = args.iter().map(|e| type_name(e, env)).collect();
    if names.iter().all(|n| *n == names[0]) {
        return names[0].clone();
    }
    let has = |wanted: &[&str]| names.iter().any(|n| wanted.contains(&n.as_str()));
    let name = if has(&["varchar", "char", "blob", "tinyblob", "mediumblob", "longblob", "double", "float"]) {
        "double"
    } else if has(&["decimal"]) {
        "decimal"
    } else {
        "bigint"
    };
    name.to_string()
}

/// MariaDB's name of `expr`'s type handler, as 4078 shows it.
fn type_name(expr: &Expr, env: &TypeEnv<'_>) -> String {
    match expr {
        _ if is_row(expr) => "row".into(),
        Expr::Literal(Value::Null) => "null".into(),
        Expr::HexHybrid(_) => "hex_hybrid".into(),
        // An unset user variable is a NULL of MariaDB's default string type.
        Expr::UserVar(_) => "longblob".into(),
        // A subquery of one column has that column's type.
        Expr::ScalarSubquery(query) => match query.items.as_slice() {
            [SelectItem::Expr { expr, .. }] if query.from.is_empty() => type_name(expr, env),
            _ => "varchar".into(),
        },
        _ => result_def(expr, env, "").map_or_else(|| "varchar".into(), |def| handler_name(&def)),
    }
}

/// MariaDB's name of a column's or variable's type handler.
pub(crate) fn handler_name(def: &ColumnDef) -> String {
    let base = match &def.ty {
        ColumnType::TinyInt => "tinyint",
        ColumnType::SmallInt => "smallint",
        ColumnType::MediumInt => "mediumint",
        ColumnType::Int => "int",
        ColumnType::BigInt => "bigint",
        ColumnType::Decimal { .. } => "decimal",
        ColumnType::Float => "float",
        ColumnType::Double => "double",
        ColumnType::Char(_) | ColumnType::Binary(_) => "char",
        ColumnType::VarChar(_) | ColumnType::VarBinary(_) => "varchar",
        ColumnType::Text(_) | ColumnType::Blob(_) => return def.ty.sql_name().replace("text", "blob"),
        ColumnType::Date => "date",
        ColumnType::DateTime { .. } => "datetime",
        ColumnType::Timestamp { .. } => "timestamp",
        ColumnType::Time { .. } => "time",
        ColumnType::Year => "year",
        ColumnType::Enum(_) => "enum",
        ColumnType::Set(_) => "set",
        ColumnType::Uuid => "uuid",
        ColumnType::Bit(_) => "bit",
    };
    if def.unsigned && def.ty.is_numeric() {
        return format!("{base} unsigned");
    }
    base.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::typing::TypeFacts;

    struct NoFunctions;

    impl TypeFacts for NoFunctions {
        fn returns(&self, _name: &str) -> Option<ColumnDef> {
            None
        }
    }

    fn i(n: i64) -> Expr {
        Expr::Literal(Value::Int(n))
    }

    fn row(items: Vec<Expr>) -> Expr {
        Expr::Tuple(items)
    }

    fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
        Expr::Binary(op, Box::new(l), Box::new(r))
    }

    fn outcome(e: &Expr) -> Result<(), (u16, String)> {
        check_scalar(
            e,
            &TypeEnv {
                scope: &[],
                facts: &NoFunctions,
                connection_collation: Default::default(),
                created_user_vars: Vec::new(),
            },
        )
        .map_err(|e| (e.code.number, e.message))
    }

    #[test]
    fn comparisons_take_rows_of_one_size() {
        assert_eq!(outcome(&bin(BinOp::Eq, row(vec![i(1), i(2)]), row(vec![i(1), i(2)]))), Ok(()));
        let nested = row(vec![i(1), row(vec![i(2), i(3)])]);
        assert_eq!(outcome(&bin(BinOp::Lt, nested.clone(), nested.clone())), Ok(()));
        let three = row(vec![i(1), i(2), i(3)]);
        let err = outcome(&bin(BinOp::Eq, three, row(vec![i(1), i(2)]))).unwrap_err();
        assert_eq!(err, (1241, "Operand should contain 3 column(s)".into()));
        let err = outcome(&bin(BinOp::Eq, row(vec![i(1), i(4)]), nested)).unwrap_err();
        assert_eq!(err, (1241, "Operand should contain 1 column(s)".into()));
    }

    #[test]
    fn a_row_beside_a_value_names_both_types() {
        let err = outcome(&bin(BinOp::Eq, row(vec![i(1), i(2)]), i(1))).unwrap_err();
        assert_eq!(err, (4078, "Illegal parameter data types row and int for operation '='".into()));
        let err = outcome(&bin(BinOp::Mod, i(1), row(vec![i(1), i(2)]))).unwrap_err();
        assert_eq!(err, (4078, "Illegal parameter data types int and row for operation 'MOD'".into()));
        let least = Expr::Function { name: "least".into(), args: vec![i(1), i(2), row(vec![i(1), i(2)])] };
        assert_eq!(outcome(&least).unwrap_err().0, 4078);
    }

    #[test]
    fn typed_operations_refuse_a_row_by_name() {
        let err = outcome(&bin(BinOp::BitOr, row(vec![i(1), i(2)]), i(1))).unwrap_err();
        assert_eq!(err, (4079, "Illegal parameter data type row for operation '|'".into()));
        let length = Expr::Function { name: "length".into(), args: vec![row(vec![i(1), i(2)])] };
        assert_eq!(outcome(&length).unwrap_err().1, "Illegal parameter data type row for operation 'octet_length'");
        let benchmark = Expr::Function { name: "benchmark".into(), args: vec![i(1), row(vec![i(1), i(2)])] };
        assert_eq!(outcome(&benchmark).unwrap_err().0, 1241);
    }

    #[test]
    fn a_row_where_a_value_is_wanted_is_1241() {
        assert_eq!(outcome(&row(vec![i(1), i(2)])).unwrap_err().0, 1241);
        let is_null = Expr::IsNull { expr: Box::new(row(vec![i(1), i(2)])), negated: false };
        assert_eq!(outcome(&is_null).unwrap_err().0, 1241);
        let in_list = Expr::InList { expr: Box::new(row(vec![i(1), i(2)])), list: vec![i(1), i(2)], negated: false };
        assert_eq!(
            outcome(&in_list).unwrap_err(),
            (4078, "Illegal parameter data types row and int for operation 'in'".into())
        );
    }
}
