//! The generated protobuf codec (`a2a_types::v1`, feature `protobuf`) against an independent
//! protobuf implementation: prost-reflect's dynamic messages, built from the normative
//! `a2a.proto` in shared/ (compiled by protox). For every captured a2a-sdk 1.3.0 result and
//! request, and every hand-written sample (each oneof member, enums, maps, bytes, timestamps):
//!
//! - our encoder, their decoder: our bytes decode as the proto's message, and its ProtoJSON
//!   (prost-reflect's) decodes back through our JSON decoder to an equal value;
//! - their encoder, our decoder: the JSON read by prost-reflect and encoded by it decodes
//!   through our protobuf decoder to the value our JSON decoder gives.
//!
//! Then the bad input: every truncation of every encoding is a typed error or a value, never a
//! panic, and the decoder's limits hold.

use a2a_tests::{captured_results, shared_path, strip_protojson_defaults, workspace_root, SAMPLES};
use a2a_types::rt::protobuf::{DecodeErrorKind, Limits, Message};
use a2a_types::v1 as m;
use prost_reflect::{DescriptorPool, DeserializeOptions, DynamicMessage};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;

/// The normative proto, compiled; `None` (after the printed skip) without shared/.
fn pool(what: &str) -> Option<DescriptorPool> {
    let proto = shared_path(what, "a2a-spec/v1.0/a2a.proto")?;
    let dir = proto.parent().unwrap().to_path_buf();
    let deps = workspace_root().join("spec/proto-deps");
    let files = protox::compile(["a2a.proto"], [dir, deps]).expect("the official proto compiles");
    Some(DescriptorPool::from_file_descriptor_set(files).expect("a descriptor pool"))
}

