"""Accounts and privileges, side by side with MariaDB 10.11.

The same accounts are created on OneLog and on the reference MariaDB, then
each account connects (pymysql, and the `mariadb` CLI for a few) and runs
statements it may and may not run: the outcome (rows or error code) must be
the same statement by statement. SHOW GRANTS and SHOW CREATE USER must print
the same text for every grant combination. Accounts survive kill -9 exactly,
no binlog event holds a plaintext password, and a MariaDB replica of OneLog
ends up with the same grants.
"""
from __future__ import annotations

import subprocess
import time

import pymysql
import pytest

from harness import MARIADB_BINLOG
from test_replication import first_binlog, start_replica, wait_caught_up

PREFIX = "acc_"

SETUP = [
    "CREATE DATABASE acc_d",
    "CREATE TABLE acc_d.t (a INT, b INT)",
    "INSERT INTO acc_d.t VALUES (1, 10), (2, 20)",
    "CREATE TABLE acc_d.t2 (a INT)",
    "CREATE DATABASE acc_e",
    "CREATE TABLE acc_e.x (a INT)",
    "CREATE USER acc_r@'%' IDENTIFIED BY 'pw_r'",
    "GRANT SELECT ON acc_d.* TO acc_r",
    "CREATE USER acc_w IDENTIFIED BY 'pw_w'",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON acc_d.t TO acc_w",
    "CREATE USER acc_admin IDENTIFIED BY 'pw_a'",
    "GRANT ALL ON acc_d.* TO acc_admin WITH GRANT OPTION",
    "GRANT RELOAD, PROCESS ON *.* TO acc_admin",
    "CREATE USER acc_none IDENTIFIED BY 'pw_n'",
    "CREATE USER acc_repl IDENTIFIED BY 'pw_p'",
    "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO acc_repl",
    "CREATE USER acc_locked IDENTIFIED BY 'pw_l' ACCOUNT LOCK",
]

PASSWORDS = {"acc_r": "pw_r", "acc_w": "pw_w", "acc_admin": "pw_a", "acc_none": "pw_n", "acc_repl": "pw_p"}

# What every account tries, in order. A leading "~" compares only success or
# the error code (the servers' binlog states differ).
SCENARIO = [
    "SELECT CURRENT_USER(), USER()",
    "SHOW GRANTS",
    "SELECT * FROM acc_d.t ORDER BY a",
    "SELECT a FROM acc_d.t2",
    "SELECT * FROM acc_e.x",
    "SELECT COUNT(*) FROM acc_d.t WHERE a IN (SELECT a FROM acc_e.x)",
    "INSERT INTO acc_d.t VALUES (9, 90)",
    "UPDATE acc_d.t SET b = 91 WHERE a = 9",
    "DELETE FROM acc_d.t WHERE a = 9",
    "INSERT INTO acc_d.t2 SELECT a FROM acc_d.t",
    "DELETE FROM acc_d.t2",
    "CREATE TABLE acc_d.n (a INT)",
    "ALTER TABLE acc_d.n ADD COLUMN b INT",
    "CREATE INDEX i ON acc_d.n (a)",
    "DROP TABLE acc_d.n",
    "TRUNCATE TABLE acc_e.x",
    "CREATE DATABASE acc_new",
    "DROP DATABASE acc_new",
    "USE acc_e",
    "USE acc_d",
    "SHOW DATABASES LIKE 'acc%'",
    "SHOW TABLES FROM acc_d",
    "SHOW TABLES FROM acc_e",
    "SHOW COLUMNS FROM acc_e.x",
    "SHOW CREATE TABLE acc_d.t",
    "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA LIKE 'acc%' ORDER BY 1, 2",
    "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'acc%' ORDER BY 1",
    "LOCK TABLES acc_d.t READ",
    "UNLOCK TABLES",
    "FLUSH TABLES",
    "SET GLOBAL max_connections = 1100",
    "SET SESSION sql_mode = DEFAULT",
    "~SHOW MASTER STATUS",
    "~SHOW BINLOG EVENTS LIMIT 1",
    "PURGE BINARY LOGS BEFORE '2000-01-01 00:00:00'",
    "SHUTDOWN",
    "CREATE USER acc_made",
    "DROP USER acc_none",
    "RENAME USER acc_none TO acc_none2",
    "GRANT SELECT ON acc_d.t TO acc_none",
    "GRANT SELECT ON acc_d.* TO acc_none",
    "GRANT SELECT ON *.* TO acc_none",
    "REVOKE SELECT ON acc_d.t FROM acc_none",
    "SHOW GRANTS FOR acc_none",
    "SHOW GRANTS FOR root@localhost",
    "SHOW CREATE USER acc_w",
    "SET PASSWORD FOR acc_none = PASSWORD('pw_n')",
    "ALTER USER acc_none ACCOUNT UNLOCK",
    "SELECT * FROM mysql.user",
]

