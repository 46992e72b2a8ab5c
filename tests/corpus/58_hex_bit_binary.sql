-- Hex and bit literals: 0x41 and b'1000001' are hybrids (MariaDB's Item_hex_hybrid), a binary
-- string that is its bytes' big-endian unsigned number in arithmetic, a numeric CAST or function,
-- a comparison with a number and a numeric column (more than 8 bytes is out of range there);
-- X'41' is a plain string. ENUM / SET members and DEFAULTs may be such literals. The BINARY
-- column attribute is the charset's _bin collation (the table's charset when none is declared),
-- ASCII is latin1; BINARY with another COLLATE is 1302.
SELECT 0x41, b'1000001', B'1', 0x4142
SELECT 0x41 + 0, b'1000001' + 0, b'1' + 0, 0x41 + 1.5, 0x41 * 1e0, -0x41, 0x41 DIV 1, 0x41 % 7
SELECT x'41' + 0, CAST(x'41' AS SIGNED)
SELECT CAST(0x41 AS UNSIGNED), CAST(0x41 AS SIGNED), CAST(b'11' AS DECIMAL(5,2)), CAST(0x41 AS CHAR)
SELECT 0xffffffffffffffff + 0, 0x10000000000000000 + 0, 0x8000000000000005 - 1
SELECT 0xffffffffffffffff + 1
SELECT 0x4142 | 0, 0x0f & 0xff, ~0x00, 0x01 << 4, 0xff >> 4, 0x03 ^ 0x01
SELECT 0x41 = 65, 0x41 = 'A', 0x41 = 'a', b'1000001' = 65, 0x41 > 64, 0x41 < 66.5
SELECT 0x41 BETWEEN 60 AND 70, 0x41 IN (64, 65), 0x41 IN ('A', 'B'), 65 IN (0x41, 0x42)
SELECT CASE 0x41 WHEN 65 THEN 'num' ELSE 'str' END, CASE 'A' WHEN 0x41 THEN 'bytes' ELSE 'none' END
SELECT NOT 0x00, NOT 0x01, 0x01 AND 0x02, 0x00 OR 0x00
SELECT ABS(0x41), FLOOR(0x41), SQRT(0x10), POW(0x02, 3), CHAR(0x41, 0x42)
SELECT HEX(0x41), HEX(b'101'), LENGTH(0x0041), 0x41 LIKE 'A', 0x41 LIKE 'a'
SELECT CHARSET(0x41), COLLATION(b'1'), COERCIBILITY(0x41)
SELECT 0x123 + 0, HEX(0x123), b'100000001' + 0, HEX(b'100000001')
CREATE TABLE hx (id INT PRIMARY KEY, u BIGINT UNSIGNED, i INT, s BIGINT, d DECIMAL(30,2), f DOUBLE, v VARCHAR(20), vb VARBINARY(10), t TINYINT UNSIGNED, y YEAR)
INSERT INTO hx VALUES (1, 0xffffffffffffffff, 0xffffff, 0x7fffffffffffffff, 0x41, 0x41, 0x41, 0x41, 0xff, 0x07da)
INSERT INTO hx VALUES (2, b'1111', b'101', b'1', b'1000001', b'11', b'1000001', b'1000001', b'11111111', b'11111011010')
INSERT INTO hx VALUES (3, x'31', x'32', x'33', x'34', x'35', x'41', x'41', x'39', x'32303030')
INSERT INTO hx VALUES (4, 1, 0xffffffff, 1, 1, 1, 'a', 'a', 1, 2000)
INSERT INTO hx VALUES (5, 1, 1, 0x8000000000000000, 1, 1, 'a', 'a', 1, 2000)
INSERT INTO hx VALUES (6, 0x10000000000000000, 1, 1, 1, 1, 'a', 'a', 1, 2000)
INSERT INTO hx VALUES (7, 1, 1, 1, 1, 1, 'a', 'a', 0x100, 2000)
INSERT IGNORE INTO hx VALUES (9, 0x010000000000000000, 0x0100000000, 0x8000000000000000, 1, 1, 'a', 'a', 0x0100, 2000)
INSERT INTO hx VALUES (10, b'', b'', 0x00, 0x00, 0x00, b'', b'', 0x0000000000000000001, 2000)
INSERT INTO hx VALUES (11, b'', b'', 0x00, 0x00, 0x00, b'', b'', 0x0000000000000001, 2000)
SELECT id, u, i, s, d, f, v, vb, t, y FROM hx ORDER BY id
SELECT id FROM hx WHERE i = 0x05 ORDER BY id
SELECT id FROM hx WHERE v = 0x41 ORDER BY id
SELECT id FROM hx WHERE u = 0xffffffffffffffff ORDER BY id
SELECT id FROM hx WHERE vb = b'1000001' ORDER BY id
SELECT id FROM hx WHERE t BETWEEN 0x02 AND 0xff ORDER BY id
UPDATE hx SET i = 0x0100, v = 0x4243 WHERE id = 2
UPDATE hx SET t = 0x1000 WHERE id = 3
UPDATE IGNORE hx SET t = 0x1000 WHERE id = 3
SELECT id, i, v, t FROM hx WHERE id IN (2, 3) ORDER BY id
INSERT INTO hx (id, i) VALUES (2, 0) ON DUPLICATE KEY UPDATE i = 0x30, v = 0x30
SELECT id, i, v FROM hx WHERE id = 2
CREATE TABLE hy (id INT PRIMARY KEY, b INT)
INSERT INTO hy VALUES (2, 0)
UPDATE hx, hy SET hx.s = 0x0102, hy.b = 0x0203 WHERE hx.id = hy.id
SELECT hx.s, hy.b FROM hx, hy WHERE hx.id = hy.id
CREATE TABLE hd (a INT DEFAULT 0x41, b VARCHAR(5) DEFAULT 0x41, c ENUM('A','B') DEFAULT 0x42, e BIT(8) DEFAULT 0x41, g DOUBLE DEFAULT b'101', h VARCHAR(5) DEFAULT x'41', s SET('a','b') DEFAULT 0x61)
SHOW CREATE TABLE hd
INSERT INTO hd VALUES ()
SELECT a, b, c, e + 0, g, h, s FROM hd
CREATE TABLE he (a ENUM(0x41, 'b', x'43', b'1000100') DEFAULT b'1000100', b SET(0x61, x'62') DEFAULT 0x61, c ENUM('', 0x78, 0x7a))
SHOW CREATE TABLE he
INSERT INTO he VALUES (0x41, 0x62, 0x7a), ('b', 'a,b', '')
SELECT a, b, c FROM he ORDER BY a
CREATE TABLE hb (a VARCHAR(32)BINARY NOT NULL, b CHAR(10) BINARY, c TEXT BINARY, d VARCHAR(5) BINARY CHARACTER SET latin1, e VARCHAR(5) CHARACTER SET latin1 BINARY, f VARCHAR(5) ASCII, g VARCHAR(4) BINARY COLLATE latin1_bin, h ENUM('a','b') BINARY, i SET('x','y') BINARY)
SHOW CREATE TABLE hb
CREATE TABLE hc (a VARCHAR(32) BINARY, b TINYTEXT BINARY) CHARSET latin1
SHOW CREATE TABLE hc
ALTER TABLE hc ADD c CHAR(3) BINARY, MODIFY a VARCHAR(20) BINARY
SHOW CREATE TABLE hc
CREATE TABLE hf (a CHAR(3) CHARACTER SET binary BINARY)
SHOW CREATE TABLE hf
CREATE TABLE hg (a CHAR(3) BINARY CHARSET utf8mb4 COLLATE utf8mb4_unicode_ci)
CREATE TABLE hg (a INT BINARY)
CREATE TABLE hg (a CHAR(3) BINARY BINARY)
INSERT INTO hb (a, b) VALUES ('abc', 'X'), ('ABC', 'x')
SELECT a FROM hb WHERE a = 'abc'
SELECT COUNT(DISTINCT b) FROM hb
SELECT column_name, collation_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'hb' ORDER BY ordinal_position
-- MyISAM: a FOREIGN KEY is only its index; once a row is written (it cannot be undone), later
-- rows' bad values warn under STRICT_TRANS_TABLES. InnoDB: a table drops with the children
-- that reference it.
CREATE TABLE hm (a BIT(1), b TINYINT) ENGINE=MyISAM
INSERT INTO hm VALUES (b'0', 1), (b'1', 2), (b'100', 300)
INSERT INTO hm VALUES (b'100', 1), (b'1', 2)
SELECT a + 0, b FROM hm ORDER BY b, a
CREATE TABLE hp (a INT PRIMARY KEY) ENGINE=MyISAM
CREATE TABLE hq (b INT, FOREIGN KEY (b) REFERENCES hp (a)) ENGINE=MyISAM
SHOW CREATE TABLE hq
INSERT INTO hq VALUES (5)
CREATE TABLE hr (a INT PRIMARY KEY, p INT, FOREIGN KEY (p) REFERENCES hr (a)) ENGINE=InnoDB
CREATE TABLE hs (b INT, FOREIGN KEY (b) REFERENCES hr (a)) ENGINE=InnoDB
DROP TABLE hr
DROP TABLE hs, hr
