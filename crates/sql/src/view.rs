//! Views. A view is stored as MariaDB stores it: its query resolved
//! against the catalog at CREATE time (`*` expanded, every column named by
//! its table, every item named by an alias) and printed in MariaDB's
//! canonical form, `select `t1`.`a` AS `a` from `t1``. That text, with
//! every table qualified by its database, is what SELECT runs (parsed once
//! when the view is installed) and what information_schema.VIEWS shows;
//! SHOW CREATE VIEW prints it without the view's own database.

use crate::ast::*;
use crate::catalog::Catalog;
use crate::parse;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A view's definition as the catalog persists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewDef {
    pub db: String,
    pub name: String,
    pub algorithm: String,
    pub definer_user: String,
    pub definer_host: String,
    pub security: String,
    pub check_option: CheckOption,
    /// The canonical query, tables qualified by database.
    pub definition: String,
    /// The canonical query without the view's database, as SHOW CREATE
    /// VIEW prints it in that database.
    pub shown_definition: String,
    pub columns: Vec<String>,
    pub updatable: bool,
    pub character_set_client: String,
    pub collation_connection: String,
}

/// An installed view: its definition and its query, parsed.
#[derive(Debug)]
pub struct ViewEntry {
    pub def: ViewDef,
    pub query: Select,
}

impl ViewEntry {
    pub fn new(def: ViewDef) -> SqlResult<ViewEntry> {
        match parse::parse_single(&def.definition)?.statement {
            Statement::Select(query) => Ok(ViewEntry { def, query: *query }),
            _ => Err(SqlError::internal(format!("view {}.{} does not hold a query", def.db, def.name))),
        }
    }

    /// `CREATE ALGORITHM=.. DEFINER=.. SQL SECURITY .. VIEW `v` AS ...` as
    /// SHOW CREATE VIEW prints it: names in the view's database go without
    /// it when that is the session's database, else every name is whole.
    pub fn create_statement(&self, session_db: Option<&str>) -> String {
        let d = &self.def;
        let (name, query) = if session_db == Some(d.db.as_str()) {
            (quote(&d.name), &d.shown_definition)
        } else {
            (format!("{}.{}", quote(&d.db), quote(&d.name)), &d.definition)
        };
        format!(
            "CREATE {} VIEW {name} AS {query}{}",
            options_text(&d.algorithm, &d.definer_user, &d.definer_host, &d.security),
            check_option_text(d.check_option)
        )
    }
}

pub fn quote(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

fn options_text(algorithm: &str, user: &str, host: &str, security: &str) -> String {
    format!("ALGORITHM={algorithm} DEFINER={}@{} SQL SECURITY {security}", quote(user), quote(host))
}

pub fn check_option_text(option: CheckOption) -> &'static str {
    match option {
        CheckOption::None => "",
        CheckOption::Local => " WITH LOCAL CHECK OPTION",
        CheckOption::Cascaded => " WITH CASCADED CHECK OPTION",
    }
}

/// The QUERY event text of a CREATE / ALTER VIEW, as MariaDB logs it: the
/// options spelled out (the definer resolved), the query as written.
pub fn logged_statement(view: &CreateView, db: &str) -> String {
    let (user, host) = view.definer.clone().unwrap_or_default();
    let verb = match (view.alter, view.or_replace) {
        (true, _) => "ALTER",
        (false, true) => "CREATE OR REPLACE",
        (false, false) => "CREATE",
    };
    let name = match &view.name.db {
        Some(d) if d != db => format!("{}.{}", quote(d), quote(&view.name.name)),
        _ => quote(&view.name.name),
    };
    let columns = if view.columns.is_empty() {
        String::new()
    } else {
        format!("({})", view.columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(", "))
    };
    let if_not_exists = if view.if_not_exists { "IF NOT EXISTS " } else { "" };
    format!(
        "{verb} {} VIEW {if_not_exists}{name}{columns} AS {}{}",
        options_text(&view.algorithm, &user, &host, &view.security),
        view.query_text,
        check_option_text(view.check_option)
    )
}

/// Resolves `view`'s query against the catalog into the definition to
/// store. Errors as MariaDB's CREATE VIEW reports them.
pub fn define(catalog: &Catalog, db: &str, view: &CreateView, definer: (String, String)) -> SqlResult<ViewDef> {
    let (query, names) = Resolver { catalog, db, explain: false }.select(&view.query, &[])?;
    let names = if view.columns.is_empty() {
        names
    } else if view.columns.len() != names.len() {
        return Err(SqlError::new(
            ErrorCode::VIEW_WRONG_LIST,
            "View's SELECT and view's field list have different column counts",
        ));
    } else {
        view.columns.clone()
    };
    let generated = if view.columns.is_empty() { generated_names(&query) } else { vec![false; names.len()] };
    let names = unique_column_names(valid_column_names(names, &generated), &generated)?;
    let query = with_item_names(query, &names);
    let mergeable = is_mergeable(catalog, &query);
    let updatable = view.algorithm != "TEMPTABLE" && is_updatable(catalog, &query);
    // MERGE where the query cannot merge is UNDEFINED (the caller warns).
    let algorithm = if view.algorithm == "MERGE" && !mergeable { "UNDEFINED" } else { view.algorithm.as_str() };
    let charset = view.client_charset.clone().unwrap_or_else(|| ("utf8mb4".into(), "utf8mb4_general_ci".into()));
    if view.check_option != CheckOption::None && !updatable {
        return Err(SqlError::new(
            ErrorCode::VIEW_NONUPD_CHECK,
            format!("CHECK OPTION on non-updatable view {}.{}", quote(db), quote(&view.name.name)),
        ));
    }
    Ok(ViewDef {
        db: db.to_string(),
        name: view.name.name.clone(),
        algorithm: algorithm.to_string(),
        definer_user: definer.0,
        definer_host: definer.1,
        security: view.security.clone(),
        check_option: view.check_option,
        definition: Printer { omit_db: None }.select(&query)?,
        shown_definition: Printer { omit_db: Some(db) }.select(&query)?,
        columns: names,
        updatable,
        character_set_client: charset.0,
        collation_connection: charset.1,
    })
}

/// Which of a view's columns MariaDB counts as named by the server: an
/// expression without an alias, headed by its text. A column read from a
/// table is named by the table, as if by the user.
fn generated_names(query: &Select) -> Vec<bool> {
    let generated = |item: &SelectItem| matches!(item, SelectItem::Expr { alias: Some(a), text, expr } if a == text && !matches!(expr, Expr::Column { .. }));
    query.items.iter().map(generated).collect()
}

