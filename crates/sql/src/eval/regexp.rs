//! REGEXP / RLIKE and REGEXP_REPLACE, REGEXP_INSTR, REGEXP_SUBSTR.
//!
//! MariaDB matches with PCRE2; this uses the `regex` crate, whose syntax is
//! PCRE's for everything but backreferences (`\1` in a pattern), lookaround
//! (`(?=`, `(?!`, `(?<=`, `(?<!`), atomic groups and possessive quantifiers,
//! which are a regexp error (1139) here. Matching is case-insensitive unless
//! an operand is binary or has a `_bin` collation, as MariaDB decides from
//! the operands' collation.

use super::{eval, value_string, EvalEnv, Row};
use crate::ast::Expr;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use regex::{Regex, RegexBuilder};
use std::cell::RefCell;
use std::collections::HashMap;

/// `(min, max)` arguments; `None` if `name` is not a regexp function.
pub(super) fn arity(name: &str) -> Option<(usize, usize)> {
    match name {
        "regexp" | "regexp_instr" | "regexp_substr" => Some((2, 2)),
        "regexp_replace" => Some((3, 3)),
        _ => None,
    }
}

pub(super) fn call(name: &str, args: &[Expr], row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    // Case matters under the operands' collation when it is a binary or a
    // case-sensitive one, as in MariaDB.
    let collation = super::pair_collation(&args[0], &args[1], name)?;
    let case_sensitive = collation.is_binary_order() || collation.name().ends_with("_cs");
    let vals: Vec<Value> = args.iter().map(|a| eval(a, row, env)).collect::<SqlResult<_>>()?;
    if vals.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let subject = value_string(&vals[0]);
    let re = compiled(&value_string(&vals[1]), case_sensitive)?;
    Ok(match name {
        "regexp" => Value::Int(i64::from(re.is_match(&subject))),
        // 1-based character position of the first match, 0 for none.
        "regexp_instr" => Value::Int(re.find(&subject).map_or(0, |m| subject[..m.start()].chars().count() as i64 + 1)),
        "regexp_substr" => Value::from_str(re.find(&subject).map_or("", |m| m.as_str())),
        _ => Value::from_str(&re.replace_all(&subject, replacement(&value_string(&vals[2])).as_str())),
    })
}

/// MariaDB's replacement text (`\1` … `\9` name groups) in the `regex`
/// crate's form (`${1}`, and `$` escaped).
fn replacement(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(char::is_ascii_digit) => {
                let digit = chars.next().unwrap_or('0');
                out.push_str(&format!("${{{digit}}}"));
            }
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
    }
    out
}

/// Compiled patterns of this thread, reused across rows.
const CACHE_LIMIT: usize = 64;

thread_local! {
    static CACHE: RefCell<HashMap<(String, bool), Regex>> = RefCell::new(HashMap::new());
}

fn compiled(pattern: &str, case_sensitive: bool) -> SqlResult<Regex> {
    let key = (pattern.to_string(), case_sensitive);
    if let Some(re) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(re);
    }
    let re = RegexBuilder::new(pattern)
        .case_insensitive(!case_sensitive)
        .build()
        .map_err(|e| SqlError::new(ErrorCode::REGEXP_ERROR, format!("Regex error '{}'", first_line(&e))))?;
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(key, re.clone());
    });
    Ok(re)
}

fn first_line(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines().rev().find(|l| l.starts_with("error:")).unwrap_or(&text).trim_start_matches("error: ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacement_groups_and_dollars() {
        assert_eq!(replacement(r"<\2\1$>"), "<${2}${1}$$>");
    }

    #[test]
    fn bad_pattern_is_error_1139() {
        let err = compiled("(", false).err().map(|e| e.code.number);
        assert_eq!(err, Some(1139));
    }
}
