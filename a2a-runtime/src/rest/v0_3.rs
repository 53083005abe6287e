//! A2A 0.3's HTTP+JSON binding (`/v1/message:send`, `/v1/tasks/{id}`, ...), served by
//! translation onto the 0.3 module's JSON-RPC methods: a request is read into that method's
//! params (0.3 JSON), run as the same call as over JSON-RPC, and its result written back in the
//! shape 0.3's REST clients read, the ProtoJSON of 0.3's proto messages (`content` for a message's
//! parts, `ROLE_USER`, `TASK_STATE_WORKING`, a part as `{"text"}` or `{"file": {"fileWithUri"}}`,
//! a result wrapped as `{"task": ...}` or `{"statusUpdate": ...}`, no `kind`).
//!
//! Hand-written: none of the generator's inputs describes this binding (0.3's proto, whose
//! `google.api.http` options and messages it would come from, is not among them, and the 0.3
//! JSON Schema has the JSON-RPC shapes only). What is here was taken from the 0.3 binding as
//! a2a-sdk 0.3.26's REST client speaks it (its `RestTransport`), and is checked against that
//! client in `tests/interop` (phase 11; phase 12 is a2a-sdk 1.3.0's 0.3 REST client). Readers
//! are tolerant as ProtoJSON parsers are (each member under its JSON name or its proto field
//! name); writers write only members 0.3's proto has, because its parser refuses any other.
//!
//! Errors are answered as on 1.0's HTTP+JSON binding (the error's HTTP status and a
//! `google.rpc.Status` body, `{"error": {...}}`), which is how a2a-sdk 1.3.0 answers its 0.3 REST
//! clients, with two members more beside `error` ([`error_body`]): `type`, the error's name in
//! the spec (`TaskNotFoundError`), and `message`, which is what a2a-sdk 1.3.0's 0.3 REST client
//! reads to raise the typed error (a2a-sdk 0.3.26's reads the HTTP status alone).

use serde_json::{json, Map, Value};

/// A 0.3 REST request as the JSON-RPC call it stands for.
#[derive(Debug)]
pub(crate) struct LegacyCall {
    /// The 0.3 JSON-RPC method (`message/send`).
    pub(crate) method: &'static str,
    /// Its params, in 0.3's JSON-RPC shape.
    pub(crate) params: Value,
}

/// Why a 0.3 REST request is no call: the JSON-RPC error code and message it is answered with,
/// or (`no_route`) a path 0.3 has not got, answered as 1.0's binding answers one: 404, or 405
/// when the path is 0.3's under another verb (`Some(true)`).
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) code: i64,
    pub(crate) message: String,
    pub(crate) no_route: Option<bool>,
}

fn refused(code: i64, message: impl Into<String>) -> Refused {
    Refused {
        code,
        message: message.into(),
        no_route: None,
    }
}

/// The call a request (`verb`, the path under the binding's base, the query, the body) stands
/// for: 404 (`MethodNotFound`) for a path 0.3 has not got, `JSONParseError` for a body that is
/// not a JSON object.
pub(crate) fn route(
    verb: &str,
    path: &str,
    query: &str,
    body: &[u8],
) -> Result<LegacyCall, Refused> {
    let at = |template: &str| crate::rest::match_path(template, path);
    let var = |vars: &[(String, String)], name: &str| {
        vars.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| Value::String(v.clone()))
            .unwrap_or(Value::Null)
    };
    let call = |method, params| Ok(LegacyCall { method, params });
    match verb {
        "POST" if path == "/v1/message:send" => call("message/send", send_params(object(body)?)),
        "POST" if path == "/v1/message:stream" => {
            call("message/stream", send_params(object(body)?))
        }
        "GET" if path == "/v1/card" => call("agent/getAuthenticatedExtendedCard", Value::Null),
        _ => {
            if let Some(vars) = at("/v1/tasks/{id}:cancel").filter(|_| verb == "POST") {
                return call("tasks/cancel", json!({"id": var(&vars, "id")}));
            }
            if let Some(vars) = at("/v1/tasks/{id}:subscribe").filter(|_| verb != "DELETE") {
                return call("tasks/resubscribe", json!({"id": var(&vars, "id")}));
            }
            if let Some(vars) = at("/v1/tasks/{id}").filter(|_| verb == "GET") {
                let mut params = json!({"id": var(&vars, "id")});
                if let Some(n) = query_value(query, &["historyLength", "history_length"]) {
                    // A number, as the JSON-RPC params have it; anything else is left for the
                    // params' decoder to refuse.
                    params["historyLength"] = n
                        .parse::<i64>()
                        .map(Value::from)
                        .unwrap_or(Value::String(n));
                }
                return call("tasks/get", params);
            }
            if let Some(vars) = at("/v1/tasks/{id}/pushNotificationConfigs") {
                let id = var(&vars, "id");
                return match verb {
                    "POST" => call(
                        "tasks/pushNotificationConfig/set",
                        set_config_params(id, object(body)?),
                    ),
                    "GET" => call("tasks/pushNotificationConfig/list", json!({"id": id})),
                    _ => Err(not_here(verb, path, true)),
                };
            }
            if let Some(vars) = at("/v1/tasks/{id}/pushNotificationConfigs/{config}") {
                let params = json!({
                    "id": var(&vars, "id"),
                    "pushNotificationConfigId": var(&vars, "config"),
                });
                return match verb {
                    "GET" => call("tasks/pushNotificationConfig/get", params),
                    "DELETE" => call("tasks/pushNotificationConfig/delete", params),
                    _ => Err(not_here(verb, path, true)),
                };
            }
            // A path of 0.3's under a verb it does not take: `/v1/message:send`, `/v1/card`,
            // `/v1/tasks/{id}` and `:cancel` (the push-config paths answer above).
            let known = matches!(path, "/v1/message:send" | "/v1/message:stream" | "/v1/card")
                || at("/v1/tasks/{id}").is_some()
                || at("/v1/tasks/{id}:cancel").is_some();
            Err(not_here(verb, path, known))
        }
    }
}

