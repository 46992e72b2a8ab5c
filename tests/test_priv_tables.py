"""The grant tables of mysql and information_schema's privilege tables, side
by side with MariaDB 10.11.

The same accounts and roles, with grants at every level, are created on
OneLog and on the reference MariaDB; then root, an account with SELECT on
mysql.* and accounts without it read mysql.user / global_priv / db /
tables_priv / columns_priv / roles_mapping and USER_ / SCHEMA_ / TABLE_ /
COLUMN_PRIVILEGES: rows (or the error code) must match statement by
statement. Writes to the grant tables are refused, and the tables follow
account changes at once (they are computed from the accounts, not copied).
(tests/corpus/32_priv_tables.sql compares the same tables' column metadata.)
"""
from __future__ import annotations

import pytest

from test_accounts import login, prepared_pair, run
from test_privileges import mismatches

PREFIX = "ptv_"

SETUP = [
    "CREATE DATABASE ptv_d",
    "CREATE TABLE ptv_d.t (a INT, b INT, c INT)",
    "CREATE TABLE ptv_d.u (a INT)",
    "CREATE DATABASE ptv_e",
    "CREATE USER ptv_root_like IDENTIFIED BY 'pw1'",
    "GRANT ALL ON *.* TO ptv_root_like WITH GRANT OPTION",
    "CREATE USER ptv_reader IDENTIFIED BY 'pw2'",
    "GRANT SELECT ON mysql.* TO ptv_reader",
    "CREATE USER ptv_db@'%' IDENTIFIED BY 'pw3'",
    "GRANT SELECT, INSERT, UPDATE ON ptv_d.* TO ptv_db WITH GRANT OPTION",
    "GRANT CREATE, DROP ON `ptv\\_%`.* TO ptv_db",
    "CREATE USER ptv_tab@localhost IDENTIFIED BY 'pw4' ACCOUNT LOCK",
    "GRANT SELECT, DELETE ON ptv_d.t TO ptv_tab@localhost WITH GRANT OPTION",
    "GRANT INSERT ON ptv_d.u TO ptv_tab@localhost",
    "CREATE USER ptv_col IDENTIFIED BY 'pw5' WITH MAX_USER_CONNECTIONS 4 MAX_QUERIES_PER_HOUR 50",
    "GRANT SELECT (a, b), UPDATE (c) ON ptv_d.t TO ptv_col",
    "GRANT INSERT (a) ON ptv_d.u TO ptv_col WITH GRANT OPTION",
    "CREATE USER ptv_glob IDENTIFIED BY 'pw6' REQUIRE SSL PASSWORD EXPIRE",
    "GRANT RELOAD, PROCESS, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO ptv_glob",
    "CREATE USER ptv_none IDENTIFIED BY 'pw7'",
    "CREATE USER ptv_grantonly IDENTIFIED BY 'pw8'",
    "GRANT USAGE ON *.* TO ptv_grantonly WITH GRANT OPTION",
    "GRANT USAGE ON ptv_e.* TO ptv_grantonly WITH GRANT OPTION",
    "CREATE ROLE ptv_role_a",
    "CREATE ROLE ptv_role_b",
    "GRANT SELECT ON ptv_e.* TO ptv_role_a",
    "GRANT UPDATE ON ptv_d.u TO ptv_role_a",
    "GRANT INSERT (b) ON ptv_d.t TO ptv_role_b",
    "GRANT ptv_role_b TO ptv_role_a",
    "GRANT ptv_role_a TO ptv_db WITH ADMIN OPTION",
    "GRANT ptv_role_a TO ptv_none",
    "SET DEFAULT ROLE ptv_role_a FOR ptv_none",
    "CREATE USER ptv_mysqlcol IDENTIFIED BY 'pw9'",
    "GRANT SELECT ON mysql.db TO ptv_mysqlcol",
    "CREATE USER ptv_cert REQUIRE SUBJECT '/CN=ptv' AND ISSUER '/CN=ca' CIPHER 'TLS_AES_256_GCM_SHA384'",
]

PASSWORDS = {"ptv_reader": "pw2", "ptv_db": "pw3", "ptv_col": "pw5", "ptv_none": "pw7",
             "ptv_grantonly": "pw8", "ptv_mysqlcol": "pw9", "ptv_root_like": "pw1"}

MINE = f"LIKE '%{PREFIX}%'"

# What each connection reads, ORDER BY every column so order is total.
READS = [
    f"SELECT User, Host FROM mysql.user WHERE User {MINE} ORDER BY 1, 2",
    f"SELECT * FROM mysql.user WHERE User {MINE} ORDER BY User, Host",
    "SELECT user, host, JSON_VALUE(priv, '$.plugin'), JSON_VALUE(priv, '$.authentication_string'), "
    "JSON_VALUE(priv, '$.access'), JSON_VALUE(priv, '$.is_role'), JSON_VALUE(priv, '$.account_locked'), "
    "JSON_VALUE(priv, '$.max_user_connections'), "
    "JSON_VALUE(priv, '$.max_questions'), JSON_VALUE(priv, '$.default_role') "
    f"FROM mysql.global_priv WHERE user {MINE} ORDER BY user, host",
    f"SELECT * FROM mysql.db WHERE User {MINE} ORDER BY User, Host, Db",
    "SELECT Host, Db, User, Table_name, Timestamp, Table_priv, Column_priv "
    f"FROM mysql.tables_priv WHERE User {MINE} ORDER BY User, Host, Db, Table_name",
    f"SELECT * FROM mysql.columns_priv WHERE User {MINE} ORDER BY User, Host, Db, Table_name, Column_name",
    f"SELECT * FROM mysql.roles_mapping WHERE User {MINE} ORDER BY User, Host, Role",
    f"SELECT * FROM information_schema.USER_PRIVILEGES WHERE GRANTEE {MINE} ORDER BY 1, 2, 3, 4",
    f"SELECT * FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE {MINE} ORDER BY 1, 2, 3, 4, 5",
    f"SELECT * FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE {MINE} ORDER BY 1, 2, 3, 4, 5, 6",
    f"SELECT * FROM information_schema.COLUMN_PRIVILEGES WHERE GRANTEE {MINE} ORDER BY 1, 2, 3, 4, 5, 6, 7",
    "SHOW FULL TABLES FROM mysql WHERE Tables_in_mysql IN "
    "('user', 'global_priv', 'db', 'tables_priv', 'columns_priv', 'roles_mapping')",
    "SHOW COLUMNS FROM mysql.user",
    "SELECT COUNT(*) FROM mysql.db d JOIN mysql.user u ON u.User = d.User AND u.Host = d.Host "
    f"WHERE d.User {MINE}",
    f"SELECT User FROM mysql.user WHERE User {MINE} AND User IN "
    "(SELECT User FROM mysql.roles_mapping) ORDER BY 1",
]

