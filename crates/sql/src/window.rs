//! Window functions: the value of each `func(...) OVER (...)` call for every
//! row of a query's result (after WHERE, GROUP BY and HAVING, before
//! DISTINCT, ORDER BY and LIMIT), as MariaDB 10.11 computes them.
//!
//! Each call sorts the rows by (partition, ORDER BY) and walks each
//! partition once. Ranking functions and LAG/LEAD look at positions and
//! peers (rows equal under the window's ORDER BY); FIRST/LAST/NTH_VALUE and
//! aggregates read the row's frame. A frame that starts at the partition's
//! start is accumulated as it grows, so the default frame costs one pass;
//! other frames are summed per row (frame size × rows). A RANGE frame's
//! `n PRECEDING` / `n FOLLOWING` bound is found by binary search over the
//! partition's (sorted) ORDER BY keys.

use crate::aggregate::Acc;
use crate::ast::{AggFunc, BinOp, Expr, FrameBound, FrameOffset, OrderBy, WindowCall, WindowFrame, WindowFunc};
use crate::eval;
use crate::select::{cmp_keys, group_key, Ctx, KeyOrder};
use onelog_core::decimal::RoundingStrategy;
use onelog_core::{ColumnType, ErrorCode, SqlError, SqlResult, Value};
use std::cmp::Ordering;
use std::ops::Range;
use std::slice;

/// A result row before projection: its values and its aggregate values
/// (empty without GROUP BY); window values are appended to the latter.
pub type GroupRow = (Vec<Value>, Vec<Value>);

/// Replaces each window call in `expr` by `AggSlot(base + i)`, where `i`
/// is its index in `calls` (equal calls share one).
pub fn extract(expr: &Expr, calls: &mut Vec<WindowCall>, base: usize) -> SqlResult<Expr> {
    if let Expr::Window(call) = expr {
        let index = calls.iter().position(|c| c == call.as_ref()).unwrap_or_else(|| {
            calls.push((**call).clone());
            calls.len() - 1
        });
        return Ok(Expr::AggSlot(base + index));
    }
    crate::select::map_children(expr, &mut |e| extract(e, calls, base))
}

pub fn contains_window(expr: &Expr) -> bool {
    expr.contains(&|e| matches!(e, Expr::Window(_)))
}

/// Error 4015 if a clause other than the select list and ORDER BY holds a
/// window function.
pub fn reject_in_clause(expr: Option<&Expr>) -> SqlResult<()> {
    match expr.is_some_and(contains_window) {
        true => Err(SqlError::new(
            ErrorCode::WRONG_PLACEMENT_OF_WINDOW_FUNCTION,
            "Window function is allowed only in SELECT list and ORDER BY clause",
        )),
        false => Ok(()),
    }
}

/// The type checks MariaDB makes on the window calls in `expr` before any
/// row is read (see [`check_range_key`], [`check_percentile_types`]).
pub fn check_types(expr: &Expr, env: &crate::typing::TypeEnv<'_>) -> SqlResult<()> {
    if let Expr::Window(call) = expr {
        check_range_key(call, env)?;
        check_percentile_types(call, env)?;
    }
    let mut checked = Ok(());
    expr.for_each_child(&mut |child| {
        if checked.is_ok() {
            checked = check_types(child, env);
        }
    });
    checked
}

/// Error 4021 if `call` has a RANGE frame with an offset and an ORDER BY
/// key whose type is not numeric (a key of a type not known here is
/// checked by its values).
fn check_range_key(call: &WindowCall, env: &crate::typing::TypeEnv<'_>) -> SqlResult<()> {
    let offset = call.frame.as_ref().is_some_and(|f| [&f.start, &f.end].into_iter().any(is_range_offset));
    let key_type = call.order_by.first().and_then(|key| crate::typing::result_def(&key.expr, env, ""));
    match offset && key_type.is_some_and(|def| !def.ty.is_integer() && !def.ty.is_numeric()) {
        true => Err(wrong_type_for_range_frame()),
        false => Ok(()),
    }
}

