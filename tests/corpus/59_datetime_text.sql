-- Dates and times read from text as MariaDB's str_to_datetime / str_to_time read them: any punctuation between
-- fields, two-digit years, TIME texts that hold a datetime, and trailing text that only truncates.
CREATE TABLE dtx(d datetime, dd date, t time(6), d0 datetime)
set sql_mode=''
insert into dtx values ('2001-01-01 10:00:00xyz','2001-01-01xyz','10:00:00xyz', null)
insert into dtx values ('2001-01-01 10:00:00.1234567','2001-01-01 10:00:00','10:00:00.1234567', '2001-01-01 10:00:00.1234567')
insert into dtx values ('2002.11.12', '2002.11.12', '12:00:00 12.34.56', '12:00:00.12.34.56')
set sql_mode=default
insert into dtx values ('2001-01-01 10:00:00xyz',null,null,null)
insert into dtx values (null,'2001-01-01xyz',null,null)
insert into dtx values (null,null,'10:00:00xyz',null)
insert into dtx values ('2001-01-01 10:00:00.1234567',null,'10:00:00.1234567','2001-01-01 10:00:00.1234567')
insert into dtx values ('2001-13-01',null,null,null)
select * from dtx
select timestamp('2001-01-01 10:00:00xyz')
select cast('2001-01-01 10:00:00.1234567' as datetime(6))
select cast('10:00:00.1234567' as time(6))
select cast('2001-13-01 10:00:00' as time), cast('100000:02:03' as time), cast('2001-02-30 10:00:00' as time)
select cast('20011301100000' as time), cast('1 12' as time), cast('12:00:00-12.34.56' as datetime)
select cast('2001-01-01 10:00:00xyz' as datetime), cast('2001-01-01 10:00:00  ' as datetime)
select cast('12' as date), cast('1e5' as time), cast('99999' as date), cast('2001-1-1 1:2' as datetime), cast(' 2001-01-01' as date)
select cast('2002-011-012' as date), cast('2002.11.12' as date), cast('2002.011.012' as date)
select cast('2012103123595912' as datetime(6)), cast('20121031235959123' as datetime(6))
select cast(0 as date), cast('0000-00-00' as date), cast('0' as date)
select cast('12:00:00.12.34.56' as time), cast('12:00:00 12.34.56' as time), cast('12:00:00-12.34.56' as time)
select cast('12:00:00.12.34.56' as datetime), cast('12:00:00-12.34.56' as datetime), cast('12:00:00 12.34.56' as datetime)
select cast('12:00:00.123456' as time), cast('01:02:03   ' as time), cast('01:02:03    ' as time)
select cast('20010101T101010' as datetime), cast('2001-01-01T10:10:10' as datetime), cast('010101' as date)
select cast('10:10' as time), cast('-10:10:10.5' as time(1)), cast('1 10:10' as time), cast('34 10:10:10' as time)
select cast('99-12-31 23:59:59' as datetime), cast('69-12-31' as date), cast('70-01-01' as date), cast('00-01-01' as date)
select '2001-01-01' < '2001-01-02', date'2001-01-01' = '2001.01.01', date'2001-01-01' = '20010101'
select time'10:00:00' = '10:00:00.000', time'10:00:00' > '9:59:59'
select cast('2001-01-01 25:00:00' as datetime), cast('2001-01-01 10:60:00' as datetime), cast('2001-00-00' as date)
select cast('10000-01-01' as date), cast('0001-01-01' as date), cast('1-1-1' as date)
select cast('2001-01-01 10:00:00.5 PM' as datetime), cast('10:00 AM' as time)
select timestamp('2001-01-01'), timestamp('2001-01-01 10:00:00.12'), timestamp('2001-01-01', '10:00:00'), timestamp('2001-01-01 10:00:00', '01:00:00.5')
select timestamp(null), timestamp('xyz'), timestamp(date'2001-01-01', time'10:00:00'), timestamp(20010101)
CREATE TABLE dty (t time)
set sql_mode=''
insert into dty values ('0000-00-00 10:00:00'),('2001-02-03 10:00:00'), ('2001-02-03      ')
set sql_mode=default
select * from dty
DROP TABLE dtx, dty
-- Numbers as TIME: past 838:59:59 a YYYYMMDDhhmmss datetime's time; SEC_TO_TIME keeps the fraction.
select cast(20101211010203.45678 as time(6)), cast(8390000 as time), cast(20101211010203 as time), cast(20101311010203 as time)
select cast(9000000 as time), cast(123 as time), cast(-8390000 as time), cast(99999999999999999 as time), cast(20101211 as time), cast(8385959 as time)
CREATE TABLE dtz (a time(6))
set sql_mode=''
insert dtz values (20101211010203.45678), (8390000), (20101311010203), (-123.5)
set sql_mode=default
insert dtz values (8390000)
insert dtz values ('900:00:00')
insert dtz values (20101311010203)
insert dtz values (20101211010203)
select * from dtz
select sec_to_time(12345.6789), sec_to_time(1.5e0), sec_to_time(100), time(123456.5)
DROP TABLE dtz
-- Literal DATE / DATETIME / TIME defaults are checked (1067) and kept as the column holds them.
create table dtd1 (da date default '1962-03-32 23:33:34', dt datetime default '1962-03-03')
create table dtd2 (da date default '1962-03-03', dt datetime default '1962-03-03', t time default '10:00')
create table dtd3 (t time default '10:00:00xyz')
show create table dtd2
DROP TABLES dtd2
-- SET timestamp fixes NOW() and its kin for the session.
set timestamp=1293843661
select @@timestamp = 1293843661, now() = '2011-01-01 01:01:01', unix_timestamp(), curdate() = '2011-01-01', current_time() = '01:01:01', utc_timestamp() = '2011-01-01 01:01:01'
set timestamp=1293843661.5
select @@timestamp = 1293843661.5, now(6) = '2011-01-01 01:01:01.5', unix_timestamp()
set timestamp=default
select @@timestamp > 1700000000, now() > '2020-01-01' IS TRUE

