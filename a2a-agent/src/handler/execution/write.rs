//! How an execution writes its task: optimistically, over the version it last wrote, never over
//! a task that ended meanwhile, logging its events and holding its lease where the store keeps
//! them.

use a2a_types::v1::{StreamResponse, Task};
use std::sync::Arc;

use super::super::fanout::catch_up;
use super::super::live::Published;
use super::Execution;
use crate::cluster::Wakeup;
use crate::executor::AgentExecutor;
use crate::lifecycle::{
    apply, is_terminal, new_task, stamp_event, without_artifacts, InvalidEvent,
};
use crate::store::{Artifacts, History, Lease, Scope, StoreError, WriteWith};

/// How many of its task's newest messages an execution keeps once they are stored, with a store
/// that appends histories (see [`Execution::hold_recent`]).
pub(in crate::handler) const HELD_HISTORY: usize = 20;

impl<E: AgentExecutor> Execution<E> {
    /// Notes a store failure (the first one is what the caller is told) and says it.
    pub(super) fn store_failed(&mut self, e: StoreError) -> String {
        let reason = format!("the task store failed: {e}");
        self.store_failure
            .get_or_insert_with(|| super::super::errors::store_error(e));
        reason
    }

    /// Drops the oldest messages of `task`'s history beyond the handler's cap, if it has one.
    pub(super) fn cap_history(&self, task: &mut Task) {
        if let Some(max) = self.shared.max_history {
            let len = task.history.len();
            if len > max {
                task.history.drain(..len - max);
            }
        }
    }

    /// What a write of `task`, whose change added `added` messages to its history, says of it:
    /// with a store that appends histories, only those are new (the task holds the newest
    /// messages only, and the store caps the history); with another, `task` holds the whole
    /// history, capped here.
    fn history_of(&self, task: &mut Task, added: usize) -> History {
        match self.shared.tasks.appends_history() {
            true => History::Append {
                new: u32::try_from(added).unwrap_or(u32::MAX),
                keep: self
                    .shared
                    .max_history
                    .map(|m| u32::try_from(m).unwrap_or(u32::MAX)),
            },
            false => {
                self.cap_history(task);
                History::Whole
            }
        }
    }

    /// Keeps only the newest messages in the task this execution holds, when the store holds
    /// them all: what is copied with each write stays the same size however many the execution
    /// adds. The others move to `older`, as far as the caller's reply needs them.
    fn hold_recent(&mut self) {
        if !self.shared.tasks.appends_history() {
            return;
        }
        if let Some(task) = self.task.as_mut() {
            let len = task.history.len();
            self.older
                .extend(task.history.drain(..len.saturating_sub(HELD_HISTORY)));
        }
        if let Some(reply) = self.reply_history {
            let len = self.older.len();
            self.older.drain(..len.saturating_sub(reply as usize));
        }
    }

    /// A new task, from its first event: made from the message, the event applied, stored (and
    /// kept as this execution's task) with its lease, the event logged when the store keeps a
    /// log (and then returned).
    pub(super) async fn create(
        &mut self,
        task_id: &str,
        context_id: &str,
        event: &StreamResponse,
    ) -> Result<Option<StreamResponse>, String> {
        // The message is needed no more once its task exists.
        let message = self.message.take().unwrap_or_default();
        let mut task = new_task(task_id, context_id, &message);
        apply(&mut task, event).map_err(|e| format!("the agent broke the protocol: {e}"))?;
        self.cap_history(&mut task);
        let shared = Arc::clone(&self.shared);
        let logged = shared
            .tasks
            .keeps_events()
            .then(|| stamp_event(event.clone(), &task));
        let lease = shared.lease_for(&task, self.returned);
        let with = WriteWith {
            event: logged.as_ref(),
            lease,
            notify: shared.outbox.is_some(),
            history: History::Whole,
            artifacts: Artifacts::Whole,
        };
        self.live.writing(true);
        let created = shared
            .tasks
            .create_task_with(self.scope(), &task, with)
            .await;
        self.version = created.map_err(|e| {
            self.live.writing(false);
            self.store_failed(e)
        })?;
        self.holds_lease = matches!(lease, Lease::Hold { .. });
        // The task as it opened, sent once it is stored (a caller who reads it from the stream
        // finds it), as version 0: the one before the first event's, so that a stream resumed
        // after it gets every logged event.
        self.live.publish(Some(0), || {
            StreamResponse::Task(new_task(task_id, context_id, &message))
        });
        self.announce(task_id);
        self.added_history += task.history.len();
        self.task = Some(task);
        self.hold_recent();
        Ok(logged)
    }

