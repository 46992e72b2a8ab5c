-- What a join reads of each table: a table whose read columns a secondary
-- index holds is scanned through that index ("Using index"), in a join too,
-- counting the columns ON conditions and correlated subqueries name. A
-- condition every branch of an OR repeats still drives an index lookup.
-- Also EXTRACT of a time-like string past 838 hours (an interval, unclamped)
-- and UNIX_TIMESTAMP of a string computed per row (six decimals).
CREATE TABLE jr1 (a INT PRIMARY KEY)
INSERT INTO jr1 VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9)
CREATE TABLE jr2 (b INT NOT NULL, c INT DEFAULT NULL, d INT NOT NULL, e INT NOT NULL, UNIQUE KEY (d,b,c))
INSERT INTO jr2 VALUES (1,NULL,1,1),(1,NULL,2,2),(1,NULL,3,3),(1,NULL,4,4),(2,NULL,1,2),(3,NULL,1,3),(4,NULL,2,2),(4,NULL,1,4)
SELECT b FROM jr2 LEFT JOIN jr1 ON a = b
SELECT (SELECT SUM(x.e) FROM jr2 x WHERE x.b = a AND x.c <=> jr2.c AND x.d = 1) s FROM jr2 LEFT JOIN jr1 ON a = b
SELECT (SELECT SUM(x.e) FROM jr2 x WHERE x.b = jr2.e) s, b FROM jr2 JOIN jr1 ON a = b
SELECT b, d FROM jr2 JOIN jr1 ON a = jr2.e WHERE a > 2
SELECT jr2.b, y.e FROM jr2 JOIN jr2 y ON y.d = jr2.d AND y.b = jr2.b WHERE jr2.c IS NULL
EXPLAIN SELECT b, d FROM jr2
EXPLAIN SELECT b, e FROM jr2
SELECT a, e FROM jr1, jr2 WHERE a = b AND d = 1 AND e > 1 OR a = b AND d = 1
SELECT a, e FROM jr1, jr2 WHERE (a = 3 AND b = 3) OR (a = 3 AND e = 4) OR (b = 3 AND a = 3)
SELECT a FROM jr1 WHERE a = 2 AND a > 1 OR a = 2
CREATE TABLE jr3 (Zeit TIME, Tag TINYINT NOT NULL, Monat TINYINT NOT NULL, Jahr SMALLINT NOT NULL)
INSERT INTO jr3 VALUES ('09:26:00', 16, 9, 1998), ('09:26:00.5', 16, 9, 1998)
SET time_zone = '+03:00'
SELECT UNIX_TIMESTAMP(CONCAT(Jahr, '-', Monat, '-', Tag, ' ', Zeit)) FROM jr3
SELECT UNIX_TIMESTAMP('1998-9-16 09:26:00'), UNIX_TIMESTAMP(19980916092600.5)
SET time_zone = DEFAULT
SELECT EXTRACT(HOUR FROM '100000:02:03'), EXTRACT(HOUR FROM '100000:02:03 '), EXTRACT(DAY FROM '100000:02:03'), EXTRACT(DAY_HOUR FROM '-100000:02:03')
SELECT EXTRACT(MINUTE FROM '10:62:03'), EXTRACT(HOUR FROM '10:02:03 abc'), HOUR('100000:02:03')
DROP TABLE jr1, jr2, jr3
