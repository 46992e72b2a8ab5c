#!/usr/bin/env python3
"""Records what real clients send a server on connect and during typical use,
by running them against a throwaway MariaDB 10.11 with the general log on.
Writes tests/client_queries.txt (distinct statements per client; sysbench's
literals are normalized to ?).

    .venv/bin/python tests/tools/capture_client_queries.py
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402

LINE = re.compile(r"^(?:\d{6}\s+\d{1,2}:\d\d:\d\d)?\s+(\d+)\s+(Connect|Query|Prepare|Execute|Close stmt|Reset stmt|"
                  r"Init DB|Field List|Quit|Ping|Statistics|Change user|Set option|Long Data|Reset connection|"
                  r"Refresh|Processlist|Shutdown|Kill|Binlog Dump|Register Slave)\t?(.*)$")


def parse(path: Path, skip_ids: set[str]):
    entries, cur = [], None
    for raw in path.read_text(errors="replace").splitlines():
        m = LINE.match(raw)
        if m:
            cur = [m.group(1), m.group(2), m.group(3)]
            entries.append(cur)
        elif cur is not None and not raw.startswith(("/usr/sbin/mariadbd", "Tcp port", "Time ")):
            cur[2] += "\n" + raw
    return [(c, t) for (i, c, t) in entries if i not in skip_ids]


def norm(cmd, text, literal=False):
    text = text.strip()
    if cmd == "Connect":
        text = re.sub(r"on \S* using", "on <db> using", text)
        text = re.sub(r"^\S+@\S+", "root@localhost", text)
    if literal:
        text = re.sub(r"'(?:[^'\\]|\\.)*'", "'?'", text)
        text = re.sub(r"\b\d+\b", "?", text)
        text = re.sub(r"\((?:\?,\s*)+\?\)(?:,\s*\((?:'?\?'?,\s*)+'?\?'?\))+", "(...),(...)", text)
        text = re.sub(r"(\('\?'|\(\?)(,\s*'?\?'?)*\)(,\s*\((?:'?\?'?,?\s*)+\))+", "(?,...),...", text)
    return f"{cmd}\t{text}"


def main():
    tmp = Path(tempfile.mkdtemp(prefix="capture-"))
    logs = tmp / "logs"
    logs.mkdir()
    srv = harness.MariaDBServer(tmp / "data", extra_args=["--general-log=1", f"--general-log-file={logs}/boot.log"])
    srv.start()
    ctl = srv.connect(autocommit=True)
    with ctl.cursor() as cur:
        cur.execute("SELECT CONNECTION_ID()")
        ctl_id = str(cur.fetchone()[0])
        cur.execute("CREATE DATABASE IF NOT EXISTS sbtest")
        cur.execute("CREATE DATABASE IF NOT EXISTS app")
    results = {}

    def phase(name, fn, literal=False):
        f = logs / (re.sub(r"[^a-z0-9]+", "_", name.lower())[:40] + ".log")
        with ctl.cursor() as cur:
            cur.execute(f"SET GLOBAL general_log_file = '{f}'")
        fn()
        with ctl.cursor() as cur:
            cur.execute(f"SET GLOBAL general_log_file = '{logs}/idle.log'")
        seen, out = set(), []
        for cmd, text in parse(f, {ctl_id}):
            if cmd == "Query" and text.startswith("SET GLOBAL general_log_file"):
                continue
            k = norm(cmd, text, literal)
            if k not in seen:
                seen.add(k)
                out.append(k)
        results[name] = out

    def cli():
        srv.cli("-e", "SELECT 1")
        srv.cli("-e", "status")
        srv.cli("app", input="SHOW DATABASES;\nSHOW TABLES;\nSELECT 2;\n")
        srv.cli("-e", "SELECT 3", socket=True)
        with ctl.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS app.rehash_me (id INT PRIMARY KEY, name VARCHAR(10))")
        # interactive session on a pseudo-terminal (what a person gets): auto-rehash reads
        # databases, tables and their columns (COM_FIELD_LIST) for tab completion.
        import os, pty, time
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(srv.cli_base()[0], srv.cli_base() + ["app"])
        time.sleep(1.5)
        os.write(fd, b"SELECT 4;\nstatus\nquit\n")
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break
        os.waitpid(pid, 0)

    def pymysql_phase():
        c = srv.connect(database="app")
        with c.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS p (id INT PRIMARY KEY, v VARCHAR(10))")
            cur.execute("INSERT INTO p VALUES (%s, %s)", (1, "a"))
        c.commit()
        c.rollback()
        c.ping()
        c.select_db("app")
        c.close()
        c = srv.connect(unix_socket=True, autocommit=True)
        c.close()

    def sqlalchemy_phase():
        import sqlalchemy as sa
        from sqlalchemy import orm
        eng = sa.create_engine(f"mysql+pymysql://root@{srv.host}:{srv.port}/app", pool_pre_ping=True)
        md = sa.MetaData()
        t = sa.Table("sa_t", md, sa.Column("id", sa.Integer, primary_key=True), sa.Column("v", sa.String(20)))
        md.create_all(eng)
        with eng.begin() as conn:
            conn.execute(t.insert().values(v="x"))
        with orm.Session(eng) as s:
            s.execute(sa.select(t)).all()
            s.commit()
        insp = sa.inspect(eng)
        insp.get_table_names()
        insp.get_columns("sa_t")
        insp.get_indexes("sa_t")
        insp.get_pk_constraint("sa_t")
        insp.get_foreign_keys("sa_t")
        md.drop_all(eng)
        eng.dispose()

    def sysbench_phase():
        base = ["sysbench", "--db-driver=mysql", f"--mysql-host={srv.host}", f"--mysql-port={srv.port}",
                "--mysql-user=root", "--mysql-password=", "--mysql-db=sbtest", "--tables=2", "--table-size=100"]
        for test in ("oltp_read_write", "oltp_insert", "oltp_delete", "select_random_points",
                     "select_random_ranges", "bulk_insert"):
            tables = "--tables=1" if test.startswith("select_random") else "--tables=2"
            subprocess.run(base + [tables, test, "prepare"], capture_output=True)
            for ps in ("auto", "disable"):
                subprocess.run(base + [tables, "--time=1", "--threads=2", f"--db-ps-mode={ps}", test, "run"],
                               capture_output=True)
            subprocess.run(base + [tables, test, "cleanup"], capture_output=True)

    phase("mariadb CLI (batch, -e, status, socket, interactive on a tty)", cli)
    phase("pymysql 1.x (connect, query, commit, rollback, ping, select_db)", pymysql_phase)
    phase("SQLAlchemy 2.x + pymysql (create_all, Core, ORM, inspect, drop_all)", sqlalchemy_phase)
    phase("sysbench 1.0.20 (prepare/run/cleanup; ps-mode auto and disable; literals normalized to ?)",
          sysbench_phase, literal=True)
    ctl.close()
    srv.stop()
    srv.cleanup()

    out = HERE / "client_queries.txt"
    with open(out, "w") as f:
        f.write("# What real clients send, captured from MariaDB 10.11's general log by\n"
                "# tests/tools/capture_client_queries.py. One line per distinct command:\n"
                "# <general-log command>\\t<text>. 'Connect' lines show the connect attributes\n"
                "# (user, db, auth). Prepare/Execute are binary-protocol statements.\n"
                "#\n"
                "# Not visible in a general log but sent by these clients:\n"
                "# - COM_PING (pymysql ping(), SQLAlchemy pool_pre_ping), COM_QUIT,\n"
                "# - COM_STATISTICS ('Statistics' above: the CLI's `status` command prints its text\n"
                "#   'Uptime: ... Threads: ... Questions: ...'),\n"
                "# - COM_FIELD_LIST ('Field List'; the interactive CLI, once per table, on connect\n"
                "#   and on `use db`, unless started with -A),\n"
                "# - COM_INIT_DB ('Init DB'; pymysql select_db, the CLI's `use`),\n"
                "# - COM_STMT_CLOSE ('Close stmt'; sysbench at the end of a run), COM_STMT_RESET\n"
                "#   is not used by these clients, COM_SET_OPTION is not used either.\n"
                "# - pymysql sends connect attributes (_client_name, _pid, ...) and SET NAMES utf8mb4;\n"
                "#   sysbench's prepared statements bind MYSQL_TYPE_LONG/LONGLONG and STRING params.\n")
        for name, lines in results.items():
            f.write(f"\n## {name}\n")
            for l in lines:
                f.write(l.replace("\n", "\n    ") + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
