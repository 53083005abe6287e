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

use crate::diag::Diagnostics;
use crate::ir::*;
use askama::Template;
use serde::Serialize;
use std::collections::BTreeSet;
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

#[derive(Template)]
#[template(path = "diff.md", escape = "none")]
struct MarkdownReport<'a> {
    report: &'a Report,
    summary: String,
    sections: Vec<Section>,
}

struct Section {
    title: &'static str,
    rows: Vec<Row>,
}

/// One table row, escaped for Markdown.
struct Row {
    kind: ItemKind,
    path: String,
    change: ChangeKind,
    detail: String,
}

impl Report {
    /// How many changes have this class.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// Whether any change is breaking (the CLI then exits 1).
    pub fn is_breaking(&self) -> bool {
        self.count(Class::Breaking) > 0
    }

    /// `N changes (B breaking, H behaviour, C compatible)`, or `no changes`.
    pub fn summary(&self) -> String {
        if self.changes.is_empty() {
            return "no changes".to_string();
        }
        let n = self.changes.len();
        format!(
            "{n} change{} ({} breaking, {} behaviour, {} compatible)",
            if n == 1 { "" } else { "s" },
            self.count(Class::Breaking),
            self.count(Class::Behaviour),
            self.count(Class::Compatible),
        )
    }

    /// The short form for terminals: one line per change (class, change, kind, path, detail),
    /// then the summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let width = self.changes.iter().map(|c| c.path.len()).max().unwrap_or(0);
        for c in &self.changes {
            out.push_str(&format!(
                "{:<10} {:<7} {:<6} {:<width$}  {}\n",
                c.class, c.change, c.kind, c.path, c.detail
            ));
        }
        out.push_str(&format!(
            "{} -> {}: {}\n",
            self.old,
            self.new,
            self.summary()
        ));
        out
    }

    /// The Markdown report (from the askama template `templates/diff.md`): a summary, then one
    /// table per class, most severe first.
    pub fn to_markdown(&self) -> Result<String, String> {
        let sections = [
            (Class::Breaking, "Breaking"),
            (Class::Behaviour, "Behaviour changes"),
            (Class::Compatible, "Compatible"),
        ]
        .into_iter()
        .map(|(class, title)| Section {
            title,
            rows: self
                .changes
                .iter()
                .filter(|c| c.class == class)
                .map(|c| Row {
                    kind: c.kind,
                    path: cell(&c.path),
                    change: c.change,
                    detail: cell(&c.detail),
                })
                .collect(),
        })
        .filter(|s| !s.rows.is_empty())
        .collect();
        let mut text = MarkdownReport {
            report: self,
            summary: self.summary(),
            sections,
        }
        .render()
        .map_err(|e| format!("rendering the diff report failed (a generator bug): {e}"))?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        Ok(text)
    }

    /// The JSON array of changes (the shape is documented in the [module docs](self)).
    pub fn to_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.changes).expect("changes serialize to JSON");
        text.push('\n');
        text
    }
}

/// Escapes text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
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

/// One model, with the questions about its generated Rust that the rules need. These mirror
/// `emit::types` (alias resolution, `Option` wrapping). Every generated struct implements
/// `Default` (a oneof's is `Unknown`, unset), so no rule asks which do.
#[derive(Clone, Copy)]
struct Side<'a>(&'a Model);

