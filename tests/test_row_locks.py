"""Locking reads (SELECT ... FOR UPDATE / LOCK IN SHARE MODE) against row
locks, side by side with MariaDB 10.11 (InnoDB):

- a locking read that waited for a lock returns the row as the holder
  committed it, not as it was when the read began (OneLog returned the old
  row: it read through the transaction's view and locked afterwards);
- a locking read reads the latest committed rows even after the transaction
  took its read view, while a plain read keeps that view;
- FOR UPDATE on a UNION part inside a derived table locks what it reads
  (mtr's update_innodb).
"""
from __future__ import annotations

import time

from harness import outcome
from test_mdl import Background

BLOCKED_S = 0.5


def fresh(admin):
    outcome(admin, "CREATE DATABASE IF NOT EXISTS rl")
    for t in ("t", "u"):
        outcome(admin, f"DROP TABLE IF EXISTS rl.{t}")
        outcome(admin, f"CREATE TABLE rl.{t} (id INT PRIMARY KEY, v INT)")
    outcome(admin, "INSERT INTO rl.t VALUES (1, 1), (2, 2)")
    outcome(admin, "INSERT INTO rl.u VALUES (3, 3)")


def blocked(bg: Background) -> bool:
    """Whether `bg` still waits after a moment (it would have answered)."""
    time.sleep(BLOCKED_S)
    return bg.thread.is_alive()


def scenarios(srv) -> dict:
    seen = {}
    admin = srv.connect(autocommit=True)
    holder = srv.connect(autocommit=True)
    reader = srv.connect(autocommit=True)
    try:
        fresh(admin)
        outcome(holder, "BEGIN")
        outcome(holder, "UPDATE rl.t SET v = v + 100 WHERE id = 1")
        outcome(reader, "BEGIN")
        waiting = Background(srv, "SELECT v FROM rl.t WHERE id = 1 FOR UPDATE", conn=reader)
        seen["the locking read waits"] = blocked(waiting)
        outcome(holder, "COMMIT")
        seen["after waiting it reads the committed row"] = waiting.join()
        seen["a plain read after it sees the same"] = outcome(reader, "SELECT v FROM rl.t WHERE id = 1")
        outcome(reader, "COMMIT")

        fresh(admin)
        outcome(reader, "BEGIN")
        seen["the view is taken"] = outcome(reader, "SELECT v FROM rl.t WHERE id = 2")
        outcome(admin, "UPDATE rl.t SET v = 20 WHERE id = 2")
        seen["a locking read sees the later commit"] = outcome(reader, "SELECT v FROM rl.t WHERE id = 2 FOR UPDATE")
        seen["in share mode too"] = outcome(reader, "SELECT v FROM rl.t WHERE id = 2 LOCK IN SHARE MODE")
        seen["a plain read keeps the view"] = outcome(reader, "SELECT v FROM rl.t WHERE id = 2")
        outcome(reader, "COMMIT")

        fresh(admin)
        outcome(holder, "BEGIN")
        seen["derived union for update"] = outcome(
            holder, "SELECT * FROM (SELECT * FROM rl.t UNION SELECT * FROM rl.u FOR UPDATE) d ORDER BY id")
        outcome(reader, "SET SESSION innodb_lock_wait_timeout = 1")
        seen["its rows are locked"] = outcome(reader, "SELECT * FROM rl.u FOR UPDATE")
        outcome(holder, "COMMIT")
        seen["and free after commit"] = outcome(reader, "SELECT * FROM rl.u FOR UPDATE")
    finally:
        for conn in (admin, holder, reader):
            conn.close()
    return seen


def test_locking_reads_match_mariadb(onelog_server, mariadb_server):
    expected = scenarios(mariadb_server)
    got = scenarios(onelog_server)
    assert got == expected
    # What the comparison rests on, spelled out.
    assert got["the locking read waits"] is True
    assert got["after waiting it reads the committed row"] == ((101,),)
    assert got["a locking read sees the later commit"] == ((20,),)
    assert got["a plain read keeps the view"] == ((2,),)
    assert got["its rows are locked"] == ("error", 1205)
    assert got["and free after commit"] == ((3, 3),)
