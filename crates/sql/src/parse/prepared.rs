//! SQL-level prepared statements: `PREPARE name FROM expr` and `EXECUTE
//! IMMEDIATE expr [USING ...]`, MySQL syntax sqlparser does not take.
//! (`EXECUTE name USING ...` and `DEALLOCATE PREPARE` it parses.)

use super::dialect::MariaDbDialect;
use super::{convert_expr, parse_error, parse_expr_text, ParamCounter};
use crate::ast::*;
use onelog_core::{SqlError, SqlResult};
use sqlparser::ast as sp;
use sqlparser::parser::Parser;

/// `PREPARE name FROM expr`.
pub(crate) fn parse_prepare(text: &str) -> SqlResult<Statement> {
    let syntax = || SqlError::parse(text, 1);
    let rest = after_word(text.trim_start(), "PREPARE").ok_or_else(syntax)?;
    let (name, rest) = identifier(rest).ok_or_else(syntax)?;
    let source = after_word(rest, "FROM").ok_or_else(syntax)?;
    Ok(Statement::Prepare { name, source: parse_expr_text(source)? })
}

/// `EXECUTE IMMEDIATE expr [USING expr, ...]`: parsed as sqlparser's
/// `EXECUTE name expr USING ...` with a stand-in name, which finds where
/// the statement expression ends.
pub(crate) fn parse_execute_immediate(text: &str) -> SqlResult<Statement> {
    let syntax = || SqlError::parse(text, 1);
    let rest = after_word(text.trim_start(), "EXECUTE").and_then(|r| after_word(r, "IMMEDIATE")).ok_or_else(syntax)?;
    let sql = format!("EXECUTE onelog_immediate {rest}");
    let parsed = Parser::new(&MariaDbDialect).try_with_sql(&sql).and_then(|mut p| p.parse_statement());
    let parsed = parsed.map_err(|e| parse_error(text, &e))?;
    let sp::Statement::Execute { parameters, using, into, .. } = parsed else { return Err(syntax()) };
    let [source] = parameters.as_slice() else { return Err(syntax()) };
    if !into.is_empty() {
        return Err(syntax());
    }
    let mut params = ParamCounter::default();
    let using = using.iter().map(|u| convert_expr(&u.expr, &mut params)).collect::<SqlResult<_>>()?;
    Ok(Statement::ExecuteImmediate { source: convert_expr(source, &mut params)?, using })
}

/// The text after a leading `word` (any case) and the blanks after it.
fn after_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let head = text.get(..word.len())?;
    let rest = &text[word.len()..];
    let boundary = rest.chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
    (head.eq_ignore_ascii_case(word) && boundary).then(|| rest.trim_start())
}

/// A leading identifier, plain or `quoted`, and the text after it.
fn identifier(text: &str) -> Option<(String, &str)> {
    if let Some(quoted) = text.strip_prefix('`') {
        let end = quoted.find('`')?;
        return Some((quoted[..end].to_string(), quoted[end + 1..].trim_start()));
    }
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(text.len());
    (end > 0).then(|| (text[..end].to_string(), text[end..].trim_start()))
}
