//! `CHECKSUM TABLE t [, t ...] [QUICK | EXTENDED]`: one (Table, Checksum)
//! row per table named, with the value MariaDB computes for the same rows,
//! so that a checksum taken on MariaDB and on OneLog can be compared.
//!
//! MariaDB's `handler::calculate_checksum` adds up, modulo 2^32, one CRC-32
//! per row over its in-record image: the null bytes (their unused bits set,
//! and bit 0 set in a record without variable-length fields, where MariaDB
//! reserves it), then each non-NULL stored field (see
//! [`onelog_core::rowimage::append_checksum_field`]). Row order does not
//! matter to a sum, so OneLog's clustered order gives the same value.
//!
//! QUICK asks for a live checksum, which only MyISAM and Aria tables
//! created with CHECKSUM=1 keep; OneLog keeps none and answers NULL, as
//! MariaDB does for InnoDB. A table that does not exist gives NULL and its
//! error as a condition of the statement.

use crate::ast::{IsolationLevel, ObjectName};
use crate::catalog::TableEntry;
use crate::rows;
use crate::session::{QueryResult, ResultColumn, Session, Warning};
use crate::txn::Txn;
use onelog_core::rowimage::append_checksum_field;
use onelog_core::{ColumnDef, ColumnType, ErrorCode, SqlError, SqlResult, Value};
use onelog_storage::key;

pub fn execute(session: &Session, tables: &[ObjectName], quick: bool) -> SqlResult<QueryResult> {
    let mut result_rows = Vec::with_capacity(tables.len());
    let mut seen = Vec::with_capacity(tables.len());
    for name in tables {
        let db = session.resolve_db(name)?;
        if seen.contains(&(db, &name.name)) {
            let message = format!("Not unique table/alias: '{}'", name.name);
            return Err(SqlError::new(ErrorCode::NON_UNIQ_TABLE, message));
        }
        seen.push((db, &name.name));
        let label = Value::from_str(&format!("{db}.{}", name.name));
        let checksum = match session.table_entry(name) {
            Err(e) => {
                session.push_warning(Warning::from_error("Error", &e));
                Value::Null
            }
            Ok(_) if quick => Value::Null,
            Ok(table) => Value::UInt(u64::from(table_checksum(session, &table)?)),
        };
        result_rows.push(vec![label, checksum]);
    }
    // MariaDB's shape: Table a VARCHAR(512) sized in utf8mb3 (1536 bytes,
    // so 384 utf8mb4 characters here), Checksum BIGINT(21), both nullable.
    let column = |name: &str, ty: ColumnType, width: u32| {
        let mut def = ColumnDef::new(name, ty);
        def.display_width = Some(width);
        ResultColumn::named(name, def)
    };
    let columns = vec![column("Table", ColumnType::VarChar(384), 512), column("Checksum", ColumnType::BigInt, 21)];
    Ok(QueryResult::Rows { columns, rows: result_rows })
}

/// The checksum of `table`'s rows as the session sees them: committed rows
/// of a fresh snapshot, with the open transaction's own writes.
fn table_checksum(session: &Session, table: &TableEntry) -> SqlResult<u32> {
    let view = session.engine.store.snapshot();
    let empty = Txn::new(0, IsolationLevel::RepeatableRead, true, false).with_temp_rows(session.temp.rows());
    let txn = session.txn.as_ref().unwrap_or(&empty);
    let layout = NullLayout::of(&table.def.columns);
    let prefix = key::index_prefix(table.clustered_id());
    let end = key::prefix_end(&prefix);
    let mut sum = 0u32;
    let mut image = Vec::new();
    for kv in txn.scan(&view, &prefix, end.as_deref(), false)? {
        session.guard().check()?;
        let (_, bytes) = kv?;
        let row = rows::decode(table, &bytes)?;
        image.clear();
        record_image(&table.def.columns, &layout, &row, &mut image)?;
        sum = sum.wrapping_add(crc32fast::hash(&image));
    }
    Ok(sum)
}

/// Where MariaDB's record keeps null bits: one per nullable column, from
/// bit 1 of the first null byte when bit 0 is reserved (records without
/// VARCHAR or BLOB columns, MariaDB's fixed row format), else from bit 0.
struct NullLayout {
    first_bit: usize,
    null_bytes: usize,
    /// The bits past the last column's, which MariaDB sets before hashing.
    unused_mask: u8,
}

impl NullLayout {
    fn of(columns: &[ColumnDef]) -> NullLayout {
        let variable = columns.iter().any(|c| {
            matches!(
                c.ty,
                ColumnType::VarChar(_) | ColumnType::VarBinary(_) | ColumnType::Text(_) | ColumnType::Blob(_)
            )
        });
        let first_bit = usize::from(!variable);
        let bits = first_bit + columns.iter().filter(|c| c.nullable).count();
        let last_bit_pos = bits % 8;
        let unused_mask = if last_bit_pos == 0 { 0 } else { !((1u8 << last_bit_pos) - 1) };
        NullLayout { first_bit, null_bytes: bits.div_ceil(8), unused_mask }
    }
}

/// The bytes MariaDB's CHECKSUM TABLE hashes for one row.
fn record_image(columns: &[ColumnDef], layout: &NullLayout, row: &[Value], out: &mut Vec<u8>) -> SqlResult<()> {
    out.resize(layout.null_bytes, 0);
    if layout.null_bytes > 0 {
        out[layout.null_bytes - 1] |= layout.unused_mask;
        out[0] |= layout.first_bit as u8;
    }
    let mut bit = layout.first_bit;
    for (column, value) in columns.iter().zip(row) {
        if column.nullable {
            if value.is_null() {
                out[bit / 8] |= 1 << (bit % 8);
            }
            bit += 1;
        }
        let virtual_column = column.generated.as_ref().is_some_and(|g| !g.stored);
        if !value.is_null() && !virtual_column {
            append_checksum_field(column, value, out).map_err(|e| SqlError::internal(e.to_string()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_crc(columns: &[ColumnDef], row: &[Value]) -> u32 {
        let mut image = Vec::new();
        record_image(columns, &NullLayout::of(columns), row, &mut image).expect("encodable row");
        crc32fast::hash(&image)
    }

    #[test]
    fn matches_mariadb_for_fixed_and_nullable_rows() {
        // Values MariaDB 10.11 gives: CHECKSUM TABLE of `a INT NOT NULL` holding 1,
        // and of `a INT` holding 1 and NULL.
        let mut not_null = ColumnDef::new("a", ColumnType::Int);
        not_null.nullable = false;
        assert_eq!(row_crc(&[not_null], &[Value::Int(1)]), 3_036_305_396);
        let nullable = ColumnDef::new("a", ColumnType::Int);
        let sum = row_crc(std::slice::from_ref(&nullable), &[Value::Int(1)])
            .wrapping_add(row_crc(&[nullable], &[Value::Null]));
        assert_eq!(sum, 3_443_131_540);
    }

    #[test]
    fn variable_length_rows_reserve_no_null_bit() {
        // `a VARCHAR(5) NOT NULL` holding 'ab' hashes the two bytes alone.
        let mut column = ColumnDef::new("a", ColumnType::VarChar(5));
        column.nullable = false;
        assert_eq!(row_crc(&[column], &[Value::from_str("ab")]), crc32fast::hash(b"ab"));
    }
}
