//! The store: redb below, an in-memory overlay of not-yet-folded changes
//! above, one ordered byte-key space plus a metadata table.
//!
//! Owns: opening the database, read snapshots, applying a commit group's
//! mutations, publishing what was applied, and checkpoints — the only
//! writes to redb in normal operation, and the only durable ones. The
//! position marker given with each group is opaque here; the layer above
//! stores its binlog position in it.
//!
//! Layers, newest first: `active` (where groups are applied), `frozen` (the
//! part a running checkpoint is writing to redb), then the redb read view
//! `base`. A group is applied by inserting its versions into `active`: no
//! redb transaction on the commit path. A checkpoint freezes `active`,
//! writes it with the marker of the last group it holds in one
//! `Durability::Immediate` redb transaction (after `ensure_logged` has made
//! the binlog durable that far), then swaps in the new base and drops
//! `frozen`. The applying thread folds in line, non-durably, only when a
//! group holds a range deletion (DDL) or would take the overlay past its
//! hard bound (the overlay is full, or the group is one large transaction).
//!
//! Invariants:
//! - readers only ever see the *published* state. `apply` returns a
//!   snapshot of exactly what it produced; `publish` makes such a snapshot
//!   the one readers get. The commit stage publishes a group once it is
//!   durable, so a commit is never visible before it is durable;
//! - only one thread applies (the commit stage, or start-up replay before
//!   it exists); snapshots are published in the order they were applied;
//! - only the holder of `writer` writes to redb, so a base taken right
//!   after its commit is exactly "previous base + folded layer";
//! - every snapshot is `base ⊕ frozen ⊕ active` taken under one lock, so a
//!   layer is never dropped before the base that contains it is visible.

use crate::overlay::{Bytes, NewerWins, Overlay, OverlayCursor, Versioned};
use crate::slice::Slice;
use parking_lot::{Condvar, Mutex};
use redb::{Database, Durability, ReadableDatabase, TableDefinition};
use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const DATA: TableDefinition<&[u8], &[u8]> = TableDefinition::new("data");
const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Metadata key of the position marker: the binlog position whose prefix
/// the stored state reflects.
const POSITION_KEY: &str = "binlog_position";

/// When the overlay should be folded into redb. A checkpoint is asked for
/// at the soft bound; at the hard bound the applying thread folds in line
/// (memory stays bounded even if the checkpointer cannot keep up).
#[derive(Debug, Clone, Copy)]
pub struct OverlayLimits {
    pub soft_entries: usize,
    pub soft_bytes: u64,
    pub hard_entries: usize,
    pub hard_bytes: u64,
}

impl Default for OverlayLimits {
    fn default() -> Self {
        OverlayLimits { soft_entries: 32 << 10, soft_bytes: 16 << 20, hard_entries: 512 << 10, hard_bytes: 256 << 20 }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("storage engine error: {0}")]
    Redb(#[from] redb::Error),
    #[error("checkpoint refused: {0}")]
    Checkpoint(String),
}

macro_rules! redb_from {
    ($($t:ty),*) => {$(
        impl From<$t> for StorageError {
            fn from(e: $t) -> Self { StorageError::Redb(e.into()) }
        }
    )*};
}
redb_from!(
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::SetDurabilityError
);

/// One change to the key space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    Put(Vec<u8>, Vec<u8>),
    Delete(Vec<u8>),
    /// Removes every key in `[start, end)`; `end = None` means to the end.
    DeleteRange(Vec<u8>, Option<Vec<u8>>),
}

impl Mutation {
    /// The key and value bytes this mutation holds.
    fn payload_bytes(&self) -> u64 {
        let bytes = match self {
            Mutation::Put(key, value) => key.len() + value.len(),
            Mutation::Delete(key) => key.len(),
            Mutation::DeleteRange(start, end) => start.len() + end.as_ref().map_or(0, Vec::len),
        };
        bytes as u64
    }

    /// The overlay version this mutation makes, or `None` for a range
    /// deletion (which only redb can apply).
    fn as_version(&self) -> Option<Versioned> {
        match self {
            Mutation::Put(key, value) => Some((Bytes::from(key.as_slice()), Some(Bytes::from(value.as_slice())))),
            Mutation::Delete(key) => Some((Bytes::from(key.as_slice()), None)),
            Mutation::DeleteRange(..) => None,
        }
    }
}

