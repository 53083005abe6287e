//! Shared plumbing for the cross-crate tests of a2a-codegen.
//!
//! Everything that reads `../shared` (the official A2A inputs and the wire captures, which live
//! beside the checkout and are never copied into it) goes through [`shared_dir`], so that a missing
//! folder fails loudly in CI and is a printed skip on a developer machine.

use std::path::{Path, PathBuf};

pub mod bench;
pub mod decode_workload;

/// Root of the workspace (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits inside the workspace")
        .to_path_buf()
}

/// The `shared/` reference folder beside the checkout, or `None` when it is absent.
///
/// The folder is looked up at `$A2A_SHARED_DIR` if set, else at `<workspace>/../shared`.
/// When it is missing and the `CI` environment variable is set, this panics: CI must never
/// silently skip the tests that prove behaviour on real data. Elsewhere it prints a notice
/// naming `what` and returns `None`; the caller then returns early.
pub fn shared_dir(what: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("A2A_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared"),
    };
    if dir.join("a2a-spec").is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{what}: the shared reference folder is missing at {} and CI is set; \
             CI must run this test (set A2A_SHARED_DIR or lay shared/ beside the checkout)",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED {what}: no shared reference folder at {} (set A2A_SHARED_DIR to run it)",
        dir.display()
    );
    None
}

/// [`shared_dir`] joined with `rel`; `None` (after the printed skip) when the folder is absent.
pub fn shared_path(what: &str, rel: &str) -> Option<PathBuf> {
    shared_dir(what).map(|d| d.join(rel))
}

/// Removes, at every depth, the object members that ProtoJSON writers leave out when they hold
/// their default value (`""`, `0`, `false`, `[]`), so that two encodings that differ only in
/// whether they wrote defaults compare equal.
pub fn strip_protojson_defaults(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            map.retain(|_, v| {
                !matches!(v, Value::String(s) if s.is_empty())
                    && !matches!(v, Value::Bool(false))
                    && !matches!(v, Value::Number(n) if n.as_f64() == Some(0.0))
                    && !matches!(v, Value::Array(a) if a.is_empty())
            });
            map.values_mut().for_each(strip_protojson_defaults);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_protojson_defaults),
        _ => {}
    }
}

/// The `data` of every event of an SSE body, through the product's own framing decoder.
pub fn sse_event_data(body: &str) -> Vec<String> {
    let mut decoder = a2a_types::rt::sse::SseDecoder::new();
    let events = decoder.feed(body.as_bytes());
    assert_eq!(decoder.finish(), Ok(()), "the SSE body ends mid-event");
    events
        .into_iter()
        .map(|e| e.expect("an SSE event within limits").data)
        .collect()
}

/// One result object the official Python SDK put on the wire, with the v1 type it must decode as.
#[derive(Clone, Debug)]
pub struct CapturedResult {
    /// `<response file>#<event index>`.
    pub capture: String,
    /// The v1 type name (`Task`, `StreamResponse`, ... or `AgentCard` for the card).
    pub type_name: &'static str,
    /// The `result` member (the whole body for the agent card).
    pub value: serde_json::Value,
}

/// Every result object of the a2a-sdk 1.3.0 wire captures (unary bodies and SSE events, in file
/// order), and how many error replies were passed over. `None` (after the printed skip) when
/// shared/ is absent.
pub fn captured_results(what: &str) -> Option<(Vec<CapturedResult>, usize)> {
    use serde_json::Value;
    let dir = shared_path(what, "wire-captures/a2a-sdk-1.3.0")?;
    let method_of = |stem: &str| -> Option<String> {
        let request = std::fs::read_to_string(dir.join(format!("{stem}.request.json"))).ok()?;
        let request: Value = serde_json::from_str(&request).ok()?;
        request.get("method")?.as_str().map(String::from)
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".response.json") || n.ends_with(".response.sse"))
        .collect();
    names.sort();
    let (mut results, mut errors) = (Vec::new(), 0);
    for name in &names {
        let stem = name.split(".response").next().unwrap();
        let body = std::fs::read_to_string(dir.join(name)).unwrap();
        let bodies = if name.ends_with(".sse") {
            sse_event_data(&body)
        } else {
            vec![body]
        };
        for (i, body) in bodies.iter().enumerate() {
            let capture = format!("{name}#{i}");
            let value: Value =
                serde_json::from_str(body).unwrap_or_else(|e| panic!("{capture}: not JSON: {e}"));
            if stem.ends_with("agent-card") {
                results.push(CapturedResult {
                    capture,
                    type_name: "AgentCard",
                    value,
                });
                continue;
            }
            if value.get("error").is_some() {
                errors += 1;
                continue;
            }
            let method = method_of(stem).unwrap_or_else(|| panic!("{capture}: no request method"));
            let type_name = v1_result_type(&method)
                .unwrap_or_else(|| panic!("{capture}: unknown method {method}"));
            let value = value
                .get("result")
                .unwrap_or_else(|| panic!("{capture}: neither result nor error"))
                .clone();
            results.push(CapturedResult {
                capture,
                type_name,
                value,
            });
        }
    }
    Some((results, errors))
}

