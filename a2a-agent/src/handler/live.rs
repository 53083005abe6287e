//! The live-task registry: what this process knows of a task beyond the store, while something
//! here uses it.
//!
//! A [`LiveTask`] holds the lock that serializes the task's executions, the broadcast channel its
//! live events go out on, and, while an execution runs, the way to ask that execution to cancel.
//! [`LiveTasks`] maps `(tenant, task id)` to them, weakly: whoever uses a task (an execution, a
//! caller waiting on its lock, a stream, a subscription, a cancel) holds its `Arc<LiveTask>`, and
//! the last one to let go removes the entry (see `Drop for LiveTask`), so no path has to remember
//! to clean up.

use a2a_types::v1::StreamResponse;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{broadcast, mpsc};

use crate::executor::TaskContext;

/// A cancel for the running execution: the context its executor's `cancel` gets. Boxed, because
/// a tokio channel allocates its slots 32 at a time (32 contexts inline are 32 KiB).
pub(super) type CancelRequest = Box<TaskContext>;

/// How many events a subscriber may fall behind before its stream is closed with an error.
const LIVE_EVENTS: usize = 1024;

/// How far behind the slowest subscriber may be before the execution waits for it (see
/// [`LiveTask::room`]), and for how long it waits at most.
const SLOW_SUBSCRIBER: usize = LIVE_EVENTS - 128;
const SLOW_SUBSCRIBER_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// A task's key in the registry: its tenant (empty for none) and its id.
type Key = (String, String);

/// The tasks something in this process uses now (see the [module docs](self)).
#[derive(Default)]
pub(super) struct LiveTasks {
    entries: Mutex<HashMap<Key, Weak<LiveTask>>>,
    /// Whether the tasks' events can be read again from their log (other replicas write them):
    /// then an event is sent only right after the one before it (see [`Published::Gap`]).
    logged: bool,
}

impl LiveTasks {
    /// The registry of a handler whose tasks' events are logged (`logged`) or not.
    pub(super) fn new(logged: bool) -> LiveTasks {
        LiveTasks {
            entries: Mutex::default(),
            logged,
        }
    }

    /// The task's entry: the one in use, or a new one.
    pub(super) fn entry(self: &Arc<Self>, tenant: Option<&str>, task_id: &str) -> Arc<LiveTask> {
        let key = (tenant.unwrap_or_default().to_owned(), task_id.to_owned());
        let mut entries = lock(&self.entries);
        if let Some(live) = entries.get(&key).and_then(Weak::upgrade) {
            return live;
        }
        let live = Arc::new(LiveTask {
            key: key.clone(),
            registry: Arc::downgrade(self),
            lock: Arc::new(tokio::sync::Mutex::new(())),
            events: Mutex::new(Events::default()),
            cancel: Mutex::new(None),
            ended_elsewhere: tokio::sync::Notify::new(),
            changed: tokio::sync::Notify::new(),
            catching_up: tokio::sync::Mutex::new(()),
            logged: self.logged,
        });
        entries.insert(key, Arc::downgrade(&live));
        live
    }

    /// The task's entry, if something here uses it.
    pub(super) fn get(&self, tenant: &str, task_id: &str) -> Option<Arc<LiveTask>> {
        let key = (tenant.to_owned(), task_id.to_owned());
        lock(&self.entries).get(&key).and_then(Weak::upgrade)
    }

    /// Every entry in use.
    pub(super) fn in_use(&self) -> Vec<Arc<LiveTask>> {
        lock(&self.entries)
            .values()
            .filter_map(Weak::upgrade)
            .collect()
    }

    /// How many tasks have an entry (for the tests that no entry is kept).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        lock(&self.entries).len()
    }
}

/// An event as it goes out live: the task version it made (`None` for one that made none: a
/// new task before it is stored, a direct reply), and the event.
pub(super) type Sequenced = (Option<u64>, StreamResponse);