/// The applied state, from which every new snapshot is made.
struct Layers {
    base: Arc<Base>,
    frozen: Overlay,
    active: Overlay,
    /// Key and value bytes held by `active`, for the bounds.
    active_bytes: u64,
    /// Marker of the latest applied group (`None`: nothing ever applied).
    marker: Option<Vec<u8>>,
    /// Bytes applied since the last checkpoint.
    unpersisted_bytes: u64,
}

impl Layers {
    fn snapshot(&self) -> Arc<Snapshot> {
        Arc::new(Snapshot { base: self.base.clone(), frozen: self.frozen.clone(), active: self.active.clone() })
    }
}

pub struct Store {
    db: Database,
    limits: OverlayLimits,
    layers: Mutex<Layers>,
    /// The state readers see.
    published: Mutex<Arc<Snapshot>>,
    /// Held by whoever writes to redb: a checkpoint or an in-line fold.
    writer: Mutex<()>,
    checkpoint_due: Arc<CheckpointDue>,
}

/// Set once `active` passes its soft bound; cleared when a checkpoint
/// freezes it. Shared apart from the store so the checkpointer can wait on
/// it without keeping the store (and its open redb file) alive.
#[derive(Default)]
pub struct CheckpointDue {
    due: Mutex<bool>,
    changed: Condvar,
}

impl CheckpointDue {
    /// Blocks until a checkpoint is due or `timeout` passed, whichever is
    /// first: the checkpointer's pacing.
    pub fn wait(&self, timeout: Duration) {
        let mut due = self.due.lock();
        if !*due {
            self.changed.wait_for(&mut due, timeout);
        }
    }

    fn set(&self, due: bool) {
        *self.due.lock() = due;
        if due {
            self.changed.notify_one();
        }
    }
}

impl Store {
    /// Opens (creating if needed) the store at `path`, caching at most
    /// `cache_bytes` of its pages in memory.
    pub fn open(path: &Path, cache_bytes: usize) -> Result<Arc<Store>, StorageError> {
        let db = Database::builder().set_cache_size(cache_bytes).create(path)?;
        Self::init(db, OverlayLimits::default())
    }

    /// Opens the store on a custom backend (the power-loss tests' fault
    /// layer).
    pub fn open_with_backend(backend: impl redb::StorageBackend) -> Result<Arc<Store>, StorageError> {
        Self::open_with_backend_and_limits(backend, OverlayLimits::default())
    }

    /// [`Store::open_with_backend`] with explicit overlay bounds: the
    /// power-loss tests use tiny ones so in-line folds happen mid-run.
    pub fn open_with_backend_and_limits(
        backend: impl redb::StorageBackend,
        limits: OverlayLimits,
    ) -> Result<Arc<Store>, StorageError> {
        let db = Database::builder().create_with_backend(backend)?;
        Self::init(db, limits)
    }

    fn init(db: Database, limits: OverlayLimits) -> Result<Arc<Store>, StorageError> {
        let txn = db.begin_write()?;
        txn.open_table(DATA)?;
        txn.open_table(META)?;
        txn.commit()?;
        let marker = {
            let txn = db.begin_read()?;
            let meta = txn.open_table(META)?;
            let marker = meta.get(POSITION_KEY)?.map(|g| g.value().to_vec());
            marker
        };
        let layers = Layers {
            base: Arc::new(read_base(&db)?),
            frozen: Overlay::new(),
            active: Overlay::new(),
            active_bytes: 0,
            marker,
            unpersisted_bytes: 0,
        };
        let published = Mutex::new(layers.snapshot());
        Ok(Arc::new(Store {
            db,
            limits,
            layers: Mutex::new(layers),
            published,
            writer: Mutex::new(()),
            checkpoint_due: Arc::default(),
        }))
    }