/// Hand-written A2A v1 messages covering every oneof member, enums, maps, bytes and timestamps:
/// `(type name, JSON)`. Used where the wire captures do not reach (and when shared/ is absent).
pub const SAMPLES: &[(&str, &str)] = &[
    (
        "Task",
        r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-01-02T03:04:05.123Z",
            "message":{"messageId":"m-0","role":"ROLE_AGENT","parts":[{"text":"thinking"}]}},
           "artifacts":[{"artifactId":"a-1","name":"out","parts":[
               {"text":"hello","mediaType":"text/plain","metadata":{"lang":"en"}},
               {"raw":"aGVsbG8=","filename":"h.bin","mediaType":"application/octet-stream"},
               {"url":"https://example.com/f.png","mediaType":"image/png"},
               {"data":{"k":[1,2,{"z":null}]}},
               {"data":null}],"extensions":["urn:x"]}],
           "history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}],"referenceTaskIds":["t-0"],"taskId":"t-1"}],
           "metadata":{"a":1,"b":{"c":[true]}}}"#,
    ),
    (
        "AgentCard",
        r#"{"name":"Agent","description":"does things","version":"1.2.3",
            "supportedInterfaces":[{"url":"https://a.example/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"t"}],
            "provider":{"organization":"Org","url":"https://org.example"},
            "documentationUrl":"https://docs.example","iconUrl":"https://icon.example",
            "capabilities":{"streaming":true,"pushNotifications":false,"extendedAgentCard":true,
                "extensions":[{"uri":"urn:ext","description":"d","required":true,"params":{"p":1}}]},
            "securitySchemes":{
                "key":{"apiKeySecurityScheme":{"location":"header","name":"X-Key","description":"k"}},
                "http":{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}},
                "oauth":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"https://o/a","tokenUrl":"https://o/t","scopes":{"read":"r"},"pkceRequired":true}},"oauth2MetadataUrl":"https://o/m"}},
                "cc":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://o/t","scopes":{"w":"write"}}}}},
                "dev":{"oauth2SecurityScheme":{"flows":{"deviceCode":{"deviceAuthorizationUrl":"https://o/d","tokenUrl":"https://o/t","scopes":{}}}}},
                "imp":{"oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"https://o/a","scopes":{"x":"y"}}}}},
                "pw":{"oauth2SecurityScheme":{"flows":{"password":{"tokenUrl":"https://o/t"}}}},
                "oidc":{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://o/.well-known"}},
                "mtls":{"mtlsSecurityScheme":{"description":"client certs"}}},
            "securityRequirements":[{"schemes":{"oauth":{"list":["read"]},"key":{}}}],
            "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain","application/json"],
            "skills":[{"id":"s","name":"S","description":"skill","tags":["t"],"examples":["e"],"inputModes":["text/plain"],
                "outputModes":["text/plain"],"securityRequirements":[{"schemes":{"key":{"list":[]}}}]}],
            "signatures":[{"protected":"eyJhbGciOiJFUzI1NiJ9","signature":"c2ln","header":{"kid":"k1"}}]}"#,
    ),
    (
        "StreamResponse",
        r#"{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":"x"}]},"append":true,"lastChunk":true,"metadata":{}}}"#,
    ),
    (
        "StreamResponse",
        r#"{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}"#,
    ),
    (
        "StreamResponse",
        r#"{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"done"}],"contextId":"c"}}"#,
    ),
    (
        "SendMessageResponse",
        r#"{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"done"}]}}"#,
    ),
    (
        "SendMessageRequest",
        r#"{"tenant":"t","message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},
            "configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0,"returnImmediately":true,
                "taskPushNotificationConfig":{"url":"https://hook.example","token":"tok","authentication":{"scheme":"Bearer","credentials":"c"}}},
            "metadata":{"trace":"x"}}"#,
    ),
    (
        "ListTasksRequest",
        r#"{"contextId":"c","status":"TASK_STATE_COMPLETED","pageSize":10,"pageToken":"p","historyLength":2,
            "statusTimestampAfter":"2026-01-01T00:00:00Z","includeArtifacts":false}"#,
    ),
    (
        "ListTasksResponse",
        r#"{"tasks":[],"nextPageToken":"","pageSize":0,"totalSize":0}"#,
    ),
    (
        "ListTaskPushNotificationConfigsResponse",
        r#"{"configs":[{"id":"p","taskId":"t","url":"https://hook.example"}],"nextPageToken":"n"}"#,
    ),
    (
        "TaskPushNotificationConfig",
        r#"{"tenant":"t","id":"p","taskId":"t-1","url":"https://hook.example","token":"tok",
            "authentication":{"scheme":"Bearer","credentials":"c"}}"#,
    ),
    (
        "GetTaskPushNotificationConfigRequest",
        r#"{"taskId":"t","id":"p"}"#,
    ),
    ("Empty", r#"{}"#),
];

