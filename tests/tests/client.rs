//! The reqwest client of a2a-runtime's transport layer (`client`, feature `client`),
//! against real HTTP on 127.0.0.1 only: a tiny axum agent answering with bodies the generated
//! server side writes (`encode_result`, `encode_rest_result`, `encode_event`, ...), called over
//! both bindings; typed agent errors; streams read as they arrive; cards of both versions; and
//! every failure a transport meets (a proxy's HTML 502, a truncated or broken stream, timeouts,
//! a refused connection, a body over the limit), each a `ClientError` of its kind, never a panic.
//!
//! Every test is bounded ([`bounded`]); the timeouts exercised are against a server that never
//! answers, so their outcome does not depend on timing.

use a2a_types::rt::client::CallError as RtCallError;
use a2a_types::rt::client::{BuildError, Client, HeaderName, HeaderValue};
use a2a_types::rt::rest::server::RestResponse;
use a2a_types::rt::Binding;
use a2a_types::rt::{ClientErrorKind, Limits, RequestId};
use a2a_types::v1::{
    self, method, A2aError, AgentCard, AgentInterface, CallError, CancelTaskRequest,
    GetTaskRequest, Message, Part, PartContent, Role, SendMessageRequest, SendMessageResponse,
    StreamResponse, SubscribeToTaskRequest, Task, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_types::version::ProtocolVersion;
use a2a_types::AgentError;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

// ----- the protocols under test --------------------------------------------------------------

/// The generated modules' protocols: A2A 1.0 (both bindings) and 0.3 (JSON-RPC only).
use a2a_types::v0_3::Protocol as V03;
use a2a_types::v1::Protocol as V1;

/// A billing agent's own errors, which the fixture sends for every CancelTask.
#[derive(Debug, PartialEq, Clone, AgentError)]
pub enum BillingError {
    /// The account used up its quota.
    #[a2a(code = -32050, grpc = "RESOURCE_EXHAUSTED", http = 429)]
    QuotaExceeded { retry_after_secs: u32 },
}

// ----- the fixture agent ---------------------------------------------------------------------

/// What the fixture saw of one request.
#[derive(Clone, Debug)]
struct Seen {
    verb: String,
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

/// The fixture agent: a v1 agent at `/rpc` (JSON-RPC) and `/api` (HTTP+JSON), faults below
/// `/fault/<name>`, and the card at the well-known path.
struct Fixture {
    base: String,
    card: Value,
    seen: Mutex<Vec<Seen>>,
    /// Opened by a test once it holds a stream's first event: the stream's later events wait
    /// for it, so a client that buffered the body whole would never see the first.
    gate: Notify,
}

impl Fixture {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn last(&self) -> Seen {
        self.seen().pop().expect("the fixture saw a request")
    }
}

/// A v1 card with a JSON-RPC and an HTTP+JSON interface.
fn v1_card(base: &str) -> Value {
    json!({
        "name": "fixture",
        "description": "a test agent",
        "version": "1.0.0",
        "capabilities": {"streaming": true},
        "supportedInterfaces": [
            {"url": format!("{base}/rpc"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": format!("{base}/api"), "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ]
    })
}

/// The fixture's card: [`v1_card`] with the v0.3 members beside the v1 list, as a2a-sdk
/// writes its cards, the 0.3 agent at `/rpc03`.
fn fixture_card(base: &str) -> Value {
    let mut card = v1_card(base);
    if let Some(object) = card.as_object_mut() {
        object.insert("url".to_owned(), json!(format!("{base}/rpc03")));
        object.insert("protocolVersion".to_owned(), json!("0.3.0"));
        object.insert("preferredTransport".to_owned(), json!("JSONRPC"));
    }
    card
}

/// A card whose one interface of `binding` in 1.0 is at `url`.
fn card_at(url: &str, binding: Binding) -> Value {
    json!({"name": "at", "supportedInterfaces": [
        {"url": url, "protocolBinding": binding.name(), "protocolVersion": "1.0"}
    ]})
}

/// Starts the fixture on 127.0.0.1 (a free port); it runs until the test's runtime ends.
async fn start() -> Arc<Fixture> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port on 127.0.0.1");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    let fixture = Arc::new(Fixture {
        card: fixture_card(&base),
        base,
        seen: Mutex::new(Vec::new()),
        gate: Notify::new(),
    });
    let app = axum::Router::new()
        .fallback(handle)
        .with_state(Arc::clone(&fixture));
    tokio::spawn(async move { axum::serve(listener, app).await });
    fixture
}

async fn handle(
    State(fixture): State<Arc<Fixture>>,
    verb: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    if let Ok(mut seen) = fixture.seen.lock() {
        seen.push(Seen {
            verb: verb.to_string(),
            path: uri.path_and_query().map_or(path.clone(), |p| p.to_string()),
            headers,
            body: body.to_vec(),
        });
    }
    if path == "/.well-known/agent-card.json" {
        return json_response(200, serde_json::to_vec(&fixture.card).unwrap_or_default());
    }
    if path == "/rpc" {
        return jsonrpc(&fixture, &body);
    }
    if path == "/rpc03" {
        return jsonrpc_v0_3(&fixture, &body);
    }
    if let Some(route) = path.strip_prefix("/api") {
        return rest(
            &fixture,
            verb.as_str(),
            route,
            uri.query().unwrap_or(""),
            &body,
        );
    }
    if let Some(fault_path) = path.strip_prefix("/fault/") {
        return fault(&fixture, fault_path).await;
    }
    response(404, "text/plain", "Not Found")
}

fn response(status: u16, content_type: &str, body: impl Into<Body>) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", content_type)
        .body(body.into())
        .unwrap_or_default()
}

