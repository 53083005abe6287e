//! `interop-agent PORT_FILE`: an A2A v1 agent on axum, built from the server-side pieces of
//! `a2a_types::v1`, for a2a-sdk 1.3.0's own Python client to call (tests/interop/py/client.py),
//! over JSON-RPC and over the HTTP+JSON (REST) binding.
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: its card (JSON-RPC 1.0 at `/`, then HTTP+JSON 1.0 at
//!   `/`; streaming, push notifications and an extended card on);
//! - `POST /`: JSON-RPC (`decode_request`); every other path: REST (`decode_rest_request`, with
//!   `RestRejection::response()` for what no route takes). Both bindings give the same answers:
//!   `SendMessage` answers with a completed task whose artifact says
//!   `Hello from Rust: <text>`; `SendStreamingMessage` streams the same task as SSE, one event
//!   every 20 ms (submitted, working, the artifact, completed); `GetTask`, `CancelTask`,
//!   `SubscribeToTask` and `ListTasks` work on the tasks made so far (`TaskNotFound`,
//!   `TaskNotCancelable`, and `UnsupportedOperation` for a subscription to a finished task, as
//!   a2a-sdk's own agent answers); the four push-notification-config methods keep the configs in
//!   memory (nothing is ever delivered); `GetExtendedAgentCard` answers with the card plus one
//!   skill. The text [`QUOTA_TRIGGER`] gets the agent's own error,
//!   [`InteropError::QuotaExceeded`] (code -32050; over REST HTTP 429 with its ErrorInfo), from
//!   `#[derive(AgentError)]`. A task made through a tenant's route (`/{tenant}/message:send`)
//!   carries `{"tenant": ...}` in its metadata and is found through that tenant's routes only;
//!   `ListTasks` honours `contextId`, `status`,
//!   `historyLength` and `includeArtifacts` (artifacts only when asked, as a2a-sdk's server does).
//!
//! Each call is logged to stderr, one line, for run.sh to print when a step fails.

use a2a_interop::serve::{json, rest, serve, sse};
use a2a_interop::{text_of, text_part, InteropError, PROTOCOL_VERSION, QUOTA_TRIGGER};
use a2a_types::rt::rest::RestResponse;
use a2a_types::v1::{
    decode_request, decode_rest_request, encode_error, encode_event, encode_rest_custom_error,
    encode_rest_error, encode_rest_event, encode_rest_result, method, A2aError, AgentCapabilities,
    AgentCard, AgentInterface, AgentSkill, Artifact, Empty,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message, Reply,
    Request, SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent,
    TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use a2a_types::version::{binding, ProtocolVersion};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
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
            // JSON-RPC first, the agent's preferred interface; the REST routes at the same base.
            supported_interfaces: [binding::JSONRPC, binding::HTTP_JSON]
                .into_iter()
                .map(|binding| AgentInterface {
                    url: format!("http://127.0.0.1:{}/", self.port),
                    protocol_binding: binding.to_string(),
                    protocol_version: PROTOCOL_VERSION.to_string(),
                    tenant: None,
                })
                .collect(),
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
    /// greeting; made through a tenant's route, its metadata names the tenant.
    fn new_task(&self, message: &Message, tenant: Option<&str>) -> Task {
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
            metadata: tenant.map(|t| {
                let mut metadata = serde_json::Map::new();
                metadata.insert("tenant".to_string(), t.into());
                metadata
            }),
        };
        tasks.push(task.clone());
        task
    }

    /// The task `id` of `tenant`: tasks are kept per tenant (the one of the route they were
    /// made through), so a tenant's task is found through its routes only.
    fn find(&self, id: &str, tenant: &Option<String>) -> Option<Task> {
        lock(&self.tasks)
            .iter()
            .find(|t| t.id == id && tenant_of(t) == tenant.as_deref())
            .cloned()
    }

    /// The tasks `ListTasks` asks for: by context and state, each with at most `historyLength`
    /// messages, and with its artifacts only when `includeArtifacts` is true.
    fn list(&self, params: &ListTasksRequest) -> Vec<Task> {
        lock(&self.tasks)
            .iter()
            .filter(|t| tenant_of(t) == params.tenant.as_deref())
            .filter(|t| params.context_id.is_none() || t.context_id == params.context_id)
            .filter(|t| params.status.as_ref().is_none_or(|s| &t.status.state == s))
            .map(|t| {
                let mut task = with_history(t.clone(), params.history_length);
                if params.include_artifacts != Some(true) {
                    task.artifacts.clear();
                }
                task
            })
            .collect()
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

/// The tenant a task was made for (kept in its metadata).
fn tenant_of(task: &Task) -> Option<&str> {
    task.metadata.as_ref()?.get("tenant")?.as_str()
}

/// The task with at most its last `length` history messages (all of them when `None`).
fn with_history(mut task: Task, length: Option<i32>) -> Task {
    if let Some(length) = length.and_then(|n| usize::try_from(n).ok()) {
        let cut = task.history.len().saturating_sub(length);
        task.history.drain(..cut);
    }
    task
}

/// What the agent answers to one call, whichever binding it came over.
#[allow(clippy::large_enum_variant)] // one per call, moved once: not worth a box
enum Answer {
    /// The method's result.
    Result(Reply),
    /// An error of the A2A table.
    Error(A2aError),
    /// The agent's own error.
    Custom(InteropError),
    /// A stream of these events (SendStreamingMessage).
    Stream(Vec<StreamResponse>),
}

/// `TaskNotFound` for `task` (a2a-sdk also answers it for a push config it does not have).
fn task_not_found(task: &str) -> (String, Answer) {
    let error = A2aError::from_code(-32001, None, None);
    let info = error.error_info([("taskId", task)]);
    (
        "TaskNotFound".to_string(),
        Answer::Error(error.with_details(info)),
    )
}

/// An error with a message, for the log and the client.
fn refuse(code: i64, message: String) -> (String, Answer) {
    let error = A2aError::from_code(code, Some(message), None);
    let outcome = format!("{} ({})", error.code(), error.message());
    (outcome, Answer::Error(error))
}

/// The refusal of a version this agent does not speak, or `None` for 1.0 or no header.
fn wrong_version(headers: &HeaderMap) -> Option<A2aError> {
    // The SDK client sends the version it speaks; a version this agent does not speak is
    // refused with the standard error, as the spec asks.
    let version = headers
        .get(ProtocolVersion::HEADER)
        .and_then(|v| v.to_str().ok())?;
    (version != PROTOCOL_VERSION).then(|| {
        A2aError::from_code(
            -32009,
            Some(format!(
                "this agent speaks A2A {PROTOCOL_VERSION}, not {version}"
            )),
            None,
        )
    })
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
    if let Some(error) = wrong_version(&headers) {
        eprintln!("interop-agent: {method}: {error}");
        return json(encode_error(&id, &error));
    }
    let (outcome, answer) = answer(&agent, incoming.request);
    eprintln!("interop-agent: {method} (id {id}) -> {outcome}");
    match answer {
        Answer::Result(reply) => json(reply.encode(&id)),
        Answer::Error(error) => json(encode_error(&id, &error)),
        Answer::Custom(error) => json(encode_error(&id, &A2aError::from_custom(&error))),
        Answer::Stream(events) => sse(events
            .iter()
            .map(|event| encode_event::<method::SendStreamingMessage>(&id, Ok(event)))
            .collect()),
    }
}

/// A call over the REST binding: any path but the card's and `/`.
async fn rest_call(
    State(agent): State<Arc<Agent>>,
    verb: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (path, query) = (uri.path(), uri.query().unwrap_or(""));
    let request = match decode_rest_request(verb.as_str(), path, query, &body) {
        Ok(request) => request,
        Err(rejected) => {
            let response = rejected.response();
            eprintln!(
                "interop-agent: REST {verb} {path}: rejected with {}: {}",
                response.status, rejected.error
            );
            return rest(response);
        }
    };
    let method = request.method();
    if let Some(error) = wrong_version(&headers) {
        eprintln!("interop-agent: REST {verb} {path} ({method}): {error}");
        return rest(encode_rest_error(&error));
    }
    let (outcome, answer) = answer(&agent, request);
    eprintln!("interop-agent: REST {verb} {path} ({method}) -> {outcome}");
    match answer {
        Answer::Result(reply) => rest(rest_result(&reply)),
        Answer::Error(error) => rest(encode_rest_error(&error)),
        // Its row's HTTP status (429), its ErrorInfo (reason, the type's domain) and fields.
        Answer::Custom(error) => rest(encode_rest_custom_error(&error, None)),
        Answer::Stream(events) => sse(events
            .iter()
            .map(|event| encode_rest_event::<method::SendStreamingMessage>(Ok(event)))
            .collect()),
    }
}

/// The REST reply carrying a result: the bare result, HTTP 200.
fn rest_result(reply: &Reply) -> RestResponse {
    match reply {
        Reply::SendMessage(r) => encode_rest_result::<method::SendMessage>(r),
        Reply::SendStreamingMessage(r) => encode_rest_result::<method::SendStreamingMessage>(r),
        Reply::GetTask(r) => encode_rest_result::<method::GetTask>(r),
        Reply::ListTasks(r) => encode_rest_result::<method::ListTasks>(r),
        Reply::CancelTask(r) => encode_rest_result::<method::CancelTask>(r),
        Reply::SubscribeToTask(r) => encode_rest_result::<method::SubscribeToTask>(r),
        Reply::CreateTaskPushNotificationConfig(r) => {
            encode_rest_result::<method::CreateTaskPushNotificationConfig>(r)
        }
        Reply::GetTaskPushNotificationConfig(r) => {
            encode_rest_result::<method::GetTaskPushNotificationConfig>(r)
        }
        Reply::ListTaskPushNotificationConfigs(r) => {
            encode_rest_result::<method::ListTaskPushNotificationConfigs>(r)
        }
        Reply::GetExtendedAgentCard(r) => encode_rest_result::<method::GetExtendedAgentCard>(r),
        Reply::DeleteTaskPushNotificationConfig(r) => {
            encode_rest_result::<method::DeleteTaskPushNotificationConfig>(r)
        }
    }
}

/// The answer to one call, and a word on it for the log.
fn answer(agent: &Agent, request: Request) -> (String, Answer) {
    match request {
        Request::SendMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                return quota_exceeded();
            }
            let task = agent.new_task(&params.message, params.tenant.as_deref());
            (
                format!("task {}", task.id),
                Answer::Result(Reply::SendMessage(SendMessageResponse::Task(task))),
            )
        }
        Request::SendStreamingMessage(params) => {
            if text_of(&params.message.parts) == QUOTA_TRIGGER {
                return quota_exceeded();
            }
            let task = agent.new_task(&params.message, params.tenant.as_deref());
            (format!("stream of task {}", task.id), stream(task))
        }
        Request::GetTask(params) => match agent.find(&params.id, &params.tenant) {
            Some(task) => (
                format!("task {}", task.id),
                Answer::Result(Reply::GetTask(with_history(task, params.history_length))),
            ),
            None => task_not_found(&params.id),
        },
        Request::CancelTask(params) => match agent.find(&params.id, &params.tenant) {
            Some(task) => {
                // Every task here is finished before a cancel can reach it.
                let error = A2aError::from_code(-32002, None, None);
                let info = error.error_info([("taskId", task.id.as_str())]);
                (
                    "TaskNotCancelable".to_string(),
                    Answer::Error(error.with_details(info)),
                )
            }
            None => task_not_found(&params.id),
        },
        Request::SubscribeToTask(params) => match agent.find(&params.id, &params.tenant) {
            // Every task here is finished: nothing is left to follow (spec: UnsupportedOperation).
            Some(task) => refuse(
                -32004,
                format!("task {} is finished: nothing to subscribe to", task.id),
            ),
            None => task_not_found(&params.id),
        },
        Request::ListTasks(params) => {
            let tasks = agent.list(&params);
            let count = i32::try_from(tasks.len()).unwrap_or(i32::MAX);
            let list = ListTasksResponse {
                tasks,
                next_page_token: String::new(),
                page_size: count,
                total_size: count,
            };
            (
                format!("{count} task(s)"),
                Answer::Result(Reply::ListTasks(list)),
            )
        }
        Request::CreateTaskPushNotificationConfig(params) => {
            let task_id = params.task_id.clone().unwrap_or_default();
            if agent.find(&task_id, &params.tenant).is_none() {
                return task_not_found(&task_id);
            }
            let stored = agent.set_push(&task_id, &params);
            (
                format!("stored push config {:?}", stored.id),
                Answer::Result(Reply::CreateTaskPushNotificationConfig(stored)),
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
                    Answer::Result(Reply::GetTaskPushNotificationConfig(config)),
                ),
                None => task_not_found(&params.task_id),
            }
        }
        Request::ListTaskPushNotificationConfigs(params) => {
            if agent.find(&params.task_id, &params.tenant).is_none() {
                return task_not_found(&params.task_id);
            }
            let list = ListTaskPushNotificationConfigsResponse {
                configs: agent.pushes_of(&params.task_id),
                next_page_token: None,
            };
            (
                format!("{} push config(s)", list.configs.len()),
                Answer::Result(Reply::ListTaskPushNotificationConfigs(list)),
            )
        }
        Request::DeleteTaskPushNotificationConfig(params) => {
            if agent.find(&params.task_id, &params.tenant).is_none() {
                return task_not_found(&params.task_id);
            }
            agent.delete_push(&params.task_id, &params.id);
            // The result is google.protobuf.Empty, which encodes as `{}` (a2a-sdk's own server
            // writes `null` over JSON-RPC; its client accepts both).
            (
                format!("deleted push config {:?}", params.id),
                Answer::Result(Reply::DeleteTaskPushNotificationConfig(Empty {})),
            )
        }
        Request::GetExtendedAgentCard(_) => (
            "the extended card".to_string(),
            Answer::Result(Reply::GetExtendedAgentCard(agent.card(true))),
        ),
    }
}

/// The agent's own error, refusing a message (unary or streaming) before any stream starts.
fn quota_exceeded() -> (String, Answer) {
    let error = InteropError::QuotaExceeded {
        retry_after_secs: 30,
    };
    ("QuotaExceeded".to_string(), Answer::Custom(error))
}

/// The task's life as a stream: the task as submitted, working, its artifact, completed.
fn stream(task: Task) -> Answer {
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
    Answer::Stream(events.into())
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
            .fallback(rest_call)
            .with_state(agent)
    })
    .await;
}
