//! The columns of information_schema tables as MariaDB 10.11 declares
//! them: each a name, a type and whether it is nullable, in static lists,
//! so a table's columns are known without computing its rows (clients and
//! ORMs read their result-set metadata; a view over one resolves its
//! columns from the catalog alone).

use crate::session::ResultColumn;
use onelog_core::schema::BlobSize;
use onelog_core::{ColumnDef, ColumnType};
use SchemaType::{DateTime, Int, LongText, Text, UnsignedBigInt};

/// The type of a column of these tables, as MariaDB declares it.
#[derive(Clone, Copy)]
pub(crate) enum SchemaType {
    /// VARCHAR of this many characters.
    Text(u32),
    /// `int(21)`, sent as a LONG.
    Int,
    /// `bigint(21) unsigned`.
    UnsignedBigInt,
    /// LONGTEXT, which MariaDB's information_schema sends as a BLOB of
    /// [`LONGTEXT_CHARS`] characters.
    LongText,
    DateTime,
}

/// The length in characters MariaDB gives an information_schema LONGTEXT.
const LONGTEXT_CHARS: u32 = 196_605;

/// `int(21)`'s display width.
const INT_WIDTH: u32 = 21;

/// A column: name, type, nullable.
pub(crate) type SchemaColumn = (&'static str, SchemaType, bool);

/// The column of information_schema table `table`.
pub(crate) fn result_column(table: &str, (name, ty, nullable): SchemaColumn) -> ResultColumn {
    let mut def = match ty {
        Text(chars) => ColumnDef::new(name, ColumnType::VarChar(chars)),
        Int => ColumnDef::new(name, ColumnType::Int),
        UnsignedBigInt => ColumnDef { unsigned: true, ..ColumnDef::new(name, ColumnType::BigInt) },
        LongText => ColumnDef::new(name, ColumnType::Text(BlobSize::Long)),
        DateTime => ColumnDef::new(name, ColumnType::DateTime { fsp: 0 }),
    };
    def.display_width = match ty {
        Int | UnsignedBigInt => Some(INT_WIDTH),
        LongText => Some(LONGTEXT_CHARS),
        _ => None,
    };
    def.nullable = nullable;
    let mut column = ResultColumn::named(name, def);
    column.org_name = name.to_string();
    column.table = table.to_string();
    column.org_table = table.to_string();
    column.db = "information_schema".into();
    column
}

/// The columns of `table`, listed in parts.
pub(crate) fn columns(table: &str, parts: &[&[SchemaColumn]]) -> Vec<ResultColumn> {
    parts.iter().flat_map(|p| p.iter()).map(|c| result_column(table, *c)).collect()
}

/// The names of `columns`, in order.
pub(crate) const fn names<const N: usize>(columns: &[SchemaColumn; N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = columns[i].0;
        i += 1;
    }
    names
}
