//! Expression evaluation: MySQL's comparison, arithmetic, NULL and type
//! coercion rules, and the scalar function library.
//!
//! Owns: evaluating a bound [`Expr`] against one input row. It calls back
//! into the executor through [`EvalEnv`] for what it cannot know itself
//! (variables, subqueries, session state), and never touches storage.
//!
//! Submodules: `functions` (the scalar function library), `temporal`
//! (date/time parsing, arithmetic and formatting), `coerce` (conversion for
//! storage in a column), `tests`.

use crate::ast::{BinOp, CastType, Expr, Select, UnaryOp, VarScope};
use crate::row_shape::{self, operand_columns};
use onelog_core::decimal::{Decimal, RoundingStrategy};
use onelog_core::value::format_double;
use onelog_core::{Collation, ColumnDef, ErrorCode, SqlError, SqlResult, Temporal, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

pub(crate) mod coerce;
mod functions;
mod hybrid;
mod ids;
mod inet;
mod json;
mod locale;
mod regexp;
pub mod temporal;
pub mod temporal_text;
#[cfg(test)]
mod tests;

pub use coerce::{coerce_to_column, coerce_to_variable};
pub(crate) use functions::check_param_count;
pub use functions::is_native_function;
pub(crate) use functions::takes_numbers;
pub use hybrid::{assigned, hybrid_for_column, hybrid_sql};

/// What evaluation needs from the session and the executor.
pub trait EvalEnv {
    /// `@@name`; errors 1193 for unknown variables.
    fn system_var(&self, scope: VarScope, name: &str) -> SqlResult<Value>;
    /// `@name`; NULL if unset.
    fn user_var(&self, name: &str) -> Value;
    /// `@name := value`. Evaluation without a session keeps no variables.
    fn set_user_var(&self, _name: &str, _value: Value) {}
    /// Runs a subquery; `outer_row` is the current row (for correlated
    /// references the binder resolved to slots of the outer row).
    fn subquery(&self, query: &Select, outer_row: &[Value]) -> SqlResult<Vec<Vec<Value>>>;
    /// The number of columns a subquery of `*` returns: what one that
    /// returned no row would have had.
    fn subquery_width(&self, _query: &Select, _outer_row: &[Value]) -> SqlResult<usize> {
        Ok(1)
    }
    /// Session facts used by functions: DATABASE(), LAST_INSERT_ID(),
    /// CONNECTION_ID(), ROW_COUNT(), FOUND_ROWS(), USER(), VERSION().
    fn session_fact(&self, name: &str) -> Value;
    /// Records a warning (SHOW WARNINGS) with its MySQL code.
    fn warn(&self, code: u16, message: String);
    /// The row a multi-row statement is storing, which conversion messages
    /// name (`at row N`).
    fn warning_row(&self) -> u64 {
        1
    }
    /// ROWNUM(): the number the row being looked at gets if the current
    /// query block (or UPDATE, DELETE, INSERT) accepts it; 0 outside any.
    fn rownum(&self) -> u64 {
        0
    }
    /// Whether the statement is INSERT / UPDATE IGNORE, under which
    /// MariaDB makes some errors warnings.
    fn ignores_errors(&self) -> bool {
        false
    }
    /// A division (or MOD) by zero, whose value is NULL: warning 1365, or
    /// error 1365 where the session's sql_mode makes it one.
    fn division_by_zero(&self) -> SqlResult<()> {
        self.warn(ErrorCode::DIVISION_BY_ZERO.number, "Division by 0".to_string());
        Ok(())
    }
    /// A warning, or the error it becomes where warnings abort the
    /// statement (strict mode storing rows: MariaDB's abort_on_warning).
    fn warning_or_error(&self, code: ErrorCode, message: &str) -> SqlResult<()> {
        self.warn(code.number, message.to_string());
        Ok(())
    }
    /// Whether the sql_mode in force has `mode` (NO_ZERO_DATE ...).
    fn sql_mode_has(&self, _mode: &str) -> bool {
        false
    }
    /// Records a Note (JSON_VALID's reasons a text is not JSON).
    fn note(&self, code: u16, message: String) {
        self.warn(code, message)
    }
    /// `LAST_INSERT_ID(expr)` sets the session's value.
    fn set_last_insert_id(&self, _id: u64) {}
    /// `BINLOG_GTID_POS(file, offset)`: the GTID position at a binlog
    /// position, NULL where there is none.
    fn binlog_gtid_pos(&self, file: &str, offset: u64) -> SqlResult<Value>;
    /// SLEEP(): a session's ends early, with its error, on KILL or when
    /// the statement's time limit passes.
    /// A stored function's value for `args` (each evaluated by `eval_arg`
    /// only if it exists), or `None` when no stored function `name` exists.
    fn stored_function(
        &self,
        _name: &str,
        _args: &[Expr],
        _eval_arg: &dyn Fn(&Expr) -> SqlResult<Value>,
    ) -> Option<SqlResult<Value>> {
        None
    }
    fn sleep(&self, duration: std::time::Duration) -> SqlResult<()> {
        std::thread::sleep(duration);
        Ok(())
    }
    /// A user-level lock function's value (see `user_locks`): only a
    /// connection's session holds locks.
    fn user_lock(&self, _call: UserLockCall<'_>) -> SqlResult<Value> {
        Err(SqlError::not_supported("user-level locks in this context"))
    }
    /// LOAD_FILE(name): the server file's bytes, NULL where MariaDB's is
    /// (see `Session::load_file`).
    fn load_file(&self, _name: &[u8]) -> SqlResult<Value> {
        Err(SqlError::not_supported("LOAD_FILE() in this context"))
    }
    /// A long evaluation (BENCHMARK()) asks now and then whether its
    /// statement was killed or ran out of time.
    fn check_killed(&self) -> SqlResult<()> {
        Ok(())
    }
}

/// What a user-level lock function asks of its session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UserLockCall<'a> {
    /// GET_LOCK(name, timeout).
    Get {
        name: &'a [u8],
        timeout: std::time::Duration,
    },
    Release(&'a [u8]),
    IsFree(&'a [u8]),
    IsUsed(&'a [u8]),
    ReleaseAll,
}

/// Per-row inputs to evaluation.
pub struct Row<'a> {
    /// Values addressed by `Expr::Slot`.
    pub values: &'a [Value],
    /// Values addressed by `Expr::Param`.
    pub params: &'a [Value],
    /// Values addressed by `Expr::AggSlot`.
    pub aggregates: &'a [Value],
    /// `VALUES(col)` in ON DUPLICATE KEY UPDATE: the row the INSERT tried.
    pub insert_values: Option<(&'a [ColumnDef], &'a [Value])>,
}

/// MySQL's `max_allowed_packet` default: string results longer than this
/// become NULL with warning 1301.
pub const MAX_ALLOWED_PACKET: usize = 64 * 1024 * 1024;

/// `div_precision_increment`: extra scale digits of `/` on exact numbers.
pub const DIV_PRECISION_INCREMENT: u32 = 4;

/// Largest scale rust_decimal can hold (MySQL's is 30).
const MAX_SCALE: u32 = 38;

pub fn eval(expr: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    match expr {
        Expr::Literal(v) => Ok(v.clone()),
        Expr::HexHybrid(bytes) => Ok(Value::Bytes(bytes.clone())),
        Expr::Slot(i) => Ok(row.values.get(*i).cloned().unwrap_or(Value::Null)),
        Expr::Param(i) => Ok(row.params.get(*i).cloned().unwrap_or(Value::Null)),
        Expr::AggSlot(i) => Ok(row.aggregates.get(*i).cloned().unwrap_or(Value::Null)),
        Expr::Column { name, .. } => Err(SqlError::bad_field(name, "field list")),
        Expr::Aggregate { .. } | Expr::GroupConcat { .. } => {
            Err(SqlError::new(ErrorCode::INVALID_GROUP_FUNC_USE, "Invalid use of group function"))
        }
        // A query's select list and ORDER BY compute their window calls
        // first (`window::extract`); anywhere else one cannot be.
        Expr::Window(_) => Err(SqlError::new(
            ErrorCode::WRONG_PLACEMENT_OF_WINDOW_FUNCTION,
            "Window function is allowed only in SELECT list and ORDER BY clause",
        )),
        Expr::Default => Ok(Value::Null),
        Expr::Tuple(_) => Err(operand_columns(1)),
        Expr::Unary(op, inner) => {
            let v = hybrid::eval_number(inner, row, env)?;
            eval_unary(*op, v, expr, env)
        }
        Expr::Binary(op, l, r) => eval_binary(*op, l, r, expr, row, env),
        Expr::IsNull { expr: inner, negated } => {
            let v = eval_scalar(inner, row, env)?;
            Ok(bool_value(v.is_null() != *negated))
        }
        Expr::IsBool { expr: inner, value, negated } => {
            let v = eval_scalar(inner, row, env)?;
            let is = truth(&v, env) == Some(*value);
            Ok(bool_value(is != *negated))
        }
        Expr::Between { expr: inner, low, high, negated } => {
            let v = eval_scalar(inner, row, env)?;
            let lo = eval_scalar(low, row, env)?;
            let hi = eval_scalar(high, row, env)?;
            let v = hybrid::compared(inner, hybrid::compared(inner, v, &lo), &hi);
            let (lo, hi) = (hybrid::compared(low, lo, &v), hybrid::compared(high, hi, &v));
            let coll = Some(aggregate_collations(&[inner, low, high], "between")?);
            let ge = cmp_coll(&v, &lo, coll).map(|o| o != Ordering::Less);
            let le = cmp_coll(&v, &hi, coll).map(|o| o != Ordering::Greater);
            let r = and3(ge, le);
            Ok(opt_bool(r.map(|b| b != *negated)))
        }
        Expr::InList { expr: inner, list, negated } => {
            let r = eval_in_list(inner, list, row, env)?;
            Ok(opt_bool(r.map(|b| b != *negated)))
        }
        Expr::InSubquery { expr: inner, query, negated } => {
            let width = row_shape::query_arity(query).unwrap_or(1);
            let left: Vec<Value> = match row_items(inner, width, row, env)? {
                Some(items) => items.iter().map(|e| eval_scalar(e, row, env)).collect::<SqlResult<_>>()?,
                None => vec![eval_scalar(inner, row, env)?],
            };
            let rows = env.subquery(query, row.values)?;
            let mut saw_null = false;
            for r in &rows {
                if r.len() != left.len() {
                    return Err(operand_columns(left.len()));
                }
                match rows_equal(&left, r, None) {
                    Some(true) => return Ok(bool_value(!*negated)),
                    Some(false) => {}
                    None => saw_null = true,
                }
            }
            // A NULL on the left leaves a row undecided only where the
            // other columns match: `(NULL, 3) IN (SELECT 1, 2)` is false.
            if saw_null {
                Ok(Value::Null)
            } else {
                Ok(bool_value(*negated))
            }
        }
        Expr::Exists { query, negated } => {
            let rows = env.subquery(query, row.values)?;
            Ok(bool_value(rows.is_empty() == *negated))
        }
        Expr::ScalarSubquery(query) => {
            let mut rows = env.subquery(query, row.values)?;
            if rows.len() > 1 {
                let message = "Subquery returns more than 1 row";
                if !env.ignores_errors() {
                    return Err(SqlError::new(ErrorCode::SUBQUERY_NO_1_ROW, message));
                }
                env.warn(ErrorCode::SUBQUERY_NO_1_ROW.number, message.into());
                return Ok(Value::Null);
            }
            match rows.pop() {
                None if row_shape::query_arity(query).is_none() && env.subquery_width(query, row.values)? != 1 => {
                    Err(operand_columns(1))
                }
                None => Ok(Value::Null),
                Some(mut r) => {
                    if r.len() != 1 {
                        return Err(operand_columns(1));
                    }
                    Ok(r.pop().unwrap_or(Value::Null))
                }
            }
        }
        Expr::Like { expr: inner, pattern, escape, negated } => {
            let v = eval_scalar(inner, row, env)?;
            let p = eval_scalar(pattern, row, env)?;
            if v.is_null() || p.is_null() {
                return Ok(Value::Null);
            }
            let coll = pair_collation(inner, pattern, "like")?;
            let m = like_match(&value_bytes(&v), &value_bytes(&p), escape.unwrap_or('\\'), coll);
            Ok(bool_value(m != *negated))
        }
        Expr::Function { name, args } => functions::call(name, args, row, env),
        Expr::Case { operand, whens, otherwise } => {
            match operand {
                Some(op) => {
                    let v = eval_scalar(op, row, env)?;
                    for (w, then) in whens {
                        let wv = eval_scalar(w, row, env)?;
                        let (v, wv) = (hybrid::compared(op, v.clone(), &wv), hybrid::compared(w, wv, &v));
                        if cmp_coll(&v, &wv, Some(pair_collation(op, w, "case")?)) == Some(Ordering::Equal) {
                            return eval(then, row, env);
                        }
                    }
                }
                None => {
                    for (w, then) in whens {
                        let wv = eval_scalar(w, row, env)?;
                        if truth(&wv, env) == Some(true) {
                            return eval(then, row, env);
                        }
                    }
                }
            }
            match otherwise {
                Some(e) => eval(e, row, env),
                None => Ok(Value::Null),
            }
        }
        Expr::SystemVar { scope, name } => env.system_var(*scope, name),
        Expr::UserVar(name) => Ok(env.user_var(name)),
        Expr::AssignUserVar { name, value } => {
            let v = eval_scalar(value, row, env)?;
            env.set_user_var(name, v.clone());
            Ok(v)
        }
        Expr::Cast { expr: inner, to } => {
            let numeric =
                matches!(to, CastType::Signed | CastType::Unsigned | CastType::Decimal { .. } | CastType::Double(_));
            let v = if numeric { hybrid::eval_number(inner, row, env)? } else { eval_scalar(inner, row, env)? };
            cast(v, *to, env)
        }
        Expr::Collate { expr: inner, collation, explicit } => {
            if *explicit {
                check_collate_charset(inner, *collation, env)?;
                return eval(inner, row, env);
            }
            // CONVERT(.. USING cs): what the charset cannot hold becomes
            // '?' (a column's or literal's text already fits).
            Ok(match eval(inner, row, env)? {
                Value::Bytes(b) => Value::Bytes(collation.charset().fit(&b).into_owned()),
                other => other,
            })
        }
        Expr::InsertValue(col) => {
            if let Some((cols, vals)) = row.insert_values {
                if let Some(i) = cols.iter().position(|c| c.name.eq_ignore_ascii_case(col)) {
                    return Ok(vals.get(i).cloned().unwrap_or(Value::Null));
                }
                return Err(SqlError::bad_field(col, "field list"));
            }
            Ok(Value::Null)
        }
    }
}

/// Evaluates a WHERE / HAVING / ON condition: true only if the result is
/// true (NULL and false both reject the row).
pub fn eval_predicate(expr: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<bool> {
    Ok(truth(&eval(expr, row, env)?, env) == Some(true))
}

/// Evaluates an expression that must produce one scalar (tuples error 1241).
fn eval_scalar(expr: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    eval(expr, row, env)
}

pub(crate) fn bool_value(b: bool) -> Value {
    Value::Int(i64::from(b))
}

fn opt_bool(b: Option<bool>) -> Value {
    match b {
        Some(b) => bool_value(b),
        None => Value::Null,
    }
}

fn and3(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// How strongly an operand's collation binds (MariaDB's coercibility, as
/// COERCIBILITY() reports it: lower wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Derivation {
    /// `expr COLLATE name`.
    Explicit = 0,
    /// No collation: operands of equal derivation disagree (an error
    /// unless an explicit COLLATE decides).
    None = 1,
    /// A column (or CAST AS BINARY).
    Implicit = 2,
    /// A system constant: USER(), DATABASE(), VERSION() (utf8mb3).
    SysConst = 3,
    /// A literal or any other expression: the connection's collation.
    Coercible = 4,
}

impl Derivation {
    fn name(self) -> &'static str {
        match self {
            Derivation::Explicit => "EXPLICIT",
            Derivation::None => "NONE",
            Derivation::Implicit => "IMPLICIT",
            Derivation::SysConst => "SYSCONST",
            Derivation::Coercible => "COERCIBLE",
        }
    }
}

/// The collation an expression's text compares under, and how strongly.
/// Columns carry theirs as an implicit `Collate` wrapper (see
/// `select::bind`), and so do CONVERT(.. USING cs) and an introduced
/// literal (`_latin2'a'`), which stays coercible as any literal; other
/// expressions take the connection's default.
pub fn expr_collation(e: &Expr) -> (Collation, Derivation) {
    match e {
        Expr::Collate { collation, explicit: false, expr } if matches!(expr.as_ref(), Expr::Literal(_)) => {
            (*collation, Derivation::Coercible)
        }
        Expr::Collate { collation, explicit, .. } => {
            (*collation, if *explicit { Derivation::Explicit } else { Derivation::Implicit })
        }
        Expr::Cast { to: CastType::Binary(_), .. } => (Collation::Binary, Derivation::Implicit),
        Expr::HexHybrid(_) => (Collation::Binary, Derivation::Coercible),
        Expr::Function { name, args } if name == "binary" && args.len() == 1 => {
            (Collation::Binary, Derivation::Implicit)
        }
        // A choice among values has their collations aggregated (binary
        // wins over a case-insensitive one, so it sorts by bytes).
        Expr::Function { name, args } if matches!(name.as_str(), "if" | "ifnull" | "nvl" | "coalesce") => {
            let branches = if name == "if" { args.get(1..).unwrap_or_default() } else { args.as_slice() };
            branches
                .iter()
                .map(expr_collation)
                .reduce(aggregate_step)
                .unwrap_or((Collation::default(), Derivation::Coercible))
        }
        Expr::Case { whens, otherwise, .. } => whens
            .iter()
            .map(|(_, then)| then)
            .chain(otherwise.as_deref())
            .map(expr_collation)
            .reduce(aggregate_step)
            .unwrap_or((Collation::default(), Derivation::Coercible)),
        Expr::Function { name, .. } if is_system_constant(name) => (Collation::Utf8mb3GeneralCi, Derivation::SysConst),
        Expr::Function { name, .. } if names_a_charset(name) => (Collation::Utf8mb3GeneralCi, Derivation::Coercible),
        _ => (Collation::default(), Derivation::Coercible),
    }
}

/// Functions whose text is the server's own (names of users, databases,
/// the version): utf8mb3 in MariaDB, with derivation SYSCONST.
pub(crate) fn is_system_constant(name: &str) -> bool {
    matches!(
        name,
        "database" | "schema" | "user" | "current_user" | "session_user" | "system_user" | "current_role" | "version"
    )
}

/// CHARSET() and COLLATION(): utf8mb3 text, but coercible.
pub(crate) fn names_a_charset(name: &str) -> bool {
    matches!(name, "charset" | "collation")
}

/// [`expr_collation`], with a plain literal's or expression's text in the
/// connection's collation (`collation_connection`), as MariaDB types it:
/// what `HEX()`, `LENGTH()` and `COLLATION()` of it see.
pub(crate) fn value_collation(e: &Expr, env: &dyn EvalEnv) -> (Collation, Derivation) {
    let own = expr_collation(e);
    let typed_text = matches!(e, Expr::Function { name, .. } if names_a_charset(name));
    if own.1 != Derivation::Coercible || typed_text || matches!(e, Expr::Collate { .. } | Expr::HexHybrid(_)) {
        return own;
    }
    connection_collation(env).map_or(own, |connection| (connection, own.1))
}

/// The session's `collation_connection`: what a string literal is in.
pub(crate) fn connection_collation(env: &dyn EvalEnv) -> Option<Collation> {
    env.system_var(VarScope::Session, "collation_connection").ok().and_then(|v| Collation::named(&value_string(&v)))
}

/// One step of MariaDB's collation aggregation: the lower derivation wins;
/// at equal derivation `binary` wins, a Unicode charset wins over a
/// one-byte one (it holds their characters) and utf8mb4 over utf8mb3; two
/// different one-byte charsets leave no collation (derivation NONE, an
/// error unless a later explicit COLLATE decides: `_koi8r'a' = _latin1'A'`);
/// within one charset a `_bin` collation wins, and of two others the first
/// stays if they are coercible, else there is none.
pub(crate) fn aggregate_step(a: (Collation, Derivation), b: (Collation, Derivation)) -> (Collation, Derivation) {
    use onelog_core::Charset;
    let rank = |c: Collation| match c.charset() {
        Charset::Binary => 3,
        Charset::Utf8mb4 => 2,
        Charset::Utf8mb3 => 1,
        _ => 0,
    };
    match a.1.cmp(&b.1) {
        Ordering::Less => a,
        Ordering::Greater => b,
        Ordering::Equal if a.0 == b.0 => a,
        Ordering::Equal if rank(a.0) != rank(b.0) => std::cmp::max_by_key(a, b, |x| rank(x.0)),
        Ordering::Equal if a.0.charset() != b.0.charset() => (a.0, Derivation::None),
        Ordering::Equal if b.0.is_binary_order() => b,
        Ordering::Equal if a.0.is_binary_order() => a,
        Ordering::Equal if a.1 == Derivation::Coercible => a,
        Ordering::Equal => (a.0, Derivation::None),
    }
}

/// The collation the operands of `operation` compare under, by MariaDB's
/// aggregation over all of them (`a IN (b, c)` aggregates three). No
/// collation is error 1267 for two operands, 1270 for three, 1271 for
/// more, as MariaDB words them; so are two different explicit COLLATEs.
pub fn aggregate_collations(operands: &[&Expr], operation: &str) -> SqlResult<Collation> {
    let derived: Vec<(Collation, Derivation)> = operands.iter().map(|e| expr_collation(e)).collect();
    let mut result = derived.first().copied().unwrap_or((Collation::default(), Derivation::Coercible));
    for next in derived.iter().skip(1) {
        let explicit_clash = result.1 == Derivation::Explicit && next.1 == Derivation::Explicit && result.0 != next.0;
        result = if explicit_clash { (result.0, Derivation::None) } else { aggregate_step(result, *next) };
        if explicit_clash {
            break;
        }
    }
    if result.1 != Derivation::None {
        return Ok(result.0);
    }
    let listed = |d: &[(Collation, Derivation)], sep: &str| {
        d.iter().map(|(c, k)| format!("({},{})", c.name(), k.name())).collect::<Vec<_>>().join(sep)
    };
    Err(match derived.len() {
        2 => SqlError::new(
            ErrorCode::CANT_AGGREGATE_2COLLATIONS,
            format!("Illegal mix of collations {} for operation '{operation}'", listed(&derived, " and ")),
        ),
        3 => SqlError::new(
            ErrorCode::CANT_AGGREGATE_3COLLATIONS,
            format!("Illegal mix of collations {} for operation '{operation}'", listed(&derived, ", ")),
        ),
        _ => SqlError::new(
            ErrorCode::CANT_AGGREGATE_NCOLLATIONS,
            format!("Illegal mix of collations for operation '{operation}'"),
        ),
    })
}

/// `expr COLLATE c` needs `c` to be a collation of `expr`'s charset (1253):
/// a column's own, the connection's (`character_set_connection`) for a
/// string literal or function; numbers convert to any.
fn check_collate_charset(inner: &Expr, collation: Collation, env: &dyn EvalEnv) -> SqlResult<()> {
    let (own, derivation) = expr_collation(inner);
    let charset = match inner {
        Expr::Literal(v) if !matches!(v, Value::Bytes(_)) => return Ok(()),
        Expr::Collate { explicit: false, .. } => own.charset(),
        _ if derivation == Derivation::Coercible => env
            .system_var(VarScope::Session, "character_set_connection")
            .ok()
            .and_then(|v| onelog_core::Charset::named(&value_string(&v)))
            .unwrap_or(own.charset()),
        _ => own.charset(),
    };
    if charset == collation.charset() {
        return Ok(());
    }
    Err(SqlError::new(
        ErrorCode::COLLATION_CHARSET_MISMATCH,
        format!("COLLATION '{}' is not valid for CHARACTER SET '{}'", collation.name(), charset.name()),
    ))
}

/// [`aggregate_collations`] of two operands.
pub(crate) fn pair_collation(a: &Expr, b: &Expr, operation: &str) -> SqlResult<Collation> {
    aggregate_collations(&[a, b], operation)
}

/// Rows `l` and `r` evaluated side by side into flat value lists, so rows
/// nested in them compare column by column (`(1, (2, 3)) = (1, (2, 3))`,
/// `((SELECT 1, 2), 3) = ((1, 2), 3)`); each nested row must meet one of
/// as many columns (1241 otherwise).
fn eval_row_pair(
    l: &[Expr],
    r: &[Expr],
    row: &Row<'_>,
    env: &dyn EvalEnv,
    lv: &mut Vec<Value>,
    rv: &mut Vec<Value>,
) -> SqlResult<()> {
    if l.len() != r.len() {
        return Err(operand_columns(l.len()));
    }
    for (a, b) in l.iter().zip(r) {
        if !is_row_operand(a) && !is_row_operand(b) {
            lv.push(eval_scalar(a, row, env)?);
            rv.push(eval_scalar(b, row, env)?);
            continue;
        }
        let width = |e: &Expr| row_shape::arity(e).unwrap_or(1);
        let x = row_items(a, width(b), row, env)?;
        let y = row_items(b, width(a), row, env)?;
        let xs = x.as_deref().unwrap_or(std::slice::from_ref(a));
        let ys = y.as_deref().unwrap_or(std::slice::from_ref(b));
        eval_row_pair(xs, ys, row, env, lv, rv)?;
    }
    Ok(())
}

/// A row constructor, or a subquery whose select list has several
/// columns. (A subquery of `*` is a row only beside one: elsewhere it
/// stays a value compared under its column's collation.)
fn is_row_operand(e: &Expr) -> bool {
    match e {
        Expr::Tuple(_) => true,
        Expr::ScalarSubquery(query) => row_shape::query_arity(query).is_some_and(|n| n > 1),
        _ => false,
    }
}

/// The items of a row operand, `None` for a value: a row constructor's,
/// or a row subquery's one row as literals (all NULL when it returns no
/// row: `width_if_empty` of them unless its select list says how many).
fn row_items<'e>(
    e: &'e Expr,
    width_if_empty: usize,
    row: &Row<'_>,
    env: &dyn EvalEnv,
) -> SqlResult<Option<Cow<'e, [Expr]>>> {
    match e {
        Expr::Tuple(items) => Ok(Some(Cow::Borrowed(items))),
        Expr::ScalarSubquery(query) if row_shape::query_arity(query) != Some(1) => {
            let mut rows = env.subquery(query, row.values)?;
            if rows.len() > 1 {
                return Err(SqlError::new(ErrorCode::SUBQUERY_NO_1_ROW, "Subquery returns more than 1 row"));
            }
            let width = row_shape::query_arity(query).unwrap_or(width_if_empty);
            let values = rows.pop().unwrap_or_else(|| vec![Value::Null; width]);
            Ok(Some(Cow::Owned(values.into_iter().map(Expr::Literal).collect())))
        }
        _ => Ok(None),
    }
}

