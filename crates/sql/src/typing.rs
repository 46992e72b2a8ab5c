//! Bind-time result types: the static type MariaDB gives an expression
//! (SQL type, length, decimals, charset, nullability), derived from the
//! bound expression and its input columns before any row is read.
//!
//! A result column's definition comes from here, so it is the same whether
//! a query returns no rows or many, and what a client (or CREATE TABLE ...
//! SELECT) learns of a column does not depend on the values that happen to
//! arrive. The rules are MariaDB 10.11's (`Item::fix_length_and_dec` and
//! the type handlers' aggregation): integer arithmetic widens by a digit,
//! DECIMAL keeps its scale (division adds `div_precision_increment`),
//! IF / IFNULL / COALESCE / CASE aggregate their branches, string
//! functions keep their arguments' length in characters.
//!
//! Expressions whose rules are not written here yet type as `None`; their
//! result column is then described from its values (the older way), so
//! the two can coexist while the rules grow.

use crate::ast::{AggFunc, BinOp, CastType, Expr, Select, SelectItem, UnaryOp, VarScope, WindowCall, WindowFunc};
use crate::select::ScopeColumn;
use crate::session::ResultColumn;
use onelog_core::schema::FloatDigits;
use onelog_core::{BlobSize, Collation, ColumnDef, ColumnType, Uuid, Value};

/// MariaDB's `div_precision_increment` default: the scale `/` adds.
const DIV_PRECISION_INCREMENT: u8 = 4;
/// Digits SUM adds to its argument's precision (DECIMAL_LONGLONG_DIGITS).
const SUM_EXTRA_DIGITS: u32 = 22;
/// Decimals STD / VARIANCE add to their argument's (prec_increment).
const VARIANCE_EXTRA_DECIMALS: u32 = 4;
/// The most decimals a STD / VARIANCE result shows (FLOATING_POINT_DECIMALS - 1).
const VARIANCE_MAX_DECIMALS: u32 = 30;
/// The longest DECIMAL MariaDB has.
const DECIMAL_MAX_PRECISION: u32 = 65;
/// The digits MariaDB's decimal arithmetic holds (DECIMAL_MAX_POSSIBLE_PRECISION):
/// a DECIMAL user variable is described as that long.
const DECIMAL_MAX_POSSIBLE_PRECISION: u32 = 81;
/// MariaDB's MAX_BLOB_WIDTH: the length in bytes of a LONGBLOB result.
const MAX_BLOB_WIDTH: u32 = 16 * 1024 * 1024;
/// A DOUBLE system variable's display length (DBL_DIG + 6).
const SYSTEM_VAR_DOUBLE_LENGTH: u8 = 21;
/// MariaDB's largest DECIMAL scale: results with more digits after the
/// point are typed (and sent) with 38.
const DECIMAL_MAX_SCALE: u32 = 38;
/// A DOUBLE expression's display length (DBL_DIG + 8).
const DOUBLE_ITEM_LENGTH: u32 = 23;
/// MariaDB's FLOATING_POINT_DECIMALS: a DOUBLE with this many decimals or
/// more shows them as needed (NOT_FIXED_DEC).
const FLOATING_POINT_DECIMALS: u32 = 31;
/// The longest VARCHAR a result is described as, in bytes; longer text is
/// a BLOB type.
const MAX_VARCHAR_BYTES: u32 = 65_535;

/// A static expression type, in the terms MariaDB's rules compute with.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// An integer of `digits` digits (the sign not counted); `len` is its
    /// display length (a sign included unless unsigned). `declared`: the
    /// integer type a column or function has; `None` picks INT or BIGINT
    /// by length, as arithmetic results do.
    Int {
        digits: u32,
        len: u32,
        unsigned: bool,
        declared: Option<ColumnType>,
    },
    Decimal {
        precision: u32,
        scale: u32,
        unsigned: bool,
    },
    Double,
    /// Text of at most `chars` characters.
    Text {
        chars: u32,
        collation: Collation,
    },
    /// A type taken whole from a column (temporal, ENUM, binary strings...).
    Column(ColumnDef),
}

#[derive(Debug, Clone, PartialEq)]
struct Typed {
    kind: Kind,
    nullable: bool,
}

/// What typing needs to know of the session: the stored functions a
/// statement may call (MariaDB types a call by the function's RETURNS
/// clause, Item_func_sp, whatever its body returns), routine variables,
/// subqueries' columns, and the variables it reads (MariaDB types a
/// variable by what it holds when the statement is prepared).
pub trait TypeFacts {
    /// The RETURNS type of the stored function `name` (`db.f`, or `f` of
    /// the current database), `None` when there is no such function.
    fn returns(&self, name: &str) -> Option<ColumnDef>;
    /// The declared type of the value `Expr::Param(i)` stands for, when a
    /// stored program's variable supplies it (MariaDB types it so).
    fn param_type(&self, _i: usize) -> Option<ColumnDef> {
        None
    }
    /// The type of the one column of the scalar subquery `query` (MariaDB
    /// types Item_singlerow_subselect by it), `None` where it is not known
    /// without running the subquery.
    fn subquery_column(&self, _query: &Select) -> Option<ColumnDef> {
        None
    }
    /// The value of the user variable `name`, `None` when it was never set.
    fn user_var(&self, _name: &str) -> Option<Value> {
        None
    }
    /// How the system variable `@@scope.name` reads, `None` when there is
    /// no such variable.
    fn system_var(&self, _scope: VarScope, _name: &str) -> Option<SystemVarType> {
        None
    }
}

/// The kind of value a system variable holds, which gives the type MariaDB
/// reads it as (Item_func_get_system_var::fix_length_and_dec, by the
/// variable's SHOW type).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SystemVarType {
    /// ON / OFF: a BIGINT of one digit.
    Boolean,
    Integer {
        unsigned: bool,
    },
    Double,
    /// A string, ENUM or SET: a utf8mb3 VARCHAR as long as the value it
    /// holds now.
    Text {
        chars: u32,
    },
}

/// What an expression's type depends on besides the expression itself.
pub struct TypeEnv<'a> {
    /// The columns `Expr::Slot`s refer to.
    pub scope: &'a [ScopeColumn],
    pub facts: &'a dyn TypeFacts,
    /// `collation_connection`: a string literal's collation.
    pub connection_collation: Collation,
    /// The user variables never set that earlier select items assign
    /// ([`TypeEnv::after_item`]), each with whether it is assigned NULL.
    pub created_user_vars: Vec<(String, bool)>,
}

impl TypeEnv<'_> {
    /// Notes the variables the select item `item` creates: MariaDB creates
    /// a variable as a string when it prepares an assignment to it, so a
    /// later item reads a variable never set before as a string (an
    /// earlier one as NULL).
    pub fn after_item(&mut self, item: &Expr) {
        if let Expr::AssignUserVar { name, value } = item {
            let noted = self.created_user_vars.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
            if self.facts.user_var(name).is_none() && !noted {
                self.created_user_vars.push((name.clone(), matches!(**value, Expr::Literal(Value::Null))));
            }
        }
        item.for_each_child(&mut |child| self.after_item(child));
    }

    fn user_var(&self, name: &str) -> Option<Value> {
        self.facts.user_var(name).or_else(|| {
            let (_, null) = self.created_user_vars.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?;
            Some(if *null { Value::Null } else { Value::Bytes(Vec::new()) })
        })
    }
}

/// The result column definition MariaDB gives `expr` over `env.scope`,
/// or `None` when its rules are not known here.
pub fn result_def(expr: &Expr, env: &TypeEnv<'_>, name: &str) -> Option<ColumnDef> {
    let typed = type_of(expr, env)?;
    Some(to_def(&typed, name))
}

/// The length MariaDB gives LOAD_FILE()'s result: max_allowed_packet's
/// default, 16 MiB.
const LOAD_FILE_MAX_BYTES: u32 = 16 * 1024 * 1024;

/// The result column `expr` makes, `None` when its rules are not known
/// here. A stored function's call is described by its RETURNS field as
/// it is (a CHAR stays a CHAR, an ENUM an ENUM), not as an expression.
pub fn result_column(expr: &Expr, env: &TypeEnv<'_>, name: &str) -> Option<ResultColumn> {
    match stored_function_returns(expr, env) {
        Some(def) => Some(ResultColumn::stored_function(name, ColumnDef { name: name.to_string(), ..def })),
        None => result_def(expr, env, name).map(|def| {
            let string = def.ty.is_text() || matches!(def.ty, ColumnType::VarBinary(_) | ColumnType::Blob(_));
            ResultColumn { decimals_zero: string && has_decimals_zero(expr), ..ResultColumn::named(name, def) }
        }),
    }
}

/// Whether MariaDB describes `expr`'s string result with decimals 0 (its
/// function sets them), not the 39 of other string items.
fn has_decimals_zero(expr: &Expr) -> bool {
    const FUNCTIONS: [&str; 11] = [
        "hex",
        "unhex",
        "inet_ntoa",
        "inet6_ntoa",
        "inet6_aton",
        "date_format",
        "time_format",
        "from_unixtime",
        "get_format",
        "monthname",
        "dayname",
    ];
    match expr {
        Expr::Function { name, .. } => FUNCTIONS.contains(&name.as_str()),
        Expr::Cast { to: CastType::Char(_) | CastType::Binary(_), .. } => true,
        _ => false,
    }
}

/// A select list's result columns in order, as MariaDB types them when it
/// prepares the statement: a table column's as it is, a computed one's
/// from here (`None` where its rules are not known), each item seeing
/// the variables earlier ones create ([`TypeEnv::after_item`]).
pub(crate) fn select_list(items: &[crate::select::Item], mut env: TypeEnv<'_>) -> Vec<Option<ResultColumn>> {
    items
        .iter()
        .map(|item| {
            let column = match crate::select::slot_of(&item.expr) {
                Some(_) => Some(item.column.clone()),
                None => result_column(&item.expr, &env, &item.column.name),
            };
            env.after_item(&item.expr);
            column
        })
        .collect()
}

/// The RETURNS type of `expr` when it calls a stored function (a native
/// function of the same name is called instead), NULL allowed.
fn stored_function_returns(expr: &Expr, env: &TypeEnv<'_>) -> Option<ColumnDef> {
    let Expr::Function { name, .. } = expr else { return None };
    if crate::eval::is_native_function(name) {
        return None;
    }
    let mut def = env.facts.returns(name)?;
    def.nullable = true;
    def.default = None;
    Some(def)
}

/// The column a UNION returns where its parts return `defs`: the type
/// that holds each part's (MariaDB aggregates them as for CASE), or `None`
/// when their rules are not known here.
pub fn union_def(defs: &[&ColumnDef], name: &str) -> Option<ColumnDef> {
    let parts: Vec<Typed> = defs.iter().map(|d| column(d)).collect();
    if parts.iter().all(|p| p == &parts[0]) {
        return None;
    }
    Some(to_def(&aggregate_types(&parts)?, name))
}

/// A computed column's value made to show as MariaDB shows it: in its
/// static type ([`conform`]), a user variable's as [`read_user_var`].
pub fn present(expr: &Expr, def: &ColumnDef, value: &mut Value) {
    match expr {
        Expr::UserVar(_) => *value = read_user_var(def, std::mem::take(value)),
        _ => conform(def, value),
    }
}

