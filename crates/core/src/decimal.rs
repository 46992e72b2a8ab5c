//! The one exact decimal type of OneLog, for SQL `DECIMAL` values.
//!
//! `Decimal` is OneLog's own type with exactly the operations the other
//! crates use, so that its backing can change in this file alone.
//!
//! Two backings, chosen per value. A value whose mantissa fits 96 bits and
//! whose scale is at most 28 (nearly every value a workload stores) is kept
//! as the parts of a `rust_decimal` (fast, 16 bytes, no heap). Any other
//! value up to MariaDB's 65 digits (issue 18) widens to `fastnum::D256`
//! (256-bit coefficient, about 77 digits), boxed because a `D256` is 40
//! bytes and `Value` must stay 24 (test in value.rs). Every result that
//! fits the narrow form is stored narrow, so the two never disagree about
//! a value. A narrow operation whose `rust_decimal` result would be rounded
//! or overflow is redone wide, so sums and products stay exact up to 77
//! digits (MariaDB's 81-digit product intermediates are rounded there).
//! `D256`'s `Display` uses exponents (`1e+70`), so text goes through our
//! own digit formatting. `bigdecimal` was the alternative: exact at any
//! size, but every value on the heap, which the narrow path avoids.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Rem, Sub, SubAssign};
use std::str::FromStr;

use fastnum::decimal::{Context, RoundingMode, Sign};
use fastnum::{D256, U256};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

type Inner = rust_decimal::Decimal;

/// The largest scale the narrow backing holds.
const NARROW_MAX_SCALE: u32 = 28;

/// The largest scale a value may have at all: MariaDB's 38 plus room for
/// intermediate results (a division's `div_precision_increment`), far
/// below `D256`'s exponent range.
const MAX_SCALE: u32 = 100;

/// A narrow value: the parts of a `rust_decimal` (96-bit magnitude, scale,
/// sign). Kept as plain fields rather than the `rust_decimal` itself so the
/// `bool` leaves a niche for the wide variant's tag and `Decimal` stays 16
/// bytes.
#[derive(Clone, Copy)]
struct Narrow {
    lo: u64,
    hi: u32,
    scale: u8,
    negative: bool,
}

impl Narrow {
    const fn get(self) -> Inner {
        Inner::from_parts(self.lo as u32, (self.lo >> 32) as u32, self.hi, self.negative, self.scale as u32)
    }

    fn of(d: Inner) -> Narrow {
        let magnitude = d.mantissa().unsigned_abs();
        Narrow {
            lo: magnitude as u64,
            hi: (magnitude >> 64) as u32,
            // rust_decimal's scale is at most 28.
            scale: d.scale() as u8,
            negative: d.is_sign_negative(),
        }
    }
}

#[derive(Clone)]
enum Repr {
    Narrow(Narrow),
    Wide(Box<D256>),
}

/// An exact decimal number: a signed integer mantissa and a decimal scale
/// (the count of digits after the point), as SQL `DECIMAL` holds it.
#[derive(Clone)]
pub struct Decimal(Repr);

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
pub struct DecimalError(String);

/// The context of every wide value: no traps (a signal never panics; the
/// `checked_` methods look at the result instead), half away from zero.
const WIDE_CONTEXT: Context = Context::default().without_traps().with_rounding_mode(RoundingMode::HalfUp);

/// MariaDB's largest DECIMAL precision.
const MAX_PRECISION: u32 = 65;

impl Decimal {
    pub const ZERO: Decimal = Decimal(Repr::Narrow(Narrow { lo: 0, hi: 0, scale: 0, negative: false }));

    /// MariaDB's largest DECIMAL magnitude, `10^65 - 1`, with the sign
    /// asked for: the saturation bound of conversions.
    pub fn saturated(negative: bool) -> Decimal {
        let nines = U256::from(10u64).pow(MAX_PRECISION) - U256::from(1u64);
        Decimal(Repr::Wide(Box::new(D256::from_parts(nines, 0, sign(negative), WIDE_CONTEXT))))
    }

