"""MariaDB's own regression suite (mtr, Debian package `mariadb-test`) against OneLog.

Runs tests of mtr's `main` suite in extern mode (`mariadb-test-run.pl --extern
socket=...`) against a running server, one mtr call per test, the way
`../shared/mtr/README.md` describes the measurement:

- the same list runs against a throwaway MariaDB 10.11, started with the options of
  mtr's `include/default_mysqld.cnf` that change results, and against OneLog
  (started with `--initialize-insecure` and nothing else); a test counts only if it
  passes against MariaDB;
- before each test every non-system database is dropped and `test` re-created; the
  `mtr` database (`mtr.add_suppression`, ...) is created once from
  `include/mtr_warnings.sql`, statement by statement (what a server cannot create
  stays missing, and tests that need it fail);
- after each test the server is restarted if it died or if the test left global
  variables changed, so one test cannot break the next.

A result per test is `pass`, `fail` (with its first difference: mysqltest's error
line or the first differing line of the result diff), `skipped` (mtr's own skip,
e.g. a test needing a debug build) or `error` (the mtr call itself failed).

Command line (the pytest wrapper is tests/test_mtr.py):

    .venv/bin/python tests/mtr_runner.py [--target onelog|mariadb|both] [--list FILE] [TEST ...]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pymysql

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import BaseServer, make_server  # noqa: E402

MTR_DIR = Path("/usr/share/mysql/mysql-test")
MTR_LISTS = Path(__file__).resolve().parent / "mtr"
COMPARABLE_LIST = MTR_LISTS / "comparable.txt"
PASSING_LIST = MTR_LISTS / "passing.txt"

# mtr's include/default_mysqld.cnf options that change results (the rest tune
# InnoDB, the performance schema or mtr's own server management).
MARIADB_MTR_OPTIONS = [
    "--character-set-server=latin1", "--collation-server=latin1_swedish_ci",
    "--default-storage-engine=myisam", "--max-heap-table-size=1M",
    "--sort-buffer-size=256K", "--key-buffer-size=1M", "--local-infile",
    "--log-bin-trust-function-creators=1", "--connect-timeout=60",
    "--use-stat-tables=preferably", "--histogram-type=json_hb",
    "--binlog-direct-non-transactional-updates",
]
# The same server defaults for OneLog: mtr's result files expect latin1
# tables, and tables named MyISAM unless a test names another engine (SHOW
# CREATE TABLE prints it; see default_storage_engine). (The other options tune
# engines OneLog does not have.)
ONELOG_MTR_OPTIONS = ["--character-set-server=latin1", "--collation-server=latin1_swedish_ci",
                      "--default-storage-engine=myisam"]
SYSTEM_DATABASES = {"information_schema", "mysql", "performance_schema", "sys", "mtr"}
# mtr's per-test limit is in minutes; a hang costs this much, not the run.
TESTCASE_TIMEOUT_MIN = 2
MTR_CALL_TIMEOUT_S = TESTCASE_TIMEOUT_MIN * 60 + 60
# Variables a test may not change for the next one; any other global change
# (SET GLOBAL ...) restarts the server.
VOLATILE_GLOBALS = {"gtid_binlog_pos", "gtid_current_pos", "gtid_binlog_state", "timestamp",
                    "last_insert_id", "warning_count", "error_count", "rand_seed1", "rand_seed2"}


@dataclass
class Outcome:
    test: str
    status: str            # pass | fail | skipped | error
    first_difference: str  # empty for pass
    seconds: float
    output: str = ""       # mtr's whole output after the status line (fail / skipped)


def read_list(path: Path) -> list[str]:
    names = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line)
    return names


def mtr_warnings_statements() -> list[str]:
    """include/mtr_warnings.sql split into statements.

    The file is written for mtr's bootstrap: `delimiter ||;` then statements
    ended by `||`, with `--` lines that are not SQL comments inside routine
    bodies (`--SELECT ...`). Those lines are dropped, as bootstrap drops them.
    """
    text = (MTR_DIR / "include" / "mtr_warnings.sql").read_text()
    kept = [ln for ln in text.splitlines()
            if not ln.lstrip().startswith("--") and not ln.lower().startswith("delimiter")]
    return [stmt.strip() for stmt in "\n".join(kept).split("||") if stmt.strip()]


class MtrTarget:
    """One server the list runs against, with its own mtr vardir."""

    def __init__(self, kind: str, workdir: Path):
        self.kind = kind
        self.workdir = workdir / kind
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.vardir = self.workdir / "var"
        (self.vardir / "log").mkdir(parents=True, exist_ok=True)
        extra = MARIADB_MTR_OPTIONS + [f"--secure-file-priv={self.vardir}"] if kind == "mariadb" else ONELOG_MTR_OPTIONS
        # Under the vardir, where mtr's tests expect the data directory when
        # they touch its files (--remove_file $MYSQLD_DATADIR/...). Each
        # server's default binlog setting: mtr runs MariaDB without one.
        self.server: BaseServer = make_server(kind, self.vardir / "mysqld.1" / "data",
                                              extra_args=extra, name=f"mtr-{kind}")
        self.restarts = 0
        self.mtr_setup_failures: list[str] = []
        self.baseline: dict[str, str] = {}

    def start(self):
        self.server.start()
        self._create_mtr_database()
        self.baseline = self._globals()

    def stop(self):
        self.server.cleanup()

    def _connect(self, db=None):
        return pymysql.connect(unix_socket=self.server.socket, user="root", password="",
                               database=db, autocommit=True, connect_timeout=10)

    def _create_mtr_database(self):
        conn = self._connect()
        try:
            with conn.cursor() as cur:
                cur.execute("CREATE DATABASE IF NOT EXISTS mtr")
                cur.execute("USE mtr")
                for stmt in mtr_warnings_statements():
                    try:
                        cur.execute(stmt)
                    except pymysql.err.MySQLError as e:
                        self.mtr_setup_failures.append(f"{stmt.splitlines()[0][:60]}: {e.args}")
        finally:
            conn.close()

    def _globals(self) -> dict[str, str]:
        conn = self._connect()
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW GLOBAL VARIABLES")
                return {k.lower(): v for k, v in cur.fetchall() if k.lower() not in VOLATILE_GLOBALS}
        finally:
            conn.close()

    def _reset_databases(self):
        conn = self._connect()
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW DATABASES")
                for (name,) in cur.fetchall():
                    if name.lower() not in SYSTEM_DATABASES:
                        cur.execute(f"DROP DATABASE `{name}`")
                cur.execute("CREATE DATABASE test")
        finally:
            conn.close()

    def _restart(self):
        self.restarts += 1
        if self.server.alive():
            self.server.stop(check=False)
        self.server.start()

    def _settle(self):
        """Restarts the server if the last test killed it or changed globals."""
        if not self.server.alive():
            self._restart()
            return
        try:
            changed = self._globals() != self.baseline
        except pymysql.err.MySQLError:
            changed = True
        if changed:
            self._restart()

    def run(self, test: str) -> Outcome:
        began = time.monotonic()
        try:
            self._reset_databases()
        except pymysql.err.MySQLError as e:
            self._restart()
            return Outcome(test, "error", f"could not reset databases: {e.args}", time.monotonic() - began)
        outcome = run_mtr(self.server.socket, self.vardir, test)
        self._settle()
        outcome.seconds = time.monotonic() - began
        return outcome


def run_mtr(socket_path: str, vardir: Path, test: str) -> Outcome:
    cmd = ["perl", "mariadb-test-run.pl", f"--extern=socket={socket_path}", f"--vardir={vardir}",
           "--force", "--max-test-fail=0", f"--testcase-timeout={TESTCASE_TIMEOUT_MIN}",
           "--nowarnings", f"main.{test}"]
    try:
        proc = subprocess.run(cmd, cwd=MTR_DIR, capture_output=True, text=True,
                              errors="replace", timeout=MTR_CALL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Outcome(test, "error", f"mtr did not finish in {MTR_CALL_TIMEOUT_S} s", 0.0)
    output = proc.stdout + proc.stderr
    status = re.search(rf"^main\.{re.escape(test)}\s.*\[ (pass|fail|skipped) \]", output, re.M)
    if status is None:
        return Outcome(test, "error", last_lines(output), 0.0)
    if status.group(1) == "pass":
        return Outcome(test, "pass", "", 0.0)
    failure = output[status.end():]
    return Outcome(test, status.group(1), first_difference(failure), 0.0, failure)


def last_lines(output: str, count: int = 3) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    return " | ".join(lines[-count:])


def first_difference(failure: str) -> str:
    """mysqltest's error line, or the first differing lines of the result diff."""
    lines = failure.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("mysqltest: "):
            # "In included file ..." names the file; the error follows it.
            return " ".join(x.strip() for x in lines[i:i + 3] if x.strip() and not x.startswith("---"))
    return first_diff_hunk(lines) or last_lines(failure)


