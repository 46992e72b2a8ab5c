"""Authentication plugins with real clients, side by side with MariaDB 10.11.

ed25519 (MariaDB's auth_ed25519, which the `mariadb` CLI and pymysql speak as
client_ed25519): the stored key equals MariaDB's for the same password, the
CLI and pymysql log in, a wrong password is refused with 1045, and the
account statements' errors are MariaDB's. OneLog has the plugin built in;
MariaDB must INSTALL SONAME 'auth_ed25519' first, which OneLog accepts with
MariaDB's answers.
"""
from __future__ import annotations

import subprocess

import pymysql
import pytest

from harness import MARIADB_BINLOG, outcome


def mariadb_with_ed25519(mariadb_server):
    conn = mariadb_server.connect(autocommit=True)
    outcome(conn, "INSTALL SONAME 'auth_ed25519'")
    return conn


@pytest.fixture
def both(server_factory):
    onelog = server_factory(kind="onelog", log_bin=True)
    mariadb = server_factory(kind="mariadb", log_bin=False)
    mariadb_with_ed25519(mariadb)
    return [onelog, mariadb]


def run_ok(conn, sql):
    result = outcome(conn, sql)
    assert not (isinstance(result, tuple) and result[:1] == ("error",)), (sql, result)


def login(srv, user, password, **kw):
    return pymysql.connect(host=srv.host, port=srv.port, user=user, password=password,
                           connect_timeout=10, autocommit=True, **kw)


def login_error(srv, user, password):
    try:
        login(srv, user, password).close()
    except pymysql.err.OperationalError as e:
        return e.args[0]
    return None


# Account statements about ed25519 whose outcome (rows or error code) must be
# MariaDB's, in order, on a MariaDB where auth_ed25519 is installed.
ED25519_STATEMENTS = [
    "INSTALL SONAME 'auth_ed25519'",
    "INSTALL SONAME 'auth_ed25519.so'",
    "INSTALL PLUGIN ed25519 SONAME 'auth_ed25519'",
    "INSTALL PLUGIN unix_socket SONAME 'auth_socket'",
    "INSTALL PLUGIN nosuch SONAME 'auth_ed25519'",
    "INSTALL SONAME 'auth_socket'",
    "INSTALL SONAME 'nosuch'",
    "CREATE USER ap_e1 IDENTIFIED VIA ed25519 USING PASSWORD('pw')",
    "SHOW CREATE USER ap_e1",
    "SHOW GRANTS FOR ap_e1",
    "CREATE USER ap_e2 IDENTIFIED VIA ed25519 USING PASSWORD('')",
    "SHOW CREATE USER ap_e2",
    "CREATE USER ap_e3 IDENTIFIED VIA ed25519",
    "SHOW CREATE USER ap_e3",
    "CREATE USER ap_e4 IDENTIFIED VIA ed25519 USING '4LH+dBF+G5W2CKTyId8xR3SyDqZoQjUNUVNxx8aWbG4'",
    "SHOW CREATE USER ap_e4",
    "CREATE USER ap_bad1 IDENTIFIED VIA ed25519 USING 'abc'",
    "CREATE USER ap_bad2 IDENTIFIED VIA ed25519 USING '!LH+dBF+G5W2CKTyId8xR3SyDqZoQjUNUVNxx8aWbG4'",
    "CREATE USER ap_bad3 IDENTIFIED WITH ed25519 AS 'vRq+ROSzhW4MwhdoPvlkL1fHkT0w6ZDDbTpVQwSNQ9'",
    "CREATE USER ap_bad4 IDENTIFIED VIA nosuch_plugin",
    "SET PASSWORD FOR ap_e4 = PASSWORD('zz')",
    "SHOW CREATE USER ap_e4",
    "SET PASSWORD FOR ap_e4 = 'vRq+ROSzhW4MwhdoPvlkL1fHkT0w6ZDDbTpVQwSNQ90'",
    "SHOW CREATE USER ap_e4",
    "SET PASSWORD FOR ap_e4 = 'short'",
    "GRANT SELECT ON *.* TO ap_e5 IDENTIFIED VIA ed25519 USING PASSWORD('a')",
    "SHOW GRANTS FOR ap_e5",
    "ALTER USER ap_e5 IDENTIFIED BY 'native'",
    "SHOW CREATE USER ap_e5",
    "ALTER USER ap_e5 IDENTIFIED WITH ed25519 USING PASSWORD('b')",
    "SHOW CREATE USER ap_e5",
    "CREATE USER ap_s1 IDENTIFIED VIA unix_socket",
    "SHOW CREATE USER ap_s1",
    "CREATE USER ap_s2 IDENTIFIED VIA unix_socket USING PASSWORD('x')",
    "CREATE USER ap_s3 IDENTIFIED VIA unix_socket USING 'x'",
    "SHOW CREATE USER ap_s3",
    "CREATE USER ap_n1 IDENTIFIED VIA mysql_native_password USING PASSWORD('n')",
    "SHOW CREATE USER ap_n1",
]


