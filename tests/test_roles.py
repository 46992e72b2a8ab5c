"""Roles, side by side with MariaDB 10.11.

The same steps run on OneLog and on the reference MariaDB, each as root or
as one of the test's accounts over a connection kept per account (so SET
ROLE stays in force until the step that reconnects): the outcome (rows or
error code) and the SHOW GRANTS text must be the same step by step. Roles
survive kill -9, and a MariaDB replica of OneLog ends up with the same
roles and grants.
"""
from __future__ import annotations

import pymysql
import pytest

from test_accounts import prepare, run
from test_replication import first_binlog, start_replica, wait_caught_up

SETUP = [
    "CREATE DATABASE rol_d",
    "CREATE TABLE rol_d.t (a INT, b INT)",
    "INSERT INTO rol_d.t VALUES (1, 10), (2, 20)",
    "CREATE DATABASE rol_e",
    "CREATE TABLE rol_e.x (a INT)",
    "CREATE USER rol_u1 IDENTIFIED BY 'pw1'",
    "CREATE USER rol_u2 IDENTIFIED BY 'pw2'",
]
PASSWORDS = {"rol_u1": "pw1", "rol_u2": "pw2"}

# (who, statement): who is "root" or an account; "account!" logs it in
# afresh first (its default role is enabled at login).
STEPS = [
    # Creating roles, and what is no role.
    ("root", "CREATE ROLE rol_reader"),
    ("root", "CREATE ROLE rol_writer WITH ADMIN CURRENT_USER"),
    ("root", "CREATE ROLE IF NOT EXISTS rol_reader"),
    ("root", "SHOW WARNINGS"),
    ("root", "CREATE ROLE rol_reader"),
    ("root", "CREATE ROLE none"),
    ("root", "CREATE ROLE ''"),
    ("root", "CREATE ROLE rol_x WITH ADMIN CURRENT_ROLE"),
    # Privileges granted to roles, roles granted to roles and accounts.
    ("root", "GRANT SELECT ON rol_d.* TO rol_reader"),
    ("root", "GRANT INSERT, UPDATE ON rol_d.t TO rol_writer"),
    ("root", "GRANT rol_reader TO rol_writer"),
    ("root", "GRANT rol_writer TO rol_reader"),
    ("root", "GRANT rol_reader TO rol_reader"),
    ("root", "GRANT rol_writer TO rol_u1"),
    ("root", "GRANT rol_reader TO rol_u2 WITH ADMIN OPTION"),
    ("root", "GRANT rol_nosuch TO rol_u1"),
    ("root", "GRANT rol_reader TO rol_nobody"),
    ("root", "GRANT SELECT ON rol_e.* TO 'rol_reader'@'%'"),
    ("root", "SHOW GRANTS FOR rol_reader"),
    ("root", "SHOW GRANTS FOR rol_writer"),
    ("root", "SHOW GRANTS FOR rol_u1"),
    ("root", "SHOW GRANTS FOR rol_u2"),
    ("root", "SHOW GRANTS FOR rol_nosuch"),
    # An account without its role enabled has none of its privileges.
    ("rol_u1", "SELECT CURRENT_ROLE()"),
    ("rol_u1", "SELECT * FROM rol_d.t ORDER BY a"),
    ("rol_u1", "SHOW GRANTS"),
    ("rol_u1", "SHOW GRANTS FOR CURRENT_ROLE"),
    ("rol_u1", "SELECT * FROM information_schema.ENABLED_ROLES"),
    ("rol_u1", "SELECT * FROM information_schema.APPLICABLE_ROLES ORDER BY 1, 2"),
    # SET ROLE: only a role granted to the account itself.
    ("rol_u1", "SET ROLE rol_reader"),
    ("rol_u1", "SET ROLE rol_nosuch"),
    ("rol_u1", "SET ROLE rol_writer"),
    ("rol_u1", "SELECT CURRENT_ROLE()"),
    ("rol_u1", "SELECT * FROM rol_d.t ORDER BY a"),
    ("rol_u1", "INSERT INTO rol_d.t VALUES (3, 30)"),
    ("rol_u1", "UPDATE rol_d.t SET b = 31 WHERE a = 3"),
    ("rol_u1", "DELETE FROM rol_d.t WHERE a = 3"),
    ("rol_u1", "SELECT * FROM rol_e.x"),
    ("rol_u1", "USE rol_d"),
    ("rol_u1", "USE rol_e"),
    ("rol_u1", "SHOW DATABASES LIKE 'rol%'"),
    ("rol_u1", "SHOW TABLES FROM rol_d"),
    ("rol_u1", "SHOW GRANTS"),
    ("rol_u1", "SHOW GRANTS FOR CURRENT_ROLE"),
    ("rol_u1", "SHOW GRANTS FOR CURRENT_ROLE()"),
    ("rol_u1", "SHOW GRANTS FOR CURRENT_USER"),
    ("rol_u1", "SHOW GRANTS FOR rol_u1"),
    ("rol_u1", "SHOW GRANTS FOR rol_writer"),
    ("rol_u1", "SELECT * FROM information_schema.ENABLED_ROLES ORDER BY 1"),
    ("rol_u1", "SELECT * FROM information_schema.APPLICABLE_ROLES ORDER BY 1, 2"),
    # A live session sees its role's grants change at its next statement.
    # (Table grants: MariaDB keeps a session's privileges on its current
    # database as they were at USE.)
    ("root", "REVOKE INSERT ON rol_d.t FROM rol_writer"),
    ("rol_u1", "INSERT INTO rol_d.t VALUES (4, 40)"),
    ("root", "GRANT INSERT ON rol_d.t TO rol_writer"),
    ("rol_u1", "INSERT INTO rol_d.t VALUES (4, 40)"),
    ("rol_u1", "SELECT * FROM rol_d.t ORDER BY a"),
    ("rol_u1", "SET ROLE NONE"),
    ("rol_u1", "SELECT CURRENT_ROLE()"),
    ("rol_u1", "SELECT * FROM rol_d.t ORDER BY a"),
    ("rol_u1", "SHOW GRANTS FOR CURRENT_ROLE"),
    ("rol_u1", "SELECT * FROM information_schema.ENABLED_ROLES"),
    # Default roles: enabled at login, shown by SHOW GRANTS.
    ("rol_u1", "SET DEFAULT ROLE rol_reader"),
    ("rol_u1", "SET DEFAULT ROLE rol_writer"),
    ("rol_u1", "SHOW GRANTS"),
    ("root", "SHOW GRANTS FOR rol_u1"),
    ("rol_u1!", "SELECT CURRENT_ROLE()"),
    ("rol_u1", "SELECT COUNT(*) FROM rol_d.t"),
    ("rol_u1", "SELECT * FROM information_schema.APPLICABLE_ROLES ORDER BY 1, 2"),
    ("root", "SET DEFAULT ROLE rol_nosuch FOR rol_u1"),
    ("root", "SET DEFAULT ROLE rol_reader FOR rol_u1"),
    ("root", "SET DEFAULT ROLE rol_writer FOR rol_nobody"),
    # WITH ADMIN OPTION lets an account grant the role on, and only it.
    ("rol_u2", "GRANT rol_reader TO rol_u1"),
    ("rol_u2", "SHOW GRANTS FOR rol_u1"),
    ("rol_u2", "GRANT rol_writer TO rol_u2"),
    ("rol_u2", "REVOKE rol_reader FROM rol_u1"),
    ("rol_u2", "SET DEFAULT ROLE rol_reader FOR rol_u1"),
    ("rol_u2", "CREATE ROLE rol_y"),
    ("rol_u2", "DROP ROLE rol_reader"),
    ("root", "REVOKE ADMIN OPTION FOR rol_reader FROM rol_u2"),
    ("root", "SHOW GRANTS FOR rol_u2"),
    ("rol_u2", "GRANT rol_reader TO rol_u1"),
    ("root", "REVOKE rol_writer FROM rol_u2"),
    ("root", "REVOKE rol_nosuch FROM rol_u2"),
    # Dropping a role that is granted, and the default role, of a live session.
    ("rol_u1!", "SELECT CURRENT_ROLE()"),
    ("root", "DROP ROLE rol_writer"),
    ("root", "SHOW GRANTS FOR rol_u1"),
    ("rol_u1", "SELECT COUNT(*) FROM rol_d.t"),
    ("rol_u1!", "SELECT CURRENT_ROLE()"),
    ("rol_u1", "SHOW GRANTS"),
    ("root", "DROP ROLE rol_nosuch, rol_reader"),
    ("root", "DROP ROLE IF EXISTS rol_nosuch"),
    ("root", "SHOW WARNINGS"),
    ("root", "SHOW GRANTS FOR rol_u2"),
    # CREATE OR REPLACE starts the role afresh; WITH ADMIN another account.
    ("root", "CREATE ROLE rol_c WITH ADMIN rol_u1"),
    ("root", "GRANT SELECT (a), UPDATE (b) ON rol_d.t TO rol_c"),
    ("root", "GRANT rol_c TO rol_u2"),
    ("root", "SHOW GRANTS FOR rol_c"),
    ("root", "SHOW GRANTS FOR rol_u1"),
    ("root", "CREATE OR REPLACE ROLE rol_c"),
    ("root", "SHOW GRANTS FOR rol_c"),
    ("root", "SHOW GRANTS FOR rol_u2"),
    ("root", "CREATE ROLE rol_d2 WITH ADMIN rol_nobody"),
    ("root", "SHOW WARNINGS"),
    ("root", "SHOW GRANTS FOR rol_d2"),
]


