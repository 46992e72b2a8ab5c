-- Views: CREATE [OR REPLACE] / ALTER / DROP VIEW, SELECT through views, SHOW CREATE VIEW, information_schema.
drop view if exists v1, v2, v3, v4, v5, v6, vj, vd, vu, vc, vl
drop table if exists vt1, vt2
create table vt1 (id int primary key, a int, b varchar(10), c decimal(6,2))
create table vt2 (id int primary key, t1 int, note varchar(20))
insert into vt1 values (1, 10, 'one', 1.50), (2, 20, 'two', 2.25), (3, NULL, 'three', NULL), (4, 40, NULL, 4.00)
insert into vt2 values (1, 1, 'first'), (2, 1, 'again'), (3, 3, 'third')
create view v1 as select * from vt1
select * from v1 order by id
show create view v1
show create table v1
show columns from v1
show full columns from v1
show index from v1
lock tables v1 read
select count(*) from v1
unlock tables
create view v2 (x, y) as select a + 1, concat(b, '!') from vt1 where a > 10
select * from v2 order by x
show create view v2
select x from v2 where y like 't%'
create view v3 as select id, a * 2 as a2, b from vt1 where a is not null and b is not null order by id
select * from v3
show create view v3
create view v4 as select count(*) as n, sum(a) as total, max(b) as mb from vt1
select * from v4
show create view v4
create view vj as select vt1.id, vt1.b, vt2.note from vt1 join vt2 on vt2.t1 = vt1.id
select * from vj order by id, note
show create view vj
create view vl as select vt1.id, vt2.note from vt1 left join vt2 on vt2.t1 = vt1.id where vt1.id < 4
select * from vl order by id, note
show create view vl
create view v5 as select v1.id, v1.a, v3.a2 from v1 join v3 on v3.id = v1.id
select * from v5 order by id
show create view v5
create view vd as select distinct b is null as nb from vt1
select * from vd order by nb
create view v6 as select id, case when a >= 20 then 'big' when a is null then 'none' else 'small' end as size from vt1
select * from v6 order by id
show create view v6
select v6.size, count(*) from v6 group by v6.size order by v6.size
select * from v1 where id in (select id from v3) order by id
select (select count(*) from v2) as c2
select * from vt1 join v2 on v2.x = vt1.a + 1 order by id
show full tables
show tables
select table_name, table_type, engine, table_comment from information_schema.tables where table_schema = database() order by table_name
select table_name, view_definition, check_option, is_updatable, security_type, algorithm from information_schema.views where table_schema = database() order by table_name
create view v1 as select 1
create view if not exists v1 as select 1
create view vt1 as select 1
create or replace view vt1 as select 1
alter view vt1 as select 1
alter view nosuch as select 1
create view vx as select a, a from vt1
create view vx (p) as select a, b from vt1
create view vx as select nosuch from vt1
create view vx as select * from nosuch
create view vx as select a from vt1 where zz > 1
create view vx as select id from vt1 join vt2 on vt1.id = vt2.id
create view vx as select @x
create table v1 (a int)
drop table v1
drop table if exists v1
drop view vt1
drop view if exists vt1, nosuch
drop view nosuch
create or replace view v1 as select id, b from vt1 where id <= 2
select * from v1 order by id
show create view v1
alter view v1 (k, name) as select id, b from vt1 where id > 2
select * from v1 order by k
show create view v1
alter algorithm=temptable sql security invoker view v1 as select id from vt1
show create view v1
create algorithm=merge view vc as select count(*) as n from vt1
show create view vc
create view vu as select id, a from vt1 where a > 5 with check option
show create view vu
create view vx as select count(*) from vt1 with check option
create table vt3 (k int)
create view vgone as select k from vt3
drop table vt3
select * from vgone
create view vq as select 'it''s' as s, -a as neg, not a > 1 as na, a between 1 and 30 as bt, b not in ('one', 'two') as ni, cast(a as unsigned) as ca from vt1
select * from vq order by s, neg
show create view vq
create view vg as select b, group_concat(id order by id desc separator ';') as ids from vt1 group by b having count(*) >= 1
select * from vg order by b
show create view vg
create view vs as select id from vt1 where a = (select max(a) from vt1) or exists (select 1 from vt2 where vt2.t1 = vt1.id)
select * from vs order by id
show create view vs
create view vdr as select d.id, d.bb from (select id, b as bb from vt1) d where d.id > 1
select * from vdr order by id
show create view vdr
create or replace view v1 as select id, a, b as name from vt1 where id > 1
insert into v1 (id, a, name) values (10, 100, 'ten')
insert into v1 values (11, 110, 'eleven')
select * from vt1 order by id
update v1 set a = a + 1 where name like 't%'
update v1 set a = 0 where id = 1
select * from vt1 order by id
update v1 set name = 'renamed' where a > 100
delete from v1 where a = 111
delete from v1 where id = 1
select * from vt1 order by id
update v1 set v1.a = 5 where v1.id = 10
select * from v1 order by id
update v2 set x = 1
update v4 set n = 1
delete from v4
insert into v4 values (1, 2, 'x')
delete from vd
insert into vq (s) values ('x')
update vq set neg = 1
insert into vu values (20, 50)
insert into vu values (21, 1)
update vu set a = 1 where id = 20
update vu set a = 60 where id = 20
select * from vt1 order by id
create view vu2 as select id, a from vu where a < 100 with local check option
insert into vu2 values (22, 1)
insert into vu2 values (23, 200)
insert into vu2 values (24, 70)
create view vu3 as select id, a from vu where a < 100
insert into vu3 values (25, 1)
insert into vu3 values (26, 500)
select * from vt1 order by id
delete from vu3 where id = 26
create view vnc as select id, a + 1 as a1 from vt1
update vnc set a1 = 5
delete from vnc where a1 = 61
select * from vt1 order by id
create view vdef1 as select 1 as one
create definer = current_user view vdef2 as select 1 as one
create definer = current_user() sql security invoker view vdef3 as select 1 as one
create definer = 'root'@'localhost' view vdef4 as select 1 as one
create algorithm = temptable definer = `root`@`localhost` view vdef5 as select id from vt1
create definer = `root`@`localhost` algorithm = temptable view vbad as select id from vt1
show create view vdef2
show create view vdef3
show create view vdef4
show create view vdef5
select table_name, definer, security_type, algorithm, is_updatable from information_schema.views where table_schema = database() and table_name like 'vdef%' order by table_name
update vdef5 set id = 1
create view vun as select id, b from vt1 where id < 2 union select id, note from vt2 where id > 2
select * from vun order by id
show create view vun
create view vun2 as select a from vt1 union all select t1 from vt2
select * from vun2 order by a
show create view vun2
select x.id, x.a from v5 as x where x.id > 1 order by x.id
select v6.* from v6 order by id
select * from diff_15_views.v6 order by id
select count(*) from v6 a join v6 b on a.id = b.id
insert into vt2 select id + 100, a, b from vt1 where a is not null
select * from vt2 order by id
create view vorder as select id, a as q from vt1 order by q desc limit 2
select * from vorder
show create view vorder
create view vexpr as select id, a div 3 as d, a mod 3 as m, a / 4 as q, -a as n, ~a & 255 as bn, a << 1 as sh, a is true as t, b is not null as nn, a <=> null as ns from vt1
select * from vexpr order by id
show create view vexpr
create view vfunc as select upper(b) as u, lower(b) as l, substring(b, 2, 2) as s, length(b) as len, coalesce(a, 0) as c, ifnull(b, '-') as i, if(a > 10, 'y', 'n') as f, abs(-a) as ab, round(c, 1) as r from vt1
select * from vfunc order by u, c, ab
show create view vfunc
drop view v1, v2, v3, v4, v5, v6, vj, vl, vd, vu, vu2, vu3, vnc, vc, vgone, vq, vg, vs, vdr
drop view vdef1, vdef2, vdef3, vdef4, vdef5, vun, vun2, vorder, vexpr, vfunc
show tables
