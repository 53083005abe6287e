//! Comparing two spec inputs (`a2a-codegen diff OLD NEW`), and loading one into the IR without
//! emitting anything (`a2a-codegen ir INPUT`).
//!
//! An input is anything [`Config::generate`](crate::Config::generate) reads: a schema file
//! (`*.json`, ours or one the A2A project publishes), a proto (`*.proto`), each read with the
//! `errors.toml`, `methods.toml` and `overlay.toml` beside it when present, or a spec directory
//! holding them. An overlay kept elsewhere is named with [`Input::overlay`]. Both inputs go through the generator's own load, lower and validate
//! stages
//! ([`Input::model`]), so a diff is only ever computed between two models the generator accepts, and
//! a bad input is reported exactly as `generate` would report it.
//!
//! [`diff`] compares the two models item by item and classifies each change by what it does to a
//! Rust user of the generated code:
//!
//! - **breaking**: code that compiled against the old output may stop compiling, or messages that
//!   peers on the old schema send (or expect) stop decoding, or now decode to `Unknown` or
//!   `Unrecognized` where they used to mean something. A release with such a change is a major
//!   one.
//! - **behaviour**: everything still compiles and decodes, but a generated function returns
//!   something else or the encoder writes something else (an error row's HTTP status, a field's
//!   default). Worth a line in the changelog.
//! - **compatible**: additions that existing code cannot observe.
//!
//! # The rules
//!
//! Items are matched by their Rust identity: types by name, fields by Rust name, oneof members and
//! tagged variants by Rust variant, enum values by Rust variant, methods by Rust name (`rust_name`
//! in `methods.toml`, which defaults to the wire name), error rows by Rust variant. Two second
//! passes pair what is left on both sides: enum values by wire string (the Rust variant names are
//! derived from all the values together, so one new value can respell the others) and error rows
//! by code. So a wire rename keeps its Rust item and is one change, and so is a Rust rename that
//! keeps its wire spelling or code; neither is reported as a removal beside an addition.
//!
//! The reasons follow what the generated decoders tolerate: every oneof enum and tagged union
//! has an `Unknown(UnknownMember)` variant and a `Default` (`Unknown`, unset), and a oneof member or
//! a tag value the reader does not know decodes to `Unknown`; an absent or `null` REQUIRED field,
//! a message included, decodes to its default; a const member (v0.3's `kind`) may be absent; every
//! generated struct implements `Default`. Struct literals are assumed to end in
//! `..Default::default()`: that is what keeps an added optional field compatible.
//!
//! | item | change | class | why |
//! |---|---|---|---|
//! | type | added | compatible | a new item |
//! | type | removed | breaking | its users stop compiling |
//! | type | kind changed (struct, enum, oneof enum, tagged enum, alias) | breaking | a different kind of Rust item |
//! | type | alias target changed | breaking | `pub type X = ..` names another Rust type |
//! | field | added, required | breaking | struct literals must set it (those naming every field stop compiling; `..Default::default()` leaves its default, which is always written); peers on the old schema do not send it, so their messages decode with its default |
//! | field | added, optional or with a default | compatible | every struct implements `Default`, so literals ending in `..Default::default()` keep compiling; peers on the old schema do not send it (it reads as absent) and skip it as an unknown member (the detail says how a 64-bit integer travels: a decimal string) |
//! | field | removed | breaking | its users stop compiling |
//! | field | wire (JSON) name changed | breaking | peers on the old schema send the old name, an unknown member to the new code (the field reads as absent), unless the new field accepts it as its alias; when both sides accept both names it is only behaviour (another name is written) |
//! | field | type changed | breaking | the Rust type changes (a change of spelling only, such as an alias for the same type, is not reported); between integer types (`int32`, `integer`, `int64`, `uint64`) the detail also says whether values peers on the old schema send still fit, and whether the written form (number or decimal string) changes |
//! | field | written form changed, same Rust type (`integer` <-> `int64`: an `i64` written as a number or as a decimal string) | behaviour | the decoders of both schemas read either form; only what the encoder writes changes (also for oneof members and aliases) |
//! | field | presence changed so that `Option` appears or goes (optional <-> required, optional <-> default) | breaking | the Rust type changes between `T` and `Option<T>` |
//! | field | presence changed with the same Rust type (a list or map optional <-> required; required <-> default; one default -> another) | behaviour | the value an absent member decodes to, or when it is written, changes |
//! | const | added (required or not) | behaviour | now written on encode and checked when present; messages that leave it out still decode |
//! | const | removed | behaviour | no longer written or checked |
//! | const | value changed | breaking | where the type is read directly, messages carrying the old value no longer decode; as a union's tag, the old value decodes to the union's `Unknown` |
//! | const | becomes required, or no longer required | behaviour | decoding accepts it absent either way; only the generated JSON Schema (`json_schema()`) changes its `required` |
//! | oneof (in a struct) | added | breaking | struct literals must set it (those naming every field stop compiling; `..Default::default()` leaves it `Unknown`, unset, which writes no member); old peers' messages have none of its members and decode with it unset |
//! | oneof (in a struct) | removed | breaking | its users stop compiling |
//! | oneof (in a struct) | renamed (`x-oneof-name`: the field and its enum) | breaking | the Rust names change |
//! | oneof member | added | breaking | a new variant: oneof enums are not `#[non_exhaustive]`, so exhaustive matches stop compiling; code built from the old schema decodes a message that sets it to `Unknown` |
//! | oneof member | removed | breaking | its users stop compiling; messages that set it now decode to `Unknown` |
//! | oneof member | wire name changed | breaking | peers on the old schema send the old name, which now decodes to `Unknown`, and read ours as `Unknown` |
//! | oneof member | type changed | breaking | the variant holds another Rust type |
//! | tagged union | tag member changed (`x-discriminator`) | breaking | peers on the old schema name the variant with another member, so the new code picks it by shape, which fails when no variant fits or two tie |
//! | tagged variant | added | breaking | a new variant: tagged enums are not `#[non_exhaustive]` (like oneof enums), so exhaustive matches stop compiling; code built from the old schema decodes the new tag value to `Unknown` |
//! | tagged variant | removed | breaking | its users stop compiling; objects with its tag value now decode to `Unknown` |
//! | tagged variant | tag value changed | breaking | each side decodes the other's value to `Unknown` |
//! | tagged variant | type changed | breaking | the variant holds another Rust type |
//! | enum value | added | breaking | a new variant: the open enums are not `#[non_exhaustive]`, so exhaustive matches stop compiling. On the wire it is compatible (the value used to decode to `Unrecognized`) |
//! | enum value | removed | breaking | the variant is gone; the value now decodes to `Unrecognized` |
//! | enum value | wire value changed (same Rust variant: `agent` -> `ROLE_AGENT`) | breaking | Rust code is unaffected; on the wire each side decodes the other's spelling to `Unrecognized` |
//! | enum value | Rust variant renamed (same wire string) | breaking | its users stop compiling; nothing changes on the wire |
//! | enum value | number changed | breaking | the ProtoJSON integer form now means another value |
//! | method | added | breaking | new variants of `MethodName`, `Reply` and `Request`, which are not `#[non_exhaustive]`: a server's exhaustive `match` on `Request` stops compiling |
//! | method | added where the old input has no method table | compatible | `MethodName`, `Reply` and `Request` are new items |
//! | method | removed | breaking | `method::X` and its variants are gone |
//! | method | wire name changed (same `rust_name`: `message/send` -> `SendMessage`) | breaking | Rust code is unaffected (the same items; `NAME` and `MethodName::as_str` give the new name); on the wire a server on the new table refuses the old name (-32601) and a client calls a name peers on the old schema do not know |
//! | method | params, result or streaming changed | breaking | `Method::Params` / `Result` / `STREAMING` change; the reply is read differently |
//! | method | a `requires` path added | breaking | `decode_request` refuses (-32602) a request without it, which it used to accept |
//! | method | a `requires` path removed | behaviour | `decode_request` accepts a request without it, which it used to refuse |
//! | method | HTTP rules added where it had none | compatible | the method is now on the HTTP+JSON binding (`rest::RestMethod`); nothing that compiled changes |
//! | method | an HTTP rule added beside others | behaviour | `decode_rest_request` also accepts requests on it, and `encode_call` may pick it |
//! | method | an HTTP rule removed (verb and path) | breaking | `decode_rest_request` refuses requests on it (404 or 405) that it used to serve, and clients built on the new table stop using it |
//! | method | an HTTP rule's body changed (same verb and path) | breaking | the request is read from, or written to, another place: the body or the query |
//! | error row | added, with a code outside the JSON-RPC reserved block that no old row has | breaking | `A2aError` is `#[non_exhaustive]`, so matches keep compiling, but the code now decodes to the new variant instead of `A2aError::Other`, and a custom error using the code stops compiling (its derive checks `is_code_taken`) |
//! | error row | added, with a code in the reserved block or one an old row had | behaviour | the code now decodes to the new variant; no custom error could use it before |
//! | error row | added where the old input has no error table | compatible | `A2aError` and `ERROR_TABLE` are new items |
//! | error row | removed | breaking | the variant is gone; the code now decodes to `A2aError::Other` (or to the row that has it now) |
//! | error row | renamed (same code, another Rust variant) | breaking | code naming the old variant stops compiling; nothing changes on the wire |
//! | error row | code changed | breaking | the variant now means another code on the wire |
//! | error row | gRPC or HTTP status changed | behaviour | `grpc_status()` / `http_status()` return the new value: a server built on them answers differently |
//! | error row | default message, ErrorInfo reason, spec name or table (`kind`) changed | behaviour | `from_code`, `error_info` and `ERROR_TABLE` give the new value |
//!
//! Changes that only touch documentation (descriptions, titles, examples, `deprecated`, a table
//! row's `doc`, a oneof's proto name) are not reported: they change rustdoc, not behaviour. When a
//! generated enum becomes `#[non_exhaustive]`, the "added" rules for its variants become
//! compatible.
//!
//! # Output
//!
//! [`Report::to_json`] writes a JSON array with one object per change, in the order [`diff`]
//! finds them (types by name, then methods and error rows in table order), each with exactly these
//! members, all strings:
//!
//! ```json
//! [{"kind": "error", "path": "A2aError::TaskNotCancelable", "change": "changed",
//!   "class": "behaviour", "detail": "code -32002: HTTP status 409 -> 400 (what `http_status()` returns)"}]
//! ```
//!
//! - `kind`: `type`, `field`, `const`, `oneof`, `member`, `value`, `method` or `error`
//! - `path`: `Task` (type), `Task.context_id` (field, by Rust name), `Task.kind` (const, by JSON
//!   name), `Part.content` (oneof field), `PartContent::Text` (oneof member, and a tagged union's
//!   variant: `Part::Text`), `TaskState::Working`
//!   (enum value), `SendMessage` (method, by `rust_name`), `A2aError::TaskNotFound` (error row).
//!   A renamed item is named as in the old input.
//! - `change`: `added`, `removed` or `changed`
//! - `class`: `breaking`, `behaviour` or `compatible`
//! - `detail`: one line for people; not meant to be parsed.
//!
//! A field or row that changes in several ways gets one entry per way.