fn cmp_coll(a: &Value, b: &Value, coll: Option<Collation>) -> Option<Ordering> {
    match coll {
        Some(c) => compare_with_collation(a, b, c),
        None => compare(a, b),
    }
}

fn eval_in_list(inner: &Expr, list: &[Expr], row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Option<bool>> {
    if let Expr::Tuple(items) = inner {
        let mut saw_null = false;
        for item in list {
            let Expr::Tuple(r) = item else {
                return Err(operand_columns(items.len()));
            };
            let (mut left, mut right) = (Vec::new(), Vec::new());
            eval_row_pair(items, r, row, env, &mut left, &mut right)?;
            match rows_equal(&left, &right, None) {
                Some(true) => return Ok(Some(true)),
                Some(false) => {}
                None => saw_null = true,
            }
        }
        return Ok(if saw_null { None } else { Some(false) });
    }
    let operands: Vec<&Expr> = std::iter::once(inner).chain(list).collect();
    let collation = aggregate_collations(&operands, "in")?;
    let v = eval_scalar(inner, row, env)?;
    if v.is_null() {
        return Ok(None);
    }
    let mut saw_null = false;
    for item in list {
        if matches!(item, Expr::Tuple(_)) {
            return Err(operand_columns(1));
        }
        let w = eval_scalar(item, row, env)?;
        let (v, w) = (hybrid::compared(inner, v.clone(), &w), hybrid::compared(item, w, &v));
        match cmp_coll(&v, &w, Some(collation)) {
            Some(Ordering::Equal) => return Ok(Some(true)),
            Some(_) => {}
            None => saw_null = true,
        }
    }
    Ok(if saw_null { None } else { Some(false) })
}

/// Row equality: `Some(false)` if any pair differs, `None` if undecided
/// because of NULLs, `Some(true)` if all equal.
fn rows_equal(a: &[Value], b: &[Value], coll: Option<Collation>) -> Option<bool> {
    let mut unknown = false;
    for (x, y) in a.iter().zip(b) {
        match cmp_coll(x, y, coll) {
            Some(Ordering::Equal) => {}
            Some(_) => return Some(false),
            None => unknown = true,
        }
    }
    if unknown {
        None
    } else {
        Some(true)
    }
}

// ---------------------------------------------------------------------------
// Unary and binary operators
// ---------------------------------------------------------------------------

/// A value in arithmetic: MySQL's four numeric evaluation types.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Num {
    I(i64),
    U(u64),
    D(Decimal),
    F(f64),
}

