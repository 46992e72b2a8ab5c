//! `SELECT ... INTO` at the top level of a query: MariaDB stores the one
//! row the query returns in user variables (`INTO @a, @b`), or writes the
//! rows to a file on the server (`INTO OUTFILE`, `INTO DUMPFILE`).
//!
//! INTO may follow the select list or end the query (after FROM, LIMIT,
//! FOR UPDATE, a UNION or a parenthesized query); MariaDB 10.11 warns that
//! the second place is deprecated. sqlparser reads neither, so the clause
//! is cut out of the text here, before sqlparser reads the query, and put
//! on the `Select` afterwards. INTO anywhere else (a subquery, a derived
//! table, twice) is MariaDB's syntax error.

use super::load_data::{file_format, significant_spans, Words};
use crate::ast::{IntoTarget, SelectInto};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::tokenizer::Token;

/// Top-level words after which a select list is over: an INTO after one of
/// them is in the deprecated place.
const CLAUSE_WORDS: [&str; 12] =
    ["FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "FOR", "LOCK"];

/// A query's text with its INTO clause blanked out, and the clause; `None`
/// when `sql` is no query or has no INTO.
pub(super) fn cut(sql: &str) -> SqlResult<Option<(String, SelectInto)>> {
    let tokens = significant_spans(sql)?;
    let Some(first) = tokens.iter().position(|t| t.token != Token::LParen) else { return Ok(None) };
    let mut w = Words { sql, tokens: &tokens, at: first };
    if !is_query(&mut w) {
        return Ok(None);
    }
    let Some((into_at, after_clause)) = find_into(&mut w)? else { return Ok(None) };
    w.at = into_at;
    let start = w.offset_of_current();
    w.at += 1;
    let target = target(&mut w)?;
    let end = w.offset_of_current();
    // INTO ends the query: no UNION part may follow it.
    if w.peek_word().is_some_and(|word| matches!(word.as_str(), "UNION" | "EXCEPT" | "INTERSECT")) {
        return Err(w.error());
    }
    if let Some(again) = (w.at..tokens.len()).find(|&i| is_into(&tokens[i].token)) {
        w.at = again;
        return Err(w.error());
    }
    let blank: String = sql[start..end].chars().map(|c| if c == '\n' { c } else { ' ' }).collect();
    let blanked = format!("{}{blank}{}", &sql[..start], &sql[end..]);
    Ok(Some((blanked, SelectInto { target, deprecated_position: after_clause || first > 0 })))
}

/// Whether the statement is a query, or EXPLAIN of one (which keeps its
/// INTO but never runs it).
fn is_query(w: &mut Words) -> bool {
    if matches!(w.peek_word().as_deref(), Some("EXPLAIN" | "DESCRIBE" | "DESC")) {
        let explained = (w.at + 1..w.tokens.len()).find(|&i| {
            w.at = i;
            matches!(w.peek_word().as_deref(), Some("SELECT" | "WITH" | "INSERT" | "REPLACE" | "UPDATE" | "DELETE"))
        });
        let Some(at) = explained else { return false };
        w.at = at;
    }
    matches!(w.peek_word().as_deref(), Some("SELECT" | "WITH"))
}

fn is_into(token: &Token) -> bool {
    matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("INTO"))
}

/// The top-level INTO's token, and whether a clause ended the select list
/// before it. An INTO inside parentheses is a syntax error there.
fn find_into(w: &mut Words) -> SqlResult<Option<(usize, bool)>> {
    let mut depth = 0usize;
    let mut after_clause = false;
    for (i, t) in w.tokens.iter().enumerate() {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            token if is_into(token) => {
                if depth > 0 {
                    w.at = i;
                    return Err(w.error());
                }
                return Ok(Some((i, after_clause)));
            }
            Token::Word(word) if depth == 0 && word.quote_style.is_none() => {
                after_clause |= CLAUSE_WORDS.iter().any(|c| word.value.eq_ignore_ascii_case(c));
            }
            _ => {}
        }
    }
    Ok(None)
}

