//! The `a2a-codegen` command: a thin layer over the library.

use a2a_codegen::{diff, Config, Impls, JsonSchemaImpls};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Generate typed Rust for the A2A protocol from spec/ (JSON Schema or proto + error and method tables).
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
#[command(
    after_help = "A schema or proto file is read with the errors.toml, methods.toml and \
overlay.toml beside it, as a spec directory is. A published schema (the A2A project's a2a.json) \
needs an overlay: beside it, or named with --old-overlay / --new-overlay."
)]
struct DiffArgs {
    /// The old spec: a directory (a2a.schema.json or a2a.proto, errors.toml, methods.toml), a
    /// schema file or a proto.
    old: PathBuf,
    /// The new spec, in the same forms.
    new: PathBuf,
    /// The overlay completing OLD, when it is a published schema without an overlay.toml beside it.
    #[arg(long, value_name = "FILE")]
    old_overlay: Option<PathBuf>,
    /// The overlay completing NEW, likewise.
    #[arg(long, value_name = "FILE")]
    new_overlay: Option<PathBuf>,
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
    /// A spec directory (a2a.schema.json or a2a.proto, errors.toml, methods.toml), a schema file
    /// or a proto (read with the tables and overlay beside it).
    input: PathBuf,
    /// The overlay completing a published schema, when it is not beside it.
    #[arg(long, value_name = "FILE")]
    overlay: Option<PathBuf>,
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

/// `generate` and `check`: the spec and the output directory, and the settings. The defaults fit
/// a crate that depends on `a2a-runtime`, `serde` and `serde_json`: runtime path
/// `::a2a_runtime`, no error reference, no `schemars` impls.
#[derive(Debug, Args)]
#[command(
    after_help = "Into your own crate: a2a-codegen generate --spec SPEC --out src/a2a \
(the crate depends on a2a-runtime, serde and serde_json; see docs/generating.md)."
)]
struct Paths {
    /// Spec directory (a2a.schema.json or a2a.proto, errors.toml, methods.toml), or a schema file
    /// or proto, read with the tables beside it (without them: the types only, no error enum,
    /// decoders or server code) [default: with --out; without both, the modules of
    /// ./a2a-codegen.toml]
    #[arg(long, requires = "out")]
    spec: Option<PathBuf>,
    /// Output directory for the generated module (mod.rs, types.rs, errors.rs, methods.rs,
    /// server.rs, ...)
    #[arg(long, requires = "spec")]
    out: Option<PathBuf>,
    /// How the inputs are named in headers and diagnostics [default: the --spec path relative to
    /// the current directory, or its last component when it lies outside]
    #[arg(long, value_name = "LABEL")]
    source_label: Option<String>,
    /// Rust path of the runtime module the generated code uses [default: ::a2a_runtime]
    #[arg(long, value_name = "PATH")]
    runtime_path: Option<String>,
    /// Keep members the schema does not name in an `unknown_fields` map on every struct (and
    /// unknown protobuf fields in `unknown_protobuf_fields`, with the protobuf codec).
    #[arg(long)]
    preserve_unknown_fields: bool,
    /// Also render the Markdown error reference (from errors.toml) to FILE [default: none]
    #[arg(long, value_name = "FILE")]
    error_reference: Option<PathBuf>,
    /// Your own error table (rows in the format of errors.toml); generates custom_errors.rs.
    #[arg(long, value_name = "FILE")]
    custom_errors: Option<PathBuf>,
    /// The overlay completing a published A2A schema (default: overlay.toml beside the spec).
    #[arg(long, value_name = "FILE")]
    overlay: Option<PathBuf>,
    /// Implement schemars::JsonSchema (module json_schema) behind this cargo feature of your crate
    /// [default: no impls]
    #[arg(long, value_name = "FEATURE")]
    json_schema_feature: Option<String>,
    /// Implement schemars::JsonSchema unconditionally (your crate depends on schemars 1.x).
    #[arg(long, conflicts_with = "json_schema_feature")]
    json_schema: bool,
    /// Generate the protobuf binary codec (module protobuf) behind this cargo feature of your
    /// crate [default: no codec]
    #[arg(long, value_name = "FEATURE")]
    protobuf_feature: Option<String>,
    /// Generate the protobuf binary codec unconditionally (your crate turns on a2a-runtime's
    /// `protobuf` feature).
    #[arg(long, conflicts_with = "protobuf_feature")]
    protobuf: bool,
}

/// What the headers of a crate's own generated files tell a reader to run.
const USER_REGENERATE: &str = "run `a2a-codegen generate` again with the same options";

/// The file `generate` and `check` read, in the current directory, when neither `--spec` nor
/// `--out` is given: one `[[module]]` table per generated module, with the options' names as keys.
const PROJECT_FILE: &str = "a2a-codegen.toml";

