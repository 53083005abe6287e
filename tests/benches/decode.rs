//! How fast a2a-types decodes A2A replies, measured against plain serde_json in the same run.
//!
//! Every reply a client reads goes through [`a2a_types::v1::Decoder`] (unary calls) or
//! [`a2a_types::v1::StreamDecoder`] (streams). Both add a contract on top of serde_json: a typed
//! agent error, a lenient error object, one-line reasons for malformed bodies, SSE framing. This
//! bench says what that contract costs on the paths that matter, by timing each case against a
//! baseline that does the same decoding work with nothing but serde_json:
//!
//! | group             | body                                   | a2a-types                        | baseline                                                         |
//! |-------------------|----------------------------------------|----------------------------------|------------------------------------------------------------------|
//! | `task_2kb`        | a `Task` reply of about 2 KB           | `Decoder::decode::<Task>`        | `from_slice::<Plain<Task>>` (serde ignores `jsonrpc` and `id`)   |
//! | `task_200kb`      | a `Task` reply of about 200 KB         | `Decoder::decode::<Task>`        | the same                                                         |
//! | `error_reply`     | an error object with extra members     | `Decoder::decode::<Task>`        | `from_slice::<PlainErr>`: `code`, `message`, `data` only         |
//! | `sse_1000_events` | an SSE stream of 1000 JSON-RPC replies | `StreamDecoder`, 4 KiB chunks    | split on `"\n\n"`, strip `"data: "`, `from_str` each event       |
//! | `task_2kb_rest`   | the 2 KB `Task`, bare: a REST reply    | `Decoder::decode_http::<Task>` over HTTP+JSON at 200 | `from_slice::<Task>` (no envelope at all) |
//!
//! The baselines decode into the same result types, through the same generated `Deserialize`
//! impls, so a ratio near 1.0x means the envelope is free; they skip what the contract adds
//! (no BOM, error-beside-result or trailing-data rules, no typed error, no SSE field parsing), so
//! they are the floor, not a rival. The task groups also time a third variant, `via_value`: parse
//! the body into a `serde_json::Value`, then `from_value` its `result` — what other Rust A2A
//! crates do — for information. Before anything is timed, each case checks that a2a-types and its
//! baselines decode equal values, so the bench cannot be comparing different work.
//!
//! The bodies and the decoders live in [`a2a_tests::decode_workload`] (built in code,
//! deterministically, in the shapes of captured traffic), shared with the instruction counts of
//! `bench/callgrind-decode.sh`.
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
//! The official Python SDK on the same bodies (the JSON-RPC ones; its REST client is not timed):
//! after the ratios, a measuring run writes the bodies to `<target dir>/bench-bodies/` and, when
//! the a2a-sdk 1.3.0 virtualenv exists
//! (`$A2A_PY_BENCH` naming its `python`, else `$A2A_INTEROP_VENV` or `target/interop-venv`, which
//! `tests/interop/venv.sh` makes), runs `bench/python/decode_bench.py` on them and prints, per
//! body, how many times longer the SDK's public client takes than a2a-types did in this run
//! (`python a2a-sdk 1.3.0: N.NNx slower than a2a-types`). Without the venv it prints a skip line;
//! under `--test` it never runs Python.
//!
//! Run: `cargo bench -p a2a-tests --bench decode` (about two minutes, plus half a minute for
//! Python; `-- task_2kb` for one group).

use std::collections::BTreeMap;
use std::env;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, SystemTime};

use a2a_tests::bench::{self, format_ns, median_ns, Case};
use a2a_tests::decode_workload::{
    naive_stream, ours_rest, ours_stream, plain, plain_bare, plain_error, via_value,
    via_value_bare, Bodies,
};
use a2a_types::v1::{Decoder, Task};
use criterion::{BenchmarkGroup, Criterion, Throughput};
use serde::Deserialize;

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
        b.iter(|| Decoder::new().decode::<Task>(black_box(body)))
    });
    g.bench_function("plain_serde_json", |b| {
        b.iter(|| plain::<Task>(black_box(body)))
    });
    g.bench_function("via_value", |b| {
        b.iter(|| via_value::<Task>(black_box(body)))
    });
    g.finish();
}

