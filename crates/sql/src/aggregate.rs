//! GROUP BY and aggregate functions (COUNT, SUM, MIN, MAX, AVG,
//! GROUP_CONCAT, with DISTINCT).

use crate::ast::{AggFunc, Expr};
use crate::eval::compare;
use crate::select::{group_key, Ctx, KeySet};
use onelog_core::{SqlResult, Value};
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::collections::HashMap;

#[derive(Default, Clone)]
struct Acc {
    count: u64,
    sum_int: i128,
    sum_dec: Option<Decimal>,
    sum_f64: Option<f64>,
    best: Option<Value>,
    concat: Vec<String>,
    seen: KeySet,
}

impl Acc {
    /// COUNT(DISTINCT a, b, ...): counts each distinct row of values once,
    /// skipping rows with a NULL among them.
    fn add_distinct_row(&mut self, values: &[Value]) {
        if !values.iter().any(Value::is_null) && self.seen.insert(group_key(values)) {
            self.count += 1;
        }
    }

    fn add(&mut self, func: AggFunc, distinct: bool, v: Value) {
        // Every aggregate skips NULLs; COUNT(*) passes a non-NULL marker.
        if v.is_null() {
            return;
        }
        if distinct && !self.seen.insert(group_key(std::slice::from_ref(&v))) {
            return;
        }
        self.count += 1;
        match func {
            AggFunc::Count => {}
            AggFunc::Sum | AggFunc::Avg => match v {
                Value::Int(i) => self.sum_int += i128::from(i),
                Value::UInt(u) => self.sum_int += i128::from(u),
                Value::Decimal(d) => self.sum_dec = Some(self.sum_dec.unwrap_or_default() + d),
                other => {
                    let f = match other {
                        Value::Double(d) => d,
                        o => o.to_string().trim().parse().unwrap_or(0.0),
                    };
                    self.sum_f64 = Some(self.sum_f64.unwrap_or(0.0) + f)
                }
            },
            AggFunc::Min | AggFunc::Max => {
                let replace = match &self.best {
                    None => true,
                    Some(b) => {
                        let ord = compare(&v, b).unwrap_or(Ordering::Equal);
                        (func == AggFunc::Min && ord == Ordering::Less)
                            || (func == AggFunc::Max && ord == Ordering::Greater)
                    }
                };
                if replace {
                    self.best = Some(v);
                }
            }
            AggFunc::GroupConcat => self.concat.push(v.to_string()),
        }
    }

    fn finish(&self, func: AggFunc) -> Value {
        match func {
            AggFunc::Count => Value::Int(self.count as i64),
            AggFunc::Min | AggFunc::Max => self.best.clone().unwrap_or(Value::Null),
            AggFunc::GroupConcat if self.count == 0 => Value::Null,
            AggFunc::GroupConcat => Value::from_str(&self.concat.join(",")),
            _ if self.count == 0 => Value::Null,
            AggFunc::Sum => self.sum(),
            AggFunc::Avg => match self.sum() {
                Value::Double(f) => Value::Double(f / self.count as f64),
                Value::Decimal(d) => {
                    let mut avg = d / Decimal::from(self.count);
                    avg.rescale(d.scale() + 4);
                    Value::Decimal(avg)
                }
                _ => Value::Null,
            },
        }
    }

    /// SUM of integers is DECIMAL in MySQL; any double makes it DOUBLE.
    fn sum(&self) -> Value {
        if let Some(f) = self.sum_f64 {
            let exact = self.sum_dec.map(|d| d.to_string().parse::<f64>().unwrap_or(0.0)).unwrap_or(0.0);
            return Value::Double(f + exact + self.sum_int as f64);
        }
        let int_part = Decimal::from_i128_with_scale(self.sum_int, 0);
        Value::Decimal(self.sum_dec.map_or(int_part, |d| d + int_part))
    }
}

/// Groups `rows` by `group_by` and computes `aggs` (each an
/// `Expr::Aggregate`) per group. Returns (representative row, aggregate
/// values) in first-seen order; with no GROUP BY there is exactly one group.
pub fn group(
    ctx: &Ctx,
    rows: &[Vec<Value>],
    group_by: &[Expr],
    aggs: &[Expr],
) -> SqlResult<Vec<(Vec<Value>, Vec<Value>)>> {
    let mut order: Vec<Vec<u8>> = Vec::new();
    let mut groups: HashMap<Vec<u8>, (Vec<Value>, Vec<Acc>), foldhash::fast::RandomState> = HashMap::default();
    for row in rows {
        let keys: Vec<Value> = group_by.iter().map(|g| ctx.eval(g, row)).collect::<SqlResult<_>>()?;
        let k = group_key(&keys);
        let entry = groups.entry(k.clone()).or_insert_with(|| {
            order.push(k);
            (row.clone(), vec![Acc::default(); aggs.len()])
        });
        for (acc, agg) in entry.1.iter_mut().zip(aggs) {
            if let Expr::Aggregate { func, arg, distinct } = agg {
                if let Some(Expr::Tuple(items)) = arg.as_deref() {
                    let values: Vec<Value> = items.iter().map(|e| ctx.eval(e, row)).collect::<SqlResult<_>>()?;
                    acc.add_distinct_row(&values);
                    continue;
                }
                let v = match arg {
                    Some(a) => ctx.eval(a, row)?,
                    None => Value::Int(1),
                };
                acc.add(*func, *distinct, v);
            }
        }
    }
    if group_by.is_empty() && groups.is_empty() {
        let width = rows.first().map_or(0, Vec::len);
        let accs = vec![Acc::default(); aggs.len()];
        let values = aggs.iter().zip(&accs).map(|(a, acc)| finish(a, acc)).collect();
        // An aggregate over no rows still yields one row (of NULL columns).
        return Ok(vec![(vec![Value::Null; width.max(256)], values)]);
    }
    Ok(order
        .into_iter()
        .filter_map(|k| groups.remove(&k))
        .map(|(rep, accs)| {
            let values = aggs.iter().zip(&accs).map(|(a, acc)| finish(a, acc)).collect();
            (rep, values)
        })
        .collect())
}

fn finish(agg: &Expr, acc: &Acc) -> Value {
    match agg {
        Expr::Aggregate { func, .. } => acc.finish(*func),
        _ => Value::Null,
    }
}
