//! One execution of the executor on one task: it applies the executor's events in order,
//! stores them, sends them live and to the push configs, and tells the call that started it the
//! first answer and the settled task.
//!
//! An execution holds its task's lock from start to end, so messages to one task are served one
//! at a time. It never leaves its task working: when the executor fails, panics, runs past the
//! timeout or returns without a settled state, the task is failed with the reason.
//!
//! A cancel reaches an execution in one of two ways, both ending in the executor's `cancel`:
//! while one runs, [`LiveTask::cancel_requests`] asks it to run `cancel` beside its work (and the
//! execution then ends only at a terminal state); when none runs (the task waits for the
//! client), a cancel starts an execution of its own whose work is `cancel` ([`Work::Cancel`]).

use super::driver::Driver;

mod answer;
mod artifacts;
mod pushes;
mod write;
use a2a_types::rt::telemetry::{self, TraceContext};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::{
    Message, ServiceError, StreamResponse, Task, TaskPushNotificationConfig, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use futures_util::FutureExt as _;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch, OwnedMutexGuard};

use super::errors::work_failure;
use super::lease::{ended_while_waiting, LEASE_RETRY};
use super::live::{CancelRequest, LiveTask};
use super::stream::Settled;
use super::Shared;
use crate::executor::{AgentExecutor, Event, ExecutorError, TaskContext, TaskUpdater};
use crate::lifecycle::{
    accept_message, agent_message, apply, is_settled, is_terminal, stamp_event, stamped,
    InvalidEvent,
};
use crate::store::{Scope, Stored};
use artifacts::UNCHANGED;

/// The executor's work as the execution polls it: its outcome, or the panic it ended in.
type WorkFuture =
    futures_util::future::BoxFuture<'static, std::thread::Result<Result<(), ExecutorError>>>;

/// What an execution runs: the executor's `execute`, or its `cancel`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Work {
    Execute,
    Cancel,
}

impl Work {
    /// Its name in traces.
    fn name(&self) -> &'static str {
        match self {
            Work::Execute => "execute",
            Work::Cancel => "cancel",
        }
    }
}

/// The first thing an execution tells the call that started it.
pub(super) enum FirstAnswer {
    /// The executor answered with a direct message; no task is kept.
    Message(Box<Message>),
    /// The task exists (created or continued), as stored after the first event.
    Task {
        task: Box<Task>,
        /// Whether it has settled: a status of this execution at a terminal or interrupted
        /// state.
        settled: bool,
    },
}

/// What the caller of [`Execution::start`] reads: the first answer, then the settled task; and
/// the execution itself, to drive while it waits.
pub(super) struct Started {
    pub(super) first: oneshot::Receiver<Result<FirstAnswer, ServiceError>>,
    pub(super) settled: Settled,
    pub(super) driver: Driver,
}

/// What the execution does after an event of the executor.
enum AfterEvent {
    /// Go on reading events.
    KeepGoing,
    /// The executor answered with a direct message: the execution is over.
    Replied,
}

/// Where the event loop stands.
#[derive(Default)]
struct Progress {
    /// Why the task fails, once something failed.
    failure: Option<String>,
    /// The executor's work has returned.
    returned: bool,
    /// The executor answered with a direct message.
    replied: bool,
    /// Every updater is gone: no more events can come.
    closed: bool,
    /// A cancel was asked for: only a terminal state ends the execution now.
    canceling: bool,
}