    /// A consistent read view of the published state.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.published.lock().clone()
    }

    /// Makes `applied` (returned by [`Store::apply`]) the state readers
    /// see.
    pub fn publish(&self, applied: Arc<Snapshot>) {
        *self.published.lock() = applied;
    }

    /// Applies the mutations of one commit group and its position marker,
    /// without syncing and without publishing them; returns the snapshot of
    /// the result, to publish once the group is durable.
    pub fn apply<'a>(
        &self,
        batches: impl IntoIterator<Item = &'a [Mutation]>,
        position_marker: &[u8],
    ) -> Result<Arc<Snapshot>, StorageError> {
        let batches: Vec<&[Mutation]> = batches.into_iter().collect();
        let mutations = || batches.iter().flat_map(|b| b.iter());
        // A group that would take the overlay past its hard bound by itself
        // (one large transaction) goes straight to redb: it is never copied
        // into memory a second time.
        let (group_entries, group_bytes) =
            mutations().fold((0usize, 0u64), |(n, bytes), m| (n + 1, bytes + m.payload_bytes()));
        let mut layers = self.layers.lock();
        let at_hard_bound = layers.active.len() + group_entries > self.limits.hard_entries
            || layers.active_bytes + group_bytes > self.limits.hard_bytes;
        let versions: Option<Vec<Versioned>> =
            if at_hard_bound { None } else { mutations().map(Mutation::as_version).collect() };
        let Some(versions) = versions else {
            drop(layers);
            return self.fold_in_line(&batches, position_marker);
        };
        for (key, value) in versions {
            let added_bytes = entry_bytes(&key, &value);
            layers.unpersisted_bytes += added_bytes;
            layers.active_bytes += added_bytes;
            if let Some(replaced) = layers.active.insert(key.clone(), value) {
                layers.active_bytes -= entry_bytes(&key, &replaced);
            }
        }
        layers.marker = Some(position_marker.to_vec());
        if layers.active.len() >= self.limits.soft_entries || layers.active_bytes >= self.limits.soft_bytes {
            self.checkpoint_due.set(true);
        }
        Ok(layers.snapshot())
    }

    /// Folds `active` and `batches` into redb in one non-durable write, on
    /// the applying thread: for range deletions, and as back-pressure when
    /// the overlay is at its hard bound.
    fn fold_in_line(&self, batches: &[&[Mutation]], position_marker: &[u8]) -> Result<Arc<Snapshot>, StorageError> {
        let _writer = self.writer.lock();
        // With the writer held no checkpoint runs, and only this thread
        // applies: `active` cannot change until we replace it.
        let active = {
            let layers = self.layers.lock();
            assert!(layers.frozen.is_empty(), "a checkpoint left its frozen layer behind");
            layers.active.clone()
        };
        let (base, written_bytes) =
            self.write_layer(&active, batches, Some(position_marker), Durability::None, |_| Ok(()))?;
        let mut layers = self.layers.lock();
        layers.base = Arc::new(base);
        layers.active = Overlay::new();
        layers.active_bytes = 0;
        layers.marker = Some(position_marker.to_vec());
        layers.unpersisted_bytes += written_bytes;
        Ok(layers.snapshot())
    }

    /// Makes everything applied so far durable: freezes `active` and writes
    /// it, with the latest marker, in one durable redb transaction. Commits
    /// go on meanwhile (into a new `active`). `ensure_logged` is called
    /// with the marker being persisted before the commit; it must make the
    /// binlog durable at least that far, or fail the checkpoint: the engine
    /// may never persist a state its log could lose.
    pub fn checkpoint(
        &self,
        ensure_logged: impl FnOnce(Option<&[u8]>) -> Result<(), String>,
    ) -> Result<Option<Vec<u8>>, StorageError> {
        let _writer = self.writer.lock();
        let (frozen, frozen_bytes, marker, included_bytes) = {
            let mut layers = self.layers.lock();
            assert!(layers.frozen.is_empty(), "a checkpoint left its frozen layer behind");
            layers.frozen = std::mem::take(&mut layers.active);
            let frozen_bytes = std::mem::take(&mut layers.active_bytes);
            (layers.frozen.clone(), frozen_bytes, layers.marker.clone(), layers.unpersisted_bytes)
        };
        self.checkpoint_due.set(false);
        match self.write_layer(&frozen, &[], marker.as_deref(), Durability::Immediate, ensure_logged) {
            Ok((base, _)) => {
                let mut layers = self.layers.lock();
                layers.base = Arc::new(base);
                layers.frozen = Overlay::new();
                layers.unpersisted_bytes -= included_bytes;
                Ok(marker)
            }
            Err(e) => {
                // Nothing was persisted: the frozen versions go back under
                // the newer active ones, for the next checkpoint.
                let mut layers = self.layers.lock();
                let frozen = std::mem::take(&mut layers.frozen);
                layers.active = std::mem::take(&mut layers.active).union(frozen);
                layers.active_bytes += frozen_bytes;
                Err(e)
            }
        }
    }

    /// The one redb write: `layer`, then `batches` (range deletions), then
    /// the marker, in one transaction of the given durability, committed
    /// only if `ensure_logged(marker)` agrees. Returns the new base and the
    /// bytes `batches` wrote. The caller holds `writer`.
    fn write_layer(
        &self,
        layer: &Overlay,
        batches: &[&[Mutation]],
        marker: Option<&[u8]>,
        durability: Durability,
        ensure_logged: impl FnOnce(Option<&[u8]>) -> Result<(), String>,
    ) -> Result<(Base, u64), StorageError> {
        let mut txn = self.db.begin_write()?;
        txn.set_durability(durability)?;
        // A durable commit (a checkpoint) saves redb's allocator state, so
        // that opening the file after a crash loads it instead of walking
        // every page: restart time then does not grow with the data size.
        txn.set_quick_repair(matches!(durability, Durability::Immediate));
        let mut written_bytes = 0u64;
        {
            let mut table = txn.open_table(DATA)?;
            write_overlay(&mut table, layer)?;
            for mutation in batches.iter().flat_map(|b| b.iter()) {
                written_bytes += apply_one(&mut table, mutation)?;
            }
            if let Some(marker) = marker {
                txn.open_table(META)?.insert(POSITION_KEY, marker)?;
            }
        }
        if let Err(reason) = ensure_logged(marker) {
            txn.abort()?;
            return Err(StorageError::Checkpoint(reason));
        }
        txn.commit()?;
        Ok((read_base(&self.db)?, written_bytes))
    }

    /// What the checkpointer waits on between checkpoints.
    pub fn checkpoint_due(&self) -> Arc<CheckpointDue> {
        self.checkpoint_due.clone()
    }

    /// The position marker of the latest applied (not necessarily durable)
    /// state; right after opening, the persisted one.
    pub fn position_marker(&self) -> Result<Option<Vec<u8>>, StorageError> {
        Ok(self.layers.lock().marker.clone())
    }

    pub fn unpersisted_bytes(&self) -> u64 {
        self.layers.lock().unpersisted_bytes
    }
}

