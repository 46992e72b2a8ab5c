"""Privilege enforcement beyond the statement checks of test_accounts.py,
side by side with MariaDB 10.11: read_only, SHOW PROCESSLIST / KILL of
other users' threads, per-account resource limits and REQUIRE SSL, column
grants, SET of system variables. Each test runs the same statements on both servers as the same
accounts and compares the outcome (rows or error code) statement by
statement.
"""
from __future__ import annotations

import pymysql
import pytest

from test_accounts import run

PREFIX = "prv_"


def drop_leftovers(conn):
    """The reference MariaDB is shared by the session: start clean."""
    run(conn, "SET GLOBAL read_only = 0")
    accounts = run(conn, f"SELECT user, host FROM mysql.user WHERE user LIKE '{PREFIX}%'")
    for user, host in accounts if isinstance(accounts, list) else []:
        run(conn, f"DROP USER '{user}'@'{host}'")
    run(conn, "DROP DATABASE IF EXISTS prv_d")


def setup(srv, statements):
    conn = srv.connect(autocommit=True)
    drop_leftovers(conn)
    for sql in ["CREATE DATABASE prv_d", "CREATE TABLE prv_d.t (a INT, b INT, c INT)",
                "INSERT INTO prv_d.t VALUES (1, 10, 100), (2, 20, 200)"] + statements:
        assert run(conn, sql) == "ok", (srv.kind, sql)
    return conn


def login(srv, user, **kw):
    return srv.connect(user=user, password="pw", autocommit=True, **kw)


@pytest.fixture
def both(onelog_server, mariadb_server):
    servers = (onelog_server, mariadb_server)
    yield servers
    drop_leftovers(mariadb_server.connect(autocommit=True))


def mismatches(conns, statements, who):
    """Runs `statements` on each connection (OneLog's, MariaDB's); where the
    outcomes differ, described."""
    out = []
    for sql in statements:
        got = [run(c, sql) for c in conns]
        if got[0] != got[1]:
            out.append(f"{who}: {sql}\n  onelog:  {got[0]}\n  mariadb: {got[1]}")
    return out


def compare(servers, user, statements, **kw):
    """Runs `statements` as `user` on both servers; the mismatches."""
    conns = [login(srv, user, **kw) for srv in servers]
    found = mismatches(conns, statements, user)
    for c in conns:
        c.close()
    return found


# read_only ----------------------------------------------------------------

READ_ONLY_ACCOUNTS = [
    "CREATE USER prv_plain IDENTIFIED BY 'pw'",
    "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, INDEX, CREATE TEMPORARY TABLES "
    "ON prv_d.* TO prv_plain",
    "CREATE USER prv_super IDENTIFIED BY 'pw'",
    "GRANT SUPER, CREATE USER ON *.* TO prv_super",
    "GRANT ALL ON prv_d.* TO prv_super",
    "CREATE USER prv_admin IDENTIFIED BY 'pw'",
    "GRANT READ_ONLY ADMIN ON *.* TO prv_admin",
    "GRANT ALL ON prv_d.* TO prv_admin",
    "CREATE USER prv_none IDENTIFIED BY 'pw'",
    "CREATE USER prv_reader IDENTIFIED BY 'pw'",
    "GRANT SELECT ON prv_d.* TO prv_reader",
    "CREATE USER prv_victim IDENTIFIED BY 'pw'",
]