# Grant combinations whose SHOW GRANTS and SHOW CREATE USER must read as
# MariaDB's: (account, statements after CREATE USER).
COMBINATIONS = [
    ("acc_g01", []),
    ("acc_g02", ["ALTER USER acc_g02 IDENTIFIED BY 'x'"]),
    ("acc_g03", ["GRANT SELECT ON *.* TO acc_g03"]),
    ("acc_g04", ["GRANT ALL ON *.* TO acc_g04 WITH GRANT OPTION"]),
    ("acc_g05", ["GRANT ALL PRIVILEGES ON acc_d.* TO acc_g05"]),
    ("acc_g06", ["GRANT SELECT, INSERT ON acc_d.* TO acc_g06 WITH GRANT OPTION"]),
    ("acc_g07", ["GRANT SELECT ON acc_d.t TO acc_g07"]),
    ("acc_g08", ["GRANT ALL ON acc_d.t TO acc_g08"]),
    ("acc_g09", ["GRANT SELECT (a), UPDATE (a, b) ON acc_d.t TO acc_g09"]),
    ("acc_g10", ["GRANT SELECT, INSERT (b) ON acc_d.t TO acc_g10 WITH GRANT OPTION"]),
    ("acc_g11", ["GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO acc_g11"]),
    ("acc_g12", ["GRANT RELOAD, PROCESS, SUPER ON *.* TO acc_g12"]),
    ("acc_g13", ["GRANT USAGE ON *.* TO acc_g13 WITH MAX_USER_CONNECTIONS 5 MAX_QUERIES_PER_HOUR 100"]),
    ("acc_g14", ["ALTER USER acc_g14 REQUIRE SSL"]),
    ("acc_g15", ["GRANT SELECT ON `acc\\_%`.* TO acc_g15"]),
    ("acc_g16", ["GRANT ALL ON acc_d.* TO acc_g16", "REVOKE DELETE ON acc_d.* FROM acc_g16"]),
    ("acc_g17", ["GRANT ALL ON *.* TO acc_g17", "REVOKE SUPER ON *.* FROM acc_g17"]),
    ("acc_g18", ["GRANT CREATE, DROP, ALTER, INDEX ON acc_d.t TO acc_g18"]),
    ("acc_g19", ["GRANT EXECUTE, CREATE ROUTINE, ALTER ROUTINE ON acc_d.* TO acc_g19"]),
    ("acc_g20", ["GRANT ALL ON acc_d.t TO acc_g20", "REVOKE ALL ON acc_d.t FROM acc_g20"]),
    ("acc_g21", ["GRANT SELECT ON acc_d.* TO acc_g21 WITH GRANT OPTION",
                 "REVOKE GRANT OPTION ON acc_d.* FROM acc_g21"]),
    ("acc_g22", ["GRANT DELETE HISTORY, SHOW VIEW, CREATE VIEW, TRIGGER, EVENT, LOCK TABLES, "
                 "CREATE TEMPORARY TABLES ON acc_d.* TO acc_g22"]),
    ("acc_g23", ["ALTER USER acc_g23 IDENTIFIED BY 'y' ACCOUNT LOCK PASSWORD EXPIRE"]),
    ("acc_g24", ["GRANT SELECT ON acc_d.t TO acc_g24", "GRANT INSERT ON acc_d.* TO acc_g24",
                 "GRANT PROCESS ON *.* TO acc_g24 WITH GRANT OPTION"]),
    ("acc_g25", ["GRANT ALL ON *.* TO acc_g25 WITH GRANT OPTION",
                 "REVOKE ALL PRIVILEGES, GRANT OPTION FROM acc_g25"]),
    ("acc_g26", ["GRANT SELECT, UPDATE (b) ON acc_d.t TO acc_g26", "REVOKE UPDATE (b) ON acc_d.t FROM acc_g26"]),
    ("acc_g27", ["ALTER USER acc_g27 REQUIRE SUBJECT '/C=FI/CN=it''s me' AND ISSUER '/CN=CA' CIPHER 'EDH-RSA-DES-CBC3-SHA'"]),
    ("acc_g28", ["GRANT SELECT ON acc_d.* TO acc_g28 REQUIRE CIPHER 'TLS_AES_256_GCM_SHA384'",
                 "GRANT USAGE ON *.* TO acc_g28 REQUIRE ISSUER '/CN=CA'"]),
]