impl Num {
    pub(crate) fn to_f64(&self) -> f64 {
        match self {
            Num::I(i) => *i as f64,
            Num::U(u) => *u as f64,
            Num::D(d) => d.to_f64().unwrap_or(0.0),
            Num::F(f) => *f,
        }
    }

    fn to_decimal(&self) -> Option<Decimal> {
        match self {
            Num::I(i) => Some(Decimal::from(*i)),
            Num::U(u) => Some(Decimal::from(*u)),
            Num::D(d) => Some(d.clone()),
            Num::F(f) => Decimal::from_f64(*f),
        }
    }

    fn to_i128(&self) -> i128 {
        match self {
            Num::I(i) => i128::from(*i),
            Num::U(u) => i128::from(*u),
            Num::D(d) => d.trunc().to_i128().unwrap_or(0),
            Num::F(f) => f.trunc() as i128,
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Num::I(i) => *i == 0,
            Num::U(u) => *u == 0,
            Num::D(d) => d.is_zero(),
            Num::F(f) => *f == 0.0,
        }
    }
}

/// Converts a value to a number for arithmetic. Strings become DOUBLE (with
/// warning 1292 when not entirely numeric), temporals their numeric form.
pub(crate) fn to_num(v: &Value, env: &dyn EvalEnv) -> Option<Num> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => Num::I(*i),
        Value::UInt(u) => Num::U(*u),
        Value::Decimal(d) => Num::D(d.clone()),
        Value::Double(f) => Num::F(*f),
        Value::Bytes(b) => Num::F(str_to_f64_warn(b, env)),
        // Read as its text, as MariaDB's val_real of a UUID does.
        Value::Uuid(u) => Num::F(str_to_f64_warn(u.to_string().as_bytes(), env)),
        Value::Date(t) => Num::I(i64::from(t.year) * 10000 + i64::from(t.month) * 100 + i64::from(t.day)),
        Value::DateTime(t) => {
            let whole = i64::from(t.year) * 10_000_000_000
                + i64::from(t.month) * 100_000_000
                + i64::from(t.day) * 1_000_000
                + i64::from(t.hour) * 10_000
                + i64::from(t.minute) * 100
                + i64::from(t.second);
            if t.micros == 0 {
                Num::I(whole)
            } else {
                Num::D(Decimal::from(whole) + Decimal::new(i64::from(t.micros), 6))
            }
        }
        Value::Time(us) => {
            let neg = *us < 0;
            let a = us.unsigned_abs();
            let secs = (a / 1_000_000) as i64;
            let whole = secs / 3600 * 10000 + secs / 60 % 60 * 100 + secs % 60;
            let frac = (a % 1_000_000) as i64;
            let n = if frac == 0 { Num::I(whole) } else { Num::D(Decimal::from(whole) + Decimal::new(frac, 6)) };
            if neg {
                match n {
                    Num::I(i) => Num::I(-i),
                    Num::D(d) => Num::D(-d),
                    o => o,
                }
            } else {
                n
            }
        }
    })
}

