//! Ordered, bounded, non-blocking delivery: one queue per webhook registration.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use a2a_types::rt::telemetry::{self, TraceContext};
use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};
use tokio::runtime::Handle;
use tokio::sync::Notify;

use super::sender::{redact_url, Notification, PushSender};

/// Delivers a task's events to its webhooks in order, without holding the caller.
///
/// Each registration (one `(tenant, taskId, id, url)` of a [`TaskPushNotificationConfig`]) has
/// its own queue, drained by one Tokio task at a time: the events of one registration are
/// delivered one after the other, in the order they were [`enqueue`](Self::enqueue)d, each
/// attempted (with retries) before the next is sent. Registrations do not wait for each other,
/// so a hanging webhook delays only its own events. A queue's task ends when the queue is empty;
/// an idle dispatcher holds no task.
///
/// Bounded: a queue holds at most `capacity` events waiting behind the one being delivered.
/// When a new event finds its queue full, the **oldest** waiting event is dropped (and counted in
/// [`DispatchStats::dropped`], with a warning logged): the newest state of a task is the one a
/// receiver needs, and a webhook that is down would otherwise grow the queue without end.
///
/// ```no_run
/// use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
/// # use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};
/// # async fn example(configs: Vec<TaskPushNotificationConfig>, event: StreamResponse) {
/// let dispatcher = PushDispatcher::new(PushSender::new(PushUrlPolicy::default()).unwrap());
/// dispatcher.enqueue(configs, event); // returns at once
/// dispatcher.idle().await; // e.g. at shutdown
/// # }
/// ```
#[derive(Clone)]
pub struct PushDispatcher {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for PushDispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushDispatcher")
            .field("sender", &self.inner.sender)
            .field("capacity", &self.inner.capacity)
            .field("stats", &self.stats())
            .finish()
    }
}

/// Counters of a [`PushDispatcher`] since it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    /// Events a webhook took.
    pub delivered: u64,
    /// Events that failed after their last attempt (or were refused).
    pub failed: u64,
    /// Events dropped unsent because their queue was full.
    pub dropped: u64,
    /// Events waiting now (not counting those being delivered).
    pub waiting: usize,
    /// Registrations with a delivery under way now.
    pub active: usize,
}

struct Inner {
    sender: PushSender,
    capacity: usize,
    handle: Handle,
    /// A key is present while its queue's task runs; its deque holds the events waiting.
    queues: Mutex<HashMap<QueueKey, VecDeque<Job>>>,
    /// Woken whenever a queue's task ends.
    ended: Notify,
    delivered: AtomicU64,
    failed: AtomicU64,
    dropped: AtomicU64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct QueueKey {
    tenant: Option<String>,
    task_id: Option<String>,
    id: Option<String>,
    url: String,
}

impl QueueKey {
    fn of(config: &TaskPushNotificationConfig) -> Self {
        QueueKey {
            tenant: config.tenant.clone(),
            task_id: config.task_id.clone(),
            id: config.id.clone(),
            url: config.url.clone(),
        }
    }
}

struct Job {
    config: TaskPushNotificationConfig,
    event: Arc<Notification>,
    /// The span that enqueued it (the delivery's parent) and the trace context it came with.
    span: tracing::Span,
    trace: Option<Arc<TraceContext>>,
}

impl Inner {
    fn queues(&self) -> MutexGuard<'_, HashMap<QueueKey, VecDeque<Job>>> {
        // A panic while holding the lock cannot leave the map half-updated (each change is one
        // call), so a poisoned lock is still good.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PushDispatcher {
    /// How many events may wait per registration by default.
    pub const DEFAULT_CAPACITY: usize = 64;

    /// A dispatcher with [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY), delivering on the
    /// current Tokio runtime.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime (it keeps the runtime's handle, so that
    /// [`enqueue`](Self::enqueue) works from any thread).
    pub fn new(sender: PushSender) -> Self {
        Self::with_capacity(sender, Self::DEFAULT_CAPACITY)
    }

    /// A dispatcher whose queues hold at most `capacity` waiting events each (at least 1).
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime, as [`new`](Self::new).
    pub fn with_capacity(sender: PushSender, capacity: usize) -> Self {
        PushDispatcher {
            inner: Arc::new(Inner {
                sender,
                capacity: capacity.max(1),
                handle: Handle::current(),
                queues: Mutex::new(HashMap::new()),
                ended: Notify::new(),
                delivered: AtomicU64::new(0),
                failed: AtomicU64::new(0),
                dropped: AtomicU64::new(0),
            }),
        }
    }

    /// The sender the queues deliver with.
    pub fn sender(&self) -> &PushSender {
        &self.inner.sender
    }

