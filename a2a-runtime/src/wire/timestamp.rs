//! `google.protobuf.Timestamp` as it travels in ProtoJSON: an RFC 3339 string.
//!
//! [`Timestamp`] keeps the wire string exactly as it arrived and parses it
//! only when asked ([`Timestamp::parse`]). Writers differ in how many
//! fractional digits they emit, in whether they use `Z` or an offset, and
//! occasionally in whether they produce a valid timestamp at all; keeping the
//! string means that one odd timestamp cannot make a whole message (say, a
//! `Task` with a long history) fail to deserialize, and that re-serializing a
//! message reproduces what was received.
//!
//! # Why no date/time dependency
//!
//! The generated crate promises to depend only on `serde`, `serde_json` and
//! `base64`, so the RFC 3339 parser and the civil-date arithmetic below are
//! written by hand. Both are small: the grammar is fixed-width and the
//! proleptic Gregorian calendar needs two short day-count conversions.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Seconds of `0001-01-01T00:00:00Z`, the earliest instant protobuf allows.
const MIN_SECONDS: i64 = -62_135_596_800;
/// Seconds of `9999-12-31T23:59:59Z`, the latest whole second protobuf allows.
const MAX_SECONDS: i64 = 253_402_300_799;
const NANOS_PER_SECOND: u32 = 1_000_000_000;
const SECONDS_PER_DAY: i64 = 86_400;
/// The protobuf range, as the error messages spell it.
const RANGE_TEXT: &str = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z";
/// How much of the offending input an error message repeats.
const MAX_ECHO_CHARS: usize = 64;

/// A `google.protobuf.Timestamp` in its ProtoJSON form: an RFC 3339 string,
/// kept exactly as written.
///
/// Construction never validates: [`Timestamp::new`] and the `From`
/// conversions accept any string, and deserializing accepts any JSON string.
/// Call [`Timestamp::parse`] to get the instant it denotes (or an error
/// explaining why it denotes none). To build a timestamp from a point in
/// time, use [`Timestamp::from_unix`], [`Timestamp::from_system_time`] or
/// [`Timestamp::now`], which write the canonical ProtoJSON form.
///
/// Equality and hashing compare the *strings*: `2024-01-01T00:00:00Z` and
/// `2024-01-01T00:00:00.000Z` are the same instant but unequal
/// `Timestamp`s. For the same reason there is no `Ord`: ordering strings
/// misorders timestamps written with different offsets or digit counts.
/// Compare the results of [`Timestamp::parse`] instead.
///
/// # Examples
///
/// ```
/// use a2a_runtime::Timestamp;
///
/// let t: Timestamp = serde_json::from_str(r#""2024-03-01T12:30:00.5+01:00""#).unwrap();
/// assert_eq!(t.as_str(), "2024-03-01T12:30:00.5+01:00"); // kept as written
///
/// let instant = t.parse().unwrap();
/// assert_eq!((instant.seconds, instant.nanos), (1_709_292_600, 500_000_000));
///
/// // Re-serializing writes the string back unchanged.
/// assert_eq!(serde_json::to_string(&t).unwrap(), r#""2024-03-01T12:30:00.5+01:00""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Timestamp(String);

/// An instant as a count of seconds and nanoseconds since the Unix epoch
/// (`1970-01-01T00:00:00Z`), the way `google.protobuf.Timestamp` stores it.
///
/// `seconds` may be negative (instants before 1970); `nanos` is always in
/// `0..1_000_000_000` and counts *forward* from `seconds`, so
/// `1969-12-31T23:59:59.5Z` is `seconds: -1, nanos: 500_000_000`. With that
/// invariant the derived ordering (by `seconds`, then `nanos`) is
/// chronological.
///
/// Values returned by [`Timestamp::parse`] always lie in protobuf's range,
/// `0001-01-01T00:00:00Z` to `9999-12-31T23:59:59.999999999Z`.
///
/// # Examples
///
/// ```
/// use a2a_runtime::Timestamp;
///
/// let before = Timestamp::new("1969-12-31T23:59:59.5Z").parse().unwrap();
/// let after = Timestamp::new("1970-01-01T00:00:00Z").parse().unwrap();
/// assert_eq!((before.seconds, before.nanos), (-1, 500_000_000));
/// assert!(before < after);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnixTime {
    /// Whole seconds since `1970-01-01T00:00:00Z`; negative before it.
    pub seconds: i64,
    /// Nanoseconds after `seconds`, in `0..1_000_000_000`.
    pub nanos: u32,
}

impl Timestamp {
    /// Wraps a string as a timestamp without checking it.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// let t = Timestamp::new("2024-01-01T00:00:00Z");
    /// assert_eq!(t.as_str(), "2024-01-01T00:00:00Z");
    ///
    /// // Anything is kept; only `parse` complains.
    /// assert!(Timestamp::new("yesterday").parse().is_err());
    /// ```
    pub fn new(s: impl Into<String>) -> Self {
        Timestamp(s.into())
    }

    /// The string as it was received or constructed.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// assert_eq!(Timestamp::new("2024-01-01T00:00:00z").as_str(), "2024-01-01T00:00:00z");
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Unwraps the string.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// let s: String = Timestamp::new("2024-01-01T00:00:00Z").into_string();
    /// assert_eq!(s, "2024-01-01T00:00:00Z");
    /// ```
    #[must_use]
    pub fn into_string(self) -> String {
        self.0
    }

    /// Parses the string as an RFC 3339 timestamp and returns the instant it
    /// denotes, with any UTC offset applied.
    ///
    /// The accepted grammar is RFC 3339's `date-time`:
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, where
    ///
    /// * `T` and `Z` may also be written `t` and `z` (RFC 3339 §5.6);
    /// * every field has exactly the digits shown; years run from `0001` to
    ///   `9999` (protobuf's range) and the day must exist in its month,
    ///   leap years included;
    /// * the fraction has 1 to 9 digits (a `Timestamp` holds nanoseconds;
    ///   more digits would be silently lost, so they are rejected);
    /// * an offset's hours run `00`–`23` and minutes `00`–`59`;
    /// * the result, after applying the offset, must lie within
    ///   `0001-01-01T00:00:00Z` to `9999-12-31T23:59:59.999999999Z`.
    ///
    /// **Leap seconds.** RFC 3339 allows second `60` for a leap second;
    /// protobuf timestamps have no leap seconds (they are "smeared"), so a
    /// leap second is accepted only where one can occur, in the last minute
    /// of a UTC day once the offset is applied (`23:59:60Z`,
    /// `15:59:60-08:00`), and is read as second `59` of that minute with its
    /// fraction kept, as `java.time` does. A second `60` anywhere else is an
    /// error. Note that protobuf's own C++ and Go parsers reject every
    /// second `60`.
    ///
    /// Never panics, whatever the string holds.
    ///
    /// # Errors
    ///
    /// A [`TimestampError`] naming what is wrong and, for syntax errors, the
    /// byte offset where it was found.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// let t = Timestamp::new("2024-02-29T23:59:59.123Z").parse().unwrap();
    /// assert_eq!((t.seconds, t.nanos), (1_709_251_199, 123_000_000));
    ///
    /// // Offsets are applied: the same instant written in New York.
    /// let ny = Timestamp::new("2024-02-29T18:59:59.123-05:00").parse().unwrap();
    /// assert_eq!(ny, t);
    ///
    /// let err = Timestamp::new("2023-02-29T00:00:00Z").parse().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid RFC 3339 timestamp `2023-02-29T00:00:00Z`: day 29 does not exist in 2023-02 (at byte 8)"
    /// );
    /// ```
    pub fn parse(&self) -> Result<UnixTime, TimestampError> {
        parse_rfc3339(&self.0).map_err(|(kind, offset)| TimestampError {
            kind,
            input: Some(self.0.clone()),
            offset,
        })
    }

