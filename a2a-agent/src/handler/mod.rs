//! [`RequestHandler`]: the generated v1 service trait over an [`AgentExecutor`] and the stores,
//! keeping the spec's task lifecycle.
//!
//! In rooms, each with one job:
//!
//! - this module: the handler, its builder, and what its executions share ([`Shared`]);
//! - `service`: the `A2aService` implementation, one method per method of the spec;
//! - `execution`: one execution of the executor on one task (events applied, stored, sent);
//! - `live`: the registry of the tasks this process uses now (locks, live events, cancels);
//! - `fanout`: live events written by other replicas, read from the task's log;
//! - `lease`: one execution per task across replicas;
//! - `recovery`: the heartbeat of this replica's leases, and the settling of a stopped one's tasks;
//! - `outbox`: push delivery from the store's outbox, for replicas;
//! - `pushes`: the push-config methods' checks (screening, the cap per task, the scope);
//! - `retention`: ended tasks deleted by age, and their event logs trimmed;
//! - `stream`: a task's live events as a call's stream;
//! - `errors`: the errors the handler answers with.

use crate::cluster::EventFeed;
use crate::executor::AgentExecutor;
use crate::push::PushDispatcher;
use crate::store::{MemoryStore, PushConfigStore, PushTarget, Scope, TaskStore, MAX_PAGE_SIZE};
use a2a_types::rt::telemetry::TraceContext;
use a2a_types::rt::version::ProtocolVersion;
#[cfg(doc)]
use a2a_types::v1::A2aService;
use a2a_types::v1::AgentCard;
use a2a_types::v1::StreamResponse;
use std::sync::Arc;
use std::time::Duration;

mod driver;
mod errors;
mod execution;
mod fanout;
mod history;
mod lease;
mod live;
mod outbox;
mod pushes;
mod recovery;
mod retention;
mod service;
#[cfg(feature = "server")]
mod serving;
mod stream;
mod traced;

pub use lease::DEFAULT_LEASE_TTL;
use live::LiveTasks;
pub use retention::DEFAULT_LOG_RETENTION;

/// How long an execution may run before its task is failed, unless set.
pub const DEFAULT_EXECUTION_TIMEOUT: Duration = Duration::from_secs(300);

/// How many streams (`SendStreamingMessage`, `SubscribeToTask`) a handler serves at once, unless
/// set: as many as the server's default connection cap.
pub const DEFAULT_MAX_STREAMS: usize = 10_000;

/// How many of a task's latest messages an executor is given by default (see
/// [`RequestHandlerBuilder::executor_history`]).
pub const DEFAULT_EXECUTOR_HISTORY: u32 = 100;

/// How long a stream may go without an event before the handler ends it, unless set.
pub const DEFAULT_STREAM_IDLE: Duration = Duration::from_secs(3600);

/// The request handler: implements [`A2aService`] for A2A v1 over an [`AgentExecutor`] and a
/// [`TaskStore`] (and a [`PushConfigStore`] when push notifications are on), keeping the task
/// lifecycle of the spec (§3, §3.4, §4), as the official TCK checks it:
///
/// - `SendMessage` / `SendStreamingMessage`: a message without `taskId` starts a task (its id
///   fresh, its `contextId` the message's or fresh); one with `taskId` continues that task
///   (`TaskNotFound` when there is none; a `contextId` other than the task's is refused;
///   a terminal task refuses with `UnsupportedOperation`). The executor answers with a direct
///   `Message` (no task is kept) or the task's events, applied in order and stored; a blocking
///   call returns at a terminal or interrupted state, a `returnImmediately` one when the task
///   exists; a stream begins with the Task and ends at a terminal or interrupted state.
///   `historyLength` trims the replies' history (absent: all, 0: none, n: the last n).
///   Before any of that, [`AgentExecutor::admit`] may refuse the message with an error of its
///   own, which is the call's answer (no task created or changed, no stream begun).
/// - `GetTask`, `ListTasks` (filters and page tokens of the store; artifacts only with
///   `includeArtifacts`), `CancelTask` (`TaskNotCancelable` for a terminal task),
///   `SubscribeToTask` (the current Task first, then the live events, to the end of the
///   execution; `UnsupportedOperation` for a terminal task; with `Last-Event-ID`, on a store
///   that keeps event logs, the events after that one instead, as a stream resumed).
/// - Every streamed event of a task carries its version as its SSE `id` when the store keeps
///   event logs.
/// - Push-notification configs (CRUD, the URL screened before it is kept) and delivery of every
///   event of a task that has configs; the extended card when one is configured.
///
/// Messages to one task are served one at a time (an execution holds the task until it
/// settles), so concurrent calls never lose an update; across replicas the store's version
/// check does the same. Live events (streams, subscriptions) reach the calls served by the same
/// process, and, with an [event feed](RequestHandlerBuilder::event_feed), those of every other
/// replica (see [`cluster`](crate::cluster)).
///
/// ```
/// use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
/// use a2a_types::v1::A2aServer;
///
/// struct Done;
/// impl AgentExecutor for Done {
///     async fn execute(&self, _cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
///         task.complete(Some(task.text_message("done"))).await
///     }
/// }
///
/// let handler = RequestHandler::builder(Done).build(); // in memory, no push notifications
/// let server = A2aServer::new(handler); // for a2a_types::rt::server::AgentRouter
/// # drop(server);
/// ```
pub struct RequestHandler<E> {
    shared: Arc<Shared<E>>,
}

