//! A2A v1 §5.7: unknown members never make a message fail, at any depth. Property test: add random
//! unknown members at random objects of valid messages; decoding succeeds and gives the same value.

use proptest::prelude::*;
use serde_json::{Map, Value};

/// Arbitrary JSON for the unknown members' values.
fn any_json() -> impl Strategy<Value = Value> {
    a2a_tests::arbitrary_json("[a-z]{1,6}".boxed(), "[^\"]{0,12}".boxed())
}

/// Every object inside `v`, by JSON pointer (the root is "").
fn object_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            out.push(at.clone());
            for (k, child) in map {
                object_pointers(
                    child,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                object_pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Objects that hold free-form JSON (Struct/Value/maps of user keys): adding a member there is
/// not an unknown field but a different value, so they are left alone.
fn is_free_form(pointer: &str) -> bool {
    [
        "/metadata",
        "/data",
        "/params",
        "/header",
        "/scopes",
        "/securitySchemes",
        "/schemes",
    ]
    .iter()
    .any(|p| pointer.contains(p))
}

fn messages() -> Vec<(&'static str, Value)> {
    let mut out: Vec<(&str, Value)> = a2a_tests::SAMPLES
        .iter()
        .map(|(t, j)| (*t, serde_json::from_str(j).unwrap()))
        .collect();
    // The wire captures too, when shared/ is there (printed skip otherwise).
    if let Some(dir) = a2a_tests::shared_path(
        "tolerance over wire captures",
        "wire-captures/a2a-sdk-1.3.0",
    ) {
        let card = std::fs::read_to_string(dir.join("001-agent-card.response.json")).unwrap();
        out.push(("AgentCard", serde_json::from_str(&card).unwrap()));
        for (file, ty) in [
            ("002-send-message.response.json", "SendMessageResponse"),
            ("014-list-tasks.response.json", "ListTasksResponse"),
        ] {
            let body: Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
            out.push((ty, body["result"].clone()));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn unknown_members_at_random_depths_change_nothing(
        which in any::<prop::sample::Index>(),
        module in any::<prop::sample::Index>(),
        insertions in prop::collection::vec((any::<prop::sample::Index>(), "[a-z]{1,8}", any_json()), 1..6),
    ) {
        let all = messages();
        let (type_name, original) = &all[which.index(all.len())];
        // v1 or the v1.1 draft, which reads v1 traffic the same way.
        let (module, roundtrip) = a2a_tests::V1_MODULES[module.index(a2a_tests::V1_MODULES.len())];
        let expected = roundtrip(type_name, &original.to_string()).unwrap();

        let mut noisy = original.clone();
        let mut pointers = Vec::new();
        object_pointers(&noisy, String::new(), &mut pointers);
        pointers.retain(|p| !is_free_form(p));
        for (at, name, value) in insertions {
            let pointer = &pointers[at.index(pointers.len())];
            let target: &mut Map<String, Value> = noisy.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
            // A prefix no A2A member has, so the member is unknown rather than a wrong-typed known one.
            target.insert(format!("zzUnknown_{name}"), value);
        }
        let got = roundtrip(type_name, &noisy.to_string());
        prop_assert_eq!(got, Ok(expected), "{}: {} with unknown members: {}", module, type_name, noisy);
    }
}
