"""Issue 3: storage is persisted only behind the binlog. Under sync_binlog=0 the
checkpointer must sync the binlog itself before persisting storage (otherwise
storage would never be checkpointed, or could outlive its log). After kill -9 no
acknowledged commit is lost, and recovery starts from an advanced position
instead of replaying the whole binlog."""
from __future__ import annotations

import re
import threading
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


def test_reset_master_under_concurrent_writers_loses_nothing(server_factory):
    """RESET MASTER while four clients commit: it holds new commits back and
    lets the ones in flight finish first, so none is acknowledged into a
    deleted file. After kill -9 every acknowledged row is there, and the
    binlog starts again at GTID 0-1-1 after the last reset."""
    srv = server_factory(sync_binlog=1)
    with srv.connect(autocommit=True).cursor() as cur:
        cur.execute("CREATE DATABASE rm")
        cur.execute("CREATE TABLE rm.t (id INT PRIMARY KEY)")
    stop = threading.Event()
    acked: list[list[int]] = [[] for _ in range(4)]

    def writer(w: int) -> None:
        c = srv.connect(autocommit=True)
        i = 0
        while not stop.is_set():
            i += 1
            with c.cursor() as cur:
                cur.execute("INSERT INTO rm.t VALUES (%s)", (w * 1_000_000 + i,))
            acked[w].append(w * 1_000_000 + i)
        c.close()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    admin = srv.connect(autocommit=True)
    for _ in range(20):
        time.sleep(0.05)
        with admin.cursor() as cur:
            cur.execute("RESET MASTER")
    stop.set()
    for t in threads:
        t.join()
    with admin.cursor() as cur:
        cur.execute("SHOW BINARY LOGS")
        assert [r[0] for r in cur.fetchall()] == ["onelog-bin.000001"]
        cur.execute("INSERT INTO rm.t VALUES (0)")
        cur.execute("SELECT @@gtid_binlog_pos")
        seq = int(cur.fetchone()[0].split("-")[2])
    admin.close()
    everything = {i for ids in acked for i in ids} | {0}
    assert sum(len(ids) for ids in acked) > 20, "the writers committed while RESET MASTER ran"
    assert seq <= len(everything), "GTID numbering did not restart at RESET MASTER"
    srv.kill9()
    srv.start()
    with srv.connect().cursor() as cur:
        cur.execute("SELECT id FROM rm.t")
        present = {r[0] for r in cur.fetchall()}
    lost = everything - present
    assert not lost, f"{len(lost)} acknowledged rows lost after RESET MASTER + kill -9, e.g. {sorted(lost)[:10]}"


def test_replayed_inserts_into_a_table_without_primary_key_keep_the_stored_rows(server_factory):
    """Rows of a table without a primary key are keyed by hidden row ids. The
    persisted rows (a clean stop checkpoints them) hold ids 1..3; the inserts
    replayed after kill -9 must take ids after them, not overwrite them (which
    also left the overwritten rows' index entries behind)."""
    srv = server_factory(sync_binlog=1)
    with srv.connect(autocommit=True).cursor() as cur:
        cur.execute("CREATE DATABASE heap")
        cur.execute("CREATE TABLE heap.t (a INT, b INT, KEY kb (b))")
        cur.execute("INSERT INTO heap.t VALUES (1, 1), (2, 2), (3, 3)")
    srv.stop()
    srv.start()
    with srv.connect(autocommit=True).cursor() as cur:
        cur.execute("INSERT INTO heap.t VALUES (4, 4), (5, 5)")
    srv.kill9()
    srv.start()
    assert re.search(r"replayed [1-9]\d* transaction", srv.stderr_text()), "nothing was replayed"
    with srv.connect(autocommit=True).cursor() as cur:
        cur.execute("CHECK TABLE heap.t")
        assert cur.fetchall() == (("heap.t", "check", "status", "OK"),)
        cur.execute("SELECT a, b FROM heap.t ORDER BY a")
        assert cur.fetchall() == tuple((i, i) for i in range(1, 6))
        cur.execute("INSERT INTO heap.t VALUES (6, 6)")
        cur.execute("SELECT COUNT(*) FROM heap.t")
        assert cur.fetchone() == (6,)
