//! Runs reply bodies through the generated envelope validator, exactly as a client would, and
//! prints one JSON line per case: the contract of `shared/envelope-cases/README.md`, with the
//! additions `tests/examples/README.md` describes (the REST binding).
//!
//!     cargo run -q -p a2a-tests --example classify -- [--spec v1|v0_3|v1_1_draft] [--binding jsonrpc|rest] CASES.json [MORE.json ...]
//!
//! `--spec` picks the protocol version (default `v1`): the module whose decoders run and whose
//! method names the cases use (`GetTask`, or v0.3's `tasks/get`; `v1_1_draft`, the A2A v1.1
//! draft, has v1's names). Each case names the method called, the reply body (a string, the chunks it arrived in, or
//! base64 bytes) and whether it was unary or streamed. The outcome is `ok`, `error` (the agent's
//! typed error: `code` and `variant`) or `malformed` (`reason`). A case that cannot be read is
//! `malformed` too; only an unknown method or an unreadable file stops the tool (exit 2).
//!
//! `--binding rest` (v1 and the v1.1 draft) reads each body as an HTTP+JSON reply instead: the
//! case may carry the HTTP `status` (default 200) and `content_type`; the body is the bare result
//! at 2xx, a `google.rpc.Status` (or any other error body) otherwise, and a stream is SSE with
//! one bare result per event (`Decoder::decode_http`, `Decoder::stream` over HTTP+JSON). An `error` line also
//! carries `reason` (the ErrorInfo reason naming the error, or `null`) and `status`; a
//! `malformed` line carries `status` when the reply had one.

use base64::Engine as _;
use serde_json::{json, Map, Value};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut spec = Spec::V1;
    let mut binding = Binding::JsonRpc;
    while args
        .first()
        .is_some_and(|a| a == "--spec" || a == "--binding")
    {
        let value = args.get(1).map(String::as_str);
        if args[0] == "--spec" {
            spec = match value {
                Some("v1") => Spec::V1,
                Some("v0_3") => Spec::V0_3,
                Some("v1_1_draft") => Spec::V1_1Draft,
                other => {
                    eprintln!("classify: --spec takes v1, v0_3 or v1_1_draft, not {other:?}");
                    return ExitCode::from(2);
                }
            };
        } else {
            binding = match value {
                Some("jsonrpc") => Binding::JsonRpc,
                Some("rest") => Binding::Rest,
                other => {
                    eprintln!("classify: --binding takes jsonrpc or rest, not {other:?}");
                    return ExitCode::from(2);
                }
            };
        }
        args.drain(..2);
    }
    if matches!((spec, binding), (Spec::V0_3, Binding::Rest)) {
        eprintln!(
            "classify: --binding rest reads v1 and v1_1_draft replies; v0_3 has no REST module"
        );
        return ExitCode::from(2);
    }
    if args.is_empty() {
        eprintln!(
            "usage: classify [--spec v1|v0_3|v1_1_draft] [--binding jsonrpc|rest] CASES.json [MORE.json ...]"
        );
        return ExitCode::from(2);
    }
    a2a_tests::run_case_files("classify", &args, |case| match binding {
        Binding::JsonRpc => classify(spec, case),
        Binding::Rest => classify_rest(spec, case),
    })
}

/// How the replies travelled.
#[derive(Clone, Copy)]
enum Binding {
    JsonRpc,
    Rest,
}

/// Which generated module decodes the cases.
#[derive(Clone, Copy)]
enum Spec {
    V1,
    V0_3,
    V1_1Draft,
}

