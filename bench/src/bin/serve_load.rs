//! `serve_load`: the server load benchmark (issue 20, item 6). Runs the same workloads against
//! one or more A2A agents on loopback, at a fixed concurrency, and prints requests per second,
//! p50 and p99 for each, with the ratios of each agent to the first one (the baseline).
//!
//! ```text
//! serve_load [OPTIONS] LABEL=URL [LABEL=URL ...]
//!
//!   --connections N     keep-alive connections, one request in flight on each (default 32)
//!   --requests N        measured requests per workload and agent, at most (default 20000)
//!   --seconds S         measured seconds per workload and agent, at most (default 8)
//!   --warmup S          seconds of warm-up before each measure, not counted (default 1)
//!   --threads N         tokio worker threads of the generator (default 2, as wrk -t2)
//!   --workloads LIST    comma-separated, of: card, jsonrpc-send, rest-send, stream (the
//!                       default: these four), handler-new, handler-existing
//!   --tasks N           handler-existing: the waiting tasks made first (default 5000; 50 with
//!                       --smoke)
//!   --json FILE         also append one JSON line per agent and workload to FILE
//!   --auth LABEL=VALUE  every request to agent LABEL carries `Authorization: VALUE`
//!   --smoke             200 requests or 1 s each, 0.2 s warm-up: for CI; replies still checked
//! ```
//!
//! Each workload runs on fresh connections against each agent in turn (so the agents of one
//! workload are measured seconds apart), for min(requests, seconds) after the warm-up. Every
//! reply is checked: HTTP 200 and the right shape (the card: a JSON object with a `name` and
//! `supportedInterfaces`; JSON-RPC: a `result` holding a `task`, no `error`; REST: a
//! `SendMessageResponse` holding a `task`; a stream: 4 SSE events, each a JSON-RPC `result`).
//! A reply that is not is a failure: failures are counted per reason and printed with the first
//! example of each, and the exit status is 1 when there was any (warm-up included). Latency is
//! from sending the request to having read the whole body; for streams also to the first event,
//! the gap between events and the share of the stream's time they take (the Rust interop agent
//! sleeps 20 ms between streamed events). The ratios of each agent to each agent before it
//! follow every table.
//!
//! The two `handler-*` workloads are for agents on a request handler and a task store (issue 21:
//! examples/tck-agent and bench/python/handler_agent.py, run by bench/handler-bench.sh); they
//! send the message ids examples/tck-agent knows, JSON-RPC `SendMessage`, A2A 1.0:
//!
//! - `handler-new`: a fresh `messageId` `tck-complete-task-N`, no task id: a new task each call;
//!   a success is a `task` in `TASK_STATE_COMPLETED`.
//! - `handler-existing`: first (unmeasured, on the same connections) `--tasks` messages
//!   `tck-input-required-setup-N` make that many tasks waiting in `TASK_STATE_INPUT_REQUIRED`
//!   (each reply checked, its task and context ids kept); then each call sends
//!   `tck-input-required-N` with the `taskId` and `contextId` of waiting task N mod `--tasks`
//!   (round-robin), which the agent appends to that task's history and leaves waiting again; a
//!   success is that same task, in `TASK_STATE_INPUT_REQUIRED`. Every call makes one task's
//!   history one message longer: spreading the calls over many tasks bounds that growth (the
//!   table prints how many times a task was continued at most, warm-up included).
//!
//! Only loopback agents (127.0.0.1, localhost, `[::1]`) over plain HTTP/1.1.

use a2a_bench::load::{self, BoundsArgs, Sender, Sse};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::borrow::Cow;

const USAGE: &str =
    "usage: serve_load [--connections N] [--requests N] [--seconds S] [--warmup S] \
[--threads N] [--workloads card,jsonrpc-send,rest-send,stream,handler-new,handler-existing] \
[--tasks N] [--json FILE] [--smoke] [--auth LABEL=AUTHORIZATION ...] LABEL=URL [LABEL=URL ...]";

/// How long one request may take before it counts as a failure (and its connection is dropped).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The events a streamed call must carry: submitted, working, the artifact, completed.
const STREAM_EVENTS: usize = 4;

/// The text of every message the bench sends.
const TEXT: &str = "hello from the load bench";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Workload {
    Card,
    JsonrpcSend,
    RestSend,
    Stream,
    HandlerNew,
    HandlerExisting,
}

impl Workload {
    const ALL: [Workload; 4] = [
        Workload::Card,
        Workload::JsonrpcSend,
        Workload::RestSend,
        Workload::Stream,
    ];