/// PERCENTILE_CONT / PERCENTILE_DISC: the fraction must have a numeric
/// type (4104; NULL has none); PERCENTILE_CONT interpolates, so its key
/// must be a number or a temporal value (4101). Types not known here pass.
fn check_percentile_types(call: &WindowCall, env: &crate::typing::TypeEnv<'_>) -> SqlResult<()> {
    let Some(name) = percentile_name(call.func) else { return Ok(()) };
    let def = |e: &Expr| crate::typing::result_def(e, env, "");
    if call.args.first().and_then(def).is_some_and(|d| !d.ty.is_numeric()) {
        return Err(SqlError::new(
            ErrorCode::WRONG_TYPE_OF_ARGUMENT,
            format!("{name} function only accepts arguments that can be converted to numerical types"),
        ));
    }
    let interpolated = |ty: &ColumnType| {
        ty.is_numeric()
            || matches!(
                ty,
                ColumnType::Year
                    | ColumnType::Date
                    | ColumnType::DateTime { .. }
                    | ColumnType::Timestamp { .. }
                    | ColumnType::Time { .. }
            )
    };
    let key = call.order_by.first().and_then(|k| def(&k.expr));
    if call.func == WindowFunc::PercentileCont && key.is_some_and(|d| !interpolated(&d.ty)) {
        return Err(SqlError::new(
            ErrorCode::WRONG_TYPE_FOR_PERCENTILE_FUNC,
            format!("Numeric datatype is required for {name} function"),
        ));
    }
    Ok(())
}

/// The name MariaDB's errors give a percentile function.
fn percentile_name(func: WindowFunc) -> Option<&'static str> {
    match func {
        WindowFunc::PercentileCont => Some("percentile_cont"),
        WindowFunc::PercentileDisc => Some("percentile_disc"),
        _ => None,
    }
}

/// Error 4021: a RANGE offset or ORDER BY key that is not a number.
pub(crate) fn wrong_type_for_range_frame() -> SqlError {
    SqlError::new(ErrorCode::WRONG_TYPE_FOR_RANGE_FRAME, "Numeric datatype is required for RANGE-type frame")
}

fn is_range_offset(bound: &FrameBound) -> bool {
    matches!(bound, FrameBound::Preceding(FrameOffset::Range(_)) | FrameBound::Following(FrameOffset::Range(_)))
}

/// Appends each call's value to every row's aggregate values. Every call
/// reads the rows before any value is appended, so calls see only the
/// query's own aggregates.
pub fn compute(ctx: &Ctx, calls: &[WindowCall], rows: &mut [GroupRow]) -> SqlResult<()> {
    let mut last_order = None;
    let mut values = Vec::with_capacity(calls.len());
    for call in calls {
        let (call_values, order) = compute_one(ctx, call, rows)?;
        values.push(call_values);
        last_order = Some(order);
    }
    for call_values in values {
        for (row, value) in rows.iter_mut().zip(call_values) {
            row.1.push(value);
        }
    }
    // MariaDB leaves the rows in the order its last window sorted them
    // (which a query without ORDER BY returns).
    if let Some(order) = last_order {
        let sorted: Vec<GroupRow> = order.iter().map(|&i| std::mem::take(&mut rows[i])).collect();
        for (slot, row) in rows.iter_mut().zip(sorted) {
            *slot = row;
        }
    }
    Ok(())
}

/// One call's inputs per row, and the rows in window order.
struct Sorted {
    args: Vec<Vec<Value>>,
    order_keys: Vec<Vec<Value>>,
    /// Per ORDER BY key: descending.
    desc: Vec<KeyOrder>,
    /// Row indexes by (partition, ORDER BY), ties in input order.
    order: Vec<usize>,
    /// Ranges of `order` holding one partition each.
    partitions: Vec<Range<usize>>,
}

fn sort_rows(ctx: &Ctx, call: &WindowCall, rows: &[GroupRow]) -> SqlResult<Sorted> {
    let eval_all = |exprs: &mut dyn Iterator<Item = &Expr>, row: &GroupRow| -> SqlResult<Vec<Value>> {
        let r = eval::Row { values: &row.0, params: ctx.params, aggregates: &row.1, insert_values: None };
        exprs.map(|e| eval::eval(e, &r, ctx)).collect()
    };
    let mut partition_keys = Vec::with_capacity(rows.len());
    let mut order_keys = Vec::with_capacity(rows.len());
    let mut args = Vec::with_capacity(rows.len());
    let partition_collations: Vec<_> = call.partition_by.iter().map(|p| crate::eval::expr_collation(p).0).collect();
    for row in rows {
        partition_keys.push(group_key(&eval_all(&mut call.partition_by.iter(), row)?, &partition_collations));
        order_keys.push(eval_all(&mut call.order_by.iter().map(|o| &o.expr), row)?);
        args.push(eval_all(&mut call.args.iter(), row)?);
    }
    let desc: Vec<KeyOrder> = call.order_by.iter().map(|o| KeyOrder::of(&o.expr, o.desc)).collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        partition_keys[a].cmp(&partition_keys[b]).then_with(|| cmp_keys(&order_keys[a], &order_keys[b], &desc))
    });
    let mut partitions = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        if i == order.len() || partition_keys[order[i]] != partition_keys[order[start]] {
            partitions.push(start..i);
            start = i;
        }
    }
    Ok(Sorted { args, order_keys, desc, order, partitions })
}

