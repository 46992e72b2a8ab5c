//! CREATE TABLE ... SELECT and ... LIKE survive a crash: the engine is
//! dropped without a checkpoint, so reopening it replays them from the
//! binlog alone (the CREATE ... SELECT group: QUERY with the generated
//! definition, then its rows, then XID), and the tables come back with the
//! same definitions and rows. A CREATE ... SELECT that failed left nothing.

use onelog_binlog::file::BinlogConfig;
use onelog_sql::engine::{Engine, EngineConfig};
use onelog_sql::session::{QueryResult, Session};
use onelog_sql::vars::GlobalVars;
use std::path::Path;

fn open(dir: &Path) -> std::sync::Arc<Engine> {
    Engine::open(EngineConfig::new(dir, BinlogConfig::new(dir)), GlobalVars::default()).expect("engine")
}

fn run(s: &mut Session, sql: &str) -> Result<Vec<Vec<String>>, String> {
    match s.execute_query(sql).pop().expect("one result") {
        Ok(QueryResult::Rows { rows, .. }) => {
            Ok(rows.into_iter().map(|r| r.iter().map(|v| v.to_string()).collect()).collect())
        }
        Ok(QueryResult::Ok { .. }) => Ok(Vec::new()),
        Ok(QueryResult::Streamed { .. }) => Err(format!("{sql}: streamed, with no client to stream to")),
        Err(e) => Err(e.to_string()),
    }
}

/// SHOW CREATE TABLE and the ordered rows of each table.
fn state(s: &mut Session, tables: &[&str]) -> Vec<Vec<Vec<String>>> {
    let mut out = Vec::new();
    for t in tables {
        out.push(run(s, &format!("SHOW CREATE TABLE c.{t}")).expect("show create"));
        out.push(run(s, &format!("SELECT * FROM c.{t} ORDER BY 1")).expect("select"));
    }
    out
}

#[test]
fn create_select_and_like_are_replayed_from_the_binlog() {
    let d = tempfile::tempdir().expect("tempdir");
    let tables = ["copy", "snap", "agg", "wide"];
    let before = {
        let engine = open(d.path());
        let mut s = Session::new(engine.clone(), "root", "localhost");
        for sql in [
            "CREATE DATABASE c",
            "CREATE TABLE c.src (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10) NOT NULL DEFAULT 'd', \
             n DECIMAL(5,2), UNIQUE KEY uv (v)) COMMENT='s'",
            "INSERT INTO c.src (v, n) VALUES ('a', 1.5), ('b', NULL), ('c', 3)",
            "CREATE TABLE c.copy LIKE c.src",
            "INSERT INTO c.copy (v) VALUES ('x')",
            "CREATE TABLE c.snap (PRIMARY KEY (id), KEY kn (n)) SELECT id, v, n FROM c.src WHERE id > 1",
            "CREATE TABLE c.agg SELECT v, COUNT(*) AS cnt, 'lit' AS l, NULL AS z FROM c.src GROUP BY v",
            "INSERT INTO c.snap (id, v) VALUES (10, 'after')",
            // Every column type's SHOW CREATE TABLE text must parse again on replay.
            "CREATE TABLE c.types (t TIMESTAMP NULL, ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP \
             ON UPDATE CURRENT_TIMESTAMP, e ENUM('x','y') DEFAULT 'y', b VARBINARY(4), code CHAR(3) COLLATE \
             utf8mb4_bin, u TINYINT UNSIGNED NOT NULL DEFAULT 1, bl BLOB, tx TEXT COMMENT 'it''s', \
             dt DATETIME(3), tm TIME, y YEAR, f DOUBLE, big BIGINT UNSIGNED)",
            "INSERT INTO c.types (t, e, b, code, bl, tx, dt, tm, y, f, big) VALUES ('2026-01-01 00:00:00', 'x', \
             x'00ff', 'AbC', x'01', 'text', '2026-02-03 04:05:06.789', '12:34:56', 2026, 1.5, 18446744073709551615)",
            "CREATE TABLE c.wide SELECT *, '' AS em, NULL AS z, 'q''uote' AS qu FROM c.types",
        ] {
            run(&mut s, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
        // Fails on its duplicate key: no table, nothing logged.
        let err = run(&mut s, "CREATE TABLE c.bad (PRIMARY KEY (k)) SELECT 1 AS k FROM c.src").expect_err("1062");
        assert!(err.contains("Duplicate entry '1' for key 'PRIMARY'"), "{err}");
        let state = state(&mut s, &tables);
        assert_eq!(state[3].len(), 3, "snap rows: {:?}", state[3]);
        state
    };
    // Dropped without a checkpoint: storage holds none of it.
    let engine = open(d.path());
    let mut s = Session::new(engine.clone(), "root", "localhost");
    assert_eq!(state(&mut s, &tables), before);
    assert!(run(&mut s, "SELECT * FROM c.bad").expect_err("no table").contains("doesn't exist"));
    // The copy's counter starts afresh and continues after its own row.
    run(&mut s, "INSERT INTO c.copy (v) VALUES ('y')").expect("insert");
    assert_eq!(run(&mut s, "SELECT id FROM c.copy ORDER BY id").expect("ids"), [["1"], ["2"]]);
}

/// The OK packet's affected rows and info are MariaDB's.
#[test]
fn create_select_reports_records_and_duplicates() {
    let d = tempfile::tempdir().expect("tempdir");
    let engine = open(d.path());
    let mut s = Session::new(engine.clone(), "root", "localhost");
    for sql in
        ["CREATE DATABASE c", "CREATE TABLE c.dups (k INT, v INT)", "INSERT INTO c.dups VALUES (1, 1), (1, 2), (2, 3)"]
    {
        run(&mut s, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    let cases = [
        ("CREATE TABLE c.plain SELECT k FROM c.dups", 3, "Records: 3  Duplicates: 0  Warnings: 0"),
        (
            "CREATE TABLE c.ign (PRIMARY KEY (k)) IGNORE SELECT k FROM c.dups",
            2,
            "Records: 3  Duplicates: 1  Warnings: 1",
        ),
        (
            "CREATE TABLE c.rep (PRIMARY KEY (k)) REPLACE SELECT k, v FROM c.dups",
            4,
            "Records: 3  Duplicates: 1  Warnings: 0",
        ),
    ];
    for (sql, affected, info) in cases {
        match s.execute_query(sql).pop().expect("one result") {
            Ok(QueryResult::Ok { affected_rows, info: got, .. }) => {
                assert_eq!((affected_rows, got.as_str()), (affected, info), "{sql}")
            }
            other => panic!("{sql}: {other:?}"),
        }
    }
}
