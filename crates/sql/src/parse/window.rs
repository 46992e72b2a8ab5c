//! `func(...) OVER (...)`: window function calls, checked as MariaDB 10.11
//! checks them (argument counts, ORDER BY where a function needs one, no
//! frame on ranking functions).

use super::expr::{convert_expr, convert_function, convert_order_by, function_args};
use super::ParamCounter;
use crate::ast::*;
use onelog_core::decimal::Decimal;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use sqlparser::ast as sp;
use sqlparser::ast::Spanned;

/// Whether `f` is a function MariaDB has only as a window function (so a
/// call without OVER is a syntax error).
pub(super) fn needs_over(f: &sp::Function) -> bool {
    let [name] = &f.name.0[..] else { return false };
    let name = name.to_string().to_ascii_lowercase();
    matches!(
        name.as_str(),
        "row_number"
            | "rank"
            | "dense_rank"
            | "percent_rank"
            | "cume_dist"
            | "ntile"
            | "lag"
            | "lead"
            | "first_value"
            | "last_value"
            | "nth_value"
    )
}

pub(crate) fn convert_window(f: &sp::Function, over: &sp::WindowType, params: &mut ParamCounter) -> SqlResult<Expr> {
    let name = f.name.to_string().to_ascii_lowercase();
    if matches!(name.as_str(), "percentile_cont" | "percentile_disc" | "median") {
        return convert_percentile(f, &name, over, params);
    }
    if !f.within_group.is_empty() {
        return Err(SqlError::parse(&f.to_string(), 1));
    }
    let spec = match over {
        sp::WindowType::WindowSpec(spec) => resolve_spec(spec, params)?,
        sp::WindowType::NamedWindow(name) => named_spec(&name.value, params)?,
    };
    let (func, args) = window_function(f, &name, params)?;
    let partition_by = spec.partition_by.iter().map(|e| convert_expr(e, params)).collect::<SqlResult<_>>()?;
    let order_by = convert_order_by(&spec.order_by, params)?;
    let frame = spec.window_frame.as_ref().map(|frame| convert_frame(frame, order_by.len(), params)).transpose()?;
    let needs_order = matches!(
        func,
        WindowFunc::Rank
            | WindowFunc::DenseRank
            | WindowFunc::PercentRank
            | WindowFunc::CumeDist
            | WindowFunc::Lag
            | WindowFunc::Lead
    );
    if needs_order && order_by.is_empty() {
        return Err(SqlError::new(
            ErrorCode::NO_ORDER_LIST_IN_WINDOW_SPEC,
            format!("No order list in window specification for '{name}'"),
        ));
    }
    if frame.is_some() && !func.uses_frame() && func != WindowFunc::Ntile && func != WindowFunc::RowNumber {
        return Err(SqlError::new(
            ErrorCode::NOT_ALLOWED_WINDOW_FRAME,
            format!("Window frame is not allowed with '{name}'"),
        ));
    }
    Ok(Expr::Window(Box::new(WindowCall { func, args, partition_by, order_by, frame })))
}

