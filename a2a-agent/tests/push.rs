//! Push delivery against real webhooks on 127.0.0.1 (axum), every test bounded in time.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2a_agent::push::{
    AddressClass, Lookup, PushDispatcher, PushFailure, PushResolver, PushSender, PushUrlError,
    PushUrlPolicy,
};
use a2a_types::rt::telemetry::TraceContext;
use a2a_types::v1::{
    AuthenticationInfo, StreamResponse, Task, TaskPushNotificationConfig, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use tokio::sync::Semaphore;

/// Every test's outer bound: far above what any of them should take.
const TEST_BOUND: Duration = Duration::from_secs(20);

async fn bounded<F: Future>(name: &str, f: F) -> F::Output {
    let start = Instant::now();
    let out = tokio::time::timeout(TEST_BOUND, f)
        .await
        .unwrap_or_else(|_| panic!("{name} took more than {TEST_BOUND:?}"));
    eprintln!("{name}: {:?}", start.elapsed());
    out
}

/// What the webhook does with its n-th request (from 0).
#[derive(Clone, Copy)]
enum Answer {
    Status(u16),
    /// Never answers.
    Hang,
    /// Waits for a permit of the webhook's gate, then answers 200.
    Gated,
    /// Sleeps this long, then answers 200.
    Sleep(Duration),
}

struct Received {
    headers: HeaderMap,
    body: Bytes,
    at: Instant,
}

/// Picks the answer to a request from its number and body.
type Answerer = Box<dyn Fn(usize, &Bytes) -> Answer + Send + Sync>;

struct HookState {
    answer: Answerer,
    received: Mutex<Vec<Received>>,
    hits: AtomicUsize,
    gate: Semaphore,
}

struct Hook {
    addr: SocketAddr,
    state: Arc<HookState>,
}

impl Hook {
    async fn start(answer: impl Fn(usize, &Bytes) -> Answer + Send + Sync + 'static) -> Hook {
        let state = Arc::new(HookState {
            answer: Box::new(answer),
            received: Mutex::new(Vec::new()),
            hits: AtomicUsize::new(0),
            gate: Semaphore::new(0),
        });
        let app = axum::Router::new()
            .route("/hook", axum::routing::post(hook))
            .with_state(Arc::clone(&state));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Hook { addr, state }
    }

    fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    fn hits(&self) -> usize {
        self.state.hits.load(Ordering::SeqCst)
    }

    fn received(&self) -> std::sync::MutexGuard<'_, Vec<Received>> {
        self.state.received.lock().unwrap()
    }

    fn seqs(&self) -> Vec<u64> {
        self.received().iter().map(|r| seq_of(&r.body)).collect()
    }
}

async fn hook(State(state): State<Arc<HookState>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let n = state.hits.fetch_add(1, Ordering::SeqCst);
    let answer = (state.answer)(n, &body);
    state.received.lock().unwrap().push(Received {
        headers,
        body,
        at: Instant::now(),
    });
    match answer {
        Answer::Status(code) => StatusCode::from_u16(code).unwrap(),
        Answer::Hang => std::future::pending().await,
        Answer::Gated => {
            state.gate.acquire().await.unwrap().forget();
            StatusCode::OK
        }
        Answer::Sleep(pause) => {
            tokio::time::sleep(pause).await;
            StatusCode::OK
        }
    }
}

fn local() -> PushUrlPolicy {
    PushUrlPolicy {
        allow_loopback: true,
        allow_http: true,
        allow_private: false,
    }
}

/// Short timeouts and pauses, so that the bounded tests stay short.
fn fast(policy: PushUrlPolicy) -> PushSender {
    PushSender::builder(policy)
        .timeout(Duration::from_millis(400))
        .attempts(3)
        .backoff(Duration::from_millis(20), Duration::from_millis(80))
        .build()
        .unwrap()
}

fn config(url: String) -> TaskPushNotificationConfig {
    TaskPushNotificationConfig {
        id: Some("cfg-1".into()),
        task_id: Some("t-1".into()),
        url,
        ..Default::default()
    }
}

fn status_event(seq: u64) -> StreamResponse {
    let mut metadata = serde_json::Map::new();
    metadata.insert("seq".into(), seq.into());
    StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
        task_id: "t-1".into(),
        context_id: "ctx-1".into(),
        status: TaskStatus {
            state: TaskState::Working,
            ..Default::default()
        },
        metadata: Some(metadata),
    })
}

