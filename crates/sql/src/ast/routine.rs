//! Stored routines' syntax tree: definitions (signature, characteristics,
//! body) and the body language's statements, as `parse::routine` reads
//! them and `routine` runs them.

use crate::ast::{Expr, ObjectName, Statement, VarScope};
use onelog_core::ColumnDef;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum RoutineKind {
    Procedure,
    Function,
}

impl RoutineKind {
    pub fn name(self) -> &'static str {
        match self {
            RoutineKind::Procedure => "PROCEDURE",
            RoutineKind::Function => "FUNCTION",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamMode {
    In,
    Out,
    InOut,
}

impl ParamMode {
    /// As information_schema.PARAMETERS shows it.
    pub fn name(self) -> &'static str {
        match self {
            ParamMode::In => "IN",
            ParamMode::Out => "OUT",
            ParamMode::InOut => "INOUT",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RoutineParam {
    pub mode: ParamMode,
    pub name: String,
    /// A data type, `ROW(field type, ...)`, `TYPE OF [db.]table.column`
    /// or `ROW TYPE OF [db.]table`; anchored types are resolved at each
    /// call, as a DECLARE's are when it runs.
    pub ty: VarType,
}

impl RoutineParam {
    /// The declared data type, unless the parameter is a ROW or anchored.
    pub fn scalar_type(&self) -> Option<&ColumnDef> {
        match &self.ty {
            VarType::Scalar(ty) => Some(ty),
            _ => None,
        }
    }
}

/// The characteristics MariaDB keeps and shows (LANGUAGE SQL is the only
/// language and is not kept).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Characteristics {
    pub deterministic: bool,
    /// CONTAINS SQL, NO SQL, READS SQL DATA or MODIFIES SQL DATA.
    pub data_access: String,
    /// DEFINER or INVOKER.
    pub security: String,
    pub comment: String,
}

impl Default for Characteristics {
    fn default() -> Self {
        Characteristics {
            deterministic: false,
            data_access: "CONTAINS SQL".into(),
            security: "DEFINER".into(),
            comment: String::new(),
        }
    }
}

/// One characteristic ALTER PROCEDURE | FUNCTION sets; the others stay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Characteristic {
    Comment(String),
    /// CONTAINS SQL, NO SQL, READS SQL DATA or MODIFIES SQL DATA.
    DataAccess(&'static str),
    /// DEFINER or INVOKER.
    Security(String),
    Deterministic(bool),
    /// LANGUAGE SQL, the only language: nothing to keep.
    LanguageSql,
}

impl Characteristic {
    pub fn apply(&self, c: &mut Characteristics) {
        match self {
            Characteristic::Comment(comment) => c.comment = comment.clone(),
            Characteristic::DataAccess(access) => c.data_access = (*access).to_string(),
            Characteristic::Security(security) => c.security = security.clone(),
            Characteristic::Deterministic(deterministic) => c.deterministic = *deterministic,
            Characteristic::LanguageSql => {}
        }
    }
}

/// A routine's parsed signature and body.
#[derive(Debug, Clone, PartialEq)]
pub struct Routine {
    pub kind: RoutineKind,
    pub params: Vec<RoutineParam>,
    pub returns: Option<ColumnDef>,
    pub body: SpStmt,
}

/// `CREATE [OR REPLACE] [DEFINER = ..] PROCEDURE | FUNCTION [IF NOT
/// EXISTS] name (params) [RETURNS type] characteristics body`: the texts as
/// written (kept, shown and logged) and the parsed routine.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateRoutine {
    pub kind: RoutineKind,
    pub name: ObjectName,
    pub or_replace: bool,
    pub if_not_exists: bool,
    /// `None`: the current user.
    pub definer: Option<(String, String)>,
    pub params_text: String,
    pub returns_text: Option<String>,
    pub characteristics: Characteristics,
    pub body_text: String,
    pub routine: Arc<Routine>,
    /// The definition with what the creating session adds (definer, SQL
    /// mode, charsets); `None` from the parser.
    pub defined: Option<Box<crate::routine::RoutineDef>>,
}

/// Where a value is stored: a local variable, a user or system variable.
#[derive(Debug, Clone, PartialEq)]
pub enum SpTarget {
    Local(String),
    User(String),
    System { scope: VarScope, name: String },
}

/// An expression with its local variables as `?` parameters, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct SpExpr {
    pub expr: Expr,
    pub vars: Vec<String>,
}

/// An ordinary statement inside a body, its local variables as `?`
/// parameters; `into`: the targets of SELECT ... INTO.
#[derive(Debug, Clone, PartialEq)]
pub struct SpSql {
    pub text: String,
    pub statement: Statement,
    pub vars: Vec<String>,
    pub into: Vec<SpTarget>,
}

/// A condition a handler catches (named conditions are resolved at parse).
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    SqlState(String),
    Errno(u16),
    SqlWarning,
    NotFound,
    SqlException,
}

