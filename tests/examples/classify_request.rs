//! Runs request bodies through the generated server-side decoder, exactly as an agent would, and
//! prints one JSON line per case; tests/differential-requests compares the lines with what the
//! official Python SDK's server does with the same bodies.
//!
//!     cargo run -q -p a2a-tests --example classify_request -- CASES.json [MORE.json ...]
//!
//! A case file is a JSON array of `{"name", "spec": "v1" | "v0_3" | "v1_1_draft", "body"}` (the
//! last is the A2A v1.1 draft, `a2a_types::v1_1_draft`); `body` is the request
//! as JSON, or a string holding the exact bytes to send. Each line is
//! `{"name", "outcome": "accepted" | "refused", "code", "reason"}`: `accepted` when
//! `decode_request` gives a typed request (`code` null, `reason` the method), `refused` with the
//! JSON-RPC code and message of the rejection otherwise (the message names the field for -32602).
//! Only an unreadable file or case stops the tool (exit 2).

use serde_json::{json, Map, Value};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: classify_request CASES.json [MORE.json ...]");
        return ExitCode::from(2);
    }
    a2a_tests::run_case_files("classify_request", &args, classify)
}

/// The case's line; `Err` for a case the tool cannot read.
fn classify(case: &Map<String, Value>) -> Result<Value, String> {
    let name = case
        .get("name")
        .and_then(Value::as_str)
        .ok_or("a case without a string `name`")?;
    let body = match case.get("body") {
        Some(Value::String(text)) => text.clone().into_bytes(),
        Some(value) => serde_json::to_vec(value).map_err(|e| format!("{name}: {e}"))?,
        None => return Err(format!("{name}: no `body`")),
    };
    let (outcome, code, reason) = match case.get("spec").and_then(Value::as_str) {
        Some("v1") => match a2a_types::v1::decode_request(&body) {
            Ok(incoming) => accepted(incoming.request.method().as_str()),
            Err(rejected) => refused(rejected.error.code(), rejected.error.message()),
        },
        Some("v0_3") => match a2a_types::v0_3::decode_request(&body) {
            Ok(incoming) => accepted(incoming.request.method().as_str()),
            Err(rejected) => refused(rejected.error.code(), rejected.error.message()),
        },
        Some("v1_1_draft") => match a2a_types::v1_1_draft::decode_request(&body) {
            Ok(incoming) => accepted(incoming.request.method().as_str()),
            Err(rejected) => refused(rejected.error.code(), rejected.error.message()),
        },
        other => {
            return Err(format!(
                "{name}: `spec` is {other:?}, not \"v1\", \"v0_3\" or \"v1_1_draft\""
            ))
        }
    };
    Ok(json!({"name": name, "outcome": outcome, "code": code, "reason": reason}))
}

fn accepted(method: &str) -> (&'static str, Value, String) {
    ("accepted", Value::Null, method.to_string())
}

fn refused(code: i64, message: &str) -> (&'static str, Value, String) {
    ("refused", code.into(), message.to_string())
}