impl<'a> Side<'a> {
    fn kind(&self, ty: &TypeRef) -> Option<&'a TypeKind> {
        match ty {
            TypeRef::Named(id) => self.0.types.get(id).map(|d| &d.kind),
            _ => None,
        }
    }

    /// Follows aliases to the type that decides the encoding (bounded like the emitter's).
    fn resolve<'t>(&self, mut ty: &'t TypeRef) -> &'t TypeRef
    where
        'a: 't,
    {
        for _ in 0..64 {
            match self.kind(ty) {
                Some(TypeKind::Alias(inner)) => ty = inner,
                _ => return ty,
            }
        }
        ty
    }

    /// The Rust type the emitter writes for `ty` (aliases resolved), in short form.
    fn rust_type(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::String => "String".into(),
            TypeRef::Bool => "bool".into(),
            TypeRef::Int32 => "i32".into(),
            TypeRef::Integer | TypeRef::Int64 => "i64".into(),
            TypeRef::UInt64 => "u64".into(),
            TypeRef::Number => "f64".into(),
            TypeRef::Bytes => "Bytes".into(),
            TypeRef::Timestamp => "Timestamp".into(),
            TypeRef::Any => "serde_json::Value".into(),
            TypeRef::JsonObject => "serde_json::Map<String, serde_json::Value>".into(),
            TypeRef::Named(id) => id.clone(),
            TypeRef::List(item) => format!("Vec<{}>", self.rust_type(item)),
            TypeRef::Map(value) => format!("BTreeMap<String, {}>", self.rust_type(value)),
        }
    }

    fn is_collection(&self, ty: &TypeRef) -> bool {
        matches!(self.resolve(ty), TypeRef::List(_) | TypeRef::Map(_))
    }

    /// How the encoder writes a value of `ty`, as far as it can differ for one Rust type: an
    /// `i64` is a JSON number (`integer`) or a decimal string (`int64`).
    fn written_as(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::Int32 | TypeRef::Integer => "a number".into(),
            TypeRef::Int64 | TypeRef::UInt64 => "a decimal string".into(),
            TypeRef::List(item) => format!("an array of {}", self.written_as(item)),
            TypeRef::Map(value) => format!("an object of {}", self.written_as(value)),
            other => format!("`{}`", self.rust_type(other)),
        }
    }

    /// For a 64-bit integer (or a list or map of them), how it travels, as a clause for a
    /// field's declaration (`, an int64 written as a decimal string`); empty otherwise.
    fn wide_note(&self, ty: &TypeRef) -> String {
        match self.resolve(ty) {
            TypeRef::Int64 => {
                ", an int64 written as a decimal string, read from a string or a number".into()
            }
            TypeRef::UInt64 => {
                ", a uint64 written as a decimal string, read from a string or a number".into()
            }
            TypeRef::List(item) | TypeRef::Map(item) if !self.wide_note(item).is_empty() => {
                ", of 64-bit integers, each written as a decimal string".into()
            }
            _ => String::new(),
        }
    }

    /// The values an integer type holds, and its name in messages; `None` for other types.
    fn integer_range(&self, ty: &TypeRef) -> Option<(i128, i128, &'static str)> {
        match self.resolve(ty) {
            TypeRef::Int32 => Some((i32::MIN.into(), i32::MAX.into(), "int32")),
            TypeRef::Integer => Some((i64::MIN.into(), i64::MAX.into(), "integer")),
            TypeRef::Int64 => Some((i64::MIN.into(), i64::MAX.into(), "int64")),
            TypeRef::UInt64 => Some((0, u64::MAX.into(), "uint64")),
            _ => None,
        }
    }

    fn is_message(&self, ty: &TypeRef) -> bool {
        let ty = self.resolve(ty);
        matches!(ty, TypeRef::Timestamp)
            || matches!(
                self.kind(ty),
                Some(TypeKind::Struct(_) | TypeKind::OneOf(_) | TypeKind::Tagged(_))
            )
    }

    /// The tagged union that names `id` by its member `tag`, if any.
    fn union_tagged_by(&self, id: &str, tag: &str) -> Option<&'a str> {
        self.0.types.iter().find_map(|(name, def)| match &def.kind {
            TypeKind::Tagged(t) if t.tag == tag && t.variants.iter().any(|v| v.ty == id) => {
                Some(name.as_str())
            }
            _ => None,
        })
    }

    /// Whether the field's Rust type is `Option<T>`.
    fn is_option(&self, f: &Field) -> bool {
        f.presence == Presence::Optional && !self.is_collection(&f.ty)
    }

    /// The field's Rust type.
    fn field_type(&self, f: &Field) -> String {
        let ty = self.rust_type(&f.ty);
        if self.is_option(f) {
            format!("Option<{ty}>")
        } else {
            ty
        }
    }

    /// What an absent member decodes to and when the field is written.
    fn presence_semantics(&self, f: &Field) -> String {
        match &f.presence {
            Presence::Required if self.is_message(&f.ty) => {
                "absent or null decodes to its default (as protobuf reads an unset message), and \
                 it is always written"
                    .into()
            }
            Presence::Required if self.is_collection(&f.ty) => {
                "absent decodes to empty, and it is always written (even when empty)".into()
            }
            Presence::Required => {
                "absent decodes to the type's default, and it is always written".into()
            }
            Presence::Optional => {
                "absent decodes to empty, and it is written when not empty".into()
            }
            Presence::Defaulted(lit) => format!(
                "absent decodes to {}, and it is written when it differs",
                literal(lit)
            ),
        }
    }
}

fn presence_name(p: &Presence) -> String {
    match p {
        Presence::Required => "required".into(),
        Presence::Optional => "optional".into(),
        Presence::Defaulted(lit) => format!("default {}", literal(lit)),
    }
}

fn literal(lit: &Literal) -> String {
    match lit {
        Literal::String(s) => format!("{s:?}"),
        Literal::Integer(i) => i.to_string(),
        Literal::Number(n) => n.to_string(),
        Literal::Bool(b) => b.to_string(),
    }
}

fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Struct(_) => "struct",
        TypeKind::Enum(_) => "enum",
        TypeKind::OneOf(_) => "oneof enum",
        TypeKind::Tagged(_) => "tagged enum",
        TypeKind::Alias(_) => "type alias",
    }
}

struct Differ<'a> {
    old: Side<'a>,
    new: Side<'a>,
    out: Vec<Change>,
}

