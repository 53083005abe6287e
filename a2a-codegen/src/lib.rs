//! # a2a-codegen
//!
//! Generates typed Rust for the [A2A protocol](https://a2a-protocol.org) from our own JSON Schema
//! of its data model (`spec/v1/a2a.schema.json`), or from the normative `a2a.proto` itself, and
//! its tables (`errors.toml`, `methods.toml`).
//!
//! One core serves the CLI (`a2a-codegen generate|check`), build scripts and the tests. It runs
//! pure stages, each in its own (private) module:
//!
//! | stage | what |
//! |---|---|
//! | load | read files; remember labels and SHA-256 |
//! | import | the schema the A2A project publishes + our overlay -> our dialect |
//! | proto | a `.proto` compiled by protox, its descriptors -> [`ir::Model`], with file and line on every problem |
//! | lower | JSON Schema / TOML -> [`ir::Model`], with JSON pointers on every problem |
//! | validate | whole-model checks, all problems reported together |
//! | emit | IR -> tokens with `quote!` |
//! | format | tokens -> text with prettyplease, `@generated` header |
//! | write | write-if-changed, or report stale files with a diff |
//!
//! The public API is [`Config`] (settings, and [`Config::generate`], [`Config::write`],
//! [`Config::check`], [`Config::model`]), what those return ([`GeneratedFile`], [`Staleness`],
//! [`ir::Model`]), the [`Error`] and its [`Diagnostics`], and [`diff`], which compares two models
//! and classes every change by what it breaks.
//!
//! ```no_run
//! // Regenerate into a directory of your crate, using the `a2a-runtime` crate.
//! a2a_codegen::Config::new("spec/v1")
//!     .out_dir("src/a2a")
//!     .write()
//!     .expect("A2A code generation failed");
//! ```
//!
//! ## From a build script
//!
//! ```no_run
//! // build.rs. Returning the error prints the generator's report (file, JSON pointer or TOML
//! // row, what to do) and fails the build, without a panic.
//! fn main() -> Result<(), a2a_codegen::Error> {
//!     a2a_codegen::Config::new("../spec/v1")
//!         .source_label("spec/v1")
//!         .custom_errors("my-errors.toml") // optional: the crate's own error enum
//!         .single_file("a2a.rs")           // out_dir defaults to OUT_DIR
//!         .write()?;                       // prints cargo:rerun-if-changed for every input
//!     Ok(())
//! }
//! ```
//!
//! Then, in any module of the crate: `include!(concat!(env!("OUT_DIR"), "/a2a.rs"));`. The
//! workspace's `examples/echo-agent` is a complete consumer: an agent and a client on the
//! generated module, with their own error table.
//!
//! ## Spec inputs
//!
//! [`Config::new`] takes a spec directory or a file; one resolver reads it for every caller (the
//! CLI, build scripts, [`diff`], the tests):
//!
//! - a spec directory holds the data model as `a2a.schema.json` (our dialect), `a2a.proto` or the
//!   published `a2a.json`, looked for in that order, with `errors.toml`, `methods.toml` and (for
//!   a published schema) `overlay.toml`;
//! - a file (`*.json`, `*.proto`) is read with the tables and overlay beside it, when there are
//!   any; without tables it gives the types only, and a [`Note`] says so.
//!
//! ## From the proto
//!
//! A `.proto` is compiled by [protox](https://docs.rs/protox) (no `protoc` needed; its
//! `google/api` imports are embedded in this crate, the `google/protobuf` ones come with protox)
//! and its descriptors are lowered to the same model the JSON Schema gives: REQUIRED from
//! `(google.api.field_behavior) = REQUIRED`, oneofs (proto3 `optional` is presence, not a oneof),
//! enums (wire strings are the value names, variants drop the shared prefix), maps, lists,
//! `google.protobuf.Struct`, `Value`, `Timestamp` and `Empty`, JSON names with the proto names as
//! aliases, declaration order, leading comments as rustdoc. The rpcs of its service give the
//! methods (name, request and response types, server streaming, `google.api.http` rules as
//! [`ir::HttpRule`]s); `methods.toml` beside it adds `doc`, `requires` and `rust_name`, row by row,
//! and whatever it repeats must agree with the proto. What the model cannot hold (groups,
//! extensions, custom options, nested declarations, a second oneof, non-string map keys,
//! unsigned or 64-bit integers, other well-known types, client streaming) is an error naming the
//! file, line and declaration.
//!
//! ```no_run
//! // build.rs: the A2A tables embedded in this crate, the data model from the proto.
//! fn main() -> Result<(), a2a_codegen::Error> {
//!     a2a_codegen::Config::a2a_v1()
//!         .schema_file("proto/a2a.proto")
//!         .single_file("a2a.rs")
//!         .write()?;
//!     Ok(())
//! }
//! ```
//!
//! ## Why not typify (or another generic JSON Schema tool)
//!
//! The A2A model needs semantics that JSON Schema does not carry and that ProtoJSON defines:
//! oneofs keyed by member name, open enums that also accept integers, REQUIRED scalars that
//! writers omit at their default, unknown members ignored everywhere (A2A v1 §5.7). When this
//! project was planned (issue #2), typify was measured on the official inputs: it mis-decodes the
//! unions silently (the published v1 bundle has no oneof constraint, and v0.3's `anyOf` unions
//! become first-match untagged enums) and adds `deny_unknown_fields` for the bundle's
//! `additionalProperties: false`, which turns a legal reply with one new member into an error.
//! So the generator owns its IR and reads a strict subset of
//! JSON Schema, reporting anything else instead of guessing.
//!
//! ## Tagged unions (`x-discriminator`)
//!
//! A2A v0.3 tells the members of a union apart by a `kind` member (`Part` is a `TextPart`
//! (`"kind": "text"`), a `FilePart` or a `DataPart`). Our dialect writes such a union as a definition
//! holding a `oneOf` of `$ref`s and the vendor keyword `x-discriminator`, naming the tag property:
//!
//! ```json
//! "Part": {
//!   "oneOf": [{"$ref": "#/$defs/TextPart"}, {"$ref": "#/$defs/FilePart"}, {"$ref": "#/$defs/DataPart"}],
//!   "x-discriminator": "kind"
//! },
//! "TextPart": {
//!   "type": "object",
//!   "properties": {"kind": {"const": "text"}, "text": {"type": "string"}},
//!   "required": ["kind", "text"]
//! }
//! ```
//!
//! The rules, each broken one reported with its JSON pointer:
//!
//! - `type` may be left out or be `"object"`; no other keyword but annotations sits beside the two.
//! - Every branch is a `$ref` (annotations allowed beside it) to an object definition (one with
//!   `"type": "object"` and `properties`; not an enum, alias or another union).
//! - That definition pins the tag property to a non-empty string with `const`, and lists it in
//!   `required`: the tag decides the variant, so every variant carries it (the variant's struct
//!   writes it on encode and checks it on decode, even when decoded on its own).
//! - Each tag value is used by one branch only; the Rust variant name is the tag value in
//!   PascalCase (`status-update` -> `StatusUpdate`), and two values may not give the same name
//!   (`status-update`, `status_update`) or an unusable one (`1st`).
//! - A `oneOf` with a `$ref` branch but no `x-discriminator` is an error: the generator never
//!   guesses a variant by trying each branch in turn, as untagged unions do.
//!
//! The Rust type is an enum with one variant per branch, holding the struct (`Part::Text(TextPart)`),
//! plus `Unknown(UnknownMember)` (the runtime's `rt::oneof`), with `TAG`, `TAG_VALUES`,
//! `tag_value()` and `From` each struct. Encoding writes the struct (the tag included); decoding
//! reads the object into a `serde_json::Value`, takes the tag and decodes that variant's struct
//! from it. The reading is as tolerant as the official SDK's v0.3 layer, never stricter:
//!
//! - a tag that names no variant decodes to `Unknown`, carrying the tag's value (and the object,
//!   with `preserve_unknown_fields`, so that it re-encodes unchanged);
//! - a missing (or `null`) tag picks the variant whose required members are all present, the one
//!   requiring the most when several fit; none, or a tie, is a decode error naming the candidates
//!   (``Part: no `kind`, and the members fit no variant: text (needs `text`), ...``);
//! - a variant's struct decoded on its own (where the position fixes the type) does not need its
//!   tag; a tag of another value is still an error, and so is a tag that is not a string.
//!
//! Unknown members inside the variant are ignored, or kept with `preserve_unknown_fields`. The
//! enum's `Default` is `Unknown` with no tag, and it is not `#[non_exhaustive]` (like the oneof
//! enums: adding a variant is a breaking change, see [`diff`]).
//!
//! ## Oneofs and presence
//!
//! Every oneof enum has the same extra variant, `Unknown(UnknownMember)`: a member this version
//! does not know (how a later spec's new kind of part, event or security scheme looks) keeps the
//! object around it, with the member's name; an object with none of the members decodes too (and
//! is the enum's `Default`). Only two *known* members at once is a decode error. An absent or
//! `null` REQUIRED field, a message included, decodes to its default value, as protobuf reads it;
//! encoding always writes REQUIRED fields. Strictness belongs to the server side: the methods
//! table's `requires` column lists what a request cannot run without.
//!
//! ## 64-bit integers
//!
//! ProtoJSON writes a protobuf `int64` or `uint64` as a decimal string (`"generation": "7"`) and
//! reads it from a string or a number. Our dialect says exactly that, with the one type array it
//! accepts:
//!
//! ```json
//! "generation": {"type": ["integer", "string"], "format": "int64"},
//! "size": {"type": ["integer", "string"], "format": "uint64"}
//! ```
//!
//! (the two names in either order; `{"type": "integer", "format": "int64"}` is an error saying
//! so, as is any other type array). The Rust field is an `i64` or `u64` (`Option` when not
//! REQUIRED, as for every scalar). Encoding writes a decimal string, also inside lists and maps
//! (`a2a_runtime::num::Decimal`); decoding takes a string or a number through
//! `a2a_runtime::num::ProtoI64` / `ProtoU64`, in one pass: out of range, not integral (`7.5`,
//! `"7.5"`) or not a number (`""`, `"seven"`) is a decode error saying which, and the reply
//! decoders name the field (`` at `result.generation` ``). The rule for strings is the one
//! protobuf's Python parser (a2a-sdk 1.3.0) applies, so `"+7"`, `"7.0"` and `"1e3"` are read
//! too; the runtime's `num` module documents it. The schemars impls describe the same type
//! array. A plain `{"type": "integer"}` stays an `i64` written as a number.

