-- default_storage_engine names the engine of a CREATE TABLE without ENGINE= (every table is OneLog's engine; the name is what SHOW CREATE TABLE prints and what MyISAM / MEMORY refuse).
SELECT @@default_storage_engine, @@session.default_tmp_storage_engine
SET default_storage_engine = 'myisam'
SELECT @@default_storage_engine, @@storage_engine
CREATE TABLE en1 (a INT)
SHOW CREATE TABLE en1
CREATE TABLE en2 (a INT) ENGINE = InnoDB
SHOW CREATE TABLE en2
CREATE TABLE en3 SELECT 1 AS a
SHOW CREATE TABLE en3
CREATE TABLE en4 LIKE en2
SHOW CREATE TABLE en4
CREATE TEMPORARY TABLE en5 (a INT)
SHOW CREATE TABLE en5
SET default_tmp_storage_engine = myisam
SELECT @@default_tmp_storage_engine
CREATE TEMPORARY TABLE en6 (a INT)
SHOW CREATE TABLE en6
SET default_tmp_storage_engine = NULL
SELECT @@default_tmp_storage_engine
SET default_storage_engine = heap
SELECT @@default_storage_engine
CREATE TABLE en7 (a INT NOT NULL, b TEXT)
CREATE TABLE en7 (a INT NOT NULL, b VARCHAR(10))
SHOW CREATE TABLE en7
ALTER TABLE en7 ADD c BLOB
ALTER TABLE en7 ENGINE = InnoDB
ALTER TABLE en7 ADD c BLOB
SHOW CREATE TABLE en7
SET default_storage_engine = foo
SET default_storage_engine = NULL
SET default_storage_engine = 1
SET storage_engine = InnoDB
SELECT @@default_storage_engine, @@storage_engine
SET default_storage_engine = DEFAULT
SELECT @@default_storage_engine
CREATE TABLE en8 (a INT)
SHOW CREATE TABLE en8
SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME
-- A CREATE TABLE ... SELECT column of an integer literal is as wide as the literal.
CREATE TABLE cs1 SELECT 1 a, 12345 b, -1 c, 1.5 d, 'abc' e, 1e1 f, NULL g, 12345678901 h, 0 i, -12 j, 18446744073709551615 k, 123456789012345678901 l
SHOW CREATE TABLE cs1
CREATE TABLE cs2 SELECT 1+1 a, 1*2 b, ABS(-3) c, LENGTH('a') d, 1 DIV 2 e, 5 % 3 f, -(1) g
SHOW CREATE TABLE cs2
-- Keys a column cannot have: a zero-length NOT NULL string (1167), a zero-length prefix (1391).
CREATE TABLE ky1 (b CHAR(0) NOT NULL, INDEX (b))
CREATE TABLE ky1 (b BINARY(0) NOT NULL, c INT, UNIQUE (c, b))
CREATE TABLE ky1 (b VARCHAR(0) NOT NULL PRIMARY KEY)
CREATE TABLE ky1 (b CHAR(5) NOT NULL, INDEX (b(0)))
CREATE TABLE ky1 (b CHAR(0), INDEX (b))
SHOW CREATE TABLE ky1
CREATE TABLE ky2 (b CHAR(0) NOT NULL, c INT)
ALTER TABLE ky2 ADD INDEX (b)
CREATE INDEX i ON ky2 (b)
CREATE TABLE ky3 (e ENUM('a') NOT NULL, INDEX (e))
-- Names longer than 64 characters: 1103 for tables and views, 1102 for databases, 1059 for columns, keys and constraints.
CREATE TABLE aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (a INT)
CREATE TABLE nm1 (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa INT)
CREATE TABLE nm1 (a INT, INDEX aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (a))
CREATE DATABASE aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
CREATE TABLE bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb (bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb INT, INDEX bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb (bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb))
SHOW CREATE TABLE bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
CREATE TABLE nm2 (a INT)
ALTER TABLE nm2 ADD aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa INT
ALTER TABLE nm2 RENAME TO aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
RENAME TABLE nm2 TO aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
ALTER TABLE nm2 CHANGE a aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa INT
CREATE VIEW aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa AS SELECT 1
ALTER TABLE nm2 ADD CONSTRAINT aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa CHECK (a > 0)
-- A literal default the column cannot hold is 1067 in any sql_mode; AUTO_INCREMENT takes no default but NULL.
CREATE TABLE df1 (a TINYINT DEFAULT 1000)
CREATE TABLE df1 (a VARCHAR(5) DEFAULT 'abcdef')
CREATE TABLE df1 (a TINYINT UNSIGNED DEFAULT -1)
CREATE TABLE df1 (a INT DEFAULT 'abc')
CREATE TABLE df1 (a INT DEFAULT '12abc')
CREATE TABLE df1 (a DECIMAL(5,2) DEFAULT 12345.2)
CREATE TABLE df1 (a CHAR(2) DEFAULT 'abc')
CREATE TABLE df1 (a BINARY(2) DEFAULT 'abc')
CREATE TABLE df1 (a FLOAT DEFAULT 1e100)
CREATE TABLE df1 (a BIT(2) DEFAULT 7)
CREATE TABLE df1 (a YEAR DEFAULT 1800)
CREATE TABLE df1 (a INT DEFAULT 1.5, b DOUBLE DEFAULT '2.5', c VARCHAR(3) DEFAULT 12, d DECIMAL(6,2) DEFAULT '7', e BIT(3) DEFAULT 5, f YEAR DEFAULT 99)
SHOW CREATE TABLE df1
SET sql_mode = ''
CREATE TABLE df2 (a TINYINT DEFAULT 1000)
CREATE TABLE df2 (a VARCHAR(5) DEFAULT 'abcdef')
CREATE TABLE df2 (a INT DEFAULT '12abc')
SET sql_mode = DEFAULT
CREATE TABLE df2 (a VARCHAR(5) DEFAULT 'abcde')
ALTER TABLE df2 ALTER COLUMN a SET DEFAULT 'abcdef'
ALTER TABLE df2 MODIFY a VARCHAR(5) DEFAULT 'abcdef'
ALTER TABLE df2 ADD b INT DEFAULT 'x'
SHOW CREATE TABLE df2
CREATE TABLE ai1 (a INT DEFAULT 100 AUTO_INCREMENT)
CREATE TABLE ai1 (a INT NOT NULL DEFAULT 0 AUTO_INCREMENT PRIMARY KEY)
CREATE TABLE ai1 (a INT DEFAULT (1+1) AUTO_INCREMENT PRIMARY KEY)
CREATE TABLE ai1 (a INT AUTO_INCREMENT DEFAULT 5 PRIMARY KEY)
CREATE TABLE ai1 (a INT DEFAULT NULL AUTO_INCREMENT PRIMARY KEY)
SHOW CREATE TABLE ai1
ALTER TABLE ai1 ALTER a SET DEFAULT 3
SHOW CREATE TABLE ai1
ALTER TABLE ai1 MODIFY a INT DEFAULT 4 AUTO_INCREMENT
-- USING BTREE | HASH is kept and printed as declared (every OneLog index is an ordered tree).
CREATE TABLE us1 (a INT, b INT, KEY k2 (a) USING BTREE, UNIQUE k3 (b) USING HASH, PRIMARY KEY (a, b) USING BTREE)
SHOW CREATE TABLE us1
CREATE TABLE us2 (a INT, KEY USING BTREE (a))
SHOW CREATE TABLE us2
CREATE TABLE us3 (a INT, UNIQUE KEY k USING HASH (a))
SHOW CREATE TABLE us3
CREATE INDEX i4 ON us1 (b) USING HASH
ALTER TABLE us2 ADD INDEX i5 (a) USING HASH
SHOW CREATE TABLE us2
CREATE TABLE us4 (a INT, KEY k USING HASH (a) USING BTREE)
SHOW CREATE TABLE us4
CREATE TABLE us5 (a INT, KEY k (a) USING gin)
INSERT INTO us1 VALUES (1, 2), (3, 4)
SELECT a, b FROM us1 WHERE b = 4
-- NUMERIC takes UNSIGNED / ZEROFILL; CREATE OR REPLACE reads the same column words as CREATE.
CREATE TABLE nu1 (a NUMERIC UNSIGNED ZEROFILL, b NUMERIC(5,2) UNSIGNED, c DEC UNSIGNED, d FIXED(4,1) ZEROFILL)
SHOW CREATE TABLE nu1
CREATE OR REPLACE TABLE nu1 (c2 DECIMAL UNSIGNED ZEROFILL, c3 CHAR(1) BINARY, c4 INT1 UNSIGNED)
SHOW CREATE TABLE nu1
CREATE OR REPLACE TEMPORARY TABLE nu2 (c2 NUMERIC ZEROFILL)
SHOW CREATE TABLE nu2