/// One execution (see the [module docs](self)).
pub(super) struct Execution<E> {
    shared: Arc<Shared<E>>,
    tenant: Option<String>,
    /// Who owns the task: its stored owner, or for a new task the caller that sent the message.
    owner: String,
    live: Arc<LiveTask>,
    /// The task as stored; `None` until a new task's first event.
    task: Option<Task>,
    version: u64,
    message: Option<Message>,
    /// A push config that came with the message, kept when the task is created, and the
    /// version of the call it came in.
    push: Option<(TaskPushNotificationConfig, ProtocolVersion)>,
    first: Option<oneshot::Sender<Result<FirstAnswer, ServiceError>>>,
    settled: watch::Sender<Option<Result<Task, ServiceError>>>,
    /// Whether this execution has set the task's status yet.
    status_seen: bool,
    /// Why the store refused a write, when it did: the call then answers with it (an
    /// `InternalError`, or a temporary refusal of a full store).
    store_failure: Option<ServiceError>,
    /// The caller's trace context, for its push notifications.
    trace: Option<TraceContext>,
    /// Another replica took the task's lease over: this execution writes nothing more.
    lost_lease: bool,
    /// Whether this execution's last write left it holding the task's lease.
    holds_lease: bool,
    /// The executor's work has returned (what it sent after is all there is).
    returned: bool,
    /// The last write gave up after others wrote the task each time it tried.
    contended: bool,
    /// How many messages of the task's history the executor was given, and how many this
    /// execution has added since: the newest messages a `Task` event of the executor may repeat.
    given_history: usize,
    added_history: usize,
    /// With a store that appends histories: the messages before those `task` holds, as many
    /// as the caller's reply carries (`reply_history`; `None`: all), so that `older` and the
    /// task's history together end the whole history (see [`Execution::answer`]).
    older: Vec<Message>,
    reply_history: Option<u32>,
}

/// What an execution starts from: the task as stored (none for a new one), the message (none for
/// a cancel) and a push config that came with it.
pub(super) struct Origin {
    pub(super) tenant: Option<String>,
    pub(super) stored: Option<Stored>,
    pub(super) message: Option<Message>,
    pub(super) push: Option<(TaskPushNotificationConfig, ProtocolVersion)>,
    /// How many of the task's latest messages the caller's reply carries (`None`: all).
    pub(super) reply_history: Option<u32>,
}

impl<E: AgentExecutor> Execution<E> {
    /// Starts an execution of `work` on the task `cx` names, holding its lock (`guard`) until it
    /// ends.
    pub(super) fn start(
        shared: &Arc<Shared<E>>,
        live: Arc<LiveTask>,
        origin: Origin,
        cx: TaskContext,
        guard: OwnedMutexGuard<()>,
        work: Work,
    ) -> Started {
        let (first_tx, first) = oneshot::channel();
        let (settled_tx, settled) = watch::channel(None);
        let appends = shared.tasks.appends_history();
        let (mut task, version, owner) = match origin.stored {
            Some(s) => (Some(s.task), s.version, s.owner),
            // A new task is its caller's; a stored one keeps its owner.
            None => (None, 0, cx.call.caller.id().to_owned()),
        };
        // The history read for the reply is kept apart: a write copies only the task's own.
        let older = match (appends, task.as_mut()) {
            (true, Some(t)) => std::mem::take(&mut t.history),
            _ => Vec::new(),
        };
        let execution = Execution {
            shared: Arc::clone(shared),
            tenant: origin.tenant,
            owner,
            live,
            task,
            version,
            message: origin.message,
            push: origin.push,
            first: Some(first_tx),
            settled: settled_tx,
            status_seen: false,
            store_failure: None,
            trace: cx.call.trace_context(),
            lost_lease: false,
            holds_lease: false,
            returned: false,
            contended: false,
            given_history: cx.task.as_ref().map_or(0, |t| t.history.len()),
            added_history: 0,
            older,
            reply_history: origin.reply_history,
        };
        // Boxed: the execution's future is several KiB, and it moves (into the driver, onto the
        // runtime) more than once (unboxed, those copies were the largest cost in the handler's
        // profile).
        tracing::Span::current().record("a2a.task_id", cx.task_id.as_str());
        let span = tracing::info_span!(
            target: "a2a_agent::execution",
            "a2a.execute",
            a2a.task_id = %cx.task_id,
            a2a.work = work.name(),
        );
        let driver = Driver {
            // Its own span, a child of the call's (`a2a.call`) when the call has one: it stays
            // the execution's parent when the rest of it is spawned.
            run: Some(Box::pin(tracing::Instrument::instrument(
                execution.run(cx, guard, work),
                span,
            ))),
        };
        Started {
            first,
            settled,
            driver,
        }
    }

