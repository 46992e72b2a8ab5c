//! The one exact decimal type of OneLog, for SQL `DECIMAL` values.
//!
//! `Decimal` is OneLog's own type with exactly the operations the other
//! crates use, so that its backing can change in this file alone. Today the
//! backing is `rust_decimal` (96-bit mantissa, at most 28 significant
//! digits); MariaDB's DECIMAL holds 65 (issue 18, item 3).
//!
//! The planned next backing keeps `rust_decimal` for values that fit (fast,
//! `Copy`, 16 bytes: nearly every value a workload stores) and widens to
//! `fastnum::D256` (256-bit coefficient, about 77 digits, no heap) only for
//! a value that does not fit. Measured: a `D256` is 40 bytes, so it goes
//! behind a box to keep `Value` at 24 bytes (test in value.rs); its
//! `Display` switches to exponent form (`1e+70`, `-1E-36`), so text goes
//! through our own digit formatting; a product of two 65-digit values
//! rounds at 77 digits, which covers MariaDB's 65-digit results but not
//! its 81-digit intermediates. `bigdecimal` was the alternative: exact at
//! any size, but every value on the heap, which the narrow path avoids.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Rem, Sub, SubAssign};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

type Inner = rust_decimal::Decimal;

/// An exact decimal number: a signed integer mantissa and a decimal scale
/// (the count of digits after the point), as SQL `DECIMAL` holds it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Decimal(Inner);

/// How `round_dp_with_strategy` treats the digits it drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundingStrategy {
    /// Half away from zero: SQL ROUND() on DECIMAL values.
    MidpointAwayFromZero,
    /// Drop the digits: SQL TRUNCATE().
    ToZero,
}

/// A text, float or mantissa that is no decimal this type can hold.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid decimal: {0}")]
pub struct DecimalError(rust_decimal::Error);

impl Decimal {
    pub const ZERO: Decimal = Decimal(Inner::ZERO);
    /// Largest value the backing holds; saturation bound of conversions.
    pub const MAX: Decimal = Decimal(Inner::MAX);
    /// Smallest value the backing holds; saturation bound of conversions.
    pub const MIN: Decimal = Decimal(Inner::MIN);

    /// `mantissa * 10^-scale`.
    pub fn new(mantissa: i64, scale: u32) -> Decimal {
        Decimal(Inner::new(mantissa, scale))
    }

    /// `mantissa * 10^-scale`; panics when the mantissa does not fit, so only
    /// for mantissas the caller has bounded.
    pub fn from_i128_with_scale(mantissa: i128, scale: u32) -> Decimal {
        Decimal(Inner::from_i128_with_scale(mantissa, scale))
    }

    /// `mantissa * 10^-scale`, or an error when it does not fit.
    pub fn try_from_i128_with_scale(mantissa: i128, scale: u32) -> Result<Decimal, DecimalError> {
        Inner::try_from_i128_with_scale(mantissa, scale).map(Decimal).map_err(DecimalError)
    }

    /// Parses text, failing rather than rounding when it has more digits
    /// than the backing holds.
    pub fn from_str_exact(text: &str) -> Result<Decimal, DecimalError> {
        Inner::from_str_exact(text).map(Decimal).map_err(DecimalError)
    }

    /// Parses text with an exponent (`1.5e3`).
    pub fn from_scientific(text: &str) -> Result<Decimal, DecimalError> {
        Inner::from_scientific(text).map(Decimal).map_err(DecimalError)
    }

    /// The decimal nearest a float, `None` for NaN, infinities and
    /// magnitudes beyond the backing.
    pub fn from_f64(f: f64) -> Option<Decimal> {
        rust_decimal::prelude::FromPrimitive::from_f64(f).map(Decimal)
    }

    /// Digits after the point.
    pub fn scale(&self) -> u32 {
        self.0.scale()
    }

    /// The value times `10^scale`, an integer.
    pub fn mantissa(&self) -> i128 {
        self.0.mantissa()
    }

    /// Sets the scale to `scale`, rounding half away from zero when it
    /// shrinks (and keeping the backing's limit when it grows).
    pub fn rescale(&mut self, scale: u32) {
        self.0.rescale(scale)
    }

    /// Rounds to `scale` digits after the point the way `strategy` says.
    pub fn round_dp_with_strategy(&self, scale: u32, strategy: RoundingStrategy) -> Decimal {
        let strategy = match strategy {
            RoundingStrategy::MidpointAwayFromZero => rust_decimal::RoundingStrategy::MidpointAwayFromZero,
            RoundingStrategy::ToZero => rust_decimal::RoundingStrategy::ToZero,
        };
        Decimal(self.0.round_dp_with_strategy(scale, strategy))
    }

