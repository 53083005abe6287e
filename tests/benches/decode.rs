//! How fast a2a-types decodes A2A replies, measured against plain serde_json in the same run.
//!
//! Every reply a client reads goes through [`a2a_types::v1::decode_response`] (unary calls) or
//! [`a2a_types::v1::StreamDecoder`] (streams). Both add a contract on top of serde_json: a typed
//! agent error, a lenient error object, one-line reasons for malformed bodies, SSE framing. This
//! bench says what that contract costs on the paths that matter, by timing each case against a
//! baseline that does the same decoding work with nothing but serde_json:
//!
//! | group             | body                                   | a2a-types                        | baseline                                                         |
//! |-------------------|----------------------------------------|----------------------------------|------------------------------------------------------------------|
//! | `task_2kb`        | a `Task` reply of about 2 KB           | `decode_response::<Task>`        | `from_slice::<Plain<Task>>` (serde ignores `jsonrpc` and `id`)   |
//! | `task_200kb`      | a `Task` reply of about 200 KB         | `decode_response::<Task>`        | the same                                                         |
//! | `error_reply`     | an error object with extra members     | `decode_response::<Task>`        | `from_slice::<PlainErr>`: `code`, `message`, `data` only         |
//! | `sse_1000_events` | an SSE stream of 1000 JSON-RPC replies | `StreamDecoder`, 4 KiB chunks    | split on `"\n\n"`, strip `"data: "`, `from_str` each event       |
//!
//! The baselines decode into the same result types, through the same generated `Deserialize`
//! impls, so a ratio near 1.0x means the envelope is free; they skip what the contract adds
//! (no BOM, error-beside-result or trailing-data rules, no typed error, no SSE field parsing), so
//! they are the floor, not a rival. The task groups also time a third variant, `via_value`: parse
//! the body into a `serde_json::Value`, then `from_value` its `result` — what other Rust A2A
//! crates do — for information. Before anything is timed, each case checks that a2a-types and its
//! baselines decode equal values, so the bench cannot be comparing different work.
//!
//! The bodies are built in code, deterministically (fixed seed), in the shapes of captured
//! traffic: camelCase ProtoJSON, multi-paragraph text with quotes, newlines and non-ASCII.
//!
//! After criterion's own report, `main` prints one line per case: the throughput of a2a-types
//! divided by each baseline's, from the median estimates criterion wrote in this run
//! (`<criterion home>/<group>/<function>/new/estimates.json`). Under `cargo bench -- --test`
//! (each function run once, a smoke test) nothing is estimated, and it says so.
//!
//! Reading the numbers: criterion times the functions one after another, seconds apart, so on a
//! small shared machine (2 cores here) the ratios move by 10–20% from run to run; compare several
//! runs before reading anything into a ratio within that band. The stream baseline parses each
//! event from a `&str`, which spares serde_json the UTF-8 check that parsing from bytes does.
//!
//! Run: `cargo bench -p a2a-tests --bench decode` (about two minutes; `-- task_2kb` for one
//! group).

use std::env;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use a2a_types::v1::{decode_response, CallError, StreamDecoder, StreamResponse, Task};
use criterion::{BenchmarkGroup, Criterion, Throughput};
use serde::Deserialize;
use serde_json::{json, Value};

/// The chunk size the stream is fed in, like a socket read.
const CHUNK: usize = 4096;
/// Events in the SSE stream.
const STREAM_EVENTS: usize = 1000;

/// The baseline for a successful reply: serde ignores `jsonrpc`, `id` and any other member.
#[derive(Deserialize)]
struct Plain<T> {
    result: T,
}

/// The baseline for an error reply: the three JSON-RPC members, everything else ignored.
#[derive(Deserialize)]
struct PlainErr {
    error: PlainErrorObject,
}

#[derive(Deserialize)]
struct PlainErrorObject {
    code: i64,
    message: String,
    data: Option<Value>,
}

fn plain<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    serde_json::from_slice::<Plain<T>>(body).map(|plain| plain.result)
}

/// What other Rust A2A clients do: the whole body as a `Value`, then `result` out of it.
fn via_value<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    let mut value: Value = serde_json::from_slice(body)?;
    let result = value.get_mut("result").map_or(Value::Null, Value::take);
    serde_json::from_value(result)
}

