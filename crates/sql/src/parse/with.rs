//! `WITH [RECURSIVE] name [(columns)] AS (query), ...`: common table
//! expressions, resolved while the statement is converted.
//!
//! A plain CTE becomes a derived table wherever its name is used as an
//! unqualified table in the query and its subqueries (and in the CTEs
//! after it). A recursive one is a union whose first parts (the seed) do not
//! name the CTE and whose other parts (the step) do; it becomes a
//! [`TableFactor::Recursive`] the executor iterates. Inside its step, the
//! name is [`TableFactor::CteSelf`]: the rows the previous round added.

use super::expr::{append_union, convert_query, convert_set_expr};
use super::ParamCounter;
use crate::ast::*;
use onelog_core::{ErrorCode, SqlError, SqlResult};
use sqlparser::ast as sp;

/// What a CTE name stands for while conversion is inside its scope.
#[derive(Debug, Clone)]
pub(crate) enum CteBinding {
    /// A finished CTE: every use is a copy of this factor.
    Ready(TableFactor),
    /// The recursive CTE whose body is being converted.
    Recursing,
}

/// Converts `with`'s CTEs into `params`' scope, in order (each sees the
/// ones before it; a recursive one also sees itself). The caller drops them
/// with [`ParamCounter::leave_ctes`] after converting the query body.
pub(crate) fn enter_ctes(with: &sp::With, params: &mut ParamCounter) -> SqlResult<usize> {
    let scope_start = params.ctes.len();
    for cte in &with.cte_tables {
        let name = cte.alias.name.value.clone();
        if params.ctes[scope_start..].iter().any(|(n, _)| *n == name) {
            return Err(SqlError::new(
                ErrorCode::DUP_QUERY_NAME,
                format!("Duplicate query name `{name}` in WITH clause"),
            ));
        }
        let columns: Vec<String> = cte.alias.columns.iter().map(|c| c.name.value.clone()).collect();
        let factor = if with.recursive {
            recursive_cte(&name, columns, &cte.query, params)?
        } else {
            TableFactor::Derived { query: Box::new(convert_query(&cte.query, params)?), alias: name.clone(), columns }
        };
        params.ctes.push((name, CteBinding::Ready(factor)));
    }
    Ok(scope_start)
}

/// A CTE under `WITH RECURSIVE`: a plain derived table when its query does
/// not name itself, else a seed and a step.
fn recursive_cte(
    name: &str,
    columns: Vec<String>,
    query: &sp::Query,
    params: &mut ParamCounter,
) -> SqlResult<TableFactor> {
    params.ctes.push((name.to_string(), CteBinding::Recursing));
    let converted = recursive_parts(name, columns.clone(), query, params);
    params.ctes.pop();
    match converted? {
        Some(cte) => Ok(TableFactor::Recursive(Box::new(cte))),
        None => Ok(TableFactor::Derived {
            query: Box::new(convert_query(query, params)?),
            alias: name.to_string(),
            columns,
        }),
    }
}

/// Splits the CTE's union into seed (the parts that do not name the CTE,
/// wherever they stand, as MariaDB takes them) and step; `None` if no part
/// names the CTE. Each part is converted on its own to see which ones do.
fn recursive_parts(
    name: &str,
    columns: Vec<String>,
    query: &sp::Query,
    params: &mut ParamCounter,
) -> SqlResult<Option<RecursiveCte>> {
    let mut parts = Vec::new();
    flatten_union(&query.body, None, &mut parts);
    // Converting the query again as a plain one must not number its `?`
    // placeholders and SELECTs twice: the trial conversion is undone.
    let checkpoint = params.clone();
    let (mut seed, mut step): (Option<Select>, Option<Select>) = (None, None);
    let mut distinct = false;
    for (all, part) in &parts {
        let before = params.cte_self_references;
        let converted = convert_set_expr(part, params)?;
        let recursive = params.cte_self_references > before;
        if recursive && aggregates(&converted) {
            return Err(SqlError::new(
                ErrorCode::NOT_STANDARD_COMPLIANT_RECURSIVE,
                format!("Restrictions imposed on recursive definitions are violated for table '{name}'"),
            ));
        }
        distinct |= *all == Some(false);
        let chain = if recursive { &mut step } else { &mut seed };
        match chain {
            Some(chain) => append_union(chain, all.unwrap_or(true), converted),
            None => *chain = Some(converted),
        }
    }
    let Some(step) = step else {
        *params = checkpoint;
        return Ok(None);
    };
    let Some(seed) = seed else {
        return Err(SqlError::new(
            ErrorCode::RECURSIVE_WITHOUT_ANCHORS,
            format!("No anchors for recursive WITH element '{name}'"),
        ));
    };
    if query.order_by.is_some() || query.limit_clause.is_some() {
        return Err(SqlError::not_supported("global ORDER_BY/LIMIT in recursive CTE spec"));
    }
    Ok(Some(RecursiveCte { name: name.to_string(), alias: name.to_string(), columns, seed, step, distinct }))
}

/// Whether a recursive part aggregates: the standard (and MariaDB) forbid
/// it, since each round would see only the previous round's rows.
fn aggregates(select: &Select) -> bool {
    let items =
        select.items.iter().any(|i| matches!(i, SelectItem::Expr { expr, .. } if expr.contains(&Expr::is_aggregate)));
    items || !select.group_by.is_empty() || select.having.is_some()
}

/// `a UNION b UNION ALL c` as [(None, a), (Some(false), b), (Some(true), c)]:
/// each part with whether the union before it keeps duplicates.
fn flatten_union<'q>(body: &'q sp::SetExpr, all: Option<bool>, out: &mut Vec<(Option<bool>, &'q sp::SetExpr)>) {
    match body {
        sp::SetExpr::SetOperation { left, op: sp::SetOperator::Union, set_quantifier, right } => {
            flatten_union(left, all, out);
            out.push((Some(matches!(set_quantifier, sp::SetQuantifier::All)), right));
        }
        other => out.push((all, other)),
    }
}

/// The table factor an unqualified table name stands for, if a CTE in
/// scope has that name (the innermost wins).
pub(crate) fn cte_factor(name: &ObjectName, alias: Option<String>, params: &mut ParamCounter) -> Option<TableFactor> {
    if name.db.is_some() {
        return None;
    }
    let (cte_name, binding) = params.ctes.iter().rev().find(|(n, _)| *n == name.name)?;
    let alias = alias.unwrap_or_else(|| cte_name.clone());
    let factor = match binding {
        CteBinding::Recursing => {
            params.cte_self_references += 1;
            TableFactor::CteSelf { name: cte_name.clone(), alias }
        }
        CteBinding::Ready(TableFactor::Derived { query, columns, .. }) => {
            TableFactor::Derived { query: query.clone(), alias, columns: columns.clone() }
        }
        CteBinding::Ready(TableFactor::Recursive(cte)) => {
            TableFactor::Recursive(Box::new(RecursiveCte { alias, ..(**cte).clone() }))
        }
        CteBinding::Ready(other) => return Some(other.clone()),
    };
    Some(factor)
}
