//! The JSON_* functions, as MariaDB 10.11 computes them: JSON documents are
//! strings; a malformed document or path is a warning (4037/4038/4041/4042)
//! and a NULL result, not an error.

mod doc;
mod path;

use super::{eval, like_match, truthy, value_string, EvalEnv, Row};
use crate::ast::Expr;
use doc::{escape, unescape, Json, ParseError};
use onelog_core::{Collation, SqlResult, Value};
use path::{Path, PathError, Step};

/// `(min, max)` arguments of each JSON function; `None` if `name` is not one.
pub(super) fn arity(name: &str) -> Option<(usize, usize)> {
    const V: usize = usize::MAX;
    Some(match name {
        "json_valid" | "json_unquote" | "json_quote" | "json_type" | "json_depth" | "json_compact" | "json_loose" => {
            (1, 1)
        }
        "json_detailed" | "json_pretty" | "json_length" | "json_keys" => (1, 2),
        "json_extract" | "json_remove" | "json_merge_patch" | "json_merge_preserve" | "json_merge" => (2, V),
        "json_value" | "json_query" | "json_exists" | "json_equals" | "json_overlaps" => (2, 2),
        "json_contains" => (2, 3),
        "json_contains_path" | "json_search" | "json_set" | "json_insert" | "json_replace" | "json_array_append"
        | "json_array_insert" => (3, V),
        "json_object" | "json_array" => (0, V),
        _ => return None,
    })
}

/// Whether the argument count is one the function takes beyond its range:
/// JSON_OBJECT takes key/value pairs, the modifiers a document and pairs.
pub(super) fn count_fits(name: &str, n: usize) -> bool {
    match name {
        "json_object" => n.is_multiple_of(2),
        "json_set" | "json_insert" | "json_replace" | "json_array_append" | "json_array_insert" => !n.is_multiple_of(2),
        _ => true,
    }
}

/// How an argument becomes a JSON value inside JSON_OBJECT, JSON_ARRAY and
/// the modifiers: the result of a JSON function is embedded as JSON, a
/// predicate as `true`/`false`, anything else as a string or number.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    Bool,
    Plain,
}

fn kind_of(e: &Expr) -> Kind {
    match e {
        Expr::Function { name, .. }
            if matches!(
                name.as_str(),
                "json_object"
                    | "json_array"
                    | "json_extract"
                    | "json_query"
                    | "json_set"
                    | "json_insert"
                    | "json_replace"
                    | "json_remove"
                    | "json_array_append"
                    | "json_array_insert"
                    | "json_merge"
                    | "json_merge_patch"
                    | "json_merge_preserve"
                    | "json_compact"
                    | "json_loose"
                    | "json_detailed"
                    | "json_pretty"
            ) =>
        {
            Kind::Json
        }
        Expr::Function { name, .. } if name == "regexp" => Kind::Bool,
        e if e.is_boolean_valued() => Kind::Bool,
        _ => Kind::Plain,
    }
}

/// One evaluated argument with its position (1-based, for warnings).
struct Arg {
    value: Value,
    kind: Kind,
}

pub(super) fn call(name: &str, args: &[Expr], row: &Row<'_>, env: &dyn EvalEnv) -> SqlResult<Value> {
    let args: Vec<Arg> =
        args.iter().map(|e| Ok(Arg { value: eval(e, row, env)?, kind: kind_of(e) })).collect::<SqlResult<_>>()?;
    let f = Call { name, args: &args, env };
    Ok(f.run().unwrap_or(Value::Null))
}

struct Call<'a> {
    name: &'a str,
    args: &'a [Arg],
    env: &'a dyn EvalEnv,
}

fn text(s: String) -> Value {
    Value::Bytes(s.into_bytes())
}