def drop_leftovers(conn):
    """The reference MariaDB is shared by the session: start clean."""
    roles = run(conn, "SELECT user FROM mysql.user WHERE is_role = 'Y' AND user LIKE 'rol\\_%'")
    for (role,) in roles if isinstance(roles, list) else []:
        run(conn, f"DROP ROLE {role}")
    accounts = run(conn, "SELECT user, host FROM mysql.user WHERE user LIKE 'rol\\_%'")
    for user, host in accounts if isinstance(accounts, list) else []:
        run(conn, f"DROP USER '{user}'@'{host}'")
    for db in ("rol_d", "rol_e"):
        run(conn, f"DROP DATABASE IF EXISTS {db}")


@pytest.fixture
def both(onelog_server, mariadb_server):
    conns = [prepare(srv, SETUP, drop_leftovers) for srv in (onelog_server, mariadb_server)]
    yield onelog_server, mariadb_server
    drop_leftovers(mariadb_server.connect(autocommit=True))
    for c in conns:
        c.close()


class Sessions:
    """One connection per account on one server, made when first used."""

    def __init__(self, srv):
        self.srv = srv
        self.conns = {"root": srv.connect(autocommit=True)}

    def get(self, who):
        fresh = who.endswith("!")
        who = who.rstrip("!")
        if fresh and who in self.conns:
            self.conns.pop(who).close()
        if who not in self.conns:
            self.conns[who] = self.srv.connect(user=who, password=PASSWORDS[who], autocommit=True)
        return self.conns[who]


