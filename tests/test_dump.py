"""Backups with mariadb-dump and point-in-time recovery from OneLog's binlog.

`mariadb-dump --single-transaction --master-data=2 --gtid` asks the server for
a consistent snapshot and the binlog position it reflects (START TRANSACTION
WITH CONSISTENT SNAPSHOT, SHOW STATUS LIKE 'binlog_snapshot_%',
BINLOG_GTID_POS), as it does of MariaDB, without a global read lock; without
--single-transaction it holds FLUSH TABLES WITH READ LOCK instead. The test
dumps either way while writers commit, restores the dump into a fresh MariaDB 10.11 and
replays OneLog's binlog from the recorded position with `mariadb-binlog
--start-position | mariadb`: the result must equal the source's tables
exactly — a snapshot one transaction off in either direction loses a row or
applies one twice. The dump also restores into OneLog itself, transactionally
consistent. The database has views (one over another), dumped and restored with
its tables."""
from __future__ import annotations

import re
import subprocess
import threading
import time

import pymysql
import pytest

from binlog_util import diff_dumps, replay, table_dump

WRITERS = 4
MARIADB_DUMP = "/usr/bin/mariadb-dump"
# How mariadb-dump makes its snapshot match its binlog position: a
# consistent-snapshot transaction, or FLUSH TABLES WITH READ LOCK for the
# whole dump (--master-data without --single-transaction).
MODES = {"consistent snapshot": ["--single-transaction"], "global read lock": []}


def writer(srv, w: int, stop: threading.Event, errors: list):
    c = srv.connect(database="pitr", autocommit=True)
    n = 0
    try:
        while not stop.is_set():
            n += 1
            with c.cursor() as cur:
                cur.execute("BEGIN")
                cur.execute("INSERT INTO events (writer, n, note) VALUES (%s, %s, %s)", (w, n, f"w{w}-{n}-é"))
                cur.execute("UPDATE counters SET total = total + 1, last_n = %s WHERE writer = %s", (n, w))
                cur.execute("COMMIT")
    except pymysql.err.MySQLError as e:
        errors.append(e)
    finally:
        c.close()


