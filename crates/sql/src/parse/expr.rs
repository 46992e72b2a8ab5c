//! Conversion of sqlparser queries, DML and expressions.

use super::{object_name, unsupported, ParamCounter};
use crate::ast::*;
use onelog_core::decimal::Decimal;
use onelog_core::{SqlError, SqlResult, Value};
use sqlparser::ast as sp;
use sqlparser::ast::Spanned;

pub(crate) fn convert_query(q: &sp::Query, params: &mut ParamCounter) -> SqlResult<Select> {
    let Some(with) = &q.with else { return convert_query_body(q, params) };
    let scope_start = super::with::enter_ctes(with, params)?;
    let select = convert_query_body(q, params);
    params.ctes.truncate(scope_start);
    select
}

fn convert_query_body(q: &sp::Query, params: &mut ParamCounter) -> SqlResult<Select> {
    let mut select = convert_set_expr(&q.body, params)?;
    if let Some(order_by) = &q.order_by {
        if let sp::OrderByKind::Expressions(exprs) = &order_by.kind {
            select.order_by = convert_order_by(exprs, params)?;
        }
    }
    match &q.limit_clause {
        Some(sp::LimitClause::LimitOffset { limit, offset, .. }) => {
            // MySQL's grammar takes only unsigned literals or `?` in LIMIT.
            if let Some(sp::Expr::UnaryOp { op: sp::UnaryOperator::Minus, expr }) = limit {
                return Err(SqlError::parse(&format!("-{expr}"), 1));
            }
            select.limit = limit.as_ref().map(|e| convert_expr(e, params)).transpose()?;
            select.offset = offset.as_ref().map(|o| convert_expr(&o.value, params)).transpose()?;
        }
        Some(sp::LimitClause::OffsetCommaLimit { offset, limit }) => {
            select.offset = Some(convert_expr(offset, params)?);
            select.limit = Some(convert_expr(limit, params)?);
        }
        None => {}
    }
    if let Some(lock) = q.locks.first() {
        select.lock = Some(match lock.lock_type {
            sp::LockType::Share => LockMode::Share,
            sp::LockType::Update => LockMode::Update,
        });
    }
    Ok(select)
}

pub(super) fn convert_set_expr(body: &sp::SetExpr, params: &mut ParamCounter) -> SqlResult<Select> {
    match body {
        sp::SetExpr::Select(s) => convert_select(s, params),
        sp::SetExpr::Query(q) => convert_query(q, params),
        sp::SetExpr::SetOperation { left, op: sp::SetOperator::Union, set_quantifier, right } => {
            let mut first = union_part(left, params)?;
            let second = union_part(right, params)?;
            let all = matches!(set_quantifier, sp::SetQuantifier::All);
            append_union(&mut first, all, second);
            Ok(first)
        }
        sp::SetExpr::Values(values) => {
            // `VALUES (...)` as a query: a union of constant rows.
            let mut rows = values.rows.iter();
            let first = rows.next().ok_or_else(|| SqlError::parse("VALUES", 1))?;
            let mut select = constant_select(first, params)?;
            for row in rows {
                append_union(&mut select, true, constant_select(row, params)?);
            }
            Ok(select)
        }
        other => Err(unsupported(other.to_string().chars().take(40).collect::<String>())),
    }
}

/// Name of the derived table a parenthesized UNION part with its own LIMIT
/// runs as (no identifier a statement can write holds NUL).
const UNION_PART_ALIAS: &str = "\0union part";

/// One part of a UNION. A parenthesized one keeps its own LIMIT (and the
/// ORDER BY that picks what it keeps) by running as a derived table: the
/// chain's first Select carries the whole UNION's ORDER BY and LIMIT. Its
/// ORDER BY without LIMIT orders nothing, as in MariaDB.
fn union_part(part: &sp::SetExpr, params: &mut ParamCounter) -> SqlResult<Select> {
    let mut select = convert_set_expr(part, params)?;
    if !matches!(part, sp::SetExpr::Query(_)) {
        return Ok(select);
    }
    if select.limit.is_none() && select.offset.is_none() {
        select.order_by.clear();
        return Ok(select);
    }
    let derived = TableFactor::Derived { query: Box::new(select), alias: UNION_PART_ALIAS.into(), columns: Vec::new() };
    let from = Join { kind: JoinKind::Inner, factor: derived, on: None, using: Vec::new(), natural: false };
    Ok(Select { items: vec![SelectItem::Wildcard], from: vec![from], ..Select::default() })
}

/// Appends `next` at the end of the UNION chain so `a UNION b UNION c`
/// keeps its order.
pub(super) fn append_union(select: &mut Select, all: bool, next: Select) {
    if let Some((_, tail)) = select.union.as_mut() {
        return append_union(tail, all, next);
    }
    select.union = Some((all, Box::new(next)));
}

fn constant_select(row: &[sp::Expr], params: &mut ParamCounter) -> SqlResult<Select> {
    let items = row
        .iter()
        .map(|e| Ok(SelectItem::Expr { expr: convert_expr(e, params)?, alias: None, text: e.to_string() }))
        .collect::<SqlResult<_>>()?;
    Ok(empty_select(items))
}

pub(crate) fn empty_select(items: Vec<SelectItem>) -> Select {
    Select { items, ..Select::default() }
}

fn convert_select(s: &sp::Select, params: &mut ParamCounter) -> SqlResult<Select> {
    let windows_start = super::window::enter_named_windows(&s.named_window, params)?;
    let select = convert_select_in_windows(s, params);
    params.named_windows.truncate(windows_start);
    select
}

fn convert_select_in_windows(s: &sp::Select, params: &mut ParamCounter) -> SqlResult<Select> {
    if let Some(into) = &s.into {
        // Only a top-level query takes INTO (see `select_into`).
        return Err(SqlError::parse(&into.to_string(), 1));
    }
    let select_no = params.next_select();
    let items = s
        .projection
        .iter()
        .enumerate()
        .map(|(i, item)| convert_select_item(item, Some((select_no, i)), params))
        .collect::<SqlResult<Vec<_>>>()?;
    let mut select = empty_select(items);
    select.distinct = matches!(s.distinct, Some(sp::Distinct::Distinct));
    select.calc_found_rows = s.select_modifiers.as_ref().is_some_and(|m| m.sql_calc_found_rows);
    for twj in from_without_dual(&s.from)? {
        push_joins(&mut select.from, twj, params)?;
    }
    select.selection = s.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?;
    if let sp::GroupByExpr::Expressions(exprs, modifiers) = &s.group_by {
        select.group_by = exprs.iter().map(|e| convert_expr(e, params)).collect::<SqlResult<_>>()?;
        for modifier in modifiers {
            match modifier {
                sp::GroupByWithModifier::Rollup => select.rollup = true,
                sp::GroupByWithModifier::Cube => return Err(SqlError::not_supported("CUBE")),
                other => return Err(unsupported(other)),
            }
        }
    }
    select.having = s.having.as_ref().map(|e| convert_expr(e, params)).transpose()?;
    Ok(select)
}

