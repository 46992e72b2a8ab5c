//! Conversion of sqlparser DDL: CREATE/ALTER/DROP TABLE and INDEX, column
//! types and options.

use super::{object_name, unsupported, ParamCounter};
use crate::ast::*;
use onelog_core::schema::{ColumnDefault, FloatDigits, KeyPart};
use onelog_core::set_value::{MAX_SET_MEMBERS, SET_SEPARATOR};
use onelog_core::{
    BlobSize, Charset, Collation, ColumnDef, ColumnType, ErrorCode, Generated, ReferentialAction, SqlError, SqlResult,
};
use sqlparser::ast as sp;
use sqlparser::tokenizer::Token;

/// MariaDB's maximum DECIMAL precision (1426 past it).
const MAX_DECIMAL_PRECISION: u64 = 65;

/// MariaDB's maximum DECIMAL scale (1425 past it, checked before the precision).
const MAX_DECIMAL_SCALE: u64 = 38;

/// MariaDB's maximum FLOAT(M,D) / DOUBLE(M,D) scale (1425 past it).
const MAX_FLOAT_SCALE: u64 = 30;

fn m_bigger_than_d(name: &str) -> SqlError {
    SqlError::new(
        ErrorCode::M_BIGGER_THAN_D,
        format!("For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '{name}')"),
    )
}

fn too_big_scale(name: &str, max: u64) -> SqlError {
    SqlError::new(ErrorCode::WRONG_ARGUMENTS_SCALE, format!("Too big scale specified for '{name}'. Maximum is {max}"))
}

/// DECIMAL(M,D) of column `name` ('' in a CAST): D over 38 is 1425, then D
/// over M is 1427, then M over the limit is 1426, as MariaDB checks them.
pub(crate) fn decimal_precision(name: &str, info: &sp::ExactNumberInfo) -> SqlResult<(u8, u8)> {
    let (p, s) = match info {
        sp::ExactNumberInfo::None => (10, 0),
        sp::ExactNumberInfo::Precision(p) => (*p, 0),
        sp::ExactNumberInfo::PrecisionAndScale(p, s) => (*p, (*s).max(0) as u64),
    };
    if s > MAX_DECIMAL_SCALE {
        return Err(too_big_scale(name, MAX_DECIMAL_SCALE));
    }
    if s > p {
        return Err(m_bigger_than_d(name));
    }
    if p > MAX_DECIMAL_PRECISION {
        return Err(SqlError::new(
            ErrorCode::TOO_BIG_PRECISION,
            format!("Too big precision specified for '{name}'. Maximum is {MAX_DECIMAL_PRECISION}"),
        ));
    }
    Ok((p as u8, s as u8))
}

fn char_len(len: &Option<sp::CharacterLength>, default: u32) -> u32 {
    match len {
        Some(sp::CharacterLength::IntegerLength { length, .. }) => *length as u32,
        _ => default,
    }
}

/// The most bits a BIT column holds.
const MAX_BIT_WIDTH: u64 = 64;

/// BIT(n)'s width: BIT and BIT(0) are BIT(1); past 64 is error 1439.
fn bit_width(name: &str, bits: Option<u64>) -> SqlResult<u8> {
    match bits.unwrap_or(1) {
        0 => Ok(1),
        n if n > MAX_BIT_WIDTH => Err(SqlError::new(
            ErrorCode::TOO_BIG_DISPLAYWIDTH,
            format!("Display width out of range for '{name}' (max = {MAX_BIT_WIDTH})"),
        )),
        n => Ok(n as u8),
    }
}

/// SET's members as MariaDB keeps them (trailing spaces are dropped by
/// `decode_members`, which knows the charset); a member
/// holding ',' is error 1367, more than 64 different members 1097 (a
/// repeated one is kept and does not count). (Which members repeat depends
/// on the collation and sql_mode: see `ddl::check_set_members`.)
fn set_members(name: &str, members: &[String]) -> SqlResult<Vec<String>> {
    let different = members.iter().collect::<std::collections::HashSet<_>>().len();
    if different > MAX_SET_MEMBERS {
        return Err(SqlError::new(ErrorCode::TOO_BIG_SET, format!("Too many strings for column {name} and SET")));
    }
    members
        .iter()
        .map(|m| match m.contains(char::from(SET_SEPARATOR)) {
            true => Err(SqlError::new(
                ErrorCode::ILLEGAL_VALUE_FOR_TYPE,
                format!("Illegal set '{m}' value found during parsing"),
            )),
            false => Ok(m.clone()),
        })
        .collect()
}

/// The most fractional-second digits a temporal type holds.
pub(crate) const MAX_FSP: u64 = 6;

/// A temporal type's fractional digits; more than six is 1426 for `name`
/// (a column, or a CAST's argument).
pub(crate) fn fsp(name: &str, p: &Option<u64>) -> SqlResult<u8> {
    match p.unwrap_or(0) {
        n if n > MAX_FSP => Err(SqlError::new(
            ErrorCode::TOO_BIG_PRECISION,
            format!("Too big precision specified for '{name}'. Maximum is {MAX_FSP}"),
        )),
        n => Ok(n as u8),
    }
}

