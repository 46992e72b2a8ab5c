-- SELECT ... INTO @var at the top level: the one row stored, after the
-- select list or (deprecated, warning 1287) at the end of the query; no row
-- warns 1329; more rows, a count mismatch and a misplaced INTO are errors.
CREATE TABLE sit (a INT PRIMARY KEY, b VARCHAR(10), c DECIMAL(5,2))
INSERT INTO sit VALUES (1, 'one', 1.50), (2, 'two', NULL), (3, 'three', -0.25)
SELECT a, b INTO @sa, @sb FROM sit WHERE a = 2
SELECT @sa, @sb
SELECT c FROM sit WHERE a = 3 INTO @sc
SELECT @sc
SELECT b FROM sit ORDER BY a DESC LIMIT 1 INTO @sb
SELECT @sb
SELECT 5 INTO @s5
SELECT @s5
SELECT a INTO @sa FROM sit WHERE a > 10
SELECT @sa
SELECT a INTO @sa FROM sit
SELECT a, b INTO @sa FROM sit WHERE a = 1
SELECT a INTO @sa, @sb FROM sit WHERE a = 1
SELECT 1 UNION SELECT 1 INTO @su
SELECT @su
SELECT 1 UNION SELECT 2 INTO @su
SELECT 1 INTO @su UNION SELECT 2
(SELECT 7) INTO @sp
SELECT @sp
WITH w AS (SELECT max(a) m FROM sit) SELECT m INTO @sm FROM w
SELECT @sm
SELECT a INTO @sl FROM sit WHERE a = 1 FOR UPDATE
SELECT @sl
SELECT a FROM sit WHERE a = 3 INTO @sl LOCK IN SHARE MODE
SELECT @sl
SELECT 1 INTO nope
SELECT 1 INTO @sx FROM sit INTO @sy
SELECT (SELECT 1 INTO @sx)
SELECT * FROM (SELECT 1 INTO @sx) d
CREATE VIEW siv AS SELECT 1 INTO @sx
SELECT count(*) INTO @sn FROM sit WHERE b LIKE 't%'
SELECT @sn
DROP TABLE sit