/// PERCENTILE_CONT / PERCENTILE_DISC (p) WITHIN GROUP (ORDER BY key) OVER
/// (...) and MEDIAN(key) OVER (...). MariaDB's grammar has exactly one
/// argument, one WITHIN GROUP key (none for MEDIAN) and nothing but
/// PARTITION BY in the window; anything else is a syntax error. MEDIAN is
/// PERCENTILE_CONT(0.5) over the key descending, as MariaDB builds (and
/// prints) it.
fn convert_percentile(
    f: &sp::Function,
    name: &str,
    over: &sp::WindowType,
    params: &mut ParamCounter,
) -> SqlResult<Expr> {
    let syntax_error = || SqlError::parse(&f.to_string(), 1);
    let sp::WindowType::WindowSpec(spec) = over else { return Err(syntax_error()) };
    if spec.window_name.is_some() || !spec.order_by.is_empty() || spec.window_frame.is_some() {
        return Err(syntax_error());
    }
    let (mut args, distinct, star) = function_args(f, params)?;
    if distinct || star || args.len() != 1 {
        return Err(syntax_error());
    }
    // One WITHIN GROUP key: MariaDB stops at the second.
    if let Some(second) = f.within_group.get(1) {
        return Err(params.syntax_error_at(second.expr.span().start));
    }
    let within_group = convert_order_by(&f.within_group, params)?;
    let (func, key) = match (name, <[OrderBy; 1]>::try_from(within_group)) {
        ("median", Err(none)) if none.is_empty() => {
            let key = OrderBy {
                expr: std::mem::replace(&mut args[0], Expr::Literal(Value::Decimal(Decimal::new(5, 1)))),
                desc: true,
            };
            (WindowFunc::PercentileCont, key)
        }
        ("percentile_cont", Ok([key])) => (WindowFunc::PercentileCont, key),
        ("percentile_disc", Ok([key])) => (WindowFunc::PercentileDisc, key),
        _ => return Err(syntax_error()),
    };
    let partition_by = spec.partition_by.iter().map(|e| convert_expr(e, params)).collect::<SqlResult<_>>()?;
    Ok(Expr::Window(Box::new(WindowCall { func, args, partition_by, order_by: vec![key], frame: None })))
}

/// The function and its arguments; aggregates are converted as aggregates
/// first (COUNT(*), argument checks) and then taken apart.
fn window_function(f: &sp::Function, name: &str, params: &mut ParamCounter) -> SqlResult<(WindowFunc, Vec<Expr>)> {
    if matches!(
        name,
        "count"
            | "sum"
            | "min"
            | "max"
            | "avg"
            | "bit_and"
            | "bit_or"
            | "bit_xor"
            | "std"
            | "stddev"
            | "stddev_pop"
            | "stddev_samp"
            | "variance"
            | "var_pop"
            | "var_samp"
    ) {
        let plain = sp::Function { over: None, ..f.clone() };
        return match convert_function(&plain, params)? {
            Expr::Aggregate { distinct: true, .. } => {
                Err(SqlError::not_supported("COUNT(DISTINCT) aggregate as window function"))
            }
            Expr::Aggregate { func, arg, .. } => {
                Ok((WindowFunc::Aggregate(func), arg.into_iter().map(|a| *a).collect()))
            }
            _ => Err(SqlError::parse(&f.to_string(), 1)),
        };
    }
    let (func, arg_counts) = match name {
        "row_number" => (WindowFunc::RowNumber, 0..=0),
        "rank" => (WindowFunc::Rank, 0..=0),
        "dense_rank" => (WindowFunc::DenseRank, 0..=0),
        "percent_rank" => (WindowFunc::PercentRank, 0..=0),
        "cume_dist" => (WindowFunc::CumeDist, 0..=0),
        "ntile" => (WindowFunc::Ntile, 1..=1),
        "lag" => (WindowFunc::Lag, 1..=2),
        "lead" => (WindowFunc::Lead, 1..=2),
        "first_value" => (WindowFunc::FirstValue, 1..=1),
        "last_value" => (WindowFunc::LastValue, 1..=1),
        "nth_value" => (WindowFunc::NthValue, 2..=2),
        // MariaDB's grammar has OVER only after these: `abs(a) OVER ()`
        // is a syntax error there.
        _ => {
            return Err(SqlError::parse(
                &format!("over {}", f.over.as_ref().map(|o| o.to_string()).unwrap_or_default()),
                1,
            ))
        }
    };
    let (args, distinct, star) = function_args(f, params)?;
    if distinct || star || !arg_counts.contains(&args.len()) {
        return Err(SqlError::parse(&f.to_string(), 1));
    }
    Ok((func, args))
}

