//! Decoding rules of the generated v1 types: ProtoJSON presence, open enums, oneofs, aliases,
//! number forms, and what is (and is not) an error.

use a2a_types::rt::UnknownMember;
use a2a_types::v1::*;
use serde_json::{json, Value};

fn decode<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_str(&v.to_string()).map_err(|e| e.to_string())
}

fn task(status: Value) -> Value {
    json!({"id": "t", "status": status})
}

#[test]
fn unknown_enum_name_decodes_and_re_encodes_unchanged() {
    let t: Task = decode(task(json!({"state": "TASK_STATE_SOMETHING_NEW"}))).unwrap();
    assert_eq!(
        t.status.state,
        TaskState::Unrecognized("TASK_STATE_SOMETHING_NEW".into())
    );
    let back = serde_json::to_value(&t).unwrap();
    assert_eq!(back["status"]["state"], "TASK_STATE_SOMETHING_NEW");
}

#[test]
fn enum_integers_are_accepted_and_unknown_integers_survive() {
    let t: Task = decode(task(json!({"state": 3}))).unwrap();
    assert_eq!(t.status.state, TaskState::Completed);
    assert_eq!(
        serde_json::to_value(&t).unwrap()["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let t: Task = decode(task(json!({"state": 42}))).unwrap();
    assert_eq!(t.status.state, TaskState::Unrecognized("42".into()));
    assert_eq!(serde_json::to_value(&t).unwrap()["status"]["state"], 42);
    assert!(decode::<Task>(task(json!({"state": 1.5}))).is_err());
}

/// An odd peer may send an unknown enum *name* that looks like a number. It must re-encode as the
/// same string: as a number, "1" or "-0" would read back as a known value (`Role::User`,
/// `Role::Unspecified`), "01" and "+7" as another unknown one.
#[test]
fn unknown_enum_strings_that_look_like_numbers_stay_strings() {
    for name in ["1", "-0", "0", "01", "+7", "7 "] {
        let role: Role = decode(json!(name)).unwrap();
        assert_eq!(role, Role::Unrecognized(name.into()), "{name:?}");
        let wire = serde_json::to_value(&role).unwrap();
        assert_eq!(wire, json!(name), "{name:?} re-encoded as {wire}");
        assert_eq!(decode::<Role>(wire).unwrap(), role, "{name:?}");
    }
    // The canonical form of an unknown number cannot be told from that number once decoded (the
    // variant holds a string either way): it goes back as the number, and reads back the same.
    for name in ["-1", "9223372036854775807"] {
        let role: Role = decode(json!(name)).unwrap();
        let wire = serde_json::to_value(&role).unwrap();
        assert!(wire.is_number(), "{name:?} re-encoded as {wire}");
        assert_eq!(decode::<Role>(wire).unwrap(), role, "{name:?}");
    }
    // An unknown number still goes back as that number, in both versions' enums.
    let role: Role = decode(json!(7)).unwrap();
    assert_eq!(serde_json::to_value(&role).unwrap(), json!(7));
    let state: a2a_types::v0_3::TaskState = decode(json!("1")).unwrap();
    assert_eq!(serde_json::to_value(&state).unwrap(), json!("1"));
}

#[test]
fn enum_helpers_map_names_and_numbers() {
    assert_eq!(
        TaskState::from_name("TASK_STATE_INPUT_REQUIRED"),
        TaskState::InputRequired
    );
    assert_eq!(TaskState::InputRequired.number(), Some(6));
    assert_eq!(TaskState::from_number(8), TaskState::AuthRequired);
    assert_eq!(Role::default(), Role::Unspecified);
    assert_eq!(TaskState::KNOWN.len(), 9);
    assert_eq!(Role::Agent.to_string(), "ROLE_AGENT");
}

#[test]
fn part_with_two_content_members_is_an_error_naming_the_type() {
    let err = decode::<Part>(json!({"text": "a", "url": "https://x"})).unwrap_err();
    assert!(
        err.contains("Part") && err.contains("`text`") && err.contains("`url`"),
        "{err}"
    );
}

#[test]
fn a_part_with_no_content_or_a_content_this_version_does_not_know_is_kept() {
    let p: Part = decode(json!({"mediaType": "text/plain"})).unwrap();
    assert_eq!(p.content, PartContent::Unknown(UnknownMember::default()));
    assert_eq!(p.media_type.as_deref(), Some("text/plain"));
    let p: Part = decode(json!({"hologram": {"frames": 3}, "filename": "h.holo"})).unwrap();
    assert_eq!(p.content.member_name(), Some("hologram"));
    assert_eq!(p.filename.as_deref(), Some("h.holo"));
    // Inside a Task: the one new part does not sink the task or its other parts.
    let mut body = task(json!({"state": "TASK_STATE_COMPLETED"}));
    body["artifacts"] = json!([{"artifactId": "a", "parts": [{"hologram": {}}, {"text": "hi"}]}]);
    let t: Task = decode(body).unwrap();
    let parts = &t.artifacts[0].parts;
    assert_eq!(parts[0].content.member_name(), Some("hologram"));
    assert_eq!(parts[1].content, PartContent::Text("hi".into()));
}

#[test]
fn oneof_wrappers_reject_two_known_members_and_keep_unknown_ones_and_none() {
    let msg = json!({"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "x"}]});
    let err = decode::<StreamResponse>(json!({"message": msg, "task": task(json!({"state": 1}))}))
        .unwrap_err();
    assert!(
        err.contains("StreamResponse: at most one of")
            && err.contains("found `message` and `task`"),
        "{err}"
    );
    let r = decode::<SendMessageResponse>(json!({})).unwrap();
    assert_eq!(r, SendMessageResponse::Unknown(UnknownMember::default()));
    let s = decode::<SecurityScheme>(json!({"somethingElse": {}})).unwrap();
    assert_eq!(s.member_name(), Some("somethingElse"));
    // A known member beside an unknown one wins, as in protobuf.
    let s = decode::<StreamResponse>(json!({"futureEvent": {}, "message": msg})).unwrap();
    assert!(matches!(s, StreamResponse::Message(_)), "{s:?}");
}

#[test]
fn oneof_member_equal_to_null_is_absent_except_for_values() {
    // `data` is a google.protobuf.Value: null is a value and sets the member.
    let p: Part = decode(json!({"data": null})).unwrap();
    assert_eq!(p.content, PartContent::Data(Value::Null));
    // `text` null means absent; with `url` also present there is exactly one member.
    let p: Part = decode(json!({"text": null, "url": "https://x"})).unwrap();
    assert_eq!(p.content, PartContent::Url("https://x".into()));
}

#[test]
fn absent_or_null_required_messages_decode_to_their_default_as_protobuf_reads_them() {
    let t: Task = decode(json!({"id": "t"})).unwrap();
    assert_eq!((t.id.as_str(), &t.status), ("t", &TaskStatus::default()));
    let t: Task = decode(json!({"id": "t", "status": null})).unwrap();
    assert_eq!(t.status.state, TaskState::Unspecified);
    let e: TaskStatusUpdateEvent = decode(json!({"taskId": "t", "contextId": "c"})).unwrap();
    assert_eq!(e.status, TaskStatus::default());
    // An agent that never set its capabilities serves a card without them.
    let card: AgentCard = decode(json!({"name": "a", "version": "1"})).unwrap();
    assert_eq!(card.capabilities, AgentCapabilities::default());
    // Encoding still writes them.
    let back = serde_json::to_value(&t).unwrap();
    assert_eq!(back["status"], json!({"state": "TASK_STATE_UNSPECIFIED"}));
}

#[test]
fn absent_required_scalars_and_lists_decode_to_defaults() {
    // The last page of ListTasks: ProtoJSON writers drop the empty token and zero counts.
    let r: ListTasksResponse = decode(json!({"tasks": []})).unwrap();
    assert_eq!(
        (r.next_page_token.as_str(), r.page_size, r.total_size),
        ("", 0, 0)
    );
    let t: Task = decode(json!({"status": {}})).unwrap();
    assert_eq!(
        (t.id.as_str(), &t.status.state),
        ("", &TaskState::Unspecified)
    );
}

#[test]
fn required_fields_are_always_encoded() {
    let r = ListTasksResponse::default();
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"tasks": [], "nextPageToken": "", "pageSize": 0, "totalSize": 0})
    );
}

#[test]
fn optional_and_repeated_fields_are_omitted_when_unset() {
    let m = Message {
        message_id: "m".into(),
        role: Role::User,
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"messageId": "m", "role": "ROLE_USER", "parts": []})
    );
}