    /// Parses the timestamp (see [`Timestamp::parse`]) and converts it to a
    /// [`SystemTime`].
    ///
    /// # Errors
    ///
    /// Any error of [`Timestamp::parse`], or an error if the platform's
    /// `SystemTime` cannot represent the instant (some platforms cannot
    /// reach year 1 or year 9999).
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let t = Timestamp::new("1970-01-01T00:01:00.25Z");
    /// assert_eq!(
    ///     t.to_system_time().unwrap(),
    ///     UNIX_EPOCH + Duration::from_millis(60_250)
    /// );
    /// ```
    pub fn to_system_time(&self) -> Result<SystemTime, TimestampError> {
        let t = self.parse()?;
        let magnitude = Duration::new(t.seconds.unsigned_abs(), 0);
        let whole = if t.seconds >= 0 {
            UNIX_EPOCH.checked_add(magnitude)
        } else {
            UNIX_EPOCH.checked_sub(magnitude)
        };
        whole
            .and_then(|w| w.checked_add(Duration::from_nanos(u64::from(t.nanos))))
            .ok_or_else(|| TimestampError {
                kind: ErrorKind::NotASystemTime,
                input: Some(self.0.clone()),
                offset: None,
            })
    }

    /// Formats an instant given as seconds and nanoseconds since the Unix
    /// epoch in the canonical ProtoJSON form: UTC with a `Z` suffix and 0, 3,
    /// 6 or 9 fractional digits, the fewest that represent `nanos` exactly.
    ///
    /// # Errors
    ///
    /// If `nanos` is not below `1_000_000_000`, or the instant lies outside
    /// protobuf's range `0001-01-01T00:00:00Z` to
    /// `9999-12-31T23:59:59.999999999Z`.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// assert_eq!(Timestamp::from_unix(0, 0).unwrap().as_str(), "1970-01-01T00:00:00Z");
    /// assert_eq!(
    ///     Timestamp::from_unix(1_709_251_199, 120_000_000).unwrap().as_str(),
    ///     "2024-02-29T23:59:59.120Z"
    /// );
    /// assert_eq!(Timestamp::from_unix(-1, 1_000).unwrap().as_str(), "1969-12-31T23:59:59.000001Z");
    /// assert_eq!(Timestamp::from_unix(0, 5).unwrap().as_str(), "1970-01-01T00:00:00.000000005Z");
    /// assert!(Timestamp::from_unix(0, 1_000_000_000).is_err());
    /// ```
    pub fn from_unix(seconds: i64, nanos: u32) -> Result<Timestamp, TimestampError> {
        check_unix(seconds, nanos)?;
        Ok(Timestamp(format_rfc3339(seconds, nanos)))
    }

    /// Makes this timestamp [`Timestamp::from_unix`]`(seconds, nanos)`, reusing its buffer (the
    /// protobuf decoder sets each timestamp it reads this way: no allocation per field). Left
    /// as it was on error.
    #[cfg(feature = "protobuf")]
    pub(crate) fn set_unix(&mut self, seconds: i64, nanos: u32) -> Result<(), TimestampError> {
        check_unix(seconds, nanos)?;
        let (bytes, len) = rfc3339_bytes(seconds, nanos);
        self.0.clear();
        self.0.push_str(ascii(&bytes[..len]));
        Ok(())
    }

    /// Formats a [`SystemTime`] like [`Timestamp::from_unix`] does.
    ///
    /// # Errors
    ///
    /// If the time lies outside protobuf's range `0001-01-01T00:00:00Z` to
    /// `9999-12-31T23:59:59.999999999Z`.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let t = Timestamp::from_system_time(UNIX_EPOCH + Duration::from_millis(1_500)).unwrap();
    /// assert_eq!(t.as_str(), "1970-01-01T00:00:01.500Z");
    ///
    /// let t = Timestamp::from_system_time(UNIX_EPOCH - Duration::from_millis(1_500)).unwrap();
    /// assert_eq!(t.as_str(), "1969-12-31T23:59:58.500Z");
    /// ```
    pub fn from_system_time(time: SystemTime) -> Result<Timestamp, TimestampError> {
        let out_of_range = || TimestampError {
            kind: ErrorKind::SystemTimeOutOfRange,
            input: None,
            offset: None,
        };
        let (seconds, nanos) = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => (
                i64::try_from(after.as_secs()).map_err(|_| out_of_range())?,
                after.subsec_nanos(),
            ),
            Err(before) => {
                // `before` is how far `time` lies before the epoch; express it
                // as a negative second count plus a forward nanosecond count.
                let before = before.duration();
                let whole = i64::try_from(before.as_secs()).map_err(|_| out_of_range())?;
                match before.subsec_nanos() {
                    0 => (-whole, 0),
                    n => (-whole - 1, NANOS_PER_SECOND - n),
                }
            }
        };
        Timestamp::from_unix(seconds, nanos).map_err(|_| out_of_range())
    }

    /// The current system time in the canonical ProtoJSON form.
    ///
    /// A system clock set outside protobuf's range (before year 1 or after
    /// year 9999) is clamped to the nearest end of that range rather than
    /// reported, so this never fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Timestamp;
    ///
    /// let now = Timestamp::now();
    /// assert!(now.as_str().ends_with('Z'));
    /// assert!(now.parse().unwrap().seconds > 1_700_000_000);
    /// ```
    #[must_use]
    pub fn now() -> Timestamp {
        let now = SystemTime::now();
        Timestamp::from_system_time(now).unwrap_or_else(|_| {
            let (seconds, nanos) = if now < UNIX_EPOCH {
                (MIN_SECONDS, 0)
            } else {
                (MAX_SECONDS, NANOS_PER_SECOND - 1)
            };
            Timestamp(format_rfc3339(seconds, nanos))
        })
    }
}

