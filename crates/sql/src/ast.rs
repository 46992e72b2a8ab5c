//! OneLog's own SQL AST. `parse` converts sqlparser's tree into this one at
//! the boundary, so a sqlparser upgrade touches one module, and the planner
//! and executor see only what OneLog supports.

pub mod account;
pub mod routine;
pub mod trigger;

use onelog_core::schema::{ColumnDefault, KeyPart};
use onelog_core::{Collation, ColumnDef, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectName {
    pub db: Option<String>,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
    Eq,
    NullSafeEq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    Xor,
    BitAnd,
    BitOr,
    BitXor,
    ShiftLeft,
    ShiftRight,
}

impl BinOp {
    /// `=`, `<=>`, `<>`, `<`, `<=`, `>`, `>=`: the operators that compare
    /// text under a collation.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::NullSafeEq | BinOp::NotEq | BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq)
    }

    /// The operator as MariaDB names it in error messages.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::IntDiv => "DIV",
            BinOp::Mod => "%",
            BinOp::Eq => "=",
            BinOp::NullSafeEq => "<=>",
            BinOp::NotEq => "<>",
            BinOp::Lt => "<",
            BinOp::LtEq => "<=",
            BinOp::Gt => ">",
            BinOp::GtEq => ">=",
            BinOp::And => "AND",
            BinOp::Or => "OR",
            BinOp::Xor => "XOR",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::ShiftLeft => "<<",
            BinOp::ShiftRight => ">>",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
    BitNot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggFunc {
    Count,
    Sum,
    Min,
    Max,
    Avg,
    /// BIT_AND / BIT_OR / BIT_XOR over the values as 64-bit unsigned.
    BitAnd,
    BitOr,
    BitXor,
    /// STD / STDDEV / STDDEV_POP and STDDEV_SAMP.
    StdPop,
    StdSamp,
    /// VARIANCE / VAR_POP and VAR_SAMP.
    VarPop,
    VarSamp,
}

/// A window function call: computed over the rows of the query (after
/// WHERE, GROUP BY and HAVING) that share its partition, in its order.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowCall {
    pub func: WindowFunc,
    pub args: Vec<Expr>,
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<OrderBy>,
    /// `None`: the default frame (RANGE UNBOUNDED PRECEDING to CURRENT ROW
    /// with ORDER BY, the whole partition without).
    pub frame: Option<WindowFrame>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowFunc {
    RowNumber,
    Rank,
    DenseRank,
    PercentRank,
    CumeDist,
    Ntile,
    Lag,
    Lead,
    FirstValue,
    LastValue,
    NthValue,
    Aggregate(AggFunc),
    /// PERCENTILE_CONT(p) WITHIN GROUP (ORDER BY key) and MEDIAN(key)
    /// (p = 0.5): the key interpolated at p. The WITHIN GROUP key is the
    /// call's ORDER BY, as MariaDB keeps it.
    PercentileCont,
    /// PERCENTILE_DISC(p) WITHIN GROUP (ORDER BY key): the first key whose
    /// cumulative distribution reaches p.
    PercentileDisc,
}

impl WindowFunc {
    /// Functions of the frame's rows; the others (ranks, LAG/LEAD) ignore
    /// any frame.
    pub fn uses_frame(self) -> bool {
        matches!(self, WindowFunc::FirstValue | WindowFunc::LastValue | WindowFunc::NthValue | WindowFunc::Aggregate(_))
    }
}

/// `ROWS|RANGE BETWEEN start AND end`.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowFrame {
    /// ROWS counts rows; RANGE moves by ORDER BY peers.
    pub rows: bool,
    pub start: FrameBound,
    pub end: FrameBound,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FrameBound {
    UnboundedPreceding,
    Preceding(FrameOffset),
    CurrentRow,
    Following(FrameOffset),
    UnboundedFollowing,
}

/// How far `n PRECEDING` / `n FOLLOWING` reaches from the current row.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameOffset {
    /// ROWS: a number of rows.
    Rows(u64),
    /// RANGE: a numeric literal (INT, DECIMAL or DOUBLE) subtracted from or
    /// added to the row's ORDER BY key.
    Range(Value),
}

/// What an EXPLAIN shows besides the plan: EXTENDED adds the `filtered`
/// column and a Note 1003 holding the query as the optimizer rewrote it;
/// PARTITIONS adds the `partitions` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplainMode {
    Plain,
    Extended,
    Partitions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarScope {
    Global,
    Session,
    /// `@@name`: session value if the variable has one, else global.
    Default,
}

/// A cast target, as CAST/CONVERT name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastType {
    Signed,
    Unsigned,
    /// CHAR or CHAR(n): text, cut to n characters.
    Char(Option<u32>),
    /// BINARY or BINARY(n): bytes, cut or zero-padded to n.
    Binary(Option<u32>),
    Decimal {
        precision: u8,
        scale: u8,
    },
    /// DOUBLE, or DOUBLE(M,D): rounded to D decimals (M digits shown).
    Double(Option<onelog_core::schema::FloatDigits>),
    Date,
    /// DATETIME(fsp): fractional digits past `fsp` are cut.
    DateTime(u8),
    /// TIME(fsp).
    Time(u8),
    Uuid,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Literal(Value),
    /// A `0x41` or `b'1000001'` literal (MariaDB's Item_hex_hybrid): a
    /// binary string, but its bytes read as a big-endian unsigned number
    /// where a number is wanted (arithmetic, a numeric CAST or column, a
    /// comparison with a number). `X'41'` is a plain string literal.
    HexHybrid(Vec<u8>),
    /// `?` placeholder, numbered from 0 in text order.
    Param(usize),
    Column {
        table: Option<String>,
        name: String,
    },
    /// A column resolved by the binder to its slot in the input row.
    Slot(usize),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    IsBool {
        expr: Box<Expr>,
        value: bool,
        negated: bool,
    },
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
    },
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
    },
    InSubquery {
        expr: Box<Expr>,
        query: Box<Select>,
        negated: bool,
    },
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        escape: Option<char>,
        negated: bool,
    },
    Function {
        name: String,
        args: Vec<Expr>,
    },
    Aggregate {
        func: AggFunc,
        arg: Option<Box<Expr>>,
        distinct: bool,
    },
    /// `GROUP_CONCAT([DISTINCT] e, ... [ORDER BY k [DESC], ...] [SEPARATOR
    /// 's'])`: the aggregate that carries its own ordering.
    GroupConcat {
        args: Vec<Expr>,
        distinct: bool,
        order_by: Vec<OrderBy>,
        separator: String,
    },
    /// Refers to the n-th aggregate computed by the grouping step.
    AggSlot(usize),
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    SystemVar {
        scope: VarScope,
        name: String,
    },
    UserVar(String),
    /// `@name := value`: sets the user variable as it is evaluated and
    /// yields the value (MariaDB's assignment operator, e.g. running
    /// numbers in `SELECT @n := @n + 1 ...`).
    AssignUserVar {
        name: String,
        value: Box<Expr>,
    },
    /// `func(args) OVER (PARTITION BY ... ORDER BY ... frame)`.
    Window(Box<WindowCall>),
    ScalarSubquery(Box<Select>),
    Exists {
        query: Box<Select>,
        negated: bool,
    },
    Cast {
        expr: Box<Expr>,
        to: CastType,
    },
    /// `expr COLLATE name` (`explicit`), or a text column's own collation
    /// attached by the binder (implicit, MariaDB's coercibility 2).
    Collate {
        expr: Box<Expr>,
        collation: Collation,
        explicit: bool,
    },
    /// `VALUES(col)` in ON DUPLICATE KEY UPDATE.
    InsertValue(String),
    /// `DEFAULT` in VALUES lists and SET clauses.
    Default,
    Tuple(Vec<Expr>),
}

