-- A correlated subquery in the select list sees the outer row's columns, also those the select list itself returns.
create table cs5 (a int)
insert into cs5 values (1),(2),(3)
create table cs3 (b int)
insert into cs3 values (1),(2),(3)
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE cs5.a <= cs3.b) FROM cs3
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE a <= b) FROM cs3
SELECT b, (SELECT sum(a) FROM cs5 WHERE a = b) FROM cs3
SELECT b FROM cs3 WHERE (SELECT COUNT(*) FROM cs5 WHERE a <= b) >= 2
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE a <= b) c FROM cs3 ORDER BY c DESC
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE a <= c.b) FROM cs3 c
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE a <= b) FROM cs3 ORDER BY b
SELECT b, (SELECT COUNT(*) FROM cs5 WHERE a <= b) FROM cs3 LIMIT 5
SELECT b, (SELECT a+b FROM cs5 ORDER BY a LIMIT 1), (SELECT b FROM cs5 LIMIT 1) FROM cs3
DROP TABLE cs3, cs5
