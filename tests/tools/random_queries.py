"""A seeded random-query differential campaign (issue 18, "Done when").

`randsql.Generator(seed)` generates SELECT / INSERT / UPDATE / DELETE over a
small schema (NULLs, unsigned and DECIMAL edges, non-ASCII text under two
collations, mixed types in CASE / COALESCE, GROUP BY / DISTINCT, joins,
subqueries); each statement runs against OneLog and against MariaDB 10.11 and
the outcomes (rows, column metadata, affected rows, warnings, error codes)
must be equal:

    .venv/bin/python tests/tools/random_queries.py --seeds 1-20 --count 5000

A difference names its seed and statement number; the same seed replays the
same statements, so `--seeds N --count K` reproduces it.

Not yet part of CI: the classes of differences it still finds are listed in
docs/random-queries.md, and it joins the suite (as a pytest that allows none)
once they are fixed.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import harness  # noqa: E402
from randsql import SCHEMA, Generator, Statement  # noqa: E402
from test_differential import Stmt, fmt, fresh_conn, run  # noqa: E402


def outcome(conn, sql: str, ordered: bool) -> dict:
    o = run(conn, Stmt("random", 0, sql, False))
    if isinstance(o.get("rows"), list) and not ordered:
        o["rows"] = sorted(o["rows"])
    return o


def difference_kind(a: dict, b: dict) -> str:
    """Which part of two outcomes differs, for the campaign's summary."""
    if a.get("error") != b.get("error"):
        return "error code"
    if {k: v for k, v in a.items() if k != "meta"} == {k: v for k, v in b.items() if k != "meta"}:
        return "metadata only"
    if a.get("rows") != b.get("rows") or a.get("affected") != b.get("affected"):
        return "values"
    return "warnings or ids"


def run_seed(onelog, mariadb, seed: int, count: int, kinds: Counter) -> tuple[int, list[str]]:
    """Runs `count` generated statements of `seed` on both servers (after the
    schema and its first rows, numbered from 1 - len(setup) to 0); returns
    (statements run, differences) and counts the differences by kind."""
    db = f"rand_{seed}"
    a, b = fresh_conn(onelog, db), fresh_conn(mariadb, db)
    gen = Generator(seed)
    diffs: list[str] = []
    try:
        setup = [Statement(sql, True) for sql in SCHEMA + gen.initial_rows()]
        for n, st in enumerate(setup + [gen.next() for _ in range(count)], 1 - len(setup)):
            oa, ob = outcome(a, st.sql, st.ordered), outcome(b, st.sql, st.ordered)
            if oa != ob:
                kinds[difference_kind(oa, ob)] += 1
                diffs.append(f"--- seed {seed} statement {n}: {st.sql}\n[onelog]\n{fmt(oa)}\n[mariadb]\n{fmt(ob)}")
    finally:
        a.close()
        b.close()
    return count, diffs


def main() -> int:
    ap = argparse.ArgumentParser(description="random-query differential campaign (outside CI)")
    ap.add_argument("--seeds", default="1-10", help="e.g. 1-20 or 3,7")
    ap.add_argument("--count", type=int, default=5000, help="statements per seed")
    ap.add_argument("--show", type=int, default=5, help="differences printed per seed")
    args = ap.parse_args()
    if "-" in args.seeds:
        lo, hi = map(int, args.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    base = Path(tempfile.mkdtemp(prefix="onelog-random-"))
    onelog = harness.make_server(harness.target_kind(), base / "onelog" / "data")
    mariadb = harness.make_server("mariadb", base / "mariadb" / "data", name="ref", log_bin=False)
    total = failed = 0
    kinds: Counter = Counter()
    try:
        onelog.start()
        mariadb.start()
        for seed in seeds:
            count, diffs = run_seed(onelog, mariadb, seed, args.count, kinds)
            total += count
            failed += len(diffs)
            print(f"seed {seed}: {count} statements, {len(diffs)} differences", flush=True)
            for d in diffs[:args.show]:
                print(d, flush=True)
    finally:
        onelog.cleanup()
        mariadb.cleanup()
    print(f"{total} statements, {failed} differences: "
          + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
