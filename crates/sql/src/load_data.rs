//! LOAD DATA [LOCAL] INFILE: reads a delimited text file — from the
//! server's disk, or sent by the client (LOCAL) — and inserts its rows
//! through the INSERT path (`dml::insert_row`), so conversions, warnings,
//! strict mode, REPLACE / IGNORE and binlog row events are INSERT's.
//!
//! What MariaDB 10.11 does, and this follows: fields are cut as its
//! `READ_INFO::read_field` cuts them (escapes, enclosing quotes and their
//! doubling, `\N` and unquoted NULL); a missing field gives warning 1261
//! and the column's zero value (not its DEFAULT), an extra one 1262, a NULL
//! for a NOT NULL column 1263 and the zero value; in strict mode without
//! IGNORE each of those is an error. LOCAL without REPLACE behaves as
//! IGNORE (the server cannot stop the client's upload halfway). The OK
//! packet says `Records: N  Deleted: N  Skipped: N  Warnings: N`, with
//! copied + deleted rows as affected rows.
//!
//! Files on the server: a name without a directory is read from
//! `<datadir>/<database>/` and a relative path from `<datadir>/`, as
//! MariaDB resolves them. OneLog keeps no per-database directories, so in
//! practice server files are given by absolute path. `secure_file_priv`,
//! when set, confines them to that directory (error 1290).
//!
//! Logging: rows go to the binlog as row events of the statement's
//! transaction, encoded every few thousand rows (`Txn::flush_rows_if_many`),
//! so a load holds its rows once in encoded form (plus the write set)
//! rather than also as values.

