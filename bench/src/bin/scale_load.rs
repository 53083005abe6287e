//! `scale_load`: what the size of the store and the length of a task's history cost an agent
//! (issue 30, "Bench at scale"), against one agent that runs `examples/tck-agent`'s scenarios.
//!
//! ```text
//! scale_load [--sizes 10000,100000,1000000] [--connections 32] [--seconds 4]
//!            [--history 1,1000,10000] [--history-seconds 300] [--chunks 1,1000,10000]
//!            [--rounds 1] [--json FILE] LABEL=URL
//! ```
//!
//! For each size, in order: the agent is filled with new tasks until it holds that many
//! (`tck-complete-task-N` messages on `--connections` connections; the measured sends below add
//! theirs, and the count says so), then `SendMessage` of a new task is measured for `--seconds`
//! on those connections, alone and then beside one more connection that calls `ListTasks`
//! (`pageSize` 10) in a loop, whose page latency is measured too; `--rounds N` measures the pair
//! N times and prints the median of the N ratios (a machine's pauses fall on one side of one
//! pair, not on the median). Then one task is made to wait
//! for input and sent messages one after another on one connection (`historyLength` 1, so each
//! reply is small), and the latency of the k-th message is reported for each k of `--history`
//! (the median of the 21 messages from k on), until the last k or `--history-seconds`. Then the
//! k-th chunk: one `SendStreamingMessage` whose task streams the last k of `--chunks` (plus 20)
//! chunks of one artifact with `append` (`bench-chunks-N`), and the time between the k-th chunk
//! event and the one before it (the median of the 21 from k on); cut at `--history-seconds` too
//! (the agent's execution then goes on without a reader). Prints
//! one line per measure; `--json` appends them as JSON lines. Exits 1 when a request failed.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_bench::load::{self, quantile_ms, Sender, Sse};
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Method, Request};
use serde_json::{json, Value};

const USAGE: &str = "usage: scale_load [--sizes N,N,...] [--connections N] [--seconds S] \
[--history K,K,...] [--history-seconds S] [--chunks K,K,...] [--rounds N] [--json FILE] LABEL=URL";

struct Config {
    label: String,
    authority: String,
    sizes: Vec<usize>,
    connections: usize,
    seconds: f64,
    history: Vec<usize>,
    history_seconds: f64,
    chunks: Vec<usize>,
    rounds: usize,
    json: Option<String>,
}

fn parse(args: &[String]) -> Result<Config, String> {
    let mut config = Config {
        label: String::new(),
        authority: String::new(),
        sizes: vec![10_000, 100_000, 1_000_000],
        connections: 32,
        seconds: 4.0,
        history: vec![1, 1_000, 10_000],
        history_seconds: 300.0,
        chunks: vec![1, 1_000, 10_000],
        rounds: 1,
        json: None,
    };
    let list = |v: &str| -> Result<Vec<usize>, String> {
        v.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().map_err(|_| format!("{s:?} is not a number")))
            .collect()
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--sizes" => config.sizes = list(&value()?)?,
            "--connections" => {
                config.connections = value()?.parse().map_err(|_| "--connections: a number")?
            }
            "--seconds" => config.seconds = value()?.parse().map_err(|_| "--seconds: a number")?,
            "--history" => config.history = list(&value()?)?,
            "--history-seconds" => {
                config.history_seconds = value()?.parse().map_err(|_| "--history-seconds")?
            }
            "--chunks" => config.chunks = list(&value()?)?,
            "--rounds" => {
                config.rounds = value()?.parse().map_err(|_| "--rounds: a number")?;
            }
            "--json" => config.json = Some(value()?),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            target => {
                let (label, url) = target
                    .split_once('=')
                    .ok_or(format!("{target:?} is not LABEL=URL"))?;
                let authority = url
                    .strip_prefix("http://")
                    .ok_or(format!("{url}: only http:// URLs"))?
                    .trim_end_matches('/');
                config.label = label.to_owned();
                config.authority = authority.to_owned();
            }
        }
    }
    if config.authority.is_empty() || config.connections == 0 || config.rounds == 0 {
        return Err(USAGE.to_owned());
    }
    Ok(config)
}

/// A connection to the agent, which must accept it.
async fn connect(authority: &str) -> Sender {
    load::connect(authority)
        .await
        .unwrap_or_else(|e| panic!("the agent at {authority} accepts no connection: {e}"))
}

