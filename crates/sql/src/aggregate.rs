//! GROUP BY and aggregate functions (COUNT, SUM, MIN, MAX, AVG,
//! GROUP_CONCAT with ORDER BY and SEPARATOR, each with DISTINCT).

use crate::ast::{AggFunc, Expr};
use crate::eval::{compare_with_collation, expr_collation, EvalEnv};
use crate::select::{cmp_keys, group_key, Ctx, KeyOrder, KeySet};
use crate::sort::row_bytes;
use onelog_core::decimal::Decimal;
use onelog_core::{Collation, ErrorCode, SqlResult, Value};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

/// One aggregate's running state (also a window frame's, see `window`).
#[derive(Default, Clone)]
pub(crate) struct Acc {
    count: u64,
    sum_int: i128,
    sum_dec: Option<Decimal>,
    sum_f64: Option<f64>,
    best: Option<Value>,
    /// BIT_AND / BIT_OR / BIT_XOR so far.
    bits: Option<u64>,
    /// STD / VARIANCE: running mean and sum of squared deviations
    /// (Welford's method, which stays accurate where sums of squares cancel).
    mean: f64,
    squares: f64,
    /// GROUP_CONCAT: each row's ORDER BY keys and its text.
    concat: Vec<(Vec<Value>, String)>,
    seen: KeySet,
    /// The argument's collation: what DISTINCT and MIN/MAX compare text
    /// under.
    collation: Collation,
}

impl Acc {
    /// A fresh state for `agg` (its argument's collation).
    pub(crate) fn for_agg(agg: &Expr) -> Acc {
        let arg = match agg {
            Expr::Aggregate { arg: Some(arg), .. } => match arg.as_ref() {
                Expr::Tuple(items) => items.first(),
                one => Some(one),
            },
            Expr::GroupConcat { args, .. } => args.first(),
            _ => None,
        };
        Acc { collation: arg.map_or_else(Collation::default, |a| expr_collation(a).0), ..Acc::default() }
    }

    /// COUNT(DISTINCT a, b, ...): counts each distinct row of values once,
    /// skipping rows with a NULL among them.
    fn add_distinct_row(&mut self, values: &[Value]) {
        if self.admit_row(values, true) {
            self.count += 1;
        }
    }

    /// Whether a row of argument values counts: none of them NULL and,
    /// with DISTINCT, not seen before in this group.
    fn admit_row(&mut self, values: &[Value], distinct: bool) -> bool {
        !values.iter().any(Value::is_null)
            && (!distinct || self.seen.insert(group_key(values, std::slice::from_ref(&self.collation))))
    }

    pub(crate) fn add(&mut self, func: AggFunc, distinct: bool, v: Value) {
        // Every aggregate skips NULLs; COUNT(*) passes a non-NULL marker.
        if v.is_null() {
            return;
        }
        if distinct && !self.seen.insert(group_key(std::slice::from_ref(&v), std::slice::from_ref(&self.collation))) {
            return;
        }
        self.count += 1;
        match func {
            AggFunc::Count => {}
            AggFunc::Sum | AggFunc::Avg => match v {
                Value::Int(i) => self.sum_int += i128::from(i),
                Value::UInt(u) => self.sum_int += i128::from(u),
                Value::Decimal(d) => self.sum_dec = Some(self.sum_dec.take().unwrap_or_default() + d),
                other => self.sum_f64 = Some(self.sum_f64.unwrap_or(0.0) + as_f64(&other)),
            },
            AggFunc::BitAnd | AggFunc::BitOr | AggFunc::BitXor => {
                // As the bit operators take a value (`|`, `&`, `^`).
                let bits = crate::eval::to_u64_bits(&v, &crate::eval::NoWarn);
                self.bits = Some(match (func, self.bits) {
                    (_, None) => bits,
                    (AggFunc::BitAnd, Some(b)) => b & bits,
                    (AggFunc::BitOr, Some(b)) => b | bits,
                    (_, Some(b)) => b ^ bits,
                });
            }
            AggFunc::StdPop | AggFunc::StdSamp | AggFunc::VarPop | AggFunc::VarSamp => {
                let x = as_f64(&v);
                let delta = x - self.mean;
                self.mean += delta / self.count as f64;
                self.squares += delta * (x - self.mean);
            }
            AggFunc::Min | AggFunc::Max => {
                let replace = match &self.best {
                    None => true,
                    Some(b) => {
                        let ord = compare_with_collation(&v, b, self.collation).unwrap_or(Ordering::Equal);
                        (func == AggFunc::Min && ord == Ordering::Less)
                            || (func == AggFunc::Max && ord == Ordering::Greater)
                    }
                };
                if replace {
                    self.best = Some(v);
                }
            }
        }
    }