/// Converts a column type; returns (type, unsigned).
fn column_type(name: &str, dt: &sp::DataType) -> SqlResult<(ColumnType, bool)> {
    use sp::DataType as D;
    Ok(match dt {
        D::TinyInt(_) | D::Bool | D::Boolean => (ColumnType::TinyInt, false),
        D::TinyIntUnsigned(_) | D::UTinyInt => (ColumnType::TinyInt, true),
        D::SmallInt(_) | D::Int2(_) => (ColumnType::SmallInt, false),
        D::SmallIntUnsigned(_) | D::Int2Unsigned(_) | D::USmallInt => (ColumnType::SmallInt, true),
        D::MediumInt(_) => (ColumnType::MediumInt, false),
        D::MediumIntUnsigned(_) => (ColumnType::MediumInt, true),
        D::Int(_) | D::Integer(_) | D::Int4(_) => (ColumnType::Int, false),
        D::IntUnsigned(_) | D::IntegerUnsigned(_) | D::Int4Unsigned(_) => (ColumnType::Int, true),
        D::BigInt(_) | D::Int8(_) => (ColumnType::BigInt, false),
        D::BigIntUnsigned(_) | D::Int8Unsigned(_) | D::UBigInt => (ColumnType::BigInt, true),
        D::Decimal(info) | D::Numeric(info) | D::Dec(info) => {
            let (precision, scale) = decimal_precision(name, info)?;
            (ColumnType::Decimal { precision, scale }, false)
        }
        D::DecimalUnsigned(info) | D::DecUnsigned(info) => {
            let (precision, scale) = decimal_precision(name, info)?;
            (ColumnType::Decimal { precision, scale }, true)
        }
        // FLOAT(p) is a double from 25 bits of precision on, as MariaDB
        // picks; REAL is DOUBLE (without sql_mode REAL_AS_FLOAT).
        D::Float(sp::ExactNumberInfo::Precision(p)) if *p > 24 => (ColumnType::Double, false),
        D::FloatUnsigned(sp::ExactNumberInfo::Precision(p)) if *p > 24 => (ColumnType::Double, true),
        D::Float(_) | D::Float4 => (ColumnType::Float, false),
        D::FloatUnsigned(_) => (ColumnType::Float, true),
        D::Double(_) | D::DoublePrecision | D::Float8 | D::Float64 | D::Real => (ColumnType::Double, false),
        D::DoubleUnsigned(_) | D::DoublePrecisionUnsigned | D::RealUnsigned => (ColumnType::Double, true),
        D::Char(len) | D::Character(len) => (ColumnType::Char(char_len(len, 1)), false),
        D::Varchar(len) | D::CharVarying(len) | D::CharacterVarying(len) | D::Nvarchar(len) => match len {
            Some(sp::CharacterLength::IntegerLength { length, .. }) => (ColumnType::VarChar(*length as u32), false),
            _ => return Err(SqlError::parse("VARCHAR", 1)),
        },
        D::Binary(len) => (ColumnType::Binary(len.unwrap_or(1) as u32), false),
        D::Varbinary(Some(sp::BinaryLength::IntegerLength { length })) => {
            (ColumnType::VarBinary(*length as u32), false)
        }
        D::Varbinary(_) => return Err(SqlError::parse("VARBINARY", 1)),
        D::TinyText => (ColumnType::Text(BlobSize::Tiny), false),
        D::Text => (ColumnType::Text(BlobSize::Normal), false),
        D::MediumText => (ColumnType::Text(BlobSize::Medium), false),
        // MariaDB's JSON: LONGTEXT utf8mb4_bin with a json_valid CHECK
        // (see `type_implies`).
        D::LongText | D::JSON => (ColumnType::Text(BlobSize::Long), false),
        D::TinyBlob => (ColumnType::Blob(BlobSize::Tiny), false),
        // BLOB(n): the smallest size holding n bytes; BLOB(0) is BLOB.
        D::Blob(bytes) => {
            (ColumnType::Blob(bytes.filter(|n| *n > 0).map_or(BlobSize::Normal, BlobSize::holding)), false)
        }
        D::MediumBlob => (ColumnType::Blob(BlobSize::Medium), false),
        D::LongBlob => (ColumnType::Blob(BlobSize::Long), false),
        D::Date => (ColumnType::Date, false),
        D::Uuid => (ColumnType::Uuid, false),
        D::Bit(bits) => (ColumnType::Bit(bit_width(name, *bits)?), false),
        D::Datetime(p) => (ColumnType::DateTime { fsp: fsp(name, p)? }, false),
        D::Timestamp(p, _) => (ColumnType::Timestamp { fsp: fsp(name, p)? }, false),
        D::Time(p, _) => (ColumnType::Time { fsp: fsp(name, p)? }, false),
        D::Enum(members, _) => {
            let labels = members
                .iter()
                .map(|m| match m {
                    sp::EnumMember::Name(n) | sp::EnumMember::NamedValue(n, _) => n.clone(),
                })
                .collect();
            (ColumnType::Enum(labels), false)
        }
        D::Set(members) => (ColumnType::Set(set_members(name, members)?), false),
        D::Custom(name, args) => match (name.to_string().to_ascii_lowercase().as_str(), args.as_slice()) {
            ("year", [] | [_]) => (ColumnType::Year, false),
            // MariaDB's synonyms (INT1, MIDDLEINT, FIXED ... are respelled
            // by parse/column_words.rs).
            ("long", []) => (ColumnType::Text(BlobSize::Medium), false),
            // TEXT(n): sized by n characters of its charset (see
            // `ColumnDef::set_collation`).
            ("text", [_]) => (ColumnType::Text(BlobSize::Normal), false),
            ("serial", []) => (ColumnType::BigInt, true),
            ("nchar", [] | [_]) => {
                let len = args.first().map(|a| numeric_arg::<u32>(a)).transpose()?.unwrap_or(1);
                (ColumnType::Char(len), false)
            }
            _ => return Err(unsupported(format!("column type {dt}"))),
        },
        other => return Err(unsupported(format!("column type {other}"))),
    })
}

/// MariaDB's largest display width.
const MAX_DISPLAY_WIDTH: u64 = 255;

/// The display width (`INT(5)`, BOOL's 1; 0 is the default) and the
/// FLOAT(M,D) digits a type declares; a width over 255 is error 1439.
fn declared_width(name: &str, dt: &sp::DataType) -> SqlResult<(Option<u32>, Option<FloatDigits>)> {
    use sp::DataType as D;
    let width = match dt {
        D::Bool | D::Boolean => Some(1),
        D::TinyInt(w)
        | D::TinyIntUnsigned(w)
        | D::SmallInt(w)
        | D::SmallIntUnsigned(w)
        | D::MediumInt(w)
        | D::MediumIntUnsigned(w)
        | D::Int(w)
        | D::IntUnsigned(w)
        | D::Integer(w)
        | D::IntegerUnsigned(w)
        | D::BigInt(w)
        | D::BigIntUnsigned(w) => *w,
        D::Float(info) | D::FloatUnsigned(info) | D::Double(info) | D::DoubleUnsigned(info) => {
            return Ok((None, float_digits(name, info)?))
        }
        _ => None,
    };
    match width {
        Some(w) if w > MAX_DISPLAY_WIDTH => Err(SqlError::new(
            ErrorCode::TOO_BIG_DISPLAYWIDTH,
            format!("Display width out of range for '{name}' (max = {MAX_DISPLAY_WIDTH})"),
        )),
        Some(0) | None => Ok((None, None)),
        Some(w) => Ok((Some(w as u32), None)),
    }
}

