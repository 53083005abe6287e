//! `interop-client URL`: drives a live a2a-sdk 1.3.0 agent (tests/interop/py/agent.py) through
//! every call the interop test covers, with a2a-types encoding the calls and decoding the replies.
//!
//! Prints one line per step; exits 1 at the first step that fails, 2 on bad arguments.

use a2a_interop::{ensure, text_of, user_text, Steps, PROTOCOL_VERSION};
use a2a_types::rt::server::RequestId;
use a2a_types::v1::{
    decode_reply, method, A2aError, AgentCard, CallError, CancelTaskRequest, GetTaskRequest,
    ListTasksRequest, Request, SendMessageRequest, SendMessageResponse, StreamDecoder,
    StreamResponse, SubscribeToTaskRequest, Task, TaskState,
};
use a2a_types::version::ProtocolVersion;
use serde_json::Value;
use std::fmt::Debug;
use std::io::Read;
use std::time::Duration;

/// Bytes read from the SSE response at a time: small, so the live stream reaches the decoder
/// split inside events, not only between them.
const STREAM_READ: usize = 256;

/// A blocking JSON-RPC client over `ureq`: one agent (connection pool), the endpoint, the next id.
struct Client {
    http: ureq::Agent,
    endpoint: String,
    next_id: i64,
}

/// A reply as it came off the wire.
struct Reply {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

impl Client {
    fn new() -> Self {
        let config = ureq::Agent::config_builder()
            // JSON-RPC errors travel with any status; the body decides, not the status.
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(20)))
            .build();
        Client {
            http: ureq::Agent::new_with_config(config),
            endpoint: String::new(),
            next_id: 1,
        }
    }

    fn get(&self, url: &str) -> Result<Reply, String> {
        let response = self
            .http
            .get(url)
            .header(ProtocolVersion::HEADER, PROTOCOL_VERSION)
            .call()
            .map_err(|e| format!("GET {url}: {e}"))?;
        read_whole(response)
    }

    /// Sends one call; the reply is read whole.
    fn call(&mut self, request: &Request) -> Result<Reply, String> {
        let response = self.post(request, "application/json")?;
        read_whole(response)
    }

    fn post(
        &mut self,
        request: &Request,
        accept: &str,
    ) -> Result<ureq::http::Response<ureq::Body>, String> {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        let body = request.encode(&id);
        self.http
            .post(&self.endpoint)
            .header(ProtocolVersion::HEADER, PROTOCOL_VERSION)
            .header("accept", accept)
            .content_type("application/json")
            .send(&body[..])
            .map_err(|e| format!("POST {} ({}): {e}", self.endpoint, request.method()))
    }
}

