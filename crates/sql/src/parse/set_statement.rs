//! `SET STATEMENT var = value [, var = value ...] FOR statement` (MariaDB
//! 10.1.2+): session variables that hold for one statement. The
//! assignments are read as an ordinary SET, the statement after the first
//! top-level FOR as any other; the statement keeps its whole text, which
//! is what MariaDB writes to the binlog.

use super::{near_text, parse_one, Cursor, ParsedStatement};
use crate::ast::{SetTarget, Statement};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::dialect::MySqlDialect;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

/// A `SET STATEMENT ... FOR ...` statement, or `None` when `rewritten`
/// (the text as sqlparser reads it; `text` as written) is another one.
pub(super) fn parse(text: &str, rewritten: &str) -> SqlResult<Option<ParsedStatement>> {
    // Every statement passes here: most leave before being tokenized.
    let mut words = rewritten.split_whitespace();
    let opens = |word: Option<&str>, expected: &str| word.is_some_and(|w| w.eq_ignore_ascii_case(expected));
    if !opens(words.next(), "SET") || !opens(words.next(), "STATEMENT") {
        return Ok(None);
    }
    let Some(written) = Split::of(text)? else { return Ok(None) };
    let Some(read) = Split::of(rewritten)? else { return Ok(None) };
    written.check_assignments(text)?;
    let set_text = format!("SET {}", &rewritten[read.assignments.clone()]);
    let set = parse_one(&set_text, &set_text)?;
    let Statement::Set(assignments) = set.statement else {
        return Err(near(text, written.assignments.start));
    };
    if assignments.iter().any(|a| !matches!(a.target, SetTarget::System { .. })) {
        return Err(near(text, written.assignments.start));
    }
    let inner_text = text[written.statement_start..].trim();
    if inner_text.is_empty() {
        return Err(SqlError::parse("", 1));
    }
    let inner = parse_one(inner_text, rewritten[read.statement_start..].trim())?;
    // A SET STATEMENT inside another replaces its list, as in MariaDB.
    let (assignments, params, statement) = match inner.statement {
        Statement::SetStatement { assignments, params, statement } => (assignments, params, statement),
        other => (assignments, set.param_count, Box::new(other)),
    };
    Ok(Some(ParsedStatement {
        statement: Statement::SetStatement { assignments, params, statement },
        text: text.to_string(),
        param_count: set.param_count + inner.param_count,
    }))
}

/// Where a SET STATEMENT's parts are in its text: the assignments (byte
/// range) and the statement after FOR (its first byte).
struct Split {
    tokens: Vec<(Token, usize)>,
    /// Index in `tokens` of the first token after STATEMENT and of FOR.
    first_assignment: usize,
    for_at: usize,
    assignments: std::ops::Range<usize>,
    statement_start: usize,
}

impl Split {
    fn of(sql: &str) -> SqlResult<Option<Split>> {
        let spanned = Tokenizer::new(&MySqlDialect {}, sql)
            .tokenize_with_location()
            .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), 1))?;
        let tokens = significant(sql, spanned);
        let is_word = |i: usize, word: &str| matches!(tokens.get(i), Some((Token::Word(w), _)) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word));
        if !is_word(0, "SET") || !is_word(1, "STATEMENT") {
            return Ok(None);
        }
        let mut depth = 0usize;
        let mut for_at = None;
        for (i, (token, _)) in tokens.iter().enumerate().skip(2) {
            match token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ if depth == 0 && is_word(i, "FOR") => {
                    for_at = Some(i);
                    break;
                }
                _ => {}
            }
        }
        // Without FOR the statement ends where FOR was expected.
        let Some(for_at) = for_at else { return Err(SqlError::parse("", 1)) };
        let for_start = tokens[for_at].1;
        let statement_start = for_start + "FOR".len();
        let assignments = tokens[2].1..for_start;
        Ok(Some(Split { tokens, first_assignment: 2, for_at, assignments, statement_start }))
    }

    /// What MariaDB's grammar refuses before any value is read: each
    /// assignment is a plain variable name, `=` and a value (`@@x`, `@x`,
    /// `NAMES ...` and an empty item are syntax errors), and a dotted name
    /// is a structured variable, which no system variable is (4081).
    fn check_assignments(&self, text: &str) -> SqlResult<()> {
        let items = &self.tokens[self.first_assignment..self.for_at];
        let mut start = 0;
        let mut depth = 0usize;
        for (i, (token, _)) in items.iter().enumerate() {
            match token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                Token::Comma if depth == 0 => {
                    self.check_item(text, self.first_assignment + start, self.first_assignment + i)?;
                    start = i + 1;
                }
                _ => {}
            }
        }
        self.check_item(text, self.first_assignment + start, self.for_at)
    }

    /// The item in `tokens[from..to]`.
    fn check_item(&self, text: &str, from: usize, to: usize) -> SqlResult<()> {
        let at = |i: usize| self.tokens.get(i).map_or(text.len(), |(_, offset)| *offset);
        let name = match self.tokens.get(from).filter(|_| from < to) {
            Some((Token::Word(w), _)) if !w.value.starts_with('@') => w,
            _ => return Err(near(text, at(from))),
        };
        match self.tokens.get(from + 1).filter(|_| from + 1 < to) {
            Some((Token::Eq | Token::Assignment, _)) => Ok(()),
            Some((Token::Period, _)) => Err(SqlError::new(
                ErrorCode::UNKNOWN_STRUCTURED_VARIABLE,
                format!("Unknown structured system variable or ROW routine variable '{}'", name.value),
            )),
            _ => Err(near(text, at(from + 1))),
        }
    }
}

/// The tokens of `sql` that are not whitespace, with their byte offsets.
fn significant(sql: &str, tokens: Vec<TokenWithSpan>) -> Vec<(Token, usize)> {
    let mut cursor = Cursor { src: sql, byte: 0, line: 1, column: 1 };
    tokens
        .into_iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_) | Token::EOF))
        .map(|t| {
            let offset = cursor.offset(t.span.start.line, t.span.start.column);
            (t.token, offset)
        })
        .collect()
}

/// Error 1064 quoting `text` from byte `at` on.
fn near(text: &str, at: usize) -> SqlError {
    let line = 1 + text[..at].matches('\n').count();
    let quoted: String = text[at..].trim_end().chars().take(80).collect();
    SqlError::parse(&quoted, line)
}
