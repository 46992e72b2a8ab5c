//! Connected replicas: what each said in COM_REGISTER_SLAVE (SHOW SLAVE
//! HOSTS) and where each binlog dump is reading, so that PURGE BINARY LOGS
//! and expiry never remove a file a connected replica still needs.
//!
//! Owns the registry, keyed by connection id; the server's dump loop
//! updates it and removes its entry when the dump ends. Calls nothing.

use onelog_binlog::BinlogPos;
use parking_lot::Mutex;
use std::collections::BTreeMap;

/// One replica connection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Replica {
    pub server_id: u32,
    /// Host and port the replica reported (empty / 0 when it did not).
    pub host: String,
    pub port: u16,
    /// It sent COM_REGISTER_SLAVE (SHOW SLAVE HOSTS lists only those, as
    /// MariaDB does; `mariadb-binlog` dumps without registering).
    pub registered: bool,
    /// Where its dump reads; `None` before COM_BINLOG_DUMP.
    pub reading: Option<BinlogPos>,
}

#[derive(Default)]
pub struct Replicas {
    by_connection: Mutex<BTreeMap<u64, Replica>>,
}

impl Replicas {
    /// COM_REGISTER_SLAVE.
    pub fn register(&self, connection_id: u64, server_id: u32, host: &str, port: u16) {
        let mut all = self.by_connection.lock();
        let entry = all.entry(connection_id).or_default();
        entry.server_id = server_id;
        entry.host = host.to_string();
        entry.port = port;
        entry.registered = true;
    }

    /// A dump on `connection_id` reads from `pos` on.
    pub fn reading(&self, connection_id: u64, server_id: u32, pos: BinlogPos) {
        let mut all = self.by_connection.lock();
        let entry = all.entry(connection_id).or_default();
        entry.server_id = server_id;
        entry.reading = Some(pos);
    }

    /// The dump (and the replica's connection) on `connection_id` ended.
    pub fn gone(&self, connection_id: u64) {
        self.by_connection.lock().remove(&connection_id);
    }

    /// The oldest position a connected replica's dump still reads.
    pub fn oldest_reading(&self) -> Option<BinlogPos> {
        self.by_connection.lock().values().filter_map(|r| r.reading).min()
    }

    /// SHOW SLAVE HOSTS, in connection order.
    pub fn all(&self) -> Vec<Replica> {
        self.by_connection.lock().values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_reading_protects_the_slowest_dump() {
        let replicas = Replicas::default();
        replicas.register(7, 2, "replica-a", 3307);
        assert_eq!(replicas.oldest_reading(), None, "registered, not yet reading");
        replicas.reading(7, 2, BinlogPos { file_seq: 3, offset: 400 });
        replicas.reading(9, 3, BinlogPos { file_seq: 2, offset: 4 });
        assert_eq!(replicas.oldest_reading(), Some(BinlogPos { file_seq: 2, offset: 4 }));
        replicas.gone(9);
        assert_eq!(replicas.oldest_reading(), Some(BinlogPos { file_seq: 3, offset: 400 }));
        assert_eq!(replicas.all()[0].host, "replica-a");
    }
}
