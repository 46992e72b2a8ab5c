//! `LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file' [REPLACE |
//! IGNORE] INTO TABLE t [PARTITION (...)] [CHARACTER SET cs] [{FIELDS |
//! COLUMNS} ...] [LINES ...] [IGNORE n {LINES | ROWS}] [(col_or_@var, ...)]
//! [SET col = expr, ...]`, which sqlparser does not read. The clauses are
//! read from the tokens here; the SET list goes through sqlparser as an
//! UPDATE's, so its expressions convert as every other statement's do.

use super::dialect::MariaDbDialect;
use super::{expr, literal_bytes, near_text, parse_error, Cursor, ParamCounter};
use crate::ast::{CreateSelectDuplicates, LoadData, LoadFormat, LoadTarget, ObjectName, Statement};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::ast as sp;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

/// Whether `upper` (the statement's words, upper-cased) starts LOAD DATA.
pub(super) fn is_load_data(upper: &[String]) -> bool {
    upper.len() > 1 && upper[0] == "LOAD" && upper[1] == "DATA"
}

/// Parses a LOAD DATA statement; `sql` is its text as sqlparser would read it.
pub(super) fn parse_load_data(sql: &str) -> SqlResult<Statement> {
    let significant = significant_spans(sql)?;
    let mut p = Words { sql, tokens: &significant, at: 0 };
    p.expect(&["LOAD", "DATA"])?;
    p.accept_any(&["LOW_PRIORITY", "CONCURRENT"]);
    let local = p.accept("LOCAL");
    p.expect(&["INFILE"])?;
    let file = p.string()?;
    let duplicates = if p.accept("REPLACE") {
        CreateSelectDuplicates::Replace
    } else if p.accept("IGNORE") {
        CreateSelectDuplicates::Ignore
    } else {
        CreateSelectDuplicates::Error
    };
    p.expect(&["INTO", "TABLE"])?;
    let table = p.table_name()?;
    if p.accept("PARTITION") {
        // OneLog has no partitioned tables: MariaDB's answer for any table
        // that is not partitioned.
        return Err(SqlError::new(
            ErrorCode::PARTITION_CLAUSE_ON_NONPARTITIONED,
            "PARTITION () clause on non partitioned table",
        ));
    }
    let (charset, format) = file_format(&mut p)?;
    let ignore_lines = if p.accept("IGNORE") {
        let n = p.number()?;
        if !p.accept_any(&["LINES", "ROWS"]) {
            return Err(p.error());
        }
        n
    } else {
        0
    };
    let targets = if p.peek_is(&Token::LParen) { p.targets()? } else { Vec::new() };
    let assignments = match p.peek_word().as_deref() {
        Some("SET") => set_list(sql, p.offset_of_current())?,
        Some(_) => return Err(p.error()),
        None if p.at < p.tokens.len() => return Err(p.error()),
        None => Vec::new(),
    };
    Ok(Statement::LoadData(Box::new(LoadData {
        local,
        file,
        duplicates,
        table,
        charset,
        format,
        ignore_lines,
        targets,
        assignments,
    })))
}

/// `sql`'s tokens but whitespace, with where each is.
pub(super) fn significant_spans(sql: &str) -> SqlResult<Vec<TokenWithSpan>> {
    let tokens = Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize_with_location()
        .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), e.location.line as usize))?;
    Ok(tokens.into_iter().filter(|t| !matches!(t.token, Token::Whitespace(_) | Token::EOF)).collect())
}

/// How a file's text is cut, as LOAD DATA and `SELECT ... INTO OUTFILE`
/// both give it: `[CHARACTER SET cs] [FIELDS ...] [LINES ...]`.
pub(super) fn file_format(p: &mut Words) -> SqlResult<(Option<String>, LoadFormat)> {
    let charset = p.charset()?;
    let mut format = LoadFormat::default();
    if p.accept_any(&["FIELDS", "COLUMNS"]) {
        p.field_options(&mut format)?;
    }
    if p.accept("LINES") {
        p.line_options(&mut format)?;
    }
    Ok((charset, format))
}

/// `SET a = 1, b = @x`: read as the assignments of an UPDATE.
fn set_list(sql: &str, set_at: usize) -> SqlResult<Vec<(String, crate::ast::Expr)>> {
    let update = format!("UPDATE t {}", &sql[set_at..]);
    let parsed = Parser::new(&MariaDbDialect)
        .try_with_sql(&update)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| parse_error(&update, &e))?;
    let mut counter = ParamCounter::with_source(sql);
    match parsed.as_slice() {
        [sp::Statement::Update(upd)] if upd.selection.is_none() && upd.order_by.is_empty() && upd.limit.is_none() => {
            Ok(expr::convert_update(upd, &mut counter)?.assignments)
        }
        _ => Err(SqlError::parse(&sql[set_at..], 1)),
    }
}

