//! The transport's server (`a2a_runtime::server`, feature `server`) on real HTTP over
//! loopback: a service written against `a2a_types::v1::A2aService` (and one against `v0_3`),
//! served by `AgentRouter`, called with a plain HTTP client. Each test starts its own server on a
//! free 127.0.0.1 port, and every wait is bounded.

use a2a_types::rt::server::{self, AgentRouter};
use a2a_types::rt::service::events;
use a2a_types::rt::Limits;
use a2a_types::v0_3;
use a2a_types::v1::{
    A2aServer, A2aService, AgentCapabilities, AgentCard, AgentInterface, EventStream,
    GetTaskRequest, Message, Part, PartContent, RequestContext, Role, SendMessageRequest,
    SendMessageResponse, ServiceError, StreamResponse, Task, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A bound on every wait of these tests.
const WAIT: Duration = Duration::from_secs(10);

/// What a tower layer puts in the request's extensions, for the service to read.
#[derive(Clone, Debug)]
struct Caller(&'static str);

/// The test agent: its answer depends on the message text.
#[derive(Default)]
struct Agent {
    /// Set when a stalled stream is dropped (the client went away).
    dropped: Arc<AtomicBool>,
}

fn text(message: &Message) -> String {
    message
        .parts
        .iter()
        .filter_map(|p| match &p.content {
            PartContent::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

fn task(id: &str, state: TaskState) -> Task {
    Task {
        id: id.to_string(),
        status: TaskStatus {
            state,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn update(state: TaskState) -> StreamResponse {
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t-1".into(),
        status: TaskStatus {
            state,
            ..Default::default()
        },
        ..Default::default()
    })
}

/// Sets its flag when dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl A2aService for Agent {
    async fn send_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<SendMessageResponse, ServiceError> {
        match text(&params.message).as_str() {
            "panic" => panic!("the agent panics"),
            "context" => {
                // What the transport told the service, echoed back in the task's metadata.
                let caller = cx.extensions.get::<Caller>().map(|c| c.0);
                let mut reply = task("t-ctx", TaskState::Completed);
                let metadata = json!({
                    "version": cx.version.as_str(),
                    "binding": cx.binding.name(),
                    "method": cx.method,
                    "tenant": cx.tenant,
                    "extensions": cx.requested_extensions,
                    "caller": caller,
                    "auth": cx.header("authorization"),
                });
                reply.metadata = metadata.as_object().cloned();
                Ok(SendMessageResponse::Task(reply))
            }
            other => Ok(SendMessageResponse::Message(Message {
                message_id: "reply".into(),
                role: Role::Agent,
                parts: vec![Part {
                    content: PartContent::Text(format!("echo: {other}")),
                    ..Default::default()
                }],
                ..Default::default()
            })),
        }
    }

    async fn send_streaming_message(
        &self,
        _cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        match text(&params.message).as_str() {
            "refuse" => Err(ServiceError::unsupported(-32004, "SendStreamingMessage")),
            "fail after two" => Ok(events([
                Ok(StreamResponse::Task(task("t-1", TaskState::Submitted))),
                Ok(update(TaskState::Working)),
                Err(ServiceError::internal("the model went away")),
                Ok(update(TaskState::Completed)), // never sent: the error ends the stream
            ])),
            "stall" => {
                let flag = DropFlag(Arc::clone(&self.dropped));
                let first = events([Ok(StreamResponse::Task(task("t-1", TaskState::Working)))]);
                let stalled = futures_util::stream::once(async move {
                    let _flag = flag;
                    std::future::pending::<()>().await;
                    Ok(update(TaskState::Completed))
                });
                Ok(Box::pin(futures_util::StreamExt::chain(first, stalled)))
            }
            "panic in stream" => {
                let first = events([Ok(StreamResponse::Task(task("t-1", TaskState::Working)))]);
                let panics = futures_util::stream::once(async {
                    panic!("the stream panics");
                    #[allow(unreachable_code)]
                    Ok(update(TaskState::Completed))
                });
                Ok(Box::pin(futures_util::StreamExt::chain(first, panics)))
            }
            _ => Ok(events([
                Ok(StreamResponse::Task(task("t-1", TaskState::Submitted))),
                Ok(update(TaskState::Working)),
                Ok(update(TaskState::Completed)),
            ])),
        }
    }

    async fn get_task(
        &self,
        _cx: RequestContext,
        params: GetTaskRequest,
    ) -> Result<Task, ServiceError> {
        match params.id.as_str() {
            "t-1" => Ok(task("t-1", TaskState::Completed)),
            other => Err(ServiceError::from_code(
                -32001,
                format!("no task {other}"),
                [("taskId", other)],
            )),
        }
    }
}

/// The same agent in A2A 0.3: only message/send.
struct AgentV03;

impl v0_3::A2aService for AgentV03 {
    async fn send_message(
        &self,
        _cx: v0_3::RequestContext,
        _params: v0_3::MessageSendParams,
    ) -> Result<v0_3::SendMessageResult, v0_3::ServiceError> {
        Ok(v0_3::SendMessageResult::Task(v0_3::Task {
            id: "t-03".into(),
            context_id: "c".into(),
            ..Default::default()
        }))
    }
}

fn card(port: u16) -> AgentCard {
    let interface = |binding: &str, path: &str| AgentInterface {
        url: format!("http://127.0.0.1:{port}{path}"),
        protocol_binding: binding.into(),
        protocol_version: "1.0".into(),
        tenant: None,
    };
    AgentCard {
        name: "test agent".into(),
        description: "serves the tests".into(),
        version: "1".into(),
        supported_interfaces: vec![interface("JSONRPC", "/rpc"), interface("HTTP+JSON", "/api")],
        // Every capability: the tests below call every method (the server refuses what the card
        // does not declare, spec §3.3.4).
        capabilities: AgentCapabilities {
            streaming: Some(true),
            push_notifications: Some(true),
            extended_agent_card: Some(true),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A running server and where it listens.
struct Running {
    base: String,
    agent_dropped: Arc<AtomicBool>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Starts the agent (and the v0.3 one with `v0_3`) on a free port, the router adjusted by `adjust`.
async fn start(
    v0_3: bool,
    limits: Limits,
    adjust: impl FnOnce(axum::Router) -> axum::Router,
) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let agent = Agent::default();
    let agent_dropped = Arc::clone(&agent.dropped);
    let mut router = AgentRouter::new(&card(port))
        .unwrap()
        .service(A2aServer::new(agent))
        .limits(limits)
        .keep_alive(Duration::from_millis(100));
    if v0_3 {
        router = router.service(v0_3::A2aServer::new(AgentV03));
    }
    let router = adjust(router.into_router().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        let _ = stopped.await;
    };
    let done = tokio::spawn(server::serve(
        listener,
        router,
        shutdown,
        Duration::from_millis(300),
    ));
    Running {
        base: format!("http://127.0.0.1:{port}"),
        agent_dropped,
        stop: Some(stop),
        done,
    }
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().timeout(WAIT).build().unwrap()
}

fn rpc(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
}

fn message(text: &str) -> Value {
    json!({"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": text}]}})
}

/// POSTs `body` as JSON-RPC 1.0 to `/rpc`; the status and the body as JSON.
async fn post_rpc(run: &Running, body: &Value) -> (u16, Value) {
    let reply = http()
        .post(format!("{}/rpc", run.base))
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = reply.status().as_u16();
    (status, reply.json().await.unwrap())
}

fn reason(status_body: &Value) -> &str {
    status_body["error"]["details"][0]["reason"]
        .as_str()
        .unwrap_or("")
}

#[tokio::test]
async fn the_card_is_cached_by_max_age_and_etag() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    let url = format!("{}/.well-known/agent-card.json", run.base);
    let reply = http().get(&url).send().await.unwrap();
    assert_eq!(reply.status(), 200);
    let headers = reply.headers().clone();
    assert_eq!(headers["content-type"], "application/json");
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age="));
    assert!(headers.contains_key("last-modified"));
    let etag = headers["etag"].to_str().unwrap().to_string();
    let served: Value = reply.json().await.unwrap();
    assert_eq!(served["name"], "test agent");
    assert!(
        served.get("protocolVersion").is_none(),
        "no v0.3 members without a v0.3 service"
    );
    let again = http()
        .get(&url)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    let other = http()
        .get(&url)
        .header("if-none-match", "\"nope\"")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
}

#[tokio::test]
async fn with_v0_3_served_the_card_has_both_shapes_and_a_missing_version_is_0_3() {
    let run = start(true, Limits::DEFAULT, |r| r).await;
    let served: Value = http()
        .get(format!("{}/.well-known/agent-card.json", run.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(served["protocolVersion"], "0.3.0");
    assert_eq!(served["preferredTransport"], "JSONRPC");
    assert_eq!(served["url"], format!("{}/rpc", run.base));
    assert_eq!(served["supportedInterfaces"][0]["protocolVersion"], "1.0");
    // No A2A-Version: 0.3 (spec §3.6), served by the v0.3 service with its own method names.
    let v03 = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send",
        "params": {"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}}});
    let reply: Value = http()
        .post(format!("{}/rpc", run.base))
        .header("content-type", "application/json")
        .body(v03.to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(reply["result"]["id"], "t-03", "{reply}");
    assert_eq!(reply["result"]["kind"], "task");
    // With A2A-Version: 1.0 the same endpoint is v1.
    let (_, v1) = post_rpc(&run, &rpc("SendMessage", message("hi"))).await;
    assert_eq!(v1["result"]["message"]["parts"][0]["text"], "echo: hi");
}

#[tokio::test]
async fn versions_not_served_are_refused_on_both_bindings() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    for version in [None, Some("2.0"), Some("banana")] {
        let mut request = http()
            .post(format!("{}/rpc", run.base))
            .header("content-type", "application/json")
            .body(rpc("SendMessage", message("hi")).to_string());
        if let Some(v) = version {
            request = request.header("A2A-Version", v);
        }
        let reply: Value = request.send().await.unwrap().json().await.unwrap();
        assert_eq!(reply["error"]["code"], -32009, "{version:?}: {reply}");
        assert_eq!(reply["id"], 7);
        let mut request = http()
            .post(format!("{}/api/message:send", run.base))
            .header("content-type", "application/json")
            .body(message("hi").to_string());
        if let Some(v) = version {
            request = request.header("A2A-Version", v);
        }
        let reply = request.send().await.unwrap();
        assert_eq!(reply.status(), 400);
        let body: Value = reply.json().await.unwrap();
        assert_eq!(reason(&body), "VERSION_NOT_SUPPORTED", "{body}");
    }
    // The query parameter counts as the header does (spec §3.6).
    let reply: Value = http()
        .post(format!("{}/rpc?A2A-Version=1.0", run.base))
        .header("content-type", "application/json")
        .body(rpc("SendMessage", message("hi")).to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(reply["result"]["message"]["parts"][0]["text"], "echo: hi");
}

#[tokio::test]
async fn both_bindings_answer_results_and_typed_errors() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    let (status, reply) = post_rpc(&run, &rpc("GetTask", json!({"id": "t-1"}))).await;
    assert_eq!((status, reply["result"]["id"].as_str()), (200, Some("t-1")));
    let (_, reply) = post_rpc(&run, &rpc("GetTask", json!({"id": "t-9"}))).await;
    assert_eq!(reply["error"]["code"], -32001);
    assert_eq!(reply["error"]["message"], "no task t-9");
    assert_eq!(reply["error"]["data"][0]["reason"], "TASK_NOT_FOUND");
    assert_eq!(reply["error"]["data"][0]["metadata"]["taskId"], "t-9");

    let rest = |path: &str| {
        http()
            .get(format!("{}/api{path}", run.base))
            .header("A2A-Version", "1.0")
            .send()
    };
    let reply = rest("/tasks/t-1").await.unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.headers()["content-type"], "application/a2a+json");
    assert_eq!(reply.json::<Value>().await.unwrap()["id"], "t-1");
    let reply = rest("/tasks/t-9").await.unwrap();
    assert_eq!(reply.status(), 404);
    assert_eq!(
        reason(&reply.json::<Value>().await.unwrap()),
        "TASK_NOT_FOUND"
    );
    // A path no route has, under the REST base: the binding's 404, not a bare one.
    let reply = rest("/no/such/route").await.unwrap();
    assert_eq!(reply.status(), 404);
    assert!(reply.json::<Value>().await.unwrap()["error"].is_object());
}

#[tokio::test]
async fn methods_the_agent_does_not_write_answer_the_spec_s_error() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    let config = json!({"taskId": "t-1", "url": "https://hook.example/x"});
    let (_, reply) = post_rpc(
        &run,
        &rpc("CreateTaskPushNotificationConfig", config.clone()),
    )
    .await;
    assert_eq!(reply["error"]["code"], -32003, "{reply}");
    assert_eq!(
        reply["error"]["data"][0]["reason"],
        "PUSH_NOTIFICATION_NOT_SUPPORTED"
    );
    let (_, reply) = post_rpc(&run, &rpc("GetExtendedAgentCard", json!({}))).await;
    assert_eq!(reply["error"]["code"], -32007);
    let (_, reply) = post_rpc(&run, &rpc("SubscribeToTask", json!({"id": "t-1"}))).await;
    assert_eq!(reply["error"]["code"], -32004);
    let reply = http()
        .post(format!(
            "{}/api/tasks/t-1/pushNotificationConfigs",
            run.base
        ))
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(config.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 400);
    assert_eq!(
        reason(&reply.json::<Value>().await.unwrap()),
        "PUSH_NOTIFICATION_NOT_SUPPORTED"
    );
}

#[tokio::test]
async fn bad_requests_get_the_binding_s_error_and_the_server_keeps_serving() {
    let run = start(false, Limits::DEFAULT.with_max_body_bytes(4096), |r| r).await;
    let send = |path: &'static str, content_type: &'static str, body: String| {
        http()
            .post(format!("{}{path}", run.base))
            .header("content-type", content_type)
            .header("A2A-Version", "1.0")
            .body(body)
            .send()
    };
    // Not JSON: -32700, HTTP 200 (JSON-RPC errors travel in the body).
    let reply = send("/rpc", "application/json", "{not json".into())
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(
        reply.json::<Value>().await.unwrap()["error"]["code"],
        -32700
    );
    // Unknown method: -32601.
    let (_, reply) = post_rpc(&run, &rpc("NoSuchMethod", json!({}))).await;
    assert_eq!(reply["error"]["code"], -32601);
    // A body that says it is not JSON: ContentTypeNotSupported, over REST as 415.
    let reply = send(
        "/rpc",
        "text/plain",
        rpc("SendMessage", message("x")).to_string(),
    )
    .await
    .unwrap();
    assert_eq!(
        reply.json::<Value>().await.unwrap()["error"]["code"],
        -32005
    );
    let reply = send("/api/message:send", "text/plain", message("x").to_string())
        .await
        .unwrap();
    assert_eq!(reply.status(), 415);
    assert_eq!(
        reason(&reply.json::<Value>().await.unwrap()),
        "CONTENT_TYPE_NOT_SUPPORTED"
    );
    // Over the body limit: the binding's invalid request (REST: 413), before any parsing.
    let big = "x".repeat(8192);
    let reply = send(
        "/rpc",
        "application/json",
        rpc("SendMessage", message(&big)).to_string(),
    )
    .await
    .unwrap();
    assert_eq!(
        reply.json::<Value>().await.unwrap()["error"]["code"],
        -32600
    );
    let reply = send(
        "/api/message:send",
        "application/json",
        message(&big).to_string(),
    )
    .await
    .unwrap();
    assert_eq!(reply.status(), 413);
    // REST params that do not read: 400 with a BadRequest naming the field.
    let reply = send(
        "/api/message:send",
        "application/json",
        json!({"message": 5}).to_string(),
    )
    .await
    .unwrap();
    assert_eq!(reply.status(), 400);
    // A notification (no id): 204 and nothing else.
    let note = json!({"jsonrpc": "2.0", "method": "SendMessage", "params": message("x")});
    let reply = send("/rpc", "application/json", note.to_string())
        .await
        .unwrap();
    assert_eq!(reply.status(), 204);
    assert!(reply.bytes().await.unwrap().is_empty());
    // A method that panics: InternalError on both bindings, and the next call is served.
    let (_, reply) = post_rpc(&run, &rpc("SendMessage", message("panic"))).await;
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    let reply = send(
        "/api/message:send",
        "application/json",
        message("panic").to_string(),
    )
    .await
    .unwrap();
    assert_eq!(reply.status(), 500);
    let (_, reply) = post_rpc(&run, &rpc("SendMessage", message("still there?"))).await;
    assert_eq!(
        reply["result"]["message"]["parts"][0]["text"],
        "echo: still there?"
    );
}

/// The SSE `data:` payloads of a whole streamed body, with the event names.
fn sse_events(body: &str) -> Vec<(Option<String>, Value)> {
    let mut out = Vec::new();
    for block in body.split("\n\n") {
        let mut name = None;
        let mut data = String::new();
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                name = Some(v.trim().to_string());
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.trim_start());
            }
        }
        if !data.is_empty() {
            out.push((name, serde_json::from_str(&data).unwrap()));
        }
    }
    out
}

async fn stream_body(run: &Running, rest: bool, text: &str) -> (u16, String, String) {
    let (url, body) = match rest {
        true => (format!("{}/api/message:stream", run.base), message(text)),
        false => (
            format!("{}/rpc", run.base),
            rpc("SendStreamingMessage", message(text)),
        ),
    };
    let reply = http()
        .post(url)
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = reply.status().as_u16();
    let content_type = reply.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    (status, content_type, reply.text().await.unwrap())
}

#[tokio::test]
async fn streams_are_sse_in_order_and_an_error_is_the_last_event() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    let (status, content_type, body) = stream_body(&run, false, "go").await;
    assert_eq!((status, content_type.as_str()), (200, "text/event-stream"));
    let events = sse_events(&body);
    assert_eq!(events.len(), 3, "{body}");
    assert_eq!(
        events[0].1["result"]["task"]["status"]["state"],
        "TASK_STATE_SUBMITTED"
    );
    assert_eq!(
        events[2].1["result"]["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    assert!(events.iter().all(|(_, e)| e["id"] == 7));

    let events = sse_events(&stream_body(&run, false, "fail after two").await.2);
    assert_eq!(events.len(), 3);
    assert_eq!(events[2].1["error"]["code"], -32603);
    let events = sse_events(&stream_body(&run, true, "fail after two").await.2);
    assert_eq!(events.len(), 3);
    assert_eq!(
        events[1].1["statusUpdate"]["status"]["state"],
        "TASK_STATE_WORKING"
    );
    assert_eq!(events[2].0.as_deref(), Some("error"));
    assert_eq!(events[2].1["error"]["code"], 500);
    // A panic while streaming ends the stream with the error event.
    let events = sse_events(&stream_body(&run, false, "panic in stream").await.2);
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].1["error"]["code"], -32603);
    // Refused before the stream begins: one JSON reply, not a stream.
    let (_, content_type, body) = stream_body(&run, false, "refuse").await;
    assert_eq!(content_type, "application/json");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["error"]["code"],
        -32004
    );
}

