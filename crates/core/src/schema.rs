//! Column, index and table definitions: the catalog's vocabulary, shared by
//! the SQL layer, the storage key/row codecs and the binlog TABLE_MAP encoder.

use crate::collation::Collation;
use crate::value::Value;
use serde::{Deserialize, Serialize};

/// Size class of TEXT/BLOB columns (its length prefix in bytes is 1, 2, 3, 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlobSize {
    Tiny,
    Normal,
    Medium,
    Long,
}

impl BlobSize {
    /// Bytes of the length prefix in MySQL's row image.
    pub fn pack_length(self) -> usize {
        match self {
            BlobSize::Tiny => 1,
            BlobSize::Normal => 2,
            BlobSize::Medium => 3,
            BlobSize::Long => 4,
        }
    }

    /// The smallest size holding `bytes`, as MariaDB picks TEXT(n) / BLOB(n).
    pub fn holding(bytes: u64) -> BlobSize {
        [BlobSize::Tiny, BlobSize::Normal, BlobSize::Medium]
            .into_iter()
            .find(|s| bytes <= s.max_bytes())
            .unwrap_or(BlobSize::Long)
    }

    /// Largest value in bytes.
    pub fn max_bytes(self) -> u64 {
        match self {
            BlobSize::Tiny => 255,
            BlobSize::Normal => 65_535,
            BlobSize::Medium => 16_777_215,
            BlobSize::Long => 4_294_967_295,
        }
    }
}

/// A column's SQL type. Signedness lives in [`ColumnDef::unsigned`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColumnType {
    TinyInt,
    SmallInt,
    MediumInt,
    Int,
    BigInt,
    Decimal {
        precision: u8,
        scale: u8,
    },
    Float,
    Double,
    /// CHAR(n), n in characters.
    Char(u32),
    /// VARCHAR(n), n in characters.
    VarChar(u32),
    /// BINARY(n), n in bytes.
    Binary(u32),
    /// VARBINARY(n), n in bytes.
    VarBinary(u32),
    Text(BlobSize),
    Blob(BlobSize),
    Date,
    DateTime {
        fsp: u8,
    },
    Timestamp {
        fsp: u8,
    },
    Time {
        fsp: u8,
    },
    Year,
    Enum(Vec<String>),
    /// MariaDB's UUID (16 bytes, shown as RFC 4122 text).
    Uuid,
    /// BIT(n), 1 <= n <= 64: an unsigned number of n bits, sent and logged
    /// as its (n + 7) / 8 bytes, big-endian. (Last: catalogs store the
    /// variant's position.)
    Bit(u8),
    /// SET('a','b',...): up to 64 members; a value is a set of them, kept
    /// as its members in definition order joined by ',' and stored, sent to
    /// the binlog and replicas as the bitmask (member i is bit i).
    Set(Vec<String>),
}