# Changes the grant tables must refuse, as root.
WRITES = [
    "UPDATE mysql.user SET Select_priv = 'Y' WHERE User = 'ptv_none'",
    "INSERT INTO mysql.user (User, Host) VALUES ('ptv_x', '%')",
]


def drop_leftovers(conn):
    """The reference MariaDB is shared by the session: start clean."""
    for table in ("user", "roles_mapping"):
        names = run(conn, f"SELECT User, Host FROM mysql.{table} WHERE User LIKE '{PREFIX}%'")
        for user, host in names if isinstance(names, list) else []:
            run(conn, f"DROP USER '{user}'@'{host}'")
    for role in ("ptv_role_a", "ptv_role_b"):
        run(conn, f"DROP ROLE IF EXISTS {role}")
    for db in ("ptv_d", "ptv_e"):
        run(conn, f"DROP DATABASE IF EXISTS {db}")


@pytest.fixture
def both(onelog_server, mariadb_server):
    yield from prepared_pair(onelog_server, mariadb_server, SETUP, drop_leftovers)


def test_root_reads_the_grant_tables_as_mariadb(both):
    _, _, conns = both
    found = mismatches(conns, READS, "root")
    assert not found, "\n".join(found)
    # Not vacuous: every table has rows for the accounts made above.
    for sql in READS[:11]:
        assert run(conns[0], sql) not in ([], "ok"), sql


def test_each_account_reads_what_mariadb_shows_it(both):
    onelog, mariadb, _ = both
    found = []
    for user, password in PASSWORDS.items():
        conns = [login(srv, user, password) for srv in (onelog, mariadb)]
        found += mismatches(conns, READS, user)
        for c in conns:
            c.close()
    assert not found, "\n".join(found)


def test_enabled_role_does_not_widen_the_privilege_tables(both):
    """A session sees its own account's rows in the information_schema
    privilege tables, not its enabled role's, as MariaDB's filter does."""
    onelog, mariadb, _ = both
    conns = [login(srv, "ptv_db", "pw3") for srv in (onelog, mariadb)]
    for c in conns:
        assert run(c, "SET ROLE ptv_role_a") == "ok"
    found = mismatches(conns, READS, "ptv_db with ptv_role_a")
    assert not found, "\n".join(found)


def test_writes_to_the_grant_tables_are_refused(both):
    _, _, conns = both
    found = mismatches(conns, WRITES, "root")
    assert not found, "\n".join(found)
    onelog = conns[0]
    # MariaDB's own tables take these writes; OneLog's projections refuse
    # every one, so that accounts change only through account statements.
    for sql in ["DELETE FROM mysql.user WHERE User = 'ptv_none'",
                "INSERT INTO mysql.global_priv VALUES ('%', 'ptv_x', '{}')",
                "UPDATE mysql.db SET Select_priv = 'Y'",
                "DELETE FROM mysql.tables_priv",
                "TRUNCATE TABLE mysql.columns_priv",
                "REPLACE INTO mysql.roles_mapping VALUES ('%', 'ptv_none', 'ptv_role_b', 'N')",
                "DROP TABLE mysql.db",
                "ALTER TABLE mysql.global_priv ADD COLUMN x INT"]:
        code = 1356 if " mysql.user " in f"{sql} " else 1036
        assert run(onelog, sql) == ("error", code), sql
    assert run(onelog, "SELECT COUNT(*) FROM mysql.user WHERE User = 'ptv_none'") == [(1,)]
    # A plain account is refused by the privilege check first (1142).
    conns = [login(srv, "ptv_col", "pw5") for srv in (both[0], both[1])]
    found = mismatches(conns, WRITES + ["DELETE FROM mysql.db"], "ptv_col")
    assert not found, "\n".join(found)


def test_grant_tables_follow_account_changes(both):
    _, _, conns = both
    changes = [
        "GRANT DELETE ON ptv_d.* TO ptv_db",
        "REVOKE UPDATE (c) ON ptv_d.t FROM ptv_col",
        "REVOKE ptv_role_a FROM ptv_none",
        "RENAME USER ptv_grantonly TO ptv_renamed",
        "ALTER USER ptv_glob REQUIRE NONE ACCOUNT LOCK",
        "REVOKE ALL PRIVILEGES, GRANT OPTION FROM ptv_db",
        "DROP ROLE ptv_role_b",
    ]
    found = []
    for change in changes:
        got = [run(c, change) for c in conns]
        assert got[0] == got[1] == "ok", (change, got)
        found += mismatches(conns, READS, f"after {change}")
    assert not found, "\n".join(found)
