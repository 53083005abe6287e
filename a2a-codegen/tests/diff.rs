//! `a2a-codegen diff` and `a2a-codegen ir`, through the library and as a real process: one
//! fixture pair per classification rule (tests/fixtures/diff/rules), the A2A v1.0.0 -> v1.0.1
//! error-table change, spec/v1 against itself, bad inputs, the IR dump, and the help texts.

#[path = "support/golden.rs"]
mod golden;

use a2a_codegen::diff::{self, Change, Class};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn workspace_root() -> &'static Path {
    manifest_dir().parent().unwrap()
}

fn bin() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_a2a-codegen"));
    command.current_dir(manifest_dir());
    command
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const RULES_DIR: &str = "tests/fixtures/diff/rules";

/// The pair of inputs of a rule, relative to the crate: two schema files
/// (`<rule>.old.schema.json`, `<rule>.new.schema.json`) or two spec directories (`<rule>.old/`,
/// `<rule>.new/`) when the rule concerns the tables.
fn rule_inputs(rule: &str) -> (String, String) {
    let file = format!("{RULES_DIR}/{rule}.old.schema.json");
    if manifest_dir().join(&file).is_file() {
        (file, format!("{RULES_DIR}/{rule}.new.schema.json"))
    } else {
        (
            format!("{RULES_DIR}/{rule}.old"),
            format!("{RULES_DIR}/{rule}.new"),
        )
    }
}

/// (kind, path, change, class) of each expected change, in report order.
type Expected = &'static [(&'static str, &'static str, &'static str, &'static str)];

