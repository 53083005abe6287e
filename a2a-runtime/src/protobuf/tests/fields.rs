//! The scalar kinds, presence, repeated fields, maps, merging and error paths.

use super::*;

/// Encodes `v` as field 1 and reads it back into a fresh value.
fn round_trip<V: ProtoField + std::fmt::Debug>(v: &V) -> V {
    let mut buf = Vec::new();
    encode(1, v, &mut buf);
    assert_eq!(buf.len(), encoded_len(1, v), "{v:?}");
    let mut r = Reader::new(&buf, Limits::default()).unwrap();
    let (number, wire) = r.read_key().unwrap();
    assert_eq!((number, wire), (1, V::WIRE));
    let mut out = V::default();
    assert!(merge_fresh(number, wire, &mut out, &mut r).unwrap());
    assert!(r.is_empty());
    out
}

#[test]
fn scalars_round_trip_with_edge_values() {
    for v in [0, 1, -1, 127, 128, i32::MAX, i32::MIN] {
        assert_eq!(round_trip(&v), v);
    }
    for v in [0, 1, -1, i64::MAX, i64::MIN] {
        assert_eq!(round_trip(&v), v);
    }
    for v in [0, 1, u64::from(u32::MAX) + 1, u64::MAX - 1, u64::MAX] {
        assert_eq!(round_trip(&v), v);
    }
    for v in [
        0.0,
        -0.0,
        1.5,
        -1e308,
        f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        assert_eq!(round_trip(&v).to_bits(), v.to_bits());
    }
    for v in [false, true] {
        assert_eq!(round_trip(&v), v);
    }
    for v in ["", "a", "héllo wörld ✓ 𝄞", &"x".repeat(300)] {
        assert_eq!(round_trip(&v.to_owned()), v);
    }
    for v in [vec![], vec![0u8], (0..=255).collect::<Vec<u8>>()] {
        assert_eq!(round_trip(&Bytes(v.clone())), Bytes(v));
    }
    for v in [
        Color::Unspecified,
        Color::Red,
        Color::Blue,
        Color::Unrecognized(-9),
    ] {
        assert_eq!(round_trip(&v), v);
    }
}

#[test]
fn the_whole_sample_round_trips() {
    let sample = sample();
    let bytes = sample.encode_to_vec();
    assert_eq!(bytes.len(), sample.encoded_len());
    let back = Outer::decode(&bytes).unwrap();
    assert_eq!(back, sample);
    assert_eq!(back.doubles[1].to_bits(), (-0.0f64).to_bits());
    let mut appended = vec![0xaa];
    sample.encode(&mut appended);
    assert_eq!(appended[1..], bytes[..]);
}

#[test]
fn implicit_fields_skip_proto3_defaults_only() {
    assert!(Outer::default().encode_to_vec().is_empty());
    let zeroish = Outer {
        double: -0.0,
        ..Outer::default()
    };
    assert_eq!(zeroish.encode_to_vec(), hex("21 00 00 00 00 00 00 00 80"));
    assert!(0.0f64.is_default() && !(-0.0f64).is_default());
    assert!(String::new().is_default() && !"a".to_owned().is_default());
    assert!(Bytes::default().is_default() && false.is_default() && !true.is_default());
    assert!(!Inner::default().is_default());
    assert!(!Timestamp::default().is_default());
    assert!(!Value::Null.is_default());
    assert!(!Map::new().is_default());
    // Explicit presence: an empty Some is written, None is not.
    let some = Outer {
        opt_text: Some(String::new()),
        inner: Some(Inner::default()),
        ..Outer::default()
    };
    let bytes = some.encode_to_vec();
    assert_eq!(bytes, hex("42 00 82 01 00"));
    assert_eq!(Outer::decode(&bytes).unwrap(), some);
}

#[test]
fn int32_and_bool_read_like_protobuf() {
    // A 64-bit varint read as int32 keeps the low 32 bits.
    let mut bytes = vec![0x08];
    encode_varint((1 << 32) + 5, &mut bytes);
    assert_eq!(Outer::decode(&bytes).unwrap().int32, 5);
    // A 5-byte negative int32 (as some writers send) reads the same as 10 bytes.
    assert_eq!(Outer::decode(&hex("08 ff ff ff ff 0f")).unwrap().int32, -1);
    // Any non-zero varint is true.
    assert!(Outer::decode(&hex("28 02")).unwrap().flag);
    assert!(
        Outer::decode(&hex("28 80 80 80 80 80 80 80 80 80 01"))
            .unwrap()
            .flag
    );
    assert!(!Outer::decode(&hex("28 80 00")).unwrap().flag);
}

