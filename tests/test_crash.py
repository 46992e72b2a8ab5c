"""Issue 3, "Done when" (crash test): with sync_binlog=1, concurrent writers keep
a ledger of every acknowledged commit; the server is killed with SIGKILL at a
random moment and restarted; every acknowledged commit is present, no
unacknowledged transaction is partly applied, and binlog and tables agree.

Each transaction writes one marker row (txn_id, writer, n), n data rows (with
INSERT, or one in five with LOAD DATA LOCAL INFILE, or one in five staged in a
temporary table and copied with INSERT ... SELECT, which logs only the copy), and
increments its writer's counter row, then COMMITs. A transaction is
- acknowledged: COMMIT returned OK -> must be present, whole;
- in doubt: the connection broke after COMMIT was sent -> present whole, or absent;
- not committed: it failed before COMMIT was sent -> must be absent.
Counters must equal the number of markers per writer (updates are all-or-nothing too).
Meanwhile a schema changer adds, converts and moves (MODIFY ... FIRST | AFTER) or drops
a column of the data table once per cycle, replaces, drops or adds its primary key (every
row re-keyed), sets its `val` column's default (ALTER COLUMN SET DEFAULT) and renames a
table (RENAME TABLE):
a DDL between a writer's INSERT and its COMMIT must neither corrupt the rows nor
leave a binlog that recovery cannot replay. It also copies the markers with
CREATE TABLE snap_<cycle> SELECT (one binlog group: the CREATE, its rows, an XID)
and the data table's definition with CREATE TABLE like_<cycle> LIKE data: after
recovery a snapshot table holds every marker committed before its cycle began
(never the table without its rows) and only markers that exist, a renamed table is under
one of its names only, and the data table's definition (SHOW CREATE TABLE) is the one a
MariaDB replaying the binlog builds. It creates a database under a session
collation_server, which recovery must take from the QUERY event (the database
and its table keep that collation), with a table whose CHECK constraints (one
a JSON column's) still refuse rows after recovery. Last, it replaces or
drops one of two views over the markers (CREATE OR REPLACE VIEW / DROP VIEW): after
recovery an acknowledged view change is there, and the views replay into MariaDB
with the same rows. The data table's text column is latin1 with a key on it, so
recovery replays latin1 row images and rebuilds collation sort keys.
A procedure caller runs `CALL fill_proc(id, n)` (a loop of n INSERTs and a marker
row) or, as often, `SELECT fill_fn(id, n)` / `DO fill_fn(id, n)` (a stored function that
CALLs it: a function's writes belong to its calling statement's transaction) then
COMMIT, while the schema changer replaces the procedure (CREATE OR REPLACE
PROCEDURE, a WHILE or a REPEAT body): after recovery every acknowledged call's rows
are there and no call is partly there (the rows a CALL writes are logged as row
events of its transaction; recovery never runs a body). An AFTER INSERT trigger on
the procedure's rows (replaced each cycle by CREATE OR REPLACE TRIGGER) writes an
audit row for each: after recovery every row has its audit row and no audit row is
without its row (trigger writes are row events of the firing transaction; recovery
and the MariaDB replay never fire triggers). Each writer transaction also inserts a
parent row and two child rows under FOREIGN KEY constraints, re-keys the parent
(ON UPDATE CASCADE moves the children) and, in odd-sized transactions, deletes it
(ON DELETE CASCADE): after recovery a transaction's parent and children are there
re-keyed, or all gone, exactly as its size says (the cascaded rows are logged as
rows of its own transaction, flagged so the MariaDB replay does not cascade twice).

Env: ONELOG_CRASH_CYCLES (default 20), ONELOG_CRASH_WRITERS (default 8),
ONELOG_CRASH_SEED (default: random, printed).
"""
from __future__ import annotations

import os
import random
import threading
import time

import pymysql
import pytest

from binlog_util import diff_dumps, replay, table_dump

