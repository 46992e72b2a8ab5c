-- The types MariaDB derives for string functions (item_strfunc.cc):
-- REPLACE, REPEAT, LPAD/RPAD (with and without the padding), INSERT,
-- CONCAT_WS, SUBSTRING's byte-count quirk, ELT, QUOTE, SPACE, FORMAT;
-- their collation aggregated from the arguments; string literals in the
-- connection's collation; an always-empty result stored as CHAR(0).
-- A deeply nested call is typed in linear time.
CREATE TABLE sft (a VARCHAR(5), b VARCHAR(3), n INT, bi BIGINT, ti TINYINT, d DOUBLE, dc DECIMAL(10,3), ubi BIGINT UNSIGNED, l VARCHAR(4) CHARACTER SET latin1)
INSERT INTO sft VALUES ('abc', 'x', 3, 12345, 2, 1.5, 12.5, 7, 'déf')
CREATE TABLE sft1 AS SELECT REPLACE(a, b, 'yy') c1, LPAD(a, 10, b) c2, RPAD(a, n, b) c3, REPEAT(a, 3) c4, REPEAT(a, n) c5, INSERT(a, 1, 2, b) c6, CONCAT_WS(',', a, b) c7 FROM sft
SHOW CREATE TABLE sft1
SELECT * FROM sft1
CREATE TABLE sft2 AS SELECT SUBSTRING(a, 2) c8, SUBSTR(a, 2, 2) c9, MID(a, 1, n) c10, SPACE(4) c11, ELT(n, a, b) c12, QUOTE(a) c13, FORMAT(n, 2) c14, LPAD(a, n, b) c16, CONCAT(a, n) c17 FROM sft
SHOW CREATE TABLE sft2
SELECT * FROM sft2
CREATE TABLE sft3 AS SELECT FORMAT(bi, 0) a, FORMAT(ti, 0) b, FORMAT(d, 2) c, FORMAT(dc, 1) e, FORMAT(ubi, 0) f, FORMAT(d, ti) k, SUBSTRING(a, ti) l, LPAD(a, 3) m, RPAD(a, 2, 'xy') n, REPEAT(a, -1) o, LPAD(a, -1, 'x') p, REPEAT(a, NULL) q, SUBSTRING(a, 2, -1) r, SUBSTRING(a, -2) s FROM sft
SHOW CREATE TABLE sft3
SELECT * FROM sft3
CREATE TABLE sft4 AS SELECT REPLACE(l, 'x', 'yz') a, CONCAT(l, a) b, LPAD(l, 6, 'é') c, '' d, NULL e, REPLACE('a', 'b', 'cc') f FROM sft
SHOW CREATE TABLE sft4
SELECT LPAD('ab', 4), RPAD('ab', 4), LPAD('abc', 2), RPAD(NULL, 3)
SELECT REPLACE('abc', 'b', 'xyz'), REPEAT('ab', 2), QUOTE('it''s'), ELT(2, 'a', 'bb', 'ccc')
SELECT REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE('abc', 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b'), 'a', 'b') AS nested
DROP TABLE sft, sft1, sft2, sft3, sft4