def run(conn, sql):
    """Rows, or ("error", code), of one statement."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return [tuple(r) for r in cur.fetchall()] if cur.description else "ok"
    except pymysql.err.MySQLError as e:
        return ("error", e.args[0])


def drop_leftovers(conn):
    """The reference MariaDB is shared by the session: start clean. (OneLog
    starts fresh, and has no mysql.user to list.)"""
    accounts = run(conn, f"SELECT user, host FROM mysql.user WHERE user LIKE '{PREFIX}%' OR user = ''")
    for user, host in accounts if isinstance(accounts, list) else []:
        run(conn, f"DROP USER '{user}'@'{host}'")
    for db in ("acc_d", "acc_e", "acc_new"):
        run(conn, f"DROP DATABASE IF EXISTS {db}")


def prepare(srv, setup=SETUP, drop=drop_leftovers):
    """A root connection to `srv` after `drop` cleaned up and `setup` ran."""
    conn = srv.connect(autocommit=True)
    drop(conn)
    for sql in setup:
        assert run(conn, sql) == "ok", (srv.kind, sql)
    return conn


def prepared_pair(onelog, mariadb, setup, drop):
    """Fixture body: both servers prepared with `setup`; afterwards the shared
    MariaDB is cleaned with `drop` and the connections closed."""
    conns = (prepare(onelog, setup, drop), prepare(mariadb, setup, drop))
    yield onelog, mariadb, conns
    drop(mariadb.connect(autocommit=True))
    for c in conns:
        c.close()


def login(srv, user, password, **kw):
    return srv.connect(user=user, password=password, autocommit=True, **kw)


def normalized(sql, outcome):
    if sql.startswith("~"):
        return outcome if isinstance(outcome, tuple) else "ok"
    return outcome


@pytest.fixture
def both(onelog_server, mariadb_server):
    conns = (prepare(onelog_server), prepare(mariadb_server))
    yield onelog_server, mariadb_server
    drop_leftovers(mariadb_server.connect(autocommit=True))
    for c in conns:
        c.close()


def test_each_account_may_run_what_mariadb_lets_it(both):
    onelog, mariadb = both
    mismatches = []
    for user, password in PASSWORDS.items():
        conns = [login(srv, user, password) for srv in (onelog, mariadb)]
        for sql in SCENARIO:
            got = [normalized(sql, run(c, sql.lstrip("~"))) for c in conns]
            if got[0] != got[1]:
                mismatches.append(f"{user}: {sql}\n  onelog:  {got[0]}\n  mariadb: {got[1]}")
        for c in conns:
            c.close()
    assert not mismatches, "\n".join(mismatches)


def test_logins_fail_as_in_mariadb(both):
    for user, password in [("acc_r", "wrong"), ("acc_nobody", "x"), ("acc_r", ""), ("acc_locked", "pw_l")]:
        codes = []
        for srv in both:
            try:
                login(srv, user, password).close()
                codes.append("ok")
            except pymysql.err.MySQLError as e:
                codes.append(e.args[0])
        assert codes[0] == codes[1], (user, password, codes)
        assert codes[0] != "ok"


def test_cli_as_a_limited_account(both):
    for args in (["-e", "SELECT CURRENT_USER(); SHOW DATABASES LIKE 'acc%'"], ["-e", "SELECT * FROM acc_e.x"],
                 ["acc_d", "-e", "SELECT COUNT(*) FROM t"], ["acc_e", "-e", "SELECT 1"]):
        results = [srv.cli(*args, user="acc_r", password="pw_r") for srv in both]
        assert [r.returncode for r in results] == [results[1].returncode] * 2, (args, results)
        assert results[0].stdout == results[1].stdout, (args, results)
        assert results[0].stderr.split(" (")[0] == results[1].stderr.split(" (")[0], (args, results)


def test_show_grants_text_matches_for_each_combination(both):
    conns = [srv.connect(autocommit=True) for srv in both]
    mismatches = []
    for user, statements in COMBINATIONS:
        for conn in conns:
            assert run(conn, f"CREATE USER {user}") == "ok"
            for sql in statements:
                assert run(conn, sql) == "ok", sql
        for show in (f"SHOW GRANTS FOR {user}", f"SHOW CREATE USER {user}"):
            got = [run(c, show) for c in conns]
            if got[0] != got[1]:
                mismatches.append(f"{show} after {statements}\n  onelog:  {got[0]}\n  mariadb: {got[1]}")
    assert not mismatches, "\n".join(mismatches)


def test_account_statement_errors_match(both):
    conns = [srv.connect(autocommit=True) for srv in both]
    statements = [
        "SELECT PASSWORD('x'), PASSWORD(''), PASSWORD(NULL)",
        "CREATE USER acc_r",
        "CREATE USER IF NOT EXISTS acc_r",
        "SHOW WARNINGS",
        "CREATE USER acc_x1, acc_r, acc_x2",
        "SHOW GRANTS FOR acc_x1",
        "SHOW GRANTS FOR acc_x2",
        "DROP USER acc_nobody",
        "DROP USER IF EXISTS acc_nobody",
        "SHOW WARNINGS",
        "ALTER USER acc_nobody IDENTIFIED BY 'x'",
        "RENAME USER acc_nobody TO acc_n2",
        "RENAME USER acc_x1 TO acc_r",
        "SET PASSWORD FOR acc_nobody = PASSWORD('x')",
        "GRANT SELECT ON acc_d.* TO acc_nobody",
        "GRANT SUPER ON acc_d.* TO acc_r",
        "GRANT EXECUTE ON acc_d.t TO acc_r",
        "GRANT SELECT (nope) ON acc_d.t TO acc_r",
        "GRANT SELECT (a) ON acc_d.missing TO acc_r",
        "REVOKE SELECT ON acc_e.* FROM acc_r",
        "REVOKE SELECT ON acc_d.t2 FROM acc_r",
        "REVOKE ALL PRIVILEGES, GRANT OPTION FROM acc_nobody",
        "CREATE USER acc_bad IDENTIFIED BY PASSWORD 'xyz'",
        # A plugin neither has loaded (ed25519 is built into OneLog: test_auth_plugins).
        "CREATE USER acc_pam IDENTIFIED VIA pam",
        "GRANT SELECT ON acc_d.* TO acc_auto IDENTIFIED BY 'pw'",
        "SHOW GRANTS FOR acc_auto",
        "SHOW GRANTS FOR acc_nobody",
        "SHOW CREATE USER acc_nobody",
        "CREATE USER ''@'localhost'",
        "SHOW GRANTS FOR ''@'localhost'",
        "DROP USER ''@'localhost'",
        "CREATE USER 'acc_h'@'192.168.0.0/255.255.0.0'",
        "SHOW GRANTS FOR 'acc_h'@'192.168.0.0/255.255.0.0'",
    ]
    for sql in statements:
        got = [run(c, sql) for c in conns]
        assert got[0] == got[1], f"{sql}\n  onelog:  {got[0]}\n  mariadb: {got[1]}"


def test_anonymous_localhost_account_shadows_user_at_any_host(both):
    """MariaDB's rule: ''@'localhost' sorts before 'u'@'%', so u's password
    no longer works from localhost."""
    for srv in both:
        run(srv.connect(autocommit=True), "CREATE USER ''@'localhost'")
    try:
        outcomes = []
        for srv in both:
            try:
                conn = login(srv, "acc_r", "")
                outcomes.append(run(conn, "SELECT CURRENT_USER(), USER()"))
            except pymysql.err.MySQLError as e:
                outcomes.append(("error", e.args[0]))
        assert outcomes[0] == outcomes[1], outcomes
        assert outcomes[0] == [("@localhost", "acc_r@localhost")]
    finally:
        for srv in both:
            run(srv.connect(autocommit=True), "DROP USER ''@'localhost'")


def test_dropped_or_changed_grants_apply_to_live_sessions(both):
    onelog, mariadb = both
    outcomes = []
    for srv in (onelog, mariadb):
        root = srv.connect(autocommit=True)
        user = login(srv, "acc_w", "pw_w")
        seq = [run(user, "SELECT COUNT(*) FROM acc_d.t")]
        run(root, "REVOKE SELECT ON acc_d.t FROM acc_w")
        seq.append(run(user, "SELECT COUNT(*) FROM acc_d.t"))
        run(root, "GRANT SELECT ON acc_d.* TO acc_w")
        seq.append(run(user, "SELECT COUNT(*) FROM acc_d.t"))
        outcomes.append(seq)
    assert outcomes[0] == outcomes[1], outcomes
    assert outcomes[0][1] == ("error", 1142)


def test_password_expired_allows_only_set_password(both):
    outcomes = []
    for srv in both:
        root = srv.connect(autocommit=True)
        run(root, "ALTER USER acc_none PASSWORD EXPIRE")
        try:
            try:
                login(srv, "acc_none", "pw_n").close()
                refused = None
            except pymysql.err.MySQLError as e:
                refused = e.args[0]
            # pymysql does not announce that it handles expired passwords;
            # the CLI does, and gets MariaDB's sandbox.
            r1 = srv.cli("-e", "SELECT 1", user="acc_none", password="pw_n")
            r2 = srv.cli("-e", "SET PASSWORD = PASSWORD('pw_n2'); SELECT 1", user="acc_none", password="pw_n")
            outcomes.append((refused, r1.returncode, r1.stderr.split(" (")[0][:40], r2.returncode, r2.stdout))
        finally:
            run(root, "DROP USER acc_none")
    assert outcomes[0] == outcomes[1], outcomes


def all_grants(srv, users):
    conn = srv.connect(autocommit=True)
    return {u: run(conn, f"SHOW GRANTS FOR {u}") for u in users}


ACCOUNT_CHANGES = [
    "CREATE USER acc_k1@'%' IDENTIFIED BY 'plain-secret-1'",
    "CREATE USER acc_k2@localhost IDENTIFIED VIA mysql_native_password USING PASSWORD('plain-secret-2')",
    "GRANT SELECT, INSERT ON acc_d.* TO acc_k1 WITH GRANT OPTION",
    "GRANT SELECT (a) ON acc_d.t TO acc_k2@localhost",
    "GRANT ALL ON acc_e.* TO acc_k3 IDENTIFIED BY 'plain-secret-3'",
    "SET PASSWORD FOR acc_k1 = PASSWORD('plain-secret-4')",
    "ALTER USER acc_k3 IDENTIFIED BY 'plain-secret-5' WITH MAX_USER_CONNECTIONS 4",
    "CREATE USER acc_k4 IDENTIFIED BY 'plain-secret-6'",
    "RENAME USER acc_k4 TO acc_k5@'10.0.%'",
    "REVOKE INSERT ON acc_d.* FROM acc_k1",
    "CREATE USER acc_k6",
    "DROP USER acc_k6",
]
SECRETS = [f"plain-secret-{i}".encode() for i in range(1, 7)]
KEPT = ["acc_k1", "acc_k2@localhost", "acc_k3", "acc_k5@'10.0.%'"]


def test_accounts_survive_kill9_and_no_plaintext_reaches_the_binlog(server_factory):
    srv = server_factory(kind="onelog", log_bin=True)
    conn = srv.connect(autocommit=True)
    for sql in ["CREATE DATABASE acc_d", "CREATE TABLE acc_d.t (a INT)", "CREATE DATABASE acc_e"] + ACCOUNT_CHANGES:
        assert run(conn, sql) == "ok", sql
    before = all_grants(srv, KEPT)
    srv.kill9()
    srv.start()
    assert all_grants(srv, KEPT) == before
    assert run(srv.connect(autocommit=True), "SHOW GRANTS FOR acc_k6") == ("error", 1141)
    login(srv, "acc_k1", "plain-secret-4").close()
    login(srv, "acc_k3", "plain-secret-5").close()
    raw = b"".join(p.read_bytes() for p in srv.binlog_files())
    assert b"IDENTIFIED BY PASSWORD" in raw
    for secret in SECRETS:
        assert secret not in raw, secret
    decoded = subprocess.run([MARIADB_BINLOG, "-v", *map(str, srv.binlog_files())],
                             capture_output=True, text=True).stdout
    # A grantee written without a host is logged without one (a role or
    # 'acc_k1'@'%', resolved alike by a replay or a replica), as MariaDB logs it.
    assert "GRANT SELECT, INSERT ON `acc_d`.* TO 'acc_k1' WITH GRANT OPTION" in decoded
    assert not any(s.decode() in decoded for s in SECRETS)


def test_old_accounts_file_is_migrated(server_factory):
    srv = server_factory(kind="onelog", start=False)
    srv.datadir.mkdir(parents=True, exist_ok=True)
    # What OneLog wrote before accounts were catalog data: root with password "pw".
    (srv.datadir / "onelog-users.json").write_text(
        '[{"user":"root","host":"localhost","native_hash":"*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19",'
        '"sha2_hash":"00"},{"user":"root","host":"%",'
        '"native_hash":"*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19","sha2_hash":"00"}]')
    srv.root_password = "password"
    srv.start()
    conn = srv.connect(autocommit=True)
    assert run(conn, "SELECT CURRENT_USER()") == [("root@localhost",)]
    assert (srv.datadir / "onelog-users.json.migrated").exists()
    srv.restart()
    assert run(srv.connect(autocommit=True), "SHOW GRANTS")[0][0].startswith(
        "GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` IDENTIFIED BY PASSWORD '*2470C0C06DEE42FD")


def test_mariadb_replica_gets_the_same_grants(server_factory, replica):
    source = server_factory(kind="onelog", log_bin=True)
    conn = source.connect(autocommit=True)
    log_file = first_binlog(source)
    for sql in ["CREATE DATABASE acc_d", "CREATE TABLE acc_d.t (a INT)", "CREATE DATABASE acc_e"] + ACCOUNT_CHANGES:
        assert run(conn, sql) == "ok", sql
    replica_conn = start_replica(replica, source, log_file)
    wait_caught_up(replica_conn, conn)
    assert all_grants(replica, KEPT) == all_grants(source, KEPT)
    login(replica, "acc_k1", "plain-secret-4").close()


def test_replication_account_needs_replication_slave(server_factory, replica):
    source = server_factory(kind="onelog", log_bin=True)
    conn = source.connect(autocommit=True)
    run(conn, "CREATE USER acc_rep IDENTIFIED BY 'rpw'")
    run(conn, "GRANT SELECT ON *.* TO acc_rep")
    log_file = first_binlog(source)
    rconn = replica.connect(autocommit=True)
    run(rconn, f"CHANGE MASTER TO MASTER_HOST='{source.host}', MASTER_PORT={source.port}, MASTER_USER='acc_rep', "
               f"MASTER_PASSWORD='rpw', MASTER_LOG_FILE='{log_file}', MASTER_LOG_POS=4, MASTER_USE_GTID=no, "
               "MASTER_CONNECT_RETRY=1")
    run(conn, "CREATE DATABASE acc_before")
    run(rconn, "START SLAVE")
    # Refused (the replica keeps retrying): nothing arrives.
    time.sleep(3)
    assert run(rconn, "SHOW DATABASES LIKE 'acc_before'") == []
    with rconn.cursor(pymysql.cursors.DictCursor) as cur:
        cur.execute("SHOW SLAVE STATUS")
        assert cur.fetchone()["Slave_IO_Running"] != "Yes"
    run(conn, "GRANT REPLICATION SLAVE ON *.* TO acc_rep")
    run(conn, "CREATE DATABASE acc_after")
    deadline = time.monotonic() + 30
    while run(rconn, "SHOW DATABASES LIKE 'acc_after'") != [("acc_after",)]:
        assert time.monotonic() < deadline, "the replica did not connect once granted REPLICATION SLAVE"
        time.sleep(0.2)
    wait_caught_up(rconn, conn)
    assert run(rconn, "SHOW DATABASES LIKE 'acc_%'") == [("acc_after",), ("acc_before",)]