/// Our value as JSON in the form protobuf keeps it: timestamps as their instant (`...05Z` and
/// `...05.000Z` are one Timestamp), every number of a `Struct` or `Value` as a double (ProtoJSON
/// writers print `1` as `1.0`), and no member holding its default (`""`, `0`, `false`, `[]`),
/// which a field of implicit presence does not distinguish from absence.
fn canonical<T: Serialize>(value: &T) -> Value {
    let mut json = serde_json::to_value(value).unwrap();
    strip_protojson_defaults(&mut json);
    fn walk(v: &mut Value) {
        match v {
            Value::Number(n) => {
                if let Some(f) = n.as_f64().and_then(serde_json::Number::from_f64) {
                    *n = f;
                }
            }
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if key == "timestamp" || key.ends_with("At") || key.ends_with("After") {
                        if let Value::String(s) = value {
                            if let Ok(t) = a2a_types::rt::Timestamp::new(s.as_str()).parse() {
                                *s = format!("{}.{:09}", t.seconds, t.nanos);
                            }
                        }
                    }
                    walk(value);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut json);
    json
}

/// Both directions for one value of type `T` (`name` in the proto).
fn check<T>(pool: &DescriptorPool, name: &str, json: &Value) -> Result<(), String>
where
    T: Message + DeserializeOwned + Serialize + PartialEq + Debug,
{
    let full = match name {
        "Empty" => "google.protobuf.Empty".to_string(),
        _ => format!("lf.a2a.v1.{name}"),
    };
    let desc = pool
        .get_message_by_name(&full)
        .ok_or_else(|| format!("no message {name} in the proto"))?;
    let ours: T = serde_json::from_value(json.clone()).map_err(|e| format!("our JSON: {e}"))?;
    let expected = canonical(&ours);

    // Our encoder, their decoder.
    let bytes = ours.encode_to_vec();
    if bytes.len() != ours.encoded_len() {
        return Err(format!(
            "encoded_len {} but {} bytes written",
            ours.encoded_len(),
            bytes.len()
        ));
    }
    let theirs = DynamicMessage::decode(desc.clone(), bytes.as_slice())
        .map_err(|e| format!("prost-reflect refuses our bytes: {e}"))?;
    let their_json = serde_json::to_value(&theirs).map_err(|e| format!("their ProtoJSON: {e}"))?;
    let back: T = serde_json::from_value(their_json.clone())
        .map_err(|e| format!("our JSON decoder on their ProtoJSON {their_json}: {e}"))?;
    if canonical(&back) != expected {
        return Err(format!(
            "ours -> bytes -> prost-reflect -> ProtoJSON -> ours changed the value:\n  before: {expected}\n  after:  {}",
            canonical(&back)
        ));
    }

    // Their encoder, our decoder.
    let options = DeserializeOptions::new().deny_unknown_fields(false);
    let text = json.to_string();
    let mut de = serde_json::Deserializer::from_str(&text);
    let theirs = DynamicMessage::deserialize_with_options(desc, &mut de, &options)
        .map_err(|e| format!("prost-reflect refuses the JSON: {e}"))?;
    let decoded = T::decode(&prost_reflect::prost::Message::encode_to_vec(&theirs))
        .map_err(|e| format!("our decoder: {e}"))?;
    if canonical(&decoded) != expected {
        return Err(format!(
            "JSON -> prost-reflect -> bytes -> ours differs from our JSON decoder:\n  json:  {expected}\n  bytes: {}",
            canonical(&decoded)
        ));
    }
    Ok(())
}

fn check_named(pool: &DescriptorPool, name: &str, json: &Value) -> Result<(), String> {
    match name {
        "Task" => check::<m::Task>(pool, name, json),
        "Message" => check::<m::Message>(pool, name, json),
        "AgentCard" => check::<m::AgentCard>(pool, name, json),
        "StreamResponse" => check::<m::StreamResponse>(pool, name, json),
        "SendMessageResponse" => check::<m::SendMessageResponse>(pool, name, json),
        "SendMessageRequest" => check::<m::SendMessageRequest>(pool, name, json),
        "GetTaskRequest" => check::<m::GetTaskRequest>(pool, name, json),
        "ListTasksRequest" => check::<m::ListTasksRequest>(pool, name, json),
        "ListTasksResponse" => check::<m::ListTasksResponse>(pool, name, json),
        "CancelTaskRequest" => check::<m::CancelTaskRequest>(pool, name, json),
        "SubscribeToTaskRequest" => check::<m::SubscribeToTaskRequest>(pool, name, json),
        "TaskPushNotificationConfig" => check::<m::TaskPushNotificationConfig>(pool, name, json),
        "GetTaskPushNotificationConfigRequest" => {
            check::<m::GetTaskPushNotificationConfigRequest>(pool, name, json)
        }
        "ListTaskPushNotificationConfigsRequest" => {
            check::<m::ListTaskPushNotificationConfigsRequest>(pool, name, json)
        }
        "ListTaskPushNotificationConfigsResponse" => {
            check::<m::ListTaskPushNotificationConfigsResponse>(pool, name, json)
        }
        "DeleteTaskPushNotificationConfigRequest" => {
            check::<m::DeleteTaskPushNotificationConfigRequest>(pool, name, json)
        }
        "GetExtendedAgentCardRequest" => check::<m::GetExtendedAgentCardRequest>(pool, name, json),
        "Empty" => check::<m::Empty>(pool, name, json),
        other => panic!("no entry for `{other}`: add it to check_named"),
    }
}

/// The params type of a v1 method.
fn params_type(method: &str) -> Option<&'static str> {
    Some(match method {
        "SendMessage" | "SendStreamingMessage" => "SendMessageRequest",
        "GetTask" => "GetTaskRequest",
        "ListTasks" => "ListTasksRequest",
        "CancelTask" => "CancelTaskRequest",
        "SubscribeToTask" => "SubscribeToTaskRequest",
        "CreateTaskPushNotificationConfig" => "TaskPushNotificationConfig",
        "GetTaskPushNotificationConfig" => "GetTaskPushNotificationConfigRequest",
        "ListTaskPushNotificationConfigs" => "ListTaskPushNotificationConfigsRequest",
        "DeleteTaskPushNotificationConfig" => "DeleteTaskPushNotificationConfigRequest",
        "GetExtendedAgentCard" => "GetExtendedAgentCardRequest",
        _ => return None,
    })
}

/// Every request of the captures whose params are a v1 message: `(capture, type, params)`.
fn captured_requests(what: &str) -> Option<Vec<(String, &'static str, Value)>> {
    let dir = shared_path(what, "wire-captures/a2a-sdk-1.3.0")?;
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".request.json"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let Ok(request) = serde_json::from_str::<Value>(&text) else {
            continue; // the malformed-JSON capture
        };
        let (Some(method), Some(params)) = (
            request.get("method").and_then(Value::as_str),
            request.get("params").filter(|p| p.is_object()),
        ) else {
            continue;
        };
        if let Some(ty) = params_type(method) {
            out.push((name, ty, params.clone()));
        }
    }
    Some(out)
}

