"""Commit acknowledgements written by the commit pipeline (crates/server/src/commit_ack.rs).

An autocommit write's OK is written to the socket by the pipeline thread that
makes the commit durable and visible. A client that pipelines commands (sends
the next before reading the OK) must still get every answer, in order, and
each next statement must see the commit before it."""
from __future__ import annotations

import contextlib
import socket
import struct
import threading

import pytest

from test_protocol_errors import read_packet

COM_QUERY = 0x03


def send_queries(sock, queries):
    """Sends COM_QUERY packets back to back, without reading in between."""
    data = b""
    for q in queries:
        payload = bytes([COM_QUERY]) + q.encode()
        data += struct.pack("<I", len(payload))[:3] + b"\x00" + payload
    sock.sendall(data)


def lenenc_int(buf, pos):
    first = buf[pos]
    if first < 0xFB:
        return first, pos + 1
    width = {0xFC: 2, 0xFD: 3, 0xFE: 8}[first]
    return int.from_bytes(buf[pos + 1:pos + 1 + width], "little"), pos + 1 + width


def read_ok(sock):
    seq, payload = read_packet(sock)
    assert payload[:1] == b"\x00", f"expected OK, got {payload[:64]!r}"
    assert seq == 1
    affected, _ = lenenc_int(payload, 1)
    return affected


def read_single_value(sock):
    """Reads a one-column, one-row text result set; returns the value."""
    _, payload = read_packet(sock)
    assert payload[:1] != b"\xff", payload
    columns, _ = lenenc_int(payload, 0)
    assert columns == 1
    read_packet(sock)  # column definition
    _, p = read_packet(sock)
    if p[:1] == b"\xfe" and len(p) < 9:  # EOF after the definitions (no DEPRECATE_EOF)
        _, p = read_packet(sock)
    n, pos = lenenc_int(p, 0)
    value = p[pos:pos + n].decode()
    _, end = read_packet(sock)
    assert end[:1] == b"\xfe", end
    return value


@contextlib.contextmanager
def background_writers(srv, n=4):
    """Other sessions committing all along, so that commits queue in the
    pipeline instead of taking the inline path an idle server uses."""
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS ack")
        cur.execute("CREATE TABLE IF NOT EXISTS ack.bg (id INT PRIMARY KEY, v INT)")
        cur.execute("INSERT INTO ack.bg VALUES " + ", ".join(f"({i}, 0)" for i in range(n)))
    c.close()
    stop = threading.Event()
    errors = []

    def write(i):
        try:
            w = srv.connect(autocommit=True)
            with w.cursor() as cur:
                while not stop.is_set():
                    cur.execute("UPDATE ack.bg SET v = v + 1 WHERE id = %s", (i,))
            w.close()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert not errors, errors


@pytest.mark.parametrize("transport", ["tcp", "unix"])
def test_pipelined_write_then_read_sees_the_write(onelog_server, transport):
    kw = {"unix_socket": True} if transport == "unix" else {}
    c = onelog_server.connect(autocommit=True, **kw)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS ack")
        cur.execute("CREATE TABLE ack.t (id INT PRIMARY KEY, v INT)")
        cur.execute("INSERT INTO ack.t VALUES (1, 0)")
    s = c._sock
    s.settimeout(30)
    with background_writers(onelog_server):
        for i in range(1, 301):
            send_queries(s, ["UPDATE ack.t SET v = v + 1 WHERE id = 1", "SELECT v FROM ack.t WHERE id = 1"])
            assert read_ok(s) == 1
            assert read_single_value(s) == str(i), f"round {i}: the pipelined SELECT missed the UPDATE"
    c.close()


def test_many_pipelined_commits_read_late(onelog_server):
    """200 autocommit inserts sent at once, the answers read only afterwards."""
    c = onelog_server.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS ack")
        cur.execute("CREATE TABLE ack.many (id INT PRIMARY KEY)")
    s = c._sock
    s.settimeout(30)
    n = 200
    with background_writers(onelog_server):
        send_queries(s, [f"INSERT INTO ack.many VALUES ({i})" for i in range(n)] + ["SELECT COUNT(*) FROM ack.many"])
        for _ in range(n):
            assert read_ok(s) == 1
        assert read_single_value(s) == str(n)
    # The connection is still in step: an ordinary query works.
    send_queries(s, ["SELECT 41 + 1"])
    assert read_single_value(s) == "42"
    c.close()


def test_client_gone_before_its_ack(onelog_server):
    """A client that disconnects right after sending its writes loses nothing
    and leaves the server serving."""
    c = onelog_server.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS ack")
        cur.execute("CREATE TABLE ack.gone (id INT PRIMARY KEY)")
    for round_ in range(20):
        d = onelog_server.connect(autocommit=True)
        send_queries(d._sock, [f"INSERT INTO ack.gone VALUES ({round_ * 10 + i})" for i in range(10)])
        d._sock.shutdown(socket.SHUT_RDWR)
        d._sock.close()
        d._sock = None
    with c.cursor() as cur:
        cur.execute("SELECT 1")
        assert cur.fetchone()[0] == 1
    c.close()
    assert onelog_server.alive(), onelog_server.stderr_tail()
