//! EXPLAIN in MariaDB's shape: one row per table with its access path
//! (plus `partitions` for EXPLAIN PARTITIONS, `filtered` for EXPLAIN
//! EXTENDED) and, for EXTENDED, a Note 1003 holding the query as MariaDB's
//! optimizer rewrote it before running it, printed as Item::print prints
//! it (the view printer, with every column qualified by its database).
//!
//! The rewrites modelled are the ones that need no cost model: constant
//! conditions of the WHERE evaluated (a false one makes the WHERE
//! `Impossible WHERE`, `where 0`; true ones are dropped), NOT pushed into
//! its operand, and MariaDB's multiple equalities (`a = b and b = 3` is
//! `a = 3 and b = 3`), which it prints before the other conditions.

use crate::ast::*;
use crate::catalog::{Catalog, TableEntry};
use crate::covering;
use crate::eval;
use crate::select::{
    access_conjuncts, bind, bind_clauses, choose_access, conjuncts, describe_access, resolve_sources, scan_table,
    set_wanted, Access, Ctx, ScopeColumn, Source,
};
use crate::session::{QueryResult, ResultColumn, Session};
use onelog_core::schema::FloatDigits;
use onelog_core::{Collation, ColumnDef, ColumnType, ErrorCode, IndexDef, SqlError, SqlResult, TableDef, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// What EXPLAIN EXTENDED's note and the Extra column say about a WHERE.
enum WhereOutcome {
    /// No WHERE, or one whose every condition is a true constant.
    Unfiltered,
    /// Conditions left to check on each row.
    Filtered,
    /// A condition is a false (or NULL) constant: no row can qualify.
    Impossible,
}

impl Session {
    /// EXPLAIN [EXTENDED | PARTITIONS] of a SELECT.
    pub fn explain(&self, ctx: &Ctx, stmt: &Statement, mode: ExplainMode) -> SqlResult<QueryResult> {
        let Statement::Select(select) = stmt else {
            return Err(SqlError::not_supported("EXPLAIN of this statement"));
        };
        let mut sources = resolve_sources(ctx, &select.from)?;
        read_columns(ctx, select, &mut sources);
        let (outcome, note) = self.rewritten_query(ctx, select)?;
        let rows = match outcome {
            WhereOutcome::Impossible => vec![message_row(mode, "Impossible WHERE")],
            _ if sources.is_empty() => vec![message_row(mode, "No tables used")],
            WhereOutcome::Filtered => table_rows(ctx, select, &sources, mode, true)?,
            WhereOutcome::Unfiltered => table_rows(ctx, select, &sources, mode, false)?,
        };
        if let (ExplainMode::Extended, Some(text)) = (mode, note) {
            self.note(ErrorCode::YES.number, text);
        }
        let columns = column_names(mode).into_iter().map(|name| result_column(name, mode)).collect();
        Ok(QueryResult::Rows { columns, rows })
    }

    /// The WHERE's outcome and the rewritten query's text. A query the view
    /// printer cannot print (a construct views refuse) has no text, and its
    /// WHERE is taken as filtering.
    fn rewritten_query(&self, ctx: &Ctx, select: &Select) -> SqlResult<(WhereOutcome, Option<String>)> {
        // The catalog is read before any condition is evaluated (a stored
        // function reads it again).
        let resolved = {
            let catalog = self.engine.catalog.read();
            crate::view::explain_query(&catalog, self.db.as_deref().unwrap_or_default(), select)
                .map(|query| (ColumnKinds::of(&catalog, &query.from), query))
        };
        let (kinds, mut query) = match resolved {
            Ok(resolved) => resolved,
            Err(e) if e.code == ErrorCode::NOT_SUPPORTED_YET => {
                let outcome =
                    if select.selection.is_some() { WhereOutcome::Filtered } else { WhereOutcome::Unfiltered };
                return Ok((outcome, None));
            }
            Err(e) => return Err(e),
        };
        let outcome = simplify_where(ctx, &mut query, &kinds)?;
        Ok((outcome, crate::view::query_text(&query).ok()))
    }
}

fn column_names(mode: ExplainMode) -> Vec<&'static str> {
    let mut names = vec!["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows"];
    match mode {
        ExplainMode::Plain => {}
        ExplainMode::Partitions => names.insert(3, "partitions"),
        ExplainMode::Extended => names.push("filtered"),
    }
    names.push("Extra");
    names
}

