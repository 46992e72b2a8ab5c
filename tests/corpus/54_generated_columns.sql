-- Generated columns (issue 17): [GENERATED ALWAYS] AS (expr) VIRTUAL / STORED / PERSISTENT;
-- the values every write computes (INSERT, INSERT ... SELECT, REPLACE, ON DUPLICATE KEY UPDATE,
-- UPDATE, multi-table UPDATE, BEFORE triggers, ALTER TABLE); 1906 for an assigned value (an error
-- in strict mode, a warning otherwise; DEFAULT and NULL pass); the expressions refused (1901,
-- 1054, 4029, 1903, 1907, 1064); SHOW CREATE TABLE, SHOW COLUMNS, information_schema.COLUMNS.
CREATE TABLE g (id INT PRIMARY KEY, a INT, b INT AS (a + 1) VIRTUAL, c INT GENERATED ALWAYS AS (a * 2) STORED, d VARCHAR(10) AS (concat('x', a)) PERSISTENT, e INT AS (b + 1), UNIQUE KEY (c), KEY (b))
SHOW CREATE TABLE g
SHOW COLUMNS FROM g
SHOW FULL COLUMNS FROM g
SELECT column_name, extra, is_generated, generation_expression, is_nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'g' ORDER BY ordinal_position
INSERT INTO g (id, a) VALUES (1, 1)
INSERT INTO g VALUES (2, 2, DEFAULT, DEFAULT, DEFAULT, DEFAULT)
INSERT INTO g VALUES (3, 3, NULL, NULL, NULL, NULL)
INSERT INTO g (id) VALUES (4)
INSERT INTO g VALUES (5, 5, 6, DEFAULT, DEFAULT, DEFAULT)
INSERT INTO g (id, a, c) VALUES (5, 5, 10)
SELECT * FROM g ORDER BY id
SELECT id, b, e FROM g WHERE b = 3
SELECT id FROM g WHERE c = 6
SELECT b, COUNT(*) FROM g GROUP BY b
INSERT INTO g (id, a) VALUES (6, 2)
UPDATE g SET a = a + 10 WHERE id = 1
UPDATE g SET b = 7 WHERE id = 1
UPDATE g SET b = DEFAULT, a = 20 WHERE id = 1
UPDATE g SET b = NULL WHERE id = 2
SELECT * FROM g ORDER BY id
INSERT INTO g (id, a) VALUES (2, 30) ON DUPLICATE KEY UPDATE a = VALUES(a) + 1
INSERT INTO g (id, a) VALUES (2, 30) ON DUPLICATE KEY UPDATE c = 5
REPLACE INTO g (id, a) VALUES (3, 40)
INSERT INTO g (id, a) SELECT id + 100, a FROM g WHERE id < 3
INSERT INTO g SELECT 200, 1, 1, 1, 1, 1
SELECT * FROM g ORDER BY id
UPDATE g SET a = NULL WHERE id = 101
SELECT * FROM g WHERE id > 100 ORDER BY id
SET sql_mode = ''
INSERT INTO g VALUES (7, 7, 1, 2, 'z', 4)
INSERT INTO g (id, a) VALUES (7, 70) ON DUPLICATE KEY UPDATE b = 5
UPDATE g SET e = 1 WHERE id = 7
INSERT IGNORE INTO g (id, a, b) VALUES (8, 8, 9)
SELECT * FROM g WHERE id IN (7, 8) ORDER BY id
SET sql_mode = DEFAULT
INSERT IGNORE INTO g (id, a, b) VALUES (9, 9, 9)
SELECT * FROM g WHERE id = 9
-- Values the column cannot hold: the stored form, or the column's error.
CREATE TABLE gt (a VARCHAR(5), b VARCHAR(2) AS (concat(a, 'zz')) STORED, n INT, q INT AS (n DIV 0) STORED)
INSERT INTO gt (a) VALUES ('abc')
INSERT INTO gt (a) VALUES ('a')
INSERT INTO gt (n) VALUES (1)
SET sql_mode = ''
INSERT INTO gt (a, n) VALUES ('abc', 2)
SET sql_mode = DEFAULT
SELECT * FROM gt
-- Printed forms.
CREATE TABLE gp (a INT, s VARCHAR(20), b INT AS (a + 1 * 2 - (a)) VIRTUAL, c VARCHAR(20) AS (if(a > 1, 'x', lower('Y'))) STORED, d INT AS (-a) STORED, e INT AS (a) STORED, f VARCHAR(20) AS (upper(substring(s, 2))) VIRTUAL COMMENT 'f', g INT AS (a) VIRTUAL UNIQUE)
SHOW CREATE TABLE gp
SELECT column_name, generation_expression FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'gp' ORDER BY ordinal_position
-- Refused definitions.
CREATE TABLE gx (a INT, b INT AS (c + 1), c INT AS (a + 1))
CREATE TABLE gx (a INT, b INT AS (b + 1))
CREATE TABLE gx (a INT, b INT AS (rand()) STORED)
CREATE TABLE gx (a INT, b DATETIME AS (now()) STORED)
CREATE TABLE gx (a INT, b VARCHAR(40) AS (uuid()) PERSISTENT)
CREATE TABLE gx (a INT, b INT AS (@x) STORED)
CREATE TABLE gx (a INT, b INT AS (connection_id()) STORED)
CREATE TABLE gx (a INT, b INT AS ((SELECT 1)))
CREATE TABLE gx (a INT, b INT AS (sum(a)))
CREATE TABLE gx (a INT, b INT AS (nosuch + 1))
CREATE TABLE gx (a INT, b INT AS (a + 1) NOT NULL)
CREATE TABLE gx (a INT, b INT NOT NULL AS (a + 1))
CREATE TABLE gx (a INT, b INT AS (a + 1) DEFAULT 5)
CREATE TABLE gx (a INT, b INT AS (a) PRIMARY KEY)
CREATE TABLE gx (a INT, b INT AS (a + 1) VIRTUAL VIRTUAL)
CREATE TABLE gx (a INT, b INT AS (a + 1) VIRTUAL, PRIMARY KEY (b))
CREATE TABLE gx (a INT, b INT AS (a + 1) STORED, PRIMARY KEY (b))
CREATE TABLE gx (a INT, b INT AS (a) VIRTUAL, c INT DEFAULT (b))
CREATE TABLE gx (a INT, b INT AS (a + 1) STORED CHECK (b > 0))
INSERT INTO gx (a) VALUES (1)
INSERT INTO gx (a) VALUES (-5)
SHOW CREATE TABLE gx
-- ALTER TABLE.
CREATE TABLE gl (id INT PRIMARY KEY, a INT)
INSERT INTO gl VALUES (1, 1), (2, 2), (3, NULL)
ALTER TABLE gl ADD COLUMN v INT AS (a * 3) VIRTUAL
ALTER TABLE gl ADD COLUMN s INT AS (a * 4) STORED
ALTER TABLE gl ADD COLUMN w INT AS (v + s), ADD KEY (w)
SELECT * FROM gl ORDER BY id
SELECT id FROM gl WHERE w = 7
ALTER TABLE gl MODIFY s INT AS (a * 5) STORED
ALTER TABLE gl MODIFY v BIGINT AS (a + 2) VIRTUAL
SELECT * FROM gl ORDER BY id
ALTER TABLE gl MODIFY v INT AS (a + 2) STORED
ALTER TABLE gl MODIFY s INT
ALTER TABLE gl MODIFY a INT AS (id) STORED
ALTER TABLE gl ADD UNIQUE KEY (s)
ALTER TABLE gl DROP COLUMN a
SHOW CREATE TABLE gl
CREATE TABLE gu (id INT PRIMARY KEY, a INT, u INT AS (a % 2) STORED, UNIQUE KEY (u))
INSERT INTO gu (id, a) VALUES (1, 1), (2, 2)
INSERT INTO gu (id, a) VALUES (3, 3)
INSERT IGNORE INTO gu (id, a) VALUES (3, 3)
UPDATE gu SET a = 4 WHERE id = 1
SELECT * FROM gu ORDER BY id
-- Multi-table UPDATE and a BEFORE trigger changing the row.
CREATE TABLE gm (id INT PRIMARY KEY, a INT, b INT AS (a + 1000) STORED)
INSERT INTO gm (id, a) VALUES (1, 1), (2, 2)
UPDATE gm JOIN gu ON gm.id = gu.id SET gm.a = gu.a + 50
UPDATE gm JOIN gu ON gm.id = gu.id SET gm.b = 5
SELECT * FROM gm ORDER BY id
CREATE TRIGGER gm_bi BEFORE INSERT ON gm FOR EACH ROW SET NEW.a = NEW.a * 100
CREATE TRIGGER gm_bu BEFORE UPDATE ON gm FOR EACH ROW SET NEW.a = NEW.a + 7
INSERT INTO gm (id, a) VALUES (3, 3)
UPDATE gm SET a = 10 WHERE id = 1
SELECT * FROM gm ORDER BY id
-- CREATE ... SELECT copies values, not expressions; LIKE keeps them.
CREATE TABLE gs SELECT * FROM gm
SHOW CREATE TABLE gs
CREATE TABLE gk LIKE gm
SHOW CREATE TABLE gk
INSERT INTO gk (id, a) VALUES (1, 1)
SELECT * FROM gk
-- A generated column may read an earlier one, a later plain column, the AUTO_INCREMENT column if VIRTUAL.
CREATE TABLE gi (id INT AUTO_INCREMENT PRIMARY KEY, y INT AS (id + 1) STORED)
CREATE TABLE gi (id INT AUTO_INCREMENT PRIMARY KEY, x INT AS (id * 10) VIRTUAL, y INT AS (x + 1) STORED)
CREATE TABLE gi (id INT AUTO_INCREMENT PRIMARY KEY, x INT AS (id * 10) VIRTUAL, y INT AS (x + z) VIRTUAL, z INT, KEY (x))
CREATE TABLE gi (id INT AUTO_INCREMENT PRIMARY KEY, x INT AS (id * 10) VIRTUAL, y INT AS (x + z) VIRTUAL, z INT, KEY (z))
INSERT INTO gi (z) VALUES (1), (2)
SELECT * FROM gi ORDER BY id
