//! What a call reads of a task and its history: the task a caller may see, and the newest
//! messages its executor is given and its reply carries.

use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{ServiceError, Task};

use super::errors::{scope_of, store_error, task_not_found};
use super::Shared;
use crate::executor::AgentExecutor;
use crate::store::{Scope, Stored};

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
    /// With a store that appends histories, `stored` was read with the messages either needs,
    /// and the execution keeps with the task only the `reply` latest (`None`: all), what its
    /// caller's reply carries (it writes only what it adds); with another, it holds the whole
    /// task and the executor gets a copy cut down.
    pub(super) fn executor_view(
        &self,
        stored: Option<Stored>,
        reply: Option<u32>,
    ) -> (Option<Stored>, Option<Task>) {
        let Some(mut stored) = stored else {
            return (None, None);
        };
        let from =
            |len: usize, last: Option<u32>| last.map_or(0, |n| len.saturating_sub(n as usize));
        if !self.tasks.appends_history() {
            let mut task = stored.task.clone();
            let len = task.history.len();
            task.history.drain(..from(len, self.executor_history));
            return (Some(stored), Some(task));
        }
        let mut history = std::mem::take(&mut stored.task.history);
        let (given, kept) = (
            from(history.len(), self.executor_history),
            from(history.len(), reply),
        );
        let mut task = stored.task.clone();
        // The longer of the two is moved, the shorter copied.
        if kept <= given {
            task.history = history[given..].to_vec();
            stored.task.history = history.split_off(kept);
        } else {
            stored.task.history = history[kept..].to_vec();
            history.drain(..given);
            task.history = history;
        }
        (Some(stored), Some(task))
    }

    /// How many of a task's latest messages a message's execution reads: what its executor is
    /// given and what its reply carries (`None`: all of them).
    pub(super) fn history_to_read(&self, reply: Option<u32>) -> Option<u32> {
        match (self.executor_history, reply) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        }
    }
}
