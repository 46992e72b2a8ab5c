"""mysql.proc side by side with MariaDB 10.11: who may read it, and what a
write to it gets.

OneLog computes mysql.proc from its routine catalog, so the rows follow
CREATE / ALTER / DROP PROCEDURE | FUNCTION at once and every write to the
table is refused (1036), where MariaDB's real table would take it; an
account without the privilege is refused by the privilege check first
(1142) on both. (tests/corpus/70_mysql_proc.sql compares the values and
column metadata.)
"""
from __future__ import annotations

import pytest

from test_accounts import login, prepared_pair, run
from test_privileges import mismatches

SETUP = [
    "CREATE DATABASE prt_d",
    "CREATE DEFINER=root@localhost PROCEDURE prt_d.p(IN a INT) COMMENT 'c' SELECT a",
    "CREATE DEFINER=root@localhost FUNCTION prt_d.f() RETURNS INT DETERMINISTIC RETURN 1",
    "CREATE USER prt_reader IDENTIFIED BY 'pw1'",
    "GRANT SELECT ON mysql.proc TO prt_reader",
    "CREATE USER prt_mysql IDENTIFIED BY 'pw2'",
    "GRANT SELECT ON mysql.* TO prt_mysql",
    "CREATE USER prt_owner IDENTIFIED BY 'pw3'",
    "GRANT ALL ON prt_d.* TO prt_owner",
    "CREATE USER prt_none IDENTIFIED BY 'pw4'",
]

PASSWORDS = {"prt_reader": "pw1", "prt_mysql": "pw2", "prt_owner": "pw3", "prt_none": "pw4"}

READS = [
    "SELECT db, name, type, param_list, returns, body, definer, comment FROM mysql.proc "
    "WHERE db = 'prt_d' ORDER BY name, type",
    "SELECT COUNT(*) FROM mysql.proc WHERE db = 'prt_d'",
    "SELECT p.name FROM mysql.proc p JOIN information_schema.ROUTINES r "
    "ON r.ROUTINE_SCHEMA = p.db AND r.ROUTINE_NAME = p.name WHERE p.db = 'prt_d' ORDER BY 1",
    "SELECT name FROM mysql.proc WHERE db = 'prt_d' AND type = 'FUNCTION'",
]

# What root may do to MariaDB's table and OneLog refuses.
WRITES = [
    "INSERT INTO mysql.proc (db, name, type, specific_name, param_list, returns, body, definer, comment) "
    "VALUES ('prt_d', 'x', 'PROCEDURE', 'x', '', '', 'SELECT 1', 'root@localhost', '')",
    "UPDATE mysql.proc SET comment = 'changed' WHERE db = 'prt_d'",
    "DELETE FROM mysql.proc WHERE db = 'prt_d'",
    "REPLACE INTO mysql.proc (db, name, type) VALUES ('prt_d', 'p', 'PROCEDURE')",
    "TRUNCATE TABLE mysql.proc",
    "ALTER TABLE mysql.proc ADD COLUMN x INT",
    "DROP TABLE mysql.proc",
    "RENAME TABLE mysql.proc TO mysql.proc2",
]


def drop_leftovers(conn):
    """The reference MariaDB is shared by the session: start clean."""
    for user in PASSWORDS:
        run(conn, f"DROP USER IF EXISTS {user}")
    run(conn, "DROP DATABASE IF EXISTS prt_d")


@pytest.fixture
def both(onelog_server, mariadb_server):
    yield from prepared_pair(onelog_server, mariadb_server, SETUP, drop_leftovers)


def test_each_account_reads_what_mariadb_lets_it(both):
    onelog, mariadb, conns = both
    found = mismatches(conns, READS, "root")
    for user, password in PASSWORDS.items():
        accounts = [login(srv, user, password) for srv in (onelog, mariadb)]
        found += mismatches(accounts, READS, user)
        for c in accounts:
            c.close()
    assert not found, "\n".join(found)
    # Not vacuous: root reads the routines, prt_none is refused.
    assert len(run(conns[0], READS[0])) == 2
    none = login(onelog, "prt_none", "pw4")
    assert run(none, READS[1]) == ("error", 1142)


def test_writes_are_refused_and_rows_follow_the_routines(both):
    onelog, mariadb, conns = both
    for sql in WRITES:
        assert run(conns[0], sql) == ("error", 1036), sql
    assert run(conns[0], "CREATE TABLE mysql.proc (a INT)") == ("error", 1050)
    assert run(conns[0], READS[1]) == [(2,)]
    # Without the privilege, both refuse before anything else (1142).
    accounts = [login(srv, "prt_owner", "pw3") for srv in (onelog, mariadb)]
    found = mismatches(accounts, WRITES[:3], "prt_owner")
    assert not found, "\n".join(found)
    changes = ["DROP PROCEDURE prt_d.p", "ALTER FUNCTION prt_d.f COMMENT 'now'",
               "CREATE DEFINER=root@localhost PROCEDURE prt_d.q() SELECT 2"]
    for change in changes:
        assert [run(c, change) for c in conns] == ["ok", "ok"], change
        found += mismatches(conns, READS, f"after {change}")
    assert not found, "\n".join(found)
