//! OUT and INOUT parameters of stored functions (MariaDB 10.8+, MDEV-10654):
//! which statements may pass them, where each argument's value goes back.
//!
//! MariaDB refuses them (4187) while the innermost statement running is a
//! SELECT, INSERT or single-table UPDATE / DELETE; SET, DO, CALL, REPLACE,
//! the multi-table forms, CREATE ... SELECT and a routine's own expressions
//! (SET, IF, RETURN, DECLARE ... DEFAULT) pass them. The argument must be a
//! user variable or a local variable of the calling body (1414 otherwise).
//! A user variable takes its value at once; a local variable's value is
//! handed to the body that evaluated the call (see `Interp::taking_out_args`).

use super::params::Argument;
use crate::ast::{Expr, Statement};
use crate::eval::EvalEnv;
use crate::parse::routine::{ParamMode, RoutineParam};
use crate::session::Session;
use onelog_core::{ErrorCode, SqlError, SqlResult, Value};
use std::cell::{Cell, RefCell};

thread_local! {
    /// Whether the statement running on this thread refuses OUT / INOUT
    /// arguments (a statement runs on its connection's thread from start
    /// to end, as `ACTIVE` relies on).
    static REFUSED: Cell<bool> = const { Cell::new(false) };
    /// Values functions gave back for local variables passed as `?`: the
    /// `?` number and the value, innermost call last.
    static LOCALS: RefCell<Vec<(usize, Value)>> = const { RefCell::new(Vec::new()) };
}

/// Where an OUT / INOUT argument's value goes back to.
pub(super) enum OutTarget {
    User(String),
    /// A local variable of the calling body, passed as `?` number n.
    Local(usize),
}

/// Runs `run` as statement `stmt` (`None`: a routine's expression), which
/// says whether the functions it calls take OUT / INOUT arguments.
pub(crate) fn as_statement<T>(stmt: Option<&Statement>, run: impl FnOnce() -> T) -> T {
    let refused = stmt.is_some_and(refuses);
    let outer = REFUSED.with(|r| r.replace(refused));
    let result = run();
    REFUSED.with(|r| r.set(outer));
    result
}

/// MariaDB's SQLCOM_SELECT, _INSERT, _INSERT_SELECT, _UPDATE and _DELETE.
fn refuses(stmt: &Statement) -> bool {
    match stmt {
        Statement::Select(_) | Statement::Update(_) | Statement::Delete(_) => true,
        Statement::Insert(insert) => !insert.replace,
        _ => false,
    }
}

/// Where each argument of a call goes back (`None` for IN parameters), in
/// MariaDB's order of checks per argument: a variable (1414), then a
/// statement that allows it (4187).
pub(super) fn targets(
    session: &Session,
    params: &[RoutineParam],
    args: &[Expr],
    not_var_arg: impl Fn(usize) -> SqlError,
    function: &str,
) -> SqlResult<Vec<Option<OutTarget>>> {
    let locals = session.routine_param_types.borrow().len();
    let refused = REFUSED.with(Cell::get);
    let target = |(i, (param, arg)): (usize, (&RoutineParam, &Expr))| {
        if param.mode == ParamMode::In {
            return Ok(None);
        }
        let target = match arg {
            Expr::UserVar(name) => OutTarget::User(name.clone()),
            // A `?` of a routine's body is one of its variables; a client's
            // prepared statement's is a value.
            Expr::Param(n) if *n < locals => OutTarget::Local(*n),
            _ => return Err(not_var_arg(i + 1)),
        };
        if refused {
            return Err(SqlError::new(
                ErrorCode::SF_OUT_INOUT_ARG_NOT_ALLOWED,
                format!("OUT or INOUT argument {} for function {function} is not allowed here", i + 1),
            ));
        }
        Ok(Some(target))
    };
    params.iter().zip(args).enumerate().map(target).collect()
}

/// Gives the parameters' values at the end of a call back to its
/// arguments.
pub(super) fn write_back(session: &Session, targets: &[Option<OutTarget>], values: Vec<Argument>) {
    for (target, value) in targets.iter().zip(values) {
        // A variable passed for a ROW parameter was refused (1241 or
        // 1414) before the call.
        let Argument::Scalar(_, value) = value else { continue };
        match target {
            Some(OutTarget::User(name)) => session.set_user_var(name, value),
            Some(OutTarget::Local(n)) => LOCALS.with(|l| l.borrow_mut().push((*n, value))),
            None => {}
        }
    }
}

/// How many local values are waiting: a body takes those after this mark.
pub(super) fn mark() -> usize {
    LOCALS.with(|l| l.borrow().len())
}

/// The local values given back since `mark`, in order.
pub(super) fn take_since(mark: usize) -> Vec<(usize, Value)> {
    LOCALS.with(|l| {
        let mut l = l.borrow_mut();
        let from = mark.min(l.len());
        l.split_off(from)
    })
}
