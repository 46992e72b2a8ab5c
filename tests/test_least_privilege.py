"""Real tools as accounts with only the privileges they need (issue 19).

Each scenario runs against OneLog and a MariaDB 10.11 started side by side
with the same data and the same accounts, and the outcomes must match: the
tool succeeds with the documented privileges, and with one of them revoked
it fails (or still succeeds) exactly as it does against MariaDB, with the
same exit status and the same error code and message.

- mariadb-dump (plain, --single-transaction, --single-transaction
  --master-data=2, --lock-all-tables) as a user with SELECT, SHOW VIEW and
  LOCK TABLES on the database and RELOAD globally, as MariaDB's
  documentation recommends; with all of them the dump reloads into another
  database with the same rows and views.
- python-mysql-replication's BinLogStreamReader and
  mysql-binlog-connector-java (tests/java/BinlogProbe.java) as a user with
  REPLICATION SLAVE, REPLICATION CLIENT and SELECT: each starts from the
  server's current position (SHOW MASTER STATUS, which needs REPLICATION
  CLIENT, alias BINLOG MONITOR) and must stream the row events of the
  transactions committed after it, or be refused as MariaDB refuses it.
  The stream's column names come from the table map (binlog_row_metadata=
  FULL, what OneLog writes); the information_schema query
  python-mysql-replication falls back to sees only the columns the user
  may read.

A MariaDB replica as a user with only REPLICATION SLAVE is
test_accounts.test_replication_account_needs_replication_slave.
"""
from __future__ import annotations

import re
import subprocess
import threading
import time

import pymysql
import pytest
from harness import make_server, outcome, target_kind
from test_cdc_java import finish_probe, probe_classpath, read_until_heartbeat  # noqa: F401 (fixture)

from pymysqlreplication import BinLogStreamReader
from pymysqlreplication import row_event
from pymysqlreplication.row_event import DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent

MARIADB_DUMP = "/usr/bin/mariadb-dump"
DB = "lp"
PASSWORD = "lp-secret"
SETUP = [
    f"CREATE DATABASE {DB}",
    f"CREATE TABLE {DB}.items (id INT PRIMARY KEY, name VARCHAR(40), price DECIMAL(8,2))",
    f"CREATE TABLE {DB}.notes (id INT PRIMARY KEY AUTO_INCREMENT, item INT, body TEXT)",
    f"INSERT INTO {DB}.items VALUES (1, 'pen', 1.50), (2, 'ink', 7.25), (3, 'Grüße', NULL)",
    f"INSERT INTO {DB}.notes (item, body) VALUES (1, 'blue'), (2, 'line \"two\"'), (3, NULL)",
    f"CREATE VIEW {DB}.priced AS SELECT id, name FROM {DB}.items WHERE price IS NOT NULL",
    f"CREATE TRIGGER {DB}.items_bi BEFORE INSERT ON {DB}.items FOR EACH ROW SET NEW.name = TRIM(NEW.name)",
]

# What each tool needs, as (privilege, level) — the level GRANT puts it at.
DUMP_PRIVILEGES = [("SELECT", f"{DB}.*"), ("SHOW VIEW", f"{DB}.*"), ("LOCK TABLES", f"{DB}.*"), ("RELOAD", "*.*")]
STREAM_PRIVILEGES = [("REPLICATION SLAVE", "*.*"), ("REPLICATION CLIENT", "*.*"), ("SELECT", f"{DB}.*")]
DUMP_MODES = {
    "plain": [],
    "single-transaction": ["--single-transaction"],
    "single-transaction master-data": ["--single-transaction", "--master-data=2"],
    "lock-all-tables": ["--lock-all-tables"],
}
# More modes, compared with MariaDB only (SHOW MASTER STATUS under a global
# read lock needs BINLOG MONITOR too; --flush-logs sends COM_REFRESH): the
# four privileges given and each revoked.
MORE_DUMP_MODES = {
    "master-data": ["--master-data=2"],
    "flush-logs master-data": ["--single-transaction", "--flush-logs", "--master-data=2"],
    # SHOW EVENTS needs EVENT on the database, which the four do not give.
    "events": ["--single-transaction", "--events"],
    # SHOW PROCEDURE / FUNCTION / PACKAGE [BODY] STATUS, then each routine.
    "routines": ["--single-transaction", "--routines"],
}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """OneLog and MariaDB with the same data, both logging binlogs (MariaDB
    with the column names OneLog always logs)."""
    started = {}
    try:
        for side, kind, extra in [("onelog", target_kind(), []),
                                  ("mariadb", "mariadb", ["--binlog-row-metadata=FULL"])]:
            srv = make_server(kind, tmp_path_factory.mktemp(f"lp-{side}") / "data", log_bin=True,
                              name=f"lp-{side}", extra_args=extra)
            started[side] = srv
            srv.start()
            conn = srv.connect(autocommit=True)
            for sql in SETUP:
                ok(conn, sql)
            conn.close()
        yield started
    finally:
        for srv in started.values():
            srv.cleanup()


