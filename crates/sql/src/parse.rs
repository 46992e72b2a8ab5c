//! The parser boundary: splits a query string into statements, recognises
//! the MySQL administration statements sqlparser does not cover (SHOW
//! variants, PURGE, RESET MASTER, LOCK IN SHARE MODE), and converts
//! sqlparser's tree into [`crate::ast`]. Nothing outside this module sees a
//! sqlparser type.

use crate::ast::*;
use dialect::MariaDbDialect;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use sqlparser::ast as sp;
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};
use std::borrow::Cow;

pub(crate) mod account;
mod alter;
mod column_words;
mod comments;
mod ddl;
mod dialect;
mod explain;
mod expr;
mod identifiers;
mod literals;
mod load_data;
mod prepared;
pub mod routine;
mod select_into;
mod set_statement;
pub mod trigger;
mod update_delete;
mod view;
mod window;
mod with;

pub(crate) use ddl::inherited_collation;
pub(crate) use expr::convert_expr;

/// One statement of a (possibly multi-statement) query, with its own text.
#[derive(Debug, Clone)]
pub struct ParsedStatement {
    pub statement: Statement,
    pub text: String,
    pub param_count: usize,
}

/// Splits `sql` at top-level semicolons and parses each statement.
pub fn parse(sql: &str) -> SqlResult<Vec<ParsedStatement>> {
    let pieces = split_statements(&comments::resolve(sql))?;
    if pieces.is_empty() {
        return Ok(vec![ParsedStatement { statement: Statement::Empty, text: String::new(), param_count: 0 }]);
    }
    pieces.into_iter().map(|(original, rewritten)| parse_one(&original, &rewritten)).collect()
}

/// Parses exactly one statement (COM_STMT_PREPARE accepts only one).
pub fn parse_single(sql: &str) -> SqlResult<ParsedStatement> {
    let mut all = parse(sql)?;
    if all.len() != 1 {
        return Err(SqlError::parse(sql, 1));
    }
    Ok(all.remove(0))
}

/// First code point of the range that carries raw bytes (plane-16 private
/// use): query text that is not valid UTF-8 (binary string literals such as
/// pymysql's `_binary'\xff'`) is decoded losslessly by mapping each invalid
/// byte `b` to `RAW_BYTE_BASE + b`; string literals map them back.
const RAW_BYTE_BASE: u32 = 0x10_FF00;

/// Decodes query bytes to text without losing non-UTF-8 bytes.
pub fn decode_query_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(e) => {
                let (valid, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..n] {
                    out.push(char::from_u32(RAW_BYTE_BASE + u32::from(*b)).unwrap_or('\u{FFFD}'));
                }
                rest = &bad[n..];
            }
        }
    }
}

/// The bytes of a string literal, raw bytes restored.
pub fn literal_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let c = ch as u32;
        if (RAW_BYTE_BASE..RAW_BYTE_BASE + 256).contains(&c) {
            out.push((c - RAW_BYTE_BASE) as u8);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

/// A character-set introducer (`_binary'..'`, `_latin2 0xB1`): sqlparser
/// reads it with its literal as `Expr::Prefixed`, which must keep a hex
/// literal's bytes (no `hybrid_form` rewrite after it).
fn is_introducer(token: &Token) -> bool {
    matches!(token, Token::Word(w) if w.quote_style.is_none()
        && w.value.strip_prefix('_').and_then(onelog_core::Charset::named).is_some())
}

fn tokenize(sql: &str) -> SqlResult<Vec<Token>> {
    Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize()
        .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), e.location.line as usize))
}

/// Walks the source text in step with token locations (line, column in
/// characters), so statements are cut from the original text and string
/// escapes are never re-interpreted.
struct Cursor<'a> {
    src: &'a str,
    byte: usize,
    line: u64,
    column: u64,
}

impl Cursor<'_> {
    /// Byte offset of `loc`; locations must be visited in order.
    fn offset(&mut self, line: u64, column: u64) -> usize {
        while (self.line, self.column) < (line, column) {
            let Some(ch) = self.src[self.byte..].chars().next() else { break };
            self.byte += ch.len_utf8();
            if ch == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.byte
    }
}

/// Splits at top-level semicolons; each statement comes as (original text,
/// text rewritten for sqlparser).
fn split_statements(sql: &str) -> SqlResult<Vec<(String, String)>> {
    let tokens = Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize_with_location()
        .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), e.location.line as usize))?;
    let mut cursor = Cursor { src: sql, byte: 0, line: 1, column: 1 };
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut has_content = false;
    // Byte ranges of the current piece to rewrite: charset introducers in
    // ENUM/SET member lists (blanked), the infix MOD operator (→ `%`) and SET's `:=` (→ `=`),
    // MySQL syntax sqlparser does not accept.
    let mut edits: Vec<(usize, usize, Cow<'static, str>)> = Vec::new();
    let mut is_set = false;
    // The depth of an open ENUM( / SET( member list, whose hex and bit
    // literals become marked strings (see `literals`).
    let mut member_list: Option<usize> = None;
    let mut depth = 0usize;
    // The byte range of an `EXTRACT` just read, and whether a FROM is owed
    // to an `EXTRACT(<compound unit>` call (see `compound_unit`).
    let mut extract_at: Option<(usize, usize)> = None;
    let mut extract_from_owed = false;
    // A routine's body keeps its semicolons.
    let mut blocks = routine::BlockDepth::default();
    // The last significant token: `x MOD (y)` is the operator, `MOD(x, y)`
    // after an operator or `(` the function.
    let mut previous: Option<&Token> = None;
    // Open `{`s: whether each opens an ODBC outer join, whose `}` is
    // dropped too; where the last `{` was.
    let mut braces: Vec<bool> = Vec::new();
    let mut brace_at: Option<(usize, usize)> = None;
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 && !matches!(tokens[i - 1].token, Token::Whitespace(_)) {
            previous = Some(&tokens[i - 1].token);
        }
        let at = cursor.offset(t.span.start.line, t.span.start.column);
        match &t.token {
            Token::SemiColon if blocks.at_top() => {
                blocks = routine::BlockDepth::default();
                if has_content {
                    pieces.push((cut::<&str>(sql, piece_start, at, &[]), cut(sql, piece_start, at, &edits)));
                }
                piece_start = at + 1;
                has_content = false;
                edits.clear();
            }
            Token::Whitespace(_) | Token::EOF => {}
            token => {
                if !has_content {
                    is_set = matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("SET"));
                    depth = 0;
                }
                // `SET STATEMENT ... FOR statement`: what follows FOR is no SET.
                if is_set
                    && depth == 0
                    && matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("FOR"))
                {
                    is_set = false;
                }
                has_content = true;
                match token {
                    Token::LParen => {
                        depth += 1;
                        if literals::opens_member_list(previous) {
                            member_list = Some(depth);
                        }
                    }
                    Token::RParen => {
                        if member_list == Some(depth) {
                            member_list = None;
                        }
                        depth = depth.saturating_sub(1);
                    }
                    _ => {}
                }
                let next = tokens[i + 1..].iter().map(|n| &n.token).find(|n| !matches!(n, Token::Whitespace(_)));
                blocks.feed(token, next);
                let end = cursor.offset(t.span.end.line, t.span.end.column);
                let unit = compound_unit(token);
                if let (Some((_, _, quoted)), Some((e_start, e_end))) = (unit, extract_at) {
                    // EXTRACT(DAY_HOUR FROM x) → extract_units('DAY_HOUR', x).
                    edits.push((e_start, e_end, "extract_units".into()));
                    edits.push((at, end, quoted.into()));
                    extract_from_owed = true;
                    extract_at = None;
                    continue;
                }
                let opens_extract = matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("EXTRACT"))
                    && matches!(next, Some(Token::LParen));
                if opens_extract {
                    extract_at = Some((at, end));
                } else if !matches!(token, Token::LParen) {
                    extract_at = None;
                }
                let written = &sql[at..end];
                let replacement: Option<Cow<'static, str>> = if let Some((_, interval_form, _)) = unit {
                    Some(interval_form.into())
                } else if let Some(member) = member_list.and_then(|_| literals::member_string(token, written)) {
                    Some(member.into())
                } else if let Some(hybrid) =
                    literals::hybrid_form(token, written).filter(|_| !previous.is_some_and(is_introducer))
                {
                    Some(hybrid.into())
                } else if extract_from_owed
                    && matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("FROM"))
                {
                    extract_from_owed = false;
                    Some(",".into())
                } else if is_word(token, "SOUNDS") && next.is_some_and(|n| is_word(n, "LIKE")) {
                    Some("".into())
                } else if is_word(token, "LIKE") && previous.is_some_and(|p| is_word(p, "SOUNDS")) {
                    // `a SOUNDS LIKE b` (see `expr::convert_expr`'s SimilarTo).
                    Some("SIMILAR TO".into())
                } else if is_word(token, "SIMILAR") && next.is_some_and(|n| is_word(n, "TO")) {
                    // MariaDB has no SIMILAR TO: keep it a syntax error
                    // (an unmatched parenthesis to sqlparser).
                    Some(")".into())
                } else if is_word(token, "FROM")
                    && ["LEADING", "TRAILING", "BOTH"].iter().any(|side| previous.is_some_and(|p| is_word(p, side)))
                {
                    // TRIM(LEADING FROM s) trims spaces, as TRIM(LEADING ' ' FROM s).
                    Some("' ' FROM".into())
                } else if member_list.is_some()
                    && is_introducer(token)
                    && matches!(
                        next,
                        Some(Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) | Token::HexStringLiteral(_))
                    )
                {
                    Some("".into())
                } else if matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("MOD"))
                    && (!matches!(next, Some(Token::LParen)) || ends_operand(previous))
                {
                    Some("%".into())
                } else if let Some(fixed) = literals::without_foreign_escapes(token, written) {
                    Some(fixed.into())
                } else if is_set && depth == 0 && matches!(token, Token::Assignment) {
                    // `SET @a := 1` assigns as `SET @a = 1` does; inside
                    // parentheses `:=` is the assignment operator.
                    Some("=".into())
                } else {
                    None
                };
                if let Some(r) = replacement {
                    edits.push((at, end, r));
                }
                // ODBC's outer-join escape, `{ oj t1 LEFT JOIN t2 ON .. }`,
                // is the join itself in MariaDB; the expression escapes
                // (`{d '..'}` ...) are the dialect's (`dialect::odbc_escape`).
                let opens_join = matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("oj"))
                    && matches!(previous, Some(Token::LBrace));
                match token {
                    Token::LBrace => {
                        brace_at = Some((at, end));
                        braces.push(false);
                    }
                    _ if opens_join => {
                        if let (Some((brace_start, brace_end)), Some(top)) = (brace_at, braces.last_mut()) {
                            edits.push((brace_start, brace_end, "".into()));
                            edits.push((at, end, "".into()));
                            *top = true;
                        }
                    }
                    Token::RBrace if braces.pop() == Some(true) => edits.push((at, end, "".into())),
                    _ => {}
                }
            }
        }
    }
    if has_content {
        pieces.push((cut::<&str>(sql, piece_start, sql.len(), &[]), cut(sql, piece_start, sql.len(), &edits)));
    }
    Ok(pieces)
}

