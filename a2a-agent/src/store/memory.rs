use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::UnixTime;
use a2a_types::v1::{Task, TaskPushNotificationConfig};

use super::token;
use super::{
    Artifacts, History, Scope, StoreError, StoreFuture, Stored, TaskPage, TaskQuery, TaskStore,
    WriteWith,
};
use crate::lifecycle::is_terminal;

mod cap;
mod configs;
mod entry;
mod index;

use cap::Evictions;
use entry::Entry;
use index::{Bounds, Key, TenantIndex};

/// Tasks and push configs in this process's memory: both [`TaskStore`] and
/// [`PushConfigStore`](super::PushConfigStore).
///
/// Everything is lost when the process ends, and replicas do not share it: for tests, and
/// agents whose tasks may be forgotten on restart. It follows the same rules as the SQL stores
/// (versions, tenants, order, page tokens): one conformance suite runs against all of them.
///
/// One mutex guards the whole store; it is held only while a call moves data in or out (a
/// written task is copied before the lock is taken, and the entry it replaces dropped after it
/// is released), never across an `.await`, so a call's future completes on its first poll.
///
/// # Lists
///
/// Each tenant's tasks are indexed in list order: all of them and each owner's, and within those
/// by context and by state. A [`list_tasks`](TaskStore::list_tasks) page walks the index its
/// scope and filters name, from the page token's position down (and, with
/// `status_timestamp_after`, no lower than that time), and stops when the page is full: under
/// the lock, it costs the page, not the number of tasks stored. So does its `total_size` for a
/// query without a filter or with one of context and state. A query with both walks whichever
/// of the two has fewer tasks and checks the other; it, and a query with
/// `status_timestamp_after`, count their matches one by one: that costs the tasks of that
/// context or state, or those updated since that time, not the store. The indexes cost a few
/// hundred bytes per task, and make a write a few microseconds longer.
///
/// # A cap on the number of tasks
///
/// A [`MemoryStore::new`] keeps every task it is given until it is dropped or deleted
/// ([`delete_task`](TaskStore::delete_task); [`delete_ended`](TaskStore::delete_ended) takes the
/// terminal tasks older than a time, oldest first, at `O(log n)` each): its memory grows with
/// every task created. [`MemoryStore::with_max_tasks`] bounds it: at the cap, a create
/// first evicts the terminal task (completed, failed, canceled or rejected) whose last update is
/// the oldest, with its push configs, to make room. Tasks that are not terminal are never
/// evicted: when the store holds nothing but those, the create fails with [`StoreError::Full`]
/// and the store is left as it was.
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
    /// The cap of [`MemoryStore::with_max_tasks`]; `None`: no cap.
    max_tasks: Option<usize>,
}

#[derive(Debug, Default)]
struct Inner {
    /// By tenant.
    tenants: HashMap<String, Tenant>,
    /// How many tasks the tenants hold, together.
    len: usize,
    /// The terminal tasks, oldest last update first: the order a cap evicts them in, and
    /// retention deletes them in (see [`cap`]).
    terminal: Evictions,
    /// (tenant, task id), then config id: the config and its owner.
    configs: HashMap<(String, String), Configs>,
}

/// One tenant's tasks, by id, and their indexes.
#[derive(Debug)]
struct Tenant {
    /// The tenant's key, shared with the eviction order.
    name: Arc<str>,
    /// By id (the key's, shared with the indexes).
    tasks: HashMap<Arc<str>, Entry>,
    index: TenantIndex,
}

/// A task's push configs, by id: each config, its owner, and the version of the call that set it.
type Configs = BTreeMap<String, (TaskPushNotificationConfig, String, ProtocolVersion)>;

/// What a call took out of the store, to be freed once the lock is released: a task is
/// thousands of bytes, and freeing it need not keep every other call waiting.
#[derive(Default)]
struct Freed {
    entries: Vec<Entry>,
    configs: Vec<Configs>,
}