#[test]
fn the_last_value_of_a_field_wins_and_messages_merge() {
    let bytes = hex("08 01 32 01 61 08 02 32 01 62 08 03");
    let outer = Outer::decode(&bytes).unwrap();
    assert_eq!((outer.int32, outer.text.as_str()), (3, "b"));
    // A message field read twice merges: scalars replaced, repeated appended.
    let first = Inner {
        id: 1,
        name: "one".into(),
        tags: vec!["a".into()],
    };
    let second = Inner {
        id: 0,
        name: "two".into(),
        tags: vec!["b".into()],
    };
    let mut bytes = Outer {
        inner: Some(first),
        ..Outer::default()
    }
    .encode_to_vec();
    bytes.extend(
        Outer {
            inner: Some(second),
            ..Outer::default()
        }
        .encode_to_vec(),
    );
    let inner = Outer::decode(&bytes).unwrap().inner.unwrap();
    assert_eq!(
        inner,
        Inner {
            id: 1,
            name: "two".into(),
            tags: vec!["a".into(), "b".into()]
        }
    );
}

#[test]
fn packed_and_unpacked_repeated_values_mix() {
    // Field 10: unpacked 1, packed [2, 3], unpacked -1, packed [] and [4].
    let bytes = hex("50 01 52 02 02 03 50 ff ff ff ff ff ff ff ff ff 01 52 00 52 01 04");
    assert_eq!(Outer::decode(&bytes).unwrap().nums, vec![1, 2, 3, -1, 4]);
    // Doubles and enums too.
    let bytes =
        hex("99 01 00 00 00 00 00 00 f0 3f 9a 01 08 00 00 00 00 00 00 00 40 90 01 02 92 01 01 07");
    let outer = Outer::decode(&bytes).unwrap();
    assert_eq!(outer.doubles, vec![1.0, 2.0]);
    assert_eq!(outer.colors, vec![Color::Blue, Color::Unrecognized(7)]);
    // A packed run that ends inside a value.
    let err = decode_err::<Outer>(&hex("52 02 96 96"));
    assert_eq!(err.kind(), &DecodeErrorKind::Truncated);
    assert_eq!(err.path(), "Outer.nums(10)");
    let err = decode_err::<Outer>(&hex("9a 01 03 00 00 00"));
    assert_eq!(err.kind(), &DecodeErrorKind::Truncated);
    // Empty lists write nothing; a list of defaults writes them all.
    assert!(encoded_len_repeated::<i32>(10, &[]) == 0);
    let zeros = Outer {
        nums: vec![0, 0],
        ..Outer::default()
    };
    assert_eq!(zeros.encode_to_vec(), hex("52 02 00 00"));
    assert_eq!(encoded_len_repeated(10, &[0, 0]), 4);
    // Strings do not pack: a LEN value is one element.
    let tags = Inner::decode(&hex("1a 02 61 62 1a 00")).unwrap().tags;
    assert_eq!(tags, vec!["ab".to_owned(), String::new()]);
}

#[test]
fn wire_types_that_do_not_fit_are_skipped() {
    // int32 as LEN, string as varint, message as varint, map as varint, repeated string as
    // i32, Option<String> as i64, then real values.
    let bytes = hex(
        "0a 01 00  30 05  40 01  58 01  4d 01 02 03 04  81 01 01 02 03 04 05 06 07 08  \
         08 07 32 01 7a",
    );
    let outer = Outer::decode(&bytes).unwrap();
    assert_eq!(
        outer,
        Outer {
            int32: 7,
            text: "z".into(),
            ..Outer::default()
        }
    );
    // Option stays None when its only occurrence did not fit.
    assert_eq!(Outer::decode(&hex("80 01 05")).unwrap().opt_text, None);
    let mut v = String::from("kept");
    let mut r = Reader::new(&[5], Limits::default()).unwrap();
    assert!(!merge_fresh(1, WireType::Varint, &mut v, &mut r).unwrap());
    assert_eq!(v, "kept");
}