impl Expr {
    /// An aggregate call (computed by the grouping step, not per row).
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Expr::Aggregate { .. } | Expr::GroupConcat { .. })
    }

    /// Whether the expression is a comparison, a logical operator or a
    /// predicate: its value is MariaDB's boolean 1 / 0 / NULL.
    pub fn is_boolean_valued(&self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Expr::Binary(Eq | NotEq | Lt | LtEq | Gt | GtEq | NullSafeEq | And | Or | Xor, _, _)
                | Expr::Unary(UnaryOp::Not, _)
                | Expr::IsNull { .. }
                | Expr::IsBool { .. }
                | Expr::Between { .. }
                | Expr::InList { .. }
                | Expr::InSubquery { .. }
                | Expr::Like { .. }
                | Expr::Exists { .. }
        )
    }

    /// Whether MariaDB evaluates this once, while optimizing: no column,
    /// subquery, variable, parameter, aggregate or volatile function.
    pub fn is_constant(&self) -> bool {
        !self.contains(&|x| match x {
            Expr::Function { name, .. } => VOLATILE_FUNCTIONS.contains(&name.as_str()),
            Expr::Literal(_) | Expr::HexHybrid(_) => false,
            Expr::Unary(..) | Expr::Binary(..) | Expr::Cast { .. } | Expr::Collate { .. } => false,
            Expr::IsNull { .. } | Expr::IsBool { .. } | Expr::Between { .. } | Expr::InList { .. } => false,
            Expr::Like { .. } | Expr::Case { .. } | Expr::Tuple(_) => false,
            _ => true,
        })
    }

    /// Whether `pred` holds for this expression or any below it (not into
    /// subqueries).
    pub fn contains(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        let mut found = pred(self);
        self.for_each_child(&mut |child| found = found || child.contains(pred));
        found
    }

    /// Calls `f` on each direct child expression (not into subqueries).
    pub fn for_each_child(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Expr::Unary(_, e)
            | Expr::IsNull { expr: e, .. }
            | Expr::IsBool { expr: e, .. }
            | Expr::InSubquery { expr: e, .. }
            | Expr::Cast { expr: e, .. }
            | Expr::Collate { expr: e, .. }
            | Expr::AssignUserVar { value: e, .. } => f(e),
            Expr::Binary(_, l, r) | Expr::Like { expr: l, pattern: r, .. } => {
                f(l);
                f(r);
            }
            Expr::Between { expr, low, high, .. } => {
                f(expr);
                f(low);
                f(high);
            }
            Expr::InList { expr, list, .. } => {
                f(expr);
                list.iter().for_each(f);
            }
            Expr::Function { args, .. } | Expr::Tuple(args) => args.iter().for_each(f),
            Expr::Window(call) => {
                call.args.iter().chain(&call.partition_by).for_each(&mut *f);
                call.order_by.iter().for_each(|o| f(&o.expr));
            }
            Expr::Aggregate { arg, .. } => arg.iter().for_each(|a| f(a)),
            Expr::GroupConcat { args, order_by, .. } => {
                args.iter().for_each(&mut *f);
                order_by.iter().for_each(|o| f(&o.expr));
            }
            Expr::Case { operand, whens, otherwise } => {
                operand.iter().for_each(|a| f(a));
                for (w, t) in whens {
                    f(w);
                    f(t);
                }
                otherwise.iter().for_each(|a| f(a));
            }
            Expr::Literal(_)
            | Expr::HexHybrid(_)
            | Expr::Param(_)
            | Expr::Column { .. }
            | Expr::Slot(_)
            | Expr::AggSlot(_)
            | Expr::SystemVar { .. }
            | Expr::UserVar(_)
            | Expr::ScalarSubquery(_)
            | Expr::Exists { .. }
            | Expr::InsertValue(_)
            | Expr::Default => {}
        }
    }

    /// Calls `f` on every table its subqueries read.
    pub fn for_each_table(&self, f: &mut dyn FnMut(&ObjectName)) {
        if let Some(query) = self.subquery() {
            query.for_each_table(f);
        }
        self.for_each_child(&mut |child| child.for_each_table(f));
    }

    /// Calls `f` with the name of every function this expression calls,
    /// in its subqueries too (where stored functions are found).
    pub fn for_each_function(&self, f: &mut dyn FnMut(&str)) {
        if let Expr::Function { name, .. } = self {
            f(name);
        }
        if let Some(query) = self.subquery() {
            query.for_each_part(&mut |part| {
                if let AstPart::Expr(e) = part {
                    e.for_each_function(f)
                }
            });
        }
        self.for_each_child(&mut |child| child.for_each_function(f));
    }

    /// Calls `f` with the (table qualifier, name) of every column this
    /// expression names that is not yet bound to a slot, in its subqueries
    /// too, at any depth: what a correlated subquery may read of an outer row.
    pub fn for_each_column_name(&self, f: &mut dyn FnMut(Option<&str>, &str)) {
        if let Expr::Column { table, name } = self {
            f(table.as_deref(), name);
        }
        if let Some(query) = self.subquery() {
            query.for_each_part(&mut |part| {
                if let AstPart::Expr(e) = part {
                    e.for_each_column_name(f)
                }
            });
        }
        self.for_each_child(&mut |child| child.for_each_column_name(f));
    }

    /// The query of a subquery expression.
    fn subquery(&self) -> Option<&Select> {
        match self {
            Expr::InSubquery { query, .. } | Expr::ScalarSubquery(query) | Expr::Exists { query, .. } => Some(query),
            _ => None,
        }
    }
}

