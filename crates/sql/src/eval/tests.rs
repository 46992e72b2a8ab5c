//! Expected values marked "MariaDB" were checked against MariaDB 10.11.

use super::*;
use crate::ast::{BinOp, CastType, Expr, Select, UnaryOp, VarScope};
use onelog_core::{BlobSize, ColumnType};
use std::cell::RefCell;
use std::str::FromStr;

#[derive(Default)]
struct TestEnv {
    warnings: RefCell<Vec<(u16, String)>>,
    subquery_rows: Vec<Vec<Value>>,
}

impl EvalEnv for TestEnv {
    fn system_var(&self, _: VarScope, name: &str) -> SqlResult<Value> {
        Ok(Value::from_str(name))
    }
    fn user_var(&self, name: &str) -> Value {
        if name == "x" {
            Value::Int(7)
        } else {
            Value::Null
        }
    }
    fn subquery(&self, _: &Select, _: &[Value]) -> SqlResult<Vec<Vec<Value>>> {
        Ok(self.subquery_rows.clone())
    }
    fn session_fact(&self, name: &str) -> Value {
        match name {
            "database" => Value::from_str("test"),
            "last_insert_id" => Value::UInt(42),
            "user" => Value::from_str("root@localhost"),
            _ => Value::Null,
        }
    }
    fn binlog_gtid_pos(&self, file: &str, offset: u64) -> SqlResult<Value> {
        Ok(Value::from_str(&format!("{file}:{offset}")))
    }
    fn warn(&self, code: u16, message: String) {
        self.warnings.borrow_mut().push((code, message));
    }
}

fn i(n: i64) -> Expr {
    Expr::Literal(Value::Int(n))
}
fn u(n: u64) -> Expr {
    Expr::Literal(Value::UInt(n))
}
fn s(x: &str) -> Expr {
    Expr::Literal(Value::from_str(x))
}
fn dec(x: &str) -> Expr {
    Expr::Literal(Value::Decimal(Decimal::from_str(x).unwrap()))
}
fn f(x: f64) -> Expr {
    Expr::Literal(Value::Double(x))
}
fn null() -> Expr {
    Expr::Literal(Value::Null)
}
fn call(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Function { name: name.into(), args }
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}
fn vs(x: &str) -> Value {
    Value::from_str(x)
}
fn vd(x: &str) -> Value {
    Value::Decimal(Decimal::from_str(x).unwrap())
}
fn date(y: u16, m: u8, d: u8) -> Temporal {
    Temporal { year: y, month: m, day: d, ..Temporal::default() }
}
fn dt(y: u16, m: u8, d: u8, h: u8, mi: u8, se: u8) -> Temporal {
    Temporal { year: y, month: m, day: d, hour: h, minute: mi, second: se, micros: 0 }
}

fn run_env(e: &Expr, env: &TestEnv) -> SqlResult<Value> {
    let row =
        Row { values: &[Value::Int(10), Value::from_str("abc")], params: &[], aggregates: &[], insert_values: None };
    eval(e, &row, env)
}

fn run(e: &Expr) -> Value {
    run_env(e, &TestEnv::default()).unwrap_or_else(|err| panic!("{e:?}: {err}"))
}

fn check(cases: Vec<(Expr, Value)>) {
    let mut failed = Vec::new();
    for (e, want) in cases {
        let got = run_env(&e, &TestEnv::default());
        let ok = match (&got, &want) {
            (Ok(Value::Double(a)), Value::Double(b)) => (a - b).abs() < 1e-9,
            (Ok(Value::Decimal(a)), Value::Decimal(b)) => a.to_string() == b.to_string(),
            (Ok(g), w) => g == w,
            _ => false,
        };
        if !ok {
            failed.push(format!("{}: got {got:?}, want {want:?}", expr_sql(&e)));
        }
    }
    assert!(failed.is_empty(), "{} failures:\n{}", failed.len(), failed.join("\n"));
}

fn err_code(e: &Expr) -> u16 {
    match run_env(e, &TestEnv::default()) {
        Err(err) => err.code.number,
        Ok(v) => panic!("{}: expected an error, got {v:?}", expr_sql(e)),
    }
}

#[test]
fn arithmetic() {
    use BinOp::*;
    check(vec![
        (bin(Add, i(1), i(2)), Value::Int(3)),
        (bin(Sub, i(1), i(2)), Value::Int(-1)),
        (bin(Mul, i(3), i(4)), Value::Int(12)),
        (bin(Add, u(1), i(2)), Value::UInt(3)),
        // MariaDB: 2/3 = 0.6667, 1.00/3 = 0.333333, 1/1 = 1.0000
        (bin(Div, i(2), i(3)), vd("0.6667")),
        (bin(Div, dec("1.00"), i(3)), vd("0.333333")),
        (bin(Div, i(1), i(1)), vd("1.0000")),
        (bin(Div, f(1.0), f(4.0)), Value::Double(0.25)),
        (bin(Div, i(1), i(0)), Value::Null),
        (bin(IntDiv, i(5), i(2)), Value::Int(2)),
        (bin(IntDiv, i(-5), i(2)), Value::Int(-2)),
        (bin(IntDiv, i(5), dec("2.5")), Value::Int(2)),
        (bin(IntDiv, i(1), i(0)), Value::Null),
        (bin(Mod, i(-7), i(3)), Value::Int(-1)),
        (bin(Mod, i(5), i(-3)), Value::Int(2)),
        (bin(Mod, dec("7.5"), i(2)), vd("1.5")),
        (bin(Mod, i(5), i(0)), Value::Null),
        // MariaDB: 'abc'+1 = 1 (warning 1292), '1e2'+0 = 100
        (bin(Add, s("abc"), i(1)), Value::Double(1.0)),
        (bin(Add, s("1e2"), i(0)), Value::Double(100.0)),
        (bin(Add, dec("0.1"), dec("0.2")), vd("0.3")),
        (bin(Mul, dec("1.10"), dec("2.0")), vd("2.200")),
        (bin(Add, null(), i(1)), Value::Null),
        (Expr::Unary(UnaryOp::Neg, Box::new(i(5))), Value::Int(-5)),
        (Expr::Unary(UnaryOp::Neg, Box::new(u(5))), Value::Int(-5)),
        // MariaDB: ~0 = 18446744073709551615, 5&3=1, 5|3=7, 5^3=6, 1<<2=4
        (Expr::Unary(UnaryOp::BitNot, Box::new(i(0))), Value::UInt(u64::MAX)),
        (bin(BitAnd, i(5), i(3)), Value::UInt(1)),
        (bin(BitOr, i(5), i(3)), Value::UInt(7)),
        (bin(BitXor, i(5), i(3)), Value::UInt(6)),
        (bin(ShiftLeft, i(1), i(2)), Value::UInt(4)),
        (bin(ShiftRight, i(8), i(1)), Value::UInt(4)),
        (bin(ShiftLeft, i(1), i(64)), Value::UInt(0)),
        (bin(Add, Expr::Literal(Value::Date(date(2024, 1, 2))), i(0)), Value::Int(20240102)),
    ]);
    let env = TestEnv::default();
    run_env(&bin(BinOp::Div, i(1), i(0)), &env).unwrap();
    assert_eq!(env.warnings.borrow()[0], (1365, "Division by 0".to_string()));
    // MariaDB: ERROR 1690 BIGINT value is out of range in '9223372036854775807 + 1'
    match run_env(&bin(BinOp::Add, i(i64::MAX), i(1)), &env) {
        Err(e) => {
            assert_eq!(e.code.number, 1690);
            assert_eq!(e.message, "BIGINT value is out of range in '9223372036854775807 + 1'");
        }
        Ok(v) => panic!("{v:?}"),
    }
    // MariaDB: ERROR 1690 BIGINT UNSIGNED value is out of range in 'cast(1 as unsigned) - 2'
    let e = bin(BinOp::Sub, Expr::Cast { expr: Box::new(i(1)), to: CastType::Unsigned }, i(2));
    match run_env(&e, &env) {
        Err(e) => assert_eq!(e.message, "BIGINT UNSIGNED value is out of range in 'cast(1 as unsigned) - 2'"),
        Ok(v) => panic!("{v:?}"),
    }
    assert_eq!(err_code(&bin(BinOp::Mul, i(i64::MAX), i(2))), 1690);
    assert_eq!(err_code(&Expr::Unary(UnaryOp::Neg, Box::new(i(i64::MIN)))), 1690);
}

