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