/// One partition's rows in window order.
struct Partition<'a> {
    args: Vec<&'a [Value]>,
    /// Each row's peers (see [`peer_groups`]).
    peers: Vec<Range<usize>>,
    /// Each row's first ORDER BY key (NULL without ORDER BY): what a RANGE
    /// offset measures from.
    keys: Vec<&'a Value>,
}

/// One call's value for each row, and the rows' window order.
fn compute_one(ctx: &Ctx, call: &WindowCall, rows: &[GroupRow]) -> SqlResult<(Vec<Value>, Vec<usize>)> {
    let sorted = sort_rows(ctx, call, rows)?;
    let mut out = vec![Value::Null; rows.len()];
    for partition in &sorted.partitions {
        let ids = &sorted.order[partition.clone()];
        let part = Partition {
            args: ids.iter().map(|&i| sorted.args[i].as_slice()).collect(),
            peers: peer_groups(ids, &sorted.order_keys, &sorted.desc),
            keys: ids.iter().map(|&i| sorted.order_keys[i].first().unwrap_or(&Value::Null)).collect(),
        };
        let values = partition_values(ctx, call, &part, sorted.desc.first())?;
        for (&row, value) in ids.iter().zip(values) {
            out[row] = value;
        }
    }
    Ok((out, sorted.order))
}

/// For each position of a partition, the range of its peers (rows equal
/// under the window's ORDER BY; without one, the whole partition).
fn peer_groups(ids: &[usize], order_keys: &[Vec<Value>], desc: &[KeyOrder]) -> Vec<Range<usize>> {
    let mut peers = vec![0..0; ids.len()];
    let mut start = 0;
    for i in 1..=ids.len() {
        let same = i < ids.len() && cmp_keys(&order_keys[ids[i]], &order_keys[ids[start]], desc) == Ordering::Equal;
        if !same {
            peers[start..i].fill(start..i);
            start = i;
        }
    }
    peers
}

/// The call's value at each position of one partition; `order` is the
/// first ORDER BY key's.
fn partition_values(ctx: &Ctx, call: &WindowCall, part: &Partition, order: Option<&KeyOrder>) -> SqlResult<Vec<Value>> {
    let (args, peers) = (part.args.as_slice(), part.peers.as_slice());
    let n = args.len();
    let int = |v: usize| Value::Int(v as i64);
    Ok(match call.func {
        WindowFunc::RowNumber => (0..n).map(|i| int(i + 1)).collect(),
        WindowFunc::Rank => peers.iter().map(|p| int(p.start + 1)).collect(),
        WindowFunc::DenseRank => {
            let mut rank = 0;
            (0..n)
                .map(|i| {
                    if peers[i].start == i {
                        rank += 1;
                    }
                    int(rank)
                })
                .collect()
        }
        WindowFunc::PercentRank => {
            peers.iter().map(|p| Value::Double(if n > 1 { p.start as f64 / (n - 1) as f64 } else { 0.0 })).collect()
        }
        WindowFunc::CumeDist => peers.iter().map(|p| Value::Double(p.end as f64 / n as f64)).collect(),
        WindowFunc::Ntile => ntile(args, n)?,
        WindowFunc::PercentileCont | WindowFunc::PercentileDisc => percentile(ctx, call.func, part)?,
        WindowFunc::Lag | WindowFunc::Lead => {
            let sign: i64 = if call.func == WindowFunc::Lag { -1 } else { 1 };
            (0..n)
                .map(|i| {
                    let offset = args[i].get(1).map_or(Some(1), integer).unwrap_or(0);
                    let target = i as i64 + sign * offset;
                    usize::try_from(target).ok().filter(|t| *t < n).map_or(Value::Null, |t| args[t][0].clone())
                })
                .collect()
        }
        _ => frame_values(ctx, call, part, order)?,
    })
}

fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::UInt(u) => i64::try_from(*u).ok(),
        Value::Null => None,
        other => other.to_string().trim().parse::<f64>().ok().map(|f| f.round() as i64),
    }
}

/// NTILE(k): k buckets as equal as can be, the larger ones first. k must
/// be positive and the same for the whole partition (4024 otherwise).
fn ntile(args: &[&[Value]], n: usize) -> SqlResult<Vec<Value>> {
    let Some(buckets) = args.first().and_then(|a| a.first()).and_then(integer) else {
        return Ok(vec![Value::Null; n]);
    };
    let same = args.iter().all(|a| a.first().and_then(integer) == Some(buckets));
    if buckets <= 0 || !same {
        return Err(SqlError::new(ErrorCode::INVALID_NTILE_ARGUMENT, "Argument of NTILE must be greater than 0"));
    }
    let buckets = buckets as usize;
    let (size, larger) = (n / buckets, n % buckets);
    Ok((0..n)
        .map(|i| {
            let bucket = if size == 0 || i < larger * (size + 1) {
                i / (size + 1)
            } else {
                larger + (i - larger * (size + 1)) / size
            };
            Value::Int(bucket as i64 + 1)
        })
        .collect())
}

/// PERCENTILE_CONT / PERCENTILE_DISC over one partition, the same for each
/// of its rows: of its non-NULL keys in window order, PERCENTILE_DISC takes
/// the first whose cumulative distribution reaches the fraction p, and
/// PERCENTILE_CONT interpolates (as a DOUBLE) between the two keys around
/// position p × (count − 1). No key or a NULL p: NULL. p must be the same
/// on every row (4102) and within [0, 1] (4103), checked row by row as
/// MariaDB does.
fn percentile(env: &dyn eval::EvalEnv, func: WindowFunc, part: &Partition) -> SqlResult<Vec<Value>> {
    let name = percentile_name(func).unwrap_or_default();
    // MariaDB reads the fraction and the keys as DOUBLE.
    let real = |v: Option<&Value>| v.and_then(|v| eval::to_num(v, env)).map(|n| n.to_f64());
    let fraction = real(part.args.first().and_then(|a| a.first()));
    for args in &part.args {
        let q = real(args.first());
        if q != fraction {
            let message = format!("Argument to the {name} function is not a constant for a partition");
            return Err(SqlError::new(ErrorCode::ARGUMENT_NOT_CONSTANT, message));
        }
        if q.is_some_and(|q| !(0.0..=1.0).contains(&q)) {
            let message = format!("Argument to the {name} function does not belong to the range [0,1]");
            return Err(SqlError::new(ErrorCode::ARGUMENT_OUT_OF_RANGE, message));
        }
    }
    let keys: Vec<&Value> = part.keys.iter().copied().filter(|k| !k.is_null()).collect();
    let value = match (keys.len(), fraction) {
        (0, _) | (_, None) => Value::Null,
        (n, Some(p)) if func == WindowFunc::PercentileDisc => {
            let reached = (0..n).find(|&i| (i + 1) as f64 / n as f64 >= p).unwrap_or(n - 1);
            keys[reached].clone()
        }
        (n, Some(p)) => {
            let position = p * (n - 1) as f64;
            let (below, above) = (position.floor(), position.ceil());
            let key = |at: f64| real(keys.get(at as usize).copied()).unwrap_or_default();
            Value::Double(if below == above {
                key(below)
            } else {
                (above - position) * key(below) + (position - below) * key(above)
            })
        }
    };
    Ok(vec![value; part.args.len()])
}