def test_ed25519_statements_answer_as_mariadb(both):
    conns = [srv.connect(autocommit=True) for srv in both]
    for sql in ED25519_STATEMENTS:
        onelog, mariadb = (outcome(c, sql) for c in conns)
        assert onelog == mariadb, sql


def test_ed25519_logins_with_the_cli_and_pymysql(both):
    for srv in both:
        root = srv.connect(autocommit=True)
        for sql in ["CREATE USER ap_cli IDENTIFIED VIA ed25519 USING PASSWORD('s3cret-ed')",
                    "CREATE USER ap_py@'%' IDENTIFIED VIA ed25519 USING PASSWORD('')",
                    "CREATE USER ap_nokey IDENTIFIED VIA ed25519"]:
            run_ok(root, sql)
    for srv in both:
        cli = srv.cli("-N", "-e", "SELECT CURRENT_USER()", user="ap_cli", password="s3cret-ed")
        assert cli.returncode == 0, (srv, cli.stderr)
        assert cli.stdout.strip() == "ap_cli@%"
        wrong = srv.cli("-e", "SELECT 1", user="ap_cli", password="s3cret-eD")
        assert wrong.returncode != 0 and "ERROR 1045" in wrong.stderr, (srv, wrong.stderr)
        conn = login(srv, "ap_cli", "s3cret-ed")
        assert outcome(conn, "SELECT CURRENT_USER()") == (("ap_cli@%",),)
        conn.close()
        # USING PASSWORD('') stores no key: no password logs in, as none
        # does without a key.
        for user in ["ap_py", "ap_nokey"]:
            for password in ["", "x"]:
                assert login_error(srv, user, password) == 1045, (srv, user, password)
        assert login_error(srv, "ap_cli", "") == 1045, srv
        assert login_error(srv, "ap_cli", "s3cret-e") == 1045, srv


def test_ed25519_accounts_survive_kill9_and_the_log_has_no_password(server_factory):
    srv = server_factory(kind="onelog", log_bin=True)
    root = srv.connect(autocommit=True)
    for sql in ["CREATE USER ap_k1 IDENTIFIED VIA ed25519 USING PASSWORD('kept-secret-1')",
                "GRANT SELECT ON *.* TO ap_k2 IDENTIFIED VIA ed25519 USING PASSWORD('kept-secret-2')",
                "CREATE USER ap_k3 IDENTIFIED VIA ed25519 USING PASSWORD('x')",
                "SET PASSWORD FOR ap_k3 = PASSWORD('kept-secret-3')"]:
        run_ok(root, sql)
    before = [outcome(root, f"SHOW CREATE USER {u}") for u in ["ap_k1", "ap_k2", "ap_k3"]]
    srv.kill9()
    srv.start()
    root = srv.connect(autocommit=True)
    assert [outcome(root, f"SHOW CREATE USER {u}") for u in ["ap_k1", "ap_k2", "ap_k3"]] == before
    for user, password in [("ap_k1", "kept-secret-1"), ("ap_k2", "kept-secret-2"), ("ap_k3", "kept-secret-3")]:
        login(srv, user, password).close()
    raw = b"".join(p.read_bytes() for p in srv.binlog_files())
    assert b"IDENTIFIED VIA ed25519 USING" in raw
    assert b"kept-secret" not in raw
    decoded = subprocess.run([MARIADB_BINLOG, "-v", *map(str, srv.binlog_files())],
                             capture_output=True, text=True).stdout
    assert "kept-secret" not in decoded