/// Whether `token` is the unquoted word `word` (any case).
fn is_word(token: &Token, word: &str) -> bool {
    matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

/// MariaDB's compound INTERVAL / EXTRACT units (reserved words, so an
/// unquoted one is always a unit), which sqlparser does not know: (name, the
/// `A TO B` interval form sqlparser reads — SECOND_MICROSECOND is written
/// `MICROSECOND TO SECOND` because sqlparser takes no TO after SECOND — and
/// the quoted name for `extract_units`).
const COMPOUND_UNITS: [(&str, &str, &str); 11] = [
    ("YEAR_MONTH", "YEAR TO MONTH", "'YEAR_MONTH'"),
    ("DAY_HOUR", "DAY TO HOUR", "'DAY_HOUR'"),
    ("DAY_MINUTE", "DAY TO MINUTE", "'DAY_MINUTE'"),
    ("DAY_SECOND", "DAY TO SECOND", "'DAY_SECOND'"),
    ("DAY_MICROSECOND", "DAY TO MICROSECOND", "'DAY_MICROSECOND'"),
    ("HOUR_MINUTE", "HOUR TO MINUTE", "'HOUR_MINUTE'"),
    ("HOUR_SECOND", "HOUR TO SECOND", "'HOUR_SECOND'"),
    ("HOUR_MICROSECOND", "HOUR TO MICROSECOND", "'HOUR_MICROSECOND'"),
    ("MINUTE_SECOND", "MINUTE TO SECOND", "'MINUTE_SECOND'"),
    ("MINUTE_MICROSECOND", "MINUTE TO MICROSECOND", "'MINUTE_MICROSECOND'"),
    ("SECOND_MICROSECOND", "MICROSECOND TO SECOND", "'SECOND_MICROSECOND'"),
];

/// Whether `token` can end an operand, so that a following `MOD` is the
/// infix operator: a literal, a name, or a closing parenthesis.
fn ends_operand(token: Option<&Token>) -> bool {
    match token {
        Some(Token::Word(w)) => {
            use sqlparser::keywords::Keyword as K;
            // A column may be named like a keyword; these never end an operand.
            w.quote_style.is_some()
                || !matches!(
                    w.keyword,
                    K::SELECT
                        | K::WHERE
                        | K::HAVING
                        | K::AND
                        | K::OR
                        | K::NOT
                        | K::XOR
                        | K::ON
                        | K::BY
                        | K::THEN
                        | K::WHEN
                        | K::ELSE
                        | K::SET
                        | K::IN
                        | K::DIV
                        | K::MOD
                        | K::LIKE
                        | K::BETWEEN
                        | K::IS
                        | K::CASE
                        | K::RETURN
                        | K::VALUES
                        | K::DISTINCT
                        | K::INTERVAL
                        | K::ALL
                        | K::ANY
                        | K::EXISTS
                        | K::AS
                        | K::DO
                        | K::IF
                        | K::ELSEIF
                        | K::UNTIL
                        | K::WHILE
                        | K::REGEXP
                        | K::RLIKE
                )
        }
        Some(
            Token::Number(..)
            | Token::RParen
            | Token::SingleQuotedString(_)
            | Token::DoubleQuotedString(_)
            | Token::HexStringLiteral(_)
            | Token::SingleQuotedByteStringLiteral(_)
            | Token::Placeholder(_),
        ) => true,
        _ => false,
    }
}

fn compound_unit(token: &Token) -> Option<(&'static str, &'static str, &'static str)> {
    match token {
        Token::Word(w) if w.quote_style.is_none() => {
            COMPOUND_UNITS.iter().copied().find(|(name, _, _)| w.value.eq_ignore_ascii_case(name))
        }
        _ => None,
    }
}

/// The compound unit sqlparser read as `INTERVAL ... A TO B`.
pub(crate) fn compound_unit_name(leading: &str, last: &str) -> Option<&'static str> {
    COMPOUND_UNITS.iter().find(|(_, form, _)| *form == format!("{leading} TO {last}")).map(|(name, _, _)| *name)
}

/// `sql[start..end]` with the `edits` ranges replaced, trimmed.
fn cut<S: AsRef<str>>(sql: &str, start: usize, end: usize, edits: &[(usize, usize, S)]) -> String {
    let mut out = String::with_capacity(end.saturating_sub(start));
    let mut pos = start;
    for (e_start, e_end, replacement) in edits {
        let (e_start, e_end) = (*e_start, *e_end);
        out.push_str(&sql[pos..e_start]);
        out.push(' ');
        out.push_str(replacement.as_ref());
        out.push(' ');
        pos = e_end;
    }
    out.push_str(&sql[pos..end.max(pos)]);
    out.trim().to_string()
}

fn near_text(sql: &str, line: u64, column: u64) -> String {
    text_from(sql, line, column).chars().take(80).collect()
}

/// The statement's text from `line`, `column` (1-based) to its end.
fn text_from(sql: &str, line: u64, column: u64) -> String {
    let line_text = sql.lines().nth(line.saturating_sub(1) as usize).unwrap_or("");
    let start = (column.saturating_sub(1) as usize).min(line_text.len());
    let mut rest: String = line_text.get(start..).unwrap_or("").to_string();
    for later in sql.lines().skip(line as usize) {
        rest.push('\n');
        rest.push_str(later);
    }
    rest
}

/// What follows the parenthesized argument list of the call that `text`
/// starts with (quoted strings skipped), without leading blanks.
fn after_call(text: &str) -> &str {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 1 => return text[at + 1..].trim_start(),
            (None, ')') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    ""
}

fn parse_error(sql: &str, err: &sqlparser::parser::ParserError) -> SqlError {
    let message = err.to_string();
    // sqlparser reports "... at Line: L, Column: C"; MariaDB quotes the text
    // from there on.
    let pos = message.rfind("Line: ").and_then(|i| {
        let rest = &message[i + 6..];
        let (line, col) = rest.split_once(", Column: ")?;
        Some((line.trim().parse::<u64>().ok()?, col.trim().parse::<u64>().ok()?))
    });
    match pos {
        Some((line, column)) => SqlError::parse(&near_text(sql, line, column), line as usize),
        None => SqlError::parse("", 1),
    }
}

/// Built-in functions MariaDB's lexer reads as keywords when `(` follows
/// at once (its `sql_functions`, without IGNORE_SPACE): there they are no
/// identifier, so `CREATE TABLE COUNT(a INT)` is a syntax error while
/// `CREATE TABLE COUNT (a INT)` names a table.
const FUNCTION_WORDS: [&str; 42] = [
    "BIT_AND",
    "BIT_OR",
    "BIT_XOR",
    "CAST",
    "COUNT",
    "CUME_DIST",
    "CURDATE",
    "CURTIME",
    "DATE_ADD",
    "DATE_SUB",
    "DENSE_RANK",
    "EXTRACT",
    "FIRST_VALUE",
    "GROUP_CONCAT",
    "JSON_ARRAYAGG",
    "JSON_OBJECTAGG",
    "LAG",
    "LEAD",
    "MAX",
    "MEDIAN",
    "MID",
    "MIN",
    "NOW",
    "NTH_VALUE",
    "NTILE",
    "PERCENT_RANK",
    "PERCENTILE_CONT",
    "PERCENTILE_DISC",
    "POSITION",
    "RANK",
    "ROW_NUMBER",
    "STD",
    "STDDEV",
    "STDDEV_POP",
    "STDDEV_SAMP",
    "SUBSTR",
    "SUBSTRING",
    "SUM",
    "TRIM",
    "VARIANCE",
    "VAR_POP",
    "VAR_SAMP",
];