/// FLOAT(M,D) / DOUBLE(M,D) (FLOAT(p) has none): D not over M (1427), M up to 255 (1439), D
/// up to 30 (1425), checked in MariaDB's order.
fn float_digits(name: &str, info: &sp::ExactNumberInfo) -> SqlResult<Option<FloatDigits>> {
    let (digits, decimals) = match *info {
        sp::ExactNumberInfo::PrecisionAndScale(digits, decimals) => (digits, decimals),
        // FLOAT(p): a double's 53 bits at most.
        sp::ExactNumberInfo::Precision(bits) if bits > 53 => {
            return Err(SqlError::new(
                ErrorCode::WRONG_FIELD_SPEC,
                format!("Incorrect column specifier for column '{name}'"),
            ))
        }
        _ => return Ok(None),
    };
    // FLOAT(M,D): D over M is 1427, then D over 30 is 1425, then M over
    // 255 is 1439, as MariaDB checks them.
    let decimals = decimals.max(0) as u64;
    if decimals > digits {
        return Err(m_bigger_than_d(name));
    }
    if decimals > MAX_FLOAT_SCALE {
        return Err(too_big_scale(name, MAX_FLOAT_SCALE));
    }
    if digits > MAX_DISPLAY_WIDTH {
        return Err(SqlError::new(
            ErrorCode::TOO_BIG_DISPLAYWIDTH,
            format!("Display width out of range for '{name}' (max = {MAX_DISPLAY_WIDTH})"),
        ));
    }
    Ok(Some(FloatDigits { digits: digits as u8, decimals: decimals as u8 }))
}

/// The n of TEXT(n) (0 is TEXT's default); over 4294967295 is 1439.
fn text_chars(name: &str, dt: &sp::DataType) -> SqlResult<Option<u64>> {
    let sp::DataType::Custom(type_name, args) = dt else { return Ok(None) };
    let [chars] = args.as_slice() else { return Ok(None) };
    if !type_name.to_string().eq_ignore_ascii_case("text") {
        return Ok(None);
    }
    let max = BlobSize::Long.max_bytes();
    match numeric_arg::<u64>(chars) {
        Ok(0) => Ok(None),
        Ok(n) if n <= max => Ok(Some(n)),
        _ => Err(SqlError::new(
            ErrorCode::TOO_BIG_DISPLAYWIDTH,
            format!("Display width out of range for '{name}' (max = {max})"),
        )),
    }
}

/// A type's numeric argument as sqlparser leaves it in a custom type.
fn numeric_arg<T: std::str::FromStr>(text: &str) -> SqlResult<T> {
    text.trim().parse().map_err(|_| SqlError::parse(text, 1))
}

/// NCHAR / NVARCHAR / JSON / SERIAL: types that imply more than a type.
fn type_implies(data_type: &sp::DataType) -> (Option<Collation>, bool) {
    match data_type {
        sp::DataType::Nvarchar(_) => (Some(Collation::Utf8mb3GeneralCi), false),
        sp::DataType::JSON => (Some(Collation::Utf8mb4Bin), false),
        sp::DataType::Custom(name, _) => match name.to_string().to_ascii_lowercase().as_str() {
            "nchar" => (Some(Collation::Utf8mb3GeneralCi), false),
            "serial" => (None, true),
            _ => (None, false),
        },
        _ => (None, false),
    }
}

/// The CHECK (json_valid(`c`)) a JSON column carries, as in MariaDB.
fn json_valid_check(column: &str) -> SqlResult<CheckSpec> {
    let condition = super::parse_expr_text(&format!("json_valid(`{}`)", column.replace('`', "``")))?;
    Ok(CheckSpec { name: None, condition, column: Some(column.to_string()) })
}

/// A charset or collation name as written, unquoted: MariaDB accepts
/// `CHARACTER SET 'binary'` and `COLLATE "latin1_bin"` as well as bare words.
pub(crate) fn name_word(name: &sp::ObjectName) -> String {
    let word = |part: &sp::ObjectNamePart| part.as_ident().map_or_else(|| part.to_string(), |i| i.value.clone());
    name.0.iter().map(word).collect::<Vec<_>>().join(".")
}

/// A collation by name; unknown → 1273.
pub(crate) fn collation_named(name: &str) -> SqlResult<Collation> {
    Collation::named(name)
        .ok_or_else(|| SqlError::new(ErrorCode::UNKNOWN_COLLATION, format!("Unknown collation: '{name}'")))
}

/// What `CHARACTER SET cs COLLATE c` declares, each given or not (as the
/// charset's default collation): the collation, checked to be the
/// charset's (1253).
pub(crate) fn declared_collation(
    charset: Option<Collation>,
    collation: Option<Collation>,
) -> SqlResult<Option<Collation>> {
    match (charset, collation) {
        (Some(charset), Some(collation)) => collation_of_charset(collation, charset).map(Some),
        (charset, collation) => Ok(collation.or(charset)),
    }
}

/// A charset's default collation, by the charset's name; unknown → 1115.
pub(crate) fn charset_collation(name: &str) -> SqlResult<Collation> {
    Charset::named_or_error(name).map(Charset::default_collation)
}

/// `CHARACTER SET cs COLLATE c`: `c` must be one of `cs`'s (1253).
pub(crate) fn collation_of_charset(collation: Collation, charset: Collation) -> SqlResult<Collation> {
    if collation.charset() == charset.charset() {
        Ok(collation)
    } else {
        Err(SqlError::new(
            ErrorCode::COLLATION_CHARSET_MISMATCH,
            format!("COLLATION '{}' is not valid for CHARACTER SET '{}'", collation.name(), charset.charset().name()),
        ))
    }
}

