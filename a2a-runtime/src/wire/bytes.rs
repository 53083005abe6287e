//! A ProtoJSON `bytes` field: binary data carried as a base64 string.
//!
//! The decoding rules, and why they were chosen, are documented on
//! [`Bytes`] (this module is private; `Bytes` is re-exported from `rt`).

use std::fmt;
use std::ops::Deref;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, DecodeError, Engine as _};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Standard alphabet, padding optional, trailing bits ignored. URL-safe
/// characters are mapped onto this alphabet before decoding.
const LENIENT_STANDARD: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// The value of a ProtoJSON `bytes` field.
///
/// Serializes as a standard-alphabet, padded base64 string (RFC 4648 §4),
/// as ProtoJSON writes `bytes`; deserializes from a base64 string in the
/// standard or URL-safe (§5) alphabet, padded or not, as ProtoJSON parsers
/// read it. Everything else behaves like the `Vec<u8>` inside: it
/// dereferences to `[u8]`, and the field is public.
///
/// # What deserializing accepts, and why
///
/// Protobuf's own parsers disagree on the corners, so the rules are chosen
/// to take everything a conforming writer produces and to stay as close to
/// the reference (C++) parser as is reasonable:
///
/// * **Either alphabet, even mixed.** The C++ parser decodes with a single
///   table in which `+` and `-` both mean 62 and `/` and `_` both mean 63,
///   so it accepts a string that mixes the two alphabets; Go's `protojson`
///   and Java's `JsonFormat` pick one alphabet per string and reject a mix.
///   A mixed string still has exactly one meaning, so this reader follows
///   C++ and accepts it.
/// * **Padding optional, but not partial.** `QQ==` and `QQ` both decode to
///   `A`; `QQ=` (padding that stops short of a multiple of four characters)
///   is rejected, as C++ and Go both do.
/// * **Non-zero trailing bits are ignored** (`QR==` decodes to `A` like
///   `QQ==`), as in C++ and Go; only a strict re-encoder would notice.
/// * **Whitespace is rejected**, including line breaks such as MIME writers
///   insert. The C++ parser rejects it; Go's decoder skips `\r` and `\n`,
///   but no ProtoJSON writer produces them.
///
/// Invalid base64 is a serde error reading
/// `invalid base64 in bytes field: <detail>`, where the detail names the
/// problem and its byte offset; a JSON value that is not a string is a serde
/// type error.
///
/// # Examples
///
/// ```
/// use a2a_runtime::Bytes;
///
/// let b = Bytes::from(&b"\xfb\xff hi"[..]);
/// assert_eq!(serde_json::to_string(&b).unwrap(), r#""+/8gaGk=""#);
///
/// // URL-safe and unpadded input decode to the same bytes.
/// let url_safe: Bytes = serde_json::from_str(r#""-_8gaGk""#).unwrap();
/// assert_eq!(url_safe, b);
/// assert_eq!(&url_safe[3..], b"hi");
///
/// let err = serde_json::from_str::<Bytes>(r#""Zm9v*A==""#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid base64 in bytes field: invalid character '*' at offset 4 at line 1 column 10"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// Unwraps the byte vector.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_runtime::Bytes;
    ///
    /// assert_eq!(Bytes::from(vec![1, 2, 3]).into_vec(), vec![1, 2, 3]);
    /// ```
    #[must_use]
    pub fn into_vec(self) -> Vec<u8> {
        self.0
    }
}

impl From<Vec<u8>> for Bytes {
    /// Wraps the vector without copying.
    fn from(v: Vec<u8>) -> Self {
        Bytes(v)
    }
}

impl From<&[u8]> for Bytes {
    /// Copies the slice.
    fn from(v: &[u8]) -> Self {
        Bytes(v.to_vec())
    }
}

impl From<Bytes> for Vec<u8> {
    /// Unwraps the byte vector, like [`Bytes::into_vec`].
    fn from(b: Bytes) -> Self {
        b.0
    }
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Serialize for Bytes {
    /// Writes standard-alphabet base64 with padding, as ProtoJSON requires.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    /// Reads a base64 string (standard or URL-safe alphabet, padding
    /// optional). Invalid base64 is an error saying
    /// `invalid base64 in bytes field: ...`; anything other than a string is
    /// a type error.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(BytesVisitor)
    }
}

/// Serde visitor that decodes a base64 string into [`Bytes`].
struct BytesVisitor;

impl Visitor<'_> for BytesVisitor {
    type Value = Bytes;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a base64 string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes, E> {
        decode(v)
            .map(Bytes)
            .map_err(|detail| E::custom(format_args!("invalid base64 in bytes field: {detail}")))
    }
}

