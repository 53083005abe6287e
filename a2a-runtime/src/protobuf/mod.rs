//! The protobuf binary wire format of the generated types, which the gRPC binding carries:
//! what generated code calls to encode its messages to protobuf bytes and decode them back
//! (feature `protobuf`, no dependencies).
//!
//! The pieces:
//!
//! - [`Message`]: a protobuf message. Generated code implements [`Message::encode_raw`],
//!   [`Message::encoded_len`] and [`Message::merge_field`] (a `match` on the field number); the
//!   rest ([`Message::encode_to_vec`], [`Message::decode`], ...) is provided.
//! - [`ProtoField`]: how a value of one kind is written as a field, implemented here for the
//!   scalars (`String`, `bool`, `i32`, `i64`, `u64`, `f64`, [`Bytes`](crate::Bytes)) and the
//!   well-known types ([`Timestamp`](crate::Timestamp) for `google.protobuf.Timestamp`,
//!   [`serde_json::Value`] for `google.protobuf.Value`, `serde_json::Map<String, Value>` for
//!   `google.protobuf.Struct`), and by generated code for its messages (through
//!   [`message_encode_value`], [`message_value_len`] and [`message_merge_value`]) and enums.
//! - The field functions, one per presence: [`encode_implicit`] (plain proto3 fields, not
//!   written at their default), [`encode_option`] (`optional` fields and messages),
//!   [`encode`] (oneof members), [`encode_repeated`] and [`encode_map`]; each with its
//!   `encoded_len_*` twin and, on the decoding side, [`merge`], [`merge_option`],
//!   [`merge_fresh`] (oneof members), [`merge_repeated`] and [`merge_map`].
//! - [`Reader`]: the cursor decoding goes through, under [`Limits`]; [`DecodeError`]: what
//!   went wrong and in which field ([`DecodeError::path`]).
//! - [`UnknownFields`]: the fields a message does not know, kept as bytes and written back
//!   (types generated with `preserve_unknown_fields`).
//!
//! Decoding follows protobuf's own parsers: unknown fields of every wire type (groups
//! included) are skipped (or kept, see [`UnknownFields`]), as is a known field written with a wire type that does not fit its
//! kind; for a field that is not repeated the last value wins (a message merges into the one
//! before); repeated numbers are read packed and unpacked, even mixed. Whatever the input,
//! decoding returns an error rather than panicking, and it nests no deeper than
//! [`Limits::max_depth`]. Encoding never fails and writes straight into the output `Vec`.
//!
//! # Example
//!
//! A message by hand, the way generated code writes one:
//!
//! ```
//! use a2a_runtime::protobuf::{self, DecodeError, Message, Reader, WireType};
//!
//! /// `message Greeting { string text = 1; int32 count = 2; }`
//! #[derive(Debug, Default, PartialEq)]
//! struct Greeting {
//!     text: String,
//!     count: i32,
//! }
//!
//! impl Message for Greeting {
//!     const NAME: &'static str = "Greeting";
//!
//!     fn field_name(number: u32) -> Option<&'static str> {
//!         match number {
//!             1 => Some("text"),
//!             2 => Some("count"),
//!             _ => None,
//!         }
//!     }
//!
//!     fn encode_raw(&self, buf: &mut Vec<u8>) {
//!         protobuf::encode_implicit(1, &self.text, buf);
//!         protobuf::encode_implicit(2, &self.count, buf);
//!     }
//!
//!     fn encoded_len(&self) -> usize {
//!         protobuf::encoded_len_implicit(1, &self.text)
//!             + protobuf::encoded_len_implicit(2, &self.count)
//!     }
//!
//!     fn merge_field(
//!         &mut self,
//!         number: u32,
//!         wire: WireType,
//!         r: &mut Reader<'_>,
//!     ) -> Result<(), DecodeError> {
//!         match number {
//!             1 => protobuf::merge(number, wire, &mut self.text, r),
//!             2 => protobuf::merge(number, wire, &mut self.count, r),
//!             _ => r.skip(number, wire),
//!         }
//!     }
//! }
//!
//! let hello = Greeting { text: "hi".into(), count: 150 };
//! let bytes = hello.encode_to_vec();
//! assert_eq!(bytes, [0x0a, 0x02, b'h', b'i', 0x10, 0x96, 0x01]);
//! assert_eq!(Greeting::decode(&bytes).unwrap(), hello);
//!
//! // A string that is not UTF-8: the error names the field.
//! let err = Greeting::decode(&[0x0a, 0x01, 0xff]).unwrap_err();
//! assert_eq!(err.to_string(), "protobuf: a string that is not valid UTF-8 at Greeting.text(1)");
//! ```

mod encode;
mod error;
mod field;
mod reader;
mod scalar;
pub(crate) mod status;
mod unknown;
mod wkt;

#[cfg(test)]
mod tests;