/// Column `column`'s DEFAULT: a value, CURRENT_TIMESTAMP, or an expression
/// (a subquery in it is 1901, as in MariaDB).
/// `ty`: the column's type when the statement declares it (ALTER ... SET
/// DEFAULT does not: a hex literal is then its bytes).
fn literal_default(expr: &sp::Expr, column: &str, ty: Option<&ColumnType>) -> SqlResult<ColumnDefault> {
    let converted = super::convert_expr(expr, &mut ParamCounter::default())?;
    refuse_subquery(&converted, "DEFAULT", column)?;
    match converted {
        Expr::Literal(v) => Ok(ColumnDefault::Value(v)),
        // An ENUM or SET default names a member, as text.
        Expr::HexHybrid(bytes) => Ok(ColumnDefault::Value(match ty {
            Some(ColumnType::Enum(_) | ColumnType::Set(_)) => {
                onelog_core::Value::from_str(&super::literals::text_in(bytes, None))
            }
            Some(ty) => crate::eval::hybrid_for_column(bytes, ty),
            None => onelog_core::Value::Bytes(bytes),
        })),
        Expr::Function { name, .. } if is_now(&name) => Ok(ColumnDefault::CurrentTimestamp),
        Expr::Column { name, table: None } if is_now(&name.to_ascii_lowercase()) => Ok(ColumnDefault::CurrentTimestamp),
        // An expression: its text, which the DDL checks and prints as
        // MariaDB does (see `default_expr`).
        _ if matches!(expr, sp::Expr::Nested(_)) || matches!(converted, Expr::Function { .. }) => {
            Ok(ColumnDefault::Expr(expr.to_string()))
        }
        _ => Err(SqlError::new(ErrorCode::INVALID_DEFAULT, format!("Invalid default value for '{expr}'"))),
    }
}

/// 1901 for a subquery in a column's DEFAULT or GENERATED ALWAYS AS
/// `clause`.
fn refuse_subquery(expr: &Expr, clause: &str, column: &str) -> SqlResult<()> {
    if expr.contains(&|e| matches!(e, Expr::InSubquery { .. } | Expr::ScalarSubquery(_) | Expr::Exists { .. })) {
        return Err(SqlError::new(
            ErrorCode::GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED,
            format!("Function or expression 'select ...' cannot be used in the {clause} clause of `{column}`"),
        ));
    }
    Ok(())
}

/// `[GENERATED ALWAYS] AS (expr) [VIRTUAL | STORED | PERSISTENT]` among
/// the column's options. MariaDB's grammar puts only the type (CHARACTER
/// SET and COLLATE included) before it and only UNIQUE [KEY], COMMENT and
/// CHECK after it: anything else is a syntax error there (a generated
/// column has no DEFAULT, NOT NULL or PRIMARY KEY).
fn generated_column(col: &sp::ColumnDef) -> SqlResult<Option<Generated>> {
    let generated = |o: &&sp::ColumnOptionDef| matches!(o.option, sp::ColumnOption::Generated { .. });
    let Some(at) = col.options.iter().position(|o| generated(&o)) else { return Ok(None) };
    let near = |o: &sp::ColumnOptionDef| SqlError::parse(&o.option.to_string(), 1);
    let sp::ColumnOption::Generated {
        generation_expr: Some(expr), generation_expr_mode, sequence_options: None, ..
    } = &col.options[at].option
    else {
        return Err(near(&col.options[at]));
    };
    let mut stored = matches!(generation_expr_mode, Some(sp::GeneratedExpressionMode::Stored));
    let mut after = col.options[at + 1..].iter().peekable();
    if generation_expr_mode.is_none() && after.next_if(|o| is_persistent(&o.option)).is_some() {
        stored = true;
    }
    let type_part =
        |o: &sp::ColumnOption| matches!(o, sp::ColumnOption::CharacterSet(_) | sp::ColumnOption::Collation(_));
    if let Some(o) = col.options[..at].iter().find(|o| !type_part(&o.option)) {
        return Err(near(o));
    }
    let attribute = |o: &sp::ColumnOption| {
        matches!(o, sp::ColumnOption::Unique(_) | sp::ColumnOption::Comment(_) | sp::ColumnOption::Check(_))
    };
    if let Some(o) = after.find(|o| !attribute(&o.option)) {
        return Err(near(o));
    }
    refuse_subquery(&super::convert_expr(expr, &mut ParamCounter::default())?, "GENERATED ALWAYS AS", &col.name.value)?;
    Ok(Some(Generated { expr: expr.to_string(), stored }))
}

/// The PERSISTENT keyword the dialect passes on (see `dialect`).
fn is_persistent(option: &sp::ColumnOption) -> bool {
    matches!(option, sp::ColumnOption::DialectSpecific(tokens) if matches!(tokens.as_slice(), [Token::Word(w)] if w.keyword == sqlparser::keywords::Keyword::PERSISTENT))
}

fn is_now(name: &str) -> bool {
    matches!(name, "now" | "current_timestamp" | "localtime" | "localtimestamp")
}

/// A column definition as a statement declares it.
pub(crate) struct DeclaredColumn {
    pub def: ColumnDef,
    /// A PRIMARY KEY or UNIQUE column option.
    pub index: Option<IndexSpec>,
    /// A text column without CHARACTER SET or COLLATE: it takes the
    /// table's collation, known only when the statement is planned.
    pub takes_table_collation: bool,
    /// `CHECK (condition)` among the column's options.
    pub check: Option<CheckSpec>,
    /// `REFERENCES t (c) ...` among the column's options (InnoDB makes it
    /// a FOREIGN KEY, as MariaDB 10.5+ does).
    pub foreign_key: Option<ForeignKeySpec>,
}

