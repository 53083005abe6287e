//! The task lifecycle as pure functions over the v1 data model: what an event does to a task,
//! which states end a task or pause it, and how `historyLength` trims what a reply carries.
//! The request handler calls these under its per-task lock; they never touch a store.

use a2a_types::rt::Timestamp;
use a2a_types::v1::{
    Artifact, Message, Role, StreamResponse, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use std::fmt;

/// Whether a task in `state` is finished for good: completed, failed, canceled or rejected
/// (spec §4.1.3). A message to such a task is refused, and so are a cancel and a subscription.
pub fn is_terminal(state: &TaskState) -> bool {
    matches!(
        state,
        TaskState::Completed | TaskState::Failed | TaskState::Canceled | TaskState::Rejected
    )
}

/// Whether a task in `state` waits for the client: input or authentication required. A blocking
/// `SendMessage` returns at such a state, as at a terminal one.
pub fn is_interrupted(state: &TaskState) -> bool {
    matches!(state, TaskState::InputRequired | TaskState::AuthRequired)
}

/// Whether a blocking call returns at `state`: a terminal or an interrupted one.
pub fn is_settled(state: &TaskState) -> bool {
    is_terminal(state) || is_interrupted(state)
}

/// A new task for `message`: `submitted`, now, with the message (stamped with the task's ids)
/// as its history.
pub fn new_task(task_id: &str, context_id: &str, message: &Message) -> Task {
    Task {
        id: task_id.to_owned(),
        context_id: Some(context_id.to_owned()),
        status: TaskStatus {
            state: TaskState::Submitted,
            message: None,
            timestamp: Some(Timestamp::now()),
        },
        history: vec![stamped(message, task_id, context_id)],
        ..Default::default()
    }
}

/// `message` with the task's ids filled in where it left them empty: what the history keeps.
pub fn stamped(message: &Message, task_id: &str, context_id: &str) -> Message {
    let mut message = message.clone();
    if message.task_id.as_deref().is_none_or(str::is_empty) {
        message.task_id = Some(task_id.to_owned());
    }
    if message.context_id.as_deref().is_none_or(str::is_empty) {
        message.context_id = Some(context_id.to_owned());
    }
    message
}

/// A client's message continuing `task`: the current status message moves to the history first
/// (it was the agent's last word), then the message follows, so the history stays in the order
/// the messages were exchanged.
pub fn accept_message(task: &mut Task, message: &Message) {
    let context_id = task.context_id.clone().unwrap_or_default();
    if let Some(previous) = task.status.message.take() {
        task.history.push(previous);
    }
    task.history.push(stamped(message, &task.id, &context_id));
}

/// Why an event cannot be applied to a task: the executor broke the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidEvent(pub String);

impl fmt::Display for InvalidEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidEvent {}

/// Applies one event of the executor to `task`:
///
/// - a `Task` replaces the task's status, artifacts and metadata (its history is kept and the
///   event's new messages appended), ids must match;
/// - a status update replaces the status; the previous status message moves to the history (as
///   a2a-sdk does), the new one stays in `status.message`; a status without a timestamp gets
///   one;
/// - an artifact update adds the artifact, replaces one of the same id (`append` unset or
///   false), or appends its parts to the one of that id (`append`), which must exist;
/// - a `Message` is refused: a task's messages travel in status updates.
pub fn apply(task: &mut Task, event: &StreamResponse) -> Result<(), InvalidEvent> {
    match event {
        StreamResponse::Task(t) => {
            check_ids(task, &t.id, t.context_id.as_deref())?;
            for m in &t.history {
                if !task.history.iter().any(|h| h.message_id == m.message_id) {
                    task.history.push(m.clone());
                }
            }
            set_status(task, t.status.clone());
            task.artifacts.clone_from(&t.artifacts);
            if t.metadata.is_some() {
                task.metadata.clone_from(&t.metadata);
            }
            Ok(())
        }
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id,
            context_id,
            status,
            ..
        }) => {
            check_ids(task, task_id, Some(context_id))?;
            set_status(task, status.clone());
            Ok(())
        }
        StreamResponse::ArtifactUpdate(update) => {
            check_ids(task, &update.task_id, Some(&update.context_id))?;
            add_artifact(task, update)
        }
        StreamResponse::Message(_) => Err(InvalidEvent(
            "a direct Message after the task began: send it in a status update".to_owned(),
        )),
        StreamResponse::Unknown(u) => Err(InvalidEvent(format!(
            "an event this version does not know (`{}`)",
            u.name().unwrap_or("no member")
        ))),
    }
}

fn check_ids(task: &Task, id: &str, context_id: Option<&str>) -> Result<(), InvalidEvent> {
    if !id.is_empty() && id != task.id {
        return Err(InvalidEvent(format!(
            "an event for task `{id}` in the execution of task `{}`",
            task.id
        )));
    }
    match (
        context_id.filter(|c| !c.is_empty()),
        task.context_id.as_deref(),
    ) {
        (Some(c), Some(own)) if c != own => Err(InvalidEvent(format!(
            "an event in context `{c}` for task `{}` of context `{own}`",
            task.id
        ))),
        _ => Ok(()),
    }
}