/// A user variable's value read as the type it had when the statement
/// started (MariaDB reads it by val_int / val_real / val_decimal of that
/// type, without a warning: a string that is no number reads as 0). A
/// DECIMAL shows its own digits although the column says 38 decimals.
fn read_user_var(def: &ColumnDef, value: Value) -> Value {
    use onelog_core::decimal::Decimal;
    let text = |d: Decimal| Value::from_str(&d.to_string());
    match (&def.ty, value) {
        (_, Value::Null) => Value::Null,
        (ColumnType::BigInt, Value::Bytes(b)) => {
            let (n, _) = crate::eval::parse_int_prefix(&b);
            match def.unsigned {
                true => Value::UInt(u64::try_from(n.max(0)).unwrap_or(u64::MAX)),
                false => Value::Int(i64::try_from(n).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX })),
            }
        }
        // A float is cut toward zero, as a C cast does.
        (ColumnType::BigInt, Value::Double(f)) => Value::Int(f as i64),
        (ColumnType::Double, Value::Bytes(b)) => Value::Double(crate::eval::parse_f64_prefix(&b).0),
        (ColumnType::Decimal { .. }, Value::Decimal(d)) => text(d),
        (ColumnType::Decimal { .. }, Value::Bytes(b)) => {
            text(crate::eval::parse_decimal_prefix(&b).0.unwrap_or_else(|| Decimal::from(0)))
        }
        (_, value) => value,
    }
}

/// A value of a computed column made to show as its static type does: an
/// integer or a shorter-scaled DECIMAL in a DECIMAL(p,s) column gets the
/// column's scale (`IF(c, d, 0)` shows `0.000` beside a DECIMAL(10,3)).
pub fn conform(def: &ColumnDef, value: &mut Value) {
    let ColumnType::Decimal { scale, .. } = def.ty else { return };
    let scale = u32::from(scale);
    let mut d = match value {
        Value::Int(i) => onelog_core::decimal::Decimal::from(*i),
        Value::UInt(u) => onelog_core::decimal::Decimal::from(*u),
        Value::Decimal(d) if d.scale() < scale => d.clone(),
        _ => return,
    };
    d.rescale(scale);
    // rescale leaves the value unchanged when the scale does not fit.
    if d.scale() == scale {
        *value = Value::Decimal(d);
    }
}

/// The integer type MariaDB gives a result of `len` characters
/// (Type_handler_long_or_longlong): INT up to 9, BIGINT past.
pub fn int_type_for_length(len: u32) -> ColumnType {
    if len <= 9 {
        ColumnType::Int
    } else {
        ColumnType::BigInt
    }
}

fn to_def(t: &Typed, name: &str) -> ColumnDef {
    let mut def = match &t.kind {
        Kind::Int { len, unsigned, declared, .. } => {
            let ty = declared.clone().unwrap_or_else(|| int_type_for_length(*len));
            let mut d = ColumnDef::new(name, ty);
            d.unsigned = *unsigned;
            d.display_width = Some(*len);
            d
        }
        Kind::Decimal { precision, scale, unsigned } => {
            let scale = (*scale).min(DECIMAL_MAX_SCALE);
            let mut d = ColumnDef::new(
                name,
                ColumnType::Decimal {
                    precision: (*precision).clamp(scale.max(1), DECIMAL_MAX_PRECISION) as u8,
                    scale: scale as u8,
                },
            );
            d.unsigned = *unsigned;
            // MariaDB describes a result past 65 digits by its whole length
            // (my_decimal_precision_to_length_no_truncation).
            if *precision > DECIMAL_MAX_PRECISION {
                d.display_width = Some(precision + u32::from(scale > 0) + u32::from(!unsigned));
            }
            d
        }
        Kind::Double => {
            let mut d = ColumnDef::new(name, ColumnType::Double);
            d.display_width = Some(DOUBLE_ITEM_LENGTH);
            d
        }
        Kind::Text { chars, collation } => {
            let bytes = chars.saturating_mul(collation.mbmaxlen());
            let binary = *collation == Collation::Binary;
            let ty = match (bytes <= MAX_VARCHAR_BYTES, bytes < (1 << 24), binary) {
                (true, _, false) => ColumnType::VarChar(*chars),
                (true, _, true) => ColumnType::VarBinary(*chars),
                (false, true, false) => ColumnType::Text(BlobSize::Medium),
                (false, true, true) => ColumnType::Blob(BlobSize::Medium),
                (false, false, false) => ColumnType::Text(BlobSize::Long),
                (false, false, true) => ColumnType::Blob(BlobSize::Long),
            };
            let mut d = ColumnDef::new(name, ty);
            d.collation = *collation;
            // A BLOB type result is described by its length in bytes.
            if bytes > MAX_VARCHAR_BYTES {
                d.display_width = Some(bytes);
            }
            d
        }
        Kind::Column(c) => {
            let mut d = c.clone();
            // A TEXT column's value as a result: described by its length
            // in bytes (MariaDB's Field_blob::max_display_length).
            if let (ColumnType::Text(size), None) = (&c.ty, c.display_width) {
                let bytes = size.max_bytes().saturating_mul(u64::from(c.collation.mbmaxlen()));
                d.display_width = Some(u32::try_from(bytes).unwrap_or(u32::MAX));
            }
            d.name = name.to_string();
            d.default = None;
            d.auto_increment = false;
            d.on_update_current_timestamp = false;
            d
        }
    };
    def.nullable = t.nullable;
    def
}

fn type_of(expr: &Expr, env: &TypeEnv<'_>) -> Option<Typed> {
    match expr {
        Expr::Literal(v) => literal(v, env.connection_collation),
        Expr::HexHybrid(bytes) => Some(hybrid_string(bytes.len())),
        Expr::Slot(i) => Some(column(&env.scope.get(*i)?.def)),
        Expr::Param(i) => Some(Typed { nullable: true, ..column(&env.facts.param_type(*i)?) }),
        Expr::UserVar(name) => Some(user_var(env.user_var(name), env.connection_collation)),
        Expr::AssignUserVar { value, .. } => assigned(type_of(value, env)?, env.connection_collation),
        Expr::SystemVar { scope, name } => Some(system_var(env.facts.system_var(*scope, name)?)),
        // CONVERT(text USING cs): as many characters, maybe NULL.
        Expr::Collate { expr, collation, explicit: false }
            if matches!(**expr, Expr::Cast { to: CastType::Char(None), .. }) =>
        {
            let Expr::Cast { expr: text, .. } = &**expr else { return None };
            let mut t = type_of(text, env)?;
            let Kind::Text { collation: c, .. } = &mut t.kind else { return None };
            *c = *collation;
            t.nullable = true;
            Some(t)
        }
        Expr::Collate { expr, collation, explicit } => {
            let mut t = type_of(expr, env)?;
            if let Kind::Text { collation: c, .. } = &mut t.kind {
                *c = *collation;
            }
            // MariaDB's COLLATE may be NULL whatever it applies to.
            t.nullable |= *explicit;
            Some(t)
        }
        Expr::Unary(UnaryOp::Neg, e) => negate(number_type(e, env)?),
        Expr::Unary(UnaryOp::Not, e) => Some(boolean(any_nullable([e.as_ref()], env))),
        Expr::Binary(op, l, r) if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) => {
            Some(boolean(*op != BinOp::NullSafeEq && any_nullable([l.as_ref(), r.as_ref()], env)))
        }
        Expr::Binary(BinOp::IntDiv, l, r) => int_div(number_type(l, env)?, number_type(r, env)?),
        // Bit operations are BIGINT UNSIGNED of 21 characters, all of them
        // digits to the arithmetic around them.
        Expr::Binary(BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::ShiftLeft | BinOp::ShiftRight, l, r) => {
            let kind = Kind::Int { digits: 21, len: 21, unsigned: true, declared: Some(ColumnType::BigInt) };
            Some(Typed { kind, nullable: any_nullable([l.as_ref(), r.as_ref()], env) })
        }
        Expr::Binary(op, l, r) => arithmetic(*op, number_type(l, env)?, number_type(r, env)?),
        Expr::IsNull { .. } | Expr::IsBool { .. } | Expr::Exists { .. } => Some(boolean(false)),
        Expr::Between { expr, low, high, .. } => {
            Some(boolean(any_nullable([expr.as_ref(), low.as_ref(), high.as_ref()], env)))
        }
        Expr::Like { expr, pattern, .. } => Some(boolean(any_nullable([expr.as_ref(), pattern.as_ref()], env))),
        Expr::InList { expr, list, .. } => {
            Some(boolean(any_nullable(std::iter::once(expr.as_ref()).chain(list.iter()), env)))
        }
        Expr::Case { whens, otherwise, .. } => {
            let mut branches: Vec<Typed> = whens.iter().map(|(_, then)| type_of(then, env)).collect::<Option<_>>()?;
            match otherwise {
                Some(e) => branches.push(type_of(e, env)?),
                None => branches.push(null_type()),
            }
            aggregate_types(&branches)
        }
        Expr::Aggregate { func, arg, .. } => aggregate_call(*func, arg.as_deref(), env),
        Expr::Window(call) => window_call(call, env),
        Expr::Cast { expr, to: CastType::Uuid } => Some(cast_uuid(expr, env)),
        // MariaDB casts a `0x..` literal as long as its number's digits.
        Expr::Cast { expr, to } => match number_type(expr, env)? {
            Typed { kind: Kind::Int { digits, unsigned, declared, .. }, nullable }
                if matches!(**expr, Expr::HexHybrid(_)) =>
            {
                let from = Typed { kind: Kind::Int { digits, len: digits, unsigned, declared }, nullable };
                cast(from, to, env.connection_collation)
            }
            from => cast(from, to, env.connection_collation),
        },
        Expr::Function { name, args } => match stored_function_returns(expr, env) {
            Some(def) => Some(column(&def)),
            None => function(name, args, env),
        },
        Expr::ScalarSubquery(query) => {
            let def = env.facts.subquery_column(query)?;
            Some(Typed { nullable: subquery_nullable(query, env), ..column(&def) })
        }
        _ => None,
    }
}

/// A `0x..` / `b'..'` literal of `bytes` bytes as a string: binary.
fn hybrid_string(bytes: usize) -> Typed {
    let chars = u32::try_from(bytes).unwrap_or(u32::MAX);
    Typed { kind: Kind::Text { chars, collation: Collation::Binary }, nullable: false }
}

/// An operand's type where a number is wanted: a `0x..` / `b'..'` literal
/// is an unsigned integer as long as its bytes are (as many digits as
/// their largest number has), anything else its own type.
fn number_type(expr: &Expr, env: &TypeEnv<'_>) -> Option<Typed> {
    let Expr::HexHybrid(bytes) = expr else { return type_of(expr, env) };
    let used = bytes.len().min(8);
    let largest = if used == 8 { u64::MAX } else { (1u64 << (8 * used)) - 1 };
    let digits = largest.to_string().len() as u32;
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    Some(Typed { kind: Kind::Int { digits, len, unsigned: true, declared: None }, nullable: false })
}

/// Whether any of `exprs` may be NULL; an expression not typed here yet
/// counts as nullable, since a comparison's own type does not depend on
/// its operands' types.
fn any_nullable<'a>(exprs: impl IntoIterator<Item = &'a Expr>, env: &TypeEnv<'_>) -> bool {
    exprs.into_iter().any(|e| match e {
        Expr::Tuple(items) => any_nullable(items, env),
        Expr::ScalarSubquery(query) => subquery_nullable(query, env),
        _ => type_of(e, env).is_none_or(|t| t.nullable),
    })
}

