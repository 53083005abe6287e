//! Streamed replies: every SSE capture of the official SDK decodes event by event with the unary
//! contract, in any chunking; capture 013 (U+2028/U+2029/U+0085 in the text, which breaks the
//! Python client) gives all four events.

use a2a_types::v1::{A2aError, CallError, Decoder, StreamResponse};
use proptest::prelude::*;

type Item = Result<StreamResponse, CallError>;

fn decode_in_chunks(body: &[u8], cuts: &[usize]) -> (Vec<Item>, Result<(), CallError>) {
    let mut decoder = Decoder::new().stream::<StreamResponse>();
    let mut items = Vec::new();
    let mut start = 0;
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (body.len() + 1)).collect();
    cuts.sort_unstable();
    for cut in cuts.into_iter().chain([body.len()]) {
        if cut >= start {
            items.extend(decoder.feed(&body[start..cut]));
            start = cut;
        }
    }
    (items, decoder.finish())
}

fn capture(name: &str) -> Option<Vec<u8>> {
    a2a_tests::shared_path(
        "stream captures",
        &format!("wire-captures/a2a-sdk-1.3.0/{name}"),
    )
    .map(|p| std::fs::read(p).unwrap())
}

#[test]
fn streaming_captures_decode_as_the_sdk_sent_them() {
    let Some(body) = capture("003-send-streaming-message.response.sse") else {
        return;
    };
    let (items, end) = decode_in_chunks(&body, &[]);
    assert!(end.is_ok());
    let kinds: Vec<&str> = items
        .iter()
        .map(|i| i.as_ref().unwrap().member_name().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["task", "statusUpdate", "artifactUpdate", "statusUpdate"]
    );
}

#[test]
fn line_separators_inside_json_do_not_break_the_stream() {
    let Some(body) = capture("013-send-streaming-message-line-separators.response.sse") else {
        return;
    };
    let (items, end) = decode_in_chunks(&body, &[]);
    assert!(end.is_ok());
    assert_eq!(
        items.len(),
        4,
        "the Python client fails here; all four events must decode"
    );
    assert!(items.iter().all(Result::is_ok), "{items:?}");
}

