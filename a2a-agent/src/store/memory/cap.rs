//! The memory store's cap on the number of tasks (which task a create evicts to stay under it),
//! and its deletions (of one task, and of ended tasks by age).
//!
//! The store keeps its terminal tasks in an eviction order ([`Evictions`]): oldest last update
//! first, each with its tenant. A create at the cap pops the head of that order until there is
//! room ([`Inner::make_room`]), and a deletion by age pops it while its head is old enough
//! ([`Inner::delete_ended`]). Only terminal tasks are filed there: they are written no more, so
//! the place a task is filed at is final and the order never needs fixing up; and a task that is
//! not terminal is never evicted.

use std::collections::BTreeSet;
use std::sync::Arc;

use a2a_types::rt::UnixTime;

use super::super::{Scope, StoreError};
use super::index::Key;
use super::{Entry, Freed, Inner, MemoryStore};
use crate::lifecycle::is_terminal;

/// The terminal tasks of a capped store, oldest last update first (by list key: status time,
/// then id), and their tenants: the order of eviction.
pub(super) type Evictions = BTreeSet<(Key, Arc<str>)>;

/// Files `entry`, a task of `tenant` just created or written, in the eviction order when it is
/// terminal. An update refuses a terminal task, so its key is final: it is filed once, and never
/// needs moving.
pub(super) fn file_if_terminal(order: &mut Evictions, entry: &Entry, tenant: &Arc<str>) {
    if is_terminal(&entry.task.status.state) {
        order.insert((entry.key.clone(), Arc::clone(tenant)));
    }
}

impl MemoryStore {
    /// An empty store that holds at most `max_tasks` tasks (of all tenants together).
    ///
    /// At the cap, [`create_task`](super::super::TaskStore::create_task) makes room by evicting
    /// the terminal task (completed, failed, canceled or rejected) with the oldest last update
    /// (the time [`list_tasks`](super::super::TaskStore::list_tasks) orders by), and the push
    /// configs set for it; each eviction costs `O(log n)`. A task that is not terminal is never
    /// evicted: when none is terminal, the create fails with [`StoreError::Full`] and nothing is
    /// written or evicted. An evicted task is gone as if it had never been: reads do not find it,
    /// lists do not show it, and its id may be created again. Updates never evict (they do not
    /// add a task), and a cap of 0 refuses every create.
    ///
    /// Pick the cap from the memory the process may use (a task costs its JSON size, roughly,
    /// plus a few hundred bytes of indexes) and from how long a finished task must stay
    /// readable: under a steady load, a terminal task survives about `max_tasks` creates.
    ///
    /// # Examples
    ///
    /// ```
    /// use a2a_agent::store::{MemoryStore, Scope, StoreError, TaskStore};
    /// use a2a_types::v1::{Task, TaskState, TaskStatus};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), StoreError> {
    /// let store = MemoryStore::with_max_tasks(2);
    /// let scope = Scope::default();
    /// let task = |id: &str, state| Task {
    ///     id: id.into(),
    ///     status: TaskStatus { state, ..Default::default() },
    ///     ..Default::default()
    /// };
    /// store.create_task(scope, &task("done", TaskState::Completed)).await?;
    /// store.create_task(scope, &task("running", TaskState::Working)).await?;
    ///
    /// // Full: the completed task makes room for the new one.
    /// store.create_task(scope, &task("new", TaskState::Submitted)).await?;
    /// assert!(store.get_task(scope, "done").await?.is_none());
    ///
    /// // Full of tasks that are not terminal: the create is refused.
    /// let refused = store.create_task(scope, &task("one-more", TaskState::Submitted)).await;
    /// assert!(matches!(refused, Err(StoreError::Full { max_tasks: 2 })));
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    pub fn with_max_tasks(max_tasks: usize) -> MemoryStore {
        MemoryStore {
            max_tasks: Some(max_tasks),
            ..MemoryStore::default()
        }
    }
}

impl Inner {
    /// Evicts terminal tasks, oldest first, until the store holds fewer than `max_tasks`;
    /// [`StoreError::Full`] when none is left to evict. A capped store never holds more than
    /// `max_tasks`, so this evicts one task at most: a refused create leaves the store as it was.
    pub(super) fn make_room(
        &mut self,
        max_tasks: usize,
        freed: &mut Freed,
    ) -> Result<(), StoreError> {
        while self.len >= max_tasks {
            if !self.evict_oldest_terminal(freed) {
                return Err(StoreError::Full { max_tasks });
            }
        }
        Ok(())
    }

    /// Evicts the terminal task with the oldest last update, and its push configs; `false` when
    /// there is none.
    fn evict_oldest_terminal(&mut self, freed: &mut Freed) -> bool {
        let Some((key, tenant_name)) = self.terminal.pop_first() else {
            return false;
        };
        self.remove(&tenant_name, &key.id, freed);
        true
    }

    /// Deletes the scope's task `task_id` and its push configs; `false` when the scope has none.
    pub(super) fn delete(&mut self, scope: Scope<'_>, task_id: &str, freed: &mut Freed) -> bool {
        let tenant = scope.tenant_key();
        let found = self.tenants.get(tenant).and_then(|t| t.tasks.get(task_id));
        let Some(entry) = found.filter(|e| scope.sees(&e.owner)) else {
            return false;
        };
        if is_terminal(&entry.task.status.state) {
            let filed = (entry.key.clone(), Arc::from(tenant));
            self.terminal.remove(&filed);
        }
        self.remove(tenant, task_id, freed);
        true
    }

    /// Deletes up to `limit` terminal tasks last updated before `before`, oldest first, with
    /// their push configs; returns how many.
    pub(super) fn delete_ended(&mut self, before: UnixTime, limit: u32, freed: &mut Freed) -> u64 {
        let mut deleted = 0;
        while deleted < u64::from(limit) {
            match self.terminal.first() {
                Some((key, _)) if key.before(before) => {}
                _ => break,
            }
            if let Some((key, tenant)) = self.terminal.pop_first() {
                self.remove(&tenant, &key.id, freed);
                deleted += 1;
            }
        }
        deleted
    }

    /// Takes task `task_id` of `tenant` out of the tasks, the indexes and the configs (not out
    /// of the eviction order: the caller did).
    fn remove(&mut self, tenant_name: &str, task_id: &str, freed: &mut Freed) {
        if let Some(tenant) = self.tenants.get_mut(tenant_name) {
            if let Some(entry) = tenant.tasks.remove(task_id) {
                tenant.index.remove(&entry.owner, &entry.facets());
                self.len = self.len.saturating_sub(1);
                freed.entries.push(entry);
            }
            if tenant.tasks.is_empty() {
                self.tenants.remove(tenant_name);
            }
        }
        let configs_key = (tenant_name.to_owned(), task_id.to_owned());
        if let Some(configs) = self.configs.remove(&configs_key) {
            freed.configs.push(configs);
        }
    }
}