    /// `10^exponent`, for exponents up to 76.
    pub fn power_of_ten(exponent: u32) -> Decimal {
        let w = D256::from_parts(U256::from(1u64), exponent.min(76) as i32, Sign::Plus, WIDE_CONTEXT);
        Decimal::of_wide(w).unwrap_or_else(|| Decimal::saturated(false))
    }

    fn narrow(d: Inner) -> Decimal {
        Decimal(Repr::Narrow(Narrow::of(d)))
    }

    /// The value as the wide backing holds it (a copy for a narrow one).
    fn wide(&self) -> D256 {
        match &self.0 {
            Repr::Wide(w) => **w,
            Repr::Narrow(n) => {
                let magnitude = u256(u128::from(n.lo) | u128::from(n.hi) << 64);
                D256::from_parts(magnitude, -i32::from(n.scale), sign(n.negative), WIDE_CONTEXT)
            }
        }
    }

    /// A wide result, stored narrow when it fits, `None` when it is no
    /// finite number of at most `D256`'s digits.
    fn of_wide(w: D256) -> Option<Decimal> {
        if !w.is_finite() || w.is_op_overflow() || w.is_op_div_by_zero() || w.is_op_invalid() {
            return None;
        }
        // An integer in exponent form (`1e70`) gets its zeros back.
        let w = if w.fractional_digits_count() < 0 { w.rescale(0) } else { w };
        let scale = u32::try_from(w.fractional_digits_count()).ok()?;
        if scale > MAX_SCALE {
            return None;
        }
        let magnitude = u128::try_from(w.digits()).ok().filter(|m| m >> 96 == 0);
        Some(match magnitude {
            Some(m) if scale <= NARROW_MAX_SCALE => Decimal::narrow(Inner::from_parts(
                m as u32,
                (m >> 32) as u32,
                (m >> 64) as u32,
                w.is_sign_negative(),
                scale,
            )),
            _ => Decimal(Repr::Wide(Box::new(w))),
        })
    }

    /// Parses decimal text (with an exponent when `scientific`) into the
    /// wide backing: the text's exact value when it has at most `D256`'s
    /// digits, rounded there otherwise.
    fn parse_wide(text: &str, scientific: bool) -> Option<Decimal> {
        let plain = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        let body = text.strip_prefix(['-', '+']).unwrap_or(text);
        let allowed = if scientific {
            let mantissa = body.split(['e', 'E']).next().unwrap_or(body);
            plain(mantissa) && body.bytes().all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
        } else {
            plain(body)
        };
        if !allowed || !body.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        D256::from_str(text, WIDE_CONTEXT).ok().and_then(Decimal::of_wide)
    }

    /// `mantissa * 10^-scale`.
    pub fn new(mantissa: i64, scale: u32) -> Decimal {
        Decimal::from_i128_with_scale(i128::from(mantissa), scale)
    }

    /// `mantissa * 10^-scale`, for scales up to 100.
    pub fn from_i128_with_scale(mantissa: i128, scale: u32) -> Decimal {
        match Inner::try_from_i128_with_scale(mantissa, scale) {
            Ok(d) => Decimal::narrow(d),
            Err(_) => {
                let magnitude = u256(mantissa.unsigned_abs());
                let exponent = -(scale.min(MAX_SCALE) as i32);
                let w = D256::from_parts(magnitude, exponent, sign(mantissa < 0), WIDE_CONTEXT);
                Decimal(Repr::Wide(Box::new(w)))
            }
        }
    }

