"""A MariaDB application database with stored routines, triggers and a view
over a function, dumped with `mariadb-dump --routines --triggers`, loads into
OneLog and behaves the same there (issue 21).

The schema is made in MariaDB 10.11 with the `mariadb` CLI (DELIMITER
blocks, as an application's migration would), dumped, and loaded into
OneLog. Both servers must then print the same SHOW CREATE
PROCEDURE / FUNCTION / TRIGGER / VIEW and SHOW TRIGGERS (but the trigger
creation time, which a load sets anew on MariaDB too), give the same result
or error (code and message, SIGNAL included) for every statement of one
workload, and end with the same rows in every table: the triggers and
routines did the same work. Finally OneLog's own dump loads back into
MariaDB with the same definitions and rows."""
from __future__ import annotations

import subprocess

import pymysql

from binlog_util import diff_dumps, table_dump

MARIADB_DUMP = "/usr/bin/mariadb-dump"
DB = "app"

# Tables with AUTO_INCREMENT keys and secondary indexes; procedures with IN,
# OUT and INOUT parameters, SIGNAL, a cursor read to its end under a
# CONTINUE HANDLER FOR NOT FOUND, LOOP and WHILE; a READS SQL DATA and a
# DETERMINISTIC function; BEFORE INSERT / BEFORE UPDATE triggers setting NEW
# columns and an AFTER DELETE trigger writing an audit table; a view calling
# the functions.
SCHEMA = f"""
CREATE DATABASE {DB};
USE {DB};
CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(80),
  tier VARCHAR(10) NOT NULL DEFAULT 'basic', balance DECIMAL(10,2) NOT NULL DEFAULT 0,
  updated_n INT NOT NULL DEFAULT 0, KEY by_email (email));
CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, amount DECIMAL(10,2) NOT NULL,
  status VARCHAR(12) NOT NULL DEFAULT 'new', KEY by_customer (customer_id, status));
CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20) NOT NULL, ref_id INT,
  detail VARCHAR(100), KEY by_ref (ref_id));
DELIMITER //
CREATE FUNCTION order_total(cid INT) RETURNS DECIMAL(12,2) READS SQL DATA
BEGIN
  DECLARE t DECIMAL(12,2);
  SELECT COALESCE(SUM(amount), 0) INTO t FROM orders WHERE customer_id = cid AND status <> 'cancelled';
  RETURN t;
END//
CREATE FUNCTION with_tax(x DECIMAL(12,2)) RETURNS DECIMAL(12,2) DETERMINISTIC
RETURN ROUND(x * 1.2, 2)//
CREATE PROCEDURE add_customer(IN p_name VARCHAR(40), IN p_email VARCHAR(80), OUT p_id INT)
BEGIN
  INSERT INTO customers (name, email) VALUES (p_name, p_email);
  SET p_id = LAST_INSERT_ID();
END//
CREATE PROCEDURE place_order(IN p_customer INT, INOUT p_amount DECIMAL(10,2))
BEGIN
  IF p_amount <= 0 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'amount must be positive', MYSQL_ERRNO = 1644;
  END IF;
  IF p_amount > 1000 THEN
    SET p_amount = 1000;
  END IF;
  INSERT INTO orders (customer_id, amount) VALUES (p_customer, p_amount);
  UPDATE customers SET balance = balance - p_amount WHERE id = p_customer;
END//
CREATE PROCEDURE settle_all(OUT p_settled INT)
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE oid INT;
  DECLARE amt DECIMAL(10,2);
  DECLARE cur CURSOR FOR SELECT id, amount FROM orders WHERE status = 'new' ORDER BY id;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  SET p_settled = 0;
  OPEN cur;
  settle: LOOP
    FETCH cur INTO oid, amt;
    IF done THEN
      LEAVE settle;
    END IF;
    UPDATE orders SET status = IF(amt >= 100, 'settled', 'small') WHERE id = oid;
    SET p_settled = p_settled + 1;
  END LOOP;
  CLOSE cur;
END//
CREATE PROCEDURE bonus_first(IN p_n INT)
BEGIN
  DECLARE i INT DEFAULT 1;
  WHILE i <= p_n DO
    UPDATE customers SET balance = balance + i WHERE id = i;
    SET i = i + 1;
  END WHILE;
END//
CREATE TRIGGER customers_bi BEFORE INSERT ON customers FOR EACH ROW
BEGIN
  SET NEW.email = LOWER(NEW.email);
  IF NEW.email LIKE '%@vip.example' THEN
    SET NEW.tier = 'vip';
  END IF;
END//
CREATE TRIGGER customers_bu BEFORE UPDATE ON customers FOR EACH ROW
SET NEW.updated_n = OLD.updated_n + 1//
CREATE TRIGGER orders_ad AFTER DELETE ON orders FOR EACH ROW
INSERT INTO audit (what, ref_id, detail)
VALUES ('order deleted', OLD.id, CONCAT(OLD.customer_id, ':', OLD.amount, ':', OLD.status))//
DELIMITER ;
CREATE VIEW customer_totals AS
SELECT id, name, order_total(id) AS total, with_tax(order_total(id)) AS total_with_tax FROM customers;
"""

