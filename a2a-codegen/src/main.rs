//! The `a2a-codegen` command: a thin layer over the library.

use a2a_codegen::Config;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Generate typed Rust for the A2A protocol from spec/ (JSON Schema + error and method tables).
#[derive(Debug, Parser)]
#[command(name = "a2a-codegen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Regenerate the output directory from the spec (writes only files that change).
    Generate(Paths),
    /// Exit 1, with a short diff, when the output directory is not what `generate` would write.
    Check(Paths),
}

#[derive(Debug, Args)]
struct Paths {
    /// Spec directory (a2a.schema.json, errors.toml, methods.toml) or a single schema file.
    #[arg(long, default_value = a2a_codegen::CHECKED_IN_SPEC)]
    spec: PathBuf,
    /// Output directory for the generated modules.
    #[arg(long, default_value = a2a_codegen::CHECKED_IN_OUT)]
    out: PathBuf,
    /// Rust path of the runtime module the generated code uses.
    #[arg(long, default_value = a2a_codegen::CHECKED_IN_RUNTIME)]
    runtime_path: String,
    /// Keep members the schema does not name in an `unknown_fields` map on every struct.
    #[arg(long)]
    preserve_unknown_fields: bool,
    /// Where to render the Markdown error reference (from errors.toml).
    #[arg(long, default_value = a2a_codegen::CHECKED_IN_ERROR_REFERENCE)]
    error_reference: PathBuf,
    /// Do not render the error reference.
    #[arg(long, conflicts_with = "error_reference")]
    no_error_reference: bool,
    /// Your own error table (rows in the format of errors.toml); generates custom_errors.rs.
    #[arg(long, value_name = "FILE")]
    custom_errors: Option<PathBuf>,
}

impl Paths {
    fn config(&self) -> Config {
        let mut config = Config::new(&self.spec);
        config
            .source_label(self.spec.to_string_lossy().trim_end_matches('/'))
            .out_dir(&self.out)
            .runtime_path(&self.runtime_path)
            .preserve_unknown_fields(self.preserve_unknown_fields);
        if !self.no_error_reference {
            config.error_reference(&self.error_reference);
        }
        if let Some(table) = &self.custom_errors {
            config.custom_errors(table);
        }
        config
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Generate(paths) => paths.config().write().map(|touched| {
            if touched.is_empty() {
                println!("a2a-codegen: {} is up to date", paths.out.display());
            }
            for path in touched {
                println!("a2a-codegen: wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }),
        Command::Check(paths) => paths.config().check().map(|staleness| {
            if staleness.is_fresh() {
                println!("a2a-codegen: {} is fresh", paths.out.display());
                ExitCode::SUCCESS
            } else {
                eprintln!("{staleness}");
                ExitCode::from(1)
            }
        }),
    };
    result.unwrap_or_else(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
