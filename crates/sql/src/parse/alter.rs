//! ALTER TABLE as MariaDB writes it. sqlparser reads column and index
//! specifications but not MariaDB's table options (`ENGINE=`, `COMMENT=`,
//! several options without commas between them), `FORCE`, `ORDER BY`,
//! `RENAME AS` or `ALTER c SET DEFAULT` without COLUMN: those are converted
//! here, and the other specifications go to sqlparser as one ALTER TABLE.
//! Also RENAME TABLE's conversion and ALTER DATABASE.

use super::dialect::MariaDbDialect;
use super::{ddl, near_text, object_name, parse_error, Cursor};
use crate::ast::*;
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::ast as sp;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};

/// A significant token with its byte range in the statement.
pub(super) struct Piece {
    pub(super) token: Token,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Piece {
    /// The token as an unquoted keyword, in upper case.
    fn keyword(&self) -> Option<String> {
        match &self.token {
            Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
            _ => None,
        }
    }

    pub(super) fn is_keyword(&self, word: &str) -> bool {
        self.keyword().is_some_and(|k| k == word)
    }

    /// An identifier, a number or a string's value.
    fn value(&self) -> Option<String> {
        match &self.token {
            Token::Word(w) => Some(w.value.clone()),
            Token::Number(n, _) => Some(n.clone()),
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => Some(s.clone()),
            _ => None,
        }
    }
}

pub(super) fn pieces(sql: &str) -> SqlResult<Vec<Piece>> {
    let tokens = Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize_with_location()
        .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), e.location.line as usize))?;
    let mut cursor = Cursor { src: sql, byte: 0, line: 1, column: 1 };
    let mut out = Vec::new();
    for t in tokens {
        if matches!(t.token, Token::Whitespace(_) | Token::EOF) {
            continue;
        }
        let start = cursor.offset(t.span.start.line, t.span.start.column);
        let end = cursor.offset(t.span.end.line, t.span.end.column);
        out.push(Piece { token: t.token, start, end });
    }
    Ok(out)
}

/// MariaDB's 1064 for the text from `piece` on (or the statement's end).
fn syntax_error(sql: &str, piece: Option<&Piece>) -> SqlError {
    let rest = piece.map_or("", |p| &sql[p.start..]);
    SqlError::parse(&rest.chars().take(80).collect::<String>(), 1)
}

/// Whether the statement is an `ALTER [ONLINE] [IGNORE] TABLE`.
pub(crate) fn is_alter_table(upper_words: &[String]) -> bool {
    upper_words.first().is_some_and(|w| w == "ALTER")
        && upper_words.iter().skip(1).take(3).any(|w| w == "TABLE")
        && !upper_words.iter().skip(1).take_while(|w| *w != "TABLE").any(|w| w != "ONLINE" && w != "IGNORE")
}