fn eval_unary(op: UnaryOp, v: Value, expr: &Expr, env: &dyn EvalEnv) -> SqlResult<Value> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    match op {
        UnaryOp::Not => Ok(opt_bool(truth(&v, env).map(|b| !b))),
        UnaryOp::BitNot => Ok(Value::UInt(!to_u64_bits(&v, env))),
        UnaryOp::Neg => match to_num(&v, env) {
            None => Ok(Value::Null),
            Some(Num::I(i)) => match i.checked_neg() {
                Some(n) => Ok(Value::Int(n)),
                None => Err(out_of_range("BIGINT", expr)),
            },
            Some(Num::U(u)) => {
                let n = -i128::from(u);
                match i64::try_from(n) {
                    Ok(i) => Ok(Value::Int(i)),
                    Err(_) => Err(out_of_range("BIGINT", expr)),
                }
            }
            Some(Num::D(d)) => Ok(Value::Decimal(-d)),
            Some(Num::F(f)) => Ok(Value::Double(-f)),
        },
    }
}

/// An exact integer result as BIGINT [UNSIGNED], error 1690 when it does
/// not fit.
fn bigint_result(r: i128, unsigned: bool, expr: &Expr) -> SqlResult<Value> {
    if unsigned {
        u64::try_from(r).map(Value::UInt).map_err(|_| out_of_range("BIGINT UNSIGNED", expr))
    } else {
        i64::try_from(r).map(Value::Int).map_err(|_| out_of_range("BIGINT", expr))
    }
}

fn out_of_range(ty: &str, expr: &Expr) -> SqlError {
    SqlError::new(ErrorCode::DATA_OUT_OF_RANGE, format!("{ty} value is out of range in '{}'", expr_sql(expr)))
}

fn eval_binary(op: BinOp, l: &Expr, r: &Expr, expr: &Expr, row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    match op {
        BinOp::And => {
            let a = truth(&hybrid::eval_number(l, row, env)?, env);
            if a == Some(false) {
                return Ok(bool_value(false));
            }
            let b = truth(&hybrid::eval_number(r, row, env)?, env);
            return Ok(opt_bool(and3(a, b)));
        }
        BinOp::Or => {
            let a = truth(&hybrid::eval_number(l, row, env)?, env);
            if a == Some(true) {
                return Ok(bool_value(true));
            }
            let b = truth(&hybrid::eval_number(r, row, env)?, env);
            return Ok(opt_bool(match (a, b) {
                (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            }));
        }
        _ => {}
    }
    // Row comparisons: (a, b) = (1, 2), (SELECT a, b ...) = (1, 2).
    if is_row_operand(l) || is_row_operand(r) {
        let (mut lv, mut rv) = (Vec::new(), Vec::new());
        eval_row_pair(std::slice::from_ref(l), std::slice::from_ref(r), row, env, &mut lv, &mut rv)?;
        return row_compare(op, &lv, &rv);
    }
    if !op.is_comparison() {
        let (a, b) = (hybrid::eval_number(l, row, env)?, hybrid::eval_number(r, row, env)?);
        return binary_values(op, a, b, None, expr, env);
    }
    let a = eval_scalar(l, row, env)?;
    // A comparison with a NULL left operand is NULL without reading the
    // right one (MariaDB's Arg_comparator), so the right one's conversion
    // warnings are not given; its collations must still agree.
    if a.is_null() && op != BinOp::NullSafeEq {
        pair_collation(l, r, op.symbol())?;
        return Ok(Value::Null);
    }
    let b = eval_scalar(r, row, env)?;
    let (a, b) = (hybrid::compared(l, a.clone(), &b), hybrid::compared(r, b, &a));
    let coll = Some(pair_collation(l, r, op.symbol())?);
    binary_values(op, a, b, coll, expr, env)
}

/// MySQL warns (1292) when a number is compared with a string that is not
/// entirely numeric.
fn warn_numeric_string(a: &Value, b: &Value, env: &dyn EvalEnv) {
    let num = |v: &Value| matches!(v, Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_));
    let s = match (a, b) {
        (x, Value::Bytes(s)) if num(x) => s,
        (Value::Bytes(s), y) if num(y) => s,
        _ => return,
    };
    if !parse_f64_prefix(s).2 {
        env.warn(
            ErrorCode::TRUNCATED_WRONG_VALUE.number,
            format!("Truncated incorrect DOUBLE value: '{}'", String::from_utf8_lossy(s)),
        );
    }
}

