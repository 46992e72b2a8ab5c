"""Issue 2, "Done when": an unknown command, a wrong password, a truncated packet
and a 20 MB packet each get the right error and the server keeps serving others."""
from __future__ import annotations

import socket
import struct
import threading

import pymysql
import pytest

ER_UNKNOWN_COM_ERROR = 1047
ER_ACCESS_DENIED_ERROR = 1045
ER_NET_PACKET_TOO_LARGE = 1153
CR_SERVER_LOST = 2013


def assert_serving(srv, n=3):
    """Several fresh connections can still query, concurrently."""
    errors = []

    def one(i):
        try:
            c = srv.connect()
            try:
                with c.cursor() as cur:
                    cur.execute("SELECT %s + 1", (i,))
                    assert int(cur.fetchone()[0]) == i + 1
            finally:
                c.close()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(30)
    assert not errors, errors
    assert srv.alive(), "server process died:\n" + srv.stderr_tail()


def read_packet(sock):
    """Reads one packet; returns (seq, payload) or None at EOF."""
    hdr = b""
    while len(hdr) < 4:
        chunk = sock.recv(4 - len(hdr))
        if not chunk:
            return None
        hdr += chunk
    length = hdr[0] | hdr[1] << 8 | hdr[2] << 16
    payload = b""
    while len(payload) < length:
        chunk = sock.recv(length - len(payload))
        if not chunk:
            return None
        payload += chunk
    return hdr[3], payload


def err_code(payload):
    assert payload[:1] == b"\xff", f"expected an error packet, got {payload[:32]!r}"
    return struct.unpack("<H", payload[1:3])[0]


def drain_until_closed(sock, timeout=15):
    """Returns the packets the server sent before closing; fails if it does not close."""
    sock.settimeout(timeout)
    packets = []
    try:
        while True:
            p = read_packet(sock)
            if p is None:
                return packets
            packets.append(p[1])
    except (ConnectionResetError, BrokenPipeError):
        return packets
    except socket.timeout:
        pytest.fail(f"server did not close the connection within {timeout}s; got {packets!r}")


@pytest.fixture
def srv(onelog_server):
    return onelog_server


@pytest.mark.parametrize("command", [0x7F, 0xEE, 0x20])
def test_unknown_command_gets_1047(srv, command):
    c = srv.connect()
    other = srv.connect()  # an already-open session must be unaffected too
    try:
        c._execute_command(command, b"")
        with pytest.raises(pymysql.err.MySQLError) as ei:
            c._read_packet()
        assert ei.value.args[0] == ER_UNKNOWN_COM_ERROR, ei.value.args
        # not a silent OK, and the connection stays usable
        c.ping(reconnect=False)
        with c.cursor() as cur:
            cur.execute("SELECT 42")
            assert int(cur.fetchone()[0]) == 42
        with other.cursor() as cur:
            cur.execute("SELECT 43")
            assert int(cur.fetchone()[0]) == 43
    finally:
        c.close()
        other.close()
    assert_serving(srv)


def test_wrong_password_gets_1045(srv):
    for pw in ("wrong", "x" * 100):
        with pytest.raises(pymysql.err.OperationalError) as ei:
            pymysql.connect(host=srv.host, port=srv.port, user="root", password=pw, connect_timeout=10)
        assert ei.value.args[0] == ER_ACCESS_DENIED_ERROR, ei.value.args
    with pytest.raises(pymysql.err.OperationalError) as ei:
        pymysql.connect(unix_socket=srv.socket, user="root", password="wrong", connect_timeout=10)
    assert ei.value.args[0] == ER_ACCESS_DENIED_ERROR, ei.value.args
    with pytest.raises(pymysql.err.OperationalError) as ei:
        pymysql.connect(host=srv.host, port=srv.port, user="nobody_here", password="", connect_timeout=10)
    assert ei.value.args[0] == ER_ACCESS_DENIED_ERROR, ei.value.args
    assert_serving(srv)


