"""OneLog as a replication source, checked with clients no one here wrote:
a MariaDB 10.11 replica (CHANGE MASTER ... MASTER_USE_GTID=no) follows
concurrent writes, DDL and binlog rotations and ends with the same rows;
`mariadb-binlog --read-from-remote-server` reads each file as it reads the
file on disk — the live one too, ending cleanly where the file on disk
shows its preallocated zeros; `python-mysql-replication` (a CDC client)
decodes the row changes; a dump gets heartbeats while idle, and PURGE keeps
the file a connected dump still reads."""
from __future__ import annotations

import random
import socket
import struct
import subprocess
import threading
import time

import pymysql
import pytest
from harness import make_server

COM_BINLOG_DUMP = 0x12
HEARTBEAT = 27
CATCH_UP_S = 90


def query(conn, sql, args=None):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchall() if cur.description else None


def first_binlog(source) -> str:
    return query(source.connect(autocommit=True), "SHOW BINARY LOGS")[0][0]


def start_replica(replica, source, log_file, log_pos=4):
    conn = replica.connect(autocommit=True)
    query(conn, "CHANGE MASTER TO MASTER_HOST=%s, MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', "
                "MASTER_LOG_FILE=%s, MASTER_LOG_POS=%s, MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1",
          (source.host, source.port, log_file, log_pos))
    query(conn, "START SLAVE")
    return conn


def wait_caught_up(replica_conn, source_conn):
    master_file, master_pos = query(source_conn, "SHOW MASTER STATUS")[0][:2]
    deadline = time.monotonic() + CATCH_UP_S
    while True:
        with replica_conn.cursor(pymysql.cursors.DictCursor) as cur:
            cur.execute("SHOW SLAVE STATUS")
            st = cur.fetchone()
        assert not st["Last_IO_Error"] and not st["Last_SQL_Error"], st
        if (st["Relay_Master_Log_File"], st["Exec_Master_Log_Pos"]) == (master_file, master_pos):
            return st
        assert time.monotonic() < deadline, f"replica did not catch up with {master_file}:{master_pos}: {st}"
        time.sleep(0.2)


def write_load(source, seconds, threads=4):
    """Random inserts, updates and deletes on rp.t from `threads` clients."""
    stop = time.monotonic() + seconds
    errors = []

    def worker(n):
        rng = random.Random(n)
        conn = source.connect(autocommit=True)
        try:
            while time.monotonic() < stop:
                key = rng.randrange(1, 400)
                op = rng.random()
                if op < 0.5:
                    query(conn, "INSERT INTO rp.t (id, name, amount, note) VALUES (%s, %s, %s, %s) "
                                "ON DUPLICATE KEY UPDATE amount = amount + 1",
                          (key, f"n{key}-{n}", rng.randrange(10**6) / 100, None if rng.random() < 0.2 else "x" * rng.randrange(300)))
                elif op < 0.8:
                    query(conn, "UPDATE rp.t SET amount = amount * 2, name = CONCAT(name, '+') WHERE id = %s", (key,))
                else:
                    query(conn, "DELETE FROM rp.t WHERE id = %s", (key,))
        except Exception as e:  # reported by the test thread
            errors.append(e)
        finally:
            conn.close()

    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for t in pool:
        t.start()
    return pool, errors


def test_mariadb_replica_follows_writes_ddl_and_rotations(onelog_server, replica):
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE rp")
    query(source, "CREATE TABLE rp.t (id INT PRIMARY KEY, name VARCHAR(80), amount DECIMAL(14,2), note TEXT)")
    query(source, "INSERT INTO rp.t VALUES (1000, 'before the replica', 1.50, NULL)")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    pool, errors = write_load(onelog_server, seconds=3)
    time.sleep(1)
    query(source, "FLUSH BINARY LOGS")
    query(source, "CREATE TABLE rp.u (k BIGINT UNSIGNED PRIMARY KEY, at DATETIME(3), b BLOB)")
    query(source, "INSERT INTO rp.u VALUES (18446744073709551615, '2026-11-22 10:00:00.125', x'00ff10')")
    query(source, "FLUSH BINARY LOGS")
    for t in pool:
        t.join()
    assert not errors, errors
    query(source, "ALTER TABLE rp.u ADD COLUMN extra INT DEFAULT 7")
    status = wait_caught_up(replica_conn, source)
    assert status["Slave_IO_Running"] == "Yes" and status["Slave_SQL_Running"] == "Yes"
    # The DBA's view of it, as on MariaDB.
    assert [(r[0], r[3]) for r in query(source, "SHOW SLAVE HOSTS")] == [(2, 1)]
    assert "Binlog Dump" in [r[4] for r in query(source, "SHOW PROCESSLIST")]
    for table in ("rp.t", "rp.u"):
        ours = query(source, f"SELECT * FROM {table} ORDER BY 1")
        theirs = query(replica_conn, f"SELECT * FROM {table} ORDER BY 1")
        assert ours == theirs, table
    assert len(query(source, "SELECT * FROM rp.t")) > 10

    # Writes after the replica caught up reach it too (the dump waits, then goes on).
    query(source, "UPDATE rp.t SET note = 'late' WHERE id = 1000")
    wait_caught_up(replica_conn, source)
    assert query(replica_conn, "SELECT note FROM rp.t WHERE id = 1000") == (("late",),)


