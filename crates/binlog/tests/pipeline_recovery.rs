//! Recovery scan: torn tails are cut at every byte of the last transaction,
//! mid-file corruption is refused, a missing index is tolerated.

use onelog_binlog::event as ev;
use onelog_binlog::file::{index_path, write_index, BinlogConfig};
use onelog_binlog::fuzzing::{frames, reseal};
use onelog_binlog::pipeline::{Binlog, CommitInfo, GroupSink, PendingEvent, Publish, TxnEvents};
use onelog_binlog::recovery::{scan, CutKind};
use onelog_binlog::{BinlogError, BinlogPos};
use std::path::Path;
use std::sync::Arc;

struct Nop;
impl GroupSink<()> for Nop {
    fn apply_group(&self, _g: &mut [((), CommitInfo)]) -> Result<Publish, String> {
        Ok(Box::new(|| {}))
    }
}

fn txn(i: usize) -> TxnEvents {
    let sql = format!("INSERT INTO t VALUES ({i}, '{}')", "x".repeat(i % 7));
    TxnEvents {
        spilled: None,
        events: vec![PendingEvent {
            type_code: ev::type_code::QUERY,
            flags: 0,
            body: ev::query_body(&ev::QueryEvent {
                thread_id: 1,
                exec_time_s: 0,
                error_code: 0,
                db: "test",
                sql: &sql,
                sql_mode: 0,
                charset_client: 33,
                collation_connection: 33,
                collation_server: 8,
                auto_increment_increment: 1,
                auto_increment_offset: 1,
                flags2: 0,
            }),
        }],
        kind: if i % 5 == 4 { ev::GroupKind::StandaloneDdl } else { ev::GroupKind::Transaction },
        thread_id: 1,
    }
}

/// Writes `n` transactions with the pipeline and closes cleanly.
fn write_binlog(dir: &Path, n: usize) -> Vec<CommitInfo> {
    let mut c = BinlogConfig::new(dir);
    c.preallocate_size_bytes = 0;
    let s = scan(dir, &c.basename, None).expect("scan");
    let b: Binlog<()> = Binlog::open(c, Arc::new(Nop), &s).expect("open");
    let infos = (0..n).map(|i| b.commit(txn(i), ()).blocking_recv().expect("reply").expect("commit")).collect();
    b.close().expect("close");
    infos
}

fn install(dir: &Path, data: &[u8]) {
    std::fs::write(dir.join("onelog-bin.000001"), data).expect("write");
    write_index(dir, "onelog-bin", &["onelog-bin.000001".to_string()]).expect("index");
}

#[test]
fn torn_tail_cut_at_every_byte_of_last_txn() {
    let src = tempfile::tempdir().expect("tempdir");
    let n = 6;
    let infos = write_binlog(src.path(), n);
    let data = std::fs::read(src.path().join("onelog-bin.000001")).expect("read");
    let start = infos[n - 2].end_pos.offset as usize;
    let end = infos[n - 1].end_pos.offset as usize;
    // The GTID event of the last transaction (no commit id: groups of one).
    let gtid_len = ev::HEADER_LEN + 19 + ev::CHECKSUM_LEN;
    for zeros in [0usize, 4096] {
        for cut in start..=end {
            let d = tempfile::tempdir().expect("tempdir");
            let mut torn = data[..cut].to_vec();
            torn.resize(cut + zeros, 0);
            install(d.path(), &torn);
            // Zero fill that happens to equal the lost bytes rebuilds them:
            // the file is then torn where it first differs. (Event CRCs vary
            // with the timestamp; one ending in 0x00 would otherwise make an
            // event whole again in some runs and not in others.)
            let cut = if zeros > 0 { cut + data[cut..end].iter().take_while(|b| **b == 0).count() } else { cut };
            let s = scan(d.path(), "onelog-bin", Some(true)).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
            let txns = s.transactions_after(BinlogPos::default()).expect("txns");
            let whole = if cut == end { n } else { n - 1 };
            assert_eq!(txns.len(), whole, "cut at {cut}");
            assert_eq!(s.last_gtid, Some(infos[whole - 1].gtid));
            let expect_end = if cut == end { end } else { start };
            assert_eq!(s.end_pos.offset as usize, expect_end, "cut at {cut}");
            match &s.cut {
                None => assert!(cut == start || cut == end, "cut at {cut} not reported"),
                Some(c) => {
                    assert!(cut > start && cut < end);
                    assert_eq!(c.offset as usize, start);
                    let kind = if cut >= start + gtid_len { CutKind::PartialTransaction } else { CutKind::Garbage };
                    assert_eq!(c.kind, kind, "cut at {cut}: {c:?}");
                    let len = std::fs::metadata(d.path().join("onelog-bin.000001")).expect("meta").len();
                    assert_eq!(len as usize, start, "file truncated to the last complete txn");
                }
            }
        }
    }
    // And the pipeline continues after a cut, reusing the lost GTID.
    let d = tempfile::tempdir().expect("tempdir");
    let mut torn = data[..end - 3].to_vec();
    torn.resize(torn.len() + 1000, 0);
    install(d.path(), &torn);
    let mut c = BinlogConfig::new(d.path());
    c.preallocate_size_bytes = 64 << 10;
    let s = scan(d.path(), "onelog-bin", None).expect("scan");
    assert!(s.cut.is_some());
    let b: Binlog<()> = Binlog::open(c.clone(), Arc::new(Nop), &s).expect("open");
    assert_eq!(std::fs::metadata(d.path().join("onelog-bin.000001")).expect("meta").len(), 64 << 10, "re-preallocated");
    let i = b.commit(txn(0), ()).blocking_recv().expect("reply").expect("commit");
    assert_eq!(i.gtid.seq_no, n as u64);
    assert_eq!(i.end_pos.file_seq, 1);
    drop(b);
    let s = scan(d.path(), "onelog-bin", None).expect("scan");
    assert_eq!(s.transactions_after(BinlogPos::default()).expect("txns").len(), n);
}

