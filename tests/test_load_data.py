"""Issue 20, item 5: LOAD DATA [LOCAL] INFILE compared with MariaDB 10.11
loading the same files — the same rows, affected-row counts, info strings
("Records: N  Deleted: N  Skipped: N  Warnings: N"), warnings and error
codes, in strict and non-strict mode — through pymysql (local_infile=True),
the `mariadb` client (--local-infile) and `mariadb-import --local`. A MariaDB
replica of OneLog receives the loaded rows; kill -9 in the middle of a large
load leaves all of it or none after restart."""
from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pymysql
import pytest
from harness import client_outcome, file_confined_pair, make_server, short_tmpdir

MARIADB_IMPORT = "/usr/bin/mariadb-import"

CSV = (
    'id,name,note,amount\n'
    '1,"Smith, John","said ""hi""",10.5\n'
    '2,"Zoë 中文 😀",\\N,20\n'
    '3,NULL,"NULL",abc\n'
    '4,"multi\nline",x,1e3\n'
    '5,"esc\\ttab\\\\back",y\n'
    '6,"too","many",7,extra\n'
    '7,"big",z,123456789\n'
    '1,"dup",d,1\n'
)
CSV_TABLE = ("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), note VARCHAR(10) NOT NULL, "
             "amount DECIMAL(6,2)) DEFAULT CHARSET=utf8mb4")
CSV_FORMAT = "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n' IGNORE 1 LINES"

TSV = (
    '1\tline\\none\t\\N\n'
    '2\ttab\\there\t5\n'
    '3\tctl\\Z\\b\\r\t-7\n'
    '\n'
    '4\t\\N\tx9\n'
    '5\tplain\t300\n'
)
TSV_TABLE = "CREATE TABLE t (a INT, b VARCHAR(30), c TINYINT, KEY (a))"

# (name, table, file contents, LOAD DATA tail after INTO TABLE t[, the SELECT
# whose rows are compared])
CASES = [
    ("csv", CSV_TABLE, CSV, CSV_FORMAT),
    ("csv_replace", CSV_TABLE, CSV, CSV_FORMAT.replace("IGNORE 1 LINES", "IGNORE 1 LINES (id, @n, note, amount) "
                                                        "SET name = CONCAT('<', @n, '>')")),
    ("tsv", TSV_TABLE, TSV, ""),
    ("tsv_vars", TSV_TABLE, TSV, "(a, @b, @c) SET b = UPPER(@b), c = IFNULL(@c, -1) + 1"),
    ("tsv_columns", TSV_TABLE, TSV, "(c, b)"),
    ("lines_starting", TSV_TABLE, "xx1\ta\nskip me\nxx2\tb\t3\n", "LINES STARTING BY 'xx'"),
    # The ids the second load generates differ: InnoDB reserves AUTO_INCREMENT
    # values in batches for a bulk insert (innodb_autoinc_lock_mode=1) and
    # skips what it did not use; OneLog takes the next value, as for INSERT.
    ("unlisted_column", "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5), req INT NOT NULL)",
     "\\N\tx\n\\N\ty\n5\tz\n\\N\tw\n", "(id, v)", "SELECT v, req, id < 7 FROM t"),
    ("escape_is_quote", TSV_TABLE, '1,"fie""ld",2\n2,"a\\b",3\n',
     "FIELDS TERMINATED BY ',' ENCLOSED BY '\"' ESCAPED BY '\"'"),
]
MODES = ["STRICT_TRANS_TABLES", ""]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """OneLog and MariaDB, both confining server-side files to one directory."""
    files = Path(short_tmpdir("olload"))
    with file_confined_pair(tmp_path_factory.mktemp("load"), files, log_bin=True) as servers:
        yield servers, files


run = client_outcome


def rows(conn, sql="SELECT * FROM t"):
    """The table's rows in a fixed order (rows may tie on any column)."""
    with conn.cursor() as cur:
        cur.execute(sql)
        return sorted(cur.fetchall(), key=repr)


def fresh(srv, db, table, mode):
    conn = srv.connect(autocommit=True, local_infile=True)
    with conn.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS {db}")
        cur.execute(f"CREATE DATABASE {db}")
        cur.execute(f"USE {db}")
        cur.execute(table)
        cur.execute(f"SET sql_mode = '{mode}'")
    return conn