fn entry_bytes(key: &[u8], value: &Option<Bytes>) -> u64 {
    (key.len() + value.as_ref().map_or(0, |v| v.len())) as u64
}

type DataTable<'t> = redb::Table<'t, &'static [u8], &'static [u8]>;

fn write_overlay(table: &mut DataTable<'_>, layer: &Overlay) -> Result<(), StorageError> {
    for (key, value) in layer.iter() {
        match value {
            Some(value) => table.insert(&**key, &**value)?,
            None => table.remove(&**key)?,
        };
    }
    Ok(())
}

fn apply_one(table: &mut DataTable<'_>, mutation: &Mutation) -> Result<u64, StorageError> {
    match mutation {
        Mutation::Put(key, value) => {
            table.insert(key.as_slice(), value.as_slice())?;
            Ok((key.len() + value.len()) as u64)
        }
        Mutation::Delete(key) => {
            table.remove(key.as_slice())?;
            Ok(key.len() as u64)
        }
        Mutation::DeleteRange(start, end) => {
            let range = (Bound::Included(start.as_slice()), end_bound(end.as_deref()));
            let mut removed = 0u64;
            table.retain_in::<&[u8], _>(range, |_, _| {
                removed += 1;
                false
            })?;
            Ok(removed)
        }
    }
}

fn end_bound(end: Option<&[u8]>) -> Bound<&[u8]> {
    match end {
        Some(end) => Bound::Excluded(end),
        None => Bound::Unbounded,
    }
}

fn read_base(db: &Database) -> Result<Base, StorageError> {
    let txn = db.begin_read()?;
    let table = txn.open_table(DATA)?;
    Ok(Base { table })
}

/// A redb read view; shared by every snapshot taken until the next fold.
struct Base {
    table: redb::ReadOnlyTable<&'static [u8], &'static [u8]>,
}

/// A read view; cheap to keep for a whole transaction (REPEATABLE READ).
pub struct Snapshot {
    base: Arc<Base>,
    frozen: Overlay,
    active: Overlay,
}

