//! `interop-agent PORT_FILE`: an A2A v1 agent written as `a2a_types::v1::A2aService` and served by
//! a2a-runtime's server (`server::AgentRouter`), for a2a-sdk 1.3.0's own Python client
//! to call (tests/interop/py/client.py), over JSON-RPC and over the HTTP+JSON (REST) binding.
//!
//! It binds 127.0.0.1 on a free port, writes the port to PORT_FILE, and serves until killed:
//!
//! - `GET /.well-known/agent-card.json`: its card (JSON-RPC 1.0 at `/`, then HTTP+JSON 1.0 at
//!   `/`; streaming, push notifications and an extended card on);
//! - `POST /`: JSON-RPC; every other path: REST (the server decodes both with the generated
//!   decoders, negotiates `A2A-Version` and frames the streams). Both bindings give the same answers:
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

use a2a_interop::serve::{paced, serve};
use a2a_interop::{text_of, text_part, InteropError, PROTOCOL_VERSION, QUOTA_TRIGGER};
use a2a_types::rt::Binding;
use a2a_types::v1::{
    A2aError, A2aServer, A2aService, AgentCapabilities, AgentCard, AgentInterface, AgentSkill,
    Artifact, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, Empty, EventStream,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Message, RequestContext, SendMessageRequest,
    SendMessageResponse, ServiceError, StreamResponse, SubscribeToTaskRequest, Task,
    TaskArtifactUpdateEvent, TaskPushNotificationConfig, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use std::sync::{Mutex, MutexGuard};

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
            supported_interfaces: [Binding::JsonRpc, Binding::HttpJson]
                .into_iter()
                .map(|binding| AgentInterface {
                    url: format!("http://127.0.0.1:{}/", self.port),
                    protocol_binding: binding.name().to_string(),
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

/// `TaskNotFound` for `task` (a2a-sdk also answers it for a push config it does not have).
fn task_not_found(task: &str) -> ServiceError {
    A2aError::task_not_found()
        .with_info([("taskId", task)])
        .into()
}

/// The agent's own error, refusing a message (unary or streaming) before any stream starts.
fn quota_exceeded() -> ServiceError {
    ServiceError::custom(&InteropError::QuotaExceeded {
        retry_after_secs: 30,
    })
}

/// One line per call on stderr, for run.sh to print when a step fails.
fn log(cx: &RequestContext, outcome: impl std::fmt::Display) {
    let tenant = cx
        .tenant
        .as_deref()
        .map(|t| format!(" tenant {t}"))
        .unwrap_or_default();
    eprintln!(
        "interop-agent: {} {}{tenant} -> {outcome}",
        cx.binding.name(),
        cx.method
    );
}

/// Logs a call's outcome and hands it on.
fn logged<T>(
    cx: &RequestContext,
    result: Result<T, ServiceError>,
    ok: impl Fn(&T) -> String,
) -> Result<T, ServiceError> {
    match &result {
        Ok(value) => log(cx, ok(value)),
        Err(e) => log(cx, e),
    }
    result
}

impl A2aService for Agent {
    async fn send_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<SendMessageResponse, ServiceError> {
        let result = match text_of(&params.message.parts) == QUOTA_TRIGGER {
            true => Err(quota_exceeded()),
            false => Ok(SendMessageResponse::Task(
                self.new_task(&params.message, params.tenant.as_deref()),
            )),
        };
        logged(&cx, result, |_| "a task".to_string())
    }

    async fn send_streaming_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        if text_of(&params.message.parts) == QUOTA_TRIGGER {
            return logged(&cx, Err(quota_exceeded()), |_| String::new());
        }
        let task = self.new_task(&params.message, params.tenant.as_deref());
        log(&cx, format!("stream of task {}", task.id));
        Ok(stream(task))
    }

    async fn get_task(
        &self,
        cx: RequestContext,
        params: GetTaskRequest,
    ) -> Result<Task, ServiceError> {
        let result = match self.find(&params.id, &params.tenant) {
            Some(task) => Ok(with_history(task, params.history_length)),
            None => Err(task_not_found(&params.id)),
        };
        logged(&cx, result, |t| format!("task {}", t.id))
    }

    async fn cancel_task(
        &self,
        cx: RequestContext,
        params: CancelTaskRequest,
    ) -> Result<Task, ServiceError> {
        let result = match self.find(&params.id, &params.tenant) {
            // Every task here is finished before a cancel can reach it.
            Some(task) => Err(A2aError::task_not_cancelable()
                .with_info([("taskId", task.id.as_str())])
                .into()),
            None => Err(task_not_found(&params.id)),
        };
        logged(&cx, result, |t| format!("task {}", t.id))
    }

    async fn subscribe_to_task(
        &self,
        cx: RequestContext,
        params: SubscribeToTaskRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let error = match self.find(&params.id, &params.tenant) {
            // Every task here is finished: nothing is left to follow (spec: UnsupportedOperation).
            Some(task) => A2aError::from_code(
                -32004,
                Some(format!(
                    "task {} is finished: nothing to subscribe to",
                    task.id
                )),
                None,
            )
            .into(),
            None => task_not_found(&params.id),
        };
        logged(&cx, Err(error), |_| String::new())
    }

    async fn list_tasks(
        &self,
        cx: RequestContext,
        params: ListTasksRequest,
    ) -> Result<ListTasksResponse, ServiceError> {
        let tasks = self.list(&params);
        let count = i32::try_from(tasks.len()).unwrap_or(i32::MAX);
        let list = ListTasksResponse {
            tasks,
            next_page_token: String::new(),
            page_size: count,
            total_size: count,
        };
        logged(&cx, Ok(list), |l| format!("{} task(s)", l.tasks.len()))
    }

    async fn create_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let task_id = params.task_id.clone().unwrap_or_default();
        let result = match self.find(&task_id, &params.tenant) {
            Some(_) => Ok(self.set_push(&task_id, &params)),
            None => Err(task_not_found(&task_id)),
        };
        logged(&cx, result, |c| format!("stored push config {:?}", c.id))
    }

    async fn get_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let found = self
            .pushes_of(&params.task_id)
            .into_iter()
            .find(|c| c.id.as_deref() == Some(params.id.as_str()));
        let result = found.ok_or_else(|| task_not_found(&params.task_id));
        logged(&cx, result, |c| format!("push config {:?}", c.id))
    }

    async fn list_task_push_notification_configs(
        &self,
        cx: RequestContext,
        params: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, ServiceError> {
        let result = match self.find(&params.task_id, &params.tenant) {
            Some(_) => Ok(ListTaskPushNotificationConfigsResponse {
                configs: self.pushes_of(&params.task_id),
                next_page_token: None,
            }),
            None => Err(task_not_found(&params.task_id)),
        };
        logged(&cx, result, |l| {
            format!("{} push config(s)", l.configs.len())
        })
    }

    async fn delete_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<Empty, ServiceError> {
        let result = match self.find(&params.task_id, &params.tenant) {
            Some(_) => {
                self.delete_push(&params.task_id, &params.id);
                // google.protobuf.Empty encodes as `{}` (a2a-sdk's own server writes `null`
                // over JSON-RPC; its client accepts both).
                Ok(Empty {})
            }
            None => Err(task_not_found(&params.task_id)),
        };
        logged(&cx, result, |_| {
            format!("deleted push config {:?}", params.id)
        })
    }

    async fn get_extended_agent_card(
        &self,
        cx: RequestContext,
        _params: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, ServiceError> {
        logged(&cx, Ok(self.card(true)), |_| {
            "the extended card".to_string()
        })
    }
}

/// The task's life as a stream, one event every [`a2a_interop::serve::event_gap`]: the task as submitted, working,
/// its artifact, completed.
fn stream(task: Task) -> EventStream<StreamResponse> {
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
    let items = [
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
    paced(items)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port_file] = args.as_slice() else {
        eprintln!("usage: interop-agent PORT_FILE");
        std::process::exit(2);
    };
    serve("interop-agent", port_file, |port| {
        let agent = Agent {
            port,
            tasks: Mutex::new(Vec::new()),
            pushes: Mutex::new(Vec::new()),
        };
        (agent.card(false), A2aServer::new(agent))
    })
    .await;
}