    /// Every workload `--workloads` takes: the default ones, then those of the request-handler
    /// bench.
    const KNOWN: [Workload; 6] = [
        Workload::Card,
        Workload::JsonrpcSend,
        Workload::RestSend,
        Workload::Stream,
        Workload::HandlerNew,
        Workload::HandlerExisting,
    ];

    fn name(self) -> &'static str {
        match self {
            Workload::Card => "card",
            Workload::JsonrpcSend => "jsonrpc-send",
            Workload::RestSend => "rest-send",
            Workload::Stream => "stream",
            Workload::HandlerNew => "handler-new",
            Workload::HandlerExisting => "handler-existing",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Workload::Card => "GET /.well-known/agent-card.json",
            Workload::JsonrpcSend => "POST / SendMessage (JSON-RPC)",
            Workload::RestSend => "POST /message:send (HTTP+JSON)",
            Workload::Stream => "POST / SendStreamingMessage (JSON-RPC, SSE, 4 events)",
            Workload::HandlerNew => "POST / SendMessage to a new task (JSON-RPC, completed at once)",
            Workload::HandlerExisting => {
                "POST / SendMessage continuing a waiting task (JSON-RPC, round-robin, it waits again)"
            }
        }
    }

    fn parse(name: &str) -> Option<Workload> {
        Workload::KNOWN.into_iter().find(|w| w.name() == name)
    }
}

/// An agent under test: its label and where it is.
#[derive(Clone, Debug)]
struct Agent {
    label: String,
    /// `host:port`, for the connection and the `Host` header.
    authority: String,
    /// The base path without its trailing `/` (empty for the root).
    base: String,
    /// The `Authorization` header every request to it carries (`--auth LABEL=VALUE`).
    authorization: Option<String>,
}

impl Agent {
    fn parse(arg: &str) -> Result<Agent, String> {
        let (label, url) = arg
            .split_once('=')
            .ok_or_else(|| format!("{arg:?} is not LABEL=URL"))?;
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("{url:?}: only http:// URLs"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        };
        let host = match authority.rsplit_once(':') {
            Some((host, port)) if port.parse::<u16>().is_ok() => host,
            _ => return Err(format!("{url:?}: the URL needs host:port")),
        };
        if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
            return Err(format!("{url:?}: only loopback agents"));
        }
        if label.is_empty() {
            return Err(format!("{arg:?}: empty label"));
        }
        Ok(Agent {
            label: label.to_string(),
            authority: authority.to_string(),
            base: path.trim_end_matches('/').to_string(),
            authorization: None,
        })
    }
}

#[derive(Clone, Debug)]
struct Config {
    connections: usize,
    requests: usize,
    seconds: f64,
    warmup: f64,
    threads: usize,
    workloads: Vec<Workload>,
    /// `handler-existing`: the waiting tasks its calls are spread over.
    tasks: usize,
    json: Option<String>,
    agents: Vec<Agent>,
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    let (mut workloads, mut json, mut agents) = (Workload::ALL.to_vec(), None, Vec::new());
    let mut bounds = BoundsArgs::default();
    let mut tasks = None;
    let mut auths: Vec<(String, String)> = Vec::new();
    let smoke = args.iter().any(|a| a == "--smoke");
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
            "--json" => json = Some(value()?),
            "--auth" => {
                let v = value()?;
                let (label, header) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--auth: {v:?} is not LABEL=VALUE"))?;
                auths.push((label.to_owned(), header.to_owned()));
            }
            "--tasks" => {
                let v = value()?;
                tasks = Some(
                    v.parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--tasks: {v:?} is not a number above 0"))?,
                );
            }
            "--workloads" => {
                workloads = value()?
                    .split(',')
                    .map(|w| Workload::parse(w).ok_or_else(|| format!("unknown workload {w:?}")))
                    .collect::<Result<_, _>>()?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            agent => agents.push(Agent::parse(agent)?),
        }
    }
    if agents.is_empty() {
        return Err("no agent given".to_string());
    }
    for (label, header) in auths {
        let agent = agents
            .iter_mut()
            .find(|a| a.label == label)
            .ok_or_else(|| format!("--auth: no agent labelled {label:?}"))?;
        agent.authorization = Some(header);
    }
    let b = bounds.finish()?;
    Ok(Config {
        connections: b.connections,
        requests: b.requests,
        seconds: b.seconds,
        warmup: b.warmup,
        threads: b.threads,
        workloads,
        tasks: tasks.unwrap_or(if smoke { 50 } else { 5000 }),
        json,
        agents,
    })
}

