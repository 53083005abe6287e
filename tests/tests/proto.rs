//! The proto route end to end: the official v1.0.1 proto (read from `shared/` through
//! [`a2a_tests::shared_path`], never copied into the checkout, except into scratch directories
//! under the target directory) generates the code `spec/v1` generates, rustdoc aside, whether it
//! is named as the schema of spec/v1 or sits in a spec directory of its own beside the tables
//! (`a2a-codegen generate --spec <dir>/a2a.proto`); `diff` sees no change; and alone it gives the
//! types. The model-level comparison is `fidelity.rs`'s `the_proto_lowers_to_the_model_of_spec_v1`.

#[path = "../../a2a-codegen/tests/support/golden.rs"]
mod golden;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use a2a_codegen::{Config, GeneratedFile};
use a2a_tests::{shared_path, workspace_root};

const PROTO: &str = "a2a-spec/v1.0/a2a.proto";

fn spec_v1() -> PathBuf {
    workspace_root().join("spec/v1")
}

fn by_path(files: Vec<GeneratedFile>) -> BTreeMap<String, String> {
    files.into_iter().map(|f| (f.path, f.contents)).collect()
}

/// A generated file without its header (which names the inputs) and without doc comments (the
/// proto's comments are not our descriptions).
fn code_body(contents: &str) -> String {
    let body = contents.split_once("\n\n").map_or(contents, |(_, b)| b);
    body.lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with("///") && !l.starts_with("//!")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Per file, the lines where two generations differ (doc comments and headers aside).
fn code_differences(ours: &BTreeMap<String, String>, theirs: &BTreeMap<String, String>) -> String {
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>()
    );
    let mut report = String::new();
    for (path, contents) in ours {
        let (expected, actual) = (code_body(contents), code_body(&theirs[path]));
        if expected != actual {
            report.push_str(&format!(
                "\n== {path}:\n{}",
                golden::line_diff(&expected, &actual)
                    .lines()
                    .filter(|l| !l.starts_with("  "))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    report
}

fn spec_v1_code() -> BTreeMap<String, String> {
    by_path(
        Config::new(spec_v1())
            .source_label("spec/v1")
            .generate()
            .unwrap(),
    )
}

/// A spec directory under the target directory holding the official proto and spec/v1's tables,
/// as a user who downloaded the proto would lay it out.
fn proto_spec_dir(name: &str, proto: &Path) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(proto, dir.join("a2a.proto")).unwrap();
    for file in ["errors.toml", "methods.toml"] {
        std::fs::copy(spec_v1().join(file), dir.join(file)).unwrap();
    }
    dir
}

#[test]
fn the_proto_as_the_schema_of_spec_v1_generates_its_code() {
    let Some(proto) = shared_path("proto: code from the official proto", PROTO) else {
        return;
    };
    let (files, notes) = Config::new(spec_v1())
        .source_label("spec/v1")
        .schema_file(&proto)
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(notes.is_empty(), "{notes:?}");
    let theirs = by_path(files);
    let header = theirs["types.rs"].split_once("\n\n").unwrap().0;
    assert!(
        header.contains(
            "// input: a2a.proto sha256:e195bf96ab630c69797851970203e1b2b6b19528f2e9803b7d904b91a5104016"
        ),
        "the header names the proto:\n{header}"
    );
    let report = code_differences(&spec_v1_code(), &theirs);
    assert!(
        report.is_empty(),
        "code from the proto differs from spec/v1's (doc comments aside):{report}"
    );
}

#[test]
fn generate_spec_proto_beside_the_tables_gives_the_code_of_spec_v1() {
    let Some(proto) = shared_path("proto: a spec directory holding the proto", PROTO) else {
        return;
    };
    let dir = proto_spec_dir("proto-spec", &proto);
    // What `a2a-codegen generate --spec <dir>/a2a.proto --out ...` runs: the file, read with the
    // tables beside it; and the directory itself, which holds a2a.proto instead of a schema.
    for spec in [dir.join("a2a.proto"), dir.clone()] {
        let mut config = Config::new(&spec);
        config.source_label("downloaded");
        assert!(config.input_paths().contains(&dir.join("a2a.proto")));
        assert!(config.input_paths().contains(&dir.join("methods.toml")));
        let (files, notes) = config
            .generate_with_notes()
            .unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
        assert!(notes.is_empty(), "{notes:?}");
        let theirs = by_path(files);
        let report = code_differences(&spec_v1_code(), &theirs);
        assert!(
            report.is_empty(),
            "{}: code differs from spec/v1's (doc comments aside):{report}",
            spec.display()
        );
    }
    // The rustdoc is the proto's own.
    let files = by_path(Config::new(&dir).generate().unwrap());
    assert!(files["types.rs"].contains("/// `Task` is the core unit of action for A2A."));
    assert!(files["mod.rs"].contains("//! Types of the protobuf package `lf.a2a.v1`"));
}

#[test]
fn diff_sees_no_change_between_the_proto_and_spec_v1() {
    let Some(proto) = shared_path("proto: diff against spec/v1", PROTO) else {
        return;
    };
    let dir = proto_spec_dir("proto-diff", &proto);
    let report = a2a_codegen::diff::compare(&spec_v1(), &dir.join("a2a.proto"))
        .unwrap_or_else(|d| panic!("{d}"));
    assert!(report.changes.is_empty(), "{}", report.to_text());
    // The other way round, too: a proto may be either side.
    let report = a2a_codegen::diff::compare(&dir, &spec_v1()).unwrap_or_else(|d| panic!("{d}"));
    assert!(report.changes.is_empty(), "{}", report.to_text());
}

#[test]
fn the_proto_alone_gives_the_types_and_says_so() {
    let Some(proto) = shared_path("proto: the proto alone", PROTO) else {
        return;
    };
    let (files, notes) = Config::new(&proto)
        .source_label("a2a.proto")
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["mod.rs", "types.rs"]);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0]
            .message
            .contains("a proto alone (it has no error table) gives the types only"),
        "{}",
        notes[0]
    );
    // The types are spec/v1's.
    let ours = spec_v1_code();
    let theirs = by_path(files);
    assert_eq!(code_body(&ours["types.rs"]), code_body(&theirs["types.rs"]));
}

