//! JSON paths as MariaDB 10.11 reads them: `$`, `.key`, `."quoted key"`,
//! `.*`, `[n]`, `[-n]` / `[last]` / `[last-n]` (from the end), `[*]`,
//! `[m to n]` and `**` (any depth).

use super::doc::Json;

#[derive(Debug, Clone, PartialEq)]
pub enum Index {
    /// From the start (negative: from the end, `-1` the last element).
    At(i64),
    /// `last - n`.
    Last(i64),
}

impl Index {
    /// The element position in an array of `len`, if it names one at or
    /// past the start.
    pub fn resolve(&self, len: usize) -> Option<usize> {
        let len = len as i64;
        let at = match self {
            Index::At(n) if *n >= 0 => *n,
            Index::At(n) => len + n,
            Index::Last(n) => len - 1 - n,
        };
        usize::try_from(at).ok()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    AnyKey,
    Index(Index),
    AnyIndex,
    Range(Index, Index),
    AnyDepth,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    pub steps: Vec<Step>,
}

/// Why a text is not a path: 1-based position, or its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathError {
    End,
    Syntax(usize),
}

pub fn parse(text: &[u8]) -> Result<Path, PathError> {
    let mut p = PathParser { s: text, i: 0 };
    p.ws();
    match p.s.get(p.i) {
        Some(b'$') => p.i += 1,
        Some(_) => return Err(PathError::Syntax(p.i + 1)),
        None => return Err(PathError::End),
    }
    let mut steps = Vec::new();
    loop {
        p.ws();
        match p.s.get(p.i) {
            None => break,
            Some(b'.') => {
                p.i += 1;
                steps.push(p.member()?);
            }
            Some(b'[') => {
                p.i += 1;
                steps.push(p.element()?);
            }
            Some(b'*') if p.s.get(p.i + 1) == Some(&b'*') => {
                p.i += 2;
                steps.push(Step::AnyDepth);
            }
            Some(_) => return Err(PathError::Syntax(p.i + 1)),
        }
    }
    if steps.last() == Some(&Step::AnyDepth) {
        return Err(PathError::End);
    }
    Ok(Path { steps })
}

struct PathParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl PathParser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn member(&mut self) -> Result<Step, PathError> {
        self.ws();
        match self.s.get(self.i) {
            None => Err(PathError::End),
            Some(b'*') => {
                self.i += 1;
                Ok(Step::AnyKey)
            }
            Some(b'"') => {
                self.i += 1;
                let start = self.i;
                loop {
                    match self.s.get(self.i) {
                        None => return Err(PathError::End),
                        Some(b'"') => break,
                        Some(b'\\') => self.i += 2,
                        Some(_) => self.i += 1,
                    }
                }
                let key = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                self.i += 1;
                Ok(Step::Key(key))
            }
            Some(_) => {
                let start = self.i;
                while self.s.get(self.i).is_some_and(|c| !matches!(c, b'.' | b'[' | b'*') && !c.is_ascii_whitespace()) {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(PathError::Syntax(self.i + 1));
                }
                Ok(Step::Key(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()))
            }
        }
    }

    fn element(&mut self) -> Result<Step, PathError> {
        self.ws();
        if self.s.get(self.i) == Some(&b'*') {
            self.i += 1;
            self.close()?;
            return Ok(Step::AnyIndex);
        }
        let from = self.index()?;
        self.ws();
        if self.s[self.i..].starts_with(b"to") {
            self.i += 2;
            let to = self.index()?;
            self.close()?;
            return Ok(Step::Range(from, to));
        }
        self.close()?;
        Ok(Step::Index(from))
    }

    fn close(&mut self) -> Result<(), PathError> {
        self.ws();
        match self.s.get(self.i) {
            Some(b']') => {
                self.i += 1;
                Ok(())
            }
            Some(_) => Err(PathError::Syntax(self.i + 1)),
            None => Err(PathError::End),
        }
    }

    fn index(&mut self) -> Result<Index, PathError> {
        self.ws();
        if self.s[self.i..].starts_with(b"last") {
            self.i += 4;
            self.ws();
            if self.s.get(self.i) != Some(&b'-') {
                return Ok(Index::Last(0));
            }
            self.i += 1;
            return Ok(Index::Last(self.number()?));
        }
        let negative = self.s.get(self.i) == Some(&b'-');
        if negative {
            self.i += 1;
        }
        let n = self.number()?;
        Ok(Index::At(if negative { -n } else { n }))
    }

    fn number(&mut self) -> Result<i64, PathError> {
        self.ws();
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        if self.i == start {
            return match self.s.get(self.i) {
                None => Err(PathError::End),
                Some(_) => Err(PathError::Syntax(self.i + 1)),
            };
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or(PathError::Syntax(start + 1))
    }
}