/// FIRST_VALUE, LAST_VALUE, NTH_VALUE and aggregates over each row's frame.
fn frame_values(ctx: &Ctx, call: &WindowCall, part: &Partition, order: Option<&KeyOrder>) -> SqlResult<Vec<Value>> {
    let (args, n) = (part.args.as_slice(), part.args.len());
    let default_frame = || WindowFrame {
        rows: false,
        start: FrameBound::UnboundedPreceding,
        end: if call.order_by.is_empty() { FrameBound::UnboundedFollowing } else { FrameBound::CurrentRow },
    };
    let frame = call.frame.clone().unwrap_or_else(default_frame);
    let range_key =
        call.order_by.first().zip(order).map(|(key, order)| RangeKey { env: ctx, key, order, keys: &part.keys });
    let starts = bound_positions(&frame.start, frame.rows, false, &part.peers, range_key.as_ref())?;
    let ends = bound_positions(&frame.end, frame.rows, true, &part.peers, range_key.as_ref())?;
    let frames: Vec<Range<usize>> = starts.into_iter().zip(ends).map(|(start, end)| start..end.max(start)).collect();
    let arg = |i: usize| args[i].first().cloned().unwrap_or(Value::Int(1));
    Ok(match call.func {
        WindowFunc::FirstValue => {
            frames.iter().map(|f| if f.is_empty() { Value::Null } else { arg(f.start) }).collect()
        }
        WindowFunc::LastValue => {
            frames.iter().map(|f| if f.is_empty() { Value::Null } else { arg(f.end - 1) }).collect()
        }
        WindowFunc::NthValue => (0..n)
            .map(|i| {
                let nth = args[i].get(1).and_then(integer).filter(|k| *k > 0);
                let at = nth.map(|k| frames[i].start + k as usize - 1).filter(|at| frames[i].contains(at));
                at.map_or(Value::Null, arg)
            })
            .collect(),
        WindowFunc::Aggregate(func) => aggregate_frames(func, &frames, arg),
        _ => vec![Value::Null; n],
    })
}

/// The ORDER BY key a RANGE offset measures from, and its values in one
/// partition (sorted by `order`).
struct RangeKey<'a> {
    env: &'a dyn eval::EvalEnv,
    key: &'a OrderBy,
    order: &'a KeyOrder,
    keys: &'a [&'a Value],
}

/// For each position `i` of a partition, where the frame bound `bound`
/// falls: the first position of the frame (`is_end` false) or the one
/// past its last.
fn bound_positions(
    bound: &FrameBound,
    rows: bool,
    is_end: bool,
    peers: &[Range<usize>],
    range_key: Option<&RangeKey>,
) -> SqlResult<Vec<usize>> {
    let n = peers.len();
    let past = usize::from(is_end);
    let offset_rows = |k: &u64| usize::try_from(*k).unwrap_or(usize::MAX);
    Ok(match bound {
        FrameBound::UnboundedPreceding => vec![0; n],
        FrameBound::UnboundedFollowing => vec![n; n],
        FrameBound::CurrentRow if rows => (0..n).map(|i| i + past).collect(),
        FrameBound::CurrentRow => peers.iter().map(|p| if is_end { p.end } else { p.start }).collect(),
        FrameBound::Preceding(FrameOffset::Rows(k)) => {
            (0..n).map(|i| (i + past).saturating_sub(offset_rows(k))).collect()
        }
        FrameBound::Following(FrameOffset::Rows(k)) => {
            (0..n).map(|i| (i + past).saturating_add(offset_rows(k)).min(n)).collect()
        }
        FrameBound::Preceding(FrameOffset::Range(v)) | FrameBound::Following(FrameOffset::Range(v)) => {
            // The parser admits a RANGE offset only with one ORDER BY key.
            let range_key = range_key.ok_or_else(|| {
                SqlError::new(
                    ErrorCode::RANGE_FRAME_NEEDS_SIMPLE_ORDERBY,
                    "RANGE-type frame requires ORDER BY clause with single sort key",
                )
            })?;
            let following = matches!(bound, FrameBound::Following(_));
            range_positions(range_key, v, following, is_end)?
        }
    })
}

/// Where `offset PRECEDING` / `FOLLOWING` of a RANGE frame falls for each
/// row: the frame starts at the first row whose key is not before the
/// row's key ∓ offset in window order, and ends after the last row whose
/// key is not after it. Descending order turns PRECEDING into larger keys;
/// a NULL key (NULL ∓ offset is NULL) reaches exactly its NULL peers.
fn range_positions(range_key: &RangeKey, offset: &Value, following: bool, is_end: bool) -> SqlResult<Vec<usize>> {
    let keys = range_key.keys;
    let n = keys.len();
    let op = if following != range_key.order.desc { BinOp::Add } else { BinOp::Sub };
    // What an out-of-range sum's error 1690 names.
    let sum_expr = Expr::Binary(op, Box::new(range_key.key.expr.clone()), Box::new(Expr::Literal(offset.clone())));
    let mut positions: Vec<usize> = Vec::with_capacity(n);
    for key in keys {
        // MariaDB's frame cursor stops computing bounds once it has passed
        // the partition's last row, so an overflow beyond is no error.
        if positions.last() == Some(&n) {
            positions.push(n);
            continue;
        }
        let bound = range_bound(range_key.env, key, offset, op, &sum_expr)?;
        let in_frame_side =
            |k: &&Value| match cmp_keys(slice::from_ref(*k), slice::from_ref(&bound), slice::from_ref(range_key.order))
            {
                Ordering::Less => true,
                Ordering::Equal => is_end,
                Ordering::Greater => false,
            };
        positions.push(keys.partition_point(in_frame_side));
    }
    Ok(positions)
}

