-- mysql.proc, the table MariaDB keeps stored routines in: its columns and
-- their types, each column's value as MariaDB stores it, and the table in
-- SELECTs (filters, joins, grouping, ENUM and SET numbers). Timestamps
-- (created, modified) are compared only as ordered. Writes to it and who
-- may read it: tests/test_proc_table.py.
CREATE DEFINER=root@localhost PROCEDURE p1(IN a INT, OUT b VARCHAR(10)) COMMENT 'hi' SELECT a
CREATE DEFINER=root@localhost FUNCTION f1(x INT) RETURNS INT DETERMINISTIC RETURN x + 1
CREATE DEFINER=root@localhost FUNCTION f2(s VARCHAR(20) CHARSET latin1) RETURNS VARCHAR(20) CHARSET latin1 NO SQL SQL SECURITY INVOKER RETURN s
CREATE DEFINER=root@localhost PROCEDURE p2() READS SQL DATA BEGIN SELECT 1; END
CREATE DEFINER=`root`@`localhost` PROCEDURE P3(INOUT c DECIMAL(5,2)) MODIFIES SQL DATA COMMENT 'it''s é' SET c = c * 2
CREATE DEFINER=root@localhost FUNCTION f3() RETURNS TEXT CHARSET utf8mb4 READS SQL DATA RETURN 'ü'
SELECT * FROM mysql.proc WHERE 0
SELECT db = DATABASE(), name, type, specific_name, language FROM mysql.proc WHERE db = DATABASE() ORDER BY name, type
SELECT name, sql_data_access, is_deterministic, security_type FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, param_list, returns, body FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, definer, comment FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, character_set_client, collation_connection, db_collation FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, body_utf8, aggregate FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, sql_mode, sql_mode = @@sql_mode FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name, created <= modified, created <= NOW(), YEAR(created) > 2000 FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT body FROM mysql.proc WHERE db = DATABASE() AND specific_name = 'p1'
SELECT name FROM mysql.proc WHERE db = DATABASE() AND name = 'p3'
SELECT name FROM mysql.proc WHERE db = DATABASE() AND name LIKE 'f%' ORDER BY name DESC
SELECT COUNT(*) FROM mysql.proc WHERE db = DATABASE() AND type = 'FUNCTION'
SELECT type, COUNT(*) FROM mysql.proc WHERE db = DATABASE() GROUP BY type ORDER BY type
SELECT name FROM mysql.proc WHERE db = DATABASE() AND type IN ('PROCEDURE', 'PACKAGE') ORDER BY name
SELECT name FROM mysql.proc WHERE db = DATABASE() AND FIND_IN_SET('STRICT_TRANS_TABLES', sql_mode) ORDER BY name
SELECT name, LENGTH(param_list), LENGTH(body), LENGTH(body_utf8), LENGTH(returns) FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT COUNT(DISTINCT type), COUNT(DISTINCT definer), COUNT(*) FROM mysql.proc WHERE db = DATABASE()
SELECT name FROM mysql.proc WHERE db = DATABASE() ORDER BY name LIMIT 2 OFFSET 1
SELECT d.name, d.type FROM (SELECT name, type FROM mysql.proc WHERE db = DATABASE()) d ORDER BY d.name
SELECT p.name, r.ROUTINE_TYPE, p.body_utf8 = r.ROUTINE_DEFINITION, p.definer = r.DEFINER FROM mysql.proc p JOIN information_schema.ROUTINES r ON r.ROUTINE_SCHEMA = p.db AND r.ROUTINE_NAME = p.name WHERE p.db = DATABASE() ORDER BY p.name
SELECT p.name, COUNT(x.SPECIFIC_NAME) FROM mysql.proc p LEFT JOIN information_schema.PARAMETERS x ON x.SPECIFIC_SCHEMA = p.db AND x.SPECIFIC_NAME = p.name WHERE p.db = DATABASE() GROUP BY p.name ORDER BY p.name
SELECT name, param_list = '' FROM mysql.proc WHERE db = DATABASE() AND type = 'PROCEDURE' ORDER BY name
SELECT name, CHAR_LENGTH(comment), comment LIKE '%é' FROM mysql.proc WHERE db = DATABASE() ORDER BY name
SELECT name FROM mysql.proc WHERE db = DATABASE() AND name IN (SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_TYPE = 'FUNCTION') ORDER BY name
SELECT EXISTS (SELECT 1 FROM mysql.proc WHERE db = DATABASE() AND name = 'nosuch')
-- The table's definition
SHOW CREATE TABLE mysql.proc
SHOW COLUMNS FROM mysql.proc
SHOW COLUMNS FROM mysql.proc LIKE 's%'
SHOW FULL TABLES FROM mysql LIKE 'proc'
SELECT COUNT(*) FROM mysql.nosuch
-- Changes by the routine statements show at once
ALTER PROCEDURE p1 COMMENT 'changed' SQL SECURITY INVOKER
SELECT name, comment, security_type FROM mysql.proc WHERE db = DATABASE() AND name = 'p1'
ALTER FUNCTION f1 NO SQL
SELECT name, sql_data_access, is_deterministic FROM mysql.proc WHERE db = DATABASE() AND name = 'f1'
DROP PROCEDURE p2
SELECT COUNT(*) FROM mysql.proc WHERE db = DATABASE()
SET sql_mode = 'ANSI,ALLOW_INVALID_DATES,NO_BACKSLASH_ESCAPES'
CREATE DEFINER=root@localhost PROCEDURE p4() SELECT 1
SET sql_mode = DEFAULT
SELECT name, sql_mode FROM mysql.proc WHERE db = DATABASE() AND name = 'p4'
SET NAMES latin1
CREATE DEFINER=root@localhost PROCEDURE p5(v VARCHAR(5)) SELECT 'ñ', v
SET NAMES utf8mb4
SELECT name, body, body_utf8, param_list, character_set_client, collation_connection FROM mysql.proc WHERE db = DATABASE() AND name = 'p5'
CREATE DEFINER=root@localhost PROCEDURE p6() BEGIN /* a comment */ SELECT 1; END
SELECT body FROM mysql.proc WHERE db = DATABASE() AND name = 'p6'
-- A function whose body is a compound statement right after RETURNS
CREATE DEFINER=root@localhost FUNCTION f4() RETURNS INT FOR i IN 1..3 DO RETURN i; END FOR
CREATE DEFINER=root@localhost FUNCTION f5() RETURNS VARCHAR(5) CHARACTER SET latin1 WHILE 1 DO RETURN 'w'; END WHILE
CREATE DEFINER=root@localhost FUNCTION f6() RETURNS INT UNSIGNED REPEAT RETURN 6; UNTIL 1 END REPEAT
CREATE DEFINER=root@localhost FUNCTION f7() RETURNS INT RETURN IF(1, 7, 0)
SELECT f4(), f5(), f6(), f7()
SELECT name, returns, body FROM mysql.proc WHERE db = DATABASE() AND name IN ('f4', 'f5', 'f6', 'f7') ORDER BY name
DROP FUNCTION f3
SELECT name FROM mysql.proc WHERE db = DATABASE() ORDER BY name
