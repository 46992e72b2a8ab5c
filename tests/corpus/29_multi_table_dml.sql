-- Multi-table UPDATE / DELETE, UPDATE / DELETE modifiers (LOW_PRIORITY, QUICK,
-- IGNORE) and sql_safe_updates, as MariaDB 10.11 runs them.
CREATE TABLE m1 (id INT PRIMARY KEY, a INT, b INT)
CREATE TABLE m2 (id INT PRIMARY KEY, x INT, y INT)
INSERT INTO m1 VALUES (1, 10, 100), (2, 20, 200), (3, 30, 300)
INSERT INTO m2 VALUES (1, 1, 0), (2, 2, 0), (4, 4, 0)
-- Comma join: both tables change; every assignment reads the row as joined.
UPDATE m1, m2 SET m1.a = m1.a + m2.x, m2.y = m1.b WHERE m1.id = m2.id
SELECT * FROM m1
SELECT * FROM m2
-- Cross-table swap: each side sees the other's old value.
UPDATE m1 JOIN m2 ON m1.id = m2.id SET m2.y = m1.a, m1.a = m2.y
SELECT * FROM m1
SELECT * FROM m2
UPDATE m2, m1 SET m1.a = m2.y, m2.y = m1.a WHERE m1.id = m2.id
SELECT * FROM m1
SELECT * FROM m2
-- Same table: a later assignment still reads the old value.
UPDATE m1, m2 SET m1.a = 7, m1.b = m1.a WHERE m1.id = m2.id
SELECT * FROM m1
UPDATE m1, m2 SET m2.x = 7, m2.y = m2.x WHERE m1.id = m2.id
SELECT * FROM m2
-- A row the join matches three times changes once.
UPDATE m1, m2 SET m1.a = m1.a + 1 WHERE m2.id IN (1, 2, 4)
SELECT * FROM m1
UPDATE m1 JOIN m2 SET m1.a = (SELECT MAX(id) FROM m2)
SELECT * FROM m1
-- Unqualified columns that only one table has.
UPDATE m1, m2 SET a = x + 100 WHERE m1.id = m2.id AND b > 0
SELECT * FROM m1
-- Nothing changes: matched but not changed.
UPDATE m1, m2 SET m1.a = m1.a WHERE m1.id = m2.id
-- Aliases and a self-join.
UPDATE m1 AS p, m1 AS q SET p.b = q.a WHERE p.id = q.id + 1
SELECT * FROM m1
UPDATE m1 AS p JOIN m2 AS q USING (id) SET p.b = p.b + q.x, q.x = q.x * 2
SELECT * FROM m1
SELECT * FROM m2
-- LEFT JOIN: rows without a partner change only on the left side.
UPDATE m1 LEFT JOIN m2 ON m1.id = m2.id SET m1.b = COALESCE(m2.x, -1), m2.y = 5
SELECT * FROM m1
SELECT * FROM m2
-- Derived tables as the join's source.
UPDATE m1 JOIN (SELECT id, x FROM m2) AS s ON s.id = m1.id SET m1.a = s.x
SELECT * FROM m1
UPDATE m1 JOIN (SELECT id FROM m1) AS s ON s.id = m1.id SET m1.a = 1
SELECT * FROM m1
-- Subquery on a target table in WHERE.
UPDATE m1 JOIN m2 ON m1.id = m2.id SET m1.a = 0 WHERE m1.id IN (SELECT id FROM m1)
SELECT * FROM m1
-- DEFAULT in a multi-table SET.
UPDATE m1, m2 SET m1.b = DEFAULT WHERE m1.id = m2.id AND m1.id = 1
SELECT * FROM m1
-- Errors.
UPDATE m1, m2 SET id = 5
UPDATE m1, m2 SET m1.zz = 5
UPDATE m1, m2 SET zz = 5
UPDATE m1, m2 SET m3.a = 5
UPDATE m1, m1 SET m1.a = 1
UPDATE m1, nosuch SET m1.a = 1
UPDATE m1 JOIN (SELECT id FROM m2) AS s ON s.id = m1.id SET s.id = 1
UPDATE m1, m2 SET m1.a = 1 WHERE m1.id = m2.id RETURNING m1.id
-- Multi-table UPDATE with a key collision; IGNORE skips the row.
UPDATE m1, m2 SET m1.id = 2 WHERE m1.id = 1 AND m2.id = 1
UPDATE IGNORE m1, m2 SET m1.id = 2 WHERE m1.id = 1 AND m2.id = 1
SELECT * FROM m1
UPDATE LOW_PRIORITY IGNORE m1, m2 SET m1.id = m1.id + 10 WHERE m1.id = m2.id
SELECT * FROM m1
-- ORDER BY and LIMIT apply to the joined rows.
UPDATE m1, m2 SET m2.y = m1.id WHERE m2.id < 100 ORDER BY m1.id DESC, m2.id DESC LIMIT 1
SELECT * FROM m2
-- Multi-table DELETE, both syntaxes.
CREATE TABLE d1 (id INT PRIMARY KEY, v VARCHAR(10))
CREATE TABLE d2 (id INT PRIMARY KEY, w INT)
CREATE TABLE d3 (k INT, note VARCHAR(10))
INSERT INTO d1 VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five')
INSERT INTO d2 VALUES (1, 10), (2, 20), (3, 30), (6, 60)
INSERT INTO d3 VALUES (1, 'a'), (1, 'b'), (3, 'c'), (7, 'd')
DELETE d1, d2 FROM d1, d2 WHERE d1.id = 99
DELETE d1 FROM d1 JOIN d3 ON d1.id = d3.k
SELECT * FROM d1
DELETE FROM d1, d2 USING d1, d2 WHERE d1.id = d2.id AND d1.id = 2
SELECT * FROM d1
SELECT * FROM d2
DELETE d2.*, d3.* FROM d2 JOIN d3 ON d2.id = d3.k
SELECT * FROM d2
SELECT * FROM d3
DELETE p FROM d1 AS p JOIN d1 AS q ON p.id = q.id + 1
SELECT * FROM d1
DELETE FROM p USING d1 AS p LEFT JOIN d2 ON d2.id = p.id WHERE d2.id IS NULL AND p.id > 4
SELECT * FROM d1
DELETE LOW_PRIORITY QUICK IGNORE d1 FROM d1, d2 WHERE d1.id = d2.id
DELETE d1 FROM d1 WHERE d1.id IN (SELECT id FROM d2)
SELECT * FROM d1
-- Errors.
DELETE d9 FROM d1
DELETE d1 FROM d1 AS p WHERE p.id = 3
DELETE d1 FROM d1, d2 WHERE d1.id = d2.id LIMIT 1
DELETE d1 FROM d1, d2 WHERE d1.id = d2.id ORDER BY d1.id
DELETE d1 FROM d1, nosuch
-- A table without a primary key in a multi-table statement.
INSERT INTO d3 VALUES (1, 'x'), (1, 'x'), (2, 'y')
UPDATE d3, d1 SET d3.note = d1.v WHERE d3.k = 1
SELECT * FROM d3
DELETE d3 FROM d3, d1 WHERE d3.note = d1.v
SELECT * FROM d3
-- Single-table modifiers.
CREATE TABLE u (id INT PRIMARY KEY, a INT UNIQUE, s VARCHAR(3))
INSERT INTO u VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c')
UPDATE IGNORE u SET a = 2 WHERE id = 1
SELECT * FROM u
UPDATE IGNORE u SET s = 'abcdef', a = a + 10 WHERE id = 3
SHOW WARNINGS
UPDATE u SET s = 'abcdef' WHERE id = 3
UPDATE IGNORE u SET a = 5
SELECT * FROM u
UPDATE LOW_PRIORITY u SET s = 'lp' WHERE id = 2
UPDATE LOW_PRIORITY IGNORE u SET s = 'lpi' WHERE id = 2
SELECT * FROM u
DELETE IGNORE FROM u WHERE id = 100
DELETE LOW_PRIORITY QUICK IGNORE FROM u WHERE id = 2
DELETE QUICK FROM u WHERE id = 100
SELECT * FROM u
-- sql_safe_updates.
SET sql_safe_updates = 1
UPDATE u SET a = 1
UPDATE u SET a = 1 WHERE s = 'x'
UPDATE u SET a = 1 WHERE s = 'x' LIMIT 1
UPDATE u SET s = 'x' WHERE id = 1
UPDATE u SET s = 'y' WHERE a > 1
DELETE FROM u
DELETE FROM u WHERE s = 'zz'
DELETE FROM u WHERE id > 100
DELETE FROM u WHERE s = 'zz' LIMIT 5
UPDATE u, m1 SET u.s = 'z' WHERE u.id = m1.id
DELETE u FROM u, m1 WHERE u.id = m1.id
SET sql_safe_updates = 0
SELECT * FROM u
UPDATE u, m1 SET u.s = 'z' WHERE u.id = m1.id
SELECT * FROM u
-- One table under two aliases: both changes reach the row; its key may not change.
CREATE TABLE k (pk INT PRIMARY KEY, a INT, b INT)
INSERT INTO k VALUES (0, 0, 0)
UPDATE k AS A, k AS B SET A.pk = 1, B.a = 2
UPDATE k AS A, k AS B SET A.a = 2, B.pk = 1
UPDATE k AS A, k AS B SET A.a = 1, B.b = 2
SELECT * FROM k
-- Correlated subqueries reading the row being changed.
UPDATE m1 SET m1.b = (SELECT MAX(m2.x) FROM m2 WHERE m2.id <= m1.id)
SELECT * FROM m1
UPDATE m1 SET b = 0 WHERE EXISTS (SELECT 1 FROM m2 WHERE m2.id = m1.id + 10)
SELECT * FROM m1
DELETE FROM d1 WHERE NOT EXISTS (SELECT 1 FROM d3 WHERE d3.k = d1.id) AND d1.id > 4
SELECT * FROM d1
UPDATE m1, k SET m1.b = (SELECT COUNT(*) FROM m2 WHERE m2.id > m1.id) + k.a
SELECT * FROM m1
-- An aggregate in WHERE is an error even when no row matches.
CREATE TABLE e (id INT PRIMARY KEY, a INT)
UPDATE e SET a = 1 WHERE COUNT(*) = 1
DELETE FROM e WHERE SUM(a) > 0
UPDATE e, m1 SET e.a = 1 WHERE COUNT(*) = 1
DELETE e FROM e, m1 WHERE MAX(m1.a) > 0
