//! Golden fixtures (the shape of typify's `tests/schemas.rs`): every schema (or proto) under
//! `tests/fixtures/pass/` generates exactly its checked-in `.rs`; every input under
//! `tests/fixtures/fail/` fails with exactly its checked-in `.stderr`. That the golden code
//! compiles and runs (with the fixture's `.main.rs` as the program when there is one) is checked
//! by `tests/fixture-programs` at the workspace root, a crate of its own so that trybuild's
//! project does not build this crate's dependencies a second time.
//!
//! After an intended change to the generator, `A2A_BLESS=1 cargo test -p a2a-codegen --test
//! fixtures` rewrites the expected files (`support/golden.rs`); review their diff like code.

#[path = "support/golden.rs"]
mod golden;

use a2a_codegen::{Config, Error};
use golden::assert_golden;
use std::path::{Path, PathBuf};

fn fixtures(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind)
}

fn config_for(input: &Path) -> Config {
    let name = input.file_name().unwrap().to_string_lossy().into_owned();
    let mut config = Config::new(input);
    config
        .source_label(format!("fixtures/{name}"))
        .preserve_unknown_fields(name.starts_with("preserve"));
    if protobuf_fixture(input) {
        config.protobuf(a2a_codegen::Impls::Always);
    }
    config
}

/// The pass fixtures generated with the protobuf codec too (their `protobuf.rs` is a golden of
/// its own, `{stem}.protobuf.rs`): the `preserve*` protos.
fn protobuf_fixture(input: &Path) -> bool {
    let name = input.file_name().unwrap().to_string_lossy();
    name.starts_with("preserve") && name.ends_with(".proto")
}

fn stem(path: &Path) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    name.strip_suffix(".schema.json")
        .or_else(|| name.strip_suffix(".proto"))
        .unwrap_or(&name)
        .to_string()
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    entries
}

#[test]
fn pass_fixtures_generate_their_golden_files() {
    let dir = fixtures("pass");
    let mut count = 0;
    for input in sorted_entries(&dir).into_iter().filter(|p| {
        let name = p.to_string_lossy();
        name.ends_with(".schema.json") || name.ends_with(".proto")
    }) {
        let stem = stem(&input);
        let files = config_for(&input)
            .generate()
            .unwrap_or_else(|e| panic!("{}:\n{e}", input.display()));
        let types = files
            .iter()
            .find(|f| f.path == "types.rs")
            .expect("a types.rs");
        let golden = dir.join(format!("{stem}.rs"));
        assert_golden(&golden, &types.contents);
        if protobuf_fixture(&input) {
            let codec = files
                .iter()
                .find(|f| f.path == "protobuf.rs")
                .expect("a protobuf.rs");
            assert_golden(&dir.join(format!("{stem}.protobuf.rs")), &codec.contents);
        }
        count += 1;
    }
    assert!(count >= 3, "expected the pass fixtures, found {count}");
}

#[test]
fn fail_fixtures_report_their_golden_diagnostics() {
    let dir = fixtures("fail");
    let mut count = 0;
    for input in sorted_entries(&dir) {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".stderr") {
            continue;
        }
        let stem = stem(&input);
        let message = match config_for(&input).generate() {
            Ok(_) => panic!("{name}: generation succeeded, expected diagnostics"),
            Err(Error::Input(diags)) => diags.to_string(),
            Err(other) => panic!("{name}: expected input diagnostics, got {other}"),
        };
        assert_golden(&dir.join(format!("{stem}.stderr")), &format!("{message}\n"));
        count += 1;
    }
    assert!(count >= 8, "expected the fail fixtures, found {count}");
}

/// The checked-in spec with a custom error table from `tests/fixtures/custom/`.
fn custom_config(table: &Path) -> Config {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut config = Config::new(root.join("spec/v1"));
    config.source_label("spec/v1").custom_errors(table);
    config
}

fn tables(kind: &str) -> Vec<PathBuf> {
    sorted_entries(&fixtures("custom").join(kind))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect()
}

#[test]
fn custom_error_tables_generate_their_golden_enum() {
    let inputs = tables("pass");
    assert!(!inputs.is_empty());
    for input in inputs {
        let files = custom_config(&input)
            .generate()
            .unwrap_or_else(|e| panic!("{}:\n{e}", input.display()));
        let custom = files
            .iter()
            .find(|f| f.path == "custom_errors.rs")
            .expect("a custom_errors.rs");
        let golden = input.with_extension("rs");
        assert_golden(&golden, &custom.contents);
        let mod_rs = files.iter().find(|f| f.path == "mod.rs").unwrap();
        assert!(mod_rs.contents.contains("mod custom_errors;"));
    }
}

