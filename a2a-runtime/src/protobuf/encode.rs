//! The encoding side: varints and keys, and the field functions generated `encode_raw` and
//! `encoded_len` call. Encoding never fails and writes straight into the output `Vec`: every
//! length prefix is computed up front, so nothing is encoded into a temporary buffer.

use std::collections::BTreeMap;

use super::reader::{WireType, MAX_FIELD_NUMBER};
use super::ProtoField;

/// Writes `value` as a base-128 varint (1 to 10 bytes).
#[inline]
pub fn encode_varint(mut value: u64, buf: &mut Vec<u8>) {
    while value >= 0x80 {
        buf.push((value as u8) | 0x80);
        value >>= 7;
    }
    buf.push(value as u8);
}

/// The number of bytes [`encode_varint`] writes for `value`.
#[inline]
pub const fn varint_len(value: u64) -> usize {
    // Seven bits per byte; zero still takes one byte.
    let bits = 64 - (value | 1).leading_zeros();
    bits.div_ceil(7) as usize
}

/// Writes the key of field `number` with wire type `wire`.
#[inline]
pub fn encode_key(number: u32, wire: WireType, buf: &mut Vec<u8>) {
    debug_assert!(
        (1..=MAX_FIELD_NUMBER).contains(&number),
        "field number {number}"
    );
    encode_varint((u64::from(number) << 3) | u64::from(wire.number()), buf);
}

/// The number of bytes [`encode_key`] writes for field `number`.
#[inline]
pub const fn key_len(number: u32) -> usize {
    varint_len((number as u64) << 3)
}

/// Writes field `number` (key and value), whatever its value: a oneof member, an
/// explicit-presence field that is set, a map entry's key or value.
#[inline]
pub fn encode<V: ProtoField>(number: u32, v: &V, buf: &mut Vec<u8>) {
    encode_key(number, V::WIRE, buf);
    v.encode_value(buf);
}

/// The number of bytes [`encode`] writes.
#[inline]
pub fn encoded_len<V: ProtoField>(number: u32, v: &V) -> usize {
    key_len(number) + v.value_len()
}

/// Writes field `number` unless `v` is proto3's default ([`ProtoField::is_default`]): an
/// implicit-presence (plain proto3) field.
#[inline]
pub fn encode_implicit<V: ProtoField>(number: u32, v: &V, buf: &mut Vec<u8>) {
    if !v.is_default() {
        encode(number, v, buf);
    }
}

/// The number of bytes [`encode_implicit`] writes.
#[inline]
pub fn encoded_len_implicit<V: ProtoField>(number: u32, v: &V) -> usize {
    if v.is_default() {
        0
    } else {
        encoded_len(number, v)
    }
}

/// Writes field `number` when `v` is `Some`: an explicit-presence field (`optional`, or a
/// message).
#[inline]
pub fn encode_option<V: ProtoField>(number: u32, v: &Option<V>, buf: &mut Vec<u8>) {
    if let Some(v) = v {
        encode(number, v, buf);
    }
}

/// The number of bytes [`encode_option`] writes.
#[inline]
pub fn encoded_len_option<V: ProtoField>(number: u32, v: &Option<V>) -> usize {
    v.as_ref().map_or(0, |v| encoded_len(number, v))
}

/// The total of the values' lengths, without keys.
#[inline]
fn values_len<V: ProtoField>(v: &[V]) -> usize {
    v.iter().map(ProtoField::value_len).sum()
}

/// Writes repeated field `number`: packed (one key, a length, the values) when
/// [`ProtoField::PACKED`], else one key and value per element. Nothing when `v` is empty.
pub fn encode_repeated<V: ProtoField>(number: u32, v: &[V], buf: &mut Vec<u8>) {
    if v.is_empty() {
        return;
    }
    if V::PACKED {
        encode_key(number, WireType::Len, buf);
        encode_varint(values_len(v) as u64, buf);
        for x in v {
            x.encode_value(buf);
        }
    } else {
        for x in v {
            encode(number, x, buf);
        }
    }
}

/// The number of bytes [`encode_repeated`] writes.
pub fn encoded_len_repeated<V: ProtoField>(number: u32, v: &[V]) -> usize {
    if v.is_empty() {
        return 0;
    }
    let values = values_len(v);
    if V::PACKED {
        key_len(number) + varint_len(values as u64) + values
    } else {
        key_len(number) * v.len() + values
    }
}

/// The length of a map entry's body: the key (field 1) and the value (field 2), both always
/// written.
#[inline]
pub(crate) fn entry_len<V: ProtoField>(key: &String, value: &V) -> usize {
    encoded_len(1, key) + encoded_len(2, value)
}

/// Writes one map entry of field `number`: key, length, then the entry's two fields.
#[inline]
pub(crate) fn encode_entry<V: ProtoField>(number: u32, key: &String, value: &V, buf: &mut Vec<u8>) {
    encode_key(number, WireType::Len, buf);
    encode_varint(entry_len(key, value) as u64, buf);
    encode(1, key, buf);
    encode(2, value, buf);
}

/// The number of bytes [`encode_entry`] writes.
#[inline]
pub(crate) fn encoded_entry_len<V: ProtoField>(number: u32, key: &String, value: &V) -> usize {
    let body = entry_len(key, value);
    key_len(number) + varint_len(body as u64) + body
}

/// Writes map field `number`: one entry message per pair, in key order, its key as field 1
/// (`string`) and its value as field 2, both always written (as protobuf's C++ runtime does).
pub fn encode_map<V: ProtoField>(number: u32, v: &BTreeMap<String, V>, buf: &mut Vec<u8>) {
    for (key, value) in v {
        encode_entry(number, key, value, buf);
    }
}

/// The number of bytes [`encode_map`] writes.
pub fn encoded_len_map<V: ProtoField>(number: u32, v: &BTreeMap<String, V>) -> usize {
    v.iter()
        .map(|(key, value)| encoded_entry_len(number, key, value))
        .sum()
}