/// A generated name that cannot be a column name (empty, longer than 64
/// characters or ending in a space) becomes `Name_exp_<position>`.
fn valid_column_names(names: Vec<String>, generated: &[bool]) -> Vec<String> {
    const NAME_CHARS_MAX: usize = 64;
    let valid = |name: &str| !name.is_empty() && !name.ends_with(' ') && name.chars().count() <= NAME_CHARS_MAX;
    let rename = |(i, (name, generated)): (usize, (String, &bool))| {
        if *generated && !valid(&name) {
            format!("Name_exp_{}", i + 1)
        } else {
            name
        }
    };
    names.into_iter().zip(generated).enumerate().map(rename).collect()
}

/// Two columns of one name: the one the server named becomes
/// `My_exp_<name>` (or `My_exp_<n>_<name>`, the first unused among the
/// columns up to the later one), as MariaDB renames it; two names the user
/// gave are 1060.
fn unique_column_names(mut names: Vec<String>, generated: &[bool]) -> SqlResult<Vec<String>> {
    for later in 0..names.len() {
        let Some(earlier) = (0..later).find(|&e| names[e].eq_ignore_ascii_case(&names[later])) else { continue };
        let renamed = match (generated[later], generated[earlier]) {
            (true, _) => later,
            (false, true) => earlier,
            (false, false) => {
                let name = &names[later];
                return Err(SqlError::new(ErrorCode::DUP_FIELD_NAME, format!("Duplicate column name '{name}'")));
            }
        };
        let taken = |candidate: &str, names: &[String]| {
            names[..=later].iter().enumerate().any(|(i, n)| i != renamed && n.eq_ignore_ascii_case(candidate))
        };
        let original = names[renamed].clone();
        let candidates = std::iter::once(format!("My_exp_{original}"))
            .chain((1..).map(|attempt| format!("My_exp_{attempt}_{original}")));
        names[renamed] = candidates.into_iter().find(|c| !taken(c, &names)).unwrap_or(original);
    }
    Ok(names)
}

fn with_item_names(mut query: Select, names: &[String]) -> Select {
    for (item, name) in query.items.iter_mut().zip(names) {
        if let SelectItem::Expr { alias, .. } = item {
            *alias = Some(name.clone());
        }
    }
    query
}

/// MariaDB's rule for a mergeable view, one a statement can write
/// through: one SELECT over tables or mergeable views, without aggregates,
/// window functions, DISTINCT, GROUP BY, HAVING, LIMIT or derived tables.
fn is_mergeable(catalog: &Catalog, q: &Select) -> bool {
    let items_plain = q.items.iter().all(|i| match i {
        SelectItem::Expr { expr, .. } => !expr.contains(&|e| e.is_aggregate() || matches!(e, Expr::Window(_))),
        _ => false,
    });
    let sources_plain = !q.from.is_empty()
        && q.from.iter().all(|j| match &j.factor {
            TableFactor::Table { name, .. } => {
                let db = name.db.as_deref().unwrap_or_default();
                catalog
                    .view(db, &name.name)
                    .is_none_or(|v| v.def.algorithm != "TEMPTABLE" && is_mergeable(catalog, &v.query))
            }
            _ => false,
        });
    items_plain
        && sources_plain
        && !q.distinct
        && q.group_by.is_empty()
        && q.having.is_none()
        && q.limit.is_none()
        && q.union.is_none()
}

/// information_schema's IS_UPDATABLE: mergeable, with some column a row
/// can be written through.
fn is_updatable(catalog: &Catalog, q: &Select) -> bool {
    is_mergeable(catalog, q) && q.items.iter().any(|i| matches!(i, SelectItem::Expr { expr: Expr::Column { .. }, .. }))
}

/// A FROM source while resolving: the name its columns are printed under
/// and its column names.
#[derive(Clone)]
struct Source {
    qualifier: String,
    /// What a resolved column's `table` becomes: the qualifier, or for a
    /// base table named without alias `db \0 table`, which the printer
    /// writes as `db`.`table` (NUL cannot occur in a MariaDB identifier).
    marker: String,
    columns: Vec<String>,
    /// USING / NATURAL: the right side's common columns, named only when
    /// qualified.
    merged: Vec<String>,
}

struct Resolver<'a> {
    catalog: &'a Catalog,
    db: &'a str,
    /// Resolving for EXPLAIN EXTENDED's note rather than a view: every
    /// base table's columns are qualified by its database (under its alias
    /// when it has one) and variables are allowed.
    explain: bool,
}

/// A query resolved as EXPLAIN EXTENDED prints it: `*` expanded, every
/// column qualified `db`.`table`.`column`, every item named.
pub fn explain_query(catalog: &Catalog, db: &str, query: &Select) -> SqlResult<Select> {
    Ok(Resolver { catalog, db, explain: true }.select(query, &[])?.0)
}

/// The text of a query [`explain_query`] resolved, as MariaDB's
/// Item::print writes it (EXPLAIN EXTENDED's Note 1003).
pub fn query_text(query: &Select) -> SqlResult<String> {
    Printer { omit_db: None }.select(query)
}

type Scope = Vec<Source>;

