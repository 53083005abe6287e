//! Runs protobuf binary messages through the generated decoder (`a2a_types::v1`, feature
//! `protobuf`), exactly as a gRPC peer's bytes would be read, and prints one JSON line per case;
//! tests/differential-protobuf compares the lines with what the official Python SDK's protobuf
//! classes (`a2a.types.a2a_pb2`) make of the same bytes.
//!
//!     cargo run -q -p a2a-tests --example classify_protobuf -- CASES.jsonl
//!     cargo run -q -p a2a-tests --example classify_protobuf -- --types
//!
//! `CASES.jsonl` holds one case per line, `{"id": "...", "type": "Task", "b64": "..."}`: `type`
//! is the proto message's name (every message of `a2a_types::v1`, and `Empty` for
//! `google.protobuf.Empty`), `b64` the bytes in standard base64. A line with `"json"` (a
//! ProtoJSON value) instead of `b64` is encoded: read as the type and written as protobuf, its
//! output `{"id", "ok": true, "b64": ..., "json": ...}` (our bytes, and the value read) or
//! `{"id", "ok": false, "error": ...}` (the round trip of tests/differential-protobuf). Each
//! output line of a `b64` case is
//!
//! - `{"id", "ok": true, "json": ...}`: `Message::decode` gave a value; `json` is that value
//!   through `serde_json::to_value` (its ProtoJSON form);
//! - `{"id", "ok": false, "error": "..."}`: a `DecodeError`, as it displays;
//! - `{"id", "ok": false, "panic": "..."}`: the decoder panicked, which it must never do (the
//!   driver fails the case; the tool goes on with the next one).
//!
//! Only a case the tool cannot read (not JSON, no `id`, a `type` it does not have, bad base64)
//! or an unreadable file stops it, with exit status 2. `--types` prints the type names it
//! dispatches over, one per line.

use a2a_types::rt::protobuf::Message;
use a2a_types::v1 as m;
use base64::Engine as _;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

