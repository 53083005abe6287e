//! [`UnknownFields`]: the fields a message's decoder did not know, kept to be written back.

use super::{encode_key, DecodeError, Reader, WireType};

/// The fields of a message that its decoder does not know, kept as they arrived (key and value,
/// in arrival order) and written back after the known fields when the message is encoded: what
/// a type generated with `preserve_unknown_fields` and the protobuf codec holds in its
/// `unknown_protobuf_fields`, so that a message from a newer peer passes through unchanged.
///
/// Protobuf's own runtimes keep unknown fields the same way (as bytes, written after the known
/// ones). A field is kept by its number only: one this version knows, written with a wire type
/// that does not fit it, is skipped as without the option. The JSON side keeps its unknown
/// members in `unknown_fields` instead; neither is carried over to the other encoding (protobuf's
/// JSON printer drops unknown fields too).
///
/// # Examples
///
/// ```
/// use a2a_runtime::protobuf::{Limits, Reader, UnknownFields};
///
/// // Field 99 as a varint (1), then field 100 as a string ("hi").
/// let bytes = [0x98, 0x06, 0x01, 0xa2, 0x06, 0x02, b'h', b'i'];
/// let mut r = Reader::new(&bytes, Limits::default()).unwrap();
/// let mut unknown = UnknownFields::default();
/// while !r.is_empty() {
///     let (number, wire) = r.read_key().unwrap();
///     unknown.keep(number, wire, &mut r).unwrap();
/// }
/// assert_eq!(unknown.as_bytes(), bytes);
///
/// let mut out = Vec::new();
/// unknown.encode_raw(&mut out);
/// assert_eq!(out, bytes);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnknownFields(Vec<u8>);

impl UnknownFields {
    /// No fields.
    pub const fn new() -> Self {
        UnknownFields(Vec::new())
    }

    /// Whether no field is kept.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of bytes the kept fields take on the wire.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The kept fields as protobuf bytes (keys and values).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Forgets every kept field.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Reads the value of field `number` (its key, with wire type `wire`, just read from `r`)
    /// and keeps the field: what a generated `merge_field` does with a number it does not know.
    /// The key is written back in its shortest form.
    ///
    /// # Errors
    ///
    /// Those of [`Reader::skip`]: a value cut short, a group not closed, one nested too deep, an
    /// end-group key with no start. Nothing is kept then.
    pub fn keep(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        let value = r.skip_raw(number, wire)?;
        encode_key(number, wire, &mut self.0);
        self.0.extend_from_slice(value);
        Ok(())
    }

    /// Appends the kept fields to `buf`, as they arrived.
    #[inline]
    pub fn encode_raw(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.0);
    }
}