#![deny(missing_docs)]

mod diag;
pub mod diff;
mod emit;
mod facts;
mod format;
mod import;
pub mod ir;
mod load;
mod lower;
mod naming;
#[cfg(feature = "proto")]
mod proto;
#[cfg(not(feature = "proto"))]
#[path = "proto/off.rs"]
mod proto;
mod requires;
mod routes;
mod validate;
#[doc(hidden)]
pub mod workspace;
mod write;

pub use diag::{Diagnostic, Diagnostics, Note};
pub use write::{GeneratedFile, StaleFile, Staleness};

use proc_macro2::TokenStream;
use quote::quote;
use std::path::{Path, PathBuf};

/// Why generation failed.
///
/// `Debug` prints the `Display` text after one heading line, so a build script whose `main` returns
/// `Result<(), a2a_codegen::Error>` fails with the readable report (every problem with its file,
/// JSON pointer and what to do) rather than a struct dump.
#[derive(thiserror::Error)]
pub enum Error {
    /// The inputs have problems; every one found is listed, with file and JSON pointer.
    #[error("{0}")]
    Input(Diagnostics),
    /// A setting is unusable.
    #[error("invalid setting: {0}")]
    Config(String),
    /// Reading or writing the output failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The generator produced something it should not have: a bug in a2a-codegen.
    #[error("{0}")]
    Bug(String),
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // After the `Error: ` that a `main` returning `Err` prints, start the report on its own line.
        write!(f, "a2a-codegen could not generate:\n{self}")
    }
}

