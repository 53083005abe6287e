//! The unary reply contract: every body gives exactly one of ok (the method's result), error (a
//! typed `A2aError`) or malformed (a `ClientError` with a reason), and never panics.

use a2a_types::v1::{
    decode_reply, method, A2aError, CallError, Decoder, MethodName, Reply, Task, ERROR_TABLE,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn error_reply(error: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "error": error})).unwrap()
}

fn agent_error(body: &[u8]) -> A2aError {
    match Decoder::new().decode::<Task>(body) {
        Err(CallError::Agent(e)) => e,
        other => panic!("expected an agent error, got {other:?}"),
    }
}

fn malformed(body: &[u8]) -> String {
    match Decoder::new().decode::<Task>(body) {
        Err(CallError::Malformed(e)) => e.reason().to_string(),
        other => panic!("expected malformed, got {other:?}"),
    }
}

#[test]
fn every_error_row_decodes_to_its_variant_with_or_without_message_and_with_any_data() {
    assert_eq!(ERROR_TABLE.len(), 14);
    let datas = [
        None,
        Some(json!(null)),
        Some(
            json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "X", "domain": "a2a-protocol.org"}]),
        ),
        Some(json!("text")),
        Some(json!({"k": 1})),
        Some(json!(42)),
    ];
    for row in &ERROR_TABLE {
        for data in &datas {
            for message in [Some("agent says no"), None] {
                let mut error =
                    json!({"code": row.code, "extra": {"ignored": true}, "reason": "expired"});
                if let Some(m) = message {
                    error["message"] = json!(m);
                }
                if let Some(d) = data {
                    error["data"] = d.clone();
                }
                let e = agent_error(&error_reply(error));
                assert_eq!(e.name(), row.name, "code {}", row.code);
                assert_eq!(e.code(), row.code);
                assert_eq!(e.message(), message.unwrap_or(row.message));
                assert_eq!(e.data(), data.as_ref());
                assert_eq!((e.grpc_status(), e.http_status()), (row.grpc, row.http));
                assert!(
                    row.spec_name.starts_with(row.name) || row.name == "JsonParse",
                    "{}",
                    row.spec_name
                );
            }
        }
    }
}

#[test]
fn variants_are_matched_by_name() {
    let e = agent_error(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"gone"}}"#);
    assert!(matches!(&e, A2aError::TaskNotFound { message, data: None } if message == "gone"));
    let e = agent_error(br#"{"error":{"code":-32602}}"#);
    assert!(
        matches!(&e, A2aError::InvalidParams { message, .. } if message == "Invalid parameters")
    );
    assert_eq!(e.to_string(), "InvalidParams (-32602): Invalid parameters");
}

