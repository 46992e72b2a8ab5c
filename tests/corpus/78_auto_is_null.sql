-- sql_auto_is_null (ODBC): the first SELECT after an INSERT generated an
-- AUTO_INCREMENT value finds that row by `WHERE id IS NULL`; as part of a
-- larger WHERE the condition stays IS NULL. EXPLAIN of `not_null_col IS
-- NULL` is an Impossible WHERE (not for DATE columns: MariaDB reads
-- `d IS NULL` of those as the zero date).
CREATE TABLE ain (a INT AUTO_INCREMENT PRIMARY KEY, b INT NOT NULL, d DATE NOT NULL, n INT)
SET SESSION sql_auto_is_null = 1
INSERT INTO ain (b, d) VALUES (1, '2020-01-01'), (2, '2020-01-02')
SELECT a, b FROM ain WHERE a IS NULL AND b = 2
SELECT a, b, LAST_INSERT_ID() FROM ain WHERE a IS NULL
SELECT a, b FROM ain WHERE a IS NULL
INSERT INTO ain (b, d) VALUES (3, '2020-01-03')
SET SESSION sql_auto_is_null = 0
SELECT a FROM ain WHERE a IS NULL
SET SESSION sql_auto_is_null = 1
SELECT a FROM ain WHERE a IS NULL
SELECT a FROM ain WHERE a IS NULL
SET SESSION sql_auto_is_null = DEFAULT
EXPLAIN SELECT * FROM ain WHERE b IS NULL
EXPLAIN SELECT * FROM ain WHERE n IS NULL
EXPLAIN SELECT * FROM ain WHERE d IS NULL
EXPLAIN SELECT * FROM ain x JOIN ain y ON x.a = y.a WHERE y.b IS NULL
DROP TABLE ain
