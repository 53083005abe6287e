//! The decode bench's workload: the reply bodies it times and the decoders it times them with,
//! shared by the criterion bench (`tests/benches/decode.rs`), the instruction counts of
//! `bench/callgrind-decode.sh` (through `a2a-bench decode`) and the Python SDK comparison
//! (`bench/python/decode_bench.py` reads the bodies [`Bodies::write`] puts on disk).
//!
//! | case              | body                                   | a2a-types                        | baselines                                                            |
//! |-------------------|----------------------------------------|----------------------------------|----------------------------------------------------------------------|
//! | `task_2kb`        | a `Task` reply of about 2 KB           | `Decoder::decode::<Task>`        | [`plain`]: `from_slice` into `{result: Task}`; [`via_value`]          |
//! | `task_200kb`      | a `Task` reply of about 200 KB         | `Decoder::decode::<Task>`        | the same                                                             |
//! | `task_2kb_rest`   | the 2 KB reply's `Task`, bare (REST)   | [`ours_rest`]: `Decoder::decode_http::<Task>` over HTTP+JSON at 200 | [`plain_bare`]: `from_slice::<Task>`; [`via_value_bare`]  |
//! | `error_reply`     | an error object with extra members     | `Decoder::decode::<Task>`        | [`plain_error`]: `code`, `message`, `data` only                      |
//! | `sse_1000_events` | an SSE stream of 1000 JSON-RPC replies | [`ours_stream`], 4 KiB chunks    | [`naive_stream`]: split on `"\n\n"`, strip `"data: "`, `from_str` each |
//!
//! The bodies are built in code, deterministically (fixed seed), in the shapes of captured
//! traffic: camelCase ProtoJSON, multi-paragraph text with quotes, newlines and non-ASCII.

use a2a_types::rt::Binding;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use a2a_types::rt::client::HttpReply;
use a2a_types::v1::{CallError, Decoder, StreamResponse, Task};
use serde::Deserialize;
use serde_json::{json, Value};

/// The chunk size the stream is fed in, like a socket read.
pub const CHUNK: usize = 4096;
/// Events in the SSE stream.
pub const STREAM_EVENTS: usize = 1000;

/// The baseline for a successful reply: serde ignores `jsonrpc`, `id` and any other member.
#[derive(Deserialize)]
pub struct Plain<T> {
    /// The reply's `result`.
    pub result: T,
}

/// The baseline for an error reply: the three JSON-RPC members, everything else ignored.
#[derive(Deserialize)]
pub struct PlainErr {
    /// The reply's `error`.
    pub error: PlainErrorObject,
}

/// The three members of a JSON-RPC error object the error baseline reads.
#[derive(Deserialize)]
pub struct PlainErrorObject {
    /// `code`.
    pub code: i64,
    /// `message`.
    pub message: String,
    /// `data`, when present.
    pub data: Option<Value>,
}

/// The error baseline: `from_slice` into [`PlainErr`].
pub fn plain_error(body: &[u8]) -> Result<PlainErr, serde_json::Error> {
    serde_json::from_slice(body)
}

/// The success baseline: `from_slice` into [`Plain`], then its `result`.
pub fn plain<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    serde_json::from_slice::<Plain<T>>(body).map(|plain| plain.result)
}

/// What other Rust A2A clients do: the whole body as a `Value`, then `result` out of it.
pub fn via_value<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    let mut value: Value = serde_json::from_slice(body)?;
    let result = value.get_mut("result").map_or(Value::Null, Value::take);
    serde_json::from_value(result)
}

/// a2a-types on a REST reply: the bare `Task` at HTTP 200, through the binding's choke point
/// (status check, BOM and whitespace trim, size limit, the result's `Deserialize`).
pub fn ours_rest(body: &[u8]) -> Result<Task, CallError> {
    Decoder::new()
        .binding(Binding::HttpJson)
        .decode_http::<Task>(&HttpReply {
            status: 200,
            content_type: Some("application/json"),
            body,
        })
}

/// The REST success baseline: `from_slice` straight into the result type.
pub fn plain_bare<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    serde_json::from_slice(body)
}

/// What other Rust clients do with a REST body: a `Value` first, then `from_value`.
pub fn via_value_bare<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::from_slice::<Value>(body)?)
}

/// a2a-types on a whole stream: feed it in chunks, count the decoded events.
pub fn ours_stream(body: &[u8]) -> (usize, Result<(), CallError>) {
    let mut decoder = Decoder::new().stream::<StreamResponse>();
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
pub fn naive_events(
    body: &str,
) -> impl Iterator<Item = Result<StreamResponse, serde_json::Error>> + '_ {
    body.split("\n\n")
        .filter_map(|event| event.strip_prefix("data: "))
        .map(|data| serde_json::from_str::<Plain<StreamResponse>>(data).map(|plain| plain.result))
}