/// Converts one column definition.
pub(crate) fn convert_column(col: &sp::ColumnDef) -> SqlResult<DeclaredColumn> {
    let (ty, unsigned) = column_type(&col.name.value, &col.data_type)?;
    let mut def = ColumnDef::new(&col.name.value, ty);
    def.unsigned = unsigned;
    (def.display_width, def.float_digits) = declared_width(&col.name.value, &col.data_type)?;
    def.text_chars = text_chars(&col.name.value, &col.data_type)?;
    if matches!(col.data_type, sp::DataType::Binary(_) | sp::DataType::Varbinary(_)) {
        def.collation = Collation::Binary;
    }
    def.generated = generated_column(col)?;
    let mut index = None;
    let mut foreign_key = None;
    let mut check = match col.data_type {
        sp::DataType::JSON => Some(json_valid_check(&def.name)?),
        _ => None,
    };
    // NCHAR is utf8mb3's (a charset the column declares); SERIAL is
    // BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE.
    let (national, serial) = type_implies(&col.data_type);
    let (mut charset_option, mut collation_option) = (national, None);
    let mut binary_attribute = false;
    if serial {
        def.nullable = false;
        def.auto_increment = true;
        index = Some(IndexSpec::on_column(&def.name, false));
    }
    for opt in &col.options {
        match &opt.option {
            sp::ColumnOption::Null => def.nullable = true,
            sp::ColumnOption::NotNull => def.nullable = false,
            sp::ColumnOption::Default(e) => def.default = Some(literal_default(e, &def.name, Some(&def.ty))?),
            sp::ColumnOption::PrimaryKey(_) => {
                def.nullable = false;
                index = Some(IndexSpec::on_column(&def.name, true));
            }
            sp::ColumnOption::Unique(_) => index = Some(IndexSpec::on_column(&def.name, false)),
            sp::ColumnOption::Comment(c) => def.comment = c.clone(),
            // JSON is utf8mb4 by definition: MariaDB's grammar has no
            // CHARACTER SET for it.
            sp::ColumnOption::CharacterSet(cs) if col.data_type == sp::DataType::JSON => {
                return Err(SqlError::parse(&format!("character set {cs}"), 1))
            }
            sp::ColumnOption::CharacterSet(cs) => charset_option = Some(charset_collation(&name_word(cs))?),
            sp::ColumnOption::Collation(c) => collation_option = Some(collation_named(&name_word(c))?),
            sp::ColumnOption::OnUpdate(e) => {
                if matches!(literal_default(e, &def.name, Some(&def.ty))?, ColumnDefault::CurrentTimestamp) {
                    def.on_update_current_timestamp = true;
                }
            }
            option if is_persistent(option) && def.generated.is_some() => {}
            option if is_attribute(option, "BINARY") && def.ty.is_text() && !binary_attribute => {
                binary_attribute = true
            }
            option if is_attribute(option, "ASCII") && def.ty.is_text() => {
                charset_option = Some(Charset::Latin1.default_collation())
            }
            // A number's or a second BINARY / ASCII is MariaDB's syntax error.
            option if is_attribute(option, "BINARY") || is_attribute(option, "ASCII") => {
                return Err(SqlError::parse(&option.to_string().to_ascii_lowercase(), 1))
            }
            sp::ColumnOption::DialectSpecific(tokens) => apply_dialect_tokens(&mut def, tokens, &mut index)?,
            sp::ColumnOption::Check(c) => {
                check = Some(CheckSpec {
                    name: None,
                    condition: super::convert_expr(&c.expr, &mut ParamCounter::default())?,
                    column: Some(def.name.clone()),
                })
            }
            sp::ColumnOption::ForeignKey(fk) => {
                foreign_key = Some(ForeignKeySpec { columns: vec![def.name.clone()], ..foreign_key_spec(fk)? })
            }
            // `generated_column`'s.
            sp::ColumnOption::Generated { .. } => {}
            other => return Err(unsupported(format!("column option {other}"))),
        }
    }
    let takes_table_collation = charset_option.is_none() && collation_option.is_none();
    if binary_attribute {
        collation_option = Some(binary_attribute_collation(charset_option, collation_option)?);
    }
    let declared = declared_collation(charset_option, collation_option)?;
    def.set_collation(declared.unwrap_or(def.collation));
    decode_members(&mut def.ty, declared.filter(|_| !takes_table_collation).map(Collation::charset));
    if declared == Some(Collation::Binary) {
        def.ty = binary_string_type(&def.ty);
    }
    if !def.ty.is_text() && !def.ty.is_binary_string() {
        def.collation = Collation::Binary;
    }
    if def.auto_increment {
        def.nullable = false;
    }
    let takes_table_collation = takes_table_collation && def.ty.is_text() && def.collation != Collation::Binary;
    Ok(DeclaredColumn { def, index, takes_table_collation, check, foreign_key })
}

/// Whether `option` is the BINARY or ASCII attribute `word` (see `dialect`).
fn is_attribute(option: &sp::ColumnOption, word: &str) -> bool {
    matches!(option, sp::ColumnOption::DialectSpecific(tokens) if matches!(tokens.as_slice(), [Token::Word(w)] if w.value == word))
}

/// The collation the BINARY attribute declares: the _bin one of the
/// declared charset (of the table's when none is declared: the default
/// charset's stands in until `inherited_collation` picks the table's); a
/// COLLATE naming another is 1302, as in MariaDB.
fn binary_attribute_collation(charset: Option<Collation>, collation: Option<Collation>) -> SqlResult<Collation> {
    let bin = bin_collation(charset.or(collation).unwrap_or_default());
    match collation {
        Some(c) if c != bin => Err(SqlError::new(
            ErrorCode::CONFLICTING_DECLARATIONS,
            format!("Conflicting declarations: 'COLLATE {}' and 'COLLATE {}'", bin.name(), c.name()),
        )),
        _ => Ok(bin),
    }
}

/// A charset's _bin collation (`binary` stays itself).
fn bin_collation(c: Collation) -> Collation {
    Collation::named(&format!("{}_bin", c.charset().name())).unwrap_or(c)
}

/// The collation a column declared without CHARACTER SET or COLLATE takes
/// from its table's: the table's, or the _bin one of its charset for a
/// column declared BINARY (whose collation is then a _bin one).
pub(crate) fn inherited_collation(column: &ColumnDef, table: Collation) -> Collation {
    if column.collation.is_binary_order() && column.collation != Collation::Binary {
        bin_collation(table)
    } else {
        table
    }
}

