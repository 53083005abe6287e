//! ProtoJSON number forms, for the generated `Deserialize` code.
//!
//! ProtoJSON is liberal in what it accepts for numeric fields: an `int64`
//! may arrive as `42`, `"42"` or `42.0`, and a `double` as `1.5`, `"1.5"` or
//! `"NaN"`. The wrappers here ([`ProtoI32`], [`ProtoI64`], [`ProtoU32`],
//! [`ProtoU64`], [`ProtoF64`]) and the matching `deserialize_*` functions
//! (for `#[serde(deserialize_with = "...")]`) accept exactly these forms,
//! with hand-written visitors that never buffer through
//! `serde_json::Value`.
//!
//! # Integers (`ProtoI32`, `ProtoI64`, `ProtoU32`, `ProtoU64`)
//!
//! One rule for every integer type, the ProtoJSON one ("numbers or
//! strings are accepted"), read as the official Python SDK's parser
//! (`google.protobuf.json_format`, under a2a-sdk 1.3.0) reads it, so that a
//! reply it takes is never refused here. Accepted:
//!
//! * a JSON integer in range: `42`, `-7`;
//! * a JSON number with an exact integral value in range: `42.0`, `1e2`,
//!   `-0.0`. The number is read as an `f64` first, so beyond 2^53 only
//!   integers that an `f64` holds exactly can be written this way (as in
//!   protobuf's own parsers); plain integer literals are always exact;
//! * a JSON string holding a decimal integer: an optional sign and one or
//!   more ASCII digits (`"42"`, `"-7"`, `"+7"`, `"007"`), read exactly, however
//!   many digits it has;
//! * a JSON string holding a decimal number with a fraction or an exponent
//!   whose value is integral: `"7.0"`, `"1e3"`, `"1.5e1"`, `"-1E+2"`, `"5."`.
//!   It is read as an `f64`, as the same number unquoted is (and as the
//!   Python parser reads it).
//!
//! Rejected, each with a message naming the problem: values out of range
//! (`integer 2147483648 out of range for int32`), numbers and numeric
//! strings that are not integral (`7.5`, `"7.5"`, `"1e-3"`), the empty
//! string and any other string (`"abc"`, `" 42"`, `"0x2A"`, `"NaN"`,
//! `"Infinity"`), and every other JSON type (`true`, `[]`, `{}`, `null`).
//!
//! `int64`'s minimum written as a float (`-9223372036854775808.0`,
//! `-9.223372036854775808e18`, quoted or not) is refused too, as out of
//! range: serde_json reads an integer literal below that minimum as a
//! float, and `-9223372036854775809` rounds to exactly it; a wrong value is
//! worse than an error. Written as an integer it reads exactly, as above.
//!
//! Three string forms the Python parser takes are refused on purpose:
//! digit groups (`"1_000"`), non-ASCII digits (`"٤٢"`) and padding other
//! than a space (`"\t7"`). They are accidents of Python's `int()` and
//! `float()`, which that parser calls, not ProtoJSON: protobuf's C++, Go and
//! Java parsers refuse them, and no ProtoJSON writer produces them.
//!
//! `null` is deliberately an error here: the generated code treats `null` as
//! "field absent" before it calls these.
//!
//! # Doubles (`ProtoF64`)
//!
//! Accepted: any JSON number; the strings `"NaN"`, `"Infinity"` and
//! `"-Infinity"` (how ProtoJSON writes non-finite values); and a string
//! holding a JSON number (`"1.5"`, `"-2e10"`), with no surrounding
//! whitespace. A numeric string too large for an `f64` (`"1e400"`) is an
//! error, as the same number unquoted is for `serde_json`.
//!
//! # Writing
//!
//! The generated code writes numbers plainly, which is right for `int32`,
//! `uint32` and finite doubles. ProtoJSON writes 64-bit integers as strings
//! (JavaScript cannot hold them exactly) and non-finite doubles as the
//! strings above: [`Decimal`] (for a value, a list or a map of them, in
//! hand-written `Serialize` code such as the generated one), and
//! [`serialize_i64_as_string`], [`serialize_u64_as_string`] and
//! [`serialize_f64`] (for `#[serde(serialize_with = "...")]`) do that.

use std::fmt;