#[test]
fn snake_case_names_are_accepted_as_aliases() {
    let t: Task =
        decode(json!({"id": "t", "context_id": "c", "status": {"state": "TASK_STATE_WORKING"}}))
            .unwrap();
    assert_eq!(t.context_id.as_deref(), Some("c"));
    let s: SecurityScheme =
        decode(json!({"api_key_security_scheme": {"location": "header", "name": "k"}})).unwrap();
    assert!(matches!(s, SecurityScheme::ApiKeySecurityScheme(_)));
    // Encoding always uses the lowerCamelCase name.
    assert_eq!(serde_json::to_value(&t).unwrap()["contextId"], "c");
}

#[test]
fn null_members_mean_absent() {
    let t: Task =
        decode(json!({"id": "t", "contextId": null, "artifacts": null, "status": {"state": null}}))
            .unwrap();
    assert_eq!(t.context_id, None);
    assert!(t.artifacts.is_empty());
    assert_eq!(t.status.state, TaskState::Unspecified);
}

#[test]
fn int32_accepts_protojson_strings_and_rejects_out_of_range() {
    let r: GetTaskRequest = decode(json!({"id": "t", "historyLength": "5"})).unwrap();
    assert_eq!(r.history_length, Some(5));
    let r: GetTaskRequest = decode(json!({"id": "t", "historyLength": 5.0})).unwrap();
    assert_eq!(r.history_length, Some(5));
    let err =
        decode::<GetTaskRequest>(json!({"id": "t", "historyLength": 2147483648i64})).unwrap_err();
    assert!(err.contains("out of range"), "{err}");
    assert!(decode::<GetTaskRequest>(json!({"id": "t", "historyLength": 1.5})).is_err());
}

