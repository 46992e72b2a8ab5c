//! The redb store: one ordered byte-key space plus a metadata table.
//!
//! Owns: opening the database, read snapshots, applying a commit group's
//! mutations with `Durability::None`, publishing what was applied, and
//! checkpoints (the only durable commits). The position marker written with
//! each group is opaque here; the layer above stores its binlog position in
//! it.
//!
//! Invariant: readers only ever see the *published* state. `apply` changes
//! the applied state and returns a snapshot of exactly what it produced;
//! `publish` makes such a snapshot the one readers get. The commit stage
//! applies a group while its binlog sync runs and publishes its snapshot
//! once the group is durable, so a commit is never visible before it is
//! durable. Only one thread applies (the commit stage, or start-up replay
//! before it exists); snapshots are published in the order they were
//! applied.

use parking_lot::Mutex;
use redb::{Database, Durability, ReadableDatabase, ReadableTable, TableDefinition};
use std::ops::Bound;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

const DATA: TableDefinition<&[u8], &[u8]> = TableDefinition::new("data");
const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Metadata key of the position marker: the binlog position whose prefix
/// the stored state reflects.
const POSITION_KEY: &str = "binlog_position";

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

pub struct Store {
    db: Database,
    /// Bytes applied since the last checkpoint, so the caller can bound
    /// checkpoint size.
    unpersisted_bytes: AtomicU64,
    /// The state readers see; one shared redb read transaction, so taking a
    /// snapshot costs a reference count, not a redb `begin_read`.
    published: Mutex<Arc<Snapshot>>,
}

impl Store {
    /// Opens (creating if needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Arc<Store>, StorageError> {
        let db = Database::create(path)?;
        Self::init(db)
    }

    /// Opens the store on a custom backend (the power-loss tests' fault
    /// layer).
    pub fn open_with_backend(backend: impl redb::StorageBackend) -> Result<Arc<Store>, StorageError> {
        let db = Database::builder().create_with_backend(backend)?;
        Self::init(db)
    }

    fn init(db: Database) -> Result<Arc<Store>, StorageError> {
        let txn = db.begin_write()?;
        txn.open_table(DATA)?;
        txn.open_table(META)?;
        txn.commit()?;
        let published = Mutex::new(Arc::new(read_snapshot(&db)?));
        Ok(Arc::new(Store { db, unpersisted_bytes: AtomicU64::new(0), published }))
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

    /// Applies the mutations of one commit group and the new position
    /// marker in one redb transaction, without syncing and without
    /// publishing them; returns the snapshot of the result, to publish once
    /// the group is durable.
    pub fn apply<'a>(
        &self,
        batches: impl IntoIterator<Item = &'a [Mutation]>,
        position_marker: &[u8],
    ) -> Result<Arc<Snapshot>, StorageError> {
        let mut txn = self.db.begin_write()?;
        txn.set_durability(Durability::None)?;
        let mut written_bytes = 0u64;
        {
            let mut table = txn.open_table(DATA)?;
            for batch in batches {
                for mutation in batch {
                    written_bytes += apply_one(&mut table, mutation)?;
                }
            }
            let mut meta = txn.open_table(META)?;
            meta.insert(POSITION_KEY, position_marker)?;
        }
        txn.commit()?;
        self.unpersisted_bytes.fetch_add(written_bytes, Ordering::Relaxed);
        // No other writer changes data between the commit and this read:
        // the caller is the only thread that applies (checkpoints commit no
        // data).
        Ok(Arc::new(read_snapshot(&self.db)?))
    }

    /// Makes everything applied so far durable. `ensure_logged` is called
    /// with the marker being persisted while this transaction holds redb's
    /// only writer (so nothing more is applied meanwhile); it must make the
    /// binlog durable at least that far, or fail the checkpoint: the engine
    /// may never persist a state its log could lose.
    pub fn checkpoint(
        &self,
        ensure_logged: impl FnOnce(Option<&[u8]>) -> Result<(), String>,
    ) -> Result<Option<Vec<u8>>, StorageError> {
        let mut txn = self.db.begin_write()?;
        txn.set_durability(Durability::Immediate)?;
        let marker = {
            let meta = txn.open_table(META)?;
            let marker = meta.get(POSITION_KEY)?.map(|g| g.value().to_vec());
            marker
        };
        if let Err(reason) = ensure_logged(marker.as_deref()) {
            txn.abort()?;
            return Err(StorageError::Checkpoint(reason));
        }
        txn.commit()?;
        self.unpersisted_bytes.store(0, Ordering::Relaxed);
        Ok(marker)
    }

    /// The position marker of the latest applied (not necessarily durable)
    /// state.
    pub fn position_marker(&self) -> Result<Option<Vec<u8>>, StorageError> {
        let txn = self.db.begin_read()?;
        let meta = txn.open_table(META)?;
        let marker = meta.get(POSITION_KEY)?.map(|g| g.value().to_vec());
        Ok(marker)
    }

    pub fn unpersisted_bytes(&self) -> u64 {
        self.unpersisted_bytes.load(Ordering::Relaxed)
    }
}

