//! MySQL-style errors: every error a client can see carries MySQL's numeric
//! code, its SQLSTATE and a message worded as MariaDB words it.

use thiserror::Error;

/// A MySQL error number paired with its SQLSTATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCode {
    pub number: u16,
    pub sqlstate: &'static str,
}

macro_rules! codes {
    ($($name:ident = $num:literal, $state:literal;)*) => {
        impl ErrorCode {
            $(pub const $name: ErrorCode = ErrorCode { number: $num, sqlstate: $state };)*

            /// The code OneLog knows by this number (the first, where two
            /// names share one), for the SQLSTATE of a warning raised by
            /// number.
            pub fn by_number(number: u16) -> Option<ErrorCode> {
                const ALL: &[ErrorCode] = &[$(ErrorCode::$name),*];
                ALL.iter().find(|c| c.number == number).copied()
            }
        }
    };
}

codes! {
    // mysys's EE_CANTCREATEFILE: MariaDB's answer to ALTER DATABASE of a
    // database that does not exist (it cannot write the db.opt file).
    CANT_CREATE_FILE = 1, "HY000";
    // mysys's EE_STAT: a LOAD DATA file that cannot be found.
    CANT_GET_STAT = 13, "HY000";
    WRONG_FIELD_TERMINATORS = 1083, "42000";
    TEXTFILE_NOT_READABLE = 1085, "HY000";
    FILE_EXISTS = 1086, "HY000";
    TRANS_CACHE_FULL = 1197, "HY000";
    WARN_TOO_FEW_RECORDS = 1261, "01000";
    WARN_TOO_MANY_RECORDS = 1262, "01000";
    WARN_NULL_TO_NOTNULL = 1263, "22004";
    MULTI_UPDATE_KEY_CONFLICT = 1706, "HY000";
    PARTITION_CLAUSE_ON_NONPARTITIONED = 1747, "HY000";
    LOAD_INFILE_CAPABILITY_DISABLED = 4166, "HY000";
    DB_CREATE_EXISTS = 1007, "HY000";
    // ER_YES: the Note code of EXPLAIN EXTENDED's rewritten query.
    YES = 1003, "HY000";
    // FOREIGN KEY constraints, as InnoDB reports them.
    CANT_CREATE_TABLE = 1005, "HY000";
    ROW_IS_REFERENCED = 1217, "23000";
    ROW_IS_REFERENCED_2 = 1451, "23000";
    NO_REFERENCED_ROW_2 = 1452, "23000";
    DROP_INDEX_FK = 1553, "HY000";
    TRUNCATE_ILLEGAL_FK = 1701, "42000";
    FK_COLUMN_CANNOT_DROP = 1828, "HY000";
    DB_DROP_EXISTS = 1008, "HY000";
    // A temporary file (a sort's runs) that cannot be read or written.
    ERROR_ON_READ = 1024, "HY000";
    ERROR_ON_RENAME = 1025, "HY000";
    ERROR_ON_WRITE = 1026, "HY000";
    // A storage engine's own error (the SEQUENCE engine's bad step).
    GET_ERRNO = 1030, "HY000";
    // A storage engine asked to do what it cannot (writing a SEQUENCE table).
    ILLEGAL_HA = 1031, "HY000";
    CON_COUNT_ERROR = 1040, "08004";
    HANDSHAKE_ERROR = 1043, "08S01";
    ACCESS_DENIED = 1045, "28000";
    ACCESS_DENIED_NO_PASSWORD = 1698, "28000";
    // Accounts and privileges.
    DBACCESS_DENIED = 1044, "42000";
    KILL_DENIED = 1095, "HY000";
    PASSWORD_ANONYMOUS_USER = 1131, "42000";
    PASSWORD_NOT_ALLOWED = 1132, "42000";
    PASSWORD_NO_MATCH = 1133, "28000";
    NONEXISTING_GRANT = 1141, "42000";
    TABLEACCESS_DENIED = 1142, "42000";
    COLUMNACCESS_DENIED = 1143, "42000";
    ILLEGAL_GRANT_FOR_TABLE = 1144, "42000";
    NONEXISTING_TABLE_GRANT = 1147, "42000";
    REVOKE_GRANTS = 1269, "HY000";
    PASSWORD_FORMAT = 1372, "HY000";
    PROCACCESS_DENIED = 1370, "42000";
    MUST_CHANGE_PASSWORD = 1820, "HY000";
    CANNOT_USER = 1396, "HY000";
    PLUGIN_IS_NOT_LOADED = 1524, "HY000";
    CANT_OPEN_LIBRARY = 1126, "HY000";
    CANT_FIND_DL_ENTRY = 1127, "HY000";
    PLUGIN_INSTALLED = 1968, "HY000";
    SET_PASSWORD_AUTH_PLUGIN = 1699, "HY000";
    ACCOUNT_HAS_BEEN_LOCKED = 4151, "HY000";
    NO_DB_SELECTED = 1046, "3D000";
    UNKNOWN_COMMAND = 1047, "08S01";
    COLUMN_CANNOT_BE_NULL = 1048, "23000";
    BAD_DB = 1049, "42000";
    TABLE_EXISTS = 1050, "42S01";
    BAD_TABLE = 1051, "42S02";
    NON_UNIQ = 1052, "23000";
    SERVER_SHUTDOWN = 1053, "08S01";
    BAD_FIELD = 1054, "42S22";
    WRONG_FIELD_WITH_GROUP = 1055, "42000";
    WRONG_VALUE_COUNT = 1058, "21S01";
    DUP_FIELD_NAME = 1060, "42S21";
    DUP_KEY_NAME = 1061, "42000";
    DUP_ENTRY = 1062, "23000";
    TOO_LONG_IDENT = 1059, "42000";
    PARSE_ERROR = 1064, "42000";
    EMPTY_QUERY = 1065, "42000";
    NON_UNIQ_TABLE = 1066, "42000";
    INVALID_DEFAULT = 1067, "42000";
    MULTIPLE_PRI_KEY = 1068, "42000";
    TOO_LONG_KEY = 1071, "42000";
    KEY_COLUMN_DOES_NOT_EXIST = 1072, "42000";
    WRONG_AUTO_KEY = 1075, "42000";
    WRONG_SUB_KEY = 1089, "HY000";
    CANT_DROP_FIELD_OR_KEY = 1091, "42000";
    NO_SUCH_THREAD = 1094, "HY000";
    TOO_BIG_SET = 1097, "HY000";
    TABLE_NOT_LOCKED_FOR_WRITE = 1099, "HY000";
    TABLE_NOT_LOCKED = 1100, "HY000";
    WRONG_DB_NAME = 1102, "42000";
    WRONG_TABLE_NAME = 1103, "42000";
    UNKNOWN_ERROR = 1105, "HY000";
    UNKNOWN_TABLE = 1109, "42S02";
    FIELD_SPECIFIED_TWICE = 1110, "42000";
    INVALID_GROUP_FUNC_USE = 1111, "HY000";
    UNKNOWN_CHARACTER_SET = 1115, "42000";
    HOST_IS_BLOCKED = 1129, "HY000";
    WRONG_VALUE_COUNT_ON_ROW = 1136, "21S01";
    INVALID_USE_OF_NULL = 1138, "22004";
    NO_SUCH_TABLE = 1146, "42S02";
    SYNTAX_ERROR = 1149, "42000";
    NET_PACKET_TOO_LARGE = 1153, "08S01";
    NET_READ_ERROR = 1158, "08S01";
    NET_ERROR_ON_WRITE = 1160, "08S01";
    NET_PACKETS_OUT_OF_ORDER = 1156, "08S01";
    TABLE_CANT_HANDLE_BLOB = 1163, "42000";
    WRONG_KEY_COLUMN = 1167, "42000";
    BLOB_KEY_WITHOUT_LENGTH = 1170, "42000";
    REGEXP_ERROR = 1139, "42000";
    MIX_OF_GROUP_FUNC_AND_FIELDS = 1140, "42000";
    UPDATE_WITHOUT_KEY_IN_SAFE_MODE = 1175, "HY000";
    KEY_DOES_NOT_EXISTS = 1176, "42000";
    ERROR_DURING_COMMIT = 1180, "HY000";
    LOCK_OR_ACTIVE_TRANSACTION = 1192, "HY000";
    UNKNOWN_SYSTEM_VARIABLE = 1193, "HY000";
    TOO_MANY_USER_CONNECTIONS = 1203, "42000";
    LOCK_WAIT_TIMEOUT = 1205, "HY000";
    LOCK_DEADLOCK = 1213, "40001";
    WRONG_ARGUMENTS = 1210, "HY000";
    WRONG_USAGE = 1221, "HY000";
    CANT_UPDATE_WITH_READLOCK = 1223, "HY000";
    DUP_ARGUMENT = 1225, "HY000";
    USER_LIMIT_REACHED = 1226, "42000";
    SPECIFIC_ACCESS_DENIED = 1227, "42000";
    LOCAL_VARIABLE = 1228, "HY000";
    GLOBAL_VARIABLE = 1229, "HY000";
    INCORRECT_GLOBAL_LOCAL_VAR = 1238, "HY000";
    WRONG_VALUE_FOR_VAR = 1231, "42000";
    WRONG_TYPE_FOR_VAR = 1232, "42000";
    NOT_SUPPORTED_YET = 1235, "42000";
    MASTER_FATAL_READING_BINLOG = 1236, "HY000";
    OPERAND_COLUMNS = 1241, "21000";
    SUBQUERY_NO_1_ROW = 1242, "21000";
    BAD_BASE64_DATA = 1958, "HY000";
    UNKNOWN_EXPLAIN_FORMAT = 1791, "HY000";
    DERIVED_MUST_HAVE_ALIAS = 1248, "42000";
    UNKNOWN_STMT_HANDLER = 1243, "HY000";
    WRONG_NUMBER_OF_COLUMNS_IN_SELECT = 1222, "21000";
    // Stored routines.
    SP_ALREADY_EXISTS = 1304, "42000";
    SP_LILABEL_MISMATCH = 1308, "42000";
    SP_BADRETURN = 1313, "42000";
    SP_WRONG_NO_OF_ARGS = 1318, "42000";
    SP_NORETURN = 1320, "42000";
    SP_NORETURNEND = 1321, "2F005";
    SP_CURSOR_MISMATCH = 1324, "42000";
    SP_CURSOR_ALREADY_OPEN = 1325, "24000";
    SP_CURSOR_NOT_OPEN = 1326, "24000";
    SP_UNDECLARED_VAR = 1327, "42000";
    SP_WRONG_NO_OF_FETCH_ARGS = 1328, "HY000";
    SP_FETCH_NO_DATA = 1329, "02000";
    SP_DUP_VAR = 1331, "42000";
    SP_NOT_VAR_ARG = 1414, "42000";
    SP_NO_RETSET = 1415, "0A000";
    SP_NO_RECURSION = 1424, "HY000";
    SP_RECURSION_LIMIT = 1456, "HY000";
    SIGNAL_EXCEPTION = 1644, "45000";
    FEATURE_DISABLED = 1289, "HY000";
    // SIGNAL, RESIGNAL and GET DIAGNOSTICS.
    DUP_SIGNAL_SET = 1641, "42000";
    SIGNAL_WARN = 1642, "01000";
    SIGNAL_NOT_FOUND = 1643, "02000";
    RESIGNAL_WITHOUT_ACTIVE_HANDLER = 1645, "0K000";
    DA_INVALID_CONDITION_NUMBER = 1758, "35000";
    PS_NO_RECURSION = 1444, "HY000";
    TOO_MANY_ROWS = 1172, "42000";
    NO_TABLES_USED = 1096, "HY000";
    CUT_VALUE_GROUP_CONCAT = 1260, "HY000";
    WARN_DATA_OUT_OF_RANGE = 1264, "22003";
    // A generated AUTO_INCREMENT value past its column's type (the
    // handler's HA_ERR_AUTOINC_ERANGE, which MariaDB sends as it is).
    AUTOINC_ERANGE = 167, "22003";
    WARN_DATA_TRUNCATED = 1265, "01000";
    COLLATION_CHARSET_MISMATCH = 1253, "42000";
    CONFLICTING_DECLARATIONS = 1302, "HY000";
    CANT_AGGREGATE_2COLLATIONS = 1267, "HY000";
    CANT_AGGREGATE_3COLLATIONS = 1270, "HY000";
    CANT_AGGREGATE_NCOLLATIONS = 1271, "HY000";
    UNKNOWN_COLLATION = 1273, "HY000";
    OPTION_PREVENTS_STATEMENT = 1290, "HY000";
    UNKNOWN_STORAGE_ENGINE = 1286, "42000";
    WARN_DEPRECATED_SYNTAX = 1287, "HY000";
    AMBIGUOUS_FIELD_TERM = 1475, "HY000";
    TRUNCATED_WRONG_VALUE = 1292, "22007";
    WRONG_VALUE = 1525, "HY000";
    UNSUPPORTED_PS = 1295, "HY000";
    UNKNOWN_TIME_ZONE = 1298, "HY000";
    SP_DOES_NOT_EXIST = 1305, "42000";
    QUERY_INTERRUPTED = 1317, "70100";
    DIVISION_BY_ZERO = 1365, "22012";
    TRUNCATED_WRONG_VALUE_FOR_FIELD = 1366, "22007";
    UNKNOWN_TARGET_BINLOG = 1373, "HY000";
    WRONG_OBJECT = 1347, "HY000";
    FIELD_NOT_UPDATABLE = 1348, "HY000";
    VIEW_SELECT_VARIABLE = 1351, "HY000";
    VIEW_SELECT_TMPTABLE = 1352, "HY000";
    VIEW_WRONG_LIST = 1353, "HY000";
    WARN_VIEW_MERGE = 1354, "HY000";
    VIEW_INVALID = 1356, "HY000";
    // A table no statement may change (the grant tables of `mysql`).
    OPEN_AS_READONLY = 1036, "HY000";
    VIEW_NONUPD_CHECK = 1368, "HY000";
    VIEW_CHECK_FAILED = 1369, "44000";
    NON_UPDATABLE_TABLE = 1288, "HY000";
    KEY_PART_0 = 1391, "HY000";
    VIEW_MULTIUPDATE = 1393, "HY000";
    NON_INSERTABLE_TABLE = 1471, "HY000";
    IT_IS_A_VIEW = 1965, "42S02";
    GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED = 1901, "HY000";
    PRIMARY_KEY_BASED_ON_GENERATED_COLUMN = 1903, "HY000";
    WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN = 1906, "HY000";
    UNSUPPORTED_ACTION_ON_GENERATED_COLUMN = 1907, "HY000";
    EXPRESSION_REFERS_TO_UNINIT_FIELD = 4029, "01000";
    IO_ERR_LOG_INDEX_READ = 1374, "HY000";
    DATA_TOO_LONG = 1406, "22001";
    WRONG_VALUE_FOR_TYPE = 1411, "HY000";
    TABLE_DEF_CHANGED = 1412, "HY000";
    NO_DEFAULT_FOR_FIELD = 1364, "HY000";
    TOO_BIG_SCALE = 1425, "42000";
    TOO_BIG_PRECISION = 1426, "42000";
    M_BIGGER_THAN_D = 1427, "42000";
    WRONG_FIELD_SPEC = 1063, "42000";
    DUPLICATED_VALUE_IN_TYPE = 1291, "HY000";
    ILLEGAL_VALUE_FOR_TYPE = 1367, "22007";
    TOO_BIG_DISPLAYWIDTH = 1439, "42000";
    DATETIME_FUNCTION_OVERFLOW = 1441, "22008";
    MAX_PREPARED_STMT_COUNT_REACHED = 1461, "42000";
    WRONG_PARAMCOUNT_TO_NATIVE_FCT = 1582, "42000";
    DATA_OUT_OF_RANGE = 1690, "22003";
    DATA_OVERFLOW = 1916, "22003";
    WRONG_ARGUMENTS_SCALE = 1425, "42000";
    READ_ONLY_TRANSACTION = 1792, "25006";
    UNKNOWN_ALTER_ALGORITHM = 1800, "HY000";
    UNKNOWN_ALTER_LOCK = 1801, "HY000";
    DUP_CONSTRAINT_NAME = 1826, "HY000";
    CONNECTION_KILLED = 1927, "70100";
    STATEMENT_TIMEOUT = 1969, "70100";
    SET_STATEMENT_NOT_SUPPORTED = 1971, "42000";
    UNKNOWN_STRUCTURED_VARIABLE = 4081, "HY000";
    // A warning: a recursive CTE stopped at `max_recursive_iterations`.
    QUERY_RESULT_INCOMPLETE = 1931, "HY000";
    WITH_COL_WRONG_LIST = 4002, "HY000";
    DUP_QUERY_NAME = 4004, "HY000";
    RECURSIVE_WITHOUT_ANCHORS = 4005, "HY000";
    NOT_STANDARD_COMPLIANT_RECURSIVE = 4008, "HY000";
    WRONG_WINDOW_SPEC_NAME = 4009, "HY000";
    DUP_WINDOW_NAME = 4010, "HY000";
    PARTITION_LIST_IN_REFERENCING_WINDOW_SPEC = 4011, "HY000";
    ORDER_LIST_IN_REFERENCING_WINDOW_SPEC = 4012, "HY000";
    WINDOW_FRAME_IN_REFERENCED_WINDOW_SPEC = 4013, "HY000";
    BAD_COMBINATION_OF_WINDOW_FRAME_BOUND_SPECS = 4014, "HY000";
    WRONG_PLACEMENT_OF_WINDOW_FUNCTION = 4015, "HY000";
    UNKNOWN_VIEW = 4092, "42S02";
    NOT_ALLOWED_WINDOW_FRAME = 4017, "HY000";
    NO_ORDER_LIST_IN_WINDOW_SPEC = 4018, "HY000";
    RANGE_FRAME_NEEDS_SIMPLE_ORDERBY = 4019, "HY000";
    WRONG_TYPE_FOR_ROWS_FRAME = 4020, "HY000";
    WRONG_TYPE_FOR_RANGE_FRAME = 4021, "HY000";
    INVALID_NTILE_ARGUMENT = 4024, "HY000";
    ILLEGAL_REFERENCE = 1247, "42S22";
    WRONG_TYPE_FOR_PERCENTILE_FUNC = 4101, "HY000";
    ARGUMENT_NOT_CONSTANT = 4102, "HY000";
    ARGUMENT_OUT_OF_RANGE = 4103, "HY000";
    WRONG_TYPE_OF_ARGUMENT = 4104, "HY000";
    CONSTRAINT_FAILED = 4025, "23000";
    CANT_CAST_IN_ASSIGNMENT = 4078, "HY000";
    ROW_VARIABLE_DOES_NOT_HAVE_FIELD = 4082, "HY000";
    SF_OUT_INOUT_ARG_NOT_ALLOWED = 4187, "HY000";
    WRONG_SPVAR_TYPE_IN_LIMIT = 1691, "HY000";
    // MariaDB words 4078 this way for operators and functions.
    ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION = 4078, "HY000";
    ILLEGAL_PARAMETER_DATA_TYPE_FOR_OPERATION = 4079, "HY000";
    QUERY_TIMEOUT = 3024, "HY000";
    // Roles.
    INVALID_ROLE = 1959, "OP000";
    CANNOT_GRANT_ROLE = 1961, "HY000";
    CANNOT_REVOKE_ROLE = 1962, "HY000";
    MALFORMED_DEFINER = 1446, "0L000";
}

