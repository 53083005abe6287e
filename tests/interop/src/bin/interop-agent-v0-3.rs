//! `interop-agent-v0-3 PORT_FILE`: the interop agent of `interop-agent`, speaking A2A 0.3, built
//! on `a2a_types::v0_3` only (`decode_request`, `encode_result`, `encode_error`, `encode_event`),
//! for a2a-sdk 1.3.0's client to call through its v0.3 compatibility layer
//! (`tests/interop/py/client.py --v0.3`).
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: a v0.3 card (`url`, `protocolVersion` 0.3.0,
//!   `preferredTransport` JSONRPC; streaming and push notifications on, and
//!   `supportsAuthenticatedExtendedCard`), which is what makes the SDK's client speak 0.3;
//! - `POST /`: every v0.3 method, answered as `interop-agent` answers its v1 twin:
//!   `message/send` gives a completed task whose artifact says `Hello from Rust: <text>`,
//!   `message/stream` the same task as SSE (submitted, working, the artifact, completed with
//!   `final: true`), `tasks/get` and `tasks/cancel` work on the tasks made so far
//!   (`TaskNotFound`, `TaskNotCancelable`), `tasks/resubscribe` to a finished task is
//!   `UnsupportedOperation`, the four `tasks/pushNotificationConfig/*` methods keep the configs in
//!   memory (`delete` answers `"result": null`, as v0.3 says), and
//!   `agent/getAuthenticatedExtendedCard` answers the card plus one skill. The text
//!   [`QUOTA_TRIGGER`] gets [`InteropError::QuotaExceeded`] (code -32050).
//!
//! A call carrying an `A2A-Version` other than 0.3 is refused; none at all means 0.3 (spec §3.6).
//! Each call is logged to stderr, one line, for run.sh to print when a step fails.

use a2a_interop::serve::{json, serve, sse};
use a2a_interop::v0_3::{text_of, text_part};
use a2a_interop::{InteropError, QUOTA_TRIGGER};
use a2a_types::rt::server::RequestId;
use a2a_types::v0_3::{
    decode_request, encode_error, encode_event, encode_result, method, A2aError, AgentCapabilities,
    AgentCard, AgentSkill, Artifact, Message, Request, SendMessageResult, StreamEvent, Task,
    TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use a2a_types::version::ProtocolVersion;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse as _, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::{Arc, Mutex, MutexGuard};

/// The `protocolVersion` the card declares.
const CARD_PROTOCOL_VERSION: &str = "0.3.0";

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
    /// The public card, or the extended one (`agent/getAuthenticatedExtendedCard`), which has
    /// one more skill.
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
            protocol_version: CARD_PROTOCOL_VERSION.to_string(),
            name: if extended {
                "Rust Interop Agent (extended)".to_string()
            } else {
                "Rust Interop Agent".to_string()
            },
            description: "An a2a-types agent that greets whoever calls it, in A2A 0.3".to_string(),
            url: format!("http://127.0.0.1:{}/", self.port),
            preferred_transport: "JSONRPC".to_string(),
            version: "0.1.0".to_string(),
            capabilities: AgentCapabilities {
                streaming: Some(true),
                push_notifications: Some(true),
                ..Default::default()
            },
            default_input_modes: vec!["text/plain".to_string()],
            default_output_modes: vec!["text/plain".to_string()],
            skills,
            supports_authenticated_extended_card: Some(true),
            ..Default::default()
        }
    }

    /// A new task for `message`, finished: its history holds the message, its one artifact the
    /// greeting.
    fn new_task(&self, message: &Message) -> Task {
        let mut tasks = lock(&self.tasks);
        let n = tasks.len() + 1;
        let id = format!("rust03-task-{n}");
        let context_id = message
            .context_id
            .clone()
            .unwrap_or_else(|| format!("rust03-ctx-{n}"));
        let mut request = message.clone();
        request.task_id = Some(id.clone());
        request.context_id = Some(context_id.clone());
        let task = Task {
            id,
            context_id,
            status: status(TaskState::Completed),
            artifacts: vec![Artifact {
                artifact_id: format!("rust03-artifact-{n}"),
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

    /// Stores `config`, replacing one of its task with the same id; an id left out defaults to
    /// the task id, as in a2a-sdk's store.
    fn set_push(&self, config: &TaskPushNotificationConfig) -> TaskPushNotificationConfig {
        let mut stored = config.clone();
        let push = &mut stored.push_notification_config;
        push.id = Some(push.id.clone().unwrap_or_else(|| config.task_id.clone()));
        let mut pushes = lock(&self.pushes);
        pushes.retain(|c| {
            !(c.task_id == stored.task_id
                && c.push_notification_config.id == stored.push_notification_config.id)
        });
        pushes.push(stored.clone());
        stored
    }

    fn pushes_of(&self, task_id: &str) -> Vec<TaskPushNotificationConfig> {
        lock(&self.pushes)
            .iter()
            .filter(|c| c.task_id == task_id)
            .cloned()
            .collect()
    }

    fn delete_push(&self, task_id: &str, id: &str) {
        lock(&self.pushes).retain(|c| {
            !(c.task_id == task_id && c.push_notification_config.id.as_deref() == Some(id))
        });
    }
}

fn status(state: TaskState) -> TaskStatus {
    TaskStatus {
        state,
        ..Default::default()
    }
}

/// An error with the table's message, or `message`, for the log and the client.
fn refuse(id: &RequestId, code: i64, message: Option<String>) -> (String, Response) {
    let error = A2aError::from_code(code, message, None);
    let outcome = format!("{} ({})", error.code(), error.message());
    (outcome, json(encode_error(id, &error)))
}

fn task_not_found(id: &RequestId) -> (String, Response) {
    refuse(id, -32001, None)
}

async fn card(State(agent): State<Arc<Agent>>) -> Response {
    eprintln!("interop-agent-v0-3: GET agent card");
    json(serde_json::to_vec(&agent.card(false)).unwrap_or_default())
}

async fn rpc(State(agent): State<Arc<Agent>>, headers: HeaderMap, body: Bytes) -> Response {
    let incoming = match decode_request(&body) {
        Ok(incoming) => incoming,
        Err(rejected) => {
            eprintln!("interop-agent-v0-3: rejected a request: {rejected}");
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
    // a2a-sdk's v0.3 transport sends `A2A-Version: 0.3`; a missing header means 0.3 as well.
    let version = headers
        .get(ProtocolVersion::HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ProtocolVersion::parse(version) != Ok(ProtocolVersion::V0_3) {
        eprintln!("interop-agent-v0-3: {method}: refused version {version:?}");
        let message = format!("this agent speaks A2A 0.3, not {version}");
        return refuse(&id, -32600, Some(message)).1;
    }
    let (outcome, response) = answer(&agent, &id, incoming.request);
    eprintln!("interop-agent-v0-3: {method} (id {id}) -> {outcome}");
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
                    &SendMessageResult::Task(task),
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
            None => task_not_found(id),
        },
        // Every task here is finished before a cancel can reach it.
        Request::CancelTask(params) => match agent.find(&params.id) {
            Some(_) => refuse(id, -32002, None),
            None => task_not_found(id),
        },
        // Every task here is finished: nothing is left to follow.
        Request::SubscribeToTask(params) => match agent.find(&params.id) {
            Some(task) => refuse(
                id,
                -32004,
                Some(format!(
                    "task {} is finished: nothing to resubscribe to",
                    task.id
                )),
            ),
            None => task_not_found(id),
        },
        Request::SetTaskPushNotificationConfig(params) => {
            if agent.find(&params.task_id).is_none() {
                return task_not_found(id);
            }
            let stored = agent.set_push(&params);
            (
                format!(
                    "stored push config {:?}",
                    stored.push_notification_config.id
                ),
                json(encode_result::<method::SetTaskPushNotificationConfig>(
                    id, &stored,
                )),
            )
        }
        Request::GetTaskPushNotificationConfig(params) => {
            // Without a config id, v0.3 means the task's (first) config.
            let found = agent.pushes_of(&params.id).into_iter().find(|c| {
                params.push_notification_config_id.is_none()
                    || c.push_notification_config.id == params.push_notification_config_id
            });
            match found {
                Some(config) => (
                    format!("push config {:?}", config.push_notification_config.id),
                    json(encode_result::<method::GetTaskPushNotificationConfig>(
                        id, &config,
                    )),
                ),
                None => task_not_found(id),
            }
        }
        Request::ListTaskPushNotificationConfigs(params) => {
            if agent.find(&params.id).is_none() {
                return task_not_found(id);
            }
            let configs = agent.pushes_of(&params.id);
            (
                format!("{} push config(s)", configs.len()),
                json(encode_result::<method::ListTaskPushNotificationConfigs>(
                    id, &configs,
                )),
            )
        }
        Request::DeleteTaskPushNotificationConfig(params) => {
            if agent.find(&params.id).is_none() {
                return task_not_found(id);
            }
            agent.delete_push(&params.id, &params.push_notification_config_id);
            (
                format!(
                    "deleted push config {:?}",
                    params.push_notification_config_id
                ),
                json(encode_result::<method::DeleteTaskPushNotificationConfig>(
                    id,
                    &serde_json::Value::Null,
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

/// The task's life as an SSE stream: the task as submitted, working, its artifact, completed
/// (the one status update with `final: true`, after which v0.3 closes the stream).
fn stream(id: &RequestId, task: Task) -> Response {
    let update = |state: TaskState, last: bool| {
        StreamEvent::StatusUpdate(TaskStatusUpdateEvent {
            task_id: task.id.clone(),
            context_id: task.context_id.clone(),
            status: status(state),
            r#final: last,
            ..Default::default()
        })
    };
    let submitted = Task {
        status: status(TaskState::Submitted),
        artifacts: Vec::new(),
        ..task.clone()
    };
    let events = [
        StreamEvent::Task(submitted),
        update(TaskState::Working, false),
        StreamEvent::ArtifactUpdate(TaskArtifactUpdateEvent {
            task_id: task.id.clone(),
            context_id: task.context_id.clone(),
            artifact: task.artifacts[0].clone(),
            last_chunk: Some(true),
            ..Default::default()
        }),
        update(TaskState::Completed, true),
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
        eprintln!("usage: interop-agent-v0-3 PORT_FILE");
        std::process::exit(2);
    };
    serve("interop-agent-v0-3", port_file, |port| {
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