impl Path {
    /// Whether the path can match more than one value.
    pub fn is_wild(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Step::AnyKey | Step::AnyIndex | Step::Range(..) | Step::AnyDepth))
    }

    /// Every value the path selects, in document order.
    pub fn find<'a>(&self, doc: &'a Json) -> Vec<&'a Json> {
        let mut out = Vec::new();
        find(doc, &self.steps, &mut out);
        out
    }
}

fn find<'a>(v: &'a Json, steps: &[Step], out: &mut Vec<&'a Json>) {
    let Some((step, rest)) = steps.split_first() else {
        out.push(v);
        return;
    };
    match (step, v) {
        (Step::Key(k), Json::Obj(_)) => {
            if let Some(m) = v.member(k) {
                find(m, rest, out);
            }
        }
        (Step::AnyKey, Json::Obj(members)) => members.iter().for_each(|(_, m)| find(m, rest, out)),
        (Step::Index(i), Json::Arr(items)) => {
            if let Some(e) = i.resolve(items.len()).and_then(|at| items.get(at)) {
                find(e, rest, out);
            }
        }
        // A scalar or object is its own element 0 (MySQL's autowrapping).
        (Step::Index(i), _) if i.resolve(1) == Some(0) => find(v, rest, out),
        (Step::AnyIndex, Json::Arr(items)) => items.iter().for_each(|e| find(e, rest, out)),
        (Step::Range(from, to), Json::Arr(items)) => {
            if let (Some(a), Some(b)) = (from.resolve(items.len()), to.resolve(items.len())) {
                items.iter().take(b + 1).skip(a).for_each(|e| find(e, rest, out));
            }
        }
        (Step::AnyDepth, _) => {
            find(v, rest, out);
            match v {
                Json::Arr(items) => items.iter().for_each(|e| find(e, steps, out)),
                Json::Obj(members) => members.iter().for_each(|(_, m)| find(m, steps, out)),
                _ => {}
            }
        }
        _ => {}
    }
}

/// Where a non-wild path's last step applies: the value its other steps
/// select, if any.
pub fn parent_mut<'a>(doc: &'a mut Json, steps: &[Step]) -> Option<&'a mut Json> {
    let Some((step, rest)) = steps.split_first() else { return Some(doc) };
    match (step, doc) {
        (Step::Key(k), Json::Obj(members)) => {
            let m = members.iter_mut().find(|(mk, _)| mk == k)?;
            parent_mut(&mut m.1, rest)
        }
        (Step::Index(i), Json::Arr(items)) => {
            let at = i.resolve(items.len())?;
            parent_mut(items.get_mut(at)?, rest)
        }
        (Step::Index(i), v) if i.resolve(1) == Some(0) => parent_mut(v, rest),
        _ => None,
    }
}

/// A path's text for JSON_SEARCH's answers: `$[0].a`, `$.a b`.
pub fn render(steps: &[(Option<&str>, usize)]) -> String {
    let mut out = String::from("$");
    for (key, at) in steps {
        match key {
            // MariaDB writes every key bare, even one with a space.
            Some(k) => {
                out.push('.');
                out.push_str(k);
            }
            None => out.push_str(&format!("[{at}]")),
        }
    }
    out
}
