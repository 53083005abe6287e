//! Runs reply bodies through the generated envelope validator, exactly as a client would, and
//! prints one JSON line per case: the contract of `shared/envelope-cases/README.md`.
//!
//!     cargo run -q -p a2a-types --example classify -- CASES.json [MORE.json ...]
//!
//! Each case names the v1 method called, the reply body (a string, the chunks it arrived in, or
//! base64 bytes) and whether it was unary or streamed. The outcome is `ok`, `error` (the agent's
//! typed error: `code` and `variant`) or `malformed` (`reason`). A case that cannot be read is
//! `malformed` too; only an unknown method or an unreadable file stops the tool (exit 2).

use a2a_types::v1::{decode_response, CallError, MethodName, Reply, StreamDecoder, StreamResponse};
use base64::Engine as _;
use serde_json::{json, Map, Value};
use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: classify CASES.json [MORE.json ...]");
        return ExitCode::from(2);
    }
    for path in paths {
        let cases = match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                serde_json::from_slice::<Vec<Map<String, Value>>>(&bytes).map_err(|e| e.to_string())
            }) {
            Ok(cases) => cases,
            Err(e) => {
                eprintln!("classify: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        for case in &cases {
            match classify(case) {
                Ok(line) => println!("{line}"),
                Err(message) => {
                    eprintln!("classify: {message}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// The case's outcome line; `Err` only for an unknown method (an error of the tool).
fn classify(case: &Map<String, Value>) -> Result<Value, String> {
    let name = case.get("name").and_then(Value::as_str).unwrap_or("");
    let method_name = case.get("method").and_then(Value::as_str).unwrap_or("");
    let method = MethodName::from_name(method_name)
        .ok_or_else(|| format!("case `{name}`: unknown method `{method_name}`"))?;
    let mut line = Map::new();
    line.insert("name".into(), json!(name));
    let chunks = match body_chunks(case) {
        Ok(chunks) => chunks,
        Err(reason) => {
            set_malformed(&mut line, &reason);
            return Ok(Value::Object(line));
        }
    };
    let streamed = case.get("kind").and_then(Value::as_str) == Some("stream");
    let plain_json = case
        .get("content_type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("application/json"));
    if !streamed {
        match Reply::decode(method, &chunks.concat()) {
            Ok(reply) => {
                line.insert("outcome".into(), json!("ok"));
                line.insert("result".into(), json!(reply.type_name()));
            }
            Err(e) => set_failure(&mut line, &e),
        }
        return Ok(Value::Object(line));
    }
    let (events, failure) = if plain_json {
        match decode_response::<StreamResponse>(&chunks.concat()) {
            Ok(_) => (1, None),
            Err(e) => (0, Some(e)),
        }
    } else {
        decode_stream(&chunks)
    };
    match &failure {
        None => {
            line.insert("outcome".into(), json!("ok"));
        }
        Some(e) => set_failure(&mut line, e),
    }
    line.insert("events".into(), json!(events));
    Ok(Value::Object(line))
}

/// Feeds the chunks one by one; counts events decoded before the first failure.
fn decode_stream(chunks: &[Vec<u8>]) -> (usize, Option<CallError>) {
    let mut decoder = StreamDecoder::<StreamResponse>::new();
    let mut events = 0;
    for chunk in chunks {
        for item in decoder.feed(chunk) {
            match item {
                Ok(_) => events += 1,
                Err(e) => return (events, Some(e)),
            }
        }
    }
    (events, decoder.finish().err())
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

fn set_failure(line: &mut Map<String, Value>, e: &CallError) {
    match e {
        CallError::Agent(error) => {
            line.insert("outcome".into(), json!("error"));
            line.insert("code".into(), json!(error.code()));
            line.insert("variant".into(), json!(error.name()));
        }
        CallError::Malformed(reason) => set_malformed(line, reason.reason()),
        // Without a custom error type the variant cannot occur (`NoCustomErrors` has no values).
        CallError::Custom { error, .. } => match *error {},
    }
}

fn set_malformed(line: &mut Map<String, Value>, reason: &str) {
    line.insert("outcome".into(), json!("malformed"));
    line.insert("reason".into(), json!(reason));
}
