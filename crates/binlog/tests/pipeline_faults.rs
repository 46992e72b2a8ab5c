//! Fault injection: ENOSPC fails commits without leaving a partial group, a
//! failed sync poisons, and power loss keeps every acknowledged commit.

use onelog_binlog::cache::EventCache;
use onelog_binlog::event as ev;
use onelog_binlog::file::{BinlogConfig, FaultIo};
use onelog_binlog::pipeline::{Binlog, CommitInfo, GroupSink, PendingEvent, Publish, TxnEvents};
use onelog_binlog::recovery::scan;
use onelog_binlog::{BinlogError, BinlogPos};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

struct Nop;
impl GroupSink<u64> for Nop {
    fn apply_group(&self, _g: &mut [(u64, CommitInfo)]) -> Result<Publish, String> {
        Ok(Box::new(|| {}))
    }
}

/// Records what storage was given and what readers were shown.
#[derive(Default)]
struct Visibility {
    published: Arc<std::sync::Mutex<Vec<u64>>>,
}

impl GroupSink<u64> for Visibility {
    fn apply_group(&self, g: &mut [(u64, CommitInfo)]) -> Result<Publish, String> {
        let batch: Vec<u64> = g.iter().map(|(p, _)| *p).collect();
        let published = self.published.clone();
        Ok(Box::new(move || published.lock().expect("lock").extend(batch)))
    }
}

fn query_event(sql: &str) -> PendingEvent {
    PendingEvent {
        type_code: ev::type_code::QUERY,
        flags: 0,
        body: ev::query_body(&ev::QueryEvent::new(1, "test", sql)),
    }
}

fn txn(i: u64) -> TxnEvents {
    let sql = format!("INSERT INTO t VALUES ({i})");
    TxnEvents { spilled: None, events: vec![query_event(&sql)], kind: ev::GroupKind::Transaction, thread_id: 1 }
}

/// A transaction of `events` 8 KiB events, most of them spilled by a
/// binlog cache of 64 KiB under `tmpdir`: several write parts long.
fn large_txn(events: usize, tmpdir: &Path) -> TxnEvents {
    let mut cache = EventCache::new(64 << 10, Some(tmpdir.to_path_buf()));
    for n in 0..events {
        let sql = format!("INSERT INTO t VALUES ({n}, '{}')", "x".repeat(8 << 10));
        cache.push(query_event(&sql)).expect("binlog cache write");
    }
    let (spilled, events) = cache.into_parts();
    assert!(spilled.is_some());
    TxnEvents { spilled, events, kind: ev::GroupKind::Transaction, thread_id: 1 }
}

fn open(dir: &Path, io: &FaultIo, prealloc: u64, max_size: u64) -> Binlog<u64> {
    open_with(dir, io, prealloc, max_size, 1)
}

fn open_with(dir: &Path, io: &FaultIo, prealloc: u64, max_size: u64, sync_binlog: u32) -> Binlog<u64> {
    open_sink(dir, io, prealloc, max_size, sync_binlog, Arc::new(Nop))
}

fn open_sink(
    dir: &Path,
    io: &FaultIo,
    prealloc: u64,
    max_size: u64,
    sync_binlog: u32,
    sink: Arc<dyn GroupSink<u64>>,
) -> Binlog<u64> {
    let mut c = BinlogConfig::new(dir);
    c.sync_binlog = sync_binlog;
    c.io = Arc::new(io.clone());
    c.preallocate_size_bytes = prealloc;
    c.max_binlog_size_bytes = max_size;
    let s = scan(dir, &c.basename, None).expect("scan");
    Binlog::open(c, sink, &s).expect("open")
}

fn commit(b: &Binlog<u64>, i: u64) -> Result<CommitInfo, BinlogError> {
    b.commit(txn(i), i).blocking_recv().expect("reply")
}

#[test]
fn enospc_fails_the_group_and_leaves_no_partial_group() {
    let d = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = open(d.path(), &io, 0, 1 << 30);
    for i in 0..5 {
        commit(&b, i).expect("commit");
    }
    // A group of several transactions, cut after 100 bytes.
    io.set_enospc_after(Some(100));
    let rxs: Vec<_> = (0..10).map(|i| b.commit(txn(i), i)).collect();
    let results: Vec<_> = rxs.into_iter().map(|r| r.blocking_recv().expect("reply")).collect();
    let failed = results.iter().filter(|r| r.is_err()).count();
    assert!(failed >= 1);
    for r in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(matches!(r, BinlogError::Io { .. }), "{r:?}");
    }
    assert!(!b.is_poisoned());
    io.set_enospc_after(None);
    let after = commit(&b, 99).expect("commit after space freed");
    let ok_before = 5 + results.iter().filter(|r| r.is_ok()).count() as u64;
    // The failed group's GTIDs were given back: numbering stays contiguous.
    assert_eq!(after.gtid.seq_no, ok_before + 1);
    b.close().expect("close");
    let s = scan(d.path(), "onelog-bin", None).expect("scan");
    assert!(s.cut.is_none());
    let txns = s.transactions_after(BinlogPos::default()).expect("txns");
    assert_eq!(txns.len() as u64, ok_before + 1);
    assert!(txns.iter().enumerate().all(|(i, t)| t.gtid.seq_no == i as u64 + 1));
}