/// `position` is (SELECT number, item number), to look up the item's
/// heading in the statement text (none for RETURNING items).
pub(super) fn convert_select_item(
    item: &sp::SelectItem,
    position: Option<(usize, usize)>,
    params: &mut ParamCounter,
) -> SqlResult<SelectItem> {
    Ok(match item {
        sp::SelectItem::UnnamedExpr(e) => {
            let text = match (e, position) {
                // MariaDB heads TRUE and FALSE in capitals, however written.
                (sp::Expr::Value(v), _) if matches!(v.value, sp::Value::Boolean(_)) => v.to_string().to_uppercase(),
                // A routine's local variable reads as `?` here: its heading
                // is its name, as written.
                // A hex or bit literal is headed as written (`0x41`, `x'41'`).
                (
                    sp::Expr::Identifier(_)
                    | sp::Expr::CompoundIdentifier(_)
                    | sp::Expr::Value(_)
                    | sp::Expr::Prefixed { .. },
                    _,
                )
                | (_, None)
                    if e.to_string() != "?" && (!is_hex_or_bits(e) || position.is_none()) =>
                {
                    item_text(e)
                }
                (_, Some((select, item))) => params.heading(select, item).unwrap_or_else(|| item_text(e)),
                (_, None) => item_text(e),
            };
            // MariaDB drops what a heading starts with that does not print
            // (`SELECT ' c3'` is headed `c3`).
            let text = text.trim_start_matches(|c: char| c.is_whitespace() || c.is_control()).to_string();
            SelectItem::Expr { expr: convert_expr(e, params)?, alias: None, text }
        }
        sp::SelectItem::ExprWithAlias { expr, alias } => SelectItem::Expr {
            expr: convert_expr(expr, params)?,
            alias: Some(alias.value.clone()),
            text: item_text(expr),
        },
        sp::SelectItem::Wildcard(_) => SelectItem::Wildcard,
        sp::SelectItem::QualifiedWildcard(sp::SelectItemQualifiedWildcardKind::ObjectName(name), _) => {
            SelectItem::QualifiedWildcard(object_name(name)?.name)
        }
        other => return Err(unsupported(other)),
    })
}

/// `FROM DUAL` is no table at all; DUAL (unquoted) with other tables is a
/// syntax error, as in MariaDB.
fn from_without_dual(from: &[sp::TableWithJoins]) -> SqlResult<&[sp::TableWithJoins]> {
    let is_dual = |twj: &sp::TableWithJoins| match &twj.relation {
        sp::TableFactor::Table { name, alias: None, .. } => {
            matches!(name.0.as_slice(), [sp::ObjectNamePart::Identifier(id)]
                if id.quote_style.is_none() && id.value.eq_ignore_ascii_case("dual"))
        }
        _ => false,
    };
    match from {
        [only] if is_dual(only) && only.joins.is_empty() => Ok(&[]),
        _ if from.iter().any(is_dual) => Err(SqlError::parse("dual", 1)),
        _ => Ok(from),
    }
}

fn is_hex_or_bits(e: &sp::Expr) -> bool {
    match e {
        sp::Expr::Prefixed { value, .. } => is_hex_or_bits(value),
        sp::Expr::Value(v) => {
            matches!(v.value, sp::Value::HexStringLiteral(_) | sp::Value::SingleQuotedByteStringLiteral(_))
        }
        _ => false,
    }
}

/// The column heading MySQL shows for an unaliased expression: the
/// identifier itself, otherwise the expression's text.
fn item_text(e: &sp::Expr) -> String {
    match e {
        sp::Expr::Identifier(id) => id.value.clone(),
        sp::Expr::CompoundIdentifier(ids) if ids.first().is_some_and(|i| i.value.starts_with('@')) => {
            ids.iter().map(|i| i.value.as_str()).collect::<Vec<_>>().join(".")
        }
        sp::Expr::CompoundIdentifier(ids) => ids.last().map(|i| i.value.clone()).unwrap_or_default(),
        sp::Expr::Value(v) => match &v.value {
            sp::Value::SingleQuotedString(s) | sp::Value::DoubleQuotedString(s) => s.clone(),
            other => other.to_string(),
        },
        // `_latin1'abc'` is headed `abc`.
        sp::Expr::Prefixed { value, .. } => item_text(value),
        other => other.to_string(),
    }
}

fn convert_factor(factor: &sp::TableFactor, params: &mut ParamCounter) -> SqlResult<TableFactor> {
    match factor {
        sp::TableFactor::Table { name, alias, index_hints, .. } => {
            let (name, alias) = (object_name(name)?, alias.as_ref().map(|a| a.name.value.clone()));
            let index_hints = index_hints.iter().flat_map(|h| h.index_names.iter().map(|i| i.value.clone())).collect();
            match super::with::cte_factor(&name, alias.clone(), params) {
                Some(cte) => Ok(cte),
                None => Ok(TableFactor::Table { name, alias, index_hints }),
            }
        }
        sp::TableFactor::Derived { subquery, alias, .. } => {
            let alias = alias.as_ref().map(|a| a.name.value.clone()).ok_or_else(|| {
                SqlError::new(
                    onelog_core::ErrorCode::DERIVED_MUST_HAVE_ALIAS,
                    "Every derived table must have its own alias",
                )
            })?;
            Ok(TableFactor::Derived { query: Box::new(convert_query(subquery, params)?), alias, columns: Vec::new() })
        }
        other => Err(unsupported(other)),
    }
}

/// Appends a FROM item and its joins. A parenthesized join leading it,
/// `(a JOIN b ON c) JOIN d ...` (MariaDB prints views' joins so), is the
/// same left-deep join without the parentheses.
pub(super) fn push_joins(from: &mut Vec<Join>, twj: &sp::TableWithJoins, params: &mut ParamCounter) -> SqlResult<()> {
    match &twj.relation {
        sp::TableFactor::NestedJoin { table_with_joins, alias: None } => push_joins(from, table_with_joins, params)?,
        relation => {
            let kind = if from.is_empty() { JoinKind::Inner } else { JoinKind::Cross };
            let factor = convert_factor(relation, params)?;
            from.push(Join { kind, factor, on: None, using: Vec::new(), natural: false });
        }
    }
    for join in &twj.joins {
        match &join.relation {
            sp::TableFactor::NestedJoin { table_with_joins, alias: None } => {
                push_nested_inner_join(from, join, table_with_joins, params)?
            }
            _ => from.push(convert_join(join, params)?),
        }
    }
    Ok(())
}

