//! [`ProtoField`] for the scalar kinds: `string`, `bool`, `int32`, `int64`, `uint64`, `double`
//! and `bytes`.

use super::encode::{encode_varint, varint_len};
use super::error::{DecodeError, DecodeErrorKind};
use super::reader::{Reader, WireType};
use super::ProtoField;
use crate::Bytes;

/// `string`: LEN, UTF-8 checked on decode ([`DecodeErrorKind::InvalidUtf8`]).
impl ProtoField for String {
    const WIRE: WireType = WireType::Len;

    #[inline]
    fn encode_value(&self, buf: &mut Vec<u8>) {
        encode_varint(self.len() as u64, buf);
        buf.extend_from_slice(self.as_bytes());
    }

    #[inline]
    fn value_len(&self) -> usize {
        varint_len(self.len() as u64) + self.len()
    }

    #[inline]
    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let bytes = r.read_len_delimited()?;
        let s = std::str::from_utf8(bytes)
            .map_err(|_| DecodeError::new(DecodeErrorKind::InvalidUtf8))?;
        self.clear();
        self.push_str(s);
        Ok(())
    }

    #[inline]
    fn is_default(&self) -> bool {
        self.is_empty()
    }
}

/// `bytes`: LEN.
impl ProtoField for Bytes {
    const WIRE: WireType = WireType::Len;

    #[inline]
    fn encode_value(&self, buf: &mut Vec<u8>) {
        encode_varint(self.0.len() as u64, buf);
        buf.extend_from_slice(&self.0);
    }

    #[inline]
    fn value_len(&self) -> usize {
        varint_len(self.0.len() as u64) + self.0.len()
    }

    #[inline]
    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let bytes = r.read_len_delimited()?;
        self.0.clear();
        self.0.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn is_default(&self) -> bool {
        self.0.is_empty()
    }
}

/// `bool`: a varint, written as 0 or 1; any non-zero varint reads as `true`.
impl ProtoField for bool {
    const WIRE: WireType = WireType::Varint;
    const PACKED: bool = true;

    #[inline]
    fn encode_value(&self, buf: &mut Vec<u8>) {
        buf.push(u8::from(*self));
    }

    #[inline]
    fn value_len(&self) -> usize {
        1
    }

    #[inline]
    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        *self = r.read_varint()? != 0;
        Ok(())
    }

    #[inline]
    fn is_default(&self) -> bool {
        !*self
    }
}

/// The integer kinds, each a varint of its value as 64 bits (`as_u64`) read back with `from_u64`:
/// `int32` (and enums' numbers) sign-extended, so a negative one takes 10 bytes, and read as the
/// varint's low 32 bits; `int64` as its two's complement; `uint64` as it is.
macro_rules! varint_field {
    ($($ty:ty: $kind:literal, |$v:ident| $as_u64:expr, |$w:ident| $from_u64:expr;)*) => {$(
        #[doc = concat!("`", $kind, "`: a varint (see `varint_field!`).")]
        impl ProtoField for $ty {
            const WIRE: WireType = WireType::Varint;
            const PACKED: bool = true;

            #[inline]
            fn encode_value(&self, buf: &mut Vec<u8>) {
                let $v = *self;
                encode_varint($as_u64, buf);
            }

            #[inline]
            fn value_len(&self) -> usize {
                let $v = *self;
                varint_len($as_u64)
            }

            #[inline]
            fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
                let $w = r.read_varint()?;
                *self = $from_u64;
                Ok(())
            }

            #[inline]
            fn is_default(&self) -> bool {
                *self == 0
            }
        }
    )*};
}

varint_field! {
    i32: "int32", |v| i64::from(v) as u64, |w| w as i32;
    i64: "int64", |v| v as u64, |w| w as i64;
    u64: "uint64", |v| v, |w| w;
}

/// `double`: eight little-endian bytes. Only positive zero is the default: `-0.0` is written,
/// as proto3 requires.
impl ProtoField for f64 {
    const WIRE: WireType = WireType::I64;
    const PACKED: bool = true;

    #[inline]
    fn encode_value(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.to_le_bytes());
    }

    #[inline]
    fn value_len(&self) -> usize {
        8
    }

    #[inline]
    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        *self = f64::from_bits(r.read_fixed64()?);
        Ok(())
    }

    #[inline]
    fn is_default(&self) -> bool {
        self.to_bits() == 0
    }
}