/// One fixture pair per rule of the `a2a_codegen::diff` docs, with exactly the changes expected.
const RULES: &[(&str, Expected)] = &[
    // types
    ("type-added", &[("type", "Note", "added", "compatible")]),
    ("type-removed", &[("type", "Note", "removed", "breaking")]),
    (
        "type-kind-changed",
        &[("type", "Note", "changed", "breaking")],
    ),
    (
        "alias-target-changed",
        &[("type", "Id", "changed", "breaking")],
    ),
    ("alias-respelled", &[]),
    ("docs-only", &[]),
    // fields
    (
        "field-added-optional",
        &[("field", "Task.note", "added", "compatible")],
    ),
    // Every generated struct implements `Default`, one holding a oneof included.
    (
        "field-added-optional-beside-oneof",
        &[("field", "Task.note", "added", "compatible")],
    ),
    (
        "field-added-required",
        &[("field", "Task.note", "added", "breaking")],
    ),
    (
        "field-removed",
        &[("field", "Task.note", "removed", "breaking")],
    ),
    (
        "field-wire-name-changed",
        &[("field", "Task.context_id", "changed", "breaking")],
    ),
    (
        "field-type-changed",
        &[("field", "Task.note", "changed", "breaking")],
    ),
    // Same Rust type (`i64`), another written form: a number, then a decimal string.
    (
        "field-integer-to-int64",
        &[("field", "Task.size", "changed", "behaviour")],
    ),
    (
        "field-int32-to-int64",
        &[("field", "Task.size", "changed", "breaking")],
    ),
    (
        "field-int64-to-uint64",
        &[("field", "Task.size", "changed", "breaking")],
    ),
    (
        "field-optional-to-required",
        &[("field", "Task.note", "changed", "breaking")],
    ),
    // The struct keeps its `Default`: an absent message decodes to the message's default.
    (
        "field-message-optional-to-required",
        &[("field", "Task.when", "changed", "breaking")],
    ),
    (
        "field-required-to-optional",
        &[("field", "Task.note", "changed", "breaking")],
    ),
    (
        "field-optional-to-default",
        &[("field", "Task.limit", "changed", "breaking")],
    ),
    (
        "field-list-optional-to-required",
        &[("field", "Task.tags", "changed", "behaviour")],
    ),
    (
        "field-required-to-default",
        &[("field", "Task.limit", "changed", "behaviour")],
    ),
    (
        "field-default-changed",
        &[("field", "Task.limit", "changed", "behaviour")],
    ),
    // consts
    (
        "const-added-required",
        &[("const", "Task.kind", "added", "behaviour")],
    ),
    (
        "const-added-optional",
        &[("const", "Task.kind", "added", "behaviour")],
    ),
    (
        "const-removed",
        &[("const", "Task.kind", "removed", "behaviour")],
    ),
    (
        "const-value-changed",
        &[("const", "Task.kind", "changed", "breaking")],
    ),
    (
        "const-becomes-required",
        &[("const", "Task.kind", "changed", "behaviour")],
    ),
    (
        "const-no-longer-required",
        &[("const", "Task.kind", "changed", "behaviour")],
    ),
    // oneofs
    (
        "oneof-field-added",
        &[("oneof", "Part.content", "added", "breaking")],
    ),
    (
        "oneof-field-removed",
        &[("oneof", "Part.content", "removed", "breaking")],
    ),
    (
        "oneof-field-renamed",
        &[("oneof", "Part.content", "changed", "breaking")],
    ),
    (
        "oneof-member-added",
        &[("member", "Event::StatusUpdate", "added", "breaking")],
    ),
    (
        "oneof-member-removed",
        &[("member", "Event::StatusUpdate", "removed", "breaking")],
    ),
    (
        "oneof-member-wire-name-changed",
        &[("member", "Event::StatusUpdate", "changed", "breaking")],
    ),
    (
        "oneof-member-type-changed",
        &[("member", "Event::StatusUpdate", "changed", "breaking")],
    ),
    // tagged unions
    (
        "tagged-variant-added",
        &[("member", "U::C", "added", "breaking")],
    ),
    (
        "tagged-variant-removed",
        &[("member", "U::C", "removed", "breaking")],
    ),
    (
        "tagged-variant-value-changed",
        &[
            ("const", "B.kind", "changed", "breaking"),
            ("member", "U::BX", "changed", "breaking"),
        ],
    ),
    (
        "tagged-variant-type-changed",
        &[("member", "U::B", "changed", "breaking")],
    ),
    (
        "tagged-tag-changed",
        &[("type", "U", "changed", "breaking")],
    ),
    // enums
    (
        "enum-value-added",
        &[("value", "State::Failed", "added", "breaking")],
    ),
    (
        "enum-value-removed",
        &[("value", "State::Failed", "removed", "breaking")],
    ),
    (
        "enum-variant-renamed",
        &[
            ("value", "Unit::UnitCelsius", "changed", "breaking"),
            ("value", "Unit::UnitKelvin", "changed", "breaking"),
            ("value", "Unit::Other", "removed", "breaking"),
        ],
    ),
    (
        "enum-value-wire-renamed",
        &[
            ("value", "State::Working", "changed", "breaking"),
            ("value", "State::Done", "changed", "breaking"),
        ],
    ),
    (
        "enum-value-renumbered",
        &[
            ("value", "State::Working", "changed", "breaking"),
            ("value", "State::Done", "changed", "breaking"),
        ],
    ),
    // methods
    (
        "method-added",
        &[("method", "ListTasks", "added", "breaking")],
    ),
    (
        "method-table-added",
        &[("method", "GetTask", "added", "compatible")],
    ),
    (
        "method-removed",
        &[("method", "ListTasks", "removed", "breaking")],
    ),
    (
        "method-wire-renamed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-requires-added",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-requires-removed",
        &[("method", "GetTask", "changed", "behaviour")],
    ),
    (
        "method-routes-added",
        &[("method", "GetTask", "changed", "compatible")],
    ),
    (
        "method-route-added",
        &[("method", "GetTask", "changed", "behaviour")],
    ),
    (
        "method-route-removed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-route-body-changed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-params-changed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-result-changed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    (
        "method-streaming-changed",
        &[("method", "GetTask", "changed", "breaking")],
    ),
    // error rows
    (
        "error-added",
        &[("error", "A2aError::TaskExpired", "added", "breaking")],
    ),
    (
        "error-added-reserved-code",
        &[("error", "A2aError::InvalidParams", "added", "behaviour")],
    ),
    (
        "error-removed",
        &[("error", "A2aError::InvalidParams", "removed", "breaking")],
    ),
    (
        "error-renamed",
        &[("error", "A2aError::TaskNotFound", "changed", "breaking")],
    ),
    (
        "error-code-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "breaking")],
    ),
    (
        "error-grpc-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "behaviour")],
    ),
    (
        "error-http-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "behaviour")],
    ),
    (
        "error-message-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "behaviour")],
    ),
    (
        "error-reason-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "behaviour")],
    ),
    (
        "error-spec-name-changed",
        &[("error", "A2aError::TaskNotFound", "changed", "behaviour")],
    ),
    (
        "error-kind-changed",
        &[("error", "A2aError::InvalidParams", "changed", "behaviour")],
    ),
    ("tables-docs-only", &[]),
];

fn tuples(changes: &[Change]) -> Vec<(String, String, String, String)> {
    changes
        .iter()
        .map(|c| {
            (
                c.kind.to_string(),
                c.path.clone(),
                c.change.to_string(),
                c.class.to_string(),
            )
        })
        .collect()
}