#[test]
fn unknown_codes_keep_code_message_and_data() {
    let e = agent_error(br#"{"error":{"code":-32050,"message":"quota","data":{"retry":3}}}"#);
    assert_eq!(
        e,
        A2aError::Other {
            code: -32050,
            message: "quota".into(),
            data: Some(json!({"retry": 3}))
        }
    );
    assert_eq!(
        (e.grpc_status(), e.http_status(), e.name()),
        ("UNKNOWN", 500, "Other")
    );
    let e = agent_error(br#"{"error":{"code":7}}"#);
    assert_eq!(e.message(), "Unknown error");
}

#[test]
fn a_non_string_message_falls_back_to_the_default() {
    let e = agent_error(br#"{"error":{"code":-32004,"message":{"nested":true}}}"#);
    assert_eq!(e.message(), "This operation is not supported");
}

#[test]
fn errors_encode_as_json_rpc_error_objects_and_decode_back() {
    for row in &ERROR_TABLE {
        let e = A2aError::from_code(row.code, None, Some(json!([{"@type": "t"}])));
        let encoded = serde_json::to_value(&e).unwrap();
        assert_eq!(
            encoded,
            json!({"code": row.code, "message": row.message, "data": [{"@type": "t"}]})
        );
        assert_eq!(serde_json::from_value::<A2aError>(encoded).unwrap(), e);
    }
}

#[test]
fn code_table_and_reserved_block_are_taken() {
    use a2a_types::v1::is_code_taken;
    for row in &ERROR_TABLE {
        assert!(is_code_taken(row.code));
    }
    assert!(is_code_taken(-32768) && is_code_taken(-32100) && is_code_taken(-32700));
    assert!(
        !is_code_taken(-32099)
            && !is_code_taken(-32050)
            && !is_code_taken(-32000)
            && !is_code_taken(42)
    );
    const _: () = assert!(is_code_taken(-32001), "usable in const context");
}

#[test]
fn seed_report_unary_cases() {
    // The bug report's bodies (also in ../shared/envelope-cases/seed.json, run by the classify test).
    malformed(br#"[{"jsonrpc": "2.0", "id": "1", "result": {"id": "task-1"}}]"#);
    malformed(br#""hello""#);
    assert_eq!(
        malformed(br#"{"jsonrpc": "2.0", "id": "1"}"#),
        "the reply has neither `result` nor `error`"
    );
    assert_eq!(
        malformed(br#"{"jsonrpc": "2.0", "id": "1", "error": "boom"}"#),
        "`error` is the string \"boom\", not an object"
    );
    let e = agent_error(br#"{"jsonrpc": "2.0", "id": "1", "error": {"code": -32001, "message": "Task not found", "reason": "expired"}}"#);
    assert!(matches!(e, A2aError::TaskNotFound { .. }));
    let e = agent_error(br#"{"jsonrpc": "2.0", "id": "1", "error": {"code": -32001}}"#);
    assert_eq!(e.message(), "Task not found");
}

#[test]
fn falsy_error_beside_a_result_is_success_and_null_error_alone_is_malformed() {
    let task = r#"{"id":"t","status":{"state":"TASK_STATE_WORKING"}}"#;
    for falsy in ["null", "false", "0", "\"\"", "[]"] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"error":{falsy},"result":{task}}}"#);
        assert_eq!(
            Decoder::new().decode::<Task>(body.as_bytes()).unwrap().id,
            "t",
            "{falsy}"
        );
    }
    malformed(br#"{"jsonrpc":"2.0","id":1,"error":null}"#);
}

#[test]
fn a_result_that_does_not_decode_is_malformed_with_a_path() {
    let reason = malformed(br#"{"result":{"id":"t","status":{"state":"TASK_STATE_WORKING","message":{"parts":[{"text":"a","url":"b"}]}}}}"#);
    assert!(
        reason.starts_with("`result` does not decode as Task at `result.status.message.parts[0]`"),
        "{reason}"
    );
    let reason = malformed(br#"{"result":{"id":"t","status":{"state":true}}}"#);
    assert!(
        reason.starts_with("`result` does not decode as Task at `result.status.state`"),
        "{reason}"
    );
}

#[test]
fn odd_bytes_get_clean_answers() {
    assert!(malformed(b"{\"result\":\"\xff\xfe\"}").starts_with("the body is not valid UTF-8"));
    let deep = format!("{{\"result\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
    assert!(malformed(deep.as_bytes()).contains("nests too deeply"));
    assert!(
        malformed(br#"{"result":{"id":"t","status":{}}} trailing"#).contains("trailing characters")
    );
    assert!(
        malformed(br#"{"result":{"id":"t","status":{},"metadata":{"n":1e999}}}"#)
            .contains("number out of range")
    );
    // An unknown member is skipped without being converted, so even an out-of-range number there is fine.
    assert!(Decoder::new()
        .decode::<Task>(br#"{"result":{"id":"t","status":{},"n":1e999}}"#)
        .is_ok());
    assert_eq!(
        Decoder::new()
            .decode::<Task>(b"\xEF\xBB\xBF{\"result\":{\"id\":\"t\",\"status\":{}}}")
            .unwrap()
            .id,
        "t"
    );
    assert_eq!(malformed(b"  "), "the body is empty");
}

#[test]
fn typed_and_dynamic_method_decoding_agree() {
    let body = br#"{"jsonrpc":"2.0","id":1,"result":{"tasks":[],"totalSize":0}}"#;
    let typed = decode_reply::<method::ListTasks>(body).unwrap();
    let dynamic = Reply::decode(
        MethodName::from_name("ListTasks").unwrap(),
        body,
        &Decoder::new(),
    )
    .unwrap();
    assert_eq!(dynamic, Reply::ListTasks(typed));
    assert_eq!(dynamic.type_name(), "ListTasksResponse");
    assert_eq!(MethodName::ALL.len(), 11);
    assert!(MethodName::SendStreamingMessage.is_streaming() && !MethodName::GetTask.is_streaming());
    let empty =
        decode_reply::<method::DeleteTaskPushNotificationConfig>(br#"{"result":{}}"#).unwrap();
    assert_eq!(empty, a2a_types::v1::Empty::default());
}

/// The unary captures through one module's `Reply::decode`: what the Python client returned
/// decodes, and each error is the row the Python client raised.
macro_rules! unary_captures_test {
    ($(#[$doc:meta])* $name:ident, $module:ident) => {
        $(#[$doc])*
        #[test]
        fn $name() {
            use a2a_types::$module::{CallError, Decoder, MethodName, Reply, ERROR_TABLE};
            let Some(dir) = a2a_tests::shared_path("unary wire captures", "wire-captures/a2a-sdk-1.3.0")
            else {
                return;
            };
            let mut checked = 0;
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let Some(stem) = name.strip_suffix(".response.json") else {
                    continue;
                };
                if stem.ends_with("agent-card") {
                    continue;
                }
                let body = std::fs::read(&path).unwrap();
                let meta: Value = serde_json::from_str(
                    &std::fs::read_to_string(dir.join(format!("{stem}.meta.json"))).unwrap(),
                )
                .unwrap();
                let request: Value = serde_json::from_slice(
                    &std::fs::read(dir.join(format!("{stem}.request.json"))).unwrap_or_default(),
                )
                .unwrap_or(Value::Null);
                // Requests the server could not read (not JSON, unknown method): any method's decoder will do.
                let method = request["method"]
                    .as_str()
                    .and_then(MethodName::from_name)
                    .unwrap_or(MethodName::GetTask);
                let outcome = &meta["client_outcome"];
                let sent: Value = serde_json::from_slice(&body).unwrap();
                match Reply::decode(method, &body, &Decoder::new()) {
                    Ok(reply) => assert!(
                        outcome.get("returned").is_some() && sent.get("result").is_some(),
                        "{name}: {reply:?}"
                    ),
                    Err(CallError::Agent(e)) => {
                        let code = sent["error"]["code"].as_i64().unwrap();
                        assert_eq!(e.code(), code, "{name}");
                        let row = ERROR_TABLE
                            .iter()
                            .find(|r| r.code == code)
                            .unwrap_or_else(|| panic!("{name}: code {code} not in table"));
                        assert_eq!(e.name(), row.name, "{name}");
                        if let Some(raised) = outcome["raised"].as_str() {
                            assert_eq!(
                                raised, row.spec_name,
                                "{name}: the Python client raised {raised}"
                            );
                            assert_eq!(e.message(), outcome["message"].as_str().unwrap(), "{name}");
                        }
                    }
                    Err(CallError::Malformed(e)) => panic!("{name}: malformed: {e}"),
                }
                checked += 1;
            }
            assert_eq!(
                checked, 13,
                "unary captures checked (002, 004-012, 014, 015, 017)"
            );
        }
    };
}

unary_captures_test!(unary_wire_captures_decode_as_the_python_client_saw_them, v1);
unary_captures_test!(
    /// v1.0.1 traffic under the v1.1 draft, which only adds fields and a row: the same outcomes.
    unary_wire_captures_decode_the_same_under_the_v1_1_draft,
    v1_1_draft
);

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        for method in MethodName::ALL {
            let _ = Reply::decode(method, &bytes, &Decoder::new());
        }
    }

    #[test]
    fn arbitrary_json_never_panics(value in json_value(), wrap in 0..4u8) {
        let body = match wrap {
            0 => value,
            1 => json!({"jsonrpc": "2.0", "id": 1, "result": value}),
            2 => json!({"jsonrpc": "2.0", "id": 1, "error": value}),
            _ => json!({"result": {"id": "t", "status": value}}),
        };
        let bytes = serde_json::to_vec(&body).unwrap();
        for method in MethodName::ALL {
            let outcome = Reply::decode(method, &bytes, &Decoder::new());
            if let Err(CallError::Malformed(e)) = &outcome {
                prop_assert!(!e.reason().is_empty() && !e.reason().contains('\n'));
            }
        }
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    const KEYS: &[&str] = &[
        "id", "status", "state", "code", "message", "data", "result", "error", "parts", "text",
        "task", "tasks", "x",
    ];
    const WORDS: &[&str] = &[
        "TASK_STATE_WORKING",
        "ROLE_USER",
        "text",
        "code",
        "2026-01-01T00:00:00Z",
    ];
    let strings = prop_oneof![".{0,8}", prop::sample::select(WORDS).prop_map(String::from)];
    a2a_tests::arbitrary_json(
        prop::sample::select(KEYS).prop_map(String::from).boxed(),
        strings.boxed(),
    )
}

/// Limits: a body over the size or depth limit is malformed (or, on the agent's side, an invalid
/// request) with a reason saying which limit, before any parsing; the defaults take ordinary
/// replies.
#[test]
fn limits_on_size_and_depth_are_clean_failures() {
    use a2a_types::rt::limits::Limits;
    use a2a_types::v1::{decode_request_limited, Decoder, StreamResponse};
    let task = br#"{"jsonrpc":"2.0","id":1,"result":{"id":"t","status":{"state":"TASK_STATE_WORKING"},"metadata":{"a":{"b":[1]}}}}"#;
    assert!(Decoder::new()
        .limits(Limits::default())
        .decode::<a2a_types::v1::Task>(task)
        .is_ok());

    let small = Limits::default().with_max_body_bytes(32);
    match Decoder::new()
        .limits(small)
        .decode::<a2a_types::v1::Task>(task)
    {
        Err(a2a_types::v1::CallError::Malformed(e)) => {
            assert_eq!(
                e.reason(),
                format!("the body is {} bytes, over the limit of 32", task.len())
            )
        }
        other => panic!("{other:?}"),
    }
    let shallow = Limits::default().with_max_depth(3);
    match Decoder::new()
        .limits(shallow)
        .decode::<a2a_types::v1::Task>(task)
    {
        Err(a2a_types::v1::CallError::Malformed(e)) => {
            assert_eq!(e.reason(), "the body nests deeper than the limit of 3")
        }
        other => panic!("{other:?}"),
    }

    // Streams: the size is bounded while framing, the depth per event.
    let event = b"data: {\"result\":{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{}}}}\n\n";
    let mut decoder = a2a_types::v1::Decoder::new()
        .limits(shallow)
        .stream::<StreamResponse>();
    let items = decoder.feed(event);
    assert!(
        matches!(&items[..], [Err(a2a_types::v1::CallError::Malformed(e))] if e.reason() == "an event's data nests deeper than the limit of 3"),
        "{items:?}"
    );
    let mut decoder = a2a_types::v1::Decoder::new()
        .limits(small)
        .stream::<StreamResponse>();
    let items = decoder.feed(event);
    assert!(matches!(&items[..], [Err(_)]), "{items:?}");
    assert!(a2a_types::v1::Decoder::new()
        .stream::<StreamResponse>()
        .feed(event)
        .iter()
        .all(Result::is_ok));

    // The agent's side: an invalid request saying which limit.
    let request =
        br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","x":[[[[1]]]]}}"#;
    assert!(decode_request_limited(request, &Limits::default()).is_ok());
    let rejected = decode_request_limited(request, &shallow).unwrap_err();
    assert_eq!(rejected.error.code(), -32600);
    assert!(
        rejected
            .error
            .message()
            .ends_with("the request nests deeper than the limit of 3"),
        "{}",
        rejected.error
    );
}

/// The official SDK's v1 server answers a delete with `"result": null`, its v0.3 server leaves
/// `result` out (it drops nulls), and our `encode_result` writes `{}`: all three are success for a
/// method that returns nothing, and only for such a method.
#[test]
fn void_results_are_success_as_null_empty_or_absent() {
    for body in [
        &br#"{"jsonrpc":"2.0","id":1,"result":null}"#[..],
        br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        br#"{"jsonrpc":"2.0","id":1}"#,
        br#"{"jsonrpc":"2.0","id":1,"result":{"future":1}}"#,
    ] {
        let text = String::from_utf8_lossy(body);
        assert!(
            decode_reply::<method::DeleteTaskPushNotificationConfig>(body).is_ok(),
            "v1: {text}"
        );
        assert!(
            a2a_types::v0_3::decode_reply::<
                a2a_types::v0_3::method::DeleteTaskPushNotificationConfig,
            >(body)
            .is_ok(),
            "v0.3: {text}"
        );
    }
    assert_eq!(
        malformed(br#"{"jsonrpc":"2.0","id":1}"#),
        "the reply has neither `result` nor `error`"
    );
    assert_eq!(
        malformed(br#"{"jsonrpc":"2.0","id":1,"result":null}"#),
        "`result` is null"
    );
    let id = a2a_types::rt::RequestId::Number(7.into());
    let written = a2a_types::v1::encode_result::<method::DeleteTaskPushNotificationConfig>(
        &id,
        &a2a_types::v1::Empty {},
    );
    let written: Value = serde_json::from_slice(&written).unwrap();
    assert_eq!(written["result"], json!({}));
}