/// `a JOIN (b JOIN c ON x) ON y` (what `a JOIN b JOIN c ON x` parses as):
/// with inner joins only, the same rows as the left-deep `a JOIN b JOIN c
/// ON x AND y`. A nested join with an outer join on either side changes
/// meaning when flattened and is not supported yet.
fn push_nested_inner_join(
    from: &mut Vec<Join>,
    join: &sp::Join,
    nested: &sp::TableWithJoins,
    params: &mut ParamCounter,
) -> SqlResult<()> {
    use sp::JoinOperator as J;
    let inner = |op: &sp::JoinOperator| {
        matches!(op, J::Join(c) | J::Inner(c) | J::CrossJoin(c)
            if matches!(c, sp::JoinConstraint::On(_) | sp::JoinConstraint::None))
    };
    if !inner(&join.join_operator) || !nested.joins.iter().all(|j| inner(&j.join_operator)) {
        return Err(unsupported(&join.relation));
    }
    let first = from.len();
    push_joins(from, nested, params)?;
    if let Some(leading) = from.get_mut(first) {
        leading.kind = JoinKind::Inner;
    }
    let outer_on = match &join.join_operator {
        J::Join(sp::JoinConstraint::On(e)) | J::Inner(sp::JoinConstraint::On(e)) => Some(convert_expr(e, params)?),
        _ => None,
    };
    if let (Some(on), Some(last)) = (outer_on, from.last_mut()) {
        last.kind = JoinKind::Inner;
        last.on = Some(match last.on.take() {
            Some(inner_on) => Expr::Binary(BinOp::And, Box::new(inner_on), Box::new(on)),
            None => on,
        });
    }
    Ok(())
}

fn convert_join(join: &sp::Join, params: &mut ParamCounter) -> SqlResult<Join> {
    use sp::JoinOperator as J;
    let (kind, constraint) = match &join.join_operator {
        J::Join(c) | J::Inner(c) | J::StraightJoin(c) => (JoinKind::Inner, c),
        J::Left(c) | J::LeftOuter(c) => (JoinKind::Left, c),
        J::Right(c) | J::RightOuter(c) => (JoinKind::Right, c),
        J::CrossJoin(c) => (JoinKind::Cross, c),
        other => return Err(unsupported(format!("{other:?}").split('(').next().unwrap_or("JOIN").to_string())),
    };
    let (on, using) = match constraint {
        sp::JoinConstraint::On(e) => (Some(convert_expr(e, params)?), Vec::new()),
        sp::JoinConstraint::None | sp::JoinConstraint::Natural => (None, Vec::new()),
        sp::JoinConstraint::Using(columns) => {
            let names = columns.iter().map(|c| object_name(c).map(|n| n.name)).collect::<SqlResult<Vec<_>>>()?;
            (None, names)
        }
    };
    let natural = matches!(constraint, sp::JoinConstraint::Natural);
    Ok(Join { kind, factor: convert_factor(&join.relation, params)?, on, using, natural })
}

pub(super) fn convert_order_by(exprs: &[sp::OrderByExpr], params: &mut ParamCounter) -> SqlResult<Vec<OrderBy>> {
    exprs
        .iter()
        .map(|o| {
            Ok(OrderBy {
                expr: convert_expr(&o.expr, params)?,
                desc: matches!(o.options.sort, Some(sp::OrderBySort::Desc)),
            })
        })
        .collect()
}

fn single_table(twj: &sp::TableWithJoins) -> SqlResult<(ObjectName, Option<String>)> {
    if !twj.joins.is_empty() {
        return Err(unsupported("multi-table UPDATE/DELETE"));
    }
    match &twj.relation {
        sp::TableFactor::Table { name, alias, .. } => {
            Ok((object_name(name)?, alias.as_ref().map(|a| a.name.value.clone())))
        }
        other => Err(unsupported(other)),
    }
}

fn assignment_column(a: &sp::Assignment) -> SqlResult<String> {
    match &a.target {
        sp::AssignmentTarget::ColumnName(name) => Ok(object_name(name)?.name),
        sp::AssignmentTarget::Tuple(_) => Err(unsupported("tuple assignment")),
    }
}

pub(crate) fn convert_insert(ins: &sp::Insert, params: &mut ParamCounter) -> SqlResult<Insert> {
    let table = match &ins.table {
        sp::TableObject::TableName(name) => object_name(name)?,
        other => return Err(unsupported(other)),
    };
    let mut columns: Vec<String> =
        ins.columns.iter().map(|c| object_name(c).map(|n| n.name)).collect::<SqlResult<_>>()?;
    let source = match &ins.source {
        Some(q) => match q.body.as_ref() {
            sp::SetExpr::Values(values) => InsertSource::Values(
                values
                    .rows
                    .iter()
                    .map(|row| row.iter().map(|e| convert_expr(e, params)).collect::<SqlResult<Vec<_>>>())
                    .collect::<SqlResult<_>>()?,
            ),
            _ => InsertSource::Select(Box::new(convert_query(q, params)?)),
        },
        None if !ins.assignments.is_empty() => {
            // INSERT ... SET a=1, b=2
            let mut row = Vec::new();
            for a in &ins.assignments {
                columns.push(assignment_column(a)?);
                row.push(convert_expr(&a.value, params)?);
            }
            InsertSource::Values(vec![row])
        }
        None => return Err(SqlError::parse("INSERT", 1)),
    };
    let on_duplicate = match &ins.on {
        Some(sp::OnInsert::DuplicateKeyUpdate(assignments)) => assignments
            .iter()
            .map(|a| Ok((assignment_column(a)?, convert_expr(&a.value, params)?)))
            .collect::<SqlResult<_>>()?,
        Some(other) => return Err(unsupported(other)),
        None => Vec::new(),
    };
    let returning = convert_returning(ins.returning.as_deref(), params)?;
    Ok(Insert { table, columns, source, ignore: ins.ignore, replace: ins.replace_into, on_duplicate, returning })
}

pub(crate) fn convert_update(upd: &sp::Update, params: &mut ParamCounter) -> SqlResult<Update> {
    if upd.from.is_some() {
        return Err(unsupported("UPDATE ... FROM"));
    }
    if upd.returning.is_some() {
        // MariaDB has RETURNING for INSERT, REPLACE and DELETE only.
        return Err(SqlError::parse("RETURNING", 1));
    }
    let (table, alias) = single_table(&upd.table)?;
    let assignments = upd
        .assignments
        .iter()
        .map(|a| Ok((assignment_column(a)?, convert_expr(&a.value, params)?)))
        .collect::<SqlResult<_>>()?;
    Ok(Update {
        table,
        alias,
        assignments,
        selection: upd.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        order_by: convert_order_by(&upd.order_by, params)?,
        limit: upd.limit.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        ignore: false,
    })
}