/// The contents of [`PROJECT_FILE`].
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    module: Vec<Module>,
}

/// One generated module: the command line's options, or one `[[module]]` of [`PROJECT_FILE`]
/// (paths relative to the current directory either way).
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct Module {
    spec: PathBuf,
    out: PathBuf,
    source_label: Option<String>,
    runtime_path: Option<String>,
    #[serde(default)]
    preserve_unknown_fields: bool,
    error_reference: Option<PathBuf>,
    custom_errors: Option<PathBuf>,
    overlay: Option<PathBuf>,
    json_schema_feature: Option<String>,
    #[serde(default)]
    json_schema: bool,
    protobuf_feature: Option<String>,
    #[serde(default)]
    protobuf: bool,
    /// What the headers tell a reader to run [default: `a2a-codegen generate` again]; only in
    /// the file.
    regenerate_hint: Option<String>,
    /// The conversion table to another version's module (`convert.toml`); only in the file,
    /// with `convert-module`.
    convert: Option<PathBuf>,
    /// The Rust path of that module in the same crate (`crate::v1`).
    convert_module: Option<String>,
}

impl Paths {
    /// The modules to generate: the one the options name, else those of [`PROJECT_FILE`].
    fn modules(&self) -> Result<Vec<Module>, String> {
        let (Some(spec), Some(out)) = (&self.spec, &self.out) else {
            return read_project_file();
        };
        Ok(vec![Module {
            spec: spec.clone(),
            out: out.clone(),
            source_label: self.source_label.clone(),
            runtime_path: self.runtime_path.clone(),
            preserve_unknown_fields: self.preserve_unknown_fields,
            error_reference: self.error_reference.clone(),
            custom_errors: self.custom_errors.clone(),
            overlay: self.overlay.clone(),
            json_schema_feature: self.json_schema_feature.clone(),
            json_schema: self.json_schema,
            protobuf_feature: self.protobuf_feature.clone(),
            protobuf: self.protobuf,
            regenerate_hint: None,
            convert: None,
            convert_module: None,
        }])
    }

    /// Whether any setting beyond `--spec` and `--out` was given (they need those two).
    fn has_settings(&self) -> bool {
        self.source_label.is_some()
            || self.runtime_path.is_some()
            || self.preserve_unknown_fields
            || self.error_reference.is_some()
            || self.custom_errors.is_some()
            || self.overlay.is_some()
            || self.json_schema_feature.is_some()
            || self.json_schema
            || self.protobuf_feature.is_some()
            || self.protobuf
    }
}

/// The modules of [`PROJECT_FILE`] in the current directory; without the file, the error clap
/// gives for the missing `--spec` and `--out`, saying the file is the other way.
fn read_project_file() -> Result<Vec<Module>, String> {
    let text = match std::fs::read_to_string(PROJECT_FILE) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            use clap::CommandFactory;
            Cli::command()
                .error(
                    clap::error::ErrorKind::MissingRequiredArgument,
                    format!(
                        "the following required arguments were not provided:\n  --spec <SPEC>\n  \
                         --out <OUT>\n\nor run where an {PROJECT_FILE} lists the modules, one \
                         [[module]] with `spec`, `out` and the options' names as keys \
                         (docs/generating.md)"
                    ),
                )
                .exit()
        }
        Err(e) => return Err(format!("{PROJECT_FILE}: {e}")),
    };
    let file: ProjectFile = toml::from_str(&text)
        .map_err(|e| format!("{PROJECT_FILE}: {}", e.to_string().trim_end()))?;
    if file.module.is_empty() {
        return Err(format!(
            "{PROJECT_FILE}: no [[module]]: add one with `spec` and `out`"
        ));
    }
    for module in &file.module {
        if module.json_schema && module.json_schema_feature.is_some() {
            return Err(format!(
                "{PROJECT_FILE}: the module of `{}` has both `json-schema` and \
                 `json-schema-feature`: keep one",
                module.spec.display()
            ));
        }
        if module.protobuf && module.protobuf_feature.is_some() {
            return Err(format!(
                "{PROJECT_FILE}: the module of `{}` has both `protobuf` and \
                 `protobuf-feature`: keep one",
                module.spec.display()
            ));
        }
        if module.convert.is_some() != module.convert_module.is_some() {
            return Err(format!(
                "{PROJECT_FILE}: the module of `{}` needs both `convert` (the table) and \
                 `convert-module` (the other module's Rust path), or neither",
                module.spec.display()
            ));
        }
    }
    Ok(file.module)
}

