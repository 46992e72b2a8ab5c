"""Issue 20, item 5: large transactions. A transaction's binlog events past
`binlog_cache_size` go to an anonymous temporary file under `tmpdir` (as
MariaDB's binlog cache spills), and the commit pipeline copies them into the
binlog in parts. Checked here against real tools: the binlog of a spilled
transaction with savepoint and statement rollbacks replays through
`mariadb-binlog | mariadb` into MariaDB 10.11 to the same table, and after
kill -9 OneLog's own recovery rebuilds the same table from it.

(The 300k-row LOAD DATA in test_load_data.py kills the server while such a
transaction runs and commits: all or nothing.)"""
from __future__ import annotations

import os
import time

import pymysql
import pytest
from binlog_util import diff_dumps, replay, table_dump
from harness import make_server

ROW_PAD = "p" * 150


def query(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def values(ids, pad=ROW_PAD):
    return ",".join(f"({i}, {i % 97}, '{pad}-{i}')" for i in ids)


def spill_files(pid: int, tmpdir: str) -> list[int]:
    """Sizes of the deleted (anonymous) files under `tmpdir` the process
    holds open: where its binlog caches spilled."""
    sizes = []
    fd_dir = f"/proc/{pid}/fd"
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(f"{fd_dir}/{fd}")
        except OSError:
            continue  # closed meanwhile
        if target.startswith(tmpdir) and target.endswith("(deleted)"):
            try:
                sizes.append(os.stat(f"{fd_dir}/{fd}").st_size)
            except OSError:
                continue
    return sizes


def cache_status(conn) -> tuple[int, int]:
    """(Binlog_cache_use, Binlog_cache_disk_use)."""
    status = dict(query(conn, "SHOW GLOBAL STATUS LIKE 'Binlog_cache%'"))
    return int(status["Binlog_cache_use"]), int(status["Binlog_cache_disk_use"])


@pytest.fixture
def onelog(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    srv = make_server("onelog", tmp_path / "src" / "data", name="src", sync_binlog=1,
                      extra_args=[f"--tmpdir={tmpdir}"])
    srv.start()
    yield srv, str(tmpdir)
    srv.cleanup()


def test_events_past_binlog_cache_size_wait_on_disk_until_commit(onelog):
    srv, tmpdir = onelog
    conn = srv.connect(autocommit=True)
    query(conn, "CREATE DATABASE lt")
    query(conn, "CREATE TABLE lt.t (id INT PRIMARY KEY, k INT, pad VARCHAR(200))")
    query(conn, f"INSERT INTO lt.t VALUES {values(range(1, 20001))}")
    pid = srv.proc.pid
    assert spill_files(pid, tmpdir) == []
    before = cache_status(conn)
    query(conn, "BEGIN")
    query(conn, "UPDATE lt.t SET k = k + 1, pad = CONCAT('u', pad)")
    # Before and after images of 20,000 rows of ~170 bytes: several MB of
    # events, past the default binlog_cache_size (32 KiB).
    sizes = spill_files(pid, tmpdir)
    assert len(sizes) == 1 and sizes[0] > 4 << 20, sizes
    query(conn, "COMMIT")
    assert spill_files(pid, tmpdir) == []
    # As MariaDB counts them: every transaction that ends (commit or
    # rollback) with events, and those whose events went to disk.
    assert cache_status(conn) == (before[0] + 1, before[1] + 1)
    query(conn, "BEGIN")
    query(conn, "UPDATE lt.t SET k = k + 1 WHERE id = 1")
    query(conn, "ROLLBACK")
    query(conn, "BEGIN")
    query(conn, "SELECT * FROM lt.t WHERE id = 2")
    query(conn, "COMMIT")
    assert cache_status(conn) == (before[0] + 2, before[1] + 1)
    assert query(conn, "SELECT COUNT(*), SUM(k), MIN(LEFT(pad, 2)) FROM lt.t") == ((20000, sum(i % 97 for i in range(1, 20001)) + 20000, "up"),)


def test_spilled_transaction_with_rollbacks_replays_to_the_same_table(onelog, tmp_path):
    srv, tmpdir = onelog
    conn = srv.connect(autocommit=True)
    # The smallest cache MariaDB allows: nearly every event goes to the file.
    query(conn, "SET GLOBAL binlog_cache_size = 4096")
    query(conn, "CREATE DATABASE lt")
    query(conn, "CREATE TABLE lt.t (id INT PRIMARY KEY, k INT, pad VARCHAR(200), KEY (k))")
    query(conn, "BEGIN")
    query(conn, f"INSERT INTO lt.t VALUES {values(range(1, 3001))}")
    query(conn, "SAVEPOINT a")
    query(conn, "UPDATE lt.t SET k = k + 1000 WHERE id <= 2000")
    query(conn, "DELETE FROM lt.t WHERE id > 2500")
    # Back into events that are already in the file.
    query(conn, "ROLLBACK TO SAVEPOINT a")
    query(conn, "UPDATE lt.t SET pad = CONCAT(pad, '-u') WHERE id % 3 = 0")
    # A statement that fails after its first 4,096 rows were encoded (and
    # spilled): the statement's events are taken back, not the earlier ones.
    with pytest.raises(pymysql.err.IntegrityError) as failed:
        query(conn, f"INSERT INTO lt.t VALUES {values(range(10001, 16001))}, (7, 0, 'dup')")
    assert failed.value.args[0] == 1062
    query(conn, "DELETE FROM lt.t WHERE id BETWEEN 100 AND 199")
    query(conn, "COMMIT")
    query(conn, "SET GLOBAL binlog_cache_size = DEFAULT")
    expected = table_dump(srv, "lt")
    rows = expected["t"][1]
    assert len(rows) == 2900 and not any(int(r[0]) > 3000 for r in rows)
    assert sum(r[2].endswith("-u") for r in rows) == 967 and all(int(r[1]) < 97 for r in rows)

    # Closes the file: the open one is preallocated past its last event
    # (mariadb-binlog reads closed files only here).
    query(conn, "FLUSH BINARY LOGS")
    mariadb = make_server("mariadb", tmp_path / "mdb" / "data", name="mdb", log_bin=False)
    try:
        mariadb.start()
        replay(srv.binlog_files()[:-1], mariadb, drop_dbs=["lt"])
        replayed = table_dump(mariadb, "lt")
        assert not diff_dumps(expected, replayed), diff_dumps(expected, replayed)
    finally:
        mariadb.cleanup()

    # OneLog's recovery replays the same events after kill -9.
    srv.kill9()
    srv.start()
    deadline = time.monotonic() + 30
    while True:
        try:
            recovered = table_dump(srv, "lt")
            break
        except pymysql.err.OperationalError:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    assert not diff_dumps(expected, recovered, "before", "recovered"), diff_dumps(expected, recovered)
