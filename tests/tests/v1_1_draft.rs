//! The A2A v1.1 draft module (`a2a_types::v1_1_draft`, feature `v1_1_draft`): its generation
//! fields, the first 64-bit integers of A2A, decode from the string and the number form and are
//! written as decimal strings; a bad one is a decode error naming the field; -32010 is the typed
//! `TaskGenerationMismatch`; and v1 peers and draft peers read each other.

use a2a_types::rt::RequestId;
use a2a_types::v1_1_draft::{
    decode_reply, decode_request, encode_error, encode_result, method, A2aError, CallError,
    GetTaskRequest, Request, SendMessageConfiguration, StreamResponse, Task,
    TaskArtifactUpdateEvent, TaskStatusUpdateEvent,
};
use proptest::prelude::*;
use serde_json::{json, Value};

fn reply(result: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "result": result})).unwrap()
}

fn malformed(result: Value) -> String {
    match decode_reply::<method::GetTask>(&reply(result)) {
        Err(CallError::Malformed(e)) => e.reason().to_string(),
        other => panic!("expected malformed, got {other:?}"),
    }
}

#[test]
fn task_generation_reads_the_string_and_the_number_form() {
    for generation in [
        json!("7"),
        json!(7),
        json!(7.0),
        json!("7.0"),
        json!("+7"),
        json!("7e0"),
    ] {
        let task = decode_reply::<method::GetTask>(&reply(
            json!({"id": "t", "status": {}, "generation": generation}),
        ))
        .unwrap_or_else(|e| panic!("{generation}: {e:?}"));
        assert_eq!(task.generation, Some(7), "{generation}");
    }
    // Absent, or null: not kept by this server (proto3 reads both as 0; here, `None`).
    for task in [json!({"id": "t"}), json!({"id": "t", "generation": null})] {
        let task: Task = serde_json::from_value(task).unwrap();
        assert_eq!(task.generation, None);
    }
    // The snake_case proto name is accepted too.
    let task: Task = serde_json::from_value(json!({"id": "t", "generation": "1"})).unwrap();
    assert_eq!(task.generation, Some(1));
}

#[test]
fn generations_are_written_as_decimal_strings() {
    let task = Task {
        id: "t".into(),
        generation: Some(i64::MAX),
        ..Task::default()
    };
    let json = serde_json::to_value(&task).unwrap();
    assert_eq!(json["generation"], json!("9223372036854775807"));
    let back: Task = serde_json::from_value(json).unwrap();
    assert_eq!(back, task);
    // `None` is not written at all.
    let json = serde_json::to_value(Task::default()).unwrap();
    assert!(json.get("generation").is_none(), "{json}");

    let config = SendMessageConfiguration {
        if_generation_match: Some(-1),
        ..SendMessageConfiguration::default()
    };
    assert_eq!(
        serde_json::to_value(&config).unwrap(),
        json!({"ifGenerationMatch": "-1"})
    );
    let request = GetTaskRequest {
        id: "t".into(),
        current_generation: Some(0),
        ..GetTaskRequest::default()
    };
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({"id": "t", "currentGeneration": "0"})
    );
}