/// Converts an ALTER TABLE statement (see the module comment).
pub(crate) fn parse_alter_table(sql: &str) -> SqlResult<Statement> {
    let tokens = pieces(sql)?;
    let table_at = tokens.iter().position(|p| p.is_keyword("TABLE")).ok_or_else(|| syntax_error(sql, None))?;
    let (table, name_end) = table_name(sql, &tokens, table_at + 1)?;
    let mut ops = Vec::new();
    let mut for_sqlparser: Vec<String> = Vec::new();
    let mut rest = &tokens[name_end..];
    while !rest.is_empty() {
        if rest[0].is_keyword("ORDER") && rest.get(1).is_some_and(|p| p.is_keyword("BY")) {
            // The order list runs to the end of the statement.
            if rest.len() < 3 {
                return Err(syntax_error(sql, None));
            }
            ops.push(AlterOp::OrderBy);
            break;
        }
        let comma = top_level_comma(rest).unwrap_or(rest.len());
        let spec = &rest[..comma];
        if spec.is_empty() {
            return Err(syntax_error(sql, rest.first()));
        }
        let text = &sql[spec[0].start..spec[spec.len() - 1].end];
        match spec_kind(spec) {
            SpecKind::Options => {
                let left = table_options(sql, spec, &mut ops)?;
                if let Some(first) = left.first() {
                    for_sqlparser.push(sql[first.start..spec[spec.len() - 1].end].to_string());
                }
            }
            SpecKind::Rename(at) => {
                let (name, end) = table_name(sql, spec, at)?;
                if end != spec.len() {
                    return Err(syntax_error(sql, spec.get(end)));
                }
                ops.push(AlterOp::RenameTable(name));
            }
            // `ALTER c SET DEFAULT`: sqlparser wants `ALTER COLUMN c ...`.
            SpecKind::AlterWithoutColumn => {
                for_sqlparser.push(format!("ALTER COLUMN {}", &sql[spec[1].start..spec[spec.len() - 1].end]))
            }
            // `DROP KEY k`: sqlparser reads `DROP INDEX k`.
            SpecKind::DropKey => {
                for_sqlparser.push(format!("DROP INDEX {}", &sql[spec[2].start..spec[spec.len() - 1].end]))
            }
            SpecKind::Keys => ops.push(AlterOp::Keys { enable: spec[0].is_keyword("ENABLE") }),
            SpecKind::AddList(open) => match &spec[open + 1..spec.len() - 1] {
                [] => return Err(syntax_error(sql, spec.last())),
                inner => for_sqlparser.extend(add_list(sql, inner)?),
            },
            SpecKind::Other => for_sqlparser.push(text.to_string()),
        }
        rest = &rest[(comma + 1).min(rest.len())..];
    }
    if !for_sqlparser.is_empty() {
        let header = &sql[..tokens[name_end - 1].end];
        let statement = format!("{header} {}", for_sqlparser.join(", "));
        let parsed = Parser::new(&MariaDbDialect)
            .try_with_sql(&statement)
            .and_then(|mut p| p.parse_statement())
            .map_err(|e| parse_error(&statement, &e))?;
        let sp::Statement::AlterTable(at) = parsed else { return Err(syntax_error(sql, None)) };
        let Statement::AlterTable { ops: mut parsed_ops, .. } = ddl::convert_alter_table(&at)? else {
            return Err(SqlError::internal("ALTER TABLE converted to another statement"));
        };
        // Column and index changes first; the table options after them
        // are independent of order.
        parsed_ops.append(&mut ops);
        ops = parsed_ops;
    }
    Ok(Statement::AlterTable { table, ops })
}

enum SpecKind {
    /// Table options: ENGINE=, COMMENT=, AUTO_INCREMENT=, ALGORITHM=, LOCK=,
    /// FORCE; the rest of the specification from the first option not
    /// handled here goes to sqlparser.
    Options,
    /// `RENAME [TO|AS] name`: the name starts at the index.
    Rename(usize),
    /// `ALTER c ...` without the COLUMN keyword.
    AlterWithoutColumn,
    /// `DROP KEY k`.
    DropKey,
    /// `DISABLE KEYS` / `ENABLE KEYS`.
    Keys,
    /// `ADD [COLUMN] (spec, ...)`: the index of the opening parenthesis,
    /// whose match ends the specification.
    AddList(usize),
    Other,
}

fn spec_kind(spec: &[Piece]) -> SpecKind {
    let first = spec[0].keyword().unwrap_or_default();
    let second = spec.get(1).and_then(Piece::keyword).unwrap_or_default();
    match first.as_str() {
        "ENGINE" | "COMMENT" | "AUTO_INCREMENT" | "ALGORITHM" | "LOCK" | "FORCE" => SpecKind::Options,
        "RENAME" if !matches!(second.as_str(), "COLUMN" | "INDEX" | "KEY") => {
            SpecKind::Rename(if second == "TO" || second == "AS" { 2 } else { 1 })
        }
        "ALTER" if spec.len() > 2 && !matches!(second.as_str(), "COLUMN" | "INDEX") => SpecKind::AlterWithoutColumn,
        "DROP" if second == "KEY" && spec.len() > 2 => SpecKind::DropKey,
        "DISABLE" | "ENABLE" if second == "KEYS" && spec.len() == 2 => SpecKind::Keys,
        "ADD" => {
            let open = if second == "COLUMN" { 2 } else { 1 };
            let parenthesized = matches!(spec.get(open).map(|p| &p.token), Some(Token::LParen))
                && matching_paren(spec, open) == Some(spec.len() - 1);
            if parenthesized {
                SpecKind::AddList(open)
            } else {
                SpecKind::Other
            }
        }
        _ => SpecKind::Other,
    }
}

/// The index of the parenthesis closing the one at `open`.
fn matching_paren(tokens: &[Piece], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    (open..tokens.len()).find(|&i| {
        match tokens[i].token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0
    })
}

