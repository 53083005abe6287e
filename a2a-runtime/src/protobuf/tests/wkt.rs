//! The well-known types: Timestamp, Value, Struct and ListValue.

use serde_json::json;

use super::*;

fn with_when(t: &str) -> Outer {
    Outer {
        when: Some(Timestamp::new(t)),
        ..Outer::default()
    }
}

fn with_value(v: Value) -> Outer {
    Outer {
        value: Some(v),
        ..Outer::default()
    }
}

/// `Value` as field 15 and back.
fn value_round_trip(v: Value) -> Value {
    let outer = with_value(v);
    let bytes = outer.encode_to_vec();
    assert_eq!(bytes.len(), outer.encoded_len());
    Outer::decode(&bytes).unwrap().value.unwrap()
}

/// A `Value` message (the bytes of field 15's value, after its length) decoded.
fn decode_value(body: &[u8]) -> Result<Value, DecodeError> {
    let mut bytes = vec![0x7a];
    encode_varint(body.len() as u64, &mut bytes);
    bytes.extend_from_slice(body);
    Outer::decode(&bytes).map(|o| o.value.unwrap())
}

/// A `Timestamp` message body decoded as field 13.
fn decode_when(body: &[u8]) -> Result<String, DecodeError> {
    let mut bytes = vec![0x6a];
    encode_varint(body.len() as u64, &mut bytes);
    bytes.extend_from_slice(body);
    Outer::decode(&bytes).map(|o| o.when.unwrap().into_string())
}

#[test]
fn timestamps_round_trip_as_seconds_and_nanos() {
    let outer = with_when("2024-01-02T03:04:05.123Z");
    let bytes = outer.encode_to_vec();
    // seconds 1704164645, nanos 123000000
    assert_eq!(bytes, hex("6a 0b 08 a5 fa cd ac 06 10 c0 a9 d3 3a"));
    assert_eq!(Outer::decode(&bytes).unwrap(), outer);
    // An offset writes the same instant and reads back in UTC.
    let offset = with_when("2024-01-02T04:34:05.123+01:30").encode_to_vec();
    assert_eq!(offset, bytes);
    // Digits are canonical after the trip.
    let back = Outer::decode(&with_when("2024-01-02T03:04:05.100000Z").encode_to_vec()).unwrap();
    assert_eq!(back.when.unwrap().as_str(), "2024-01-02T03:04:05.100Z");
    // The epoch is an empty message; before it, seconds are negative.
    assert_eq!(
        with_when("1970-01-01T00:00:00Z").encode_to_vec(),
        hex("6a 00")
    );
    for t in [
        "1969-12-31T23:59:59.999999999Z",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
        "2000-02-29T12:00:00.000001Z",
    ] {
        let back = Outer::decode(&with_when(t).encode_to_vec()).unwrap();
        assert_eq!(back.when.unwrap().as_str(), t);
    }
}

#[test]
fn timestamps_decode_from_seconds_and_nanos() {
    assert_eq!(decode_when(&[]).unwrap(), "1970-01-01T00:00:00Z");
    assert_eq!(
        decode_when(&hex("10 05")).unwrap(),
        "1970-01-01T00:00:00.000000005Z"
    );
    assert_eq!(decode_when(&hex("08 01")).unwrap(), "1970-01-01T00:00:01Z");
    // seconds -1 (10 bytes), nanos 500000000.
    assert_eq!(
        decode_when(&hex("08 ff ff ff ff ff ff ff ff ff 01 10 80 ca b5 ee 01")).unwrap(),
        "1969-12-31T23:59:59.500Z"
    );
    // Unknown fields are skipped; the last value wins.
    assert_eq!(
        decode_when(&hex("18 07 08 05 08 02")).unwrap(),
        "1970-01-01T00:00:02Z"
    );
    // The field twice: the second merges into the first.
    let bytes = hex("6a 02 08 64 6a 02 10 05");
    assert_eq!(
        Outer::decode(&bytes).unwrap().when.unwrap().as_str(),
        "1970-01-01T00:01:40.000000005Z"
    );
}