/// Defines a round-trip helper over one generated module: decode `json` as the type called
/// `type_name` in it, encode it back. The v1 types and the v1.1 draft's have the same names.
macro_rules! roundtrip_fn {
    ($(#[$doc:meta])* $name:ident, $module:ident) => {
        $(#[$doc])*
        ///
        /// Returns `Err` with the decoder's message when decoding fails, and panics on a type name
        /// this helper does not list (a test bug).
        pub fn $name(type_name: &str, json: &str) -> Result<serde_json::Value, String> {
            use a2a_types::$module as m;
            fn go<T: serde::de::DeserializeOwned + serde::Serialize>(
                json: &str,
            ) -> Result<serde_json::Value, String> {
                let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
                Ok(serde_json::to_value(&value).expect("encoding a decoded value cannot fail"))
            }
            match type_name {
                "Task" => go::<m::Task>(json),
                "Message" => go::<m::Message>(json),
                "Part" => go::<m::Part>(json),
                "AgentCard" => go::<m::AgentCard>(json),
                "StreamResponse" => go::<m::StreamResponse>(json),
                "SendMessageResponse" => go::<m::SendMessageResponse>(json),
                "SendMessageRequest" => go::<m::SendMessageRequest>(json),
                "GetTaskRequest" => go::<m::GetTaskRequest>(json),
                "ListTasksRequest" => go::<m::ListTasksRequest>(json),
                "ListTasksResponse" => go::<m::ListTasksResponse>(json),
                "CancelTaskRequest" => go::<m::CancelTaskRequest>(json),
                "SubscribeToTaskRequest" => go::<m::SubscribeToTaskRequest>(json),
                "TaskPushNotificationConfig" => go::<m::TaskPushNotificationConfig>(json),
                "GetTaskPushNotificationConfigRequest" => {
                    go::<m::GetTaskPushNotificationConfigRequest>(json)
                }
                "ListTaskPushNotificationConfigsResponse" => {
                    go::<m::ListTaskPushNotificationConfigsResponse>(json)
                }
                "Empty" => go::<m::Empty>(json),
                other => panic!(
                    "{}: no entry for type `{other}`; add it to the helper",
                    stringify!($name)
                ),
            }
        }
    };
}

roundtrip_fn!(
    /// Decodes `json` as the v1 type called `type_name` and encodes it back.
    v1_roundtrip,
    v1
);

roundtrip_fn!(
    /// Decodes `json` as the v1.1 draft's type called `type_name` (`a2a_types::v1_1_draft`) and
    /// encodes it back. The draft only adds fields, so every v1 message round-trips through it.
    v1_1_draft_roundtrip,
    v1_1_draft
);

/// A round-trip helper ([`v1_roundtrip`], [`v1_1_draft_roundtrip`]).
pub type Roundtrip = fn(&str, &str) -> Result<serde_json::Value, String>;

/// The modules that read v1 traffic, by name, with their round-trip helpers: tests over the v1
/// wire captures and samples run against each.
pub const V1_MODULES: &[(&str, Roundtrip)] =
    &[("v1", v1_roundtrip), ("v1_1_draft", v1_1_draft_roundtrip)];

/// The v1 type of a method's `result` (per event for streaming methods); `None` for a method this
/// table does not know.
pub fn v1_result_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "SendMessage" => "SendMessageResponse",
        "SendStreamingMessage" | "SubscribeToTask" => "StreamResponse",
        "GetTask" | "CancelTask" => "Task",
        "ListTasks" => "ListTasksResponse",
        "CreateTaskPushNotificationConfig" | "GetTaskPushNotificationConfig" => {
            "TaskPushNotificationConfig"
        }
        "ListTaskPushNotificationConfigs" => "ListTaskPushNotificationConfigsResponse",
        "DeleteTaskPushNotificationConfig" => "Empty",
        "GetExtendedAgentCard" => "AgentCard",
        _ => return None,
    })
}

/// Arbitrary JSON for property tests: finite numbers, strings from `strings`, and arrays and
/// objects (keys from `keys`) nested a few levels deep.
pub fn arbitrary_json(
    keys: proptest::strategy::BoxedStrategy<String>,
    strings: proptest::strategy::BoxedStrategy<String>,
) -> proptest::strategy::BoxedStrategy<serde_json::Value> {
    use proptest::prelude::*;
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        strings.prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
    .boxed()
}

/// The loop both `classify` examples run: read each file named in `paths` as a JSON array of case
/// objects and print `line(case)` for each, one JSON value per line. An unreadable file or a case
/// `line` refuses stops the tool with exit status 2 and a message prefixed with `tool`.
pub fn run_case_files(
    tool: &str,
    paths: &[String],
    mut line: impl FnMut(
        &serde_json::Map<String, serde_json::Value>,
    ) -> Result<serde_json::Value, String>,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    for path in paths {
        let cases = match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                serde_json::from_slice::<Vec<serde_json::Map<String, serde_json::Value>>>(&bytes)
                    .map_err(|e| e.to_string())
            }) {
            Ok(cases) => cases,
            Err(e) => {
                eprintln!("{tool}: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        for case in &cases {
            match line(case) {
                Ok(line) => println!("{line}"),
                Err(message) => {
                    eprintln!("{tool}: {path}: {message}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    ExitCode::SUCCESS
}