pub(crate) fn convert_delete(del: &sp::Delete, params: &mut ParamCounter) -> SqlResult<Delete> {
    let tables = match &del.from {
        sp::FromTable::WithFromKeyword(t) | sp::FromTable::WithoutKeyword(t) => t,
    };
    if tables.len() != 1 || !del.tables.is_empty() || del.using.is_some() {
        return Err(unsupported("multi-table DELETE"));
    }
    let (table, _) = single_table(&tables[0])?;
    Ok(Delete {
        table,
        selection: del.selection.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        order_by: convert_order_by(&del.order_by, params)?,
        limit: del.limit.as_ref().map(|e| convert_expr(e, params)).transpose()?,
        returning: convert_returning(del.returning.as_deref(), params)?,
    })
}

fn convert_returning(items: Option<&[sp::SelectItem]>, params: &mut ParamCounter) -> SqlResult<Vec<SelectItem>> {
    items.unwrap_or_default().iter().map(|item| convert_select_item(item, None, params)).collect()
}

fn boxed(e: &sp::Expr, params: &mut ParamCounter) -> SqlResult<Box<Expr>> {
    Ok(Box::new(convert_expr(e, params)?))
}

/// `DATE '...'`, `TIME '...'`, `TIMESTAMP '...'` (and ODBC's `{d '...'}`):
/// a value of that type. A DATE literal has no time part and a TIMESTAMP one
/// has one; a string that is not such a value is error 1525, or stays the
/// string it was under ODBC's syntax (MariaDB's `make_odbc_literal`).
fn temporal_literal(ts: &sp::TypedString, params: &mut ParamCounter) -> SqlResult<Expr> {
    use crate::eval::temporal::{parse_datetime, parse_time};
    let (sp::Value::SingleQuotedString(text) | sp::Value::DoubleQuotedString(text)) = &ts.value.value else {
        return convert_value(&ts.value.value, params);
    };
    let trimmed = text.trim();
    let has_time =
        trimmed.contains([' ', 'T', ':']) || (trimmed.len() > 8 && trimmed.bytes().all(|b| b.is_ascii_digit()));
    let (name, value) = match &ts.data_type {
        sp::DataType::Date => ("DATE", parse_datetime(text).filter(|_| !has_time).map(Value::Date)),
        sp::DataType::Time(..) => ("TIME", parse_time(text).map(Value::Time)),
        sp::DataType::Timestamp(..) | sp::DataType::Datetime(_) => {
            ("DATETIME", parse_datetime(text).filter(|_| has_time).map(Value::DateTime))
        }
        _ => return convert_value(&ts.value.value, params),
    };
    match value {
        Some(value) => Ok(Expr::Literal(value)),
        None if ts.uses_odbc_syntax => convert_value(&ts.value.value, params),
        None => Err(SqlError::new(onelog_core::ErrorCode::WRONG_VALUE, format!("Incorrect {name} value: '{text}'"))),
    }
}

/// `_charset'text'`, `_charset 0x..`, `_charset X'..'`: the literal in the
/// charset's default collation, still coercible (MariaDB's COERCIBILITY 4;
/// see `eval::expr_collation`); hex digits are bytes of that charset. A
/// word that names no charset is MariaDB's column `_word` aliased.
fn introduced(prefix: &sp::Ident, value: &sp::Expr, params: &mut ParamCounter) -> SqlResult<Expr> {
    let charset = prefix
        .value
        .strip_prefix('_')
        .and_then(onelog_core::Charset::named)
        .ok_or_else(|| SqlError::bad_field(&prefix.value, "SELECT"))?;
    let literal = match value {
        sp::Expr::Value(v) => match &v.value {
            sp::Value::HexStringLiteral(h) => {
                let bytes = super::literals::hex_bytes(h).ok_or_else(|| SqlError::parse(h, 1))?;
                Expr::Literal(Value::Bytes(charset.decode(&bytes).into_owned()))
            }
            other => convert_value(other, params)?,
        },
        other => convert_expr(other, params)?,
    };
    Ok(Expr::Collate { expr: Box::new(literal), collation: charset.default_collation(), explicit: false })
}

fn convert_value(v: &sp::Value, params: &mut ParamCounter) -> SqlResult<Expr> {
    Ok(match v {
        sp::Value::Number(text, _) => Expr::Literal(number_literal(text)?),
        sp::Value::SingleQuotedString(s)
        | sp::Value::DoubleQuotedString(s)
        | sp::Value::EscapedStringLiteral(s)
        | sp::Value::NationalStringLiteral(s) => Expr::Literal(Value::Bytes(super::literal_bytes(s))),
        sp::Value::HexStringLiteral(h) => {
            Expr::Literal(Value::Bytes(super::literals::hex_bytes(h).ok_or_else(|| SqlError::parse(h, 1))?))
        }
        // b'0101' (and 0x41, rewritten so by `literals::hybrid_form`).
        sp::Value::SingleQuotedByteStringLiteral(s) => {
            Expr::HexHybrid(super::literals::bit_bytes(s).ok_or_else(|| SqlError::parse(s, 1))?)
        }
        sp::Value::DoubleQuotedByteStringLiteral(s) => Expr::Literal(Value::Bytes(super::literal_bytes(s))),
        sp::Value::Boolean(b) => Expr::Literal(Value::Int(i64::from(*b))),
        sp::Value::Null => Expr::Literal(Value::Null),
        sp::Value::Placeholder(p) if p == "?" => Expr::Param(params.next()),
        other => return Err(unsupported(other)),
    })
}

/// Integer literals are BIGINT (UNSIGNED when they need it), literals with a
/// point are DECIMAL, literals with an exponent are DOUBLE — MySQL's rules.
pub(crate) fn number_literal(text: &str) -> SqlResult<Value> {
    if text.contains(['e', 'E']) {
        return text.parse::<f64>().map(Value::Double).map_err(|_| SqlError::parse(text, 1));
    }
    if text.contains('.') {
        return match text.parse::<Decimal>() {
            Ok(d) => Ok(Value::Decimal(d)),
            Err(_) => text.parse::<f64>().map(Value::Double).map_err(|_| SqlError::parse(text, 1)),
        };
    }
    if let Ok(i) = text.parse::<i64>() {
        return Ok(Value::Int(i));
    }
    if let Ok(u) = text.parse::<u64>() {
        return Ok(Value::UInt(u));
    }
    match text.parse::<Decimal>() {
        Ok(d) => Ok(Value::Decimal(d)),
        Err(_) => text.parse::<f64>().map(Value::Double).map_err(|_| SqlError::parse(text, 1)),
    }
}

