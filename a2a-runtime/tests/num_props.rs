//! Property tests of the 64-bit ProtoJSON integers: what `Decimal` writes reads back unchanged,
//! in the string form and the number form, at and around the edges of the range; what is out of
//! range or not integral is an error, never a panic and never a wrong value.

use a2a_runtime::wire::num::{Decimal, ProtoI64, ProtoU64};
use proptest::prelude::*;

fn i64_of(json: &str) -> Result<i64, String> {
    serde_json::from_str::<ProtoI64>(json)
        .map(i64::from)
        .map_err(|e| e.to_string())
}

fn u64_of(json: &str) -> Result<u64, String> {
    serde_json::from_str::<ProtoU64>(json)
        .map(u64::from)
        .map_err(|e| e.to_string())
}

/// Values at the edges of both ranges, and their neighbours.
const EDGES: &[i128] = &[
    0,
    1,
    -1,
    i64::MIN as i128,
    i64::MIN as i128 + 1,
    i64::MIN as i128 - 1,
    i64::MAX as i128,
    i64::MAX as i128 - 1,
    i64::MAX as i128 + 1,
    u64::MAX as i128,
    u64::MAX as i128 - 1,
    u64::MAX as i128 + 1,
    1 << 53,
    (1 << 53) + 1,
];

/// Integers anywhere in -2^65..2^65, with the edges drawn often.
fn wide() -> impl Strategy<Value = i128> {
    prop_oneof![
        prop::sample::select(EDGES),
        any::<i64>().prop_map(i128::from),
        any::<u64>().prop_map(i128::from),
        (-(1_i128 << 65))..(1_i128 << 65),
    ]
}

