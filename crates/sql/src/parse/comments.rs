//! Lexical rewrites before tokenizing: MySQL's `\N`, another spelling of
//! NULL outside strings, and executable comments: `/*! text */` and
//! `/*!NNNNN text */` run `text` on servers of version NNNNN or later,
//! `/*M!NNNNNN text */` the same on MariaDB only; every other comment stays
//! a comment. mariadb-dump writes them throughout (`/*!40101 SET NAMES
//! utf8mb4 */`, `START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */`,
//! `/*M!999999\- enable the sandbox mode */`).
//!
//! Written by hand: sqlparser expands every `/*!` whatever its version and
//! leaves `/*M!` a comment, and resolving them needs only the lexical
//! structure that decides where a comment can start (quotes, comments).

use std::borrow::Cow;

/// The version OneLog announces (10.11.99) as executable comments compare
/// it: major * 10000 + minor * 100 + patch.
pub const VERSION_ID: u32 = 101_199;

/// `sql` with each executable comment replaced by its text when it applies
/// to this server and by a space when it does not, and `\N` by NULL.
pub fn resolve(sql: &str) -> Cow<'_, str> {
    if !sql.contains("/*!") && !sql.contains("/*M!") && !sql.contains("\\N") {
        return Cow::Borrowed(sql);
    }
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'\'' | b'"' | b'`') => i = quoted_end(bytes, i, q),
            b'#' => i = line_end(bytes, i),
            b'-' if bytes.get(i + 1) == Some(&b'-') && bytes.get(i + 2).is_none_or(|c| c.is_ascii_whitespace()) => {
                i = line_end(bytes, i)
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // Unterminated: the rest of the query is the comment.
                let (inside_end, end) =
                    sql[i + 2..].find("*/").map_or((bytes.len(), bytes.len()), |e| (i + 2 + e, i + 4 + e));
                if let Some(text) = executable_text(&sql[i + 2..inside_end]) {
                    out.push_str(&sql[copied..i]);
                    out.push(' ');
                    out.push_str(text.unwrap_or(""));
                    out.push(' ');
                    copied = end;
                }
                i = end;
            }
            b'\\' if bytes.get(i + 1) == Some(&b'N') && !bytes.get(i + 2).is_some_and(|c| is_word_byte(*c)) => {
                out.push_str(&sql[copied..i]);
                if i > 0 && is_word_byte(bytes[i - 1]) {
                    out.push(' ');
                }
                out.push_str("NULL");
                i += 2;
                copied = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&sql[copied..]);
    Cow::Owned(out)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// For the inside of a comment: `None` if it is no executable comment, else
/// its text if it applies to this server (`Some(None)` if not).
fn executable_text(inside: &str) -> Option<Option<&str>> {
    let rest = inside.strip_prefix('!').or_else(|| inside.strip_prefix("M!"))?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    // MariaDB reads a version of five or six digits; more are text.
    let digits = if digits >= 6 {
        6
    } else if digits == 5 {
        5
    } else {
        0
    };
    let applies = digits == 0 || rest[..digits].parse::<u32>().is_ok_and(|v| v <= VERSION_ID);
    Some(applies.then(|| &rest[digits..]))
}

/// Index after the quoted text starting at `start` (quote `q`); a doubled
/// quote and, in strings, a backslash escape do not end it.
fn quoted_end(bytes: &[u8], start: usize, q: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if q != b'`' => i += 2,
            c if c == q && bytes.get(i + 1) == Some(&q) => i += 2,
            c if c == q => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn line_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |n| start + n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executable_comments_run_by_version() {
        let cases = [
            ("/*!40101 SET NAMES utf8mb4 */", "  SET NAMES utf8mb4  "),
            (
                "START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */",
                "START TRANSACTION   WITH CONSISTENT SNAPSHOT  ",
            ),
            ("/*M!100100 SET @@MAX_STATEMENT_TIME=0.000000 */", "  SET @@MAX_STATEMENT_TIME=0.000000  "),
            ("/*!*/", "  "),
            ("/*! SELECT 1 */", "  SELECT 1  "),
            // Newer than this server: a comment.
            ("/*M!999999\\- enable the sandbox mode */", "  "),
            ("SELECT 1 /*!110000 + 1 */", "SELECT 1   "),
            // Six digits are a version; a seventh is text.
            ("SELECT /*!1011990*/ 2", "SELECT  0  2"),
            // Not executable, or not a comment at all.
            ("SELECT 1 /* ! 2 */", "SELECT 1 /* ! 2 */"),
            ("SELECT '/*!40101 x */', \"/*!1 \", `/*!`", "SELECT '/*!40101 x */', \"/*!1 \", `/*!`"),
            (
                "SELECT 'it''s /*!1 x */' -- /*!1 y */\n, 2 # /*!1 z */",
                "SELECT 'it''s /*!1 x */' -- /*!1 y */\n, 2 # /*!1 z */",
            ),
            ("SELECT 'a\\' /*!1 x */' /*!40000 , 3 */", "SELECT 'a\\' /*!1 x */'   , 3  "),
            // Unterminated: the rest of the query is its text.
            ("SELECT 1 /*!40000 + 2", "SELECT 1   + 2 "),
            // \N is NULL outside quotes and comments.
            ("SELECT \\N, ISNULL(\\N),\\N", "SELECT NULL, ISNULL(NULL),NULL"),
            ("SELECT '\\N', \"\\N\", `\\N` # \\N", "SELECT '\\N', \"\\N\", `\\N` # \\N"),
            ("SELECT \\Nx, a\\N", "SELECT \\Nx, a NULL"),
        ];
        for (sql, want) in cases {
            assert_eq!(resolve(sql), want, "{sql}");
        }
    }
}
