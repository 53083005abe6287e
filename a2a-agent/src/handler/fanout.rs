//! Live events from other replicas: the handler's side of an [`EventFeed`].
//!
//! One task per handler hears the feed's wake-ups and, for each task that something here follows
//! (a stream, a subscription) or runs, reads the task's log from the last version sent on and
//! sends what it finds to the task's live channel ([`catch_up`]). An event that this process's
//! execution sends as well goes out once: the channel drops a version it has sent. A terminal
//! event that came only from the log means another replica ended the task, and the execution
//! running here is told to stop.
//!
//! [`EventFeed`]: crate::cluster::EventFeed

use std::sync::{Arc, Weak};

use a2a_types::v1::{StreamResponse, TaskStatusUpdateEvent};
use tokio::sync::broadcast::error::RecvError;

use a2a_types::rt::auth::Caller;
use a2a_types::rt::service::RequestContext;
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Binding;

use super::live::{LiveTask, Published};
use super::Shared;
use crate::cluster::Wakeup;
use crate::executor::{AgentExecutor, TaskContext};
use crate::lifecycle::is_terminal;
use crate::store::{Scope, TaskStore};

/// How many events one read of a log takes.
const PAGE: u32 = 100;

/// Hears `wakeups` until the feed closes or the handler is gone: catches up every followed task
/// they name, passes a cancel to the execution running here, and starts a sweep when asked.
pub(super) async fn fan_out<E: AgentExecutor>(
    shared: Weak<Shared<E>>,
    mut wakeups: tokio::sync::broadcast::Receiver<Wakeup>,
) {
    loop {
        let wakeup = wakeups.recv().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let entries = match wakeup {
            Ok(Wakeup::Task { tenant, task_id }) => {
                shared.live.get(&tenant, &task_id).into_iter().collect()
            }
            Ok(Wakeup::Cancel {
                tenant,
                task_id,
                caller,
            }) => {
                if let Some(entry) = shared.live.get(&tenant, &task_id) {
                    tokio::spawn(cancel_here(Arc::clone(&shared), entry, tenant, caller));
                }
                continue;
            }
            Ok(Wakeup::Sweep) => {
                shared.sweep_now.notify_one();
                continue;
            }
            // Some may have been missed: every followed task is read again.
            Ok(Wakeup::Resync) | Err(RecvError::Lagged(_)) => shared.live.in_use(),
            Err(RecvError::Closed) => return,
        };
        for entry in entries {
            // A call waiting for another replica's lease tries again.
            entry.changed.notify_waiters();
            if entry.is_followed() || entry.is_running() {
                tokio::spawn(catch_up(entry, Arc::clone(&shared.tasks)));
            }
        }
    }
}

/// Another replica served a cancel of a task whose execution runs here: that execution runs the
/// executor's cancel, as for a cancel served here.
async fn cancel_here<E: AgentExecutor>(
    shared: Arc<Shared<E>>,
    live: Arc<LiveTask>,
    tenant: String,
    caller: String,
) {
    let Some(asks) = live.cancel_requests() else {
        return;
    };
    let (_, task_id) = live.key();
    let Ok(Some(stored)) = shared
        .tasks
        .get_task(Scope::tenant(Some(&tenant)), task_id)
        .await
    else {
        return;
    };
    let mut call = RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, "CancelTask");
    // The caller who asked, by id, within the task's tenant.
    if !caller.is_empty() {
        call.caller = Caller::new(caller).with_tenants([tenant.as_str()]);
    }
    let cx = TaskContext::cancel_of(stored.task, call);
    // A cancel already waiting there is the same cancel.
    let _ = asks.try_send(Box::new(cx));
}

/// Sends the task's logged events after the last one sent here, in order. Nothing is read
/// while nothing was sent (no subscriber has said where it begins).
pub(super) async fn catch_up(live: Arc<LiveTask>, tasks: Arc<dyn TaskStore>) {
    let _one_at_a_time = live.catching_up.lock().await;
    let Some(mut after) = live.sent() else { return };
    let (tenant, task_id) = live.key();
    loop {
        let events = match tasks.events_after(Some(tenant), task_id, after, PAGE).await {
            Ok(events) => events,
            Err(e) => {
                // The next wake-up (or resync) reads from the same version again.
                tracing::warn!(
                    target: "a2a_agent::cluster",
                    task_id = %task_id,
                    error = %e,
                    "could not read the task's event log",
                );
                return;
            }
        };
        let full = events.len() == PAGE as usize;
        for logged in events {
            after = logged.version;
            let ends = ends_task(&logged.event);
            let sent = live.publish(Some(logged.version), || logged.event) == Published::Sent;
            // Sent from the log alone (this process did not write it), and final.
            if sent && ends && live.is_running() {
                live.ended_elsewhere.notify_one();
            }
        }
        if !full {
            return;
        }
    }
}

/// Whether `event` puts its task in a terminal state.
fn ends_task(event: &StreamResponse) -> bool {
    match event {
        StreamResponse::StatusUpdate(TaskStatusUpdateEvent { status, .. }) => {
            is_terminal(&status.state)
        }
        StreamResponse::Task(task) => is_terminal(&task.status.state),
        _ => false,
    }
}