fn json_response(status: u16, body: Vec<u8>) -> Response {
    response(status, "application/json", body)
}

fn rest_response(reply: RestResponse) -> Response {
    response(reply.status, reply.content_type, reply.body)
}

/// An SSE body fed from a channel, for streams that pause, stall or break.
fn channel_body() -> (mpsc::Sender<Result<Bytes, std::io::Error>>, Body) {
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    (tx, Body::from_stream(stream))
}

fn sse_response(body: Body) -> Response {
    response(200, "text/event-stream", body)
}

fn text_part(text: &str) -> Part {
    Part {
        content: PartContent::Text(text.to_owned()),
        ..Default::default()
    }
}

fn user_text(id: &str, text: &str) -> Message {
    Message {
        message_id: id.to_owned(),
        role: Role::User,
        parts: vec![text_part(text)],
        ..Default::default()
    }
}

/// The task the fixture answers with: `t-1`, completed, the message in its history, and the
/// tenant the call named in its metadata.
fn task(state: TaskState, message: Option<&Message>, tenant: Option<&str>) -> Task {
    Task {
        id: "t-1".to_owned(),
        context_id: Some("c-1".to_owned()),
        status: TaskStatus {
            state,
            ..Default::default()
        },
        history: message.into_iter().cloned().collect(),
        metadata: tenant.map(|t| {
            let mut m = serde_json::Map::new();
            m.insert("tenant".to_owned(), Value::String(t.to_owned()));
            m
        }),
        ..Default::default()
    }
}

/// The events of every stream the fixture sends: the task, working, completed.
fn stream_events() -> Vec<StreamResponse> {
    let status = |state| {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: "t-1".to_owned(),
            context_id: "c-1".to_owned(),
            status: TaskStatus {
                state,
                ..Default::default()
            },
            metadata: None,
        })
    };
    vec![
        StreamResponse::Task(task(TaskState::Submitted, None, None)),
        status(TaskState::Working),
        status(TaskState::Completed),
    ]
}

/// Sends `events` (already encoded) on a channel body: the first split in two writes, then,
/// once the test opens the gate, the rest split into 7-byte writes.
fn gated_stream(fixture: &Arc<Fixture>, events: Vec<Vec<u8>>) -> Response {
    let (tx, body) = channel_body();
    let fixture = Arc::clone(fixture);
    tokio::spawn(async move {
        let mut events = events.into_iter();
        if let Some(first) = events.next() {
            let (a, b) = first.split_at(first.len() / 2);
            let _ = tx.send(Ok(Bytes::copy_from_slice(a))).await;
            let _ = tx.send(Ok(Bytes::copy_from_slice(b))).await;
        }
        fixture.gate.notified().await;
        for event in events {
            for piece in event.chunks(7) {
                let _ = tx.send(Ok(Bytes::copy_from_slice(piece))).await;
            }
        }
    });
    sse_response(body)
}

fn not_found(id: &str) -> A2aError {
    let error = A2aError::from_code(-32001, None, None);
    match error.error_info([("taskId", id)]) {
        Some(info) => error.with_details([info]),
        None => error,
    }
}

const QUOTA: BillingError = BillingError::QuotaExceeded {
    retry_after_secs: 30,
};

fn jsonrpc(fixture: &Arc<Fixture>, body: &[u8]) -> Response {
    let incoming = match v1::decode_request(body) {
        Ok(incoming) => incoming,
        Err(rejected) => return json_response(200, rejected.response().unwrap_or_default()),
    };
    let id = incoming.response_id();
    let body = match incoming.request {
        v1::Request::SendMessage(p) => {
            let task = task(TaskState::Completed, Some(&p.message), p.tenant.as_deref());
            v1::encode_result::<method::SendMessage>(&id, &SendMessageResponse::Task(task))
        }
        v1::Request::GetTask(p) if p.id == "t-1" => v1::encode_result::<method::GetTask>(
            &id,
            &task(TaskState::Completed, None, p.tenant.as_deref()),
        ),
        v1::Request::GetTask(p) => v1::encode_error(&id, &not_found(&p.id)),
        v1::Request::CancelTask(_) => v1::encode_error(&id, &A2aError::from_custom(&QUOTA)),
        v1::Request::SubscribeToTask(_) => {
            v1::encode_error(&id, &A2aError::from_code(-32004, None, None))
        }
        v1::Request::SendStreamingMessage(_) => {
            let events = stream_events()
                .iter()
                .map(|e| v1::encode_event::<method::SendStreamingMessage>(&id, Ok(e)).to_bytes())
                .collect();
            return gated_stream(fixture, events);
        }
        _ => v1::encode_error(&id, &A2aError::from_code(-32004, None, None)),
    };
    json_response(200, body)
}

fn rest(fixture: &Arc<Fixture>, verb: &str, path: &str, query: &str, body: &[u8]) -> Response {
    let request = match v1::decode_rest_request(verb, path, query, body) {
        Ok(request) => request,
        Err(rejected) => return rest_response(rejected.response()),
    };
    rest_response(match request {
        v1::Request::SendMessage(p) => {
            let task = task(TaskState::Completed, Some(&p.message), p.tenant.as_deref());
            v1::encode_rest_result::<method::SendMessage>(&SendMessageResponse::Task(task))
        }
        v1::Request::GetTask(p) if p.id == "t-1" => v1::encode_rest_result::<method::GetTask>(
            &task(TaskState::Completed, None, p.tenant.as_deref()),
        ),
        v1::Request::GetTask(p) => v1::encode_rest_error(&not_found(&p.id)),
        v1::Request::CancelTask(_) => v1::encode_rest_custom_error(&QUOTA, None),
        v1::Request::SendStreamingMessage(_) => {
            let events = stream_events()
                .iter()
                .map(|e| v1::encode_rest_event::<method::SendStreamingMessage>(Ok(e)).to_bytes())
                .collect();
            return gated_stream(fixture, events);
        }
        _ => v1::encode_rest_error(&A2aError::from_code(-32004, None, None)),
    })
}