/// Whether a table name (after TABLE, INTO or REFERENCES) is one of
/// [`FUNCTION_WORDS`] directly followed by `(`.
fn names_function_word(tokens: &[Token]) -> bool {
    let unquoted = |t: &Token, words: &[&str]| match t {
        Token::Word(w) if w.quote_style.is_none() => words.iter().any(|x| w.value.eq_ignore_ascii_case(x)),
        _ => false,
    };
    let solid: Vec<(usize, &Token)> =
        tokens.iter().enumerate().filter(|(_, t)| !matches!(t, Token::Whitespace(_))).collect();
    solid.windows(2).any(|pair| {
        let [(_, before), (at, name)] = pair else { return false };
        unquoted(before, &["TABLE", "INTO", "REFERENCES"])
            && unquoted(name, &FUNCTION_WORDS)
            && matches!(tokens.get(at + 1), Some(Token::LParen))
    })
}

fn words(tokens: &[Token]) -> Vec<String> {
    tokens
        .iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .map(|t| match t {
            Token::Word(w) => w.value.clone(),
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// Parses an ordinary statement of a routine's body: `text` as written,
/// `with_params` with its local variables as `?` (see `routine`).
pub(crate) fn parse_with_params(text: &str, with_params: &str) -> SqlResult<ParsedStatement> {
    match split_statements(&comments::resolve(with_params))?.as_slice() {
        [(_, rewritten)] => parse_one(text, rewritten),
        _ => Err(SqlError::parse(text, 1)),
    }
}

/// Parses one statement: `text` as the user wrote it (kept for the binlog
/// and column headings), `rewritten` as sqlparser reads it.
fn parse_one(text: &str, rewritten: &str) -> SqlResult<ParsedStatement> {
    let parsed = parse_one_unchecked(text, rewritten)?;
    identifiers::check(&parsed.statement)?;
    Ok(parsed)
}

fn parse_one_unchecked(text: &str, rewritten: &str) -> SqlResult<ParsedStatement> {
    if let Some(parsed) = set_statement::parse(text, rewritten)? {
        return Ok(parsed);
    }
    if let Some((mode, range)) = explain::modifier(rewritten)? {
        return parse_explain(text, rewritten, mode, range);
    }
    let tokens = tokenize(rewritten)?;
    let param_count = tokens.iter().filter(|t| matches!(t, Token::Placeholder(_))).count();
    if names_function_word(&tokens) {
        return Err(SqlError::parse(text, 1));
    }
    let w = words(&tokens);
    let upper: Vec<String> = w.iter().map(|s| s.to_ascii_uppercase()).collect();
    if let Some(statement) = account::parse_account_statement(text, &upper)? {
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    if let Some(singular) = drop_tables_as_drop_table(rewritten, &upper) {
        return parse_one(text, &singular);
    }
    if upper.first().map(String::as_str) == Some("DO") {
        let select_text = format!("SELECT {}", rewritten.trim_start()[2..].trim_start());
        return match parse_one(&select_text, &select_text)?.statement {
            Statement::Select(select) => {
                Ok(ParsedStatement { statement: Statement::Do(select), text: text.to_string(), param_count })
            }
            _ => Err(SqlError::parse(text, 1)),
        };
    }
    if let Some(statement) = parse_routine_statement(text, &upper)? {
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    if load_data::is_load_data(&upper) {
        let statement = load_data::parse_load_data(rewritten)?;
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    let names_view =
        matches!(upper.first().map(String::as_str), Some("CREATE" | "ALTER")) && upper.contains(&"VIEW".into());
    if let Some(statement) = names_view.then(|| view::parse_view_ddl(text)).transpose()?.flatten() {
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    if let Some(statement) = parse_admin(text, &w, &upper)? {
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    let creates_table = upper.first().is_some_and(|w| w == "CREATE")
        && upper
            .iter()
            .skip(1)
            .find(|w| !matches!(w.as_str(), "OR" | "REPLACE" | "TEMPORARY"))
            .is_some_and(|w| w == "TABLE");
    let alters_table = alter::is_alter_table(&upper);
    let (rewritten, column_words) = if creates_table || alters_table {
        column_words::strip(rewritten)?
    } else {
        (rewritten.to_string(), Default::default())
    };
    if alters_table {
        let mut statement = alter::parse_alter_table(&rewritten)?;
        column_words.apply(&mut statement)?;
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    // sqlparser does not know MySQL's `LOCK IN SHARE MODE`; strip it and
    // remember the lock mode.
    let mut sql = rewritten;
    let mut share_lock = false;
    if upper.len() > 4 && upper[upper.len() - 4..] == ["LOCK", "IN", "SHARE", "MODE"] {
        if let Some(idx) = sql.to_ascii_uppercase().rfind("LOCK") {
            sql.truncate(idx);
            share_lock = true;
        }
    }
    // MariaDB's CREATE OR REPLACE [UNIQUE] INDEX: sqlparser reads it
    // without OR REPLACE.
    let replaces_index = upper.len() > 4
        && upper[..3] == ["CREATE", "OR", "REPLACE"]
        && (upper[3] == "INDEX" || upper[3..5] == ["UNIQUE", "INDEX"]);
    if replaces_index {
        if let Some(at) = sql.to_ascii_uppercase().find("REPLACE") {
            sql = format!("CREATE {}", &sql[at + "REPLACE".len()..]);
        }
    }
    let into = match select_into::cut(&sql)? {
        Some((blanked, into)) => {
            sql = blanked;
            Some(into)
        }
        None => None,
    };
    let mut create_duplicates = CreateSelectDuplicates::Error;
    if creates_table && upper.iter().any(|w| w == "SELECT" || w == "LIKE") {
        (sql, create_duplicates) = rewrite_create_table(&sql)?;
    }
    if matches!(upper.first().map(String::as_str), Some("UPDATE" | "DELETE")) {
        let mut counter = ParamCounter::with_source(text);
        let statement = update_delete::parse(&sql, &mut counter).map_err(|e| parse_error(text, &e))??;
        return Ok(ParsedStatement { statement, text: text.to_string(), param_count });
    }
    let parsed = Parser::new(&MariaDbDialect)
        .try_with_sql(&sql)
        .and_then(|mut p| p.parse_statements())
        .map_err(|e| parse_error(text, &e))?;
    let stmt = match parsed.as_slice() {
        [one] => one,
        [] => return Ok(ParsedStatement { statement: Statement::Empty, text: text.to_string(), param_count }),
        _ => return Err(SqlError::parse(text, 1)),
    };
    let mut counter = ParamCounter::with_source(text);
    let mut statement = convert_statement(stmt, &mut counter)?;
    // sqlparser drops the scope of `SET SESSION|GLOBAL TRANSACTION ...`.
    if let Statement::SetTransaction { scope, .. } = &mut statement {
        match upper.get(1).map(String::as_str) {
            Some("SESSION") | Some("LOCAL") => *scope = VarScope::Session,
            Some("GLOBAL") => *scope = VarScope::Global,
            _ => {}
        }
    }
    if let Statement::CreateTable(ct) = &mut statement {
        ct.on_duplicate = create_duplicates;
    }
    column_words.apply(&mut statement)?;
    if let Statement::CreateIndex { or_replace, if_not_exists, .. } = &mut statement {
        if replaces_index && *if_not_exists {
            return Err(SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of OR REPLACE and IF NOT EXISTS"));
        }
        *or_replace = replaces_index;
    }
    if share_lock {
        if let Statement::Select(select) = &mut statement {
            select.lock = Some(LockMode::Share);
        }
    }
    match (into, &mut statement) {
        (Some(into), Statement::Select(select)) => select.into = Some(into),
        // EXPLAIN runs nothing: its query's INTO stores nothing.
        (Some(_), Statement::Explain { .. }) | (None, _) => {}
        (Some(_), _) => return Err(SqlError::parse(text, 1)),
    }
    Ok(ParsedStatement { statement, text: text.to_string(), param_count })
}

/// `EXPLAIN <modifier> <statement>`: the statement parsed with the
/// modifier blanked out (the texts agree up to it: no rewrite touches the
/// first two words), then the modifier put on the EXPLAIN.
fn parse_explain(
    text: &str,
    rewritten: &str,
    mode: ExplainMode,
    range: std::ops::Range<usize>,
) -> SqlResult<ParsedStatement> {
    let mut parsed = parse_one(&explain::blank(text, range.clone()), &explain::blank(rewritten, range))?;
    match &mut parsed.statement {
        Statement::Explain { mode: m, .. } => *m = mode,
        // `EXPLAIN EXTENDED t1` is no statement MariaDB knows.
        _ => return Err(SqlError::parse(text, 1)),
    }
    parsed.text = text.to_string();
    Ok(parsed)
}

/// `DROP [TEMPORARY] TABLES …`, MariaDB's synonym of `DROP … TABLE …`,
/// in the form sqlparser reads.
fn drop_tables_as_drop_table(rewritten: &str, upper: &[String]) -> Option<String> {
    let plural = match upper {
        [drop, tables, ..] if drop == "DROP" && tables == "TABLES" => true,
        [drop, temporary, tables, ..] => drop == "DROP" && temporary == "TEMPORARY" && tables == "TABLES",
        _ => false,
    };
    if !plural {
        return None;
    }
    let at = rewritten.to_ascii_uppercase().find("TABLES")?;
    Some(format!("{}TABLE{}", &rewritten[..at], &rewritten[at + "TABLES".len()..]))
}

/// CREATE / ALTER / DROP PROCEDURE | FUNCTION and CALL (see `routine`).
fn parse_routine_statement(text: &str, upper: &[String]) -> SqlResult<Option<Statement>> {
    if let Some(statement) = trigger::parse_trigger_statement(text, upper)? {
        return Ok(Some(statement));
    }
    if let Some(statement) = routine::parse_compound(text, upper)? {
        return Ok(Some(statement));
    }
    // The object's kind is the first of these words (a procedure's body
    // may drop a trigger).
    let created_kind = upper.iter().take(16).find(|w| matches!(w.as_str(), "TRIGGER" | "PROCEDURE" | "FUNCTION"));
    match upper.first().map(String::as_str) {
        Some("CREATE") if created_kind.is_some_and(|w| w == "TRIGGER") => {
            Ok(trigger::parse_create_trigger(text)?.map(|c| Statement::CreateTrigger(Box::new(c))))
        }
        Some("CREATE") if created_kind.is_some() => {
            Ok(routine::parse_create_routine(text)?.map(|c| Statement::CreateRoutine(Box::new(c))))
        }
        Some("DROP") => routine::parse_drop_routine(text),
        Some("ALTER") => routine::parse_alter_routine(text),
        Some("CALL") => routine::parse_call(text).map(Some),
        Some("SHOW") => routine::parse_show_routine(text, upper),
        _ => Ok(None),
    }
}

/// Rewrites MariaDB's CREATE TABLE forms sqlparser does not know into ones
/// it does: `t (LIKE s)` → `t LIKE s`; a parenthesized query right after the
/// table's definition, `t [(...)] [options] (SELECT ...)` or `WITH ...`
/// → `... AS (SELECT ...)`, `... AS WITH ...`; and `IGNORE|REPLACE [AS]
/// SELECT` loses its keyword, returned as what it asks for.
fn rewrite_create_table(sql: &str) -> SqlResult<(String, CreateSelectDuplicates)> {
    let tokens = Tokenizer::new(&MySqlDialect {}, sql)
        .tokenize_with_location()
        .map_err(|e| SqlError::parse(&near_text(sql, e.location.line, e.location.column), e.location.line as usize))?;
    let significant: Vec<&sqlparser::tokenizer::TokenWithSpan> =
        tokens.iter().filter(|t| !matches!(t.token, Token::Whitespace(_))).collect();
    let keyword = |t: &Token| match t {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
        _ => None,
    };
    let mut cursor = Cursor { src: sql, byte: 0, line: 1, column: 1 };
    let mut span_of = |t: &sqlparser::tokenizer::TokenWithSpan| {
        let start = cursor.offset(t.span.start.line, t.span.start.column);
        (start, cursor.offset(t.span.end.line, t.span.end.column))
    };
    let mut edits: Vec<(usize, usize, &'static str)> = Vec::new();
    let mut mode = CreateSelectDuplicates::Error;
    let like_at = significant
        .windows(2)
        .position(|w| matches!(w[0].token, Token::LParen) && keyword(&w[1].token).as_deref() == Some("LIKE"));
    let select_at = significant.iter().position(|t| keyword(&t.token).as_deref() == Some("SELECT"));
    // The query starts at its WITH when a common table expression leads it:
    // `WITH [RECURSIVE] name [(columns)] AS (...`.
    let starts_with_clause = |i: usize| {
        let word = |j: usize| significant.get(j).and_then(|t| keyword(&t.token));
        word(i).as_deref() == Some("WITH")
            && (word(i + 1).as_deref() == Some("RECURSIVE")
                || significant
                    .get(i + 2)
                    .is_some_and(|t| keyword(&t.token).as_deref() == Some("AS") || matches!(t.token, Token::LParen)))
    };
    let query_at = select_at.map(|s| (0..s).find(|&i| starts_with_clause(i)).unwrap_or(s));
    if let Some(open) = like_at.filter(|&i| select_at.is_none_or(|s| i < s)) {
        let close = significant[open..].iter().position(|t| matches!(t.token, Token::RParen)).map(|c| open + c);
        if let Some(close) = close {
            let (start, end) = span_of(significant[open]);
            edits.push((start, end, ""));
            let (start, end) = span_of(significant[close]);
            edits.push((start, end, ""));
        }
    } else if let Some(query_at) = query_at.filter(|&s| s > 0) {
        // The word before the query, back over `AS` and opening parentheses.
        let before = significant[..query_at]
            .iter()
            .rposition(|t| !matches!(t.token, Token::LParen) && keyword(&t.token).as_deref() != Some("AS"));
        if let Some(b) = before {
            // `t (SELECT` and `t WITH` need the AS sqlparser wants.
            let opens_query = matches!(significant[b + 1].token, Token::LParen) || b + 1 == query_at;
            mode = match keyword(&significant[b].token).as_deref() {
                Some("IGNORE") => CreateSelectDuplicates::Ignore,
                Some("REPLACE") => CreateSelectDuplicates::Replace,
                _ => CreateSelectDuplicates::Error,
            };
            let (start, end) = span_of(significant[b]);
            if mode != CreateSelectDuplicates::Error {
                edits.push((start, end, if opens_query { "AS" } else { "" }));
            } else if opens_query {
                edits.push((end, end, "AS"));
            }
        }
    }
    Ok((cut(sql, 0, sql.len(), &edits), mode))
}

/// Conversion state: numbers `?` placeholders in text order and keeps the
/// statement's text, so a select item's heading is its original text as
/// MariaDB shows it.
#[derive(Default, Clone)]
pub(crate) struct ParamCounter {
    next: usize,
    source: String,
    /// Computed from `source` on first need: most statements name only
    /// plain columns and literals and never pay for the extra tokenizing.
    headings: Option<Vec<Vec<String>>>,
    next_select: usize,
    /// WITH names in scope where conversion is, innermost last.
    ctes: Vec<(String, with::CteBinding)>,
    /// References to the recursive CTE being converted, seen so far.
    cte_self_references: usize,
    /// `WINDOW name AS (spec)` of the SELECTs being converted, innermost last.
    named_windows: Vec<(String, sqlparser::ast::WindowSpec)>,
}

impl ParamCounter {
    fn with_source(sql: &str) -> ParamCounter {
        ParamCounter { source: sql.to_string(), ..ParamCounter::default() }
    }

    pub(crate) fn next(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    /// Error 1064 at `location` of the statement's text, quoted from there
    /// on as MariaDB's parser quotes where it stopped.
    pub(crate) fn syntax_error_at(&self, location: sqlparser::tokenizer::Location) -> SqlError {
        SqlError::parse(&near_text(&self.source, location.line, location.column), location.line as usize)
    }

    /// Error 1064 after the closing parenthesis of the call starting at
    /// `location`: where MariaDB's parser stops when a call must go on
    /// (a window function without OVER).
    pub(crate) fn syntax_error_after_call(&self, location: sqlparser::tokenizer::Location) -> SqlError {
        let text = text_from(&self.source, location.line, location.column);
        SqlError::parse(&after_call(&text).chars().take(80).collect::<String>(), location.line as usize)
    }

    /// Numbers the next SELECT (in source order) for [`Self::heading`].
    pub(crate) fn next_select(&mut self) -> usize {
        self.next_select += 1;
        self.next_select - 1
    }

    /// The original text of item `item` of SELECT number `select`.
    pub(crate) fn heading(&mut self, select: usize, item: usize) -> Option<String> {
        let source = &self.source;
        let headings = self.headings.get_or_insert_with(|| select_headings(source));
        headings.get(select)?.get(item).filter(|h| !h.is_empty()).cloned()
    }
}

/// For each SELECT keyword, in source order, the original text of each of
/// its top-level items: MariaDB names an unaliased column by the text the
/// user wrote. Conversion visits SELECTs in the same order.
fn select_headings(sql: &str) -> Vec<Vec<String>> {
    let Ok(tokens) = Tokenizer::new(&MySqlDialect {}, sql).tokenize_with_location() else { return Vec::new() };
    let mut cursor = Cursor { src: sql, byte: 0, line: 1, column: 1 };
    let starts: Vec<usize> = tokens.iter().map(|t| cursor.offset(t.span.start.line, t.span.start.column)).collect();
    let word = |i: usize| match &tokens[i].token {
        Token::Word(w) if w.quote_style.is_none() => w.value.to_ascii_uppercase(),
        _ => String::new(),
    };
    // Where an item ending before token `end` ends: comments after it are
    // not part of its heading.
    let text_end = |end: usize| {
        let last = (0..end.min(tokens.len())).rev().find(|&k| !matches!(tokens[k].token, Token::Whitespace(_)));
        last.and_then(|k| starts.get(k + 1).copied()).unwrap_or(sql.len())
    };
    const CLAUSE_END: [&str; 11] =
        ["FROM", "WHERE", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "INTO", "FOR", "LOCK", "WINDOW"];
    let mut all = Vec::new();
    for (i, _) in tokens.iter().enumerate().filter(|(i, _)| word(*i) == "SELECT") {
        let mut j = i + 1;
        while j < tokens.len()
            && (matches!(tokens[j].token, Token::Whitespace(_))
                || matches!(
                    word(j).as_str(),
                    "DISTINCT" | "ALL" | "DISTINCTROW" | "SQL_NO_CACHE" | "SQL_CALC_FOUND_ROWS" | "STRAIGHT_JOIN"
                ))
        {
            j += 1;
        }
        let mut items = Vec::new();
        let mut depth = 0i32;
        let mut item_start = starts.get(j).copied().unwrap_or(sql.len());
        while j < tokens.len() {
            let end_here = match &tokens[j].token {
                Token::LParen => {
                    depth += 1;
                    false
                }
                Token::RParen if depth == 0 => true,
                Token::RParen => {
                    depth -= 1;
                    false
                }
                Token::SemiColon | Token::EOF => true,
                Token::Comma if depth == 0 => {
                    items.push(sql[item_start..text_end(j).max(item_start)].trim().to_string());
                    item_start = starts.get(j + 1).copied().unwrap_or(sql.len());
                    false
                }
                // A percentile's WITHIN GROUP is inside its item.
                _ if word(j) == "GROUP"
                    && (0..j)
                        .rev()
                        .find(|&k| !matches!(tokens[k].token, Token::Whitespace(_)))
                        .is_some_and(|k| word(k) == "WITHIN") =>
                {
                    false
                }
                _ => depth == 0 && CLAUSE_END.contains(&word(j).as_str()),
            };
            if end_here {
                break;
            }
            j += 1;
        }
        items.push(sql[item_start..text_end(j).max(item_start)].trim().to_string());
        all.push(items);
    }
    all
}

/// Statements recognised from their words, before sqlparser sees them.
fn parse_admin(text: &str, w: &[String], u: &[String]) -> SqlResult<Option<Statement>> {
    let first = u.first().map(String::as_str).unwrap_or("");
    let tail = |n: usize| u.get(n).map(String::as_str).unwrap_or("");
    let stmt = match first {
        "SHOW" => Some(parse_show(text, w, u)?),
        "PURGE" if tail(1) == "BINARY" || tail(1) == "MASTER" => {
            if tail(3) == "TO" {
                Some(Statement::PurgeBinaryLogsTo(w.get(4).cloned().unwrap_or_default()))
            } else if tail(3) == "BEFORE" {
                let expr_text: Vec<&str> = w[4..].iter().map(String::as_str).collect();
                let expr = parse_expr_text(&quote_tail(text, "BEFORE").unwrap_or_else(|| expr_text.join(" ")))?;
                Some(Statement::PurgeBinaryLogsBefore(expr))
            } else {
                return Err(SqlError::parse(text, 1));
            }
        }
        "RESET" if tail(1) == "MASTER" || (tail(1) == "BINARY" && tail(2) == "LOGS") => Some(Statement::ResetMaster),
        "FLUSH" => {
            let rest: Vec<&str> = u[1..].iter().map(String::as_str).collect();
            let rest: Vec<&str> = rest.into_iter().filter(|x| *x != "LOCAL" && *x != "NO_WRITE_TO_BINLOG").collect();
            if rest == ["BINARY", "LOGS"] || rest == ["LOGS"] {
                Some(Statement::FlushBinaryLogs)
            } else if rest == ["TABLES", "WITH", "READ", "LOCK"] {
                Some(Statement::FlushTablesWithReadLock)
            } else if rest == ["HOSTS"] {
                Some(Statement::FlushHosts)
            } else if rest == ["USER_RESOURCES"] {
                Some(Statement::FlushUserResources)
            } else if rest == ["SSL"] {
                Some(Statement::FlushSsl)
            } else if rest.ends_with(&["WITH", "READ", "LOCK"]) || rest.ends_with(&["FOR", "EXPORT"]) {
                // Locks on named tables only: not a global read lock.
                return Err(SqlError::not_supported("FLUSH TABLES tbl_name ... WITH READ LOCK"));
            } else {
                Some(Statement::FlushOther)
            }
        }
        "UNLOCK" if tail(1) == "TABLES" || tail(1) == "TABLE" => Some(Statement::UnlockTables),
        "INSTALL" => Some(crate::accounts::plugins::parse_install(text, w, u)?),
        "PREPARE" => Some(prepared::parse_prepare(text)?),
        "EXECUTE" if tail(1) == "IMMEDIATE" => Some(prepared::parse_execute_immediate(text)?),
        "DROP" if tail(1) == "PREPARE" => {
            Some(Statement::Deallocate(w.get(2).cloned().ok_or_else(|| SqlError::parse(text, 1))?))
        }
        // MariaDB's SHUTDOWN [WAIT FOR ALL SLAVES|REPLICAS]: OneLog never
        // waits for replicas, whose dumps end with the server.
        "SHUTDOWN" if u.len() == 1 || u[1..].join(" ").starts_with("WAIT FOR ALL") => Some(Statement::Shutdown),
        "CHECK" | "ANALYZE" | "OPTIMIZE" | "REPAIR" => Some(table_maintenance(text, first, w, u)?),
        "HANDLER" => Some(handler_statement(text, w, u)?),
        "CHECKSUM" if tail(1) == "TABLE" || tail(1) == "TABLES" => Some(checksum_table(text, w, u)?),
        "LOCK" if tail(1) == "TABLES" || tail(1) == "TABLE" => Some(lock_tables(text, &w[2..])?),
        "KILL" => {
            let query_only = tail(1) == "QUERY";
            let idx = if query_only || tail(1) == "CONNECTION" { 2 } else { 1 };
            let id = u.get(idx).and_then(|s| s.parse::<u64>().ok()).ok_or_else(|| SqlError::parse(text, 1))?;
            Some(Statement::Kill { id, query_only })
        }
        "BEGIN" if u.len() == 1 || (u.len() == 2 && tail(1) == "WORK") => {
            Some(Statement::Begin { read_only: false, consistent_snapshot: false })
        }
        // `ALTER TABLE [db.]t DISABLE|ENABLE KEYS` alone; among other
        // specifications it is read with them (parse/alter.rs).
        "ALTER"
            if tail(1) == "TABLE" && (u.len() == 5 || (u.len() == 7 && u[3] == ".")) && u[u.len() - 1] == "KEYS" =>
        {
            let enable = match u[u.len() - 2].as_str() {
                "ENABLE" => true,
                "DISABLE" => false,
                _ => return Ok(None),
            };
            Some(Statement::AlterTableKeys { table: object_name_from_words(&w[2..w.len() - 2]), enable })
        }
        "ALTER" if tail(1) == "DATABASE" || tail(1) == "SCHEMA" => Some(alter::parse_alter_database(text)?),
        "CREATE" if tail(1) == "DATABASE" || tail(1) == "SCHEMA" => Some(alter::parse_create_database(text)?),
        "START" if tail(1) == "TRANSACTION" && u.iter().any(|w| w == "CONSISTENT") => {
            Some(start_transaction_with_snapshot(text, &u[2..])?)
        }
        _ => None,
    };
    Ok(stmt)
}

/// `CHECK | ANALYZE | OPTIMIZE | REPAIR [NO_WRITE_TO_BINLOG | LOCAL] TABLE
/// t [, t ...] [options]`; the options (QUICK, EXTENDED, ...) change
/// nothing here.
fn table_maintenance(text: &str, first: &str, w: &[String], u: &[String]) -> SqlResult<Statement> {
    let op = match first {
        "CHECK" => MaintenanceOp::Check,
        "ANALYZE" => MaintenanceOp::Analyze,
        "OPTIMIZE" => MaintenanceOp::Optimize,
        _ => MaintenanceOp::Repair,
    };
    let at = u.iter().position(|x| x == "TABLE" || x == "TABLES").ok_or_else(|| SqlError::parse(text, 1))?;
    if u[1..at].iter().any(|x| x != "NO_WRITE_TO_BINLOG" && x != "LOCAL") {
        return Err(SqlError::parse(text, 1));
    }
    const OPTIONS: [&str; 9] =
        ["QUICK", "FAST", "MEDIUM", "EXTENDED", "CHANGED", "FOR", "UPGRADE", "USE_FRM", "PERSISTENT"];
    let tables = w[at + 1..]
        .split(|x| x == ",")
        .map(|name| {
            let upper = |x: &String| x.to_ascii_uppercase();
            let end = name.iter().position(|x| OPTIONS.contains(&upper(x).as_str())).unwrap_or(name.len());
            match &name[..end] {
                [] => Err(SqlError::parse(text, 1)),
                words => Ok(object_name_from_words(words)),
            }
        })
        .collect::<SqlResult<Vec<_>>>()?;
    Ok(Statement::TableMaintenance { op, tables })
}

/// `HANDLER t OPEN [[AS] alias]`, `HANDLER alias READ {FIRST | NEXT}
/// [WHERE cond] [LIMIT [offset,] n]`, `HANDLER alias CLOSE`.
fn handler_statement(text: &str, w: &[String], u: &[String]) -> SqlResult<Statement> {
    let name_words = if u.get(2).is_some_and(|x| x == ".") { 3 } else { 1 };
    let name = w.get(1..1 + name_words).ok_or_else(|| SqlError::parse(text, 1))?;
    let rest: Vec<&str> = u[1 + name_words..].iter().map(String::as_str).collect();
    let alias = name[name_words - 1].clone();
    match rest.as_slice() {
        ["OPEN"] => Ok(Statement::HandlerOpen { table: object_name_from_words(name), alias: None }),
        ["OPEN", "AS", _] | ["OPEN", _] => {
            let alias = w.last().cloned();
            Ok(Statement::HandlerOpen { table: object_name_from_words(name), alias })
        }
        ["CLOSE"] => Ok(Statement::HandlerClose(alias)),
        ["READ", how, tail @ ..] if *how == "FIRST" || *how == "NEXT" => {
            let how = if *how == "FIRST" { HandlerRead::First } else { HandlerRead::Next };
            let (filter, limit) = handler_read_tail(text, tail)?;
            Ok(Statement::HandlerRead { alias, how, filter, limit })
        }
        ["READ", ..] => Err(SqlError::not_supported("HANDLER ... READ by index")),
        _ => Err(SqlError::parse(text, 1)),
    }
}

/// The `[WHERE cond] [LIMIT [offset,] n]` of a HANDLER READ, `tail` its
/// upper-cased words; one row without a LIMIT.
fn handler_read_tail(text: &str, tail: &[&str]) -> SqlResult<(Option<Expr>, (u64, u64))> {
    let upper = text.to_ascii_uppercase();
    let limit_at = upper.rfind(" LIMIT ").filter(|_| tail.contains(&"LIMIT"));
    let limit = match limit_at {
        None => (0, 1),
        Some(at) => {
            let numbers: Vec<&str> = text[at + 7..].split(',').map(str::trim).collect();
            let number = |s: &str| s.parse::<u64>().map_err(|_| SqlError::parse(text, 1));
            match numbers.as_slice() {
                [count] => (0, number(count)?),
                [offset, count] => (number(offset)?, number(count)?),
                _ => return Err(SqlError::parse(text, 1)),
            }
        }
    };
    let filter = match (tail.first(), upper.find(" WHERE ")) {
        (Some(&"WHERE"), Some(at)) => Some(parse_expr_text(&text[at + 7..limit_at.unwrap_or(text.len())])?),
        (None | Some(&"LIMIT"), _) => None,
        _ => return Err(SqlError::parse(text, 1)),
    };
    Ok((filter, limit))
}

/// `CHECKSUM TABLE[S] t [, t ...] [QUICK | EXTENDED]`.
fn checksum_table(text: &str, w: &[String], u: &[String]) -> SqlResult<Statement> {
    let (names, quick) = match u.last().map(String::as_str) {
        Some("QUICK") => (&w[2..w.len() - 1], true),
        Some("EXTENDED") => (&w[2..w.len() - 1], false),
        _ => (&w[2..], false),
    };
    let tables = names
        .split(|x| x == ",")
        .map(|name| match name {
            [_] => Ok(object_name_from_words(name)),
            [_, dot, _] if dot == "." => Ok(object_name_from_words(name)),
            _ => Err(SqlError::parse(text, 1)),
        })
        .collect::<SqlResult<Vec<_>>>()?;
    Ok(Statement::ChecksumTable { tables, quick })
}

/// `LOCK TABLE[S] t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE
/// [CONCURRENT]} [, ...]`; `items` are the words after TABLES. MariaDB's
/// WAIT n and NOWAIT are not supported (a syntax error, as on MySQL).
fn lock_tables(text: &str, items: &[String]) -> SqlResult<Statement> {
    let tables = items
        .split(|x| x == ",")
        .map(|item| {
            let upper: Vec<String> = item.iter().map(|x| x.to_ascii_uppercase()).collect();
            let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
            let (name_len, write) = match upper.as_slice() {
                [.., "READ", "LOCAL"] => (item.len() - 2, false),
                [.., "LOW_PRIORITY", "WRITE"] | [.., "WRITE", "CONCURRENT"] => (item.len() - 2, true),
                [.., "READ"] => (item.len() - 1, false),
                [.., "WRITE"] => (item.len() - 1, true),
                _ => return Err(SqlError::parse(text, 1)),
            };
            let name = &item[..name_len];
            // `db . t`, then an optional `AS alias` or `alias`.
            let name_words = if name.get(1).is_some_and(|x| x == ".") { 3 } else { 1 };
            let alias = &upper[name_words.min(name.len())..name_len];
            if name.len() < name_words || !matches!(alias, [] | [_] | ["AS", _]) {
                return Err(SqlError::parse(text, 1));
            }
            Ok((object_name_from_words(name), write))
        })
        .collect::<SqlResult<Vec<_>>>()?;
    Ok(Statement::LockTables(tables))
}

/// `START TRANSACTION` with `WITH CONSISTENT SNAPSHOT` among its
/// comma-separated properties (sqlparser does not know that one).
fn start_transaction_with_snapshot(text: &str, properties: &[String]) -> SqlResult<Statement> {
    let mut read_only = false;
    for property in properties.split(|w| w == ",") {
        match property {
            [a, b, c] if a == "WITH" && b == "CONSISTENT" && c == "SNAPSHOT" => {}
            [a, b] if a == "READ" && b == "ONLY" => read_only = true,
            [a, b] if a == "READ" && b == "WRITE" => read_only = false,
            _ => return Err(SqlError::parse(text, 1)),
        }
    }
    Ok(Statement::Begin { read_only, consistent_snapshot: true })
}

fn quote_tail(text: &str, keyword: &str) -> Option<String> {
    let idx = text.to_ascii_uppercase().find(keyword)?;
    Some(text[idx + keyword.len()..].to_string())
}

/// Parses a standalone expression (PURGE ... BEFORE, SHOW ... WHERE, the
/// kept text of a DEFAULT, CHECK or generated column), with the rewrites
/// a statement gets (the infix MOD MariaDB prints, ...); the whole text.
pub fn parse_expr_text(text: &str) -> SqlResult<Expr> {
    let rewritten = match split_statements(text)?.as_slice() {
        [(_, rewritten)] => rewritten.clone(),
        _ => return Err(SqlError::parse(text, 1)),
    };
    let mut parser = Parser::new(&MariaDbDialect).try_with_sql(&rewritten).map_err(|e| parse_error(text, &e))?;
    let expr = parser.parse_expr().map_err(|e| parse_error(text, &e))?;
    parser.expect_token(&sqlparser::tokenizer::Token::EOF).map_err(|e| parse_error(text, &e))?;
    convert_expr(&expr, &mut ParamCounter::default())
}

fn object_name_from_words(parts: &[String]) -> ObjectName {
    // `db . table` arrives as three words.
    match parts {
        [db, dot, name, ..] if dot == "." => ObjectName { db: Some(db.clone()), name: name.clone() },
        [name, ..] => ObjectName { db: None, name: name.clone() },
        [] => ObjectName { db: None, name: String::new() },
    }
}

fn parse_show(text: &str, w: &[String], u: &[String]) -> SqlResult<Statement> {
    let mut i = 1;
    let mut global = false;
    let mut full = false;
    loop {
        match u.get(i).map(String::as_str) {
            Some("GLOBAL") => global = true,
            Some("SESSION") | Some("LOCAL") => global = false,
            Some("FULL") => full = true,
            Some("EXTENDED") => {}
            _ => break,
        }
        i += 1;
    }
    let word = |n: usize| u.get(n).map(String::as_str).unwrap_or("");
    let (what, consumed) = match word(i) {
        "DATABASES" | "SCHEMAS" => (Show::Databases, 1),
        "TABLES" => {
            if matches!(word(i + 1), "FROM" | "IN") {
                (Show::Tables { db: w.get(i + 2).cloned(), full }, 3)
            } else {
                (Show::Tables { db: None, full }, 1)
            }
        }
        "TABLE" if word(i + 1) == "STATUS" => {
            if matches!(word(i + 2), "FROM" | "IN") {
                (Show::TableStatus { db: w.get(i + 3).cloned() }, 4)
            } else {
                (Show::TableStatus { db: None }, 2)
            }
        }
        "COLUMNS" | "FIELDS" => {
            let (table, used) = show_table_target(w, u, i + 1)?;
            (Show::Columns { table, full }, 1 + used)
        }
        "INDEX" | "INDEXES" | "KEYS" => {
            let (table, used) = show_table_target(w, u, i + 1)?;
            (Show::Index { table }, 1 + used)
        }
        "CREATE" if word(i + 1) == "TABLE" => {
            let name = object_name_from_words(&w[(i + 2).min(w.len())..]);
            (Show::CreateTable(name), w.len())
        }
        "CREATE" if word(i + 1) == "VIEW" => {
            let name = object_name_from_words(&w[(i + 2).min(w.len())..]);
            (Show::CreateView(name), w.len())
        }
        "CREATE" if matches!(word(i + 1), "DATABASE" | "SCHEMA") => {
            let if_not_exists = word(i + 2) == "IF" && word(i + 3) == "NOT" && word(i + 4) == "EXISTS";
            let at = if if_not_exists { i + 5 } else { i + 2 };
            (Show::CreateDatabase { name: w.get(at).cloned().unwrap_or_default(), if_not_exists }, at + 1 - i)
        }
        "VARIABLES" => (Show::Variables { global }, 1),
        "STATUS" => (Show::Status { global }, 1),
        "PROCESSLIST" => (Show::Processlist { full }, 1),
        "WARNINGS" => (Show::Warnings, w.len()),
        "COUNT" if u.get(i + 4).is_some_and(|x| x == "WARNINGS" || x == "ERRORS") => {
            let var = if u[i + 4] == "WARNINGS" { "warning_count" } else { "error_count" };
            let sql = format!("SELECT @@session.{var}");
            return parse_one(&sql, &sql).map(|p| p.statement);
        }
        "ERRORS" => (Show::Errors, w.len()),
        "ENGINES" | "STORAGE" => (Show::Engines, w.len()),
        "PLUGINS" => (Show::Plugins, 1),
        "COLLATION" => (Show::Collation, 1),
        "CHARACTER" | "CHARSET" => (Show::CharacterSet, if word(i) == "CHARSET" { 1 } else { 2 }),
        "BINARY" | "MASTER" if matches!(word(i + 1), "LOGS") => (Show::BinaryLogs, 2),
        "MASTER" | "BINLOG" if word(i + 1) == "STATUS" => (Show::MasterStatus, 2),
        "BINARY" if word(i + 1) == "LOG" && word(i + 2) == "STATUS" => (Show::MasterStatus, 3),
        "BINLOG" if word(i + 1) == "EVENTS" => return parse_show_binlog_events(text, w, u, i + 2),
        "SLAVE" | "REPLICA" if word(i + 1) == "HOSTS" => (Show::ReplicaHosts, 2),
        "ENGINE" => (Show::EngineStatus, w.len()),
        "EVENTS" if matches!(word(i + 1), "FROM" | "IN") => (Show::Events { db: w.get(i + 2).cloned() }, 3),
        "EVENTS" => (Show::Events { db: None }, 1),
        "OPEN" if word(i + 1) == "TABLES" && matches!(word(i + 2), "FROM" | "IN") => {
            (Show::OpenTables { db: w.get(i + 3).cloned() }, 4)
        }
        "OPEN" if word(i + 1) == "TABLES" => (Show::OpenTables { db: None }, 2),
        _ => return Err(syntax_error_at_word(text, w, i)),
    };
    let rest = i + consumed;
    let filter = match u.get(rest).map(String::as_str) {
        Some("LIKE") => Some(ShowFilter::Like(w.get(rest + 1).cloned().unwrap_or_default())),
        Some("WHERE") => {
            let tail = quote_tail(text, "WHERE").unwrap_or_default();
            Some(ShowFilter::Where(parse_expr_text(&tail)?))
        }
        _ => None,
    };
    Ok(Statement::Show { what, filter })
}

/// Error 1064 at the statement's word `i` (of its words `w`): MariaDB
/// quotes the text from there, as written (line breaks kept).
fn syntax_error_at_word(text: &str, w: &[String], i: usize) -> SqlError {
    let Some(target) = w.get(i) else { return SqlError::parse("", 1) };
    // Words are the text's tokens in order (in their case as written), so
    // each is found past the one before it.
    let mut at = 0;
    for word in &w[..i] {
        match text.get(at..).and_then(|rest| rest.find(word.as_str())) {
            Some(offset) => at += offset + word.len(),
            None => return SqlError::parse(&w[i..].join(" "), 1),
        }
    }
    let Some(offset) = text.get(at..).and_then(|rest| rest.find(target.as_str())) else {
        return SqlError::parse(&w[i..].join(" "), 1);
    };
    at += offset;
    // MariaDB's line is where its lexer stands: past the word, at the
    // token after it.
    let lookahead = match w.get(i + 1) {
        Some(next) => text[at + target.len()..].find(next.as_str()).map_or(text.len(), |o| at + target.len() + o),
        None => at,
    };
    let line = text[..lookahead].matches('\n').count() + 1;
    SqlError::parse(&text[at..].chars().take(80).collect::<String>(), line)
}

fn show_table_target(w: &[String], u: &[String], i: usize) -> SqlResult<(ObjectName, usize)> {
    if !matches!(u.get(i).map(String::as_str), Some("FROM" | "IN")) {
        return Err(SqlError::parse(&w[i.min(w.len())..].join(" "), 1));
    }
    let mut name = object_name_from_words(&w[(i + 1).min(w.len())..]);
    let mut used = if name.db.is_some() { 4 } else { 2 };
    if matches!(u.get(i + used).map(String::as_str), Some("FROM" | "IN")) {
        name.db = w.get(i + used + 1).cloned();
        used += 2;
    }
    Ok((name, used))
}

fn parse_show_binlog_events(text: &str, w: &[String], u: &[String], mut i: usize) -> SqlResult<Statement> {
    let mut file = None;
    let mut from = None;
    let mut limit = None;
    while i < u.len() {
        match u[i].as_str() {
            "IN" => {
                file = w.get(i + 1).cloned();
                i += 2;
            }
            "FROM" => {
                from = w.get(i + 1).and_then(|s| s.parse().ok());
                i += 2;
            }
            "LIMIT" => {
                let a: Option<u64> = w.get(i + 1).and_then(|s| s.parse().ok());
                if w.get(i + 2).map(String::as_str) == Some(",") {
                    let b: Option<u64> = w.get(i + 3).and_then(|s| s.parse().ok());
                    limit = a.zip(b);
                    i += 4;
                } else {
                    limit = a.map(|n| (0, n));
                    i += 2;
                }
            }
            _ => return Err(SqlError::parse(text, 1)),
        }
    }
    Ok(Statement::Show { what: Show::BinlogEvents { file, from, limit }, filter: None })
}

fn ident(i: &sp::Ident) -> String {
    i.value.clone()
}

pub(crate) fn object_name(name: &sp::ObjectName) -> SqlResult<ObjectName> {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|p| p.as_ident().map(ident).ok_or_else(|| SqlError::parse(&name.to_string(), 1)))
        .collect::<SqlResult<_>>()?;
    match parts.as_slice() {
        [name] => Ok(ObjectName { db: None, name: name.clone() }),
        [db, name] => Ok(ObjectName { db: Some(db.clone()), name: name.clone() }),
        _ => Err(SqlError::parse(&name.to_string(), 1)),
    }
}

fn convert_statement(stmt: &sp::Statement, params: &mut ParamCounter) -> SqlResult<Statement> {
    use sp::Statement as S;
    Ok(match stmt {
        S::Query(q) => Statement::Select(Box::new(expr::convert_query(q, params)?)),
        S::Insert(ins) => Statement::Insert(expr::convert_insert(ins, params)?),
        S::Update(upd) => Statement::Update(expr::convert_update(upd, params)?),
        S::Delete(del) => Statement::Delete(expr::convert_delete(del, params)?),
        S::CreateTable(ct) => Statement::CreateTable(ddl::convert_create_table(ct, params)?),
        S::CreateIndex(ci) => ddl::convert_create_index(ci)?,
        S::AlterTable(at) => ddl::convert_alter_table(at)?,
        S::RenameTable(renames) => alter::convert_rename(renames)?,
        S::Drop { object_type, if_exists, names, table, temporary, .. } => {
            ddl::convert_drop(object_type, *if_exists, *temporary, names, table.as_ref())?
        }
        S::Execute { name: Some(name), parameters, using, immediate: false, into, .. }
            if parameters.is_empty() && into.is_empty() =>
        {
            let using = using.iter().map(|u| convert_expr(&u.expr, params)).collect::<SqlResult<_>>()?;
            Statement::Execute { name: object_name(name)?.name, using }
        }
        S::Deallocate { name, .. } => Statement::Deallocate(name.value.clone()),
        S::Truncate(t) => {
            let first = t.table_names.first().ok_or_else(|| SqlError::parse("TRUNCATE", 1))?;
            Statement::Truncate(object_name(&first.name)?)
        }
        S::Use(u) => match u {
            sp::Use::Object(name) | sp::Use::Database(name) | sp::Use::Schema(name) => {
                Statement::Use(object_name(name)?.name)
            }
            other => Statement::Use(other.to_string()),
        },
        S::StartTransaction { modes, .. } => Statement::Begin {
            read_only: modes
                .iter()
                .any(|m| matches!(m, sp::TransactionMode::AccessMode(sp::TransactionAccessMode::ReadOnly))),
            consistent_snapshot: false,
        },
        S::Commit { .. } => Statement::Commit,
        S::Rollback { savepoint: Some(sp), .. } => Statement::RollbackToSavepoint(ident(sp)),
        S::Rollback { savepoint: None, .. } => Statement::Rollback,
        S::Savepoint { name } => Statement::Savepoint(ident(name)),
        S::ReleaseSavepoint { name } => Statement::ReleaseSavepoint(ident(name)),
        S::Set(set) => convert_set(set, params)?,
        S::ShowVariables { filter, global, .. } => Statement::Show {
            what: Show::Variables { global: *global },
            filter: convert_show_filter(filter.as_ref(), params)?,
        },
        S::ExplainTable { table_name, .. } => {
            Statement::Show { what: Show::Columns { table: object_name(table_name)?, full: false }, filter: None }
        }
        S::Explain { statement, .. } => {
            Statement::Explain { statement: Box::new(convert_statement(statement, params)?), mode: ExplainMode::Plain }
        }
        S::Kill { id, modifier, .. } => {
            Statement::Kill { id: *id, query_only: matches!(modifier, Some(sp::KillType::Query)) }
        }
        other => return Err(SqlError::not_supported(&first_words(&other.to_string()))),
    })
}

fn first_words(text: &str) -> String {
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn convert_show_filter(
    filter: Option<&sp::ShowStatementFilter>,
    params: &mut ParamCounter,
) -> SqlResult<Option<ShowFilter>> {
    Ok(match filter {
        Some(sp::ShowStatementFilter::Like(s)) => Some(ShowFilter::Like(s.clone())),
        Some(sp::ShowStatementFilter::Where(e)) => Some(ShowFilter::Where(convert_expr(e, params)?)),
        Some(sp::ShowStatementFilter::ILike(s)) => Some(ShowFilter::Like(s.clone())),
        _ => None,
    })
}

fn scope_of(modifier: Option<&sp::ContextModifier>) -> VarScope {
    match modifier {
        Some(sp::ContextModifier::Global) => VarScope::Global,
        Some(sp::ContextModifier::Session) | Some(sp::ContextModifier::Local) => VarScope::Session,
        None => VarScope::Default,
    }
}

/// `SET SESSION @x = ...`: GLOBAL, SESSION and LOCAL name system
/// variables only; MariaDB's grammar has no scope for a user variable.
fn no_scope_on_user_var(target: &SetTarget, scope: Option<&sp::ContextModifier>, name: &str) -> SqlResult<()> {
    match (target, scope) {
        (SetTarget::User(_), Some(_)) => Err(SqlError::parse(name, 1)),
        _ => Ok(()),
    }
}

/// `@@global.x`, `@@x`, `@x`, `global x`, or plain `x`.
fn set_target(name: &str, scope: VarScope) -> SetTarget {
    let lower = name.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("@@") {
        let (scope, var) = split_var_scope(rest);
        return SetTarget::System { scope, name: var };
    }
    if let Some(rest) = name.strip_prefix('@') {
        return SetTarget::User(rest.to_ascii_lowercase());
    }
    SetTarget::System { scope: if scope == VarScope::Default { VarScope::Session } else { scope }, name: lower }
}

pub(crate) fn split_var_scope(name: &str) -> (VarScope, String) {
    let lower = name.to_ascii_lowercase();
    if let Some(v) = lower.strip_prefix("global.") {
        (VarScope::Global, v.to_string())
    } else if let Some(v) = lower.strip_prefix("session.").or_else(|| lower.strip_prefix("local.")) {
        (VarScope::Session, v.to_string())
    } else {
        (VarScope::Default, lower)
    }
}

fn convert_set(set: &sp::Set, params: &mut ParamCounter) -> SqlResult<Statement> {
    Ok(match set {
        sp::Set::SingleAssignment { scope, variable, values, .. } => {
            let value = values.first().ok_or_else(|| SqlError::parse("SET", 1))?;
            let target = set_target(&variable.to_string(), scope_of(scope.as_ref()));
            no_scope_on_user_var(&target, scope.as_ref(), &variable.to_string())?;
            let value = set_value(&target, value, params)?;
            Statement::Set(vec![Assignment { target, value }])
        }
        sp::Set::MultipleAssignments { assignments } => {
            // `SET GLOBAL a = 1, b = 2` sets both globally: a GLOBAL or
            // SESSION keyword holds for the assignments after it.
            let mut scope = VarScope::Default;
            let assignments = assignments.iter().map(|a| {
                if a.scope.is_some() {
                    scope = scope_of(a.scope.as_ref());
                }
                let target = set_target(&a.name.to_string(), scope);
                no_scope_on_user_var(&target, a.scope.as_ref(), &a.name.to_string())?;
                let value = set_value(&target, &a.value, params)?;
                Ok(Assignment { target, value })
            });
            Statement::Set(assignments.collect::<SqlResult<_>>()?)
        }
        sp::Set::SetNames { charset_name, collation_name } => {
            let charset = ddl::charset_collation(&ident(charset_name))?;
            let collation = match collation_name {
                Some(c) => ddl::collation_of_charset(ddl::collation_named(c)?, charset)?,
                None => charset,
            };
            Statement::SetNames { collation }
        }
        sp::Set::SetNamesDefault {} => Statement::SetNames { collation: onelog_core::Collation::default() },
        sp::Set::SetTransaction { modes, session, .. } => {
            let mut isolation = None;
            let mut read_only = None;
            for mode in modes {
                match mode {
                    sp::TransactionMode::IsolationLevel(level) => {
                        isolation = Some(match level {
                            sp::TransactionIsolationLevel::ReadUncommitted => IsolationLevel::ReadUncommitted,
                            sp::TransactionIsolationLevel::ReadCommitted => IsolationLevel::ReadCommitted,
                            sp::TransactionIsolationLevel::RepeatableRead => IsolationLevel::RepeatableRead,
                            _ => IsolationLevel::Serializable,
                        })
                    }
                    sp::TransactionMode::AccessMode(m) => {
                        read_only = Some(matches!(m, sp::TransactionAccessMode::ReadOnly))
                    }
                }
            }
            let scope = if *session { VarScope::Session } else { VarScope::Default };
            Statement::SetTransaction { scope, isolation, read_only }
        }
        sp::Set::SetTimeZone { value, .. } => {
            let target = SetTarget::System { scope: VarScope::Session, name: "time_zone".into() };
            let value = set_value(&target, value, params)?;
            Statement::Set(vec![Assignment { target, value }])
        }
        other => return Err(SqlError::not_supported(&first_words(&other.to_string()))),
    })
}

/// A SET value. For a system variable a bare word (`SET autocommit=ON`,
/// `SET sql_mode=TRADITIONAL`) is a string value; a user variable's value
/// is an expression, where a bare word is a column (1054 in a SET, which
/// has none).
fn set_value(target: &SetTarget, value: &sp::Expr, params: &mut ParamCounter) -> SqlResult<Expr> {
    match value {
        // `@var` and `@@var` are variables here as anywhere else.
        sp::Expr::Identifier(id)
            if id.quote_style.is_none() && !id.value.starts_with('@') && !matches!(target, SetTarget::User(_)) =>
        {
            Ok(match id.value.to_ascii_uppercase().as_str() {
                "DEFAULT" => Expr::Default,
                _ => Expr::Literal(Value::from_str(&id.value)),
            })
        }
        other => convert_expr(other, params),
    }
}

pub(crate) fn unsupported(what: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorCode::NOT_SUPPORTED_YET, format!("This version of MariaDB doesn't yet support '{what}'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onelog_core::schema::ColumnDefault;

    fn create_table(sql: &str) -> CreateTable {
        match parse_single(sql).map(|p| p.statement) {
            Ok(Statement::CreateTable(ct)) => ct,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn an_unknown_show_quotes_the_text_as_written_and_the_lexers_line() {
        let err = parse_single("show spatial_ref_sys\n--error X\nshow x").expect_err("1064");
        assert!(err.message.contains("near 'spatial_ref_sys\n--error X\nshow x' at line 2"), "{}", err.message);
        let err = parse_single("SHOW foo bar").expect_err("1064");
        assert!(err.message.contains("near 'foo bar' at line 1"), "{}", err.message);
    }

    #[test]
    fn create_table_like_in_both_spellings() {
        let plain = create_table("CREATE TABLE t2 LIKE t1");
        assert_eq!(plain.like, Some(ObjectName { db: None, name: "t1".into() }));
        let parenthesized = create_table("CREATE TABLE IF NOT EXISTS t2 (LIKE d.t1)");
        assert_eq!(parenthesized.like, Some(ObjectName { db: Some("d".into()), name: "t1".into() }));
        assert!(parenthesized.if_not_exists && parenthesized.columns.is_empty());
    }

    #[test]
    fn create_table_select_duplicates_keyword_and_parentheses() {
        let cases = [
            ("CREATE TABLE t (PRIMARY KEY (a)) IGNORE SELECT a FROM s", CreateSelectDuplicates::Ignore, 1),
            ("CREATE TABLE t REPLACE AS SELECT 1 AS a", CreateSelectDuplicates::Replace, 0),
            ("CREATE TABLE t (a INT) IGNORE (SELECT 1 AS a)", CreateSelectDuplicates::Ignore, 0),
            ("CREATE TABLE t SELECT REPLACE('a', 'b', 'c') AS r", CreateSelectDuplicates::Error, 0),
            ("CREATE TABLE t (SELECT 1 AS a)", CreateSelectDuplicates::Error, 0),
            ("CREATE TABLE t ENGINE=InnoDB AS (SELECT 1 AS a)", CreateSelectDuplicates::Error, 0),
            ("CREATE TABLE t WITH c AS (SELECT 1 AS a) SELECT a FROM c", CreateSelectDuplicates::Error, 0),
            (
                "CREATE TABLE t IGNORE WITH RECURSIVE c (a) AS (SELECT 1) SELECT a FROM c",
                CreateSelectDuplicates::Ignore,
                0,
            ),
            ("CREATE TABLE t AS WITH c AS (SELECT 1 AS a) SELECT a FROM c", CreateSelectDuplicates::Error, 0),
        ];
        for (sql, duplicates, indexes) in cases {
            let ct = create_table(sql);
            assert!(ct.select.is_some(), "{sql}");
            assert_eq!((ct.on_duplicate, ct.indexes.len()), (duplicates, indexes), "{sql}");
        }
    }

    #[test]
    fn create_table_select_keeps_string_text() {
        let ct = create_table("CREATE TABLE t (a VARCHAR(30) DEFAULT 'it''s IGNORE') IGNORE SELECT 'x' AS a");
        assert_eq!(ct.on_duplicate, CreateSelectDuplicates::Ignore);
        assert_eq!(ct.columns[0].default, Some(ColumnDefault::Value(Value::from_str("it's IGNORE"))));
    }
}