/// A subquery can be NULL when it may return no row (it reads a table or
/// has a condition) or its one column can; MariaDB counts a row subquery
/// that always returns its row as never NULL, whatever its columns.
fn subquery_nullable(query: &Select, env: &TypeEnv<'_>) -> bool {
    let always_one_row =
        query.from.is_empty() && query.selection.is_none() && query.having.is_none() && query.union.is_none();
    match query.items.as_slice() {
        _ if !always_one_row => true,
        [SelectItem::Expr { expr, .. }] => any_nullable([expr], env),
        [_] => true,
        _ => false,
    }
}

/// A comparison or logical result: INT(1).
fn boolean(nullable: bool) -> Typed {
    Typed { kind: Kind::Int { digits: 1, len: 1, unsigned: false, declared: None }, nullable }
}

/// A function result declared INT of display length `len`.
fn long(len: u32, nullable: bool) -> Typed {
    let kind = Kind::Int { digits: len.saturating_sub(1), len, unsigned: false, declared: Some(ColumnType::Int) };
    Typed { kind, nullable }
}

/// A function result declared BIGINT of display length 21 (20 unsigned digits).
fn longlong(unsigned: bool, nullable: bool) -> Typed {
    let kind = Kind::Int { digits: 20, len: 21, unsigned, declared: Some(ColumnType::BigInt) };
    Typed { kind, nullable }
}

fn text(chars: u32, nullable: bool) -> Typed {
    Typed { kind: Kind::Text { chars, collation: Collation::default() }, nullable }
}

/// Text in utf8mb3, MariaDB's system charset.
fn system_text(chars: u32, nullable: bool) -> Typed {
    Typed { kind: Kind::Text { chars, collation: Collation::Utf8mb3GeneralCi }, nullable }
}

/// NULL's type: it takes any other branch's type in an aggregation.
fn null_type() -> Typed {
    Typed { kind: Kind::Text { chars: 0, collation: Collation::Binary }, nullable: true }
}

fn is_null_literal(t: &Typed) -> bool {
    matches!(&t.kind, Kind::Text { chars: 0, collation: Collation::Binary }) && t.nullable
}

/// A user variable as MariaDB reads it (Item_func_get_user_var): by the
/// kind of value it holds, an integer as a BIGINT, a DECIMAL with 38
/// decimals, a string as a LONGTEXT (of the connection's collation: OneLog
/// keeps no variable's charset), NULL as a LONGBLOB, one byte longer when
/// the variable was never set.
fn user_var(value: Option<Value>, connection_collation: Collation) -> Typed {
    let kind = match value {
        Some(Value::Int(_)) => Kind::Int { digits: 19, len: 20, unsigned: false, declared: Some(ColumnType::BigInt) },
        Some(Value::UInt(_)) => Kind::Int { digits: 20, len: 20, unsigned: true, declared: Some(ColumnType::BigInt) },
        Some(Value::Double(_)) => Kind::Double,
        Some(Value::Decimal(_)) => {
            Kind::Decimal { precision: DECIMAL_MAX_POSSIBLE_PRECISION, scale: DECIMAL_MAX_SCALE, unsigned: false }
        }
        Some(Value::Null) => blob_kind(BlobSize::Long, MAX_BLOB_WIDTH - 1, Collation::Binary),
        None => blob_kind(BlobSize::Long, MAX_BLOB_WIDTH, Collation::Binary),
        Some(_) => blob_kind(BlobSize::Long, MAX_BLOB_WIDTH - 1, connection_collation),
    };
    Typed { kind, nullable: true }
}

/// `@v := value` as MariaDB types it (Item_func_set_user_var): as the
/// value, but a temporal, ENUM or SET value is a string as long as its
/// text. A TEXT or BLOB value is not typed here.
fn assigned(value: Typed, connection_collation: Collation) -> Option<Typed> {
    let Kind::Column(def) = &value.kind else { return Some(value) };
    let chars = match &def.ty {
        ColumnType::Year => {
            return Some(Typed { kind: Kind::Int { digits: 4, len: 4, unsigned: true, declared: None }, ..value })
        }
        ColumnType::Enum(labels) => labels.iter().map(|l| l.chars().count() as u32).max().unwrap_or(0),
        ColumnType::Set(members) => u32::try_from(onelog_core::set_value::set_max_chars(members)).ok()?,
        ty => temporal_chars(ty)?,
    };
    Some(Typed { kind: Kind::Text { chars, collation: connection_collation }, ..value })
}

/// A system variable as MariaDB reads it.
fn system_var(var: SystemVarType) -> Typed {
    let kind = match var {
        SystemVarType::Boolean => Kind::Int { digits: 1, len: 1, unsigned: false, declared: Some(ColumnType::BigInt) },
        SystemVarType::Integer { unsigned } => {
            Kind::Int { digits: 20, len: 21, unsigned, declared: Some(ColumnType::BigInt) }
        }
        SystemVarType::Double => {
            let mut def = ColumnDef::new("", ColumnType::Double);
            def.float_digits = Some(FloatDigits { digits: SYSTEM_VAR_DOUBLE_LENGTH, decimals: 6 });
            Kind::Column(def)
        }
        SystemVarType::Text { chars } => Kind::Text { chars, collation: Collation::Utf8mb3GeneralCi },
    };
    Typed { kind, nullable: true }
}

fn literal(v: &Value, connection_collation: Collation) -> Option<Typed> {
    let kind = match v {
        Value::Null => return Some(null_type()),
        Value::Int(i) => {
            let digits = i.unsigned_abs().to_string().len() as u32;
            Kind::Int { digits, len: digits + u32::from(*i < 0), unsigned: false, declared: None }
        }
        Value::UInt(u) => {
            let digits = u.to_string().len() as u32;
            Kind::Int { digits, len: digits, unsigned: true, declared: None }
        }
        Value::Decimal(d) => {
            let scale = d.scale();
            let int_digits = d.abs().trunc().to_string().trim_start_matches('0').len().max(1) as u32;
            Kind::Decimal { precision: int_digits + scale, scale, unsigned: false }
        }
        Value::Double(_) => Kind::Double,
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Kind::Text { chars: s.chars().count() as u32, collation: connection_collation },
            Err(_) => return None,
        },
        Value::Date(_) => Kind::Column(ColumnDef::new("", ColumnType::Date)),
        Value::DateTime(t) => Kind::Column(ColumnDef::new("", ColumnType::DateTime { fsp: fraction_digits(t.micros) })),
        Value::Time(us) => {
            let micros = (us.unsigned_abs() % 1_000_000) as u32;
            Kind::Column(ColumnDef::new("", ColumnType::Time { fsp: fraction_digits(micros) }))
        }
        Value::Uuid(_) => Kind::Column(ColumnDef::new("", ColumnType::Uuid)),
    };
    Some(Typed { kind, nullable: false })
}

/// The fractional-second digits a temporal literal shows (its trailing
/// zeros dropped; a literal's own digit count is not kept).
fn fraction_digits(micros: u32) -> u8 {
    if micros == 0 {
        return 0;
    }
    let mut digits = 6;
    let mut rest = micros;
    while rest.is_multiple_of(10) {
        rest /= 10;
        digits -= 1;
    }
    digits
}

fn column(def: &ColumnDef) -> Typed {
    let kind = match &def.ty {
        ColumnType::TinyInt | ColumnType::SmallInt | ColumnType::MediumInt | ColumnType::Int | ColumnType::BigInt => {
            let len = def.display_width().unwrap_or(20);
            let digits = match def.ty {
                ColumnType::TinyInt => 3,
                ColumnType::SmallInt => 5,
                ColumnType::MediumInt => 8,
                ColumnType::Int => 10,
                _ => 19 + u32::from(def.unsigned),
            };
            Kind::Int { digits, len, unsigned: def.unsigned, declared: Some(def.ty.clone()) }
        }
        ColumnType::Decimal { precision, scale } => {
            Kind::Decimal { precision: u32::from(*precision), scale: u32::from(*scale), unsigned: def.unsigned }
        }
        ColumnType::Char(n) | ColumnType::VarChar(n) => Kind::Text { chars: *n, collation: def.collation },
        // What `to_def` makes of NULL's type: a UNION part that is only
        // NULL takes the other parts' type.
        ColumnType::VarBinary(0) | ColumnType::Binary(0) if def.nullable => return null_type(),
        ColumnType::VarBinary(n) | ColumnType::Binary(n) => Kind::Text { chars: *n, collation: Collation::Binary },
        _ => Kind::Column(def.clone()),
    };
    Typed { kind, nullable: def.nullable }
}

fn negate(t: Typed) -> Option<Typed> {
    let kind = match t.kind {
        // One character more for the sign (MariaDB's Item_func_neg).
        Kind::Int { digits, len, .. } => Kind::Int { digits, len: len + 1, unsigned: false, declared: None },
        Kind::Decimal { precision, scale, .. } => Kind::Decimal { precision: precision + 1, scale, unsigned: false },
        // A DOUBLE one character longer than its argument's bytes (for the
        // sign); a string's negation is a DOUBLE too.
        ref k => {
            let mut def = ColumnDef::new("", ColumnType::Double);
            def.display_width = Some(real_operand_bytes(k)? + 1);
            Kind::Column(def)
        }
    };
    Some(Typed { kind, nullable: t.nullable })
}

/// Integer digits and scale of a numeric type, for DECIMAL arithmetic.
fn decimal_parts(k: &Kind) -> Option<(u32, u32, bool)> {
    match k {
        Kind::Int { digits, unsigned, .. } => Some((*digits, 0, *unsigned)),
        // MariaDB computes with at most 65 digits (Item::decimal_precision).
        Kind::Decimal { precision, scale, unsigned } => {
            Some(((*precision).min(DECIMAL_MAX_PRECISION).saturating_sub(*scale), *scale, *unsigned))
        }
        // BIT(n) computes as an unsigned number of n digits (MariaDB's
        // Field_bit length).
        Kind::Column(c) => match c.ty {
            ColumnType::Bit(bits) => Some((u32::from(bits), 0, true)),
            _ => None,
        },
        _ => None,
    }
}