    async fn run(mut self, cx: TaskContext, guard: OwnedMutexGuard<()>, work: Work) {
        let (tx, mut rx) = mpsc::channel::<Event>(64);
        let (cancel_tx, mut cancel_rx) = mpsc::channel::<CancelRequest>(1);
        self.live.set_cancel_requests(Some(cancel_tx));
        let updater = TaskUpdater::new(tx.clone(), cx.task_id.clone(), cx.context_id.clone());
        // The execution keeps no sender of its own: the channel closes when every updater is
        // gone.
        let weak = tx.downgrade();
        drop(tx);
        if work == Work::Execute {
            if let Err(e) = self.accept_continued_message().await {
                self.live.set_cancel_requests(None);
                self.settle(Err(e));
                return self.release(guard);
            }
        }
        let (task_id, context_id) = (cx.task_id.clone(), cx.context_id.clone());
        // Polled here, beside the events, not spawned: a task of its own would cost a spawn per
        // message and gain nothing, as the events it sends are applied here one by one anyway.
        let mut running = Some(self.work(cx, updater, work));
        let deadline = tokio::time::sleep(self.shared.timeout);
        tokio::pin!(deadline);
        let mut p = Progress::default();
        let live = Arc::clone(&self.live);
        // Ends when the task ends, when the executor has returned and the task waits (with every
        // event it sent applied), when every updater is gone, or at the deadline.
        loop {
            // The executor's end first: its last events are then applied knowing it has
            // returned, and a task it left waiting gives its lease back in the same write.
            tokio::select! {
                biased;
                outcome = async { running.as_mut().expect("polled while running").as_mut().await }, if running.is_some() => {
                    running = None;
                    p.returned = true;
                    self.returned = true;
                    p.failure = work_failure(outcome);
                    // What the executor sent before it returned counts, in order.
                    let mut over = false;
                    while let Ok(event) = rx.try_recv() {
                        over = self.handle(&task_id, &context_id, *event, &mut p).await;
                        if over { break; }
                    }
                    if over || p.failure.is_some() || p.closed { break; }
                }
                event = rx.recv(), if !p.closed => match event {
                    Some(event) => {
                        if self.handle(&task_id, &context_id, *event, &mut p).await { break; }
                    }
                    None => {
                        p.closed = true;
                        if running.is_none() { break; }
                    }
                },
                Some(cx) = cancel_rx.recv() => match weak.upgrade() {
                    Some(tx) => {
                        let cx = *cx;
                        p.canceling = true;
                        let updater = TaskUpdater::new(tx, cx.task_id.clone(), cx.context_id.clone());
                        tokio::spawn(self.work(cx, updater, Work::Cancel));
                    }
                    // The executor is gone and with it this execution's channel: end, and the
                    // cancel runs as an execution of its own.
                    None => break,
                },
                // Another replica ended the task (a cancel served there): its work is over.
                () = live.ended_elsewhere.notified() => {
                    if self.ended_elsewhere().await { break; }
                }
                () = &mut deadline => {
                    p.failure = Some(format!("the agent did not finish within {:?}", self.shared.timeout));
                    break;
                }
            }
            if self.is_over(p.returned && !p.canceling) {
                break;
            }
        }
        self.live.set_cancel_requests(None);
        // The executor's work, if it still runs, ends here (dropped: at the deadline, or after
        // a failure or a direct reply).
        drop(running);
        drop(rx);
        self.finish(&task_id, &context_id, p).await;
        // A task that waits for input keeps its lease to here, where the executor has returned:
        // the next message's execution, on any replica, starts only now.
        if self.holds_lease
            && !self.lost_lease
            && self
                .task
                .as_ref()
                .is_some_and(|t| !is_terminal(&t.status.state))
        {
            let shared = Arc::clone(&self.shared);
            shared.give_back_lease(self.scope(), &task_id).await;
        }
        self.release(guard)
    }