/// A task waiting for input (`handler-existing`): its id and its context's, as the agent gave
/// them.
#[derive(Clone, Debug)]
struct Waiting {
    task_id: String,
    context_id: Option<String>,
}

/// A v1 message with text, as JSON: `id` is its `messageId`; with `task`, it continues that task.
fn message(id: &str, task: Option<&Waiting>) -> String {
    let ids = task.map_or_else(String::new, |t| {
        // The agents' ids are UUIDs; quoted by serde_json all the same.
        let quote = |v: &str| serde_json::to_string(v).expect("a string encodes");
        let context = t
            .context_id
            .as_deref()
            .map_or_else(String::new, |c| format!(r#","contextId":{}"#, quote(c)));
        format!(r#","taskId":{}{context}"#, quote(&t.task_id))
    });
    format!(r#"{{"role":"ROLE_USER","messageId":"{id}"{ids},"parts":[{{"text":"{TEXT}"}}]}}"#)
}

/// A JSON-RPC request body with a `message` param.
fn rpc_body(n: usize, method: &str, message: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"{method}","params":{{"message":{message}}}}}"#)
}

/// Request number `n` of `workload` to `agent` (each message has its own id). `handler-existing`
/// continues `task`; without one, it is the setup's request that makes a waiting task.
fn request(
    agent: &Agent,
    workload: Workload,
    n: usize,
    task: Option<&Waiting>,
) -> Request<Full<Bytes>> {
    let (method, path, body) = match workload {
        Workload::Card => (Method::GET, "/.well-known/agent-card.json", None),
        Workload::JsonrpcSend | Workload::Stream => {
            let method = if workload == Workload::Stream {
                "SendStreamingMessage"
            } else {
                "SendMessage"
            };
            let body = rpc_body(n, method, &message(&format!("bench-{n}"), None));
            (Method::POST, "/", Some(body))
        }
        Workload::RestSend => (
            Method::POST,
            "/message:send",
            Some(format!(
                r#"{{"message":{}}}"#,
                message(&format!("bench-{n}"), None)
            )),
        ),
        Workload::HandlerNew => {
            let message = message(&format!("tck-complete-task-{n}"), None);
            (
                Method::POST,
                "/",
                Some(rpc_body(n, "SendMessage", &message)),
            )
        }
        Workload::HandlerExisting => {
            let message = match task {
                Some(task) => message(&format!("tck-input-required-{n}"), Some(task)),
                None => message(&format!("tck-input-required-setup-{n}"), None),
            };
            (
                Method::POST,
                "/",
                Some(rpc_body(n, "SendMessage", &message)),
            )
        }
    };
    let uri = format!("{}{}", agent.base, path);
    let builder = Request::builder()
        .method(method)
        .uri(uri)
        .header(hyper::header::HOST, &agent.authority);
    let builder = match &agent.authorization {
        Some(value) => builder.header(hyper::header::AUTHORIZATION, value),
        None => builder,
    };
    let builder = match body {
        None => builder,
        Some(_) => builder
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .header("A2A-Version", "1.0"),
    };
    let builder = if workload == Workload::Stream {
        builder.header(hyper::header::ACCEPT, "text/event-stream")
    } else {
        builder
    };
    let body = body.unwrap_or_default();
    builder
        .body(Full::new(Bytes::from(body)))
        .expect("a request of constant parts")
}

/// What one successful request measured, in microseconds.
#[derive(Clone, Copy, Debug)]
struct Sample {
    total: u32,
    /// Streams: to the first whole event, and from the first to the last.
    first_event: u32,
    event_span: u32,
}

fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// Why a reply is not a success, in a few words (the key failures are counted by).
type Failure = String;

// The shapes the replies are checked against: typed and borrowed, every member not named here
// skipped (a `serde_json::Value` of each reply cost the generator more CPU than the agent spent
// answering the card).

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CardShape<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    supported_interfaces: Vec<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskShape<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    context_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    status: StatusShape<'a>,
}

#[derive(Deserialize)]
struct StatusShape<'a> {
    #[serde(borrow)]
    state: Cow<'a, str>,
}

/// A `SendMessageResponse` (the JSON-RPC `result`, or the REST body) or a `StreamResponse`:
/// one member of these.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResponseShape<'a> {
    #[serde(borrow)]
    task: Option<TaskShape<'a>>,
    message: Option<IgnoredAny>,
    status_update: Option<IgnoredAny>,
    artifact_update: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct RpcShape<'a> {
    #[serde(borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    result: Option<ResponseShape<'a>>,
    error: Option<ErrorShape>,
}

#[derive(Deserialize)]
struct ErrorShape {
    code: Option<i64>,
}