/// a2a-types on a whole stream: feed it in chunks, count the decoded events.
fn ours_stream(body: &[u8]) -> (usize, Result<(), CallError>) {
    let mut decoder = StreamDecoder::<StreamResponse>::new();
    let mut ok = 0;
    for chunk in body.chunks(CHUNK) {
        ok += decoder
            .feed(chunk)
            .iter()
            .filter(|item| item.is_ok())
            .count();
    }
    (ok, decoder.finish())
}

/// The naive stream reader: split events on blank lines, strip `data: `, decode each.
fn naive_events(
    body: &str,
) -> impl Iterator<Item = Result<StreamResponse, serde_json::Error>> + '_ {
    body.split("\n\n")
        .filter_map(|event| event.strip_prefix("data: "))
        .map(|data| serde_json::from_str::<Plain<StreamResponse>>(data).map(|plain| plain.result))
}

fn naive_stream(body: &str) -> usize {
    naive_events(body).filter(Result::is_ok).count()
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/// Deterministic text in the style of model output: words, punctuation, quotes, markdown,
/// paragraph breaks, and some non-ASCII (accents, CJK, symbols) so strings take serde_json's
/// escape and UTF-8 paths too.
struct Text {
    state: u64,
}

const WORDS: &[&str] = &[
    "the",
    "agent",
    "task",
    "report",
    "result",
    "shows",
    "that",
    "revenue",
    "grew",
    "by",
    "12%",
    "in",
    "Q3",
    "and",
    "the",
    "forecast",
    "for",
    "next",
    "quarter",
    "is",
    "stable",
    "we",
    "checked",
    "three",
    "sources",
    "before",
    "writing",
    "this",
    "summary",
    "**note**",
    "`config.yaml`",
    "\"quoted\"",
    "naïve",
    "café",
    "Grüße",
    "résumé",
    "東京",
    "データ",
    "→",
    "✓",
    "—",
    "°C",
    "München",
    "Zürich",
    "São",
    "Paulo",
    "ok",
    "a",
    "of",
    "to",
    "with",
    "from",
    "data",
    "table",
    "row",
    "column",
    "value",
    "total",
    "average",
    "median",
    "C:\\tmp\\out.csv",
    "<b>",
    "&",
];

impl Text {
    fn new(seed: u64) -> Self {
        Text { state: seed | 1 }
    }

    /// xorshift64*: enough for varied text, and the same text on every run.
    fn next(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick(&mut self, n: usize) -> usize {
        // The modulus is small, so the cast and its bias do not matter here.
        (self.next() % n as u64) as usize
    }

    /// About `words` words, in sentences and paragraphs.
    fn words(&mut self, words: usize) -> String {
        let mut out = String::with_capacity(words * 7);
        for i in 0..words {
            if i > 0 {
                out.push_str(match self.pick(40) {
                    0 => ".\n\n",
                    1..=3 => ". ",
                    4 => ", ",
                    5 => "\n- ",
                    _ => " ",
                });
            }
            out.push_str(WORDS[self.pick(WORDS.len())]);
        }
        out.push('.');
        out
    }
}

const TASK_ID: &str = "194b6184-7cfa-4014-97ef-8c6cdea18165";
const CONTEXT_ID: &str = "505d4376-04d9-41df-872b-261107d7f3a9";
const REQUEST_ID: &str = "c0235f94-75c7-432b-93dc-1d4356da3d90";

fn timestamp(n: usize) -> String {
    format!(
        "2026-11-30T22:{:02}:{:02}.{:06}Z",
        (n / 60) % 60,
        n % 60,
        (n * 7919) % 1_000_000
    )
}

fn message(id: &str, role: &str, text: String) -> Value {
    json!({
        "messageId": id,
        "contextId": CONTEXT_ID,
        "taskId": TASK_ID,
        "role": role,
        "parts": [{"text": text}],
    })
}

/// A task with `turns` user/agent exchanges in its history and `artifacts` text artifacts.
fn task(text: &mut Text, turns: usize, words: usize, artifacts: usize) -> Value {
    let mut history = Vec::with_capacity(turns * 2);
    for turn in 0..turns {
        history.push(message(
            &format!("msg-user-{turn}"),
            "ROLE_USER",
            text.words(words / 3),
        ));
        history.push(message(
            &format!("msg-agent-{turn}"),
            "ROLE_AGENT",
            text.words(words),
        ));
    }
    let artifacts: Vec<Value> = (0..artifacts)
        .map(|n| {
            json!({
                "artifactId": format!("0b5d69d2-8624-4ffb-a026-{n:012}"),
                "name": format!("section-{n}"),
                "parts": [{"text": text.words(words)}, {"text": text.words(words / 2)}],
            })
        })
        .collect();
    json!({
        "id": TASK_ID,
        "contextId": CONTEXT_ID,
        "status": {
            "state": "TASK_STATE_WORKING",
            "timestamp": timestamp(1),
            "message": message("msg-status", "ROLE_AGENT", text.words(12)),
        },
        "artifacts": artifacts,
        "history": history,
        "metadata": {"source": "bench", "attempt": 1},
    })
}

fn reply(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": REQUEST_ID, "result": result})
}

fn error_body() -> String {
    json!({
        "jsonrpc": "2.0",
        "id": "r1",
        "error": {
            "code": -32001,
            "message": "Task not found",
            "data": [{
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org",
                "metadata": {"taskId": TASK_ID},
            }],
            "xTrace": "abc",
            "retryable": false,
        },
    })
    .to_string()
}

/// `STREAM_EVENTS` events: the task, then status updates and artifact chunks, then completion.
fn stream_body(text: &mut Text) -> String {
    let mut body = String::new();
    for n in 0..STREAM_EVENTS {
        let result = if n == 0 {
            json!({"task": {
                "id": TASK_ID,
                "contextId": CONTEXT_ID,
                "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": timestamp(n)},
                "history": [message("msg-stream-1", "ROLE_USER", text.words(30))],
            }})
        } else if n == STREAM_EVENTS - 1 || n % 3 == 0 {
            let (state, words) = if n == STREAM_EVENTS - 1 {
                ("TASK_STATE_COMPLETED", 8)
            } else {
                ("TASK_STATE_WORKING", 14)
            };
            json!({"statusUpdate": {
                "taskId": TASK_ID,
                "contextId": CONTEXT_ID,
                "status": {
                    "state": state,
                    "timestamp": timestamp(n),
                    "message": message(&format!("msg-status-{n}"), "ROLE_AGENT", text.words(words)),
                },
            }})
        } else {
            json!({"artifactUpdate": {
                "taskId": TASK_ID,
                "contextId": CONTEXT_ID,
                "artifact": {
                    "artifactId": "20a333de-a99f-41dd-9ed5-3b10332f4413",
                    "name": "report",
                    "parts": [{"text": text.words(40)}],
                },
                "append": n > 1,
                "lastChunk": n == STREAM_EVENTS - 2,
            }})
        };
        // Writing to a String cannot fail.
        let _ = write!(body, "data: {}\n\n", reply(result));
    }
    body
}

/// The bodies, built once.
struct Bodies {
    task_2kb: Vec<u8>,
    task_200kb: Vec<u8>,
    error: Vec<u8>,
    stream: String,
}

impl Bodies {
    fn build() -> Self {
        let mut text = Text::new(0x0A2A_2026);
        Bodies {
            task_2kb: reply(task(&mut text, 1, 60, 1)).to_string().into_bytes(),
            task_200kb: reply(task(&mut text, 84, 210, 12)).to_string().into_bytes(),
            error: error_body().into_bytes(),
            stream: stream_body(&mut text),
        }
    }

    /// The equality assertions: a2a-types and every baseline decode the same values.
    fn check(&self) {
        for (name, body) in [
            ("task_2kb", &self.task_2kb),
            ("task_200kb", &self.task_200kb),
        ] {
            let ours = decode_response::<Task>(body);
            assert!(ours.is_ok(), "{name}: a2a-types failed: {:?}", ours.err());
            let ours = ours.ok();
            assert!(
                ours == plain::<Task>(body).ok(),
                "{name}: a2a-types and plain serde_json differ"
            );
            assert!(
                ours == via_value::<Task>(body).ok(),
                "{name}: a2a-types and via Value differ"
            );
        }

        let ours = decode_response::<Task>(&self.error);
        let Err(CallError::Agent(ours)) = ours else {
            panic!("error_reply: expected the agent's error, got {ours:?}");
        };
        let baseline = serde_json::from_slice::<PlainErr>(&self.error).map(|plain| plain.error);
        assert!(
            baseline.as_ref().is_ok_and(|plain| {
                (plain.code, plain.message.as_str(), plain.data.as_ref())
                    == (ours.code(), ours.message(), ours.data())
            }),
            "error_reply: a2a-types and plain serde_json differ: {ours:?}"
        );

        let mut decoder = StreamDecoder::<StreamResponse>::new();
        let mut items = Vec::new();
        for chunk in self.stream.as_bytes().chunks(CHUNK) {
            items.extend(decoder.feed(chunk));
        }
        assert!(
            decoder.finish().is_ok(),
            "sse: the stream did not end cleanly"
        );
        let ours: Vec<StreamResponse> = items.into_iter().filter_map(Result::ok).collect();
        assert_eq!(
            ours.len(),
            STREAM_EVENTS,
            "sse: a2a-types decoded the wrong number of events"
        );
        let naive: Vec<StreamResponse> =
            naive_events(&self.stream).filter_map(Result::ok).collect();
        assert!(ours == naive, "sse: a2a-types and the naive reader differ");
        assert_eq!(ours_stream(self.stream.as_bytes()).0, STREAM_EVENTS);
        assert_eq!(naive_stream(&self.stream), STREAM_EVENTS);
    }
}

// ---------------------------------------------------------------------------------------------
// Benchmarks
// ---------------------------------------------------------------------------------------------

fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
    bytes: usize,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group
}

