//! [`ProtoField`] for the well-known types the data model uses, over the runtime's own types:
//! `google.protobuf.Timestamp` ([`Timestamp`]), `google.protobuf.Value` ([`Value`]) and
//! `google.protobuf.Struct` (`Map<String, Value>`); `google.protobuf.ListValue` travels inside
//! `Value` (a JSON array).
//!
//! ```text
//! message Timestamp { int64 seconds = 1; int32 nanos = 2; }
//! message Value {
//!   oneof kind {
//!     NullValue null_value = 1; double number_value = 2; string string_value = 3;
//!     bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6;
//!   }
//! }
//! message Struct { map<string, Value> fields = 1; }
//! message ListValue { repeated Value values = 1; }
//! ```

use serde_json::{Map, Number, Value};

use super::encode::{
    encode, encode_entry, encode_implicit, encode_key, encode_varint, encoded_entry_len,
    encoded_len, encoded_len_implicit, key_len, varint_len,
};
use super::error::DecodeError;
use super::field::{merge, merge_repeated, read_entry};
use super::reader::{Reader, WireType};
use super::{merge_fields, ProtoField};
use crate::Timestamp;

// ---- google.protobuf.Timestamp ----

fn timestamp_field(number: u32) -> Option<&'static str> {
    match number {
        1 => Some("seconds"),
        2 => Some("nanos"),
        _ => None,
    }
}

/// The instant `t` denotes as `(seconds, nanos)`: the RFC 3339 text's, or the [`raw`] form's
/// (a timestamp RFC 3339 cannot write), or the epoch when it denotes none.
fn instant(t: &Timestamp) -> (i64, i32) {
    // What a decoded field starts from (`ProtoField::fresh`, empty, or the default, the epoch):
    // merging into it must not pay for a parse (a third of a timestamp's decoding cost).
    if t.as_str().is_empty() || t.as_str() == "1970-01-01T00:00:00Z" {
        return (0, 0);
    }
    match t.parse() {
        // `nanos` is below 10^9, so it fits.
        Ok(u) => (u.seconds, u.nanos as i32),
        Err(_) => from_raw(t.as_str()).unwrap_or((0, 0)),
    }
}

/// The text of a timestamp RFC 3339 cannot write (before year 1, after 9999, or with `nanos`
/// outside `0..=999_999_999`), which a2a-sdk's parser accepts (only its JSON printer refuses it):
/// `@<seconds>,<nanos>`, the two numbers as received, so that it encodes back to the same bytes.
/// No RFC 3339 text starts with `@`, so it cannot be mistaken for one.
fn raw(seconds: i64, nanos: i32) -> Timestamp {
    Timestamp::new(format!("@{seconds},{nanos}"))
}

/// The numbers of a [`raw`] form.
fn from_raw(text: &str) -> Option<(i64, i32)> {
    let (seconds, nanos) = text.strip_prefix('@')?.split_once(',')?;
    Some((seconds.parse().ok()?, nanos.parse().ok()?))
}

fn timestamp_body_len(seconds: i64, nanos: i32) -> usize {
    encoded_len_implicit(1, &seconds) + encoded_len_implicit(2, &nanos)
}

/// `google.protobuf.Timestamp`, a message: `seconds` (1) and `nanos` (2) since the Unix epoch.
///
/// Encoding writes the instant the string parses to (`2024-01-01T01:00:00+01:00` and
/// `2024-01-01T00:00:00Z` write the same bytes). A string that does not parse (a
/// [`Timestamp`] holds any string) is written as an empty message, which reads back as the
/// epoch: protobuf has no way to carry it.
///
/// Decoding formats the instant in the canonical form ([`Timestamp::from_unix`]: UTC, `Z`, 0,
/// 3, 6 or 9 fractional digits). One outside `0001-01-01T00:00:00Z` to
/// `9999-12-31T23:59:59.999999999Z`, or with `nanos` outside `0..=999_999_999`, is no error
/// (a2a-sdk's parser takes it): it is kept as the text `@<seconds>,<nanos>`, which no RFC 3339
/// reader takes for a time and which encodes back to the same numbers. Like any message, a
/// second occurrence of the field merges into the first: a member it leaves out keeps its value.
impl ProtoField for Timestamp {
    const WIRE: WireType = WireType::Len;

