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
