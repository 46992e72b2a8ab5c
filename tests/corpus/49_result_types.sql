-- Result-set metadata of stored function calls: a call is described by the
-- function's RETURNS type (as a field: a CHAR stays a CHAR, an ENUM an ENUM),
-- and expressions over a call are typed from it; CREATE TABLE ... SELECT makes
-- the RETURNS type its column (an ENUM a VARCHAR of its longest label).
CREATE FUNCTION fi() RETURNS INT RETURN 1
CREATE FUNCTION fiu() RETURNS INT UNSIGNED RETURN 2
CREATE FUNCTION fti() RETURNS TINYINT RETURN 3
CREATE FUNCTION fbi() RETURNS BIGINT RETURN 4
CREATE FUNCTION fiw() RETURNS INT(5) ZEROFILL RETURN 5
CREATE FUNCTION fv() RETURNS VARCHAR(10) RETURN 'abc'
CREATE FUNCTION fvl() RETURNS VARCHAR(10) CHARSET latin1 RETURN 'é'
CREATE FUNCTION fc() RETURNS CHAR(3) RETURN 'a'
CREATE FUNCTION fd() RETURNS DECIMAL(6,2) RETURN 1.5
CREATE FUNCTION fdb() RETURNS DOUBLE RETURN 1.5
CREATE FUNCTION ff() RETURNS FLOAT RETURN 2.5
CREATE FUNCTION fdt() RETURNS DATE RETURN '2024-01-02'
CREATE FUNCTION fdtt() RETURNS DATETIME(3) RETURN '2024-01-02 03:04:05.678'
CREATE FUNCTION fts() RETURNS TIMESTAMP RETURN '2024-01-02 03:04:05'
CREATE FUNCTION ftm() RETURNS TIME(2) RETURN '10:11:12.13'
CREATE FUNCTION fy() RETURNS YEAR RETURN 2020
CREATE FUNCTION ft() RETURNS TEXT RETURN 'text'
CREATE FUNCTION fb() RETURNS BLOB RETURN 'blob'
CREATE FUNCTION fvb() RETURNS VARBINARY(5) RETURN 'vb'
CREATE FUNCTION fe() RETURNS ENUM('a', 'bb') RETURN 'bb'
CREATE FUNCTION fj() RETURNS JSON RETURN '{"a": 1}'
CREATE FUNCTION fnull() RETURNS INT RETURN NULL
SELECT fi(), fiu(), fti(), fbi(), fiw(), fnull()
SELECT fv(), fvl(), fc(), fd(), fdb(), ff()
SELECT fdt(), fdtt(), fts(), ftm(), fy()
SELECT ft(), fb(), fvb(), fe(), fj()
SELECT fi() AS x, fd() AS y, fc() AS z
SELECT fi() + 1, fd() + 1, fv() + 1, fdb() + 1, fi() * 2, -fi(), fiu() + 1, fbi() + 1, fti() + 1, ft() + 1
SELECT CONCAT(fv(), 'x'), COALESCE(fi(), 2), IF(1, fd(), 0), UPPER(fv()), fi() / 2, ABS(fi()), COALESCE(fti(), fi()), IF(1, fv(), fc())
SELECT SUM(fi()), MAX(fv()), MIN(fd()), COUNT(fi()), AVG(fi())
SELECT * FROM (SELECT fi() AS x, fc() AS y, fe() AS z) d
CREATE TABLE ct AS SELECT fi(), fiu(), fc(), fv(), fvl(), fd(), fe(), ft(), fb(), fvb(), fdtt(), fts(), fiw(), fy(), ff(), fdb(), fj()
SHOW CREATE TABLE ct
SELECT * FROM ct
CREATE TABLE ce AS SELECT fi() + 1 AS p, CONCAT(fv(), 'x') AS cc, COALESCE(fc(), 'x') AS co, COALESCE(fti(), fi()) AS ci, IF(1, fv(), fc()) AS iv
SHOW CREATE TABLE ce
CREATE TABLE cd AS SELECT * FROM (SELECT fe() AS x) d
SHOW CREATE TABLE cd
-- Integer branches aggregate into the widest integer type; strings, FLOAT
-- and DOUBLE columns compute in DOUBLE.
CREATE TABLE ti (a INT, b BIGINT, s SMALLINT, d DOUBLE, f FLOAT, v VARCHAR(5), t TEXT)
INSERT INTO ti VALUES (1, 2, 3, 1.5, 2.5, '7', '8')
SELECT COALESCE(a, 2), COALESCE(s, 2), COALESCE(s, a), COALESCE(a, 2222222222), COALESCE(a, b), IF(1, s, s), IFNULL(s, a) FROM ti
SELECT d + 1, f + 1, v + 1, d * 2, -d, v * 1, -v, t + 1, -(v + 1), -fv(), -fvl(), -fc() FROM ti
CREATE TABLE tc AS SELECT COALESCE(a, 2) AS c1, COALESCE(s, 2) AS c2, COALESCE(s, a) AS c3, d + 1 AS c4, v + 1 AS c5 FROM ti
SHOW CREATE TABLE tc
