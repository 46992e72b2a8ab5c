//! Expected outputs checked against MariaDB 10.11.

use super::doc::{self, Json};
use super::path;

fn reprint(s: &str) -> String {
    doc::parse(s.as_bytes()).map(|j| j.print()).unwrap_or_else(|e| format!("{e:?}"))
}

#[test]
fn prints_with_mariadb_spacing_and_keeps_text() {
    assert_eq!(reprint(r#"{"a" : 1 , "b":[ ]}"#), r#"{"a": 1, "b": []}"#);
    assert_eq!(reprint(r#"[1.0e0, 1.50, -0, "a\u00e9"]"#), r#"[1.0e0, 1.50, -0, "a\u00e9"]"#);
}

#[test]
fn parse_errors_carry_mariadb_positions() {
    assert_eq!(reprint("[1,]"), "Syntax(4)");
    assert_eq!(reprint("{a:1}"), "Syntax(2)");
    assert_eq!(reprint("[1] x"), "Syntax(5)");
    assert_eq!(reprint("[1"), "End");
    let deep = "[".repeat(40);
    assert_eq!(reprint(&deep), "Depth(33)");
}

#[test]
fn paths_select_as_mariadb() {
    let d = doc::parse(br#"{"a":1,"b":{"a":2},"c":[1,2,3,4]}"#).unwrap_or(Json::Lit("null".into()));
    let sel = |p: &str| {
        let p = path::parse(p.as_bytes()).expect("path");
        Json::Arr(p.find(&d).into_iter().cloned().collect()).print()
    };
    assert_eq!(sel("$**.a"), "[1, 2]");
    assert_eq!(sel("$.c[last]"), "[4]");
    assert_eq!(sel("$.c[last-1]"), "[3]");
    assert_eq!(sel("$.c[1 to 2]"), "[2, 3]");
    assert_eq!(sel("$.c[-1]"), "[4]");
    assert_eq!(sel("$.*"), r#"[1, {"a": 2}, [1, 2, 3, 4]]"#);
    assert_eq!(path::parse(b"$[a]"), Err(path::PathError::Syntax(3)));
    assert_eq!(path::parse(b"$."), Err(path::PathError::End));
    assert_eq!(path::parse(b"x"), Err(path::PathError::Syntax(1)));
}

#[test]
fn merges_and_containment() {
    let j = |s: &str| doc::parse(s.as_bytes()).unwrap_or(Json::Lit("null".into()));
    assert_eq!(j(r#"{"a":1,"b":2}"#).merge_patch(j(r#"{"b":null,"c":{"d":1}}"#)).print(), r#"{"a": 1, "c": {"d": 1}}"#);
    assert_eq!(j(r#"{"a":1}"#).merge_preserve(j(r#"{"a":2,"b":3}"#)).print(), r#"{"a": [1, 2], "b": 3}"#);
    assert!(j("[1,2,[3]]").contains(&j("[1,3]")));
    assert!(!j("[1,2]").contains(&j("[1,4]")));
    assert!(j(r#"{"a":1,"b":2}"#).same(&j(r#"{"b":2,"a":1.0}"#)));
}