fn row_compare(op: BinOp, a: &[Value], b: &[Value]) -> SqlResult<Value> {
    match op {
        BinOp::Eq => Ok(opt_bool(rows_equal(a, b, None))),
        BinOp::NotEq => Ok(opt_bool(rows_equal(a, b, None).map(|x| !x))),
        BinOp::NullSafeEq => {
            let all = a.iter().zip(b).all(|(x, y)| match (x.is_null(), y.is_null()) {
                (true, true) => true,
                (false, false) => compare(x, y) == Some(Ordering::Equal),
                _ => false,
            });
            Ok(bool_value(all))
        }
        BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq => {
            for (x, y) in a.iter().zip(b) {
                match compare(x, y) {
                    None => return Ok(Value::Null),
                    Some(Ordering::Equal) => continue,
                    Some(o) => return Ok(bool_value(ordering_matches(op, o))),
                }
            }
            Ok(bool_value(ordering_matches(op, Ordering::Equal)))
        }
        _ => Err(operand_columns(1)),
    }
}

fn ordering_matches(op: BinOp, o: Ordering) -> bool {
    match op {
        BinOp::Eq | BinOp::NullSafeEq => o == Ordering::Equal,
        BinOp::NotEq => o != Ordering::Equal,
        BinOp::Lt => o == Ordering::Less,
        BinOp::LtEq => o != Ordering::Greater,
        BinOp::Gt => o == Ordering::Greater,
        BinOp::GtEq => o != Ordering::Less,
        _ => false,
    }
}

/// Applies a binary operator (other than AND/OR) to two evaluated values.
pub fn binary_values(
    op: BinOp,
    a: Value,
    b: Value,
    coll: Option<Collation>,
    expr: &Expr,
    env: &dyn EvalEnv,
) -> SqlResult<Value> {
    match op {
        BinOp::NullSafeEq => {
            return Ok(bool_value(match (a.is_null(), b.is_null()) {
                (true, true) => true,
                (false, false) => cmp_coll(&a, &b, coll) == Some(Ordering::Equal),
                _ => false,
            }))
        }
        BinOp::Eq | BinOp::NotEq | BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq => {
            warn_numeric_string(&a, &b, env);
            return Ok(match cmp_coll(&a, &b, coll) {
                None => Value::Null,
                Some(o) => bool_value(ordering_matches(op, o)),
            });
        }
        _ => {}
    }
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    match op {
        BinOp::Xor => Ok(opt_bool(match (truth(&a, env), truth(&b, env)) {
            (Some(x), Some(y)) => Some(x != y),
            _ => None,
        })),
        BinOp::BitAnd => Ok(Value::UInt(to_u64_bits(&a, env) & to_u64_bits(&b, env))),
        BinOp::BitOr => Ok(Value::UInt(to_u64_bits(&a, env) | to_u64_bits(&b, env))),
        BinOp::BitXor => Ok(Value::UInt(to_u64_bits(&a, env) ^ to_u64_bits(&b, env))),
        BinOp::ShiftLeft | BinOp::ShiftRight => {
            let x = to_u64_bits(&a, env);
            let s = to_u64_bits(&b, env);
            let r = if s >= 64 {
                0
            } else if op == BinOp::ShiftLeft {
                x << s
            } else {
                x >> s
            };
            Ok(Value::UInt(r))
        }
        _ => {
            let (Some(x), Some(y)) = (to_num(&a, env), to_num(&b, env)) else {
                return Ok(Value::Null);
            };
            arith(op, x, y, expr, env)
        }
    }
}

fn arith(op: BinOp, x: Num, y: Num, expr: &Expr, env: &dyn EvalEnv) -> SqlResult<Value> {
    let is_f = matches!(x, Num::F(_)) || matches!(y, Num::F(_));
    let is_d = matches!(x, Num::D(_)) || matches!(y, Num::D(_));
    let is_u = matches!(x, Num::U(_)) || matches!(y, Num::U(_));
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            if is_f {
                let (a, b) = (x.to_f64(), y.to_f64());
                let r = match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    _ => a * b,
                };
                if !r.is_finite() {
                    return Err(out_of_range("DOUBLE", expr));
                }
                return Ok(Value::Double(r));
            }
            if is_d {
                let (Some(a), Some(b)) = (x.to_decimal(), y.to_decimal()) else {
                    return Err(out_of_range("DECIMAL", expr));
                };
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    _ => a.checked_mul(b),
                };
                return r.map(Value::Decimal).ok_or_else(|| out_of_range("DECIMAL", expr));
            }
            let (a, b) = (x.to_i128(), y.to_i128());
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                _ => a.checked_mul(b).unwrap_or(i128::MAX),
            };
            bigint_result(r, is_u, expr)
        }
        BinOp::Div => {
            if y.is_zero() {
                env.division_by_zero()?;
                return Ok(Value::Null);
            }
            if is_f {
                let r = x.to_f64() / y.to_f64();
                if !r.is_finite() {
                    return Err(out_of_range("DOUBLE", expr));
                }
                return Ok(Value::Double(r));
            }
            let (Some(a), Some(b)) = (x.to_decimal(), y.to_decimal()) else {
                return Err(out_of_range("DECIMAL", expr));
            };
            let scale = (a.scale() + DIV_PRECISION_INCREMENT).min(MAX_SCALE);
            match a.checked_div(b) {
                Some(q) => Ok(Value::Decimal(set_scale(q, scale))),
                None => Err(out_of_range("DECIMAL", expr)),
            }
        }
        BinOp::IntDiv => {
            if y.is_zero() {
                env.division_by_zero()?;
                return Ok(Value::Null);
            }
            let q: i128 = if is_f {
                (x.to_f64() / y.to_f64()).trunc() as i128
            } else if is_d {
                match (x.to_decimal(), y.to_decimal()) {
                    (Some(a), Some(b)) => a.checked_div(b).and_then(|q| q.trunc().to_i128()).unwrap_or(i128::MAX),
                    _ => i128::MAX,
                }
            } else {
                x.to_i128() / y.to_i128()
            };
            bigint_result(q, is_u, expr)
        }
        BinOp::Mod => {
            if y.is_zero() {
                env.division_by_zero()?;
                return Ok(Value::Null);
            }
            if is_f {
                return Ok(Value::Double(x.to_f64() % y.to_f64()));
            }
            if is_d {
                let (Some(a), Some(b)) = (x.to_decimal(), y.to_decimal()) else {
                    return Err(out_of_range("DECIMAL", expr));
                };
                return a.checked_rem(b).map(Value::Decimal).ok_or_else(|| out_of_range("DECIMAL", expr));
            }
            let r = x.to_i128() % y.to_i128();
            // The result takes the dividend's signedness.
            if matches!(x, Num::U(_)) {
                Ok(u64::try_from(r).map(Value::UInt).unwrap_or(Value::Null))
            } else {
                Ok(i64::try_from(r).map(Value::Int).unwrap_or(Value::Null))
            }
        }
        _ => Ok(Value::Null),
    }
}

/// Rounds half away from zero to `scale` digits and pads to exactly that scale.
pub(crate) fn set_scale(d: Decimal, scale: u32) -> Decimal {
    let mut r = d.round_dp_with_strategy(scale, RoundingStrategy::MidpointAwayFromZero);
    r.rescale(scale);
    r
}

/// The 64-bit pattern of a value for bit operators.
pub(crate) fn to_u64_bits(v: &Value, env: &dyn EvalEnv) -> u64 {
    match to_num(v, env) {
        None => 0,
        Some(Num::I(i)) => i as u64,
        Some(Num::U(u)) => u,
        Some(Num::D(d)) => {
            let r = d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
            if r.is_sign_negative() {
                r.to_i64().map(|i| i as u64).unwrap_or(i64::MIN as u64)
            } else {
                r.to_u64().unwrap_or(u64::MAX)
            }
        }
        Some(Num::F(f)) => {
            let r = f.round_ties_even();
            if r < 0.0 {
                (r as i64) as u64
            } else {
                r as u64
            }
        }
    }
}