pub use encode::{
    encode, encode_implicit, encode_key, encode_map, encode_option, encode_repeated, encode_varint,
    encoded_len, encoded_len_implicit, encoded_len_map, encoded_len_option, encoded_len_repeated,
    key_len, varint_len,
};
pub use error::{DecodeError, DecodeErrorKind};
pub use field::{merge, merge_fresh, merge_map, merge_option, merge_repeated};
pub use reader::{Limits, Reader, WireType, MAX_FIELD_NUMBER};
pub use unknown::UnknownFields;

/// A protobuf message: what generated code implements for each message type.
///
/// The three required methods are the message's own; the rest is provided. Decoding merges:
/// [`Message::merge`] reads fields into what `self` already holds, as protobuf does when a
/// message arrives in pieces.
pub trait Message: Default {
    /// The message's name, for error paths (`"Task"`).
    const NAME: &'static str;

    /// The name of field `number`, for error paths; `None` (the default) shows its number
    /// alone.
    fn field_name(number: u32) -> Option<&'static str> {
        let _ = number;
        None
    }

    /// Whether the message writes no field: every field its default and no oneof member set.
    /// Where it is an implicit-presence (required) field it is then not written, as a required
    /// scalar at its default is not: it reads back as the default either way, and a peer reads
    /// the field as absent, as it was before it was decoded into this type. The default, `false`
    /// (always written), is never wrong; generated messages answer field by field.
    fn is_empty(&self) -> bool {
        false
    }

    /// Writes the fields (keys and values), without a length prefix.
    fn encode_raw(&self, buf: &mut Vec<u8>);

    /// The number of bytes [`Message::encode_raw`] writes.
    fn encoded_len(&self) -> usize;

    /// Merges one field, whose key (`number`, `wire`) was just read, from `r`: calls the field
    /// function that fits the field, or [`Reader::skip`] for a number the message does not
    /// know.
    ///
    /// # Errors
    ///
    /// Any error reading the value; [`Message::merge`] adds the field to its path.
    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError>;

    /// Merges fields from `r` until it is empty. Each field's error gets this message's step
    /// in its path ([`DecodeError::within`]); an end-group key is
    /// [`DecodeErrorKind::UnexpectedEndGroup`] (groups are skipped whole, start to end).
    ///
    /// # Errors
    ///
    /// Any error reading a key or a field.
    fn merge(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        merge_fields(r, Self::NAME, Self::field_name, |number, wire, r| {
            self.merge_field(number, wire, r)
        })
    }

    /// Appends the encoded message (without a length prefix) to `buf`, reserving its length
    /// first.
    fn encode(&self, buf: &mut Vec<u8>) {
        buf.reserve(self.encoded_len());
        self.encode_raw(buf);
    }

    /// The encoded message (without a length prefix), in a `Vec` of exactly its length.
    fn encode_to_vec(&self) -> Vec<u8> {
        let mut buf = Vec::with_capacity(self.encoded_len());
        self.encode_raw(&mut buf);
        buf
    }

    /// Decodes a message from `bytes` under [`Limits::default`].
    ///
    /// # Errors
    ///
    /// Any [`DecodeError`]: malformed input, a string that is not UTF-8, a limit passed.
    fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        Self::decode_with(bytes, Limits::default())
    }

    /// Decodes a message from `bytes` under `limits`.
    ///
    /// # Errors
    ///
    /// Any [`DecodeError`]: malformed input, a string that is not UTF-8, a limit passed.
    fn decode_with(bytes: &[u8], limits: Limits) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes, limits)?;
        let mut message = Self::default();
        message.merge(&mut r)?;
        Ok(message)
    }
}

