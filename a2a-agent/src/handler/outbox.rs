//! Push delivery through the store's outbox, for replicas (see `store`'s docs, "Push outbox"):
//! the write that logs an event queues its notifications, and this replica then claims the
//! task's configs and sends what is queued, oldest first, one config at a time per claim. The
//! heartbeat renews the claims; the recovery sweep takes over those whose notifications waited
//! longer than a lease (their replica stopped, or lost the claim); a stopping replica gives its
//! claims back. A notification is removed once sent, or once the sender gave up after its last
//! attempt (the retry rules are the sender's), so delivery is at least once: a replica that
//! stops between the send and the removal leaves it to be sent again. Each carries its event's
//! sequence number (`X-A2A-Event-Id`), by which a receiver drops one it already had.
//!
//! A config set over 0.3 gets the task as it stands instead of each event (0.3's shape, see
//! `PushTarget`): what is queued for it at a time is sent as one notification, the task read
//! when it is sent, numbered with the newest of those events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use a2a_types::rt::version::ProtocolVersion;

use super::pushes::task_v0_3;
use crate::push::PushSender;
use crate::store::{Deliveries, Delivery, LoggedEvent, PushConfigStore, Scope, TaskStore};

/// How many notifications of one config are read at a time, and how many configs a sweep
/// claims at most.
const BATCH: u32 = 32;

/// A config's key: tenant, task, config id.
type Key = (String, String, String);

/// This replica's side of the outbox.
pub(super) struct Outbox {
    store: Arc<dyn PushConfigStore>,
    /// Where a 0.3 config's task is read.
    tasks: Arc<dyn TaskStore>,
    sender: PushSender,
    /// The replica's id: its claims' holder.
    pub(super) holder: String,
    /// How long a claim lasts unrenewed, and how long a notification waits before another
    /// replica takes it over: the lease's time to live.
    pub(super) ttl: Duration,
    /// The configs this replica sends now; `true` when they were claimed again meanwhile (more
    /// is queued: look again before stopping).
    running: Mutex<HashMap<Key, bool>>,
}

impl Outbox {
    pub(super) fn new(
        store: Arc<dyn PushConfigStore>,
        tasks: Arc<dyn TaskStore>,
        sender: PushSender,
        holder: String,
        ttl: Duration,
    ) -> Outbox {
        Outbox {
            store,
            tasks,
            sender,
            holder,
            ttl,
            running: Mutex::new(HashMap::new()),
        }
    }

    fn running(&self) -> MutexGuard<'_, HashMap<Key, bool>> {
        // Each change is one map call: a panic elsewhere leaves the map whole.
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends what the task has queued (this replica just wrote one of its events), on a task of
    /// its own: the caller does not wait.
    pub(super) fn kick(self: &Arc<Self>, tenant: Option<&str>, task_id: &str) {
        let this = Arc::clone(self);
        let (tenant, task_id) = (tenant.map(str::to_owned), task_id.to_owned());
        tokio::spawn(async move {
            let which = Deliveries::Task {
                tenant: tenant.as_deref(),
                task_id: &task_id,
            };
            this.claim(which).await;
        });
    }

    /// Takes over what waited too long (the recovery sweep).
    pub(super) async fn sweep(self: &Arc<Self>) {
        let older_than = self.ttl;
        self.claim(Deliveries::Stale { older_than }).await;
    }

    /// Renews this replica's claims (`Some`), or gives them all back.
    pub(super) async fn renew(&self, ttl: Option<Duration>) {
        if let Err(e) = self.store.renew_deliveries(&self.holder, ttl).await {
            tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not renew or give back the push deliveries");
        }
    }

    async fn claim(self: &Arc<Self>, which: Deliveries<'_>) {
        match self
            .store
            .claim_deliveries(&self.holder, self.ttl, which, BATCH)
            .await
        {
            Ok(claimed) => claimed.into_iter().for_each(|d| self.start(d)),
            Err(e) => {
                tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not claim push deliveries")
            }
        }
    }