#[test]
fn timestamps_out_of_range_are_kept_as_received() {
    // a2a-sdk's parser accepts any seconds and nanos; only RFC 3339 cannot write them.
    let mut max_plus_one = vec![0x08];
    encode_varint(253_402_300_800, &mut max_plus_one);
    let mut min_minus_one = vec![0x08];
    encode_varint((-62_135_596_801i64) as u64, &mut min_minus_one);
    let negative_nanos = hex("10 ff ff ff ff ff ff ff ff ff 01");
    let mut big_nanos = vec![0x10];
    encode_varint(1_000_000_000, &mut big_nanos);
    let expected = [
        "@253402300800,0",
        "@-62135596801,0",
        "@0,-1",
        "@0,1000000000",
    ];
    for (body, text) in [max_plus_one, min_minus_one, negative_nanos, big_nanos]
        .into_iter()
        .zip(expected)
    {
        let when = decode_when(&body).unwrap();
        assert_eq!(when, text);
        // And written back as the same numbers.
        let mut again = Vec::new();
        crate::Timestamp::new(when).encode_value(&mut again);
        assert_eq!(&again[1..], &body[..], "{text}");
    }
}

#[test]
fn a_timestamp_that_does_not_parse_is_written_empty() {
    let bytes = with_when("not a time").encode_to_vec();
    assert_eq!(bytes, hex("6a 00"));
    assert_eq!(
        Outer::decode(&bytes).unwrap().when.unwrap(),
        Timestamp::default()
    );
}

#[test]
fn values_round_trip() {
    for v in [
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-17),
        json!(1.5),
        json!(-0.25),
        json!(1e300),
        json!(9_007_199_254_740_992i64),
        json!(-9_007_199_254_740_992i64),
        json!(""),
        json!("héllo"),
        json!([]),
        json!([[], [[]], [null, [1, [true, "x"]]]]),
        json!({}),
        json!({"a": {"b": {"c": [1, {"d": null}]}}, "": 2.5, "z": "y"}),
    ] {
        assert_eq!(value_round_trip(v.clone()), v, "{v}");
    }
    // Integral doubles come back as integers; large integers as floats.
    assert_eq!(value_round_trip(json!(3.0)), json!(3));
    assert!(value_round_trip(json!(3.0)).is_i64());
    assert_eq!(value_round_trip(json!(-0.0)), json!(0));
    let big = value_round_trip(json!(9_007_199_254_740_994u64));
    assert_eq!(big, json!(9_007_199_254_740_994.0));
    assert!(big.is_f64());
    assert_eq!(
        value_round_trip(json!(u64::MAX)),
        json!(18_446_744_073_709_551_615.0)
    );
}

#[test]
fn values_encode_byte_exact() {
    let bytes = |v: Value| with_value(v).encode_to_vec();
    assert_eq!(bytes(json!(null)), hex("7a 02 08 00"));
    assert_eq!(bytes(json!(true)), hex("7a 02 20 01"));
    assert_eq!(bytes(json!(1)), hex("7a 09 11 00 00 00 00 00 00 f0 3f"));
    assert_eq!(bytes(json!("ab")), hex("7a 04 1a 02 61 62"));
    assert_eq!(bytes(json!([])), hex("7a 02 32 00"));
    assert_eq!(bytes(json!([null])), hex("7a 06 32 04 0a 02 08 00"));
    assert_eq!(bytes(json!({})), hex("7a 02 2a 00"));
    assert_eq!(
        bytes(json!({"k": false})),
        hex("7a 0b 2a 09 0a 07 0a 01 6b 12 02 20 00")
    );
    // Struct as a field of its own.
    let meta = Outer {
        meta: Some(json!({"k": null}).as_object().unwrap().clone()),
        ..Outer::default()
    };
    assert_eq!(
        meta.encode_to_vec(),
        hex("72 09 0a 07 0a 01 6b 12 02 08 00")
    );
}

#[test]
fn decoded_doubles_that_json_cannot_write_become_null() {
    let double = |f: f64| {
        let mut body = vec![0x11];
        body.extend_from_slice(&f.to_le_bytes());
        decode_value(&body).unwrap()
    };
    assert_eq!(double(f64::NAN), Value::Null);
    assert_eq!(double(f64::INFINITY), Value::Null);
    assert_eq!(double(f64::NEG_INFINITY), Value::Null);
    assert_eq!(double(2.0), json!(2));
    assert_eq!(double(0.1), json!(0.1));
    assert_eq!(double(-1e20), json!(-1e20));
}