    /// `digits * 10^-scale` from ASCII digits (a row image's groups), or
    /// an error when they are no digits or more than the backing holds.
    pub fn from_digits(negative: bool, digits: &[u8], scale: u32) -> Result<Decimal, DecimalError> {
        let bad = || DecimalError(String::from_utf8_lossy(digits).into_owned());
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) || scale > MAX_SCALE {
            return Err(bad());
        }
        // 38 digits always fit an i128: the narrow path parses no text.
        if digits.len() <= 38 {
            let m = digits.iter().fold(0i128, |acc, d| acc * 10 + i128::from(d - b'0'));
            return Ok(Decimal::from_i128_with_scale(if negative { -m } else { m }, scale));
        }
        let text = std::str::from_utf8(digits).map_err(|_| bad())?;
        let magnitude = U256::from_str(text).map_err(|_| bad())?;
        let w = D256::from_parts(magnitude, -(scale as i32), sign(negative), WIDE_CONTEXT);
        Decimal::of_wide(w).ok_or_else(bad)
    }

    /// Parses text, failing rather than rounding when it has more digits
    /// than the backing holds.
    pub fn from_str_exact(text: &str) -> Result<Decimal, DecimalError> {
        match Inner::from_str_exact(text) {
            Ok(d) => Ok(Decimal::narrow(d)),
            Err(e) => Decimal::parse_wide(text, false)
                .filter(|d| d.to_string().len() <= text.trim_start_matches('+').len())
                .ok_or_else(|| DecimalError(e.to_string())),
        }
    }

    /// Parses text with an exponent (`1.5e3`).
    pub fn from_scientific(text: &str) -> Result<Decimal, DecimalError> {
        match Inner::from_scientific(text) {
            Ok(d) => Ok(Decimal::narrow(d)),
            Err(e) => Decimal::parse_wide(text, true).ok_or_else(|| DecimalError(e.to_string())),
        }
    }

    /// The decimal nearest a float, `None` for NaN, infinities and
    /// magnitudes beyond the backing. A float beyond the narrow backing
    /// takes its shortest round-trip digits, as MariaDB's conversion does.
    pub fn from_f64(f: f64) -> Option<Decimal> {
        match rust_decimal::prelude::FromPrimitive::from_f64(f) {
            Some(d) => Some(Decimal::narrow(d)),
            None if f.is_finite() => Decimal::parse_wide(&format!("{f:e}"), true),
            None => None,
        }
    }

    /// Digits after the point.
    pub fn scale(&self) -> u32 {
        match &self.0 {
            Repr::Narrow(n) => u32::from(n.scale),
            // Wide values are stored with a non-negative scale.
            Repr::Wide(w) => w.fractional_digits_count().max(0) as u32,
        }
    }

    /// The digits of the value times `10^scale`, without sign: the
    /// mantissa's decimal text.
    pub fn coefficient_digits(&self) -> String {
        match &self.0 {
            Repr::Narrow(n) => (u128::from(n.lo) | u128::from(n.hi) << 64).to_string(),
            Repr::Wide(w) => w.digits().to_string(),
        }
    }

    /// The value times `10^scale` (rounded half away from zero) as a 256-bit
    /// two's complement integer, big-endian: a key that sorts as the
    /// numbers do once its sign bit is flipped. `None` when it does not fit.
    pub fn to_scaled_be_bytes(&self, scale: u32) -> Option<[u8; 32]> {
        let mut scaled = self.clone();
        scaled.rescale(scale);
        if scaled.scale() != scale {
            return None;
        }
        let mut out = [0u8; 32];
        if let Repr::Narrow(n) = scaled.0 {
            let m = n.get().mantissa();
            out[..16].fill(if m < 0 { 0xFF } else { 0 });
            out[16..].copy_from_slice(&m.to_be_bytes());
            return Some(out);
        }
        let w = scaled.wide();
        let magnitude = w.digits().to_radix_be(256);
        // The top bit is the sign: magnitudes from 2^255 on do not fit.
        if magnitude.len() > 32 || (magnitude.len() == 32 && magnitude[0] & 0x80 != 0) {
            return None;
        }
        out[32 - magnitude.len()..].copy_from_slice(&magnitude);
        if w.is_sign_negative() {
            negate_twos_complement(&mut out);
        }
        Some(out)
    }

    /// Sets the scale to `scale`, rounding half away from zero when it
    /// shrinks.
    pub fn rescale(&mut self, scale: u32) {
        // rust_decimal's rescale may leave a scale past its own limit.
        if let (Repr::Narrow(n), true) = (&self.0, scale <= NARROW_MAX_SCALE) {
            let mut d = n.get();
            d.rescale(scale);
            if d.scale() == scale {
                *self = Decimal::narrow(d);
                return;
            }
        }
        let w = self.wide().rescale(scale.min(MAX_SCALE) as i16);
        if let Some(d) = Decimal::of_wide(w) {
            *self = d;
        }
    }

    /// Rounds to `scale` digits after the point the way `strategy` says.
    pub fn round_dp_with_strategy(&self, scale: u32, strategy: RoundingStrategy) -> Decimal {
        if let Repr::Narrow(n) = self.0 {
            let strategy = match strategy {
                RoundingStrategy::MidpointAwayFromZero => rust_decimal::RoundingStrategy::MidpointAwayFromZero,
                RoundingStrategy::ToZero => rust_decimal::RoundingStrategy::ToZero,
            };
            return Decimal::narrow(n.get().round_dp_with_strategy(scale, strategy));
        }
        if self.scale() <= scale {
            return self.clone();
        }
        let mode = match strategy {
            RoundingStrategy::MidpointAwayFromZero => RoundingMode::HalfUp,
            RoundingStrategy::ToZero => RoundingMode::Down,
        };
        let w = self.wide().with_rounding_mode(mode).rescale(scale as i16).with_rounding_mode(RoundingMode::HalfUp);
        Decimal::of_wide(w).unwrap_or_else(|| self.clone())
    }

    /// Applies `narrow` to a narrow value and `wide` to a wide one; both
    /// keep the value in range, so the wide result is always a decimal.
    fn map(&self, narrow: impl Fn(Inner) -> Inner, wide: impl Fn(D256) -> D256) -> Decimal {
        match &self.0 {
            Repr::Narrow(n) => Decimal::narrow(narrow(n.get())),
            Repr::Wide(w) => Decimal::of_wide(wide(**w)).unwrap_or_else(|| self.clone()),
        }
    }

    /// The same value without trailing fractional zeros.
    pub fn normalize(&self) -> Decimal {
        self.map(|d| d.normalize(), |w| w.reduce())
    }

    /// The integer part (toward zero).
    pub fn trunc(&self) -> Decimal {
        self.map(|d| d.trunc(), |w| w.trunc())
    }

    /// The fractional part, with the sign of the value.
    pub fn fract(&self) -> Decimal {
        self.map(|d| d.fract(), |w| w.sub(w.trunc()))
    }

    pub fn floor(&self) -> Decimal {
        self.map(|d| d.floor(), |w| w.floor())
    }

    pub fn ceil(&self) -> Decimal {
        self.map(|d| d.ceil(), |w| w.ceil())
    }

    pub fn abs(&self) -> Decimal {
        self.map(|d| d.abs(), |w| w.abs())
    }

    pub fn is_zero(&self) -> bool {
        match &self.0 {
            Repr::Narrow(n) => n.lo == 0 && n.hi == 0,
            Repr::Wide(w) => w.is_zero(),
        }
    }

    /// True for negative values, and for a zero that kept a minus sign.
    pub fn is_sign_negative(&self) -> bool {
        match &self.0 {
            Repr::Narrow(n) => n.negative,
            Repr::Wide(w) => w.is_sign_negative(),
        }
    }

    /// `narrow` on two narrow values when it gives an exact result (`exact`
    /// says, from the operands and the result, whether `rust_decimal`
    /// rounded), otherwise `wide`.
    fn binary(
        &self,
        other: &Decimal,
        narrow: impl Fn(Inner, Inner) -> Option<Inner>,
        exact: impl Fn(Inner, Inner, Inner) -> bool,
        wide: impl Fn(D256, D256) -> D256,
    ) -> Option<Decimal> {
        if let (Repr::Narrow(a), Repr::Narrow(b)) = (&self.0, &other.0) {
            let (a, b) = (a.get(), b.get());
            if let Some(r) = narrow(a, b).filter(|r| exact(a, b, *r)) {
                return Some(Decimal::narrow(r));
            }
        }
        Decimal::of_wide(wide(self.wide(), other.wide()))
    }

    pub fn checked_add(self, other: Decimal) -> Option<Decimal> {
        self.binary(&other, Inner::checked_add, same_scale, D256::add)
    }

    pub fn checked_sub(self, other: Decimal) -> Option<Decimal> {
        self.binary(&other, Inner::checked_sub, same_scale, D256::sub)
    }

    pub fn checked_mul(self, other: Decimal) -> Option<Decimal> {
        self.binary(&other, Inner::checked_mul, |a, b, r| r.scale() == a.scale() + b.scale(), D256::mul)
    }

    /// `None` when `other` is zero or the quotient overflows. A quotient
    /// that does not end within 27 digits is computed wide, to `D256`'s 77
    /// (a rounded `rust_decimal` quotient fills all its 28 or 29).
    pub fn checked_div(self, other: Decimal) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        let ends = |_, _, r: Inner| r.mantissa().unsigned_abs() < 10u128.pow(NARROW_MAX_SCALE - 1);
        self.binary(&other, Inner::checked_div, ends, D256::div)
    }

    /// `None` when `other` is zero.
    pub fn checked_rem(self, other: Decimal) -> Option<Decimal> {
        if other.is_zero() {
            return None;
        }
        self.binary(&other, Inner::checked_rem, same_scale, D256::rem)
    }

    pub fn to_f64(&self) -> Option<f64> {
        match &self.0 {
            Repr::Narrow(n) => rust_decimal::prelude::ToPrimitive::to_f64(&n.get()),
            // Through the digits: correctly rounded, unlike a power series.
            Repr::Wide(_) => self.to_string().parse().ok(),
        }
    }

    /// The integer part, `None` when it does not fit.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_i128().and_then(|i| i64::try_from(i).ok())
    }

    /// The integer part, `None` when negative or too large.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_i128().and_then(|i| u64::try_from(i).ok())
    }

    /// The integer part, `None` when negative or too large.
    pub fn to_u32(&self) -> Option<u32> {
        self.to_i128().and_then(|i| u32::try_from(i).ok())
    }

    /// The integer part, `None` when it does not fit.
    pub fn to_i128(&self) -> Option<i128> {
        match &self.0 {
            Repr::Narrow(n) => rust_decimal::prelude::ToPrimitive::to_i128(&n.get().trunc()),
            Repr::Wide(w) => {
                let magnitude = i128::try_from(w.trunc().rescale(0).digits()).ok()?;
                Some(if w.is_sign_negative() { -magnitude } else { magnitude })
            }
        }
    }
}

