//! The command line: `--help` texts are snapshot-tested, and `check` / `generate` behave as the
//! README says (exit codes, messages), run as a real process.

use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_a2a-codegen"))
}

fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("A2A_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        expected,
        actual,
        "{} is out of date (A2A_BLESS=1 to accept)",
        path.display()
    );
}

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn help_texts_match_their_snapshots() {
    snapshot("help.txt", &stdout_of(&["--help"]));
    snapshot("help-generate.txt", &stdout_of(&["generate", "--help"]));
    snapshot("help-check.txt", &stdout_of(&["check", "--help"]));
}

#[test]
fn check_exits_1_with_a_diff_when_stale_and_0_after_generate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-out");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = out_dir.to_str().unwrap();
    let check = bin()
        .current_dir(root)
        .args(["check", "--out", out])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(
        stderr.contains("types.rs (missing)")
            && stderr.contains("cargo run -p a2a-codegen -- generate"),
        "{stderr}"
    );

    let generate = bin()
        .current_dir(root)
        .args(["generate", "--out", out])
        .output()
        .unwrap();
    assert!(generate.status.success());
    assert!(String::from_utf8_lossy(&generate.stdout).contains("wrote"));
    let check = bin()
        .current_dir(root)
        .args(["check", "--out", out])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn bad_input_exits_2_naming_file_and_pointer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = bin()
        .current_dir(root)
        .args([
            "check",
            "--spec",
            "tests/fixtures/fail/dangling-ref.schema.json",
            "--out",
            "/nonexistent",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "tests/fixtures/fail/dangling-ref.schema.json at /$defs/Task/properties/status/$ref"
        ),
        "{stderr}"
    );
}

#[test]
fn a_missing_spec_directory_says_where_to_run_from() {
    let out = bin()
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .args(["generate"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("spec/v1/a2a.schema.json") && stderr.contains("workspace root"),
        "{stderr}"
    );
}