def test_gtid_mode_replica_resumes_from_its_gtid_position(onelog_server, replica):
    """MASTER_USE_GTID=slave_pos (MariaDB's default for a new replica): the
    replica names no file, only the GTIDs it has applied; after STOP and
    START SLAVE it resumes after them, across a rotation."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE gt")
    query(source, "CREATE TABLE gt.t (id INT PRIMARY KEY, v INT)")
    query(source, "INSERT INTO gt.t VALUES (1, 1), (2, 2)")
    conn = replica.connect(autocommit=True)
    query(conn, "CHANGE MASTER TO MASTER_HOST=%s, MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', "
                "MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1", (onelog_server.host, onelog_server.port))
    query(conn, "START SLAVE")
    wait_caught_up(conn, source)
    query(conn, "STOP SLAVE")
    query(source, "UPDATE gt.t SET v = v + 10")
    query(source, "FLUSH BINARY LOGS")
    query(source, "INSERT INTO gt.t VALUES (3, 3)")
    query(conn, "START SLAVE")
    wait_caught_up(conn, source)
    assert query(conn, "SELECT * FROM gt.t ORDER BY id") == query(source, "SELECT * FROM gt.t ORDER BY id")
    assert query(conn, "SELECT @@gtid_slave_pos") == query(source, "SELECT @@gtid_binlog_pos")
    # A position this server never logged is refused, as MariaDB refuses it.
    query(conn, "STOP SLAVE")
    query(conn, "SET GLOBAL gtid_slave_pos = '0-1-999999'")
    query(conn, "START SLAVE")
    deadline = time.monotonic() + 30
    while True:
        with conn.cursor(pymysql.cursors.DictCursor) as cur:
            cur.execute("SHOW SLAVE STATUS")
            st = cur.fetchone()
        if st["Last_IO_Errno"]:
            break
        assert time.monotonic() < deadline, st
        time.sleep(0.2)
    assert st["Last_IO_Errno"] == 1236 and "which is not in the master's binlog" in st["Last_IO_Error"], st


def test_replica_database_filter_follows_create_and_drop_database(onelog_server, tmp_path):
    """CREATE and DROP DATABASE are logged under the database they name, not
    the session's (as MariaDB logs them), so a replica that filters on a
    database creates it before that database's tables arrive."""
    filtered = make_server("mariadb", tmp_path / "filtered", name="filtered", log_bin=False,
                           extra_args=["--server-id=3", "--replicate-do-db=kept"])
    filtered.start()
    try:
        source = onelog_server.connect(autocommit=True)
        query(source, "CREATE DATABASE kept")
        query(source, "CREATE DATABASE other")
        query(source, "USE kept")
        query(source, "CREATE TABLE t (id INT PRIMARY KEY)")
        query(source, "INSERT INTO t VALUES (1), (2)")
        query(source, "DROP DATABASE other")
        conn = start_replica(filtered, onelog_server, first_binlog(onelog_server))
        wait_caught_up(conn, source)
        assert query(conn, "SELECT * FROM kept.t ORDER BY id") == ((1,), (2,))
        assert "other" not in [r[0] for r in query(conn, "SHOW DATABASES")]
    finally:
        filtered.cleanup()


def decoded(args, **kw):
    return subprocess.run(["mariadb-binlog", "--base64-output=DECODE-ROWS", "--verbose", *args],
                          capture_output=True, text=True, timeout=120, **kw)


def test_remote_binlog_reads_like_the_files(onelog_server):
    conn = onelog_server.connect(autocommit=True)
    query(conn, "CREATE DATABASE rb")
    query(conn, "CREATE TABLE rb.t (id INT PRIMARY KEY, v VARCHAR(30))")
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO rb.t VALUES (%s, %s)", [(i, f"v{i}") for i in range(200)])
    query(conn, "FLUSH BINARY LOGS")
    query(conn, "UPDATE rb.t SET v = 'changed' WHERE id < 50")
    names = [row[0] for row in query(conn, "SHOW BINARY LOGS")]
    assert len(names) == 2
    remote = ["--read-from-remote-server", f"--host={onelog_server.host}", f"--port={onelog_server.port}", "--user=root"]
    for name in names:
        local = decoded([str(onelog_server.datadir / name)])
        over_the_wire = decoded(remote + [name])
        assert over_the_wire.returncode == 0 and over_the_wire.stderr == "", over_the_wire.stderr
        if name == names[-1]:
            # The live file on disk ends in preallocated zeros, which
            # mariadb-binlog reports; the dump ends at the last commit.
            assert "Event invalid" in local.stderr
            assert over_the_wire.stdout.startswith(local.stdout)
            assert "# End of log file" in over_the_wire.stdout
        else:
            assert local.returncode == 0 and local.stderr == ""
            assert over_the_wire.stdout == local.stdout
    assert over_the_wire.stdout.count("### UPDATE `rb`.`t`") == 50


