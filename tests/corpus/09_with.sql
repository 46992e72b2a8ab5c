-- WITH: common table expressions, plain and recursive (max_recursive_iterations, MariaDB's CTE errors).
create table w1 (id int primary key, parent int, name varchar(10))
insert into w1 values (1,null,'root'),(2,1,'a'),(3,1,'b'),(4,2,'c'),(5,4,'d')
with c as (select 1 as a) select * from c
with c(x, y) as (select id, name from w1 where id < 3) select * from c order by x
with c as (select id from w1), d as (select id * 10 as m from c) select * from d order by m
with c as (select 1 as a), c as (select 2) select * from c
with c(a,b) as (select 1) select * from c
with c as (select 1 as a) select * from (with c as (select 2 as a) select * from c) x, c
with c as (select id from w1 where id > 3) select w1.name from w1 join c on c.id = w1.id order by w1.id
select * from w1 where id in (with c as (select 2 as v union select 3) select v from c) order by id
with recursive c(n) as (select 1 union all select n+1 from c where n < 5) select * from c
with recursive c(n) as (select 1 union select 1 from c) select * from c
with recursive tree(id, name, depth) as (select id, name, 0 from w1 where parent is null union all select w1.id, w1.name, tree.depth + 1 from w1 join tree on w1.parent = tree.id) select * from tree order by id
with recursive c(n) as (select 1 union all select n+1 from c where n<3 union all select 5) select * from c
with recursive c as (select * from c) select * from c
with recursive c(n) as (select 1 union all select n+1, 2 from c where n<3) select * from c
with recursive c(n) as (select 1 union all select count(*) from c) select * from c
with recursive c(n) as (select 1 union all select n+1 from c where n<3) select * from c a, c b order by a.n, b.n
set max_recursive_iterations=5
with recursive c(n) as (select 1 union all select n+1 from c) select count(*) from c
set max_recursive_iterations=1000
with recursive c(n) as (select 1 union all select n+1 from c where n<3 order by n) select * from c
with recursive c as (select 1 as n) select * from c
with recursive fib(n, a, b) as (select 1, 0, 1 union all select n + 1, b, a + b from fib where n < 10) select n, a from fib
insert into w1 with c as (select 9 as i) select i, 1, 'nine' from c
SELECT * FROM w1 ORDER BY id
