//! What an agent author writes: an [`AgentExecutor`], which receives a [`TaskContext`] and a
//! [`TaskUpdater`] and says what happens, as events, until the task ends or waits for the client.

use crate::lifecycle::{agent_message, new_id};
use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{
    Artifact, Message, Part, SendMessageConfiguration, ServiceError, StreamResponse, Task,
    TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
};
use std::fmt;
use std::future::Future;
use tokio::sync::mpsc;

/// What an execution knows: the task and context it runs in (decided by the request handler:
/// the message's, or fresh ones), the message that started it, the task as it stood before (when
/// the message continues one), and the caller's context from the service layer (headers,
/// tenant, extensions, what tower layers put in the request).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TaskContext {
    /// The task's id.
    pub task_id: String,
    /// The task's context id.
    pub context_id: String,
    /// The client's message; `None` for a cancel.
    pub message: Option<Message>,
    /// The task as stored before this message, with the newest messages of its history (100
    /// unless [`executor_history`](crate::RequestHandlerBuilder::executor_history) says
    /// otherwise); `None` for a new task.
    pub task: Option<Task>,
    /// The `configuration` of the `SendMessage` call, if it had one.
    pub configuration: Option<SendMessageConfiguration>,
    /// The call's context (protocol version, binding, tenant, extensions, headers).
    pub call: RequestContext,
}

impl TaskContext {
    /// The context of a cancel of `task`, asked by `call`: no message, no configuration.
    pub(crate) fn cancel_of(task: Task, call: RequestContext) -> TaskContext {
        TaskContext {
            task_id: task.id.clone(),
            context_id: task.context_id.clone().unwrap_or_default(),
            message: None,
            task: Some(task),
            configuration: None,
            call,
        }
    }