use crate::ast::{CreateSelectDuplicates, Expr, Insert, InsertSource, LoadData, LoadFormat, LoadTarget};
use crate::catalog::TableEntry;
use crate::dml::{self, with_ctx};
use crate::eval::{coerce_to_column, EvalEnv};
use crate::select::{bind, table_columns, Ctx};
use crate::session::{QueryResult, Session};
use onelog_core::{Charset, ColumnType, ErrorCode, SqlError, SqlResult, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows between two checks for KILL and statement time limits.
const CHECK_ROWS: u64 = 256;
/// Bytes read from the file at a time.
const READ_CHUNK_BYTES: usize = 64 * 1024;

/// The client side of LOAD DATA LOCAL, provided by the connection: the
/// request for a file (packet 0xFB + name) and the packets of its contents,
/// ending with an empty packet.
pub trait ClientFiles {
    fn request(&mut self, name: &[u8]) -> SqlResult<()>;
    /// The next packet of the file; empty at its end.
    fn next_packet(&mut self) -> SqlResult<Vec<u8>>;
}

/// Runs LOAD DATA in the session's current statement (see
/// `Session::run_write_with`). `client` is the connection's file channel;
/// `None` when the client did not offer LOCAL files (or for a statement
/// that cannot read them: EXECUTE, routines).
pub fn execute(session: &mut Session, load: &LoadData, client: Option<&mut dyn ClientFiles>) -> SqlResult<QueryResult> {
    if load.local && (client.is_none() || session.engine.vars.int("local_infile") == 0) {
        return Err(SqlError::new(
            ErrorCode::LOAD_INFILE_CAPABILITY_DISABLED,
            "The used command is not allowed because the MariaDB server or client has disabled the local infile capability",
        ));
    }
    if load.format.escaped_by.len() > 1 || load.format.enclosed_by.len() > 1 {
        return Err(SqlError::new(
            ErrorCode::WRONG_FIELD_TERMINATORS,
            "Field separator argument is not what is expected; check the manual",
        ));
    }
    if load.format.field_terminator.is_empty() && load.format.enclosed_by.is_empty() {
        // MariaDB's fixed-width rows (both empty): not implemented.
        return Err(SqlError::new(
            ErrorCode::NOT_SUPPORTED_YET,
            "This version of OneLog doesn't yet support 'LOAD DATA with fixed-size rows (empty FIELDS TERMINATED BY and ENCLOSED BY)'",
        ));
    }
    let db = session.resolve_db(&load.table)?.to_string();
    let table = session.table_entry_in(&db, &load.table.name)?;
    let plan = Plan::new(session, &table, load)?;
    match client {
        Some(client) if load.local => {
            client.request(&load.file)?;
            let mut upload = Upload { client, packet: Vec::new(), at: 0, ended: false };
            let result = plan.run(session, &mut upload);
            // The client sends the whole file whatever happened to it.
            upload.drain()?;
            result
        }
        _ => {
            let path = server_path(session, &db, &load.file)?;
            let file = open_server_file(&path)?;
            plan.run(session, file)
        }
    }
}

/// What a statement resolved before reading its file.
struct Plan {
    table: Arc<TableEntry>,
    targets: Vec<Target>,
    /// SET's assignments, bound to the table's columns.
    assignments: Vec<(usize, Expr)>,
    /// The values of columns neither the file nor SET gives.
    defaults: Vec<Option<Value>>,
    /// The INSERT each row goes through (IGNORE / REPLACE).
    insert: Insert,
    /// Warnings are errors (strict mode without IGNORE).
    abort_on_warning: bool,
    charset: Charset,
    format: LoadFormat,
    ignore_lines: u64,
}

#[derive(Clone)]
enum Target {
    Column(usize),
    Var(String),
}

/// Counts for the OK packet's info.
#[derive(Default)]
struct Counts {
    records: u64,
    copied: u64,
    deleted: u64,
}

impl Plan {
    fn new(session: &Session, table: &Arc<TableEntry>, load: &LoadData) -> SqlResult<Plan> {
        let def = &table.def;
        let column = |name: &str| def.column_index(name).ok_or_else(|| SqlError::bad_field(name, "field list"));
        let targets: Vec<Target> = if load.targets.is_empty() {
            (0..def.columns.len()).map(Target::Column).collect()
        } else {
            load.targets
                .iter()
                .map(|t| match t {
                    LoadTarget::Column(name) => column(name).map(Target::Column),
                    LoadTarget::Var(name) => Ok(Target::Var(name.clone())),
                })
                .collect::<SqlResult<_>>()?
        };
        let scope = table_columns(table, &def.name);
        let assignments: Vec<(usize, Expr)> =
            load.assignments.iter().map(|(name, e)| Ok((column(name)?, bind(e, &scope)?))).collect::<SqlResult<_>>()?;
        let ignore = load.duplicates == CreateSelectDuplicates::Ignore
            || (load.local && load.duplicates == CreateSelectDuplicates::Error);
        let given: Vec<bool> = (0..def.columns.len())
            .map(|c| {
                targets.iter().any(|t| matches!(t, Target::Column(i) if *i == c))
                    || assignments.iter().any(|(i, _)| *i == c)
            })
            .collect();
        // Each column nobody gives is checked once for the statement, as
        // MariaDB does: one warning 1364, not one per row, and not an error
        // even in strict mode (MariaDB checks before it turns warnings into
        // errors).
        let defaults = given
            .iter()
            .enumerate()
            .map(|(c, given)| (!given).then(|| dml::default_value_in_mode(session, table, c, false)).transpose())
            .collect::<SqlResult<_>>()?;
        let charset = match &load.charset {
            Some(name) => Charset::named_or_error(name)?,
            None => Charset::named(session.session_value("character_set_database")).unwrap_or(Charset::Utf8mb4),
        };
        let mut format = load.format.clone();
        if !format.escaped_given && session.sql_mode_has("NO_BACKSLASH_ESCAPES") {
            format.escaped_by.clear();
        }
        Ok(Plan {
            table: table.clone(),
            targets,
            assignments,
            defaults,
            insert: Insert {
                table: load.table.clone(),
                columns: Vec::new(),
                source: InsertSource::Values(Vec::new()),
                ignore,
                replace: load.duplicates == CreateSelectDuplicates::Replace,
                on_duplicate: Vec::new(),
                returning: Vec::new(),
            },
            abort_on_warning: session.strict() && !ignore,
            charset,
            format,
            ignore_lines: load.ignore_lines,
        })
    }

    /// Reads every row of `input` and inserts it.
    fn run(&self, session: &mut Session, input: impl Read) -> SqlResult<QueryResult> {
        let mut fields = FieldReader::new(input, &self.format);
        if !self.format.line_terminator.is_empty() {
            for _ in 0..self.ignore_lines {
                if fields.next_line() {
                    break;
                }
            }
        }
        let mut counts = Counts::default();
        let mut first_generated: Option<u64> = None;
        let mut row_number = 1u64;
        loop {
            if row_number.is_multiple_of(CHECK_ROWS) {
                session.guard().check()?;
            }
            session.txn().flush_rows_if_many()?;
            let warnings_before = session.warnings.borrow().len();
            let outcome = self.load_row(session, &mut fields, row_number);
            fields.io_error()?;
            let outcome = outcome.map_err(|e| at_row(e, row_number));
            renumber_warnings(session, warnings_before, row_number);
            let Some(inserted) = outcome? else { break };
            counts.records += 1;
            if inserted.affected > 0 {
                counts.copied += 1;
                counts.deleted += inserted.affected - 1;
            }
            first_generated = first_generated.or(inserted.generated);
            if fields.next_line() {
                break;
            }
            if fields.line_cut {
                let message =
                    format!("Row {row_number} was truncated; it contained more data than there were input columns");
                self.complain(session, ErrorCode::WARN_TOO_MANY_RECORDS, message)?;
            }
            row_number += 1;
        }
        fields.io_error()?;
        if let Some(id) = first_generated {
            session.generated_insert_id(id);
        }
        let warnings = session.warning_count();
        Ok(QueryResult::Ok {
            affected_rows: counts.copied + counts.deleted,
            last_insert_id: 0,
            info: format!(
                "Records: {}  Deleted: {}  Skipped: {}  Warnings: {warnings}",
                counts.records,
                counts.deleted,
                counts.records - counts.copied
            ),
        })
    }

    /// Reads one row's fields and inserts the row; `None` at the end of
    /// the file.
    fn load_row<R: Read>(
        &self,
        session: &mut Session,
        fields: &mut FieldReader<R>,
        row_number: u64,
    ) -> SqlResult<Option<dml::InsertOutcome>> {
        let mut read: Vec<Option<Vec<u8>>> = Vec::with_capacity(self.targets.len());
        while read.len() < self.targets.len() {
            let Some(field) = fields.read_field() else { break };
            read.push(field);
        }
        if read.is_empty() {
            return Ok(None);
        }
        let row = with_ctx(session, &[], |ctx| self.fill_row(ctx, read, row_number))?;
        dml::insert_row(session, &self.table, &self.insert, row, &[], &[]).map(Some)
    }

    /// The row `read` (a line's fields) gives, with SET applied. Each field
    /// is stored into its column as it comes, as MariaDB stores it, so the
    /// conversion warnings come in MariaDB's order and SET sees the
    /// columns' values.
    fn fill_row(&self, ctx: &Ctx, read: Vec<Option<Vec<u8>>>, row_number: u64) -> SqlResult<Vec<Value>> {
        let columns = &self.table.def.columns;
        let _storing = crate::eval::coerce::storing_into(&self.table.def.db, &self.table.def.name);
        let mut row: Vec<Value> = self.defaults.iter().map(|d| d.clone().unwrap_or(Value::Null)).collect();
        let given = read.len();
        for (target, field) in self.targets.iter().zip(read) {
            let value = field.map(|bytes| Value::Bytes(self.charset.decode(&bytes).into_owned()));
            match (target, value) {
                (Target::Var(name), value) => set_user_var(ctx.session, name, value.unwrap_or(Value::Null)),
                // A generated column's field is ignored silently, as
                // MariaDB's LOAD DATA does; the write computes the value.
                (Target::Column(c), Some(_)) if columns[*c].generated.is_some() => {}
                (Target::Column(c), Some(value)) => {
                    row[*c] = coerce_to_column(value, &columns[*c], self.abort_on_warning, ctx)?;
                }
                (Target::Column(c), None) => row[*c] = self.null_for(ctx, *c, row_number)?,
            }
        }
        for target in &self.targets[given..] {
            match target {
                Target::Var(name) => set_user_var(ctx.session, name, Value::Null),
                Target::Column(c) => {
                    let column = &columns[*c];
                    row[*c] = if column.nullable { Value::Null } else { zero_value(&column.ty) };
                    let message = format!("Row {row_number} doesn't contain data for all columns");
                    self.complain(ctx, ErrorCode::WARN_TOO_FEW_RECORDS, message)?;
                }
            }
        }
        let by_default = |c: usize| self.defaults[c].is_some() && !self.assignments.iter().any(|(a, _)| *a == c);
        crate::default_expr::fill(ctx, &self.table, &mut row, &by_default)?;
        for (c, e) in &self.assignments {
            row[*c] = ctx.eval(e, &row)?;
        }
        Ok(row)
    }

    /// A NULL field (`\N`) for column `c`: NULL where the column takes
    /// it; otherwise the column's zero value and 1263 (an AUTO_INCREMENT
    /// column generates its next value instead, silently).
    fn null_for(&self, env: &dyn EvalEnv, c: usize, row_number: u64) -> SqlResult<Value> {
        let column = &self.table.def.columns[c];
        if column.nullable || column.auto_increment {
            return Ok(Value::Null);
        }
        if matches!(column.ty, ColumnType::Timestamp { .. }) {
            return Ok(Value::DateTime(dml::local_now(env)));
        }
        let message = format!(
            "Column set to default value; NULL supplied to NOT NULL column '{}' at row {row_number}",
            column.name
        );
        self.complain(env, ErrorCode::WARN_NULL_TO_NOTNULL, message)?;
        Ok(zero_value(&column.ty))
    }

    /// A warning of LOAD DATA's own, an error when warnings abort.
    fn complain(&self, env: &dyn EvalEnv, code: ErrorCode, message: String) -> SqlResult<()> {
        if self.abort_on_warning {
            return Err(SqlError::new(code, message));
        }
        env.warn(code.number, message);
        Ok(())
    }
}

fn set_user_var(session: &Session, name: &str, value: Value) {
    session.user_vars.borrow_mut().insert(name.to_string(), value);
}

/// The value MariaDB's `Field::reset()` leaves: zero, or the empty string.
fn zero_value(ty: &ColumnType) -> Value {
    dml::implicit_default(ty)
}

/// The INSERT path words its conversion messages for row 1; a load names
/// the line it is on.
fn at_row(mut e: SqlError, row_number: u64) -> SqlError {
    e.message = with_row(&e.message, row_number);
    e
}

fn with_row(message: &str, row_number: u64) -> String {
    match message.strip_suffix(" at row 1") {
        Some(head) if row_number != 1 => format!("{head} at row {row_number}"),
        _ => message.to_string(),
    }
}

fn renumber_warnings(session: &Session, from: usize, row_number: u64) {
    if row_number == 1 {
        return;
    }
    for w in session.warnings.borrow_mut().iter_mut().skip(from) {
        w.message = with_row(&w.message, row_number);
    }
}

/// Where a server-side file is, as MariaDB resolves its name: a bare name
/// in the database's directory under the datadir, a relative path under
/// the datadir. Checked against `secure_file_priv`.
pub(crate) fn server_path(session: &Session, db: &str, name: &[u8]) -> SqlResult<PathBuf> {
    let name = String::from_utf8_lossy(name).into_owned();
    let datadir = PathBuf::from(session.engine.vars.get("datadir").unwrap_or_default());
    let path = if name.starts_with('/') {
        PathBuf::from(&name)
    } else if name.contains('/') {
        datadir.join(&name)
    } else {
        datadir.join(session.db.as_deref().unwrap_or(db)).join(&name)
    };
    let allowed = session.engine.vars.get("secure_file_priv").unwrap_or_default();
    if !allowed.is_empty() && !within(&path, Path::new(&allowed)) {
        return Err(SqlError::new(
            ErrorCode::OPTION_PREVENTS_STATEMENT,
            "The MariaDB server is running with the --secure-file-priv option so it cannot execute this statement",
        ));
    }
    Ok(path)
}

/// Whether `path`, symbolic links resolved, is `dir` or under it, as
/// MariaDB judges it (a file that does not exist by its directory).
fn within(path: &Path, dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else { return false };
    let resolved = path.canonicalize().ok().or_else(|| path.parent().and_then(|p| p.canonicalize().ok()));
    resolved.is_some_and(|p| p.starts_with(&dir))
}

/// Opens a server-side file: error 13 when it cannot be found, 1085 when
/// it is not a regular file or a FIFO, as MariaDB answers.
fn open_server_file(path: &Path) -> SqlResult<std::fs::File> {
    use std::os::unix::fs::FileTypeExt;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| SqlError::new(ErrorCode::CANT_GET_STAT, format!("Can't get stat of '{shown}' {}", errcode(&e))))?;
    if !(meta.is_file() || meta.file_type().is_fifo()) {
        return Err(SqlError::new(
            ErrorCode::TEXTFILE_NOT_READABLE,
            format!("The file '{shown}' must be in the database directory or be readable by all"),
        ));
    }
    std::fs::File::open(path)
        .map_err(|e| SqlError::new(ErrorCode::CANT_GET_STAT, format!("File '{shown}' not found {}", errcode(&e))))
}