impl Resolver<'_> {
    /// The canonical form of `q` and its column names. `outer`: enclosing
    /// queries' sources, innermost last, for correlated subqueries.
    fn select(&self, q: &Select, outer: &[&Scope]) -> SqlResult<(Select, Vec<String>)> {
        let mut scope: Scope = Vec::new();
        let mut from = Vec::with_capacity(q.from.len());
        for join in &q.from {
            let (factor, source) = self.factor(&join.factor)?;
            scope.push(source);
            from.push(Join { factor, on: None, using: Vec::new(), natural: false, kind: join.kind });
        }
        for (i, join) in q.from.iter().enumerate() {
            let on = self.join_condition(&mut scope, i, join, outer)?;
            from[i].on = on;
        }
        let mut items = Vec::new();
        for item in &q.items {
            match item {
                SelectItem::Wildcard => {
                    if scope.is_empty() {
                        return Err(SqlError::new(ErrorCode::NO_TABLES_USED, "No tables used"));
                    }
                    scope.iter().for_each(|s| star(s, &mut items, true));
                }
                SelectItem::QualifiedWildcard(t) => {
                    let source = scope
                        .iter()
                        .find(|s| s.qualifier == *t)
                        .ok_or_else(|| SqlError::new(ErrorCode::BAD_TABLE, format!("Unknown table '{t}'")))?;
                    star(source, &mut items, false);
                }
                SelectItem::Expr { expr, alias, text } => items.push(SelectItem::Expr {
                    expr: self.expr(expr, &scope, outer, "SELECT", &[])?,
                    alias: Some(alias.clone().unwrap_or_else(|| text.clone())),
                    text: text.clone(),
                }),
            }
        }
        let names: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                SelectItem::Expr { alias, .. } => alias.clone(),
                _ => None,
            })
            .collect();
        let aliased: Vec<(String, Expr)> = items
            .iter()
            .filter_map(|i| match i {
                SelectItem::Expr { expr, alias: Some(a), .. } => Some((a.clone(), expr.clone())),
                _ => None,
            })
            .collect();
        let resolve = |e: &Expr, clause: &str, aliases: &[(String, Expr)]| self.expr(e, &scope, outer, clause, aliases);
        let selection = q.selection.as_ref().map(|e| resolve(e, "WHERE", &[])).transpose()?;
        let group_by = q.group_by.iter().map(|e| resolve(e, "GROUP BY", &aliased)).collect::<SqlResult<_>>()?;
        let having = q.having.as_ref().map(|e| resolve(e, "HAVING", &aliased)).transpose()?;
        let order_by = q
            .order_by
            .iter()
            .map(|o| Ok(OrderBy { expr: resolve(&o.expr, "ORDER BY", &aliased)?, desc: o.desc }))
            .collect::<SqlResult<_>>()?;
        let union = match &q.union {
            Some((all, next)) => Some((*all, Box::new(self.select(next, outer)?.0))),
            None => None,
        };
        let canonical = Select {
            distinct: q.distinct,
            items,
            from,
            selection,
            group_by,
            rollup: q.rollup,
            having,
            order_by,
            limit: q.limit.clone(),
            offset: q.offset.clone(),
            calc_found_rows: false,
            lock: None,
            union,
            into: None,
        };
        Ok((canonical, names))
    }

    fn factor(&self, factor: &TableFactor) -> SqlResult<(TableFactor, Source)> {
        match factor {
            TableFactor::Table { name, alias, .. } => {
                let db = name.db.clone().unwrap_or_else(|| self.db.to_string());
                let (columns, base) = if let Some(view) = self.catalog.view(&db, &name.name) {
                    (view.def.columns.clone(), false)
                } else if let Some(table) = self.catalog.table(&db, &name.name) {
                    (table.def.columns.iter().map(|c| c.name.clone()).collect(), true)
                } else if crate::sequence::Sequence::parse(&name.name).is_some() {
                    (vec![crate::sequence::COLUMN.to_string()], true)
                } else {
                    return Err(SqlError::no_such_table(&db, &name.name));
                };
                let qualifier = alias.clone().unwrap_or_else(|| name.name.clone());
                let marker = if base && (alias.is_none() || self.explain) {
                    format!("{db}\0{qualifier}")
                } else {
                    qualifier.clone()
                };
                // Index hints are not kept in the definition (they change
                // no result here; see `select::check_index_hints`).
                let canonical = TableFactor::Table {
                    name: ObjectName { db: Some(db), name: name.name.clone() },
                    alias: alias.clone(),
                    index_hints: Vec::new(),
                };
                Ok((canonical, Source { qualifier, marker, columns, merged: Vec::new() }))
            }
            TableFactor::Derived { query, alias, columns } => {
                let (inner, names) = self.select(query, &[])?;
                let names = if columns.is_empty() { names } else { columns.clone() };
                let inner = with_item_names(inner, &names);
                let canonical =
                    TableFactor::Derived { query: Box::new(inner), alias: alias.clone(), columns: Vec::new() };
                let source =
                    Source { qualifier: alias.clone(), marker: alias.clone(), columns: names, merged: Vec::new() };
                Ok((canonical, source))
            }
            TableFactor::Recursive(_) | TableFactor::CteSelf { .. } => {
                Err(SqlError::not_supported("WITH RECURSIVE in a view"))
            }
        }
    }

    /// A join's condition: its ON, or the equalities its USING / NATURAL
    /// names (the right side's copies then answer only qualified).
    fn join_condition(&self, scope: &mut Scope, i: usize, join: &Join, outer: &[&Scope]) -> SqlResult<Option<Expr>> {
        let names: Vec<String> = if join.natural {
            let right = &scope[i].columns;
            scope[..i]
                .iter()
                .flat_map(|s| s.columns.iter())
                .filter(|c| right.iter().any(|r| r.eq_ignore_ascii_case(c)))
                .cloned()
                .collect()
        } else {
            join.using.clone()
        };
        let mut condition = join.on.as_ref().map(|e| self.expr(e, &scope[..=i], outer, "ON", &[])).transpose()?;
        for name in names {
            let left =
                resolve_column(&scope[..i], None, &name, "FROM")?.ok_or_else(|| SqlError::bad_field(&name, "FROM"))?;
            let right = resolve_column(&scope[i..=i], None, &name, "FROM")?
                .ok_or_else(|| SqlError::bad_field(&name, "FROM"))?;
            scope[i].merged.push(name);
            let eq = Expr::Binary(BinOp::Eq, Box::new(left), Box::new(right));
            condition = Some(match condition {
                Some(c) => Expr::Binary(BinOp::And, Box::new(c), Box::new(eq)),
                None => eq,
            });
        }
        Ok(condition)
    }

    fn expr(
        &self,
        e: &Expr,
        scope: &[Source],
        outer: &[&Scope],
        clause: &str,
        aliases: &[(String, Expr)],
    ) -> SqlResult<Expr> {
        match e {
            Expr::Column { table, name } => {
                if let Some(found) = resolve_column(scope, table.as_deref(), name, clause)? {
                    return Ok(found);
                }
                if table.is_none() {
                    if let Some((alias, expr)) = aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(name)) {
                        // ORDER BY / GROUP BY an item's alias name the item;
                        // HAVING keeps the alias, as MariaDB prints them.
                        return Ok(if clause == "HAVING" || expr.contains(&Expr::is_aggregate) {
                            Expr::Column { table: None, name: alias.clone() }
                        } else {
                            expr.clone()
                        });
                    }
                }
                for s in outer.iter().rev() {
                    if let Some(found) = resolve_column(s, table.as_deref(), name, clause)? {
                        return Ok(found);
                    }
                }
                let shown = match table {
                    Some(t) => format!("{t}.{name}"),
                    None => name.clone(),
                };
                Err(SqlError::bad_field(&shown, clause))
            }
            Expr::UserVar(_) | Expr::AssignUserVar { .. } | Expr::SystemVar { .. } | Expr::Param(_)
                if !self.explain =>
            {
                Err(SqlError::new(ErrorCode::VIEW_SELECT_VARIABLE, "View's SELECT contains a variable or parameter"))
            }
            Expr::ScalarSubquery(q) => Ok(Expr::ScalarSubquery(Box::new(self.subquery(q, scope, outer)?))),
            Expr::Exists { query, negated } => {
                Ok(Expr::Exists { query: Box::new(self.subquery(query, scope, outer)?), negated: *negated })
            }
            Expr::InSubquery { expr, query, negated } => Ok(Expr::InSubquery {
                expr: Box::new(self.expr(expr, scope, outer, clause, aliases)?),
                query: Box::new(self.subquery(query, scope, outer)?),
                negated: *negated,
            }),
            other => crate::select::map_children(other, &mut |c| self.expr(c, scope, outer, clause, aliases)),
        }
    }

    fn subquery(&self, q: &Select, scope: &[Source], outer: &[&Scope]) -> SqlResult<Select> {
        let here: Scope = scope.to_vec();
        let mut enclosing: Vec<&Scope> = outer.to_vec();
        enclosing.push(&here);
        Ok(self.select(q, &enclosing)?.0)
    }
}