def dump(srv, mode: str) -> tuple[str, str, int, str]:
    """Runs mariadb-dump; returns the dump and the binlog file, position and
    GTID position it recorded."""
    cmd = [MARIADB_DUMP, "--no-defaults", f"-h{srv.host}", f"-P{srv.port}", "-uroot",
           *MODES[mode], "--master-data=2", "--gtid", "--databases", "pitr"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"mariadb-dump failed ({r.returncode}): {r.stderr}"
    at = re.search(r"CHANGE MASTER TO MASTER_LOG_FILE='([^']+)', MASTER_LOG_POS=(\d+);", r.stdout)
    gtid = re.search(r"SET GLOBAL gtid_slave_pos='([^']*)';", r.stdout)
    assert at and gtid, f"no binlog coordinates in the dump:\n{r.stdout[:3000]}"
    return r.stdout, at.group(1), int(at.group(2)), gtid.group(1)


def load(target, sql: str):
    r = subprocess.run(target.cli_base(), input=sql, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"restoring the dump into {target} failed: {r.stderr}"


def last_gtid_before(srv, file: str, position: int) -> str:
    c = srv.connect(autocommit=True)
    try:
        with c.cursor() as cur:
            cur.execute(f"SHOW BINLOG EVENTS IN '{file}'")
            gtids = [re.search(r"GTID (\S+)", r[5]).group(1) for r in cur.fetchall()
                     if r[2] == "Gtid" and r[1] < position]
    finally:
        c.close()
    return gtids[-1] if gtids else ""


def create_tables(c):
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE pitr")
        cur.execute("CREATE TABLE pitr.events (id BIGINT PRIMARY KEY AUTO_INCREMENT, writer INT NOT NULL, "
                    "n INT NOT NULL, note VARCHAR(40), UNIQUE KEY wn (writer, n))")
        cur.execute("CREATE TABLE pitr.counters (writer INT PRIMARY KEY, total INT NOT NULL, last_n INT)")
        cur.executemany("INSERT INTO pitr.counters VALUES (%s, 0, NULL)", [(w,) for w in range(WRITERS)])
        # Views are dumped as placeholders first, then defined after every
        # table (table_dump reads them with the tables).
        cur.execute("CREATE VIEW pitr.per_writer AS SELECT writer, COUNT(*) AS n FROM pitr.events GROUP BY writer")
        cur.execute("CREATE VIEW pitr.busy AS SELECT p.writer FROM pitr.per_writer p WHERE p.n > 10")


def start_writers(srv):
    """Starts the writers; returns what stops them and gives their errors."""
    stop, errors = threading.Event(), []
    threads = [threading.Thread(target=writer, args=(srv, w, stop, errors)) for w in range(WRITERS)]
    for t in threads:
        t.start()

    def stop_writers() -> list:
        stop.set()
        for t in threads:
            t.join(30)
        return errors
    return stop_writers


def assert_consistent(srv):
    """The dump is one consistent state: each writer's counter matches its rows."""
    conn = srv.connect(database="pitr", autocommit=True)
    with conn.cursor() as cur:
        cur.execute("SELECT c.writer, c.total, COUNT(e.id), c.last_n, MAX(e.n) FROM counters c "
                    "LEFT JOIN events e ON e.writer = c.writer GROUP BY c.writer, c.total, c.last_n")
        for writer_id, total, rows, last_n, max_n in cur.fetchall():
            assert (total, last_n) == (rows, max_n), f"writer {writer_id}: counter {total}/{last_n}, rows {rows}/{max_n}"
    conn.close()


@pytest.mark.parametrize("mode", MODES)
def test_dump_during_writes_plus_binlog_replay_is_the_source(server_factory, mode):
    src = server_factory(log_bin=True, sync_binlog=1, name="src")
    c = src.connect(autocommit=True)
    create_tables(c)
    stop_writers = start_writers(src)
    try:
        time.sleep(0.5)
        with c.cursor() as cur:
            cur.execute("FLUSH BINARY LOGS")
        time.sleep(0.3)
        dumped, file, position, gtid_pos = dump(src, mode)
        time.sleep(0.3)
        with c.cursor() as cur:
            cur.execute("FLUSH BINARY LOGS")
        time.sleep(0.5)
    finally:
        errors = stop_writers()
    assert not errors, errors
    # The GTID position mariadb-dump recorded is the last transaction
    # before the recorded binlog position.
    assert gtid_pos == last_gtid_before(src, file, position)
    expected = table_dump(src, "pitr")
    assert len(expected["events"][1]) > 50, "the writers hardly ran"
    c.close()
    src.stop()  # trims the live binlog file, so mariadb-binlog reads it to its end

    # Point-in-time recovery in MariaDB: the dump, then the binlog from its position.
    target = server_factory(kind="mariadb", log_bin=False, name="pitr_target")
    load(target, dumped)
    restored = table_dump(target, "pitr")
    assert len(restored["events"][1]) < len(expected["events"][1]), "the dump was not taken during the writes"
    files = [f for f in src.binlog_files() if f.name >= file]
    assert len(files) >= 2
    replay(files, target, start_position=position)
    d = diff_dumps(expected, table_dump(target, "pitr"), "source", "dump + binlog")
    assert not d, f"dump at {file}:{position} plus the binlog after it is not the source:\n{d}"

    # The dump restores into OneLog too (its LOCK TABLES ... WRITE around
    # each table's rows included), and is one consistent snapshot.
    copy = server_factory(name="copy")
    load(copy, dumped)
    assert table_dump(copy, "pitr") == restored
    assert_consistent(copy)


def test_dump_under_lock_tables_is_consistent(server_factory):
    """mariadb-dump's default for a database (--lock-tables, no binlog
    coordinates) reads its tables under LOCK TABLES ... READ LOCAL: the
    writers wait, so the tables it dumps one after the other agree."""
    src = server_factory(name="src")
    c = src.connect(autocommit=True)
    create_tables(c)
    stop_writers = start_writers(src)
    try:
        time.sleep(0.5)
        cmd = [MARIADB_DUMP, "--no-defaults", f"-h{src.host}", f"-P{src.port}", "-uroot", "--lock-tables",
               "--databases", "pitr"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        time.sleep(0.3)
    finally:
        errors = stop_writers()
    assert not errors, errors
    assert r.returncode == 0, f"mariadb-dump failed ({r.returncode}): {r.stderr}"
    assert re.search(r"LOCK TABLES `events` WRITE", r.stdout)
    with c.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM pitr.events")
        written = cur.fetchone()[0]
    c.close()
    copy = server_factory(name="copy")
    load(copy, r.stdout)
    dumped_rows = len(table_dump(copy, "pitr")["events"][1])
    assert 0 < dumped_rows < written, f"the dump ({dumped_rows} rows) was not taken during the writes ({written})"
    assert_consistent(copy)


def test_consistent_snapshot_statements(onelog_server_module):
    """The pieces mariadb-dump relies on, one by one."""
    srv = onelog_server_module
    a = srv.connect(autocommit=True)
    b = srv.connect(autocommit=True)

    def rows(conn, sql):
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchall()

    rows(a, "CREATE DATABASE IF NOT EXISTS snap")
    rows(a, "CREATE TABLE snap.t (id INT PRIMARY KEY)")
    rows(a, "INSERT INTO snap.t VALUES (1)")
    status = dict(rows(a, "SHOW STATUS LIKE 'binlog_snapshot_%'"))
    master = rows(a, "SHOW MASTER STATUS")[0]
    gtid_then = rows(a, "SELECT @@gtid_binlog_pos")[0][0]
    assert (status["Binlog_snapshot_file"], int(status["Binlog_snapshot_position"])) == (master[0], master[1])
    rows(a, "START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */")
    rows(b, "INSERT INTO snap.t VALUES (2)")
    # The snapshot was taken at START, before the second row, and its
    # position stays put while the binlog moves on.
    assert rows(a, "SELECT id FROM snap.t") == ((1,),)
    assert dict(rows(a, "SHOW STATUS LIKE 'binlog_snapshot_%'")) == status
    assert rows(b, "SHOW MASTER STATUS")[0][1] > master[1]
    assert rows(a, f"SELECT BINLOG_GTID_POS('{master[0]}', {master[1]})") == ((gtid_then,),)
    rows(a, "COMMIT")
    assert rows(a, f"SELECT BINLOG_GTID_POS('{master[0]}', {master[1] + 1})") == ((None,),)
    assert rows(a, "SELECT BINLOG_GTID_POS('no-such-file.000009', 4)") == ((None,),)
    # Executable comments run by version, MariaDB-only ones too.
    rows(a, "/*!40101 SET @v1 = 1 */")
    rows(a, "/*M!100100 SET @v2 = 2 */")
    rows(a, "/*!110000 SET @v3 = 3 */")
    assert rows(a, "SELECT @v1, @v2, @v3") == ((1, 2, None),)
    assert rows(a, "SHOW CREATE DATABASE IF NOT EXISTS snap")[0][1].startswith(
        "CREATE DATABASE /*!32312 IF NOT EXISTS*/ `snap`")
    a.close()
    b.close()


def test_dump_of_generated_columns_round_trips(onelog_server_module, mariadb_server):
    """A database with generated columns (VIRTUAL, STORED, indexed) dumped
    by mariadb-dump restores into OneLog and into MariaDB 10.11 with the
    same definitions and rows: the dump lists every column's value and sets
    a non-strict sql_mode, so both servers ignore the generated ones with
    warning 1906 and compute them again."""
    src = onelog_server_module
    c = src.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE gdump")
        cur.execute("CREATE TABLE gdump.t (id INT PRIMARY KEY, a INT, v INT AS (a + 1) VIRTUAL, "
                    "s VARCHAR(12) AS (concat('s', a)) STORED, w INT AS (v * 2) PERSISTENT, UNIQUE KEY (w), KEY (v))")
        cur.execute("INSERT INTO gdump.t (id, a) VALUES (1, 1), (2, 2), (3, NULL)")
    cmd = [MARIADB_DUMP, "--no-defaults", f"-h{src.host}", f"-P{src.port}", "-uroot", "--databases", "gdump"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    expected = table_dump(src, "gdump")
    with c.cursor() as cur:
        cur.execute("SHOW CREATE TABLE gdump.t")
        create = cur.fetchone()
        cur.execute("DROP DATABASE gdump")
    for target in (src, mariadb_server):
        load(target, r.stdout)
        assert table_dump(target, "gdump") == expected, target
        t = target.connect(autocommit=True)
        with t.cursor() as cur:
            cur.execute("SHOW CREATE TABLE gdump.t")
            assert cur.fetchone() == create, target
            cur.execute("DROP DATABASE gdump")