    /// A continued task takes the message into its history before the executor runs, once this
    /// replica holds its lease (waiting while another replica runs it); it may have ended
    /// meanwhile (another replica served it), and then the message is refused.
    async fn accept_continued_message(&mut self) -> Result<(), ServiceError> {
        let Some(message) = self.message.clone().filter(|_| self.task.is_some()) else {
            return Ok(());
        };
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
        let whole = |t: &Task| StreamResponse::Task(t.clone());
        // The write takes the lease: while another replica's runs, it is refused, and the
        // message waits for that replica to let go (its writes wake this one).
        let live = Arc::clone(&self.live);
        let deadline = tokio::time::Instant::now() + self.shared.timeout;
        let logged = loop {
            let changed = live.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.write(&accept, &whole, UNCHANGED).await {
                Ok(logged) => break logged,
                // Another replica holds the task (or several took turns at it): this message
                // waits for a wake-up, and tries again until the deadline.
                Err(_)
                    if (self.lost_lease || self.contended)
                        && tokio::time::Instant::now() < deadline =>
                {
                    let wait = match std::mem::take(&mut self.contended) {
                        true => LEASE_RETRY / 50,
                        false => LEASE_RETRY,
                    };
                    self.lost_lease = false;
                    let _ = tokio::time::timeout(wait, changed).await;
                }
                Err(reason) => {
                    return Err(
                        match self.task.as_ref().filter(|t| is_terminal(&t.status.state)) {
                            Some(ended) => ended_while_waiting(ended),
                            None => ServiceError::internal(reason),
                        },
                    )
                }
            }
        };
        let task = self.task.as_ref().expect("written above");
        self.send_live(Some(self.version), || logged.unwrap_or_else(|| whole(task)));
        Ok(())
    }

    /// The executor's `work`, a panic caught as an outcome.
    fn work(&self, cx: TaskContext, updater: TaskUpdater, work: Work) -> WorkFuture {
        let shared = Arc::clone(&self.shared);
        Box::pin(async move {
            let run = match work {
                Work::Execute => shared.executor.execute(cx, updater).boxed(),
                Work::Cancel => shared.executor.cancel(cx, updater).boxed(),
            };
            AssertUnwindSafe(run).catch_unwind().await
        })
    }

    /// Handles one event; `true` when the execution is over (a direct reply, or a failure).
    async fn handle(
        &mut self,
        task_id: &str,
        context_id: &str,
        event: StreamResponse,
        p: &mut Progress,
    ) -> bool {
        match self.on_event(task_id, context_id, event).await {
            Ok(AfterEvent::KeepGoing) => false,
            Ok(AfterEvent::Replied) => {
                p.replied = true;
                true
            }
            Err(reason) => {
                p.failure = Some(reason);
                true
            }
        }
    }

    /// Whether the execution is over: the task ended, or the executor returned and the task
    /// waits for the client.
    fn is_over(&self, returned: bool) -> bool {
        match &self.task {
            Some(task) if is_terminal(&task.status.state) => true,
            Some(task) => returned && self.status_seen && is_settled(&task.status.state),
            None => false,
        }
    }

    /// Settles the execution: never left working (an execution that ends without a settled
    /// state fails its task; a direct reply ends one that began no task, or left its task
    /// waiting), and the caller told the outcome.
    async fn finish(&mut self, task_id: &str, context_id: &str, p: Progress) {
        let settled = match &self.task {
            Some(t) => is_settled(&t.status.state),
            None => p.replied,
        };
        let reason = p.failure.or_else(|| {
            (!settled).then(|| "the agent ended without a final or interrupted state".to_owned())
        });
        if let Some(reason) = reason {
            // A task another replica took over is that replica's to settle.
            if !self.lost_lease
                && self
                    .task
                    .as_ref()
                    .is_none_or(|t| !is_terminal(&t.status.state))
            {
                self.fail(task_id, context_id, reason).await;
            }
        }
        let outcome = match (&self.store_failure, &self.task) {
            // What the store holds is the last write that succeeded; the caller is told.
            (Some(error), _) => Err(error.clone()),
            (None, Some(_)) => Ok(self.answer()),
            (None, None) => Err(ServiceError::internal("the agent answered nothing")),
        };
        self.settle(outcome);
    }

