"""Fixtures for the OneLog integration tests.

`onelog_server` starts target/release/onelog (or, with ONELOG_TEST_TARGET=mariadb,
a throwaway MariaDB 10.11 with the same interface, to validate the harness and
expectations before OneLog works). `mariadb_server` is always a MariaDB 10.11:
the reference for differential tests and the replay target for binlog tests.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import make_server, target_kind  # noqa: E402


def pytest_report_header(config):
    return (f"OneLog test target: {target_kind()} "
            f"(binary {harness.ONELOG_BIN}; set ONELOG_TEST_TARGET=mariadb to validate against MariaDB)")


def _start(kind, base: Path, **kw):
    srv = make_server(kind, base / "data", **kw)
    try:
        srv.start()
    except BaseException:
        srv.cleanup()
        raise
    return srv


@pytest.fixture
def server_factory(tmp_path):
    """Start servers with custom options: server_factory(log_bin=True, sync_binlog=1,
    insecure=False, extra_args=[...], kind=None|'onelog'|'mariadb', start=True).
    kind=None means the test target. All are stopped at teardown."""
    started = []
    counter = [0]

    def factory(kind=None, start=True, **kw):
        counter[0] += 1
        base = tmp_path / f"srv{counter[0]}"
        base.mkdir()
        kw.setdefault("name", f"srv{counter[0]}")
        srv = make_server(kind or target_kind(), base / "data", **kw)
        started.append(srv)
        if start:
            srv.start()
        return srv

    yield factory
    for srv in started:
        srv.cleanup()


@pytest.fixture
def onelog_server(tmp_path):
    """Function-scoped server under test (fresh datadir, --initialize-insecure)."""
    srv = _start(target_kind(), tmp_path)
    try:
        yield srv
    finally:
        srv.cleanup()


@pytest.fixture(scope="module")
def onelog_server_module(tmp_path_factory):
    """Module-scoped server under test, shared by a module's tests."""
    base = tmp_path_factory.mktemp("onelog_mod")
    srv = _start(target_kind(), base)
    try:
        yield srv
    finally:
        srv.cleanup()


@pytest.fixture
def replica(tmp_path):
    """A MariaDB 10.11 to make a replica of the server under test (binlog
    off, server id 2); the test points it at its source."""
    srv = make_server("mariadb", tmp_path / "replica", name="replica", log_bin=False, extra_args=["--server-id=2"])
    srv.start()
    try:
        yield srv
    finally:
        srv.cleanup()


@pytest.fixture(scope="session")
def mariadb_server(tmp_path_factory):
    """Session-scoped reference MariaDB 10.11 (binlog off, empty root password)."""
    base = tmp_path_factory.mktemp("mariadb_ref")
    srv = _start("mariadb", base, name="ref", log_bin=False)
    try:
        yield srv
    finally:
        srv.cleanup()


@pytest.fixture
def fresh_db():
    """Returns a unique database name generator."""
    n = [0]

    def make(prefix="t"):
        n[0] += 1
        return f"{prefix}_{os.getpid()}_{n[0]}"
    return make
