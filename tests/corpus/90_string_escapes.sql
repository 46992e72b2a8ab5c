-- Backslash escapes are MariaDB's: \0 \' \" \b \n \r \t \Z \\ are
-- special; \% and \_ keep their backslash; any other letter stands for
-- itself (\a is 'a', \f is 'f', not BEL and form feed).
SELECT HEX('\a\f\v\b\0'), 'C:\files\abc', HEX("x\ay"), LENGTH('\%\_'), HEX('\Z\r')
CREATE TABLE esc90 (id INT PRIMARY KEY, s VARCHAR(20))
INSERT INTO esc90 VALUES (1, 'C:\folder\file'), (2, '\a\f'), (3, 'tab\there')
SELECT id, s, HEX(s) FROM esc90 ORDER BY id
SELECT id FROM esc90 WHERE s = 'af'
