//! CHECK TABLE finds what a broken commit path or recovery would leave: a
//! secondary index entry missing for a row, one pointing at a row that does
//! not exist, a row that does not decode. The damage is written into storage
//! directly, under SQL's feet.

use onelog_binlog::file::BinlogConfig;
use onelog_sql::engine::{Engine, EngineConfig};
use onelog_sql::session::{QueryResult, Session};
use onelog_sql::vars::GlobalVars;
use onelog_storage::{key, Mutation};

fn rows(s: &mut Session, sql: &str) -> Vec<Vec<String>> {
    match s.execute_query(sql).pop().expect("one result") {
        Ok(QueryResult::Rows { rows, .. }) => {
            rows.into_iter().map(|r| r.iter().map(|v| v.to_string()).collect()).collect()
        }
        other => panic!("{sql}: {other:?}"),
    }
}

/// The (Msg_type, Msg_text) pairs of `CHECK TABLE c.t`.
fn check(s: &mut Session) -> Vec<(String, String)> {
    rows(s, "CHECK TABLE c.t").into_iter().map(|r| (r[2].clone(), r[3].clone())).collect()
}

/// Writes `mutations` into storage as if a commit had, without the binlog.
fn damage(engine: &Engine, mutations: Vec<Mutation>) {
    let applied = engine.store.apply([mutations.as_slice()], &[]).expect("apply");
    engine.store.publish(applied);
}

fn index_entries(engine: &Engine, index_id: u64) -> Vec<(Vec<u8>, Vec<u8>)> {
    let prefix = key::index_prefix(index_id);
    let end = key::prefix_end(&prefix);
    let snapshot = engine.store.snapshot();
    let entries = snapshot.scan(&prefix, end.as_deref(), false).expect("scan");
    entries.map(|kv| kv.map(|(k, v)| (k.to_vec(), v.to_vec())).expect("entry")).collect()
}

#[test]
fn check_table_reports_index_and_row_damage() {
    let d = tempfile::tempdir().expect("tempdir");
    let engine =
        Engine::open(EngineConfig::new(d.path(), BinlogConfig::new(d.path())), GlobalVars::default()).expect("engine");
    let mut s = Session::new(engine.clone(), "root", "localhost");
    for sql in [
        "CREATE DATABASE c",
        "CREATE TABLE c.t (id INT PRIMARY KEY, v VARCHAR(10), KEY kv (v))",
        "INSERT INTO c.t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    ] {
        assert!(s.execute_query(sql).pop().expect("result").is_ok(), "{sql}");
    }
    assert_eq!(check(&mut s), [("status".into(), "OK".into())]);
    let table = engine.catalog.read().get_table("c", "t").expect("table");
    let kv = table.def.indexes.iter().find(|i| i.name == "kv").expect("kv").id;
    let entries = index_entries(&engine, kv);
    assert_eq!(entries.len(), 3);

    // A row whose index entry is gone, and an entry pointing at no row.
    let (entry, row_key) = entries[0].clone();
    damage(&engine, vec![Mutation::Delete(entry.clone())]);
    let mut orphan = entries[1].0.clone();
    orphan.push(0xff);
    damage(&engine, vec![Mutation::Put(orphan.clone(), b"nowhere".to_vec())]);
    let found = check(&mut s);
    assert_eq!(found.last(), Some(&("error".into(), "Corrupt".into())), "{found:?}");
    assert!(found
        .iter()
        .any(|(_, m)| m.starts_with("Index 'kv': the entry for the row at key") && m.ends_with("is missing")));
    damage(&engine, vec![Mutation::Put(entry, row_key.clone()), Mutation::Delete(orphan)]);
    assert_eq!(check(&mut s), [("status".into(), "OK".into())]);

    // An extra entry: the counts disagree.
    let mut extra = entries[2].0.clone();
    extra.push(0);
    damage(&engine, vec![Mutation::Put(extra.clone(), row_key.clone())]);
    assert!(check(&mut s).contains(&("error".into(), "Index 'kv' has 4 entries for 3 rows".into())));
    damage(&engine, vec![Mutation::Delete(extra)]);

    // A row that no longer decodes under the table's definition: its null
    // bitmap says both columns have values, and none follow.
    damage(&engine, vec![Mutation::Put(row_key, vec![0x00])]);
    let found = check(&mut s);
    assert!(found.iter().any(|(_, m)| m.contains("does not decode")), "{found:?}");
}
