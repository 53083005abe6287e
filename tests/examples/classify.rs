//! Runs reply bodies through the generated envelope validator, exactly as a client would, and
//! prints one JSON line per case: the contract of `shared/envelope-cases/README.md`.
//!
//!     cargo run -q -p a2a-tests --example classify -- [--spec v1|v0_3|v1_1_draft] CASES.json [MORE.json ...]
//!
//! `--spec` picks the protocol version (default `v1`): the module whose decoders run and whose
//! method names the cases use (`GetTask`, or v0.3's `tasks/get`; `v1_1_draft`, the A2A v1.1
//! draft, has v1's names). Each case names the method called, the reply body (a string, the chunks it arrived in, or
//! base64 bytes) and whether it was unary or streamed. The outcome is `ok`, `error` (the agent's
//! typed error: `code` and `variant`) or `malformed` (`reason`). A case that cannot be read is
//! `malformed` too; only an unknown method or an unreadable file stops the tool (exit 2).

use base64::Engine as _;
use serde_json::{json, Map, Value};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut spec = Spec::V1;
    if args.first().is_some_and(|a| a == "--spec") {
        spec = match args.get(1).map(String::as_str) {
            Some("v1") => Spec::V1,
            Some("v0_3") => Spec::V0_3,
            Some("v1_1_draft") => Spec::V1_1Draft,
            other => {
                eprintln!("classify: --spec takes v1, v0_3 or v1_1_draft, not {other:?}");
                return ExitCode::from(2);
            }
        };
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: classify [--spec v1|v0_3|v1_1_draft] CASES.json [MORE.json ...]");
        return ExitCode::from(2);
    }
    a2a_tests::run_case_files("classify", &args, |case| classify(spec, case))
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
    /// The agent's typed error.
    Error { code: i64, variant: &'static str },
    /// A malformed reply, with the reason.
    Malformed(String),
}

/// The same decoding for each generated module: the modules have the same API, with their own
/// types (v1 streams `StreamResponse`, v0.3 streams `StreamEvent`).
macro_rules! decoders {
    ($module:ident, $event:ident) => {
        mod $module {
            use super::Outcome;
            use a2a_types::$module::{
                decode_response, $event, CallError, MethodName, Reply, StreamDecoder,
            };

            fn failure(e: CallError) -> Outcome {
                match e {
                    CallError::Agent(error) => Outcome::Error {
                        code: error.code(),
                        variant: error.name(),
                    },
                    CallError::Malformed(reason) => Outcome::Malformed(reason.reason().to_string()),
                    // Without a custom error type the variant cannot occur.
                    CallError::Custom { error, .. } => match error {},
                }
            }

            /// `None` for a method this module does not have.
            pub fn unary(method: &str, body: &[u8]) -> Option<Outcome> {
                let method = MethodName::from_name(method)?;
                Some(match Reply::decode(method, body) {
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
                    return match decode_response::<$event>(&chunks.concat()) {
                        Ok(_) => (1, None),
                        Err(e) => (0, Some(failure(e))),
                    };
                }
                let mut decoder = StreamDecoder::<$event>::new();
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
            set(&mut line, Outcome::Malformed(reason));
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
        Outcome::Error { code, variant } => {
            line.insert("outcome".into(), json!("error"));
            line.insert("code".into(), json!(code));
            line.insert("variant".into(), json!(variant));
        }
        Outcome::Malformed(reason) => {
            line.insert("outcome".into(), json!("malformed"));
            line.insert("reason".into(), json!(reason));
        }
    }
}
