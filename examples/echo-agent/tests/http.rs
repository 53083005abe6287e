//! The echo agent served over HTTP on 127.0.0.1 (as `src/main.rs` serves it) and called with
//! a2a-runtime's client over the three bindings: results, streams and the agent's own errors
//! typed.

use a2a_runtime::client::Client;
use a2a_runtime::server::{serve, AgentRouter};
use a2a_runtime::Binding;
use echo_agent::a2a::{
    method, A2aError, A2aServer, CallError, EchoError, GetTaskRequest, Message, Part, PartContent,
    Protocol, Role, SendMessageRequest, SendMessageResponse, StreamResponse, TaskState,
};
use echo_agent::{card, Echo, MAX_ECHO_CHARS};
use std::time::Duration;

/// Serves the echo agent on a free loopback port; its base URL.
async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let echo = std::sync::Arc::new(Echo);
    let app = AgentRouter::new(&card(&base))
        .unwrap()
        .service(A2aServer::from_arc(std::sync::Arc::clone(&echo)))
        .service(echo_agent::a2a_v0_3::A2aServer::new(
            echo_agent::a2a_v0_3::Compat(echo),
        ))
        .into_router()
        .unwrap();
    let never = std::future::pending::<()>();
    tokio::spawn(serve(listener, app, never, Duration::ZERO));
    base
}

fn params(text: &str) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: "m-1".into(),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text(text.into()),
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    }
}

async fn client(base: &str, binding: Binding) -> Client<Protocol> {
    Client::<Protocol>::builder()
        .bindings([binding])
        .connect(base)
        .await
        .unwrap()
}

#[tokio::test]
async fn every_binding_echoes_streams_and_refuses_alike() {
    let base = start().await;
    for binding in [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc] {
        let client = client(&base, binding).await;
        assert_eq!(client.binding(), binding);
        let reply = client
            .call::<method::SendMessage>(&params("hello"))
            .await
            .unwrap();
        let SendMessageResponse::Message(reply) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(reply.parts[0].content, PartContent::Text("hello".into()));

        let mut events = client.stream::<method::SendStreamingMessage>(&params("stream me"));
        let mut states = Vec::new();
        while let Some(event) = events.next().await {
            if let StreamResponse::StatusUpdate(update) = event.unwrap() {
                states.push(update.status.state);
            }
        }
        assert_eq!(
            states,
            [TaskState::Working, TaskState::Completed],
            "{binding:?}"
        );

        let long = "x".repeat(MAX_ECHO_CHARS + 1);
        match client
            .call_with::<method::SendMessage, EchoError>(&params(&long))
            .await
        {
            Err(CallError::Custom { error, .. }) => assert_eq!(error, EchoError::TooLong),
            other => panic!("{binding:?}: {other:?}"),
        }
        let missing = GetTaskRequest {
            id: "t-9".into(),
            ..Default::default()
        };
        match client.call::<method::GetTask>(&missing).await {
            Err(CallError::Agent(A2aError::TaskNotFound { .. })) => {}
            other => panic!("{binding:?}: {other:?}"),
        }
    }
}

/// A 0.3 client (the generated 0.3 module's `Protocol`, which sends no `A2A-Version`) gets the
/// same echo, in 0.3's shapes, from the one 1.0 service.
#[tokio::test]
async fn a_0_3_client_gets_the_same_echo() {
    use echo_agent::a2a_v0_3 as v0_3;
    let base = start().await;
    let client = Client::<v0_3::Protocol>::builder()
        .connect(&base)
        .await
        .unwrap();
    let params = v0_3::MessageSendParams {
        message: v0_3::Message {
            message_id: "m-1".into(),
            role: v0_3::Role::User,
            parts: vec![v0_3::Part::Text(v0_3::TextPart {
                text: "hello".into(),
                ..Default::default()
            })],
            ..Default::default()
        },
        ..Default::default()
    };
    let reply = client
        .call::<v0_3::method::SendMessage>(&params)
        .await
        .unwrap();
    let v0_3::SendMessageResult::Message(message) = reply else {
        panic!("{reply:?}");
    };
    assert_eq!(message.role, v0_3::Role::Agent);
    assert!(
        matches!(&message.parts[..], [v0_3::Part::Text(t)] if t.text.contains("hello")),
        "{message:?}"
    );
    // The agent's own error keeps its code in 0.3 (the 0.3 table has no row for it).
    let mut long = params.clone();
    long.message.parts = vec![v0_3::Part::Text(v0_3::TextPart {
        text: "x".repeat(MAX_ECHO_CHARS + 1),
        ..Default::default()
    })];
    let e = client
        .call::<v0_3::method::SendMessage>(&long)
        .await
        .unwrap_err();
    let v0_3::CallError::Agent(error) = e else {
        panic!("{e:?}");
    };
    assert_eq!(error.code(), -32060, "{error:?}");
}