    pub(crate) fn finish(&self, func: AggFunc) -> Value {
        match func {
            AggFunc::Count => Value::Int(self.count as i64),
            AggFunc::Min | AggFunc::Max => self.best.clone().unwrap_or(Value::Null),
            // Over no rows BIT_AND is all ones and BIT_OR/XOR zero, not NULL.
            AggFunc::BitAnd => Value::UInt(self.bits.unwrap_or(u64::MAX)),
            AggFunc::BitOr | AggFunc::BitXor => Value::UInt(self.bits.unwrap_or(0)),
            _ if self.count == 0 => Value::Null,
            AggFunc::VarPop => Value::Double(self.squares / self.count as f64),
            AggFunc::StdPop => Value::Double((self.squares / self.count as f64).sqrt()),
            _ if self.count == 1 && matches!(func, AggFunc::VarSamp | AggFunc::StdSamp) => Value::Null,
            AggFunc::VarSamp => Value::Double(self.squares / (self.count - 1) as f64),
            AggFunc::StdSamp => Value::Double((self.squares / (self.count - 1) as f64).sqrt()),
            AggFunc::Sum => self.sum(),
            AggFunc::Avg => match self.sum() {
                Value::Double(f) => Value::Double(f / self.count as f64),
                Value::Decimal(d) => {
                    let mut avg = d.clone() / Decimal::from(self.count);
                    avg.rescale(d.scale() + 4);
                    Value::Decimal(avg)
                }
                _ => Value::Null,
            },
        }
    }

    /// GROUP_CONCAT: skips rows with a NULL argument (and, with DISTINCT,
    /// repeated argument rows); keeps the row's text with its sort keys.
    fn add_concat(&mut self, values: &[Value], distinct: bool, keys: Vec<Value>) {
        if !self.admit_row(values, distinct) {
            return;
        }
        self.count += 1;
        self.concat.push((keys, values.iter().map(Value::to_string).collect()));
    }

    /// GROUP_CONCAT's result: the texts in ORDER BY order (ties, and no
    /// ORDER BY, in input order), joined by the separator; NULL if none.
    /// Texts stop at `max_len_bytes` (`group_concat_max_len`), cut at a
    /// character boundary. Also returns how many texts were appended and
    /// whether the last of them was cut.
    fn finish_concat(&self, orders: &[KeyOrder], separator: &str, max_len_bytes: usize) -> (Value, usize, bool) {
        if self.count == 0 {
            return (Value::Null, 0, false);
        }
        let mut rows: Vec<&(Vec<Value>, String)> = self.concat.iter().collect();
        rows.sort_by(|a, b| cmp_keys(&a.0, &b.0, orders));
        let mut joined = String::new();
        for (appended, (_, text)) in rows.iter().enumerate() {
            if appended > 0 {
                joined.push_str(separator);
            }
            joined.push_str(text);
            if joined.len() > max_len_bytes {
                let end = (0..=max_len_bytes).rev().find(|i| joined.is_char_boundary(*i)).unwrap_or(0);
                joined.truncate(end);
                return (Value::from_str(&joined), appended + 1, true);
            }
        }
        (Value::from_str(&joined), rows.len(), false)
    }

    /// SUM of integers is DECIMAL in MySQL; any double makes it DOUBLE.
    fn sum(&self) -> Value {
        if let Some(f) = self.sum_f64 {
            let exact = self.sum_dec.as_ref().map(|d| d.to_string().parse::<f64>().unwrap_or(0.0)).unwrap_or(0.0);
            return Value::Double(f + exact + self.sum_int as f64);
        }
        let int_part = Decimal::from_i128_with_scale(self.sum_int, 0);
        Value::Decimal(self.sum_dec.clone().map_or(int_part.clone(), |d| d + int_part))
    }
}

