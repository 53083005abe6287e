//! The JSON Canonicalization Scheme (RFC 8785) of a JSON value, and of raw JSON bytes.
//!
//! The canonical form of a value: no whitespace; object members sorted by their names' UTF-16
//! code units (not by UTF-8 bytes or code points: the two orders differ for names with characters
//! above U+FFFF); strings as literal UTF-8 but for `"`, `\` and the C0 controls (`\b \t \n \f \r`
//! in their short forms, the others as `\u00xx`); numbers as ECMAScript's `Number::toString`
//! writes the IEEE-754 double they denote (`1E30` → `1e+30`, `4.50` → `4.5`, `-0` → `0`).
//!
//! Written here rather than taken from a crate: the two maintained JCS crates (`serde_jcs`,
//! `serde_json_canonicalizer`) canonicalize through a serde_json `Formatter` and need serde_json's
//! `float_roundtrip` feature, which would change every float the codec parses in a build that
//! enables `trust` (a feature must not change a layer below it); neither reads raw bytes with
//! duplicate names refused, nor bounds the nesting of a value built in code. The one hard part,
//! ECMAScript's number formatting, is the `ryu-js` crate's (it is made for that, and passes the
//! RFC's number vectors: see the tests).
//!
//! Raw bytes ([`canonicalize_json`], [`parse`]) are read by a parser of this module, not by
//! serde_json: a number is read to the double nearest its text (serde_json's default float
//! parsing may be one unit off in the last place, which changes the canonical form), a name that
//! occurs twice in one object is an error (I-JSON; two readers could see two different cards), as
//! is a lone surrogate (`"\ud800"`), and nesting is bounded.
//!
//! ```
//! use a2a_runtime::trust::jcs;
//!
//! let canonical = jcs::canonicalize_json(br#"{ "b": [1E30, 4.50, -0], "a": "\u20ac" }"#).unwrap();
//! assert_eq!(canonical, r#"{"a":"€","b":[1e+30,4.5,0]}"#.as_bytes());
//! ```

use crate::limits::MAX_DEPTH;
use serde_json::{Map, Number, Value};
use std::fmt;

/// Why a value has no canonical form, or raw bytes are not JSON this module reads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JcsError {
    /// The bytes are not JSON: what was wrong, at which byte offset.
    Syntax {
        /// The byte offset of the problem.
        offset: usize,
        /// What was expected or found.
        reason: &'static str,
    },
    /// One object has the same member name twice.
    DuplicateName {
        /// The name.
        name: String,
        /// The byte offset of its second occurrence.
        offset: usize,
    },
    /// A string escapes half of a UTF-16 surrogate pair (`"\ud800"`), which is no character.
    LoneSurrogate {
        /// The byte offset of the escape.
        offset: usize,
    },
    /// A number is too large for a double (`1e400`): JSON numbers are IEEE-754 doubles here.
    NumberOutOfRange {
        /// The byte offset of the number.
        offset: usize,
    },
    /// Arrays and objects nest deeper than the limit.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// The value is not what was asked for (an agent card that is not a JSON object).
    NotAnObject,
}

impl fmt::Display for JcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JcsError::Syntax { offset, reason } => {
                write!(f, "not JSON at byte {offset}: {reason}")
            }
            JcsError::DuplicateName { name, offset } => write!(
                f,
                "the member name {name:?} occurs twice in one object (again at byte {offset})"
            ),
            JcsError::LoneSurrogate { offset } => write!(
                f,
                "a string escapes a lone UTF-16 surrogate at byte {offset}, which is no character"
            ),
            JcsError::NumberOutOfRange { offset } => write!(
                f,
                "the number at byte {offset} is out of the range of a double"
            ),
            JcsError::TooDeep { limit } => {
                write!(
                    f,
                    "arrays and objects nest deeper than the limit of {limit}"
                )
            }
            JcsError::NotAnObject => f.write_str("the agent card is not a JSON object"),
        }
    }
}

impl std::error::Error for JcsError {}