fn apply_one(
    table: &mut redb::Table<'_, &'static [u8], &'static [u8]>,
    mutation: &Mutation,
) -> Result<u64, StorageError> {
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
            let range = (Bound::Included(start.as_slice()), end_bound(end));
            let mut removed = 0u64;
            table.retain_in::<&[u8], _>(range, |_, _| {
                removed += 1;
                false
            })?;
            Ok(removed)
        }
    }
}

fn end_bound(end: &Option<Vec<u8>>) -> Bound<&[u8]> {
    match end {
        Some(end) => Bound::Excluded(end.as_slice()),
        None => Bound::Unbounded,
    }
}

fn read_snapshot(db: &Database) -> Result<Snapshot, StorageError> {
    let txn = db.begin_read()?;
    let table = txn.open_table(DATA)?;
    Ok(Snapshot { table })
}

/// A read view; cheap to keep for a whole transaction (REPEATABLE READ).
pub struct Snapshot {
    table: redb::ReadOnlyTable<&'static [u8], &'static [u8]>,
}

type RangeItem =
    Result<(redb::AccessGuard<'static, &'static [u8]>, redb::AccessGuard<'static, &'static [u8]>), redb::StorageError>;

/// Owned key/value pairs from a scan.
pub type KvIter = Box<dyn Iterator<Item = Result<(Vec<u8>, Vec<u8>), StorageError>> + Send>;

impl Snapshot {
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StorageError> {
        Ok(self.table.get(key)?.map(|g| g.value().to_vec()))
    }

    /// Keys in `[start, end)` (`end = None`: unbounded), ascending or
    /// descending.
    pub fn scan(&self, start: &[u8], end: Option<&[u8]>, reverse: bool) -> Result<KvIter, StorageError> {
        let end_bound = match end {
            Some(e) => Bound::Excluded(e),
            None => Bound::Unbounded,
        };
        let range = self.table.range::<&[u8]>((Bound::Included(start), end_bound))?;
        let map = |r: RangeItem| r.map(|(k, v)| (k.value().to_vec(), v.value().to_vec())).map_err(StorageError::from);
        if reverse {
            Ok(Box::new(range.rev().map(map)))
        } else {
            Ok(Box::new(range.map(map)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_scan_and_checkpoint_marker() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.redb")).unwrap();
        let batch = vec![
            Mutation::Put(vec![1, 1], b"a".to_vec()),
            Mutation::Put(vec![1, 2], b"b".to_vec()),
            Mutation::Put(vec![2, 1], b"c".to_vec()),
        ];
        let applied = store.apply([batch.as_slice()], b"pos1").unwrap();
        assert_eq!(store.snapshot().get(&[1, 1]).unwrap(), None, "applied but not yet published");
        store.publish(applied);
        let snap = store.snapshot();
        let keys: Vec<_> = snap.scan(&[1], Some(&[2]), false).unwrap().map(|r| r.unwrap().0).collect();
        assert_eq!(keys, vec![vec![1, 1], vec![1, 2]]);
        let applied = store.apply([[Mutation::DeleteRange(vec![1], Some(vec![2]))].as_slice()], b"pos2").unwrap();
        store.publish(applied);
        // The old snapshot still sees the old state.
        assert_eq!(snap.get(&[1, 1]).unwrap(), Some(b"a".to_vec()));
        assert_eq!(store.snapshot().get(&[1, 1]).unwrap(), None);
        assert_eq!(
            store
                .checkpoint(|m| if m == Some(b"pos2".as_slice()) { Ok(()) } else { Err("wrong marker".into()) })
                .unwrap(),
            Some(b"pos2".to_vec())
        );
    }
}