fn arithmetic(op: BinOp, l: Typed, r: Typed) -> Option<Typed> {
    let nullable = l.nullable || r.nullable;
    let arithmetic = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod);
    if !arithmetic {
        return None;
    }
    // FLOAT, DOUBLE and strings compute in DOUBLE.
    if [&l, &r].iter().any(|t| is_double(&t.kind) || is_string(&t.kind)) {
        return Some(Typed { kind: Kind::Double, nullable });
    }
    let (li, ls, lu) = decimal_parts(&l.kind)?;
    let (ri, rs, ru) = decimal_parts(&r.kind)?;
    // An integer result is unsigned when an operand is (MOD: when the
    // dividend is); a DECIMAL one only when both are.
    let unsigned = match op {
        _ if ls > 0 || rs > 0 || op == BinOp::Div => lu && ru,
        BinOp::Mod => lu,
        _ => lu || ru,
    };
    let (int_digits, scale) = match op {
        BinOp::Add | BinOp::Sub => (li.max(ri) + 1, ls.max(rs)),
        BinOp::Mul => (li + ri, ls + rs),
        // MariaDB: the dividend's integer digits plus the divisor's scale.
        BinOp::Div => (li + rs, ls + u32::from(DIV_PRECISION_INCREMENT)),
        // MOD: as wide as the wider operand.
        _ => (li.max(ri), ls.max(rs)),
    };
    // Division by zero yields NULL whatever the operands.
    let nullable = nullable || matches!(op, BinOp::Div | BinOp::Mod);
    let all_int = ls == 0 && rs == 0 && op != BinOp::Div;
    // A product's and a quotient's precision stop at 65 digits, a sum's
    // and a remainder's do not (Item_func_*::result_precision).
    let precision = match op {
        BinOp::Mul | BinOp::Div => (int_digits + scale).min(DECIMAL_MAX_PRECISION),
        _ => int_digits + scale,
    };
    let kind = if all_int {
        Kind::Int { digits: int_digits, len: int_digits + u32::from(!unsigned), unsigned, declared: None }
    } else {
        Kind::Decimal { precision, scale, unsigned }
    };
    Some(Typed { kind, nullable })
}

/// An integer type's place from TINYINT to BIGINT: branches of integer
/// types aggregate into the widest (MariaDB's type handler aggregation).
fn int_rank(ty: &ColumnType) -> u8 {
    match ty {
        ColumnType::TinyInt => 0,
        ColumnType::SmallInt => 1,
        ColumnType::MediumInt => 2,
        ColumnType::Int => 3,
        _ => 4,
    }
}

/// IF / IFNULL / COALESCE / CASE / UNION: the type that holds every branch.
fn aggregate_types(branches: &[Typed]) -> Option<Typed> {
    let nullable = branches.iter().any(|b| b.nullable);
    let typed: Vec<&Typed> = branches.iter().filter(|b| !is_null_literal(b)).collect();
    let Some(first) = typed.first() else { return Some(null_type()) };
    if typed.iter().all(|t| t.kind == first.kind) {
        return Some(Typed { kind: first.kind.clone(), nullable });
    }
    if typed.iter().any(|t| text_collation(&t.kind).is_some()) {
        // Mixed text and numbers: text as long as the longest branch shown.
        // A binary branch makes the result binary, as long as the longest
        // branch's bytes.
        let binary = typed.iter().any(|t| text_collation(&t.kind) == Some(Collation::Binary));
        let collation = match binary {
            true => Collation::Binary,
            false => typed.iter().find_map(|t| text_collation(&t.kind)).unwrap_or_default(),
        };
        let length = |k: &Kind| Some(display_chars(k)?.saturating_mul(if binary { text_mbmaxlen(k) } else { 1 }));
        let chars = typed.iter().map(|t| length(&t.kind)).collect::<Option<Vec<u32>>>()?.into_iter().max()?;
        if typed
            .iter()
            .any(|t| matches!(&t.kind, Kind::Column(ColumnDef { ty: ColumnType::Text(_) | ColumnType::Blob(_), .. })))
        {
            return Some(Typed { kind: blob_of_length(chars, collation), nullable });
        }
        return Some(Typed { kind: Kind::Text { chars, collation }, nullable });
    }
    if typed.iter().any(|t| matches!(t.kind, Kind::Double)) {
        return typed
            .iter()
            .all(|t| decimal_parts(&t.kind).is_some() || t.kind == Kind::Double)
            .then_some(Typed { kind: Kind::Double, nullable });
    }
    let parts = typed.iter().map(|t| decimal_parts(&t.kind)).collect::<Option<Vec<_>>>()?;
    let int_digits = parts.iter().map(|p| p.0).max()?;
    let scale = parts.iter().map(|p| p.1).max()?;
    let unsigned = parts.iter().all(|p| p.2);
    let kind = if scale == 0 {
        let ints = || {
            typed.iter().filter_map(|t| {
                if let Kind::Int { len, declared, .. } = &t.kind {
                    Some((*len, declared))
                } else {
                    None
                }
            })
        };
        let len = ints().map(|(len, _)| len).max()?;
        // The widest branch's integer type (a constant's by its length).
        let declared = ints()
            .map(|(len, declared)| declared.clone().unwrap_or_else(|| int_type_for_length(len)))
            .max_by_key(int_rank);
        Kind::Int { digits: int_digits, len, unsigned, declared }
    } else {
        Kind::Decimal { precision: (int_digits + scale).min(DECIMAL_MAX_PRECISION), scale, unsigned }
    };
    Some(Typed { kind, nullable })
}

/// A branch of a TEXT or BLOB type makes an aggregate of BLOB type, the
/// smallest that holds `chars` characters (MariaDB's
/// Type_handler::blob_type_handler), described by its length in bytes.
fn blob_of_length(chars: u32, collation: Collation) -> Kind {
    let bytes = chars.saturating_mul(collation.mbmaxlen());
    let size = match bytes {
        0..=255 => BlobSize::Tiny,
        256..=65_535 => BlobSize::Normal,
        65_536..=16_777_215 => BlobSize::Medium,
        _ => BlobSize::Long,
    };
    blob_kind(size, bytes, collation)
}

/// A BLOB (binary) or TEXT result of `size`, described as `width_bytes`
/// long.
fn blob_kind(size: BlobSize, width_bytes: u32, collation: Collation) -> Kind {
    let ty = if collation == Collation::Binary { ColumnType::Blob(size) } else { ColumnType::Text(size) };
    Kind::Column(ColumnDef { display_width: Some(width_bytes), collation, ..ColumnDef::new("", ty) })
}

/// Bytes per character of a text kind (1 for numbers shown as text).
fn text_mbmaxlen(k: &Kind) -> u32 {
    text_collation(k).map_or(1, |c| c.mbmaxlen())
}

/// The collation of a text kind: text, or a TEXT or BLOB column's.
fn text_collation(k: &Kind) -> Option<Collation> {
    match k {
        Kind::Text { collation, .. } => Some(*collation),
        Kind::Column(ColumnDef { ty: ColumnType::Text(_), collation, .. }) => Some(*collation),
        Kind::Column(ColumnDef { ty: ColumnType::Blob(_), .. }) => Some(Collation::Binary),
        _ => None,
    }
}

/// The fractional second digits a time read from `e` carries: a string
/// literal's own, a number's scale, a temporal column's precision.
fn time_precision(e: &Expr, env: &TypeEnv) -> Option<u32> {
    let digits = match e {
        Expr::Literal(Value::Null) => 0,
        Expr::Literal(Value::Bytes(b)) => {
            let text = std::str::from_utf8(b).ok()?;
            text.split_once('.').map_or(0, |(_, fraction)| fraction.bytes().take_while(u8::is_ascii_digit).count())
                as u32
        }
        _ => match type_of(e, env)?.kind {
            Kind::Int { .. } => 0,
            Kind::Decimal { scale, .. } => scale,
            Kind::Column(c) => match c.ty {
                ColumnType::Date => 0,
                ColumnType::Time { fsp } | ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp } => {
                    u32::from(fsp)
                }
                _ => return None,
            },
            _ => return None,
        },
    };
    Some(digits.min(6))
}

/// The display length of a temporal type's values (`None` for the others).
fn temporal_chars(ty: &ColumnType) -> Option<u32> {
    let with_fraction = |base: u32, fsp: u8| base + if fsp > 0 { u32::from(fsp) + 1 } else { 0 };
    match ty {
        ColumnType::Date => Some(10),
        ColumnType::Year => Some(4),
        ColumnType::Time { fsp } => Some(with_fraction(10, *fsp)),
        ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp } => Some(with_fraction(19, *fsp)),
        _ => None,
    }
}

/// How many characters a value of this type shows as text.
fn display_chars(k: &Kind) -> Option<u32> {
    Some(match k {
        // A TEXT or BLOB column: as many characters as it holds bytes, up
        // to 4 GiB of them (MariaDB's Field_blob::max_display_length).
        Kind::Column(ColumnDef { ty: ColumnType::Text(size) | ColumnType::Blob(size), .. }) => {
            u32::try_from(size.max_bytes()).unwrap_or(u32::MAX).min(u32::MAX / text_mbmaxlen(k))
        }
        Kind::Int { len, .. } => *len,
        Kind::Decimal { precision, scale, unsigned } => precision + u32::from(*scale > 0) + u32::from(!unsigned),
        Kind::Double => DOUBLE_ITEM_LENGTH,
        Kind::Text { chars, .. } => *chars,
        k if is_double(k) => DOUBLE_ITEM_LENGTH,
        Kind::Column(c) if c.ty == ColumnType::Uuid => onelog_core::uuid::UUID_TEXT_CHARS,
        Kind::Column(c) => return temporal_chars(&c.ty),
    })
}

/// The display length in bytes of an operand that arithmetic reads as a
/// DOUBLE: a DOUBLE result, a FLOAT / DOUBLE column without its own
/// decimals, or a string of limited length.
fn real_operand_bytes(k: &Kind) -> Option<u32> {
    match k {
        Kind::Double => Some(DOUBLE_ITEM_LENGTH),
        Kind::Column(c) if is_double(k) && c.float_digits.is_none() => c.display_width(),
        Kind::Text { chars, collation } => Some(chars.saturating_mul(collation.mbmaxlen())),
        _ => None,
    }
}

/// Text or a binary string, of any length (arithmetic reads it as a DOUBLE).
fn is_string(k: &Kind) -> bool {
    match k {
        Kind::Text { .. } => true,
        Kind::Column(c) => matches!(c.ty, ColumnType::Text(_) | ColumnType::Blob(_)),
        _ => false,
    }
}

/// A DOUBLE result, or a FLOAT / DOUBLE column.
fn is_double(k: &Kind) -> bool {
    match k {
        Kind::Double => true,
        Kind::Column(c) => matches!(c.ty, ColumnType::Double | ColumnType::Float),
        _ => false,
    }
}

fn aggregate_call(func: AggFunc, arg: Option<&Expr>, env: &TypeEnv<'_>) -> Option<Typed> {
    if func == AggFunc::Count {
        return Some(longlong(false, false));
    }
    let arg = type_of(arg?, env)?;
    let kind = match func {
        AggFunc::Min | AggFunc::Max => arg.kind,
        AggFunc::BitAnd | AggFunc::BitOr | AggFunc::BitXor => return Some(longlong(true, false)),
        AggFunc::StdPop | AggFunc::StdSamp | AggFunc::VarPop | AggFunc::VarSamp => variance_kind(&arg.kind)?,
        AggFunc::Sum => match decimal_parts(&arg.kind) {
            Some((int_digits, scale, _)) => {
                let precision = (int_digits + scale + SUM_EXTRA_DIGITS).min(DECIMAL_MAX_PRECISION);
                Kind::Decimal { precision, scale, unsigned: false }
            }
            None if arg.kind == Kind::Double => Kind::Double,
            None => return None,
        },
        AggFunc::Avg => match decimal_parts(&arg.kind) {
            Some((int_digits, scale, _)) => {
                let extra = u32::from(DIV_PRECISION_INCREMENT);
                Kind::Decimal { precision: int_digits + scale + extra, scale: scale + extra, unsigned: false }
            }
            None if arg.kind == Kind::Double => Kind::Double,
            None => return None,
        },
        _ => return None,
    };
    Some(Typed { kind, nullable: true })
}