/// What the handler and its executions share.
struct Shared<E> {
    executor: E,
    tasks: Arc<dyn TaskStore>,
    pushes: Option<Arc<dyn PushConfigStore>>,
    dispatcher: Option<PushDispatcher>,
    extended_card: Option<AgentCard>,
    timeout: Duration,
    live: Arc<LiveTasks>,
    policy: Option<Arc<dyn crate::AccessPolicy>>,
    max_history: Option<usize>,
    /// How many of a task's latest messages the executor is given; `None`: all.
    executor_history: Option<u32>,
    /// The other replicas' announcements, when there are other replicas.
    feed: Option<Arc<dyn EventFeed>>,
    /// This replica's leases, with a feed and a store that keeps leases.
    leases: Option<lease::Leases>,
    /// Push delivery from the store's outbox: with leases, and the push configs kept in the
    /// task store's outbox.
    outbox: Option<Arc<outbox::Outbox>>,
    /// What is kept of ended tasks.
    retention: retention::Retention,
    /// The streams served now, the most at once, and how long one may go without an event.
    streams: Arc<std::sync::atomic::AtomicUsize>,
    max_streams: usize,
    stream_idle: Option<Duration>,
    /// The most push configs one task may have.
    max_push_configs: usize,
    /// Whether [`RequestHandler::router`] serves A2A 0.3 too.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    serve_v0_3: bool,
    /// Set once the background tasks run (the feed heard, the leases kept, retention): when
    /// built in a runtime, or else on the first use of a task.
    started: std::sync::Once,
    /// Told to look for expired leases now (another replica stopped).
    sweep_now: tokio::sync::Notify,
}

/// Builds a [`RequestHandler`]: the executor, then the stores and options.
pub struct RequestHandlerBuilder<E> {
    executor: E,
    tasks: Option<Arc<dyn TaskStore>>,
    pushes: Option<(Arc<dyn PushConfigStore>, PushDispatcher)>,
    extended_card: Option<AgentCard>,
    timeout: Duration,
    policy: Option<Arc<dyn crate::AccessPolicy>>,
    max_history: Option<usize>,
    executor_history: Option<u32>,
    feed: Option<Arc<dyn EventFeed>>,
    lease_ttl: Duration,
    delete_ended_after: Option<Duration>,
    log_retention: Duration,
    max_streams: usize,
    stream_idle: Option<Duration>,
    max_push_configs: usize,
    serve_v0_3: bool,
}

impl<E: AgentExecutor> RequestHandler<E> {
    /// A builder for a handler running `executor`.
    pub fn builder(executor: E) -> RequestHandlerBuilder<E> {
        RequestHandlerBuilder {
            executor,
            tasks: None,
            pushes: None,
            extended_card: None,
            timeout: DEFAULT_EXECUTION_TIMEOUT,
            policy: None,
            max_history: None,
            executor_history: Some(DEFAULT_EXECUTOR_HISTORY),
            feed: None,
            lease_ttl: DEFAULT_LEASE_TTL,
            delete_ended_after: None,
            log_retention: DEFAULT_LOG_RETENTION,
            max_streams: DEFAULT_MAX_STREAMS,
            stream_idle: Some(DEFAULT_STREAM_IDLE),
            max_push_configs: MAX_PAGE_SIZE as usize,
            serve_v0_3: true,
        }
    }
}