/// `ADD (b INT, c INT, INDEX (b))` as the specifications sqlparser reads:
/// `ADD COLUMN b INT, ADD COLUMN c INT, ADD INDEX (b)`.
fn add_list(sql: &str, inner: &[Piece]) -> SqlResult<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        let comma = top_level_comma(rest).unwrap_or(rest.len());
        let element = &rest[..comma];
        let Some((first, last)) = element.first().zip(element.last()) else {
            return Err(syntax_error(sql, rest.first()));
        };
        let is_index = ["INDEX", "KEY", "UNIQUE", "PRIMARY", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK"]
            .iter()
            .any(|k| first.is_keyword(k));
        let kind = if is_index { "" } else { "COLUMN " };
        out.push(format!("ADD {kind}{}", &sql[first.start..last.end]));
        rest = &rest[(comma + 1).min(rest.len())..];
    }
    Ok(out)
}

fn top_level_comma(tokens: &[Piece]) -> Option<usize> {
    let mut depth = 0usize;
    tokens.iter().position(|p| {
        match p.token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0 && matches!(p.token, Token::Comma)
    })
}

/// `[db.]name` starting at `at`; returns it and the index after it.
fn table_name(sql: &str, tokens: &[Piece], at: usize) -> SqlResult<(ObjectName, usize)> {
    let word = |i: usize| match tokens.get(i).map(|p| &p.token) {
        Some(Token::Word(w)) => Some(w.value.clone()),
        _ => None,
    };
    let first = word(at).ok_or_else(|| syntax_error(sql, tokens.get(at)))?;
    if matches!(tokens.get(at + 1).map(|p| &p.token), Some(Token::Period)) {
        let name = word(at + 2).ok_or_else(|| syntax_error(sql, tokens.get(at + 2)))?;
        return Ok((ObjectName { db: Some(first), name }, at + 3));
    }
    Ok((ObjectName { db: None, name: first }, at + 1))
}

/// Reads `KEY [=] value` table options into `ops`; returns the tokens from
/// the first option it does not handle (character set and collation
/// options, read by sqlparser's ALTER TABLE).
fn table_options<'a>(sql: &str, spec: &'a [Piece], ops: &mut Vec<AlterOp>) -> SqlResult<&'a [Piece]> {
    let mut i = 0;
    while i < spec.len() {
        let key = spec[i].keyword().unwrap_or_default();
        if key == "FORCE" {
            ops.push(AlterOp::Force);
            i += 1;
            continue;
        }
        if !matches!(key.as_str(), "ENGINE" | "COMMENT" | "AUTO_INCREMENT" | "ALGORITHM" | "LOCK") {
            return Ok(&spec[i..]);
        }
        i += 1;
        if matches!(spec.get(i).map(|p| &p.token), Some(Token::Eq)) {
            i += 1;
        }
        let value = spec.get(i).and_then(Piece::value).ok_or_else(|| syntax_error(sql, spec.get(i)))?;
        i += 1;
        match key.as_str() {
            "ENGINE" => ops.push(AlterOp::Engine(onelog_core::schema::engine_name(&value)?)),
            "COMMENT" => ops.push(AlterOp::Comment(value)),
            "AUTO_INCREMENT" => {
                ops.push(AlterOp::AutoIncrement(value.parse().map_err(|_| syntax_error(sql, spec.get(i - 1)))?))
            }
            "ALGORITHM" => check_word(&value, &["DEFAULT", "INPLACE", "COPY", "NOCOPY", "INSTANT"], || {
                SqlError::new(ErrorCode::UNKNOWN_ALTER_ALGORITHM, format!("Unknown ALGORITHM '{value}'"))
            })?,
            _ => check_word(&value, &["DEFAULT", "NONE", "SHARED", "EXCLUSIVE"], || {
                SqlError::new(ErrorCode::UNKNOWN_ALTER_LOCK, format!("Unknown LOCK type '{value}'"))
            })?,
        }
    }
    Ok(&[])
}

/// ALGORITHM= and LOCK= are checked and have no effect: OneLog's ALTER
/// TABLE always holds the table's exclusive metadata lock and rewrites only
/// what changed (docs/sql.md says so).
fn check_word(value: &str, allowed: &[&str], error: impl FnOnce() -> SqlError) -> SqlResult<()> {
    match allowed.iter().any(|a| a.eq_ignore_ascii_case(value)) {
        true => Ok(()),
        false => Err(error()),
    }
}

/// `RENAME TABLE a TO b [, c TO d ...]`.
pub(crate) fn convert_rename(renames: &[sp::RenameTable]) -> SqlResult<Statement> {
    let pairs = renames
        .iter()
        .map(|r| Ok((object_name(&r.old_name)?, object_name(&r.new_name)?)))
        .collect::<SqlResult<Vec<_>>>()?;
    Ok(Statement::RenameTables(pairs))
}