impl Condition {
    /// Whether an error with `errno` and `sqlstate` raises this condition.
    pub fn matches(&self, errno: u16, sqlstate: &str) -> bool {
        match self {
            Condition::SqlState(s) => s == sqlstate,
            Condition::Errno(n) => *n == errno,
            Condition::SqlWarning => sqlstate.starts_with("01"),
            Condition::NotFound => sqlstate.starts_with("02"),
            Condition::SqlException => {
                !sqlstate.starts_with("00") && !sqlstate.starts_with("01") && !sqlstate.starts_with("02")
            }
        }
    }

    /// MariaDB prefers the most specific handler: error number, then
    /// SQLSTATE, then the classes.
    pub fn rank(&self) -> u8 {
        match self {
            Condition::Errno(_) => 0,
            Condition::SqlState(_) => 1,
            _ => 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum LoopKind {
    Plain,
    While(SpExpr),
    /// REPEAT ... UNTIL cond.
    Repeat(SpExpr),
    /// `FOR var IN [REVERSE] lower .. upper`: an INT counting from one
    /// bound to the other, both evaluated once.
    ForRange {
        var: String,
        lower: SpExpr,
        upper: SpExpr,
        reverse: bool,
    },
    /// `FOR rec IN cursor | (SELECT ...)`: `rec.col` reads each row.
    ForRows {
        record: String,
        source: RowSource,
    },
}

/// The rows a FOR loop reads.
#[derive(Debug, Clone, PartialEq)]
pub enum RowSource {
    Cursor { name: String, args: Vec<SpExpr> },
    Query(Box<SpSql>),
}

/// A local variable's declared type. The anchored ones are resolved each
/// time the DECLARE runs, from the table, variable or cursor as it is then
/// (MariaDB's TYPE OF / ROW TYPE OF).
#[derive(Debug, Clone, PartialEq)]
pub enum VarType {
    Scalar(ColumnDef),
    /// `ROW(name type, ...)`: one variable per field (see [`record_field`]).
    Row(Vec<ColumnDef>),
    /// `TYPE OF [db.]table.column`.
    ColumnOf {
        table: ObjectName,
        column: String,
    },
    /// `TYPE OF variable`: a scalar or a row like it.
    VarOf(String),
    /// `ROW TYPE OF [db.]table`.
    RowOfTable(ObjectName),
    /// `ROW TYPE OF cursor`: the fields are the cursor's query's columns.
    RowOfCursor(String),
}

impl VarType {
    /// The field names a parser can know: an explicit ROW's.
    pub fn explicit_fields(&self) -> Option<Vec<String>> {
        match self {
            VarType::Row(fields) => Some(fields.iter().map(|f| f.name.clone()).collect()),
            _ => None,
        }
    }

    pub fn is_row(&self) -> bool {
        matches!(self, VarType::Row(_) | VarType::RowOfTable(_) | VarType::RowOfCursor(_))
    }
}

/// The local variable holding column `column` of FOR record `record`.
pub fn record_field(record: &str, column: &str) -> String {
    format!("{}.{}", record.to_ascii_lowercase(), column.to_ascii_lowercase())
}

#[derive(Debug, Clone, PartialEq)]
pub enum SpStmt {
    Block {
        label: Option<String>,
        body: Vec<SpStmt>,
    },
    DeclareVar {
        names: Vec<String>,
        ty: VarType,
        default: Option<SpExpr>,
    },
    /// `DECLARE name CURSOR [(params)] FOR query`: the parameters are
    /// variables of the query alone, given by OPEN.
    DeclareCursor {
        name: String,
        params: Vec<RoutineParam>,
        query: SpSql,
    },
    DeclareHandler {
        exit: bool,
        conditions: Vec<Condition>,
        body: Box<SpStmt>,
    },
    Set(Vec<(SpTarget, SpExpr)>),
    If {
        branches: Vec<(SpExpr, Vec<SpStmt>)>,
        otherwise: Option<Vec<SpStmt>>,
    },
    /// CASE statement: without an operand each WHEN is a condition.
    Case {
        operand: Option<SpExpr>,
        whens: Vec<(SpExpr, Vec<SpStmt>)>,
        otherwise: Option<Vec<SpStmt>>,
    },
    Loop {
        label: Option<String>,
        kind: LoopKind,
        body: Vec<SpStmt>,
    },
    Leave(String),
    Iterate(String),
    Return(SpExpr),
    Open {
        cursor: String,
        args: Vec<SpExpr>,
    },
    Fetch {
        cursor: String,
        into: Vec<SpTarget>,
    },
    Close(String),
    /// SIGNAL (`condition` given) or RESIGNAL (`condition` optional).
    Signal {
        resignal: bool,
        condition: Option<SignalCondition>,
        items: Vec<(ConditionItem, SpExpr)>,
    },
    GetDiagnostics(GetDiagnostics),
    Call {
        name: ObjectName,
        args: Vec<SpExpr>,
    },
    Sql(SpSql),
}

/// What a SIGNAL raises: its SQLSTATE and the error number it implies
/// (1642 for a warning class, 1643 for not found, 1644 otherwise; the
/// number itself for a condition declared by number).
#[derive(Debug, Clone, PartialEq)]
pub struct SignalCondition {
    pub sqlstate: String,
    pub errno: u16,
}

/// A condition information item SIGNAL sets and GET DIAGNOSTICS reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConditionItem {
    MessageText,
    MysqlErrno,
    ReturnedSqlstate,
    /// CLASS_ORIGIN, TABLE_NAME, ...: kept by name (`ConditionItems`).
    Named(&'static str),
}

impl ConditionItem {
    /// The items stored by name, as MariaDB spells them.
    pub const NAMED: [&'static str; 10] = [
        "CLASS_ORIGIN",
        "SUBCLASS_ORIGIN",
        "CONSTRAINT_CATALOG",
        "CONSTRAINT_SCHEMA",
        "CONSTRAINT_NAME",
        "CATALOG_NAME",
        "SCHEMA_NAME",
        "TABLE_NAME",
        "COLUMN_NAME",
        "CURSOR_NAME",
    ];

    /// The item called `upper` (upper case).
    pub fn by_name(upper: &str) -> Option<ConditionItem> {
        match upper {
            "MESSAGE_TEXT" => Some(ConditionItem::MessageText),
            "MYSQL_ERRNO" => Some(ConditionItem::MysqlErrno),
            "RETURNED_SQLSTATE" => Some(ConditionItem::ReturnedSqlstate),
            _ => ConditionItem::NAMED.iter().find(|n| **n == upper).map(|n| ConditionItem::Named(n)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ConditionItem::MessageText => "MESSAGE_TEXT",
            ConditionItem::MysqlErrno => "MYSQL_ERRNO",
            ConditionItem::ReturnedSqlstate => "RETURNED_SQLSTATE",
            ConditionItem::Named(n) => n,
        }
    }
}

/// What GET DIAGNOSTICS reads into each target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagnosticsItem {
    /// NUMBER: how many conditions the area holds.
    Number,
    /// ROW_COUNT: the previous statement's ROW_COUNT().
    RowCount,
    Condition(ConditionItem),
}

/// `GET [CURRENT] DIAGNOSTICS [CONDITION n] target = item, ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct GetDiagnostics {
    /// `None`: statement information (NUMBER, ROW_COUNT).
    pub condition: Option<SpExpr>,
    pub items: Vec<(SpTarget, DiagnosticsItem)>,
}

/// A compound statement a client sent on its own (`Statement::Compound`).
#[derive(Debug, Clone, PartialEq)]
pub struct Compound {
    pub body: SpStmt,
    /// GET DIAGNOSTICS: the statement reads the previous statement's
    /// conditions and must not clear them.
    pub reads_diagnostics: bool,
}
