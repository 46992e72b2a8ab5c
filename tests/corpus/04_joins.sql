-- Inner and left joins, IN-subqueries, scalar subqueries, EXISTS.
CREATE TABLE cust (id INT PRIMARY KEY, name VARCHAR(20), city VARCHAR(20));
CREATE TABLE ord (id INT PRIMARY KEY, cust_id INT, amount DECIMAL(10,2), status VARCHAR(10), KEY k_cust (cust_id));
CREATE TABLE item (ord_id INT, line INT, product VARCHAR(20), qty INT, PRIMARY KEY (ord_id, line));
INSERT INTO cust VALUES (1, 'acme', 'Oslo'), (2, 'bolt', 'Rome'), (3, 'core', 'Oslo'), (4, 'dyn', NULL);
INSERT INTO ord VALUES (10, 1, 100.00, 'paid'), (11, 1, 50.50, 'open'), (12, 2, 75.25, 'paid'), (13, 5, 10.00, 'paid'), (14, 3, NULL, 'void'), (15, NULL, 1.00, 'open');
INSERT INTO item VALUES (10, 1, 'nut', 3), (10, 2, 'bolt', 5), (11, 1, 'nut', 1), (12, 1, 'gear', 2), (12, 2, 'nut', 7), (99, 1, 'ghost', 1);
SELECT c.name, o.id, o.amount FROM cust c JOIN ord o ON o.cust_id = c.id;
SELECT c.name, o.id FROM cust c INNER JOIN ord o ON o.cust_id = c.id WHERE o.status = 'paid' ORDER BY o.id;
SELECT c.name, o.id FROM cust c LEFT JOIN ord o ON o.cust_id = c.id;
SELECT c.name, o.id FROM cust c LEFT JOIN ord o ON o.cust_id = c.id ORDER BY c.id, o.id;
SELECT c.name FROM cust c LEFT JOIN ord o ON o.cust_id = c.id WHERE o.id IS NULL;
SELECT o.id, c.name FROM ord o LEFT JOIN cust c ON c.id = o.cust_id ORDER BY o.id;
SELECT c.name, COUNT(o.id), SUM(o.amount) FROM cust c LEFT JOIN ord o ON o.cust_id = c.id GROUP BY c.name ORDER BY c.name;
SELECT c.name, COUNT(*) FROM cust c JOIN ord o ON o.cust_id = c.id GROUP BY c.name HAVING COUNT(*) > 1;
SELECT o.id, i.product, i.qty FROM ord o JOIN item i ON i.ord_id = o.id ORDER BY o.id, i.line;
SELECT c.name, i.product, i.qty FROM cust c JOIN ord o ON o.cust_id = c.id JOIN item i ON i.ord_id = o.id;
SELECT i.product, SUM(i.qty) FROM item i JOIN ord o ON o.id = i.ord_id GROUP BY i.product ORDER BY i.product;
SELECT c.name, o.id, i.product FROM cust c LEFT JOIN ord o ON o.cust_id = c.id LEFT JOIN item i ON i.ord_id = o.id ORDER BY c.id, o.id, i.line;
SELECT a.name, b.name FROM cust a JOIN cust b ON a.city = b.city AND a.id < b.id;
SELECT c.name, o.id FROM cust c, ord o WHERE c.id = o.cust_id AND o.amount > 60;
SELECT COUNT(*) FROM cust c CROSS JOIN ord o;
SELECT name FROM cust WHERE id IN (SELECT cust_id FROM ord WHERE status = 'paid');
SELECT name FROM cust WHERE id NOT IN (SELECT cust_id FROM ord WHERE cust_id IS NOT NULL);
SELECT name FROM cust WHERE id NOT IN (SELECT cust_id FROM ord);
SELECT id FROM ord WHERE cust_id IN (SELECT id FROM cust WHERE city = 'Oslo') ORDER BY id;
SELECT name, (SELECT COUNT(*) FROM ord o WHERE o.cust_id = c.id) AS n FROM cust c ORDER BY id;
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM ord o WHERE o.cust_id = c.id AND o.status = 'open');
SELECT name FROM cust c WHERE NOT EXISTS (SELECT 1 FROM ord o WHERE o.cust_id = c.id);
SELECT id FROM ord WHERE amount > (SELECT AVG(amount) FROM ord);
SELECT product FROM item WHERE ord_id IN (SELECT id FROM ord WHERE cust_id IN (SELECT id FROM cust WHERE name LIKE 'a%'));
SELECT t.status, t.n FROM (SELECT status, COUNT(*) AS n FROM ord GROUP BY status) AS t WHERE t.n > 1;
SELECT DISTINCT c.city FROM cust c JOIN ord o ON o.cust_id = c.id;
SELECT c.city, COUNT(DISTINCT o.status) FROM cust c JOIN ord o ON o.cust_id = c.id GROUP BY c.city;
SELECT o.id FROM ord o JOIN cust c ON c.id = o.cust_id WHERE c.city IS NULL;
SELECT c.name, o.amount FROM cust c JOIN ord o ON o.cust_id = c.id ORDER BY o.amount DESC LIMIT 2;
UPDATE ord SET status = 'late' WHERE cust_id IN (SELECT id FROM cust WHERE city = 'Rome');
SELECT id, status FROM ord ORDER BY id;
DELETE FROM item WHERE ord_id NOT IN (SELECT id FROM ord);
SELECT COUNT(*) FROM item;
SELECT c.name, o.id FROM cust c LEFT JOIN ord o ON o.cust_id = c.id AND o.status = 'paid' ORDER BY c.id;
SELECT x.id FROM ord x WHERE x.id IN (10, 12) UNION SELECT y.id FROM ord y WHERE y.id = 14;
SELECT id FROM ord WHERE id < 12 UNION ALL SELECT id FROM ord WHERE id < 12;
-- JOIN ... USING: common columns once, first; the right side's copy only by qualified name.
CREATE TABLE ju1 (k INT, a VARCHAR(5), id INT PRIMARY KEY);
CREATE TABLE ju2 (id INT PRIMARY KEY, b VARCHAR(5), k INT);
CREATE TABLE ju3 (k INT PRIMARY KEY, c VARCHAR(5));
INSERT INTO ju1 VALUES (1, 'a1', 1), (2, 'a2', 2), (NULL, 'a3', 3), (4, 'a4', 4);
INSERT INTO ju2 VALUES (1, 'b1', 1), (2, 'b2', 20), (5, 'b5', 5);
INSERT INTO ju3 VALUES (1, 'c1'), (20, 'c20'), (4, 'c4');
SELECT * FROM ju1 JOIN ju2 USING (id);
SELECT * FROM ju1 JOIN ju2 USING (id, k);
SELECT * FROM ju1 INNER JOIN ju2 USING (k, id);
SELECT * FROM ju1 LEFT JOIN ju2 USING (id) ORDER BY id;
SELECT id, k FROM ju1 JOIN ju2 USING (id) ORDER BY id;
SELECT id, ju1.k, ju2.k, ju2.id FROM ju1 JOIN ju2 USING (id) ORDER BY ju1.id;
SELECT ju2.* FROM ju1 JOIN ju2 USING (id);
SELECT ju1.*, ju2.id FROM ju1 LEFT JOIN ju2 USING (id) ORDER BY ju1.id;
SELECT * FROM ju1 JOIN ju2 USING (id) JOIN ju3 USING (k);
SELECT * FROM ju1 JOIN ju2 USING (id, k) JOIN ju3 USING (k);
SELECT * FROM ju1 LEFT JOIN ju3 USING (k) ORDER BY id;
SELECT * FROM ju1 JOIN ju2 USING (nope);
SELECT * FROM ju1 JOIN ju2 USING (a);
SELECT id, a, b FROM ju1 JOIN ju2 USING (id) WHERE id > 1;
SELECT * FROM ju1 AS x JOIN ju2 AS y USING (id) ORDER BY id;
SELECT x.k, y.k FROM ju1 AS x JOIN ju2 AS y USING (id) ORDER BY id;
SELECT COUNT(*), SUM(id) FROM ju1 JOIN ju3 USING (k);
SELECT * FROM ju1 NATURAL JOIN ju2;
SELECT * FROM ju1 NATURAL LEFT JOIN ju3 ORDER BY id;
SELECT * FROM ju2 NATURAL JOIN ju3;
SELECT k, c FROM ju3 NATURAL JOIN ju1 ORDER BY k;
SELECT COUNT(*) FROM cust NATURAL JOIN ju3;
SELECT * FROM ju1 JOIN ju2 USING (id) NATURAL JOIN ju3;
-- RIGHT JOIN: run as the swapped LEFT JOIN; `*` lists the left table first with ON, the right side's first with USING.
SELECT c.name, o.id FROM cust c RIGHT JOIN ord o ON o.cust_id = c.id ORDER BY o.id;
SELECT * FROM cust c RIGHT JOIN ord o ON o.cust_id = c.id ORDER BY o.id;
SELECT * FROM ord o RIGHT OUTER JOIN cust c ON o.cust_id = c.id ORDER BY c.id, o.id;
SELECT c.name FROM ord o RIGHT JOIN cust c ON o.cust_id = c.id WHERE o.id IS NULL;
SELECT c.name, COUNT(o.id) FROM ord o RIGHT JOIN cust c ON o.cust_id = c.id GROUP BY c.name ORDER BY c.name;
SELECT c.name, o.id, i.product FROM cust c RIGHT JOIN ord o ON o.cust_id = c.id LEFT JOIN item i ON i.ord_id = o.id ORDER BY o.id, i.line;
SELECT c.name, o.id, i.qty FROM cust c RIGHT JOIN ord o ON o.cust_id = c.id JOIN item i ON i.ord_id = o.id ORDER BY o.id, i.line;
SELECT o.*, c.name FROM cust c RIGHT JOIN ord o ON o.cust_id = c.id AND c.city = 'Oslo' ORDER BY o.id;
SELECT * FROM ju1 RIGHT JOIN ju2 USING (id) ORDER BY id;
SELECT * FROM ju1 RIGHT JOIN ju3 USING (k) ORDER BY k;
SELECT * FROM ju1 NATURAL RIGHT JOIN ju3 ORDER BY k;
SELECT ju1.*, ju3.* FROM ju1 RIGHT JOIN ju3 USING (k) ORDER BY ju3.k;
SELECT k FROM ju1 RIGHT JOIN ju3 USING (k) ORDER BY k;
SELECT * FROM cust c RIGHT JOIN cust c ON c.id = c.id;
SELECT * FROM cust c RIGHT JOIN ord o ON o.nope = c.id;
-- A join nested on the right, `a JOIN b JOIN c ON ...` (parsed as a JOIN (b JOIN c ON ...)), with inner joins only.
CREATE TABLE nja (x INT)
CREATE TABLE njb (x INT)
CREATE TABLE njc (x INT)
INSERT INTO nja VALUES (1),(2),(3)
INSERT INTO njb VALUES (2),(3),(4)
INSERT INTO njc VALUES (3),(4),(5)
SELECT nja.x, njb.x, njc.x FROM nja JOIN njb JOIN njc ON njb.x = njc.x ORDER BY 1,2,3
SELECT nja.x, njb.x, njc.x FROM nja JOIN (njb JOIN njc ON njb.x = njc.x) ON nja.x = njb.x ORDER BY 1,2,3
SELECT nja.x, njb.x, njc.x FROM nja JOIN (njb CROSS JOIN njc) ORDER BY 1,2,3
SELECT nja.x, z.x FROM (SELECT NULL) AS q JOIN (SELECT x FROM njb ORDER BY x LIMIT 10) AS z JOIN (SELECT NULL) AS w ON (EXISTS (SELECT 1 FROM njc WHERE njc.x = z.x LIMIT 1)) JOIN nja ON nja.x = z.x ORDER BY 1
SELECT count(*) FROM nja JOIN njb JOIN njc ON njb.x = njc.x WHERE nja.x > 1