impl<E: AgentExecutor> RequestHandlerBuilder<E> {
    /// Where tasks are kept (a [`MemoryStore`] unless set).
    pub fn task_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.tasks = Some(store);
        self
    }

    /// Turns push notifications on: configs are kept in `store`, and every event of a task
    /// with configs goes out through `dispatcher`. A config's URL is screened with the
    /// dispatcher's policy before it is kept (and again by the sender before each call).
    pub fn push_notifications(
        mut self,
        store: Arc<dyn PushConfigStore>,
        dispatcher: PushDispatcher,
    ) -> Self {
        self.pushes = Some((store, dispatcher));
        self
    }

    /// The card `GetExtendedAgentCard` answers with (unset: `ExtendedAgentCardNotConfigured`).
    pub fn extended_card(mut self, card: AgentCard) -> Self {
        self.extended_card = Some(card);
        self
    }

    /// What a caller may see beyond its own tasks (unset: only its own; see
    /// [`AccessPolicy`](crate::AccessPolicy)).
    pub fn access_policy(mut self, policy: impl crate::AccessPolicy) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// How long one execution may run before its task is failed ([`DEFAULT_EXECUTION_TIMEOUT`]).
    pub fn execution_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Keeps at most `max` messages (at least 1) in a task's stored history: each write drops
    /// the oldest beyond it, so a task that goes on for many turns stays the same size. Without
    /// it (the default) the history grows with every message.
    pub fn max_history(mut self, max: usize) -> Self {
        self.max_history = Some(max.max(1));
        self
    }

    /// Gives the executor at most the `last` latest messages of a continued task's history in
    /// [`TaskContext::task`](crate::TaskContext::task) (`None`: the whole history). The default,
    /// [`DEFAULT_EXECUTOR_HISTORY`] (100), keeps the cost of a message the same however long
    /// its task's history has grown: the stores of this crate then read only those messages
    /// (see [`store`](crate::store#history)). An agent that needs more reads the task from its
    /// store, or sets a larger window and pays for it on each message.
    pub fn executor_history(mut self, last: Option<u32>) -> Self {
        self.executor_history = last;
        self
    }

    /// Serves as one of several replicas on one database: `feed` tells this handler which
    /// tasks the others wrote, and the others which tasks this one wrote (see
    /// [`cluster`](crate::cluster)). Then a `SubscribeToTask` or a stream on this replica gets
    /// the events another replica writes, from the task's event log, and a cancel served on
    /// another replica stops the execution running here. The task store must keep event logs
    /// (the SQL stores do). Without a feed (the default) live events reach only the calls this
    /// process serves.
    pub fn event_feed(mut self, feed: Arc<dyn EventFeed>) -> Self {
        self.feed = Some(feed);
        self
    }

    /// How long a replica's lease on a task it runs lasts without a write or a heartbeat
    /// ([`DEFAULT_LEASE_TTL`]): how long after a replica stops its tasks are settled by another.
    /// The heartbeat renews the leases every third of it. Used with an
    /// [event feed](Self::event_feed) only.
    pub fn lease_ttl(mut self, ttl: Duration) -> Self {
        self.lease_ttl = ttl.max(Duration::from_millis(300));
        self
    }

    /// Deletes each terminal task (completed, failed, canceled, rejected) `age` after its last
    /// update, with its event log, push configs and queued notifications: a background task
    /// looks every tenth of `age` (between 100 ms and a minute). Without it (the default) a task
    /// is kept until it is deleted ([`TaskStore::delete_task`]) or, in a capped
    /// [`MemoryStore`], evicted. A deleted task is `TaskNotFound`, as if it had never been.
    ///
    /// ```
    /// # use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
    /// # struct Done;
    /// # impl AgentExecutor for Done {
    /// #     async fn execute(&self, _: TaskContext, t: TaskUpdater) -> Result<(), ExecutorError> {
    /// #         t.complete(None).await
    /// #     }
    /// # }
    /// use std::time::Duration;
    ///
    /// let handler = RequestHandler::builder(Done)
    ///     .delete_ended_tasks_after(Duration::from_secs(7 * 24 * 3600)) // a week
    ///     .build();
    /// ```
    pub fn delete_ended_tasks_after(mut self, age: Duration) -> Self {
        self.delete_ended_after = Some(age);
        self
    }

    /// How long after a task ends its event log is kept whole ([`DEFAULT_LOG_RETENTION`]):
    /// then it is trimmed to its last event (and those a push notification still waits for).
    /// Until then a stream resumed with `Last-Event-ID` gets the events it missed; after, the
    /// task as it ended. Used with an [event feed](Self::event_feed) only (without one no log is
    /// written).
    pub fn log_retention(mut self, age: Duration) -> Self {
        self.log_retention = age;
        self
    }

    /// Serves at most `max` streams (`SendStreamingMessage` and `SubscribeToTask` together) at
    /// once ([`DEFAULT_MAX_STREAMS`]); one more is refused before it begins (no task started)
    /// with a temporary error: `InternalError` over JSON-RPC and HTTP 503 with `Retry-After`
    /// over HTTP+JSON, both with a `google.rpc.RetryInfo`. A stream's place is freed when it
    /// ends or its client goes away.
    pub fn max_streams(mut self, max: usize) -> Self {
        self.max_streams = max;
        self
    }

    /// Ends a stream that goes `idle` without an event ([`DEFAULT_STREAM_IDLE`]; `None`: never),
    /// with the same temporary error as [`max_streams`](Self::max_streams): its client
    /// subscribes again, with `Last-Event-ID` to resume after the last event it got. A stalled
    /// task holds no stream forever.
    pub fn stream_idle_timeout(mut self, idle: Option<Duration>) -> Self {
        self.stream_idle = idle;
        self
    }

    /// Keeps at most `max` push configs per task (1 to 100; 100 unless set), counting every
    /// caller's: `CreateTaskPushNotificationConfig` of one more is refused with
    /// `InvalidParams` naming the cap (replacing a config of the same id is not one more).
    pub fn max_push_configs_per_task(mut self, max: usize) -> Self {
        self.max_push_configs = max.clamp(1, MAX_PAGE_SIZE as usize);
        self
    }

    /// Whether the handler's router (`RequestHandler::router`, feature `server`) serves A2A 0.3
    /// beside 1.0: on unless turned off. On, because most clients in the field still speak 0.3,
    /// and a request without `A2A-Version` is 0.3 (spec §3.6): off, they are all refused with
    /// `VersionNotSupported`. It costs a 1.0 caller nothing (0.3 requests alone go through the
    /// conversions; the card only gains members 1.0 clients skip); a 0.3 caller pays for the
    /// conversion of its params and replies. Turn it off for an agent
    /// that must only speak 1.0.
    pub fn v0_3(mut self, on: bool) -> Self {
        self.serve_v0_3 = on;
        self
    }

    /// The handler.
    pub fn build(self) -> RequestHandler<E> {
        let tasks = self
            .tasks
            .unwrap_or_else(|| Arc::new(MemoryStore::new()) as Arc<dyn TaskStore>);
        // Every store call in a span of its own (free when no one listens).
        let tasks: Arc<dyn TaskStore> = Arc::new(traced::TracedTasks(tasks));
        let (pushes, dispatcher) = match self.pushes {
            Some((store, dispatcher)) => (
                Some(Arc::new(traced::TracedPushConfigs(store)) as Arc<dyn PushConfigStore>),
                Some(dispatcher),
            ),
            None => (None, None),
        };
        // Several replicas: events logged and leases held, where the store keeps them.
        let logged = self.feed.is_some() && tasks.keeps_events();
        let leases = match &self.feed {
            Some(feed) if tasks.keeps_leases() => Some(lease::Leases {
                holder: feed.replica_id().to_owned(),
                ttl: self.lease_ttl,
            }),
            _ => None,
        };
        // Push delivery that outlives the replica: the configs in the task store's outbox.
        let outbox = match (&leases, &pushes, &dispatcher) {
            (Some(leases), Some(configs), Some(dispatcher))
                if logged && configs.outbox().is_some() && configs.outbox() == tasks.outbox() =>
            {
                Some(Arc::new(outbox::Outbox::new(
                    Arc::clone(configs),
                    Arc::clone(&tasks),
                    dispatcher.sender().clone(),
                    leases.holder.clone(),
                    leases.ttl,
                )))
            }
            _ => None,
        };
        let shared = Arc::new(Shared {
            executor: self.executor,
            tasks,
            pushes,
            dispatcher,
            extended_card: self.extended_card,
            timeout: self.timeout,
            live: Arc::new(LiveTasks::new(logged)),
            policy: self.policy,
            max_history: self.max_history,
            executor_history: self.executor_history,
            leases,
            outbox,
            retention: retention::Retention {
                tasks: self.delete_ended_after,
                logs: logged.then_some(self.log_retention),
            },
            streams: Arc::default(),
            max_streams: self.max_streams,
            stream_idle: self.stream_idle,
            max_push_configs: self.max_push_configs,
            serve_v0_3: self.serve_v0_3,
            feed: self.feed,
            started: std::sync::Once::new(),
            sweep_now: tokio::sync::Notify::new(),
        });
        // A replica that serves nothing yet still settles what a stopped one left, and
        // retention runs: from the start, when built in a runtime (else from its first task).
        if tokio::runtime::Handle::try_current().is_ok() {
            shared.start();
        }
        RequestHandler { shared }
    }
}