fn seq_of(body: &[u8]) -> u64 {
    match serde_json::from_slice::<StreamResponse>(body).unwrap() {
        StreamResponse::StatusUpdate(update) => update.metadata.unwrap()["seq"].as_u64().unwrap(),
        other => panic!("not a status update: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivers_the_stream_response_with_the_auth_and_token_headers() {
    bounded("auth and token headers", async {
        let hook = Hook::start(|_, _| Answer::Status(200)).await;
        let event = StreamResponse::Task(Task {
            id: "t-1".into(),
            context_id: Some("ctx-1".into()),
            status: TaskStatus {
                state: TaskState::Completed,
                ..Default::default()
            },
            ..Default::default()
        });
        let config = TaskPushNotificationConfig {
            token: Some("tok-123".into()),
            authentication: Some(AuthenticationInfo {
                scheme: "Bearer".into(),
                credentials: Some("tck-test-token".into()),
            }),
            ..config(hook.url())
        };
        let delivered = fast(local()).deliver(&config, &event).await.unwrap();
        assert_eq!((delivered.attempts, delivered.status), (1, 200));

        let received = hook.received();
        assert_eq!(received.len(), 1);
        let got = &received[0];
        assert_eq!(got.headers["authorization"], "Bearer tck-test-token");
        assert_eq!(got.headers["x-a2a-notification-token"], "tok-123");
        assert_eq!(got.headers["content-type"], "application/json");
        let body: StreamResponse = serde_json::from_slice(&got.body).unwrap();
        assert_eq!(body, event);
        // The ProtoJSON shape the TCK validates: the oneof member at the top.
        let json: serde_json::Value = serde_json::from_slice(&got.body).unwrap();
        assert_eq!(json["task"]["status"]["state"], "TASK_STATE_COMPLETED");
    })
    .await;
}

/// With no OpenTelemetry layer listening, a notification carries the trace context its work
/// came with, as it came (W3C Trace Context: a party that does not trace passes it on), through
/// the sender and through the dispatcher; without one, none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passes_the_trace_context_on_when_not_tracing() {
    bounded("trace context passed on", async {
        let hook = Hook::start(|_, _| Answer::Status(200)).await;
        let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        let trace = TraceContext::parse(parent, Some("vendor=abc")).unwrap();
        let sender = fast(local());
        let cfg = config(hook.url());
        sender
            .deliver_traced(&cfg, &status_event(1), Some(&trace))
            .await
            .unwrap();
        sender.deliver(&cfg, &status_event(2)).await.unwrap();
        let dispatcher = PushDispatcher::new(sender);
        dispatcher.enqueue_traced(vec![cfg], status_event(3), Some(trace));
        dispatcher.idle().await;

        let received = hook.received();
        let header = |i: usize, name: &str| {
            received[i]
                .headers
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        assert_eq!(received.len(), 3);
        for i in [0, 2] {
            assert_eq!(header(i, "traceparent").as_deref(), Some(parent));
            assert_eq!(header(i, "tracestate").as_deref(), Some("vendor=abc"));
        }
        assert_eq!(header(1, "traceparent"), None);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incomplete_authentication_sends_no_authorization_as_the_sdk_does() {
    bounded("incomplete authentication", async {
        let hook = Hook::start(|_, _| Answer::Status(204)).await;
        let sender = fast(local());
        for (scheme, credentials) in [("Bearer", None), ("", Some("secret"))] {
            let config = TaskPushNotificationConfig {
                authentication: Some(AuthenticationInfo {
                    scheme: scheme.into(),
                    credentials: credentials.map(Into::into),
                }),
                ..config(hook.url())
            };
            let delivered = sender.deliver(&config, &status_event(0)).await.unwrap();
            assert_eq!(delivered.status, 204);
        }
        for got in hook.received().iter() {
            assert!(!got.headers.contains_key("authorization"));
            assert!(!got.headers.contains_key("x-a2a-notification-token"));
        }
        assert_eq!(hook.hits(), 2);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_a_503_then_succeeds() {
    bounded("503, 503, 200", async {
        let hook = Hook::start(|n, _| Answer::Status(if n < 2 { 503 } else { 200 })).await;
        let delivered = fast(local())
            .deliver(&config(hook.url()), &status_event(0))
            .await
            .unwrap();
        assert_eq!((delivered.attempts, delivered.status), (3, 200));
        assert_eq!(hook.hits(), 3);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_408_and_429() {
    bounded("408, 429, 202", async {
        let hook = Hook::start(|n, _| Answer::Status([408, 429, 202][n.min(2)])).await;
        let delivered = fast(local())
            .deliver(&config(hook.url()), &status_event(0))
            .await
            .unwrap();
        assert_eq!((delivered.attempts, delivered.status), (3, 202));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn does_not_retry_a_400_or_a_redirect() {
    bounded("400 and 302, once each", async {
        for status in [400, 404, 302] {
            let hook = Hook::start(move |_, _| Answer::Status(status)).await;
            let url = format!("{}?token=s3cret", hook.url());
            let err = fast(local())
                .deliver(&config(url), &status_event(0))
                .await
                .unwrap_err();
            assert_eq!(err.failure(), &PushFailure::Status(status));
            assert_eq!(err.attempts(), 1);
            assert_eq!(hook.hits(), 1);
            // The URL is named, without its query.
            assert_eq!(err.url(), format!("{}?…", hook.url()));
            assert!(!err.to_string().contains("s3cret"), "{err}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gives_up_after_the_last_attempt() {
    bounded("500 three times", async {
        let hook = Hook::start(|_, _| Answer::Status(500)).await;
        let err = fast(local())
            .deliver(&config(hook.url()), &status_event(0))
            .await
            .unwrap_err();
        assert_eq!(err.failure(), &PushFailure::Status(500));
        assert_eq!((err.attempts(), hook.hits()), (3, 3));
        assert_eq!(
            err.to_string(),
            format!(
                "push notification to {} failed after 3 attempts: the webhook answered HTTP 500",
                hook.url()
            )
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_webhook_times_out_within_the_bound() {
    bounded("hanging webhook", async {
        let hook = Hook::start(|_, _| Answer::Hang).await;
        let sender = PushSender::builder(local())
            .timeout(Duration::from_millis(300))
            .attempts(2)
            .backoff(Duration::from_millis(50), Duration::from_millis(50))
            .build()
            .unwrap();
        let bound = sender.max_delivery_time();
        assert_eq!(bound, Duration::from_millis(650));
        let start = Instant::now();
        let err = sender
            .deliver(&config(hook.url()), &status_event(0))
            .await
            .unwrap_err();
        let took = start.elapsed();
        eprintln!("  hanging webhook: gave up after {took:?} (bound {bound:?})");
        assert_eq!(
            err.failure(),
            &PushFailure::Timeout(Duration::from_millis(300))
        );
        assert_eq!((err.attempts(), hook.hits()), (2, 2));
        assert!(took >= Duration::from_millis(600), "{took:?}");
        assert!(took < bound + Duration::from_millis(300), "{took:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_is_refused_by_default_and_allowed_with_allow_loopback() {
    bounded("loopback policy", async {
        let hook = Hook::start(|_, _| Answer::Status(200)).await;
        let event = status_event(0);
        let by_address = config(hook.url());
        let by_name = config(format!("http://localhost:{}/hook", hook.addr.port()));

        // The default policy: refused (plain http, and loopback), nothing sent.
        for config in [&by_address, &by_name] {
            let err = fast(PushUrlPolicy::default())
                .deliver(config, &event)
                .await
                .unwrap_err();
            assert_eq!(err.attempts(), 0);
            assert!(matches!(err.failure(), PushFailure::Refused(_)), "{err}");
        }
        // http allowed, loopback not: refused for being loopback, by address and by name.
        let http_only = PushUrlPolicy {
            allow_http: true,
            ..PushUrlPolicy::default()
        };
        let err = fast(http_only)
            .deliver(&by_address, &event)
            .await
            .unwrap_err();
        match err.failure() {
            PushFailure::Refused(PushUrlError::Address { refused }) => {
                assert_eq!(refused.class, AddressClass::Loopback);
                assert_eq!(refused.addr, IpAddr::from([127, 0, 0, 1]));
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("allow_loopback"), "{err}");
        let err = fast(http_only).deliver(&by_name, &event).await.unwrap_err();
        assert!(
            matches!(
                err.failure(),
                PushFailure::Refused(PushUrlError::LocalhostName { .. })
            ),
            "{err}"
        );
        assert_eq!(hook.hits(), 0);

        // allow_loopback: delivered, by address and by name (through the screening resolver).
        for config in [&by_address, &by_name] {
            let delivered = fast(local()).deliver(config, &event).await.unwrap();
            assert_eq!(delivered.status, 200);
        }
        assert_eq!(hook.hits(), 2);
    })
    .await;
}

/// A DNS that answers from a table, counting its lookups.
struct FakeDns {
    answers: Vec<IpAddr>,
    /// From this lookup on (counting from 0), answer 127.0.0.1 instead: a rebinding name.
    rebind_after: usize,
    lookups: Arc<AtomicUsize>,
}

impl PushResolver for FakeDns {
    fn lookup(&self, _host: &str) -> Lookup {
        let n = self.lookups.fetch_add(1, Ordering::SeqCst);
        let answers = if n >= self.rebind_after {
            vec![IpAddr::from([127, 0, 0, 1])]
        } else {
            self.answers.clone()
        };
        Box::pin(async move { Ok(answers) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_is_screened_when_connecting_and_connected_to_as_checked() {
    bounded("name screened at connect", async {
        let hook = Hook::start(|_, _| Answer::Status(200)).await;
        // `hook.invalid` exists only in the fake DNS, which maps it to the webhook's address.
        let url = format!("http://hook.invalid:{}/hook", hook.addr.port());
        let dns = |lookups: &Arc<AtomicUsize>| FakeDns {
            answers: vec![IpAddr::from([127, 0, 0, 1])],
            rebind_after: usize::MAX,
            lookups: Arc::clone(lookups),
        };
        let lookups = Arc::new(AtomicUsize::new(0));
        let http_only = PushUrlPolicy {
            allow_http: true,
            ..PushUrlPolicy::default()
        };
        let sender = PushSender::builder(http_only)
            .timeout(Duration::from_millis(400))
            .resolver(dns(&lookups))
            .build()
            .unwrap();
        let err = sender
            .deliver(&config(url.clone()), &status_event(0))
            .await
            .unwrap_err();
        match err.failure() {
            PushFailure::Refused(PushUrlError::ResolvesTo { host, refused }) => {
                assert_eq!(host, "hook.invalid");
                assert_eq!(refused.class, AddressClass::Loopback);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            (err.attempts(), hook.hits(), lookups.load(Ordering::SeqCst)),
            (1, 0, 1)
        );

        // Allowed, the request goes to the address the resolver gave: the name has no other.
        let sender = PushSender::builder(local())
            .resolver(dns(&lookups))
            .build()
            .unwrap();
        let delivered = sender
            .deliver(&config(url), &status_event(0))
            .await
            .unwrap();
        assert_eq!(delivered.status, 200);
        assert_eq!(hook.hits(), 1);
        assert_eq!(
            hook.received()[0].headers["host"],
            format!("hook.invalid:{}", hook.addr.port())
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_rebound_after_registration_is_refused_at_delivery() {
    bounded("DNS rebinding", async {
        let lookups = Arc::new(AtomicUsize::new(0));
        let dns = || FakeDns {
            answers: vec![IpAddr::from([93, 184, 216, 34])],
            rebind_after: 1,
            lookups: Arc::clone(&lookups),
        };
        let policy = PushUrlPolicy::default();
        let url = "https://hooks.example.com/a2a";
        // At registration the name is public ...
        let screened = policy.resolve_and_screen_with(url, &dns()).await.unwrap();
        assert_eq!(screened.addrs, vec!["93.184.216.34:443".parse().unwrap()]);
        // ... at delivery it points at loopback: refused before connecting.
        let sender = PushSender::builder(policy).resolver(dns()).build().unwrap();
        let err = sender
            .deliver(&config(url.into()), &status_event(0))
            .await
            .unwrap_err();
        assert!(
            matches!(err.failure(), PushFailure::Refused(PushUrlError::ResolvesTo { refused, .. })
                if refused.class == AddressClass::Loopback),
            "{err}"
        );
        assert_eq!(err.attempts(), 1, "not retried");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_down_webhook_fails_with_a_clear_error_within_the_bound() {
    bounded("closed port", async {
        let closed = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap()
        };
        let url = format!("http://{closed}/hook");
        let sender = fast(local());
        let start = Instant::now();
        let err = sender
            .deliver(&config(url.clone()), &status_event(0))
            .await
            .unwrap_err();
        let took = start.elapsed();
        eprintln!("  closed port: gave up after {took:?}: {err}");
        assert!(matches!(err.failure(), PushFailure::Connect(_)), "{err:?}");
        assert_eq!(err.attempts(), 3);
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "push notification to {url} failed after 3 attempts: could not connect"
            )),
            "{text}"
        );
        assert!(took < sender.max_delivery_time(), "{took:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_events_to_one_webhook_arrive_in_order() {
    bounded("20 events in order", async {
        // Early events are answered slowest: concurrent delivery would reorder them.
        let hook =
            Hook::start(|_, body| Answer::Sleep(Duration::from_millis(2 * (20 - seq_of(body)))))
                .await;
        let dispatcher = PushDispatcher::new(fast(local()));
        let start = Instant::now();
        for seq in 0..20 {
            dispatcher.enqueue(vec![config(hook.url())], status_event(seq));
        }
        let enqueued = start.elapsed();
        assert!(
            enqueued < Duration::from_millis(100),
            "enqueue held the caller: {enqueued:?}"
        );
        dispatcher.idle().await;
        assert_eq!(hook.seqs(), (0..20).collect::<Vec<_>>());
        let stats = dispatcher.stats();
        assert_eq!((stats.delivered, stats.failed, stats.dropped), (20, 0, 0));
        assert_eq!((stats.waiting, stats.active), (0, 0));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_drops_its_oldest_waiting_event() {
    bounded("drop-oldest", async {
        let hook = Hook::start(|_, _| Answer::Gated).await;
        let dispatcher = PushDispatcher::with_capacity(
            PushSender::builder(local())
                .timeout(Duration::from_secs(5))
                .build()
                .unwrap(),
            2,
        );
        dispatcher.enqueue(vec![config(hook.url())], status_event(0));
        while hook.hits() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Event 0 is in flight; 1..=4 arrive behind it in a queue of 2.
        for seq in 1..=4 {
            dispatcher.enqueue(vec![config(hook.url())], status_event(seq));
        }
        let stats = dispatcher.stats();
        assert_eq!((stats.waiting, stats.active, stats.dropped), (2, 1, 2));
        hook.state.gate.add_permits(3);
        dispatcher.idle().await;
        assert_eq!(hook.seqs(), vec![0, 3, 4]);
        assert_eq!(dispatcher.stats().delivered, 3);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_webhook_holds_neither_the_caller_nor_the_other_webhooks() {
    bounded("hanging beside healthy", async {
        let hanging = Hook::start(|_, _| Answer::Hang).await;
        let healthy = Hook::start(|_, _| Answer::Status(200)).await;
        let sender = PushSender::builder(local())
            .timeout(Duration::from_millis(500))
            .attempts(1)
            .build()
            .unwrap();
        let configs = vec![config(hanging.url()), config(healthy.url())];

        // spawn_deliver: returns at once; results in the order of the configs.
        let start = Instant::now();
        let handle = sender.spawn_deliver(configs.clone(), status_event(0));
        assert!(start.elapsed() < Duration::from_millis(250), "held the caller");
        let results = handle.await.unwrap();
        assert!(matches!(results[0].as_ref().unwrap_err().failure(), PushFailure::Timeout(_)));
        assert_eq!(results[1].as_ref().unwrap().status, 200);
        let healthy_after = healthy.received()[0].at - start;
        eprintln!("  spawn_deliver: healthy webhook served after {healthy_after:?}, hanging one timed out after {:?}", start.elapsed());
        assert!(healthy_after < Duration::from_millis(400), "{healthy_after:?}");

        // The dispatcher: the healthy webhook's three events do not wait behind the hanging one.
        let dispatcher = PushDispatcher::new(sender);
        let start = Instant::now();
        for seq in 1..=3 {
            dispatcher.enqueue(configs.clone(), status_event(seq));
        }
        assert!(start.elapsed() < Duration::from_millis(250), "held the caller");
        while healthy.hits() < 4 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let healthy_done = start.elapsed();
        eprintln!("  dispatcher: healthy webhook had 3 events after {healthy_done:?}");
        assert!(healthy_done < Duration::from_millis(400), "{healthy_done:?}");
        assert_eq!(healthy.seqs(), vec![0, 1, 2, 3]);
        dispatcher.idle().await;
        let stats = dispatcher.stats();
        assert_eq!((stats.delivered, stats.failed), (3, 3));
    })
    .await;
}