    /// The task's scope in the stores: its tenant and owner.
    fn scope(&self) -> Scope<'_> {
        Scope::tenant(self.tenant.as_deref()).owner(&self.owner)
    }

    /// Lets the task go: the next execution may take it, and the entry goes with its last user.
    fn release(self, guard: OwnedMutexGuard<()>) {
        drop(guard);
        drop(self);
    }

    /// One event of the executor: applied, stored, sent live and to the push configs. An error
    /// is the reason the task fails.
    async fn on_event(
        &mut self,
        task_id: &str,
        context_id: &str,
        event: StreamResponse,
    ) -> Result<AfterEvent, String> {
        if let StreamResponse::Message(message) = &event {
            self.on_reply(task_id, context_id, message).await?;
            return Ok(AfterEvent::Replied);
        }
        self.live.room().await;
        let before = self.task.as_ref().map(|t| t.status.state.clone());
        let logged = match self.task.is_some() {
            true => {
                let stamped = |t: &Task| stamp_event(event.clone(), t);
                let known = self.new_messages_of(&event).await;
                let (chunk, artifacts) = self.artifacts_of(&event)?;
                let applied = chunk.as_ref().or(known.as_ref()).unwrap_or(&event);
                let change = |t: &mut Task| apply(t, applied);
                self.write(&change, &stamped, artifacts).await?
            }
            false => self.create(task_id, context_id, &event).await?,
        };
        let task = self.task.as_ref().expect("written or created above");
        telemetry::task_moved(
            before.as_ref().map(|s| s.as_str()),
            task.status.state.as_str(),
        );
        let event = logged.unwrap_or_else(|| stamp_event(event, task));
        self.send_live(Some(self.version), || event.clone());
        // A push config that came with the message is kept once the task exists.
        if let Some((config, protocol)) = self.push.take() {
            self.keep_push(task_id, config, protocol).await;
        }
        // Only a status this execution set settles the call: a continued task still shows the
        // interrupted state it waited in until the agent says otherwise.
        if matches!(
            event,
            StreamResponse::StatusUpdate(_) | StreamResponse::Task(_)
        ) {
            self.status_seen = true;
        }
        let task = self.task.as_ref().expect("written or created above");
        let settled = self.status_seen && is_settled(&task.status.state);
        if let Some(tx) = self.first.take() {
            let _ = tx.send(Ok(FirstAnswer::Task {
                task: Box::new(self.answer()),
                settled,
            }));
        }
        if settled {
            self.settled.send_replace(Some(Ok(self.answer())));
        }
        self.notify(event).await;
        Ok(AfterEvent::KeepGoing)
    }

    /// A direct message of the executor: to a new message it belongs to no task; to a waiting
    /// task it joins the history, and the task keeps waiting.
    async fn on_reply(
        &mut self,
        task_id: &str,
        context_id: &str,
        message: &Message,
    ) -> Result<(), String> {
        let mut message = stamped(message, task_id, context_id);
        let version = match self.task.is_some() {
            false => {
                message.task_id = None;
                None
            }
            true => {
                let keep = |t: &mut Task| {
                    t.history.push(message.clone());
                    Ok(())
                };
                let logged = |_: &Task| StreamResponse::Message(message.clone());
                self.write(&keep, &logged, UNCHANGED).await?;
                Some(self.version)
            }
        };
        self.answer_first(|| Ok(FirstAnswer::Message(Box::new(message.clone()))));
        self.send_live(version, || StreamResponse::Message(message));
        Ok(())
    }

    /// Fails the task with `reason` as its status message (creating it when the agent never
    /// began one); a direct reply already sent is left alone.
    async fn fail(&mut self, task_id: &str, context_id: &str, reason: String) {
        let message = agent_message(
            task_id,
            context_id,
            vec![crate::executor::text_part(&reason)],
        );
        let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
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
}