# One session's statements, run in order on both servers.
WORKLOAD = [
    "CALL add_customer('Ann', 'Ann@Example.com', @id)",
    "SELECT @id",
    "CALL add_customer('Vic', 'Vic@VIP.Example', @id)",
    "SELECT @id, LAST_INSERT_ID()",
    "INSERT INTO customers (name, email) VALUES ('Bo', 'BO@x.org'), ('Cy', 'cy@vip.example'), ('Di', NULL)",
    "SELECT LAST_INSERT_ID(), ROW_COUNT()",
    "SET @amt = 250.50",
    "CALL place_order(1, @amt)",
    "SELECT @amt",
    "SET @amt = 5000",
    "CALL place_order(2, @amt)",
    "SELECT @amt",
    "SET @amt = 0",
    "CALL place_order(1, @amt)",
    "SELECT @amt",
    "INSERT INTO orders (customer_id, amount) VALUES (3, 10), (3, 20.25), (4, 30), (5, 99.99), (5, 100)",
    "UPDATE customers SET tier = 'gold' WHERE id IN (3, 4)",
    "UPDATE customers SET name = CONCAT(name, '!') WHERE email LIKE '%vip%'",
    "UPDATE orders SET status = 'cancelled' WHERE customer_id = 3 AND amount < 15",
    "CALL settle_all(@n)",
    "SELECT @n",
    "CALL settle_all(@n)",
    "SELECT @n",
    "CALL bonus_first(3)",
    "SELECT id, name, order_total(id), with_tax(order_total(id)) FROM customers WHERE order_total(id) > 15 ORDER BY id",
    "SELECT name FROM customers WHERE with_tax(balance) < 0 ORDER BY name",
    "SELECT * FROM customer_totals ORDER BY id",
    "SELECT with_tax(total) FROM customer_totals WHERE id = 2",
    "DELETE FROM orders WHERE customer_id = 3",
    "DELETE FROM orders WHERE amount >= 1000",
    "SELECT ROW_COUNT()",
    "DELETE FROM orders WHERE id = 999",
    "SELECT * FROM audit ORDER BY id",
    "SELECT id, email, tier, balance, updated_n FROM customers ORDER BY id",
    "SELECT order_total(42), with_tax(NULL)",
]


def outcome(conn, sql: str):
    """Column names and rows (as the server's text), or the error's code and message."""
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            names = [d[0] for d in cur.description] if cur.description else None
            return names, cur.fetchall()
    except pymysql.err.MySQLError as e:
        return ("error", *e.args)


def definitions(srv) -> dict:
    """Every routine, trigger and view of the database as SHOW CREATE prints
    it, and SHOW TRIGGERS without its Created column (set when each is
    created, so by the load)."""
    c = srv.connect(database=DB, autocommit=True, conv={})
    out = {}
    try:
        with c.cursor() as cur:
            for kind in ("PROCEDURE", "FUNCTION"):
                cur.execute(f"SHOW {kind} STATUS WHERE Db = '{DB}'")
                for row in cur.fetchall():
                    cur.execute(f"SHOW CREATE {kind} `{row[1]}`")
                    out[f"{kind} {row[1]}"] = cur.fetchone()
            cur.execute("SHOW TRIGGERS")
            created = [d[0] for d in cur.description].index("Created")
            triggers = cur.fetchall()
            out["SHOW TRIGGERS"] = [r[:created] + r[created + 1:] for r in triggers]
            for row in triggers:
                cur.execute(f"SHOW CREATE TRIGGER `{row[0]}`")
                out[f"TRIGGER {row[0]}"] = cur.fetchone()[:-1]
            cur.execute("SHOW FULL TABLES WHERE Table_type = 'VIEW'")
            for (view, _) in cur.fetchall():
                cur.execute(f"SHOW CREATE VIEW `{view}`")
                out[f"VIEW {view}"] = cur.fetchone()
    finally:
        c.close()
    return out


def dump(srv) -> str:
    cmd = [MARIADB_DUMP, "--no-defaults", f"-h{srv.host}", f"-P{srv.port}", "-uroot",
           "--routines", "--triggers", "--databases", DB]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"mariadb-dump of {srv} failed: {r.stderr}"
    return r.stdout


def load(srv, sql: str):
    r = srv.cli(input=sql, timeout=60)
    assert r.returncode == 0, f"loading into {srv} failed: {r.stderr}"


def drop_db(srv):
    c = srv.connect(autocommit=True)
    try:
        with c.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {DB}")
    finally:
        c.close()


def run_workload(srv) -> list:
    c = srv.connect(database=DB, autocommit=True, conv={})
    try:
        return [outcome(c, sql) for sql in WORKLOAD]
    finally:
        c.close()


def test_routines_and_triggers_dump_round_trip(onelog_server, mariadb_server):
    drop_db(mariadb_server)
    load(mariadb_server, SCHEMA)
    dumped = dump(mariadb_server)
    for name in ("PROCEDURE `settle_all`", "FUNCTION `order_total`", "TRIGGER customers_bi"):
        assert name in dumped, f"{name} is not in the dump"
    load(onelog_server, dumped)

    expected_defs = definitions(mariadb_server)
    assert len(expected_defs) == 11, sorted(expected_defs)
    assert definitions(onelog_server) == expected_defs

    expected = run_workload(mariadb_server)
    got = run_workload(onelog_server)
    differ = [(sql, want, have) for sql, want, have in zip(WORKLOAD, expected, got) if want != have]
    assert not differ, "\n".join(f"{sql}\n  MariaDB: {want}\n  OneLog:  {have}" for sql, want, have in differ)
    assert ("error", 1644, "amount must be positive") in expected
    expected_rows = table_dump(mariadb_server, DB)
    d = diff_dumps(expected_rows, table_dump(onelog_server, DB), "MariaDB", "OneLog")
    assert not d, d
    assert len(expected_rows["audit"][1]) == 3, expected_rows["audit"]

    # OneLog's dump of the same database loads back into MariaDB as it was.
    drop_db(mariadb_server)
    load(mariadb_server, dump(onelog_server))
    assert definitions(mariadb_server) == expected_defs
    assert not diff_dumps(expected_rows, table_dump(mariadb_server, DB), "before", "OneLog's dump")
    drop_db(mariadb_server)