/// `[table.]name` among `scope`'s sources: `Some` resolved column, `None`
/// when no source has it, an error when several do.
fn resolve_column(scope: &[Source], table: Option<&str>, name: &str, clause: &str) -> SqlResult<Option<Expr>> {
    let mut found: Option<Expr> = None;
    for s in scope {
        if table.is_some_and(|t| t != s.qualifier) {
            continue;
        }
        let Some(column) = s.columns.iter().find(|c| c.eq_ignore_ascii_case(name)) else { continue };
        if table.is_none() && s.merged.iter().any(|m| m.eq_ignore_ascii_case(name)) {
            continue;
        }
        if found.is_some() {
            return Err(SqlError::new(ErrorCode::NON_UNIQ, format!("Column '{name}' in {clause} is ambiguous")));
        }
        found = Some(Expr::Column { table: Some(s.marker.clone()), name: column.clone() });
    }
    Ok(found)
}

/// `*` or `t.*`: the source's columns as items named after them (`*` skips
/// a USING join's right-side copies).
fn star(source: &Source, items: &mut Vec<SelectItem>, skip_merged: bool) {
    for c in &source.columns {
        if skip_merged && source.merged.iter().any(|m| m.eq_ignore_ascii_case(c)) {
            continue;
        }
        items.push(SelectItem::Expr {
            expr: Expr::Column { table: Some(source.marker.clone()), name: c.clone() },
            alias: Some(c.clone()),
            text: c.clone(),
        });
    }
}

/// Prints a canonical query as MariaDB does; `omit_db`: the database whose
/// tables are printed without it.
struct Printer<'a> {
    omit_db: Option<&'a str>,
}

/// Where a SELECT is printed: its items carry `AS` names at the top and
/// in derived tables, in subqueries only the names the user gave; EXISTS
/// gets MariaDB's `limit 1`.
#[derive(Clone, Copy, PartialEq)]
enum Nesting {
    Named,
    Subquery,
    Exists,
}

/// MariaDB's operator precedences (item.h `enum precedence`).
mod precedence {
    pub const OR: u8 = 1;
    pub const XOR: u8 = 2;
    pub const AND: u8 = 3;
    pub const BETWEEN: u8 = 5;
    pub const CMP: u8 = 6;
    pub const BITOR: u8 = 7;
    pub const BITAND: u8 = 8;
    pub const SHIFT: u8 = 9;
    pub const ADD: u8 = 10;
    pub const MUL: u8 = 11;
    pub const BITXOR: u8 = 12;
    pub const NEG: u8 = 13;
    pub const COLLATE: u8 = 15;
    pub const HIGHEST: u8 = 100;
}

fn binary_op(op: BinOp) -> (&'static str, u8) {
    use precedence::*;
    match op {
        BinOp::Or => ("or", OR),
        BinOp::Xor => ("xor", XOR),
        BinOp::And => ("and", AND),
        BinOp::Eq => ("=", CMP),
        BinOp::NullSafeEq => ("<=>", CMP),
        BinOp::NotEq => ("<>", CMP),
        BinOp::Lt => ("<", CMP),
        BinOp::LtEq => ("<=", CMP),
        BinOp::Gt => (">", CMP),
        BinOp::GtEq => (">=", CMP),
        BinOp::BitOr => ("|", BITOR),
        BinOp::BitAnd => ("&", BITAND),
        BinOp::ShiftLeft => ("<<", SHIFT),
        BinOp::ShiftRight => (">>", SHIFT),
        BinOp::Add => ("+", ADD),
        BinOp::Sub => ("-", ADD),
        BinOp::Mul => ("*", MUL),
        BinOp::Div => ("/", MUL),
        BinOp::IntDiv => ("DIV", MUL),
        BinOp::Mod => ("MOD", MUL),
        BinOp::BitXor => ("^", BITXOR),
    }
}

/// The comparison `NOT (a op b)` is, as MariaDB rewrites it.
fn negated_comparison(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => BinOp::NotEq,
        BinOp::NotEq => BinOp::Eq,
        BinOp::Lt => BinOp::GtEq,
        BinOp::LtEq => BinOp::Gt,
        BinOp::Gt => BinOp::LtEq,
        BinOp::GtEq => BinOp::Lt,
        _ => return None,
    })
}

/// `NOT x` as MariaDB rewrites it when it resolves it: a comparison or a
/// predicate turned around (`a <= 1`, `a is not null`), AND / OR by De
/// Morgan, a column compared with 0, a double negation dropped (`x <> 0`
/// for a non-boolean `x`). `None`: printed as `!x`.
pub(crate) fn negate(x: &Expr) -> Option<Expr> {
    let not = |e: &Expr| Box::new(Expr::Unary(UnaryOp::Not, Box::new(e.clone())));
    let zero = || Box::new(Expr::Literal(Value::Int(0)));
    let mut flipped = x.clone();
    match &mut flipped {
        Expr::Binary(op, l, r) => {
            return match op {
                BinOp::And => Some(Expr::Binary(BinOp::Or, not(l), not(r))),
                BinOp::Or => Some(Expr::Binary(BinOp::And, not(l), not(r))),
                _ => negated_comparison(*op).map(|n| Expr::Binary(n, l.clone(), r.clone())),
            };
        }
        Expr::Column { .. } => return Some(Expr::Binary(BinOp::Eq, Box::new(x.clone()), zero())),
        Expr::Unary(UnaryOp::Not, y) if y.is_boolean_valued() => return Some((**y).clone()),
        Expr::Unary(UnaryOp::Not, y) => return Some(Expr::Binary(BinOp::NotEq, y.clone(), zero())),
        Expr::IsNull { negated, .. }
        | Expr::IsBool { negated, .. }
        | Expr::Between { negated, .. }
        | Expr::InList { negated, .. }
        | Expr::InSubquery { negated, .. }
        | Expr::Like { negated, .. }
        | Expr::Exists { negated, .. } => *negated = !*negated,
        _ => return None,
    }
    Some(flipped)
}