fn bench_task(c: &mut Criterion, name: &str, body: &[u8]) {
    let mut g = group(c, name, body.len());
    g.bench_function("a2a_types", |b| {
        b.iter(|| decode_response::<Task>(black_box(body)))
    });
    g.bench_function("plain_serde_json", |b| {
        b.iter(|| plain::<Task>(black_box(body)))
    });
    g.bench_function("via_value", |b| {
        b.iter(|| via_value::<Task>(black_box(body)))
    });
    g.finish();
}

fn bench_error(c: &mut Criterion, body: &[u8]) {
    let mut g = group(c, "error_reply", body.len());
    g.bench_function("a2a_types", |b| {
        b.iter(|| decode_response::<Task>(black_box(body)))
    });
    g.bench_function("plain_serde_json", |b| {
        b.iter(|| serde_json::from_slice::<PlainErr>(black_box(body)))
    });
    g.finish();
}

fn bench_stream(c: &mut Criterion, body: &str) {
    let mut g = group(c, "sse_1000_events", body.len());
    g.bench_function("a2a_types", |b| {
        b.iter(|| ours_stream(black_box(body.as_bytes())))
    });
    g.bench_function("naive_split", |b| b.iter(|| naive_stream(black_box(body))));
    g.finish();
}

// ---------------------------------------------------------------------------------------------
// The ratio table
// ---------------------------------------------------------------------------------------------