    /// The text of the message's text parts, joined: what a simple agent reads.
    pub fn text(&self) -> String {
        self.message
            .iter()
            .flat_map(|m| &m.parts)
            .filter_map(|p| match &p.content {
                a2a_types::v1::PartContent::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("")
    }

    /// Who sent the message (the server's authenticator said so; the anonymous caller on a
    /// server without one): the same as `self.call.caller`.
    pub fn caller(&self) -> &a2a_types::rt::auth::Caller {
        &self.call.caller
    }
}

/// Why an execution failed: the task then fails with this reason as its status message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutorError(String);

impl ExecutorError {
    /// An error saying `reason`.
    pub fn new(reason: impl Into<String>) -> Self {
        ExecutorError(reason.into())
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ExecutorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExecutorError {}

impl From<String> for ExecutorError {
    fn from(reason: String) -> Self {
        ExecutorError(reason)
    }
}

impl From<&str> for ExecutorError {
    fn from(reason: &str) -> Self {
        ExecutorError(reason.to_owned())
    }
}

/// An agent's logic. The request handler ([`crate::RequestHandler`]) calls
/// [`execute`](Self::execute) for each message, with an updater bound to the task, and keeps
/// the lifecycle: ids, the history, the store, blocking and streaming replies, subscriptions,
/// push notifications.
///
/// An execution answers either with one direct [`Message`] ([`TaskUpdater::reply`]: no task is
/// kept) or with the task's events: status updates and artifacts, ending at a terminal state
/// (`complete`, `fail`, `reject`, `cancel`) or an interrupted one (`require_input`,
/// `require_auth`), which a later message continues. An execution that returns an error, panics,
/// outlives the handler's execution timeout, or drops its updater without a final or
/// interrupted state leaves the task failed, with the reason as its status message; it is never
/// left working.
///
/// `execute` is an async task of the runtime like any other: while a blocking `SendMessage`
/// waits for its answer, the execution is polled in that call's own task, and it moves to a task
/// of its own when the call stops waiting (it has its answer, or its client went away); a stream's
/// execution runs in a task of its own from the start. Either way, code that blocks the thread
/// (a synchronous client, heavy computation) stalls that worker and the calls it serves, and the
/// execution timeout cannot interrupt it until it yields: run such work with
/// `tokio::task::spawn_blocking` and await it.
///
/// ```
/// use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};
///
/// struct Echo;
///
/// impl AgentExecutor for Echo {
///     async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
///         task.start_work(None).await?;
///         task.add_text_artifact("echo", &cx.text()).await?;
///         task.complete(None).await?;
///         Ok(())
///     }
/// }
/// ```
pub trait AgentExecutor: Send + Sync + 'static {
    /// Runs the agent for the context's message, sending what happens through `task`.
    fn execute(
        &self,
        cx: TaskContext,
        task: TaskUpdater,
    ) -> impl Future<Output = Result<(), ExecutorError>> + Send;

    /// Whether the handler takes this message at all. Called for every `SendMessage` and
    /// `SendStreamingMessage` after the lifecycle's own checks (the task to continue exists, is
    /// not terminal, the context matches) and before the message changes anything: no task is
    /// created, a continued task is left as it was (its history without the message). An error
    /// is the call's answer, blocking or streaming (a streaming call gets it before any stream
    /// begins): a quota, a policy, any A2A error, or the agent's own (`ServiceError::custom` of
    /// a `#[derive(AgentError)]` type). By default every message is taken.
    ///
    /// An error from [`execute`](Self::execute) cannot do this: by then the task exists, and it
    /// fails. A continued task's lock is held while this runs: keep it quick.
    ///
    /// ```
    /// use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};
    /// use a2a_types::v1::{A2aError, ServiceError};
    ///
    /// struct Picky;
    ///
    /// impl AgentExecutor for Picky {
    ///     async fn admit(&self, cx: &TaskContext) -> Result<(), ServiceError> {
    ///         match cx.text().is_empty() {
    ///             true => Err(A2aError::content_type_not_supported().into()),
    ///             false => Ok(()),
    ///         }
    ///     }
    ///
    ///     async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
    ///         task.complete(Some(task.text_message(&cx.text()))).await
    ///     }
    /// }
    /// ```
    fn admit(&self, cx: &TaskContext) -> impl Future<Output = Result<(), ServiceError>> + Send {
        let _ = cx;
        async { Ok(()) }
    }

    /// Whether `task`, whose replica stopped while it ran (its lease expired: see
    /// [`RequestHandlerBuilder::event_feed`](crate::RequestHandlerBuilder::event_feed)), may be
    /// run again by the replica that finds it, because running it again is safe (the agent's work
    /// for it is idempotent, or it picks up from what the task holds). Then
    /// [`execute`](Self::execute) is called again for it on that replica, with the task as stored
    /// and the last user message of its history. By default (`false`) the task is failed, with a
    /// status message that says its replica stopped.
    ///
    /// ```
    /// use a2a_agent::{AgentExecutor, ExecutorError, TaskContext, TaskUpdater};
    /// use a2a_types::v1::Task;
    ///
    /// struct Lookup;
    ///
    /// impl AgentExecutor for Lookup {
    ///     async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
    ///         // A read-only lookup: the same answer however often it runs.
    ///         task.complete(Some(task.text_message(&cx.text()))).await
    ///     }
    ///
    ///     fn may_rerun(&self, _task: &Task) -> bool {
    ///         true
    ///     }
    /// }
    /// ```
    fn may_rerun(&self, task: &Task) -> bool {
        let _ = task;
        false
    }

    /// Cancels the task (`CancelTask`): by default it is marked canceled at once. An agent with
    /// work to stop overrides this; it must end with a terminal state (normally
    /// [`TaskUpdater::cancel`]).
    fn cancel(
        &self,
        cx: TaskContext,
        task: TaskUpdater,
    ) -> impl Future<Output = Result<(), ExecutorError>> + Send {
        let _ = cx;
        async move { task.cancel(None).await }
    }
}

/// An event on its way from the executor to the execution: boxed, because a tokio channel
/// allocates its slots 32 at a time, and 32 events inline are 12 KiB for every execution.
pub(crate) type Event = Box<StreamResponse>;

/// The events of one execution, sent to the request handler, which applies each to the task in
/// order. Cheap to clone (an execution may hand clones to its own tasks); the execution ends
/// when the last clone is dropped.
#[derive(Clone, Debug)]
pub struct TaskUpdater {
    events: mpsc::Sender<Event>,
    task_id: String,
    context_id: String,
}

impl TaskUpdater {
    pub(crate) fn new(events: mpsc::Sender<Event>, task_id: String, context_id: String) -> Self {
        TaskUpdater {
            events,
            task_id,
            context_id,
        }
    }

    /// The task's id.
    pub fn task_id(&self) -> &str {
        &self.task_id
    }

    /// The task's context id.
    pub fn context_id(&self) -> &str {
        &self.context_id
    }

    /// Sends one event as it is (its ids must be the task's). An error when the handler no longer
    /// listens (the task already ended).
    pub async fn send(&self, event: StreamResponse) -> Result<(), ExecutorError> {
        self.events.send(Box::new(event)).await.map_err(|_| {
            ExecutorError::new("the task's execution has ended; the event was dropped")
        })
    }

    /// An agent message in this task's context, with a fresh id.
    pub fn message(&self, parts: Vec<Part>) -> Message {
        agent_message(&self.task_id, &self.context_id, parts)
    }

    /// An agent message with one text part.
    pub fn text_message(&self, text: &str) -> Message {
        self.message(vec![text_part(text)])
    }

    /// Answers with one direct message and no task (the client's call returns the message).
    /// Only as an execution's first and only event.
    pub async fn reply(&self, message: Message) -> Result<(), ExecutorError> {
        self.send(StreamResponse::Message(message)).await
    }

    /// Sets the task's status, with an optional agent message.
    pub async fn status(
        &self,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<(), ExecutorError> {
        self.send(StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: self.task_id.clone(),
            context_id: self.context_id.clone(),
            status: TaskStatus {
                state,
                message,
                timestamp: None,
            },
            ..Default::default()
        }))
        .await
    }

    /// `working`.
    pub async fn start_work(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::Working, message).await
    }

    /// `input-required`: the task waits for the client's next message.
    pub async fn require_input(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::InputRequired, message).await
    }

