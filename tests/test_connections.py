"""Issue 2: 1024 concurrent connections must work — each gets its own
connection id, runs a statement, and the server reports them all."""
from __future__ import annotations

import socket
import subprocess
import time

import pymysql
import pytest
from pymysql.constants import CLIENT

CONNECTIONS = 1024


def scalar(conn, sql):
    """The first column of the first row `sql` returns on `conn`."""
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchone()[0]


def assert_connection_closed(conn):
    """The server has closed `conn`: a query fails with a lost connection."""
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
    except pymysql.err.OperationalError as e:
        assert e.args[0] in (2006, 2013), e
        return
    raise AssertionError("the server did not close the connection")


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


def test_shutdown_ends_idle_and_busy_connections(onelog_server):
    """SIGTERM with clients connected over TCP and the Unix socket — idle, and
    one inside an open transaction — exits cleanly without waiting out the
    shutdown grace period (10 s), and every client sees its connection end."""
    idle_tcp = onelog_server.connect()
    idle_unix = onelog_server.connect(unix_socket=True)
    in_txn = onelog_server.connect()
    with in_txn.cursor() as cur:
        cur.execute("CREATE DATABASE s")
        cur.execute("CREATE TABLE s.t (id INT PRIMARY KEY)")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO s.t VALUES (1)")
    started = time.monotonic()
    onelog_server.stop()  # asserts exit code 0
    assert time.monotonic() - started < 8, "shutdown waited for idle connections"
    for c in (idle_tcp, idle_unix, in_txn):
        assert_connection_closed(c)


def test_silent_client_is_closed_after_connect_timeout(onelog_server):
    """A client that connects and never answers the greeting is dropped after
    connect_timeout seconds (MariaDB's behaviour), freeing its thread."""
    with onelog_server.connect(autocommit=True) as c, c.cursor() as cur:
        # MariaDB's smallest connect_timeout: 1 is clamped to it with warning 1292.
        cur.execute("SET GLOBAL connect_timeout = 2")
    s = socket.create_connection((onelog_server.host, onelog_server.port), timeout=30)
    greeting = s.recv(4096)
    assert greeting[4] == 10, "protocol version 10 greeting"
    started = time.monotonic()
    assert s.recv(4096) == b"", "the server should close a silent connection"
    assert time.monotonic() - started < 20
    s.close()
    with onelog_server.connect() as c, c.cursor() as cur:
        cur.execute("SELECT @@global.connect_timeout")
        assert cur.fetchone()[0] == 2


@pytest.mark.parametrize("how", ["wait_timeout", "interactive_timeout"])
def test_idle_connection_is_closed_after_its_timeout(onelog_server, how):
    """A session idle longer than its wait_timeout is closed by the server, as
    in MariaDB; a client announcing CLIENT_INTERACTIVE (as the mariadb CLI
    does) starts with interactive_timeout as its wait_timeout. Other sessions
    are unaffected."""
    if how == "wait_timeout":
        idle = onelog_server.connect()
        with idle.cursor() as cur:
            cur.execute("SET SESSION wait_timeout = 1")
    else:
        with onelog_server.connect(autocommit=True) as c, c.cursor() as cur:
            cur.execute("SET GLOBAL interactive_timeout = 1")
        idle = onelog_server.connect(client_flag=CLIENT.INTERACTIVE)
    busy = onelog_server.connect()
    with idle.cursor() as cur:
        cur.execute("SELECT @@session.wait_timeout, @@global.wait_timeout")
        assert cur.fetchone() == (1, 28800)
    time.sleep(3)
    assert_connection_closed(idle)
    assert scalar(busy, "SELECT @@session.wait_timeout") == 28800
    busy.close()
    assert "closed after 1 s without a command (wait_timeout)" in onelog_server.stderr_tail()


def test_kill_ends_an_idle_connection_at_once(onelog_server):
    """The id a client learns from the greeting (pymysql's thread_id(), which
    connectors KILL by) is its CONNECTION_ID(), and KILL of an idle
    connection ends it without waiting for its next command."""
    victim = onelog_server.connect()
    killer = onelog_server.connect()
    victim_id = victim.thread_id()
    assert scalar(victim, "SELECT CONNECTION_ID()") == victim_id
    with killer.cursor() as cur:
        cur.execute(f"KILL {victim_id}")
        deadline = time.monotonic() + 10
        while True:
            cur.execute("SHOW PROCESSLIST")
            ids = [row[0] for row in cur.fetchall()]
            assert all(isinstance(i, int) for i in ids), ids
            if victim_id not in ids:
                break
            assert time.monotonic() < deadline, "the killed idle connection is still listed"
            time.sleep(0.05)
    assert_connection_closed(victim)
    assert scalar(killer, "SELECT 1") == 1
    killer.close()


