use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use std::sync::{Mutex, MutexGuard};

use a2a_types::rt::UnixTime;
use a2a_types::v1::{Task, TaskPushNotificationConfig};

use super::token;
use super::{
    config_id_for, effective_page_size, status_time, stored_config, PushConfigPage,
    PushConfigStore, Scope, SortKey, StoreError, StoreFuture, Stored, TaskPage, TaskQuery,
    TaskStore,
};
use crate::lifecycle::is_terminal;

/// Tasks and push configs in this process's memory: both [`TaskStore`] and
/// [`PushConfigStore`].
///
/// Everything is lost when the process ends, and replicas do not share it: for tests, and
/// agents whose tasks may be forgotten on restart. It follows the same rules as the SQL stores
/// (versions, tenants, order, page tokens): one conformance suite runs against all of them.
///
/// One mutex guards the whole store; it is held only while a call moves data in or out (a
/// written task is copied before the lock is taken, and the entry it replaces dropped after it
/// is released), never across an `.await`, so a call's future completes on its first poll.
///
/// ```
/// use std::sync::Arc;
/// use a2a_agent::store::{MemoryStore, PushConfigStore, TaskStore};
///
/// let store = Arc::new(MemoryStore::new());
/// // One store behind both traits, as a request handler takes them.
/// let tasks: Arc<dyn TaskStore> = store.clone();
/// let configs: Arc<dyn PushConfigStore> = store;
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Tenant, then task id.
    tasks: HashMap<String, HashMap<String, Entry>>,
    /// (tenant, task id), then config id: the config and its owner.
    configs: HashMap<(String, String), BTreeMap<String, (TaskPushNotificationConfig, String)>>,
}

#[derive(Debug)]
struct Entry {
    task: Task,
    version: u64,
    owner: String,
    status_time: Option<UnixTime>,
    sort: SortKey,
}

impl Entry {
    fn new(task: &Task, version: u64, owner: &str) -> Entry {
        let status_time = status_time(task);
        Entry {
            sort: SortKey::of(task, status_time),
            task: task.clone(),
            version,
            owner: owner.to_owned(),
            status_time,
        }
    }

    fn matches(&self, scope: Scope<'_>, query: &TaskQuery) -> bool {
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

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // No call panics while holding the lock, but if one did, what it guards is still
        // whole: every change is made by one insert or one assignment.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A future that is already complete: the memory store does all of its work before returning.
fn ready<'a, T: Send + 'a>(result: Result<T, StoreError>) -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(result))
}

impl TaskStore for MemoryStore {
    fn get_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
    ) -> StoreFuture<'a, Option<Stored>> {
        let inner = self.lock();
        let found = inner
            .tasks
            .get(scope.tenant_key())
            .and_then(|tasks| tasks.get(task_id))
            .filter(|e| scope.sees(&e.owner))
            .map(|e| Stored {
                task: e.task.clone(),
                version: e.version,
                owner: e.owner.clone(),
            });
        ready(Ok(found))
    }

    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64> {
        let entry = Entry::new(task, 1, scope.owner_key());
        let mut inner = self.lock();
        let tasks = match inner.tasks.get_mut(scope.tenant_key()) {
            Some(tasks) => tasks,
            None => inner
                .tasks
                .entry(scope.tenant_key().to_owned())
                .or_default(),
        };
        match tasks.entry(task.id.clone()) {
            std::collections::hash_map::Entry::Occupied(_) => {
                drop(inner);
                ready(Err(StoreError::Conflict {
                    task_id: task.id.clone(),
                    expected_version: None,
                }))
            }
            std::collections::hash_map::Entry::Vacant(vacant) => {
                vacant.insert(entry);
                ready(Ok(1))
            }
        }
    }

    fn update_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> StoreFuture<'a, u64> {
        // Built before the lock; its version and owner are set once the check passes (the
        // expected version may be anything a caller sends, u64::MAX included).
        let mut new = Entry::new(task, 0, "");
        let mut inner = self.lock();
        let entry = inner
            .tasks
            .get_mut(scope.tenant_key())
            .and_then(|tasks| tasks.get_mut(&task.id))
            .filter(|e| scope.sees(&e.owner));
        let result = match entry {
            None => Err(StoreError::NotFound {
                task_id: task.id.clone(),
            }),
            Some(entry) if is_terminal(&entry.task.status.state) => Err(StoreError::Terminal {
                task_id: task.id.clone(),
                state: entry.task.status.state.as_str().to_owned(),
            }),
            Some(entry) if entry.version != expected_version => Err(StoreError::Conflict {
                task_id: task.id.clone(),
                expected_version: Some(expected_version),
            }),
            Some(entry) => {
                new.version = expected_version + 1;
                new.owner = std::mem::take(&mut entry.owner);
                Ok((new.version, std::mem::replace(entry, new)))
            }
        };
        drop(inner);
        // The replaced entry is freed here, outside the lock.
        ready(result.map(|(version, _old)| version))
    }

    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage> {
        let after = match query.page_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match token::parse_task_token(t) {
                Ok(key) => Some(key),
                Err(e) => return ready(Err(e)),
            },
        };
        let page_size = query.page_size();
        let inner = self.lock();
        let mut matching: Vec<&Entry> = inner
            .tasks
            .get(scope.tenant_key())
            .map(|tasks| tasks.values().filter(|e| e.matches(scope, query)).collect())
            .unwrap_or_default();
        let total_size = matching.len() as u64;
        matching.sort_unstable_by(|a, b| b.sort.cmp(&a.sort));
        let start = after.map_or(0, |after| matching.partition_point(|e| e.sort >= after));
        let rest = &matching[start..];
        let take = rest.len().min(page_size as usize);
        let next_page_token = (rest.len() > take).then(|| token::task_token(&rest[take - 1].sort));
        ready(Ok(TaskPage {
            tasks: rest[..take].iter().map(|e| e.task.clone()).collect(),
            next_page_token,
            page_size,
            total_size,
        }))
    }
}

