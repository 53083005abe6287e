//! The build-script side of `Config`: default output directory, single-file output, inputs
//! given one by one, the files cargo is told to watch, and readable failures.

use a2a_codegen::Config;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The generated code without its header (which names the inputs by label).
fn body(contents: &str) -> &str {
    contents.split_once("\n\n").map_or(contents, |(_, b)| b)
}

#[test]
fn without_out_dir_or_cargo_out_dir_writing_is_a_clear_error() {
    if std::env::var_os("OUT_DIR").is_some() {
        return; // run under a build-script-like environment: the default applies
    }
    let err = Config::new(root().join("spec/v1")).write().unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("out_dir") && text.contains("OUT_DIR"),
        "{text}"
    );
}

#[test]
fn errors_debug_print_as_their_readable_report() {
    let err = Config::new("/nonexistent/spec/v1")
        .source_label("spec/v1")
        .generate()
        .unwrap_err();
    // What `fn main() -> Result<(), a2a_codegen::Error>` prints in a failing build script.
    assert_eq!(
        format!("{err:?}"),
        format!("a2a-codegen could not generate:\n{err}")
    );
    let report = format!("{err:?}");
    assert!(
        report.contains("--> spec/v1") && report.contains("/nonexistent/spec/v1 does not exist"),
        "{report}"
    );
}

#[test]
fn single_file_output_has_inline_modules_and_no_inner_attributes() {
    let spec = root().join("spec/v1");
    let mut config = Config::new(&spec);
    config
        .source_label("spec/v1")
        .custom_errors(root().join("examples/echo-agent/echo-errors.toml"))
        .single_file("a2a.rs");
    let files = config.generate().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(names, ["a2a.rs"]);
    let text = &files[0].contents;
    assert!(!text.contains("#!["), "inner attributes break include!");
    for module in ["types", "errors", "methods", "server", "custom_errors"] {
        assert!(text.contains(&format!("mod {module} {{")), "{module}");
        assert!(
            text.contains(&format!("pub use self::{module}::*;")),
            "{module}"
        );
    }
    for input in [
        "spec/v1/a2a.schema.json",
        "spec/v1/errors.toml",
        "spec/v1/methods.toml",
        "echo-errors.toml",
    ] {
        assert_eq!(
            text.matches(&format!("// input: {input} sha256:")).count(),
            1,
            "the header names {input} once"
        );
    }
}

#[test]
fn inputs_given_one_by_one_generate_the_same_code_as_the_spec_directory() {
    let spec = root().join("spec/v1");
    let from_dir = Config::new(&spec)
        .source_label("spec/v1")
        .generate()
        .unwrap();
    let one_by_one = Config::new("/nonexistent/spec")
        .schema_file(spec.join("a2a.schema.json"))
        .errors_table(spec.join("errors.toml"))
        .methods_table(spec.join("methods.toml"))
        .generate()
        .unwrap();
    assert_eq!(from_dir.len(), one_by_one.len());
    for (a, b) in from_dir.iter().zip(&one_by_one) {
        assert_eq!(a.path, b.path);
        assert_eq!(body(&a.contents), body(&b.contents), "{}", a.path);
    }
    let err = Config::new("/nonexistent/spec")
        .schema_file(spec.join("a2a.schema.json"))
        .errors_table("/nonexistent/errors.toml")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cannot read"),
        "a table given explicitly must exist: {err}"
    );
}

#[test]
fn cargo_is_told_to_watch_every_input() {
    let spec = root().join("spec/v1");
    let mut config = Config::new(&spec);
    config.custom_errors("echo-errors.toml");
    assert_eq!(
        config.input_paths(),
        [
            spec.clone(),
            spec.join("a2a.schema.json"),
            spec.join("errors.toml"),
            spec.join("methods.toml"),
            PathBuf::from("echo-errors.toml"),
        ]
    );
    let file = root().join("a2a-codegen/tests/fixtures/pass/scalars.schema.json");
    assert_eq!(Config::new(&file).input_paths(), [file]);
}

