-- One-table SELECTs that stream through an external sort (crate::sort): an ORDER BY no index
-- gives, GROUP BY and aggregates. The CI runs this corpus with the default sort_buffer_size; run
-- it with ONELOG_SERVER_ARGS='--sort-buffer-size=1024 --tmp-table-size=0' to take every sort
-- and every group here through files.
CREATE TABLE sg (id INT PRIMARY KEY, g INT, h VARCHAR(20), d DECIMAL(10,2), KEY (g))
INSERT INTO sg VALUES (1, 3, 'b', 1.50), (2, 1, 'a', NULL), (3, 3, 'B', 2.25), (4, 2, NULL, 7.00), (5, 1, 'c', 0.10), (6, NULL, 'a', 3.00), (7, 2, 'á', 1.00), (8, 3, 'b ', 4.75)
SELECT id, h FROM sg ORDER BY h, id
SELECT id, h FROM sg ORDER BY h DESC, id DESC
SELECT id, d FROM sg ORDER BY d DESC LIMIT 3
SELECT id, d FROM sg ORDER BY d LIMIT 2 OFFSET 2
SELECT id FROM sg ORDER BY h LIMIT 0
SELECT id, g * 10 AS x FROM sg WHERE id > 2 ORDER BY x DESC, id
SELECT id FROM sg ORDER BY -g, id
SELECT id, h FROM sg WHERE g = 3 ORDER BY h, id
SELECT g, COUNT(*), SUM(d), MIN(h), MAX(h) FROM sg GROUP BY g
SELECT h, COUNT(*), GROUP_CONCAT(id ORDER BY id) FROM sg GROUP BY h
SELECT h, COUNT(*) FROM sg GROUP BY h ORDER BY COUNT(*) DESC, h
SELECT g, SUM(d) s FROM sg GROUP BY g HAVING s > 2 ORDER BY s
SELECT g, COUNT(*) FROM sg GROUP BY g ORDER BY g DESC LIMIT 2
SELECT g, COUNT(*) FROM sg GROUP BY g LIMIT 2 OFFSET 1
SELECT g, COUNT(*) FROM sg GROUP BY g LIMIT 0
SELECT COUNT(*), SUM(d), AVG(d), MIN(id), MAX(id) FROM sg
SELECT COUNT(*), MAX(h) FROM sg WHERE id > 100
SELECT id, COUNT(*) FROM sg WHERE id > 100
SELECT g, COUNT(*) FROM sg WHERE id > 100 GROUP BY g
SELECT g, id FROM sg GROUP BY g
SELECT g DIV 2 AS half, COUNT(DISTINCT h), STD(d) FROM sg GROUP BY half
SELECT COUNT(*) FROM sg GROUP BY g, h ORDER BY 1, g, h
SELECT g, COUNT(*) FROM sg GROUP BY g ORDER BY NULL
SELECT SQL_CALC_FOUND_ROWS g FROM sg GROUP BY g LIMIT 1
SELECT FOUND_ROWS()
SELECT g FROM sg GROUP BY g
SELECT FOUND_ROWS()
SELECT id, h FROM sg ORDER BY h, id LIMIT 3
SELECT FOUND_ROWS()
SELECT LEFT(h, 1), RIGHT(h, 30), LEFT(id, 2), LEFT(h, g), LEFT(h, 0), LEFT(h, -1) FROM sg ORDER BY id
SELECT LEFT(h, 1) l, COUNT(*) FROM sg GROUP BY h, id ORDER BY l, id

-- HAVING without grouping filters rows as WHERE does, aliases included.
CREATE TABLE hv (a INT, b INT)
INSERT INTO hv VALUES (1,1),(2,2),(3,3),(4,NULL)
SELECT a FROM hv HAVING a > 1
SELECT a, b AS x FROM hv HAVING x >= 2 ORDER BY a
SELECT a + 1 AS y FROM hv HAVING y > 3
SELECT a, ROW_NUMBER() OVER (ORDER BY a) AS r FROM hv HAVING a > 2
SELECT DISTINCT b FROM hv HAVING b IS NOT NULL
SELECT a FROM hv WHERE a < 4 HAVING a > 1 ORDER BY a DESC LIMIT 1
SELECT * FROM hv HAVING b = 2
SELECT a FROM hv HAVING c > 1
SELECT hv.a, h2.b FROM hv JOIN hv AS h2 ON hv.a = h2.a HAVING h2.b > 1
SELECT a FROM hv HAVING a > 1 UNION SELECT 9
SELECT (SELECT a FROM hv HAVING a = 2) AS s
SELECT a FROM hv HAVING COUNT(*) > 2
DROP TABLE hv

-- Index hints: each named key must exist (1176, naming the alias).
CREATE TABLE ih (id INT PRIMARY KEY, fld3 INT, KEY (fld3), KEY Mixed (id, fld3))
INSERT INTO ih VALUES (1,1),(2,2)
EXPLAIN SELECT fld3 FROM ih IGNORE INDEX (fld3,not_used)
SELECT fld3 FROM ih USE INDEX (not_used)
SELECT fld3 FROM ih FORCE INDEX (not_used)
SELECT fld3 FROM ih USE INDEX (fld3) WHERE fld3 = 2
SELECT fld3 FROM ih FORCE INDEX (PRIMARY) WHERE id = 1
SELECT fld3 FROM ih USE INDEX (primary) ORDER BY id
SELECT fld3 FROM ih IGNORE INDEX FOR ORDER BY (mixed) ORDER BY fld3, id
SELECT fld3 FROM ih USE INDEX () ORDER BY fld3, id
SELECT a.fld3 FROM ih a USE INDEX (fld3) JOIN ih b IGNORE KEY (nope) ON a.id = b.id
SELECT * FROM ih USE INDEX (FLD3) WHERE fld3 > 0 ORDER BY id
DROP TABLE ih
