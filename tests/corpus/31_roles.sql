-- Roles as root sees them: created, granted privileges and other roles,
-- enabled, shown, revoked and dropped (tests/test_roles.py logs in as the
-- accounts that hold them).
CREATE TABLE t (a INT)
DROP ROLE IF EXISTS crp_a
DROP ROLE IF EXISTS crp_b
DROP USER IF EXISTS crp_u
SHOW WARNINGS
CREATE ROLE crp_a
CREATE ROLE crp_b WITH ADMIN CURRENT_USER
CREATE ROLE crp_a
CREATE ROLE IF NOT EXISTS crp_a
SHOW WARNINGS
CREATE ROLE public
CREATE ROLE NONE
CREATE USER crp_u
GRANT SELECT, INSERT ON diff_31_roles.* TO crp_a
GRANT UPDATE (a) ON diff_31_roles.t TO crp_b
GRANT crp_a TO crp_b
GRANT crp_b TO crp_a
GRANT crp_b TO crp_u WITH ADMIN OPTION
GRANT crp_nosuch TO crp_u
SET DEFAULT ROLE crp_b FOR crp_u
SHOW GRANTS FOR crp_a
SHOW GRANTS FOR crp_b
SHOW GRANTS FOR crp_u
SELECT CURRENT_ROLE()
SET ROLE crp_b
SELECT CURRENT_ROLE() AS enabled
SHOW GRANTS FOR CURRENT_ROLE
SELECT * FROM information_schema.ENABLED_ROLES ORDER BY ROLE_NAME
SELECT * FROM information_schema.APPLICABLE_ROLES WHERE ROLE_NAME LIKE 'crp%' ORDER BY GRANTEE, ROLE_NAME
SET ROLE crp_nosuch
SET ROLE NONE
SELECT CURRENT_ROLE()
SELECT * FROM information_schema.ENABLED_ROLES
SHOW GRANTS FOR CURRENT_ROLE
REVOKE ADMIN OPTION FOR crp_b FROM crp_u
REVOKE crp_a FROM crp_u
REVOKE crp_a FROM crp_b
SHOW GRANTS FOR crp_u
DROP ROLE crp_b
SHOW GRANTS FOR crp_u
DROP ROLE crp_a, crp_b
DROP ROLE IF EXISTS crp_a, crp_b
SHOW WARNINGS
DROP USER crp_u
