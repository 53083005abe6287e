//! [`Config`]: the generator's settings, each a `&mut self` setter with an example, in the style
//! of `prost_build::Config`. What it runs is in `pipeline.rs`.

use crate::DEFAULT_RUNTIME_PATH;
use std::path::PathBuf;

/// A spec directory compiled into this crate ([`Config::a2a_v1`], [`Config::a2a_v0_3`],
/// [`Config::a2a_v1_1_draft`]). The files are read from `spec/` beside this crate's manifest (a
/// link to the workspace's `spec/`, which `cargo package` follows), so the published crate
/// carries them and there is one copy in git.
pub(crate) struct EmbeddedSpec {
    pub(crate) label: &'static str,
    pub(crate) schema: &'static str,
    pub(crate) errors: &'static str,
    pub(crate) methods: &'static str,
}

impl std::fmt::Debug for EmbeddedSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The label says which; the texts are long.
        f.debug_struct("EmbeddedSpec")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

macro_rules! embedded_spec {
    ($dir:literal) => {
        EmbeddedSpec {
            label: concat!("a2a-codegen/spec/", $dir),
            schema: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/spec/",
                $dir,
                "/a2a.schema.json"
            )),
            errors: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/spec/",
                $dir,
                "/errors.toml"
            )),
            methods: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/spec/",
                $dir,
                "/methods.toml"
            )),
        }
    };
}

static EMBEDDED_V1: EmbeddedSpec = embedded_spec!("v1");
static EMBEDDED_V0_3: EmbeddedSpec = embedded_spec!("v0_3");
static EMBEDDED_V1_1_DRAFT: EmbeddedSpec = embedded_spec!("v1_1_draft");

/// What to generate and where: the generator's settings, in the style of `prost_build::Config`.
#[derive(Clone, Debug)]
pub struct Config {
    pub(crate) spec: PathBuf,
    pub(crate) embedded: Option<&'static EmbeddedSpec>,
    pub(crate) label: Option<String>,
    pub(crate) regenerate: Option<String>,
    pub(crate) out_dir: Option<PathBuf>,
    pub(crate) runtime_path: String,
    pub(crate) preserve_unknown_fields: bool,
    pub(crate) error_reference: Option<PathBuf>,
    pub(crate) custom_errors: Option<PathBuf>,
    pub(crate) schema_file: Option<PathBuf>,
    pub(crate) errors_table: Option<PathBuf>,
    pub(crate) methods_table: Option<PathBuf>,
    pub(crate) single_file: Option<String>,
    pub(crate) rerun_if_changed: Option<bool>,
    pub(crate) overlay: Option<PathBuf>,
    pub(crate) json_schema: Option<JsonSchemaImpls>,
    pub(crate) protobuf: Option<Impls>,
    pub(crate) convert: Option<ConvertTo>,
}

/// Where the conversions of [`Config::convert`] come from.
#[derive(Clone, Debug)]
pub(crate) enum ConvertTo {
    /// A table file (it names the other spec), and the other module's Rust path.
    File(PathBuf, String),
    /// The embedded `spec/v0_3/convert.toml` to the embedded A2A 1.0, and the module's path.
    EmbeddedV1(String),
}

/// The embedded conversion table between A2A 0.3 and 1.0.
pub(crate) static EMBEDDED_CONVERT_V0_3: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/spec/v0_3/convert.toml"
));

/// Whether, and under which condition, an optional module of impls is generated:
/// `schemars::JsonSchema` ([`Config::json_schema`]) or the protobuf codec ([`Config::protobuf`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Impls {
    /// Always: the including crate depends on what the impls need (`schemars` 1.x; the
    /// runtime's `protobuf` feature).
    Always,
    /// Only with this cargo feature of the including crate on (`#[cfg(feature = "...")]`).
    Feature(String),
}

/// The name [`Impls`] had when it served [`Config::json_schema`] alone.
pub type JsonSchemaImpls = Impls;