/// What criterion was asked to do, read from the arguments the way criterion reads them.
enum Mode {
    Benchmark,
    /// `--test`, or run by `cargo test --benches` (no `--bench`): each function once.
    Test,
    /// `--list` or `--profile-time`: no estimates, and `--list` output must stay clean.
    Other,
}

fn mode() -> Mode {
    let args: Vec<OsString> = env::args_os().skip(1).collect();
    let has = |flag: &str| args.iter().any(|arg| arg == flag);
    let has_prefix = |flag: &str| {
        args.iter()
            .any(|arg| arg.to_str().is_some_and(|arg| arg.starts_with(flag)))
    };
    if has("--list") {
        Mode::Other
    } else if has("--test") || !has("--bench") {
        Mode::Test
    } else if has_prefix("--profile-time") {
        Mode::Other
    } else {
        Mode::Benchmark
    }
}

/// Where criterion writes its results, by criterion's own rule (criterion 0.7,
/// `default_output_directory`): `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else the
/// target directory `cargo metadata` names, else `target/criterion`. Relative paths are relative
/// to the working directory, as they are for criterion (cargo runs benches in the package root).
fn criterion_home() -> PathBuf {
    if let Some(home) = env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    #[derive(Deserialize)]
    struct Metadata {
        target_directory: PathBuf,
    }
    env::var_os("CARGO")
        .and_then(|cargo| {
            Command::new(cargo)
                .args(["metadata", "--format-version", "1", "--no-deps"])
                .output()
                .ok()
        })
        .and_then(|output| serde_json::from_slice::<Metadata>(&output.stdout).ok())
        .map_or_else(
            || PathBuf::from("target/criterion"),
            |metadata| metadata.target_directory.join("criterion"),
        )
}