/// `ALTER DATABASE name UPGRADE DATA DIRECTORY NAME` renames a database
/// directory of MySQL 5.0 (`#mysql50#name`). OneLog never has one, so the
/// answers are MariaDB's for a name that is not such a directory.
fn upgrade_data_directory_name(name: &str) -> SqlError {
    match name.strip_prefix("#mysql50#") {
        None => SqlError::new(
            ErrorCode::WRONG_USAGE,
            "Incorrect usage of ALTER DATABASE UPGRADE DATA DIRECTORY NAME and name",
        ),
        Some("") => SqlError::new(ErrorCode::WRONG_DB_NAME, format!("Incorrect database name '{name}'")),
        Some(_) => SqlError::new(ErrorCode::BAD_DB, format!("Unknown database '{name}'")),
    }
}

/// `ALTER {DATABASE|SCHEMA} [name] options` (see [`database_options`]).
pub(crate) fn parse_alter_database(sql: &str) -> SqlResult<Statement> {
    let tokens = pieces(sql)?;
    let mut i = 2;
    let is_option =
        |p: &Piece| matches!(p.keyword().as_deref(), Some("DEFAULT" | "CHARACTER" | "CHARSET" | "COLLATE" | "COMMENT"));
    let name = match tokens.get(i) {
        Some(p) if !is_option(p) => {
            i += 1;
            Some(p.value().ok_or_else(|| syntax_error(sql, Some(p)))?)
        }
        _ => None,
    };
    if i >= tokens.len() {
        return Err(syntax_error(sql, None));
    }
    let words: Vec<String> = tokens[i..].iter().filter_map(Piece::keyword).collect();
    if let (Some(name), true) = (&name, words == ["UPGRADE", "DATA", "DIRECTORY", "NAME"]) {
        return Err(upgrade_data_directory_name(name));
    }
    let options = database_options(sql, &tokens[i..])?;
    Ok(Statement::AlterDatabase { name, options })
}

/// `CREATE {DATABASE|SCHEMA} [IF NOT EXISTS] name [options]` (sqlparser
/// reads neither CREATE SCHEMA's options nor a COMMENT).
pub(crate) fn parse_create_database(sql: &str) -> SqlResult<Statement> {
    let tokens = pieces(sql)?;
    let mut i = 2;
    let if_not_exists =
        ["IF", "NOT", "EXISTS"].iter().enumerate().all(|(k, w)| tokens.get(i + k).is_some_and(|p| p.is_keyword(w)));
    if if_not_exists {
        i += 3;
    }
    let name = tokens.get(i).and_then(Piece::value).ok_or_else(|| syntax_error(sql, tokens.get(i)))?;
    let options = database_options(sql, &tokens[i + 1..])?;
    Ok(Statement::CreateDatabase { name, if_not_exists, options })
}

/// A database's options: `[DEFAULT] {CHARACTER SET|CHARSET} [=] cs`,
/// `[DEFAULT] COLLATE [=] c` (1115 / 1273 for unknown names, 1253 for a
/// collation of another charset) and `COMMENT [=] 'text'`, in any order.
fn database_options(sql: &str, tokens: &[Piece]) -> SqlResult<DatabaseOptions> {
    let (mut charset, mut collation, mut comment) = (None, None, None);
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].is_keyword("DEFAULT") {
            i += 1;
        }
        let key = tokens.get(i).and_then(Piece::keyword).ok_or_else(|| syntax_error(sql, tokens.get(i)))?;
        i += if key == "CHARACTER" && tokens.get(i + 1).is_some_and(|p| p.is_keyword("SET")) { 2 } else { 1 };
        if matches!(tokens.get(i).map(|p| &p.token), Some(Token::Eq)) {
            i += 1;
        }
        let value = tokens.get(i).and_then(Piece::value).ok_or_else(|| syntax_error(sql, tokens.get(i)))?;
        match key.as_str() {
            "CHARACTER" | "CHARSET" => charset = Some(ddl::charset_collation(&value)?),
            "COLLATE" => collation = Some(ddl::collation_named(&value)?),
            "COMMENT" => comment = Some(value),
            _ => return Err(syntax_error(sql, tokens.get(i - 1))),
        }
        i += 1;
    }
    Ok(DatabaseOptions { collation: ddl::declared_collation(charset, collation)?, comment })
}
