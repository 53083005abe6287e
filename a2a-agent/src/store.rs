//! Task and push-notification-config stores.
//!
//! Two traits, [`TaskStore`] and [`PushConfigStore`], and their implementations:
//!
//! | store | feature | for |
//! |---|---|---|
//! | [`MemoryStore`] | (always) | tests, one process, tasks that may be lost on restart |
//! | `SqliteStore` | `sqlite` | one host: a file that survives restarts |
//! | `PostgresStore` | `postgres` | several replicas of one agent on one shared database |
//!
//! # Optimistic versioning
//!
//! Every stored task carries a version: [`TaskStore::create_task`] stores version 1, and each
//! [`TaskStore::update_task`] names the version it read and stores the next one, only if the stored
//! version is still the one it names; otherwise it fails with [`StoreError::Conflict`] and writes
//! nothing. A writer that gets `Conflict` reads the task again, applies its change to what it
//! reads, and retries. So two writers (two tasks in one process, or two replicas on one
//! database) never overwrite each other's change unseen: a lost update is impossible. The SQL
//! stores do the check and the write in one statement (`UPDATE ... SET ..., version = version + 1
//! WHERE tenant = $1 AND id = $2 AND version = $3`, then the affected row count), so it holds
//! across connections, pools and processes.
//!
//! ```
//! use a2a_agent::store::{MemoryStore, Scope, StoreError, TaskStore};
//! use a2a_types::v1::{Task, TaskState};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), StoreError> {
//! let store = MemoryStore::new();
//! let mut task = Task { id: "t-1".into(), ..Default::default() };
//! store.create_task(Scope::default(), &task).await?;
//!
//! // A read-modify-write that retries when another writer got there first.
//! loop {
//!     let current = store.get_task(Scope::default(), "t-1").await?.expect("created above");
//!     task = current.task;
//!     task.status.state = TaskState::Working;
//!     match store.update_task(Scope::default(), &task, current.version).await {
//!         Ok(_new_version) => break,
//!         Err(StoreError::Conflict { .. }) => continue, // someone else wrote: read again
//!         Err(e) => return Err(e),
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Tenants
//!
//! Every call is scoped by a tenant (`Option<&str>`, the requests' `tenant` field): a task or
//! config stored under one tenant is invisible under every other. `None` and `Some("")` are the
//! same default tenant (ProtoJSON leaves an empty `tenant` out, so the two cannot be told apart
//! on the wire).
//!
//! # Owners
//!
//! Every task and push config records its owner, the id of the caller that made it
//! ([`Caller::id`](a2a_types::rt::auth::Caller::id); `""` for the anonymous caller of an agent
//! without authentication). A call's [`Scope`] names a tenant and, usually, an owner: then it
//! sees only that owner's tasks and configs, in the store's query itself (a page of
//! [`TaskStore::list_tasks`] never holds another owner's rows, and its `total_size` counts only
//! theirs), and what it creates is theirs. A scope without an owner sees every owner's: the
//! request handler uses it for push delivery and for an [`AccessPolicy`](crate::AccessPolicy)
//! that widens a caller's view. Rows stored before owners were recorded belong to `""`.
//!
//! # Event logs
//!
//! The SQL stores keep each task's event log: the events the request handler applied to it, each
//! under the version of the task it made, written by [`TaskStore::create_task_with`] and
//! [`TaskStore::update_task_with`] in the same transaction as the task's new version. The
//! version is the log's sequence number: versions are one apart and a write of version `v + 1` is
//! refused until version `v` is stored, so a log read with [`TaskStore::events_after`] has no gap
//! and no duplicate, on any replica. It is what carries a task's live events from the replica that
//! runs it to the streams other replicas serve, and what a stream resumed with `Last-Event-ID`
//! reads. The memory store keeps none (its streams are all in its one process).
//!
//! # Leases
//!
//! The SQL stores also keep each task's execution lease: who runs it (a replica's id) and until
//! when, by the database's clock, so that a replica whose clock is off judges no lease wrongly.
//! A write that holds the lease ([`Lease::Hold`]) takes it when it is free, expired or already
//! the holder's, and renews it; one that ends the task gives it back ([`Lease::Release`]), as may
//! [`TaskStore::set_lease`];
//! both are refused with [`StoreError::Leased`] while another holder's lease runs. So of several
//! replicas, one runs a task at a time, and one whose lease was taken over writes nothing more.
//! A replica renews its leases with [`TaskStore::renew_leases`], and the tasks of one that stopped
//! are found with [`TaskStore::expired_leases`]. The memory store keeps none (one process).
//!
//! # Push outbox
//!
//! The SQL stores keep the notifications a task's push configs have still to be sent: a write
//! that logs an event with [`WriteWith::notify`] queues it once for each config the task has, in
//! the same transaction, so an event is never stored without its notifications, nor the other
//! way round. A queued notification names its event in the log (it is not a copy), and is
//! removed once sent ([`PushConfigStore::notification_sent`]). Who sends is decided per config
//! by a claim that expires by the database's clock, as a lease does:
//! [`PushConfigStore::claim_deliveries`] takes the configs of a task the replica just wrote, or
//! those whose notifications waited too long (their replica stopped), and only the holder sends
//! a config's notifications, oldest first. A replica renews its claims with
//! [`PushConfigStore::renew_deliveries`] and gives them back when it stops. It takes a task
//! store and a push config store with the same [`OutboxId`] (one SQL store used as both). The
//! memory store keeps none: its notifications go out from the process, and a restart loses
//! those not yet sent.
//!
//! Every store keeps the A2A version of the call that set each config
//! ([`PushConfigStore::set_push_config_from`]; read back by [`PushConfigStore::push_targets`] and
//! in [`Delivery::protocol`]): the version its notifications are sent in (see [`PushTarget`]).
//!
//! # Retention
//!
//! A store keeps a task until it is deleted: by [`TaskStore::delete_task`], or, for terminal
//! tasks last updated before a time, by [`TaskStore::delete_ended`] (what a request handler's
//! `delete_ended_tasks_after` runs). Either takes everything kept for the task with it, in one
//! transaction: its event log, push configs and queued notifications. Once a task has ended, its
//! event log is needed only by streams that are still catching up, so
//! [`TaskStore::trim_ended_logs`] cuts it down to its last event. The SQL stores find ended tasks
//! through an index of their own, so neither call reads the tasks that are still running or
//! were trimmed before.
//!
//! # History
//!
//! A task's history grows by a message or two with each exchange, and is read whole only by a
//! client that asks for it. So the stores of this crate keep it apart from the rest of the task
//! (the SQL stores a row per message, the memory store a list beside the task): a write that
//! says its task holds only the newest messages ([`History::Append`]) adds the new ones and
//! rewrites none, and [`TaskStore::get_task_recent`] reads only the last messages asked for.
//! An update costs the same on a task with ten thousand messages as on a new one. A store
//! that keeps a task as one value says so with [`TaskStore::appends_history`] (`false`, the
//! default), and is then given whole histories only.
//!
//! # Artifacts
//!
//! An agent may stream an artifact in chunks, each an artifact update with `append`, ten
//! thousand of them for a long answer. The stores of this crate keep artifacts apart from the
//! rest of the task too (the SQL stores a row per chunk, the memory store a list beside the
//! task it adds to): a write that says its task holds only what it changed
//! ([`Artifacts::Update`]) writes that chunk and nothing else, so N chunks write O(N) bytes in
//! all, not O(N^2). A read puts each artifact back together. A store that keeps a task as one
//! value says so with [`TaskStore::appends_artifacts`] (`false`, the default), and is then
//! given all of a task's artifacts with each write.
//!
//! # What the stores do not do
//!
//! A store keeps tasks as it is given them. Trimming `history` to a request's `historyLength`,
//! leaving out artifacts unless `includeArtifacts` (a [`TaskQuery`] carries both, so that a
//! store may read no more), checking that a task exists before a push config is set for it, and
//! the task lifecycle rules are the request handler's job.
//!
//! # Why boxed futures
//!
//! The traits are used as `Arc<dyn TaskStore>`, so they must be dyn-compatible, which an `async
//! fn` in a trait is not. Each method instead returns a [`StoreFuture`], a pinned, boxed, `Send`
//! future: what the `async-trait` macro would generate, written out so the signature is visible
//! in the docs and no proc-macro is needed. An implementation writes
//! `Box::pin(async move { ... })`. The cost, one allocation per call, is small beside a database
//! round trip.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use a2a_types::rt::UnixTime;
use a2a_types::v1::{StreamResponse, Task};