impl Call<'_> {
    /// The result, `None` for SQL NULL.
    fn run(&self) -> Option<Value> {
        let a = self.args;
        match self.name {
            "json_valid" => {
                let v = self.present(0)?;
                Some(Value::Int(i64::from(self.parse_doc(v, 0).is_some())))
            }
            "json_object" => {
                let members = a.chunks(2).map(|kv| (escape(&key_text(&kv[0].value)), self.to_json(&kv[1]))).collect();
                Some(text(Json::Obj(members).print()))
            }
            "json_array" => Some(text(Json::Arr(a.iter().map(|x| self.to_json(x)).collect()).print())),
            "json_quote" => match self.present(0)? {
                Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_) => None,
                v => Some(text(format!("\"{}\"", escape(&value_string(v))))),
            },
            "json_unquote" => self.unquote(),
            "json_extract" => self.extract(),
            "json_value" | "json_query" | "json_exists" => self.value_query(),
            "json_type" => Some(text(self.doc(0)?.type_name().to_string())),
            "json_depth" => Some(Value::Int(self.doc(0)?.depth())),
            "json_length" => Some(Value::Int(self.located(1)?.length())),
            "json_keys" => match self.located(1)? {
                Json::Obj(members) => {
                    let keys = members.into_iter().map(|(k, _)| Json::Str(k)).collect();
                    Some(text(Json::Arr(keys).print()))
                }
                _ => None,
            },
            "json_contains" => {
                let candidate = self.doc(1)?;
                let target = self.doc(0)?;
                let found = match self.args.len() {
                    3 => self.single_path(2)?.find(&target).first().is_some_and(|t| t.contains(&candidate)),
                    _ => target.contains(&candidate),
                };
                Some(Value::Int(i64::from(found)))
            }
            "json_contains_path" => self.contains_path(),
            "json_set" | "json_insert" | "json_replace" => self.modify(),
            "json_remove" => self.remove(),
            "json_array_append" | "json_array_insert" => self.array_add(),
            "json_merge_patch" => self.merge(Json::merge_patch),
            "json_merge_preserve" | "json_merge" => self.merge(Json::merge_preserve),
            "json_search" => self.search(),
            "json_compact" => Some(text(self.doc(0)?.print_compact())),
            "json_loose" => Some(text(self.doc(0)?.print())),
            "json_detailed" | "json_pretty" => Some(text(self.doc(0)?.print_detailed())),
            "json_equals" => Some(Value::Int(i64::from(self.doc(0)?.same(&self.doc(1)?)))),
            "json_overlaps" => Some(Value::Int(i64::from(self.doc(0)?.overlaps(&self.doc(1)?)))),
            _ => None,
        }
    }

    fn present(&self, i: usize) -> Option<&Value> {
        self.args.get(i).map(|a| &a.value).filter(|v| !v.is_null())
    }

    /// JSON_VALID only notes why a text is not JSON; JSON_VALUE, JSON_QUERY
    /// and JSON_EXISTS read only as far as their path and say nothing of a
    /// malformed rest (this reads the whole text first, so a document with
    /// an error after the selected value is NULL here, its value there).
    fn warn(&self, code: u16, what: String) {
        match self.name {
            "json_valid" => self.env.note(code, what),
            "json_value" | "json_query" | "json_exists" => {}
            _ => self.env.warn(code, what),
        }
    }

    /// Argument `i` parsed as a document; NULL and malformed text are `None`
    /// (the latter with MariaDB's warning).
    fn doc(&self, i: usize) -> Option<Json> {
        let v = self.present(i)?;
        self.parse_doc(v, i)
    }

    fn parse_doc(&self, v: &Value, i: usize) -> Option<Json> {
        let (n, f) = (i + 1, self.name);
        match doc::parse(value_string(v).as_bytes()) {
            Ok(j) => Some(j),
            Err(ParseError::End) => {
                self.warn(4037, format!("Unexpected end of JSON text in argument {n} to function '{f}'"));
                None
            }
            Err(ParseError::Syntax(p)) => {
                self.warn(4038, format!("Syntax error in JSON text in argument {n} to function '{f}' at position {p}"));
                None
            }
            Err(ParseError::Depth(p)) => {
                self.warn(
                    4040,
                    format!(
                        "Limit of {} on JSON nested structures depth is reached in argument {n} to function '{f}' at position {p}",
                        doc::DEPTH_LIMIT
                    ),
                );
                None
            }
        }
    }

    /// Argument `i` parsed as a path.
    fn path(&self, i: usize) -> Option<Path> {
        let v = self.present(i)?;
        let (n, f) = (i + 1, self.name);
        match path::parse(value_string(v).as_bytes()) {
            Ok(p) => Some(p),
            Err(PathError::End) => {
                self.warn(4041, format!("Unexpected end of JSON path in argument {n} to function '{f}'"));
                None
            }
            Err(PathError::Syntax(p)) => {
                self.warn(4042, format!("Syntax error in JSON path in argument {n} to function '{f}' at position {p}"));
                None
            }
        }
    }

    /// A path that must select one place (the modifiers, JSON_CONTAINS...).
    fn single_path(&self, i: usize) -> Option<Path> {
        let p = self.path(i)?;
        if p.is_wild() {
            let (n, f) = (i + 1, self.name);
            self.warn(4044, format!("Wildcards or range in JSON path not allowed in argument {n} to function '{f}'"));
            return None;
        }
        Some(p)
    }

    /// The document of argument 0, narrowed to the path of argument
    /// `path_arg` when the call has one.
    fn located(&self, path_arg: usize) -> Option<Json> {
        let doc = self.doc(0)?;
        if self.args.len() <= path_arg {
            return Some(doc);
        }
        let p = self.single_path(path_arg)?;
        p.find(&doc).first().map(|v| (*v).clone())
    }

    /// An SQL value as a JSON value.
    fn to_json(&self, a: &Arg) -> Json {
        match (&a.value, a.kind) {
            (Value::Null, _) => Json::Lit("null".into()),
            (v, Kind::Bool) => Json::Lit(if truthy(v) == Some(true) { "true" } else { "false" }.into()),
            (Value::Int(_) | Value::UInt(_) | Value::Decimal(_) | Value::Double(_), _) => {
                Json::Lit(value_string(&a.value))
            }
            (v, Kind::Json) => {
                doc::parse(value_string(v).as_bytes()).unwrap_or_else(|_| Json::Str(escape(&value_string(v))))
            }
            (v, Kind::Plain) => Json::Str(escape(&value_string(v))),
        }
    }

    fn unquote(&self) -> Option<Value> {
        let v = self.present(0)?;
        let s = value_string(v);
        if !s.starts_with('"') {
            return Some(v.clone());
        }
        match self.parse_doc(v, 0) {
            Some(Json::Str(raw)) => Some(text(unescape(&raw))),
            _ => Some(v.clone()),
        }
    }

    fn extract(&self) -> Option<Value> {
        let doc = self.doc(0)?;
        let paths: Vec<Path> = (1..self.args.len()).map(|i| self.path(i)).collect::<Option<_>>()?;
        let found: Vec<&Json> = paths.iter().flat_map(|p| p.find(&doc)).collect();
        match found.as_slice() {
            [] => None,
            [one] if paths.len() == 1 && !paths[0].is_wild() => Some(text(one.print())),
            many => Some(text(Json::Arr(many.iter().map(|v| (*v).clone()).collect()).print())),
        }
    }

    fn value_query(&self) -> Option<Value> {
        let doc = self.doc(0)?;
        let p = self.path(1)?;
        let found = p.find(&doc).first().map(|v| (*v).clone());
        match (self.name, found) {
            ("json_exists", found) => Some(Value::Int(i64::from(found.is_some()))),
            ("json_query", Some(v)) if v.is_container() => Some(text(v.print())),
            ("json_value", Some(Json::Str(raw))) => Some(text(unescape(&raw))),
            ("json_value", Some(Json::Lit(t))) => match t.as_str() {
                "null" => None,
                "true" => Some(text("1".into())),
                "false" => Some(text("0".into())),
                _ => Some(text(t)),
            },
            _ => None,
        }
    }

    fn contains_path(&self) -> Option<Value> {
        let doc = self.doc(0)?;
        let mode = value_string(self.present(1)?).to_ascii_lowercase();
        let all = match mode.as_str() {
            "all" => true,
            "one" => false,
            _ => {
                self.warn(4046, format!("Argument 2 to function '{}' must be \"one\" or \"all\".", self.name));
                return None;
            }
        };
        let paths: Vec<Path> = (2..self.args.len()).map(|i| self.path(i)).collect::<Option<_>>()?;
        let mut hits = paths.iter().map(|p| !p.find(&doc).is_empty());
        let found = if all { hits.all(|h| h) } else { hits.any(|h| h) };
        Some(Value::Int(i64::from(found)))
    }

    /// JSON_SET / JSON_INSERT / JSON_REPLACE: each (path, value) pair in turn.
    fn modify(&self) -> Option<Value> {
        let mut doc = self.doc(0)?;
        let (may_add, may_replace) = match self.name {
            "json_insert" => (true, false),
            "json_replace" => (false, true),
            _ => (true, true),
        };
        for i in (1..self.args.len()).step_by(2) {
            let p = self.single_path(i)?;
            let value = self.to_json(&self.args[i + 1]);
            set_at(&mut doc, &p.steps, value, may_add, may_replace);
        }
        Some(text(doc.print()))
    }

    fn remove(&self) -> Option<Value> {
        let mut doc = self.doc(0)?;
        for i in 1..self.args.len() {
            let p = self.single_path(i)?;
            let Some((last, init)) = p.steps.split_last() else {
                let (n, f) = (i + 1, self.name);
                self.warn(4051, format!("Path expression '$' is not allowed in argument {n} to function '{f}'."));
                return None;
            };
            match (last, path::parent_mut(&mut doc, init)) {
                (Step::Key(k), Some(Json::Obj(members))) => members.retain(|(mk, _)| mk != k),
                (Step::Index(at), Some(Json::Arr(items))) => {
                    if let Some(at) = at.resolve(items.len()).filter(|at| *at < items.len()) {
                        items.remove(at);
                    }
                }
                _ => {}
            }
        }
        Some(text(doc.print()))
    }

    /// JSON_ARRAY_APPEND (to the array at the path, wrapping a non-array)
    /// and JSON_ARRAY_INSERT (before the element the path names).
    fn array_add(&self) -> Option<Value> {
        let mut doc = self.doc(0)?;
        for i in (1..self.args.len()).step_by(2) {
            let p = self.single_path(i)?;
            let value = self.to_json(&self.args[i + 1]);
            if self.name == "json_array_append" {
                if let Some(target) = path::parent_mut(&mut doc, &p.steps) {
                    match target {
                        Json::Arr(items) => items.push(value),
                        other => {
                            let old = std::mem::replace(other, Json::Arr(Vec::new()));
                            *other = Json::Arr(vec![old, value]);
                        }
                    }
                }
                continue;
            }
            let Some((Step::Index(at), init)) = p.steps.split_last() else {
                let (n, f) = (i + 1, self.name);
                self.warn(
                    4049,
                    format!("A path expression is not a path to a cell in an array in argument {n} to function '{f}'"),
                );
                return None;
            };
            if let Some(Json::Arr(items)) = path::parent_mut(&mut doc, init) {
                let at = at.resolve(items.len()).unwrap_or(0).min(items.len());
                items.insert(at, value);
            }
        }
        Some(text(doc.print()))
    }

    fn merge(&self, op: fn(Json, Json) -> Json) -> Option<Value> {
        let mut docs = (0..self.args.len()).map(|i| self.doc(i)).collect::<Option<Vec<_>>>()?.into_iter();
        let first = docs.next()?;
        Some(text(docs.fold(first, op).print()))
    }

    /// JSON_SEARCH(doc, 'one'|'all', pattern [, escape [, path ...]]): the
    /// paths of the strings that match the LIKE pattern.
    fn search(&self) -> Option<Value> {
        let doc = self.doc(0)?;
        let all = match value_string(self.present(1)?).to_ascii_lowercase().as_str() {
            "all" => true,
            "one" => false,
            _ => {
                self.warn(4046, format!("Argument 2 to function '{}' must be \"one\" or \"all\".", self.name));
                return None;
            }
        };
        let pattern = value_string(self.present(2)?);
        let escape_char = self.present(3).and_then(|v| value_string(v).chars().next()).unwrap_or('\\');
        let scopes: Vec<Path> = (4..self.args.len()).map(|i| self.path(i)).collect::<Option<_>>()?;
        let mut found = Vec::new();
        let mut at = Vec::new();
        let want = |s: &str| like_match(s.as_bytes(), pattern.as_bytes(), escape_char, Collation::Utf8mb4GeneralCi);
        search(&doc, &mut at, &want, &mut found);
        let found: Vec<String> = found
            .into_iter()
            .filter(|steps| scopes.is_empty() || scopes.iter().any(|p| within(&p.steps, &doc, steps)))
            .map(|steps| path::render(&steps.iter().map(|(k, i)| (k.as_deref(), *i)).collect::<Vec<_>>()))
            .collect();
        match found.as_slice() {
            [] => None,
            [one, ..] if !all || found.len() == 1 => Some(text(format!("\"{one}\""))),
            many => Some(text(Json::Arr(many.iter().map(|p| Json::Str(p.clone())).collect()).print())),
        }
    }
}