/// Name of the error reference among [`Config::generate`]'s files.
pub const ERROR_REFERENCE: &str = "ERRORS.md";

/// The default runtime path: the `a2a-runtime` crate.
pub const DEFAULT_RUNTIME_PATH: &str = "::a2a_runtime";

/// A spec directory compiled into this crate ([`Config::a2a_v1`], [`Config::a2a_v0_3`],
/// [`Config::a2a_v1_1_draft`]). The files
/// are read from `spec/` beside this crate's manifest (a link to the workspace's `spec/`, which
/// `cargo package` follows), so the published crate carries them and there is one copy in git.
struct EmbeddedSpec {
    label: &'static str,
    schema: &'static str,
    errors: &'static str,
    methods: &'static str,
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

/// What [`Config::run`] read, before importing: the data model (`None` when it could not be
/// read, the diagnostics saying why), the tables and the overlay.
struct ReadInputs {
    schema: Option<load::Schema>,
    errors: Option<load::Source<load::RawErrors>>,
    methods: Option<load::Source<load::RawMethods>>,
    overlay: Option<import::OverlayPath>,
}

static EMBEDDED_V1: EmbeddedSpec = embedded_spec!("v1");
static EMBEDDED_V0_3: EmbeddedSpec = embedded_spec!("v0_3");
static EMBEDDED_V1_1_DRAFT: EmbeddedSpec = embedded_spec!("v1_1_draft");

/// What to generate and where: the generator's settings, in the style of `prost_build::Config`.
#[derive(Clone, Debug)]
pub struct Config {
    spec: PathBuf,
    embedded: Option<&'static EmbeddedSpec>,
    label: Option<String>,
    regenerate: Option<String>,
    out_dir: Option<PathBuf>,
    runtime_path: String,
    preserve_unknown_fields: bool,
    error_reference: Option<PathBuf>,
    custom_errors: Option<PathBuf>,
    schema_file: Option<PathBuf>,
    errors_table: Option<PathBuf>,
    methods_table: Option<PathBuf>,
    single_file: Option<String>,
    rerun_if_changed: Option<bool>,
    overlay: Option<PathBuf>,
    json_schema: Option<JsonSchemaImpls>,
}

/// Whether, and under which condition, the generated code implements `schemars::JsonSchema`
/// (see [`Config::json_schema`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonSchemaImpls {
    /// Always: the including crate depends on `schemars` 1.x.
    Always,
    /// Only with this cargo feature of the including crate on (`#[cfg(feature = "...")]`).
    Feature(String),
}

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

    /// For this workspace only (its CLI defaults, freshness test and bench), not part of the API:
    /// the settings that produce the checked-in crate's v1 module (`generated/src/v1` from
    /// `spec/v1`, with `generated/ERRORS.md`), given the workspace root. The CLI's defaults and
    /// the freshness test both use [`workspace::CHECKED_IN_MODULES`], so they cannot drift apart.
    #[doc(hidden)]
    pub fn checked_in(workspace_root: &Path) -> Self {
        Config::checked_in_module(workspace_root, &workspace::CHECKED_IN_MODULES[0])
    }

    /// For this workspace only: the settings of one checked-in module of `a2a-types`
    /// (runtime `crate::rt`, schemars impls behind the feature `schemars`).
    #[doc(hidden)]
    pub fn checked_in_module(workspace_root: &Path, module: &workspace::CheckedIn) -> Self {
        let mut config = Config::new(workspace_root.join(module.spec));
        config
            .source_label(module.spec)
            .regenerate_hint(workspace::CHECKED_IN_REGENERATE)
            .out_dir(workspace_root.join(module.out))
            .runtime_path(workspace::CHECKED_IN_RUNTIME)
            .json_schema(JsonSchemaImpls::Feature(
                workspace::CHECKED_IN_JSON_SCHEMA_FEATURE.into(),
            ));
        if let Some(reference) = module.error_reference {
            config.error_reference(workspace_root.join(reference));
        }
        config
    }

    /// For this workspace only: every checked-in module of `a2a-types`
    /// ([`workspace::CHECKED_IN_MODULES`]: v1, v0.3, the v1.1 draft).
    #[doc(hidden)]
    pub fn checked_in_all(workspace_root: &Path) -> Vec<Self> {
        workspace::CHECKED_IN_MODULES
            .iter()
            .map(|module| Config::checked_in_module(workspace_root, module))
            .collect()
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

    /// Every input file this configuration reads, as given (plus the spec directory, so that a
    /// table added to it is noticed).
    pub fn input_paths(&self) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        if self.embedded.is_some() {
            // The embedded texts are part of this crate: only the files that replace them count.
            paths.extend(self.schema_file.clone());
            paths.extend(self.errors_table.clone());
            paths.extend(self.methods_table.clone());
            paths.extend(self.custom_errors.clone());
            paths.extend(self.overlay.clone());
            return paths;
        }
        let is_dir = !self.spec.is_file();
        let (dir, _) = self.table_dir("");
        if is_dir {
            paths.push(self.spec.clone());
        }
        match &self.schema_file {
            Some(path) => paths.push(path.clone()),
            None if is_dir => paths.push(self.spec.join(load::schema_file_in(&self.spec))),
            None => paths.push(self.spec.clone()),
        }
        for (table, file) in [
            (&self.errors_table, load::ERRORS_FILE),
            (&self.methods_table, load::METHODS_FILE),
        ] {
            match table {
                Some(path) => paths.push(path.clone()),
                None if dir.join(file).exists() => paths.push(dir.join(file)),
                None => {}
            }
        }
        paths.extend(self.custom_errors.clone());
        match &self.overlay {
            Some(path) => paths.push(path.clone()),
            // In a spec directory it is covered by watching the directory.
            None if !is_dir && dir.join(load::OVERLAY_FILE).exists() => {
                paths.push(dir.join(load::OVERLAY_FILE))
            }
            None => {}
        }
        paths
    }

    /// Runs load, lower, validate, emit and format, returning the files in memory (sorted by
    /// path). Touches no file.
    pub fn generate(&self) -> Result<Vec<GeneratedFile>, Error> {
        self.generate_with_notes().map(|(files, _)| files)
    }

    /// Like [`Config::generate`], also returning the [`Note`]s: what the generator decided on the
    /// input's behalf (e.g. that it ignores the `additionalProperties: false` of a published
    /// schema). [`Config::write`] and [`Config::check`] print them.
    pub fn generate_with_notes(&self) -> Result<(Vec<GeneratedFile>, Vec<Note>), Error> {
        self.run(|inputs, diags| self.generate_inputs(inputs, diags))
    }

    /// Loads, imports (when the schema is a published one), lowers and validates the inputs,
    /// without emitting: the generator's model, as `a2a-codegen ir` prints it and `diff` compares
    /// it.
    pub fn model(&self) -> Result<ir::Model, Error> {
        let mut model = None;
        self.run(|inputs, diags| {
            model = Some(self.lower_inputs(&inputs, diags)?.0);
            Ok(Vec::new())
        })?;
        model.ok_or_else(|| Error::Bug("the model was not built".into()))
    }

    /// Reads the inputs and hands them, imported into our dialect if need be, to `then`; maps
    /// problems back to the published file and collects the notes.
    fn run(
        &self,
        then: impl FnOnce(load::Inputs, Diagnostics) -> Result<Vec<GeneratedFile>, Error>,
    ) -> Result<(Vec<GeneratedFile>, Vec<Note>), Error> {
        let mut diags = Diagnostics::default();
        let mut notes = Vec::new();
        let label = self.label.clone().unwrap_or_else(|| {
            self.spec
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        let read = match self.embedded {
            Some(spec) => self.read_embedded(spec, &label, &mut diags),
            None => self.read_files(&label, &mut diags, &mut notes)?,
        };
        let (errors, methods) = (read.errors, read.methods);
        let files = match read.schema {
            None => return Err(Error::Input(diags)),
            Some(load::Schema::Json(schema)) => {
                import::generate_with(schema, read.overlay, diags, &mut notes, |schema, diags| {
                    then(
                        load::Inputs {
                            schema: load::Schema::Json(schema),
                            errors,
                            methods,
                        },
                        diags,
                    )
                })?
            }
            Some(load::Schema::Proto(proto)) => {
                if let Some(o) = read.overlay.filter(|o| o.explicit) {
                    diags
                        .push(
                            &o.label,
                            "",
                            format!("an overlay is given, but {} is a proto", proto.label),
                        )
                        .help(
                            "the overlay completes the JSON Schema the A2A project publishes; a \
                             proto says all of it (REQUIRED fields, oneofs, field order, enum \
                             names): remove the overlay setting",
                        );
                    return Err(Error::Input(diags));
                }
                let inputs = load::Inputs {
                    schema: load::Schema::Proto(proto),
                    errors,
                    methods,
                };
                then(inputs, diags)?
            }
        };
        Ok((files, notes))
    }

    /// The directory whose tables (and overlay) complete the data model, with its label: the
    /// spec directory, or the one holding a spec file (a schema or proto is read with the
    /// `errors.toml`, `methods.toml` and `overlay.toml` beside it).
    fn table_dir(&self, label: &str) -> (PathBuf, String) {
        if !self.spec.is_file() {
            return (self.spec.clone(), label.trim_end_matches('/').to_string());
        }
        let dir = self
            .spec
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let dir_label = match label.trim_end_matches('/').rsplit_once('/') {
            Some((dir, _)) => dir.to_string(),
            None => String::new(),
        };
        (dir, dir_label)
    }

    /// The inputs of a spec directory or spec file (each replaced by a file when one is set).
    fn read_files(
        &self,
        label: &str,
        diags: &mut Diagnostics,
        notes: &mut Vec<Note>,
    ) -> Result<ReadInputs, Error> {
        let is_dir = !self.spec.is_file();
        let (dir, dir_label) = self.table_dir(label);
        let in_dir = |file: &str| match dir_label.as_str() {
            "" => file.to_string(),
            dir => format!("{dir}/{file}"),
        };
        // With the schema given on its own, the spec directory only supplies optional tables.
        let problem = self
            .schema_file
            .is_none()
            .then(|| self.spec_path_problem(label))
            .flatten();
        if let Some(diags) = problem {
            return Err(Error::Input(diags));
        }
        let schema = match &self.schema_file {
            Some(path) => load::read_schema(path, &custom_label(path), diags),
            None if is_dir => load::read_schema(
                &dir.join(load::schema_file_in(&dir)),
                &in_dir(load::schema_file_in(&dir)),
                diags,
            ),
            None => load::read_schema(&self.spec, label, diags),
        };
        // A table given on its own must exist; one beside the spec is optional.
        fn table<T: for<'de> serde::Deserialize<'de>>(
            given: &Option<PathBuf>,
            (path, label): (PathBuf, String),
            diags: &mut Diagnostics,
        ) -> Option<load::Source<T>> {
            match given {
                Some(path) => load::read_toml(path, &custom_label(path), diags),
                None => load::read_toml_if_present(&path, &label, diags),
            }
        }
        let dir_file = |file: &str| (dir.join(file), in_dir(file));
        let errors = table(&self.errors_table, dir_file(load::ERRORS_FILE), diags);
        let methods = table(&self.methods_table, dir_file(load::METHODS_FILE), diags);
        let overlay = self.explicit_overlay().or_else(|| {
            Some(import::OverlayPath {
                path: dir.join(load::OVERLAY_FILE),
                label: in_dir(load::OVERLAY_FILE),
                explicit: false,
            })
            .filter(|o| o.path.exists())
        });
        if !is_dir && errors.is_none() && methods.is_none() {
            notes.push(Note {
                file: label.to_string(),
                location: String::new(),
                message: format!(
                    "{} gives the types only (types.rs): the error enum, the reply decoders and \
                     the server side come from errors.toml and methods.toml, and there are none \
                     beside it; put them there (or pass the spec directory) for them",
                    if load::is_proto(&self.spec) {
                        "a proto alone (it has no error table)"
                    } else {
                        "a single schema file"
                    }
                ),
            });
        }
        Ok(ReadInputs {
            schema,
            errors,
            methods,
            overlay,
        })
    }

    /// The inputs of an embedded spec: its texts, each replaced by a file when one is set.
    fn read_embedded(
        &self,
        spec: &EmbeddedSpec,
        label: &str,
        diags: &mut Diagnostics,
    ) -> ReadInputs {
        let in_spec = |file: &str| format!("{label}/{file}");
        fn table<T: for<'de> serde::Deserialize<'de>>(
            given: &Option<PathBuf>,
            text: &str,
            label: String,
            diags: &mut Diagnostics,
        ) -> Option<load::Source<T>> {
            match given {
                Some(path) => load::read_toml(path, &custom_label(path), diags),
                None => load::parse_toml(text.as_bytes(), &label, diags),
            }
        }
        let schema = match &self.schema_file {
            Some(path) => load::read_schema(path, &custom_label(path), diags),
            None => load::parse_json(spec.schema.as_bytes(), &in_spec(load::SCHEMA_FILE), diags)
                .map(load::Schema::Json),
        };
        let errors = table(
            &self.errors_table,
            spec.errors,
            in_spec(load::ERRORS_FILE),
            diags,
        );
        let methods = table(
            &self.methods_table,
            spec.methods,
            in_spec(load::METHODS_FILE),
            diags,
        );
        ReadInputs {
            schema,
            errors,
            methods,
            overlay: self.explicit_overlay(),
        }
    }

    /// The overlay set with [`Config::overlay`], if any.
    fn explicit_overlay(&self) -> Option<import::OverlayPath> {
        self.overlay.as_ref().map(|path| import::OverlayPath {
            path: path.clone(),
            label: custom_label(path),
            explicit: true,
        })
    }

    /// A spec path that cannot be what it should: missing (a typo such as `a2a.schema.jsn` would
    /// otherwise be read as a directory), or one of the tables given in place of the schema.
    fn spec_path_problem(&self, label: &str) -> Option<Diagnostics> {
        let spec = &self.spec;
        let shown = spec.display();
        let mut diags = Diagnostics::default();
        if !spec.exists() {
            let looks_like_file = spec.extension().is_some();
            diags
                .push(
                    label,
                    "",
                    if looks_like_file {
                        format!("the spec file {shown} does not exist")
                    } else {
                        format!("the spec directory {shown} does not exist (a2a.schema.json or a2a.proto, errors.toml and methods.toml are read from it)")
                    },
                )
                .help(if looks_like_file {
                    "check the file name; --spec takes a schema file (a2a.schema.json, or the \
                     published a2a.json), a proto (a2a.proto), or a spec directory holding one of \
                     them with errors.toml and methods.toml"
                } else {
                    "pass --spec with a spec directory (a2a.schema.json or a2a.proto, errors.toml, \
                     methods.toml) or a schema or proto file; without --spec, a2a-codegen \
                     regenerates its own workspace and must run from that workspace root"
                });
            return Some(diags);
        }
        let is_table = spec.is_file()
            && spec
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        if is_table {
            diags
                .push(
                    label,
                    "",
                    format!("{shown} is a TOML table, not a JSON schema or a proto"),
                )
                .help(
                    "pass the spec directory that holds it (with a2a.schema.json or a2a.proto \
                     beside it) as --spec; a table elsewhere goes with Config::errors_table / \
                     methods_table, a custom error table with --custom-errors",
                );
            return Some(diags);
        }
        None
    }

    /// Like [`Config::generate`], for a schema held in memory (no tables); the source label names
    /// it in diagnostics and headers. Meant for tools and tests.
    ///
    /// ```
    /// let files = a2a_codegen::Config::new("unused")
    ///     .source_label("inline.json")
    ///     .generate_from_str(r#"{"$defs": {"Ping": {"type": "object", "properties": {}}}}"#)
    ///     .unwrap();
    /// assert!(files[1].contents.contains("pub struct Ping"));
    /// ```
    pub fn generate_from_str(&self, schema_json: &str) -> Result<Vec<GeneratedFile>, Error> {
        let label = self.label.clone().unwrap_or_else(|| "schema.json".into());
        let mut diags = Diagnostics::default();
        let Some(schema) = load::parse_json(schema_json.as_bytes(), &label, &mut diags) else {
            return Err(Error::Input(diags));
        };
        import::generate_with(
            schema,
            self.explicit_overlay(),
            diags,
            &mut Vec::new(),
            |schema, diags| {
                let inputs = load::Inputs {
                    schema: load::Schema::Json(schema),
                    errors: None,
                    methods: None,
                };
                self.generate_inputs(inputs, diags)
            },
        )
    }

    fn generate_inputs(
        &self,
        inputs: load::Inputs,
        diags: Diagnostics,
    ) -> Result<Vec<GeneratedFile>, Error> {
        let runtime = parse_runtime_path(&self.runtime_path)?;
        let (model, custom) = self.lower_inputs(&inputs, diags)?;
        self.emit(&inputs, &model, custom.as_ref(), runtime)
    }

    /// Lowers and validates: the model, and the custom error table it read (if configured).
    #[allow(clippy::type_complexity)]
    fn lower_inputs(
        &self,
        inputs: &load::Inputs,
        mut diags: Diagnostics,
    ) -> Result<(ir::Model, Option<load::Source<load::RawCustomErrors>>), Error> {
        let mut model = ir::Model::default();
        match &inputs.schema {
            load::Schema::Json(schema) => {
                model.types = lower::lower_schema(schema, &mut diags);
                if let Some(methods) = &inputs.methods {
                    model.methods = lower::lower_methods(methods, &model.types, &mut diags);
                }
            }
            load::Schema::Proto(proto) => {
                let lowered = proto::lower(proto, &mut diags);
                model.types = lowered.types;
                // Without either table the proto gives the types only (the note says so), as a
                // single schema file does: the methods need the error enum.
                if inputs.errors.is_some() || inputs.methods.is_some() {
                    model.methods = proto::methods(
                        &lowered.rpcs,
                        inputs.methods.as_ref(),
                        &proto.label,
                        &model.types,
                        &mut diags,
                    );
                }
            }
        }
        if let Some(errors) = &inputs.errors {
            model.errors = lower::lower_errors(errors, &mut diags);
        }
        model.protocol_version = inputs
            .methods
            .as_ref()
            .and_then(|m| m.value.protocol_version.clone());
        let custom: Option<load::Source<load::RawCustomErrors>> = match &self.custom_errors {
            Some(path) => {
                let source = load::read_toml(path, &custom_label(path), &mut diags);
                if source.is_none() {
                    return Err(Error::Input(diags));
                }
                source
            }
            None => None,
        };
        if let Some(custom) = &custom {
            model.custom_errors = Some(lower::lower_custom_errors(custom, &mut diags));
        }
        let files = validate::Files {
            schema: inputs.schema.label(),
            errors: inputs.errors.as_ref().map_or("", |s| s.label.as_str()),
            methods: inputs
                .methods
                .as_ref()
                .map_or(inputs.schema.label(), |s| s.label.as_str()),
            custom_errors: custom.as_ref().map_or("", |s| s.label.as_str()),
        };
        validate::validate(&model, &files, self.preserve_unknown_fields, &mut diags);
        diags.into_result().map_err(Error::Input)?;
        Ok((model, custom))
    }

    /// Emits and formats the files for a validated model.
    fn emit(
        &self,
        inputs: &load::Inputs,
        model: &ir::Model,
        custom: Option<&load::Source<load::RawCustomErrors>>,
        runtime: TokenStream,
    ) -> Result<Vec<GeneratedFile>, Error> {
        let opts = emit::EmitOptions {
            runtime,
            preserve_unknown: self.preserve_unknown_fields,
        };
        let schema_input = format::HeaderInput {
            label: inputs.schema.label(),
            sha256: inputs.schema.sha256(),
        };
        // (module name, tokens, the inputs its header names), in module order.
        let mut modules: Vec<(&str, TokenStream, Vec<format::HeaderInput<'_>>)> = Vec::new();
        // The `#[cfg]` of the JSON Schema module, when it is gated on a feature.
        let schema_gate = match &self.json_schema {
            Some(JsonSchemaImpls::Feature(feature)) => quote!(#[cfg(feature = #feature)]),
            _ => TokenStream::new(),
        };
        let gate = |module: &str| match module {
            "json_schema" => schema_gate.clone(),
            _ => TokenStream::new(),
        };
        let mut files = Vec::new();
        modules.push(("types", emit::emit_types(model, &opts), vec![schema_input]));
        if let Some(errors) = inputs.errors.as_ref().filter(|_| !model.errors.is_empty()) {
            let tokens = emit::emit_errors(&model.errors, &opts);
            modules.push(("errors", tokens, vec![errors.into()]));
            if self.error_reference.is_some() {
                let text = emit::render_error_reference(
                    &model.errors,
                    &errors.label,
                    &errors.sha256,
                    self.regenerate_text(),
                )
                .map_err(Error::Bug)?;
                files.push(GeneratedFile {
                    path: ERROR_REFERENCE.into(),
                    contents: text,
                });
            }
        }
        if !model.methods.is_empty() {
            let mut header: Vec<format::HeaderInput<'_>> = Vec::new();
            if let Some(methods) = &inputs.methods {
                header.push(methods.into());
            }
            header.push(schema_input);
            if let Some(errors) = &inputs.errors {
                header.push(errors.into());
            }
            let tokens = emit::emit_methods(model, &opts);
            modules.push(("methods", tokens, header.clone()));
            let tokens = emit::emit_server(model, &opts);
            modules.push(("server", tokens, header.clone()));
            let tokens = emit::emit_service(model, &opts);
            modules.push(("service", tokens, header));
        }
        if let (Some(table), Some(source)) = (&model.custom_errors, custom) {
            let tokens = emit::emit_custom_errors(table, &source.label, &opts);
            modules.push(("custom_errors", tokens, vec![source.into()]));
        }
        if self.json_schema.is_some() {
            let tokens = emit::emit_json_schema(model, &opts);
            modules.push(("json_schema", tokens, vec![schema_input]));
        }

        match &self.single_file {
            Some(name) => {
                // One file for `include!`: inline modules and no inner attributes, so it compiles
                // inside any module of the including crate.
                let mut tokens = TokenStream::new();
                let mut header = Vec::new();
                for (module, body, inputs) in modules {
                    let ident = proc_macro2::Ident::new(module, proc_macro2::Span::call_site());
                    let cfg = gate(module);
                    tokens.extend(quote! {
                        #cfg mod #ident { #body }
                        #cfg pub use self::#ident::*;
                    });
                    for input in inputs {
                        if !header
                            .iter()
                            .any(|h: &format::HeaderInput<'_>| h.label == input.label)
                        {
                            header.push(input);
                        }
                    }
                }
                files.push(GeneratedFile {
                    path: name.clone(),
                    contents: format::format_file(tokens, &header, self.regenerate_text())
                        .map_err(Error::Bug)?,
                });
            }
            None => {
                let names: Vec<(&str, TokenStream)> =
                    modules.iter().map(|(m, _, _)| (*m, gate(m))).collect();
                let mut doc = match &inputs.schema {
                    load::Schema::Json(schema) => schema_doc(&schema.value),
                    load::Schema::Proto(proto) => proto::module_doc(proto),
                };
                if let Some(presence) = emit::presence_doc(model) {
                    if !doc.is_empty() {
                        doc.push_str("\n\n");
                    }
                    doc.push_str(presence);
                }
                let mod_rs = format::format_file(
                    module_root(&doc, &names),
                    &[schema_input],
                    self.regenerate_text(),
                )
                .map_err(Error::Bug)?;
                files.push(GeneratedFile {
                    path: "mod.rs".into(),
                    contents: mod_rs,
                });
                for (module, tokens, header) in modules {
                    files.push(GeneratedFile {
                        path: format!("{module}.rs"),
                        contents: format::format_file(tokens, &header, self.regenerate_text())
                            .map_err(Error::Bug)?,
                    });
                }
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// Generates and writes into the output directory, changing only files whose bytes differ and
    /// removing generated files that are no longer produced. Returns the paths it touched.
    pub fn write(&self) -> Result<Vec<PathBuf>, Error> {
        let in_build_script = std::env::var_os("OUT_DIR").is_some();
        if self.rerun_if_changed.unwrap_or(in_build_script) {
            // Printed before generating: a failed build script re-runs anyway, but the lines also
            // tell cargo what to watch once the inputs are fixed.
            for path in self.input_paths() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        let out = self.require_out_dir()?;
        let (files, notes) = self.generate_with_notes()?;
        print_notes(&notes, in_build_script);
        write::write_all(&out, &self.place(&out, &files)).map_err(|source| Error::Io {
            path: out.clone(),
            source,
        })
    }

    /// Generates in memory and compares with the output directory.
    pub fn check(&self) -> Result<Staleness, Error> {
        let out = self.require_out_dir()?;
        let (files, notes) = self.generate_with_notes()?;
        print_notes(&notes, false);
        write::check_all(&out, &self.place(&out, &files)).map_err(|source| Error::Io {
            path: out.clone(),
            source,
        })
    }

    /// Where each file goes: the error reference to its configured path, the modules into `out`.
    fn place<'a>(&self, out: &Path, files: &'a [GeneratedFile]) -> Vec<write::Placed<'a>> {
        files
            .iter()
            .map(|f| match &self.error_reference {
                Some(path) if f.path == ERROR_REFERENCE => (path.clone(), f),
                _ => (out.join(&f.path), f),
            })
            .collect()
    }

    /// The header's regenerate hint: the configured one, or the default.
    fn regenerate_text(&self) -> &str {
        self.regenerate
            .as_deref()
            .unwrap_or(format::DEFAULT_REGENERATE_HINT)
    }

    fn require_out_dir(&self) -> Result<PathBuf, Error> {
        if let Some(dir) = &self.out_dir {
            return Ok(dir.clone());
        }
        std::env::var_os("OUT_DIR")
            .map(PathBuf::from)
            .ok_or_else(|| {
                Error::Config(
                    "no output directory: call `out_dir(...)`, or run from a build script, where \
                 cargo sets OUT_DIR"
                        .into(),
                )
            })
    }
}

/// Tells the user what the generator decided: on stderr, or as cargo warnings in a build script
/// (cargo shows a build script's stderr only when it fails).
fn print_notes(notes: &[Note], in_build_script: bool) {
    for note in notes {
        if in_build_script {
            println!(
                "cargo:warning=a2a-codegen: {} ({} at {})",
                note.message, note.file, note.location
            );
        } else {
            eprintln!("{note}");
        }
    }
}

fn parse_runtime_path(path: &str) -> Result<TokenStream, Error> {
    syn::parse_str::<syn::Path>(path)
        .map(|p| quote!(#p))
        .map_err(|_| {
            Error::Config(format!(
                "runtime path `{path}` is not a Rust path (e.g. `::a2a_runtime`)"
            ))
        })
}

/// How a custom error table is named in diagnostics and headers: the path as given when it is
/// relative (so output does not depend on where the checkout lives), else its file name.
fn custom_label(path: &Path) -> String {
    if path.is_relative() {
        path.to_string_lossy().replace('\\', "/")
    } else {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The docs of a JSON Schema's module: its title and description.
fn schema_doc(schema: &serde_json::Value) -> String {
    let mut doc = String::new();
    for key in ["title", "description"] {
        if let Some(text) = schema.get(key).and_then(|v| v.as_str()) {
            if !doc.is_empty() {
                doc.push_str("\n\n");
            }
            doc.push_str(text.trim());
        }
    }
    doc
}

/// The module root: the module docs, and the re-export of the types.
fn module_root(doc: &str, modules: &[(&str, TokenStream)]) -> TokenStream {
    let lines = doc.lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    let cfgs = modules.iter().map(|(_, cfg)| cfg);
    let cfgs2 = cfgs.clone();
    let modules: Vec<proc_macro2::Ident> = modules
        .iter()
        .map(|(m, _)| proc_macro2::Ident::new(m, proc_macro2::Span::call_site()))
        .collect();
    quote! {
        #( #![doc = #lines] )*
        #(
            // prettyplease formats generated modules; rustfmt would reformat them and make the
            // checked-in files look stale.
            #cfgs
            #[rustfmt::skip]
            mod #modules;
            #cfgs2
            pub use self::#modules::*;
        )*
    }
}
