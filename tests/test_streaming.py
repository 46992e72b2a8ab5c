"""A plain SELECT streams its rows: the server sends them as its scan reads
them instead of building the result first (issue 20, item 3), so reading a
table much larger than the bound below with `SELECT *` (in its primary
key's order or not) leaves the server's memory where it was; an ORDER BY
no index gives and a GROUP BY with as many groups as rows sort through
files past sort_buffer_size, in the same bound; LIMIT ends the
scan; KILL QUERY and
max_statement_time end a streamed SELECT midway with MariaDB's errors
(1317, 1969) after the rows already sent — the same outcomes MariaDB 10.11
gives, which the KILL scenario checks side by side."""
from __future__ import annotations

import threading
import time

import pymysql
import pymysql.cursors
import pytest

from harness import outcome

# Rows of the large table and the width of each: ~200 MB of row data.
BIG_ROWS = 200_000
PAD_BYTES = 1000
ROWS_PER_INSERT = 1000
# What reading the whole table may add to the server's peak RSS: far below
# the table's size (a materialized result of it took over twice that).
RSS_BOUND_BYTES = 64 << 20


def fill(conn, db: str, rows: int, pad_bytes: int):
    """db.t (id INT PRIMARY KEY, pad VARCHAR) with `rows` rows, by multi-row
    INSERTs as mariadb-dump writes them."""
    with conn.cursor() as cur:
        cur.execute(f"CREATE DATABASE {db}")
        cur.execute(f"CREATE TABLE {db}.t (id INT PRIMARY KEY, pad VARCHAR({pad_bytes}))")
        for first in range(1, rows + 1, ROWS_PER_INSERT):
            last = min(first + ROWS_PER_INSERT, rows + 1)
            values = ",".join(f"({i},REPEAT(CHAR(65 + {i} % 26),{pad_bytes}))" for i in range(first, last))
            cur.execute(f"INSERT INTO {db}.t VALUES {values}")


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def reset_peak_rss(pid: int):
    # Linux: 5 resets VmHWM to the current RSS.
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


@pytest.fixture(scope="module")
def big(onelog_server_module):
    srv = onelog_server_module
    conn = srv.connect(autocommit=True)
    try:
        fill(conn, "big", BIG_ROWS, PAD_BYTES)
    finally:
        conn.close()
    return srv


# ORDER BY the primary key is the scan's own order: it streams too.
@pytest.mark.parametrize("order", ["", " ORDER BY id"])
def test_select_star_streams_in_bounded_memory(big, order):
    ids = []

    def check(i, row):
        row_id, pad = row
        assert row_id == i + 1 or not order
        assert len(pad) == PAD_BYTES
        ids.append(row_id)

    rows, grown = read_in_bounded_memory(big, "SELECT * FROM big.t" + order, check, sorts=False)
    assert rows == BIG_ROWS
    assert sum(ids) == BIG_ROWS * (BIG_ROWS + 1) // 2
    table_bytes = BIG_ROWS * PAD_BYTES
    assert grown < RSS_BOUND_BYTES, (
        f"server RSS grew by {grown >> 20} MB reading a {table_bytes >> 20} MB table "
        f"(bound {RSS_BOUND_BYTES >> 20} MB)")


def read_in_bounded_memory(srv, sql: str, check_row, sorts: bool = True):
    """Reads `sql` row by row, calling check_row(index, row) on each;
    returns the row count and how much the server's peak RSS grew, and
    checks whether the statement's sorts went through files
    (Sort_merge_passes) as `sorts` says."""
    pid = srv.proc.pid
    conn = srv.connect(cursorclass=pymysql.cursors.SSCursor)
    try:
        reset_peak_rss(pid)
        before_kb = status_kb(pid, "VmRSS")
        rows = 0
        with conn.cursor() as cur:
            cur.execute(sql)
            for row in cur:
                check_row(rows, row)
                rows += 1
        peak_kb = status_kb(pid, "VmHWM")
        merges = outcome(conn, "SHOW SESSION STATUS LIKE 'Sort_merge_passes'")
    finally:
        conn.close()
    assert (int(merges[0][1]) > 0) == sorts, f"Sort_merge_passes: {merges}"
    print(f"{sql}: {rows} rows, server RSS +{(peak_kb - before_kb) >> 10} MB")
    return rows, (peak_kb - before_kb) * 1024


def test_order_by_without_index_sorts_in_bounded_memory(big):
    # pad is REPEAT(CHAR(65 + id % 26)): descending letters, then ids.
    previous = []

    def check(i, row):
        row_id, pad = row
        assert len(pad) == PAD_BYTES
        key = (-ord(pad[0]), row_id)
        assert not previous or previous[0] < key, f"row {i}: {key} after {previous[0]}"
        previous[:] = [key]

    rows, grown = read_in_bounded_memory(big, "SELECT id, pad FROM big.t ORDER BY pad DESC, id", check)
    assert rows == BIG_ROWS
    assert grown < RSS_BOUND_BYTES, f"server RSS grew by {grown >> 20} MB sorting the table"


