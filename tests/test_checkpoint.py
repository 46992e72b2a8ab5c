"""Issue 3: storage is persisted only behind the binlog. Under sync_binlog=0 the
checkpointer must sync the binlog itself before persisting storage (otherwise
storage would never be checkpointed, or could outlive its log). After kill -9 no
acknowledged commit is lost, and recovery starts from an advanced position
instead of replaying the whole binlog."""
from __future__ import annotations

import re
import time

import pytest

from harness import target_kind

pytestmark = pytest.mark.skipif(target_kind() != "onelog", reason="OneLog recovery log lines")

DURABLE = re.compile(r"storage was durable at (\d+):(\d+); replayed (\d+) transaction")


def test_checkpoint_advances_under_sync_binlog_0(server_factory):
    srv = server_factory(sync_binlog=0)
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE ck")
        cur.execute("CREATE TABLE ck.t (id INT PRIMARY KEY, v VARCHAR(20))")
        for i in range(200):
            cur.execute("INSERT INTO ck.t VALUES (%s, %s)", (i, f"v{i}"))
    c.close()
    time.sleep(2.5)  # the checkpointer runs every second
    with srv.connect(autocommit=True).cursor() as cur:
        cur.execute("INSERT INTO ck.t VALUES (1000, 'after checkpoint')")
    srv.kill9()
    srv.start()
    log = srv.stderr_text()
    m = DURABLE.search(log)
    assert m, log
    file_seq, offset, replayed = (int(g) for g in m.groups())
    assert (file_seq, offset) > (0, 0), f"storage was never checkpointed:\n{log}"
    assert replayed <= 2, f"recovery replayed {replayed} transactions; the checkpoint did not advance:\n{log}"
    with srv.connect().cursor() as cur:
        cur.execute("SELECT COUNT(*), MAX(id) FROM ck.t")
        assert cur.fetchone() == (201, 1000)


def test_log_bin_off_purges_what_storage_has_persisted(server_factory):
    """DESIGN.md: log_bin=OFF keeps the binlog for durability but purges it as
    soon as the engine has persisted past it."""
    srv = server_factory(log_bin=False, extra_args=["--max-binlog-size=16384"])
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("SELECT @@log_bin")
        assert cur.fetchone()[0] == 0
        cur.execute("CREATE DATABASE lb")
        cur.execute("CREATE TABLE lb.t (id INT PRIMARY KEY, pad VARCHAR(200))")
        for i in range(300):
            cur.execute("INSERT INTO lb.t VALUES (%s, %s)", (i, "x" * 200))
    deadline = time.time() + 10
    while True:
        with c.cursor() as cur:
            cur.execute("SHOW BINARY LOGS")
            files = [r[0] for r in cur.fetchall()]
        if len(files) <= 2 or time.time() > deadline:
            break
        time.sleep(0.5)
    assert len(files) <= 2, f"rotated binlogs were not purged after checkpoints: {files}"
    with c.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM lb.t")
        assert cur.fetchone()[0] == 300
    c.close()
    srv.kill9()
    srv.start()
    with srv.connect().cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM lb.t")
        assert cur.fetchone()[0] == 300
