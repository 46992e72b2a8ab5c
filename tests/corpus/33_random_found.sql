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