#[test]
fn the_codec_agrees_with_prost_reflect_on_the_captures_and_samples() {
    let what = "the_codec_agrees_with_prost_reflect_on_the_captures_and_samples";
    let Some(pool) = pool(what) else { return };
    let mut cases: Vec<(String, &str, Value)> = SAMPLES
        .iter()
        .enumerate()
        .map(|(i, (ty, json))| {
            (
                format!("SAMPLES[{i}]"),
                *ty,
                serde_json::from_str(json).unwrap(),
            )
        })
        .collect();
    let (results, _) = captured_results(what).expect("shared/ was found above");
    cases.extend(
        results
            .into_iter()
            .map(|r| (r.capture, r.type_name, r.value)),
    );
    let requests = captured_requests(what).expect("shared/ was found above");
    assert!(
        requests.len() >= 10,
        "only {} captured requests",
        requests.len()
    );
    cases.extend(requests);
    let mut failures = Vec::new();
    for (case, ty, json) in &cases {
        // A capture of an invalid request (the SDK refused it) need not be a valid message.
        if let Err(e) = check_named(&pool, ty, json) {
            if !case.contains("invalid") {
                failures.push(format!("{case} ({ty}): {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} values agree with prost-reflect both ways", cases.len());
}

/// Every prefix of every sample's encoding decodes to a value or a typed error; the full
/// encoding decodes to the value.
#[test]
fn truncated_bytes_are_typed_errors() {
    for (ty, json) in SAMPLES.iter().filter(|(ty, _)| *ty == "Task") {
        let task: m::Task = serde_json::from_str(json).unwrap();
        let bytes = task.encode_to_vec();
        let mut errors = 0;
        for cut in 0..bytes.len() {
            if let Err(e) = m::Task::decode(&bytes[..cut]) {
                errors += 1;
                assert!(
                    !e.to_string().is_empty(),
                    "{ty}: an error without a message"
                );
            }
        }
        assert!(
            errors > bytes.len() / 2,
            "{ty}: only {errors} of {} prefixes refused",
            bytes.len()
        );
        assert_eq!(m::Task::decode(&bytes).unwrap(), task);
    }
}

#[test]
fn the_limits_hold_and_name_the_field() {
    let task: m::Task = serde_json::from_str(SAMPLES[0].1).unwrap();
    let bytes = task.encode_to_vec();
    let small = Limits {
        max_len: 16,
        ..Limits::default()
    };
    let err = m::Task::decode_with(&bytes, small).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooLarge { .. }),
        "{err}"
    );

    // Metadata nested past the depth limit: a Struct of lists of lists...
    let mut value = Value::Null;
    for _ in 0..150 {
        value = Value::Array(vec![value]);
    }
    let mut deep = task.clone();
    deep.metadata = Some(serde_json::Map::from_iter([("deep".to_string(), value)]));
    let err = m::Task::decode(&deep.encode_to_vec()).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("metadata"),
        "the path names the field: {err}"
    );

    // A string that is not UTF-8 in `Task.id` (field 1).
    let err = m::Task::decode(&[0x0a, 0x02, 0xff, 0xfe]).unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::InvalidUtf8), "{err}");
    assert!(err.to_string().contains("Task.id"), "{err}");
}

/// Tolerance, as on the JSON side: unknown fields of every wire type are skipped, an unknown enum
/// number survives and is written back, and a field of a oneof message this version does not
/// know is its `Unknown` variant.
#[test]
fn unknown_fields_enum_numbers_and_oneof_members_are_tolerated() {
    let status = m::TaskStatus {
        state: m::TaskState::Working,
        ..Default::default()
    };
    let mut bytes = status.encode_to_vec();
    // Field 99 of each wire type: varint, i64, len, group (start, a varint inside, end), i32.
    bytes.extend([0x98, 0x06, 0x01]);
    bytes.extend([0x99, 0x06, 1, 2, 3, 4, 5, 6, 7, 8]);
    bytes.extend([0x9a, 0x06, 0x02, b'h', b'i']);
    bytes.extend([0x9b, 0x06, 0x08, 0x01, 0x9c, 0x06]);
    bytes.extend([0x9d, 0x06, 1, 2, 3, 4]);
    assert_eq!(m::TaskStatus::decode(&bytes).unwrap(), status);

    // TaskStatus.state (field 1) = 42, a number no version names.
    let odd = m::TaskStatus::decode(&[0x08, 42]).unwrap();
    assert_eq!(odd.state, m::TaskState::Unrecognized("42".into()));
    assert_eq!(odd.encode_to_vec(), [0x08, 42]);

    // StreamResponse field 9: no member of this version.
    let unknown = m::StreamResponse::decode(&[0x4a, 0x00]).unwrap();
    match unknown {
        m::StreamResponse::Unknown(member) => assert_eq!(member.name(), Some("9")),
        other => panic!("expected the Unknown variant, got {other:?}"),
    }
}