def first_diff_hunk(lines: list[str]) -> str:
    """`result line N: expected '...', got '...'` from a unified diff."""
    hunk = re.compile(r"^@@ -(\d+)")
    expected_line = None
    expected = got = None
    for ln in lines:
        m = hunk.match(ln)
        if m:
            if expected is not None or got is not None:
                break
            expected_line = int(m.group(1))
        elif expected_line is None or ln.startswith(("+++", "---")):
            continue
        elif ln.startswith("-") and expected is None and got is None:
            expected = ln[1:]
        elif ln.startswith("+") and got is None:
            got = ln[1:]
        elif expected is None and got is None:
            expected_line += 1
        if expected is not None and got is not None:
            break
    if expected_line is None:
        return ""
    show = lambda text: "(nothing)" if text is None else repr(text)  # noqa: E731
    return f"result line {expected_line}: expected {show(expected)}, got {show(got)}"


def run_list(kind: str, tests: list[str], workdir: Path, log, diffs: Path | None = None) -> list[Outcome]:
    target = MtrTarget(kind, workdir)
    target.start()
    for failure in target.mtr_setup_failures:
        log(f"{kind}: mtr database: {failure}")
    outcomes = []
    try:
        for test in tests:
            outcome = target.run(test)
            log(f"{kind:8} {outcome.status:7} {outcome.seconds:6.1f}s {test}  {outcome.first_difference}")
            if diffs is not None and outcome.output:
                (diffs / f"{kind}.{test}.txt").write_text(outcome.output)
            outcomes.append(outcome)
    finally:
        log(f"{kind}: {target.restarts} restart(s)")
        target.stop()
    return outcomes