/// An error to report to the client.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("ERROR {} ({}): {message}", code.number, code.sqlstate)]
pub struct SqlError {
    pub code: ErrorCode,
    pub message: String,
    /// What SIGNAL / RESIGNAL set besides the number and the message
    /// (boxed: nearly every error has none).
    pub items: Option<Box<ConditionItems>>,
}

/// The condition information items a SIGNAL may set besides MYSQL_ERRNO
/// and MESSAGE_TEXT (CLASS_ORIGIN, TABLE_NAME, ...), by upper-case name;
/// GET DIAGNOSTICS reads them back ('' for one never set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConditionItems {
    items: Vec<(&'static str, String)>,
}

impl ConditionItems {
    pub fn get(&self, name: &str) -> &str {
        self.items.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v.as_str())
    }

    pub fn set(&mut self, name: &'static str, value: String) {
        match self.items.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.items.push((name, value)),
        }
    }
}

impl SqlError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> SqlError {
        SqlError { code, message: message.into(), items: None }
    }

    /// The item `name` of the condition ('' when not set).
    pub fn item(&self, name: &str) -> &str {
        self.items.as_deref().map_or("", |items| items.get(name))
    }

    /// Error 1105 for conditions with no more specific MySQL code.
    pub fn internal(message: impl Into<String>) -> SqlError {
        SqlError::new(ErrorCode::UNKNOWN_ERROR, message)
    }

    pub fn no_such_table(db: &str, table: &str) -> SqlError {
        SqlError::new(ErrorCode::NO_SUCH_TABLE, format!("Table '{db}.{table}' doesn't exist"))
    }

    pub fn bad_field(column: &str, context: &str) -> SqlError {
        SqlError::new(ErrorCode::BAD_FIELD, format!("Unknown column '{column}' in '{context}'"))
    }

    /// Error 1064 with MariaDB's wording.
    pub fn parse(near: &str, line: usize) -> SqlError {
        SqlError::new(
            ErrorCode::PARSE_ERROR,
            format!(
                "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '{near}' at line {line}"
            ),
        )
    }

    pub fn not_supported(what: &str) -> SqlError {
        SqlError::new(ErrorCode::NOT_SUPPORTED_YET, format!("This version of MariaDB doesn't yet support '{what}'"))
    }
}

pub type SqlResult<T> = Result<T, SqlError>;
