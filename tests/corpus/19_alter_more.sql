-- ALTER TABLE beyond columns: ADD / DROP PRIMARY KEY (rows re-keyed, NULLs, duplicates), indexes,
-- SET / DROP DEFAULT, RENAME TO / AS, RENAME TABLE (several, in order, all or none), table options
-- (ENGINE=, COMMENT=, AUTO_INCREMENT=, ALGORITHM=, LOCK=, FORCE, ORDER BY), ALTER DATABASE.
drop table if exists pk1, pk2, pk3, r1, r2, r3, r4, d1, o1, ai1, ai2, ix1
create table pk1 (a int, b varchar(10), c int)
insert into pk1 values (3, 'c', 30), (1, 'a', 10), (2, 'b', 20)
alter table pk1 add primary key (a)
show create table pk1
select * from pk1
select * from pk1 where a = 2
insert into pk1 values (2, 'x', 0)
alter table pk1 add primary key (b)
alter table pk1 drop primary key
show create table pk1
select * from pk1 order by a
insert into pk1 values (2, 'x', 0)
alter table pk1 add primary key (a)
delete from pk1 where b = 'x'
alter table pk1 add primary key (b, a)
show create table pk1
select * from pk1 where b = 'b' and a = 2
alter table pk1 drop primary key, add primary key (c)
show create table pk1
select * from pk1 order by c
alter table pk1 drop primary key, drop primary key
alter table pk1 drop index `PRIMARY`
show create table pk1
alter table pk1 drop primary key
create table pk2 (a int, b int, key kb (b))
insert into pk2 values (1, 10), (NULL, 20), (3, 30)
alter table pk2 add primary key (a)
select * from pk2 order by b
set session sql_mode = ''
alter table pk2 add primary key (a)
show create table pk2
select * from pk2 order by a
select * from pk2 where b = 20
set session sql_mode = default
create table pk3 (id int not null, v int)
insert into pk3 values (1, 1), (1, 2)
alter table pk3 add primary key (id)
alter table pk3 add unique key uv (v)
alter table pk3 add column n int auto_increment primary key first
select * from pk3 order by n
show create table pk3
insert into pk3 (id, v) values (5, 5)
select * from pk3 order by n
create index iv on pk3 (v)
create unique index uid on pk3 (id, v)
show create table pk3
drop index iv on pk3
drop index uid on pk3
drop index nope on pk3
create table d1 (a int, b varchar(10) not null, c datetime)
alter table d1 alter column a set default 7
alter table d1 alter b set default 'bee', alter column c set default '2024-01-02 03:04:05'
show create table d1
insert into d1 () values ()
select * from d1
alter table d1 alter column a drop default, alter column b drop default
show create table d1
insert into d1 (c) values (null)
insert into d1 (b) values ('z')
select * from d1 order by b
alter table d1 alter column nope set default 1
alter table d1 alter column a set default 'abc'
alter table d1 alter column b set default null
alter table d1 alter column a set default null
show create table d1
create table r1 (id int primary key, v varchar(5))
insert into r1 values (1, 'one'), (2, 'two')
create table r2 (x int)
alter table r1 rename to r3
select * from r3 order by id
select * from r1
alter table r3 rename as r1
alter table r1 rename r4
alter table r4 rename to r2
alter table r4 rename to r1, add column w int default 9
select * from r1 order by id
rename table r1 to r3, r2 to r1, r3 to r2
select * from r2 order by id
select * from r1
rename table r2 to r3, nope to r4
show tables
rename table r2 to r1
rename table nope to r4
rename table r2 to r3, r3 to r4
select * from r4 order by id
create table o1 (id int primary key, v int)
insert into o1 values (1, 3), (2, 1), (3, 2)
alter table o1 engine = InnoDB
alter table o1 engine = MyISAM
show create table o1
alter table o1 engine = heap
show create table o1
alter table o1 engine = aria
alter table o1 engine = innodb
alter table o1 engine = nosuch
alter table o1 force
alter table o1 comment = 'a comment', engine = InnoDB
show create table o1
alter table o1 comment 'it''s another'
show create table o1
alter table o1 algorithm = inplace, lock = none, add column w int
alter table o1 algorithm = copy
alter table o1 algorithm = instant, lock = shared
alter table o1 lock = exclusive, algorithm = default
alter table o1 algorithm = bogus
alter table o1 lock = bogus
alter table o1 order by v
select * from o1 order by id
show create table o1
create table ai1 (id int auto_increment primary key, v int) auto_increment = 50
show create table ai1
insert into ai1 (v) values (1)
select * from ai1
show create table ai1
alter table ai1 auto_increment = 10
show create table ai1
alter table ai1 auto_increment = 1000
show create table ai1
insert into ai1 (v) values (2)
select * from ai1 order by id
create table ai2 (v int) auto_increment = 100
show create table ai2
create table ix1 (a int, b varchar(20), c int)
alter table ix1 add index (a), add unique (b), add key kc (c)
show create table ix1
alter table ix1 drop index a, drop key b, add index kab (a, b)
show create table ix1
alter table ix1 add index kc (a)
alter table ix1 drop index kc, drop index kc
create table ci (a int, b int)
create index if not exists i1 on ci (a)
create index if not exists i1 on ci (b)
show create table ci
create or replace index i1 on ci (a, b)
show create table ci
create or replace unique index i2 on ci (b)
create or replace index if not exists i3 on ci (b)
drop index if exists i1 on ci
drop index if exists i1 on ci
show create table ci
alter table ci add column c int, disable keys
alter table ci enable keys
alter table ci disable keys
alter table ci rename to ci2, enable keys
alter table ci2 drop key i2, add key kc (c)
show create table ci2
drop table ci2
create table kp (a int, b varchar(10), c text, d varbinary(8), key kb (b(10)), key kc (c(5) desc, a desc), unique ud (d(3)), key ke (b(4), a))
show create table kp
select index_name, seq_in_index, column_name, collation, sub_part from information_schema.statistics where table_schema = database() and table_name = 'kp' order by index_name, seq_in_index
create table kp2 (a int, key (a(2)))
create table kp2 (b varchar(10), key (b(11)))
create index kx on kp (c(20), b desc)
alter table kp add unique key uc (c(8)), add key kd (d desc)
show create table kp
insert into kp values (1, 'abcdefghij', 'long text value', 'bin'), (2, 'abcdefghik', 'other text', 'bio')
select a from kp where b = 'abcdefghik'
select a from kp where c = 'long text value'
alter table kp drop index kb, drop index kc, drop index ud
show create table kp
drop table kp
alter database wrong upgrade data directory name
alter database `#mysql50#` upgrade data directory name
alter database `#mysql50#upgrade-me` upgrade data directory name
alter database character set utf8mb4
alter database character set = utf8mb4 collate = utf8mb4_general_ci
alter schema default character set utf8mb4
drop table pk1, pk2, pk3, r4, d1, o1, ai1, ai2, ix1