/// Decodes ProtoJSON base64: either alphabet (even mixed), padding optional
/// but complete if present, trailing bits ignored, no whitespace.
fn decode(s: &str) -> Result<Vec<u8>, Detail<'_>> {
    if s.ends_with('=') && s.len() % 4 != 0 {
        return Err(Detail::PartialPadding);
    }
    // Map the URL-safe characters onto the standard alphabet. Both are
    // ASCII and replace ASCII, so byte offsets into `s` stay valid.
    let result = if s.bytes().any(|b| b == b'-' || b == b'_') {
        let standard: Vec<u8> = s
            .bytes()
            .map(|b| match b {
                b'-' => b'+',
                b'_' => b'/',
                other => other,
            })
            .collect();
        LENIENT_STANDARD.decode(standard)
    } else {
        LENIENT_STANDARD.decode(s)
    };
    result.map_err(|error| Detail::Decode { input: s, error })
}

/// [`decode`] with its complaint as text (for `convert`, which reads 0.3's base64 `bytes`).
pub(crate) fn decode_text(s: &str) -> Result<Vec<u8>, String> {
    decode(s).map_err(|detail| detail.to_string())
}

/// Standard padded base64, as [`Bytes`] serializes.
pub(crate) fn encode_text(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// What was wrong with a base64 string, for the error message.
enum Detail<'a> {
    /// Ends in `=` but not at a multiple of four characters.
    PartialPadding,
    /// The decoder's complaint about `input`.
    Decode { input: &'a str, error: DecodeError },
}

impl fmt::Display for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (input, error) = match self {
            Detail::PartialPadding => {
                return f.write_str(
                    "incomplete padding (with `=` padding the length must be a multiple of 4)",
                );
            }
            Detail::Decode { input, error } => (*input, error),
        };
        match *error {
            DecodeError::InvalidByte(at, b'=') => {
                write!(f, "padding `=` before the end at offset {at}")
            }
            DecodeError::InvalidByte(at, byte) if byte.is_ascii_whitespace() => {
                write!(
                    f,
                    "whitespace {:?} at offset {at} (not allowed)",
                    char::from(byte)
                )
            }
            DecodeError::InvalidByte(at, byte) => {
                // The offset indexes `input`; show the whole character there
                // when it starts one, else the raw byte.
                match input.get(at..).and_then(|rest| rest.chars().next()) {
                    Some(c) => write!(f, "invalid character {c:?} at offset {at}"),
                    None => write!(f, "invalid byte 0x{byte:02X} at offset {at}"),
                }
            }
            DecodeError::InvalidLength(symbols) => write!(
                f,
                "invalid length: {symbols} symbols leave a lone final symbol, \
                 which cannot encode a byte"
            ),
            DecodeError::InvalidLastSymbol { offset, symbol, .. } => write!(
                f,
                "invalid final symbol {:?} at offset {offset}",
                char::from(symbol)
            ),
            DecodeError::InvalidPadding => f.write_str("invalid padding"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_json(json: &str) -> Result<Bytes, serde_json::Error> {
        serde_json::from_str(json)
    }

    fn decode_str(s: &str) -> Result<Vec<u8>, String> {
        from_json(&serde_json::to_string(s).unwrap())
            .map(Bytes::into_vec)
            .map_err(|e| e.to_string())
    }

    /// Deterministic pseudo-random bytes (a xorshift generator).
    fn sample(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn serializes_standard_alphabet_with_padding() {
        let cases: [(&[u8], &str); 5] = [
            (b"", r#""""#),
            (b"f", r#""Zg==""#),
            (b"fo", r#""Zm8=""#),
            (b"foo", r#""Zm9v""#),
            (b"\xfb\xff\xbf", r#""+/+/""#),
        ];
        for (bytes, json) in cases {
            assert_eq!(serde_json::to_string(&Bytes::from(bytes)).unwrap(), json);
        }
    }

    #[test]
    fn round_trips_every_length_up_to_70() {
        for len in 0..=70 {
            for seed in 1..=4 {
                let original = Bytes(sample(len, seed * 1_000 + len as u64));
                let json = serde_json::to_string(&original).unwrap();
                assert_eq!(from_json(&json).unwrap(), original, "len {len}: {json}");
            }
        }
    }

    #[test]
    fn round_trips_all_byte_values() {
        let original = Bytes((0..=255).collect());
        let json = serde_json::to_string(&original).unwrap();
        assert_eq!(from_json(&json).unwrap(), original);
    }

    #[test]
    fn accepts_url_safe_alphabet() {
        assert_eq!(decode_str("-_-_").unwrap(), b"\xfb\xff\xbf");
        for len in 0..=70 {
            let original = sample(len, 77 + len as u64);
            let url = base64::engine::general_purpose::URL_SAFE.encode(&original);
            assert_eq!(decode_str(&url).unwrap(), original, "{url}");
        }
    }

    #[test]
    fn accepts_unpadded_input_in_both_alphabets() {
        assert_eq!(decode_str("Zg").unwrap(), b"f");
        assert_eq!(decode_str("Zm8").unwrap(), b"fo");
        for len in 0..=70 {
            let original = sample(len, 300 + len as u64);
            let std = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&original);
            let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&original);
            assert_eq!(decode_str(&std).unwrap(), original, "{std}");
            assert_eq!(decode_str(&url).unwrap(), original, "{url}");
        }
    }

    #[test]
    fn accepts_mixed_alphabets_like_the_cpp_parser() {
        // `+` and `-` are both 62, `/` and `_` both 63.
        assert_eq!(decode_str("+_-/").unwrap(), b"\xfb\xff\xbf");
    }

    #[test]
    fn ignores_non_zero_trailing_bits() {
        assert_eq!(decode_str("QR==").unwrap(), b"A");
        assert_eq!(decode_str("QR").unwrap(), b"A");
    }

    #[test]
    fn rejects_partial_padding() {
        let err = decode_str("Zg=").unwrap_err();
        assert!(
            err.starts_with("invalid base64 in bytes field: incomplete padding"),
            "{err}"
        );
        assert!(decode_str("Zm9v=").is_err());
        assert!(decode_str("Zg===").is_err());
    }

    #[test]
    fn rejects_padding_in_the_middle() {
        let err = decode_str("Zg==Zg==").unwrap_err();
        assert!(
            err.starts_with(
                "invalid base64 in bytes field: padding `=` before the end at offset 2"
            ),
            "{err}"
        );
    }

    #[test]
    fn rejects_invalid_characters_with_offset() {
        let err = decode_str("Zm9v*A==").unwrap_err();
        assert!(
            err.starts_with("invalid base64 in bytes field: invalid character '*' at offset 4"),
            "{err}"
        );
        let err = decode_str("Zm9vé").unwrap_err();
        assert!(err.contains("invalid character 'é' at offset 4"), "{err}");
    }

    #[test]
    fn rejects_a_lone_final_symbol() {
        let err = decode_str("Zm9vZ").unwrap_err();
        assert!(
            err.starts_with("invalid base64 in bytes field: invalid length"),
            "{err}"
        );
        assert!(decode_str("Z").is_err());
    }

    #[test]
    fn rejects_whitespace_anywhere() {
        for s in [
            " Zm9v",
            "Zm9v ",
            "Zm 9v",
            "Zm9v\n",
            "Zm9v\r\nZm9v",
            "\tZm9v",
        ] {
            let err = decode_str(s).unwrap_err();
            assert!(err.contains("whitespace"), "{s:?}: {err}");
        }
    }

    #[test]
    fn empty_string_is_empty_bytes() {
        assert_eq!(decode_str("").unwrap(), b"");
    }

    #[test]
    fn rejects_non_strings_as_type_errors() {
        for json in ["null", "1", "true", "[1,2]", "{}"] {
            let err = from_json(json).unwrap_err();
            assert!(
                err.to_string().contains("expected a base64 string"),
                "{json}: {err}"
            );
            assert!(err.is_data(), "{json}");
        }
    }

    #[test]
    fn never_panics_on_odd_strings() {
        let mut inputs = vec![
            "=".to_owned(),
            "==".to_owned(),
            "====".to_owned(),
            "-".to_owned(),
            "_=".to_owned(),
            "\u{0}".repeat(7),
            "é".repeat(9),
            "€€€€".to_owned(),
            "Zm9v".repeat(10_000),
        ];
        for len in 0..12 {
            inputs.push("A".repeat(len));
            inputs.push(format!("{}=", "A".repeat(len)));
            inputs.push(format!("{}==", "A".repeat(len)));
        }
        for s in inputs {
            let _ = decode_str(&s);
        }
    }

    #[test]
    fn conversions_and_deref() {
        let b = Bytes::from(vec![1u8, 2, 3]);
        assert_eq!(b.len(), 3);
        assert_eq!(&b[..2], &[1, 2]);
        assert_eq!(b.as_ref(), &[1, 2, 3]);
        assert_eq!(Bytes::from(&[1u8, 2, 3][..]), b);
        assert_eq!(Vec::from(b.clone()), vec![1, 2, 3]);
        assert_eq!(b.into_vec(), vec![1, 2, 3]);
        assert_eq!(Bytes::default().len(), 0);
        assert!(Bytes(vec![1]) < Bytes(vec![1, 0]));
    }
}
