//! `CREATE [OR REPLACE] | ALTER [ALGORITHM = ..] [DEFINER = ..] [SQL
//! SECURITY ..] VIEW ...`: read here from tokens rather than by sqlparser,
//! which does not know MariaDB's `user@host` definers, ALTER's options or
//! `WITH CHECK OPTION`, and the query's text as written is kept for the
//! binlog (MariaDB logs it so).

use super::{near_text, parse_single, Cursor};
use crate::ast::{CheckOption, CreateView, ObjectName, Statement};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::dialect::MySqlDialect;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

/// Significant tokens with their byte ranges in the text (semicolons
/// included: a routine's body has them).
pub(super) struct Tokens<'a> {
    pub(super) text: &'a str,
    pub(super) tokens: Vec<(Token, usize, usize)>,
    pub(super) at: usize,
}

impl Tokens<'_> {
    pub(super) fn keyword(&self, i: usize) -> Option<String> {
        match self.tokens.get(i) {
            Some((Token::Word(w), _, _)) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
            _ => None,
        }
    }

    pub(super) fn eat(&mut self, word: &str) -> bool {
        let found = self.keyword(self.at).as_deref() == Some(word);
        self.at += usize::from(found);
        found
    }

    pub(super) fn error(&self) -> SqlError {
        self.error_at(self.at)
    }

    /// MariaDB's 1064 near the token at `at`.
    pub(super) fn error_at(&self, at: usize) -> SqlError {
        let from = self.tokens.get(at).map_or(self.text.len(), |t| t.1);
        SqlError::parse(&near_text(&self.text[from..], 1, 1), 1)
    }

    pub(super) fn expect(&mut self, word: &str) -> SqlResult<()> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    /// `= word`, the word upper-cased, one of `allowed`.
    fn option_value(&mut self, allowed: &[&str]) -> SqlResult<String> {
        if !matches!(self.tokens.get(self.at), Some((Token::Eq, _, _))) {
            return Err(self.error());
        }
        self.at += 1;
        match self.keyword(self.at) {
            Some(w) if allowed.contains(&w.as_str()) => {
                self.at += 1;
                Ok(w)
            }
            _ => Err(self.error()),
        }
    }

    /// An identifier (quoted or not).
    pub(super) fn ident(&mut self) -> SqlResult<String> {
        match self.tokens.get(self.at) {
            Some((Token::Word(w), _, _)) => {
                self.at += 1;
                Ok(w.value.clone())
            }
            _ => Err(self.error()),
        }
    }

    pub(super) fn next_is(&self, token: &Token) -> bool {
        self.tokens.get(self.at).is_some_and(|t| t.0 == *token)
    }
}

pub(super) fn significant_tokens(text: &str) -> SqlResult<Vec<(Token, usize, usize)>> {
    let with_spans: Vec<TokenWithSpan> = Tokenizer::new(&MySqlDialect {}, text)
        .tokenize_with_location()
        .map_err(|e| SqlError::parse(&near_text(text, e.location.line, e.location.column), 1))?;
    let mut cursor = Cursor { src: text, byte: 0, line: 1, column: 1 };
    let mut out = Vec::new();
    for t in with_spans {
        let start = cursor.offset(t.span.start.line, t.span.start.column);
        let end = cursor.offset(t.span.end.line, t.span.end.column);
        if !matches!(t.token, Token::Whitespace(_) | Token::EOF) {
            out.push((t.token, start, end));
        }
    }
    Ok(out)
}