/// STD / VARIANCE of an exact (integer or DECIMAL) argument: a DOUBLE shown
/// with the argument's scale + 4 decimals (at most 30), as wide as a
/// DECIMAL of twice the argument's precision + 4 digits
/// (Item_sum_variance::fix_length_and_dec_decimal). Of a DOUBLE argument:
/// not derived here yet.
fn variance_kind(arg: &Kind) -> Option<Kind> {
    let (int_digits, scale, _) = decimal_parts(arg)?;
    let decimals = (scale + VARIANCE_EXTRA_DECIMALS).min(VARIANCE_MAX_DECIMALS);
    let precision = (int_digits + scale) * 2 + VARIANCE_EXTRA_DECIMALS;
    // A sign and a decimal point besides the digits.
    let len = precision + 1 + u32::from(decimals > 0);
    let mut def = ColumnDef::new("", ColumnType::Double);
    def.float_digits = Some(FloatDigits { digits: u8::try_from(len).ok()?, decimals: u8::try_from(decimals).ok()? });
    Some(Kind::Column(def))
}

fn window_call(call: &WindowCall, env: &TypeEnv<'_>) -> Option<Typed> {
    let args = call.args.as_slice();
    match call.func {
        WindowFunc::RowNumber | WindowFunc::Rank | WindowFunc::DenseRank | WindowFunc::Ntile => {
            Some(longlong(false, false))
        }
        WindowFunc::Aggregate(f) => aggregate_call(f, args.first(), env),
        WindowFunc::Lag | WindowFunc::Lead | WindowFunc::FirstValue | WindowFunc::LastValue | WindowFunc::NthValue => {
            Some(Typed { nullable: true, ..type_of(args.first()?, env)? })
        }
        // Item_sum_num's length for no argument decimals (DBL_DIG + 2),
        // shown with the 10 decimals these functions set.
        WindowFunc::PercentRank | WindowFunc::CumeDist => Some(Typed { kind: fixed_double(17, 10)?, nullable: true }),
        // Item_sum_num's length for its argument's decimals (DBL_DIG + 2 +
        // decimals; DBL_DIG + 8 past FLOATING_POINT_DECIMALS), 10 shown.
        WindowFunc::PercentileCont => {
            let decimals = match type_of(args.first()?, env)?.kind {
                Kind::Int { .. } => 0,
                Kind::Decimal { scale, .. } => scale,
                _ => FLOATING_POINT_DECIMALS,
            };
            let len = if decimals < FLOATING_POINT_DECIMALS { 17 + decimals } else { 23 };
            Some(Typed { kind: fixed_double(len, 10)?, nullable: true })
        }
        // The key itself.
        WindowFunc::PercentileDisc => Some(Typed { nullable: true, ..type_of(&call.order_by.first()?.expr, env)? }),
    }
}

/// A DOUBLE of display length `len` shown with `decimals` fixed decimals.
fn fixed_double(len: u32, decimals: u32) -> Option<Kind> {
    let mut def = ColumnDef::new("", ColumnType::Double);
    def.float_digits = Some(FloatDigits { digits: u8::try_from(len).ok()?, decimals: u8::try_from(decimals).ok()? });
    Some(Kind::Column(def))
}

/// MariaDB's MY_INT64_NUM_DECIMAL_DIGITS: the most digits `DIV` is
/// described with.
const INT64_NUM_DECIMAL_DIGITS: u32 = 21;
/// The most characters a CAST to an integer type is described with.
const CAST_INT_MAX_CHARS: u32 = INT64_NUM_DECIMAL_DIGITS - 1;
/// The longest unsigned integer result described as INT, not BIGINT.
const UINT32_MAX_CHARS: u32 = 10;

fn cast(from: Typed, to: &CastType, connection_collation: Collation) -> Option<Typed> {
    let nullable = from.nullable;
    let kind = match to {
        // As long as asked, or as the argument shows; text in the
        // connection's collation, bytes as many as the argument's;
        // nullable whatever the argument (Item_char_typecast).
        CastType::Char(chars) => {
            let chars = chars.or_else(|| display_chars(&from.kind))?;
            return Some(Typed { kind: Kind::Text { chars, collation: connection_collation }, nullable: true });
        }
        CastType::Binary(bytes) => {
            let shown = || Some(display_chars(&from.kind)?.saturating_mul(text_mbmaxlen(&from.kind)));
            let bytes = bytes.or_else(shown)?;
            return Some(Typed { kind: Kind::Text { chars: bytes, collation: Collation::Binary }, nullable: true });
        }
        // As long as the argument is shown, at least a digit and a sign.
        CastType::Signed => {
            let len = display_chars(&from.kind)?.clamp(2, CAST_INT_MAX_CHARS);
            Kind::Int { digits: len, len, unsigned: false, declared: None }
        }
        // An argument that may be negative becomes a full BIGINT UNSIGNED
        // (-1 is 18446744073709551615); one that cannot keeps its length.
        CastType::Unsigned => {
            let len = if never_negative(&from.kind) {
                display_chars(&from.kind)?.clamp(1, CAST_INT_MAX_CHARS)
            } else {
                CAST_INT_MAX_CHARS
            };
            let declared = if len <= UINT32_MAX_CHARS { ColumnType::Int } else { ColumnType::BigInt };
            Kind::Int { digits: len, len, unsigned: true, declared: Some(declared) }
        }
        CastType::Decimal { precision, scale } => {
            Kind::Decimal { precision: u32::from(*precision), scale: u32::from(*scale), unsigned: false }
        }
        // Nullable whatever the argument (Item_double_typecast); 22
        // characters (DBL_DIG + 7) unless M says otherwise.
        CastType::Double(digits) => {
            let (len, decimals) =
                digits.map_or((22, FLOATING_POINT_DECIMALS), |d| (d.digits.into(), d.decimals.into()));
            return Some(Typed { kind: fixed_double(len, decimals)?, nullable: true });
        }
        // A text that is no date casts to NULL, so these are nullable.
        CastType::Date => return Some(temporal(ColumnType::Date)),
        CastType::DateTime(fsp) => return Some(temporal(ColumnType::DateTime { fsp: *fsp })),
        CastType::Time(fsp) => return Some(temporal(ColumnType::Time { fsp: *fsp })),
        _ => return None,
    };
    Some(Typed { kind, nullable })
}

/// CAST(expr AS UUID): NULL unless `expr` is a non-NULL UUID or a literal
/// that converts (a string that is no UUID casts to NULL).
fn cast_uuid(expr: &Expr, env: &TypeEnv<'_>) -> Typed {
    let nullable = match expr {
        Expr::Literal(Value::Bytes(b)) => Uuid::from_binary(b).or_else(|| Uuid::parse_text(b)).is_none(),
        e => type_of(e, env)
            .is_none_or(|t| t.nullable || !matches!(&t.kind, Kind::Column(c) if c.ty == ColumnType::Uuid)),
    };
    Typed { kind: Kind::Column(ColumnDef::new("", ColumnType::Uuid)), nullable }
}

/// An unsigned type, or an integer shown without a sign (a literal 5).
fn never_negative(k: &Kind) -> bool {
    match k {
        Kind::Int { unsigned, digits, len, .. } => *unsigned || digits == len,
        Kind::Decimal { unsigned, .. } => *unsigned,
        _ => false,
    }
}

/// `a DIV b`: as many digits as the dividend's integer part (a string's
/// length), always nullable (division by zero), unsigned if either is.
fn int_div(l: Typed, r: Typed) -> Option<Typed> {
    let digits = match &l.kind {
        Kind::Text { chars, .. } => *chars,
        k if is_double(k) => INT64_NUM_DECIMAL_DIGITS,
        k => decimal_parts(k)?.0,
    }
    .min(INT64_NUM_DECIMAL_DIGITS);
    let is_unsigned = |t: &Typed| decimal_parts(&t.kind).is_some_and(|p| p.2);
    let unsigned = is_unsigned(&l) || is_unsigned(&r);
    Some(Typed { kind: Kind::Int { digits, len: digits, unsigned, declared: None }, nullable: true })
}

