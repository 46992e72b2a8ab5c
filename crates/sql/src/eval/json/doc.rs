//! A JSON document as MariaDB's JSON functions see it: numbers and strings
//! keep the text they were written with (MariaDB never reformats a number
//! or re-escapes a string), objects keep their members' order, and the
//! printer uses MariaDB's spacing (`{"a": 1, "b": [1, 2]}`).

use std::fmt::Write;

/// MariaDB's JSON_DEPTH_LIMIT: deeper documents are an error (4040), and
/// the limit also bounds this parser's recursion.
pub const DEPTH_LIMIT: usize = 32;

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// A number, `true`, `false` or `null`, as written.
    Lit(String),
    /// A string's contents as written between its quotes (escapes kept).
    Str(String),
    Arr(Vec<Json>),
    /// Members in document order; keys as written (escapes kept).
    Obj(Vec<(String, Json)>),
}

/// Why a text is not JSON; positions are 1-based byte positions of the
/// offending character, as MariaDB reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    End,
    Syntax(usize),
    Depth(usize),
}

pub fn parse(text: &[u8]) -> Result<Json, ParseError> {
    let mut p = Parser { s: text, i: 0 };
    let v = p.value(0)?;
    p.ws();
    match p.s.get(p.i) {
        None => Ok(v),
        Some(_) => Err(ParseError::Syntax(p.i + 1)),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Result<u8, ParseError> {
        self.ws();
        self.s.get(self.i).copied().ok_or(ParseError::End)
    }

    fn value(&mut self, depth: usize) -> Result<Json, ParseError> {
        match self.peek()? {
            b'{' | b'[' if depth >= DEPTH_LIMIT => Err(ParseError::Depth(self.i + 1)),
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => Ok(Json::Str(self.string()?)),
            b't' => self.word("true"),
            b'f' => self.word("false"),
            b'n' => self.word("null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(ParseError::Syntax(self.i + 1)),
        }
    }

    fn word(&mut self, w: &str) -> Result<Json, ParseError> {
        for &expected in w.as_bytes() {
            match self.s.get(self.i) {
                None => return Err(ParseError::End),
                Some(&c) if c == expected => self.i += 1,
                Some(_) => return Err(ParseError::Syntax(self.i + 1)),
            }
        }
        Ok(Json::Lit(w.to_string()))
    }

    fn digits(&mut self) -> Result<(), ParseError> {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        match self.s.get(self.i) {
            _ if self.i > start => Ok(()),
            None => Err(ParseError::End),
            Some(_) => Err(ParseError::Syntax(self.i + 1)),
        }
    }

    fn number(&mut self) -> Result<Json, ParseError> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        self.digits()?;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            self.digits()?;
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.digits()?;
        }
        Ok(Json::Lit(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()))
    }

    /// A string at `"`: its raw contents (MariaDB accepts any escaped
    /// character, so `"\x"` is valid).
    fn string(&mut self) -> Result<String, ParseError> {
        self.i += 1;
        let start = self.i;
        loop {
            match self.s.get(self.i) {
                None => return Err(ParseError::End),
                Some(b'"') => break,
                Some(b'\\') => self.i += 2,
                Some(_) => self.i += 1,
            }
        }
        let raw = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        self.i += 1;
        Ok(raw)
    }

    fn array(&mut self, depth: usize) -> Result<Json, ParseError> {
        self.i += 1;
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value(depth)?);
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(ParseError::Syntax(self.i + 1)),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, ParseError> {
        self.i += 1;
        let mut members = Vec::new();
        if self.peek()? == b'}' {
            self.i += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            if self.peek()? != b'"' {
                return Err(ParseError::Syntax(self.i + 1));
            }
            let key = self.string()?;
            if self.peek()? != b':' {
                return Err(ParseError::Syntax(self.i + 1));
            }
            self.i += 1;
            members.push((key, self.value(depth)?));
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(ParseError::Syntax(self.i + 1)),
            }
        }
    }
}