def test_role_steps_match_mariadb(both):
    sessions = [Sessions(srv) for srv in both]
    mismatches = []
    for who, sql in STEPS:
        got = [run(s.get(who), sql) for s in sessions]
        if got[0] != got[1]:
            mismatches.append(f"{who}: {sql}\n  onelog:  {got[0]}\n  mariadb: {got[1]}")
    assert not mismatches, "\n".join(mismatches)
    assert len(STEPS) >= 20


def test_cli_and_pymysql_with_a_default_role(both):
    for srv in both:
        root = srv.connect(autocommit=True)
        for sql in ["CREATE ROLE rol_cli", "GRANT SELECT ON rol_d.t TO rol_cli", "GRANT rol_cli TO rol_u1",
                    "SET DEFAULT ROLE rol_cli FOR rol_u1"]:
            assert run(root, sql) == "ok", (srv.kind, sql)
    script = "SELECT CURRENT_ROLE(); SELECT COUNT(*) FROM rol_d.t; SET ROLE NONE; SELECT COUNT(*) FROM rol_d.t"
    results = [srv.cli("-e", script, user="rol_u1", password="pw1") for srv in both]
    assert [r.returncode for r in results] == [1, 1], results
    assert results[0].stdout == results[1].stdout, results
    assert "rol_cli" in results[0].stdout
    assert results[0].stderr.split(" (")[0] == results[1].stderr.split(" (")[0], results
    outcomes = []
    for srv in both:
        conn = srv.connect(user="rol_u1", password="pw1", autocommit=True)
        outcomes.append([run(conn, "SELECT CURRENT_ROLE()"), run(conn, "SELECT a FROM rol_d.t ORDER BY a")])
    assert outcomes[0] == outcomes[1] == [[("rol_cli",)], [(1,), (2,)]], outcomes