impl Config {
    /// Generates from `spec`: a directory holding `a2a.schema.json` (or `a2a.proto`, or the
    /// schema as the A2A project publishes it, under that name or as downloaded, `a2a.json`) plus,
    /// optionally, `errors.toml`, `methods.toml` and, for a published schema, `overlay.toml`; or
    /// one such schema or proto file, read with the tables and overlay beside it.
    ///
    /// ```
    /// let config = a2a_codegen::Config::new("spec/v1");
    /// ```
    pub fn new(spec: impl Into<PathBuf>) -> Self {
        Config {
            spec: spec.into(),
            embedded: None,
            label: None,
            regenerate: None,
            out_dir: None,
            runtime_path: DEFAULT_RUNTIME_PATH.to_string(),
            preserve_unknown_fields: false,
            error_reference: None,
            custom_errors: None,
            schema_file: None,
            errors_table: None,
            methods_table: None,
            single_file: None,
            rerun_if_changed: None,
            overlay: None,
            json_schema: None,
            protobuf: None,
            convert: None,
        }
    }

    /// Generates from the A2A v1.0.1 specification embedded in this crate (its `spec/v1`: our JSON
    /// Schema of the data model, the error table and the method table), so a build script needs no
    /// files of its own. Any input can still be replaced: [`Config::schema_file`],
    /// [`Config::errors_table`], [`Config::methods_table`]. Inputs are labelled
    /// `a2a-codegen/spec/v1` in headers and diagnostics.
    ///
    /// ```
    /// let files = a2a_codegen::Config::a2a_v1().generate().unwrap();
    /// assert!(files.iter().any(|f| f.path == "types.rs"));
    /// ```
    pub fn a2a_v1() -> Self {
        Config::embedded(&EMBEDDED_V1)
    }

    /// Generates from the A2A v0.3.0 specification embedded in this crate (its `spec/v0_3`), like
    /// [`Config::a2a_v1`]; labelled `a2a-codegen/spec/v0_3`.
    ///
    /// ```
    /// let files = a2a_codegen::Config::a2a_v0_3().generate().unwrap();
    /// assert!(files.iter().any(|f| f.path == "methods.rs"));
    /// ```
    pub fn a2a_v0_3() -> Self {
        Config::embedded(&EMBEDDED_V0_3)
    }

    /// Generates from the A2A **v1.1 draft** embedded in this crate (its `spec/v1_1_draft`: the
    /// `dev-1.1` branch of the A2A repository at commit `28491879`, 2026-08-12), like
    /// [`Config::a2a_v1`]; labelled `a2a-codegen/spec/v1_1_draft`.
    ///
    /// A draft, not a release: it is v1.0.1 plus task generations (the `int64` fields
    /// `Task.generation`, the two update events' `generation`, `ifGenerationMatch` and
    /// `currentGeneration`) and the error -32010 `TaskGenerationMismatchError`, and it follows
    /// the branch, so a later version of this crate may generate different code from it (or drop
    /// it once v1.1 is released). Peers on v1.0.1 understand what it writes: the changes are
    /// additive.
    ///
    /// ```
    /// let files = a2a_codegen::Config::a2a_v1_1_draft().generate().unwrap();
    /// let types = files.iter().find(|f| f.path == "types.rs").unwrap();
    /// assert!(types.contents.contains("pub generation: ::core::option::Option<i64>"));
    /// ```
    pub fn a2a_v1_1_draft() -> Self {
        Config::embedded(&EMBEDDED_V1_1_DRAFT)
    }

    fn embedded(spec: &'static EmbeddedSpec) -> Self {
        let mut config = Config::new(spec.label);
        config.embedded = Some(spec);
        config.label = Some(spec.label.to_string());
        config
    }

    /// How inputs are named in diagnostics and `@generated` headers (default: the spec path's last
    /// component). Keep it relative so output does not depend on where the checkout lives.
    ///
    /// ```
    /// a2a_codegen::Config::new("/abs/path/spec/v1").source_label("spec/v1");
    /// ```
    pub fn source_label(&mut self, label: impl Into<String>) -> &mut Self {
        self.label = Some(label.into());
        self
    }

    /// What the `@generated` header of every file tells a reader to do after changing the inputs,
    /// completing "change the generator or its inputs, then ...". Default: "generate it again with
    /// the same settings" (true wherever the file came from); the CLI names its own command, and a
    /// build script can say that a build regenerates the file.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").regenerate_hint("build again (build.rs regenerates it)");
    /// ```
    pub fn regenerate_hint(&mut self, hint: impl Into<String>) -> &mut Self {
        self.regenerate = Some(hint.into());
        self
    }