CYCLES = int(os.environ.get("ONELOG_CRASH_CYCLES", "20"))
WRITERS = int(os.environ.get("ONELOG_CRASH_WRITERS", "8"))
SEED = int(os.environ.get("ONELOG_CRASH_SEED", str(random.randrange(1 << 30))))
# The schema changer's CREATE DATABASE runs under one of these, by cycle.
SERVER_COLLATIONS = ["latin1_german2_ci", "ascii_bin", "utf8mb4_unicode_ci", "utf8mb3_general_ci"]


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.acked: dict[int, tuple[int, int]] = {}     # txn_id -> (writer, n)
        self.in_doubt: dict[int, tuple[int, int]] = {}
        self.not_committed: set[int] = set()
        self.next_seq = [0] * WRITERS

    def txn_id(self, w):
        with self.lock:
            self.next_seq[w] += 1
            return w * 10_000_000 + self.next_seq[w]

    def resolve_in_doubt(self, present):
        """After a recovery, in-doubt transactions are present or absent
        for good."""
        with self.lock:
            for t in list(self.in_doubt):
                if t in present:
                    self.acked[t] = self.in_doubt.pop(t)
                else:
                    self.not_committed.add(t)
                    del self.in_doubt[t]


def stage_through_temporary_table(cur, rows):
    """Writes `rows` into `data` through the session's temporary table, inside
    the open transaction (CREATE TEMPORARY TABLE does not commit it): only the
    INSERT ... SELECT's rows into `data` are logged, and they must be whole
    after recovery as any other."""
    cur.execute("CREATE TEMPORARY TABLE IF NOT EXISTS stage (txn_id BIGINT NOT NULL, idx INT NOT NULL, "
                "writer INT NOT NULL, val VARCHAR(100), PRIMARY KEY (txn_id, idx))")
    cur.execute("DELETE FROM stage")
    cur.executemany("INSERT INTO stage VALUES (%s, %s, %s, %s)", rows)
    cur.execute("INSERT INTO data (txn_id, idx, writer, val) SELECT txn_id, idx, writer, val FROM stage")


