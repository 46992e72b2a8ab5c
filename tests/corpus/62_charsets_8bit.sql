-- The 8-bit character sets (latin2, koi8r, cp850, cp1250, cp1251, greek, hebrew, cp866 ...) and charset introducers.
SHOW CHARACTER SET LIKE 'koi8%'
SHOW CHARACTER SET LIKE 'cp12%'
SHOW CHARACTER SET WHERE Maxlen = 1 AND Charset NOT IN ('swe7', 'tis620')
SHOW COLLATION LIKE 'koi8r%'
SHOW COLLATION LIKE 'cp1251%'
SHOW COLLATION LIKE 'cp850%'
SELECT collation_name, id, is_default, sortlen FROM information_schema.collations WHERE character_set_name = 'greek' ORDER BY id
SELECT character_set_name, default_collate_name, maxlen FROM information_schema.character_sets WHERE character_set_name IN ('latin2', 'cp866', 'hebrew', 'cp1250')
create table l2 (id int primary key, a varchar(10) character set latin2, b char(4) character set latin2 collate latin2_bin)
insert into l2 values (1, 'Łódź', 'ą'), (2, 'lodz', 'A'), (3, 'ŁÓDŹ', 'a'), (4, 'zażółć', 'ź')
SELECT id, a, hex(a), length(a), char_length(a), b, hex(b) FROM l2 ORDER BY id
SELECT a FROM l2 ORDER BY a, id
SELECT b FROM l2 ORDER BY b, id
SELECT a, count(*) FROM l2 GROUP BY a
SELECT count(DISTINCT a), count(DISTINCT b) FROM l2
SELECT id FROM l2 WHERE a = 'łódź' ORDER BY id
SELECT id FROM l2 WHERE b = 'a' ORDER BY id
SELECT id FROM l2 WHERE a LIKE 'Ł%' ORDER BY id
SELECT min(a), max(a), min(b), max(b) FROM l2
SELECT collation(a), charset(a), coercibility(a) FROM l2 WHERE id = 1
SHOW CREATE TABLE l2
create table k (id int primary key, s varchar(20) character set koi8r, u varchar(20) character set cp1251, unique key (s))
insert into k values (1, 'привет', 'привет'), (2, 'мир', 'МИР'), (3, 'ёж', 'Ёж')
insert into k values (4, 'ПРИВЕТ', 'x')
SELECT id, s, hex(s), u, hex(u), length(u) FROM k ORDER BY id
SELECT s FROM k ORDER BY s, id
SELECT u FROM k ORDER BY u, id
SELECT id FROM k WHERE u = 'мир'
SELECT id FROM k WHERE s = u ORDER BY id
SELECT hex(s) FROM k WHERE s < 'н' ORDER BY s
insert into k values (5, 'ok', 'ąę')
create table d (id int, c varchar(8) character set cp850, g varchar(8) character set greek, h varchar(8) character set hebrew, r varchar(8) character set cp866, w varchar(8) character set cp1250)
insert into d values (1, 'Çé€', 'αβΓ', 'שלום', 'Дом', 'Żółw')
insert into d values (2, 'çÉ', 'ΑΒγ', 'ש', 'дом', 'żółw')
SELECT hex(c), hex(g), hex(h), hex(r), hex(w) FROM d ORDER BY id
SELECT c, g, h, r, w FROM d ORDER BY id
SELECT count(DISTINCT g), count(DISTINCT r), count(DISTINCT w) FROM d
SELECT id FROM d WHERE g = 'ΑΒΓ' ORDER BY id
SELECT _latin2'abc', _koi8r'abc', _binary'abc', _cp1251'x'
SELECT collation(_latin2'a'), collation(_koi8r'a'), collation(_cp850'a'), collation(_binary'a'), collation(_utf8mb3'a')
SELECT coercibility(_latin1'a'), coercibility('a'), coercibility(_binary'a'), coercibility(_koi8r'a')
SELECT _binary'a' = _binary'a ', _latin1'a' = _latin1'a ', _koi8r'a' = _koi8r'A', _latin2'a' = _latin2'B'
SELECT _koi8r'a' = _latin1'A'
SELECT _latin2 0xB1, hex(_latin2 0xB1), _koi8r 0xC1, _cp1251 X'E0', _cp850 0x80
SELECT length(_latin2 0xB1B6), char_length(_latin2 0xB1B6), length(_utf8mb4 0xC485)
SELECT _utf8mb3'0' COLLATE utf8mb3_bin, _latin2'a' COLLATE latin2_bin, _koi8r'a' COLLATE koi8r_bin = _koi8r'A'
SELECT _latin2'a' COLLATE latin1_bin
SELECT hex(convert('ąść' using latin2)), hex(convert('привет' using koi8r)), hex(convert('привет' using cp866)), hex(convert('αβ' using greek))
SELECT convert('ąę' using latin2), hex(convert('€' using cp1250)), hex(convert('€' using cp1251))
SELECT collation(convert('a' using latin2)), coercibility(convert('a' using latin2)), charset(convert('a' using cp850))
SELECT convert(_latin2 0xB1 using utf8mb4), convert(_koi8r 0xD0D2C9D7C5D4 using utf8mb4)
SELECT convert('x' using nosuch)
create table e (a char character set nosuch)
SELECT 'Ą' = convert('ą' using latin2), convert('ą' using latin2) = 'Ą'
create table n (id int, p varchar(5) character set latin2 collate latin2_general_nopad_ci, q varchar(5) character set latin2)
insert into n values (1, 'a ', 'a '), (2, 'a', 'a')
SELECT count(DISTINCT p), count(DISTINCT q) FROM n
SELECT id FROM n WHERE p = 'a' ORDER BY id
create table s (a SET('a','a ') CHARACTER SET BINARY)
SHOW CREATE TABLE s
create table s2 (a SET('x','x ') CHARACTER SET latin2)
SELECT concat(a, _latin2'x') FROM l2 ORDER BY id
SELECT upper(a), lower(a) FROM l2 ORDER BY id
DROP TABLE l2, k, d, n, s
