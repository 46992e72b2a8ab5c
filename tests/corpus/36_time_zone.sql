-- Session time_zone (crates/sql/src/time_zone.rs): offsets, SYSTEM, bad values (1298, 1231, 1232).
SELECT @@time_zone, @@global.time_zone, @@system_time_zone
SET time_zone = '+5:00'
SELECT @@time_zone, @@session.time_zone, @@global.time_zone
SET time_zone = '+005:00'
SELECT @@time_zone
SET time_zone = '-00:00'
SELECT @@time_zone
SET time_zone = '-12:59'
SELECT @@time_zone
SET time_zone = '+13:00'
SELECT @@time_zone
SET time_zone = '+13:01'
SET time_zone = '-13:00'
SET time_zone = '+05:60'
SET time_zone = '+24:00'
SET time_zone = '+5'
SET time_zone = '5:00'
SET time_zone = ' +05:00'
SET time_zone = '+05:00:00'
SET time_zone = 'Mars/Olympus_Mons'
SET time_zone = NULL
SET time_zone = 5
SELECT @@time_zone
SET time_zone = 'system'
SELECT @@time_zone
SET time_zone = DEFAULT
SELECT @@time_zone
-- The clock functions follow the session zone; UTC_* and UNIX_TIMESTAMP() do not.
SET time_zone = '+05:30'
SELECT ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) / 60), ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), SYSDATE()) / 60), ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), LOCALTIMESTAMP()) / 60)
SELECT ROUND(TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), FROM_UNIXTIME(UNIX_TIMESTAMP())) / 60), ABS(UNIX_TIMESTAMP() - UNIX_TIMESTAMP(NOW())) < 2
-- UNIX_TIMESTAMP(expr) reads expr in the session zone; NULL outside TIMESTAMP's range.
SELECT UNIX_TIMESTAMP('2024-01-01 05:30:00'), UNIX_TIMESTAMP('1970-01-01 05:30:00'), UNIX_TIMESTAMP('1970-01-01 05:29:59'), UNIX_TIMESTAMP('2038-01-19 08:44:07'), UNIX_TIMESTAMP('2038-01-19 08:44:08')
SELECT FROM_UNIXTIME(0), FROM_UNIXTIME(1704067200), FROM_UNIXTIME(2147483647), FROM_UNIXTIME(1704067200, '%Y-%m-%d %H:%i')
SET time_zone = '-03:00'
SELECT UNIX_TIMESTAMP('1969-12-31 21:00:00'), UNIX_TIMESTAMP('2024-06-30 21:00:00.5'), FROM_UNIXTIME(0), FROM_UNIXTIME(1.5)
SET time_zone = 'SYSTEM'
SELECT UNIX_TIMESTAMP('1969-12-31 23:59:59'), UNIX_TIMESTAMP('1970-01-01 00:00:00'), UNIX_TIMESTAMP('2038-01-19 03:14:07'), UNIX_TIMESTAMP('2038-01-19 03:14:08')
-- CONVERT_TZ with offsets and SYSTEM; an unknown zone (named zones without mysql.time_zone loaded) is NULL.
SELECT CONVERT_TZ('2024-01-01 00:00:00', '+00:00', '+05:30'), CONVERT_TZ('2024-01-01 00:00:00', '+05:30', '-03:00'), CONVERT_TZ('2024-01-01 00:00:00', 'SYSTEM', '+01:00'), CONVERT_TZ('2024-01-01 12:00:00.25', '+01:00', 'system')
SELECT CONVERT_TZ('2024-01-01 00:00:00', '+00:00', '+14:00'), CONVERT_TZ('2024-01-01 00:00:00', 'Mars/Base', '+00:00'), CONVERT_TZ(NULL, '+00:00', '+01:00'), CONVERT_TZ('2024-01-01', '+00:00', NULL), CONVERT_TZ('nonsense', '+00:00', '+01:00')
SELECT CONVERT_TZ('1960-01-01 00:00:00', '+00:00', '+01:00'), CONVERT_TZ('2040-01-01 00:00:00', '+00:00', '+01:00'), CONVERT_TZ('1970-01-01 00:30:00', '+01:00', '+00:00')
-- TIMESTAMP columns hold UTC and show the session zone; DATETIME columns do not convert.
SET time_zone = '+00:00'
CREATE TABLE tz_ts (id INT PRIMARY KEY, ts TIMESTAMP NULL, dt DATETIME NULL, n INT, KEY (ts))
INSERT INTO tz_ts VALUES (1, '2024-01-01 00:00:00', '2024-01-01 00:00:00', 0)
SET time_zone = '+05:00'
INSERT INTO tz_ts VALUES (2, '2024-01-01 05:00:00', '2024-01-01 05:00:00', 0), (3, '2024-06-30 23:30:00', '2024-06-30 23:30:00', 0)
INSERT INTO tz_ts VALUES (4, '1970-01-01 05:00:01', NULL, 0), (5, '0000-00-00 00:00:00', NULL, 0)
INSERT INTO tz_ts VALUES (6, '1970-01-01 04:00:00', NULL, 0)
INSERT IGNORE INTO tz_ts VALUES (6, '1970-01-01 04:00:00', NULL, 0)
SELECT id, ts, dt, UNIX_TIMESTAMP(ts) FROM tz_ts WHERE id <= 4 ORDER BY id
SELECT id, ts, dt FROM tz_ts WHERE id > 4 ORDER BY id
SELECT UNIX_TIMESTAMP(TIMESTAMP '0000-00-00 00:00:00'), UNIX_TIMESTAMP('0000-00-00 00:00:00')
SELECT id FROM tz_ts WHERE ts = '2024-01-01 05:00:00' ORDER BY id
SELECT id FROM tz_ts WHERE ts = TIMESTAMP '2024-01-01 05:00:00' ORDER BY id
SELECT id FROM tz_ts FORCE INDEX (ts) WHERE ts >= TIMESTAMP '2024-01-01 05:00:00' AND ts < TIMESTAMP '2024-07-01 00:00:00' ORDER BY id
SELECT id FROM tz_ts IGNORE INDEX (ts) WHERE ts >= TIMESTAMP '2024-01-01 05:00:00' AND ts < TIMESTAMP '2024-07-01 00:00:00' ORDER BY id
SELECT id FROM tz_ts WHERE ts IN (TIMESTAMP '2024-06-30 23:30:00', TIMESTAMP '1970-01-01 05:00:01') ORDER BY id
SET time_zone = '-03:00'
SELECT id, ts, dt FROM tz_ts ORDER BY id
SELECT id FROM tz_ts WHERE ts BETWEEN TIMESTAMP '2023-12-31 21:00:00' AND TIMESTAMP '2024-06-30 15:30:00' ORDER BY id
-- An UPDATE of another column keeps the instant; updating ts under another zone stores its UTC.
UPDATE tz_ts SET n = 1 WHERE id = 3
SET time_zone = '+00:00'
SELECT id, ts, n FROM tz_ts ORDER BY id
SET time_zone = '-03:00'
UPDATE tz_ts SET ts = '2024-03-01 12:00:00' WHERE id = 4
REPLACE INTO tz_ts VALUES (5, '2024-03-01 12:00:00', NULL, 5)
INSERT INTO tz_ts VALUES (2, NULL, NULL, 0) ON DUPLICATE KEY UPDATE n = UNIX_TIMESTAMP(ts)
SET time_zone = '+00:00'
SELECT id, ts, n FROM tz_ts ORDER BY id
DELETE FROM tz_ts WHERE ts = '2024-03-01 15:00:00'
SELECT id FROM tz_ts ORDER BY id
-- NOW() and CURRENT_TIMESTAMP defaults store the real instant whatever the zone.
CREATE TABLE tz_now (id INT PRIMARY KEY, ts TIMESTAMP NULL, d TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, n INT)
SET time_zone = '+05:00'
INSERT INTO tz_now (id, ts, n) VALUES (1, NOW(), 0)
SET time_zone = '-07:00'
INSERT INTO tz_now (id, ts, n) VALUES (2, NOW(), 0)
SELECT id, ABS(UNIX_TIMESTAMP(ts) - UNIX_TIMESTAMP()) < 5, ABS(UNIX_TIMESTAMP(d) - UNIX_TIMESTAMP()) < 5, ABS(TIMESTAMPDIFF(SECOND, ts, NOW())) < 5 FROM tz_now ORDER BY id
UPDATE tz_now SET d = '2001-01-01 00:00:00', n = 1
SET time_zone = '+05:00'
UPDATE tz_now SET n = 2 WHERE id = 1
SELECT id, ABS(UNIX_TIMESTAMP(d) - UNIX_TIMESTAMP()) < 5, UNIX_TIMESTAMP(d) FROM tz_now ORDER BY id
SET time_zone = '-07:00'
SELECT id, ABS(TIMESTAMPDIFF(SECOND, d, NOW())) < 5 FROM tz_now WHERE id = 1
SELECT id, d FROM tz_now WHERE id = 2
-- Out of TIMESTAMP's range in the session zone: 1292 in strict mode.
SET time_zone = '+05:00'
INSERT INTO tz_ts VALUES (7, '1970-01-01 05:00:00', NULL, 0)
INSERT INTO tz_ts VALUES (8, '2038-01-19 08:14:07', NULL, 0)
INSERT INTO tz_ts VALUES (9, '2038-01-19 08:14:08', NULL, 0)
SELECT id, ts FROM tz_ts WHERE id >= 7 ORDER BY id
SET time_zone = DEFAULT
DROP TABLE tz_ts, tz_now