fn bench_task_rest(c: &mut Criterion, body: &[u8]) {
    let mut g = group(c, "task_2kb_rest", body.len());
    g.bench_function("a2a_types", |b| b.iter(|| ours_rest(black_box(body))));
    g.bench_function("plain_serde_json", |b| {
        b.iter(|| plain_bare::<Task>(black_box(body)))
    });
    g.bench_function("via_value", |b| {
        b.iter(|| via_value_bare::<Task>(black_box(body)))
    });
    g.finish();
}

fn bench_error(c: &mut Criterion, body: &[u8]) {
    let mut g = group(c, "error_reply", body.len());
    g.bench_function("a2a_types", |b| {
        b.iter(|| Decoder::new().decode::<Task>(black_box(body)))
    });
    g.bench_function("plain_serde_json", |b| {
        b.iter(|| plain_error(black_box(body)))
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
// The official Python SDK on the same bodies
// ---------------------------------------------------------------------------------------------

const SDK: &str = "python a2a-sdk 1.3.0";

/// The Python of the a2a-sdk 1.3.0 venv, or where it was looked for.
fn venv_python() -> Result<PathBuf, String> {
    if let Some(python) = env::var_os("A2A_PY_BENCH") {
        let python = PathBuf::from(python);
        return match python.exists() {
            true => Ok(python),
            false => Err(format!("A2A_PY_BENCH={} does not exist", python.display())),
        };
    }
    let venv = env::var_os("A2A_INTEROP_VENV").map_or_else(
        || a2a_tests::workspace_root().join("target/interop-venv"),
        PathBuf::from,
    );
    let python = venv.join("bin/python");
    match python.exists() {
        true => Ok(python),
        false => Err(format!(
            "no venv at {} (make it with tests/interop/venv.sh, or set A2A_PY_BENCH to its python)",
            venv.display()
        )),
    }
}

/// One line of `decode_bench.py`'s output.
#[derive(Deserialize)]
struct PyLine {
    kind: String,
    #[serde(default)]
    case: String,
    #[serde(default)]
    measure: String,
    #[serde(default)]
    median_ns: f64,
    #[serde(default)]
    python: String,
    #[serde(default)]
    protobuf: String,
    #[serde(default)]
    protobuf_backend: String,
}

/// Runs the Python bench on the bodies of the cases measured in this run and prints its medians
/// next to ours. `Err` when the venv exists but the script failed or printed nothing usable.
fn python_comparison(
    bodies: &Bodies,
    cases: &[(&str, &str)],
    since: SystemTime,
) -> Result<(), String> {
    println!();
    let python = match venv_python() {
        Ok(python) => python,
        Err(why) => {
            println!("{SDK}: skipped: {why}");
            return Ok(());
        }
    };
    let home = bench::criterion_home();
    let ours: BTreeMap<&str, f64> = cases
        .iter()
        .filter_map(|(group, _)| Some((*group, median_ns(&home, group, "a2a_types", since)?)))
        .collect();
    if ours.is_empty() {
        println!("{SDK}: skipped: no case was measured in this run");
        return Ok(());
    }
    let dir = bodies
        .write(&bench::target_dir().join("bench-bodies"))
        .map_err(|e| format!("{SDK}: cannot write the bodies: {e}"))?;
    let script = a2a_tests::workspace_root().join("bench/python/decode_bench.py");
    let mut command = Command::new(&python);
    command.arg(&script).arg(&dir);
    for group in ours.keys() {
        command.args(["--case", group]);
    }
    println!(
        "{SDK}: timing the same bodies ({}) through the SDK's public client...",
        dir.display()
    );
    let output = command
        .output()
        .map_err(|e| format!("{SDK}: cannot run {}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{SDK}: {} {} failed ({}):\n{}",
            python.display(),
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    let lines: Vec<PyLine> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{SDK}: unreadable output of {}: {e}", script.display()))?;
    if let Some(meta) = lines.iter().find(|line| line.kind == "meta") {
        println!(
            "{SDK} (Python {}, protobuf {} {}): GetTask / SendStreamingMessage through its public \
             client over httpx.MockTransport; Python medians of single calls, a2a-types criterion \
             medians of this run:",
            meta.python, meta.protobuf, meta.protobuf_backend
        );
    }
    let python_ns = |case: &str, measure: &str| {
        lines
            .iter()
            .find(|line| line.kind == "timing" && line.case == case && line.measure == measure)
            .map(|line| line.median_ns)
            .filter(|ns| ns.is_finite() && *ns > 0.0)
    };
    for (group, label) in cases {
        let Some(&ours) = ours.get(group) else {
            continue;
        };
        let Some(client) = python_ns(group, "sdk_client") else {
            return Err(format!("{SDK}: no sdk_client timing for {group}"));
        };
        let ratio = client / ours;
        let verdict = if ratio >= 1.0 {
            format!("{ratio:.2}x slower than a2a-types")
        } else {
            format!("{:.2}x faster than a2a-types", 1.0 / ratio)
        };
        let mut context = vec![
            format!("sdk client {}", format_ns(client)),
            format!("a2a-types {}", format_ns(ours)),
        ];
        for (measure, what) in [
            ("sdk_parse", "sdk parse_lenient only"),
            ("json_loads", "json.loads"),
        ] {
            if let Some(ns) = python_ns(group, measure) {
                context.push(format!("{what} {} ({:.2}x)", format_ns(ns), ns / ours));
            }
        }
        println!("  {label:<28} {SDK}: {verdict}   [{}]", context.join(", "));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

fn main() {
    let started = SystemTime::now();
    let mode = bench::mode();
    let mut criterion = bench::criterion(50, Duration::from_secs(1), Duration::from_secs(3));

    let bodies = Bodies::build();
    if let Err(e) = bodies.check() {
        eprintln!("decode bench: {e}");
        std::process::exit(1);
    }

    bench_task(&mut criterion, "task_2kb", &bodies.task_2kb);
    bench_task(&mut criterion, "task_200kb", &bodies.task_200kb);
    bench_error(&mut criterion, &bodies.error);
    bench_stream(&mut criterion, &bodies.stream);
    bench_task_rest(&mut criterion, &bodies.task_2kb_rest);
    criterion.final_summary();

    if bench::ratios_wanted(mode, " (and Python not run)") {
        let labels = [
            (
                "task_2kb",
                format!("task 2KB ({} B)", bodies.task_2kb.len()),
            ),
            (
                "task_200kb",
                format!("task 200KB ({} B)", bodies.task_200kb.len()),
            ),
            (
                "error_reply",
                format!("error reply ({} B)", bodies.error.len()),
            ),
            (
                "sse_1000_events",
                format!("SSE 1000 events ({} B)", bodies.stream.len()),
            ),
            (
                "task_2kb_rest",
                format!("task 2KB REST ({} B)", bodies.task_2kb_rest.len()),
            ),
        ];
        let task_baselines = [
            ("plain_serde_json", "plain serde_json"),
            ("via_value", "via Value"),
        ];
        let baselines: [&[(&str, &str)]; 5] = [
            &task_baselines,
            &task_baselines,
            &[("plain_serde_json", "plain serde_json")],
            &[("naive_split", "naive split + serde_json")],
            &task_baselines,
        ];
        let cases: Vec<Case<'_>> = labels
            .iter()
            .zip(baselines)
            .map(|((group, label), baselines)| Case {
                label,
                group,
                ours: "a2a_types",
                baselines,
            })
            .collect();
        bench::print_ratios(
            "ratios: throughput of a2a-types / throughput of the baseline",
            "a2a-types",
            &cases,
            started,
        );
        // The Python script times the SDK's JSON-RPC client: the REST body is not among its cases.
        let labels: Vec<(&str, &str)> = labels
            .iter()
            .filter(|(group, _)| *group != "task_2kb_rest")
            .map(|(group, label)| (*group, label.as_str()))
            .collect();
        if let Err(e) = python_comparison(&bodies, &labels, started) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
