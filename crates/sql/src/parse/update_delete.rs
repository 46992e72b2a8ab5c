//! UPDATE and DELETE in MariaDB's grammar, which sqlparser reads only in
//! part: the modifiers `LOW_PRIORITY`, `QUICK` and `IGNORE` (sqlparser
//! takes `UPDATE IGNORE t` for a table named `ignore`), and the
//! multi-table forms `UPDATE t1, t2 ... SET`, `DELETE t1, t2 FROM ...` and
//! `DELETE FROM t1, t2 USING ...`. Built from sqlparser's own pieces
//! (table references, assignments, expressions), so names and expressions
//! read as everywhere else.

use super::dialect::MariaDbDialect;
use super::expr::{self, convert_expr, convert_order_by, push_joins};
use super::{object_name, ParamCounter};
use crate::ast::*;
use onelog_core::SqlError;
use sqlparser::ast as sp;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

/// Parses `sql` (an UPDATE or DELETE) into OneLog's statement.
pub(super) fn parse(sql: &str, params: &mut ParamCounter) -> Result<SqlResultOr, ParserError> {
    let dialect = MariaDbDialect;
    let mut p = Parser::new(&dialect).try_with_sql(sql)?;
    if p.parse_keyword(Keyword::UPDATE) {
        let ignore = modifiers(&mut p, false);
        let tables = p.parse_comma_separated(Parser::parse_table_and_joins)?;
        p.expect_keyword_is(Keyword::SET)?;
        let assignments = p.parse_comma_separated(Parser::parse_assignment)?;
        let tail = tail(&mut p, Clauses::Update)?;
        return Ok(update(tables, assignments, tail, ignore, params));
    }
    p.expect_keyword_is(Keyword::DELETE)?;
    // IGNORE only turns errors a DELETE cannot raise here (foreign keys)
    // into warnings, so it changes nothing.
    modifiers(&mut p, true);
    let delete = if p.parse_keyword(Keyword::FROM) {
        let targets = p.parse_comma_separated(delete_target)?;
        if p.parse_keyword(Keyword::USING) {
            let from = p.parse_comma_separated(Parser::parse_table_and_joins)?;
            let tail = tail(&mut p, Clauses::MultiDelete)?;
            multi_delete(targets, from, tail, params)
        } else {
            let tail = tail(&mut p, Clauses::SingleDelete)?;
            single_delete(targets, tail, params)
        }
    } else {
        let targets = p.parse_comma_separated(delete_target)?;
        p.expect_keyword_is(Keyword::FROM)?;
        let from = p.parse_comma_separated(Parser::parse_table_and_joins)?;
        let tail = tail(&mut p, Clauses::MultiDelete)?;
        multi_delete(targets, from, tail, params)
    };
    Ok(delete)
}

/// The statement, or the error converting it (not a syntax error).
pub(super) type SqlResultOr = onelog_core::SqlResult<Statement>;

/// Skips `LOW_PRIORITY`, `QUICK` (DELETE only) and `IGNORE`; returns
/// whether IGNORE was there. LOW_PRIORITY and QUICK only matter to
/// table-locking engines and MyISAM.
fn modifiers(p: &mut Parser, delete: bool) -> bool {
    let mut ignore = false;
    loop {
        if p.parse_keyword(Keyword::LOW_PRIORITY) {
            continue;
        }
        if p.parse_keyword(Keyword::IGNORE) {
            ignore = true;
            continue;
        }
        let quick = matches!(&p.peek_token().token, Token::Word(w) if w.quote_style.is_none()
            && w.value.eq_ignore_ascii_case("QUICK"));
        if delete && quick {
            p.next_token();
            continue;
        }
        return ignore;
    }
}

/// A DELETE target: `t`, `db.t`, `t.*` or `db.t.*`.
fn delete_target(p: &mut Parser) -> Result<sp::ObjectName, ParserError> {
    let mut parts = vec![p.parse_identifier()?];
    while p.consume_token(&Token::Period) {
        if p.consume_token(&Token::Mul) {
            break;
        }
        parts.push(p.parse_identifier()?);
    }
    Ok(sp::ObjectName::from(parts))
}

/// WHERE, ORDER BY, LIMIT and (single-table DELETE) RETURNING.
struct Tail {
    selection: Option<sp::Expr>,
    order_by: Vec<sp::OrderByExpr>,
    limit: Option<sp::Expr>,
    returning: Option<Vec<sp::SelectItem>>,
}

/// Which clauses may follow WHERE: MariaDB's multi-table DELETE has no
/// ORDER BY or LIMIT, and only a single-table DELETE has RETURNING; a
/// clause out of place is a syntax error at its first word.
#[derive(Clone, Copy, PartialEq)]
enum Clauses {
    Update,
    SingleDelete,
    MultiDelete,
}

/// Reads the clauses after the tables (after SET for UPDATE) up to the end.
fn tail(p: &mut Parser, clauses: Clauses) -> Result<Tail, ParserError> {
    let selection = if p.parse_keyword(Keyword::WHERE) { Some(p.parse_expr()?) } else { None };
    let mut tail = Tail { selection, order_by: Vec::new(), limit: None, returning: None };
    if clauses != Clauses::MultiDelete {
        if p.parse_keywords(&[Keyword::ORDER, Keyword::BY]) {
            tail.order_by = p.parse_comma_separated(Parser::parse_order_by_expr)?;
        }
        if p.parse_keyword(Keyword::LIMIT) {
            tail.limit = Some(p.parse_expr()?);
        }
    }
    if clauses == Clauses::SingleDelete && p.parse_keyword(Keyword::RETURNING) {
        tail.returning = Some(p.parse_comma_separated(Parser::parse_select_item)?);
    }
    while p.consume_token(&Token::SemiColon) {}
    let next = p.peek_token();
    if next.token != Token::EOF {
        let at = next.span.start;
        return Err(ParserError::ParserError(format!(
            "Expected end of statement, found: {} at Line: {}, Column: {}",
            next.token, at.line, at.column
        )));
    }
    Ok(tail)
}