#[test]
fn a_large_transaction_that_fails_in_a_later_part_leaves_nothing() {
    let d = tempfile::tempdir().expect("tempdir");
    let spill = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = open(d.path(), &io, 0, 1 << 30);
    commit(&b, 0).expect("commit");
    // ~12 MiB: the first 4 MiB part is written, the second fails midway.
    io.set_enospc_after(Some(6 << 20));
    let failed = b.commit(large_txn(1500, spill.path()), 1).blocking_recv().expect("reply");
    assert!(matches!(failed, Err(BinlogError::Io { .. })), "{failed:?}");
    assert!(!b.is_poisoned());
    io.set_enospc_after(None);
    let after = commit(&b, 2).expect("commit after space freed");
    assert_eq!(after.gtid.seq_no, 2, "the failed transaction's GTID was given back");
    let large = b.commit(large_txn(1500, spill.path()), 3).blocking_recv().expect("reply").expect("commit");
    b.close().expect("close");
    let s = scan(d.path(), "onelog-bin", None).expect("scan");
    assert!(s.cut.is_none());
    let txns = s.transactions_after(BinlogPos::default()).expect("txns");
    assert_eq!(txns.len(), 3);
    assert_eq!(txns[2].end_pos, large.end_pos);
    assert_eq!(txns[2].events.len(), 1500, "every spilled event, in one transaction");
}

#[test]
fn power_loss_keeps_an_acknowledged_large_transaction_whole() {
    let d = tempfile::tempdir().expect("tempdir");
    let spill = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = Arc::new(open(d.path(), &io, 16 << 10, 1 << 30));
    let small = {
        let b = b.clone();
        std::thread::spawn(move || (1..).map_while(|i| commit(&b, i).ok()).collect::<Vec<_>>())
    };
    let large = b.commit(large_txn(1500, spill.path()), 0).blocking_recv().expect("reply").expect("commit");
    // Cut while the small commits go on, some of them unsynced.
    io.power_cut(0x5eed).expect("power cut");
    let acked = small.join().expect("join");
    drop(b);
    let s = scan(d.path(), "onelog-bin", Some(true)).expect("scan");
    let txns = s.transactions_after(BinlogPos::default()).expect("txns");
    let recovered_large = txns.get(large.gtid.seq_no as usize - 1).expect("the acknowledged large transaction");
    assert_eq!(recovered_large.end_pos, large.end_pos);
    assert_eq!(recovered_large.events.len(), 1500);
    for a in &acked {
        assert_eq!(txns.get(a.gtid.seq_no as usize - 1).map(|t| t.end_pos), Some(a.end_pos), "acked {} lost", a.gtid);
    }
}

#[test]
fn failed_sync_poisons_forever() {
    let d = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = open(d.path(), &io, 64 << 10, 1 << 30);
    commit(&b, 1).expect("commit");
    io.set_fail_sync(true);
    assert!(matches!(commit(&b, 2), Err(BinlogError::Poisoned(_))));
    assert!(b.is_poisoned());
    assert!(b.poison_reason().contains("sync failed"));
    // Even once the disk "recovers", nothing is acknowledged again.
    io.set_fail_sync(false);
    assert!(matches!(commit(&b, 3), Err(BinlogError::Poisoned(_))));
    assert!(b.rotate().is_err());
    assert_eq!(b.stats().binlog_commits, 1);
    assert!(b.close().is_err());
}

/// A writeback error reported to the checkpointer's sync still fails the
/// commit whose pages it may have cost (fsyncgate; errseq_t reports an
/// error once per open file description).
#[test]
fn writeback_error_taken_by_the_checkpointer_still_fails_commits() {
    let d = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = open(d.path(), &io, 64 << 10, 1 << 30);
    commit(&b, 1).expect("commit");
    io.inject_writeback_error();
    assert!(b.sync_written().is_err(), "the checkpointer's sync hears of the error");
    assert!(matches!(commit(&b, 2), Err(BinlogError::Poisoned(_))));
    assert_eq!(b.stats().binlog_commits, 1);
    assert!(b.close().is_err());
}

/// The same error, when no other sync took it, fails the commit's own sync.
#[test]
fn writeback_error_fails_the_next_commit_and_poisons() {
    let d = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let b = open(d.path(), &io, 64 << 10, 1 << 30);
    commit(&b, 1).expect("commit");
    io.inject_writeback_error();
    assert!(matches!(commit(&b, 2), Err(BinlogError::Poisoned(_))));
    assert!(b.poison_reason().contains("sync failed"), "{}", b.poison_reason());
    // The next sync through the same handle would succeed (the error was
    // reported once); the binlog must not be fooled by that.
    assert!(matches!(commit(&b, 3), Err(BinlogError::Poisoned(_))));
    assert_eq!(b.stats().binlog_commits, 1);
    assert!(b.close().is_err());
}