fn function(name: &str, args: &[Expr], env: &TypeEnv<'_>) -> Option<Typed> {
    let numbers = crate::eval::takes_numbers(name);
    let arg = |i: usize| args.get(i).and_then(|a| if numbers { number_type(a, env) } else { type_of(a, env) });
    let all = || args.iter().map(|a| type_of(a, env)).collect::<Option<Vec<Typed>>>();
    let any_null = || Some(all()?.iter().any(|t| t.nullable));
    match name {
        "ifnull" | "nvl" => {
            let (a, b) = (arg(0)?, arg(1)?);
            let nullable = b.nullable;
            Some(Typed { nullable, ..aggregate_types(&[a, b])? })
        }
        "coalesce" => {
            let args = all()?;
            let nullable = args.iter().all(|t| t.nullable);
            Some(Typed { nullable, ..aggregate_types(&args)? })
        }
        "if" => aggregate_types(&[arg(1)?, arg(2)?]),
        // Nullable whatever its arguments: past max_allowed_packet it is NULL.
        "concat" => {
            let typed = all()?;
            let chars = typed.iter().map(|t| display_chars(&t.kind).map(u64::from)).sum::<Option<u64>>()?;
            Some(text_result(chars, string_collation(args.iter().zip(&typed), env)))
        }
        "concat_ws" | "replace" | "repeat" | "lpad" | "rpad" | "insert" | "substring" | "substr" | "mid" | "elt"
        | "quote" => string_function(name, args, env),
        // Text in the connection's charset (MariaDB's default_charset()).
        "space" => {
            let chars = args.first().and_then(constant_count).map_or(MAX_BLOB_BYTES, |n| n.clamp(0, MAX_BLOB_BYTES));
            Some(text_result(chars as u64, env.connection_collation))
        }
        "format" => format(args, env),
        "upper" | "ucase" | "lower" | "lcase" | "trim" | "ltrim" | "rtrim" | "reverse" => {
            let a = arg(0)?;
            let chars = display_chars(&a.kind)?;
            let collation = text_collation(&a.kind).unwrap_or_default();
            // Case mapping may lengthen its text, so it is capped as
            // CONCAT's result is; the others keep their argument's length.
            match name {
                "upper" | "ucase" | "lower" | "lcase" => {
                    let capped = text_result(u64::from(chars), collation);
                    Some(Typed { nullable: a.nullable || matches!(capped.kind, Kind::Column(_)), ..capped })
                }
                _ => Some(Typed { kind: Kind::Text { chars, collation }, nullable: a.nullable }),
            }
        }
        // As long as the string, or as the count when it is a constant;
        // nullable whatever the arguments, in MariaDB's metadata.
        "left" | "right" => {
            let a = arg(0)?;
            let chars = display_chars(&a.kind)?;
            let chars = match args.get(1) {
                Some(Expr::Literal(Value::Int(count))) => chars.min(u32::try_from((*count).max(0)).unwrap_or(u32::MAX)),
                Some(Expr::Literal(Value::UInt(count))) => chars.min(u32::try_from(*count).unwrap_or(u32::MAX)),
                _ => chars,
            };
            let collation = text_collation(&a.kind).unwrap_or_default();
            Some(Typed { kind: Kind::Text { chars, collation }, nullable: true })
        }
        // As long as the string, and nullable whatever the arguments.
        "substring_index" => Some(Typed { nullable: true, ..arg(0)? }),
        // Base64 of the argument's bytes (4 characters per 3 bytes and a
        // line break per 76), in the connection's charset; and back, bytes.
        "to_base64" => {
            let a = arg(0)?;
            let data_bytes = display_chars(&a.kind)?.saturating_mul(text_mbmaxlen(&a.kind));
            let encoded = data_bytes.div_ceil(3) * 4;
            Some(text(encoded + encoded / 76, true))
        }
        // Two hex digits per byte of a string (a temporal value is its
        // string); a signed number is a 64-bit integer (16 digits), an
        // unsigned one is sized by its display length, as MariaDB sizes them.
        "hex" => {
            let a = arg(0)?;
            let data_bytes = match &a.kind {
                Kind::Int { unsigned: true, len, .. } => *len,
                Kind::Int { .. } | Kind::Decimal { .. } | Kind::Double => 8,
                k if is_double(k) => 8,
                Kind::Column(c) if text_collation(&a.kind).is_none() => temporal_chars(&c.ty)?,
                k => display_chars(k)?.saturating_mul(text_mbmaxlen(k)),
            };
            Some(text_result(u64::from(data_bytes) * 2, env.connection_collation))
        }
        // As long as max_allowed_packet's default: a longer file is NULL.
        "load_file" => Some(Typed {
            kind: Kind::Text { chars: LOAD_FILE_MAX_BYTES, collation: Collation::Binary },
            nullable: true,
        }),
        "from_base64" => {
            let a = arg(0)?;
            let text_bytes = display_chars(&a.kind)?.saturating_mul(text_mbmaxlen(&a.kind));
            Some(Typed { kind: Kind::Text { chars: text_bytes / 4 * 3, collation: Collation::Binary }, nullable: true })
        }
        // At least four characters, as long as the argument otherwise;
        // nullable whatever the argument, in MariaDB's metadata.
        "soundex" => {
            let a = arg(0)?;
            let chars = display_chars(&a.kind)?.max(4);
            let collation = text_collation(&a.kind).unwrap_or_default();
            Some(Typed { kind: Kind::Text { chars, collation }, nullable: true })
        }
        "length" | "octet_length" | "char_length" | "character_length" => Some(long(10, any_null()?)),
        // A BIGINT of display length 11 in MariaDB (Item_func_bit_length).
        "bit_length" => Some(Typed {
            kind: Kind::Int { digits: 10, len: 11, unsigned: false, declared: Some(ColumnType::BigInt) },
            nullable: any_null()?,
        }),
        // Seconds with the argument's fractional digits: a BIGINT without
        // any, else a DECIMAL (Item_func_time_to_sec).
        "time_to_sec" => {
            let kind = match time_precision(args.first()?, env)? {
                0 => Kind::Int { digits: 16, len: 17, unsigned: false, declared: Some(ColumnType::BigInt) },
                digits => Kind::Decimal { precision: 16 + digits, scale: digits, unsigned: false },
            };
            Some(Typed { kind, nullable: true })
        }
        // Parts of a date: NULL for a string that is not one, whatever the
        // argument's nullability.
        "year" => Some(long(4, true)),
        "month" | "day" | "dayofmonth" | "hour" | "minute" | "second" | "week" | "quarter" | "weekofyear" => {
            Some(long(2, true))
        }
        "dayofweek" | "weekday" => Some(long(1, true)),
        "microsecond" => Some(long(6, true)),
        // Binary strings: UNHEX's bytes are half its argument's bytes;
        // CHAR() gives up to 4 bytes per argument (without USING).
        "unhex" => {
            let a = arg(0)?;
            let bytes = display_chars(&a.kind)?.saturating_mul(text_mbmaxlen(&a.kind));
            Some(Typed { kind: Kind::Text { chars: bytes.div_ceil(2), collation: Collation::Binary }, nullable: true })
        }
        "char" => Some(Typed {
            kind: Kind::Text { chars: 4 * args.len() as u32, collation: Collation::Binary },
            nullable: true,
        }),
        "ascii" => Some(long(3, arg(0)?.nullable)),
        "ord" => Some(long(7, arg(0)?.nullable)),
        // NOT NULL in MariaDB's metadata although a NULL count gives NULL.
        "benchmark" => Some(long(1, false)),
        "dayofyear" => Some(long(3, true)),
        "yearweek" => Some(long(6, true)),
        "period_add" | "period_diff" => Some(long(6, any_null()?)),
        "strcmp" => Some(long(2, any_null()?)),
        "interval" => Some(long(2, false)),
        "is_ipv4" | "is_ipv6" | "is_ipv4_mapped" | "is_ipv4_compat" | "json_valid" => Some(long(1, any_null()?)),
        "json_contains" | "json_contains_path" => Some(long(1, true)),
        "json_length" | "json_depth" => Some(long(10, true)),
        "timestampdiff" => Some(longlong(false, true)),
        "extract" => extract(args.first()?, arg(1)),
        "inet_aton" => Some(longlong(true, true)),
        "nullif" => Some(Typed { nullable: true, ..arg(0)? }),
        "mod" => arithmetic(BinOp::Mod, arg(0)?, arg(1)?),
        "last_insert_id" => Some(longlong(true, false)),
        // MariaDB's Item_func_rownum is 21 digits long, not 20.
        "rownum" => Some(Typed {
            kind: Kind::Int { digits: 21, len: 21, unsigned: true, declared: Some(ColumnType::BigInt) },
            nullable: true,
        }),
        "found_rows" | "row_count" => Some(longlong(false, false)),
        // ABS keeps its argument's length, with INT or BIGINT by it.
        "abs" => match arg(0)? {
            Typed { kind: Kind::Int { digits, len, unsigned, .. }, nullable } => {
                Some(Typed { kind: Kind::Int { digits, len, unsigned, declared: None }, nullable })
            }
            t => matches!(t.kind, Kind::Decimal { .. } | Kind::Double).then_some(t),
        },
        // The server's own names are utf8mb3 (see `eval::is_system_constant`).
        "database" | "schema" | "charset" | "collation" => Some(system_text(64, true)),
        // A role name (MariaDB's USERNAME_CHAR_LENGTH).
        "current_role" => Some(system_text(128, true)),
        // `user@host`: USERNAME_CHAR_LENGTH + HOSTNAME_LENGTH + 1.
        "user" | "current_user" | "session_user" | "system_user" => Some(system_text(384, true)),
        "coercibility" => Some(long(10, false)),
        // `a REGEXP b` (NOT REGEXP is NOT over it): a boolean.
        "regexp" => Some(boolean(any_null()?)),
        "get_lock" | "release_lock" | "is_free_lock" => Some(long(1, true)),
        // A connection id (Item_func_is_used_lock).
        "is_used_lock" => Some(long(10, true)),
        "release_all_locks" => Some(Typed {
            kind: Kind::Int { digits: 11, len: 11, unsigned: true, declared: Some(ColumnType::Int) },
            nullable: false,
        }),
        "connection_id" => Some(Typed {
            kind: Kind::Int { digits: 10, len: 10, unsigned: true, declared: Some(ColumnType::Int) },
            nullable: false,
        }),
        "version" => Some(system_text(crate::vars::SERVER_VERSION.chars().count() as u32, false)),
        "round" | "truncate" => round(arg(0)?, args.get(1), name == "truncate"),
        "floor" | "ceiling" | "ceil" => floor(arg(0)?),
        "sign" => Some(long(2, arg(0)?.nullable)),
        "locate" | "position" | "instr" => Some(long(11, any_null()?)),
        // Invalid dates make NULL whatever the arguments.
        "datediff" => Some(long(8, true)),
        "date" | "last_day" => Some(temporal(ColumnType::Date)),
        "date_add" | "date_sub" => date_add(arg(0)?, args.get(2)),
        // The statement's clock: never NULL, with the asked-for digits.
        "now" | "current_timestamp" | "localtime" | "localtimestamp" | "sysdate" | "utc_timestamp" => {
            Some(clock(ColumnType::DateTime { fsp: clock_fsp(args)? }))
        }
        "curtime" | "current_time" | "utc_time" => Some(clock(ColumnType::Time { fsp: clock_fsp(args)? })),
        "curdate" | "current_date" | "utc_date" => Some(clock(ColumnType::Date)),
        // SEC_TO_TIME keeps a number's fractional digits (6 for a double or a string).
        "sec_to_time" => {
            let fsp = match arg(0)?.kind {
                k if is_double(&k) || is_string(&k) => 6,
                k => decimal_parts(&k).map_or(6, |(_, scale, _)| scale.min(6)),
            };
            Some(temporal(ColumnType::Time { fsp: fsp as u8 }))
        }
        // TIMESTAMP(datetime [, time]): the larger of their fractional digits.
        "timestamp" => {
            let datetime_fsp = temporal_fsp(args.first()?, arg(0)).unwrap_or(6);
            let time_fsp = match args.get(1) {
                Some(time) => temporal_fsp(time, arg(1)).unwrap_or(6),
                None => 0,
            };
            Some(temporal(ColumnType::DateTime { fsp: datetime_fsp.max(time_fsp) }))
        }
        "convert_tz" => {
            let fsp = temporal_fsp(args.first()?, arg(0))?;
            Some(temporal(ColumnType::DateTime { fsp }))
        }
        "unix_timestamp" => match args.first() {
            None => Some(unix_seconds(0)),
            Some(a) => Some(unix_seconds(temporal_fsp(a, arg(0))?)),
        },
        _ => None,
    }
}

/// NOW() and its kin: their type, never NULL.
/// The longest text MariaDB types a result as (MAX_BLOB_WIDTH bytes):
/// a LONGTEXT.
const MAX_BLOB_BYTES: i64 = u32::MAX as i64;

/// FORMAT's decimals when they are not a constant (FORMAT_MAX_DECIMALS).
const FORMAT_MAX_DECIMALS: u64 = 38;

/// The integer digits FORMAT makes room for with a DOUBLE or a string:
/// DBL_MAX's 309 and a sign.
const FORMAT_DOUBLE_INT_DIGITS: u64 = 310;

/// A count or position argument that is a constant, as MariaDB's
/// fix_length_and_dec reads it: NULL counts as 0 (the result is empty);
/// `None` when the argument is not a constant.
fn constant_count(e: &Expr) -> Option<i64> {
    match e {
        Expr::Literal(Value::Int(n)) => Some(*n),
        Expr::Literal(Value::UInt(n)) => Some(i64::try_from(*n).unwrap_or(i64::MAX)),
        Expr::Literal(Value::Null) => Some(0),
        Expr::Unary(UnaryOp::Neg, inner) => constant_count(inner).map(i64::saturating_neg),
        _ => None,
    }
}

/// Text of at most `chars` characters in `collation`, a LONGTEXT past
/// MAX_BLOB_WIDTH bytes; nullable, as MariaDB's string functions are
/// (past max_allowed_packet they return NULL).
fn text_result(chars: u64, collation: Collation) -> Typed {
    // MariaDB's fix_char_length_ulonglong: a result of MAX_BLOB_WIDTH
    // bytes or more is a LONGTEXT of exactly that length.
    if chars.saturating_mul(u64::from(collation.mbmaxlen())) >= u64::from(MAX_BLOB_WIDTH) {
        return Typed { kind: blob_kind(BlobSize::Long, MAX_BLOB_WIDTH, collation), nullable: true };
    }
    let chars = u32::try_from(chars).unwrap_or(u32::MAX);
    Typed { kind: Kind::Text { chars, collation }, nullable: true }
}

