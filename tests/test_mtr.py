"""MariaDB's own test suite (mtr's `main` suite, package mariadb-test) as a yardstick.

Runs every test of tests/mtr/comparable.txt against a throwaway MariaDB 10.11 and
against OneLog (tests/mtr_runner.py says how), prints `N passed, M failed` with each
failure's first difference, and fails if a test listed in tests/mtr/passing.txt no
longer passes against OneLog. A test counts only if it passes against MariaDB.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

import mtr_runner


# About 200 mtr calls per server, both servers at once: longer than pytest.ini's
# per-test limit, which is meant for one hung statement.
@pytest.mark.timeout(2400)
def test_mtr_main_suite(capsys):
    assert mtr_runner.MTR_DIR.is_dir(), "mariadb-test is not installed: run scripts/setup"
    tests = mtr_runner.read_list(mtr_runner.COMPARABLE_LIST)
    must_pass = mtr_runner.read_list(mtr_runner.PASSING_LIST)
    unlisted = sorted(set(must_pass) - set(tests))
    assert not unlisted, f"tests/mtr/passing.txt names tests missing from comparable.txt: {unlisted}"

    with tempfile.TemporaryDirectory(prefix="onelog-mtr-") as workdir:
        results = mtr_runner.run_both(tests, Path(workdir), log=lambda line: None)
    passed, failed = mtr_runner.summary(results)
    not_on_mariadb = [o for o in results["mariadb"].values() if o.status != "pass"]

    with capsys.disabled():
        print(f"\nmtr main suite: MariaDB passed {len(passed) + len(failed)} of {len(tests)}; "
              f"OneLog: {len(passed)} passed, {len(failed)} failed")
        for o in not_on_mariadb:
            print(f"  not counted (fails on MariaDB): {o.test}: {o.status}: {o.first_difference}")
        for o in failed:
            print(f"  {o.test}: {o.status}: {o.first_difference}")
        newly = sorted(set(passed) - set(must_pass))
        if newly:
            print(f"  passing now but not in tests/mtr/passing.txt (add them): {' '.join(newly)}")

    broken_harness = [o for o in not_on_mariadb if o.test in must_pass]
    assert not broken_harness, (
        "tests that must pass fail against MariaDB, so the harness is broken: "
        + "; ".join(f"{o.test}: {o.first_difference}" for o in broken_harness))
    regressed = [results["onelog"][t] for t in must_pass if results["onelog"][t].status != "pass"]
    assert not regressed, "mtr tests that passed before fail now: " + "; ".join(
        f"{o.test}: {o.status}: {o.first_difference}" for o in regressed)