impl MemoryStore {
    /// An empty store, without a cap: it keeps every task until it is dropped.
    #[must_use]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// The scope's task, with the last `last` messages of its history (`None`: all).
    fn read(&self, scope: Scope<'_>, task_id: &str, last: Option<u32>) -> Option<Stored> {
        let inner = self.lock();
        inner
            .tenants
            .get(scope.tenant_key())
            .and_then(|tenant| tenant.tasks.get(task_id))
            .filter(|e| scope.sees(&e.owner))
            .map(|e| Stored {
                task: e.read(last, false),
                version: e.version,
                owner: e.owner.clone(),
            })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // No call panics while holding the lock. If one did, the worst a write cut short could
        // leave is an index entry without its task, which lists skip, or a task an index misses.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// [`TaskStore::list_tasks`], and how many index entries the call stepped through under the
    /// lock: what the tests count to show that a page costs the page, not the store.
    fn list(&self, scope: Scope<'_>, query: &TaskQuery) -> Result<(TaskPage, usize), StoreError> {
        let token = match query.page_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => Some(token::parse_task_token(t)?),
        };
        // Everything that allocates is done outside the lock: the bounds here, the token after.
        let bounds = Bounds::new(query.status_timestamp_after, token.as_ref());
        let page_size = query.page_size();
        let selection = self
            .lock()
            .select(scope, query, &bounds, page_size as usize);
        let page = TaskPage {
            tasks: selection.tasks,
            next_page_token: selection
                .next
                .map(|last| token::task_token(&last.sort_key())),
            page_size,
            total_size: selection.total as u64,
        };
        Ok((page, selection.visited))
    }
}

/// What [`Inner::select`] takes out for a page.
#[derive(Default)]
struct Selection {
    tasks: Vec<Task>,
    /// The key of the page's last task, when more tasks match after it.
    next: Option<Key>,
    /// How many tasks match, on every page.
    total: usize,
    /// How many index entries were stepped through, for the page and for its count.
    visited: usize,
}

impl Inner {
    /// One page of the scope's tasks that match `query`, within `bounds`.
    fn select(
        &self,
        scope: Scope<'_>,
        query: &TaskQuery,
        bounds: &Bounds,
        page_size: usize,
    ) -> Selection {
        let Some(tenant) = self.tenants.get(scope.tenant_key()) else {
            return Selection::default();
        };
        let Some(orders) = tenant.index.orders(scope.owner) else {
            return Selection::default();
        };
        let state = query.state.as_ref().map(|s| s.as_str());
        let Some(plan) = orders.plan(query.context_id.as_deref(), state, bounds.timed) else {
            return Selection::default();
        };
        // A key the plan does not vouch for is checked by the very test a whole scan made.
        let keep = |key: &Key| {
            plan.exact
                || tenant
                    .tasks
                    .get(&*key.id)
                    .is_some_and(|e| e.matches(scope, query))
        };

        let mut visited = 0;
        let mut page: Vec<&Key> = Vec::with_capacity(page_size + 1);
        // One more than the page: whether there is a next page.
        for key in plan.walk.newest_first(&bounds.lower, &bounds.upper) {
            visited += 1;
            if keep(key) {
                page.push(key);
                if page.len() > page_size {
                    break;
                }
            }
        }
        let more = page.len() > page_size;
        page.truncate(page_size);

        let total = if plan.exact && !bounds.timed {
            plan.len
        } else if !bounds.paged && !more {
            // A first page that holds every match has counted them.
            page.len()
        } else {
            // No counter covers this query: it names both a context and a state, or a time
            // (counting the keys above one in a B-tree walks them; an order-statistic tree
            // would not, at a cost on every write). So its matches are counted, on the fewest
            // candidates that hold them all and from the time bound up: this costs the number of
            // candidates, which a time filter asking what changed lately keeps small.
            let mut n = 0;
            for key in plan.walk.newest_first(&bounds.lower, &bounds.top) {
                visited += 1;
                if keep(key) {
                    n += 1;
                }
            }
            n
        };

        Selection {
            tasks: page
                .iter()
                .filter_map(|key| tenant.tasks.get(&*key.id))
                .map(|e| e.read(query.history_length, query.omit_artifacts))
                .collect(),
            next: more
                .then(|| page.last().map(|key| (*key).clone()))
                .flatten(),
            total,
            visited,
        }
    }

