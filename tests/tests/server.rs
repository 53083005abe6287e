//! The agent's side: typed request decoding, each standard error for its cause, and round trips
//! of requests, results, errors and stream events through the client-side decoders.

use a2a_tests::{arbitrary_json, shared_path, strip_protojson_defaults, SAMPLES};
use a2a_types::rt::jsonrpc::client::encode_request;
use a2a_types::rt::wire::{ErrorDetail, A2A_DOMAIN, BAD_REQUEST_TYPE};
use a2a_types::rt::RequestId;
use a2a_types::v1::{
    decode_request, encode_error, encode_event, encode_result, method, A2aError, CallError,
    Decoder, MethodName, Reply, Request, StreamResponse, Task,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn sample(type_name: &str) -> Value {
    let (_, text) = SAMPLES
        .iter()
        .find(|(name, _)| *name == type_name)
        .unwrap_or_else(|| panic!("no sample {type_name}"));
    serde_json::from_str(text).unwrap()
}

/// Params for every method, each with every member its type has.
fn params_for(method: MethodName) -> Value {
    match method {
        MethodName::SendMessage | MethodName::SendStreamingMessage => sample("SendMessageRequest"),
        MethodName::GetTask => json!({"tenant": "t", "id": "t-1", "historyLength": 3}),
        MethodName::ListTasks => sample("ListTasksRequest"),
        MethodName::CancelTask => {
            json!({"tenant": "t", "id": "t-1", "metadata": {"why": ["user"]}})
        }
        MethodName::SubscribeToTask => json!({"tenant": "t", "id": "t-1"}),
        MethodName::CreateTaskPushNotificationConfig => json!({
            "tenant": "t", "id": "p", "taskId": "t-1", "url": "https://hook.example", "token": "tok",
            "authentication": {"scheme": "Bearer", "credentials": "c"}
        }),
        MethodName::GetTaskPushNotificationConfig
        | MethodName::DeleteTaskPushNotificationConfig => {
            json!({"tenant": "t", "taskId": "t-1", "id": "p"})
        }
        MethodName::ListTaskPushNotificationConfigs => {
            json!({"tenant": "t", "taskId": "t-1", "pageSize": 5, "pageToken": "n"})
        }
        MethodName::GetExtendedAgentCard => json!({"tenant": "t"}),
    }
}

fn rejected(body: &[u8]) -> a2a_types::v1::RejectedRequest {
    match decode_request(body) {
        Err(r) => r,
        Ok(ok) => panic!(
            "expected a rejection of {}, got {ok:?}",
            String::from_utf8_lossy(body)
        ),
    }
}

#[test]
fn every_method_round_trips_through_encode_and_decode() {
    for (i, method) in MethodName::ALL.into_iter().enumerate() {
        let params = params_for(method);
        let id = RequestId::from(i as i64);
        let body = encode_request(&id, method.as_str(), &params);
        let incoming = decode_request(&body).unwrap_or_else(|e| panic!("{method}: {e}"));
        assert_eq!(incoming.id, Some(id.clone()));
        assert_eq!(incoming.request.method(), method);

        // Encoding the typed request gives the same params back (ProtoJSON defaults aside), and
        // decoding that gives the same typed request.
        let again = incoming.request.encode(&id);
        let mut written: Value = serde_json::from_slice(&again).unwrap();
        let mut expected = params.clone();
        strip_protojson_defaults(&mut written["params"]);
        strip_protojson_defaults(&mut expected);
        assert_eq!(written["params"], expected, "{method}");
        assert_eq!(written["method"], method.as_str());
        assert_eq!(written["jsonrpc"], "2.0");
        let back = decode_request(&again).unwrap();
        assert_eq!(back, incoming, "{method}");
    }
}

#[test]
fn unknown_members_are_ignored_at_every_depth_of_a_request() {
    let body = br#"{"jsonrpc":"2.0","id":"req-12","method":"GetTask","xTrace":"abc",
        "params":{"id":"nope","xUnknown":1,"nested":{"deeper":[{"x":null}]}}}"#;
    let incoming = decode_request(body).unwrap();
    let Request::GetTask(params) = incoming.request else {
        panic!("{:?}", incoming.request)
    };
    assert_eq!(params.id, "nope");
}