/// A task in `state` (with the id `id`, when given): the interop agents answer every message
/// with a completed one.
fn check_task<'a>(
    response: ResponseShape<'a>,
    state: &str,
    id: Option<&str>,
) -> Result<TaskShape<'a>, Failure> {
    let task = response
        .task
        .ok_or_else(|| "the response holds no task".to_string())?;
    if task.id.is_empty() {
        return Err("the task has an empty id".to_string());
    }
    if id.is_some_and(|id| task.id != id) {
        return Err("the reply is another task than the one continued".to_string());
    }
    if task.status.state != state {
        return Err(format!("task state {}", task.status.state));
    }
    Ok(task)
}

const COMPLETED: &str = "TASK_STATE_COMPLETED";
const INPUT_REQUIRED: &str = "TASK_STATE_INPUT_REQUIRED";

/// Checks a unary reply's body (`handler-existing`: the reply to continuing `task`).
fn check_unary(workload: Workload, body: &[u8], task: Option<&Waiting>) -> Result<(), Failure> {
    let shape_error =
        |e: serde_json::Error| format!("not the expected shape: {}", e.classify_name());
    match workload {
        Workload::Card => {
            let card: CardShape = serde_json::from_slice(body).map_err(shape_error)?;
            if card.name.is_empty() || card.supported_interfaces.is_empty() {
                return Err("a card without a name or interfaces".to_string());
            }
            Ok(())
        }
        Workload::JsonrpcSend | Workload::HandlerNew => {
            check_task(check_rpc_result(body)?, COMPLETED, None).map(drop)
        }
        Workload::RestSend => check_task(
            serde_json::from_slice(body).map_err(shape_error)?,
            COMPLETED,
            None,
        )
        .map(drop),
        Workload::HandlerExisting => {
            let id = task.map(|t| t.task_id.as_str());
            check_task(check_rpc_result(body)?, INPUT_REQUIRED, id).map(drop)
        }
        Workload::Stream => unreachable!("streams are checked event by event"),
    }
}

/// The `result` of a JSON-RPC success reply.
fn check_rpc_result(body: &[u8]) -> Result<ResponseShape<'_>, Failure> {
    let reply: RpcShape = serde_json::from_slice(body)
        .map_err(|e| format!("not a JSON-RPC reply: {}", e.classify_name()))?;
    if let Some(error) = reply.error {
        return Err(format!("JSON-RPC error {}", error.code.unwrap_or(0)));
    }
    if reply.jsonrpc.as_deref() != Some("2.0") {
        return Err("not a JSON-RPC 2.0 reply".to_string());
    }
    reply.result.ok_or_else(|| "no result member".to_string())
}

/// Checks one streamed event: a JSON-RPC result holding exactly one `StreamResponse` member.
fn check_event(data: &[u8]) -> Result<(), Failure> {
    let r = check_rpc_result(data).map_err(|e| format!("event: {e}"))?;
    let members = usize::from(r.task.is_some())
        + usize::from(r.message.is_some())
        + usize::from(r.status_update.is_some())
        + usize::from(r.artifact_update.is_some());
    if members != 1 {
        return Err(format!(
            "event: {members} StreamResponse members, expected 1"
        ));
    }
    Ok(())
}

trait ClassifyName {
    fn classify_name(&self) -> &'static str;
}

impl ClassifyName for serde_json::Error {
    fn classify_name(&self) -> &'static str {
        match self.classify() {
            serde_json::error::Category::Io => "I/O",
            serde_json::error::Category::Syntax => "not JSON",
            serde_json::error::Category::Data => "a member missing or of the wrong type",
            serde_json::error::Category::Eof => "truncated JSON",
        }
    }
}

async fn connect(agent: &Agent) -> Result<Sender, Failure> {
    load::connect(&agent.authority).await
}

