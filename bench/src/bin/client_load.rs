//! `client_load`: our client's half of the client load bench (issue 20, item 6): SendMessage
//! calls through `a2a_runtime::client::Client` (reqwest) on `a2a_types::v1::Protocol`,
//! at a fixed concurrency, against one agent; what `bench/python/client_bench.py` does with
//! a2a-sdk's own client, for `bench/serve-bench.sh` to set side by side. With `--binding`, over
//! HTTP+JSON or gRPC instead, and with `--workload stream`, `SendStreamingMessage` to its end:
//! the same client against agents and bindings, which is how `bench/grpc-bench.sh` sets the
//! gRPC servers (ours and a2a-sdk's) and our own HTTP+JSON side by side.
//!
//! ```text
//! client_load URL [--connections 32] [--requests 20000] [--seconds 8] [--warmup 1]
//!                 [--threads 2] [--label ours] [--binding jsonrpc|http+json|grpc]
//!                 [--workload send|stream] [--smoke]
//! ```
//!
//! Builds one client from the agent's card (`Client::connect`: GET the card, pick its 1.0
//! interface of the binding, JSON-RPC unless told), shared by `--connections` tokio tasks, each
//! calling one after the other (reqwest's pool keeps a connection alive per task; gRPC's channel
//! carries them all on one HTTP/2 connection), for min(requests, seconds) after the warm-up.
//! Every reply is checked: a `SendMessageResponse::Task` in `TaskState::Completed`; a stream,
//! at least 4 events, the last a completed task or status; anything else (an agent error, a
//! malformed reply, a transport failure) is a failure, counted by its kind. Latency is the whole
//! call, from encoding the request to the decoded, typed result (a stream's last event). Prints
//! one JSON line (label, workload `client-send` or `client-stream`, binding, connections, ok,
//! failed, failures, seconds, rps, p50_ms, p99_ms) and exits 1 when a call failed, 2 on a usage
//! error.

use a2a_bench::load::{quantile_ms, BoundsArgs};
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use a2a_types::rt::client::Client;
use a2a_types::rt::Binding;
use a2a_types::v1::{
    method, CallError, Message, Part, PartContent, Protocol, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, TaskState,
};

const USAGE: &str = "usage: client_load URL [--connections N] [--requests N] [--seconds S] \
[--warmup S] [--threads N] [--label LABEL] [--binding jsonrpc|http+json|grpc] \
[--workload send|stream] [--smoke]";

/// How long one call may take before it counts as a failure.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The text of every message (the one serve_load and client_bench.py send).
const TEXT: &str = "hello from the load bench";

struct Config {
    url: String,
    connections: usize,
    requests: usize,
    seconds: f64,
    warmup: f64,
    threads: usize,
    label: String,
    binding: Binding,
    stream: bool,
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    let (mut url, mut label, mut bounds) = (None, "ours".to_string(), BoundsArgs::default());
    let (mut binding, mut stream) = (Binding::JsonRpc, false);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        if bounds.take(arg, &mut value)? {
            continue;
        }
        match arg.as_str() {
            "--label" => label = value()?,
            "--binding" => {
                let name = value()?;
                binding = Binding::of(&name).ok_or_else(|| format!("unknown binding {name:?}"))?;
            }
            "--workload" => {
                stream = match value()?.as_str() {
                    "send" => false,
                    "stream" => true,
                    other => return Err(format!("unknown workload {other:?}: send or stream")),
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            u if url.is_none() => url = Some(u.to_string()),
            extra => return Err(format!("one URL only, not also {extra:?}")),
        }
    }
    let url: String = url.ok_or("no agent URL given")?;
    let host = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split(['/', ':']).next());
    if !matches!(host, Some("127.0.0.1" | "localhost")) {
        return Err(format!("{url:?}: only http:// loopback agents"));
    }
    let b = bounds.finish()?;
    Ok(Config {
        url,
        connections: b.connections,
        requests: b.requests,
        seconds: b.seconds,
        warmup: b.warmup,
        threads: b.threads,
        label,
        binding,
        stream,
    })
}

fn request(n: usize) -> SendMessageRequest {
    SendMessageRequest {
        message: Message {
            message_id: format!("bench-{n}"),
            role: Role::User,
            parts: vec![Part {
                content: PartContent::Text(TEXT.to_string()),
                ..Default::default()
            }],
            ..Default::default()
        },
        ..Default::default()
    }
}

/// One call (a stream, with `stream`), checked; the failure's kind otherwise.
async fn one(client: &Client<Protocol>, n: usize, stream: bool) -> Result<Duration, String> {
    if stream {
        return one_stream(client, n).await;
    }
    let params = request(n);
    let start = Instant::now();
    let reply =
        tokio::time::timeout(REQUEST_TIMEOUT, client.call::<method::SendMessage>(&params)).await;
    let took = start.elapsed();
    match reply {
        Err(_) => Err(format!("no reply in {} s", REQUEST_TIMEOUT.as_secs())),
        Ok(Err(CallError::Agent(error))) => Err(format!("agent error {}", error.code())),
        Ok(Err(CallError::Custom { message, .. })) => Err(format!("custom error: {message}")),
        Ok(Err(CallError::Malformed(e))) => Err(format!("{:?}", e.kind())),
        Ok(Ok(SendMessageResponse::Task(task))) if task.status.state == TaskState::Completed => {
            Ok(took)
        }
        Ok(Ok(SendMessageResponse::Task(task))) => {
            Err(format!("task state {:?}", task.status.state))
        }
        Ok(Ok(_)) => Err("the response holds no task".to_string()),
    }
}

