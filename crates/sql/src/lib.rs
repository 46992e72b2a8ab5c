//! SQL: parse, plan and execute statements; catalog; transactions; the
//! binlog applier.
//!
//! Owns: OneLog's AST ([`ast`]) and the sqlparser boundary ([`parse`]),
//! expression evaluation ([`eval`]), the catalog, row locks, transactions,
//! SELECT/DML/DDL execution, SHOW, system variables, the engine (commit and
//! recovery) and sessions. May call `onelog-storage`, `onelog-binlog` and
//! `onelog-core`; never the protocol.

pub mod accounts;
pub mod aggregate;
pub mod applier;
pub mod ast;
pub mod catalog;
pub mod check;
pub mod checksum;
pub(crate) mod column_privilege;
pub mod config;
pub mod connections;
pub(crate) mod covering;
pub mod create_select;
pub mod ddl;
pub mod default_expr;
pub mod dml;
pub mod engine;
pub mod eval;
pub mod explain;
pub mod foreign_key;
pub mod generated;
pub mod handler;
pub mod kill;
pub mod load_data;
pub mod locks;
pub mod maintenance;
pub mod mdl;
pub mod multi_dml;
pub mod parse;
pub(crate) mod prelock;
pub mod prepared;
pub mod privilege;
pub mod replicas;
pub mod routine;
pub mod routine_schema;
pub(crate) mod row_shape;
pub mod rows;
pub(crate) mod schema_columns;
pub mod select;
pub(crate) mod select_into;
pub mod sequence;
pub mod session;
pub mod show;
pub(crate) mod sort;
pub(crate) mod stream;
pub mod system_tables;
pub mod temp;
pub mod time_zone;
pub mod trigger;
pub mod txn;
pub mod typing;
pub mod user_locks;
pub mod vars;
pub mod view;
pub mod wait;
pub mod window;

pub use engine::{Engine, EngineConfig, EngineError};
pub use session::{CommitAck, QueryClient, QueryResult, ResultColumn, ResultSink, Session};