#[test]
fn comparisons_and_logic() {
    use BinOp::*;
    let t = Value::Int(1);
    let fl = Value::Int(0);
    check(vec![
        (bin(Eq, i(1), i(1)), t.clone()),
        (bin(Eq, i(1), null()), Value::Null),
        (bin(NullSafeEq, i(1), null()), fl.clone()),
        (bin(NullSafeEq, null(), null()), t.clone()),
        (bin(Lt, i(-1), u(u64::MAX)), t.clone()),
        (bin(Gt, u(u64::MAX), i(-1)), t.clone()),
        (bin(Eq, dec("1.0"), i(1)), t.clone()),
        (bin(Eq, dec("0.3"), bin(Add, dec("0.1"), dec("0.2"))), t.clone()),
        // MariaDB: 0.1e0+0.2e0 = 0.3e0 is 0
        (bin(Eq, bin(Add, f(0.1), f(0.2)), f(0.3)), fl.clone()),
        // MariaDB: 10 = '10abc' is 1, '1e1' = 10 is 1
        (bin(Eq, i(10), s("10abc")), t.clone()),
        (bin(Eq, s("1e1"), i(10)), t.clone()),
        // MariaDB: 'a ' = 'A' is 1, 'é' = 'e' is 1
        (bin(Eq, s("a "), s("A")), t.clone()),
        (bin(Eq, s("é"), s("e")), t.clone()),
        (bin(Lt, s("a"), s("B")), t.clone()),
        (
            bin(Eq, Expr::Collate { expr: Box::new(s("a")), collation: Collation::Utf8mb4Bin, explicit: true }, s("A")),
            fl.clone(),
        ),
        (bin(Eq, Expr::Literal(Value::Date(date(2024, 1, 2))), s("2024-01-02")), t.clone()),
        (bin(Lt, Expr::Literal(Value::Date(date(2024, 1, 2))), s("2024-1-3")), t.clone()),
        (
            bin(
                Eq,
                Expr::Literal(Value::Date(date(2024, 1, 2))),
                Expr::Literal(Value::DateTime(dt(2024, 1, 2, 0, 0, 0))),
            ),
            t.clone(),
        ),
        (bin(And, null(), i(0)), fl.clone()),
        (bin(And, null(), i(1)), Value::Null),
        (bin(Or, null(), i(1)), t.clone()),
        (bin(Or, null(), i(0)), Value::Null),
        (bin(Xor, i(1), i(1)), fl.clone()),
        (bin(Xor, i(1), null()), Value::Null),
        (Expr::Unary(UnaryOp::Not, Box::new(null())), Value::Null),
        (Expr::Unary(UnaryOp::Not, Box::new(s("abc"))), t.clone()),
        (Expr::IsNull { expr: Box::new(null()), negated: false }, t.clone()),
        (Expr::IsBool { expr: Box::new(null()), value: true, negated: true }, t.clone()),
        (Expr::IsBool { expr: Box::new(i(2)), value: true, negated: false }, t.clone()),
        (Expr::Between { expr: Box::new(i(3)), low: Box::new(i(1)), high: Box::new(i(5)), negated: false }, t.clone()),
        (
            Expr::Between { expr: Box::new(i(3)), low: Box::new(null()), high: Box::new(i(2)), negated: false },
            fl.clone(),
        ),
        // MariaDB: null in (1,2) NULL; 1 in (null,1) 1; 2 in (null,1) NULL
        (Expr::InList { expr: Box::new(null()), list: vec![i(1), i(2)], negated: false }, Value::Null),
        (Expr::InList { expr: Box::new(i(1)), list: vec![null(), i(1)], negated: false }, t.clone()),
        (Expr::InList { expr: Box::new(i(2)), list: vec![null(), i(1)], negated: false }, Value::Null),
        (Expr::InList { expr: Box::new(i(2)), list: vec![i(3), i(1)], negated: true }, t.clone()),
        (Expr::InList { expr: Box::new(s("B")), list: vec![s("a"), s("b")], negated: false }, t.clone()),
        (bin(Eq, Expr::Tuple(vec![i(1), i(2)]), Expr::Tuple(vec![i(1), i(2)])), t.clone()),
        (bin(Lt, Expr::Tuple(vec![i(1), i(2)]), Expr::Tuple(vec![i(1), i(3)])), t.clone()),
        (
            Expr::InList {
                expr: Box::new(Expr::Tuple(vec![i(3), i(4)])),
                list: vec![Expr::Tuple(vec![i(1), i(2)]), Expr::Tuple(vec![i(3), i(4)])],
                negated: false,
            },
            t.clone(),
        ),
        (
            Expr::Case {
                operand: Some(Box::new(i(2))),
                whens: vec![(i(1), s("one")), (i(2), s("two"))],
                otherwise: Some(Box::new(s("many"))),
            },
            vs("two"),
        ),
        (Expr::Case { operand: None, whens: vec![(i(0), s("no")), (null(), s("null"))], otherwise: None }, Value::Null),
        (Expr::Slot(1), vs("abc")),
        (Expr::UserVar("x".into()), Value::Int(7)),
        (Expr::Default, Value::Null),
    ]);
    assert_eq!(err_code(&Expr::Column { table: None, name: "x".into() }), 1054);
    assert_eq!(err_code(&Expr::Aggregate { func: crate::ast::AggFunc::Count, arg: None, distinct: false }), 1111);
    assert_eq!(err_code(&Expr::Tuple(vec![i(1), i(2)])), 1241);
    assert_eq!(err_code(&bin(BinOp::Eq, Expr::Tuple(vec![i(1), i(2)]), i(1))), 1241);
}

#[test]
fn like() {
    let lk =
        |v: &str, p: &str| Expr::Like { expr: Box::new(s(v)), pattern: Box::new(s(p)), escape: None, negated: false };
    let t = Value::Int(1);
    let fl = Value::Int(0);
    check(vec![
        // MariaDB: 'abc' like 'A%' 1, 'a_c' 1, 'a%c' like 'a\%c' 1, 'abc' like 'a\%c' 0
        (lk("abc", "A%"), t.clone()),
        (lk("abc", "a_c"), t.clone()),
        (lk("a%c", "a\\%c"), t.clone()),
        (lk("abc", "a\\%c"), fl.clone()),
        (lk("abc", "%"), t.clone()),
        (lk("", "%"), t.clone()),
        (lk("abc", "%b%"), t.clone()),
        (lk("abc", "%d%"), fl.clone()),
        (lk("aXbXc", "a%b%c"), t.clone()),
        (lk("abc ", "abc"), fl.clone()),
        (lk("héllo", "HE%"), t.clone()),
        (
            Expr::Like { expr: Box::new(s("a_b")), pattern: Box::new(s("a|_b")), escape: Some('|'), negated: false },
            t.clone(),
        ),
        (Expr::Like { expr: Box::new(null()), pattern: Box::new(s("%")), escape: None, negated: false }, Value::Null),
        (Expr::Like { expr: Box::new(i(123)), pattern: Box::new(s("12%")), escape: None, negated: true }, fl),
    ]);
}

