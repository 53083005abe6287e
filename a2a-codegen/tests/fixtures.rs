//! Golden fixtures (the shape of typify's `tests/schemas.rs`): every schema under
//! `tests/fixtures/pass/` generates exactly its checked-in `.rs`, and that code compiles and runs
//! (trybuild, with the fixture's `.main.rs` as the program when there is one); every input under
//! `tests/fixtures/fail/` fails with exactly its checked-in `.stderr`.
//!
//! After an intended change to the generator, `A2A_BLESS=1 cargo test -p a2a-codegen --test
//! fixtures` rewrites the expected files; review their diff like code.

use a2a_codegen::{Config, Error};
use std::path::{Path, PathBuf};

fn fixtures(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind)
}

/// Compares `actual` with the file at `path`, or rewrites the file when `A2A_BLESS` is set.
fn assert_golden(path: &Path, actual: &str) {
    if std::env::var_os("A2A_BLESS").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with A2A_BLESS=1 to create it", path.display()));
    if expected != actual {
        let diff = similar::TextDiff::from_lines(&expected, actual)
            .unified_diff()
            .header("expected", "actual")
            .to_string();
        panic!(
            "{} differs from the generator's output (A2A_BLESS=1 to accept):\n{diff}",
            path.display()
        );
    }
}

fn config_for(input: &Path) -> Config {
    let name = input.file_name().unwrap().to_string_lossy().into_owned();
    let mut config = Config::new(input);
    config
        .source_label(format!("fixtures/{name}"))
        .preserve_unknown_fields(name.starts_with("preserve"));
    config
}

fn stem(path: &Path) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    name.strip_suffix(".schema.json")
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
fn pass_fixtures_generate_their_golden_files_which_compile_and_run() {
    let dir = fixtures("pass");
    let wrappers = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-programs");
    std::fs::create_dir_all(&wrappers).unwrap();
    let t = trybuild::TestCases::new();
    let mut count = 0;
    for input in sorted_entries(&dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".schema.json"))
    {
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

        let main = dir.join(format!("{stem}.main.rs"));
        let program = if main.exists() {
            format!("include!({:?});\n", main.display().to_string())
        } else {
            "fn main() {}\n".to_string()
        };
        let wrapper = wrappers.join(format!("{stem}.rs"));
        std::fs::write(
            &wrapper,
            format!("include!({:?});\n{program}", golden.display().to_string()),
        )
        .unwrap();
        t.pass(&wrapper);
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

#[test]
fn a_missing_spec_directory_is_a_clear_error() {
    let err = Config::new("/nonexistent/spec/v1")
        .source_label("spec/v1")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("spec/v1/a2a.schema.json") && err.contains("cannot read"),
        "{err}"
    );
    assert!(err.contains("--spec"), "{err}");
}

#[test]
fn a_bad_runtime_path_is_a_clear_error() {
    let err = Config::new(fixtures("pass").join("oneofs.schema.json"))
        .runtime_path("not a path!")
        .generate()
        .unwrap_err();
    assert!(matches!(err, Error::Config(_)), "{err}");
}