#[test]
fn the_update_events_carry_their_generation_in_both_forms() {
    let status: StreamResponse = serde_json::from_value(json!({"statusUpdate": {
        "taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}, "generation": "2"}}))
    .unwrap();
    let StreamResponse::StatusUpdate(TaskStatusUpdateEvent { generation, .. }) = status else {
        panic!("{status:?}")
    };
    assert_eq!(generation, Some(2));
    let artifact: StreamResponse = serde_json::from_value(json!({"artifactUpdate": {
        "taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]},
        "generation": 3}}))
    .unwrap();
    let StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent { generation, .. }) = &artifact
    else {
        panic!("{artifact:?}")
    };
    assert_eq!(*generation, Some(3));
    let json = serde_json::to_value(&artifact).unwrap();
    assert_eq!(json["artifactUpdate"]["generation"], json!("3"));
}

#[test]
fn a_bad_generation_is_malformed_naming_the_field_and_why() {
    for (generation, why) in [
        (json!("7.5"), "is not an integer, as int64 requires"),
        (json!(7.5), "is not an integer, as int64 requires"),
        (json!("1e-3"), "is not an integer, as int64 requires"),
        (json!("9223372036854775808"), "out of range for int64"),
        (json!(9223372036854775808_u64), "out of range for int64"),
        (json!("-9223372036854775809"), "out of range for int64"),
        (json!(""), "invalid int64 string \"\""),
        (json!("seven"), "invalid int64 string \"seven\""),
        (
            json!(true),
            "invalid type: boolean `true`, expected an int64",
        ),
    ] {
        let reason = malformed(json!({"id": "t", "status": {}, "generation": generation}));
        assert!(
            reason.contains("at `result.generation`") && reason.contains(why),
            "{generation}: {reason}"
        );
    }
    // Inside a stream event, the path goes through the oneof member.
    let body = reply(
        json!({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {}, "generation": "x"}}),
    );
    match a2a_types::v1_1_draft::Decoder::new().decode::<StreamResponse>(&body) {
        Err(CallError::Malformed(e)) => assert!(
            e.reason().contains("statusUpdate.generation"),
            "{}",
            e.reason()
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn minus_32010_is_task_generation_mismatch() {
    let body =
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"generation is 9, not 7"}}"#;
    match decode_reply::<method::SendMessage>(body) {
        Err(CallError::Agent(A2aError::TaskGenerationMismatch { message, data })) => {
            assert_eq!(message, "generation is 9, not 7");
            assert_eq!(data, None);
        }
        other => panic!("{other:?}"),
    }
    let e = A2aError::from_code(-32010, None, None);
    assert_eq!(e.name(), "TaskGenerationMismatch");
    assert_eq!(e.message(), "Task generation mismatch");
    assert_eq!((e.grpc_status(), e.http_status()), ("ABORTED", 409));
    let row = e.row().unwrap();
    assert_eq!(row.spec_name, "TaskGenerationMismatchError");
    assert_eq!(row.reason, Some("TASK_GENERATION_MISMATCH"));
    // What a draft agent sends, with its ErrorInfo, decodes back to the variant.
    let info = e.error_info([("taskId", "t-1")]);
    let sent = encode_error(&RequestId::from(5), &e.with_details(info));
    let value: Value = serde_json::from_slice(&sent).unwrap();
    assert_eq!(value["error"]["code"], -32010);
    assert_eq!(
        value["error"]["data"][0]["reason"],
        "TASK_GENERATION_MISMATCH"
    );
    match decode_reply::<method::SendMessage>(&sent) {
        Err(CallError::Agent(back @ A2aError::TaskGenerationMismatch { .. })) => {
            assert_eq!(back.details().len(), 1)
        }
        other => panic!("{other:?}"),
    }
    // A v1.0.1 client has no row for it: `Other`, keeping the code and message.
    match a2a_types::v1::decode_reply::<a2a_types::v1::method::SendMessage>(&sent) {
        Err(a2a_types::v1::CallError::Agent(other)) => {
            assert_eq!((other.name(), other.code()), ("Other", -32010))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_server_side_reads_the_request_fields_and_names_a_bad_one() {
    let body = br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t","currentGeneration":"41"}}"#;
    let incoming = decode_request(body).unwrap();
    let Request::GetTask(params) = incoming.request else {
        panic!("{:?}", incoming.request)
    };
    assert_eq!(params.current_generation, Some(41));

    let body = br#"{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"ifGenerationMatch":6}}}"#;
    let Request::SendMessage(params) = decode_request(body).unwrap().request else {
        panic!()
    };
    assert_eq!(params.configuration.unwrap().if_generation_match, Some(6));

    let body = br#"{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"t","currentGeneration":"1.5"}}"#;
    let rejected = decode_request(body).unwrap_err();
    assert_eq!(rejected.error.code(), -32602);
    assert!(
        rejected.error.message().contains("currentGeneration"),
        "{}",
        rejected.error.message()
    );
}

/// The draft only adds fields: v1 traffic decodes under it, and what a draft peer writes
/// (generations as strings) decodes under v1, which skips the unknown members.
#[test]
fn v1_and_the_draft_read_each_other() {
    let draft_task = Task {
        id: "t".into(),
        generation: Some(12),
        ..Task::default()
    };
    let body = encode_result::<method::GetTask>(&RequestId::from(1), &draft_task);
    let v1_task = a2a_types::v1::decode_reply::<a2a_types::v1::method::GetTask>(&body).unwrap();
    assert_eq!(v1_task.id, "t");
    let v1_body = a2a_types::v1::encode_result::<a2a_types::v1::method::GetTask>(
        &RequestId::from(1),
        &v1_task,
    );
    let back = decode_reply::<method::GetTask>(&v1_body).unwrap();
    assert_eq!(back.generation, None);
    assert_eq!(back.id, "t");
}

proptest! {
    /// Any int64 round-trips through a generated type's field, written as a string and read from
    /// the string or the number form.
    #[test]
    fn task_generation_round_trips_at_any_value(v in prop_oneof![
        Just(i64::MIN), Just(i64::MAX), Just(0_i64), Just(-1_i64), any::<i64>()
    ]) {
        let task = Task { id: "t".into(), generation: Some(v), ..Task::default() };
        let json = serde_json::to_value(&task).unwrap();
        prop_assert_eq!(&json["generation"], &json!(v.to_string()));
        prop_assert_eq!(serde_json::from_value::<Task>(json).unwrap(), task.clone());
        let number = json!({"id": "t", "generation": v});
        prop_assert_eq!(serde_json::from_value::<Task>(number).unwrap(), task);
    }

    /// One past either end of the range, in either form, is an error, never a wrapped value.
    #[test]
    fn one_past_the_range_is_refused(high in any::<bool>(), quoted in any::<bool>()) {
        let n: i128 = if high { i128::from(i64::MAX) + 1 } else { i128::from(i64::MIN) - 1 };
        let text = if quoted { format!("\"{n}\"") } else { n.to_string() };
        let json = format!(r#"{{"id":"t","generation":{text}}}"#);
        let err = serde_json::from_str::<Task>(&json).unwrap_err().to_string();
        prop_assert!(err.contains("out of range for int64"), "{}: {}", json, err);
    }
}

/// `spec/v1_1_draft` is `spec/v1` plus exactly the fields the draft proto adds (read from the
/// `git diff` of the proto kept in shared/): same messages, each new field an int64 at the end of
/// its message, none REQUIRED; and nothing else in the data model changes.
#[test]
fn the_draft_schema_adds_exactly_the_fields_of_the_draft_proto() {
    use a2a_codegen::ir::{Presence, TypeKind, TypeRef};
    let root = a2a_tests::workspace_root();
    let load = |dir: &str| {
        a2a_codegen::Config::new(root.join(dir))
            .source_label(dir)
            .model()
            .unwrap()
    };
    let (v1, draft) = (load("spec/v1"), load("spec/v1_1_draft"));
    let mut added = Vec::new();
    for (name, def) in &draft.types {
        let old = &v1.types[name];
        let (TypeKind::Struct(new), TypeKind::Struct(was)) = (&def.kind, &old.kind) else {
            assert_eq!(def.kind, old.kind, "{name}");
            continue;
        };
        assert_eq!(
            new.fields[..was.fields.len()],
            was.fields[..],
            "{name}: v1's fields first, unchanged"
        );
        assert_eq!(
            (&new.consts, &new.oneof),
            (&was.consts, &was.oneof),
            "{name}"
        );
        for field in &new.fields[was.fields.len()..] {
            assert_eq!(field.ty, TypeRef::Int64, "{name}.{}", field.json_name);
            assert_eq!(
                field.presence,
                Presence::Optional,
                "{name}.{}",
                field.json_name
            );
            added.push((
                name.clone(),
                field.alias.clone().unwrap_or(field.json_name.clone()),
            ));
        }
    }
    assert_eq!(draft.types.len(), v1.types.len());
    assert_eq!(draft.methods, v1.methods);
    assert_eq!(added.len(), 5, "{added:?}");

    let Some(path) = a2a_tests::shared_path(
        "the v1.1 draft's proto changes",
        "a2a-spec/v1.1-draft/a2a.proto.diff-from-v1.0.1",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut message = String::new();
    let mut in_proto = Vec::new();
    for line in text.lines() {
        if let Some(header) = line.strip_prefix("@@") {
            // `@@ -158,6 +158,12 @@ message SendMessageConfiguration {`
            message = header
                .split("message ")
                .nth(1)
                .and_then(|m| m.split_whitespace().next())
                .unwrap_or_default()
                .to_string();
        } else if let Some(added_line) = line.strip_prefix('+') {
            let code = added_line.trim();
            if code.starts_with("//") || code.is_empty() || line.starts_with("+++") {
                continue;
            }
            assert!(!code.contains("REQUIRED"), "{code}");
            let words: Vec<&str> = code.split_whitespace().collect();
            let ty_at = usize::from(words[0] == "optional");
            assert_eq!(words[ty_at], "int64", "{code}");
            in_proto.push((message.clone(), words[ty_at + 1].to_string()));
        }
    }
    added.sort();
    in_proto.sort();
    assert_eq!(added, in_proto);
}
