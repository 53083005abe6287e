//! JSON Schema back out: the `schemars::JsonSchema` impls of the v1 types (feature `schemars` of
//! a2a-types) describe the same model as the input schema, and accept what the official SDK sends.

use a2a_tests::{captured_results, workspace_root, SAMPLES};
use a2a_types::v1::json_schema_definitions;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

fn input_defs() -> Map<String, Value> {
    input_defs_of("spec/v1")
}

fn input_defs_of(spec: &str) -> Map<String, Value> {
    let text =
        std::fs::read_to_string(workspace_root().join(spec).join("a2a.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    schema["$defs"].as_object().unwrap().clone()
}

fn keys(value: &Value, member: &str) -> BTreeSet<String> {
    value
        .get(member)
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|v| v.to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn the_generated_schema_has_the_inputs_definitions_properties_required_and_enums() {
    same_model(json_schema_definitions(), input_defs());
}

#[test]
fn the_v0_3_schema_too_with_its_tagged_unions() {
    same_model(
        a2a_types::v0_3::json_schema_definitions(),
        input_defs_of("spec/v0_3"),
    );
    // A tagged union validates by its tag: a text part passes, an unknown kind does not.
    let defs = a2a_types::v0_3::json_schema_definitions();
    assert!(check(
        &defs,
        "part",
        "Part",
        &json!({"kind": "text", "text": "hi"})
    )
    .is_empty());
    assert!(!check(
        &defs,
        "part",
        "Part",
        &json!({"kind": "telegram", "text": "hi"})
    )
    .is_empty());
    let task = json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working"}});
    assert!(check(&defs, "result", "SendMessageResult", &task).is_empty());
}

#[test]
fn the_v1_1_draft_schema_too_with_its_int64_fields() {
    let defs = a2a_types::v1_1_draft::json_schema_definitions();
    same_model(defs.clone(), input_defs_of("spec/v1_1_draft"));
    assert_eq!(
        defs["Task"]["properties"]["generation"]["type"],
        json!(["integer", "string"])
    );
    assert_eq!(defs["Task"]["properties"]["generation"]["format"], "int64");
    // Both wire forms validate; another JSON type does not.
    for generation in [json!("7"), json!(7)] {
        let task =
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "generation": generation});
        assert!(check(&defs, "task", "Task", &task).is_empty(), "{task}");
    }
    let task = json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "generation": true});
    assert!(!check(&defs, "task", "Task", &task).is_empty());
    // What the draft's encoder writes validates.
    let task = a2a_types::v1_1_draft::Task {
        id: "t".into(),
        generation: Some(i64::MIN),
        ..Default::default()
    };
    let written = serde_json::to_value(&task).unwrap();
    assert!(
        check(&defs, "written", "Task", &written).is_empty(),
        "{written}"
    );
}

fn same_model(ours: Map<String, Value>, input: Map<String, Value>) {
    assert_eq!(
        ours.keys().collect::<BTreeSet<_>>(),
        input.keys().collect::<BTreeSet<_>>(),
        "the same definitions"
    );
    let mut problems = Vec::new();
    for (name, want) in &input {
        let got = &ours[name];
        if keys(got, "properties") != keys(want, "properties") {
            problems.push(format!("{name}: properties differ"));
        }
        let mut required = (strings(got.get("required")), strings(want.get("required")));
        required.0.sort();
        required.1.sort();
        if required.0 != required.1 {
            problems.push(format!(
                "{name}: required {:?} != {:?}",
                required.0, required.1
            ));
        }
        if strings(got.get("enum")) != strings(want.get("enum")) {
            problems.push(format!("{name}: enum values differ"));
        }
        if got.get("oneOf") != want.get("oneOf") {
            problems.push(format!("{name}: oneOf differs"));
        }
        if got.get("type") != want.get("type") {
            problems.push(format!(
                "{name}: type {:?} != {:?}",
                got.get("type"),
                want.get("type")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A validator for one type: the whole set of definitions, and a `$ref` to the type.
fn validator(defs: &Map<String, Value>, type_name: &str) -> jsonschema::Validator {
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs,
        "$ref": format!("#/$defs/{type_name}"),
    });
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("{type_name}: {e}"))
}

fn check(defs: &Map<String, Value>, what: &str, type_name: &str, value: &Value) -> Vec<String> {
    validator(defs, type_name)
        .iter_errors(value)
        .map(|e| format!("{what} as {type_name}: {e} at {}", e.instance_path))
        .collect()
}

#[test]
fn every_captured_result_and_sample_validates_against_the_generated_schema() {
    // v1's schema, and the v1.1 draft's, which v1 traffic satisfies (it only adds fields).
    for (module, defs) in [
        ("v1", json_schema_definitions()),
        (
            "v1_1_draft",
            a2a_types::v1_1_draft::json_schema_definitions(),
        ),
    ] {
        let mut problems = Vec::new();
        for (type_name, text) in SAMPLES {
            let value: Value = serde_json::from_str(text).unwrap();
            problems.extend(check(&defs, "sample", type_name, &value));
        }
        if let Some((results, _)) = captured_results("JSON Schema of the wire captures") {
            assert!(results.len() >= 14);
            for r in &results {
                problems.extend(check(&defs, &r.capture, r.type_name, &r.value));
            }
        }
        assert!(problems.is_empty(), "{module}: {}", problems.join("\n"));
    }
}

#[test]
fn the_generated_schema_rejects_what_the_decoders_reject() {
    let defs = json_schema_definitions();
    for (type_name, value) in [
        ("Task", json!({"id": "t"})),                       // no status
        ("Part", json!({"text": "a", "url": "https://x"})), // two oneof members
        ("Part", json!({"metadata": {}})),                  // no oneof member
        ("TaskStatus", json!({"state": 3.5})),              // not a state
        (
            "Message",
            json!({"messageId": "m", "role": "ROLE_USER", "parts": "no"}),
        ),
    ] {
        assert!(
            !check(&defs, "bad", type_name, &value).is_empty(),
            "{type_name} accepted {value}"
        );
    }
}
