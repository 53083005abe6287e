//! The reader's primitives, keys, skipping, limits and byte-exact encodings.

use super::*;

fn reader(bytes: &[u8]) -> Reader<'_> {
    Reader::new(bytes, Limits::default()).unwrap()
}

fn kind(result: Result<impl std::fmt::Debug, DecodeError>) -> DecodeErrorKind {
    result.unwrap_err().kind().clone()
}

#[test]
fn varints_read_and_write() {
    let cases: &[(u64, &str)] = &[
        (0, "00"),
        (1, "01"),
        (127, "7f"),
        (128, "80 01"),
        (150, "96 01"),
        (300, "ac 02"),
        (16_383, "ff 7f"),
        (16_384, "80 80 01"),
        (u64::from(u32::MAX), "ff ff ff ff 0f"),
        (1 << 63, "80 80 80 80 80 80 80 80 80 01"),
        (u64::MAX, "ff ff ff ff ff ff ff ff ff 01"),
    ];
    for &(value, bytes) in cases {
        let bytes = hex(bytes);
        let mut buf = Vec::new();
        encode_varint(value, &mut buf);
        assert_eq!(buf, bytes, "{value}");
        assert_eq!(varint_len(value), bytes.len(), "{value}");
        let mut r = reader(&bytes);
        assert_eq!(r.read_varint().unwrap(), value);
        assert!(r.is_empty());
    }
    for shift in 0..64 {
        for value in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
            let mut buf = Vec::new();
            encode_varint(value, &mut buf);
            assert_eq!(buf.len(), varint_len(value), "{value}");
            assert_eq!(reader(&buf).read_varint().unwrap(), value);
        }
    }
}

#[test]
fn varints_past_ten_bytes_are_refused() {
    // 11 bytes: ten with the continuation bit.
    let eleven = hex("80 80 80 80 80 80 80 80 80 80 00");
    assert_eq!(
        kind(reader(&eleven).read_varint()),
        DecodeErrorKind::VarintTooLong
    );
    // A 10th byte of 2 would be bit 64: dropped, the low 64 bits read (as upb reads them).
    let tenth_2 = hex("ff ff ff ff ff ff ff ff ff 02");
    assert_eq!(reader(&tenth_2).read_varint().unwrap(), u64::MAX >> 1);
    // Ten bytes, the last with the continuation bit, even with nothing after it.
    let ten_open = hex("80 80 80 80 80 80 80 80 80 81");
    assert_eq!(
        kind(reader(&ten_open).read_varint()),
        DecodeErrorKind::VarintTooLong
    );
    // A padded, non-canonical varint of 10 bytes is fine.
    let padded = hex("81 80 80 80 80 80 80 80 80 00");
    assert_eq!(reader(&padded).read_varint().unwrap(), 1);
}

#[test]
fn truncated_varints_and_fixed_values() {
    for bytes in ["", "80", "ff ff", "80 80 80 80 80 80 80 80 80"] {
        assert_eq!(
            kind(reader(&hex(bytes)).read_varint()),
            DecodeErrorKind::Truncated,
            "{bytes}"
        );
    }
    assert_eq!(
        kind(reader(&[1, 2, 3]).read_fixed32()),
        DecodeErrorKind::Truncated
    );
    assert_eq!(
        kind(reader(&[1; 7]).read_fixed64()),
        DecodeErrorKind::Truncated
    );
    let mut r = reader(&[1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0x80]);
    assert_eq!(r.read_fixed32().unwrap(), 1);
    assert_eq!(r.read_fixed64().unwrap(), 2 | (0x80 << 56));
    assert!(r.is_empty());
}