    /// Where [`Config::write`] and [`Config::check`] put or compare the files. Defaults to the
    /// `OUT_DIR` cargo gives a build script.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").out_dir("src/a2a");
    /// ```
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The Rust path of the runtime generated code uses (default `::a2a_runtime`, the crate
    /// `a2a-runtime`). Set it when the dependency is renamed in your `Cargo.toml`, or to
    /// `::a2a_types::rt` to use the runtime a2a-types re-exports.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").runtime_path("::my_a2a::rt");
    /// ```
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.runtime_path = path.into();
        self
    }

    /// Adds an `unknown_fields` map to every struct so that decode -> encode keeps members the
    /// schema does not name (off by default: ProtoJSON itself drops them, and keeping them costs an
    /// allocation per unknown member). Types that are only a oneof have no room for them.
    ///
    /// With the protobuf codec ([`Config::protobuf`]) every struct also gets
    /// `unknown_protobuf_fields` (a `protobuf::UnknownFields`, under the codec's gate): the
    /// protobuf fields its message does not number, kept as their bytes and written back after
    /// the known fields. Neither encoding carries the other's unknowns.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").preserve_unknown_fields(true);
    /// ```
    pub fn preserve_unknown_fields(&mut self, on: bool) -> &mut Self {
        self.preserve_unknown_fields = on;
        self
    }

    /// Also render the human-readable error reference (a Markdown table of every error row) to
    /// `path`, kept fresh by [`Config::check`] like the code. Off by default.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").error_reference("ERRORS.md");
    /// ```
    pub fn error_reference(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.error_reference = Some(path.into());
        self
    }

    /// Also generate `custom_errors.rs` from your own error table: a TOML file of `[[error]]` rows
    /// in the format of `errors.toml`, where only `name` and `code` are required, plus an optional
    /// top-level `enum = "BillingError"` naming the enum (default `CustomError`). The enum
    /// implements `a2a_types::AgentError` exactly as `#[derive(AgentError)]` would. A code that the
    /// standard table uses, or that lies in the JSON-RPC reserved block, is an error naming the
    /// file and row. So is a row's `reason` (the `google.rpc.ErrorInfo` reason, which names the
    /// error over HTTP+JSON; by default the name in UPPER_SNAKE_CASE) that is not UPPER_SNAKE_CASE
    /// (`[A-Z][A-Z0-9_]*`), is a reason of the standard table, or is another row's. Needs a spec
    /// directory with `errors.toml`.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").custom_errors("billing-errors.toml");
    /// ```
    pub fn custom_errors(&mut self, table: impl Into<PathBuf>) -> &mut Self {
        self.custom_errors = Some(table.into());
        self
    }

    /// Reads the data model from this file instead of the spec directory's `a2a.schema.json`: a
    /// JSON Schema, or a proto (`*.proto`, compiled; see the crate docs).
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").schema_file("vendor/a2a.schema.json");
    /// a2a_codegen::Config::new("spec/v1").schema_file("vendor/a2a.proto");
    /// ```
    pub fn schema_file(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.schema_file = Some(path.into());
        self
    }

    /// Reads the error table from this file instead of the spec directory's `errors.toml` (it
    /// must exist).
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").errors_table("vendor/errors.toml");
    /// ```
    pub fn errors_table(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.errors_table = Some(path.into());
        self
    }

    /// Reads the method table from this file instead of the spec directory's `methods.toml` (it
    /// must exist).
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").methods_table("vendor/methods.toml");
    /// ```
    pub fn methods_table(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.methods_table = Some(path.into());
        self
    }