/// ENUM / SET members written as hex or bit literals, read in the
/// column's charset (see `literals::member_label`).
fn decode_members(ty: &mut ColumnType, charset: Option<Charset>) {
    if let ColumnType::Enum(labels) | ColumnType::Set(labels) = ty {
        for label in labels.iter_mut() {
            *label = super::literals::member_label(label, charset);
        }
    }
    // SET drops its members' trailing spaces, but binary has no padding.
    if let (ColumnType::Set(labels), false) = (ty, charset == Some(Charset::Binary)) {
        for label in labels.iter_mut() {
            label.truncate(label.trim_end_matches(' ').len());
        }
    }
}

/// A text type declared `CHARACTER SET binary` is the binary string type
/// of the same size, as MariaDB stores it (`TEXT CHARSET binary` is BLOB).
fn binary_string_type(ty: &ColumnType) -> ColumnType {
    match ty {
        ColumnType::Char(chars) => ColumnType::Binary(*chars),
        ColumnType::VarChar(chars) => ColumnType::VarBinary(*chars),
        ColumnType::Text(size) => ColumnType::Blob(*size),
        other => other.clone(),
    }
}

fn apply_dialect_tokens(def: &mut ColumnDef, tokens: &[Token], index: &mut Option<IndexSpec>) -> SqlResult<()> {
    let words: Vec<String> = tokens.iter().map(|t| t.to_string().to_ascii_uppercase()).collect();
    match words.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["AUTO_INCREMENT"] | ["AUTOINCREMENT"] => def.auto_increment = true,
        ["UNSIGNED"] => def.unsigned = true,
        ["SIGNED"] => def.unsigned = false,
        ["KEY"] | ["PRIMARY", "KEY"] => {
            def.nullable = false;
            *index = Some(IndexSpec::on_column(&def.name, true));
        }
        _ => return Err(unsupported(words.join(" "))),
    }
    Ok(())
}

/// A key's columns with their prefix lengths (`col(10)`) and directions.
fn index_columns(cols: &[sp::IndexColumn]) -> SqlResult<(Vec<String>, Vec<KeyPart>)> {
    let mut names = Vec::with_capacity(cols.len());
    let mut parts = Vec::with_capacity(cols.len());
    for c in cols {
        let descending = matches!(c.column.options.sort, Some(sp::OrderBySort::Desc));
        let (name, prefix_length) = match &c.column.expr {
            sp::Expr::Identifier(id) => (id.value.clone(), None),
            sp::Expr::Function(f) => (f.name.to_string(), Some(prefix_length(f)?)),
            other => return Err(unsupported(format!("index on expression {other}"))),
        };
        names.push(name);
        parts.push(KeyPart { prefix_length, descending });
    }
    Ok((names, parts))
}

/// The `10` of a key part `col(10)`.
fn prefix_length(f: &sp::Function) -> SqlResult<u32> {
    let sp::FunctionArguments::List(list) = &f.args else { return Err(SqlError::parse(&f.to_string(), 1)) };
    match list.args.as_slice() {
        [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(sp::Expr::Value(v)))] => match &v.value {
            sp::Value::Number(n, _) => n.parse().map_err(|_| SqlError::parse(&f.to_string(), 1)),
            _ => Err(SqlError::parse(&f.to_string(), 1)),
        },
        _ => Err(SqlError::parse(&f.to_string(), 1)),
    }
}

/// An index spec of `cols`.
fn index_spec(name: Option<String>, cols: &[sp::IndexColumn], unique: bool, primary: bool) -> SqlResult<IndexSpec> {
    let (columns, parts) = index_columns(cols)?;
    Ok(IndexSpec { name, columns, parts, unique, primary, using: None })
}

/// The `USING` of a key: before its columns or among the options after
/// them (the later one wins, as in MariaDB). BTREE and HASH are MariaDB's
/// (RTREE is for spatial keys, which OneLog does not have).
pub(crate) fn index_using(before: Option<&sp::IndexType>, options: &[sp::IndexOption]) -> SqlResult<Option<String>> {
    let after = options.iter().rev().find_map(|o| match o {
        sp::IndexOption::Using(t) => Some(t),
        _ => None,
    });
    match after.or(before) {
        None => Ok(None),
        Some(sp::IndexType::BTree) => Ok(Some("BTREE".into())),
        Some(sp::IndexType::Hash) => Ok(Some("HASH".into())),
        Some(other) => Err(SqlError::new(ErrorCode::PARSE_ERROR, format!("Unknown index type '{other}'"))),
    }
}

fn with_using(spec: IndexSpec, before: Option<&sp::IndexType>, options: &[sp::IndexOption]) -> SqlResult<IndexSpec> {
    Ok(IndexSpec { using: index_using(before, options)?, ..spec })
}

pub(crate) fn convert_constraint(c: &sp::TableConstraint) -> SqlResult<Option<IndexSpec>> {
    Ok(match c {
        sp::TableConstraint::PrimaryKey(pk) => {
            Some(with_using(index_spec(None, &pk.columns, true, true)?, pk.index_type.as_ref(), &pk.index_options)?)
        }
        sp::TableConstraint::Unique(u) => Some(with_using(
            index_spec(u.index_name.as_ref().or(u.name.as_ref()).map(|i| i.value.clone()), &u.columns, true, false)?,
            u.index_type.as_ref(),
            &u.index_options,
        )?),
        sp::TableConstraint::Index(i) => Some(with_using(
            index_spec(i.name.as_ref().map(|n| n.value.clone()), &i.columns, false, false)?,
            i.index_type.as_ref(),
            &i.index_options,
        )?),
        // FOREIGN KEY is `convert_foreign_key`'s, CHECK `convert_check`'s.
        sp::TableConstraint::ForeignKey(_) | sp::TableConstraint::Check(_) => None,
        other => return Err(unsupported(other)),
    })
}

/// A table constraint's FOREIGN KEY, if it is one.
pub(crate) fn convert_foreign_key(c: &sp::TableConstraint) -> SqlResult<Option<ForeignKeySpec>> {
    let sp::TableConstraint::ForeignKey(fk) = c else { return Ok(None) };
    foreign_key_spec(fk).map(Some)
}

