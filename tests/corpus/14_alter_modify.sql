-- ALTER TABLE MODIFY / CHANGE / RENAME COLUMN with conversion of the data (strict errors, non-strict warnings), FIRST / AFTER.
drop table if exists am
create table am (id int primary key, a int, b varchar(10), c decimal(6,2), d varchar(5) not null default 'x', key kb (b))
insert into am values (1, 10, 'one', 1.5, 'p'), (2, NULL, 'two', 2.25, 'q'), (3, 300, NULL, NULL, 'r')
alter table am modify a bigint
show create table am
alter table am modify b varchar(20) not null default ''
alter table am modify a int not null
alter table am modify c int
select * from am order by id
alter table am change b bee varchar(20)
show create table am
alter table am rename column bee to b
alter table am modify d varchar(5) first
show create table am
select * from am order by id
alter table am modify a int after c
select * from am order by id
alter table am add column e int default 5 after id
select * from am order by id
show create table am
alter table am modify nope int
alter table am change a b int
alter table am rename column nope to x
alter table am modify a tinyint
alter table am modify b int
alter table am modify id bigint
select * from am order by id
alter table am modify id varchar(10)
select * from am where id = '2'
show create table am
set sql_mode = ''
alter table am modify b int
show warnings
select * from am order by id
alter table am modify a tinyint
show warnings
select * from am order by id
set sql_mode = default
create table am2 (k int, v varchar(5), unique key uv (v))
insert into am2 values (1, 'abc'), (2, 'abd')
alter table am2 modify v varchar(2)
set sql_mode = ''
set sql_mode = default
alter table am2 modify k bigint
select * from am2
