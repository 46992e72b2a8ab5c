-- A CALL's arguments are converted to the parameters' types outside any
-- row: MariaDB's conversion errors and warnings say "at row 0" there, as
-- SET's do (a function called in a query names the query's row).
CREATE PROCEDURE caw(p INT) SELECT p
CALL caw('x1')
SET SESSION sql_mode = ''
CALL caw('x1')
CALL caw('12abc')
SET SESSION sql_mode = DEFAULT
CREATE FUNCTION caf(a INT) RETURNS INT RETURN a
SELECT caf('z1')
DROP PROCEDURE caw
DROP FUNCTION caf