fn set_status(task: &mut Task, mut status: TaskStatus) {
    if let Some(previous) = task.status.message.take() {
        task.history.push(previous);
    }
    if status.timestamp.is_none() {
        status.timestamp = Some(Timestamp::now());
    }
    let context_id = task.context_id.clone().unwrap_or_default();
    if let Some(message) = &mut status.message {
        *message = stamped(message, &task.id, &context_id);
    }
    task.status = status;
}

fn add_artifact(task: &mut Task, update: &TaskArtifactUpdateEvent) -> Result<(), InvalidEvent> {
    let artifact: &Artifact = &update.artifact;
    let append = update.append.unwrap_or(false);
    if append
        && !task
            .artifacts
            .iter()
            .any(|a| a.artifact_id == artifact.artifact_id)
    {
        return Err(missing_artifact(&artifact.artifact_id));
    }
    merge_artifact(&mut task.artifacts, artifact, append);
    Ok(())
}

/// Why a chunk (`append`) for artifact `id` cannot be applied: the task has no artifact of
/// that id.
pub(crate) fn missing_artifact(id: &str) -> InvalidEvent {
    InvalidEvent(format!(
        "`append` for artifact `{id}`, which the task does not have: send its first chunk \
         without `append`"
    ))
}

/// `artifact` added to `artifacts`: it replaces the one of its id (`append` false), or its
/// parts and metadata are added to that one's (`append`); one of a new id is added last.
pub(crate) fn merge_artifact(artifacts: &mut Vec<Artifact>, artifact: &Artifact, append: bool) {
    let existing = artifacts
        .iter_mut()
        .find(|a| a.artifact_id == artifact.artifact_id);
    match (append, existing) {
        (false, Some(existing)) => existing.clone_from(artifact),
        (true, Some(existing)) => {
            existing.parts.extend(artifact.parts.iter().cloned());
            if let Some(extra) = &artifact.metadata {
                existing
                    .metadata
                    .get_or_insert_with(Default::default)
                    .extend(extra.clone());
            }
        }
        (_, None) => artifacts.push(artifact.clone()),
    }
}

/// A copy of `task` with its history and its artifacts only when asked for (what is left out is
/// not copied): what a write of a store that keeps them apart copies.
pub(crate) fn copy_of(task: &Task, history: bool, artifacts: bool) -> Task {
    Task {
        id: task.id.clone(),
        context_id: task.context_id.clone(),
        status: task.status.clone(),
        artifacts: if artifacts {
            task.artifacts.clone()
        } else {
            Vec::new()
        },
        history: if history {
            task.history.clone()
        } else {
            Vec::new()
        },
        metadata: task.metadata.clone(),
    }
}

/// A copy of `task` without its artifacts (which are not copied).
pub(crate) fn without_artifacts(task: &Task) -> Task {
    copy_of(task, true, false)
}

/// A copy of `task` without its history (which is not copied).
pub(crate) fn without_history(task: &Task) -> Task {
    copy_of(task, false, true)
}

/// `task` as a reply carries it under `historyLength` (spec §3.2.4): unset, the whole history;
/// 0, none (the member is then left out); n, the last n messages.
pub fn with_history(mut task: Task, history_length: Option<i32>) -> Task {
    if let Some(n) = history_length {
        let keep = usize::try_from(n).unwrap_or(0);
        let len = task.history.len();
        if keep < len {
            task.history.drain(..len - keep);
        }
    }
    task
}

/// An agent's message with a fresh id, in the task's context: what the updater's helpers send.
pub fn agent_message(task_id: &str, context_id: &str, parts: Vec<a2a_types::v1::Part>) -> Message {
    Message {
        message_id: new_id(),
        role: Role::Agent,
        parts,
        task_id: Some(task_id.to_owned()),
        context_id: Some(context_id.to_owned()),
        ..Default::default()
    }
}