# What each account tries while read_only is on (prv_admin last: it may
# change things, and it switches read_only off at the end).
READ_ONLY_SCENARIO = [
    "SELECT @@read_only, @@global.read_only",
    "SELECT a FROM prv_d.t ORDER BY a",
    "SELECT a FROM prv_d.t WHERE a = 1 LOCK IN SHARE MODE",
    "SELECT a FROM prv_d.t WHERE a = 1 FOR UPDATE",
    "INSERT INTO prv_d.t VALUES (3, 30, 300)",
    "INSERT INTO prv_d.t SELECT * FROM prv_d.t WHERE 0",
    "UPDATE prv_d.t SET b = 11 WHERE a = 1",
    "UPDATE prv_d.t SET b = 11 WHERE 0",
    "DELETE FROM prv_d.t WHERE a = 99",
    "REPLACE INTO prv_d.t VALUES (1, 10, 100)",
    "CREATE TABLE prv_d.n (a INT)",
    "CREATE TABLE IF NOT EXISTS prv_d.t (a INT)",
    "ALTER TABLE prv_d.t ADD COLUMN z INT",
    "CREATE INDEX i ON prv_d.t (a)",
    "TRUNCATE TABLE prv_d.t",
    "RENAME TABLE prv_d.t TO prv_d.q",
    "CREATE VIEW prv_d.v AS SELECT 1",
    "DROP TABLE IF EXISTS prv_d.missing",
    "CREATE DATABASE prv_e",
    "ANALYZE TABLE prv_d.t",
    "OPTIMIZE TABLE prv_d.t",
    "CHECK TABLE prv_d.t",
    "CREATE TEMPORARY TABLE prv_d.tmp (a INT)",
    "INSERT INTO prv_d.tmp VALUES (1)",
    "UPDATE prv_d.tmp SET a = 2",
    "SELECT a FROM prv_d.tmp",
    "DELETE FROM prv_d.tmp",
    "DROP TEMPORARY TABLE prv_d.tmp",
    "BEGIN",
    "INSERT INTO prv_d.t VALUES (4, 40, 400)",
    "ROLLBACK",
    "CREATE USER prv_made",
    "ALTER USER prv_victim IDENTIFIED BY 'x'",
    "RENAME USER prv_victim TO prv_victim2",
    "GRANT SELECT ON prv_d.* TO prv_victim",
    "REVOKE ALL PRIVILEGES, GRANT OPTION FROM prv_victim",
    "DROP USER IF EXISTS prv_victim",
    "SET PASSWORD = PASSWORD('pw')",
    "SET GLOBAL read_only = 0",
    "SET GLOBAL read_only = 1",
    "SELECT a, b FROM prv_d.t ORDER BY a",
]


def test_read_only_refuses_changes_as_mariadb(both):
    for srv in both:
        conn = setup(srv, READ_ONLY_ACCOUNTS)
        assert run(conn, "SET GLOBAL read_only = 1") == "ok"
    found = []
    for user in ("prv_none", "prv_reader", "prv_plain", "prv_super", "prv_admin"):
        found += compare(both, user, READ_ONLY_SCENARIO)
    # The server's administrator (every privilege) is not held back.
    found += compare_root(both, ["INSERT INTO prv_d.t VALUES (5, 50, 500)", "SET GLOBAL read_only = 0",
                                      "SELECT COUNT(*) FROM prv_d.t"])
    assert not found, "\n".join(found)


def compare_root(servers, statements):
    return mismatches([srv.connect(autocommit=True) for srv in servers], statements, "root")


def test_read_only_at_start_still_replays_the_binlog(onelog_server):
    """Started with --read-only after kill -9, the server replays its binlog
    (the applier is not an account and is not refused); then a plain
    account's writes are refused and the administrator's are not."""
    conn = setup(onelog_server, READ_ONLY_ACCOUNTS)
    assert run(conn, "INSERT INTO prv_d.t VALUES (3, 30, 300)") == "ok"
    onelog_server.kill9()
    onelog_server.extra_args.append("--read-only=1")
    onelog_server.start()
    conn = onelog_server.connect(autocommit=True)
    assert run(conn, "SELECT @@global.read_only, COUNT(*) FROM prv_d.t") == [(1, 3)]
    plain = login(onelog_server, "prv_plain")
    assert run(plain, "INSERT INTO prv_d.t VALUES (4, 40, 400)") == ("error", 1290)
    assert run(conn, "INSERT INTO prv_d.t VALUES (4, 40, 400)") == "ok"


