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
