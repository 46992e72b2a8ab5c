//! OneLog's MySQL/MariaDB client/server wire protocol, server side.
//!
//! Owns the wire format and nothing else: packet framing and sequence ids
//! ([`packet`]), the connection handshake ([`handshake`]), password
//! verification for `mysql_native_password`, ed25519 and the
//! `caching_sha2_password` fast path ([`auth`]) and full authentication
//! ([`full_auth`]), command decoding ([`command`]), result-set, OK, ERR
//! and EOF encoding ([`resultset`]) and prepared-statement packets
//! ([`stmt`]). It knows no SQL: it neither parses queries nor runs them, and
//! it has no server loop; `onelog-server` drives it.
//!
//! May call: `onelog-core` (values, column definitions, errors, decimals)
//! and external crates (`mysql_common` for protocol constants,
//! `sha1`/`sha2`, `rand`). No other OneLog crate. Its I/O is blocking (`std::io`):
//! the server gives each connection its own thread.
//!
//! No decoder panics on any byte sequence (see `tests/fuzz.rs` and `fuzz/`). The
//! real `mariadb` client logs in and queries through it (`tests/e2e.rs`), and
//! column definitions, text and binary rows and ERR packets match a real
//! mariadbd 10.11 byte for byte (`tests/differential.rs`, which runs when
//! `ONELOG_MARIADB_SOCKET` points at a disposable server).

pub mod auth;
pub mod buf;
pub mod command;
pub mod full_auth;
#[doc(hidden)]
pub mod fuzzing;
pub mod handshake;
pub mod packet;
pub mod resultset;
pub mod stmt;

pub use auth::{
    decide, hash_native, hash_sha2, verify_ed25519, verify_native, verify_sha2, AuthDecision, Challenge,
    StoredCredential,
};
pub use buf::DecodeError;
pub use command::{parse_command, ChangeUser, Command, CommandError, RegisterSlave};
pub use handshake::{
    parse_handshake_response, server_capabilities, HandshakeError, HandshakeResponse, InitialHandshake, SERVER_VERSION,
};
pub use mysql_common::constants::{CapabilityFlags, ColumnFlags, ColumnType as MyColumnType, StatusFlags};
pub use packet::{PacketError, PacketStream, DEFAULT_MAX_ALLOWED_PACKET};
pub use resultset::{column_meta_for, computed_column_meta, key_flags, ColumnMeta, OkPacket, ResultSetOptions};
pub use stmt::{decode_execute_params, ParamError, ParamType};