#[derive(Deserialize)]
struct Estimates {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

/// The median time (ns) criterion estimated for `group/function` in this run; `None` when the
/// function was not measured in this run (filtered out, or only an older file is there).
fn median_ns(home: &Path, group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = home
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let fresh = std::fs::metadata(&path)
        .and_then(|meta| meta.modified())
        .is_ok_and(|modified| modified >= since);
    if !fresh {
        return None;
    }
    let text = std::fs::read(&path).ok()?;
    let estimates: Estimates = serde_json::from_slice(&text).ok()?;
    Some(estimates.median.point_estimate).filter(|ns| ns.is_finite() && *ns > 0.0)
}

fn format_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// One case of the table: a group, its body size, and its baselines as (function, label).
struct Case<'a> {
    label: &'a str,
    group: &'a str,
    bytes: usize,
    baselines: &'a [(&'a str, &'a str)],
}

fn print_ratios(cases: &[Case<'_>], since: SystemTime) {
    let home = criterion_home();
    println!();
    println!(
        "ratios: throughput of a2a-types / throughput of the baseline (criterion medians, this run, {}):",
        home.display()
    );
    for case in cases {
        let head = format!("{} ({} B)", case.label, case.bytes);
        let Some(ours) = median_ns(&home, case.group, "a2a_types", since) else {
            println!("  {head:<28} not measured in this run");
            continue;
        };
        let mut ratios = Vec::new();
        let mut medians = vec![format!("a2a-types {}", format_ns(ours))];
        for (function, label) in case.baselines {
            match median_ns(&home, case.group, function, since) {
                // Same bytes per iteration, so the throughput ratio is the inverse time ratio.
                Some(theirs) => {
                    ratios.push(format!("{:.2}x {label}", theirs / ours));
                    medians.push(format!("{label} {}", format_ns(theirs)));
                }
                None => ratios.push(format!("{label} not measured")),
            }
        }
        println!(
            "  {head:<28} a2a-types {}   [medians: {}]",
            ratios.join(", "),
            medians.join(", ")
        );
    }
}

fn main() {
    let started = SystemTime::now();
    let mode = mode();
    let mut criterion = Criterion::default()
        .without_plots()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();

    let bodies = Bodies::build();
    bodies.check();

    bench_task(&mut criterion, "task_2kb", &bodies.task_2kb);
    bench_task(&mut criterion, "task_200kb", &bodies.task_200kb);
    bench_error(&mut criterion, &bodies.error);
    bench_stream(&mut criterion, &bodies.stream);
    criterion.final_summary();

    match mode {
        Mode::Other => {}
        Mode::Test => println!("ratios: not measured in --test mode"),
        Mode::Benchmark if env::var_os("CARGO_CRITERION_PORT").is_some() => {
            println!("ratios: not printed under cargo-criterion (it analyses after this process)")
        }
        Mode::Benchmark => {
            let task_baselines = [
                ("plain_serde_json", "plain serde_json"),
                ("via_value", "via Value"),
            ];
            print_ratios(
                &[
                    Case {
                        label: "task 2KB",
                        group: "task_2kb",
                        bytes: bodies.task_2kb.len(),
                        baselines: &task_baselines,
                    },
                    Case {
                        label: "task 200KB",
                        group: "task_200kb",
                        bytes: bodies.task_200kb.len(),
                        baselines: &task_baselines,
                    },
                    Case {
                        label: "error reply",
                        group: "error_reply",
                        bytes: bodies.error.len(),
                        baselines: &[("plain_serde_json", "plain serde_json")],
                    },
                    Case {
                        label: "SSE 1000 events",
                        group: "sse_1000_events",
                        bytes: bodies.stream.len(),
                        baselines: &[("naive_split", "naive split + serde_json")],
                    },
                ],
                started,
            );
        }
    }
}
