//! The `classify` example (in this crate, `tests/examples/`) implements the contract of
//! `shared/envelope-cases/README.md`: run on the seed cases, every case gives its `expect`.
//!
//! `cargo test` builds the workspace's examples before running tests; this finds the binary
//! beside the test executable's own directory.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn classify_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let bin = dir
        .join("examples")
        .join(format!("classify{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run `cargo test --workspace` (it builds examples)",
        bin.display()
    );
    bin
}

fn run(args: &[&std::path::Path]) -> (i32, Vec<Value>, String) {
    let out = Command::new(classify_binary()).args(args).output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        out.status.code().unwrap_or(-1),
        lines,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn classify_gives_every_seed_case_its_expected_outcome() {
    let Some(seed) =
        a2a_tests::shared_path("classify on the seed cases", "envelope-cases/seed.json")
    else {
        return;
    };
    let cases: Vec<Value> = serde_json::from_slice(&std::fs::read(&seed).unwrap()).unwrap();
    let (status, lines, stderr) = run(&[&seed]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(lines.len(), cases.len());
    assert_eq!(cases.len(), 8);
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(line["name"], case["name"]);
        for (key, want) in case["expect"].as_object().unwrap() {
            assert_eq!(&line[key], want, "{}: {key} in {line}", case["name"]);
        }
        match line["outcome"].as_str().unwrap() {
            "malformed" => assert!(line["reason"].as_str().is_some_and(|r| !r.is_empty())),
            "error" => assert!(line["variant"].is_string() && line["code"].is_i64()),
            "ok" => {}
            other => panic!("unknown outcome {other}"),
        }
        if case["kind"] == "stream" {
            assert!(line["events"].is_u64(), "{line}");
        }
    }
}

#[test]
fn classify_handles_chunks_bytes_plain_json_streams_and_unreadable_cases() {
    let cases = serde_json::json!([
        {"name": "chunked-stream", "kind": "stream", "method": "SendStreamingMessage",
         "body": ["data: {\"result\": {\"statusUpdate\": {\"taskId\": \"t\", \"contextId\": \"c\", \"status\": {\"state\": \"TASK_ST",
                  "ATE_WORKING\"}}}}\r", "\n\r\ndata: {\"result\": {\"message\": {\"messageId\": \"m\", \"role\": \"ROLE_AGENT\", \"parts\": [{\"text\": \"\u{2028}\"}]}}}\n\n"]},
        {"name": "bom-bytes", "kind": "unary", "method": "GetTask", "body_b64": "77u/eyJyZXN1bHQiOnsiaWQiOiJ0Iiwic3RhdHVzIjp7fX19"},
        {"name": "bad-b64", "kind": "unary", "method": "GetTask", "body_b64": "***"},
        {"name": "plain-json-stream", "kind": "stream", "method": "SendStreamingMessage", "content_type": "application/json",
         "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task no-such-task not found\"}}"},
        {"name": "unknown-code", "kind": "unary", "method": "CancelTask", "body": "{\"error\":{\"code\":-32050}}"},
        {"name": "cut-off", "kind": "stream", "method": "SubscribeToTask", "body": "data: {\"result\""}
    ]);
    let path = std::env::temp_dir().join(format!("classify-cases-{}.json", std::process::id()));
    std::fs::write(&path, cases.to_string()).unwrap();
    let (status, lines, stderr) = run(&[&path]);
    assert_eq!(status, 0, "{stderr}");
    let get = |i: usize, k: &str| lines[i][k].clone();
    assert_eq!(
        (get(0, "outcome"), get(0, "events")),
        ("ok".into(), 2.into())
    );
    assert_eq!(
        (get(1, "outcome"), get(1, "result")),
        ("ok".into(), "Task".into())
    );
    assert_eq!(get(2, "outcome"), "malformed");
    assert!(get(2, "reason").as_str().unwrap().contains("base64"));
    assert_eq!(
        (get(3, "outcome"), get(3, "variant"), get(3, "events")),
        ("error".into(), "TaskNotFound".into(), 0.into())
    );
    assert_eq!(
        (get(4, "variant"), get(4, "code")),
        ("Other".into(), (-32050).into())
    );
    assert_eq!(get(5, "outcome"), "malformed");

    std::fs::write(
        &path,
        r#"[{"name":"x","kind":"unary","method":"NoSuchMethod","body":"{}"}]"#,
    )
    .unwrap();
    let (status, _, stderr) = run(&[&path]);
    assert_eq!(status, 2);
    assert!(stderr.contains("unknown method `NoSuchMethod`"), "{stderr}");
    let _ = std::fs::remove_file(&path);
}

/// The seed cases under v0.3's method names (`tasks/get`, `message/stream`), run with
/// `--spec v0_3`, give the same outcomes as the v1 originals.
#[test]
fn the_seed_cases_under_v0_3_names_give_the_same_outcomes() {
    let Some(seed) = a2a_tests::shared_path("classify --spec v0_3", "envelope-cases/seed.json")
    else {
        return;
    };
    let mut cases: Vec<Value> = serde_json::from_slice(&std::fs::read(&seed).unwrap()).unwrap();
    for case in &mut cases {
        let v1_name = case["method"].as_str().unwrap().to_string();
        // The v0.3 methods carry the v1 names as their Rust names.
        let method = a2a_types::v0_3::MethodName::ALL
            .into_iter()
            .find(|m| format!("{m:?}") == v1_name)
            .unwrap_or_else(|| panic!("no v0.3 method for {v1_name}"));
        assert_ne!(method.as_str(), v1_name);
        case["method"] = Value::from(method.as_str());
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("seed-v0_3.json");
    std::fs::write(&path, serde_json::to_vec(&cases).unwrap()).unwrap();

    let out = Command::new(classify_binary())
        .args(["--spec".as_ref(), "v0_3".as_ref(), path.as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (_, v1_lines, _) = run(&[&seed]);
    assert_eq!(lines.len(), 8);
    for ((case, line), v1_line) in cases.iter().zip(&lines).zip(&v1_lines) {
        for (key, want) in case["expect"].as_object().unwrap() {
            assert_eq!(&line[key], want, "{}: {key} in {line}", case["name"]);
        }
        assert_eq!(line["outcome"], v1_line["outcome"], "{}", case["name"]);
    }
    // v1 names are unknown to the v0.3 module: the tool says so.
    let out = Command::new(classify_binary())
        .args(["--spec".as_ref(), "v0_3".as_ref(), seed.as_os_str()])
        .output()
        .unwrap();
    let (status, stderr) = (out.status.code(), String::from_utf8_lossy(&out.stderr));
    assert_eq!(status, Some(2));
    assert!(stderr.contains("unknown method `GetTask`"), "{stderr}");
}

/// `--spec v1_1_draft`: the seed cases (v1 method names, which the draft keeps) give the outcomes
/// they give under v1, and a -32010 reply is the draft's `TaskGenerationMismatch` where v1 has no
/// row for it (`Other`).
#[test]
fn classify_spec_v1_1_draft_reads_v1_traffic_the_same_and_knows_minus_32010() {
    let extra = serde_json::json!([
        {"name": "mismatch", "kind": "unary", "method": "SendMessage",
         "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32010,\"message\":\"generation moved\"}}"},
        {"name": "generation-string", "kind": "unary", "method": "GetTask",
         "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"t\",\"status\":{},\"generation\":\"7\"}}"},
        {"name": "generation-fraction", "kind": "unary", "method": "GetTask",
         "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"t\",\"status\":{},\"generation\":7.5}}"}
    ]);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("classify-draft.json");
    std::fs::write(&path, extra.to_string()).unwrap();
    let draft = |files: &[&std::path::Path]| {
        let out = Command::new(classify_binary())
            .arg("--spec")
            .arg("v1_1_draft")
            .args(files)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let lines = draft(&[&path]);
    assert_eq!(
        (
            &lines[0]["outcome"],
            &lines[0]["variant"],
            &lines[0]["code"]
        ),
        (
            &Value::from("error"),
            &Value::from("TaskGenerationMismatch"),
            &Value::from(-32010)
        )
    );
    assert_eq!(
        (&lines[1]["outcome"], &lines[1]["result"]),
        (&Value::from("ok"), &Value::from("Task"))
    );
    assert_eq!(lines[2]["outcome"], "malformed");
    let reason = lines[2]["reason"].as_str().unwrap();
    assert!(
        reason.contains("at `result.generation`") && reason.contains("is not an integer"),
        "{reason}"
    );
    // v1 has no -32010 row, and ignores `generation` as an unknown member.
    let (_, v1_lines, _) = run(&[&path]);
    assert_eq!(
        (&v1_lines[0]["variant"], &v1_lines[2]["outcome"]),
        (&Value::from("Other"), &Value::from("ok"))
    );

    let Some(seed) =
        a2a_tests::shared_path("classify --spec v1_1_draft", "envelope-cases/seed.json")
    else {
        return;
    };
    let (_, v1_lines, _) = run(&[&seed]);
    let lines = draft(&[&seed]);
    assert_eq!(lines, v1_lines);
}

fn classify_request_binary() -> PathBuf {
    classify_binary().with_file_name(format!("classify_request{}", std::env::consts::EXE_SUFFIX))
}

/// `classify_request` takes `"spec": "v1_1_draft"`: the generation fields decode in both forms,
/// and a bad one is -32602 naming the field.
#[test]
fn classify_request_reads_the_v1_1_draft() {
    let cases = serde_json::json!([
        {"name": "long-poll", "spec": "v1_1_draft",
         "body": {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t", "currentGeneration": "7"}}},
        {"name": "guarded", "spec": "v1_1_draft",
         "body": {"jsonrpc": "2.0", "id": 2, "method": "SendMessage", "params": {
             "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
             "configuration": {"ifGenerationMatch": 3}}}},
        {"name": "fraction", "spec": "v1_1_draft",
         "body": {"jsonrpc": "2.0", "id": 3, "method": "GetTask", "params": {"id": "t", "currentGeneration": "7.5"}}},
        {"name": "v1-ignores-it", "spec": "v1",
         "body": {"jsonrpc": "2.0", "id": 4, "method": "GetTask", "params": {"id": "t", "currentGeneration": "7.5"}}}
    ]);
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("classify-request-draft.json");
    std::fs::write(&path, cases.to_string()).unwrap();
    let out = Command::new(classify_request_binary())
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (&lines[0]["outcome"], &lines[0]["reason"]),
        (&Value::from("accepted"), &Value::from("GetTask"))
    );
    assert_eq!(lines[1]["outcome"], "accepted");
    assert_eq!(
        (&lines[2]["outcome"], &lines[2]["code"]),
        (&Value::from("refused"), &Value::from(-32602))
    );
    let reason = lines[2]["reason"].as_str().unwrap();
    assert!(reason.contains("currentGeneration"), "{reason}");
    assert_eq!(lines[3]["outcome"], "accepted");
}

/// Runs `binary` with `args` and parses its lines; panics unless it exits 0.
fn lines_of(binary: PathBuf, args: &[&std::ffi::OsStr]) -> Vec<Value> {
    let out = Command::new(binary).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every member of each case's `expect` is in its line (`params` compared whole).
fn check_expectations(cases: &[Value], lines: &[Value]) {
    assert_eq!(lines.len(), cases.len());
    for (case, line) in cases.iter().zip(lines) {
        assert_eq!(line["name"], case["name"]);
        for (key, want) in case["expect"].as_object().unwrap() {
            assert_eq!(&line[key], want, "{}: {key} in {line}", case["name"]);
        }
    }
}

fn rest_seed(file: &str) -> (PathBuf, Vec<Value>) {
    let path = a2a_tests::workspace_root()
        .join("tests/examples/cases")
        .join(file);
    let cases = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, cases)
}

/// `classify --binding rest` on the REST seed cases (`tests/examples/cases/rest.json`): a result,
/// an error named by its reason, the catch-all, problem+json, an HTML 502, a stream with an
/// `error` event, ...; each gives its `expect`, under v1 and the v1.1 draft alike.
#[test]
fn classify_binding_rest_gives_every_rest_seed_case_its_expected_outcome() {
    let (path, cases) = rest_seed("rest.json");
    assert!(cases.len() >= 6);
    for spec in ["v1", "v1_1_draft"] {
        let lines = lines_of(
            classify_binary(),
            &[
                "--spec".as_ref(),
                spec.as_ref(),
                "--binding".as_ref(),
                "rest".as_ref(),
                path.as_os_str(),
            ],
        );
        check_expectations(&cases, &lines);
        for (case, line) in cases.iter().zip(&lines) {
            match line["outcome"].as_str().unwrap() {
                "error" => assert!(
                    line["variant"].is_string() && line["code"].is_i64() && line["status"].is_u64(),
                    "{line}"
                ),
                "malformed" => assert!(line["reason"].as_str().is_some_and(|r| !r.is_empty())),
                "ok" => {}
                other => panic!("unknown outcome {other}"),
            }
            if case["kind"] == "stream" {
                assert!(line["events"].is_u64(), "{line}");
            }
        }
    }
    // The binding's options: v0.3 has no REST module, and a bad value is refused.
    for args in [
        ["--spec", "v0_3", "--binding", "rest"],
        ["--spec", "v1", "--binding", "grpc"],
    ] {
        let out = Command::new(classify_binary())
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A REST case that cannot be read (a status that is not one) is malformed, not a tool error;
/// `content_type: ""` is no header, so a stream case without one is read as one plain body.
#[test]
fn classify_binding_rest_reads_status_and_content_type_as_the_contract_says() {
    let cases = serde_json::json!([
        {"name": "bad-status", "kind": "unary", "method": "GetTask", "status": 42, "body": "{}"},
        {"name": "no-header-stream", "kind": "stream", "method": "SubscribeToTask", "content_type": "",
         "body": "{\"task\": {\"id\": \"t\"}}"},
        {"name": "default-is-sse", "kind": "stream", "method": "SubscribeToTask",
         "body": "data: {\"task\": {\"id\": \"t\"}}\n\ndata: {\"message\": {\"messageId\": \"m\"}}\n\n"},
        {"name": "201", "kind": "unary", "method": "CreateTaskPushNotificationConfig", "status": 201,
         "body": "{\"taskId\": \"t\", \"url\": \"https://hook.example\"}"}
    ]);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("classify-rest.json");
    std::fs::write(&path, cases.to_string()).unwrap();
    let lines = lines_of(
        classify_binary(),
        &["--binding".as_ref(), "rest".as_ref(), path.as_os_str()],
    );
    assert_eq!(lines[0]["outcome"], "malformed");
    assert!(lines[0]["reason"].as_str().unwrap().contains("`status`"));
    assert_eq!(
        (&lines[1]["outcome"], &lines[1]["events"]),
        (&"ok".into(), &1.into())
    );
    assert_eq!(
        (&lines[2]["outcome"], &lines[2]["events"]),
        (&"ok".into(), &2.into())
    );
    assert_eq!(lines[3]["result"], "TaskPushNotificationConfig");
}

/// `classify_request --binding rest` on the REST request seed cases
/// (`tests/examples/cases/rest-requests.json`): typed requests with their params (a tenant from
/// the path), and refusals with their HTTP status (404, 405, 400).
#[test]
fn classify_request_binding_rest_gives_every_seed_case_its_expected_outcome() {
    let (path, cases) = rest_seed("rest-requests.json");
    let lines = lines_of(
        classify_request_binary(),
        &["--binding".as_ref(), "rest".as_ref(), path.as_os_str()],
    );
    check_expectations(&cases, &lines);
    for line in &lines {
        match line["outcome"].as_str().unwrap() {
            "accepted" => assert!(line["code"].is_null() && line["params"].is_object()),
            "refused" => assert!(line["status"].is_u64() && line["reason"].is_string()),
            other => panic!("unknown outcome {other}"),
        }
    }
}