#[test]
fn string_functions() {
    // All expected values checked against MariaDB 10.11.
    check(vec![
        (
            call("concat", vec![s("a"), i(1), dec("2.50")]),
            vs("a12.50"),
        ),
        (call("concat", vec![s("a"), null()]), Value::Null),
        (call("concat", vec![f(1.5), f(1e20)]), vs("1.51e20")),
        (
            call("concat_ws", vec![s(","), s("a"), null(), s("b")]),
            vs("a,b"),
        ),
        (call("length", vec![s("héllo")]), Value::Int(6)),
        (call("char_length", vec![s("héllo")]), Value::Int(5)),
        (
            call("substring", vec![s("Quadratically"), i(5)]),
            vs("ratically"),
        ),
        (
            call("substring", vec![s("Quadratically"), i(5), i(6)]),
            vs("ratica"),
        ),
        (call("substring", vec![s("Sakila"), i(-3)]), vs("ila")),
        (call("substr", vec![s("Sakila"), i(-5), i(3)]), vs("aki")),
        (call("mid", vec![s("abc"), i(0)]), vs("")),
        (call("left", vec![s("foobar"), i(3)]), vs("foo")),
        (call("right", vec![s("foobar"), i(4)]), vs("obar")),
        (call("upper", vec![s("abc")]), vs("ABC")),
        (call("lcase", vec![s("ABC")]), vs("abc")),
        (call("trim", vec![s("  x  ")]), vs("x")),
        (call("ltrim", vec![s("  x ")]), vs("x ")),
        (call("rtrim", vec![s(" x  ")]), vs(" x")),
        (call("trim_chars", vec![s("xxabcxx"), s("x")]), vs("abc")),
        (call("ltrim_chars", vec![s("ababcab"), s("ab")]), vs("cab")),
        (
            call("rtrim_chars", vec![s("ababcab"), s("ab")]),
            vs("ababc"),
        ),
        (
            call("replace", vec![s("www.mysql.com"), s("w"), s("Ww")]),
            vs("WwWwWw.mysql.com"),
        ),
        (call("reverse", vec![s("abc")]), vs("cba")),
        (call("soundex", vec![s("Quadratically")]), vs("Q36324")),
        (call("soundex", vec![s("Tymczak")]), vs("T520")),
        (call("soundex", vec![s("  a")]), vs("A000")),
        (call("soundex", vec![s("123")]), vs("")),
        (call("repeat", vec![s("ab"), i(3)]), vs("ababab")),
        (call("repeat", vec![s("ab"), i(-1)]), vs("")),
        (call("lpad", vec![s("hi"), i(4), s("??")]), vs("??hi")),
        (call("lpad", vec![s("hi"), i(1), s("?")]), vs("h")),
        (call("rpad", vec![s("hi"), i(5), s("ab")]), vs("hiaba")),
        (
            call("locate", vec![s("bar"), s("foobarbar")]),
            Value::Int(4),
        ),
        (
            call("locate", vec![s("bar"), s("foobarbar"), i(5)]),
            Value::Int(7),
        ),
        (call("instr", vec![s("foobarbar"), s("BAR")]), Value::Int(4)),
        (call("space", vec![i(3)]), vs("   ")),
        (call("ascii", vec![s("2")]), Value::Int(50)),
        (call("hex", vec![s("abc")]), vs("616263")),
        (call("hex", vec![i(255)]), vs("FF")),
        (call("unhex", vec![s("4D7953514C")]), vs("MySQL")),
        (call("unhex", vec![s("zz")]), Value::Null),
        (
            call("format", vec![dec("12332.123456"), i(4)]),
            vs("12,332.1235"),
        ),
        (call("format", vec![dec("12332.2"), i(0)]), vs("12,332")),
        (
            call("format", vec![dec("-1234567.891"), i(2)]),
            vs("-1,234,567.89"),
        ),
        (call("elt", vec![i(2), s("a"), s("b")]), vs("b")),
        (call("elt", vec![i(3), s("a"), s("b")]), Value::Null),
        (call("field", vec![s("b"), s("a"), s("b")]), Value::Int(2)),
        (call("find_in_set", vec![s("b"), s("a,b,c")]), Value::Int(2)),
        (
            call("insert", vec![s("Quadratic"), i(3), i(4), s("What")]),
            vs("QuWhattic"),
        ),
        (
            call("insert", vec![s("Quadratic"), i(-1), i(4), s("What")]),
            vs("Quadratic"),
        ),
        (call("strcmp", vec![s("a"), s("B")]), Value::Int(-1)),
        (call("charset", vec![s("a")]), vs("utf8mb4")),
        (call("conv", vec![s("a"), i(16), i(2)]), vs("1010")),
        (call("conv", vec![i(-17), i(10), i(-18)]), vs("-H")),
        (call("bin", vec![i(12)]), vs("1100")),
        (call("oct", vec![i(8)]), vs("10")),
        (call("md5", vec![s("abc")]), vs("900150983cd24fb0d6963f7d28e17f72")),
        (call("password", vec![s("password")]), vs("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19")),
        (call("password", vec![s("")]), vs("")),
        (call("password", vec![null()]), vs("")),
        (call("md5", vec![i(1)]), vs("c4ca4238a0b923820dcc509a6f75849b")),
        (call("sha1", vec![s("abc")]), vs("a9993e364706816aba3e25717850c26c9cd0d89d")),
        (call("sha2", vec![s("abc"), i(256)]), vs("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")),
        (call("sha2", vec![s("abc"), i(224)]), vs("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")),
        (
            call("sha2", vec![s("abc"), i(384)]),
            vs("cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        ),
        (
            call("sha2", vec![s("abc"), i(512)]),
            vs("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ),
        (call("sha2", vec![s("abc"), i(1)]), Value::Null),
        (call("quote", vec![s("Don't")]), vs("'Don\\'t'")),
        (call("char", vec![i(65), i(66)]), vs("AB")),
        (call("inet_aton", vec![s("10.0.5.9")]), Value::UInt(167773449)),
        (call("inet_ntoa", vec![i(167773449)]), vs("10.0.5.9")),
    ]);
    // Huge results: NULL + warning 1301 instead of allocating.
    let env = TestEnv::default();
    assert_eq!(run_env(&call("repeat", vec![s("ab"), i(1 << 40)]), &env).unwrap(), Value::Null);
    assert_eq!(run_env(&call("space", vec![i(i64::MAX)]), &env).unwrap(), Value::Null);
    assert_eq!(run_env(&call("lpad", vec![s("a"), i(i64::MAX), s("b")]), &env).unwrap(), Value::Null);
    assert_eq!(env.warnings.borrow().iter().filter(|w| w.0 == 1301).count(), 3);
}

#[test]
fn control_and_math_functions() {
    // All expected values checked against MariaDB 10.11.
    check(vec![
        (call("coalesce", vec![null(), i(2), i(3)]), Value::Int(2)),
        (call("ifnull", vec![null(), s("x")]), vs("x")),
        (call("nullif", vec![i(1), i(1)]), Value::Null),
        (call("nullif", vec![i(1), i(2)]), Value::Int(1)),
        (call("if", vec![i(0), s("a"), s("b")]), vs("b")),
        (call("greatest", vec![i(1), i(5), i(3)]), Value::Int(5)),
        (call("greatest", vec![s("a"), s("B")]), vs("B")),
        (call("greatest", vec![dec("1.5"), i(2)]), vd("2.0")),
        (call("least", vec![i(1), null()]), Value::Null),
        (call("abs", vec![i(-3)]), Value::Int(3)),
        (call("ceil", vec![dec("1.2")]), Value::Int(2)),
        (call("floor", vec![dec("-1.2")]), Value::Int(-2)),
        (call("ceiling", vec![f(1.2)]), Value::Double(2.0)),
        (call("round", vec![dec("1.25"), i(1)]), vd("1.3")),
        (call("round", vec![dec("-1.5")]), vd("-2")),
        (call("round", vec![dec("1234.5678"), i(-2)]), vd("1200")),
        (call("round", vec![dec("2.5")]), vd("3")),
        (call("round", vec![f(2.5)]), Value::Double(2.0)),
        (call("round", vec![f(3.5)]), Value::Double(4.0)),
        (call("round", vec![f(2.675), i(2)]), Value::Double(2.68)),
        (call("round", vec![f(1.005), i(2)]), Value::Double(1.0)),
        (call("round", vec![f(0.125), i(2)]), Value::Double(0.12)),
        (call("round", vec![f(25.0), i(-1)]), Value::Double(20.0)),
        (call("round", vec![f(35.0), i(-1)]), Value::Double(40.0)),
        (call("truncate", vec![f(2.5), i(0)]), Value::Double(2.0)),
        (call("round", vec![i(15), i(-1)]), Value::Int(20)),
        (call("round", vec![dec("1.2345"), i(2)]), vd("1.23")),
        (call("truncate", vec![dec("1.999"), i(2)]), vd("1.99")),
        (call("truncate", vec![dec("-1.999"), i(1)]), vd("-1.9")),
        (call("truncate", vec![i(1234), i(-2)]), Value::Int(1200)),
        (call("mod", vec![i(10), i(3)]), Value::Int(1)),
        (call("pow", vec![i(2), i(10)]), Value::Double(1024.0)),
        (call("sqrt", vec![i(16)]), Value::Double(4.0)),
        (call("sqrt", vec![i(-1)]), Value::Null),
        (call("exp", vec![i(0)]), Value::Double(1.0)),
        (call("ln", vec![i(1)]), Value::Double(0.0)),
        (call("ln", vec![i(0)]), Value::Null),
        (call("log", vec![i(8)]), Value::Double(2.0794415416798357)),
        (call("log", vec![i(2), i(8)]), Value::Double(3.0)),
        (call("log10", vec![i(100)]), Value::Double(2.0)),
        (call("log2", vec![i(8)]), Value::Double(3.0)),
        (call("sign", vec![i(-5)]), Value::Int(-1)),
        (call("pi", vec![]), Value::Double(std::f64::consts::PI)),
        (call("crc32", vec![s("MySQL")]), Value::UInt(3259397556)),
        (call("bit_count", vec![i(255)]), Value::Int(8)),
        (call("isnull", vec![null()]), Value::Int(1)),
        (call("last_insert_id", vec![]), Value::UInt(42)),
        (call("last_insert_id", vec![i(5)]), Value::Int(5)),
        (call("database", vec![]), vs("test")),
        (call("user", vec![]), vs("root@localhost")),
        // mariadb-dump passes the offset as a string.
        (call("binlog_gtid_pos", vec![s("b.000001"), s("953")]), vs("b.000001:953")),
        (call("binlog_gtid_pos", vec![s("b.000001"), null()]), Value::Null),
        (call("binlog_gtid_pos", vec![null(), i(4)]), Value::Null),
        (call("binlog_gtid_pos", vec![s("b.000001"), i(-1)]), Value::Null),
    ]);
    assert_eq!(err_code(&call("nosuch", vec![])), 1305);
    match run_env(&call("nosuch", vec![]), &TestEnv::default()) {
        Err(e) => assert_eq!(e.message, "FUNCTION test.nosuch does not exist"),
        Ok(v) => panic!("{v:?}"),
    }
    match run_env(&call("left", vec![s("a")]), &TestEnv::default()) {
        Err(e) => assert_eq!(e.message, "Incorrect parameter count in the call to native function 'LEFT'"),
        Ok(v) => panic!("{v:?}"),
    }
    let r = run(&call("rand", vec![]));
    assert!(matches!(r, Value::Double(x) if (0.0..1.0).contains(&x)));
    assert_eq!(run(&call("rand", vec![i(3)])), run(&call("rand", vec![i(3)])));
    assert!(matches!(run(&call("uuid", vec![])), Value::Bytes(b) if b.len() == 36));
}

#[test]
fn temporal_functions() {
    // All expected values checked against MariaDB 10.11.
    check(vec![
        (call("date", vec![s("2024-01-02 03:04:05")]), Value::Date(date(2024, 1, 2))),
        (call("time", vec![s("2024-01-02 03:04:05.5")]), Value::Time(11_045_500_000)),
        (call("year", vec![s("2024-03-04")]), Value::Int(2024)),
        (call("month", vec![s("2024-03-04")]), Value::Int(3)),
        (call("day", vec![s("2024-03-04")]), Value::Int(4)),
        (call("hour", vec![s("10:05:03")]), Value::Int(10)),
        (call("minute", vec![s("2024-01-02 03:04:05")]), Value::Int(4)),
        (call("second", vec![s("03:04:05")]), Value::Int(5)),
        (call("dayofweek", vec![s("2024-01-07")]), Value::Int(1)),
        (call("dayofyear", vec![s("2024-03-01")]), Value::Int(61)),
        (call("weekday", vec![s("2024-01-07")]), Value::Int(6)),
        (call("datediff", vec![s("2024-03-01"), s("2024-02-01")]), Value::Int(29)),
        (
            call(
                "date_format",
                vec![s("2024-01-02 13:04:05"), s("%Y-%m-%d %H:%i:%s %W %M %a %b %D %j %p %r %T %e %c %y %h %l %k")],
            ),
            vs("2024-01-02 13:04:05 Tuesday January Tue Jan 2nd 002 PM 01:04:05 PM 13:04:05 2 1 24 01 1 13"),
        ),
        (call("str_to_date", vec![s("01,5,2013"), s("%d,%m,%Y")]), Value::Date(date(2013, 5, 1))),
        (
            call("str_to_date", vec![s("2013-05-01 10:11:12"), s("%Y-%m-%d %H:%i:%s")]),
            Value::DateTime(dt(2013, 5, 1, 10, 11, 12)),
        ),
        (call("str_to_date", vec![s("10:11"), s("%H:%i")]), Value::Time(36_660_000_000)),
        (call("str_to_date", vec![s("xx"), s("%Y")]), Value::Null),
        (call("unix_timestamp", vec![s("2024-01-02 03:04:05")]), Value::Int(1704164645)),
        (call("from_unixtime", vec![i(1704164645)]), Value::DateTime(dt(2024, 1, 2, 3, 4, 5))),
        (call("from_unixtime", vec![i(1704164645), s("%Y")]), vs("2024")),
        (call("timestampdiff", vec![s("MONTH"), s("2024-01-31"), s("2024-02-29")]), Value::Int(0)),
        (call("timestampdiff", vec![s("DAY"), s("2024-01-01"), s("2024-03-01")]), Value::Int(60)),
        (call("year", vec![s("garbage")]), Value::Null),
        (call("time_format", vec![s("13:04:05"), s("%H %h %i %p")]), vs("13 01 04 PM")),
        (call("adddate", vec![s("2024-01-31"), i(1)]), Value::Date(date(2024, 2, 1))),
        (call("subdate", vec![s("2024-03-01"), i(1)]), Value::Date(date(2024, 2, 29))),
        (call("adddate", vec![s("2024-01-31 10:00:00"), i(1)]), Value::DateTime(dt(2024, 2, 1, 10, 0, 0))),
        (call("addtime", vec![s("2024-01-01 23:59:59"), s("00:00:02")]), Value::DateTime(dt(2024, 1, 2, 0, 0, 1))),
        (call("addtime", vec![s("10:00:00"), s("01:30:00")]), Value::Time(41_400_000_000)),
        (call("subtime", vec![s("10:00:00"), s("11:00:00")]), Value::Time(-3_600_000_000)),
        (call("maketime", vec![i(12), i(15), i(30)]), Value::Time(44_130_000_000)),
        (call("weekofyear", vec![s("2024-12-30")]), Value::Int(1)),
        (call("week", vec![s("2024-01-07")]), Value::Int(1)),
        (call("to_seconds", vec![s("2024-01-01")]), Value::Int(63871286400)),
    ]);
    assert!(matches!(run(&call("now", vec![])), Value::DateTime(t) if t.year >= 2024 && t.micros == 0));
    assert!(matches!(run(&call("curdate", vec![])), Value::Date(_)));
    assert!(matches!(run(&call("curtime", vec![])), Value::Time(_)));
    assert!(matches!(run(&call("unix_timestamp", vec![])), Value::Int(n) if n > 1_700_000_000));
    assert_eq!(err_code(&call("now", vec![i(7)])), 1426);
}

#[test]
fn casts() {
    let c = |e: Expr, to: CastType| Expr::Cast { expr: Box::new(e), to };
    // All expected values checked against MariaDB 10.11.
    check(vec![
        (c(s("2024-01-02"), CastType::DateTime(0)), Value::DateTime(dt(2024, 1, 2, 0, 0, 0))),
        (c(i(20240102), CastType::Date), Value::Date(date(2024, 1, 2))),
        (c(s("12:34"), CastType::Time(0)), Value::Time(45_240_000_000)),
        (c(s("abc"), CastType::Signed), Value::Int(0)),
        (c(dec("1.5"), CastType::Signed), Value::Int(2)),
        (c(s("1.9"), CastType::Signed), Value::Int(1)),
        (c(i(-1), CastType::Unsigned), Value::UInt(u64::MAX)),
        (c(s("3.7"), CastType::Decimal { precision: 5, scale: 1 }), vd("3.7")),
        (c(dec("123.456"), CastType::Decimal { precision: 4, scale: 2 }), vd("99.99")),
        (c(s("2024-02-30"), CastType::Date), Value::Null),
        (c(i(12), CastType::Char(None)), vs("12")),
        (c(s("abcdef"), CastType::Char(Some(2))), vs("ab")),
        (c(Expr::Literal(Value::Bytes(vec![0xff])), CastType::Char(Some(3))), Value::Bytes(vec![0xff])),
        (c(s("ab"), CastType::Binary(Some(4))), Value::Bytes(b"ab\0\0".to_vec())),
        (c(s("1.5"), CastType::Double(None)), Value::Double(1.5)),
    ]);
}

#[test]
fn subqueries() {
    let q = Box::new(Select::default());
    let one = TestEnv { subquery_rows: vec![vec![Value::Int(5)]], ..TestEnv::default() };
    let two = TestEnv { subquery_rows: vec![vec![Value::Int(5)], vec![Value::Null]], ..TestEnv::default() };
    let wide = TestEnv { subquery_rows: vec![vec![Value::Int(5), Value::Int(6)]], ..TestEnv::default() };
    let none = TestEnv::default();
    let sq = Expr::ScalarSubquery(q.clone());
    assert_eq!(run_env(&sq, &one).unwrap(), Value::Int(5));
    assert_eq!(run_env(&sq, &none).unwrap(), Value::Null);
    assert_eq!(run_env(&sq, &two).unwrap_err().code.number, 1242);
    assert_eq!(run_env(&sq, &wide).unwrap_err().code.number, 1241);
    let ins = |e: Expr, negated| Expr::InSubquery { expr: Box::new(e), query: q.clone(), negated };
    assert_eq!(run_env(&ins(i(5), false), &two).unwrap(), Value::Int(1));
    assert_eq!(run_env(&ins(i(6), false), &two).unwrap(), Value::Null);
    assert_eq!(run_env(&ins(i(6), false), &one).unwrap(), Value::Int(0));
    assert_eq!(run_env(&ins(i(6), true), &none).unwrap(), Value::Int(1));
    assert_eq!(run_env(&ins(null(), false), &none).unwrap(), Value::Int(0));
    let ex = Expr::Exists { query: q.clone(), negated: false };
    assert_eq!(run_env(&ex, &one).unwrap(), Value::Int(1));
    assert_eq!(run_env(&ex, &none).unwrap(), Value::Int(0));
}

#[test]
fn insert_value_lookup() {
    let cols = vec![ColumnDef::new("a", ColumnType::Int), ColumnDef::new("B", ColumnType::Int)];
    let vals = vec![Value::Int(1), Value::Int(2)];
    let row = Row { values: &[], params: &[], aggregates: &[], insert_values: Some((&cols, &vals)) };
    let env = TestEnv::default();
    assert_eq!(eval(&Expr::InsertValue("b".into()), &row, &env).unwrap(), Value::Int(2));
}

#[test]
fn grouping_keys() {
    assert_eq!(sort_key(&vs("abc ")), sort_key(&vs("ABC")));
    assert_ne!(sort_key(&vs("abc")), sort_key(&vs("abd")));
    assert_eq!(sort_key(&Value::Int(1)), sort_key(&vd("1.00")));
    assert_eq!(sort_key(&Value::Int(1)), sort_key(&Value::UInt(1)));
    assert_ne!(sort_key(&Value::Null), sort_key(&Value::Int(0)));
    assert!(values_equal_for_grouping(&vs("é"), &vs("E")));
    let key = |v: &Value, c: Collation| {
        let mut out = Vec::new();
        sort_key_into(v, c, &mut out);
        out
    };
    assert_ne!(key(&vs("a"), Collation::Binary), key(&vs("A"), Collation::Binary));
    assert_eq!(key(&vs("ß"), Collation::Utf8mb4UnicodeCi), key(&vs("SS "), Collation::Utf8mb4UnicodeCi));
    assert_eq!(compare_with_collation(&vs("a "), &vs("a"), Collation::Utf8mb4Bin), Some(Ordering::Equal));
    assert_eq!(compare_with_collation(&vs("a "), &vs("a"), Collation::Binary), Some(Ordering::Greater));
    assert_eq!(compare_for_sort(&Value::Null, &Value::Int(1)), Ordering::Less);
}

fn col(ty: ColumnType, unsigned: bool) -> ColumnDef {
    let mut c = ColumnDef::new("c", ty);
    c.unsigned = unsigned;
    c
}

fn coerce(v: Value, ty: ColumnType, unsigned: bool, strict: bool) -> (SqlResult<Value>, Vec<u16>) {
    let env = TestEnv::default();
    let r = coerce_to_column(v, &col(ty, unsigned), strict, &env);
    let w = env.warnings.borrow().iter().map(|w| w.0).collect();
    (r, w)
}

#[test]
fn coerce_non_strict() {
    // MariaDB (sql_mode=''): '1.9' → int 2; 300 → tinyint unsigned 255 (1264);
    // 'abcdef' → varchar(3) 'abc' (1265); 1234.567 → decimal(5,2) 999.99
    // (1264); '2024-13-01' → date 0000-00-00 (1265); 'y' → enum('x','Y') 'Y'.
    let cases: Vec<(Value, ColumnType, bool, Value, Vec<u16>)> = vec![
        (vs("1.9"), ColumnType::Int, false, Value::Int(2), vec![]),
        (Value::Int(300), ColumnType::TinyInt, true, Value::UInt(255), vec![1264]),
        (Value::Int(-1), ColumnType::TinyInt, true, Value::UInt(0), vec![1264]),
        (Value::Int(-200), ColumnType::TinyInt, false, Value::Int(-128), vec![1264]),
        (vs("abc"), ColumnType::Int, false, Value::Int(0), vec![1366]),
        (vs("12abc"), ColumnType::Int, false, Value::Int(12), vec![1265]),
        (Value::Double(2.5), ColumnType::Int, false, Value::Int(2), vec![]),
        (Value::Double(-2.5), ColumnType::Int, false, Value::Int(-2), vec![]),
        (vs("abcdef"), ColumnType::VarChar(3), false, vs("abc"), vec![1265]),
        (vs("ab   "), ColumnType::Char(3), false, vs("ab"), vec![1265]),
        (vd("1234.567"), ColumnType::Decimal { precision: 5, scale: 2 }, false, vd("999.99"), vec![1264]),
        (vd("1.005"), ColumnType::Decimal { precision: 5, scale: 2 }, false, vd("1.01"), vec![1265]),
        (Value::Int(3), ColumnType::Decimal { precision: 5, scale: 2 }, false, vd("3.00"), vec![]),
        (vs("2024-13-01"), ColumnType::Date, false, Value::Date(Temporal::default()), vec![1265]),
        (vs("y"), ColumnType::Enum(vec!["x".into(), "Y".into()]), false, vs("Y"), vec![]),
        (Value::Int(1), ColumnType::Enum(vec!["x".into(), "Y".into()]), false, vs("x"), vec![]),
        (vs("z"), ColumnType::Enum(vec!["x".into()]), false, vs(""), vec![1265]),
        (Value::Int(12), ColumnType::VarChar(10), false, vs("12"), vec![]),
        (Value::Double(1.5), ColumnType::Text(BlobSize::Tiny), false, vs("1.5"), vec![]),
        // Cut, not rounded: MariaDB rounds only under TIME_ROUND_FRACTIONAL.
        (
            vs("2024-01-02 03:04:05.6"),
            ColumnType::DateTime { fsp: 0 },
            false,
            Value::DateTime(dt(2024, 1, 2, 3, 4, 5)),
            vec![],
        ),
        (vs("20240102"), ColumnType::Date, false, Value::Date(date(2024, 1, 2)), vec![]),
        (
            Value::Int(20240102030405),
            ColumnType::DateTime { fsp: 0 },
            false,
            Value::DateTime(dt(2024, 1, 2, 3, 4, 5)),
            vec![],
        ),
        (vs("10:11:12"), ColumnType::Time { fsp: 0 }, false, Value::Time(36_672_000_000), vec![]),
        (Value::Int(24), ColumnType::Year, false, Value::Int(2024), vec![]),
        (Value::Int(1999), ColumnType::Year, false, Value::Int(1999), vec![]),
        (vs("\u{e9}\u{e9}"), ColumnType::VarChar(2), false, vs("éé"), vec![]),
        (Value::Null, ColumnType::Int, false, Value::Null, vec![]),
    ];
    let mut failed = Vec::new();
    for (v, ty, unsigned, want, warns) in cases {
        let (got, w) = coerce(v.clone(), ty.clone(), unsigned, false);
        if got.as_ref().ok() != Some(&want) || w != warns {
            failed.push(format!("{v:?} → {ty:?}: got {got:?} {w:?}, want {want:?} {warns:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn coerce_strict() {
    // MariaDB (default strict mode): 'abc' → int: ERROR 1366.
    let cases: Vec<(Value, ColumnType, bool, u16)> = vec![
        (vs("abc"), ColumnType::Int, false, 1366),
        (Value::Int(300), ColumnType::TinyInt, true, 1264),
        (Value::Int(-1), ColumnType::Int, true, 1264),
        (Value::UInt(u64::MAX), ColumnType::BigInt, false, 1264),
        (vs("abcd"), ColumnType::VarChar(3), false, 1406),
        (vs("abcd"), ColumnType::VarBinary(3), false, 1406),
        (vd("1234.567"), ColumnType::Decimal { precision: 5, scale: 2 }, false, 1264),
        (vs("x"), ColumnType::Date, false, 1292),
        (vs("x"), ColumnType::DateTime { fsp: 0 }, false, 1292),
        (vs("z"), ColumnType::Enum(vec!["x".into()]), false, 1265),
        (vs("x"), ColumnType::Time { fsp: 0 }, false, 1292),
    ];
    for (v, ty, unsigned, code) in cases {
        let (got, _) = coerce(v.clone(), ty.clone(), unsigned, true);
        match got {
            Err(e) => assert_eq!(e.code.number, code, "{v:?} → {ty:?}: {e}"),
            Ok(r) => panic!("{v:?} → {ty:?}: expected error {code}, got {r:?}"),
        }
    }
    let (got, _) = coerce(vs("abc"), ColumnType::Int, false, true);
    assert_eq!(got.unwrap_err().message, "Incorrect integer value: 'abc' for column ``.``.`c` at row 1");
    let (got, _) = coerce(vs("abcd"), ColumnType::VarChar(3), false, true);
    assert_eq!(got.unwrap_err().message, "Data too long for column 'c' at row 1");
    let (got, _) = coerce(vs("x"), ColumnType::DateTime { fsp: 0 }, false, true);
    assert_eq!(got.unwrap_err().message, "Incorrect datetime value: 'x' for column ``.``.`c` at row 1");
    // In range values pass in strict mode.
    let (got, w) = coerce(vs(" 42 "), ColumnType::Int, false, true);
    assert_eq!((got.unwrap(), w), (Value::Int(42), vec![]));
}

#[test]
fn no_panics_on_odd_input() {
    let odd = vec![
        Value::Null,
        Value::Int(i64::MIN),
        Value::UInt(u64::MAX),
        Value::Double(f64::MAX),
        Value::Double(-0.0),
        Value::Decimal(Decimal::saturated(false)),
        Value::Decimal(Decimal::saturated(true)),
        Value::Bytes(vec![0xff, 0xfe]),
        Value::from_str(""),
        Value::from_str("-"),
        Value::from_str("9999-99-99 99:99:99"),
        Value::Date(Temporal::default()),
        Value::DateTime(Temporal { year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, micros: 999_999 }),
        Value::Time(i64::MIN),
    ];
    let names = [
        "concat",
        "length",
        "substring",
        "left",
        "right",
        "upper",
        "trim",
        "replace",
        "reverse",
        "soundex",
        "repeat",
        "lpad",
        "locate",
        "space",
        "ascii",
        "hex",
        "unhex",
        "format",
        "abs",
        "ceil",
        "floor",
        "round",
        "truncate",
        "mod",
        "pow",
        "sqrt",
        "exp",
        "ln",
        "log",
        "sign",
        "crc32",
        "date",
        "time",
        "year",
        "hour",
        "dayofweek",
        "datediff",
        "date_format",
        "str_to_date",
        "from_unixtime",
        "unix_timestamp",
        "conv",
        "bin",
        "elt",
        "field",
        "find_in_set",
        "insert",
        "strcmp",
        "greatest",
        "timestampdiff",
        "week",
        "last_day",
        "from_days",
        "sec_to_time",
        "makedate",
        "dayname",
    ];
    let env = TestEnv::default();
    for name in names {
        let (min, max) = functions_arity(name);
        for a in &odd {
            for b in &odd {
                let n = min.max(1).min(max);
                let args: Vec<Expr> =
                    (0..n).map(|k| Expr::Literal(if k % 2 == 0 { a.clone() } else { b.clone() })).collect();
                let _ = run_env(&call(name, args), &env);
            }
        }
    }
    for op in [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::IntDiv,
        BinOp::Mod,
        BinOp::Lt,
        BinOp::Eq,
        BinOp::BitAnd,
        BinOp::ShiftLeft,
        BinOp::Xor,
    ] {
        for a in &odd {
            for b in &odd {
                let _ = run_env(&bin(op, Expr::Literal(a.clone()), Expr::Literal(b.clone())), &env);
            }
        }
    }
    for a in &odd {
        for ty in [
            ColumnType::TinyInt,
            ColumnType::BigInt,
            ColumnType::Decimal { precision: 65, scale: 30 },
            ColumnType::Float,
            ColumnType::Char(1),
            ColumnType::Date,
            ColumnType::Timestamp { fsp: 6 },
            ColumnType::Time { fsp: 3 },
            ColumnType::Year,
            ColumnType::Enum(vec![]),
        ] {
            let _ = coerce_to_column(a.clone(), &col(ty.clone(), true), false, &env);
            let _ = coerce_to_column(a.clone(), &col(ty, false), true, &env);
        }
        for to in [
            CastType::Signed,
            CastType::Unsigned,
            CastType::Date,
            CastType::DateTime(6),
            CastType::Time(6),
            CastType::Decimal { precision: 65, scale: 30 },
            CastType::Double(None),
        ] {
            let _ = cast(a.clone(), to, &env);
        }
    }
}

fn functions_arity(name: &str) -> (usize, usize) {
    super::functions::arity_of(name).unwrap_or((0, 0))
}

#[test]
fn coerce_non_strict_more() {
    // All checked against MariaDB 10.11 with sql_mode=''. Doubles round half
    // to even into integer columns (rint), strings half away from zero.
    let cases: Vec<(Value, ColumnType, Value, Vec<u16>)> = vec![
        (Value::Double(3.5), ColumnType::Int, Value::Int(4), vec![]),
        (Value::Double(2.5), ColumnType::Int, Value::Int(2), vec![]),
        (vs("2.5"), ColumnType::Int, Value::Int(3), vec![]),
        (vs("1e3"), ColumnType::Int, Value::Int(1000), vec![]),
        (vs("0x10"), ColumnType::Int, Value::Int(0), vec![1265]),
        (vs("900:00:00"), ColumnType::Time { fsp: 0 }, Value::Time(3_020_399_000_000), vec![1264]),
        (Value::Int(123456), ColumnType::Time { fsp: 0 }, Value::Time(45_296_000_000), vec![]),
        (vs("1 02:00:00"), ColumnType::Time { fsp: 0 }, Value::Time(93_600_000_000), vec![]),
        (vs("12:61:00"), ColumnType::Time { fsp: 0 }, Value::Time(0), vec![1265]),
        (vs("0"), ColumnType::Year, Value::Int(2000), vec![]),
        (Value::Int(0), ColumnType::Year, Value::Int(0), vec![]),
        (Value::Int(2156), ColumnType::Year, Value::Int(0), vec![1264]),
        (vs("99"), ColumnType::Year, Value::Int(1999), vec![]),
        (Value::Int(5), ColumnType::Year, Value::Int(2005), vec![]),
        (vs("B "), ColumnType::Enum(vec!["a".into(), "b".into()]), vs("b"), vec![]),
        (Value::Int(0), ColumnType::Enum(vec!["a".into()]), vs(""), vec![1265]),
        (vs("2024/1/2 3:4:5"), ColumnType::DateTime { fsp: 0 }, Value::DateTime(dt(2024, 1, 2, 3, 4, 5)), vec![]),
        (vs("2024-01-02T03:04:05"), ColumnType::DateTime { fsp: 0 }, Value::DateTime(dt(2024, 1, 2, 3, 4, 5)), vec![]),
        (vs("2024-02-30 00:00:00"), ColumnType::DateTime { fsp: 0 }, Value::DateTime(Temporal::default()), vec![1265]),
        (vs("2024-01-02 10:00:00"), ColumnType::Date, Value::Date(date(2024, 1, 2)), vec![1265]),
        (Value::Int(240102), ColumnType::Date, Value::Date(date(2024, 1, 2)), vec![]),
        (vs("abc"), ColumnType::Decimal { precision: 5, scale: 2 }, vd("0.00"), vec![1366]),
        (vs("1.005"), ColumnType::Decimal { precision: 5, scale: 2 }, vd("1.01"), vec![1265]),
        (Value::Int(-1000), ColumnType::Decimal { precision: 5, scale: 2 }, vd("-999.99"), vec![1264]),
        (Value::Double(1.1), ColumnType::Float, Value::Double(1.1), vec![]),
        (vs("1.5x"), ColumnType::Double, Value::Double(1.5), vec![1265]),
    ];
    let mut failed = Vec::new();
    for (v, ty, want, warns) in cases {
        let (got, w) = coerce(v.clone(), ty.clone(), false, false);
        if got.as_ref().ok() != Some(&want) || w != warns {
            failed.push(format!("{v:?} → {ty:?}: got {got:?} {w:?}, want {want:?} {warns:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn mixed_type_rules() {
    use BinOp::*;
    let t = Value::Int(1);
    let fl = Value::Int(0);
    let unsigned = |n: i64| Expr::Cast { expr: Box::new(i(n)), to: CastType::Unsigned };
    let tup = |a: Expr, b: Expr| Expr::Tuple(vec![a, b]);
    let between = |x: Expr, lo: Expr, hi: Expr| Expr::Between {
        expr: Box::new(x),
        low: Box::new(lo),
        high: Box::new(hi),
        negated: false,
    };
    // All checked against MariaDB 10.11.
    check(vec![
        (bin(Sub, unsigned(5), i(3)), Value::UInt(2)),
        (bin(Add, i(i64::MAX), unsigned(1)), Value::UInt(9_223_372_036_854_775_808)),
        (bin(Eq, tup(i(1), null()), tup(i(1), i(2))), Value::Null),
        (bin(Eq, tup(i(1), null()), tup(i(2), i(2))), fl.clone()),
        (bin(Lt, tup(i(1), null()), tup(i(2), i(2))), t.clone()),
        (bin(Eq, s("a"), i(0)), t.clone()),
        (bin(Eq, i(1), s("1.0")), t.clone()),
        (between(null(), i(1), i(2)), Value::Null),
        (between(i(2), i(1), null()), Value::Null),
        (between(i(5), null(), i(4)), fl.clone()),
        (between(s("b"), s("A"), s("C")), t.clone()),
        (Expr::InList { expr: Box::new(i(1)), list: vec![s("1"), s("a")], negated: false }, t.clone()),
        (Expr::InList { expr: Box::new(i(0)), list: vec![s("a")], negated: false }, t.clone()),
        (Expr::Unary(UnaryOp::Neg, Box::new(s("3"))), Value::Double(-3.0)),
        (bin(IntDiv, i(3), dec("0.5")), Value::Int(6)),
        (bin(Mod, i(7), dec("-2.5")), vd("2.0")),
        (bin(Mod, i(10), dec("3.0")), vd("1.0")),
        (Expr::Unary(UnaryOp::Neg, Box::new(u(9_223_372_036_854_775_808))), Value::Int(i64::MIN)),
        (bin(Lt, i(1), f(1.5)), t.clone()),
        (
            Expr::Case {
                operand: Some(Box::new(s("A"))),
                whens: vec![(s("a"), i(1))],
                otherwise: Some(Box::new(i(0))),
            },
            t.clone(),
        ),
        (bin(Eq, dec("0.5"), bin(Div, i(1), i(2))), t),
    ]);
    // MariaDB: ERROR 1690 BIGINT UNSIGNED value is out of range in '-1 * cast(1 as unsigned)'
    assert_eq!(err_code(&bin(Mul, i(-1), unsigned(1))), 1690);
    let latin1 = Expr::Collate { expr: Box::new(s("a")), collation: Collation::Latin1Bin, explicit: true };
    assert_eq!(err_code(&latin1), 1253);
}

#[test]
fn timestamp_range() {
    // MariaDB: '1960-01-01' → TIMESTAMP: non-strict 0000-00-00 00:00:00 with
    // 1264; strict ERROR 1292 Incorrect datetime value.
    let ty = ColumnType::Timestamp { fsp: 0 };
    let (got, w) = coerce(vs("1960-01-01"), ty.clone(), false, false);
    assert_eq!((got.unwrap(), w), (Value::DateTime(Temporal::default()), vec![1264]));
    let (got, _) = coerce(vs("2040-01-01"), ty.clone(), false, true);
    assert_eq!(got.unwrap_err().message, "Incorrect datetime value: '2040-01-01' for column ``.``.`c` at row 1");
    let (got, w) = coerce(vs("1970-01-01 00:00:01"), ty, false, true);
    assert_eq!((got.unwrap(), w), (Value::DateTime(dt(1970, 1, 1, 0, 0, 1)), vec![]));
}

#[test]
fn comparison_warnings() {
    // MariaDB: SELECT 10 = '10abc' → 1 with warning 1292 Truncated incorrect DOUBLE value: '10abc'
    let env = TestEnv::default();
    assert_eq!(run_env(&bin(BinOp::Eq, i(10), s("10abc")), &env).unwrap(), Value::Int(1));
    assert_eq!(env.warnings.borrow().as_slice(), &[(1292, "Truncated incorrect DOUBLE value: '10abc'".to_string())]);
    let env = TestEnv::default();
    run_env(&bin(BinOp::Eq, i(10), s(" 10 ")), &env).unwrap();
    assert!(env.warnings.borrow().is_empty());
}

#[test]
fn coerce_huge_strings() {
    let (got, w) = coerce(vs("1e100"), ColumnType::BigInt, false, false);
    assert_eq!((got.unwrap(), w), (Value::Int(i64::MAX), vec![1264]));
    let (got, _) = coerce(vs("-1e100"), ColumnType::Int, false, true);
    assert_eq!(got.unwrap_err().code.number, 1264);
}

#[test]
fn coerce_huge_decimal_string() {
    let ty = ColumnType::Decimal { precision: 5, scale: 2 };
    let (got, w) = coerce(vs("1e100"), ty.clone(), false, false);
    assert_eq!((got.unwrap(), w), (vd("999.99"), vec![1264]));
    let (got, _) = coerce(vs("-1e100"), ty, false, true);
    assert_eq!(got.unwrap_err().code.number, 1264);
}

#[test]
fn date_add_units_month_ends_and_overflow() {
    let add = |base: &str, n: i64, unit: &str| call("date_add", vec![s(base), i(n), s(unit)]);
    let sub = |base: &str, n: i64, unit: &str| call("date_sub", vec![s(base), i(n), s(unit)]);
    check(vec![
        (add("2024-01-31", 1, "MONTH"), Value::Date(date(2024, 2, 29))),
        (add("2023-01-31", 1, "MONTH"), Value::Date(date(2023, 2, 28))),
        (add("2024-02-29", 1, "YEAR"), Value::Date(date(2025, 2, 28))),
        (sub("2024-05-31", 1, "QUARTER"), Value::Date(date(2024, 2, 29))),
        (add("2024-01-01", -2, "WEEK"), Value::Date(date(2023, 12, 18))),
        (add("2024-12-31", 1, "DAY"), Value::Date(date(2025, 1, 1))),
        // A sub-day unit turns a date into a datetime.
        (add("2024-01-01", 90, "MINUTE"), Value::DateTime(dt(2024, 1, 1, 1, 30, 0))),
        (sub("2024-01-01 00:00:00", 1, "SECOND"), Value::DateTime(dt(2023, 12, 31, 23, 59, 59))),
        (add("0000-00-00", 1, "DAY"), Value::Null),
        (call("date_add", vec![s("2024-01-01"), Expr::Literal(Value::Null), s("DAY")]), Value::Null),
        // Amounts far beyond the calendar are NULL, never an overflow panic.
        (add("2024-01-01", i64::MAX, "YEAR"), Value::Null),
        (add("2024-01-01", i64::MIN, "MICROSECOND"), Value::Null),
    ]);
    let env = TestEnv::default();
    assert_eq!(run_env(&add("9999-12-31", 1, "DAY"), &env).expect("evaluates"), Value::Null);
    assert_eq!(env.warnings.borrow().first().map(|w| w.0), Some(1441));
}

#[test]
fn second_fractions_past_the_microsecond_are_dropped() {
    // MariaDB 10.11 truncates toward zero; rounding would give .000003 and
    // 23:59:59.999998.
    let add = |amount: &str| call("date_add", vec![s("2020-01-01 00:00:00"), dec(amount), s("SECOND")]);
    let at = |t: Temporal, micros: u32| Value::DateTime(Temporal { micros, ..t });
    check(vec![
        (add("0.0000029"), at(dt(2020, 1, 1, 0, 0, 0), 2)),
        (add("0.0000015"), at(dt(2020, 1, 1, 0, 0, 0), 1)),
        (add("-0.0000019"), at(dt(2019, 12, 31, 23, 59, 59), 999_999)),
    ]);
}

#[test]
fn compound_intervals_as_mariadb_reads_them() {
    use super::temporal::compound_interval;
    // MariaDB 10.11: fewer numbers fill the last fields; a short microsecond
    // field is a fraction; more numbers than the unit has are NULL.
    assert_eq!(compound_interval("5", "SECOND_MICROSECOND"), Some((0, 500_000)));
    assert_eq!(compound_interval("1 2:3", "DAY_SECOND"), Some((0, 3_723_000_000)));
    assert_eq!(compound_interval("-1 2", "DAY_HOUR"), Some((0, -93_600_000_000)));
    assert_eq!(compound_interval("1-1", "YEAR_MONTH"), Some((13, 0)));
    assert_eq!(compound_interval("x1y2", "HOUR_MINUTE"), Some((0, 3_720_000_000)));
    assert_eq!(compound_interval("1:2:3:4:5", "DAY_SECOND"), None);
}

#[test]
fn week_modes_as_mariadb() {
    use super::temporal::week_of;
    let d = |y, m, dd| Temporal { year: y, month: m, day: dd, ..Temporal::default() };
    // MariaDB 10.11: WEEK('2008-02-20', 0..1), WEEK('2008-12-31', 1),
    // WEEK('2000-01-01', 2), YEARWEEK('2019-12-30', 3).
    assert_eq!(week_of(&d(2008, 2, 20), 0, false).1, 7);
    assert_eq!(week_of(&d(2008, 2, 20), 1, false).1, 8);
    assert_eq!(week_of(&d(2008, 12, 31), 1, false).1, 53);
    assert_eq!(week_of(&d(2000, 1, 1), 2, false), (1999, 52));
    assert_eq!(week_of(&d(2019, 12, 30), 3, true), (2020, 1));
}
