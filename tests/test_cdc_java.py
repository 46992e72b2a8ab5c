"""OneLog's binlog through mysql-binlog-connector-java (Maven Central
com.zendesk:mysql-binlog-connector-java, the library inside Debezium's MySQL
and MariaDB connectors), unmodified and configured as Debezium configures it.

tests/java/BinlogProbe.java streams with the connector's BinaryLogClient and
prints each event as decoded by the connector's own deserializers. A table
with a spread of types gets INSERT/UPDATE/DELETE in autocommit and in a
multi-statement transaction, DDL and FLUSH BINARY LOGS; the probe reads from
the first file at position 4 and every row change must arrive in order with
the values Python wrote, in the file it was written to, each transaction
GTID … XID (DDL: GTID … QUERY). A probe already following gets the next
writes live; one started again from the position the first stopped at, by
file and offset or by GTID, gets exactly the new transactions.

Every test runs against OneLog and against a MariaDB 10.11 with the same
settings, which checks the expectations themselves. The connector takes
MariaDB GTID positions only from a server whose handshake version contains
"MariaDB", which is why OneLog's does (5.5.5-10.11.99-MariaDB-OneLog).

The connector jar comes from scripts/setup (scripts/lib.sh
install_java_deps), checksum-pinned, into .cache/java/."""
from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pytest
from harness import REPO, make_server, target_kind

CONNECTOR_JAR = REPO / ".cache" / "java" / "mysql-binlog-connector-java-0.30.1.jar"
PROBE_SOURCE = REPO / "tests" / "java" / "BinlogProbe.java"
PROBE_TIMEOUT_S = 30
UNIX_EPOCH = dt.datetime(1970, 1, 1)

# The connector's decision, BinaryLogClient.setupGtidSet, 0.30.1.


# ---- the probe ---------------------------------------------------------

@pytest.fixture(scope="module")
def probe_classpath(tmp_path_factory) -> str:
    if not CONNECTOR_JAR.is_file():
        pytest.fail(f"{CONNECTOR_JAR} is missing: run scripts/setup (it downloads and checks it)")
    javac = shutil.which("javac")
    if javac is None:
        pytest.fail("javac is not installed: run scripts/setup (openjdk-17-jdk-headless)")
    classes = tmp_path_factory.mktemp("probe-classes")
    subprocess.run([javac, "-d", str(classes), "-cp", str(CONNECTOR_JAR), str(PROBE_SOURCE)],
                   check=True, capture_output=True, text=True, timeout=120)
    return f"{CONNECTOR_JAR}:{classes}"


@dataclass
class ProbeRun:
    events: list
    end: dict
    returncode: int
    stderr: str


def probe_command(classpath, srv, *args, timeout=PROBE_TIMEOUT_S):
    return ["java", "-XX:TieredStopAtLevel=1", "-cp", classpath, "BinlogProbe",
            "--host", srv.host, "--port", str(srv.port), "--user", "root",
            "--password", srv.root_password, "--timeout", str(timeout), *args]


def finish_probe(proc: subprocess.Popen, head=()) -> ProbeRun:
    """Waits for the probe; `head`: lines already read from its output."""
    out, err = proc.communicate(timeout=PROBE_TIMEOUT_S + 30)
    out = "".join(head) + out
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert lines and lines[-1]["type"] == "END", f"probe output ended early:\n{out}\n{err}"
    return ProbeRun(lines[:-1], lines[-1], proc.returncode, err)


