//! The one exact decimal type of OneLog, for SQL `DECIMAL` values.
//!
//! Every crate names the type through this module, never its backing crate,
//! so the backing can change in one place: today it is `rust_decimal`
//! (96-bit mantissa, at most 28 significant digits), while MariaDB's
//! DECIMAL holds 65 (issue 18, item 3) and is the next backing to put here.
//! The conversion traits are re-exported with it because the call sites use
//! their methods (`to_f64`, `to_i64`, `from_f64`, ...).

pub use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
pub use rust_decimal::{Decimal, RoundingStrategy};