    /// Stores `entry` as a new task of `tenant`, evicting terminal tasks first when the store is
    /// at `max_tasks`.
    fn create(
        &mut self,
        tenant: &str,
        entry: Entry,
        max_tasks: Option<usize>,
        freed: &mut Freed,
    ) -> Result<u64, StoreError> {
        if self
            .tenants
            .get(tenant)
            .is_some_and(|t| t.tasks.contains_key(&*entry.key.id))
        {
            let task_id = entry.task.id.clone();
            freed.entries.push(entry);
            return Err(StoreError::Conflict {
                task_id,
                expected_version: None,
            });
        }
        if let Some(max_tasks) = max_tasks {
            if let Err(e) = self.make_room(max_tasks, freed) {
                freed.entries.push(entry);
                return Err(e);
            }
        }
        let tenant = match self.tenants.get_mut(tenant) {
            Some(t) => t,
            None => self
                .tenants
                .entry(tenant.to_owned())
                .or_insert_with(|| Tenant {
                    name: Arc::from(tenant),
                    tasks: HashMap::new(),
                    index: TenantIndex::default(),
                }),
        };
        tenant.index.insert(&entry.owner, &entry.facets());
        cap::file_if_terminal(&mut self.terminal, &entry, &tenant.name);
        tenant.tasks.insert(Arc::clone(&entry.key.id), entry);
        self.len += 1;
        Ok(1)
    }

    /// Writes `new` over the scope's task of its id, if that is at `expected_version` and not
    /// terminal.
    fn update(
        &mut self,
        scope: Scope<'_>,
        mut new: Entry,
        expected_version: u64,
        with: WriteWith<'_>,
        freed: &mut Freed,
    ) -> Result<u64, StoreError> {
        // A refused entry is freed with the others, outside the lock.
        let refuse = |e: StoreError, new: Entry, freed: &mut Freed| {
            freed.entries.push(new);
            Err(e)
        };
        let not_found = |new: &Entry| StoreError::NotFound {
            task_id: new.task.id.clone(),
        };
        let Some(tenant) = self.tenants.get_mut(scope.tenant_key()) else {
            return refuse(not_found(&new), new, freed);
        };
        let entry = match tenant.tasks.get_mut(new.task.id.as_str()) {
            Some(entry) if scope.sees(&entry.owner) => entry,
            _ => return refuse(not_found(&new), new, freed),
        };
        if is_terminal(&entry.task.status.state) {
            let e = StoreError::Terminal {
                task_id: new.task.id.clone(),
                state: entry.task.status.state.as_str().to_owned(),
            };
            return refuse(e, new, freed);
        }
        if entry.version != expected_version {
            let e = StoreError::Conflict {
                task_id: new.task.id.clone(),
                expected_version: Some(expected_version),
            };
            return refuse(e, new, freed);
        }
        // Set once the check passed: the expected version may be anything a caller sends,
        // u64::MAX included.
        new.version = expected_version + 1;
        new.owner = std::mem::take(&mut entry.owner);
        if with.history != History::Whole {
            // Moved, not copied: only the new messages are.
            let given = std::mem::take(&mut new.history);
            new.history = with
                .history
                .apply(std::mem::take(&mut entry.history), &given);
        }
        if with.artifacts != Artifacts::Whole {
            // The stored artifacts, moved, with the changed ones applied: a chunk is copied
            // once.
            let given = std::mem::take(&mut new.task.artifacts);
            let stored = std::mem::take(&mut entry.task.artifacts);
            new.task.artifacts = with.artifacts.apply(stored, &given);
        }
        let old = std::mem::replace(entry, new);
        tenant
            .index
            .update(&entry.owner, &old.facets(), &entry.facets());
        cap::file_if_terminal(&mut self.terminal, entry, &tenant.name);
        freed.entries.push(old);
        Ok(entry.version)
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
        ready(Ok(self.read(scope, task_id, None)))
    }

