-- Row constructors and row subqueries: a ROW is a type that only comparisons, IN and a row's items take;
-- anywhere else MariaDB refuses it when it binds the statement (1241, 4078, 4079), before reading a row.
create table rc1 (a int, b int, c varchar(10))
insert into rc1 values (1,2,'x'),(3,4,'y'),(null,5,'z')
create table rc_empty (i int)
-- Row comparisons and their NULL semantics.
SELECT (1,2,3) = (1,2,3), (1,2,3) = (1,2,4), (1,2,3) <> (1,2,4)
SELECT (1,2,3) = (0,NULL,3), (1,2,3) = (1,NULL,3), (1,2,3) = (1,NULL,0)
SELECT ROW(1,2,3) < ROW(1+1,2,3), ROW(1,2,3) >= ROW(1+1,2,3), ROW(1,NULL,3) < ROW(1,2,3)
SELECT ROW(NULL,2,3) = ROW(NULL,2,3), ROW(NULL,2,3) <=> ROW(NULL,2,3), ROW(NULL,10) <=> ROW(3,NULL)
SELECT ROW(1,2,ROW(3,4,5)) = ROW(1,2,ROW(3,4,5)), ROW('test',2,ROW(3,33)) = ROW('test',2,ROW(3,NULL))
SELECT (1,(2,3)) = ((1),(2,3)), ((1,2)) = (1,2)
SELECT (1,2,3) IN ((3,2,3), (1,2,3), (1,3,3)), row(10,2,3) IN (row(3,NULL,3), row(1,2,3), row(1,3,3))
SELECT row(1,2,row(3,4)) IN (row(3,2,row(3,4)), row(1,2,row(3,NULL)))
SELECT * FROM rc1 WHERE (a,b) = (1,2)
SELECT * FROM rc1 WHERE ROW(1,2) < ROW(a,b) ORDER BY b
SELECT a, (a,b) IN ((1,2),(3,4)) FROM rc1 ORDER BY b
-- Rows of different sizes: 1241 naming the left row's size, nested rows too.
SELECT (1,2) = (1,2,3)
SELECT (1,2,3) = (1,2)
SELECT ROW('test',2,ROW(3,33)) = ROW('test',2,4)
SELECT ROW('test',2,4) = ROW('test',2,ROW(3,33))
SELECT (1,(2,3)) = (1,(2,3,4))
SELECT ROW(1,ROW(2,3)) IN (ROW(1,ROW(2,3)),ROW(1,1))
SELECT ROW(1,ROW(2,3,4)) IN (ROW(1,ROW(2,3,4)),ROW(1,ROW(2,2)))
SELECT ROW(2,1) IN (ROW(21,2),ROW(ROW(1,1,3),0))
SELECT ROW(1,1) IN (ROW(1,1), ROW(1,2,3))
-- A row where a value is wanted: 1241, also over an empty table.
SELECT ROW(1,1)
SELECT 1 FROM rc_empty WHERE ROW(1,1)
SELECT COUNT(*) FROM rc_empty ORDER BY ROW(1,1)
SELECT COUNT(*) FROM rc_empty HAVING (1,1)
SELECT 1 FROM rc_empty GROUP BY ROW(1,1)
SELECT -ROW(1,1)
SELECT NOT ROW(1,1)
SELECT ROW(1,1) AND 1
SELECT ROW(1,1) DIV 1
SELECT ROW(1,1) IS NULL
SELECT ISNULL(ROW(1,1))
SELECT ROW(1,1) BETWEEN 1 AND 2
SELECT ROW(1,1) LIKE 'a'
SELECT COALESCE(ROW(1,1), 1)
SELECT IF(1, ROW(1,1), 2)
SELECT CASE WHEN ROW(1,1) THEN 1 END
SELECT CAST(ROW(1,1) AS CHAR)
SELECT CONCAT('a', ROW(1,1))
SELECT ABS(ROW(1,1))
SELECT SUM(ROW(1,1))
SELECT COUNT(ROW(1,1)) FROM rc_empty
SELECT MAX(ROW(1,1))
SELECT ROW(1,1) COLLATE latin1_bin
SELECT BENCHMARK(1, ROW(1,1))
SET @rc = ROW(1,1)
-- Comparisons of a row with a value, arithmetic, LEAST / GREATEST, IN: 4078 with both types.
SELECT ROW(1,1) = 1
SELECT 1 = ROW(1,1)
SELECT ROW(1,1) <=> 'a'
SELECT ROW(1,1) < 1.5
SELECT ROW(1,1) = 1e0
SELECT ROW(1,1) = NULL
SELECT ROW(1,1) = 12345678901
SELECT ROW(1,1) = DATE'2020-01-01'
SELECT ROW(1,1) = 0x41
SELECT ROW(1,1) = a FROM rc1
SELECT ROW(1,1) = c FROM rc1
SELECT (1,2) = (SELECT 1)
SELECT 1 + ROW(1,1)
SELECT ROW(1,1) - ROW(1,1)
SELECT ROW(1,1) * 1
SELECT ROW(1,1) / 1
SELECT ROW(1,1) % 1
SELECT ROW(1,1) MOD 1
SELECT LEAST(ROW(1,1), ROW(1,1))
SELECT GREATEST(ROW(1,1), 1)
SELECT LEAST(1, 2, ROW(1,1))
SELECT GREATEST('a', 1.5, ROW(1,1))
SELECT 1 IN (2, ROW(1,1), 3)
SELECT ROW(1,1) IN (1, 2)
SELECT 'a' IN (ROW(1,1))
SELECT ROW(1,1) IN (ROW(1,1), 2)
-- Bit operators and functions that check their arguments' type: 4079.
SELECT ROW(1,1) | 1
SELECT 1 & ROW(1,1)
SELECT ROW(1,1) ^ 1
SELECT 1 << ROW(1,1)
SELECT ~ROW(1,1)
SELECT LENGTH(ROW(1,1))
SELECT CHAR_LENGTH(ROW(1,1))
SELECT LOCATE('a', ROW(1,1))
SELECT INSTR(ROW(1,1), 'a')
SELECT DAY(ROW(1,1))
SELECT WEEKOFYEAR(ROW(1,1))
SELECT YEAR(ROW(1,1))
SELECT TIMESTAMPDIFF(SECOND, 1, ROW(1,1))
SELECT EXTRACT(DAY FROM ROW(1,1))
SELECT DATEDIFF(ROW(1,1), 1)
SELECT BENCHMARK(ROW(1,1), '')
SELECT GET_LOCK('x', ROW(1,1))
SELECT JSON_LENGTH('[]', ROW(1,1))
SELECT FIND_IN_SET('', ROW(1,1))
SELECT ROW(1, ROW(1,1) | 1) = ROW(1,1)
-- A function's parameter count is checked before its arguments' types.
SELECT UUID_SHORT(ROW(1,1))
-- Row subqueries: a subquery of n columns is a row operand.
SELECT (1,2) = (SELECT 1, 2)
SELECT (SELECT 1,2) = (1,2), (SELECT 1,2) = (SELECT 3,4), (SELECT 1,2) < (1,3)
SELECT (SELECT 1,2) IN (SELECT 3,4), (SELECT 1,2) IN (SELECT 1,2)
SELECT ((SELECT 1,2),3) = ((1,2),3)
SELECT (SELECT a,b FROM rc1 WHERE a=1) = (1,2)
SELECT (SELECT a,b FROM rc1 WHERE a=7) = (1,2), (SELECT a,b FROM rc1 WHERE a=7) <=> (1,2)
SELECT (SELECT a,b FROM rc1 WHERE a=7) <=> (NULL,NULL)
SELECT (SELECT * FROM rc1 WHERE a = 1) = (1,2,'x')
SELECT (SELECT a,b FROM rc1) = (1,2)
SELECT (SELECT 1,2)
SELECT (SELECT 1,2) = 1
SELECT (SELECT 1,2,3) = (1,2)
SELECT ROW((SELECT 1,2), 3)
SELECT (a,b) IN (SELECT a,b FROM rc1) FROM rc1 ORDER BY b
SELECT (a,b) IN (SELECT a FROM rc1) FROM rc1
SELECT a IN (SELECT a,b FROM rc1) FROM rc1
SELECT (a,b) IN (SELECT a,b FROM rc_empty JOIN rc1 ON i = a) FROM rc1
SELECT EXISTS (SELECT 1,2)
-- A row assigned to a trigger's NEW.col is refused as a cast (4078).
create table rc2 (c1 int, c2 int)
CREATE TRIGGER rc2_bi BEFORE INSERT ON rc2 FOR EACH ROW SET NEW.c1 = ROW(1,1)
INSERT INTO rc2 VALUES (0,0)
DROP TRIGGER rc2_bi
CREATE TRIGGER rc2_bi BEFORE INSERT ON rc2 FOR EACH ROW SET NEW.c1 = (SELECT * FROM rc2)
INSERT INTO rc2 VALUES (0,0)
SELECT COUNT(*) FROM rc2
DROP TABLE rc1, rc2, rc_empty
