//! SQL-level prepared statements: `PREPARE name FROM expr`, `EXECUTE name
//! [USING ...]`, `EXECUTE IMMEDIATE expr [USING ...]` and `{DEALLOCATE |
//! DROP} PREPARE name`, as MariaDB runs them (the binary protocol's
//! COM_STMT_* are the server crate's).
//!
//! A prepared statement is the parsed statement, kept in its session; at
//! most `max_prepared_stmt_count` of them per session. EXECUTE binds the
//! USING values to its `?` placeholders and runs it as the session runs any
//! statement (locks, logging, commit), within the EXECUTE's own statement
//! time limit and KILL flag.

use crate::ast::{Expr, Statement};
use crate::parse::{parse_single, ParsedStatement};
use crate::session::{QueryResult, Session};
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};

impl Session {
    pub(crate) fn prepare_sql(&mut self, name: &str, source: &Expr, params: &[Value]) -> SqlResult<QueryResult> {
        let key = name.to_ascii_lowercase();
        self.refuse_executing(&key)?;
        let parsed = self.parse_source(source, params)?;
        let limit: usize = self.session_value("max_prepared_stmt_count").parse().unwrap_or(16_382);
        if !self.sql_prepared.contains_key(&key) && self.sql_prepared.len() >= limit {
            return Err(SqlError::new(
                ErrorCode::MAX_PREPARED_STMT_COUNT_REACHED,
                format!("Can't create more than max_prepared_stmt_count statements (current value: {limit})"),
            ));
        }
        self.sql_prepared.insert(key, parsed);
        Ok(QueryResult::Ok { affected_rows: 0, last_insert_id: 0, info: "Statement prepared".into() })
    }

    pub(crate) fn execute_sql(&mut self, name: &str, using: &[Expr], params: &[Value]) -> SqlResult<QueryResult> {
        let key = name.to_ascii_lowercase();
        let parsed = self.sql_prepared.get(&key).cloned().ok_or_else(|| unknown(name, "EXECUTE"))?;
        self.refuse_executing(&key)?;
        self.sql_executing.push(key);
        let outcome = self.run_prepared(&parsed, using, params);
        self.sql_executing.pop();
        outcome
    }

    pub(crate) fn execute_immediate(
        &mut self,
        source: &Expr,
        using: &[Expr],
        params: &[Value],
    ) -> SqlResult<QueryResult> {
        let parsed = self.parse_source(source, params)?;
        self.run_prepared(&parsed, using, params)
    }

    /// A statement EXECUTE is running may not be executed, prepared or
    /// deallocated again by a routine it calls (1444).
    fn refuse_executing(&self, key: &str) -> SqlResult<()> {
        match self.sql_executing.iter().any(|k| k == key) {
            true => Err(SqlError::new(
                ErrorCode::PS_NO_RECURSION,
                "The prepared statement contains a stored routine call that refers to that same statement. It's not allowed to execute a prepared statement in such a recursive manner",
            )),
            false => Ok(()),
        }
    }

    pub(crate) fn deallocate_sql(&mut self, name: &str) -> SqlResult<QueryResult> {
        let key = name.to_ascii_lowercase();
        self.refuse_executing(&key)?;
        match self.sql_prepared.remove(&key) {
            Some(_) => Ok(QueryResult::ok(0)),
            None => Err(unknown(name, "DEALLOCATE PREPARE")),
        }
    }

    /// The statement whose text `source` yields. Statements that manage
    /// prepared statements cannot themselves be prepared (1295).
    fn parse_source(&self, source: &Expr, params: &[Value]) -> SqlResult<ParsedStatement> {
        let text = match self.eval_constant(source, params)? {
            Value::Null => "NULL".to_string(),
            value => value.to_string(),
        };
        let parsed = parse_single(&text)?;
        match parsed.statement {
            Statement::Prepare { .. }
            | Statement::Execute { .. }
            | Statement::ExecuteImmediate { .. }
            | Statement::Deallocate(_) => Err(SqlError::new(
                ErrorCode::UNSUPPORTED_PS,
                "This command is not supported in the prepared statement protocol yet",
            )),
            Statement::Empty => Err(SqlError::new(ErrorCode::EMPTY_QUERY, "Query was empty")),
            Statement::Select(_)
            | Statement::Insert(_)
            | Statement::Update(_)
            | Statement::Delete(_)
            | Statement::MultiUpdate(_)
            | Statement::MultiDelete(_) => {
                self.check_tables_exist(&parsed.statement)?;
                Ok(parsed)
            }
            _ => Ok(parsed),
        }
    }

    /// PREPARE of a query or DML names a missing table at once (1146), as
    /// MariaDB's prepare resolves its tables.
    fn check_tables_exist(&self, stmt: &Statement) -> SqlResult<()> {
        let catalog = self.engine.catalog.read();
        match self.statement_tables(stmt).into_iter().find(|((db, table), _)| catalog.table(db, table).is_none()) {
            Some(((db, table), _)) => Err(SqlError::no_such_table(&db, &table)),
            None => Ok(()),
        }
    }

    fn run_prepared(&mut self, parsed: &ParsedStatement, using: &[Expr], params: &[Value]) -> SqlResult<QueryResult> {
        if using.len() != parsed.param_count {
            return Err(SqlError::new(ErrorCode::WRONG_ARGUMENTS, "Incorrect arguments to EXECUTE"));
        }
        let values = using.iter().map(|e| self.eval_constant(e, params)).collect::<SqlResult<Vec<Value>>>()?;
        self.run_statement_body(&parsed.statement, &parsed.text, &values)
    }
}

fn unknown(name: &str, command: &str) -> SqlError {
    SqlError::new(
        ErrorCode::UNKNOWN_STMT_HANDLER,
        format!("Unknown prepared statement handler ({name}) given to {command}"),
    )
}
