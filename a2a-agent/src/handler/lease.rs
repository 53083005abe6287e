//! Execution leases: one execution per task across replicas (see `store`'s docs, "Leases").
//!
//! With an event feed and a store that keeps leases, each execution holds its task's lease:
//! taken by the write that creates the task or accepts a message, renewed by every write and by
//! the replica's heartbeat, given back by the write that ends the task, or once the execution
//! that left it waiting for input has returned. A message for a task
//! another replica runs waits for that replica's lease to be given back, woken by the task's
//! wake-ups; a cancel is sent to the replica that runs the task, whose execution runs the
//! executor's cancel, and waits for the task to end. Only when the lease expires (its replica
//! stopped) does another replica take the task: the recovery sweep fails it, or a waiting cancel
//! runs the executor's cancel itself.

use std::time::Duration;

use a2a_types::v1::{ServiceError, Task};
use tokio::time::Instant;

use super::errors::{store_error, task_is_terminal};
use super::live::LiveTask;
use super::Shared;
use crate::cluster::Wakeup;
use crate::lifecycle::{is_settled, is_terminal};
use crate::store::{Lease, Scope, StoreError};

/// How long a lease lasts without a write or a heartbeat, unless set.
pub const DEFAULT_LEASE_TTL: Duration = Duration::from_secs(30);

/// How often a call waiting for another replica's lease tries again, at the longest, when no
/// wake-up comes (one may be lost: the feed reconnected).
pub(super) const LEASE_RETRY: Duration = Duration::from_millis(500);

/// This replica's leases: who holds them, and for how long each write or heartbeat takes one.
pub(super) struct Leases {
    pub(super) holder: String,
    pub(super) ttl: Duration,
}

/// Whether the lease came to this replica, or why not.
pub(super) enum Taken {
    /// This replica holds the lease now.
    Held,
    /// The task ended meanwhile (the stored task).
    Ended,
}

impl<E> Shared<E> {
    /// What a write of `task`, as it will be stored, does with its lease: holds it while the
    /// execution runs, gives it back once the task ends (no one may take it over then), or once
    /// it waits for input and the executor has `returned` (before that, the execution gives it
    /// back when it ends: the next message's executor must not start beside this one's);
    /// nothing without leases.
    pub(super) fn lease_for(&self, task: &Task, returned: bool) -> Lease<'_> {
        let state = &task.status.state;
        match &self.leases {
            None => Lease::Ignore,
            Some(l) if is_terminal(state) || (returned && is_settled(state)) => {
                Lease::Release { holder: &l.holder }
            }
            Some(l) => Lease::Hold {
                holder: &l.holder,
                ttl: l.ttl,
            },
        }
    }

    /// Takes the task's lease for this replica without writing the task (for a cancel, whose
    /// work writes nothing first), waiting (at most the execution timeout) while another
    /// replica's runs; `ask` is sent to the other replicas at each try (a cancel asks the holder
    /// to cancel). Without leases it is held at once. (A message takes it with the write that
    /// accepts it.)
    pub(super) async fn take_lease(
        &self,
        live: &LiveTask,
        scope: Scope<'_>,
        task_id: &str,
        ask: Option<Wakeup>,
    ) -> Result<Taken, ServiceError> {
        let Some(leases) = &self.leases else {
            return Ok(Taken::Held);
        };
        let deadline = Instant::now() + self.timeout;
        loop {
            // Registered before the try: a wake-up between the two is not missed.
            let changed = live.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let hold = Lease::Hold {
                holder: &leases.holder,
                ttl: leases.ttl,
            };
            let held = self.tasks.set_lease(scope, task_id, hold).await;
            match held {
                Ok(()) => return Ok(Taken::Held),
                Err(StoreError::Terminal { .. }) => return Ok(Taken::Ended),
                Err(StoreError::Leased { holder, .. }) => {
                    if let (Some(feed), Some(ask)) = (&self.feed, &ask) {
                        feed.send(ask.clone());
                    }
                    if Instant::now() >= deadline {
                        return Err(ServiceError::internal(format!(
                            "task `{task_id}` is still run by replica `{holder}` after {:?}",
                            self.timeout
                        )));
                    }
                    let wait = LEASE_RETRY.min(deadline.saturating_duration_since(Instant::now()));
                    let _ = tokio::time::timeout(wait, changed).await;
                }
                Err(e) => return Err(store_error(e)),
            }
        }
    }
}

impl<E> Shared<E> {
    /// Gives back the task's lease, if this replica holds it: after an execution that left the
    /// task waiting, or a cancel the agent did not carry out.
    pub(super) async fn give_back_lease(&self, scope: Scope<'_>, task_id: &str) {
        if let Some(leases) = &self.leases {
            let release = Lease::Release {
                holder: &leases.holder,
            };
            let _ = self.tasks.set_lease(scope, task_id, release).await;
            if let Some(feed) = &self.feed {
                feed.send(Wakeup::task(scope.tenant, task_id));
            }
        }
    }
}

/// The error of a message that waited for a task which ended meanwhile: as if it had come after.
pub(super) fn ended_while_waiting(task: &Task) -> ServiceError {
    task_is_terminal(task, "a terminal task takes no more messages")
}