/// SQL text of an expression, as MySQL quotes it in error 1690.
pub fn expr_sql(e: &Expr) -> String {
    match e {
        Expr::Literal(Value::Bytes(b)) => {
            format!("'{}'", String::from_utf8_lossy(b).replace('\'', "\\'"))
        }
        Expr::Literal(v) => v.to_string(),
        Expr::HexHybrid(bytes) => hybrid::hybrid_sql(bytes),
        Expr::Column { table: Some(t), name } => format!("`{t}`.`{name}`"),
        Expr::Column { table: None, name } => format!("`{name}`"),
        Expr::Param(_) => "?".into(),
        Expr::Slot(i) => format!("#{i}"),
        Expr::Unary(UnaryOp::Neg, x) => format!("-{}", expr_sql_paren(x)),
        Expr::Unary(UnaryOp::Not, x) => format!("!{}", expr_sql_paren(x)),
        Expr::Unary(UnaryOp::BitNot, x) => format!("~{}", expr_sql_paren(x)),
        Expr::Binary(op, l, r) => {
            // MariaDB writes the logical operators in lower case here.
            let o = match op {
                BinOp::And | BinOp::Or | BinOp::Xor => op.symbol().to_ascii_lowercase(),
                _ => op.symbol().to_string(),
            };
            format!("{} {o} {}", expr_sql_paren(l), expr_sql_paren(r))
        }
        Expr::Function { name, args } => {
            let a: Vec<String> = args.iter().map(expr_sql).collect();
            format!("{name}({})", a.join(","))
        }
        Expr::Cast { expr, to } => {
            let t = match to {
                CastType::Signed => "signed".to_string(),
                CastType::Unsigned => "unsigned".to_string(),
                CastType::Char(_) => "char".to_string(),
                CastType::Binary(_) => "binary".to_string(),
                CastType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
                CastType::Double(_) => "double".to_string(),
                CastType::Date => "date".to_string(),
                CastType::DateTime(fsp) => crate::view::with_fsp("datetime", *fsp),
                CastType::Time(fsp) => crate::view::with_fsp("time", *fsp),
                CastType::Uuid => "uuid".to_string(),
            };
            format!("cast({} as {t})", expr_sql(expr))
        }
        Expr::UserVar(n) => format!("@`{n}`"),
        _ => "?".into(),
    }
}

fn expr_sql_paren(e: &Expr) -> String {
    match e {
        Expr::Binary(..) => format!("({})", expr_sql(e)),
        _ => expr_sql(e),
    }
}

// ---------------------------------------------------------------------------
// Truth, comparison, grouping
// ---------------------------------------------------------------------------

/// SQL truth of a value: NULL is unknown (`None`).
pub fn truthy(v: &Value) -> Option<bool> {
    match v {
        Value::Null => None,
        Value::Int(i) => Some(*i != 0),
        Value::UInt(u) => Some(*u != 0),
        Value::Double(d) => Some(*d != 0.0),
        Value::Decimal(d) => Some(!d.is_zero()),
        Value::Bytes(b) => Some(parse_f64_prefix(b).0 != 0.0),
        Value::Uuid(u) => Some(parse_f64_prefix(u.to_string().as_bytes()).0 != 0.0),
        Value::Time(t) => Some(*t != 0),
        Value::Date(t) | Value::DateTime(t) => Some(*t != Temporal::default()),
    }
}

/// [`truthy`] as a condition reads it: a string converts as a DOUBLE, with
/// MariaDB's warning 1292 when it is not wholly a number.
pub(crate) fn truth(v: &Value, env: &dyn EvalEnv) -> Option<bool> {
    match v {
        Value::Bytes(b) => Some(str_to_f64_warn(b, env) != 0.0),
        other => truthy(other),
    }
}

/// Compares two non-NULL values by MySQL's rules (numeric if either side is
/// numeric, case-insensitive text otherwise); `None` if either is NULL.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    compare_with_collation(a, b, Collation::Utf8mb4GeneralCi)
}

/// [`compare`] with an explicit collation for string-vs-string comparisons.
pub fn compare_with_collation(a: &Value, b: &Value, collation: Collation) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Null, _) | (_, Null) => None,
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (UInt(x), UInt(y)) => Some(x.cmp(y)),
        (Int(x), UInt(y)) => Some(i128::from(*x).cmp(&i128::from(*y))),
        (UInt(x), Int(y)) => Some(i128::from(*x).cmp(&i128::from(*y))),
        (Bytes(x), Bytes(y)) => Some(compare_bytes(x, y, collation)),
        (Date(_) | DateTime(_), Date(_) | DateTime(_)) => Some(temporal_cmp_key(a).cmp(&temporal_cmp_key(b))),
        (Time(x), Time(y)) => Some(x.cmp(y)),
        (Uuid(x), Uuid(y)) => Some(x.cmp(y)),
        // MariaDB compares a UUID with a string as UUIDs when the string
        // is one, else as strings.
        (Uuid(u), Bytes(s)) => Some(compare_uuid_bytes(u, s, collation)),
        (Bytes(s), Uuid(u)) => Some(compare_uuid_bytes(u, s, collation).reverse()),
        (Uuid(_), _) | (_, Uuid(_)) => {
            Some(compare_bytes(a.to_string().as_bytes(), b.to_string().as_bytes(), collation))
        }
        (Date(_) | DateTime(_) | Time(_), Bytes(s)) => {
            compare_temporal_str(a, s).or_else(|| Some(compare_bytes(a.to_string().as_bytes(), s, collation)))
        }
        (Bytes(s), Date(_) | DateTime(_) | Time(_)) => compare_temporal_str(b, s)
            .map(Ordering::reverse)
            .or_else(|| Some(compare_bytes(s, b.to_string().as_bytes(), collation))),
        (Time(_), Date(_) | DateTime(_)) | (Date(_) | DateTime(_), Time(_)) => {
            Some(num_cmp_f64(&num_of(a), &num_of(b)))
        }
        _ => {
            let x = num_of(a);
            let y = num_of(b);
            match (&x, &y) {
                (Num::F(_), _) | (_, Num::F(_)) => num_cmp_f64(&x, &y).into(),
                _ => match (x.to_decimal(), y.to_decimal()) {
                    (Some(p), Some(q)) => Some(p.cmp(&q)),
                    _ => Some(num_cmp_f64(&x, &y)),
                },
            }
        }
    }
}

/// Numeric form of a value without warnings (comparison).
fn num_of(v: &Value) -> Num {
    match v {
        Value::Bytes(b) => Num::F(parse_f64_prefix(b).0),
        other => to_num(other, &NoWarn).unwrap_or(Num::I(0)),
    }
}

fn num_cmp_f64(a: &Num, b: &Num) -> Ordering {
    a.to_f64().partial_cmp(&b.to_f64()).unwrap_or(Ordering::Equal)
}

fn temporal_cmp_key(v: &Value) -> Temporal {
    match v {
        Value::Date(t) => Temporal { year: t.year, month: t.month, day: t.day, ..Temporal::default() },
        Value::DateTime(t) => *t,
        _ => Temporal::default(),
    }
}

fn compare_temporal_str(t: &Value, s: &[u8]) -> Option<Ordering> {
    let s = std::str::from_utf8(s).ok()?;
    match t {
        Value::Time(x) => temporal::parse_time(s).map(|y| x.cmp(&y)),
        _ => {
            let other = temporal::parse_datetime(s)?;
            Some(temporal_cmp_key(t).cmp(&other))
        }
    }
}

fn compare_uuid_bytes(u: &onelog_core::Uuid, s: &[u8], collation: Collation) -> Ordering {
    match onelog_core::Uuid::from_binary(s).or_else(|| onelog_core::Uuid::parse_text(s)) {
        Some(other) => u.cmp(&other),
        None => compare_bytes(u.to_string().as_bytes(), s, collation),
    }
}

/// Compares strings under a collation: [`Collation::compare`], the one
/// definition of text order.
pub fn compare_bytes(a: &[u8], b: &[u8], collation: Collation) -> Ordering {
    collation.compare(a, b)
}

/// Ordering for ORDER BY: NULLs first, then [`compare`].
pub fn compare_for_sort(a: &Value, b: &Value) -> Ordering {
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => compare(a, b).unwrap_or(Ordering::Equal),
    }
}

/// A byte key equal for values GROUP BY / DISTINCT treat as equal (under
/// utf8mb4_general_ci for text).
pub fn sort_key(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    sort_key_into(v, Collation::default(), &mut out);
    out
}

/// [`sort_key`] under an explicit collation, appended to `out`: values
/// MySQL equality treats as equal (`1 = 1.0`, `'a' = 'A '` under a `_ci`
/// PAD SPACE collation) get equal keys.
pub fn sort_key_into(v: &Value, collation: Collation, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.push(0),
        Value::Int(_) | Value::UInt(_) | Value::Decimal(_) => {
            out.push(1);
            let d = num_of(v).to_decimal().unwrap_or_default().normalize();
            out.extend_from_slice(d.to_string().as_bytes());
        }
        Value::Double(f) => {
            if f.fract() == 0.0 && f.abs() < 1e18 {
                out.push(1);
                out.extend_from_slice((*f as i64).to_string().as_bytes());
            } else {
                out.push(2);
                out.extend_from_slice(&f.to_bits().to_be_bytes());
            }
        }
        Value::Bytes(b) => {
            out.push(3);
            collation.sort_key_into(b, out);
        }
        Value::Date(_) | Value::DateTime(_) => {
            out.push(4);
            out.extend_from_slice(temporal_cmp_key(v).datetime_string(6).as_bytes());
        }
        Value::Time(t) => {
            out.push(5);
            out.extend_from_slice(&t.to_be_bytes());
        }
        Value::Uuid(u) => {
            out.push(6);
            out.extend_from_slice(&u.record_bytes());
        }
    }
}