/// `key op offset` as MariaDB stores it for comparing with the other rows'
/// keys: in the key's own type, so an integer key's bound is rounded (a
/// DECIMAL sum half away from zero, a DOUBLE one half to even).
fn range_bound(env: &dyn eval::EvalEnv, key: &Value, offset: &Value, op: BinOp, sum_expr: &Expr) -> SqlResult<Value> {
    if !matches!(key, Value::Null | Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_)) {
        return Err(wrong_type_for_range_frame());
    }
    let bound = eval::binary_values(op, key.clone(), offset.clone(), None, sum_expr, env)?;
    Ok(match (key, bound) {
        (Value::Int(_) | Value::UInt(_), Value::Decimal(d)) => {
            Value::Decimal(d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero))
        }
        (Value::Int(_) | Value::UInt(_), Value::Double(f)) => Value::Double(f.round_ties_even()),
        (_, bound) => bound,
    })
}

fn aggregate_frames(func: AggFunc, frames: &[Range<usize>], arg: impl Fn(usize) -> Value) -> Vec<Value> {
    // Frames that all start at the partition's start only grow: one
    // accumulator fed as they do.
    if frames.iter().all(|f| f.start == 0) && frames.windows(2).all(|w| w[0].end <= w[1].end) {
        let mut acc = Acc::default();
        let mut fed = 0;
        return frames
            .iter()
            .map(|f| {
                for j in fed..f.end {
                    acc.add(func, false, arg(j));
                }
                fed = fed.max(f.end);
                acc.finish(func)
            })
            .collect();
    }
    let doubles = || (0..frames.len()).all(|j| matches!(arg(j), Value::Double(_) | Value::Null));
    if matches!(func, AggFunc::Sum | AggFunc::Avg) && doubles() {
        return sliding_double(func, frames, arg);
    }
    frames
        .iter()
        .map(|f| {
            let mut acc = Acc::default();
            f.clone().for_each(|j| acc.add(func, false, arg(j)));
            acc.finish(func)
        })
        .collect()
}