def start_probe(classpath, srv, *args) -> subprocess.Popen:
    return subprocess.Popen(probe_command(classpath, srv, *args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def run_probe(classpath, srv, *args) -> ProbeRun:
    return finish_probe(start_probe(classpath, srv, *args))


def assert_clean(run: ProbeRun, reason: str):
    failures = [e for e in run.events if e["type"] == "DESERIALIZATION_FAILURE"]
    assert not failures, failures
    assert (run.returncode, run.end["reason"]) == (0, reason), (run.end, run.stderr[-3000:])


# ---- what the tests write, and what the connector must show for it --------

COLUMNS = ["id", "i", "u", "big", "ubig", "amount", "name", "note", "data", "at", "ts", "day"]
CREATE_TABLE = ("CREATE TABLE t (id INT PRIMARY KEY, i INT, u INT UNSIGNED, big BIGINT, "
                "ubig BIGINT UNSIGNED, amount DECIMAL(12,3), name VARCHAR(40), note TEXT, data BLOB, "
                "at DATETIME(3), ts TIMESTAMP NULL, day DATE)")
UNSIGNED = {"u": 32, "ubig": 64}
UUIDS = {"uid"}


def micros(value) -> int:
    """DATETIME, TIMESTAMP (session time zone UTC) and DATE as the connector
    gives them in Debezium's DATE_AND_TIME_AS_LONG_MICRO mode."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    delta = value - UNIX_EPOCH
    return (delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds


def as_decoded(column: str, value):
    """A value as the connector's deserializers give it."""
    if value is None:
        return None
    if column in UNSIGNED:
        # The connector reads integers as signed; Debezium applies the sign
        # from the column type itself.
        bits = UNSIGNED[column]
        return value - (1 << bits) if value >= 1 << (bits - 1) else value
    if column in UUIDS:
        # MariaDB logs a UUID as the BINARY(16) of its RFC byte order,
        # without trailing zero bytes.
        return {"hex": uuid.UUID(value).bytes.rstrip(b"\0").hex()}
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, str):
        return {"hex": value.encode("utf-8").hex()}
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, (dt.datetime, dt.date)):
        return micros(value)
    return value


@dataclass
class Expected:
    """A model of the table and the transactions its changes make."""
    columns: list = field(default_factory=lambda: list(COLUMNS))
    rows: dict = field(default_factory=dict)
    transactions: list = field(default_factory=list)

    def image(self, key):
        return [as_decoded(c, v) for c, v in zip(self.columns, self.rows[key])]

    def insert(self, changes, row):
        self.rows[row[0]] = list(row)
        changes.append(("WRITE", "cj.t", self.image(row[0])))

    def update(self, changes, key, **values):
        before = self.image(key)
        for name, value in values.items():
            self.rows[key][self.columns.index(name)] = value
        changes.append(("UPDATE", "cj.t", {"before": before, "after": self.image(key)}))

    def delete(self, changes, key):
        changes.append(("DELETE", "cj.t", self.image(key)))
        del self.rows[key]


class Writer:
    """Runs statements and records, for each committed transaction, what the
    connector must show: its kind, its changes and the file it is in."""

    def __init__(self, srv, model: Expected):
        self.model = model
        self.conn = srv.connect(autocommit=True)
        self.query("SET time_zone = '+00:00'")

    def query(self, sql, args=None):
        with self.conn.cursor() as cur:
            cur.execute(sql, args)
            return cur.fetchall()

    def master_status(self):
        return tuple(self.query("SHOW MASTER STATUS")[0][:2])

    def committed(self, kind, detail):
        self.model.transactions.append({"kind": kind, "detail": detail, "file": self.master_status()[0],
                                        "columns": list(self.model.columns)})

    def ddl(self, sql, db):
        self.query(sql)
        self.committed("DDL", {"database": db, "sql": sql})

    def transaction(self, statements):
        """statements: (sql, args, model_change) run in one BEGIN … COMMIT,
        or in autocommit when there is only one."""
        changes = []
        if len(statements) > 1:
            self.query("BEGIN")
        for sql, args, model_change in statements:
            self.query(sql, args)
            model_change(changes)
        if len(statements) > 1:
            self.query("COMMIT")
        self.committed("XID", changes)

    def insert(self, *rows):
        marks = ", ".join(["(" + ", ".join(["%s"] * len(rows[0])) + ")"] * len(rows))
        args = [v for row in rows for v in row]

        def change(ch):
            for row in rows:
                self.model.insert(ch, row)
        return (f"INSERT INTO t VALUES {marks}", args, change)

    def update(self, key, **values):
        sets = ", ".join(f"{name} = %s" for name in values)
        return (f"UPDATE t SET {sets} WHERE id = %s", [*values.values(), key],
                lambda ch: self.model.update(ch, key, **values))

    def delete(self, key):
        return ("DELETE FROM t WHERE id = %s", [key], lambda ch: self.model.delete(ch, key))


