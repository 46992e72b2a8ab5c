-- CHECKSUM TABLE (values equal to MariaDB's crc32 sum over record images), SHOW OPEN TABLES, non-reserved EXCLUDE, function names before '('.
create table ck_int (a int not null)
checksum table ck_int
insert into ck_int values (1), (2), (-3)
checksum table ck_int
checksum table ck_int extended
checksum table ck_int quick
checksum tables ck_int
create table ck_null (a int, b bigint unsigned, c tinyint)
insert into ck_null values (1, NULL, 3), (NULL, NULL, NULL), (NULL, 18446744073709551615, -128)
checksum table ck_null
create table ck_num (a decimal(10,3), b double, c float, d smallint, e mediumint unsigned, f decimal(30,10) not null, g year, h bit(10), i bit(3) not null)
insert into ck_num values (12.5, 2.5, 1.25, -300, 70000, -123456789.0123456789, 2001, b'1010101010', 5), (NULL, -1e300, NULL, 0, NULL, 0, NULL, NULL, 0)
checksum table ck_num
create table ck_time (a date, b datetime, c datetime(6), d time, e time(3), f timestamp(2) null, g timestamp null)
insert into ck_time values ('2020-01-02', '2020-01-02 03:04:05', '1999-12-31 23:59:59.999999', '-838:59:59', '01:02:03.456', '2021-03-04 05:06:07.25', '1980-01-01 00:00:01')
insert into ck_time values (NULL, NULL, NULL, NULL, NULL, NULL, NULL)
checksum table ck_time
create table ck_str (a char(3), b char(5) not null, c binary(4), d varbinary(6), e enum('x', 'y', 'z'), f set('p', 'q', 'r')) charset latin1
insert into ck_str values ('ab', 'x', 'ab', 'cd', 'y', 'p,r'), (NULL, '', NULL, '', NULL, '')
checksum table ck_str
create table ck_utf (a char(4), b varchar(10), c text, d char(2) charset utf8mb4 not null) charset utf8mb4
insert into ck_utf values ('é', 'ñandú', 'hello world', 'ü'), (NULL, NULL, NULL, '')
checksum table ck_utf
create table ck_var (a varchar(5) not null, b blob not null)
insert into ck_var values ('ab', 'cd')
checksum table ck_var
create table ck_empty (a int)
checksum table ck_empty
checksum table ck_int, ck_null, ck_empty
checksum table ck_int, ck_missing, ck_null
show warnings
checksum table ck_missing quick
checksum table ck_int, ck_int
create temporary table ck_temp (a int not null, b varchar(3))
insert into ck_temp values (1, 'a'), (2, NULL)
checksum table ck_temp
checksum table ck_int
create temporary table ck_int (a int not null)
checksum table ck_int
drop temporary table ck_int
checksum table ck_int
begin
insert into ck_int values (4)
checksum table ck_int
rollback
checksum table ck_int
update ck_int set a = a + 1
checksum table ck_int
delete from ck_int
checksum table ck_int
checksum table ck_int, diff_64_admin_statements.ck_int
checksum ck_int
checksum table
checksum table ck_int fast
-- SHOW OPEN TABLES: MariaDB also lists the unused tables of its table cache, so only tables in use are compared.
show open tables in diff_64_admin_statements where In_use > 0
show open tables from diff_64_admin_statements_nosuch
show open tables like 'no_such_table_anywhere'
lock tables ck_int read
show open tables from diff_64_admin_statements where In_use > 0
show open tables from diff_64_admin_statements like 'ck_int'
unlock tables
show open tables from diff_64_admin_statements where `Table` = 'ck_int' and In_use > 0
-- EXCLUDE is a non-reserved word.
create table EXCLUDE (EXCLUDE int)
insert into EXCLUDE values (1)
select EXCLUDE from EXCLUDE
select EXCLUDE EXCLUDE from EXCLUDE
select EXCLUDE as EXCLUDE from EXCLUDE
drop table EXCLUDE
-- A built-in function's name directly followed by '(' is not an identifier.
create table BIT_AND(a int)
create table BIT_AND (a int)
drop table BIT_AND
create table COUNT(a int)
create table SUM (a int)
insert into SUM(a) values (1)
insert into SUM (a) values (1)
select * from SUM
drop table SUM
create table ADDDATE(a int)
drop table ADDDATE
create table `MAX`(a int)
drop table `MAX`
select count(*), max(a), min(a) from ck_null
-- HANDLER: a per-session cursor in storage (primary key) order.
create table hd (a int primary key, b varchar(5))
insert into hd values (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')
handler hd open
handler hd read first
handler hd read next
handler hd read next limit 2
handler hd read next
handler hd read next
handler hd read first where a > 2
handler hd read first limit 1, 2
handler hd read next where b = 'zz'
handler hd close
handler hd read first
handler hd close
handler hd open as hx
handler hx read first
handler hd read first
handler hx open
handler hd open as HX
handler hx close
handler hd_missing open
handler hd open
truncate hd
handler hd read first
insert into hd values (5, 'e')
handler hd open as hy
drop table hd
handler hy read next
