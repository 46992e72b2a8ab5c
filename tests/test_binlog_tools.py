"""Issue 3, "Done when":
- `mariadb-binlog --verbose --base64-output=DECODE-ROWS` reads every file written
  during a sysbench write run with no warning, and the decoded rows match what
  was executed;
- replaying the binlog files into a fresh MariaDB 10.11
  (`mariadb-binlog onelog-bin.0* | mariadb`) yields tables identical, row for
  row, to the server's."""
from __future__ import annotations

import re
import subprocess

import pytest

from harness import make_server, target_kind
from binlog_util import decode, diff_dumps, replay, table_dump

SYSBENCH = "/usr/bin/sysbench"


def sysbench(srv, test, phase, *extra):
    cmd = [SYSBENCH, "--db-driver=mysql", f"--mysql-host={srv.host}", f"--mysql-port={srv.port}",
           "--mysql-user=root", f"--mysql-password={srv.root_password}", "--mysql-db=sbtest",
           "--tables=2", "--table-size=2000", *extra, test, phase]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "FATAL" not in r.stdout, \
        f"$ {' '.join(cmd)}\n{r.stdout[-3000:]}\n{r.stderr[-2000:]}\n--- server ---\n{srv.stderr_tail()}"


TYPED_ROWS = [
    # (id, tiny, uns, big, dec, dbl, name, blob, day, ts, kind, tags)
    (1, -128, 4294967295, -9223372036854775808, "-12345.678", 0.5, "héllo 'q'", b"\x00\x01\xff", "2024-02-29", "2024-02-29 23:59:58", "b", "z,x"),
    (2, 127, 0, 9223372036854775807, "0.001", -2.25, "", b"", "1970-01-01", "2000-01-01 00:00:00", "a", ""),
    (3, None, None, None, None, None, "nulls", None, None, None, None, None),
]


