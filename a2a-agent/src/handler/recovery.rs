//! Recovery: this replica's heartbeat, and the settling of the tasks of a replica that stopped.
//!
//! While the handler lives, one task renews this replica's leases every third of their time to
//! live, and looks for leases that expired on tasks that had not ended (their replica was
//! killed, lost the database, or gave them back as it stopped) every half of it, or at once when
//! another replica says it stopped ([`Wakeup::Sweep`]). Each such task is failed, with a status
//! message that says the replica running it stopped, in a write conditional on its version and
//! on the lease having expired: of several replicas sweeping at once, one settles it. A task
//! whose executor says it may run again ([`AgentExecutor::may_rerun`]) is run again instead, by
//! the replica that takes its lease over. Its
//! subscribers on every replica get that terminal event from the log, and its push configs the
//! notification. The same sweep takes over push notifications that waited in the outbox longer
//! than a lease (see `outbox`), and the heartbeat renews this replica's claims on them.

use std::sync::{Arc, Weak};
use std::time::Duration;

use a2a_types::rt::service::RequestContext;
use a2a_types::rt::telemetry;
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Binding;
use a2a_types::v1::{Role, StreamResponse, TaskState, TaskStatus, TaskStatusUpdateEvent};
use tokio::time::Instant;

use super::execution::{Execution, Origin, Work};
use super::Shared;
use crate::cluster::Wakeup;
use crate::executor::{text_part, AgentExecutor, TaskContext};
use crate::lifecycle::{agent_message, apply, stamp_event};
use crate::store::{Artifacts, ExpiredLease, History, Lease, Scope, Stored, WriteWith};

/// How many expired tasks one sweep settles at most (the next one goes on).
const SWEEP: u32 = 100;

/// Renews this replica's leases and settles expired ones, until the handler is gone.
pub(super) async fn keep_leases<E: AgentExecutor>(shared: Weak<Shared<E>>) {
    let Some(ttl) = shared
        .upgrade()
        .and_then(|s| s.leases.as_ref().map(|l| l.ttl))
    else {
        return;
    };
    let mut renew_at = Instant::now() + ttl / 3;
    let mut sweep_at = Instant::now();
    loop {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let Some(leases) = &shared.leases else { return };
        let now = Instant::now();
        if now >= renew_at {
            if let Err(e) = shared.tasks.renew_leases(&leases.holder, leases.ttl).await {
                tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not renew the leases");
            }
            if let Some(outbox) = &shared.outbox {
                outbox.renew(Some(outbox.ttl)).await;
            }
            renew_at = now + ttl / 3;
        }
        if now >= sweep_at {
            sweep(&shared).await;
            if let Some(outbox) = &shared.outbox {
                outbox.sweep().await;
            }
            sweep_at = now + ttl / 2;
        }
        let next = renew_at.min(sweep_at);
        let asked = async {
            shared.sweep_now.notified().await;
        };
        tokio::select! {
            () = tokio::time::sleep_until(next) => {}
            () = asked => sweep_at = Instant::now(),
        }
    }
}

/// Settles every task whose lease expired (up to [`SWEEP`] a time, until none is left).
async fn sweep<E: AgentExecutor>(shared: &Arc<Shared<E>>) {
    loop {
        let expired = match shared.tasks.expired_leases(SWEEP).await {
            Ok(expired) => expired,
            Err(e) => {
                tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not look for expired leases");
                return;
            }
        };
        let full = expired.len() == SWEEP as usize;
        let mut settled = 0;
        for lost in expired {
            settled += usize::from(settle(shared, lost).await);
        }
        // A full page of tasks none of which this replica could settle (others got there
        // first, or the store refuses): the next sweep tries again.
        if !full || settled == 0 {
            return;
        }
    }
}