/// One task in use in this process: its execution lock, its live events, and the running
/// execution's cancel requests.
pub(super) struct LiveTask {
    key: Key,
    registry: Weak<LiveTasks>,
    /// Held by an execution from its start until its task settles: messages to one task are
    /// served one at a time.
    pub(super) lock: Arc<tokio::sync::Mutex<()>>,
    events: Mutex<Events>,
    /// Set while an execution runs: asks it to run the executor's cancel.
    cancel: Mutex<Option<mpsc::Sender<CancelRequest>>>,
    /// Told when another replica ended the task (its terminal event came from the log, not
    /// from this process): the running execution stops.
    pub(super) ended_elsewhere: tokio::sync::Notify,
    /// Told at each of the other replicas' wake-ups for the task: a call waiting for another
    /// replica's lease on it tries again.
    pub(super) changed: tokio::sync::Notify,
    /// Held while the task's log is read for the live events, so that one read runs at a time.
    pub(super) catching_up: tokio::sync::Mutex<()>,
    /// See [`LiveTasks::logged`].
    logged: bool,
}

/// What [`LiveTask::publish`] did with an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Published {
    /// Sent (to the subscribers there are, if any).
    Sent,
    /// Not sent: an event of its version, or a newer one, was.
    Old,
    /// Not sent: events between the last one sent and this one were not (another replica wrote
    /// them); the task's log has them, and this one after them.
    Gap,
}

/// A task's live events.
#[derive(Default)]
struct Events {
    /// Made by the first subscriber: most tasks have none (a blocking send reads the outcome,
    /// not the events), and a 1024-slot channel per task was the handler's largest cost. Events
    /// are shared (`Arc`): the channel makes all its slots at once, 48 KiB so, 400 KiB with the
    /// events inline (an allocation past malloc's mmap threshold for every stream).
    tx: Option<broadcast::Sender<Arc<Sequenced>>>,
    /// The version of the last event sent: an event of this version or an older one is not sent
    /// again (this process's execution and the task's log may both offer it). `None` until the
    /// first is sent, or a subscriber says where it starts.
    last: Option<u64>,
    /// This process's execution is writing the task and has not sent the event yet: a
    /// subscriber must not start the log after a version whose event is still to be sent.
    writing: bool,
    /// The execution waited for a slow subscriber in vain: it waits no more until that one is
    /// gone or has caught up.
    gave_up: bool,
}

impl LiveTask {
    /// The task's tenant (`""` for the default one) and id.
    pub(super) fn key(&self) -> (&str, &str) {
        (&self.key.0, &self.key.1)
    }

    /// The task's live events from now on.
    pub(super) fn subscribe(&self) -> broadcast::Receiver<Arc<Sequenced>> {
        lock(&self.events)
            .tx
            .get_or_insert_with(|| broadcast::channel(LIVE_EVENTS).0)
            .subscribe()
    }

    /// Whether anyone here follows the task's events.
    pub(super) fn is_followed(&self) -> bool {
        lock(&self.events)
            .tx
            .as_ref()
            .is_some_and(|tx| tx.receiver_count() > 0)
    }

    /// Sends an event to the subscribers, if there are any (`event` runs only then), unless an
    /// event of its version or a newer one was sent already, or (for logged tasks) the ones
    /// between the last sent and it were not: see [`Published`].
    pub(super) fn publish(
        &self,
        version: Option<u64>,
        event: impl FnOnce() -> StreamResponse,
    ) -> Published {
        let mut events = lock(&self.events);
        if let Some(v) = version {
            events.writing = false;
            match events.last {
                Some(last) if v <= last => return Published::Old,
                Some(last) if self.logged && v > last + 1 => return Published::Gap,
                _ => events.last = Some(v),
            }
        }
        if let Some(tx) = events.tx.as_ref().filter(|tx| tx.receiver_count() > 0) {
            let _ = tx.send(Arc::new((version, event())));
        }
        Published::Sent
    }