/// SUM / AVG of DOUBLE over frames that slide, computed as MariaDB's frame
/// cursors do: per row, first the rows entering at the bottom are added,
/// then those leaving at the top subtracted, to one running sum. With
/// floating point the order shows in the last digits (13.250000000000002
/// where a fresh sum per frame gives 13.25), and a client comparing with
/// MariaDB sees them.
fn sliding_double(func: AggFunc, frames: &[Range<usize>], arg: impl Fn(usize) -> Value) -> Vec<Value> {
    let number = |j: usize| match arg(j) {
        Value::Double(d) => Some(d),
        _ => None,
    };
    let (mut sum, mut count) = (0.0f64, 0u64);
    let mut held = 0..0;
    frames
        .iter()
        .map(|f| {
            for j in held.end.max(f.start)..f.end {
                if let Some(d) = number(j) {
                    sum += d;
                    count += 1;
                }
            }
            for j in held.start..f.start.min(held.end) {
                if let Some(d) = number(j) {
                    sum -= d;
                    count -= 1;
                }
            }
            held = f.start.max(held.start)..f.end.max(held.end);
            match (count, func) {
                (0, _) => Value::Null,
                (_, AggFunc::Avg) => Value::Double(sum / count as f64),
                _ => Value::Double(sum),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(values: Vec<Value>) -> Vec<i64> {
        values.iter().map(|v| integer(v).unwrap_or(-1)).collect()
    }

    #[test]
    fn ntile_puts_the_larger_buckets_first() {
        let run = |buckets: i64, n: usize| {
            let rows = vec![vec![Value::Int(buckets)]; n];
            ntile(&rows.iter().map(Vec::as_slice).collect::<Vec<_>>(), n).map(ints)
        };
        assert_eq!(run(3, 7).unwrap(), vec![1, 1, 1, 2, 2, 3, 3]);
        assert_eq!(run(2, 4).unwrap(), vec![1, 1, 2, 2]);
        assert_eq!(run(10, 3).unwrap(), vec![1, 2, 3]);
        assert_eq!(run(0, 2).unwrap_err().code.number, 4024);
    }

    #[test]
    fn frames_clamp_to_the_partition() {
        let peers: Vec<Range<usize>> = vec![0..1, 1..3, 1..3, 3..4, 4..5];
        let positions =
            |bound: FrameBound, rows: bool, is_end: bool| bound_positions(&bound, rows, is_end, &peers, None).unwrap();
        assert_eq!(positions(FrameBound::Preceding(FrameOffset::Rows(1)), true, false), vec![0, 0, 1, 2, 3]);
        assert_eq!(positions(FrameBound::Following(FrameOffset::Rows(1)), true, true), vec![2, 3, 4, 5, 5]);
        assert_eq!(positions(FrameBound::CurrentRow, false, true), vec![1, 3, 3, 4, 5]);
        assert_eq!(positions(FrameBound::CurrentRow, false, false), vec![0, 1, 1, 3, 4]);
        assert_eq!(positions(FrameBound::UnboundedFollowing, true, false), vec![5; 5]);
    }

    /// Positions of a RANGE bound over `keys` (sorted in `desc` order).
    fn range(keys: &[Value], desc: bool, offset: Value, following: bool, is_end: bool) -> SqlResult<Vec<usize>> {
        let key = OrderBy { expr: Expr::Literal(Value::Null), desc };
        let order = KeyOrder::of(&key.expr, desc);
        let keys: Vec<&Value> = keys.iter().collect();
        let range_key = RangeKey { env: &eval::NoWarn, key: &key, order: &order, keys: &keys };
        range_positions(&range_key, &offset, following, is_end)
    }

    #[test]
    fn range_bounds_measure_from_the_key_with_nulls_as_one_group() {
        let asc = [Value::Null, Value::Null, Value::Int(1), Value::Int(2), Value::Int(2), Value::Int(4)];
        // 1 PRECEDING as the start: the first key >= key - 1.
        assert_eq!(range(&asc, false, Value::Int(1), false, false).unwrap(), vec![0, 0, 2, 2, 2, 5]);
        // 1 FOLLOWING as the end: past the last key <= key + 1.
        assert_eq!(range(&asc, false, Value::Int(1), true, true).unwrap(), vec![2, 2, 5, 5, 5, 6]);
        // An integer key's bound is rounded: 2 - 0.5 is 2 (half away from zero).
        assert_eq!(range(&asc, false, Value::Decimal("0.5".parse().unwrap()), false, false).unwrap()[3], 3);
        let desc = [Value::Int(4), Value::Int(2), Value::Int(1), Value::Null];
        // Descending: 1 PRECEDING is key + 1.
        assert_eq!(range(&desc, true, Value::Int(1), false, false).unwrap(), vec![0, 1, 1, 3]);
        assert_eq!(range(&desc, true, Value::Int(1), true, true).unwrap(), vec![1, 3, 3, 4]);
    }

    #[test]
    fn range_bounds_stop_at_the_partition_end_and_refuse_text() {
        // 2 - 5 overflows BIGINT UNSIGNED only after the bound passed the end.
        let keys = [Value::UInt(6), Value::UInt(1)];
        assert_eq!(range(&keys, true, Value::Int(5), true, true).unwrap(), vec![2, 2]);
        let err = range(&[Value::UInt(1), Value::UInt(6)], false, Value::Int(5), false, false).unwrap_err();
        assert_eq!(err.code.number, 1690);
        let err = range(&[Value::from_str("a")], false, Value::Int(1), false, false).unwrap_err();
        assert_eq!(err.code.number, 4021);
    }

    #[test]
    fn growing_frames_accumulate_once_and_others_per_row() {
        let arg = |i: usize| Value::Int(i as i64 + 1);
        let growing = aggregate_frames(AggFunc::Sum, &[0..1, 0..3, 0..3], arg);
        assert_eq!(growing.iter().map(|v| v.to_string()).collect::<Vec<_>>(), vec!["1", "6", "6"]);
        let sliding = aggregate_frames(AggFunc::Count, &[0..2, 1..3, 3..3], arg);
        assert_eq!(ints(sliding), vec![2, 2, 0]);
    }
}
