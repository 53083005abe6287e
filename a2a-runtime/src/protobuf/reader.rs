//! The decoding side's primitives: wire types, limits, and the [`Reader`] cursor.

use super::error::{DecodeError, DecodeErrorKind};

/// The largest field number protobuf allows, 2^29 - 1.
pub const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// How a field's value is laid out on the wire: the low three bits of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireType {
    /// 0: a base-128 varint (`int32`, `int64`, `uint64`, `bool`, enums).
    Varint,
    /// 1: eight little-endian bytes (`double`, `fixed64`).
    I64,
    /// 2: a varint length, then that many bytes (strings, bytes, messages, packed repeated
    /// fields, map entries).
    Len,
    /// 3: the start of a group (proto2's deprecated nested messages); only skipped here.
    StartGroup,
    /// 4: the end of a group.
    EndGroup,
    /// 5: four little-endian bytes (`float`, `fixed32`).
    I32,
}

impl WireType {
    /// The wire type of number `n`, or `None` for 6 and above.
    #[inline]
    pub const fn from_number(n: u8) -> Option<WireType> {
        Some(match n {
            0 => WireType::Varint,
            1 => WireType::I64,
            2 => WireType::Len,
            3 => WireType::StartGroup,
            4 => WireType::EndGroup,
            5 => WireType::I32,
            _ => return None,
        })
    }

    /// This wire type's number, `0..=5`.
    #[inline]
    pub const fn number(self) -> u8 {
        self as u8
    }
}

/// Limits on what decoding accepts.
///
/// ```
/// use a2a_runtime::protobuf::Limits;
///
/// let limits = Limits { max_len: 1024, ..Limits::default() };
/// assert_eq!(limits.max_depth, 100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// How deeply messages (and groups, and `Struct`/`Value`/`ListValue`) may nest: the
    /// outermost message is at depth 0, a message in one of its fields at depth 1. Decoding
    /// recurses once per level, so this also bounds the stack it uses.
    pub max_depth: u32,
    /// The longest input, and the longest length prefix in it, in bytes.
    pub max_len: usize,
}

impl Limits {
    /// Depth 100 (protobuf's own recursion limit) and 64 MiB.
    pub const DEFAULT: Limits = Limits {
        max_depth: 100,
        max_len: 64 * 1024 * 1024,
    };
}

impl Default for Limits {
    /// [`Limits::DEFAULT`]: depth 100, 64 MiB.
    fn default() -> Self {
        Limits::DEFAULT
    }
}

#[cold]
fn err(kind: DecodeErrorKind) -> DecodeError {
    DecodeError::new(kind)
}

/// A cursor over a buffer being decoded: reads keys and values from the front, and knows how
/// deeply it is nested.
///
/// Every read either returns a value and moves past it, or fails with a [`DecodeError`] (never
/// a panic), whatever the input.
///
/// ```
/// use a2a_runtime::protobuf::{Limits, Reader, WireType};
///
/// let mut r = Reader::new(&[0x08, 0x96, 0x01], Limits::default()).unwrap();
/// assert_eq!(r.read_key().unwrap(), (1, WireType::Varint));
/// assert_eq!(r.read_varint().unwrap(), 150);
/// assert!(r.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    depth: u32,
    limits: Limits,
}

impl<'a> Reader<'a> {
    /// A reader over all of `buf`, at depth 0.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::TooLarge`] when `buf` is longer than `limits.max_len`.
    pub fn new(buf: &'a [u8], limits: Limits) -> Result<Self, DecodeError> {
        if buf.len() > limits.max_len {
            return Err(err(DecodeErrorKind::TooLarge {
                len: buf.len(),
                limit: limits.max_len,
            }));
        }
        Ok(Reader {
            buf,
            depth: 0,
            limits,
        })
    }