/// The Unix epoch, `1970-01-01T00:00:00Z`: what protobuf's JSON printer writes for a
/// `google.protobuf.Timestamp` left at its zero value, and what a REQUIRED timestamp the writer
/// left out decodes to.
impl Default for Timestamp {
    fn default() -> Self {
        Timestamp(String::from("1970-01-01T00:00:00Z"))
    }
}

impl From<String> for Timestamp {
    /// Wraps the string unchecked, like [`Timestamp::new`].
    fn from(s: String) -> Self {
        Timestamp(s)
    }
}

impl From<&str> for Timestamp {
    /// Copies the string unchecked, like [`Timestamp::new`].
    fn from(s: &str) -> Self {
        Timestamp(s.to_owned())
    }
}

impl From<Timestamp> for String {
    /// Unwraps the string, like [`Timestamp::into_string`].
    fn from(t: Timestamp) -> Self {
        t.0
    }
}

impl AsRef<str> for Timestamp {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Timestamp {
    /// Writes the kept wire string unchanged.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Timestamp {
    /// Writes the kept string as a JSON string, unchanged.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    /// Accepts any string and keeps it as is (validity is checked by
    /// [`Timestamp::parse`]); anything other than a string is an error.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(TimestampVisitor)
    }
}

/// Serde visitor that takes any string as a [`Timestamp`].
struct TimestampVisitor;

impl Visitor<'_> for TimestampVisitor {
    type Value = Timestamp;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an RFC 3339 timestamp string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Timestamp, E> {
        Ok(Timestamp(v.to_owned()))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &str) -> Result<Timestamp, E> {
        Ok(Timestamp(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Timestamp, E> {
        Ok(Timestamp(v))
    }
}

/// Why a timestamp string could not be parsed, or why an instant could not
/// be written as one.
///
/// The message names the problem and, for syntax errors, the byte offset
/// where it was found ([`TimestampError::offset`]):
///
/// ```
/// use a2a_runtime::Timestamp;
///
/// let err = Timestamp::new("2024-01-01 00:00:00Z").parse().unwrap_err();
/// assert_eq!(err.offset(), Some(10));
/// assert_eq!(err.input(), Some("2024-01-01 00:00:00Z"));
/// assert_eq!(
///     err.to_string(),
///     "invalid RFC 3339 timestamp `2024-01-01 00:00:00Z`: expected `T` between date and time, found ` ` (at byte 10)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimestampError {
    kind: ErrorKind,
    /// The string that failed to parse; `None` for formatting errors.
    input: Option<String>,
    /// Byte offset into `input` where the problem was found, if it has one.
    offset: Option<usize>,
}

impl TimestampError {
    /// The string that was being parsed, or `None` if the error came from
    /// formatting an instant ([`Timestamp::from_unix`] and friends).
    #[must_use]
    pub fn input(&self) -> Option<&str> {
        self.input.as_deref()
    }

    /// The byte offset into [`TimestampError::input`] where the problem was
    /// found, for errors tied to one place in the string.
    #[must_use]
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }
}

/// The private classification behind a [`TimestampError`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    /// The string ended where the grammar needs `expected`.
    UnexpectedEnd { expected: &'static str },
    /// A character other than `expected` was found.
    UnexpectedChar { expected: &'static str },
    /// A numeric field holds a value outside its range.
    FieldRange {
        field: &'static str,
        value: u32,
        range: &'static str,
    },
    /// The day is past the end of its month.
    NoSuchDay { year: u32, month: u32, day: u32 },
    /// Second `60` outside the last minute of a UTC day.
    MisplacedLeapSecond,
    /// A fraction with more than nine digits.
    FractionTooLong,
    /// Text after the offset.
    Trailing,
    /// The instant, after applying the offset, lies outside protobuf's range.
    InstantOutOfRange,
    /// `from_unix` was given values outside protobuf's range.
    UnixOutOfRange { seconds: i64, nanos: u32 },
    /// `from_system_time` was given a time outside protobuf's range.
    SystemTimeOutOfRange,
    /// A valid timestamp the platform's `SystemTime` cannot hold.
    NotASystemTime,
}

impl fmt::Display for TimestampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::UnixOutOfRange { seconds, nanos } => {
                return if *nanos >= NANOS_PER_SECOND {
                    write!(
                        f,
                        "invalid timestamp: nanos {nanos} is not below 1000000000"
                    )
                } else {
                    write!(
                        f,
                        "invalid timestamp: {seconds} seconds since the Unix epoch is outside \
                         the protobuf Timestamp range {RANGE_TEXT}"
                    )
                };
            }
            ErrorKind::SystemTimeOutOfRange => {
                return write!(
                    f,
                    "invalid timestamp: system time is outside the protobuf Timestamp range \
                     {RANGE_TEXT}"
                );
            }
            _ => {}
        }
        let input = self.input.as_deref().unwrap_or("");
        f.write_str("invalid RFC 3339 timestamp `")?;
        write_echo(f, input)?;
        f.write_str("`: ")?;
        match &self.kind {
            ErrorKind::UnexpectedEnd { expected } => {
                write!(f, "expected {expected}, found end of string")?;
            }
            ErrorKind::UnexpectedChar { expected } => {
                write!(f, "expected {expected}, found ")?;
                let found = self
                    .offset
                    .and_then(|at| input.get(at..))
                    .and_then(|rest| rest.chars().next());
                match found {
                    Some(c) => write!(f, "`{}`", c.escape_debug())?,
                    None => f.write_str("an unexpected character")?,
                }
            }
            ErrorKind::FieldRange {
                field,
                value,
                range,
            } => {
                let width = if *field == "year" { 4 } else { 2 };
                write!(f, "{field} {value:0width$} out of range {range}")?;
            }
            ErrorKind::NoSuchDay { year, month, day } => {
                write!(f, "day {day:02} does not exist in {year:04}-{month:02}")?;
            }
            ErrorKind::MisplacedLeapSecond => f.write_str(
                "second 60 (a leap second) is only valid in the last minute of a UTC day",
            )?,
            ErrorKind::FractionTooLong => {
                f.write_str("more than 9 fractional digits (timestamps hold nanoseconds)")?;
            }
            ErrorKind::Trailing => f.write_str("unexpected text after the UTC offset")?,
            ErrorKind::InstantOutOfRange => {
                write!(f, "outside the protobuf Timestamp range {RANGE_TEXT}")?;
            }
            ErrorKind::NotASystemTime => {
                f.write_str("not representable as a SystemTime on this platform")?;
            }
            ErrorKind::UnixOutOfRange { .. } | ErrorKind::SystemTimeOutOfRange => {}
        }
        if let Some(at) = self.offset {
            write!(f, " (at byte {at})")?;
        }
        Ok(())
    }
}