/// The stream baseline: [`naive_events`], counting the decoded events.
pub fn naive_stream(body: &str) -> usize {
    naive_events(body).filter(Result::is_ok).count()
}

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
pub struct Bodies {
    /// A `Task` reply of about 2 KB.
    pub task_2kb: Vec<u8>,
    /// A `Task` reply of about 200 KB.
    pub task_200kb: Vec<u8>,
    /// The `Task` of [`Bodies::task_2kb`], bare: a REST reply's body.
    pub task_2kb_rest: Vec<u8>,
    /// An error reply with extra members.
    pub error: Vec<u8>,
    /// An SSE stream of [`STREAM_EVENTS`] replies.
    pub stream: String,
}

impl Bodies {
    /// Builds the bodies (the same bytes on every run).
    pub fn build() -> Self {
        let mut text = Text::new(0x0A2A_2026);
        let small = task(&mut text, 1, 60, 1);
        Bodies {
            task_2kb_rest: small.to_string().into_bytes(),
            task_2kb: reply(small).to_string().into_bytes(),
            task_200kb: reply(task(&mut text, 84, 210, 12)).to_string().into_bytes(),
            error: error_body().into_bytes(),
            stream: stream_body(&mut text),
        }
    }

    /// The equality checks: a2a-types and every baseline decode the same values from each body,
    /// so that a bench cannot be comparing different work. The error names the case and what
    /// differs.
    pub fn check(&self) -> Result<(), String> {
        for (name, body) in [
            ("task_2kb", &self.task_2kb),
            ("task_200kb", &self.task_200kb),
        ] {
            let ours = Decoder::new()
                .decode::<Task>(body)
                .map_err(|e| format!("{name}: a2a-types failed: {e:?}"))?;
            if plain::<Task>(body).ok().as_ref() != Some(&ours) {
                return Err(format!("{name}: a2a-types and plain serde_json differ"));
            }
            if via_value::<Task>(body).ok().as_ref() != Some(&ours) {
                return Err(format!("{name}: a2a-types and via Value differ"));
            }
        }

        let rest = ours_rest(&self.task_2kb_rest)
            .map_err(|e| format!("task_2kb_rest: a2a-types failed: {e:?}"))?;
        if plain_bare::<Task>(&self.task_2kb_rest).ok().as_ref() != Some(&rest) {
            return Err("task_2kb_rest: a2a-types and plain serde_json differ".into());
        }
        if via_value_bare::<Task>(&self.task_2kb_rest).ok().as_ref() != Some(&rest) {
            return Err("task_2kb_rest: a2a-types and via Value differ".into());
        }
        if Decoder::new().decode::<Task>(&self.task_2kb).ok() != Some(rest) {
            return Err("task_2kb_rest: not the Task of task_2kb".into());
        }

        let ours = match Decoder::new().decode::<Task>(&self.error) {
            Err(CallError::Agent(ours)) => ours,
            other => {
                return Err(format!(
                    "error_reply: expected the agent's error, got {other:?}"
                ))
            }
        };
        let same = plain_error(&self.error).is_ok_and(|plain| {
            (
                plain.error.code,
                plain.error.message.as_str(),
                plain.error.data.as_ref(),
            ) == (ours.code(), ours.message(), ours.data())
        });
        if !same {
            return Err(format!(
                "error_reply: a2a-types and plain serde_json differ: {ours:?}"
            ));
        }

        let mut decoder = Decoder::new().stream::<StreamResponse>();
        let mut items = Vec::new();
        for chunk in self.stream.as_bytes().chunks(CHUNK) {
            items.extend(decoder.feed(chunk));
        }
        if decoder.finish().is_err() {
            return Err("sse: the stream did not end cleanly".into());
        }
        let ours: Vec<StreamResponse> = items.into_iter().filter_map(Result::ok).collect();
        if ours.len() != STREAM_EVENTS {
            return Err(format!(
                "sse: a2a-types decoded {} events, not {STREAM_EVENTS}",
                ours.len()
            ));
        }
        let naive: Vec<StreamResponse> =
            naive_events(&self.stream).filter_map(Result::ok).collect();
        if ours != naive {
            return Err("sse: a2a-types and the naive reader differ".into());
        }
        let counts = (
            ours_stream(self.stream.as_bytes()).0,
            naive_stream(&self.stream),
        );
        if counts != (STREAM_EVENTS, STREAM_EVENTS) {
            return Err(format!("sse: the timed functions count {counts:?} events"));
        }
        Ok(())
    }