    /// A reader over `buf` at this reader's depth (for packed values, which do not nest).
    #[inline]
    pub(crate) fn sub(&self, buf: &'a [u8]) -> Reader<'a> {
        Reader {
            buf,
            depth: self.depth,
            limits: self.limits,
        }
    }

    /// Whether everything has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// How many bytes are left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// How deeply this reader is nested (0 for the outermost message).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The limits this reader (and every reader nested in it) checks.
    #[inline]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Reads a key: the field number and the wire type.
    ///
    /// # Errors
    ///
    /// Those of [`Reader::read_varint`]; [`DecodeErrorKind::InvalidFieldNumber`] for a field
    /// number of 0 or above 2^29 - 1; [`DecodeErrorKind::InvalidWireType`] for 6 or 7.
    #[inline]
    pub fn read_key(&mut self) -> Result<(u32, WireType), DecodeError> {
        let key = self.read_varint()?;
        let number = key >> 3;
        if number == 0 || number > u64::from(MAX_FIELD_NUMBER) {
            return Err(err(DecodeErrorKind::InvalidFieldNumber(number)));
        }
        let wire = (key & 7) as u8;
        match WireType::from_number(wire) {
            // The check above keeps `number` within u32.
            Some(wire) => Ok((number as u32, wire)),
            None => Err(err(DecodeErrorKind::InvalidWireType(wire))),
        }
    }

    /// Reads a base-128 varint (up to 10 bytes, least significant group first).
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::Truncated`] when the input ends inside it;
    /// [`DecodeErrorKind::VarintTooLong`] when it runs past 10 bytes (a 10th byte above 1 is read:
    /// its bits past 64 are dropped, as upb drops them).
    #[inline]
    pub fn read_varint(&mut self) -> Result<u64, DecodeError> {
        // The common case: one byte.
        if let Some((&b, rest)) = self.buf.split_first() {
            if b < 0x80 {
                self.buf = rest;
                return Ok(u64::from(b));
            }
        }
        self.read_varint_slow()
    }

    fn read_varint_slow(&mut self) -> Result<u64, DecodeError> {
        let mut value = 0u64;
        for (i, &b) in self.buf.iter().enumerate().take(10) {
            // The 10th byte's bits above the first fall past bit 63 and are dropped: the low 64
            // bits are the value, as a2a-sdk's parser (upb) reads it (prost refuses such a
            // varint; a reader never stricter than the SDK cannot).
            value |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.buf = self.buf.get(i + 1..).unwrap_or_default();
                return Ok(value);
            }
        }
        if self.buf.len() >= 10 {
            // Ten bytes, every one with its continuation bit set.
            Err(err(DecodeErrorKind::VarintTooLong))
        } else {
            // Fewer than ten, every one with its continuation bit set.
            Err(err(DecodeErrorKind::Truncated))
        }
    }

    /// Reads four little-endian bytes (`fixed32`, `float`).
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::Truncated`] when fewer than four bytes are left.
    #[inline]
    pub fn read_fixed32(&mut self) -> Result<u32, DecodeError> {
        match self.buf.split_first_chunk::<4>() {
            Some((bytes, rest)) => {
                self.buf = rest;
                Ok(u32::from_le_bytes(*bytes))
            }
            None => Err(err(DecodeErrorKind::Truncated)),
        }
    }

