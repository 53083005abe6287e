//! `interop-agent-v0-3 PORT_FILE`: the interop agent of `interop-agent`, speaking A2A 0.3, written
//! as `a2a_types::v0_3::A2aService` only and served by a2a-runtime's server,
//! for a2a-sdk 1.3.0's client to call through its v0.3 compatibility layer
//! (`tests/interop/py/client.py --v0.3`).
//!
//! Unlike `interop-agent`, it is not an executor on a2a-agent's request handler: the handler
//! implements the v1 service only, so this agent keeps its own tasks, push configs and streams
//! on the generated v0.3 service trait.
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
//! A call carrying an `A2A-Version` other than 0.3 is refused by the server (`VersionNotSupported`);
//! none at all means 0.3 (spec §3.6).
//! Each call is logged to stderr, one line, for run.sh to print when a step fails.

use a2a_interop::serve::{paced, serve};
use a2a_interop::v0_3::{text_of, text_part};
use a2a_interop::{InteropError, QUOTA_TRIGGER};
use a2a_types::v0_3::{
    A2aError, A2aServer, A2aService, AgentCapabilities, AgentCard, AgentSkill, Artifact,
    DeleteTaskPushNotificationConfigParams, DeleteTaskPushNotificationConfigResult, EventStream,
    GetAuthenticatedExtendedCardParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, Message, MessageSendParams, RequestContext,
    SendMessageResult, ServiceError, StreamEvent, Task, TaskArtifactUpdateEvent, TaskIdParams,
    TaskPushNotificationConfig, TaskPushNotificationConfigList, TaskQueryParams, TaskState,
    TaskStatus, TaskStatusUpdateEvent,
};
use std::sync::{Mutex, MutexGuard};

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

/// An error of the table, with its message or `message`.
fn refuse(code: i64, message: Option<String>) -> ServiceError {
    A2aError::from_code(code, message, None).into()
}

fn task_not_found() -> ServiceError {
    refuse(-32001, None)
}

/// The agent's own error, refusing a message (unary or streaming) with one JSON body.
fn quota_exceeded() -> ServiceError {
    ServiceError::custom(&InteropError::QuotaExceeded {
        retry_after_secs: 30,
    })
}

/// Logs a call's outcome (one line on stderr, for run.sh) and hands it on.
fn logged<T>(
    cx: &RequestContext,
    result: Result<T, ServiceError>,
    ok: impl Fn(&T) -> String,
) -> Result<T, ServiceError> {
    let outcome = match &result {
        Ok(value) => ok(value),
        Err(e) => e.to_string(),
    };
    eprintln!("interop-agent-v0-3: {} -> {outcome}", cx.method);
    result
}

impl A2aService for Agent {
    async fn send_message(
        &self,
        cx: RequestContext,
        params: MessageSendParams,
    ) -> Result<SendMessageResult, ServiceError> {
        let result = match text_of(&params.message.parts) == QUOTA_TRIGGER {
            true => Err(quota_exceeded()),
            false => Ok(SendMessageResult::Task(self.new_task(&params.message))),
        };
        logged(&cx, result, |_| "a task".to_string())
    }

    async fn send_streaming_message(
        &self,
        cx: RequestContext,
        params: MessageSendParams,
    ) -> Result<EventStream<StreamEvent>, ServiceError> {
        if text_of(&params.message.parts) == QUOTA_TRIGGER {
            return logged(&cx, Err(quota_exceeded()), |_| String::new());
        }
        let task = self.new_task(&params.message);
        logged(&cx, Ok(stream(task)), |_| "a stream".to_string())
    }

    async fn get_task(
        &self,
        cx: RequestContext,
        params: TaskQueryParams,
    ) -> Result<Task, ServiceError> {
        let result = self.find(&params.id).ok_or_else(task_not_found);
        logged(&cx, result, |t| format!("task {}", t.id))
    }

    async fn cancel_task(
        &self,
        cx: RequestContext,
        params: TaskIdParams,
    ) -> Result<Task, ServiceError> {
        // Every task here is finished before a cancel can reach it.
        let result = match self.find(&params.id) {
            Some(_) => Err(refuse(-32002, None)),
            None => Err(task_not_found()),
        };
        logged(&cx, result, |t: &Task| format!("task {}", t.id))
    }

    async fn subscribe_to_task(
        &self,
        cx: RequestContext,
        params: TaskIdParams,
    ) -> Result<EventStream<StreamEvent>, ServiceError> {
        // Every task here is finished: nothing is left to follow.
        let error = match self.find(&params.id) {
            Some(task) => refuse(
                -32004,
                Some(format!(
                    "task {} is finished: nothing to resubscribe to",
                    task.id
                )),
            ),
            None => task_not_found(),
        };
        logged(&cx, Err(error), |_| String::new())
    }

    async fn set_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let result = match self.find(&params.task_id) {
            Some(_) => Ok(self.set_push(&params)),
            None => Err(task_not_found()),
        };
        logged(&cx, result, |c| {
            format!("stored push config {:?}", c.push_notification_config.id)
        })
    }

    async fn get_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: GetTaskPushNotificationConfigParams,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        // Without a config id, v0.3 means the task's (first) config.
        let found = self.pushes_of(&params.id).into_iter().find(|c| {
            params.push_notification_config_id.is_none()
                || c.push_notification_config.id == params.push_notification_config_id
        });
        let result = found.ok_or_else(task_not_found);
        logged(&cx, result, |c| {
            format!("push config {:?}", c.push_notification_config.id)
        })
    }

    async fn list_task_push_notification_configs(
        &self,
        cx: RequestContext,
        params: ListTaskPushNotificationConfigParams,
    ) -> Result<TaskPushNotificationConfigList, ServiceError> {
        let result = match self.find(&params.id) {
            Some(_) => Ok(self.pushes_of(&params.id)),
            None => Err(task_not_found()),
        };
        logged(&cx, result, |l| format!("{} push config(s)", l.len()))
    }

    async fn delete_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: DeleteTaskPushNotificationConfigParams,
    ) -> Result<DeleteTaskPushNotificationConfigResult, ServiceError> {
        let result = match self.find(&params.id) {
            Some(_) => {
                self.delete_push(&params.id, &params.push_notification_config_id);
                // v0.3: the result is `null`.
                Ok(serde_json::Value::Null)
            }
            None => Err(task_not_found()),
        };
        logged(&cx, result, |_| {
            format!(
                "deleted push config {:?}",
                params.push_notification_config_id
            )
        })
    }

    async fn get_extended_agent_card(
        &self,
        cx: RequestContext,
        _params: GetAuthenticatedExtendedCardParams,
    ) -> Result<AgentCard, ServiceError> {
        logged(&cx, Ok(self.card(true)), |_| {
            "the extended card".to_string()
        })
    }
}

/// The task's life as a stream, one event every [`a2a_interop::serve::event_gap`]: the task as submitted, working,
/// its artifact, completed (the one status update with `final: true`, after which v0.3 closes
/// the stream).
fn stream(task: Task) -> EventStream<StreamEvent> {
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
    let items = [
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
    paced(items)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [port_file] = args.as_slice() else {
        eprintln!("usage: interop-agent-v0-3 PORT_FILE");
        std::process::exit(2);
    };
    serve("interop-agent-v0-3", port_file, |port| {
        let agent = Agent {
            port,
            tasks: Mutex::new(Vec::new()),
            pushes: Mutex::new(Vec::new()),
        };
        (agent.card(false), A2aServer::new(agent))
    })
    .await;
}
