//! `interop-agent PORT_FILE`: an A2A v1 agent on axum, built from the server-side pieces of
//! a2a-types, for a2a-sdk 1.3.0's own Python client to call (tests/interop/py/client.py).
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: its card (JSON-RPC at `/`, streaming on);
//! - `POST /`: `SendMessage` answers with a completed task whose artifact says
//!   `Hello from Rust: <text>`; `SendStreamingMessage` streams the same task as SSE, one event
//!   every 20 ms (submitted, working, the artifact, completed); `GetTask`, `CancelTask` and
//!   `ListTasks` work on the tasks made so far (`TaskNotFound`, `TaskNotCancelable` as due); the
//!   text [`QUOTA_TRIGGER`] gets the agent's own error, [`InteropError::QuotaExceeded`] (code
//!   -32050), from `#[derive(AgentError)]`; other methods get `UnsupportedOperation`.
//!
//! Each call is logged to stderr, one line, for run.sh to print when a step fails.

use a2a_interop::{text_of, text_part, InteropError, PROTOCOL_VERSION, QUOTA_TRIGGER};
use a2a_types::rt::server::RequestId;
use a2a_types::v1::{
    decode_request, encode_error, encode_event, encode_result, method, A2aError, AgentCapabilities,
    AgentCard, AgentInterface, AgentSkill, Artifact, ListTasksResponse, Message, Request,
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use a2a_types::version::ProtocolVersion;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pause between two streamed events, so the client reads them as they happen.
const EVENT_GAP: Duration = Duration::from_millis(20);

/// The agent: its address and the tasks it has made, in order.
struct Agent {
    port: u16,
    tasks: Mutex<Vec<Task>>,
}

impl Agent {
    fn card(&self) -> AgentCard {
        AgentCard {
            name: "Rust Interop Agent".to_string(),
            description: "An a2a-types agent that greets whoever calls it".to_string(),
            supported_interfaces: vec![AgentInterface {
                url: format!("http://127.0.0.1:{}/", self.port),
                protocol_binding: "JSONRPC".to_string(),
                protocol_version: PROTOCOL_VERSION.to_string(),
                tenant: None,
            }],
            version: "0.1.0".to_string(),
            capabilities: AgentCapabilities {
                streaming: Some(true),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".to_string()],
            default_output_modes: vec!["text/plain".to_string()],
            skills: vec![AgentSkill {
                id: "greet".to_string(),
                name: "Greets".to_string(),
                description: "answers a message with a greeting that repeats it".to_string(),
                tags: vec!["greeting".to_string()],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// A new task for `message`, finished: its history holds the message, its one artifact the
    /// greeting.
    fn new_task(&self, message: &Message) -> Task {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        let n = tasks.len() + 1;
        let id = format!("rust-task-{n}");
        let context_id = message
            .context_id
            .clone()
            .unwrap_or_else(|| format!("rust-ctx-{n}"));
        let mut request = message.clone();
        request.task_id = Some(id.clone());
        request.context_id = Some(context_id.clone());
        let task = Task {
            id,
            context_id: Some(context_id),
            status: status(TaskState::Completed),
            artifacts: vec![Artifact {
                artifact_id: format!("rust-artifact-{n}"),
                name: Some("greeting".to_string()),
                parts: vec![text_part(&format!(
                    "Hello from Rust: {}",
                    text_of(&message.parts)
                ))],
                ..Default::default()
            }],
            history: vec![request],
            ..Default::default()
        };
        tasks.push(task.clone());
        task
    }

    fn find(&self, id: &str) -> Option<Task> {
        let tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks.iter().find(|t| t.id == id).cloned()
    }

    fn all(&self) -> Vec<Task> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn status(state: TaskState) -> TaskStatus {
    TaskStatus {
        state,
        ..Default::default()
    }
}

fn json(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn task_not_found(id: &RequestId, task: &str) -> Vec<u8> {
    let error = A2aError::from_code(-32001, None, None);
    let info = error.error_info([("taskId", task)]);
    encode_error(id, &error.with_details(info))
}

async fn card(State(agent): State<Arc<Agent>>) -> Response {
    eprintln!("interop-agent: GET agent card");
    json(serde_json::to_vec(&agent.card()).unwrap_or_default())
}

async fn rpc(State(agent): State<Arc<Agent>>, headers: HeaderMap, body: Bytes) -> Response {
    let incoming = match decode_request(&body) {
        Ok(incoming) => incoming,
        Err(rejected) => {
            eprintln!("interop-agent: rejected a request: {rejected}");
            return json(rejected.to_response());
        }
    };
    let id = incoming.reply_id();
    let method = incoming.request.method();
    // The SDK client sends the version it speaks; a version this agent does not speak is
    // refused with the standard error, as the spec asks.
    let version = headers
        .get(ProtocolVersion::HEADER)
        .and_then(|v| v.to_str().ok());
    if version.is_some_and(|v| v != PROTOCOL_VERSION) {
        eprintln!("interop-agent: {method}: refused version {version:?}");
        let error = A2aError::from_code(
            -32009,
            Some(format!(
                "this agent speaks A2A {PROTOCOL_VERSION}, not {}",
                version.unwrap_or_default()
            )),
            None,
        );
        return json(encode_error(&id, &error));
    }
    let (outcome, response) = match incoming.request {
        Request::SendMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                quota_exceeded(&id)
            } else {
                let task = agent.new_task(&params.message);
                (
                    format!("task {}", task.id),
                    json(encode_result::<method::SendMessage>(
                        &id,
                        &SendMessageResponse::Task(task),
                    )),
                )
            }
        }
        Request::SendStreamingMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                quota_exceeded(&id)
            } else {
                let task = agent.new_task(&params.message);
                (format!("stream of task {}", task.id), stream(&id, task))
            }
        }
        Request::GetTask(params) => match agent.find(&params.id) {
            Some(task) => (
                format!("task {}", task.id),
                json(encode_result::<method::GetTask>(&id, &task)),
            ),
            None => (
                "TaskNotFound".to_string(),
                json(task_not_found(&id, &params.id)),
            ),
        },
        Request::CancelTask(params) => match agent.find(&params.id) {
            Some(task) => {
                // Every task here is finished before a cancel can reach it.
                let error = A2aError::from_code(-32002, None, None);
                let info = error.error_info([("taskId", task.id.as_str())]);
                (
                    "TaskNotCancelable".to_string(),
                    json(encode_error(&id, &error.with_details(info))),
                )
            }
            None => (
                "TaskNotFound".to_string(),
                json(task_not_found(&id, &params.id)),
            ),
        },
        Request::ListTasks(_) => {
            let tasks = agent.all();
            let count = i32::try_from(tasks.len()).unwrap_or(i32::MAX);
            let list = ListTasksResponse {
                tasks,
                next_page_token: String::new(),
                page_size: count,
                total_size: count,
            };
            (
                format!("{count} task(s)"),
                json(encode_result::<method::ListTasks>(&id, &list)),
            )
        }
        other => {
            let error = A2aError::from_code(
                -32004,
                Some(format!("the interop agent does not do {}", other.method())),
                None,
            );
            (
                "UnsupportedOperation".to_string(),
                json(encode_error(&id, &error)),
            )
        }
    };
    eprintln!("interop-agent: {method} (id {id}) -> {outcome}");
    response
}

/// The agent's own error, refusing a message (unary or streaming) with one JSON body.
fn quota_exceeded(id: &RequestId) -> (String, Response) {
    let error = InteropError::QuotaExceeded {
        retry_after_secs: 30,
    };
    let body = encode_error(id, &A2aError::from_custom(&error));
    ("QuotaExceeded".to_string(), json(body))
}

/// The task's life as an SSE stream, one event every [`EVENT_GAP`]: the task as submitted,
/// working, its artifact, completed.
fn stream(id: &RequestId, task: Task) -> Response {
    let context_id = task.context_id.clone().unwrap_or_default();
    let update = |state: TaskState| {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: task.id.clone(),
            context_id: context_id.clone(),
            status: status(state),
            ..Default::default()
        })
    };
    let submitted = Task {
        status: status(TaskState::Submitted),
        artifacts: Vec::new(),
        ..task.clone()
    };
    let events = [
        StreamResponse::Task(submitted),
        update(TaskState::Working),
        StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
            task_id: task.id.clone(),
            context_id: context_id.clone(),
            artifact: task.artifacts[0].clone(),
            last_chunk: Some(true),
            ..Default::default()
        }),
        update(TaskState::Completed),
    ];
    let frames: Vec<Vec<u8>> = events
        .iter()
        .map(|event| encode_event::<method::SendStreamingMessage>(id, Ok(event)))
        .collect();
    let body = futures_util::stream::unfold(
        (frames.into_iter(), true),
        |(mut frames, first)| async move {
            let frame = frames.next()?;
            if !first {
                tokio::time::sleep(EVENT_GAP).await;
            }
            Some((Ok::<_, Infallible>(frame), (frames, false)))
        },
    );
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port_file] = args.as_slice() else {
        eprintln!("usage: interop-agent PORT_FILE");
        std::process::exit(2);
    };
    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("interop-agent: cannot bind 127.0.0.1: {e}");
            std::process::exit(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let agent = Arc::new(Agent {
        port,
        tasks: Mutex::new(Vec::new()),
    });
    let app = Router::new()
        .route("/.well-known/agent-card.json", get(card))
        .route("/", post(rpc))
        .with_state(agent);
    if let Err(e) = std::fs::write(port_file, format!("{port}\n")) {
        eprintln!("interop-agent: cannot write {port_file}: {e}");
        std::process::exit(1);
    }
    eprintln!("interop-agent: serving on 127.0.0.1:{port}");
    if let Err(e) = axum::serve(listener, app).await {
        eprintln!("interop-agent: {e}");
        std::process::exit(1);
    }
}
