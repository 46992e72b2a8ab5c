-- Expression DEFAULTs (MariaDB 10.2+): kept in MariaDB's printed form, computed per row
-- after the given values and the constant defaults, in column order.
CREATE TABLE de (a INT DEFAULT (1+1), b INT DEFAULT (a*2), c VARCHAR(20) DEFAULT (concat('x', a)), e INT DEFAULT (1), f DATETIME DEFAULT (now()), g INT DEFAULT -1, h DOUBLE DEFAULT (rand()), i VARCHAR(36) DEFAULT (uuid()))
SHOW CREATE TABLE de
INSERT INTO de (a) VALUES (5)
INSERT INTO de () VALUES ()
INSERT INTO de (a, b) VALUES (7, DEFAULT)
SELECT a, b, c, e, g FROM de ORDER BY a
SELECT column_name, column_default FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'de' ORDER BY ordinal_position
CREATE TABLE de2 (a INT DEFAULT (b+1), b INT DEFAULT 3)
INSERT INTO de2 () VALUES ()
SELECT * FROM de2
UPDATE de2 SET a = DEFAULT, b = 10
SELECT * FROM de2
UPDATE de2 SET b = 20, a = DEFAULT
SELECT * FROM de2
INSERT INTO de2 SET b = 7
SELECT * FROM de2 ORDER BY b
INSERT INTO de2 (b) SELECT 40
SELECT * FROM de2 ORDER BY b
CREATE TABLE de4 (a INT DEFAULT (zz + 1))
CREATE TABLE de5 (a INT DEFAULT (count(*)))
ALTER TABLE de2 ALTER a SET DEFAULT (b*100)
INSERT INTO de2 (b) VALUES (1)
SELECT * FROM de2 ORDER BY b
SHOW CREATE TABLE de2
CREATE TABLE de6 (a VARCHAR(5), d INT DEFAULT (length(a)+1), j JSON DEFAULT (json_object('k', 1)))
SHOW CREATE TABLE de6
INSERT INTO de6 (a) VALUES ('abc'), (NULL)
SELECT * FROM de6 ORDER BY a
DROP TABLE de, de2, de6
