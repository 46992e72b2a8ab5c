"""Helpers shared by the binlog tests: decode with mariadb-binlog, replay into a
MariaDB, compare tables row for row."""
from __future__ import annotations

import subprocess

from harness import MARIADB_BINLOG


def decode(path, verbose=True):
    cmd = [MARIADB_BINLOG, "--no-defaults"]
    if verbose:
        cmd += ["--verbose", "--base64-output=DECODE-ROWS"]
    cmd.append(str(path))
    return subprocess.run(cmd, capture_output=True, text=True, errors="backslashreplace", timeout=300)


def replay(files, target, drop_dbs=(), start_position=None):
    """`mariadb-binlog FILES | mariadb` into target (a MariaDB server object),
    from `start_position` of the first file if given."""
    if drop_dbs:
        c = target.connect(autocommit=True)
        try:
            with c.cursor() as cur:
                for db in drop_dbs:
                    cur.execute(f"DROP DATABASE IF EXISTS `{db}`")
        finally:
            c.close()
    start = [f"--start-position={start_position}"] if start_position is not None else []
    dump = subprocess.Popen([MARIADB_BINLOG, "--no-defaults", *start, *map(str, files)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    load = subprocess.run(target.cli_base() + ["--binary-mode"], stdin=dump.stdout,
                          capture_output=True, text=True, timeout=600)
    dump.stdout.close()
    dump_err = dump.stderr.read().decode(errors="replace")
    dump.wait(timeout=60)
    assert dump.returncode == 0, f"mariadb-binlog failed ({dump.returncode}): {dump_err}"
    assert load.returncode == 0, f"replay into MariaDB failed ({load.returncode}):\n{load.stderr[-4000:]}"
    return dump_err


def table_dump(srv, db):
    """{table: [rows as text, ordered by every column]} for every table of db."""
    c = srv.connect(database=db, autocommit=True, conv={})
    try:
        with c.cursor() as cur:
            cur.execute("SHOW TABLES")
            tables = sorted(r[0] for r in cur.fetchall())
            out = {}
            for t in tables:
                cur.execute(f"SELECT * FROM `{t}`")
                ncols = len(cur.description)
                rows = [tuple("NULL" if v is None else (v.hex() if isinstance(v, bytes) else str(v)) for v in r)
                        for r in cur.fetchall()]
                rows.sort()
                out[t] = (ncols, rows)
            return out
    finally:
        c.close()


def diff_dumps(a: dict, b: dict, label_a="onelog", label_b="replayed") -> str:
    msgs = []
    if sorted(a) != sorted(b):
        msgs.append(f"tables differ: {label_a}={sorted(a)} {label_b}={sorted(b)}")
    for t in sorted(set(a) & set(b)):
        if a[t] != b[t]:
            ra, rb = set(a[t][1]), set(b[t][1])
            msgs.append(f"table {t}: {len(a[t][1])} vs {len(b[t][1])} rows; "
                        f"only in {label_a}: {sorted(ra - rb)[:5]}; only in {label_b}: {sorted(rb - ra)[:5]}")
    return "\n".join(msgs)