def test_cdc_client_decodes_row_changes(onelog_server):
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent

    conn = onelog_server.connect(autocommit=True)
    query(conn, "CREATE DATABASE cdc")
    query(conn, "CREATE TABLE cdc.t (id INT PRIMARY KEY, name VARCHAR(20), amount DECIMAL(10,2))")
    log_file, log_pos = query(conn, "SHOW MASTER STATUS")[0][:2]
    query(conn, "INSERT INTO cdc.t VALUES (1, 'alice', 10.50), (2, 'bob', 3.25)")
    query(conn, "UPDATE cdc.t SET amount = 11 WHERE id = 1")
    query(conn, "DELETE FROM cdc.t WHERE id = 2")
    settings = {"host": onelog_server.host, "port": onelog_server.port, "user": "root", "password": ""}
    stream = BinLogStreamReader(connection_settings=settings, server_id=77, log_file=log_file, log_pos=log_pos,
                                resume_stream=True, blocking=False,
                                only_events=[WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent])
    try:
        changes = [(type(ev).__name__, ev.table, row) for ev in stream for row in ev.rows]
    finally:
        stream.close()
    from decimal import Decimal
    assert changes == [
        ("WriteRowsEvent", "t", {"values": {"id": 1, "name": "alice", "amount": Decimal("10.50")}, "none_sources": {}}),
        ("WriteRowsEvent", "t", {"values": {"id": 2, "name": "bob", "amount": Decimal("3.25")}, "none_sources": {}}),
        ("UpdateRowsEvent", "t", {
            "before_values": {"id": 1, "name": "alice", "amount": Decimal("10.50")}, "before_none_sources": {},
            "after_values": {"id": 1, "name": "alice", "amount": Decimal("11.00")}, "after_none_sources": {}}),
        ("DeleteRowsEvent", "t", {"values": {"id": 2, "name": "bob", "amount": Decimal("3.25")}, "none_sources": {}}),
    ]