    /// Writes everything into one file of this name instead of a module directory (`mod.rs`,
    /// `types.rs`, ...), for `include!` from a build script: the modules are inline and the file
    /// has no inner attributes, so it compiles inside any module of your crate.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").single_file("a2a.rs");
    /// // src/lib.rs: pub mod a2a { include!(concat!(env!("OUT_DIR"), "/a2a.rs")); }
    /// ```
    pub fn single_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.single_file = Some(name.into());
        self
    }

    /// Whether [`Config::write`] prints `cargo:rerun-if-changed` for every input it reads (the
    /// spec directory, each table and schema file, the custom table), so that cargo re-runs the
    /// build script exactly when an input changes, and only then. By default it does when it runs
    /// in a build script (cargo has set `OUT_DIR`), and not elsewhere (the CLI).
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1").rerun_if_changed(false);
    /// ```
    pub fn rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.rerun_if_changed = Some(on);
        self
    }

    /// Also implement `schemars::JsonSchema` for every generated type, in a module `json_schema`
    /// that also provides `json_schema_definitions()` (every definition of the model). The schema
    /// is written from the IR: the same definitions, properties, `required` lists, enum values and
    /// oneof constraints as the input. Off by default.
    ///
    /// ```
    /// use a2a_codegen::{Config, JsonSchemaImpls};
    /// Config::new("spec/v1").json_schema(JsonSchemaImpls::Feature("schemars".into()));
    /// ```
    pub fn json_schema(&mut self, impls: JsonSchemaImpls) -> &mut Self {
        self.json_schema = Some(impls);
        self
    }

    /// Also generate the protobuf binary codec for the same types, in a module `protobuf`: every
    /// message implements the runtime's `protobuf::Message` (`encode_to_vec`, `decode`) and
    /// `protobuf::ProtoField`, every enum `ProtoField`, by the proto's field numbers (from the
    /// proto, or the schema's `x-field-number`). No second set of types. The including crate
    /// turns on a2a-runtime's `protobuf` feature (a2a-types: its own `protobuf` feature). Off by
    /// default: a build that does not ask compiles no protobuf code.
    ///
    /// Every field needs a number: a schema without them is an error naming each field and the
    /// fix, as is a shape protobuf cannot write (a list of lists, v0.3's tagged unions).
    ///
    /// ```
    /// use a2a_codegen::{Config, Impls};
    /// Config::a2a_v1().protobuf(Impls::Feature("protobuf".into()));
    /// ```
    pub fn protobuf(&mut self, impls: Impls) -> &mut Self {
        self.protobuf = Some(impls);
        self
    }

    /// Completes the schema the A2A project publishes (`a2a.json`) with this overlay: the REQUIRED
    /// fields, oneofs, field order and definitions the published schema cannot express (format in
    /// `spec/v1/README.md`; `spec/v1/overlay.toml` is the one for A2A v1.0.x). Without the
    /// setting, the `overlay.toml` of the spec directory (or beside the schema file) is used. Only
    /// published schemas take an overlay: with a schema in a2a-codegen's own dialect, or a proto,
    /// setting one is an error.
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v1")
    ///     .schema_file("vendor/a2a.json")     // as downloaded from a2a-protocol.org
    ///     .overlay("spec/v1/overlay.toml");
    /// ```
    pub fn overlay(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.overlay = Some(path.into());
        self
    }

    /// Also generates `convert.rs`: conversions between this module's types and those of another
    /// version's module, at `module_path` in the same crate (`crate::v1`), and the service adapter
    /// that serves this version's methods over the other version's service (`Compat`). The
    /// `table` (`convert.toml`, format in `spec/v0_3/convert.toml`) names the other version's
    /// spec directory and what the two models do not match by name. For A2A 0.3 beside 1.0 the
    /// table is `spec/v0_3/convert.toml`. Not with [`preserve_unknown_fields`](Self::preserve_unknown_fields).
    ///
    /// ```
    /// a2a_codegen::Config::new("spec/v0_3")
    ///     .convert("spec/v0_3/convert.toml", "crate::v1");
    /// ```
    pub fn convert(
        &mut self,
        table: impl Into<PathBuf>,
        module_path: impl Into<String>,
    ) -> &mut Self {
        self.convert = Some(ConvertTo::File(table.into(), module_path.into()));
        self
    }

    /// For [`Config::a2a_v0_3`]: also generates the conversions to the A2A 1.0 module that
    /// [`Config::a2a_v1`] generates, found at `module_path` in the same crate, with the table
    /// embedded in this crate ([`Config::convert`] with `spec/v0_3/convert.toml`). A build script
    /// that serves both versions from one 1.0 service generates both modules:
    ///
    /// ```
    /// let v0_3 = a2a_codegen::Config::a2a_v0_3()
    ///     .convert_to_a2a_v1("crate::a2a")
    ///     .single_file("a2a_v0_3.rs")
    ///     .generate()
    ///     .unwrap();
    /// assert!(v0_3[0].contents.contains("pub struct Compat<S>"));
    /// ```
    pub fn convert_to_a2a_v1(&mut self, module_path: impl Into<String>) -> &mut Self {
        self.convert = Some(ConvertTo::EmbeddedV1(module_path.into()));
        self
    }
}
