-- BIT(n) columns: 1..64 bits (BIT and BIT(0) are BIT(1), past 64 is 1439), sent as big-endian
-- bytes of MYSQL_TYPE_BIT, numbers in arithmetic; a value that does not fit is 1406 in strict
-- mode and 1264 with all ones otherwise; a string is its bytes read as a number; b'...' literals.
CREATE TABLE bt (id INT PRIMARY KEY, a BIT(3) DEFAULT b'101', b BIT, c BIT(64) NOT NULL DEFAULT 0, d BIT(9), KEY (a))
SHOW CREATE TABLE bt
SELECT column_name, data_type, column_type, numeric_precision, numeric_scale, character_maximum_length, column_default FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'bt' ORDER BY ordinal_position
INSERT INTO bt VALUES (1, b'101', 1, 18446744073709551615, 300)
INSERT INTO bt (id, b, d) VALUES (2, 0, b'111111111')
INSERT INTO bt VALUES (3, 8, 0, -1, 0)
INSERT INTO bt VALUES (4, 'a', 0, 0, 0)
INSERT INTO bt VALUES (5, 0, 0, 0, 512)
INSERT IGNORE INTO bt VALUES (6, 8, 2, -1, '128')
INSERT INTO bt VALUES (7, 5.6, 1.4, 0, 'A')
INSERT INTO bt VALUES (8, NULL, NULL, 7, NULL)
SELECT id, a, b, c, d FROM bt ORDER BY id
SELECT id, a + 0, b + 0, c + 0, d + 0, hex(a), hex(c), bin(d), oct(a) FROM bt ORDER BY id
SELECT id FROM bt WHERE a = 5 ORDER BY id
SELECT id FROM bt WHERE a > 4 ORDER BY id
SELECT id FROM bt WHERE d BETWEEN 60 AND 400 ORDER BY id
SELECT a + 0, COUNT(*) FROM bt GROUP BY a ORDER BY a
UPDATE bt SET a = a + 1 WHERE id = 2
UPDATE bt SET a = 9 WHERE id = 2
UPDATE IGNORE bt SET d = 1000 WHERE id = 2
SELECT id, a + 0, d + 0 FROM bt ORDER BY id
DELETE FROM bt WHERE a = 6
SELECT COUNT(*) FROM bt
SELECT hex(b'101'), hex(b'1111111111'), hex(b'0'), length(b'')
CREATE TABLE bx (x BIT(0))
SHOW CREATE TABLE bx
CREATE TABLE by1 (y BIT(65))
CREATE TABLE bz (z BIT(8) DEFAULT b'11111111', w BIT(2) NOT NULL)
INSERT INTO bz (w) VALUES (3)
SELECT z + 0, w + 0 FROM bz
SHOW CREATE TABLE bz
