#!/usr/bin/env python3
"""Writes crates/sql/src/vars/mariadb_10_11.tsv: every system variable a stock
MariaDB 10.11 (`mariadbd --no-defaults`, the one the tests compare with)
shows in information_schema.SYSTEM_VARIABLES, with its scope, type, default,
range, value list, read-only flag and comment. crates/sql/src/vars.rs
includes the file; OneLog's own variables override their rows there.

    .venv/bin/python tests/tools/gen_variables.py

The last column, DEPRECATION, is not MariaDB's: it holds the warning 1287 a
SET of the variable gives (found by setting each writable variable to its
own value), `\\N` for none.

Tab-separated, one variable a line, sorted by name, `\\N` for NULL; tabs,
newlines and backslashes inside values are escaped as \\t, \\n, \\\\.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
import pymysql  # noqa: E402

OUT = HERE.parent / "crates/sql/src/vars/mariadb_10_11.tsv"
COLUMNS = ["VARIABLE_NAME", "VARIABLE_SCOPE", "VARIABLE_TYPE", "DEFAULT_VALUE", "NUMERIC_MIN_VALUE",
           "NUMERIC_MAX_VALUE", "NUMERIC_BLOCK_SIZE", "ENUM_VALUE_LIST", "READ_ONLY", "COMMAND_LINE_ARGUMENT",
           "VARIABLE_COMMENT"]
# Written after MariaDB's columns.
EXTRA_COLUMNS = ["DEPRECATION"]


def field(value) -> str:
    if value is None:
        return "\\N"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def deprecations(cur, rows) -> dict[str, str]:
    """Warning 1287 of each writable variable that gives one on SET."""
    found = {}
    for name, scope, read_only in ((r[0], r[1], r[8]) for r in rows):
        if read_only == "YES":
            continue
        which = "GLOBAL" if scope == "GLOBAL" else "SESSION"
        try:
            cur.execute(f"SET {which} {name} = @@{which}.{name}")
        except pymysql.MySQLError:
            pass  # a value that does not round-trip; the warning comes first
        cur.execute("SHOW WARNINGS")
        # A SET without warnings leaves the previous statement's in place.
        own = f"'@@{name.lower()}'"
        found.update((name.lower(), msg) for _, code, msg in cur.fetchall()
                     if code == 1287 and msg.lower().startswith(own))
    return found


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="onelog-genvars-") as d:
        server = harness.MariaDBServer(Path(d))
        server.start()
        try:
            conn = server.connect()
            with conn.cursor() as cur:
                cur.execute(f"SELECT {', '.join(COLUMNS)} FROM information_schema.SYSTEM_VARIABLES")
                rows = sorted(cur.fetchall(), key=lambda r: r[0].lower())
                cur.execute("SELECT VERSION()")
                version = cur.fetchone()[0]
                deprecated = deprecations(cur, rows)
            conn.close()
        finally:
            server.stop()
    lines = [f"# MariaDB {version} information_schema.SYSTEM_VARIABLES, by tests/tools/gen_variables.py",
             "# " + "\t".join(COLUMNS + EXTRA_COLUMNS)]
    # The throwaway server's own paths (datadir, pid file, socket) say
    # nothing about MariaDB's defaults: left empty, so reruns are identical.
    rows = [["" if isinstance(v, str) and d in v else v for v in row] + [deprecated.get(row[0].lower())]
            for row in rows]
    lines += ["\t".join(field(v) if i else field(v).lower() for i, v in enumerate(row)) for row in rows]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} variables -> {OUT}")


if __name__ == "__main__":
    main()