#[test]
fn keys_check_field_number_and_wire_type() {
    let keys = hex("08 11 1a 23 2c 35");
    let mut r = reader(&keys);
    let wires = [
        WireType::Varint,
        WireType::I64,
        WireType::Len,
        WireType::StartGroup,
        WireType::EndGroup,
        WireType::I32,
    ];
    for (i, wire) in wires.into_iter().enumerate() {
        assert_eq!(r.read_key().unwrap(), (i as u32 + 1, wire));
        assert_eq!(WireType::from_number(wire.number()), Some(wire));
    }
    assert_eq!(WireType::from_number(6), None);
    assert_eq!(
        kind(reader(&[0x00]).read_key()),
        DecodeErrorKind::InvalidFieldNumber(0)
    );
    // Field number 0 is reported before the wire type.
    assert_eq!(
        kind(reader(&[0x07]).read_key()),
        DecodeErrorKind::InvalidFieldNumber(0)
    );
    assert_eq!(
        kind(reader(&[0x0e]).read_key()),
        DecodeErrorKind::InvalidWireType(6)
    );
    assert_eq!(
        kind(reader(&[0x0f]).read_key()),
        DecodeErrorKind::InvalidWireType(7)
    );
    // The largest field number, and one past it.
    let mut buf = Vec::new();
    encode_key(MAX_FIELD_NUMBER, WireType::Varint, &mut buf);
    assert_eq!(buf, hex("f8 ff ff ff 0f"));
    assert_eq!(key_len(MAX_FIELD_NUMBER), 5);
    assert_eq!(
        reader(&buf).read_key().unwrap(),
        (MAX_FIELD_NUMBER, WireType::Varint)
    );
    let past = hex("80 80 80 80 10");
    assert_eq!(
        kind(reader(&past).read_key()),
        DecodeErrorKind::InvalidFieldNumber(1 << 29)
    );
    let huge = hex("ff ff ff ff ff ff ff ff ff 01");
    assert_eq!(
        kind(reader(&huge).read_key()),
        DecodeErrorKind::InvalidFieldNumber(u64::MAX >> 3)
    );
    // In a message: field number 0 and wire types 6 and 7 are errors, not skipped.
    for bytes in ["00 00", "0e 00", "0f 00", "08 01 00 01"] {
        assert!(Outer::decode(&hex(bytes)).is_err(), "{bytes}");
    }
    assert_eq!(
        decode_err::<Outer>(&hex("08 01 0e")).to_string(),
        "protobuf: invalid wire type 6"
    );
}

#[test]
fn length_prefixes_are_checked() {
    let bytes = hex("03 61 62 63 01");
    let mut r = reader(&bytes);
    assert_eq!(r.read_len_delimited().unwrap(), b"abc");
    assert_eq!(r.remaining(), 1);
    assert_eq!(kind(r.read_len_delimited()), DecodeErrorKind::Truncated);
    let limits = Limits {
        max_len: 3,
        ..Limits::default()
    };
    let mut r = Reader::new(&[4, 0, 0], limits).unwrap();
    assert_eq!(
        kind(r.read_len_delimited()),
        DecodeErrorKind::TooLarge { len: 4, limit: 3 }
    );
    let huge = hex("ff ff ff ff ff ff ff ff ff 01");
    assert!(matches!(
        kind(reader(&huge).read_len_delimited()),
        DecodeErrorKind::TooLarge { .. }
    ));
}

#[test]
fn input_over_max_len_is_too_large() {
    let limits = Limits {
        max_len: 10,
        ..Limits::default()
    };
    let bytes = [
        0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08, 0x01, 0x08,
    ];
    assert_eq!(
        kind(Reader::new(&bytes, limits)),
        DecodeErrorKind::TooLarge { len: 11, limit: 10 }
    );
    let err = Outer::decode_with(&bytes, limits).unwrap_err();
    assert_eq!(err.to_string(), "protobuf: 11 bytes, over the limit of 10");
    assert!(Outer::decode_with(&bytes[..10], limits).is_ok());
    assert_eq!(
        Limits::default(),
        Limits {
            max_depth: 100,
            max_len: 64 << 20
        }
    );
}