impl ColumnType {
    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            ColumnType::TinyInt
                | ColumnType::SmallInt
                | ColumnType::MediumInt
                | ColumnType::Int
                | ColumnType::BigInt
                | ColumnType::Year
        )
    }

    /// The numeric types: what UNSIGNED and ZEROFILL apply to.
    pub fn is_numeric(&self) -> bool {
        !matches!(self, ColumnType::Year) && self.is_integer()
            || matches!(self, ColumnType::Decimal { .. } | ColumnType::Float | ColumnType::Double)
    }

    /// True for every type whose values are character strings (compared
    /// under the column's collation).
    pub fn is_text(&self) -> bool {
        matches!(self, ColumnType::Char(_) | ColumnType::VarChar(_) | ColumnType::Text(_) | ColumnType::Enum(_))
            || matches!(self, ColumnType::Set(_))
    }

    /// ENUM and SET: strings limited to a list of members, kept as a
    /// number, so compared and keyed unlike other strings.
    pub fn has_members(&self) -> bool {
        matches!(self, ColumnType::Enum(_) | ColumnType::Set(_))
    }

    /// True for byte-string types (BINARY, VARBINARY, BLOB).
    pub fn is_binary_string(&self) -> bool {
        matches!(self, ColumnType::Binary(_) | ColumnType::VarBinary(_) | ColumnType::Blob(_))
    }

    /// The SQL spelling used by SHOW CREATE TABLE and information_schema.
    pub fn sql_name(&self) -> String {
        match self {
            ColumnType::TinyInt => "tinyint".into(),
            ColumnType::SmallInt => "smallint".into(),
            ColumnType::MediumInt => "mediumint".into(),
            ColumnType::Int => "int".into(),
            ColumnType::BigInt => "bigint".into(),
            ColumnType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
            ColumnType::Float => "float".into(),
            ColumnType::Double => "double".into(),
            ColumnType::Char(n) => format!("char({n})"),
            ColumnType::VarChar(n) => format!("varchar({n})"),
            ColumnType::Binary(n) => format!("binary({n})"),
            ColumnType::VarBinary(n) => format!("varbinary({n})"),
            ColumnType::Text(s) => format!("{}text", blob_prefix(*s)),
            ColumnType::Blob(s) => format!("{}blob", blob_prefix(*s)),
            ColumnType::Date => "date".into(),
            ColumnType::DateTime { fsp } => with_fsp("datetime", *fsp),
            ColumnType::Timestamp { fsp } => with_fsp("timestamp", *fsp),
            ColumnType::Time { fsp } => with_fsp("time", *fsp),
            ColumnType::Year => "year(4)".into(),
            ColumnType::Bit(bits) => format!("bit({bits})"),
            ColumnType::Uuid => "uuid".into(),
            ColumnType::Enum(labels) => format!("enum({})", quoted_members(labels)),
            ColumnType::Set(members) => format!("set({})", quoted_members(members)),
        }
    }
}

/// ENUM / SET members as SQL string literals, comma-separated.
fn quoted_members(members: &[String]) -> String {
    let quoted: Vec<String> = members.iter().map(|m| format!("'{}'", m.replace('\'', "''"))).collect();
    quoted.join(",")
}

fn blob_prefix(size: BlobSize) -> &'static str {
    match size {
        BlobSize::Tiny => "tiny",
        BlobSize::Normal => "",
        BlobSize::Medium => "medium",
        BlobSize::Long => "long",
    }
}

fn with_fsp(name: &str, fsp: u8) -> String {
    if fsp == 0 {
        name.to_string()
    } else {
        format!("{name}({fsp})")
    }
}

/// A column's default, evaluated when an INSERT omits the column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ColumnDefault {
    Value(Value),
    CurrentTimestamp,
    /// `DEFAULT (expr)` (MariaDB 10.2+): the expression's text as MariaDB
    /// prints it, computed for each row an INSERT leaves the column out of
    /// (see onelog_sql's `default_expr`).
    Expr(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnDef {
    pub name: String,
    pub ty: ColumnType,
    pub unsigned: bool,
    pub nullable: bool,
    /// `None` means the column has no DEFAULT clause.
    pub default: Option<ColumnDefault>,
    pub auto_increment: bool,
    pub on_update_current_timestamp: bool,
    pub collation: Collation,
    pub comment: String,
    /// A display width as declared (`INT(5)`, `BOOL` is `TINYINT(1)`):
    /// shown by SHOW CREATE TABLE and used as the result column's length;
    /// `None` is the type's default width.
    #[serde(default)]
    pub display_width: Option<u32>,
    /// ZEROFILL (implies UNSIGNED): values are shown left-padded with zeros
    /// to the display width.
    #[serde(default)]
    pub zerofill: bool,
    /// FLOAT(M,D) / DOUBLE(M,D): M digits of which D decimals; values are
    /// rounded to D decimals when stored.
    #[serde(default)]
    pub float_digits: Option<FloatDigits>,
    /// TEXT(n) as declared, n in characters: its size class depends on the
    /// column's charset, which may be known only when the table's is
    /// (see [`ColumnDef::set_collation`]). Not kept in the catalog.
    #[serde(skip)]
    pub text_chars: Option<u64>,
    /// `[GENERATED ALWAYS] AS (expr) VIRTUAL | STORED | PERSISTENT`: the
    /// column's value is computed from the row's other columns (see
    /// onelog_sql's `generated`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
}

/// A generated column's expression and kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generated {
    /// The expression's text as MariaDB prints it (GENERATION_EXPRESSION;
    /// SHOW CREATE TABLE puts it in parentheses).
    pub expr: String,
    /// STORED (PERSISTENT) rather than VIRTUAL. OneLog keeps the values of
    /// both kinds in the row: MariaDB's binlog row images carry virtual
    /// values too, and reads need no computation; the kind is what SHOW
    /// CREATE TABLE and information_schema report and what the DDL checks.
    pub stored: bool,
}

