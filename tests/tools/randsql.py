"""A seeded random SQL generator for differential testing against MariaDB.

`Generator(seed)` yields statements over a small fixed schema (`SCHEMA`):
SELECTs with random expression trees (integer, unsigned, DECIMAL, text with
two collations, DATE / DATETIME; NULLs everywhere), WHERE predicates,
GROUP BY / DISTINCT with aggregates, joins, subqueries, UNION and
ORDER BY ... LIMIT, and INSERT / UPDATE / DELETE that keep the tables
between a few dozen rows. The same seed always yields the same statements,
so a difference found by a run is reproduced by running the same seed up
to the same statement number.

The generator only builds what a result can be compared on exactly:
no floating-point (DOUBLE) results, no LIMIT without a total ORDER BY, no
non-aggregated column outside GROUP BY. Everything else (overflow errors,
division by zero, strict-mode conversions, collation ties) is fair game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

SCHEMA = [
    "CREATE TABLE t1 (id INT PRIMARY KEY AUTO_INCREMENT, a INT, b INT UNSIGNED, c BIGINT,"
    " d DECIMAL(10,3), s VARCHAR(20), u VARCHAR(20) COLLATE utf8mb4_unicode_ci, dt DATE,"
    " ts DATETIME, KEY (a), KEY (s))",
    "CREATE TABLE t2 (id INT PRIMARY KEY, a INT, s VARCHAR(20), d DECIMAL(8,2), KEY (a))",
]

# Columns by value class: "int" (signed), "uint", "dec", "str", "date".
COLUMNS = {
    "t1": {"id": "int", "a": "int", "b": "uint", "c": "int", "d": "dec", "s": "str", "u": "str",
           "dt": "date", "ts": "date"},
    "t2": {"id": "int", "a": "int", "s": "str", "d": "dec"},
}

INT_EDGES = [0, 1, -1, 2, 3, 7, 10, -10, 100, 127, -128, 255, 32767, 2147483647, -2147483648,
             4294967295, 9223372036854775807, -9223372036854775808]
DEC_EDGES = ["0.5", "-0.5", "1.25", "0.001", "-3.141", "9999999.999", "-9999999.999", "2.5",
             "100.00", "0.0"]
TEXTS = ["a", "A", "b", "é", "e", "E", "ß", "ss", "Å", "å", "z", "abc", "ABC", "a b", " a", "a ",
         "日本", "Ö", "o", "ï", "i", "", "10", "2", "-3", "1e2", "x%y", "O'k"]
DATES = ["2024-01-31", "2024-02-29", "1999-12-31", "2000-01-01", "2038-01-19", "1970-01-01",
         "2024-03-01"]
TIMES = ["2024-01-31 23:59:59", "2000-01-01 00:00:00", "1999-12-31 12:30:45",
         "2024-02-29 06:07:08"]


def sql_text(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass
class Statement:
    sql: str
    ordered: bool  # rows come in a total order the statement fixes


class Generator:
    """Random statements; `next()` returns the next `Statement`."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        # Explicit ids: AUTO_INCREMENT gaps after failed inserts are
        # engine-specific, and ids feed joins and deletes.
        self.next_t1_id = 0
        self.next_t2_id = 1000

    # ---- literals and leaves -------------------------------------------------
    def literal(self, cls: str) -> str:
        r = self.rng
        if r.random() < 0.08:
            return "NULL"
        if cls in ("int", "uint"):
            v = r.choice(INT_EDGES) if r.random() < 0.5 else r.randint(-20, 20)
            return str(abs(v) if cls == "uint" else v)
        if cls == "dec":
            return r.choice(DEC_EDGES) if r.random() < 0.6 else f"{r.randint(-999, 999)}.{r.randint(0, 99):02d}"
        if cls == "str":
            return sql_text(r.choice(TEXTS))
        return sql_text(r.choice(DATES + TIMES))

    def column(self, tables: list[str], cls: str) -> str | None:
        cands = [f"{t}.{c}" for t in tables for c, k in COLUMNS[t].items()
                 if k == cls or (cls == "int" and k == "uint")]
        return self.rng.choice(cands) if cands else None

    def leaf(self, tables: list[str], cls: str) -> str:
        if tables and self.rng.random() < 0.65:
            col = self.column(tables, cls)
            if col:
                return col
        return self.literal(cls)

    # ---- expressions ----------------------------------------------------------
    def expr(self, tables: list[str], cls: str, depth: int = 0) -> str:
        r = self.rng
        if depth >= 3 or r.random() < 0.35:
            return self.leaf(tables, cls)
        e = lambda c=cls: self.expr(tables, c, depth + 1)  # noqa: E731
        if r.random() < 0.15:
            return self.generic(tables, cls, depth)
        if cls in ("int", "uint"):
            return r.choice([
                lambda: f"({e()} {r.choice(['+', '-', '*'])} {e()})",
                lambda: f"({e()} {r.choice(['DIV', 'MOD', '%'])} {e()})",
                lambda: f"-({e('int')})",
                lambda: f"ABS({e()})",
                lambda: f"SIGN({e('dec')})",
                lambda: f"LENGTH({e('str')})",
                lambda: f"CHAR_LENGTH({e('str')})",
                lambda: f"LOCATE({e('str')}, {e('str')})",
                lambda: f"({e()} {r.choice(['&', '|', '^'])} {e()})",
                lambda: f"YEAR({e('date')})",
                lambda: f"DATEDIFF({e('date')}, {e('date')})",
                lambda: f"FLOOR({e('dec')})",
                lambda: f"CEILING({e('dec')})",
                lambda: f"({self.predicate(tables, depth + 1)})",
            ])()
        if cls == "dec":
            return r.choice([
                lambda: f"({e()} {r.choice(['+', '-', '*'])} {e(r.choice(['dec', 'int']))})",
                lambda: f"({e()} / {e(r.choice(['dec', 'int']))})",
                lambda: f"ROUND({e()}, {r.randint(-1, 3)})",
                lambda: f"TRUNCATE({e()}, {r.randint(0, 2)})",
                lambda: f"ABS({e()})",
                lambda: f"({e('int')} / {e('int')})",
            ])()
        if cls == "str":
            return r.choice([
                lambda: f"CONCAT({e()}, {e()})",
                lambda: f"UPPER({e()})",
                lambda: f"LOWER({e()})",
                lambda: f"SUBSTRING({e()}, {r.randint(-3, 4)}, {r.randint(0, 4)})",
                lambda: f"TRIM({e()})",
                lambda: f"LPAD({e()}, {r.randint(0, 6)}, 'x')",
                lambda: f"REPLACE({e()}, {self.literal('str')}, {self.literal('str')})",
                lambda: f"CONCAT_WS('-', {e()}, {e()})",
                lambda: f"LEFT({e()}, {r.randint(0, 3)})",
                lambda: f"REVERSE({e()})",
                lambda: f"CAST({e('int')} AS CHAR)",
                lambda: f"CAST({e('dec')} AS CHAR)",
                lambda: f"DATE_FORMAT({e('date')}, '%Y-%m-%d %H')",
            ])()
        return r.choice([
            lambda: f"DATE_ADD({e()}, INTERVAL {r.randint(-40, 40)} {r.choice(['DAY', 'MONTH', 'YEAR', 'HOUR'])})",
            lambda: f"DATE({e()})",
            lambda: f"LAST_DAY({e()})",
        ])()

    def generic(self, tables: list[str], cls: str, depth: int) -> str:
        """Functions whose type is aggregated from their arguments (mixed on purpose)."""
        r = self.rng
        e = lambda c=cls: self.expr(tables, c, depth + 1)  # noqa: E731
        other = r.choice(["int", "dec", cls, cls])
        if cls == "date":
            other = cls
        return r.choice([
            lambda: f"COALESCE({e()}, {e(other)})",
            lambda: f"IFNULL({e()}, {e(other)})",
            lambda: f"IF({self.predicate(tables, depth + 1)}, {e()}, {e(other)})",
            lambda: f"CASE WHEN {self.predicate(tables, depth + 1)} THEN {e()} ELSE {e(other)} END",
            lambda: f"CASE {e()} WHEN {e()} THEN {e(other)} ELSE {e()} END",
            lambda: f"NULLIF({e()}, {e()})",
            lambda: f"GREATEST({e()}, {e()})",
            lambda: f"LEAST({e()}, {e()})",
        ])()

    def predicate(self, tables: list[str], depth: int = 0) -> str:
        r = self.rng
        cls = r.choice(["int", "int", "uint", "dec", "str", "str", "date"])
        e = lambda c=cls: self.expr(tables, c, depth + 1)  # noqa: E731
        if depth < 2 and r.random() < 0.25:
            op = r.choice(["AND", "OR", "XOR"])
            return f"({self.predicate(tables, depth + 1)} {op} {self.predicate(tables, depth + 1)})"
        return r.choice([
            lambda: f"{e()} {r.choice(['=', '<>', '<', '<=', '>', '>=', '<=>'])} {e()}",
            lambda: f"{e()} BETWEEN {e()} AND {e()}",
            lambda: f"{e()} IN ({', '.join(self.literal(cls) for _ in range(r.randint(1, 4)))})",
            lambda: f"{e()} IS {r.choice(['', 'NOT '])}NULL",
            lambda: f"{e('str')} LIKE {sql_text(r.choice(['a%', '%e', '_', '%', 'é%', '%s%', 'A_C']))}",
            lambda: f"NOT ({self.predicate(tables, depth + 1)})",
        ])()

    # ---- statements -----------------------------------------------------------
    def next(self) -> Statement:
        r = self.rng.random()
        if r < 0.12:
            return self.insert()
        if r < 0.20:
            return self.update()
        if r < 0.24:
            return self.delete()
        return self.select()

    def select_list(self, tables: list[str]) -> list[str]:
        n = self.rng.randint(1, 3)
        return [f"{self.expr(tables, self.rng.choice(['int', 'uint', 'dec', 'str', 'date']))} AS c{i}"
                for i in range(n)]

    def select(self) -> Statement:
        r = self.rng
        kind = r.random()
        if kind < 0.35:
            items = self.select_list(["t1"])
            return Statement(f"SELECT {', '.join(items)} FROM t1 WHERE {self.predicate(['t1'])}", False)
        if kind < 0.45:
            items = self.select_list(["t1"])
            return Statement(f"SELECT DISTINCT {', '.join(items)} FROM t1", False)
        if kind < 0.65:
            return self.group_by()
        if kind < 0.75:
            join = r.choice(["JOIN", "LEFT JOIN"])
            cond = r.choice(["t1.a = t2.a", "t1.s = t2.s", "t1.d = t2.d", "t1.id = t2.id - 1000"])
            items = self.select_list(["t1", "t2"])
            return Statement(f"SELECT {', '.join(items)} FROM t1 {join} t2 ON {cond}"
                             f" WHERE {self.predicate(['t1', 't2'])}", False)
        if kind < 0.83:
            sub = r.choice([
                f"t1.a IN (SELECT t2.a FROM t2 WHERE {self.predicate(['t2'])})",
                f"EXISTS (SELECT 1 FROM t2 WHERE t2.s = t1.s AND {self.predicate(['t2'])})",
                f"t1.d > (SELECT MIN(t2.d) FROM t2 WHERE {self.predicate(['t2'])})",
                f"t1.s NOT IN (SELECT t2.s FROM t2 WHERE t2.s IS NOT NULL AND {self.predicate(['t2'])})",
            ])
            items = self.select_list(["t1"])
            return Statement(f"SELECT {', '.join(items)} FROM t1 WHERE {sub}", False)
        if kind < 0.90:
            a = self.expr(["t1"], "str")
            b = self.expr(["t2"], "str")
            op = r.choice(["UNION", "UNION ALL"])
            return Statement(f"SELECT {a} AS c0 FROM t1 {op} SELECT {b} FROM t2", False)
        item = self.expr(["t1"], r.choice(["int", "dec", "str", "date"]))
        direction = r.choice(["", " DESC"])
        return Statement(f"SELECT id, {item} AS c0 FROM t1 WHERE {self.predicate(['t1'])}"
                         f" ORDER BY c0{direction}, id LIMIT {r.randint(1, 8)}", True)

    def group_by(self) -> Statement:
        r = self.rng
        key = r.choice(["a", "b", "s", "u", "dt", "d", "s, dt", f"{self.expr(['t1'], 'str')}",
                        f"{self.expr(['t1'], 'int')}"])
        aggs = r.sample([
            "COUNT(*)", "COUNT(s)", "COUNT(DISTINCT s)", "COUNT(DISTINCT u)", "SUM(a)", "SUM(d)",
            "AVG(a)", "AVG(d)", "MIN(s)", "MAX(u)", "MIN(dt)", "MAX(ts)", "SUM(b)", "MAX(c)",
            "GROUP_CONCAT(id ORDER BY id)", "BIT_OR(b)", f"SUM({self.expr(['t1'], 'dec')})",
            f"MAX({self.expr(['t1'], 'str')})",
        ], r.randint(1, 3))
        having = f" HAVING COUNT(*) > {r.randint(0, 2)}" if r.random() < 0.3 else ""
        where = f" WHERE {self.predicate(['t1'])}" if r.random() < 0.5 else ""
        keys = [k.strip() for k in key.split(",")] if "(" not in key else [key]
        cols = ", ".join(f"{k} AS k{i}" for i, k in enumerate(keys))
        return Statement(f"SELECT {cols}, {', '.join(aggs)} FROM t1{where}"
                         f" GROUP BY {', '.join(keys)}{having}", False)

    def row_values(self) -> str:
        if self.next_t1_id and self.rng.random() < 0.05:
            row_id = self.rng.randint(1, self.next_t1_id)  # a duplicate key
        else:
            self.next_t1_id += 1
            row_id = self.next_t1_id
        vals = [self.literal(c) for c in ("int", "uint", "int", "dec", "str", "str", "date", "date")]
        return f"({row_id}, " + ", ".join(vals) + ")"

    def insert(self) -> Statement:
        r = self.rng
        if r.random() < 0.3:
            self.next_t2_id += 1
            return Statement(f"INSERT INTO t2 VALUES ({self.next_t2_id}, {self.literal('int')},"
                             f" {self.literal('str')}, {self.literal('dec')})", False)
        rows = ", ".join(self.row_values() for _ in range(r.randint(1, 3)))
        ignore = " IGNORE" if r.random() < 0.2 else ""
        return Statement(f"INSERT{ignore} INTO t1 (id, a, b, c, d, s, u, dt, ts) VALUES {rows}", False)

    def update(self) -> Statement:
        col, cls = self.rng.choice([(c, k) for c, k in COLUMNS["t1"].items() if c != "id"])
        value = self.expr(["t1"], cls)
        return Statement(f"UPDATE t1 SET {col} = {value} WHERE {self.predicate(['t1'])}", False)

    def delete(self) -> Statement:
        # Narrow: one id, so the tables keep their rows.
        table = self.rng.choice(["t1", "t2"])
        row_id = self.rng.randint(1, self.next_t1_id) if table == "t1" else self.rng.randint(1001, self.next_t2_id)
        return Statement(f"DELETE FROM {table} WHERE id = {row_id} AND {self.predicate([table])}", False)

    def initial_rows(self) -> list[str]:
        """Statements that fill the tables before the random run starts."""
        # IGNORE: an out-of-range edge value is clipped instead of losing the row.
        out = [f"INSERT IGNORE INTO t1 (id, a, b, c, d, s, u, dt, ts) VALUES {self.row_values()}" for _ in range(30)]
        for _ in range(12):
            self.next_t2_id += 1
            out.append(f"INSERT IGNORE INTO t2 VALUES ({self.next_t2_id}, {self.literal('int')},"
                       f" {self.literal('str')}, {self.literal('dec')})")
        return out