impl<E: AgentExecutor> Shared<E> {
    /// The task's live entry; the first one also starts the background tasks, when the
    /// handler was built outside a runtime.
    fn entry(self: &Arc<Self>, tenant: Option<&str>, task_id: &str) -> Arc<live::LiveTask> {
        self.start();
        self.live.entry(tenant, task_id)
    }

    /// Starts, once, the background tasks: hearing the other replicas and keeping this one's
    /// leases (the heartbeat, and the sweep that settles what a stopped replica left) when there
    /// are other replicas, and retention.
    fn start(self: &Arc<Self>) {
        self.started.call_once(|| {
            if let Some(feed) = &self.feed {
                tokio::spawn(fanout::fan_out(Arc::downgrade(self), feed.wakeups()));
                if self.leases.is_some() {
                    tokio::spawn(recovery::keep_leases(Arc::downgrade(self)));
                }
            }
            if self.retention.runs() {
                tokio::spawn(retention::keep(Arc::downgrade(self), self.retention));
            }
        });
    }
}

impl<E> Shared<E> {
    /// A new stream's bounds: its slot, or a temporary refusal at the cap.
    fn stream_bounds(&self) -> Result<stream::Bounds, a2a_types::v1::ServiceError> {
        let Some(slot) = stream::StreamSlot::take(&self.streams, self.max_streams) else {
            return Err(errors::over_cap(format!(
                "this agent serves {} streams at once, the most it takes; try again shortly",
                self.max_streams
            )));
        };
        Ok(stream::Bounds {
            slot,
            idle: self.stream_idle,
        })
    }