impl Generated {
    /// `VIRTUAL` or `STORED`, as SHOW CREATE TABLE names the kind.
    pub fn kind(&self) -> &'static str {
        if self.stored {
            "STORED"
        } else {
            "VIRTUAL"
        }
    }
}

/// The (M,D) of FLOAT(M,D) / DOUBLE(M,D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloatDigits {
    pub digits: u8,
    pub decimals: u8,
}

impl ColumnDef {
    /// A nullable column with no default and the type's natural collation.
    pub fn new(name: &str, ty: ColumnType) -> ColumnDef {
        let collation = if ty.is_text() { Collation::default() } else { Collation::Binary };
        ColumnDef {
            name: name.to_string(),
            ty,
            unsigned: false,
            nullable: true,
            default: None,
            auto_increment: false,
            on_update_current_timestamp: false,
            collation,
            comment: String::new(),
            display_width: None,
            zerofill: false,
            float_digits: None,
            text_chars: None,
            generated: None,
        }
    }

    /// Gives the column `collation`; a TEXT(n) column takes the smallest
    /// size holding n characters of its charset, as MariaDB picks it
    /// (TEXT(63) is tinytext in utf8mb4, TEXT(64) text).
    pub fn set_collation(&mut self, collation: Collation) {
        self.collation = collation;
        if let (ColumnType::Text(size), Some(chars)) = (&mut self.ty, self.text_chars) {
            *size = BlobSize::holding(chars.saturating_mul(u64::from(collation.mbmaxlen())));
        }
    }

    /// The width values are shown in: the declared display width or the
    /// type's default (MariaDB's `int(11)`, `int(10) unsigned`, `float`'s 12).
    pub fn display_width(&self) -> Option<u32> {
        if let Some(digits) = self.float_digits {
            return Some(u32::from(digits.digits));
        }
        let sign = u32::from(!self.unsigned);
        let default = match self.ty {
            ColumnType::TinyInt => 3 + sign,
            ColumnType::SmallInt => 5 + sign,
            ColumnType::MediumInt => 8 + sign,
            ColumnType::Int => 10 + sign,
            ColumnType::BigInt => 20,
            ColumnType::Float => 12,
            ColumnType::Double => 22,
            _ => return None,
        };
        Some(self.display_width.unwrap_or(default))
    }