#[test]
fn a_missing_params_member_is_an_empty_message() {
    let incoming =
        decode_request(br#"{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}"#).unwrap();
    assert_eq!(incoming.request.method(), MethodName::GetExtendedAgentCard);
    // A method whose params have a required message field then fails on that field. (A required
    // string is not missing when absent: ProtoJSON writers leave out "" like any default.)
    let r = rejected(br#"{"jsonrpc":"2.0","id":1,"method":"SendMessage"}"#);
    assert!(matches!(r.error, A2aError::InvalidParams { .. }), "{r}");
    assert_eq!(
        r.error.details()[0].get("fieldViolations").unwrap()[0]["field"],
        "params.message"
    );
}

#[test]
fn a_notification_has_no_id_and_answers_with_null() {
    let incoming =
        decode_request(br#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"t"}}"#).unwrap();
    assert_eq!(incoming.id, None);
    assert_eq!(incoming.response_id(), RequestId::Null);
}

/// Each standard JSON-RPC error, produced for its cause, answered as a response the client side
/// reads back as the same typed error.
#[test]
fn each_standard_error_is_produced_for_its_cause() {
    let cases: [(&[u8], i64, &str, RequestId, &str); 12] = [
        (b"{\"jsonrpc\": \"2.0\", \"id\": \"a\", ", -32700, "JsonParse", RequestId::Null, "Invalid JSON payload: the request is not valid JSON: EOF while parsing"),
        (b"", -32700, "JsonParse", RequestId::Null, "Invalid JSON payload: the request is empty"),
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc3\x28\"}", -32700, "JsonParse", RequestId::Null, "Invalid JSON payload: the request is not valid UTF-8"),
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\"} {}", -32700, "JsonParse", RequestId::Null, "Invalid JSON payload: the request is not valid JSON: trailing characters"),
        (b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\"}]", -32600, "InvalidRequest", RequestId::Null, "Request payload validation error: the request is a JSON array, not an object (JSON-RPC batches are not part of A2A)"),
        (br#"{"jsonrpc":"1.0","id":"req-11","method":"GetTask","params":{"id":"x"}}"#, -32600, "InvalidRequest", RequestId::from("req-11"), "Request payload validation error: `jsonrpc` is the string \"1.0\"; it must be \"2.0\""),
        (br#"{"jsonrpc":"2.0","id":true,"method":"GetTask"}"#, -32600, "InvalidRequest", RequestId::Null, "Request payload validation error: `id` is the boolean true; it must be a string, a number or null"),
        (br#"{"jsonrpc":"2.0","id":2,"method":7}"#, -32600, "InvalidRequest", RequestId::from(2), "Request payload validation error: `method` is the number 7, not a string"),
        (br#"{"jsonrpc":"2.0","id":"req-7","method":"NoSuchMethod","params":{}}"#, -32601, "MethodNotFound", RequestId::from("req-7"), "Method not found: no method is named \"NoSuchMethod\""),
        (br#"{"jsonrpc":"2.0","id":"req-7","method":"tasks/get","params":{}}"#, -32601, "MethodNotFound", RequestId::from("req-7"), "Method not found: no method is named \"tasks/get\""),
        (br#"{"jsonrpc":"2.0","id":"req-8","method":"GetTask","params":{"id":{"not":"a string"}}}"#, -32602, "InvalidParams", RequestId::from("req-8"), "Invalid parameters: `params.id`: "),
        (br#"{"jsonrpc":"2.0","id":"req-9","method":"SendMessage","params":{}}"#, -32602, "InvalidParams", RequestId::from("req-9"), "Invalid parameters: `params.message`: SendMessage cannot run without it (absent, null or empty)"),
    ];
    for (body, code, name, id, message) in cases {
        let r = rejected(body);
        let what = String::from_utf8_lossy(body);
        assert_eq!((r.error.code(), r.error.name()), (code, name), "{what}");
        assert_eq!(r.id, id, "{what}");
        assert!(
            r.error.message().starts_with(message),
            "{what}: {}",
            r.error.message()
        );

        // The response body carries the same id and decodes, client side, as the same error.
        let response = r.to_response();
        let value: Value = serde_json::from_slice(&response).unwrap();
        assert_eq!(value["id"], serde_json::to_value(&r.id).unwrap());
        assert_eq!(value["jsonrpc"], "2.0");
        match Decoder::new().decode::<Task>(&response) {
            Err(CallError::Agent(e)) => assert_eq!(e, r.error, "{what}"),
            other => panic!("{what}: {other:?}"),
        }
    }
}

#[test]
fn invalid_params_carry_a_bad_request_detail_naming_the_field() {
    let r = rejected(
        br#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":5}]}}}"#,
    );
    let details = r.error.details();
    assert_eq!(details.len(), 1);
    assert_eq!(details[0].type_url(), BAD_REQUEST_TYPE);
    let violation = &details[0].get("fieldViolations").unwrap()[0];
    assert_eq!(violation["field"], "params.message.parts[0].text");
    assert!(
        r.error.message().contains("`params.message.parts[0].text`"),
        "{}",
        r.error
    );
}

/// What a method cannot run without (the `requires` of spec/*/methods.toml) is refused with -32602
/// naming the field, whether it is absent, null or empty, as the official Python server does; a
/// required field below an optional object that was not sent is not missing.
#[test]
fn a_request_without_what_the_method_needs_is_refused_naming_the_field() {
    let message = json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]});
    let with = |key: &str, value: Value| {
        let mut m = message.clone();
        m[key] = value;
        json!({ "message": m })
    };
    let hook = |config: Value| json!({"message": message, "configuration": {"taskPushNotificationConfig": config}});
    let refused = [
        (json!({}), vec!["params.message"]),
        (json!({"message": null}), vec!["params.message"]),
        (with("parts", json!([])), vec!["params.message.parts"]),
        (with("parts", Value::Null), vec!["params.message.parts"]),
        (
            with("messageId", json!("")),
            vec!["params.message.messageId"],
        ),
        (with("role", json!("")), vec!["params.message.role"]),
        (
            with("role", json!("ROLE_UNSPECIFIED")),
            vec!["params.message.role"],
        ),
        (
            hook(json!({"authentication": {}})),
            vec![
                "params.configuration.taskPushNotificationConfig.url",
                "params.configuration.taskPushNotificationConfig.authentication.scheme",
            ],
        ),
    ];
    for (params, fields) in refused {
        let body = encode_request(&RequestId::from(1), "SendMessage", &params);
        let r = rejected(&body);
        assert_eq!(r.error.code(), -32602, "{params}");
        assert!(
            r.error.message().contains(&format!("`{}`", fields[0])),
            "{params}: {}",
            r.error
        );
        let details = r.error.details();
        let violations = details[0]
            .get("fieldViolations")
            .unwrap()
            .as_array()
            .unwrap();
        let named: Vec<&str> = violations
            .iter()
            .map(|v| v["field"].as_str().unwrap())
            .collect();
        // Without `message`, its members go without saying: only the outermost is named.
        assert_eq!(named, fields, "{params}");
    }
    let accepted = [
        json!({ "message": message }),
        json!({"message": message, "configuration": {}}),
        hook(json!({"url": "https://hook.example"})),
        // A role this version does not know is a value, not a missing one.
        with("role", json!("ROLE_FUTURE")),
    ];
    for params in accepted {
        let body = encode_request(&RequestId::from(1), "SendMessage", &params);
        decode_request(&body).unwrap_or_else(|e| panic!("{params}: {e}"));
    }
    let r = rejected(br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":""}}"#);
    assert!(r.error.message().contains("`params.id`"), "{}", r.error);

    // v0.3 has its own lists: a config id the v1 handler needs, though the v0.3 schema has it
    // optional; a role the SDK requires is not checkable (an absent role decodes as `agent`).
    let v03 = a2a_types::v0_3::decode_request(
        br#"{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/get","params":{"id":"t"}}"#,
    )
    .unwrap_err();
    assert_eq!(v03.error.code(), -32602);
    assert!(
        v03.error
            .message()
            .contains("`params.pushNotificationConfigId`"),
        "{}",
        v03.error
    );
    a2a_types::v0_3::decode_request(
        br#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","parts":[{"kind":"text","text":"hi"}]}}}"#,
    )
    .unwrap();
}

/// What the official Python server answered to each captured request, and what we answer: the
/// same outcome, except for capture 012 (an extra top-level member), which A2A v1 §5.7 says to
/// ignore and the Python server rejects.
macro_rules! captured_requests_test {
    ($(#[$doc:meta])* $name:ident, $module:ident) => {
        $(#[$doc])*
        #[test]
        fn $name() {
            use a2a_types::$module::{decode_request, MethodName};
            let Some(dir) = shared_path("captured requests", "wire-captures/a2a-sdk-1.3.0") else {
                return;
            };
            let mut seen = 0;
            let mut names: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".request.json"))
                .collect();
            names.sort();
            for name in names {
                let body = std::fs::read(dir.join(&name)).unwrap();
                let response_name = name.replace(".request.json", ".response.json");
                let python: Option<Value> = std::fs::read(dir.join(&response_name))
                    .ok()
                    .map(|b| serde_json::from_slice(&b).unwrap());
                let python_code = python
                    .as_ref()
                    .and_then(|v| v["error"]["code"].as_i64())
                    .filter(|c| [-32700, -32600, -32601, -32602].contains(c));
                let ours = decode_request(&body);
                match (python_code, &ours) {
                    (Some(-32600), Ok(incoming)) if name.starts_with("012-") => {
                        assert_eq!(incoming.request.method(), MethodName::GetTask);
                    }
                    (Some(code), Err(r)) => {
                        assert_eq!(r.error.code(), code, "{name}: {r}");
                        let python_id = &python.as_ref().unwrap()["id"];
                        assert_eq!(&serde_json::to_value(&r.id).unwrap(), python_id, "{name}");
                    }
                    (None, Ok(incoming)) => {
                        let sent: Value = serde_json::from_slice(&body).unwrap();
                        assert_eq!(incoming.request.method().as_str(), sent["method"], "{name}");
                    }
                    (expected, ours) => panic!("{name}: python answered {expected:?}, we {ours:?}"),
                }
                seen += 1;
            }
            assert_eq!(seen, 16, "every captured request body");
        }
    };
}

captured_requests_test!(
    captured_requests_decode_as_the_python_server_answered_them,
    v1
);
captured_requests_test!(
    /// The same requests, and the same answers, from the v1.1 draft's server side.
    captured_requests_get_the_same_answers_from_the_v1_1_draft,
    v1_1_draft
);

#[test]
fn every_error_row_round_trips_with_and_without_details() {
    let mut codes: Vec<i64> = a2a_types::v1::ERROR_TABLE.iter().map(|r| r.code).collect();
    codes.push(-32050);
    codes.push(7);
    for code in codes {
        let bare = A2aError::from_code(code, None, None);
        let info = bare.error_info([("taskId", "t-1")]);
        assert_eq!(
            info.is_some(),
            (-32009..=-32001).contains(&code),
            "A2A rows have a reason, standard and unknown codes none: {code}"
        );
        let with_details = bare.clone().with_details(
            info.into_iter()
                .chain([ErrorDetail::bad_request([("params.id", "bad")])]),
        );
        let with_any_data = bare.clone().with_data(Some(json!({"free": "form"})));
        for error in [bare, with_details, with_any_data] {
            let id = RequestId::from("r");
            let body = encode_error(&id, &error);
            match Decoder::new().decode::<Task>(&body) {
                Err(CallError::Agent(back)) => assert_eq!(back, error),
                other => panic!("{code}: {other:?}"),
            }
        }
    }
}

#[test]
fn error_details_follow_the_v1_shape() {
    let error = A2aError::from_code(-32001, Some("gone".into()), None);
    let info = error.error_info([("taskId", "t-9")]).unwrap();
    let body = encode_error(&RequestId::from(3), &error.with_details([info]));
    let value: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        value,
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32001, "message": "gone", "data": [{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "TASK_NOT_FOUND", "domain": A2A_DOMAIN, "metadata": {"taskId": "t-9"}
        }]}})
    );
}

#[test]
fn every_result_type_round_trips_through_a_success_response() {
    for method in MethodName::ALL {
        let samples: Vec<&str> = SAMPLES
            .iter()
            .filter(|(name, _)| *name == method.result_type())
            .map(|(_, text)| *text)
            .collect();
        assert!(!samples.is_empty(), "no sample of {}", method.result_type());
        for text in samples {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{text}}}"#);
            let reply = Reply::decode(method, body.as_bytes(), &Decoder::new()).unwrap();
            let encoded = reply.encode(&RequestId::from(1));
            assert_eq!(
                Reply::decode(method, &encoded, &Decoder::new()).unwrap(),
                reply,
                "{method}"
            );
        }
    }
    // And through the method-typed encoder.
    let task: Task = serde_json::from_value(sample("Task")).unwrap();
    let body = encode_result::<method::GetTask>(&RequestId::from("x"), &task);
    assert_eq!(Decoder::new().decode::<Task>(&body).unwrap(), task);
}