fn binop(op: &sp::BinaryOperator) -> SqlResult<BinOp> {
    use sp::BinaryOperator as B;
    Ok(match op {
        B::Plus => BinOp::Add,
        B::Minus => BinOp::Sub,
        B::Multiply => BinOp::Mul,
        B::Divide => BinOp::Div,
        B::Modulo => BinOp::Mod,
        B::MyIntegerDivide | B::DuckIntegerDivide => BinOp::IntDiv,
        B::Eq => BinOp::Eq,
        B::Spaceship => BinOp::NullSafeEq,
        B::NotEq => BinOp::NotEq,
        B::Lt => BinOp::Lt,
        B::LtEq => BinOp::LtEq,
        B::Gt => BinOp::Gt,
        B::GtEq => BinOp::GtEq,
        B::And => BinOp::And,
        B::Or => BinOp::Or,
        B::Xor => BinOp::Xor,
        B::BitwiseAnd => BinOp::BitAnd,
        B::BitwiseOr => BinOp::BitOr,
        B::BitwiseXor => BinOp::BitXor,
        B::PGBitwiseShiftLeft => BinOp::ShiftLeft,
        B::PGBitwiseShiftRight => BinOp::ShiftRight,
        // MySQL's `||` is OR unless sql_mode has PIPES_AS_CONCAT.
        B::StringConcat => BinOp::Or,
        other => return Err(unsupported(other)),
    })
}

/// The length of a CHAR(n) target.
fn character_length(length: &Option<sp::CharacterLength>) -> Option<u32> {
    match length {
        Some(sp::CharacterLength::IntegerLength { length, .. }) => u32::try_from(*length).ok(),
        _ => None,
    }
}

/// A CAST / CONVERT target. MariaDB's grammar has no TEXT, BLOB,
/// TIMESTAMP, BIGINT, REAL, DOUBLE PRECISION, NUMERIC or JSON there: 1064.
/// Precision errors name the argument as MariaDB prints it (1426), except
/// M < D, which names no column (1427).
fn cast_type(dt: &sp::DataType, arg: &sp::Expr) -> SqlResult<CastType> {
    use sp::DataType as D;
    let arg_name = || match arg {
        sp::Expr::Value(v) => match &v.value {
            sp::Value::SingleQuotedString(text) | sp::Value::DoubleQuotedString(text) => text.clone(),
            other => other.to_string(),
        },
        other => other.to_string(),
    };
    Ok(match dt {
        D::Signed | D::SignedInteger | D::Int(_) | D::Integer(_) => CastType::Signed,
        D::Unsigned | D::UnsignedInteger | D::IntUnsigned(_) | D::BigIntUnsigned(_) => CastType::Unsigned,
        D::Char(length) | D::Character(length) => CastType::Char(character_length(length)),
        D::Varchar(length) | D::Nvarchar(length) => CastType::Char(character_length(length)),
        D::String(length) => CastType::Char(length.and_then(|n| u32::try_from(n).ok())),
        D::Binary(length) => CastType::Binary(length.and_then(|n| u32::try_from(n).ok())),
        D::Varbinary(length) => CastType::Binary(match length {
            Some(sp::BinaryLength::IntegerLength { length }) => u32::try_from(*length).ok(),
            _ => None,
        }),
        D::Decimal(info) | D::Dec(info) => {
            // As DECIMAL(M,D) checks it, but 1427 names no column.
            let (precision, scale) = match super::ddl::decimal_precision(&arg_name(), info) {
                Err(e) if e.code == onelog_core::ErrorCode::M_BIGGER_THAN_D => return Err(m_bigger_than_d()),
                checked => checked?,
            };
            CastType::Decimal { precision, scale }
        }
        D::Double(info) => CastType::Double(cast_double_digits(info, &arg_name())?),
        // CAST(x AS FLOAT) takes no length (a syntax error, as in MariaDB).
        D::Float(sp::ExactNumberInfo::None) => CastType::Double(None),
        D::Date => CastType::Date,
        D::Datetime(p) => CastType::DateTime(super::ddl::fsp(&arg_name(), p)?),
        D::Time(p, _) => CastType::Time(super::ddl::fsp(&arg_name(), p)?),
        D::Uuid => CastType::Uuid,
        D::Text
        | D::Blob(_)
        | D::Timestamp(_, _)
        | D::BigInt(_)
        | D::Real
        | D::DoublePrecision
        | D::Numeric(_)
        | D::Float(_)
        | D::JSON => return Err(SqlError::parse(&dt.to_string(), 1)),
        other => return Err(unsupported(other)),
    })
}

/// A CAST's `(M,D)` with D > M: 1427, naming no column.
fn m_bigger_than_d() -> SqlError {
    SqlError::new(
        onelog_core::ErrorCode::M_BIGGER_THAN_D,
        "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '')",
    )
}

/// CAST(x AS DOUBLE(M,D)): D over M is 1427, M over 65 is 1426; D of 31 or
/// more is a DOUBLE without fixed decimals (NOT_FIXED_DEC, 31), as in MariaDB.
fn cast_double_digits(
    info: &sp::ExactNumberInfo,
    arg_name: &str,
) -> SqlResult<Option<onelog_core::schema::FloatDigits>> {
    let sp::ExactNumberInfo::PrecisionAndScale(digits, decimals) = *info else { return Ok(None) };
    let decimals = decimals.max(0) as u64;
    if decimals > digits {
        return Err(m_bigger_than_d());
    }
    if digits > 65 {
        return Err(SqlError::new(
            onelog_core::ErrorCode::TOO_BIG_PRECISION,
            format!("Too big precision specified for '{arg_name}'. Maximum is 65"),
        ));
    }
    if decimals > 38 {
        return Err(SqlError::new(
            onelog_core::ErrorCode::TOO_BIG_SCALE,
            format!("Too big scale specified for '{arg_name}'. Maximum is 38"),
        ));
    }
    Ok(Some(onelog_core::schema::FloatDigits { digits: digits as u8, decimals: decimals.min(31) as u8 }))
}

/// A call's arguments: (args, DISTINCT, `*`). Clauses inside the list
/// (ORDER BY, SEPARATOR, ...) belong to GROUP_CONCAT only; elsewhere they
/// are a syntax error, as in MariaDB.
pub(super) fn function_args(f: &sp::Function, params: &mut ParamCounter) -> SqlResult<(Vec<Expr>, bool, bool)> {
    match &f.args {
        sp::FunctionArguments::List(list) if !list.clauses.is_empty() => Err(SqlError::parse(&f.to_string(), 1)),
        args => argument_list(f, args, params),
    }
}

fn argument_list(
    f: &sp::Function,
    args: &sp::FunctionArguments,
    params: &mut ParamCounter,
) -> SqlResult<(Vec<Expr>, bool, bool)> {
    match args {
        sp::FunctionArguments::None => Ok((Vec::new(), false, false)),
        sp::FunctionArguments::Subquery(_) => Err(unsupported(f)),
        sp::FunctionArguments::List(list) => {
            let distinct = matches!(list.duplicate_treatment, Some(sp::DuplicateTreatment::Distinct));
            let mut star = false;
            let mut args = Vec::new();
            for arg in &list.args {
                match arg {
                    sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)) => args.push(convert_expr(e, params)?),
                    sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Wildcard) => star = true,
                    other => return Err(unsupported(other)),
                }
            }
            Ok((args, distinct, star))
        }
    }
}

