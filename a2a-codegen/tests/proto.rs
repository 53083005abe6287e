//! The proto route on small inputs (the official A2A proto is `tests/tests/proto.rs` and
//! `fidelity.rs` in the workspace's a2a-tests): a spec directory holding `a2a.proto` and the
//! tables, the methods it gives with and without `methods.toml`, and its refusals. The proto's
//! `google/api` imports resolve to the copies compiled into a2a-codegen: the scratch
//! directories hold no such file.

use a2a_codegen::ir::HttpRule;
use a2a_codegen::Config;
use std::path::{Path, PathBuf};

const PROTO: &str = "tests/fixtures/pass/proto3.proto";

const ERRORS: &str = r#"
[[error]]
name = "NoteNotFound"
spec_name = "NoteNotFoundError"
code = -32001
kind = "a2a"
grpc = "NOT_FOUND"
http = 404
reason = "NOTE_NOT_FOUND"
message = "Note not found"
doc = "No note has that id."
"#;

const METHODS: &str = r#"
[[method]]
name = "GetNote"
params = "GetNoteRequest"
result = "Note"
streaming = false
doc = "Fetch one note."
requires = ["noteId"]

[[method]]
name = "DropNote"
rust_name = "Drop"
params = "GetNoteRequest"
result = "Empty"
streaming = false
doc = "Forget one note."
"#;

/// A scratch spec directory holding the fixture proto as `a2a.proto` and the given tables.
fn spec_dir(name: &str, tables: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(PROTO),
        dir.join("a2a.proto"),
    )
    .unwrap();
    for (file, text) in tables {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn get(path: &str) -> HttpRule {
    HttpRule::new("GET", path)
}

#[test]
fn a_spec_directory_may_hold_a_proto_whose_rpcs_the_method_table_completes() {
    let dir = spec_dir(
        "proto-dir",
        &[("errors.toml", ERRORS), ("methods.toml", METHODS)],
    );
    let mut config = Config::new(&dir);
    config.source_label("notes");
    assert!(config.input_paths().contains(&dir.join("a2a.proto")));
    let model = config.model().unwrap_or_else(|e| panic!("{e}"));
    let [get_note, drop_note] = &model.methods[..] else {
        panic!("{:?}", model.methods)
    };
    // Types, streaming and HTTP rules from the rpc; doc, requires and rust_name from the table.
    assert_eq!(
        (get_note.name.as_str(), get_note.params.as_str()),
        ("GetNote", "GetNoteRequest")
    );
    assert_eq!(get_note.doc, "Fetch one note.");
    assert_eq!(get_note.requires, ["noteId"]);
    assert_eq!(
        get_note.http,
        [
            get("/notes/{note_id=*}"),
            get("/{tenant}/notes/{note_id=*}")
        ]
    );
    assert_eq!(
        (drop_note.rust_name.as_str(), drop_note.result.as_str()),
        ("Drop", "Empty")
    );
    assert!(drop_note.http.is_empty());
    let files = config.generate().unwrap();
    let methods = files.iter().find(|f| f.path == "methods.rs").unwrap();
    assert!(methods
        .contents
        .contains("// input: notes/methods.toml sha256:"));
    assert!(methods
        .contents
        .contains("// input: notes/a2a.proto sha256:"));
    assert!(files.iter().any(|f| f.path == "server.rs"));
}

#[test]
fn without_a_method_table_the_rpcs_are_the_methods() {
    let dir = spec_dir("proto-dir-errors-only", &[("errors.toml", ERRORS)]);
    // The file given alone is read with the table beside it, as the directory is.
    let model = Config::new(dir.join("a2a.proto"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let docs: Vec<(&str, &str)> = model
        .methods
        .iter()
        .map(|m| (m.name.as_str(), m.doc.as_str()))
        .collect();
    assert_eq!(
        docs,
        [
            ("GetNote", "Fetches one note."),
            ("DropNote", "Forgets one note.")
        ]
    );
    assert!(model.methods.iter().all(|m| m.requires.is_empty()));
    assert_eq!(model.errors.len(), 1);
}

#[test]
fn a_proto_alone_gives_the_types_and_a_note() {
    let dir = spec_dir("proto-alone", &[]);
    let (files, notes) = Config::new(dir.join("a2a.proto"))
        .source_label("a2a.proto")
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["mod.rs", "types.rs"]);
    assert_eq!(notes.len(), 1);
    assert!(notes[0]
        .message
        .contains("a proto alone (it has no error table)"));
}

#[test]
fn an_overlay_named_with_a_proto_is_an_error() {
    let dir = spec_dir("proto-overlay", &[]);
    let err = Config::new(dir.join("a2a.proto"))
        .source_label("a2a.proto")
        .overlay("overlay.toml")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("an overlay is given, but a2a.proto is a proto")
            && err.contains("--> overlay.toml"),
        "{err}"
    );
}

#[test]
fn declarations_of_other_files_are_refused_with_their_use() {
    let dir = spec_dir("proto-imports", &[]);
    std::fs::write(
        dir.join("common.proto"),
        "syntax = \"proto3\";\npackage demo.v1;\nmessage Money { int32 cents = 1; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("shop.proto"),
        "syntax = \"proto3\";\npackage demo.v1;\nimport \"common.proto\";\n\
         message Order {\n  Money total = 1;\n}\n",
    )
    .unwrap();
    let err = Config::new(dir.join("shop.proto"))
        .source_label("shop.proto")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`Order.total` uses `demo.v1.Money`, declared in common.proto")
            && err.contains("--> shop.proto at line 5, column 3")
            && err.contains("move `demo.v1.Money` into shop.proto"),
        "{err}"
    );
}

#[test]
fn compile_errors_in_an_imported_file_name_that_file() {
    let dir = spec_dir("proto-bad-import", &[]);
    std::fs::write(
        dir.join("common.proto"),
        "syntax = \"proto3\";\nmessage {\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("shop.proto"),
        "syntax = \"proto3\";\nimport \"common.proto\";\nmessage Order {}\n",
    )
    .unwrap();
    let err = Config::new(dir.join("shop.proto"))
        .source_label("specs/shop.proto")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the protobuf compiler refused it")
            && err.contains("--> specs/common.proto at line 2"),
        "{err}"
    );
}
