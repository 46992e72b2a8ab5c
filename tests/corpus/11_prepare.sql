-- PREPARE / EXECUTE [USING] / EXECUTE IMMEDIATE / DEALLOCATE and DROP PREPARE, with MariaDB's errors (1243, 1210, 1295, 1146 at PREPARE, 1064).
CREATE TABLE wf (id INT PRIMARY KEY, dept VARCHAR(10), sal INT, bonus DECIMAL(6,2))
INSERT INTO wf VALUES (1,'a',100,1.5),(2,'a',200,NULL),(3,'a',200,2.25),(4,'b',50,3),(5,'b',NULL,1),(6,'c',300,0),(7,'a',150,5)
prepare s1 from 'select id, sal from wf where id > ? and dept = ? order by id'
set @a = 2, @b = 'a'
execute s1 using @a, @b
execute s1 using 5, 'c'
execute s1 using @a
execute s1
prepare s2 from concat('select count(*) from ', 'wf')
execute s2
set @q = 'select ? + ?'
prepare s3 from @q
execute s3 using 1, 2
prepare `S4` from 'insert into wf values (?, ?, ?, ?)'
execute s4 using 100, 'z', 1, 2.5
select * from wf where id = 100
deallocate prepare s4
execute s4 using 101, 'z', 1, 2.5
drop prepare s3
deallocate prepare s3
execute nope
execute immediate 'select 42'
execute immediate concat('select ', '?', ' * 2') using 21
execute immediate 'select ?' using 1, 2
prepare s5 from 'prepare x from ''select 1'''
prepare s6 from 'select * from nosuchtable'
prepare s7 from 'selec 1'
prepare s8 from @nosuchvar
prepare s1 from 'select 7'
execute s1
prepare s9 from 'create table ps_t (a int)'
execute s9
execute s9
show create table ps_t
prepare s10 from 'update wf set sal = sal + ? where id = ?'
execute s10 using 1, 1
select sal from wf where id = 1
