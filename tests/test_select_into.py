"""SELECT ... INTO OUTFILE / DUMPFILE compared with MariaDB 10.11 writing the
same rows: the files' bytes, affected-row counts, warnings and error codes
(file exists, secure_file_priv, FILE privilege, bad options); a file
OneLog writes loads back with LOAD DATA into the same rows. INTO @var is in
the differential corpus (85_select_into.sql)."""
from __future__ import annotations

from pathlib import Path

import pytest
from harness import client_outcome, file_confined_pair, short_tmpdir

TABLE = ("CREATE TABLE t (i INT, d DECIMAL(6,2), f DOUBLE, s VARCHAR(30), l VARCHAR(10) CHARACTER SET latin1, "
         "dt DATETIME(3), n INT, b VARBINARY(5), e ENUM('x','y'), bt BIT(4))")
ROWS = ("INSERT INTO t VALUES (1, 2.5, 1.25, 'a\\tb\\nc\\\\d\"e,f''g', 'café', '2024-01-02 03:04:05.123', "
        "NULL, 0x00410a, 'y', b'101'), (-2, NULL, 1e20, '', 'x', NULL, 7, '', NULL, NULL), "
        "(3, -0.5, -2, 'Zoë 中文 😀', NULL, '1999-12-31 23:59:59', 0, 'z', 'x', b'1111')")

# The INTO clause after `SELECT <items> FROM t ORDER BY i` ({file} is the
# file's path), and the items.
EXPORTS = [
    ("default", "*", "INTO OUTFILE '{file}'"),
    ("csv", "*", "INTO OUTFILE '{file}' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' "
                 "LINES TERMINATED BY '\\r\\n'"),
    ("enclosed_no_escape", "*", "INTO OUTFILE '{file}' FIELDS TERMINATED BY ',' ENCLOSED BY '''' ESCAPED BY '' "
                                "LINES STARTING BY '>' TERMINATED BY '|'"),
    ("escape_is_quote", "s, n", "INTO OUTFILE '{file}' FIELDS ENCLOSED BY '\"' ESCAPED BY '\"'"),
    ("terminator_is_letter", "i, s", "INTO OUTFILE '{file}' FIELDS TERMINATED BY 'n'"),
    ("no_line_terminator", "i, s", "INTO OUTFILE '{file}' FIELDS TERMINATED BY ';' LINES TERMINATED BY ''"),
    ("charset_latin1", "l, s", "INTO OUTFILE '{file}' CHARACTER SET latin1"),
    ("charset_utf8mb4", "l, s", "INTO OUTFILE '{file}' CHARACTER SET utf8mb4"),
    ("no_rows", "* FROM t WHERE i > 99 --", "INTO OUTFILE '{file}'"),
    ("dumpfile_one_row", "s, b, n, bt FROM t WHERE i = 1 --", "INTO DUMPFILE '{file}'"),
    ("dumpfile_two_rows", "i, l FROM t WHERE i < 3 --", "INTO DUMPFILE '{file}'"),
    ("dumpfile_three_rows", "i", "INTO DUMPFILE '{file}'"),
]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """OneLog and MariaDB, both confining server-side files to one directory,
    each with table si.t."""
    files = Path(short_tmpdir("olinto"))
    files.chmod(0o777)
    with file_confined_pair(tmp_path_factory.mktemp("into"), files) as servers:
        for srv in servers:
            conn = srv.connect(autocommit=True)
            with conn.cursor() as cur:
                cur.execute("CREATE DATABASE si")
                cur.execute("USE si")
                cur.execute(TABLE)
                cur.execute(ROWS)
            conn.close()
        yield servers, files


def run(conn, sql):
    """What a client sees of `sql`: (affected, warnings) or the error."""
    affected, *rest = client_outcome(conn, sql)
    return (affected, *rest) if affected == "error" else (affected, rest[1])


def select_sql(items: str, into: str, file: Path) -> str:
    query = f"SELECT {items}" if "--" in items else f"SELECT {items} FROM t ORDER BY i"
    return f"{query.replace('--', '')} {into.format(file=file)}"


@pytest.mark.parametrize("case", EXPORTS, ids=[c[0] for c in EXPORTS])
def test_file_matches_mariadb(pair, case):
    (onelog, mariadb), files = pair
    name, items, into = case
    seen = []
    for srv in (onelog, mariadb):
        file = files / f"{name}.{srv.kind}"
        conn = srv.connect(autocommit=True, database="si")
        outcome = run(conn, select_sql(items, into, file))
        conn.close()
        written = file.read_bytes() if file.exists() else None
        seen.append((outcome[:2] if outcome[0] == "error" else outcome, written))
    assert seen[0] == seen[1], f"{name}\nOneLog:  {seen[0]}\nMariaDB: {seen[1]}"