#[test]
fn map_entries_default_missing_parts_and_the_last_wins() {
    let labels = |bytes: &str| Outer::decode(&hex(bytes)).unwrap().labels;
    let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    // Missing value, missing key, empty entry.
    assert_eq!(labels("5a 03 0a 01 61"), map(&[("a", "")]));
    assert_eq!(labels("5a 03 12 01 62"), map(&[("", "b")]));
    assert_eq!(labels("5a 00"), map(&[("", "")]));
    // Value before key, an unknown field inside, a repeated key in the entry.
    assert_eq!(
        labels("5a 0b 12 01 62 18 05 0a 01 78 0a 01 61"),
        map(&[("a", "b")])
    );
    // The same key twice: the last entry wins.
    assert_eq!(
        labels("5a 06 0a 01 61 12 01 31 5a 06 0a 01 61 12 01 32"),
        map(&[("a", "2")])
    );
    // A message value missing is the default message; a repeated key replaces, not merges.
    let children = Outer::decode(&hex("62 03 0a 01 63")).unwrap().children;
    assert_eq!(children["c"], Inner::default());
    let children = Outer::decode(&hex(
        "62 07 0a 01 63 12 02 08 01 62 07 0a 01 63 12 02 10 00",
    ))
    .unwrap()
    .children;
    assert_eq!(children["c"], Inner::default());
    // A wrong wire type for a map field is skipped.
    assert!(Outer::decode(&hex("58 01")).unwrap().labels.is_empty());
    // Round trip, byte-exact in key order.
    let labels = map(&[("b", "2"), ("a", "1")]);
    let outer = Outer {
        labels: labels.clone(),
        ..Outer::default()
    };
    let bytes = outer.encode_to_vec();
    assert_eq!(
        bytes,
        hex("5a 06 0a 01 61 12 01 31 5a 06 0a 01 62 12 01 32")
    );
    assert_eq!(encoded_len_map(11, &labels), bytes.len());
    assert_eq!(Outer::decode(&bytes).unwrap(), outer);
}

#[test]
fn strings_must_be_utf8() {
    let err = decode_err::<Outer>(&hex("32 02 c3 28"));
    assert_eq!(err.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(err.path(), "Outer.text(6)");
    assert_eq!(
        err.to_string(),
        "protobuf: a string that is not valid UTF-8 at Outer.text(6)"
    );
    // Bytes fields take anything.
    assert_eq!(
        Outer::decode(&hex("3a 02 c3 28")).unwrap().data,
        Bytes(vec![0xc3, 0x28])
    );
    // Map keys too.
    let err = decode_err::<Outer>(&hex("5a 03 0a 01 ff"));
    assert_eq!(err.path(), "Outer.labels(11).key(1)");
}

#[test]
fn error_paths_name_every_step() {
    let bad = "12 01 ff"; // Inner.name = invalid UTF-8
    let at = |bytes: String| decode_err::<Outer>(&hex(&bytes)).path();
    assert_eq!(at(format!("42 03 {bad}")), "Outer.inner(8).name(2)");
    assert_eq!(at(format!("4a 00 4a 03 {bad}")), "Outer.inners(9).name(2)");
    assert_eq!(
        at(format!("62 08 0a 01 63 12 03 {bad}")),
        "Outer.children(12).value(2).name(2)"
    );
    assert_eq!(at("42 03 1a 01 ff".into()), "Outer.inner(8).tags(3)");
    // An unnamed field shows its number; a truncated key shows the message it is in.
    assert_eq!(at("f8 01".into()), "Outer.#31");
    assert_eq!(at("42 01 80".into()), "Outer.inner(8)");
    let err = decode_err::<Outer>(&hex("42 03 12 01 ff"));
    assert_eq!(
        err.to_string(),
        "protobuf: a string that is not valid UTF-8 at Outer.inner(8).name(2)"
    );
    // With no path, no " at".
    assert_eq!(
        decode_err::<Outer>(&hex("80")).to_string(),
        "protobuf: the input ends inside a field"
    );
    let err = DecodeError::new(DecodeErrorKind::Truncated).within("Task", 7, None);
    assert_eq!(err.path(), "Task.#7");
    let err: DecodeError = DecodeErrorKind::TooDeep { limit: 4 }.into();
    assert_eq!(err.path(), "");
    assert_eq!(
        err.to_string(),
        "protobuf: messages nested deeper than the limit of 4"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(err.clone());
    assert_eq!(boxed.to_string(), err.to_string());
}

#[test]
fn enum_numbers_of_unrecognized_values() {
    assert_eq!(enum_number("12"), 12);
    assert_eq!(enum_number("-1"), -1);
    assert_eq!(enum_number("2147483648"), 0);
    assert_eq!(enum_number("TASK_STATE_NEW"), 0);
    assert_eq!(enum_number(""), 0);
    // An enum holds an unknown number and writes it back.
    let outer = Outer::decode(&hex("88 01 2a")).unwrap();
    assert_eq!(outer.color, Color::Unrecognized(42));
    assert_eq!(outer.encode_to_vec(), hex("88 01 2a"));
}