# SHOW PROCESSLIST and KILL ------------------------------------------------

PROCESS_ACCOUNTS = [
    "CREATE USER prv_p1 IDENTIFIED BY 'pw'",
    "CREATE USER prv_p2 IDENTIFIED BY 'pw'",
    "GRANT PROCESS ON *.* TO prv_p2",
    "CREATE USER prv_k IDENTIFIED BY 'pw'",
    "GRANT CONNECTION ADMIN ON *.* TO prv_k",
]


def visible_users(conn, sql):
    rows = run(conn, sql)
    assert isinstance(rows, list), rows
    return sorted({r[1] for r in rows if r[1] == "root" or r[1].startswith(PREFIX)})


def test_processlist_shows_other_users_only_with_process(both):
    outcomes = []
    for srv in both:
        setup(srv, PROCESS_ACCOUNTS)
        root = srv.connect(autocommit=True)
        root_id = run(root, "SELECT CONNECTION_ID()")[0][0]
        seen = {}
        for user in ("prv_p1", "prv_p2", "prv_k"):
            conn = login(srv, user)
            own_id = run(conn, "SELECT CONNECTION_ID()")[0][0]
            seen[user] = (
                visible_users(conn, "SHOW PROCESSLIST"),
                visible_users(conn, "SHOW FULL PROCESSLIST"),
                visible_users(conn, "SELECT ID, USER FROM information_schema.PROCESSLIST"),
                run(conn, f"KILL QUERY {root_id}"),
                run(conn, f"KILL QUERY {own_id}"),
            )
            conn.close()
        outcomes.append(seen)
        root.close()
    assert outcomes[0] == outcomes[1]
    # Not vacuous: the account without PROCESS sees itself only, the
    # other one sees root too, and KILL of root's thread is refused (1095)
    # unless CONNECTION ADMIN.
    assert outcomes[0]["prv_p1"][0] == ["prv_p1"]
    assert "root" in outcomes[0]["prv_p2"][0]
    assert outcomes[0]["prv_p1"][3] == ("error", 1095)
    assert outcomes[0]["prv_k"][3] == "ok"


# REQUIRE SSL / X509 -------------------------------------------------------

@pytest.fixture(scope="module")
def certs_with_client(tmp_path_factory):
    """The CA and server certificate of test_tls, and a client certificate
    the same CA signs."""
    from test_tls import make_ca_and_server_cert, openssl

    d = tmp_path_factory.mktemp("certs")
    certs = make_ca_and_server_cert(d)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=prv client",
            "-keyout", "client-key.pem", "-out", "client.csr", cwd=d)
    # A v3 certificate: rustls (webpki) refuses X.509 v1 ones.
    (d / "client-ext.cnf").write_text("extendedKeyUsage=clientAuth\n")
    openssl("x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-days", "2", "-extfile", "client-ext.cnf", "-out", "client-cert.pem", cwd=d)
    return {**certs, "client_cert": str(d / "client-cert.pem"), "client_key": str(d / "client-key.pem")}


REQUIRE_ACCOUNTS = [
    "CREATE USER prv_ssl IDENTIFIED BY 'pw' REQUIRE SSL",
    "CREATE USER prv_x509 IDENTIFIED BY 'pw' REQUIRE X509",
    "CREATE USER prv_plain IDENTIFIED BY 'pw'",
    "CREATE USER prv_later IDENTIFIED BY 'pw'",
    "ALTER USER prv_later REQUIRE SSL",
    "CREATE USER prv_ssl@localhost IDENTIFIED BY 'pw' REQUIRE SSL",
    "CREATE USER prv_subject IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=prv client'",
    "CREATE USER prv_issuer IDENTIFIED BY 'pw' REQUIRE ISSUER '/CN=test test CA' AND SUBJECT '/CN=prv client'",
    "CREATE USER prv_other IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=someone else'",
    "CREATE USER prv_cipher IDENTIFIED BY 'pw' REQUIRE CIPHER 'TLS_AES_256_GCM_SHA384'",
    "CREATE USER prv_tls12 IDENTIFIED BY 'pw' REQUIRE CIPHER 'ECDHE-RSA-AES256-GCM-SHA384'",
]