def test_mariadb_replica_applies_uuid_rows(onelog_server, replica):
    """UUID columns are logged as MariaDB logs them (BINARY(16) in TABLE_MAP,
    the RFC-order bytes in the row image): a MariaDB replica applies the
    inserts, updates and deletes to its own UUID columns and holds the same
    rows in the same storage order; OneLog's recovery replays them too."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE uu")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "CREATE TABLE uu.t (id UUID PRIMARY KEY, ref UUID NULL, n INT, UNIQUE KEY (ref))")
    ids = ["123e4567-e89b-12d3-a456-426655440000", "01890a5d-ac96-774b-bcce-b302099a8057",
           "f47ac10b-58cc-4372-a567-0e02b2c3d479", "190bbe34-ea09-11f1-8a44-02fc00000001",
           "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]
    for n, uid in enumerate(ids):
        query(source, "INSERT INTO uu.t VALUES (%s, %s, %s)", (uid, ids[-1 - n] if n % 2 else None, n))
    query(source, "UPDATE uu.t SET ref = '11111111-2222-3333-4444-555555555555' WHERE n = 2")
    query(source, "UPDATE uu.t SET id = UUID() WHERE n = 4")
    query(source, "DELETE FROM uu.t WHERE id = '01890a5d-ac96-774b-bcce-b302099a8057'")
    wait_caught_up(replica_conn, source)
    checks = ["SHOW CREATE TABLE uu.t", "SELECT id, ref, n FROM uu.t ORDER BY id",
              "SELECT n FROM uu.t ORDER BY ref, n", "SELECT HEX(id) FROM uu.t ORDER BY n"]
    for sql in checks:
        assert query(source, sql) == query(replica_conn, sql), sql
    onelog_server.kill9()
    onelog_server.start()
    source = onelog_server.connect(autocommit=True)
    for sql in checks:
        assert query(source, sql) == query(replica_conn, sql), f"after kill -9: {sql}"


def test_cdc_client_decodes_uuid_rows(onelog_server):
    """python-mysql-replication reads a UUID column as MariaDB's binlog
    has it: the 16 bytes of the RFC form."""
    import uuid

    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import WriteRowsEvent

    conn = onelog_server.connect(autocommit=True)
    query(conn, "CREATE DATABASE cdcu")
    query(conn, "CREATE TABLE cdcu.t (id INT PRIMARY KEY, u UUID)")
    log_file, log_pos = query(conn, "SHOW MASTER STATUS")[0][:2]
    values = ["123e4567-e89b-12d3-a456-426655440000", "01890a5d-ac96-774b-bcce-b302099a8057",
              "12345678-0000-0000-0000-000000000000"]
    for i, v in enumerate(values):
        query(conn, "INSERT INTO cdcu.t VALUES (%s, %s)", (i, v))
    settings = {"host": onelog_server.host, "port": onelog_server.port, "user": "root", "password": ""}
    stream = BinLogStreamReader(connection_settings=settings, server_id=78, log_file=log_file, log_pos=log_pos,
                                resume_stream=True, blocking=False, only_events=[WriteRowsEvent])
    try:
        got = [row["values"]["u"] for ev in stream for row in ev.rows]
    finally:
        stream.close()
    # The client keeps BINARY(n) as sent: trailing zero bytes are not logged.
    assert [uuid.UUID(bytes=bytes(g).ljust(16, b"\0")) for g in got] == [uuid.UUID(v) for v in values]


class RawDump:
    """A bare COM_BINLOG_DUMP client that reads only when asked."""

    def __init__(self, srv, log_file, pos=4, heartbeat_s=None, checksum_aware=True):
        self.conn = srv.connect(autocommit=True)
        if checksum_aware:
            query(self.conn, "SET @master_binlog_checksum = @@global.binlog_checksum")
        if heartbeat_s:
            query(self.conn, f"SET @master_heartbeat_period = {int(heartbeat_s * 1e9)}")
        body = struct.pack("<IHI", pos, 0, 99) + log_file.encode()
        self.conn._next_seq_id = 0
        self.conn._write_bytes(struct.pack("<I", len(body) + 1)[:3] + b"\x00" + bytes([COM_BINLOG_DUMP]) + body)
        self.conn._next_seq_id = 1

    def event(self):
        """(type, log_pos, body) of the next event; raises on an error packet."""
        data = self.conn._read_packet().get_all_data()
        assert data[0] == 0, data[:80]
        _, type_code, _, length, log_pos, _ = struct.unpack("<IBIIIH", data[1:20])
        assert length == len(data) - 1, "event length field and packet disagree"
        return type_code, log_pos, data[20:1 + length]

    def close(self):
        # A reset, as when a replica's host goes away mid-dump.
        self.conn._sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.conn._force_close()


def test_idle_dump_gets_heartbeats(onelog_server):
    conn = onelog_server.connect(autocommit=True)
    log_file = query(conn, "SHOW MASTER STATUS")[0][0]
    dump = RawDump(onelog_server, log_file, heartbeat_s=0.2)
    try:
        seen = []
        deadline = time.monotonic() + 10
        while HEARTBEAT not in [t for t, _, _ in seen]:
            assert time.monotonic() < deadline, f"no heartbeat; events {[t for t, _, _ in seen]}"
            seen.append(dump.event())
        _, log_pos, body = seen[-1]
        assert body[:len(log_file)] == log_file.encode()
        assert log_pos == query(conn, "SHOW MASTER STATUS")[0][1]
    finally:
        dump.close()


def test_purge_keeps_the_file_a_dump_reads(onelog_server):
    conn = onelog_server.connect(autocommit=True)
    query(conn, "CREATE DATABASE pg")
    query(conn, "CREATE TABLE pg.big (id INT PRIMARY KEY, b LONGBLOB)")
    blob = bytes(range(256)) * 400  # 100 KiB
    for i in range(300):  # 30 MiB: more than the socket buffers hold
        query(conn, "INSERT INTO pg.big VALUES (%s, %s)", (i, blob))
    first = query(conn, "SHOW MASTER STATUS")[0][0]
    query(conn, "FLUSH BINARY LOGS")
    query(conn, "FLUSH BINARY LOGS")
    current = query(conn, "SHOW MASTER STATUS")[0][0]
    # A commit in the current file: recovery no longer needs the first two.
    query(conn, "INSERT INTO pg.big VALUES (-1, NULL)")
    dump = RawDump(onelog_server, first)
    try:
        dump.event()  # the dump has started; it now blocks on the full socket in the first file
        time.sleep(1)
        query(conn, f"PURGE BINARY LOGS TO '{current}'")
        assert [r[0] for r in query(conn, "SHOW BINARY LOGS")][0] == first, "purged a file a dump reads"
    finally:
        dump.close()
    deadline = time.monotonic() + 10
    while True:
        query(conn, f"PURGE BINARY LOGS TO '{current}'")
        left = [r[0] for r in query(conn, "SHOW BINARY LOGS")]
        if left == [current]:
            break
        assert time.monotonic() < deadline, f"the ended dump still holds its file: {left}"
        time.sleep(0.2)


def test_client_unaware_of_checksums_is_refused_as_by_mariadb(onelog_server):
    """A client that never set @master_binlog_checksum cannot read a
    checksummed binlog: MariaDB sends the first ROTATE (without a checksum)
    and then error 1236 rather than strip the checksums. One that set it,
    even to NONE, is served the events as they are in the file."""
    conn = onelog_server.connect(autocommit=True)
    log_file = query(conn, "SHOW MASTER STATUS")[0][0]
    unaware = RawDump(onelog_server, log_file, checksum_aware=False)
    try:
        type_code, log_pos, body = unaware.event()
        assert (type_code, log_pos, body[8:]) == (4, 0, log_file.encode()), "a ROTATE naming the file, no checksum"
        with pytest.raises(pymysql.err.OperationalError) as e:
            unaware.event()
        assert e.value.args[0] == 1236 and "can not handle replication events with the checksum" in e.value.args[1]
    finally:
        unaware.close()


def test_dump_of_a_missing_file_is_error_1236(onelog_server):
    dump = RawDump(onelog_server, "onelog-bin.999999")
    with pytest.raises(pymysql.err.OperationalError) as e:
        dump.event()
    assert e.value.args[0] == 1236


def test_no_dump_with_log_bin_off(server_factory):
    srv = server_factory(log_bin=False)
    dump = RawDump(srv, "onelog-bin.000001")
    with pytest.raises(pymysql.err.OperationalError) as e:
        dump.event()
    assert e.value.args == (1236, "Binary log is not open")


def test_mariadb_replica_applies_create_table_like_and_select(onelog_server, replica):
    """CREATE TABLE ... LIKE reaches the replica as its text; CREATE TABLE ...
    SELECT as MariaDB logs it (the generated CREATE TABLE, then the rows, in
    one group); one that failed reaches it not at all. The replica ends with
    the same definitions and rows."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE cs")
    query(source, "CREATE TABLE cs.src (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10) NOT NULL DEFAULT 'd', "
                  "n DECIMAL(5,2), at DATETIME, UNIQUE KEY uv (v)) COMMENT='source'")
    query(source, "INSERT INTO cs.src (v, n, at) VALUES ('a', 1.5, '2026-01-02 03:04:05'), ('b', NULL, NULL), ('c', 3, NULL)")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "CREATE TABLE cs.copy LIKE cs.src")
    query(source, "INSERT INTO cs.copy (v) VALUES ('x'), ('y')")
    query(source, "USE cs")
    query(source, "CREATE TABLE snap (PRIMARY KEY (id), KEY kn (n)) SELECT id, v, n, at FROM src WHERE id > 1")
    query(source, "CREATE TABLE cs.lit (extra INT DEFAULT 5) SELECT v, 'lit' AS l, NULL AS z, 2.25 AS d FROM src")
    query(source, "CREATE TABLE keep (PRIMARY KEY (k)) IGNORE SELECT 1 AS k, v FROM src")
    with pytest.raises(pymysql.err.IntegrityError) as failed:
        query(source, "CREATE TABLE bad (PRIMARY KEY (k)) SELECT 1 AS k FROM src")
    assert failed.value.args[0] == 1062
    query(source, "CREATE TABLE types (t TIMESTAMP NULL, e ENUM('x','y') DEFAULT 'y', b VARBINARY(4), "
                  "code CHAR(3) COLLATE utf8mb4_bin, u TINYINT UNSIGNED NOT NULL DEFAULT 1, bl BLOB, "
                  "tx TEXT COMMENT 'it''s', dt DATETIME(3), tm TIME, f DOUBLE, big BIGINT UNSIGNED, st SET('r','g','b') DEFAULT 'g')")
    query(source, "INSERT INTO types VALUES ('2026-01-01 00:00:00', 'x', x'00ff', 'AbC', 2, x'01', 'text', "
                  "'2026-02-03 04:05:06.789', '12:34:56', 1.5, 18446744073709551615, 'b,R')")
    query(source, "CREATE TABLE wide SELECT *, '' AS em, NULL AS z, 'q''uote' AS qu FROM types")
    query(source, "UPDATE snap SET v = 'changed' WHERE id = 3")
    wait_caught_up(replica_conn, source)
    tables = ("copy", "snap", "lit", "keep", "types", "wide")
    assert sorted(r[0] for r in query(replica_conn, "SHOW TABLES FROM cs")) == sorted(("src",) + tables)
    for table in tables:
        # AUTO_INCREMENT=n included: the replica's counters follow the rows.
        ours = query(source, f"SHOW CREATE TABLE cs.{table}")[0][1]
        theirs = query(replica_conn, f"SHOW CREATE TABLE cs.{table}")[0][1]
        assert ours == theirs, table
        assert query(source, f"SELECT * FROM cs.{table} ORDER BY 1") == \
            query(replica_conn, f"SELECT * FROM cs.{table} ORDER BY 1"), table
    assert len(query(replica_conn, "SELECT * FROM cs.snap")) == 2


