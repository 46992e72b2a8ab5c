//! MariaDB's SEQUENCE engine: the virtual tables `seq_FROM_to_TO` and
//! `seq_FROM_to_TO_step_STEP` that exist in every database without being
//! created, one `seq BIGINT UNSIGNED` primary-key column holding FROM,
//! FROM plus STEP, and so on up to TO (counting down when FROM > TO). Test
//! suites and applications use them to generate rows (`INSERT … SELECT
//! seq FROM seq_1_to_1000`).
//!
//! A sequence table is read-only and never stored, so nothing about it is
//! logged. A real table of the same name cannot be created (as in MariaDB,
//! where discovery finds the sequence first), but one that exists already
//! (created before this engine) shadows it.

use crate::ast::Statement;
use onelog_core::{Collation, ErrorCode, SqlError, SqlResult, TableDef, Value};

/// The most rows one sequence table yields. OneLog materializes a derived
/// row source before it filters it, so an unbounded sequence would take
/// unbounded memory; MariaDB generates rows lazily and has no such limit.
pub const MAX_ROWS: u64 = 10_000_000;

/// The one column of every sequence table.
pub const COLUMN: &str = "seq";

/// The numbers a sequence table's name describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sequence {
    from: u64,
    to: u64,
    step: u64,
}

impl Sequence {
    /// The sequence `name` names, or `None` when it is not a sequence
    /// table's name. Names are case-sensitive, as MariaDB's on Linux.
    pub fn parse(name: &str) -> Option<Sequence> {
        let rest = name.strip_prefix("seq_")?;
        let (from, rest) = rest.split_once("_to_")?;
        let (to, step) = match rest.split_once("_step_") {
            Some((to, step)) => (to, number(step)?),
            None => (rest, 1),
        };
        Some(Sequence { from: number(from)?, to: number(to)?, step })
    }

    /// The table's definition, as SHOW CREATE TABLE prints it in database
    /// `db` (whose default collation it takes).
    pub fn def(db: &str, name: &str, db_collation: Collation) -> SqlResult<TableDef> {
        let sql = format!(
            "CREATE TABLE `{name}` (`{COLUMN}` bigint(20) unsigned NOT NULL, PRIMARY KEY (`{COLUMN}`)) ENGINE=SEQUENCE"
        );
        let Statement::CreateTable(ct) = crate::parse::parse_single(&sql)?.statement else {
            return Err(SqlError::internal("a sequence table's definition is not a CREATE TABLE"));
        };
        crate::ddl::new_table_def(&mut || 0, db, db_collation, &ct)
    }

    /// The table's rows, in primary-key order as MariaDB returns them (so
    /// descending for a descending sequence).
    pub fn rows(&self) -> SqlResult<Vec<Vec<Value>>> {
        if self.step == 0 {
            // MariaDB refuses a zero step when it opens the table.
            return Err(SqlError::new(
                ErrorCode::GET_ERRNO,
                "Got error 140 \"Wrong create options\" from storage engine SEQUENCE",
            ));
        }
        let count = (self.from.abs_diff(self.to) / self.step).saturating_add(1);
        if count > MAX_ROWS {
            return Err(SqlError::not_supported(&format!("SEQUENCE tables of more than {MAX_ROWS} rows")));
        }
        let values = (0..count).map(|i| match self.from <= self.to {
            true => self.from + i * self.step,
            false => self.from - i * self.step,
        });
        Ok(values.map(|v| vec![Value::UInt(v)]).collect())
    }
}

fn number(digits: &str) -> Option<u64> {
    match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        true => digits.parse().ok(),
        false => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(name: &str) -> Vec<u64> {
        let rows = Sequence::parse(name).expect("a sequence").rows().expect("rows");
        rows.into_iter()
            .map(|r| match r[..] {
                [Value::UInt(v)] => v,
                _ => panic!("{r:?}"),
            })
            .collect()
    }

    #[test]
    fn names_give_their_numbers() {
        assert_eq!(seq("seq_1_to_3"), [1, 2, 3]);
        assert_eq!(seq("seq_1_to_0"), [1, 0]);
        assert_eq!(seq("seq_5_to_1_step_2"), [5, 3, 1]);
        assert_eq!(seq("seq_1_to_6_step_2"), [1, 3, 5]);
        assert_eq!(seq("seq_7_to_7"), [7]);
    }

    #[test]
    fn other_names_are_not_sequences() {
        for name in ["seq_1_to", "seq_a_to_3", "SEQ_1_to_3", "seq_1_to_3_step_", "seq_-1_to_3", "t1", "seq_1_to_3x"] {
            assert_eq!(Sequence::parse(name), None, "{name}");
        }
    }

    #[test]
    fn zero_step_and_huge_ranges_are_refused() {
        let zero = Sequence::parse("seq_1_to_3_step_0").expect("parses").rows().expect_err("zero step");
        assert_eq!(zero.code, ErrorCode::GET_ERRNO);
        let huge = Sequence::parse("seq_0_to_18446744073709551615").expect("parses").rows().expect_err("too big");
        assert_eq!(huge.code, ErrorCode::NOT_SUPPORTED_YET);
    }
}