/// The 0.3 agent: a task for every message, TaskNotFound for an unknown id, a stream of the
/// task and its final status, and a push-config delete answered as a2a-sdk's v0.3 layer
/// answers it (neither `result` nor `error`).
fn jsonrpc_v0_3(fixture: &Arc<Fixture>, body: &[u8]) -> Response {
    use a2a_types::v0_3 as v03;
    let incoming = match v03::decode_request(body) {
        Ok(incoming) => incoming,
        Err(rejected) => return json_response(200, rejected.response().unwrap_or_default()),
    };
    let id = incoming.response_id();
    let task = |state, history: Vec<v03::Message>| v03::Task {
        id: "t-03".to_owned(),
        context_id: "c-03".to_owned(),
        status: v03::TaskStatus {
            state,
            ..Default::default()
        },
        history,
        ..Default::default()
    };
    let body = match incoming.request {
        v03::Request::SendMessage(p) => v03::encode_result::<v03::method::SendMessage>(
            &id,
            &v03::SendMessageResult::Task(task(v03::TaskState::Completed, vec![p.message])),
        ),
        v03::Request::GetTask(_) => {
            v03::encode_error(&id, &v03::A2aError::from_code(-32001, None, None))
        }
        v03::Request::SendStreamingMessage(_) => {
            let events = [
                v03::StreamEvent::Task(task(v03::TaskState::Submitted, Vec::new())),
                v03::StreamEvent::StatusUpdate(v03::TaskStatusUpdateEvent {
                    task_id: "t-03".to_owned(),
                    context_id: "c-03".to_owned(),
                    status: v03::TaskStatus {
                        state: v03::TaskState::Completed,
                        ..Default::default()
                    },
                    r#final: true,
                    metadata: None,
                }),
            ];
            let events = events
                .iter()
                .map(|e| {
                    v03::encode_event::<v03::method::SendStreamingMessage>(&id, Ok(e)).to_bytes()
                })
                .collect();
            return gated_stream(fixture, events);
        }
        v03::Request::DeleteTaskPushNotificationConfig(_) => {
            let id = serde_json::to_value(&id).unwrap_or_default();
            serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id})).unwrap_or_default()
        }
        _ => v03::encode_error(&id, &v03::A2aError::from_code(-32004, None, None)),
    };
    json_response(200, body)
}

/// One JSON-RPC stream event carrying the first of [`stream_events`].
fn first_event() -> Vec<u8> {
    v1::encode_event::<method::SendStreamingMessage>(&RequestId::from(1), Ok(&stream_events()[0]))
        .to_bytes()
}

/// What a faulty server or proxy does, by name; `rest` paths below the name are ignored.
async fn fault(fixture: &Arc<Fixture>, path: &str) -> Response {
    let name = path.split('/').next().unwrap_or("");
    match name {
        "html-502" => response(
            502,
            "text/html",
            "<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>",
        ),
        // Never answers: the request timeout is the only way out.
        "stall" => std::future::pending().await,
        // One event, then silence with the connection open.
        "stall-stream" => {
            let (tx, body) = channel_body();
            tokio::spawn(async move {
                let _ = tx.send(Ok(Bytes::from(first_event()))).await;
                std::future::pending::<()>().await;
                drop(tx);
            });
            sse_response(body)
        }
        // One event, then half of one, then a clean end of the body.
        "truncated" => {
            let mut body = first_event();
            body.extend_from_slice(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"res");
            sse_response(Body::from(body))
        }
        // One event, then the connection breaks (an aborted chunked body).
        "broken" => {
            let (tx, body) = channel_body();
            let fixture = Arc::clone(fixture);
            tokio::spawn(async move {
                let _ = tx.send(Ok(Bytes::from(first_event()))).await;
                // Once the client holds that event (else hyper may abort before sending it).
                fixture.gate.notified().await;
                let _ = tx
                    .send(Err(std::io::Error::other("the agent crashed")))
                    .await;
            });
            sse_response(body)
        }
        // 4 KiB of a valid reply, with a Content-Length.
        "big" => json_response(200, big_reply()),
        // The same without one: chunks of 512 bytes.
        "big-chunked" => {
            let (tx, body) = channel_body();
            tokio::spawn(async move {
                for piece in big_reply().chunks(512) {
                    let _ = tx.send(Ok(Bytes::copy_from_slice(piece))).await;
                }
            });
            response(200, "application/json", body)
        }
        _ => response(404, "text/plain", "no such fault"),
    }
}

fn big_reply() -> Vec<u8> {
    let mut task = task(TaskState::Completed, None, None);
    task.history = vec![user_text("m-big", &"x".repeat(4096))];
    v1::encode_result::<method::GetTask>(&RequestId::from(1), &task)
}

// ----- helpers -------------------------------------------------------------------------------

/// Runs `test` to its end, or fails it after 30 s: no test here can hang.
async fn bounded<F: Future<Output = ()>>(test: F) {
    if tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .is_err()
    {
        panic!("the test did not finish within 30 s");
    }
}

fn hello() -> SendMessageRequest {
    SendMessageRequest {
        message: user_text("m-1", "hi"),
        ..Default::default()
    }
}

fn get(id: &str) -> GetTaskRequest {
    GetTaskRequest {
        id: id.to_owned(),
        ..Default::default()
    }
}

fn header<'a>(seen: &'a Seen, name: &str) -> Option<&'a str> {
    seen.headers.get(name).and_then(|v| v.to_str().ok())
}

