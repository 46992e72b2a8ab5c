-- CHECK constraints: column and table constraints, their names, SHOW
-- CREATE TABLE, information_schema, enforcement by INSERT / UPDATE /
-- INSERT IGNORE / ON DUPLICATE KEY UPDATE, ALTER TABLE ADD / DROP
-- CONSTRAINT, and check_constraint_checks.
CREATE TABLE ck1 (id INT PRIMARY KEY, a INT CHECK (a > 0), b INT, c VARCHAR(10) CHECK (c <> 'bad'), CHECK (b < a), CONSTRAINT named CHECK (b IS NULL OR b >= 0))
SHOW CREATE TABLE ck1
INSERT INTO ck1 VALUES (1, 5, 2, 'ok')
INSERT INTO ck1 VALUES (2, 0, NULL, 'x')
INSERT INTO ck1 VALUES (3, 5, 7, 'x')
INSERT INTO ck1 VALUES (4, 5, -1, 'x')
INSERT INTO ck1 VALUES (5, 5, 1, 'bad')
INSERT INTO ck1 VALUES (6, NULL, NULL, NULL)
INSERT INTO ck1 VALUES (7, 3, 1, 'a'), (8, -3, 1, 'b'), (9, 4, 1, 'c')
SELECT * FROM ck1 ORDER BY id
INSERT IGNORE INTO ck1 VALUES (10, 3, 1, 'a'), (11, -3, 1, 'b'), (12, 4, 1, 'c')
SHOW WARNINGS
SELECT * FROM ck1 ORDER BY id
UPDATE ck1 SET a = -1 WHERE id = 1
UPDATE ck1 SET b = 100 WHERE id = 1
UPDATE ck1 SET a = a + 1
SELECT * FROM ck1 ORDER BY id
INSERT INTO ck1 VALUES (1, 5, 2, 'ok') ON DUPLICATE KEY UPDATE a = -5
INSERT INTO ck1 VALUES (1, 5, 2, 'ok') ON DUPLICATE KEY UPDATE a = 50
SELECT * FROM ck1 ORDER BY id
SELECT constraint_schema = database(), table_name, constraint_name, level, check_clause FROM information_schema.check_constraints WHERE table_name = 'ck1' ORDER BY constraint_name
SELECT constraint_name, table_name, constraint_type FROM information_schema.table_constraints WHERE table_schema = database() AND table_name = 'ck1' ORDER BY constraint_name
CREATE TABLE ck2 (a INT, b INT, CONSTRAINT CONSTRAINT_1 CHECK (b < 100), CHECK (a + b > 0), CHECK (a < 100))
CREATE TABLE ck2 (a INT, b INT, CHECK (a + b > 0), CHECK (a < 100))
SHOW CREATE TABLE ck2
CREATE TABLE ck3 (a INT, CONSTRAINT x CHECK (a > 0), CONSTRAINT x CHECK (a < 9))
CREATE TABLE ck3 (a INT CHECK (nosuch > 0))
CREATE TABLE ck3 (a INT, CHECK (nosuch > 0))
CREATE TABLE ck3 (a INT, b VARCHAR(5), CHECK (a BETWEEN 1 AND 10 AND b IN ('x', 'y') OR a IS NULL), CHECK (LENGTH(b) < 4 AND UPPER(b) = b), CHECK (NOT (a = 5)))
SHOW CREATE TABLE ck3
INSERT INTO ck3 VALUES (5, 'X')
INSERT INTO ck3 VALUES (4, 'X')
INSERT INTO ck3 VALUES (4, 'x')
INSERT INTO ck3 VALUES (NULL, 'AB')
SELECT * FROM ck3 ORDER BY a
CREATE TABLE ck4 (id INT PRIMARY KEY, v INT)
INSERT INTO ck4 VALUES (1, 10), (2, 20), (3, -5)
ALTER TABLE ck4 ADD CONSTRAINT pos CHECK (v > 0)
ALTER TABLE ck4 ADD CHECK (v < 100)
SHOW CREATE TABLE ck4
INSERT INTO ck4 VALUES (4, 200)
DELETE FROM ck4 WHERE id = 3
ALTER TABLE ck4 ADD CONSTRAINT pos CHECK (v > 0)
ALTER TABLE ck4 ADD CONSTRAINT pos CHECK (v > 0)
SHOW CREATE TABLE ck4
INSERT INTO ck4 VALUES (5, -1)
ALTER TABLE ck4 DROP CONSTRAINT pos
ALTER TABLE ck4 DROP CONSTRAINT pos
ALTER TABLE ck4 DROP CONSTRAINT IF EXISTS pos
SHOW WARNINGS
INSERT INTO ck4 VALUES (5, -1)
SHOW CREATE TABLE ck4
ALTER TABLE ck4 ADD COLUMN w INT CHECK (w <> 7)
SHOW CREATE TABLE ck4
INSERT INTO ck4 VALUES (6, 1, 7)
ALTER TABLE ck4 MODIFY w BIGINT
SHOW CREATE TABLE ck4
INSERT INTO ck4 VALUES (6, 1, 7)
ALTER TABLE ck4 MODIFY w INT CHECK (w < 50)
INSERT INTO ck4 VALUES (7, 1, 70)
SHOW CREATE TABLE ck4
ALTER TABLE ck4 DROP COLUMN w
SHOW CREATE TABLE ck4
SET SESSION check_constraint_checks = OFF
INSERT INTO ck1 VALUES (20, -20, 0, 'bad')
SET SESSION check_constraint_checks = ON
INSERT INTO ck1 VALUES (21, -20, 0, 'bad')
SELECT * FROM ck1 WHERE id >= 20 ORDER BY id
CREATE TABLE ck5 LIKE ck1
SHOW CREATE TABLE ck5
INSERT INTO ck5 VALUES (1, -1, 0, 'x')
CREATE TABLE ck6 (a INT CHECK (a > 0)) SELECT 5 AS a
CREATE TABLE ck7 (a INT CHECK (a > 0)) SELECT -5 AS a
SHOW TABLES LIKE 'ck7'
SELECT * FROM ck6
DROP TABLE ck1, ck2, ck3, ck4, ck5, ck6
CREATE TABLE js (id INT PRIMARY KEY, j JSON, k JSON NOT NULL DEFAULT '{}')
SHOW CREATE TABLE js
INSERT INTO js VALUES (1, '{"a": 1}', '[]')
INSERT INTO js VALUES (2, 'nope', '1')
INSERT INTO js (id) VALUES (3)
INSERT INTO js VALUES (4, NULL, '"s"')
INSERT INTO js VALUES (5, '[1, 2', '{}')
SELECT id, j, k, JSON_TYPE(k) FROM js ORDER BY id
UPDATE js SET k = 'x' WHERE id = 1
SELECT column_name, data_type, column_type, character_set_name, collation_name FROM information_schema.columns WHERE table_schema = database() AND table_name = 'js' ORDER BY ordinal_position
SELECT constraint_name, level, check_clause FROM information_schema.check_constraints WHERE constraint_schema = database() AND table_name = 'js' ORDER BY constraint_name
ALTER TABLE js ADD COLUMN m JSON
SHOW CREATE TABLE js
DROP TABLE js
