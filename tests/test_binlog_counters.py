"""Issue 3: Binlog_syncs grows by about one per group at sync_binlog=1, by one
per N groups at N, and not at all at 0 — changed live with SET GLOBAL, seen
through SHOW GLOBAL STATUS by a real client."""
from __future__ import annotations

import pytest

from harness import target_kind

pytestmark = pytest.mark.skipif(target_kind() != "onelog", reason="OneLog's binlog counters")

COMMITS = 60


def status(cur, name):
    cur.execute(f"SHOW GLOBAL STATUS LIKE '{name}'")
    return int(cur.fetchone()[1])


def run_commits(cur, sync_binlog, start):
    cur.execute(f"SET GLOBAL sync_binlog = {sync_binlog}")
    before = {n: status(cur, n) for n in ("Binlog_syncs", "Binlog_group_commits", "Binlog_commits")}
    for i in range(COMMITS):  # one client: every commit is its own group
        cur.execute("INSERT INTO cnt.t VALUES (%s)", (start + i,))
    return {n: status(cur, n) - v for n, v in before.items()}


def test_binlog_syncs_follow_sync_binlog_live(onelog_server):
    c = onelog_server.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE cnt")
        cur.execute("CREATE TABLE cnt.t (id INT PRIMARY KEY)")
        d1 = run_commits(cur, 1, 0)
        assert d1["Binlog_commits"] == COMMITS
        assert d1["Binlog_syncs"] == d1["Binlog_group_commits"] == COMMITS
        d0 = run_commits(cur, 0, 1000)
        assert d0["Binlog_commits"] == COMMITS
        assert d0["Binlog_syncs"] == 0
        d5 = run_commits(cur, 5, 2000)
        assert d5["Binlog_commits"] == COMMITS
        assert d5["Binlog_syncs"] in (COMMITS // 5, COMMITS // 5 + 1)
        cur.execute("SELECT @@global.sync_binlog")
        assert cur.fetchone()[0] == 5
    c.close()
