//! Identifier lengths, checked as MariaDB checks them when a statement
//! names a new object: a database name longer than 64 characters is error
//! 1102, a table or view name 1103, a column, index or constraint name 1059.
//! (MariaDB's NAME_CHAR_LEN; names are counted in characters.)

use crate::ast::{AlterOp, CreateTable, ObjectName, Statement};
use onelog_core::{ErrorCode, SqlError, SqlResult};

const NAME_CHARS_MAX: usize = 64;

/// Checks every new name `stmt` gives.
pub(crate) fn check(stmt: &Statement) -> SqlResult<()> {
    match stmt {
        Statement::CreateDatabase { name, .. } => database(name),
        Statement::CreateTable(ct) => create_table(ct),
        Statement::CreateView(view) => table(&view.name),
        Statement::RenameTables(pairs) => pairs.iter().try_for_each(|(_, to)| table(to)),
        Statement::CreateIndex { index, .. } => index.name.as_deref().map_or(Ok(()), identifier),
        Statement::AlterTable { ops, .. } => ops.iter().try_for_each(alter_op),
        _ => Ok(()),
    }
}

fn create_table(ct: &CreateTable) -> SqlResult<()> {
    table(&ct.name)?;
    let columns = ct.columns.iter().map(|c| Some(c.name.as_str()));
    let indexes = ct.indexes.iter().map(|i| i.name.as_deref());
    let checks = ct.checks.iter().map(|c| c.name.as_deref());
    let foreign_keys = ct.foreign_keys.iter().map(|f| f.name.as_deref());
    columns.chain(indexes).chain(checks).chain(foreign_keys).flatten().try_for_each(identifier)
}

fn alter_op(op: &AlterOp) -> SqlResult<()> {
    match op {
        AlterOp::AddColumn { column, .. } | AlterOp::ChangeColumn { column, .. } => identifier(&column.name),
        AlterOp::RenameColumn { new_name, .. } => identifier(new_name),
        AlterOp::AddIndex(index) => index.name.as_deref().map_or(Ok(()), identifier),
        AlterOp::AddCheck(check) => check.name.as_deref().map_or(Ok(()), identifier),
        AlterOp::AddForeignKey(fk) => fk.name.as_deref().map_or(Ok(()), identifier),
        AlterOp::RenameTable(to) => table(to),
        _ => Ok(()),
    }
}

fn too_long(name: &str) -> bool {
    name.chars().count() > NAME_CHARS_MAX
}

fn database(name: &str) -> SqlResult<()> {
    if too_long(name) {
        return Err(SqlError::new(ErrorCode::WRONG_DB_NAME, format!("Incorrect database name '{name}'")));
    }
    Ok(())
}

fn table(name: &ObjectName) -> SqlResult<()> {
    if let Some(db) = &name.db {
        database(db)?;
    }
    if too_long(&name.name) {
        return Err(SqlError::new(ErrorCode::WRONG_TABLE_NAME, format!("Incorrect table name '{}'", name.name)));
    }
    Ok(())
}

fn identifier(name: &str) -> SqlResult<()> {
    if too_long(name) {
        return Err(SqlError::new(ErrorCode::TOO_LONG_IDENT, format!("Identifier name '{name}' is too long")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {

    fn error_of(sql: &str) -> Option<u16> {
        crate::parse::parse_single(sql).err().map(|e| e.code.number)
    }

    #[test]
    fn names_past_64_characters_are_refused_by_kind() {
        let long = "a".repeat(65);
        let longest = "é".repeat(64);
        assert_eq!(error_of(&format!("CREATE TABLE {long} (a int)")), Some(1103));
        assert_eq!(error_of(&format!("CREATE TABLE t ({long} int)")), Some(1059));
        assert_eq!(error_of(&format!("CREATE TABLE t (a int, KEY {long} (a))")), Some(1059));
        assert_eq!(error_of(&format!("CREATE DATABASE {long}")), Some(1102));
        assert_eq!(error_of(&format!("ALTER TABLE t RENAME TO {long}")), Some(1103));
        assert_eq!(error_of(&format!("RENAME TABLE t TO {long}")), Some(1103));
        assert_eq!(error_of(&format!("ALTER TABLE t CHANGE a {long} int")), Some(1059));
        assert_eq!(error_of(&format!("CREATE VIEW {long} AS SELECT 1")), Some(1103));
        assert_eq!(error_of(&format!("CREATE TABLE `{longest}` (`{longest}` int)")), None);
    }
}
