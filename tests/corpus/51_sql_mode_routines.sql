-- sql_mode is a SET of MariaDB's mode names: combination modes bring the modes they stand for,
-- unknown names are 1231. A division by zero is a warning only under ERROR_FOR_DIVISION_BY_ZERO,
-- and error 1365 in strict mode where MariaDB aborts on warnings: a statement that stores rows
-- (INSERT, UPDATE, CREATE TABLE ... SELECT; not DELETE, not IGNORE) and a value a routine stores
-- in its variables or returns. A routine runs under the sql_mode it was created with.
SET sql_mode = 'traditional'
SELECT @@sql_mode
SET sql_mode = 'ansi'
SELECT @@sql_mode
SET sql_mode = 'postgresql,no_zero_date'
SELECT @@sql_mode
SET sql_mode = 'maxdb'
SELECT @@sql_mode
SET sql_mode = 'mysql40'
SELECT @@sql_mode
SET sql_mode = 'ansi_quotes,,real_as_float'
SELECT @@sql_mode
SET sql_mode = 'ansi_quotes,bogus'
SET sql_mode = NULL
SELECT @@sql_mode
SET sql_mode = DEFAULT
SELECT @@sql_mode
CREATE TABLE dz (a INT)
INSERT INTO dz VALUES (1/0)
INSERT INTO dz SELECT 1/0
INSERT INTO dz VALUES (1), (2)
UPDATE dz SET a = 1/0
UPDATE dz SET a = 3 WHERE a/0 IS NULL
DELETE FROM dz WHERE a/0
INSERT INTO dz VALUES (5 % 0)
INSERT INTO dz VALUES (5 DIV 0)
INSERT IGNORE INTO dz VALUES (1/0)
SELECT 1/0, 1 DIV 0, 1 MOD 0
CREATE TABLE dz2 SELECT 1/0 AS x
SET sql_mode = ''
SELECT 1/0
INSERT INTO dz VALUES (1/0)
SET sql_mode = 'error_for_division_by_zero'
INSERT INTO dz VALUES (1/0)
SET sql_mode = 'strict_all_tables'
INSERT INTO dz VALUES (1/0)
SELECT COUNT(*), COUNT(a) FROM dz
SET sql_mode = DEFAULT
SET @v = 1/0
CREATE PROCEDURE pdz() BEGIN DECLARE x INT DEFAULT 1; SET x = 1/0; END
CREATE PROCEDURE pdz2() BEGIN DECLARE x INT; SELECT 1/0 INTO x; END
CREATE PROCEDURE pdz3() BEGIN DECLARE x INT DEFAULT 1/0; END
CREATE FUNCTION fdz() RETURNS INT BEGIN RETURN 1/0; END
CALL pdz()
CALL pdz2()
CALL pdz3()
SELECT fdz()
SET sql_mode = ''
CALL pdz()
SELECT fdz()
SELECT @@sql_mode
SET sql_mode = 'traditional'
CREATE PROCEDURE pv() BEGIN DECLARE v TINYINT DEFAULT 300; SELECT v; END
CREATE PROCEDURE pm() BEGIN SELECT @@sql_mode; SET sql_mode = 'ansi'; SELECT @@sql_mode; END
SET sql_mode = ''
CALL pv()
SELECT @@sql_mode
CALL pm()
SELECT @@sql_mode
SET sql_mode = 'traditional'
CALL pv()
SET sql_mode = DEFAULT
CREATE PROCEDURE pp(p TINYINT) SELECT p
CALL pp(300)
SET sql_mode = ''
CALL pp(300)
SET sql_mode = DEFAULT