fn precedence_of(e: &Expr) -> u8 {
    use precedence::*;
    match e {
        Expr::Binary(op, _, _) => binary_op(*op).1,
        Expr::Unary(UnaryOp::Not, x) => negate(x).map_or(NEG, |n| precedence_of(&n)),
        Expr::Unary(_, _) => NEG,
        Expr::IsNull { .. }
        | Expr::IsBool { .. }
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::Like { .. } => CMP,
        Expr::Between { .. } => BETWEEN,
        Expr::Collate { .. } => COLLATE,
        Expr::Function { name, .. } if matches!(name.as_str(), "date_add" | "date_sub") => ADD,
        Expr::Function { name, args } if name == "mod" && args.len() == 2 => MUL,
        Expr::Function { name, args } if name == "isnull" && args.len() == 1 => CMP,
        _ => HIGHEST,
    }
}

fn string_literal(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{1a}' => out.push_str("\\Z"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// MariaDB's printed name of a function OneLog's parser names otherwise.
pub(crate) fn function_name(name: &str) -> &str {
    match name {
        "substring" => "substr",
        "upper" => "ucase",
        "lower" => "lcase",
        "length" => "octet_length",
        "now" => "current_timestamp",
        "current_date" => "curdate",
        "current_time" => "curtime",
        other => other,
    }
}

pub(crate) fn aggregate_name(func: AggFunc) -> &'static str {
    match func {
        AggFunc::Count => "count",
        AggFunc::Sum => "sum",
        AggFunc::Min => "min",
        AggFunc::Max => "max",
        AggFunc::Avg => "avg",
        AggFunc::BitAnd => "bit_and",
        AggFunc::BitOr => "bit_or",
        AggFunc::BitXor => "bit_xor",
        AggFunc::StdPop => "std",
        AggFunc::StdSamp => "stddev_samp",
        AggFunc::VarPop => "variance",
        AggFunc::VarSamp => "var_samp",
    }
}

fn cast_name(to: CastType) -> String {
    match to {
        CastType::Signed => "signed".into(),
        CastType::Unsigned => "unsigned".into(),
        CastType::Char(chars) => with_length("char", chars),
        CastType::Binary(bytes) => with_length("binary", bytes),
        CastType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
        CastType::Double(None) => "double".into(),
        CastType::Double(Some(d)) => format!("double({},{})", d.digits, d.decimals),
        CastType::Date => "date".into(),
        CastType::DateTime(fsp) => with_fsp("datetime", fsp),
        CastType::Time(fsp) => with_fsp("time", fsp),
        CastType::Uuid => "uuid".into(),
    }
}

/// A temporal CAST type as MariaDB prints it: `datetime`, `time(3)`.
/// `char` or `char(n)`.
fn with_length(name: &str, length: Option<u32>) -> String {
    match length {
        Some(n) => format!("{name}({n})"),
        None => name.to_string(),
    }
}

pub(crate) fn with_fsp(name: &str, fsp: u8) -> String {
    if fsp == 0 {
        name.to_string()
    } else {
        format!("{name}({fsp})")
    }
}

/// An expression as MariaDB prints it (CHECK constraints, generated
/// columns): unqualified columns as `` `a` ``.
pub fn expression_text(e: &Expr) -> SqlResult<String> {
    Printer { omit_db: None }.expr(e)
}

