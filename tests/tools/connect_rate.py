#!/usr/bin/env python3
"""Connection set-up rate, OneLog and MariaDB 10.11 side by side (issue 19's
speed report; a benchmark, not a test): clients each open a connection, run
SELECT 1 and close it, again and again, over plain TCP and over TLS (the
same CA-signed RSA-2048 certificate for both servers; the client's TLS
context is made once, as a pooled driver's is). Prints connections per
second per server and mode.

    .venv/bin/python tests/tools/connect_rate.py [--seconds 10] [--clients 1,4]
"""
from __future__ import annotations

import argparse
import ssl
import sys
import tempfile
import threading
import time
from pathlib import Path

import pymysql

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from test_tls import make_ca_and_server_cert, tls_args  # noqa: E402


def rate(srv, tls_context, seconds: float, clients: int) -> float:
    """Connections per second that `clients` threads make in `seconds`."""
    counts = [0] * clients
    stop = time.monotonic() + seconds
    kw = {"ssl": tls_context} if tls_context else {"ssl_disabled": True}

    def loop(i):
        while time.monotonic() < stop:
            c = pymysql.connect(host=srv.host, port=srv.port, user="root", password=srv.root_password, **kw)
            with c.cursor() as cur:
                cur.execute("SELECT 1")
            c.close()
            counts[i] += 1

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - started)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", default="1,4")
    args = ap.parse_args()
    clients = [int(n) for n in args.clients.split(",")]
    work = Path(tempfile.mkdtemp(prefix="onelog-connect-rate-"))
    certs = make_ca_and_server_cert(work / "certs")
    context = ssl.create_default_context(cafile=certs["ca"])
    context.check_hostname = False
    results = []
    for kind in ("onelog", "mariadb"):
        srv = harness.make_server(kind, work / kind / "data", name=kind, log_bin=False, extra_args=tls_args(certs))
        (work / kind / "data").mkdir(parents=True, exist_ok=True)
        srv.start()
        try:
            for n in clients:
                for mode, ctx in (("plain", None), ("TLS", context)):
                    results.append((kind, n, mode, rate(srv, ctx, args.seconds, n)))
                    print(f"{kind:8} clients={n:<3} {mode:5} {results[-1][3]:8.1f} connections/s", flush=True)
        finally:
            srv.cleanup()
    print("\n| clients | mode | OneLog conn/s | MariaDB conn/s |\n| --- | --- | --- | --- |")
    by = {(k, n, m): r for k, n, m, r in results}
    for n in clients:
        for mode in ("plain", "TLS"):
            print(f"| {n} | {mode} | {by[('onelog', n, mode)]:.0f} | {by[('mariadb', n, mode)]:.0f} |")


if __name__ == "__main__":
    main()