/// Key/value pairs from a scan, borrowed from where they live.
pub type KvIter = Box<dyn Iterator<Item = Result<(Slice, Slice), StorageError>> + Send>;

type SliceVersion = (Slice, Option<Slice>);
type RangeItem =
    Result<(redb::AccessGuard<'static, &'static [u8]>, redb::AccessGuard<'static, &'static [u8]>), redb::StorageError>;

impl Snapshot {
    pub fn get(&self, key: &[u8]) -> Result<Option<Slice>, StorageError> {
        for layer in [&self.active, &self.frozen] {
            if let Some(version) = layer.get(key) {
                return Ok(version.clone().map(Slice::from));
            }
        }
        Ok(self.base.table.get(key)?.map(Slice::from))
    }

    /// Keys in `[start, end)` (`end = None`: unbounded), ascending or
    /// descending.
    pub fn scan(&self, start: &[u8], end: Option<&[u8]>, reverse: bool) -> Result<KvIter, StorageError> {
        let range = self.base.table.range::<&[u8]>((Bound::Included(start), end_bound(end)))?;
        let base = |r: RangeItem| r.map(|(k, v)| (Slice::from(k), Slice::from(v))).map_err(StorageError::from);
        if self.active.is_empty() && self.frozen.is_empty() {
            return Ok(if reverse { Box::new(range.rev().map(base)) } else { Box::new(range.map(base)) });
        }
        let base_versions = move |r| base(r).map(|(k, v): (Slice, Slice)| (k, Some(v)));
        let layer = |map: &Overlay| OverlayCursor::new(map.clone(), start, end, reverse).map(Ok::<_, StorageError>);
        let overlay = NewerWins::new(layer(&self.active), layer(&self.frozen), reverse)
            .map(|r| r.map(|(k, v)| -> SliceVersion { (Slice::from(k), v.map(Slice::from)) }));
        let live = |r: Result<SliceVersion, StorageError>| match r {
            Ok((key, Some(value))) => Some(Ok((key, value))),
            Ok((_, None)) => None,
            Err(e) => Some(Err(e)),
        };
        Ok(if reverse {
            Box::new(NewerWins::new(overlay, range.rev().map(base_versions), true).filter_map(live))
        } else {
            Box::new(NewerWins::new(overlay, range.map(base_versions), false).filter_map(live))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeMap;

    type Model = BTreeMap<Vec<u8>, Vec<u8>>;

    fn open(dir: &tempfile::TempDir, limits: OverlayLimits) -> Arc<Store> {
        let db = Database::create(dir.path().join("db.redb")).unwrap();
        Store::init(db, limits).unwrap()
    }

    #[test]
    fn apply_scan_and_checkpoint_marker() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(&dir, OverlayLimits::default());
        let batch = vec![
            Mutation::Put(vec![1, 1], b"a".to_vec()),
            Mutation::Put(vec![1, 2], b"b".to_vec()),
            Mutation::Put(vec![2, 1], b"c".to_vec()),
        ];
        let applied = store.apply([batch.as_slice()], b"pos1").unwrap();
        assert_eq!(store.snapshot().get(&[1, 1]).unwrap(), None, "applied but not yet published");
        store.publish(applied);
        let snap = store.snapshot();
        let keys: Vec<_> = snap.scan(&[1], Some(&[2]), false).unwrap().map(|r| r.unwrap().0.to_vec()).collect();
        assert_eq!(keys, vec![vec![1, 1], vec![1, 2]]);
        let applied = store.apply([[Mutation::DeleteRange(vec![1], Some(vec![2]))].as_slice()], b"pos2").unwrap();
        store.publish(applied);
        // The old snapshot still sees the old state.
        assert_eq!(snap.get(&[1, 1]).unwrap().as_deref(), Some(&b"a"[..]));
        assert_eq!(store.snapshot().get(&[1, 1]).unwrap(), None);
        assert_eq!(
            store
                .checkpoint(|m| if m == Some(b"pos2".as_slice()) { Ok(()) } else { Err("wrong marker".into()) })
                .unwrap(),
            Some(b"pos2".to_vec())
        );
    }

    #[test]
    fn a_group_larger_than_the_hard_bound_goes_to_redb_not_the_overlay() {
        let dir = tempfile::tempdir().unwrap();
        let limits = OverlayLimits { soft_entries: 8, soft_bytes: 1 << 20, hard_entries: 16, hard_bytes: 1 << 20 };
        let store = open(&dir, limits);
        let small = [Mutation::Put(vec![0], b"first".to_vec())];
        store.publish(store.apply([small.as_slice()], b"pos1").unwrap());
        assert_eq!(store.layers.lock().active.len(), 1);
        let large: Vec<Mutation> = (1..=40u8).map(|k| Mutation::Put(vec![k], vec![k; 100])).collect();
        store.publish(store.apply([large.as_slice()], b"pos2").unwrap());
        // Folded in line, together with what the overlay held.
        assert_eq!(store.layers.lock().active.len(), 0);
        let snap = store.snapshot();
        assert_eq!(snap.get(&[0]).unwrap().as_deref(), Some(&b"first"[..]));
        assert_eq!(snap.scan(&[1], None, false).unwrap().count(), 40);
        assert_eq!(store.checkpoint(|_| Ok(())).unwrap(), Some(b"pos2".to_vec()));
    }

    #[test]
    fn reopening_after_power_loss_past_a_checkpoint_needs_no_full_repair() {
        use crate::fault::{CutMode, FaultBackend};
        use std::sync::atomic::{AtomicBool, Ordering};
        for seed in 0..20u64 {
            let backend = FaultBackend::new();
            let limits = OverlayLimits { soft_entries: 8, soft_bytes: 1 << 20, hard_entries: 16, hard_bytes: 1 << 20 };
            let store = Store::open_with_backend_and_limits(backend.clone(), limits).unwrap();
            for step in 0..100u8 {
                let batch: Vec<Mutation> = (0..5u8).map(|k| Mutation::Put(vec![step, k], vec![step; 64])).collect();
                // Groups fold into redb in line (non-durably) past 16 entries.
                store.publish(store.apply([batch.as_slice()], &[step]).unwrap());
                if step == 60 {
                    store.checkpoint(|_| Ok(())).unwrap();
                }
            }
            backend.power_cut(seed, if seed % 2 == 0 { CutMode::Prefix } else { CutMode::Reordered });
            drop(store);
            // The checkpoint saved redb's allocator state: the reopen loads
            // it instead of walking every page (redb's repair).
            let repaired = Arc::new(AtomicBool::new(false));
            let seen = repaired.clone();
            let db = Database::builder()
                .set_repair_callback(move |_| seen.store(true, Ordering::Relaxed))
                .create_with_backend(backend.reopen())
                .unwrap();
            assert!(!repaired.load(Ordering::Relaxed), "seed {seed}: full repair after a checkpoint");
            let store = Store::init(db, limits).unwrap();
            assert_eq!(store.position_marker().unwrap(), Some(vec![60]), "seed {seed}");
            assert_eq!(store.snapshot().get(&[60, 4]).unwrap().as_deref(), Some(&[60u8; 64][..]));
            assert_eq!(store.snapshot().get(&[61, 0]).unwrap(), None);
        }
    }

    #[test]
    fn a_refused_checkpoint_persists_nothing_and_the_next_one_persists_all() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(&dir, OverlayLimits::default());
            store.publish(store.apply([[Mutation::Put(vec![1], b"one".to_vec())].as_slice()], b"pos1").unwrap());
            let refused = store.checkpoint(|_| Err("binlog not synced".into()));
            assert!(matches!(refused, Err(StorageError::Checkpoint(_))), "{refused:?}");
            store.publish(store.apply([[Mutation::Put(vec![2], b"two".to_vec())].as_slice()], b"pos2").unwrap());
            assert_eq!(
                store.snapshot().get(&[1]).unwrap().as_deref(),
                Some(&b"one"[..]),
                "still visible after the refusal"
            );
            assert!(store.unpersisted_bytes() > 0);
            assert_eq!(store.checkpoint(|_| Ok(())).unwrap(), Some(b"pos2".to_vec()));
            assert_eq!(store.unpersisted_bytes(), 0);
            // Applied after the last checkpoint: lost with the process.
            store.apply([[Mutation::Put(vec![3], b"three".to_vec())].as_slice()], b"pos3").unwrap();
        }
        let store = open(&dir, OverlayLimits::default());
        assert_eq!(store.position_marker().unwrap(), Some(b"pos2".to_vec()));
        let snap = store.snapshot();
        assert_eq!(snap.get(&[1]).unwrap().as_deref(), Some(&b"one"[..]));
        assert_eq!(snap.get(&[2]).unwrap().as_deref(), Some(&b"two"[..]));
        assert_eq!(snap.get(&[3]).unwrap(), None);
    }