def test_mariadb_replica_applies_views(onelog_server, replica):
    """CREATE / ALTER / DROP VIEW reach a MariaDB replica as MariaDB logs
    them (options and definer spelled out), and rows written through a view
    as row events of its table: the replica shows the same views, printed
    the same, reading the same rows."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE vw")
    query(source, "CREATE TABLE vw.t (id INT PRIMARY KEY, a INT, b VARCHAR(10))")
    query(source, "INSERT INTO vw.t VALUES (1, 10, 'x'), (2, 20, 'y')")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "USE vw")
    query(source, "CREATE VIEW v1 AS SELECT * FROM t WHERE a > 5")
    query(source, "CREATE ALGORITHM=MERGE DEFINER=`root`@`localhost` SQL SECURITY INVOKER VIEW v2 (k, n) "
                  "AS SELECT b, COUNT(*) FROM t GROUP BY b")
    query(source, "CREATE VIEW v3 AS SELECT id, a FROM v1 WHERE a < 100 WITH LOCAL CHECK OPTION")
    query(source, "CREATE OR REPLACE VIEW v1 AS SELECT id, a, b AS name FROM t WHERE a >= 10")
    query(source, "ALTER VIEW v2 (k, n) AS SELECT b, SUM(a) FROM t GROUP BY b")
    query(source, "CREATE VIEW gone AS SELECT 1 AS one")
    query(source, "DROP VIEW gone")
    query(source, "INSERT INTO v3 VALUES (3, 30)")
    query(source, "UPDATE v1 SET name = 'upd' WHERE id = 1")
    wait_caught_up(replica_conn, source)
    views = ("v1", "v2", "v3")
    query(replica_conn, "USE vw")  # SHOW CREATE VIEW shortens names of the session's database
    assert sorted(query(replica_conn, "SHOW FULL TABLES FROM vw")) == sorted(query(source, "SHOW FULL TABLES FROM vw"))
    for view in views:
        assert query(source, f"SHOW CREATE VIEW vw.{view}")[0][1] == \
            query(replica_conn, f"SHOW CREATE VIEW vw.{view}")[0][1], view
        assert query(source, f"SELECT * FROM vw.{view} ORDER BY 1") == \
            query(replica_conn, f"SELECT * FROM vw.{view} ORDER BY 1"), view


def test_mariadb_replica_gets_the_databases_default_charsets(onelog_server, replica):
    """A database created without a charset takes the session's
    collation_server, which the QUERY event carries: a MariaDB replica
    (whose own server default is utf8mb4) and OneLog's recovery create it
    with the same charset, and its tables follow it."""
    source = onelog_server.connect(autocommit=True)
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "SET SESSION collation_server = latin1_german2_ci")
    query(source, "CREATE DATABASE dcs")
    query(source, "SET SESSION character_set_server = utf8mb4")
    query(source, "CREATE TABLE dcs.t (a VARCHAR(10), b VARCHAR(10) CHARACTER SET utf8mb4)")
    query(source, "INSERT INTO dcs.t VALUES ('Müller', 'Ärger')")
    query(source, "CREATE DATABASE dcs2 COLLATE ascii_bin")
    query(source, "ALTER DATABASE dcs2 CHARACTER SET latin1 COMMENT 'altered'")
    query(source, "CREATE TABLE dcs2.t (a TEXT)")
    wait_caught_up(replica_conn, source)
    for sql in ["SHOW CREATE DATABASE dcs", "SHOW CREATE DATABASE dcs2",
                "SHOW CREATE TABLE dcs.t", "SHOW CREATE TABLE dcs2.t", "SELECT a, b, HEX(a) FROM dcs.t"]:
        assert query(source, sql) == query(replica_conn, sql), sql
    assert "latin1_german2_ci" in query(source, "SHOW CREATE DATABASE dcs")[0][1]
    # Killed right after the replica has them: recovery most likely
    # replays these (the checkpoint runs once a second).
    query(source, "SET SESSION character_set_server = latin1")
    query(source, "CREATE DATABASE dcs3")
    query(source, "CREATE TABLE dcs3.t (a CHAR(2))")
    wait_caught_up(replica_conn, source)
    onelog_server.kill9()
    onelog_server.start()
    source = onelog_server.connect(autocommit=True)
    checks = ["SHOW CREATE DATABASE dcs", "SHOW CREATE DATABASE dcs2", "SHOW CREATE DATABASE dcs3",
              "SHOW CREATE TABLE dcs.t", "SHOW CREATE TABLE dcs2.t", "SHOW CREATE TABLE dcs3.t",
              "SELECT a, b, HEX(a) FROM dcs.t"]
    for sql in checks:
        assert query(source, sql) == query(replica_conn, sql), f"after kill -9: {sql}"
    assert "DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci" in query(source, "SHOW CREATE TABLE dcs3.t")[0][1]


def test_mariadb_replica_applies_routines_and_calls(onelog_server, replica):
    """CREATE / ALTER / DROP PROCEDURE and FUNCTION reach a MariaDB replica as
    MariaDB logs them, and what a CALL writes as row events (the replica
    never runs the body): the replica shows the same routines, printed the
    same, and holds the same rows."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE sp")
    query(source, "CREATE TABLE sp.t (id INT PRIMARY KEY, v VARCHAR(20))")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    # The replica logs nothing, so MariaDB's binlog safety check for
    # functions (1418) does not apply; the replica applies what it is sent.
    query(source, "USE sp")
    query(source, "CREATE PROCEDURE fill(IN n INT) COMMENT 'loop' BEGIN DECLARE i INT DEFAULT 0; "
                  "WHILE i < n DO SET i = i + 1; INSERT INTO t VALUES (i, CONCAT('row', i)); END WHILE; END")
    query(source, "CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2")
    query(source, "CREATE PROCEDURE gone() SELECT 1")
    query(source, "DROP PROCEDURE gone")
    query(source, "CALL fill(5)")
    query(source, "CREATE OR REPLACE PROCEDURE fill(IN n INT) INSERT INTO t VALUES (twice(n) + 100, 'replaced')")
    query(source, "CALL fill(3)")
    query(source, "ALTER PROCEDURE fill COMMENT 'altered' SQL SECURITY INVOKER")
    query(source, "ALTER FUNCTION sp.twice NO SQL")
    wait_caught_up(replica_conn, source)
    query(replica_conn, "USE sp")
    for kind, name in (("PROCEDURE", "fill"), ("FUNCTION", "twice")):
        assert query(source, f"SHOW CREATE {kind} {name}")[0][2] == \
            query(replica_conn, f"SHOW CREATE {kind} {name}")[0][2], name
    assert query(replica_conn, "SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'sp'") \
        == ((2,),)
    assert query(source, "SELECT * FROM t ORDER BY id") == query(replica_conn, "SELECT * FROM t ORDER BY id")
    assert query(replica_conn, "SELECT twice(21)") == ((42,),)