    /// `auth-required`: the task waits for the client to authenticate.
    pub async fn require_auth(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::AuthRequired, message).await
    }

    /// `completed`.
    pub async fn complete(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::Completed, message).await
    }

    /// `failed`.
    pub async fn fail(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::Failed, message).await
    }

    /// `rejected`: the agent will not do this task.
    pub async fn reject(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::Rejected, message).await
    }

    /// `canceled`.
    pub async fn cancel(&self, message: Option<Message>) -> Result<(), ExecutorError> {
        self.status(TaskState::Canceled, message).await
    }

    /// Adds an artifact, or one chunk of it: `append` adds its parts to the artifact of that id
    /// sent before, `last_chunk` says it is the last.
    pub async fn artifact(
        &self,
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Result<(), ExecutorError> {
        self.send(StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
            task_id: self.task_id.clone(),
            context_id: self.context_id.clone(),
            artifact,
            append: append.then_some(true),
            last_chunk: last_chunk.then_some(true),
            ..Default::default()
        }))
        .await
    }

    /// Adds a whole artifact of these parts, with a fresh id and this name.
    pub async fn add_artifact(&self, name: &str, parts: Vec<Part>) -> Result<(), ExecutorError> {
        self.artifact(
            Artifact {
                artifact_id: new_id(),
                name: Some(name.to_owned()).filter(|n| !n.is_empty()),
                parts,
                ..Default::default()
            },
            false,
            false,
        )
        .await
    }

    /// Adds a whole artifact of one text part.
    pub async fn add_text_artifact(&self, name: &str, text: &str) -> Result<(), ExecutorError> {
        self.add_artifact(name, vec![text_part(text)]).await
    }
}

/// A text part.
pub fn text_part(text: &str) -> Part {
    Part {
        content: a2a_types::v1::PartContent::Text(text.to_owned()),
        ..Default::default()
    }
}
