-- CAST(... AS CHAR(n)) cuts the text to n characters and CAST(... AS
-- BINARY(n)) cuts or zero-pads the bytes to n, warning 1292 for what is
-- cut; both are nullable VARCHARs of that length. A choice between a
-- binary and a case-insensitive string (IF, IFNULL, COALESCE, CASE) sorts
-- and compares by bytes.
SELECT CAST('abcdef' AS CHAR(2)), CAST('abc' AS BINARY(5)) = 'abc\0\0', CONVERT('xyz', CHAR(1)), CAST('héllo' AS CHAR(2))
SHOW WARNINGS
SELECT CAST(12345 AS CHAR(3)), CAST('ab' AS BINARY(1)), CAST(123 AS CHAR), CAST('x' AS BINARY), HEX(CAST('a' AS BINARY(3)))
SHOW WARNINGS
CREATE TABLE cl89 (id INT PRIMARY KEY, u INT, st VARCHAR(10))
INSERT INTO cl89 VALUES (1, 1, 'a'), (2, 1, 'A'), (3, 0, 'aa'), (4, 0, 'AA'), (5, 1, 'BBB'), (6, 0, 'a'), (7, 0, 'aaa')
SELECT id, CAST(st AS CHAR(1)), CAST(st AS BINARY(2)) FROM cl89 ORDER BY id
SELECT IF(u = 1, BINARY st, st) s FROM cl89 ORDER BY s
SELECT IF(u = 1, st, BINARY st) s FROM cl89 WHERE st LIKE '%a%' ORDER BY s
SELECT COALESCE(BINARY st, st) s FROM cl89 ORDER BY s
SELECT CASE WHEN u = 1 THEN st ELSE BINARY st END s FROM cl89 ORDER BY s
CREATE TABLE cl89c AS SELECT CAST(st AS CHAR(2)) AS c2, CAST(st AS BINARY(4)) AS b4 FROM cl89
SHOW CREATE TABLE cl89c
