-- Views over the SEQUENCE engine's tables (seq_FROM_to_TO): resolved like
-- base tables, printed with their database, read-only through the view.
CREATE VIEW sqv1 AS SELECT * FROM seq_1_to_3
SELECT * FROM sqv1
SHOW CREATE VIEW sqv1
SELECT TABLE_NAME, IS_UPDATABLE, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_NAME = 'sqv1'
CREATE VIEW sqv2 AS SELECT f.seq, seq_1_to_2.seq * 10 AS tens FROM seq_1_to_3 f JOIN seq_1_to_2 USING (seq)
SELECT * FROM sqv2
SHOW CREATE VIEW sqv2
CREATE VIEW sqv3 AS SELECT seq FROM seq_10_to_1_step_3 WHERE seq > 1
SELECT * FROM sqv3
SELECT count(*), sum(seq) FROM sqv3
INSERT INTO sqv1 VALUES (5)
UPDATE sqv1 SET seq = 5
DELETE FROM sqv1
CREATE VIEW sqv4 AS SELECT seq FROM seq_1_to_3 WHERE nope = 1
DROP VIEW sqv1, sqv2, sqv3
