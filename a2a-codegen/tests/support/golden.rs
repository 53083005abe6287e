//! The one golden-file mechanism of the workspace's tests: [`assert_golden`] compares a test's
//! output with a checked-in file, and rewrites the file instead when `A2A_BLESS=1` is set.
//!
//! Included with `#[path]` by every test that has golden files, in `a2a-codegen/tests/`,
//! `tests/tests/` and `tests/derive-ui/tests/` (a file rather than a crate: it is one function on `std` alone, and a crate
//! would be a workspace member and a dev-dependency of both test packages for it). The same
//! variable also blesses:
//!
//! - trybuild's `.stderr` files: [`bless_trybuild`] sets `TRYBUILD=overwrite`, which trybuild
//!   reads when the `TestCases` runs (at its drop), so call it before;
//! - the checked-in `generated/` crate: `xtask/tests/freshness.rs` writes it (what
//!   `cargo xtask generate` does) instead of failing when it is stale.
//!
//! After an intended change: `A2A_BLESS=1 cargo test -p a2a-codegen -p a2a-tests -p a2a-derive-ui
//! -p xtask`, then review `git diff` (and `cargo test -p a2a-fixture-programs`: the blessed
//! goldens still compile and run).

#![allow(dead_code)] // each test target uses its part

use std::path::Path;

/// The variable that makes golden tests rewrite their files.
pub const BLESS_VAR: &str = "A2A_BLESS";

/// Whether this run rewrites golden files: `A2A_BLESS` is set, to anything but `""` or `0`.
pub fn blessing() -> bool {
    std::env::var_os(BLESS_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the golden file at `path` and panics with a line diff when they differ;
/// when [`blessing`], writes `actual` to the file instead (only if it changed).
#[track_caller]
pub fn assert_golden(path: &Path, actual: &str) {
    if blessing() {
        if std::fs::read_to_string(path).ok().as_deref() != Some(actual) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            }
            std::fs::write(path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with {BLESS_VAR}=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "{} differs from the test's output ({BLESS_VAR}=1 to accept it):\n{}",
            path.display(),
            line_diff(&expected, actual)
        );
    }
}

/// Lets trybuild rewrite its `.stderr` files when [`blessing`]: call before running `TestCases`.
pub fn bless_trybuild() {
    if blessing() {
        // Edition 2021: safe. trybuild reads the variable on this thread, after this call.
        std::env::set_var("TRYBUILD", "overwrite");
    }
}

/// The lines that differ, `-` expected and `+` actual, with three lines of context around the
/// changed stretch and the line number where it starts.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    if old_mid.is_empty() && new_mid.is_empty() {
        return "(the files differ only in their final newline or line endings)".to_string();
    }
    const CONTEXT: usize = 3;
    const MAX_LINES: usize = 200;
    let mut out = vec![format!("@@ line {} @@", prefix + 1)];
    let from = prefix.saturating_sub(CONTEXT);
    out.extend(old[from..prefix].iter().map(|l| format!("  {l}")));
    out.extend(middle_diff(old_mid, new_mid));
    let after = &old[old.len() - suffix..];
    out.extend(after.iter().take(CONTEXT).map(|l| format!("  {l}")));
    if out.len() > MAX_LINES {
        let more = out.len() - MAX_LINES;
        out.truncate(MAX_LINES);
        out.push(format!("... {more} more lines"));
    }
    out.join("\n")
}

/// `-`/`+`/` ` lines from a longest common subsequence of two stretches, or all of `old` then
/// all of `new` when the table would be too large.
fn middle_diff(old: &[&str], new: &[&str]) -> Vec<String> {
    let removed = |l: &&str| format!("- {l}");
    let added = |l: &&str| format!("+ {l}");
    if old.len().saturating_mul(new.len()) > 4_000_000 {
        return old
            .iter()
            .map(removed)
            .chain(new.iter().map(added))
            .collect();
    }
    // lcs[i][j]: the length of a longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0u32; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            out.push(format!("  {}", old[i]));
            (i, j) = (i + 1, j + 1);
        } else if j < new.len() && (i == old.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push(added(&new[j]));
            j += 1;
        } else {
            out.push(removed(&old[i]));
            i += 1;
        }
    }
    out
}
