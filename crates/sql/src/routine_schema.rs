//! information_schema.ROUTINES and PARAMETERS: the stored procedures and
//! functions and their parameters, with the columns, types and values
//! MariaDB 10.11 shows (its result-set metadata included: clients and ORMs
//! read these tables' column types); and mysql.proc, the table MariaDB
//! keeps them in, which tools and tests read directly.

use crate::ast::routine::VarType;
use crate::ast::ObjectName;
use crate::catalog::Catalog;
use crate::privilege::Visibility;
use crate::routine::{RoutineDef, RoutineEntry};
use crate::schema_columns::{
    columns, SchemaColumn,
    SchemaType::{DateTime, Int, LongText, Text, UnsignedBigInt},
};
use crate::session::ResultColumn;
use crate::show::{column_type_text, type_columns};
use onelog_core::{Charset, ColumnDef, Value};
use std::sync::Arc;

/// DATA_TYPE through COLLATION_NAME, in both tables.
const TYPE_COLUMNS: [SchemaColumn; 8] = [
    ("DATA_TYPE", Text(64), false),
    ("CHARACTER_MAXIMUM_LENGTH", Int, true),
    ("CHARACTER_OCTET_LENGTH", Int, true),
    ("NUMERIC_PRECISION", Int, true),
    ("NUMERIC_SCALE", Int, true),
    ("DATETIME_PRECISION", UnsignedBigInt, true),
    ("CHARACTER_SET_NAME", Text(64), true),
    ("COLLATION_NAME", Text(64), true),
];

const ROUTINES_HEAD: [SchemaColumn; 5] = [
    ("SPECIFIC_NAME", Text(64), false),
    ("ROUTINE_CATALOG", Text(512), false),
    ("ROUTINE_SCHEMA", Text(64), false),
    ("ROUTINE_NAME", Text(64), false),
    ("ROUTINE_TYPE", Text(13), false),
];

const ROUTINES_TAIL: [SchemaColumn; 18] = [
    ("DTD_IDENTIFIER", LongText, true),
    ("ROUTINE_BODY", Text(8), false),
    ("ROUTINE_DEFINITION", LongText, true),
    ("EXTERNAL_NAME", Text(64), true),
    ("EXTERNAL_LANGUAGE", Text(64), true),
    ("PARAMETER_STYLE", Text(8), false),
    ("IS_DETERMINISTIC", Text(3), false),
    ("SQL_DATA_ACCESS", Text(64), false),
    ("SQL_PATH", Text(64), true),
    ("SECURITY_TYPE", Text(7), false),
    ("CREATED", DateTime, false),
    ("LAST_ALTERED", DateTime, false),
    ("SQL_MODE", Text(8192), false),
    ("ROUTINE_COMMENT", LongText, false),
    ("DEFINER", Text(384), false),
    ("CHARACTER_SET_CLIENT", Text(32), false),
    ("COLLATION_CONNECTION", Text(64), false),
    ("DATABASE_COLLATION", Text(64), false),
];

const PARAMETERS_HEAD: [SchemaColumn; 6] = [
    ("SPECIFIC_CATALOG", Text(512), false),
    ("SPECIFIC_SCHEMA", Text(64), false),
    ("SPECIFIC_NAME", Text(64), false),
    ("ORDINAL_POSITION", Int, false),
    ("PARAMETER_MODE", Text(5), true),
    ("PARAMETER_NAME", Text(64), true),
];

const PARAMETERS_TAIL: [SchemaColumn; 2] = [("DTD_IDENTIFIER", LongText, false), ("ROUTINE_TYPE", Text(9), false)];

fn s(v: &str) -> Value {
    Value::from_str(v)
}

/// A `YYYY-MM-DD hh:mm:ss` the catalog keeps, as a DATETIME value.
fn datetime(text: &str) -> Value {
    crate::eval::temporal::parse_datetime(text).map_or(Value::Null, Value::DateTime)
}

/// information_schema.ROUTINES or PARAMETERS (`None` for other tables).
pub fn table(catalog: &Catalog, visibility: &Visibility, table: &str) -> Option<(Vec<ResultColumn>, Vec<Vec<Value>>)> {
    match table.to_ascii_uppercase().as_str() {
        "ROUTINES" => Some((
            columns("ROUTINES", &[&ROUTINES_HEAD, &TYPE_COLUMNS, &ROUTINES_TAIL]),
            visible_routines(catalog, visibility).iter().map(|r| routine_row(catalog, r)).collect(),
        )),
        "PARAMETERS" => Some((
            columns("PARAMETERS", &[&PARAMETERS_HEAD, &TYPE_COLUMNS, &PARAMETERS_TAIL]),
            visible_routines(catalog, visibility).iter().flat_map(|r| parameter_rows(r)).collect(),
        )),
        _ => None,
    }
}

