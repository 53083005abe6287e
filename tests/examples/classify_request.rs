//! Runs request bodies through the generated server-side decoder, exactly as an agent would, and
//! prints one JSON line per case; tests/differential-requests compares the lines with what the
//! official Python SDK's server does with the same bodies.
//!
//!     cargo run -q -p a2a-tests --example classify_request -- [--binding jsonrpc|rest] CASES.json [MORE.json ...]
//!
//! A case file is a JSON array of `{"name", "spec": "v1" | "v0_3" | "v1_1_draft", "body"}` (the
//! last is the A2A v1.1 draft, `a2a_types::v1_1_draft`); `body` is the request
//! as JSON, or a string holding the exact bytes to send. Each line is
//! `{"name", "outcome": "accepted" | "refused", "code", "reason"}`: `accepted` when
//! `decode_request` gives a typed request (`code` null, `reason` the method), `refused` with the
//! JSON-RPC code and message of the rejection otherwise (the message names the field for -32602).
//! Only an unreadable file or case stops the tool (exit 2).
//!
//! `--binding rest` (specs v1 and v1_1_draft) reads HTTP+JSON requests instead: a case is
//! `{"name", "spec", "verb", "path", "query", "body"}` (`query` without `?`, default empty;
//! `body` as above, absent for none) and goes through `decode_rest_request`. An `accepted` line
//! adds `params`, the typed request's params as JSON (the path's values, a tenant among them,
//! filled in); a `refused` line adds `status`, the HTTP status of the rejection (404 no route,
//! 405 wrong verb, 400 a query value or body that does not read), beside its error's code and
//! message. `tests/examples/README.md` has the whole contract.

use serde_json::{json, Map, Value};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rest = false;
    if args.first().is_some_and(|a| a == "--binding") {
        rest = match args.get(1).map(String::as_str) {
            Some("jsonrpc") => false,
            Some("rest") => true,
            other => {
                eprintln!("classify_request: --binding takes jsonrpc or rest, not {other:?}");
                return ExitCode::from(2);
            }
        };
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: classify_request [--binding jsonrpc|rest] CASES.json [MORE.json ...]");
        return ExitCode::from(2);
    }
    match rest {
        false => a2a_tests::run_case_files("classify_request", &args, classify),
        true => a2a_tests::run_case_files("classify_request", &args, classify_rest),
    }
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

/// The case's line over the REST binding; `Err` for a case the tool cannot read.
fn classify_rest(case: &Map<String, Value>) -> Result<Value, String> {
    let name = case
        .get("name")
        .and_then(Value::as_str)
        .ok_or("a case without a string `name`")?;
    let text = |key: &str, default: Option<&str>| -> Result<String, String> {
        match (case.get(key), default) {
            (Some(Value::String(s)), _) => Ok(s.clone()),
            (None, Some(default)) => Ok(default.to_owned()),
            (None, None) => Err(format!("{name}: no `{key}`")),
            (Some(other), _) => Err(format!("{name}: `{key}` is {other}, not a string")),
        }
    };
    let (verb, path, query) = (
        text("verb", None)?,
        text("path", None)?,
        text("query", Some(""))?,
    );
    let body = match case.get("body") {
        None => Vec::new(),
        Some(Value::String(text)) => text.clone().into_bytes(),
        Some(value) => serde_json::to_vec(value).map_err(|e| format!("{name}: {e}"))?,
    };
    macro_rules! decode {
        ($module:ident) => {
            match a2a_types::$module::decode_rest_request(&verb, &path, &query, &body) {
                Ok(request) => json!({
                    "name": name, "outcome": "accepted", "code": null,
                    "reason": request.method().as_str(), "params": request,
                }),
                Err(rejected) => json!({
                    "name": name, "outcome": "refused", "code": rejected.error.code(),
                    "reason": rejected.error.message(), "status": rejected.status,
                }),
            }
        };
    }
    match case.get("spec").and_then(Value::as_str) {
        Some("v1") => Ok(decode!(v1)),
        Some("v1_1_draft") => Ok(decode!(v1_1_draft)),
        other => Err(format!(
            "{name}: `spec` is {other:?}; the REST binding reads \"v1\" or \"v1_1_draft\""
        )),
    }
}