fn foreign_key_spec(fk: &sp::ForeignKeyConstraint) -> SqlResult<ForeignKeySpec> {
    let action = |a: &Option<sp::ReferentialAction>| match a {
        None | Some(sp::ReferentialAction::Restrict) => Ok(ReferentialAction::Restrict),
        Some(sp::ReferentialAction::NoAction) => Ok(ReferentialAction::NoAction),
        Some(sp::ReferentialAction::Cascade) => Ok(ReferentialAction::Cascade),
        Some(sp::ReferentialAction::SetNull) => Ok(ReferentialAction::SetNull),
        // InnoDB refuses SET DEFAULT when the table is created.
        Some(sp::ReferentialAction::SetDefault) => Err(crate::foreign_key::incorrectly_formed_error()),
    };
    Ok(ForeignKeySpec {
        name: fk.name.as_ref().map(|n| n.value.clone()),
        index_name: fk.index_name.as_ref().map(|n| n.value.clone()),
        columns: fk.columns.iter().map(|c| c.value.clone()).collect(),
        ref_table: object_name(&fk.foreign_table)?,
        ref_columns: fk.referred_columns.iter().map(|c| c.value.clone()).collect(),
        on_delete: action(&fk.on_delete)?,
        on_update: action(&fk.on_update)?,
    })
}

/// A table constraint's CHECK, if it is one.
pub(crate) fn convert_check(c: &sp::TableConstraint) -> SqlResult<Option<CheckSpec>> {
    let sp::TableConstraint::Check(check) = c else { return Ok(None) };
    Ok(Some(CheckSpec {
        name: check.name.as_ref().map(|n| n.value.clone()),
        condition: super::convert_expr(&check.expr, &mut ParamCounter::default())?,
        column: None,
    }))
}

pub(crate) fn convert_create_table(ct: &sp::CreateTable, params: &mut ParamCounter) -> SqlResult<CreateTable> {
    let like = match &ct.like {
        Some(sp::CreateTableLikeKind::Plain(l) | sp::CreateTableLikeKind::Parenthesized(l)) => {
            Some(object_name(&l.name)?)
        }
        None => None,
    };
    let select = ct.query.as_ref().map(|q| super::expr::convert_query(q, params).map(Box::new)).transpose()?;
    let mut columns = Vec::new();
    let mut indexes = Vec::new();
    let mut take_table_collation = Vec::new();
    let mut checks = Vec::new();
    let mut foreign_keys = Vec::new();
    for col in &ct.columns {
        let declared = convert_column(col)?;
        checks.extend(declared.check);
        foreign_keys.extend(declared.foreign_key);
        if declared.takes_table_collation {
            take_table_collation.push(declared.def.name.clone());
        }
        columns.push(declared.def);
        indexes.extend(declared.index);
    }
    for c in &ct.constraints {
        indexes.extend(convert_constraint(c)?);
        checks.extend(convert_check(c)?);
        foreign_keys.extend(convert_foreign_key(c)?);
    }
    let mut table = CreateTable {
        name: object_name(&ct.name)?,
        if_not_exists: ct.if_not_exists,
        columns,
        indexes,
        engine: None,
        comment: ct.comment.as_ref().map(|c| match c {
            sp::CommentDef::WithEq(s) | sp::CommentDef::WithoutEq(s) => s.clone(),
        }),
        auto_increment_start: None,
        collation: None,
        take_table_collation,
        checks,
        foreign_keys,
        like,
        select,
        on_duplicate: CreateSelectDuplicates::Error,
        temporary: ct.temporary,
        or_replace: ct.or_replace,
    };
    let options = match &ct.table_options {
        sp::CreateTableOptions::Plain(o) | sp::CreateTableOptions::Options(o) | sp::CreateTableOptions::With(o) => {
            o.as_slice()
        }
        _ => &[],
    };
    let (mut table_charset, mut table_collation) = (None, None);
    for option in options {
        match option {
            sp::SqlOption::NamedParenthesizedList(list) if list.key.value.eq_ignore_ascii_case("ENGINE") => {
                table.engine = list.name.as_ref().map(|n| onelog_core::schema::engine_name(&n.value)).transpose()?;
            }
            sp::SqlOption::KeyValue { key, value } => {
                let key = key.value.to_ascii_uppercase();
                let text = value.to_string().trim_matches('\'').to_string();
                match key.as_str() {
                    "ENGINE" => table.engine = Some(onelog_core::schema::engine_name(&text)?),
                    "AUTO_INCREMENT" => table.auto_increment_start = text.parse().ok(),
                    "COMMENT" => table.comment = Some(text),
                    "DEFAULT CHARSET" | "CHARSET" | "CHARACTER SET" | "DEFAULT CHARACTER SET" => {
                        table_charset = Some(charset_collation(&text)?)
                    }
                    "COLLATE" | "DEFAULT COLLATE" => table_collation = Some(collation_named(&text)?),
                    _ => {}
                }
            }
            sp::SqlOption::Comment(c) => {
                table.comment = Some(match c {
                    sp::CommentDef::WithEq(s) | sp::CommentDef::WithoutEq(s) => s.clone(),
                })
            }
            _ => {}
        }
    }
    table.collation = declared_collation(table_charset, table_collation)?;
    Ok(table)
}

pub(crate) fn convert_create_index(ci: &sp::CreateIndex) -> SqlResult<Statement> {
    let name = ci.name.as_ref().map(|n| object_name(n).map(|o| o.name)).transpose()?;
    Ok(Statement::CreateIndex {
        table: object_name(&ci.table_name)?,
        index: with_using(index_spec(name, &ci.columns, ci.unique, false)?, ci.using.as_ref(), &ci.index_options)?,
        if_not_exists: ci.if_not_exists,
        // Set by `parse_one`: sqlparser does not read CREATE OR REPLACE INDEX.
        or_replace: false,
    })
}