/// A cursor over the statement's significant tokens.
pub(super) struct Words<'a> {
    pub(super) sql: &'a str,
    pub(super) tokens: &'a [TokenWithSpan],
    pub(super) at: usize,
}

impl Words<'_> {
    pub(super) fn peek_word(&self) -> Option<String> {
        match self.tokens.get(self.at).map(|t| &t.token) {
            Some(Token::Word(w)) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
            _ => None,
        }
    }

    pub(super) fn peek_is(&self, token: &Token) -> bool {
        self.tokens.get(self.at).is_some_and(|t| &t.token == token)
    }

    pub(super) fn accept(&mut self, word: &str) -> bool {
        let found = self.peek_word().is_some_and(|w| w == word);
        if found {
            self.at += 1;
        }
        found
    }

    fn accept_any(&mut self, words: &[&str]) -> bool {
        words.iter().any(|w| self.accept(w))
    }

    pub(super) fn expect(&mut self, words: &[&str]) -> SqlResult<()> {
        for w in words {
            if !self.accept(w) {
                return Err(self.error());
            }
        }
        Ok(())
    }

    /// Byte offset of the current token in the statement text.
    pub(super) fn offset_of_current(&self) -> usize {
        let Some(t) = self.tokens.get(self.at) else { return self.sql.len() };
        Cursor { src: self.sql, byte: 0, line: 1, column: 1 }.offset(t.span.start.line, t.span.start.column)
    }

    /// MariaDB's 1064, quoting the text from the current token on.
    pub(super) fn error(&self) -> SqlError {
        let from = self.offset_of_current();
        let line = self.tokens.get(self.at).map_or(1, |t| t.span.start.line as usize);
        SqlError::parse(&self.sql[from..].chars().take(80).collect::<String>(), line)
    }

    pub(super) fn string(&mut self) -> SqlResult<Vec<u8>> {
        match self.tokens.get(self.at).map(|t| &t.token) {
            Some(Token::SingleQuotedString(s) | Token::DoubleQuotedString(s)) => {
                self.at += 1;
                Ok(literal_bytes(s))
            }
            _ => Err(self.error()),
        }
    }

    fn number(&mut self) -> SqlResult<u64> {
        match self.tokens.get(self.at).map(|t| &t.token) {
            Some(Token::Number(n, _)) => {
                let n = n.parse().map_err(|_| self.error())?;
                self.at += 1;
                Ok(n)
            }
            _ => Err(self.error()),
        }
    }

    /// An identifier, quoted or not (reserved words are not checked: the
    /// table must exist anyway).
    fn identifier(&mut self) -> SqlResult<String> {
        match self.tokens.get(self.at).map(|t| &t.token) {
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(w.value.clone())
            }
            _ => Err(self.error()),
        }
    }

    fn table_name(&mut self) -> SqlResult<ObjectName> {
        let first = self.identifier()?;
        if self.peek_is(&Token::Period) {
            self.at += 1;
            let name = self.identifier()?;
            return Ok(ObjectName { db: Some(first), name });
        }
        Ok(ObjectName { db: None, name: first })
    }

    /// `CHARACTER SET name` / `CHARSET name`, the name as written.
    fn charset(&mut self) -> SqlResult<Option<String>> {
        let given = if self.accept("CHARACTER") {
            self.expect(&["SET"])?;
            true
        } else {
            self.accept("CHARSET")
        };
        if !given {
            return Ok(None);
        }
        match self.tokens.get(self.at).map(|t| &t.token) {
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(Some(w.value.clone()))
            }
            Some(Token::SingleQuotedString(s)) => {
                self.at += 1;
                Ok(Some(s.clone()))
            }
            _ => Err(self.error()),
        }
    }

    /// `[TERMINATED BY s] [[OPTIONALLY] ENCLOSED BY c] [ESCAPED BY c]`,
    /// in any order, at least one.
    fn field_options(&mut self, format: &mut LoadFormat) -> SqlResult<()> {
        let mut any = false;
        loop {
            if self.accept("TERMINATED") {
                self.expect(&["BY"])?;
                format.field_terminator = self.string()?;
            } else if self.peek_word().is_some_and(|w| w == "OPTIONALLY" || w == "ENCLOSED") {
                // OPTIONALLY matters only when writing a file (SELECT ...
                // INTO OUTFILE); reading accepts either form.
                format.enclosed_optionally = self.accept("OPTIONALLY");
                self.expect(&["ENCLOSED", "BY"])?;
                format.enclosed_by = self.string()?;
            } else if self.accept("ESCAPED") {
                self.expect(&["BY"])?;
                format.escaped_by = self.string()?;
                format.escaped_given = true;
            } else if any {
                return Ok(());
            } else {
                return Err(self.error());
            }
            any = true;
        }
    }

    /// `[STARTING BY s] [TERMINATED BY s]`, in any order, at least one.
    fn line_options(&mut self, format: &mut LoadFormat) -> SqlResult<()> {
        let mut any = false;
        loop {
            if self.accept("STARTING") {
                self.expect(&["BY"])?;
                format.line_starter = self.string()?;
            } else if self.accept("TERMINATED") {
                self.expect(&["BY"])?;
                format.line_terminator = self.string()?;
            } else if any {
                return Ok(());
            } else {
                return Err(self.error());
            }
            any = true;
        }
    }

    /// `(col, @var, ...)`.
    fn targets(&mut self) -> SqlResult<Vec<LoadTarget>> {
        self.at += 1; // (
        let mut targets = Vec::new();
        loop {
            let target = match self.tokens.get(self.at).map(|t| &t.token) {
                Some(Token::Word(w)) if w.quote_style.is_none() && w.value.starts_with('@') => {
                    self.at += 1;
                    LoadTarget::Var(w.value[1..].to_ascii_lowercase())
                }
                Some(Token::AtSign) => {
                    self.at += 1;
                    LoadTarget::Var(self.identifier()?.to_ascii_lowercase())
                }
                _ => {
                    let name = self.identifier()?;
                    // A qualified `t.col` names the column.
                    if self.peek_is(&Token::Period) {
                        self.at += 1;
                        LoadTarget::Column(self.identifier()?)
                    } else {
                        LoadTarget::Column(name)
                    }
                }
            };
            targets.push(target);
            if self.peek_is(&Token::Comma) {
                self.at += 1;
                continue;
            }
            if self.peek_is(&Token::RParen) {
                self.at += 1;
                return Ok(targets);
            }
            return Err(self.error());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Expr;

    fn load(sql: &str) -> LoadData {
        match parse_load_data(sql) {
            Ok(Statement::LoadData(l)) => *l,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn defaults_and_every_clause() {
        let l = load("LOAD DATA INFILE '/tmp/a.tsv' INTO TABLE t");
        assert!(!l.local);
        assert_eq!(l.file, b"/tmp/a.tsv");
        assert_eq!(l.format, LoadFormat::default());
        assert_eq!(l.duplicates, CreateSelectDuplicates::Error);
        let l = load(
            "LOAD DATA LOW_PRIORITY LOCAL INFILE 'x.csv' REPLACE INTO TABLE d.t CHARACTER SET latin1 \
             FIELDS ESCAPED BY '' OPTIONALLY ENCLOSED BY '\"' TERMINATED BY ',' \
             LINES TERMINATED BY '\\r\\n' STARTING BY 'xx' IGNORE 2 ROWS (a, @b, `c`) SET d = @b + 1, e = NULL",
        );
        assert!(l.local);
        assert_eq!(l.duplicates, CreateSelectDuplicates::Replace);
        assert_eq!(l.table, ObjectName { db: Some("d".into()), name: "t".into() });
        assert_eq!(l.charset.as_deref(), Some("latin1"));
        assert_eq!(l.format.field_terminator, b",");
        assert_eq!(l.format.enclosed_by, b"\"");
        assert_eq!(l.format.escaped_by, b"");
        assert!(l.format.escaped_given);
        assert_eq!(l.format.line_terminator, b"\r\n");
        assert_eq!(l.format.line_starter, b"xx");
        assert_eq!(l.ignore_lines, 2);
        assert_eq!(
            l.targets,
            vec![LoadTarget::Column("a".into()), LoadTarget::Var("b".into()), LoadTarget::Column("c".into())]
        );
        assert_eq!(l.assignments.len(), 2);
        assert_eq!(l.assignments[1], ("e".to_string(), Expr::Literal(onelog_core::Value::Null)));
    }

    #[test]
    fn mistakes_are_syntax_errors() {
        for sql in [
            "LOAD DATA INFILE x INTO TABLE t",
            "LOAD DATA INFILE 'x' TABLE t",
            "LOAD DATA INFILE 'x' INTO TABLE t FIELDS",
            "LOAD DATA INFILE 'x' INTO TABLE t IGNORE x LINES",
            "LOAD DATA INFILE 'x' INTO TABLE t (a",
            "LOAD DATA INFILE 'x' INTO TABLE t (a) garbage",
        ] {
            let err = parse_load_data(sql).unwrap_err();
            assert_eq!(err.code, ErrorCode::PARSE_ERROR, "{sql}");
        }
        let err = parse_load_data("LOAD DATA INFILE 'x' INTO TABLE t PARTITION (p0)").unwrap_err();
        assert_eq!(err.code.number, 1747);
    }
}
