-- MariaDB's type synonyms: INT1 / INT3 / MIDDLEINT, LONG, FIXED, NCHAR,
-- NVARCHAR and SERIAL.
CREATE TABLE syn1 (a int1, b tinyint unsigned, c int3, d middleint, e int2, f int4, g int8)
SHOW CREATE TABLE syn1
INSERT INTO syn1 VALUES (127, 255, 8388607, 8388607, 32767, 2147483647, 9223372036854775807)
INSERT INTO syn1 (a) VALUES (128)
SELECT * FROM syn1
CREATE TABLE syn2 (a long, b fixed(5,2), c fixed, d fixed(7))
SHOW CREATE TABLE syn2
INSERT INTO syn2 VALUES ('long text', 123.456, 12345678901, 1234567)
SELECT * FROM syn2
CREATE TABLE syn3 (a nchar(3), b nvarchar(5), c nchar, d nchar(4) COLLATE utf8mb3_bin)
SHOW CREATE TABLE syn3
SELECT column_name, column_type, character_set_name, collation_name FROM information_schema.columns WHERE table_schema = database() AND table_name = 'syn3' ORDER BY ordinal_position
INSERT INTO syn3 VALUES ('abc', 'åäöüé', 'x', 'Ab')
SELECT a, b, c, d, hex(b) FROM syn3
CREATE TABLE syn4 (id serial, v varchar(10))
SHOW CREATE TABLE syn4
INSERT INTO syn4 (v) VALUES ('one'), ('two')
SELECT * FROM syn4 ORDER BY id
CREATE TABLE syn5 (id serial PRIMARY KEY)
SHOW CREATE TABLE syn5
CREATE TABLE syn6 (a serial, b serial)
CREATE TABLE syn7 (a fixed(70,2))
CREATE TABLE syn8 (a int1 unsigned, b middleint unsigned, c national char(2), d long varchar)
SHOW CREATE TABLE syn8
DROP TABLE syn1, syn2, syn3, syn4, syn5, syn8