/// The canonical form (RFC 8785) of a JSON value, as UTF-8 bytes. An integer is written as the
/// double nearest it (as ECMAScript reads it: `9007199254740993` → `9007199254740992`).
///
/// Errors only when the value nests deeper than [`MAX_DEPTH`] (a value built in code may).
///
/// ```
/// use a2a_runtime::trust::jcs;
/// use serde_json::json;
///
/// let value = json!({"€": 1, "\r": [true, null, 0.1], "1": "A'B\"\u{f}"});
/// let canonical = String::from_utf8(jcs::canonicalize(&value).unwrap()).unwrap();
/// assert_eq!(canonical, r#"{"\r":[true,null,0.1],"1":"A'B\"\u000f","€":1}"#);
/// ```
pub fn canonicalize(value: &Value) -> Result<Vec<u8>, JcsError> {
    let mut out = Vec::with_capacity(256);
    write_value(value, &mut out, 0)?;
    Ok(out)
}

/// The canonical form (RFC 8785) of raw JSON bytes: [`parse`], then [`canonicalize`].
pub fn canonicalize_json(bytes: &[u8]) -> Result<Vec<u8>, JcsError> {
    canonicalize(&parse(bytes)?)
}

/// Reads raw JSON for canonicalization: every number to the double nearest its text (an integer
/// that fits `i64` or `u64` stays an integer), a repeated member name, a lone surrogate, a number
/// out of a double's range and nesting deeper than [`MAX_DEPTH`] refused. Leading and trailing
/// whitespace is allowed; a byte-order mark is not.
pub fn parse(bytes: &[u8]) -> Result<Value, JcsError> {
    let mut parser = Parser {
        bytes,
        at: 0,
        max_depth: MAX_DEPTH,
    };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.at != bytes.len() {
        return Err(parser.syntax("trailing characters after the value"));
    }
    Ok(value)
}

// ----- writing -------------------------------------------------------------------------------------

fn write_value(value: &Value, out: &mut Vec<u8>, depth: usize) -> Result<(), JcsError> {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(JcsError::TooDeep { limit: MAX_DEPTH });
            }
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(item, out, depth + 1)?;
            }
            out.push(b']');
        }
        Value::Object(members) => {
            if depth >= MAX_DEPTH {
                return Err(JcsError::TooDeep { limit: MAX_DEPTH });
            }
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|a, b| utf16_order(a.0, b.0));
            out.push(b'{');
            for (i, (name, member)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_string(name, out);
                out.push(b':');
                write_value(member, out, depth + 1)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// RFC 8785 §3.2.3: names compare as arrays of UTF-16 code units.
pub(crate) fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

fn write_number(n: &Number, out: &mut Vec<u8>) {
    // Every JSON number is an IEEE-754 double here (RFC 8785 §3.2.2.3): an integer beyond 2^53
    // becomes the double nearest it, as ECMAScript reads it. `as_f64` is never `None` without
    // serde_json's `arbitrary_precision`, and a serde_json number is always finite.
    let double = n.as_f64().unwrap_or(0.0);
    let mut buffer = ryu_js::Buffer::new();
    out.extend_from_slice(buffer.format_finite(double).as_bytes());
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0a => b'n',
            0x0c => b'f',
            0x0d => b'r',
            0x00..=0x1f => 0,
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        start = i + 1;
        match short {
            0 => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]),
            c => out.extend_from_slice(&[b'\\', c]),
        }
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

// ----- reading -------------------------------------------------------------------------------------

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    max_depth: usize,
}