/// The client error of a failed call, or a panic naming what came instead.
fn client_error<T: std::fmt::Debug, A: std::fmt::Debug, E: std::fmt::Debug>(
    outcome: Result<T, RtCallError<A, E>>,
) -> a2a_types::rt::ClientError {
    match outcome {
        Err(RtCallError::Malformed(e)) => e,
        other => panic!("expected a client error, got {other:?}"),
    }
}

/// A client on the fixture's card, over `binding` only, with short timeouts.
async fn client_over(fixture: &Fixture, binding: Binding) -> Client<V1> {
    Client::<V1>::builder()
        .bindings([binding])
        .request_timeout(Duration::from_secs(10))
        .connect(&fixture.base)
        .await
        .expect("a client on the fixture's card")
}

/// A client on a card whose one interface is the fault `name` (over `binding`).
fn client_at_fault(fixture: &Fixture, name: &str, binding: Binding) -> Client<V1> {
    timed_client_at_fault(
        fixture,
        name,
        binding,
        Duration::from_secs(10),
        Duration::from_secs(10),
    )
}

/// [`client_at_fault`] with these request and idle timeouts.
fn timed_client_at_fault(
    fixture: &Fixture,
    name: &str,
    binding: Binding,
    request: Duration,
    idle: Duration,
) -> Client<V1> {
    let url = format!("{}/fault/{name}", fixture.base);
    Client::<V1>::builder()
        .request_timeout(request)
        .stream_idle_timeout(idle)
        .from_card(&card_at(&url, binding))
        .expect("a client on the fault's card")
}

const BOTH: [Binding; 2] = [Binding::JsonRpc, Binding::HttpJson];