    /// Applies `change` to this execution's task (as it last wrote it) and writes it over that
    /// version, with `event_of` the written task logged as the event that made it (when the
    /// store keeps a log: then it is returned, and the other replicas told), and the lease held,
    /// or given back once the task settles. When another writer got there first (another
    /// replica, on a shared store), the stored task is read again and the change applied to it,
    /// so no update is lost: optimistic versioning, a bounded number of times. The task as
    /// written becomes this execution's; on an error it stays the one last written.
    ///
    /// When the task ended meanwhile (a cancel served by another replica), the store refuses the
    /// write ([`StoreError::Terminal`]); when another replica took the lease over
    /// ([`StoreError::Leased`]), too. Then the task as stored becomes this execution's, its live
    /// streams are sent it, and the error ends the execution with that task as its outcome.
    ///
    /// With a store that keeps artifacts apart, `change` is applied to the task without its
    /// artifacts, and `artifacts` says what it left in them: the artifacts it changed
    /// ([`Artifacts::Update`], what is written; none for a change that touches none), or all of
    /// them ([`Artifacts::Whole`]). The execution's task keeps them all, each change applied
    /// in place, so that a chunk is copied and written once.
    pub(super) async fn write(
        &mut self,
        change: &(dyn Fn(&mut Task) -> Result<(), InvalidEvent> + Sync),
        event_of: &(dyn Fn(&Task) -> StreamResponse + Sync),
        artifacts: Artifacts,
    ) -> Result<Option<StreamResponse>, String> {
        const ATTEMPTS: usize = 8;
        let apart = self.shared.tasks.appends_artifacts();
        let artifacts = if apart { artifacts } else { Artifacts::Whole };
        let copy = |t: &Task| {
            if apart {
                without_artifacts(t)
            } else {
                t.clone()
            }
        };
        let Some(mut task) = self.task.as_ref().map(copy) else {
            return Err("no task to write".to_owned());
        };
        let (tenant, owner) = (self.tenant.clone(), self.owner.clone());
        let scope = Scope::tenant(tenant.as_deref()).owner(&owner);
        let shared = Arc::clone(&self.shared);
        let tasks = &shared.tasks;
        let logs = tasks.keeps_events();
        let mut version = self.version;
        for _ in 0..ATTEMPTS {
            let before = task.history.len();
            change(&mut task).map_err(|e| format!("the agent broke the protocol: {e}"))?;
            let added = task.history.len().saturating_sub(before);
            let history = self.history_of(&mut task, added);
            let logged = logs.then(|| self.whole_event(event_of(&task), &task, artifacts));
            let lease = shared.lease_for(&task, self.returned);
            let with = WriteWith {
                event: logged.as_ref(),
                lease,
                notify: shared.outbox.is_some(),
                history,
                artifacts,
            };
            self.live.writing(true);
            let written = tasks.update_task_with(scope, &task, version, with).await;
            if written.is_err() {
                self.live.writing(false);
            }
            match written {
                Ok(written) => {
                    self.version = written;
                    self.holds_lease = matches!(lease, Lease::Hold { .. });
                    self.announce(&task.id);
                    self.added_history += added;
                    if artifacts != Artifacts::Whole {
                        // Those the execution holds, with this write's applied in place.
                        let held = self.task.take().map(|t| t.artifacts).unwrap_or_default();
                        task.artifacts = artifacts.apply(held, &task.artifacts);
                    }
                    self.task = Some(task);
                    self.hold_recent();
                    return Ok(logged);
                }
                Err(StoreError::Conflict { .. }) => {
                    // With a store that appends histories, the task without its history: the
                    // change adds to what is stored; what the reply carries is read apart.
                    let appends = tasks.appends_history();
                    let stored = match (appends, self.reply_history) {
                        (true, reply) => {
                            let last = reply.unwrap_or(u32::MAX);
                            tasks.get_task_recent(scope, &task.id, last).await
                        }
                        (false, _) => tasks.get_task(scope, &task.id).await,
                    };
                    let stored = stored
                        .map_err(|e| self.store_failed(e))?
                        .ok_or_else(|| format!("task `{}` is no longer stored", task.id))?;
                    (task, version) = (stored.task, stored.version);
                    if appends {
                        self.older = std::mem::take(&mut task.history);
                    }
                    if apart {
                        // The artifacts as stored are held; the change applies to the rest.
                        if let Some(held) = self.task.as_mut() {
                            held.artifacts = std::mem::take(&mut task.artifacts);
                        }
                    }
                }
                Err(StoreError::Terminal { task_id, state }) => {
                    self.adopt_stored(scope, &task_id).await?;
                    return Err(format!(
                        "task `{task_id}` ended meanwhile ({state}); the agent's update was not kept"
                    ));
                }
                Err(StoreError::Leased { task_id, holder }) => {
                    // The task as stored, for whoever tries again; its events are the other
                    // replica's to send.
                    self.lost_lease = true;
                    if let Ok(Some(stored)) = tasks.get_task(scope, &task_id).await {
                        (self.task, self.version) = (Some(stored.task), stored.version);
                        self.older.clear();
                    }
                    return Err(format!(
                        "task `{task_id}` was taken over by `{holder}`; the agent's update was not \
                         kept"
                    ));
                }
                Err(e) => return Err(self.store_failed(e)),
            }
        }
        self.contended = true;
        Err(format!(
            "task `{}` was written by others {ATTEMPTS} times in a row; the update was given up",
            task.id
        ))
    }