pub(super) fn convert_function(f: &sp::Function, params: &mut ParamCounter) -> SqlResult<Expr> {
    if let Some(over) = &f.over {
        return super::window::convert_window(f, over, params);
    }
    if super::window::needs_over(f) {
        // In MariaDB's grammar these names are window functions only:
        // the call must go on with OVER.
        return Err(params.syntax_error_after_call(f.span().start));
    }
    // `f`(x) and db.`f`(x) call f: a dumped view's stored functions are
    // quoted. Quoted, a name is not one of the grammar's aggregates
    // (`count`(1) is a stored function, 1305 in MariaDB).
    let name = super::ddl::name_word(&f.name).to_ascii_lowercase();
    let quoted = f.name.0.iter().any(|part| part.as_ident().is_some_and(|i| i.quote_style.is_some()));
    // MariaDB's grammar has WITHIN GROUP and MEDIAN only before OVER.
    if !f.within_group.is_empty() || name == "median" {
        return Err(SqlError::parse(&f.to_string(), 1));
    }
    if matches!(name.as_str(), "date_add" | "date_sub" | "adddate" | "subdate") {
        if let Some(call) = interval_call(f, &name, params)? {
            return Ok(call);
        }
        // date_add(d, n, 'UNIT') is the parsed form; written by a user (or
        // without its INTERVAL) it is a syntax error, as in MySQL.
        if matches!(name.as_str(), "date_add" | "date_sub") {
            return Err(SqlError::parse(&f.to_string(), 1));
        }
    }
    if name == "group_concat" {
        return group_concat(f, params);
    }
    let (args, distinct, star) = function_args(f, params)?;
    let agg = match name.as_str() {
        _ if quoted => None,
        "count" => Some(AggFunc::Count),
        "sum" => Some(AggFunc::Sum),
        "min" => Some(AggFunc::Min),
        "max" => Some(AggFunc::Max),
        "avg" => Some(AggFunc::Avg),
        "bit_and" => Some(AggFunc::BitAnd),
        "bit_or" => Some(AggFunc::BitOr),
        "bit_xor" => Some(AggFunc::BitXor),
        "std" | "stddev" | "stddev_pop" => Some(AggFunc::StdPop),
        "stddev_samp" => Some(AggFunc::StdSamp),
        "variance" | "var_pop" => Some(AggFunc::VarPop),
        "var_samp" => Some(AggFunc::VarSamp),
        _ => None,
    };
    if let Some(func) = agg {
        if star {
            return Ok(Expr::Aggregate { func, arg: None, distinct: false });
        }
        let mut args = args;
        if func == AggFunc::Count && distinct && args.len() > 1 {
            // COUNT(DISTINCT a, b, ...) counts distinct rows of values.
            return Ok(Expr::Aggregate { func, arg: Some(Box::new(Expr::Tuple(args))), distinct });
        }
        if args.len() != 1 {
            return Err(wrong_arg_count(&name));
        }
        return Ok(Expr::Aggregate { func, arg: Some(Box::new(args.remove(0))), distinct });
    }
    let mut args = args;
    // The unit argument of TIMESTAMPDIFF/TIMESTAMPADD is a keyword, not a column.
    if matches!(name.as_str(), "timestampdiff" | "timestampadd" | "get_format") {
        if let Some(Expr::Column { table: None, name: unit }) = args.first() {
            // SQL_TSI_DAY is ODBC's spelling of DAY.
            let unit = unit.to_ascii_uppercase();
            let unit = unit.strip_prefix("SQL_TSI_").unwrap_or(&unit);
            args[0] = Expr::Literal(Value::from_str(unit));
        }
    }
    // EXTRACT(<compound unit> FROM x), as the statement splitter rewrote it.
    if name == "extract_units" {
        return Ok(Expr::Function { name: "extract".into(), args });
    }
    // ROW(a, b, ...) is the row constructor `(a, b, ...)`; MariaDB's grammar
    // wants at least two elements.
    if name == "row" {
        if args.len() < 2 {
            return Err(SqlError::parse(&f.to_string(), 1));
        }
        return Ok(Expr::Tuple(args));
    }
    if name == "values" || name == "value" {
        if let [Expr::Column { name: col, .. }] = args.as_slice() {
            return Ok(Expr::InsertValue(col.clone()));
        }
    }
    Ok(Expr::Function { name, args })
}

/// `GROUP_CONCAT([DISTINCT] e, ... [ORDER BY ...] [SEPARATOR 's'])`.
fn group_concat(f: &sp::Function, params: &mut ParamCounter) -> SqlResult<Expr> {
    let (args, distinct, star) = argument_list(f, &f.args, params)?;
    if star || args.is_empty() {
        return Err(SqlError::parse(&f.to_string(), 1));
    }
    let mut order_by = Vec::new();
    let mut separator = ",".to_string();
    if let sp::FunctionArguments::List(list) = &f.args {
        for clause in &list.clauses {
            match clause {
                sp::FunctionArgumentClause::OrderBy(items) => order_by = convert_order_by(items, params)?,
                sp::FunctionArgumentClause::Separator(v) => match &v.value {
                    sp::Value::SingleQuotedString(s) | sp::Value::DoubleQuotedString(s) => separator = s.clone(),
                    _ => return Err(SqlError::parse(&f.to_string(), 1)),
                },
                other => return Err(unsupported(other)),
            }
        }
    }
    Ok(Expr::GroupConcat { args, distinct, order_by, separator })
}

/// `INTERVAL n unit`: the amount and the unit's name.
fn interval(iv: &sp::Interval, params: &mut ParamCounter) -> SqlResult<(Expr, Expr)> {
    let unit = match (&iv.leading_field, &iv.last_field) {
        (Some(field), None) => field.to_string().to_ascii_uppercase(),
        (Some(leading), Some(last)) => {
            let (leading, last) = (leading.to_string().to_ascii_uppercase(), last.to_string().to_ascii_uppercase());
            match super::compound_unit_name(&leading, &last) {
                Some(name) => name.to_string(),
                None => return Err(SqlError::parse(&iv.to_string(), 1)),
            }
        }
        _ => return Err(SqlError::parse(&iv.to_string(), 1)),
    };
    if !matches!(
        unit.as_str(),
        "MICROSECOND" | "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR"
    ) && !unit.contains('_')
    {
        return Err(SqlError::parse(&unit, 1));
    }
    Ok((convert_expr(&iv.value, params)?, Expr::Literal(Value::from_str(&unit))))
}

/// `DATE_ADD(d, INTERVAL n unit)` (and DATE_SUB, ADDDATE, SUBDATE) as
/// `date_add(d, n, 'UNIT')`; `None` for ADDDATE(d, days) and other forms.
fn interval_call(f: &sp::Function, name: &str, params: &mut ParamCounter) -> SqlResult<Option<Expr>> {
    let sp::FunctionArguments::List(list) = &f.args else { return Ok(None) };
    let [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(base)), sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(sp::Expr::Interval(iv)))] =
        list.args.as_slice()
    else {
        return Ok(None);
    };
    let base = convert_expr(base, params)?;
    let (amount, unit) = interval(iv, params)?;
    let name = if matches!(name, "date_sub" | "subdate") { "date_sub" } else { "date_add" };
    Ok(Some(Expr::Function { name: name.into(), args: vec![base, amount, unit] }))
}