/// A value as SUM of doubles and STD/VARIANCE add it.
fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Double(d) => *d,
        other => other.to_string().trim().parse().unwrap_or(0.0),
    }
}

/// Groups `rows` by `group_by` and computes `aggs` (each an
/// `Expr::Aggregate`) per group. Returns (representative row, aggregate
/// values) ordered by the GROUP BY values, as MariaDB's GROUP BY sorts; with
/// no GROUP BY there is exactly one group.
pub fn group(
    ctx: &Ctx,
    rows: &[Vec<Value>],
    group_by: &[Expr],
    aggs: &[Expr],
) -> SqlResult<Vec<(Vec<Value>, Vec<Value>)>> {
    let mut grouper = Grouper::new(ctx, group_by, aggs);
    for row in rows {
        let keys: Vec<Value> = group_by.iter().map(|g| ctx.eval(g, row)).collect::<SqlResult<_>>()?;
        grouper.add(keys, Cow::Borrowed(row))?;
    }
    let mut finisher = Finisher::new(ctx, aggs);
    Ok(grouper.finish(&mut finisher))
}

/// One row of `GROUP BY ... WITH ROLLUP`: a group's first row, its
/// aggregate values, and how many GROUP BY values it is grouped by (all of
/// them for a group, fewer for a super-aggregate row).
pub type RollupRow = (Vec<Value>, Vec<Value>, usize);

/// GROUP BY ... WITH ROLLUP, in MariaDB's order: the groups by their GROUP
/// BY values, each followed by the super-aggregate rows of the prefixes it
/// ends (`a, b` then `a, NULL`, and `NULL, NULL` last). Each level is
/// aggregated from the rows again: not every aggregate can be combined
/// from its groups' (AVG, COUNT(DISTINCT), GROUP_CONCAT). No rows, no row.
pub fn group_rollup(ctx: &Ctx, rows: &[Vec<Value>], group_by: &[Expr], aggs: &[Expr]) -> SqlResult<Vec<RollupRow>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let levels = (0..=group_by.len())
        .map(|kept| {
            let mut grouper = Grouper::new(ctx, &group_by[..kept], aggs);
            for row in rows {
                let keys: Vec<Value> = group_by[..kept].iter().map(|g| ctx.eval(g, row)).collect::<SqlResult<_>>()?;
                grouper.add(keys, Cow::Borrowed(row))?;
            }
            let collations = grouper.collations.clone();
            Ok((grouper.into_groups(), collations))
        })
        .collect::<SqlResult<Vec<_>>>()?;
    let collations = levels.last().map(|(_, c)| c.clone()).unwrap_or_default();
    let mut levels: Vec<std::vec::IntoIter<Group>> = levels.into_iter().map(|(g, _)| g.into_iter()).collect();
    let full: Vec<Group> = levels.pop().map(|groups| groups.collect()).unwrap_or_default();
    let prefix = |group: &Group, kept: usize| group_key(&group.keys[..kept], &collations[..kept]);
    let mut finisher = Finisher::new(ctx, aggs);
    let mut out = Vec::with_capacity(full.len() * 2);
    for (i, group) in full.iter().enumerate() {
        out.push((group.first_row.clone(), group.aggregates(&mut finisher), group_by.len()));
        // The prefixes this group is the last of, longest first.
        for kept in (0..group_by.len()).rev() {
            if full.get(i + 1).is_some_and(|next| prefix(next, kept) == prefix(group, kept)) {
                break;
            }
            let sum = levels[kept].next().ok_or_else(|| onelog_core::SqlError::internal("rollup levels disagree"))?;
            out.push((sum.first_row.clone(), sum.aggregates(&mut finisher), kept));
        }
    }
    Ok(out)
}

