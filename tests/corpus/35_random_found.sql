-- Differences the seeded random-query test (tests/test_random_queries.py) found and fixed.
CREATE TABLE rf (id INT PRIMARY KEY, a INT, b INT UNSIGNED, c BIGINT, bu BIGINT UNSIGNED, d DECIMAL(10,3), m DECIMAL(20,10), f DOUBLE, s VARCHAR(20), dt DATE, ts DATETIME)
INSERT INTO rf VALUES (1, -16, 5, 10, 32767, -995.890, -531.75, -2.25, 'a', '2024-03-01', '2024-03-01 10:00:00'), (2, 11, 10, -19, 14, 762.370, 9999999999.9999999999, 1e30, '10', '2024-02-29', NULL), (3, NULL, NULL, NULL, NULL, -0.4, -0.5, NULL, NULL, NULL, NULL)
-- DECIMAL(M,D) with D over M is 1427 before any limit, in CAST and in a column.
SELECT CAST(-3.141 AS DECIMAL(1, 4))
SELECT CAST(1 AS DECIMAL(1, 31))
CREATE TABLE rf_bad (x DECIMAL(2, 3))
-- CAST of a DECIMAL or DOUBLE past the integer range: 0 or the limit, and 1916 (a warning for DECIMAL, a note for DOUBLE).
SELECT id, CAST(d AS UNSIGNED), CAST(m AS UNSIGNED) FROM rf ORDER BY id
SELECT id, CAST(f AS UNSIGNED), CAST(f AS SIGNED) FROM rf ORDER BY id
SELECT CAST(99999999999999999999.5 AS UNSIGNED), CAST(-0.5 AS UNSIGNED), CAST(-0.4 AS UNSIGNED), CAST(-1.000 AS UNSIGNED)
-- Result types at bind time: integer arithmetic with an unsigned operand is unsigned (MOD: the dividend's sign).
SELECT b * a, b + a, b - a, a - b, b * LENGTH(s), b MOD a, a MOD b, b * d FROM rf WHERE id = 0
SELECT b * a, b + a, b MOD a FROM rf WHERE id = 1
-- FLOOR / CEILING of a DECIMAL are integers of its integer digits (and a carry digit when it has a scale).
SELECT FLOOR(d), CEILING(d), FLOOR(m), CEILING(m), FLOOR(a), FLOOR(b), FLOOR(c), FLOOR(bu), FLOOR(1.5), CEILING(CAST(1.25 AS DECIMAL(8,0))) FROM rf WHERE id = 0
SELECT FLOOR(d), CEILING(d), FLOOR(m), CEILING(m), FLOOR(-0.5), CEILING(-0.5) FROM rf ORDER BY id
-- SIGN, LOCATE, DATEDIFF, DATE, LAST_DAY and DATE_ADD of DATE / DATETIME columns.
SELECT SIGN(d), SIGN(a), SIGN(f), LOCATE(s, s), LOCATE('a', 'b'), DATEDIFF(dt, dt), DATEDIFF('x', 'y') FROM rf WHERE id = 0
SELECT DATE(ts), DATE(s), LAST_DAY(dt), LAST_DAY(s), DATE(NULL), DATE('2024-01-01') FROM rf WHERE id = 0
SELECT DATE_ADD(dt, INTERVAL 1 DAY), DATE_ADD(dt, INTERVAL 1 HOUR), DATE_ADD(ts, INTERVAL 1 DAY), DATE_SUB(dt, INTERVAL 2 MONTH), DATE_ADD(LAST_DAY(dt), INTERVAL 1 YEAR) FROM rf WHERE id = 0
SELECT id, DATE_ADD(dt, INTERVAL -36 DAY), DATE_ADD(dt, INTERVAL 12 HOUR), DATE_ADD(ts, INTERVAL 1 MONTH), LAST_DAY(DATE(ts)) FROM rf ORDER BY id
-- ROUND of a DECIMAL to a negative digit count has scale 0.
SELECT ROUND(m + m, -1), ROUND(d, -2), ROUND(-0.5, -1) FROM rf WHERE id = 0
SELECT id, ROUND(m + m, -1), ROUND(d, -2) FROM rf ORDER BY id
-- An OR of an IN list and a range on one indexed column reads a row both select once.
CREATE TABLE rf_or (id INT PRIMARY KEY, a INT, KEY (a))
INSERT INTO rf_or VALUES (1, 2), (2, -10), (3, 5), (4, 40000), (5, NULL), (6, 2)
SELECT id, a FROM rf_or WHERE a IN (2, -10) OR 32767 > a ORDER BY id
SELECT COUNT(*) FROM rf_or WHERE a = 2 OR a < 3 OR a IN (5, -10)
SELECT COUNT(*) FROM rf_or WHERE a > 1 OR a < 10
-- REPLACE with an empty search string returns the subject, whatever the replacement.
SELECT REPLACE('abc', '', NULL), REPLACE(NULL, '', 'x'), REPLACE('abc', NULL, 'x'), REPLACE('abc', 'b', NULL)
-- UPPER / LOWER map one character to one: 'ß' stays.
SELECT id FROM rf WHERE UPPER('straße') = 'STRAßE' COLLATE utf8mb4_bin AND LOWER('ÀSS') = 'àss' COLLATE utf8mb4_bin ORDER BY id
-- warning_count counts every warning, SHOW WARNINGS lists the first 64.
CREATE TABLE rf_many (id INT PRIMARY KEY, d DATE)
INSERT INTO rf_many (id) VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10),(11),(12),(13),(14),(15),(16),(17),(18),(19),(20),(21),(22),(23),(24),(25),(26),(27),(28),(29),(30),(31),(32),(33),(34),(35),(36),(37),(38),(39),(40),(41),(42),(43),(44),(45),(46),(47),(48),(49),(50),(51),(52),(53),(54),(55),(56),(57),(58),(59),(60),(61),(62),(63),(64),(65),(66),(67),(68),(69),(70)
UPDATE rf_many SET d = '2024-01-31 10:00:00'
-- A comparison with a NULL left side does not read (or warn for) its right side.
SELECT COUNT(*) FROM rf WHERE a < CAST(s AS DECIMAL(5, 1))
SELECT COUNT(*) FROM rf WHERE NULL = CAST('x' AS DECIMAL(5, 1))
-- CAST(... AS UNSIGNED) of negative integer text notes the wrap.
SELECT CAST('-3' AS UNSIGNED)
-- Bit operations are BIGINT UNSIGNED of 21 characters; negation widens by one.
SELECT a | b, a & 1, b ^ a, 1 << 2, 4294967295 - (a & b), -(a), -(d), -(ABS(-10)) FROM rf WHERE id = 0
