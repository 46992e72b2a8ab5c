-- EXPLAIN of a table found by its whole primary key: MariaDB's const table,
-- read while optimizing (key_len, ref const, one row; Using index when the key
-- holds every column read), or an Impossible WHERE noticed after reading it when
-- the row is missing or fails the WHERE.
create table k1 (t1 char(3) primary key)
insert into k1 values ('ABC'),('ABA'),('AB%')
explain select * from k1 where t1='ABC'
explain select * from k1 where t1='ABCD'
create table k2 (id int primary key, v varchar(10), n int not null)
insert into k2 values (1,'a',1),(2,'b',2)
explain select * from k2 where id = 1
explain select id from k2 where id = 1
explain select * from k2 where id = 1 and n = 2
explain select * from k2 where id = 1 and n = 1
explain select * from k2 where id = 3
explain select v from k2 where id = 2 order by n
create table k3 (a int, b varchar(20), c int, primary key (a, b))
insert into k3 values (1,'x',1)
explain select * from k3 where a = 1 and b = 'x'
explain select c from k3 where a = 1 and b = 'y'
DROP TABLE k1, k2, k3
