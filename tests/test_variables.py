"""System variables keep MySQL's scoping: a session copies the global values
when it connects, so SET GLOBAL changes the sessions that start later and not
the ones already open (an application's connection pool does not change
sql_mode or a timeout under its feet); SET SESSION x = DEFAULT takes the
global value. The same script runs against OneLog and MariaDB 10.11."""
from __future__ import annotations

VARIABLES = ("wait_timeout", "group_concat_max_len", "innodb_lock_wait_timeout")
SELECT_SESSION = "SELECT " + ", ".join(f"@@session.{v}" for v in VARIABLES)
SELECT_GLOBAL = "SELECT " + ", ".join(f"@@global.{v}" for v in VARIABLES)


def query(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall() if cur.description else None


def scoping_script(srv) -> list:
    """What an already open session, a later session and the globals see
    around SET GLOBAL, SET SESSION ... DEFAULT and SET GLOBAL ... DEFAULT."""
    seen = []
    older, admin = srv.connect(autocommit=True), srv.connect(autocommit=True)
    defaults = query(admin, SELECT_GLOBAL)[0]
    try:
        seen.append(("older, before", query(older, SELECT_SESSION)))
        query(admin, "SET GLOBAL wait_timeout = 123, group_concat_max_len = 4096, innodb_lock_wait_timeout = 7")
        seen.append(("older, after SET GLOBAL", query(older, SELECT_SESSION)))
        newer = srv.connect(autocommit=True)
        seen.append(("newer", query(newer, SELECT_SESSION)))
        query(older, "SET SESSION wait_timeout = DEFAULT")
        seen.append(("older, after SET SESSION DEFAULT", query(older, SELECT_SESSION)))
        query(admin, "SET GLOBAL group_concat_max_len = DEFAULT")
        seen.append(("globals after SET GLOBAL DEFAULT", query(admin, SELECT_GLOBAL)))
        seen.append(("newer, unchanged", query(newer, SELECT_SESSION)))
        newer.close()
    finally:
        assignments = ", ".join(f"{v} = {d}" for v, d in zip(VARIABLES, defaults))
        query(admin, f"SET GLOBAL {assignments}")
        older.close()
        admin.close()
    return seen


def test_set_global_changes_later_sessions_only(onelog_server_module, mariadb_server):
    got = scoping_script(onelog_server_module)
    assert got == scoping_script(mariadb_server)
    older_before, older_after = got[0][1], got[1][1]
    assert older_after == older_before, "an open session kept its values"
    assert got[2][1] == ((123, 4096, 7),), "a later session starts from the new globals"
    assert got[3][1][0][0] == 123, "SET SESSION ... = DEFAULT takes the global value"


STARTUP_OPTIONS = ["--join-cache-level=4", "--max-seeks-for-key=0", "--innodb-buffer-pool-size=256M"]
ORIGINS = ("SELECT VARIABLE_NAME, SESSION_VALUE, GLOBAL_VALUE, GLOBAL_VALUE_ORIGIN FROM information_schema.SYSTEM_VARIABLES "
           "WHERE VARIABLE_NAME IN ('join_cache_level', 'max_seeks_for_key', 'innodb_buffer_pool_size', 'optimizer_search_depth') "
           "ORDER BY VARIABLE_NAME")


def startup_script(srv) -> list:
    """Values and origins of variables given at start-up, then after SET GLOBAL."""
    conn = srv.connect(autocommit=True)
    try:
        seen = [query(conn, ORIGINS)]
        query(conn, "SET GLOBAL optimizer_search_depth = 63")
        seen.append(query(conn, "SHOW WARNINGS"))
        seen.append(query(conn, ORIGINS))
    finally:
        conn.close()
    return seen


def test_startup_options_clamp_and_are_logged_once_when_without_effect(server_factory):
    """Options for variables OneLog does not act on are taken as MariaDB takes
    them (suffixes, clamping, GLOBAL_VALUE_ORIGIN), and the log says once that
    they change nothing."""
    onelog = server_factory(kind="onelog", extra_args=STARTUP_OPTIONS)
    mariadb = server_factory(kind="mariadb", extra_args=STARTUP_OPTIONS)
    got = startup_script(onelog)
    assert got == startup_script(mariadb)
    assert got[0][1] == ("JOIN_CACHE_LEVEL", "4", "4", "COMMAND-LINE")
    assert got[2][3][3] == "SQL"
    log = onelog.stderr_text()
    lines = [ln for ln in log.splitlines() if "no effect in OneLog" in ln]
    assert len(lines) == 1, log
    for name in ("join_cache_level", "max_seeks_for_key"):
        assert name in lines[0]
    # The storage cache's size: acted on, so not in that line.
    assert "innodb_buffer_pool_size" not in lines[0]
    assert "\x1b[" not in log, "the log carries terminal colour codes"
    assert "Truncated incorrect max_seeks_for_key value: '0'" in log