/// Whether `rust_decimal` kept every digit of a sum, difference or
/// remainder: then the result has the larger operand scale.
fn same_scale(a: Inner, b: Inner, r: Inner) -> bool {
    r.scale() == a.scale().max(b.scale())
}

/// `U256` converts only from 64-bit integers infallibly.
fn u256(m: u128) -> U256 {
    (U256::from((m >> 64) as u64) << 64u32) | U256::from(m as u64)
}

fn sign(negative: bool) -> Sign {
    if negative {
        Sign::Minus
    } else {
        Sign::Plus
    }
}

/// `-x` of a big-endian two's complement integer, in place.
fn negate_twos_complement(bytes: &mut [u8]) {
    let mut carry = true;
    for b in bytes.iter_mut().rev() {
        let (sum, overflow) = (!*b).overflowing_add(u8::from(carry));
        *b = sum;
        carry = overflow;
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Narrow(n) => fmt::Display::fmt(&n.get(), f),
            Repr::Wide(_) => {
                let digits = self.coefficient_digits();
                let scale = self.scale() as usize;
                let digits = format!("{digits:0>width$}", width = scale + 1);
                let (int, frac) = digits.split_at(digits.len() - scale);
                let sign = if self.is_sign_negative() { "-" } else { "" };
                let point = if frac.is_empty() { "" } else { "." };
                f.pad(&format!("{sign}{int}{point}{frac}"))
            }
        }
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// By value: `1.5` equals `1.50`, whatever the backing.
impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Narrow(a), Repr::Narrow(b)) => a.get().cmp(&b.get()),
            _ => self.wide().cmp(&other.wide()),
        }
    }
}

