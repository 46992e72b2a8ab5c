"""Issue 18, "Done when": a seeded random-query differential test. The
statements tests/random_queries.py generates for each seed run against
OneLog and MariaDB 10.11 side by side, compared as tests/test_differential.py
compares its corpus (rows, column metadata, affected rows, insert ids,
warnings, error codes); after every INSERT / UPDATE / DELETE both servers'
tables are compared whole. Any difference fails, named by seed, statement
number and statement text; the same seed replays the same statements.

CI runs SEEDS with STATEMENTS statements each. The long campaign outside CI:

    ONELOG_RANDOM_SEEDS=1-20 ONELOG_RANDOM_STATEMENTS=5000 .venv/bin/pytest -q tests/test_random_queries.py

(ONELOG_RANDOM_SEEDS takes `N`, `N-M` or `N,M,...`.)
"""
from __future__ import annotations

import os
import time

import pytest

from random_queries import SCHEMA, TABLES, Generator, Statement
from test_differential import Stmt, fmt, fresh_conn, run

STATEMENTS = int(os.environ.get("ONELOG_RANDOM_STATEMENTS", "5000"))
DIFFERENCES_SHOWN = int(os.environ.get("ONELOG_RANDOM_SHOW", "10"))


def seeds() -> list[int]:
    spec = os.environ.get("ONELOG_RANDOM_SEEDS", "1,2")
    if "-" in spec:
        lo, hi = map(int, spec.split("-"))
        return list(range(lo, hi + 1))
    return [int(s) for s in spec.split(",")]


def outcome(conn, st: Statement) -> dict:
    o = run(conn, Stmt("random", 0, st.sql, False))
    if isinstance(o.get("rows"), list) and not st.ordered:
        o["rows"] = sorted(o["rows"])
    if not st.compare_meta:
        o.pop("meta", None)
    return o


def table_contents(conn) -> dict:
    return {t: outcome(conn, Statement(f"SELECT * FROM {t} ORDER BY id", True)) for t in TABLES}


def run_seed(onelog, mariadb, seed: int, count: int) -> list[str]:
    """Runs the schema, the first rows and `count` generated statements of
    `seed` on both servers (numbered from 1 - len(setup) to `count`);
    returns the differences. A difference in table contents ends the run:
    every later statement would differ because of it."""
    db = f"rand_{seed}"
    a, b = fresh_conn(onelog, db), fresh_conn(mariadb, db)
    gen = Generator(seed)
    diffs: list[str] = []
    try:
        setup = [Statement(sql, True, True) for sql in SCHEMA + gen.initial_rows()]
        for n, st in enumerate(setup + [gen.next() for _ in range(count)], 1 - len(setup)):
            oa, ob = outcome(a, st), outcome(b, st)
            if oa != ob:
                diffs.append(f"--- seed {seed} statement {n}: {st.sql}\n[onelog]\n{fmt(oa)}\n[mariadb]\n{fmt(ob)}")
            if st.changes_rows and n > 0:
                ta, tb = table_contents(a), table_contents(b)
                if ta != tb:
                    diffs.append(f"--- seed {seed} statement {n}: the tables differ after {st.sql}\n"
                                 + "\n".join(f"[onelog {t}]\n{fmt(ta[t])}\n[mariadb {t}]\n{fmt(tb[t])}"
                                             for t in TABLES if ta[t] != tb[t]))
                    break
    finally:
        a.close()
        b.close()
    return diffs


@pytest.mark.parametrize("seed", seeds())
def test_random_queries(onelog_server_module, mariadb_server, seed):
    started = time.monotonic()
    diffs = run_seed(onelog_server_module, mariadb_server, seed, STATEMENTS)
    print(f"seed {seed}: {STATEMENTS} statements in {time.monotonic() - started:.1f} s, {len(diffs)} differences")
    if diffs:
        pytest.fail(f"seed {seed}: {len(diffs)} of {STATEMENTS} statements differ:\n\n"
                    + "\n\n".join(diffs[:DIFFERENCES_SHOWN]), pytrace=False)