def ok(conn, sql: str):
    """Runs `sql`, which must succeed (OneLog answers a statement without
    rows with an empty list, MariaDB with an empty tuple)."""
    got = outcome(conn, sql)
    assert not (isinstance(got, tuple) and got[:1] == ("error",)), (sql, got)
    return got


def make_user(srv, user: str, privileges, missing: str | None):
    """(Re)creates `user` with `privileges` but the one named `missing`."""
    conn = srv.connect(autocommit=True)
    try:
        outcome(conn, f"DROP USER IF EXISTS {user}")
        ok(conn, f"CREATE USER {user} IDENTIFIED BY '{PASSWORD}'")
        for privilege, level in privileges:
            if privilege != missing:
                ok(conn, f"GRANT {privilege} ON {level} TO {user}")
    finally:
        conn.close()


def same_host(text: str) -> str:
    """Messages name the client's host: MariaDB resolves 127.0.0.1 to
    localhost, OneLog does not; the rest must be equal."""
    return re.sub(r"@'(localhost|127\.0\.0\.1)'", "@'HOST'", text)


# ---- mariadb-dump ------------------------------------------------------------

def run_dump(srv, user: str, mode: str) -> subprocess.CompletedProcess:
    cmd = [MARIADB_DUMP, "--no-defaults", f"-h{srv.host}", f"-P{srv.port}", f"-u{user}", f"-p{PASSWORD}",
           *{**DUMP_MODES, **MORE_DUMP_MODES}[mode], DB]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def dump_outcome(r: subprocess.CompletedProcess) -> tuple[int, str]:
    return r.returncode, same_host(r.stderr.strip())