def login_outcome(srv, user, **kw):
    """The login's outcome: the session's TLS cipher being set, or the
    error code."""
    try:
        conn = login(srv, user, **kw)
    except pymysql.err.MySQLError as e:
        return e.args[0]
    rows = run(conn, "SHOW STATUS LIKE 'Ssl_cipher'")
    conn.close()
    return "tls" if rows and rows[0][1] else "plain"


@pytest.mark.parametrize("kind", ["onelog", "mariadb"])
def test_require_ssl_and_x509_at_login(server_factory, certs_with_client, kind):
    from test_tls import tls_args

    certs = certs_with_client
    srv = server_factory(kind=kind, extra_args=tls_args(certs))
    admin = srv.connect(autocommit=True)
    for sql in REQUIRE_ACCOUNTS:
        assert run(admin, sql) == "ok", sql
    plain = {"ssl_disabled": True}
    tls = {"ssl": {"ca": certs["ca"]}}
    with_cert = {"ssl": {"ca": certs["ca"], "cert": certs["client_cert"], "key": certs["client_key"]}}
    socket = {"unix_socket": srv.socket, "ssl_disabled": True}
    got = {(user, how): login_outcome(srv, user, **kw)
           for user in ("prv_ssl", "prv_x509", "prv_plain", "prv_later", "prv_subject", "prv_issuer", "prv_other",
                        "prv_cipher", "prv_tls12")
           for how, kw in (("plain", plain), ("tls", tls), ("cert", with_cert), ("socket", socket))}
    # What MariaDB 10.11 answers (the same test runs against it): REQUIRE
    # SSL refuses a plain TCP login and a socket one (1045), X509 one
    # without a client certificate; SUBJECT / ISSUER take a certificate with
    # those names, CIPHER the suite named (TLS 1.3's AES-256 is negotiated).
    assert got == {
        ("prv_ssl", "plain"): 1045, ("prv_ssl", "tls"): "tls", ("prv_ssl", "cert"): "tls",
        ("prv_ssl", "socket"): 1045,
        ("prv_x509", "plain"): 1045, ("prv_x509", "tls"): 1045, ("prv_x509", "cert"): "tls",
        ("prv_x509", "socket"): 1045,
        ("prv_plain", "plain"): "plain", ("prv_plain", "tls"): "tls", ("prv_plain", "cert"): "tls",
        ("prv_plain", "socket"): "plain",
        ("prv_later", "plain"): 1045, ("prv_later", "tls"): "tls", ("prv_later", "cert"): "tls",
        ("prv_later", "socket"): 1045,
        ("prv_subject", "plain"): 1045, ("prv_subject", "tls"): 1045, ("prv_subject", "cert"): "tls",
        ("prv_subject", "socket"): 1045,
        ("prv_issuer", "plain"): 1045, ("prv_issuer", "tls"): 1045, ("prv_issuer", "cert"): "tls",
        ("prv_issuer", "socket"): 1045,
        ("prv_other", "plain"): 1045, ("prv_other", "tls"): 1045, ("prv_other", "cert"): 1045,
        ("prv_other", "socket"): 1045,
        ("prv_cipher", "plain"): 1045, ("prv_cipher", "tls"): "tls", ("prv_cipher", "cert"): "tls",
        ("prv_cipher", "socket"): 1045,
        ("prv_tls12", "plain"): 1045, ("prv_tls12", "tls"): 1045, ("prv_tls12", "cert"): 1045,
        ("prv_tls12", "socket"): 1045,
    }


# Per-account resource limits -----------------------------------------------