/// One JSON-RPC call: its result, or why it failed.
async fn call(
    sender: &mut Sender,
    authority: &str,
    method: &str,
    params: Value,
) -> Result<Value, String> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let request = Request::builder()
        .method(Method::POST)
        .uri(format!("http://{authority}/"))
        .header(hyper::header::HOST, authority)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header("A2A-Version", "1.0")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a request of constant parts");
    let bytes = load::exchange(sender, request).await?;
    let mut reply: Value = serde_json::from_slice(&bytes).map_err(|e| format!("reply: {e}"))?;
    match reply.get_mut("result") {
        Some(result) => Ok(result.take()),
        None => Err(format!("error: {}", reply["error"])),
    }
}

fn message(id: &str, task: Option<(&str, &str)>) -> Value {
    let mut message = json!({"role": "ROLE_USER", "messageId": id, "parts": [{"text": "scale"}]});
    if let Some((task_id, context_id)) = task {
        message["taskId"] = json!(task_id);
        message["contextId"] = json!(context_id);
    }
    message
}

/// Shared by the connections of one measure.
struct Run {
    authority: String,
    /// Messages sent so far (each a new task): the next one's number.
    sent: AtomicUsize,
    failed: AtomicUsize,
    stop: AtomicBool,
}

impl Run {
    /// Sends new tasks on one connection until `until` of them were sent or the run stops;
    /// returns the latencies, in microseconds.
    async fn send_new(self: Arc<Self>, until: usize) -> Vec<u32> {
        let mut sender = connect(&self.authority).await;
        let mut latencies = Vec::new();
        while !self.stop.load(Ordering::Relaxed) {
            let n = self.sent.fetch_add(1, Ordering::Relaxed);
            if n >= until {
                // Not sent: the count stays the tasks made.
                self.sent.fetch_sub(1, Ordering::Relaxed);
                break;
            }
            let params = json!({"message": message(&format!("tck-complete-task-{n}"), None)});
            let start = Instant::now();
            match call(&mut sender, &self.authority, "SendMessage", params).await {
                Ok(_) => latencies.push(micros(start.elapsed())),
                Err(e) => {
                    if self.failed.fetch_add(1, Ordering::Relaxed) < 3 {
                        eprintln!("scale_load: SendMessage failed: {e}");
                    }
                }
            }
        }
        latencies
    }

    /// Calls `ListTasks` (page size 10) until the run stops; the page latencies.
    async fn list_loop(self: Arc<Self>) -> Vec<u32> {
        let mut sender = connect(&self.authority).await;
        let mut latencies = Vec::new();
        while !self.stop.load(Ordering::Relaxed) {
            let start = Instant::now();
            match call(
                &mut sender,
                &self.authority,
                "ListTasks",
                json!({"pageSize": 10}),
            )
            .await
            {
                Ok(page) if page["tasks"].as_array().is_some_and(|t| t.len() == 10) => {
                    latencies.push(micros(start.elapsed()))
                }
                other => {
                    self.failed.fetch_add(1, Ordering::Relaxed);
                    eprintln!("scale_load: ListTasks: {other:?}");
                }
            }
        }
        latencies
    }
}

fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// req/s, p50, p99 of `latencies` over `seconds`.
fn summary(mut latencies: Vec<u32>, seconds: f64) -> (f64, f64, f64) {
    latencies.sort_unstable();
    let p = |q| quantile_ms(&latencies, q).unwrap_or(f64::NAN);
    (latencies.len() as f64 / seconds, p(0.5), p(0.99))
}

struct Report {
    label: String,
    json: Option<std::fs::File>,
}