def test_mariadb_replica_applies_triggers_and_their_rows(onelog_server, replica):
    """CREATE / DROP TRIGGER reach a MariaDB replica as MariaDB logs them,
    and what a trigger writes arrives as row events of the firing
    transaction: the replica (which does not fire triggers for row events)
    holds the same rows, not doubled, and shows the same triggers."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE trg")
    query(source, "CREATE TABLE trg.t (id INT PRIMARY KEY, v VARCHAR(20), n INT)")
    query(source, "CREATE TABLE trg.audit (seq INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(60))")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "USE trg")
    query(source, "CREATE TRIGGER t_bi BEFORE INSERT ON t FOR EACH ROW SET NEW.n = NEW.id * 10")
    query(source, "CREATE TRIGGER t_ai AFTER INSERT ON t FOR EACH ROW "
                  "INSERT INTO audit (what) VALUES (CONCAT('ins ', NEW.id))")
    query(source, "CREATE TRIGGER t_ai0 AFTER INSERT ON t FOR EACH ROW PRECEDES t_ai SET @x = NEW.id")
    query(source, "CREATE TRIGGER t_au AFTER UPDATE ON t FOR EACH ROW "
                  "BEGIN INSERT INTO audit (what) VALUES (CONCAT('upd ', OLD.v, '>', NEW.v)); END")
    query(source, "CREATE TRIGGER gone BEFORE DELETE ON t FOR EACH ROW SET @x = OLD.id")
    query(source, "DROP TRIGGER gone")
    query(source, "INSERT INTO t (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    query(source, "UPDATE t SET v = 'z' WHERE id > 1")
    query(source, "INSERT INTO t (id, v) VALUES (1, 'dup') ON DUPLICATE KEY UPDATE v = 'odku'")
    wait_caught_up(replica_conn, source)
    query(replica_conn, "USE trg")
    for name in ("t_bi", "t_ai0", "t_ai", "t_au"):
        assert query(source, f"SHOW CREATE TRIGGER {name}")[0][2] == \
            query(replica_conn, f"SHOW CREATE TRIGGER {name}")[0][2], name
    order = "SELECT TRIGGER_NAME, ACTION_ORDER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'trg' " \
            "ORDER BY TRIGGER_NAME"
    # (information_schema's columns are typed text here: compare the values.)
    assert [(n, str(o)) for n, o in query(source, order)] == [(n, str(o)) for n, o in query(replica_conn, order)]
    for table in ("t ORDER BY id", "audit ORDER BY seq"):
        assert query(source, f"SELECT * FROM {table}") == query(replica_conn, f"SELECT * FROM {table}"), table
    assert query(replica_conn, "SELECT COUNT(*) FROM audit") == ((6,),)


def test_mariadb_replica_applies_widths_zerofill_and_float_digits(onelog_server, replica):
    """Display widths, BOOL, ZEROFILL and FLOAT(M,D) change no TABLE_MAP
    metadata or row image (MariaDB writes neither), and TEXT(n) / BLOB(n)
    pick the size class (the blob length bytes) MariaDB picks, so a MariaDB replica
    creating the tables from the logged text stores the rows OneLog
    logged: both print the same tables and read the same (padded) values."""
    source = onelog_server.connect(autocommit=True)
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "CREATE DATABASE zf")
    query(source, "CREATE TABLE zf.t (id INT(4) UNSIGNED ZEROFILL PRIMARY KEY, b BOOL, s SMALLINT(3) ZEROFILL, "
                  "f FLOAT(7,3), d DOUBLE(10,2) UNSIGNED ZEROFILL, r REAL(8,2), n DECIMAL(6,2) ZEROFILL, "
                  "tt TEXT(63), tb BLOB(256), tl TEXT(70) CHARACTER SET latin1)")
    query(source, "INSERT INTO zf.t VALUES (1, TRUE, 7, 1.23456, 3.14159, 2.71828, 3.5, 'tiny', 'blob', 'l'), "
                  "(2, FALSE, 300, -9999.9994, 1.005, 2.345, 0, REPEAT('x', 63), REPEAT('b', 300), 'm')")
    query(source, "ALTER TABLE zf.t ADD COLUMN z BIGINT(8) ZEROFILL")
    query(source, "UPDATE zf.t SET z = id * 100, f = f / 2")
    query(source, "DELETE FROM zf.t WHERE s = 300")
    wait_caught_up(replica_conn, source)
    for sql in ["SHOW CREATE TABLE zf.t", "SELECT * FROM zf.t ORDER BY id"]:
        assert query(source, sql) == query(replica_conn, sql), sql


def test_mariadb_replica_applies_foreign_keys_and_their_cascades(onelog_server, replica):
    """FOREIGN KEY constraints reach a MariaDB replica with the tables, and
    the rows a cascade changes arrive as row events of their own, flagged
    NO_FOREIGN_KEY_CHECKS so that the replica's InnoDB does not cascade a
    second time: it ends with the same rows, and its replication thread
    stays up (a doubled cascade would fail with 1032)."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE fk")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "USE fk")
    query(source, "CREATE TABLE p (id INT PRIMARY KEY, code INT UNIQUE)")
    query(source, "CREATE TABLE c (id INT PRIMARY KEY, pid INT, code INT, "
                  "FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE, "
                  "CONSTRAINT c_code FOREIGN KEY (code) REFERENCES p (code) ON UPDATE SET NULL)")
    query(source, "CREATE TABLE g (id INT PRIMARY KEY, cid INT, FOREIGN KEY (cid) REFERENCES c (id) ON DELETE CASCADE)")
    query(source, "INSERT INTO p VALUES (1, 10), (2, 20), (3, 30)")
    query(source, "INSERT INTO c VALUES (1, 1, NULL), (2, 1, 20), (3, 2, 30), (4, 3, 30)")
    query(source, "INSERT INTO g VALUES (1, 1), (2, 2), (3, 3)")
    query(source, "DELETE FROM p WHERE id = 1")
    query(source, "UPDATE p SET code = 31 WHERE id = 3")
    query(source, "SET foreign_key_checks = 0")
    query(source, "INSERT INTO c VALUES (9, 99, NULL)")
    query(source, "CREATE TABLE orphan (a INT, FOREIGN KEY (a) REFERENCES later (id))")
    query(source, "SET foreign_key_checks = 1")
    wait_caught_up(replica_conn, source)
    for table in ("p", "c", "g"):
        rows = f"SELECT * FROM fk.{table} ORDER BY id"
        assert query(source, rows) == query(replica_conn, rows), table
        create = f"SHOW CREATE TABLE fk.{table}"
        assert query(source, create) == query(replica_conn, create), table
    assert query(source, "SELECT * FROM fk.c ORDER BY id") == ((3, 2, None), (4, 3, None), (9, 99, None))
    assert query(source, "SELECT * FROM fk.g ORDER BY id") == ((3, 3),)


