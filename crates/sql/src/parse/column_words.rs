//! Column attributes MariaDB reads and sqlparser does not: ZEROFILL after a
//! numeric type (`INT(5) UNSIGNED ZEROFILL`), `CHARSET` for `CHARACTER SET`,
//! and type names sqlparser
//! reads only in part (`REAL(M,D)`, `INT1 UNSIGNED`, `FIXED(5,2) UNSIGNED`)
//! or not at all (`NATIONAL CHAR`, `LONG VARCHAR`), which are respelled as
//! the type MariaDB makes of them. A token-level pass over CREATE
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

/// MariaDB's type spellings sqlparser does not read, by their words, and
/// the type each is.
const TYPE_SPELLINGS: [(&[&str], &str); 15] = [
    (&["NATIONAL", "CHARACTER", "VARYING"], "NVARCHAR"),
    (&["NATIONAL", "CHAR", "VARYING"], "NVARCHAR"),
    (&["NATIONAL", "VARCHAR"], "NVARCHAR"),
    (&["NCHAR", "VARYING"], "NVARCHAR"),
    (&["NCHAR", "VARCHAR"], "NVARCHAR"),
    (&["NATIONAL", "CHARACTER"], "NCHAR"),
    (&["NATIONAL", "CHAR"], "NCHAR"),
    (&["LONG", "VARCHAR"], "MEDIUMTEXT"),
    (&["LONG", "VARBINARY"], "MEDIUMBLOB"),
    (&["INT1"], "TINYINT"),
    (&["INT3"], "MEDIUMINT"),
    (&["MIDDLEINT"], "MEDIUMINT"),
    (&["FIXED"], "DECIMAL"),
    // sqlparser's NUMERIC takes no UNSIGNED.
    (&["NUMERIC"], "DECIMAL"),
    // REAL is DOUBLE (without sql_mode REAL_AS_FLOAT).
    (&["REAL"], "DOUBLE"),
];

/// `sql` with every ZEROFILL blanked out and the type names of
/// [`TYPE_SPELLINGS`] respelled, and the columns that said ZEROFILL.
pub(crate) fn strip(sql: &str) -> SqlResult<(String, ColumnWords)> {
    let tokens = pieces(sql)?;
    let mut rewritten = sql.to_string();
    let mut words = ColumnWords::default();
    // Back to front, so earlier byte ranges stay valid as text changes length.
    for (at, piece) in tokens.iter().enumerate().rev() {
        if piece.is_keyword("ZEROFILL") {
            // ZEROFILL is unsigned: SIGNED beside it is MariaDB's syntax error.
            if at > 0 && tokens[at - 1].is_keyword("SIGNED") {
                return Err(SqlError::parse(&sql[piece.start..], 1));
            }
            if let Some(next) = tokens.get(at + 1).filter(|next| next.is_keyword("SIGNED")) {
                return Err(SqlError::parse(&sql[next.start..], 1));
            }
            let name = name_index(&tokens[..at]).and_then(|i| word_value(&tokens[i]));
            words.zerofill.push(name.ok_or_else(|| SqlError::parse(&sql[piece.start..], 1))?);
            rewritten.replace_range(piece.start..piece.end, " ");
        } else if piece.is_keyword("CHARSET") && name_index(&tokens[..at]).is_some_and(|name| name > 0) {
            // A column's `CHARSET cs`, MariaDB's synonym of `CHARACTER SET`.
            rewritten.replace_range(piece.start..piece.end, "CHARACTER SET");
        } else if at > 0 && name_index(&tokens[..at]) == Some(at - 1) {
            if let Some((spelling, ty)) = TYPE_SPELLINGS.iter().find(|(spelling, _)| {
                spelling.len() <= tokens.len() - at
                    && spelling.iter().zip(&tokens[at..]).all(|(word, piece)| piece.is_keyword(word))
            }) {
                rewritten.replace_range(piece.start..tokens[at + spelling.len() - 1].end, ty);
            }
        }
    }
    Ok((rewritten, words))
}

fn word_value(piece: &Piece) -> Option<String> {
    match &piece.token {
        Token::Word(w) => Some(w.value.clone()),
        _ => None,
    }
}

/// Where the name of the column whose definition `before` ends in is: the
/// definition starts after the last comma or unclosed `(` at this depth (or
/// at ADD / MODIFY / CHANGE), and its name follows ALTER's keywords and,
/// for CHANGE, the old name.
fn name_index(before: &[Piece]) -> Option<usize> {
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
    let is_alter_keyword =
        |i: usize| before.get(i).is_some_and(|p| ["ADD", "MODIFY", "CHANGE"].iter().any(|k| p.is_keyword(k)));
    let mut at = start;
    if is_alter_keyword(at) {
        let changes = before[at].is_keyword("CHANGE");
        at += 1;
        while before.get(at).is_some_and(|p| ["COLUMN", "IF", "NOT", "EXISTS"].iter().any(|k| p.is_keyword(k))) {
            at += 1;
        }
        if changes {
            at += 1;
        }
    }
    // An index or constraint, not a column (these words are reserved, so
    // a column of that name is quoted).
    const NOT_COLUMNS: [&str; 9] =
        ["KEY", "INDEX", "UNIQUE", "PRIMARY", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK"];
    let name = before.get(at)?;
    let names_column = matches!(name.token, Token::Word(_)) && !NOT_COLUMNS.iter().any(|k| name.is_keyword(k));
    names_column.then_some(at)
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
    fn type_spellings_are_respelled_where_a_type_stands() {
        assert_eq!(
            zerofill_of("CREATE TABLE t (r REAL(8,2), `real` REAL, int1 int1 unsigned, n national char(2))").0,
            "CREATE TABLE t (r DOUBLE(8,2), `real` DOUBLE, int1 TINYINT unsigned, n NCHAR(2))"
        );
        assert_eq!(
            zerofill_of("ALTER TABLE t CHANGE long long long varchar, MODIFY fixed fixed(5,2) unsigned").0,
            "ALTER TABLE t CHANGE long long MEDIUMTEXT, MODIFY fixed DECIMAL(5,2) unsigned"
        );
        let keyed = "CREATE TABLE t (fixed INT, KEY fixed (fixed))";
        assert_eq!(zerofill_of(keyed).0, keyed);
    }

    #[test]
    fn a_columns_charset_is_character_set_and_a_tables_stays() {
        assert_eq!(
            zerofill_of("CREATE TABLE t (a VARCHAR(10) CHARSET latin1, b TEXT) CHARSET=utf8mb4").0,
            "CREATE TABLE t (a VARCHAR(10) CHARACTER SET latin1, b TEXT) CHARSET=utf8mb4"
        );
        assert_eq!(
            zerofill_of("ALTER TABLE t MODIFY a CHAR(3) CHARSET binary").0,
            "ALTER TABLE t MODIFY a CHAR(3) CHARACTER SET binary"
        );
    }

    #[test]
    fn a_quoted_zerofill_is_a_name() {
        assert!(zerofill_of("CREATE TABLE t (`zerofill` INT, c CHAR(3) DEFAULT 'zerofill')").1.is_empty());
    }
}
