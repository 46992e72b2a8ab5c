//! Stored routines' syntax, read from sqlparser's tokens (sqlparser knows
//! neither MariaDB's routine DDL nor its compound statements):
//! `CREATE [OR REPLACE] [DEFINER = ..] PROCEDURE | FUNCTION`, `DROP
//! PROCEDURE | FUNCTION`, `CALL`, and the body language — BEGIN ... END
//! blocks, DECLARE (variables, conditions, cursors, handlers), SET, IF,
//! CASE, WHILE, REPEAT, LOOP, LEAVE, ITERATE, RETURN, OPEN / FETCH / CLOSE,
//! SIGNAL and ordinary statements. Local variables are resolved here, by
//! scope: inside an ordinary statement or expression each reference becomes
//! a `?` parameter, and the statement parser reads the result, so the
//! executor binds the variables' values as a prepared statement's.
//!
//! [`BlockDepth`] keeps the statement splitter from cutting a routine's
//! body at the semicolons inside it.

use super::view::{definer, significant_tokens, Tokens};
use super::{parse_with_params, split_statements};
use crate::ast::{Expr, ObjectName, Statement, VarScope};
use onelog_core::{ColumnDef, ErrorCode, SqlError, SqlResult};
use sqlparser::tokenizer::Token;
use std::sync::Arc;

use crate::ast::trigger::RowReference;

pub use crate::ast::routine::*;

mod limit_vars;
mod undeclared;

/// What a label names: ITERATE only continues loops.
#[derive(Clone, Copy, PartialEq)]
enum LabelKind {
    Block,
    Loop,
}

/// Body parser state: the tokens, the variables, conditions and cursors in
/// scope (innermost last) and the enclosing labels.
struct BodyParser<'a> {
    t: Tokens<'a>,
    vars: Vec<Vec<String>>,
    conditions: Vec<(String, Condition)>,
    /// The cursors in scope, with their parameter counts.
    cursors: Vec<Vec<(String, usize)>>,
    labels: Vec<(String, LabelKind)>,
    kind: RoutineKind,
    /// A trigger's body: its `NEW.col` / `OLD.col` references, found while
    /// rewriting (`None` in a routine, where NEW and OLD are plain names).
    row_references: Option<std::cell::RefCell<Vec<RowReference>>>,
    /// The records of the FOR loops around the statement being read:
    /// `rec.col` is the variable `record_field(rec, col)`.
    records: Vec<String>,
    /// The ROW variables in scope: the depth of `vars` they were declared
    /// at, the name, and the field names when the declaration gives them.
    rows: Vec<(usize, String, Option<Vec<String>>)>,
    /// The variables in scope (a ROW's fields as `rec.field`): the depth
    /// of `vars` they were declared at, the name, and whether their type
    /// is an integer as the body is read (see `limit_vars`).
    integer_vars: Vec<(usize, String, bool)>,
}

const STATEMENT_WORDS: [&str; 13] =
    ["BEGIN", "IF", "CASE", "WHILE", "REPEAT", "LOOP", "FOR", "RETURN", "SELECT", "INSERT", "UPDATE", "DELETE", "SET"];

/// An expression's text as the statement splitter rewrites it (MOD,
/// charset introducers), parsed.
fn parse_expr(text: &str) -> SqlResult<Expr> {
    match split_statements(text)?.as_slice() {
        [(_, rewritten)] => super::parse_expr_text(rewritten),
        _ => Err(SqlError::parse(text, 1)),
    }
}

/// Parses `CREATE ... PROCEDURE | FUNCTION` (`Ok(None)` for other CREATEs).
pub(crate) fn parse_create_routine(text: &str) -> SqlResult<Option<CreateRoutine>> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 0 };
    if t.keyword(0).as_deref() != Some("CREATE") {
        return Ok(None);
    }
    t.at = 1;
    let or_replace = t.eat("OR");
    if or_replace {
        t.expect("REPLACE")?;
    }
    let definer = if t.eat("DEFINER") { definer(&mut t)? } else { None };
    t.eat("AGGREGATE");
    let kind = if t.eat("PROCEDURE") {
        RoutineKind::Procedure
    } else if t.eat("FUNCTION") {
        RoutineKind::Function
    } else {
        return Ok(None);
    };
    let if_not_exists = if_not_exists(&mut t, or_replace)?;
    let name = object_name(&mut t)?;
    let (params_text, params) = parameter_list(&mut t)?;
    let mut returns_text = None;
    let mut returns = None;
    if kind == RoutineKind::Function {
        t.expect("RETURNS")?;
        let start = t.tokens.get(t.at).map(|x| x.1).ok_or_else(|| t.error())?;
        let mut depth = 0usize;
        while let Some((tok, _, _)) = t.tokens.get(t.at) {
            match tok {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ if depth == 0 && starts_characteristic_or_body(&t, t.at) => break,
                _ => {}
            }
            t.at += 1;
        }
        let end = t.tokens.get(t.at).map_or(text.len(), |x| x.1);
        let type_text = text[start..end].trim().to_string();
        returns = Some(column_type(&type_text)?);
        returns_text = Some(type_text);
    }
    let characteristics = characteristics(&mut t)?;
    let body_start = t.tokens.get(t.at).map(|x| x.1).ok_or_else(|| t.error())?;
    let body_text = text[body_start..].trim().trim_end_matches(';').trim_end().to_string();
    let mut parser = BodyParser::new(Tokens { text, tokens: t.tokens.clone(), at: t.at }, kind, Vec::new());
    parser.declare_params(&params);
    let body = parser.whole_statement()?;
    if kind == RoutineKind::Function && !contains_return(&body) {
        return Err(SqlError::new(ErrorCode::SP_NORETURN, format!("No RETURN found in FUNCTION {}", name.name)));
    }
    if kind == RoutineKind::Function {
        refuse_in_function_or_trigger(&body, "function")?;
    }
    Ok(Some(CreateRoutine {
        kind,
        name,
        or_replace,
        if_not_exists,
        definer,
        params_text,
        returns_text,
        characteristics,
        body_text,
        routine: Arc::new(Routine { kind, params, returns, body }),
        defined: None,
    }))
}

/// PREPARE, EXECUTE and DEALLOCATE: what a stored function or trigger may
/// not run (1336), not even through a procedure it calls.
pub(crate) fn is_dynamic_sql(statement: &Statement) -> bool {
    matches!(
        statement,
        Statement::Prepare { .. }
            | Statement::Execute { .. }
            | Statement::ExecuteImmediate { .. }
            | Statement::Deallocate(_)
    )
}

/// A statement that commits, explicitly or implicitly: what a stored
/// function or trigger may not run (1422). A temporary table's CREATE or
/// DROP does not commit.
pub(crate) fn commits(statement: &Statement) -> bool {
    match statement {
        Statement::CreateTable(ct) => !ct.temporary,
        Statement::Begin { .. } | Statement::Commit | Statement::Rollback => true,
        statement => statement.is_ddl(),
    }
}

/// Error 1336 for what a stored function or trigger may not run.
pub(crate) fn not_in_function(what: &str) -> SqlError {
    SqlError::new(
        ErrorCode { number: 1336, sqlstate: "0A000" },
        format!("{what} is not allowed in stored function or trigger"),
    )
}

pub(crate) fn dynamic_sql_error() -> SqlError {
    not_in_function("Dynamic SQL")
}

pub(crate) fn commit_in_function_error() -> SqlError {
    SqlError::new(
        ErrorCode { number: 1422, sqlstate: "HY000" },
        "Explicit or implicit commit is not allowed in stored function or trigger",
    )
}

/// MariaDB's parse-time 1336 for PREPARE, EXECUTE and DEALLOCATE in a
/// stored function's or a trigger's body.
pub(crate) fn refuse_dynamic_sql(body: &SpStmt) -> SqlResult<()> {
    match any_statement(body, &|s| matches!(s, SpStmt::Sql(sql) if is_dynamic_sql(&sql.statement))) {
        true => Err(dynamic_sql_error()),
        false => Ok(()),
    }
}

/// MariaDB's parse-time checks of a function's or trigger's body (`what`):
/// no dynamic SQL (1336), no result sets (1415), no statement that commits
/// (1422).
pub(crate) fn refuse_in_function_or_trigger(body: &SpStmt, what: &str) -> SqlResult<()> {
    refuse_dynamic_sql(body)?;
    let returns_rows = |s: &SpStmt| matches!(s, SpStmt::Sql(sql) if sql.into.is_empty() && matches!(sql.statement, Statement::Select(_) | Statement::Show { .. }));
    if any_statement(body, &returns_rows) {
        return Err(SqlError::new(
            ErrorCode::SP_NO_RETSET,
            format!("Not allowed to return a result set from a {what}"),
        ));
    }
    match any_statement(body, &|s| matches!(s, SpStmt::Sql(sql) if commits(&sql.statement))) {
        true => Err(commit_in_function_error()),
        false => Ok(()),
    }
}

fn contains_return(stmt: &SpStmt) -> bool {
    any_statement(stmt, &|s| matches!(s, SpStmt::Return(_)))
}

/// Whether `stmt` or a statement nested in it satisfies `pred`.
pub(crate) fn any_statement(stmt: &SpStmt, pred: &dyn Fn(&SpStmt) -> bool) -> bool {
    let any = |list: &[SpStmt]| list.iter().any(|s| any_statement(s, pred));
    pred(stmt)
        || match stmt {
            SpStmt::Block { body, .. } | SpStmt::Loop { body, .. } => any(body),
            SpStmt::If { branches: arms, otherwise } | SpStmt::Case { whens: arms, otherwise, .. } => {
                arms.iter().any(|(_, b)| any(b)) || otherwise.as_deref().is_some_and(any)
            }
            SpStmt::DeclareHandler { body, .. } => any_statement(body, pred),
            _ => false,
        }
}