/// An EXPLAIN column typed as MariaDB's (sql_explain.cc): `id` a
/// BIGINT(3) UNSIGNED, `filtered` a DOUBLE(4,2), the others VARCHARs of
/// MariaDB's lengths, some NOT NULL (`rows` only under EXTENDED).
fn result_column(name: &str, mode: ExplainMode) -> ResultColumn {
    let (ty, nullable) = match name {
        "id" => (ColumnType::BigInt, true),
        "select_type" => (ColumnType::VarChar(19), false),
        "table" | "key" => (ColumnType::VarChar(64), true),
        "partitions" => (ColumnType::VarChar(10240), true),
        "type" => (ColumnType::VarChar(10), true),
        "possible_keys" | "key_len" => (ColumnType::VarChar(4096), true),
        "ref" => (ColumnType::VarChar(2048), true),
        "rows" => (ColumnType::VarChar(64), mode != ExplainMode::Extended),
        "filtered" => (ColumnType::Double, true),
        _ => (ColumnType::VarChar(255), false),
    };
    let mut def = ColumnDef::new(name, ty);
    def.nullable = nullable;
    match name {
        "id" => {
            def.unsigned = true;
            def.display_width = Some(3);
        }
        "filtered" => def.float_digits = Some(FloatDigits { digits: 4, decimals: 2 }),
        _ => {}
    }
    ResultColumn::named(name, def)
}

/// The row of a query that reads no table: every column NULL but Extra.
fn message_row(mode: ExplainMode, extra: &str) -> Vec<Value> {
    let mut row = vec![Value::Int(1), Value::from_str("SIMPLE")];
    row.resize(column_names(mode).len() - 1, Value::Null);
    row.push(Value::from_str(extra));
    row
}

/// One row per table: its access path, the rows a full scan reads, and
/// `Using where` when conditions are checked on its rows.
fn table_rows(
    ctx: &Ctx,
    select: &Select,
    sources: &[Source],
    mode: ExplainMode,
    filtered: bool,
) -> SqlResult<Vec<Vec<Value>>> {
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    let mut conds = Vec::new();
    if let Some(w) = &select.selection {
        access_conjuncts(&bind(w, &scope)?, &mut conds);
    }
    // An ORDER BY that does not bind (an item's alias) only loses the index
    // order it could have chosen.
    let order: Vec<OrderBy> = select
        .order_by
        .iter()
        .map(|o| Ok(OrderBy { expr: bind(&o.expr, &scope)?, desc: o.desc }))
        .collect::<SqlResult<_>>()
        .unwrap_or_default();
    let mut rows = Vec::new();
    for source in sources {
        let outer: Vec<Value> = vec![Value::Null; source.offset];
        let single = sources.len() == 1;
        let mut plan = Plan {
            kind: "ALL",
            key: None,
            key_len: None,
            scanned: Value::Null,
            ordered: false,
            covering: false,
            reference: None,
        };
        if let Some(entry) = &source.entry {
            let order = if single && !order.is_empty() { Some(order.as_slice()) } else { None };
            let (access, ordered) = choose_access(ctx, source, &conds, &outer, order)?;
            plan = match access {
                // MariaDB reads a table found by its whole primary key while
                // optimizing, and checks the WHERE on that row then.
                Access::Get(_) if single => match const_row_qualifies(ctx, select, entry, &access, &scope)? {
                    true => Plan::constant(entry, source),
                    false => return Ok(vec![message_row(mode, "Impossible WHERE noticed after reading const tables")]),
                },
                _ => Plan::of(ctx, entry, source, &access, ordered)?,
            };
        }
        let key = plan.key.as_deref().map_or(Value::Null, Value::from_str);
        // A whole index scanned is no index the WHERE could use.
        let possible_keys = if plan.kind == "index" { Value::Null } else { key.clone() };
        let key_len = plan.key_len.map_or(Value::Null, |n| Value::from_str(&n.to_string()));
        let mut row = vec![Value::Int(1), Value::from_str("SIMPLE"), Value::from_str(&source.alias)];
        if mode == ExplainMode::Partitions {
            row.push(Value::Null);
        }
        let reference = plan.reference.as_deref().map_or(Value::Null, Value::from_str);
        row.extend([Value::from_str(plan.kind), possible_keys, key, key_len, reference, plan.scanned]);
        if mode == ExplainMode::Extended {
            row.push(Value::from_str("100.00"));
        }
        let mut extra = Vec::new();
        // A const table's conditions were checked as it was read.
        if filtered && plan.kind != "const" {
            extra.push("Using where");
        }
        if plan.covering {
            extra.push("Using index");
        }
        if single {
            extra.extend(sorting(select, plan.kind, plan.ordered));
        }
        row.push(Value::from_str(&extra.join("; ")));
        rows.push(row);
    }
    Ok(rows)
}

