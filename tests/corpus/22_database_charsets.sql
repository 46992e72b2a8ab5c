-- Databases' default charsets and collations (CREATE / ALTER DATABASE,
-- character_set_server, character_set_database) and the tables, columns
-- and SHOW output that follow from them.
SELECT @@character_set_database, @@collation_database
DROP DATABASE IF EXISTS dcs_latin1
DROP DATABASE IF EXISTS dcs_bin
DROP DATABASE IF EXISTS dcs_server
DROP DATABASE IF EXISTS dcs_comment
CREATE DATABASE dcs_latin1 CHARACTER SET latin1
SHOW CREATE DATABASE dcs_latin1
CREATE DATABASE dcs_bin DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin
SHOW CREATE DATABASE dcs_bin
CREATE SCHEMA IF NOT EXISTS dcs_bin COLLATE latin1_german2_ci
SHOW CREATE DATABASE dcs_bin
CREATE DATABASE dcs_bad CHARACTER SET nosuch
CREATE DATABASE dcs_bad COLLATE nosuch_ci
CREATE DATABASE dcs_bad CHARACTER SET latin1 COLLATE utf8mb4_bin
CREATE DATABASE dcs_bad CHARACTER SET
SHOW DATABASES LIKE 'dcs_bad'
SELECT schema_name, default_character_set_name, default_collation_name FROM information_schema.schemata WHERE schema_name LIKE 'dcs%' ORDER BY schema_name
CREATE TABLE dcs_latin1.t1 (a varchar(10), b char(3) CHARACTER SET utf8mb4, c text COLLATE latin1_bin, d int, e enum('x','y'))
SHOW CREATE TABLE dcs_latin1.t1
SELECT column_name, character_set_name, collation_name FROM information_schema.columns WHERE table_schema = 'dcs_latin1' AND table_name = 't1' ORDER BY ordinal_position
CREATE TABLE dcs_latin1.t2 (a varchar(10)) DEFAULT CHARSET = utf8mb4
SHOW CREATE TABLE dcs_latin1.t2
CREATE TABLE dcs_latin1.t3 (a varchar(10)) COLLATE utf8mb4_unicode_ci
SHOW CREATE TABLE dcs_latin1.t3
INSERT INTO dcs_latin1.t1 (a, b, c, d) VALUES ('åäö', 'ü', 'Ö', 1)
SELECT a, b, c, hex(a), hex(b), length(a) FROM dcs_latin1.t1
ALTER TABLE dcs_latin1.t1 ADD COLUMN f varchar(5)
ALTER TABLE dcs_latin1.t1 MODIFY b varchar(8)
ALTER TABLE dcs_latin1.t1 CHANGE d g varchar(4)
SHOW CREATE TABLE dcs_latin1.t1
SELECT a, b, g, hex(b) FROM dcs_latin1.t1
ALTER TABLE dcs_latin1.t3 ADD COLUMN z char(2)
SHOW CREATE TABLE dcs_latin1.t3
USE dcs_latin1
SELECT @@character_set_database, @@collation_database
CREATE TABLE t4 (a varchar(3))
SHOW CREATE TABLE t4
ALTER DATABASE COLLATE latin1_general_ci
SELECT @@character_set_database, @@collation_database
SHOW CREATE DATABASE dcs_latin1
CREATE TABLE t5 (a varchar(3))
SHOW CREATE TABLE t5
SHOW CREATE TABLE t4
ALTER DATABASE dcs_latin1 CHARACTER SET utf8mb3
SHOW CREATE DATABASE dcs_latin1
ALTER DATABASE dcs_latin1 CHARACTER SET nosuch
ALTER DATABASE dcs_nosuch CHARACTER SET latin1
USE dcs_bin
SELECT @@character_set_database, @@collation_database
SET SESSION character_set_server = latin1
SELECT @@character_set_server, @@collation_server
SET SESSION collation_server = utf8mb4_unicode_ci
SELECT @@character_set_server, @@collation_server
SET SESSION collation_server = 8
SELECT @@character_set_server, @@collation_server
CREATE DATABASE dcs_server
SHOW CREATE DATABASE dcs_server
SET SESSION character_set_server = nosuch
SET SESSION collation_server = nosuch
SET SESSION collation_server = NULL
SET SESSION character_set_connection = latin1
SELECT @@character_set_connection, @@collation_connection
SET SESSION collation_connection = utf8mb4_unicode_ci
SELECT @@character_set_connection, @@collation_connection
SET SESSION character_set_client = nosuch
SET SESSION collation_connection = DEFAULT
SET SESSION character_set_server = DEFAULT
SET SESSION collation_server = DEFAULT
SELECT @@character_set_server, @@collation_server, @@character_set_connection, @@collation_connection
CREATE DATABASE dcs_comment COMMENT 'for tests' CHARACTER SET ascii
SHOW CREATE DATABASE dcs_comment
ALTER DATABASE dcs_comment COMMENT = 'it''s new'
SHOW CREATE DATABASE dcs_comment
SELECT schema_name, default_character_set_name, default_collation_name, schema_comment FROM information_schema.schemata WHERE schema_name LIKE 'dcs%' ORDER BY schema_name
USE dcs_server
DROP DATABASE dcs_server
SELECT @@character_set_database, @@collation_database
SHOW CREATE DATABASE information_schema
DROP DATABASE dcs_latin1
DROP DATABASE dcs_bin
DROP DATABASE dcs_comment
CREATE DATABASE dcs_tables
CREATE TABLE dcs_tables.t_one (a int)
SHOW TABLES FROM dcs_tables LIKE 't_o%'
SHOW FULL TABLES FROM dcs_tables LIKE 't%'
SHOW DATABASES LIKE 'dcs_tab%'
DROP DATABASE dcs_tables
