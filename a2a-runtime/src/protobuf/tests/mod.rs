//! Tests of the protobuf codec, over hand-written messages shaped like generated ones.

mod fields;
mod wire;
mod wkt;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::*;
use crate::{Bytes, Timestamp};

/// `message Inner { int32 id = 1; string name = 2; repeated string tags = 3; }`
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Inner {
    pub(super) id: i32,
    pub(super) name: String,
    pub(super) tags: Vec<String>,
}

impl Message for Inner {
    const NAME: &'static str = "Inner";

    fn field_name(number: u32) -> Option<&'static str> {
        match number {
            1 => Some("id"),
            2 => Some("name"),
            3 => Some("tags"),
            _ => None,
        }
    }

    fn encode_raw(&self, buf: &mut Vec<u8>) {
        encode_implicit(1, &self.id, buf);
        encode_implicit(2, &self.name, buf);
        encode_repeated(3, &self.tags, buf);
    }

    fn encoded_len(&self) -> usize {
        encoded_len_implicit(1, &self.id)
            + encoded_len_implicit(2, &self.name)
            + encoded_len_repeated(3, &self.tags)
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => merge(1, wire, &mut self.id, r),
            2 => merge(2, wire, &mut self.name, r),
            3 => merge_repeated(3, wire, &mut self.tags, r),
            _ => r.skip(number, wire),
        }
    }
}

impl ProtoField for Inner {
    const WIRE: WireType = WireType::Len;

    fn encode_value(&self, buf: &mut Vec<u8>) {
        message_encode_value(self, buf)
    }

    fn value_len(&self) -> usize {
        message_value_len(self)
    }

    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        message_merge_value(self, r)
    }

    fn is_default(&self) -> bool {
        false
    }
}

/// An open enum, as generated: `enum Color { COLOR_UNSPECIFIED = 0; RED = 1; BLUE = 2; }`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum Color {
    #[default]
    Unspecified,
    Red,
    Blue,
    Unrecognized(i32),
}

impl Color {
    fn number(self) -> i32 {
        match self {
            Color::Unspecified => 0,
            Color::Red => 1,
            Color::Blue => 2,
            Color::Unrecognized(n) => n,
        }
    }
}

impl ProtoField for Color {
    const WIRE: WireType = WireType::Varint;
    const PACKED: bool = true;

    fn encode_value(&self, buf: &mut Vec<u8>) {
        self.number().encode_value(buf)
    }

    fn value_len(&self) -> usize {
        self.number().value_len()
    }

    fn merge_value(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let mut n = 0i32;
        n.merge_value(r)?;
        *self = match n {
            0 => Color::Unspecified,
            1 => Color::Red,
            2 => Color::Blue,
            n => Color::Unrecognized(n),
        };
        Ok(())
    }

    fn is_default(&self) -> bool {
        self.number() == 0
    }
}

/// A message with a field of every kind and presence.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Outer {
    pub(super) int32: i32,                        // 1
    pub(super) int64: i64,                        // 2
    pub(super) uint64: u64,                       // 3
    pub(super) double: f64,                       // 4
    pub(super) flag: bool,                        // 5
    pub(super) text: String,                      // 6
    pub(super) data: Bytes,                       // 7
    pub(super) inner: Option<Inner>,              // 8
    pub(super) inners: Vec<Inner>,                // 9
    pub(super) nums: Vec<i32>,                    // 10
    pub(super) labels: BTreeMap<String, String>,  // 11
    pub(super) children: BTreeMap<String, Inner>, // 12
    pub(super) when: Option<Timestamp>,           // 13
    pub(super) meta: Option<Map<String, Value>>,  // 14
    pub(super) value: Option<Value>,              // 15
    pub(super) opt_text: Option<String>,          // 16
    pub(super) color: Color,                      // 17
    pub(super) colors: Vec<Color>,                // 18
    pub(super) doubles: Vec<f64>,                 // 19
    pub(super) far: u64,                          // 536870911
}

pub(super) const FAR: u32 = MAX_FIELD_NUMBER;

impl Message for Outer {
    const NAME: &'static str = "Outer";