/// The columns each table of the query is read for (see
/// `select::set_wanted`), which decide whether an index covers it; none
/// known (all read) where its clauses do not bind, whose error the query
/// itself gives.
fn read_columns(ctx: &Ctx, select: &Select, sources: &mut [Source]) {
    let scope: Vec<ScopeColumn> = sources.iter().flat_map(|s| s.columns.iter().cloned()).collect();
    if let Ok(clauses) = ctx.in_scope(&scope, || bind_clauses(ctx, select, &scope)) {
        set_wanted(sources, clauses.wanted(&scope));
    }
}

/// What EXPLAIN shows of one table's access path.
struct Plan {
    kind: &'static str,
    key: Option<String>,
    /// The bytes of the key MariaDB's `key_len` counts: given for whole
    /// index scans, where it is the whole key's.
    key_len: Option<u32>,
    scanned: Value,
    ordered: bool,
    /// Answered from the index's entries alone ("Using index").
    covering: bool,
    /// What the key is compared with (`ref`): `const` per key part of a
    /// const table.
    reference: Option<String>,
}

impl Plan {
    /// A table read by its whole primary key, one row: MariaDB's const
    /// table, answered from the key alone when it holds every column read.
    fn constant(entry: &TableEntry, source: &Source) -> Plan {
        let primary = entry.def.primary_key();
        let in_key = |c: usize| primary.is_some_and(|pk| pk.columns.contains(&c));
        let covering = source.wanted.as_deref().is_some_and(|w| w.iter().enumerate().all(|(c, w)| !*w || in_key(c)));
        Plan {
            kind: "const",
            key: primary.map(|pk| pk.name.clone()),
            key_len: primary.and_then(|pk| key_bytes(&entry.def, pk)),
            scanned: Value::UInt(1),
            ordered: true,
            covering,
            reference: primary.map(|pk| vec!["const"; pk.columns.len()].join(",")),
        }
    }

    fn of(ctx: &Ctx, entry: &Arc<TableEntry>, source: &Source, access: &Access, ordered: bool) -> SqlResult<Plan> {
        let (kind, key) = describe_access(entry, access);
        let index = match access {
            Access::Ranges { index: Some(pos), .. } => entry.def.indexes.get(*pos),
            _ => None,
        };
        let whole_index = kind == "index";
        let scanned =
            if kind == "ALL" || whole_index { Value::UInt(count_rows(ctx, entry, access)?) } else { Value::Null };
        Ok(Plan {
            kind,
            key,
            key_len: index.filter(|_| whole_index).and_then(|index| key_bytes(&entry.def, index)),
            scanned,
            ordered,
            covering: index
                .is_some_and(|index| source.wanted.as_deref().is_some_and(|w| covering::covers(&entry.def, index, w))),
            reference: None,
        })
    }
}

/// Whether the row `access` (a whole primary key) finds exists and meets
/// the query's WHERE.
fn const_row_qualifies(
    ctx: &Ctx,
    select: &Select,
    entry: &Arc<TableEntry>,
    access: &Access,
    scope: &[ScopeColumn],
) -> SqlResult<bool> {
    let mut found = None;
    scan_table(ctx, entry, access, None, &mut |_, row| {
        found = Some(row);
        Ok(false)
    })?;
    let Some(row) = found else { return Ok(false) };
    match &select.selection {
        Some(w) => Ok(eval::truthy(&ctx.eval_in(scope, &bind(w, scope)?, &row)?).unwrap_or(false)),
        None => Ok(true),
    }
}

/// MariaDB's `key_len` of a whole key of `index`: each part's stored
/// length plus a byte for a nullable part; `None` for a part whose length
/// is not modelled.
fn key_bytes(def: &TableDef, index: &IndexDef) -> Option<u32> {
    index
        .columns
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let column = def.columns.get(c)?;
            let prefix_chars = index.parts.get(i).and_then(|part| part.prefix_length);
            Some(part_bytes(column, prefix_chars)? + u32::from(column.nullable))
        })
        .sum()
}

