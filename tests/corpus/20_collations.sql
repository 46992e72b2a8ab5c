-- Collations and charsets (issue 18 item 2): one comparison per collation for =, ORDER BY, GROUP BY, DISTINCT, keys and LIKE; declared collations kept; latin1 columns; 1253 / 1267 / 1273 / 1115.
drop table if exists ce
create table ce (id int primary key, s varchar(10))
insert into ce values (1, 'é'), (2, 'e'), (3, 'E'), (4, 'f'), (5, 'ß'), (6, 's'), (7, 'SS'), (8, 'e  ')
select count(distinct s) from ce
select count(*) from ce group by s order by count(*), min(id)
select min(id), count(*) from ce group by s order by min(id)
select distinct s from ce order by s, 1
select id from ce where s = 'E' order by id
select id from ce where s = 'ß' order by id
select id from ce where s like 'e%' order by id
select id from ce where s like '_' order by id
select s from ce order by s, id
select s from ce order by s desc, id
select 'é' = 'E', 'é' < 'f', 'ß' = 's', 'ß' = 'ss', 'a' = 'A  ', 'a' = ' a'
select max(s), min(s) from ce
select group_concat(s order by s, id separator '|') from ce
select id, rank() over (order by s) from ce order by id
select strcmp('é', 'E'), strcmp('a', 'b'), locate('É', 'caféine'), instr('STRASSE', 'ß'), find_in_set('B', 'a,b,c')
drop table if exists cu
create table cu (id int primary key, u varchar(20) collate utf8mb4_unicode_ci, k varchar(20) collate utf8mb4_unicode_520_ci, b varchar(20) collate utf8mb4_bin, key ku (u))
show create table cu
select column_name, character_set_name, collation_name, character_maximum_length, character_octet_length from information_schema.columns where table_schema = database() and table_name = 'cu' order by ordinal_position
show full columns from cu
insert into cu values (1, 'ß', 'ß', 'ß'), (2, 'ss', 'ss', 'ss'), (3, 'Straße', 'Straße', 'Straße'), (4, 'STRASSE', 'STRASSE', 'STRASSE'), (5, 'a', 'a', 'a'), (6, 'A ', 'A ', 'A ')
select id from cu where u = 'ss' order by id
select id from cu where u = 'strasse' order by id
select id from cu where k = 'SS' order by id
select id from cu where b = 'a' order by id
select id from cu where b = 'A' order by id
select u, count(*) from cu group by u order by min(id)
select count(distinct u), count(distinct k), count(distinct b) from cu
select u from cu order by u, id
select b from cu order by b, id
select id from cu where u like 'ss' order by id
select id from cu where u like 's%' order by id
select id from cu where u between 'r' and 't' order by id
select u = b from cu order by id
select u = b collate utf8mb4_bin from cu order by id
select collation(u), charset(u), coercibility(u), collation(b), coercibility('x'), coercibility(u collate utf8mb4_bin) from cu where id = 1
select collation('x' collate utf8mb4_unicode_ci), 'ß' = 'ss' collate utf8mb4_unicode_ci, 'ß' = 'ss' collate utf8mb4_unicode_520_ci
select 'a' = 'A' collate utf8mb4_bin, 'a' = 'A ' collate utf8mb4_nopad_bin, 'a' = 'A' collate utf8mb4_general_nopad_ci, 'a' = 'A ' collate utf8mb4_general_nopad_ci
select 'x' collate utf8mb4_nope
select 'x' collate latin1_swedish_ci
select 'x' collate utf8mb3_general_ci
create table cbad (a varchar(5) collate utf8mb4_nope)
create table cbad (a varchar(5) character set nope)
create table cbad (a varchar(5) character set latin1 collate utf8mb4_bin)
create table cbad (a int) default charset=latin1 collate=utf8mb4_bin
drop table if exists cl
create table cl (id int primary key, a varchar(10) character set latin1, b varchar(10) character set latin1 collate latin1_bin, g varchar(10) character set latin1 collate latin1_german2_ci, key ka (a))
show create table cl
insert into cl values (1, 'é€ÿ', 'é€ÿ', 'ä'), (2, 'abc', 'ÿ', 'ae'), (3, 'ABC', '€', 'af'), (4, 'É', 'a', 'ad')
select id, a, hex(a), length(a), char_length(a), b, hex(b) from cl order by id
select id from cl where a = 'abc' order by id
select id from cl where a = 'e€Y' order by id
select b from cl order by b, id
select g from cl order by g, id
select id from cl where g = 'AE' order by id
select count(distinct a) from cl
insert into cl values (5, '中文', 'x', 'x')
insert into cl values (5, 'a中b', 'x', 'x')
insert into cl values (5, '中abcdefghi', 'x', 'x')
select id from cl where a = b order by id
select collation(a), charset(a), coercibility(a) from cl where id = 1
drop table if exists ct
create table ct (id int primary key, a varchar(10)) default charset = latin1
show create table ct
create table ct2 (id int primary key, a varchar(10), b varchar(10) character set utf8mb4) charset latin1 collate latin1_general_cs
show create table ct2
insert into ct2 values (1, 'a', 'a'), (2, 'A', 'A')
select id from ct2 where a = 'a' order by id
select id from ct2 where b = 'a' order by id
select table_name, table_collation from information_schema.tables where table_schema = database() and table_name like 'ct%' order by table_name
create table ct3 (a varchar(10) character set utf8mb3, b text character set utf8, c varchar(10) character set ascii)
show create table ct3
insert into ct3 values ('é', 'é', 'a')
insert into ct3 values ('😀', 'x', 'a')
insert into ct3 values ('x', 'x', 'é')
select a, b, c from ct3
drop table if exists cm
create table cm (a varchar(5) collate utf8mb4_general_ci, b varchar(5) collate utf8mb4_unicode_ci)
insert into cm values ('a', 'A')
select * from cm where a = b
select * from cm where a in (b)
select * from cm where a like b
select a = b collate utf8mb4_general_ci from cm
show collation like 'utf8mb4_unicode%'
show collation where Charset = 'ascii'
show character set like 'latin1'
select collation_name, character_set_name, id, is_default, sortlen from information_schema.collations where collation_name in ('utf8mb3_general_ci', 'utf8mb3_bin', 'utf8mb3_unicode_ci', 'latin1_bin', 'ascii_general_ci', 'binary') order by id
select character_set_name, default_collate_name, maxlen from information_schema.character_sets where character_set_name in ('utf8mb4', 'latin1', 'binary') order by 1
create table cin (a char(1) character set latin1 collate latin1_general_ci, b char(1) character set latin1 collate latin1_swedish_ci, c char(1) character set latin1 collate latin1_danish_ci)
insert into cin values ('A', 'B', 'C'), ('a', 'c', 'c')
select * from cin where a in (b)
select * from cin where a in (b, c)
select * from cin where 'a' in (a, b, c)
select * from cin where 'a' in (a)
select * from cin where a in ('a')
select * from cin where 'a' collate latin1_general_ci in (a, b, c)
select * from cin where 'a' collate latin1_bin in (a, b, c)
select * from cin where 'a' in (a, b, c collate latin1_bin)
select * from cin where a between b and c
select * from cin where 'x' collate latin1_bin = a collate latin1_general_ci