use serde::de::{self, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many characters of an offending string an error message repeats.
const MAX_ECHO_CHARS: usize = 40;
/// 2^127: every integral `f64` smaller in magnitude converts to `i128`
/// exactly.
const I128_LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

/// Formats a string for an error message: quoted and escaped like `{:?}`,
/// cut after [`MAX_ECHO_CHARS`] characters.
struct Echo<'a>(&'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(MAX_ECHO_CHARS) {
            Some((cut, _)) => write!(f, "{:?}…", &self.0[..cut]),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// Converts an exact integer to the target type, or explains the overflow.
fn int_in_range<T: TryFrom<i128>, E: de::Error>(value: i128, proto: &str) -> Result<T, E> {
    T::try_from(value)
        .map_err(|_| E::custom(format_args!("integer {value} out of range for {proto}")))
}

/// Converts a JSON number that arrived as a float to the target integer
/// type: it must be finite, integral and in range.
fn int_from_f64<T: TryFrom<i128>, E: de::Error>(value: f64, proto: &str) -> Result<T, E> {
    int_from_float(value, &format_args!("{value:?}"), proto)
}

/// 2^53: beyond it, not every integer is an `f64`, so a float there may be a rounded one.
const EXACT_LIMIT: f64 = 9_007_199_254_740_992.0;

/// [`int_from_f64`], naming the number as `shown` in errors (a string repeats what arrived).
///
/// A float at the lower end of the type's range, beyond 2^53, is refused: it may be an integer
/// written below the range and rounded up by the float reading (serde_json reads an integer
/// literal below `i64::MIN` as an `f64`, and `-9223372036854775809` becomes exactly
/// `i64::MIN`), and a value the writer did not send is worse than an error. Only `int64`'s
/// minimum is affected; written as a plain integer or a string it reads exactly.
fn int_from_float<T: TryFrom<i128>, E: de::Error>(
    value: f64,
    shown: &dyn fmt::Display,
    proto: &str,
) -> Result<T, E> {
    if value.is_nan() || (value.is_finite() && value.fract() != 0.0) {
        return Err(E::custom(format_args!(
            "number {shown} is not an integer, as {proto} requires"
        )));
    }
    if value.is_finite() && value.abs() < I128_LIMIT {
        let v = value as i128;
        let rounded_into_range = v < 0 && value.abs() >= EXACT_LIMIT && T::try_from(v - 1).is_err();
        if !rounded_into_range {
            if let Ok(v) = T::try_from(v) {
                return Ok(v);
            }
        }
    }
    Err(E::custom(format_args!(
        "number {shown} out of range for {proto}"
    )))
}

/// Converts a JSON string holding an integer to the target integer type:
/// `[+-]?[0-9]+` exactly, or a decimal number with a fraction or an
/// exponent (see [`is_decimal_number`]) through `f64`, which must be
/// integral (the module documentation has the rule).
fn int_from_str<T: TryFrom<i128>, E: de::Error>(s: &str, proto: &str) -> Result<T, E> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // The syntax is checked, so the only way `parse` can fail is overflow (more digits
        // than i128 holds; `i128::from_str` takes the leading `+`).
        return s
            .parse::<i128>()
            .ok()
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                E::custom(format_args!("integer {} out of range for {proto}", Echo(s)))
            });
    }
    if !is_decimal_number(s) {
        return Err(E::custom(format_args!(
            "invalid {proto} string {}: expected a decimal integer",
            Echo(s)
        )));
    }
    // The grammar is checked and Rust's `f64::from_str` takes all of it; a value beyond the
    // `f64` range reads as infinite, which is out of range.
    let value = s.parse::<f64>().unwrap_or(f64::NAN);
    int_from_float(value, &Echo(s), proto)
}

/// Whether `s` is a decimal number with a fraction or an exponent, as the
/// integer rule reads strings: `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`
/// with a `.` or an exponent present (plain digits are read exactly, elsewhere).
/// Leading zeros, a leading `+` and a bare trailing `.` are allowed, as
/// Python's `float()` allows them; whitespace, `_`, `inf` and `nan` are not.
fn is_decimal_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while matches!(b.get(*i), Some(b'0'..=b'9')) {
            *i += 1;
        }
        *i - start
    };
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let mut mantissa = digits(&mut i);
    let mut marked = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        marked = true;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        marked = true;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    marked && i == b.len()
}

