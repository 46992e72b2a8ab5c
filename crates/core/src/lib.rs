//! Types shared by every OneLog layer.
//!
//! Owns: the SQL value model ([`Value`]), column/index/table definitions
//! ([`schema`]), and MySQL-style errors ([`SqlError`]) with their error code
//! and SQLSTATE. It depends on nothing else in the workspace; every other
//! crate may depend on it.

pub mod collation;
pub mod decimal;
pub mod error;
#[doc(hidden)]
pub mod fuzz;
pub mod rowimage;
pub mod schema;
pub mod set_value;
pub mod uuid;
pub mod value;

pub use collation::{Charset, Collation};
pub use error::{ConditionItems, ErrorCode, SqlError, SqlResult};
pub use schema::{
    BlobSize, CheckConstraint, ColumnDef, ColumnDefault, ColumnType, ForeignKey, Generated, IndexDef, KeyMembership,
    ReferentialAction, TableDef,
};
pub use uuid::Uuid;
pub use value::{Temporal, Value};

/// The one place OneLog's version is spelled: MariaDB 10.11's dialect, OneLog's server.
macro_rules! server_version {
    () => {
        "10.11.99-MariaDB-OneLog"
    };
}

/// What VERSION(), `@@version` and the binlog's FORMAT_DESCRIPTION event say.
pub const SERVER_VERSION: &str = server_version!();

/// What the handshake announces: the `5.5.5-` prefix is how MariaDB tells old
/// clients that the real version follows.
pub const HANDSHAKE_SERVER_VERSION: &str = concat!("5.5.5-", server_version!());
