//! What can go wrong decoding the protobuf binary format, and where.

use std::fmt;

/// Why decoding failed; see [`DecodeError::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ends inside a key, a varint, a fixed-width value or a length-delimited field
    /// (or inside a group, before its end-group key).
    Truncated,
    /// A varint longer than 10 bytes.
    VarintTooLong,
    /// A key's field number is 0 or above 2^29 - 1 (the number as read).
    InvalidFieldNumber(u64),
    /// A key's wire type is 6 or 7, which protobuf does not define.
    InvalidWireType(u8),
    /// An end-group key with no matching start-group: outside any group, or closing a group of
    /// another field number.
    UnexpectedEndGroup,
    /// A `string` field whose bytes are not UTF-8 (proto3 strings must be).
    InvalidUtf8,
    /// Messages, groups or `Struct`/`Value`/`ListValue` nested deeper than
    /// [`Limits::max_depth`](super::Limits::max_depth).
    TooDeep {
        /// The limit that was passed.
        limit: u32,
    },
    /// The input, or one length prefix in it, is longer than
    /// [`Limits::max_len`](super::Limits::max_len).
    TooLarge {
        /// The length found (saturated at `usize::MAX` for a prefix the platform cannot hold).
        len: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for DecodeErrorKind {
    /// What went wrong, without the path: `the input ends inside a field`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Truncated => f.write_str("the input ends inside a field"),
            DecodeErrorKind::VarintTooLong => f.write_str("a varint longer than 10 bytes"),
            DecodeErrorKind::InvalidFieldNumber(n) => write!(
                f,
                "invalid field number {n} (field numbers run from 1 to 536870911)"
            ),
            DecodeErrorKind::InvalidWireType(w) => write!(f, "invalid wire type {w}"),
            DecodeErrorKind::UnexpectedEndGroup => {
                f.write_str("an end-group key with no matching start-group")
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("a string that is not valid UTF-8"),
            DecodeErrorKind::TooDeep { limit } => {
                write!(f, "messages nested deeper than the limit of {limit}")
            }
            DecodeErrorKind::TooLarge { len, limit } => {
                write!(f, "{len} bytes, over the limit of {limit}")
            }
        }
    }
}

/// One step of a [`DecodeError`]'s path: a field of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Step {
    message: &'static str,
    number: u32,
    field: Option<&'static str>,
}

/// A protobuf message (or a field in it) that could not be decoded: what was wrong
/// ([`kind`](DecodeError::kind)) and in which field ([`path`](DecodeError::path)).
///
/// Displays as `protobuf: <what> at <path>`, or `protobuf: <what>` when the path is empty (an
/// error in the outermost message's keys, or in the input as a whole).
///
/// ```
/// use a2a_runtime::protobuf::{DecodeError, DecodeErrorKind};
///
/// let err = DecodeError::new(DecodeErrorKind::InvalidUtf8)
///     .within("Message", 3, Some("parts"))
///     .within("SendMessageRequest", 2, Some("message"));
/// assert_eq!(err.path(), "SendMessageRequest.message(2).parts(3)");
/// assert_eq!(
///     err.to_string(),
///     "protobuf: a string that is not valid UTF-8 at SendMessageRequest.message(2).parts(3)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    /// Innermost first, the order [`DecodeError::within`] adds them in.
    steps: Vec<Step>,
}

impl DecodeError {
    /// An error of this kind, with an empty path.
    #[cold]
    pub fn new(kind: DecodeErrorKind) -> Self {
        DecodeError {
            kind,
            steps: Vec::new(),
        }
    }

    /// What was wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.kind
    }

    /// Adds one step to the path, outside the ones already there: the error happened in field
    /// `number` (named `field`, when known) of message `message`. [`Message::merge`] calls this
    /// for every field's error, so a nested error collects one step per message it is in.
    ///
    /// [`Message::merge`]: super::Message::merge
    #[cold]
    #[must_use]
    pub fn within(
        mut self,
        message: &'static str,
        number: u32,
        field: Option<&'static str>,
    ) -> Self {
        self.steps.push(Step {
            message,
            number,
            field,
        });
        self
    }

    /// The path to the field that failed, outermost first: the outermost message's name, then
    /// each field as `.name(number)`, or `.#number` when its name is unknown. For example
    /// `Task.status(1).message(2)`, or `Task.#99` for an unnamed field. The inner messages' names
    /// are left out: the fields name them. Empty when no step was added.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for (i, step) in self.steps.iter().rev().enumerate() {
            if i == 0 {
                out.push_str(step.message);
            }
            out.push('.');
            match step.field {
                Some(name) => {
                    out.push_str(name);
                    out.push('(');
                    out.push_str(&step.number.to_string());
                    out.push(')');
                }
                None => {
                    out.push('#');
                    out.push_str(&step.number.to_string());
                }
            }
        }
        out
    }
}

impl From<DecodeErrorKind> for DecodeError {
    fn from(kind: DecodeErrorKind) -> Self {
        DecodeError::new(kind)
    }
}

impl fmt::Display for DecodeError {
    /// `protobuf: <what> at <path>`, or `protobuf: <what>` with an empty path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "protobuf: {}", self.kind)?;
        if !self.steps.is_empty() {
            write!(f, " at {}", self.path())?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}
