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


def test_timestamp_columns_convert_in_named_zones(onelog_server):
    """TIMESTAMP holds the instant: written in one named zone, read in
    another, across Berlin's DST change; DATETIME keeps its wall clock."""
    conn = onelog_server.connect(autocommit=True)
    one(conn, "CREATE DATABASE tzn")
    one(conn, "CREATE TABLE tzn.t (id INT PRIMARY KEY, ts TIMESTAMP NULL, dt DATETIME NULL, n INT, KEY (ts))")
    one(conn, "SET time_zone = 'Europe/Berlin'")
    one(conn, "INSERT INTO tzn.t VALUES (1, '2024-01-15 12:00:00', '2024-01-15 12:00:00', 0), "
              "(2, '2024-07-15 12:00:00', '2024-07-15 12:00:00', 0), (3, '2024-03-31 02:30:00', NULL, 0)")
    one(conn, "SET time_zone = 'Asia/Kolkata'")
    with conn.cursor() as cur:
        cur.execute("SELECT id, CAST(ts AS CHAR), CAST(dt AS CHAR), UNIX_TIMESTAMP(ts) FROM tzn.t ORDER BY id")
        assert cur.fetchall() == (
            (1, "2024-01-15 16:30:00", "2024-01-15 12:00:00", 1705316400),
            (2, "2024-07-15 15:30:00", "2024-07-15 12:00:00", 1721037600),
            # Berlin's 02:30 that day is in the spring-forward gap: the transition.
            (3, "2024-03-31 06:30:00", None, 1711846800))
        # The same rows through the index and through a full scan.
        for hint in ("FORCE INDEX (ts)", "IGNORE INDEX (ts)"):
            cur.execute(f"SELECT id FROM tzn.t {hint} WHERE ts >= TIMESTAMP '2024-01-15 16:30:00' "
                        "AND ts < TIMESTAMP '2024-07-15 15:30:00' ORDER BY id")
            assert cur.fetchall() == ((1,), (3,)), hint
        cur.execute("UPDATE tzn.t SET n = 1")
    one(conn, "SET time_zone = 'UTC'")
    assert one(conn, "SELECT GROUP_CONCAT(UNIX_TIMESTAMP(ts) ORDER BY id) FROM tzn.t") == (
        "1705316400,1721037600,1711846800",)


def test_binlog_rows_carry_the_utc_epoch_whatever_the_zone(onelog_server):
    """The same instant written from sessions in different zones is the same
    TIMESTAMP2 epoch in the row events mariadb-binlog decodes (what a
    replica or CDC client applies)."""
    from binlog_util import decode

    conn = onelog_server.connect(autocommit=True)
    one(conn, "CREATE DATABASE tzb")
    one(conn, "CREATE TABLE tzb.t (id INT PRIMARY KEY, ts TIMESTAMP NULL)")
    one(conn, "FLUSH BINARY LOGS")
    for i, (zone, local) in enumerate([("+05:00", "2024-01-01 05:00:00"), ("-03:00", "2023-12-31 21:00:00"),
                                       ("Europe/Berlin", "2024-01-01 01:00:00"), ("SYSTEM", "2024-01-01 00:00:00")]):
        one(conn, f"SET time_zone = '{zone}'")
        one(conn, f"INSERT INTO tzb.t VALUES ({i}, '{local}')")
    one(conn, "SET time_zone = '+05:00'")
    one(conn, "UPDATE tzb.t SET ts = '2024-01-01 06:00:00' WHERE id = 0")
    text = decode(onelog_server.binlog_files()[-1]).stdout
    import re
    epochs = re.findall(r"###\s+@2=(\d+)", text)
    # Four inserts, then the update's before and after images.
    assert epochs == ["1704067200"] * 5 + ["1704070800"], text[-3000:]