#[test]
fn mid_file_corruption_is_an_error() {
    let src = tempfile::tempdir().expect("tempdir");
    let infos = write_binlog(src.path(), 10);
    let data = std::fs::read(src.path().join("onelog-bin.000001")).expect("read");
    // Flip a byte inside transaction 5's body.
    let t5 = infos[4].end_pos.offset as usize;
    for (what, at, value) in [
        ("crc", t5 + 30, None),
        ("length", t5 + 9, Some(0xffu8)),
        ("last txn", infos[9].end_pos.offset as usize - 6, None),
    ] {
        let d = tempfile::tempdir().expect("tempdir");
        let mut bad = data.clone();
        bad[at] = value.unwrap_or(bad[at] ^ 0x40);
        install(d.path(), &bad);
        match scan(d.path(), "onelog-bin", None) {
            Err(BinlogError::Corrupt { file, offset, reason }) => {
                assert_eq!(file, "onelog-bin.000001");
                assert!(offset as usize <= at && at - (offset as usize) < 200, "{what}: offset {offset} vs {at}");
                assert!(reason.contains("truncate"), "{reason}");
            }
            other => panic!("{what}: expected Corrupt, got {other:?}"),
        }
        // Nothing was cut.
        assert_eq!(std::fs::read(d.path().join("onelog-bin.000001")).expect("read"), bad);
    }
}

#[test]
fn missing_index_and_fresh_dir() {
    let d = tempfile::tempdir().expect("tempdir");
    let s = scan(d.path(), "onelog-bin", None).expect("scan empty");
    assert!(s.files.is_empty());
    let infos = write_binlog(d.path(), 3);
    std::fs::remove_file(index_path(d.path(), "onelog-bin")).expect("rm index");
    let s = scan(d.path(), "onelog-bin", None).expect("scan");
    assert_eq!(s.files.len(), 1);
    assert_eq!(s.last_gtid, Some(infos[2].gtid));
    assert_eq!(s.gtid_state, vec![infos[2].gtid]);
}

#[test]
fn event_outside_any_transaction_is_corruption() {
    // Found by the binlog fuzz test: with a transaction's GTID event gone
    // (or an XID spliced in early) and the checksums intact, its other
    // events were skipped as file-level events and start-up went on without
    // them — a committed write lost without a word.
    let src = tempfile::tempdir().expect("tempdir");
    let infos = write_binlog(src.path(), 4);
    let mut data = std::fs::read(src.path().join("onelog-bin.000001")).expect("read");
    let gtid_at = infos[1].end_pos.offset as usize;
    let (start, size) = *frames(&data).iter().find(|(start, _)| *start == gtid_at).expect("txn 3 starts with its GTID");
    assert_eq!(data[start + 4], ev::type_code::GTID);
    data.drain(start..start + size);
    reseal(&mut data);
    let d = tempfile::tempdir().expect("tempdir");
    install(d.path(), &data);
    match scan(d.path(), "onelog-bin", None) {
        Err(BinlogError::Corrupt { file, offset, reason }) => {
            assert_eq!((file.as_str(), offset as usize), ("onelog-bin.000001", gtid_at));
            assert!(reason.contains("Query event outside any transaction") && reason.contains("truncate"), "{reason}");
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
}