fn update(
    mut tables: Vec<sp::TableWithJoins>,
    assignments: Vec<sp::Assignment>,
    tail: Tail,
    ignore: bool,
    params: &mut ParamCounter,
) -> SqlResultOr {
    let single = matches!(tables.as_slice(), [t] if t.joins.is_empty()
        && matches!(t.relation, sp::TableFactor::Table { .. }));
    if single {
        let table = tables.remove(0);
        let single = sp::Update {
            update_token: sp::helpers::attached_token::AttachedToken::empty(),
            optimizer_hints: Vec::new(),
            table,
            assignments,
            from: None,
            selection: tail.selection,
            returning: None,
            output: None,
            or: None,
            order_by: tail.order_by,
            limit: tail.limit,
        };
        let mut upd = expr::convert_update(&single, params)?;
        upd.ignore = ignore;
        return Ok(Statement::Update(upd));
    }
    let mut from = Vec::new();
    for t in &tables {
        push_joins(&mut from, t, params)?;
    }
    let assignments = assignments
        .iter()
        .map(|a| {
            let (table, column) = assignment_target(a)?;
            Ok((table, column, convert_expr(&a.value, params)?))
        })
        .collect::<onelog_core::SqlResult<_>>()?;
    Ok(Statement::MultiUpdate(Box::new(MultiUpdate {
        from,
        assignments,
        selection: tail.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        order_by: convert_order_by(&tail.order_by, params)?,
        limit: tail.limit.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        ignore,
    })))
}

/// `[db.][table.]column` of an assignment: (table or alias, column).
fn assignment_target(a: &sp::Assignment) -> onelog_core::SqlResult<(Option<String>, String)> {
    match &a.target {
        sp::AssignmentTarget::ColumnName(name) => {
            let name = object_name(name)?;
            Ok((name.db, name.name))
        }
        sp::AssignmentTarget::Tuple(_) => Err(super::unsupported("tuple assignment")),
    }
}

fn single_delete(mut targets: Vec<sp::ObjectName>, tail: Tail, params: &mut ParamCounter) -> SqlResultOr {
    if targets.len() != 1 {
        return Err(SqlError::parse("", 1));
    }
    let table = object_name(&targets.remove(0))?;
    let returning = tail.returning.unwrap_or_default();
    Ok(Statement::Delete(Delete {
        table,
        selection: tail.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        order_by: convert_order_by(&tail.order_by, params)?,
        limit: tail.limit.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        returning: returning
            .iter()
            .map(|item| expr::convert_select_item(item, None, params))
            .collect::<onelog_core::SqlResult<_>>()?,
    }))
}

fn multi_delete(
    targets: Vec<sp::ObjectName>,
    tables: Vec<sp::TableWithJoins>,
    tail: Tail,
    params: &mut ParamCounter,
) -> SqlResultOr {
    let mut from = Vec::new();
    for t in &tables {
        push_joins(&mut from, t, params)?;
    }
    Ok(Statement::MultiDelete(Box::new(MultiDelete {
        targets: targets.iter().map(object_name).collect::<onelog_core::SqlResult<_>>()?,
        from,
        selection: tail.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?,
    })))
}

#[cfg(test)]
mod tests {
    use super::super::parse_single;
    use crate::ast::*;

    fn statement(sql: &str) -> Statement {
        match parse_single(sql) {
            Ok(p) => p.statement,
            Err(e) => panic!("{sql}: {e:?}"),
        }
    }

    #[test]
    fn modifiers_are_not_table_names() {
        let Statement::Update(upd) = statement("UPDATE LOW_PRIORITY IGNORE t1 SET a = 1") else { panic!() };
        assert_eq!((upd.table.name.as_str(), upd.ignore), ("t1", true));
        let Statement::Delete(del) = statement("DELETE LOW_PRIORITY QUICK IGNORE FROM t1 WHERE a = 1") else {
            panic!()
        };
        assert_eq!(del.table.name, "t1");
    }

    #[test]
    fn multi_table_forms() {
        let Statement::MultiUpdate(upd) = statement("UPDATE t1 AS a, t2 SET a.x = 1, y = 2 WHERE a.id = t2.id") else {
            panic!()
        };
        assert_eq!(upd.from.len(), 2);
        let targets: Vec<_> = upd.assignments.iter().map(|(t, c, _)| (t.clone(), c.clone())).collect();
        assert_eq!(targets, [(Some("a".to_string()), "x".to_string()), (None, "y".to_string())]);
        for sql in ["DELETE t1.*, t2 FROM t1 JOIN t2 ON t1.id = t2.id", "DELETE FROM t1, t2 USING t1, t2, t3"] {
            let Statement::MultiDelete(del) = statement(sql) else { panic!("{sql}") };
            let names: Vec<&str> = del.targets.iter().map(|t| t.name.as_str()).collect();
            assert_eq!(names, ["t1", "t2"], "{sql}");
        }
    }

    #[test]
    fn clauses_out_of_place_are_syntax_errors() {
        for sql in [
            "DELETE t1 FROM t1, t2 LIMIT 1",
            "DELETE t1 FROM t1, t2 ORDER BY t1.id",
            "UPDATE t1 SET a = 1 RETURNING a",
            "UPDATE t1 SET a = 1 WHERE",
        ] {
            let err = parse_single(sql).err().unwrap_or_else(|| panic!("{sql} parsed"));
            assert_eq!(err.code.number, 1064, "{sql}");
        }
    }
}