def test_group_by_with_a_group_per_row_in_bounded_memory(big):
    previous = []

    def by_pad_and_id(i, row):
        letter, row_id, count = row
        assert count == 1
        key = (letter, row_id)
        assert not previous or previous[0] < key, f"group {i}: {key} after {previous[0]}"
        previous[:] = [key]

    # Sorted by the whole 1,000-byte pad: every row goes through the files.
    sql = "SELECT LEFT(pad, 1), id, COUNT(*) FROM big.t GROUP BY pad, id"
    rows, grown = read_in_bounded_memory(big, sql, by_pad_and_id)
    assert rows == BIG_ROWS
    assert grown < RSS_BOUND_BYTES, f"server RSS grew by {grown >> 20} MB grouping the table"

    def by_id(i, row):
        assert row == (i + 1, 1, i + 1), f"group {i}: {row}"

    rows, grown = read_in_bounded_memory(big, "SELECT id, COUNT(*), MAX(id) FROM big.t GROUP BY id + 0", by_id)
    assert rows == BIG_ROWS
    assert grown < RSS_BOUND_BYTES, f"server RSS grew by {grown >> 20} MB grouping the table"


def test_mariadb_quick_reads_the_whole_table(big):
    result = big.cli("--quick", "--batch", "--skip-column-names", "-e",
                     "SELECT id, LENGTH(pad) FROM big.t WHERE id % 1000 = 0")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == BIG_ROWS // 1000
    assert lines[-1] == f"{BIG_ROWS}\t{PAD_BYTES}"


def test_limit_stops_the_scan(big):
    conn = big.connect()
    try:
        started = time.monotonic()
        first = outcome(conn, "SELECT id FROM big.t LIMIT 3 OFFSET 2")
        last = outcome(conn, "SELECT id FROM big.t ORDER BY id DESC LIMIT 2")
        took = time.monotonic() - started
        # WHERE filters before OFFSET and LIMIT count.
        filtered = outcome(conn, "SELECT id, LEFT(pad, 2) FROM big.t WHERE id % 7 = 0 LIMIT 2 OFFSET 1")
        none = outcome(conn, "SELECT id FROM big.t LIMIT 0")
        found = outcome(conn, "SELECT FOUND_ROWS()")
    finally:
        conn.close()
    assert first == ((3,), (4,), (5,))
    assert last == ((BIG_ROWS,), (BIG_ROWS - 1,))
    assert filtered == ((14, "OO"), (21, "VV"))
    assert none == ()
    assert found == ((0,),)
    assert took < 1.0, f"two LIMITs of {BIG_ROWS} rows took {took:.2f} s"


def test_found_rows_and_warnings_after_a_streamed_select(big):
    conn = big.connect()
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT id, id DIV 0 FROM big.t WHERE id <= 5")
            rows = cur.fetchall()
            # The EOF after the rows carries the statement's warnings.
            warnings = cur._result.warning_count
            cur.execute("SHOW WARNINGS")
            shown = cur.fetchall()
            cur.execute("SELECT FOUND_ROWS()")
            found = cur.fetchall()
    finally:
        conn.close()
    assert rows == tuple((i, None) for i in range(1, 6))
    assert warnings == 5
    assert shown == (("Warning", 1365, "Division by 0"),) * 5
    assert found == ((5,),)


def kill_midway(srv, db: str, statement_for):
    """Starts `SELECT * FROM db.t` on an unbuffered cursor, reads some rows,
    has `statement_for(victim id)` run from another connection, then reads
    on: the outcome and the number of rows read."""
    victim = srv.connect(cursorclass=pymysql.cursors.SSCursor)
    admin = srv.connect(autocommit=True)
    read = 0
    try:
        with victim.cursor() as cur:
            cur.execute(f"SELECT * FROM {db}.t")
            for _ in range(100):
                cur.fetchone()
                read += 1
            outcome(admin, statement_for(victim.thread_id()))
            try:
                while cur.fetchone() is not None:
                    read += 1
                return "completed", read
            except pymysql.err.MySQLError as e:
                return ("error", e.args[0]), read
    finally:
        admin.close()
        victim.close()


KILL_ROWS = 100_000


@pytest.mark.parametrize("kind", ["onelog", "mariadb"])
def test_kill_query_stops_a_streamed_select(kind, big, mariadb_server):
    srv = big if kind == "onelog" else mariadb_server
    conn = srv.connect(autocommit=True)
    try:
        outcome(conn, "DROP DATABASE IF EXISTS killed")
        fill(conn, "killed", KILL_ROWS, 100)
    finally:
        conn.close()
    result, read = kill_midway(srv, "killed", lambda vid: f"KILL QUERY {vid}")
    assert result == ("error", 1317), f"{srv}: {result} after {read} rows"
    assert 100 <= read < KILL_ROWS
    # The connection's next statement runs.
    again = srv.connect()
    try:
        assert outcome(again, "SELECT COUNT(*) FROM killed.t") == ((KILL_ROWS,),)
    finally:
        again.close()


def test_max_statement_time_ends_a_streamed_select(big):
    conn = big.connect(cursorclass=pymysql.cursors.SSCursor)
    read = 0
    try:
        with conn.cursor() as cur:
            cur.execute("SET max_statement_time = 0.3")
            cur.execute("SELECT * FROM big.t")
            with pytest.raises(pymysql.err.MySQLError) as error:
                for _ in cur:
                    read += 1
                    if read % 1000 == 0:
                        time.sleep(0.05)
    finally:
        conn.close()
    assert error.value.args[0] == 1969
    assert read < BIG_ROWS