/// One request on `sender`, to its checked end (`handler-existing`: continuing `task`).
async fn call(
    sender: &mut Sender,
    agent: &Agent,
    workload: Workload,
    n: usize,
    task: Option<&Waiting>,
) -> Result<Sample, Failure> {
    let req = request(agent, workload, n, task);
    sender
        .ready()
        .await
        .map_err(|e| format!("connection: {e}"))?;
    let start = Instant::now();
    let response = sender
        .send_request(req)
        .await
        .map_err(|e| format!("request: {e}"))?;
    let status = response.status();
    let mut body = response.into_body();
    if workload != Workload::Stream {
        let bytes = body
            .collect()
            .await
            .map_err(|e| format!("body: {e}"))?
            .to_bytes();
        let total = micros(start.elapsed());
        if status != StatusCode::OK {
            return Err(format!("HTTP {}", status.as_u16()));
        }
        check_unary(workload, &bytes, task)?;
        return Ok(Sample {
            total,
            first_event: 0,
            event_span: 0,
        });
    }
    let mut sse = Sse::default();
    let mut events = Vec::new();
    let (mut first, mut last) = (None, None);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("body: {e}"))?;
        if let Some(chunk) = frame.data_ref() {
            let done = sse.feed(chunk);
            if !done.is_empty() {
                let now = Instant::now();
                first.get_or_insert(now);
                last = Some(now);
                events.extend(done);
            }
        }
    }
    let end = Instant::now();
    if status != StatusCode::OK {
        return Err(format!("HTTP {}", status.as_u16()));
    }
    if events.len() != STREAM_EVENTS {
        return Err(format!(
            "{} SSE events, expected {STREAM_EVENTS}",
            events.len()
        ));
    }
    for data in &events {
        check_event(data)?;
    }
    let (first, last) = (first.unwrap_or(end), last.unwrap_or(end));
    Ok(Sample {
        total: micros(end - start),
        first_event: micros(first - start),
        event_span: micros(last - first),
    })
}

/// What the workers of one (agent, workload) share.
struct Shared {
    agent: Agent,
    workload: Workload,
    /// Request numbers handed out (warm-up and measure), and those of the measure.
    numbered: AtomicUsize,
    measured: AtomicUsize,
    max_requests: usize,
    warm_until: Instant,
    measure_for: Duration,
    barrier: tokio::sync::Barrier,
    start: OnceLock<Instant>,
    /// `handler-existing`: the tasks it continues, request `n` the task `n` mod their number.
    waiting: Vec<Waiting>,
}

#[derive(Default)]
struct WorkerResult {
    samples: Vec<Sample>,
    failures: BTreeMap<Failure, usize>,
    warmup_ok: usize,
    end: Option<Instant>,
}

async fn worker(shared: Arc<Shared>) -> WorkerResult {
    let mut result = WorkerResult::default();
    let mut sender: Option<Sender> = None;
    // Warm-up: requests until its deadline, checked; a failure counts (marked) but no time.
    while Instant::now() < shared.warm_until {
        let n = shared.numbered.fetch_add(1, Ordering::Relaxed);
        match one(&shared, &mut sender, n).await {
            Ok(_) => result.warmup_ok += 1,
            Err(f) => *result.failures.entry(format!("warm-up: {f}")).or_default() += 1,
        }
    }
    shared.barrier.wait().await;
    let start = *shared.start.get_or_init(Instant::now);
    let deadline = start + shared.measure_for;
    loop {
        if Instant::now() >= deadline {
            break;
        }
        if shared.measured.fetch_add(1, Ordering::Relaxed) >= shared.max_requests {
            break;
        }
        let n = shared.numbered.fetch_add(1, Ordering::Relaxed);
        match one(&shared, &mut sender, n).await {
            Ok(sample) => result.samples.push(sample),
            Err(f) => *result.failures.entry(f).or_default() += 1,
        }
        result.end = Some(Instant::now());
    }
    result
}

/// One request on the worker's connection, made first or made again after a failure.
async fn one(shared: &Shared, sender: &mut Option<Sender>, n: usize) -> Result<Sample, Failure> {
    if sender.as_ref().is_none_or(Sender::is_closed) {
        match connect(&shared.agent).await {
            Ok(s) => *sender = Some(s),
            Err(f) => {
                // Do not spin on a refused connection.
                tokio::time::sleep(Duration::from_millis(10)).await;
                return Err(f);
            }
        }
    }
    let task = match shared.workload {
        Workload::HandlerExisting => match shared.waiting.len() {
            0 => return Err("no waiting task to continue (the setup made none)".to_string()),
            len => Some(&shared.waiting[n % len]),
        },
        _ => None,
    };
    let s = sender.as_mut().expect("connected above");
    let outcome = tokio::time::timeout(
        REQUEST_TIMEOUT,
        call(s, &shared.agent, shared.workload, n, task),
    )
    .await
    .unwrap_or_else(|_| Err(format!("no reply in {} s", REQUEST_TIMEOUT.as_secs())));
    if outcome.is_err() {
        // The connection may be mid-reply: start the next request on a new one.
        *sender = None;
    }
    outcome
}

