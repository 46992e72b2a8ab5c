//! Where a top-level `SELECT ... INTO` puts its result (parsed by
//! `parse::select_into`): the one row in user variables, or the rows in a
//! new file on the server.
//!
//! `INTO OUTFILE` writes each row as LOAD DATA reads one: the line
//! starter, the values separated by the field terminator, the line
//! terminator. A value is enclosed when ENCLOSED BY is given (with
//! OPTIONALLY, only a string or temporal one); with an escape character,
//! NULL is `\N` and the escape character goes before every escape
//! character, enclosing (or, unenclosed, field-terminating) character,
//! line-terminating character and NUL (written `0`) in a value. Values are
//! written in their column's character set, or in CHARACTER SET's when
//! given. `INTO DUMPFILE` writes a row's values raw, nothing between (a
//! NUL byte for NULL).
//!
//! A file is created new, never overwritten (MariaDB's 1086), and needs
//! the FILE privilege; `secure_file_priv` confines it as LOAD DATA's.

use crate::ast::{IntoTarget, LoadFormat, SelectInto};
use crate::eval::EvalEnv;
use crate::session::{QueryResult, ResultColumn, Session};
use onelog_core::{Charset, ColumnType, ErrorCode, SqlError, SqlResult, Value};
use onelog_protocol::resultset::{column_meta_for, text_value, ColumnMeta};
use std::borrow::Cow;
use std::io::Write;

/// Stores `result` (the query's rows, whole) where `into` says.
pub(crate) fn store(session: &Session, into: &SelectInto, result: QueryResult) -> SqlResult<QueryResult> {
    let QueryResult::Rows { columns, rows } = result else {
        return Err(SqlError::internal("SELECT ... INTO without its rows"));
    };
    if into.deprecated_position {
        session.warn(
            ErrorCode::WARN_DEPRECATED_SYNTAX.number,
            "'<select expression> INTO <destination>;' is deprecated and will be removed in a future release. \
             Please use 'SELECT <select list> INTO <destination> FROM...' instead"
                .into(),
        );
    }
    // How the client would read each column's values, built once.
    let metas: Vec<ColumnMeta> = columns.iter().map(|c| column_meta_for(&c.def, "", "", None)).collect();
    match &into.target {
        IntoTarget::UserVars(names) => user_vars(session, names, &columns, rows),
        IntoTarget::Outfile { file, charset, format } => {
            let charset = charset.as_deref().map(Charset::named_or_error).transpose()?;
            let format = Export::new(session, format, &columns)?;
            let mut out = create(session, file)?;
            for (n, row) in rows.iter().enumerate() {
                out.write_all(&format.line(session, (&columns, &metas), row, charset, n + 1))
                    .map_err(|e| write_error(file, &e))?;
            }
            out.flush().map_err(|e| write_error(file, &e))?;
            Ok(QueryResult::ok(rows.len() as u64))
        }
        IntoTarget::Dumpfile(file) => {
            let mut out = create(session, file)?;
            for (n, row) in rows.iter().enumerate() {
                // MariaDB's select_dump refuses a row only once two are
                // written (it tests its count before counting the row).
                if n >= DUMPFILE_ROWS {
                    return Err(too_many_rows());
                }
                for ((value, column), meta) in row.iter().zip(&columns).zip(&metas) {
                    // NULL is written as one NUL byte.
                    let bytes = text(value, column, meta).unwrap_or(Cow::Borrowed(b"\0"));
                    out.write_all(&bytes).map_err(|e| write_error(file, &e))?;
                }
            }
            out.flush().map_err(|e| write_error(file, &e))?;
            Ok(QueryResult::ok(rows.len() as u64))
        }
    }
}

/// How many rows INTO DUMPFILE writes before it fails with 1172.
const DUMPFILE_ROWS: usize = 2;

/// `INTO @a, @b`: exactly one row, as many values as variables; no row
/// leaves them as they were (warning 1329).
fn user_vars(
    session: &Session,
    names: &[String],
    columns: &[ResultColumn],
    rows: Vec<Vec<Value>>,
) -> SqlResult<QueryResult> {
    if columns.len() != names.len() {
        return Err(SqlError::new(
            ErrorCode::WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
            "The used SELECT statements have a different number of columns",
        ));
    }
    let mut rows = rows.into_iter();
    let Some(row) = rows.next() else {
        session.warn(ErrorCode::SP_FETCH_NO_DATA.number, "No data - zero rows fetched, selected, or processed".into());
        return Ok(QueryResult::ok(0));
    };
    if rows.next().is_some() {
        return Err(too_many_rows());
    }
    for (name, value) in names.iter().zip(row) {
        session.set_user_var(name, value);
    }
    Ok(QueryResult::ok(1))
}

