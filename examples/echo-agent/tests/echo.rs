//! The echo agent's service, called directly (no HTTP): its answers and its own errors, typed.
//! (`tests/http.rs` serves it and calls it over both bindings.)

use a2a_runtime::service::ServiceError;
use a2a_runtime::version::ProtocolVersion;
use a2a_runtime::Binding;
use echo_agent::a2a::{
    A2aError, A2aService, EchoError, GetTaskRequest, Message, Part, PartContent, RequestContext,
    Role, SendMessageRequest, SendMessageResponse, StreamResponse, Task, TaskState,
};
use echo_agent::{Echo, MAX_ECHO_CHARS};

fn message(parts: Vec<PartContent>) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: "m-1".to_string(),
            context_id: Some("c-1".to_string()),
            role: Role::User,
            parts: parts
                .into_iter()
                .map(|content| Part {
                    content,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn cx(method: &'static str) -> RequestContext {
    RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, method)
}

#[tokio::test]
async fn send_message_echoes_the_text() {
    let reply = Echo
        .send_message(
            cx("SendMessage"),
            message(vec![PartContent::Text("hello".into())]),
        )
        .await
        .unwrap();
    let SendMessageResponse::Message(reply) = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(reply.role, Role::Agent);
    assert_eq!(reply.context_id.as_deref(), Some("c-1"));
    assert_eq!(reply.parts[0].content, PartContent::Text("hello".into()));
}

#[tokio::test]
async fn the_agents_own_errors_are_custom_service_errors() {
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
        match Echo.send_message(cx("SendMessage"), message(parts)).await {
            Err(ServiceError::Custom(custom)) => {
                assert_eq!(custom.error.to_custom::<EchoError>(), Some(expected));
                assert_eq!(custom.rest.status, 400);
            }
            other => panic!("{expected:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn streaming_echo_is_a_task_that_completes() {
    let mut stream = Echo
        .send_streaming_message(
            cx("SendStreamingMessage"),
            message(vec![PartContent::Text("stream me".into())]),
        )
        .await
        .unwrap();
    let mut events = Vec::new();
    while let Some(item) = std::future::poll_fn(|c| stream.as_mut().poll_next(c)).await {
        events.push(item.unwrap());
    }
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
}

#[tokio::test]
async fn what_the_agent_does_not_write_answers_the_generated_default() {
    let params = GetTaskRequest {
        id: "t-9".into(),
        ..Default::default()
    };
    match Echo.get_task(cx("GetTask"), params).await {
        Err(ServiceError::Standard(error @ A2aError::TaskNotFound { .. })) => {
            assert_eq!(error.details()[0].reason(), Some("TASK_NOT_FOUND"));
            assert!(error.message().contains("GetTask"), "{}", error.message());
        }
        other => panic!("{other:?}"),
    }
}
