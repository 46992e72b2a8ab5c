-- User-level locks within one connection (tests/test_user_locks.py has
-- the cases between connections): recursion, RELEASE_ALL_LOCKS' count,
-- NULL and bad arguments, the result types.
SELECT GET_LOCK('c1', 0), IS_FREE_LOCK('c1'), IS_USED_LOCK('c1') IS NOT NULL, RELEASE_LOCK('c1'), RELEASE_LOCK('c1')
SELECT GET_LOCK('c2', 0), GET_LOCK('c2', 0), GET_LOCK('c3', 0.1), RELEASE_ALL_LOCKS(), RELEASE_ALL_LOCKS()
SELECT IS_USED_LOCK('zz'), IS_FREE_LOCK('zz'), RELEASE_LOCK('zz')
SELECT GET_LOCK('c4', NULL)
SELECT GET_LOCK('c4', -2.5)
SELECT GET_LOCK(NULL, 1), GET_LOCK('', 1), IS_FREE_LOCK(''), RELEASE_LOCK(NULL)
SELECT GET_LOCK(REPEAT('y', 193), 0)
SELECT IS_FREE_LOCK(REPEAT('é', 97))
CREATE TABLE ul AS SELECT GET_LOCK('c5', 0) a, IS_USED_LOCK('c5') b, RELEASE_ALL_LOCKS() c, IS_FREE_LOCK('c5') d
SHOW CREATE TABLE ul
SELECT a, b IS NOT NULL, c, d FROM ul
DROP TABLE ul