/// A fresh identifier (a UUID v4): task, context, message and artifact ids.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The event as streamed: a status or artifact update carries the task's ids.
pub(crate) fn stamp_event(event: StreamResponse, task: &Task) -> StreamResponse {
    let context_id = task.context_id.clone().unwrap_or_default();
    match event {
        StreamResponse::StatusUpdate(mut u) => {
            u.task_id.clone_from(&task.id);
            u.context_id = context_id;
            u.status = task.status.clone();
            StreamResponse::StatusUpdate(u)
        }
        StreamResponse::ArtifactUpdate(mut u) => {
            u.task_id.clone_from(&task.id);
            u.context_id = context_id;
            StreamResponse::ArtifactUpdate(u)
        }
        StreamResponse::Task(_) => StreamResponse::Task(task.clone()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{Part, PartContent};

    fn text(s: &str) -> Part {
        Part {
            content: PartContent::Text(s.into()),
            ..Default::default()
        }
    }

    fn user(id: &str) -> Message {
        Message {
            message_id: id.into(),
            role: Role::User,
            parts: vec![text(id)],
            ..Default::default()
        }
    }

    fn status(task: &Task, state: TaskState, message: Option<Message>) -> StreamResponse {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
            task_id: task.id.clone(),
            context_id: task.context_id.clone().unwrap(),
            status: TaskStatus {
                state,
                message,
                timestamp: None,
            },
            ..Default::default()
        })
    }

    #[test]
    fn states_are_terminal_interrupted_or_running() {
        for s in [
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
            TaskState::Rejected,
        ] {
            assert!(is_terminal(&s) && is_settled(&s) && !is_interrupted(&s));
        }
        for s in [TaskState::InputRequired, TaskState::AuthRequired] {
            assert!(is_interrupted(&s) && is_settled(&s) && !is_terminal(&s));
        }
        for s in [
            TaskState::Submitted,
            TaskState::Working,
            TaskState::Unspecified,
        ] {
            assert!(!is_settled(&s));
        }
    }

    #[test]
    fn history_keeps_the_order_messages_were_exchanged() {
        let mut task = new_task("t", "c", &user("u1"));
        assert_eq!(task.history[0].task_id.as_deref(), Some("t"));
        assert_eq!(task.history[0].context_id.as_deref(), Some("c"));
        let reply = agent_message("t", "c", vec![text("a1")]);
        let event = status(&task, TaskState::InputRequired, Some(reply.clone()));
        apply(&mut task, &event).unwrap();
        // The agent's message is the status message until the next exchange.
        assert_eq!(
            task.status.message.as_ref().unwrap().message_id,
            reply.message_id
        );
        accept_message(&mut task, &user("u2"));
        let ids: Vec<&str> = task.history.iter().map(|m| m.message_id.as_str()).collect();
        assert_eq!(ids, ["u1", reply.message_id.as_str(), "u2"]);
        assert!(task.status.message.is_none());
        let event = status(&task, TaskState::Completed, None);
        apply(&mut task, &event).unwrap();
        assert!(task.status.timestamp.is_some());
    }

    #[test]
    fn artifacts_are_added_replaced_and_appended() {
        let mut task = new_task("t", "c", &user("u1"));
        let chunk = |parts: &[&str], append: Option<bool>| {
            StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent {
                task_id: "t".into(),
                context_id: "c".into(),
                artifact: Artifact {
                    artifact_id: "a".into(),
                    parts: parts.iter().map(|p| text(p)).collect(),
                    ..Default::default()
                },
                append,
                last_chunk: None,
                ..Default::default()
            })
        };
        apply(&mut task, &chunk(&["one "], None)).unwrap();
        apply(&mut task, &chunk(&["two"], Some(true))).unwrap();
        assert_eq!(task.artifacts.len(), 1);
        assert_eq!(task.artifacts[0].parts.len(), 2);
        apply(&mut task, &chunk(&["new"], Some(false))).unwrap();
        assert_eq!(task.artifacts[0].parts, vec![text("new")]);
        let mut other = new_task("t", "c", &user("u1"));
        let e = apply(&mut other, &chunk(&["x"], Some(true))).unwrap_err();
        assert!(e.0.contains("does not have"), "{e}");
    }

    #[test]
    fn events_of_another_task_or_context_are_refused() {
        let mut task = new_task("t", "c", &user("u1"));
        let mut wrong = status(&task, TaskState::Working, None);
        if let StreamResponse::StatusUpdate(u) = &mut wrong {
            u.task_id = "other".into();
        }
        assert!(apply(&mut task, &wrong).is_err());
        if let StreamResponse::StatusUpdate(u) = &mut wrong {
            u.task_id = "t".into();
            u.context_id = "elsewhere".into();
        }
        assert!(apply(&mut task, &wrong).is_err());
        let message = StreamResponse::Message(user("m"));
        assert!(apply(&mut task, &message).is_err());
        assert_eq!(task.status.state, TaskState::Submitted);
    }

    #[test]
    fn history_length_trims_from_the_oldest() {
        let mut task = new_task("t", "c", &user("u1"));
        accept_message(&mut task, &user("u2"));
        accept_message(&mut task, &user("u3"));
        let ids =
            |t: &Task| -> Vec<String> { t.history.iter().map(|m| m.message_id.clone()).collect() };
        assert_eq!(ids(&with_history(task.clone(), None)), ["u1", "u2", "u3"]);
        assert_eq!(ids(&with_history(task.clone(), Some(2))), ["u2", "u3"]);
        assert_eq!(
            ids(&with_history(task.clone(), Some(9))),
            ["u1", "u2", "u3"]
        );
        assert!(with_history(task.clone(), Some(0)).history.is_empty());
        let json = serde_json::to_value(with_history(task, Some(0))).unwrap();
        assert!(json.get("history").is_none(), "{json}");
    }
}
