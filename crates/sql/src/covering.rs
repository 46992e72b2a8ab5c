//! Covering secondary-index reads: a query whose every column is held,
//! decodably, by a secondary index's entries (its key columns, then the
//! primary key columns every entry ends with) is answered from those
//! entries without reading the rows, as MariaDB's "Using index" plans are.
//! Each entry is written and removed in the same transaction as its row
//! (see `rows::write_row`), so the entries a read view (merged with the
//! transaction's own writes) sees are exactly its rows'.
//!
//! Which values a key gives back is the storage key encoding's business
//! ([`key::decodable`]): integers, DECIMAL up to 38 digits, DATE, DATETIME,
//! TIMESTAMP and TIME; text keys hold sort weights, not the text.

use onelog_core::{ColumnDef, ColumnType, IndexDef, TableDef, Value};
use onelog_storage::key::{self, KeyValue};

/// Whether the entries of `index` (a secondary index of `def`) hold every
/// `wanted` column of `def`, decodably.
pub(crate) fn covers(def: &TableDef, index: &IndexDef, wanted: &[bool]) -> bool {
    if index.primary {
        return false;
    }
    let primary = def.primary_key().map_or(&[][..], |pk| pk.columns.as_slice());
    wanted
        .iter()
        .zip(&def.columns)
        .enumerate()
        .filter(|(_, (w, _))| **w)
        .all(|(i, (_, column))| key::decodable(column) && (index.columns.contains(&i) || primary.contains(&i)))
}

/// The secondary index of `def` with the narrowest entries among those
/// that hold every `wanted` column.
pub(crate) fn narrowest_covering(def: &TableDef, wanted: &[bool]) -> Option<usize> {
    def.indexes
        .iter()
        .enumerate()
        .filter(|(_, index)| covers(def, index, wanted))
        .min_by_key(|(_, index)| entry_bytes(def, index))
        .map(|(pos, _)| pos)
}

/// The row an entry `entry_key` of `index` (a secondary index of `def`)
/// stands for: the columns its key decodes to, the others NULL (as a row
/// read with only some columns wanted has them). `None` when the key is not
/// one `rows::secondary_key` writes for `def`, so the row is read instead.
pub(crate) fn decode_entry(def: &TableDef, index: &IndexDef, entry_key: &[u8]) -> Option<Vec<Value>> {
    let mut row = vec![Value::Null; def.columns.len()];
    let mut rest = entry_key.get(8..)?;
    let primary = def.primary_key().map_or(&[][..], |pk| pk.columns.as_slice());
    for &c in index.columns.iter().chain(primary) {
        let column = def.columns.get(c)?;
        if let KeyValue::Value(v) = key::decode_value(&mut rest, column)? {
            row[c] = v;
        }
    }
    // Without a primary key, entries end with the 8-byte hidden row id.
    let suffix_bytes = if primary.is_empty() { 8 } else { 0 };
    (rest.len() == suffix_bytes).then_some(row)
}

/// About how many bytes an entry of `index` takes: what choosing the
/// narrowest index to scan compares.
fn entry_bytes(def: &TableDef, index: &IndexDef) -> u64 {
    let primary = def.primary_key().map_or(&[][..], |pk| pk.columns.as_slice());
    let suffix_bytes = if primary.is_empty() { 8 } else { 0 };
    index.columns.iter().chain(primary).filter_map(|&c| def.columns.get(c)).map(value_bytes).sum::<u64>() + suffix_bytes
}

/// The key bytes one value of `column` takes at most (texts: their
/// declared length, at least a few bytes).
fn value_bytes(column: &ColumnDef) -> u64 {
    let encoded = match &column.ty {
        ty if ty.is_integer() => 8,
        ColumnType::Decimal { precision, .. } => {
            if *precision <= 38 {
                16
            } else {
                32
            }
        }
        ColumnType::Date
        | ColumnType::DateTime { .. }
        | ColumnType::Timestamp { .. }
        | ColumnType::Time { .. }
        | ColumnType::Float
        | ColumnType::Double => 8,
        ColumnType::Uuid => 16,
        ColumnType::Char(n) | ColumnType::VarChar(n) => u64::from(*n) * u64::from(column.collation.mbmaxlen()) + 2,
        ColumnType::Binary(n) | ColumnType::VarBinary(n) => u64::from(*n) + 2,
        _ => 256,
    };
    encoded + 1 // the NULL marker
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `t (id INT PRIMARY KEY, k INT, s VARCHAR(20), d DATE, KEY k (k), KEY ks (k, s))`.
    fn table() -> TableDef {
        let columns = vec![
            ColumnDef::new("id", ColumnType::Int),
            ColumnDef::new("k", ColumnType::Int),
            ColumnDef::new("s", ColumnType::VarChar(20)),
            ColumnDef::new("d", ColumnType::Date),
        ];
        TableDef {
            id: 30,
            db: "db".into(),
            name: "t".into(),
            columns,
            indexes: vec![
                IndexDef::primary_key(30, vec![0]),
                secondary(31, "k", vec![1]),
                secondary(32, "ks", vec![1, 2]),
            ],
            engine: "InnoDB".into(),
            comment: String::new(),
            collation: Default::default(),
            key_format: onelog_core::schema::KEY_FORMAT,
            auto_increment_start: 0,
            checks: Vec::new(),
            foreign_keys: Vec::new(),
        }
    }

    fn secondary(id: u64, name: &str, columns: Vec<usize>) -> IndexDef {
        IndexDef { name: name.into(), primary: false, unique: false, ..IndexDef::primary_key(id, columns) }
    }

    #[test]
    fn covering_needs_every_wanted_column_decodable() {
        let def = table();
        assert!(covers(&def, &def.indexes[1], &[true, true, false, false]));
        assert!(!covers(&def, &def.indexes[1], &[false, false, false, true]));
        // `s` is in `ks`, but as its sort weight.
        assert!(!covers(&def, &def.indexes[2], &[false, true, true, false]));
        assert!(!covers(&def, &def.indexes[0], &[true, false, false, false]));
        assert_eq!(narrowest_covering(&def, &[false; 4]), Some(1));
        assert_eq!(narrowest_covering(&def, &[false, false, false, true]), None);
    }

    #[test]
    fn entries_decode_to_their_rows_columns() {
        let def = table();
        let row = [Value::Int(-3), Value::Int(7), Value::from_str("Ab\0c"), Value::Null];
        let clustered = key::encode_key(30, [(&def.columns[0], &row[0])]);
        let mut entry = key::encode_key(32, [(&def.columns[1], &row[1]), (&def.columns[2], &row[2])]);
        entry.extend_from_slice(&clustered[8..]);
        let decoded = decode_entry(&def, &def.indexes[2], &entry);
        assert_eq!(decoded, Some(vec![Value::Int(-3), Value::Int(7), Value::Null, Value::Null]));
        assert_eq!(decode_entry(&def, &def.indexes[1], &entry), None);
    }
}