/// `verb` at `path`, which 0.3 has not got; `known` when 0.3 has the path under another verb.
fn not_here(verb: &str, path: &str, known: bool) -> Refused {
    Refused {
        no_route: Some(known),
        ..refused(
            crate::jsonrpc::codes::METHOD_NOT_FOUND,
            format!("A2A 0.3's HTTP+JSON binding has no {verb} {path}"),
        )
    }
}

/// The body as a JSON object (an empty body is `{}`).
fn object(body: &[u8]) -> Result<Map<String, Value>, Refused> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(refused(
            crate::jsonrpc::codes::INVALID_REQUEST,
            "the request body is not a JSON object",
        )),
        Err(e) => Err(refused(
            crate::jsonrpc::codes::PARSE_ERROR,
            format!("the request body is not JSON: {e}"),
        )),
    }
}

fn query_value(query: &str, names: &[&str]) -> Option<String> {
    crate::rest::parse_query(query)
        .into_iter()
        .find(|(k, _)| names.contains(&k.as_str()))
        .map(|(_, v)| v)
}

/// An error reply's body (a `google.rpc.Status` as `{"error": {...}}`) with `type` (`spec_name`,
/// for an error of the table) and `message` beside `error`. A body that is not a JSON object is
/// left as it is.
pub(crate) fn error_body(body: Vec<u8>, spec_name: Option<&str>, message: &str) -> Vec<u8> {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(&body) else {
        return body;
    };
    if let Some(name) = spec_name {
        map.insert("type".into(), name.into());
    }
    map.insert("message".into(), message.into());
    serde_json::to_vec(&map).unwrap_or(body)
}

// ---- reading: 0.3 ProtoJSON -> 0.3 JSON-RPC params ----
//
// Members are moved out of the request, not cloned: a message's parts (a file's bytes) are
// the bulk of a request.

/// The member under its JSON name or its proto field name (ProtoJSON parsers take both), taken.
fn take(m: &mut Map<String, Value>, json: &str, proto: &str) -> Option<Value> {
    let v = m.remove(json).filter(|v| !v.is_null());
    v.or_else(|| m.remove(proto)).filter(|v| !v.is_null())
}

/// Moves members present in `from` to `to`, under their JSON names.
fn carry(to: &mut Map<String, Value>, from: &mut Map<String, Value>, names: &[(&str, &str)]) {
    for (json, proto) in names {
        if let Some(v) = take(from, json, proto) {
            to.insert((*json).to_owned(), v);
        }
    }
}

/// `SendMessageRequest` (`message`, `configuration`, `metadata`) -> `MessageSendParams`.
fn send_params(mut body: Map<String, Value>) -> Value {
    let mut out = Map::new();
    if let Some(Value::Object(m)) = take(&mut body, "message", "request") {
        out.insert("message".into(), message_in(m));
    }
    if let Some(Value::Object(mut c)) = take(&mut body, "configuration", "configuration") {
        let mut config = Map::new();
        carry(
            &mut config,
            &mut c,
            &[
                ("acceptedOutputModes", "accepted_output_modes"),
                ("historyLength", "history_length"),
                ("blocking", "blocking"),
            ],
        );
        if let Some(Value::Object(p)) = take(&mut c, "pushNotification", "push_notification") {
            config.insert("pushNotificationConfig".into(), push_config_in(p));
        }
        out.insert("configuration".into(), Value::Object(config));
    }
    carry(&mut out, &mut body, &[("metadata", "metadata")]);
    Value::Object(out)
}

/// `kind`, and the members `names` of `from` under their JSON names: the start of a 0.3 object.
fn tagged(kind: &str, from: &mut Map<String, Value>, names: &[(&str, &str)]) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("kind".into(), kind.into());
    carry(&mut out, from, names);
    out
}

fn message_in(mut m: Map<String, Value>) -> Value {
    let mut out = tagged(
        "message",
        &mut m,
        &[
            ("messageId", "message_id"),
            ("contextId", "context_id"),
            ("taskId", "task_id"),
            ("metadata", "metadata"),
            ("extensions", "extensions"),
        ],
    );
    // As a2a-sdk 0.3 reads it: ROLE_AGENT is the agent, anything else the user.
    let agent = matches!(m.get("role"), Some(Value::String(r)) if r == "ROLE_AGENT")
        || m.get("role").and_then(Value::as_i64) == Some(2);
    out.insert("role".into(), if agent { "agent" } else { "user" }.into());
    parts_in(&mut out, &mut m, "content");
    Value::Object(out)
}

/// The parts under `name` in `from`, read, as the `parts` of `out` (none: an empty list).
fn parts_in(out: &mut Map<String, Value>, from: &mut Map<String, Value>, name: &str) {
    let parts = match take(from, name, name) {
        Some(Value::Array(parts)) => parts.into_iter().map(part_in).collect(),
        _ => Vec::new(),
    };
    out.insert("parts".into(), Value::Array(parts));
}

fn part_in(part: Value) -> Value {
    let Value::Object(mut p) = part else {
        return part;
    };
    let mut out = Map::new();
    if let Some(text) = take(&mut p, "text", "text") {
        out.insert("kind".into(), "text".into());
        out.insert("text".into(), text);
    } else if let Some(Value::Object(mut f)) = take(&mut p, "file", "file") {
        let mut file = Map::new();
        carry(
            &mut file,
            &mut f,
            &[("mimeType", "mime_type"), ("name", "name")],
        );
        if let Some(uri) = take(&mut f, "fileWithUri", "file_with_uri") {
            file.insert("uri".into(), uri);
        }
        if let Some(bytes) = take(&mut f, "fileWithBytes", "file_with_bytes") {
            file.insert("bytes".into(), bytes);
        }
        out.insert("kind".into(), "file".into());
        out.insert("file".into(), Value::Object(file));
    } else if let Some(Value::Object(mut d)) = take(&mut p, "data", "data") {
        out.insert("kind".into(), "data".into());
        out.insert("data".into(), d.remove("data").unwrap_or_else(|| json!({})));
    } else {
        // A part 0.3's proto has no member for: left to the params' decoder (an unknown part).
        return Value::Object(p);
    }
    carry(&mut out, &mut p, &[("metadata", "metadata")]);
    Value::Object(out)
}