/// The bytes a key part on `column` takes in MariaDB's key image: a
/// string's declared (or prefix) length in bytes, with 2 length bytes for
/// a variable-length one, a BLOB/TEXT prefix likewise; the others their
/// record format's length.
fn part_bytes(column: &ColumnDef, prefix_chars: Option<u32>) -> Option<u32> {
    const LENGTH_BYTES: u32 = 2;
    let mbmaxlen = column.collation.mbmaxlen();
    let chars = |declared: u32| prefix_chars.map_or(declared, |p| p.min(declared));
    Some(match &column.ty {
        ColumnType::Char(n) => chars(*n) * mbmaxlen,
        ColumnType::VarChar(n) => chars(*n) * mbmaxlen + LENGTH_BYTES,
        ColumnType::Binary(n) => chars(*n),
        ColumnType::VarBinary(n) => chars(*n) + LENGTH_BYTES,
        ColumnType::Text(_) => prefix_chars? * mbmaxlen + LENGTH_BYTES,
        ColumnType::Blob(_) => prefix_chars? + LENGTH_BYTES,
        ty => stored_bytes(ty)?,
    })
}

/// The bytes MariaDB's key image of a value of `ty` takes (its record
/// format's length).
fn stored_bytes(ty: &ColumnType) -> Option<u32> {
    // MariaDB's packed DECIMAL: 4 bytes per 9 digits, fewer for the rest.
    const LEFTOVER_BYTES: [u32; 9] = [0, 1, 1, 2, 2, 3, 3, 4, 4];
    let packed_digits = |digits: u32| digits / 9 * 4 + LEFTOVER_BYTES[(digits % 9) as usize];
    let fraction_bytes = |fsp: u8| u32::from(fsp).div_ceil(2);
    Some(match ty {
        ColumnType::TinyInt | ColumnType::Year => 1,
        ColumnType::SmallInt => 2,
        ColumnType::MediumInt | ColumnType::Date => 3,
        ColumnType::Int | ColumnType::Float => 4,
        ColumnType::BigInt | ColumnType::Double => 8,
        ColumnType::Decimal { precision, scale } => {
            packed_digits(u32::from(*precision - *scale)) + packed_digits(u32::from(*scale))
        }
        ColumnType::DateTime { fsp } => 5 + fraction_bytes(*fsp),
        ColumnType::Timestamp { fsp } => 4 + fraction_bytes(*fsp),
        ColumnType::Time { fsp } => 3 + fraction_bytes(*fsp),
        _ => return None,
    })
}

/// How a one-table query's full scan is grouped and sorted, as MariaDB
/// says it: GROUP BY and DISTINCT through a temporary table (GROUP BY
/// sorted as well), ORDER BY by a sort unless the access path yields the
/// rows in order.
fn sorting(select: &Select, kind: &str, ordered: bool) -> Vec<&'static str> {
    let mut extra = Vec::new();
    if !select.group_by.is_empty() {
        // An index read in GROUP BY order groups as it goes, unless the
        // groups are then sorted some other way.
        if kind == "ALL" || (!select.order_by.is_empty() && !ordered) {
            extra.extend(["Using temporary", "Using filesort"]);
        }
        return extra;
    }
    if select.distinct && kind == "ALL" {
        extra.push("Using temporary");
    }
    if !select.order_by.is_empty() && !ordered {
        extra.push("Using filesort");
    }
    extra
}

/// The rows a full scan reads: MariaDB's MyISAM and Aria, whose row
/// counts are exact, show the table's row count; OneLog counts the rows
/// its read view sees (keys only, no column decoded).
fn count_rows(ctx: &Ctx, entry: &Arc<TableEntry>, access: &Access) -> SqlResult<u64> {
    let mut count = 0u64;
    let none = vec![false; entry.def.columns.len()];
    scan_table(ctx, entry, access, Some(&none), &mut |_, _| {
        count += 1;
        Ok(true)
    })?;
    Ok(count)
}