impl Printer<'_> {
    fn select(&self, q: &Select) -> SqlResult<String> {
        self.nested_select(q, Nesting::Named)
    }

    fn nested_select(&self, q: &Select, nesting: Nesting) -> SqlResult<String> {
        let mut out = String::from("select ");
        if q.distinct {
            out.push_str("distinct ");
        }
        let items = q
            .items
            .iter()
            .map(|i| match i {
                // A subquery's item keeps only the name the user gave it
                // (resolving named every item by its text).
                SelectItem::Expr { expr, alias, text }
                    if nesting != Nesting::Named && alias.as_ref().is_none_or(|a| a == text) =>
                {
                    self.expr(expr)
                }
                SelectItem::Expr { expr, alias, text } => {
                    Ok(format!("{} AS {}", self.expr(expr)?, quote(alias.as_deref().unwrap_or(text))))
                }
                _ => Err(SqlError::internal("unexpanded * in a view's query")),
            })
            .collect::<SqlResult<Vec<_>>>()?;
        out.push_str(&items.join(","));
        if !q.from.is_empty() {
            out.push_str(" from ");
            out.push_str(&self.from(&q.from)?);
        }
        if let Some(w) = &q.selection {
            out.push_str(" where ");
            out.push_str(&self.expr(w)?);
        }
        if !q.group_by.is_empty() {
            out.push_str(" group by ");
            out.push_str(&self.list(&q.group_by)?);
            if q.rollup {
                out.push_str(" with rollup");
            }
        }
        if let Some(h) = &q.having {
            out.push_str(" having ");
            out.push_str(&self.expr(h)?);
        }
        if !q.order_by.is_empty() {
            out.push_str(" order by ");
            out.push_str(&self.order(&q.order_by)?);
        }
        if let Some(limit) = &q.limit {
            out.push_str(" limit ");
            if let Some(offset) = &q.offset {
                out.push_str(&self.expr(offset)?);
                out.push(',');
            }
            out.push_str(&self.expr(limit)?);
        } else if nesting == Nesting::Exists {
            out.push_str(" limit 1");
        }
        if let Some((all, next)) = &q.union {
            out.push_str(if *all { " union all " } else { " union " });
            out.push_str(&self.nested_select(next, nesting)?);
        }
        Ok(out)
    }

    fn list(&self, exprs: &[Expr]) -> SqlResult<String> {
        Ok(exprs.iter().map(|e| self.expr(e)).collect::<SqlResult<Vec<_>>>()?.join(","))
    }

    fn order(&self, order: &[OrderBy]) -> SqlResult<String> {
        let keys = order
            .iter()
            .map(|o| Ok(format!("{}{}", self.expr(&o.expr)?, if o.desc { " desc" } else { "" })))
            .collect::<SqlResult<Vec<_>>>()?;
        Ok(keys.join(","))
    }

    fn table_name(&self, name: &ObjectName) -> String {
        match name.db.as_deref() {
            Some(db) if Some(db) != self.omit_db => format!("{}.{}", quote(db), quote(&name.name)),
            _ => quote(&name.name),
        }
    }

    fn factor(&self, factor: &TableFactor) -> SqlResult<String> {
        match factor {
            TableFactor::Table { name, alias, .. } => Ok(match alias {
                Some(a) => format!("{} {}", self.table_name(name), quote(a)),
                None => self.table_name(name),
            }),
            TableFactor::Derived { query, alias, .. } => Ok(format!("({}) {}", self.select(query)?, quote(alias))),
            _ => Err(SqlError::not_supported("WITH RECURSIVE in a view")),
        }
    }

    /// `a join b` for a join without condition, `(a join b on(c))` with one,
    /// nesting to the left as MariaDB prints them; a RIGHT JOIN prints as
    /// the LEFT JOIN it is.
    fn from(&self, joins: &[Join]) -> SqlResult<String> {
        let mut acc = String::new();
        for (i, join) in joins.iter().enumerate() {
            let factor = self.factor(&join.factor)?;
            if i == 0 {
                acc = factor;
                continue;
            }
            let (left, right, kind) = match join.kind {
                JoinKind::Left => (acc, factor, "left join"),
                JoinKind::Right => (factor, acc, "left join"),
                JoinKind::Inner | JoinKind::Cross => (acc, factor, "join"),
            };
            acc = match &join.on {
                Some(on) => format!("({left} {kind} {right} on({}))", self.expr(on)?),
                None => format!("{left} {kind} {right}"),
            };
        }
        Ok(acc)
    }

    /// `e` printed as an operand of an operator of precedence `parent`:
    /// parenthesized when it binds less tightly (or as tightly, on the
    /// right of a non-associative operator).
    fn operand(&self, e: &Expr, parent: u8, right: bool) -> SqlResult<String> {
        let text = self.expr(e)?;
        let own = precedence_of(e);
        Ok(if own < parent || (right && own == parent) { format!("({text})") } else { text })
    }

    fn expr(&self, e: &Expr) -> SqlResult<String> {
        use precedence::*;
        Ok(match e {
            Expr::Literal(v) => self.literal(v),
            Expr::HexHybrid(bytes) => crate::eval::hybrid_sql(bytes),
            Expr::Column { table: Some(t), name } => match t.split_once('\0') {
                Some((db, table)) if Some(db) != self.omit_db => {
                    format!("{}.{}.{}", quote(db), quote(table), quote(name))
                }
                Some((_, table)) => format!("{}.{}", quote(table), quote(name)),
                None => format!("{}.{}", quote(t), quote(name)),
            },
            Expr::Column { table: None, name } => quote(name),
            Expr::Binary(op, l, r) => {
                let (text, prec) = binary_op(*op);
                let associative = matches!(op, BinOp::And | BinOp::Or | BinOp::Xor);
                let same = |x: &Expr| matches!(x, Expr::Binary(o, _, _) if o == op);
                let left = if associative && same(l) { self.expr(l)? } else { self.operand(l, prec, false)? };
                let right = if associative && same(r) { self.expr(r)? } else { self.operand(r, prec, true)? };
                format!("{left} {text} {right}")
            }
            Expr::Unary(UnaryOp::Neg, x) => format!("-{}", self.operand(x, NEG, false)?),
            Expr::Unary(UnaryOp::BitNot, x) => format!("~{}", self.operand(x, NEG, false)?),
            Expr::Unary(UnaryOp::Not, x) => match negate(x) {
                Some(rewritten) => self.expr(&rewritten)?,
                None => format!("!{}", self.operand(x, NEG, false)?),
            },
            Expr::IsNull { expr, negated } => {
                format!("{} is {}null", self.operand(expr, CMP, false)?, if *negated { "not " } else { "" })
            }
            Expr::IsBool { expr, value, negated } => format!(
                "{} is {}{}",
                self.operand(expr, CMP, false)?,
                if *negated { "not " } else { "" },
                if *value { "true" } else { "false" }
            ),
            Expr::Between { expr, low, high, negated } => format!(
                "{} {}between {} and {}",
                self.operand(expr, BETWEEN, false)?,
                if *negated { "not " } else { "" },
                self.operand(low, BETWEEN, true)?,
                self.operand(high, BETWEEN, true)?
            ),
            Expr::InList { expr, list, negated } => format!(
                "{} {}in ({})",
                self.operand(expr, CMP, false)?,
                if *negated { "not " } else { "" },
                self.list(list)?
            ),
            Expr::InSubquery { expr, query, negated } => format!(
                "{} {}in ({})",
                self.operand(expr, CMP, false)?,
                if *negated { "not " } else { "" },
                self.nested_select(query, Nesting::Subquery)?
            ),
            Expr::Like { expr, pattern, escape, negated } => {
                let mut text = format!(
                    "{} {}like {}",
                    self.operand(expr, CMP, false)?,
                    if *negated { " not " } else { "" },
                    self.operand(pattern, CMP, true)?
                );
                if let Some(c) = escape {
                    text.push_str(&format!(" escape {}", string_literal(c.to_string().as_bytes())));
                }
                text
            }
            Expr::Function { name, args } => self.function(name, args)?,
            Expr::Aggregate { func, arg, distinct } => {
                let arg = match arg.as_deref() {
                    None => "0".to_string(),
                    Some(Expr::Tuple(items)) => self.list(items)?,
                    Some(a) => self.expr(a)?,
                };
                format!("{}({}{arg})", aggregate_name(*func), if *distinct { "distinct " } else { "" })
            }
            Expr::GroupConcat { args, distinct, order_by, separator } => {
                let mut text = format!("group_concat({}{}", if *distinct { "distinct " } else { "" }, self.list(args)?);
                if !order_by.is_empty() {
                    let keys = order_by
                        .iter()
                        .map(|o| Ok(format!("{} {}", self.expr(&o.expr)?, if o.desc { "DESC" } else { "ASC" })))
                        .collect::<SqlResult<Vec<_>>>()?;
                    text.push_str(&format!(" order by {}", keys.join(",")));
                }
                text.push_str(&format!(" separator {})", string_literal(separator.as_bytes())));
                text
            }
            Expr::Case { operand, whens, otherwise } => {
                let mut text = String::from("case ");
                if let Some(o) = operand {
                    text.push_str(&self.expr(o)?);
                    text.push(' ');
                }
                for (w, t) in whens {
                    text.push_str(&format!("when {} then {} ", self.expr(w)?, self.expr(t)?));
                }
                if let Some(o) = otherwise {
                    text.push_str(&format!("else {} ", self.expr(o)?));
                }
                text.push_str("end");
                text
            }
            Expr::Cast { expr, to } => format!("cast({} as {})", self.expr(expr)?, cast_name(*to)),
            Expr::Collate { expr, collation, explicit: true } => {
                format!("{} collate {}", self.operand(expr, COLLATE, false)?, collation.name())
            }
            // A column's own collation, attached by the binder: not written.
            Expr::Collate { expr, explicit: false, .. } => self.expr(expr)?,
            Expr::Tuple(items) => format!("({})", self.list(items)?),
            Expr::ScalarSubquery(q) => format!("({})", self.nested_select(q, Nesting::Subquery)?),
            Expr::Exists { query, negated } => {
                format!("{}exists({})", if *negated { "!" } else { "" }, self.nested_select(query, Nesting::Exists)?)
            }
            Expr::Window(call) => self.window(call)?,
            Expr::UserVar(name) => format!("@{}", quote(name)),
            Expr::SystemVar { scope, name } => match scope {
                VarScope::Default => format!("@@{name}"),
                VarScope::Session => format!("@@session.{name}"),
                VarScope::Global => format!("@@global.{name}"),
            },
            other => return Err(SqlError::internal(format!("cannot print {other:?} in a view"))),
        })
    }

    fn literal(&self, v: &Value) -> String {
        match v {
            Value::Null => "NULL".into(),
            Value::Bytes(b) => string_literal(b),
            Value::Date(_) => format!("DATE{}", string_literal(v.to_string().as_bytes())),
            Value::DateTime(_) => format!("TIMESTAMP{}", string_literal(v.to_string().as_bytes())),
            Value::Time(_) => format!("TIME{}", string_literal(v.to_string().as_bytes())),
            other => other.to_string(),
        }
    }

    fn function(&self, name: &str, args: &[Expr]) -> SqlResult<String> {
        use precedence::*;
        Ok(match (name, args) {
            ("date_add" | "date_sub", [base, amount, Expr::Literal(unit)]) => format!(
                "{} {} interval {} {}",
                self.operand(base, ADD, false)?,
                if name == "date_add" { "+" } else { "-" },
                self.expr(amount)?,
                String::from_utf8_lossy(&unit_bytes(unit)).to_ascii_lowercase()
            ),
            // MariaDB parses these functions into its operators' items.
            ("mod", [a, b]) => self.expr(&Expr::Binary(BinOp::Mod, Box::new(a.clone()), Box::new(b.clone())))?,
            ("extract", [Expr::Literal(unit), x]) => format!(
                "extract({} from {})",
                String::from_utf8_lossy(&unit_bytes(unit)).to_ascii_lowercase(),
                self.expr(x)?
            ),
            ("isnull", [x]) => self.expr(&Expr::IsNull { expr: Box::new(x.clone()), negated: false })?,
            ("trim_chars", [x, Expr::Literal(Value::Bytes(space))]) if space == b" " => {
                format!("trim({})", self.expr(x)?)
            }
            ("trim_chars" | "ltrim_chars" | "rtrim_chars", [x, what]) => {
                let side = match name {
                    "ltrim_chars" => "leading",
                    "rtrim_chars" => "trailing",
                    _ => "both",
                };
                format!("trim({side} {} from {})", self.expr(what)?, self.expr(x)?)
            }
            // A stored function's name is quoted, part by part, as MariaDB
            // prints it (`db`.`f`(..) when the call names its database).
            _ if !crate::eval::is_native_function(name) => {
                let quoted: Vec<String> = name.split('.').map(quote).collect();
                format!("{}({})", quoted.join("."), self.list(args)?)
            }
            _ => format!("{}({})", function_name(name), self.list(args)?),
        })
    }

    fn window(&self, call: &WindowCall) -> SqlResult<String> {
        let name = match call.func {
            WindowFunc::RowNumber => "row_number",
            WindowFunc::Rank => "rank",
            WindowFunc::DenseRank => "dense_rank",
            WindowFunc::PercentRank => "percent_rank",
            WindowFunc::CumeDist => "cume_dist",
            WindowFunc::Ntile => "ntile",
            WindowFunc::Lag => "lag",
            WindowFunc::Lead => "lead",
            WindowFunc::FirstValue => "first_value",
            WindowFunc::LastValue => "last_value",
            WindowFunc::NthValue => "nth_value",
            WindowFunc::Aggregate(f) => aggregate_name(f),
            WindowFunc::PercentileCont => "percentile_cont",
            WindowFunc::PercentileDisc => "percentile_disc",
        };
        let mut spec = String::new();
        if !call.partition_by.is_empty() {
            spec.push_str(&format!(" partition by {}", self.list(&call.partition_by)?));
        }
        // A percentile's ORDER BY is its WITHIN GROUP key.
        let mut within_group = String::new();
        if matches!(call.func, WindowFunc::PercentileCont | WindowFunc::PercentileDisc) {
            within_group = format!(" within group ( order by {})", self.order(&call.order_by)?);
        } else if !call.order_by.is_empty() {
            spec.push_str(&format!(" order by {}", self.order(&call.order_by)?));
        }
        if call.frame.is_some() {
            return Err(SqlError::not_supported("a window frame in a view"));
        }
        Ok(format!("{name}({}){within_group} over ({spec})", self.list(&call.args)?))
    }
}