/// `handler-existing`'s setup request `n` on the worker's connection: a new task, left waiting
/// for input; its ids.
async fn make_one_waiting(
    sender: &mut Option<Sender>,
    agent: &Agent,
    n: usize,
) -> Result<Waiting, Failure> {
    if sender.as_ref().is_none_or(Sender::is_closed) {
        match connect(agent).await {
            Ok(s) => *sender = Some(s),
            Err(f) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                return Err(f);
            }
        }
    }
    let s = sender.as_mut().expect("connected above");
    let exchange = async {
        let req = request(agent, Workload::HandlerExisting, n, None);
        let bytes = load::exchange(s, req).await?;
        let task = check_task(check_rpc_result(&bytes)?, INPUT_REQUIRED, None)?;
        Ok(Waiting {
            task_id: task.id.into_owned(),
            context_id: task.context_id.map(Cow::into_owned),
        })
    };
    let outcome = tokio::time::timeout(REQUEST_TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| Err(format!("no reply in {} s", REQUEST_TIMEOUT.as_secs())));
    if outcome.is_err() {
        *sender = None;
    }
    outcome
}

/// What `handler-existing`'s setup made: the waiting tasks, the failures, how long it took.
struct Setup {
    waiting: Vec<Waiting>,
    failures: BTreeMap<Failure, usize>,
    seconds: f64,
}

/// `handler-existing`'s setup: `tasks` new tasks left waiting for input, on `connections`
/// connections at once.
async fn make_waiting(agent: &Agent, tasks: usize, connections: usize) -> Setup {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let workers: Vec<_> = (0..connections.min(tasks))
        .map(|_| {
            let (next, agent) = (next.clone(), agent.clone());
            tokio::spawn(async move {
                let (mut made, mut failures) = (Vec::new(), BTreeMap::<Failure, usize>::new());
                let mut sender = None;
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= tasks {
                        break;
                    }
                    match make_one_waiting(&mut sender, &agent, n).await {
                        Ok(w) => made.push(w),
                        Err(f) => *failures.entry(format!("setup: {f}")).or_default() += 1,
                    }
                }
                (made, failures)
            })
        })
        .collect();
    let mut setup = Setup {
        waiting: Vec::with_capacity(tasks),
        failures: BTreeMap::new(),
        seconds: 0.0,
    };
    for w in workers {
        let (made, failures) = w.await.expect("a setup worker panicked");
        setup.waiting.extend(made);
        for (f, n) in failures {
            *setup.failures.entry(f).or_default() += n;
        }
    }
    setup.seconds = start.elapsed().as_secs_f64();
    setup
}

/// The measure of one agent on one workload.
struct Measure {
    label: String,
    workload: Workload,
    ok: usize,
    failed: usize,
    failures: BTreeMap<Failure, usize>,
    warmup_ok: usize,
    seconds: f64,
    rps: f64,
    p50: f64,
    p99: f64,
    /// Streams: p50 to the first event, p50 of the mean gap between events, and p50 of the
    /// share of a stream's time spent between its first and last event.
    first_p50: f64,
    gap_p50: f64,
    span_share_p50: f64,
    /// `handler-existing`: the waiting tasks made first and how long that took, and the most
    /// times one of them was continued (warm-up included).
    setup: Option<(usize, f64, usize)>,
}

/// The `q` quantile (0..=1) of sorted microseconds, in milliseconds (nearest rank; NaN for none).
fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    a2a_bench::load::quantile_ms(sorted, q).unwrap_or(f64::NAN)
}

