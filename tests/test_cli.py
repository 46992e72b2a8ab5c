"""Issue 2, "Done when": the `mariadb` CLI connects over TCP and the Unix socket,
with and without a password, runs queries, SHOW commands and `status`."""
from __future__ import annotations

import os
import stat

import pytest

TRANSPORTS = [pytest.param(False, id="tcp"), pytest.param(True, id="socket")]


def ok(r):
    assert r.returncode == 0, f"mariadb CLI failed ({r.returncode}):\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r.stdout


@pytest.mark.parametrize("sock", TRANSPORTS)
def test_cli_query_no_password(onelog_server, sock):
    out = ok(onelog_server.cli("-e", "SELECT 1+1 AS two, 'x' AS s", socket=sock))
    assert out.splitlines() == ["two\ts", "2\tx"]


@pytest.mark.parametrize("sock", TRANSPORTS)
def test_cli_batch_ddl_dml_show(onelog_server, sock):
    script = """
CREATE DATABASE clidb;
USE clidb;
CREATE TABLE people (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40) NOT NULL, age INT);
INSERT INTO people (name, age) VALUES ('ann', 31), ('bob', NULL), ('cy', 7);
UPDATE people SET age = age + 1 WHERE name = 'cy';
SELECT id, name, age FROM people ORDER BY id;
SHOW TABLES;
"""
    out = ok(onelog_server.cli(input=script, socket=sock))
    lines = out.splitlines()
    assert lines[:4] == ["id\tname\tage", "1\tann\t31", "2\tbob\tNULL", "3\tcy\t8"], out
    assert lines[4:] == ["Tables_in_clidb", "people"], out

    out = ok(onelog_server.cli("-e", "SHOW DATABASES", socket=sock))
    dbs = out.splitlines()
    assert dbs[0] == "Database"
    assert "clidb" in dbs[1:] and "information_schema" in dbs[1:], out

    out = ok(onelog_server.cli("clidb", "-e", "SHOW TABLES", socket=sock))
    assert out.splitlines() == ["Tables_in_clidb", "people"]

    out = ok(onelog_server.cli("clidb", "-e", "SHOW COLUMNS FROM people", socket=sock))
    rows = [l.split("\t") for l in out.splitlines()]
    assert rows[0][:2] == ["Field", "Type"]
    assert [r[0] for r in rows[1:]] == ["id", "name", "age"]

    # table format (-t) is what an interactive user sees
    out = ok(onelog_server.cli("-t", "clidb", "-e", "SELECT name FROM people WHERE age IS NULL", socket=sock))
    assert "| name |" in out and "| bob  |" in out, out


@pytest.mark.parametrize("sock", TRANSPORTS)
def test_cli_status_shows_server_version(onelog_server, sock):
    c = onelog_server.connect()
    try:
        with c.cursor() as cur:
            cur.execute("SELECT VERSION()")
            version = cur.fetchone()[0]
    finally:
        c.close()
    if onelog_server.kind == "onelog":
        assert version.startswith("10.11.") and "OneLog" in version, version
    out = ok(onelog_server.cli("-e", "status", socket=sock))
    assert "Server version:" in out, out
    line = next(l for l in out.splitlines() if l.startswith("Server version:"))
    assert version in line, out
    assert ("via TCP/IP" in out) != sock, out
    if sock:
        assert "UNIX socket" in out, out


@pytest.mark.parametrize("sock", TRANSPORTS)
def test_cli_error_reports_code(onelog_server, sock):
    r = onelog_server.cli("-e", "SELECT * FROM no_such_db.no_such_table", socket=sock)
    assert r.returncode != 0
    assert "ERROR 1146 (42S02)" in r.stderr or "ERROR 1049 (42000)" in r.stderr, r.stderr
    r = onelog_server.cli("-e", "SELEC 1", socket=sock)
    assert r.returncode != 0 and "ERROR 1064 (42000)" in r.stderr, r.stderr


def test_cli_with_initial_root_password(server_factory):
    """A first start without --initialize-insecure writes a random root password
    to <datadir>/initial-root-password (mode 0600); the CLI logs in with it over
    TCP and the socket, and a wrong or missing password gets ERROR 1045 (28000)."""
    srv = server_factory(insecure=False)
    pwfile = srv.datadir / "initial-root-password"
    assert pwfile.exists(), f"no {pwfile}; stderr:\n{srv.stderr_tail()}"
    mode = stat.S_IMODE(os.stat(pwfile).st_mode)
    assert mode == 0o600, oct(mode)
    pw = pwfile.read_text().strip()
    assert len(pw) >= 8, "password too short"
    if srv.kind == "onelog":
        assert srv.stderr_text().count(pw) == 1, "the password must be printed once on first start"

    for sock in (False, True):
        out = ok(srv.cli("-e", "SELECT CURRENT_USER()", socket=sock, password=pw))
        assert out.splitlines()[1] == "root@localhost", out

        r = srv.cli("-e", "SELECT 1", socket=sock, password=pw + "x")
        assert r.returncode != 0
        assert "ERROR 1045 (28000)" in r.stderr, r.stderr

        r = srv.cli("-e", "SELECT 1", socket=sock, password="")
        assert r.returncode != 0
        assert "ERROR 1045 (28000)" in r.stderr, r.stderr

    # the password survives a restart (it is not regenerated)
    srv.restart()
    assert pwfile.read_text().strip() == pw
    ok(srv.cli("-e", "SELECT 1", password=pw))
    if srv.kind == "onelog":
        assert pw not in srv.stderr_text(), "password printed again on a later start"


def test_cli_wrong_password_insecure_server(onelog_server):
    """root has an empty password: a non-empty one is wrong."""
    r = onelog_server.cli("-e", "SELECT 1", password="definitely-wrong")
    assert r.returncode != 0
    assert "ERROR 1045 (28000)" in r.stderr, r.stderr
    r = onelog_server.cli("-e", "SELECT 1", user="nosuchuser", password="")
    assert r.returncode != 0
    assert "ERROR 1045 (28000)" in r.stderr, r.stderr