fn unit_bytes(v: &Value) -> Vec<u8> {
    match v {
        Value::Bytes(b) => b.clone(),
        other => other.to_string().into_bytes(),
    }
}

/// An INSERT, UPDATE or DELETE of a view, rewritten onto the base table
/// the view reads, with the condition its CHECK OPTION holds new rows to.
pub struct WriteTarget {
    pub statement: Statement,
    pub check: Option<ViewCheck>,
}

/// WITH CHECK OPTION: a written row must satisfy `condition` (over the base
/// table's columns, unqualified), or the statement fails with 1369.
pub struct ViewCheck {
    pub condition: Expr,
    /// `db`.`view`, as the error names it.
    pub view: String,
}

impl ViewCheck {
    pub fn failed(&self) -> SqlError {
        SqlError::new(ErrorCode::VIEW_CHECK_FAILED, format!("CHECK OPTION failed {}", self.view))
    }
}

/// `stmt` rewritten to write the base table under the view(s) it names,
/// or `None` when it writes a table.
pub fn write_through_views(catalog: &Catalog, current_db: &str, stmt: &Statement) -> SqlResult<Option<WriteTarget>> {
    let Some(target) = stmt.written_table() else { return Ok(None) };
    let db = target.db.clone().unwrap_or_else(|| current_db.to_string());
    if catalog.view(&db, &target.name).is_none() {
        return Ok(None);
    }
    let mut statement = stmt.clone();
    let mut conditions: Vec<Expr> = Vec::new();
    // The written view's option decides: LOCAL checks its own WHERE,
    // CASCADED those of the views below too; theirs count for nothing.
    let mut checking = None;
    let mut checked_view = String::new();
    // Down through views over views to the table.
    let mut name = ObjectName { db: Some(db), name: target.name.clone() };
    while let Some(view) = catalog.view(name.db.as_deref().unwrap_or_default(), &name.name) {
        let layer = WriteLayer::of(catalog, &view, &statement)?;
        let option = *checking.get_or_insert(view.def.check_option);
        if option == CheckOption::Cascaded || (option == CheckOption::Local && conditions.is_empty()) {
            conditions.extend(layer.condition.clone());
        }
        if checked_view.is_empty() {
            checked_view = format!("{}.{}", quote(&view.def.db), quote(&view.def.name));
        }
        statement = layer.rewrite(&statement)?;
        name = layer.base.clone();
    }
    let check = conditions.into_iter().reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)));
    Ok(Some(WriteTarget { statement, check: check.map(|condition| ViewCheck { condition, view: checked_view }) }))
}