/// A table a statement names, or one of its top-level expressions (whose
/// sub-expressions and subqueries the visitor walks itself): what
/// [`Statement::for_each_part`] visits.
#[derive(Clone, Copy)]
pub enum AstPart<'a> {
    Table(&'a ObjectName),
    Expr(&'a Expr),
}

impl AstPart<'_> {
    /// Calls `f` on the table, or on the tables of the expression's subqueries.
    fn for_each_table(self, f: &mut dyn FnMut(&ObjectName)) {
        match self {
            AstPart::Table(name) => f(name),
            AstPart::Expr(e) => e.for_each_table(f),
        }
    }
}

impl Select {
    /// Calls `f` on every base table this query reads: FROM and JOIN,
    /// derived tables, subqueries anywhere, UNION branches.
    pub fn for_each_table(&self, f: &mut dyn FnMut(&ObjectName)) {
        self.for_each_part(&mut |part| part.for_each_table(f));
    }

    /// Calls `f` on every table and top-level expression of this query:
    /// FROM and JOIN, derived tables, UNION branches.
    pub fn for_each_part(&self, f: &mut dyn FnMut(AstPart<'_>)) {
        self.from.iter().for_each(|j| j.for_each_part(f));
        for item in &self.items {
            if let SelectItem::Expr { expr, .. } = item {
                f(AstPart::Expr(expr));
            }
        }
        let exprs = self.selection.iter().chain(&self.group_by).chain(&self.having);
        exprs.chain(self.order_by.iter().map(|o| &o.expr)).for_each(|e| f(AstPart::Expr(e)));
        if let Some((_, next)) = &self.union {
            next.for_each_part(f);
        }
    }
}

impl Join {
    /// Calls `f` on every base table this FROM item and its ON condition read.
    pub fn for_each_table(&self, f: &mut dyn FnMut(&ObjectName)) {
        self.for_each_part(&mut |part| part.for_each_table(f));
    }