async fn measure(config: &Config, agent: &Agent, workload: Workload) -> Measure {
    let setup = match workload {
        Workload::HandlerExisting => {
            let setup = make_waiting(agent, config.tasks, config.connections).await;
            eprintln!(
                "serve_load: {} {}: {} waiting tasks made in {:.2} s ({} failed)",
                agent.label,
                workload.name(),
                setup.waiting.len(),
                setup.seconds,
                setup.failures.values().sum::<usize>()
            );
            Some(setup)
        }
        _ => None,
    };
    let (waiting, setup_failures, setup_seconds) = match setup {
        Some(s) => (s.waiting, s.failures, Some(s.seconds)),
        None => (Vec::new(), BTreeMap::new(), None),
    };
    let shared = Arc::new(Shared {
        agent: agent.clone(),
        workload,
        numbered: AtomicUsize::new(0),
        measured: AtomicUsize::new(0),
        max_requests: config.requests,
        warm_until: Instant::now() + Duration::from_secs_f64(config.warmup),
        measure_for: Duration::from_secs_f64(config.seconds),
        barrier: tokio::sync::Barrier::new(config.connections),
        start: OnceLock::new(),
        waiting,
    });
    let workers: Vec<_> = (0..config.connections)
        .map(|_| tokio::spawn(worker(shared.clone())))
        .collect();
    let mut all = WorkerResult {
        failures: setup_failures,
        ..WorkerResult::default()
    };
    for w in workers {
        let r = w.await.expect("a worker panicked");
        all.samples.extend(r.samples);
        for (f, n) in r.failures {
            *all.failures.entry(f).or_default() += n;
        }
        all.warmup_ok += r.warmup_ok;
        all.end = all.end.max(r.end);
    }
    let start = shared.start.get().copied().unwrap_or_else(Instant::now);
    let seconds = all
        .end
        .map_or(0.0, |end| end.duration_since(start).as_secs_f64());
    let failed = all.failures.values().sum();
    let ok = all.samples.len();
    let mut totals: Vec<u32> = all.samples.iter().map(|s| s.total).collect();
    totals.sort_unstable();
    let mut firsts: Vec<u32> = all.samples.iter().map(|s| s.first_event).collect();
    firsts.sort_unstable();
    let mut gaps: Vec<u32> = all
        .samples
        .iter()
        .map(|s| s.event_span / (STREAM_EVENTS as u32 - 1))
        .collect();
    gaps.sort_unstable();
    // Per mille, so that the shares sort as integers like the rest.
    let mut shares: Vec<u32> = all
        .samples
        .iter()
        .map(|s| (u64::from(s.event_span) * 1000 / u64::from(s.total.max(1))) as u32)
        .collect();
    shares.sort_unstable();
    Measure {
        label: agent.label.clone(),
        workload,
        ok,
        failed,
        failures: all.failures,
        warmup_ok: all.warmup_ok,
        seconds,
        rps: if seconds > 0.0 {
            ok as f64 / seconds
        } else {
            0.0
        },
        p50: quantile_ms(&totals, 0.50),
        p99: quantile_ms(&totals, 0.99),
        first_p50: quantile_ms(&firsts, 0.50),
        gap_p50: quantile_ms(&gaps, 0.50),
        // quantile_ms divides by 1000: per mille in, a fraction out.
        span_share_p50: quantile_ms(&shares, 0.50),
        setup: setup_seconds.map(|s| {
            let made = shared.waiting.len();
            let calls = shared.numbered.load(Ordering::Relaxed);
            (made, s, calls.div_ceil(made.max(1)))
        }),
    }
}

fn ratio(this: f64, base: f64) -> String {
    if base.is_nan() || base <= 0.0 || !this.is_finite() {
        return "-".to_string();
    }
    let r = this / base;
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 1.0 {
        format!("{r:.2}x")
    } else {
        format!("{r:.4}x")
    }
}

fn ms(v: f64) -> String {
    if v.is_nan() {
        "-".to_string()
    } else if v >= 100.0 {
        format!("{v:.0} ms")
    } else if v >= 10.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.2} ms")
    }
}

/// The table of one workload: every agent, then the ratios of each agent to each one before it
/// (the first is the baseline).
fn table(config: &Config, measures: &[Measure]) -> String {
    let mut out = String::new();
    let Some(base) = measures.first() else {
        return out;
    };
    let w = base.workload;
    let _ = writeln!(
        out,
        "\n{} ({}): {} connections, min({} requests, {} s) after {} s of warm-up",
        w.name(),
        w.what(),
        config.connections,
        config.requests,
        config.seconds,
        config.warmup
    );
    let stream = w == Workload::Stream;
    let _ = write!(
        out,
        "  {:<14} {:>7} {:>6} {:>7} {:>10} {:>10} {:>10}",
        "agent", "ok", "failed", "seconds", "req/s", "p50", "p99"
    );
    if stream {
        let _ = write!(
            out,
            " {:>11} {:>10} {:>11}",
            "first p50", "gap p50", "gaps share"
        );
    }
    let _ = writeln!(out);
    for m in measures {
        let _ = write!(
            out,
            "  {:<14} {:>7} {:>6} {:>7.2} {:>10.1} {:>10} {:>10}",
            m.label,
            m.ok,
            m.failed,
            m.seconds,
            m.rps,
            ms(m.p50),
            ms(m.p99)
        );
        if stream {
            let share = if m.span_share_p50.is_nan() {
                "-".to_string()
            } else {
                format!("{:.0}%", 100.0 * m.span_share_p50)
            };
            let _ = write!(
                out,
                " {:>11} {:>10} {:>11}",
                ms(m.first_p50),
                ms(m.gap_p50),
                share
            );
        }
        let _ = writeln!(out);
    }
    for (j, m) in measures.iter().enumerate().skip(1) {
        for b in &measures[..j] {
            let _ = writeln!(
                out,
                "  ratios {}/{}: req/s {}, p50 {}, p99 {}",
                m.label,
                b.label,
                ratio(m.rps, b.rps),
                ratio(m.p50, b.p50),
                ratio(m.p99, b.p99)
            );
        }
    }
    for m in measures {
        if m.failed > 0 {
            let _ = writeln!(
                out,
                "  FAILURES {} {}: {} (and {} good warm-up requests)",
                m.label,
                w.name(),
                m.failed,
                m.warmup_ok
            );
            for (reason, n) in &m.failures {
                let _ = writeln!(out, "    {n:>7} x {reason}");
            }
        }
    }
    if w == Workload::HandlerExisting {
        for m in measures {
            if let Some((made, seconds, most)) = m.setup {
                let _ = writeln!(
                    out,
                    "  ({}: {made} waiting tasks made first, in {seconds:.2} s; each continued at \
                     most {most} times, so its history at most {} messages)",
                    m.label,
                    most + 1
                );
            }
        }
    }
    if stream {
        let _ = writeln!(
            out,
            "  (first p50: to the first whole event; gap p50: the mean gap between a stream's {} \
             events;\n   gaps share: of a stream's time, between its first and last event; at {} \
             connections, req/s is near {} / p50)",
            STREAM_EVENTS, config.connections, config.connections
        );
    }
    out
}