#[test]
fn stream_events_round_trip_through_the_stream_decoder_in_any_chunking() {
    let id = RequestId::from("s");
    let events: Vec<StreamResponse> = SAMPLES
        .iter()
        .filter(|(name, _)| *name == "StreamResponse")
        .map(|(_, text)| serde_json::from_str(text).unwrap())
        .collect();
    let failure = A2aError::from_code(-32603, Some("agent crashed\u{2028}hard".into()), None);
    let mut body = Vec::new();
    for event in &events {
        body.extend(encode_event::<method::SendStreamingMessage>(&id, Ok(event)).to_bytes());
    }
    body.extend(encode_event::<method::SendStreamingMessage>(&id, Err(&failure)).to_bytes());

    let expected: Vec<Result<StreamResponse, CallError>> = events
        .iter()
        .cloned()
        .map(Ok)
        .chain([Err(CallError::Agent(failure.clone()))])
        .collect();
    for chunk in [1, 2, 3, 7, 64, body.len()] {
        let mut decoder = Decoder::new().stream::<StreamResponse>();
        let mut items = Vec::new();
        for piece in body.chunks(chunk) {
            items.extend(decoder.feed(piece));
        }
        decoder.finish().unwrap();
        assert_eq!(items, expected, "chunk size {chunk}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic_the_request_decoder(body in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode_request(&body);
    }

    /// Any JSON value as the whole body, or as the params of a real method, gives an answer: a
    /// request whose re-encoding is stable, or a rejection that is a well-formed response the
    /// client side reads back.
    #[test]
    fn arbitrary_json_never_panics_the_request_decoder(
        value in arbitrary_json(
            prop_oneof![Just("id".to_string()), Just("text".to_string()), Just("message".to_string()), "[a-z]{1,6}"].boxed(),
            ".{0,8}".boxed(),
        ),
        method in prop::sample::select(MethodName::ALL.to_vec()),
    ) {
        let as_body = serde_json::to_vec(&value).unwrap();
        let as_params = encode_request(&RequestId::from(1), method.as_str(), &value);
        for body in [as_body, as_params] {
            match decode_request(&body) {
                Ok(incoming) => {
                    // Decoding drops what this version does not know (an unknown oneof member
                    // keeps only its name), so the property is on the wire: one re-encoding is a
                    // fixpoint that decodes again.
                    let again = incoming.request.encode(&incoming.response_id());
                    let back = decode_request(&again);
                    prop_assert!(back.is_ok(), "{:?}", back);
                    let back = back.unwrap();
                    prop_assert_eq!(back.request.encode(&back.response_id()), again);
                }
                Err(r) => {
                    let back = Decoder::new().decode::<Task>(&r.to_response());
                    prop_assert_eq!(back, Err(CallError::Agent(r.error)));
                }
            }
        }
    }
}

/// JSON-RPC 2.0 §4.1: a notification (a valid request object without `id`) gets no response, not
/// even an error; `"id": null` is a request, and a body whose envelope is broken cannot be told to
/// be a notification, so both are answered.
#[test]
fn notifications_get_no_response_and_everything_else_does() {
    let incoming =
        decode_request(br#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":"t"}}"#).unwrap();
    assert!(incoming.is_notification());
    let incoming =
        decode_request(br#"{"jsonrpc":"2.0","id":null,"method":"GetTask","params":{"id":"t"}}"#)
            .unwrap();
    assert!(!incoming.is_notification());

    for body in [
        &br#"{"jsonrpc":"2.0","method":"NoSuchMethod"}"#[..],
        br#"{"jsonrpc":"2.0","method":"SendMessage","params":{}}"#,
        br#"{"jsonrpc":"2.0","method":"GetTask","params":{"id":7}}"#,
    ] {
        let r = rejected(body);
        let what = String::from_utf8_lossy(body);
        assert!(r.notification, "{what}");
        assert_eq!(r.response(), None, "{what}");
        assert!(
            !r.to_response().is_empty(),
            "{what}: to_response still renders it"
        );
    }
    for (body, id) in [
        (
            &br#"{"jsonrpc":"2.0","id":null,"method":"NoSuchMethod"}"#[..],
            RequestId::Null,
        ),
        (
            br#"{"jsonrpc":"2.0","id":3,"method":"NoSuchMethod"}"#,
            RequestId::from(3),
        ),
        (br#"{"jsonrpc":"1.0","method":"GetTask"}"#, RequestId::Null),
        (br#"{"jsonrpc":"2.0","method":7}"#, RequestId::Null),
        (b"{not json", RequestId::Null),
    ] {
        let r = rejected(body);
        let what = String::from_utf8_lossy(body);
        assert!(!r.notification, "{what}");
        let response: serde_json::Value = serde_json::from_slice(&r.response().unwrap()).unwrap();
        assert_eq!(response["id"], serde_json::to_value(&id).unwrap(), "{what}");
    }
}

#[test]
fn row_constructors_attach_the_error_info_on_both_bindings() {
    let error = A2aError::task_not_found()
        .with_info([("taskId", "t-9")])
        .with_message("no task t-9");
    assert!(matches!(error, A2aError::TaskNotFound { .. }));
    assert_eq!(error.message(), "no task t-9");
    let details = error.details();
    assert_eq!(details.len(), 1);
    assert_eq!(details[0].reason(), Some("TASK_NOT_FOUND"));
    let body: Value = serde_json::from_slice(&encode_error(&RequestId::from(1), &error)).unwrap();
    assert_eq!(body["error"]["data"][0]["metadata"]["taskId"], "t-9");
    let rest: Value =
        serde_json::from_slice(&a2a_types::v1::encode_rest_error(&error).body).unwrap();
    assert_eq!(rest["error"]["details"][0]["reason"], "TASK_NOT_FOUND");
    assert_eq!(rest["error"]["details"][0]["metadata"]["taskId"], "t-9");
    assert_eq!(rest["error"]["details"].as_array().unwrap().len(), 1);
    // The standard JSON-RPC rows have no reason: no ErrorInfo, and `with_info` changes nothing.
    let params = A2aError::invalid_params().with_info([("k", "v")]);
    assert_eq!(params.code(), -32602);
    assert!(params.data().is_none());
}