def test_mariadb_replica_applies_generated_columns(onelog_server, replica):
    """Generated columns reach a MariaDB replica with the logged CREATE and
    ALTER TABLE; the row images carry every column's value, the VIRTUAL
    ones included, as MariaDB logs them (binlog_row_image=FULL), so the
    replica finds each row it updates or deletes by its full before-image
    and ends with the same rows and the same index contents."""
    source = onelog_server.connect(autocommit=True)
    query(source, "CREATE DATABASE gc")
    replica_conn = start_replica(replica, onelog_server, first_binlog(onelog_server))
    query(source, "USE gc")
    query(source, "CREATE TABLE t (id INT PRIMARY KEY, a INT, v INT AS (a + 1) VIRTUAL, "
                  "s VARCHAR(12) AS (concat('s', a)) STORED, w INT AS (v * 2) PERSISTENT, UNIQUE KEY (w), KEY (v))")
    query(source, "CREATE TABLE h (a INT, v INT AS (a * 10) VIRTUAL)")
    query(source, "INSERT INTO t (id, a) VALUES (1, 1), (2, 2), (3, NULL)")
    query(source, "INSERT INTO h (a) VALUES (1), (2), (2)")
    query(source, "UPDATE t SET a = a + 10 WHERE id = 1")
    query(source, "INSERT INTO t (id, a) VALUES (2, 5) ON DUPLICATE KEY UPDATE a = 7")
    query(source, "REPLACE INTO t (id, a) VALUES (3, 30)")
    query(source, "UPDATE h SET a = 3 WHERE v = 20 LIMIT 1")
    query(source, "DELETE FROM h WHERE v = 10")
    query(source, "ALTER TABLE t ADD COLUMN x INT AS (a * 100) STORED")
    query(source, "DELETE FROM t WHERE id = 2")
    wait_caught_up(replica_conn, source)
    for table in ("t", "h"):
        rows = f"SELECT * FROM gc.{table} ORDER BY 1, 2"
        assert query(source, rows) == query(replica_conn, rows), table
        create = f"SHOW CREATE TABLE gc.{table}"
        assert query(source, create) == query(replica_conn, create), table
    by_key = "SELECT id FROM gc.t FORCE INDEX (v) WHERE v = 12"
    assert query(replica_conn, by_key) == query(source, by_key) == ((1,),)
    assert query(source, "SELECT * FROM gc.t ORDER BY id") == (
        (1, 11, 12, "s11", 24, 1100), (3, 30, 31, "s30", 62, 3000))