/// Equal values hash alike: the hash is of the value without trailing
/// zeros, which is narrow whenever it fits.
impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let normal = self.normalize();
        match &normal.0 {
            Repr::Narrow(n) => n.get().hash(state),
            Repr::Wide(_) => {
                normal.is_sign_negative().hash(state);
                normal.coefficient_digits().hash(state);
                normal.scale().hash(state);
            }
        }
    }
}

impl Default for Decimal {
    fn default() -> Decimal {
        Decimal::ZERO
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    /// Parses plain decimal text, rounding digits beyond the backing.
    fn from_str(text: &str) -> Result<Decimal, DecimalError> {
        match Inner::from_str_exact(text) {
            Ok(d) => Ok(Decimal::narrow(d)),
            Err(e) => Decimal::parse_wide(text, false)
                .or_else(|| Inner::from_str(text).ok().map(Decimal::narrow))
                .ok_or_else(|| DecimalError(e.to_string())),
        }
    }
}

impl TryFrom<f64> for Decimal {
    type Error = DecimalError;

    fn try_from(f: f64) -> Result<Decimal, DecimalError> {
        Decimal::from_f64(f).ok_or_else(|| DecimalError(format!("{f} is no decimal")))
    }
}

/// Integers convert exactly: every 64-bit one fits.
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            fn from(i: $t) -> Decimal {
                Decimal::narrow(Inner::from(i))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

/// Operators panic on overflow (beyond `D256`'s digits): call sites that
/// can overflow use the `checked_` methods.
macro_rules! binary_op {
    ($($trait:ident $method:ident $checked:ident),*) => {$(
        impl $trait for Decimal {
            type Output = Decimal;
            fn $method(self, other: Decimal) -> Decimal {
                match self.$checked(other) {
                    Some(d) => d,
                    None => panic!("decimal {} overflowed", stringify!($method)),
                }
            }
        }
    )*};
}
binary_op!(Add add checked_add, Sub sub checked_sub, Mul mul checked_mul, Div div checked_div, Rem rem checked_rem);

impl AddAssign for Decimal {
    fn add_assign(&mut self, other: Decimal) {
        *self = std::mem::take(self) + other;
    }
}

impl SubAssign for Decimal {
    fn sub_assign(&mut self, other: Decimal) {
        *self = std::mem::take(self) - other;
    }
}

impl Neg for Decimal {
    type Output = Decimal;
    fn neg(self) -> Decimal {
        self.map(|d| -d, |w| w.neg())
    }
}

/// Serialized as its text, so stored catalogs read back whatever the
/// backing (the text is what `rust_decimal`'s `serde-str` wrote).
impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let text = <std::borrow::Cow<'de, str> as Deserialize>::deserialize(d)?;
        Decimal::from_str_exact(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).expect("decimal literal")
    }