#[test]
fn an_overlay_beside_a_proto_is_an_error_when_named() {
    let Some(proto) = shared_path("proto: an overlay named", PROTO) else {
        return;
    };
    let err = Config::new(spec_v1())
        .schema_file(&proto)
        .overlay(spec_v1().join("overlay.toml"))
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("an overlay is given, but a2a.proto is a proto")
            && err.contains("remove the overlay setting"),
        "{err}"
    );
}

#[test]
fn a_build_script_can_generate_from_the_proto_with_the_embedded_tables() {
    let Some(proto) = shared_path("proto: Config::a2a_v1 with the proto", PROTO) else {
        return;
    };
    // The google/api imports come from the copies embedded in a2a-codegen: the scratch directory
    // holds the proto alone.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("proto-alone");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&proto, dir.join("a2a.proto")).unwrap();
    let ours = by_path(Config::a2a_v1().generate().unwrap());
    let theirs = by_path(
        Config::a2a_v1()
            .schema_file(dir.join("a2a.proto"))
            .generate()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let report = code_differences(&ours, &theirs);
    assert!(report.is_empty(), "{report}");
}

/// The v1.1 draft proto (commit 28491879 of the dev-1.1 branch) as the schema of
/// `spec/v1_1_draft`: the same code as our dialect's draft, 64-bit integers included (rustdoc
/// aside). The checked-in `v1_1_draft` module, which the decode tests run against, is therefore
/// what the draft proto generates.
#[test]
fn the_draft_proto_as_the_schema_of_spec_v1_1_draft_generates_its_code() {
    let Some(proto) = shared_path(
        "proto: code from the v1.1 draft proto",
        "a2a-spec/v1.1-draft/a2a.proto",
    ) else {
        return;
    };
    let draft = workspace_root().join("spec/v1_1_draft");
    let ours = by_path(
        Config::new(&draft)
            .source_label("spec/v1_1_draft")
            .generate()
            .unwrap(),
    );
    let (files, notes) = Config::new(&draft)
        .source_label("spec/v1_1_draft")
        .schema_file(&proto)
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(notes.is_empty(), "{notes:?}");
    let theirs = by_path(files);
    assert!(theirs["types.rs"].contains("pub generation: ::core::option::Option<i64>"));
    let report = code_differences(&ours, &theirs);
    assert!(
        report.is_empty(),
        "code from the draft proto differs from spec/v1_1_draft's (doc comments aside):{report}"
    );
}