/// The collation of a string function's result: its text arguments'
/// collations aggregated by derivation as MariaDB's
/// agg_arg_charsets_for_string_result does (numbers convert to any
/// collation, NULL yields to anything but is binary by itself); the
/// connection's when no argument is text. Takes each argument with its
/// type, already worked out (typing one twice per level of nesting would
/// make nested calls cost exponential time).
fn string_collation<'e>(args: impl IntoIterator<Item = (&'e Expr, &'e Typed)>, env: &TypeEnv<'_>) -> Collation {
    let mut null_only = false;
    let derived = args.into_iter().filter_map(|(a, typed)| match typed {
        t if is_null_literal(t) => {
            null_only = true;
            None
        }
        Typed { kind, .. } if text_collation(kind).is_some() => {
            Some((text_collation(kind)?, crate::eval::expr_collation(a).1))
        }
        _ => None,
    });
    match derived.reduce(crate::eval::aggregate_step) {
        Some((collation, _)) => collation,
        None if null_only => Collation::Binary,
        None => env.connection_collation,
    }
}

/// The length MariaDB gives string functions whose length follows their
/// arguments' (Item_func_*::fix_length_and_dec in item_strfunc.cc). A
/// count that is not a constant makes a LONGTEXT.
fn string_function(name: &str, args: &[Expr], env: &TypeEnv<'_>) -> Option<Typed> {
    let typed: Vec<Option<Typed>> = args.iter().map(|a| type_of(a, env)).collect();
    let chars = |i: usize| display_chars(&typed.get(i)?.as_ref()?.kind).map(u64::from);
    let count = |i: usize| args.get(i).and_then(constant_count).map(|n| n.max(0) as u64);
    let chars = match name {
        // Every occurrence of the searched string may become the replacement.
        "replace" => chars(0)?.saturating_mul(chars(2)?.max(1)),
        "repeat" => match count(1) {
            Some(n) => chars(0)?.saturating_mul(n),
            None => MAX_BLOB_BYTES as u64,
        },
        "lpad" | "rpad" => count(1).unwrap_or(MAX_BLOB_BYTES as u64),
        "insert" => chars(0)? + chars(3)?,
        // The separator between each two of the other arguments.
        "concat_ws" => {
            let parts = (1..args.len()).map(chars).sum::<Option<u64>>()?;
            parts.saturating_add(chars(0)?.saturating_mul((args.len() as u64).saturating_sub(2)))
        }
        "substring" | "substr" | "mid" => substring_chars(typed.first()?.as_ref()?, args)?,
        "elt" => (1..args.len()).map(chars).collect::<Option<Vec<u64>>>()?.into_iter().max()?,
        // Every character escaped, and the quotes.
        "quote" => chars(0)? * 2 + 2,
        _ => return None,
    };
    let text_args = text_arguments(name, args.len()).into_iter().filter_map(|i| Some((&args[i], typed[i].as_ref()?)));
    Some(text_result(chars, string_collation(text_args, env)))
}

/// The positions of the arguments of [`string_function`] `name` (of
/// `count`) whose text makes its result: their collations aggregate into
/// the result's.
fn text_arguments(name: &str, count: usize) -> Vec<usize> {
    let positions = match name {
        "repeat" | "quote" | "substring" | "substr" | "mid" => vec![0],
        "lpad" | "rpad" => vec![0, 2],
        "insert" => vec![0, 3],
        "elt" => (1..count).collect(),
        _ => (0..count).collect(),
    };
    positions.into_iter().filter(|&i| i < count).collect()
}

/// SUBSTRING's length, `text` being its first argument's type: MariaDB
/// subtracts the start from the argument's length in bytes and keeps the
/// difference as characters (so a utf8mb4 `varchar(5)` from position 2 is
/// 19 characters long).
fn substring_chars(text: &Typed, args: &[Expr]) -> Option<u64> {
    let mut len = u64::from(display_chars(&text.kind)?) * u64::from(text_mbmaxlen(&text.kind));
    if let Some(start) = args.get(1).and_then(constant_count) {
        len = match start {
            0 => 0,
            start if start < 0 => Some(start.unsigned_abs()).filter(|&back| back <= len).unwrap_or(0),
            start => len - len.min(start as u64 - 1),
        };
    }
    if let Some(limit) = args.get(2).and_then(constant_count) {
        len = len.min(limit.max(0) as u64);
    }
    Some(len)
}

/// FORMAT(x, d): x's integer digits with a separator per three, a point
/// and `d` decimals, in the connection's charset (Item_func_format).
fn format(args: &[Expr], env: &TypeEnv<'_>) -> Option<Typed> {
    let number = type_of(args.first()?, env)?;
    let int_digits = match &number.kind {
        Kind::Int { len, unsigned, declared, .. } => {
            match declared.clone().unwrap_or_else(|| int_type_for_length(*len)) {
                ColumnType::TinyInt => 3,
                ColumnType::SmallInt => 5,
                ColumnType::MediumInt => 7,
                ColumnType::BigInt => 19 + u64::from(*unsigned),
                _ => 10,
            }
        }
        Kind::Decimal { scale, .. } => {
            u64::from(display_chars(&number.kind)?.saturating_sub(scale + u32::from(*scale > 0)))
        }
        k if is_double(k) || is_string(k) => FORMAT_DOUBLE_INT_DIGITS,
        _ => return None,
    };
    let decimals = args
        .get(1)
        .and_then(constant_count)
        .map_or(FORMAT_MAX_DECIMALS, |d| (d.max(0) as u64).min(FORMAT_MAX_DECIMALS));
    let separators = int_digits / 3 + u64::from(decimals > 0) + 1;
    Some(text_result(int_digits + separators + decimals, env.connection_collation))
}

fn clock(ty: ColumnType) -> Typed {
    Typed { nullable: false, ..temporal(ty) }
}

/// NOW(fsp)'s digits: a literal 0..=6 (others fail when evaluated).
fn clock_fsp(args: &[Expr]) -> Option<u8> {
    match args.first() {
        None => Some(0),
        Some(Expr::Literal(Value::Int(fsp))) => u8::try_from(*fsp).ok().filter(|fsp| *fsp <= 6),
        Some(Expr::Literal(Value::UInt(fsp))) => u8::try_from(*fsp).ok().filter(|fsp| *fsp <= 6),
        Some(_) => None,
    }
}

/// A DATE / DATETIME result, NULL for an argument that is no date.
fn temporal(ty: ColumnType) -> Typed {
    Typed { kind: Kind::Column(ColumnDef::new("", ty)), nullable: true }
}

/// The fractional digits of a datetime argument: a DATE or DATETIME's
/// own, a string literal's as written (6 when it is no datetime, as
/// MariaDB assumes), a DECIMAL's scale (at most 6), none for NULL. `None` where this is not known at bind time.
fn temporal_fsp(expr: &Expr, typed: Option<Typed>) -> Option<u8> {
    if let Expr::Literal(Value::Null) = expr {
        return Some(0);
    }
    if let Expr::Literal(Value::Bytes(b)) = expr {
        let text = std::str::from_utf8(b).ok()?;
        if crate::eval::temporal::parse_datetime(text).is_none() {
            return Some(6);
        }
        let digits = text.rsplit_once('.').map_or(0, |(_, frac)| frac.bytes().take_while(u8::is_ascii_digit).count());
        return u8::try_from(digits.min(6)).ok();
    }
    match typed?.kind {
        Kind::Column(def) => match def.ty {
            ColumnType::Date => Some(0),
            ColumnType::DateTime { fsp } | ColumnType::Timestamp { fsp } | ColumnType::Time { fsp } => Some(fsp),
            ColumnType::Double | ColumnType::Float => Some(6),
            _ => None,
        },
        Kind::Int { .. } => Some(0),
        Kind::Decimal { scale, .. } => u8::try_from(scale.min(6)).ok(),
        // MariaDB reads a constant's digits when it folds it; a string or
        // DOUBLE computed per row may have any of the six.
        Kind::Double | Kind::Text { .. } if !expr.is_constant() => Some(6),
        _ => None,
    }
}

/// UNIX_TIMESTAMP(): a BIGINT of 17 characters, or a DECIMAL with the
/// argument's fractional digits.
fn unix_seconds(fsp: u8) -> Typed {
    let kind = match fsp {
        0 => Kind::Int { digits: 16, len: 17, unsigned: false, declared: Some(ColumnType::BigInt) },
        _ => Kind::Decimal { precision: 16 + u32::from(fsp), scale: u32::from(fsp), unsigned: false },
    };
    Typed { kind, nullable: true }
}

/// FLOOR / CEILING: an integer keeps its type; a DECIMAL(p,s) becomes an
/// integer of its integer digits, a sign and (when s > 0) a carry digit.
fn floor(arg: Typed) -> Option<Typed> {
    let digits = match arg.kind {
        Kind::Int { .. } => return Some(arg),
        Kind::Decimal { precision, scale, .. } => precision - scale + u32::from(scale > 0),
        _ => return None,
    };
    let kind = Kind::Int { digits, len: digits + 1, unsigned: false, declared: None };
    Some(Typed { kind, nullable: arg.nullable })
}

/// DATE_ADD / DATE_SUB(date, n, unit) of a DATE or DATETIME: a DATE stays a
/// DATE for units of whole days or more, anything else is a DATETIME.
/// Text dates give a CHAR column, not described here.
fn date_add(base: Typed, unit: Option<&Expr>) -> Option<Typed> {
    let Some(Expr::Literal(Value::Bytes(unit))) = unit else { return None };
    let Kind::Column(def) = &base.kind else { return None };
    let whole_days = matches!(
        unit.to_ascii_uppercase().as_slice(),
        b"DAY" | b"WEEK" | b"MONTH" | b"QUARTER" | b"YEAR" | b"YEAR_MONTH"
    );
    match def.ty {
        ColumnType::Date if whole_days => Some(temporal(ColumnType::Date)),
        ColumnType::Date | ColumnType::DateTime { fsp: 0 } => Some(temporal(ColumnType::DateTime { fsp: 0 })),
        _ => None,
    }
}

/// ROUND / TRUNCATE(decimal, constant d): d digits after the point (none
/// for a negative d), the argument's integer digits (at least one) and,
/// when ROUND drops digits, one more for the carry.
fn round(arg: Typed, digits: Option<&Expr>, truncate: bool) -> Option<Typed> {
    let Kind::Decimal { precision, scale, .. } = arg.kind else { return None };
    let d = match digits? {
        // A negative count rounds into the integer digits: scale 0.
        Expr::Literal(Value::Int(d)) if *d < 0 => 0,
        Expr::Literal(Value::Int(d)) => u32::try_from(*d).ok().filter(|d| *d <= DECIMAL_MAX_SCALE)?,
        _ => return None,
    };
    let carry = u32::from(!truncate && d < scale);
    let int_digits = precision.saturating_sub(scale).max(1);
    Some(Typed {
        kind: Kind::Decimal { precision: int_digits + d + carry, scale: d, unsigned: false },
        nullable: arg.nullable,
    })
}