#[test]
fn skip_passes_every_wire_type() {
    // Varint, i64, len, i32 and a group (with a nested group and fields), then field 1.
    let bytes = hex(
        "f8 01 96 01  f9 01 01 02 03 04 05 06 07 08  fa 01 02 61 62  fd 01 01 02 03 04 \
         fb 01 08 01 13 12 01 78 14 fc 01  08 2a",
    );
    let mut r = reader(&bytes);
    for _ in 0..5 {
        let (number, wire) = r.read_key().unwrap();
        assert_eq!(number, 31);
        r.skip(number, wire).unwrap();
    }
    assert_eq!(r.read_key().unwrap(), (1, WireType::Varint));
    assert_eq!(r.read_varint().unwrap(), 42);
    // The same in a message: unknown fields are skipped.
    let outer = Outer::decode(&bytes).unwrap();
    assert_eq!(
        outer,
        Outer {
            int32: 42,
            ..Outer::default()
        }
    );
}

#[test]
fn groups_must_end_with_their_own_number() {
    // Start 31, end 30.
    let err = decode_err::<Outer>(&hex("fb 01 f4 01"));
    assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedEndGroup);
    assert_eq!(err.path(), "Outer.#31");
    // Nested group closed by the outer's number.
    let err = decode_err::<Outer>(&hex("fb 01 13 fc 01"));
    assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedEndGroup);
    // An end-group with no start, at the top level and in a nested message.
    let err = decode_err::<Outer>(&hex("fc 01"));
    assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedEndGroup);
    let err = decode_err::<Outer>(&hex("42 02 0c 00"));
    assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedEndGroup);
    assert_eq!(err.path(), "Outer.inner(8).id(1)");
    // A group the input ends inside.
    assert_eq!(
        decode_err::<Outer>(&hex("fb 01 08 01")).kind(),
        &DecodeErrorKind::Truncated
    );
    // Skipping an end-group directly.
    assert_eq!(
        kind(reader(&[]).skip(1, WireType::EndGroup)),
        DecodeErrorKind::UnexpectedEndGroup
    );
}

#[test]
fn groups_nest_under_the_depth_limit() {
    let nested = |levels: usize| {
        let mut bytes = vec![0x0b; levels]; // start group 1
        bytes.extend(std::iter::repeat_n(0x0c, levels)); // end group 1
        bytes
    };
    assert!(Outer::decode(&nested(100)).is_ok());
    let err = decode_err::<Outer>(&nested(101));
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 100 });
    let err = decode_err::<Outer>(&nested(100_000));
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 100 });
    let limits = Limits {
        max_depth: 3,
        ..Limits::default()
    };
    assert!(Outer::decode_with(&nested(3), limits).is_ok());
    assert!(Outer::decode_with(&nested(4), limits).is_err());
}

#[test]
fn nested_readers_count_depth() {
    let limits = Limits {
        max_depth: 1,
        ..Limits::default()
    };
    let bytes = hex("02 01 00");
    let mut r = Reader::new(&bytes, limits).unwrap();
    let mut inner = r.nested().unwrap();
    assert_eq!(inner.depth(), 1);
    assert_eq!(inner.limits(), limits);
    assert_eq!(kind(inner.nested()), DecodeErrorKind::TooDeep { limit: 1 });
    // A map entry is a level, and a message value in it another.
    let mut outer = Outer::default();
    outer.children.insert("k".into(), Inner::default());
    let bytes = outer.encode_to_vec();
    let err = Outer::decode_with(&bytes, limits).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::TooDeep { limit: 1 });
    assert_eq!(err.path(), "Outer.children(12).value(2)");
    assert!(Outer::decode_with(
        &bytes,
        Limits {
            max_depth: 2,
            ..limits
        }
    )
    .is_ok());
}