LIMIT_ACCOUNTS = [
    "CREATE USER prv_q IDENTIFIED BY 'pw' WITH MAX_QUERIES_PER_HOUR 6 MAX_UPDATES_PER_HOUR 2",
    "GRANT ALL ON prv_d.* TO prv_q",
    "CREATE USER prv_c IDENTIFIED BY 'pw' WITH MAX_USER_CONNECTIONS 1 MAX_CONNECTIONS_PER_HOUR 3",
    "CREATE USER prv_admin_c IDENTIFIED BY 'pw' WITH MAX_USER_CONNECTIONS 1",
    "GRANT SUPER ON *.* TO prv_admin_c",
]


def limits_scenario(srv):
    """The outcome of each step: statements against the hourly statement
    limits, then logins against the connection limits."""
    admin = srv.connect(autocommit=True)
    steps = []
    q = login(srv, "prv_q")
    for sql in ["INSERT INTO prv_d.t VALUES (3, 30, 300)", "UPDATE prv_d.t SET b = 0 WHERE a = 3",
                "DELETE FROM prv_d.t WHERE a = 3", "SELECT COUNT(*) FROM prv_d.t", "SELECT 1", "SELECT 2",
                "SHOW TABLES FROM prv_d"]:
        steps.append((sql, run(q, sql)))
    steps.append(("FLUSH USER_RESOURCES as prv_q", run(q, "FLUSH USER_RESOURCES")))
    steps.append(("FLUSH USER_RESOURCES", run(admin, "FLUSH USER_RESOURCES")))
    for sql in ["SELECT 3", "INSERT INTO prv_d.t VALUES (4, 40, 400)"]:
        steps.append((sql, run(q, sql)))

    def connect(user):
        try:
            return login(srv, user), "ok"
        except pymysql.err.MySQLError as e:
            return None, (e.args[0], e.args[1])

    first, outcome = connect("prv_c")
    steps.append(("prv_c 1", outcome))
    second, outcome = connect("prv_c")
    steps.append(("prv_c 2 while 1 is open", outcome))
    first.close()
    for n in (3, 4, 5):
        conn, outcome = connect("prv_c")
        steps.append((f"prv_c {n}", outcome))
        if conn:
            conn.close()
    steps.append(("FLUSH USER_RESOURCES", run(admin, "FLUSH USER_RESOURCES")))
    steps.append(("prv_c after FLUSH", connect("prv_c")[1]))
    # The account's own MAX_USER_CONNECTIONS holds the admin too.
    held, outcome = connect("prv_admin_c")
    steps.append(("prv_admin_c 1", outcome))
    steps.append(("prv_admin_c 2", connect("prv_admin_c")[1]))
    held.close()
    return steps


def test_account_resource_limits_as_mariadb(both):
    outcomes = []
    for srv in both:
        setup(srv, LIMIT_ACCOUNTS)
        outcomes.append(limits_scenario(srv))
    found = [f"{a[0]}\n  onelog:  {a[1]}\n  mariadb: {b[1]}" for a, b in zip(*outcomes) if a != b]
    assert not found, "\n".join(found)
    # Not vacuous: each limit refused something with 1226.
    steps = dict(outcomes[0])
    assert steps["DELETE FROM prv_d.t WHERE a = 3"] == ("error", 1226)  # the third change
    assert steps["SELECT 2"] == ("error", 1226)  # the 7th: pymysql sends one at connect
    assert steps["SELECT 3"] == [(3,)]  # after FLUSH USER_RESOURCES
    refused = " ".join(str(o) for _, o in outcomes[0] if "1226" in str(o))
    for resource in ("max_user_connections", "max_connections_per_hour"):
        assert resource in refused, (resource, outcomes[0])


# Column grants -----------------------------------------------------------

