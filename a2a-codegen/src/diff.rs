//! Comparing two spec inputs (`a2a-codegen diff OLD NEW`), and loading one into the IR without
//! emitting anything (`a2a-codegen ir INPUT`).
//!
//! An input is anything [`Config::generate`](crate::Config::generate) reads: a schema file
//! (`*.json`), or a spec directory holding `a2a.schema.json` and, optionally, `errors.toml` and
//! `methods.toml`. Both inputs go through the generator's own load, lower and validate stages
//! ([`load_model`]), so a diff is only ever computed between two models the generator accepts, and
//! a bad input is reported exactly as `generate` would report it.
//!
//! [`diff`] compares the two models item by item and classifies each change by what it does to a
//! Rust user of the generated code:
//!
//! - **breaking**: code that compiled against the old output may stop compiling, or messages that
//!   peers on the old schema send (or expect) stop decoding. A release with such a change is a
//!   major one.
//! - **behaviour**: everything still compiles and decodes, but a generated function returns
//!   something else or the encoder writes something else (an error row's HTTP status, a field's
//!   default). Worth a line in the changelog.
//! - **compatible**: additions that existing code cannot observe.
//!
//! # The rules
//!
//! Items are matched by their Rust identity (type name, field name, oneof variant, error variant,
//! method name), except enum values, which are matched by their wire string because the Rust
//! variant names are derived from all the values together (a shared prefix is stripped).
//!
//! | item | change | class | why |
//! |---|---|---|---|
//! | type | added | compatible | a new item |
//! | type | removed | breaking | its users stop compiling |
//! | type | kind changed (struct, enum, oneof enum, tagged enum, alias) | breaking | a different kind of Rust item |
//! | type | alias target changed | breaking | `pub type X = ..` names another Rust type |
//! | type | a struct no longer implements `Default` | breaking | `..Default::default()` stops compiling (a nested change can cause it) |
//! | field | added, required | breaking | struct literals must set it; peers on the old schema do not send it (a missing message fails to decode) |
//! | field | added, optional or with a default, to a struct that implements `Default` before and after | compatible | literals ending in `..Default::default()` keep compiling |
//! | field | added, optional or with a default, to a struct without `Default` (it holds a oneof, or a required message without one) | breaking | its literals name every field, so they must now set this one too |
//! | field | removed | breaking | its users stop compiling |
//! | field | wire (JSON) name changed | breaking | peers on the old schema send the old name, which is now an unknown member |
//! | field | type changed | breaking | the Rust type changes (a change of spelling only, such as an alias for the same type, is not reported) |
//! | field | presence changed so that `Option` appears or goes (optional <-> required, optional <-> default) | breaking | the Rust type changes between `T` and `Option<T>` |
//! | field | presence changed with the same Rust type (a list or map optional <-> required; required <-> default; one default -> another) | behaviour | the value an absent member decodes to, or when it is written, changes |
//! | const | added, required | breaking | decoding fails when a peer on the old schema leaves it out |
//! | const | added, not required | behaviour | now written on encode and checked when present |
//! | const | removed | behaviour | no longer written or checked |
//! | const | value changed | breaking | messages carrying the old value no longer decode |
//! | const | becomes required | breaking | decoding fails when it is absent |
//! | const | no longer required | behaviour | decoding accepts it absent |
//! | oneof (in a struct) | added | breaking | a new field with no default: literals break, and old peers' messages have none of its members |
//! | oneof (in a struct) | removed | breaking | its users stop compiling |
//! | oneof (in a struct) | renamed (`x-oneof-name`: the field and its enum) | breaking | the Rust names change |
//! | oneof member | added | breaking | a new variant: the oneof enums are not `#[non_exhaustive]`, so exhaustive matches stop compiling; peers on the old schema cannot decode it |
//! | oneof member | removed | breaking | its users stop compiling; messages that set it no longer decode |
//! | oneof member | wire name changed | breaking | peers on the old schema send the old name |
//! | oneof member | type changed | breaking | the variant holds another Rust type |
//! | tagged union | tag member changed (`x-discriminator`) | breaking | peers on the old schema name the variant with another member |
//! | tagged variant | added | breaking | a new variant: tagged enums are not `#[non_exhaustive]` (like oneof enums: a union's variants are matched exhaustively), so exhaustive matches stop compiling; peers on the old schema reject the new tag value |
//! | tagged variant | removed | breaking | its users stop compiling; messages with its tag value no longer decode |
//! | tagged variant | tag value changed | breaking | peers on the old schema send the old value |
//! | tagged variant | type changed | breaking | the variant holds another Rust type |
//! | enum value | added | breaking | a new variant: the open enums are not `#[non_exhaustive]`, so exhaustive matches stop compiling. On the wire it is compatible (the value used to decode to `Unrecognized`) |
//! | enum value | removed | breaking | the variant is gone; the value now decodes to `Unrecognized` |
//! | enum value | Rust variant renamed (same wire string) | breaking | its users stop compiling |
//! | enum value | number changed | breaking | the ProtoJSON integer form now means another value |
//! | method | added | breaking | new variants of `MethodName`, `Reply` and `Request`, which are not `#[non_exhaustive]`: a server's exhaustive `match` on `Request` stops compiling |
//! | method | added where the old input has no method table | compatible | `MethodName`, `Reply` and `Request` are new items |
//! | method | removed | breaking | `method::X` and its variants are gone |
//! | method | params, result or streaming changed | breaking | `Method::Params` / `Result` / `STREAMING` change; the reply is read differently |
//! | error row | added | compatible | `A2aError` is `#[non_exhaustive]`; the code used to decode to `A2aError::Other` and now to the new variant, and a custom error that uses the code no longer builds (its derive checks `is_code_taken`) |
//! | error row | removed | breaking | the variant is gone |
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
//!   (enum value), `SendMessage` (method), `A2aError::TaskNotFound` (error row)
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