/// `d + INTERVAL n unit`, `INTERVAL n unit + d`, `d - INTERVAL n unit`.
fn interval_arithmetic(
    left: &sp::Expr,
    op: &sp::BinaryOperator,
    right: &sp::Expr,
    params: &mut ParamCounter,
) -> SqlResult<Expr> {
    // Converted in source order, which numbers the `?` placeholders.
    let (base, (amount, unit), name) = match (left, op, right) {
        (base, sp::BinaryOperator::Plus, sp::Expr::Interval(iv)) => {
            (convert_expr(base, params)?, interval(iv, params)?, "date_add")
        }
        (base, sp::BinaryOperator::Minus, sp::Expr::Interval(iv)) => {
            (convert_expr(base, params)?, interval(iv, params)?, "date_sub")
        }
        (sp::Expr::Interval(iv), sp::BinaryOperator::Plus, base) => {
            let iv = interval(iv, params)?;
            (convert_expr(base, params)?, iv, "date_add")
        }
        _ => return Err(SqlError::parse(&format!("{left} {op} {right}"), 1)),
    };
    Ok(Expr::Function { name: name.into(), args: vec![base, amount, unit] })
}

pub(crate) fn wrong_arg_count(name: &str) -> SqlError {
    SqlError::new(
        onelog_core::ErrorCode::WRONG_PARAMCOUNT_TO_NATIVE_FCT,
        format!("Incorrect parameter count in the call to native function '{}'", name.to_ascii_uppercase()),
    )
}

fn column_ref(ids: &[sp::Ident]) -> SqlResult<Expr> {
    match ids {
        [name] => Ok(Expr::Column { table: None, name: name.value.clone() }),
        [table, name] => Ok(Expr::Column { table: Some(table.value.clone()), name: name.value.clone() }),
        [_db, table, name] => Ok(Expr::Column { table: Some(table.value.clone()), name: name.value.clone() }),
        _ => Err(SqlError::parse(&ids.iter().map(|i| i.value.clone()).collect::<Vec<_>>().join("."), 1)),
    }
}

/// `@@x`, `@@global.x`, `@x` arrive as identifiers.
fn variable_ref(ids: &[sp::Ident]) -> Option<Expr> {
    let first = ids.first()?;
    if first.quote_style.is_some() {
        return None;
    }
    let joined = ids.iter().map(|i| i.value.as_str()).collect::<Vec<_>>().join(".");
    if let Some(rest) = joined.strip_prefix("@@") {
        let (scope, name) = super::split_var_scope(rest);
        return Some(Expr::SystemVar { scope, name });
    }
    joined.strip_prefix('@').map(|rest| Expr::UserVar(rest.to_ascii_lowercase()))
}

/// The reserved words MariaDB reads as calls without parentheses that
/// the SQL parser leaves as names (CURRENT_DATE and the like it reads as
/// calls itself): never a column, which would have to be quoted.
fn keyword_function(id: &sp::Ident) -> Option<&'static str> {
    if id.quote_style.is_some() {
        return None;
    }
    ["utc_date", "utc_time", "utc_timestamp", "current_user", "current_role"]
        .into_iter()
        .find(|name| id.value.eq_ignore_ascii_case(name))
}