/// The routines of the databases the session sees, by database, name and
/// kind as MariaDB lists mysql.proc.
fn visible_routines(catalog: &Catalog, visibility: &Visibility) -> Vec<Arc<RoutineEntry>> {
    let mut routines = sorted_routines(catalog);
    if !visibility.all_routines() {
        routines.retain(|r| visibility.db(&r.def.db));
    }
    routines
}

/// Every routine, by database, name and kind (mysql.proc's key).
fn sorted_routines(catalog: &Catalog) -> Vec<Arc<RoutineEntry>> {
    let mut routines = catalog.all_routines();
    routines
        .sort_by(|a, b| (&a.def.db, &a.def.name, a.def.kind.name()).cmp(&(&b.def.db, &b.def.name, b.def.kind.name())));
    routines
}

/// The collation of a routine's database (DATABASE_COLLATION, db_collation).
fn db_collation(catalog: &Catalog, d: &RoutineDef) -> &'static str {
    catalog.database(&d.db).map(|d| d.collation).unwrap_or_default().name()
}

/// A type's DATA_TYPE .. COLLATION_NAME and DTD_IDENTIFIER.
fn type_values(ty: &ColumnDef) -> (impl Iterator<Item = Value>, Value) {
    (type_columns(ty).into_iter(), s(&column_type_text(ty)))
}

/// A ROUTINES row. A procedure's type columns are empty (DATA_TYPE '').
fn routine_row(catalog: &Catalog, r: &RoutineEntry) -> Vec<Value> {
    let d = &r.def;
    let c = &d.characteristics;
    let mut row = vec![s(&d.name), s("def"), s(&d.db), s(&d.name), s(d.kind.name())];
    match &r.routine.returns {
        Some(ty) => {
            let (types, dtd) = type_values(ty);
            row.extend(types.chain([dtd]));
        }
        None => row.extend([s("")].into_iter().chain(std::iter::repeat_n(Value::Null, 8))),
    }
    row.extend([s("SQL"), s(&d.body_text), Value::Null, Value::Null, s("SQL")]);
    row.extend([s(if c.deterministic { "YES" } else { "NO" }), s(&c.data_access), Value::Null]);
    row.extend([s(&c.security), datetime(&d.created), datetime(d.modified()), s(&d.sql_mode), s(&c.comment)]);
    row.extend([s(&definer(d)), s(&d.character_set_client)]);
    row.extend([s(&d.collation_connection), s(db_collation(catalog, d))]);
    row
}

/// A routine's PARAMETERS rows: a function's return first, at position 0
/// with no mode or name, then each parameter.
fn parameter_rows(r: &RoutineEntry) -> Vec<Vec<Value>> {
    let d = &r.def;
    let row = |position: usize, mode: Value, name: Value, (types, dtd): ([Value; 8], Value)| {
        let mut row = vec![s("def"), s(&d.db), s(&d.name), Value::UInt(position as u64), mode, name];
        row.extend(types.into_iter().chain([dtd, s(d.kind.name())]));
        row
    };
    let scalar = |ty: &ColumnDef| (type_columns(ty), s(&column_type_text(ty)));
    let returns = r.routine.returns.iter().map(|ty| row(0, Value::Null, Value::Null, scalar(ty)));
    let params = r.routine.params.iter().enumerate().map(|(i, p)| {
        let types = match p.scalar_type() {
            Some(ty) => scalar(ty),
            None => anchored_type_values(&p.ty),
        };
        row(i + 1, s(p.mode.name()), s(&p.name), types)
    });
    returns.chain(params).collect()
}

/// The type columns of a ROW or anchored parameter, as MariaDB shows them:
/// the kind of type alone, and what it names as DTD_IDENTIFIER.
fn anchored_type_values(ty: &VarType) -> ([Value; 8], Value) {
    let quoted = |name: &ObjectName| match &name.db {
        Some(db) => format!("`{db}`.`{}`", name.name),
        None => format!("`{}`", name.name),
    };
    let (kind, dtd) = match ty {
        VarType::ColumnOf { table, column } => ("TYPE OF", format!("TYPE OF {}.`{column}`", quoted(table))),
        VarType::RowOfTable(table) => ("ROW TYPE OF", format!("ROW TYPE OF {}", quoted(table))),
        _ => ("ROW", "ROW".to_string()),
    };
    (std::array::from_fn(|i| if i == 0 { s(kind) } else { Value::Null }), s(&dtd))
}

fn definer(d: &RoutineDef) -> String {
    format!("{}@{}", d.definer.0, d.definer.1)
}

