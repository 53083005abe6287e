//! The `a2a-codegen` command: a thin layer over the library.

use a2a_codegen::{diff, Config, JsonSchemaImpls};
use clap::{Args, Parser, Subcommand, ValueEnum};
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
    /// Compare two spec inputs and classify every change for users of the generated Rust.
    ///
    /// Reports types, fields, enum values, oneof members, methods and error rows that were added,
    /// removed or changed, each classed breaking, behaviour or compatible (the rules are in the
    /// rustdoc of `a2a_codegen::diff`). Exits 0 when nothing is breaking, 1 when something is, and
    /// 2 when an input is bad.
    Diff(DiffArgs),
    /// Print the generator's model (IR) of a spec input as JSON, without generating anything.
    ///
    /// Exits 2, listing every problem, when the input is bad.
    Ir(IrArgs),
}

#[derive(Debug, Args)]
struct DiffArgs {
    /// The old spec: a directory (a2a.schema.json, errors.toml, methods.toml) or a schema file.
    old: PathBuf,
    /// The new spec, in the same forms.
    new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
}

/// How `diff` prints its report.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum DiffFormat {
    /// One line per change, then a summary.
    Text,
    /// A Markdown report with one table per class.
    Md,
    /// A JSON array of {kind, path, change, class, detail}.
    Json,
}

#[derive(Debug, Args)]
struct IrArgs {
    /// A spec directory (a2a.schema.json, errors.toml, methods.toml) or a schema file.
    input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = IrFormat::Json)]
    format: IrFormat,
}

/// How `ir` prints the model.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum IrFormat {
    /// Pretty-printed JSON (types by name, tables in file order).
    Json,
}

#[derive(Debug, Args)]
struct Paths {
    /// Spec directory (a2a.schema.json, errors.toml, methods.toml) or a single schema file
    /// [default: spec/v1; with neither --spec nor --out, every checked-in module: spec/v1 and
    /// spec/v0_3]
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Output directory for the generated modules [default: generated/src/v1, or
    /// generated/src/v0_3 for spec/v0_3 when neither --spec nor --out is given]
    #[arg(long)]
    out: Option<PathBuf>,
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
    /// The overlay completing a published A2A schema (default: overlay.toml in the spec directory).
    #[arg(long, value_name = "FILE")]
    overlay: Option<PathBuf>,
    /// Implement schemars::JsonSchema (module json_schema) behind this cargo feature.
    #[arg(long, value_name = "FEATURE", default_value = a2a_codegen::CHECKED_IN_JSON_SCHEMA_FEATURE)]
    json_schema_feature: String,
    /// Implement schemars::JsonSchema unconditionally.
    #[arg(long, conflicts_with_all = ["json_schema_feature", "no_json_schema"])]
    json_schema: bool,
    /// Do not implement schemars::JsonSchema.
    #[arg(long, conflicts_with = "json_schema_feature")]
    no_json_schema: bool,
}

impl Paths {
    /// The configurations to run, each with its output directory: every checked-in module when
    /// neither `--spec` nor `--out` is given, else the one named.
    fn configs(&self) -> Vec<(Config, PathBuf)> {
        let one = |spec: &str, out: &str, reference: bool| {
            let spec = self.spec.clone().unwrap_or_else(|| spec.into());
            let out = self.out.clone().unwrap_or_else(|| out.into());
            (self.config(&spec, &out, reference), out)
        };
        let mut configs = vec![one(
            a2a_codegen::CHECKED_IN_SPEC,
            a2a_codegen::CHECKED_IN_OUT,
            true,
        )];
        if self.spec.is_none() && self.out.is_none() {
            configs.push(one(
                a2a_codegen::CHECKED_IN_V0_3_SPEC,
                a2a_codegen::CHECKED_IN_V0_3_OUT,
                false,
            ));
        }
        configs
    }

    fn config(&self, spec: &std::path::Path, out: &std::path::Path, reference: bool) -> Config {
        let mut config = Config::new(spec);
        config
            .source_label(spec.to_string_lossy().trim_end_matches('/'))
            .out_dir(out)
            .runtime_path(&self.runtime_path)
            .preserve_unknown_fields(self.preserve_unknown_fields);
        if reference && !self.no_error_reference {
            config.error_reference(&self.error_reference);
        }
        if let Some(table) = &self.custom_errors {
            config.custom_errors(table);
        }
        if let Some(overlay) = &self.overlay {
            config.overlay(overlay);
        }
        if self.json_schema {
            config.json_schema(JsonSchemaImpls::Always);
        } else if !self.no_json_schema {
            config.json_schema(JsonSchemaImpls::Feature(self.json_schema_feature.clone()));
        }
        config
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Diff(args) => return run_diff(args),
        Command::Ir(args) => return run_ir(args),
        Command::Generate(paths) => paths
            .configs()
            .into_iter()
            .try_for_each(|(config, out)| {
                let touched = config.write()?;
                if touched.is_empty() {
                    println!("a2a-codegen: {} is up to date", out.display());
                }
                for path in touched {
                    println!("a2a-codegen: wrote {}", path.display());
                }
                Ok::<(), a2a_codegen::Error>(())
            })
            .map(|()| ExitCode::SUCCESS),
        Command::Check(paths) => {
            let mut stale = Vec::new();
            paths
                .configs()
                .into_iter()
                .try_for_each(|(config, out)| {
                    let staleness = config.check()?;
                    if staleness.is_fresh() {
                        println!("a2a-codegen: {} is fresh", out.display());
                    } else {
                        stale.push(staleness);
                    }
                    Ok::<(), a2a_codegen::Error>(())
                })
                .map(|()| {
                    if stale.is_empty() {
                        return ExitCode::SUCCESS;
                    }
                    for staleness in &stale {
                        eprintln!("{}", staleness.report(&fix_command()));
                    }
                    ExitCode::from(1)
                })
        }
    };
    result.unwrap_or_else(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// The `generate` command that repairs what `check` found: this invocation's arguments, with
/// `check` replaced, so that a CI user can paste it.
fn fix_command() -> String {
    let mut words = vec!["cargo run -p a2a-codegen --".to_string()];
    let mut replaced = false;
    for arg in std::env::args().skip(1) {
        let word = if !replaced && arg == "check" {
            replaced = true;
            "generate".to_string()
        } else {
            arg
        };
        // Quote what a shell would split or expand.
        let plain = word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@+,".contains(c));
        words.push(if plain {
            word
        } else {
            format!("'{}'", word.replace('\'', r"'\''"))
        });
    }
    words.join(" ")
}

fn run_diff(args: &DiffArgs) -> ExitCode {
    let report = match diff::compare(&args.old, &args.new) {
        Ok(report) => report,
        Err(diags) => {
            eprintln!("{diags}");
            return ExitCode::from(2);
        }
    };
    let text = match args.format {
        DiffFormat::Text => report.to_text(),
        DiffFormat::Json => report.to_json(),
        DiffFormat::Md => match report.to_markdown() {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
    };
    print_stdout(&text);
    if report.is_breaking() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print_stdout(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn run_ir(args: &IrArgs) -> ExitCode {
    let label = diff::label_of(&args.input);
    match diff::load_model(&args.input, &label) {
        Ok(model) => {
            let IrFormat::Json = args.format;
            let mut json = serde_json::to_string_pretty(&model).expect("the IR serializes to JSON");
            json.push('\n');
            print_stdout(&json);
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprintln!("{diags}");
            ExitCode::from(2)
        }
    }
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