/// Whether the token at `i` ends a RETURNS type: a characteristic or the
/// body's first word.
fn starts_characteristic_or_body(t: &Tokens, i: usize) -> bool {
    let Some(word) = t.keyword(i) else { return false };
    // `CHARACTER SET latin1` is part of the type.
    if word == "SET" && i > 0 && t.keyword(i - 1).as_deref() == Some("CHARACTER") {
        return false;
    }
    matches!(
        word.as_str(),
        "COMMENT" | "LANGUAGE" | "NOT" | "DETERMINISTIC" | "CONTAINS" | "NO" | "READS" | "MODIFIES" | "SQL"
    ) || STATEMENT_WORDS.contains(&word.as_str())
        || matches!(word.as_str(), "DECLARE" | "CALL" | "SIGNAL")
        || matches!(t.tokens.get(i + 1), Some((Token::Colon, _, _)))
}

fn characteristics(t: &mut Tokens) -> SqlResult<Characteristics> {
    let mut c = Characteristics::default();
    while let Some(one) = characteristic(t, true)? {
        one.apply(&mut c);
    }
    Ok(c)
}

/// The characteristic at the cursor, if any. ALTER takes all but
/// [NOT] DETERMINISTIC (`deterministic` false), as MariaDB's grammar.
fn characteristic(t: &mut Tokens, deterministic: bool) -> SqlResult<Option<Characteristic>> {
    let one = if t.eat("COMMENT") {
        match t.tokens.get(t.at) {
            Some((Token::SingleQuotedString(s) | Token::DoubleQuotedString(s), _, _)) => {
                t.at += 1;
                Characteristic::Comment(s.clone())
            }
            _ => return Err(t.error()),
        }
    } else if t.eat("LANGUAGE") {
        t.expect("SQL")?;
        Characteristic::LanguageSql
    } else if deterministic && t.eat("DETERMINISTIC") {
        Characteristic::Deterministic(true)
    } else if deterministic && next_words(t, "NOT", "DETERMINISTIC") {
        t.at += 2;
        Characteristic::Deterministic(false)
    } else if t.eat("CONTAINS") {
        t.expect("SQL")?;
        Characteristic::DataAccess("CONTAINS SQL")
    } else if t.eat("NO") {
        t.expect("SQL")?;
        Characteristic::DataAccess("NO SQL")
    } else if t.eat("READS") {
        t.expect("SQL")?;
        t.expect("DATA")?;
        Characteristic::DataAccess("READS SQL DATA")
    } else if t.eat("MODIFIES") {
        t.expect("SQL")?;
        t.expect("DATA")?;
        Characteristic::DataAccess("MODIFIES SQL DATA")
    } else if next_words(t, "SQL", "SECURITY") {
        t.at += 2;
        let security = match t.keyword(t.at).as_deref() {
            Some(w @ ("DEFINER" | "INVOKER")) => w.to_string(),
            _ => return Err(t.error()),
        };
        t.at += 1;
        Characteristic::Security(security)
    } else {
        return Ok(None);
    };
    Ok(Some(one))
}

/// Whether the next two words are `first second`.
fn next_words(t: &Tokens, first: &str, second: &str) -> bool {
    t.keyword(t.at).as_deref() == Some(first) && t.keyword(t.at + 1).as_deref() == Some(second)
}

/// `ALTER PROCEDURE | FUNCTION name [characteristic ...]` (`Ok(None)` for
/// other ALTERs).
pub(crate) fn parse_alter_routine(text: &str) -> SqlResult<Option<Statement>> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 0 };
    let kind = match (t.keyword(0).as_deref(), t.keyword(1).as_deref()) {
        (Some("ALTER"), Some("PROCEDURE")) => RoutineKind::Procedure,
        (Some("ALTER"), Some("FUNCTION")) => RoutineKind::Function,
        _ => return Ok(None),
    };
    t.at = 2;
    let name = object_name(&mut t)?;
    let mut changes = Vec::new();
    while let Some(one) = characteristic(&mut t, false)? {
        changes.push(one);
    }
    if t.at < t.tokens.len() && !t.next_is(&Token::SemiColon) {
        return Err(t.error());
    }
    Ok(Some(Statement::AlterRoutine { kind, name, changes }))
}

/// A CREATE's `IF NOT EXISTS`, which MariaDB refuses beside OR REPLACE
/// (1221).
pub(super) fn if_not_exists(t: &mut Tokens, or_replace: bool) -> SqlResult<bool> {
    if !t.eat("IF") {
        return Ok(false);
    }
    t.expect("NOT")?;
    t.expect("EXISTS")?;
    if or_replace {
        return Err(SqlError::new(ErrorCode::WRONG_USAGE, "Incorrect usage of OR REPLACE and IF NOT EXISTS"));
    }
    Ok(true)
}

pub(super) fn object_name(t: &mut Tokens) -> SqlResult<ObjectName> {
    let first = t.ident()?;
    Ok(if t.next_is(&Token::Period) {
        t.at += 1;
        ObjectName { db: Some(first), name: t.ident()? }
    } else {
        ObjectName { db: None, name: first }
    })
}