#[tokio::test]
async fn an_idle_stream_gets_keep_alives_and_a_client_leaving_drops_it() {
    let run = start(false, Limits::DEFAULT, |r| r).await;
    let mut reply = http()
        .post(format!("{}/rpc", run.base))
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(rpc("SendStreamingMessage", message("stall")).to_string())
        .send()
        .await
        .unwrap();
    let mut seen = String::new();
    let read = async {
        while !seen.contains("\n:") && !seen.starts_with(':') {
            match reply.chunk().await.unwrap() {
                Some(chunk) => seen.push_str(&String::from_utf8_lossy(&chunk)),
                None => break,
            }
        }
    };
    tokio::time::timeout(WAIT, read)
        .await
        .expect("a keep-alive comment within the bound");
    assert!(seen.contains("TASK_STATE_WORKING"), "{seen}");
    assert!(!run.agent_dropped.load(Ordering::SeqCst));
    drop(reply); // the client disconnects mid-stream
    let dropped = async {
        while !run.agent_dropped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, dropped)
        .await
        .expect("the server drops the agent's stream");
    let (_, reply) = post_rpc(&run, &rpc("SendMessage", message("after"))).await;
    assert_eq!(
        reply["result"]["message"]["parts"][0]["text"],
        "echo: after"
    );
}