/// 1471 for an INSERT, 1288 otherwise: the view cannot be written.
fn not_writable(view: &ViewEntry, stmt: &Statement) -> SqlError {
    let name = &view.def.name;
    match stmt {
        Statement::Insert(_) => SqlError::new(
            ErrorCode::NON_INSERTABLE_TABLE,
            format!("The target table {name} of the INSERT is not insertable-into"),
        ),
        Statement::Update(_) => SqlError::new(
            ErrorCode::NON_UPDATABLE_TABLE,
            format!("The target table {name} of the UPDATE is not updatable"),
        ),
        _ => SqlError::new(
            ErrorCode::NON_UPDATABLE_TABLE,
            format!("The target table {name} of the DELETE is not updatable"),
        ),
    }
}

/// One view between a statement and its table: the object it reads, its
/// columns as expressions over that object, and its WHERE.
struct WriteLayer {
    view: Arc<ViewEntry>,
    base: ObjectName,
    columns: Vec<(String, Expr)>,
    condition: Option<Expr>,
}

fn unqualified(e: &Expr) -> SqlResult<Expr> {
    match e {
        Expr::Column { name, .. } => Ok(Expr::Column { table: None, name: name.clone() }),
        other => crate::select::map_children(other, &mut unqualified),
    }
}

impl WriteLayer {
    fn of(catalog: &Catalog, view: &Arc<ViewEntry>, stmt: &Statement) -> SqlResult<WriteLayer> {
        let q = &view.query;
        let mergeable = view.def.algorithm != "TEMPTABLE" && is_mergeable(catalog, q);
        let base = match q.from.as_slice() {
            [Join { factor: TableFactor::Table { name, .. }, .. }] if mergeable => name.clone(),
            _ => return Err(not_writable(view, stmt)),
        };
        let columns = q
            .items
            .iter()
            .filter_map(|i| match i {
                SelectItem::Expr { expr, alias, text } => {
                    Some(unqualified(expr).map(|e| (alias.clone().unwrap_or_else(|| text.clone()), e)))
                }
                _ => None,
            })
            .collect::<SqlResult<_>>()?;
        let condition = q.selection.as_ref().map(unqualified).transpose()?;
        Ok(WriteLayer { view: view.clone(), base, columns, condition })
    }

    /// A view column written to: the base column it is.
    fn target_column(&self, name: &str) -> SqlResult<String> {
        match self.columns.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
            Some((_, Expr::Column { name, .. })) => Ok(name.clone()),
            Some(_) => Err(SqlError::new(ErrorCode::FIELD_NOT_UPDATABLE, format!("Column '{name}' is not updatable"))),
            None => Err(SqlError::bad_field(name, "field list")),
        }
    }

    /// An expression over the view's columns as one over the base's.
    fn substitute(&self, e: &Expr) -> SqlResult<Expr> {
        match e {
            // One table is written: any qualifier names the view.
            Expr::Column { name, .. } => match self.columns.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
                Some((_, expr)) => Ok(expr.clone()),
                None => Err(SqlError::bad_field(name, "field list")),
            },
            Expr::InsertValue(name) => Ok(Expr::InsertValue(self.target_column(name)?)),
            other => crate::select::map_children(other, &mut |c| self.substitute(c)),
        }
    }

    /// The statement's WHERE over the base, within the view's rows.
    fn selection(&self, selection: &Option<Expr>) -> SqlResult<Option<Expr>> {
        let own = selection.as_ref().map(|e| self.substitute(e)).transpose()?;
        Ok(match (self.condition.clone(), own) {
            (Some(v), Some(o)) => Some(Expr::Binary(BinOp::And, Box::new(v), Box::new(o))),
            (v, o) => v.or(o),
        })
    }

    fn order_by(&self, order: &[OrderBy]) -> SqlResult<Vec<OrderBy>> {
        order.iter().map(|o| Ok(OrderBy { expr: self.substitute(&o.expr)?, desc: o.desc })).collect()
    }

    fn rewrite(&self, stmt: &Statement) -> SqlResult<Statement> {
        let no_returning = |items: &[SelectItem]| {
            if items.is_empty() {
                Ok(())
            } else {
                Err(SqlError::not_supported("RETURNING through a view"))
            }
        };
        Ok(match stmt {
            Statement::Insert(ins) => {
                no_returning(&ins.returning)?;
                // Without a column list every view column is written, so
                // each must be a table's column (1471); a listed one that
                // is not counts as a second table (1393), as in MariaDB.
                let named: Vec<String> = if ins.columns.is_empty() {
                    if self.columns.iter().any(|(_, e)| !matches!(e, Expr::Column { .. })) {
                        return Err(not_writable(&self.view, stmt));
                    }
                    self.columns.iter().map(|(c, _)| c.clone()).collect()
                } else {
                    ins.columns.clone()
                };
                let insertable = |c: &String| match self.target_column(c) {
                    Err(e) if e.code == ErrorCode::FIELD_NOT_UPDATABLE => Err(SqlError::new(
                        ErrorCode::VIEW_MULTIUPDATE,
                        format!(
                            "Can not modify more than one base table through a join view '{}.{}'",
                            self.view.def.db, self.view.def.name
                        ),
                    )),
                    other => other,
                };
                let on_duplicate = ins
                    .on_duplicate
                    .iter()
                    .map(|(c, e)| Ok((self.target_column(c)?, self.substitute(e)?)))
                    .collect::<SqlResult<_>>()?;
                Statement::Insert(Insert {
                    table: self.base.clone(),
                    columns: named.iter().map(insertable).collect::<SqlResult<_>>()?,
                    on_duplicate,
                    ..ins.clone()
                })
            }
            Statement::Update(upd) => Statement::Update(Update {
                table: self.base.clone(),
                alias: None,
                assignments: upd
                    .assignments
                    .iter()
                    .map(|(c, e)| Ok((self.target_column(c)?, self.substitute(e)?)))
                    .collect::<SqlResult<_>>()?,
                selection: self.selection(&upd.selection)?,
                order_by: self.order_by(&upd.order_by)?,
                ..upd.clone()
            }),
            Statement::Delete(del) => {
                no_returning(&del.returning)?;
                Statement::Delete(Delete {
                    table: self.base.clone(),
                    selection: self.selection(&del.selection)?,
                    order_by: self.order_by(&del.order_by)?,
                    ..del.clone()
                })
            }
            other => other.clone(),
        })
    }
}