#[test]
fn byte_exact_encodings() {
    let bytes = |o: Outer| o.encode_to_vec();
    // The protobuf encoding guide's examples.
    assert_eq!(
        bytes(Outer {
            int32: 150,
            ..Outer::default()
        }),
        hex("08 96 01")
    );
    assert_eq!(
        bytes(Outer {
            int64: 150,
            ..Outer::default()
        }),
        hex("10 96 01")
    );
    let inner = Inner {
        name: "testing".into(),
        ..Inner::default()
    };
    assert_eq!(inner.encode_to_vec(), hex("12 07 74 65 73 74 69 6e 67"));
    assert_eq!(
        bytes(Outer {
            inner: Some(Inner {
                id: 150,
                ..Inner::default()
            }),
            ..Outer::default()
        }),
        hex("42 03 08 96 01")
    );
    assert_eq!(
        bytes(Outer {
            nums: vec![3, 270, 86942],
            ..Outer::default()
        }),
        hex("52 06 03 8e 02 9e a7 05")
    );
    // Negative int32: sign-extended, 10 bytes.
    assert_eq!(
        bytes(Outer {
            int32: -1,
            ..Outer::default()
        }),
        hex("08 ff ff ff ff ff ff ff ff ff 01")
    );
    assert_eq!(
        bytes(Outer {
            int32: i32::MIN,
            ..Outer::default()
        }),
        hex("08 80 80 80 80 f8 ff ff ff ff 01")
    );
    assert_eq!(
        bytes(Outer {
            double: 1.0,
            flag: true,
            ..Outer::default()
        }),
        hex("21 00 00 00 00 00 00 f0 3f 28 01")
    );
    assert_eq!(
        bytes(Outer {
            data: Bytes(vec![0xde, 0xad]),
            opt_text: Some(String::new()),
            ..Outer::default()
        }),
        hex("3a 02 de ad 82 01 00")
    );
    // Map entry: key and value both written.
    let labels = [("a".to_owned(), String::new())].into_iter().collect();
    assert_eq!(
        bytes(Outer {
            labels,
            ..Outer::default()
        }),
        hex("5a 05 0a 01 61 12 00")
    );
    // Unpacked repeated strings; packed enums and doubles.
    let tags = Inner {
        tags: vec!["x".into(), String::new()],
        ..Inner::default()
    };
    assert_eq!(tags.encode_to_vec(), hex("1a 01 78 1a 00"));
    assert_eq!(
        bytes(Outer {
            colors: vec![Color::Red, Color::Blue],
            doubles: vec![2.0],
            ..Outer::default()
        }),
        hex("92 01 02 01 02 9a 01 08 00 00 00 00 00 00 00 40")
    );
    assert_eq!(
        bytes(Outer {
            far: 1,
            ..Outer::default()
        }),
        hex("f8 ff ff ff 0f 01")
    );
    assert!(bytes(Outer::default()).is_empty());
}

#[test]
fn truncation_at_every_prefix_is_truncated_or_a_field_boundary() {
    let full = sample().encode_to_vec();
    assert_eq!(full.len(), sample().encoded_len());
    // The top-level field boundaries: where a prefix is a whole, shorter message.
    let mut boundaries = vec![0];
    let mut r = reader(&full);
    while !r.is_empty() {
        let (number, wire) = r.read_key().unwrap();
        r.skip(number, wire).unwrap();
        boundaries.push(full.len() - r.remaining());
    }
    assert!(boundaries.len() > 20);
    for end in 0..full.len() {
        let result = Outer::decode(&full[..end]);
        if boundaries.contains(&end) {
            assert!(result.is_ok(), "prefix {end}: {result:?}");
        } else {
            let err = result.unwrap_err();
            assert_eq!(
                err.kind(),
                &DecodeErrorKind::Truncated,
                "prefix {end}: {err}"
            );
        }
    }
    assert_eq!(Outer::decode(&full).unwrap(), sample());
}

#[test]
fn mangled_input_never_panics() {
    let full = sample().encode_to_vec();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..3_000 {
        let mut bytes = full.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            match next() % 3 {
                0 => bytes[at] = next() as u8,
                1 => bytes[at] ^= 0x80,
                _ => bytes.truncate(at),
            }
            if bytes.is_empty() {
                break;
            }
        }
        if let Err(e) = Outer::decode(&bytes) {
            let _ = e.to_string();
        }
    }
    for _ in 0..2_000 {
        let len = (next() % 64) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let _ = Outer::decode(&bytes);
        let _ = Outer::decode_with(
            &bytes,
            Limits {
                max_depth: 2,
                max_len: 40,
            },
        );
    }
}
