"""Issue 19, TLS: the `mariadb` CLI with --ssl-verify-server-cert against a
CA the test makes, pymysql with ssl={...} (in both thread_handling modes,
with result sets larger than a TLS record and autocommit writes), the
certificate OneLog makes in its data directory, TLS 1.1 refused as MariaDB
refuses it, ssl_cipher / tls_version, require_secure_transport (MariaDB's
error; the Unix socket counts as secure), FLUSH SSL, and a MariaDB 10.11
replica replicating over TLS (MASTER_SSL=1)."""
from __future__ import annotations

import socket
import ssl
import struct
import subprocess
import time
from pathlib import Path

import pymysql
import pytest
from harness import make_server
from test_replication import query

POOL = ["--thread-handling=pool-of-threads", "--thread-pool-size=2"]
CLIENT_SSL = 0x800
CATCH_UP_S = 60


def status(conn, name) -> str:
    rows = query(conn, f"SHOW STATUS LIKE '{name}'")
    return rows[0][1] if rows else None


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca_and_server_cert(d: Path, name: str = "test") -> dict:
    """A CA and a server certificate it signs, for localhost and 127.0.0.1."""
    d.mkdir(parents=True, exist_ok=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name} test CA",
            "-keyout", "ca-key.pem", "-out", "ca.pem", cwd=d)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "server-key.pem", "-out", "server.csr", cwd=d)
    (d / "ext.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-days", "2", "-extfile", "ext.cnf", "-out", "server-cert.pem", cwd=d)
    return {"ca": str(d / "ca.pem"), "cert": str(d / "server-cert.pem"), "key": str(d / "server-key.pem")}


def tls_args(certs) -> list[str]:
    return [f"--ssl-ca={certs['ca']}", f"--ssl-cert={certs['cert']}", f"--ssl-key={certs['key']}"]


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return make_ca_and_server_cert(tmp_path_factory.mktemp("certs"))


def cli_over_tls(srv, ca, sql):
    cmd = ["mariadb", "-h", srv.host, "-P", str(srv.port), "-u", "root", "--ssl", "--ssl-verify-server-cert",
           f"--ssl-ca={ca}", "-N", "-B", "-e", sql]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("kind", ["onelog", "mariadb"])
def test_cli_verifies_the_server_certificate(server_factory, certs, kind):
    srv = server_factory(kind=kind, extra_args=tls_args(certs))
    r = cli_over_tls(srv, certs["ca"], "SHOW STATUS LIKE 'Ssl_cipher'; SHOW STATUS LIKE 'Ssl_version'")
    assert r.returncode == 0, r.stderr
    rows = dict(line.split("\t") for line in r.stdout.splitlines())
    assert rows["Ssl_cipher"], r.stdout
    assert rows["Ssl_version"] in ("TLSv1.2", "TLSv1.3")
    # Another CA does not vouch for this server.
    other = make_ca_and_server_cert(Path(srv.datadir).parent / "other-ca", "other")
    r = cli_over_tls(srv, other["ca"], "SELECT 1")
    assert r.returncode != 0 and "certificate" in r.stderr.lower(), r.stderr


def test_tls_is_on_by_default_with_a_made_certificate(server_factory):
    srv = server_factory(kind="onelog")
    ca = Path(srv.datadir) / "ca.pem"
    assert ca.exists()
    assert (Path(srv.datadir) / "server-key.pem").stat().st_mode & 0o777 == 0o600
    r = cli_over_tls(srv, ca, "SELECT @@have_ssl, @@have_openssl, @@ssl_ca = '%s'" % ca)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["YES", "NO", "1"]
    # A restart keeps the certificate clients already trust.
    srv.restart()
    assert cli_over_tls(srv, ca, "SELECT 1").returncode == 0


def test_skip_ssl(server_factory):
    srv = server_factory(kind="onelog", extra_args=["--skip-ssl"])
    c = srv.connect()
    assert query(c, "SELECT @@have_ssl")[0][0] == "DISABLED"
    assert status(c, "Ssl_cipher") == ""
    s, caps = greeting(srv)
    s.close()
    assert not caps & CLIENT_SSL
    assert not (Path(srv.datadir) / "ca.pem").exists()