/// Loads a spec input into the IR, running the generator's load, import, lower and validate
/// stages (and nothing after them), through [`Config::model`](crate::Config::model): `input` is a
/// schema file (in any shape the generator reads, the published bundle included, with the spec
/// directory's overlay) or a spec directory; `label` names it in diagnostics (in a directory,
/// each file is `label/<file>`). Every problem found is returned.
pub fn load_model(input: &Path, label: &str) -> Result<Model, Diagnostics> {
    let mut config = crate::Config::new(input);
    config.source_label(label);
    config.model().map_err(|e| match e {
        crate::Error::Input(diags) => diags,
        other => {
            let mut diags = Diagnostics::default();
            diags.push(label, "", other.to_string());
            diags
        }
    })
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

/// Loads both inputs (labelled with [`label_of`]) and compares them. The problems of both inputs
/// are reported together.
pub fn compare(old: &Path, new: &Path) -> Result<Report, Diagnostics> {
    let (old_label, new_label) = (label_of(old), label_of(new));
    let old_model = load_model(old, &old_label);
    let new_model = load_model(new, &new_label);
    match (old_model, new_model) {
        (Ok(a), Ok(b)) => Ok(Report {
            changes: diff(&a, &b),
            old: old_label,
            new: new_label,
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
/// `emit::types` (alias resolution, `Option` wrapping, which structs implement `Default`).
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
            TypeRef::Integer => "i64".into(),
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

    fn is_message(&self, ty: &TypeRef) -> bool {
        let ty = self.resolve(ty);
        matches!(ty, TypeRef::Timestamp)
            || matches!(
                self.kind(ty),
                Some(TypeKind::Struct(_) | TypeKind::OneOf(_) | TypeKind::Tagged(_))
            )
    }

    fn type_has_default(&self, ty: &TypeRef, depth: usize) -> bool {
        let ty = self.resolve(ty);
        match (ty, self.kind(ty)) {
            (TypeRef::Timestamp, _) => false,
            (_, Some(TypeKind::Struct(s))) => depth < 64 && self.struct_has_default(s, depth + 1),
            (_, Some(TypeKind::OneOf(_) | TypeKind::Tagged(_))) => false,
            _ => true,
        }
    }

    /// Whether the emitter gives the struct a `Default` impl.
    fn struct_has_default(&self, s: &StructDef, depth: usize) -> bool {
        s.oneof.is_none()
            && s.fields.iter().all(|f| match f.presence {
                Presence::Required => {
                    self.is_collection(&f.ty) || self.type_has_default(&f.ty, depth)
                }
                _ => true,
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
                "decoding fails when it is absent, and it is always written".into()
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
                    self.push(
                        ItemKind::Type,
                        id,
                        ChangeKind::Changed,
                        Class::Breaking,
                        format!("type alias of `{ra}` -> `{rb}`"),
                    );
                }
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
        let had_default = self.old.struct_has_default(a, 0);
        let has_default = self.new.struct_has_default(b, 0);
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
                "`{}: {}` (JSON `{}`)",
                g.rust_name,
                self.new.field_type(g),
                g.json_name
            );
            let (class, detail) = if g.presence == Presence::Required {
                let consequence = if self.new.is_message(&g.ty) {
                    "their messages no longer decode"
                } else {
                    "it decodes to its default"
                };
                (
                    Class::Breaking,
                    format!(
                        "new required field {decl}: struct literals must set it, and peers on the \
                         old schema do not send it ({consequence})"
                    ),
                )
            } else if had_default && has_default {
                (
                    Class::Compatible,
                    format!(
                        "new {} field {decl}; struct literals ending in `..Default::default()` \
                         keep compiling",
                        presence_name(&g.presence)
                    ),
                )
            } else {
                (
                    Class::Breaking,
                    format!(
                        "new {} field {decl}: `{id}` has no `Default` (it holds a oneof or a \
                         required message without one), so its struct literals name every field \
                         and must now set this one",
                        presence_name(&g.presence)
                    ),
                )
            };
            self.push(ItemKind::Field, path, ChangeKind::Added, class, detail);
        }
        self.consts(id, &a.consts, &b.consts);
        self.oneof_field(id, a.oneof.as_ref(), b.oneof.as_ref());
        if had_default && !has_default {
            self.push(
                ItemKind::Type,
                id,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "`{id}` no longer implements `Default` (it now holds a oneof or a required \
                     message without one): `..Default::default()` stops compiling"
                ),
            );
        }
    }

    fn field(&mut self, path: &str, f: &Field, g: &Field) {
        if f.json_name != g.json_name {
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                format!(
                    "wire name `{}` -> `{}`: peers on the old schema send the old name, now an \
                     unknown member",
                    f.json_name, g.json_name
                ),
            );
        }
        if let Some((ra, rb)) = self.type_changed(&f.ty, &g.ty) {
            self.push(
                ItemKind::Field,
                path,
                ChangeKind::Changed,
                Class::Breaking,
                format!("type `{ra}` -> `{rb}`"),
            );
        }
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
                        self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "value {value} -> {}: messages carrying the old value no longer \
                                 decode",
                                literal(&d.value)
                            ),
                        );
                    }
                    match (c.required, d.required) {
                        (false, true) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            "now required: decoding fails when it is absent",
                        ),
                        (true, false) => self.push(
                            ItemKind::Const,
                            &path,
                            ChangeKind::Changed,
                            Class::Behaviour,
                            "no longer required: decoding accepts it absent",
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
            if d.required {
                self.push(
                    ItemKind::Const,
                    path,
                    ChangeKind::Added,
                    Class::Breaking,
                    format!(
                        "new required constant member `{}` = {value}: decoding fails when a peer \
                         on the old schema leaves it out",
                        d.json_name
                    ),
                );
            } else {
                self.push(
                    ItemKind::Const,
                    path,
                    ChangeKind::Added,
                    Class::Behaviour,
                    format!(
                        "new constant member `{}` = {value}: now written on encode and checked \
                         when present",
                        d.json_name
                    ),
                );
            }
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
                    "new oneof field `{}: {}`: struct literals must set it, and messages from \
                     peers on the old schema (none of its members) no longer decode",
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
                        "variant `{}({})` (JSON `{}`) removed: messages that set it no longer \
                         decode",
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
                                "wire name `{}` -> `{}`: peers on the old schema send the old name",
                                m.json_name, n.json_name
                            ),
                        );
                    }
                    if let Some((ra, rb)) = self.type_changed(&m.ty, &n.ty) {
                        self.push(
                            ItemKind::Member,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!("type `{ra}` -> `{rb}`"),
                        );
                    }
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
                     enums are not #[non_exhaustive]), and peers on the old schema cannot decode \
                     a message that sets it",
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
                    "tag member `{}` -> `{}`: peers on the old schema name the variant with the old member",
                    a.tag, b.tag
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
                        "variant `{}({})` (`{}`: \"{}\") removed: messages with that tag no longer decode",
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
                                "tag value \"{}\" -> \"{}\": peers on the old schema send the old value",
                                v.value, w.value
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
                    "new variant `{}({})` (`{}`: \"{}\"): exhaustive matches stop compiling (tagged \
                     enums are not #[non_exhaustive]), and peers on the old schema reject the new tag",
                    w.variant, w.ty, b.tag, w.value
                ),
            );
        }
    }

    fn enums(&mut self, id: &str, a: &EnumDef, b: &EnumDef) {
        for v in &a.values {
            let path = format!("{id}::{}", v.variant);
            match b.values.iter().find(|w| w.wire == v.wire) {
                None => self.push(
                    ItemKind::Value,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "`{}` (number {}) removed: the variant is gone and the value now decodes \
                         to `Unrecognized`",
                        v.wire, v.number
                    ),
                ),
                Some(w) => {
                    if v.variant != w.variant {
                        self.push(
                            ItemKind::Value,
                            &path,
                            ChangeKind::Changed,
                            Class::Breaking,
                            format!(
                                "Rust variant `{}` -> `{}` (wire `{}`)",
                                v.variant, w.variant, v.wire
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
                                "`{}`: ProtoJSON number {} -> {}: the integer form now means \
                                 another value",
                                v.wire, v.number, w.number
                            ),
                        );
                    }
                }
            }
        }
        for w in &b.values {
            if a.values.iter().any(|v| v.wire == w.wire) {
                continue;
            }
            self.push(
                ItemKind::Value,
                format!("{id}::{}", w.variant),
                ChangeKind::Added,
                Class::Breaking,
                format!(
                    "new value `{}` (number {}): exhaustive matches stop compiling (open enums \
                     are not #[non_exhaustive]); on the wire it is compatible, it used to decode \
                     to `Unrecognized`",
                    w.wire, w.number
                ),
            );
        }
    }

    fn methods(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        for m in &old.methods {
            match new.methods.iter().find(|n| n.name == m.name) {
                None => self.push(
                    ItemKind::Method,
                    &m.name,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "method removed: `method::{}` and its `MethodName`, `Reply` and `Request` \
                         variants are gone",
                        m.name
                    ),
                ),
                Some(n) => {
                    for (what, a, b) in [
                        ("params", &m.params, &n.params),
                        ("result", &m.result, &n.result),
                    ] {
                        if a != b {
                            self.push(
                                ItemKind::Method,
                                &m.name,
                                ChangeKind::Changed,
                                Class::Breaking,
                                format!("{what} `{a}` -> `{b}`"),
                            );
                        }
                    }
                    if m.streaming != n.streaming {
                        let detail = if n.streaming {
                            "now streaming: the reply is an SSE stream of events"
                        } else {
                            "no longer streaming: the reply is a single JSON-RPC response"
                        };
                        self.push(
                            ItemKind::Method,
                            &m.name,
                            ChangeKind::Changed,
                            Class::Breaking,
                            detail,
                        );
                    }
                }
            }
        }
        for n in &new.methods {
            if old.methods.iter().any(|m| m.name == n.name) {
                continue;
            }
            let signature = format!(
                "{} -> {}{}",
                n.params,
                n.result,
                if n.streaming { ", streaming" } else { "" }
            );
            if old.methods.is_empty() {
                self.push(
                    ItemKind::Method,
                    &n.name,
                    ChangeKind::Added,
                    Class::Compatible,
                    format!(
                        "new method ({signature}) in a new method table: `MethodName`, `Reply` \
                         and `Request` are new items"
                    ),
                );
            } else {
                self.push(
                    ItemKind::Method,
                    &n.name,
                    ChangeKind::Added,
                    Class::Breaking,
                    format!(
                        "new method ({signature}): new variants of `MethodName`, `Reply` and \
                         `Request`, which are not #[non_exhaustive], so exhaustive matches (a \
                         server's `match` on `Request`) stop compiling"
                    ),
                );
            }
        }
    }

    fn errors(&mut self) {
        let (old, new) = (self.old.0, self.new.0);
        for e in &old.errors {
            let path = format!("A2aError::{}", e.name);
            let Some(n) = new.errors.iter().find(|n| n.name == e.name) else {
                self.push(
                    ItemKind::Error,
                    path,
                    ChangeKind::Removed,
                    Class::Breaking,
                    format!(
                        "code {}: the variant is gone; the code now decodes to `A2aError::Other`",
                        e.code
                    ),
                );
                continue;
            };
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
        for n in &new.errors {
            if old.errors.iter().any(|e| e.name == n.name) {
                continue;
            }
            self.push(
                ItemKind::Error,
                format!("A2aError::{}", n.name),
                ChangeKind::Added,
                Class::Compatible,
                format!(
                    "code {} ({}, HTTP {}): `A2aError` is #[non_exhaustive]; the code used to \
                     decode to `A2aError::Other`, and a custom error using it no longer builds",
                    n.code, n.grpc, n.http
                ),
            );
        }
    }
}
