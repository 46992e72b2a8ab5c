//! Column attributes MariaDB reads and sqlparser does not: ZEROFILL after a
//! numeric type (`INT(5) UNSIGNED ZEROFILL`), and `REAL(M,D)` (MariaDB's
//! DOUBLE, which sqlparser reads only without digits). A token-level pass over CREATE
//! TABLE and ALTER TABLE blanks them out of the text sqlparser reads and
//! remembers which column declared them; they are set on the converted
//! column definitions afterwards. The statement's own text, which the binlog
//! carries, keeps them.

use super::alter::{pieces, Piece};
use crate::ast::{AlterOp, Statement};
use onelog_core::{ColumnDef, SqlError, SqlResult};
use sqlparser::tokenizer::Token;

/// What the pass took out of a statement.
#[derive(Debug, Default)]
pub(crate) struct ColumnWords {
    /// Columns declared ZEROFILL, by name.
    zerofill: Vec<String>,
}

/// `sql` with every ZEROFILL blanked out and `REAL(` read as `DOUBLE(`,
/// and the columns that said ZEROFILL.
pub(crate) fn strip(sql: &str) -> SqlResult<(String, ColumnWords)> {
    let tokens = pieces(sql)?;
    let mut rewritten = sql.to_string();
    let mut words = ColumnWords::default();
    // Back to front, so earlier byte ranges stay valid as text changes length.
    for (at, piece) in tokens.iter().enumerate().rev() {
        if piece.is_keyword("REAL") && tokens.get(at + 1).is_some_and(|p| p.token == Token::LParen) {
            rewritten.replace_range(piece.start..piece.end, "DOUBLE");
            continue;
        }
        if !piece.is_keyword("ZEROFILL") {
            continue;
        }
        let name = column_name(&tokens[..at]).ok_or_else(|| SqlError::parse(&sql[piece.start..], 1))?;
        words.zerofill.push(name);
        rewritten.replace_range(piece.start..piece.end, " ");
    }
    Ok((rewritten, words))
}

/// The name of the column whose definition `before` ends in: the
/// definition starts after the last comma or unclosed `(` at this depth (or
/// at ADD / MODIFY / CHANGE), and its name follows ALTER's keywords and,
/// for CHANGE, the old name.
fn column_name(before: &[Piece]) -> Option<String> {
    let mut depth = 0usize;
    let mut start = 0;
    for (i, p) in before.iter().enumerate().rev() {
        match p.token {
            Token::RParen => depth += 1,
            Token::LParen if depth == 0 => {
                start = i + 1;
                break;
            }
            Token::LParen => depth -= 1,
            Token::Comma if depth == 0 => {
                start = i + 1;
                break;
            }
            _ if depth == 0 && ["ADD", "MODIFY", "CHANGE"].iter().any(|k| p.is_keyword(k)) => {
                start = i;
                break;
            }
            _ => {}
        }
    }
    let mut spec = &before[start..];
    let changes = spec.first().is_some_and(|p| p.is_keyword("CHANGE"));
    if spec.first().is_some_and(|p| ["ADD", "MODIFY", "CHANGE"].iter().any(|k| p.is_keyword(k))) {
        spec = &spec[1..];
        while spec.first().is_some_and(|p| ["COLUMN", "IF", "NOT", "EXISTS"].iter().any(|k| p.is_keyword(k))) {
            spec = &spec[1..];
        }
        if changes {
            spec = spec.get(1..)?;
        }
    }
    match &spec.first()?.token {
        Token::Word(w) => Some(w.value.clone()),
        _ => None,
    }
}

impl ColumnWords {
    /// Sets what was taken out on the statement's column definitions;
    /// ZEROFILL on a type that is not numeric is MariaDB's syntax error.
    pub(crate) fn apply(&self, statement: &mut Statement) -> SqlResult<()> {
        if self.zerofill.is_empty() {
            return Ok(());
        }
        let columns: Vec<&mut ColumnDef> = match statement {
            Statement::CreateTable(ct) => ct.columns.iter_mut().collect(),
            Statement::AlterTable { ops, .. } => ops
                .iter_mut()
                .filter_map(|op| match op {
                    AlterOp::AddColumn { column, .. } | AlterOp::ChangeColumn { column, .. } => Some(column),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for column in columns {
            if !self.zerofill.iter().any(|n| n.eq_ignore_ascii_case(&column.name)) {
                continue;
            }
            if !column.ty.is_numeric() {
                return Err(SqlError::parse("zerofill", 1));
            }
            column.zerofill = true;
            column.unsigned = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zerofill_of(sql: &str) -> (String, Vec<String>) {
        let (text, words) = strip(sql).unwrap();
        (text, words.zerofill)
    }

    #[test]
    fn names_the_column_in_create_and_alter() {
        let (text, names) = zerofill_of("CREATE TABLE t (a INT(5) UNSIGNED ZEROFILL, b DECIMAL(6,2) zerofill)");
        assert_eq!(names, ["b", "a"]);
        assert!(!text.to_ascii_uppercase().contains("ZEROFILL"));
        assert_eq!(zerofill_of("ALTER TABLE t MODIFY COLUMN a INT ZEROFILL").1, ["a"]);
        assert_eq!(zerofill_of("ALTER TABLE t CHANGE a `b` INT ZEROFILL, ADD c INT ZEROFILL").1, ["c", "b"]);
        assert_eq!(zerofill_of("ALTER TABLE t ADD COLUMN IF NOT EXISTS d FLOAT(7,3) ZEROFILL").1, ["d"]);
    }

    #[test]
    fn real_with_digits_is_double() {
        assert_eq!(
            zerofill_of("CREATE TABLE t (r REAL(8,2), `real` REAL)").0,
            "CREATE TABLE t (r DOUBLE(8,2), `real` REAL)"
        );
    }

    #[test]
    fn a_quoted_zerofill_is_a_name() {
        assert!(zerofill_of("CREATE TABLE t (`zerofill` INT, c CHAR(3) DEFAULT 'zerofill')").1.is_empty());
    }
}
