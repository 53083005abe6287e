//! One stored task of the memory store: the task without its history, the history beside it,
//! and what the indexes file it under.

use a2a_types::rt::UnixTime;
use a2a_types::v1::{Message, Task};

use super::index::{Facets, Key};
use crate::store::{status_time, Scope, SortKey, TaskQuery};

#[derive(Debug)]
pub(super) struct Entry {
    /// The task without its history, which is kept apart: a write that appends to it copies
    /// only the new messages (see `store`'s docs, "History").
    pub(super) task: Task,
    pub(super) history: Vec<Message>,
    pub(super) version: u64,
    pub(super) owner: String,
    pub(super) status_time: Option<UnixTime>,
    pub(super) key: Key,
}

impl Entry {
    pub(super) fn new(task: &Task, version: u64, owner: &str) -> Entry {
        let status_time = status_time(task);
        let mut task = task.clone();
        let history = std::mem::take(&mut task.history);
        Entry {
            key: Key::of(&SortKey::of(&task, status_time)),
            task,
            history,
            version,
            owner: owner.to_owned(),
            status_time,
        }
    }

    /// The task, with the last `last` messages of its history (all of them: `None`), and its
    /// artifacts unless `omit_artifacts` (then they are not copied).
    pub(super) fn read(&self, last: Option<u32>, omit_artifacts: bool) -> Task {
        let skip = last.map_or(0, |n| self.history.len().saturating_sub(n as usize));
        let mut task = match omit_artifacts {
            true => crate::lifecycle::without_artifacts(&self.task),
            false => self.task.clone(),
        };
        task.history = self.history[skip..].to_vec();
        task
    }

    pub(super) fn facets(&self) -> Facets<'_> {
        Facets {
            key: &self.key,
            context: self.task.context_id.as_deref(),
            state: self.task.status.state.as_str(),
            dated: self.status_time.is_some(),
        }
    }

    pub(super) fn matches(&self, scope: Scope<'_>, query: &TaskQuery) -> bool {
        scope.sees(&self.owner)
            && query
                .context_id
                .as_ref()
                .is_none_or(|c| self.task.context_id.as_ref() == Some(c))
            && query
                .state
                .as_ref()
                .is_none_or(|s| self.task.status.state.as_str() == s.as_str())
            && query
                .status_timestamp_after
                .is_none_or(|after| self.status_time.is_some_and(|t| t >= after))
    }
}
