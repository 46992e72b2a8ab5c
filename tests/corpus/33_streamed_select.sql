-- A plain scan of one table streams its rows as the scan reads them (see
-- crates/sql/src/stream.rs): the same rows, types, warnings and errors as
-- a result built whole, including an error after rows were sent.
CREATE TABLE t (id INT PRIMARY KEY, d DECIMAL(10,3), s VARCHAR(20), k INT, KEY (k))
INSERT INTO t VALUES (1, 1.5, 'a', 10), (2, NULL, 'bb', 20), (3, 2.25, 'ccc', 10), (4, 0, 'dddd', 30), (5, 7.125, NULL, 20)
SELECT * FROM t
SELECT id, d * 2, IF(id > 2, d, 0), CONCAT(s, '!'), k + 1 FROM t WHERE k = 10
SELECT t.id, t.s FROM t WHERE s LIKE 'c%' OR s IS NULL
SELECT id, id DIV 0 FROM t WHERE id < 4
SHOW WARNINGS
SELECT id FROM t WHERE id > 3 LIMIT 5
SELECT id FROM t WHERE k = 10 LIMIT 1 OFFSET 5
SELECT id FROM t LIMIT 0
SELECT SQL_CALC_FOUND_ROWS id FROM t WHERE k = 20
SELECT FOUND_ROWS()
SELECT id, (SELECT x.id FROM t x WHERE x.k = t2.k) FROM t t2 WHERE id >= 4
SELECT id, (SELECT MAX(x.id) FROM t x WHERE x.k = t2.k) FROM t t2
SELECT id FROM t WHERE id IN (SELECT id FROM t WHERE k = 20)
CREATE VIEW v AS SELECT id, s FROM t WHERE id < 3
SELECT * FROM v
SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 't'
SELECT id, @n := id * 10 FROM t WHERE k = 20
SELECT @n
-- ORDER BY streams where an index gives the order, else it sorts as before.
SELECT id, s FROM t ORDER BY id
SELECT id, s FROM t ORDER BY id DESC LIMIT 2
SELECT id, s FROM t WHERE id > 1 ORDER BY 1 DESC LIMIT 2 OFFSET 1
SELECT id AS i, k FROM t ORDER BY i LIMIT 3
SELECT id, k FROM t WHERE k = 10 ORDER BY id
SELECT id, k FROM t WHERE k >= 20 ORDER BY id DESC
SELECT id, s FROM t ORDER BY s, id
SELECT id, d FROM t ORDER BY d DESC, id
SELECT k, id FROM t WHERE id < 5 ORDER BY k, id
SELECT id, id DIV 0 FROM t WHERE k = 20 ORDER BY id