impl std::error::Error for TimestampError {}

/// Writes `input` for an error message: backticks and control characters
/// escaped (so the quoting stays unambiguous), and cut
/// after [`MAX_ECHO_CHARS`] characters so a huge string cannot flood a log.
fn write_echo(f: &mut fmt::Formatter<'_>, input: &str) -> fmt::Result {
    for (i, c) in input.chars().enumerate() {
        if i == MAX_ECHO_CHARS {
            return f.write_str("…");
        }
        match c {
            '`' => f.write_str("\\`")?,
            c if c.is_control() => write!(f, "{}", c.escape_default())?,
            c => write!(f, "{c}")?,
        }
    }
    Ok(())
}

/// A parse failure: what went wrong and, if it has one, where.
type ParseFailure = (ErrorKind, Option<usize>);

/// Reads the fixed-width RFC 3339 grammar, one byte at a time.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn fail(&self, expected: &'static str) -> ParseFailure {
        let kind = if self.pos >= self.bytes.len() {
            ErrorKind::UnexpectedEnd { expected }
        } else {
            ErrorKind::UnexpectedChar { expected }
        };
        (kind, Some(self.pos))
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Consumes one byte that must be one of `allowed`, returning it.
    fn one_of(&mut self, allowed: &[u8], expected: &'static str) -> Result<u8, ParseFailure> {
        match self.peek() {
            Some(b) if allowed.contains(&b) => {
                self.pos += 1;
                Ok(b)
            }
            _ => Err(self.fail(expected)),
        }
    }

    /// Consumes exactly `width` ASCII digits as a number.
    fn digits(&mut self, width: usize, expected: &'static str) -> Result<u32, ParseFailure> {
        let mut value = 0u32;
        for _ in 0..width {
            match self.peek() {
                Some(b @ b'0'..=b'9') => {
                    value = value * 10 + u32::from(b - b'0');
                    self.pos += 1;
                }
                _ => return Err(self.fail(expected)),
            }
        }
        Ok(value)
    }

    /// Consumes a two-digit field and checks it against `min..=max`.
    fn field(
        &mut self,
        field: &'static str,
        expected: &'static str,
        max: u32,
        range: &'static str,
    ) -> Result<u32, ParseFailure> {
        let start = self.pos;
        let value = self.digits(2, expected)?;
        if value > max {
            return Err((
                ErrorKind::FieldRange {
                    field,
                    value,
                    range,
                },
                Some(start),
            ));
        }
        Ok(value)
    }
}

/// Parses RFC 3339 `date-time` (see [`Timestamp::parse`] for the rules).
fn parse_rfc3339(s: &str) -> Result<UnixTime, ParseFailure> {
    match parse_canonical(s.as_bytes()) {
        Some(t) => Ok(t),
        None => parse_general(s),
    }
}

/// Any RFC 3339 text, or the error naming what is wrong and where.
fn parse_general(s: &str) -> Result<UnixTime, ParseFailure> {
    let mut c = Cursor {
        bytes: s.as_bytes(),
        pos: 0,
    };

    let year = c.digits(4, "a four-digit year")?;
    if year == 0 {
        return Err((
            ErrorKind::FieldRange {
                field: "year",
                value: 0,
                range: "0001-9999",
            },
            Some(0),
        ));
    }
    c.one_of(b"-", "`-` after the year")?;
    let month_at = c.pos;
    let month = c.digits(2, "a two-digit month")?;
    if !(1..=12).contains(&month) {
        let kind = ErrorKind::FieldRange {
            field: "month",
            value: month,
            range: "01-12",
        };
        return Err((kind, Some(month_at)));
    }
    c.one_of(b"-", "`-` after the month")?;
    let day_at = c.pos;
    let day = c.digits(2, "a two-digit day")?;
    if day == 0 || day > days_in_month(year, month) {
        let kind = if day == 0 || day > 31 {
            ErrorKind::FieldRange {
                field: "day",
                value: day,
                range: "01-31",
            }
        } else {
            ErrorKind::NoSuchDay { year, month, day }
        };
        return Err((kind, Some(day_at)));
    }
    c.one_of(b"Tt", "`T` between date and time")?;
    let hour = c.field("hour", "a two-digit hour", 23, "00-23")?;
    c.one_of(b":", "`:` after the hour")?;
    let minute = c.field("minute", "two-digit minutes", 59, "00-59")?;
    c.one_of(b":", "`:` after the minutes")?;
    let second_at = c.pos;
    let second = c.field("second", "two-digit seconds", 60, "00-60")?;

    let mut nanos = 0u32;
    if c.peek() == Some(b'.') {
        c.pos += 1;
        let mut count = 0usize;
        while let Some(b @ b'0'..=b'9') = c.peek() {
            if count == 9 {
                return Err((ErrorKind::FractionTooLong, Some(c.pos)));
            }
            nanos = nanos * 10 + u32::from(b - b'0');
            count += 1;
            c.pos += 1;
        }
        if count == 0 {
            return Err(c.fail("a digit after the decimal point"));
        }
        for _ in count..9 {
            nanos *= 10;
        }
    }

    let offset_seconds: i64 = match c.one_of(b"Zz+-", "`Z` or a UTC offset like `+01:00`")? {
        sign @ (b'+' | b'-') => {
            let sign = if sign == b'-' { -1 } else { 1 };
            let oh = c.field("offset hour", "a two-digit offset hour", 23, "00-23")?;
            c.one_of(b":", "`:` in the UTC offset")?;
            let om = c.field("offset minute", "two-digit offset minutes", 59, "00-59")?;
            sign * (i64::from(oh) * 3600 + i64::from(om) * 60)
        }
        _ => 0,
    };
    if c.pos != c.bytes.len() {
        return Err((ErrorKind::Trailing, Some(c.pos)));
    }

    // A leap second is read as second 59 of the same minute (see `parse`).
    let local = days_from_civil(year, month, day) * SECONDS_PER_DAY
        + i64::from(hour) * 3600
        + i64::from(minute) * 60
        + i64::from(second.min(59));
    let seconds = local - offset_seconds;
    if second == 60 && seconds.rem_euclid(SECONDS_PER_DAY) != SECONDS_PER_DAY - 1 {
        return Err((ErrorKind::MisplacedLeapSecond, Some(second_at)));
    }
    if !(MIN_SECONDS..=MAX_SECONDS).contains(&seconds) {
        return Err((ErrorKind::InstantOutOfRange, None));
    }
    Ok(UnixTime { seconds, nanos })
}