@pytest.mark.parametrize("args", [[], POOL], ids=["thread-per-connection", "pool"])
def test_pymysql_over_tls(server_factory, certs, args):
    srv = server_factory(kind="onelog", extra_args=tls_args(certs) + args)
    c = srv.connect(ssl={"ca": certs["ca"], "check_hostname": True}, host="localhost", autocommit=True)
    assert status(c, "Ssl_version") in ("TLSv1.2", "TLSv1.3")
    assert status(c, "Ssl_cipher")
    query(c, "CREATE DATABASE tls")
    query(c, "CREATE TABLE tls.t (id INT PRIMARY KEY, v TEXT)")
    # Autocommit writes: their answers cannot be written by the commit
    # pipeline to a TLS socket.
    for i in range(200):
        query(c, "INSERT INTO tls.t VALUES (%s, %s)", (i, "x" * 1000))
    # Result sets of many TLS records (16 KiB each).
    rows = query(c, "SELECT id, v FROM tls.t ORDER BY id")
    assert len(rows) == 200 and rows[-1] == (199, "x" * 1000)
    assert query(c, "SELECT REPEAT('y', 300000)")[0][0] == "y" * 300000
    # Prepared statements (pymysql has none: the binary protocol through the CLI).
    r = cli_over_tls(srv, certs["ca"], "PREPARE s FROM 'SELECT COUNT(*) FROM tls.t WHERE id < ?'; "
                                       "SET @n = 50; EXECUTE s USING @n")
    assert r.stdout.split() == ["50"], r.stderr
    # Many TLS sessions at once stay apart.
    others = [srv.connect(ssl={"ca": certs["ca"]}) for _ in range(20)]
    for i, o in enumerate(others):
        assert query(o, "SELECT %s", (i,))[0][0] == i
    for o in others:
        o.close()
    c.close()


def greeting(srv):
    """Connects and reads the greeting: (socket, its lower capability flags)."""
    s = socket.create_connection((srv.host, srv.port), timeout=10)
    header = s.recv(4, socket.MSG_WAITALL)
    payload = s.recv(int.from_bytes(header[:3], "little"), socket.MSG_WAITALL)
    # protocol version, server version NUL, connection id, 8 bytes of
    # scramble, a filler, then the capabilities.
    caps_at = payload.index(b"\0", 1) + 1 + 4 + 8 + 1
    return s, struct.unpack("<H", payload[caps_at:caps_at + 2])[0]


def ssl_request(srv, context: ssl.SSLContext):
    """Starts TLS as a client does: greeting, SSL request packet, handshake."""
    s, caps = greeting(srv)
    assert caps & CLIENT_SSL, "the server announces CLIENT_SSL"
    payload = struct.pack("<IIB", 0x0200 | 0x8000 | CLIENT_SSL | 0x80000, 1 << 24, 45) + b"\0" * 23
    s.sendall(len(payload).to_bytes(3, "little") + b"\x01" + payload)
    return context.wrap_socket(s)


def client_context(version: ssl.TLSVersion) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    # OpenSSL refuses to speak TLS 1.1 at its default security level.
    ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
    ctx.minimum_version = version
    ctx.maximum_version = version
    return ctx


@pytest.mark.parametrize("kind", ["onelog", "mariadb"])
def test_tls_1_1_is_refused(server_factory, certs, kind):
    srv = server_factory(kind=kind, extra_args=tls_args(certs))
    tls12 = ssl_request(srv, client_context(ssl.TLSVersion.TLSv1_2))
    assert tls12.version() == "TLSv1.2"
    tls12.close()
    for old in (ssl.TLSVersion.TLSv1_1, ssl.TLSVersion.TLSv1):
        with pytest.raises((ssl.SSLError, ConnectionError)):
            ssl_request(srv, client_context(old)).close()
    # The server goes on.
    assert query(srv.connect(), "SELECT 1")[0][0] == 1


def test_tls_version_and_cipher_options(server_factory, certs):
    srv = server_factory(kind="onelog", extra_args=tls_args(certs) + [
        "--tls-version=TLSv1.2", "--ssl-cipher=ECDHE-RSA-AES128-GCM-SHA256"])
    c = srv.connect(ssl={"ca": certs["ca"]})
    assert status(c, "Ssl_version") == "TLSv1.2"
    assert status(c, "Ssl_cipher") == "ECDHE-RSA-AES128-GCM-SHA256"
    assert query(c, "SELECT @@tls_version, @@ssl_cipher") == (("TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256"),)
    with pytest.raises((ssl.SSLError, ConnectionError)):
        ssl_request(srv, client_context(ssl.TLSVersion.TLSv1_3)).close()