FIRST = [1, -2147483648, 4294967295, -9223372036854775808, 18446744073709551615, Decimal("-12345.678"),
         "Grüße, 世界 🙂", "line one\nline \"two\" — ünïcødé", bytes(range(256)),
         dt.datetime(2026, 11, 24, 8, 30, 15, 125000), dt.datetime(2026, 11, 24, 8, 30, 15), dt.date(2026, 11, 24)]
SECOND = [2, None, None, None, None, None, None, None, None, None, None, None]


def write_first_phase(w: Writer):
    """Everything before the first probe run: DDL, autocommit and multi-
    statement transactions, a rotation, DDL that changes the row shape."""
    w.ddl("CREATE DATABASE cj", "cj")
    w.query("USE cj")
    w.ddl(CREATE_TABLE, "cj")
    w.transaction([w.insert(FIRST, SECOND)])
    w.transaction([w.update(2, i=2147483647, u=0, amount=Decimal("0.001"), name="", note="", data=b"",
                            at=dt.datetime(1900, 1, 1, 0, 0, 0, 1000), ts=dt.datetime(1970, 1, 2),
                            day=dt.date(9999, 12, 31))])
    w.transaction([
        w.insert([3, 3, 3, 3, 3, Decimal("3.300"), "three", None, b"\x00", None, None, None]),
        w.update(1, name="eins — één", big=42),
        w.delete(2),
    ])
    w.query("FLUSH BINARY LOGS")
    w.ddl("ALTER TABLE t ADD COLUMN extra INT DEFAULT 7", "cj")
    w.model.columns.append("extra")
    for row in w.model.rows.values():
        row.append(7)
    w.transaction([w.update(3, extra=None, note="après ALTER")])
    w.ddl("ALTER TABLE t ADD COLUMN uid UUID", "cj")
    w.model.columns.append("uid")
    for row in w.model.rows.values():
        row.append(None)
    w.transaction([w.update(3, uid="f47ac10b-58cc-4372-a567-0e02b2c3d479")])
    w.transaction([w.delete(1)])


def write_second_phase(w: Writer):
    w.transaction([w.insert([4, -4, 4, -4, 4, Decimal("-0.004"), "vier", "ß", b"\xff" * 3,
                             dt.datetime(2000, 2, 29, 23, 59, 59, 999000), dt.datetime(2038, 1, 19, 3, 14, 7),
                             dt.date(2000, 2, 29), 44, "123e4567-e89b-12d3-a456-426655440000"])])
    w.query("FLUSH BINARY LOGS")
    w.transaction([w.update(4, extra=45, name="vier+"), w.insert([5] + [None] * 13)])
    w.transaction([w.delete(3)])


# ---- what the connector showed ----------------------------------------------

def transactions(events):
    """The stream cut into transactions (GTID … XID or GTID … QUERY), each with
    its GTID, flags, changes and the file it came from (per the ROTATEs); also
    the file names in the order the ROTATEs named them."""
    out, files, current, file = [], [], None, None
    for ev in events:
        kind = ev["type"]
        if kind == "ROTATE":
            file = ev["file"]
            if not files or files[-1] != file:
                files.append(file)
        elif kind == "MARIADB_GTID":
            assert current is None, f"GTID {ev['gtid']} inside transaction {current}"
            current = {"gtid": ev["gtid"], "flags": ev["flags"], "file": file, "changes": [], "maps": []}
        elif kind == "TABLE_MAP":
            assert current is not None, ev
            current["maps"].append((ev["table"], ev.get("columns")))
        elif kind.endswith("_ROWS"):
            assert current is not None, ev
            op = kind.replace("EXT_", "").replace("_ROWS", "")
            current["changes"] += [(op, ev["table"], row) for row in ev["rows"]]
        elif kind in ("XID", "QUERY"):
            assert current is not None, f"{kind} outside a transaction: {ev}"
            if kind == "XID":
                current["end"] = ("XID", current.pop("changes"))
            else:
                assert not current["changes"], current
                current["end"] = ("DDL", {"database": ev["database"], "sql": ev["sql"]})
            out.append(current)
            current = None
    assert current is None, f"the stream stopped inside a transaction: {current}"
    return out, files


