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

mod config;
mod convert;
mod diag;
pub mod diff;
mod emit;
mod facts;
mod format;
mod import;
mod inputs;
#[cfg(feature = "unstable-internals")]
pub mod internals;
pub mod ir;
mod load;
mod lower;
mod naming;
mod pipeline;
#[cfg(feature = "proto")]
mod proto;
#[cfg(not(feature = "proto"))]
#[path = "proto/off.rs"]
mod proto;
mod requires;
mod routes;
mod source;
mod validate;
mod write;

pub use config::{Config, Impls, JsonSchemaImpls};
pub use diag::{Diagnostic, Diagnostics, Note};
pub use write::{GeneratedFile, StaleFile, Staleness};

use std::path::PathBuf;

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
