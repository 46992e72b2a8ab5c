"""Process harness for the OneLog integration tests.

Starts `onelog serve` or a throwaway MariaDB 10.11 (`mariadbd --no-defaults`)
on a free loopback port with a Unix socket in a short temp directory, and
exposes one interface for both so every test body can run against either:

    srv.host, srv.port, srv.socket, srv.datadir, srv.kind, srv.root_password
    srv.connect(**kw)   -> pymysql connection (TCP unless unix_socket=... given)
    srv.cli(*args, socket=False, input=None, user="root", password=None)
                         -> subprocess.CompletedProcess of /usr/bin/mariadb
    srv.start(), srv.stop(), srv.restart(), srv.kill9(), srv.stderr_text()

Only loopback addresses are used. Every process is started in its own process
group and is killed at interpreter exit if a test forgot it (atexit).
"""
from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pymysql

REPO = Path(__file__).resolve().parent.parent
ONELOG_BIN = Path(os.environ.get("ONELOG_BIN", REPO / "target" / "release" / "onelog"))
MARIADBD = os.environ.get("MARIADBD", "/usr/sbin/mariadbd")
MARIADB_INSTALL_DB = os.environ.get("MARIADB_INSTALL_DB", "/usr/bin/mariadb-install-db")
MARIADB_CLI = os.environ.get("MARIADB_CLI", "/usr/bin/mariadb")
MARIADB_BINLOG = os.environ.get("MARIADB_BINLOG", "/usr/bin/mariadb-binlog")
START_TIMEOUT = float(os.environ.get("ONELOG_START_TIMEOUT", "30"))
STOP_TIMEOUT = float(os.environ.get("ONELOG_STOP_TIMEOUT", "60"))

# Which server the "onelog" fixtures really start: "onelog" (default) or
# "mariadb" (validates the harness and the expectations before OneLog works).
TARGET = os.environ.get("ONELOG_TEST_TARGET", "onelog").strip().lower()
# Options added to every OneLog server the tests start, e.g.
# ONELOG_SERVER_ARGS="--thread-handling=pool-of-threads --thread-pool-size=2"
# runs a test file with the thread pool.
ONELOG_SERVER_ARGS = os.environ.get("ONELOG_SERVER_ARGS", "").split()

_LIVE: set = set()


def _kill_leftovers():
    for srv in list(_LIVE):
        try:
            srv._hard_kill()
        except Exception:
            pass


atexit.register(_kill_leftovers)


def outcome(conn, sql):
    """Rows, or the MySQL error number, of `sql`."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchall()
    except pymysql.err.MySQLError as e:
        return ("error", e.args[0])


def create_tables(srv, db: str) -> dict[str, str]:
    """SHOW CREATE TABLE of every table of `db`, by table name: what two
    servers' schemas are compared by."""
    conn = srv.connect(database=db, autocommit=True)
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW TABLES")
            out = {}
            for (table,) in sorted(cur.fetchall()):
                cur.execute(f"SHOW CREATE TABLE `{table}`")
                out[table] = cur.fetchone()[1]
            return out
    finally:
        conn.close()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def short_tmpdir(prefix: str) -> str:
    # Unix socket paths are limited to 107 bytes; pytest's tmp_path can exceed that.
    return tempfile.mkdtemp(prefix=prefix, dir="/tmp")


class ServerError(AssertionError):
    pass