/// The index of the `)` matching the `(` at `open`.
fn matching_paren(t: &Tokens, open: usize) -> SqlResult<usize> {
    let mut depth = 0usize;
    for (i, (tok, _, _)) in t.tokens.iter().enumerate().skip(open) {
        match tok {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(t.error())
}

/// Token index ranges of the comma-separated items in `[from, to)`, split
/// at top-level commas.
fn split_commas(t: &Tokens, from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, from);
    for i in from..to {
        match t.tokens[i].0 {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Comma if depth == 0 => {
                items.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < to {
        items.push((start, to));
    }
    items
}

/// A cursor's parameters: IN only.
fn cursor_parameters(t: &mut Tokens) -> SqlResult<Vec<RoutineParam>> {
    let (_, params) = parameter_list(t)?;
    if params.iter().any(|p| p.mode != ParamMode::In) {
        return Err(SqlError::not_supported("OUT/INOUT cursor parameter"));
    }
    Ok(params)
}

fn parameter_list(t: &mut Tokens) -> SqlResult<(String, Vec<RoutineParam>)> {
    if !t.next_is(&Token::LParen) {
        return Err(t.error());
    }
    let open = t.at;
    let close = matching_paren(t, open)?;
    let text = t.text[t.tokens[open].2..t.tokens[close].1].to_string();
    let mut params: Vec<RoutineParam> = Vec::new();
    for (from, to) in split_commas(t, open + 1, close) {
        t.at = from;
        // Functions take OUT and INOUT parameters too (MariaDB 10.8+);
        // where a call may pass them is checked as it runs.
        let mode = if t.eat("INOUT") {
            ParamMode::InOut
        } else if t.eat("OUT") {
            ParamMode::Out
        } else {
            t.eat("IN");
            ParamMode::In
        };
        let name = t.ident()?;
        if t.at >= to {
            return Err(t.error());
        }
        if params.iter().any(|p| p.name.eq_ignore_ascii_case(&name)) {
            return Err(SqlError::new(
                ErrorCode { number: 1330, sqlstate: "42000" },
                format!("Duplicate parameter: {name}"),
            ));
        }
        let ty = match parameter_type(t, t.at, to)? {
            VarType::Scalar(ty) => VarType::Scalar(ColumnDef { name: name.clone(), ..ty }),
            ty => ty,
        };
        params.push(RoutineParam { mode, ty, name });
    }
    t.at = close + 1;
    Ok((text, params))
}

/// A parameter's type in tokens `[from, to)`: what a DECLARE takes, read
/// with no variables or cursors in scope.
fn parameter_type(t: &Tokens, from: usize, to: usize) -> SqlResult<VarType> {
    let mut reader = BodyParser::new(
        Tokens { text: t.text, tokens: t.tokens.clone(), at: from },
        RoutineKind::Procedure,
        Vec::new(),
    );
    reader.vars.clear();
    reader.var_type(from, to)
}

/// The column definition a type's text gives, as a table column would get.
pub(crate) fn column_type(type_text: &str) -> SqlResult<ColumnDef> {
    let parsed = super::parse_single(&format!("CREATE TABLE routine_type (v {type_text})"))?;
    match parsed.statement {
        Statement::CreateTable(mut ct) if ct.columns.len() == 1 => Ok(ct.columns.remove(0)),
        _ => Err(SqlError::parse(type_text, 1)),
    }
}

/// `DROP PROCEDURE | FUNCTION [IF EXISTS] name`.
pub(crate) fn parse_drop_routine(text: &str) -> SqlResult<Option<Statement>> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 0 };
    let kind = match (t.keyword(0).as_deref(), t.keyword(1).as_deref()) {
        (Some("DROP"), Some("PROCEDURE")) => RoutineKind::Procedure,
        (Some("DROP"), Some("FUNCTION")) => RoutineKind::Function,
        _ => return Ok(None),
    };
    t.at = 2;
    let if_exists = t.eat("IF");
    if if_exists {
        t.expect("EXISTS")?;
    }
    let name = object_name(&mut t)?;
    if t.at < t.tokens.len() && !t.next_is(&Token::SemiColon) {
        return Err(t.error());
    }
    Ok(Some(Statement::DropRoutine { kind, name, if_exists }))
}

/// `SHOW CREATE PROCEDURE | FUNCTION name`, `SHOW PROCEDURE | FUNCTION
/// STATUS [LIKE 'p' | WHERE expr]` (`Ok(None)` for other SHOWs).
pub(crate) fn parse_show_routine(text: &str, upper: &[String]) -> SqlResult<Option<Statement>> {
    let kind_at = |i: usize| match upper.get(i).map(String::as_str) {
        Some("PROCEDURE") => Some(RoutineKind::Procedure),
        Some("FUNCTION") => Some(RoutineKind::Function),
        _ => None,
    };
    if upper.get(1).map(String::as_str) == Some("CREATE") {
        let Some(kind) = kind_at(2) else { return Ok(None) };
        let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 3 };
        let name = object_name(&mut t)?;
        if t.at < t.tokens.len() && !t.next_is(&Token::SemiColon) {
            return Err(t.error());
        }
        return Ok(Some(Statement::ShowCreateRoutine { kind, name }));
    }
    let word = |i: usize| upper.get(i).map(String::as_str);
    if matches!(word(1), Some("PROCEDURE" | "FUNCTION" | "PACKAGE")) && word(2) == Some("CODE") {
        // MariaDB's grammar refuses it outside a debug build; OneLog keeps
        // no instruction list to show.
        return Err(SqlError::new(
            ErrorCode::FEATURE_DISABLED,
            "The 'SHOW PROCEDURE|FUNCTION CODE' feature is disabled; you need MariaDB built with '--with-debug' to have it working",
        ));
    }
    let (kind, filter_at) = match (word(1), word(2), word(3)) {
        (Some("PACKAGE"), Some("STATUS"), _) => (None, 3),
        (Some("PACKAGE"), Some("BODY"), Some("STATUS")) => (None, 4),
        (_, Some("STATUS"), _) => match kind_at(1) {
            Some(kind) => (Some(kind), 3),
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let t = Tokens { text, tokens: significant_tokens(text)?, at: filter_at };
    let filter = match t.keyword(filter_at).as_deref() {
        None => None,
        Some("LIKE") => match t.tokens.get(filter_at + 1) {
            Some((Token::SingleQuotedString(p) | Token::DoubleQuotedString(p), _, _)) => {
                Some(crate::ast::ShowFilter::Like(p.clone()))
            }
            _ => return Err(t.error()),
        },
        Some("WHERE") => {
            let start = t.tokens.get(filter_at + 1).map(|x| x.1).ok_or_else(|| t.error())?;
            Some(crate::ast::ShowFilter::Where(parse_expr(text[start..].trim_end_matches(';'))?))
        }
        _ => return Err(t.error()),
    };
    Ok(Some(Statement::ShowRoutineStatus { kind, filter }))
}

/// `CALL name [(args)]` at the top level.
/// A compound statement a client sends on its own: `BEGIN NOT ATOMIC ...
/// END`, IF, CASE, LOOP, WHILE, REPEAT, FOR, SIGNAL, RESIGNAL and GET
/// DIAGNOSTICS (`Ok(None)` for other statements). MariaDB takes no label
/// there.
pub(crate) fn parse_compound(text: &str, upper: &[String]) -> SqlResult<Option<Statement>> {
    let word = |i: usize| upper.get(i).map(String::as_str);
    let starts_compound = match word(0) {
        Some("BEGIN") => word(1) == Some("NOT"),
        Some("IF" | "CASE" | "LOOP" | "WHILE" | "REPEAT" | "FOR" | "SIGNAL" | "RESIGNAL") => true,
        Some("GET") => matches!(word(1), Some("DIAGNOSTICS" | "CURRENT")),
        _ => false,
    };
    if !starts_compound {
        return Ok(None);
    }
    let tokens = significant_tokens(text)?;
    let mut parser = BodyParser::new(Tokens { text, tokens, at: 0 }, RoutineKind::Procedure, Vec::new());
    let body = parser.whole_statement()?;
    let reads_diagnostics = matches!(body, SpStmt::GetDiagnostics(_));
    Ok(Some(Statement::Compound(Arc::new(Compound { body, reads_diagnostics }))))
}

pub(crate) fn parse_call(text: &str) -> SqlResult<Statement> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 1 };
    let name = object_name(&mut t)?;
    let mut args = Vec::new();
    if t.next_is(&Token::LParen) {
        let close = matching_paren(&t, t.at)?;
        for (from, to) in split_commas(&t, t.at + 1, close) {
            args.push(parse_expr(&text[t.tokens[from].1..t.tokens[to - 1].2])?);
        }
        t.at = close + 1;
    }
    if t.at < t.tokens.len() {
        return Err(t.error());
    }
    Ok(Statement::Call { name, args })
}

impl<'a> BodyParser<'a> {
    /// A reader of a body from `t`'s position on, whose outermost scope
    /// holds `params`.
    fn new(t: Tokens<'a>, kind: RoutineKind, params: Vec<String>) -> BodyParser<'a> {
        BodyParser {
            t,
            vars: vec![params],
            conditions: Vec::new(),
            cursors: vec![Vec::new()],
            labels: Vec::new(),
            kind,
            row_references: None,
            records: Vec::new(),
            rows: Vec::new(),
            integer_vars: Vec::new(),
        }
    }

    /// The one statement the text holds from here (trailing `;`s allowed).
    fn whole_statement(&mut self) -> SqlResult<SpStmt> {
        let body = self.statement()?;
        while self.t.next_is(&Token::SemiColon) {
            self.t.at += 1;
        }
        if self.t.at < self.t.tokens.len() {
            return Err(self.t.error());
        }
        Ok(body)
    }

    fn word(&self) -> Option<String> {
        self.t.keyword(self.t.at)
    }

    /// Declares `params` in the innermost scope: each a variable, a ROW
    /// parameter's fields as a DECLARE's.
    fn declare_params(&mut self, params: &[RoutineParam]) {
        let depth = self.vars.len();
        for p in params {
            if let Some(scope) = self.vars.last_mut() {
                scope.push(p.name.clone());
            }
            if p.ty.is_row() {
                self.rows.push((depth, p.name.clone(), p.ty.explicit_fields()));
            }
            self.note_declared_types(std::slice::from_ref(&p.name), &p.ty);
        }
    }

    /// Leaves the innermost scope, forgetting what was declared in it.
    fn leave_scope(&mut self) {
        self.vars.pop();
        let depth = self.vars.len();
        self.rows.retain(|(declared_at, _, _)| *declared_at <= depth);
        self.forget_var_types();
    }

    fn is_var(&self, name: &str) -> bool {
        self.vars.iter().flatten().any(|v| v.eq_ignore_ascii_case(name))
    }

    fn start_of(&self, i: usize) -> usize {
        self.t.tokens.get(i).map_or(self.t.text.len(), |x| x.1)
    }

    fn end_of(&self, i: usize) -> usize {
        i.checked_sub(1).and_then(|j| self.t.tokens.get(j)).map_or(0, |x| x.2)
    }

    fn expect_semicolon(&mut self) -> SqlResult<()> {
        if self.t.next_is(&Token::SemiColon) {
            self.t.at += 1;
            Ok(())
        } else {
            Err(self.t.error())
        }
    }

    /// Statements up to (not including) one of the `stops` words.
    fn statements_until(&mut self, stops: &[&str]) -> SqlResult<Vec<SpStmt>> {
        let mut out = Vec::new();
        loop {
            match self.word() {
                Some(w) if stops.contains(&w.as_str()) => return Ok(out),
                None if self.t.at >= self.t.tokens.len() => return Err(self.t.error()),
                _ => {}
            }
            out.push(self.statement()?);
            self.expect_semicolon()?;
        }
    }

    fn statement(&mut self) -> SqlResult<SpStmt> {
        // `label: BEGIN | LOOP | WHILE | REPEAT`.
        let label = match self.t.tokens.get(self.t.at + 1) {
            Some((Token::Colon, _, _)) if matches!(self.t.tokens.get(self.t.at), Some((Token::Word(_), _, _))) => {
                let l = self.t.ident()?;
                self.t.at += 1;
                Some(l)
            }
            _ => None,
        };
        let word = self.word().unwrap_or_default();
        if label.is_some() && !matches!(word.as_str(), "BEGIN" | "LOOP" | "WHILE" | "REPEAT" | "FOR") {
            return Err(self.t.error());
        }
        match word.as_str() {
            "BEGIN"
                if !matches!(self.t.keyword(self.t.at + 1).as_deref(), Some("WORK")) && !self.next_is_semicolon(1) =>
            {
                self.block(label)
            }
            "LOOP" | "WHILE" | "REPEAT" => self.loop_statement(label, &word),
            "FOR" => self.for_statement(label),
            "IF" => self.if_statement(),
            "CASE" => self.case_statement(),
            "DECLARE" => self.declare(),
            "SET" if self.sets_variables() => self.set_statement(),
            "LEAVE" | "ITERATE" => {
                self.t.at += 1;
                let target = self.t.ident()?;
                let found = self.labels.iter().rev().find(|(l, _)| l.eq_ignore_ascii_case(&target));
                match found {
                    Some((_, kind)) if word == "LEAVE" || *kind == LabelKind::Loop => {}
                    _ => {
                        return Err(SqlError::new(
                            ErrorCode::SP_LILABEL_MISMATCH,
                            format!("{word} with no matching label: {target}"),
                        ))
                    }
                }
                Ok(if word == "LEAVE" { SpStmt::Leave(target) } else { SpStmt::Iterate(target) })
            }
            "RETURN" => {
                if self.kind != RoutineKind::Function {
                    return Err(SqlError::new(ErrorCode::SP_BADRETURN, "RETURN is only allowed in a FUNCTION"));
                }
                self.t.at += 1;
                Ok(SpStmt::Return(self.var_expr_until(&[])?))
            }
            "OPEN" => {
                self.t.at += 1;
                let (cursor, args) = self.cursor_with_args()?;
                Ok(SpStmt::Open { cursor, args })
            }
            "CLOSE" => {
                self.t.at += 1;
                Ok(SpStmt::Close(self.cursor_name()?))
            }
            "FETCH" => self.fetch(),
            "SIGNAL" => self.signal(false),
            "RESIGNAL" => self.signal(true),
            "GET" => self.get_diagnostics(),
            "CALL" => self.call(),
            _ => Ok(SpStmt::Sql(self.sql()?)),
        }
    }

    /// `rec.col` at token `i` (before `to`) where `rec` is a FOR loop's
    /// record: its variable and where it ends.
    fn record_field_at(&self, i: usize, to: usize) -> Option<(String, usize)> {
        let Some((Token::Word(record), _, _)) = self.t.tokens.get(i) else { return None };
        let is_record =
            self.records.iter().any(|r| r.eq_ignore_ascii_case(&record.value)) || self.row_var(&record.value).is_some();
        if !is_record || i + 2 >= to {
            return None;
        }
        if i > 0 && matches!(self.t.tokens[i - 1].0, Token::Period) {
            return None;
        }
        match (self.t.tokens.get(i + 1), self.t.tokens.get(i + 2)) {
            (Some((Token::Period, _, _)), Some((Token::Word(column), _, end))) => {
                Some((record_field(&record.value, &column.value), *end))
            }
            _ => None,
        }
    }

    fn next_is_semicolon(&self, ahead: usize) -> bool {
        matches!(self.t.tokens.get(self.t.at + ahead), Some((Token::SemiColon, _, _)) | None)
    }

    /// `SET` of variables, not `SET NAMES`, `SET [GLOBAL] TRANSACTION` ...,
    /// which run as statements.
    fn sets_variables(&self) -> bool {
        let word = |ahead: usize| self.t.keyword(self.t.at + ahead).unwrap_or_default();
        let first = word(1);
        let special = ["NAMES", "CHARACTER", "CHARSET", "TRANSACTION", "PASSWORD", "ROLE", "DEFAULT", "STATEMENT"];
        let sets_transaction = matches!(first.as_str(), "GLOBAL" | "SESSION" | "LOCAL") && word(2) == "TRANSACTION";
        !(special.contains(&first.as_str()) || sets_transaction)
    }

    fn block(&mut self, label: Option<String>) -> SqlResult<SpStmt> {
        self.t.at += 1;
        // `BEGIN NOT ATOMIC`: MariaDB's only kind of block.
        if self.t.keyword(self.t.at).as_deref() == Some("NOT") {
            self.t.at += 1;
            self.t.expect("ATOMIC")?;
        }
        self.vars.push(Vec::new());
        self.cursors.push(Vec::new());
        let conditions = self.conditions.len();
        if let Some(l) = &label {
            self.labels.push((l.clone(), LabelKind::Block));
        }
        let body = self.statements_until(&["END"]);
        self.leave_scope();
        self.cursors.pop();
        self.conditions.truncate(conditions);
        if label.is_some() {
            self.labels.pop();
        }
        let body = body?;
        self.t.expect("END")?;
        self.end_label(&label)?;
        Ok(SpStmt::Block { label, body })
    }

    /// An optional label after END must repeat the statement's.
    fn end_label(&mut self, label: &Option<String>) -> SqlResult<()> {
        if let Some((Token::Word(w), _, _)) = self.t.tokens.get(self.t.at) {
            if w.quote_style.is_some() || !matches!(w.value.to_ascii_uppercase().as_str(), "UNTIL" | "END") {
                if label.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(&w.value)) {
                    self.t.at += 1;
                } else {
                    return Err(SqlError::new(
                        ErrorCode::SP_LILABEL_MISMATCH,
                        format!("end-label {} without match", w.value),
                    ));
                }
            }
        }
        Ok(())
    }

    fn loop_statement(&mut self, label: Option<String>, word: &str) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let condition = if word == "WHILE" {
            let c = self.var_expr_until(&["DO"])?;
            self.t.expect("DO")?;
            Some(c)
        } else {
            None
        };
        if let Some(l) = &label {
            self.labels.push((l.clone(), LabelKind::Loop));
        }
        let body = self.statements_until(&[if word == "REPEAT" { "UNTIL" } else { "END" }]);
        if label.is_some() {
            self.labels.pop();
        }
        let body = body?;
        let kind = match (word, condition) {
            ("WHILE", Some(c)) => LoopKind::While(c),
            ("REPEAT", _) => {
                self.t.expect("UNTIL")?;
                LoopKind::Repeat(self.var_expr_until(&["END"])?)
            }
            _ => LoopKind::Plain,
        };
        self.t.expect("END")?;
        self.t.expect(word)?;
        self.end_label(&label)?;
        Ok(SpStmt::Loop { label, kind, body })
    }

    /// `FOR var IN [REVERSE] lower .. upper DO ... END FOR` and `FOR rec IN
    /// cursor | (SELECT ...) DO ... END FOR`.
    fn for_statement(&mut self, label: Option<String>) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let name = self.t.ident()?;
        self.t.expect("IN")?;
        let do_at = self.top_level_word(self.t.at, "DO").ok_or_else(|| self.t.error())?;
        let header = &self.t.text[self.start_of(self.t.at)..self.start_of(do_at)];
        let kind = match range_dots(header) {
            Some(dots) => {
                let reverse = self.t.keyword(self.t.at).as_deref() == Some("REVERSE");
                let lower_from = if reverse { self.end_of(self.t.at + 1) - self.start_of(self.t.at) } else { 0 };
                LoopKind::ForRange {
                    var: name.clone(),
                    lower: self.expr_of_text(&header[lower_from..dots])?,
                    upper: self.expr_of_text(&header[dots + 2..])?,
                    reverse,
                }
            }
            None if self.t.next_is(&Token::LParen) => {
                let close = matching_paren(&self.t, self.t.at)?;
                if close + 1 != do_at {
                    return Err(self.t.error_at(close + 1));
                }
                self.t.at += 1;
                let query = self.sql_until(close)?;
                LoopKind::ForRows { record: name.clone(), source: RowSource::Query(Box::new(query)) }
            }
            None => {
                let (cursor, args) = self.cursor_with_args()?;
                LoopKind::ForRows { record: name.clone(), source: RowSource::Cursor { name: cursor, args } }
            }
        };
        self.t.at = do_at + 1;
        let range = matches!(kind, LoopKind::ForRange { .. });
        if range {
            self.vars.push(vec![name.clone()]);
            self.note_integer_var(&name);
        } else {
            self.records.push(name);
        }
        if let Some(l) = &label {
            self.labels.push((l.clone(), LabelKind::Loop));
        }
        let body = self.statements_until(&["END"]);
        if label.is_some() {
            self.labels.pop();
        }
        if range {
            self.leave_scope();
        } else {
            self.records.pop();
        }
        let body = body?;
        self.t.expect("END")?;
        self.t.expect("FOR")?;
        self.end_label(&label)?;
        Ok(SpStmt::Loop { label, kind, body })
    }

    /// The index of `word` at the top level (outside parentheses) from
    /// `from` on, within the statement.
    fn top_level_word(&self, from: usize, word: &str) -> Option<usize> {
        let mut depth = 0usize;
        (from..self.statement_end()).find(|&i| {
            match self.t.tokens[i].0 {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && self.t.keyword(i).as_deref() == Some(word)
        })
    }

    /// An expression written as `text` (a piece of a token: a range bound
    /// such as the `1` of `1..3`), with this body's variables.
    fn expr_of_text(&self, text: &str) -> SqlResult<SpExpr> {
        let mut sub = BodyParser::new(Tokens { text, tokens: significant_tokens(text)?, at: 0 }, self.kind, Vec::new());
        sub.vars = self.vars.clone();
        sub.records = self.records.clone();
        sub.rows = self.rows.clone();
        sub.integer_vars = self.integer_vars.clone();
        let expr = sub.expr_until(&[])?;
        if sub.t.at < sub.t.tokens.len() {
            return Err(sub.t.error());
        }
        Ok(expr)
    }

    fn if_statement(&mut self) -> SqlResult<SpStmt> {
        let mut branches = Vec::new();
        let mut otherwise = None;
        loop {
            self.t.at += 1;
            let cond = self.var_expr_until(&["THEN"])?;
            self.t.expect("THEN")?;
            branches.push((cond, self.statements_until(&["ELSEIF", "ELSE", "END"])?));
            match self.word().as_deref() {
                Some("ELSEIF") => continue,
                Some("ELSE") => {
                    self.t.at += 1;
                    otherwise = Some(self.statements_until(&["END"])?);
                }
                _ => {}
            }
            break;
        }
        self.t.expect("END")?;
        self.t.expect("IF")?;
        Ok(SpStmt::If { branches, otherwise })
    }

    fn case_statement(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let operand = if self.word().as_deref() == Some("WHEN") { None } else { Some(self.var_expr_until(&["WHEN"])?) };
        let mut whens = Vec::new();
        while self.t.eat("WHEN") {
            let value = self.var_expr_until(&["THEN"])?;
            self.t.expect("THEN")?;
            whens.push((value, self.statements_until(&["WHEN", "ELSE", "END"])?));
        }
        let otherwise = if self.t.eat("ELSE") { Some(self.statements_until(&["END"])?) } else { None };
        self.t.expect("END")?;
        self.t.expect("CASE")?;
        Ok(SpStmt::Case { operand, whens, otherwise })
    }

    fn declare(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        match (self.word().as_deref(), self.t.keyword(self.t.at + 1).as_deref()) {
            (Some("CONTINUE" | "EXIT" | "UNDO"), Some("HANDLER")) => return self.declare_handler(),
            (_, Some("CURSOR")) => {
                let name = self.t.ident()?;
                self.t.at += 1;
                let params = match self.t.next_is(&Token::LParen) {
                    true => cursor_parameters(&mut self.t)?,
                    false => Vec::new(),
                };
                self.t.expect("FOR")?;
                // The parameters are the query's variables, not the block's.
                self.vars.push(Vec::new());
                self.declare_params(&params);
                let query = self.sql();
                self.leave_scope();
                let query = query?;
                if let Some(scope) = self.cursors.last_mut() {
                    scope.push((name.clone(), params.len()));
                }
                return Ok(SpStmt::DeclareCursor { name, params, query });
            }
            (_, Some("CONDITION")) => {
                let name = self.t.ident()?;
                self.t.at += 1;
                self.t.expect("FOR")?;
                let condition = self.condition_value()?;
                self.conditions.push((name.to_ascii_lowercase(), condition));
                return self.declare_nothing();
            }
            _ => {}
        }
        let mut names = vec![self.t.ident()?];
        while self.t.next_is(&Token::Comma) {
            self.t.at += 1;
            names.push(self.t.ident()?);
        }
        let start = self.t.at;
        let mut depth = 0usize;
        while let Some((tok, _, _)) = self.t.tokens.get(self.t.at) {
            match tok {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                Token::SemiColon if depth == 0 => break,
                _ if depth == 0 && self.word().as_deref() == Some("DEFAULT") => break,
                _ => {}
            }
            self.t.at += 1;
        }
        if self.t.at == start {
            return Err(self.t.error());
        }
        let ty = self.var_type(start, self.t.at)?;
        let default = if self.t.eat("DEFAULT") { Some(self.var_expr_until(&[])?) } else { None };
        let fields = match &ty {
            VarType::VarOf(source) => self.row_var(source).map(|(_, fields)| fields.cloned()),
            ty if ty.is_row() => Some(ty.explicit_fields()),
            _ => None,
        };
        let depth = self.vars.len();
        let scope = self.vars.last_mut().ok_or_else(|| self.t.error())?;
        for name in &names {
            if scope.iter().any(|v| v.eq_ignore_ascii_case(name)) {
                return Err(SqlError::new(ErrorCode::SP_DUP_VAR, format!("Duplicate variable: {name}")));
            }
            scope.push(name.clone());
        }
        if let Some(fields) = fields {
            self.rows.extend(names.iter().map(|n| (depth, n.clone(), fields.clone())));
        }
        self.note_declared_types(&names, &ty);
        Ok(SpStmt::DeclareVar { names, ty, default })
    }

    /// The type a DECLARE gives in tokens `[from, to)`: a data type,
    /// `ROW(field type, ...)`, `TYPE OF [db.]table.column | variable` or
    /// `ROW TYPE OF [db.]table | cursor`.
    fn var_type(&self, from: usize, to: usize) -> SqlResult<VarType> {
        let word = |i: usize| if i < to { self.t.keyword(i) } else { None };
        let text = |a: usize, b: usize| &self.t.text[self.start_of(a)..self.end_of(b)];
        let anchor_at = match (word(from).as_deref(), word(from + 1).as_deref(), word(from + 2).as_deref()) {
            (Some("TYPE"), Some("OF"), _) => Some((from + 2, false)),
            (Some("ROW"), Some("TYPE"), Some("OF")) => Some((from + 3, true)),
            _ => None,
        };
        let Some((at, row)) = anchor_at else {
            if word(from).as_deref() == Some("ROW")
                && matches!(self.t.tokens.get(from + 1), Some((Token::LParen, _, _)))
            {
                let close = matching_paren(&self.t, from + 1)?;
                if close + 1 != to {
                    return Err(self.t.error_at(close + 1));
                }
                // A ROW of ROWs is MariaDB's syntax error.
                let nested = (from + 2..close).find(|&i| {
                    self.t.keyword(i).as_deref() == Some("ROW")
                        && matches!(self.t.tokens.get(i + 1), Some((Token::LParen, _, _)))
                });
                if let Some(at) = nested {
                    return Err(self.t.error_at(at));
                }
                return Ok(VarType::Row(row_fields(text(from + 2, close))?));
            }
            return Ok(VarType::Scalar(column_type(text(from, to))?));
        };
        let mut parts = Vec::new();
        let mut i = at;
        loop {
            match self.t.tokens.get(i) {
                Some((Token::Word(w), _, _)) if i < to => parts.push(w.value.clone()),
                _ => return Err(self.t.error_at(i)),
            }
            i += 1;
            if i == to {
                break;
            }
            if !matches!(self.t.tokens.get(i), Some((Token::Period, _, _))) {
                return Err(self.t.error_at(i));
            }
            i += 1;
        }
        let table = |db: Option<&String>, name: &String| ObjectName { db: db.cloned(), name: name.clone() };
        match (row, parts.as_slice()) {
            // No scope at all: a parameter list, where TYPE OF names a
            // table's column.
            (false, [_]) if self.vars.is_empty() => Err(self.t.error_at(at + 1)),
            (false, [var]) if self.is_var(var) => Ok(VarType::VarOf(var.clone())),
            (false, [name]) => Err(SqlError::new(ErrorCode::SP_UNDECLARED_VAR, format!("Undeclared variable: {name}"))),
            (false, [t, c]) => Ok(VarType::ColumnOf { table: table(None, t), column: c.clone() }),
            (false, [db, t, c]) => Ok(VarType::ColumnOf { table: table(Some(db), t), column: c.clone() }),
            (true, [name]) if self.cursors.iter().flatten().any(|(c, _)| c.eq_ignore_ascii_case(name)) => {
                Ok(VarType::RowOfCursor(name.clone()))
            }
            (true, [t]) => Ok(VarType::RowOfTable(table(None, t))),
            (true, [db, t]) => Ok(VarType::RowOfTable(table(Some(db), t))),
            _ => Err(self.t.error_at(at)),
        }
    }

    /// The ROW variable `name` in scope, if it is one: its declaration
    /// depth and its field names when known.
    fn row_var(&self, name: &str) -> Option<(usize, Option<&Vec<String>>)> {
        let (depth, _, fields) = self.rows.iter().rev().find(|(_, n, _)| n.eq_ignore_ascii_case(name))?;
        // A scalar of the same name declared deeper hides it.
        let innermost = self.vars.iter().rposition(|scope| scope.iter().any(|v| v.eq_ignore_ascii_case(name)))?;
        (innermost + 1 == *depth).then_some((*depth, fields.as_ref()))
    }

    /// `rec.field` as a target (`rec` just read): the field's variable;
    /// an explicit ROW without that field is error 4082 here already.
    fn field_target(&mut self, name: &str) -> SqlResult<Option<SpTarget>> {
        if !self.t.next_is(&Token::Period) {
            return Ok(None);
        }
        let fields = match self.row_var(name) {
            Some((_, fields)) => fields.cloned(),
            None if self.records.iter().any(|r| r.eq_ignore_ascii_case(name)) => None,
            None => return Ok(None),
        };
        self.t.at += 1;
        let field = self.t.ident()?;
        if fields.is_some_and(|f| !f.iter().any(|f| f.eq_ignore_ascii_case(&field))) {
            return Err(no_such_field(name, &field));
        }
        Ok(Some(SpTarget::Local(record_field(name, &field))))
    }

    /// DECLARE ... CONDITION leaves nothing to run.
    fn declare_nothing(&self) -> SqlResult<SpStmt> {
        Ok(SpStmt::Block { label: None, body: Vec::new() })
    }

    fn condition_value(&mut self) -> SqlResult<Condition> {
        if self.t.eat("SQLSTATE") {
            self.t.eat("VALUE");
            return match self.t.tokens.get(self.t.at) {
                Some((Token::SingleQuotedString(s) | Token::DoubleQuotedString(s), _, _)) => {
                    let state = s.clone();
                    self.t.at += 1;
                    if state.len() != 5 || state.starts_with("00") {
                        return Err(SqlError::new(
                            ErrorCode { number: 1407, sqlstate: "42000" },
                            format!("Bad SQLSTATE: '{state}'"),
                        ));
                    }
                    Ok(Condition::SqlState(state))
                }
                _ => Err(self.t.error()),
            };
        }
        if let Some((Token::Number(n, _), _, _)) = self.t.tokens.get(self.t.at) {
            let errno = n.parse().map_err(|_| self.t.error())?;
            self.t.at += 1;
            return Ok(Condition::Errno(errno));
        }
        Err(self.t.error())
    }

    fn declare_handler(&mut self) -> SqlResult<SpStmt> {
        let exit = self.word().as_deref() != Some("CONTINUE");
        self.t.at += 2;
        self.t.expect("FOR")?;
        let mut conditions = Vec::new();
        loop {
            let condition = if self.t.eat("SQLWARNING") {
                Condition::SqlWarning
            } else if self.t.eat("SQLEXCEPTION") {
                Condition::SqlException
            } else if self.word().as_deref() == Some("NOT") && self.t.keyword(self.t.at + 1).as_deref() == Some("FOUND")
            {
                self.t.at += 2;
                Condition::NotFound
            } else if matches!(self.t.tokens.get(self.t.at), Some((Token::Word(w), _, _)) if !w.value.eq_ignore_ascii_case("SQLSTATE"))
            {
                let name = self.t.ident()?;
                let lower = name.to_ascii_lowercase();
                match self.conditions.iter().rev().find(|(n, _)| *n == lower) {
                    Some((_, c)) => c.clone(),
                    None => {
                        return Err(SqlError::new(
                            ErrorCode { number: 1319, sqlstate: "42000" },
                            format!("Undefined CONDITION: {name}"),
                        ))
                    }
                }
            } else {
                self.condition_value()?
            };
            conditions.push(condition);
            if !self.t.next_is(&Token::Comma) {
                break;
            }
            self.t.at += 1;
        }
        let body = Box::new(self.statement()?);
        Ok(SpStmt::DeclareHandler { exit, conditions, body })
    }

    fn cursor_name(&mut self) -> SqlResult<String> {
        Ok(self.declared_cursor()?.0)
    }

    /// A cursor's name and its parameter count.
    fn declared_cursor(&mut self) -> SqlResult<(String, usize)> {
        let name = self.t.ident()?;
        let found = self.cursors.iter().rev().flatten().find(|(c, _)| c.eq_ignore_ascii_case(&name));
        let Some((_, params)) = found else {
            return Err(SqlError::new(ErrorCode::SP_CURSOR_MISMATCH, format!("Undefined CURSOR: {name}")));
        };
        Ok((name, *params))
    }

    /// `cursor [(args)]` as OPEN and FOR name it: as many arguments as the
    /// cursor has parameters (4080).
    fn cursor_with_args(&mut self) -> SqlResult<(String, Vec<SpExpr>)> {
        let (name, params) = self.declared_cursor()?;
        let args = self.argument_list()?;
        if args.len() != params {
            return Err(SqlError::new(
                ErrorCode { number: 4080, sqlstate: "42000" },
                format!("Incorrect parameter count to cursor '{name}'"),
            ));
        }
        Ok((name, args))
    }

    /// `[(expr, ...)]`: the arguments of a CALL or an OPEN.
    fn argument_list(&mut self) -> SqlResult<Vec<SpExpr>> {
        let mut args = Vec::new();
        if self.t.next_is(&Token::LParen) {
            let close = matching_paren(&self.t, self.t.at)?;
            for (from, to) in split_commas(&self.t, self.t.at + 1, close) {
                let (_, rewritten, vars) = self.rewrite(from, to, None, from);
                self.check_fields(&vars)?;
                let arg = SpExpr { expr: parse_expr(&rewritten)?, vars };
                undeclared::check(&arg)?;
                args.push(arg);
            }
            self.t.at = close + 1;
        }
        Ok(args)
    }

    fn fetch(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        if self.t.eat("NEXT") {
            self.t.expect("FROM")?;
        } else {
            self.t.eat("FROM");
        }
        let cursor = self.cursor_name()?;
        self.t.expect("INTO")?;
        let mut into = vec![self.target()?];
        while self.t.next_is(&Token::Comma) {
            self.t.at += 1;
            into.push(self.target()?);
        }
        Ok(SpStmt::Fetch { cursor, into })
    }

    /// A variable to store into: local, `@user` or `@@system`.
    fn target(&mut self) -> SqlResult<SpTarget> {
        let name = self.t.ident()?;
        if let Some(target) = self.row_target(&name)? {
            return Ok(target);
        }
        if let Some(target) = self.field_target(&name)? {
            return Ok(target);
        }
        if let Some(rest) = name.strip_prefix("@@") {
            let (scope, var) = super::split_var_scope(rest);
            return Ok(SpTarget::System { scope, name: var });
        }
        if let Some(rest) = name.strip_prefix('@') {
            return Ok(SpTarget::User(rest.to_ascii_lowercase()));
        }
        // A FOR loop's record takes a whole row (FETCH ... INTO rec).
        if self.is_var(&name) || self.records.iter().any(|r| r.eq_ignore_ascii_case(&name)) {
            return Ok(SpTarget::Local(name));
        }
        Err(SqlError::new(ErrorCode::SP_UNDECLARED_VAR, format!("Undeclared variable: {name}")))
    }

    /// `SIGNAL condition [SET item = value, ...]` and `RESIGNAL [condition]
    /// [SET ...]`.
    fn signal(&mut self, resignal: bool) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let names_condition = match self.t.tokens.get(self.t.at) {
            Some((Token::Word(w), _, _)) => !w.value.eq_ignore_ascii_case("SET") || w.quote_style.is_some(),
            _ => false,
        };
        let condition = if names_condition || !resignal { Some(self.signal_condition()?) } else { None };
        let mut items: Vec<(ConditionItem, SpExpr)> = Vec::new();
        if self.t.eat("SET") {
            loop {
                let at = self.t.at;
                let item = self.t.ident()?.to_ascii_uppercase();
                let item = ConditionItem::by_name(&item)
                    .filter(|i| *i != ConditionItem::ReturnedSqlstate)
                    .ok_or_else(|| self.t.error_at(at))?;
                if items.iter().any(|(i, _)| *i == item) {
                    return Err(SqlError::new(
                        ErrorCode::DUP_SIGNAL_SET,
                        format!("Duplicate condition information item '{}'", item.name()),
                    ));
                }
                if !self.t.next_is(&Token::Eq) {
                    return Err(self.t.error());
                }
                self.t.at += 1;
                items.push((item, self.expr_until(&[","])?));
                if !self.t.next_is(&Token::Comma) {
                    break;
                }
                self.t.at += 1;
            }
        }
        Ok(SpStmt::Signal { resignal, condition, items })
    }

    /// A named condition or `SQLSTATE [VALUE] 'state'` (a number only
    /// through a named condition).
    fn signal_condition(&mut self) -> SqlResult<SignalCondition> {
        let condition = if matches!(self.t.tokens.get(self.t.at), Some((Token::Word(w), _, _)) if !w.value.eq_ignore_ascii_case("SQLSTATE"))
        {
            let name = self.t.ident()?.to_ascii_lowercase();
            self.conditions.iter().rev().find(|(n, _)| *n == name).map(|(_, c)| c.clone()).ok_or_else(|| {
                SqlError::new(ErrorCode { number: 1319, sqlstate: "42000" }, format!("Undefined CONDITION: {name}"))
            })?
        } else {
            self.condition_value()?
        };
        match condition {
            Condition::SqlState(sqlstate) => {
                let errno = match &sqlstate[..2] {
                    "01" => ErrorCode::SIGNAL_WARN.number,
                    "02" => ErrorCode::SIGNAL_NOT_FOUND.number,
                    _ => ErrorCode::SIGNAL_EXCEPTION.number,
                };
                Ok(SignalCondition { sqlstate, errno })
            }
            Condition::Errno(errno) => Ok(SignalCondition { sqlstate: "HY000".to_string(), errno }),
            _ => Err(self.t.error()),
        }
    }

    /// `GET [CURRENT] DIAGNOSTICS target = NUMBER | ROW_COUNT, ...` or
    /// `GET [CURRENT] DIAGNOSTICS CONDITION n target = item, ...`.
    fn get_diagnostics(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        self.t.eat("CURRENT");
        self.t.expect("DIAGNOSTICS")?;
        let condition = if self.t.eat("CONDITION") {
            let at = self.t.at;
            if at >= self.statement_end() {
                return Err(self.t.error());
            }
            let (_, rewritten, vars) = self.rewrite(at, at + 1, None, at);
            self.t.at += 1;
            Some(SpExpr { expr: parse_expr(&rewritten)?, vars })
        } else {
            None
        };
        let mut items = Vec::new();
        loop {
            let target = self.target()?;
            if !self.t.next_is(&Token::Eq) {
                return Err(self.t.error());
            }
            self.t.at += 1;
            let at = self.t.at;
            let name = self.t.ident()?.to_ascii_uppercase();
            let item = match (&condition, name.as_str()) {
                (None, "NUMBER") => Some(DiagnosticsItem::Number),
                (None, "ROW_COUNT") => Some(DiagnosticsItem::RowCount),
                (None, _) => None,
                (Some(_), name) => ConditionItem::by_name(name).map(DiagnosticsItem::Condition),
            };
            items.push((target, item.ok_or_else(|| self.t.error_at(at))?));
            if !self.t.next_is(&Token::Comma) {
                break;
            }
            self.t.at += 1;
        }
        Ok(SpStmt::GetDiagnostics(GetDiagnostics { condition, items }))
    }

    fn call(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let name = object_name(&mut self.t)?;
        let args = self.argument_list()?;
        Ok(SpStmt::Call { name, args })
    }

    fn set_statement(&mut self) -> SqlResult<SpStmt> {
        self.t.at += 1;
        let mut assignments = Vec::new();
        loop {
            let mut scope = None;
            if let Some(w @ ("GLOBAL" | "SESSION" | "LOCAL")) = self.word().as_deref() {
                scope = Some(if w == "GLOBAL" { VarScope::Global } else { VarScope::Session });
                self.t.at += 1;
            }
            let name = self.t.ident()?;
            let row_target = match scope {
                None => match self.row_target(&name)? {
                    None => self.field_target(&name)?,
                    found => found,
                },
                Some(_) => None,
            };
            let target = match scope {
                _ if row_target.is_some() => row_target.ok_or_else(|| self.t.error())?,
                Some(scope) => SpTarget::System { scope, name: name.to_ascii_lowercase() },
                None if self.is_var(&name) => SpTarget::Local(name),
                None if name.starts_with('@') => {
                    self.t.at -= 1;
                    self.target()?
                }
                None => {
                    let def = crate::vars::lookup(&name).ok_or_else(|| crate::vars::unknown_variable(&name))?;
                    SpTarget::System { scope: VarScope::Default, name: def.name.to_string() }
                }
            };
            if !matches!(self.t.tokens.get(self.t.at), Some((Token::Eq | Token::Assignment, _, _))) {
                return Err(self.t.error());
            }
            self.t.at += 1;
            let value = self.expr_until(&[","])?;
            // SET of a user or system variable is an ordinary statement.
            if matches!(target, SpTarget::Local(_)) {
                undeclared::check(&value)?;
            }
            assignments.push((target, value));
            if !self.t.next_is(&Token::Comma) {
                return Ok(SpStmt::Set(assignments));
            }
            self.t.at += 1;
        }
    }

    /// `NEW.col` / `OLD.col` assigned in a trigger (`name` just read): the
    /// pseudo-variable that holds it.
    fn row_target(&mut self, name: &str) -> SqlResult<Option<SpTarget>> {
        let Some(references) = &self.row_references else { return Ok(None) };
        let new = name.eq_ignore_ascii_case("NEW");
        if !(new || name.eq_ignore_ascii_case("OLD")) || !self.t.next_is(&Token::Period) {
            return Ok(None);
        }
        self.t.at += 1;
        let column = self.t.ident()?;
        references.borrow_mut().push(RowReference { new, column: column.clone(), assigned: true });
        Ok(Some(SpTarget::Local(row_variable(new, &column))))
    }

    /// Where the statement at the cursor ends: its `;` (or the text's end).
    fn statement_end(&self) -> usize {
        (self.t.at..self.t.tokens.len())
            .find(|&i| matches!(self.t.tokens[i].0, Token::SemiColon))
            .unwrap_or(self.t.tokens.len())
    }

    /// An expression up to the first of `stops` (words, or "," for a
    /// comma) outside parentheses and CASE ... END, or the statement's end.
    fn expr_until(&mut self, stops: &[&str]) -> SqlResult<SpExpr> {
        let start = self.t.at;
        let (mut depth, mut cases) = (0usize, 0usize);
        while let Some((tok, _, _)) = self.t.tokens.get(self.t.at) {
            let word = self.word();
            match tok {
                Token::LParen => depth += 1,
                Token::RParen if depth == 0 => break,
                Token::RParen => depth -= 1,
                Token::SemiColon => break,
                Token::Comma if depth == 0 && cases == 0 && stops.contains(&",") => break,
                _ if depth > 0 => {}
                _ => match word.as_deref() {
                    Some("CASE") => cases += 1,
                    Some("END") if cases > 0 => cases -= 1,
                    Some(w) if cases == 0 && stops.contains(&w) => break,
                    Some("END") => break,
                    _ => {}
                },
            }
            self.t.at += 1;
        }
        if self.t.at == start {
            return Err(self.t.error());
        }
        let (_, rewritten, vars) = self.rewrite(start, self.t.at, None, start);
        self.check_fields(&vars)?;
        Ok(SpExpr { expr: parse_expr(&rewritten)?, vars })
    }

    /// [`Self::expr_until`] of an expression of the routine's own, whose
    /// names must be its variables (see `undeclared`).
    fn var_expr_until(&mut self, stops: &[&str]) -> SqlResult<SpExpr> {
        let e = self.expr_until(stops)?;
        undeclared::check(&e)?;
        Ok(e)
    }

    /// Error 4082 for a `rec.field` among `vars` that an explicit ROW
    /// declaration lacks (anchored rows are checked when they run).
    fn check_fields(&self, vars: &[String]) -> SqlResult<()> {
        for var in vars {
            let Some((row, field)) = var.split_once('.') else { continue };
            if let Some((_, Some(fields))) = self.row_var(row) {
                if !fields.iter().any(|f| f.eq_ignore_ascii_case(field)) {
                    return Err(no_such_field(row, field));
                }
            }
        }
        Ok(())
    }

    /// An ordinary statement up to its `;`, with SELECT ... INTO's targets
    /// taken out.
    fn sql(&mut self) -> SqlResult<SpSql> {
        self.sql_until(self.statement_end())
    }

    /// The statement in tokens from the current one to `end` (exclusive).
    fn sql_until(&mut self, end: usize) -> SqlResult<SpSql> {
        let start = self.t.at;
        if start == end {
            return Err(self.t.error());
        }
        let mut into = Vec::new();
        let mut skip = None;
        if matches!(self.word().as_deref(), Some("SELECT" | "WITH")) {
            if let Some(at) = self.top_level_into(start, end) {
                self.t.at = at + 1;
                into.push(self.target()?);
                while self.t.next_is(&Token::Comma) && self.t.at < end {
                    self.t.at += 1;
                    into.push(self.target()?);
                }
                skip = Some((at, self.t.at));
            }
        }
        let ddl = matches!(self.t.keyword(start).as_deref(), Some("CREATE" | "ALTER" | "DROP" | "RENAME" | "TRUNCATE"));
        // A DDL statement names things, but the query of a CREATE TABLE ...
        // SELECT reads variables as any query does.
        let names_until = match ddl {
            true => self.create_table_select_at(start, end).unwrap_or(end),
            false => start,
        };
        let (text, rewritten, vars) = self.rewrite(start, end, skip, names_until);
        self.check_fields(&vars)?;
        self.t.at = end;
        let parsed = parse_with_params(&text, &rewritten)?;
        self.check_limit_vars(&parsed.statement, &vars)?;
        Ok(SpSql { text, statement: parsed.statement, vars, into })
    }

    /// Where the query of `CREATE ... TABLE ... SELECT` starts: its first
    /// SELECT or WITH outside parentheses.
    fn create_table_select_at(&self, start: usize, end: usize) -> Option<usize> {
        if self.t.keyword(start).as_deref() != Some("CREATE") {
            return None;
        }
        let table_at = (start..end).find(|&i| self.t.keyword(i).as_deref() == Some("TABLE"))?;
        let before_table = start + 1..table_at;
        if !before_table.clone().all(|i| matches!(self.t.keyword(i).as_deref(), Some("OR" | "REPLACE" | "TEMPORARY"))) {
            return None;
        }
        let mut depth = 0usize;
        (table_at..end).find(|&i| {
            match self.t.tokens[i].0 {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && matches!(self.t.keyword(i).as_deref(), Some("SELECT" | "WITH"))
        })
    }

    fn top_level_into(&self, start: usize, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        (start..end).find(|&i| {
            match self.t.tokens[i].0 {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && self.t.keyword(i).as_deref() == Some("INTO")
        })
    }

    /// Tokens `[from, to)` as (original text, text with each local variable
    /// reference as `?` and `skip` blanked, the variables in order). Before
    /// `names_until` (the DDL part of a statement) nothing is a variable.
    fn rewrite(
        &self,
        from: usize,
        to: usize,
        skip: Option<(usize, usize)>,
        names_until: usize,
    ) -> (String, String, Vec<String>) {
        let text = self.t.text;
        let (start, end) = (self.start_of(from), self.end_of(to).max(self.start_of(from)));
        let mut out = String::new();
        let mut original = String::new();
        let mut vars = Vec::new();
        let mut pos = start;
        let mut original_pos = start;
        let is_insert =
            self.t.keyword(from).as_deref() == Some("INSERT") || self.t.keyword(from).as_deref() == Some("REPLACE");
        let mut column_list_depth: Option<usize> = None;
        let mut depth = 0usize;
        for i in from..to {
            let (tok, s, e) = &self.t.tokens[i];
            match tok {
                Token::LParen => {
                    depth += 1;
                    // INSERT INTO t (columns): names, not variables.
                    let after_table_name = i > from
                        && matches!(&self.t.tokens[i - 1].0, Token::Word(_))
                        && !matches!(self.t.keyword(i - 1).as_deref(), Some("VALUES" | "VALUE" | "SELECT"));
                    if is_insert && depth == 1 && column_list_depth.is_none() && after_table_name {
                        column_list_depth = Some(depth);
                    }
                }
                Token::RParen => {
                    if column_list_depth == Some(depth) {
                        column_list_depth = Some(usize::MAX);
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            if let Some((a, b)) = skip {
                if i == a {
                    original.push_str(&text[original_pos..*s]);
                    out.push_str(&text[pos..*s]);
                    out.push(' ');
                    pos = self.t.tokens[b - 1].2;
                }
                if i >= a && i < b {
                    original_pos = self.t.tokens[b - 1].2;
                    continue;
                }
            }
            let Token::Word(w) = tok else { continue };
            let keep_names = i < names_until;
            let in_column_list = column_list_depth.is_some_and(|d| d == depth);
            let prev = i.checked_sub(1).filter(|&p| p >= from).map(|p| &self.t.tokens[p].0);
            let prev_word = i.checked_sub(1).filter(|&p| p >= from).and_then(|p| self.t.keyword(p));
            let next = self.t.tokens.get(i + 1).filter(|_| i + 1 < to).map(|x| &x.0);
            let assigned_column = matches!(next, Some(Token::Eq)) && matches!(prev_word.as_deref(), Some("SET" | "UPDATE")) || (matches!(next, Some(Token::Eq)) && matches!(prev, Some(Token::Comma)) && self.t.tokens[from..i].iter().any(|x| matches!(&x.0, Token::Word(k) if k.quote_style.is_none() && k.value.eq_ignore_ascii_case("SET"))) && depth == 0);
            if let Some((field, field_end)) = self.record_field_at(i, to).filter(|_| !keep_names) {
                out.push_str(&text[pos..*s]);
                out.push('?');
                pos = field_end;
                vars.push(field);
                continue;
            }
            if let Some(references) = self.row_references.as_ref().filter(|_| !keep_names) {
                let row = w.value.to_ascii_uppercase();
                let column = match (self.t.tokens.get(i + 1), self.t.tokens.get(i + 2)) {
                    (Some((Token::Period, _, _)), Some((Token::Word(c), _, column_end)))
                        if i + 2 < to && (row == "NEW" || row == "OLD") && !matches!(prev, Some(Token::Period)) =>
                    {
                        Some((c.value.clone(), *column_end))
                    }
                    _ => None,
                };
                if let Some((column, column_end)) = column {
                    out.push_str(&text[pos..*s]);
                    out.push('?');
                    pos = column_end;
                    let new = row == "NEW";
                    vars.push(row_variable(new, &column));
                    references.borrow_mut().push(RowReference { new, column, assigned: false });
                    continue;
                }
            }
            let is_reference = !keep_names
                && matches!(w.quote_style, None | Some('`'))
                && self.is_var(&w.value)
                && !matches!(prev, Some(Token::Period))
                && !matches!(next, Some(Token::Period | Token::LParen))
                && !matches!(prev_word.as_deref(), Some("FROM" | "JOIN" | "INTO" | "UPDATE" | "TABLE" | "AS"))
                && !prev.is_some_and(ends_operand)
                && !in_column_list
                && !assigned_column;
            if is_reference {
                out.push_str(&text[pos..*s]);
                pos = *e;
                match self.row_var(&w.value).and_then(|(_, fields)| fields) {
                    // A ROW whose fields are known is the row of them.
                    Some(fields) => {
                        out.push_str(&format!("ROW({})", vec!["?"; fields.len()].join(", ")));
                        vars.extend(fields.iter().map(|f| record_field(&w.value, f)));
                    }
                    None => {
                        out.push('?');
                        vars.push(w.value.clone());
                    }
                }
            }
        }
        out.push_str(&text[pos.min(end)..end]);
        original.push_str(&text[original_pos.min(end)..end]);
        (original.trim().to_string(), out.trim().to_string(), vars)
    }
}

/// The fields of `ROW(field type, ...)`, written as `list`; a name given
/// twice is error 1060, as in a table.
fn row_fields(list: &str) -> SqlResult<Vec<ColumnDef>> {
    let parsed = super::parse_single(&format!("CREATE TABLE routine_row ({list})"))?;
    let Statement::CreateTable(ct) = parsed.statement else { return Err(SqlError::parse(list, 1)) };
    for (i, field) in ct.columns.iter().enumerate() {
        if ct.columns[..i].iter().any(|f| f.name.eq_ignore_ascii_case(&field.name)) {
            return Err(SqlError::new(ErrorCode::DUP_FIELD_NAME, format!("Duplicate column name '{}'", field.name)));
        }
    }
    Ok(ct.columns)
}

/// Error 4082: `row` has no field `field`.
pub(crate) fn no_such_field(row: &str, field: &str) -> SqlError {
    SqlError::new(
        ErrorCode::ROW_VARIABLE_DOES_NOT_HAVE_FIELD,
        format!("Row variable '{row}' does not have a field '{field}'"),
    )
}

/// Whether `token` can end an operand, so that a name right after it is
/// an alias (`count(*) a`, `1 a`, `col a`), never a variable: two operands
/// cannot follow each other.
fn ends_operand(token: &Token) -> bool {
    match token {
        Token::RParen | Token::Number(..) | Token::SingleQuotedString(_) | Token::DoubleQuotedString(_) => true,
        Token::Word(w) => w.quote_style.is_some() || w.keyword == sqlparser::keywords::Keyword::NoKeyword,
        _ => false,
    }
}

/// Where the `..` of a FOR range is in `header` (outside quotes and
/// parentheses), if it is one.
fn range_dots(header: &str) -> Option<usize> {
    let bytes = header.as_bytes();
    let (mut depth, mut quote) = (0usize, None::<u8>);
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"' | b'`') => quote = Some(b),
            (None, b'(') => depth += 1,
            (None, b')') => depth = depth.saturating_sub(1),
            (None, b'.') if depth == 0 && bytes.get(i + 1) == Some(&b'.') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The pseudo-variable a trigger's body keeps `NEW.col` / `OLD.col` in.
pub(crate) fn row_variable(new: bool, column: &str) -> String {
    format!("{}.{column}", if new { "new" } else { "old" })
}

/// Reads a trigger's body (`at`: its first token): the statement and the
/// `NEW` / `OLD` references in it.
pub(super) fn parse_trigger_body(t: &Tokens, at: usize) -> SqlResult<(SpStmt, Vec<RowReference>)> {
    let mut parser =
        BodyParser::new(Tokens { text: t.text, tokens: t.tokens.clone(), at }, RoutineKind::Procedure, Vec::new());
    parser.row_references = Some(std::cell::RefCell::new(Vec::new()));
    let body = parser.whole_statement()?;
    let references = parser.row_references.map(|r| r.into_inner()).unwrap_or_default();
    Ok((body, references))
}

/// Tracks compound-statement nesting while the splitter walks tokens, so a
/// routine's body is one statement however many `;` it holds: BEGIN, LOOP,
/// WHILE, REPEAT and IF open a level where a statement starts, CASE opens
/// one anywhere, END closes one (and the IF / LOOP ... after it opens
/// nothing).
#[derive(Default)]
pub(crate) struct BlockDepth {
    /// The statement is a routine definition (decided on its first words).
    routine: bool,
    words: usize,
    depth: usize,
    statement_start: bool,
    after_end: bool,
    /// Between a function's RETURNS and its body's first statement.
    in_returns: bool,
}

/// Whether a statement starting with `first` (then `next`) is a compound
/// statement a client sends on its own, whose `;`s are inside it.
fn starts_compound(first: Option<&str>, next: Option<&Token>) -> bool {
    match first {
        Some("IF" | "CASE" | "LOOP" | "WHILE" | "REPEAT" | "FOR") => true,
        Some("BEGIN") => {
            matches!(next, Some(Token::Word(w)) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("NOT"))
        }
        _ => false,
    }
}

impl BlockDepth {
    /// Feeds the next significant token; `next` is the one after it.
    pub(crate) fn feed(&mut self, token: &Token, next: Option<&Token>) {
        let word = match token {
            Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
            _ => None,
        };
        if self.words == 0 && starts_compound(word.as_deref(), next) {
            self.routine = true;
            self.statement_start = true;
        }
        if self.words < 16 {
            self.words += 1;
            if matches!(word.as_deref(), Some("PROCEDURE" | "FUNCTION" | "TRIGGER")) && self.words > 1 {
                self.routine = true;
            }
        }
        if !self.routine {
            return;
        }
        let after_end = std::mem::take(&mut self.after_end);
        let mut at_start = std::mem::take(&mut self.statement_start);
        if self.depth == 0 && word.as_deref() == Some("RETURNS") {
            self.in_returns = true;
        } else if self.in_returns && word.as_deref().is_some_and(|w| w != "SET" && STATEMENT_WORDS.contains(&w)) {
            // A RETURNS type holds none of these words: the body starts
            // here, with a compound statement (`RETURNS INT FOR i IN ..`)
            // unless the word calls a function (`IF(`, `REPEAT(`).
            self.in_returns = false;
            at_start |= !matches!(next, Some(Token::LParen));
        }
        match word.as_deref() {
            Some("END") => {
                self.depth = self.depth.saturating_sub(1);
                self.after_end = true;
            }
            Some("CASE") if !after_end => self.depth += 1,
            Some("BEGIN") if !matches!(next, Some(Token::SemiColon)) => {
                self.depth += 1;
                self.statement_start = true;
            }
            Some("IF" | "LOOP" | "WHILE" | "REPEAT" | "FOR") if at_start && !after_end => {
                self.depth += 1;
                self.statement_start = true;
            }
            // `BEGIN NOT ATOMIC`: the block's first statement follows.
            Some("THEN" | "ELSE" | "DO" | "LOOP" | "REPEAT" | "ATOMIC") => self.statement_start = true,
            _ => {}
        }
        if matches!(token, Token::SemiColon | Token::Colon) {
            self.statement_start = true;
        }
        // The body's first statement: after the parameter list's `)` or a
        // characteristic, any of these words starts it.
        if self.depth == 0 && matches!(token, Token::RParen) {
            self.statement_start = true;
        }
        if self.depth == 0 && matches!(word.as_deref(), Some("DETERMINISTIC" | "SQL" | "DATA" | "ROW")) {
            self.statement_start = true;
        }
    }

    /// Whether a `;` here ends the statement.
    pub(crate) fn at_top(&self) -> bool {
        self.depth == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(sql: &str) -> CreateRoutine {
        match parse_create_routine(sql) {
            Ok(Some(c)) => c,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn reads_procedures_functions_and_their_bodies() {
        let p = create("CREATE DEFINER=root@localhost PROCEDURE d.p(IN a INT, OUT b VARCHAR(10), INOUT c INT) COMMENT 'x' DETERMINISTIC BEGIN DECLARE i INT DEFAULT 0; w: WHILE i < a DO SET i = i + 1; IF i = 2 THEN ITERATE w; ELSEIF i > 5 THEN LEAVE w; ELSE INSERT INTO t (a) VALUES (i); END IF; END WHILE w; SELECT i INTO b; END");
        assert_eq!(p.kind, RoutineKind::Procedure);
        assert_eq!(p.routine.params.len(), 3);
        assert_eq!(p.characteristics.comment, "x");
        assert!(p.characteristics.deterministic);
        let SpStmt::Block { body, .. } = &p.routine.body else { panic!() };
        assert_eq!(body.len(), 3);
        let SpStmt::Sql(select) = &body[2] else { panic!("{:?}", body[2]) };
        assert_eq!(select.into, vec![SpTarget::Local("b".into())]);
        assert_eq!(select.vars, vec!["i".to_string()]);
        let f = create("CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x + 1");
        assert!(matches!(&f.routine.body, SpStmt::Return(e) if e.vars == ["x"]));
        assert_eq!(f.returns_text.as_deref(), Some("INT"));
    }

    #[test]
    fn rejects_bad_bodies() {
        for bad in [
            "CREATE PROCEDURE p() BEGIN LEAVE x; END",
            "CREATE FUNCTION f() RETURNS INT BEGIN END",
            "CREATE PROCEDURE p() RETURN 1",
            "CREATE PROCEDURE p() BEGIN SELECT 1",
            "CREATE PROCEDURE p() BEGIN OPEN c; END",
        ] {
            assert!(parse_create_routine(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_anchored_and_row_declarations() {
        let p = create("CREATE PROCEDURE p() BEGIN DECLARE a TYPE OF db.t.c; DECLARE r ROW(x INT, y TEXT) DEFAULT ROW(1, 'a'); DECLARE s ROW TYPE OF t; DECLARE b TYPE OF a; SET r.x = s.k; SELECT r = r; END");
        let SpStmt::Block { body, .. } = &p.routine.body else { panic!() };
        let types: Vec<&VarType> =
            body.iter().filter_map(|s| if let SpStmt::DeclareVar { ty, .. } = s { Some(ty) } else { None }).collect();
        assert!(
            matches!(types[0], VarType::ColumnOf { table, column } if table.db.as_deref() == Some("db") && column == "c")
        );
        assert_eq!(types[1].explicit_fields(), Some(vec!["x".to_string(), "y".to_string()]));
        assert!(matches!(types[2], VarType::RowOfTable(t) if t.name == "t"));
        assert_eq!(types[3], &VarType::VarOf("a".into()));
        let SpStmt::Set(set) = &body[4] else { panic!("{:?}", body[4]) };
        assert_eq!(set[0].0, SpTarget::Local("r.x".into()));
        assert_eq!(set[0].1.vars, ["s.k"]);
        // A ROW with known fields compares as the row of them.
        let SpStmt::Sql(select) = &body[5] else { panic!("{:?}", body[5]) };
        assert_eq!(select.vars, ["r.x", "r.y", "r.x", "r.y"]);
        for bad in [
            "CREATE PROCEDURE p() BEGIN DECLARE r ROW(a INT); SET r.b = 1; END",
            "CREATE PROCEDURE p() BEGIN DECLARE r ROW(a INT); SELECT r.b; END",
            "CREATE PROCEDURE p() BEGIN DECLARE r ROW(a INT, a INT); END",
            "CREATE PROCEDURE p() BEGIN DECLARE a TYPE OF nosuch; END",
        ] {
            assert!(parse_create_routine(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn block_depth_keeps_bodies_whole() {
        let pieces = super::super::split_statements(
            "CREATE PROCEDURE p() BEGIN IF 1 THEN SELECT CASE 1 WHEN 1 THEN 2 END; END IF; l: LOOP LEAVE l; END LOOP; END; SELECT 1",
        )
        .unwrap_or_default();
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        // As the binlog has it: the definer's tokens before PROCEDURE.
        let logged = "CREATE OR REPLACE DEFINER=`root`@`localhost` PROCEDURE `p`(id BIGINT, n INT)\nBEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; END WHILE; END";
        assert!(matches!(super::super::parse_single(logged).map(|p| p.statement), Ok(Statement::CreateRoutine(_))));
    }
}