/// The form [`format_rfc3339`] writes, and most peers send: `YYYY-MM-DDTHH:MM:SS[.fff[fff[fff]]]Z`,
/// every field at its fixed place, read without the general parser's bookkeeping (a protobuf
/// encoding of a `Task` reads its timestamp three times: 590 instructions each through the
/// general parser, a tenth of that here). Anything else, a leap second or an instant out of range
/// included, is `None`, and the general parser gives the value or the error.
fn parse_canonical(b: &[u8]) -> Option<UnixTime> {
    let n = b.len();
    if !matches!(n, 20 | 24 | 27 | 30) || b[n - 1] != b'Z' {
        return None;
    }
    if b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let digit = |i: usize| {
        let d = b[i].wrapping_sub(b'0');
        (d < 10).then_some(u32::from(d))
    };
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    if year == 0
        || !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut nanos = 0u32;
    if n > 20 {
        if b[19] != b'.' {
            return None;
        }
        for i in 20..n - 1 {
            nanos = nanos * 10 + digit(i)?;
        }
        for _ in n - 21..9 {
            nanos *= 10;
        }
    }
    let seconds = days_from_civil(year, month, day) * SECONDS_PER_DAY
        + i64::from(hour) * 3600
        + i64::from(minute) * 60
        + i64::from(second);
    (MIN_SECONDS..=MAX_SECONDS)
        .contains(&seconds)
        .then_some(UnixTime { seconds, nanos })
}

/// `Ok` when [`Timestamp::from_unix`] can write `(seconds, nanos)`.
fn check_unix(seconds: i64, nanos: u32) -> Result<(), TimestampError> {
    if !(MIN_SECONDS..=MAX_SECONDS).contains(&seconds) || nanos >= NANOS_PER_SECOND {
        return Err(TimestampError {
            kind: ErrorKind::UnixOutOfRange { seconds, nanos },
            input: None,
            offset: None,
        });
    }
    Ok(())
}

/// Formats an in-range instant as `YYYY-MM-DDTHH:MM:SS[.fff[fff[fff]]]Z`.
///
/// Digit by digit rather than through `format!`: every status update of a task stamps the time,
/// and `format!` with its padding was most of the cost of a timestamp (12,000 instructions of a
/// request handler's 160,000 per message).
fn format_rfc3339(seconds: i64, nanos: u32) -> String {
    let (bytes, len) = rfc3339_bytes(seconds, nanos);
    ascii(&bytes[..len]).to_owned()
}

