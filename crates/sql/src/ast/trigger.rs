//! Triggers' syntax tree: `CREATE TRIGGER` as `parse::trigger` reads it
//! and `trigger` defines and fires it.

use crate::ast::routine::Routine;
use crate::ast::ObjectName;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TriggerTiming {
    Before,
    After,
}

impl TriggerTiming {
    pub fn name(self) -> &'static str {
        match self {
            TriggerTiming::Before => "BEFORE",
            TriggerTiming::After => "AFTER",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TriggerEvent {
    Insert,
    Update,
    Delete,
}

impl TriggerEvent {
    pub fn name(self) -> &'static str {
        match self {
            TriggerEvent::Insert => "INSERT",
            TriggerEvent::Update => "UPDATE",
            TriggerEvent::Delete => "DELETE",
        }
    }
}

/// `FOLLOWS other` / `PRECEDES other`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriggerOrder {
    Follows(String),
    Precedes(String),
}

/// A `NEW.col` / `OLD.col` reference in a trigger's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowReference {
    pub new: bool,
    pub column: String,
    /// `SET NEW.col = ...`.
    pub assigned: bool,
}

/// `CREATE [OR REPLACE] [DEFINER = ..] TRIGGER [IF NOT EXISTS] name
/// {BEFORE | AFTER} {INSERT | UPDATE | DELETE} ON tbl FOR EACH ROW
/// [{FOLLOWS | PRECEDES} other] body`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTrigger {
    pub name: ObjectName,
    pub or_replace: bool,
    pub if_not_exists: bool,
    /// `None`: the current user.
    pub definer: Option<(String, String)>,
    pub timing: TriggerTiming,
    pub event: TriggerEvent,
    pub table: ObjectName,
    pub order: Option<TriggerOrder>,
    /// The statement from its `TRIGGER` keyword on, as written but
    /// without FOLLOWS / PRECEDES (SHOW CREATE TRIGGER prints it after
    /// `CREATE DEFINER=..`, as MariaDB does).
    pub text_from_trigger: String,
    /// The same with FOLLOWS / PRECEDES, as logged.
    pub logged_from_trigger: String,
    pub body_text: String,
    pub body: Arc<Routine>,
    pub references: Vec<RowReference>,
    /// The definition with what the creating session adds; `None` from
    /// the parser.
    pub defined: Option<Box<crate::trigger::TriggerDef>>,
}
