//! `cargo xtask generate`: regenerate every checked-in module of `a2a-types` from `spec/`
//! (writes only files whose bytes change). `cargo xtask check`: exit 1, with a short diff per
//! stale file, when `generated/` is not what `generate` would write. `cargo xtask cycles [SRC..]`:
//! exit 1, naming the modules and the paths, when a crate's modules import each other in a
//! cycle (by default the generator's, the runtime's and the agent layer's; see `xtask::cycles`).
//! `cargo xtask rooms`: exit 1, naming them, when a source file of the agent layer is over
//! [`ROOM_LINES`] lines before its unit tests (issue 28: rooms a newcomer can work in).

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask generate|check|cycles [SRC..]|rooms
  generate   regenerate generated/ (a2a-types) from spec/ (writes only files that change)
  check      exit 1, with a diff, when generated/ is not what `generate` would write
  cycles     exit 1, naming them, when the modules of a crate import each other in a cycle
             through `crate::` paths (each SRC a crate's src/ directory; by default
             a2a-codegen, a2a-runtime and a2a-agent)
  rooms      exit 1, naming them, when a file of a2a-agent/src is over 600 lines before
             its `#[cfg(test)]` module";

/// The most lines a source file of [`ROOMS_CHECKED`] has before its unit tests.
const ROOM_LINES: usize = 600;

/// The source trees `cargo xtask rooms` checks.
const ROOMS_CHECKED: &[&str] = &["a2a-agent/src"];

/// The crates whose modules `cargo xtask cycles` checks by default.
const CYCLE_CHECKED: &[&str] = &["a2a-codegen/src", "a2a-runtime/src", "a2a-agent/src"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = xtask::workspace_root();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => generate(&root),
        ["check"] => check(&root),
        ["cycles", ref dirs @ ..] => return cycles(&root, dirs),
        ["rooms"] => return rooms(&root),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    result.unwrap_or_else(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

fn generate(root: &std::path::Path) -> Result<ExitCode, a2a_codegen::Error> {
    for (module, config) in xtask::CHECKED_IN_MODULES
        .iter()
        .zip(xtask::checked_in_all(root))
    {
        let touched = config.write()?;
        if touched.is_empty() {
            println!("xtask: {} is up to date", module.out);
        }
        for path in touched {
            // A file no longer produced is removed by `write`, not written.
            let verb = if path.exists() { "wrote" } else { "removed" };
            let shown = path.strip_prefix(root).unwrap_or(&path);
            println!("xtask: {verb} {}", shown.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check(root: &std::path::Path) -> Result<ExitCode, a2a_codegen::Error> {
    let mut fresh = true;
    for (module, config) in xtask::CHECKED_IN_MODULES
        .iter()
        .zip(xtask::checked_in_all(root))
    {
        let staleness = config.check()?;
        if staleness.is_fresh() {
            println!("xtask: {} is fresh", module.out);
        } else {
            fresh = false;
            eprintln!("{}", staleness.report(xtask::GENERATE_COMMAND));
        }
    }
    Ok(if fresh {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn cycles(root: &std::path::Path, dirs: &[&str]) -> ExitCode {
    let dirs: Vec<std::path::PathBuf> = if dirs.is_empty() {
        CYCLE_CHECKED.iter().map(|d| root.join(d)).collect()
    } else {
        dirs.iter().map(std::path::PathBuf::from).collect()
    };
    let mut clean = true;
    for dir in &dirs {
        let graph = match xtask::cycles::read_crate(dir) {
            Ok(graph) => graph,
            Err(e) => {
                eprintln!("xtask cycles: {e}");
                return ExitCode::from(2);
            }
        };
        let found = xtask::cycles::cycles(&graph);
        let edges: usize = graph.edges.values().map(|e| e.len()).sum();
        if found.is_empty() {
            println!(
                "xtask: {}: no import cycle ({} modules, {edges} edges)",
                dir.display(),
                graph.modules.len()
            );
        } else {
            clean = false;
            eprintln!(
                "xtask: {}: {} import cycle(s) through `crate::` paths; break each by moving \
                 what both sides use below them:\n{}",
                dir.display(),
                found.len(),
                xtask::cycles::report(&graph, &found)
            );
        }
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn rooms(root: &std::path::Path) -> ExitCode {
    let mut over = Vec::new();
    let mut files = Vec::new();
    for dir in ROOMS_CHECKED {
        if let Err(e) = xtask::cycles::collect_rs(&root.join(dir), &mut files) {
            eprintln!("xtask rooms: cannot read {dir}: {e}");
            return ExitCode::from(2);
        }
    }
    files.sort();
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("xtask rooms: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        // The lines before the file's unit tests (a `#[cfg(test)]` at the start of a line).
        let lines = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        if lines > ROOM_LINES {
            let shown = path.strip_prefix(root).unwrap_or(path);
            over.push(format!("  {} ({lines} lines)", shown.display()));
        }
    }
    if over.is_empty() {
        println!(
            "xtask: {} files of {} within {ROOM_LINES} lines before their tests",
            files.len(),
            ROOMS_CHECKED.join(", ")
        );
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "xtask: over {ROOM_LINES} lines before their tests; split each by job:\n{}",
            over.join("\n")
        );
        ExitCode::from(1)
    }
}