impl Module {
    /// The settings: the given options, else the defaults of a user's crate.
    fn config(&self) -> Config {
        let mut config = Config::new(&self.spec);
        config
            .source_label(
                self.source_label
                    .clone()
                    .unwrap_or_else(|| default_label(&self.spec)),
            )
            .regenerate_hint(self.regenerate_hint.as_deref().unwrap_or(USER_REGENERATE))
            .out_dir(&self.out)
            .runtime_path(
                self.runtime_path
                    .as_deref()
                    .unwrap_or(a2a_codegen::DEFAULT_RUNTIME_PATH),
            )
            .preserve_unknown_fields(self.preserve_unknown_fields);
        if let Some(table) = &self.custom_errors {
            config.custom_errors(table);
        }
        if let Some(overlay) = &self.overlay {
            config.overlay(overlay);
        }
        if let Some(path) = &self.error_reference {
            config.error_reference(path);
        }
        if let (Some(table), Some(module)) = (&self.convert, &self.convert_module) {
            config.convert(table, module);
        }
        match (self.json_schema, &self.json_schema_feature) {
            (true, _) => {
                config.json_schema(JsonSchemaImpls::Always);
            }
            (false, Some(feature)) => {
                config.json_schema(JsonSchemaImpls::Feature(feature.clone()));
            }
            (false, None) => {}
        }
        match (self.protobuf, &self.protobuf_feature) {
            (true, _) => {
                config.protobuf(Impls::Always);
            }
            (false, Some(feature)) => {
                config.protobuf(Impls::Feature(feature.clone()));
            }
            (false, None) => {}
        }
        config
    }
}

/// The default source label: the spec path relative to the current directory (`spec/v1`), so that
/// no absolute path lands in a header; for a path outside it, its last component.
fn default_label(spec: &std::path::Path) -> String {
    let relative = if spec.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| spec.strip_prefix(cwd).ok().map(|p| p.to_path_buf()))
    } else {
        Some(spec.to_path_buf())
    };
    let label = match relative {
        Some(path) if !path.as_os_str().is_empty() => path,
        _ => spec
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_else(|| spec.to_path_buf()),
    };
    let label = label.to_string_lossy().replace('\\', "/");
    label
        .trim_start_matches("./")
        .trim_end_matches('/')
        .to_string()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Diff(args) => run_diff(args),
        Command::Ir(args) => run_ir(args),
        Command::Generate(paths) => run_modules(paths, generate),
        Command::Check(paths) => run_modules(paths, check),
    }
}

/// `generate` or `check` on every module the options or the project file name; the exit code is
/// the worst of theirs (0, 1 stale, 2 error).
fn run_modules(paths: &Paths, run: fn(&Module) -> Result<u8, String>) -> ExitCode {
    if paths.spec.is_none() && paths.has_settings() {
        eprintln!("error: the options need --spec and --out (or set them in {PROJECT_FILE})");
        return ExitCode::from(2);
    }
    let modules = match paths.modules() {
        Ok(modules) => modules,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let worst = modules
        .iter()
        .map(|module| {
            run(module).unwrap_or_else(|e| {
                eprintln!("{e}");
                2
            })
        })
        .max()
        .unwrap_or(0);
    ExitCode::from(worst)
}

fn generate(module: &Module) -> Result<u8, String> {
    let touched = module.config().write().map_err(|e| e.to_string())?;
    if touched.is_empty() {
        println!("a2a-codegen: {} is up to date", module.out.display());
    }
    for path in touched {
        // A file no longer produced (e.g. json_schema.rs without --json-schema) is removed by
        // `write`, not written.
        let verb = if path.exists() { "wrote" } else { "removed" };
        println!("a2a-codegen: {verb} {}", path.display());
    }
    Ok(0)
}

fn check(module: &Module) -> Result<u8, String> {
    let staleness = module.config().check().map_err(|e| e.to_string())?;
    if staleness.is_fresh() {
        println!("a2a-codegen: {} is fresh", module.out.display());
        return Ok(0);
    }
    eprintln!("{}", staleness.report(&fix_command()));
    Ok(1)
}

/// The `generate` command that repairs what `check` found: this invocation's arguments, with
/// `check` replaced, so that a CI user can paste it. Run by `cargo run -p a2a-codegen` (cargo then
/// sets `CARGO_PKG_NAME` for the program), it says so; else it names the program as installed.
fn fix_command() -> String {
    let program = match std::env::var("CARGO_PKG_NAME") {
        Ok(name) if name == "a2a-codegen" => "cargo run -p a2a-codegen --".to_string(),
        _ => "a2a-codegen".to_string(),
    };
    let mut words = vec![program];
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
    let old = diff::Input {
        path: &args.old,
        overlay: args.old_overlay.as_deref(),
    };
    let new = diff::Input {
        path: &args.new,
        overlay: args.new_overlay.as_deref(),
    };
    let report = match diff::compare(old, new) {
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
    let input = diff::Input {
        path: &args.input,
        overlay: args.overlay.as_deref(),
    };
    match input.model() {
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