/// Decodes `bytes` as `T`: the members of the output line after `id`.
fn decode<T: Message + Serialize>(bytes: &[u8]) -> Map<String, Value> {
    let value = match T::decode(bytes) {
        Ok(value) => match serde_json::to_value(&value) {
            Ok(json) => json!({"ok": true, "json": json}),
            // Never expected (the types serialize to JSON whatever they hold); the driver fails
            // a line without `json`.
            Err(e) => json!({"ok": true, "serialize_error": e.to_string()}),
        },
        Err(e) => json!({"ok": false, "error": e.to_string()}),
    };
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Reads `json` (ProtoJSON) as `T` and encodes it: `{"ok": true, "b64", "json"}` (the bytes, and
/// the value read, as it serializes), or `{"ok": false, "error"}` when it does not read.
fn encode<T: Message + Serialize + serde::de::DeserializeOwned>(json: Value) -> Map<String, Value> {
    let value = match serde_json::from_value::<T>(json) {
        Ok(value) => {
            let b64 = base64::engine::general_purpose::STANDARD.encode(value.encode_to_vec());
            match serde_json::to_value(&value) {
                Ok(json) => json!({"ok": true, "b64": b64, "json": json}),
                Err(e) => json!({"ok": true, "b64": b64, "serialize_error": e.to_string()}),
            }
        }
        Err(e) => json!({"ok": false, "error": e.to_string()}),
    };
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The dispatch over the v1 message types: `classify(type, bytes)` (`None` for a name it does not
/// have) and `TYPES`, the names.
macro_rules! types {
    ($($name:ident),* $(,)?) => {
        fn classify(type_name: &str, bytes: &[u8]) -> Option<Map<String, Value>> {
            Some(match type_name {
                $(stringify!($name) => decode::<m::$name>(bytes),)*
                _ => return None,
            })
        }

        fn encode_json(type_name: &str, json: Value) -> Option<Map<String, Value>> {
            Some(match type_name {
                $(stringify!($name) => encode::<m::$name>(json),)*
                _ => return None,
            })
        }

        const TYPES: &[&str] = &[$(stringify!($name)),*];
    };
}

types! {
    // The requests and responses of the 11 methods.
    SendMessageRequest,
    SendMessageResponse,
    StreamResponse,
    GetTaskRequest,
    Task,
    ListTasksRequest,
    ListTasksResponse,
    CancelTaskRequest,
    SubscribeToTaskRequest,
    TaskPushNotificationConfig,
    GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse,
    DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest,
    AgentCard,
    Empty,
    // Every other message of the proto.
    SendMessageConfiguration,
    TaskStatus,
    Part,
    Message,
    Artifact,
    TaskStatusUpdateEvent,
    TaskArtifactUpdateEvent,
    AuthenticationInfo,
    AgentInterface,
    AgentProvider,
    AgentCapabilities,
    AgentExtension,
    AgentSkill,
    AgentCardSignature,
    StringList,
    SecurityRequirement,
    SecurityScheme,
    APIKeySecurityScheme,
    HTTPAuthSecurityScheme,
    OAuth2SecurityScheme,
    OpenIdConnectSecurityScheme,
    MutualTlsSecurityScheme,
    OAuthFlows,
    AuthorizationCodeOAuthFlow,
    ClientCredentialsOAuthFlow,
    ImplicitOAuthFlow,
    PasswordOAuthFlow,
    DeviceCodeOAuthFlow,
}

/// The output line of one input line; `Err` for a case the tool cannot read.
fn line(text: &str) -> Result<Value, String> {
    let case: Map<String, Value> =
        serde_json::from_str(text).map_err(|e| format!("a line that is not a JSON object: {e}"))?;
    let id = case
        .get("id")
        .and_then(Value::as_str)
        .ok_or("a case without a string `id`")?;
    let type_name = case
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{id}: no string `type`"))?;
    if !TYPES.contains(&type_name) {
        return Err(format!("{id}: no message type `{type_name}` here"));
    }
    let outcome = match case.get("json") {
        // The round trip's first half: JSON in, our bytes out.
        Some(json) => {
            let json = json.clone();
            catch_unwind(AssertUnwindSafe(|| encode_json(type_name, json)))
        }
        None => {
            let b64 = case
                .get("b64")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{id}: no string `b64` (or `json`)"))?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .map_err(|e| format!("{id}: `b64` is not valid base64: {e}"))?;
            catch_unwind(AssertUnwindSafe(|| classify(type_name, &bytes)))
        }
    };
    let mut out = Map::new();
    out.insert("id".into(), Value::String(id.into()));
    match outcome {
        Ok(Some(members)) => out.extend(members),
        Ok(None) => return Err(format!("{id}: no message type `{type_name}` here")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into());
            out.insert("ok".into(), Value::Bool(false));
            out.insert("panic".into(), Value::String(message));
        }
    }
    Ok(Value::Object(out))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let path = match args.as_slice() {
        [flag] if flag == "--types" => {
            let written = TYPES.iter().try_for_each(|t| writeln!(out, "{t}"));
            return match written.and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            };
        }
        [path] => path,
        _ => {
            eprintln!("usage: classify_protobuf CASES.jsonl | classify_protobuf --types");
            return ExitCode::from(2);
        }
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("classify_protobuf: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    for (i, text) in BufReader::new(file).lines().enumerate() {
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                eprintln!("classify_protobuf: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        let result = line(&text).map_err(|e| format!("{path}:{}: {e}", i + 1));
        let written = match result {
            Ok(value) => writeln!(out, "{value}").map_err(|e| format!("writing stdout: {e}")),
            Err(e) => Err(e),
        };
        if let Err(e) = written {
            eprintln!("classify_protobuf: {e}");
            return ExitCode::from(2);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("classify_protobuf: writing stdout: {e}");
            ExitCode::from(2)
        }
    }
}