/// The members of mysql.proc's sql_mode SET, in bit order.
const PROC_SQL_MODES: [&str; 35] = [
    "REAL_AS_FLOAT",
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "IGNORE_BAD_TABLE_OPTIONS",
    "ONLY_FULL_GROUP_BY",
    "NO_UNSIGNED_SUBTRACTION",
    "NO_DIR_IN_CREATE",
    "POSTGRESQL",
    "ORACLE",
    "MSSQL",
    "DB2",
    "MAXDB",
    "NO_KEY_OPTIONS",
    "NO_TABLE_OPTIONS",
    "NO_FIELD_OPTIONS",
    "MYSQL323",
    "MYSQL40",
    "ANSI",
    "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES",
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO",
    "TRADITIONAL",
    "NO_AUTO_CREATE_USER",
    "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION",
    "PAD_CHAR_TO_FULL_LENGTH",
    "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT",
    "TIME_ROUND_FRACTIONAL",
];

/// mysql.proc's columns as MariaDB 10.11 declares them (its table options
/// are in `crate::system_tables`).
pub fn proc_sql() -> String {
    const UTF8_BIN: &str = "CHARACTER SET utf8mb3 COLLATE utf8mb3_bin";
    let modes: Vec<String> = PROC_SQL_MODES.iter().map(|m| format!("'{m}'")).collect();
    format!(
        "db char(64) {UTF8_BIN} NOT NULL DEFAULT '', name char(64) NOT NULL DEFAULT '', \
         type enum('FUNCTION','PROCEDURE','PACKAGE','PACKAGE BODY') NOT NULL, \
         specific_name char(64) NOT NULL DEFAULT '', language enum('SQL') NOT NULL DEFAULT 'SQL', \
         sql_data_access enum('CONTAINS_SQL','NO_SQL','READS_SQL_DATA','MODIFIES_SQL_DATA') NOT NULL DEFAULT 'CONTAINS_SQL', \
         is_deterministic enum('YES','NO') NOT NULL DEFAULT 'NO', \
         security_type enum('INVOKER','DEFINER') NOT NULL DEFAULT 'DEFINER', \
         param_list blob NOT NULL, returns longblob NOT NULL, body longblob NOT NULL, \
         definer varchar(384) {UTF8_BIN} NOT NULL DEFAULT '', \
         created timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(), \
         modified timestamp NOT NULL DEFAULT '0000-00-00 00:00:00', \
         sql_mode set({}) NOT NULL DEFAULT '', comment text {UTF8_BIN} NOT NULL, \
         character_set_client char(32) {UTF8_BIN} DEFAULT NULL, \
         collation_connection char(64) {UTF8_BIN} DEFAULT NULL, db_collation char(64) {UTF8_BIN} DEFAULT NULL, \
         body_utf8 longblob DEFAULT NULL, aggregate enum('NONE','GROUP') NOT NULL DEFAULT 'NONE', \
         PRIMARY KEY (db, name, type)",
        modes.join(",")
    )
}

/// mysql.proc's rows: every routine, whoever asks (reading the table takes
/// SELECT on it, checked before).
pub fn proc_rows(catalog: &Catalog) -> Vec<Vec<Value>> {
    sorted_routines(catalog).iter().map(|r| proc_row(catalog, &r.def)).collect()
}

/// A mysql.proc row. MariaDB keeps param_list and body in the client's
/// charset of the CREATE (body_utf8 is the body in UTF-8, as the catalog
/// keeps it), the characteristics as its ENUMs spell them.
fn proc_row(catalog: &Catalog, d: &RoutineDef) -> Vec<Value> {
    let c = &d.characteristics;
    let client = Charset::named(&d.character_set_client).unwrap_or(Charset::Utf8mb4);
    let in_client = |text: &str| Value::Bytes(client.encode(text.as_bytes()).into_owned());
    let mut row = vec![s(&d.db), s(&d.name), s(d.kind.name()), s(&d.name), s("SQL")];
    row.extend([s(&c.data_access.replace(' ', "_")), s(if c.deterministic { "YES" } else { "NO" }), s(&c.security)]);
    row.extend([in_client(&d.params_text), s(d.returns_text.as_deref().unwrap_or("")), in_client(&d.body_text)]);
    row.extend([s(&definer(d)), datetime(&d.created), datetime(d.modified()), s(&proc_sql_mode(&d.sql_mode))]);
    row.extend([s(&c.comment), s(&d.character_set_client), s(&d.collation_connection)]);
    row.extend([s(db_collation(catalog, d)), s(&d.body_text), s("NONE")]);
    row
}

/// An @@sql_mode as mysql.proc's SET names it: its bit 25 is INVALID_DATES
/// there, ALLOW_INVALID_DATES in the variable.
fn proc_sql_mode(sql_mode: &str) -> String {
    sql_mode
        .split(',')
        .map(|m| if m == "ALLOW_INVALID_DATES" { "INVALID_DATES" } else { m })
        .collect::<Vec<_>>()
        .join(",")
}