class BaseServer:
    kind = "?"

    def __init__(self, datadir: Path, *, log_bin=None, sync_binlog=None,
                 insecure: bool = True, extra_args=(), name: str = "srv"):
        self.host = "127.0.0.1"
        self.port = free_port()
        self.datadir = Path(datadir)
        self.datadir.mkdir(parents=True, exist_ok=True)
        self._sockdir = short_tmpdir("olsock")
        self.socket = os.path.join(self._sockdir, f"{self.kind}.sock")
        self.log_bin = log_bin          # None: server default; False: skip; True/str: on
        self.sync_binlog = sync_binlog
        self.insecure = insecure
        self.extra_args = list(extra_args)
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.root_password = ""
        self._logdir = Path(self.datadir).parent
        self._start_count = 0
        self._stderr_path: Path | None = None

    # ---- to override -------------------------------------------------
    def command(self) -> list[str]:
        raise NotImplementedError

    def _after_first_start(self):
        pass

    # ---- lifecycle -----------------------------------------------------
    def start(self):
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self._start_count += 1
        self._stderr_path = self._logdir / f"{self.name}-{self.kind}-stderr.{self._start_count}.log"
        cmd = self.command()
        self.last_command = cmd
        errf = open(self._stderr_path, "wb")
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=errf,
                                         stderr=subprocess.STDOUT, start_new_session=True,
                                         cwd=str(self._logdir))
        finally:
            errf.close()
        _LIVE.add(self)
        self._wait_ready()
        if self._start_count == 1:
            self._after_first_start()
        return self

    def _wait_ready(self):
        deadline = time.monotonic() + START_TIMEOUT
        last_err = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerError(
                    f"{self.kind} exited with code {self.proc.returncode} during start-up.\n"
                    f"command: {' '.join(self.last_command)}\n--- stderr tail ---\n{self.stderr_tail()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=1):
                    pass
                c = self._raw_connect()
                try:
                    with c.cursor() as cur:
                        cur.execute("SELECT 1")
                        assert cur.fetchone()[0] in (1, "1")
                finally:
                    c.close()
                return
            except Exception as e:  # not ready yet
                last_err = e
                time.sleep(0.1)
        self._hard_kill()
        raise ServerError(
            f"{self.kind} did not answer SELECT 1 on {self.host}:{self.port} within "
            f"{START_TIMEOUT:.0f}s (last error: {last_err!r}).\n"
            f"command: {' '.join(self.last_command)}\n--- stderr tail ---\n{self.stderr_tail()}")

    def _raw_connect(self):
        return pymysql.connect(host=self.host, port=self.port, user="root",
                               password=self._password_for_probe(), connect_timeout=2)

    def _password_for_probe(self):
        return self.root_password

    def stop(self, check: bool = True) -> int | None:
        """SIGTERM and wait; asserts a clean exit (code 0) when check is true."""
        if self.proc is None or self.proc.poll() is not None:
            _LIVE.discard(self)
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._hard_kill()
            raise ServerError(f"{self.kind} did not exit within {STOP_TIMEOUT}s of SIGTERM\n"
                              f"--- stderr tail ---\n{self.stderr_tail()}")
        _LIVE.discard(self)
        if check and rc != 0:
            raise ServerError(f"{self.kind} exited with code {rc} after SIGTERM\n"
                              f"--- stderr tail ---\n{self.stderr_tail()}")
        return rc

    def kill9(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        _LIVE.discard(self)

    def _hard_kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=30)
            except Exception:
                pass
        _LIVE.discard(self)

    def restart(self):
        self.stop()
        return self.start()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cleanup(self):
        """Teardown: stop (not asserting the exit code) and remove the socket dir."""
        try:
            if self.alive():
                try:
                    self.stop(check=False)
                except ServerError:
                    pass
        finally:
            self._hard_kill()
            shutil.rmtree(self._sockdir, ignore_errors=True)

    # ---- logs ----------------------------------------------------------
    def stderr_text(self, all_starts: bool = False) -> str:
        if all_starts:
            parts = []
            for i in range(1, self._start_count + 1):
                p = self._logdir / f"{self.name}-{self.kind}-stderr.{i}.log"
                if p.exists():
                    parts.append(p.read_text(errors="replace"))
            return "".join(parts)
        if self._stderr_path and self._stderr_path.exists():
            return self._stderr_path.read_text(errors="replace")
        return ""

    def stderr_tail(self, lines: int = 40) -> str:
        return "\n".join(self.stderr_text().splitlines()[-lines:])

    # ---- clients -------------------------------------------------------
    def connect(self, **kw):
        args = dict(host=self.host, port=self.port, user="root",
                    password=self.root_password, connect_timeout=10,
                    read_timeout=120, write_timeout=120)
        if kw.get("unix_socket") is True:
            kw["unix_socket"] = self.socket
        args.update(kw)
        return pymysql.connect(**args)

    def cli_base(self, socket: bool = False, user: str = "root", password=None) -> list[str]:
        pw = self.root_password if password is None else password
        cmd = [MARIADB_CLI, "--no-defaults", f"-u{user}"]
        if socket:
            cmd += ["--protocol=SOCKET", f"--socket={self.socket}"]
        else:
            cmd += ["--protocol=TCP", f"-h{self.host}", f"-P{self.port}"]
        if pw:
            cmd.append(f"--password={pw}")
        return cmd

    def cli(self, *args, socket: bool = False, input=None, user: str = "root",
            password=None, timeout: float = 120) -> subprocess.CompletedProcess:
        cmd = self.cli_base(socket=socket, user=user, password=password) + list(args)
        return subprocess.run(cmd, input=input, capture_output=True, text=True,
                              timeout=timeout)

    def binlog_files(self, base: str = "onelog-bin") -> list[Path]:
        return sorted(p for p in self.datadir.glob(f"{base}.[0-9]*")
                      if p.name[len(base) + 1:].isdigit())

    def __repr__(self):
        return f"<{self.kind} {self.host}:{self.port} datadir={self.datadir}>"


class OneLogServer(BaseServer):
    kind = "onelog"

    def command(self):
        if not ONELOG_BIN.exists():
            raise ServerError(f"{ONELOG_BIN} does not exist: run `cargo build --release` first")
        cmd = [str(ONELOG_BIN), "serve", "--datadir", str(self.datadir),
               "--port", str(self.port), "--bind-address", self.host,
               "--socket", self.socket, "--server-id", "1"]
        # --initialize-insecure only matters on the first start of an empty datadir;
        # later starts of the same datadir run without it, as a user's would.
        if self.insecure and not any(self.datadir.iterdir()):
            cmd.append("--initialize-insecure")
        if self.log_bin is True:
            cmd.append("--log-bin")
        elif isinstance(self.log_bin, str):
            cmd.append(f"--log-bin={self.log_bin}")
        elif self.log_bin is False:
            cmd.append("--skip-log-bin")
        if self.sync_binlog is not None:
            cmd.append(f"--sync-binlog={self.sync_binlog}")
        return cmd + ONELOG_SERVER_ARGS + self.extra_args

    def _password_for_probe(self):
        if not self.insecure and not self.root_password:
            pwfile = self.datadir / "initial-root-password"
            if pwfile.exists():
                self.root_password = pwfile.read_text().strip()
        return self.root_password


_TEMPLATE: dict = {}


def mariadb_template() -> Path:
    """mariadb-install-db once per test session; servers copy the result."""
    if "dir" in _TEMPLATE:
        return _TEMPLATE["dir"]
    d = Path(tempfile.mkdtemp(prefix="onelog-mariadb-template-"))
    atexit.register(shutil.rmtree, d, True)
    data = d / "data"
    r = subprocess.run([MARIADB_INSTALL_DB, "--no-defaults", f"--datadir={data}",
                        "--auth-root-authentication-method=normal", "--user=root",
                        "--skip-test-db", "--skip-name-resolve"],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise ServerError(f"mariadb-install-db failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    _TEMPLATE["dir"] = data
    return data


class MariaDBServer(BaseServer):
    kind = "mariadb"

    def __init__(self, datadir, **kw):
        super().__init__(datadir, **kw)
        if not any(self.datadir.iterdir()):
            shutil.copytree(mariadb_template(), self.datadir, dirs_exist_ok=True)

    def command(self):
        cmd = [MARIADBD, "--no-defaults", "--user=root",
               f"--datadir={self.datadir}", f"--port={self.port}",
               f"--bind-address={self.host}", f"--socket={self.socket}",
               f"--pid-file={self._sockdir}/mariadbd.pid", "--server-id=1",
               "--innodb-buffer-pool-size=256M", "--innodb-flush-log-at-trx-commit=1",
               "--innodb-log-file-size=64M", "--max-connections=1100",
               "--skip-host-cache", "--character-set-server=utf8mb4",
               "--collation-server=utf8mb4_general_ci"]
        if self.log_bin is True:
            cmd += ["--log-bin=onelog-bin", "--binlog-format=ROW"]
        elif isinstance(self.log_bin, str):
            cmd += [f"--log-bin={self.log_bin}", "--binlog-format=ROW"]
        else:
            cmd.append("--skip-log-bin")
        if self.sync_binlog is not None:
            cmd.append(f"--sync-binlog={self.sync_binlog}")
        return cmd + self.extra_args

    def _after_first_start(self):
        # Emulate OneLog's non-insecure first start: a random root password
        # written to <datadir>/initial-root-password (mode 0600).
        if not self.insecure:
            import secrets
            pw = "Pw" + secrets.token_hex(8)
            c = self._raw_connect()
            try:
                with c.cursor() as cur:
                    cur.execute("SET SQL_LOG_BIN=0")
                    cur.execute("ALTER USER root@localhost IDENTIFIED BY %s", (pw,))
            finally:
                c.close()
            p = self.datadir / "initial-root-password"
            p.write_text(pw + "\n")
            os.chmod(p, 0o600)
            self.root_password = pw


def make_server(kind: str, datadir: Path, **kw) -> BaseServer:
    cls = {"onelog": OneLogServer, "mariadb": MariaDBServer}[kind]
    return cls(datadir, **kw)


def target_kind() -> str:
    if TARGET not in ("onelog", "mariadb"):
        raise ValueError(f"ONELOG_TEST_TARGET must be onelog or mariadb, not {TARGET!r}")
    return TARGET


@contextlib.contextmanager
def file_confined_pair(base: Path, files: Path, **kw):
    """OneLog and MariaDB side by side, both confining server-side files
    (secure_file_priv) to `files`; stopped on leaving."""
    servers = []
    try:
        for kind in ("onelog", "mariadb"):
            srv = make_server(kind, base / kind / "data", name=kind, extra_args=[f"--secure-file-priv={files}"], **kw)
            srv.start()
            servers.append(srv)
        yield servers
    finally:
        for srv in servers:
            srv.cleanup()


def client_outcome(conn, sql):
    """What a client sees of `sql`: (affected rows, info, warnings) or
    ("error", code, message)."""
    with conn.cursor() as cur:
        try:
            affected = cur.execute(sql)
        except pymysql.err.MySQLError as e:
            return ("error", e.args[0], e.args[1])
        info = conn._result.message
        cur.execute("SHOW WARNINGS")
        return (affected, info, tuple((level, code, m) for level, code, m in cur.fetchall()))


@contextlib.contextmanager
def throwaway_mariadb_cursor(prefix: str):
    """A cursor on a stock MariaDB 10.11 started for the caller (in database
    `gen`) and the server's VERSION(); the tools that generate OneLog's
    tables from MariaDB's answers (tests/tools/gen_*.py) read through it."""
    with tempfile.TemporaryDirectory(prefix=prefix) as d:
        server = MariaDBServer(Path(d))
        server.start()
        try:
            conn = server.connect()
            with conn.cursor() as cur:
                cur.execute("CREATE DATABASE gen")
                cur.execute("USE gen")
                cur.execute("SELECT VERSION()")
                yield cur, cur.fetchone()[0]
            conn.close()
        finally:
            server.stop()