    fn encode_value(&self, buf: &mut Vec<u8>) {
        let (seconds, nanos) = instant(self);
        encode_varint(timestamp_body_len(seconds, nanos) as u64, buf);
        encode_implicit(1, &seconds, buf);
        encode_implicit(2, &nanos, buf);
    }

    fn value_len(&self) -> usize {
        let (seconds, nanos) = instant(self);
        let body = timestamp_body_len(seconds, nanos);
        varint_len(body as u64) + body
    }

    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let mut r = r.nested()?;
        let (mut seconds, mut nanos) = instant(self);
        merge_fields(
            &mut r,
            "Timestamp",
            timestamp_field,
            |number, wire, r| match number {
                1 => merge(1, wire, &mut seconds, r),
                2 => merge(2, wire, &mut nanos, r),
                _ => r.skip(number, wire),
            },
        )?;
        let canonical = u32::try_from(nanos).is_ok_and(|n| self.set_unix(seconds, n).is_ok());
        if !canonical {
            *self = raw(seconds, nanos);
        }
        Ok(())
    }

    /// Always `false`: a message field is written whenever it is set.
    fn is_default(&self) -> bool {
        false
    }

    /// An empty string, not the epoch's text: `merge_value` replaces it whole, and an empty
    /// timestamp means the epoch to it (no allocation before the one the value needs).
    fn fresh() -> Self {
        Timestamp::new(String::new())
    }
}

// ---- google.protobuf.Value ----

fn value_field(number: u32) -> Option<&'static str> {
    match number {
        1 => Some("null_value"),
        2 => Some("number_value"),
        3 => Some("string_value"),
        4 => Some("bool_value"),
        5 => Some("struct_value"),
        6 => Some("list_value"),
        _ => None,
    }
}

fn list_field(number: u32) -> Option<&'static str> {
    (number == 1).then_some("values")
}

fn struct_field(number: u32) -> Option<&'static str> {
    (number == 1).then_some("fields")
}

