-- FOREIGN KEY constraints as InnoDB keeps them: definitions (table and
-- column REFERENCES, names, implicit keys, errno 150 refusals), SHOW CREATE
-- TABLE, information_schema, enforcement (1452 / 1451), CASCADE and SET
-- NULL on DELETE and UPDATE (nested, self-referencing, composite),
-- foreign_key_checks, DROP / TRUNCATE of a parent, ALTER ADD / DROP
-- FOREIGN KEY, dropping a needed key or column, RENAME of a parent, LIKE.
create table p (id int primary key, u int, unique key(u))
create table c (id int primary key, pid int, x int, foreign key (pid) references p(id) on delete cascade, constraint myfk foreign key (x) references p (u) on update set null) 
show create table c
create table c2 (a int references p(id), b int, constraint foreign key fkidx (b) references p(id))
show create table c2
insert into c values (1, 5, null)
insert into p values (1, 10), (2, 20)
insert into c values (1, 1, 10), (2, 2, 20)
delete from p where id = 1
select * from c
update p set u = 21 where id = 2
select * from c
update c set pid = 7 where id = 2
create table c3 (id int, pid int, foreign key (pid) references p(id))
insert into c3 values (1,2)
delete from p
update p set id = 5
drop table p
truncate p
alter table c3 drop column pid
alter table c3 drop foreign key c3_ibfk_1
show create table c3
create table c4 (pid bigint, foreign key (pid) references p(id))
create table c5 (pid int, foreign key (pid) references nosuch(id))
create table c6 (pid int, foreign key (pid) references p(x))
create table c7 (pid int, foreign key (pid) references p(id), foreign key (pid) references p(id))
show create table c7
create table c8 (pid int, key k(pid, id), id int, foreign key (pid) references p(id))
show create table c8
set foreign_key_checks=0
create table c9 (pid int, foreign key (pid) references nosuch(id))
insert into c9 values (5)
show create table c9
set foreign_key_checks=1
drop table nosuch
create table nosuch (id int primary key)
insert into c9 values (6)
SELECT CONSTRAINT_NAME, UNIQUE_CONSTRAINT_NAME, MATCH_OPTION, UPDATE_RULE, DELETE_RULE, TABLE_NAME, REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY CONSTRAINT_NAME
SELECT CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME
SELECT CONSTRAINT_NAME, TABLE_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() ORDER BY TABLE_NAME, CONSTRAINT_NAME
create table rp (id int primary key)
create table rc (a int, foreign key (a) references rp(id) on update cascade)
insert into rp values (1),(2)
insert into rc values (1),(2),(2)
rename table rp to rp2
show create table rc
insert into rc values (3)
update rp2 set id = 5 where id = 2
select * from rc order by a
alter table rp2 rename to rp3
show create table rc
create table self (id int primary key, parent int, foreign key (parent) references self(id) on delete cascade)
insert into self values (1, null), (2, 1), (3, 2), (4, 1)
delete from self where id = 2
select * from self order by id
create table sn (a int not null, foreign key (a) references rp3(id) on delete set null)
create table ca (a int, b int, primary key (a, b))
create table cb (x int, y int, foreign key (x, y) references ca (a, b) on delete set null)
insert into ca values (1, 1)
insert into cb values (1, 1), (1, null), (null, 5)
insert into cb values (1, 2)
delete from ca
select * from cb order by x, y
alter table cb add constraint fk2 foreign key (y) references rp3(id)
delete from cb where y = 5
alter table cb add constraint fk2 foreign key (y) references rp3(id)
show create table cb
alter table cb drop index fk2
alter table cb drop foreign key fk2, drop index fk2
show create table cb
alter table cb drop foreign key nosuch
create table dup1 (a int, constraint dupname foreign key (a) references rp3(id))
create table dup2 (a int, constraint dupname foreign key (a) references rp3(id))
DROP TABLE rp3
set foreign_key_checks = 0
DROP TABLE rp3
set foreign_key_checks = 1
insert into rc values (1)
create table lk like rc
show create table lk
replace into ca values (1, 1)
create table uu (id varchar(10) primary key) 
create table uc (id varchar(10), foreign key (id) references uu(id) on update cascade)
insert into uu values ('abc')
insert into uc values ('ABC')
update uu set id = 'xyz'
select * from uc
create table gp (id int primary key)
create table gc (a int, b int, constraint gfk foreign key (a) references gp(id))
insert into gp values (1), (2)
insert into gc values (1, 1), (2, 2), (1, 3)
create index ab on gc (a, b)
show create table gc
check table gc
select * from gc force index (ab) where a = 1 order by b
alter table gc drop index ab
drop index ab on gc
alter table gc add index ba (b, a), drop foreign key gfk
show create table gc
create table rn (a int, foreign key (a) references gp(id), constraint zz foreign key (a) references gp(id), constraint a_fk foreign key (a) references gp(id))
rename table rn to rn2
show create table rn2
alter table rn2 rename to b_rn
show create table b_rn