mod differ;
mod enums;
mod errors;
mod methods;
mod report;
mod side;
mod types;

use crate::diag::Diagnostics;
use crate::ir::*;
use differ::Differ;
use serde::Serialize;
pub(crate) use side::Side;
use std::fmt;
use std::path::Path;

/// One side of a comparison: a spec input (a spec directory, a schema file or a proto) and,
/// when it is not beside the input, the overlay that completes a published schema.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The spec directory or file.
    pub path: &'a Path,
    /// The overlay, when not the `overlay.toml` beside the input ([`Config::overlay`](crate::Config::overlay)).
    pub overlay: Option<&'a Path>,
}

impl<'a> Input<'a> {
    /// The input at `path`, with whatever lies beside it.
    pub fn new(path: &'a Path) -> Self {
        Input {
            path,
            overlay: None,
        }
    }
}

impl<'a> From<&'a Path> for Input<'a> {
    fn from(path: &'a Path) -> Self {
        Input::new(path)
    }
}

impl<'a> From<&'a std::path::PathBuf> for Input<'a> {
    fn from(path: &'a std::path::PathBuf) -> Self {
        Input::new(path)
    }
}

impl Input<'_> {
    /// The generator's settings for this input, labelled with [`label_of`]: what `generate`
    /// would read (a spec directory, a schema file in any shape the generator reads, or a proto,
    /// each with the tables and overlay beside it; in a directory, each file is labelled
    /// `label/<file>`).
    pub fn config(&self) -> crate::Config {
        let mut config = crate::Config::new(self.path);
        config.source_label(label_of(self.path));
        if let Some(overlay) = self.overlay {
            config.overlay(overlay);
        }
        config
    }

    /// The model of this input, through [`Config::model`](crate::Config::model) (the load,
    /// import, lower and validate stages, nothing after them). Every problem found is returned.
    pub fn model(&self) -> Result<Model, Diagnostics> {
        self.config().model().map_err(|e| match e {
            crate::Error::Input(diags) => diags,
            other => {
                let mut diags = Diagnostics::default();
                diags.push(&label_of(self.path), "", other.to_string());
                diags
            }
        })
    }
}