fn expected_tuples(expected: Expected) -> Vec<(String, String, String, String)> {
    expected
        .iter()
        .map(|(k, p, c, cl)| (k.to_string(), p.to_string(), c.to_string(), cl.to_string()))
        .collect()
}

fn compare(old: &str, new: &str) -> diff::Report {
    let root = manifest_dir();
    let report = diff::compare(&root.join(old), &root.join(new))
        .unwrap_or_else(|d| panic!("{old} vs {new}:\n{d}"));
    // Labels are the paths as given; only the report's contents matter here.
    diff::Report {
        old: old.to_string(),
        new: new.to_string(),
        ..report
    }
}

#[test]
fn every_rule_classifies_its_one_change_pair() {
    let mut failures = Vec::new();
    for (rule, expected) in RULES {
        let (old, new) = rule_inputs(rule);
        let report = compare(&old, &new);
        if tuples(&report.changes) != expected_tuples(expected) {
            failures.push(format!(
                "{rule}: expected {expected:?}\n  got:\n{}",
                report.to_text()
            ));
        }
        // Every detail says something.
        assert!(
            report.changes.iter().all(|c| !c.detail.is_empty()),
            "{rule}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixture_pair_belongs_to_a_rule() {
    let names: BTreeSet<String> = std::fs::read_dir(manifest_dir().join(RULES_DIR))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let rules: BTreeSet<&str> = RULES.iter().map(|(r, _)| *r).collect();
    assert_eq!(rules.len(), RULES.len(), "a rule is listed twice");
    for name in &names {
        let rule = name
            .split(".old")
            .next()
            .unwrap()
            .split(".new")
            .next()
            .unwrap();
        assert!(rules.contains(rule), "{name} belongs to no rule");
    }
    for rule in rules {
        let (old, new) = rule_inputs(rule);
        assert!(manifest_dir().join(&old).exists(), "{old} is missing");
        assert!(manifest_dir().join(&new).exists(), "{new} is missing");
    }
}

#[test]
fn the_binary_reports_every_rule_as_json_with_its_exit_status() {
    for (rule, expected) in RULES {
        let (old, new) = rule_inputs(rule);
        let out = run(&["diff", &old, &new, "--format", "json"]);
        let breaking = expected.iter().any(|e| e.3 == "breaking");
        assert_eq!(
            out.status.code(),
            Some(if breaking { 1 } else { 0 }),
            "{rule}: {}",
            stderr(&out)
        );
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let items = json.as_array().expect("a JSON array");
        let got: Vec<(String, String, String, String)> = items
            .iter()
            .map(|item| {
                let object = item.as_object().unwrap();
                let keys: Vec<&str> = object.keys().map(String::as_str).collect();
                assert_eq!(
                    keys,
                    ["kind", "path", "change", "class", "detail"],
                    "{rule}"
                );
                assert!(object.values().all(serde_json::Value::is_string), "{rule}");
                let s = |k: &str| object[k].as_str().unwrap().to_string();
                (s("kind"), s("path"), s("change"), s("class"))
            })
            .collect();
        assert_eq!(got, expected_tuples(expected), "{rule}");
    }
}

const ERRORS_V100: &str = "tests/fixtures/diff/errors-v1.0.0";
const ERRORS_V101: &str = "tests/fixtures/diff/errors-v1.0.1";

/// The six rows whose gRPC or HTTP mapping changed between A2A v1.0.0 and v1.0.1 (spec §5.4).
const V100_TO_V101: [(&str, &str); 6] = [
    (
        "A2aError::TaskNotCancelable",
        "code -32002: HTTP status 409 -> 400",
    ),
    (
        "A2aError::PushNotificationNotSupported",
        "code -32003: gRPC status UNIMPLEMENTED -> FAILED_PRECONDITION",
    ),
    (
        "A2aError::UnsupportedOperation",
        "code -32004: gRPC status UNIMPLEMENTED -> FAILED_PRECONDITION",
    ),
    (
        "A2aError::ContentTypeNotSupported",
        "code -32005: HTTP status 415 -> 400",
    ),
    (
        "A2aError::InvalidAgentResponse",
        "code -32006: HTTP status 502 -> 500",
    ),
    (
        "A2aError::VersionNotSupported",
        "code -32009: gRPC status UNIMPLEMENTED -> FAILED_PRECONDITION",
    ),
];

#[test]
fn a2a_v1_0_0_to_v1_0_1_error_mappings_are_six_behaviour_changes() {
    let report = compare(ERRORS_V100, ERRORS_V101);
    assert_eq!(
        report.changes.len(),
        V100_TO_V101.len(),
        "{}",
        report.to_text()
    );
    for (change, (path, detail)) in report.changes.iter().zip(V100_TO_V101) {
        assert_eq!(change.kind, diff::ItemKind::Error);
        assert_eq!(change.change, diff::ChangeKind::Changed);
        assert_eq!(change.class, Class::Behaviour);
        assert_eq!(change.path, path);
        assert!(change.detail.starts_with(detail), "{}", change.detail);
    }
    assert!(!report.is_breaking());
    assert_eq!(
        report.summary(),
        "6 changes (0 breaking, 6 behaviour, 0 compatible)"
    );
    // And back: the same rows, the other way round.
    let back = compare(ERRORS_V101, ERRORS_V100);
    let paths: Vec<&str> = back.changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, V100_TO_V101.map(|(p, _)| p));
}

#[test]
fn the_binary_renders_the_v1_0_x_error_report_in_every_format() {
    let md = run(&["diff", ERRORS_V100, ERRORS_V101, "--format", "md"]);
    assert_eq!(md.status.code(), Some(0), "{}", stderr(&md));
    golden::assert_golden(
        &manifest_dir().join("tests/fixtures/diff/errors-v1.0.0-to-v1.0.1.md"),
        &stdout(&md),
    );

    let text = run(&["diff", ERRORS_V100, ERRORS_V101]);
    assert_eq!(text.status.code(), Some(0));
    let text = stdout(&text);
    assert_eq!(text.lines().count(), 7, "{text}");
    for (path, detail) in V100_TO_V101 {
        assert!(
            text.lines()
                .any(|l| l.starts_with("behaviour  changed error")
                    && l.contains(path)
                    && l.contains(detail)),
            "{path}: {text}"
        );
    }
    assert!(text.ends_with(
        "tests/fixtures/diff/errors-v1.0.0 -> tests/fixtures/diff/errors-v1.0.1: \
         6 changes (0 breaking, 6 behaviour, 0 compatible)\n"
    ));

    let json = run(&["diff", ERRORS_V100, ERRORS_V101, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 6);
    assert_eq!(json[0]["class"], "behaviour");
    assert_eq!(json[0]["path"], "A2aError::TaskNotCancelable");
}

/// The v1.1 draft adds five int64 fields (compatible: optional, and peers on v1.0.1 skip them)
/// and the -32010 row (breaking by the rules: a custom error may have used the code).
#[test]
fn a2a_v1_to_the_v1_1_draft_is_five_int64_fields_and_one_error_row() {
    let root = workspace_root();
    let report = diff::compare(&root.join("spec/v1"), &root.join("spec/v1_1_draft")).unwrap();
    let expected: Expected = &[
        (
            "field",
            "GetTaskRequest.current_generation",
            "added",
            "compatible",
        ),
        (
            "field",
            "SendMessageConfiguration.if_generation_match",
            "added",
            "compatible",
        ),
        ("field", "Task.generation", "added", "compatible"),
        (
            "field",
            "TaskArtifactUpdateEvent.generation",
            "added",
            "compatible",
        ),
        (
            "field",
            "TaskStatusUpdateEvent.generation",
            "added",
            "compatible",
        ),
        (
            "error",
            "A2aError::TaskGenerationMismatch",
            "added",
            "breaking",
        ),
    ];
    assert_eq!(tuples(&report.changes), expected_tuples(expected));
    for change in &report.changes[..5] {
        assert!(
            change.detail.contains("Option<i64>")
                && change
                    .detail
                    .contains("an int64 written as a decimal string"),
            "{}",
            change.detail
        );
    }
    let error = &report.changes[5].detail;
    assert!(
        error.contains("code -32010 (ABORTED, HTTP 409)") && error.contains("`A2aError::Other`"),
        "{error}"
    );
    let md = report.to_markdown().unwrap();
    assert!(
        md.contains("## Breaking (1)") && md.contains("## Compatible (5)"),
        "{md}"
    );
}

#[test]
fn spec_v1_against_itself_has_no_changes() {
    let spec = workspace_root().join("spec/v1");
    let report = diff::compare(&spec, &spec).unwrap();
    assert_eq!(report.changes, []);
    assert_eq!(report.summary(), "no changes");

    for format in ["text", "md", "json"] {
        let out = bin()
            .current_dir(workspace_root())
            .args(["diff", "spec/v1", "spec/v1/", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        let text = stdout(&out);
        match format {
            "text" => assert_eq!(text, "spec/v1 -> spec/v1: no changes\n"),
            "json" => assert_eq!(text, "[]\n"),
            _ => assert!(
                text.contains("`spec/v1` -> `spec/v1`: no changes."),
                "{text}"
            ),
        }
    }
}

#[test]
fn a_schema_file_is_read_with_the_tables_beside_it() {
    // spec/v1/a2a.schema.json has spec/v1's tables beside it: it is spec/v1.
    let report = compare("../spec/v1/a2a.schema.json", "../spec/v1");
    assert_eq!(report.changes, []);
    // The same schema alone gives the types only: against the whole directory, the only changes
    // are the two tables appearing.
    let alone = scratch("diff-schema-alone");
    std::fs::copy(
        workspace_root().join("spec/v1/a2a.schema.json"),
        alone.join("a2a.schema.json"),
    )
    .unwrap();
    let report = diff::compare(
        &alone.join("a2a.schema.json"),
        &workspace_root().join("spec/v1"),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    assert!(!report.changes.is_empty());
    assert!(
        report
            .changes
            .iter()
            .all(|c| c.change == diff::ChangeKind::Added && c.class == Class::Compatible),
        "{}",
        report.to_text()
    );
    let kinds: BTreeSet<String> = report.changes.iter().map(|c| c.kind.to_string()).collect();
    assert_eq!(kinds, BTreeSet::from(["error".into(), "method".into()]));
    assert!(!report.is_breaking());
}

/// An empty directory under the target directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A schema in the layout the A2A project publishes, with the overlay that completes it beside it.
const PUBLISHED: &str = "tests/fixtures/diff/published/a2a.json";
const PUBLISHED_OVERLAY: &str = "tests/fixtures/diff/published/overlay.toml";

#[test]
fn a_published_schema_file_is_read_with_the_overlay_beside_it_or_the_one_named() {
    // Beside it: the file compares like a directory would.
    let out = run(&["diff", PUBLISHED, PUBLISHED, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "[]\n");
    // Alone, it needs the overlay named: --old-overlay / --new-overlay.
    let alone = scratch("diff-published-alone").join("a2a.json");
    std::fs::copy(manifest_dir().join(PUBLISHED), &alone).unwrap();
    let alone = alone.to_str().unwrap();
    let missing = run(&["diff", PUBLISHED, alone]);
    assert_eq!(missing.status.code(), Some(2));
    let err = stderr(&missing);
    assert!(
        err.contains("it has no `required` lists (no REQUIRED field) and no oneof groups")
            && err.contains("`--old-overlay`, `--new-overlay` for diff"),
        "{err}"
    );
    let named = run(&["diff", PUBLISHED, alone, "--new-overlay", PUBLISHED_OVERLAY]);
    assert_eq!(named.status.code(), Some(0), "{}", stderr(&named));
    assert!(
        stdout(&named).ends_with(": no changes\n"),
        "{}",
        stdout(&named)
    );
    let both = run(&[
        "diff",
        alone,
        alone,
        "--old-overlay",
        PUBLISHED_OVERLAY,
        "--new-overlay",
        PUBLISHED_OVERLAY,
    ]);
    assert_eq!(both.status.code(), Some(0), "{}", stderr(&both));
    // And `ir` takes --overlay.
    let ir = run(&["ir", alone, "--overlay", PUBLISHED_OVERLAY]);
    assert_eq!(ir.status.code(), Some(0), "{}", stderr(&ir));
    assert!(stdout(&ir).contains("\"PingRequest\""));
}

#[test]
fn a_proto_is_an_input_on_either_side() {
    // The pass fixture against a copy of itself with one more field: one compatible addition.
    let dir = scratch("diff-proto");
    let old = manifest_dir().join("tests/fixtures/pass/proto3.proto");
    let text = std::fs::read_to_string(&old).unwrap();
    let new_text = text.replace(
        "message GetNoteRequest {",
        "message GetNoteRequest {\n  string locale = 3;",
    );
    assert_ne!(text, new_text);
    std::fs::write(dir.join("a2a.proto"), new_text).unwrap();
    let report = diff::compare(&old, &dir.join("a2a.proto")).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(
        tuples(&report.changes),
        [(
            "field".to_string(),
            "GetNoteRequest.locale".to_string(),
            "added".to_string(),
            "compatible".to_string()
        )]
    );
    // A proto against a JSON Schema: the binary reads both.
    let out = run(&[
        "diff",
        "tests/fixtures/pass/proto3.proto",
        "tests/fixtures/pass/scalars.schema.json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.contains("removed") && l.contains(" Note ")),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2_with_the_diagnostics_of_both_sides() {
    let out = run(&[
        "diff",
        "tests/fixtures/fail/dangling-ref.schema.json",
        "tests/fixtures/fail/bad-tables",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains(
            "tests/fixtures/fail/dangling-ref.schema.json at /$defs/Task/properties/status/$ref"
        ),
        "{err}"
    );
    assert!(err.contains("tests/fixtures/fail/bad-tables/"), "{err}");

    let missing = run(&["diff", "no/such/spec", ERRORS_V101]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("the spec directory no/such/spec does not exist"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn ir_dumps_the_model_as_deterministic_json() {
    let out = bin()
        .current_dir(workspace_root())
        .args(["ir", "spec/v1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let again = bin()
        .current_dir(workspace_root())
        .args(["ir", "spec/v1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(text, stdout(&again), "two runs differ");

    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let model = a2a_codegen::Config::new(workspace_root().join("spec/v1"))
        .source_label("spec/v1")
        .model()
        .unwrap();
    assert_eq!(json, serde_json::to_value(&model).unwrap());
    let types: Vec<&String> = json["types"].as_object().unwrap().keys().collect();
    let mut sorted = types.clone();
    sorted.sort();
    assert_eq!(types, sorted, "types are in name order");
    assert_eq!(
        json["types"]["Task"]["kind"]["Struct"]["fields"][0]["json_name"],
        "id"
    );
    assert_eq!(json["errors"][0]["code"], -32001);
    assert_eq!(json["methods"][0]["name"], "SendMessage");

    let fixture = run(&["ir", ERRORS_V100]);
    assert_eq!(fixture.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&stdout(&fixture)).unwrap();
    let codes: Vec<i64> = json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_i64().unwrap())
        .collect();
    assert_eq!(
        codes,
        (1..=9).map(|n| -32000 - n).collect::<Vec<_>>(),
        "file order"
    );
    assert_eq!(json["errors"][1]["http"], 409);
}

#[test]
fn ir_dumps_a_tagged_union() {
    let out = run(&["ir", "tests/fixtures/pass/tagged.schema.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let part = &json["types"]["StreamEvent"]["kind"]["Tagged"];
    assert_eq!(part["tag"], "kind");
    let variants: Vec<(&str, &str, &str)> = part["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["value"].as_str().unwrap(),
                v["variant"].as_str().unwrap(),
                v["ty"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        variants,
        [
            ("task", "Task", "Task"),
            ("message", "Message", "Message"),
            ("status-update", "StatusUpdate", "TaskStatusUpdateEvent"),
            (
                "artifact-update",
                "ArtifactUpdate",
                "TaskArtifactUpdateEvent"
            ),
        ]
    );
    assert_eq!(
        json["types"]["StreamEvent"]["kind"]["Tagged"]["variants"][2]["pointer"],
        "/$defs/StreamEvent/oneOf/2"
    );
}

#[test]
fn ir_exits_2_on_bad_input() {
    let out = run(&["ir", "tests/fixtures/fail/dangling-ref.schema.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).contains("tests/fixtures/fail/dangling-ref.schema.json at /$defs/Task"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_texts_of_diff_and_ir_match_their_snapshots() {
    let snapshots = manifest_dir().join("tests/snapshots");
    for (command, file) in [("diff", "help-diff.txt"), ("ir", "help-ir.txt")] {
        let out = run(&[command, "--help"]);
        assert!(out.status.success());
        golden::assert_golden(&snapshots.join(file), &stdout(&out));
    }
}

#[test]
fn text_report_lines_carry_class_change_kind_path_and_detail() {
    let (old, new) = rule_inputs("field-message-optional-to-required");
    let report = compare(&old, &new);
    let text = report.to_text();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("breaking   changed field  Task.when  optional -> required"),
        "{text}"
    );
    assert!(
        first.contains("`Option<Timestamp>` -> `Timestamp`"),
        "{text}"
    );
    let md = report.to_markdown().unwrap();
    assert!(md.contains("## Breaking (1)"), "{md}");
    assert!(md.contains("| field | `Task.when` | changed |"), "{md}");
}

#[test]
fn labels_are_paths_as_given() {
    assert_eq!(diff::label_of(&PathBuf::from("spec/v1/")), "spec/v1");
    assert_eq!(diff::label_of(&PathBuf::from("x.json")), "x.json");
    assert_eq!(diff::label_of(&PathBuf::from("/")), "/");
}

/// The one change of a rule pair, for checking what its detail says.
fn only_change(rule: &str) -> Change {
    let (old, new) = rule_inputs(rule);
    let report = compare(&old, &new);
    assert_eq!(report.changes.len(), 1, "{rule}: {}", report.to_text());
    report.changes[0].clone()
}

#[test]
fn renames_are_one_change_that_says_old_and_new_and_what_they_mean() {
    let method = only_change("method-wire-renamed");
    assert!(
        method
            .detail
            .starts_with("wire name `tasks/get` -> `GetTask`: Rust code is unaffected"),
        "{}",
        method.detail
    );
    assert!(method.detail.contains("-32601"), "{}", method.detail);

    let (old, new) = rule_inputs("enum-value-wire-renamed");
    let report = compare(&old, &new);
    let working = &report.changes[0];
    assert!(
        working
            .detail
            .starts_with("wire value `working` -> `STATE_WORKING`: Rust code is unaffected"),
        "{}",
        working.detail
    );
    assert!(
        working.detail.contains("decodes to `Unrecognized`"),
        "{}",
        working.detail
    );

    let error = only_change("error-renamed");
    assert!(
        error.detail.starts_with(
            "renamed: `A2aError::TaskNotFound` -> `A2aError::NoSuchTask` (code -32001): Rust \
             code naming the old variant stops compiling; nothing changes on the wire"
        ),
        "{}",
        error.detail
    );
    assert!(!error.detail.contains("Other"), "{}", error.detail);
}

#[test]
fn integer_changes_say_what_the_wire_sees() {
    let detail = |rule| only_change(rule).detail;
    let d = detail("field-integer-to-int64");
    assert!(
        d.contains("`i64` stays") && d.contains("a number -> a decimal string"),
        "{d}"
    );
    let d = detail("field-int32-to-int64");
    assert!(
        d.contains("`i32` -> `i64`")
            && d.contains("every int32 value peers on the old schema send still decodes")
            && d.contains("written as a decimal string instead of a number"),
        "{d}"
    );
    let d = detail("field-int64-to-uint64");
    assert!(
        d.contains("`i64` -> `u64`") && d.contains("values outside the uint64 range"),
        "{d}"
    );
}

#[test]
fn tolerant_decoding_shows_in_the_reasons() {
    // No rule says that something fails to decode when the decoder now takes it.
    for rule in [
        "oneof-member-added",
        "oneof-member-removed",
        "oneof-field-added",
        "tagged-variant-added",
        "tagged-variant-removed",
        "const-added-required",
        "const-becomes-required",
        "field-message-optional-to-required",
    ] {
        let (old, new) = rule_inputs(rule);
        for change in compare(&old, &new).changes {
            for false_claim in ["no longer decode", "cannot decode", "fails", "reject"] {
                assert!(
                    !change.detail.contains(false_claim),
                    "{rule}: {}",
                    change.detail
                );
            }
        }
    }
    assert!(only_change("oneof-member-added")
        .detail
        .contains("decodes a message that sets it to `Unknown`"));
    assert!(only_change("tagged-variant-removed")
        .detail
        .contains("now decode to `U::Unknown`"));
}

#[test]
fn a2a_v0_3_to_v1_has_no_contradictory_lines_and_finds_the_renames() {
    let root = workspace_root();
    let report = diff::compare(&root.join("spec/v0_3"), &root.join("spec/v1")).unwrap();
    let text = report.to_text();

    // The same Rust item is never both removed and added.
    let with = |change: diff::ChangeKind| -> BTreeSet<(String, String)> {
        report
            .changes
            .iter()
            .filter(|c| c.change == change)
            .map(|c| (c.kind.to_string(), c.path.clone()))
            .collect()
    };
    let both: Vec<_> = with(diff::ChangeKind::Removed)
        .intersection(&with(diff::ChangeKind::Added))
        .cloned()
        .collect();
    assert!(both.is_empty(), "removed and added: {both:?}\n{text}");

    // Methods are Rust paths (their `rust_name`), never wire names.
    for c in report
        .changes
        .iter()
        .filter(|c| c.kind == diff::ItemKind::Method)
    {
        assert!(!c.path.contains('/'), "{}: {}", c.path, c.detail);
    }

    // The renames found: every method whose operation kept its Rust name...
    let renamed = |kind: diff::ItemKind, prefix: &str| -> Vec<String> {
        report
            .changes
            .iter()
            .filter(|c| c.kind == kind && c.detail.starts_with(prefix))
            .map(|c| c.path.clone())
            .collect()
    };
    assert_eq!(
        renamed(diff::ItemKind::Method, "wire name "),
        [
            "SendMessage",
            "SendStreamingMessage",
            "GetTask",
            "CancelTask",
            "GetTaskPushNotificationConfig",
            "ListTaskPushNotificationConfigs",
            "DeleteTaskPushNotificationConfig",
            "SubscribeToTask",
            "GetExtendedAgentCard",
        ]
    );
    assert!(
        text.contains("wire name `message/send` -> `SendMessage`: Rust code is unaffected"),
        "{text}"
    );
    // ...every Role and TaskState value v0.3 and v1 share...
    assert_eq!(
        renamed(diff::ItemKind::Value, "wire value "),
        [
            "Role::Agent",
            "Role::User",
            "TaskState::Submitted",
            "TaskState::Working",
            "TaskState::InputRequired",
            "TaskState::Completed",
            "TaskState::Canceled",
            "TaskState::Failed",
            "TaskState::Rejected",
            "TaskState::AuthRequired",
        ]
    );
    assert!(
        text.contains("wire value `agent` -> `ROLE_AGENT`"),
        "{text}"
    );
    // ...and the -32007 row.
    assert_eq!(
        renamed(diff::ItemKind::Error, "renamed: "),
        ["A2aError::AuthenticatedExtendedCardNotConfigured"]
    );
    assert!(text.contains(
        "renamed: `A2aError::AuthenticatedExtendedCardNotConfigured` -> \
         `A2aError::ExtendedAgentCardNotConfigured` (code -32007)"
    ));

    // No removed line for a renamed item, and no line about -32007 decoding to `Other`.
    let renamed_paths: BTreeSet<&str> = report
        .changes
        .iter()
        .filter(|c| {
            c.detail.starts_with("wire name ")
                || c.detail.starts_with("wire value ")
                || c.detail.starts_with("renamed: ")
        })
        .map(|c| c.path.as_str())
        .collect();
    for c in &report.changes {
        assert!(
            !(c.change == diff::ChangeKind::Removed && renamed_paths.contains(c.path.as_str())),
            "{}: {}",
            c.path,
            c.detail
        );
        if c.detail.contains("-32007") {
            assert!(!c.detail.contains("Other"), "{}", c.detail);
            assert!(!c.detail.contains("no longer builds"), "{}", c.detail);
        }
        // The decoder's tolerance: nothing claims a decode failure it no longer has.
        for false_claim in [
            "cannot decode",
            "no longer implements `Default`",
            "decoding fails when",
        ] {
            assert!(!c.detail.contains(false_claim), "{}: {}", c.path, c.detail);
        }
    }
    assert!(report.is_breaking());

    // Every format, exit 1.
    for format in ["text", "md", "json"] {
        let out = bin()
            .current_dir(root)
            .args(["diff", "spec/v0_3", "spec/v1", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
        let body = stdout(&out);
        match format {
            "text" => {
                assert_eq!(body.lines().count(), report.changes.len() + 1, "{body}");
                let summary = format!("spec/v0_3 -> spec/v1: {}\n", report.summary());
                assert!(body.ends_with(&summary), "{body}");
            }
            "json" => {
                let json: serde_json::Value = serde_json::from_str(&body).unwrap();
                assert_eq!(json.as_array().unwrap().len(), report.changes.len());
            }
            _ => assert!(body.contains("## Breaking"), "{body}"),
        }
    }
}

/// The worked example of a spec update (docs/spec-updates.md) is this tool's report, as it prints
/// it today.
#[test]
fn the_readme_shows_the_v1_to_v1_1_draft_report_as_the_tool_prints_it() {
    let out = run(&["diff", "--format", "md", "spec/v1", "spec/v1_1_draft"]);
    // Breaking changes exit 1: the report is still printed in full.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // The doc demotes the report's headings two levels, under its own section.
    let expected: String = stdout(&out)
        .trim_end()
        .lines()
        .map(|l| match l {
            l if l.starts_with("# ") => format!("###{l}\n"),
            l if l.starts_with('#') => format!("##{l}\n"),
            l => format!("{l}\n"),
        })
        .collect();
    let doc = std::fs::read_to_string(workspace_root().join("docs/spec-updates.md")).unwrap();
    let (_, rest) = doc
        .split_once("<!-- diff v1 v1_1_draft: begin -->\n")
        .expect("docs/spec-updates.md has the begin marker");
    let (shown, _) = rest
        .split_once("<!-- diff v1 v1_1_draft: end -->")
        .expect("docs/spec-updates.md has the end marker");
    assert_eq!(
        shown, expected,
        "docs/spec-updates.md's v1 -> v1_1_draft report is stale: paste the output of \
         `cargo run -p a2a-codegen -- diff --format md spec/v1 spec/v1_1_draft` (headings \
         demoted two levels) between its markers"
    );
}