fn push_config_in(mut p: Map<String, Value>) -> Value {
    let mut out = Map::new();
    carry(
        &mut out,
        &mut p,
        &[("id", "id"), ("url", "url"), ("token", "token")],
    );
    if let Some(Value::Object(mut a)) = take(&mut p, "authentication", "authentication") {
        let mut auth = Map::new();
        carry(
            &mut auth,
            &mut a,
            &[("schemes", "schemes"), ("credentials", "credentials")],
        );
        out.insert("authentication".into(), Value::Object(auth));
    }
    Value::Object(out)
}

/// `CreateTaskPushNotificationConfigRequest` (`parent`, `configId`, `config`) for task `id` ->
/// `TaskPushNotificationConfig`; a non-empty `configId` names the config.
fn set_config_params(id: Value, mut body: Map<String, Value>) -> Value {
    let mut config = match take(&mut body, "config", "config") {
        Some(Value::Object(mut c)) => {
            match take(&mut c, "pushNotificationConfig", "push_notification_config") {
                Some(Value::Object(p)) => push_config_in(p),
                _ => json!({}),
            }
        }
        _ => json!({}),
    };
    if let Some(Value::String(config_id)) = take(&mut body, "configId", "config_id") {
        if !config_id.is_empty() {
            config["id"] = Value::String(config_id);
        }
    }
    json!({"taskId": id, "pushNotificationConfig": config})
}

// ---- writing: 0.3 JSON-RPC results -> 0.3 ProtoJSON ----
//
// As above, members are moved from the result into the reply.

/// A method's result (0.3 JSON, as the JSON-RPC binding writes it) in the REST binding's shape.
pub(crate) fn result(method: &str, value: Value) -> Value {
    match method {
        "message/send" => match kind(&value) {
            Some("message") => json!({"message": message_out(value)}),
            _ => json!({"task": task_out(value)}),
        },
        "tasks/get" | "tasks/cancel" => task_out(value),
        "tasks/pushNotificationConfig/set" | "tasks/pushNotificationConfig/get" => {
            task_push_config_out(value)
        }
        "tasks/pushNotificationConfig/list" => {
            let configs: Vec<Value> = match value {
                Value::Array(list) => list.into_iter().map(task_push_config_out).collect(),
                _ => Vec::new(),
            };
            json!({"configs": configs})
        }
        "tasks/pushNotificationConfig/delete" => json!({}),
        // The card stays in 0.3's JSON shape: 0.3's REST client reads it with its JSON model
        // (a2a-sdk 0.3.26's `AgentCard.model_validate`), as a2a-sdk 1.3.0 writes it.
        _ => value,
    }
}

/// A streaming method's event (a Task, Message, or status or artifact update) as a
/// `StreamResponse`.
pub(crate) fn event(value: Value) -> Value {
    match kind(&value) {
        Some("message") => json!({"message": message_out(value)}),
        Some("status-update") => {
            let mut value = object_of(value);
            let status = value.remove("status");
            let mut out = pick(&mut value, &["taskId", "contextId", "final", "metadata"]);
            if let Some(status) = status.filter(|s| !s.is_null()) {
                out.insert("status".into(), status_out(status));
            }
            json!({"statusUpdate": out})
        }
        Some("artifact-update") => {
            let mut value = object_of(value);
            let artifact = value.remove("artifact");
            let names = ["taskId", "contextId", "append", "lastChunk", "metadata"];
            let mut out = pick(&mut value, &names);
            if let Some(artifact) = artifact.filter(|a| !a.is_null()) {
                out.insert("artifact".into(), artifact_out(artifact));
            }
            json!({"artifactUpdate": out})
        }
        _ => json!({"task": task_out(value)}),
    }
}

fn kind(value: &Value) -> Option<&str> {
    value.get("kind").and_then(Value::as_str)
}

