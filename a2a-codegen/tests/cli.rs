//! The command line: `--help` texts are snapshot-tested, and `check` / `generate` behave as the
//! README says (exit codes, messages), run as a real process.

#[path = "support/golden.rs"]
mod golden;

use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_a2a-codegen"))
}

/// A `--help` text against its snapshot in `tests/snapshots/` (`A2A_BLESS=1` rewrites it).
fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    golden::assert_golden(&path, actual);
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

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// A fresh directory under the target's tmp dir.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The program as a user's shell runs it: not through `cargo run` (cargo sets `CARGO_PKG_NAME`
/// for the test, and the child would inherit it).
fn user_bin() -> Command {
    let mut cmd = bin();
    cmd.env_remove("CARGO_PKG_NAME");
    cmd
}

/// Runs [`user_bin`] in `dir` with `args`.
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    user_bin().current_dir(dir).args(args).output().unwrap()
}

#[test]
fn check_exits_1_with_a_diff_when_stale_and_0_after_generate() {
    let out_dir = scratch("cli-out");
    let out = out_dir.to_str().unwrap();
    let check = user_bin()
        .current_dir(root())
        .args(["check", "--spec", "spec/v1", "--out", out])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(
        stderr.contains("types.rs (missing)")
            && stderr.contains(&format!("a2a-codegen generate --spec spec/v1 --out {out}"))
            && !stderr.contains("cargo run"),
        "{stderr}"
    );

    let generate = user_bin()
        .current_dir(root())
        .args(["generate", "--out", out, "--spec", "spec/v1"])
        .output()
        .unwrap();
    assert!(generate.status.success());
    assert!(String::from_utf8_lossy(&generate.stdout).contains("wrote"));
    let check = user_bin()
        .current_dir(root())
        .args(["check", "--spec", "spec/v1", "--out", out])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

/// With `--spec` and `--out`, the defaults fit a user's crate: the runtime of a2a-types, no
/// error reference written anywhere, no schemars impls, a relative label and a header naming the
/// command that was run.
#[test]
fn spec_and_out_give_the_defaults_of_a_users_crate() {
    let dir = scratch("cli-user-crate");
    let out = dir.join("src/a2a");
    let spec = root().join("spec/v1");
    let generate = run_in(
        &dir,
        &[
            "generate",
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            "src/a2a",
        ],
    );
    assert!(
        generate.status.success(),
        "{}",
        String::from_utf8_lossy(&generate.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "errors.rs",
            "methods.rs",
            "mod.rs",
            "server.rs",
            "service.rs",
            "types.rs"
        ]
    );
    assert!(
        !dir.join("generated").exists(),
        "no ERRORS.md in the user's crate"
    );
    let types = std::fs::read_to_string(out.join("types.rs")).unwrap();
    assert!(types.contains("::a2a_runtime::"), "runtime path");
    assert!(!types.contains("crate::rt"), "runtime path");
    let header: Vec<&str> = types.lines().take(3).collect();
    assert_eq!(
        header[1],
        "// run `a2a-codegen generate` again with the same options."
    );
    // The spec lies outside the current directory: its last component, never an absolute path.
    assert!(
        header[2].starts_with("// input: v1/a2a.schema.json sha256:"),
        "{header:?}"
    );

    // An identical copy of the spec elsewhere, named the same with --source-label, is fresh.
    let copy = dir.join("vendor/a2a-spec");
    std::fs::create_dir_all(&copy).unwrap();
    for file in ["a2a.schema.json", "errors.toml", "methods.toml"] {
        std::fs::copy(spec.join(file), copy.join(file)).unwrap();
    }
    let check = run_in(
        &dir,
        &["check", "--spec", "vendor/a2a-spec", "--out", "src/a2a"],
    );
    assert_eq!(
        check.status.code(),
        Some(1),
        "labelled vendor/a2a-spec by default"
    );
    let check = run_in(
        &dir,
        &[
            "check",
            "--spec",
            "vendor/a2a-spec",
            "--out",
            "src/a2a",
            "--source-label",
            "v1",
        ],
    );
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // A file no longer produced is reported as removed, not written.
    let with_schema = run_in(
        &dir,
        &[
            "generate",
            "--spec",
            "vendor/a2a-spec",
            "--out",
            "src/a2a",
            "--json-schema",
        ],
    );
    assert!(String::from_utf8_lossy(&with_schema.stdout).contains("wrote src/a2a/json_schema.rs"));
    let without = run_in(
        &dir,
        &["generate", "--spec", "vendor/a2a-spec", "--out", "src/a2a"],
    );
    let stdout = String::from_utf8_lossy(&without.stdout);
    assert!(
        stdout.contains("removed src/a2a/json_schema.rs"),
        "{stdout}"
    );
    assert!(!stdout.contains("wrote src/a2a/json_schema.rs"), "{stdout}");
}

#[test]
fn spec_and_out_come_together() {
    for args in [
        ["generate", "--spec", "spec/v1"],
        ["check", "--out", "src/a2a"],
    ] {
        let out = user_bin().current_dir(root()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("required arguments were not provided"),
            "{stderr}"
        );
    }
}

#[test]
fn odd_spec_paths_get_clear_errors_and_notes() {
    let dir = scratch("cli-odd-specs");
    let run = |spec: &str| {
        user_bin()
            .current_dir(root())
            .args(["generate", "--spec", spec, "--out", dir.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let typo = run("spec/v1/a2a.schema.jsn");
    assert_eq!(typo.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert!(
        stderr.contains("the spec file spec/v1/a2a.schema.jsn does not exist")
            && !stderr.contains("a2a.schema.jsn/a2a.schema.json"),
        "{stderr}"
    );
    let table = run("spec/v1/errors.toml");
    assert_eq!(table.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&table.stderr);
    assert!(
        stderr.contains("spec/v1/errors.toml is a TOML table, not a JSON schema or a proto")
            && stderr.contains("pass the spec directory"),
        "{stderr}"
    );
    // A schema file is read with the tables beside it: spec/v1's give the whole module.
    let beside = run("spec/v1/a2a.schema.json");
    assert!(beside.status.success());
    assert!(dir.join("errors.rs").is_file() && dir.join("server.rs").is_file());
    // Without tables beside it, the types only, and a note saying so.
    let single = run("a2a-codegen/tests/fixtures/pass/scalars.schema.json");
    assert!(single.status.success());
    let stderr = String::from_utf8_lossy(&single.stderr);
    assert!(
        stderr.contains("note: a single schema file gives the types only (types.rs)")
            && stderr.contains("there are none beside it"),
        "{stderr}"
    );
    assert!(!dir.join("errors.rs").exists());
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

/// The published command regenerates no repository of its own: without `--spec` and `--out`, and
/// with no `a2a-codegen.toml` where it runs, it refuses, naming both.
#[test]
fn generate_and_check_require_spec_and_out() {
    let dir = scratch("no-project-file");
    for command in ["generate", "check"] {
        let out = bin().current_dir(&dir).args([command]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("required arguments were not provided")
                && stderr.contains("--spec <SPEC>")
                && stderr.contains("--out <OUT>"),
            "{stderr}"
        );
    }
}

/// Without `--spec` and `--out`, the modules of `a2a-codegen.toml` where it runs: this
/// workspace's file names the checked-in crate, which `cargo xtask generate` writes with its own
/// settings, so every module is fresh (the two agree); an option without `--spec` is refused.
#[test]
fn check_reads_the_project_file_where_it_runs() {
    let out = user_bin()
        .current_dir(root())
        .arg("check")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for module in [
        "generated/src/v1",
        "generated/src/v0_3",
        "generated/src/v1_1_draft",
    ] {
        assert!(stdout.contains(&format!("{module} is fresh")), "{stdout}");
    }
    let out = run_in(root(), &["check", "--runtime-path", "crate::rt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("need --spec and --out"));
    let dir = scratch("bad-project-file");
    std::fs::write(dir.join("a2a-codegen.toml"), "[[module]]\nspec = \"x\"\n").unwrap();
    let out = run_in(&dir, &["generate"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a2a-codegen.toml") && stderr.contains("out"),
        "{stderr}"
    );
}

/// A spec directory that does not exist is an error naming it and what --spec takes.
#[test]
fn a_missing_spec_directory_is_named() {
    let out = bin()
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .args(["generate", "--spec", "spec/v1", "--out", "src/a2a"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the spec directory spec/v1 does not exist")
            && stderr.contains("pass --spec with a spec directory"),
        "{stderr}"
    );
}

/// `generate --spec <json-bundle> --overlay spec/v1/overlay.toml`: bufbuild's
/// protoc-gen-jsonschema output for A2A v1.0.1 (the hand-made fixture) gives the types of
/// spec/v1, doc comments aside.
#[test]
fn generate_reads_a_bufbuild_json_bundle_with_an_overlay() {
    let dir = scratch("cli-json-bundle");
    let (ours, bundle) = (dir.join("ours"), dir.join("bundle"));
    let fixture = "a2a-codegen/tests/fixtures/bufbuild/a2a.jsonschema.bundle.json";
    let run = |args: &[&str]| {
        let out = run_in(root(), args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&[
        "generate",
        "--spec",
        "spec/v1/a2a.schema.json",
        "--out",
        ours.to_str().unwrap(),
    ]);
    let stderr = run(&[
        "generate",
        "--spec",
        fixture,
        "--overlay",
        "spec/v1/overlay.toml",
        "--out",
        bundle.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("note: the schema closes 44 messages with `additionalProperties: false`"),
        "{stderr}"
    );
    let body = |path: &Path| {
        let text = std::fs::read_to_string(path.join("types.rs")).unwrap();
        let (header, body) = text.split_once("\n\n").unwrap();
        let code: String = body
            .lines()
            .filter(|l| !l.trim_start().starts_with("///") && !l.trim_start().starts_with("//!"))
            .map(|l| format!("{l}\n"))
            .collect();
        (header.to_string(), code)
    };
    let ((_, expected), (header, actual)) = (body(&ours), body(&bundle));
    assert!(
        header.contains(&format!("// input: {fixture} sha256:"))
            && header.contains("// input: spec/v1/overlay.toml sha256:"),
        "{header}"
    );
    if expected != actual {
        panic!(
            "types from the json-bundle differ from spec/v1's (doc comments aside):\n{}",
            golden::line_diff(&expected, &actual)
        );
    }
}