/// [`rfc3339_bytes`]'s text as a `str`: it writes only ASCII digits and separators.
fn ascii(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// [`format_rfc3339`]'s text, in place: the bytes and how many of them are the text.
fn rfc3339_bytes(seconds: i64, nanos: u32) -> ([u8; 30], usize) {
    let days = seconds.div_euclid(SECONDS_PER_DAY);
    let of_day = seconds.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let (fraction, width) = match nanos {
        0 => (0, 0),
        n if n % 1_000_000 == 0 => (n / 1_000_000, 3),
        n if n % 1_000 == 0 => (n / 1_000, 6),
        n => (n, 9),
    };
    // In range, every field is non-negative and fits its width (the year is 1 to 9999).
    let field = |v: i64| u64::try_from(v).unwrap_or(0);
    // `YYYY-MM-DDTHH:MM:SS` `.` up to 9 digits, `Z`: at most 30 ASCII bytes, written in place.
    let mut out = [0u8; 30];
    let mut at = 0;
    for (value, digits, after) in [
        (field(year), 4, b'-'),
        (field(month), 2, b'-'),
        (field(day), 2, b'T'),
        (field(of_day / 3600), 2, b':'),
        (field(of_day / 60 % 60), 2, b':'),
        (field(of_day % 60), 2, b'.'),
    ] {
        put_digits(&mut out[at..at + digits], value);
        out[at + digits] = after;
        at += digits + 1;
    }
    if width > 0 {
        put_digits(&mut out[at..at + width], u64::from(fraction));
        at += width;
    } else {
        at -= 1; // no fraction: the `.` goes
    }
    out[at] = b'Z';
    (out, at + 1)
}

/// Fills `out` with the last `out.len()` decimal digits of `value`, zero-padded.
fn put_digits(out: &mut [u8], mut value: u64) {
    for slot in out.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

fn is_leap_year(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1-12) of `year` in the proleptic Gregorian calendar.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
///
/// Counts in 400-year eras that start on March 1, so the leap day is the
/// last day of its year (the classic "days from civil" construction).
fn days_from_civil(year: u32, month: u32, day: u32) -> i64 {
    let (year, month, day) = (i64::from(year), i64::from(month), i64::from(day));
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400); // 0..=399
    let shifted_month = (month + 9) % 12; // March = 0 .. February = 11
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1; // 0..=365
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    // 719_468 days separate 0000-03-01 from 1970-01-01.
    era * 146_097 + day_of_era - 719_468
}

/// The proleptic Gregorian date `days` after 1970-01-01; the inverse of
/// [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // 0..=146_096
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153; // March = 0
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads what the general parser reads, the same instant, and leaves to it
    /// what it cannot read.
    #[test]
    fn the_canonical_fast_path_agrees_with_the_general_parser() {
        let mut instants = vec![(MIN_SECONDS, 0), (MAX_SECONDS, 999_999_999), (0, 0)];
        let mut x: i64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2000 {
            // xorshift: spread over the whole range, nanos of every width.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let seconds = MIN_SECONDS + x.rem_euclid(MAX_SECONDS - MIN_SECONDS + 1);
            let nanos = match x.rem_euclid(4) {
                0 => 0,
                1 => (x.rem_euclid(1000) * 1_000_000) as u32,
                2 => (x.rem_euclid(1_000_000) * 1000) as u32,
                _ => x.rem_euclid(1_000_000_000) as u32,
            };
            instants.push((seconds, nanos));
        }
        for (seconds, nanos) in instants {
            let text = format_rfc3339(seconds, nanos);
            let fast = parse_canonical(text.as_bytes());
            assert_eq!(fast, Some(UnixTime { seconds, nanos }), "{text}");
            assert_eq!(parse_general(&text).ok(), fast, "{text}");
        }
        for other in [
            "2024-01-01T00:00:00+00:00",
            "2024-01-01t00:00:00z",
            "2016-12-31T23:59:60Z",
            "2024-02-30T00:00:00Z",
            "2024-01-01T00:00:00.1Z",
            "0000-01-01T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00.12345678Z",
            "2024-01-01 00:00:00Z",
        ] {
            assert_eq!(parse_canonical(other.as_bytes()), None, "{other}");
        }
    }

    /// The digit-by-digit formatter writes what `format!` with padding wrote, across the whole
    /// range (the first and last instants, every year's turn in steps, each fraction width).
    #[test]
    fn format_rfc3339_writes_what_padded_format_wrote() {
        fn padded(seconds: i64, nanos: u32) -> String {
            let days = seconds.div_euclid(SECONDS_PER_DAY);
            let of_day = seconds.rem_euclid(SECONDS_PER_DAY);
            let (year, month, day) = civil_from_days(days);
            let fraction = match nanos {
                0 => String::new(),
                n if n % 1_000_000 == 0 => format!(".{:03}", n / 1_000_000),
                n if n % 1_000 == 0 => format!(".{:06}", n / 1_000),
                n => format!(".{n:09}"),
            };
            format!(
                "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{fraction}Z",
                of_day / 3600,
                of_day / 60 % 60,
                of_day % 60
            )
        }
        let step = (MAX_SECONDS - MIN_SECONDS) / 20_011;
        let seconds = (0..=20_011)
            .map(|i| MIN_SECONDS + i * step)
            .chain([MAX_SECONDS, 0, -1, 1]);
        for s in seconds {
            for nanos in [0, 1, 7_000, 120_000_000, 999_999_999, 500_000, 42] {
                assert_eq!(format_rfc3339(s, nanos), padded(s, nanos), "{s} {nanos}");
            }
        }
    }

    fn ut(seconds: i64, nanos: u32) -> UnixTime {
        UnixTime { seconds, nanos }
    }

    fn parse(s: &str) -> Result<UnixTime, TimestampError> {
        Timestamp::new(s).parse()
    }

    #[test]
    fn parses_epoch() {
        assert_eq!(parse("1970-01-01T00:00:00Z").unwrap(), ut(0, 0));
    }

    #[test]
    fn parses_fractions_of_every_length() {
        assert_eq!(parse("1970-01-01T00:00:00.1Z").unwrap(), ut(0, 100_000_000));
        assert_eq!(
            parse("1970-01-01T00:00:00.12Z").unwrap(),
            ut(0, 120_000_000)
        );
        assert_eq!(
            parse("1970-01-01T00:00:00.123Z").unwrap(),
            ut(0, 123_000_000)
        );
        assert_eq!(
            parse("1970-01-01T00:00:00.1234Z").unwrap(),
            ut(0, 123_400_000)
        );
        assert_eq!(
            parse("1970-01-01T00:00:00.123456Z").unwrap(),
            ut(0, 123_456_000)
        );
        assert_eq!(parse("1970-01-01T00:00:00.000000001Z").unwrap(), ut(0, 1));
        assert_eq!(
            parse("1970-01-01T00:00:00.999999999Z").unwrap(),
            ut(0, 999_999_999)
        );
    }

    #[test]
    fn rejects_more_than_nine_fractional_digits() {
        let err = parse("1970-01-01T00:00:00.0000000001Z").unwrap_err();
        assert_eq!(err.kind, ErrorKind::FractionTooLong);
        assert_eq!(err.offset(), Some(29));
    }

    #[test]
    fn rejects_empty_fraction() {
        let err = parse("1970-01-01T00:00:00.Z").unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::UnexpectedChar {
                expected: "a digit after the decimal point"
            }
        );
        assert_eq!(err.offset(), Some(20));
    }

    #[test]
    fn accepts_lowercase_t_and_z() {
        assert_eq!(
            parse("2024-01-01t00:00:00z").unwrap(),
            parse("2024-01-01T00:00:00Z").unwrap()
        );
    }

    #[test]
    fn applies_positive_and_negative_offsets() {
        let utc = parse("2024-06-15T12:00:00Z").unwrap();
        assert_eq!(parse("2024-06-15T14:30:00+02:30").unwrap(), utc);
        assert_eq!(parse("2024-06-15T04:00:00-08:00").unwrap(), utc);
        assert_eq!(parse("2024-06-15T12:00:00-00:00").unwrap(), utc);
        assert_eq!(parse("2024-06-15T12:00:00+00:00").unwrap(), utc);
    }

    #[test]
    fn offset_can_cross_a_date_boundary() {
        assert_eq!(
            parse("2024-01-01T00:30:00+01:00").unwrap(),
            parse("2023-12-31T23:30:00Z").unwrap()
        );
        assert_eq!(
            parse("2023-12-31T23:30:00-01:00").unwrap(),
            parse("2024-01-01T00:30:00Z").unwrap()
        );
    }

    #[test]
    fn matches_known_unix_times() {
        assert_eq!(parse("2000-01-01T00:00:00Z").unwrap(), ut(946_684_800, 0));
        assert_eq!(parse("2038-01-19T03:14:07Z").unwrap(), ut(2_147_483_647, 0));
        assert_eq!(parse("1969-12-31T23:59:59Z").unwrap(), ut(-1, 0));
        assert_eq!(
            parse("1900-01-01T00:00:00Z").unwrap(),
            ut(-2_208_988_800, 0)
        );
        assert_eq!(parse("0001-01-01T00:00:00Z").unwrap(), ut(MIN_SECONDS, 0));
        assert_eq!(
            parse("9999-12-31T23:59:59.999999999Z").unwrap(),
            ut(MAX_SECONDS, 999_999_999)
        );
    }

    #[test]
    fn negative_times_count_nanos_forward() {
        assert_eq!(
            parse("1969-12-31T23:59:59.25Z").unwrap(),
            ut(-1, 250_000_000)
        );
    }

    #[test]
    fn accepts_leap_days_only_in_leap_years() {
        assert!(parse("2024-02-29T00:00:00Z").is_ok());
        assert!(parse("2000-02-29T00:00:00Z").is_ok());
        assert!(parse("0004-02-29T00:00:00Z").is_ok());
        for bad in [
            "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
        ] {
            let err = parse(bad).unwrap_err();
            assert!(
                matches!(
                    err.kind,
                    ErrorKind::NoSuchDay {
                        day: 29,
                        month: 2,
                        ..
                    }
                ),
                "{bad}"
            );
        }
        assert!(parse("2024-02-30T00:00:00Z").is_err());
    }

    #[test]
    fn validates_days_per_month() {
        for (month, days) in [
            (1, 31),
            (3, 31),
            (4, 30),
            (6, 30),
            (9, 30),
            (11, 30),
            (12, 31),
        ] {
            let last = format!("2023-{month:02}-{days:02}T00:00:00Z");
            let past = format!("2023-{month:02}-{:02}T00:00:00Z", days + 1);
            assert!(parse(&last).is_ok(), "{last}");
            assert!(parse(&past).is_err(), "{past}");
        }
    }

    #[test]
    fn rejects_fields_out_of_range() {
        let cases = [
            ("0000-01-01T00:00:00Z", "year", 0),
            ("2024-00-01T00:00:00Z", "month", 5),
            ("2024-13-01T00:00:00Z", "month", 5),
            ("2024-01-00T00:00:00Z", "day", 8),
            ("2024-01-32T00:00:00Z", "day", 8),
            ("2024-01-01T24:00:00Z", "hour", 11),
            ("2024-01-01T00:60:00Z", "minute", 14),
            ("2024-01-01T00:00:61Z", "second", 17),
            ("2024-01-01T00:00:00+24:00", "offset hour", 20),
            ("2024-01-01T00:00:00+00:60", "offset minute", 23),
        ];
        for (input, want_field, want_offset) in cases {
            let err = parse(input).unwrap_err();
            match err.kind {
                ErrorKind::FieldRange { field, .. } => assert_eq!(field, want_field, "{input}"),
                other => panic!("{input}: unexpected {other:?}"),
            }
            assert_eq!(err.offset(), Some(want_offset), "{input}");
        }
    }

    #[test]
    fn leap_second_at_end_of_utc_day_reads_as_second_59() {
        assert_eq!(
            parse("2016-12-31T23:59:60Z").unwrap(),
            parse("2016-12-31T23:59:59Z").unwrap()
        );
        assert_eq!(
            parse("2016-12-31T23:59:60.5Z").unwrap(),
            parse("2016-12-31T23:59:59.5Z").unwrap()
        );
        // RFC 3339 §5.7's own example: the leap second seen from UTC-08:00.
        assert_eq!(
            parse("1990-12-31T15:59:60-08:00").unwrap(),
            parse("1990-12-31T23:59:59Z").unwrap()
        );
    }

    #[test]
    fn leap_second_elsewhere_is_rejected() {
        for bad in [
            "2016-12-31T12:00:60Z",
            "2016-12-31T23:59:60+01:00",
            "2016-12-31T23:58:60Z",
        ] {
            let err = parse(bad).unwrap_err();
            assert_eq!(err.kind, ErrorKind::MisplacedLeapSecond, "{bad}");
            assert_eq!(err.offset(), Some(17), "{bad}");
        }
    }

    #[test]
    fn rejects_instants_pushed_out_of_range_by_the_offset() {
        let err = parse("0001-01-01T00:00:00+00:01").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InstantOutOfRange);
        assert!(parse("9999-12-31T23:59:59-00:01").is_err());
        assert!(parse("0001-01-01T00:00:00-00:01").is_ok());
        assert!(parse("9999-12-31T23:59:59+00:01").is_ok());
    }

    #[test]
    fn rejects_wrong_separators_and_widths() {
        for bad in [
            "2024-01-01 00:00:00Z",
            "2024/01/01T00:00:00Z",
            "2024-1-01T00:00:00Z",
            "24-01-01T00:00:00Z",
            "2024-01-01T0:00:00Z",
            "2024-01-01T00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:00+01",
            "2024-01-01T00:00:00UTC",
            "+2024-01-01T00:00:00Z",
            "12024-01-01T00:00:00Z",
            " 2024-01-01T00:00:00Z",
            "2024-01-01T00:00:00,5Z",
            "2024-01-01",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rejects_trailing_text() {
        let err = parse("2024-01-01T00:00:00Z ").unwrap_err();
        assert_eq!(err.kind, ErrorKind::Trailing);
        assert_eq!(err.offset(), Some(20));
        assert!(parse("2024-01-01T00:00:00+01:00Z").is_err());
        assert!(parse("2024-01-01T00:00:00Z\n").is_err());
    }

    #[test]
    fn never_panics_on_malformed_input() {
        let valid = "2024-02-29T23:59:60.123456789+05:30";
        let mut inputs: Vec<String> = vec![
            String::new(),
            "T".into(),
            "Z".into(),
            "-".into(),
            "9999999999999999999999".into(),
            "2024-02-29T23:59:59.é".into(),
            "２０２４-01-01T00:00:00Z".into(),
            "2024-01-01T00:00:00€".into(),
            "2024-01-01T00:00:00+€".into(),
            "\u{0}".repeat(40),
            format!("2024-01-01T00:00:00.{}Z", "9".repeat(100_000)),
            format!("2024-01-01T00:00:00.{}", "1".repeat(10_000)),
            "é".repeat(100),
        ];
        // Every prefix of a valid string, and the string with each byte
        // replaced by a few troublesome characters.
        for end in 0..valid.len() {
            inputs.push(valid[..end].to_owned());
        }
        for at in 0..valid.len() {
            for replacement in ["", "x", "é", "9", "-", ":", ".", "Z", "+", " ", "\u{7f}"] {
                let mut s = valid[..at].to_owned();
                s.push_str(replacement);
                s.push_str(&valid[at + 1..]);
                inputs.push(s);
            }
        }
        for input in &inputs {
            let t = Timestamp::new(input.as_str());
            match t.parse() {
                Ok(u) => assert!(u.nanos < NANOS_PER_SECOND, "{input}"),
                Err(e) => {
                    // Display must work too, and cite an offset inside the input.
                    let _ = e.to_string();
                    if let Some(at) = e.offset() {
                        assert!(at <= input.len(), "{input}");
                    }
                }
            }
            let _ = t.to_system_time();
        }
        assert!(
            parse(valid).is_err(),
            "leap second is not at the end of the UTC day"
        );
        assert!(parse("2024-02-29T23:59:59.123456789+05:30").is_ok());
    }

    #[test]
    fn truncated_input_reports_end_of_string() {
        let err = parse("2024-01-01T00:00").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid RFC 3339 timestamp `2024-01-01T00:00`: expected `:` after the minutes, \
             found end of string (at byte 16)"
        );
    }

    #[test]
    fn error_message_names_input_reason_and_offset() {
        let err = parse("2024-13-01T00:00:00Z").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid RFC 3339 timestamp `2024-13-01T00:00:00Z`: month 13 out of range 01-12 (at byte 5)"
        );
        assert_eq!(err.input(), Some("2024-13-01T00:00:00Z"));
        let err = parse("0000-12-31T00:00:00Z").unwrap_err();
        assert!(
            err.to_string()
                .ends_with(": year 0000 out of range 0001-9999 (at byte 0)"),
            "{err}"
        );
    }

    #[test]
    fn error_message_escapes_and_truncates_input() {
        let err = parse("a`b\n").unwrap_err();
        assert!(err
            .to_string()
            .starts_with("invalid RFC 3339 timestamp `a\\`b\\n`: "));
        let long = "x".repeat(1_000);
        let msg = parse(&long).unwrap_err().to_string();
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains('…'));
    }

    #[test]
    fn error_names_non_ascii_character_found() {
        let err = parse("2024-01-01T00:00:00€").unwrap_err();
        assert!(err.to_string().contains("found `€`"), "{err}");
    }

    #[test]
    fn from_unix_writes_canonical_fraction_digits() {
        let f = |s, n| Timestamp::from_unix(s, n).unwrap().into_string();
        assert_eq!(f(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(f(0, 100_000_000), "1970-01-01T00:00:00.100Z");
        assert_eq!(f(0, 120_000), "1970-01-01T00:00:00.000120Z");
        assert_eq!(f(0, 123_456_780), "1970-01-01T00:00:00.123456780Z");
        assert_eq!(f(0, 1), "1970-01-01T00:00:00.000000001Z");
        assert_eq!(f(-1, 0), "1969-12-31T23:59:59Z");
        assert_eq!(f(951_782_400, 0), "2000-02-29T00:00:00Z");
        assert_eq!(f(MIN_SECONDS, 0), "0001-01-01T00:00:00Z");
        assert_eq!(
            f(MAX_SECONDS, 999_999_999),
            "9999-12-31T23:59:59.999999999Z"
        );
    }

    #[test]
    fn from_unix_rejects_out_of_range() {
        assert!(Timestamp::from_unix(MIN_SECONDS - 1, 0).is_err());
        assert!(Timestamp::from_unix(MAX_SECONDS + 1, 0).is_err());
        assert!(Timestamp::from_unix(i64::MIN, 0).is_err());
        assert!(Timestamp::from_unix(i64::MAX, 0).is_err());
        let err = Timestamp::from_unix(0, NANOS_PER_SECOND).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid timestamp: nanos 1000000000 is not below 1000000000"
        );
        assert_eq!(err.input(), None);
        assert_eq!(err.offset(), None);
        let err = Timestamp::from_unix(MAX_SECONDS + 1, 0).unwrap_err();
        assert!(err.to_string().contains("253402300800 seconds"), "{err}");
    }

    #[test]
    fn round_trips_through_from_unix_and_parse() {
        let mut values = vec![
            ut(0, 0),
            ut(-1, 0),
            ut(-1, 999_999_999),
            ut(1, 1),
            ut(951_782_400, 0),       // 2000-02-29
            ut(951_868_799, 500_000), // 2000-02-29T23:59:59.0005
            ut(1_709_251_199, 1_000), // 2024-02-29T23:59:59.000001
            ut(-2_203_891_200, 0),    // 1900-03-01
            ut(-62_130_499_200, 0),   // 0001-03-01
            ut(4_107_542_400, 0),     // 2100-03-01
            ut(MIN_SECONDS, 0),
            ut(MIN_SECONDS, 1),
            ut(MAX_SECONDS, 999_999_999),
            ut(MAX_SECONDS, 0),
        ];
        // A spread across the whole range, with assorted nanos.
        let step = (MAX_SECONDS - MIN_SECONDS) / 997;
        for i in 0..=997 {
            let seconds = MIN_SECONDS + i * step + (i * 7919) % SECONDS_PER_DAY;
            let nanos = [0, 1, 1_000, 1_000_000, 999_999_999, 123_456_789][(i % 6) as usize];
            values.push(ut(seconds.min(MAX_SECONDS), nanos));
        }
        for v in values {
            let t = Timestamp::from_unix(v.seconds, v.nanos).unwrap();
            assert_eq!(t.parse().unwrap(), v, "{t}");
        }
    }

    #[test]
    fn civil_conversions_agree_on_every_day_in_range() {
        let first = days_from_civil(1, 1, 1);
        let last = days_from_civil(9999, 12, 31);
        assert_eq!(first * SECONDS_PER_DAY, MIN_SECONDS);
        assert_eq!(last * SECONDS_PER_DAY + SECONDS_PER_DAY - 1, MAX_SECONDS);
        let mut expected = (1i64, 1i64, 1i64);
        for days in first..=last {
            assert_eq!(civil_from_days(days), expected);
            let (y, m, d) = expected;
            let in_month = i64::from(days_in_month(y as u32, m as u32));
            expected = if d < in_month {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn system_time_round_trips() {
        for (seconds, nanos) in [
            (0, 0),
            (1_700_000_000, 123_000_000),
            (-1, 500_000_000),
            (-86_401, 1),
        ] {
            let t = Timestamp::from_unix(seconds, nanos).unwrap();
            let st = t.to_system_time().unwrap();
            assert_eq!(Timestamp::from_system_time(st).unwrap(), t);
        }
        let st = UNIX_EPOCH + Duration::new(1_000, 5);
        assert_eq!(
            Timestamp::from_system_time(st).unwrap().as_str(),
            "1970-01-01T00:16:40.000000005Z"
        );
    }

    #[test]
    fn now_is_canonical_and_parses() {
        let now = Timestamp::now();
        let parsed = now.parse().unwrap();
        assert_eq!(
            Timestamp::from_unix(parsed.seconds, parsed.nanos).unwrap(),
            now
        );
    }

    #[test]
    fn conversions_keep_the_string() {
        let s = "2024-01-01T00:00:00.5+01:00";
        assert_eq!(Timestamp::from(s).as_str(), s);
        assert_eq!(Timestamp::from(s.to_owned()).into_string(), s);
        assert_eq!(String::from(Timestamp::new(s)), s);
        assert_eq!(Timestamp::new(s).to_string(), s);
        assert_eq!(AsRef::<str>::as_ref(&Timestamp::new(s)), s);
    }

    #[test]
    fn equality_compares_strings_not_instants() {
        let a = Timestamp::new("2024-01-01T00:00:00Z");
        let b = Timestamp::new("2024-01-01T00:00:00.000Z");
        assert_ne!(a, b);
        assert_eq!(a.parse().unwrap(), b.parse().unwrap());
    }

    #[test]
    fn serializes_the_kept_string() {
        let t = Timestamp::new("2024-01-01T00:00:00.10+00:00");
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#""2024-01-01T00:00:00.10+00:00""#
        );
    }

    #[test]
    fn deserializes_any_string_unchanged() {
        let t: Timestamp = serde_json::from_str(r#""not a time""#).unwrap();
        assert_eq!(t.as_str(), "not a time");
        let t: Timestamp = serde_json::from_str(r#""2024-01-01T00:00:00\u00e9""#).unwrap();
        assert_eq!(t.as_str(), "2024-01-01T00:00:00é");
        let t: Timestamp =
            serde_json::from_value(serde_json::json!("2024-01-01T00:00:00Z")).unwrap();
        assert_eq!(t.as_str(), "2024-01-01T00:00:00Z");
    }

    #[test]
    fn deserialize_rejects_non_strings() {
        for json in ["1704067200", "null", "true", "{}", "[]", "1.5"] {
            let err = serde_json::from_str::<Timestamp>(json).unwrap_err();
            assert!(
                err.to_string()
                    .contains("expected an RFC 3339 timestamp string"),
                "{json}: {err}"
            );
        }
    }
}