COLUMN_ACCOUNTS = [
    "CREATE USER prv_col IDENTIFIED BY 'pw'",
    "GRANT SELECT (a, b), INSERT (a), UPDATE (b), REFERENCES (a) ON prv_d.t TO prv_col",
    "CREATE USER prv_upd IDENTIFIED BY 'pw'",
    "GRANT UPDATE ON prv_d.t TO prv_upd",
    "CREATE USER prv_mixed IDENTIFIED BY 'pw'",
    "GRANT INSERT ON prv_d.t TO prv_mixed",
    "GRANT SELECT (c) ON prv_d.t TO prv_mixed",
    "CREATE TABLE prv_d.u (a INT, d INT)",
    "INSERT INTO prv_d.u VALUES (1, 5), (7, 8)",
    "GRANT SELECT (a) ON prv_d.u TO prv_col",
    "GRANT SELECT ON prv_d.u TO prv_mixed",
]

COLUMN_SCENARIO = [
    "SELECT a, b FROM prv_d.t ORDER BY a",
    "SELECT c FROM prv_d.t",
    "SELECT * FROM prv_d.t",
    "SELECT t.* FROM prv_d.t",
    "SELECT a FROM prv_d.t WHERE c = 100",
    "SELECT a FROM prv_d.t ORDER BY c",
    "SELECT a AS c FROM prv_d.t ORDER BY c",
    "SELECT COUNT(*) FROM prv_d.t",
    "SELECT MAX(b) FROM prv_d.t GROUP BY a ORDER BY a",
    "SELECT A, B FROM prv_d.t ORDER BY A",
    "INSERT INTO prv_d.t (a) VALUES (5)",
    "INSERT INTO prv_d.t (a, c) VALUES (6, 6)",
    "INSERT INTO prv_d.t VALUES (7, 7, 7)",
    "UPDATE prv_d.t SET b = 1 WHERE a = 5",
    "UPDATE prv_d.t SET a = 1 WHERE a = 5",
    "UPDATE prv_d.t SET b = c WHERE a = 5",
    "UPDATE prv_d.t SET b = 2",
    "DELETE FROM prv_d.t WHERE a = 5",
    "SHOW COLUMNS FROM prv_d.t",
    "SHOW FULL COLUMNS FROM prv_d.t",
    "SELECT TABLE_NAME, COLUMN_NAME, PRIVILEGES FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'prv_d' "
    "ORDER BY 1, 2",
    # Joins: each column checked against its own table.
    "SELECT t.a, u.d FROM prv_d.t JOIN prv_d.u ON t.a = u.a",
    "SELECT t.a, u.a FROM prv_d.t JOIN prv_d.u ON t.a = u.a ORDER BY 1",
    "SELECT b FROM prv_d.t JOIN prv_d.u USING (a)",
    "SELECT t.b FROM prv_d.t JOIN prv_d.u ON t.c = u.a",
    "SELECT d FROM prv_d.t JOIN prv_d.u ON t.a = u.a",
    "SELECT c FROM prv_d.t LEFT JOIN prv_d.u ON t.a = u.a ORDER BY 1",
    "SELECT x.a, y.b FROM prv_d.t x JOIN prv_d.t y ON x.a = y.a ORDER BY 1",
    "SELECT x.a, y.c FROM prv_d.t x, prv_d.t y",
    "SELECT t.* FROM prv_d.t JOIN prv_d.u ON t.a = u.a",
    "SELECT u.* FROM prv_d.t JOIN prv_d.u ON t.a = u.a",
    "SELECT * FROM prv_d.t JOIN prv_d.u ON t.a = u.a",
    # INSERT ... SELECT: INSERT on the columns written, SELECT on those read.
    "INSERT INTO prv_d.t (a) SELECT a FROM prv_d.u WHERE a = 7",
    "INSERT INTO prv_d.t (a) SELECT d FROM prv_d.u",
    "INSERT INTO prv_d.t (b) SELECT a FROM prv_d.u",
    "INSERT INTO prv_d.t (a) SELECT b FROM prv_d.t WHERE a = 1",
    "INSERT INTO prv_d.t SELECT a, a, a FROM prv_d.u",
    "SELECT a, b FROM prv_d.t ORDER BY a, b",
]


