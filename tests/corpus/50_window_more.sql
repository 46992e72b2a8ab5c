-- PERCENT_RANK / CUME_DIST are DOUBLE shown with 10 decimals; PERCENTILE_CONT,
-- PERCENTILE_DISC and MEDIAN ... OVER (PARTITION BY ...), their errors and
-- types; ORDER BY expressions naming select-list aliases; the session's
-- Feature_window_functions counter.
CREATE TABLE wp (id INT PRIMARY KEY, name CHAR(10), test DOUBLE, score DECIMAL(19,4), i INT, u BIGINT UNSIGNED, f FLOAT, tm TIME, d DATE, s VARCHAR(10))
INSERT INTO wp VALUES (1, 'Chun', 0, 3, 1, 10, 1.5, '01:00:00', '2020-01-01', 'x'), (2, 'Chun', 0, 7, 2, 20, 2.5, '02:00:00', '2020-01-02', 'y'), (3, 'Kaolin', 0.5, 3, 3, 30, 3.5, '03:00:00', '2020-01-03', 'z'), (4, 'Kaolin', 0.6, 7, NULL, 40, NULL, NULL, NULL, NULL), (5, 'Kaolin', 0.5, 4, 5, 50, 5.5, '05:00:00', '2020-01-05', 'w'), (6, 'Tatiana', 0.8, 4, 6, 60, 6.5, '06:00:00', '2020-01-06', 'v'), (7, 'Tata', 0.8, 4, NULL, NULL, NULL, NULL, NULL, NULL)
SHOW STATUS LIKE 'Feature_window_functions'
SELECT id, percent_rank() OVER (ORDER BY score) AS pr, cume_dist() OVER (ORDER BY score) AS cd FROM wp ORDER BY id
SELECT id, percent_rank() OVER (PARTITION BY name ORDER BY i) AS pr, cume_dist() OVER (PARTITION BY name ORDER BY i DESC) AS cd FROM wp ORDER BY id
SHOW STATUS LIKE 'Feature_window_functions'
CREATE TABLE wc AS SELECT percent_rank() OVER (ORDER BY id) AS p, cume_dist() OVER (ORDER BY id) AS c, percentile_cont(0.5) WITHIN GROUP (ORDER BY score) OVER () AS pc, median(i) OVER () AS m, percentile_cont(0.123456) WITHIN GROUP (ORDER BY i) OVER () AS pc6, percentile_cont(test) WITHIN GROUP (ORDER BY i) OVER (PARTITION BY test) AS pcd, percentile_disc(0.5) WITHIN GROUP (ORDER BY score) OVER () AS pd, percentile_disc(0.5) WITHIN GROUP (ORDER BY i) OVER () AS pdi, percentile_disc(0.5) WITHIN GROUP (ORDER BY tm) OVER () AS pdt, percentile_disc(0.5) WITHIN GROUP (ORDER BY d) OVER () AS pdd, percentile_disc(0.5) WITHIN GROUP (ORDER BY s) OVER () AS pds FROM wp
SHOW CREATE TABLE wc
SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS c FROM wp ORDER BY id
SELECT name, percentile_disc(0.5) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS c FROM wp ORDER BY id
SELECT name, percentile_cont(0.1) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS c, percentile_cont(0.9) WITHIN GROUP (ORDER BY score DESC) OVER (PARTITION BY name) AS cd FROM wp ORDER BY id
SELECT name, percentile_disc(0.4) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS a, percentile_disc(0.7) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS b, percentile_disc(0.25) WITHIN GROUP (ORDER BY score DESC) OVER (PARTITION BY name) AS c FROM wp ORDER BY id
SELECT name, percentile_disc(0) WITHIN GROUP (ORDER BY i) OVER (PARTITION BY name) AS a, percentile_disc(1) WITHIN GROUP (ORDER BY i) OVER (PARTITION BY name) AS b, median(i) OVER (PARTITION BY name) AS m FROM wp ORDER BY id
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY score) OVER () FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY score) OVER () FROM wp ORDER BY id
SELECT median(score) OVER (PARTITION BY name), percentile_cont(0.3) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS c FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY tm) OVER () AS ct, percentile_cont(0.5) WITHIN GROUP (ORDER BY d) OVER () AS cd, percentile_cont(0.5) WITHIN GROUP (ORDER BY u) OVER () AS cu, percentile_cont(0.5) WITHIN GROUP (ORDER BY f) OVER () AS cf FROM wp ORDER BY id
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY tm) OVER () AS dt, percentile_disc(0.5) WITHIN GROUP (ORDER BY d) OVER () AS dd, percentile_disc(0.5) WITHIN GROUP (ORDER BY u) OVER () AS du, percentile_disc(0.5) WITHIN GROUP (ORDER BY f) OVER () AS df, percentile_disc(0.5) WITHIN GROUP (ORDER BY s) OVER () AS ds FROM wp ORDER BY id
SELECT name, percentile_cont(true) WITHIN GROUP (ORDER BY i) OVER (PARTITION BY name) AS c FROM wp ORDER BY id
SELECT * FROM (SELECT name, percentile_disc(0.5) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) AS p FROM wp) AS t ORDER BY name
SELECT name FROM wp a WHERE (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM wp b LIMIT 1) >= 0.5 ORDER BY a.id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY score) OVER () FROM wp WHERE 0
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY score) OVER () FROM wp WHERE 0
SELECT median(i) OVER (), median(u) OVER (PARTITION BY id) FROM wp WHERE id > 100
CREATE VIEW wv AS SELECT name, median(i) OVER (PARTITION BY name) AS m, percentile_disc(0.25) WITHIN GROUP (ORDER BY score DESC) OVER () AS d FROM wp
SHOW CREATE VIEW wv
SELECT * FROM wv
SHOW STATUS LIKE 'Feature_window_functions'
-- Errors: types at bind time, values per partition.
SELECT percentile_cont(null) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM wp ORDER BY id
SELECT percentile_disc(name) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM wp ORDER BY id
SELECT percentile_cont('0.5') WITHIN GROUP (ORDER BY score) OVER () FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY name) OVER () FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY null) OVER () FROM wp ORDER BY id
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY name) OVER (PARTITION BY score) AS r FROM wp ORDER BY id
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY null) OVER () FROM wp ORDER BY id
SELECT percentile_disc(1.5) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM wp ORDER BY id
SELECT percentile_cont(-0.1) WITHIN GROUP (ORDER BY score) OVER () FROM wp ORDER BY id
SELECT name, percentile_cont(test) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM wp ORDER BY id
SELECT name, percentile_cont(i / 10) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY i) FROM wp ORDER BY id
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY score, test) OVER (PARTITION BY name) FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) OVER (ORDER BY i) FROM wp ORDER BY id
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) OVER (ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM wp ORDER BY id
SELECT median(i) OVER (ORDER BY i) FROM wp ORDER BY id
SELECT median(i) OVER w FROM wp WINDOW w AS (PARTITION BY i)
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FROM wp ORDER BY id
SELECT median(i) FROM wp ORDER BY id
SELECT median(i, i) OVER () FROM wp ORDER BY id
SELECT median(DISTINCT i) OVER () FROM wp ORDER BY id
SELECT percentile_cont(0.5, 1) WITHIN GROUP (ORDER BY i) OVER () FROM wp ORDER BY id
SELECT percentile_disc() WITHIN GROUP (ORDER BY i) OVER () FROM wp ORDER BY id
SELECT rank() WITHIN GROUP (ORDER BY i) OVER () FROM wp ORDER BY id
-- ORDER BY expressions over select-list aliases (a table column of the name wins).
SELECT i + 1 AS x FROM wp ORDER BY -x, id
SELECT score AS x FROM wp ORDER BY x * 2 DESC, id
SELECT s AS i FROM wp ORDER BY -i, id
SELECT id, sum(i) OVER (ORDER BY id) AS x FROM wp ORDER BY -x, id
SELECT id, row_number() OVER (ORDER BY id DESC) AS x FROM wp ORDER BY x + 0
SELECT avg('1') OVER () AS x FROM wp ORDER BY x BETWEEN 25 AND ((x = x) / x) OR x = 94, id
SELECT name, count(*) AS n FROM wp GROUP BY name ORDER BY n * -1, name
SELECT name, sum(count(*)) OVER () AS n FROM wp GROUP BY name ORDER BY n * -1, name
SELECT id AS x FROM wp ORDER BY nosuch + 1
-- Feature_window_functions: once per query block with window functions that binds.
SELECT (SELECT max(i) OVER () FROM wp b WHERE b.id = a.id LIMIT 1) AS m FROM wp a ORDER BY id
SHOW STATUS LIKE 'Feature_window_functions'
SELECT rank() OVER (ORDER BY id) FROM wp UNION ALL SELECT rank() OVER (ORDER BY id) FROM wp
SELECT t_a.r1, t_b.r2 FROM (SELECT id, rank() OVER (ORDER BY id) AS r1 FROM wp) t_a, (SELECT id, row_number() OVER (ORDER BY id) AS r2 FROM wp) t_b WHERE t_a.id = t_b.id
SELECT rank() OVER (ORDER BY nosuch) FROM wp
SELECT 1 FROM wp WINDOW w AS (ORDER BY id)
SHOW STATUS LIKE 'Feature_window_functions'
-- Rows nested in rows compare column by column; an aggregate in ORDER BY groups the rows.
SELECT (1, 1, (1, NULL)) IN ((1, 1, (1, 1))), (1, (1, 2)) IN ((1, (1, 2)), (2, (1, 1))), (1, (1, 2)) = (1, (1, 2)), (1, (1, 2)) < (1, (1, 3))
SELECT (1, (1, 2)) = (1, 1)
SELECT (1, 1) = (1, (1, 2))
SELECT (1, (1, 2)) IN ((1, 1))
SELECT avg('1') OVER () AS x WHERE (1, 1, (1, NULL)) IN ((1, 1, (1, 1))) ORDER BY x BETWEEN 25 AND ((x = x) / x) OR x = x = avg(NULL) OR x = 94
SELECT row_number() OVER () AS x ORDER BY x BETWEEN 1 AND ((x = x) / x) OR x = x = 1
SELECT 1 AS x FROM wp WHERE 0 ORDER BY count(*)