def test_truncated_packet_after_handshake_closes_connection(srv):
    """Header announces 100 bytes, 10 arrive, then the client half-closes."""
    c = srv.connect()
    other = srv.connect()
    s = c._sock
    s.sendall(struct.pack("<I", 100)[:3] + b"\x00" + b"\x03SELECT 1")
    s.shutdown(socket.SHUT_WR)
    packets = drain_until_closed(s)
    for p in packets:  # an error packet before closing is fine, an OK is not
        assert p[:1] == b"\xff", packets
    c._sock = None
    s.close()
    with other.cursor() as cur:
        cur.execute("SELECT 7")
        assert int(cur.fetchone()[0]) == 7
    other.close()
    assert_serving(srv)


def test_malformed_command_payload(srv):
    """COM_STMT_EXECUTE with a 2-byte statement id (needs >= 9 bytes): error or
    close for that connection, never a crash."""
    c = srv.connect()
    s = c._sock
    s.settimeout(15)
    s.sendall(struct.pack("<I", 3)[:3] + b"\x00" + b"\x17\x01\x00")
    try:
        p = read_packet(s)
    except (ConnectionResetError, socket.timeout):
        p = None
    if p is not None:
        assert p[1][:1] == b"\xff", f"malformed packet answered with {p[1][:20]!r}"
    c._sock = None
    s.close()
    assert_serving(srv)


def test_truncated_handshake_response(srv):
    """A 4-byte handshake response: the server refuses (error packet and/or close)."""
    s = socket.create_connection((srv.host, srv.port), timeout=15)
    try:
        greeting = read_packet(s)
        assert greeting is not None and greeting[1][0] == 10, greeting
        s.sendall(b"\x04\x00\x00\x01" + b"\x85\xa6\x03\x00")
        packets = drain_until_closed(s)
        for p in packets:
            assert p[:1] == b"\xff", packets
    finally:
        s.close()
    # and a connection that sends nothing at all, then vanishes
    s = socket.create_connection((srv.host, srv.port), timeout=15)
    read_packet(s)
    s.close()
    assert_serving(srv)


def test_greeting_announces_mariadb_flavour(srv):
    s = socket.create_connection((srv.host, srv.port), timeout=15)
    try:
        seq, payload = read_packet(s)
    finally:
        s.close()
    assert seq == 0 and payload[0] == 10
    version = payload[1:payload.index(b"\x00", 1)].decode()
    if srv.kind == "onelog":
        assert version == "5.5.5-10.11.99-MariaDB-OneLog", version
    else:
        assert version.startswith("5.5.5-10.11."), version


def test_20mb_packet_gets_1153(srv):
    """SELECT '<20 MB>' with max_allowed_packet at its 16 MB default -> error 1153.
    The query is written by a second thread while this one reads the answer, so
    the error packet is read even if the server closes before the client has
    finished sending (the server may drop the connection after the error)."""
    c = srv.connect(max_allowed_packet=64 * 1024 * 1024)
    with c.cursor() as cur:
        cur.execute("SELECT @@max_allowed_packet")
        assert int(cur.fetchone()[0]) == 16 * 1024 * 1024
    s = c._sock
    payload = b"\x03SELECT '" + b"a" * (20 * 1024 * 1024) + b"'"

    def send():
        data, seq = payload, 0
        try:
            while True:
                chunk = data[:0xFFFFFF]
                data = data[0xFFFFFF:]
                s.sendall(struct.pack("<I", len(chunk))[:3] + bytes([seq & 0xFF]) + chunk)
                seq += 1
                if len(chunk) < 0xFFFFFF:
                    break
        except OSError:
            pass  # the server may close the connection after answering

    t = threading.Thread(target=send, daemon=True)
    t.start()
    s.settimeout(60)
    try:
        p = read_packet(s)
    except ConnectionResetError:
        p = None
    t.join(60)
    c._sock = None
    s.close()
    assert p is not None, "connection closed without an error packet"
    assert err_code(p[1]) == ER_NET_PACKET_TOO_LARGE, p[1][:80]
    assert_serving(srv)
    # a packet just under the limit still works
    c = srv.connect(max_allowed_packet=64 * 1024 * 1024)
    try:
        with c.cursor() as cur:
            cur.execute("SELECT LENGTH('" + "b" * (1024 * 1024) + "')")
            assert int(cur.fetchone()[0]) == 1024 * 1024
    finally:
        c.close()