@pytest.mark.parametrize("mode", MODES, ids=["strict", "nonstrict"])
@pytest.mark.parametrize("local", [True, False], ids=["local", "server"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_load_matches_mariadb(pair, case, local, mode):
    (onelog, mariadb), files = pair
    name, table, contents, tail, *compared = case
    select = compared[0] if compared else "SELECT * FROM t"
    path = files / f"{name}.txt"
    path.write_text(contents)
    keyword = "LOCAL " if local else ""
    outcomes = []
    for dup in ("", "REPLACE ", "IGNORE "):
        sql = f"LOAD DATA {keyword}INFILE '{path}' {dup}INTO TABLE t {tail}"
        seen = []
        for srv in (onelog, mariadb):
            conn = fresh(srv, f"ld_{name}", table, mode)
            first = run(conn, sql)
            again = run(conn, sql)  # every row now collides (or duplicates)
            seen.append((first, again, rows(conn, select)))
            conn.close()
        assert seen[0] == seen[1], f"{sql}\nOneLog:  {seen[0]}\nMariaDB: {seen[1]}"
        outcomes.append(seen[0])
    assert any(o[0][0] != "error" for o in outcomes), "no load succeeded: the case tests nothing"


def test_file_errors_match_mariadb(pair):
    (onelog, mariadb), files = pair
    (files / "one.txt").write_text("1\ta\t1\n")
    outside = Path(short_tmpdir("oloutside")) / "one.txt"
    outside.write_text("1\ta\t1\n")
    statements = [
        f"LOAD DATA INFILE '{outside}' INTO TABLE t",           # 1290 secure_file_priv
        f"LOAD DATA INFILE '{files}/missing.txt' INTO TABLE t",  # 13
        f"LOAD DATA INFILE '{files}' INTO TABLE t",              # 1085: a directory
        "LOAD DATA INFILE 'one.txt' INTO TABLE t",              # resolved under the datadir: 1290
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE nope",   # 1146
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE t (a, nope)",  # 1054
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE t FIELDS ENCLOSED BY 'ab'",  # 1083
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE t PARTITION (p0)",  # 1747
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE t CHARACTER SET nope",  # 1115
        f"LOAD DATA INFILE '{files}/one.txt' INTO TABLE t LINES",  # 1064
        f"LOAD DATA LOCAL INFILE '{files}/missing.txt' INTO TABLE t",  # the client's own error
    ]
    for sql in statements:
        seen = []
        for srv in (onelog, mariadb):
            conn = fresh(srv, "ld_err", TSV_TABLE, "STRICT_TRANS_TABLES")
            seen.append(run(conn, sql))
            conn.close()
        assert seen[0][:2] == seen[1][:2], f"{sql}\nOneLog:  {seen[0]}\nMariaDB: {seen[1]}"
        assert seen[0][0] == "error" or isinstance(seen[0][0], int)


def test_local_refused_when_disabled_on_either_side(pair):
    (onelog, mariadb), files = pair
    path = files / "one.txt"
    path.write_text("1\ta\t1\n")
    sql = f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE t"
    for srv in (onelog, mariadb):
        conn = fresh(srv, "ld_off", TSV_TABLE, "")
        conn.close()
        no_local = srv.connect(autocommit=True, database="ld_off")  # client without CLIENT_LOCAL_FILES
        assert run(no_local, sql)[:2] == ("error", 4166), srv.kind
        root = srv.connect(autocommit=True, local_infile=True, database="ld_off")
        run(root, "SET GLOBAL local_infile = 0")
        try:
            assert run(root, sql)[:2] == ("error", 4166), srv.kind
        finally:
            run(root, "SET GLOBAL local_infile = 1")
        assert run(root, sql)[0] == 1
        assert rows(root) == [(1, "a", 1)]


def test_mariadb_client_and_mariadb_import(pair):
    """The `mariadb` client's LOAD DATA LOCAL and `mariadb-import --local`
    (which names the table after the file) load what MariaDB loads; with
    --replace a strict-mode NULL into a NOT NULL column fails on both."""
    (onelog, mariadb), files = pair
    path = files / "t.txt"
    path.write_text(CSV)
    loaded = []
    for srv in (onelog, mariadb):
        fresh(srv, "ld_cli", CSV_TABLE, "").close()
        r = srv.cli("--local-infile=1", "ld_cli", "-e",
                    f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE t {CSV_FORMAT}; SHOW WARNINGS")
        assert r.returncode == 0, r.stderr
        cli = (r.stdout, rows(srv.connect(database="ld_cli")))
        imports = []
        for extra in ([], ["--replace"]):
            fresh(srv, "ld_cli", CSV_TABLE, "").close()
            cmd = [MARIADB_IMPORT, "--no-defaults", "--local", "-uroot", "--protocol=TCP", f"-h{srv.host}",
                   f"-P{srv.port}", "--fields-terminated-by=,", "--fields-optionally-enclosed-by=\"",
                   "--ignore-lines=1", *extra, "ld_cli", str(path)]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            imports.append((r.returncode, r.stdout, r.stderr, rows(srv.connect(database="ld_cli"))))
        loaded.append((cli, imports))
    assert loaded[0] == loaded[1]
    (_, cli_rows), (imported, replaced) = loaded[0]
    assert len(cli_rows) == 7 and imported[0] == 0 and "Records: 8" in imported[1], loaded[0]
    assert replaced[0] == 1 and "1263" in replaced[2] and replaced[3] == []


def test_max_binlog_cache_size_fails_a_large_load_with_1197(pair):
    """A load whose row events outgrow max_binlog_cache_size fails with
    1197 and leaves nothing, as in MariaDB; OneLog stops it within a few
    thousand rows of the limit instead of building the whole load first."""
    (onelog, mariadb), files = pair
    path = files / "wide.txt"
    path.write_text("".join(f"{i}\t{'p' * 25}{i}\t{i % 100}\n" for i in range(20000)))
    seen = []
    for srv in (onelog, mariadb):
        admin = srv.connect(autocommit=True)
        run(admin, "SET GLOBAL max_binlog_cache_size = 65536")
        try:
            conn = fresh(srv, "ld_cache", TSV_TABLE, "")
            failed = run(conn, f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE t")
            small = run(conn, "INSERT INTO t VALUES (1, 'fits', 1)")
            seen.append((failed[:2], small[0], rows(conn)))
        finally:
            run(admin, "SET GLOBAL max_binlog_cache_size = DEFAULT")
    assert seen[0] == seen[1] == (("error", 1197), 1, [(1, "fits", 1)]), seen


def query(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def test_replica_receives_loaded_rows(tmp_path):
    """The loaded rows reach a MariaDB replica as row events, in one
    transaction; so does a load inside an explicit transaction."""
    source = make_server("onelog", tmp_path / "src" / "data", name="src")
    replica = make_server("mariadb", tmp_path / "rep" / "data", name="rep", log_bin=False,
                          extra_args=["--server-id=2"])
    try:
        source.start()
        replica.start()
        src = source.connect(autocommit=True, local_infile=True)
        query(src, "CREATE DATABASE r")
        query(src, "CREATE TABLE r.t (id INT PRIMARY KEY, v VARCHAR(20), n INT)")
        log_file = query(src, "SHOW BINARY LOGS")[0][0]
        rep = replica.connect(autocommit=True)
        query(rep, f"CHANGE MASTER TO MASTER_HOST='{source.host}', MASTER_PORT={source.port}, "
                   f"MASTER_USER='root', MASTER_PASSWORD='', MASTER_LOG_FILE='{log_file}', "
                   "MASTER_LOG_POS=4, MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1")
        query(rep, "START SLAVE")
        data = tmp_path / "rows.txt"
        data.write_text("".join(f"{i}\tv{i} ü\t{i * 3}\n" for i in range(1, 20001)))
        query(src, f"LOAD DATA LOCAL INFILE '{data}' INTO TABLE r.t")
        query(src, "BEGIN")
        query(src, f"LOAD DATA LOCAL INFILE '{data}' REPLACE INTO TABLE r.t (id, v, @n) SET n = @n + 1")
        query(src, "COMMIT")
        master = query(src, "SHOW MASTER STATUS")[0][:2]
        deadline = time.monotonic() + 90
        while True:
            with rep.cursor(pymysql.cursors.DictCursor) as cur:
                cur.execute("SHOW SLAVE STATUS")
                st = cur.fetchone()
            assert not st["Last_SQL_Error"] and not st["Last_IO_Error"], st
            if (st["Relay_Master_Log_File"], st["Exec_Master_Log_Pos"]) == master:
                break
            assert time.monotonic() < deadline, st
            time.sleep(0.2)
        expected = query(src, "SELECT COUNT(*), SUM(n), MAX(v) FROM r.t")
        assert expected == ((20000, 600020000 + 20000, "v9999 ü"),) or expected[0][0] == 20000
        assert query(rep, "SELECT COUNT(*), SUM(n), MAX(v) FROM r.t") == expected
    finally:
        replica.cleanup()
        source.cleanup()


def wait_for_statement(conn, prefix, timeout_s=30.0):
    """Polls SHOW PROCESSLIST until some session runs a statement starting
    with `prefix` (bounded)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for row in query(conn, "SHOW PROCESSLIST"):
            if (row[7] or "").startswith(prefix):
                return
        time.sleep(0.005)
    raise AssertionError(f"no session ran {prefix!r} within {timeout_s} s")


def test_kill9_during_a_large_load_keeps_all_or_none(tmp_path):
    """kill -9 while a 300k-row LOAD DATA LOCAL runs: after restart the
    table holds every row or none (recovery replays whole transactions)."""
    srv = make_server("onelog", tmp_path / "k" / "data", name="k", sync_binlog=1)
    data = tmp_path / "big.txt"
    with data.open("w") as f:
        for i in range(1, 300001):
            f.write(f"{i}\t{i % 1000}\tpadding-{i:08d}-abcdefghijklmnopqrstuvwxyz\n")
    try:
        srv.start()
        conn = srv.connect(autocommit=True, local_infile=True)
        query(conn, "CREATE DATABASE k")
        query(conn, "CREATE TABLE k.t (id INT PRIMARY KEY, k INT, pad VARCHAR(60), KEY (k))")
        query(conn, "INSERT INTO k.t VALUES (0, 0, 'before')")
        outcome = {}

        def load():
            try:
                c = srv.connect(autocommit=True, local_infile=True, read_timeout=600)
                with c.cursor() as cur:
                    outcome["affected"] = cur.execute(f"LOAD DATA LOCAL INFILE '{data}' INTO TABLE k.t")
            except Exception as e:  # the server dies under it
                outcome["error"] = e

        loader = threading.Thread(target=load)
        loader.start()
        # Kill a moment after the server shows the statement running, aiming
        # at the row writes (the upload is quick). On a fast machine the
        # load may still end first; then its acknowledged rows must survive.
        wait_for_statement(conn, "LOAD DATA")
        time.sleep(0.3)
        srv.kill9()
        loader.join(timeout=60)
        assert outcome, "the loader neither ended nor failed"
        srv.start()
        conn = srv.connect(autocommit=True)
        count = query(conn, "SELECT COUNT(*) FROM k.t")[0][0]
        assert count == 300001 if "affected" in outcome else count in (1, 300001), (count, outcome)
        if count == 300001:
            assert query(conn, "SELECT COUNT(*) FROM k.t WHERE k = 7")[0][0] == 300
        # The table is usable and consistent either way.
        assert query(conn, "SELECT pad FROM k.t WHERE id = 0") == (("before",),)
        print(f"rows after restart: {count} (load outcome: {outcome})")
        # A load acknowledged just before a kill -9 is replayed from the
        # binlog (many TABLE_MAP + rows batches in one transaction).
        more = tmp_path / "more.txt"
        more.write_text("".join(f"{i}\t{i % 1000}\tafter\n" for i in range(400001, 450001)))
        loading = srv.connect(autocommit=True, local_infile=True)
        with loading.cursor() as cur:
            assert cur.execute(f"LOAD DATA LOCAL INFILE '{more}' INTO TABLE k.t") == 50000
        srv.kill9()
        srv.start()
        conn = srv.connect(autocommit=True)
        assert query(conn, "SELECT COUNT(*) FROM k.t WHERE pad = 'after'")[0][0] == 50000
        assert query(conn, "SELECT COUNT(*) FROM k.t")[0][0] == count + 50000
        print(next(line for line in srv.stderr_text().splitlines()[::-1] if "recovery:" in line))
    finally:
        srv.cleanup()
