-- Window functions: ranks, NTILE, LAG/LEAD, FIRST/LAST/NTH_VALUE and aggregates OVER (PARTITION BY ... ORDER BY ... frame), named windows, MariaDB's errors.
create table wf (id int primary key, dept varchar(10), sal int, bonus decimal(6,2))
insert into wf values (1,'a',100,1.5),(2,'a',200,NULL),(3,'a',200,2.25),(4,'b',50,3),(5,'b',NULL,1),(6,'c',300,0),(7,'a',150,5)
select id, row_number() over (order by id) from wf order by id
select id, dept, row_number() over (partition by dept order by sal desc, id) rn from wf order by id
select id, dept, sal, rank() over (partition by dept order by sal desc) from wf order by id
select id, ntile(3) over (order by id), ntile(2) over (partition by dept order by id), ntile(10) over (order by id) from wf order by id
select id, lag(sal) over (order by id), lead(sal) over (order by id), lag(sal, 2) over (order by id), lead(id, 3) over (partition by dept order by id), lag(sal, -1) over (order by id) from wf order by id
select id, first_value(sal) over (order by id), last_value(sal) over (order by id), nth_value(sal, 2) over (order by id) from wf order by id
select id, first_value(id) over (partition by dept order by id rows between unbounded preceding and unbounded following), last_value(id) over (partition by dept order by id rows between unbounded preceding and unbounded following) from wf order by id
select id, sum(sal) over (), count(*) over (), count(sal) over (), avg(sal) over (), min(sal) over (), max(sal) over () from wf order by id
select id, sum(sal) over (order by id), sum(sal) over (partition by dept), sum(sal) over (partition by dept order by id) from wf order by id
select id, sal, sum(sal) over (order by sal), count(*) over (order by sal) from wf order by id
select id, sum(sal) over (order by id rows between 1 preceding and 1 following), avg(sal) over (order by id rows 2 preceding), count(*) over (order by id rows between current row and unbounded following) from wf order by id
select id, sum(bonus) over (order by id), avg(bonus) over (partition by dept) from wf order by id
select dept, sum(sal), rank() over (order by sum(sal) desc) from wf group by dept order by dept
select dept, count(*), sum(count(*)) over () from wf group by dept order by dept
select id, row_number() over (order by id) * 10 + 1 from wf order by id
select id from wf order by row_number() over (order by sal desc, id)
select id, row_number() over (order by id) rn from wf order by rn desc limit 3
select distinct dept, count(*) over (partition by dept) from wf order by dept
select rank() over () from wf
select lag(sal) over () from wf
select rank() over (order by id rows between 1 preceding and current row) from wf
select count(distinct sal) over () from wf
select abs(sal) over () from wf
select id from wf where row_number() over () > 1
select dept from wf group by dept having rank() over (order by dept) > 0
select ntile(0) over (order by id) from wf
select sum(sal) over w from wf window w as (order by id)
update wf set sal = row_number() over () where id = 1
select id, sum(sal) over (order by sal range between current row and unbounded following) from wf order by id
select id, row_number() over (partition by dept) from wf where dept = 'c' order by id
select sum(sal) over x from wf window w as (order by id)
select id, sum(sal) over (w rows 1 preceding), row_number() over w from wf window w as (partition by dept order by id) order by id
select sum(sal) over w from wf window w as (order by id), w as (order by sal)
select sum(sal) over (w order by sal) from wf window w as (order by id)
select id, sum(sal) over (w order by id) from wf window w as (partition by dept) order by id
select sum(sal) over (w partition by id) from wf window w as (order by id)
select sum(sal) over (w) from wf window w as (order by id rows 1 preceding)
select ntile(id) over (order by id) from wf
select ntile(id) over (partition by id order by id) from wf order by id
select ntile(sal) over (partition by dept order by id) from wf where dept = 'c'
