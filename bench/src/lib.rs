//! # a2a-bench
//!
//! Benchmarks of a2a-codegen against what it could be replaced with, in one place (the commands,
//! what each compares, and the latest numbers are in `bench/README.md`):
//!
//! - `benches/generate.rs`: code generation, a2a-codegen against typify 0.8 on the official A2A
//!   schemas, in the same process;
//! - the `a2a-bench` binary: writes the decode bench's bodies, runs one decoder in a loop (for
//!   `callgrind-decode.sh`), and writes typify's output (for `compile-time.sh`);
//! - `python/decode_bench.py`: the official Python SDK on the decode bench's bodies (run by
//!   `tests/benches/decode.rs`).
//!
//! This library holds both sides of the generation bench, so that the bench, the binary and the
//! tests run exactly the same code.

#![warn(missing_docs)]

pub mod agent;
pub mod load;
pub mod typify_side;

use std::path::{Path, PathBuf};

use a2a_codegen::{Config, GeneratedFile};

/// The official v1.0.1 bundle, relative to the shared folder.
pub const OFFICIAL_V1: &str = "a2a-spec/v1.0/a2a.json";
/// The official v0.3.0 schema, relative to the shared folder.
pub const OFFICIAL_V0_3: &str = "a2a-spec/v0.3.0/a2a.json";

/// The official schema files, read in place from the shared folder (never copied).
#[derive(Clone, Debug)]
pub struct Official {
    /// `a2a-spec/v1.0/a2a.json`.
    pub v1: PathBuf,
    /// `a2a-spec/v0.3.0/a2a.json`.
    pub v0_3: PathBuf,
}

impl Official {
    /// The official schemas, by the workspace's rule for `../shared` ([`a2a_tests::shared_dir`]):
    /// `None` after a printed skip when the folder is missing, a panic when it is missing and
    /// `CI` is set (CI must not skip the comparison silently).
    pub fn locate(what: &str) -> Option<Self> {
        let dir = a2a_tests::shared_dir(what)?;
        Some(Official {
            v1: dir.join(OFFICIAL_V1),
            v0_3: dir.join(OFFICIAL_V0_3),
        })
    }
}

/// The root of the workspace.
pub fn workspace_root() -> PathBuf {
    a2a_tests::workspace_root()
}

/// a2a-codegen on our own inputs, `spec/v1` (schema, error table, method table): every file of
/// the checked-in `generated/src/v1` and `generated/ERRORS.md`, formatted, in memory.
pub fn codegen_spec_v1(root: &Path) -> Result<Vec<GeneratedFile>, a2a_codegen::Error> {
    xtask::checked_in(root).generate()
}

/// a2a-codegen importing a schema the A2A project publishes, completed by `overlay` (the
/// `overlay.toml` of `spec/v1` or `spec/v0_3`): the types module, formatted, in memory. Like
/// typify, it is given the schema alone (no error or method table).
pub fn codegen_official(
    schema: &Path,
    overlay: &Path,
) -> Result<Vec<GeneratedFile>, a2a_codegen::Error> {
    Config::new(schema)
        .source_label("a2a.json")
        .overlay(overlay)
        .generate()
}

/// The overlay that completes the official v1 schema.
pub fn overlay_v1(root: &Path) -> PathBuf {
    root.join("spec/v1/overlay.toml")
}

/// The overlay that completes the official v0.3.0 schema.
pub fn overlay_v0_3(root: &Path) -> PathBuf {
    root.join("spec/v0_3/overlay.toml")
}

/// Lines of code in generated files (all files for a2a-codegen, one for typify): how much each
/// side produced, printed beside the timings.
pub fn lines(files: &[GeneratedFile]) -> usize {
    files
        .iter()
        .filter(|f| f.path.ends_with(".rs"))
        .map(|f| f.contents.lines().count())
        .sum()
}