/// The view statement `text` is, or `None` when it is no CREATE/ALTER VIEW.
pub(crate) fn parse_view_ddl(text: &str) -> SqlResult<Option<Statement>> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 0 };
    let alter = match t.keyword(0).as_deref() {
        Some("CREATE") => false,
        Some("ALTER") => true,
        _ => return Ok(None),
    };
    // Only the view options may stand between CREATE/ALTER and VIEW.
    let view_at = (1..t.tokens.len()).find(|&i| {
        matches!(t.keyword(i).as_deref(), Some("VIEW" | "TABLE" | "INDEX" | "DATABASE" | "SCHEMA" | "UNIQUE" | "USER"))
    });
    if view_at.is_none_or(|i| t.keyword(i).as_deref() != Some("VIEW")) {
        return Ok(None);
    }
    t.at = 1;
    let or_replace = !alter && t.eat("OR");
    if or_replace {
        t.expect("REPLACE")?;
    }
    let mut view = CreateView {
        name: ObjectName { db: None, name: String::new() },
        or_replace,
        alter,
        if_not_exists: false,
        algorithm: "UNDEFINED".into(),
        definer: None,
        security: "DEFINER".into(),
        columns: Vec::new(),
        query: Box::default(),
        query_text: String::new(),
        check_option: CheckOption::None,
        client_charset: None,
    };
    // The options come in this order or not at all, as MariaDB's grammar has them.
    if t.eat("ALGORITHM") {
        view.algorithm = t.option_value(&["UNDEFINED", "MERGE", "TEMPTABLE"])?;
    }
    if t.eat("DEFINER") {
        view.definer = definer(&mut t)?;
    }
    if t.eat("SQL") {
        t.expect("SECURITY")?;
        view.security = match t.keyword(t.at).as_deref() {
            Some(w @ ("DEFINER" | "INVOKER")) => w.to_string(),
            _ => return Err(t.error()),
        };
        t.at += 1;
    }
    t.expect("VIEW")?;
    if t.eat("IF") {
        t.expect("NOT")?;
        t.expect("EXISTS")?;
        if or_replace {
            return Err(SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of OR REPLACE and IF NOT EXISTS"));
        }
        view.if_not_exists = true;
    }
    let first = t.ident()?;
    view.name = if t.next_is(&Token::Period) {
        t.at += 1;
        ObjectName { db: Some(first), name: t.ident()? }
    } else {
        ObjectName { db: None, name: first }
    };
    if t.next_is(&Token::LParen) {
        t.at += 1;
        loop {
            view.columns.push(t.ident()?);
            if t.next_is(&Token::Comma) {
                t.at += 1;
            } else {
                break;
            }
        }
        if !t.next_is(&Token::RParen) {
            return Err(t.error());
        }
        t.at += 1;
    }
    t.expect("AS")?;
    let start = t.tokens.get(t.at).map(|tok| tok.1).ok_or_else(|| t.error())?;
    let (end, check_option) = check_option_clause(&t);
    view.check_option = check_option;
    // A view's query stores nothing: INTO there is a syntax error.
    if let Some(into) = (t.at..t.tokens.len()).find(|&i| t.keyword(i).as_deref() == Some("INTO")) {
        return Err(t.error_at(into));
    }
    view.query_text = text[start..end].trim().to_string();
    view.query = match parse_single(&view.query_text)?.statement {
        Statement::Select(select) => select,
        _ => return Err(t.error()),
    };
    Ok(Some(Statement::CreateView(view)))
}

/// `WITH [CASCADED | LOCAL] CHECK OPTION` at the end: where the query ends
/// and which option it asks for.
fn check_option_clause(t: &Tokens) -> (usize, CheckOption) {
    let n = t.tokens.len();
    let word = |back: usize| n.checked_sub(back).and_then(|i| t.keyword(i));
    if n < 3 || word(1).as_deref() != Some("OPTION") || word(2).as_deref() != Some("CHECK") {
        return (t.text.len(), CheckOption::None);
    }
    let (with_at, option) = match word(3).as_deref() {
        Some("LOCAL") => (n - 4, CheckOption::Local),
        Some("CASCADED") => (n - 4, CheckOption::Cascaded),
        _ => (n - 3, CheckOption::Cascaded),
    };
    match t.keyword(with_at).as_deref() {
        Some("WITH") => (t.tokens[with_at].1, option),
        _ => (t.text.len(), CheckOption::None),
    }
}

