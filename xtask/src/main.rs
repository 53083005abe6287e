//! `cargo xtask generate`: regenerate every checked-in module of `a2a-types` from `spec/`
//! (writes only files whose bytes change). `cargo xtask check`: exit 1, with a short diff per
//! stale file, when `generated/` is not what `generate` would write. `cargo xtask cycles [SRC..]`:
//! exit 1, naming the modules and the paths, when a crate's modules import each other in a
//! cycle (by default the generator's, the runtime's and the agent layer's; see `xtask::cycles`).

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask generate|check|cycles [SRC..]
  generate   regenerate generated/ (a2a-types) from spec/ (writes only files that change)
  check      exit 1, with a diff, when generated/ is not what `generate` would write
  cycles     exit 1, naming them, when the modules of a crate import each other in a cycle
             through `crate::` paths (each SRC a crate's src/ directory; by default
             a2a-codegen, a2a-runtime and a2a-agent)";

/// The crates whose modules `cargo xtask cycles` checks by default.
const CYCLE_CHECKED: &[&str] = &["a2a-codegen/src", "a2a-runtime/src", "a2a-agent/src"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = xtask::workspace_root();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => generate(&root),
        ["check"] => check(&root),
        ["cycles", ref dirs @ ..] => return cycles(&root, dirs),
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