/// Reads keys from `r` until it is empty, handing each field to `f`; an error gets the step
/// `message.field(number)`. An end-group key is an error without calling `f`.
#[inline]
pub(crate) fn merge_fields<F>(
    r: &mut Reader<'_>,
    message: &'static str,
    field_name: fn(u32) -> Option<&'static str>,
    mut f: F,
) -> Result<(), DecodeError>
where
    F: FnMut(u32, WireType, &mut Reader<'_>) -> Result<(), DecodeError>,
{
    while !r.is_empty() {
        let (number, wire) = r.read_key()?;
        let result = if wire == WireType::EndGroup {
            Err(DecodeError::new(DecodeErrorKind::UnexpectedEndGroup))
        } else {
            f(number, wire, r)
        };
        if let Err(e) = result {
            return Err(e.within(message, number, field_name(number)));
        }
    }
    Ok(())
}

/// How a value of one kind is written as a field: its wire type, its value's bytes (without the
/// key), how it is read back, and what proto3 counts as its default.
///
/// Implemented here for `String` (`string`), `bool`, `i32` (`int32`), `i64` (`int64`), `u64`
/// (`uint64`), `f64` (`double`), [`Bytes`](crate::Bytes) (`bytes`),
/// [`Timestamp`](crate::Timestamp) (`google.protobuf.Timestamp`), [`serde_json::Value`]
/// (`google.protobuf.Value`) and `serde_json::Map<String, Value>` (`google.protobuf.Struct`).
/// Generated code implements it for each message (with [`message_encode_value`],
/// [`message_value_len`] and [`message_merge_value`]) and each enum (as `int32`, an
/// unrecognized name through [`enum_number`]).
pub trait ProtoField: Default {
    /// The wire type a single value is written with.
    const WIRE: WireType;

    /// Whether a repeated field of this kind is written packed: the numeric scalars, `bool`
    /// and enums.
    const PACKED: bool = false;

    /// Writes the value alone, without a key (a LEN kind with its length prefix).
    fn encode_value(&self, buf: &mut Vec<u8>);

    /// The number of bytes [`ProtoField::encode_value`] writes.
    fn value_len(&self) -> usize;

    /// Reads one value, written with [`ProtoField::WIRE`], into `self`: a message merges into
    /// what is there, any other kind replaces it.
    ///
    /// # Errors
    ///
    /// Any error reading the value.
    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError>;

    /// Whether the value is proto3's default (zero, `false`, empty), which an
    /// implicit-presence field does not write. For a message, [`Message::is_empty`].
    fn is_default(&self) -> bool;

    /// The value the first occurrence of an `optional` or `repeated` field is merged into:
    /// [`Default::default`], unless the kind has a cheaper value that its
    /// [`ProtoField::merge_value`] always overwrites whole ([`Timestamp`](crate::Timestamp):
    /// an empty string, where its default is the epoch's text, an allocation thrown away).
    #[inline]
    fn fresh() -> Self {
        Self::default()
    }
}

/// [`ProtoField::encode_value`] for a message: its length, then its fields.
#[inline]
pub fn message_encode_value<M: Message>(m: &M, buf: &mut Vec<u8>) {
    encode_varint(m.encoded_len() as u64, buf);
    m.encode_raw(buf);
}

/// [`ProtoField::value_len`] for a message: its length's varint plus its length.
#[inline]
pub fn message_value_len<M: Message>(m: &M) -> usize {
    let len = m.encoded_len();
    varint_len(len as u64) + len
}

/// [`ProtoField::merge_value`] for a message: [`Reader::nested`], then [`Message::merge`].
///
/// # Errors
///
/// Those of [`Reader::nested`] and [`Message::merge`].
#[inline]
pub fn message_merge_value<M: Message>(m: &mut M, r: &mut Reader<'_>) -> Result<(), DecodeError> {
    let mut nested = r.nested()?;
    m.merge(&mut nested)
}

/// The number an enum value the generated enum does not know (its `Unrecognized(raw)`) is
/// written as: `raw` when it is a number (as a value decoded from protobuf is), else 0, the
/// enum's unspecified value (a name only JSON knows; protobuf cannot carry it).
///
/// ```
/// use a2a_runtime::protobuf::enum_number;
///
/// assert_eq!(enum_number("7"), 7);
/// assert_eq!(enum_number("-2"), -2);
/// assert_eq!(enum_number("TASK_STATE_FROM_THE_FUTURE"), 0);
/// ```
pub fn enum_number(raw: &str) -> i32 {
    raw.parse().unwrap_or(0)
}

/// A gRPC request message of type `T` under the server's limits (its size, and its depth, as
/// for JSON), or the invalid-params fault naming where it does not decode: what a generated
/// module's gRPC decoder calls.
#[doc(hidden)]
pub fn grpc_decode<T: Message>(
    body: &[u8],
    limits: &crate::limits::Limits,
) -> Result<T, crate::fault::Fault> {
    T::decode_with(body, wire_limits(limits)).map_err(|e| {
        let path = e.path();
        let field = if path.is_empty() {
            "request".to_owned()
        } else {
            path
        };
        crate::fault::Fault::bad_field(crate::RequestId::Null, field, e.kind().to_string())
    })
}

/// The method table's `requires` over a decoded gRPC request: the invalid-params fault naming
/// the missing fields (as on the JSON bindings, without the `params.` prefix).
#[doc(hidden)]
pub fn grpc_require(method: &str, checks: &[(&str, bool)]) -> Result<(), crate::fault::Fault> {
    crate::rest::server::require(method, checks)
}

/// The request message of a gRPC call whose params are a `T` (`None`: they are not): what a
/// generated module's gRPC client codec calls.
#[doc(hidden)]
pub fn grpc_encode_params<T: Message + 'static>(params: &dyn std::any::Any) -> Option<Vec<u8>> {
    params.downcast_ref::<T>().map(Message::encode_to_vec)
}

/// A gRPC reply message read as a `T` under the client's limits, boxed for the client to take
/// back as the method's result type; the error as it displays.
#[doc(hidden)]
pub fn grpc_decode_result<T: Message + Send + 'static>(
    bytes: &[u8],
    limits: &crate::limits::Limits,
) -> Result<Box<dyn std::any::Any + Send>, String> {
    T::decode_with(bytes, wire_limits(limits))
        .map(|value| Box::new(value) as Box<dyn std::any::Any + Send>)
        .map_err(|e| e.to_string())
}

/// The JSON limits of a server or client as the protobuf reader's: the same depth, the body
/// size as the longest input.
fn wire_limits(limits: &crate::limits::Limits) -> Limits {
    Limits {
        max_depth: u32::try_from(limits.max_depth()).unwrap_or(u32::MAX),
        max_len: limits.max_body_bytes(),
    }
}