#[test]
fn an_odd_timestamp_does_not_sink_the_task() {
    let t: Task = decode(task(json!({"state": 3, "timestamp": "yesterday-ish"}))).unwrap();
    let ts = t.status.timestamp.as_ref().unwrap();
    assert_eq!(ts.as_str(), "yesterday-ish");
    assert!(ts.parse().is_err());
    assert_eq!(
        serde_json::to_value(&t).unwrap()["status"]["timestamp"],
        "yesterday-ish"
    );
    let t: Task = decode(task(
        json!({"state": 3, "timestamp": "2026-11-30T22:43:05.583531Z"}),
    ))
    .unwrap();
    assert_eq!(
        t.status.timestamp.unwrap().parse().unwrap().nanos,
        583_531_000
    );
}

#[test]
fn bytes_accept_url_safe_base64_and_encode_standard() {
    let p: Part = decode(json!({"raw": "-_8"})).unwrap();
    assert_eq!(p.content, PartContent::Raw(vec![0xfb, 0xff].into()));
    assert_eq!(serde_json::to_value(&p).unwrap()["raw"], "+/8=");
    let err = decode::<Part>(json!({"raw": "not base64!"})).unwrap_err();
    assert!(err.contains("base64"), "{err}");
}

#[test]
fn wrong_json_types_are_errors_not_panics() {
    assert!(decode::<Task>(json!({"id": 5, "status": {}})).is_err());
    assert!(decode::<Task>(json!([])).is_err());
    assert!(decode::<Task>(json!("task")).is_err());
    let err = decode::<AgentCard>(json!({"skills": {}})).unwrap_err();
    assert!(err.contains("sequence") || err.contains("array"), "{err}");
}

#[test]
fn duplicate_members_keep_the_last_value() {
    let t: Task = serde_json::from_str(r#"{"id":"a","id":"b","status":{}}"#).unwrap();
    assert_eq!(t.id, "b");
}

#[test]
fn unknown_members_are_ignored_at_every_depth() {
    let v = json!({"id": "t", "new": {"deep": [1]}, "status": {"state": 2, "x": null,
        "message": {"messageId": "m", "role": 1, "parts": [{"text": "a", "y": true}], "z": "q"}}});
    let t: Task = decode(v).unwrap();
    assert_eq!(
        t.status.message.unwrap().parts[0].content,
        PartContent::Text("a".into())
    );
}

#[test]
fn empty_decodes_from_any_object() {
    let _: Empty = decode(json!({"whatever": [1, 2]})).unwrap();
    assert_eq!(serde_json::to_value(Empty::default()).unwrap(), json!({}));
}
