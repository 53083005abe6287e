//! The echo agent and a client, both on the module build.rs generated: calls round-trip through
//! the generated encoders and decoders, the agent's own errors included.

use a2a_runtime::server::RequestId;
use a2a_runtime::AgentError as _;
use echo_agent::a2a::{
    decode_reply_with, method, A2aError, CallError, EchoError, Message, Part, PartContent, Request,
    Role, SendMessageRequest, SendMessageResponse, StreamDecoder, StreamResponse, Task, TaskState,
};
use echo_agent::{handle, MAX_ECHO_CHARS};

fn message(parts: Vec<PartContent>) -> Message {
    Message {
        message_id: "m-1".to_string(),
        context_id: Some("c-1".to_string()),
        role: Role::User,
        parts: parts
            .into_iter()
            .map(|content| Part {
                content,
                metadata: None,
                filename: None,
                media_type: None,
            })
            .collect(),
        ..Default::default()
    }
}

fn send(parts: Vec<PartContent>) -> Vec<u8> {
    Request::SendMessage(SendMessageRequest {
        message: message(parts),
        ..Default::default()
    })
    .encode(&RequestId::from("r-1"))
}

#[test]
fn send_message_echoes_the_text() {
    let response = handle(&send(vec![PartContent::Text("hello".into())]));
    assert_eq!(response.content_type, "application/json");
    let reply = decode_reply_with::<method::SendMessage, EchoError>(&response.body).unwrap();
    let SendMessageResponse::Message(reply) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(reply.role, Role::Agent);
    assert_eq!(reply.context_id.as_deref(), Some("c-1"));
    assert_eq!(reply.parts[0].content, PartContent::Text("hello".into()));
}

#[test]
fn the_agents_own_errors_come_back_typed() {
    let cases = [
        (
            vec![PartContent::Url("https://x.example".into())],
            EchoError::NothingToEcho,
        ),
        (
            vec![PartContent::Text("x".repeat(MAX_ECHO_CHARS + 1))],
            EchoError::TooLong,
        ),
    ];
    for (parts, expected) in cases {
        let response = handle(&send(parts));
        match decode_reply_with::<method::SendMessage, EchoError>(&response.body) {
            Err(CallError::Custom { error, message }) => {
                assert_eq!(error, expected);
                assert_eq!(message, expected.message());
            }
            other => panic!("{expected:?}: {other:?}"),
        }
    }
    // The rows of the custom table, with the generator's defaults filled in.
    let row = EchoError::NothingToEcho.row();
    assert_eq!(
        (row.code, row.grpc, row.http, row.message),
        (-32061, "INVALID_ARGUMENT", 400, "Nothing to echo")
    );
}

#[test]
fn a_client_without_the_custom_type_still_gets_the_error_with_its_code() {
    let response = handle(&send(vec![PartContent::Url("https://x.example".into())]));
    match decode_reply_with::<method::SendMessage, a2a_runtime::custom::NoCustomErrors>(
        &response.body,
    ) {
        Err(CallError::Agent(A2aError::Other { code, .. })) => assert_eq!(code, -32061),
        other => panic!("{other:?}"),
    }
}

#[test]
fn streaming_echo_is_a_task_that_completes() {
    let body = Request::SendStreamingMessage(SendMessageRequest {
        message: message(vec![PartContent::Text("stream me".into())]),
        ..Default::default()
    })
    .encode(&RequestId::from(7));
    let response = handle(&body);
    assert_eq!(response.content_type, "text/event-stream");
    let mut decoder = StreamDecoder::<StreamResponse, EchoError>::new();
    let mut events = Vec::new();
    for chunk in response.body.chunks(5) {
        events.extend(decoder.feed(chunk).into_iter().map(Result::unwrap));
    }
    decoder.finish().unwrap();
    assert_eq!(events.len(), 4);
    assert!(
        matches!(&events[0], StreamResponse::Task(Task { status, .. }) if status.state == TaskState::Submitted)
    );
    let StreamResponse::ArtifactUpdate(artifact) = &events[2] else {
        panic!("{:?}", events[2])
    };
    assert_eq!(
        artifact.artifact.parts[0].content,
        PartContent::Text("stream me".into())
    );
    assert!(
        matches!(&events[3], StreamResponse::StatusUpdate(u) if u.status.state == TaskState::Completed)
    );
}

#[test]
fn task_calls_get_task_not_found_with_its_error_info() {
    let response = handle(br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-9"}}"#);
    match decode_reply_with::<method::GetTask, EchoError>(&response.body) {
        Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => {
            assert_eq!(error.details()[0].reason(), Some("TASK_NOT_FOUND"));
            assert_eq!(error.http_status(), 404);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_requests_get_the_standard_errors() {
    for (body, code) in [
        (&b"{not json"[..], -32700),
        (br#"{"jsonrpc":"2.0","id":1,"method":"Nope"}"#, -32601),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}"#,
            -32602,
        ),
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#,
            -32004,
        ),
    ] {
        let response = handle(body);
        match decode_reply_with::<method::SendMessage, EchoError>(&response.body) {
            Err(CallError::Agent(error)) => assert_eq!(error.code(), code),
            other => panic!("{}: {other:?}", String::from_utf8_lossy(body)),
        }
    }
}

#[test]
fn a_notification_gets_no_response_even_when_it_is_refused() {
    for body in [
        &br#"{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}"#[..],
        br#"{"jsonrpc":"2.0","method":"SendMessage","params":{}}"#,
        br#"{"jsonrpc":"2.0","method":"Nope"}"#,
    ] {
        assert!(handle(body).is_none(), "{}", String::from_utf8_lossy(body));
    }
    assert!(!handle(br#"{"jsonrpc":"2.0","id":null,"method":"Nope"}"#).is_none());
}