/// The label of an input in diagnostics and reports: the path as given, with `/` separators and
/// without a trailing `/`.
pub fn label_of(input: &Path) -> String {
    let label = input.to_string_lossy().replace('\\', "/");
    match label.trim_end_matches('/') {
        "" => label,
        trimmed => trimmed.to_string(),
    }
}

/// Loads both inputs (each a path, or an [`Input`] naming its overlay; labelled with
/// [`label_of`]) and compares them. The problems of both inputs are reported together.
pub fn compare<'a, 'b>(
    old: impl Into<Input<'a>>,
    new: impl Into<Input<'b>>,
) -> Result<Report, Diagnostics> {
    let (old, new) = (old.into(), new.into());
    match (old.model(), new.model()) {
        (Ok(a), Ok(b)) => Ok(Report {
            changes: diff(&a, &b),
            old: label_of(old.path),
            new: label_of(new.path),
        }),
        (a, b) => {
            let mut all = Diagnostics::default();
            all.0.extend(a.err().into_iter().flat_map(|d| d.0));
            all.0.extend(b.err().into_iter().flat_map(|d| d.0));
            Err(all)
        }
    }
}

/// What a change does to a Rust user of the generated code (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Code may stop compiling, or peers on the old schema may stop understanding each other.
    Breaking,
    /// Compiles and decodes as before, but generated code returns or writes something else.
    Behaviour,
    /// Nothing existing code can observe.
    Compatible,
}

