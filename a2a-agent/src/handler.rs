//! [`RequestHandler`]: the generated v1 service trait over an [`AgentExecutor`] and the stores,
//! keeping the spec's task lifecycle.

use crate::executor::{AgentExecutor, TaskContext, TaskUpdater};
use crate::lifecycle::{
    accept_message, apply, is_settled, is_terminal, new_id, new_task, stamped, with_history,
    InvalidEvent,
};
use crate::push::PushDispatcher;
use crate::store::{MemoryStore, PushConfigStore, StoreError, Stored, TaskQuery, TaskStore};
use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{
    A2aError, A2aService, AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    Empty, EventStream, GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest,
    GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, ServiceError,
    StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState,
    TaskStatus,
};
use futures_util::FutureExt as _;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot, watch, OwnedMutexGuard};

/// How long an execution may run before its task is failed, unless set.
pub const DEFAULT_EXECUTION_TIMEOUT: Duration = Duration::from_secs(300);

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
///   execution; `UnsupportedOperation` for a terminal task).
/// - Push-notification configs (CRUD, the URL screened before it is kept) and delivery of every
///   event of a task that has configs; the extended card when one is configured.
///
/// Messages to one task are served one at a time (an execution holds the task until it
/// settles), so concurrent calls never lose an update; across replicas the store's version
/// check does the same. Live events (streams, subscriptions) reach the calls served by the same
/// process: several replicas need sticky routing by task for `SubscribeToTask` (see the crate
/// docs).
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
    inner: Arc<Inner<E>>,
}

struct Inner<E> {
    executor: E,
    tasks: Arc<dyn TaskStore>,
    pushes: Option<Arc<dyn PushConfigStore>>,
    dispatcher: Option<PushDispatcher>,
    extended_card: Option<AgentCard>,
    timeout: Duration,
    live: Arc<LiveMap>,
}

/// A task's key in the live map: its tenant (empty for none) and its id.
type LiveKey = (String, String);

/// The tasks something in this process uses now. The map holds them weakly: whoever uses a task
/// (an execution, a caller waiting on its lock, a stream, a subscription, a cancel) holds its
/// [`Live`], and the last one to let go removes the entry (see `Drop for Live`). Nothing has to
/// remember to clean up, on any path.
type LiveMap = Mutex<HashMap<LiveKey, Weak<Live>>>;

/// What the process knows of a task beyond the store: the lock its executions take, and the
/// channel its live events go out on.
struct Live {
    key: LiveKey,
    map: Weak<LiveMap>,
    lock: Arc<tokio::sync::Mutex<()>>,
    /// Made by the first subscriber: most tasks have none (a blocking send reads the outcome,
    /// not the events), and a 1024-slot channel per task was the handler's largest cost.
    events: Mutex<Option<broadcast::Sender<StreamResponse>>>,
    /// Set while an execution runs: asks it to run the executor's cancel.
    cancel: Mutex<Option<mpsc::Sender<TaskContext>>>,
}

/// How many events a subscriber may fall behind before its stream is closed with an error.
const LIVE_EVENTS: usize = 1024;

impl Live {
    /// The task's live events from now on.
    fn subscribe(&self) -> broadcast::Receiver<StreamResponse> {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events
            .get_or_insert_with(|| broadcast::channel(LIVE_EVENTS).0)
            .subscribe()
    }

    /// Sends an event to the subscribers, if there are any; `event` runs only then.
    fn publish(&self, event: impl FnOnce() -> StreamResponse) {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = events.as_ref().filter(|tx| tx.receiver_count() > 0) {
            let _ = tx.send(event());
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let Some(map) = self.map.upgrade() else {
            return;
        };
        let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
        // A new user may have put a new entry in this one's place since its last holder let go.
        if map.get(&self.key).is_some_and(|w| w.strong_count() == 0) {
            map.remove(&self.key);
        }
    }
}

/// Builds a [`RequestHandler`]: the executor, then the stores and options.
pub struct RequestHandlerBuilder<E> {
    executor: E,
    tasks: Option<Arc<dyn TaskStore>>,
    pushes: Option<(Arc<dyn PushConfigStore>, PushDispatcher)>,
    extended_card: Option<AgentCard>,
    timeout: Duration,
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