    /// Waits while the slowest subscriber is nearly [`LIVE_EVENTS`] behind, so that an executor
    /// faster than a stream's reader (10,000 chunks from a memory store) is held back to its
    /// pace rather than the stream cut: as the official SDK's bounded event queue does. A
    /// subscriber that reads nothing for a second is waited for once, then left to fall behind
    /// (its stream then ends with an error, and may resume with `Last-Event-ID`).
    pub(super) async fn room(&self) {
        let deadline = tokio::time::Instant::now() + SLOW_SUBSCRIBER_WAIT;
        loop {
            {
                let mut events = lock(&self.events);
                let behind = events.tx.as_ref().map_or(0, broadcast::Sender::len);
                if behind < SLOW_SUBSCRIBER {
                    events.gave_up = false;
                    return;
                }
                if events.gave_up || tokio::time::Instant::now() >= deadline {
                    events.gave_up = true;
                    return;
                }
            }
            // The channel does not say when a subscriber reads: a short sleep, only when one
            // is this far behind.
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    /// Marks the start (`true`) or the failed end (`false`) of a write of this process's
    /// execution; [`publish`](Self::publish) of its event ends it too.
    pub(super) fn writing(&self, writing: bool) {
        // Only a log's reader asks (`begin_at`): a task without one skips the lock.
        if self.logged {
            lock(&self.events).writing = writing;
        }
    }

    /// A subscriber that read the task at version `at` begins there: the log is read from it,
    /// unless events were sent here already (then from the last of those), or this process is
    /// writing the task (then from the event it sends).
    pub(super) fn begin_at(&self, at: u64) {
        let mut events = lock(&self.events);
        if events.last.is_none() && !events.writing {
            events.last = Some(at);
        }
    }

    /// The version of the last event sent, if any was.
    pub(super) fn sent(&self) -> Option<u64> {
        lock(&self.events).last
    }

    /// Where the running execution takes cancel requests (`None` ends that).
    pub(super) fn set_cancel_requests(&self, requests: Option<mpsc::Sender<CancelRequest>>) {
        *lock(&self.cancel) = requests;
    }

    /// The running execution's cancel requests, when one runs.
    pub(super) fn cancel_requests(&self) -> Option<mpsc::Sender<CancelRequest>> {
        lock(&self.cancel).clone()
    }

    /// Whether an execution runs here.
    pub(super) fn is_running(&self) -> bool {
        lock(&self.cancel).is_some()
    }
}

impl Drop for LiveTask {
    fn drop(&mut self) {
        let Some(registry) = self.registry.upgrade() else {
            return;
        };
        let mut entries = lock(&registry.entries);
        // A new user may have put a new entry in this one's place since its last holder let go.
        if entries
            .get(&self.key)
            .is_some_and(|w| w.strong_count() == 0)
        {
            entries.remove(&self.key);
        }
    }
}

/// A subscriber's hold on a task: its events, and its [`LiveTask`] (so that the entry, and with
/// it the channel, lasts as long as the subscriber).
pub(super) struct Subscription {
    events: broadcast::Receiver<Arc<Sequenced>>,
    _live: Arc<LiveTask>,
}

impl Subscription {
    pub(super) fn new(live: &Arc<LiveTask>) -> Subscription {
        Subscription {
            events: live.subscribe(),
            _live: Arc::clone(live),
        }
    }

    pub(super) async fn recv(&mut self) -> Result<Sequenced, broadcast::error::RecvError> {
        self.events.recv().await.map(Arc::unwrap_or_clone)
    }

    /// An event already sent, if any; `Closed` when there is none.
    pub(super) fn try_recv(&mut self) -> Result<Sequenced, broadcast::error::RecvError> {
        self.events
            .try_recv()
            .map(Arc::unwrap_or_clone)
            .map_err(|_| broadcast::error::RecvError::Closed)
    }
}

/// A std mutex's guard, whether or not a holder panicked (the data is a map or an option that a
/// panic cannot leave half-changed).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