mod configs;
mod error;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
mod query;
mod scope;
mod sealed;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod sql;
#[cfg(feature = "sqlite")]
mod sqlite;
mod token;
mod write;

pub use configs::PushConfigStore;
use configs::{config_id_for, stored_config};
pub use error::StoreError;
pub use memory::MemoryStore;
#[cfg(feature = "postgres")]
pub use postgres::PostgresStore;
use query::effective_page_size;
pub use query::{PushConfigPage, PushTarget, QueryError, TaskPage, TaskQuery};
pub use scope::Scope;
pub use sealed::{KeyLengthError, SealedPushConfigs};
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) use sql::backend as backend_error;
#[cfg(feature = "sqlite")]
pub use sqlite::{Durability, SqliteStore};
pub use write::{
    Artifacts, Deliveries, Delivery, ExpiredLease, History, Lease, OutboxId, WriteWith,
};

/// The future every store method returns: boxed so the traits are dyn-compatible (see the
/// [module docs](self#why-boxed-futures)).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The page size of a list call that names none.
pub const DEFAULT_PAGE_SIZE: u32 = 50;

/// The largest page a list call returns; a larger page size is clamped to it.
pub const MAX_PAGE_SIZE: u32 = 100;

/// A task as stored, with the version an [`TaskStore::update_task`] of it must name.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The task, as it was last written.
    pub task: Task,
    /// Its version: 1 after [`TaskStore::create_task`], one more after each [`TaskStore::update_task`].
    pub version: u64,
    /// Its owner: the caller whose scope created it (see the [module docs](self#owners)).
    pub owner: String,
}

