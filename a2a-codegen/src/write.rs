//! Stage 6: put generated files on disk only when their bytes change, or report staleness.

use crate::format::GENERATED_MARKER;
use std::io;
use std::path::{Path, PathBuf};

/// A generated file: where it goes (relative to the output directory) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Path relative to the output directory, with `/` separators.
    pub path: String,
    /// The complete text.
    pub contents: String,
}

/// What `check` found out of date.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Staleness {
    /// One entry per stale file: its path and a short unified diff (on-disk -> expected).
    pub files: Vec<StaleFile>,
}

/// One out-of-date file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleFile {
    /// Path as given to the generator's output directory.
    pub path: PathBuf,
    /// `missing`, `changed` or `no longer generated`.
    pub what: &'static str,
    /// A short unified diff; empty for a missing file.
    pub diff: String,
}

impl Staleness {
    /// True when everything on disk matches.
    pub fn is_fresh(&self) -> bool {
        self.files.is_empty()
    }
}

impl Staleness {
    /// The report, ending with the command that regenerates the files (`fix`), to run and commit.
    pub fn report(&self, fix: &str) -> String {
        let mut out = String::new();
        for s in &self.files {
            out.push_str(&format!("stale: {} ({})\n", s.path.display(), s.what));
            if !s.diff.is_empty() {
                out.push_str(&format!("{}\n", s.diff));
            }
        }
        out.push_str(&format!(
            "{} generated file(s) out of date; to fix, run\n\n    {fix}\n\nand commit the result",
            self.files.len()
        ));
        out
    }
}

/// The report, asking for the generation that wrote the files to run again (the CLI names the
/// exact command; a build script's check knows only its own settings).
impl std::fmt::Display for Staleness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.report("a2a-codegen again, with the settings that wrote them"))
    }
}

/// Lines of diff shown per stale file before it is cut.
const DIFF_LINES: usize = 40;

/// Writes `contents` to `path` unless the file already holds exactly those bytes. Returns whether
/// it wrote. Leaves the file's timestamp alone when unchanged, so cargo does not rebuild.
pub fn write_if_changed(path: &Path, contents: &str) -> io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, contents)?;
    Ok(true)
}

/// A generated file and the path it goes to (the caller decides placement).
pub type Placed<'a> = (PathBuf, &'a GeneratedFile);

/// Writes every file to its path; removes `.rs` files in `out_dir` that carry the generated marker
/// but are no longer produced. Returns the paths written or removed.
pub fn write_all(out_dir: &Path, files: &[Placed<'_>]) -> io::Result<Vec<PathBuf>> {
    let mut touched = Vec::new();
    for (path, f) in files {
        if write_if_changed(path, &f.contents)? {
            touched.push(path.clone());
        }
    }
    for orphan in orphans(out_dir, files)? {
        std::fs::remove_file(&orphan)?;
        touched.push(orphan);
    }
    Ok(touched)
}

/// Compares the files with what is on disk.
pub fn check_all(out_dir: &Path, files: &[Placed<'_>]) -> io::Result<Staleness> {
    let mut stale = Staleness::default();
    for (path, f) in files {
        let path = path.clone();
        match std::fs::read_to_string(&path) {
            Ok(old) if old == f.contents => {}
            Ok(old) => stale.files.push(StaleFile {
                diff: short_diff(&old, &f.contents, &f.path),
                path,
                what: "changed",
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => stale.files.push(StaleFile {
                path,
                what: "missing",
                diff: String::new(),
            }),
            Err(e) => return Err(e),
        }
    }
    for orphan in orphans(out_dir, files)? {
        stale.files.push(StaleFile {
            path: orphan,
            what: "no longer generated",
            diff: String::new(),
        });
    }
    Ok(stale)
}

fn orphans(out_dir: &Path, files: &[Placed<'_>]) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(out_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with(".rs") || files.iter().any(|(placed, _)| *placed == path) {
            continue;
        }
        if std::fs::read_to_string(&path).is_ok_and(|text| text.starts_with(GENERATED_MARKER)) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn short_diff(old: &str, new: &str, name: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(&format!("{name} (on disk)"), &format!("{name} (generated)"))
        .to_string();
    let total = text.lines().count();
    let mut out: Vec<&str> = text.lines().take(DIFF_LINES).collect();
    let more = format!("... {} more diff lines", total.saturating_sub(DIFF_LINES));
    if total > DIFF_LINES {
        out.push(&more);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_diff_is_cut_and_says_so() {
        let old: String = (0..100).map(|i| format!("{i}\n")).collect();
        let new: String = (0..100).map(|i| format!("x{i}\n")).collect();
        let d = short_diff(&old, &new, "f.rs");
        assert!(d.lines().count() <= DIFF_LINES + 1);
        assert!(d.ends_with("more diff lines"), "{d}");
    }
}