/// The issue's targets, for every agent but the first, against the first.
fn targets(all: &[Vec<Measure>]) -> String {
    let mut out = String::new();
    // Issue 20's workloads only: the handler bench's agents are compared store by store.
    for row in all {
        let Some(base) = row.first() else { continue };
        if !Workload::ALL.contains(&base.workload) {
            continue;
        }
        for m in &row[1..] {
            let _ = writeln!(
                out,
                "  {} {}: {} the req/s of {} (target at least 100x: {}), p99 {} vs its p50 {} \
                 (target below: {})",
                m.label,
                m.workload.name(),
                ratio(m.rps, base.rps),
                base.label,
                if m.rps >= 100.0 * base.rps {
                    "met"
                } else {
                    "missed"
                },
                ms(m.p99),
                ms(base.p50),
                if m.p99 < base.p50 { "met" } else { "missed" },
            );
        }
    }
    out
}

fn json_line(config: &Config, m: &Measure) -> String {
    serde_json::json!({
        "label": m.label,
        "workload": m.workload.name(),
        "connections": config.connections,
        "ok": m.ok,
        "failed": m.failed,
        "failures": m.failures,
        "seconds": m.seconds,
        "rps": m.rps,
        "p50_ms": m.p50,
        "p99_ms": m.p99,
        "first_event_p50_ms": if m.workload == Workload::Stream { Some(m.first_p50) } else { None },
        "event_gap_p50_ms": if m.workload == Workload::Stream { Some(m.gap_p50) } else { None },
        "gaps_share_p50": if m.workload == Workload::Stream { Some(m.span_share_p50) } else { None },
        "waiting_tasks": m.setup.map(|(made, _, _)| made),
        "setup_seconds": m.setup.map(|(_, seconds, _)| seconds),
        "most_continued": m.setup.map(|(_, _, most)| most),
    })
    .to_string()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("serve_load: {e}\n{USAGE}");
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
            eprintln!("serve_load: cannot start tokio: {e}");
            return ExitCode::from(1);
        }
    };
    let mut all = Vec::new();
    for &workload in &config.workloads {
        let mut row = Vec::new();
        for agent in &config.agents {
            let m = runtime.block_on(measure(&config, agent, workload));
            eprintln!(
                "serve_load: {} {}: {} ok, {} failed in {:.2} s",
                m.label,
                workload.name(),
                m.ok,
                m.failed,
                m.seconds
            );
            row.push(m);
        }
        print!("{}", table(&config, &row));
        let _ = std::io::stdout().flush();
        all.push(row);
    }
    let issue_20 = config.workloads.iter().any(|w| Workload::ALL.contains(w));
    if config.agents.len() > 1 && issue_20 {
        println!("\ntargets (issue 20: at least 100x the baseline's req/s, p99 below its p50):");
        print!("{}", targets(&all));
    }
    if let Some(path) = &config.json {
        let lines: String = all
            .iter()
            .flatten()
            .map(|m| json_line(&config, m) + "\n")
            .collect();
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(lines.as_bytes()));
        if let Err(e) = written {
            eprintln!("serve_load: cannot write {path}: {e}");
            return ExitCode::from(1);
        }
    }
    let failed: usize = all.iter().flatten().map(|m| m.failed).sum();
    if failed > 0 {
        println!("\nserve_load: {failed} failed request(s): see FAILURES above");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