GTID_STANDALONE, GTID_TRANSACTIONAL, GTID_DDL = 1, 4, 32


def assert_matches(seen, expected):
    assert len(seen) == len(expected)
    assert [t["end"] for t in seen] == [(t["kind"], t["detail"]) for t in expected]
    assert [t["file"] for t in seen] == [t["file"] for t in expected]
    for t, want in zip(seen, expected):
        if t["end"][0] == "DDL":
            assert t["flags"] & (GTID_STANDALONE | GTID_DDL) == GTID_STANDALONE | GTID_DDL, t
        else:
            assert t["flags"] & GTID_TRANSACTIONAL, t
        # Full row metadata: the table map names the columns the table had.
        for table, names in t["maps"]:
            assert (table, names) == ("cj.t", want["columns"]), t
    # One GTID per transaction, consecutive in domain 0.
    seqs = [int(t["gtid"].split("-")[2]) for t in seen]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs


# ---- one server per kind: the scenario, then the tests read it ---------------

@dataclass
class Scenario:
    srv: object
    first: list
    first_run: ProbeRun
    first_end: tuple
    second: list
    live_run: ProbeRun
    end: tuple
    binlog_files: list
    gtid_binlog_pos: str


@pytest.fixture(scope="module", params=["target", "mariadb"])
def cdc(request, tmp_path_factory, probe_classpath):
    kind = target_kind() if request.param == "target" else "mariadb"
    base = tmp_path_factory.mktemp(f"cdc-{request.param}")
    # MariaDB logs column names only with binlog_row_metadata=FULL, which is
    # what OneLog always writes.
    extra = ["--binlog-row-metadata=FULL"] if kind == "mariadb" else []
    srv = make_server(kind, base / "data", log_bin=True, name=f"cdc-{request.param}", extra_args=extra)
    srv.start()
    try:
        yield run_scenario(srv, probe_classpath)
    finally:
        srv.cleanup()


def run_scenario(srv, classpath) -> Scenario:
    model = Expected()
    w = Writer(srv, model)
    first_file = w.query("SHOW BINARY LOGS")[0][0]
    write_first_phase(w)
    first_end = w.master_status()
    first_run = run_probe(classpath, srv, "--file", first_file, "--pos", "4",
                          "--stop-at", f"{first_end[0]}:{first_end[1]}")
    assert_clean(first_run, "stop-at")

    # A probe following from where the first stopped gets the next writes
    # live: it idles at the end of the binlog (heartbeats say so), then they come.
    written = len(model.transactions)
    rows = 4  # write_second_phase's row changes, checked below
    live = start_probe(classpath, srv, "--file", first_run.end["file"], "--pos", str(first_run.end["pos"]),
                       "--rows", str(rows), "--heartbeat-ms", "100")
    head = read_until_heartbeat(live)
    write_second_phase(w)
    assert sum(len(t["detail"]) for t in model.transactions[written:]) == rows
    live_run = finish_probe(live, head)
    assert_clean(live_run, "rows")
    return Scenario(srv=srv, first=model.transactions[:written], first_run=first_run, first_end=first_end,
                    second=model.transactions[written:], live_run=live_run, end=w.master_status(),
                    binlog_files=[r[0] for r in w.query("SHOW BINARY LOGS")],
                    gtid_binlog_pos=w.query("SELECT @@gtid_binlog_pos")[0][0])


def read_until_heartbeat(proc: subprocess.Popen) -> list:
    """The probe's lines up to its first heartbeat (bounded by its --timeout)."""
    head = []
    while not head or '"type":"HEARTBEAT"' not in head[-1]:
        line = proc.stdout.readline()
        assert line and '"type":"END"' not in line, f"no heartbeat: {head + [line]} {proc.communicate()}"
        head.append(line)
    return head