/// A frame of a window ordered by `order_keys` keys. An offset in a RANGE
/// frame measures the distance from the one ORDER BY key (4019 without
/// exactly one).
fn convert_frame(frame: &sp::WindowFrame, order_keys: usize, params: &mut ParamCounter) -> SqlResult<WindowFrame> {
    let rows = match frame.units {
        sp::WindowFrameUnits::Rows => true,
        sp::WindowFrameUnits::Range => false,
        sp::WindowFrameUnits::Groups => return Err(SqlError::parse("GROUPS", 1)),
    };
    check_bound_combination(&frame.start_bound, frame.end_bound.as_ref())?;
    let bounds = [Some(&frame.start_bound), frame.end_bound.as_ref()];
    let has_offset = bounds
        .iter()
        .flatten()
        .any(|b| matches!(b, sp::WindowFrameBound::Preceding(Some(_)) | sp::WindowFrameBound::Following(Some(_))));
    if !rows && has_offset && order_keys != 1 {
        return Err(SqlError::new(
            ErrorCode::RANGE_FRAME_NEEDS_SIMPLE_ORDERBY,
            "RANGE-type frame requires ORDER BY clause with single sort key",
        ));
    }
    let start = frame_bound(&frame.start_bound, rows, params)?;
    let end = match &frame.end_bound {
        Some(bound) => frame_bound(bound, rows, params)?,
        None => FrameBound::CurrentRow,
    };
    Ok(WindowFrame { rows, start, end })
}

/// MariaDB's grammar has only PRECEDING or CURRENT ROW as a lone bound
/// (`ROWS 1 FOLLOWING` is 1064); error 4014 for a frame that starts at
/// UNBOUNDED FOLLOWING, ends at UNBOUNDED PRECEDING, or runs backwards
/// across the current row (CURRENT ROW to n PRECEDING, n FOLLOWING to
/// CURRENT ROW). Other inverted frames are just empty.
fn check_bound_combination(start: &sp::WindowFrameBound, end: Option<&sp::WindowFrameBound>) -> SqlResult<()> {
    use sp::WindowFrameBound::{CurrentRow, Following, Preceding};
    let Some(end) = end else {
        return match start {
            Following(_) => Err(SqlError::parse("following", 1)),
            _ => Ok(()),
        };
    };
    match (start, end) {
        (Following(None), _) | (_, Preceding(None)) | (CurrentRow, Preceding(_)) | (Following(_), CurrentRow) => {
            Err(SqlError::new(
                ErrorCode::BAD_COMBINATION_OF_WINDOW_FRAME_BOUND_SPECS,
                "Unacceptable combination of window frame bound specifications",
            ))
        }
        _ => Ok(()),
    }
}

fn frame_bound(bound: &sp::WindowFrameBound, rows: bool, params: &mut ParamCounter) -> SqlResult<FrameBound> {
    Ok(match bound {
        sp::WindowFrameBound::CurrentRow => FrameBound::CurrentRow,
        sp::WindowFrameBound::Preceding(None) => FrameBound::UnboundedPreceding,
        sp::WindowFrameBound::Following(None) => FrameBound::UnboundedFollowing,
        sp::WindowFrameBound::Preceding(Some(n)) => FrameBound::Preceding(frame_offset(n, rows, params)?),
        sp::WindowFrameBound::Following(Some(n)) => FrameBound::Following(frame_offset(n, rows, params)?),
    })
}

/// A frame offset: MariaDB's grammar takes only a literal there (`1+1`,
/// `-1`, a column or `?` are syntax errors); ROWS needs a non-negative
/// integer (4020), RANGE a number (4021).
fn frame_offset(e: &sp::Expr, rows: bool, params: &mut ParamCounter) -> SqlResult<FrameOffset> {
    let literal = match e {
        sp::Expr::Value(v) if !matches!(v.value, sp::Value::Placeholder(_)) => convert_expr(e, params)?,
        _ => return Err(SqlError::parse(&e.to_string(), 1)),
    };
    match (rows, literal) {
        (true, Expr::Literal(Value::Int(n))) if n >= 0 => Ok(FrameOffset::Rows(n as u64)),
        (true, Expr::Literal(Value::UInt(n))) => Ok(FrameOffset::Rows(n)),
        (true, _) => {
            Err(SqlError::new(ErrorCode::WRONG_TYPE_FOR_ROWS_FRAME, "Integer is required for ROWS-type frame"))
        }
        (false, Expr::Literal(n @ (Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_)))) => {
            Ok(FrameOffset::Range(n))
        }
        (false, _) => Err(crate::window::wrong_type_for_range_frame()),
    }
}