#[test]
fn methods_whose_wire_names_are_not_identifiers_take_a_rust_name() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slash-methods");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let spec = root().join("spec/v1");
    for file in ["a2a.schema.json", "errors.toml"] {
        std::fs::copy(spec.join(file), dir.join(file)).unwrap();
    }
    let row = |name: &str, rust: Option<&str>| {
        format!(
            "[[method]]\nname = \"{name}\"\n{}params = \"GetTaskRequest\"\nresult = \"Task\"\nstreaming = false\ndoc = \"d\"\n\n",
            rust.map(|r| format!("rust_name = \"{r}\"\n")).unwrap_or_default()
        )
    };
    std::fs::write(
        dir.join("methods.toml"),
        row("tasks/get", Some("GetTask")) + &row("GetTask2", None),
    )
    .unwrap();
    let files = Config::new(&dir).source_label("v").generate().unwrap();
    let methods = &files
        .iter()
        .find(|f| f.path == "methods.rs")
        .unwrap()
        .contents;
    assert!(methods.contains("pub struct GetTask;"), "{methods}");
    assert!(methods.contains("const NAME: &'static str = \"tasks/get\";"));
    assert!(methods.contains("\"tasks/get\" => ::core::option::Option::Some(Self::GetTask)"));

    std::fs::write(
        dir.join("methods.toml"),
        row("tasks/get", None) + &row("a/b", Some("GetTask2")) + &row("GetTask2", None),
    )
    .unwrap();
    let err = Config::new(&dir)
        .source_label("v")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("v/methods.toml at /method/0/name")
            && err.contains("`tasks/get` is not a PascalCase Rust name")
            && err.contains("rust_name = \"SendMessage\"")
            && err.contains("two methods have the Rust name `GetTask2`"),
        "{err}"
    );
}

/// The embedded specs are the workspace's `spec/` (through the link beside the manifest): the
/// same code, whichever route, and no file read (`input_paths` is empty).
#[test]
fn the_embedded_specs_generate_what_the_spec_directories_do() {
    for (embedded, dir) in [
        (Config::a2a_v1(), "spec/v1"),
        (Config::a2a_v0_3(), "spec/v0_3"),
        (Config::a2a_v1_1_draft(), "spec/v1_1_draft"),
    ] {
        assert!(embedded.input_paths().is_empty(), "{dir}");
        let from_files = Config::new(root().join(dir)).generate().unwrap();
        let from_embedded = embedded.generate().unwrap();
        assert_eq!(from_files.len(), from_embedded.len(), "{dir}");
        for (a, b) in from_files.iter().zip(&from_embedded) {
            assert_eq!(a.path, b.path);
            assert_eq!(body(&a.contents), body(&b.contents), "{dir}: {}", a.path);
        }
        let header = &from_embedded[0].contents;
        assert!(header.contains(&format!("a2a-codegen/{dir}/")), "{header}");
    }
    // A file still replaces an embedded input.
    let mut config = Config::a2a_v1();
    config.errors_table(root().join("examples/echo-agent/echo-errors.toml"));
    let err = config.generate().unwrap_err().to_string();
    assert!(err.contains("echo-errors.toml"), "{err}");
}

/// A conversion table that names what is not there, or leaves a required field without a
/// source, fails with every problem, each naming the table and the fix.
#[test]
fn a_bad_conversion_table_names_the_table_and_the_fix() {
    let dir = std::env::temp_dir().join(format!("a2a-codegen-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("convert.toml");
    let other = root().join("spec/v1");
    let write = |text: &str| std::fs::write(&table, text).unwrap();
    let generate = || {
        Config::new(root().join("spec/v0_3"))
            .source_label("spec/v0_3")
            .convert(&table, "crate::v1")
            .generate()
            .unwrap_err()
            .to_string()
    };
    write(&format!(
        "other = {:?}\n[types]\nNoSuchType = [\"Task\"]\nTaskIdParams = [\"NoSuchV1\"]\n",
        other.display().to_string()
    ));
    let text = generate();
    assert!(
        text.contains("[types] `NoSuchType`: no such type in this version; remove the row"),
        "{text}"
    );
    assert!(
        text.contains("no type `NoSuchV1` in the other version"),
        "{text}"
    );
    // The real table without its field renames: required fields with no source.
    let real = std::fs::read_to_string(root().join("spec/v0_3/convert.toml")).unwrap();
    let without = real
        .replace(
            "other = \"../v1\"",
            &format!("other = {:?}", other.display().to_string()),
        )
        .replace(
            "\"GetTaskPushNotificationConfigParams.id\" = \"task_id\"\n",
            "",
        );
    write(&without);
    let text = generate();
    assert!(
        text.contains("`GetTaskPushNotificationConfigRequest.task_id` is required and `GetTaskPushNotificationConfigParams` has no field for it; map one in [fields] or convert the pair in [hand]"),
        "{text}"
    );
    // Generated with the real table, the module has the conversions and the adapter.
    write(&real.replace(
        "other = \"../v1\"",
        &format!("other = {:?}", other.display().to_string()),
    ));
    let files = Config::new(root().join("spec/v0_3"))
        .convert(&table, "crate::v1")
        .generate()
        .unwrap();
    let convert = files.iter().find(|f| f.path == "convert.rs").unwrap();
    assert!(
        convert
            .contents
            .contains("impl crate::rt::convert::Convert<crate::v1::Task>")
            || convert.contents.contains("Convert<crate::v1::Task>"),
        "{}",
        &convert.contents[..400]
    );
    assert!(convert.contents.contains("pub struct Compat<S>"));
    std::fs::remove_dir_all(&dir).ok();
}
