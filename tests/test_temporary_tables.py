"""Temporary tables across sessions and in the binlog (issue 17, item 5).

- A temporary table is private to its session and shadows a base table of the
  same name for that session only; it is gone when the session ends (close or KILL).
- Creating and using one never waits for another session's LOCK TABLE ... WRITE
  on a base table of the same name (it takes no metadata lock others can see).
- Nothing about it is logged with binlog_format=ROW: no CREATE/DROP TEMPORARY
  QUERY event, no TABLE_MAP or row event for its rows; a transaction that copies
  its rows into a base table logs the base table's rows only. Checked against
  MariaDB 10.11 running the same statements (`mariadb-binlog -v`), and OneLog's
  binlog replayed into a MariaDB gives the same base table.
"""
from __future__ import annotations

import re
import threading

import pymysql
import pytest
from binlog_util import decode, replay, table_dump


def q(conn, sql, args=None):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchall() if cur.description else None


def error_code(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        q(conn, sql)
    return e.value.args[0]


@pytest.fixture
def db(onelog_server, fresh_db):
    name = fresh_db("tmp")
    c = onelog_server.connect(autocommit=True)
    q(c, f"CREATE DATABASE {name}")
    q(c, f"CREATE TABLE {name}.t (id INT PRIMARY KEY, v VARCHAR(10))")
    q(c, f"INSERT INTO {name}.t VALUES (1, 'base')")
    c.close()
    return name


def test_private_to_the_session_and_shadowing(onelog_server, db):
    a = onelog_server.connect(database=db, autocommit=True)
    b = onelog_server.connect(database=db, autocommit=True)
    q(a, "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
    q(a, "INSERT INTO t VALUES (2, 'a-tmp')")
    q(a, "CREATE TEMPORARY TABLE only_a (x INT)")
    assert q(a, "SELECT * FROM t") == ((2, "a-tmp"),)
    # The other session sees the base table and not A's temporary ones.
    assert q(b, "SELECT * FROM t") == ((1, "base"),)
    assert error_code(b, "SELECT * FROM only_a") == 1146
    assert error_code(b, "DROP TEMPORARY TABLE only_a") == 1051
    # B's own temporary table of the same name is another table.
    q(b, "CREATE TEMPORARY TABLE only_a (x INT)")
    q(b, "INSERT INTO only_a VALUES (7)")
    assert q(a, "SELECT * FROM only_a") == ()
    assert q(b, "SELECT * FROM only_a") == ((7,),)
    # Writes through A's name reach A's temporary table only.
    q(a, "UPDATE t SET v = 'upd'")
    q(a, "DELETE FROM t WHERE id = 1")
    assert q(b, "SELECT * FROM t") == ((1, "base"),)
    assert "CREATE TEMPORARY TABLE `t`" in q(a, "SHOW CREATE TABLE t")[0][1]
    assert "CREATE TABLE `t`" in q(b, "SHOW CREATE TABLE t")[0][1]
    assert q(a, "SHOW TABLES") == (("t",),)
    # DROP TABLE drops the temporary table first, uncovering the base one.
    q(a, "DROP TABLE t")
    assert q(a, "SELECT * FROM t") == ((1, "base"),)


def test_rollback_undoes_temporary_rows(onelog_server, db):
    a = onelog_server.connect(database=db, autocommit=True)
    q(a, "CREATE TEMPORARY TABLE tr (id INT PRIMARY KEY)")
    q(a, "INSERT INTO tr VALUES (1)")
    q(a, "BEGIN")
    q(a, "INSERT INTO tr VALUES (2)")
    q(a, "UPDATE tr SET id = 10 WHERE id = 1")
    assert q(a, "SELECT id FROM tr ORDER BY id") == ((2,), (10,))
    q(a, "ROLLBACK")
    assert q(a, "SELECT id FROM tr ORDER BY id") == ((1,),)
    q(a, "BEGIN")
    q(a, "INSERT INTO tr VALUES (3)")
    q(a, "SAVEPOINT s")
    q(a, "INSERT INTO tr VALUES (4)")
    q(a, "ROLLBACK TO SAVEPOINT s")
    q(a, "COMMIT")
    assert q(a, "SELECT id FROM tr ORDER BY id") == ((1,), (3,))


def test_gone_at_disconnect_and_kill(onelog_server, db):
    a = onelog_server.connect(database=db, autocommit=True)
    q(a, "CREATE TEMPORARY TABLE t (id INT)")
    q(a, "INSERT INTO t VALUES (5)")
    a.close()
    a2 = onelog_server.connect(database=db, autocommit=True)
    assert q(a2, "SELECT * FROM t") == ((1, "base"),)

    victim = onelog_server.connect(database=db, autocommit=True)
    q(victim, "CREATE TEMPORARY TABLE gone (id INT)")
    victim_id = q(victim, "SELECT CONNECTION_ID()")[0][0]
    q(a2, f"KILL {victim_id}")
    with pytest.raises(pymysql.err.MySQLError):
        q(victim, "SELECT * FROM gone")
    ids = [r[0] for r in q(a2, "SHOW PROCESSLIST")]
    assert victim_id not in ids
    assert error_code(a2, "SELECT * FROM gone") == 1146


def test_create_temporary_never_waits_for_lock_table_write(onelog_server, db):
    holder = onelog_server.connect(database=db, autocommit=True)
    q(holder, "LOCK TABLE t WRITE")
    try:
        other = onelog_server.connect(database=db, autocommit=True, read_timeout=10)
        outcome = {}

        def use_temporary():
            try:
                q(other, "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
                q(other, "INSERT INTO t VALUES (9, 'mine')")
                q(other, "CREATE INDEX iv ON t (v)")
                outcome["rows"] = q(other, "SELECT * FROM t")
                q(other, "DROP TEMPORARY TABLE t")
            except Exception as e:  # noqa: BLE001 - reported below
                outcome["error"] = e

        worker = threading.Thread(target=use_temporary)
        worker.start()
        worker.join(15)
        assert not worker.is_alive(), "CREATE TEMPORARY TABLE waited for another session's LOCK TABLE WRITE"
        assert "error" not in outcome, outcome
        assert outcome["rows"] == ((9, "mine"),)
        # The holder still has its lock and its table.
        q(holder, "INSERT INTO t VALUES (2, 'locked')")
    finally:
        q(holder, "UNLOCK TABLES")


PRIVILEGE_STEPS = [
    "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
    "INSERT INTO t VALUES (5, 'own')",
    "UPDATE t SET v = 'upd'",
    "SELECT * FROM t",
    "ALTER TABLE t ADD COLUMN w INT",
    "DELETE FROM t",
    "DROP TEMPORARY TABLE t",
    "SELECT * FROM t",
    "CREATE TABLE base_denied (id INT)",
]


def privilege_outcomes(srv, db):
    root = srv.connect(autocommit=True)
    q(root, f"CREATE DATABASE IF NOT EXISTS {db}")
    q(root, f"CREATE TABLE IF NOT EXISTS {db}.t (id INT PRIMARY KEY, v VARCHAR(10))")
    q(root, "CREATE USER IF NOT EXISTS tmp_only@'%'")
    q(root, f"GRANT CREATE TEMPORARY TABLES ON {db}.* TO tmp_only@'%'")
    user = srv.connect(user="tmp_only", password="", database=db, autocommit=True)
    outcomes = []
    for sql in PRIVILEGE_STEPS:
        try:
            outcomes.append(q(user, sql))
        except pymysql.err.MySQLError as e:
            outcomes.append(("error", e.args[0]))
    return outcomes


def test_own_temporary_table_needs_no_privilege(onelog_server, mariadb_server, fresh_db):
    """An account with CREATE TEMPORARY TABLES only uses its temporary table
    freely (no privilege checked on it, as in MariaDB), never the base table
    it shadows."""
    db = fresh_db("tmppriv")
    ours = privilege_outcomes(onelog_server, db)
    assert ours == privilege_outcomes(mariadb_server, db)
    assert ours[3] == ((5, "upd"),) and ours[7] == ("error", 1142)


MIXED_WORKLOAD = [
    "CREATE TABLE base (id INT PRIMARY KEY, v VARCHAR(20))",
    "CREATE TEMPORARY TABLE stage (id INT PRIMARY KEY, v VARCHAR(20))",
    "INSERT INTO stage VALUES (1, 'one'), (2, 'two')",
    "UPDATE stage SET v = 'TWO' WHERE id = 2",
    "BEGIN",
    "INSERT INTO stage VALUES (3, 'three')",
    "INSERT INTO base SELECT * FROM stage",
    "DELETE FROM stage",
    "COMMIT",
    "CREATE TEMPORARY TABLE stage2 LIKE base",
    "INSERT INTO stage2 SELECT id + 10, v FROM base",
    "ALTER TABLE stage2 ADD COLUMN extra INT",
    "TRUNCATE TABLE stage2",
    "CREATE TEMPORARY TABLE base (shadow INT)",
    "INSERT INTO base VALUES (99)",
    "DROP TABLE base",
    "INSERT INTO base VALUES (4, 'four')",
    "DROP TEMPORARY TABLE stage",
    "DROP TABLE stage2",
]


def logged(srv, db):
    """(QUERY statements, TABLE_MAP tables, row-event lines) of db's binlog."""
    text = "\n".join(decode(f).stdout for f in srv.binlog_files())
    statements = re.findall(r"^((?:CREATE|DROP|ALTER|TRUNCATE)\b[^\n]*)", text, re.M | re.I)
    maps = re.findall(r"Table_map: `([^`]*)`\.`([^`]*)`", text)
    rows = re.findall(r"^### (INSERT INTO|UPDATE|DELETE FROM) `([^`]*)`\.`([^`]*)`", text, re.M)
    return (statements,
            [m for m in maps if m[0] == db],
            [r for r in rows if r[1] == db])


def test_binlog_has_no_temporary_tables(server_factory, fresh_db, replica):
    db = fresh_db("tmplog")
    onelog = server_factory(kind="onelog", log_bin=True)
    mariadb = server_factory(kind="mariadb", log_bin=True)
    for srv in (onelog, mariadb):
        c = srv.connect(autocommit=True)
        q(c, f"CREATE DATABASE {db}")
        q(c, f"USE {db}")
        for sql in MIXED_WORKLOAD:
            q(c, sql)
        assert q(c, "SELECT * FROM base ORDER BY id") == ((1, "one"), (2, "TWO"), (3, "three"), (4, "four"))
        c.close()
    expected = table_dump(onelog, db)
    # Stopped, so that the live file ends where its events end.
    onelog.stop()
    mariadb.stop()
    ours, theirs = logged(onelog, db), logged(mariadb, db)
    statements, maps, rows = ours
    assert not any("TEMPORARY" in s.upper() or "stage" in s for s in statements), statements
    assert all(m == (db, "base") for m in maps), maps
    assert rows == [("INSERT INTO", db, "base")] * 4, rows
    # MariaDB logs the same: the base table's rows only, no temporary table.
    assert maps == theirs[1] and rows == theirs[2], (ours, theirs)
    assert not any("TEMPORARY" in s.upper() or "stage" in s for s in theirs[0]), theirs[0]
    # A MariaDB replaying OneLog's binlog builds the same base table.
    replay(onelog.binlog_files(), replica)
    assert table_dump(replica, db) == expected