    fn field_name(number: u32) -> Option<&'static str> {
        Some(match number {
            1 => "int32",
            2 => "int64",
            3 => "uint64",
            4 => "double",
            5 => "flag",
            6 => "text",
            7 => "data",
            8 => "inner",
            9 => "inners",
            10 => "nums",
            11 => "labels",
            12 => "children",
            13 => "when",
            14 => "meta",
            15 => "value",
            16 => "opt_text",
            17 => "color",
            18 => "colors",
            19 => "doubles",
            FAR => "far",
            _ => return None,
        })
    }

    fn encode_raw(&self, buf: &mut Vec<u8>) {
        encode_implicit(1, &self.int32, buf);
        encode_implicit(2, &self.int64, buf);
        encode_implicit(3, &self.uint64, buf);
        encode_implicit(4, &self.double, buf);
        encode_implicit(5, &self.flag, buf);
        encode_implicit(6, &self.text, buf);
        encode_implicit(7, &self.data, buf);
        encode_option(8, &self.inner, buf);
        encode_repeated(9, &self.inners, buf);
        encode_repeated(10, &self.nums, buf);
        encode_map(11, &self.labels, buf);
        encode_map(12, &self.children, buf);
        encode_option(13, &self.when, buf);
        encode_option(14, &self.meta, buf);
        encode_option(15, &self.value, buf);
        encode_option(16, &self.opt_text, buf);
        encode_implicit(17, &self.color, buf);
        encode_repeated(18, &self.colors, buf);
        encode_repeated(19, &self.doubles, buf);
        encode_implicit(FAR, &self.far, buf);
    }

    fn encoded_len(&self) -> usize {
        encoded_len_implicit(1, &self.int32)
            + encoded_len_implicit(2, &self.int64)
            + encoded_len_implicit(3, &self.uint64)
            + encoded_len_implicit(4, &self.double)
            + encoded_len_implicit(5, &self.flag)
            + encoded_len_implicit(6, &self.text)
            + encoded_len_implicit(7, &self.data)
            + encoded_len_option(8, &self.inner)
            + encoded_len_repeated(9, &self.inners)
            + encoded_len_repeated(10, &self.nums)
            + encoded_len_map(11, &self.labels)
            + encoded_len_map(12, &self.children)
            + encoded_len_option(13, &self.when)
            + encoded_len_option(14, &self.meta)
            + encoded_len_option(15, &self.value)
            + encoded_len_option(16, &self.opt_text)
            + encoded_len_implicit(17, &self.color)
            + encoded_len_repeated(18, &self.colors)
            + encoded_len_repeated(19, &self.doubles)
            + encoded_len_implicit(FAR, &self.far)
    }

    fn merge_field(
        &mut self,
        number: u32,
        wire: WireType,
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        match number {
            1 => merge(1, wire, &mut self.int32, r),
            2 => merge(2, wire, &mut self.int64, r),
            3 => merge(3, wire, &mut self.uint64, r),
            4 => merge(4, wire, &mut self.double, r),
            5 => merge(5, wire, &mut self.flag, r),
            6 => merge(6, wire, &mut self.text, r),
            7 => merge(7, wire, &mut self.data, r),
            8 => merge_option(8, wire, &mut self.inner, r),
            9 => merge_repeated(9, wire, &mut self.inners, r),
            10 => merge_repeated(10, wire, &mut self.nums, r),
            11 => merge_map(11, wire, &mut self.labels, r),
            12 => merge_map(12, wire, &mut self.children, r),
            13 => merge_option(13, wire, &mut self.when, r),
            14 => merge_option(14, wire, &mut self.meta, r),
            15 => merge_option(15, wire, &mut self.value, r),
            16 => merge_option(16, wire, &mut self.opt_text, r),
            17 => merge(17, wire, &mut self.color, r),
            18 => merge_repeated(18, wire, &mut self.colors, r),
            19 => merge_repeated(19, wire, &mut self.doubles, r),
            FAR => merge(FAR, wire, &mut self.far, r),
            _ => r.skip(number, wire),
        }
    }
}

/// Bytes from hex pairs separated by spaces: `"08 96 01"`.
pub(super) fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// The error decoding `bytes` as `M`.
pub(super) fn decode_err<M: Message + std::fmt::Debug>(bytes: &[u8]) -> DecodeError {
    M::decode(bytes).unwrap_err()
}

/// A message with every field set, nested messages, maps, repeated and well-known types.
pub(super) fn sample() -> Outer {
    let inner = |id: i32, name: &str| Inner {
        id,
        name: name.into(),
        tags: vec!["a".into(), String::new(), "ç".into()],
    };
    Outer {
        int32: -7,
        int64: i64::MIN,
        uint64: u64::MAX,
        double: 1.5,
        flag: true,
        text: "héllo".into(),
        data: Bytes(vec![0, 1, 2, 255]),
        inner: Some(inner(1, "one")),
        inners: vec![inner(2, "two"), Inner::default(), inner(-3, "three")],
        nums: vec![0, 1, -1, i32::MAX, i32::MIN, 300],
        labels: [
            ("k".to_owned(), "v".to_owned()),
            (String::new(), String::new()),
        ]
        .into_iter()
        .collect(),
        children: [("c".to_owned(), inner(4, "four"))].into_iter().collect(),
        when: Some(Timestamp::new("2024-01-02T03:04:05.123Z")),
        meta: Some(
            serde_json::json!({"a": [1, 2.5, null, true, "x", {"b": []}], "c": {}})
                .as_object()
                .unwrap()
                .clone(),
        ),
        value: Some(serde_json::json!([{"k": -1}, [[]]])),
        opt_text: Some(String::new()),
        color: Color::Blue,
        colors: vec![Color::Red, Color::Unrecognized(-5), Color::Unspecified],
        doubles: vec![0.0, -0.0, f64::MAX, f64::MIN_POSITIVE],
        far: 9,
    }
}