/// A concrete location: member keys (`Some`) and element positions.
type Location = Vec<(Option<String>, usize)>;

fn search(v: &Json, at: &mut Location, want: &dyn Fn(&str) -> bool, found: &mut Vec<Location>) {
    match v {
        Json::Str(raw) if want(&unescape(raw)) => found.push(at.clone()),
        Json::Arr(items) => {
            for (n, e) in items.iter().enumerate() {
                at.push((None, n));
                search(e, at, want, found);
                at.pop();
            }
        }
        Json::Obj(members) => {
            for (k, m) in members {
                at.push((Some(k.clone()), 0));
                search(m, at, want, found);
                at.pop();
            }
        }
        _ => {}
    }
}

/// Whether `location` lies at or below a place the path selects.
fn within(steps: &[Step], doc: &Json, location: &Location) -> bool {
    let target = location_value(doc, location);
    let mut prefixes = (0..=location.len()).map(|n| location_value(doc, &location[..n]));
    let selected = Path { steps: steps.to_vec() }.find(doc);
    target.is_some() && prefixes.any(|p| p.is_some_and(|p| selected.iter().any(|s| std::ptr::eq(*s, p))))
}

fn location_value<'a>(doc: &'a Json, location: &[(Option<String>, usize)]) -> Option<&'a Json> {
    location.iter().try_fold(doc, |v, (key, at)| match (key, v) {
        (Some(k), _) => v.member(k),
        (None, Json::Arr(items)) => items.get(*at),
        _ => None,
    })
}

