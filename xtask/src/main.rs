//! `cargo xtask generate`: regenerate every checked-in module of `a2a-types` from `spec/`
//! (writes only files whose bytes change). `cargo xtask check`: exit 1, with a short diff per
//! stale file, when `generated/` is not what `generate` would write.

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask generate|check
  generate   regenerate generated/ (a2a-types) from spec/ (writes only files that change)
  check      exit 1, with a diff, when generated/ is not what `generate` would write";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = xtask::workspace_root();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => generate(&root),
        ["check"] => check(&root),
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
