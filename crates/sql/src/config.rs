//! Parsing of binlog-related variable values shared by the server's
//! options and SET GLOBAL.

use onelog_binlog::file::SyncMethod;

/// `binlog_sync_method`: fdatasync (default) | fsync | o_dsync.
pub fn sync_method(name: &str) -> Result<SyncMethod, String> {
    match name.to_ascii_lowercase().as_str() {
        "fdatasync" => Ok(SyncMethod::Fdatasync),
        "fsync" => Ok(SyncMethod::Fsync),
        "o_dsync" => Ok(SyncMethod::ODsync),
        other => Err(other.to_string()),
    }
}
