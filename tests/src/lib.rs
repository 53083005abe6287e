//! Shared plumbing for the cross-crate tests of a2a-codegen.
//!
//! Everything that reads `../shared` (the official A2A inputs and the wire captures, which live
//! beside the checkout and are never copied into it) goes through [`shared_dir`], so that a missing
//! folder fails loudly in CI and is a printed skip on a developer machine.

use std::path::{Path, PathBuf};

/// Root of the workspace (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits inside the workspace")
        .to_path_buf()
}

/// The `shared/` reference folder beside the checkout, or `None` when it is absent.
///
/// The folder is looked up at `$A2A_SHARED_DIR` if set, else at `<workspace>/../shared`.
/// When it is missing and the `CI` environment variable is set, this panics: CI must never
/// silently skip the tests that prove behaviour on real data. Elsewhere it prints a notice
/// naming `what` and returns `None`; the caller then returns early.
pub fn shared_dir(what: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("A2A_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared"),
    };
    if dir.join("a2a-spec").is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{what}: the shared reference folder is missing at {} and CI is set; \
             CI must run this test (set A2A_SHARED_DIR or lay shared/ beside the checkout)",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED {what}: no shared reference folder at {} (set A2A_SHARED_DIR to run it)",
        dir.display()
    );
    None
}

/// [`shared_dir`] joined with `rel`; `None` (after the printed skip) when the folder is absent.
pub fn shared_path(what: &str, rel: &str) -> Option<PathBuf> {
    shared_dir(what).map(|d| d.join(rel))
}
