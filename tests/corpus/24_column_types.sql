-- Column types as MariaDB 10.11 stores, shows and returns them: display
-- widths, BOOL / BOOLEAN, ZEROFILL (padded values, UNSIGNED implied),
-- FLOAT(M,D) / DOUBLE(M,D) / REAL(M,D) rounded on store, FLOAT(p).
CREATE TABLE w1 (a int(5), b tinyint(1), c bool, d boolean, e smallint(3), f mediumint(7), g bigint(4), h int(0), i int(255))
SHOW CREATE TABLE w1
SHOW COLUMNS FROM w1
SELECT column_name, column_type, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = database() AND table_name = 'w1' ORDER BY ordinal_position
INSERT INTO w1 VALUES (123456, 1, true, false, 12345, 1234567, 123456789, 7, 8)
INSERT INTO w1 VALUES (-5, -1, 0, 1, -3, -7, -9, 0, 0)
SELECT * FROM w1 ORDER BY a
SELECT a, b + 1, c AND d, e * 2 FROM w1 ORDER BY a
CREATE TABLE w2 (a int(5) unsigned, b tinyint(1) unsigned, c smallint unsigned, d mediumint(4) unsigned, e bigint unsigned, f int unsigned)
SHOW CREATE TABLE w2
SELECT column_name, column_type, numeric_precision FROM information_schema.columns WHERE table_schema = database() AND table_name = 'w2' ORDER BY ordinal_position
INSERT INTO w2 VALUES (1, 2, 3, 4, 5, 6)
SELECT * FROM w2
CREATE TABLE w3 (a int(256))
CREATE TABLE w3 (a bigint(300) unsigned)
-- ZEROFILL
CREATE TABLE z1 (id int PRIMARY KEY, a int(5) unsigned zerofill, b int zerofill, c tinyint zerofill, d smallint(3) zerofill, e mediumint zerofill, f bigint(8) zerofill, g decimal(6,2) zerofill, h float zerofill, i double zerofill, j int(4) zerofill unsigned)
SHOW CREATE TABLE z1
SHOW COLUMNS FROM z1
SHOW FULL COLUMNS FROM z1
SELECT column_name, column_type, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = database() AND table_name = 'z1' ORDER BY ordinal_position
INSERT INTO z1 VALUES (1, 42, 7, 3, 12, 5, 99, 3.5, 1.5, 2.25, 9)
INSERT INTO z1 VALUES (2, 123456, 4294967295, 255, 1000, 16777215, 123456789012, 9999.99, 123.25, 0.5, 12345)
INSERT INTO z1 VALUES (3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
INSERT INTO z1 (id) VALUES (4)
SELECT * FROM z1 ORDER BY id
SELECT id, a FROM z1 WHERE a = 42
SELECT id, a FROM z1 WHERE a > 40 ORDER BY a
SELECT id, a FROM z1 WHERE a = '00042'
SELECT id, a + 1, b * 2, c - 1 FROM z1 ORDER BY id
SELECT id FROM z1 ORDER BY a DESC, id
SELECT max(a), min(a), count(a) FROM z1
SELECT a, count(*) FROM z1 GROUP BY a ORDER BY a
SELECT a FROM z1 ORDER BY id LIMIT 2
SELECT a AS padded FROM z1 ORDER BY id
SELECT t.a FROM z1 t ORDER BY t.id
INSERT INTO z1 (id, a) VALUES (5, -1)
SET sql_mode = ''
INSERT INTO z1 (id, a) VALUES (6, -1)
SHOW WARNINGS
INSERT INTO z1 (id, c) VALUES (7, 300)
SHOW WARNINGS
SET sql_mode = DEFAULT
SELECT id, a, c FROM z1 WHERE id > 5 ORDER BY id
UPDATE z1 SET a = a + 1 WHERE id = 1
SELECT a FROM z1 WHERE id = 1
DELETE FROM z1 WHERE a = 0
SELECT id FROM z1 ORDER BY id
CREATE TABLE z2 (a varchar(5) zerofill)
CREATE TABLE z2 (`zerofill` int zerofill, n int)
SHOW CREATE TABLE z2
INSERT INTO z2 VALUES (5, 5)
SELECT * FROM z2
CREATE TABLE z3 (id int PRIMARY KEY, k int(6) zerofill, UNIQUE KEY (k))
INSERT INTO z3 VALUES (1, 7), (2, 70), (3, 700)
SELECT * FROM z3 WHERE k = 70
SELECT * FROM z3 ORDER BY k DESC
INSERT INTO z3 VALUES (4, 70)
-- ALTER with ZEROFILL and widths
ALTER TABLE z2 ADD COLUMN m int(3) zerofill
ALTER TABLE z2 MODIFY n bigint(12) unsigned zerofill
SHOW CREATE TABLE z2
SELECT * FROM z2
ALTER TABLE z2 CHANGE m mm smallint(4) zerofill, ADD COLUMN q tinyint(2) zerofill
SHOW CREATE TABLE z2
UPDATE z2 SET mm = 3, q = 4
SELECT * FROM z2
ALTER TABLE z2 MODIFY n int
SHOW CREATE TABLE z2
SELECT * FROM z2
ALTER TABLE w1 MODIFY b bool NOT NULL DEFAULT 0
SHOW CREATE TABLE w1
-- FLOAT(M,D), DOUBLE(M,D), REAL(M,D), FLOAT(p)
CREATE TABLE f1 (id int PRIMARY KEY, a float(7,3), b double(10,2), c real(8,2), d float(10), e float(24), f float(25), g float(53), h double, i real, j double precision)
SHOW CREATE TABLE f1
SHOW COLUMNS FROM f1
SELECT column_name, column_type, data_type, numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = database() AND table_name = 'f1' ORDER BY ordinal_position
INSERT INTO f1 VALUES (1, 1.23456, 3.14159, 2.71828, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5)
INSERT INTO f1 VALUES (2, -1.0005, 1.005, 2.345, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
INSERT INTO f1 (id, a, b, c) VALUES (3, 9999.9994, 99999999.994, 999999.994)
INSERT INTO f1 (id, a) VALUES (4, 10000)
INSERT INTO f1 (id, b) VALUES (5, -100000000)
SELECT * FROM f1 ORDER BY id
SELECT id, a, b FROM f1 WHERE a > 1 ORDER BY id
SELECT id FROM f1 ORDER BY a, id
SELECT sum(b), min(c) FROM f1
SET sql_mode = ''
INSERT INTO f1 (id, a, b, c) VALUES (6, 12345, -123456789, 1e10)
SHOW WARNINGS
INSERT INTO f1 (id, a, b) VALUES (7, -12345.6, 99999999.999)
SHOW WARNINGS
INSERT INTO f1 (id, a) VALUES (8, 'abc')
INSERT INTO f1 (id, c) VALUES (9, '2.345x')
SHOW WARNINGS
SET sql_mode = DEFAULT
SELECT id, a, b, c FROM f1 WHERE id > 5 ORDER BY id
CREATE TABLE f2 (a float(7,3) unsigned, b double(5,2) unsigned zerofill)
SHOW CREATE TABLE f2
INSERT INTO f2 VALUES (1.5, 2.25)
INSERT INTO f2 VALUES (-1, 1)
SET sql_mode = ''
INSERT INTO f2 VALUES (-1.5, -3)
INSERT INTO f2 VALUES (1, 999.999)
SET sql_mode = DEFAULT
SELECT * FROM f2 ORDER BY a, b
CREATE TABLE f3 (a float(3,5))
CREATE TABLE f3 (a float(256,2))
CREATE TABLE f3 (a double(40,31))
CREATE TABLE f3 (a float(54))
CREATE TABLE f3 (a float(7,31))
CREATE TABLE f3 (a double(65,30), b float(30,30))
SHOW CREATE TABLE f3
INSERT INTO f3 VALUES (0.5, 0.5)
SELECT * FROM f3
ALTER TABLE f1 ADD COLUMN k float(5,1) zerofill
UPDATE f1 SET k = 3.14159 WHERE id = 1
SELECT id, k FROM f1 WHERE id = 1
SHOW CREATE TABLE f1
-- Type spellings sqlparser does not read, respelled before it parses them
CREATE TABLE sp1 (a national char(3), b national varchar(4), c long varchar, d long varbinary, e int1 unsigned, f middleint(5) unsigned zerofill, g int3 zerofill, h national character varying(5), i nchar varying(6), i2 nchar varchar(7), j fixed(5,2) unsigned, k real unsigned, `int1` int1(2) zerofill, KEY fixed (j))
SHOW CREATE TABLE sp1
INSERT INTO sp1 VALUES ('abc', 'abcd', 'long', 'bin', 255, 42, 7, 'åäö', 'x', 'y', 123.45, 1.5, 3)
SELECT * FROM sp1
INSERT INTO sp1 (e) VALUES (256)
ALTER TABLE sp1 MODIFY e int1(3) unsigned zerofill, CHANGE c cc long varchar NOT NULL
SHOW CREATE TABLE sp1
SELECT e, cc FROM sp1
-- TEXT(n) / BLOB(n): the smallest size holding n characters of the column's charset / n bytes
CREATE TABLE tx (a text(100), b text(300), c blob(255), d blob(256), e text(20000), f text(70000), g blob(16777216), h text(100) character set latin1, j text(63), k text(64), l text(0), m blob(0))
SHOW CREATE TABLE tx
SELECT column_name, column_type, character_maximum_length FROM information_schema.columns WHERE table_schema = database() AND table_name = 'tx' ORDER BY ordinal_position
INSERT INTO tx (j, h) VALUES (repeat('x', 63), repeat('y', 100))
SELECT length(j), length(h) FROM tx
CREATE TABLE tx2 (a text(100), b text(100) character set utf8mb4) CHARSET latin1
SHOW CREATE TABLE tx2
ALTER TABLE tx2 ADD COLUMN c text(200), MODIFY a text(300)
SHOW CREATE TABLE tx2
CREATE TABLE tx3 (a text(4294967295))
SHOW CREATE TABLE tx3
CREATE TABLE tx4 (a text(4294967296))
DROP TABLE w1, w2, z1, z2, z3, f1, f2, f3, sp1, tx, tx2, tx3

-- ZEROFILL is unsigned: SIGNED beside it is a syntax error.
CREATE TABLE zs1 (a INT SIGNED ZEROFILL)
CREATE TABLE zs2 (a INT ZEROFILL SIGNED)
CREATE TABLE zs3 (a DECIMAL(5,2) SIGNED ZEROFILL)
CREATE TABLE zs4 (a INT ZEROFILL UNSIGNED, b INT SIGNED)
SHOW CREATE TABLE zs4
DROP TABLE zs4
