//! Privilege bits, in MariaDB 10.11's order (its `privilege_t` bits), which
//! is also the order SHOW GRANTS lists them in.

pub const SELECT: u64 = 1 << 0;
pub const INSERT: u64 = 1 << 1;
pub const UPDATE: u64 = 1 << 2;
pub const DELETE: u64 = 1 << 3;
pub const CREATE: u64 = 1 << 4;
pub const DROP: u64 = 1 << 5;
pub const RELOAD: u64 = 1 << 6;
pub const SHUTDOWN: u64 = 1 << 7;
pub const PROCESS: u64 = 1 << 8;
pub const FILE: u64 = 1 << 9;
pub const GRANT: u64 = 1 << 10;
pub const REFERENCES: u64 = 1 << 11;
pub const INDEX: u64 = 1 << 12;
pub const ALTER: u64 = 1 << 13;
pub const SHOW_DATABASES: u64 = 1 << 14;
pub const SUPER: u64 = 1 << 15;
pub const CREATE_TEMPORARY_TABLES: u64 = 1 << 16;
pub const LOCK_TABLES: u64 = 1 << 17;
pub const EXECUTE: u64 = 1 << 18;
pub const REPLICATION_SLAVE: u64 = 1 << 19;
pub const BINLOG_MONITOR: u64 = 1 << 20;
pub const CREATE_VIEW: u64 = 1 << 21;
pub const SHOW_VIEW: u64 = 1 << 22;
pub const CREATE_ROUTINE: u64 = 1 << 23;
pub const ALTER_ROUTINE: u64 = 1 << 24;
pub const CREATE_USER: u64 = 1 << 25;
pub const EVENT: u64 = 1 << 26;
pub const TRIGGER: u64 = 1 << 27;
pub const CREATE_TABLESPACE: u64 = 1 << 28;
pub const DELETE_HISTORY: u64 = 1 << 29;
pub const SET_USER: u64 = 1 << 30;
pub const FEDERATED_ADMIN: u64 = 1 << 31;
pub const CONNECTION_ADMIN: u64 = 1 << 32;
pub const READ_ONLY_ADMIN: u64 = 1 << 33;
pub const REPLICATION_SLAVE_ADMIN: u64 = 1 << 34;
pub const REPLICATION_MASTER_ADMIN: u64 = 1 << 35;
pub const BINLOG_ADMIN: u64 = 1 << 36;
pub const BINLOG_REPLAY: u64 = 1 << 37;
pub const SLAVE_MONITOR: u64 = 1 << 38;

/// Every privilege `*.*` can hold, GRANT OPTION included.
pub const GLOBAL_ALL: u64 = (1 << 39) - 1;
/// What `db.*` can hold.
pub const DB_ALL: u64 = SELECT
    | INSERT
    | UPDATE
    | DELETE
    | CREATE
    | DROP
    | GRANT
    | REFERENCES
    | INDEX
    | ALTER
    | CREATE_TEMPORARY_TABLES
    | LOCK_TABLES
    | EXECUTE
    | CREATE_VIEW
    | SHOW_VIEW
    | CREATE_ROUTINE
    | ALTER_ROUTINE
    | EVENT
    | TRIGGER
    | DELETE_HISTORY;
/// What `db.table` can hold.
pub const TABLE_ALL: u64 = SELECT
    | INSERT
    | UPDATE
    | DELETE
    | CREATE
    | DROP
    | GRANT
    | REFERENCES
    | INDEX
    | ALTER
    | CREATE_VIEW
    | SHOW_VIEW
    | TRIGGER
    | DELETE_HISTORY;
/// What a column can hold.
pub const COLUMN_ALL: u64 = SELECT | INSERT | UPDATE | REFERENCES;

/// Names as SHOW GRANTS prints them, by bit.
const NAMES: [&str; 39] = [
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
    "CREATE",
    "DROP",
    "RELOAD",
    "SHUTDOWN",
    "PROCESS",
    "FILE",
    "GRANT OPTION",
    "REFERENCES",
    "INDEX",
    "ALTER",
    "SHOW DATABASES",
    "SUPER",
    "CREATE TEMPORARY TABLES",
    "LOCK TABLES",
    "EXECUTE",
    "REPLICATION SLAVE",
    "BINLOG MONITOR",
    "CREATE VIEW",
    "SHOW VIEW",
    "CREATE ROUTINE",
    "ALTER ROUTINE",
    "CREATE USER",
    "EVENT",
    "TRIGGER",
    "CREATE TABLESPACE",
    "DELETE HISTORY",
    "SET USER",
    "FEDERATED ADMIN",
    "CONNECTION ADMIN",
    "READ_ONLY ADMIN",
    "REPLICATION SLAVE ADMIN",
    "REPLICATION MASTER ADMIN",
    "BINLOG ADMIN",
    "BINLOG REPLAY",
    "SLAVE MONITOR",
];

/// The name of one privilege bit, as messages and SHOW GRANTS spell it.
pub fn name(bit: u64) -> &'static str {
    NAMES.get(bit.trailing_zeros() as usize).copied().unwrap_or("USAGE")
}

/// A privilege named in GRANT / REVOKE (words upper-case, single-spaced),
/// MariaDB's synonyms included; `None` for an unknown name.
pub fn from_name(words: &str) -> Option<u64> {
    let synonym = match words {
        "REPLICATION CLIENT" => Some(BINLOG_MONITOR),
        "REPLICATION REPLICA" => Some(REPLICATION_SLAVE),
        "REPLICA MONITOR" => Some(SLAVE_MONITOR),
        "REPLICATION REPLICA ADMIN" => Some(REPLICATION_SLAVE_ADMIN),
        "USAGE" => Some(0),
        _ => None,
    };
    synonym.or_else(|| NAMES.iter().position(|n| *n == words).map(|i| 1 << i))
}

/// The privileges of `bits` (GRANT OPTION left out) as SHOW GRANTS lists
/// them: "ALL PRIVILEGES" when they are all `all` holds, "USAGE" for none.
pub fn list(bits: u64, all: u64) -> String {
    let bits = bits & !GRANT;
    if bits == 0 {
        return "USAGE".into();
    }
    if bits == all & !GRANT {
        return "ALL PRIVILEGES".into();
    }
    (0..39).map(|i| 1u64 << i).filter(|b| bits & b != 0).map(name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..39 {
            assert_eq!(from_name(name(1 << i)), Some(1 << i));
        }
        assert_eq!(from_name("REPLICATION CLIENT"), Some(BINLOG_MONITOR));
        assert_eq!(from_name("NO SUCH"), None);
        assert_eq!(list(SELECT | INSERT | GRANT, DB_ALL), "SELECT, INSERT");
        assert_eq!(list(DB_ALL, DB_ALL), "ALL PRIVILEGES");
        assert_eq!(list(GRANT, DB_ALL), "USAGE");
    }
}