    fn get_task_recent<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        last: u32,
    ) -> StoreFuture<'a, Option<Stored>> {
        ready(Ok(self.read(scope, task_id, Some(last))))
    }

    fn appends_history(&self) -> bool {
        true
    }

    fn appends_artifacts(&self) -> bool {
        true
    }

    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64> {
        let entry = Entry::new(task, 1, scope.owner_key());
        let mut freed = Freed::default();
        let result = self
            .lock()
            .create(scope.tenant_key(), entry, self.max_tasks, &mut freed);
        // Evicted tasks and a refused entry are freed here, outside the lock.
        drop(freed);
        ready(result)
    }

    fn update_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> StoreFuture<'a, u64> {
        self.update_task_with(scope, task, expected_version, WriteWith::default())
    }

    fn update_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        // Built before the lock; its version and owner are set once the check passes.
        let new = Entry::new(task, 0, "");
        let mut freed = Freed::default();
        let result = self
            .lock()
            .update(scope, new, expected_version, with, &mut freed);
        // The replaced entry is freed here, outside the lock.
        drop(freed);
        ready(result)
    }

    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage> {
        ready(self.list(scope, query).map(|(page, _visited)| page))
    }

    fn delete_task<'a>(&'a self, scope: Scope<'a>, task_id: &'a str) -> StoreFuture<'a, bool> {
        let mut freed = Freed::default();
        let deleted = self.lock().delete(scope, task_id, &mut freed);
        drop(freed);
        ready(Ok(deleted))
    }

    fn delete_ended(&self, before: UnixTime, limit: u32) -> StoreFuture<'_, u64> {
        let mut freed = Freed::default();
        let deleted = self.lock().delete_ended(before, limit, &mut freed);
        drop(freed);
        ready(Ok(deleted))
    }
}

#[cfg(test)]
mod tests {
    //! The indexes against a scan: pages walked through them are those a filter and a sort of
    //! every task give, after random writes; and a page's work does not grow with the store.

    use a2a_types::rt::Timestamp;
    use a2a_types::v1::{TaskState, TaskStatus};
    use futures_util::FutureExt;

    use super::*;

    /// A memory store call's result: its futures are complete when returned.
    fn done<T>(f: StoreFuture<'_, T>) -> Result<T, StoreError> {
        f.now_or_never()
            .expect("a memory store future completes on its first poll")
    }

