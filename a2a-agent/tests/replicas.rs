//! Replicas of one agent on one PostgreSQL database (`A2A_TEST_POSTGRES_URL`, see
//! `tests/common`): each replica a `RequestHandler` with its own store connections, live
//! registry and `PostgresFeed` (its own `LISTEN` connection), as two processes would have. The
//! events of a task that one replica runs reach a subscriber on another, in order, with no gap
//! and no duplicate, through the task's event log; a cancel served by another replica stops the
//! running execution; a dropped `LISTEN` connection loses nothing.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_agent::cluster::PostgresFeed;
use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy, EVENT_ID_HEADER};
use a2a_agent::store::{PostgresStore, TaskStore};
use a2a_agent::{
    AgentExecutor, ExecutorError, RequestHandler, RequestHandlerBuilder, TaskContext, TaskUpdater,
};
use a2a_types::rt::auth::Caller;
use a2a_types::rt::service::{EventIds, RequestContext};
use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    A2aService, CancelTaskRequest, EventStream, Message, Part, PartContent, Role,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, TaskState, TaskStatus,
};
use futures_util::StreamExt as _;
use tokio::sync::Notify;

/// Runs what its message id says: `gated-N` works, waits for the gate, then sends N artifacts
/// (each naming the microsecond it was sent) and completes; `hold` works until it is stopped,
/// as does `rerun`, which may run again when its replica stops (and then completes);
/// `wait` works a moment, then waits for input, as does every later message to its task.
#[derive(Clone, Default)]
struct Agent {
    gate: Arc<Notify>,
    /// Executions under way, and the most at once.
    running: Arc<AtomicUsize>,
    /// Executions whose work was dropped before it returned (stopped from outside).
    stopped: Arc<AtomicUsize>,
    /// Executions under way per task, and the most of one task at once.
    per_task: Arc<std::sync::Mutex<(std::collections::HashMap<String, usize>, usize)>>,
    /// The callers of the cancels the executor ran, by id.
    cancelers: Arc<std::sync::Mutex<Vec<String>>>,
}