#[tokio::test]
async fn the_context_carries_version_binding_tenant_extensions_headers_and_layer_state() {
    let run = start(false, Limits::DEFAULT, |r| {
        r.layer(axum::Extension(Caller("alice")))
    })
    .await;
    let reply: Value = http()
        .post(format!("{}/api/acme/message:send", run.base))
        .header("content-type", "application/a2a+json")
        .header("A2A-Version", "1.0")
        .header("A2A-Extensions", "urn:a, urn:b")
        .header("authorization", "Bearer t0k")
        .body(message("context").to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let seen = &reply["task"]["metadata"];
    assert_eq!(seen["version"], "1.0", "{reply}");
    assert_eq!(seen["binding"], "HTTP+JSON");
    assert_eq!(seen["method"], "SendMessage");
    assert_eq!(seen["tenant"], "acme");
    assert_eq!(seen["extensions"], json!(["urn:a", "urn:b"]));
    assert_eq!(seen["caller"], "alice");
    assert_eq!(seen["auth"], "Bearer t0k");
    let (_, reply) = post_rpc(&run, &rpc("SendMessage", message("context"))).await;
    let seen = &reply["result"]["task"]["metadata"];
    assert_eq!(
        (seen["binding"].as_str(), seen["tenant"].is_null()),
        (Some("JSONRPC"), true)
    );
}

#[tokio::test]
async fn shutdown_waits_at_most_the_grace_for_open_streams() {
    let mut run = start(false, Limits::DEFAULT, |r| r).await;
    let reply = http()
        .post(format!("{}/rpc", run.base))
        .header("content-type", "application/json")
        .header("A2A-Version", "1.0")
        .body(rpc("SendStreamingMessage", message("stall")).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let _ = run.stop.take().unwrap().send(());
    let result = tokio::time::timeout(WAIT, &mut run.done).await;
    assert!(
        matches!(result, Ok(Ok(Ok(())))),
        "serve returns after the grace period"
    );
    drop(reply);
}

#[test]
fn a_router_needs_a_service_and_an_interface() {
    let empty = AgentRouter::new(&AgentCard::default()).unwrap();
    let e = empty.into_router().unwrap_err();
    assert!(e.to_string().contains("no service"), "{e}");
    let no_interface = AgentRouter::new(&AgentCard::default())
        .unwrap()
        .service(A2aServer::new(Agent::default()));
    let e = no_interface.into_router().unwrap_err();
    assert!(e.to_string().contains("supportedInterfaces"), "{e}");
    assert!(AgentRouter::new(&5).is_err());
}

#[test]
fn a_method_s_error_stays_small_enough_for_clippy_s_result_large_err() {
    // clippy's default threshold is 128 bytes: every `Result<_, ServiceError>` an agent writes
    // would trip it otherwise.
    assert!(
        std::mem::size_of::<ServiceError>() < 128,
        "{}",
        std::mem::size_of::<ServiceError>()
    );
}

#[tokio::test]
async fn a_shared_service_is_served_beside_the_user_s_own_routes() {
    // A service the application also keeps (behind an Arc), and a route of its own merged in.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let shared = Arc::new(Agent::default());
    let router = AgentRouter::new(&card(port))
        .unwrap()
        .service(A2aServer::from_arc(Arc::clone(&shared)))
        .into_router()
        .unwrap()
        .merge(axum::Router::new().route("/health", axum::routing::get(|| async { "ok" })));
    let never = std::future::pending::<()>();
    tokio::spawn(server::serve(listener, router, never, Duration::ZERO));
    let run = Running {
        base: format!("http://127.0.0.1:{port}"),
        agent_dropped: Arc::clone(&shared.dropped),
        stop: None,
        done: tokio::spawn(async { Ok(()) }),
    };
    let (_, reply) = post_rpc(&run, &rpc("SendMessage", message("shared"))).await;
    assert_eq!(
        reply["result"]["message"]["parts"][0]["text"],
        "echo: shared"
    );
    let health = http()
        .get(format!("{}/health", run.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.text().await.unwrap(), "ok");
    // The application's own handle calls the same service directly.
    let cx = RequestContext::new(
        a2a_types::version::ProtocolVersion::V1_0,
        a2a_types::rt::Binding::JsonRpc,
        "GetTask",
    );
    let task = shared
        .get_task(
            cx,
            GetTaskRequest {
                id: "t-1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(task.id, "t-1");
}