/// Rows grouped in memory by their GROUP BY values, each group with its
/// first row and its aggregates' running states.
pub(crate) struct Grouper<'a> {
    ctx: &'a Ctx<'a>,
    aggs: &'a [Expr],
    key_orders: Vec<KeyOrder>,
    collations: Vec<Collation>,
    fresh: Vec<Acc>,
    /// Each group's GROUP BY values and key, in order of first row.
    order: Vec<(Vec<Value>, Vec<u8>)>,
    groups: HashMap<Vec<u8>, (Vec<Value>, Vec<Acc>), foldhash::fast::RandomState>,
    /// The rows' width, for the row of NULLs of an empty ungrouped query.
    width: usize,
    /// See [`Grouper::bytes`].
    bytes: usize,
}

/// GROUP BY values and the row they are of.
pub(crate) type KeyedRowRef<'r> = (Vec<Value>, Cow<'r, [Value]>);

/// One group: its GROUP BY values, its first row and its aggregates'
/// running states.
pub(crate) struct Group {
    pub keys: Vec<Value>,
    pub first_row: Vec<Value>,
    accs: Vec<Acc>,
}

impl Group {
    /// The aggregate values; call for the groups in output order.
    pub(crate) fn aggregates(&self, finisher: &mut Finisher) -> Vec<Value> {
        finisher.values(&self.accs)
    }
}

impl<'a> Grouper<'a> {
    pub(crate) fn new(ctx: &'a Ctx<'a>, group_by: &[Expr], aggs: &'a [Expr]) -> Grouper<'a> {
        let key_orders: Vec<KeyOrder> = group_by.iter().map(|g| KeyOrder::of(g, false)).collect();
        Grouper {
            ctx,
            aggs,
            collations: key_orders.iter().map(|o| o.collation).collect(),
            key_orders,
            fresh: aggs.iter().map(Acc::for_agg).collect(),
            order: Vec::new(),
            groups: HashMap::default(),
            width: 0,
            bytes: 0,
        }
    }

    /// GROUP BY's order of groups.
    pub(crate) fn key_orders(&self) -> &[KeyOrder] {
        &self.key_orders
    }

    /// About what the groups take in memory, as they were opened (a
    /// GROUP_CONCAT's texts not counted).
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Adds `row`, whose GROUP BY values are `keys`, to its group (which
    /// keeps it if it is its first).
    pub(crate) fn add(&mut self, keys: Vec<Value>, row: Cow<[Value]>) -> SqlResult<()> {
        let added = self.add_if(keys, row, true)?;
        debug_assert!(added.is_none(), "a row may open a group");
        Ok(())
    }

    /// [`Self::add`], but a row of a group not open yet is given back
    /// unless `may_open` says it may open one.
    pub(crate) fn add_if<'r>(
        &mut self,
        keys: Vec<Value>,
        row: Cow<'r, [Value]>,
        may_open: bool,
    ) -> SqlResult<Option<KeyedRowRef<'r>>> {
        let ctx = self.ctx;
        self.width = self.width.max(row.len());
        let k = group_key(&keys, &self.collations);
        if let Some((_, accs)) = self.groups.get_mut(&k) {
            accumulate(ctx, self.aggs, accs, &row)?;
            return Ok(None);
        }
        if !may_open {
            return Ok(Some((keys, row)));
        }
        let mut accs = self.fresh.clone();
        accumulate(ctx, self.aggs, &mut accs, &row)?;
        self.bytes += 2 * k.len() + row_bytes(&keys) + row_bytes(&row) + std::mem::size_of_val(accs.as_slice());
        self.order.push((keys, k.clone()));
        self.groups.insert(k, (row.into_owned(), accs));
        Ok(None)
    }

    /// The groups, ordered by their GROUP BY values (ties in order of first
    /// row), with their aggregate values.
    pub(crate) fn finish(self, finisher: &mut Finisher) -> Vec<(Vec<Value>, Vec<Value>)> {
        let groups = self.into_groups();
        groups
            .into_iter()
            .map(|group| {
                let aggregates = group.aggregates(finisher);
                (group.first_row, aggregates)
            })
            .collect()
    }