pub(crate) fn convert_alter_table(at: &sp::AlterTable) -> SqlResult<Statement> {
    let mut ops = Vec::new();
    for op in &at.operations {
        match op {
            sp::AlterTableOperation::AddColumn { column_def, column_position, .. } => {
                let declared = convert_column(column_def)?;
                let name = declared.def.name.clone();
                ops.push(AlterOp::AddColumn {
                    column: declared.def,
                    index: declared.index,
                    takes_table_collation: declared.takes_table_collation,
                });
                ops.extend(declared.check.map(AlterOp::AddCheck));
                ops.extend(declared.foreign_key.map(AlterOp::AddForeignKey));
                ops.extend(move_column(name, column_position));
            }
            sp::AlterTableOperation::ModifyColumn { col_name, data_type, options, column_position } => {
                changed_column(&mut ops, col_name, col_name, data_type, options, column_position)?;
            }
            sp::AlterTableOperation::ChangeColumn { old_name, new_name, data_type, options, column_position } => {
                changed_column(&mut ops, old_name, new_name, data_type, options, column_position)?;
            }
            sp::AlterTableOperation::RenameColumn { old_column_name, new_column_name } => {
                ops.push(AlterOp::RenameColumn {
                    old_name: old_column_name.value.clone(),
                    new_name: new_column_name.value.clone(),
                })
            }
            sp::AlterTableOperation::DropColumn { column_names, .. } => {
                ops.extend(column_names.iter().map(|c| AlterOp::DropColumn(c.value.clone())));
            }
            sp::AlterTableOperation::AddConstraint { constraint, .. } => {
                if let Some(spec) = convert_constraint(constraint)? {
                    ops.push(AlterOp::AddIndex(spec));
                }
                ops.extend(convert_check(constraint)?.map(AlterOp::AddCheck));
                ops.extend(convert_foreign_key(constraint)?.map(AlterOp::AddForeignKey));
            }
            sp::AlterTableOperation::DropForeignKey { name, .. } => {
                ops.push(AlterOp::DropForeignKey(name.value.clone()))
            }
            sp::AlterTableOperation::DropConstraint { if_exists, name, .. } => {
                ops.push(AlterOp::DropConstraint { name: name.value.clone(), if_exists: *if_exists })
            }
            sp::AlterTableOperation::DropIndex { name } => ops.push(AlterOp::DropIndex(name.value.clone())),
            sp::AlterTableOperation::DropPrimaryKey { .. } => ops.push(AlterOp::DropPrimaryKey),
            sp::AlterTableOperation::AlterColumn { column_name, op } => {
                let default = match op {
                    sp::AlterColumnOperation::SetDefault { value } => {
                        Some(literal_default(value, &column_name.value, None)?)
                    }
                    sp::AlterColumnOperation::DropDefault => None,
                    other => return Err(unsupported(format!("ALTER COLUMN {other}"))),
                };
                ops.push(AlterOp::SetDefault { column: column_name.value.clone(), default });
            }
            other => return Err(unsupported(format!("ALTER TABLE {other}"))),
        }
    }
    Ok(Statement::AlterTable { table: object_name(&at.name)?, ops })
}

/// MODIFY / CHANGE: the new definition, an index its options declare
/// (PRIMARY KEY, UNIQUE) and its new position.
fn changed_column(
    ops: &mut Vec<AlterOp>,
    old_name: &sp::Ident,
    new_name: &sp::Ident,
    data_type: &sp::DataType,
    options: &[sp::ColumnOption],
    position: &Option<sp::MySQLColumnPosition>,
) -> SqlResult<()> {
    let column_def = sp::ColumnDef {
        name: new_name.clone(),
        data_type: data_type.clone(),
        options: options.iter().map(|o| sp::ColumnOptionDef { name: None, option: o.clone() }).collect(),
    };
    let declared = convert_column(&column_def)?;
    let name = declared.def.name.clone();
    ops.push(AlterOp::ChangeColumn {
        old_name: old_name.value.clone(),
        column: declared.def,
        takes_table_collation: declared.takes_table_collation,
    });
    ops.extend(declared.index.map(AlterOp::AddIndex));
    ops.extend(declared.check.map(AlterOp::AddCheck));
    ops.extend(declared.foreign_key.map(AlterOp::AddForeignKey));
    ops.extend(move_column(name, position));
    Ok(())
}

fn move_column(name: String, position: &Option<sp::MySQLColumnPosition>) -> Option<AlterOp> {
    match position {
        None => None,
        Some(sp::MySQLColumnPosition::First) => Some(AlterOp::MoveColumn { name, after: None }),
        Some(sp::MySQLColumnPosition::After(c)) => Some(AlterOp::MoveColumn { name, after: Some(c.value.clone()) }),
    }
}

pub(crate) fn convert_drop(
    object_type: &sp::ObjectType,
    if_exists: bool,
    temporary: bool,
    names: &[sp::ObjectName],
    table: Option<&sp::ObjectName>,
) -> SqlResult<Statement> {
    let converted: Vec<ObjectName> = names.iter().map(object_name).collect::<SqlResult<_>>()?;
    Ok(match object_type {
        sp::ObjectType::Table if temporary => Statement::DropTemporaryTable { names: converted, if_exists },
        sp::ObjectType::View => Statement::DropView { names: converted, if_exists },
        sp::ObjectType::Table => Statement::DropTable { names: converted, if_exists },
        sp::ObjectType::Database | sp::ObjectType::Schema => {
            Statement::DropDatabase { name: converted.first().map(|n| n.name.clone()).unwrap_or_default(), if_exists }
        }
        sp::ObjectType::Index => {
            let table = table.ok_or_else(|| SqlError::parse("DROP INDEX", 1))?;
            Statement::DropIndex {
                if_exists,
                table: object_name(table)?,
                name: converted.first().map(|n| n.name.clone()).unwrap_or_default(),
            }
        }
        other => return Err(unsupported(format!("DROP {other}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(p: u64, s: u64) -> Option<u16> {
        decimal_precision("a", &sp::ExactNumberInfo::PrecisionAndScale(p, s as i64)).err().map(|e| e.code.number)
    }

    #[test]
    fn decimal_limits_are_checked_in_mariadbs_order() {
        assert_eq!(code(10, 2), None);
        assert_eq!(code(30, 31), Some(1427));
        assert_eq!(code(70, 40), Some(1425));
        assert_eq!(code(39, 39), Some(1425));
        assert_eq!(code(70, 2), Some(1426));
        assert_eq!(code(65, 38), None);
        assert_eq!(code(66, 0), Some(1426));
        let err = decimal_precision("a", &sp::ExactNumberInfo::Precision(70)).unwrap_err();
        assert_eq!(err.message, "Too big precision specified for 'a'. Maximum is 65");
    }
}
