//! Variables in LIMIT / OFFSET: MariaDB takes one only if its type, known
//! as the body is read, is an integer (1691 at CREATE otherwise). Types
//! anchored to a table or cursor are known only when the body runs, so
//! their variables (and a ROW's fields from one) are refused.

use super::{record_field, BodyParser, VarType};
use crate::ast::{Expr, Statement};
use onelog_core::{ColumnDef, ErrorCode, SqlError, SqlResult};

impl BodyParser<'_> {
    /// Records a variable of `name` (a FOR range's counter, an INT).
    pub(super) fn note_integer_var(&mut self, name: &str) {
        self.integer_vars.push((self.vars.len(), name.to_string(), true));
    }

    /// Records what DECLARE `names` `ty` declares in the innermost scope.
    pub(super) fn note_declared_types(&mut self, names: &[String], ty: &VarType) {
        let depth = self.vars.len();
        for name in names {
            let fields: Vec<(String, bool)> = match ty {
                VarType::Scalar(ty) => {
                    self.integer_vars.push((depth, name.clone(), ty.ty.is_integer()));
                    continue;
                }
                VarType::Row(fields) => {
                    fields.iter().map(|f: &ColumnDef| (f.name.clone(), f.ty.is_integer())).collect()
                }
                VarType::VarOf(source) => match self.row_var(source).map(|(_, fields)| fields.cloned()) {
                    Some(fields) => fields
                        .unwrap_or_default()
                        .into_iter()
                        .map(|f| {
                            let integer = self.is_integer_var(&record_field(source, &f));
                            (f, integer)
                        })
                        .collect(),
                    None => {
                        self.integer_vars.push((depth, name.clone(), self.is_integer_var(source)));
                        continue;
                    }
                },
                _ => Vec::new(),
            };
            self.integer_vars.push((depth, name.clone(), false));
            let noted = fields.into_iter().map(|(f, integer)| (depth, record_field(name, &f), integer));
            self.integer_vars.extend(noted);
        }
    }

    /// Forgets the variables of scopes deeper than the current one.
    pub(super) fn forget_var_types(&mut self) {
        let depth = self.vars.len();
        self.integer_vars.retain(|(declared_at, _, _)| *declared_at <= depth);
    }

    fn is_integer_var(&self, name: &str) -> bool {
        let found = self.integer_vars.iter().rev().find(|(_, n, _)| n.eq_ignore_ascii_case(name));
        found.is_some_and(|(_, _, integer)| *integer)
    }

    /// 1691 when `statement`'s LIMIT or OFFSET is a variable (one of
    /// `vars`, its `?`) that is not an integer.
    pub(super) fn check_limit_vars(&self, statement: &Statement, vars: &[String]) -> SqlResult<()> {
        let mut limits: Vec<&Expr> = Vec::new();
        match statement {
            Statement::Select(select) => {
                let mut part = Some(select.as_ref());
                while let Some(s) = part {
                    limits.extend(s.limit.iter().chain(s.offset.iter()));
                    part = s.union.as_ref().map(|(_, next)| next.as_ref());
                }
            }
            Statement::Update(update) => limits.extend(update.limit.iter()),
            Statement::Delete(delete) => limits.extend(delete.limit.iter()),
            _ => {}
        }
        let refused = limits.into_iter().any(|limit| match limit {
            Expr::Param(n) => vars.get(*n).is_some_and(|v| !self.is_integer_var(v)),
            // A whole ROW variable, which the body's reader spells as its
            // fields.
            Expr::Tuple(items) => items.iter().any(|item| matches!(item, Expr::Param(_))),
            _ => false,
        });
        match refused {
            true => Err(SqlError::new(
                ErrorCode::WRONG_SPVAR_TYPE_IN_LIMIT,
                "A variable of a non-integer based type in LIMIT clause",
            )),
            false => Ok(()),
        }
    }
}