/// EXTRACT(unit FROM x): as many characters as the unit's largest value
/// shows, a sign included for units of a TIME (which may be negative).
fn extract(unit: &Expr, source: Option<Typed>) -> Option<Typed> {
    let Expr::Literal(Value::Bytes(unit)) = unit else { return None };
    let unit = std::str::from_utf8(unit).ok()?.to_ascii_uppercase();
    // A value that is no TIME or date (a string, a number) is read as an
    // interval, whose days take up to 7 digits, not 2 (MariaDB's
    // TIME_MAX_INTERVAL_DAY_CHAR_LENGTH).
    let temporal_source = source.is_none_or(|s| matches!(s.kind, Kind::Column(c) if temporal_chars(&c.ty).is_some()));
    let wider_days = if unit.starts_with("DAY") && !temporal_source { 5 } else { 0 };
    let (len, signed) = match unit.as_str() {
        "YEAR" => (4, false),
        "QUARTER" => (1, false),
        "MONTH" | "WEEK" => (2, false),
        "YEAR_MONTH" => (6, false),
        "DAY" | "HOUR" | "MINUTE" | "SECOND" => (3, true),
        "DAY_HOUR" | "HOUR_MINUTE" | "MINUTE_SECOND" => (5, true),
        "MICROSECOND" | "DAY_MINUTE" | "HOUR_SECOND" => (7, true),
        "DAY_SECOND" | "SECOND_MICROSECOND" => (9, true),
        "MINUTE_MICROSECOND" => (11, true),
        "HOUR_MICROSECOND" => (13, true),
        "DAY_MICROSECOND" => (15, true),
        _ => return None,
    };
    let len = len + wider_days;
    // Item_extract's own threshold: BIGINT from 11 characters.
    let declared = Some(if len >= 11 { ColumnType::BigInt } else { ColumnType::Int });
    let kind = Kind::Int { digits: len - u32::from(signed), len, unsigned: false, declared };
    Some(Typed { kind, nullable: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored functions of the tests: `fint()` RETURNS INT.
    struct Functions;

    impl TypeFacts for Functions {
        fn returns(&self, name: &str) -> Option<ColumnDef> {
            let mut def = ColumnDef::new("", ColumnType::Int);
            def.display_width = Some(11);
            (name == "fint").then_some(def)
        }

        /// `@i` holds 7, `@d` 1.25, `@s` 'x'; `@@autocommit` is a
        /// BOOLEAN, `@@long_query_time` a DOUBLE, `@@time_zone` 'SYSTEM'.
        fn user_var(&self, name: &str) -> Option<Value> {
            match name {
                "i" => Some(Value::Int(7)),
                "d" => Some(Value::Decimal("1.25".parse().expect("decimal"))),
                "s" => Some(Value::from_str("x")),
                _ => None,
            }
        }

        fn system_var(&self, _: VarScope, name: &str) -> Option<SystemVarType> {
            match name {
                "autocommit" => Some(SystemVarType::Boolean),
                "long_query_time" => Some(SystemVarType::Double),
                "time_zone" => Some(SystemVarType::Text { chars: 6 }),
                _ => None,
            }
        }
    }

    fn def_of(expr: &Expr, scope: &[ScopeColumn]) -> ColumnDef {
        result_def(
            expr,
            &TypeEnv {
                scope,
                facts: &Functions,
                connection_collation: Collation::default(),
                created_user_vars: Vec::new(),
            },
            "x",
        )
        .expect("typed")
    }

    fn lit(v: Value) -> Expr {
        Expr::Literal(v)
    }

    fn int_column(name: &str) -> ScopeColumn {
        ScopeColumn::new("t".into(), "db".into(), "t".into(), ColumnDef::new(name, ColumnType::Int))
    }

    fn decimal_column(name: &str, precision: u8, scale: u8) -> ScopeColumn {
        ScopeColumn::new(
            "t".into(),
            "db".into(),
            "t".into(),
            ColumnDef::new(name, ColumnType::Decimal { precision, scale }),
        )
    }

    #[test]
    fn integer_literals_and_arithmetic_widen_as_mariadb_does() {
        let one = def_of(&lit(Value::Int(1)), &[]);
        assert_eq!((one.ty.clone(), one.display_width, one.nullable), (ColumnType::Int, Some(1), false));
        let sum = Expr::Binary(BinOp::Add, Box::new(lit(Value::Int(1))), Box::new(lit(Value::Int(1))));
        assert_eq!(def_of(&sum, &[]).display_width, Some(3));
        let scope = [int_column("a")];
        let a_plus_1 = Expr::Binary(BinOp::Add, Box::new(Expr::Slot(0)), Box::new(lit(Value::Int(1))));
        let d = def_of(&a_plus_1, &scope);
        assert_eq!((d.ty, d.display_width, d.nullable), (ColumnType::BigInt, Some(12), true));
    }

    #[test]
    fn user_variables_type_by_the_value_they_hold() {
        let var = |name: &str| Expr::UserVar(name.into());
        let i = def_of(&var("i"), &[]);
        assert_eq!((i.ty, i.display_width, i.nullable), (ColumnType::BigInt, Some(20), true));
        // A DECIMAL variable: 38 decimals, described 83 characters long; a
        // sum with it goes past 65 digits, a product stops there.
        let d = def_of(&var("d"), &[]);
        assert_eq!((d.ty, d.display_width), (ColumnType::Decimal { precision: 65, scale: 38 }, Some(83)));
        let d_plus_1 = Expr::Binary(BinOp::Add, Box::new(var("d")), Box::new(lit(Value::Int(1))));
        assert_eq!(def_of(&d_plus_1, &[]).display_width, Some(68));
        let d_times_2 = Expr::Binary(BinOp::Mul, Box::new(var("d")), Box::new(lit(Value::Int(2))));
        assert_eq!(def_of(&d_times_2, &[]).display_width, None);
        let s = def_of(&var("s"), &[]);
        assert_eq!((s.ty, s.display_width), (ColumnType::Text(BlobSize::Long), Some(MAX_BLOB_WIDTH - 1)));
        let unset = def_of(&var("never"), &[]);
        assert_eq!((unset.ty, unset.display_width), (ColumnType::Blob(BlobSize::Long), Some(MAX_BLOB_WIDTH)));
        // `@v := 5` is typed as 5 is.
        let assign = Expr::AssignUserVar { name: "n".into(), value: Box::new(lit(Value::Int(5))) };
        assert_eq!(def_of(&assign, &[]).ty, ColumnType::Int);
    }

    #[test]
    fn a_variable_an_earlier_item_creates_reads_as_a_string() {
        let mut env = TypeEnv {
            scope: &[],
            facts: &Functions,
            connection_collation: Collation::default(),
            created_user_vars: Vec::new(),
        };
        let read = Expr::UserVar("n".into());
        let before = result_def(&read, &env, "x").expect("typed");
        assert_eq!(before.ty, ColumnType::Blob(BlobSize::Long));
        env.after_item(&Expr::AssignUserVar { name: "n".into(), value: Box::new(lit(Value::Int(5))) });
        assert_eq!(result_def(&read, &env, "x").expect("typed").ty, ColumnType::Text(BlobSize::Long));
    }

    #[test]
    fn system_variables_type_by_their_kind() {
        let var = |name: &str| Expr::SystemVar { scope: VarScope::Session, name: name.into() };
        let autocommit = def_of(&var("autocommit"), &[]);
        assert_eq!((autocommit.ty, autocommit.display_width), (ColumnType::BigInt, Some(1)));
        let long_query_time = def_of(&var("long_query_time"), &[]);
        assert_eq!(long_query_time.float_digits, Some(FloatDigits { digits: 21, decimals: 6 }));
        let time_zone = def_of(&var("time_zone"), &[]);
        assert_eq!((time_zone.ty, time_zone.collation), (ColumnType::VarChar(6), Collation::Utf8mb3GeneralCi));
    }

    #[test]
    fn decimal_arithmetic_keeps_scale_and_division_adds_four() {
        let scope = [decimal_column("d", 10, 3), int_column("a")];
        let d_div_3 = Expr::Binary(BinOp::Div, Box::new(Expr::Slot(0)), Box::new(lit(Value::Int(3))));
        assert_eq!(def_of(&d_div_3, &scope).ty, ColumnType::Decimal { precision: 14, scale: 7 });
        let avg = Expr::Aggregate { func: AggFunc::Avg, arg: Some(Box::new(Expr::Slot(1))), distinct: false };
        assert_eq!(def_of(&avg, &scope).ty, ColumnType::Decimal { precision: 14, scale: 4 });
        let sum = Expr::Aggregate { func: AggFunc::Sum, arg: Some(Box::new(Expr::Slot(1))), distinct: false };
        assert_eq!(def_of(&sum, &scope).ty, ColumnType::Decimal { precision: 32, scale: 0 });
    }

    #[test]
    fn variance_shows_four_more_decimals_than_its_exact_argument() {
        let scope = [int_column("a"), decimal_column("d", 5, 2)];
        let std_of = |slot: usize| Expr::Aggregate {
            func: AggFunc::StdPop,
            arg: Some(Box::new(Expr::Slot(slot))),
            distinct: false,
        };
        let of_int = def_of(&std_of(0), &scope);
        assert_eq!(
            (of_int.ty, of_int.float_digits),
            (ColumnType::Double, Some(FloatDigits { digits: 26, decimals: 4 }))
        );
        let of_decimal = def_of(&std_of(1), &scope);
        assert_eq!(of_decimal.float_digits, Some(FloatDigits { digits: 16, decimals: 6 }));
    }

    #[test]
    fn if_aggregates_a_decimal_and_an_integer_into_the_decimal() {
        let scope = [decimal_column("d", 10, 3)];
        let cond = lit(Value::Int(1));
        let e = Expr::Function { name: "if".into(), args: vec![cond, Expr::Slot(0), lit(Value::Int(0))] };
        assert_eq!(def_of(&e, &scope).ty, ColumnType::Decimal { precision: 10, scale: 3 });
    }

    #[test]
    fn a_stored_function_call_is_typed_by_its_returns_clause() {
        let call = Expr::Function { name: "fint".into(), args: vec![] };
        let column = result_column(
            &call,
            &TypeEnv {
                scope: &[],
                facts: &Functions,
                connection_collation: Collation::default(),
                created_user_vars: Vec::new(),
            },
            "fint()",
        )
        .expect("typed");
        assert_eq!((column.def.ty, column.def.display_width, column.def.nullable), (ColumnType::Int, Some(11), true));
        assert!(column.stored_function);
        let plus_1 = Expr::Binary(BinOp::Add, Box::new(call), Box::new(lit(Value::Int(1))));
        let d = def_of(&plus_1, &[]);
        assert_eq!((d.ty, d.display_width), (ColumnType::BigInt, Some(12)));
        let unknown = Expr::Function { name: "nosuch".into(), args: vec![] };
        assert_eq!(
            result_def(
                &unknown,
                &TypeEnv {
                    scope: &[],
                    facts: &Functions,
                    connection_collation: Collation::default(),
                    created_user_vars: Vec::new()
                },
                "x"
            ),
            None
        );
    }

    #[test]
    fn mixed_text_and_number_branches_are_text() {
        let e = Expr::Case {
            operand: None,
            whens: vec![(lit(Value::Int(1)), lit(Value::Int(1)))],
            otherwise: Some(Box::new(lit(Value::from_str("x")))),
        };
        let d = def_of(&e, &[]);
        assert_eq!((d.ty, d.nullable), (ColumnType::VarChar(1), false));
    }
}