/// The largest integer a double holds exactly, and every one below it: 2^53.
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A `number_value` as JSON: an integer when it is integral and within ±2^53, a float
/// otherwise; `null` for NaN and the infinities, which JSON cannot write.
fn number_value(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() <= MAX_EXACT_INTEGER {
        // Integral and within ±2^53, so the conversion is exact (`-0.0` becomes 0).
        Value::Number(Number::from(f as i64))
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// The double a JSON number is written as (exact up to 2^53; larger integers round).
fn number_double(n: &Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// The body of a `ListValue`: each element as field 1.
fn list_body_len(list: &[Value]) -> usize {
    list.iter().map(|v| encoded_len(1, v)).sum()
}

/// The body of a `Struct`: each member as an entry of map field 1.
fn struct_body_len(map: &Map<String, Value>) -> usize {
    map.iter().map(|(k, v)| encoded_entry_len(1, k, v)).sum()
}

/// The body of a `Value`: its one member.
fn value_body_len(v: &Value) -> usize {
    match v {
        // A key byte, then a one-byte varint (0, or the bool).
        Value::Null | Value::Bool(_) => 2,
        Value::Number(_) => 9,
        Value::String(s) => encoded_len(3, s),
        Value::Array(list) => {
            let body = list_body_len(list);
            key_len(6) + varint_len(body as u64) + body
        }
        Value::Object(map) => encoded_len(5, map),
    }
}

/// Merges a `ListValue` into `list`: its elements are appended.
fn merge_list(list: &mut Vec<Value>, r: &mut Reader<'_>) -> Result<(), DecodeError> {
    let mut r = r.nested()?;
    merge_fields(&mut r, "ListValue", list_field, |number, wire, r| {
        if number == 1 {
            merge_repeated(1, wire, list, r)
        } else {
            r.skip(number, wire)
        }
    })
}

/// `google.protobuf.Value`, a message whose oneof is the JSON value's kind.
///
/// Numbers are written as doubles (`number_value`), so integers beyond ±2^53 lose precision. A
/// decoded double that is integral and within ±2^53 becomes an integer (`3.0` reads back as
/// `3`, `-0.0` as `0`), any other finite one a float; NaN and the infinities, which JSON
/// cannot write, become `null`. A `Value` with no member set decodes to `null`. As with any
/// oneof, the last member on the wire wins; a `struct_value` or `list_value` following one of
/// the same member merges into it (members added, elements appended).
///
/// Each `Value`, `Struct` and `ListValue` is one level of nesting toward
/// [`Limits::max_depth`](super::Limits::max_depth) (a JSON array in an array is two levels).
impl ProtoField for Value {
    const WIRE: WireType = WireType::Len;

    fn encode_value(&self, buf: &mut Vec<u8>) {
        encode_varint(value_body_len(self) as u64, buf);
        match self {
            Value::Null => {
                encode_key(1, WireType::Varint, buf);
                buf.push(0);
            }
            Value::Bool(b) => encode(4, b, buf),
            Value::Number(n) => encode(2, &number_double(n), buf),
            Value::String(s) => encode(3, s, buf),
            Value::Array(list) => {
                encode_key(6, WireType::Len, buf);
                encode_varint(list_body_len(list) as u64, buf);
                for v in list {
                    encode(1, v, buf);
                }
            }
            Value::Object(map) => encode(5, map, buf),
        }
    }

    fn value_len(&self) -> usize {
        let body = value_body_len(self);
        varint_len(body as u64) + body
    }

    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let mut r = r.nested()?;
        merge_fields(&mut r, "Value", value_field, |number, wire, r| {
            match (number, wire) {
                (1, WireType::Varint) => {
                    r.read_varint()?;
                    *self = Value::Null;
                }
                (2, WireType::I64) => *self = number_value(f64::from_bits(r.read_fixed64()?)),
                (3, WireType::Len) => {
                    let mut s = String::new();
                    s.merge_value(r)?;
                    *self = Value::String(s);
                }
                (4, WireType::Varint) => *self = Value::Bool(r.read_varint()? != 0),
                (5, WireType::Len) => {
                    let mut map = match std::mem::take(self) {
                        Value::Object(map) => map,
                        _ => Map::new(),
                    };
                    let result = map.merge_value(r);
                    *self = Value::Object(map);
                    result?;
                }
                (6, WireType::Len) => {
                    let mut list = match std::mem::take(self) {
                        Value::Array(list) => list,
                        _ => Vec::new(),
                    };
                    let result = merge_list(&mut list, r);
                    *self = Value::Array(list);
                    result?;
                }
                _ => r.skip(number, wire)?,
            }
            Ok(())
        })
    }

    /// Always `false`: a message field is written whenever it is set.
    fn is_default(&self) -> bool {
        false
    }
}

/// `google.protobuf.Struct`, a message with one map field, `fields` (1), of string to
/// [`Value`]. Members are written in the map's order; when a name comes twice on the wire the
/// last one wins.
impl ProtoField for Map<String, Value> {
    const WIRE: WireType = WireType::Len;

    fn encode_value(&self, buf: &mut Vec<u8>) {
        encode_varint(struct_body_len(self) as u64, buf);
        for (k, v) in self {
            encode_entry(1, k, v, buf);
        }
    }

    fn value_len(&self) -> usize {
        let body = struct_body_len(self);
        varint_len(body as u64) + body
    }

    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let mut r = r.nested()?;
        merge_fields(&mut r, "Struct", struct_field, |number, wire, r| {
            if number == 1 && wire == WireType::Len {
                let (k, v) = read_entry::<Value>(r)?;
                self.insert(k, v);
                Ok(())
            } else {
                r.skip(number, wire)
            }
        })
    }

    /// Always `false`: a message field is written whenever it is set.
    fn is_default(&self) -> bool {
        false
    }
}
