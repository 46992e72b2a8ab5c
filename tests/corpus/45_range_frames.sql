-- RANGE frames with n PRECEDING / n FOLLOWING: the frame holds the rows whose ORDER BY key lies within n of the row's key (peers by value), NULL keys form their own group, DESC turns PRECEDING into larger keys; MariaDB's errors 4019, 4020, 4021, 1064, 1690.
create table rf (id int primary key, g char(1), a int, ua int unsigned, dc decimal(5,2), f double, s varchar(5), d date, b int)
insert into rf values (1,'x',NULL,1,NULL,NULL,'p',NULL,1),(2,'x',NULL,2,1.50,1.5,'q','2020-01-01',2),(3,'x',1,3,2.25,2.25,'r','2020-01-02',4),(4,'y',2,4,3.00,3,'s','2020-01-04',8),(5,'y',2,5,3.10,3.1,'t','2020-01-05',16),(6,'x',4,6,5.00,5,'u','2020-01-08',32),(7,'y',7,7,7.50,7.5,'v','2020-01-09',64)
select b, a, sum(b) over (order by a range between 1 preceding and 1 following) s, count(*) over (order by a range between 1 following and 3 following) c, sum(b) over (order by a desc range between 1 preceding and current row) d from rf order by b
select b, a, sum(b) over (order by a range between unbounded preceding and 1 preceding) e, sum(b) over (order by a range between 1 following and unbounded following) f, sum(b) over (order by a range between 2 following and 1 following) z from rf order by b
select b, a, sum(b) over (order by a desc range between current row and 1 following) x, sum(b) over (order by a desc range between 1 following and unbounded following) y, sum(b) over (order by a desc range between 2 preceding and 1 preceding) w from rf order by b
select b, a, sum(b) over (order by a range between 0.5 preceding and 0.5 following) h, sum(b) over (order by a range between 1.5 preceding and current row) h2, sum(b) over (order by a range between 0.5e0 preceding and current row) h3, sum(b) over (order by a range between 1e0 following and 2e0 following) h4 from rf order by b
select b, g, a, sum(b) over (partition by g order by a range between 2 preceding and 2 following) p, count(b) over (partition by g order by a desc range between 1 following and 5 following) q from rf order by b
select b, dc, sum(b) over (order by dc range between 0.75 preceding and current row) s, avg(b) over (order by dc range between 1 preceding and 1 following) a, min(b) over (order by dc desc range between 0.1 preceding and 2 following) m from rf order by b
select b, f, sum(f) over (order by f range between 1 preceding and 1 following) s, avg(f) over (order by f range between 0.75 following and 3 following) a, max(b) over (order by f range between 0.5 preceding and 0.5 following) m from rf order by b
select b, ua, sum(b) over (order by ua desc range between current row and 2 following) s from rf order by b
select b, a, first_value(concat(g)) over (order by a range between 1 preceding and 1 following) fv, last_value(concat(g)) over (order by a range between 1 preceding and 1 following) lv, nth_value(concat(g), 2) over (order by a range between current row and 3 following) nv from rf order by b
select b, a, std(b) over (order by a range between 1 preceding and 1 following) sd, variance(b) over (order by a range between 1 preceding and 1 following) v, stddev_samp(dc) over (order by a range between 2 preceding and current row) ss, var_samp(ua) over (order by a desc range between 1 preceding and 1 following) vs from rf order by b
select b, a, bit_or(b) over (order by a range between 2 preceding and current row) bo, bit_and(b) over (order by a range between 0 preceding and 0 following) ba, bit_xor(b) over (order by a range between 3 preceding and 1 preceding) bx from rf order by b
select b, a, sum(b) over (order by a + 0.5 range between 1 preceding and current row) s from rf order by b
select sum(b) over (order by a, b range between 1 preceding and current row) from rf
select sum(b) over (range between 1 preceding and current row) from rf
select sum(b) over (order by s range between 1 preceding and current row) from rf
select sum(b) over (order by d range between 1 preceding and current row) from rf
select sum(b) over (order by s range between unbounded preceding and 1 following) from rf
select sum(b) over (order by a range between NULL preceding and current row) from rf
select sum(b) over (order by a range between -1 preceding and current row) from rf
select sum(b) over (order by a range between a preceding and current row) from rf
select sum(b) over (order by a range between interval 1 day preceding and current row) from rf
select sum(b) over (order by a rows between 1.5 preceding and current row) from rf
select b, sum(b) over (order by s range between current row and current row) from rf order by b
select b, sum(b) over (order by ua range between 2 preceding and current row) from rf order by b
select b, sum(b) over (order by a range between 9223372036854775807 following and unbounded following) from rf order by b
select sum(b) over (order by a range between current row and 1 preceding) from rf
select sum(b) over (order by a, b range between current row and 1 preceding) from rf
select sum(b) over (order by a rows between 1 following and current row) from rf
select sum(b) over (order by a rows between current row and unbounded preceding) from rf
select sum(b) over (order by a rows 1 following) from rf
select b, sum(b) over (order by a rows between 1 following and 1 preceding) from rf order by b