class MySQL8Client(pymysql.connections.Connection):
    """pymysql speaking as a MySQL 8 client does: caching_sha2_password
    in its first packet whatever plugin the server greets with."""

    def _get_server_information(self):
        super()._get_server_information()
        self._auth_plugin_name = "caching_sha2_password"


def mysql8_login(srv, user, password, **kw):
    # pymysql uses TLS when the server offers it unless told not to.
    kw.setdefault("ssl_disabled", True)
    return MySQL8Client(host=srv.host, port=srv.port, user=user, password=password,
                        connect_timeout=10, autocommit=True, **kw)


def mysql8_login_error(srv, user, password, **kw):
    try:
        mysql8_login(srv, user, password, **kw).close()
    except pymysql.err.OperationalError as e:
        return e.args[0]
    return None


def test_caching_sha2_full_authentication_over_rsa_and_tls(server_factory):
    """An account created by SQL has only the mysql_native_password hash: a
    MySQL 8 client's caching_sha2_password scramble cannot be checked, so
    the server asks for the password, which comes RSA-encrypted over plain
    TCP (after the client asked for the public key) or in clear over TLS.
    MariaDB has no such server plugin: nothing to compare with."""
    srv = server_factory(kind="onelog")
    root = srv.connect(autocommit=True)
    run_ok(root, "CREATE USER ap_m8@'%' IDENTIFIED BY 'mysql8-secret'")
    private_key = srv.datadir / "private_key.pem"
    assert private_key.exists() and private_key.stat().st_mode & 0o077 == 0
    public_pem = (srv.datadir / "public_key.pem").read_bytes()
    assert public_pem.startswith(b"-----BEGIN PUBLIC KEY-----")

    conn = mysql8_login(srv, "ap_m8", "mysql8-secret")
    assert outcome(conn, "SELECT CURRENT_USER()") == (("ap_m8@%",),)
    # pymysql asked for the key: it is the data directory's.
    assert conn.server_public_key == public_pem
    conn.close()
    # A client that has the key already sends the encrypted password at once.
    mysql8_login(srv, "ap_m8", "mysql8-secret", server_public_key=public_pem).close()
    assert mysql8_login_error(srv, "ap_m8", "mysql8-secreT") == 1045
    assert mysql8_login_error(srv, "ap_m8", "") == 1045
    assert mysql8_login_error(srv, "nobody_m8", "mysql8-secret") == 1045

    tls = {"ssl": {"check_hostname": False, "verify_mode": 0}, "ssl_disabled": False}
    conn = mysql8_login(srv, "ap_m8", "mysql8-secret", **tls)
    assert outcome(conn, "SHOW STATUS LIKE 'Ssl_version'")[0][1].startswith("TLSv1")
    conn.close()
    assert mysql8_login_error(srv, "ap_m8", "wrong", **tls) == 1045

    # The Unix socket is as private as TLS: the password comes in clear.
    conn = MySQL8Client(unix_socket=str(srv.socket), user="ap_m8", password="mysql8-secret", autocommit=True,
                        ssl_disabled=True)
    assert outcome(conn, "SELECT CURRENT_USER()") == (("ap_m8@%",),)
    conn.close()

    # Once a full authentication has seen the password, the server keeps its
    # SHA-256 hash (in memory, as MySQL 8): the next login takes the fast
    # path, so pymysql never asks for the public key. A wrong password is
    # still refused, and a password change makes the cached hash stale.
    conn = mysql8_login(srv, "ap_m8", "mysql8-secret")
    assert conn.server_public_key is None
    conn.close()
    assert mysql8_login_error(srv, "ap_m8", "mysql8-secreT") == 1045
    run_ok(root, "ALTER USER ap_m8@'%' IDENTIFIED BY 'changed'")
    assert mysql8_login_error(srv, "ap_m8", "mysql8-secret", server_public_key=public_pem) == 1045
    conn = mysql8_login(srv, "ap_m8", "changed")
    assert conn.server_public_key == public_pem
    conn.close()

    # The key pair is kept across restarts; the cache is not.
    srv.stop()
    srv.start()
    assert (srv.datadir / "public_key.pem").read_bytes() == public_pem
    conn = mysql8_login(srv, "ap_m8", "changed")
    assert conn.server_public_key == public_pem
    conn.close()


