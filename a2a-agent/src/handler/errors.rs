//! The errors the handler answers with, each with a message that names what was wrong.

use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{A2aError, ServiceError, Task, TaskState};

use crate::store::StoreError;

/// How long a caller refused for a cap (or a full store) is told to wait before it tries again.
pub(super) const RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// A store's failure: a full store is a temporary refusal (try again once tasks ended and were
/// evicted), anything else an internal error.
pub(super) fn store_error(e: StoreError) -> ServiceError {
    match e {
        StoreError::Full { .. } => {
            ServiceError::unavailable(format!("the task store is full: {e}"), RETRY_AFTER)
        }
        e => ServiceError::internal(format!("the task store failed: {e}")),
    }
}

/// A refusal of a call over one of the handler's caps: temporary, try again.
pub(super) fn over_cap(what: String) -> ServiceError {
    ServiceError::unavailable(what, RETRY_AFTER)
}

/// A list's store error: a page token the store did not give is the caller's invalid params.
pub(super) fn page_error(e: StoreError) -> ServiceError {
    match e {
        StoreError::InvalidPageToken => {
            invalid_params("Invalid params: `pageToken` is not a token this agent gave".to_owned())
        }
        other => store_error(other),
    }
}

pub(super) fn task_not_found(id: &str) -> ServiceError {
    A2aError::task_not_found()
        .with_message(format!("Task not found: no task `{id}`"))
        .with_info([("taskId", id)])
        .into()
}

pub(super) fn push_config_not_found(task_id: &str, config_id: &str) -> ServiceError {
    A2aError::task_not_found()
        .with_message(format!(
            "Task not found: task `{task_id}` has no push notification config `{config_id}`"
        ))
        .with_info([("taskId", task_id)])
        .into()
}

pub(super) fn task_not_cancelable(task: &Task) -> ServiceError {
    A2aError::task_not_cancelable()
        .with_message(format!(
            "Task cannot be canceled: task `{}` is {}",
            task.id,
            state_name(&task.status.state)
        ))
        .with_info([("taskId", task.id.as_str())])
        .into()
}

/// `UnsupportedOperation` for a terminal task: `what` is what it takes no more of.
pub(super) fn task_is_terminal(task: &Task, what: &str) -> ServiceError {
    A2aError::unsupported_operation()
        .with_message(format!(
            "Unsupported operation: task `{}` is {}: {what}",
            task.id,
            state_name(&task.status.state)
        ))
        .into()
}

pub(super) fn invalid_params(message: String) -> ServiceError {
    A2aError::invalid_params().with_message(message).into()
}

pub(super) fn check_history_length(n: Option<i32>) -> Result<(), ServiceError> {
    match n {
        Some(n) if n < 0 => Err(invalid_params(format!(
            "Invalid params: `historyLength` is {n}; it must not be negative"
        ))),
        _ => Ok(()),
    }
}

/// The call's tenant: `None` for none or an empty one (the default tenant).
pub(super) fn tenant_of(cx: &RequestContext) -> Option<&str> {
    cx.tenant.as_deref().filter(|t| !t.is_empty())
}

/// What the call sees in the stores: its caller's own tasks and configs, in its tenant.
pub(super) fn scope_of(cx: &RequestContext) -> crate::store::Scope<'_> {
    crate::store::Scope::tenant(tenant_of(cx)).owner(cx.caller.id())
}

/// A state as an error message names it, the same whichever version the caller speaks:
/// `completed`, `input-required` (1.0's wire name without `TASK_STATE_`, lower case, which is
/// 0.3's wire name), so that a 0.3 caller reads no 1.0 name in a 0.3 error.
pub(super) fn state_name(state: &TaskState) -> String {
    let wire = serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"));
    let bare = wire.strip_prefix("TASK_STATE_").unwrap_or(&wire);
    bare.to_ascii_lowercase().replace('_', "-")
}

/// What a panic said, when it said it as text.
pub(super) fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Why the executor's work failed, from how it returned.
pub(super) fn work_failure(
    outcome: std::thread::Result<Result<(), crate::ExecutorError>>,
) -> Option<String> {
    match outcome {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(format!("the agent failed: {e}")),
        Err(panic) => Some(format!("the agent panicked: {}", panic_text(&panic))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_named_as_both_versions_read_them() {
        assert_eq!(state_name(&TaskState::Completed), "completed");
        assert_eq!(state_name(&TaskState::InputRequired), "input-required");
        assert_eq!(state_name(&TaskState::Canceled), "canceled");
    }
}
