-- A stored function (or a trigger) called inside a statement reads through
-- that statement's transaction: it sees the transaction's earlier writes,
-- in a SELECT, an INSERT ... SELECT, an UPDATE's SET and a trigger's SET NEW.
CREATE TABLE ft (a INT)
CREATE TABLE tl (n INT)
CREATE FUNCTION fc() RETURNS INT READS SQL DATA RETURN (SELECT COUNT(*) FROM ft)
CREATE FUNCTION fsum(x INT) RETURNS INT READS SQL DATA BEGIN DECLARE s INT; SELECT SUM(a) INTO s FROM ft WHERE a > x; RETURN s; END
CREATE TRIGGER tr BEFORE INSERT ON tl FOR EACH ROW SET NEW.n = (SELECT COUNT(*) FROM ft) + fc()
BEGIN
INSERT INTO ft VALUES (1), (2)
SELECT fc(), fsum(0)
INSERT INTO ft SELECT fc()
UPDATE ft SET a = fc() + 10 WHERE a = 1
INSERT INTO tl VALUES (0)
INSERT INTO tl SELECT fsum(1)
SELECT a FROM ft ORDER BY a
SELECT n FROM tl ORDER BY n
DELETE FROM ft WHERE a = fsum(12)
SELECT a, fc() FROM ft ORDER BY a
ROLLBACK
SELECT fc(), fsum(0)
SET autocommit = 0
INSERT INTO ft VALUES (5)
SET @n = fc()
SELECT @n, fc() + 1
COMMIT
SET autocommit = 1
SELECT fc(), fsum(0)