@pytest.mark.parametrize("kind", ["onelog", "mariadb"])
def test_require_secure_transport(server_factory, certs, kind):
    srv = server_factory(kind=kind, extra_args=tls_args(certs))
    admin = srv.connect(autocommit=True)
    query(admin, "SET GLOBAL require_secure_transport = ON")
    try:
        # (pymysql takes TLS when offered unless told not to.)
        with pytest.raises(pymysql.err.OperationalError) as e:
            srv.connect(ssl_disabled=True)
        assert e.value.args[0] == 1045
        assert e.value.args[1].startswith("Access denied for user 'root'@")
        assert status(srv.connect(ssl={"ca": certs["ca"]}), "Ssl_cipher")
        assert query(srv.connect(unix_socket=srv.socket, ssl_disabled=True), "SELECT 1")[0][0] == 1
    finally:
        query(admin, "SET GLOBAL require_secure_transport = OFF")
    srv.connect(ssl_disabled=True).close()


def test_flush_ssl_reloads_the_certificate(server_factory, tmp_path):
    live = tmp_path / "live"
    first = make_ca_and_server_cert(tmp_path / "first", "first")
    second = make_ca_and_server_cert(tmp_path / "second", "second")
    live.mkdir()
    for f in ("server-cert.pem", "server-key.pem"):
        (live / f).write_bytes(Path(first[f.split("-")[1].split(".")[0]]).read_bytes())
    srv = server_factory(kind="onelog", extra_args=[f"--ssl-cert={live / 'server-cert.pem'}",
                                                    f"--ssl-key={live / 'server-key.pem'}"])
    assert cli_over_tls(srv, first["ca"], "SELECT 1").returncode == 0
    for f in ("server-cert.pem", "server-key.pem"):
        (live / f).write_bytes(Path(second[f.split("-")[1].split(".")[0]]).read_bytes())
    assert cli_over_tls(srv, first["ca"], "SELECT 1").returncode == 0, "not before FLUSH SSL"
    query(srv.connect(), "FLUSH SSL")
    assert cli_over_tls(srv, second["ca"], "SELECT 1").returncode == 0
    assert cli_over_tls(srv, first["ca"], "SELECT 1").returncode != 0
    # A bad file leaves the working certificate in place.
    (live / "server-key.pem").write_text("not a key")
    with pytest.raises(pymysql.err.MySQLError):
        query(srv.connect(), "FLUSH SSL")
    assert cli_over_tls(srv, second["ca"], "SELECT 1").returncode == 0


def test_mariadb_replica_over_tls(server_factory, certs, tmp_path):
    source = server_factory(kind="onelog", log_bin=True, extra_args=tls_args(certs))
    replica = make_server("mariadb", tmp_path / "replica", name="replica", log_bin=False,
                          extra_args=["--server-id=2"])
    replica.start()
    try:
        src = source.connect(autocommit=True)
        # Only TLS gets in: the replica's dump connection must be TLS.
        query(src, "SET GLOBAL require_secure_transport = ON")
        log_file = query(srv_ssl := source.connect(ssl={"ca": certs["ca"]}, autocommit=True),
                         "SHOW BINARY LOGS")[0][0]
        rep = replica.connect(autocommit=True)
        query(rep, "CHANGE MASTER TO MASTER_HOST=%s, MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', "
                   "MASTER_LOG_FILE=%s, MASTER_LOG_POS=4, MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1, "
                   "MASTER_SSL=1, MASTER_SSL_CA=%s, MASTER_SSL_VERIFY_SERVER_CERT=1",
              ("127.0.0.1", source.port, log_file, certs["ca"]))
        query(rep, "START SLAVE")
        query(srv_ssl, "CREATE DATABASE rtls")
        query(srv_ssl, "CREATE TABLE rtls.t (id INT PRIMARY KEY, v VARCHAR(100))")
        for i in range(300):
            query(srv_ssl, "INSERT INTO rtls.t VALUES (%s, %s)", (i, f"row {i}"))
        query(srv_ssl, "UPDATE rtls.t SET v = CONCAT(v, '!') WHERE id % 3 = 0")
        master_file, master_pos = query(srv_ssl, "SHOW MASTER STATUS")[0][:2]
        deadline = time.monotonic() + CATCH_UP_S
        while True:
            with rep.cursor(pymysql.cursors.DictCursor) as cur:
                cur.execute("SHOW SLAVE STATUS")
                st = cur.fetchone()
            assert not st["Last_IO_Error"] and not st["Last_SQL_Error"], st
            if (st["Relay_Master_Log_File"], st["Exec_Master_Log_Pos"]) == (master_file, master_pos):
                break
            assert time.monotonic() < deadline, st
            time.sleep(0.2)
        assert st["Master_SSL_Allowed"] == "Yes"
        assert query(rep, "SELECT COUNT(*), SUM(v LIKE '%!') FROM rtls.t") == ((300, 100),)
        query(rep, "STOP SLAVE")
    finally:
        replica.cleanup()