    /// Maximum length of a value in bytes (for string types), as MySQL's
    /// row image and column definitions use it.
    pub fn max_bytes(&self) -> u64 {
        match &self.ty {
            ColumnType::Char(n) | ColumnType::VarChar(n) => u64::from(*n) * u64::from(self.collation.mbmaxlen()),
            ColumnType::Binary(n) | ColumnType::VarBinary(n) => u64::from(*n),
            ColumnType::Text(s) | ColumnType::Blob(s) => s.max_bytes(),
            ColumnType::Uuid => crate::uuid::UUID_BYTES as u64,
            ColumnType::Set(members) => crate::set_value::set_max_chars(members) * u64::from(self.collation.mbmaxlen()),
            _ => 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexDef {
    /// Unique within the whole server; the storage key prefix of the index.
    pub id: u64,
    /// `PRIMARY` for the primary key.
    pub name: String,
    /// Positions of the key columns in [`TableDef::columns`].
    pub columns: Vec<usize>,
    pub unique: bool,
    pub primary: bool,
    /// Per key column, how the statement declared it; empty for indexes
    /// stored before key parts were kept (every part whole, ascending).
    #[serde(default)]
    pub parts: Vec<KeyPart>,
    /// Added for a FOREIGN KEY that no key served (MariaDB's
    /// HA_GENERATED_KEY): dropped once another key starts with its columns.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generated: bool,
    /// `USING BTREE | HASH` as the statement declared it, which MariaDB
    /// prints back; every OneLog index is an ordered tree whatever it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub using: Option<String>,
}

/// A key column's declared options. OneLog's index entries hold the whole
/// value in ascending order whatever these say (a UNIQUE prefix key is
/// enforced on whole values); SHOW CREATE TABLE and SHOW INDEX report them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPart {
    /// `col(n)`: the prefix length in characters (bytes for binary types).
    pub prefix_length: Option<u32>,
    /// `col DESC`.
    pub descending: bool,
}

impl IndexDef {
    /// The `PRIMARY` key on `columns`, whole values ascending.
    pub fn primary_key(id: u64, columns: Vec<usize>) -> IndexDef {
        IndexDef {
            id,
            name: "PRIMARY".into(),
            columns,
            unique: true,
            primary: true,
            parts: Vec::new(),
            generated: false,
            using: None,
        }
    }

    /// The options of the key's `n`th column.
    pub fn part(&self, n: usize) -> KeyPart {
        self.parts.get(n).copied().unwrap_or_default()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableDef {
    /// Unique within the whole server; the binlog table_id.
    pub id: u64,
    pub db: String,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    /// The primary key, if any, comes first. A table without one gets a
    /// hidden row id as InnoDB does.
    pub indexes: Vec<IndexDef>,
    pub engine: String,
    pub comment: String,
    /// The table's default collation (`DEFAULT CHARSET=... COLLATE=...`):
    /// new text columns take it; SHOW CREATE TABLE prints a column's own
    /// only where it differs. Catalogs written before it existed read as
    /// utf8mb4_general_ci, the only one they could hold.
    #[serde(default)]
    pub collation: Collation,
    /// How the table's text index keys are encoded: [`KEY_FORMAT`] for
    /// tables this version writes; 0 (absent) for tables written before
    /// keys were collation sort keys, which OneLog refuses to open when a
    /// text column is in a key (their stored order would disagree with
    /// comparisons).
    #[serde(default)]
    pub key_format: u8,
    /// The `AUTO_INCREMENT=n` the table was created or last altered with
    /// (0: none): the counter never starts below it, after a restart too.
    #[serde(default)]
    pub auto_increment_start: u64,
    /// CHECK constraints, in the order SHOW CREATE TABLE prints them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<CheckConstraint>,
    /// FOREIGN KEY constraints, sorted by name as InnoDB keeps (and SHOW
    /// CREATE TABLE prints) them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<ForeignKey>,
}

/// What a change to a referenced (parent) row does to the rows that
/// reference it. RESTRICT is InnoDB's default and is never printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReferentialAction {
    #[default]
    Restrict,
    NoAction,
    Cascade,
    SetNull,
}

impl ReferentialAction {
    /// The words SHOW CREATE TABLE and information_schema use.
    pub fn sql_name(self) -> &'static str {
        match self {
            ReferentialAction::Restrict => "RESTRICT",
            ReferentialAction::NoAction => "NO ACTION",
            ReferentialAction::Cascade => "CASCADE",
            ReferentialAction::SetNull => "SET NULL",
        }
    }
}

/// A FOREIGN KEY constraint of the (child) table that holds it: each row
/// whose `columns` are all non-NULL must match a row of the referenced
/// (parent) table on `ref_columns`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignKey {
    /// The declared name, or InnoDB's `<table>_ibfk_<n>`.
    pub name: String,
    /// Positions of the referencing columns in this table.
    pub columns: Vec<usize>,
    pub ref_db: String,
    pub ref_table: String,
    /// Names of the referenced columns (the parent may not exist yet under
    /// `foreign_key_checks=0`, so they cannot be positions).
    pub ref_columns: Vec<String>,
    pub on_delete: ReferentialAction,
    pub on_update: ReferentialAction,
}

/// A CHECK constraint: a row is refused when its condition is false (NULL
/// passes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckConstraint {
    /// The column's name for a column constraint; the declared name or
    /// MariaDB's `CONSTRAINT_<n>` for a table constraint.
    pub name: String,
    /// The condition as MariaDB prints it (`` `a` > 0 ``), re-parsed where
    /// it is enforced.
    pub condition: String,
    /// Declared with a column (`a INT CHECK (a > 0)`): SHOW CREATE TABLE
    /// prints it there, information_schema says LEVEL 'Column'.
    pub column_level: bool,
}

