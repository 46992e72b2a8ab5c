-- Differences the random-query campaign (tests/tools/random_queries.py, docs/random-queries.md) found and fixed.
CREATE TABLE r (id INT PRIMARY KEY AUTO_INCREMENT, a INT, b INT UNSIGNED, d DECIMAL(8,2), s VARCHAR(20), dt DATE, ts DATETIME)
INSERT INTO r VALUES (1, 5, NULL, 1.25, 'e', '2024-01-31', '2024-01-31 10:00:00'), (2, NULL, 7, -3.5, 'ss', '1999-12-31', NULL)
-- XOR ranks between OR and AND, below the comparisons.
SELECT (NULL IS NULL XOR 'ss' <> 'e'), (1 XOR NOT (1 >= 1)), 1 XOR 1 XOR 0, NOT 1 XOR 1, 1 XOR 0 AND 0, 1 OR 1 XOR 1
SELECT id FROM r WHERE (b IS NULL XOR 'ss' <> s) XOR NOT (s >= s)
SELECT id, (a IS NULL XOR s = 'ss') FROM r
-- Infix MOD before a parenthesis.
SELECT 10 MOD (4 - 1), (7 * 3) MOD (5), MOD(10, 3), a MOD (3) FROM r WHERE id = 1
-- LEAST / GREATEST of dates and text compare as dates.
SELECT LEAST('2024-02-29 06:07:08', DATE(LAST_DAY('1999-12-31 12:30:45'))), LEAST('2024-02-29', DATE('1999-12-31')), GREATEST('x', DATE('1999-12-31'))
SELECT GREATEST(ts, '2020-01-01'), LEAST(dt, '2000-06-01'), GREATEST(dt, ts) FROM r
-- Rounding a DECIMAL or dropping a time of day is a note.
INSERT INTO r (a, d) VALUES (1, -3.141)
INSERT INTO r (a, d) VALUES (2, '1.255'), (3, 1.250)
INSERT INTO r (a, dt) VALUES (4, '2024-01-31 23:59:59')
INSERT INTO r (a, dt) VALUES (5, '2024-01-31 00:00:00')
INSERT INTO r (a, dt) VALUES (6, 20240131101010)
UPDATE r SET d = d / 3 WHERE d IS NOT NULL
SELECT id, d, dt FROM r ORDER BY id
-- The OK packet of a multi-row INSERT with explicit ids carries the last one.
INSERT INTO r (id, a) VALUES (50, 1), (51, 2)
INSERT IGNORE INTO r (id, a) VALUES (52, 1), (1, 2), (53, 3)
INSERT INTO r (id, a) VALUES (NULL, 1), (60, 2)
SELECT LAST_INSERT_ID()
-- ROUND / TRUNCATE with a constant digit count past the scale pad with zeros.
SELECT TRUNCATE(-0.5, 2), ROUND(-0.5, 2), ROUND(1.5, 3), TRUNCATE(1.5, 0), ROUND(2.567, 1), ROUND(d, 4), TRUNCATE(d, 1) FROM r WHERE id = 1
-- A UNION part that is only NULL takes the other parts' type.
SELECT NULL AS c0 FROM r UNION SELECT 'A' FROM r
SELECT s FROM r WHERE id = 1 UNION SELECT NULL