/// What a reader of `proto` must give for the exact integer `n`: the value, or an error
/// saying it is out of range.
fn expect<T: TryFrom<i128> + std::fmt::Debug + PartialEq>(
    n: i128,
    got: Result<T, String>,
    proto: &str,
) -> Result<(), TestCaseError> {
    match T::try_from(n) {
        Ok(want) => prop_assert_eq!(got, Ok(want)),
        Err(_) => {
            let err = got.err().unwrap_or_default();
            prop_assert!(
                err.contains("out of range for ") && err.contains(proto),
                "{} as {}: {}",
                n,
                proto,
                err
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn int64_round_trips_through_its_string_form(v in any::<i64>()) {
        let json = serde_json::to_string(&Decimal(&v)).unwrap();
        prop_assert_eq!(&json, &format!("\"{v}\""));
        prop_assert_eq!(i64_of(&json), Ok(v));
    }

    #[test]
    fn uint64_round_trips_through_its_string_form(v in any::<u64>()) {
        let json = serde_json::to_string(&Decimal(&v)).unwrap();
        prop_assert_eq!(&json, &format!("\"{v}\""));
        prop_assert_eq!(u64_of(&json), Ok(v));
    }

    #[test]
    fn int64_reads_the_number_form_too(v in any::<i64>()) {
        prop_assert_eq!(i64_of(&v.to_string()), Ok(v));
    }

    #[test]
    fn uint64_reads_the_number_form_too(v in any::<u64>()) {
        prop_assert_eq!(u64_of(&v.to_string()), Ok(v));
    }

    /// Plain integers, quoted or not, anywhere around both ranges: in range reads exactly,
    /// out of range (by one, or by far) is an error naming the type.
    #[test]
    fn integers_read_exactly_or_fail_as_out_of_range(n in wide(), quoted in any::<bool>()) {
        let json = if quoted { format!("\"{n}\"") } else { n.to_string() };
        expect(n, i64_of(&json), "int64")?;
        // Unquoted, a literal beyond u64 is read by serde_json as a float, which rounds; every
        // such value is out of range for both types anyway.
        expect(n, u64_of(&json), "uint64")?;
    }

    /// A fraction that is not zero is refused in both forms, with the reason.
    #[test]
    fn fractional_values_are_refused(
        whole in -(1_i64 << 40)..(1_i64 << 40),
        frac in 1_u32..1000,
        quoted in any::<bool>(),
    ) {
        let text = format!("{whole}.{frac:03}");
        let json = if quoted { format!("\"{text}\"") } else { text.clone() };
        let err = i64_of(&json).err().unwrap_or_default();
        prop_assert!(err.contains("is not an integer, as int64 requires"), "{}: {}", json, err);
        let err = u64_of(&json).err().unwrap_or_default();
        prop_assert!(
            err.contains("is not an integer, as uint64 requires") || err.contains("out of range for uint64"),
            "{}: {}", json, err
        );
    }

    /// `m` followed by `k` zeros, written as `me<k>` or `m.0e<k>`, quoted or not: the value
    /// when it is integral and in range (read through `f64`, exact below 2^53).
    #[test]
    fn exponent_forms_read_as_their_value(m in -99_999_i64..99_999, k in 0_u32..12, dot in any::<bool>(), quoted in any::<bool>()) {
        let text = if dot { format!("{m}.0e{k}") } else { format!("{m}e{k}") };
        let json = if quoted { format!("\"{text}\"") } else { text };
        let n = i128::from(m) * 10_i128.pow(k);
        expect(n, i64_of(&json), "int64")?;
        expect(n, u64_of(&json), "uint64")?;
    }

    /// A negative exponent that leaves a fraction is refused; one that does not is the value.
    #[test]
    fn negative_exponents_need_an_integral_result(m in 1_i64..1_000_000, k in 1_u32..4, quoted in any::<bool>()) {
        let text = format!("{m}e-{k}");
        let json = if quoted { format!("\"{text}\"") } else { text };
        let scale = 10_i64.pow(k);
        let got = i64_of(&json);
        if m % scale == 0 {
            prop_assert_eq!(got, Ok(m / scale));
        } else {
            let err = got.err().unwrap_or_default();
            prop_assert!(err.contains("is not an integer, as int64 requires"), "{}: {}", json, err);
        }
    }

    /// Any string at all: a value or an error, never a panic; a value only for a string that
    /// holds a number.
    #[test]
    fn any_string_is_a_value_or_an_error(s in ".{0,24}") {
        let json = serde_json::to_string(&s).unwrap();
        if let Ok(v) = i64_of(&json) {
            let trimmed = s.trim_start_matches(['+', '-']);
            prop_assert!(trimmed.starts_with(|c: char| c.is_ascii_digit() || c == '.'), "{:?} -> {}", s, v);
        }
        let _ = u64_of(&json);
    }
}

/// A JSON text, what an int64 reader gives, what a uint64 reader gives (an error by its prefix).
type Edge = (
    &'static str,
    Result<i64, &'static str>,
    Result<u64, &'static str>,
);

#[test]
fn the_edges_in_both_forms() {
    let cases: &[Edge] = &[
        ("0", Ok(0), Ok(0)),
        ("\"0\"", Ok(0), Ok(0)),
        ("-1", Ok(-1), Err("integer -1 out of range for uint64")),
        (
            "\"-1\"",
            Ok(-1),
            Err("integer \"-1\" out of range for uint64"),
        ),
        ("9223372036854775807", Ok(i64::MAX), Ok(i64::MAX as u64)),
        ("\"9223372036854775807\"", Ok(i64::MAX), Ok(i64::MAX as u64)),
        (
            "9223372036854775808",
            Err("integer 9223372036854775808 out of range for int64"),
            Ok(1 << 63),
        ),
        (
            "\"9223372036854775808\"",
            Err("integer \"9223372036854775808\" out of range for int64"),
            Ok(1 << 63),
        ),
        (
            "-9223372036854775808",
            Ok(i64::MIN),
            Err("integer -9223372036854775808 out of range for uint64"),
        ),
        (
            "\"-9223372036854775809\"",
            Err("integer \"-9223372036854775809\" out of range for int64"),
            Err("integer \"-9223372036854775809\" out of range for uint64"),
        ),
        (
            "\"18446744073709551615\"",
            Err("integer \"18446744073709551615\" out of range for int64"),
            Ok(u64::MAX),
        ),
        (
            "\"18446744073709551616\"",
            Err("integer \"18446744073709551616\" out of range for int64"),
            Err("integer \"18446744073709551616\" out of range for uint64"),
        ),
        (
            "7.5",
            Err("number 7.5 is not an integer, as int64 requires"),
            Err("number 7.5 is not an integer, as uint64 requires"),
        ),
        (
            "\"7.5\"",
            Err("number \"7.5\" is not an integer, as int64 requires"),
            Err("number \"7.5\" is not an integer, as uint64 requires"),
        ),
        // Below int64's minimum by one, unquoted: serde_json reads it as a float, which rounds
        // to exactly the minimum; refused, not read as a value that was not sent.
        (
            "-9223372036854775809",
            Err("number -9.223372036854776e18 out of range for int64"),
            Err("number -9.223372036854776e18 out of range for uint64"),
        ),
        ("1e3", Ok(1000), Ok(1000)),
        ("\"1e3\"", Ok(1000), Ok(1000)),
        (
            "\"\"",
            Err("invalid int64 string \"\": expected a decimal integer"),
            Err("invalid uint64 string \"\": expected a decimal integer"),
        ),
        (
            "\"seven\"",
            Err("invalid int64 string \"seven\": expected a decimal integer"),
            Err("invalid uint64 string \"seven\": expected a decimal integer"),
        ),
    ];
    for (json, want_i, want_u) in cases {
        let check = |got: Result<String, String>, want: Result<String, &str>| match (&got, &want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{json}"),
            (Err(g), Err(w)) => {
                assert!(g.starts_with(w), "{json}: {g:?} does not start with {w:?}")
            }
            _ => panic!("{json}: got {got:?}, want {want:?}"),
        };
        check(
            i64_of(json).map(|v| v.to_string()),
            want_i.map(|v| v.to_string()),
        );
        check(
            u64_of(json).map(|v| v.to_string()),
            want_u.map(|v| v.to_string()),
        );
    }
}

#[test]
fn decimal_writes_lists_and_maps_item_by_item() {
    let list = vec![i64::MIN, 0, i64::MAX];
    assert_eq!(
        serde_json::to_string(&Decimal(&list)).unwrap(),
        r#"["-9223372036854775808","0","9223372036854775807"]"#
    );
    let back: Vec<ProtoI64> =
        serde_json::from_str(&serde_json::to_string(&Decimal(&list)).unwrap()).unwrap();
    assert_eq!(back.into_iter().map(i64::from).collect::<Vec<_>>(), list);
    let map = std::collections::BTreeMap::from([("max".to_string(), u64::MAX)]);
    assert_eq!(
        serde_json::to_string(&Decimal(&map)).unwrap(),
        r#"{"max":"18446744073709551615"}"#
    );
}
