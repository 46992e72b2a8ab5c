-- Variables are typed by what they hold when the statement starts, as
-- MariaDB types them: a user variable's integer as BIGINT, DECIMAL with 38
-- decimals (shown with its own digits), string as LONGTEXT, NULL or unset
-- as LONGBLOB; a system variable by its kind (ON/OFF, number, DOUBLE,
-- string as long as its value). Results longer than a VARCHAR are
-- MEDIUMBLOB / LONGBLOB items.
SET @vi = 7, @vu = 18446744073709551615, @vd = 1.25, @vf = 1e3, @vs = 'abc', @vn = NULL
SELECT @vi, @vu, @vd, @vf, @vs, @vn, @v_never_set
SELECT @vi + 1, @vd + 1, @vd * 2, @vd - 0.5, -@vd, @vf + 1
SELECT @vd := 2.5, @vd, @vi := 'x', @vi
SELECT @vi, @vd
SELECT @vnew := 5, @vnew + 1, @vnew
SELECT @vlater, @vlater := 5
SELECT @vlater
CREATE TABLE vt AS SELECT @vi AS i, @vd AS d, @vf AS f, @vs AS s, @v_never_set AS u, @vd + 1 AS d1
SHOW CREATE TABLE vt
SELECT * FROM vt
SELECT @@autocommit, @@big_tables, @@sql_mode, @@join_buffer_size, @@auto_increment_increment
SELECT @@long_query_time, @@time_zone, @@global.time_zone, @@optimizer_search_depth
SELECT REPEAT('a', 70000) = '', LENGTH(REPEAT('ab', 40000))
SELECT REPEAT('a', 70000) LIMIT 0