    /// SplitMix64: a fixed seed gives the same tasks and writes on every run, with no
    /// dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
            &items[self.below(items.len())]
        }
    }

    fn task(id: &str, context: Option<&str>, state: TaskState, time: Option<&str>) -> Task {
        Task {
            id: id.to_owned(),
            context_id: context.map(str::to_owned),
            status: TaskStatus {
                state,
                message: None,
                timestamp: time.map(Timestamp::new),
            },
            ..Default::default()
        }
    }

    const TENANTS: [&str; 2] = ["", "t1"];
    const OWNERS: [&str; 3] = ["o0", "o1", "o2"];
    const CONTEXTS: [Option<&str>; 5] = [None, Some("c0"), Some("c1"), Some("c2"), Some("c3")];
    const STATES: [TaskState; 6] = [
        TaskState::Submitted,
        TaskState::Working,
        TaskState::InputRequired,
        TaskState::Completed,
        TaskState::Failed,
        TaskState::Canceled,
    ];

    /// A task with random facets: times in 30 seconds of 2024 at half-second steps (many ties),
    /// and a few without a time or with one that does not parse (those sort by when they are
    /// written, after every other).
    fn random_task(rng: &mut Rng, id: &str) -> Task {
        let time = match rng.below(10) {
            0 => None,
            1 => Some("not a timestamp".to_owned()),
            _ => Some(format!(
                "2024-01-01T00:00:{:02}.{}Z",
                rng.below(30),
                5 * rng.below(2)
            )),
        };
        task(
            id,
            *rng.pick(&CONTEXTS),
            rng.pick(&STATES).clone(),
            time.as_deref(),
        )
    }

    /// Random creates and updates (about one in ten with a stale version), checked as they go
    /// against what the store must answer.
    fn random_writes(
        store: &MemoryStore,
        rng: &mut Rng,
        creates: usize,
        ids: &mut Vec<(usize, usize, String)>,
    ) {
        for _ in 0..creates {
            let (tenant, owner) = (rng.below(TENANTS.len()), rng.below(OWNERS.len()));
            let scope = Scope::tenant(Some(TENANTS[tenant])).owner(OWNERS[owner]);
            let id = format!("task-{}", ids.len());
            let new = random_task(rng, &id);
            match done(store.create_task(scope, &new)) {
                Ok(1) => ids.push((tenant, owner, id)),
                Err(StoreError::Full { .. }) => {
                    assert!(store.max_tasks.is_some_and(|max| store.lock().len == max));
                    assert!(store.lock().terminal.is_empty());
                }
                other => panic!("create {id}: {other:?}"),
            }
            // An update of a random task, most of the time.
            if rng.below(10) < 8 && !ids.is_empty() {
                let (tenant, owner, id) = ids[rng.below(ids.len())].clone();
                let scope = Scope::tenant(Some(TENANTS[tenant])).owner(OWNERS[owner]);
                let Some(stored) = done(store.get_task(scope, &id)).unwrap() else {
                    continue;
                };
                // Now and then the task is deleted instead.
                if rng.below(40) == 0 {
                    assert!(done(store.delete_task(scope, &id)).unwrap());
                    assert!(done(store.get_task(scope, &id)).unwrap().is_none());
                    continue;
                }
                let mut written = random_task(rng, &id);
                if rng.below(5) == 0 {
                    // The same facets: the indexes are left as they are.
                    written = stored.task.clone();
                    written.metadata = Some(serde_json::Map::new());
                }
                let stale = rng.below(10) == 0;
                let version = if stale {
                    stored.version - 1
                } else {
                    stored.version
                };
                let result = done(store.update_task(scope, &written, version));
                match result {
                    Ok(v) => assert!(!stale && v == stored.version + 1),
                    Err(StoreError::Terminal { .. }) => {
                        assert!(is_terminal(&stored.task.status.state));
                    }
                    Err(StoreError::Conflict { .. }) => assert!(stale),
                    Err(e) => panic!("update {id}: {e}"),
                }
            }
        }
    }

    /// Every index is the one the task maps give, the counts add up, and the eviction order
    /// holds every terminal task and nothing else.
    fn assert_indexes_consistent(store: &MemoryStore) {
        let inner = store.lock();
        let mut len = 0;
        let mut terminal = Evictions::new();
        for (name, tenant) in &inner.tenants {
            assert_eq!(&*tenant.name, name.as_str());
            assert!(!tenant.tasks.is_empty(), "an empty tenant is kept");
            let mut rebuilt = TenantIndex::default();
            for (id, entry) in &tenant.tasks {
                assert_eq!((&**id, id), (entry.task.id.as_str(), &entry.key.id));
                rebuilt.insert(&entry.owner, &entry.facets());
                if is_terminal(&entry.task.status.state) {
                    terminal.insert((entry.key.clone(), Arc::clone(&tenant.name)));
                }
            }
            len += tenant.tasks.len();
            assert!(
                rebuilt == tenant.index,
                "tenant {name:?}: the indexes drifted"
            );
        }
        assert_eq!(inner.len, len);
        assert!(store.max_tasks.is_none_or(|max| len <= max));
        assert!(inner.terminal == terminal, "the eviction order drifted");
    }

    /// What a list must answer: the old scan, a filter and a sort of every task of the tenant,
    /// below `upper`.
    fn scanned(
        store: &MemoryStore,
        scope: Scope<'_>,
        query: &TaskQuery,
        upper: Option<&Key>,
    ) -> (Vec<String>, usize) {
        let inner = store.lock();
        let mut matching: Vec<&Entry> = inner
            .tenants
            .get(scope.tenant_key())
            .map(|t| {
                t.tasks
                    .values()
                    .filter(|e| e.matches(scope, query))
                    .collect()
            })
            .unwrap_or_default();
        matching.sort_unstable_by(|a, b| b.key.cmp(&a.key));
        let total = matching.len();
        let ids = matching
            .into_iter()
            .filter(|e| upper.is_none_or(|u| e.key < *u))
            .map(|e| e.task.id.clone())
            .collect();
        (ids, total)
    }

    /// Every page of `query` (from `start`, a token, if any) against the scan.
    fn assert_pages_are_the_scan(
        store: &MemoryStore,
        scope: Scope<'_>,
        mut query: TaskQuery,
        start: Option<Key>,
    ) {
        query.page_token = start.as_ref().map(|k| token::task_token(&k.sort_key()));
        let (want, total) = scanned(store, scope, &query, start.as_ref());
        let page_size = query.page_size() as usize;
        let mut got: Vec<String> = Vec::new();
        loop {
            let (page, _) = store.list(scope, &query).unwrap();
            assert_eq!(page.total_size, total as u64, "{scope:?} {query:?}");
            got.extend(page.tasks.iter().map(|t| t.id.clone()));
            assert_eq!(
                got[..],
                want[..got.len().min(want.len())],
                "{scope:?} {query:?}"
            );
            match page.next_page_token {
                Some(token) => {
                    assert_eq!(page.tasks.len(), page_size);
                    query.page_token = Some(token);
                }
                None => break,
            }
        }
        assert_eq!(got, want, "{scope:?} {query:?}");
    }

    /// Each scope and filter combination, at random page sizes, from the first page and from a
    /// random task's position.
    fn assert_lists_are_the_scan(store: &MemoryStore, rng: &mut Rng) {
        let at = |s: &str| Some(Timestamp::new(s).parse().unwrap());
        let keys: Vec<Key> = {
            let inner = store.lock();
            inner
                .tenants
                .values()
                .flat_map(|t| t.tasks.values().map(|e| e.key.clone()))
                .collect()
        };
        for tenant in TENANTS {
            let every = Scope::tenant(Some(tenant));
            for scope in [
                every,
                every.owner("o0"),
                every.owner("o2"),
                every.owner("nobody"),
            ] {
                for context in [None, Some("c1"), Some("c9")] {
                    for state in [None, Some(TaskState::Working), Some(TaskState::Completed)] {
                        for after in [
                            None,
                            at("2024-01-01T00:00:20Z"),
                            at("2024-01-01T00:00:12.5Z"),
                            at("2999-01-01T00:00:00Z"),
                        ] {
                            let query = TaskQuery {
                                context_id: context.map(str::to_owned),
                                state: state.clone(),
                                status_timestamp_after: after,
                                requested_page_size: Some(1 + rng.below(100) as u32),
                                ..TaskQuery::default()
                            };
                            assert_pages_are_the_scan(store, scope, query.clone(), None);
                            if !keys.is_empty() {
                                let start = keys[rng.below(keys.len())].clone();
                                assert_pages_are_the_scan(store, scope, query, Some(start));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn indexed_pages_are_the_scan_after_random_writes() {
        let store = MemoryStore::new();
        let mut rng = Rng(0x5eed);
        let mut ids = Vec::new();
        for round in 0..3 {
            random_writes(&store, &mut rng, 1_000, &mut ids);
            assert_indexes_consistent(&store);
            assert_lists_are_the_scan(&store, &mut rng);
            // Ended tasks of the first seconds deleted by age, oldest first.
            let before: UnixTime = Timestamp::new("2024-01-01T00:00:05Z").parse().unwrap();
            let oldest = store.lock().terminal.first().cloned();
            let deleted = done(store.delete_ended(before, 10)).unwrap();
            assert!(deleted <= 10, "round {round}: {deleted}");
            if let Some((key, tenant)) = oldest.filter(|(k, _)| k.before(before)) {
                let scope = Scope::tenant(Some(&tenant));
                assert!(done(store.get_task(scope, &key.id)).unwrap().is_none());
            }
            assert_indexes_consistent(&store);
            assert_lists_are_the_scan(&store, &mut rng);
        }
        assert!(store.lock().len < 3_000, "some were deleted");
    }

    #[test]
    fn indexed_pages_are_the_scan_after_random_writes_and_evictions() {
        let store = MemoryStore::with_max_tasks(500);
        let mut rng = Rng(0xca9);
        let mut ids = Vec::new();
        for _ in 0..3 {
            random_writes(&store, &mut rng, 1_000, &mut ids);
            assert_indexes_consistent(&store);
            assert_lists_are_the_scan(&store, &mut rng);
        }
        assert_eq!(store.lock().len, 500);
    }

    /// How many index entries one page visits, for each kind of query, on a store of `n` tasks:
    /// two owners, four contexts, four states, each task newer than the one before.
    fn visits(n: usize) -> Vec<(&'static str, usize)> {
        let store = MemoryStore::new();
        let states = [
            TaskState::Working,
            TaskState::Completed,
            TaskState::InputRequired,
            TaskState::Failed,
        ];
        let time = |i: usize| format!("2024-01-01T00:00:00.{i:09}Z");
        for i in 0..n {
            let scope = Scope::default().owner(["alice", "bob"][i % 2]);
            let context = format!("c{}", (i / 8) % 4);
            let state = states[(i / 2) % 4].clone();
            let new = task(&format!("{i:08}"), Some(&context), state, Some(&time(i)));
            done(store.create_task(scope, &new)).unwrap();
        }
        let every = Scope::default();
        let alice = every.owner("alice");
        let query = |context: Option<&str>, state: Option<TaskState>| TaskQuery {
            context_id: context.map(str::to_owned),
            state,
            requested_page_size: Some(10),
            ..Default::default()
        };
        // The newest 100 tasks: 50 of alice's.
        let recent = TaskQuery {
            status_timestamp_after: Some(Timestamp::new(time(n - 100)).parse().unwrap()),
            ..query(None, None)
        };
        let cases = [
            ("every owner's", every, query(None, None), 10),
            ("an owner's", alice, query(None, None), 10),
            ("an owner's, by context", alice, query(Some("c1"), None), 10),
            (
                "an owner's, by state",
                alice,
                query(None, Some(TaskState::Working)),
                10,
            ),
            (
                "every owner's, by state",
                every,
                query(None, Some(TaskState::Failed)),
                10,
            ),
            (
                "every owner's, by context",
                every,
                query(Some("c3"), None),
                10,
            ),
            ("an owner's, updated lately", alice, recent, 3),
        ];
        cases
            .into_iter()
            .map(|(name, scope, mut query, page)| {
                for _ in 1..page {
                    let (before, _) = store.list(scope, &query).unwrap();
                    query.page_token = before.next_page_token;
                    assert!(query.page_token.is_some(), "{name}: no page {page}");
                }
                let (page, visited) = store.list(scope, &query).unwrap();
                assert_eq!(page.tasks.len(), 10, "{name}");
                (name, visited)
            })
            .collect()
    }

    #[test]
    fn a_page_visits_as_many_entries_at_100_000_tasks_as_at_1_000() {
        let small = visits(1_000);
        let large = visits(100_000);
        assert_eq!(small, large);
        for (name, visited) in small {
            // The page and the one after it that says there is a next page; the time-bounded
            // query also counts its 50 matches.
            let bound = if name.contains("lately") { 11 + 50 } else { 11 };
            assert_eq!(visited, bound, "{name}");
        }
    }
}