ROLE_CHANGES = [
    "CREATE DATABASE rol_d",
    "CREATE TABLE rol_d.t (a INT)",
    "CREATE USER rol_k1 IDENTIFIED BY 'pk1'",
    "CREATE USER rol_k2@localhost",
    "CREATE ROLE rol_base",
    "CREATE ROLE rol_top",
    "CREATE ROLE rol_side WITH ADMIN rol_k2@localhost",
    "GRANT SELECT ON rol_d.* TO rol_base",
    "GRANT INSERT ON rol_d.t TO rol_top",
    "GRANT rol_base TO rol_top",
    "GRANT rol_top TO rol_k1 WITH ADMIN OPTION",
    "GRANT rol_base TO rol_k2@localhost",
    "SET DEFAULT ROLE rol_top FOR rol_k1",
    "CREATE ROLE rol_gone",
    "GRANT rol_gone TO rol_k1",
    "DROP ROLE rol_gone",
    "GRANT rol_top TO rol_k2@localhost WITH ADMIN OPTION",
    "REVOKE ADMIN OPTION FOR rol_top FROM rol_k2@localhost",
]
KEPT = ["rol_k1", "rol_k2@localhost", "rol_base", "rol_top", "rol_side", "root@localhost"]


def all_grants(srv, names):
    conn = srv.connect(autocommit=True)
    return {n: run(conn, f"SHOW GRANTS FOR {n}") for n in names}


def test_roles_survive_kill9(server_factory):
    srv = server_factory(kind="onelog", log_bin=True)
    conn = srv.connect(autocommit=True)
    for sql in ROLE_CHANGES:
        assert run(conn, sql) == "ok", sql
    before = all_grants(srv, KEPT)
    assert ("GRANT `rol_top` TO `rol_k1`@`%` WITH ADMIN OPTION",) in before["rol_k1"]
    srv.kill9()
    srv.start()
    assert all_grants(srv, KEPT) == before
    assert run(srv.connect(autocommit=True), "SHOW GRANTS FOR rol_gone") == ("error", 1141)
    user = srv.connect(user="rol_k1", password="pk1", autocommit=True)
    assert run(user, "SELECT CURRENT_ROLE()") == [("rol_top",)]
    assert run(user, "INSERT INTO rol_d.t SELECT COUNT(*) FROM rol_d.t") == "ok"


def test_mariadb_replica_gets_the_same_roles(server_factory, replica):
    source = server_factory(kind="onelog", log_bin=True)
    conn = source.connect(autocommit=True)
    log_file = first_binlog(source)
    for sql in ROLE_CHANGES:
        assert run(conn, sql) == "ok", sql
    replica_conn = start_replica(replica, source, log_file)
    wait_caught_up(replica_conn, conn)
    names = KEPT[:-1]  # root@localhost: MariaDB's has its own PROXY grant
    assert all_grants(replica, names) == all_grants(source, names)
    user = replica.connect(user="rol_k1", password="pk1", autocommit=True)
    assert run(user, "SELECT CURRENT_ROLE()") == [("rol_top",)]
    with pytest.raises(pymysql.err.MySQLError):
        replica.connect(user="rol_k1", password="wrong")