def test_column_grants_as_mariadb(both):
    for srv in both:
        setup(srv, COLUMN_ACCOUNTS)
    found = []
    for user in ("prv_col", "prv_upd", "prv_mixed"):
        found += compare(both, user, COLUMN_SCENARIO)
    assert not found, "\n".join(found)


# SET of system variables ---------------------------------------------------

SET_ACCOUNTS = [
    "CREATE USER prv_none IDENTIFIED BY 'pw'",
    "CREATE USER prv_super IDENTIFIED BY 'pw'",
    "GRANT SUPER ON *.* TO prv_super",
    "CREATE USER prv_conn IDENTIFIED BY 'pw'",
    "GRANT CONNECTION ADMIN ON *.* TO prv_conn",
    "CREATE USER prv_binlog IDENTIFIED BY 'pw'",
    "GRANT BINLOG ADMIN ON *.* TO prv_binlog",
    "CREATE USER prv_replay IDENTIFIED BY 'pw'",
    "GRANT BINLOG REPLAY ON *.* TO prv_replay",
    "CREATE USER prv_master IDENTIFIED BY 'pw'",
    "GRANT REPLICATION MASTER ADMIN ON *.* TO prv_master",
    "CREATE USER prv_ro IDENTIFIED BY 'pw'",
    "GRANT READ_ONLY ADMIN ON *.* TO prv_ro",
]

# Each sets a variable to the value it has: only the privilege check can
# tell the outcomes apart.
SET_SCENARIO = [
    "SET GLOBAL max_connections = @@global.max_connections",
    "SET GLOBAL max_connect_errors = @@global.max_connect_errors",
    "SET GLOBAL connect_timeout = @@global.connect_timeout",
    "SET GLOBAL sync_binlog = @@global.sync_binlog",
    "SET GLOBAL max_binlog_size = @@global.max_binlog_size",
    "SET GLOBAL expire_logs_days = @@global.expire_logs_days",
    "SET GLOBAL binlog_expire_logs_seconds = @@global.binlog_expire_logs_seconds",
    "SET GLOBAL binlog_format = @@global.binlog_format",
    "SET GLOBAL wait_timeout = @@global.wait_timeout",
    "SET GLOBAL sql_mode = @@global.sql_mode",
    "SET GLOBAL server_id = @@global.server_id",
    "SET GLOBAL gtid_domain_id = @@global.gtid_domain_id",
    "SET GLOBAL read_only = @@global.read_only",
    "SET SESSION sql_log_bin = 1",
    "SET SESSION binlog_format = 'ROW'",
    "SET SESSION pseudo_thread_id = 7",
    "SET SESSION server_id = @@global.server_id",
    "SET SESSION gtid_domain_id = 0",
    "SET SESSION wait_timeout = 100",
    "SET @@session.sql_mode = 'STRICT_TRANS_TABLES'",
]


def test_set_variable_privileges_as_mariadb(both):
    """SET GLOBAL takes SUPER, or the admin privilege MariaDB 10.5 split off
    it for that variable (CONNECTION / BINLOG / REPLICATION MASTER ADMIN,
    READ_ONLY ADMIN alone for read_only); a few session variables that
    replay the binlog take BINLOG ADMIN or BINLOG REPLAY."""
    for srv in both:
        setup(srv, SET_ACCOUNTS)
    found = []
    users = ["prv_none", "prv_super", "prv_conn", "prv_binlog", "prv_replay", "prv_master", "prv_ro"]
    for user in users:
        found += compare(both, user, SET_SCENARIO)
    assert not found, "\n".join(found)
    # Not vacuous: each admin privilege lets its own variables through only.
    conn = login(both[0], "prv_conn")
    assert run(conn, SET_SCENARIO[0]) == "ok"
    assert run(conn, "SET GLOBAL sync_binlog = @@global.sync_binlog") == ("error", 1227)