    /// The criterion functions of each case: a2a-types first, then its baselines.
    pub const DECODERS: [(&'static str, &'static [&'static str]); 5] = [
        ("task_2kb", &["a2a_types", "plain_serde_json", "via_value"]),
        (
            "task_200kb",
            &["a2a_types", "plain_serde_json", "via_value"],
        ),
        ("error_reply", &["a2a_types", "plain_serde_json"]),
        ("sse_1000_events", &["a2a_types", "naive_split"]),
        (
            "task_2kb_rest",
            &["a2a_types", "plain_serde_json", "via_value"],
        ),
    ];

    /// Runs the decoder named `decoder` (as in [`Bodies::DECODERS`]) once on the body of `case`:
    /// `Some(true)` when it decoded what the case expects (a `Task`; the agent's error; every
    /// event), `None` for a pair that does not exist. For tools that time one decoder at a time
    /// (`a2a-bench decode`, under callgrind).
    pub fn run(&self, case: &str, decoder: &str) -> Option<bool> {
        let task_body = match case {
            "task_2kb" => Some(&self.task_2kb),
            "task_200kb" => Some(&self.task_200kb),
            _ => None,
        };
        Some(match (task_body, case, decoder) {
            (Some(body), _, "a2a_types") => Decoder::new().decode::<Task>(body).is_ok(),
            (Some(body), _, "plain_serde_json") => plain::<Task>(body).is_ok(),
            (Some(body), _, "via_value") => via_value::<Task>(body).is_ok(),
            (None, "error_reply", "a2a_types") => {
                matches!(
                    Decoder::new().decode::<Task>(&self.error),
                    Err(CallError::Agent(_))
                )
            }
            (None, "error_reply", "plain_serde_json") => plain_error(&self.error).is_ok(),
            (None, "sse_1000_events", "a2a_types") => {
                ours_stream(self.stream.as_bytes()) == (STREAM_EVENTS, Ok(()))
            }
            (None, "sse_1000_events", "naive_split") => naive_stream(&self.stream) == STREAM_EVENTS,
            (None, "task_2kb_rest", "a2a_types") => ours_rest(&self.task_2kb_rest).is_ok(),
            (None, "task_2kb_rest", "plain_serde_json") => {
                plain_bare::<Task>(&self.task_2kb_rest).is_ok()
            }
            (None, "task_2kb_rest", "via_value") => {
                via_value_bare::<Task>(&self.task_2kb_rest).is_ok()
            }
            _ => return None,
        })
    }

    /// The bodies as files, one per case, named as the bench's criterion groups:
    /// `(case, file name, bytes)`.
    pub fn files(&self) -> [(&'static str, &'static str, &[u8]); 5] {
        [
            ("task_2kb", "task_2kb.json", &self.task_2kb),
            ("task_200kb", "task_200kb.json", &self.task_200kb),
            ("error_reply", "error_reply.json", &self.error),
            (
                "sse_1000_events",
                "sse_1000_events.sse",
                self.stream.as_bytes(),
            ),
            ("task_2kb_rest", "task_2kb_rest.json", &self.task_2kb_rest),
        ]
    }

    /// Writes [`Bodies::files`] into `dir` (created if need be), for tools outside this process
    /// (`bench/python/decode_bench.py`). Returns the directory.
    pub fn write(&self, dir: &Path) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        for (_, name, bytes) in self.files() {
            std::fs::write(dir.join(name), bytes)?;
        }
        Ok(dir.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decoder_agrees_on_every_body() {
        assert_eq!(Bodies::build().check(), Ok(()));
    }

    #[test]
    fn the_bodies_are_the_same_on_every_build() {
        let (a, b) = (Bodies::build(), Bodies::build());
        assert_eq!(a.files(), b.files());
        assert!(
            (1800..2500).contains(&a.task_2kb.len()),
            "{}",
            a.task_2kb.len()
        );
        assert!(
            (180_000..230_000).contains(&a.task_200kb.len()),
            "{}",
            a.task_200kb.len()
        );
    }

    #[test]
    fn every_listed_decoder_runs_and_decodes_its_body() {
        let bodies = Bodies::build();
        for (case, decoders) in Bodies::DECODERS {
            for decoder in decoders {
                assert_eq!(bodies.run(case, decoder), Some(true), "{case}/{decoder}");
            }
        }
        assert_eq!(bodies.run("task_2kb", "naive_split"), None);
        assert_eq!(bodies.run("nothing", "a2a_types"), None);
    }

    #[test]
    fn a_changed_body_fails_the_check() {
        let mut bodies = Bodies::build();
        // A result of another shape: a2a-types and the baselines still agree it is no Task, so
        // the check must say a2a-types failed rather than pass.
        bodies.task_2kb = br#"{"jsonrpc":"2.0","id":1,"result":[1]}"#.to_vec();
        let err = bodies.check().unwrap_err();
        assert!(err.starts_with("task_2kb: a2a-types failed"), "{err}");
    }
}