    /// How long one execution may run before its task is failed ([`DEFAULT_EXECUTION_TIMEOUT`]).
    pub fn execution_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The handler.
    pub fn build(self) -> RequestHandler<E> {
        let tasks = self
            .tasks
            .unwrap_or_else(|| Arc::new(MemoryStore::new()) as Arc<dyn TaskStore>);
        let (pushes, dispatcher) = match self.pushes {
            Some((store, dispatcher)) => (Some(store), Some(dispatcher)),
            None => (None, None),
        };
        RequestHandler {
            inner: Arc::new(Inner {
                executor: self.executor,
                tasks,
                pushes,
                dispatcher,
                extended_card: self.extended_card,
                timeout: self.timeout,
                live: Arc::new(Mutex::new(HashMap::new())),
            }),
        }
    }
}

// ----- errors -------------------------------------------------------------------------------------

fn store_error(e: StoreError) -> ServiceError {
    ServiceError::internal(format!("the task store failed: {e}"))
}

/// A list's store error: a page token the store did not give is the caller's invalid params.
fn page_error(e: StoreError) -> ServiceError {
    match e {
        StoreError::InvalidPageToken => {
            invalid_params("Invalid params: `pageToken` is not a token this agent gave".to_owned())
        }
        other => store_error(other),
    }
}

fn task_not_found(id: &str) -> ServiceError {
    A2aError::task_not_found()
        .with_message(format!("Task not found: no task `{id}`"))
        .with_info([("taskId", id)])
        .into()
}

fn invalid_params(message: String) -> ServiceError {
    A2aError::invalid_params().with_message(message).into()
}

fn check_history_length(n: Option<i32>) -> Result<(), ServiceError> {
    match n {
        Some(n) if n < 0 => Err(invalid_params(format!(
            "Invalid params: `historyLength` is {n}; it must not be negative"
        ))),
        _ => Ok(()),
    }
}

fn tenant_of(cx: &RequestContext) -> Option<&str> {
    cx.tenant.as_deref().filter(|t| !t.is_empty())
}

// ----- the lifecycle ------------------------------------------------------------------------------

/// What a started execution tells the call that started it.
enum First {
    /// The executor answered with a direct message; no task is kept.
    Message(Box<Message>),
    /// The task exists (created or continued), as stored after the first event, and whether
    /// it has settled (a status of this execution at a terminal or interrupted state).
    Task(Box<Task>, bool),
}

/// A started execution: its first outcome, its settled task, and its live events (subscribed
/// before it ran, so none is missed).
struct Started {
    first: oneshot::Receiver<Result<First, ServiceError>>,
    settled: watch::Receiver<Option<Result<Task, ServiceError>>>,
    /// For a stream only: a blocking send reads `first` and `settled`.
    events: Option<Subscription>,
}

/// A subscriber's hold on a task: its events, and its [`Live`] (so that the entry, and with it
/// the channel, lasts as long as the subscriber).
struct Subscription {
    events: broadcast::Receiver<StreamResponse>,
    _live: Arc<Live>,
}

impl Subscription {
    fn new(live: &Arc<Live>) -> Subscription {
        Subscription {
            events: live.subscribe(),
            _live: Arc::clone(live),
        }
    }

    async fn recv(&mut self) -> Result<StreamResponse, broadcast::error::RecvError> {
        self.events.recv().await
    }

    /// An event already sent, if any; `Closed` when there is none.
    fn try_recv(&mut self) -> Result<StreamResponse, broadcast::error::RecvError> {
        self.events
            .try_recv()
            .map_err(|_| broadcast::error::RecvError::Closed)
    }
}

impl<E: AgentExecutor> Inner<E> {
    /// The task's entry: the one in use, or a new one.
    fn live(&self, tenant: Option<&str>, task_id: &str) -> Arc<Live> {
        let key = (tenant.unwrap_or_default().to_owned(), task_id.to_owned());
        let mut map = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(live) = map.get(&key).and_then(Weak::upgrade) {
            return live;
        }
        let live = Arc::new(Live {
            key: key.clone(),
            map: Arc::downgrade(&self.live),
            lock: Arc::new(tokio::sync::Mutex::new(())),
            events: Mutex::new(None),
            cancel: Mutex::new(None),
        });
        map.insert(key, Arc::downgrade(&live));
        live
    }

    async fn get(&self, tenant: Option<&str>, id: &str) -> Result<Stored, ServiceError> {
        self.tasks
            .get_task(tenant, id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| task_not_found(id))
    }
}

impl<E: AgentExecutor> RequestHandler<E> {
    /// Checks a message and starts its execution.
    async fn start(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
        stream: bool,
    ) -> Result<Started, ServiceError> {
        let inner = &self.inner;
        let configuration = params.configuration.clone();
        check_history_length(configuration.as_ref().and_then(|c| c.history_length))?;
        let tenant = tenant_of(&cx).map(str::to_owned);
        let tenant = tenant.as_deref();
        let message = params.message;
        let push = configuration
            .as_ref()
            .and_then(|c| c.task_push_notification_config.clone());
        if let Some(push) = &push {
            self.check_push(push)?;
        }
        let continues = message.task_id.clone().filter(|id| !id.is_empty());
        // `live` is held from here on: the entry, and so the lock, stays the same for everyone
        // who waits on it.
        let (task_id, context_id, live, guard, stored) = match continues {
            Some(task_id) => {
                let live = inner.live(tenant, &task_id);
                let guard = Arc::clone(&live.lock).lock_owned().await;
                let stored = self.continuable(tenant, &task_id, &message).await?;
                let own = stored.task.context_id.clone().unwrap_or_default();
                (task_id, own, live, guard, Some(stored))
            }
            None => {
                let task_id = new_id();
                let context_id = message
                    .context_id
                    .clone()
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(new_id);
                let live = inner.live(tenant, &task_id);
                let guard = Arc::clone(&live.lock).lock_owned().await;
                (task_id, context_id, live, guard, None)
            }
        };
        let task_cx = TaskContext {
            task_id,
            context_id,
            message: Some(message.clone()),
            task: stored.as_ref().map(|s| s.task.clone()),
            configuration,
            call: cx,
        };
        // The executor may refuse the message before it changes anything.
        inner.executor.admit(&task_cx).await?;
        let events = stream.then(|| Subscription::new(&live));
        let (first_tx, first) = oneshot::channel();
        let (settled_tx, settled) = watch::channel(None);
        let execution = Execution {
            inner: Arc::clone(&self.inner),
            tenant: tenant.map(str::to_owned),
            live,
            task: stored.as_ref().map(|s| s.task.clone()),
            version: stored.as_ref().map_or(0, |s| s.version),
            message: Some(message),
            push,
            first: Some(first_tx),
            settled: settled_tx,
            status_seen: false,
            store_failure: None,
        };
        tokio::spawn(execution.run(task_cx, guard, Run::Execute));
        Ok(Started {
            first,
            settled,
            events,
        })
    }

