-- Functions and errors MariaDB's own suite (mtr) exercises: BIT_LENGTH,
-- SUBSTRING_INDEX, DEFAULT(col), window functions without OVER (1064),
-- a user variable set from a bare word (a column: 1054), CAST scale over
-- 38 (1425), clock precision over 6 (1426), TRUE/FALSE headings, the
-- server's own strings in utf8mb3 (SYSCONST), SEC_TO_TIME's clamp with
-- the argument's fractional digits, and HEX past max_allowed_packet.
CREATE TABLE fd (a INT, b INT NOT NULL, c VARCHAR(10) DEFAULT 'x', e INT DEFAULT (1 + 2), f INT AUTO_INCREMENT PRIMARY KEY)
INSERT INTO fd (b) VALUES (5), (6)
SELECT DEFAULT(a), DEFAULT(c), DEFAULT(e), DEFAULT(f) FROM fd ORDER BY f
SELECT DEFAULT(b) FROM fd
SELECT DEFAULT(zz) FROM fd
SELECT f FROM fd WHERE c = DEFAULT(c) ORDER BY f
SELECT BIT_LENGTH('abc'), BIT_LENGTH(NULL), BIT_LENGTH(''), BIT_LENGTH(_utf8mb4'é')
SELECT SUBSTRING_INDEX('www.tcx.se', '.', -2), SUBSTRING_INDEX('www.tcx.se', '.', 1), SUBSTRING_INDEX('a.b.c', '.', 5)
SELECT SUBSTRING_INDEX('a.b', '', 1), SUBSTRING_INDEX('a.b', '.', 0), SUBSTRING_INDEX('aXbxc', 'x', 1), SUBSTRING_INDEX(NULL, '.', 1)
SELECT SUBSTRING_INDEX('a--b--c', '--', -1), SUBSTRING_INDEX('a--b--c', '--', 2)
SELECT ROW_NUMBER() FROM fd
SELECT RANK()
SELECT LAG(a) + 1 FROM fd
SET @fd_a := foo
SET @fd_a := 1 + 2
SELECT @fd_a
SELECT CAST(1 AS DOUBLE(65,39))
SELECT CAST(1 AS DOUBLE(65,38))
SELECT NOW(7)
SELECT CURTIME(7)
SELECT LOCALTIMESTAMP(7)
SELECT TRUE, FALSE, true, False
SELECT 1 + 1      /* a comment */
SELECT charset(user()), coercibility(user()), charset(database()), charset(version()), coercibility(charset('a')), charset(charset('a'))
SELECT collation(current_role()), coercibility(version())
SELECT SEC_TO_TIME(3020399.99999), SEC_TO_TIME(-3020399.9999999), SEC_TO_TIME(4000000), SEC_TO_TIME(3020400.5)
SELECT LENGTH(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX('ab'))))))))))))))))))))))))))))
CREATE TABLE fs SELECT database(), user(), current_role(), charset('a'), connection_id() AS c
SHOW CREATE TABLE fs
SELECT 'mood' SOUNDS LIKE 'mud', 'robert' sounds like 'rupert', 'a' SOUNDS LIKE 'b', NULL SOUNDS LIKE 'a'
SELECT CONCAT(':', TRIM(LEADING FROM '  left  '), ':', TRIM(TRAILING FROM '  right  '), ':', TRIM(BOTH FROM '  b  '), ':') AS t
