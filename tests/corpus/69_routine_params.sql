-- Stored routines' parameters and variables: IN / OUT / INOUT parameters of
-- functions (MariaDB 10.8+): shown, listed in information_schema.PARAMETERS,
-- written back to user and local variables where the calling statement
-- allows them (SET, DO, CALL, REPLACE, a routine's expressions) and refused
-- with 4187 where it does not (SELECT, INSERT, UPDATE, DELETE); 1414 for an
-- argument that is not a variable; cursors take IN parameters only.
CREATE TABLE pt (id INT, age INT)
INSERT INTO pt VALUES (1, 10), (2, 20), (3, 30)
CREATE FUNCTION fio(IN a INT, OUT c INT, INOUT d INT) RETURNS INT BEGIN SET c = 100; SET d = d + 1; RETURN a + 1; END
CREATE FUNCTION fout(OUT a INT) RETURNS INT BEGIN SELECT age INTO a FROM pt WHERE id = 3; RETURN 7; END
CREATE FUNCTION fin(IN a INT, b INT) RETURNS INT RETURN a + b
SHOW CREATE FUNCTION fio
SHOW CREATE FUNCTION fin
SELECT ORDINAL_POSITION, PARAMETER_MODE, PARAMETER_NAME, DATA_TYPE, DTD_IDENTIFIER, ROUTINE_TYPE FROM information_schema.PARAMETERS WHERE SPECIFIC_SCHEMA = DATABASE() AND SPECIFIC_NAME = 'fio' ORDER BY ORDINAL_POSITION
SELECT PARAMETER_MODE, PARAMETER_NAME FROM information_schema.PARAMETERS WHERE SPECIFIC_SCHEMA = DATABASE() AND SPECIFIC_NAME = 'fout' ORDER BY ORDINAL_POSITION
SELECT fin(2, 3)
SET @c = 0, @d = 5
SET @r = fio(1, @c, @d)
SELECT @r, @c, @d
SET @r = fio(1, @c, @d) + 10
SELECT @r, @c, @d
SET @r = (SELECT fio(1, @c, @d))
SELECT @r, @c, @d
SET @r = fio(1, @c, @d), @s = 2
SELECT @r, @s, @c, @d
SET @r = IF(1, fio(1, @c, @d), 0)
SELECT @r, @c, @d
SET @r = fio(1, @c, @d) + fio(2, @c, @d)
SELECT @r, @c, @d
DO fio(1, @c, @d)
SELECT @c, @d
DO 1 + fio(1, @c, @d)
SELECT @c, @d
SELECT fio(1, @c, @d)
SELECT fout(@c)
SELECT 1 FROM DUAL WHERE fio(1, @c, @d) = 0
SELECT fio(1, @c, @d) FROM pt WHERE id = 99
VALUES (fio(1, @c, @d))
SELECT @c, @d
INSERT INTO pt VALUES (4, fio(1, @c, @d))
INSERT INTO pt SELECT 5, fio(1, @c, @d)
UPDATE pt SET age = fio(1, @c, @d) WHERE id = 1
DELETE FROM pt WHERE id = fio(1, @c, @d)
REPLACE INTO pt VALUES (6, fio(1, @c, @d))
SELECT id, age FROM pt ORDER BY id
SELECT @c, @d
SET @r = fio(1, 2, @d)
SET @r = fio(1, @c, 3)
SELECT fio(1, 2, 3)
SET @r = fio(1, @c)
SELECT fio(1, @c)
SET @r = fio(1, @c, @@sql_mode)
SET @c = NULL, @d = NULL
SET @r = fio(NULL, @c, @d)
SELECT @r IS NULL, @c, @d IS NULL
SET @c = 0, @d = 5
SET @r = fio(1, @c, @c)
SELECT @r, @c, @d
SET @r = fio(1, @d, @d)
SELECT @r, @c, @d
SET @c = 'abc', @d = '7x'
SET @r = fio(1, @c, @d)
SELECT @c = 'abc', @d = '7x'
SET @r = fout(@c)
SELECT @r, @c
CREATE PROCEDURE pio(k INT) BEGIN DECLARE c INT DEFAULT 0; DECLARE d INT DEFAULT 5; DECLARE r INT; CASE k WHEN 1 THEN IF fio(1, c, d) THEN SELECT 'if', c, d; END IF; WHEN 2 THEN SELECT fio(1, c, d), c, d; WHEN 3 THEN SET r = fio(1, c, d) * 2; SELECT r, c, d; WHEN 4 THEN BEGIN DECLARE x INT DEFAULT fio(1, c, d); SELECT x, c, d; END; WHEN 5 THEN SELECT fio(1, c, d) INTO r; WHEN 7 THEN SET @u = fio(1, c, d); SELECT @u, c, d; WHEN 8 THEN DO fio(1, c, d); SELECT c, d; WHEN 9 THEN CALL pshow(fio(1, c, d)); SELECT c, d; WHEN 10 THEN SET r = fio(1, c, r); SELECT r, c, d; END CASE; END
CREATE PROCEDURE pshow(x INT) SELECT x
CALL pio(1)
CALL pio(2)
CALL pio(3)
CALL pio(4)
CALL pio(5)
CALL pio(7)
CALL pio(8)
CALL pio(9)
CALL pio(10)
CREATE FUNCTION fret() RETURNS INT BEGIN DECLARE c, d INT DEFAULT 1; RETURN fio(1, c, d); END
CREATE FUNCTION fset() RETURNS INT BEGIN DECLARE c, d INT DEFAULT 1; DECLARE r INT; SET r = fio(1, c, d); RETURN d * 1000 + c; END
CREATE FUNCTION fsel() RETURNS INT BEGIN DECLARE c, d INT DEFAULT 1; DECLARE r INT; SELECT fio(1, c, d) INTO r; RETURN r; END
SELECT fret(), fset()
SELECT fsel()
SET @x = fset()
SELECT @x
CREATE PROCEDURE pcall(IN a INT, OUT b INT) BEGIN DECLARE res INT; SET res = fio(a, b, a); END
SET @b = 0
CALL pcall(4, @b)
SELECT @b
CREATE TABLE plog (n INT)
INSERT INTO plog VALUES (0)
CREATE FUNCTION fnew(IN age_in INT, OUT age_out INT) RETURNS INT BEGIN UPDATE plog SET n = n + 1; SET age_out = age_in + 1; RETURN 0; END
CREATE TRIGGER ptrg BEFORE UPDATE ON pt FOR EACH ROW BEGIN DECLARE res INT DEFAULT (fnew(OLD.age, NEW.age)); END
UPDATE pt SET age = 50 WHERE id = 2
SELECT id, age FROM pt ORDER BY id
SELECT n FROM plog
DROP TRIGGER ptrg
BEGIN NOT ATOMIC DECLARE c CURSOR(IN a INT) FOR SELECT a; OPEN c(1); CLOSE c; SELECT 'in cursor'; END
BEGIN NOT ATOMIC DECLARE c CURSOR(OUT a INT) FOR SELECT a; OPEN c(1); CLOSE c; END
BEGIN NOT ATOMIC DECLARE c CURSOR(INOUT a INT) FOR SELECT a; OPEN c(1); CLOSE c; END
-- Anchored types (TYPE OF t.col, ROW TYPE OF t) name a table of the caller's
-- current database, not the routine's (1046 when there is none); a view or
-- an information_schema table anchors them too.
DROP DATABASE IF EXISTS p69_other
CREATE DATABASE p69_other
CREATE TABLE anc (a VARCHAR(10), b INT)
CREATE TABLE p69_other.anc (a INT, b VARCHAR(10))
CREATE PROCEDURE panc() BEGIN DECLARE a TYPE OF anc.a DEFAULT '007'; SELECT CONCAT('[', a, ']') AS a; END
CREATE PROCEDURE prow() BEGIN DECLARE r ROW TYPE OF anc; SET r.a = '007', r.b = '08'; SELECT CONCAT(r.a, '/', r.b) AS r; END
CREATE FUNCTION fanc() RETURNS VARCHAR(20) BEGIN DECLARE a TYPE OF anc.a DEFAULT '007'; RETURN CONCAT('[', a, ']'); END
CALL panc()
CALL prow()
SELECT fanc()
USE p69_other
CALL diff_69_routine_params.panc()
CALL diff_69_routine_params.prow()
SELECT diff_69_routine_params.fanc()
DROP DATABASE p69_other
CALL diff_69_routine_params.panc()
CALL diff_69_routine_params.prow()
SELECT diff_69_routine_params.fanc()
USE diff_69_routine_params
CREATE VIEW vanc AS SELECT a, b, b AS c FROM anc
CREATE PROCEDURE pview() BEGIN DECLARE r ROW TYPE OF vanc; DECLARE x TYPE OF vanc.a DEFAULT '009'; SET r.a = '007', r.c = '3'; SELECT CONCAT(r.a, '/', r.c, '/', x) AS r; END
CALL pview()
CREATE PROCEDURE pnoview() BEGIN DECLARE r ROW TYPE OF vnone; SELECT 1; END
CALL pnoview()
CREATE PROCEDURE pis() BEGIN DECLARE n TYPE OF INFORMATION_SCHEMA.TABLES.TABLE_NAME DEFAULT 'x'; DECLARE r ROW TYPE OF INFORMATION_SCHEMA.ROUTINES; SET r.ROUTINE_NAME = 'abc'; SELECT CONCAT(n, r.ROUTINE_NAME) = 'xabc' AS v; END
CALL pis()
-- A variable in LIMIT / OFFSET must have an integer type known when the
-- body is read (1691): not an anchored type, a string, a whole ROW.
CREATE PROCEDURE plim1() BEGIN DECLARE rec1 ROW TYPE OF anc; SELECT * FROM anc LIMIT rec1.b; END
CREATE PROCEDURE plim2() BEGIN DECLARE x TYPE OF anc.b; SELECT * FROM anc LIMIT x; END
CREATE PROCEDURE plim3() BEGIN DECLARE x VARCHAR(10); SELECT * FROM anc LIMIT x; END
CREATE PROCEDURE plim4() BEGIN DECLARE rec1 ROW(a VARCHAR(10), b INT); SELECT * FROM anc LIMIT rec1.a; END
CREATE PROCEDURE plim5() BEGIN DECLARE x INT; DECLARE rec1 ROW TYPE OF anc; SELECT * FROM anc LIMIT x OFFSET rec1.b; END
CREATE PROCEDURE plim6() BEGIN DECLARE rec1 ROW(a INT, b INT); SELECT * FROM anc LIMIT rec1; END
CREATE PROCEDURE plim7() BEGIN DECLARE cur1 CURSOR FOR SELECT * FROM anc; BEGIN DECLARE rec1 ROW TYPE OF cur1; SELECT * FROM anc LIMIT rec1.b; END; END
CREATE PROCEDURE plim8(n VARCHAR(5)) SELECT * FROM anc LIMIT n
CREATE PROCEDURE plim9() BEGIN DECLARE x VARCHAR(5); BEGIN DECLARE x INT DEFAULT 1; SELECT * FROM anc LIMIT x; END; END
CREATE PROCEDURE plim10() BEGIN DECLARE rec1 ROW(a INT, b INT) DEFAULT (1, 0); DECLARE y TYPE OF rec1; DECLARE z TYPE OF y; SELECT a FROM anc ORDER BY a LIMIT z.a OFFSET rec1.b; END
CREATE PROCEDURE plim11(n INT) BEGIN FOR i IN 1 .. 2 DO SELECT a FROM anc ORDER BY a LIMIT i OFFSET n; END FOR; END
INSERT INTO anc VALUES ('x', 1), ('y', 2)
CALL plim9()
CALL plim10()
CALL plim11(0)
SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME LIKE 'plim%' ORDER BY ROUTINE_NAME
-- FOR rec IN cursor: the cursor is open while the loop runs, a FETCH in
-- the body takes the next row (1329 past the last, or the NOT FOUND
-- handler), FETCH ... INTO rec fills the record, and the loop closes it.
CREATE TABLE cr (x INT, y VARCHAR(5))
INSERT INTO cr VALUES (1, 'y1'), (2, 'y2'), (3, 'y3')
BEGIN NOT ATOMIC DECLARE x INT; DECLARE cur CURSOR FOR SELECT 1 AS x; FOR rec IN cur DO FETCH cur INTO x; END FOR; END
BEGIN NOT ATOMIC DECLARE x INT; DECLARE cur CURSOR FOR SELECT x FROM cr WHERE x < 3 ORDER BY x; FOR rec IN cur DO FETCH cur INTO x; SELECT rec.x, x; END FOR; END
BEGIN NOT ATOMIC DECLARE done INT DEFAULT 0; DECLARE cur CURSOR FOR SELECT x, y FROM cr ORDER BY x; DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE; forrec: FOR rec IN cur DO SELECT CONCAT(rec.x, ' ', rec.y) AS implicit_fetch; FETCH cur INTO rec; IF done THEN SELECT 'NO DATA' AS explicit_fetch; LEAVE forrec; ELSE SELECT CONCAT(rec.x, ' ', rec.y) AS explicit_fetch; END IF; END FOR; END
BEGIN NOT ATOMIC DECLARE v INT; DECLARE cur CURSOR FOR SELECT 1 AS a FROM DUAL; FOR rec IN cur DO SELECT rec.a; END FOR; FETCH cur INTO v; END
BEGIN NOT ATOMIC DECLARE v INT; DECLARE cur CURSOR FOR SELECT 1 AS a FROM DUAL; lbl: FOR rec IN cur DO LEAVE lbl; END FOR; FETCH cur INTO v; END
BEGIN NOT ATOMIC DECLARE cur CURSOR FOR SELECT 1 AS a FROM DUAL; OPEN cur; FOR rec IN cur DO SELECT rec.a; END FOR; END
BEGIN NOT ATOMIC DECLARE cur CURSOR FOR SELECT x AS a FROM cr WHERE x < 3 ORDER BY x; FOR rec IN cur DO SELECT rec.a; END FOR; FOR rec IN cur DO SELECT rec.a * 10 AS a; END FOR; OPEN cur; CLOSE cur; END
-- A stored function creates and drops temporary tables of the calling
-- session (DROP TABLE, which commits, is refused when it is created: 1422).
CREATE FUNCTION ftmp() RETURNS INT BEGIN DROP TEMPORARY TABLE IF EXISTS temp_t1; CREATE TEMPORARY TABLE temp_t1 (i INT) ENGINE=InnoDB; INSERT INTO temp_t1 VALUES (1); RETURN (SELECT COUNT(*) FROM temp_t1); END
SELECT ftmp()
SELECT * FROM temp_t1
INSERT INTO temp_t1 VALUES (2)
SELECT ftmp()
SELECT * FROM temp_t1
DROP TABLE temp_t1
CREATE TEMPORARY TABLE temp_t1 (i INT, j INT)
SELECT ftmp()
SELECT * FROM temp_t1
SELECT ftmp() FROM cr ORDER BY x
SET @t = ftmp()
SELECT @t, COUNT(*) FROM temp_t1
CREATE FUNCTION fdropt() RETURNS INT BEGIN DROP TEMPORARY TABLE IF EXISTS temp_t1; CREATE TEMPORARY TABLE temp_t1 (i INT); INSERT INTO temp_t1 VALUES (1); DROP TABLE temp_t1; RETURN 0; END
CREATE FUNCTION fdropt() RETURNS INT BEGIN DROP TEMPORARY TABLE IF EXISTS temp_t1; CREATE TEMPORARY TABLE temp_t1 (i INT); INSERT INTO temp_t1 VALUES (1); DROP TEMPORARY TABLE temp_t1; RETURN 0; END
SELECT fdropt()
SELECT * FROM temp_t1
CREATE FUNCTION fread() RETURNS INT RETURN (SELECT COUNT(*) FROM temp_t2)
CREATE FUNCTION fmake() RETURNS INT BEGIN DROP TEMPORARY TABLE IF EXISTS temp_t2; CREATE TEMPORARY TABLE temp_t2 (i INT); INSERT INTO temp_t2 VALUES (1), (2); RETURN fread(); END
SELECT fmake()
SELECT i FROM temp_t2 ORDER BY i
CREATE FUNCTION fcreate_exists() RETURNS INT BEGIN CREATE TEMPORARY TABLE temp_t2 (i INT); RETURN 1; END
SELECT fcreate_exists()
CREATE FUNCTION fas() RETURNS INT BEGIN CREATE TEMPORARY TABLE temp_t3 AS SELECT x FROM cr; RETURN (SELECT SUM(x) FROM temp_t3); END
SELECT fas()
SELECT x FROM temp_t3 ORDER BY x
DROP TEMPORARY TABLE temp_t2, temp_t3
-- A name in a routine's own expression that no table around it can give
-- is an undeclared variable when the routine is created (1327); a SELECT
-- or SET @user statement of the body leaves it to the statement.
CREATE PROCEDURE u1() BEGIN DECLARE a INT; IF unknown_ident THEN SET a = 1; END IF; END
CREATE FUNCTION u2() RETURNS INT RETURN unknown_ident
CREATE PROCEDURE u3() BEGIN SELECT unknown_ident; END
CREATE PROCEDURE u4() BEGIN DECLARE x INT DEFAULT unknown_ident; END
CREATE PROCEDURE u5() BEGIN DECLARE a INT; WHILE unknown_ident DO SET a = 1; END WHILE; END
CREATE PROCEDURE u6() BEGIN SET @x = unknown_ident; END
CREATE PROCEDURE u7() BEGIN DECLARE a INT; CASE unknown_ident WHEN 1 THEN SET a = 1; END CASE; END
CREATE PROCEDURE u8() BEGIN CALL u1(unknown_ident); END
CREATE PROCEDURE u9() BEGIN DECLARE a INT; SET a = (SELECT 1 FROM DUAL WHERE unknown_ident); END
CREATE PROCEDURE u10() BEGIN DECLARE a INT; SET a = `unknown_ident`; END
CREATE PROCEDURE u11() BEGIN DECLARE a INT; SET a = COUNT(unknown_ident); END
CREATE PROCEDURE u12() BEGIN DECLARE a INT; SET a = (SELECT * FROM (SELECT unknown_ident) dt); END
CREATE PROCEDURE u13() BEGIN DECLARE a INT; SET a = (WITH c AS (SELECT 1 AS x) SELECT unknown_ident FROM c); END
CREATE PROCEDURE u14() BEGIN DECLARE a INT; SET a = (SELECT unknown_ident UNION SELECT 1); END
CREATE PROCEDURE u15() BEGIN DECLARE a INT; SET a = (SELECT 1 FROM anc WHERE EXISTS (SELECT unknown_ident)); END
CREATE PROCEDURE u17() BEGIN DECLARE a INT; SET a = (SELECT 1 IN (SELECT unknown_ident)); END
CREATE PROCEDURE u18() BEGIN DECLARE a INT; SET a = (SELECT unknown1.x); END
CREATE PROCEDURE u19() BEGIN DECLARE a INT; SET a = unknown1.unknown2.unknown3; END
CREATE PROCEDURE u20() BEGIN DECLARE a INT; SET a = (SELECT 1 GROUP BY unknown_ident); END
CREATE PROCEDURE u21() BEGIN DECLARE a INT; SET a = (SELECT 1 HAVING unknown_ident); END
CREATE PROCEDURE u22() BEGIN DECLARE a INT; SET a = (SELECT 1 HAVING SUM(unknown_ident)); END
CREATE PROCEDURE u23() BEGIN DECLARE a INT; SET a = (SELECT 1 ORDER BY unknown_ident); END
CREATE PROCEDURE u24() BEGIN DECLARE a INT; SET a = (SELECT c1 + (SELECT c2) FROM anc); END
CREATE PROCEDURE u25() BEGIN DECLARE a INT; SET a = a + (SELECT unknown_ident FROM DUAL); END
CREATE PROCEDURE u26() BEGIN DECLARE res INT; SET res = (VALUES(unknown_ident)); END
CREATE PROCEDURE u27() BEGIN DECLARE res INT; SET res = DEFAULT(unknown_ident); END
CREATE PROCEDURE u28() BEGIN DECLARE res INT; SET res = VALUE(unknown_ident); END
CREATE PROCEDURE u29() BEGIN DECLARE res INT; SET res = (SELECT 1 LIMIT unknown_ident); END
CREATE PROCEDURE u30() BEGIN DECLARE cur CURSOR(p INT) FOR SELECT p; OPEN cur(unknown_ident); CLOSE cur; END
CREATE PROCEDURE u31() BEGIN DECLARE a INT; REPEAT SET a = 1; UNTIL unknown_ident END REPEAT; END
SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_NAME LIKE 'u%' ORDER BY ROUTINE_NAME
-- Reserved words MariaDB reads as calls without parentheses are no
-- undeclared variables, in a body or a query.
SELECT UTC_DATE IS NOT NULL, CURRENT_USER, CURRENT_ROLE, UTC_TIME IS NOT NULL, UTC_TIMESTAMP > '2000-01-01', current_user() AS u2
SELECT CURRENT_USER AS u, `CURRENT_USER` AS quoted FROM (SELECT 1 AS `CURRENT_USER`) d
CREATE PROCEDURE kw1() BEGIN DECLARE d DATE; DECLARE u TEXT; SET d = UTC_DATE; SET d = CURRENT_DATE; SET d = LOCALTIME; SET u = CURRENT_USER; SET u = CURRENT_ROLE; SELECT d IS NOT NULL, u IS NULL; END
CALL kw1()
CREATE FUNCTION kw2() RETURNS TEXT RETURN CONCAT(CURRENT_USER, '/', UTC_DATE IS NOT NULL)
SELECT kw2()
CREATE PROCEDURE kw3() BEGIN DECLARE x INT DEFAULT 0; SET x = EXTRACT(YEAR FROM NOW()) > 2000; SET x = CASE WHEN x THEN 1 ELSE 2 END; SET x = COALESCE(NULL, x) + (@uvar IS NULL) + @@autocommit; SET x = x + EXISTS(SELECT 1 FROM DUAL) + (1 IN (SELECT 1)); SELECT x; END
CALL kw3()
DROP PROCEDURE kw1
DROP FUNCTION kw2
DROP PROCEDURE kw3