    /// Reads eight little-endian bytes (`fixed64`, `double`).
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::Truncated`] when fewer than eight bytes are left.
    #[inline]
    pub fn read_fixed64(&mut self) -> Result<u64, DecodeError> {
        match self.buf.split_first_chunk::<8>() {
            Some((bytes, rest)) => {
                self.buf = rest;
                Ok(u64::from_le_bytes(*bytes))
            }
            None => Err(err(DecodeErrorKind::Truncated)),
        }
    }

    /// Reads a varint length and returns that many bytes.
    ///
    /// # Errors
    ///
    /// Those of [`Reader::read_varint`]; [`DecodeErrorKind::TooLarge`] when the length is over
    /// [`Limits::max_len`]; [`DecodeErrorKind::Truncated`] when it is over what is left.
    #[inline]
    pub fn read_len_delimited(&mut self) -> Result<&'a [u8], DecodeError> {
        let len = self.read_varint()?;
        let len = match usize::try_from(len) {
            Ok(len) if len <= self.limits.max_len => len,
            _ => {
                return Err(err(DecodeErrorKind::TooLarge {
                    len: usize::try_from(len).unwrap_or(usize::MAX),
                    limit: self.limits.max_len,
                }))
            }
        };
        match self.buf.split_at_checked(len) {
            Some((value, rest)) => {
                self.buf = rest;
                Ok(value)
            }
            None => Err(err(DecodeErrorKind::Truncated)),
        }
    }

    /// Reads a length prefix and returns a reader over that many bytes, one level deeper;
    /// this reader moves past them. Messages in fields are read through this.
    ///
    /// # Errors
    ///
    /// Those of [`Reader::read_len_delimited`]; [`DecodeErrorKind::TooDeep`] when the new
    /// reader would be deeper than [`Limits::max_depth`].
    #[inline]
    pub fn nested(&mut self) -> Result<Reader<'a>, DecodeError> {
        let buf = self.read_len_delimited()?;
        if self.depth >= self.limits.max_depth {
            return Err(self.too_deep());
        }
        Ok(Reader {
            buf,
            depth: self.depth + 1,
            limits: self.limits,
        })
    }

    #[cold]
    fn too_deep(&self) -> DecodeError {
        err(DecodeErrorKind::TooDeep {
            limit: self.limits.max_depth,
        })
    }

    /// Skips the value of field `number`, whose key (with wire type `wire`) was just read: an
    /// unknown field, or a known one written with a wire type that does not fit it. A group is
    /// skipped to its matching end-group key, groups nested in it included, each one level
    /// deeper.
    ///
    /// # Errors
    ///
    /// Those of the reads; [`DecodeErrorKind::UnexpectedEndGroup`] for `wire` =
    /// [`WireType::EndGroup`] (an end with no start) and for a group closed with another field
    /// number; [`DecodeErrorKind::Truncated`] for a group the input ends inside;
    /// [`DecodeErrorKind::TooDeep`] for groups nested past [`Limits::max_depth`].
    pub fn skip(&mut self, number: u32, wire: WireType) -> Result<(), DecodeError> {
        match wire {
            WireType::Varint => self.read_varint().map(drop),
            WireType::I64 => self.read_fixed64().map(drop),
            WireType::I32 => self.read_fixed32().map(drop),
            WireType::Len => self.read_len_delimited().map(drop),
            WireType::StartGroup => {
                if self.depth >= self.limits.max_depth {
                    return Err(self.too_deep());
                }
                self.depth += 1;
                let result = self.skip_group_body(number);
                self.depth -= 1;
                result
            }
            WireType::EndGroup => Err(err(DecodeErrorKind::UnexpectedEndGroup)),
        }
    }

    /// [`Reader::skip`], returning the bytes of the value it skipped (for a group, its fields
    /// and its end-group key): what [`UnknownFields`](super::UnknownFields) keeps.
    pub(crate) fn skip_raw(
        &mut self,
        number: u32,
        wire: WireType,
    ) -> Result<&'a [u8], DecodeError> {
        let before = self.buf;
        self.skip(number, wire)?;
        Ok(&before[..before.len() - self.buf.len()])
    }

    /// Skips fields up to and including the end-group key of field `number`.
    fn skip_group_body(&mut self, number: u32) -> Result<(), DecodeError> {
        loop {
            let (n, wire) = self.read_key()?;
            if wire == WireType::EndGroup {
                return if n == number {
                    Ok(())
                } else {
                    Err(err(DecodeErrorKind::UnexpectedEndGroup))
                };
            }
            self.skip(n, wire)?;
        }
    }
}
