"""SHOW statements send integer columns as integers, as MariaDB 10.11 does:
clients read a binlog File_size or Position, a warning Code or a process Id
as a number (and KILL that Id). The differential corpus compares the text of
results only; this compares what pymysql decodes from each column's type,
OneLog against MariaDB, both with the binlog on."""
from __future__ import annotations

import pytest
from harness import make_server

STATEMENTS = [
    "SHOW BINARY LOGS",
    "SHOW MASTER STATUS",
    "SHOW BINLOG EVENTS LIMIT 2",
    "SHOW PROCESSLIST",
    "SHOW COLLATION LIKE 'utf8mb4_bin'",
    "SHOW CHARACTER SET LIKE 'utf8mb4'",
    "SHOW GLOBAL STATUS LIKE 'Uptime'",
    "SHOW VARIABLES LIKE 'port'",
]


def decoded_types(srv, sql):
    """Column name → Python type pymysql decodes, for the first row of `sql`
    (NULL values left out)."""
    c = srv.connect(autocommit=True)
    try:
        with c.cursor() as cur:
            cur.execute(sql)
            row = cur.fetchone()
            assert row is not None, f"{sql} returned no row on {srv}"
            return {d[0]: type(v).__name__ for d, v in zip(cur.description, row) if v is not None}
    finally:
        c.close()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    started = []
    for kind in ("onelog", "mariadb"):
        srv = make_server(kind, tmp_path_factory.mktemp(kind) / "data", name=f"types-{kind}", log_bin=True)
        started.append(srv)
        srv.start()
    yield started
    for srv in started:
        srv.cleanup()


@pytest.mark.parametrize("sql", STATEMENTS)
def test_show_column_types_match_mariadb(servers, sql):
    onelog, mariadb = servers
    got, want = decoded_types(onelog, sql), decoded_types(mariadb, sql)
    # MariaDB's SHOW PROCESSLIST has a Progress column OneLog does not.
    assert {k: v for k, v in want.items() if k in got} == got


def test_show_warnings_code_is_a_number(servers):
    for srv in servers:
        c = srv.connect(autocommit=True)
        with c.cursor() as cur:
            cur.execute("SELECT 1/0")
            cur.execute("SHOW WARNINGS")
            level, code, message = cur.fetchone()
            assert (level, code, message) == ("Warning", 1365, "Division by 0"), srv
        c.close()