    /// Sends the config's queued notifications, unless this replica does already (then that
    /// sender looks again before it stops).
    fn start(self: &Arc<Self>, delivery: Delivery) {
        let key = (
            delivery.tenant.clone(),
            delivery.task_id.clone(),
            delivery.config_id.clone(),
        );
        {
            let mut running = self.running();
            if let Some(again) = running.get_mut(&key) {
                *again = true;
                return;
            }
            running.insert(key.clone(), false);
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let mut guard = Running {
                outbox: &this,
                key: Some(key),
            };
            if !this.send_queued(&delivery, &mut guard).await {
                return;
            }
            // Given back while still marked running here, so that a claim of this replica
            // made meanwhile is not undone unseen: one made meanwhile is made again.
            if let Err(e) = this.store.release_delivery(&delivery, &this.holder).await {
                tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not give back a push delivery");
            }
            if guard.finish() {
                let tenant = Some(delivery.tenant.as_str());
                this.kick(tenant, &delivery.task_id);
            }
        });
    }

    /// Sends until nothing is queued; `true` when it ended so (then the claim is given back),
    /// `false` on a store error (the claim stays, renewed, and the sweep takes it up again).
    async fn send_queued(&self, delivery: &Delivery, guard: &mut Running<'_>) -> bool {
        loop {
            let queued = match self.store.queued_notifications(delivery, BATCH).await {
                Ok(queued) => queued,
                Err(e) => {
                    tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not read the push outbox");
                    return false;
                }
            };
            if queued.is_empty() {
                if guard.again() {
                    continue;
                }
                return true;
            }
            if delivery.protocol == ProtocolVersion::V0_3 {
                if !self.send_task_v0_3(delivery, &queued).await {
                    return false;
                }
                continue;
            }
            for logged in queued {
                // A failure after the last attempt was logged by the sender; the notification
                // is given up, as the dispatcher gives it up.
                let _ = self
                    .sender
                    .deliver_numbered(&delivery.config, &logged.event, logged.version, None)
                    .await;
                if !self.sent(delivery, logged.version).await {
                    return false;
                }
            }
        }
    }
}

impl Outbox {
    /// Sends a 0.3 config what `queued` asks for: one notification, the task as it stands
    /// (none when the task is gone), then clears them all; `false` on a store error.
    async fn send_task_v0_3(&self, delivery: &Delivery, queued: &[LoggedEvent]) -> bool {
        let scope = Scope::tenant(Some(&delivery.tenant));
        let Ok(task) = task_v0_3(&*self.tasks, scope, &delivery.task_id).await else {
            return false;
        };
        // Queued oldest first (`queued_notifications`).
        let newest = queued.last().map(|logged| logged.version);
        if let (Some(task), Some(newest)) = (task, newest) {
            let _ = self
                .sender
                .deliver_notification(&delivery.config, &task, Some(newest), None)
                .await;
        }
        for logged in queued {
            if !self.sent(delivery, logged.version).await {
                return false;
            }
        }
        true
    }

    /// Clears a notification sent (or given up); `false` on a store error.
    async fn sent(&self, delivery: &Delivery, version: u64) -> bool {
        match self.store.notification_sent(delivery, version).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not clear a sent push notification");
                false
            }
        }
    }
}

/// A config this replica sends: removed from the running ones when its sender ends, however it
/// ends.
struct Running<'a> {
    outbox: &'a Outbox,
    key: Option<Key>,
}

impl Running<'_> {
    /// Whether the config was claimed again since last asked (more may be queued), and clears
    /// that.
    fn again(&mut self) -> bool {
        let mut running = self.outbox.running();
        let again = self.key.as_ref().and_then(|key| running.get_mut(key));
        again.is_some_and(std::mem::take)
    }

    /// No longer running; `true` when it was claimed again since last asked.
    fn finish(&mut self) -> bool {
        let key = self.key.take();
        key.and_then(|key| self.outbox.running().remove(&key))
            .unwrap_or(false)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}