def reloaded_equal(srv, dump_sql: str):
    """Loads the dump into a fresh database; its tables and view read the same."""
    copy = f"{DB}_copy"
    conn = srv.connect(autocommit=True)
    try:
        outcome(conn, f"DROP DATABASE IF EXISTS {copy}")
        ok(conn, f"CREATE DATABASE {copy}")
        r = subprocess.run(srv.cli_base() + [copy], input=dump_sql, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        for name in ["items", "notes", "priced"]:
            original = ok(conn, f"SELECT * FROM {DB}.{name} ORDER BY id")
            assert ok(conn, f"SELECT * FROM {copy}.{name} ORDER BY id") == original, name
            assert original, name
        kinds = ok(conn, f"SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES "
                              f"WHERE TABLE_SCHEMA = '{copy}' ORDER BY TABLE_NAME")
        assert list(kinds) == [("items", "BASE TABLE"), ("notes", "BASE TABLE"), ("priced", "VIEW")], kinds
    finally:
        outcome(conn, f"DROP DATABASE IF EXISTS {copy}")
        conn.close()


@pytest.mark.parametrize("mode", list(DUMP_MODES))
def test_dump_with_the_documented_privileges_reloads(servers, mode):
    for side, srv in servers.items():
        make_user(srv, "lp_dump", DUMP_PRIVILEGES, None)
        r = run_dump(srv, "lp_dump", mode)
        assert r.returncode == 0, (side, r.stderr)
        assert "CREATE TABLE `items`" in r.stdout and "VIEW `priced`" in r.stdout, side
        # Without TRIGGER, mariadb-dump does not see the trigger: not dumped.
        assert "items_bi" not in r.stdout, side
        reloaded_equal(srv, r.stdout)


def test_dump_with_trigger_privilege_has_the_trigger(servers):
    for side, srv in servers.items():
        make_user(srv, "lp_dump", DUMP_PRIVILEGES + [("TRIGGER", f"{DB}.*")], None)
        r = run_dump(srv, "lp_dump", "single-transaction")
        assert r.returncode == 0, (side, r.stderr)
        assert "/*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER lp.items_bi BEFORE INSERT" in r.stdout, side


@pytest.mark.parametrize("missing", [None] + [p for p, _ in DUMP_PRIVILEGES])
@pytest.mark.parametrize("mode", list(DUMP_MODES) + list(MORE_DUMP_MODES))
def test_dump_with_each_privilege_missing_as_mariadb(servers, mode, missing):
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_dump", DUMP_PRIVILEGES, missing)
        outcomes[side] = dump_outcome(run_dump(srv, "lp_dump", mode))
    assert outcomes["onelog"] == outcomes["mariadb"], outcomes


# The statements mariadb-dump's privileges decide, as accounts with one of
# SELECT and SHOW VIEW but not the other (and LOCK TABLES): SHOW COLUMNS and
# SHOW INDEX need a column privilege, SHOW CREATE of a view SHOW VIEW, SHOW
# CREATE VIEW SELECT too, and information_schema.VIEWS shows the
# definition only with both.
SHOW_STATEMENTS = [
    "SHOW CREATE TABLE priced", "SHOW CREATE VIEW priced", "SHOW CREATE TABLE items", "SHOW CREATE VIEW items",
    "SHOW FIELDS FROM priced", "SHOW FULL COLUMNS FROM items", "DESCRIBE priced", "SHOW INDEX FROM priced",
    "SHOW INDEX FROM items", f"SELECT TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA = '{DB}'",
    # A view's columns: OneLog's information_schema.COLUMNS does not list
    # them yet (for any account), so only the tables'.
    f"SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '{DB}' "
    "AND TABLE_NAME <> 'priced' ORDER BY TABLE_NAME, ORDINAL_POSITION",
    # Triggers are shown with TRIGGER on their table only.
    "SHOW TRIGGERS", f"SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = '{DB}'",
    "SHOW CREATE TRIGGER items_bi",
]


@pytest.mark.parametrize("missing, added", [("SELECT", None), ("SHOW VIEW", None), (None, None),
                                             (None, ("TRIGGER", f"{DB}.*")), (None, ("TRIGGER", f"{DB}.items"))])
def test_show_statements_of_a_dump_as_mariadb(servers, missing, added):
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_show", DUMP_PRIVILEGES + ([added] if added else []), missing)
        conn = srv.connect(user="lp_show", password=PASSWORD, database=DB)
        try:
            outcomes[side] = [(sql, same_host(str(error_or_rows(conn, sql)))) for sql in SHOW_STATEMENTS]
        finally:
            conn.close()
    assert outcomes["onelog"] == outcomes["mariadb"]


def error_or_rows(conn, sql: str):
    """The rows (their first five columns as text: SHOW INDEX's
    Cardinality is an estimate, and its numbers' wire types are not what
    this compares), or the error's code and message."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            # SHOW CREATE TRIGGER: the name (its text is compared elsewhere).
            width = 1 if sql.startswith("SHOW CREATE TRIGGER") else 5
            return [[str(v) for v in row[:width]] for row in cur.fetchall()]
    except pymysql.err.MySQLError as e:
        return e.args


# What the tools ask of the server beside their data, as accounts with one
# of their privileges each (or none): the binlog's SHOW statements
# (BINLOG MONITOR, alias REPLICATION CLIENT), FLUSH (RELOAD), LOCK TABLES
# (LOCK TABLES on the database and SELECT), SHOW TRIGGERS and SHOW CREATE
# DATABASE (some privilege on the database, 1044), SHOW ENGINE ... STATUS
# (PROCESS).
SERVER_STATEMENTS = [
    "SHOW MASTER STATUS", "SHOW BINARY LOGS", "SHOW BINLOG EVENTS LIMIT 0", "FLUSH TABLES",
    "FLUSH TABLES WITH READ LOCK", "UNLOCK TABLES", "FLUSH TABLES lp.items", "FLUSH LOGS", "FLUSH BINARY LOGS",
    "LOCK TABLES lp.items READ", "UNLOCK TABLES", "SHOW TRIGGERS FROM lp", "SHOW CREATE DATABASE lp",
    "SHOW ENGINE INNODB STATUS", "SHOW STATUS LIKE 'binlog_snapshot_file'",
    "PURGE BINARY LOGS BEFORE '2000-01-01'", "SHOW TABLES FROM lp", "SHOW EVENTS FROM lp",
]
ONE_PRIVILEGE = [None, "REPLICATION CLIENT ON *.*", "REPLICATION SLAVE ON *.*", "RELOAD ON *.*", "SUPER ON *.*",
                 "SELECT ON lp.*", "LOCK TABLES ON lp.*", "PROCESS ON *.*", "TRIGGER ON lp.*", "EVENT ON lp.*"]


@pytest.mark.parametrize("grant", ONE_PRIVILEGE)
def test_server_statements_of_the_tools_as_mariadb(servers, grant):
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_one", [tuple(grant.split(" ON "))] if grant else [], None)
        conn = srv.connect(user="lp_one", password=PASSWORD)
        try:
            outcomes[side] = [(sql, same_host(str(error_or_rows(conn, sql))[:160])) for sql in SERVER_STATEMENTS]
        finally:
            conn.close()
    # The rows themselves differ (binlog contents, engine status text): the
    # outcome is an error, or how many rows.
    counted = {side: [(sql, text if text.startswith("(") else "rows") for sql, text in got]
               for side, got in outcomes.items()}
    assert counted["onelog"] == counted["mariadb"]


# ---- python-mysql-replication -------------------------------------------------

ROW_EVENTS = [WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent]
# The transactions each stream must show, and the rows they change.
WRITES = [
    f"INSERT INTO {DB}.items VALUES (100, 'stream one', 10.00)",
    f"UPDATE {DB}.items SET price = 11.00 WHERE id = 100",
    f"DELETE FROM {DB}.items WHERE id = 100",
]
STREAMED = [
    ("WriteRowsEvent", [{"id": 100, "name": "stream one", "price": "10.00"}]),
    ("UpdateRowsEvent", [{"before": {"id": 100, "name": "stream one", "price": "10.00"},
                          "after": {"id": 100, "name": "stream one", "price": "11.00"}}]),
    ("DeleteRowsEvent", [{"id": 100, "name": "stream one", "price": "11.00"}]),
]
STREAM_TIMEOUT_S = 20
# The privilege 1227 names when one is missing: SHOW MASTER STATUS's, and
# COM_BINLOG_DUMP's.
REFUSED_FOR = {"REPLICATION CLIENT": "the SUPER, BINLOG MONITOR privilege(s)",
               "REPLICATION SLAVE": "the REPLICATION SLAVE privilege(s)"}


def plain(values: dict) -> dict:
    """A row's values, DECIMAL as text."""
    return {k: str(v) if k == "price" and v is not None else v for k, v in values.items()}


def row_image(row: dict) -> dict:
    """What python-mysql-replication decoded for one changed row."""
    if "before_values" in row:
        return {"before": plain(row["before_values"]), "after": plain(row["after_values"])}
    return plain(row["values"])


def write_transactions(srv):
    conn = srv.connect(autocommit=True)
    try:
        for sql in WRITES:
            ok(conn, sql)
    finally:
        conn.close()


def dump_started(srv, user: str) -> bool:
    conn = srv.connect(autocommit=True)
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW PROCESSLIST")
            return any(row[1] == user and row[4] == "Binlog Dump" for row in cur.fetchall())
    finally:
        conn.close()


def stream_from_now(srv, user: str, follow, writes=write_transactions):
    """Starts a client `follow(result)` in a thread, writes once its dump
    runs, and returns what it streamed or the error that stopped it."""
    result: dict = {}
    thread = threading.Thread(target=follow, args=(result,), daemon=True)
    thread.start()
    deadline = time.monotonic() + STREAM_TIMEOUT_S
    while thread.is_alive() and not dump_started(srv, user):
        assert time.monotonic() < deadline, "the client neither streamed nor failed"
        time.sleep(0.05)
    if thread.is_alive():
        writes(srv)
    thread.join(STREAM_TIMEOUT_S)
    assert not thread.is_alive(), "the stream did not deliver the transactions"
    return result


def python_stream(srv, user: str):
    settings = {"host": srv.host, "port": srv.port, "user": user, "passwd": PASSWORD}

    def follow(result):
        reader = BinLogStreamReader(connection_settings=settings, server_id=4343, blocking=True,
                                    only_events=ROW_EVENTS, only_schemas=[DB], use_column_name_cache=True,
                                    resume_stream=True)
        events = []
        try:
            while len(events) < len(STREAMED):
                ev = reader.fetchone()
                events.append((type(ev).__name__, [row_image(r) for r in ev.rows]))
            result["events"] = events
        except pymysql.err.MySQLError as e:
            result["error"] = (e.args[0], same_host(str(e.args[1])))
        finally:
            reader.close()
    return stream_from_now(srv, user, follow)


def columns_readable(srv, user: str):
    """The information_schema query python-mysql-replication falls back to
    for column names (fetch_column_names), as `user`."""
    conn = srv.connect(user=user, password=PASSWORD)
    # It keeps what it found for the process: ask afresh.
    row_event._COLUMN_NAME_CACHE.clear()
    try:
        return row_event.fetch_column_names(conn, DB, "items", use_column_name_cache=True)
    finally:
        conn.close()


def test_python_replication_streams_with_its_privileges(servers):
    for side, srv in servers.items():
        make_user(srv, "lp_py", STREAM_PRIVILEGES, None)
        assert python_stream(srv, "lp_py") == {"events": STREAMED}, side
        assert columns_readable(srv, "lp_py") == ["id", "name", "price"], side


@pytest.mark.parametrize("missing", [p for p, _ in STREAM_PRIVILEGES])
def test_python_replication_without_one_privilege_as_mariadb(servers, missing):
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_py", STREAM_PRIVILEGES, missing)
        outcomes[side] = (python_stream(srv, "lp_py"), columns_readable(srv, "lp_py"))
    assert outcomes["onelog"] == outcomes["mariadb"], outcomes
    stream, columns = outcomes["onelog"]
    if missing == "SELECT":
        # The stream needs no SELECT; the column names' fallback sees none.
        assert (stream, columns) == ({"events": STREAMED}, [])
    else:
        assert stream["error"][0] == 1227 and REFUSED_FOR[missing] in stream["error"][1], stream


# ---- mysql-binlog-connector-java ---------------------------------------------

def java_stream(srv, user: str, classpath: str):
    """BinlogProbe from the server's current position (no --file: the
    connector asks SHOW MASTER STATUS) until it has the rows WRITES change."""
    cmd = ["java", "-XX:TieredStopAtLevel=1", "-cp", classpath, "BinlogProbe", "--host", srv.host,
           "--port", str(srv.port), "--user", user, "--password", PASSWORD, "--timeout", str(STREAM_TIMEOUT_S),
           "--rows", str(len(WRITES)), "--heartbeat-ms", "100"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    if '"type":"END"' in first:
        run = finish_probe(proc, [first])
        return {"exit": run.returncode, "error": server_error(run.end["error"])}
    head = [first] + read_until_heartbeat(proc) if '"type":"HEARTBEAT"' not in first else [first]
    write_transactions(srv)
    run = finish_probe(proc, head)
    rows = [(e["type"], e["table"]) for e in run.events if e["type"].endswith("_ROWS")]
    return {"exit": run.returncode, "rows": rows}


def server_error(described: str | None) -> str:
    """The server's error in the connector's exception text."""
    found = re.search(r"ServerException: (.*?)(?: / caused by|$)", described or "")
    return same_host(found.group(1)) if found else (described or "")


def test_java_connector_streams_with_its_privileges(servers, probe_classpath):  # noqa: F811
    for side, srv in servers.items():
        make_user(srv, "lp_java", STREAM_PRIVILEGES, None)
        got = java_stream(srv, "lp_java", probe_classpath)
        assert got["exit"] == 0, (side, got)
        assert [kind.replace("EXT_", "") for kind, _ in got["rows"]] == \
            ["WRITE_ROWS", "UPDATE_ROWS", "DELETE_ROWS"], got
        assert {table for _, table in got["rows"]} == {f"{DB}.items"}, got


@pytest.mark.parametrize("missing", [p for p, _ in STREAM_PRIVILEGES])
def test_java_connector_without_one_privilege_as_mariadb(servers, probe_classpath, missing):  # noqa: F811
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_java", STREAM_PRIVILEGES, missing)
        outcomes[side] = java_stream(srv, "lp_java", probe_classpath)
    assert outcomes["onelog"] == outcomes["mariadb"], outcomes
    if missing == "SELECT":
        assert outcomes["onelog"]["exit"] == 0 and len(outcomes["onelog"]["rows"]) == len(WRITES)
    else:
        assert outcomes["onelog"]["exit"] == 3 and REFUSED_FOR[missing] in outcomes["onelog"]["error"], outcomes


# ---- a MariaDB replica ---------------------------------------------------------

REPLICA_WAIT_S = 20


def replica_status(replica_conn) -> dict:
    with replica_conn.cursor(pymysql.cursors.DictCursor) as cur:
        cur.execute("SHOW SLAVE STATUS")
        return cur.fetchone() or {}


def follow(replica_conn, source, user: str):
    """Points the replica at `source`'s current position as `user`."""
    root = source.connect(autocommit=True)
    file, pos = ok(root, "SHOW MASTER STATUS")[0][:2]
    root.close()
    ok(replica_conn, "STOP SLAVE")
    ok(replica_conn, "RESET SLAVE ALL")
    ok(replica_conn, f"CHANGE MASTER TO MASTER_HOST='{source.host}', MASTER_PORT={source.port}, "
                     f"MASTER_USER='{user}', MASTER_PASSWORD='{PASSWORD}', MASTER_LOG_FILE='{file}', "
                     f"MASTER_LOG_POS={pos}, MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1")
    ok(replica_conn, "START SLAVE")


def refused_replica(replica_conn, source) -> tuple:
    """The replica's I/O error against `source` as an account without
    REPLICATION SLAVE (it keeps retrying)."""
    make_user(source, "lp_repl", [], None)
    follow(replica_conn, source, "lp_repl")
    deadline = time.monotonic() + REPLICA_WAIT_S
    while not (status := replica_status(replica_conn)).get("Last_IO_Errno"):
        assert time.monotonic() < deadline, f"the replica was not refused: {status}"
        time.sleep(0.2)
    error = re.sub(r":\d+'", ":PORT'", same_host(status["Last_IO_Error"]))
    return status["Last_IO_Errno"], error, status["Slave_IO_Running"]


def replicates(replica_conn, source, db: str):
    """The replica, as an account with only REPLICATION SLAVE, gets a
    database created on `source`."""
    make_user(source, "lp_repl", [("REPLICATION SLAVE", "*.*")], None)
    follow(replica_conn, source, "lp_repl")
    root = source.connect(autocommit=True)
    ok(root, f"CREATE DATABASE {db}")
    root.close()
    deadline = time.monotonic() + REPLICA_WAIT_S
    while ok(replica_conn, f"SHOW DATABASES LIKE '{db}'") != ((db,),):
        assert time.monotonic() < deadline, f"{db} did not arrive: {replica_status(replica_conn)}"
        time.sleep(0.2)


def test_mariadb_replica_needs_replication_slave_as_of_mariadb(servers, replica):
    replica_conn = replica.connect(autocommit=True)
    refused = {}
    try:
        for side, srv in servers.items():
            refused[side] = refused_replica(replica_conn, srv)
            replicates(replica_conn, srv, f"lp_rep_{side}")
    finally:
        outcome(replica_conn, "STOP SLAVE")
        replica_conn.close()
    assert refused["onelog"] == refused["mariadb"], refused
    # MariaDB refuses the replica's COM_REGISTER_SLAVE with 1045 naming
    # the account (its check_access), not 1227 as it refuses COM_BINLOG_DUMP.
    assert refused["onelog"][:2] == (1597, "Master command COM_REGISTER_SLAVE failed: Access denied for user "
                                           "'lp_repl'@'%' (using password: YES) (Errno: 1045)"), refused


# ---- mariadb-admin's flushes (COM_REFRESH and FLUSH statements) ------------------

ADMIN_FLUSHES = ["flush-logs", "flush-tables", "flush-hosts", "flush-status", "flush-privileges", "refresh"]


@pytest.mark.parametrize("grant", [None, ("RELOAD", "*.*")])
def test_mariadb_admin_flushes_as_mariadb(servers, grant):
    outcomes = {}
    for side, srv in servers.items():
        make_user(srv, "lp_admin", [grant] if grant else [], None)
        cmd = ["/usr/bin/mariadb-admin", "--no-defaults", f"-h{srv.host}", f"-P{srv.port}", "-ulp_admin",
               f"-p{PASSWORD}"]
        outcomes[side] = [(flush, r.returncode, same_host(r.stderr.strip()))
                          for flush in ADMIN_FLUSHES
                          for r in [subprocess.run(cmd + [flush], capture_output=True, text=True, timeout=60)]]
    assert outcomes["onelog"] == outcomes["mariadb"], outcomes
    assert all(rc == (0 if grant else 1) for _, rc, _ in outcomes["onelog"]), outcomes


def test_dump_events_with_event_privilege(servers):
    """With EVENT too, --events dumps: no events on either (OneLog has no
    event scheduler, and the test made none on MariaDB)."""
    for side, srv in servers.items():
        make_user(srv, "lp_dump", DUMP_PRIVILEGES + [("EVENT", f"{DB}.*")], None)
        r = run_dump(srv, "lp_dump", "events")
        assert r.returncode == 0, (side, r.stderr)
        assert "CREATE TABLE `items`" in r.stdout and "EVENT" not in r.stdout.replace("EVENTS", ""), side