/// Fails a task whose replica stopped, or runs it again when its executor may; `true` when
/// this replica wrote it or took it over.
async fn settle<E: AgentExecutor>(shared: &Arc<Shared<E>>, lost: ExpiredLease) -> bool {
    let Some(leases) = &shared.leases else {
        return false;
    };
    let ExpiredLease {
        tenant,
        stored,
        holder,
    } = lost;
    if shared.executor.may_rerun(&stored.task) {
        return rerun(shared, &tenant, stored, &holder).await;
    }
    let mut task = stored.task;
    let context_id = task.context_id.clone().unwrap_or_default();
    let reason = format!(
        "the replica running the task (`{holder}`) stopped before the task ended; the task was \
         failed by replica `{}`",
        leases.holder
    );
    let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: task.id.clone(),
        context_id: context_id.clone(),
        status: TaskStatus {
            state: TaskState::Failed,
            message: Some(agent_message(
                &task.id,
                &context_id,
                vec![text_part(&reason)],
            )),
            timestamp: None,
        },
        ..Default::default()
    });
    let before = task.status.state.clone();
    if apply(&mut task, &event).is_err() {
        return false;
    }
    let event = stamp_event(event, &task);
    let with = WriteWith {
        event: Some(&event),
        // Taken over only if it expired (the write's condition), and given back.
        lease: Lease::Release {
            holder: &leases.holder,
        },
        notify: shared.outbox.is_some(),
        // The task as the sweep read it, whole.
        history: History::Whole,
        artifacts: Artifacts::Whole,
    };
    let tenant_key = Some(tenant.as_str());
    let scope = Scope::tenant(tenant_key).owner(&stored.owner);
    let written = shared
        .tasks
        .update_task_with(scope, &task, stored.version, with);
    if written.await.is_err() {
        return false;
    }
    tracing::info!(
        target: "a2a_agent::cluster",
        task_id = %task.id,
        stopped = %holder,
        "failed a task whose replica stopped",
    );
    telemetry::task_moved(Some(before.as_str()), task.status.state.as_str());
    if let Some(feed) = &shared.feed {
        feed.send(Wakeup::task(tenant_key, &task.id));
    }
    // Subscribers here follow it from the log, as on every other replica.
    if let Some(live) = shared.live.get(&tenant, &task.id) {
        tokio::spawn(super::fanout::catch_up(live, Arc::clone(&shared.tasks)));
    }
    shared.push_event(tenant_key, &task.id, event, None).await;
    true
}

/// Runs a task whose replica stopped again, here: its lease taken over (of several replicas
/// sweeping, one takes it), then an execution of the last user message of its history, with
/// the task as stored. `true` when this replica took it.
async fn rerun<E: AgentExecutor>(
    shared: &Arc<Shared<E>>,
    tenant: &str,
    stored: Stored,
    stopped: &str,
) -> bool {
    let Some(leases) = &shared.leases else {
        return false;
    };
    let task_id = stored.task.id.clone();
    let tenant = Some(tenant).filter(|t| !t.is_empty());
    let live = shared.entry(tenant, &task_id);
    // In use here (a call waits on it): the next sweep tries again.
    let Ok(guard) = Arc::clone(&live.lock).try_lock_owned() else {
        return false;
    };
    let scope = Scope::tenant(tenant).owner(&stored.owner);
    let hold = Lease::Hold {
        holder: &leases.holder,
        ttl: leases.ttl,
    };
    if shared.tasks.set_lease(scope, &task_id, hold).await.is_err() {
        return false;
    }
    tracing::info!(
        target: "a2a_agent::cluster",
        task_id = %task_id,
        stopped = %stopped,
        "running again a task whose replica stopped",
    );
    let task = &stored.task;
    let message = task.history.iter().rev().find(|m| m.role == Role::User);
    let cx = TaskContext {
        task_id: task_id.clone(),
        context_id: task.context_id.clone().unwrap_or_default(),
        message: message.cloned(),
        task: Some(task.clone()),
        configuration: None,
        call: RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, "SendMessage"),
    };
    let origin = Origin {
        tenant: tenant.map(str::to_owned),
        stored: Some(stored),
        message: None,
        push: None,
        reply_history: None,
    };
    let mut started = Execution::start(shared, live, origin, cx, guard, Work::Execute);
    started.driver.detach();
    true
}

/// [`RequestHandler::shutdown`](super::RequestHandler::shutdown).
pub(super) async fn shut_down<E: AgentExecutor>(shared: &Arc<Shared<E>>, grace: Duration) {
    let deadline = Instant::now() + grace;
    while shared.live.in_use().iter().any(|t| t.is_running()) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    if let Some(outbox) = &shared.outbox {
        // Notifications still queued are sent by the others, once they waited a lease's time.
        outbox.renew(None).await;
    }
    let (Some(leases), Some(feed)) = (&shared.leases, &shared.feed) else {
        return;
    };
    match shared.tasks.release_leases(&leases.holder).await {
        Ok(0) => {}
        Ok(n) => {
            tracing::info!(target: "a2a_agent::cluster", tasks = n, "gave back the leases of tasks still running");
            feed.send(Wakeup::Sweep);
        }
        Err(e) => {
            tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not give back the leases")
        }
    }
}