    /// The same value without trailing fractional zeros.
    pub fn normalize(&self) -> Decimal {
        Decimal(self.0.normalize())
    }

    /// The integer part (toward zero).
    pub fn trunc(&self) -> Decimal {
        Decimal(self.0.trunc())
    }

    /// The fractional part, with the sign of the value.
    pub fn fract(&self) -> Decimal {
        Decimal(self.0.fract())
    }

    pub fn floor(&self) -> Decimal {
        Decimal(self.0.floor())
    }

    pub fn ceil(&self) -> Decimal {
        Decimal(self.0.ceil())
    }

    pub fn abs(&self) -> Decimal {
        Decimal(self.0.abs())
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// True for negative values, and for a zero that kept a minus sign.
    pub fn is_sign_negative(&self) -> bool {
        self.0.is_sign_negative()
    }

    pub fn checked_add(self, other: Decimal) -> Option<Decimal> {
        self.0.checked_add(other.0).map(Decimal)
    }

    pub fn checked_sub(self, other: Decimal) -> Option<Decimal> {
        self.0.checked_sub(other.0).map(Decimal)
    }

    pub fn checked_mul(self, other: Decimal) -> Option<Decimal> {
        self.0.checked_mul(other.0).map(Decimal)
    }

    /// `None` when `other` is zero or the quotient overflows.
    pub fn checked_div(self, other: Decimal) -> Option<Decimal> {
        self.0.checked_div(other.0).map(Decimal)
    }

    /// `None` when `other` is zero.
    pub fn checked_rem(self, other: Decimal) -> Option<Decimal> {
        self.0.checked_rem(other.0).map(Decimal)
    }

    pub fn to_f64(&self) -> Option<f64> {
        rust_decimal::prelude::ToPrimitive::to_f64(&self.0)
    }

    /// The integer part, `None` when it does not fit.
    pub fn to_i64(&self) -> Option<i64> {
        rust_decimal::prelude::ToPrimitive::to_i64(&self.0)
    }

    /// The integer part, `None` when negative or too large.
    pub fn to_u64(&self) -> Option<u64> {
        rust_decimal::prelude::ToPrimitive::to_u64(&self.0)
    }

    /// The integer part, `None` when negative or too large.
    pub fn to_u32(&self) -> Option<u32> {
        rust_decimal::prelude::ToPrimitive::to_u32(&self.0)
    }

    /// The integer part.
    pub fn to_i128(&self) -> Option<i128> {
        rust_decimal::prelude::ToPrimitive::to_i128(&self.0)
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    /// Parses plain decimal text, rounding digits beyond the backing.
    fn from_str(text: &str) -> Result<Decimal, DecimalError> {
        Inner::from_str(text).map(Decimal).map_err(DecimalError)
    }
}

impl TryFrom<f64> for Decimal {
    type Error = DecimalError;

    fn try_from(f: f64) -> Result<Decimal, DecimalError> {
        Inner::try_from(f).map(Decimal).map_err(DecimalError)
    }
}

/// Integers convert exactly: every 64-bit one fits.
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            fn from(i: $t) -> Decimal {
                Decimal(Inner::from(i))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

/// Operators panic on overflow, as the backing's do: call sites that can
/// overflow use the `checked_` methods.
macro_rules! binary_op {
    ($($trait:ident $method:ident),*) => {$(
        impl $trait for Decimal {
            type Output = Decimal;
            fn $method(self, other: Decimal) -> Decimal {
                Decimal(self.0.$method(other.0))
            }
        }
    )*};
}
binary_op!(Add add, Sub sub, Mul mul, Div div, Rem rem);

impl AddAssign for Decimal {
    fn add_assign(&mut self, other: Decimal) {
        self.0 += other.0;
    }
}

impl SubAssign for Decimal {
    fn sub_assign(&mut self, other: Decimal) {
        self.0 -= other.0;
    }
}

impl Neg for Decimal {
    type Output = Decimal;
    fn neg(self) -> Decimal {
        Decimal(-self.0)
    }
}

/// Serialized as its text (the backing's `serde-str` form), so stored
/// catalogs read back whatever the backing.
impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Serialize::serialize(&self.0, s)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        <Inner as Deserialize>::deserialize(d).map(Decimal)
    }
}
