"""Issue 2: 1024 concurrent connections must work — each gets its own
connection id, runs a statement, and the server reports them all."""
from __future__ import annotations

CONNECTIONS = 1024


def test_1024_concurrent_connections(onelog_server):
    conns = []
    try:
        for _ in range(CONNECTIONS):
            conns.append(onelog_server.connect(connect_timeout=30))
        ids = set()
        for c in conns:
            with c.cursor() as cur:
                cur.execute("SELECT CONNECTION_ID()")
                ids.add(cur.fetchone()[0])
        assert len(ids) == CONNECTIONS
        with conns[0].cursor() as cur:
            cur.execute("SHOW GLOBAL STATUS LIKE 'Threads_connected'")
            assert int(cur.fetchone()[1]) >= CONNECTIONS
    finally:
        for c in conns:
            c.close()