def test_errors_match_mariadb(pair):
    (onelog, mariadb), files = pair
    (files / "exists.txt").write_text("x")
    outside = Path(short_tmpdir("olintoout")) / "x.txt"
    statements = [
        f"SELECT 1 INTO OUTFILE '{files}/exists.txt'",                          # 1086
        f"SELECT 1 INTO DUMPFILE '{files}/exists.txt'",                         # 1086
        f"SELECT 1 INTO OUTFILE '{outside}'",                                   # 1290 secure_file_priv
        "SELECT 1 INTO OUTFILE 'relative.txt'",                                 # under the datadir: 1290
        f"SELECT 1 INTO OUTFILE '{files}/cs.txt' CHARACTER SET nope",           # 1115
        f"SELECT 1 INTO OUTFILE '{files}/enc.txt' FIELDS ENCLOSED BY 'ab'",     # 1083
        f"SELECT 1 INTO OUTFILE '{files}/u.txt' UNION SELECT 2",                # 1064
        f"SELECT * FROM (SELECT 1 INTO OUTFILE '{files}/d.txt') d",             # 1064
        f"SELECT nope FROM t INTO OUTFILE '{files}/nope.txt'",                  # 1054
    ]
    for sql in statements:
        seen = []
        for srv in (onelog, mariadb):
            conn = srv.connect(autocommit=True, database="si")
            seen.append(run(conn, sql)[:2])
            conn.close()
        assert seen[0] == seen[1], f"{sql}\nOneLog:  {seen[0]}\nMariaDB: {seen[1]}"
        assert seen[0][0] == "error", sql


def test_file_privilege_is_needed(pair):
    (onelog, mariadb), files = pair
    seen = []
    for srv in (onelog, mariadb):
        root = srv.connect(autocommit=True)
        with root.cursor() as cur:
            cur.execute("CREATE USER IF NOT EXISTS 'nofile'@'%' IDENTIFIED BY 'pw'")
            cur.execute("GRANT SELECT ON si.* TO 'nofile'@'%'")
        root.close()
        user = srv.connect(autocommit=True, user="nofile", password="pw", database="si")
        seen.append((run(user, f"SELECT i FROM t INTO OUTFILE '{files}/priv.{srv.kind}'")[:2],
                     run(user, "SELECT i INTO @v FROM t WHERE i = 1")))
        user.close()
    assert seen[0] == seen[1], f"OneLog:  {seen[0]}\nMariaDB: {seen[1]}"
    assert seen[0][0] == ("error", 1227)
    assert seen[0][1] == (1, ())


def test_outfile_loads_back(pair):
    """What OneLog writes, LOAD DATA reads back into the same rows, with
    the default format and a CSV one."""
    (onelog, _), files = pair
    conn = onelog.connect(autocommit=True, database="si")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM t ORDER BY i")
        original = cur.fetchall()
        for n, fmt in enumerate(["", "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"]):
            file = files / f"roundtrip{n}.txt"
            cur.execute(f"SELECT * FROM t INTO OUTFILE '{file}' {fmt}")
            cur.execute("CREATE OR REPLACE TABLE back LIKE t")
            cur.execute(f"LOAD DATA INFILE '{file}' INTO TABLE back {fmt}")
            cur.execute("SELECT * FROM back ORDER BY i")
            assert cur.fetchall() == original, fmt
    conn.close()


def test_load_file_matches_mariadb(pair):
    """LOAD_FILE() reads a server file as bytes; NULL for a missing one, one
    outside secure_file_priv, and for an account without FILE."""
    (onelog, mariadb), files = pair
    (files / "lf.bin").write_bytes(b"a\tb\x00\xff\n")
    outside = Path(short_tmpdir("olintolf")) / "x.txt"
    outside.write_text("x")
    query = (f"SELECT HEX(LOAD_FILE('{files}/lf.bin')), LOAD_FILE('{files}/missing'), "
             f"LOAD_FILE('{outside}'), LOAD_FILE(NULL), LENGTH(LOAD_FILE('{files}/lf.bin'))")
    seen = []
    for srv in (onelog, mariadb):
        root = srv.connect(autocommit=True)
        with root.cursor() as cur:
            cur.execute(query)
            as_root = cur.fetchall()
            cur.execute("CREATE USER IF NOT EXISTS 'nolf'@'%' IDENTIFIED BY 'pw'")
        root.close()
        user = srv.connect(autocommit=True, user="nolf", password="pw")
        with user.cursor() as cur:
            cur.execute(f"SELECT LOAD_FILE('{files}/lf.bin')")
            seen.append((as_root, cur.fetchall()))
        user.close()
    assert seen[0] == seen[1], f"OneLog:  {seen[0]}\nMariaDB: {seen[1]}"
    assert seen[0] == ((("61096200FF0A", None, None, None, 6),), ((None,),))
