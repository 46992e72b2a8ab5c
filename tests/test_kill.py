"""KILL QUERY, KILL CONNECTION and max_statement_time end a running
statement — a long scan, a row-lock wait, SLEEP() — promptly and with
MariaDB's errors (1317, 1969; the killed connection's client sees it lost,
2013), and leave the rest alone: the transaction around a killed statement
goes on, a KILL QUERY sent to an idle connection does not kill its next
statement. Every scenario runs against OneLog and MariaDB 10.11 and must
give the same outcomes."""
from __future__ import annotations

import threading
import time

from harness import outcome
import pytest

# Long enough that only an interruption ends the statement under test early.
LONG_S = 20
# No row passes the filter: the scan runs long without piling up rows.
SLOW_SCAN = "SELECT COUNT(*) FROM k.t a, k.t b, k.t c, k.t d WHERE a.v + b.v + c.v + d.v < 0"


def timed(conn, sql):
    started = time.monotonic()
    result = outcome(conn, sql)
    return result, time.monotonic() - started


def kill_later(srv, statement, delay_s=0.5):
    """Runs `statement` (a KILL) from a fresh connection after `delay_s`."""

    def run():
        time.sleep(delay_s)
        admin = srv.connect(autocommit=True)
        try:
            outcome(admin, statement)
        finally:
            admin.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def scenarios(srv) -> dict:
    seen = {}
    victim = srv.connect(autocommit=True)
    holder = srv.connect(autocommit=False)
    try:
        outcome(victim, "CREATE DATABASE IF NOT EXISTS k")
        outcome(victim, "CREATE TABLE IF NOT EXISTS k.t (id INT PRIMARY KEY, v INT)")
        outcome(victim, "DELETE FROM k.t")
        with victim.cursor() as cur:
            cur.executemany("INSERT INTO k.t VALUES (%s, %s)", [(i, i) for i in range(1, 101)])
        vid = victim.thread_id()

        for name, sql in [("sleep", f"SELECT SLEEP({LONG_S})"), ("scan", SLOW_SCAN)]:
            killer = kill_later(srv, f"KILL QUERY {vid}")
            seen[f"kill query, {name}"], took = timed(victim, sql)
            killer.join()
            assert took < LONG_S / 2, f"{srv}: KILL QUERY took {took:.1f} s to end the {name}"

        seen["kill query while idle"] = (outcome(srv.connect(autocommit=True), f"KILL QUERY {vid}"), None)
        seen["next statement"] = outcome(victim, "SELECT 1")

        # A row-lock wait, and a killed statement inside a transaction.
        outcome(holder, "UPDATE k.t SET v = -1 WHERE id = 1")
        outcome(victim, f"SET innodb_lock_wait_timeout = {LONG_S}")
        killer = kill_later(srv, f"KILL QUERY {vid}")
        seen["kill query, lock wait"], took = timed(victim, "UPDATE k.t SET v = 0 WHERE id = 1")
        killer.join()
        assert took < LONG_S / 2
        outcome(victim, "BEGIN")
        outcome(victim, "UPDATE k.t SET v = 500 WHERE id = 50")
        killer = kill_later(srv, f"KILL QUERY {vid}")
        seen["kill query in a transaction"] = outcome(victim, f"SELECT SLEEP({LONG_S}) + 1")
        killer.join()
        seen["the transaction goes on"] = outcome(victim, "SELECT v FROM k.t WHERE id = 50")
        outcome(victim, "ROLLBACK")

        outcome(victim, "SET max_statement_time = 0.3")
        for name, sql in [("sleep", f"SELECT SLEEP({LONG_S})"), ("scan", SLOW_SCAN),
                          ("lock wait", "UPDATE k.t SET v = 0 WHERE id = 1")]:
            seen[f"max_statement_time, {name}"], took = timed(victim, sql)
            assert took < LONG_S / 2
        seen["max_statement_time, quick statement"] = outcome(victim, "SELECT COUNT(*) FROM k.t")
        outcome(victim, "SET max_statement_time = 0")
        holder.rollback()

        killer = kill_later(srv, f"KILL {vid}")
        seen["kill connection, sleep"], took = timed(victim, f"SELECT SLEEP({LONG_S})")
        killer.join()
        assert took < LONG_S / 2

        own = srv.connect(autocommit=True)
        seen["own kill"] = outcome(own, f"KILL {own.thread_id()}")
        seen["after own kill"] = outcome(own, "SELECT 1")
    finally:
        holder.close()
    return seen


@pytest.fixture(scope="module")
def mariadb_outcomes(mariadb_server):
    return scenarios(mariadb_server)


def test_kill_and_statement_time_limit_match_mariadb(onelog_server_module, mariadb_outcomes):
    got = scenarios(onelog_server_module)
    assert got == mariadb_outcomes
    # What the comparison rests on, spelled out.
    assert got["kill query, scan"] == ("error", 1317)
    assert got["kill query, lock wait"] == ("error", 1317)
    assert got["the transaction goes on"] == ((500,),)
    assert got["max_statement_time, scan"] == ("error", 1969)
    assert got["kill connection, sleep"] == ("error", 2013)


def test_max_statement_time_is_seconds_with_a_fraction(onelog_server_module):
    conn = onelog_server_module.connect(autocommit=True)
    try:
        assert outcome(conn, "SHOW VARIABLES LIKE 'max_statement_time'") == (("max_statement_time", "0.000000"),)
        outcome(conn, "SET max_statement_time = 1.25")
        assert outcome(conn, "SELECT @@max_statement_time") == ((1.25,),)
        assert outcome(conn, "SET max_statement_time = 'abc'") == ("error", 1232)
        outcome(conn, "SET max_statement_time = 0")
        # MySQL's limit (MariaDB has none): milliseconds, SELECT only.
        outcome(conn, "SET max_execution_time = 200")
        assert outcome(conn, f"SELECT SLEEP({LONG_S})") == ("error", 3024)
        assert outcome(conn, "SET @slept = SLEEP(0.5)") == []
    finally:
        conn.close()
