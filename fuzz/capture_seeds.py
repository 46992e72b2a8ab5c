#!/usr/bin/env python3
"""Captures seed inputs for the protocol and binlog fuzz targets from real
clients and a real server (the pipeline-written seeds come from
`cargo run --example write_seeds`).

Starts target/release/onelog (with a generated root password, so logins carry
real scrambles) behind a recording TCP proxy, runs the mariadb CLI,
mariadb-admin, pymysql, sysbench (prepared statements) and
python-mysql-replication (COM_REGISTER_SLAVE, COM_BINLOG_DUMP) through it,
then stops the server cleanly. Writes, framed as each target reads its input:

  seeds/protocol/<client>-<command>   one packet of each kind per client
  seeds/binlog_events/server-binlog   the server's binlog file
  seeds/binlog_recovery/server-binlog

Run from the repository root: .venv/bin/python fuzz/capture_seeds.py
"""
from __future__ import annotations

import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "fuzz" / "seeds"
sys.path.insert(0, str(REPO / "tests"))
import harness  # noqa: E402

COMMANDS = {0x01: "quit", 0x02: "init-db", 0x03: "query", 0x09: "statistics", 0x0E: "ping",
            0x11: "change-user", 0x12: "binlog-dump", 0x15: "register-slave", 0x16: "stmt-prepare",
            0x17: "stmt-execute", 0x19: "stmt-close", 0x1B: "set-option", 0x1F: "reset-connection"}


class Proxy:
    """Forwards 127.0.0.1:port to the server, keeping both directions of
    every connection."""

    def __init__(self, upstream: int):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[tuple[bytearray, bytearray]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            client, _ = self.listener.accept()
            server = socket.create_connection(("127.0.0.1", self.upstream))
            sent, received = bytearray(), bytearray()
            self.connections.append((sent, received))
            threading.Thread(target=self._pipe, args=(client, server, sent), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, received), daemon=True).start()

    @staticmethod
    def _pipe(src, dst, record):
        try:
            while data := src.recv(65536):
                record.extend(data)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def packets(stream: bytes):
    """(sequence id, payload) of each physical packet."""
    pos = 0
    while pos + 4 <= len(stream):
        length = int.from_bytes(stream[pos:pos + 3], "little")
        yield stream[pos + 3], bytes(stream[pos + 4:pos + 4 + length])
        pos += 4 + length


def prepared_param_counts(received: bytes) -> dict[int, int]:
    """statement id -> parameter count, from COM_STMT_PREPARE_OK packets."""
    counts = {}
    for _, p in packets(received):
        if len(p) == 12 and p[0] == 0 and p[9] == 0:
            stmt_id, _, params = struct.unpack("<IHH", p[1:9])
            counts[stmt_id] = params
    return counts


def protocol_seed(state: bytes, seq: int, payload: bytes) -> bytes:
    """The target's four state bytes, then the packet as the client framed it."""
    return state + len(payload).to_bytes(3, "little") + bytes([seq]) + payload


def write(target: str, name: str, data: bytes):
    d = SEEDS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)
    print(f"seeds/{target}/{name}: {len(data)} bytes")


def run_clients(srv, port: int):
    pw = srv.root_password
    cli = [harness.MARIADB_CLI, "--no-defaults", "-uroot", f"--password={pw}", "--protocol=TCP",
           "-h127.0.0.1", f"-P{port}"]
    subprocess.run(cli + ["-e", "CREATE DATABASE fz; USE fz; CREATE TABLE t (id INT PRIMARY KEY, "
                          "v VARCHAR(20), d DECIMAL(8,2), ts DATETIME(3)); "
                          "INSERT INTO t VALUES (1, 'a', 1.50, NOW(3)), (2, NULL, -2, '2024-02-29 10:00:00');"
                          "UPDATE t SET v = 'b' WHERE id = 2; DELETE FROM t WHERE id = 1; SELECT * FROM t;"],
                   check=True, capture_output=True)
    admin = ["mariadb-admin", "--no-defaults", "-uroot", f"--password={pw}", "--protocol=TCP",
             "-h127.0.0.1", f"-P{port}"]
    subprocess.run(admin + ["ping", "status"], check=True, capture_output=True)
    import pymysql
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", password=pw, database="fz",
                           autocommit=True)
    with conn.cursor() as cur:
        cur.execute("SELECT v FROM t WHERE id = %s AND v <> %s", (2, "x'y"))
    conn.ping()
    conn.select_db("fz")
    conn.close()
    sysbench = ["sysbench", "oltp_point_select", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                f"--mysql-port={port}", "--mysql-user=root", f"--mysql-password={pw}", "--mysql-db=fz",
                "--tables=1", "--table-size=5", "--threads=1", "--time=1"]
    subprocess.run(sysbench + ["prepare"], check=True, capture_output=True)
    subprocess.run(sysbench + ["run"], check=True, capture_output=True)
    from pymysqlreplication import BinLogStreamReader
    stream = BinLogStreamReader(connection_settings={"host": "127.0.0.1", "port": port, "user": "root",
                                                     "passwd": pw},
                                server_id=77, blocking=False, report_slave="fuzz-seed")
    for _ in stream:
        pass
    stream.close()


def main():
    tmp = Path(tempfile.mkdtemp(prefix="onelog-seeds-"))
    srv = harness.OneLogServer(tmp / "data", insecure=False)
    srv.start()
    proxy = Proxy(srv.port)
    try:
        run_clients(srv, proxy.port)
    finally:
        srv.stop()
    seen = set()
    for number, (sent, received) in enumerate(proxy.connections):
        params = prepared_param_counts(bytes(received))
        for i, (seq, payload) in enumerate(packets(bytes(sent))):
            if i == 0:
                # One login per client: their capabilities differ.
                kind = f"login-{payload[:4].hex()}"
            elif seq == 0 and payload and payload[0] in COMMANDS:
                kind = COMMANDS[payload[0]]
            else:
                continue
            if kind in seen:
                continue
            seen.add(kind)
            num_params = params.get(struct.unpack("<I", payload[1:5])[0], 0) if kind == "stmt-execute" else 0
            # OneLog's capabilities, no types bound before, 16 KiB max packet.
            write("protocol", f"conn{number}-{kind}", protocol_seed(bytes([0, num_params, 255, seq]), seq, payload))
    binlog = srv.binlog_files()[0].read_bytes()
    write("binlog_events", "server-binlog", bytes([0, 4, 0]) + binlog)
    write("binlog_recovery", "server-binlog", bytes([0]) + binlog)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
