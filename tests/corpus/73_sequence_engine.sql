-- MariaDB's SEQUENCE engine: seq_FROM_to_TO[_step_STEP] exists in every
-- database without being created (a descending range counts down), is
-- read-only (1031), cannot be created over (1050), refuses step 0 (1030),
-- and is listed by ENGINES and PLUGINS.
SELECT ENGINE, SUPPORT, COMMENT, TRANSACTIONS, XA, SAVEPOINTS FROM information_schema.ENGINES WHERE ENGINE = 'SEQUENCE'
SELECT PLUGIN_NAME, PLUGIN_STATUS, PLUGIN_TYPE FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'SEQUENCE'
SELECT * FROM seq_1_to_5
SELECT * FROM seq_5_to_1_step_2 ORDER BY seq DESC
SELECT seq FROM seq_1_to_0 ORDER BY seq
SELECT * FROM seq_0_to_20_step_7 WHERE seq > 3
SELECT COUNT(*), SUM(seq), MIN(seq), MAX(seq) FROM seq_1_to_100000
SELECT a.seq AS a, b.seq AS b FROM seq_1_to_3 a JOIN seq_2_to_4 b ON a.seq = b.seq ORDER BY a.seq
SELECT seq, seq * seq AS sq FROM seq_1_to_10_step_3 ORDER BY seq
SHOW CREATE TABLE seq_1_to_3
DESC seq_1_to_2
CREATE TABLE squares (n INT PRIMARY KEY, sq INT)
INSERT INTO squares SELECT seq, seq * seq FROM seq_1_to_50
SELECT COUNT(*), SUM(sq) FROM squares
SELECT n FROM squares WHERE n IN (SELECT seq FROM seq_10_to_100_step_10) ORDER BY n
SELECT * FROM seq_1_to_10_step_0
INSERT INTO seq_1_to_3 VALUES (4)
DELETE FROM seq_1_to_3
CREATE TABLE seq_1_to_2 (a INT)
CREATE TABLE seq_x_to_2 (a INT)
DROP TABLE seq_x_to_2
