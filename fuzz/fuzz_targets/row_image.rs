//! The row-image decoder (`onelog_core::rowimage`, shared by the binlog's
//! rows events and storage's row format) on fuzz-chosen columns and bytes.
//!
//! Input: a column count byte (mod 12), three bytes per column
//! ([`onelog_fuzz::row_image_column`]), a byte choosing which columns a
//! partial decode materialises, then the row image.
//!
//! Checks: no panic; a decode consumes no more than the input and yields
//! one value per column; a partial decode steps over the same bytes and
//! agrees on the columns it keeps; and a decoded row the encoder accepts
//! encodes to an image that decodes to the same row as the columns hold it
//! (CHAR's trailing spaces dropped, fractions cut to the column's digits).
#![no_main]

use libfuzzer_sys::fuzz_target;
use onelog_core::rowimage::{decode_row, decode_row_columns, encode_row};
use onelog_core::{ColumnDef, ColumnType, Temporal, Value};
use onelog_fuzz::row_image_column;

/// A row as its columns can hold it, which is what the encoder writes:
/// CHAR without trailing spaces (PAD SPACE), fractional seconds cut to the
/// column's digits (the decoder, like MariaDB's, takes finer ones as read).
fn normalized(columns: &[ColumnDef], row: &[Value]) -> Vec<Value> {
    let fraction_unit = |fsp: u8| 10i64.pow(6 - u32::from(fsp.min(6)));
    columns
        .iter()
        .zip(row)
        .map(|(c, v)| match (&c.ty, v) {
            (ColumnType::Char(_), Value::Bytes(b)) => {
                Value::Bytes(b[..b.iter().rposition(|x| *x != b' ').map_or(0, |p| p + 1)].to_vec())
            }
            (ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp }, Value::DateTime(t)) => {
                let unit = fraction_unit(*fsp) as u32;
                Value::DateTime(Temporal { micros: t.micros / unit * unit, ..*t })
            }
            (ColumnType::Time { fsp }, Value::Time(us)) => {
                let unit = fraction_unit(*fsp);
                Value::Time(us.signum() * (us.abs() / unit * unit))
            }
            _ => v.clone(),
        })
        .collect()
}

fuzz_target!(|input: &[u8]| {
    let [count, rest @ ..] = input else { return };
    let n = usize::from(count % 12);
    if rest.len() < 3 * n + 1 {
        return;
    }
    let (specs, rest) = rest.split_at(3 * n);
    let columns: Vec<ColumnDef> = specs.chunks(3).enumerate().map(|(i, s)| row_image_column(i, s)).collect();
    let (mask, image) = (rest[0], &rest[1..]);

    let Ok((row, used)) = decode_row(&columns, image) else { return };
    assert!(used <= image.len() && row.len() == n, "decoded {} values from {used} of {} bytes", row.len(), image.len());
    let wanted: Vec<bool> = (0..n).map(|i| mask & (1 << (i % 8)) != 0).collect();
    let (partial, partial_used) = decode_row_columns(&columns, image, Some(&wanted)).expect("the full decode worked");
    assert_eq!(partial_used, used, "a partial decode steps over other bytes");
    for i in 0..n {
        let want = if wanted[i] { &row[i] } else { &Value::Null };
        // Debug text: NaN (a DOUBLE image may hold one) equals itself.
        assert_eq!(format!("{:?}", partial[i]), format!("{want:?}"), "a partial decode disagrees on column {i}");
    }

    let mut encoded = Vec::new();
    if encode_row(&columns, &row, &mut encoded).is_ok() {
        let (again, again_used) = decode_row(&columns, &encoded).expect("an encoded row decodes");
        assert_eq!(again_used, encoded.len(), "an encoded row is not read to its end");
        assert_eq!(normalized(&columns, &again), normalized(&columns, &row), "decode(encode(row)) != row");
    }
});