/// Where tasks are kept, with optimistic versioning (see the [module docs](self)).
///
/// Implementations must be atomic per call: a task is never seen half-written, and an update
/// either writes the whole task and the next version or nothing.
///
/// The methods name what they read or write (`get_task`, `set_push_config`), so a store that is
/// both a [`TaskStore`] and a [`PushConfigStore`], as every store of this crate is, is called
/// with plain method syntax whichever traits are in scope.
pub trait TaskStore: Send + Sync + 'static {
    /// The task `task_id` of the scope, with its version and owner, or `None` when it has none
    /// (another owner's task is `None` to a scope with an owner).
    fn get_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
    ) -> StoreFuture<'a, Option<Stored>>;

    /// Stores a new task under its `id`, at version 1 (returned), owned by the scope's owner.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] (with no `expected_version`) when the tenant already has a task
    /// with that id, whoever owns it; nothing is written then.
    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64>;

    /// Replaces the task with `task.id`, if its stored version is `expected_version`, and returns
    /// the new version (`expected_version + 1`).
    ///
    /// # Errors
    ///
    /// - [`StoreError::Terminal`] when the stored task is in a terminal state, whatever the
    ///   version: the check is part of the write itself, so no writer (another replica's late
    ///   execution included) moves a task out of a terminal state.
    /// - [`StoreError::Conflict`] when the stored version is another: someone wrote the task
    ///   since it was read. Read it again, reapply the change, retry.
    /// - [`StoreError::NotFound`] when the scope has no task with that id.
    fn update_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> StoreFuture<'a, u64>;

    /// One page of the scope's tasks that match `query`, newest first.
    ///
    /// **Order**: by last update time, descending, as A2A's ListTasks asks: the task's
    /// `status.timestamp` when it has one that parses, or else the time the store last wrote it
    /// (the clock of the process that wrote it). Tasks with the same time are ordered by id,
    /// descending, so the order is total and paging is deterministic.
    ///
    /// **Paging** is by cursor: the page token holds the position after the page's last task,
    /// so a task created or updated while a client pages is neither seen twice nor makes
    /// another skipped; one updated during paging moves to the front and may be missed by that
    /// pass (it was not missed by the one before). `total_size` counts every task that matches
    /// the filters, not only those after the cursor.
    ///
    /// # Errors
    ///
    /// [`StoreError::InvalidPageToken`] when `query.page_token` is not a token a store of this
    /// crate issued for a task list.
    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage>;

    /// The task `task_id` of the scope, as [`get_task`](TaskStore::get_task) reads it, but
    /// with only the last `last` messages of its history: what a request handler gives an
    /// executor, and a reply with a `historyLength` carries. A store that keeps histories apart
    /// (see the [module docs](self#history)) reads no more than that; by default the whole task
    /// is read and its history trimmed.
    ///
    /// # Errors
    ///
    /// As [`get_task`](TaskStore::get_task).
    fn get_task_recent<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        last: u32,
    ) -> StoreFuture<'a, Option<Stored>> {
        Box::pin(async move {
            let mut stored = self.get_task(scope, task_id).await?;
            if let Some(s) = stored.as_mut() {
                let len = s.task.history.len();
                s.task.history.drain(..len.saturating_sub(last as usize));
            }
            Ok(stored)
        })
    }

    /// Whether [`update_task_with`](TaskStore::update_task_with) takes a task that holds only
    /// its newest messages ([`History::Append`]; see the [module docs](self#history)): `false`
    /// unless a store says so, and then a request handler writes whole histories.
    fn appends_history(&self) -> bool {
        false
    }

    /// Whether [`update_task_with`](TaskStore::update_task_with) takes a task that holds only
    /// the artifacts the write changed ([`Artifacts::Update`]; see the
    /// [module docs](self#artifacts)): `false` unless a store says so, and then a request handler
    /// writes all of a task's artifacts with each write.
    fn appends_artifacts(&self) -> bool {
        false
    }

    /// Whether the store keeps each task's event log (see the [module docs](self#event-logs)):
    /// `false` unless a store says so, and then [`WriteWith::event`] is not written.
    fn keeps_events(&self) -> bool {
        false
    }

    /// Whether the store keeps execution leases (see the [module docs](self#leases)): `false`
    /// unless a store says so, and then [`WriteWith::lease`] is ignored.
    fn keeps_leases(&self) -> bool {
        false
    }

    /// The push outbox the store queues notifications in, for [`WriteWith::notify`] (see the
    /// [module docs](self#push-outbox)); `None` unless a store keeps one.
    fn outbox(&self) -> Option<OutboxId> {
        None
    }

    /// [`create_task`](TaskStore::create_task), and what `with` says in the same transaction:
    /// its event logged as the one that made version 1, the lease taken for its holder (a
    /// [`Lease::Release`] creates the task with no lease). A store without logs or leases only
    /// creates the task.
    ///
    /// # Errors
    ///
    /// As [`create_task`](TaskStore::create_task).
    fn create_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        let _ = with;
        self.create_task(scope, task)
    }

    /// [`update_task`](TaskStore::update_task), and what `with` says in the same transaction:
    /// the event logged as the one that made the new version, the lease held or given back, the
    /// new messages appended to the history ([`History::Append`]), the artifacts changed
    /// ([`Artifacts::Update`]). All of it is written or none. A store without logs or leases
    /// only updates the task (by default, a history to append to, or artifacts to change, are
    /// read, changed and written whole).
    ///
    /// # Errors
    ///
    /// As [`update_task`](TaskStore::update_task), and [`StoreError::Leased`] when `with` holds
    /// or releases the lease and another holder's lease has not expired.
    fn update_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        if with.history == History::Whole && with.artifacts == Artifacts::Whole {
            return self.update_task(scope, task, expected_version);
        }
        // A history to append to, or artifacts to change: the stored ones, read and written
        // whole.
        Box::pin(async move {
            let stored = self.get_task(scope, &task.id).await?;
            let stored = stored.ok_or_else(|| StoreError::NotFound {
                task_id: task.id.clone(),
            })?;
            let mut whole = task.clone();
            whole.history = with.history.apply(stored.task.history, &task.history);
            whole.artifacts = with.artifacts.apply(stored.task.artifacts, &task.artifacts);
            self.update_task(scope, &whole, expected_version).await
        })
    }

    /// The task's logged events that made the versions after `after`, oldest first, at most
    /// `limit` of them: empty when there are none, or when the store keeps no log. The caller
    /// has checked that the task is visible to it (the log has no owners).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the log cannot be read.
    fn events_after<'a>(
        &'a self,
        tenant: Option<&'a str>,
        task_id: &'a str,
        after: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LoggedEvent>> {
        let _ = (tenant, task_id, after, limit);
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    /// Takes or renews the task's lease ([`Lease::Hold`]) or gives it back ([`Lease::Release`]:
    /// only the holder's own; a lease it does not hold is left as it is), without writing the
    /// task: what a replica does around work that writes nothing first (a cancel). A store
    /// without leases does nothing, as does [`Lease::Ignore`].
    ///
    /// # Errors
    ///
    /// For [`Lease::Hold`]: [`StoreError::Leased`] while another holder's lease runs,
    /// [`StoreError::Terminal`] for a task that ended, [`StoreError::NotFound`] when the scope
    /// has no such task.
    fn set_lease<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        lease: Lease<'a>,
    ) -> StoreFuture<'a, ()> {
        let _ = (scope, task_id, lease);
        Box::pin(std::future::ready(Ok(())))
    }

    /// Renews every lease `holder` holds, to expire `ttl` from now by the database's clock (a
    /// replica's heartbeat), and returns how many it renewed. A store without leases renews none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn renew_leases<'a>(&'a self, holder: &'a str, ttl: Duration) -> StoreFuture<'a, u64> {
        let _ = (holder, ttl);
        Box::pin(std::future::ready(Ok(0)))
    }

    /// Expires every lease `holder` holds now (a replica that stops), so that a recovery sweep
    /// settles their tasks at once; returns how many. A store without leases expires none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn release_leases<'a>(&'a self, holder: &'a str) -> StoreFuture<'a, u64> {
        let _ = holder;
        Box::pin(std::future::ready(Ok(0)))
    }

    /// Up to `limit` tasks, of every tenant and owner, whose lease expired (by the database's
    /// clock) while they were running: not in a terminal state, and not waiting for input or
    /// authorization (such a task was settled by its execution, which stopped only after). The
    /// longest expired first. A store without leases has none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be read.
    fn expired_leases(&self, limit: u32) -> StoreFuture<'_, Vec<ExpiredLease>> {
        let _ = limit;
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    /// Deletes the scope's task `task_id` with all that is kept for it: its event log, and
    /// (in a store that keeps both) its push configs and their queued notifications. `true` when
    /// there was one (another owner's task is not there, to a scope with an owner). See the
    /// [module docs](self#retention).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn delete_task<'a>(&'a self, scope: Scope<'a>, task_id: &'a str) -> StoreFuture<'a, bool>;

    /// Deletes up to `limit` terminal tasks, of every tenant and owner, last updated (the time
    /// lists order by) before `before`, oldest first, each as
    /// [`delete_task`](TaskStore::delete_task) does; returns how many. A store that does not
    /// say otherwise deletes none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn delete_ended(&self, before: UnixTime, limit: u32) -> StoreFuture<'_, u64> {
        let _ = (before, limit);
        Box::pin(std::future::ready(Ok(0)))
    }

    /// Trims the event logs of the terminal tasks last updated in `from..to`: removes each
    /// logged event but the last (the one that ended the task) and those a push notification
    /// still waits for; returns how many. A store without logs removes none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn trim_ended_logs(&self, from: UnixTime, to: UnixTime) -> StoreFuture<'_, u64> {
        let _ = (from, to);
        Box::pin(std::future::ready(Ok(0)))
    }
}