impl PushConfigStore for MemoryStore {
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        let id = config_id_for(&config);
        let config = stored_config(config, scope.tenant, task_id, id.clone());
        let owner = scope.owner_key();
        let mut inner = self.lock();
        let configs = inner
            .configs
            .entry((scope.tenant_key().to_owned(), task_id.to_owned()))
            .or_default();
        match configs.get_mut(&id) {
            // Another owner's config of that id stays as it is.
            Some((_, other)) if other != owner => {}
            Some(slot) => slot.0 = config.clone(),
            None => {
                configs.insert(id, (config.clone(), owner.to_owned()));
            }
        }
        ready(Ok(config))
    }

    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let found = self
            .lock()
            .configs
            .get(&(scope.tenant_key().to_owned(), task_id.to_owned()))
            .and_then(|configs| configs.get(config_id))
            .filter(|(_, owner)| scope.sees(owner))
            .map(|(config, _)| config.clone());
        ready(Ok(found))
    }

    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage> {
        let after = match page_token.filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match token::parse_config_token(t) {
                Ok(id) => Some(id),
                Err(e) => return ready(Err(e)),
            },
        };
        let page_size = effective_page_size(page_size) as usize;
        let inner = self.lock();
        let Some(configs) = inner
            .configs
            .get(&(scope.tenant_key().to_owned(), task_id.to_owned()))
        else {
            return ready(Ok(PushConfigPage::default()));
        };
        let lower = match &after {
            Some(id) => Bound::Excluded(id.as_str()),
            None => Bound::Unbounded,
        };
        let mut page: Vec<&TaskPushNotificationConfig> = configs
            .range::<str, _>((lower, Bound::Unbounded))
            .filter(|(_, (_, owner))| scope.sees(owner))
            .map(|(_, (c, _))| c)
            .take(page_size + 1)
            .collect();
        let more = page.len() > page_size;
        page.truncate(page_size);
        let next_page_token = more
            .then(|| {
                page.last()
                    .and_then(|c| c.id.as_deref())
                    .map(token::config_token)
            })
            .flatten();
        ready(Ok(PushConfigPage {
            configs: page.into_iter().cloned().collect(),
            next_page_token,
        }))
    }

    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool> {
        let mut inner = self.lock();
        let key = (scope.tenant_key().to_owned(), task_id.to_owned());
        let Some(configs) = inner.configs.get_mut(&key) else {
            return ready(Ok(false));
        };
        let removed = match configs.get(config_id) {
            Some((_, owner)) if scope.sees(owner) => configs.remove(config_id).is_some(),
            _ => false,
        };
        if configs.is_empty() {
            inner.configs.remove(&key);
        }
        ready(Ok(removed))
    }
}