fn content_type(response: &ureq::http::Response<ureq::Body>) -> String {
    response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

fn read_whole(mut response: ureq::http::Response<ureq::Body>) -> Result<Reply, String> {
    let status = response.status().as_u16();
    let content_type = content_type(&response);
    let body = response
        .body_mut()
        .read_to_vec()
        .map_err(|e| format!("reading the body: {e}"))?;
    Ok(Reply {
        status,
        content_type,
        body,
    })
}

/// `what` for a failure message, with the reply's status and the start of its body.
fn context(what: impl Debug, reply: &Reply) -> String {
    let body = String::from_utf8_lossy(&reply.body);
    let cut: String = body.chars().take(600).collect();
    format!("{what:?} (HTTP {}, body: {cut})", reply.status)
}

fn completed_hello(task: &Task) -> Result<(), String> {
    ensure(task.status.state == TaskState::Completed, || {
        format!("task state {:?}, expected Completed", task.status.state)
    })?;
    let text = task
        .artifacts
        .iter()
        .map(|a| text_of(&a.parts))
        .collect::<Vec<_>>();
    ensure(text == ["Hello World"], || {
        format!("artifact texts {text:?}, expected [\"Hello World\"]")
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base] = args.as_slice() else {
        eprintln!("usage: interop-client URL   (the a2a-sdk agent's base URL)");
        std::process::exit(2);
    };
    let base = base.trim_end_matches('/');
    let mut client = Client::new();
    let mut steps = Steps::default();

    steps.step("agent card", || {
        let url = format!("{base}/.well-known/agent-card.json");
        let reply = client.get(&url)?;
        let card: AgentCard = serde_json::from_slice(&reply.body)
            .map_err(|e| context(format!("not a v1 AgentCard: {e}"), &reply))?;
        let json: Value = serde_json::from_slice(&reply.body).map_err(|e| e.to_string())?;
        let version = ProtocolVersion::from_agent_card(&json);
        ensure(version == Some(ProtocolVersion::V1_0), || {
            format!("the card declares {version:?}, expected 1.0")
        })?;
        ensure(card.capabilities.streaming == Some(true), || {
            "the card does not declare streaming".to_string()
        })?;
        let interface = card
            .supported_interfaces
            .iter()
            .find(|i| i.protocol_binding == "JSONRPC")
            .ok_or("no JSONRPC interface in the card")?;
        client.endpoint = interface.url.clone();
        Ok(format!(
            "{:?} v{}, JSON-RPC at {}, {} skill(s)",
            card.name,
            card.version,
            interface.url,
            card.skills.len()
        ))
    });

    let hello = user_text("rust-msg-1", "hi from Rust");
    let mut first_task = String::new();
    steps.step("SendMessage", || {
        let reply = client.call(&Request::SendMessage(SendMessageRequest {
            message: hello.clone(),
            ..Default::default()
        }))?;
        match decode_reply::<method::SendMessage>(&reply.body) {
            Ok(SendMessageResponse::Task(task)) => {
                completed_hello(&task)?;
                ensure(
                    task.history.iter().any(|m| m.message_id == "rust-msg-1"),
                    || "the task's history lacks our message".to_string(),
                )?;
                first_task = task.id.clone();
                Ok(format!(
                    "task {} completed, artifact \"Hello World\"",
                    task.id
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask", || {
        let reply = client.call(&Request::GetTask(GetTaskRequest {
            id: first_task.clone(),
            ..Default::default()
        }))?;
        match decode_reply::<method::GetTask>(&reply.body) {
            Ok(task) if task.id == first_task => {
                completed_hello(&task)?;
                Ok(format!(
                    "task {} completed, {} history message(s)",
                    task.id,
                    task.history.len()
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    steps.step("GetTask of an unknown id is TaskNotFound", || {
        let reply = client.call(&Request::GetTask(GetTaskRequest {
            id: "no-such-task".to_string(),
            ..Default::default()
        }))?;
        match decode_reply::<method::GetTask>(&reply.body) {
            Err(CallError::Agent(error @ A2aError::TaskNotFound { .. })) => Ok(format!(
                "A2aError::TaskNotFound ({}: {}), {} detail(s)",
                error.code(),
                error.message(),
                error.details().len()
            )),
            other => Err(context(other, &reply)),
        }
    });

    steps.step(
        "CancelTask of a completed task is TaskNotCancelable",
        || {
            let reply = client.call(&Request::CancelTask(CancelTaskRequest {
                id: first_task.clone(),
                ..Default::default()
            }))?;
            match decode_reply::<method::CancelTask>(&reply.body) {
                Err(CallError::Agent(error @ A2aError::TaskNotCancelable { .. })) => Ok(format!(
                    "A2aError::TaskNotCancelable ({}: {})",
                    error.code(),
                    error.message()
                )),
                other => Err(context(other, &reply)),
            }
        },
    );

    let mut streamed_task = String::new();
    steps.step("SendStreamingMessage, decoded as it arrives", || {
        let request = Request::SendStreamingMessage(SendMessageRequest {
            message: user_text("rust-msg-2", "stream to Rust"),
            ..Default::default()
        });
        let mut response = client.post(&request, "text/event-stream")?;
        let content_type = content_type(&response);
        ensure(content_type.starts_with("text/event-stream"), || {
            format!("content type {content_type:?}, expected text/event-stream")
        })?;
        let mut decoder = StreamDecoder::<StreamResponse>::new();
        let mut events = Vec::new();
        let mut reads = 0;
        let mut reader = response.body_mut().as_reader();
        let mut buf = [0u8; STREAM_READ];
        loop {
            let n = reader.read(&mut buf).map_err(|e| format!("reading: {e}"))?;
            if n == 0 {
                break;
            }
            reads += 1;
            for item in decoder.feed(&buf[..n]) {
                events.push(item.map_err(|e| format!("event {}: {e}", events.len() + 1))?);
            }
        }
        decoder.finish().map_err(|e| e.to_string())?;
        let kinds: Vec<String> = events.iter().map(kind).collect();
        let expected = [
            "task Submitted",
            "status Working",
            "artifact \"Hello World\"",
            "status Completed",
        ];
        ensure(kinds == expected, || {
            format!("events {kinds:?}, expected {expected:?}")
        })?;
        if let Some(StreamResponse::Task(task)) = events.first() {
            streamed_task = task.id.clone();
        }
        Ok(format!(
            "{} events over {reads} reads of at most {STREAM_READ} bytes: {}",
            events.len(),
            kinds.join(", ")
        ))
    });

    steps.step(
        "SubscribeToTask of a completed task: one JSON error",
        || {
            let request = Request::SubscribeToTask(SubscribeToTaskRequest {
                id: streamed_task.clone(),
                ..Default::default()
            });
            let response = client.post(&request, "text/event-stream")?;
            let reply = read_whole(response)?;
            // A streaming call refused before it starts: the agent answers one plain JSON body.
            match decode_reply::<method::SubscribeToTask>(&reply.body) {
                Err(CallError::Agent(error @ A2aError::UnsupportedOperation { .. })) => {
                    Ok(format!(
                        "A2aError::UnsupportedOperation ({}: {}), content type {}",
                        error.code(),
                        error.message(),
                        reply.content_type
                    ))
                }
                other => Err(context(other, &reply)),
            }
        },
    );

    steps.step("ListTasks", || {
        let reply = client.call(&Request::ListTasks(ListTasksRequest::default()))?;
        match decode_reply::<method::ListTasks>(&reply.body) {
            Ok(list) => {
                let ids: Vec<&str> = list.tasks.iter().map(|t| t.id.as_str()).collect();
                ensure(
                    ids.contains(&first_task.as_str()) && ids.contains(&streamed_task.as_str()),
                    || format!("tasks {ids:?}, expected {first_task} and {streamed_task}"),
                )?;
                Ok(format!(
                    "{} task(s), total size {}",
                    list.tasks.len(),
                    list.total_size
                ))
            }
            other => Err(context(other, &reply)),
        }
    });

    println!(
        "interop-client: {} steps passed against the a2a-sdk agent",
        steps.passed()
    );
}

/// A short name for a stream event.
fn kind(event: &StreamResponse) -> String {
    match event {
        StreamResponse::Task(task) => format!("task {:?}", task.status.state),
        StreamResponse::Message(message) => format!("message {:?}", text_of(&message.parts)),
        StreamResponse::StatusUpdate(update) => format!("status {:?}", update.status.state),
        StreamResponse::ArtifactUpdate(update) => {
            format!("artifact {:?}", text_of(&update.artifact.parts))
        }
        StreamResponse::Unknown(unknown) => format!("unknown {:?}", unknown.name()),
    }
}
