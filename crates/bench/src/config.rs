//! What one column of the matrix runs: a binary-log configuration
//! ([`LogConfig`]) plus how clients reach the server and how it schedules
//! them, written `sync1`, `sync1+user`, `sync1+user+tls` or `sync1+pool`.
//!
//! - `+user`: sysbench runs as `sbuser`, an ordinary account with only
//!   SELECT, INSERT, UPDATE and DELETE on the sbtest tables (table-level
//!   grants), so every statement pays for a privilege check;
//! - `+tcp`: clients use TCP on 127.0.0.1 instead of the Unix socket;
//! - `+tls`: TCP inside TLS (certificates made for the run, see [`crate::certs`]);
//! - `+pool`: both servers run `--thread-handling=pool-of-threads`.
//!
//! The same column starts both systems with the same modifiers, so their
//! ratio is measured side by side.

use crate::server::LogConfig;

/// A binary-log configuration and the modifiers applied to both systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunConfig {
    pub log: LogConfig,
    /// Run sysbench as the table-grant account instead of root.
    pub user: bool,
    /// Connect over TCP (implied by `tls`).
    pub tcp: bool,
    pub tls: bool,
    /// `thread_handling=pool-of-threads` on both servers.
    pub pool: bool,
}

impl RunConfig {
    pub fn of(log: LogConfig) -> RunConfig {
        RunConfig { log, user: false, tcp: false, tls: false, pool: false }
    }

    /// `syncN[+user][+tcp][+tls][+pool]`, modifiers in any order.
    pub fn parse(s: &str) -> Option<RunConfig> {
        let mut parts = s.trim().split('+');
        let mut config = RunConfig::of(LogConfig::parse(parts.next()?)?);
        for modifier in parts {
            match modifier.trim() {
                "user" => config.user = true,
                "tcp" => config.tcp = true,
                "tls" => config.tls = true,
                "pool" => config.pool = true,
                _ => return None,
            }
        }
        config.tcp |= config.tls;
        Some(config)
    }

    pub fn label(&self) -> String {
        let mut label = self.log.label();
        for (on, name) in
            [(self.user, "+user"), (self.tcp && !self.tls, "+tcp"), (self.tls, "+tls"), (self.pool, "+pool")]
        {
            if on {
                label.push_str(name);
            }
        }
        label
    }

    pub fn describe(&self) -> String {
        let mut text = self.log.describe();
        for (on, what) in [
            (self.user, ", as an account with table-level grants"),
            (self.tcp && !self.tls, ", over TCP"),
            (self.tls, ", over TCP with TLS"),
            (self.pool, ", --thread-handling=pool-of-threads"),
        ] {
            if on {
                text.push_str(what);
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for s in ["off", "sync1", "sync1+user", "sync1+user+tls", "sync0+tcp", "sync1+pool", "sync1+user+tcp+pool"] {
            assert_eq!(RunConfig::parse(s).map(|c| c.label()).as_deref(), Some(s));
        }
        assert_eq!(RunConfig::parse("sync1+tls+user").map(|c| c.label()).as_deref(), Some("sync1+user+tls"));
        assert!(RunConfig::parse("sync1+fast").is_none());
        assert!(RunConfig::parse("+user").is_none());
    }
}