-- NO_ZERO_DATE / NO_ZERO_IN_DATE on stored dates; DATE_ADD overflow in strict INSERT is 1441.
CREATE TABLE zd (d DATE, dt DATETIME, ts TIMESTAMP NULL)
SET sql_mode = 'TRADITIONAL'
INSERT INTO zd VALUES ('0000-00-00', NULL, NULL)
INSERT INTO zd VALUES (NULL, '0000-00-00 00:00:00', NULL)
INSERT INTO zd VALUES ('2020-00-01', NULL, NULL)
INSERT INTO zd VALUES ('2020-01-00', NULL, NULL)
INSERT INTO zd VALUES (NULL, NULL, '0000-00-00 00:00:00')
INSERT INTO zd (d) SELECT DATE_SUB('2000-01-01', INTERVAL 2001 YEAR)
INSERT INTO zd VALUES (0, NULL, NULL)
INSERT INTO zd VALUES ('2020-02-03', '2020-02-03 04:05:06', '2020-02-03 04:05:06')
UPDATE zd SET d = '0000-00-00'
UPDATE zd SET dt = '2020-13-01'
SET sql_mode = 'NO_ZERO_DATE'
INSERT INTO zd VALUES ('0000-00-00', NULL, NULL)
INSERT INTO zd (d) SELECT DATE_SUB('2000-01-01', INTERVAL 2001 YEAR)
SET sql_mode = 'NO_ZERO_IN_DATE'
INSERT INTO zd VALUES ('2020-00-01', '2020-05-00 10:00:00', NULL)
SET sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE'
INSERT INTO zd VALUES ('2020-00-01', NULL, NULL)
INSERT INTO zd VALUES ('0000-00-00', NULL, NULL)
SET sql_mode = 'STRICT_TRANS_TABLES'
INSERT INTO zd VALUES ('2020-00-01', NULL, NULL)
SELECT * FROM zd ORDER BY d, dt
SET sql_mode = DEFAULT
DROP TABLE zd
SELECT HOUR('500:00:00'), HOUR(TIME'500:00:00'), HOUR('838:59:59'), HOUR('-12:00:00'), HOUR('2024-01-02 10:05'), HOUR('10:05')
SELECT HOUR('100000:02:03'), MINUTE('100000:02:03'), SECOND('10:05:03.5'), MICROSECOND('10:05:03.5')
SELECT HOUR('99:99:99'), MINUTE('10:75'), HOUR('5:'), HOUR(' -5:00')
SELECT CAST('abc' AS TIME), CAST(' x1' AS TIME), CAST('.5' AS TIME(1)), CAST(':10' AS TIME), CAST('-a' AS TIME), HOUR('abc')