/// The object's members (none for any other value).
fn object_of(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The members of `from` named, those present and not null, taken.
fn pick(from: &mut Map<String, Value>, names: &[&str]) -> Map<String, Value> {
    names
        .iter()
        .filter_map(|n| {
            let v = from.remove(*n).filter(|v| !v.is_null())?;
            Some(((*n).to_owned(), v))
        })
        .collect()
}

/// Each item of the array member `name` of `from`, mapped, when there is one.
fn list_out(
    out: &mut Map<String, Value>,
    from: &mut Map<String, Value>,
    name: &str,
    f: fn(Value) -> Value,
) {
    if let Some(Value::Array(items)) = from.remove(name) {
        out.insert(
            name.into(),
            Value::Array(items.into_iter().map(f).collect()),
        );
    }
}

fn task_out(task: Value) -> Value {
    let mut task = object_of(task);
    let mut out = pick(&mut task, &["id", "contextId", "metadata"]);
    if let Some(status) = task.remove("status").filter(|s| !s.is_null()) {
        out.insert("status".into(), status_out(status));
    }
    list_out(&mut out, &mut task, "artifacts", artifact_out);
    list_out(&mut out, &mut task, "history", message_out);
    Value::Object(out)
}

fn status_out(status: Value) -> Value {
    let mut status = object_of(status);
    let mut out = pick(&mut status, &["timestamp"]);
    let state = match status.get("state").and_then(Value::as_str) {
        Some("submitted") => "TASK_STATE_SUBMITTED",
        Some("working") => "TASK_STATE_WORKING",
        Some("input-required") => "TASK_STATE_INPUT_REQUIRED",
        Some("completed") => "TASK_STATE_COMPLETED",
        Some("canceled") => "TASK_STATE_CANCELLED",
        Some("failed") => "TASK_STATE_FAILED",
        Some("rejected") => "TASK_STATE_REJECTED",
        Some("auth-required") => "TASK_STATE_AUTH_REQUIRED",
        _ => "TASK_STATE_UNSPECIFIED",
    };
    out.insert("state".into(), state.into());
    if let Some(message) = status.remove("message").filter(|m| !m.is_null()) {
        out.insert("message".into(), message_out(message));
    }
    Value::Object(out)
}

/// A message; its `referenceTaskIds` has no member in 0.3's proto and is not written.
fn message_out(message: Value) -> Value {
    let mut message = object_of(message);
    let names = ["messageId", "contextId", "taskId", "metadata", "extensions"];
    let mut out = pick(&mut message, &names);
    let role = match message.get("role").and_then(Value::as_str) {
        Some("agent") => "ROLE_AGENT",
        Some("user") => "ROLE_USER",
        _ => "ROLE_UNSPECIFIED",
    };
    out.insert("role".into(), role.into());
    if let Some(Value::Array(parts)) = message.remove("parts") {
        let parts = parts.into_iter().map(part_out).collect();
        out.insert("content".into(), Value::Array(parts));
    }
    Value::Object(out)
}

fn artifact_out(artifact: Value) -> Value {
    let mut artifact = object_of(artifact);
    let names = [
        "artifactId",
        "name",
        "description",
        "metadata",
        "extensions",
    ];
    let mut out = pick(&mut artifact, &names);
    list_out(&mut out, &mut artifact, "parts", part_out);
    Value::Object(out)
}

fn part_out(part: Value) -> Value {
    let mut part = object_of(part);
    let mut out = pick(&mut part, &["metadata"]);
    match part.get("kind").and_then(Value::as_str) {
        Some("text") => {
            out.insert("text".into(), part.remove("text").unwrap_or_default());
        }
        Some("file") => {
            let mut file = object_of(part.remove("file").unwrap_or_default());
            let mut f = pick(&mut file, &["mimeType", "name"]);
            if let Some(uri) = file.remove("uri").filter(|v| !v.is_null()) {
                f.insert("fileWithUri".into(), uri);
            } else if let Some(bytes) = file.remove("bytes").filter(|v| !v.is_null()) {
                f.insert("fileWithBytes".into(), bytes);
            }
            out.insert("file".into(), Value::Object(f));
        }
        Some("data") => {
            let data = part.remove("data").unwrap_or_else(|| json!({}));
            out.insert("data".into(), json!({"data": data}));
        }
        // A part 0.3's proto cannot carry: its metadata alone, an empty part.
        _ => {}
    }
    Value::Object(out)
}

fn task_push_config_out(config: Value) -> Value {
    let mut config = object_of(config);
    let task_id = match config.remove("taskId") {
        Some(Value::String(id)) => id,
        _ => String::new(),
    };
    let push = object_of(config.remove("pushNotificationConfig").unwrap_or_default());
    let id = push
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let p = push_config_out(push);
    json!({
        "name": format!("tasks/{task_id}/pushNotificationConfigs/{id}"),
        "pushNotificationConfig": p,
    })
}

// ---- the client's side: 0.3 JSON-RPC params -> a REST request; its reply -> 0.3 JSON ----
//
// The same shapes the functions above read and write, the other way round: a request is
// written as a2a-sdk 0.3.26's `RestTransport` writes it, a reply read as that client reads it
// (each member under its JSON name or its proto field name).

/// The 0.3 REST request of a call of the 0.3 method `M` (its headers are `encode_call`'s).
pub(crate) fn encode_request<M: crate::table::Method>(
    params: &M::Params,
) -> Result<crate::client::message::HttpRequest, crate::client::error::RouteError>
where
    M::Params: serde::Serialize,
{
    let fail = |reason: String| crate::client::error::RouteError(reason);
    let params = serde_json::to_value(params).map_err(|e| fail(e.to_string()))?;
    let (verb, path, body) = request(M::NAME, params)
        .ok_or_else(|| fail(format!("A2A 0.3's HTTP+JSON binding has no {}", M::NAME)))?;
    Ok(crate::client::message::HttpRequest {
        verb,
        path,
        headers: Vec::new(),
        body: body.map(|b| b.to_string().into_bytes()),
    })
}

/// The 0.3 REST request of a call of the 0.3 JSON-RPC method `method` with `params`: the verb,
/// the path under the interface's URL (with its query) and the body. `None` for a method the
/// binding has not got.
pub(crate) fn request(
    method: &str,
    params: Value,
) -> Option<(&'static str, String, Option<Value>)> {
    let mut params = object_of(params);
    let text = |params: &mut Map<String, Value>, json: &str, proto: &str| match take(
        params, json, proto,
    ) {
        Some(Value::String(s)) => crate::rest::percent_encode(&s),
        Some(other) => crate::rest::percent_encode(&other.to_string()),
        None => String::new(),
    };
    let post = |path: String, body: Value| Some(("POST", path, Some(body)));
    match method {
        "message/send" => post("/v1/message:send".into(), send_request(params)),
        "message/stream" => post("/v1/message:stream".into(), send_request(params)),
        "tasks/get" => {
            let id = text(&mut params, "id", "id");
            let query = match take(&mut params, "historyLength", "history_length") {
                Some(n) => format!("?historyLength={n}"),
                None => String::new(),
            };
            Some(("GET", format!("/v1/tasks/{id}{query}"), None))
        }
        "tasks/cancel" => {
            let id = text(&mut params, "id", "id");
            post(
                format!("/v1/tasks/{id}:cancel"),
                json!({"name": format!("tasks/{id}")}),
            )
        }
        "tasks/resubscribe" => {
            let id = text(&mut params, "id", "id");
            Some(("GET", format!("/v1/tasks/{id}:subscribe"), None))
        }
        "tasks/pushNotificationConfig/set" => {
            let task_id = text(&mut params, "taskId", "task_id");
            let push = object_of(params.remove("pushNotificationConfig").unwrap_or_default());
            let config = push_config_out(push);
            let config_id = config.get("id").cloned().unwrap_or_else(|| "".into());
            let body = json!({
                "parent": format!("tasks/{task_id}"),
                "configId": config_id,
                "config": {
                    "name": format!("tasks/{task_id}/pushNotificationConfigs/{}",
                        config_id.as_str().unwrap_or_default()),
                    "pushNotificationConfig": config,
                },
            });
            post(format!("/v1/tasks/{task_id}/pushNotificationConfigs"), body)
        }
        "tasks/pushNotificationConfig/get" | "tasks/pushNotificationConfig/delete" => {
            let id = text(&mut params, "id", "id");
            let config = text(
                &mut params,
                "pushNotificationConfigId",
                "push_notification_config_id",
            );
            let verb = match method {
                "tasks/pushNotificationConfig/get" => "GET",
                _ => "DELETE",
            };
            Some((
                verb,
                format!("/v1/tasks/{id}/pushNotificationConfigs/{config}"),
                None,
            ))
        }
        "tasks/pushNotificationConfig/list" => {
            let id = text(&mut params, "id", "id");
            Some((
                "GET",
                format!("/v1/tasks/{id}/pushNotificationConfigs"),
                None,
            ))
        }
        "agent/getAuthenticatedExtendedCard" => Some(("GET", "/v1/card".into(), None)),
        _ => None,
    }
}

/// `MessageSendParams` -> `SendMessageRequest`. `blocking` is written even when the params leave
/// it out: absent, JSON-RPC's servers wait for the task (a2a-sdk 0.3's among them), while 0.3's
/// proto reads an absent `blocking` as `false` (a2a-sdk 0.3.26's REST server answers at once,
/// the task submitted); its own REST client writes it too.
fn send_request(mut params: Map<String, Value>) -> Value {
    let mut out = Map::new();
    if let Some(message) = params.remove("message").filter(|m| !m.is_null()) {
        out.insert("message".into(), message_out(message));
    }
    let mut c = object_of(params.remove("configuration").unwrap_or_default());
    let names = ["acceptedOutputModes", "historyLength", "blocking"];
    let mut config = pick(&mut c, &names);
    config.entry("blocking").or_insert(Value::Bool(true));
    if let Some(Value::Object(p)) = c.remove("pushNotificationConfig") {
        config.insert("pushNotification".into(), push_config_out(p));
    }
    out.insert("configuration".into(), Value::Object(config));
    out.extend(pick(&mut params, &["metadata"]));
    Value::Object(out)
}

/// A `PushNotificationConfig` in 0.3's proto shape.
fn push_config_out(mut push: Map<String, Value>) -> Value {
    let mut p = pick(&mut push, &["id", "url", "token"]);
    if let Some(auth) = push.remove("authentication").filter(|a| !a.is_null()) {
        let mut auth = object_of(auth);
        let auth = pick(&mut auth, &["schemes", "credentials"]);
        p.insert("authentication".into(), Value::Object(auth));
    }
    Value::Object(p)
}

/// A REST reply to a call of `method` as that method's 0.3 JSON-RPC result.
pub(crate) fn result_in(method: &str, value: Value) -> Value {
    // Not an object (`null` for an empty body): decoded as it is, and refused there.
    let Value::Object(mut value) = value else {
        return value;
    };
    match method {
        "message/send" => match take(&mut value, "message", "msg") {
            Some(Value::Object(m)) => message_in(m),
            _ => task_in(take(&mut value, "task", "task").unwrap_or_default()),
        },
        "tasks/get" | "tasks/cancel" => task_in(Value::Object(value)),
        "tasks/pushNotificationConfig/set" | "tasks/pushNotificationConfig/get" => {
            task_push_config_in(Value::Object(value))
        }
        "tasks/pushNotificationConfig/list" => match take(&mut value, "configs", "configs") {
            Some(Value::Array(list)) => list.into_iter().map(task_push_config_in).collect(),
            _ => Value::Array(Vec::new()),
        },
        "tasks/pushNotificationConfig/delete" => Value::Null,
        // The card: 0.3's JSON, as both ends write it.
        _ => Value::Object(value),
    }
}

/// A successful reply's body to a call of `method`, read as that method's 0.3 JSON-RPC result:
/// parsed once, translated, then decoded from the value.
pub(crate) fn read_result<T: serde::de::DeserializeOwned>(
    method: &str,
    text: &[u8],
) -> serde_json::Result<T> {
    T::deserialize(result_in(method, serde_json::from_slice(text)?))
}

/// A `StreamResponse` of 0.3's proto as the 0.3 JSON-RPC event it stands for.
pub(crate) fn event_in(value: Value) -> Value {
    let Value::Object(mut value) = value else {
        return value;
    };
    if let Some(Value::Object(m)) = take(&mut value, "message", "msg") {
        return message_in(m);
    }
    if let Some(Value::Object(mut u)) = take(&mut value, "statusUpdate", "status_update") {
        let mut out = update_in("status-update", &mut u, &[("final", "final")]);
        let status = take(&mut u, "status", "status").unwrap_or_default();
        out.insert("status".into(), status_in(status));
        out.entry("final").or_insert(Value::Bool(false));
        return Value::Object(out);
    }
    if let Some(Value::Object(mut u)) = take(&mut value, "artifactUpdate", "artifact_update") {
        let names = [("append", "append"), ("lastChunk", "last_chunk")];
        let mut out = update_in("artifact-update", &mut u, &names);
        if let Some(artifact) = take(&mut u, "artifact", "artifact") {
            out.insert("artifact".into(), artifact_in(artifact));
        }
        return Value::Object(out);
    }
    task_in(take(&mut value, "task", "task").unwrap_or_default())
}

/// An update event of `kind`: its task, context and metadata, and the members `names`.
fn update_in(
    kind: &str,
    update: &mut Map<String, Value>,
    names: &[(&str, &str)],
) -> Map<String, Value> {
    let ids = [
        ("taskId", "task_id"),
        ("contextId", "context_id"),
        ("metadata", "metadata"),
    ];
    let mut out = tagged(kind, update, &ids);
    carry(&mut out, update, names);
    out
}

fn task_in(task: Value) -> Value {
    let mut task = object_of(task);
    let mut out = tagged(
        "task",
        &mut task,
        &[
            ("id", "id"),
            ("contextId", "context_id"),
            ("metadata", "metadata"),
        ],
    );
    out.insert(
        "status".into(),
        status_in(take(&mut task, "status", "status").unwrap_or_default()),
    );
    if let Some(Value::Array(artifacts)) = take(&mut task, "artifacts", "artifacts") {
        out.insert(
            "artifacts".into(),
            artifacts.into_iter().map(artifact_in).collect(),
        );
    }
    if let Some(Value::Array(history)) = take(&mut task, "history", "history") {
        let history = history
            .into_iter()
            .map(|m| message_in(object_of(m)))
            .collect();
        out.insert("history".into(), history);
    }
    Value::Object(out)
}

fn status_in(status: Value) -> Value {
    let mut status = object_of(status);
    let mut out = Map::new();
    carry(&mut out, &mut status, &[("timestamp", "timestamp")]);
    let state = match take(&mut status, "state", "state") {
        Some(Value::String(s)) => match s.as_str() {
            "TASK_STATE_SUBMITTED" => "submitted",
            "TASK_STATE_WORKING" => "working",
            "TASK_STATE_INPUT_REQUIRED" => "input-required",
            "TASK_STATE_COMPLETED" => "completed",
            "TASK_STATE_CANCELLED" => "canceled",
            "TASK_STATE_FAILED" => "failed",
            "TASK_STATE_REJECTED" => "rejected",
            "TASK_STATE_AUTH_REQUIRED" => "auth-required",
            _ => "unknown",
        },
        Some(Value::Number(n)) => match n.as_i64() {
            Some(1) => "submitted",
            Some(2) => "working",
            Some(3) => "completed",
            Some(4) => "failed",
            Some(5) => "canceled",
            Some(6) => "input-required",
            Some(7) => "rejected",
            Some(8) => "auth-required",
            _ => "unknown",
        },
        _ => "unknown",
    };
    out.insert("state".into(), state.into());
    if let Some(Value::Object(m)) = take(&mut status, "message", "update") {
        out.insert("message".into(), message_in(m));
    }
    Value::Object(out)
}

fn artifact_in(artifact: Value) -> Value {
    let mut artifact = object_of(artifact);
    let mut out = Map::new();
    carry(
        &mut out,
        &mut artifact,
        &[
            ("artifactId", "artifact_id"),
            ("name", "name"),
            ("description", "description"),
            ("metadata", "metadata"),
            ("extensions", "extensions"),
        ],
    );
    parts_in(&mut out, &mut artifact, "parts");
    Value::Object(out)
}

/// A `TaskPushNotificationConfig` of 0.3's proto (`name`: `tasks/{id}/pushNotificationConfigs/{configId}`)
/// as 0.3's JSON.
fn task_push_config_in(config: Value) -> Value {
    let mut config = object_of(config);
    let name = match take(&mut config, "name", "name") {
        Some(Value::String(name)) => name,
        _ => String::new(),
    };
    let task_id = name
        .strip_prefix("tasks/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default();
    let push = match take(
        &mut config,
        "pushNotificationConfig",
        "push_notification_config",
    ) {
        Some(Value::Object(p)) => push_config_in(p),
        _ => json!({}),
    };
    json!({"taskId": task_id, "pushNotificationConfig": push})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_reads_into_message_send_params() {
        let body = json!({
            "message": {
                "messageId": "m-1", "contextId": "c-1", "role": "ROLE_USER",
                "content": [
                    {"text": "hi", "metadata": {"k": 1}},
                    {"file": {"fileWithUri": "https://x/y.png", "mimeType": "image/png"}},
                    {"file": {"file_with_bytes": "aGk=", "name": "a.txt"}},
                    {"data": {"data": {"n": 1}}},
                ],
            },
            "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 2,
                "pushNotification": {"url": "https://hook", "token": "t"}, "blocking": true},
            "metadata": {"m": true},
        });
        let call = route("POST", "/v1/message:send", "", body.to_string().as_bytes()).unwrap();
        assert_eq!(call.method, "message/send");
        assert_eq!(
            call.params,
            json!({
                "message": {
                    "kind": "message", "messageId": "m-1", "contextId": "c-1", "role": "user",
                    "parts": [
                        {"kind": "text", "text": "hi", "metadata": {"k": 1}},
                        {"kind": "file", "file": {"uri": "https://x/y.png", "mimeType": "image/png"}},
                        {"kind": "file", "file": {"bytes": "aGk=", "name": "a.txt"}},
                        {"kind": "data", "data": {"n": 1}},
                    ],
                },
                "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 2,
                    "blocking": true,
                    "pushNotificationConfig": {"url": "https://hook", "token": "t"}},
                "metadata": {"m": true},
            })
        );
        // The proto field names are read too, and ROLE_AGENT is the agent.
        let body = json!({"request": {"message_id": "m-2", "role": "ROLE_AGENT", "content": []}});
        let call = route(
            "POST",
            "/v1/message:stream",
            "",
            body.to_string().as_bytes(),
        )
        .unwrap();
        assert_eq!(call.method, "message/stream");
        assert_eq!(call.params["message"]["messageId"], "m-2");
        assert_eq!(call.params["message"]["role"], "agent");
    }

    #[test]
    fn error_bodies_name_the_error_beside_the_status() {
        let status = br#"{"error":{"code":404,"status":"NOT_FOUND","message":"gone"}}"#.to_vec();
        let body: Value =
            serde_json::from_slice(&error_body(status, Some("TaskNotFoundError"), "gone")).unwrap();
        assert_eq!(body["type"], "TaskNotFoundError");
        assert_eq!(body["message"], "gone");
        assert_eq!(body["error"]["status"], "NOT_FOUND");
        assert_eq!(error_body(b"not json".to_vec(), None, "x"), b"not json");
    }

    #[test]
    fn paths_name_their_methods() {
        let get = route("GET", "/v1/tasks/t%2F1", "historyLength=3", b"").unwrap();
        assert_eq!(
            (get.method, get.params),
            ("tasks/get", json!({"id": "t/1", "historyLength": 3}))
        );
        let cancel = route(
            "POST",
            "/v1/tasks/t-1:cancel",
            "",
            br#"{"name":"tasks/t-1"}"#,
        )
        .unwrap();
        assert_eq!(
            (cancel.method, cancel.params),
            ("tasks/cancel", json!({"id": "t-1"}))
        );
        for verb in ["GET", "POST"] {
            let sub = route(verb, "/v1/tasks/t-1:subscribe", "", b"").unwrap();
            assert_eq!(sub.method, "tasks/resubscribe");
        }
        let set = json!({"parent": "tasks/t-1", "configId": "c-9",
            "config": {"pushNotificationConfig": {"url": "https://hook", "id": "ignored"}}});
        let set = route(
            "POST",
            "/v1/tasks/t-1/pushNotificationConfigs",
            "",
            set.to_string().as_bytes(),
        )
        .unwrap();
        assert_eq!(
            (set.method, set.params),
            (
                "tasks/pushNotificationConfig/set",
                json!({"taskId": "t-1", "pushNotificationConfig": {"url": "https://hook", "id": "c-9"}})
            )
        );
        let list = route("GET", "/v1/tasks/t-1/pushNotificationConfigs", "", b"").unwrap();
        assert_eq!(list.method, "tasks/pushNotificationConfig/list");
        let one = route("GET", "/v1/tasks/t-1/pushNotificationConfigs/c-9", "", b"").unwrap();
        assert_eq!(
            (one.method, one.params),
            (
                "tasks/pushNotificationConfig/get",
                json!({"id": "t-1", "pushNotificationConfigId": "c-9"})
            )
        );
        let gone = route(
            "DELETE",
            "/v1/tasks/t-1/pushNotificationConfigs/c-9",
            "",
            b"",
        )
        .unwrap();
        assert_eq!(gone.method, "tasks/pushNotificationConfig/delete");
        assert_eq!(
            route("GET", "/v1/card", "", b"").unwrap().method,
            "agent/getAuthenticatedExtendedCard"
        );

        // What 0.3 has not got, and bodies that are not JSON objects.
        let e = route("GET", "/v1/tasks", "", b"").unwrap_err();
        assert_eq!(e.code, crate::jsonrpc::codes::METHOD_NOT_FOUND, "{e:?}");
        assert_eq!(e.no_route, Some(false), "{e:?}");
        assert_eq!(
            route("PUT", "/v1/card", "", b"").unwrap_err().no_route,
            Some(true)
        );
        let e = route("PUT", "/v1/tasks/t-1/pushNotificationConfigs", "", b"").unwrap_err();
        assert_eq!(e.no_route, Some(true), "{e:?}");
        assert_eq!(
            route("DELETE", "/v1/tasks/t-1", "", b"").unwrap_err().code,
            crate::jsonrpc::codes::METHOD_NOT_FOUND
        );
        assert_eq!(
            route("POST", "/v1/message:send", "", b"{")
                .unwrap_err()
                .code,
            crate::jsonrpc::codes::PARSE_ERROR
        );
        assert_eq!(
            route("POST", "/v1/message:send", "", b"[]")
                .unwrap_err()
                .code,
            crate::jsonrpc::codes::INVALID_REQUEST
        );
    }

    #[test]
    fn results_are_written_in_the_protos_shape() {
        let message = json!({"kind": "message", "messageId": "m-1", "role": "agent",
            "referenceTaskIds": ["t-0"], "parts": [{"kind": "text", "text": "hi"}]});
        let task = json!({
            "kind": "task", "id": "t-1", "contextId": "c-1",
            "status": {"state": "canceled", "timestamp": "2025-01-01T00:00:00Z", "message": message},
            "artifacts": [{"artifactId": "a-1", "parts": [
                {"kind": "data", "data": {"n": 1}},
                {"kind": "file", "file": {"bytes": "aGk=", "mimeType": "text/plain"}},
            ]}],
            "history": [message],
        });
        let proto_message = json!({"messageId": "m-1", "role": "ROLE_AGENT",
            "content": [{"text": "hi"}]});
        let proto_task = json!({
            "id": "t-1", "contextId": "c-1",
            "status": {"state": "TASK_STATE_CANCELLED", "timestamp": "2025-01-01T00:00:00Z",
                "message": proto_message},
            "artifacts": [{"artifactId": "a-1", "parts": [
                {"data": {"data": {"n": 1}}},
                {"file": {"fileWithBytes": "aGk=", "mimeType": "text/plain"}},
            ]}],
            "history": [proto_message],
        });
        assert_eq!(
            result("message/send", task.clone()),
            json!({"task": proto_task})
        );
        assert_eq!(
            result("message/send", message.clone()),
            json!({"message": proto_message})
        );
        assert_eq!(result("tasks/get", task.clone()), proto_task);
        assert_eq!(event(task), json!({"task": proto_task}));
        let update = json!({"kind": "status-update", "taskId": "t-1", "contextId": "c-1",
            "final": true, "status": {"state": "completed"}});
        assert_eq!(
            event(update),
            json!({"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "final": true,
                "status": {"state": "TASK_STATE_COMPLETED"}}})
        );
        let config = json!({"taskId": "t-1", "pushNotificationConfig": {"id": "c-9", "url": "https://hook"}});
        assert_eq!(
            result("tasks/pushNotificationConfig/get", config.clone()),
            json!({"name": "tasks/t-1/pushNotificationConfigs/c-9",
                "pushNotificationConfig": {"id": "c-9", "url": "https://hook"}})
        );
        assert_eq!(
            result("tasks/pushNotificationConfig/list", json!([config]))["configs"][0]["name"],
            "tasks/t-1/pushNotificationConfigs/c-9"
        );
        assert_eq!(
            result("tasks/pushNotificationConfig/delete", Value::Null),
            json!({})
        );
        let card = json!({"name": "a", "url": "http://x/", "capabilities": {"streaming": true}});
        assert_eq!(
            result("agent/getAuthenticatedExtendedCard", card.clone()),
            card
        );
    }

    /// The client's request, routed by the server: the call it was written from.
    fn round_trip(method: &str, params: Value) -> (String, LegacyCall) {
        let (verb, path, body) = request(method, params).unwrap();
        let (path, query) = path.split_once('?').unwrap_or((&path, ""));
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let call = route(verb, path, query, body.as_bytes()).unwrap();
        (format!("{verb} {path}"), call)
    }

    #[test]
    fn the_clients_requests_are_the_calls_the_server_reads() {
        let message = json!({
            "kind": "message", "messageId": "m-1", "contextId": "c-1", "role": "user",
            "parts": [
                {"kind": "text", "text": "hi", "metadata": {"k": 1}},
                {"kind": "file", "file": {"uri": "https://x/y.png", "mimeType": "image/png"}},
                {"kind": "file", "file": {"bytes": "aGk=", "name": "a.txt"}},
                {"kind": "data", "data": {"n": 1}},
            ],
        });
        let send = json!({
            "message": message,
            "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 2,
                "blocking": true, "pushNotificationConfig": {"url": "https://hook", "token": "t",
                "authentication": {"schemes": ["Bearer"], "credentials": "c"}}},
            "metadata": {"m": true},
        });
        let push =
            json!({"taskId": "t/1", "pushNotificationConfig": {"id": "p1", "url": "https://h"}});
        let which = json!({"id": "t/1", "pushNotificationConfigId": "p 1"});
        let cases = [
            ("message/send", send.clone(), "POST /v1/message:send"),
            ("message/stream", send, "POST /v1/message:stream"),
            (
                "tasks/get",
                json!({"id": "t/1", "historyLength": 3}),
                "GET /v1/tasks/t%2F1",
            ),
            (
                "tasks/cancel",
                json!({"id": "t/1"}),
                "POST /v1/tasks/t%2F1:cancel",
            ),
            (
                "tasks/resubscribe",
                json!({"id": "t/1"}),
                "GET /v1/tasks/t%2F1:subscribe",
            ),
            (
                "tasks/pushNotificationConfig/set",
                push,
                "POST /v1/tasks/t%2F1/pushNotificationConfigs",
            ),
            (
                "tasks/pushNotificationConfig/get",
                which.clone(),
                "GET /v1/tasks/t%2F1/pushNotificationConfigs/p%201",
            ),
            (
                "tasks/pushNotificationConfig/delete",
                which,
                "DELETE /v1/tasks/t%2F1/pushNotificationConfigs/p%201",
            ),
            (
                "tasks/pushNotificationConfig/list",
                json!({"id": "t/1"}),
                "GET /v1/tasks/t%2F1/pushNotificationConfigs",
            ),
            (
                "agent/getAuthenticatedExtendedCard",
                Value::Null,
                "GET /v1/card",
            ),
        ];
        for (method, params, at) in cases {
            let (sent, call) = round_trip(method, params.clone());
            assert_eq!(sent, at, "{method}");
            assert_eq!(call.method, method);
            assert_eq!(call.params, params, "{method}");
        }
        assert!(
            request("tasks/list", json!({})).is_none(),
            "no such 0.3 REST method"
        );
    }

    #[test]
    fn the_servers_replies_read_back_as_the_results_written() {
        let message = json!({"kind": "message", "messageId": "m", "role": "agent",
            "parts": [{"kind": "text", "text": "hi"}]});
        let task = json!({
            "kind": "task", "id": "t", "contextId": "c", "metadata": {"k": 1},
            "status": {"state": "input-required", "timestamp": "2026-01-01T00:00:00Z",
                "message": message},
            "artifacts": [{"artifactId": "a", "name": "n",
                "parts": [{"kind": "data", "data": {"n": 1}}]}],
            "history": [message],
        });
        let config = json!({"taskId": "t", "pushNotificationConfig": {"id": "p", "url": "https://h",
            "authentication": {"schemes": ["Bearer"]}}});
        let cases = [
            ("message/send", task.clone()),
            ("message/send", message.clone()),
            ("tasks/get", task.clone()),
            ("tasks/cancel", task.clone()),
            ("tasks/pushNotificationConfig/set", config.clone()),
            ("tasks/pushNotificationConfig/get", config.clone()),
            ("tasks/pushNotificationConfig/list", json!([config])),
            ("tasks/pushNotificationConfig/delete", Value::Null),
        ];
        for (method, value) in cases {
            let written = result(method, value.clone());
            assert_eq!(result_in(method, written), value, "{method}");
        }
        let status = json!({"kind": "status-update", "taskId": "t", "contextId": "c",
            "final": true, "status": {"state": "canceled"}});
        let artifact = json!({"kind": "artifact-update", "taskId": "t", "contextId": "c",
            "append": true, "lastChunk": false,
            "artifact": {"artifactId": "a", "parts": [{"kind": "file", "file": {"uri": "u"}}]}});
        for event_json in [task, message, status, artifact] {
            assert_eq!(event_in(event(event_json.clone())), event_json);
        }
        // Numbers for states, proto field names, as ProtoJSON parsers take them.
        let read = event_in(json!({"status_update": {"task_id": "t", "status": {"state": 5}}}));
        assert_eq!(
            read,
            json!({"kind": "status-update", "taskId": "t", "final": false,
            "status": {"state": "canceled"}})
        );
    }
}
