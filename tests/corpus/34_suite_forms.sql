-- Forms MariaDB's own test suite (mtr) uses that OneLog got wrong: quoted
-- charset names, the INTERVAL() function, the names MariaDB gives a view's
-- columns, views in information_schema.COLUMNS, the row order of window
-- queries, and UPDATE / INSERT IGNORE with a subquery of several rows.
CREATE TABLE tb (c1 TEXT CHARACTER SET 'Binary' COLLATE 'Binary', c2 VARCHAR(5) CHARACTER SET "binary", c3 CHAR(3) CHARSET binary)
SHOW CREATE TABLE tb
SELECT count(*) FROM tb WHERE 'a' COLLATE 'utf8mb4_bin' = 'A'
SELECT interval(55,10), interval(NULL,1), interval(3,1,2,3,4), interval(1.5, 1, 2)
SELECT interval(5,NULL,1,10), interval(5,1,NULL,10), interval(5,NULL,10), interval(5,10,NULL,1)
SELECT date_add(DATE'2020-01-01', interval (1) day), DATE'2020-01-01' + INTERVAL (2) MONTH
CREATE TABLE ti SELECT interval(55,10) a, interval(NULL,1) b
SHOW CREATE TABLE ti
SELECT 'c1', 'c2 ', ' c3', ' c4 '
CREATE VIEW v1 AS SELECT 'c1', 'c2 ', ' c3', ' c4 '
SHOW CREATE VIEW v1
SELECT * FROM v1
CREATE VIEW v2 AS SELECT 'c1', 'c2 ', ' c3', ' c4 ', 'Name_exp_2'
SHOW CREATE VIEW v2
CREATE VIEW v3 AS SELECT '<--- 65 char including the arrows                            --->', '<--- 64 char including the arrows                           --->'
SHOW CREATE VIEW v3
CREATE TABLE t1 (a INT NOT NULL DEFAULT 5, b VARCHAR(10))
INSERT INTO t1 VALUES (1, 'x'), (2, 'y')
CREATE VIEW v4 AS SELECT a, 'a', a + 1, b FROM t1
SHOW CREATE VIEW v4
CREATE VIEW v5 AS SELECT a, a FROM t1
CREATE VIEW v6 AS SELECT a FROM t1 WHERE EXISTS (SELECT a AS alias FROM t1 GROUP BY a LIMIT 1)
SHOW CREATE VIEW v6
SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, IS_NULLABLE, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, COLUMN_TYPE, COLUMN_KEY, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'diff_34_suite_forms' AND TABLE_NAME LIKE 'v%' ORDER BY TABLE_NAME, ORDINAL_POSITION
CREATE TABLE tw (pk INT, a INT, b INT)
INSERT INTO tw VALUES (11, 0, 10), (12, 0, 10), (13, 1, 10), (14, 1, 10), (18, 2, 10), (15, 2, 20), (16, 2, 20), (17, 2, 20), (19, 4, 20), (20, 4, 20)
SELECT pk, a, b, ntile(2) OVER (PARTITION BY b ORDER BY pk) FROM tw
SELECT pk, a, b, row_number() OVER (ORDER BY a DESC, pk) FROM tw
SELECT pk, rank() OVER (PARTITION BY a ORDER BY b, pk) FROM tw
CREATE TABLE tu1 (a INT, b CHAR(3))
INSERT INTO tu1 VALUES (1, 'foo')
CREATE TABLE tu2 (c CHAR(3), d INT)
INSERT INTO tu2 VALUES ('foo', 1)
UPDATE IGNORE tu1 SET b = 'baz' WHERE a != (SELECT 1 UNION SELECT 2)
SHOW WARNINGS
UPDATE IGNORE tu1 SET b = (SELECT 1 UNION SELECT 2)
SHOW WARNINGS
UPDATE tu1 SET b = (SELECT 1 UNION SELECT 2)
INSERT IGNORE INTO tu1 VALUES ((SELECT 1 UNION SELECT 2), 'x')
SHOW WARNINGS
INSERT INTO tu1 VALUES ((SELECT 1 UNION SELECT 2), 'x')
SELECT * FROM tu1
SELECT soundex('Hello'), soundex('Quadratically'), soundex('Tymczak'), soundex('Pfister'), soundex('Ashcraft'), soundex(''), soundex('123')
SELECT soundex('  a'), soundex('Robert Rupert'), soundex('aeiou b'), soundex('bab'), soundex('éclair'), soundex('Lloyd')
SELECT b, soundex(b), CONCAT(soundex(b), '-') FROM tu1 ORDER BY b
SELECT to_base64('abc'), from_base64('YWJj'), to_base64(repeat('x', 60)), from_base64('YW Jj'), to_base64(NULL), to_base64(1234), to_base64('')
SELECT from_base64('!!'), from_base64('YQ'), from_base64('YQ=')
SHOW WARNINGS
SELECT from_base64(to_base64(b)), CONCAT(to_base64(b), '-') FROM tu1 ORDER BY b
CREATE TABLE tb64 SELECT to_base64('abc') a, from_base64('YWJj') b, to_base64(CONCAT('0123456789', '0123456789', '0123456789', '0123456789', '0123456789', '0123456789')) c
SHOW CREATE TABLE tb64
PREPARE s FROM 'SELECT * FROM tw ORDER BY pk LIMIT ?'
SET @a = 'qwe'
EXECUTE s USING @a
SET @a = '2abc'
EXECUTE s USING @a
SHOW WARNINGS
SET @a = 1.5
EXECUTE s USING @a
SET @a = 0.4
EXECUTE s USING @a
SET @a = NULL
EXECUTE s USING @a
SET @a = -1
EXECUTE s USING @a
PREPARE s FROM 'SELECT * FROM tw ORDER BY pk LIMIT 1, ?'
SET @a = '3'
EXECUTE s USING @a
SELECT -14632475938453979136, -9223372036854775809, -(9223372036854775809), -9223372036854775808
SET @big = -14632475938453979136
EXECUTE s USING @big

-- HEX: two digits per byte of the argument (a temporal value is its string).
CREATE TABLE hx (a INT, b BIGINT UNSIGNED, c CHAR(5), d VARCHAR(10) CHARSET latin1, e BINARY(3), f DECIMAL(6,2), g DOUBLE, h TEXT, i DATE, j DATETIME, k TIME)
INSERT INTO hx VALUES (255, 18446744073709551615, 'ab', 'cd', 'x', 12.5, 1.5, 'zz', '2020-01-01', '2020-01-01 10:11:12', '10:11:12')
SELECT HEX(a), HEX(b), HEX(c), HEX(d), HEX(e), HEX(f), HEX(g) FROM hx
SELECT HEX(h), HEX(i), HEX(j), HEX(k) FROM hx
SELECT HEX('abc'), HEX(255), HEX(NULL), HEX(-1), HEX(1.5), HEX(CURDATE() - CURDATE())
DROP TABLE hx