/// One `SendStreamingMessage` read to its end, checked.
async fn one_stream(client: &Client<Protocol>, n: usize) -> Result<Duration, String> {
    let params = request(n);
    let start = Instant::now();
    let read = async {
        let mut events = client.stream::<method::SendStreamingMessage>(&params);
        let (mut count, mut last) = (0usize, None);
        while let Some(event) = events.next().await {
            match event {
                Ok(event) => last = Some(event),
                Err(CallError::Agent(error)) => {
                    return Err(format!("agent error {}", error.code()))
                }
                Err(CallError::Custom { message, .. }) => {
                    return Err(format!("custom error: {message}"))
                }
                Err(CallError::Malformed(e)) => return Err(format!("{:?}", e.kind())),
            }
            count += 1;
        }
        let completed = match last {
            Some(StreamResponse::StatusUpdate(update)) => {
                update.status.state == TaskState::Completed
            }
            Some(StreamResponse::Task(task)) => task.status.state == TaskState::Completed,
            _ => false,
        };
        match (count >= 4, completed) {
            (true, true) => Ok(()),
            _ => Err(format!("{count} events, the last not a completed task")),
        }
    };
    match tokio::time::timeout(REQUEST_TIMEOUT, read).await {
        Err(_) => Err(format!("no end in {} s", REQUEST_TIMEOUT.as_secs())),
        Ok(outcome) => outcome.map(|()| start.elapsed()),
    }
}

#[derive(Default)]
struct WorkerResult {
    samples: Vec<u32>,
    failures: BTreeMap<String, usize>,
    end: Option<Instant>,
}

struct Shared {
    client: Client<Protocol>,
    stream: bool,
    numbered: AtomicUsize,
    measured: AtomicUsize,
    max_requests: usize,
    warm_until: Instant,
    measure_for: Duration,
    barrier: tokio::sync::Barrier,
    start: OnceLock<Instant>,
}

async fn worker(shared: Arc<Shared>) -> WorkerResult {
    let mut result = WorkerResult::default();
    while Instant::now() < shared.warm_until {
        let n = shared.numbered.fetch_add(1, Ordering::Relaxed);
        if let Err(f) = one(&shared.client, n, shared.stream).await {
            *result.failures.entry(format!("warm-up: {f}")).or_default() += 1;
        }
    }
    shared.barrier.wait().await;
    let deadline = *shared.start.get_or_init(Instant::now) + shared.measure_for;
    while Instant::now() < deadline
        && shared.measured.fetch_add(1, Ordering::Relaxed) < shared.max_requests
    {
        let n = shared.numbered.fetch_add(1, Ordering::Relaxed);
        match one(&shared.client, n, shared.stream).await {
            Ok(took) => result
                .samples
                .push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX)),
            Err(f) => *result.failures.entry(f).or_default() += 1,
        }
        result.end = Some(Instant::now());
    }
    result
}

async fn run(config: &Config) -> Result<serde_json::Value, String> {
    let client = Client::<Protocol>::builder()
        .bindings([config.binding])
        .request_timeout(REQUEST_TIMEOUT)
        .connect(&config.url)
        .await
        .map_err(|e| format!("no client on the agent's card: {e}"))?;
    let shared = Arc::new(Shared {
        client,
        stream: config.stream,
        numbered: AtomicUsize::new(0),
        measured: AtomicUsize::new(0),
        max_requests: config.requests,
        warm_until: Instant::now() + Duration::from_secs_f64(config.warmup),
        measure_for: Duration::from_secs_f64(config.seconds),
        barrier: tokio::sync::Barrier::new(config.connections),
        start: OnceLock::new(),
    });
    let workers: Vec<_> = (0..config.connections)
        .map(|_| tokio::spawn(worker(shared.clone())))
        .collect();
    let mut all = WorkerResult::default();
    for w in workers {
        let r = w.await.map_err(|e| format!("a worker failed: {e}"))?;
        all.samples.extend(r.samples);
        for (f, n) in r.failures {
            *all.failures.entry(f).or_default() += n;
        }
        all.end = all.end.max(r.end);
    }
    let start = shared.start.get().copied().unwrap_or_else(Instant::now);
    let seconds = all
        .end
        .map_or(0.0, |end| end.duration_since(start).as_secs_f64());
    all.samples.sort_unstable();
    let ok = all.samples.len();
    Ok(serde_json::json!({
        "label": config.label,
        "workload": if config.stream { "client-stream" } else { "client-send" },
        "binding": config.binding.name(),
        "connections": config.connections,
        "ok": ok,
        "failed": all.failures.values().sum::<usize>(),
        "failures": all.failures,
        "seconds": seconds,
        "rps": if seconds > 0.0 { ok as f64 / seconds } else { 0.0 },
        "p50_ms": quantile_ms(&all.samples, 0.50),
        "p99_ms": quantile_ms(&all.samples, 0.99),
    }))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("client_load: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(config.threads)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("client_load: cannot start tokio: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(&config)) {
        Ok(line) => {
            println!("{line}");
            if line["failed"].as_u64() == Some(0) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("client_load: {e}");
            ExitCode::from(1)
        }
    }
}