    /// Random puts, deletes and range deletions, with checkpoints and
    /// in-line folds (tiny bounds) between them: every snapshot — the
    /// newest and ones kept from earlier — reads exactly what a plain
    /// ordered map says, by point lookups and by scans both ways.
    #[test]
    fn layered_reads_match_a_model_across_folds_and_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let limits = OverlayLimits { soft_entries: 8, soft_bytes: 1 << 20, hard_entries: 24, hard_bytes: 1 << 20 };
        let store = open(&dir, limits);
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x0E1);
        let mut model = Model::new();
        let mut kept: Vec<(Arc<Snapshot>, Model)> = Vec::new();
        for step in 0..600u32 {
            let batch = random_batch(&mut rng, step, true);
            apply_to_model(&mut model, &batch);
            store.publish(store.apply([batch.as_slice()], &step.to_be_bytes()).unwrap());
            if rng.random_range(0..10) == 0 {
                // Groups applied while the checkpoint writes its frozen
                // layer are read through both layers.
                let mut during = rand::rngs::StdRng::seed_from_u64(u64::from(step));
                store
                    .checkpoint(|_| {
                        for _ in 0..during.random_range(0..4) {
                            let batch = random_batch(&mut during, step, false);
                            apply_to_model(&mut model, &batch);
                            store.publish(store.apply([batch.as_slice()], &step.to_be_bytes()).unwrap());
                            check(&store.snapshot(), &model, &mut during);
                        }
                        Ok(())
                    })
                    .unwrap();
            }
            if step % 50 == 0 {
                kept.push((store.snapshot(), model.clone()));
            }
            check(&store.snapshot(), &model, &mut rng);
        }
        for (snapshot, model) in &kept {
            check(snapshot, model, &mut rng);
        }
    }

    fn random_batch(rng: &mut impl Rng, step: u32, range_deletes: bool) -> Vec<Mutation> {
        (0..rng.random_range(1..5))
            .map(|_| {
                let key = vec![rng.random_range(0..4u8), rng.random_range(0..16u8)];
                match rng.random_range(0..20) {
                    0 if range_deletes => {
                        Mutation::DeleteRange(key[..1].to_vec(), Some(vec![key[0], rng.random_range(0..16u8)]))
                    }
                    0..=5 => Mutation::Delete(key),
                    _ => Mutation::Put(key, step.to_be_bytes().to_vec()),
                }
            })
            .collect()
    }

    fn apply_to_model(model: &mut Model, batch: &[Mutation]) {
        for m in batch {
            match m {
                Mutation::Put(k, v) => {
                    model.insert(k.clone(), v.clone());
                }
                Mutation::Delete(k) => {
                    model.remove(k);
                }
                Mutation::DeleteRange(s, e) => model.retain(|k, _| k < s || Some(k) >= e.as_ref()),
            }
        }
    }

    fn check(snapshot: &Snapshot, model: &Model, rng: &mut impl Rng) {
        for _ in 0..4 {
            let key = vec![rng.random_range(0..4u8), rng.random_range(0..16u8)];
            assert_eq!(snapshot.get(&key).unwrap().as_deref(), model.get(&key).map(Vec::as_slice), "get {key:?}");
        }
        let start = vec![rng.random_range(0..4u8)];
        let end =
            (rng.random_range(0..3) > 0).then(|| vec![rng.random_range(start[0]..5u8), rng.random_range(0..16u8)]);
        let expected: Vec<_> = model
            .iter()
            .filter(|(k, _)| **k >= start && end.as_ref().is_none_or(|e| *k < e))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for reverse in [false, true] {
            let got: Vec<_> = snapshot
                .scan(&start, end.as_deref(), reverse)
                .unwrap()
                .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).unwrap())
                .collect();
            let mut want = expected.clone();
            if reverse {
                want.reverse();
            }
            assert_eq!(got, want, "scan {start:?}..{end:?} reverse={reverse}");
        }
    }
}
