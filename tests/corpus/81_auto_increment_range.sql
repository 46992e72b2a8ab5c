-- An AUTO_INCREMENT value generated past its column's type is error 167
-- (HA_ERR_AUTOINC_ERANGE) naming the row, in any sql_mode; the statement's
-- rows are rolled back; explicit values and REPLACE of existing ones still work.
CREATE TABLE air (a TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY, b CHAR(20) DEFAULT 'default_value')
INSERT INTO air VALUES (126, 'first'), (63, 'middle'), (0, 'last')
INSERT INTO air VALUES (0, 'error')
REPLACE INTO air VALUES (0, 'error')
REPLACE INTO air VALUES (126, 'first updated')
REPLACE INTO air VALUES (63, DEFAULT)
SELECT * FROM air
CREATE TABLE air2 (a TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY, b INT)
INSERT INTO air2 VALUES (125, 1)
INSERT INTO air2 (b) VALUES (2), (3), (4)
SET SESSION sql_mode = ''
INSERT INTO air2 (b) VALUES (5)
SET SESSION sql_mode = DEFAULT
SELECT * FROM air2
CREATE TABLE air3 (a TINYINT UNSIGNED AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT = 255
INSERT INTO air3 VALUES ()
INSERT INTO air3 VALUES ()
SELECT * FROM air3
DROP TABLE air, air2, air3
