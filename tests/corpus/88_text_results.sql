-- String results over TEXT and BLOB columns are typed as MariaDB types
-- them: CONCAT, UPPER and the padding functions as long as their
-- arguments, a LONGTEXT of MAX_BLOB_WIDTH bytes past it; IF / IFNULL /
-- CASE / COALESCE with a TEXT branch as the smallest BLOB type that holds
-- every branch; MEDIUM / LONG BLOB results say their size.
CREATE TABLE txr (id INT PRIMARY KEY, t TEXT, b BLOB, m MEDIUMTEXT, l LONGBLOB, tt TINYTEXT, v VARCHAR(10), c INT)
INSERT INTO txr VALUES (1, 'a', 'b', 'c', 'd', 'e', 'f', 1), (2, NULL, NULL, NULL, NULL, NULL, NULL, 0)
SELECT CONCAT(t, 'x'), CONCAT(b, 'x'), CONCAT(m, 'x'), CONCAT(l, 'x'), UPPER(m), LOWER(t) FROM txr ORDER BY id
SELECT IFNULL(t, 'x'), IF(c, t, m), COALESCE(t, v), CASE WHEN c THEN tt ELSE v END, IF(c, tt, 'x'), IFNULL(b, l) FROM txr ORDER BY id
SELECT MIN(t), MAX(b), MIN(m) FROM txr
SELECT LEFT(t, 3), SUBSTRING(t, 2), REPLACE(t, 'a', 'bb'), CONCAT_WS(',', t, v), LPAD(tt, 5, 'x'), REVERSE(l), CONCAT(tt, v) FROM txr ORDER BY id
SELECT REPEAT('a', 100000) = '', LENGTH(REPEAT('ab', 40000)), LOAD_FILE('/nonexistent/file')
CREATE TABLE txr2 AS SELECT CONCAT(t, 'x') AS ct, IFNULL(t, 'x') AS it, UPPER(m) AS um, IF(c, tt, 'x') AS ix FROM txr
SHOW CREATE TABLE txr2
SELECT * FROM txr2 ORDER BY ct