def test_unix_socket_logins_as_mariadb(both):
    """IDENTIFIED VIA unix_socket: the client process's OS user (these tests
    run as root) must be the account's name, over the Unix socket; anything
    else is 1698, as MariaDB answers."""
    import getpass
    os_user = getpass.getuser()
    for srv in both:
        root = srv.connect(autocommit=True)
        run_ok(root, f"CREATE USER IF NOT EXISTS '{os_user}'@'localhost'")
        run_ok(root, f"ALTER USER '{os_user}'@'localhost' IDENTIFIED VIA unix_socket")
        run_ok(root, "CREATE USER ap_sock@'localhost' IDENTIFIED VIA unix_socket")
    for srv in both:
        cli = srv.cli("-N", "-e", "SELECT CURRENT_USER()", socket=True, user=os_user, password="")
        assert cli.returncode == 0, (srv, cli.stderr)
        assert cli.stdout.strip() == f"{os_user}@localhost"
        # Any password is ignored.
        conn = pymysql.connect(unix_socket=str(srv.socket), user=os_user, password="whatever", autocommit=True)
        assert outcome(conn, "SELECT CURRENT_USER()") == ((f"{os_user}@localhost",),)
        conn.close()
        # Another OS user's account, and TCP, are refused with 1698.
        other = srv.cli("-e", "SELECT 1", socket=True, user="ap_sock", password="")
        assert "ERROR 1698" in other.stderr, (srv, other.stderr)
        try:
            pymysql.connect(unix_socket=str(srv.socket), user="ap_sock", password="").close()
            code = None
        except pymysql.err.OperationalError as e:
            code = e.args[0]
        assert code == 1698, srv
        # Over TCP from the loopback (host localhost) too.
        assert login_error(srv, "ap_sock", "") == 1698, srv


def test_root_via_unix_socket_at_initialization(server_factory):
    """--auth-root-authentication-method=socket (mariadb-install-db's option):
    the first start makes root@localhost (and the server's OS user) identified
    via unix_socket, no password file and no remote root; the OS user logs in
    through the socket with any password, TCP root is refused."""
    import getpass
    os_user = getpass.getuser()
    srv = server_factory(kind="onelog", start=False, insecure=False,
                         extra_args=["--auth-root-authentication-method=socket"])
    # The harness's readiness probe logs in as root over TCP; here only the
    # socket lets anyone in.
    srv._raw_connect = lambda: pymysql.connect(unix_socket=str(srv.socket), user=os_user, password="x")
    srv.start()
    assert not (srv.datadir / "initial-root-password").exists()
    conn = pymysql.connect(unix_socket=str(srv.socket), user=os_user, password="anything", autocommit=True)
    assert outcome(conn, "SELECT CURRENT_USER()") == ((f"{os_user}@localhost",),)
    grants = outcome(conn, "SHOW GRANTS FOR root@localhost")
    assert grants == (("GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` IDENTIFIED VIA unix_socket "
                       "WITH GRANT OPTION",),)
    assert login_error(srv, "root", "") in (1045, 1698)
    # A restart keeps the accounts: the option only matters on the first start.
    srv.stop()
    srv.extra_args = []
    srv.start()
    assert login_error(srv, "root", "") in (1045, 1698)
    bad = server_factory(kind="onelog", start=False, extra_args=["--auth-root-authentication-method=kerberos"])
    with pytest.raises(Exception, match="normal or socket"):
        bad.start()
