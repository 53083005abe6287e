//! Every result the official Python SDK (a2a-sdk 1.3.0) put on the wire decodes into the right v1
//! type and encodes back to the same JSON (up to the defaults ProtoJSON writers may omit), in
//! `a2a_types::v1` and in the v1.1 draft, which only adds fields.

use a2a_tests::{
    captured_results, shared_path, sse_event_data, strip_protojson_defaults, Roundtrip, V1_MODULES,
};
use serde_json::Value;

const WHAT: &str = "wire captures";

/// Decodes `result` as `type_name` with `roundtrip`, re-encodes, and compares; returns a failure
/// line or None.
fn check(roundtrip: Roundtrip, capture: &str, type_name: &str, result: &Value) -> Option<String> {
    let text = serde_json::to_string(result).unwrap();
    match roundtrip(type_name, &text) {
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

#[test]
fn every_captured_result_decodes_and_round_trips() {
    let Some((results, errors)) = captured_results(WHAT) else {
        return;
    };
    let failures: Vec<String> = V1_MODULES
        .iter()
        .flat_map(|(module, roundtrip)| {
            results.iter().filter_map(move |r| {
                check(*roundtrip, &r.capture, r.type_name, &r.value)
                    .map(|f| format!("{module}: {f}"))
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let decoded = results.len();
    eprintln!("wire captures: {decoded} results decoded and round-tripped by each of {} modules, {errors} error replies skipped", V1_MODULES.len());
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
    for (module, roundtrip) in V1_MODULES {
        for (type_name, json) in a2a_tests::SAMPLES {
            let value: Value = serde_json::from_str(json).unwrap();
            if let Some(failure) = check(*roundtrip, "sample", type_name, &value) {
                panic!("{module}: {failure}");
            }
        }
    }
}

#[test]
fn the_captured_agent_card_declares_v1() {
    let Some(path) = shared_path(
        WHAT,
        "wire-captures/a2a-sdk-1.3.0/001-agent-card.response.json",
    ) else {
        return;
    };
    let card: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        a2a_types::version::ProtocolVersion::from_agent_card(&card),
        Some(a2a_types::version::ProtocolVersion::V1_0)
    );
}