// ----- happy paths ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_over_json_rpc_carry_the_headers_and_come_back_typed() {
    bounded(async {
        let fixture = start().await;
        let token = Arc::new(Mutex::new(String::from("first")));
        let seen_token = Arc::clone(&token);
        let client = Client::<V1>::builder()
            .header(
                HeaderName::from_static("x-trace"),
                HeaderValue::from_static("t-42"),
            )
            .extension("urn:a")
            .extension("urn:b")
            .auth(move |headers| {
                let token = seen_token.lock().map(|t| t.clone()).unwrap_or_default();
                if let Ok(value) = HeaderValue::try_from(format!("Bearer {token}")) {
                    headers.insert("authorization", value);
                }
            })
            .connect(&format!("{}/", fixture.base))
            .await
            .expect("a client on the fixture's card");
        // The card's first binding of the default preference: JSON-RPC.
        assert_eq!(client.binding(), Binding::JsonRpc);
        assert_eq!(client.interface().url, format!("{}/rpc", fixture.base));
        assert_eq!(client.interface().version, ProtocolVersion::V1_0);
        assert_eq!(client.card()["name"], "fixture");
        let card_request = fixture.last();
        assert_eq!(card_request.path, "/.well-known/agent-card.json");
        assert_eq!(header(&card_request, "authorization"), Some("Bearer first"));

        let reply = client.call::<method::SendMessage>(&hello()).await;
        let Ok(SendMessageResponse::Task(task)) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(task.status.state, TaskState::Completed);
        assert_eq!(task.history[0].message_id, "m-1");
        let seen = fixture.last();
        assert_eq!((seen.verb.as_str(), seen.path.as_str()), ("POST", "/rpc"));
        assert_eq!(header(&seen, "a2a-version"), Some("1.0"));
        assert_eq!(header(&seen, "content-type"), Some("application/json"));
        assert_eq!(header(&seen, "accept"), Some("application/json"));
        assert_eq!(header(&seen, "a2a-extensions"), Some("urn:a, urn:b"));
        assert_eq!(header(&seen, "x-trace"), Some("t-42"));
        assert_eq!(header(&seen, "authorization"), Some("Bearer first"));
        let body: Value = serde_json::from_slice(&seen.body).expect("a JSON request");
        assert_eq!(body["method"], "SendMessage");
        assert_eq!(body["jsonrpc"], "2.0");
        let first_id = body["id"].as_i64().expect("a numeric id");

        // The hook runs on every request: a new token is sent at once.
        if let Ok(mut t) = token.lock() {
            *t = String::from("second");
        }
        let task = client.call::<method::GetTask>(&get("t-1")).await;
        assert_eq!(task.map(|t| t.id), Ok("t-1".to_owned()));
        let seen = fixture.last();
        assert_eq!(header(&seen, "authorization"), Some("Bearer second"));
        let body: Value = serde_json::from_slice(&seen.body).expect("a JSON request");
        assert_eq!(
            body["id"].as_i64(),
            Some(first_id + 1),
            "a fresh id per call"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_over_http_json_take_the_methods_routes() {
    bounded(async {
        let fixture = start().await;
        let client = Client::<V1>::builder()
            .bindings([Binding::HttpJson, Binding::JsonRpc])
            .connect(&fixture.base)
            .await
            .expect("a client on the fixture's card");
        assert_eq!(client.binding(), Binding::HttpJson);
        assert_eq!(client.interface().url, format!("{}/api", fixture.base));

        let reply = client.call::<method::SendMessage>(&hello()).await;
        assert!(
            matches!(&reply, Ok(SendMessageResponse::Task(t)) if t.history[0].message_id == "m-1"),
            "{reply:?}"
        );
        let seen = fixture.last();
        assert_eq!(
            (seen.verb.as_str(), seen.path.as_str()),
            ("POST", "/api/message:send")
        );
        assert_eq!(header(&seen, "a2a-version"), Some("1.0"));
        assert_eq!(header(&seen, "content-type"), Some("application/json"));
        assert_eq!(header(&seen, "accept"), Some("application/json"));

        let params = GetTaskRequest {
            history_length: Some(2),
            ..get("t-1")
        };
        let task = client.call::<method::GetTask>(&params).await;
        assert_eq!(task.map(|t| t.id), Ok("t-1".to_owned()));
        let seen = fixture.last();
        assert_eq!(
            (seen.verb.as_str(), seen.path.as_str()),
            ("GET", "/api/tasks/t-1?historyLength=2")
        );
        assert_eq!(header(&seen, "content-type"), None, "a GET has no body");
        assert!(seen.body.is_empty());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_errors_are_typed_over_both_bindings() {
    bounded(async {
        let fixture = start().await;
        for binding in BOTH {
            let client = client_over(&fixture, binding).await;
            match client.call::<method::GetTask>(&get("t-404")).await {
                Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => {
                    assert_eq!(error.details()[0].reason(), Some("TASK_NOT_FOUND"));
                }
                other => panic!("{binding:?}: {other:?}"),
            }
            // The agent's own error, with its fields, when the caller names its type.
            let cancel = CancelTaskRequest {
                id: "t-1".to_owned(),
                ..Default::default()
            };
            match client
                .call_with::<method::CancelTask, BillingError>(&cancel)
                .await
            {
                Err(RtCallError::Custom { error, .. }) => assert_eq!(error, QUOTA, "{binding:?}"),
                other => panic!("{binding:?}: {other:?}"),
            }
            // Without it, the catch-all: the code over JSON-RPC, the HTTP status over REST
            // (where only the ErrorInfo names an error), with the details either way.
            match client.call::<method::CancelTask>(&cancel).await {
                Err(CallError::Agent(error @ A2aError::Other { .. })) => {
                    let code = match binding {
                        Binding::JsonRpc => -32050,
                        _ => 429,
                    };
                    assert_eq!(error.code(), code, "{binding:?}");
                    let reasons: Vec<_> = error
                        .details()
                        .iter()
                        .filter_map(|d| d.reason().map(str::to_owned))
                        .collect();
                    assert_eq!(reasons, ["QUOTA_EXCEEDED"], "{binding:?}");
                }
                other => panic!("{binding:?}: {other:?}"),
            }
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_are_read_as_they_arrive_over_both_bindings() {
    bounded(async {
        let fixture = start().await;
        for binding in BOTH {
            let client = client_over(&fixture, binding).await;
            let mut events = client.stream::<method::SendStreamingMessage>(&hello());
            // The fixture sends the rest only once the gate opens, so this first event can only
            // come from a client that reads the body as it arrives.
            let first = events.next().await;
            assert!(
                matches!(first, Some(Ok(StreamResponse::Task(ref t))) if t.status.state == TaskState::Submitted),
                "{binding:?}: {first:?}"
            );
            let seen = fixture.last();
            assert_eq!(header(&seen, "accept"), Some("text/event-stream"));
            assert_eq!(header(&seen, "a2a-version"), Some("1.0"));
            fixture.gate.notify_one();
            let mut states = Vec::new();
            while let Some(event) = events.next().await {
                match event {
                    Ok(StreamResponse::StatusUpdate(update)) => states.push(update.status.state),
                    other => panic!("{binding:?}: {other:?}"),
                }
            }
            assert_eq!(
                states,
                [TaskState::Working, TaskState::Completed],
                "{binding:?}"
            );
            assert!(events.next().await.is_none(), "an ended stream stays ended");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_refused_before_it_starts_is_one_typed_error() {
    bounded(async {
        let fixture = start().await;
        for binding in BOTH {
            let client = client_over(&fixture, binding).await;
            let params = SubscribeToTaskRequest {
                id: "t-1".to_owned(),
                ..Default::default()
            };
            let mut events = client.stream::<method::SubscribeToTask>(&params);
            let first = events.next().await;
            assert!(
                matches!(
                    first,
                    Some(Err(CallError::Agent(A2aError::UnsupportedOperation { .. })))
                ),
                "{binding:?}: {first:?}"
            );
            assert!(events.next().await.is_none(), "{binding:?}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_called_the_wrong_way_is_refused_before_sending() {
    bounded(async {
        let fixture = start().await;
        let client = client_over(&fixture, Binding::JsonRpc).await;
        let requests = fixture.seen().len();
        let e = client_error(client.call::<method::SendStreamingMessage>(&hello()).await);
        assert_eq!(e.kind(), ClientErrorKind::Request);
        assert!(e.reason().contains("Client::stream"), "{e}");
        let mut events = client.stream::<method::GetTask>(&get("t-1"));
        let e = client_error(events.next().await.expect("one item"));
        assert_eq!(e.kind(), ClientErrorKind::Request);
        assert!(events.next().await.is_none());
        // REST: params that fill no route (a GetTask without an id).
        let rest = client_over(&fixture, Binding::HttpJson).await;
        let e = client_error(rest.call::<method::GetTask>(&get("")).await);
        assert_eq!(e.kind(), ClientErrorKind::Request);
        assert!(e.reason().contains("GetTask"), "{e}");
        assert_eq!(
            fixture.seen().len(),
            requests + 1,
            "only the REST card was fetched"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_interfaces_tenant_fills_params_that_name_none() {
    bounded(async {
        let fixture = start().await;
        let card = AgentCard {
            name: "tenanted".to_owned(),
            supported_interfaces: vec![
                AgentInterface {
                    url: format!("{}/rpc", fixture.base),
                    protocol_binding: "JSONRPC".to_owned(),
                    tenant: Some("acme".to_owned()),
                    protocol_version: "1.0".to_owned(),
                },
                AgentInterface {
                    url: format!("{}/api/", fixture.base),
                    protocol_binding: "HTTP+JSON".to_owned(),
                    tenant: Some("acme".to_owned()),
                    protocol_version: "1.0".to_owned(),
                },
            ],
            ..Default::default()
        };
        for binding in BOTH {
            // A typed card in hand.
            let client = Client::<V1>::builder()
                .bindings([binding])
                .from_card(&card)
                .expect("a client on the typed card");
            assert_eq!(client.interface().tenant.as_deref(), Some("acme"));
            let reply = client.call::<method::SendMessage>(&hello()).await;
            let Ok(SendMessageResponse::Task(task)) = reply else {
                panic!("{binding:?}: {reply:?}")
            };
            assert_eq!(
                task.metadata.and_then(|m| m.get("tenant").cloned()),
                Some(json!("acme"))
            );
            if binding == Binding::HttpJson {
                assert_eq!(fixture.last().path, "/api/acme/message:send");
            }
            // A tenant the params name is sent as it is.
            let params = GetTaskRequest {
                tenant: Some("other".to_owned()),
                ..get("t-1")
            };
            let task = client.call::<method::GetTask>(&params).await;
            assert_eq!(
                task.ok()
                    .and_then(|t| t.metadata)
                    .and_then(|m| m.get("tenant").cloned()),
                Some(json!("other")),
                "{binding:?}"
            );
        }
    })
    .await;
}

// ----- cards and versions --------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_v0_3_client_calls_the_0_3_interface_of_a_card_with_both_and_sends_no_version() {
    use a2a_types::v0_3::{self as v03, method as m03};
    bounded(async {
        let fixture = start().await;
        let client = Client::<V03>::connect(&fixture.base)
            .await
            .expect("a v0.3 client on the fixture's card");
        assert_eq!(client.interface().url, format!("{}/rpc03", fixture.base));
        assert_eq!(client.interface().version, ProtocolVersion::V0_3);

        let params = v03::MessageSendParams {
            message: v03::Message {
                message_id: "m-03".to_owned(),
                role: v03::Role::User,
                parts: vec![v03::Part::Text(v03::TextPart {
                    text: "hi in 0.3".to_owned(),
                    metadata: None,
                })],
                ..Default::default()
            },
            ..Default::default()
        };
        let reply = client.call::<m03::SendMessage>(&params).await;
        let Ok(v03::SendMessageResult::Task(task)) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(task.history[0].message_id, "m-03");
        let seen = fixture.last();
        assert_eq!(seen.path, "/rpc03");
        assert_eq!(header(&seen, "a2a-version"), None, "v0.3 clients send none");
        let body: Value = serde_json::from_slice(&seen.body).expect("a JSON request");
        assert_eq!(body["method"], "message/send");

        let get = v03::TaskQueryParams {
            id: "t-404".to_owned(),
            ..Default::default()
        };
        assert!(matches!(
            client.call::<m03::GetTask>(&get).await,
            Err(v03::CallError::Agent(v03::A2aError::TaskNotFound { .. }))
        ));
        // a2a-sdk's v0.3 answer to a delete: neither `result` nor `error`, read as success.
        let delete = v03::DeleteTaskPushNotificationConfigParams {
            id: "t-03".to_owned(),
            push_notification_config_id: "p-1".to_owned(),
            ..Default::default()
        };
        let deleted = client
            .call::<m03::DeleteTaskPushNotificationConfig>(&delete)
            .await;
        assert!(deleted.is_ok(), "{deleted:?}");

        let mut events = client.stream::<m03::SendStreamingMessage>(&params);
        assert!(matches!(
            events.next().await,
            Some(Ok(v03::StreamEvent::Task(_)))
        ));
        fixture.gate.notify_one();
        let last = events.next().await;
        assert!(
            matches!(last, Some(Ok(v03::StreamEvent::StatusUpdate(ref u))) if u.r#final),
            "{last:?}"
        );
        assert!(events.next().await.is_none());
    })
    .await;
}

#[test]
fn a_v1_client_facing_a_v0_3_card_is_told_to_use_the_v0_3_module() {
    let v03 = json!({"name": "old", "url": "http://127.0.0.1:9/", "protocolVersion": "0.3.0",
        "preferredTransport": "JSONRPC"});
    let e = Client::<V1>::from_card(&v03).expect_err("no 1.0 interface");
    assert_eq!(
        e,
        BuildError::OtherVersion {
            wanted: ProtocolVersion::V1_0,
            offered: vec![ProtocolVersion::V0_3],
            bindings: vec![Binding::JsonRpc, Binding::HttpJson],
        }
    );
    let text = e.to_string();
    assert!(text.contains("a2a_types::v0_3::Protocol"), "{text}");
    assert!(text.contains("0.3 only"), "{text}");

    // The other way round.
    let e = Client::<V03>::from_card(&v1_card("http://127.0.0.1:9")).expect_err("no 0.3");
    assert!(e.to_string().contains("a2a_types::v1::Protocol"), "{e}");
}

#[test]
fn a_v0_3_client_reads_its_interface_from_either_card_shape() {
    // A v0.3 card.
    let client = Client::<V03>::from_card(&v03_card()).expect("a v0.3 client");
    assert_eq!(client.binding(), Binding::JsonRpc);
    assert_eq!(client.interface().url, "http://127.0.0.1:9/rpc");
    // a2a-sdk's card: the v1 list (0.3 beside 1.0 at one URL) and the v0.3 members. A v0.3
    // client takes the 0.3 interface, never the newer one.
    let sdk = json!({
        "supportedInterfaces": [
            {"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            {"url": "http://127.0.0.1:9/", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
        ],
        "url": "http://127.0.0.1:9/", "protocolVersion": "0.3", "preferredTransport": "JSONRPC"
    });
    let v03 = Client::<V03>::from_card(&sdk).expect("a v0.3 client");
    assert_eq!(v03.interface().version, ProtocolVersion::V0_3);
    let v1 = Client::<V1>::builder()
        .bindings([Binding::HttpJson])
        .from_card(&sdk)
        .expect("a v1 client");
    assert_eq!(
        (v1.binding(), v1.interface().version),
        (Binding::HttpJson, ProtocolVersion::V1_0)
    );
    // 0.3's HTTP+JSON binding (spoken by translation): the 0.3 card's REST interface is taken
    // when asked for; a card whose HTTP+JSON interface is 1.0's alone is another version's.
    let rest = Client::<V03>::builder()
        .bindings([Binding::HttpJson])
        .from_card(&v03_card())
        .expect("0.3 over REST");
    assert_eq!(
        (rest.binding(), rest.interface().url.as_str()),
        (Binding::HttpJson, "http://127.0.0.1:9/rest")
    );
    let e = Client::<V03>::builder()
        .bindings([Binding::HttpJson])
        .from_card(&sdk)
        .expect_err("REST in 1.0 only");
    assert!(
        matches!(&e, BuildError::OtherVersion { offered, .. } if offered == &[ProtocolVersion::V1_0]),
        "{e}"
    );
}

fn v03_card() -> serde_json::Value {
    json!({"name": "old", "url": "http://127.0.0.1:9/rpc", "protocolVersion": "0.3.0",
        "additionalInterfaces": [{"url": "http://127.0.0.1:9/rest", "transport": "HTTP+JSON"}]})
}

#[test]
fn a_card_without_a_usable_interface_says_what_it_offers() {
    let grpc = json!({"supportedInterfaces": [
        {"url": "http://127.0.0.1:9/", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
    ]});
    let e = Client::<V1>::from_card(&grpc).expect_err("gRPC only");
    assert!(
        matches!(&e, BuildError::NoInterface(r) if r.contains("GRPC 1.0 at http://127.0.0.1:9/")),
        "{e}"
    );
    let e = Client::<V1>::from_card(&json!("not a card")).expect_err("not a card");
    assert!(matches!(e, BuildError::NoInterface(_)), "{e}");
    let bad_url = card_at("not a url", Binding::JsonRpc);
    let e = Client::<V1>::from_card(&bad_url).expect_err("no URL");
    assert!(e.to_string().contains("\"not a url\""), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_that_cannot_be_fetched_is_a_fetch_error() {
    bounded(async {
        let fixture = start().await;
        // 404: a plain-text page, its status kept.
        match Client::<V1>::connect(&format!("{}/nowhere/card.json", fixture.base)).await {
            Err(BuildError::Fetch(e)) => {
                assert_eq!(e.http_status(), Some(404), "{e}");
                assert!(e.reason().contains("Not Found"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // A card that is not JSON.
        match Client::<V1>::connect(&format!("{}/fault/html-502/card.json", fixture.base)).await {
            Err(BuildError::Fetch(e)) => assert_eq!(e.http_status(), Some(502), "{e}"),
            other => panic!("{other:?}"),
        }
        // Nobody listening.
        match Client::<V1>::connect(&refused_url()).await {
            Err(BuildError::Fetch(e)) => assert_eq!(e.kind(), ClientErrorKind::Connect, "{e}"),
            other => panic!("{other:?}"),
        }
    })
    .await;
}

/// A URL on 127.0.0.1 where nothing listens: a port bound, then freed.
fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    drop(listener);
    url
}

// ----- failures ------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxys_html_502_is_malformed_with_its_status_over_both_bindings() {
    bounded(async {
        let fixture = start().await;
        for binding in BOTH {
            let client = client_at_fault(&fixture, "html-502", binding);
            let e = client_error(client.call::<method::GetTask>(&get("t-1")).await);
            assert_eq!(e.kind(), ClientErrorKind::Malformed, "{binding:?}: {e}");
            assert_eq!(e.http_status(), Some(502), "{binding:?}: {e}");
            assert!(e.reason().contains("HTTP 502"), "{binding:?}: {e}");
            assert!(e.reason().contains("text/html"), "{binding:?}: {e}");
            // The same reply to a stream: its one item.
            let mut events = client.stream::<method::SendStreamingMessage>(&hello());
            let e = client_error(events.next().await.expect("one item"));
            assert_eq!(e.http_status(), Some(502), "{binding:?}: {e}");
            assert!(events.next().await.is_none());
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_stream_ends_with_an_interrupted_error() {
    bounded(async {
        let fixture = start().await;
        for fault in ["truncated", "broken"] {
            let client = client_at_fault(&fixture, fault, Binding::JsonRpc);
            let mut events = client.stream::<method::SendStreamingMessage>(&hello());
            let first = events.next().await;
            assert!(
                matches!(first, Some(Ok(StreamResponse::Task(_)))),
                "{fault}: {first:?}"
            );
            if fault == "broken" {
                fixture.gate.notify_one();
            }
            let e = client_error(events.next().await.expect("the failure"));
            assert_eq!(e.kind(), ClientErrorKind::Interrupted, "{fault}: {e}");
            assert!(e.reason().contains("after 1 event"), "{fault}: {e}");
            assert!(events.next().await.is_none(), "{fault}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_say_which() {
    bounded(async {
        let fixture = start().await;
        // A call to an agent that never answers.
        for binding in BOTH {
            let short = Duration::from_millis(500);
            let client = timed_client_at_fault(&fixture, "stall", binding, short, short);
            let e = client_error(client.call::<method::GetTask>(&get("t-1")).await);
            assert_eq!(
                e.kind(),
                ClientErrorKind::RequestTimeout,
                "{binding:?}: {e}"
            );
            assert!(e.reason().contains("request timeout of 500ms"), "{e}");
            // A stream whose headers never come.
            let mut events = client.stream::<method::SendStreamingMessage>(&hello());
            let e = client_error(events.next().await.expect("the timeout"));
            assert_eq!(
                e.kind(),
                ClientErrorKind::RequestTimeout,
                "{binding:?}: {e}"
            );
        }
        // A stream that goes quiet after its first event: the idle timeout, not the request's.
        // (A long request timeout: the headers and the first event come at once.)
        let (long, short) = (Duration::from_secs(10), Duration::from_millis(500));
        let client = timed_client_at_fault(&fixture, "stall-stream", Binding::JsonRpc, long, short);
        let mut events = client.stream::<method::SendStreamingMessage>(&hello());
        assert!(matches!(
            events.next().await,
            Some(Ok(StreamResponse::Task(_)))
        ));
        let e = client_error(events.next().await.expect("the timeout"));
        assert_eq!(e.kind(), ClientErrorKind::IdleTimeout, "{e}");
        assert!(e.reason().contains("idle timeout of 500ms"), "{e}");
        assert!(events.next().await.is_none());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_is_a_connect_error() {
    bounded(async {
        let url = refused_url();
        for binding in BOTH {
            let client = Client::<V1>::from_card(&card_at(&url, binding)).expect("a client");
            let e = client_error(client.call::<method::GetTask>(&get("t-1")).await);
            assert_eq!(e.kind(), ClientErrorKind::Connect, "{binding:?}: {e}");
            assert!(e.reason().contains(&url), "{e}");
            assert_eq!(e.http_status(), None);
            let mut events = client.stream::<method::SendStreamingMessage>(&hello());
            let e = client_error(events.next().await.expect("the failure"));
            assert_eq!(e.kind(), ClientErrorKind::Connect, "{binding:?}: {e}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_refused_before_it_is_read_whole() {
    bounded(async {
        let fixture = start().await;
        for fault in ["big", "big-chunked"] {
            let url = format!("{}/fault/{fault}", fixture.base);
            let client = Client::<V1>::builder()
                .limits(Limits::default().with_max_body_bytes(1024))
                .from_card(&card_at(&url, Binding::JsonRpc))
                .expect("a client");
            let e = client_error(client.call::<method::GetTask>(&get("t-1")).await);
            assert_eq!(e.kind(), ClientErrorKind::Malformed, "{fault}: {e}");
            assert!(
                e.reason().contains("over the limit of 1024"),
                "{fault}: {e}"
            );
            assert_eq!(e.http_status(), Some(200), "{fault}: {e}");
            // Under a larger limit the same reply decodes.
            let client =
                Client::<V1>::from_card(&card_at(&url, Binding::JsonRpc)).expect("a client");
            assert!(
                client.call::<method::GetTask>(&get("t-1")).await.is_ok(),
                "{fault}"
            );
        }
    })
    .await;
}

#[test]
fn calls_and_streams_are_send_so_they_can_be_spawned() {
    fn send<T: Send>(_: &T) {}
    let client = Client::<V1>::from_card(&card_at("http://127.0.0.1:9/", Binding::JsonRpc))
        .expect("a client");
    send(&client.call::<method::GetTask>(&get("t-1")));
    send(&client.stream::<method::SendStreamingMessage>(&hello()));
}

// ----- the module docs' example ------------------------------------------------------------

/// The example of `a2a_runtime::client`'s module docs, as written there.
mod module_example {
    use a2a_runtime::client::{Client, HeaderValue};
    use a2a_types::rt as a2a_runtime;
    use a2a_types::v1::{method, A2aError, CallError, GetTaskRequest, Message, Part, PartContent};
    use a2a_types::v1::{Protocol, Role, SendMessageRequest, StreamResponse};
    use std::time::Duration;

    pub async fn talk(base_url: &str, token: &str) -> Result<(), Box<dyn std::error::Error>> {
        let bearer = HeaderValue::try_from(format!("Bearer {token}"))?;
        let client = Client::<Protocol>::builder()
            .request_timeout(Duration::from_secs(30))
            .stream_idle_timeout(Duration::from_secs(60))
            .auth(move |headers| {
                headers.insert("authorization", bearer.clone());
            })
            .connect(base_url) // GET <base_url>/.well-known/agent-card.json
            .await?;

        let message = Message {
            message_id: "m-1".into(),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text("hi".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        let params = SendMessageRequest {
            message,
            ..Default::default()
        };
        let reply = client.call::<method::SendMessage>(&params).await?;
        println!("{reply:?}");

        let missing = GetTaskRequest {
            id: "t-404".into(),
            ..Default::default()
        };
        match client.call::<method::GetTask>(&missing).await {
            Ok(task) => println!("{:?}", task.status.state),
            Err(CallError::Agent(A2aError::TaskNotFound { .. })) => println!("no such task"),
            Err(CallError::Agent(other)) => {
                println!("the agent said {} ({})", other.message(), other.code())
            }
            Err(CallError::Malformed(e)) => println!("{:?}: {}", e.kind(), e.reason()),
        }

        let mut events = client.stream::<method::SendStreamingMessage>(&params);
        while let Some(event) = events.next().await {
            match event? {
                StreamResponse::StatusUpdate(update) => println!("{:?}", update.status.state),
                other => println!("{other:?}"),
            }
        }
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_module_example_runs() {
    bounded(async {
        let fixture = start().await;
        fixture.gate.notify_one(); // the stream does not wait for the test
        let outcome = module_example::talk(&fixture.base, "secret").await;
        assert!(outcome.is_ok(), "{outcome:?}");
        let seen = fixture.seen();
        assert_eq!(seen.len(), 4, "the card, two calls and a stream");
        assert!(seen
            .iter()
            .all(|s| header(s, "authorization") == Some("Bearer secret")));
    })
    .await;
}