fn too_many_rows() -> SqlError {
    SqlError::new(ErrorCode::TOO_MANY_ROWS, "Result consisted of more than one row")
}

/// The file `name` names, created new.
fn create(session: &Session, name: &[u8]) -> SqlResult<std::io::BufWriter<std::fs::File>> {
    let path = crate::load_data::server_path(session, "", name)?;
    let file = std::fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            let shown = String::from_utf8_lossy(name);
            SqlError::new(ErrorCode::FILE_EXISTS, format!("File '{shown}' already exists"))
        } else {
            write_error(name, &e)
        }
    })?;
    Ok(std::io::BufWriter::new(file))
}

fn write_error(name: &[u8], e: &std::io::Error) -> SqlError {
    let shown = String::from_utf8_lossy(name);
    SqlError::new(
        ErrorCode::CANT_CREATE_FILE,
        format!("Can't create/write to file '{shown}' {}", crate::load_data::errcode(e)),
    )
}

/// A value's bytes as the client would read them (`None` for NULL), in
/// its column's character set when it is text.
fn text<'a>(value: &'a Value, column: &ResultColumn, meta: &ColumnMeta) -> Option<Cow<'a, [u8]>> {
    let bytes = text_value(value, meta)?;
    let charset = column.def.collation.charset();
    if charset == Charset::Binary || !column.def.ty.is_text() {
        return Some(bytes);
    }
    Some(encoded(bytes, charset))
}

/// UTF-8 `bytes` in `charset`'s encoding.
fn encoded(bytes: Cow<'_, [u8]>, charset: Charset) -> Cow<'_, [u8]> {
    match charset.encode(&bytes) {
        Cow::Borrowed(_) => bytes,
        Cow::Owned(converted) => Cow::Owned(converted),
    }
}

/// [`text`] converted to CHARACTER SET's charset when given: a character
/// it lacks becomes `?` with MariaDB's warning for row `row_number`.
fn text_in<'a>(
    session: &Session,
    value: &'a Value,
    (column, meta): (&ResultColumn, &ColumnMeta),
    charset: Option<Charset>,
    row_number: usize,
) -> Option<Cow<'a, [u8]>> {
    let Some(charset) = charset.filter(|_| column.def.ty.is_text()) else { return text(value, column, meta) };
    let bytes = text_value(value, meta)?;
    if charset.first_unrepresentable(&bytes).is_some() {
        session.warn(
            ErrorCode::TRUNCATED_WRONG_VALUE_FOR_FIELD.number,
            format!("Data truncated for column '{}' at row {row_number}", column.name),
        );
    }
    Some(encoded(bytes, charset))
}

/// Characters LOAD DATA reads after an escape character as something
/// else (`\n`, `\t`, ...): a field separator among them is ambiguous.
const ESCAPE_CHARS: &[u8] = b"ntrb0ZN";
/// Characters a number's text may hold: a field separator among them is
/// unsafe for unenclosed numbers.
const NUMERIC_CHARS: &[u8] = b".0123456789e+-";

/// OUTFILE's format with its characters resolved, as MariaDB's
/// `select_export` resolves them for these columns.
struct Export {
    format: LoadFormat,
    escape: Option<u8>,
    /// What ends a line: LINES TERMINATED BY, or the field terminator when
    /// that is empty.
    line_terminator: Vec<u8>,
    /// What marks a field's end inside a value: the enclosing character,
    /// else the field terminator's first.
    field_end: Option<u8>,
    /// OPTIONALLY ENCLOSED BY (or no enclosing at all).
    enclosed_optionally: bool,
    /// The field separator is a letter LOAD DATA reads escaped as
    /// something else (`\n`): it is doubled rather than escaped.
    ambiguous_separator: bool,
    /// The field separator can occur in a number: numbers are escaped too.
    unsafe_separator: bool,
    /// An unenclosed field terminator is not escaped (warning 1475).
    ambiguous_terminator: bool,
}

