//! The engine: the shared state every session uses — storage, the binlog
//! commit pipeline, the catalog, row locks and global variables — plus
//! start-up recovery and the checkpointer.
//!
//! Commit protocol (DESIGN.md): a transaction's write set travels with its
//! binlog events through the pipeline; the commit stage ([`StoreSink`])
//! applies each group to storage's in-memory overlay in binlog order with
//! the group's end position as the marker, and publishes it once durable.
//! redb is written and made durable only by [`Engine::checkpoint`], and only
//! up to what the binlog has synced.

use crate::applier;
use crate::catalog::Catalog;
use crate::locks::{LockManager, TxnId};
use crate::mdl::MetadataLocks;
use crate::vars::GlobalVars;
use onelog_binlog::file::BinlogConfig;
use onelog_binlog::pipeline::{Binlog, CommitInfo, GroupSink, Publish, TxnEvents};
use onelog_binlog::{recovery, BinlogError, BinlogPos};
use onelog_core::{ErrorCode, SqlError, SqlResult};
use onelog_storage::{Mutation, StorageError, Store};
use parking_lot::{Mutex, RwLock};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Checkpoint at least this often while there are unpersisted changes
/// (and sooner when storage's overlay passes its soft bound).
const CHECKPOINT_INTERVAL: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("storage: {0}")]
    Storage(#[from] onelog_storage::StorageError),
    #[error("binlog: {0}")]
    Binlog(#[from] BinlogError),
    #[error("recovery failed replaying {gtid} (ends at {file_seq}:{offset}): {message}")]
    Replay { gtid: String, file_seq: u32, offset: u64, message: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error(
        "table `{db}`.`{table}` has a key on text column `{column}` written by an older OneLog, whose text keys \
         do not sort as its collations compare; dump it with that version (mariadb-dump) and restore it into a new \
         data directory"
    )]
    StaleTextKeys { db: String, table: String, column: String },
}

/// What the engine needs to start.
pub struct EngineConfig {
    pub datadir: PathBuf,
    pub binlog: BinlogConfig,
    /// An already opened store to use instead of `<datadir>/onelog.redb`.
    /// `None` (the server) opens the file; tests pass a store opened with
    /// [`Store::open_with_backend`] on the power-loss fault layer
    /// (`onelog_storage::fault`).
    pub store: Option<Arc<Store>>,
}

impl EngineConfig {
    /// Storage in `<datadir>/onelog.redb`.
    pub fn new(datadir: impl Into<PathBuf>, binlog: BinlogConfig) -> Self {
        EngineConfig { datadir: datadir.into(), binlog, store: None }
    }
}

/// The storage payload of a committed transaction.
pub type CommitPayload = Vec<Mutation>;

/// Position marker stored with every storage write.
pub fn encode_marker(pos: BinlogPos) -> Vec<u8> {
    serde_json::to_vec(&pos).unwrap_or_default()
}

pub fn decode_marker(bytes: Option<Vec<u8>>) -> BinlogPos {
    bytes.and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
}

/// The commit stage's storage side: applies written groups in binlog order
/// and publishes them once durable.
pub struct StoreSink {
    store: Arc<Store>,
}

impl GroupSink<CommitPayload> for StoreSink {
    fn apply_group(&self, group: &mut [(CommitPayload, CommitInfo)]) -> Result<Publish, String> {
        let last = group.last().map(|(_, info)| info.end_pos).ok_or("empty commit group")?;
        let applied = self
            .store
            .apply(group.iter().map(|(m, _)| m.as_slice()), &encode_marker(last))
            .map_err(|e| e.to_string())?;
        let store = self.store.clone();
        Ok(Box::new(move || store.publish(applied)))
    }
}

pub struct Engine {
    pub datadir: PathBuf,
    pub store: Arc<Store>,
    pub binlog: Binlog<CommitPayload>,
    pub catalog: RwLock<Catalog>,
    pub locks: LockManager,
    pub mdl: MetadataLocks,
    /// GET_LOCK() and its kin.
    pub user_locks: crate::user_locks::UserLocks,
    pub vars: GlobalVars,
    /// Serialises DDL: one schema change at a time.
    pub ddl_lock: Mutex<()>,
    next_txn_id: AtomicU64,
    next_connection_id: AtomicU64,
    /// Ids for temporary tables and their indexes, from
    /// `key::FIRST_TEMP_INDEX_ID` up: never reused while the server runs.
    next_temp_id: AtomicU64,
    pub processes: crate::session::ProcessList,
    shutting_down: AtomicBool,
    /// Wakes the server when a client asks it to shut down (SHUTDOWN,
    /// COM_SHUTDOWN): it then stops as on SIGTERM.
    shutdown_request: tokio::sync::Notify,
    pub started_at: Instant,
    /// The binlog position storage has persisted (last checkpoint): the
    /// oldest binlog recovery would need.
    persisted_pos: Mutex<BinlogPos>,
    /// Connected replicas and where they read.
    pub replicas: crate::replicas::Replicas,
    /// Counts account changes: a session's cached privileges are stale
    /// once it moves (see `privilege`).
    accounts_version: AtomicU64,
    /// Connection limits, the host cache and their counters.
    pub connections: crate::connections::Connections,
    /// SHOW GLOBAL STATUS counters: every session's counts (see
    /// `Session::count`), by `StatusCounter`.
    pub status_counts: [AtomicU64; crate::session::STATUS_COUNTERS],
}

impl Engine {
    /// Opens the data directory: storage, binlog scan, replay of every
    /// complete transaction after the persisted position, then the binlog
    /// pipeline.
    pub fn open(config: EngineConfig, vars: GlobalVars) -> Result<Arc<Engine>, EngineError> {
        let started = Instant::now();
        std::fs::create_dir_all(&config.datadir)?;
        let store = match config.store {
            Some(store) => store,
            None => {
                let cache_bytes = usize::try_from(vars.int("innodb_buffer_pool_size")).unwrap_or(usize::MAX);
                Store::open(&config.datadir.join("onelog.redb"), cache_bytes)?
            }
        };
        let durable_pos = decode_marker(store.position_marker()?);
        let store_open_ms = started.elapsed().as_millis();
        let scan = recovery::scan(&config.binlog.dir, &config.binlog.basename, None)?;
        let scanned_ms = started.elapsed().as_millis();
        if let Some(cut) = &scan.cut {
            tracing::warn!(
                "recovery: truncated the binlog tail of {} at offset {} ({} bytes cut, {:?}: {})",
                cut.file,
                cut.offset,
                cut.bytes,
                cut.kind,
                cut.reason
            );
        }
        let mut catalog = Catalog::load(&store.snapshot())?;
        for table in catalog.all_tables() {
            if let Some(column) = table.def.stale_text_key() {
                return Err(EngineError::StaleTextKeys {
                    db: table.def.db.clone(),
                    table: table.def.name.clone(),
                    column: column.name.clone(),
                });
            }
        }
        // Storage can only be ahead of the binlog's end if the binlog was
        // reset (RESET MASTER crashed before storage recorded the new
        // start): everything in the new binlog is then still to apply.
        let replay_from = if durable_pos > scan.end_pos {
            tracing::warn!(
                "recovery: storage position {}:{} is beyond the binlog end {}:{} (binlog was reset); replaying the whole binlog",
                durable_pos.file_seq,
                durable_pos.offset,
                scan.end_pos.file_seq,
                scan.end_pos.offset
            );
            BinlogPos::default()
        } else {
            durable_pos
        };
        let pending = scan.transactions_after(replay_from)?;
        let replayed = pending.len();
        let replayed_bytes = replayed_bytes(replay_from, &pending);
        let replay_started_ms = started.elapsed().as_millis();
        // Before replay too: a replayed insert into a table without a
        // primary key takes the next hidden row id, which must come after
        // the stored rows' or it overwrites one of them (and leaves that
        // row's secondary index entries behind).
        applier::init_counters(&store, &catalog)?;
        for txn in &pending {
            applier::apply_transaction(&store, &mut catalog, txn).map_err(|e| EngineError::Replay {
                gtid: txn.gtid.to_string(),
                file_seq: txn.end_pos.file_seq,
                offset: txn.end_pos.offset,
                message: e.message,
            })?;
        }
        let replayed_ms = started.elapsed().as_millis() - replay_started_ms;
        if replayed > 0 {
            // Replayed transactions came from complete binlog events on disk.
            store.checkpoint(|_| Ok(()))?;
        }
        applier::init_counters(&store, &catalog)?;
        // Nothing has been applied since: this is the persisted position.
        let persisted = decode_marker(store.position_marker()?);
        let sink = Arc::new(StoreSink { store: store.clone() });
        let binlog = Binlog::open(config.binlog, sink, &scan)?;
        tracing::info!(
            "recovery: storage was durable at {}:{}; replayed {replayed} transaction(s) ({:.1} MB) in {replayed_ms} ms; binlog continues at {}:{}; took {} ms (storage open {store_open_ms} ms, binlog scan {} ms)",
            durable_pos.file_seq,
            durable_pos.offset,
            replayed_bytes as f64 / 1e6,
            scan.end_pos.file_seq,
            scan.end_pos.offset,
            started.elapsed().as_millis(),
            scanned_ms - store_open_ms,
        );
        let engine = Arc::new(Engine {
            datadir: config.datadir,
            store,
            binlog,
            catalog: RwLock::new(catalog),
            locks: LockManager::default(),
            mdl: MetadataLocks::default(),
            user_locks: Default::default(),
            vars,
            ddl_lock: Mutex::new(()),
            next_txn_id: AtomicU64::new(1),
            next_connection_id: AtomicU64::new(1),
            next_temp_id: AtomicU64::new(onelog_storage::key::FIRST_TEMP_INDEX_ID),
            processes: Default::default(),
            shutting_down: AtomicBool::new(false),
            shutdown_request: tokio::sync::Notify::new(),
            replicas: Default::default(),
            connections: Default::default(),
            started_at: Instant::now(),
            persisted_pos: Mutex::new(persisted),
            accounts_version: AtomicU64::new(0),
            status_counts: Default::default(),
        });
        // MariaDB also expires binlogs at start-up.
        engine.expire_binlogs();
        Ok(engine)
    }

    /// Releases what a transaction held to its end: its row locks and its
    /// connection's metadata locks.
    pub fn release_txn_locks(&self, txn: TxnId, connection_id: u64) {
        self.locks.release_all(txn);
        self.mdl.release_all(connection_id);
    }

    /// Whether the data directory's accounts were initialized (they may
    /// all have been dropped since).
    pub fn accounts_initialized(&self) -> SqlResult<bool> {
        let snapshot = self.store.snapshot();
        Ok(snapshot.get(&crate::accounts::store::initialized_key()).map_err(crate::txn::storage_err)?.is_some())
    }

    /// Installs the accounts a data directory starts with (root, or those
    /// migrated from the old accounts file) straight into storage, not
    /// through the binlog, as mariadb-install-db writes its mysql.user
    /// rows: a replica has its own root, and a CREATE USER root in the log
    /// would stop it. Only before connections are served; the storage
    /// position does not move, so recovery stays a replay of the log.
    pub fn bootstrap_accounts(&self, accounts: Vec<crate::accounts::Account>) -> SqlResult<()> {
        let changes: Vec<crate::accounts::AccountChange> =
            accounts.into_iter().map(|a| crate::accounts::AccountChange::Put(Box::new(a))).collect();
        let mut batch = changes.iter().map(crate::accounts::AccountChange::mutation).collect::<SqlResult<Vec<_>>>()?;
        batch.push(onelog_storage::Mutation::Put(crate::accounts::store::initialized_key(), Vec::new()));
        let marker = self.store.position_marker().map_err(crate::txn::storage_err)?;
        let marker = marker.unwrap_or_else(|| encode_marker(BinlogPos::default()));
        let applied = self.store.apply([batch.as_slice()], &marker).map_err(crate::txn::storage_err)?;
        self.store.publish(applied);
        self.store.checkpoint(|_| Ok(())).map_err(crate::txn::storage_err)?;
        let mut catalog = self.catalog.write();
        changes.into_iter().for_each(|c| c.apply(&mut catalog.accounts));
        drop(catalog);
        self.accounts_changed();
        Ok(())
    }

    /// After an account change: sessions reload their privileges.
    pub fn accounts_changed(&self) {
        self.accounts_version.fetch_add(1, Ordering::Release);
    }

    pub fn accounts_version(&self) -> u64 {
        self.accounts_version.load(Ordering::Acquire)
    }

    pub fn next_txn_id(&self) -> TxnId {
        self.next_txn_id.fetch_add(1, Ordering::Relaxed)
    }

    /// A fresh id for a temporary table or one of its indexes.
    pub fn next_temp_id(&self) -> u64 {
        self.next_temp_id.fetch_add(1, Ordering::Relaxed)
    }

    pub fn next_connection_id(&self) -> u64 {
        self.next_connection_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Commits through the binlog and waits until the transaction is
    /// durable (per sync_binlog), applied and visible.
    pub fn commit(&self, events: TxnEvents, payload: CommitPayload) -> SqlResult<CommitInfo> {
        self.accepting_commits()?;
        let rx = self.binlog.commit(events, payload);
        let waiting = crate::wait::begin(crate::wait::WaitReason::GroupCommit);
        let outcome = rx.blocking_recv();
        drop(waiting);
        match outcome {
            Ok(outcome) => outcome.map_err(commit_error),
            Err(_) => {
                Err(SqlError::new(ErrorCode::ERROR_DURING_COMMIT, "Got error during COMMIT: commit pipeline stopped"))
            }
        }
    }

    /// [`Engine::commit`] without waiting: `then` gets the outcome once the
    /// commit is durable and visible, or has failed (see
    /// [`onelog_binlog::pipeline::Binlog::commit_then`]; it runs on the
    /// commit path and must not block).
    pub fn commit_then(
        &self,
        events: TxnEvents,
        payload: CommitPayload,
        then: Box<dyn FnOnce(SqlResult<CommitInfo>) + Send>,
    ) {
        if let Err(e) = self.accepting_commits() {
            return then(Err(e));
        }
        self.binlog.commit_then(events, payload, Box::new(move |outcome| then(outcome.map_err(commit_error))));
    }

    /// Refuses a new commit once shutdown has begun.
    fn accepting_commits(&self) -> SqlResult<()> {
        if self.shutting_down.load(Ordering::Relaxed) {
            return Err(SqlError::new(ErrorCode::SERVER_SHUTDOWN, "Server shutdown in progress"));
        }
        Ok(())
    }

    /// Makes storage durable, first syncing the binlog through the
    /// persisted position if the sync policy has not already (sync_binlog=0
    /// or N). Returns the persisted position.
    pub fn checkpoint(&self) -> Result<Option<BinlogPos>, EngineError> {
        let checkpointed = self.store.checkpoint(|marker| {
            let persisting = decode_marker(marker.map(<[u8]>::to_vec));
            if self.binlog.stats().synced_pos >= persisting {
                return Ok(());
            }
            let synced = self.binlog.sync_written().map_err(|e| e.to_string())?;
            if synced < persisting {
                return Err(format!("binlog synced only to {}:{}", synced.file_seq, synced.offset));
            }
            Ok(())
        });
        let marker = match checkpointed {
            Ok(marker) => marker,
            Err(e) => {
                // redb latches an I/O failure (every later operation fails
                // with PreviousIo, as it must after a failed fsync), so no
                // checkpoint can succeed before a restart: commits would
                // pile up in memory, never persisted. Refuse them instead.
                if matches!(e, StorageError::Redb(_)) {
                    self.binlog.refuse_commits(format!(
                        "storage checkpoint failed ({e}); commits are refused until the server is restarted \
                         (recovery replays the binlog into storage)"
                    ));
                }
                return Err(e.into());
            }
        };
        let persisted = decode_marker(marker);
        {
            let mut p = self.persisted_pos.lock();
            *p = (*p).max(persisted);
        }
        Ok(Some(persisted))
    }

    /// RESET MASTER for the engine. The binlog alone cannot do it safely:
    /// storage's persisted marker would keep naming a file of the deleted
    /// set (say `.000005`), recovery would then skip every transaction in
    /// the new `.000001` and a crash before the next checkpoint would lose
    /// acknowledged commits. So: persist storage first (what the old files
    /// held), reset the binlog, then persist a marker at the new start.
    /// Commits are paused throughout, after the ones in flight settle, so
    /// none lands in a deleted file or after the new start is persisted.
    pub fn reset_master(&self) -> Result<(), EngineError> {
        let drained = self.binlog.pause_commits();
        self.checkpoint()?;
        self.binlog.reset_master(&drained)?;
        let start = self.binlog.stats().current_pos;
        self.store.apply(std::iter::empty::<&[onelog_storage::Mutation]>(), &encode_marker(start))?;
        self.store.checkpoint(|_| Ok(()))?;
        *self.persisted_pos.lock() = start;
        Ok(())
    }

    /// The binlog position storage has persisted: recovery replays from
    /// here, so no binlog file at or after it may be purged.
    pub fn persisted_pos(&self) -> BinlogPos {
        *self.persisted_pos.lock()
    }

    /// The oldest binlog position anyone still needs: recovery (from
    /// `persisted`, storage's persisted position) or a connected replica's
    /// dump. Purge and expiry keep every file from it on.
    pub fn purge_floor(&self, persisted: BinlogPos) -> BinlogPos {
        self.replicas.oldest_reading().map_or(persisted, |reading| reading.min(persisted))
    }

    /// `binlog_expire_logs_seconds` (or, when that is 0, `expire_logs_days`
    /// × 86400): removes binlog files last modified longer ago than that,
    /// oldest first, never one storage still needs ([`Self::persisted_pos`]).
    /// Called at start-up and by the checkpointer after each tick, so a
    /// rotated file expires within a checkpoint interval. Returns the
    /// removed names.
    pub fn expire_binlogs(&self) -> Vec<String> {
        // log_bin=OFF (DESIGN.md): the binlog is still the durability log,
        // but nobody reads it, so it goes as soon as storage is past it.
        if self.vars.get("log_bin").as_deref() == Some("0") {
            return self.binlog.purge_before(u64::MAX, self.purge_floor(self.persisted_pos())).unwrap_or_else(|e| {
                tracing::error!("binlog purge (log_bin=OFF) failed: {e}");
                Vec::new()
            });
        }
        let limit_s = match self.vars.int("binlog_expire_logs_seconds") {
            0 => self.vars.int("expire_logs_days").saturating_mul(86_400),
            s => s,
        };
        if limit_s == 0 {
            return Vec::new();
        }
        match self.binlog.expire_logs(limit_s, self.purge_floor(self.persisted_pos())) {
            Ok(removed) => removed,
            Err(e) => {
                tracing::error!("binlog expiry failed: {e}");
                Vec::new()
            }
        }
    }

    /// Runs the checkpointer until shutdown.
    pub fn spawn_checkpointer(self: &Arc<Self>) -> std::thread::JoinHandle<()> {
        let engine = Arc::downgrade(self);
        let due = self.store.checkpoint_due();
        std::thread::Builder::new()
            .name("checkpointer".into())
            .spawn(move || loop {
                due.wait(CHECKPOINT_INTERVAL);
                let Some(engine) = engine.upgrade() else { return };
                if engine.shutting_down.load(Ordering::Relaxed) {
                    return;
                }
                if engine.store.unpersisted_bytes() > 0 {
                    if let Err(e) = engine.checkpoint() {
                        tracing::error!("checkpoint failed: {e}");
                    }
                }
                engine.expire_binlogs();
            })
            .unwrap_or_else(|e| panic!("cannot start the checkpointer thread: {e}"))
    }

    /// SHUTDOWN from a client: the server stops as on SIGTERM.
    pub fn request_shutdown(&self, connection_id: u64) {
        tracing::info!("shutdown requested by connection {connection_id}");
        self.shutdown_request.notify_one();
    }

    /// Resolves once a client has asked for shutdown.
    pub async fn shutdown_requested(&self) {
        self.shutdown_request.notified().await
    }

    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Relaxed)
    }

    /// Clean shutdown: no new commits, binlog closed (synced, trimmed),
    /// storage checkpointed.
    pub fn shutdown(&self) -> Result<(), EngineError> {
        self.shutting_down.store(true, Ordering::Relaxed);
        self.binlog.close()?;
        // close() synced the binlog through its end.
        self.store.checkpoint(|_| Ok(()))?;
        tracing::info!("shutdown complete: binlog closed and storage checkpointed");
        Ok(())
    }

    pub fn datadir(&self) -> &Path {
        &self.datadir
    }
}

/// The binlog bytes recovery replays: from `from` to the end of the last
/// of `pending`, counting a later file from its start (header included).
fn replayed_bytes(from: BinlogPos, pending: &[recovery::RecoveredTxn]) -> u64 {
    let mut previous = from;
    let mut bytes = 0;
    for txn in pending {
        let start = if txn.end_pos.file_seq == previous.file_seq { previous.offset } else { 0 };
        bytes += txn.end_pos.offset.saturating_sub(start);
        previous = txn.end_pos;
    }
    bytes
}

fn commit_error(e: onelog_binlog::BinlogError) -> SqlError {
    SqlError::new(ErrorCode::ERROR_DURING_COMMIT, format!("Got error during COMMIT: {e}"))
}