/// Sets the value at a non-wild path: `may_add` lets it create a member or
/// element, `may_replace` lets it replace one that exists.
fn set_at(doc: &mut Json, steps: &[Step], value: Json, may_add: bool, may_replace: bool) {
    let Some((last, init)) = steps.split_last() else {
        if may_replace {
            *doc = value;
        }
        return;
    };
    let Some(parent) = path::parent_mut(doc, init) else { return };
    match (last, parent) {
        (Step::Key(k), Json::Obj(members)) => match members.iter_mut().find(|(mk, _)| mk == k) {
            Some(m) if may_replace => m.1 = value,
            None if may_add => members.push((k.clone(), value)),
            _ => {}
        },
        (Step::Index(at), Json::Arr(items)) => match at.resolve(items.len()).filter(|at| *at < items.len()) {
            Some(at) if may_replace => items[at] = value,
            None if may_add => items.push(value),
            _ => {}
        },
        // A non-array is its own element 0; a later element wraps it.
        (Step::Index(at), other) if !matches!(other, Json::Arr(_)) => {
            if at.resolve(1) == Some(0) {
                if may_replace {
                    *other = value;
                }
            } else if may_add {
                let old = std::mem::replace(other, Json::Arr(Vec::new()));
                *other = Json::Arr(vec![old, value]);
            }
        }
        _ => {}
    }
}

/// JSON_OBJECT's key text: NULL is the empty key.
fn key_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        v => value_string(v),
    }
}

#[cfg(test)]
mod tests;