/// Whether GROUP BY / DISTINCT put the two values in one group.
pub fn values_equal_for_grouping(a: &Value, b: &Value) -> bool {
    sort_key(a) == sort_key(b)
}

// ---------------------------------------------------------------------------
// LIKE
// ---------------------------------------------------------------------------

/// One character's weights under `collation`, packed with their count: equal
/// for characters the collation equates one to one (what LIKE and LOCATE
/// match). All but the longest UCA expansions (8+ weights, whose first seven
/// then decide) fit.
pub fn char_key(collation: Collation, c: char, scratch: &mut Vec<u16>) -> u128 {
    scratch.clear();
    collation.char_weights(c, scratch);
    scratch.iter().take(7).fold(scratch.len() as u128, |acc, w| (acc << 16) | u128::from(*w))
}

/// MySQL LIKE: `%` any run, `_` one character, `escape` quotes the next one.
pub fn like_match(value: &[u8], pattern: &[u8], escape: char, collation: Collation) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum P {
        Any,
        One,
        Lit(u128),
    }
    // Characters match when their collation weights do (`'é' LIKE 'e'`
    // under general_ci).
    let mut scratch = Vec::with_capacity(4);
    let mut norm = |c: char| char_key(collation, c, &mut scratch);
    let vs: Vec<u128> = String::from_utf8_lossy(value).chars().map(&mut norm).collect();
    let ps = String::from_utf8_lossy(pattern);
    let mut pat = Vec::new();
    let mut it = ps.chars();
    while let Some(c) = it.next() {
        if c == escape {
            match it.next() {
                Some(n) => pat.push(P::Lit(norm(n))),
                None => pat.push(P::Lit(norm(c))),
            }
        } else if c == '%' {
            pat.push(P::Any);
        } else if c == '_' {
            pat.push(P::One);
        } else {
            pat.push(P::Lit(norm(c)));
        }
    }
    let (mut vi, mut pi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while vi < vs.len() {
        if pi < pat.len() && (pat[pi] == P::One || pat[pi] == P::Lit(vs[vi])) {
            vi += 1;
            pi += 1;
        } else if pi < pat.len() && pat[pi] == P::Any {
            star = Some((pi, vi));
            pi += 1;
        } else if let Some((sp, sv)) = star {
            pi = sp + 1;
            vi = sv + 1;
            star = Some((sp, sv + 1));
        } else {
            return false;
        }
    }
    while pi < pat.len() && pat[pi] == P::Any {
        pi += 1;
    }
    pi == pat.len()
}

// ---------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------

/// An environment that drops warnings, for internal conversions.
pub(crate) struct NoWarn;

impl EvalEnv for NoWarn {
    fn system_var(&self, _: VarScope, _: &str) -> SqlResult<Value> {
        Ok(Value::Null)
    }
    fn user_var(&self, _: &str) -> Value {
        Value::Null
    }
    fn subquery(&self, _: &Select, _: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        Ok(Vec::new())
    }
    fn session_fact(&self, _: &str) -> Value {
        Value::Null
    }
    fn binlog_gtid_pos(&self, _: &str, _: u64) -> SqlResult<Value> {
        Ok(Value::Null)
    }
    fn warn(&self, _: u16, _: String) {}
}

/// CAST(... AS CHAR(n)): the text cut to `chars` characters (bytes, for
/// text that is no UTF-8), with warning 1292 when that cut something; a
/// shorter text stays as it is.
fn cut_text(text: Vec<u8>, chars: Option<u32>, env: &dyn EvalEnv) -> Vec<u8> {
    let Some(chars) = chars else { return text };
    let cut_at = match std::str::from_utf8(&text) {
        Ok(s) => s.char_indices().nth(chars as usize).map(|(at, _)| at),
        Err(_) => Some(chars as usize).filter(|&at| at < text.len()),
    };
    let Some(cut_at) = cut_at else { return text };
    truncated_cast_warning(env, &format!("CHAR({chars})"), &text);
    text[..cut_at].to_vec()
}

/// CAST(... AS BINARY(n)): the bytes cut (warning 1292) or zero-padded to
/// `bytes`.
fn fit_bytes(mut bytes: Vec<u8>, length: Option<u32>, env: &dyn EvalEnv) -> Vec<u8> {
    let Some(length) = length else { return bytes };
    let length_bytes = length as usize;
    if bytes.len() > length_bytes {
        truncated_cast_warning(env, &format!("BINARY({length})"), &bytes);
        bytes.truncate(length_bytes);
    }
    bytes.resize(length_bytes, 0);
    bytes
}

fn truncated_cast_warning(env: &dyn EvalEnv, target: &str, value: &[u8]) {
    env.warn(
        ErrorCode::TRUNCATED_WRONG_VALUE.number,
        format!("Truncated incorrect {target} value: '{}'", String::from_utf8_lossy(value)),
    );
}

/// The bytes of a value's string form.
pub fn value_bytes(v: &Value) -> Cow<'_, [u8]> {
    match v {
        Value::Bytes(b) => Cow::Borrowed(b.as_slice()),
        Value::Double(f) => Cow::Owned(format_double(*f).into_bytes()),
        other => Cow::Owned(other.to_string().into_bytes()),
    }
}

/// The string form of a value (lossy for invalid UTF-8).
pub fn value_string(v: &Value) -> String {
    String::from_utf8_lossy(&value_bytes(v)).into_owned()
}

/// Parses the longest numeric prefix of a string (after leading spaces).
/// Returns the number, the prefix length in bytes, and whether the whole
/// string (modulo trailing spaces) was numeric.
pub fn parse_f64_prefix(b: &[u8]) -> (f64, usize, bool) {
    let end = numeric_prefix_len(b, true);
    let s = std::str::from_utf8(&b[..end]).unwrap_or("").trim_start();
    let v = s.parse::<f64>().unwrap_or(0.0);
    let rest = &b[end..];
    let complete = end > 0 && rest.iter().all(|c| c.is_ascii_whitespace()) && !s.is_empty();
    (v, end, complete)
}

/// Length of the numeric prefix (leading whitespace, sign, digits, '.',
/// digits, exponent when `allow_exp`).
pub(crate) fn numeric_prefix_len(b: &[u8], allow_exp: bool) -> usize {
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let ds = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - ds;
    if i < b.len() && b[i] == b'.' {
        let j = i + 1;
        let mut k = j;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if digits > 0 || k > j {
            digits += k - j;
            i = k;
        }
    }
    if digits == 0 {
        return 0;
    }
    if allow_exp && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut k = i + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        let es = k;
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        if k > es {
            i = k;
        }
    }
    i
}

fn str_to_f64_warn(b: &[u8], env: &dyn EvalEnv) -> f64 {
    let (v, _, complete) = parse_f64_prefix(b);
    if !complete {
        env.warn(
            ErrorCode::TRUNCATED_WRONG_VALUE.number,
            format!("Truncated incorrect DOUBLE value: '{}'", String::from_utf8_lossy(b)),
        );
    }
    v
}

/// Parses a string as an exact number (DECIMAL) prefix; `None` when it is
/// not numeric at all. The flag tells whether the whole string was used.
pub(crate) fn parse_decimal_prefix(b: &[u8]) -> (Option<Decimal>, bool) {
    let end = numeric_prefix_len(b, true);
    let s = std::str::from_utf8(&b[..end]).unwrap_or("").trim();
    let complete = end > 0 && b[end..].iter().all(|c| c.is_ascii_whitespace());
    if s.is_empty() {
        return (None, false);
    }
    let d = if s.contains(['e', 'E']) {
        Decimal::from_scientific(s).ok().or_else(|| s.parse::<f64>().ok().and_then(Decimal::from_f64))
    } else {
        let t = s.strip_prefix('+').unwrap_or(s);
        Decimal::from_str_exact(t).ok().or_else(|| t.parse::<f64>().ok().and_then(Decimal::from_f64))
    };
    (d, complete)
}

/// Parses a string as MySQL does for an integer context: integer prefix
/// (no rounding of a fraction). Returns the value as i128 (saturated) and
/// whether the whole string was an integer.
pub(crate) fn parse_int_prefix(b: &[u8]) -> (i128, bool) {
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let ds = i;
    let mut v: i128 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        v = v.saturating_mul(10).saturating_add(i128::from(b[i] - b'0'));
        i += 1;
    }
    let complete = i > ds && b[i..].iter().all(|c| c.is_ascii_whitespace());
    (if neg { -v } else { v }, complete)
}