/// Records a SELECT's `WINDOW name AS (...)` definitions for its window
/// calls; returns where they start, for the caller to drop them after.
pub(crate) fn enter_named_windows(defs: &[sp::NamedWindowDefinition], params: &mut ParamCounter) -> SqlResult<usize> {
    let start = params.named_windows.len();
    for sp::NamedWindowDefinition(name, expr) in defs {
        if params.named_windows[start..].iter().any(|(n, _)| *n == name.value) {
            return Err(SqlError::new(
                ErrorCode::DUP_WINDOW_NAME,
                format!("Multiple window specifications with the same name '{}'", name.value),
            ));
        }
        let spec = match expr {
            sp::NamedWindowExpr::WindowSpec(spec) => spec.clone(),
            sp::NamedWindowExpr::NamedWindow(base) => sp::WindowSpec {
                window_name: Some(base.clone()),
                partition_by: Vec::new(),
                order_by: Vec::new(),
                window_frame: None,
            },
        };
        params.named_windows.push((name.value.clone(), spec));
    }
    Ok(start)
}

fn named_spec(name: &str, params: &ParamCounter) -> SqlResult<sp::WindowSpec> {
    let (_, spec) = params.named_windows.iter().rev().find(|(n, _)| n == name).ok_or_else(|| {
        SqlError::new(
            ErrorCode::WRONG_WINDOW_SPEC_NAME,
            format!("Window specification with name '{name}' is not defined"),
        )
    })?;
    resolve_spec(spec, params)
}

/// A window specification with the named one it refers to merged in: the
/// named one's PARTITION BY and ORDER BY, this one's ORDER BY (if the named
/// one has none) and frame. References nest at most as deep as there are
/// named windows, so a cycle ends in error 4009.
fn resolve_spec(spec: &sp::WindowSpec, params: &ParamCounter) -> SqlResult<sp::WindowSpec> {
    resolve_spec_bounded(spec, params, params.named_windows.len())
}

fn resolve_spec_bounded(spec: &sp::WindowSpec, params: &ParamCounter, depth_left: usize) -> SqlResult<sp::WindowSpec> {
    let Some(base_name) = &spec.window_name else { return Ok(spec.clone()) };
    let name = &base_name.value;
    let undefined = || {
        SqlError::new(
            ErrorCode::WRONG_WINDOW_SPEC_NAME,
            format!("Window specification with name '{name}' is not defined"),
        )
    };
    let depth_left = depth_left.checked_sub(1).ok_or_else(undefined)?;
    let (_, base) = params.named_windows.iter().rev().find(|(n, _)| n == name).ok_or_else(undefined)?;
    let base = resolve_spec_bounded(base, params, depth_left)?;
    let refuse = |code: ErrorCode, what: &str| Err(SqlError::new(code, what.replace("%s", name)));
    if !spec.partition_by.is_empty() {
        return refuse(
            ErrorCode::PARTITION_LIST_IN_REFERENCING_WINDOW_SPEC,
            "Window specification referencing another one '%s' cannot contain partition list",
        );
    }
    if !spec.order_by.is_empty() && !base.order_by.is_empty() {
        return refuse(
            ErrorCode::ORDER_LIST_IN_REFERENCING_WINDOW_SPEC,
            "Referenced window specification '%s' already contains order list",
        );
    }
    if base.window_frame.is_some() {
        return refuse(
            ErrorCode::WINDOW_FRAME_IN_REFERENCED_WINDOW_SPEC,
            "Referenced window specification '%s' cannot contain window frame",
        );
    }
    Ok(sp::WindowSpec {
        window_name: None,
        partition_by: base.partition_by,
        order_by: if spec.order_by.is_empty() { base.order_by } else { spec.order_by.clone() },
        window_frame: spec.window_frame.clone(),
    })
}
