-- SET STATEMENT var = value [, ...] FOR statement: the session variables hold their values for
-- the one statement and are put back after it, also when it fails; names are checked before
-- any value (1193 unknown, 1971 a variable MariaDB marks NO_SET_STATEMENT), then each value as
-- SET checks it (1229 global-only, 1231, 1232); only plain names (no @@, @, SESSION.).
-- (@@sql_mode is read through comparisons: its result metadata differs from MariaDB's however it is set.)
CREATE TABLE ss (id INT PRIMARY KEY, t TINYINT NOT NULL)
SET STATEMENT sql_mode = '' FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = 'ANSI_QUOTES', sort_buffer_size = 100000 FOR SELECT @@sql_mode = 'ANSI_QUOTES', @@sort_buffer_size = 100000
SELECT @@sort_buffer_size = 100000
SET STATEMENT sort_buffer_size = 300000, sort_buffer_size = 200000 FOR SELECT @@sort_buffer_size = 200000
SET STATEMENT sql_mode = concat('AN', 'SI') FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = (SELECT 'TRADITIONAL') FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = DEFAULT FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = 1 FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT time_zone = '+01:00' FOR SELECT @@time_zone = '+01:00'
SELECT @@time_zone = '+01:00'
SET STATEMENT sql_mode = '' FOR INSERT INTO ss VALUES (1, 1000)
SHOW WARNINGS
INSERT INTO ss VALUES (2, 1000)
SET STATEMENT sql_mode = 'STRICT_ALL_TABLES' FOR INSERT INTO ss VALUES (3, 1000)
SET STATEMENT sql_mode = '' FOR INSERT INTO ss VALUES (4, 'abc')
SELECT * FROM ss ORDER BY id
SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = '' FOR SET sql_mode = 'ANSI'
SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = '' FOR SET sort_buffer_size = 100000
SELECT @@sort_buffer_size = 100000
SET sort_buffer_size = DEFAULT
SET STATEMENT sql_mode = '' FOR SET STATEMENT sort_buffer_size = 100000 FOR SELECT @@sql_mode = '', @@sort_buffer_size = 100000
SET STATEMENT sql_mode = '' FOR SET STATEMENT sql_mode = 'ANSI' FOR SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT sql_mode = '' FOR SELECT * FROM nosuch
SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
SET STATEMENT max_error_count = 100000000 FOR SELECT 1
SHOW WARNINGS
SET STATEMENT sql_mode = '' FOR SHOW VARIABLES LIKE 'sql_mode'
SET STATEMENT sql_mode = '' FOR DO 1
SET STATEMENT lc_time_names = 'de_DE' FOR SELECT @@lc_time_names = 'de_DE'
SET STATEMENT nosuch = 1 FOR SELECT 1
SHOW ERRORS
SET STATEMENT sql_mode = 'bogus', nosuch = 1 FOR SELECT 1
SET STATEMENT sql_mode = 'bogus', autocommit = 1 FOR SELECT 1
SET STATEMENT autocommit = 0 FOR SELECT 1
SET STATEMENT character_set_client = latin1 FOR SELECT 1
SET STATEMENT collation_connection = DEFAULT FOR SELECT 1
SET STATEMENT tx_isolation = DEFAULT FOR SELECT 1
SET STATEMENT wait_timeout = DEFAULT FOR SELECT 1
SET STATEMENT max_connections = 1 FOR SELECT 1
SET STATEMENT sql_mode = 'bogus', max_connections = 1 FOR SELECT 1
SET STATEMENT max_connections = 1, sql_mode = 'bogus' FOR SELECT 1
SET STATEMENT sql_mode = NULL FOR SELECT 1
SET STATEMENT sort_buffer_size = 'abc' FOR SELECT 1
SET STATEMENT in_transaction = 1 FOR SELECT 1
SET STATEMENT session.sql_mode = '' FOR SELECT 1
SET STATEMENT @@sql_mode = '' FOR SELECT 1
SET STATEMENT @a = 1 FOR SELECT 1
SET STATEMENT NAMES utf8 FOR SELECT 1
SET STATEMENT sql_mode = '' FOR
SET STATEMENT FOR SELECT 1
SET STATEMENT sql_mode = '' , FOR SELECT 1
SELECT @@sql_mode LIKE '%STRICT_TRANS%', @@sql_mode LIKE '%ANSI%', @@sql_mode = ''
PREPARE ps FROM 'SET STATEMENT sql_mode = '''' FOR SELECT @@sql_mode = '''''
EXECUTE ps
SET STATEMENT sql_mode = '' FOR EXECUTE ps
DEALLOCATE PREPARE ps
SET STATEMENT sql_mode = 'NO_ENGINE_SUBSTITUTION' FOR CREATE TABLE ss2 (a SET('1','2','1'))
SHOW CREATE TABLE ss2
DROP TABLE ss2
-- ROWNUM(): the rows a query block's WHERE accepted so far, plus one while it looks at a row;
-- past WHERE each row keeps its number (select list, GROUP BY's first row, HAVING, ORDER BY);
-- 1 without a table, 0 outside any query. INSERT numbers its VALUES rows, UPDATE and DELETE the
-- rows they match.
CREATE TABLE rn (a INT)
INSERT INTO rn VALUES (3), (5), (5), (3)
SELECT ROWNUM()
SET @r = ROWNUM()
SELECT @r
SELECT a, ROWNUM() FROM rn
SELECT a FROM rn WHERE ROWNUM() <= 2
SELECT a, ROWNUM() FROM rn WHERE ROWNUM() < 2
SELECT a FROM rn WHERE ROWNUM() > 2
SELECT a FROM rn WHERE ROWNUM() = 2
SELECT a FROM rn WHERE ROWNUM() = 1
SELECT a FROM rn WHERE 2 >= ROWNUM()
SELECT a FROM rn WHERE ROWNUM() BETWEEN 2 AND 3
SELECT a FROM rn WHERE ROWNUM() < 3 OR a = 3
SELECT a, ROWNUM() FROM rn WHERE a = 5
SELECT a FROM rn WHERE ROWNUM() <= 3 LIMIT 1, 5
SELECT a, ROWNUM() FROM rn ORDER BY ROWNUM() DESC
SELECT a, ROWNUM() FROM rn WHERE ROWNUM() <= 3 ORDER BY a DESC, 2
SELECT DISTINCT a, ROWNUM() FROM rn
SELECT a, ROWNUM() FROM rn GROUP BY a
SELECT a, ROWNUM() r FROM rn GROUP BY a HAVING r > 1
SELECT a, ROWNUM() FROM rn GROUP BY a HAVING ROWNUM() > 1
SELECT a, COUNT(*), ROWNUM() FROM rn WHERE ROWNUM() > 0 GROUP BY a ORDER BY a DESC
SELECT a, MAX(ROWNUM()), MIN(ROWNUM()) FROM rn GROUP BY a
SELECT COUNT(*), ROWNUM() FROM rn
SELECT SUM(a), ROWNUM() AS r FROM rn WHERE a > 10 HAVING r = 1
SELECT ROWNUM() + 0.5, ROWNUM() * 2 FROM rn
SELECT a, ROWNUM() FROM rn WHERE a IN (SELECT a FROM rn WHERE ROWNUM() <= 1)
SELECT ROWNUM() FROM rn UNION ALL SELECT ROWNUM() FROM rn
SELECT a, ROWNUM() FROM (SELECT a FROM rn ORDER BY a) t
SELECT * FROM (SELECT a, ROWNUM() AS n FROM rn) t WHERE n > 2
SELECT x.a, ROWNUM() FROM rn x JOIN rn y ON x.a = y.a WHERE ROWNUM() <= 5
CREATE TABLE rn2 AS SELECT ROWNUM() AS r FROM rn
SHOW CREATE TABLE rn2
SELECT * FROM rn2
CREATE TABLE rw (a INT NOT NULL PRIMARY KEY, b INT)
INSERT INTO rw VALUES (1, ROWNUM()), (2, ROWNUM()), (3, ROWNUM())
INSERT IGNORE INTO rw VALUES (4, ROWNUM()), (5, ROWNUM()), (5, ROWNUM()), (6, ROWNUM())
SELECT * FROM rw
UPDATE rw SET b = ROWNUM() + 1
SELECT * FROM rw
UPDATE rw SET b = ROWNUM() WHERE a < 10 AND ROWNUM() < 2
SELECT * FROM rw
DELETE FROM rw WHERE a < 10 AND ROWNUM() < 2
DELETE FROM rw WHERE ROWNUM() <= 2
SELECT * FROM rw
INSERT INTO rn2 SELECT a FROM rw WHERE ROWNUM() <= 1
SELECT * FROM rn2
DELETE rw, rn2 FROM rw, rn2 WHERE rw.a = rn2.r + 1 AND ROWNUM() <= 1
SELECT * FROM rw
PREPARE pr FROM 'SELECT a, ROWNUM() FROM rn WHERE ROWNUM() < ?'
SET @n = 3
EXECUTE pr USING @n
DEALLOCATE PREPARE pr
CREATE VIEW rv AS SELECT a, ROWNUM() AS n FROM rn WHERE ROWNUM() <= 2
SELECT * FROM rv
DROP VIEW rv
DROP TABLE ss, rn, rn2, rw