#[test]
fn an_error_event_mid_stream_is_the_typed_error() {
    let Some(body) = capture("016-send-streaming-message-agent-raises.response.sse") else {
        return;
    };
    let (items, _) = decode_in_chunks(&body, &[]);
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok());
    match &items[2] {
        Err(CallError::Agent(A2aError::Internal { message, .. })) => {
            assert_eq!(message, "agent exploded on purpose")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_plain_json_answer_to_a_streaming_call_is_one_typed_item() {
    for (name, variant) in [
        (
            "015-send-streaming-message-unknown-task.response.json",
            "TaskNotFound",
        ),
        (
            "017-subscribe-completed-task.response.json",
            "UnsupportedOperation",
        ),
    ] {
        let Some(body) = capture(name) else { return };
        match Decoder::new().decode::<StreamResponse>(&body) {
            Err(CallError::Agent(e)) => assert_eq!(e.name(), variant, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn invalid_utf8_and_cut_off_events_are_malformed() {
    let (items, end) = decode_in_chunks(
        b"data: {\"result\": {\"message\": \"\xff\"}}\n\ndata: {\"res",
        &[],
    );
    assert!(matches!(&items[0], Err(CallError::Malformed(e)) if e.reason().contains("UTF-8")));
    assert!(matches!(end, Err(CallError::Malformed(_))));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_of_a_captured_stream_gives_the_same_items(cuts in prop::collection::vec(any::<usize>(), 0..40)) {
        let mut body = b"\xEF\xBB\xBF: comment\r\n".to_vec();
        for name in ["003-send-streaming-message.response.sse", "013-send-streaming-message-line-separators.response.sse",
                     "016-send-streaming-message-agent-raises.response.sse"] {
            match capture(name) {
                Some(b) => body.extend(b),
                None => return Ok(()),
            }
        }
        let whole = decode_in_chunks(&body, &[]);
        prop_assert_eq!(whole.0.len(), 11);
        prop_assert_eq!(decode_in_chunks(&body, &cuts), whole);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_stream_decoder(bytes in prop::collection::vec(any::<u8>(), 0..300), cuts in prop::collection::vec(any::<usize>(), 0..10)) {
        let _ = decode_in_chunks(&bytes, &cuts);
        let mut framed = b"data: ".to_vec();
        framed.extend(&bytes);
        framed.extend(b"\n\n");
        let (items, _) = decode_in_chunks(&framed, &cuts);
        prop_assert!(items.len() <= framed.iter().filter(|b| **b == b'\n' || **b == b'\r').count());
    }
}

/// A later spec's new kind of event reaches the caller as `StreamResponse::Unknown`, carrying its
/// member's name, and the events after it still come, in any chunking.
#[test]
fn an_event_of_a_kind_this_version_does_not_know_is_unknown_and_the_stream_goes_on() {
    let task = r#"{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}"#;
    let body = format!(
        "data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{task}}}\n\n\
         data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"progressUpdate\":{{\"percent\":40}}}}}}\n\n\
         data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\n\n\
         data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{task}}}\n\n"
    );
    for cuts in [&[][..], &[1, 7, 60, 61, 150][..]] {
        let (items, end) = decode_in_chunks(body.as_bytes(), cuts);
        assert!(end.is_ok());
        let names: Vec<Option<String>> = items
            .iter()
            .map(|i| i.as_ref().unwrap().member_name().map(str::to_owned))
            .collect();
        assert_eq!(
            names,
            [Some("task"), Some("progressUpdate"), None, Some("task")]
                .map(|n| n.map(str::to_owned))
        );
        assert!(matches!(items[1], Ok(StreamResponse::Unknown(_))));
    }
}

/// The SSE captures through the v1.1 draft's stream decoder: the same events, member by member,
/// and the same typed error mid-stream (the draft only adds fields and a row).
#[test]
fn the_stream_captures_decode_the_same_under_the_v1_1_draft() {
    use a2a_types::v1_1_draft as draft;
    for name in [
        "003-send-streaming-message.response.sse",
        "013-send-streaming-message-line-separators.response.sse",
        "016-send-streaming-message-agent-raises.response.sse",
    ] {
        let Some(body) = capture(name) else { return };
        let mut decoder = draft::Decoder::new().stream::<draft::StreamResponse>();
        let ours: Vec<Result<Option<String>, (i64, &str)>> = decoder
            .feed(&body)
            .into_iter()
            .map(|item| match item {
                Ok(event) => Ok(event.member_name().map(str::to_owned)),
                Err(draft::CallError::Agent(e)) => Err((e.code(), e.name())),
                Err(other) => panic!("{name}: {other:?}"),
            })
            .collect();
        assert!(decoder.finish().is_ok(), "{name}");
        let (v1_items, _) = decode_in_chunks(&body, &[]);
        let v1: Vec<Result<Option<String>, (i64, &str)>> = v1_items
            .iter()
            .map(|item| match item {
                Ok(event) => Ok(event.member_name().map(str::to_owned)),
                Err(CallError::Agent(e)) => Err((e.code(), e.name())),
                Err(other) => panic!("{name}: {other:?}"),
            })
            .collect();
        assert_eq!(ours, v1, "{name}");
        assert!(!ours.is_empty(), "{name}");
    }
}

/// An event with no data (`data:` alone, or a named event without data lines) carries no
/// response: a2a-sdk's SSE reader skips it for both bindings, and so does the decoder, in any
/// chunking, instead of yielding a malformed item.
#[test]
fn events_without_data_are_skipped_as_the_sdk_skips_them() {
    let body = b"data:\n\nevent: ping\n\n: comment\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t-1\",\"status\":{}}}}\n\ndata:\n\n";
    for cut in 0..body.len() {
        let (items, end) = decode_in_chunks(body, &[cut]);
        assert_eq!(items.len(), 1, "cut at {cut}: {items:?}");
        assert!(matches!(&items[0], Ok(StreamResponse::Task(t)) if t.id == "t-1"));
        assert!(end.is_ok());
    }
}