/// What a reply (or the first failing event of a stream) came to, whatever the module.
enum Outcome {
    /// A result of this type.
    Ok(&'static str),
    /// The agent's typed error; over REST, with the ErrorInfo reason and the HTTP status.
    Error {
        code: i64,
        variant: &'static str,
        rest: Option<(Option<String>, u16)>,
    },
    /// A malformed reply, with the reason (and the HTTP status a REST reply kept).
    Malformed(String, Option<u16>),
}

/// The same decoding for each generated module: the modules have the same API, with their own
/// types (v1 streams `StreamResponse`, v0.3 streams `StreamEvent`).
macro_rules! decoders {
    ($module:ident, $event:ident) => {
        mod $module {
            use super::Outcome;
            use a2a_types::$module::{$event, CallError, Decoder, MethodName, Reply};

            fn failure(e: CallError) -> Outcome {
                match e {
                    CallError::Agent(error) => Outcome::Error {
                        code: error.code(),
                        variant: error.name(),
                        rest: None,
                    },
                    CallError::Malformed(reason) => {
                        Outcome::Malformed(reason.reason().to_string(), None)
                    }
                    // Without a custom error type the variant cannot occur.
                    CallError::Custom { error, .. } => match error {},
                }
            }

            /// `None` for a method this module does not have.
            pub fn unary(method: &str, body: &[u8]) -> Option<Outcome> {
                let method = MethodName::from_name(method)?;
                Some(match Reply::decode(method, body, &Decoder::new()) {
                    Ok(reply) => Outcome::Ok(reply.type_name()),
                    Err(e) => failure(e),
                })
            }

            pub fn known(method: &str) -> bool {
                MethodName::from_name(method).is_some()
            }

            /// Events decoded before the first failure, and that failure.
            pub fn stream(chunks: &[Vec<u8>], plain_json: bool) -> (usize, Option<Outcome>) {
                if plain_json {
                    return match Decoder::new().decode::<$event>(&chunks.concat()) {
                        Ok(_) => (1, None),
                        Err(e) => (0, Some(failure(e))),
                    };
                }
                let mut decoder = Decoder::new().stream::<$event>();
                let mut events = 0;
                for chunk in chunks {
                    for item in decoder.feed(chunk) {
                        match item {
                            Ok(_) => events += 1,
                            Err(e) => return (events, Some(failure(e))),
                        }
                    }
                }
                (events, decoder.finish().err().map(failure))
            }
        }
    };
}

decoders!(v1, StreamResponse);
decoders!(v0_3, StreamEvent);
decoders!(v1_1_draft, StreamResponse);

/// `Decoder::new().binding(a2a_types::rt::Binding::HttpJson).decode_http::<<method::M as a2a_types::rt::Method>::Result>(reply)` for the method `name` names, its result dropped.
macro_rules! rest_by_method {
    ($name:expr, $reply:expr) => {
        rest_by_method!(@arms $name, $reply; SendMessage, SendStreamingMessage, GetTask, ListTasks,
            CancelTask, SubscribeToTask, CreateTaskPushNotificationConfig,
            GetTaskPushNotificationConfig, ListTaskPushNotificationConfigs, GetExtendedAgentCard,
            DeleteTaskPushNotificationConfig)
    };
    (@arms $name:expr, $reply:expr; $($m:ident),*) => {
        match $name {
            $(MethodName::$m => Decoder::new().binding(a2a_types::rt::Binding::HttpJson).decode_http::<<method::$m as a2a_types::rt::Method>::Result>($reply).map(drop),)*
        }
    };
}
use rest_by_method;

/// The REST binding's decoding, for the modules that have it (v1 and the v1.1 draft, which share
/// the method names).
macro_rules! rest_decoders {
    ($name:ident, $module:ident) => {
        mod $name {
            use super::Outcome;
            use a2a_types::rt::client::HttpReply;
            use a2a_types::rt::rest::rest_reason;
            use a2a_types::$module::{
                method, A2aError, CallError, Decoder, MethodName, StreamResponse,
            };

            /// The reason naming a typed error: its row's, or for the catch-all the first
            /// ErrorInfo the reply carried (`None` without one).
            fn reason(error: &A2aError) -> Option<String> {
                match error.row() {
                    Some(row) => rest_reason(row).map(str::to_owned),
                    None => error
                        .details()
                        .iter()
                        .find_map(|d| d.reason().map(str::to_owned)),
                }
            }

            fn failure(e: CallError, status: u16) -> Outcome {
                match e {
                    CallError::Agent(error) => Outcome::Error {
                        code: error.code(),
                        variant: error.name(),
                        rest: Some((reason(&error), status)),
                    },
                    CallError::Malformed(m) => {
                        Outcome::Malformed(m.reason().to_string(), m.http_status())
                    }
                    CallError::Custom { error, .. } => match error {},
                }
            }

            pub fn known(method: &str) -> bool {
                MethodName::from_name(method).is_some()
            }

            /// `None` for a method this module does not have.
            pub fn unary(method: &str, reply: &HttpReply<'_>) -> Option<Outcome> {
                let method = MethodName::from_name(method)?;
                let decoded = super::rest_by_method!(method, reply);
                Some(match decoded {
                    Ok(()) => Outcome::Ok(method.result_type()),
                    Err(e) => failure(e, reply.status),
                })
            }

            /// Events decoded before the first failure, and that failure. A reply that is not
            /// an SSE stream (an error status, or another content type at 2xx) is one plain
            /// body, as a client reads it.
            pub fn stream(
                chunks: &[Vec<u8>],
                status: u16,
                content_type: Option<&str>,
            ) -> (usize, Option<Outcome>) {
                let sse = content_type
                    .is_some_and(|t| t.to_ascii_lowercase().contains("text/event-stream"));
                if !(200..300).contains(&status) || !sse {
                    let body = chunks.concat();
                    let reply = HttpReply {
                        status,
                        content_type,
                        body: &body,
                    };
                    return match Decoder::new()
                        .binding(a2a_types::rt::Binding::HttpJson)
                        .decode_http::<StreamResponse>(&reply)
                    {
                        Ok(_) => (1, None),
                        Err(e) => (0, Some(failure(e, status))),
                    };
                }
                let mut decoder = Decoder::new()
                    .binding(a2a_types::rt::Binding::HttpJson)
                    .stream::<StreamResponse>();
                let mut events = 0;
                for chunk in chunks {
                    for item in decoder.feed(chunk) {
                        match item {
                            Ok(_) => events += 1,
                            Err(e) => return (events, Some(failure(e, status))),
                        }
                    }
                }
                (events, decoder.finish().err().map(|e| failure(e, status)))
            }
        }
    };
}

rest_decoders!(rest_v1, v1);
rest_decoders!(rest_v1_1_draft, v1_1_draft);

/// The case's outcome line; `Err` only for an unknown method (an error of the tool).
fn classify(spec: Spec, case: &Map<String, Value>) -> Result<Value, String> {
    let name = case.get("name").and_then(Value::as_str).unwrap_or("");
    let method = case.get("method").and_then(Value::as_str).unwrap_or("");
    let known = match spec {
        Spec::V1 => v1::known(method),
        Spec::V0_3 => v0_3::known(method),
        Spec::V1_1Draft => v1_1_draft::known(method),
    };
    if !known {
        return Err(format!("case `{name}`: unknown method `{method}`"));
    }
    let mut line = Map::new();
    line.insert("name".into(), json!(name));
    let chunks = match body_chunks(case) {
        Ok(chunks) => chunks,
        Err(reason) => {
            set(&mut line, Outcome::Malformed(reason, None));
            return Ok(Value::Object(line));
        }
    };
    let streamed = case.get("kind").and_then(Value::as_str) == Some("stream");
    let plain_json = case
        .get("content_type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("application/json"));
    if !streamed {
        let body = chunks.concat();
        let outcome = match spec {
            Spec::V1 => v1::unary(method, &body),
            Spec::V0_3 => v0_3::unary(method, &body),
            Spec::V1_1Draft => v1_1_draft::unary(method, &body),
        };
        // `known` above makes this `Some`.
        if let Some(outcome) = outcome {
            set(&mut line, outcome);
        }
        return Ok(Value::Object(line));
    }
    let (events, failure) = match spec {
        Spec::V1 => v1::stream(&chunks, plain_json),
        Spec::V0_3 => v0_3::stream(&chunks, plain_json),
        Spec::V1_1Draft => v1_1_draft::stream(&chunks, plain_json),
    };
    match failure {
        None => {
            line.insert("outcome".into(), json!("ok"));
        }
        Some(outcome) => set(&mut line, outcome),
    }
    line.insert("events".into(), json!(events));
    Ok(Value::Object(line))
}

/// The case's outcome line over the REST binding; `Err` only for an unknown method.
fn classify_rest(spec: Spec, case: &Map<String, Value>) -> Result<Value, String> {
    let name = case.get("name").and_then(Value::as_str).unwrap_or("");
    let method = case.get("method").and_then(Value::as_str).unwrap_or("");
    let known = match spec {
        Spec::V1_1Draft => rest_v1_1_draft::known(method),
        _ => rest_v1::known(method),
    };
    if !known {
        return Err(format!("case `{name}`: unknown method `{method}`"));
    }
    let mut line = Map::new();
    line.insert("name".into(), json!(name));
    let (chunks, status, content_type) = match rest_reply(case) {
        Ok(read) => read,
        Err(reason) => {
            set(&mut line, Outcome::Malformed(reason, None));
            return Ok(Value::Object(line));
        }
    };
    let streamed = case.get("kind").and_then(Value::as_str) == Some("stream");
    // Absent: what the binding sends; empty: no Content-Type header at all.
    let content_type = match content_type.as_deref() {
        None if streamed => Some("text/event-stream"),
        None => Some("application/json"),
        Some("") => None,
        Some(t) => Some(t),
    };
    if !streamed {
        let body = chunks.concat();
        let reply = a2a_types::rt::client::HttpReply {
            status,
            content_type,
            body: &body,
        };
        let outcome = match spec {
            Spec::V1_1Draft => rest_v1_1_draft::unary(method, &reply),
            _ => rest_v1::unary(method, &reply),
        };
        // `known` above makes this `Some`.
        if let Some(outcome) = outcome {
            set(&mut line, outcome);
        }
        return Ok(Value::Object(line));
    }
    let (events, failure) = match spec {
        Spec::V1_1Draft => rest_v1_1_draft::stream(&chunks, status, content_type),
        _ => rest_v1::stream(&chunks, status, content_type),
    };
    match failure {
        None => {
            line.insert("outcome".into(), json!("ok"));
        }
        Some(outcome) => set(&mut line, outcome),
    }
    line.insert("events".into(), json!(events));
    Ok(Value::Object(line))
}

/// A REST case's body chunks, HTTP status and `content_type` member.
type RestReply = (Vec<Vec<u8>>, u16, Option<String>);

/// A REST case's body chunks, HTTP status (default 200) and content type.
fn rest_reply(case: &Map<String, Value>) -> Result<RestReply, String> {
    let chunks = body_chunks(case)?;
    let status = match case.get("status") {
        None => 200,
        Some(v) => v
            .as_u64()
            .and_then(|s| u16::try_from(s).ok())
            .filter(|s| (100..=599).contains(s))
            .ok_or_else(|| format!("`status` is {v}, not an HTTP status (100 to 599)"))?,
    };
    let content_type = match case.get("content_type") {
        None => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(v) => return Err(format!("`content_type` is {v}, not a string")),
    };
    Ok((chunks, status, content_type))
}

fn body_chunks(case: &Map<String, Value>) -> Result<Vec<Vec<u8>>, String> {
    match (case.get("body"), case.get("body_b64")) {
        (Some(Value::String(s)), _) => Ok(vec![s.as_bytes().to_vec()]),
        (Some(Value::Array(parts)), _) => parts
            .iter()
            .map(|p| {
                p.as_str()
                    .map(|s| s.as_bytes().to_vec())
                    .ok_or_else(|| "a body chunk is not a string".to_string())
            })
            .collect(),
        (Some(_), _) => Err("`body` is neither a string nor a list of strings".into()),
        (None, Some(Value::String(b64))) => base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map(|bytes| vec![bytes])
            .map_err(|e| format!("`body_b64` is not valid base64: {e}")),
        (None, Some(_)) => Err("`body_b64` is not a string".into()),
        (None, None) => Err("the case has no `body` or `body_b64`".into()),
    }
}

fn set(line: &mut Map<String, Value>, outcome: Outcome) {
    match outcome {
        Outcome::Ok(result) => {
            line.insert("outcome".into(), json!("ok"));
            line.insert("result".into(), json!(result));
        }
        Outcome::Error {
            code,
            variant,
            rest,
        } => {
            line.insert("outcome".into(), json!("error"));
            line.insert("code".into(), json!(code));
            line.insert("variant".into(), json!(variant));
            if let Some((reason, status)) = rest {
                line.insert("reason".into(), json!(reason));
                line.insert("status".into(), json!(status));
            }
        }
        Outcome::Malformed(reason, status) => {
            line.insert("outcome".into(), json!("malformed"));
            line.insert("reason".into(), json!(reason));
            if let Some(status) = status {
                line.insert("status".into(), json!(status));
            }
        }
    }
}
