-- MariaDB's UUID type (10.11.5+): text input with optional hyphens, binary
-- (16-byte) input, errors 1292 / 4078, storage order (versions 1..5 stored
-- node first, others as written) for ORDER BY, keys and ranges, CAST AS UUID,
-- SHOW CREATE TABLE and information_schema.
create table u (id int primary key, a uuid, b uuid not null default '00000000-0000-0000-0000-000000000000', unique key (a))
show create table u
select column_name, data_type, column_type, character_maximum_length, character_octet_length, character_set_name, collation_name from information_schema.columns where table_schema = database() and table_name = 'u' order by ordinal_position
insert into u values (1, '123e4567-e89b-12d3-a456-426655440000', '190bbe34-ea09-11f1-8a44-02fc00000001')
insert into u values (2, '01890A5DAC96774BBCCEB302099A8057', '1-9-0bef36-ea09-11f1-8a44-02fc00000001')
insert into u values (3, x'f47ac10b58cc4372a5670e02b2c3d479', '01890a5d-ac96-774b-bcce-b302099a8057')
insert into u (id, a) values (4, '00000000-0000-0000-0000-000000000001')
insert into u (id) values (5)
insert into u values (6, '123e4567e89b12d3a456426655440000', '11111111-2222-3333-4444-555555555555')
insert into u values (7, '{123e4567-e89b-12d3-a456-426655440000}', '11111111-2222-3333-4444-555555555555')
insert into u values (7, '-123e4567-e89b-12d3-a456-426655440000', '11111111-2222-3333-4444-555555555555')
insert into u values (7, '123e4567-e89b-12d3-a456-42665544000', '11111111-2222-3333-4444-555555555555')
insert into u values (7, 1, '11111111-2222-3333-4444-555555555555')
insert into u values (7, 1.5, '11111111-2222-3333-4444-555555555555')
select id, a, b from u order by id
select id, a from u order by a, id
select id, b from u order by b desc, id
select id, length(a), concat(a, '!'), upper(a) from u order by id
select id, hex(a) from u order by id
select id from u where a = '123E4567-E89B-12D3-A456-426655440000'
select id from u where a = 'f47ac10b58cc4372a5670e02b2c3d479'
select id from u where b = x'01890a5dac96774bbcceb302099a8057'
select id from u where b > '190bbe34-ea09-11f1-8a44-02fc00000001' order by id
select id from u where a in ('00000000-0000-0000-0000-000000000001', '01890a5d-ac96-774b-bcce-b302099a8057') order by id
select id from u where a is null
select min(a), max(a), count(distinct b) from u
select b, count(*) from u group by b order by b
update u set a = '22222222-3333-4444-5555-666666666666' where id = 5
select id, a from u where id = 5
update u set b = 'nonsense' where id = 5
delete from u where a = '00000000-0000-0000-0000-000000000001'
select id from u order by id
set @u = (select a from u where id = 1)
select @u = '123e4567e89b12d3a456426655440000', @u = '123e4567-e89b-12d3-a456-426655440000'
select cast('123e4567-e89b-12d3-a456-426655440000' as uuid) = '123e4567e89b12d3a456426655440000'
select cast('bad' as uuid)
select cast(x'00112233445566778899aabbccddeeff' as uuid)
select uuid() is not null
set sql_mode = ''
insert into u values (8, 'bad', '33333333-4444-5555-6666-777777777777')
select id, a from u where id = 8
insert into u (id, b) values (9, 'also bad')
select id, b from u where id = 9
set sql_mode = default
create table v (u uuid primary key, n int)
insert into v select b, id from u
select u, n from v order by u
select n from v where u between '00000000-0000-0000-0000-000000000000' and '190bbe34-ea09-11f1-8a44-02fc00000001' order by n
alter table v add column w uuid after u
show create table v
drop table v
drop table u