    /// The task `message` continues, when it may: it exists, it is not terminal, and the
    /// message names no other context.
    async fn continuable(
        &self,
        tenant: Option<&str>,
        task_id: &str,
        message: &Message,
    ) -> Result<Stored, ServiceError> {
        let stored = self.inner.get(tenant, task_id).await?;
        let own = stored.task.context_id.as_deref().unwrap_or_default();
        if let Some(asked) = message.context_id.as_deref().filter(|c| !c.is_empty()) {
            if asked != own {
                return Err(invalid_params(format!(
                    "Invalid params: the message's contextId `{asked}` is not the context \
                     `{own}` of task `{task_id}`"
                )));
            }
        }
        if is_terminal(&stored.task.status.state) {
            return Err(A2aError::unsupported_operation()
                .with_message(format!(
                    "Unsupported operation: task `{task_id}` is {}: a terminal task takes no \
                     more messages",
                    state_name(&stored.task.status.state)
                ))
                .into());
        }
        Ok(stored)
    }

    fn check_push(&self, config: &TaskPushNotificationConfig) -> Result<(), ServiceError> {
        let Some(dispatcher) = &self.inner.dispatcher else {
            return Err(A2aError::push_notification_not_supported().into());
        };
        dispatcher
            .sender()
            .policy()
            .screen(&config.url)
            .map(drop)
            .map_err(|e| invalid_params(format!("Invalid params: the push URL is refused: {e}")))
    }
}

/// What to do after an event.
enum Flow {
    /// Go on reading events.
    Continue,
    /// The executor answered with a direct message: the execution is over.
    Replied,
}

/// What an execution runs: the executor's `execute`, or its `cancel`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    Execute,
    Cancel,
}

/// One execution of the executor on one task: applies its events in order, stores them,
/// sends them live and to push configs, and says when the task settles.
struct Execution<E> {
    inner: Arc<Inner<E>>,
    tenant: Option<String>,
    live: Arc<Live>,
    /// The task as stored; `None` until a new task's first event.
    task: Option<Task>,
    version: u64,
    message: Option<Message>,
    /// A push config that came with the message, kept when the task is created.
    push: Option<TaskPushNotificationConfig>,
    first: Option<oneshot::Sender<Result<First, ServiceError>>>,
    settled: watch::Sender<Option<Result<Task, ServiceError>>>,
    /// Whether this execution has set the task's status yet.
    status_seen: bool,
    /// Why the store refused a write, when it did: the call then answers `InternalError`.
    store_failure: Option<String>,
}