/// One entry of a task's event log: the event, and the task version it made (see the
/// [module docs](self#event-logs)).
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedEvent {
    /// The version of the task once the event was applied: the log's sequence number.
    pub version: u64,
    /// The event, as the task's streams send it.
    pub event: StreamResponse,
}

/// The key of a tenant: `None` and `Some("")` are the default tenant, `""`.
fn tenant_key(tenant: Option<&str>) -> &str {
    tenant.unwrap_or("")
}

/// Where a task sorts in a list: its last update time (see [`TaskStore::list_tasks`]) and its id,
/// all descending.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct SortKey {
    seconds: i64,
    nanos: u32,
    id: String,
}

impl SortKey {
    /// The key of `task` written now.
    fn of(task: &Task, status_time: Option<UnixTime>) -> SortKey {
        let time = status_time.unwrap_or_else(now);
        SortKey {
            seconds: time.seconds,
            nanos: time.nanos,
            id: task.id.clone(),
        }
    }
}

/// The task's status timestamp, when it has one that parses.
fn status_time(task: &Task) -> Option<UnixTime> {
    task.status.timestamp.as_ref().and_then(|t| t.parse().ok())
}

/// This process's clock, as a [`UnixTime`].
fn now() -> UnixTime {
    a2a_types::rt::Timestamp::now()
        .parse()
        .expect("Timestamp::now writes a timestamp that parses")
}