    /// Makes the task as stored, which another replica ended, this execution's, and sends it to
    /// the live streams (unless its log got there first).
    pub(super) async fn adopt_stored(
        &mut self,
        scope: Scope<'_>,
        task_id: &str,
    ) -> Result<(), String> {
        let stored = self
            .shared
            .tasks
            .get_task(scope, task_id)
            .await
            .map_err(|e| self.store_failed(e))?;
        if let Some(stored) = stored {
            let ended = stored.task;
            self.send_live(Some(stored.version), || StreamResponse::Task(ended.clone()));
            (self.task, self.version) = (Some(ended), stored.version);
            self.older.clear();
        }
        Ok(())
    }

    /// Sends an event to the task's live streams; when other replicas' events came before it
    /// and are not sent yet, they and it are read from the log instead.
    pub(super) fn send_live(&self, version: Option<u64>, event: impl FnOnce() -> StreamResponse) {
        if self.live.publish(version, event) == Published::Gap {
            let (live, tasks) = (Arc::clone(&self.live), Arc::clone(&self.shared.tasks));
            tokio::spawn(catch_up(live, tasks));
        }
    }

    /// Whether the task as stored has ended, written by another replica; then it is this
    /// execution's. (A wake-up that finds it still going, or the store unreadable, is ignored.)
    pub(super) async fn ended_elsewhere(&mut self) -> bool {
        let Some(id) = self.task.as_ref().map(|t| t.id.clone()) else {
            return false;
        };
        let (tenant, owner) = (self.tenant.clone(), self.owner.clone());
        let scope = Scope::tenant(tenant.as_deref()).owner(&owner);
        match self.shared.tasks.get_task(scope, &id).await {
            Ok(Some(stored)) if is_terminal(&stored.task.status.state) => {
                (self.task, self.version) = (Some(stored.task), stored.version);
                self.older.clear();
                true
            }
            _ => false,
        }
    }

    /// Tells the other replicas that the task's log grew, when there are any.
    pub(super) fn announce(&self, task_id: &str) {
        if let Some(feed) = &self.shared.feed {
            feed.send(Wakeup::task(self.tenant.as_deref(), task_id));
        }
    }

    /// A `Task` event with a history, to apply to a task whose execution holds only its newest
    /// messages (a store that appends histories): the event without the messages the store
    /// holds among those the executor was given and those added since, which `apply` would not
    /// find in the task and add again. `None` for any other event (it is applied as it is).
    pub(super) async fn new_messages_of(&self, event: &StreamResponse) -> Option<StreamResponse> {
        let StreamResponse::Task(sent) = event else {
            return None;
        };
        let task = self.task.as_ref()?;
        if sent.history.is_empty() || !self.shared.tasks.appends_history() {
            return None;
        }
        let last = self.given_history.saturating_add(self.added_history);
        let last = u32::try_from(last).unwrap_or(u32::MAX);
        let read = self
            .shared
            .tasks
            .get_task_recent(self.scope(), &task.id, last);
        let stored = read.await.ok().flatten()?.task.history;
        let mut sent = sent.clone();
        sent.history
            .retain(|m| !stored.iter().any(|s| s.message_id == m.message_id));
        Some(StreamResponse::Task(sent))
    }
}
