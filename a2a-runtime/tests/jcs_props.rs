//! Property tests of the RFC 8785 canonicalizer (`trust::jcs`): the canonical form is a fixpoint
//! (canonicalizing it again gives the same bytes), and neither the order of an input's members
//! nor its whitespace changes it; what it writes is JSON that serde_json reads as the same value.
#![cfg(feature = "trust")]

use a2a_runtime::trust::jcs;
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// JSON values with awkward strings (controls, escapes, non-BMP characters) and numbers
/// (integers past 2^53, tiny and huge doubles, negative zero).
fn json() -> impl Strategy<Value = Value> {
    let number = prop_oneof![
        any::<i64>().prop_map(|i| Value::Number(i.into())),
        any::<u64>().prop_map(|u| Value::Number(u.into())),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Value::Number(Number::from_f64(f).unwrap())),
        Just(Value::Number(Number::from_f64(-0.0).unwrap())),
    ];
    let text = "[a-z\u{0}-\u{1f}\"\\\\/\u{7f}\u{80}\u{e9}\u{2028}\u{20ac}\u{fb33}\u{1f600}]{0,8}";
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number,
        text.prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(text, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Writes `value` as JSON with its members in reverse order and whitespace everywhere.
fn reordered(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push_str("[ ");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(" ,\n\t");
                }
                reordered(item, out);
            }
            out.push_str(" ]");
        }
        Value::Object(members) => {
            out.push_str("{\r\n");
            for (i, (name, member)) in members.iter().rev().enumerate() {
                if i > 0 {
                    out.push_str(" , ");
                }
                out.push_str(&serde_json::to_string(name).unwrap());
                out.push_str(" :  ");
                reordered(member, out);
            }
            out.push_str("\n}");
        }
        other => out.push_str(&serde_json::to_string(other).unwrap()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_canonical_form_is_a_fixpoint(value in json()) {
        let once = jcs::canonicalize(&value).unwrap();
        let twice = jcs::canonicalize_json(&once).unwrap();
        prop_assert_eq!(&once, &twice);
        // And it is JSON serde_json reads.
        prop_assert!(serde_json::from_slice::<Value>(&once).is_ok());
    }

    #[test]
    fn member_order_and_whitespace_do_not_change_it(value in json()) {
        let mut text = String::new();
        reordered(&value, &mut text);
        prop_assert_eq!(
            jcs::canonicalize_json(text.as_bytes()).unwrap(),
            jcs::canonicalize(&value).unwrap()
        );
    }

    #[test]
    fn serde_json_text_of_a_value_canonicalizes_like_the_value(value in json()) {
        let text = serde_json::to_vec_pretty(&value).unwrap();
        prop_assert_eq!(jcs::canonicalize_json(&text).unwrap(), jcs::canonicalize(&value).unwrap());
    }

    #[test]
    fn names_are_sorted_by_utf16_code_units(value in json()) {
        let canonical = jcs::canonicalize(&value).unwrap();
        // The top level's order, read back in the order written.
        if let Value::Object(members) = &value {
            let mut names: Vec<&String> = members.keys().collect();
            names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            let mut expected = String::from("{");
            for (i, name) in names.iter().enumerate() {
                if i > 0 {
                    expected.push(',');
                }
                expected.push_str(std::str::from_utf8(&jcs::canonicalize(&Value::String((*name).clone())).unwrap()).unwrap());
                expected.push(':');
                expected.push_str(std::str::from_utf8(&jcs::canonicalize(&members[*name]).unwrap()).unwrap());
            }
            expected.push('}');
            prop_assert_eq!(String::from_utf8(canonical).unwrap(), expected);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = jcs::canonicalize_json(&bytes);
    }
}