    fn is_wide(d: &Decimal) -> bool {
        matches!(d.0, Repr::Wide(_))
    }

    fn hash(d: &Decimal) -> u64 {
        let mut h = DefaultHasher::new();
        d.hash(&mut h);
        h.finish()
    }

    #[test]
    fn wide_values_keep_every_digit() {
        let max = "9".repeat(65);
        for text in [max.as_str(), "-0.000000000000000000000000000001", "12345678901234567890123456789.50"] {
            assert_eq!(d(text).to_string(), text);
            assert!(is_wide(&d(text)), "{text}");
        }
        assert_eq!(Decimal::from_scientific("1e70").unwrap().to_string(), format!("1{}", "0".repeat(70)));
        assert_eq!(Decimal::from_str_exact(&format!("-{max}.5")).unwrap().to_string(), format!("-{max}.5"));
    }

    #[test]
    fn narrow_overflow_is_redone_wide_and_exact() {
        let edge = d("99999999999999999999999999999");
        assert_eq!((edge.clone() + Decimal::from(1)).to_string(), format!("1{}", "0".repeat(29)));
        let x = d("1.2345678901234567890123456789");
        let square = x.clone() * x;
        assert_eq!(square.to_string(), "1.52415787532388367504953515625361987875019051998750190521");
        let big = d(&format!("1{}", "0".repeat(32)));
        assert_eq!((big.clone() * big).to_string(), format!("1{}", "0".repeat(64)));
        assert_eq!(Decimal::from(1).checked_div(Decimal::ZERO), None);
        let third = Decimal::from(1).checked_div(Decimal::from(3)).expect("quotient");
        assert_eq!(
            third.round_dp_with_strategy(38, RoundingStrategy::ToZero).to_string(),
            format!("0.{}", "3".repeat(38))
        );
        assert_eq!(Decimal::saturated(true).to_string(), format!("-{}", "9".repeat(65)));
        assert_eq!(Decimal::power_of_ten(40).to_string(), format!("1{}", "0".repeat(40)));
        assert_eq!(d(&"9".repeat(65)).checked_rem(Decimal::ZERO), None);
    }