/// Rewrites the resolved query's WHERE as MariaDB's optimizer does before
/// printing it, and says what is left of it.
fn simplify_where(ctx: &Ctx, query: &mut Select, kinds: &ColumnKinds) -> SqlResult<WhereOutcome> {
    let mut conds = Vec::new();
    if let Some(selection) = query.selection.take() {
        conjuncts(&selection, &mut conds);
    }
    // An inner join's ON is part of the WHERE to MariaDB (simplify_joins).
    for join in &mut query.from {
        if let (JoinKind::Inner | JoinKind::Cross, Some(on)) = (join.kind, join.on.take()) {
            conjuncts(&on, &mut conds);
        }
    }
    if conds.is_empty() {
        return Ok(WhereOutcome::Unfiltered);
    }
    let mut kept = Vec::new();
    for cond in conds {
        if kinds.never_true(&cond) {
            query.selection = Some(Expr::Literal(Value::Int(0)));
            return Ok(WhereOutcome::Impossible);
        }
        if !cond.is_constant() {
            // `NOT a` is `a = 0` from here on: an equality like any other.
            kept.push(match &cond {
                Expr::Unary(UnaryOp::Not, x) => crate::view::negate(x).unwrap_or(cond),
                _ => cond,
            });
            continue;
        }
        let row = eval::Row { values: &[], params: ctx.params, aggregates: &[], insert_values: None };
        if eval::truth(&eval::eval(&cond, &row, ctx)?, ctx) != Some(true) {
            query.selection = Some(Expr::Literal(Value::Int(0)));
            return Ok(WhereOutcome::Impossible);
        }
    }
    let Some(conds) = Equalities::collect(kept, kinds) else {
        query.selection = Some(Expr::Literal(Value::Int(0)));
        return Ok(WhereOutcome::Impossible);
    };
    let outcome = if conds.is_empty() { WhereOutcome::Unfiltered } else { WhereOutcome::Filtered };
    query.selection = Some(
        conds
            .into_iter()
            .reduce(|l, r| Expr::Binary(BinOp::And, Box::new(l), Box::new(r)))
            .unwrap_or(Expr::Literal(Value::Int(1))),
    );
    Ok(outcome)
}

/// What a column or constant compares as, for MariaDB's rule that only
/// a column and a constant (or two columns) compared alike are equal in
/// its sense: an integer column is never "equal" to a string.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Numeric,
    Text(Collation),
}

/// The kinds of the columns of a resolved FROM's base tables, by the
/// name their columns carry (`db \0 qualifier`), and which of them are
/// never NULL.
struct ColumnKinds {
    kinds: Vec<(String, String, Kind)>,
    /// NOT NULL columns when no outer join can make them NULL, but for
    /// DATE and DATETIME ones (MariaDB reads `d IS NULL` of those as
    /// `d = 0`, the zero date).
    never_null: Vec<(String, String)>,
}

impl ColumnKinds {
    fn of(catalog: &Catalog, from: &[Join]) -> ColumnKinds {
        let mut kinds = Vec::new();
        let mut never_null = Vec::new();
        let inner_only = from.iter().all(|j| matches!(j.kind, JoinKind::Inner | JoinKind::Cross));
        for join in from {
            let TableFactor::Table { name, alias, .. } = &join.factor else { continue };
            let Some(db) = name.db.as_deref() else { continue };
            let Some(entry) = catalog.table(db, &name.name) else { continue };
            let marker = format!("{db}\0{}", alias.as_deref().unwrap_or(&name.name));
            for column in &entry.def.columns {
                let zero_date = matches!(column.ty, ColumnType::Date | ColumnType::DateTime { .. });
                if inner_only && !column.nullable && !zero_date {
                    never_null.push((marker.clone(), column.name.clone()));
                }
                let kind = match &column.ty {
                    ty if ty.is_numeric() => Kind::Numeric,
                    ty if ty.is_text() && !ty.has_members() => Kind::Text(column.collation),
                    _ => continue,
                };
                kinds.push((marker.clone(), column.name.clone(), kind));
            }
        }
        ColumnKinds { kinds, never_null }
    }

    fn kind(&self, e: &Expr) -> Option<Kind> {
        let Expr::Column { table: Some(table), name } = e else { return None };
        self.kinds.iter().find(|(t, n, _)| t == table && n == name).map(|(_, _, kind)| *kind)
    }

    /// `column IS NULL` of a column that is never NULL: always false.
    fn never_true(&self, cond: &Expr) -> bool {
        let Expr::IsNull { expr, negated: false } = cond else { return false };
        let Expr::Column { table: Some(table), name } = expr.as_ref() else { return false };
        self.never_null.iter().any(|(t, n)| t == table && n == name)
    }
}