def typed_workload(srv):
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE bl")
        cur.execute("USE bl")
        cur.execute("""CREATE TABLE typed (id INT PRIMARY KEY, tiny TINYINT, uns INT UNSIGNED,
            big BIGINT, dec1 DECIMAL(10,3), dbl DOUBLE, name VARCHAR(30) NOT NULL, bin BLOB,
            day DATE, ts DATETIME, kind ENUM('a','b'), tags SET('x','y','z'))""")
        cur.executemany("INSERT INTO typed VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)", TYPED_ROWS)
        cur.execute("UPDATE typed SET name = 'updated', uns = uns - 1 WHERE id = 1")
        cur.execute("DELETE FROM typed WHERE id = 2")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO typed (id, name) VALUES (10, 'in txn')")
        cur.execute("INSERT INTO typed (id, name) VALUES (11, 'rolled back')")
        cur.execute("ROLLBACK")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO typed (id, name) VALUES (12, 'committed')")
        cur.execute("COMMIT")
    c.close()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A server with the binlog on, after a sysbench write run plus a typed workload,
    stopped cleanly so every file is complete."""
    srv = make_server(target_kind(), tmp_path_factory.mktemp("binlog") / "data",
                      log_bin=True, sync_binlog=1, name="binlog")
    try:
        srv.start()
        yield _write(srv)
    finally:
        srv.cleanup()


def _write(srv):
    c = srv.connect(autocommit=True)
    with c.cursor() as cur:
        cur.execute("CREATE DATABASE sbtest")
    c.close()
    typed_workload(srv)
    sysbench(srv, "oltp_write_only", "prepare")
    for test in ("oltp_write_only", "oltp_insert", "oltp_delete", "oltp_update_non_index"):
        sysbench(srv, test, "run", "--time=2", "--threads=4", "--db-ps-mode=auto")
    expected = {db: table_dump(srv, db) for db in ("sbtest", "bl")}
    srv.stop()
    files = srv.binlog_files()
    assert files, f"no onelog-bin.0* files in {srv.datadir}: {sorted(p.name for p in srv.datadir.iterdir())}"
    return srv, files, expected


def test_mariadb_binlog_reads_every_file_without_warning(written):
    srv, files, expected = written
    index = srv.datadir / "onelog-bin.index"
    assert index.exists(), "no index file"
    listed = [l.strip() for l in index.read_text().splitlines() if l.strip()]
    assert [l.rsplit("/", 1)[-1] for l in listed] == [f.name for f in files], listed

    decoded = []
    for f in files:
        with open(f, "rb") as fh:
            assert fh.read(4) == b"\xfebin", f"{f.name}: bad magic"
        r = decode(f)
        assert r.returncode == 0, f"mariadb-binlog {f.name} exited {r.returncode}:\n{r.stderr}"
        assert r.stderr.strip() == "", f"mariadb-binlog {f.name} warned:\n{r.stderr}"
        assert "WARNING" not in r.stdout.upper().replace("# WARNING: SYNTAX", ""), f.name
        decoded.append(r.stdout)
    text = "\n".join(decoded)

    # event kinds a MariaDB 10.11 binlog must carry
    assert "Start: binlog v 4" in text
    assert "Gtid list" in text
    assert "Binlog checkpoint" in text
    assert re.search(r"GTID \d+-1-\d+", text), "no MariaDB GTID events"
    assert "Table_map: `sbtest`.`sbtest1`" in text
    assert "Write_rows" in text and "Update_rows" in text and "Delete_rows" in text
    assert re.search(r"Xid = \d+", text)
    assert "CRC32" in text or "checksum" in text.lower()

    # decoded rows of the typed workload match what was executed (full row images)
    ins = re.search(r"### INSERT INTO `bl`.`typed`\n### SET\n((?:###   @.*\n)+)", text)
    assert ins, "no decoded INSERT into bl.typed"
    first = ins.group(1)
    assert re.search(r"@1=1\b", first) and re.search(r"@2=-128\b", first), first
    assert re.search(r"@3=4294967295\b|@3=-1 \(4294967295\)", first), first
    assert re.search(r"@4=-9223372036854775808\b", first), first
    assert re.search(r"@5=-12345\.678\b", first), first
    assert "@7='héllo \\'q\\''" in first or "@7='h\\xc3\\xa9llo" in first or "héllo" in first, first
    assert re.search(r"@9='2024:02:29'|@9='2024-02-29'", first), first
    assert re.search(r"@10='?2024-02-29 23:59:58'?", first), first
    upd = re.search(r"### UPDATE `bl`.`typed`\n### WHERE\n((?:###   @.*\n)+)### SET\n((?:###   @.*\n)+)", text)
    assert upd, "no decoded UPDATE with before and after image"
    before, after = upd.groups()
    assert before.count("@") == 12 and after.count("@") == 12, "binlog_row_image must be FULL"
    # A SET is logged as its bitmask: z,x is 101.
    assert "@12=b'00000101'" in before, before
    assert "@7='updated'" in after and "@7='updated'" not in before
    dele = re.search(r"### DELETE FROM `bl`.`typed`\n### WHERE\n((?:###   @.*\n)+)", text)
    assert dele and re.search(r"@1=2\b", dele.group(1)) and dele.group(1).count("@") == 12
    assert "'rolled back'" not in text and "'in txn'" not in text, "a rolled back transaction reached the binlog"
    assert "'committed'" in text
    assert "CREATE TABLE typed" in text or "CREATE TABLE `typed`" in text


def test_replay_into_mariadb_matches(written, mariadb_server):
    srv, files, expected = written
    replay(files, mariadb_server, drop_dbs=("sbtest", "bl"))
    for db, want in expected.items():
        got = table_dump(mariadb_server, db)
        d = diff_dumps(want, got)
        assert not d, f"database {db}: replayed MariaDB differs from {srv.kind}:\n{d}"
        assert sum(len(v[1]) for v in want.values()) > 0
    # the server itself still has the same data after a restart on the same files
    srv.start()
    try:
        for db, want in expected.items():
            assert table_dump(srv, db) == want
    finally:
        srv.stop()
