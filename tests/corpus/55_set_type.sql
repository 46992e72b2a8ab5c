-- SET('a','b',...) columns: up to 64 members (1097 past it), a member holding ',' is 1367, a
-- repeated member 1291 (an error in strict mode, a note otherwise), trailing spaces dropped from
-- members. Values are shown as their members in definition order joined by ','; a string names
-- members in any order, case and repetition; a whole number (or a string of one) is the bitmask;
-- unknown members and bits past the members are 1265 (an error in strict mode).
CREATE TABLE st (id INT PRIMARY KEY, a SET('x','Y','z'), b SET('red','green','blue') NOT NULL DEFAULT 'green,red', c SET('one ','two') CHARACTER SET latin1 COLLATE latin1_bin, KEY (a))
SHOW CREATE TABLE st
DESCRIBE st
SELECT column_name, data_type, column_type, character_maximum_length, character_octet_length, character_set_name, collation_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'st' ORDER BY ordinal_position
INSERT INTO st VALUES (1, 'x', 'red', 'one')
INSERT INTO st VALUES (2, 'z,x', 'blue,red,blue', 'two,one')
INSERT INTO st VALUES (3, 'y,X,x  ', DEFAULT, '')
INSERT INTO st (id) VALUES (4)
INSERT INTO st VALUES (5, 3, 7, 0)
INSERT INTO st VALUES (6, '6', '1', '2')
INSERT INTO st VALUES (7, '', '', NULL)
INSERT INTO st VALUES (8, 'x,q', 'red', 'one')
INSERT INTO st VALUES (9, 9, 'red', 'one')
INSERT INTO st VALUES (10, 'x', 'red', 'ONE')
INSERT IGNORE INTO st VALUES (11, 'x,,z', 'red,purple', 'ONE')
INSERT IGNORE INTO st VALUES (12, 9, -1, '9')
INSERT IGNORE INTO st VALUES (13, ',x', 'green,', 'two,')
INSERT IGNORE INTO st VALUES (14, 2.6, 2.6e0, '2.6')
INSERT IGNORE INTO st VALUES (15, ' x', 'q', '-1')
SELECT id, a, b, c FROM st ORDER BY id
SELECT id, length(a), hex(b), concat(a, '|', c), upper(b), cast(a AS CHAR) FROM st ORDER BY id
SELECT id FROM st WHERE a = 'x,Y' ORDER BY id
SELECT id FROM st WHERE a = 'Y,x' ORDER BY id
SELECT id FROM st WHERE a LIKE '%z' ORDER BY id
SELECT id FROM st WHERE b IN ('red', 'red,green,blue') ORDER BY id
SELECT id, find_in_set('z', concat(a, '')) FROM st ORDER BY id
SELECT a, count(*) FROM st GROUP BY a
SELECT DISTINCT b FROM st
UPDATE st SET a = 'z' WHERE id = 1
UPDATE st SET b = 'green' WHERE b = 'red'
SELECT id, a, b FROM st ORDER BY id
-- Definitions MariaDB refuses, or accepts with a note.
CREATE TABLE st_dup (a SET('x','y','x'))
CREATE TABLE st_dupcase (a SET('x','y','X'))
CREATE TABLE st_comma (a SET('x','y,z'))
CREATE TABLE st_bad_default (a SET('x','y') DEFAULT 'q')
SET sql_mode = ''
CREATE TABLE st_dup (a SET('x','y','x'))
SHOW CREATE TABLE st_dup
INSERT INTO st_dup VALUES ('x'), ('y'), ('x,y')
SELECT a FROM st_dup
INSERT INTO st VALUES (20, 'x,q', 'red', 'one')
SET sql_mode = DEFAULT
CREATE TABLE st_trail (a SET('a ', 'b  ') DEFAULT 'b')
SHOW CREATE TABLE st_trail
-- 64 members fit in 8 bytes; 65 are too many.
CREATE TABLE st64 (a SET('m0','m1','m2','m3','m4','m5','m6','m7','m8','m9','m10','m11','m12','m13','m14','m15','m16','m17','m18','m19','m20','m21','m22','m23','m24','m25','m26','m27','m28','m29','m30','m31','m32','m33','m34','m35','m36','m37','m38','m39','m40','m41','m42','m43','m44','m45','m46','m47','m48','m49','m50','m51','m52','m53','m54','m55','m56','m57','m58','m59','m60','m61','m62','m63'))
INSERT INTO st64 VALUES ('m63,m0'), (-1), ('m32')
SELECT length(a) FROM st64
CREATE TABLE st65 (a SET('m0','m1','m2','m3','m4','m5','m6','m7','m8','m9','m10','m11','m12','m13','m14','m15','m16','m17','m18','m19','m20','m21','m22','m23','m24','m25','m26','m27','m28','m29','m30','m31','m32','m33','m34','m35','m36','m37','m38','m39','m40','m41','m42','m43','m44','m45','m46','m47','m48','m49','m50','m51','m52','m53','m54','m55','m56','m57','m58','m59','m60','m61','m62','m63','m64'))
-- ALTER to and from SET, CREATE TABLE ... SELECT.
CREATE TABLE st_alter (id INT PRIMARY KEY, v VARCHAR(20), s SET('p','q'))
INSERT INTO st_alter VALUES (1, 'q,p', 'p'), (2, 'p', 'q,p'), (3, NULL, NULL)
ALTER TABLE st_alter MODIFY v SET('p','q','r')
ALTER TABLE st_alter MODIFY s VARCHAR(10)
SELECT id, v, s FROM st_alter ORDER BY id
SHOW CREATE TABLE st_alter
INSERT INTO st_alter VALUES (4, 'r,s', 'x')
CREATE TABLE st_copy SELECT id, a, b FROM st
SHOW CREATE TABLE st_copy
SELECT id, a, b FROM st_copy ORDER BY id
-- A NOT NULL SET without a default is '' where IGNORE lets the INSERT leave it out.
CREATE TABLE st_nn (a SET('a') NOT NULL)
INSERT INTO st_nn VALUES ()
INSERT IGNORE INTO st_nn VALUES ()
SELECT a, length(a) FROM st_nn
DROP TABLE st, st_dup, st_trail, st64, st_alter, st_copy, st_nn
