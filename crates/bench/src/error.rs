//! Errors inside the bench crate (`thiserror`); `run` turns them into
//! `anyhow` at the crate's edge.

use std::path::PathBuf;

/// Everything that can go wrong while setting up or measuring one cell.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("{tool} not found at {path}: install it with `apt-get install sysbench mariadb-server mariadb-client`")]
    MissingTool { tool: &'static str, path: PathBuf },
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("could not spawn {program}: {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{what} failed: {detail}")]
    Command { what: String, detail: String },
    #[error("{system} did not become ready within {timeout_s} s: {detail}")]
    StartTimeout { system: String, timeout_s: u64, detail: String },
    #[error("{system} exited during start-up (status {status}); log tail:\n{log_tail}")]
    StartExited { system: String, status: String, log_tail: String },
    #[error("could not parse sysbench output: {0}")]
    Parse(String),
    #[error("interrupted")]
    Interrupted,
}

impl BenchError {
    /// Shorthand for an I/O error on a path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        BenchError::Io { path: path.into(), source }
    }
}

pub type Result<T, E = BenchError> = std::result::Result<T, E>;