/// `DEFINER = user[@host] | CURRENT_USER[()]`: `None` for the current user.
pub(super) fn definer(t: &mut Tokens) -> SqlResult<Option<(String, String)>> {
    if !t.next_is(&Token::Eq) {
        return Err(t.error());
    }
    t.at += 1;
    if t.eat("CURRENT_USER") {
        if t.next_is(&Token::LParen) {
            t.at += 2;
        }
        return Ok(None);
    }
    // The tokenizer splits `user@host` variously (`@host` may come as one
    // word): read the account from the text, up to the first blank outside
    // quotes.
    let start = t.tokens.get(t.at).map(|tok| tok.1).ok_or_else(|| t.error())?;
    let end = start + account_length(&t.text[start..]);
    let (user, host) = split_account(&t.text[start..end]);
    t.at = t.tokens.iter().position(|tok| tok.1 >= end).unwrap_or(t.tokens.len());
    Ok(Some((user, host.unwrap_or_else(|| "%".into()))))
}

/// Bytes of `text` the account at its start takes.
fn account_length(text: &str) -> usize {
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"' | '`') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => return i,
            _ => {}
        }
    }
    text.len()
}

/// `'u'@'h'`, `` `u`@`h` ``, `u@h` or `u`: the user and the host.
fn split_account(account: &str) -> (String, Option<String>) {
    let unquote = |s: &str| -> String {
        let s = s.trim();
        match s.chars().next() {
            Some(q @ ('\'' | '"' | '`')) if s.len() >= 2 && s.ends_with(q) => {
                s[1..s.len() - 1].replace(&format!("{q}{q}"), &q.to_string())
            }
            _ => s.to_string(),
        }
    };
    // The `@` that separates is outside quotes.
    let mut quote: Option<char> = None;
    for (i, c) in account.char_indices() {
        match (quote, c) {
            (None, '\'' | '"' | '`') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '@') => return (unquote(&account[..i]), Some(unquote(&account[i + 1..]))),
            _ => {}
        }
    }
    (unquote(account), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(sql: &str) -> CreateView {
        match parse_view_ddl(sql) {
            Ok(Some(Statement::CreateView(v))) => v,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn reads_options_definers_columns_and_check_option() {
        let v = view("CREATE OR REPLACE ALGORITHM=MERGE DEFINER=`ro``ot`@'local host' SQL SECURITY INVOKER VIEW d.v (a, `b c`) AS select 1, 2 WITH LOCAL CHECK OPTION");
        assert!(v.or_replace && !v.alter);
        assert_eq!((v.algorithm.as_str(), v.security.as_str()), ("MERGE", "INVOKER"));
        assert_eq!(v.definer, Some(("ro`ot".to_string(), "local host".to_string())));
        assert_eq!(v.name, ObjectName { db: Some("d".into()), name: "v".into() });
        assert_eq!(v.columns, ["a", "b c"]);
        assert_eq!((v.query_text.as_str(), v.check_option), ("select 1, 2", CheckOption::Local));
        let v = view("alter definer = root@localhost view v as select 1 with check option");
        assert!(v.alter);
        assert_eq!(v.definer, Some(("root".to_string(), "localhost".to_string())));
        assert_eq!(v.check_option, CheckOption::Cascaded);
        assert_eq!(view("create definer=current_user() view v as select 1").definer, None);
        assert_eq!(view("create definer=u view v as select 1").definer, Some(("u".into(), "%".into())));
    }

    #[test]
    fn other_statements_and_bad_views() {
        assert!(matches!(parse_view_ddl("create table view_t (a int)"), Ok(None)));
        assert!(matches!(parse_view_ddl("alter table t add view int"), Ok(None)));
        for bad in [
            "create definer=root@localhost algorithm=merge view v as select 1",
            "create or replace view if not exists v as select 1",
            "create view v as",
            "create view v (a as select 1",
            "create view v as insert into t values (1)",
        ] {
            assert!(parse_view_ddl(bad).is_err(), "{bad}");
        }
    }
}
