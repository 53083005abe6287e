//! `interop-agent PORT_FILE`: an A2A v1 agent on axum, built from the server-side pieces of
//! `a2a_types::v1`, for a2a-sdk 1.3.0's own Python client to call (tests/interop/py/client.py).
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: its card (JSON-RPC 1.0 at `/`; streaming, push
//!   notifications and an extended card on);
//! - `POST /`: `SendMessage` answers with a completed task whose artifact says
//!   `Hello from Rust: <text>`; `SendStreamingMessage` streams the same task as SSE, one event
//!   every 20 ms (submitted, working, the artifact, completed); `GetTask`, `CancelTask`,
//!   `SubscribeToTask` and `ListTasks` work on the tasks made so far (`TaskNotFound`,
//!   `TaskNotCancelable`, and `UnsupportedOperation` for a subscription to a finished task, as
//!   a2a-sdk's own agent answers); the four push-notification-config methods keep the configs in
//!   memory (nothing is ever delivered); `GetExtendedAgentCard` answers with the card plus one
//!   skill. The text [`QUOTA_TRIGGER`] gets the agent's own error,
//!   [`InteropError::QuotaExceeded`] (code -32050), from `#[derive(AgentError)]`.
//!
//! Each call is logged to stderr, one line, for run.sh to print when a step fails.

use a2a_interop::serve::{json, serve, sse};
use a2a_interop::{text_of, text_part, InteropError, PROTOCOL_VERSION, QUOTA_TRIGGER};
use a2a_types::rt::server::RequestId;
use a2a_types::v1::{
    decode_request, encode_error, encode_event, encode_result, method, A2aError, AgentCapabilities,
    AgentCard, AgentInterface, AgentSkill, Artifact, Empty,
    ListTaskPushNotificationConfigsResponse, ListTasksResponse, Message, Request,
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_types::version::ProtocolVersion;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse as _, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::{Arc, Mutex, MutexGuard};

/// The agent: its address, the tasks it has made (in order) and the push-notification configs
/// registered for them.
struct Agent {
    port: u16,
    tasks: Mutex<Vec<Task>>,
    pushes: Mutex<Vec<TaskPushNotificationConfig>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Agent {
    /// The public card, or the extended one (`GetExtendedAgentCard`), which has one more skill.
    fn card(&self, extended: bool) -> AgentCard {
        let mut skills = vec![AgentSkill {
            id: "greet".to_string(),
            name: "Greets".to_string(),
            description: "answers a message with a greeting that repeats it".to_string(),
            tags: vec!["greeting".to_string()],
            ..Default::default()
        }];
        if extended {
            skills.push(AgentSkill {
                id: "greet_by_name".to_string(),
                name: "Greets by name".to_string(),
                description: "the skill only the extended card lists".to_string(),
                tags: vec!["greeting".to_string()],
                ..Default::default()
            });
        }
        AgentCard {
            name: if extended {
                "Rust Interop Agent (extended)".to_string()
            } else {
                "Rust Interop Agent".to_string()
            },
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
                push_notifications: Some(true),
                extended_agent_card: Some(true),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".to_string()],
            default_output_modes: vec!["text/plain".to_string()],
            skills,
            ..Default::default()
        }
    }

    /// A new task for `message`, finished: its history holds the message, its one artifact the
    /// greeting.
    fn new_task(&self, message: &Message) -> Task {
        let mut tasks = lock(&self.tasks);
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
        lock(&self.tasks).iter().find(|t| t.id == id).cloned()
    }

    fn all(&self) -> Vec<Task> {
        lock(&self.tasks).clone()
    }

    /// Stores `config` for its task, replacing one with the same id; an id left out defaults to
    /// the task id, as in a2a-sdk's store.
    fn set_push(
        &self,
        task_id: &str,
        config: &TaskPushNotificationConfig,
    ) -> TaskPushNotificationConfig {
        let stored = TaskPushNotificationConfig {
            task_id: Some(task_id.to_string()),
            id: Some(config.id.clone().unwrap_or_else(|| task_id.to_string())),
            ..config.clone()
        };
        let mut pushes = lock(&self.pushes);
        pushes.retain(|c| !(c.task_id == stored.task_id && c.id == stored.id));
        pushes.push(stored.clone());
        stored
    }

    fn pushes_of(&self, task_id: &str) -> Vec<TaskPushNotificationConfig> {
        lock(&self.pushes)
            .iter()
            .filter(|c| c.task_id.as_deref() == Some(task_id))
            .cloned()
            .collect()
    }

    fn delete_push(&self, task_id: &str, id: &str) {
        lock(&self.pushes)
            .retain(|c| !(c.task_id.as_deref() == Some(task_id) && c.id.as_deref() == Some(id)));
    }
}

fn status(state: TaskState) -> TaskStatus {
    TaskStatus {
        state,
        ..Default::default()
    }
}

/// `TaskNotFound` for `task` (a2a-sdk also answers it for a push config it does not have).
fn task_not_found(id: &RequestId, task: &str) -> (String, Response) {
    let error = A2aError::from_code(-32001, None, None);
    let info = error.error_info([("taskId", task)]);
    (
        "TaskNotFound".to_string(),
        json(encode_error(id, &error.with_details(info))),
    )
}

/// An error with a message, for the log and the client.
fn refuse(id: &RequestId, code: i64, message: String) -> (String, Response) {
    let error = A2aError::from_code(code, Some(message), None);
    let outcome = format!("{} ({})", error.code(), error.message());
    (outcome, json(encode_error(id, &error)))
}

async fn card(State(agent): State<Arc<Agent>>) -> Response {
    eprintln!("interop-agent: GET agent card");
    json(serde_json::to_vec(&agent.card(false)).unwrap_or_default())
}

async fn rpc(State(agent): State<Arc<Agent>>, headers: HeaderMap, body: Bytes) -> Response {
    let incoming = match decode_request(&body) {
        Ok(incoming) => incoming,
        Err(rejected) => {
            eprintln!("interop-agent: rejected a request: {rejected}");
            // JSON-RPC: a notification gets no response, not even an error.
            return match rejected.response() {
                Some(body) => json(body),
                None => StatusCode::NO_CONTENT.into_response(),
            };
        }
    };
    if incoming.is_notification() {
        return StatusCode::NO_CONTENT.into_response();
    }
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
    let (outcome, response) = answer(&agent, &id, incoming.request);
    eprintln!("interop-agent: {method} (id {id}) -> {outcome}");
    response
}

/// The answer to one call, and a word on it for the log.
fn answer(agent: &Agent, id: &RequestId, request: Request) -> (String, Response) {
    match request {
        Request::SendMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                return quota_exceeded(id);
            }
            let task = agent.new_task(&params.message);
            (
                format!("task {}", task.id),
                json(encode_result::<method::SendMessage>(
                    id,
                    &SendMessageResponse::Task(task),
                )),
            )
        }
        Request::SendStreamingMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                return quota_exceeded(id);
            }
            let task = agent.new_task(&params.message);
            (format!("stream of task {}", task.id), stream(id, task))
        }
        Request::GetTask(params) => match agent.find(&params.id) {
            Some(task) => (
                format!("task {}", task.id),
                json(encode_result::<method::GetTask>(id, &task)),
            ),
            None => task_not_found(id, &params.id),
        },
        Request::CancelTask(params) => match agent.find(&params.id) {
            Some(task) => {
                // Every task here is finished before a cancel can reach it.
                let error = A2aError::from_code(-32002, None, None);
                let info = error.error_info([("taskId", task.id.as_str())]);
                (
                    "TaskNotCancelable".to_string(),
                    json(encode_error(id, &error.with_details(info))),
                )
            }
            None => task_not_found(id, &params.id),
        },
        Request::SubscribeToTask(params) => match agent.find(&params.id) {
            // Every task here is finished: nothing is left to follow (spec: UnsupportedOperation).
            Some(task) => refuse(
                id,
                -32004,
                format!("task {} is finished: nothing to subscribe to", task.id),
            ),
            None => task_not_found(id, &params.id),
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
                json(encode_result::<method::ListTasks>(id, &list)),
            )
        }
        Request::CreateTaskPushNotificationConfig(params) => {
            let task_id = params.task_id.clone().unwrap_or_default();
            if agent.find(&task_id).is_none() {
                return task_not_found(id, &task_id);
            }
            let stored = agent.set_push(&task_id, &params);
            (
                format!("stored push config {:?}", stored.id),
                json(encode_result::<method::CreateTaskPushNotificationConfig>(
                    id, &stored,
                )),
            )
        }
        Request::GetTaskPushNotificationConfig(params) => {
            let found = agent
                .pushes_of(&params.task_id)
                .into_iter()
                .find(|c| c.id.as_deref() == Some(params.id.as_str()));
            match found {
                Some(config) => (
                    format!("push config {:?}", config.id),
                    json(encode_result::<method::GetTaskPushNotificationConfig>(
                        id, &config,
                    )),
                ),
                None => task_not_found(id, &params.task_id),
            }
        }
        Request::ListTaskPushNotificationConfigs(params) => {
            if agent.find(&params.task_id).is_none() {
                return task_not_found(id, &params.task_id);
            }
            let list = ListTaskPushNotificationConfigsResponse {
                configs: agent.pushes_of(&params.task_id),
                next_page_token: None,
            };
            (
                format!("{} push config(s)", list.configs.len()),
                json(encode_result::<method::ListTaskPushNotificationConfigs>(
                    id, &list,
                )),
            )
        }
        Request::DeleteTaskPushNotificationConfig(params) => {
            if agent.find(&params.task_id).is_none() {
                return task_not_found(id, &params.task_id);
            }
            agent.delete_push(&params.task_id, &params.id);
            // The result is google.protobuf.Empty, which encodes as `{}` (a2a-sdk's own server
            // writes `null`; its client accepts both).
            (
                format!("deleted push config {:?}", params.id),
                json(encode_result::<method::DeleteTaskPushNotificationConfig>(
                    id,
                    &Empty {},
                )),
            )
        }
        Request::GetExtendedAgentCard(_) => (
            "the extended card".to_string(),
            json(encode_result::<method::GetExtendedAgentCard>(
                id,
                &agent.card(true),
            )),
        ),
    }
}

/// The agent's own error, refusing a message (unary or streaming) with one JSON body.
fn quota_exceeded(id: &RequestId) -> (String, Response) {
    let error = InteropError::QuotaExceeded {
        retry_after_secs: 30,
    };
    let body = encode_error(id, &A2aError::from_custom(&error));
    ("QuotaExceeded".to_string(), json(body))
}

/// The task's life as an SSE stream: the task as submitted, working, its artifact, completed.
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
    sse(events
        .iter()
        .map(|event| encode_event::<method::SendStreamingMessage>(id, Ok(event)))
        .collect())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port_file] = args.as_slice() else {
        eprintln!("usage: interop-agent PORT_FILE");
        std::process::exit(2);
    };
    serve("interop-agent", port_file, |port| {
        let agent = Arc::new(Agent {
            port,
            tasks: Mutex::new(Vec::new()),
            pushes: Mutex::new(Vec::new()),
        });
        Router::new()
            .route("/.well-known/agent-card.json", get(card))
            .route("/", post(rpc))
            .with_state(agent)
    })
    .await;
}
