"""User-level locks — GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK, IS_USED_LOCK,
RELEASE_ALL_LOCKS — between connections: a lock held by one keeps the
others out until it is released or its holder disconnects, a waiter gets it
when it is released, a wait that closes a cycle is a deadlock (1213), KILL
QUERY ends a wait with NULL, and locks outlive transactions. Migration
tools (Rails, Flyway, Liquibase) and job schedulers rely on exactly this.
Every scenario runs against OneLog and MariaDB 10.11 and must give the
same outcomes."""
from __future__ import annotations

import time

from harness import outcome
import pytest
from test_mdl import Background, wait_for_state

# Long enough that only the event under test ends a wait early.
LONG_S = 20
# PROCESSLIST's state while GET_LOCK waits.
USER_LOCK_STATE = "User lock"


def scenarios(srv) -> dict:
    seen = {}
    a = srv.connect(autocommit=True)
    b = srv.connect(autocommit=True)
    admin = srv.connect(autocommit=True)
    try:
        seen["take"] = outcome(a, "SELECT GET_LOCK('m', 0), GET_LOCK('m', 0)")
        seen["taken elsewhere"] = outcome(b, "SELECT GET_LOCK('m', 0), GET_LOCK('m', 0.2), IS_FREE_LOCK('m')")
        seen["holder"] = outcome(b, f"SELECT IS_USED_LOCK('m') = {a.thread_id()}, IS_USED_LOCK('nobody')")
        seen["names are case-sensitive"] = outcome(b, "SELECT GET_LOCK('M', 0), RELEASE_LOCK('M')")
        seen["release by another"] = outcome(b, "SELECT RELEASE_LOCK('m'), RELEASE_LOCK('never')")
        seen["first release of two"] = outcome(a, "SELECT RELEASE_LOCK('m'), IS_FREE_LOCK('m')")

        waiter = Background(srv, f"SELECT GET_LOCK('m', {LONG_S})", conn=b)
        seen["waiting state"] = wait_for_state(srv, waiter, USER_LOCK_STATE)
        seen["second release"] = outcome(a, "SELECT RELEASE_LOCK('m')")
        seen["waiter gets it"] = waiter.join()
        assert waiter.took < LONG_S / 2

        outcome(a, "SELECT GET_LOCK('d1', 0)")
        outcome(b, "SELECT GET_LOCK('d2', 0)")
        first = Background(srv, "SELECT GET_LOCK('d2', 2)", conn=a)
        seen["first waits"] = wait_for_state(srv, first, USER_LOCK_STATE)
        seen["deadlock"] = outcome(b, f"SELECT GET_LOCK('d1', {LONG_S})")
        seen["first waiter times out"] = first.join()
        seen["release all"] = (outcome(a, "SELECT RELEASE_ALL_LOCKS()"), outcome(b, "SELECT RELEASE_ALL_LOCKS()"))

        outcome(a, "SELECT GET_LOCK('k', 0)")
        waiter = Background(srv, f"SELECT GET_LOCK('k', {LONG_S})", conn=b)
        seen["waits to be killed"] = wait_for_state(srv, waiter, USER_LOCK_STATE)
        outcome(admin, f"KILL QUERY {b.thread_id()}")
        seen["kill query ends the wait"] = waiter.join()
        assert waiter.took < LONG_S / 2

        seen["kept across transactions"] = [
            outcome(a, sql) for sql in ["BEGIN", "SELECT GET_LOCK('t', 0)", "ROLLBACK", "SELECT IS_FREE_LOCK('t')"]
        ]
        a.close()
        time.sleep(0.5)
        seen["disconnect releases"] = outcome(b, "SELECT IS_FREE_LOCK('k'), IS_FREE_LOCK('t'), GET_LOCK('k', 0)")
        seen["bad arguments"] = [
            outcome(b, sql) for sql in [
                "SELECT GET_LOCK(NULL, 0), GET_LOCK('', 0), RELEASE_LOCK(''), IS_FREE_LOCK(NULL), IS_USED_LOCK('')",
                "SELECT GET_LOCK('n', -1)", "SHOW WARNINGS", "SELECT GET_LOCK('n', NULL)",
                "SELECT GET_LOCK(REPEAT('x', 192), 0), RELEASE_LOCK(REPEAT('x', 192))",
                "SELECT GET_LOCK(REPEAT('x', 193), 0)", "SELECT RELEASE_LOCK(REPEAT('é', 100))",
            ]
        ]
    finally:
        for conn in (b, admin):
            conn.close()
    return seen


@pytest.fixture(scope="module")
def mariadb_outcomes(mariadb_server):
    return scenarios(mariadb_server)


def test_user_locks_match_mariadb(onelog_server_module, mariadb_outcomes):
    got = scenarios(onelog_server_module)
    assert got == mariadb_outcomes
    # What the comparison rests on, spelled out.
    assert got["taken elsewhere"] == ((0, 0, 0),)
    assert got["waiting state"] == USER_LOCK_STATE
    assert got["waiter gets it"] == ((1,),)
    assert got["deadlock"] == ("error", 1213)
    assert got["kill query ends the wait"] == ((None,),)
    assert got["disconnect releases"] == ((1, 1, 1),)