def writer(srv, ledger: Ledger, w: int, rng: random.Random, stop: threading.Event):
    try:
        c = srv.connect(database="crash", autocommit=False, connect_timeout=5, read_timeout=30, write_timeout=30,
                        local_infile=True)
    except pymysql.err.MySQLError:
        return
    upload = srv.datadir.parent / f"load-{w}.tsv"
    try:
        while not stop.is_set():
            tid = ledger.txn_id(w)
            n = rng.randint(1, 6)
            commit_sent = False
            try:
                with c.cursor() as cur:
                    # Some transactions set the marker's row count and the counter with one
                    # multi-table UPDATE: a half-applied one would show as a wrong count.
                    joined = rng.random() < 0.3
                    cur.execute("INSERT INTO markers (txn_id, writer, n) VALUES (%s, %s, %s)",
                                (tid, w, 0 if joined else n))
                    rows = [(tid, i, w, f"vé{tid}-{i}-" + "x" * rng.randint(0, 60)) for i in range(n)]
                    path = rng.random()
                    if path < 0.2:
                        # Some transactions write their rows with LOAD DATA LOCAL.
                        upload.write_text("".join("\t".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
                        cur.execute(f"LOAD DATA LOCAL INFILE '{upload}' INTO TABLE data CHARACTER SET utf8mb4 "
                                    "(txn_id, idx, writer, val)")
                    elif path < 0.4:
                        stage_through_temporary_table(cur, rows)
                    else:
                        cur.executemany("INSERT INTO data (txn_id, idx, writer, val) VALUES (%s, %s, %s, %s)", rows)
                    cascade_through_foreign_keys(cur, tid, n)
                    if joined:
                        cur.execute("UPDATE markers JOIN counters ON counters.writer = markers.writer "
                                    "SET markers.n = %s, counters.cnt = counters.cnt + 1, "
                                    "counters.last_txn = markers.txn_id WHERE markers.txn_id = %s", (n, tid))
                    else:
                        cur.execute("UPDATE counters SET cnt = cnt + 1, last_txn = %s WHERE writer = %s", (tid, w))
                    commit_sent = True
                    c.commit()
                with ledger.lock:
                    ledger.acked[tid] = (w, n)
            except Exception:
                with ledger.lock:
                    if commit_sent:
                        ledger.in_doubt[tid] = (w, n)
                    else:
                        ledger.not_committed.add(tid)
                return
    finally:
        try:
            c.close()
        except Exception:
            pass


def cascade_through_foreign_keys(cur, tid: int, n: int):
    """A parent and two children; the parent re-keyed to -tid (the children
    follow, ON UPDATE CASCADE), then deleted when `n` is odd (the children go,
    ON DELETE CASCADE)."""
    cur.execute("INSERT INTO fk_parent VALUES (%s)", (tid,))
    cur.executemany("INSERT INTO fk_child VALUES (%s, %s)", [(tid * 10 + i, tid) for i in range(2)])
    cur.execute("UPDATE fk_parent SET id = -id WHERE id = %s", (tid,))
    if n % 2:
        cur.execute("DELETE FROM fk_parent WHERE id = %s", (-tid,))


def verify_foreign_keys(cur, markers: dict, where: str):
    """Each present transaction's parent and children, as its size says."""
    cur.execute("SELECT id FROM fk_parent")
    parents = {r[0] for r in cur.fetchall()}
    cur.execute("SELECT id, pid FROM fk_child")
    children = set(cur.fetchall())
    kept = [t for t, (_, n) in markers.items() if n % 2 == 0]
    assert parents == {-t for t in kept}, f"foreign key parents {where}: {sorted(parents ^ {-t for t in kept})[:10]}"
    expected = {(t * 10 + i, -t) for t in kept for i in range(2)}
    assert children == expected, f"foreign key children {where}: {sorted(children ^ expected)[:10]}"


PROC_BODIES = (
    "BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO INSERT INTO proc_rows VALUES (id, i); SET i = i + 1; "
    "END WHILE; INSERT INTO proc_calls VALUES (id, n); END",
    "BEGIN DECLARE i INT DEFAULT 0; REPEAT INSERT INTO proc_rows VALUES (id, i); SET i = i + 1; "
    "UNTIL i >= n END REPEAT; INSERT INTO proc_calls VALUES (id, n); END",
)


AUDIT_TRIGGER_BODIES = (
    "INSERT INTO proc_audit VALUES (NEW.id, NEW.i)",
    "BEGIN DECLARE k INT DEFAULT NEW.i; INSERT INTO proc_audit VALUES (NEW.id, k); END",
)


def create_audit_trigger(cur, rng: random.Random):
    """Each proc_rows row's audit row, written by an AFTER INSERT trigger
    in the inserting transaction (logged as its row events)."""
    cur.execute("CREATE OR REPLACE TRIGGER proc_rows_audit AFTER INSERT ON proc_rows FOR EACH ROW "
                f"{rng.choice(AUDIT_TRIGGER_BODIES)}")


def create_fill_proc(cur, rng: random.Random):
    cur.execute(f"CREATE OR REPLACE PROCEDURE fill_proc(id BIGINT, n INT) {rng.choice(PROC_BODIES)}")


CALLERS = ("CALL fill_proc(%s, %s)", "SELECT fill_fn(%s, %s)", "DO fill_fn(%s, %s)")


def proc_caller(srv, calls: Ledger, rng: random.Random, stop: threading.Event):
    """CALL fill_proc(id, n), directly or from the stored function fill_fn,
    then COMMIT, recorded in `calls` as a writer's transactions are."""
    try:
        c = srv.connect(database="crash", autocommit=False, connect_timeout=5, read_timeout=30, write_timeout=30)
    except pymysql.err.MySQLError:
        return
    try:
        while not stop.is_set():
            tid = calls.txn_id(0)
            n = rng.randint(1, 20)
            commit_sent = False
            try:
                with c.cursor() as cur:
                    cur.execute(rng.choice(CALLERS), (tid, n))
                    commit_sent = True
                    c.commit()
                with calls.lock:
                    calls.acked[tid] = (0, n)
            except Exception:
                with calls.lock:
                    if commit_sent:
                        calls.in_doubt[tid] = (0, n)
                    else:
                        calls.not_committed.add(tid)
                return
    finally:
        try:
            c.close()
        except Exception:
            pass


def verify_calls(cur, calls: Ledger, where: str) -> int:
    """Every acknowledged CALL whole, none partial; settles in-doubt calls.
    Returns how many calls are present (one Xid each)."""
    cur.execute("SELECT id, n FROM proc_calls")
    present = dict(cur.fetchall())
    cur.execute("SELECT id, COUNT(*) FROM proc_rows GROUP BY id")
    rows = dict(cur.fetchall())
    lost = [t for t in calls.acked if t not in present]
    assert not lost, f"{len(lost)} acknowledged CALLs lost {where}: {sorted(lost)[:10]}"
    for t, n in present.items():
        assert rows.get(t, 0) == n, f"CALL {t} partly applied: {rows.get(t, 0)} of {n} rows {where}"
        assert t in calls.acked or t in calls.in_doubt, f"unknown or failed CALL {t} present {where}"
    cur.execute("SELECT id, COUNT(*) FROM proc_audit GROUP BY id")
    audited = dict(cur.fetchall())
    assert audited == rows, f"trigger-written audit rows differ from proc_rows {where}"
    orphans = set(rows) - set(present)
    assert not orphans, f"rows of CALLs without their marker (partial) {where}: {sorted(orphans)[:10]}"
    calls.resolve_in_doubt(present)
    return len(present)


VIEW_NAMES = ("v_markers_0", "v_markers_1")


def change_view(cur, rng: random.Random, views: dict):
    """Replaces or drops a view; `views[name]` says whether it must exist
    after recovery (None: the change is in doubt until then)."""
    name = rng.choice(VIEW_NAMES)
    if rng.random() < 0.3:
        sql, exists = f"DROP VIEW IF EXISTS {name}", False
    else:
        sql, exists = f"CREATE OR REPLACE VIEW {name} AS SELECT txn_id, writer FROM markers WHERE n > {rng.randrange(3)}", True
    views[name] = None
    cur.execute(sql)
    views[name] = exists


def verify_views(cur, views: dict, where: str):
    """Acknowledged view changes survived; in-doubt ones are settled now."""
    cur.execute("SHOW FULL TABLES")
    present = {r[0] for r in cur.fetchall() if r[1] == "VIEW"}
    for name, exists in views.items():
        if exists is None:
            views[name] = name in present
        else:
            assert (name in present) == exists, f"view {name} should {'' if exists else 'not '}exist {where}"


def change_account(cur, cycle: int, accounts: dict):
    """Creates crash_u<cycle> (REQUIRE SUBJECT and CIPHER) and grants it on `data`, then the role
    crash_r<cycle>, granted on `data` and to crash_u<cycle> as its default
    role; `accounts[name]` is each one's SHOW GRANTS once acknowledged (None:
    in doubt until recovery settles it)."""
    name, role = f"crash_u{cycle}", f"crash_r{cycle}"
    accounts[name] = accounts[role] = None
    cur.execute(f"CREATE USER {name} IDENTIFIED BY 'pw-{cycle}' REQUIRE SUBJECT '/CN=crash {cycle}' AND CIPHER 'TLS_AES_256_GCM_SHA384'")
    cur.execute(f"GRANT SELECT, INSERT ON crash.data TO {name} WITH GRANT OPTION")
    cur.execute(f"CREATE ROLE {role}")
    cur.execute(f"GRANT UPDATE ON crash.data TO {role}")
    cur.execute(f"GRANT {role} TO {name}")
    cur.execute(f"SET DEFAULT ROLE {role} FOR {name}")
    for each in (name, role):
        cur.execute(f"SHOW GRANTS FOR {each}")
        accounts[each] = [r[0] for r in cur.fetchall()]


def grants_of(cur, name: str):
    """SHOW GRANTS lines of an account, or "absent"."""
    try:
        cur.execute(f"SHOW GRANTS FOR {name}")
    except pymysql.err.MySQLError as e:
        assert e.args[0] == 1141, e
        return "absent"
    return [r[0] for r in cur.fetchall()]


def verify_accounts(cur, accounts: dict, where: str):
    """Acknowledged account changes survived exactly; in-doubt ones are
    settled now (each statement whole or not at all)."""
    for name, grants in accounts.items():
        present = grants_of(cur, name)
        if grants is None:
            accounts[name] = present
        else:
            assert present == grants, f"{name} {where}: {present} != {grants}"


def schema_changer(srv, rng: random.Random, stop: threading.Event, cycle: int, snapshots: dict, floor: set,
                   views: dict, accounts: dict):
    """Once, at a random moment of the cycle, adds the column `extra` to `data`,
    or converts and moves it, or drops it, then copies `markers` with CREATE TABLE ... SELECT (when the
    earlier cycles left markers: `floor`, recorded in `snapshots`) and `data`'s
    definition with CREATE TABLE ... LIKE, while the writers run."""
    if stop.wait(rng.uniform(0.05, 1.0)):
        return
    try:
        c = srv.connect(database="crash", autocommit=True, connect_timeout=5, read_timeout=30)
        with c.cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM information_schema.columns "
                        "WHERE table_schema = 'crash' AND table_name = 'data' AND column_name = 'extra'")
            if cur.fetchone()[0]:
                # MODIFY converts every row's value (a copy, as InnoDB's) and
                # moves the column; DROP removes it.
                cur.execute(rng.choice(["ALTER TABLE data DROP COLUMN extra",
                                        "ALTER TABLE data MODIFY extra BIGINT DEFAULT 7 FIRST",
                                        "ALTER TABLE data MODIFY extra INT DEFAULT 7 AFTER writer"]))
            else:
                cur.execute("ALTER TABLE data ADD COLUMN extra INT DEFAULT 7")
            cur.execute("SHOW INDEX FROM data")
            has_primary = any(r[2] == "PRIMARY" for r in cur.fetchall())
            # Every row moves to a new clustered key; without a primary key
            # the rows take hidden row ids.
            cur.execute(rng.choice(["ALTER TABLE data DROP PRIMARY KEY, ADD PRIMARY KEY (idx, txn_id)",
                                    "ALTER TABLE data DROP PRIMARY KEY, ADD PRIMARY KEY (txn_id, idx)",
                                    "ALTER TABLE data DROP PRIMARY KEY"])
                        if has_primary else "ALTER TABLE data ADD PRIMARY KEY (txn_id, idx)")
            cur.execute(f"ALTER TABLE data ALTER COLUMN val SET DEFAULT 'default {cycle}'")
            if floor:
                snapshots[f"snap_{cycle}"] = floor
                cur.execute(f"CREATE TABLE snap_{cycle} (PRIMARY KEY (txn_id)) SELECT txn_id, writer, n FROM markers")
            cur.execute(f"CREATE TABLE like_{cycle} LIKE data")
            change_view(cur, rng, views)
            create_fill_proc(cur, rng)
            create_audit_trigger(cur, rng)
            change_account(cur, cycle, accounts)
            cur.execute(f"RENAME TABLE like_{cycle} TO renamed_tmp, renamed_tmp TO renamed_{cycle}")
            # A database without a charset takes the session's server
            # collation, which only the QUERY event carries to recovery.
            cur.execute(f"SET SESSION collation_server = {SERVER_COLLATIONS[cycle % len(SERVER_COLLATIONS)]}")
            cur.execute(f"CREATE DATABASE crash_cs_{cycle}")
            # Nor does the event carry the session's default engine: the
            # log names it with the CREATE TABLE.
            cur.execute("SET SESSION default_storage_engine = MyISAM")
            # CREATE OR REPLACE drops the first table, its row included, and
            # creates the second in one logged statement.
            cur.execute(f"CREATE TABLE crash_cs_{cycle}.t (replaced INT)")
            cur.execute(f"INSERT INTO crash_cs_{cycle}.t VALUES (1)")
            cur.execute(f"CREATE OR REPLACE TABLE crash_cs_{cycle}.t "
                        "(a VARCHAR(5), j JSON, d INT DEFAULT (length(a) + 1), CHECK (a <> 'x'))")
            cur.execute("SET SESSION default_storage_engine = InnoDB")
        c.close()
    except pymysql.err.MySQLError:
        pass  # the server was killed under it: the DDL is in the binlog whole, or not at all


def verify_databases(cur, where: str) -> int:
    """Each crash_cs_<cycle> database present, and its table, has the
    collation_server (and the table the default engine) the schema changer
    created it under. Returns how many of
    the schema changer's `INSERT INTO crash_cs_<cycle>.t` committed (one Xid
    each): the row is there, or CREATE OR REPLACE, which runs after it, is."""
    inserts = 0
    cur.execute("SHOW DATABASES LIKE 'crash\\_cs\\_%'")
    for (name,) in cur.fetchall():
        expected = SERVER_COLLATIONS[int(name.rsplit("_", 1)[1]) % len(SERVER_COLLATIONS)]
        cur.execute(f"SHOW CREATE DATABASE {name}")
        created = cur.fetchone()[1]
        assert f"COLLATE {expected} " in created, f"{name} {where}: {created}"
        cur.execute(f"SHOW TABLES FROM {name}")
        if cur.fetchall():
            cur.execute(f"SHOW CREATE TABLE {name}.t")
            table = cur.fetchone()[1]
            assert ") ENGINE=MyISAM " in table, f"{name}.t {where}: {table}"
            cur.execute(f"SELECT COUNT(*) FROM {name}.t")
            rows = cur.fetchone()[0]
            if "`replaced`" in table:  # killed before CREATE OR REPLACE
                assert rows <= 1, f"{name}.t {where}: {rows} rows"
                inserts += rows
                continue
            inserts += 1
            assert rows == 0, f"{name}.t {where}: CREATE OR REPLACE kept {rows} rows of the table it replaced"
            assert table.endswith(f"COLLATE={expected}"), f"{name}.t {where}: {table}"
            assert "CHECK (json_valid(`j`))" in table and "CHECK (`a` <> 'x')" in table, f"{name}.t {where}: {table}"
            assert "DEFAULT (octet_length(`a`) + 1)" in table, f"{name}.t {where}: {table}"
            with pytest.raises(pymysql.err.MySQLError) as refused:
                cur.execute(f"INSERT INTO {name}.t (a, j) VALUES ('y', 'not json')")
            assert refused.value.args[0] == 4025, f"{name}.t {where}: {refused.value.args}"
    return inserts


def verify_snapshots(cur, markers: dict, snapshots: dict, where: str) -> int:
    """Each CREATE TABLE ... SELECT present holds all its floor, only real
    markers, unchanged; returns how many are present (one Xid each)."""
    cur.execute("SHOW TABLES LIKE 'snap\\_%'")
    present = [r[0] for r in cur.fetchall()]
    for name in present:
        cur.execute(f"SELECT txn_id, writer, n FROM {name}")
        rows = {r[0]: (r[1], r[2]) for r in cur.fetchall()}
        missing = snapshots[name] - set(rows)
        assert not missing, f"{name} lacks {len(missing)} markers committed before it {where}: {sorted(missing)[:10]}"
        wrong = {t: v for t, v in rows.items() if markers.get(t) != v}
        assert not wrong, f"{name} holds rows that are not markers {where}: {list(wrong.items())[:10]}"
    return len(present)


def verify(srv, ledger: Ledger, cycle: int, snapshots: dict, views: dict, accounts: dict):
    """Checks the ledger against the tables; returns (markers, CREATE ... SELECT
    tables present, committed schema-changer INSERTs)."""
    where = f"(cycle {cycle}, seed {SEED})"
    c = srv.connect(database="crash", autocommit=True)
    try:
        with c.cursor() as cur:
            # Every row decodes and every index entry matches its row.
            cur.execute("CHECK TABLE markers, data, counters")
            checked = cur.fetchall()
            assert all(r[2:] == ("status", "OK") for r in checked), f"CHECK TABLE (cycle {cycle}, seed {SEED}): {checked}"
            cur.execute("SELECT COUNT(*) FROM data WHERE tags <> 'a,c' OR NOT val_len <=> LENGTH(val) "
                        "OR slot <> txn_id MOD 7 + idx")
            wrong = cur.fetchone()[0]
            assert wrong == 0, f"{wrong} data rows with a wrong SET or generated value (cycle {cycle}, seed {SEED})"
            cur.execute("SELECT txn_id, writer, n FROM markers")
            markers = {r[0]: (r[1], r[2]) for r in cur.fetchall()}
            cur.execute("SELECT txn_id, COUNT(*) FROM data GROUP BY txn_id")
            data = dict(cur.fetchall())
            cur.execute("SELECT writer, cnt FROM counters")
            counters = dict(cur.fetchall())
            snapshot_tables = verify_snapshots(cur, markers, snapshots, where)
            verify_foreign_keys(cur, markers, where)
            verify_views(cur, views, where)
            database_inserts = verify_databases(cur, where)
            verify_accounts(cur, accounts, where)
            # RENAME TABLE is whole or not at all.
            cur.execute("SHOW TABLES")
            tables = {r[0] for r in cur.fetchall()}
            assert "renamed_tmp" not in tables, f"RENAME TABLE half done {where}"
            both = [c for c in range(1, cycle + 1) if f"like_{c}" in tables and f"renamed_{c}" in tables]
            assert not both, f"tables under their old and new names {where}: {both}"
    finally:
        c.close()
    lost = [t for t in ledger.acked if t not in markers]
    assert not lost, f"{len(lost)} acknowledged commits lost after kill -9 {where}: {sorted(lost)[:10]}"
    for t, (w, n) in ledger.acked.items():
        assert markers[t] == (w, n) and data.get(t, 0) == n, f"acknowledged txn {t} incomplete {where}"
    for t, (w, n) in markers.items():
        assert data.get(t, 0) == n, f"txn {t} partly applied: marker says {n} rows, found {data.get(t, 0)} {where}"
        assert t not in ledger.not_committed, f"txn {t} failed before COMMIT but is present {where}"
        assert t in ledger.acked or t in ledger.in_doubt, f"unknown txn {t} present {where}"
    orphans = set(data) - set(markers)
    assert not orphans, f"data rows without a marker (partial txn) {where}: {sorted(orphans)[:10]}"
    for w in range(WRITERS):
        mine = sum(1 for (ww, _) in markers.values() if ww == w)
        assert counters[w] == mine, f"writer {w}: counter {counters[w]} != {mine} markers {where}"
    ledger.resolve_in_doubt(markers)
    return markers, snapshot_tables, database_inserts


def binlog_xids(srv):
    c = srv.connect(autocommit=True)
    try:
        with c.cursor() as cur:
            cur.execute("SHOW BINARY LOGS")
            files = [r[0] for r in cur.fetchall()]
            xids = 0
            for f in files:
                cur.execute(f"SHOW BINLOG EVENTS IN '{f}'")
                xids += sum(1 for r in cur.fetchall() if r[2] == "Xid")
            return files, xids
    finally:
        c.close()


@pytest.fixture
def crash_server(server_factory):
    srv = server_factory(log_bin=True, sync_binlog=1, name="crash")
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE crash")
        cur.execute("USE crash")
        cur.execute("CREATE TABLE markers (txn_id BIGINT PRIMARY KEY, writer INT NOT NULL, n INT NOT NULL)")
        cur.execute("CREATE TABLE data (txn_id BIGINT NOT NULL, idx INT NOT NULL, writer INT NOT NULL, "
                    # latin1 row images and a key of collation sort keys.
                    # A BIT row image (big-endian, odd width) in every row.
                    "val VARCHAR(100) CHARACTER SET latin1, flags BIT(9) NOT NULL DEFAULT b'100000001', "
                    # A SET row image and indexed generated columns, computed
                    # at write time and replayed from the row images.
                    "tags SET('a', 'b', 'c') NOT NULL DEFAULT 'c,a', "
                    "val_len INT AS (LENGTH(val)) VIRTUAL, slot INT AS (txn_id MOD 7 + idx) STORED, "
                    "PRIMARY KEY (txn_id, idx), KEY k_writer (writer), "
                    "KEY k_val (val), KEY k_val_len (val_len), KEY k_slot (slot))")
        cur.execute("CREATE TABLE counters (writer INT PRIMARY KEY, cnt BIGINT NOT NULL, last_txn BIGINT)")
        cur.execute("CREATE TABLE proc_rows (id BIGINT NOT NULL, i INT NOT NULL, PRIMARY KEY (id, i))")
        cur.execute("CREATE TABLE proc_calls (id BIGINT PRIMARY KEY, n INT NOT NULL)")
        cur.execute("CREATE TABLE proc_audit (id BIGINT NOT NULL, i INT NOT NULL, PRIMARY KEY (id, i))")
        cur.execute("CREATE TABLE fk_parent (id BIGINT PRIMARY KEY)")
        cur.execute("CREATE TABLE fk_child (id BIGINT PRIMARY KEY, pid BIGINT, "
                    "FOREIGN KEY (pid) REFERENCES fk_parent (id) ON DELETE CASCADE ON UPDATE CASCADE)")
        create_fill_proc(cur, random.Random(0))
        cur.execute("CREATE FUNCTION fill_fn(id BIGINT, n INT) RETURNS INT BEGIN CALL fill_proc(id, n); RETURN n; END")
        create_audit_trigger(cur, random.Random(0))
        cur.execute("BEGIN")
        cur.executemany("INSERT INTO counters VALUES (%s, 0, NULL)", [(w,) for w in range(WRITERS)])
        cur.execute("COMMIT")
    c.close()
    return srv


def test_kill9_loses_no_acknowledged_commit(crash_server, mariadb_server):
    srv = crash_server
    rng = random.Random(SEED)
    ledger = Ledger()
    print(f"crash test: seed={SEED} cycles={CYCLES} writers={WRITERS}")
    total = 0
    snapshots: dict[str, set[int]] = {}  # snap table -> markers committed before its cycle
    views: dict[str, bool | None] = {}  # view -> must exist (None: in doubt)
    accounts: dict[str, list | str | None] = {}  # account -> SHOW GRANTS or "absent" (None: in doubt)
    floor: set[int] = set()
    snapshot_tables = 0
    calls = Ledger()  # fill_proc CALLs, as writer 0's transactions
    calls_present = 0
    database_inserts = 0
    for cycle in range(1, CYCLES + 1):
        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(srv, ledger, w, random.Random(rng.random()), stop),
                                    daemon=True) for w in range(WRITERS)]
        threads.append(threading.Thread(target=schema_changer,
                                        args=(srv, random.Random(rng.random()), stop, cycle, snapshots, floor,
                                              views, accounts),
                                        daemon=True))
        threads.append(threading.Thread(target=proc_caller, args=(srv, calls, random.Random(rng.random()), stop),
                                        daemon=True))
        for t in threads:
            t.start()
        time.sleep(rng.uniform(0.2, 1.5))
        srv.kill9()
        stop.set()
        for t in threads:
            t.join(60)
            assert not t.is_alive(), "a writer hung after the server was killed"
        srv.start()
        markers, snapshot_tables, database_inserts = verify(srv, ledger, cycle, snapshots, views, accounts)
        c = srv.connect(database="crash", autocommit=True)
        with c.cursor() as cur:
            calls_present = verify_calls(cur, calls, f"(cycle {cycle}, seed {SEED})")
        c.close()
        total, floor = len(markers), set(markers)
    assert len(ledger.acked) > 0, "no commit was ever acknowledged"
    assert len(calls.acked) > 0, "no CALL was ever acknowledged"
    print(f"crash test: {CYCLES} cycles, {len(ledger.acked)} acknowledged commits, {total} transactions present, "
          f"{snapshot_tables} CREATE TABLE ... SELECT tables, views {views}, {calls_present} CALLs present, "
          f"{sum(isinstance(g, list) for g in accounts.values())} accounts")

    # binlog and tables agree: one Xid per committed DML transaction (+1 for the counters setup),
    # per CREATE TABLE ... SELECT, per schema-changer INSERT,
    files, xids = binlog_xids(srv)
    assert xids == total + 1 + snapshot_tables + calls_present + database_inserts, \
        f"binlog has {xids} Xid events, tables hold {total} + 1 transactions, {snapshot_tables} snapshots, " \
        f"{calls_present} CALLs and {database_inserts} schema-changer INSERTs"
    # and replaying the binlog into a fresh MariaDB yields the same tables
    expected = table_dump(srv, "crash")
    expected_data_def = show_create(srv, "data")
    srv.stop()
    ref = mariadb_server.connect(autocommit=True)
    with ref.cursor() as cur:
        cur.execute("SELECT user, host FROM mysql.user WHERE user LIKE 'crash\\_u%'")
        for user, host in cur.fetchall():
            cur.execute(f"DROP USER '{user}'@'{host}'")
        cur.execute("SELECT user FROM mysql.user WHERE is_role = 'Y' AND user LIKE 'crash\\_r%'")
        for (role,) in cur.fetchall():
            cur.execute(f"DROP ROLE {role}")
    replay(srv.binlog_files(), mariadb_server, drop_dbs=("crash",))
    # The logged account statements give MariaDB the same accounts.
    with ref.cursor() as cur:
        for name, grants in accounts.items():
            assert grants_of(cur, name) == grants, f"{name} after replay into MariaDB (seed {SEED})"
    ref.close()
    got = table_dump(mariadb_server, "crash")
    d = diff_dumps(expected, got)
    assert not d, f"binlog replay differs from the tables (seed {SEED}):\n{d}"
    assert show_create(mariadb_server, "data") == expected_data_def, f"data's definition differs (seed {SEED})"


def show_create(srv, table):
    c = srv.connect(database="crash", autocommit=True)
    try:
        with c.cursor() as cur:
            cur.execute(f"SHOW CREATE TABLE {table}")
            return cur.fetchone()[1]
    finally:
        c.close()