impl Export {
    fn new(session: &Session, format: &LoadFormat, columns: &[ResultColumn]) -> SqlResult<Export> {
        if format.field_terminator.is_empty() && format.enclosed_by.is_empty() {
            return Err(SqlError::not_supported(
                "SELECT ... INTO OUTFILE with fixed-size rows (FIELDS TERMINATED BY '' ENCLOSED BY '')",
            ));
        }
        if format.enclosed_by.len() > 1 || format.escaped_by.len() > 1 {
            return Err(SqlError::new(
                ErrorCode::WRONG_FIELD_TERMINATORS,
                "Field separator argument is not what is expected; check the manual",
            ));
        }
        let escapes = format.escaped_given || !session.sql_mode_has("NO_BACKSLASH_ESCAPES");
        let line_terminator = match format.line_terminator.is_empty() {
            true => format.field_terminator.clone(),
            false => format.line_terminator.clone(),
        };
        let terminator = format.field_terminator.first().copied();
        let field_end = format.enclosed_by.first().copied().or(terminator);
        let ambiguous_separator = field_end.is_some_and(|c| ESCAPE_CHARS.contains(&c));
        let unsafe_separator = field_end.is_some_and(|c| NUMERIC_CHARS.contains(&c));
        let enclosed_optionally = format.enclosed_by.is_empty() || (format.enclosed_optionally && terminator.is_some());
        let strings = columns.iter().any(|c| string_type(&c.def.ty));
        let non_strings = columns.iter().any(|c| !string_type(&c.def.ty));
        let ambiguous_terminator =
            (ambiguous_separator && format.enclosed_by.is_empty() && (strings || unsafe_separator))
                || (enclosed_optionally && non_strings && terminator.is_some_and(|c| NUMERIC_CHARS.contains(&c)));
        if ambiguous_terminator {
            session.warn(
                ErrorCode::AMBIGUOUS_FIELD_TERM.number,
                "First character of the FIELDS TERMINATED string is ambiguous; please use non-optional and non-empty FIELDS ENCLOSED BY".into(),
            );
        }
        Ok(Export {
            escape: format.escaped_by.first().copied().filter(|_| escapes),
            line_terminator,
            field_end,
            enclosed_optionally,
            ambiguous_separator,
            unsafe_separator,
            ambiguous_terminator,
            format: format.clone(),
        })
    }

    fn line(
        &self,
        session: &Session,
        (columns, metas): (&[ResultColumn], &[ColumnMeta]),
        row: &[Value],
        charset: Option<Charset>,
        row_number: usize,
    ) -> Vec<u8> {
        let mut line = self.format.line_starter.clone();
        for (i, ((value, column), meta)) in row.iter().zip(columns).zip(metas).enumerate() {
            if i > 0 {
                line.extend_from_slice(&self.format.field_terminator);
            }
            let bytes = text_in(session, value, (column, meta), charset, row_number);
            self.field(&mut line, bytes.as_deref(), string_type(&column.def.ty));
        }
        line.extend_from_slice(&self.line_terminator);
        line
    }

    fn field(&self, line: &mut Vec<u8>, value: Option<&[u8]>, string: bool) {
        let Some(bytes) = value else {
            match self.escape {
                Some(e) => line.extend_from_slice(&[e, b'N']),
                None => line.extend_from_slice(b"NULL"),
            }
            return;
        };
        let enclosed = !self.format.enclosed_by.is_empty() && (!self.enclosed_optionally || string);
        if enclosed {
            line.extend_from_slice(&self.format.enclosed_by);
        }
        match self.escape {
            Some(escape) if string || self.unsafe_separator => self.escaped(line, bytes, escape, enclosed),
            _ => line.extend_from_slice(bytes),
        }
        if enclosed {
            line.extend_from_slice(&self.format.enclosed_by);
        }
    }

    /// `bytes` with the escape character before each that LOAD DATA would
    /// otherwise read as the end of something, NUL as `0` after it.
    fn escaped(&self, line: &mut Vec<u8>, bytes: &[u8], escape: u8, enclosed: bool) {
        let terminator = self.format.field_terminator.first();
        let separator = if enclosed { self.field_end.as_ref() } else { terminator };
        let line_end = self.line_terminator.first();
        for &b in bytes {
            let special = b == escape || Some(&b) == separator || Some(&b) == line_end || b == 0;
            // An ambiguous terminator is never escaped: only doubling an
            // enclosing character is read back as that character.
            let kept = !enclosed && self.ambiguous_terminator && Some(&b) == terminator;
            if special && !kept {
                let doubled = self.ambiguous_separator && Some(b) == self.field_end;
                line.push(if doubled { b } else { escape });
            }
            line.push(if b == 0 { b'0' } else { b });
        }
    }
}

/// Whether values of this type are strings to OUTFILE (MariaDB's
/// STRING_RESULT, the temporal types included): OPTIONALLY ENCLOSED BY
/// encloses them and the escape character escapes in them.
fn string_type(ty: &ColumnType) -> bool {
    !(ty.is_integer() || ty.is_numeric() || matches!(ty, ColumnType::Bit(_)))
}
