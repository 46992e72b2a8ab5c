-- CREATE TABLE ... LIKE and CREATE TABLE ... [IGNORE|REPLACE] [AS] SELECT
CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT 'anon', score DECIMAL(6,2), flag TINYINT UNSIGNED NOT NULL DEFAULT 1, note TEXT, code CHAR(3) COLLATE utf8mb4_bin, made DATETIME, UNIQUE KEY uk_name (name), KEY k_score (score, flag)) COMMENT='source table'
INSERT INTO src (name, score, flag, note, code, made) VALUES ('ann', 10.5, 1, 'x', 'AB1', '2024-01-02 03:04:05'), ('bob', NULL, 0, NULL, NULL, NULL), ('cy', 7.25, 2, 'long note', 'c', '2023-12-31 23:59:59')
CREATE TABLE copy LIKE src
SHOW CREATE TABLE copy
SELECT COUNT(*) FROM copy
INSERT INTO copy (name) VALUES ('first')
SELECT id, name, score, flag FROM copy
CREATE TABLE copy LIKE src
CREATE TABLE IF NOT EXISTS copy LIKE src
SHOW WARNINGS
CREATE TABLE nope LIKE missing
CREATE TABLE self_like LIKE self_like
CREATE TABLE copy2 LIKE copy
SHOW CREATE TABLE copy2
CREATE TABLE s1 SELECT * FROM src
SHOW CREATE TABLE s1
SELECT * FROM s1
CREATE TABLE s2 AS SELECT id, name AS who, score FROM src WHERE flag > 0
SHOW CREATE TABLE s2
SELECT * FROM s2
CREATE TABLE s3 (id INT PRIMARY KEY, extra VARCHAR(5) DEFAULT 'e') SELECT id, name FROM src
SHOW CREATE TABLE s3
SELECT * FROM s3
CREATE TABLE s4 (PRIMARY KEY (name)) SELECT name, score FROM src
SHOW CREATE TABLE s4
SELECT * FROM s4
CREATE TABLE s5 SELECT 'abc' AS s, NULL AS z, 1.5 AS d, COUNT(*) AS n FROM src
SELECT * FROM s5
CREATE TABLE s6 SELECT name, note FROM src WHERE 1 = 0
SHOW CREATE TABLE s6
SELECT COUNT(*) FROM s6
CREATE TABLE s1 SELECT 1 AS a
CREATE TABLE IF NOT EXISTS s1 SELECT 99 AS id
SHOW WARNINGS
SELECT COUNT(*) FROM s1
CREATE TABLE dup_col SELECT id, name AS id FROM src
CREATE TABLE dups (k INT NOT NULL, v VARCHAR(5))
INSERT INTO dups VALUES (1, 'a'), (2, 'b'), (1, 'c'), (3, 'd')
CREATE TABLE dup_key (PRIMARY KEY (k)) SELECT k, v FROM dups
SHOW TABLES
CREATE TABLE ign (PRIMARY KEY (k)) IGNORE SELECT k, v FROM dups
SHOW WARNINGS
SELECT COUNT(*) FROM ign WHERE k <> 2
SHOW CREATE TABLE ign
CREATE TABLE rep (PRIMARY KEY (k)) REPLACE SELECT k, v FROM dups
SELECT * FROM rep
CREATE TABLE ign_as (UNIQUE KEY uv (v)) IGNORE AS SELECT v, k FROM dups
SELECT * FROM ign_as
CREATE TABLE from_missing SELECT * FROM missing
SHOW TABLES
CREATE TABLE bad_col SELECT nosuch FROM src
CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20)) SELECT name FROM src
SELECT * FROM ai
INSERT INTO ai (name) VALUES ('next') -- @novalues
SELECT name FROM ai
-- column types derived from the select
CREATE TABLE types_src (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL DEFAULT 'anon', score DECIMAL(6,2), made DATETIME, d DATE, big BIGINT, t TIMESTAMP NULL)
INSERT INTO types_src (name, score, made, d, big) VALUES ('ann', 10.5, '2024-01-02 03:04:05', '2024-01-02', 5), ('bob', NULL, NULL, NULL, -7)
CREATE TABLE lit_str SELECT 'abc' AS s
SHOW CREATE TABLE lit_str
CREATE TABLE lit_null SELECT NULL AS z
SHOW CREATE TABLE lit_null
SELECT * FROM lit_null
CREATE TABLE lit_dec SELECT 1.5 AS d
SHOW CREATE TABLE lit_dec
CREATE TABLE lit_mixed SELECT -12.345 AS n, 'héllo' AS h, '' AS em
SHOW CREATE TABLE lit_mixed
SELECT * FROM lit_mixed
CREATE TABLE from_cols SELECT d, big, t FROM types_src
SHOW CREATE TABLE from_cols
SELECT * FROM from_cols
CREATE TABLE from_join SELECT a.name, b.score, b.name AS other, b.id FROM types_src a LEFT JOIN types_src b ON a.id = b.id + 1
SHOW CREATE TABLE from_join
SELECT * FROM from_join
CREATE TABLE from_using SELECT * FROM types_src s1 JOIN types_src s2 USING (id)
SHOW CREATE TABLE from_using
SELECT COUNT(*) FROM from_using
-- MariaDB's other spellings
CREATE TABLE par (SELECT id, name FROM src)
SHOW CREATE TABLE par
CREATE TABLE par_as AS (SELECT id, name FROM src WHERE id > 1)
SELECT * FROM par_as
CREATE TABLE par_defs (x INT DEFAULT 3) (SELECT id FROM src)
SHOW CREATE TABLE par_defs
SELECT * FROM par_defs
CREATE TABLE like_par (LIKE src)
SHOW CREATE TABLE like_par
CREATE TABLE eng ENGINE=innodb COMMENT='c' AS SELECT name FROM src ORDER BY id LIMIT 1
SHOW CREATE TABLE eng
SELECT * FROM eng
CREATE TABLE ign_par (PRIMARY KEY (k)) IGNORE (SELECT k, v FROM dups WHERE k = 2)
SELECT * FROM ign_par
CREATE TABLE fn_replace SELECT REPLACE(name, 'a', 'b') AS r FROM src
SELECT * FROM fn_replace
CREATE TABLE ign_name SELECT 1 AS ignore_me
SELECT * FROM ign_name
-- errors: nothing is created
CREATE TABLE e_union SELECT 1 UNION SELECT 1, 2
CREATE TABLE src LIKE src
CREATE TABLE e_dup (a INT) SELECT 1 AS a, 2 AS a
CREATE TABLE e_null (a INT NOT NULL) SELECT NULL AS a
CREATE TABLE e_key (KEY (nosuch)) SELECT 1 AS a
CREATE TABLE nodb.e_db SELECT 1 AS a
CREATE TABLE e_star SELECT * FROM src a, src b
CREATE TABLE e_alias SELECT a.id FROM src a, src a
CREATE TABLE e_auto (id INT AUTO_INCREMENT) SELECT 5 AS id
SHOW TABLES
-- a common table expression leads the query
CREATE TABLE cte_as AS WITH c AS (SELECT id, name FROM src) SELECT * FROM c
SELECT * FROM cte_as
CREATE TABLE cte_plain WITH c AS (SELECT 5 AS q) SELECT q FROM c
SELECT * FROM cte_plain
CREATE TABLE cte_rec (PRIMARY KEY (n)) IGNORE WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4) SELECT n FROM r
SELECT * FROM cte_rec
CREATE TABLE sub_in SELECT id, name FROM src WHERE id IN (SELECT id FROM src WHERE name = 'bob')
SELECT * FROM sub_in
-- CREATE TABLE ... SELECT takes the typed binder's column types: SUM of an INT is decimal(32,0), MAX keeps
-- decimal(6,2), decimal(6,2) * 2 is decimal(7,2), INT NOT NULL + 1 is bigint(12) NOT NULL, LENGTH() int(10) NOT NULL.
CREATE TABLE e6 SELECT SUM(id) AS s FROM src
SHOW CREATE TABLE e6
CREATE TABLE e8 SELECT MAX(score) AS m, MIN(made) AS mm FROM src
SHOW CREATE TABLE e8
CREATE TABLE e9 SELECT score * 2 AS p FROM src
SHOW CREATE TABLE e9
CREATE TABLE e15 SELECT id + 1 AS p FROM src
SHOW CREATE TABLE e15
CREATE TABLE e16l SELECT LENGTH(name) AS l FROM src
SHOW CREATE TABLE e16l
