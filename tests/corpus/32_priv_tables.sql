-- The grant tables of mysql and information_schema's privilege tables as
-- root reads them, with their column metadata (tests/test_priv_tables.py
-- reads them as other accounts too).
CREATE TABLE t (a INT, b INT)
DROP USER IF EXISTS cpt_u
DROP USER IF EXISTS cpt_v@localhost
DROP ROLE IF EXISTS cpt_r
CREATE USER cpt_u IDENTIFIED BY 'pw'
CREATE USER cpt_v@localhost IDENTIFIED BY 'pw' ACCOUNT LOCK PASSWORD EXPIRE
CREATE ROLE cpt_r
GRANT RELOAD, PROCESS ON *.* TO cpt_v@localhost WITH GRANT OPTION MAX_USER_CONNECTIONS 3 MAX_QUERIES_PER_HOUR 7
ALTER USER cpt_v@localhost REQUIRE SSL
GRANT SELECT, INSERT ON diff_32_priv_tables.* TO cpt_u WITH GRANT OPTION
GRANT SELECT, UPDATE (a) ON diff_32_priv_tables.t TO cpt_u
GRANT INSERT (a, b), SELECT (b) ON diff_32_priv_tables.t TO cpt_v@localhost WITH GRANT OPTION
GRANT DELETE ON diff_32_priv_tables.t TO cpt_r
GRANT SELECT ON diff_32_priv_tables.* TO cpt_r
GRANT cpt_r TO cpt_u
SET DEFAULT ROLE cpt_r FOR cpt_u
SELECT * FROM information_schema.USER_PRIVILEGES WHERE GRANTEE LIKE '%cpt\_%' ORDER BY GRANTEE, PRIVILEGE_TYPE
SELECT * FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE LIKE '%cpt\_%' ORDER BY GRANTEE, PRIVILEGE_TYPE
SELECT * FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE LIKE '%cpt\_%' ORDER BY GRANTEE, PRIVILEGE_TYPE
SELECT * FROM information_schema.COLUMN_PRIVILEGES WHERE GRANTEE LIKE '%cpt\_%' ORDER BY GRANTEE, COLUMN_NAME, PRIVILEGE_TYPE
SELECT GRANTEE, PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE IS_GRANTABLE = 'YES' AND GRANTEE LIKE '%cpt\_%' ORDER BY 1, 2
SELECT User, Host FROM mysql.user WHERE User LIKE 'cpt\_%' ORDER BY User, Host
SELECT * FROM mysql.user WHERE User LIKE 'cpt\_%' ORDER BY User, Host
SELECT user, host, JSON_VALUE(priv, '$.plugin'), JSON_VALUE(priv, '$.authentication_string'), JSON_VALUE(priv, '$.access') FROM mysql.global_priv WHERE user LIKE 'cpt\_%' ORDER BY user, host
SELECT * FROM mysql.db WHERE User LIKE 'cpt\_%' ORDER BY User, Host, Db
SELECT Host, Db, User, Table_name, Timestamp, Table_priv, Column_priv FROM mysql.tables_priv WHERE User LIKE 'cpt\_%' ORDER BY User, Host
SELECT * FROM mysql.columns_priv WHERE User LIKE 'cpt\_%' ORDER BY User, Host, Column_name
SELECT * FROM mysql.roles_mapping WHERE User LIKE 'cpt\_%' OR Role LIKE 'cpt\_%' ORDER BY User, Host, Role
SHOW COLUMNS FROM mysql.user
UPDATE mysql.user SET Select_priv = 'Y' WHERE User = 'cpt_u'
INSERT INTO mysql.user (User) VALUES ('cpt_x')
REVOKE ALL PRIVILEGES, GRANT OPTION FROM cpt_u
SELECT * FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE LIKE '%cpt\_%' ORDER BY GRANTEE, PRIVILEGE_TYPE
SELECT * FROM mysql.roles_mapping WHERE User LIKE 'cpt\_%' ORDER BY User, Host, Role
DROP USER cpt_u
DROP USER cpt_v@localhost
DROP ROLE cpt_r
SELECT COUNT(*) FROM mysql.user WHERE User LIKE 'cpt\_%'