impl Default for TableDef {
    /// A table as CREATE TABLE makes it without options (the caller names
    /// it and gives its columns and keys).
    fn default() -> Self {
        TableDef {
            id: 0,
            db: String::new(),
            name: String::new(),
            columns: Vec::new(),
            indexes: Vec::new(),
            engine: "InnoDB".into(),
            comment: String::new(),
            collation: Collation::default(),
            key_format: KEY_FORMAT,
            auto_increment_start: 0,
            checks: Vec::new(),
            foreign_keys: Vec::new(),
        }
    }
}

/// The current [`TableDef::key_format`]: text key parts are
/// `Collation::sort_key`s.
pub const KEY_FORMAT: u8 = 1;

/// How a column takes part in its table's keys, which clients learn from a
/// result column's flags (PRI_KEY / UNIQUE_KEY / MULTIPLE_KEY / PART_KEY).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KeyMembership {
    /// In the PRIMARY KEY.
    pub primary: bool,
    /// In a UNIQUE key.
    pub unique: bool,
    /// The first column of a non-unique key.
    pub leads_multiple: bool,
    /// In any key.
    pub part: bool,
    /// The column `_rowid` names: the only column of the PRIMARY KEY (or,
    /// without one, of the first UNIQUE key over NOT NULL columns, which
    /// MariaDB promotes), when that column is an integer.
    pub rowid: bool,
}

/// An engine as MariaDB spells it in SHOW CREATE TABLE, whatever case the
/// statement used; one MariaDB 10.11 does not have is error 1286 (its
/// default sql_mode has NO_ENGINE_SUBSTITUTION). Every table is OneLog's
/// engine whatever it is named; the name decides only what MariaDB's
/// engine would do differently ([`TableDef::is_transactional`]).
pub fn engine_name(name: &str) -> crate::SqlResult<String> {
    const ENGINES: [&str; 7] = ["InnoDB", "MyISAM", "Aria", "MEMORY", "CSV", "MRG_MyISAM", "SEQUENCE"];
    let name = if name.eq_ignore_ascii_case("heap") { "MEMORY" } else { name };
    match ENGINES.iter().find(|e| e.eq_ignore_ascii_case(name)) {
        Some(engine) => Ok(engine.to_string()),
        None => Err(crate::SqlError::new(
            crate::ErrorCode::UNKNOWN_STORAGE_ENGINE,
            format!("Unknown storage engine '{name}'"),
        )),
    }
}

impl TableDef {
    /// Whether the table's engine undoes a failed statement's rows
    /// (InnoDB); MyISAM, Aria and MEMORY keep what was written, and have
    /// no foreign keys.
    pub fn is_transactional(&self) -> bool {
        self.engine.eq_ignore_ascii_case("InnoDB")
    }

    /// How column `column` takes part in the table's keys, as MySQL derives
    /// it for result-column flags.
    pub fn key_membership(&self, column: usize) -> KeyMembership {
        let mut m = KeyMembership::default();
        for idx in &self.indexes {
            let Some(pos) = idx.columns.iter().position(|&c| c == column) else {
                continue;
            };
            m.part = true;
            if idx.primary {
                m.primary = true;
            } else if idx.unique {
                m.unique = true;
            } else if pos == 0 {
                m.leads_multiple = true;
            }
        }
        m.rowid = self.rowid_column() == Some(column);
        m
    }

    /// See [`KeyMembership::rowid`].
    fn rowid_column(&self) -> Option<usize> {
        let key = self.primary_key().or_else(|| {
            self.indexes.iter().find(|i| i.unique && i.columns.iter().all(|&c| !self.columns[c].nullable))
        })?;
        match key.columns[..] {
            [only] if self.columns[only].ty.is_integer() => Some(only),
            _ => None,
        }
    }

    /// The first text column in one of the table's keys, if its keys were
    /// written in an older [`TableDef::key_format`].
    pub fn stale_text_key(&self) -> Option<&ColumnDef> {
        if self.key_format >= KEY_FORMAT {
            return None;
        }
        self.indexes.iter().flat_map(|i| &i.columns).map(|&c| &self.columns[c]).find(|c| c.ty.is_text())
    }

    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name))
    }

    pub fn primary_key(&self) -> Option<&IndexDef> {
        self.indexes.first().filter(|i| i.primary)
    }

    pub fn auto_increment_column(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.auto_increment)
    }
}