def run_both(tests: list[str], workdir: Path, log=print) -> dict[str, dict[str, Outcome]]:
    """Runs `tests` against MariaDB and OneLog at once (one thread each)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {kind: pool.submit(run_list, kind, tests, workdir, log) for kind in ("mariadb", "onelog")}
        return {kind: {o.test: o for o in f.result()} for kind, f in futures.items()}


def summary(results: dict[str, dict[str, Outcome]]) -> tuple[list[str], list[Outcome]]:
    """Tests passing on both, and OneLog's failures among those MariaDB passes."""
    comparable = [t for t, o in results["mariadb"].items() if o.status == "pass"]
    passed = [t for t in comparable if results["onelog"][t].status == "pass"]
    failed = [results["onelog"][t] for t in comparable if results["onelog"][t].status != "pass"]
    return passed, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", type=Path, default=COMPARABLE_LIST)
    ap.add_argument("--target", choices=("onelog", "mariadb", "both"), default="both")
    ap.add_argument("--write-passing", action="store_true",
                    help="rewrite tests/mtr/passing.txt with the tests passing on both")
    ap.add_argument("--diffs", type=Path, help="write each failing test's whole mtr output "
                    "(the result diff or mysqltest's error) to DIR/<target>.<test>.txt")
    ap.add_argument("tests", nargs="*")
    args = ap.parse_args()
    tests = args.tests or read_list(args.list)
    workdir = Path(tempfile.mkdtemp(prefix="onelog-mtr-"))
    try:
        if args.target != "both":
            if args.diffs:
                args.diffs.mkdir(parents=True, exist_ok=True)
            outcomes = run_list(args.target, tests, workdir, print, args.diffs)
            passed = [o for o in outcomes if o.status == "pass"]
            print(f"{args.target}: {len(passed)} passed, {len(outcomes) - len(passed)} failed")
            return 0
        results = run_both(tests, workdir)
        passed, failed = summary(results)
        comparable = len(passed) + len(failed)
        print(f"\nMariaDB passed {comparable} of {len(tests)}; of those, OneLog: "
              f"{len(passed)} passed, {len(failed)} failed")
        for o in failed:
            print(f"  {o.test}: {o.status}: {o.first_difference}")
        if args.write_passing:
            PASSING_LIST.write_text(PASSING_HEADER + "".join(f"{t}\n" for t in sorted(passed)))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


PASSING_HEADER = """\
# mtr tests (main suite) that pass against OneLog and against MariaDB 10.11 in extern
# mode; tests/test_mtr.py fails if one of them stops passing. Grow it as features land:
#   .venv/bin/python tests/mtr_runner.py --write-passing
"""

if __name__ == "__main__":
    sys.exit(main())