/// Counts an execution's work while it runs, and whether it was stopped.
struct Running(Agent, String, bool);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
        let mut per_task = self.0.per_task.lock().unwrap();
        *per_task.0.get_mut(&self.1).unwrap() -= 1;
        if !self.2 {
            self.0.stopped.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Agent {
    fn most_at_once_on_one_task(&self) -> usize {
        self.per_task.lock().unwrap().1
    }

    /// Waits (at most 5 s) until `n` executions were stopped from outside, and checks it.
    async fn wait_until_stopped(&self, n: usize) {
        for _ in 0..100 {
            if self.stopped.load(Ordering::SeqCst) == n {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(self.stopped.load(Ordering::SeqCst), n, "executions stopped");
    }
}

impl AgentExecutor for Agent {
    async fn execute(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        self.running.fetch_add(1, Ordering::SeqCst);
        {
            let mut per_task = self.per_task.lock().unwrap();
            let now = per_task.0.entry(cx.task_id.clone()).or_default();
            *now += 1;
            let now = *now;
            per_task.1 = per_task.1.max(now);
        }
        let mut running = Running(self.clone(), cx.task_id.clone(), false);
        let id = cx
            .message
            .as_ref()
            .map(|m| m.message_id.clone())
            .unwrap_or_default();
        if id == "rerun" && cx.task.is_some() {
            // Run again after its replica stopped: this time it finishes.
            running.2 = true;
            return task.complete(Some(task.text_message("ran again"))).await;
        }
        if cx.task.is_some() {
            // A later message: a moment's work, then the task waits again, and the executor
            // lingers a moment before it returns (the next message must wait for that too).
            tokio::time::sleep(Duration::from_millis(2)).await;
            task.require_input(None).await?;
            tokio::time::sleep(Duration::from_millis(3)).await;
            running.2 = true;
            return Ok(());
        }
        task.start_work(None).await?;
        if let Some(n) = id.strip_prefix("gated-") {
            self.gate.notified().await;
            for _ in 0..n.parse::<usize>().unwrap() {
                task.add_text_artifact("tick", &micros().to_string())
                    .await?;
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        } else if id == "wait" {
            tokio::time::sleep(Duration::from_millis(300)).await;
            running.2 = true;
            return task.require_input(None).await;
        } else {
            tokio::time::sleep(Duration::from_secs(60)).await;
        }
        running.2 = true;
        task.complete(None).await
    }

    async fn cancel(&self, cx: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
        let caller = cx.call.caller.id().to_owned();
        self.cancelers.lock().unwrap().push(caller);
        task.cancel(None).await
    }

    /// A task begun by a `rerun` message may run again (it holds until then).
    fn may_rerun(&self, task: &Task) -> bool {
        task.history
            .first()
            .is_some_and(|m| m.message_id == "rerun")
    }
}

fn micros() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_micros()
}

/// A replica: its own pool, feed and handler, on the test database.
async fn replica(url: &str, agent: &Agent) -> RequestHandler<Agent> {
    replica_with(url, agent, Duration::from_secs(30)).await
}

/// A replica whose leases last `ttl`, with push notifications (to webhooks on 127.0.0.1 too)
/// kept in the same store.
async fn replica_with(url: &str, agent: &Agent, ttl: Duration) -> RequestHandler<Agent> {
    replica_tuned(url, agent, ttl, |b| b).await
}

/// [`replica_with`], its builder given to `tune` last.
async fn replica_tuned(
    url: &str,
    agent: &Agent,
    ttl: Duration,
    tune: impl FnOnce(RequestHandlerBuilder<Agent>) -> RequestHandlerBuilder<Agent>,
) -> RequestHandler<Agent> {
    let store = Arc::new(PostgresStore::connect(url).await.unwrap());
    let feed = PostgresFeed::start(&store).await.unwrap();
    let local = PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        allow_private: false,
    };
    // Quick attempts, fifty of them: a webhook that is down is retried for about ten seconds,
    // longer than a test keeps one down (a loaded machine included).
    let sender = PushSender::builder(local)
        .attempts(50)
        .timeout(Duration::from_millis(400))
        .backoff(Duration::from_millis(50), Duration::from_millis(200))
        .build()
        .unwrap();
    let builder = RequestHandler::builder(agent.clone())
        .task_store(store.clone())
        .push_notifications(store, PushDispatcher::new(sender))
        .event_feed(Arc::new(feed))
        .lease_ttl(ttl);
    tune(builder).build()
}

fn message(id: &str, task_id: Option<&str>) -> Message {
    Message {
        message_id: id.into(),
        role: Role::User,
        task_id: task_id.map(Into::into),
        parts: vec![Part {
            content: PartContent::Text(id.into()),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A blocking message `id` to the task `task_id`: its answer.
async fn send(h: &RequestHandler<Agent>, id: &str, task_id: &str) -> Task {
    let request = SendMessageRequest {
        message: message(id, Some(task_id)),
        ..Default::default()
    };
    match h.send_message(cx("SendMessage"), request).await.unwrap() {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    }
}

/// The task as stored, read through a connection of the test's own.
async fn stored_version(url: &str, id: &str) -> u64 {
    let store = PostgresStore::connect(url).await.unwrap();
    store
        .get_task(Default::default(), id)
        .await
        .unwrap()
        .unwrap()
        .version
}

async fn stored(url: &str, id: &str) -> Task {
    let store = PostgresStore::connect(url).await.unwrap();
    store.get_task(None.into(), id).await.unwrap().unwrap().task
}

fn cx(method: &'static str) -> RequestContext {
    RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, method)
}

/// Starts a task on `h` with a message of `id`, answered once it works.
async fn start(h: &RequestHandler<Agent>, id: &str) -> Task {
    start_with(h, id, None).await
}

/// [`start`], with a push config for the task.
async fn start_with(
    h: &RequestHandler<Agent>,
    id: &str,
    push: Option<TaskPushNotificationConfig>,
) -> Task {
    let request = SendMessageRequest {
        message: message(id, None),
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            task_push_notification_config: push,
            ..Default::default()
        }),
        ..Default::default()
    };
    match h.send_message(cx("SendMessage"), request).await.unwrap() {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    }
}

async fn subscribe(h: &RequestHandler<Agent>, id: &str) -> EventStream<StreamResponse> {
    let request = SubscribeToTaskRequest {
        id: id.into(),
        ..Default::default()
    };
    h.subscribe_to_task(cx("SubscribeToTask"), request)
        .await
        .unwrap()
}

/// Every event of `stream`, with the microsecond each arrived, to its end (at most 30 s).
async fn collect(stream: EventStream<StreamResponse>) -> Vec<(StreamResponse, u128)> {
    let all = stream.map(|e| (e.unwrap(), micros())).collect::<Vec<_>>();
    tokio::time::timeout(Duration::from_secs(30), all)
        .await
        .expect("the stream ends")
}

fn ends_completed(events: &[(StreamResponse, u128)]) -> bool {
    matches!(events.last(), Some((StreamResponse::StatusUpdate(u), _))
        if u.status.state == TaskState::Completed)
}

/// The delivery delays of the artifacts in `events`, in microseconds, sorted.
fn delays(events: &[(StreamResponse, u128)]) -> Vec<u128> {
    let mut d: Vec<u128> = events
        .iter()
        .filter_map(|(e, at)| match e {
            StreamResponse::ArtifactUpdate(u) => match &u.artifact.parts[0].content {
                PartContent::Text(sent) => Some(at - sent.parse::<u128>().unwrap()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    d.sort_unstable();
    d
}

fn percentile(sorted: &[u128], p: usize) -> f64 {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)] as f64 / 1000.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_on_another_replica_gets_every_event_in_order_to_the_end() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let (a, b) = (replica(&url, &agent).await, replica(&url, &agent).await);
    let task = start(&a, "gated-200").await;
    // One subscriber where the task runs, one on the other replica.
    let here = subscribe(&a, &task.id).await;
    let there = subscribe(&b, &task.id).await;
    agent.gate.notify_one();
    let (here, there) = tokio::join!(collect(here), collect(there));
    assert!(ends_completed(&here), "{:?}", here.last());
    assert!(ends_completed(&there), "{:?}", there.last());
    // The same events, in the same order: the task, 200 artifacts, the end.
    let events = |all: &[(StreamResponse, u128)]| -> Vec<StreamResponse> {
        all.iter().map(|(e, _)| e.clone()).collect()
    };
    assert_eq!(events(&there), events(&here));
    assert_eq!(there.len(), 1 + 200 + 1);
    let d = delays(&there);
    println!(
        "cross-replica delivery of 200 events: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms \
         (same replica: p50 {:.2} ms)",
        percentile(&d, 50),
        percentile(&d, 99),
        percentile(&d, 100),
        percentile(&delays(&here), 50),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_on_another_replica_stops_the_execution_where_it_runs() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let (a, b) = (replica(&url, &agent).await, replica(&url, &agent).await);
    // Alice's task, canceled by her on the other replica.
    let alice = |method| {
        let mut cx = cx(method);
        cx.caller = Caller::new("alice").with_any_tenant();
        cx
    };
    let started = SendMessageRequest {
        message: message("hold", None),
        configuration: Some(SendMessageConfiguration {
            return_immediately: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    };
    let task = match a.send_message(alice("SendMessage"), started).await.unwrap() {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    };
    let follow = SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let here = a
        .subscribe_to_task(alice("SubscribeToTask"), follow)
        .await
        .unwrap();
    let request = CancelTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let canceled = b.cancel_task(alice("CancelTask"), request).await.unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    // The executor's cancel ran on A, for the caller who asked on B.
    assert_eq!(*agent.cancelers.lock().unwrap(), ["alice"]);
    // A's subscriber sees it end, and A's execution stops (its work is dropped, not left
    // running for its 60 s).
    let here = collect(here).await;
    let last = here.last().map(|(e, _)| e.clone());
    let state = match &last {
        Some(StreamResponse::StatusUpdate(u)) => u.status.state.clone(),
        Some(StreamResponse::Task(t)) => t.status.state.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(state, TaskState::Canceled);
    agent.wait_until_stopped(1).await;
    assert_eq!(agent.running.load(Ordering::SeqCst), 0);
    let store = PostgresStore::connect(&url).await.unwrap();
    let stored = store
        .get_task(None.into(), &task.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.task.status.state, TaskState::Canceled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_listen_connection_loses_no_event() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let (a, b) = (replica(&url, &agent).await, replica(&url, &agent).await);
    let task = start(&a, "gated-50").await;
    let there = subscribe(&b, &task.id).await;
    // Every listening connection of the database is cut (other tests' replicas too: they
    // resync as well), while the task goes on.
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    let cut: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    )
    .fetch_all(&admin)
    .await
    .unwrap();
    assert!(cut.len() >= 2, "each replica listens: {} cut", cut.len());
    agent.gate.notify_one();
    let there = collect(there).await;
    assert!(ends_completed(&there), "{:?}", there.last());
    assert_eq!(there.len(), 1 + 50 + 1, "every event once");
    drop(b);
}

/// A TCP hop between one replica and the database that the test can cut (every connection
/// through it closed, new ones refused) and heal: a network partition of that replica alone.
struct Partition {
    url: String,
    open: Arc<std::sync::atomic::AtomicBool>,
    links: Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Partition {
    /// A hop to the database of `url`; its own URL is [`Partition::url`].
    async fn to(url: &str) -> Partition {
        // postgres://user@host:port/db: the authority is between the `@` and the next `/`.
        let (head, rest) = url.split_once('@').expect("a URL with a user");
        let (authority, tail) = rest.split_once('/').expect("a URL with a database");
        let (mut hop, addr) = Partition::to_addr(authority.parse().expect("host:port")).await;
        hop.url = format!("{head}@{addr}/{tail}");
        hop
    }

    /// A hop to `upstream`, and its own address.
    async fn to_addr(upstream: std::net::SocketAddr) -> (Partition, std::net::SocketAddr) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let hop = listener.local_addr().unwrap();
        let open = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let links = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (accepting, linked) = (Arc::clone(&open), Arc::clone(&links));
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !accepting.load(Ordering::SeqCst) {
                    continue; // dropped: refused
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut up) = tokio::net::TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut up).await;
                    }
                });
                linked.lock().unwrap().push(link.abort_handle());
            }
        });
        let partition = Partition {
            url: format!("http://{hop}"),
            open,
            links,
        };
        (partition, hop)
    }

    /// Closes every connection through the hop (new ones still go through).
    fn drop_links(&self) {
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        self.drop_links();
    }

    fn heal(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_cut_off_while_the_task_runs_gets_every_event_once_it_is_back() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let a = replica(&url, &agent).await;
    let hop = Partition::to(&url).await;
    let b = replica(&hop.url, &agent).await;
    let task = start(&a, "gated-50").await;
    let there = subscribe(&b, &task.id).await;
    // B is cut off (its LISTEN connection and its pool's) while A runs the task to its end: B
    // hears none of A's notifications.
    hop.cut();
    agent.gate.notify_one();
    let store = PostgresStore::connect(&url).await.unwrap();
    for _ in 0..200 {
        let stored = store
            .get_task(None.into(), &task.id)
            .await
            .unwrap()
            .unwrap();
        if stored.task.status.state == TaskState::Completed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    hop.heal();
    // Back, B reads the log from the last event it sent: the subscriber gets all of it.
    let there = collect(there).await;
    assert!(ends_completed(&there), "{:?}", there.last());
    assert_eq!(there.len(), 1 + 50 + 1, "every event once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_for_a_task_another_replica_runs_waits_for_it_and_runs_once_at_a_time() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let replicas = [
        replica(&url, &agent).await,
        replica(&url, &agent).await,
        replica(&url, &agent).await,
    ];
    // Runs 300 ms on replica 0 before it waits; meanwhile 150 messages come to all three.
    let task = start(&replicas[0], "wait").await;
    let sends = (0..150).map(|i| {
        let h = replicas[i % 3].clone();
        let id = task.id.clone();
        tokio::spawn(async move { send(&h, &format!("more-{i}"), &id).await })
    });
    for s in futures_util::future::join_all(sends).await {
        assert_eq!(s.unwrap().status.state, TaskState::InputRequired);
    }
    assert_eq!(
        agent.most_at_once_on_one_task(),
        1,
        "one execution at a time"
    );
    let history = stored(&url, &task.id).await.history;
    let mut users: Vec<String> = history
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.message_id.clone())
        .collect();
    assert_eq!(users.len(), 151, "every message kept once");
    users.sort();
    users.dedup();
    assert_eq!(users.len(), 151, "no message twice");
}

/// A replica on a runtime of its own, which the test can kill: every execution, heartbeat and
/// connection of it stops at once, as when its process is killed.
struct Doomed {
    runtime: Option<tokio::runtime::Runtime>,
    handler: RequestHandler<Agent>,
}

impl Doomed {
    fn start(url: &str, agent: &Agent, ttl: Duration) -> Doomed {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (url, agent) = (url.to_owned(), agent.clone());
        let handler = std::thread::spawn({
            let handle = runtime.handle().clone();
            move || handle.block_on(replica_with(&url, &agent, ttl))
        })
        .join()
        .unwrap();
        Doomed {
            runtime: Some(runtime),
            handler,
        }
    }

    /// Starts the task on this replica, in its runtime.
    async fn start_task(&self, id: &str) -> Task {
        self.start_task_with(id, None).await
    }

    /// [`start_task`](Self::start_task), with a push config for the task.
    async fn start_task_with(&self, id: &str, push: Option<TaskPushNotificationConfig>) -> Task {
        let (h, id) = (self.handler.clone(), id.to_owned());
        let handle = self.runtime.as_ref().unwrap().handle().clone();
        handle
            .spawn(async move { start_with(&h, &id, push).await })
            .await
            .unwrap()
    }

    fn kill(&mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }
}

/// Kills `doomed` while `survivor` watches its task `id` (started there), and returns how long
/// the task took to settle after the kill, with its last status as the watcher saw it.
async fn kill_and_watch(
    doomed: &mut Doomed,
    survivor: &RequestHandler<Agent>,
    id: &str,
) -> (Duration, TaskStatus, Task) {
    let task = doomed.start_task(id).await;
    let watching = subscribe(survivor, &task.id).await;
    let killed = std::time::Instant::now();
    doomed.kill();
    let events = collect(watching).await;
    let settled = killed.elapsed();
    let last = match events.last() {
        Some((StreamResponse::StatusUpdate(u), _)) => u.status.clone(),
        other => panic!("{other:?}"),
    };
    (settled, last, task)
}

/// The text of a status's message.
fn status_text(status: &TaskStatus) -> &str {
    match status.message.as_ref().map(|m| &m.parts[0].content) {
        Some(PartContent::Text(text)) => text,
        _ => panic!("{status:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tasks_of_a_killed_replica_are_failed_by_another_once_its_lease_expires() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let ttl = Duration::from_secs(1);
    let mut doomed = Doomed::start(&url, &agent, ttl);
    let survivor = replica_with(&url, &agent, ttl).await;
    let (settled, last, task) = kill_and_watch(&mut doomed, &survivor, "hold").await;
    assert_eq!(last.state, TaskState::Failed);
    let why = status_text(&last);
    assert!(why.contains("stopped before the task ended"), "{why}");
    assert!(
        settled < ttl * 4,
        "settled {settled:?} after the kill (lease {ttl:?})"
    );
    println!("a killed replica's task settled {settled:?} after the kill (lease {ttl:?})");
    assert_eq!(stored(&url, &task.id).await.status.state, TaskState::Failed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_its_executor_may_run_again_is_run_again_by_another_replica_once_its_lease_expires()
{
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let ttl = Duration::from_secs(1);
    let mut doomed = Doomed::start(&url, &agent, ttl);
    let survivor = replica_with(&url, &agent, ttl).await;
    let (settled, last, task) = kill_and_watch(&mut doomed, &survivor, "rerun").await;
    assert_eq!(last.state, TaskState::Completed, "run again, not failed");
    assert_eq!(status_text(&last), "ran again");
    assert!(settled < ttl * 4, "completed {settled:?} after the kill");
    assert_eq!(
        agent.most_at_once_on_one_task(),
        1,
        "never two executions at once"
    );
    let stored = stored(&url, &task.id).await;
    assert_eq!(stored.status.state, TaskState::Completed);
    let users = stored
        .history
        .iter()
        .filter(|m| m.role == Role::User)
        .count();
    assert_eq!(users, 1, "the message is not taken twice");
    println!("a killed replica's task ran again and completed {settled:?} after the kill");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_shuts_down_hands_its_running_tasks_over_at_once() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    // Leases of a minute: only the hand-over can settle the task within the test.
    let ttl = Duration::from_secs(60);
    let mut leaving = Doomed::start(&url, &agent, ttl);
    let staying = replica_with(&url, &agent, ttl).await;
    let task = leaving.start_task("hold").await;
    let watching = subscribe(&staying, &task.id).await;
    let (h, handle) = (
        leaving.handler.clone(),
        leaving.runtime.as_ref().unwrap().handle().clone(),
    );
    let stopped = std::time::Instant::now();
    handle
        .spawn(async move { h.shutdown(Duration::from_millis(100)).await })
        .await
        .unwrap();
    leaving.kill();
    let events = collect(watching).await;
    let settled = stopped.elapsed();
    match events.last() {
        Some((StreamResponse::StatusUpdate(u), _)) => assert_eq!(u.status.state, TaskState::Failed),
        other => panic!("{other:?}"),
    }
    assert!(
        settled < Duration::from_secs(5),
        "settled after {settled:?}"
    );
    println!("a stopping replica's task settled {settled:?} after shutdown began");
}

/// What a webhook on 127.0.0.1 received: each notification's event id and event, in order.
type Notifications = Arc<std::sync::Mutex<Vec<(u64, StreamResponse)>>>;

/// A webhook at `addr` (`POST /hook`) that records what it receives, until the test ends.
async fn webhook(addr: std::net::SocketAddr) -> Notifications {
    let received = Notifications::default();
    let record = {
        let received = Arc::clone(&received);
        move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let id = headers[EVENT_ID_HEADER].to_str().unwrap().parse().unwrap();
            let event = serde_json::from_slice(&body).unwrap();
            received.lock().unwrap().push((id, event));
            std::future::ready(axum::http::StatusCode::OK)
        }
    };
    let app = axum::Router::new().route("/hook", axum::routing::post(record));
    let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    received
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_notifications_a_killed_replica_could_not_send_are_sent_by_another_once_the_webhook_is_back(
) {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let ttl = Duration::from_secs(1);
    // The webhook's address, with nothing listening yet: the webhook is down.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut doomed = Doomed::start(&url, &agent, ttl);
    let _survivor = replica_with(&url, &agent, ttl).await;
    let push = TaskPushNotificationConfig {
        url: format!("http://{addr}/hook"),
        ..Default::default()
    };
    let task = doomed.start_task_with("gated-3", Some(push)).await;
    agent.gate.notify_one();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while stored(&url, &task.id).await.status.state != TaskState::Completed {
        assert!(
            std::time::Instant::now() < deadline,
            "the task did not complete"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Killed while its sender retries the webhook that is down.
    tokio::time::sleep(Duration::from_millis(200)).await;
    doomed.kill();
    let back = std::time::Instant::now();
    let received = webhook(addr).await;
    let version = stored_version(&url, &task.id).await;
    // Three artifacts and the completion, each sent with its version.
    let expected: Vec<u64> = (version - 3..=version).collect();
    loop {
        let ids: Vec<u64> = received.lock().unwrap().iter().map(|(id, _)| *id).collect();
        let mut unique = ids.clone();
        unique.dedup();
        if unique == expected {
            break;
        }
        assert!(
            back.elapsed() < Duration::from_secs(10),
            "received {ids:?}, expected {expected:?} in order"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let took = back.elapsed();
    let received = received.lock().unwrap().clone();
    match &received.last().unwrap().1 {
        StreamResponse::StatusUpdate(u) => assert_eq!(u.status.state, TaskState::Completed),
        other => panic!("{other:?}"),
    }
    println!(
        "a killed replica's {} notifications reached the webhook {took:?} after it came back \
         ({} requests; lease {ttl:?})",
        expected.len(),
        received.len()
    );
}

/// A `SubscribeToTask` context whose events get SSE ids (as the server gives every stream), and
/// which resumes after `last_event_id` when given.
fn resumable(last_event_id: Option<u64>) -> (RequestContext, EventIds) {
    let mut cx = cx("SubscribeToTask");
    let ids = EventIds::default();
    cx.extensions.insert(ids.clone());
    if let Some(id) = last_event_id {
        cx.headers
            .insert("last-event-id", id.to_string().parse().unwrap());
    }
    (cx, ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_resumed_after_the_ended_task_s_log_was_trimmed_gets_the_task_as_it_ended() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let ttl = Duration::from_secs(30);
    let trim = |b: RequestHandlerBuilder<Agent>| b.log_retention(Duration::from_secs(1));
    let a = replica_tuned(&url, &agent, ttl, trim).await;
    let task = start(&a, "gated-5").await;
    agent.gate.notify_one();
    let request = || SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let version = loop {
        let store = PostgresStore::connect(&url).await.unwrap();
        let stored = store
            .get_task(Default::default(), &task.id)
            .await
            .unwrap()
            .unwrap();
        if stored.task.status.state == TaskState::Completed {
            break stored.version;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // Resumed within the retention: the events missed, from the log.
    let (cx_early, _) = resumable(Some(1));
    let early = collect(a.subscribe_to_task(cx_early, request()).await.unwrap()).await;
    assert_eq!(early.len() as u64, version - 1);
    // Trimmed once it is older than that: the log keeps its last event.
    let store = PostgresStore::connect(&url).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while store
        .events_after(None, &task.id, 0, 100)
        .await
        .unwrap()
        .len()
        > 1
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the log was never trimmed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = store.events_after(None, &task.id, 0, 100).await.unwrap();
    assert_eq!(log.iter().map(|e| e.version).collect::<Vec<_>>(), [version]);
    // Resumed after that: the task as it ended, with its id, and the stream is over.
    let (cx_late, ids) = resumable(Some(1));
    let late = collect(a.subscribe_to_task(cx_late, request()).await.unwrap()).await;
    match &late[..] {
        [(StreamResponse::Task(t), _)] => {
            assert_eq!(t.status.state, TaskState::Completed);
            assert_eq!(t.artifacts.len(), 5);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(ids.take(), Some(version));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_cut_mid_task_resumes_on_another_replica_with_nothing_lost_or_repeated() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let (a, b) = (replica(&url, &agent).await, replica(&url, &agent).await);
    let task = start(&a, "gated-100").await;
    let request = || SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let (cx_whole, _) = resumable(None);
    let whole = a.subscribe_to_task(cx_whole, request()).await.unwrap();
    let (cx_cut, ids) = resumable(None);
    let mut cut = a.subscribe_to_task(cx_cut, request()).await.unwrap();
    agent.gate.notify_one();
    // 30 events on replica A, each with its id; then the connection is gone.
    let mut joined = Vec::new();
    let mut last_id = None;
    for _ in 0..30 {
        joined.push(cut.next().await.unwrap().unwrap());
        last_id = Some(ids.take().expect("every event of a logged task has an id"));
    }
    drop(cut);
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Resumed on replica B after the last event seen.
    let (cx_resumed, ids) = resumable(last_id);
    let mut resumed = b.subscribe_to_task(cx_resumed, request()).await.unwrap();
    let mut previous = last_id.unwrap();
    while let Some(event) = resumed.next().await {
        joined.push(event.unwrap());
        let id = ids.take().unwrap();
        assert_eq!(id, previous + 1, "ids are the log's sequence, one apart");
        previous = id;
    }
    let whole: Vec<StreamResponse> = collect(whole).await.into_iter().map(|(e, _)| e).collect();
    assert_eq!(whole.len(), 1 + 100 + 1);
    assert_eq!(joined, whole, "the cut stream, resumed, is the uncut one");
    // Resumed after its end, the stream is over at once; without an id, a terminal task refuses.
    let (cx_after, _) = resumable(Some(previous));
    let after_end = a.subscribe_to_task(cx_after, request()).await.unwrap();
    assert!(collect(after_end).await.is_empty());
    assert!(b
        .subscribe_to_task(cx("SubscribeToTask"), request())
        .await
        .is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_resumes_a_subscription_whose_connection_drops_and_sees_each_event_once() {
    use a2a_types::rt::client::Client;
    use a2a_types::rt::server::AgentRouter;
    use a2a_types::v1::{method, A2aServer, Protocol};
    let Some(url) = common::postgres_url() else {
        return;
    };
    let agent = Agent::default();
    let a = replica(&url, &agent).await;
    // The agent served over HTTP, reached through a hop whose connections the test drops.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (hop, hop_addr) = Partition::to_addr(listener.local_addr().unwrap()).await;
    let base = format!("http://{hop_addr}");
    let card = serde_json::json!({
        "name": "replicas", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": base, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": true}, "defaultInputModes": ["text"],
        "defaultOutputModes": ["text"], "skills": []
    });
    let router = AgentRouter::new(&card)
        .unwrap()
        .service(A2aServer::new(a.clone()))
        .into_router()
        .unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let client = Client::<Protocol>::connect(&base).await.unwrap();

    let task = start(&a, "gated-60").await;
    let whole = subscribe(&a, &task.id).await;
    let params = SubscribeToTaskRequest {
        id: task.id.clone(),
        ..Default::default()
    };
    let mut events = client.stream::<method::SubscribeToTask>(&params);
    let mut seen = vec![events.next().await.unwrap().unwrap()];
    agent.gate.notify_one();
    for _ in 0..20 {
        seen.push(events.next().await.unwrap().unwrap());
    }
    // The connection drops mid-task: the client resumes after the last event it got.
    hop.drop_links();
    while let Some(event) = events.next().await {
        seen.push(event.expect("resumed, not broken off"));
    }
    let whole: Vec<StreamResponse> = collect(whole).await.into_iter().map(|(e, _)| e).collect();
    assert_eq!(whole.len(), 1 + 60 + 1);
    assert_eq!(seen, whole, "each event once, in order");
}

/// A replica on a SQLite file shared with others: its own pools and `SqliteFeed`, as another
/// process on the host would have.
async fn sqlite_replica(path: &std::path::Path, agent: &Agent) -> RequestHandler<Agent> {
    use a2a_agent::cluster::SqliteFeed;
    use a2a_agent::store::SqliteStore;
    let store = SqliteStore::open(path).await.unwrap();
    let feed = SqliteFeed::start(&store).await.unwrap();
    RequestHandler::builder(agent.clone())
        .task_store(Arc::new(store))
        .event_feed(Arc::new(feed))
        .build()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_sharing_a_sqlite_file_follow_and_cancel_each_other_s_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    let agent = Agent::default();
    let a = sqlite_replica(&path, &agent).await;
    let b = sqlite_replica(&path, &agent).await;
    // Events: B's subscriber gets what A's gets.
    let task = start(&a, "gated-50").await;
    let here = subscribe(&a, &task.id).await;
    let there = subscribe(&b, &task.id).await;
    agent.gate.notify_one();
    let (here, there) = tokio::join!(collect(here), collect(there));
    let events = |all: &[(StreamResponse, u128)]| -> Vec<StreamResponse> {
        all.iter().map(|(e, _)| e.clone()).collect()
    };
    assert_eq!(there.len(), 1 + 50 + 1);
    assert_eq!(events(&there), events(&here));
    let d = delays(&there);
    println!(
        "SQLite, across processes (polling): p50 {:.2} ms, p99 {:.2} ms",
        percentile(&d, 50),
        percentile(&d, 99)
    );
    // A cancel served by B reaches A's execution.
    let held = start(&a, "hold").await;
    let request = CancelTaskRequest {
        id: held.id.clone(),
        ..Default::default()
    };
    let canceled = b.cancel_task(cx("CancelTask"), request).await.unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    agent.wait_until_stopped(1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_database_unreachable_calls_fail_and_every_acknowledged_message_was_written() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    // The test database, through a hop the test can cut.
    let proxy = Partition::to(&url).await;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(Duration::from_secs(2))
        .connect(&proxy.url)
        .await
        .unwrap();
    let store = PostgresStore::from_pool(pool).await.unwrap();
    let h = RequestHandler::builder(Agent::default())
        .task_store(Arc::new(store))
        .build();
    let request = |id: &str, task_id: Option<&str>| SendMessageRequest {
        message: message(id, task_id),
        ..Default::default()
    };
    let task = match h
        .send_message(cx("SendMessage"), request("wait", None))
        .await
        .unwrap()
    {
        SendMessageResponse::Task(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(task.status.state, TaskState::InputRequired);
    let (mut acknowledged, mut refused) = (Vec::new(), Vec::new());
    for i in 0..12 {
        match i {
            4 => proxy.cut(),
            7 => proxy.heal(),
            _ => {}
        }
        let id = format!("m-{i}");
        let started = std::time::Instant::now();
        match h
            .send_message(cx("SendMessage"), request(&id, Some(&task.id)))
            .await
        {
            Ok(_) => acknowledged.push(id),
            Err(e) => {
                assert_eq!(e.error().code(), -32603, "{e}");
                assert!(
                    started.elapsed() < Duration::from_secs(10),
                    "answered in time"
                );
                refused.push(id);
            }
        }
    }
    println!(
        "database cut: {} acknowledged, {} refused",
        acknowledged.len(),
        refused.len()
    );
    assert!(refused.len() >= 3, "refused while cut: {refused:?}");
    assert!(
        acknowledged.len() >= 6,
        "served before and after: {acknowledged:?}"
    );
    assert!(
        acknowledged.contains(&"m-11".to_owned()),
        "served again once mended"
    );
    let history: Vec<String> = stored(&url, &task.id)
        .await
        .history
        .iter()
        .map(|m| m.message_id.clone())
        .collect();
    for id in &acknowledged {
        assert!(
            history.contains(id),
            "{id} was acknowledged but not written: {history:?}"
        );
    }
}