impl Parser<'_> {
    fn syntax(&self, reason: &'static str) -> JcsError {
        JcsError::Syntax {
            offset: self.at,
            reason,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn expect_word(&mut self, word: &'static [u8], value: Value) -> Result<Value, JcsError> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.syntax("expected a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, JcsError> {
        match self.peek() {
            None => Err(self.syntax("the input ends where a value was expected")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.expect_word(b"true", Value::Bool(true)),
            Some(b'f') => self.expect_word(b"false", Value::Bool(false)),
            Some(b'n') => self.expect_word(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.syntax("expected a value")),
        }
    }

    fn enter(&self, depth: usize) -> Result<(), JcsError> {
        match depth >= self.max_depth {
            true => Err(JcsError::TooDeep {
                limit: self.max_depth,
            }),
            false => Ok(()),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, JcsError> {
        self.enter(depth)?;
        self.at += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.syntax("expected `,` or `]` after an array element")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JcsError> {
        self.enter(depth)?;
        self.at += 1;
        let mut members = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a member name"));
            }
            let offset = self.at;
            let name = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.syntax("expected `:` after a member name"));
            }
            self.at += 1;
            self.skip_ws();
            let member = self.value(depth + 1)?;
            if members.contains_key(&name) {
                return Err(JcsError::DuplicateName { name, offset });
            }
            members.insert(name, member);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.syntax("expected `,` or `}` after an object member")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u16, JcsError> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.syntax("a `\\u` escape needs four hex digits"))?;
        let mut unit = 0u16;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.syntax("a `\\u` escape needs four hex digits")),
            };
            unit = unit << 4 | u16::from(v);
        }
        self.at += 4;
        Ok(unit)
    }

    fn string(&mut self) -> Result<String, JcsError> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let run = self.at;
            // A run of bytes that need no attention, copied at once.
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            if run < self.at {
                let text = std::str::from_utf8(&self.bytes[run..self.at]).map_err(|e| {
                    JcsError::Syntax {
                        offset: run + e.valid_up_to(),
                        reason: "a string is not valid UTF-8",
                    }
                })?;
                out.push_str(text);
            }
            match self.peek() {
                None => return Err(self.syntax("a string is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escape = self.at;
                    self.at += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let unit = self.hex4()?;
                            out.push(self.unicode_escape(unit, escape)?);
                            continue;
                        }
                        _ => return Err(self.syntax("an unknown escape in a string")),
                    };
                    self.at += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.syntax("a control character in a string")),
            }
        }
    }

    /// The character a `\uXXXX` escape (already read) stands for, reading the second half of a
    /// surrogate pair.
    fn unicode_escape(&mut self, unit: u16, offset: usize) -> Result<char, JcsError> {
        match unit {
            0xd800..=0xdbff => {
                if !self.bytes[self.at..].starts_with(b"\\u") {
                    return Err(JcsError::LoneSurrogate { offset });
                }
                self.at += 2;
                let low = self.hex4()?;
                if !(0xdc00..=0xdfff).contains(&low) {
                    return Err(JcsError::LoneSurrogate { offset });
                }
                let c = 0x10000 + ((u32::from(unit) - 0xd800) << 10) + (u32::from(low) - 0xdc00);
                char::from_u32(c).ok_or(JcsError::LoneSurrogate { offset })
            }
            0xdc00..=0xdfff => Err(JcsError::LoneSurrogate { offset }),
            _ => char::from_u32(u32::from(unit)).ok_or(JcsError::LoneSurrogate { offset }),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, JcsError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a number needs a digit")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a number needs a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a number needs a digit in its exponent"));
            }
        }
        // ASCII by construction.
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("0");
        if integer {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Number(i.into()));
            }
            if let Ok(u) = text.parse::<u64>() {
                return Ok(Value::Number(u.into()));
            }
        }
        // std's parse is correctly rounded (to the double nearest the text).
        let double: f64 = text
            .parse()
            .map_err(|_| JcsError::NumberOutOfRange { offset: start })?;
        Number::from_f64(double)
            .map(Value::Number)
            .ok_or(JcsError::NumberOutOfRange { offset: start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        String::from_utf8(canonicalize_json(text.as_bytes()).unwrap()).unwrap()
    }

    /// RFC 8785 §3.2.2, the example of primitive values.
    #[test]
    fn rfc_8785_primitives_example() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50,
                      2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        let expected = concat!(
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"#,
            r#""string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
        assert_eq!(canon(input), expected);
        // The RFC gives the same output as UTF-8 bytes in hex.
        let hex =
            "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b\
                   3333333333333333332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d\
                   2c22737472696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d";
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(canonicalize_json(input.as_bytes()).unwrap(), bytes);
    }

    /// RFC 8785 §3.2.3, the sorting example: UTF-16 code units, not code points.
    #[test]
    fn rfc_8785_sorting_example() {
        let input = r#"{
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        // Non-ASCII written as escapes: U+FB33 has no composed form an editor keeps.
        let expected = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
                        \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
                        \"\u{1f600}\":\"Emoji: Grinning Face\",\
                        \"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}";
        assert_eq!(canon(input), expected);
    }

    /// RFC 8785 Appendix B: IEEE-754 doubles (as hex) and their canonical text.
    #[test]
    fn rfc_8785_number_vectors() {
        let vectors: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for &(bits, text) in vectors {
            let value = Value::Number(Number::from_f64(f64::from_bits(bits)).unwrap());
            assert_eq!(
                String::from_utf8(canonicalize(&value).unwrap()).unwrap(),
                text,
                "{bits:016x}"
            );
            // And read back from that text, the same double.
            assert_eq!(canon(text), text, "{bits:016x} read back");
        }
        // NaN and the infinities are no JSON numbers: serde_json has none, and raw text cannot
        // write them but as a number out of range.
        assert_eq!(
            canonicalize_json(b"1e400"),
            Err(JcsError::NumberOutOfRange { offset: 0 })
        );
    }

    #[test]
    fn integers_are_doubles() {
        assert_eq!(canon("9007199254740993"), "9007199254740992");
        assert_eq!(canon("18446744073709551615"), "18446744073709552000");
        assert_eq!(canon("-9223372036854775808"), "-9223372036854776000");
        assert_eq!(
            canon("123456789012345678901234567890"),
            "1.2345678901234568e+29"
        );
        assert_eq!(canon("-0"), "0");
        assert_eq!(canon("-0.0"), "0");
        assert_eq!(canon("1.0"), "1");
        assert_eq!(canon("1e21"), "1e+21");
        assert_eq!(canon("1e-7"), "1e-7");
        assert_eq!(canon("0.1e1"), "1");
    }

    #[test]
    fn strings_escape_only_what_the_rfc_says() {
        assert_eq!(canon(r#""\u007f\u2028\u00e9\/""#), "\"\u{7f}\u{2028}é/\"");
        assert_eq!(
            canon(r#""\u0000\u001f\b\t\n\f\r""#),
            r#""\u0000\u001f\b\t\n\f\r""#
        );
    }

    #[test]
    fn raw_json_that_has_no_canonical_form_is_a_typed_error() {
        assert!(matches!(
            canonicalize_json(br#"{"a":1,"a":2}"#),
            Err(JcsError::DuplicateName { ref name, offset: 7 }) if name == "a"
        ));
        // The same name written two ways is the same name.
        assert!(matches!(
            canonicalize_json(br#"{"a":1,"\u0061":2}"#),
            Err(JcsError::DuplicateName { .. })
        ));
        assert_eq!(
            canonicalize_json(br#""\ud800""#),
            Err(JcsError::LoneSurrogate { offset: 1 })
        );
        assert_eq!(
            canonicalize_json(br#""\udc00\ud800""#),
            Err(JcsError::LoneSurrogate { offset: 1 })
        );
        assert_eq!(
            canonicalize_json(br#""\ud800\u0041""#),
            Err(JcsError::LoneSurrogate { offset: 1 })
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            canonicalize_json(deep.as_bytes()),
            Err(JcsError::TooDeep { limit: MAX_DEPTH })
        );
        for bad in [
            &b""[..],
            b"\xef\xbb\xbf{}",
            b"{",
            b"[1,]",
            b"{\"a\" 1}",
            b"01",
            b"1.",
            b"1e",
            b"+1",
            b"tru",
            b"\"\x01\"",
            b"\"\xff\"",
            b"\"\\x\"",
            b"{} {}",
            b"NaN",
        ] {
            assert!(
                matches!(canonicalize_json(bad), Err(JcsError::Syntax { .. })),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn a_value_built_in_code_too_deep_is_an_error_not_a_stack_overflow() {
        let mut value = Value::Null;
        for _ in 0..10_000 {
            value = Value::Array(vec![value]);
        }
        assert_eq!(
            canonicalize(&value),
            Err(JcsError::TooDeep { limit: MAX_DEPTH })
        );
        // Dropping a value that deep is serde_json's affair; unwind it by hand to keep the
        // test's stack small.
        while let Value::Array(mut items) = value {
            value = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn the_parser_agrees_with_serde_json_on_ordinary_json() {
        let text =
            r#"{"a":[1,-2,3.5,"x\ny",{"b":null,"c":true}],"d":{},"e":[],"f":"\ud83d\ude00"}"#;
        let ours = parse(text.as_bytes()).unwrap();
        let theirs: Value = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs);
    }
}