/// Saturating conversion of a value to i64 as CAST(... AS SIGNED) does.
pub(crate) fn to_i64_cast(v: &Value, env: &dyn EvalEnv) -> Option<i64> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => *i,
        Value::UInt(u) => *u as i64,
        Value::Bytes(b) => {
            let (n, complete) = parse_int_prefix(b);
            if !complete {
                env.warn(
                    ErrorCode::TRUNCATED_WRONG_VALUE.number,
                    format!("Truncated incorrect INTEGER value: '{}'", String::from_utf8_lossy(b)),
                );
            }
            if n > i128::from(u64::MAX) {
                -1
            } else if n > i128::from(i64::MAX) {
                n as u64 as i64
            } else {
                n.max(i128::from(i64::MIN)) as i64
            }
        }
        other => match to_num(other, env) {
            Some(Num::D(d)) => d
                .round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
                .to_i64()
                .unwrap_or(if d.is_sign_negative() { i64::MIN } else { i64::MAX }),
            Some(Num::F(f)) => {
                let r = f.round_ties_even();
                if r >= 9.223_372_036_854_776e18 {
                    i64::MAX
                } else if r <= -9.223_372_036_854_776e18 {
                    i64::MIN
                } else {
                    r as i64
                }
            }
            Some(Num::I(i)) => i,
            Some(Num::U(u)) => u as i64,
            None => return None,
        },
    })
}

/// An integer argument of a function (lengths, positions, counts).
pub(crate) fn int_arg(v: &Value, env: &dyn EvalEnv) -> Option<i64> {
    match v {
        Value::UInt(u) => Some(i64::try_from(*u).unwrap_or(i64::MAX)),
        other => to_i64_cast(other, env),
    }
}

/// MariaDB's note (its spelling) when CAST(... AS UNSIGNED) of a negative
/// integer or integer text wraps it.
fn negative_to_unsigned_note(env: &dyn EvalEnv) {
    env.note(
        ErrorCode::UNKNOWN_ERROR.number,
        "Cast to unsigned converted negative integer to it's positive complement".into(),
    );
}

/// CAST of a DECIMAL (a warning) or a DOUBLE (a note, as MariaDB words it
/// by the type it converts to) past the integer type's range: 1916.
fn cast_overflow(env: &dyn EvalEnv, value_text: String, target: &str, from_double: bool) {
    let message = format!("Got overflow when converting '{value_text}' to {target}. Value truncated");
    if from_double {
        env.note(ErrorCode::DATA_OVERFLOW.number, message);
    } else {
        env.warn(ErrorCode::DATA_OVERFLOW.number, message);
    }
}

/// CAST(v AS type).
pub fn cast(v: Value, to: CastType, env: &dyn EvalEnv) -> SqlResult<Value> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    Ok(match to {
        CastType::Signed => match &v {
            Value::UInt(u) => Value::Int(*u as i64),
            Value::Decimal(d) => {
                let r = d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
                Value::Int(r.to_i64().unwrap_or_else(|| {
                    cast_overflow(env, d.to_string(), "INT", false);
                    if r.is_sign_negative() {
                        i64::MIN
                    } else {
                        i64::MAX
                    }
                }))
            }
            Value::Double(f) => {
                let r = f.round_ties_even();
                if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&r) {
                    cast_overflow(env, format_double(*f), "SIGNED BIGINT", true);
                }
                // `as` saturates at the bounds, as MariaDB clamps.
                Value::Int(r as i64)
            }
            _ => to_i64_cast(&v, env).map(Value::Int).unwrap_or(Value::Null),
        },
        CastType::Unsigned => match &v {
            Value::Int(i) => {
                if *i < 0 {
                    negative_to_unsigned_note(env);
                }
                Value::UInt(*i as u64)
            }
            Value::UInt(u) => Value::UInt(*u),
            Value::Bytes(b) => {
                let (n, complete) = parse_int_prefix(b);
                if !complete {
                    env.warn(
                        ErrorCode::TRUNCATED_WRONG_VALUE.number,
                        format!("Truncated incorrect INTEGER value: '{}'", String::from_utf8_lossy(b)),
                    );
                }
                if n < 0 {
                    negative_to_unsigned_note(env);
                }
                Value::UInt(if n < 0 {
                    n.max(i128::from(i64::MIN)) as i64 as u64
                } else {
                    n.min(i128::from(u64::MAX)) as u64
                })
            }
            Value::Double(f) => {
                let r = f.round_ties_even();
                if !(0.0..1.8446744073709552e19).contains(&r) {
                    cast_overflow(env, format_double(*f), "UNSIGNED BIGINT", true);
                }
                // `as` saturates: a negative value is 0, a too large one the maximum.
                Value::UInt(r as u64)
            }
            Value::Decimal(d) => {
                let r = d.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
                Value::UInt(if r < Decimal::ZERO {
                    cast_overflow(env, d.to_string(), "UNSIGNED INT", false);
                    0
                } else {
                    r.to_u64().unwrap_or_else(|| {
                        cast_overflow(env, d.to_string(), "UNSIGNED INT", false);
                        u64::MAX
                    })
                })
            }
            other => Value::UInt(to_u64_bits(other, env)),
        },
        CastType::Char(chars) => Value::Bytes(cut_text(value_bytes(&v).into_owned(), chars, env)),
        CastType::Binary(bytes) => Value::Bytes(fit_bytes(value_bytes(&v).into_owned(), bytes, env)),
        CastType::Double(digits) => match to_num(&v, env) {
            Some(n) => {
                let f = n.to_f64();
                Value::Double(match digits {
                    Some(d) if d.decimals < 31 => {
                        let scale = 10f64.powi(i32::from(d.decimals));
                        (f * scale).round() / scale
                    }
                    _ => f,
                })
            }
            None => Value::Null,
        },
        CastType::Decimal { precision, scale } => {
            let d = match &v {
                Value::Bytes(b) => {
                    let (d, complete) = parse_decimal_prefix(b);
                    if !complete {
                        env.warn(
                            ErrorCode::TRUNCATED_WRONG_VALUE.number,
                            format!("Truncated incorrect DECIMAL value: '{}'", String::from_utf8_lossy(b)),
                        );
                    }
                    d.unwrap_or_default()
                }
                other => to_num(other, env).and_then(|n| n.to_decimal()).unwrap_or_default(),
            };
            let (d, clamped) = decimal_fit(&d, precision, scale);
            if clamped {
                env.warn(
                    ErrorCode::WARN_DATA_OUT_OF_RANGE.number,
                    "Out of range value for column 'cast' at row 1".to_string(),
                );
            }
            Value::Decimal(d)
        }
        CastType::Date => match temporal::to_datetime(&v, env) {
            Some(t) => Value::Date(t.date()),
            None => Value::Null,
        },
        CastType::DateTime(fsp) => match temporal::to_datetime(&v, env) {
            Some(t) => Value::DateTime(coerce::cut_fraction(t, fsp, env)),
            None => Value::Null,
        },
        CastType::Time(fsp) => match temporal::to_time(&v, env) {
            Some(t) => Value::Time(coerce::cut_time_fraction(t, fsp, env)),
            None => Value::Null,
        },
        CastType::Uuid => cast_uuid(v, env),
    })
}

/// CAST(v AS UUID): a UUID from its text or, for a string of 16 bytes, its
/// binary form; anything else is NULL with warning 1292, as in MariaDB.
fn cast_uuid(v: Value, env: &dyn EvalEnv) -> Value {
    let bytes = match &v {
        Value::Uuid(_) | Value::Null => return v,
        Value::Bytes(b) => Cow::Borrowed(b.as_slice()),
        other => value_bytes(other),
    };
    let binary = if matches!(v, Value::Bytes(_)) { onelog_core::Uuid::from_binary(&bytes) } else { None };
    match binary.or_else(|| onelog_core::Uuid::parse_text(&bytes)) {
        Some(u) => Value::Uuid(u),
        None => {
            env.warn(
                ErrorCode::TRUNCATED_WRONG_VALUE.number,
                format!("Incorrect uuid value: '{}'", String::from_utf8_lossy(&bytes)),
            );
            Value::Null
        }
    }
}

/// Rounds `d` to `scale` and clamps it to DECIMAL(precision, scale).
/// Returns the value and whether it was clamped.
pub(crate) fn decimal_fit(d: &Decimal, precision: u8, scale: u8) -> (Decimal, bool) {
    let scale = u32::from(scale).min(MAX_SCALE);
    let int_digits = u32::from(precision).saturating_sub(scale);
    let r = set_scale(d.clone(), scale);
    // max = 10^int_digits - 10^-scale: all nines (a zero for DECIMAL(0)).
    let nines = if int_digits + scale == 0 { vec![b'0'] } else { vec![b'9'; (int_digits + scale) as usize] };
    // Column types hold at most 65 digits, which the backing holds.
    let max = Decimal::from_digits(false, &nines, scale).unwrap_or_else(|_| Decimal::saturated(false));
    if r > max {
        (max, true)
    } else if r < -max.clone() {
        (-max, true)
    } else {
        (r, false)
    }
}