impl<E: AgentExecutor> Execution<E> {
    async fn run(mut self, cx: TaskContext, guard: OwnedMutexGuard<()>, what: Run) {
        let (tx, mut rx) = mpsc::channel::<StreamResponse>(64);
        let (cancel_tx, mut cancel_rx) = mpsc::channel::<TaskContext>(1);
        *self.live.cancel.lock().unwrap_or_else(|e| e.into_inner()) = Some(cancel_tx);
        let updater = TaskUpdater::new(tx.clone(), cx.task_id.clone(), cx.context_id.clone());
        let weak = tx.downgrade();
        drop(tx);
        // A continued task is accepted (the message in its history) before the executor runs.
        if let (Some(task), Some(message)) = (self.task.clone(), self.message.clone()) {
            if what == Run::Execute {
                let accept = |t: &mut Task| {
                    if is_terminal(&t.status.state) {
                        return Err(InvalidEvent(format!(
                            "task `{}` ended meanwhile (another replica served it)",
                            t.id
                        )));
                    }
                    accept_message(t, &message);
                    Ok(())
                };
                match self.write(task, &accept).await {
                    Ok(snapshot) => {
                        self.live.publish(|| StreamResponse::Task(snapshot));
                    }
                    Err(e) => {
                        self.finish_with(Err(ServiceError::internal(e)));
                        return self.end(guard);
                    }
                }
            }
        }
        let (task_id, context_id) = (cx.task_id.clone(), cx.context_id.clone());
        let inner = Arc::clone(&self.inner);
        let running = {
            let cx = cx.clone();
            tokio::spawn(async move {
                let work = match what {
                    Run::Execute => inner.executor.execute(cx, updater).boxed(),
                    Run::Cancel => inner.executor.cancel(cx, updater).boxed(),
                };
                AssertUnwindSafe(work).catch_unwind().await
            })
        };
        let mut running = Some(running);
        let deadline = tokio::time::sleep(self.inner.timeout);
        tokio::pin!(deadline);
        let mut failure: Option<String> = None;
        let mut returned = false;
        let mut replied = false;
        let mut closed = false;
        // Once a cancel is asked for, only a terminal state ends the execution.
        let mut canceling = false;
        // Ends when the task ends, when the executor has returned and the task waits (with every
        // event it sent applied), when every updater is gone, or at the deadline.
        'events: loop {
            tokio::select! {
                event = rx.recv(), if !closed => match event {
                    Some(event) => match self.on_event(&task_id, &context_id, event).await {
                        Ok(Flow::Continue) => {}
                        Ok(Flow::Replied) => { replied = true; break 'events; }
                        Err(reason) => { failure = Some(reason); break 'events; }
                    },
                    None => {
                        closed = true;
                        if running.is_none() { break 'events; }
                    }
                },
                Some(cx) = cancel_rx.recv() => match weak.upgrade() {
                    Some(tx) => {
                        canceling = true;
                        let updater = TaskUpdater::new(tx, cx.task_id.clone(), cx.context_id.clone());
                        let inner = Arc::clone(&self.inner);
                        tokio::spawn(async move {
                            let _ = AssertUnwindSafe(inner.executor.cancel(cx, updater)).catch_unwind().await;
                        });
                    }
                    // The executor is gone and with it this execution's channel: end, and the
                    // cancel runs as an execution of its own (see `cancel_task`).
                    None => break 'events,
                },
                outcome = async { running.as_mut().expect("polled while running").await }, if running.is_some() => {
                    running = None;
                    returned = true;
                    match outcome {
                        Ok(Ok(Ok(()))) => {}
                        Ok(Ok(Err(e))) => failure = Some(format!("the agent failed: {e}")),
                        Ok(Err(panic)) => failure = Some(format!("the agent panicked: {}", panic_text(&panic))),
                        Err(e) => failure = Some(format!("the agent's execution ended: {e}")),
                    }
                    // What the executor sent before it returned counts, in order.
                    while let Ok(event) = rx.try_recv() {
                        match self.on_event(&task_id, &context_id, event).await {
                            Ok(Flow::Continue) => {}
                            Ok(Flow::Replied) => { replied = true; break 'events; }
                            Err(reason) => { failure = Some(reason); break 'events; }
                        }
                    }
                    if failure.is_some() || closed { break 'events; }
                }
                () = &mut deadline => {
                    failure = Some(format!("the agent did not finish within {:?}", self.inner.timeout));
                    break 'events;
                }
            }
            if self.done(returned && !canceling) {
                break 'events;
            }
        }
        *self.live.cancel.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Some(running) = running {
            running.abort();
        }
        drop(rx);
        // Never left working: an execution that ends without a settled state fails its task.
        // A direct reply ends an execution that began no task, or left its task waiting.
        let settled = match &self.task {
            Some(t) => is_settled(&t.status.state),
            None => replied,
        };
        let reason = failure.or_else(|| {
            (!settled).then(|| "the agent ended without a final or interrupted state".to_owned())
        });
        if let Some(reason) = reason {
            if self
                .task
                .as_ref()
                .is_none_or(|t| !is_terminal(&t.status.state))
            {
                self.fail(&task_id, &context_id, reason).await;
            }
        }
        let outcome = match (&self.store_failure, &self.task) {
            // What the store holds is the last write that succeeded; the caller is told.
            (Some(reason), _) => Err(ServiceError::internal(reason.clone())),
            (None, Some(task)) => Ok(task.clone()),
            (None, None) => Err(ServiceError::internal("the agent answered nothing")),
        };
        self.finish_with(outcome);
        self.end(guard)
    }

    /// Whether the execution is over: the task ended, or the executor returned and the task
    /// waits for the client.
    fn done(&self, returned: bool) -> bool {
        match &self.task {
            Some(task) if is_terminal(&task.status.state) => true,
            Some(task) => returned && self.status_seen && is_settled(&task.status.state),
            None => false,
        }
    }

    /// Lets the task go: the next execution may take it, and the entry goes with its last user.
    fn end(self, guard: OwnedMutexGuard<()>) {
        drop(guard);
        drop(self);
    }

    fn resolve_first(&mut self, first: Result<First, ServiceError>) {
        if let Some(tx) = self.first.take() {
            let _ = tx.send(first);
        }
    }

    fn finish_with(&mut self, outcome: Result<Task, ServiceError>) {
        match &outcome {
            Ok(task) => self.resolve_first(Ok(First::Task(Box::new(task.clone()), true))),
            Err(e) => self.resolve_first(Err(e.clone())),
        }
        self.settled.send_replace(Some(outcome));
    }

    /// One event of the executor: applied, stored, sent live and to the push configs. An error
    /// is the reason the task fails.
    async fn on_event(
        &mut self,
        task_id: &str,
        context_id: &str,
        event: StreamResponse,
    ) -> Result<Flow, String> {
        if let StreamResponse::Message(message) = &event {
            let mut message = stamped(message, task_id, context_id);
            match self.task.clone() {
                // A direct reply to a new message belongs to no task.
                None => message.task_id = None,
                // One to a waiting task joins its history; the task keeps waiting.
                Some(task) => {
                    let keep = |t: &mut Task| {
                        t.history.push(message.clone());
                        Ok(())
                    };
                    self.write(task, &keep).await?;
                }
            }
            self.resolve_first(Ok(First::Message(Box::new(message.clone()))));
            self.live.publish(|| StreamResponse::Message(message));
            return Ok(Flow::Replied);
        }
        let task = match self.task.clone() {
            Some(task) => self.write(task, &|t| apply(t, &event)).await?,
            None => {
                let message = self.message.clone().unwrap_or_default();
                let mut task = new_task(task_id, context_id, &message);
                self.live.publish(|| StreamResponse::Task(task.clone()));
                apply(&mut task, &event)
                    .map_err(|e| format!("the agent broke the protocol: {e}"))?;
                self.version = self
                    .inner
                    .tasks
                    .create_task(self.tenant.as_deref(), &task)
                    .await
                    .map_err(|e| self.broke(e))?;
                self.task = Some(task.clone());
                task
            }
        };
        let event = stamp_event(event, &task);
        self.live.publish(|| event.clone());
        // A push config that came with the message is kept once the task exists.
        if let Some(config) = self.push.take() {
            self.keep_push(&task.id, config).await;
        }
        // Only a status this execution set settles the call: a continued task still shows the
        // interrupted state it waited in until the agent says otherwise.
        if matches!(
            event,
            StreamResponse::StatusUpdate(_) | StreamResponse::Task(_)
        ) {
            self.status_seen = true;
        }
        let settled = self.status_seen && is_settled(&task.status.state);
        self.resolve_first(Ok(First::Task(Box::new(task.clone()), settled)));
        if settled {
            self.settled.send_replace(Some(Ok(task.clone())));
        }
        self.notify(&task, event).await;
        Ok(Flow::Continue)
    }

    /// Notes a store failure (the first one is what the caller is told) and says it.
    fn broke(&mut self, e: StoreError) -> String {
        let reason = format!("the task store failed: {e}");
        self.store_failure.get_or_insert_with(|| reason.clone());
        reason
    }

    /// Applies `change` to `task` (the task as this execution last wrote it) and writes it over
    /// that version. When another writer got there first (another replica, on a shared store),
    /// the stored task is read again and the change applied to it, so no update is lost:
    /// optimistic versioning, a bounded number of times. The task as written.
    async fn write(
        &mut self,
        mut task: Task,
        change: &(dyn Fn(&mut Task) -> Result<(), InvalidEvent> + Sync),
    ) -> Result<Task, String> {
        const ATTEMPTS: usize = 8;
        let tenant = self.tenant.clone();
        let tenant = tenant.as_deref();
        let mut version = self.version;
        for _ in 0..ATTEMPTS {
            change(&mut task).map_err(|e| format!("the agent broke the protocol: {e}"))?;
            match self.inner.tasks.update_task(tenant, &task, version).await {
                Ok(written) => {
                    self.version = written;
                    self.task = Some(task.clone());
                    return Ok(task);
                }
                Err(StoreError::Conflict { .. }) => {
                    let stored = self
                        .inner
                        .tasks
                        .get_task(tenant, &task.id)
                        .await
                        .map_err(|e| self.broke(e))?
                        .ok_or_else(|| format!("task `{}` is no longer stored", task.id))?;
                    (task, version) = (stored.task, stored.version);
                }
                Err(e) => return Err(self.broke(e)),
            }
        }
        Err(format!(
            "task `{}` was written by others {ATTEMPTS} times in a row; the update was given up",
            task.id
        ))
    }

    /// Fails the task with `reason` as its status message (creating it when the agent never
    /// began one); a direct reply already sent is left alone.
    async fn fail(&mut self, task_id: &str, context_id: &str, reason: String) {
        let message = crate::lifecycle::agent_message(
            task_id,
            context_id,
            vec![crate::executor::text_part(&reason)],
        );
        let event = StreamResponse::StatusUpdate(a2a_types::v1::TaskStatusUpdateEvent {
            task_id: task_id.to_owned(),
            context_id: context_id.to_owned(),
            status: TaskStatus {
                state: TaskState::Failed,
                message: Some(message),
                timestamp: None,
            },
            ..Default::default()
        });
        // The event may be refused only for a broken task; then the stored one stays.
        let _ = self.on_event(task_id, context_id, event).await;
    }

    async fn keep_push(&self, task_id: &str, mut config: TaskPushNotificationConfig) {
        if let Some(store) = &self.inner.pushes {
            config.task_id = Some(task_id.to_owned());
            let _ = store
                .set_push_config(self.tenant.as_deref(), task_id, config)
                .await;
        }
    }

    async fn notify(&self, task: &Task, event: StreamResponse) {
        let (Some(store), Some(dispatcher)) = (&self.inner.pushes, &self.inner.dispatcher) else {
            return;
        };
        if let Ok(page) = store
            .list_push_configs(
                self.tenant.as_deref(),
                &task.id,
                Some(crate::store::MAX_PAGE_SIZE),
                None,
            )
            .await
        {
            if !page.configs.is_empty() {
                dispatcher.enqueue(page.configs, event);
            }
        }
    }
}

/// The event as streamed: a status or artifact update carries the task's ids.
fn stamp_event(event: StreamResponse, task: &Task) -> StreamResponse {
    let context_id = task.context_id.clone().unwrap_or_default();
    match event {
        StreamResponse::StatusUpdate(mut u) => {
            u.task_id.clone_from(&task.id);
            u.context_id = context_id;
            u.status = task.status.clone();
            StreamResponse::StatusUpdate(u)
        }
        StreamResponse::ArtifactUpdate(mut u) => {
            u.task_id.clone_from(&task.id);
            u.context_id = context_id;
            StreamResponse::ArtifactUpdate(u)
        }
        StreamResponse::Task(_) => StreamResponse::Task(task.clone()),
        other => other,
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

fn state_name(state: &TaskState) -> String {
    serde_json::to_value(state)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{state:?}"))
}

/// Where a live stream ends.
#[derive(Clone, Copy)]
enum Until {
    /// `SendStreamingMessage`: at a direct message or a status that settles the call (terminal
    /// or interrupted), as a blocking call returns there.
    Settled,
    /// `SubscribeToTask`: at a terminal state only (§3.1.6): a task that waits for input may
    /// go on, and the subscriber sees it through.
    Terminal,
}

/// Whether a streamed event ends the stream.
fn ends_stream(event: &StreamResponse, until: Until) -> bool {
    match (event, until) {
        (StreamResponse::Message(_), Until::Settled) => true,
        (StreamResponse::StatusUpdate(u), Until::Settled) => is_settled(&u.status.state),
        (StreamResponse::StatusUpdate(u), Until::Terminal) => is_terminal(&u.status.state),
        (StreamResponse::Task(t), _) => is_terminal(&t.status.state),
        _ => false,
    }
}

/// The live events as a stream, ending after the event that settles the task (or when the
/// execution ends, for a stream that has its `settled`); `history_length` trims a streamed
/// Task's history. Read straight from the broadcast channel: no task of its own, so a client
/// that goes away drops it at once.
fn live_stream(
    events: Subscription,
    first: Option<StreamResponse>,
    settled: Option<watch::Receiver<Option<Result<Task, ServiceError>>>>,
    history_length: Option<i32>,
    until: Until,
) -> EventStream<StreamResponse> {
    let trim = move |event: StreamResponse| match event {
        StreamResponse::Task(t) => StreamResponse::Task(with_history(t, history_length)),
        other => other,
    };
    struct State {
        events: Subscription,
        first: Option<StreamResponse>,
        settled: Option<watch::Receiver<Option<Result<Task, ServiceError>>>>,
        ended: bool,
    }
    let state = State {
        events,
        first,
        settled,
        ended: false,
    };
    Box::pin(futures_util::stream::unfold(
        state,
        move |mut st| async move {
            if st.ended {
                return None;
            }
            if let Some(first) = st.first.take() {
                st.ended = ends_stream(&first, until);
                return Some((Ok(trim(first)), st));
            }
            loop {
                let event = match &mut st.settled {
                    Some(settled) => tokio::select! {
                        biased;
                        event = st.events.recv() => event,
                        changed = settled.changed() => match changed {
                            Ok(()) => continue,
                            // The execution ended: what it sent is in the channel already.
                            Err(_) => st.events.try_recv(),
                        },
                    },
                    None => st.events.recv().await,
                };
                return match event {
                    Ok(event) => {
                        st.ended = ends_stream(&event, until);
                        Some((Ok(trim(event)), st))
                    }
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        st.ended = true;
                        Some((
                            Err(ServiceError::internal(format!(
                                "the stream fell {n} events behind and was closed"
                            ))),
                            st,
                        ))
                    }
                    Err(broadcast::error::RecvError::Closed) => None,
                };
            }
        },
    ))
}

// ----- the service --------------------------------------------------------------------------------

impl<E: AgentExecutor> A2aService for RequestHandler<E> {
    async fn send_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<SendMessageResponse, ServiceError> {
        let config: Option<SendMessageConfiguration> = params.configuration.clone();
        let history_length = config.as_ref().and_then(|c| c.history_length);
        let immediately = config.as_ref().and_then(|c| c.return_immediately) == Some(true);
        let mut started = self.start(cx, params, false).await?;
        let first = (&mut started.first)
            .await
            .unwrap_or_else(|_| Err(ServiceError::internal("the execution ended early")))?;
        let task = match first {
            First::Message(message) => return Ok(SendMessageResponse::Message(*message)),
            First::Task(task, settled) if immediately || settled => *task,
            First::Task(..) => {
                let settled = started
                    .settled
                    .wait_for(Option::is_some)
                    .await
                    .map_err(|_| ServiceError::internal("the execution ended early"))?;
                settled
                    .clone()
                    .unwrap_or_else(|| Err(ServiceError::internal("no outcome")))?
            }
        };
        Ok(SendMessageResponse::Task(with_history(
            task,
            history_length,
        )))
    }

    async fn send_streaming_message(
        &self,
        cx: RequestContext,
        params: SendMessageRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let history_length = params.configuration.as_ref().and_then(|c| c.history_length);
        let started = self.start(cx, params, true).await?;
        let events = started.events.expect("a stream subscribes");
        Ok(live_stream(
            events,
            None,
            Some(started.settled),
            history_length,
            Until::Settled,
        ))
    }

    async fn get_task(
        &self,
        cx: RequestContext,
        params: GetTaskRequest,
    ) -> Result<Task, ServiceError> {
        check_history_length(params.history_length)?;
        let stored = self.inner.get(tenant_of(&cx), &params.id).await?;
        Ok(with_history(stored.task, params.history_length))
    }

    async fn list_tasks(
        &self,
        cx: RequestContext,
        params: ListTasksRequest,
    ) -> Result<ListTasksResponse, ServiceError> {
        check_history_length(params.history_length)?;
        let query = TaskQuery::from_request(&params)
            .map_err(|e| invalid_params(format!("Invalid params: {e}")))?;
        let page = self
            .inner
            .tasks
            .list_tasks(tenant_of(&cx), &query)
            .await
            .map_err(page_error)?;
        let include_artifacts = params.include_artifacts == Some(true);
        let tasks = page
            .tasks
            .into_iter()
            .map(|mut t| {
                if !include_artifacts {
                    t.artifacts.clear();
                }
                with_history(t, params.history_length)
            })
            .collect();
        Ok(ListTasksResponse {
            tasks,
            next_page_token: page.next_page_token.unwrap_or_default(),
            page_size: i32::try_from(page.page_size).unwrap_or(i32::MAX),
            total_size: i32::try_from(page.total_size).unwrap_or(i32::MAX),
        })
    }

    async fn cancel_task(
        &self,
        cx: RequestContext,
        params: CancelTaskRequest,
    ) -> Result<Task, ServiceError> {
        let tenant = tenant_of(&cx).map(str::to_owned);
        let tenant = tenant.as_deref();
        let inner = &self.inner;
        let stored = inner.get(tenant, &params.id).await?;
        let not_cancelable = |task: &Task| -> ServiceError {
            A2aError::task_not_cancelable()
                .with_message(format!(
                    "Task cannot be canceled: task `{}` is {}",
                    task.id,
                    state_name(&task.status.state)
                ))
                .with_info([("taskId", task.id.as_str())])
                .into()
        };
        if is_terminal(&stored.task.status.state) {
            return Err(not_cancelable(&stored.task));
        }
        let live = inner.live(tenant, &params.id);
        let task_cx = TaskContext {
            task_id: stored.task.id.clone(),
            context_id: stored.task.context_id.clone().unwrap_or_default(),
            message: None,
            task: Some(stored.task.clone()),
            configuration: None,
            call: cx,
        };
        // A running execution runs the cancel beside its work; otherwise (the task waits for the
        // client) a cancel execution takes the task.
        let running = live
            .cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        // A running execution runs the cancel beside its work. It may end before it reads the
        // request (its task settled as the cancel came in): then a cancel execution follows.
        if let Some(asks) = running {
            // Subscribed before asking: the terminal status is not missed.
            let mut events = live.subscribe();
            if asks.send(task_cx.clone()).await.is_ok() {
                let wait = async {
                    loop {
                        tokio::select! {
                            event = events.recv() => match event {
                                Ok(StreamResponse::StatusUpdate(u)) if is_terminal(&u.status.state) => {
                                    return;
                                }
                                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                                Err(broadcast::error::RecvError::Closed) => return,
                            },
                            () = asks.closed() => return,
                        }
                    }
                };
                let _ = tokio::time::timeout(inner.timeout, wait).await;
            }
        }
        let guard = Arc::clone(&live.lock).lock_owned().await;
        let stored = inner.get(tenant, &params.id).await?;
        match stored.task.status.state {
            TaskState::Canceled => return Ok(stored.task),
            ref state if is_terminal(state) => return Err(not_cancelable(&stored.task)),
            _ => {}
        }
        let (first_tx, _first) = oneshot::channel();
        let (settled_tx, mut settled) = watch::channel(None);
        let execution = Execution {
            inner: Arc::clone(inner),
            tenant: tenant.map(str::to_owned),
            live: Arc::clone(&live),
            task: Some(stored.task),
            version: stored.version,
            message: None,
            push: None,
            first: Some(first_tx),
            settled: settled_tx,
            status_seen: false,
            store_failure: None,
        };
        tokio::spawn(execution.run(task_cx, guard, Run::Cancel));
        let reached = settled.wait_for(Option::is_some);
        let _ = tokio::time::timeout(inner.timeout, reached).await;
        let now = inner.get(tenant, &params.id).await?.task;
        // Canceled, or it ended otherwise meanwhile, or the agent would not cancel it.
        match now.status.state {
            TaskState::Canceled => Ok(now),
            _ => Err(not_cancelable(&now)),
        }
    }

    async fn subscribe_to_task(
        &self,
        cx: RequestContext,
        params: SubscribeToTaskRequest,
    ) -> Result<EventStream<StreamResponse>, ServiceError> {
        let tenant = tenant_of(&cx).map(str::to_owned);
        let tenant = tenant.as_deref();
        let live = self.inner.live(tenant, &params.id);
        // Subscribed before the task is read: an event between the two is not missed.
        let events = Subscription::new(&live);
        let stored = self.inner.get(tenant, &params.id).await?;
        if is_terminal(&stored.task.status.state) {
            return Err(A2aError::unsupported_operation()
                .with_message(format!(
                    "Unsupported operation: task `{}` is {}: a terminal task has no events to \
                     follow",
                    stored.task.id,
                    state_name(&stored.task.status.state)
                ))
                .into());
        }
        // The current task first, then its events (of this execution and the next ones, should
        // it wait for input) until it ends.
        let first = StreamResponse::Task(stored.task);
        Ok(live_stream(
            events,
            Some(first),
            None,
            None,
            Until::Terminal,
        ))
    }

    async fn create_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let task_id = params.task_id.clone().unwrap_or_default();
        let (store, tenant) = self.push_scope(&cx, &task_id).await?;
        self.check_push(&params)?;
        store
            .set_push_config(tenant, &task_id, params)
            .await
            .map_err(store_error)
    }

    async fn get_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, ServiceError> {
        let (store, tenant) = self.push_scope(&cx, &params.task_id).await?;
        store
            .get_push_config(tenant, &params.task_id, &params.id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| {
                A2aError::task_not_found()
                    .with_message(format!(
                        "Task not found: task `{}` has no push notification config `{}`",
                        params.task_id, params.id
                    ))
                    .with_info([("taskId", params.task_id.as_str())])
                    .into()
            })
    }

    async fn list_task_push_notification_configs(
        &self,
        cx: RequestContext,
        params: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, ServiceError> {
        let (store, tenant) = self.push_scope(&cx, &params.task_id).await?;
        let size = match params.page_size {
            None | Some(0) => None,
            Some(n) => Some(u32::try_from(n).map_err(|_| {
                invalid_params(format!(
                    "Invalid params: `pageSize` is {n}; it must not be negative"
                ))
            })?),
        };
        let page = store
            .list_push_configs(
                tenant,
                &params.task_id,
                size,
                params.page_token.as_deref().filter(|t| !t.is_empty()),
            )
            .await
            .map_err(page_error)?;
        Ok(ListTaskPushNotificationConfigsResponse {
            configs: page.configs,
            next_page_token: page.next_page_token,
        })
    }

    async fn get_extended_agent_card(
        &self,
        _cx: RequestContext,
        _params: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, ServiceError> {
        self.inner
            .extended_card
            .clone()
            .ok_or_else(|| A2aError::extended_agent_card_not_configured().into())
    }

    async fn delete_task_push_notification_config(
        &self,
        cx: RequestContext,
        params: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<Empty, ServiceError> {
        let (store, tenant) = self.push_scope(&cx, &params.task_id).await?;
        store
            .delete_push_config(tenant, &params.task_id, &params.id)
            .await
            .map_err(store_error)?;
        Ok(Empty::default())
    }
}

impl<E: AgentExecutor> RequestHandler<E> {
    /// The push-config store and the call's tenant, for a call about `task_id`:
    /// `PushNotificationNotSupported` when push notifications are off, `TaskNotFound` when the
    /// task does not exist.
    async fn push_scope<'a>(
        &'a self,
        cx: &'a RequestContext,
        task_id: &str,
    ) -> Result<(&'a Arc<dyn PushConfigStore>, Option<&'a str>), ServiceError> {
        let store = self
            .inner
            .pushes
            .as_ref()
            .ok_or_else(|| ServiceError::from(A2aError::push_notification_not_supported()))?;
        let tenant = tenant_of(cx);
        self.inner.get(tenant, task_id).await?;
        Ok((store, tenant))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::rt::version::ProtocolVersion;
    use a2a_types::rt::Binding;
    use a2a_types::v1::{Role, TaskState};
    use futures_util::StreamExt as _;

    /// Waits for input when the message id says so, completes otherwise.
    struct Agent;

    impl AgentExecutor for Agent {
        async fn execute(
            &self,
            cx: TaskContext,
            task: TaskUpdater,
        ) -> Result<(), crate::ExecutorError> {
            let waits = cx
                .message
                .as_ref()
                .is_some_and(|m| m.message_id.starts_with("input"));
            match waits {
                true => task.require_input(None).await,
                false => task.complete(None).await,
            }
        }
    }

    fn cx() -> RequestContext {
        RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, "SendMessage")
    }

    fn send(id: &str, task_id: Option<&str>) -> SendMessageRequest {
        SendMessageRequest {
            message: Message {
                message_id: id.into(),
                role: Role::User,
                task_id: task_id.map(Into::into),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    async fn task(h: &RequestHandler<Agent>, request: SendMessageRequest) -> Task {
        match h.send_message(cx(), request).await {
            Ok(SendMessageResponse::Task(t)) => t,
            other => panic!("{other:?}"),
        }
    }

    fn entries(h: &RequestHandler<Agent>) -> usize {
        h.inner.live.lock().unwrap().len()
    }

    /// Every way in holds the task's entry for a while (a blocking send, a stream, a
    /// subscription, a cancel); once all of them are over, no entry is left. (Each entry holds
    /// a 1024-event channel: a process that kept them grew by hundreds of KiB per task.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_task_keeps_its_entry_once_nothing_uses_it() {
        let h = Arc::new(RequestHandler::builder(Agent).build());
        let sends = (0..200).map(|i| {
            let h = Arc::clone(&h);
            tokio::spawn(async move { task(&h, send(&format!("done-{i}"), None)).await })
        });
        for s in sends {
            assert_eq!(s.await.unwrap().status.state, TaskState::Completed);
        }
        let mut waiting = Vec::new();
        for i in 0..20 {
            waiting.push(task(&h, send(&format!("input-{i}"), None)).await.id);
        }
        for (i, id) in waiting.iter().enumerate() {
            let again = task(&h, send(&format!("input-again-{i}"), Some(id))).await;
            assert_eq!(again.status.state, TaskState::InputRequired);
        }
        for i in 0..20 {
            let stream = h
                .send_streaming_message(cx(), send(&format!("stream-{i}"), None))
                .await
                .unwrap();
            assert!(stream.collect::<Vec<_>>().await.iter().all(Result::is_ok));
        }
        // Subscribers to a waiting task: one gone early, one there until the task ends.
        let subscribe = |id: &str| {
            h.subscribe_to_task(
                cx(),
                SubscribeToTaskRequest {
                    id: id.into(),
                    ..Default::default()
                },
            )
        };
        drop(subscribe(&waiting[0]).await.unwrap());
        let follows = subscribe(&waiting[1]).await.unwrap();
        task(&h, send("done-after-waiting", Some(&waiting[1]))).await;
        assert!(follows.collect::<Vec<_>>().await.iter().all(Result::is_ok));
        assert!(subscribe("no-such-task").await.is_err());
        for id in &waiting[2..5] {
            let canceled = h
                .cancel_task(
                    cx(),
                    CancelTaskRequest {
                        id: id.clone(),
                        ..Default::default()
                    },
                )
                .await
                .unwrap();
            assert_eq!(canceled.status.state, TaskState::Canceled);
        }
        // An execution lets its entry go just after it answers: give the last ones a moment.
        for _ in 0..200 {
            if entries(&h) == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(entries(&h), 0, "entries left for tasks nothing uses");
    }
}