pub(crate) fn convert_expr(e: &sp::Expr, params: &mut ParamCounter) -> SqlResult<Expr> {
    use sp::Expr as E;
    Ok(match e {
        E::Identifier(id) => {
            if let Some(var) = variable_ref(std::slice::from_ref(id)) {
                var
            } else if id.quote_style.is_none() && id.value.eq_ignore_ascii_case("DEFAULT") {
                Expr::Default
            } else if id.quote_style == Some('"') {
                // MariaDB without ANSI_QUOTES: "x" is a string.
                Expr::Literal(Value::from_str(&id.value))
            } else if let Some(name) = keyword_function(id) {
                Expr::Function { name: name.to_string(), args: Vec::new() }
            } else {
                column_ref(std::slice::from_ref(id))?
            }
        }
        E::CompoundIdentifier(ids) => match variable_ref(ids) {
            Some(var) => var,
            None => column_ref(ids)?,
        },
        E::Value(v) => convert_value(&v.value, params)?,
        E::Nested(inner) => convert_expr(inner, params)?,
        E::IsNull(x) => Expr::IsNull { expr: boxed(x, params)?, negated: false },
        E::IsNotNull(x) => Expr::IsNull { expr: boxed(x, params)?, negated: true },
        E::IsTrue(x) => Expr::IsBool { expr: boxed(x, params)?, value: true, negated: false },
        E::IsNotTrue(x) => Expr::IsBool { expr: boxed(x, params)?, value: true, negated: true },
        E::IsFalse(x) => Expr::IsBool { expr: boxed(x, params)?, value: false, negated: false },
        E::IsNotFalse(x) => Expr::IsBool { expr: boxed(x, params)?, value: false, negated: true },
        // UNKNOWN is the NULL truth value.
        E::IsUnknown(x) => Expr::IsNull { expr: boxed(x, params)?, negated: false },
        E::IsNotUnknown(x) => Expr::IsNull { expr: boxed(x, params)?, negated: true },
        E::InList { expr, list, negated } => Expr::InList {
            expr: boxed(expr, params)?,
            list: list.iter().map(|x| convert_expr(x, params)).collect::<SqlResult<_>>()?,
            negated: *negated,
        },
        E::InSubquery { expr, subquery, negated } => Expr::InSubquery {
            expr: boxed(expr, params)?,
            query: Box::new(convert_query(subquery, params)?),
            negated: *negated,
        },
        E::Between { expr, negated, low, high } => Expr::Between {
            expr: boxed(expr, params)?,
            low: boxed(low, params)?,
            high: boxed(high, params)?,
            negated: *negated,
        },
        E::BinaryOp { left, op: op @ (sp::BinaryOperator::Plus | sp::BinaryOperator::Minus), right }
            if matches!(**right, E::Interval(_)) || matches!(**left, E::Interval(_)) =>
        {
            interval_arithmetic(left, op, right, params)?
        }
        E::BinaryOp { left, op: sp::BinaryOperator::Assignment, right } => match convert_expr(left, params)? {
            Expr::UserVar(name) => Expr::AssignUserVar { name, value: boxed(right, params)? },
            _ => return Err(SqlError::parse(&format!(":= {right}"), 1)),
        },
        E::BinaryOp { left, op, right } => Expr::Binary(binop(op)?, boxed(left, params)?, boxed(right, params)?),
        // Only DATE_ADD-style calls and `±` take an INTERVAL (handled there).
        E::Interval(iv) => return Err(SqlError::parse(&iv.to_string(), 1)),
        E::Like { negated, expr, pattern, escape_char, .. } => Expr::Like {
            expr: boxed(expr, params)?,
            pattern: boxed(pattern, params)?,
            escape: match escape_char.as_deref() {
                Some(sp::Expr::Value(v)) => match &v.value {
                    sp::Value::SingleQuotedString(s) => s.chars().next(),
                    _ => None,
                },
                _ => None,
            },
            negated: *negated,
        },
        // `a SOUNDS LIKE b`, which the token pass writes as SIMILAR TO
        // (MariaDB has no SIMILAR TO; one written by the user is made a
        // syntax error there): SOUNDEX(a) = SOUNDEX(b).
        E::SimilarTo { negated: false, expr, pattern, escape_char: None } => {
            let soundex = |e: &sp::Expr, params: &mut ParamCounter| -> SqlResult<Box<Expr>> {
                Ok(Box::new(Expr::Function { name: "soundex".into(), args: vec![convert_expr(e, params)?] }))
            };
            Expr::Binary(BinOp::Eq, soundex(expr, params)?, soundex(pattern, params)?)
        }
        E::RLike { negated, expr, pattern, .. } => {
            let call = Expr::Function {
                name: "regexp".into(),
                args: vec![convert_expr(expr, params)?, convert_expr(pattern, params)?],
            };
            if *negated {
                Expr::Unary(UnaryOp::Not, Box::new(call))
            } else {
                call
            }
        }
        E::UnaryOp { op, expr } => match op {
            sp::UnaryOperator::Minus => match convert_expr(expr, params)? {
                Expr::Literal(Value::Int(i)) => Expr::Literal(Value::Int(-i)),
                Expr::Literal(Value::UInt(u)) if u == 1u64 << 63 => Expr::Literal(Value::Int(i64::MIN)),
                // A negated number literal past BIGINT is a DECIMAL, as
                // MariaDB types it.
                Expr::Literal(Value::UInt(u)) => Expr::Literal(Value::Decimal(-Decimal::from(u))),
                Expr::Literal(Value::Decimal(d)) => Expr::Literal(Value::Decimal(-d)),
                Expr::Literal(Value::Double(d)) => Expr::Literal(Value::Double(-d)),
                other => Expr::Unary(UnaryOp::Neg, Box::new(other)),
            },
            sp::UnaryOperator::Plus => convert_expr(expr, params)?,
            sp::UnaryOperator::Not => Expr::Unary(UnaryOp::Not, boxed(expr, params)?),
            sp::UnaryOperator::BangNot => Expr::Unary(UnaryOp::Not, boxed(expr, params)?),
            sp::UnaryOperator::BitwiseNot => Expr::Unary(UnaryOp::BitNot, boxed(expr, params)?),
            other => return Err(unsupported(other)),
        },
        E::Cast { expr, data_type, .. } => Expr::Cast { to: cast_type(data_type, expr)?, expr: boxed(expr, params)? },
        E::Convert { expr, data_type: Some(dt), .. } => {
            Expr::Cast { to: cast_type(dt, expr)?, expr: boxed(expr, params)? }
        }
        // A CHAR cast in the charset's collation, implicit (MariaDB's
        // COERCIBILITY 2, where an introduced literal stays 4).
        E::Convert { expr, data_type: None, charset: Some(name), .. } => Expr::Collate {
            expr: Box::new(Expr::Cast { expr: boxed(expr, params)?, to: CastType::Char(None) }),
            collation: super::ddl::charset_collation(&super::ddl::name_word(name))?,
            explicit: false,
        },
        E::Convert { expr, data_type: None, .. } => convert_expr(expr, params)?,
        E::Prefixed { prefix, value } => introduced(prefix, value, params)?,
        E::Collate { expr, collation } => Expr::Collate {
            expr: boxed(expr, params)?,
            collation: super::ddl::collation_named(&super::ddl::name_word(collation))?,
            explicit: true,
        },
        E::Substring { expr, substring_from, substring_for, .. } => {
            let mut args = vec![convert_expr(expr, params)?];
            args.push(match substring_from {
                Some(f) => convert_expr(f, params)?,
                None => Expr::Literal(Value::Int(1)),
            });
            if let Some(f) = substring_for {
                args.push(convert_expr(f, params)?);
            }
            Expr::Function { name: "substring".into(), args }
        }
        E::Trim { expr, trim_where, trim_what, .. } => {
            let name = match trim_where {
                Some(sp::TrimWhereField::Leading) => "ltrim_chars",
                Some(sp::TrimWhereField::Trailing) => "rtrim_chars",
                _ => "trim_chars",
            };
            let what = match trim_what {
                Some(w) => convert_expr(w, params)?,
                None => Expr::Literal(Value::from_str(" ")),
            };
            Expr::Function { name: name.into(), args: vec![convert_expr(expr, params)?, what] }
        }
        E::Function(f) => convert_function(f, params)?,
        E::Case { operand, conditions, else_result, .. } => Expr::Case {
            operand: operand.as_ref().map(|o| boxed(o, params)).transpose()?,
            whens: conditions
                .iter()
                .map(|w| Ok((convert_expr(&w.condition, params)?, convert_expr(&w.result, params)?)))
                .collect::<SqlResult<_>>()?,
            otherwise: else_result.as_ref().map(|x| boxed(x, params)).transpose()?,
        },
        E::Exists { subquery, negated } => {
            Expr::Exists { query: Box::new(convert_query(subquery, params)?), negated: *negated }
        }
        E::Subquery(q) => Expr::ScalarSubquery(Box::new(convert_query(q, params)?)),
        E::Tuple(items) => Expr::Tuple(items.iter().map(|x| convert_expr(x, params)).collect::<SqlResult<_>>()?),
        E::Ceil { expr, .. } => Expr::Function { name: "ceil".into(), args: vec![convert_expr(expr, params)?] },
        E::Floor { expr, .. } => Expr::Function { name: "floor".into(), args: vec![convert_expr(expr, params)?] },
        E::Position { expr, r#in } => Expr::Function {
            name: "locate".into(),
            args: vec![convert_expr(expr, params)?, convert_expr(r#in, params)?],
        },
        E::TypedString(ts) => temporal_literal(ts, params)?,
        E::Extract { field, expr, .. } => {
            let unit = field.to_string().to_ascii_uppercase();
            if !matches!(
                unit.as_str(),
                "MICROSECOND" | "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR"
            ) {
                return Err(SqlError::parse(&unit, 1));
            }
            Expr::Function {
                name: "extract".into(),
                args: vec![Expr::Literal(Value::from_str(&unit)), convert_expr(expr, params)?],
            }
        }
        other => return Err(unsupported(other.to_string().chars().take(40).collect::<String>())),
    })
}