#[test]
fn value_oneof_members_replace_or_merge() {
    assert_eq!(decode_value(&[]).unwrap(), Value::Null);
    // Unknown fields are skipped; the last member wins.
    assert_eq!(
        decode_value(&hex("38 01 1a 01 61 20 01")).unwrap(),
        json!(true)
    );
    assert_eq!(decode_value(&hex("20 01 08 00")).unwrap(), json!(null));
    // A member with the wrong wire type is skipped.
    assert_eq!(decode_value(&hex("1a 01 61 10 01")).unwrap(), json!("a"));
    // list_value twice appends; struct_value twice merges.
    assert_eq!(
        decode_value(&hex("32 04 0a 02 20 01 32 04 0a 02 08 00")).unwrap(),
        json!([true, null])
    );
    assert_eq!(
        decode_value(&hex(
            "2a 09 0a 07 0a 01 61 12 02 20 01 2a 09 0a 07 0a 01 62 12 02 08 00"
        ))
        .unwrap(),
        json!({"a": true, "b": null})
    );
    // A struct entry missing its value is null; a repeated name, the last wins.
    assert_eq!(
        decode_value(&hex("2a 05 0a 03 0a 01 61")).unwrap(),
        json!({"a": null})
    );
    assert_eq!(
        decode_value(&hex(
            "2a 12 0a 07 0a 01 61 12 02 20 01 0a 07 0a 01 61 12 02 20 00"
        ))
        .unwrap(),
        json!({"a": false})
    );
}

#[test]
fn errors_inside_values_have_a_path() {
    // {"a": [.., "\xff"]} in meta.
    let bytes = hex("72 0c 0a 0a 0a 01 61 12 05 32 03 0a 01 ff");
    let err = decode_err::<Outer>(&bytes);
    assert_eq!(err.kind(), &DecodeErrorKind::Truncated);
    let bytes = hex("72 0e 0a 0c 0a 01 61 12 07 32 05 0a 03 1a 01 ff");
    let err = decode_err::<Outer>(&bytes);
    assert_eq!(err.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(
        err.path(),
        "Outer.meta(14).fields(1).value(2).list_value(6).values(1).string_value(3)"
    );
}

/// `[[[...]]]`, `levels` arrays deep, `leaf` innermost.
fn nested_list(levels: usize, leaf: Value) -> Value {
    (0..levels).fold(leaf, |v, _| Value::Array(vec![v]))
}

#[test]
fn nesting_of_values_counts_toward_the_depth_limit() {
    // Each array is two messages (a Value, its ListValue); the field's Value is at depth 1, so
    // the 50th array's ListValue is at depth 100, the limit, and a 51st array passes it.
    let deep = with_value(nested_list(49, json!([])));
    assert_eq!(Outer::decode(&deep.encode_to_vec()).unwrap(), deep);
    let too_deep = with_value(nested_list(50, json!([])));
    let err = decode_err::<Outer>(&too_deep.encode_to_vec());
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 100 });
    // A Value read alone (as a field's value, so at depth 1): 50 arrays fit, 200 do not.
    let top = |v: &Value| {
        let mut buf = Vec::new();
        v.encode_value(&mut buf);
        let mut r = Reader::new(&buf, Limits::default()).unwrap();
        let mut out = Value::Null;
        out.merge_value(&mut r).map(|()| out)
    };
    let fifty = nested_list(49, json!([]));
    assert_eq!(top(&fifty).unwrap(), fifty);
    let err = top(&nested_list(200, json!(null))).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 100 });
    assert!(
        err.path()
            .starts_with("Value.list_value(6).values(1).list_value(6)"),
        "{}",
        err.path()
    );
    // Structs count too.
    let mut obj = json!(1);
    for _ in 0..60 {
        obj = json!({ "k": obj });
    }
    let err = decode_err::<Outer>(&with_value(obj).encode_to_vec());
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 100 });
}