    #[test]
    fn results_that_fit_are_narrow_and_equal_values_hash_alike() {
        let wide = d("100000000000000000000000000000.25");
        let small = wide.clone() - d("100000000000000000000000000000");
        assert!(!is_wide(&small));
        assert_eq!(small, d("0.25"));
        let long_zero_tail = d("0.250000000000000000000000000000");
        assert!(is_wide(&long_zero_tail));
        assert_eq!(long_zero_tail, small);
        assert_eq!(hash(&long_zero_tail), hash(&small));
        assert!(d(&format!("-1{}", "0".repeat(40))) < small);
    }

    #[test]
    fn wide_rounding_and_parts() {
        let x = d("-1.0000000000000000000000000000005");
        assert_eq!(
            x.round_dp_with_strategy(30, RoundingStrategy::MidpointAwayFromZero).to_string(),
            "-1.000000000000000000000000000001"
        );
        assert_eq!(
            x.round_dp_with_strategy(30, RoundingStrategy::ToZero).to_string(),
            "-1.000000000000000000000000000000"
        );
        let mut z = Decimal::new(-15, 1);
        z.rescale(38);
        assert_eq!(z.to_string(), format!("-1.5{}", "0".repeat(37)));
        let mut y = d("123456789012345678901234567890.5");
        y.rescale(0);
        assert_eq!(y.to_string(), "123456789012345678901234567891");
        assert_eq!(d("-123456789012345678901234567890.75").trunc().to_string(), "-123456789012345678901234567890");
        assert_eq!(d("-123456789012345678901234567890.75").fract().to_string(), "-0.75");
        assert_eq!(d("0.000000000000000000000000000001").to_i64(), Some(0));
        assert_eq!(d(&"9".repeat(65)).to_i128(), None);
        assert_eq!(d("1.000000000000000000000000000000").to_f64(), Some(1.0));
    }

    #[test]
    fn scaled_bytes_sort_as_numbers() {
        let values = [
            "-99999999999999999999999999999999999",
            "-1.5",
            "0",
            "0.000000000000000000000000000001",
            "7",
            &"9".repeat(45),
        ];
        let keys: Vec<[u8; 32]> = values
            .iter()
            .map(|v| {
                let mut k = d(v).to_scaled_be_bytes(30).expect("fits 256 bits");
                k[0] ^= 0x80;
                k
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(d(&"9".repeat(65)).to_scaled_be_bytes(38), None);
    }
}
