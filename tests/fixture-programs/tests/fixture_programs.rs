//! a2a-codegen's golden fixtures as programs: every golden `.rs` under
//! `a2a-codegen/tests/fixtures/pass/` compiles (with its `.main.rs` as the program when there is
//! one, and runs; with its `.protobuf.rs` codec as a module when there is one), and so does every
//! custom error table's golden enum under
//! `a2a-codegen/tests/fixtures/custom/pass/` with its `.main.rs`.
//!
//! That each golden file is exactly what the generator writes is a2a-codegen's own test
//! (`tests/fixtures.rs`); here they are built as a user's crate builds them. After blessing new
//! goldens there (`A2A_BLESS=1`), run this to see that they still compile.

use std::path::{Path, PathBuf};

fn fixtures(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../a2a-codegen/tests/fixtures")
        .join(kind)
}

/// The golden `.rs` files of a fixture directory (not the `.main.rs` programs), sorted.
fn goldens(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".rs") && !name.ends_with(".main.rs") && !name.ends_with(".protobuf.rs")
        })
        .collect();
    files.sort();
    files
}

/// A program that includes `golden`, then `main` when it exists (else an empty `main`).
fn wrapper(dir: &Path, golden: &Path, main: &Path) -> PathBuf {
    let program = match main.exists() {
        true => format!("include!({:?});\n", main.display().to_string()),
        false => "fn main() {}\n".to_owned(),
    };
    // A fixture generated with the protobuf codec: its `protobuf.rs` is a module beside the
    // types (`super::` names them), as a build script's output lays it out.
    let codec = golden.with_extension("protobuf.rs");
    let codec = match codec.exists() {
        true => format!(
            "#[path = {:?}]\nmod protobuf;\n",
            codec.display().to_string()
        ),
        false => String::new(),
    };
    let wrapper = dir.join(golden.file_name().unwrap());
    let text = format!(
        "include!({:?});\n{codec}{program}",
        golden.display().to_string()
    );
    std::fs::write(&wrapper, text).unwrap();
    wrapper
}

#[test]
fn golden_fixtures_compile_and_run() {
    let wrappers = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-programs");
    std::fs::create_dir_all(&wrappers).unwrap();
    let t = trybuild::TestCases::new();
    let pass = goldens(&fixtures("pass"));
    assert!(
        pass.len() >= 3,
        "expected the pass fixtures, found {}",
        pass.len()
    );
    for golden in pass {
        let stem = golden.file_stem().unwrap().to_string_lossy().into_owned();
        let main = golden.with_file_name(format!("{stem}.main.rs"));
        t.pass(wrapper(&wrappers, &golden, &main));
    }
}

#[test]
fn custom_error_enums_compile_and_run() {
    let wrappers = Path::new(env!("CARGO_TARGET_TMPDIR")).join("custom-programs");
    std::fs::create_dir_all(&wrappers).unwrap();
    let t = trybuild::TestCases::new();
    let custom = goldens(&fixtures("custom/pass"));
    assert!(!custom.is_empty(), "expected the custom error tables");
    for golden in custom {
        // The file reaches only the runtime: it compiles on its own, next to the checked-in crate.
        t.pass(wrapper(
            &wrappers,
            &golden,
            &golden.with_extension("main.rs"),
        ));
    }
}