/// mysys's `(Errcode: 2 "No such file or directory")`.
pub(crate) fn errcode(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    format!("(Errcode: {} \"{text}\")", e.raw_os_error().unwrap_or(0))
}

/// The file a LOCAL load reads, packet by packet from the client.
struct Upload<'a> {
    client: &'a mut dyn ClientFiles,
    packet: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Upload<'_> {
    /// Reads what the client still sends, up to its closing empty packet.
    fn drain(&mut self) -> SqlResult<()> {
        while !self.ended {
            self.ended = self.client.next_packet()?.is_empty();
        }
        Ok(())
    }
}

impl Read for Upload<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.packet.len() {
            if self.ended {
                return Ok(0);
            }
            self.packet = self.client.next_packet().map_err(|e| std::io::Error::other(e.message))?;
            self.at = 0;
            self.ended = self.packet.is_empty();
        }
        let n = out.len().min(self.packet.len() - self.at);
        out[..n].copy_from_slice(&self.packet[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Cuts a file into fields and lines as MariaDB's `READ_INFO` does. A
/// field is `Some(bytes)`, or `None` for NULL.
struct FieldReader<R> {
    input: R,
    buf: Vec<u8>,
    at: usize,
    len: usize,
    /// Bytes given back after looking ahead, the next one last.
    pushed: Vec<u8>,
    error: Option<std::io::Error>,
    field_terminator: Vec<u8>,
    line_terminator: Vec<u8>,
    line_starter: Vec<u8>,
    enclosed_by: Option<u8>,
    escaped_by: Option<u8>,
    at_line_start: bool,
    found_end_of_line: bool,
    eof: bool,
    /// The line just finished had bytes after its last wanted field.
    line_cut: bool,
}

/// One field as read, before NULL detection.
struct RawField {
    bytes: Vec<u8>,
    enclosed: bool,
    /// `\N` was read.
    escaped_null: bool,
}

impl<R: Read> FieldReader<R> {
    fn new(input: R, format: &LoadFormat) -> FieldReader<R> {
        // MariaDB ignores a line terminator equal to the field terminator.
        let line_terminator =
            if format.line_terminator == format.field_terminator { Vec::new() } else { format.line_terminator.clone() };
        FieldReader {
            input,
            buf: vec![0; READ_CHUNK_BYTES],
            at: 0,
            len: 0,
            pushed: Vec::new(),
            error: None,
            field_terminator: format.field_terminator.clone(),
            line_terminator,
            line_starter: format.line_starter.clone(),
            enclosed_by: format.enclosed_by.first().copied(),
            escaped_by: format.escaped_by.first().copied(),
            at_line_start: !format.line_starter.is_empty(),
            found_end_of_line: false,
            eof: false,
            line_cut: false,
        }
    }

    fn io_error(&mut self) -> SqlResult<()> {
        match self.error.take() {
            Some(e) => Err(SqlError::new(ErrorCode::CANT_GET_STAT, format!("Error reading file (Errcode: {e})"))),
            None => Ok(()),
        }
    }

    /// The next byte; `None` at the end of the input (or a read error,
    /// kept for [`FieldReader::io_error`]).
    fn get(&mut self) -> Option<u8> {
        if let Some(b) = self.pushed.pop() {
            return Some(b);
        }
        if self.at == self.len {
            if self.error.is_some() {
                return None;
            }
            loop {
                match self.input.read(&mut self.buf) {
                    Ok(0) => return None,
                    Ok(n) => {
                        self.len = n;
                        self.at = 0;
                        break;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.error = Some(e);
                        return None;
                    }
                }
            }
        }
        self.at += 1;
        Some(self.buf[self.at - 1])
    }

    fn push(&mut self, b: u8) {
        self.pushed.push(b);
    }

    /// Whether `first` (just read) and the bytes after it spell
    /// `terminator`; if not, the look-ahead is given back.
    fn terminator(&mut self, first: u8, terminator_kind: Terminator) -> bool {
        let term = match terminator_kind {
            Terminator::Field => &self.field_terminator,
            Terminator::Line => &self.line_terminator,
            Terminator::LineStart => &self.line_starter,
        };
        if term.first() != Some(&first) {
            return false;
        }
        let term = term.clone();
        let mut taken = Vec::with_capacity(term.len());
        for &want in &term[1..] {
            match self.get() {
                Some(b) if b == want => taken.push(b),
                other => {
                    if let Some(b) = other {
                        self.push(b);
                    }
                    while let Some(b) = taken.pop() {
                        self.push(b);
                    }
                    return false;
                }
            }
        }
        true
    }

    /// The next field of the current line, `Some(None)` for NULL; `None`
    /// when the line (or the file) has no more.
    fn read_field(&mut self) -> Option<Option<Vec<u8>>> {
        let raw = self.read_raw_field()?;
        let is_null = (!raw.enclosed && self.enclosed_by.is_some() && raw.bytes == b"NULL")
            || (raw.escaped_null && raw.bytes.len() == 1);
        Some((!is_null).then_some(raw.bytes))
    }

    fn read_raw_field(&mut self) -> Option<RawField> {
        if self.found_end_of_line {
            return None;
        }
        if self.at_line_start {
            self.at_line_start = false;
            if !self.find_line_start() {
                return None;
            }
        }
        let Some(first) = self.get() else {
            self.found_end_of_line = true;
            self.eof = true;
            return None;
        };
        let mut data = Vec::new();
        let mut escaped_null = false;
        let quote = if Some(first) == self.enclosed_by {
            Some(first)
        } else {
            self.push(first);
            None
        };
        let done = |data: Vec<u8>, enclosed: bool, escaped_null: bool| RawField { bytes: data, enclosed, escaped_null };
        loop {
            let Some(chr) = self.get() else {
                // An unterminated quote keeps its opening character.
                self.found_end_of_line = true;
                self.eof = true;
                if let Some(q) = quote {
                    data.insert(0, q);
                }
                return Some(done(data, false, escaped_null));
            };
            if Some(chr) == self.escaped_by {
                let Some(next) = self.get() else {
                    data.push(chr);
                    self.found_end_of_line = true;
                    self.eof = true;
                    if let Some(q) = quote {
                        data.insert(0, q);
                    }
                    return Some(done(data, false, escaped_null));
                };
                // With the escape character also the quote, only a doubled
                // one escapes (`"fie""ld"`).
                if self.escaped_by != self.enclosed_by || Some(next) == self.escaped_by {
                    let (byte, null) = unescape(next);
                    escaped_null |= null;
                    data.push(byte);
                    continue;
                }
                self.push(next);
            }
            if quote.is_none() && self.terminator(chr, Terminator::Line) {
                self.found_end_of_line = true;
                return Some(done(data, false, escaped_null));
            }
            if Some(chr) == quote {
                let next = self.get();
                if next == quote {
                    data.push(chr);
                    continue;
                }
                let ends_line = match next {
                    None => true,
                    Some(n) => self.terminator(n, Terminator::Line),
                };
                if ends_line {
                    self.found_end_of_line = true;
                    return Some(done(data, true, escaped_null));
                }
                if let Some(n) = next {
                    if self.terminator(n, Terminator::Field) {
                        return Some(done(data, true, escaped_null));
                    }
                    self.push(n);
                }
            } else if quote.is_none() && self.terminator(chr, Terminator::Field) {
                return Some(done(data, false, escaped_null));
            }
            data.push(chr);
        }
    }

    /// Skips to just after the next LINES STARTING BY prefix; false at the
    /// end of the file.
    fn find_line_start(&mut self) -> bool {
        while let Some(b) = self.get() {
            if self.terminator(b, Terminator::LineStart) {
                return true;
            }
        }
        self.found_end_of_line = true;
        self.eof = true;
        false
    }

    /// Moves past the rest of the current line (`line_cut` says whether
    /// anything was left on it); true at the end of the file.
    fn next_line(&mut self) -> bool {
        self.line_cut = false;
        self.at_line_start = !self.line_starter.is_empty();
        if self.found_end_of_line || self.eof {
            self.found_end_of_line = false;
            return self.eof;
        }
        if self.line_terminator.is_empty() {
            return false;
        }
        loop {
            let Some(b) = self.get() else { return true };
            if Some(b) == self.escaped_by {
                self.line_cut = true;
                if self.get().is_none() {
                    return true;
                }
                continue;
            }
            if self.terminator(b, Terminator::Line) {
                return false;
            }
            self.line_cut = true;
        }
    }
}

#[derive(Clone, Copy)]
enum Terminator {
    Field,
    Line,
    LineStart,
}

/// The byte an escape sequence stands for, and whether it was `\N`.
fn unescape(b: u8) -> (u8, bool) {
    match b {
        b'n' => (b'\n', false),
        b't' => (b'\t', false),
        b'r' => (b'\r', false),
        b'b' => (0x08, false),
        b'0' => (0, false),
        b'Z' => (0x1a, false),
        b'N' => (b'N', true),
        other => (other, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(data: &[u8], format: &LoadFormat) -> Vec<Vec<Option<String>>> {
        let mut reader = FieldReader::new(data, format);
        let mut out = Vec::new();
        loop {
            let mut row = Vec::new();
            while let Some(f) = reader.read_field() {
                row.push(f.map(|b| String::from_utf8_lossy(&b).into_owned()));
            }
            if row.is_empty() {
                break;
            }
            out.push(row);
            if reader.next_line() {
                break;
            }
        }
        out
    }

    fn s(v: &str) -> Option<String> {
        Some(v.to_string())
    }

    #[test]
    fn default_format_escapes_and_nulls() {
        let got = rows(b"1\ta\\tb\\\\c\n2\t\\N\n3\tNULL\n\n", &LoadFormat::default());
        assert_eq!(
            got,
            vec![
                vec![s("1"), s("a\tb\\c")],
                vec![s("2"), None],
                // Unquoted NULL is a string unless ENCLOSED BY is set.
                vec![s("3"), s("NULL")],
                vec![s("")],
            ]
        );
    }

    #[test]
    fn csv_with_quotes_doubling_and_multibyte_terminators() {
        let format = LoadFormat {
            field_terminator: b",".to_vec(),
            enclosed_by: b"\"".to_vec(),
            line_terminator: b"\r\n".to_vec(),
            ..LoadFormat::default()
        };
        let got = rows(b"\"a,b\",\"say \"\"hi\"\"\",NULL,\"NULL\"\r\n\"x\ny\",\\N,z\r\n", &format);
        assert_eq!(got, vec![vec![s("a,b"), s("say \"hi\""), None, s("NULL")], vec![s("x\ny"), None, s("z")]]);
    }

    #[test]
    fn line_prefix_and_last_line_without_terminator() {
        let format = LoadFormat { line_starter: b"xx".to_vec(), ..LoadFormat::default() };
        let got = rows(b"junk\nxx1\t2\nno prefix\nabcxx3\t4", &format);
        assert_eq!(got, vec![vec![s("1"), s("2")], vec![s("3"), s("4")]]);
    }

    #[test]
    fn escape_equal_to_quote_only_doubles() {
        let format = LoadFormat {
            field_terminator: b",".to_vec(),
            enclosed_by: b"\"".to_vec(),
            escaped_by: b"\"".to_vec(),
            escaped_given: true,
            ..LoadFormat::default()
        };
        assert_eq!(rows(b"\"fie\"\"ld1\",\"a\\nb\"\n", &format), vec![vec![s("fie\"ld1"), s("a\\nb")]]);
    }

    #[test]
    fn next_line_reports_cut_lines() {
        let mut reader = FieldReader::new(&b"1\t2\t3\n4\n"[..], &LoadFormat::default());
        assert_eq!(reader.read_field(), Some(s("1").map(String::into_bytes)));
        assert!(!reader.next_line());
        assert!(reader.line_cut);
        assert_eq!(reader.read_field(), Some(s("4").map(String::into_bytes)));
        assert!(!reader.next_line());
        assert!(!reader.line_cut);
        assert_eq!(reader.read_field(), None);
    }

    #[test]
    fn row_numbers_in_messages() {
        assert_eq!(with_row("Data truncated for column 'a' at row 1", 7), "Data truncated for column 'a' at row 7");
        assert_eq!(with_row("Duplicate entry '1' for key 'PRIMARY'", 7), "Duplicate entry '1' for key 'PRIMARY'");
    }
}
