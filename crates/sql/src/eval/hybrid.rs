//! `0x41` and `b'1000001'` (`Expr::HexHybrid`, MariaDB's Item_hex_hybrid):
//! a binary string that reads as a big-endian unsigned number where a
//! number is wanted — in arithmetic, a numeric CAST or function, a
//! comparison with a number, and a numeric column.

use super::{eval, EvalEnv, Row};
use crate::ast::Expr;
use onelog_core::decimal::Decimal;
use onelog_core::{ColumnType, SqlResult, Value};

/// Bytes of the largest number a hybrid reads as.
const NUMBER_BYTES: usize = 8;

/// The number a hybrid reads as: its last 8 bytes, big-endian (MariaDB's
/// `longlong_from_hex_hybrid`, so `0x010000000000000000` is 0).
pub(crate) fn hybrid_number(bytes: &[u8]) -> u64 {
    let tail = &bytes[bytes.len().saturating_sub(NUMBER_BYTES)..];
    tail.iter().fold(0u64, |n, b| n << 8 | u64::from(*b))
}

/// `e`'s value where a number is wanted: a hybrid's number, else its value.
pub(super) fn eval_number(e: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    match e {
        Expr::HexHybrid(bytes) => Ok(Value::UInt(hybrid_number(bytes))),
        _ => eval(e, row, env),
    }
}

/// A comparison operand: a hybrid compared with a number is its number
/// (MariaDB compares them as numbers); with anything else, its bytes.
pub(super) fn compared(e: &Expr, v: Value, other: &Value) -> Value {
    match e {
        Expr::HexHybrid(bytes) if is_number(other) => Value::UInt(hybrid_number(bytes)),
        _ => v,
    }
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_))
}

/// What a hybrid stores in a column of type `ty` (MariaDB's
/// `Item_hex_hybrid::save_in_field`): its bytes in a string, temporal,
/// ENUM or SET column; its number in a numeric one, where more than 8
/// bytes is past every integer type's range (1264).
pub fn hybrid_for_column(bytes: Vec<u8>, ty: &ColumnType) -> Value {
    let numeric = ty.is_integer()
        || matches!(
            ty,
            ColumnType::Decimal { .. } | ColumnType::Float | ColumnType::Double | ColumnType::Bit(_) | ColumnType::Year
        );
    match bytes.len() {
        _ if !numeric => Value::Bytes(bytes),
        n if n > NUMBER_BYTES => Value::Decimal(Decimal::from(u64::MAX) + Decimal::from(1u8)),
        _ => Value::UInt(hybrid_number(&bytes)),
    }
}

/// An assigned expression for a column of type `ty`: a hybrid as the
/// column stores it (see `hybrid_for_column`), anything else unchanged.
pub fn assigned(expr: Expr, ty: &ColumnType) -> Expr {
    match expr {
        Expr::HexHybrid(bytes) => Expr::Literal(hybrid_for_column(bytes, ty)),
        other => other,
    }
}

/// SQL text of a hybrid as MariaDB prints it: `0x` and the lower-case hex
/// of the bytes it reads as a number.
pub fn hybrid_sql(bytes: &[u8]) -> String {
    let tail = &bytes[bytes.len().saturating_sub(NUMBER_BYTES)..];
    let digits: String = tail.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hybrid_reads_its_last_eight_bytes() {
        assert_eq!(hybrid_number(&[0x41]), 65);
        assert_eq!(hybrid_number(&[0xff; 8]), u64::MAX);
        assert_eq!(hybrid_number(&[1, 0, 0, 0, 0, 0, 0, 0, 0]), 0);
        assert_eq!(hybrid_number(&[]), 0);
        assert_eq!(hybrid_sql(&[0xff, 0x0a]), "0xff0a");
    }

    #[test]
    fn a_column_stores_its_bytes_or_its_number() {
        assert_eq!(hybrid_for_column(vec![0x41], &ColumnType::VarChar(5)), Value::Bytes(b"A".to_vec()));
        assert_eq!(hybrid_for_column(vec![0x41], &ColumnType::Int), Value::UInt(65));
        assert!(matches!(hybrid_for_column(vec![1; 9], &ColumnType::BigInt), Value::Decimal(_)));
    }
}
