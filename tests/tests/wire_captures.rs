//! Every result the official Python SDK (a2a-sdk 1.3.0) put on the wire decodes into the right v1
//! type and encodes back to the same JSON (up to the defaults ProtoJSON writers may omit).

use a2a_tests::{
    shared_path, sse_event_data, strip_protojson_defaults, v1_result_type, v1_roundtrip,
};
use serde_json::Value;
use std::path::Path;

const WHAT: &str = "wire captures";

/// Decodes `result` as `type_name`, re-encodes, and compares; returns a failure line or None.
fn check(capture: &str, type_name: &str, result: &Value) -> Option<String> {
    let text = serde_json::to_string(result).unwrap();
    match v1_roundtrip(type_name, &text) {
        Err(e) => Some(format!("{capture}: {type_name} failed to decode: {e}")),
        Ok(mut back) => {
            let mut want = result.clone();
            strip_protojson_defaults(&mut want);
            strip_protojson_defaults(&mut back);
            (back != want).then(|| {
                format!("{capture}: {type_name} round trip differs:\n want {want}\n  got {back}")
            })
        }
    }
}

fn method_of(dir: &Path, stem: &str) -> Option<String> {
    let request = std::fs::read_to_string(dir.join(format!("{stem}.request.json"))).ok()?;
    let request: Value = serde_json::from_str(&request).ok()?;
    request.get("method")?.as_str().map(String::from)
}

#[test]
fn every_captured_result_decodes_and_round_trips() {
    let Some(dir) = shared_path(WHAT, "wire-captures/a2a-sdk-1.3.0") else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".response.json") || n.ends_with(".response.sse"))
        .collect();
    names.sort();
    let (mut decoded, mut errors, mut failures) = (0, 0, Vec::new());
    for name in &names {
        let stem = name.split(".response").next().unwrap();
        let body = std::fs::read_to_string(dir.join(name)).unwrap();
        let bodies: Vec<String> = if name.ends_with(".sse") {
            sse_event_data(&body)
        } else {
            vec![body]
        };
        for (i, body) in bodies.iter().enumerate() {
            let capture = format!("{name}#{i}");
            let value: Value =
                serde_json::from_str(body).unwrap_or_else(|e| panic!("{capture}: not JSON: {e}"));
            if stem.ends_with("agent-card") {
                failures.extend(check(&capture, "AgentCard", &value));
                decoded += 1;
                continue;
            }
            if value.get("error").is_some() {
                errors += 1; // error replies are the envelope decoder's business
                continue;
            }
            let method =
                method_of(&dir, stem).unwrap_or_else(|| panic!("{capture}: no request method"));
            let type_name = v1_result_type(&method)
                .unwrap_or_else(|| panic!("{capture}: unknown method {method}"));
            let result = value
                .get("result")
                .unwrap_or_else(|| panic!("{capture}: neither result nor error"));
            failures.extend(check(&capture, type_name, result));
            decoded += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("wire captures: {decoded} results decoded and round-tripped, {errors} error replies skipped");
    // 001 card, 002, 003 x4, 004, 013 x4, 014, 016 x2: a capture that silently stops decoding is a failure.
    assert!(decoded >= 14, "only {decoded} results decoded");
}

#[test]
fn captured_sse_line_separators_stay_inside_the_text() {
    let Some(path) = shared_path(
        WHAT,
        "wire-captures/a2a-sdk-1.3.0/013-send-streaming-message-line-separators.response.sse",
    ) else {
        return;
    };
    let body = std::fs::read_to_string(path).unwrap();
    let events = sse_event_data(&body);
    assert_eq!(events.len(), 4);
    let result = serde_json::from_str::<Value>(&events[2]).unwrap()["result"].to_string();
    let event: a2a_types::v1::StreamResponse = serde_json::from_str(&result).unwrap();
    let a2a_types::v1::StreamResponse::ArtifactUpdate(update) = event else {
        panic!("expected an artifact update")
    };
    let a2a_types::v1::PartContent::Text(text) = &update.artifact.parts[0].content else {
        panic!("expected text")
    };
    assert!(
        text.contains('\u{2028}') && text.contains('\u{2029}') && text.contains('\u{85}'),
        "{text:?}"
    );
}

#[test]
fn every_hand_written_sample_round_trips() {
    for (type_name, json) in a2a_tests::SAMPLES {
        let value: Value = serde_json::from_str(json).unwrap();
        if let Some(failure) = check("sample", type_name, &value) {
            panic!("{failure}");
        }
    }
}
