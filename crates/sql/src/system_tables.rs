//! The tables of the `mysql` database that OneLog computes rather than
//! stores: the grant tables (`user`, `global_priv`, `db`, `tables_priv`,
//! `columns_priv`, `roles_mapping`; see `accounts::tables`) and `proc` (the
//! stored routines; see `routine_schema`). Each is a read-only projection
//! of the catalog, computed at each query the way information_schema
//! tables are, never a second copy: accounts and routines change only by
//! their own statements, which the binlog carries.

use crate::accounts::tables as grants;
use crate::ast::Statement;
use crate::catalog::Catalog;
use onelog_core::{Collation, ErrorCode, SqlError, SqlResult, TableDef, Value};
use std::sync::OnceLock;

/// A computed table: its name, its columns and table options as MariaDB
/// 10.11 declares them, and its rows.
struct SystemTable {
    name: &'static str,
    /// mysql.user is a view over global_priv in MariaDB 10.11.
    is_view: bool,
    /// The column and key definitions of its CREATE TABLE.
    create_sql: fn() -> String,
    /// Its table options, MariaDB's.
    options: &'static str,
    rows: fn(&Catalog) -> Vec<Vec<Value>>,
}

/// The options of the grant tables, but for their comment.
macro_rules! grant_options {
    ($comment:literal) => {
        concat!("ENGINE=Aria DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_bin COMMENT='", $comment, "'")
    };
}

const SYSTEM_TABLES: [SystemTable; 7] = [
    SystemTable {
        name: "columns_priv",
        is_view: false,
        create_sql: grants::columns_priv_sql,
        options: grant_options!("Column privileges"),
        rows: |c| grants::columns_priv_rows(&c.accounts),
    },
    SystemTable {
        name: "db",
        is_view: false,
        create_sql: grants::db_sql,
        options: grant_options!("Database privileges"),
        rows: |c| grants::db_rows(&c.accounts),
    },
    SystemTable {
        name: "global_priv",
        is_view: false,
        create_sql: grants::global_priv_sql,
        options: grant_options!("Users and global privileges"),
        rows: |c| grants::global_priv_rows(&c.accounts),
    },
    SystemTable {
        name: "proc",
        is_view: false,
        create_sql: crate::routine_schema::proc_sql,
        options: "ENGINE=Aria DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci COMMENT='Stored Procedures'",
        rows: crate::routine_schema::proc_rows,
    },
    SystemTable {
        name: "roles_mapping",
        is_view: false,
        create_sql: grants::roles_mapping_sql,
        options: grant_options!("Granted roles"),
        rows: |c| grants::roles_mapping_rows(&c.accounts),
    },
    SystemTable {
        name: "tables_priv",
        is_view: false,
        create_sql: grants::tables_priv_sql,
        options: grant_options!("Table privileges"),
        rows: |c| grants::tables_priv_rows(&c.accounts),
    },
    SystemTable {
        name: "user",
        is_view: true,
        create_sql: grants::user_sql,
        options: grant_options!("Users and global privileges"),
        rows: |c| grants::user_rows(&c.accounts),
    },
];

/// The options MariaDB's SHOW CREATE TABLE prints for its Aria system
/// tables, which OneLog's table definitions have no place for: tools that
/// compare the layout of the `mysql` tables see MariaDB's text.
const ARIA_OPTIONS: &str = " PAGE_CHECKSUM=1 TRANSACTIONAL=1";

fn position(db: &str, name: &str) -> Option<usize> {
    // Table names are case-sensitive, as MariaDB's on Linux.
    (db == "mysql").then(|| SYSTEM_TABLES.iter().position(|t| t.name == name)).flatten()
}

/// Whether `db.name` is one of the computed tables.
pub fn is_system_table(db: &str, name: &str) -> bool {
    position(db, name).is_some()
}

/// The computed tables' names, and `VIEW` or `BASE TABLE`, as SHOW FULL
/// TABLES FROM mysql lists them.
pub fn names() -> impl Iterator<Item = (&'static str, &'static str)> {
    SYSTEM_TABLES.iter().map(|t| (t.name, if t.is_view { "VIEW" } else { "BASE TABLE" }))
}