impl Differ<'_> {
    fn push(
        &mut self,
        kind: ItemKind,
        path: impl Into<String>,
        change: ChangeKind,
        class: Class,
        detail: impl Into<String>,
    ) {
        self.out.push(Change {
            kind,
            path: path.into(),
            change,
            class,
            detail: detail.into(),
        });
    }

    /// Whether a reference changed in a way the Rust type shows (a respelling, e.g. through an
    /// alias of the same type, does not count; a change of the alias itself is reported there).
    fn type_changed(&self, a: &TypeRef, b: &TypeRef) -> Option<(String, String)> {
        let (ra, rb) = (self.old.rust_type(a), self.new.rust_type(b));
        (a != b && ra != rb).then_some((ra, rb))
    }

    /// When a reference keeps its Rust type but is written differently (an `i64` that was a
    /// plain `integer`, written as a number, becomes an `int64`, written as a decimal string):
    /// both forms.
    fn encoding_changed(&self, a: &TypeRef, b: &TypeRef) -> Option<(String, String)> {
        if a == b || self.type_changed(a, b).is_some() {
            return None;
        }
        let (wa, wb) = (self.old.written_as(a), self.new.written_as(b));
        (wa != wb).then_some((wa, wb))
    }

    /// Reports an [`encoding_changed`](Self::encoding_changed) reference: behaviour, since every
    /// generated reader takes a 64-bit integer, or a plain integer, from a number or a string.
    fn encoding(&mut self, kind: ItemKind, path: &str, a: &TypeRef, b: &TypeRef) {
        if let Some((wa, wb)) = self.encoding_changed(a, b) {
            let rust = self.new.rust_type(b);
            self.push(
                kind,
                path,
                ChangeKind::Changed,
                Class::Behaviour,
                format!(
                    "Rust type `{rust}` stays; written as {wa} -> {wb}: the decoders of both \
                     schemas read either form (ProtoJSON integers are read from numbers and \
                     strings), so only what the encoder writes changes"
                ),
            );
        }
    }

    /// What a change between two integer types does on the wire, as a clause to add to the
    /// Rust type change (`int32` -> `int64`); `None` when either is not an integer.
    fn integer_wire(&self, a: &TypeRef, b: &TypeRef) -> Option<String> {
        let (lo_a, hi_a, name_a) = self.old.integer_range(a)?;
        let (lo_b, hi_b, name_b) = self.new.integer_range(b)?;
        let mut clauses = Vec::new();
        if lo_b > lo_a || hi_b < hi_a {
            clauses.push(format!(
                "values outside the {name_b} range, which peers on the old schema may send as \
                 {name_a}, no longer decode"
            ));
        } else {
            clauses.push(format!(
                "every {name_a} value peers on the old schema send still decodes"
            ));
        }
        let (wa, wb) = (self.old.written_as(a), self.new.written_as(b));
        if wa != wb {
            clauses.push(format!(
                "it is written as {wb} instead of {wa} (both forms are read on either side, \
                 within range)"
            ));
        }
        Some(format!("; on the wire {}", clauses.join(", and ")))
    }

    /// The detail of a Rust type change: the two types, and for integers what the wire sees.
    fn type_change_detail(&self, a: &TypeRef, b: &TypeRef, ra: &str, rb: &str) -> String {
        format!(
            "type `{ra}` -> `{rb}`{}",
            self.integer_wire(a, b).unwrap_or_default()
        )
    }

    fn types(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        let ids: BTreeSet<&TypeId> = old.types.keys().chain(new.types.keys()).collect();
        for id in ids {
            match (old.types.get(id), new.types.get(id)) {
                (Some(a), None) => self.push(
                    ItemKind::Type,
                    id,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!("{} `{id}` removed", kind_name(&a.kind)),
                ),
                (None, Some(b)) => self.push(
                    ItemKind::Type,
                    id,
                    ChangeKind::Added,
                    Class::Compatible,
                    format!("new {} `{id}`", kind_name(&b.kind)),
                ),
                (Some(a), Some(b)) => self.type_def(id, &a.kind, &b.kind),
                (None, None) => {}
            }
        }
    }

    fn type_def(&mut self, id: &str, a: &TypeKind, b: &TypeKind) {
        match (a, b) {
            (TypeKind::Struct(a), TypeKind::Struct(b)) => self.structs(id, a, b),
            (TypeKind::Enum(a), TypeKind::Enum(b)) => self.enums(id, a, b),
            (TypeKind::OneOf(a), TypeKind::OneOf(b)) => self.members(id, a, b),
            (TypeKind::Tagged(a), TypeKind::Tagged(b)) => self.tagged(id, a, b),
            (TypeKind::Alias(a), TypeKind::Alias(b)) => {
                if let Some((ra, rb)) = self.type_changed(a, b) {
                    let detail = format!(
                        "type alias of `{ra}` -> `{rb}`{}",
                        self.integer_wire(a, b).unwrap_or_default()
                    );
                    self.push(
                        ItemKind::Type,
                        id,
                        ChangeKind::Changed,
                        Class::Breaking,
                        detail,
                    );
                }
                self.encoding(ItemKind::Type, id, a, b);
            }
            _ => self.push(
                ItemKind::Type,
                id,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "{} -> {}: a different kind of Rust item",
                    kind_name(a),
                    kind_name(b)
                ),
            ),
        }
    }

    fn structs(&mut self, id: &str, a: &StructDef, b: &StructDef) {
        for f in &a.fields {
            let path = format!("{id}.{}", f.rust_name);
            match b.fields.iter().find(|g| g.rust_name == f.rust_name) {
                None => self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "field `{}: {}` (JSON `{}`) removed",
                        f.rust_name,
                        self.old.field_type(f),
                        f.json_name
                    ),
                ),
                Some(g) => self.field(&path, f, g),
            }
        }
        for g in &b.fields {
            if a.fields.iter().any(|f| f.rust_name == g.rust_name) {
                continue;
            }
            let path = format!("{id}.{}", g.rust_name);
            let decl = format!(
                "`{}: {}` (JSON `{}`{})",
                g.rust_name,
                self.new.field_type(g),
                g.json_name,
                self.new.wide_note(&g.ty)
            );
            let (class, detail) = if g.presence == Presence::Required {
                (
                    Class::Breaking,
                    format!(
                        "new required field {decl}: struct literals must set it (those naming \
                         every field stop compiling; `..Default::default()` leaves its default, \
                         which is then always written), and peers on the old schema do not send \
                         it, so their messages decode with its default"
                    ),
                )
            } else {
                (
                    Class::Compatible,
                    format!(
                        "new {} field {decl}; struct literals ending in `..Default::default()` \
                         keep compiling; peers on the old schema do not send it (it reads as \
                         absent) and skip it as an unknown member when it is sent",
                        presence_name(&g.presence)
                    ),
                )
            };
            self.push(ItemKind::Field, path, ChangeKind::Added, class, detail);
        }
        self.consts(id, &a.consts, &b.consts);
        self.oneof_field(id, a.oneof.as_ref(), b.oneof.as_ref());
    }

    fn field(&mut self, path: &str, f: &Field, g: &Field) {
        if f.json_name != g.json_name {
            let accepts =
                |x: &Field, name: &str| x.json_name == name || x.alias.as_deref() == Some(name);
            let theirs = if accepts(g, &f.json_name) {
                "the new code still accepts the old name".to_string()
            } else {
                format!(
                    "peers on the old schema send `{}`, which the new code ignores as an unknown \
                     member (the field reads as absent)",
                    f.json_name
                )
            };
            let ours = if accepts(f, &g.json_name) {
                "code built from the old schema accepts the new name".to_string()
            } else {
                format!(
                    "the new code writes `{}`, which code built from the old schema ignores",
                    g.json_name
                )
            };
            // Both sides accepting both names leaves only what is written.
            let class = if accepts(g, &f.json_name) && accepts(f, &g.json_name) {
                Class::Behaviour
            } else {
                Class::Breaking
            };
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                class,
                format!(
                    "wire name `{}` -> `{}`: {theirs}, and {ours}",
                    f.json_name, g.json_name
                ),
            );
        }
        if let Some((ra, rb)) = self.type_changed(&f.ty, &g.ty) {
            let detail = self.type_change_detail(&f.ty, &g.ty, &ra, &rb);
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                detail,
            );
        }
        self.encoding(ItemKind::Field, path, &f.ty, &g.ty);
        if f.presence != g.presence {
            let (was, now) = (presence_name(&f.presence), presence_name(&g.presence));
            let (ta, tb) = (self.old.field_type(f), self.new.field_type(g));
            if self.old.is_option(f) != self.new.is_option(g) {
                self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!("{was} -> {now}: Rust type `{ta}` -> `{tb}`"),
                );
            } else {
                self.push(
                    ItemKind::Field,
                    path,
                    ChangeKind::Changed,
                    Class::Behaviour,
                    format!(
                        "{was} -> {now}: Rust type stays `{tb}`; now {}",
                        self.new.presence_semantics(g)
                    ),
                );
            }
        }
    }

    fn consts(&mut self, id: &str, a: &[ConstField], b: &[ConstField]) {
        // The generated JSON Schema (`json_schema()`, behind the schemars feature) is the only
        // output that `required` changes: decoding accepts every const member absent.
        let schema_note = "decoding accepts it absent either way (the position already says what \
                           the object is), so only the generated JSON Schema (`json_schema()`) \
                           changes";
        for c in a {
            let path = format!("{id}.{}", c.json_name);
            let value = literal(&c.value);
            match b.iter().find(|d| d.json_name == c.json_name) {
                None => self.push(
                    ItemKind::Const,
                    path,
                    ChangeKind::Removed,
                    Class::Behaviour,
                    format!(
                        "constant member `{}` = {value} removed: no longer written on encode or \
                         checked on decode",
                        c.json_name
                    ),
                ),
                Some(d) => {
                    if c.value != d.value {
                        let union = self.new.union_tagged_by(id, &d.json_name);
                        let consequence = match union {
                            Some(u) => format!(
                                "where `{id}` is read directly, messages carrying the old value \
                                 no longer decode; as the tag of `{u}`, the old value decodes to \
                                 `{u}::Unknown`"
                            ),
                            None => "messages carrying the old value no longer decode".into(),
                        };
                        self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!("value {value} -> {}: {consequence}", literal(&d.value)),
                        );
                    }
                    match (c.required, d.required) {
                        (false, true) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            format!("now required: {schema_note}, listing it in `required`"),
                        ),
                        (true, false) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            format!(
                                "no longer required: {schema_note}, dropping it from `required`"
                            ),
                        ),
                        _ => {}
                    }
                }
            }
        }
        for d in b {
            if a.iter().any(|c| c.json_name == d.json_name) {
                continue;
            }
            let path = format!("{id}.{}", d.json_name);
            let value = literal(&d.value);
            let required = if d.required { "required " } else { "" };
            self.push(
                ItemKind::Const,
                path,
                ChangeKind::Added,
                Class::Behaviour,
                format!(
                    "new {required}constant member `{}` = {value}: now written on encode and \
                     checked when present; messages from peers on the old schema, which leave it \
                     out, still decode (a const member may be absent)",
                    d.json_name
                ),
            );
        }
    }

    fn oneof_field(&mut self, id: &str, a: Option<&OneOfField>, b: Option<&OneOfField>) {
        match (a, b) {
            (None, None) => {}
            (None, Some(b)) => self.push(
                ItemKind::Oneof,
                format!("{id}.{}", b.rust_name),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new oneof field `{}: {}`: struct literals must set it (those naming every \
                     field stop compiling; `..Default::default()` leaves it `Unknown`, unset, \
                     which writes none of its members), and messages from peers on the old \
                     schema, which have none of its members, decode with it `Unknown` (unset)",
                    b.rust_name, b.enum_name
                ),
            ),
            (Some(a), None) => self.push(
                ItemKind::Oneof,
                format!("{id}.{}", a.rust_name),
                ChangeKind::Removed,
                Class::Breaking,
                format!(
                    "oneof field `{}: {}` removed (with its enum)",
                    a.rust_name, a.enum_name
                ),
            ),
            (Some(a), Some(b)) => {
                if a.rust_name != b.rust_name || a.enum_name != b.enum_name {
                    self.push(
                        ItemKind::Oneof,
                        format!("{id}.{}", a.rust_name),
                        ChangeKind::Changed,
                        Class::Breaking,
                        format!(
                            "renamed: `{}: {}` -> `{}: {}`",
                            a.rust_name, a.enum_name, b.rust_name, b.enum_name
                        ),
                    );
                }
                self.members(&a.enum_name, &a.group, &b.group);
            }
        }
    }

    fn members(&mut self, enum_name: &str, a: &OneOfGroup, b: &OneOfGroup) {
        for m in &a.members {
            let path = format!("{enum_name}::{}", m.variant);
            match b.members.iter().find(|n| n.variant == m.variant) {
                None => self.push(
                    ItemKind::Member,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "variant `{}({})` (JSON `{}`) removed: code naming it stops compiling, \
                         and messages that set it now decode to `{enum_name}::Unknown`",
                        m.variant,
                        self.old.rust_type(&m.ty),
                        m.json_name
                    ),
                ),
                Some(n) => {
                    if m.json_name != n.json_name {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "wire name `{}` -> `{}`: peers on the old schema send `{}`, which \
                                 the new code decodes to `{enum_name}::Unknown`, and the new code \
                                 writes `{}`, which code built from the old schema decodes to \
                                 `Unknown`",
                                m.json_name, n.json_name, m.json_name, n.json_name
                            ),
                        );
                    }
                    if let Some((ra, rb)) = self.type_changed(&m.ty, &n.ty) {
                        let detail = self.type_change_detail(&m.ty, &n.ty, &ra, &rb);
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            detail,
                        );
                    }
                    self.encoding(ItemKind::Member, &path, &m.ty, &n.ty);
                }
            }
        }
        for n in &b.members {
            if a.members.iter().any(|m| m.variant == n.variant) {
                continue;
            }
            self.push(
                ItemKind::Member,
                format!("{enum_name}::{}", n.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new variant `{}({})` (JSON `{}`): exhaustive matches stop compiling (oneof \
                     enums are not #[non_exhaustive]); code built from the old schema decodes a \
                     message that sets it to `Unknown`",
                    n.variant,
                    self.new.rust_type(&n.ty),
                    n.json_name
                ),
            );
        }
    }

    fn tagged(&mut self, id: &str, a: &TaggedUnion, b: &TaggedUnion) {
        if a.tag != b.tag {
            self.push(
                ItemKind::Type,
                id,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "tag member `{}` -> `{}`: peers on the old schema name the variant with `{}`, \
                     which the new code ignores, so it picks the variant by shape (the one whose \
                     required members are present), and fails when none fits or two tie",
                    a.tag, b.tag, a.tag
                ),
            );
        }
        for v in &a.variants {
            let path = format!("{id}::{}", v.variant);
            match b.variants.iter().find(|w| w.variant == v.variant) {
                None => self.push(
                    ItemKind::Member,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "variant `{}({})` (`{}`: \"{}\") removed: code naming it stops \
                         compiling, and objects with that tag now decode to `{id}::Unknown`",
                        v.variant, v.ty, a.tag, v.value
                    ),
                ),
                Some(w) => {
                    if v.value != w.value {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "tag value \"{}\" -> \"{}\": peers on the old schema send \
                                 \"{}\", which the new code decodes to `{id}::Unknown`, and code \
                                 built from the old schema decodes the new value to `Unknown`",
                                v.value, w.value, v.value
                            ),
                        );
                    }
                    if v.ty != w.ty {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!("type `{}` -> `{}`", v.ty, w.ty),
                        );
                    }
                }
            }
        }
        for w in &b.variants {
            if a.variants.iter().any(|v| v.variant == w.variant) {
                continue;
            }
            self.push(
                ItemKind::Member,
                format!("{id}::{}", w.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new variant `{}({})` (`{}`: \"{}\"): exhaustive matches stop compiling \
                     (tagged enums are not #[non_exhaustive]); code built from the old schema \
                     decodes an object with the new tag to `Unknown`",
                    w.variant, w.ty, b.tag, w.value
                ),
            );
        }
    }

    fn enums(&mut self, id: &str, a: &EnumDef, b: &EnumDef) {
        // Pair the values by Rust variant first (the Rust item), then the values left on either
        // side by wire string (a Rust rename: variant names are derived from all the values
        // together, so one new value can respell the others).
        let mut to_new: Vec<Option<usize>> = a
            .values
            .iter()
            .map(|v| b.values.iter().position(|w| w.variant == v.variant))
            .collect();
        for (i, v) in a.values.iter().enumerate() {
            if to_new[i].is_none() {
                to_new[i] = b.values.iter().enumerate().position(|(j, w)| {
                    w.wire == v.wire
                        && !a.values.iter().any(|o| o.variant == w.variant)
                        && !to_new.contains(&Some(j))
                });
            }
        }
        // What a wire value decodes to among `values`: its variant, or `Unrecognized`.
        let decodes_to =
            |values: &[EnumValue], wire: &str| match values.iter().find(|x| x.wire == wire) {
                Some(x) => format!("`{id}::{}`", x.variant),
                None => "`Unrecognized`".to_string(),
            };
        for (v, j) in a.values.iter().zip(&to_new) {
            let path = format!("{id}::{}", v.variant);
            let Some(w) = j.map(|j| &b.values[j]) else {
                let now = decodes_to(&b.values, &v.wire);
                self.push(
                    ItemKind::Value,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "`{}` (number {}) removed: the variant is gone and the value now decodes \
                         to {now}",
                        v.wire, v.number
                    ),
                );
                continue;
            };
            if v.variant != w.variant {
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "Rust variant `{}` -> `{}` (wire `{}`): code naming the old variant \
                         stops compiling; nothing changes on the wire",
                        v.variant, w.variant, v.wire
                    ),
                );
            }
            if v.wire != w.wire {
                let old_now = decodes_to(&b.values, &v.wire);
                let ours_then = decodes_to(&a.values, &w.wire);
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "wire value `{}` -> `{}`: Rust code is unaffected (the same variant \
                         `{id}::{}`); on the wire, peers on the old schema send `{}`, which the \
                         new code decodes to {old_now}, and the new code writes `{}`, which code \
                         built from the old schema decodes to {ours_then}",
                        v.wire, w.wire, w.variant, v.wire, w.wire
                    ),
                );
            }
            if v.number != w.number {
                self.push(
                    ItemKind::Value,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "`{}`: ProtoJSON number {} -> {}: the integer form now means another \
                         value",
                        w.wire, v.number, w.number
                    ),
                );
            }
        }
        for (j, w) in b.values.iter().enumerate() {
            if to_new.contains(&Some(j)) {
                continue;
            }
            let was = match a.values.iter().find(|v| v.wire == w.wire) {
                Some(v) => format!(
                    "on the wire, `{}` used to decode to `{id}::{}`",
                    w.wire, v.variant
                ),
                None => "on the wire it is compatible (the value used to decode to `Unrecognized`)"
                    .to_string(),
            };
            self.push(
                ItemKind::Value,
                format!("{id}::{}", w.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new value `{}` (number {}): exhaustive matches stop compiling (open enums \
                     are not #[non_exhaustive]); {was}",
                    w.wire, w.number
                ),
            );
        }
    }

    /// Changes to a method's HTTP+JSON rules, matched by verb and path.
    fn routes(&mut self, path: &str, old: &[HttpRule], new: &[HttpRule]) {
        let same = |a: &HttpRule, b: &HttpRule| a.verb == b.verb && a.path == b.path;
        let shown = |r: &HttpRule| format!("`{} {}`", r.verb, r.path);
        if old.is_empty() && !new.is_empty() {
            let listed: Vec<String> = new.iter().map(shown).collect();
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Compatible,
                format!(
                    "now on the HTTP+JSON binding ({}): `rest::RestMethod` is implemented and \
                     `decode_rest_request` serves it; nothing that compiled changes",
                    listed.join(", ")
                ),
            );
            return;
        }
        for o in old {
            match new.iter().find(|n| same(o, n)) {
                None => self.push(
                    ItemKind::Method,
                    path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "HTTP rule {} removed: `decode_rest_request` refuses requests on it (404, or \
                         405 when the path stays under another verb) that it used to serve, and \
                         `encode_call` no longer uses it",
                        shown(o)
                    ),
                ),
                Some(n) if n.body != o.body => {
                    let body = |b: &Option<String>| match b.as_deref() {
                        Some("*") => "the whole request in the body".to_string(),
                        Some(field) => format!("the field `{field}` in the body"),
                        None => "no body (the fields not in the path as query parameters)".into(),
                    };
                    self.push(
                        ItemKind::Method,
                        path,
                        ChangeKind::Changed,
                        Class::Breaking,
                        format!(
                            "HTTP rule {}: {} -> {}: the request is read from, and written to, \
                             another place",
                            shown(o),
                            body(&o.body),
                            body(&n.body)
                        ),
                    );
                }
                Some(_) => {}
            }
        }
        for n in new.iter().filter(|n| !old.iter().any(|o| same(o, n))) {
            self.push(
                ItemKind::Method,
                path,
                ChangeKind::Changed,
                Class::Behaviour,
                format!(
                    "HTTP rule {} added: `decode_rest_request` also serves requests on it, and \
                     `encode_call` may pick it",
                    shown(n)
                ),
            );
        }
    }

    fn methods(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        for m in &old.methods {
            let path = &m.rust_name;
            match new.methods.iter().find(|n| n.rust_name == m.rust_name) {
                None => {
                    let mut detail = format!(
                        "method removed: `method::{}` and its `MethodName`, `Reply` and `Request` \
                         variants are gone",
                        m.rust_name
                    );
                    if !new.methods.iter().any(|n| n.name == m.name) {
                        detail.push_str(&format!(
                            "; a server built on the new table refuses `{}` (-32601)",
                            m.name
                        ));
                    }
                    self.push(
                        ItemKind::Method,
                        path,
                        ChangeKind::Removed,
                        Class::Breaking,
                        detail,
                    );
                }
                Some(n) => {
                    if m.name != n.name {
                        self.push(
                            ItemKind::Method,
                            path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "wire name `{}` -> `{}`: Rust code is unaffected (the same \
                                 `method::{}` and `MethodName`, `Reply` and `Request` variants; \
                                 `NAME` and `MethodName::as_str` give the new name); on the wire, \
                                 a server built on the new table refuses peers that call `{}` \
                                 (-32601, method not found), and a client calls `{}`, which a \
                                 peer on the old schema does not know",
                                m.name, n.name, m.rust_name, m.name, n.name
                            ),
                        );
                    }
                    for (what, a, b) in [
                        ("params", &m.params, &n.params),
                        ("result", &m.result, &n.result),
                    ] {
                        if a != b {
                            self.push(
                                ItemKind::Method,
                                path,
                                ChangeKind::Changed,
                                Class::Breaking,
                                format!("{what} `{a}` -> `{b}`"),
                            );
                        }
                    }
                    let now: Vec<&String> = n
                        .requires
                        .iter()
                        .filter(|r| !m.requires.contains(r))
                        .collect();
                    let no_longer: Vec<&String> = m
                        .requires
                        .iter()
                        .filter(|r| !n.requires.contains(r))
                        .collect();
                    let listed = |paths: &[&String]| -> String {
                        paths
                            .iter()
                            .map(|p| format!("`{p}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    let pronoun = |paths: &[&String]| {
                        if paths.len() == 1 {
                            ("it", "it is")
                        } else {
                            ("them", "one is")
                        }
                    };
                    if !now.is_empty() {
                        self.push(
                            ItemKind::Method,
                            path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "now requires {}: `decode_request` refuses (-32602) a request in \
                                 which {} absent, null or empty{}, which it used to accept",
                                listed(&now),
                                pronoun(&now).1,
                                if now.iter().any(|p| p.contains('.')) {
                                    " (below an optional object: when that object is sent)"
                                } else {
                                    ""
                                }
                            ),
                        );
                    }
                    if !no_longer.is_empty() {
                        self.push(
                            ItemKind::Method,
                            path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            format!(
                                "no longer requires {}: `decode_request` accepts a request \
                                 without {}, which it used to refuse (-32602)",
                                listed(&no_longer),
                                pronoun(&no_longer).0
                            ),
                        );
                    }
                    self.routes(path, &m.http, &n.http);
                    if m.streaming != n.streaming {
                        let detail = if n.streaming {
                            "now streaming: the reply is an SSE stream of events"
                        } else {
                            "no longer streaming: the reply is a single JSON-RPC response"
                        };
                        self.push(
                            ItemKind::Method,
                            path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            detail,
                        );
                    }
                }
            }
        }
        for n in &new.methods {
            if old.methods.iter().any(|m| m.rust_name == n.rust_name) {
                continue;
            }
            let signature = format!(
                "{} -> {}{}",
                n.params,
                n.result,
                if n.streaming { ", streaming" } else { "" }
            );
            let wire = if n.name == n.rust_name {
                String::new()
            } else {
                format!(", wire name `{}`", n.name)
            };
            if old.methods.is_empty() {
                self.push(
                    ItemKind::Method,
                    &n.rust_name,
                    ChangeKind::Added,
                    Class::Compatible,
                    format!(
                        "new method ({signature}{wire}) in a new method table: `MethodName`, \
                         `Reply` and `Request` are new items"
                    ),
                );
            } else {
                self.push(
                    ItemKind::Method,
                    &n.rust_name,
                    ChangeKind::Added,
                    Class::Breaking,
                    format!(
                        "new method ({signature}{wire}): new variants of `MethodName`, `Reply` \
                         and `Request`, which are not #[non_exhaustive], so exhaustive matches (a \
                         server's `match` on `Request`) stop compiling"
                    ),
                );
            }
        }
    }

    /// Pairs the rows of the two error tables: by Rust name first, then the rows left on either
    /// side by code (a rename: the same code under a new Rust name).
    fn error_pairs(&self) -> Vec<(Option<usize>, Option<usize>)> {
        let (old, new) = (&self.old.0.errors, &self.new.0.errors);
        let mut to_new: Vec<Option<usize>> = old
            .iter()
            .map(|e| new.iter().position(|n| n.name == e.name))
            .collect();
        for (i, e) in old.iter().enumerate() {
            if to_new[i].is_some() {
                continue;
            }
            to_new[i] = new.iter().enumerate().position(|(j, n)| {
                n.code == e.code
                    && !old.iter().any(|o| o.name == n.name)
                    && !to_new.contains(&Some(j))
            });
        }
        let mut pairs: Vec<(Option<usize>, Option<usize>)> = to_new
            .iter()
            .enumerate()
            .map(|(i, j)| (Some(i), *j))
            .collect();
        pairs.extend(
            (0..new.len())
                .filter(|j| !to_new.contains(&Some(*j)))
                .map(|j| (None, Some(j))),
        );
        pairs
    }

    fn errors(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        let new_row_for = |code: i64| new.errors.iter().find(|n| n.code == code);
        let old_row_for = |code: i64| old.errors.iter().find(|e| e.code == code);
        for pair in self.error_pairs() {
            let (e, n) = match pair {
                (Some(i), Some(j)) => (&old.errors[i], &new.errors[j]),
                (Some(i), None) => {
                    let e = &old.errors[i];
                    let now = match new_row_for(e.code) {
                        Some(other) => format!("`A2aError::{}`", other.name),
                        None => "`A2aError::Other`".to_string(),
                    };
                    self.push(
                        ItemKind::Error,
                        format!("A2aError::{}", e.name),
                        ChangeKind::Removed,
                        Class::Breaking,
                        format!(
                            "code {}: the variant is gone (code naming it stops compiling); the \
                             code now decodes to {now}",
                            e.code
                        ),
                    );
                    continue;
                }
                (None, Some(j)) => {
                    let n = &new.errors[j];
                    self.error_added(n, old_row_for(n.code).map(|e| e.name.as_str()));
                    continue;
                }
                (None, None) => continue,
            };
            let path = format!("A2aError::{}", e.name);
            if e.name != n.name {
                self.push(
                    ItemKind::Error,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "renamed: `A2aError::{}` -> `A2aError::{}` (code {}): Rust code naming \
                         the old variant stops compiling; nothing changes on the wire (the same \
                         code, decoded to the renamed variant)",
                        e.name, n.name, e.code
                    ),
                );
            }
            let code = e.code;
            if e.code != n.code {
                self.push(
                    ItemKind::Error,
                    &path,
                    ChangeKind::Changed,
                    Class::Breaking,
                    format!(
                        "code {} -> {}: the variant now stands for another code on the wire",
                        e.code, n.code
                    ),
                );
            }
            let reason = |r: &Option<String>| r.clone().unwrap_or_else(|| "(none)".into());
            let kind = |k: ErrorKind| match k {
                ErrorKind::A2a => "a2a",
                ErrorKind::JsonRpc => "jsonrpc",
                ErrorKind::Custom => "custom",
            };
            let behaviour = [
                (
                    e.grpc != n.grpc,
                    format!(
                        "gRPC status {} -> {} (what `grpc_status()` returns)",
                        e.grpc, n.grpc
                    ),
                ),
                (
                    e.http != n.http,
                    format!(
                        "HTTP status {} -> {} (what `http_status()` returns)",
                        e.http, n.http
                    ),
                ),
                (
                    e.message != n.message,
                    format!(
                        "default message {:?} -> {:?} (what `from_code` fills in)",
                        e.message, n.message
                    ),
                ),
                (
                    e.reason != n.reason,
                    format!(
                        "ErrorInfo reason {} -> {} (what `error_info` writes)",
                        reason(&e.reason),
                        reason(&n.reason)
                    ),
                ),
                (
                    e.spec_name != n.spec_name,
                    format!(
                        "spec name {} -> {} (in `ERROR_TABLE`)",
                        e.spec_name, n.spec_name
                    ),
                ),
                (
                    e.kind != n.kind,
                    format!(
                        "table {} -> {} (`ErrorRow::standard` in `ERROR_TABLE`)",
                        kind(e.kind),
                        kind(n.kind)
                    ),
                ),
            ];
            for (changed, detail) in behaviour {
                if changed {
                    self.push(
                        ItemKind::Error,
                        &path,
                        ChangeKind::Changed,
                        Class::Behaviour,
                        format!("code {code}: {detail}"),
                    );
                }
            }
        }
    }

    /// A row only in the new table; `was` is the old table's row with the same code, if any.
    fn error_added(&mut self, n: &ErrorDef, was: Option<&str>) {
        let path = format!("A2aError::{}", n.name);
        let head = format!("code {} ({}, HTTP {})", n.code, n.grpc, n.http);
        if self.old.0.errors.is_empty() {
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Compatible,
                format!(
                    "{head} in a new error table: `A2aError`, `ERROR_TABLE` and `is_code_taken` \
                     are new items"
                ),
            );
            return;
        }
        let decoded = match was {
            Some(name) => format!("`A2aError::{name}`"),
            None => "`A2aError::Other`".to_string(),
        };
        if was.is_none() && !crate::facts::RESERVED.contains(&n.code) {
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "{head}: `A2aError` is #[non_exhaustive], so matches keep compiling, but the \
                     code, which used to decode to {decoded}, now decodes to the new variant, and \
                     a custom error (`#[derive(AgentError)]`) using the code stops compiling (the \
                     code is now taken)"
                ),
            );
        } else {
            let custom = if was.is_some() {
                "custom errors could not use the code before either"
            } else {
                "custom errors could never use the code: it is in the JSON-RPC reserved block"
            };
            self.push(
                ItemKind::Error,
                path,
                ChangeKind::Added,
                Class::Behaviour,
                format!(
                    "{head}: `A2aError` is #[non_exhaustive], so matches keep compiling; the \
                     code, which used to decode to {decoded}, now decodes to the new variant; \
                     {custom}"
                ),
            );
        }
    }
}