    fn for_each_part(&self, f: &mut dyn FnMut(AstPart<'_>)) {
        match &self.factor {
            TableFactor::Table { name, .. } => f(AstPart::Table(name)),
            TableFactor::Derived { query, .. } => query.for_each_part(f),
            TableFactor::Recursive(cte) => {
                cte.seed.for_each_part(f);
                cte.step.for_each_part(f);
            }
            TableFactor::CteSelf { .. } => {}
        }
        self.on.iter().for_each(|e| f(AstPart::Expr(e)));
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum SelectItem {
    Wildcard,
    QualifiedWildcard(String),
    Expr { expr: Expr, alias: Option<String>, text: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    /// `a RIGHT JOIN b`: run as `b LEFT JOIN a`, with `*` still listing
    /// `a` first (see `select::resolve_sources`).
    Right,
    Cross,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TableFactor {
    Table {
        name: ObjectName,
        alias: Option<String>,
        /// The keys USE / IGNORE / FORCE INDEX name: hints only (the
        /// planner picks its own path), but each must exist (1176).
        index_hints: Vec<String>,
    },
    /// A subquery in FROM, or a WITH query; `columns` (WITH's column list)
    /// renames the query's columns when not empty.
    Derived { query: Box<Select>, alias: String, columns: Vec<String> },
    /// A `WITH RECURSIVE` query that names itself.
    Recursive(Box<RecursiveCte>),
    /// Inside a recursive CTE's step: the rows its previous round added.
    CteSelf { name: String, alias: String },
}

/// `WITH RECURSIVE name (columns) AS (seed UNION [ALL] step)`: the seed's
/// rows, then the step run again on the rows each round added until a
/// round adds none (or `max_recursive_iterations` rounds ran).
#[derive(Debug, Clone, PartialEq)]
pub struct RecursiveCte {
    pub name: String,
    pub alias: String,
    pub columns: Vec<String>,
    pub seed: Select,
    pub step: Select,
    /// UNION DISTINCT: a row already produced is not added again.
    pub distinct: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    pub kind: JoinKind,
    pub factor: TableFactor,
    pub on: Option<Expr>,
    /// `USING (c, ...)`: the columns both sides are joined on; their
    /// equalities become `on` once the tables are resolved.
    pub using: Vec<String>,
    /// `NATURAL JOIN`: USING every column name both sides have.
    pub natural: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OrderBy {
    pub expr: Expr,
    pub desc: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockMode {
    Share,
    Update,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Select {
    pub distinct: bool,
    pub items: Vec<SelectItem>,
    /// First factor, then joins in order. Empty: `SELECT` without FROM.
    pub from: Vec<Join>,
    pub selection: Option<Expr>,
    pub group_by: Vec<Expr>,
    /// `GROUP BY ... WITH ROLLUP`: super-aggregate rows follow the groups.
    pub rollup: bool,
    pub having: Option<Expr>,
    pub order_by: Vec<OrderBy>,
    pub limit: Option<Expr>,
    pub offset: Option<Expr>,
    pub lock: Option<LockMode>,
    /// `UNION [ALL]` continuation: (all, next select).
    pub union: Option<(bool, Box<Select>)>,
    /// `SQL_CALC_FOUND_ROWS`: FOUND_ROWS() then counts the rows without
    /// LIMIT.
    pub calc_found_rows: bool,
    /// A top-level query's `INTO`: where its result goes instead of to the
    /// client (never set on a subquery or a routine's statement).
    pub into: Option<SelectInto>,
}

/// `SELECT ... INTO` (see `parse::select_into`).
#[derive(Debug, Clone, PartialEq)]
pub struct SelectInto {
    pub target: IntoTarget,
    /// Written after FROM, LIMIT, a UNION or a parenthesized query rather
    /// than right after the select list: deprecated (warning 1287).
    pub deprecated_position: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum IntoTarget {
    /// `INTO @a, @b`: the one row's values, by lower-cased name.
    UserVars(Vec<String>),
    /// `INTO OUTFILE 'file' [CHARACTER SET cs] [FIELDS ...] [LINES ...]`:
    /// the rows as text on the server, cut as LOAD DATA reads them.
    Outfile { file: Vec<u8>, charset: Option<String>, format: LoadFormat },
    /// `INTO DUMPFILE 'file'`: the one row's values, raw, one after another.
    Dumpfile(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum InsertSource {
    Values(Vec<Vec<Expr>>),
    Select(Box<Select>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Insert {
    pub table: ObjectName,
    pub columns: Vec<String>,
    pub source: InsertSource,
    pub ignore: bool,
    pub replace: bool,
    pub on_duplicate: Vec<(String, Expr)>,
    /// MariaDB's `RETURNING items`: a result set of the rows written.
    pub returning: Vec<SelectItem>,
}

/// `LOAD DATA [LOCAL] INFILE` (see `load_data`).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadData {
    /// The client sends the file (LOAD DATA LOCAL).
    pub local: bool,
    pub file: Vec<u8>,
    /// REPLACE or IGNORE before INTO TABLE (LOCAL without either ignores).
    pub duplicates: CreateSelectDuplicates,
    pub table: ObjectName,
    /// `CHARACTER SET name` as written; `None`: the database's charset.
    pub charset: Option<String>,
    pub format: LoadFormat,
    /// `IGNORE n LINES`.
    pub ignore_lines: u64,
    /// The column list; empty: every column in table order.
    pub targets: Vec<LoadTarget>,
    /// `SET col = expr, ...`, evaluated for each row after its fields.
    pub assignments: Vec<(String, Expr)>,
}

/// How a LOAD DATA file is cut into rows and fields (MariaDB's defaults:
/// tab, newline, backslash escapes, nothing enclosing).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadFormat {
    pub field_terminator: Vec<u8>,
    pub enclosed_by: Vec<u8>,
    /// `OPTIONALLY ENCLOSED BY`: a file written by SELECT ... INTO OUTFILE
    /// encloses only string values (reading takes either form).
    pub enclosed_optionally: bool,
    pub escaped_by: Vec<u8>,
    /// ESCAPED BY was written (NO_BACKSLASH_ESCAPES turns only the default
    /// backslash off).
    pub escaped_given: bool,
    pub line_starter: Vec<u8>,
    pub line_terminator: Vec<u8>,
}

impl Default for LoadFormat {
    fn default() -> LoadFormat {
        LoadFormat {
            field_terminator: b"\t".to_vec(),
            enclosed_by: Vec::new(),
            enclosed_optionally: false,
            escaped_by: b"\\".to_vec(),
            escaped_given: false,
            line_starter: Vec::new(),
            line_terminator: b"\n".to_vec(),
        }
    }
}

/// Where a LOAD DATA field goes: a column, or a user variable for SET.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadTarget {
    Column(String),
    Var(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    pub table: ObjectName,
    pub alias: Option<String>,
    pub assignments: Vec<(String, Expr)>,
    pub selection: Option<Expr>,
    pub order_by: Vec<OrderBy>,
    pub limit: Option<Expr>,
    pub ignore: bool,
}

/// `UPDATE t1 [AS a], t2 ... | t1 JOIN t2 ... SET [a.]x = ..., ...`: every
/// table of `from` may be assigned; each row changes at most once.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiUpdate {
    pub from: Vec<Join>,
    /// (table or alias as written, column, value).
    pub assignments: Vec<(Option<String>, String, Expr)>,
    pub selection: Option<Expr>,
    pub order_by: Vec<OrderBy>,
    pub limit: Option<Expr>,
    pub ignore: bool,
}

/// `DELETE t1[.*], t2 FROM <joins>` and `DELETE FROM t1, t2 USING <joins>`:
/// the rows of the named tables (aliases of `from`) that the join matches.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiDelete {
    /// The tables deleted from, by their name or alias in `from`.
    pub targets: Vec<ObjectName>,
    pub from: Vec<Join>,
    pub selection: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Delete {
    pub table: ObjectName,
    pub selection: Option<Expr>,
    pub order_by: Vec<OrderBy>,
    pub limit: Option<Expr>,
    /// MariaDB's `RETURNING items`: a result set of the rows deleted.
    pub returning: Vec<SelectItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IndexSpec {
    pub name: Option<String>,
    pub columns: Vec<String>,
    /// Per column: prefix length and direction.
    pub parts: Vec<KeyPart>,
    pub unique: bool,
    pub primary: bool,
    /// `USING BTREE | HASH`, kept for SHOW CREATE TABLE.
    pub using: Option<String>,
}

impl IndexSpec {
    /// A key on one whole column, as a column's PRIMARY KEY or UNIQUE
    /// option declares it.
    pub fn on_column(column: &str, primary: bool) -> IndexSpec {
        IndexSpec {
            name: None,
            columns: vec![column.to_string()],
            parts: vec![KeyPart::default()],
            unique: true,
            primary,
            using: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CreateTable {
    pub name: ObjectName,
    pub if_not_exists: bool,
    pub columns: Vec<ColumnDef>,
    pub indexes: Vec<IndexSpec>,
    pub engine: Option<String>,
    pub comment: Option<String>,
    pub auto_increment_start: Option<u64>,
    /// `DEFAULT CHARSET=... COLLATE=...`; `None` takes the database's.
    pub collation: Option<Collation>,
    /// The text columns declared without CHARACTER SET or COLLATE, which
    /// take the table's collation.
    pub take_table_collation: Vec<String>,
    /// CHECK constraints, column ones first as declared.
    pub checks: Vec<CheckSpec>,
    /// FOREIGN KEY constraints (column `REFERENCES` ones too), as declared.
    pub foreign_keys: Vec<ForeignKeySpec>,
    /// `CREATE TABLE t2 LIKE t1`: the table whose definition is copied.
    pub like: Option<ObjectName>,
    /// `CREATE TABLE t2 [(...)] [IGNORE|REPLACE] [AS] SELECT ...`.
    pub select: Option<Box<Select>>,
    /// What a row whose unique key is taken does: IGNORE skips it, REPLACE
    /// replaces the earlier row; neither fails the statement with 1062.
    pub on_duplicate: CreateSelectDuplicates,
    /// `CREATE TEMPORARY TABLE`: private to the session (see `temp`).
    pub temporary: bool,
    /// `CREATE OR REPLACE [TEMPORARY] TABLE` (honoured for temporary
    /// tables, see `temp`).
    pub or_replace: bool,
}

/// `[CONSTRAINT name] CHECK (condition)`, of a table or (`column`) of a
/// column.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSpec {
    pub name: Option<String>,
    pub condition: Expr,
    pub column: Option<String>,
}

/// `[CONSTRAINT [name]] FOREIGN KEY [index_name] (columns) REFERENCES
/// table (ref_columns) [ON DELETE action] [ON UPDATE action]`, or a
/// column's `REFERENCES table (ref_column) ...`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForeignKeySpec {
    pub name: Option<String>,
    /// The name of the index created for it when none fits (the
    /// constraint's name when there is none).
    pub index_name: Option<String>,
    pub columns: Vec<String>,
    pub ref_table: ObjectName,
    pub ref_columns: Vec<String>,
    pub on_delete: onelog_core::ReferentialAction,
    pub on_update: onelog_core::ReferentialAction,
}

/// `[DEFAULT] CHARACTER SET [=] cs [DEFAULT] COLLATE [=] c COMMENT [=] 'x'`
/// of CREATE / ALTER DATABASE; what is not given is kept (ALTER) or the
/// server's (CREATE: collation_server).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DatabaseOptions {
    pub collation: Option<Collation>,
    pub comment: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CreateSelectDuplicates {
    #[default]
    Error,
    Ignore,
    Replace,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AlterOp {
    AddColumn {
        column: ColumnDef,
        index: Option<IndexSpec>,
        /// No CHARACTER SET or COLLATE: the table's collation.
        takes_table_collation: bool,
    },
    DropColumn(String),
    /// `MODIFY c def` / `CHANGE old c def`: the column `old` becomes
    /// `column` (name included); its values are converted to the new type.
    ChangeColumn {
        old_name: String,
        column: ColumnDef,
        /// No CHARACTER SET or COLLATE: the table's collation.
        takes_table_collation: bool,
    },
    /// `RENAME COLUMN old TO new`: the name only.
    RenameColumn {
        old_name: String,
        new_name: String,
    },
    /// `FIRST` / `AFTER c` of an ADD, MODIFY or CHANGE: moves the column.
    MoveColumn {
        name: String,
        after: Option<String>,
    },
    AddIndex(IndexSpec),
    DropIndex(String),
    DropPrimaryKey,
    /// `ADD [CONSTRAINT name] CHECK (...)`, or a column's CHECK of an ADD /
    /// MODIFY / CHANGE.
    AddCheck(CheckSpec),
    /// `ADD [CONSTRAINT [name]] FOREIGN KEY ...`, or a column's
    /// `REFERENCES` of an ADD.
    AddForeignKey(ForeignKeySpec),
    /// `DROP FOREIGN KEY name`.
    DropForeignKey(String),
    /// `DROP CONSTRAINT [IF EXISTS] name` (a CHECK constraint or a key).
    DropConstraint {
        name: String,
        if_exists: bool,
    },
    /// `ALTER [COLUMN] c SET DEFAULT v` (Some) / `DROP DEFAULT` (None).
    SetDefault {
        column: String,
        default: Option<ColumnDefault>,
    },
    /// `RENAME [TO|AS] name`.
    RenameTable(ObjectName),
    /// `ENGINE=name`, as SHOW CREATE TABLE spells it: every table is
    /// OneLog's engine, the name is what SHOW CREATE TABLE reports.
    Engine(String),
    /// `COMMENT=text`.
    Comment(String),
    /// `AUTO_INCREMENT=n`: the next value handed out (at least one above
    /// the largest in the table).
    AutoIncrement(u64),
    /// `FORCE`: rebuild the table (OneLog's rows are already compact: only
    /// the outcome, the rows counted, changes).
    Force,
    /// `DISABLE KEYS` / `ENABLE KEYS` (`enable`) among other
    /// specifications: nothing to do, see `ddl::keys_note`.
    Keys {
        enable: bool,
    },
    /// `ORDER BY ...`: InnoDB keeps rows in clustered key order and ignores
    /// it, with a warning when the table has a primary key.
    OrderBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsolationLevel {
    ReadUncommitted,
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

impl IsolationLevel {
    pub fn name(self) -> &'static str {
        match self {
            IsolationLevel::ReadUncommitted => "READ-UNCOMMITTED",
            IsolationLevel::ReadCommitted => "READ-COMMITTED",
            IsolationLevel::RepeatableRead => "REPEATABLE-READ",
            IsolationLevel::Serializable => "SERIALIZABLE",
        }
    }

    pub fn from_name(name: &str) -> Option<IsolationLevel> {
        match name.to_ascii_uppercase().replace(' ', "-").as_str() {
            "READ-UNCOMMITTED" => Some(IsolationLevel::ReadUncommitted),
            "READ-COMMITTED" => Some(IsolationLevel::ReadCommitted),
            "REPEATABLE-READ" => Some(IsolationLevel::RepeatableRead),
            "SERIALIZABLE" => Some(IsolationLevel::Serializable),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub target: SetTarget,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SetTarget {
    System { scope: VarScope, name: String },
    User(String),
}

/// What a SHOW statement asks for; `like` / `filter` narrow the rows.
#[derive(Debug, Clone, PartialEq)]
pub enum Show {
    Databases,
    Tables {
        db: Option<String>,
        full: bool,
    },
    Columns {
        table: ObjectName,
        full: bool,
    },
    Index {
        table: ObjectName,
    },
    CreateTable(ObjectName),
    CreateView(ObjectName),
    CreateDatabase {
        name: String,
        /// `SHOW CREATE DATABASE IF NOT EXISTS` (mariadb-dump asks so).
        if_not_exists: bool,
    },
    Variables {
        global: bool,
    },
    Status {
        global: bool,
    },
    Processlist {
        full: bool,
    },
    Warnings,
    Errors,
    Engines,
    Plugins,
    Collation,
    CharacterSet,
    TableStatus {
        db: Option<String>,
    },
    BinaryLogs,
    MasterStatus,
    BinlogEvents {
        file: Option<String>,
        from: Option<u64>,
        limit: Option<(u64, u64)>,
    },
    EngineStatus,
    /// SHOW EVENTS [FROM db]: OneLog has no event scheduler, so no events.
    Events {
        db: Option<String>,
    },
    /// SHOW SLAVE HOSTS / SHOW REPLICA HOSTS.
    ReplicaHosts,
    /// SHOW OPEN TABLES [FROM db].
    OpenTables {
        db: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum ShowFilter {
    Like(String),
    Where(Expr),
}

/// Where a HANDLER READ starts: the first row, or after the last one read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerRead {
    First,
    Next,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaintenanceOp {
    Check,
    Analyze,
    Optimize,
    Repair,
}

impl MaintenanceOp {
    /// As the statement and its result's `Op` column spell it.
    pub fn name(self) -> &'static str {
        match self {
            MaintenanceOp::Check => "check",
            MaintenanceOp::Analyze => "analyze",
            MaintenanceOp::Optimize => "optimize",
            MaintenanceOp::Repair => "repair",
        }
    }
}

/// Calls `f` on each of `exprs`.
fn exprs<'a>(exprs: impl Iterator<Item = &'a Expr>, f: &mut dyn FnMut(AstPart<'_>)) {
    exprs.for_each(|e| f(AstPart::Expr(e)))
}

fn order_exprs(order_by: &[OrderBy]) -> impl Iterator<Item = &Expr> {
    order_by.iter().map(|o| &o.expr)
}

fn returning_exprs(items: &[SelectItem]) -> impl Iterator<Item = &Expr> {
    items.iter().filter_map(|item| match item {
        SelectItem::Expr { expr, .. } => Some(expr),
        _ => None,
    })
}

/// `WITH [CASCADED | LOCAL] CHECK OPTION` of a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum CheckOption {
    #[default]
    None,
    Local,
    Cascaded,
}

/// `CREATE [OR REPLACE] | ALTER [ALGORITHM=..] [DEFINER=..] [SQL SECURITY
/// ..] VIEW [IF NOT EXISTS] name [(columns)] AS select [WITH .. CHECK
/// OPTION]`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateView {
    pub name: ObjectName,
    pub or_replace: bool,
    /// ALTER VIEW: the view must exist.
    pub alter: bool,
    pub if_not_exists: bool,
    /// UNDEFINED, MERGE or TEMPTABLE, upper case.
    pub algorithm: String,
    /// `None`: the current user.
    pub definer: Option<(String, String)>,
    /// DEFINER or INVOKER, upper case.
    pub security: String,
    pub columns: Vec<String>,
    pub query: Box<Select>,
    /// The query as written (MariaDB logs it so).
    pub query_text: String,
    pub check_option: CheckOption,
    /// The session's character_set_client and collation_connection, which
    /// the view keeps (`None`: utf8mb4's defaults).
    pub client_charset: Option<(String, String)>,
}

impl Statement {
    /// A `SET STATEMENT ... FOR`'s assignments, the number of `?` they
    /// hold, and the statement they hold for; any other statement comes
    /// with none.
    pub fn statement_vars(&self) -> (&[Assignment], usize, &Statement) {
        match self {
            Statement::SetStatement { assignments, params, statement } => (assignments, *params, statement),
            other => (&[], 0, other),
        }
    }

    /// A schema change: committed on its own, as a QUERY event.
    /// INSERT / UPDATE IGNORE: errors MariaDB downgrades under IGNORE
    /// (a subquery of more than one row, ...) are warnings.
    pub fn ignores_errors(&self) -> bool {
        match self {
            Statement::Insert(insert) => insert.ignore,
            Statement::Update(update) => update.ignore,
            Statement::MultiUpdate(update) => update.ignore,
            _ => false,
        }
    }

    pub fn is_ddl(&self) -> bool {
        matches!(
            self,
            Statement::CreateDatabase { .. }
                | Statement::DropDatabase { .. }
                | Statement::CreateTable(_)
                | Statement::DropTable { .. }
                | Statement::CreateIndex { .. }
                | Statement::DropIndex { .. }
                | Statement::AlterTable { .. }
                | Statement::Truncate(_)
                | Statement::CreateView(_)
                | Statement::DropView { .. }
                | Statement::RenameTables(_)
                | Statement::AlterDatabase { .. }
                | Statement::CreateRoutine(_)
                | Statement::DropRoutine { .. }
                | Statement::AlterRoutine { .. }
                | Statement::CreateTrigger(_)
                | Statement::DropTrigger { .. }
        ) || matches!(self, Statement::Account(a) if a.writes())
    }

    /// Whether the statement changes data or schema: it holds a write
    /// intent (see `mdl`), so FLUSH TABLES WITH READ LOCK holds it back.
    pub fn writes(&self) -> bool {
        matches!(
            self,
            Statement::Insert(_)
                | Statement::Update(_)
                | Statement::Delete(_)
                | Statement::MultiUpdate(_)
                | Statement::MultiDelete(_)
                | Statement::LoadData(_)
        ) || self.is_ddl()
    }

    /// Whether the statement stores rows it computes (INSERT, REPLACE,
    /// UPDATE, LOAD DATA, CREATE TABLE ... SELECT; not DELETE): in strict
    /// mode the warnings MariaDB aborts such a statement on (division by
    /// zero) are errors.
    pub fn stores_rows(&self) -> bool {
        matches!(self, Statement::Insert(_) | Statement::Update(_) | Statement::MultiUpdate(_) | Statement::LoadData(_))
            || matches!(self, Statement::CreateTable(ct) if ct.select.is_some())
    }

    /// The table an INSERT, REPLACE, UPDATE or DELETE writes.
    pub fn written_table(&self) -> Option<&ObjectName> {
        match self {
            Statement::Insert(ins) => Some(&ins.table),
            Statement::Update(upd) => Some(&upd.table),
            Statement::Delete(del) => Some(&del.table),
            Statement::LoadData(load) => Some(&load.table),
            _ => None,
        }
    }

    /// Every table the statement writes: [`Self::written_table`], or the
    /// tables a multi-table UPDATE / DELETE may change (for an UPDATE
    /// with an unqualified assignment, every table of its join).
    pub fn written_tables(&self) -> Vec<&ObjectName> {
        match self {
            Statement::MultiUpdate(upd) => tables_named(&upd.from, &|alias| {
                upd.assignments.iter().any(|(t, _, _)| t.as_deref().is_none_or(|t| t == alias))
            }),
            Statement::MultiDelete(del) => {
                tables_named(&del.from, &|alias| del.targets.iter().any(|t| t.name == alias))
            }
            _ => self.written_table().into_iter().collect(),
        }
    }

    /// Calls `f` on every table a query or DML statement reads or writes
    /// (nothing for other statements): what it takes metadata locks on.
    pub fn for_each_table(&self, f: &mut dyn FnMut(&ObjectName)) {
        self.for_each_part(&mut |part| part.for_each_table(f));
    }

    /// Calls `f` with the name of every function a query or DML statement
    /// calls (nothing for other statements).
    pub fn for_each_function(&self, f: &mut dyn FnMut(&str)) {
        self.for_each_part(&mut |part| {
            if let AstPart::Expr(e) = part {
                e.for_each_function(f)
            }
        });
    }

    /// Calls `f` on every table and top-level expression of a query or DML
    /// statement (nothing for other statements).
    pub fn for_each_part(&self, f: &mut dyn FnMut(AstPart<'_>)) {
        match self {
            Statement::Select(select) => select.for_each_part(f),
            Statement::Insert(ins) => {
                f(AstPart::Table(&ins.table));
                match &ins.source {
                    InsertSource::Values(rows) => exprs(rows.iter().flatten(), f),
                    InsertSource::Select(select) => select.for_each_part(f),
                }
                exprs(ins.on_duplicate.iter().map(|(_, e)| e), f);
                exprs(returning_exprs(&ins.returning), f);
            }
            Statement::Update(upd) => {
                f(AstPart::Table(&upd.table));
                exprs(upd.assignments.iter().map(|(_, e)| e), f);
                exprs(upd.selection.iter().chain(order_exprs(&upd.order_by)), f);
            }
            Statement::Delete(del) => {
                f(AstPart::Table(&del.table));
                exprs(del.selection.iter().chain(order_exprs(&del.order_by)), f);
                exprs(returning_exprs(&del.returning), f);
            }
            Statement::MultiUpdate(upd) => {
                upd.from.iter().for_each(|j| j.for_each_part(f));
                exprs(upd.assignments.iter().map(|(_, _, e)| e), f);
                exprs(upd.selection.iter().chain(order_exprs(&upd.order_by)), f);
            }
            Statement::MultiDelete(del) => {
                del.from.iter().for_each(|j| j.for_each_part(f));
                exprs(del.selection.iter(), f);
            }
            Statement::LoadData(load) => {
                f(AstPart::Table(&load.table));
                exprs(load.assignments.iter().map(|(_, e)| e), f);
            }
            Statement::Explain { statement, .. } => statement.for_each_part(f),
            Statement::TableMaintenance { tables, .. } | Statement::ChecksumTable { tables, .. } => {
                tables.iter().for_each(|t| f(AstPart::Table(t)))
            }
            _ => {}
        }
    }
}

/// The base tables of `from` whose alias (or name) `named` accepts.
fn tables_named<'a>(from: &'a [Join], named: &dyn Fn(&str) -> bool) -> Vec<&'a ObjectName> {
    from.iter()
        .filter_map(|j| match &j.factor {
            TableFactor::Table { name, alias, .. } => named(alias.as_deref().unwrap_or(&name.name)).then_some(name),
            _ => None,
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// Account and privilege statements (see `accounts`).
    Account(Box<account::AccountStmt>),
    Select(Box<Select>),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    MultiUpdate(Box<MultiUpdate>),
    MultiDelete(Box<MultiDelete>),
    LoadData(Box<LoadData>),
    CreateDatabase {
        name: String,
        if_not_exists: bool,
        options: DatabaseOptions,
    },
    DropDatabase {
        name: String,
        if_exists: bool,
    },
    Use(String),
    CreateTable(CreateTable),
    DropTable {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    /// `DROP TEMPORARY TABLE`: drops only the session's temporary tables
    /// (never a base table of the same name), see `temp`.
    DropTemporaryTable {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    CreateView(CreateView),
    DropView {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    CreateIndex {
        table: ObjectName,
        index: IndexSpec,
        /// IF NOT EXISTS: a taken name is note 1061 and nothing done.
        if_not_exists: bool,
        /// MariaDB's CREATE OR REPLACE INDEX: an index of that name is
        /// dropped first.
        or_replace: bool,
    },
    DropIndex {
        table: ObjectName,
        name: String,
        /// IF EXISTS: a missing index is note 1091 and nothing done.
        if_exists: bool,
    },
    AlterTable {
        table: ObjectName,
        ops: Vec<AlterOp>,
    },
    Truncate(ObjectName),
    /// `RENAME TABLE a TO b [, c TO d ...]`: in order, all or none.
    RenameTables(Vec<(ObjectName, ObjectName)>),
    /// `ALTER {DATABASE|SCHEMA} [name] options` (no name: the session's).
    AlterDatabase {
        name: Option<String>,
        options: DatabaseOptions,
    },
    /// `ALTER TABLE t DISABLE|ENABLE KEYS` (mariadb-dump writes it around
    /// each table's rows): nothing to do, as for InnoDB, which says so in
    /// note 1031 (see `ddl::keys_note`).
    AlterTableKeys {
        table: ObjectName,
        enable: bool,
    },
    Begin {
        read_only: bool,
        /// `WITH CONSISTENT SNAPSHOT`: the read view is taken at once, with
        /// the binlog position it reflects (`Binlog_snapshot_file/position`).
        consistent_snapshot: bool,
    },
    Commit,
    Rollback,
    Savepoint(String),
    RollbackToSavepoint(String),
    ReleaseSavepoint(String),
    Set(Vec<Assignment>),
    /// `SET STATEMENT var = value [, ...] FOR statement`: the session
    /// variables take these values for `statement` only (see
    /// `Session::execute_framed`).
    SetStatement {
        assignments: Vec<Assignment>,
        /// How many `?` the assignments hold: they come before the
        /// statement's.
        params: usize,
        statement: Box<Statement>,
    },
    /// SET NAMES charset [COLLATE collation]: the connection's charsets
    /// and collation.
    SetNames {
        collation: Collation,
    },
    SetTransaction {
        scope: VarScope,
        isolation: Option<IsolationLevel>,
        read_only: Option<bool>,
    },
    Show {
        what: Show,
        filter: Option<ShowFilter>,
    },
    Explain {
        statement: Box<Statement>,
        mode: ExplainMode,
    },
    Kill {
        id: u64,
        query_only: bool,
    },
    FlushBinaryLogs,
    /// `FLUSH TABLES WITH READ LOCK`: the global read lock (see `mdl`).
    FlushTablesWithReadLock,
    /// `UNLOCK TABLES`: releases the global read lock and the LOCK TABLES
    /// locks.
    UnlockTables,
    /// `LOCK TABLES t READ, u WRITE, ...` (aliases are accepted and
    /// ignored): each table with whether it is locked for writing.
    LockTables(Vec<(ObjectName, bool)>),
    /// `SHUTDOWN` (and COM_SHUTDOWN): a clean stop, as on SIGTERM.
    Shutdown,
    /// `PREPARE name FROM expr`: the statement text `expr` yields, parsed
    /// and kept in the session under `name` for EXECUTE.
    Prepare {
        name: String,
        source: Expr,
    },
    /// `EXECUTE name [USING expr, ...]`: the `?`s take the values in order.
    Execute {
        name: String,
        using: Vec<Expr>,
    },
    /// `EXECUTE IMMEDIATE expr [USING expr, ...]`: prepare and execute once.
    ExecuteImmediate {
        source: Expr,
        using: Vec<Expr>,
    },
    /// `{DEALLOCATE | DROP} PREPARE name`.
    Deallocate(String),
    /// `CHECK | ANALYZE | OPTIMIZE | REPAIR TABLE t [, t ...]`.
    TableMaintenance {
        op: MaintenanceOp,
        tables: Vec<ObjectName>,
    },
    /// `HANDLER t OPEN [[AS] alias]` (see `handler`).
    HandlerOpen {
        table: ObjectName,
        alias: Option<String>,
    },
    /// `HANDLER alias READ {FIRST | NEXT} [WHERE cond] [LIMIT [offset,] n]`.
    HandlerRead {
        alias: String,
        how: HandlerRead,
        filter: Option<Expr>,
        limit: (u64, u64),
    },
    /// `HANDLER alias CLOSE`.
    HandlerClose(String),
    /// `CHECKSUM TABLE t [, t ...] [QUICK | EXTENDED]`.
    ChecksumTable {
        tables: Vec<ObjectName>,
        quick: bool,
    },
    /// `FLUSH HOSTS`: unblocks the addresses `max_connect_errors` blocked.
    FlushHosts,
    /// `FLUSH USER_RESOURCES`: the accounts' hourly counts start again.
    FlushUserResources,
    /// `FLUSH SSL`: reloads the server's certificates and key.
    FlushSsl,
    /// Other FLUSH forms (TABLES, PRIVILEGES, ...): accepted, nothing to do.
    FlushOther,
    /// `INSTALL SONAME 'lib'` (`plugin` None) or `INSTALL PLUGIN name
    /// SONAME 'lib'`: see `accounts::plugins`.
    InstallPlugin {
        plugin: Option<String>,
        soname: String,
    },
    PurgeBinaryLogsTo(String),
    PurgeBinaryLogsBefore(Expr),
    ResetMaster,
    /// A comment-only or empty query.
    Empty,
    /// CREATE PROCEDURE / FUNCTION (see `routine`).
    CreateRoutine(Box<routine::CreateRoutine>),
    DropRoutine {
        kind: routine::RoutineKind,
        name: ObjectName,
        if_exists: bool,
    },
    /// `ALTER PROCEDURE | FUNCTION name characteristic...`.
    AlterRoutine {
        kind: routine::RoutineKind,
        name: ObjectName,
        changes: Vec<routine::Characteristic>,
    },
    /// `SHOW CREATE PROCEDURE | FUNCTION name`.
    ShowCreateRoutine {
        kind: routine::RoutineKind,
        name: ObjectName,
    },
    /// `SHOW PROCEDURE | FUNCTION | PACKAGE [BODY] STATUS [LIKE | WHERE]`;
    /// `kind` is `None` for packages, which OneLog has none of (MariaDB
    /// creates them only under sql_mode=ORACLE), so they list nothing, as
    /// a MariaDB without packages answers mariadb-dump --routines.
    ShowRoutineStatus {
        kind: Option<routine::RoutineKind>,
        filter: Option<ShowFilter>,
    },
    /// A compound statement a client sends on its own: `BEGIN NOT ATOMIC
    /// ... END`, `SIGNAL`, `RESIGNAL`, `GET DIAGNOSTICS` (run like a
    /// procedure's body, see `routine::run_compound`).
    Compound(std::sync::Arc<routine::Compound>),
    /// `CALL name(args)`.
    Call {
        name: ObjectName,
        args: Vec<Expr>,
    },
    /// `DO expr [, expr ...]`: evaluates, returns nothing (held as the
    /// SELECT of the same expressions).
    Do(Box<Select>),
    /// CREATE TRIGGER (see `trigger`).
    CreateTrigger(Box<trigger::CreateTrigger>),
    DropTrigger {
        name: ObjectName,
        if_exists: bool,
    },
    ShowCreateTrigger(ObjectName),
    /// `SHOW TRIGGERS [FROM db] [LIKE | WHERE]`.
    ShowTriggers {
        db: Option<String>,
        filter: Option<ShowFilter>,
    },
}

/// Functions whose value can change within a statement: never folded.
const VOLATILE_FUNCTIONS: &[&str] = &[
    "rand",
    "rownum",
    "uuid",
    "uuid_short",
    "sys_guid",
    "sleep",
    "benchmark",
    "get_lock",
    "release_lock",
    "release_all_locks",
    "is_free_lock",
    "is_used_lock",
    "nextval",
    "lastval",
    "setval",
    "master_pos_wait",
    "load_file",
    "last_insert_id",
    "row_count",
    "found_rows",
];