def test_open_files_limit_is_raised_to_the_hard_limit(server_factory):
    """Started with the usual soft limit of 1024 open files, the server raises
    it to the hard limit (as mariadbd does for open_files_limit): each
    connection holds two descriptors."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard <= 1024:
        pytest.skip(f"hard open files limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    try:
        srv = server_factory()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    limits = open(f"/proc/{srv.proc.pid}/limits").read()
    line = next(ln for ln in limits.splitlines() if ln.startswith("Max open files"))
    server_soft = int(line.split()[3])
    assert server_soft == min(hard, 1 << 20), line
    assert scalar(srv.connect(), "SELECT 1") == 1


@pytest.mark.parametrize("how", ["mariadb-admin shutdown", "SHUTDOWN statement"])
def test_a_client_shuts_the_server_down_cleanly(onelog_server, how):
    """`mariadb-admin shutdown` (COM_SHUTDOWN) and the SHUTDOWN statement stop
    the server as SIGTERM does: it exits 0 with its binlog closed (trimmed, a
    STOP event at its end), and what was committed is there after a restart."""
    srv = onelog_server
    with srv.connect(autocommit=True) as c, c.cursor() as cur:
        cur.execute("CREATE DATABASE sd")
        cur.execute("CREATE TABLE sd.t (id INT PRIMARY KEY)")
        cur.execute("INSERT INTO sd.t VALUES (1), (2)")
        if how == "SHUTDOWN statement":
            cur.execute("SHUTDOWN")
    if how == "mariadb-admin shutdown":
        r = subprocess.run(["/usr/bin/mariadb-admin", "--no-defaults", f"-h{srv.host}", f"-P{srv.port}", "-uroot",
                            "shutdown"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    assert srv.proc.wait(timeout=30) == 0, srv.stderr_tail()
    last = srv.binlog_files()[-1]
    assert last.stat().st_size < 64 << 20, "the live binlog file was not trimmed: no clean close"
    srv.start()
    with srv.connect(autocommit=True) as c, c.cursor() as cur:
        cur.execute("SELECT id FROM sd.t ORDER BY id")
        assert cur.fetchall() == ((1,), (2,))
        cur.execute(f"SHOW BINLOG EVENTS IN '{last.name}'")
        assert cur.fetchall()[-1][2] == "Stop"


def threads_status(conn):
    with conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS WHERE Variable_name IN ('Threads_cached', 'Threads_created')")
        return {name: int(value) for name, value in cur.fetchall()}


def wait_for_cached(conn, n):
    deadline = time.monotonic() + 10
    while threads_status(conn)["Threads_cached"] != n:
        assert time.monotonic() < deadline, threads_status(conn)
        time.sleep(0.02)


def test_threads_are_cached_between_connections(onelog_server):
    """thread_cache_size (MariaDB's default 256): a connection thread whose
    client left serves the next connection, so connecting 20 times one after
    the other creates no thread; with thread_cache_size=0 each creates one."""
    admin = onelog_server.connect(autocommit=True)
    assert scalar(admin, "SELECT @@thread_cache_size") == 256

    def connect_and_leave(times):
        for _ in range(times):
            conn = onelog_server.connect()
            assert scalar(conn, "SELECT 1") == 1
            conn.close()
            wait_for_cached(admin, 1)

    connect_and_leave(1)
    before = threads_status(admin)
    connect_and_leave(20)
    assert threads_status(admin) == {"Threads_cached": 1, "Threads_created": before["Threads_created"]}
    with admin.cursor() as cur:
        cur.execute("SET GLOBAL thread_cache_size = 0")
    # The cached thread leaves when it next looks at the size (it takes
    # the next connection first, then exits).
    conn = onelog_server.connect()
    conn.close()
    wait_for_cached(admin, 0)
    created = threads_status(admin)["Threads_created"]
    for _ in range(5):
        onelog_server.connect().close()
    deadline = time.monotonic() + 10
    while threads_status(admin)["Threads_created"] != created + 5:
        assert time.monotonic() < deadline, threads_status(admin)
        time.sleep(0.02)
    assert threads_status(admin)["Threads_cached"] == 0