/// What follows INTO.
fn target(w: &mut Words) -> SqlResult<IntoTarget> {
    if w.accept("OUTFILE") {
        let file = w.string()?;
        let (charset, format) = file_format(w)?;
        return Ok(IntoTarget::Outfile { file, charset, format });
    }
    if w.accept("DUMPFILE") {
        return Ok(IntoTarget::Dumpfile(w.string()?));
    }
    let mut names = vec![user_var(w)?];
    while w.peek_is(&Token::Comma) {
        w.at += 1;
        names.push(user_var(w)?);
    }
    Ok(IntoTarget::UserVars(names))
}

/// `@name`, `@'name'` or `@`name``, the name lower-cased as user variables
/// are; a bare name is an undeclared (routine) variable outside a routine.
fn user_var(w: &mut Words) -> SqlResult<String> {
    let name = match w.tokens.get(w.at).map(|t| &t.token) {
        Some(Token::Word(v)) if v.quote_style.is_none() && v.value.starts_with("@@") => return Err(w.error()),
        Some(Token::Word(v)) if v.quote_style.is_none() && v.value.starts_with('@') => v.value[1..].to_string(),
        Some(Token::AtSign) => {
            w.at += 1;
            match w.tokens.get(w.at).map(|t| &t.token) {
                Some(Token::Word(v)) => v.value.clone(),
                Some(Token::SingleQuotedString(s) | Token::DoubleQuotedString(s)) => s.clone(),
                _ => return Err(w.error()),
            }
        }
        Some(Token::Word(v)) => {
            return Err(SqlError::new(ErrorCode::SP_UNDECLARED_VAR, format!("Undeclared variable: {}", v.value)))
        }
        _ => return Err(w.error()),
    };
    w.at += 1;
    Ok(name.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn into(sql: &str) -> (String, SelectInto) {
        cut(sql).unwrap().unwrap()
    }

    #[test]
    fn user_variables_before_from_or_at_the_end() {
        let (text, clause) = into("SELECT a, b INTO @x, @`Y z` FROM t");
        assert_eq!(text, "SELECT a, b                 FROM t");
        assert_eq!(clause.target, IntoTarget::UserVars(vec!["x".into(), "y z".into()]));
        assert!(!clause.deprecated_position);
        let (text, clause) = into("SELECT a FROM t LIMIT 1 INTO @x FOR UPDATE");
        assert_eq!(text, "SELECT a FROM t LIMIT 1         FOR UPDATE");
        assert!(clause.deprecated_position);
        assert!(into("(SELECT 1) INTO @x").1.deprecated_position);
        assert!(!into("WITH c AS (SELECT 1 a) SELECT a INTO @w FROM c").1.deprecated_position);
    }

    #[test]
    fn files() {
        let (_, clause) = into(
            "SELECT * FROM t INTO OUTFILE '/tmp/f' FIELDS OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n'",
        );
        let IntoTarget::Outfile { file, format, .. } = clause.target else { panic!("not OUTFILE") };
        assert_eq!(file, b"/tmp/f");
        assert!(format.enclosed_optionally);
        assert_eq!(format.enclosed_by, b"\"");
        assert_eq!(format.line_terminator, b"\r\n");
        assert_eq!(into("SELECT 1 INTO DUMPFILE 'd'").1.target, IntoTarget::Dumpfile(b"d".to_vec()));
    }

    #[test]
    fn misplaced_into_is_refused() {
        assert!(cut("INSERT INTO t SELECT 1").unwrap().is_none());
        assert!(cut("EXPLAIN INSERT INTO t SELECT 1").unwrap().is_none());
        assert!(cut("EXPLAIN EXTENDED SELECT 1 INTO @x").unwrap().is_some());
        assert!(cut("SELECT 1 FROM t").unwrap().is_none());
        let near = |sql: &str| cut(sql).unwrap_err().message;
        assert!(near("SELECT * FROM (SELECT 1 INTO @x) d").contains("near 'INTO @x) d'"));
        assert!(near("SELECT 1 INTO @x FROM t INTO @y").contains("near 'INTO @y'"));
        assert!(near("SELECT 1 INTO @x UNION SELECT 2").contains("near 'UNION SELECT 2'"));
        assert_eq!(cut("SELECT 1 INTO x").unwrap_err().code, ErrorCode::SP_UNDECLARED_VAR);
    }
}