/// Whether `s` is a number in JSON's grammar:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while matches!(b.get(*i), Some(b'0'..=b'9')) {
            *i += 1;
        }
        *i > start
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// Defines one integer wrapper, its visitor and its `deserialize_*`
/// function, all sharing the helpers above.
macro_rules! proto_int {
    (
        $(#[$type_doc:meta])*
        pub struct $name:ident(pub $int:ty);
        proto: $proto:literal,
        expecting: $expecting:literal,
        visitor: $visitor:ident,
        $(#[$fn_doc:meta])*
        pub fn $deserialize_fn:ident;
    ) => {
        $(#[$type_doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $int);

        impl From<$name> for $int {
            /// Unwraps the number.
            fn from(n: $name) -> $int {
                n.0
            }
        }

        impl<'de> Deserialize<'de> for $name {
            /// Reads a JSON integer, an integral JSON number, or a string
            /// holding a decimal integer, in range (see the
            /// [module documentation](self)).
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any($visitor).map($name)
            }
        }

        /// Serde visitor behind
        #[doc = concat!("[`", stringify!($name), "`].")]
        struct $visitor;

        impl Visitor<'_> for $visitor {
            type Value = $int;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(
                    $expecting,
                    " (a JSON number or a string holding a decimal integer)"
                ))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<$int, E> {
                int_in_range(i128::from(v), $proto)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<$int, E> {
                int_in_range(i128::from(v), $proto)
            }

            fn visit_i128<E: de::Error>(self, v: i128) -> Result<$int, E> {
                int_in_range(v, $proto)
            }

            fn visit_u128<E: de::Error>(self, v: u128) -> Result<$int, E> {
                match i128::try_from(v) {
                    Ok(v) => int_in_range(v, $proto),
                    Err(_) => Err(E::custom(format_args!(
                        "integer {v} out of range for {}",
                        $proto
                    ))),
                }
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<$int, E> {
                int_from_f64(v, $proto)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<$int, E> {
                int_from_str(v, $proto)
            }
        }

        $(#[$fn_doc])*
        pub fn $deserialize_fn<'de, D: Deserializer<'de>>(deserializer: D) -> Result<$int, D::Error> {
            deserializer.deserialize_any($visitor)
        }
    };
}

proto_int! {
    /// A ProtoJSON `int32`, `sint32` or `sfixed32` value: an `i32` read
    /// from a JSON number or a decimal string.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::wire::num::ProtoI32;
    ///
    /// let read = |json| serde_json::from_str::<ProtoI32>(json).map(|n| n.0);
    /// assert_eq!(read("42").unwrap(), 42);
    /// assert_eq!(read("1e2").unwrap(), 100);
    /// assert_eq!(read(r#""-7""#).unwrap(), -7);
    /// assert!(read("1.5").is_err());
    /// assert!(read(r#""2147483648""#)
    ///     .unwrap_err()
    ///     .to_string()
    ///     .starts_with(r#"integer "2147483648" out of range for int32"#));
    /// ```
    pub struct ProtoI32(pub i32);
    proto: "int32",
    expecting: "an int32",
    visitor: I32Visitor,
    /// Deserializes a ProtoJSON `int32` (see [`ProtoI32`]); for
    /// `#[serde(deserialize_with = "::a2a_runtime::wire::num::deserialize_i32")]`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for any form the
    /// [module documentation](self) lists as rejected.
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Page {
    ///     #[serde(deserialize_with = "a2a_runtime::wire::num::deserialize_i32")]
    ///     size: i32,
    /// }
    ///
    /// let page: Page = serde_json::from_str(r#"{"size": "25"}"#).unwrap();
    /// assert_eq!(page.size, 25);
    /// ```
    pub fn deserialize_i32;
}

proto_int! {
    /// A ProtoJSON `int64`, `sint64` or `sfixed64` value: an `i64` read
    /// from a JSON number or (as ProtoJSON writes it) a decimal string.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::wire::num::ProtoI64;
    ///
    /// let read = |json| serde_json::from_str::<ProtoI64>(json).map(|n| n.0);
    /// assert_eq!(read(r#""-9223372036854775808""#).unwrap(), i64::MIN);
    /// assert_eq!(read("9007199254740993").unwrap(), 9_007_199_254_740_993);
    /// assert!(read(r#""9223372036854775808""#).is_err());
    /// ```
    pub struct ProtoI64(pub i64);
    proto: "int64",
    expecting: "an int64",
    visitor: I64Visitor,
    /// Deserializes a ProtoJSON `int64` (see [`ProtoI64`]); for
    /// `#[serde(deserialize_with = "::a2a_runtime::wire::num::deserialize_i64")]`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for any form the
    /// [module documentation](self) lists as rejected.
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Usage {
    ///     #[serde(deserialize_with = "a2a_runtime::wire::num::deserialize_i64")]
    ///     tokens: i64,
    /// }
    ///
    /// let u: Usage = serde_json::from_str(r#"{"tokens": "12345678901"}"#).unwrap();
    /// assert_eq!(u.tokens, 12_345_678_901);
    /// ```
    pub fn deserialize_i64;
}

proto_int! {
    /// A ProtoJSON `uint32` or `fixed32` value: a `u32` read from a JSON
    /// number or a decimal string.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::wire::num::ProtoU32;
    ///
    /// let read = |json| serde_json::from_str::<ProtoU32>(json).map(|n| n.0);
    /// assert_eq!(read("4294967295").unwrap(), u32::MAX);
    /// assert_eq!(
    ///     read("4294967296").unwrap_err().to_string(),
    ///     "integer 4294967296 out of range for uint32 at line 1 column 10"
    /// );
    /// assert!(read("-1").is_err());
    /// ```
    pub struct ProtoU32(pub u32);
    proto: "uint32",
    expecting: "a uint32",
    visitor: U32Visitor,
    /// Deserializes a ProtoJSON `uint32` (see [`ProtoU32`]); for
    /// `#[serde(deserialize_with = "::a2a_runtime::wire::num::deserialize_u32")]`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for any form the
    /// [module documentation](self) lists as rejected.
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Retry {
    ///     #[serde(deserialize_with = "a2a_runtime::wire::num::deserialize_u32")]
    ///     attempts: u32,
    /// }
    ///
    /// let r: Retry = serde_json::from_str(r#"{"attempts": 3.0}"#).unwrap();
    /// assert_eq!(r.attempts, 3);
    /// ```
    pub fn deserialize_u32;
}

proto_int! {
    /// A ProtoJSON `uint64` or `fixed64` value: a `u64` read from a JSON
    /// number or (as ProtoJSON writes it) a decimal string.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::wire::num::ProtoU64;
    ///
    /// let read = |json| serde_json::from_str::<ProtoU64>(json).map(|n| n.0);
    /// assert_eq!(read(r#""18446744073709551615""#).unwrap(), u64::MAX);
    /// assert!(read(r#""-1""#).is_err());
    /// ```
    pub struct ProtoU64(pub u64);
    proto: "uint64",
    expecting: "a uint64",
    visitor: U64Visitor,
    /// Deserializes a ProtoJSON `uint64` (see [`ProtoU64`]); for
    /// `#[serde(deserialize_with = "::a2a_runtime::wire::num::deserialize_u64")]`.
    ///
    /// # Errors
    ///
    /// The deserializer's error for any form the
    /// [module documentation](self) lists as rejected.
    ///
    /// # Examples
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Blob {
    ///     #[serde(deserialize_with = "a2a_runtime::wire::num::deserialize_u64")]
    ///     size: u64,
    /// }
    ///
    /// let b: Blob = serde_json::from_str(r#"{"size": "18446744073709551615"}"#).unwrap();
    /// assert_eq!(b.size, u64::MAX);
    /// ```
    pub fn deserialize_u64;
}

/// A ProtoJSON `double` (or `float`) value: an `f64` read from a JSON
/// number, a numeric string, or one of `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
///
/// # Examples
///
/// ```
/// use a2a_runtime::wire::num::ProtoF64;
///
/// let read = |json| serde_json::from_str::<ProtoF64>(json).map(|n| n.0);
/// assert_eq!(read("1.5").unwrap(), 1.5);
/// assert_eq!(read(r#""-2e3""#).unwrap(), -2000.0);
/// assert_eq!(read(r#""-Infinity""#).unwrap(), f64::NEG_INFINITY);
/// assert!(read(r#""NaN""#).unwrap().is_nan());
/// assert!(read(r#""nan""#).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct ProtoF64(pub f64);

impl From<ProtoF64> for f64 {
    /// Unwraps the number.
    fn from(n: ProtoF64) -> f64 {
        n.0
    }
}

impl<'de> Deserialize<'de> for ProtoF64 {
    /// Reads a JSON number, a numeric string, `"NaN"`, `"Infinity"` or
    /// `"-Infinity"` (see the [module documentation](self)).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(F64Visitor).map(ProtoF64)
    }
}

/// Serde visitor behind [`ProtoF64`].
struct F64Visitor;

impl Visitor<'_> for F64Visitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a double (a JSON number, a numeric string, \"NaN\", \"Infinity\" or \"-Infinity\")",
        )
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    // Integers beyond 2^53 round to the nearest double, as in every
    // ProtoJSON parser.
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            "NaN" => return Ok(f64::NAN),
            "Infinity" => return Ok(f64::INFINITY),
            "-Infinity" => return Ok(f64::NEG_INFINITY),
            _ => {}
        }
        if !is_json_number(v) {
            return Err(E::custom(format_args!(
                "invalid double string {}: expected a JSON number, \"NaN\", \"Infinity\" \
                 or \"-Infinity\"",
                Echo(v)
            )));
        }
        match v.parse::<f64>() {
            Ok(n) if n.is_finite() => Ok(n),
            _ => Err(E::custom(format_args!(
                "number {} out of range for double",
                Echo(v)
            ))),
        }
    }
}

/// Deserializes a ProtoJSON `double` (see [`ProtoF64`]); for
/// `#[serde(deserialize_with = "::a2a_runtime::wire::num::deserialize_f64")]`.
///
/// # Errors
///
/// The deserializer's error for any form the [module documentation](self)
/// lists as rejected.
///
/// # Examples
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Score {
///     #[serde(deserialize_with = "a2a_runtime::wire::num::deserialize_f64")]
///     value: f64,
/// }
///
/// let s: Score = serde_json::from_str(r#"{"value": "Infinity"}"#).unwrap();
/// assert_eq!(s.value, f64::INFINITY);
/// ```
pub fn deserialize_f64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    deserializer.deserialize_any(F64Visitor)
}

/// Serializes an `i64` as a decimal JSON string, as ProtoJSON writes
/// `int64`; for
/// `#[serde(serialize_with = "::a2a_runtime::wire::num::serialize_i64_as_string")]`.
///
/// # Errors
///
/// Only the serializer's own errors.
///
/// # Examples
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Usage {
///     #[serde(serialize_with = "a2a_runtime::wire::num::serialize_i64_as_string")]
///     tokens: i64,
/// }
///
/// let json = serde_json::to_string(&Usage { tokens: -42 }).unwrap();
/// assert_eq!(json, r#"{"tokens":"-42"}"#);
/// ```
// `serialize_with` passes a reference, so the signature takes `&i64`.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub fn serialize_i64_as_string<S: Serializer>(
    value: &i64,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Serializes a `u64` as a decimal JSON string, as ProtoJSON writes
/// `uint64`; for
/// `#[serde(serialize_with = "::a2a_runtime::wire::num::serialize_u64_as_string")]`.
///
/// # Errors
///
/// Only the serializer's own errors.
///
/// # Examples
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Blob {
///     #[serde(serialize_with = "a2a_runtime::wire::num::serialize_u64_as_string")]
///     size: u64,
/// }
///
/// let json = serde_json::to_string(&Blob { size: u64::MAX }).unwrap();
/// assert_eq!(json, r#"{"size":"18446744073709551615"}"#);
/// ```
#[allow(clippy::trivially_copy_pass_by_ref)]
pub fn serialize_u64_as_string<S: Serializer>(
    value: &u64,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// A borrowed 64-bit integer, or a list or map of them, that serializes as
/// ProtoJSON writes `int64` and `uint64`: each number a decimal string
/// (`"7"`, `["1","2"]`, `{"a":"3"}`). The generated `Serialize` code wraps
/// such fields in it; it works for `i64`, `u64`, and `Vec`s and
/// `BTreeMap<String, _>`s of anything it works for.
///
/// # Examples
///
/// ```
/// use a2a_runtime::wire::num::Decimal;
/// use std::collections::BTreeMap;
///
/// assert_eq!(serde_json::to_string(&Decimal(&i64::MIN)).unwrap(), r#""-9223372036854775808""#);
/// assert_eq!(serde_json::to_string(&Decimal(&vec![1_u64, u64::MAX])).unwrap(), r#"["1","18446744073709551615"]"#);
/// let map = BTreeMap::from([("a".to_string(), -1_i64)]);
/// assert_eq!(serde_json::to_string(&Decimal(&map)).unwrap(), r#"{"a":"-1"}"#);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Decimal<'a, T: ?Sized>(pub &'a T);

impl Serialize for Decimal<'_, i64> {
    /// Writes the number as a decimal string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

impl Serialize for Decimal<'_, u64> {
    /// Writes the number as a decimal string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

impl<T> Serialize for Decimal<'_, Vec<T>>
where
    for<'b> Decimal<'b, T>: Serialize,
{
    /// Writes a JSON array, each item as [`Decimal`] writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&Decimal(item))?;
        }
        seq.end()
    }
}

impl<T> Serialize for Decimal<'_, std::collections::BTreeMap<String, T>>
where
    for<'b> Decimal<'b, T>: Serialize,
{
    /// Writes a JSON object, each value as [`Decimal`] writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, &Decimal(value))?;
        }
        map.end()
    }
}

/// Serializes an `f64` as ProtoJSON writes a `double`: a JSON number when
/// finite, else the string `"NaN"`, `"Infinity"` or `"-Infinity"` (plain
/// `serde_json` would write `null`, which reads back as "absent"); for
/// `#[serde(serialize_with = "::a2a_runtime::wire::num::serialize_f64")]`.
///
/// # Errors
///
/// Only the serializer's own errors.
///
/// # Examples
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Score {
///     #[serde(serialize_with = "a2a_runtime::wire::num::serialize_f64")]
///     value: f64,
/// }
///
/// assert_eq!(serde_json::to_string(&Score { value: 0.5 }).unwrap(), r#"{"value":0.5}"#);
/// assert_eq!(
///     serde_json::to_string(&Score { value: f64::NAN }).unwrap(),
///     r#"{"value":"NaN"}"#
/// );
/// ```
#[allow(clippy::trivially_copy_pass_by_ref)]
pub fn serialize_f64<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_nan() {
        serializer.serialize_str("NaN")
    } else if *value == f64::INFINITY {
        serializer.serialize_str("Infinity")
    } else if *value == f64::NEG_INFINITY {
        serializer.serialize_str("-Infinity")
    } else {
        serializer.serialize_f64(*value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32_of(json: &str) -> Result<i32, String> {
        serde_json::from_str::<ProtoI32>(json)
            .map(|n| n.0)
            .map_err(|e| e.to_string())
    }

    fn i64_of(json: &str) -> Result<i64, String> {
        serde_json::from_str::<ProtoI64>(json)
            .map(|n| n.0)
            .map_err(|e| e.to_string())
    }

    fn u32_of(json: &str) -> Result<u32, String> {
        serde_json::from_str::<ProtoU32>(json)
            .map(|n| n.0)
            .map_err(|e| e.to_string())
    }

    fn u64_of(json: &str) -> Result<u64, String> {
        serde_json::from_str::<ProtoU64>(json)
            .map(|n| n.0)
            .map_err(|e| e.to_string())
    }

    fn f64_of(json: &str) -> Result<f64, String> {
        serde_json::from_str::<ProtoF64>(json)
            .map(|n| n.0)
            .map_err(|e| e.to_string())
    }

    /// Asserts that `result` failed with a message starting with `prefix`
    /// (serde_json appends the position).
    fn assert_err<T: fmt::Debug>(result: Result<T, String>, prefix: &str) {
        match result {
            Ok(v) => panic!("expected error {prefix:?}, got Ok({v:?})"),
            Err(e) => assert!(e.starts_with(prefix), "expected {prefix:?}, got {e:?}"),
        }
    }

    #[test]
    fn i32_accepts_json_integers_at_both_limits() {
        assert_eq!(i32_of("0").unwrap(), 0);
        assert_eq!(i32_of("-7").unwrap(), -7);
        assert_eq!(i32_of("2147483647").unwrap(), i32::MAX);
        assert_eq!(i32_of("-2147483648").unwrap(), i32::MIN);
    }

    #[test]
    fn i32_rejects_json_integers_out_of_range() {
        assert_err(
            i32_of("2147483648"),
            "integer 2147483648 out of range for int32",
        );
        assert_err(
            i32_of("-2147483649"),
            "integer -2147483649 out of range for int32",
        );
        assert_err(
            i32_of("4294967296"),
            "integer 4294967296 out of range for int32",
        );
    }

    #[test]
    fn ints_accept_integral_floats_and_exponents() {
        assert_eq!(i32_of("1.0").unwrap(), 1);
        assert_eq!(i32_of("1e2").unwrap(), 100);
        assert_eq!(i32_of("-1E2").unwrap(), -100);
        assert_eq!(i32_of("-0.0").unwrap(), 0);
        assert_eq!(i32_of("2147483647.0").unwrap(), i32::MAX);
        assert_eq!(u32_of("4.2e1").unwrap(), 42);
        assert_eq!(i64_of("1e15").unwrap(), 1_000_000_000_000_000);
        assert_eq!(u64_of("1e19").unwrap(), 10_000_000_000_000_000_000);
    }

    #[test]
    fn ints_reject_fractional_numbers() {
        assert_err(
            i32_of("1.5"),
            "number 1.5 is not an integer, as int32 requires",
        );
        assert_err(
            i64_of("-0.25"),
            "number -0.25 is not an integer, as int64 requires",
        );
        assert_err(
            u32_of("1e-1"),
            "number 0.1 is not an integer, as uint32 requires",
        );
        assert_err(
            u64_of("2.5"),
            "number 2.5 is not an integer, as uint64 requires",
        );
    }

    #[test]
    fn ints_reject_integral_floats_out_of_range() {
        assert_err(
            i32_of("2147483648.0"),
            "number 2147483648.0 out of range for int32",
        );
        assert_err(u32_of("-1.0"), "number -1.0 out of range for uint32");
        assert_err(i64_of("1e19"), "number 1e19 out of range for int64");
        assert_err(u64_of("1e20"), "number 1e20 out of range for uint64");
        assert_err(i64_of("-1e300"), "number -1e300 out of range for int64");
    }

    #[test]
    fn ints_accept_decimal_strings() {
        assert_eq!(i32_of(r#""42""#).unwrap(), 42);
        assert_eq!(i32_of(r#""-7""#).unwrap(), -7);
        assert_eq!(i32_of(r#""007""#).unwrap(), 7);
        assert_eq!(i32_of(r#""-0""#).unwrap(), 0);
        assert_eq!(u32_of(r#""-0""#).unwrap(), 0);
        assert_eq!(i64_of(r#""-9223372036854775808""#).unwrap(), i64::MIN);
        assert_eq!(i64_of(r#""9223372036854775807""#).unwrap(), i64::MAX);
        assert_eq!(u64_of(r#""18446744073709551615""#).unwrap(), u64::MAX);
        let padded = format!("\"{}1\"", "0".repeat(200));
        assert_eq!(u64_of(&padded).unwrap(), 1);
    }

    #[test]
    fn ints_reject_decimal_strings_out_of_range() {
        assert_err(
            i32_of(r#""2147483648""#),
            r#"integer "2147483648" out of range for int32"#,
        );
        assert_err(u32_of(r#""-1""#), r#"integer "-1" out of range for uint32"#);
        assert_err(
            i64_of(r#""9223372036854775808""#),
            r#"integer "9223372036854775808" out of range for int64"#,
        );
        assert_err(
            u64_of(r#""18446744073709551616""#),
            r#"integer "18446744073709551616" out of range for uint64"#,
        );
        // More digits than even i128 holds; the message is cut short.
        let huge = format!("\"{}\"", "9".repeat(1_000));
        let err = u64_of(&huge).unwrap_err();
        assert!(err.starts_with(r#"integer "9999"#), "{err}");
        assert!(err.contains("…") && err.len() < 120, "{err}");
    }

    #[test]
    fn ints_reject_non_numeric_strings() {
        for s in [
            "abc",
            "",
            "-",
            "+",
            " 42",
            "42 ",
            "4 2",
            "0x2A",
            "٤٢",
            "NaN",
            "Infinity",
            "-Infinity",
            "inf",
            "--1",
            "+-1",
            "1_000",
            "\t7",
            "7\n",
            "e5",
            ".",
            "-.",
            "1e",
            "1e+",
            "1.2.3",
            "1e2.5",
            "1ee2",
        ] {
            let json = serde_json::to_string(s).unwrap();
            let want = format!("invalid int32 string {s:?}: expected a decimal integer");
            assert_err(i32_of(&json), &want);
            let want = format!("invalid int64 string {s:?}: expected a decimal integer");
            assert_err(i64_of(&json), &want);
        }
        assert_err(u64_of(r#""abc""#), r#"invalid uint64 string "abc""#);
    }

    #[test]
    fn ints_accept_signed_fraction_and_exponent_strings_when_integral() {
        // What protobuf's Python parser (a2a-sdk 1.3.0) takes inside quotes.
        assert_eq!(i32_of(r#""+42""#).unwrap(), 42);
        assert_eq!(i32_of(r#""1e2""#).unwrap(), 100);
        assert_eq!(i32_of(r#""1.0""#).unwrap(), 1);
        assert_eq!(i64_of(r#""7.0""#).unwrap(), 7);
        assert_eq!(i64_of(r#""1.5e1""#).unwrap(), 15);
        assert_eq!(i64_of(r#""-1E+2""#).unwrap(), -100);
        assert_eq!(i64_of(r#""5.""#).unwrap(), 5);
        assert_eq!(i64_of(r#"".5e1""#).unwrap(), 5);
        assert_eq!(i64_of(r#""-0.0""#).unwrap(), 0);
        assert_eq!(u64_of(r#""1e19""#).unwrap(), 10_000_000_000_000_000_000);
        assert_eq!(u64_of(r#""+0""#).unwrap(), 0);
    }

    #[test]
    fn ints_reject_fractional_and_out_of_range_numeric_strings() {
        assert_err(
            i64_of(r#""7.5""#),
            r#"number "7.5" is not an integer, as int64 requires"#,
        );
        assert_err(
            u64_of(r#""1e-3""#),
            r#"number "1e-3" is not an integer, as uint64 requires"#,
        );
        assert_err(
            i64_of(r#""1e19""#),
            r#"number "1e19" out of range for int64"#,
        );
        assert_err(
            i32_of(r#""1e400""#),
            r#"number "1e400" out of range for int32"#,
        );
        assert_err(
            u64_of(r#""-1e2""#),
            r#"number "-1e2" out of range for uint64"#,
        );
        // Read through `f64`, as unquoted: 2^63 - 1 written with a fraction rounds up to 2^63.
        assert_err(
            i64_of(r#""9223372036854775807.0""#),
            r#"number "9223372036854775807.0" out of range for int64"#,
        );
    }

    #[test]
    fn ints_reject_other_json_types() {
        let expected = "(a JSON number or a string holding a decimal integer)";
        for json in ["true", "false", "null", "[]", "[1]", "{}", r#"{"a":1}"#] {
            for err in [
                i32_of(json).unwrap_err(),
                i64_of(json).unwrap_err(),
                u32_of(json).unwrap_err(),
                u64_of(json).unwrap_err(),
            ] {
                assert!(err.starts_with("invalid type: "), "{json}: {err}");
                assert!(err.contains(expected), "{json}: {err}");
            }
        }
        assert_err(
            i32_of("true"),
            "invalid type: boolean `true`, expected an int32",
        );
        assert_err(i64_of("null"), "invalid type: null, expected an int64");
    }

    #[test]
    fn u32_range_is_checked() {
        assert_eq!(u32_of("4294967295").unwrap(), u32::MAX);
        assert_err(
            u32_of("4294967296"),
            "integer 4294967296 out of range for uint32",
        );
        assert_err(u32_of("-1"), "integer -1 out of range for uint32");
    }

    #[test]
    fn i64_and_u64_limits_as_json_integers() {
        assert_eq!(i64_of("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(i64_of("9223372036854775807").unwrap(), i64::MAX);
        assert_err(
            i64_of("9223372036854775808"),
            "integer 9223372036854775808 out of range for int64",
        );
        assert_eq!(u64_of("18446744073709551615").unwrap(), u64::MAX);
        assert_err(u64_of("-1"), "integer -1 out of range for uint64");
        // Beyond u64, serde_json reads the literal as a float.
        assert_err(
            u64_of("18446744073709551616"),
            "number 1.8446744073709552e19 out of range for uint64",
        );
    }

    #[test]
    fn f64_accepts_numbers() {
        assert_eq!(f64_of("1.5").unwrap(), 1.5);
        assert_eq!(f64_of("-0").unwrap(), 0.0);
        assert_eq!(f64_of("42").unwrap(), 42.0);
        assert_eq!(f64_of("-42").unwrap(), -42.0);
        assert_eq!(f64_of("1e300").unwrap(), 1e300);
        assert_eq!(
            f64_of("18446744073709551615").unwrap(),
            18_446_744_073_709_551_615.0
        );
    }

    #[test]
    fn f64_accepts_numeric_strings() {
        assert_eq!(f64_of(r#""1.5""#).unwrap(), 1.5);
        assert_eq!(f64_of(r#""-2e3""#).unwrap(), -2000.0);
        assert_eq!(f64_of(r#""0""#).unwrap(), 0.0);
        assert_eq!(f64_of(r#""1E+2""#).unwrap(), 100.0);
        assert_eq!(f64_of(r#""0.000001""#).unwrap(), 0.000_001);
    }

    #[test]
    fn f64_accepts_non_finite_names() {
        assert!(f64_of(r#""NaN""#).unwrap().is_nan());
        assert_eq!(f64_of(r#""Infinity""#).unwrap(), f64::INFINITY);
        assert_eq!(f64_of(r#""-Infinity""#).unwrap(), f64::NEG_INFINITY);
    }

    #[test]
    fn f64_rejects_other_strings() {
        for s in [
            "nan",
            "inf",
            "infinity",
            "-inf",
            "+Infinity",
            "abc",
            "",
            " 1",
            "1 ",
            "+1",
            ".5",
            "5.",
            "01",
            "1e",
            "1e+",
            "-",
            "0x10",
            "1_000",
        ] {
            let json = serde_json::to_string(s).unwrap();
            let want = format!("invalid double string {s:?}: expected a JSON number");
            let got = f64_of(&json);
            match &got {
                Err(e) if e.starts_with(&want) => {}
                other => panic!("{s:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn f64_rejects_numeric_strings_out_of_range() {
        assert_err(
            f64_of(r#""1e400""#),
            r#"number "1e400" out of range for double"#,
        );
        assert_err(
            f64_of(r#""-1e400""#),
            r#"number "-1e400" out of range for double"#,
        );
    }

    #[test]
    fn f64_rejects_other_json_types() {
        for json in ["true", "null", "[]", "{}"] {
            assert_err(f64_of(json), "invalid type: ");
        }
        assert_err(
            f64_of("false"),
            "invalid type: boolean `false`, expected a double",
        );
    }

    #[test]
    fn deserialize_functions_work_with_deserialize_with() {
        #[derive(Deserialize)]
        struct All {
            #[serde(deserialize_with = "deserialize_i32")]
            a: i32,
            #[serde(deserialize_with = "deserialize_i64")]
            b: i64,
            #[serde(deserialize_with = "deserialize_u32")]
            c: u32,
            #[serde(deserialize_with = "deserialize_u64")]
            d: u64,
            #[serde(deserialize_with = "deserialize_f64")]
            e: f64,
        }
        let all: All =
            serde_json::from_str(r#"{"a":"-1","b":"2","c":3.0,"d":"4","e":"NaN"}"#).unwrap();
        assert_eq!((all.a, all.b, all.c, all.d), (-1, 2, 3, 4));
        assert!(all.e.is_nan());
        let err = serde_json::from_str::<All>(r#"{"a":1.5,"b":2,"c":3,"d":4,"e":5}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.starts_with("number 1.5 is not an integer, as int32 requires"),
            "{err}"
        );
    }

    #[test]
    fn wrappers_work_inside_containers() {
        let v: Vec<ProtoI64> = serde_json::from_str(r#"[1, "2", 3e0]"#).unwrap();
        assert_eq!(v, [ProtoI64(1), ProtoI64(2), ProtoI64(3)]);
        let o: Option<ProtoU32> = serde_json::from_str("null").unwrap();
        assert_eq!(o, None);
        assert_eq!(i64::from(ProtoI64(5)), 5);
        assert_eq!(f64::from(ProtoF64(0.5)), 0.5);
    }

    #[test]
    fn serializes_64_bit_integers_as_strings() {
        #[derive(serde::Serialize)]
        struct Out {
            #[serde(serialize_with = "serialize_i64_as_string")]
            i: i64,
            #[serde(serialize_with = "serialize_u64_as_string")]
            u: u64,
        }
        let json = serde_json::to_string(&Out {
            i: i64::MIN,
            u: u64::MAX,
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"i":"-9223372036854775808","u":"18446744073709551615"}"#
        );
        // And they read back.
        assert_eq!(i64_of(r#""-9223372036854775808""#).unwrap(), i64::MIN);
    }

    #[test]
    fn serializes_non_finite_doubles_as_strings() {
        #[derive(serde::Serialize)]
        struct Out {
            #[serde(serialize_with = "serialize_f64")]
            v: f64,
        }
        let write = |v| serde_json::to_string(&Out { v }).unwrap();
        assert_eq!(write(1.25), r#"{"v":1.25}"#);
        assert_eq!(write(f64::NAN), r#"{"v":"NaN"}"#);
        assert_eq!(write(f64::INFINITY), r#"{"v":"Infinity"}"#);
        assert_eq!(write(f64::NEG_INFINITY), r#"{"v":"-Infinity"}"#);
        for v in [1.25, f64::INFINITY, f64::NEG_INFINITY] {
            let json = serde_json::to_string(&Out { v }).unwrap();
            let back: serde_json::Value = serde_json::from_str(&json).unwrap();
            let back: ProtoF64 = serde_json::from_value(back["v"].clone()).unwrap();
            assert_eq!(back.0, v);
        }
    }

    #[test]
    fn json_number_grammar() {
        for ok in [
            "0", "-0", "1", "10", "1.5", "-1.5e10", "1E-2", "0.0", "1e+5",
        ] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".1", "1e", "e1", "1.e1", "+1", "1 ", "0x1", "--1",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}