# ---- the tests -------------------------------------------------------------

def test_every_change_arrives_in_order_across_rotation(cdc):
    seen, files = transactions(cdc.first_run.events)
    assert_matches(seen, cdc.first)
    # Both files, in order, each announced by ROTATE; the first transaction
    # after FLUSH BINARY LOGS is read from the second.
    assert files == cdc.binlog_files[:2]
    fd = [e for e in cdc.first_run.events if e["type"] == "FORMAT_DESCRIPTION"]
    assert len(fd) == 2 and all(e["checksum"] == "CRC32" for e in fd)
    assert (cdc.first_run.end["file"], cdc.first_run.end["pos"]) == cdc.first_end
    assert cdc.first_run.end["gtid"] == seen[-1]["gtid"]


def test_a_following_client_gets_new_writes_live(cdc):
    # Idle at the end of the binlog, heartbeats carry the position reached
    # (past the first run's end if MariaDB logged its binlog checkpoint late).
    events = cdc.live_run.events
    first_beat = next(i for i, e in enumerate(events) if e["type"] == "HEARTBEAT")
    reached = max([cdc.first_run.end["pos"]] + [e["next_pos"] for e in events[:first_beat]])
    assert events[first_beat]["next_pos"] == reached, events[:first_beat + 1]
    seen, files = transactions(cdc.live_run.events)
    first_seq = int(seen[0]["gtid"].split("-")[2])
    assert seen[0]["gtid"].split("-")[2] == str(int(cdc.first_run.end["gtid"].split("-")[2]) + 1)
    assert_matches(seen, cdc.second)
    assert files == cdc.binlog_files[1:3]
    # It stopped after the last commit (MariaDB may log a binlog checkpoint
    # after it, before SHOW MASTER STATUS).
    last_xid = [e for e in events if e["type"] == "XID"][-1]
    assert (cdc.live_run.end["file"], cdc.live_run.end["pos"]) == (cdc.end[0], last_xid["next_pos"])
    assert f"0-1-{first_seq + len(seen) - 1}" == cdc.gtid_binlog_pos


def test_resume_by_file_and_position_gets_exactly_the_new_changes(cdc, probe_classpath):
    run = run_probe(probe_classpath, cdc.srv, "--file", cdc.first_run.end["file"], "--pos",
                    str(cdc.first_run.end["pos"]), "--stop-at", f"{cdc.end[0]}:{cdc.end[1]}")
    assert_clean(run, "stop-at")
    seen, _ = transactions(run.events)
    assert_matches(seen, cdc.second)
    assert [t["gtid"] for t in seen] == [t["gtid"] for t in transactions(cdc.live_run.events)[0]]
    # A mid-file start: ROTATE to the position, then the file's format.
    assert [e["type"] for e in run.events[:2]] == ["ROTATE", "FORMAT_DESCRIPTION"]
    assert (run.events[0]["file"], run.events[0]["pos"]) == (cdc.first_run.end["file"], cdc.first_run.end["pos"])


def resume_by_gtid(cdc, classpath) -> ProbeRun:
    return run_probe(classpath, cdc.srv, "--gtid", cdc.first_run.end["gtid"],
                     "--stop-at", f"{cdc.end[0]}:{cdc.end[1]}")


def assert_resumed_after_gtid(cdc, run: ProbeRun):
    assert_clean(run, "stop-at")
    seen, files = transactions(run.events)
    assert_matches(seen, cdc.second)
    # The dump starts at the file holding the first missing transaction,
    # whose GTID_LIST says what came before it.
    assert files == cdc.binlog_files[1:3]
    gtid_lists = [e["gtid_list"] for e in run.events if e["type"] == "MARIADB_GTID_LIST"]
    assert gtid_lists[0] != "" and int(gtid_lists[0].split("-")[2]) <= int(cdc.first_run.end["gtid"].split("-")[2])


def test_resume_by_gtid_gets_exactly_the_new_changes(cdc, probe_classpath):
    run = resume_by_gtid(cdc, probe_classpath)
    assert_resumed_after_gtid(cdc, run)
