//! EXPLAIN's MariaDB modifiers, which sqlparser does not know:
//! `EXPLAIN EXTENDED`, `EXPLAIN PARTITIONS` and `EXPLAIN FORMAT=...`.
//! The modifier is blanked out of the statement (keeping every other byte
//! where it was, so item names cut from the text stay right) and returned.

use crate::ast::ExplainMode;
use onelog_core::{SqlError, SqlResult};

/// The modifier of an `EXPLAIN | DESCRIBE | DESC` statement and its byte
/// range, or `None` when there is none.
pub(super) fn modifier(sql: &str) -> SqlResult<Option<(ExplainMode, std::ops::Range<usize>)>> {
    let (first, after_first) = word_at(sql, 0);
    if !["EXPLAIN", "DESCRIBE", "DESC"].iter().any(|w| first.eq_ignore_ascii_case(w)) {
        return Ok(None);
    }
    let start = skip_space(sql, after_first);
    let (second, end) = word_at(sql, start);
    if second.eq_ignore_ascii_case("EXTENDED") {
        return Ok(Some((ExplainMode::Extended, start..end)));
    }
    if second.eq_ignore_ascii_case("PARTITIONS") {
        return Ok(Some((ExplainMode::Partitions, start..end)));
    }
    if !second.eq_ignore_ascii_case("FORMAT") {
        return Ok(None);
    }
    let equals = skip_space(sql, end);
    if !sql[equals..].starts_with('=') {
        return Err(SqlError::parse(&sql[equals..], 1));
    }
    let (format, format_end) = word_at(sql, skip_space(sql, equals + 1));
    match format.to_ascii_uppercase().as_str() {
        "TRADITIONAL" => Ok(Some((ExplainMode::Plain, start..format_end))),
        // MariaDB's JSON plan describes its optimizer's structures, which
        // OneLog's planner does not have.
        "JSON" => Err(SqlError::not_supported("EXPLAIN FORMAT=JSON")),
        _ => Err(SqlError::new(
            onelog_core::ErrorCode::UNKNOWN_EXPLAIN_FORMAT,
            format!("Unknown EXPLAIN/ANALYZE format name: '{format}'"),
        )),
    }
}

/// `sql` with `range` replaced by spaces.
pub(super) fn blank(sql: &str, range: std::ops::Range<usize>) -> String {
    let mut out = String::with_capacity(sql.len());
    out.push_str(&sql[..range.start]);
    out.extend(std::iter::repeat_n(' ', range.len()));
    out.push_str(&sql[range.end..]);
    out
}

fn skip_space(sql: &str, from: usize) -> usize {
    from + sql[from..].len() - sql[from..].trim_start().len()
}

/// The word (letters, digits, `_`) starting at `from` and the byte after it.
fn word_at(sql: &str, from: usize) -> (&str, usize) {
    let start = skip_space(sql, from);
    let len = sql[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(sql.len() - start);
    (&sql[start..start + len], start + len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Statement;

    fn mode_of(sql: &str) -> ExplainMode {
        match crate::parse::parse_single(sql).map(|p| p.statement) {
            Ok(Statement::Explain { mode, .. }) => mode,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn modifiers_set_the_mode() {
        assert_eq!(mode_of("EXPLAIN SELECT 1"), ExplainMode::Plain);
        assert_eq!(mode_of("explain extended select 1+1"), ExplainMode::Extended);
        assert_eq!(mode_of("DESCRIBE PARTITIONS SELECT 1"), ExplainMode::Partitions);
        assert_eq!(mode_of("EXPLAIN FORMAT = TRADITIONAL SELECT 1"), ExplainMode::Plain);
    }

    #[test]
    fn item_names_keep_their_text() {
        let Ok(Statement::Explain { statement, .. }) =
            crate::parse::parse_single("explain extended select 10 mod 7").map(|p| p.statement)
        else {
            panic!("not an EXPLAIN")
        };
        let Statement::Select(select) = *statement else { panic!("not a SELECT") };
        assert!(matches!(&select.items[0], crate::ast::SelectItem::Expr { text, .. } if text == "10 mod 7"));
    }

    #[test]
    fn formats_other_than_traditional_are_refused() {
        let code = |sql: &str| crate::parse::parse_single(sql).err().map(|e| e.code);
        assert_eq!(code("EXPLAIN FORMAT=JSON SELECT 1"), Some(onelog_core::ErrorCode::NOT_SUPPORTED_YET));
        assert_eq!(code("EXPLAIN FORMAT=XML SELECT 1"), Some(onelog_core::ErrorCode::UNKNOWN_EXPLAIN_FORMAT));
        assert!(crate::parse::parse_single("EXPLAIN EXTENDED t1").is_err());
    }
}