/// The definition of computed table `db.name`; `None` for another table.
pub fn def(db: &str, name: &str) -> SqlResult<Option<TableDef>> {
    let Some(at) = position(db, name) else { return Ok(None) };
    static DEFS: OnceLock<SqlResult<Vec<TableDef>>> = OnceLock::new();
    let defs = DEFS.get_or_init(|| SYSTEM_TABLES.iter().map(parse_def).collect());
    Ok(Some(defs.as_ref().map_err(Clone::clone)?[at].clone()))
}

/// A computed table's definition, from its CREATE TABLE text.
fn parse_def(table: &SystemTable) -> SqlResult<TableDef> {
    let sql = format!("CREATE TABLE mysql.{} ({}) {}", table.name, (table.create_sql)(), table.options);
    let Statement::CreateTable(ct) = crate::parse::parse_single(&sql)?.statement else {
        return Err(SqlError::internal(format!("system table {} is not a CREATE TABLE", table.name)));
    };
    crate::ddl::new_table_def(&mut || 0, "mysql", Collation::Utf8mb3Bin, &ct)
}

/// The definition and current rows of computed table `db.name`; `None` for
/// another table.
pub fn rows(catalog: &Catalog, db: &str, name: &str) -> SqlResult<Option<(TableDef, Vec<Vec<Value>>)>> {
    let (Some(at), Some(def)) = (position(db, name), def(db, name)?) else { return Ok(None) };
    Ok(Some((def, (SYSTEM_TABLES[at].rows)(catalog))))
}

/// SHOW CREATE TABLE of computed table `db.name` as MariaDB prints it;
/// `None` for another table or a view (mysql.user).
pub fn create_table_sql(db: &str, name: &str) -> SqlResult<Option<String>> {
    let Some(def) = def(db, name)?.filter(|_| position(db, name).is_some_and(|at| !SYSTEM_TABLES[at].is_view)) else {
        return Ok(None);
    };
    let sql = crate::show::create_table_sql(&def, None);
    // The table comment comes last; Aria's options go before it.
    let (head, comment) = sql.split_at(sql.rfind(" COMMENT=").unwrap_or(sql.len()));
    Ok(Some(format!("{head}{ARIA_OPTIONS}{comment}")))
}

/// What a statement that would change or lock computed table `name` gets:
/// accounts and routines change only by their own statements (whose
/// commits the binlog carries), so a write here could only be refused or
/// silently lost. MariaDB's error for a table that cannot be written is
/// 1036, which tools treat as "not allowed" rather than a server fault;
/// mysql.user answers as MariaDB's view does to INSERT and UPDATE (1356).
pub fn read_only(name: &str) -> SqlError {
    if name == "user" {
        return SqlError::new(
            ErrorCode::VIEW_INVALID,
            "View 'mysql.user' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them",
        );
    }
    SqlError::new(ErrorCode::OPEN_AS_READONLY, format!("Table '{name}' is read only"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_definition_parses_and_rows_fit_it() {
        let catalog = Catalog::default();
        for (name, _) in names() {
            let (table_def, table_rows) = rows(&catalog, "mysql", name).expect("parses").expect("a system table");
            assert_eq!(table_def.name, name);
            assert!(table_rows.iter().all(|r| r.len() == table_def.columns.len()), "{name}");
        }
        assert!(def("mysql", "USER").expect("no error").is_none());
        assert!(def("test", "proc").expect("no error").is_none());
    }

    #[test]
    fn show_create_puts_aria_options_before_the_comment() {
        let sql = create_table_sql("mysql", "proc").expect("parses").expect("a table");
        assert!(sql.starts_with("CREATE TABLE `proc` ("), "{sql}");
        assert!(
            sql.ends_with(
                ") ENGINE=Aria DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci PAGE_CHECKSUM=1 TRANSACTIONAL=1 COMMENT='Stored Procedures'"
            ),
            "{sql}"
        );
        assert!(create_table_sql("mysql", "user").expect("no error").is_none());
    }
}