/// The text of a string as JSON writes it between quotes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A JSON string's contents with its escapes resolved (an unknown escape
/// stands for the character itself, as MariaDB reads it).
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => out.push(unicode_escape(&mut chars)),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// `\uXXXX` (the `\u` already read), with a following `\uXXXX` low
/// surrogate when the first is a high one.
fn unicode_escape(chars: &mut std::str::Chars<'_>) -> char {
    let hex4 = |chars: &mut std::str::Chars<'_>| {
        let digits: String = chars.take(4).collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    let Some(first) = hex4(chars) else { return char::REPLACEMENT_CHARACTER };
    if (0xD800..0xDC00).contains(&first) {
        let mut look = chars.clone();
        if look.next() == Some('\\') && look.next() == Some('u') {
            if let Some(low @ 0xDC00..=0xDFFF) = hex4(&mut look) {
                *chars = look;
                let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl Json {
    /// Printed as MariaDB's JSON functions print a document.
    pub fn print(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, ", ", ": ");
        out
    }

    /// JSON_COMPACT's form: no spaces at all.
    pub fn print_compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, ",", ":");
        out
    }

    fn write(&self, out: &mut String, comma: &str, colon: &str) {
        match self {
            Json::Lit(t) => out.push_str(t),
            Json::Str(s) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            Json::Arr(items) => {
                out.push('[');
                for (n, v) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(comma);
                    }
                    v.write(out, comma, colon);
                }
                out.push(']');
            }
            Json::Obj(members) => {
                out.push('{');
                for (n, (k, v)) in members.iter().enumerate() {
                    if n > 0 {
                        out.push_str(comma);
                    }
                    out.push('"');
                    out.push_str(k);
                    out.push('"');
                    out.push_str(colon);
                    v.write(out, comma, colon);
                }
                out.push('}');
            }
        }
    }

    /// JSON_DETAILED's form: one member or element a line, four spaces an
    /// indentation level, a nested value's bracket on its own line.
    pub fn print_detailed(&self) -> String {
        let mut out = String::new();
        self.write_detailed(&mut out, 0);
        out
    }

    fn write_detailed(&self, out: &mut String, level: usize) {
        let pad = |out: &mut String, level: usize| out.push_str(&" ".repeat(4 * level));
        match self {
            Json::Arr(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (n, v) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(",\n");
                    }
                    pad(out, level + 1);
                    v.write_detailed(out, level + 1);
                }
                out.push('\n');
                pad(out, level);
                out.push(']');
            }
            Json::Obj(members) if !members.is_empty() => {
                out.push_str("{\n");
                for (n, (k, v)) in members.iter().enumerate() {
                    if n > 0 {
                        out.push_str(",\n");
                    }
                    pad(out, level + 1);
                    let _ = write!(out, "\"{k}\": ");
                    if v.is_container() {
                        out.push('\n');
                        pad(out, level + 1);
                    }
                    v.write_detailed(out, level + 1);
                }
                out.push('\n');
                pad(out, level);
                out.push('}');
            }
            other => other.write(out, ", ", ": "),
        }
    }

    pub fn is_container(&self) -> bool {
        matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    /// JSON_TYPE's name for the value.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Obj(_) => "OBJECT",
            Json::Arr(_) => "ARRAY",
            Json::Str(_) => "STRING",
            Json::Lit(t) if t == "true" || t == "false" => "BOOLEAN",
            Json::Lit(t) if t == "null" => "NULL",
            // MariaDB calls a number DOUBLE only when it has a fraction.
            Json::Lit(t) if t.contains('.') => "DOUBLE",
            Json::Lit(_) => "INTEGER",
        }
    }

    /// JSON_DEPTH: 1 for a scalar or an empty container.
    pub fn depth(&self) -> i64 {
        let deepest = match self {
            Json::Arr(items) => items.iter().map(Json::depth).max(),
            Json::Obj(members) => members.iter().map(|(_, v)| v.depth()).max(),
            _ => None,
        };
        deepest.map_or(1, |d| d + 1)
    }

    /// JSON_LENGTH: members, elements, or 1 for a scalar.
    pub fn length(&self) -> i64 {
        match self {
            Json::Arr(items) => items.len() as i64,
            Json::Obj(members) => members.len() as i64,
            _ => 1,
        }
    }

    pub fn member(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Equality as JSON_CONTAINS / JSON_EQUALS see it: numbers by value,
    /// strings by their unescaped text, objects regardless of member order.
    pub fn same(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Lit(a), Json::Lit(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(x), Ok(y)) => x == y,
                _ => a == b,
            },
            (Json::Str(a), Json::Str(b)) => a == b || unescape(a) == unescape(b),
            (Json::Arr(a), Json::Arr(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (Json::Obj(a), Json::Obj(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| other.member(k).is_some_and(|w| v.same(w)))
            }
            _ => false,
        }
    }

    /// JSON_CONTAINS(self, candidate), MySQL's containment rules.
    pub fn contains(&self, candidate: &Json) -> bool {
        match (self, candidate) {
            (Json::Arr(items), Json::Arr(wanted)) => wanted.iter().all(|w| items.iter().any(|i| i.contains(w))),
            (Json::Arr(items), _) => items.iter().any(|i| i.contains(candidate)),
            (Json::Obj(_), Json::Obj(wanted)) => {
                wanted.iter().all(|(k, w)| self.member(k).is_some_and(|v| v.contains(w)))
            }
            _ => self.same(candidate),
        }
    }

    /// JSON_OVERLAPS: a shared element, a shared member, or equality.
    pub fn overlaps(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Arr(a), Json::Arr(b)) => a.iter().any(|x| b.iter().any(|y| x.same(y))),
            (Json::Arr(a), b) | (b, Json::Arr(a)) => a.iter().any(|x| x.same(b)),
            (Json::Obj(a), Json::Obj(_)) => a.iter().any(|(k, v)| other.member(k).is_some_and(|w| v.same(w))),
            (a, b) => a.same(b),
        }
    }

    /// JSON_MERGE_PRESERVE of two documents.
    pub fn merge_preserve(self, other: Json) -> Json {
        match (self, other) {
            (Json::Obj(mut a), Json::Obj(b)) => {
                for (k, v) in b {
                    match a.iter().position(|(ak, _)| *ak == k) {
                        Some(i) => {
                            let old = std::mem::replace(&mut a[i].1, Json::Arr(Vec::new()));
                            a[i].1 = old.merge_preserve(v);
                        }
                        None => a.push((k, v)),
                    }
                }
                Json::Obj(a)
            }
            (a, b) => {
                let mut items = a.into_items();
                items.extend(b.into_items());
                Json::Arr(items)
            }
        }
    }

    /// An array's elements, or the value itself as a one-element array
    /// (MySQL's autowrapping).
    fn into_items(self) -> Vec<Json> {
        match self {
            Json::Arr(items) => items,
            other => vec![other],
        }
    }

    /// JSON_MERGE_PATCH (RFC 7396) of `patch` onto self.
    pub fn merge_patch(self, patch: Json) -> Json {
        let Json::Obj(changes) = patch else { return patch };
        let mut members = match self {
            Json::Obj(m) => m,
            _ => Vec::new(),
        };
        for (k, v) in changes {
            let at = members.iter().position(|(mk, _)| *mk == k);
            match (at, v) {
                (Some(i), Json::Lit(n)) if n == "null" => {
                    members.remove(i);
                }
                (None, Json::Lit(n)) if n == "null" => {}
                (Some(i), v) => {
                    let old = std::mem::replace(&mut members[i].1, Json::Arr(Vec::new()));
                    members[i].1 = old.merge_patch(v);
                }
                (None, v) => members.push((k, Json::Obj(Vec::new()).merge_patch_value(v))),
            }
        }
        Json::Obj(members)
    }

    /// A new member's value: objects in a patch lose their null members.
    fn merge_patch_value(self, v: Json) -> Json {
        match v {
            Json::Obj(_) => self.merge_patch(v),
            other => other,
        }
    }
}