#[test]
fn custom_error_tables_report_their_golden_diagnostics() {
    let inputs = tables("fail");
    assert!(!inputs.is_empty());
    for input in inputs {
        let message = match custom_config(&input).generate() {
            Ok(_) => panic!("{}: generation succeeded", input.display()),
            Err(Error::Input(diags)) => diags.to_string(),
            Err(other) => panic!("{}: {other}", input.display()),
        };
        assert_golden(&input.with_extension("stderr"), &format!("{message}\n"));
    }
}

#[test]
fn a_custom_table_needs_the_standard_table() {
    let schema = fixtures("pass").join("scalars.schema.json");
    let table = fixtures("custom").join("pass/billing-errors.toml");
    let err = Config::new(schema)
        .custom_errors(&table)
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("a custom error table needs the standard error table"),
        "{err}"
    );
    let err = Config::new(fixtures("pass").join("scalars.schema.json"))
        .custom_errors("/nonexistent/billing.toml")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn a_missing_spec_directory_is_a_clear_error() {
    let err = Config::new("/nonexistent/spec/v1")
        .source_label("spec/v1")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--> spec/v1") && err.contains("/nonexistent/spec/v1 does not exist"),
        "{err}"
    );
    assert!(err.contains("--spec"), "{err}");
}

/// The schemars impls of a tagged union state the input's `oneOf` of `$ref`s and its tag keyword.
/// (The impls compile and run in `a2a-types` only; here the emitted text is checked.)
#[test]
fn a_tagged_union_has_a_json_schema_of_its_branches() {
    let files = Config::new(fixtures("pass").join("tagged.schema.json"))
        .json_schema(a2a_codegen::JsonSchemaImpls::Always)
        .generate()
        .unwrap();
    let schema = files.iter().find(|f| f.path == "json_schema.rs").unwrap();
    syn::parse_file(&schema.contents).unwrap();
    let flat: String = schema.contents.split_whitespace().collect();
    assert!(
        flat.contains(
            "\"oneOf\":[(generator.subschema_for::<super::TextPart>()),\
             (generator.subschema_for::<super::FilePart>()),\
             (generator.subschema_for::<super::DataPart>())],\"x-discriminator\":\"kind\""
        ),
        "{}",
        schema.contents
    );
}

#[test]
fn a_bad_runtime_path_is_a_clear_error() {
    let err = Config::new(fixtures("pass").join("oneofs.schema.json"))
        .runtime_path("not a path!")
        .generate()
        .unwrap_err();
    assert!(matches!(err, Error::Config(_)), "{err}");
}

/// The protobuf codec: from a proto, every message and enum gets its impls by the proto's field
/// numbers; from a schema without `x-field-number`, generation fails naming each field, where it
/// is, and the fix.
#[test]
fn the_protobuf_codec_takes_its_field_numbers_from_the_input() {
    let files = Config::new(fixtures("pass").join("proto3.proto"))
        .protobuf(a2a_codegen::Impls::Always)
        .generate()
        .unwrap();
    let codec = files.iter().find(|f| f.path == "protobuf.rs").unwrap();
    syn::parse_file(&codec.contents).unwrap();
    let flat: String = codec.contents.split_whitespace().collect();
    assert!(
        flat.contains("impl::a2a_runtime::protobuf::Messageforsuper::"),
        "{}",
        codec.contents
    );
    assert!(flat.contains("impl::a2a_runtime::protobuf::ProtoFieldforsuper::"));

    let err = Config::new(fixtures("pass").join("scalars.schema.json"))
        .source_label("fixtures/scalars.schema.json")
        .protobuf(a2a_codegen::Impls::Always)
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the protobuf codec cannot be generated for `")
            && err.contains("it has no field number")
            && err.contains("--> fixtures/scalars.schema.json at /$defs/")
            && err.contains("x-field-number"),
        "{err}"
    );

    // Numbers are checked whether or not the codec is asked for: unique within a message, and
    // protobuf's own range.
    let err = Config::new("unused")
        .source_label("inline.json")
        .generate_from_str(
            r#"{"$defs": {"Ping": {"type": "object", "properties": {
                "a": {"type": "string", "x-field-number": 1},
                "b": {"type": "string", "x-field-number": 1},
                "c": {"type": "string", "x-field-number": 19001}}}}}"#,
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`b` and `a` of `Ping` have the same field number 1"),
        "{err}"
    );
    assert!(
        err.contains("`x-field-number` must be a protobuf field number, got 19001"),
        "{err}"
    );
}
