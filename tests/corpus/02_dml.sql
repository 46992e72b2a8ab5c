-- DML: multi-row INSERT, IGNORE, ON DUPLICATE KEY UPDATE, REPLACE, UPDATE/DELETE with ORDER BY LIMIT, LAST_INSERT_ID.
CREATE TABLE inv (id INT AUTO_INCREMENT PRIMARY KEY, sku VARCHAR(10) NOT NULL, qty INT NOT NULL DEFAULT 0, price DECIMAL(8,2), UNIQUE KEY uk_sku (sku));
INSERT INTO inv (sku, qty, price) VALUES ('a1', 5, 1.50), ('a2', 0, 2.00), ('a3', 12, 0.99);
SELECT LAST_INSERT_ID();
INSERT INTO inv (sku, qty) VALUES ('a4', 4);
SELECT LAST_INSERT_ID();
SELECT * FROM inv ORDER BY id;
INSERT IGNORE INTO inv (sku, qty) VALUES ('a1', 99);
INSERT IGNORE INTO inv (sku, qty) VALUES ('a1', 99), ('a5', 5), ('a2', 77); -- @novalues
SELECT sku, qty FROM inv ORDER BY sku;
INSERT INTO inv (sku, qty) VALUES ('a1', 1) ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty); -- @novalues
INSERT INTO inv (sku, qty) VALUES ('a9', 9) ON DUPLICATE KEY UPDATE qty = qty + 1; -- @novalues
INSERT INTO inv (sku, qty) VALUES ('a9', 9) ON DUPLICATE KEY UPDATE qty = 10; -- @novalues
INSERT INTO inv (sku, qty) VALUES ('a9', 9) ON DUPLICATE KEY UPDATE qty = qty; -- @novalues
INSERT INTO inv (sku, qty) VALUES ('a2', 1), ('a3', 1), ('b1', 1) ON DUPLICATE KEY UPDATE qty = qty + 100; -- @novalues
SELECT sku, qty FROM inv ORDER BY sku;
REPLACE INTO inv (id, sku, qty) VALUES (1, 'a1', 1000);
REPLACE INTO inv (id, sku, qty) VALUES (100, 'r1', 1);
REPLACE INTO inv (id, sku, qty) VALUES (101, 'a2', 2);
SELECT sku, qty FROM inv ORDER BY sku;
UPDATE inv SET qty = qty * 2 WHERE qty < 10;
UPDATE inv SET qty = qty WHERE sku = 'a1';
UPDATE inv SET price = 3.25 WHERE price IS NULL ORDER BY id LIMIT 2;
SELECT sku, price FROM inv ORDER BY sku;
UPDATE inv SET qty = 0 ORDER BY qty DESC, id LIMIT 1;
SELECT sku, qty FROM inv ORDER BY qty DESC, sku LIMIT 3;
UPDATE inv SET sku = 'a5' WHERE sku = 'a4';
DELETE FROM inv WHERE sku = 'nope';
DELETE FROM inv ORDER BY id DESC LIMIT 1;
DELETE FROM inv WHERE qty > 100 ORDER BY sku LIMIT 1;
SELECT sku, qty FROM inv ORDER BY sku;
DELETE FROM inv WHERE id IN (2, 3, 999);
SELECT COUNT(*) FROM inv;
INSERT INTO inv SET sku = 'set1', qty = 3;
SELECT sku, qty, price FROM inv WHERE sku = 'set1';
INSERT INTO inv (sku, qty) SELECT CONCAT('c', sku), qty + 1 FROM inv WHERE qty < 10;
SELECT sku, qty FROM inv WHERE sku LIKE 'c%' ORDER BY sku;
CREATE TABLE log (n INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO log VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five'), (6, 'six');
DELETE FROM log WHERE n > 2 ORDER BY n LIMIT 2;
SELECT * FROM log ORDER BY n;
UPDATE log SET v = UPPER(v) WHERE n BETWEEN 2 AND 5;
SELECT * FROM log ORDER BY n;
UPDATE log SET n = n + 10 ORDER BY n DESC;
SELECT * FROM log ORDER BY n;
DELETE FROM log;
SELECT COUNT(*) FROM log;
CREATE TABLE ai (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, v INT);
INSERT INTO ai (v) VALUES (1), (2), (3);
SELECT LAST_INSERT_ID();
INSERT INTO ai (id, v) VALUES (50, 4);
INSERT INTO ai (v) VALUES (5);
SELECT id, v FROM ai ORDER BY id;
INSERT INTO ai (id, v) VALUES (0, 6);
SELECT id, v FROM ai ORDER BY id;
DELETE FROM ai WHERE id > 50;
INSERT INTO ai (v) VALUES (7);
SELECT MAX(id) FROM ai;
SELECT LAST_INSERT_ID(42);
SELECT LAST_INSERT_ID();
UPDATE ai SET v = v + 1 WHERE id = 1;
SELECT v FROM ai WHERE id = 1;
-- MariaDB's RETURNING: INSERT, REPLACE and DELETE give the rows they wrote or removed.
CREATE TABLE ret (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10) NOT NULL, qty INT DEFAULT 1, UNIQUE KEY uk_name (name));
INSERT INTO ret (name) VALUES ('x'), ('y') RETURNING id, name, qty;
INSERT INTO ret (name, qty) VALUES ('z', 5) RETURNING *;
INSERT INTO ret (name, qty) VALUES ('w', 2) RETURNING id AS new_id, qty * 10, CONCAT(name, '!') AS shout;
INSERT IGNORE INTO ret (name) VALUES ('x'), ('v') RETURNING id, name;
REPLACE INTO ret (id, name, qty) VALUES (1, 'x', 9) RETURNING id, name, qty;
INSERT INTO ret (name, qty) VALUES ('y', 7) ON DUPLICATE KEY UPDATE qty = qty + 100 RETURNING id, name, qty;
INSERT INTO ret (name, qty) SELECT CONCAT(name, '2'), qty FROM ret WHERE id <= 2 RETURNING name, qty;
DELETE FROM ret WHERE qty > 5 RETURNING name, qty;
DELETE FROM ret WHERE name = 'nope' RETURNING id;
SELECT * FROM ret ORDER BY id;
UPDATE ret SET qty = 0 RETURNING id;
INSERT INTO ret (name) VALUES ('q') RETURNING nosuch;
-- Table maintenance answers with MariaDB's result set.
CHECK TABLE ret;
CHECK TABLE ret, inv EXTENDED;
CHECK TABLE nope;
ANALYZE TABLE ret;
REPAIR TABLE ret;
OPTIMIZE TABLE ret;
OPTIMIZE TABLE nope;
