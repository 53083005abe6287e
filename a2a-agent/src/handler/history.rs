//! What a call reads of a task and its history: the task a caller may see, the newest
//! messages an executor is given, and the history a reply carries (read from the store when an
//! execution holds fewer of its messages than the reply asks for).

use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{ServiceError, Task};

use super::errors::{scope_of, store_error, task_not_found};
use super::Shared;
use crate::executor::AgentExecutor;
use crate::lifecycle::with_history;
use crate::store::{Scope, Stored};

/// A copy of `cx` with what reading a task needs (its tenant, caller and method), not its
/// headers and extensions.
pub(super) fn reader_of(cx: &RequestContext) -> RequestContext {
    let mut reader = RequestContext::new(cx.version, cx.binding, cx.method);
    reader.tenant.clone_from(&cx.tenant);
    reader.caller = cx.caller.clone();
    reader
}

impl<E: AgentExecutor> Shared<E> {
    /// The task a call names, as stored, when its caller may see it: its own, or another's the
    /// access policy allows for the call's method; `TaskNotFound` otherwise, as for a task that
    /// does not exist.
    pub(super) async fn visible(
        &self,
        cx: &RequestContext,
        id: &str,
    ) -> Result<Stored, ServiceError> {
        self.visible_recent(cx, id, None).await
    }

    /// [`visible`](Self::visible), with only the `last` latest messages of the task's history
    /// (`None`: all of them).
    pub(super) async fn visible_recent(
        &self,
        cx: &RequestContext,
        id: &str,
        last: Option<u32>,
    ) -> Result<Stored, ServiceError> {
        // On the call's span (`a2a.call`), when it has one.
        tracing::Span::current().record("a2a.task_id", id);
        let scope = scope_of(cx);
        let read = |scope| match last {
            Some(last) => self.tasks.get_task_recent(scope, id, last),
            None => self.tasks.get_task(scope, id),
        };
        if let Some(stored) = read(scope).await.map_err(store_error)? {
            return Ok(stored);
        }
        if let Some(policy) = &self.policy {
            let anyone = Scope::tenant(scope.tenant);
            if let Some(stored) = read(anyone).await.map_err(store_error)? {
                if policy.allows(&cx.caller, cx.method, &stored.task, &stored.owner) {
                    return Ok(stored);
                }
            }
        }
        Err(task_not_found(id))
    }

    /// A continued task as its execution holds it, and as its executor is given it (with the
    /// [`executor_history`](super::RequestHandlerBuilder::executor_history) latest messages).
    /// With a store that appends histories, the execution holds the task without its history
    /// (it writes only what it adds) and `stored` was read with those messages only; with
    /// another, it holds the whole task and the executor gets a copy cut down.
    pub(super) fn executor_view(&self, stored: Option<Stored>) -> (Option<Stored>, Option<Task>) {
        let Some(mut stored) = stored else {
            return (None, None);
        };
        let mut task = match self.tasks.appends_history() {
            true => {
                let recent = std::mem::take(&mut stored.task.history);
                let mut task = stored.task.clone();
                task.history = recent;
                task
            }
            false => stored.task.clone(),
        };
        if let Some(last) = self.executor_history {
            let len = task.history.len();
            task.history.drain(..len.saturating_sub(last as usize));
        }
        (Some(stored), Some(task))
    }

    /// `task`, an execution's, as a reply carries it under `history_length`: when the
    /// execution holds fewer of its messages than the reply asks for (a store that appends
    /// histories), the others are read from the store.
    pub(super) async fn reply_history(
        &self,
        cx: &RequestContext,
        mut task: Task,
        history_length: Option<i32>,
    ) -> Result<Task, ServiceError> {
        let wanted = history_length.map(|n| u32::try_from(n).unwrap_or(0));
        let held = task.history.len();
        if !self.tasks.appends_history() || wanted.is_some_and(|n| n as usize <= held) {
            return Ok(with_history(task, history_length));
        }
        let stored = self.visible_recent(cx, &task.id, wanted).await?;
        // The store's, up to the last message this execution holds: a later exchange may have
        // added more since.
        let mut history = stored.task.history;
        if let Some(last) = task.history.last() {
            if let Some(at) = history
                .iter()
                .rposition(|m| m.message_id == last.message_id)
            {
                history.truncate(at + 1);
            }
        }
        task.history = history;
        Ok(with_history(task, history_length))
    }
}