    /// Sends `event` of the task to its push configs (every owner's), if it has any, joined to
    /// `trace`.
    async fn push_event(
        &self,
        tenant: Option<&str>,
        task_id: &str,
        event: StreamResponse,
        trace: Option<TraceContext>,
    ) {
        if let Some(outbox) = &self.outbox {
            // Queued by the write that logged it: sent from there.
            outbox.kick(tenant, task_id);
            return;
        }
        let (Some(store), Some(dispatcher)) = (&self.pushes, &self.dispatcher) else {
            return;
        };
        let scope = Scope::tenant(tenant);
        let Ok(targets) = store.push_targets(scope, task_id, MAX_PAGE_SIZE).await else {
            return;
        };
        let (v1, v0_3): (Vec<_>, Vec<_>) = targets
            .into_iter()
            .partition(|t| t.protocol != ProtocolVersion::V0_3);
        let configs = |targets: Vec<PushTarget>| targets.into_iter().map(|t| t.config).collect();
        if !v0_3.is_empty() {
            // 0.3's receivers get the task as it stands, as a2a-sdk 0.3 posts it.
            if let Ok(Some(task)) = pushes::task_v0_3(&*self.tasks, scope, task_id).await {
                dispatcher.enqueue_notification(configs(v0_3), task, trace.clone());
            }
        }
        if !v1.is_empty() {
            dispatcher.enqueue_traced(configs(v1), event, trace);
        }
    }
}

impl<E> Clone for RequestHandler<E> {
    /// Another handle on the same handler (its stores, executions and live tasks): one for the
    /// server, one to [`shutdown`](RequestHandler::shutdown) it.
    fn clone(&self) -> Self {
        RequestHandler {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<E: AgentExecutor> RequestHandler<E> {
    /// Lets this replica stop: waits (at most `grace`) for the executions it runs to end, then
    /// gives back the leases of those still running, and tells the other replicas, which settle
    /// those tasks at once rather than when the leases expire. Call it after the server has
    /// stopped taking calls. Without an event feed it only waits.
    ///
    /// ```no_run
    /// # use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
    /// # struct Done;
    /// # impl AgentExecutor for Done {
    /// #     async fn execute(&self, _: TaskContext, t: TaskUpdater) -> Result<(), ExecutorError> {
    /// #         t.complete(None).await
    /// #     }
    /// # }
    /// # async fn demo(handler: RequestHandler<Done>) {
    /// // ... the server has stopped (a2a_types::rt::server::serve returned) ...
    /// handler.shutdown(std::time::Duration::from_secs(10)).await;
    /// # }
    /// ```
    pub async fn shutdown(&self, grace: Duration) {
        recovery::shut_down(&self.shared, grace).await;
    }
}