#[test]
fn a_group_whose_sync_failed_is_never_published() {
    let d = tempfile::tempdir().expect("tempdir");
    let io = FaultIo::new();
    let sink = Arc::new(Visibility::default());
    let b = open_sink(d.path(), &io, 64 << 10, 1 << 30, 1, sink.clone());
    commit(&b, 1).expect("commit");
    assert_eq!(*sink.published.lock().expect("lock"), vec![1]);
    io.set_fail_sync(true);
    assert!(matches!(commit(&b, 2), Err(BinlogError::Poisoned(_))));
    // Storage may have been handed transaction 2 while the sync ran, but
    // readers never see it: it is not durable.
    assert_eq!(*sink.published.lock().expect("lock"), vec![1]);
    assert!(b.close().is_err());
}

#[test]
fn power_loss_keeps_every_acknowledged_commit() {
    let iterations: u64 = std::env::var("POWER_LOSS_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    for it in 0..iterations {
        let d = tempfile::tempdir().expect("tempdir");
        let io = FaultIo::new();
        // Small files so some iterations cut during or right after rotation.
        let b = Arc::new(open(d.path(), &io, 16 << 10, 8 << 10));
        let stop = Arc::new(AtomicBool::new(false));
        let hs: Vec<_> = (0..4u64)
            .map(|t| {
                let b = b.clone();
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut acked = Vec::new();
                    let mut i = 0;
                    while !stop.load(Ordering::Relaxed) {
                        match commit(&b, t * 1_000_000 + i) {
                            Ok(info) => acked.push(info),
                            Err(_) => break,
                        }
                        i += 1;
                    }
                    acked
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(5 + (it * 7) % 40));
        io.power_cut(0x9e37_79b9_7f4a_7c15 ^ (it + 1)).expect("power cut");
        stop.store(true, Ordering::Relaxed);
        let acked: Vec<CommitInfo> = hs.into_iter().flat_map(|h| h.join().expect("join")).collect();
        drop(b);
        let s = scan(d.path(), "onelog-bin", Some(true)).unwrap_or_else(|e| panic!("iteration {it}: {e}"));
        let txns = s.transactions_after(BinlogPos::default()).expect("txns");
        eprintln!(
            "iteration {it}: {} acked, {} recovered in {} files, cut {:?}",
            acked.len(),
            txns.len(),
            s.files.len(),
            s.cut.as_ref().map(|c| (c.kind, c.bytes))
        );
        for (i, t) in txns.iter().enumerate() {
            assert_eq!(t.gtid.seq_no, i as u64 + 1, "iteration {it}: not a contiguous prefix");
        }
        for a in &acked {
            let t = txns
                .get(a.gtid.seq_no as usize - 1)
                .unwrap_or_else(|| panic!("iteration {it}: acked {} lost ({} recovered)", a.gtid, txns.len()));
            assert_eq!(t.end_pos, a.end_pos, "iteration {it}");
        }
        // The binlog reopens and continues numbering after the prefix.
        let b = open(d.path(), &FaultIo::new(), 16 << 10, 8 << 10);
        let next = commit(&b, 0).expect("commit after recovery");
        assert_eq!(next.gtid.seq_no, txns.len() as u64 + 1, "iteration {it}");
        b.close().expect("close");
    }
}

#[test]
fn power_loss_without_sync_recovers_a_consistent_prefix() {
    // sync_binlog=0: acknowledged commits may be lost, but what survives is
    // always a contiguous prefix of whole transactions, and many unsynced
    // writes give the tearing more to work with.
    let mut cuts = 0;
    for it in 0..30u64 {
        let d = tempfile::tempdir().expect("tempdir");
        let io = FaultIo::new();
        let b = Arc::new(open_with(d.path(), &io, 16 << 10, 1 << 20, 0));
        let hs: Vec<_> = (0..3u64)
            .map(|t| {
                let b = b.clone();
                std::thread::spawn(move || {
                    let mut i = 0;
                    while commit(&b, t * 1_000_000 + i).is_ok() {
                        i += 1;
                    }
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(3 + (it * 5) % 20));
        io.power_cut(0x2545_f491_4f6c_dd1d ^ (it + 1)).expect("power cut");
        hs.into_iter().for_each(|h| h.join().expect("join"));
        drop(b);
        let s = scan(d.path(), "onelog-bin", Some(true)).unwrap_or_else(|e| panic!("iteration {it}: {e}"));
        cuts += usize::from(s.cut.is_some());
        let txns = s.transactions_after(BinlogPos::default()).expect("txns");
        for (i, t) in txns.iter().enumerate() {
            assert_eq!(t.gtid.seq_no, i as u64 + 1, "iteration {it}: not a contiguous prefix");
        }
        let b = open(d.path(), &FaultIo::new(), 16 << 10, 1 << 20);
        assert_eq!(commit(&b, 0).expect("commit").gtid.seq_no, txns.len() as u64 + 1);
        b.close().expect("close");
    }
    eprintln!("{cuts} of 30 power cuts left a torn tail to cut");
}