    /// Queues `event` for every config and returns at once. Events given to one registration
    /// are delivered in the order of the calls.
    pub fn enqueue(&self, configs: Vec<TaskPushNotificationConfig>, event: StreamResponse) {
        self.enqueue_traced(configs, event, None);
    }

    /// [`enqueue`](Self::enqueue), for work that came with a trace context: each delivery is a
    /// child of the current span, and carries `trace` (see [`PushSender::deliver_traced`]).
    pub fn enqueue_traced(
        &self,
        configs: Vec<TaskPushNotificationConfig>,
        event: StreamResponse,
        trace: Option<TraceContext>,
    ) {
        self.enqueue_notification(configs, Notification::Event(event), trace);
    }

    /// [`enqueue_traced`](Self::enqueue_traced) of a notification in either version's shape
    /// (see [`Notification`]): what the request handler sends a config set over 0.3.
    pub fn enqueue_notification(
        &self,
        configs: Vec<TaskPushNotificationConfig>,
        notification: Notification,
        trace: Option<TraceContext>,
    ) {
        let event = Arc::new(notification);
        let trace = trace.map(Arc::new);
        let span = tracing::Span::current();
        let mut queues = self.inner.queues();
        for config in configs {
            let key = QueueKey::of(&config);
            let job = Job {
                config,
                event: Arc::clone(&event),
                span: span.clone(),
                trace: trace.clone(),
            };
            match queues.get_mut(&key) {
                Some(waiting) => {
                    if waiting.len() >= self.inner.capacity {
                        if let Some(old) = waiting.pop_front() {
                            self.inner.dropped.fetch_add(1, Ordering::Relaxed);
                            telemetry::push_outcome("dropped");
                            tracing::warn!(
                                task_id = old.config.task_id.as_deref().unwrap_or_default(),
                                config_id = old.config.id.as_deref().unwrap_or_default(),
                                "push queue for {} is full ({} waiting); dropped its oldest event",
                                redact_url(&old.config.url),
                                self.inner.capacity
                            );
                        }
                    }
                    waiting.push_back(job);
                }
                None => {
                    queues.insert(key.clone(), VecDeque::from([job]));
                    self.inner.handle.spawn(drain(Arc::clone(&self.inner), key));
                }
            }
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> DispatchStats {
        let queues = self.inner.queues();
        DispatchStats {
            delivered: self.inner.delivered.load(Ordering::Relaxed),
            failed: self.inner.failed.load(Ordering::Relaxed),
            dropped: self.inner.dropped.load(Ordering::Relaxed),
            waiting: queues.values().map(VecDeque::len).sum(),
            active: queues.len(),
        }
    }

    /// Waits until every queue is empty and no delivery is under way (for a graceful shutdown,
    /// or a test). Events enqueued meanwhile are waited for too.
    pub async fn idle(&self) {
        loop {
            let ended = self.inner.ended.notified();
            let mut ended = std::pin::pin!(ended);
            // Registered before looking, so that a task ending in between still wakes us.
            ended.as_mut().enable();
            if self.inner.queues().is_empty() {
                return;
            }
            ended.await;
        }
    }
}

/// Delivers a registration's events one by one until its queue is empty, then removes it.
async fn drain(inner: Arc<Inner>, key: QueueKey) {
    let mut guard = DrainGuard {
        inner: &inner,
        key: &key,
        finished: false,
    };
    loop {
        let job = {
            let mut queues = inner.queues();
            match queues.get_mut(&key).and_then(VecDeque::pop_front) {
                Some(job) => job,
                None => {
                    queues.remove(&key);
                    guard.finished = true;
                    drop(queues);
                    inner.ended.notify_waiters();
                    return;
                }
            }
        };
        let delivery =
            inner
                .sender
                .deliver_notification(&job.config, &job.event, None, job.trace.as_deref());
        match tracing::Instrument::instrument(delivery, job.span).await {
            Ok(_) => inner.delivered.fetch_add(1, Ordering::Relaxed),
            Err(_) => inner.failed.fetch_add(1, Ordering::Relaxed),
        };
    }
}

/// Removes the queue if its task is dropped before it finished (the runtime shutting down), so
/// that a later event starts a new task instead of waiting behind a dead one.
struct DrainGuard<'a> {
    inner: &'a Inner,
    key: &'a QueueKey,
    finished: bool,
}

impl Drop for DrainGuard<'_> {
    fn drop(&mut self) {
        if !self.finished {
            let lost = self.inner.queues().remove(self.key).map_or(0, |q| q.len());
            self.inner.dropped.fetch_add(lost as u64, Ordering::Relaxed);
            (0..lost).for_each(|_| telemetry::push_outcome("dropped"));
            self.inner.ended.notify_waiters();
        }
    }
}
