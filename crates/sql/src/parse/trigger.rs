//! Triggers' syntax, read from sqlparser's tokens as routines' is:
//! `CREATE TRIGGER`, `DROP TRIGGER`, `SHOW CREATE TRIGGER` and `SHOW
//! TRIGGERS`. The body is the routines' body language (see
//! `parse::routine`), where `NEW.col` and `OLD.col` are pseudo-variables.

use super::routine::{if_not_exists, object_name, parse_trigger_body};
use super::view::{definer, significant_tokens, Tokens};
use crate::ast::routine::{Routine, RoutineKind};
use crate::ast::trigger::{CreateTrigger, TriggerEvent, TriggerOrder, TriggerTiming};
use crate::ast::{ShowFilter, Statement};
use onelog_core::SqlResult;
use sqlparser::tokenizer::Token;
use std::sync::Arc;

/// Parses `CREATE ... TRIGGER` (`Ok(None)` for other CREATEs).
pub(crate) fn parse_create_trigger(text: &str) -> SqlResult<Option<CreateTrigger>> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 0 };
    if !t.eat("CREATE") {
        return Ok(None);
    }
    let or_replace = t.eat("OR");
    if or_replace {
        t.expect("REPLACE")?;
    }
    let definer = if t.eat("DEFINER") { definer(&mut t)? } else { None };
    let trigger_start = t.tokens.get(t.at).map_or(text.len(), |x| x.1);
    if !t.eat("TRIGGER") {
        return Ok(None);
    }
    let if_not_exists = if_not_exists(&mut t, or_replace)?;
    let name = object_name(&mut t)?;
    let timing = match t.keyword(t.at).as_deref() {
        Some("BEFORE") => TriggerTiming::Before,
        Some("AFTER") => TriggerTiming::After,
        _ => return Err(t.error()),
    };
    t.at += 1;
    let event = match t.keyword(t.at).as_deref() {
        Some("INSERT") => TriggerEvent::Insert,
        Some("UPDATE") => TriggerEvent::Update,
        Some("DELETE") => TriggerEvent::Delete,
        _ => return Err(t.error()),
    };
    t.at += 1;
    t.expect("ON")?;
    let table = object_name(&mut t)?;
    for word in ["FOR", "EACH", "ROW"] {
        t.expect(word)?;
    }
    let order_start = t.tokens.get(t.at).map_or(text.len(), |x| x.1);
    let order = if t.eat("FOLLOWS") {
        Some(TriggerOrder::Follows(t.ident()?))
    } else if t.eat("PRECEDES") {
        Some(TriggerOrder::Precedes(t.ident()?))
    } else {
        None
    };
    let body_start = t.tokens.get(t.at).map(|x| x.1).ok_or_else(|| t.error())?;
    let (body, references) = parse_trigger_body(&t, t.at)?;
    let trimmed = |from: usize| text[from..].trim().trim_end_matches(';').trim_end().to_string();
    Ok(Some(CreateTrigger {
        name,
        or_replace,
        if_not_exists,
        definer,
        timing,
        event,
        table,
        order,
        text_from_trigger: format!("{}{}", &text[trigger_start..order_start], trimmed(body_start)),
        logged_from_trigger: trimmed(trigger_start),
        body_text: trimmed(body_start),
        body: Arc::new(Routine { kind: RoutineKind::Procedure, params: Vec::new(), returns: None, body }),
        references,
        defined: None,
    }))
}

fn expect_end(t: &Tokens) -> SqlResult<()> {
    if t.at < t.tokens.len() && !t.next_is(&Token::SemiColon) {
        return Err(t.error());
    }
    Ok(())
}

/// `DROP TRIGGER [IF EXISTS] [db.]name`, `SHOW CREATE TRIGGER name` and
/// `SHOW TRIGGERS [FROM | IN db] [LIKE 'p' | WHERE expr]` (`Ok(None)` for
/// other statements).
pub(crate) fn parse_trigger_statement(text: &str, upper: &[String]) -> SqlResult<Option<Statement>> {
    let word = |i: usize| upper.get(i).map(String::as_str);
    match (word(0), word(1), word(2)) {
        (Some("DROP"), Some("TRIGGER"), _) => {
            let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 2 };
            let if_exists = t.eat("IF");
            if if_exists {
                t.expect("EXISTS")?;
            }
            let name = object_name(&mut t)?;
            expect_end(&t)?;
            Ok(Some(Statement::DropTrigger { name, if_exists }))
        }
        (Some("SHOW"), Some("CREATE"), Some("TRIGGER")) => {
            let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 3 };
            let name = object_name(&mut t)?;
            expect_end(&t)?;
            Ok(Some(Statement::ShowCreateTrigger(name)))
        }
        (Some("SHOW"), Some("TRIGGERS"), _) => show_triggers(text).map(Some),
        _ => Ok(None),
    }
}

fn show_triggers(text: &str) -> SqlResult<Statement> {
    let mut t = Tokens { text, tokens: significant_tokens(text)?, at: 2 };
    let db = if t.eat("FROM") || t.eat("IN") { Some(t.ident()?) } else { None };
    let filter = if t.eat("LIKE") {
        match t.tokens.get(t.at) {
            Some((Token::SingleQuotedString(p) | Token::DoubleQuotedString(p), _, _)) => {
                t.at += 1;
                Some(ShowFilter::Like(p.clone()))
            }
            _ => return Err(t.error()),
        }
    } else if t.eat("WHERE") {
        let start = t.tokens.get(t.at).map(|x| x.1).ok_or_else(|| t.error())?;
        t.at = t.tokens.len();
        Some(ShowFilter::Where(super::parse_expr_text(text[start..].trim_end_matches(';'))?))
    } else {
        None
    };
    expect_end(&t)?;
    Ok(Statement::ShowTriggers { db, filter })
}