    /// The groups, ordered by their GROUP BY values (ties in order of first
    /// row); without GROUP BY, one group even over no rows (of NULL
    /// columns), as an aggregate over no rows still yields a row.
    pub(crate) fn into_groups(mut self) -> Vec<Group> {
        if self.key_orders.is_empty() && self.groups.is_empty() {
            return vec![Group {
                keys: Vec::new(),
                first_row: vec![Value::Null; self.width.max(256)],
                accs: self.fresh,
            }];
        }
        let key_orders = &self.key_orders;
        self.order.sort_by(|(a, _), (b, _)| cmp_keys(a, b, key_orders));
        let groups = &mut self.groups;
        self.order
            .into_iter()
            .filter_map(|(keys, k)| groups.remove(&k).map(|(first_row, accs)| Group { keys, first_row, accs }))
            .collect()
    }
}

/// Adds `row` to the running states `accs` of `aggs`.
fn accumulate(ctx: &Ctx, aggs: &[Expr], accs: &mut [Acc], row: &[Value]) -> SqlResult<()> {
    for (acc, agg) in accs.iter_mut().zip(aggs) {
        match agg {
            Expr::GroupConcat { args, distinct, order_by, .. } => {
                let values = eval_all(ctx, args, row)?;
                let keys = eval_all(ctx, order_by.iter().map(|o| &o.expr), row)?;
                acc.add_concat(&values, *distinct, keys);
            }
            Expr::Aggregate { func, arg, distinct } => match arg.as_deref() {
                Some(Expr::Tuple(items)) => acc.add_distinct_row(&eval_all(ctx, items, row)?),
                Some(a) => acc.add(*func, *distinct, ctx.eval(a, row)?),
                None => acc.add(*func, *distinct, Value::Int(1)),
            },
            _ => {}
        }
    }
    Ok(())
}

fn eval_all<'e>(ctx: &Ctx, exprs: impl IntoIterator<Item = &'e Expr>, row: &[Value]) -> SqlResult<Vec<Value>> {
    exprs.into_iter().map(|e| ctx.eval(e, row)).collect()
}

/// Turns a group's accumulators into its aggregate values.
pub(crate) struct Finisher<'a> {
    ctx: &'a Ctx<'a>,
    aggs: &'a [Expr],
    group_concat_max_len_bytes: usize,
    /// Per aggregate, the texts GROUP_CONCAT appended in earlier groups:
    /// MariaDB numbers the row in its cut warning across the statement.
    concat_rows: Vec<usize>,
}

impl<'a> Finisher<'a> {
    pub(crate) fn new(ctx: &'a Ctx<'a>, aggs: &'a [Expr]) -> Finisher<'a> {
        let max_len = match aggs.iter().any(|a| matches!(a, Expr::GroupConcat { .. })) {
            true => ctx.session.session_value("group_concat_max_len").parse().ok(),
            false => None,
        };
        let concat_rows = vec![0; aggs.len()];
        Finisher { ctx, aggs, group_concat_max_len_bytes: max_len.unwrap_or(usize::MAX), concat_rows }
    }

    /// A group's aggregate values; call for the groups in output order.
    pub(crate) fn values(&mut self, accs: &[Acc]) -> Vec<Value> {
        let aggs = self.aggs;
        aggs.iter().zip(accs).enumerate().map(|(i, (agg, acc))| self.finish(i, agg, acc)).collect()
    }

    fn finish(&mut self, index: usize, agg: &Expr, acc: &Acc) -> Value {
        match agg {
            Expr::Aggregate { func, .. } => acc.finish(*func),
            Expr::GroupConcat { order_by, separator, .. } => {
                let orders: Vec<KeyOrder> = order_by.iter().map(|o| KeyOrder::of(&o.expr, o.desc)).collect();
                let (value, appended, cut) = acc.finish_concat(&orders, separator, self.group_concat_max_len_bytes);
                self.concat_rows[index] += appended;
                if cut {
                    let message = format!("Row {} was cut by GROUP_CONCAT()", self.concat_rows[index]);
                    self.ctx.warn(ErrorCode::CUT_VALUE_GROUP_CONCAT.number, message);
                }
                value
            }
            _ => Value::Null,
        }
    }
}