impl Report {
    fn line(&mut self, text: String, value: Value) {
        println!("{}: {text}", self.label);
        if let Some(file) = &mut self.json {
            use std::io::Write as _;
            let mut value = value;
            value["agent"] = json!(self.label);
            let _ = writeln!(file, "{value}");
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse(&args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("scale_load: {e}\n{USAGE}");
            return std::process::ExitCode::from(2);
        }
    };
    let json = config.json.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the JSON file opens")
    });
    let mut report = Report {
        label: config.label.clone(),
        json,
    };
    let run = Arc::new(Run {
        authority: config.authority.clone(),
        sent: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    for &size in &config.sizes {
        // Fill up to the size (the sends measured before count).
        run.stop.store(false, Ordering::Relaxed);
        let started = Instant::now();
        let from = run.sent.load(Ordering::Relaxed);
        let fills: Vec<_> = (0..config.connections)
            .map(|_| tokio::spawn(Arc::clone(&run).send_new(size)))
            .collect();
        for fill in fills {
            fill.await.expect("a fill connection");
        }
        run.sent.store(
            run.sent.load(Ordering::Relaxed).max(size),
            Ordering::Relaxed,
        );
        let filled = started.elapsed().as_secs_f64();
        let added = size.saturating_sub(from);
        report.line(
            format!(
                "filled to {size} tasks ({added} in {filled:.1} s, {:.0}/s)",
                added as f64 / filled
            ),
            json!({"measure": "fill", "size": size, "added": added, "seconds": filled}),
        );
        let mut ratios = Vec::new();
        for (round, with_lists) in (0..config.rounds).flat_map(|r| [(r, false), (r, true)]) {
            let stored = run.sent.load(Ordering::Relaxed);
            run.stop.store(false, Ordering::Relaxed);
            // At most a quarter of the size more (the size stays what is measured), and at
            // most `--seconds`.
            let until = stored + (size / 4).max(2_000);
            let started = Instant::now();
            let lists = with_lists.then(|| tokio::spawn(Arc::clone(&run).list_loop()));
            let sends: Vec<_> = (0..config.connections)
                .map(|_| tokio::spawn(Arc::clone(&run).send_new(until)))
                .collect();
            // At the time bound each connection ends after the request it is making.
            let seconds = Duration::from_secs_f64(config.seconds);
            let stopper = {
                let run = Arc::clone(&run);
                tokio::spawn(async move {
                    tokio::time::sleep(seconds).await;
                    run.stop.store(true, Ordering::Relaxed);
                })
            };
            let mut latencies = Vec::new();
            for send in sends {
                latencies.extend(send.await.expect("a send connection"));
            }
            stopper.abort();
            // The list loop stops with the sends.
            run.stop.store(true, Ordering::Relaxed);
            let elapsed = started.elapsed().as_secs_f64();
            let (rate, p50, p99) = summary(latencies, elapsed);
            let loop_name = if with_lists {
                "with a ListTasks loop"
            } else {
                "alone"
            };
            report.line(
                format!("{stored} tasks: SendMessage {loop_name}: {rate:.0} req/s, p50 {p50:.2} ms, p99 {p99:.2} ms"),
                json!({"measure": "send", "size": size, "stored": stored, "lists": with_lists,
                       "round": round, "rps": rate, "p50_ms": p50, "p99_ms": p99}),
            );
            match with_lists {
                false => ratios.push(rate),
                true => {
                    if let Some(alone) = ratios.pop() {
                        ratios.push(rate / alone);
                    }
                }
            }
            if let Some(lists) = lists {
                let (rate, p50, p99) = summary(lists.await.expect("the list loop"), elapsed);
                report.line(
                    format!("{stored} tasks: ListTasks page (10): {rate:.0} pages/s, p50 {p50:.2} ms, p99 {p99:.2} ms"),
                    json!({"measure": "list", "size": size, "stored": stored,
                           "pages_per_s": rate, "p50_ms": p50, "p99_ms": p99}),
                );
            }
        }
        if config.rounds > 1 {
            let each: Vec<String> = ratios.iter().map(|r| format!("{r:.2}x")).collect();
            ratios.sort_by(f64::total_cmp);
            let median = ratios[ratios.len() / 2];
            report.line(
                format!(
                    "{size} tasks: sends with the loop / alone: median {median:.2}x of {} rounds ({})",
                    ratios.len(),
                    each.join(", ")
                ),
                json!({"measure": "send-ratio", "size": size, "median": median, "rounds": each}),
            );
        }
    }
    if let Some(&last) = config.history.iter().max() {
        history(&config, &mut report, last).await;
    }
    if let Some(&last) = config.chunks.iter().max() {
        if let Err(e) = chunks(&config, &mut report, last).await {
            eprintln!("scale_load: the chunks' stream: {e}");
            return std::process::ExitCode::from(1);
        }
    }
    let failed = run.failed.load(Ordering::Relaxed);
    if failed > 0 {
        eprintln!("scale_load: {failed} requests failed");
        return std::process::ExitCode::from(1);
    }
    std::process::ExitCode::SUCCESS
}

/// The median of the 21 samples from the k-th (counted from 1) on, in milliseconds; `None`
/// when there are not that many.
fn median_from(samples: &[u32], k: usize) -> Option<f64> {
    let start = k.saturating_sub(1);
    let mut window = samples.get(start..start + 21)?.to_vec();
    window.sort_unstable();
    Some(f64::from(window[10]) / 1000.0)
}

/// The k-th message to one waiting task, for each k asked, up to `last` or the time bound.
async fn history(config: &Config, report: &mut Report, last: usize) {
    let authority = &config.authority;
    let mut sender = connect(authority).await;
    let setup = json!({"message": message("tck-input-required-setup", None)});
    let task = call(&mut sender, authority, "SendMessage", setup)
        .await
        .expect("the waiting task");
    let task = &task["task"];
    let (task_id, context_id) = (
        task["id"].as_str().unwrap_or_default().to_owned(),
        task["contextId"].as_str().unwrap_or_default().to_owned(),
    );
    let started = Instant::now();
    let mut latencies = Vec::with_capacity(last + 21);
    for k in 1..=last + 20 {
        if started.elapsed().as_secs_f64() > config.history_seconds {
            report.line(
                format!(
                    "history: stopped at message {k} after {:.0} s",
                    config.history_seconds
                ),
                json!({"measure": "history-stopped", "k": k}),
            );
            break;
        }
        let params = json!({
            "message": message(&format!("tck-input-required-{k}"), Some((&task_id, &context_id))),
            "configuration": {"historyLength": 1},
        });
        let start = Instant::now();
        call(&mut sender, authority, "SendMessage", params)
            .await
            .expect("a message to the waiting task");
        latencies.push(micros(start.elapsed()));
    }
    for &k in &config.history {
        let Some(median) = median_from(&latencies, k) else {
            continue;
        };
        report.line(
            format!("history: message {k}: {median:.2} ms (median of the 21 from it)"),
            json!({"measure": "history", "k": k, "median_ms": median}),
        );
    }
}

/// The k-th chunk of one artifact streamed with `append`, for each k of `--chunks`: the time
/// from the chunk before it to it, as the stream delivers them (each is written to the store
/// before it is sent).
async fn chunks(config: &Config, report: &mut Report, last: usize) -> Result<(), String> {
    use http_body_util::BodyExt as _;
    let authority = &config.authority;
    let mut sender = connect(authority).await;
    let params = json!({"message": message(&format!("bench-chunks-{}", last + 20), None)});
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": params});
    let request = Request::builder()
        .method(Method::POST)
        .uri(format!("http://{authority}/"))
        .header(hyper::header::HOST, authority.as_str())
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(hyper::header::ACCEPT, "text/event-stream")
        .header("A2A-Version", "1.0")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a request of constant parts");
    let mut body = load::send(&mut sender, request).await?.into_body();
    let (mut sse, mut times) = (Sse::default(), Vec::with_capacity(last + 21));
    let started = Instant::now();
    let cut = Duration::from_secs_f64(config.history_seconds);
    'read: while let Ok(Some(frame)) =
        tokio::time::timeout_at((started + cut).into(), body.frame()).await
    {
        let frame = frame.map_err(|e| format!("body: {e}"))?;
        let Some(data) = frame.data_ref() else {
            continue;
        };
        for event in sse.feed(data) {
            let now = Instant::now();
            let text = String::from_utf8_lossy(&event);
            if text.contains("\"error\"") {
                return Err(format!("an error event: {text}"));
            }
            // The first status (working) stands for chunk 0, so that chunk 1 has a time.
            if text.contains("\"artifactUpdate\"") || times.is_empty() {
                times.push(now);
            }
            if times.len() > last + 20 {
                break 'read;
            }
        }
    }
    if times.len() <= last + 20 {
        report.line(
            format!(
                "chunks: stopped at chunk {} after {:.0} s",
                times.len().saturating_sub(1),
                config.history_seconds
            ),
            json!({"measure": "chunks-stopped", "k": times.len().saturating_sub(1)}),
        );
    }
    let gaps: Vec<u32> = times.windows(2).map(|w| micros(w[1] - w[0])).collect();
    for &k in &config.chunks {
        let Some(median) = median_from(&gaps, k) else {
            continue;
        };
        report.line(
            format!(
                "chunks: chunk {k}: {median:.3} ms after the one before (median of the 21 from it)"
            ),
            json!({"measure": "chunk", "k": k, "median_ms": median}),
        );
    }
    Ok(())
}
