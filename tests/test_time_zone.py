"""Named time zones. MariaDB knows them only after mariadb-tzinfo-to-sql
filled mysql.time_zone*, which the differential MariaDB lacks, so these
checks assert the IANA offsets themselves (OneLog compiles the zone data
in; docs/variables.md). The offset and SYSTEM forms are compared against
MariaDB in tests/corpus/36_time_zone.sql."""
from __future__ import annotations

import pymysql
import pytest


def one(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchone()


def test_named_zone_is_shown_by_its_name(onelog_server):
    conn = onelog_server.connect(autocommit=True)
    one(conn, "SET time_zone = 'europe/berlin'")
    assert one(conn, "SELECT @@time_zone") == ("Europe/Berlin",)
    with pytest.raises(pymysql.err.OperationalError) as e:
        one(conn, "SET time_zone = 'Europe/Atlantis'")
    assert e.value.args[0] == 1298
    assert one(conn, "SELECT @@time_zone") == ("Europe/Berlin",)


def test_named_zone_offsets_follow_dst(onelog_server):
    conn = onelog_server.connect(autocommit=True)
    # Berlin: UTC+1 in winter, UTC+2 in summer.
    assert one(conn, "SELECT CAST(CONVERT_TZ('2024-01-15 12:00:00', 'UTC', 'Europe/Berlin') AS CHAR), "
                     "CAST(CONVERT_TZ('2024-07-15 12:00:00', 'UTC', 'Europe/Berlin') AS CHAR), "
                     "CAST(CONVERT_TZ('2024-07-15 12:00:00', 'America/New_York', 'Asia/Kolkata') AS CHAR)") == (
        "2024-01-15 13:00:00", "2024-07-15 14:00:00", "2024-07-15 21:30:00")
    # 02:30 on 2024-03-31 does not exist in Berlin: MariaDB maps it to the
    # transition (01:00 UTC); 02:30 on 2024-10-27 happens twice: the earlier.
    assert one(conn, "SELECT CAST(CONVERT_TZ('2024-03-31 02:30:00', 'Europe/Berlin', '+00:00') AS CHAR), "
                     "CAST(CONVERT_TZ('2024-10-27 02:30:00', 'Europe/Berlin', '+00:00') AS CHAR)") == (
        "2024-03-31 01:00:00", "2024-10-27 00:30:00")
    one(conn, "SET time_zone = 'Europe/Berlin'")
    assert one(conn, "SELECT UNIX_TIMESTAMP('2024-03-31 02:30:00'), UNIX_TIMESTAMP('2024-10-27 02:30:00'), "
                     "CAST(FROM_UNIXTIME(1720000000) AS CHAR)") == (1711846800, 1729989000, "2024-07-03 11:46:40")
    utc_minus_local = one(conn, "SELECT ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) / 3600)")[0]
    assert utc_minus_local in (1, 2)


def test_new_connection_takes_the_global_zone(onelog_server):
    admin = onelog_server.connect(autocommit=True)
    one(admin, "SET GLOBAL time_zone = 'Asia/Tokyo'")
    try:
        later = onelog_server.connect(autocommit=True)
        assert one(later, "SELECT @@time_zone, @@global.time_zone") == ("Asia/Tokyo", "Asia/Tokyo")
        assert one(later, "SELECT ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) / 3600)")[0] == 9
        later.close()
    finally:
        one(admin, "SET GLOBAL time_zone = DEFAULT")


def test_default_time_zone_option(server_factory):
    srv = server_factory(kind="onelog", extra_args=["--default-time-zone=+05:00"])
    conn = srv.connect(autocommit=True)
    assert one(conn, "SELECT @@global.time_zone, @@time_zone") == ("+05:00", "+05:00")