fn literal_kind(v: &Value, column: Kind) -> bool {
    match column {
        Kind::Numeric => matches!(v, Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_)),
        Kind::Text(_) => matches!(v, Value::Bytes(_)),
    }
}

/// One of MariaDB's multiple equalities: columns known equal, and the
/// constant they all equal, if any.
struct Class {
    fields: Vec<Expr>,
    constant: Option<Expr>,
    kind: Kind,
}

/// A condition that joins a multiple equality.
enum Equality {
    Constant(Expr, Expr, Kind),
    Fields(Expr, Expr, Kind),
}

fn equality(cond: &Expr, kinds: &ColumnKinds) -> Option<Equality> {
    let Expr::Binary(BinOp::Eq, l, r) = cond else { return None };
    match (kinds.kind(l), kinds.kind(r)) {
        (Some(a), Some(b)) if a == b => Some(Equality::Fields((**l).clone(), (**r).clone(), a)),
        (Some(kind), None) => match &**r {
            Expr::Literal(v) if literal_kind(v, kind) => Some(Equality::Constant((**l).clone(), (**r).clone(), kind)),
            _ => None,
        },
        (None, Some(kind)) => match &**l {
            Expr::Literal(v) if literal_kind(v, kind) => Some(Equality::Constant((**r).clone(), (**l).clone(), kind)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether two constants of one multiple equality are equal.
fn same_constant(a: &Expr, b: &Expr, kind: Kind) -> bool {
    let (Expr::Literal(a), Expr::Literal(b)) = (a, b) else { return false };
    let order = match kind {
        Kind::Numeric => eval::compare(a, b),
        Kind::Text(collation) => eval::compare_with_collation(a, b, collation),
    };
    order == Some(Ordering::Equal)
}

/// The multiple equalities of a WHERE's conditions.
struct Equalities(Vec<Class>);

impl Equalities {
    /// The conditions as MariaDB prints them: each multiple equality's
    /// `column = constant` (or `column = first column`) first, then the
    /// other conditions in their order. `None`: two constants one column
    /// cannot both equal (an impossible WHERE).
    fn collect(conds: Vec<Expr>, kinds: &ColumnKinds) -> Option<Vec<Expr>> {
        let mut classes = Equalities(Vec::new());
        let mut others = Vec::new();
        for cond in conds {
            match equality(&cond, kinds) {
                Some(Equality::Constant(field, constant, kind)) => classes.add_constant(field, constant, kind)?,
                Some(Equality::Fields(a, b, kind)) => classes.join(a, b, kind)?,
                None => others.push(cond),
            }
        }
        let eq = |l: &Expr, r: &Expr| Expr::Binary(BinOp::Eq, Box::new(l.clone()), Box::new(r.clone()));
        let mut out = Vec::new();
        for class in &classes.0 {
            match &class.constant {
                Some(c) => out.extend(class.fields.iter().map(|f| eq(f, c))),
                None => out.extend(class.fields[1..].iter().map(|f| eq(f, &class.fields[0]))),
            }
        }
        out.extend(others);
        Some(out)
    }

    fn find(&self, field: &Expr) -> Option<usize> {
        self.0.iter().position(|c| c.fields.contains(field))
    }

    fn add_constant(&mut self, field: Expr, constant: Expr, kind: Kind) -> Option<()> {
        let Some(at) = self.find(&field) else {
            self.0.push(Class { fields: vec![field], constant: Some(constant), kind });
            return Some(());
        };
        let class = &mut self.0[at];
        match &class.constant {
            Some(known) if !same_constant(known, &constant, kind) => None,
            Some(_) => Some(()),
            None => {
                class.constant = Some(constant);
                Some(())
            }
        }
    }

    fn join(&mut self, a: Expr, b: Expr, kind: Kind) -> Option<()> {
        match (self.find(&a), self.find(&b)) {
            (None, None) => self.0.push(Class { fields: vec![a, b], constant: None, kind }),
            (Some(at), None) => self.0[at].fields.push(b),
            (None, Some(at)) => self.0[at].fields.push(a),
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                let (keep, merge) = (x.min(y), x.max(y));
                let merged = self.0.remove(merge);
                let class = &mut self.0[keep];
                if let (Some(c1), Some(c2)) = (&class.constant, &merged.constant) {
                    if !same_constant(c1, c2, class.kind) {
                        return None;
                    }
                }
                class.constant = class.constant.take().or(merged.constant);
                class.fields.extend(merged.fields);
            }
        }
        Some(())
    }
}