impl Class {
    /// Every class, most severe first.
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Behaviour, Class::Compatible];

    /// The name used in every output format: `breaking`, `behaviour` or `compatible`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Behaviour => "behaviour",
            Class::Compatible => "compatible",
        }
    }
}

/// Which kind of item changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A named type.
    Type,
    /// A stored field of a struct.
    Field,
    /// A property pinned with `const`.
    Const,
    /// The oneof field of a struct (from `x-oneof-name`).
    Oneof,
    /// A member (Rust variant) of a oneof.
    Member,
    /// A value of an open enum.
    Value,
    /// A JSON-RPC method of `methods.toml`.
    Method,
    /// A row of `errors.toml`.
    Error,
}

impl ItemKind {
    /// The name used in every output format (`type`, `field`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Type => "type",
            ItemKind::Field => "field",
            ItemKind::Const => "const",
            ItemKind::Oneof => "oneof",
            ItemKind::Member => "member",
            ItemKind::Value => "value",
            ItemKind::Method => "method",
            ItemKind::Error => "error",
        }
    }
}

/// Whether the item is new, gone, or different.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only in the new input.
    Added,
    /// Only in the old input.
    Removed,
    /// In both, different.
    Changed,
}

impl ChangeKind {
    /// The name used in every output format: `added`, `removed` or `changed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
        }
    }
}

macro_rules! display_as_str {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }
    )*};
}
display_as_str!(Class, ItemKind, ChangeKind);

/// One difference between the two models (one element of the JSON output).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Which kind of item.
    pub kind: ItemKind,
    /// Which item: `Task`, `Task.context_id`, `PartContent::Text`, `A2aError::TaskNotFound`, ...
    pub path: String,
    /// Added, removed or changed.
    pub change: ChangeKind,
    /// What it means for a Rust user.
    pub class: Class,
    /// One line for people.
    pub detail: String,
}

/// The result of comparing two inputs, renderable as text, Markdown or JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The old input's label.
    pub old: String,
    /// The new input's label.
    pub new: String,
    /// Every change, in the order [`diff`] found them.
    pub changes: Vec<Change>,
}

/// Compares two models and lists every change, classified (see the [module docs](self) for the
/// rules and the order).
pub fn diff(old: &Model, new: &Model) -> Vec<Change> {
    let mut d = Differ {
        old: Side(old),
        new: Side(new),
        out: Vec::new(),
    };
    d.types();
    d.methods();
    d.errors();
    d.out
}
