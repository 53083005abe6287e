//! Reading the JSON Schema the A2A project publishes: a pre-pass that turns it, completed by an
//! overlay of our own, into a2a-codegen's own dialect (the one `spec/v1/a2a.schema.json` is
//! written in), so that lowering stays one code path.
//!
//! The published schema is generated from the proto by `protoc-gen-jsonschema`. It says what the
//! fields are and what JSON they hold, but not which fields are REQUIRED, which properties form a
//! oneof, or in which order the proto declares the fields; and it spells the model with keywords
//! our dialect does not use. The pre-pass rewrites the spelling, and the overlay
//! (`spec/v1/overlay.toml`, format in `spec/v1/README.md`; `spec/v0_3/overlay.toml` for the
//! v0.3.0 schema, additions in `spec/v0_3/README.md`) supplies what the schema cannot say.
//!
//! ## Shapes, and how they are told apart ([`detect`])
//!
//! | shape | container | `$ref` | recognised by |
//! |---|---|---|---|
//! | [`Shape::Own`] | `$defs` (or `definitions`) | `#/$defs/Name` | anything that is not one of the two below |
//! | [`Shape::Bundle`] (v1.0.x `a2a.json`) | `definitions`, keyed by spaced titles (`"Agent Card"`) | file names (`lf.a2a.v1.Message.jsonschema.json`) | `definitions` in which some `$ref` names a `*.jsonschema.json` file |
//! | [`Shape::LocalBundle`] (after upstream PR #2074) | `$defs`, keyed by message names | local (`#/$defs/Message`) | some definition uses a ProtoJSON idiom of the generator (below) |
//! | [`Shape::V03`] (v0.3.x `a2a.json`, from TypeScript) | `definitions`, keyed by type names | local (`#/definitions/Part`) | `$schema` is draft-07 and some definition is an `anyOf` of 2+ refs whose targets all require a member pinned with a distinct `const` (`kind`, `type`) |
//!
//! The idioms: a `patternProperties` entry `^(snake_name)$` (the snake_case spelling of a
//! property), an `anyOf` that is an inlined enum (`[{"type": "string", "pattern":
//! "^X_UNSPECIFIED$"}, {"type": "string", "enum": [...]}, {"type": "integer", "minimum": ...,
//! "maximum": ...}]`), or an `anyOf` that is an int32 (`[{"type": "integer", "minimum":
//! -2147483648, "maximum": 2147483647}, {"type": "string", "pattern": "^-?[0-9]+$"}]`). Our
//! dialect never uses them (the lowerer rejects them), so no schema that lowers today changes
//! meaning. `additionalProperties: false` alone is *not* an idiom, and a file-name `$ref` under
//! `$defs` is not a bundle: in our own schema both stay the errors they always were.
//!
//! ## What the pre-pass does ([`import`])
//!
//! - Definition keys become type names: a file-name suffix `.jsonschema.json` and a package prefix
//!   (`lf.a2a.v1.`, `google.protobuf.`) are cut, spaces removed (`"O Auth2 Security Scheme"` ->
//!   `OAuth2SecurityScheme`). `$ref`s (file names, or local pointers into the file's container)
//!   become `#/$defs/Name`.
//! - Inlined enums become named enum definitions: values in the order written, the zero value
//!   (`pattern`) first, so a value's index is its proto number. The name comes from the overlay
//!   (`[enum.TaskState] zero = "TASK_STATE_UNSPECIFIED"`), else from the property's `title`
//!   (`"Task State"`), else from the zero value's prefix (`TASK_STATE_UNSPECIFIED` -> `TaskState`).
//!   Every use with the same name must list the same values.
//! - int32 `anyOf`s become `{"type": "integer", "format": "int32"}`; the base64 `pattern` of
//!   `bytes` becomes `"format": "byte"`; `propertyNames: {"type": "string"}` on maps is dropped.
//! - `patternProperties` are dropped when every entry is the snake_case alias of a property (the
//!   generator derives and accepts those aliases itself); any other entry is an error.
//! - `default`s holding the ProtoJSON zero value (`""`, `false`, `0`, the enum's zero) are dropped.
//!   The bundle puts them on every field without explicit presence; they say nothing the type does
//!   not, and our dialect models every field that is not REQUIRED as optional (absent is visible),
//!   as `spec/v1` does. A non-zero `default` is kept and means what it means in our dialect.
//! - `additionalProperties: false` on messages is dropped, never turned into a closed struct: A2A
//!   v1 §5.7 says receivers skip unknown fields. The generator says so once, as a [`Note`].
//! - `$schema` and `$id` inside definitions, definition `title`s (the spaced names) and the
//!   top-level `version` and `$ref` are dropped. Anything else is kept for the lowerer, which
//!   reports what it does not support; its diagnostics are mapped back to the published file's
//!   own JSON pointers (or to the overlay's TOML path, for what the overlay added).
//!
//! For [`Shape::V03`] (format of its overlay in `spec/v0_3/README.md`):
//!
//! - The JSON-RPC layer is left out by rule (one [`Note`] says so): definitions with a `jsonrpc`
//!   member, error objects (`code` and `message` members, `code` required), and `anyOf`s of refs
//!   to those only. The overlay's `drop` leaves out more (the base shapes, which the concrete
//!   definitions repeat since the schema uses no `allOf`); a kept `$ref` to a dropped definition
//!   is an error.
//! - A definition that is an `anyOf` of refs to `const`-tagged definitions becomes
//!   `{"oneOf": [refs], "x-discriminator": member}`; any other `anyOf` definition is an error.
//! - `[union.Name] at = pointer` makes a definition of an inline `anyOf` of refs (a tagged union,
//!   or with `oneof = "name"` one object merging the branches, whose members only some branches
//!   require form the oneof); `[enum.Name] at = pointer` names an inline `enum`. Each use becomes
//!   a `$ref`.
//! - `additionalProperties: {}` on an object without properties is dropped (a free-form object);
//!   a `default` on a required member is dropped (it has nothing to fill in).
//!
//! Then the overlay is applied: property order, `required`, the oneof group, `deprecated` flags,
//! enum names and descriptions, and whole definitions the schema lacks (`Empty`). An overlay entry
//! that names a message, property or enum the schema lacks is an error at its TOML path.

use crate::diag::{pointer_push, Diagnostics, Note};
use crate::ir::{TypeDef, TypeId};
use crate::load::{self, Source};
use crate::naming;
use crate::{Error, GeneratedFile};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Suffix of the file names the v1.0.x bundle's `$ref`s point at.
const FILE_REF_SUFFIX: &str = ".jsonschema.json";
/// The `pattern` the published schema gives `bytes` fields (standard base64).
const BASE64_PATTERN: &str = "^[A-Za-z0-9+/]*={0,2}$";
/// The `$schema` of JSON Schema draft-07 (with or without the trailing `#`).
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema";
/// The `pattern` of the numeric-string branch of an int32 `anyOf`.
const INT_STRING_PATTERN: &str = "^-?[0-9]+$";

/// The layouts of schema a2a-codegen reads. See the docs of the import module (`src/import.rs`) for the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// a2a-codegen's own dialect: lowered as written.
    Own,
    /// The bundle published for A2A v1.0.x (`a2a.json`): `definitions` keyed by spaced titles,
    /// `$ref`s to file names.
    Bundle,
    /// The layout of the A2A generator script since upstream PR #2074: `$defs` keyed by message
    /// names with local `$ref`s, otherwise like [`Shape::Bundle`].
    LocalBundle,
    /// The schema published for A2A v0.3.x (`specification/json/a2a.json`, generated from
    /// TypeScript): draft-07 `definitions`, `#/definitions/...` refs, unions as `anyOf`s of refs
    /// told apart by a `const` member, the JSON-RPC envelope and error objects alongside the data
    /// model.
    V03,
}

impl Shape {
    fn describe(self) -> &'static str {
        match self {
            Shape::Own => "a2a-codegen's own schema dialect",
            Shape::Bundle => {
                "the JSON Schema bundle the A2A project publishes (v1.0.x layout: `definitions` \
                 with `$ref`s to file names)"
            }
            Shape::LocalBundle => {
                "the JSON Schema the A2A project's generator writes (layout with local `$ref`s)"
            }
            Shape::V03 => {
                "the JSON Schema the A2A project published for v0.3.x (draft-07 `definitions`, \
                 `anyOf` unions told apart by a `const` member)"
            }
        }
    }
}

/// Which layout `schema` is in.
pub fn detect(schema: &Value) -> Shape {
    let Some(root) = schema.as_object() else {
        return Shape::Own;
    };
    let (defs, definitions) = match (root.get("$defs"), root.get("definitions")) {
        (Some(defs), None) => (defs, false),
        (None, Some(defs)) => (defs, true),
        _ => return Shape::Own,
    };
    let mut signs = Signs::default();
    signs.scan(defs);
    if signs.file_ref && definitions {
        Shape::Bundle
    } else if signs.idiom {
        Shape::LocalBundle
    } else if definitions && is_draft07(root) && is_v03(defs) {
        Shape::V03
    } else {
        Shape::Own
    }
}

/// `$schema` names JSON Schema draft-07.
fn is_draft07(root: &Map<String, Value>) -> bool {
    root.get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.starts_with(DRAFT_07))
}

/// Some definition is an `anyOf` of local refs whose targets pin a common member with `const`.
fn is_v03(defs: &Value) -> bool {
    let Some(defs) = defs.as_object() else {
        return false;
    };
    defs.values().any(|d| {
        d.get("anyOf")
            .is_some_and(|any| tag_of_union(defs, any, "#/definitions/").is_ok())
    })
}

/// The targets of an `anyOf` made of `{"$ref": "<prefix>Key"}` branches only.
fn ref_branches<'a>(any: &'a Value, prefix: &str) -> Option<Vec<&'a str>> {
    let branches = any.as_array().filter(|b| b.len() >= 2)?;
    branches
        .iter()
        .map(|b| {
            let b = b.as_object().filter(|b| b.len() == 1)?;
            b.get("$ref")?.as_str()?.strip_prefix(prefix)
        })
        .collect()
}

/// The members a definition pins with `{"type": "string", "const": ...}` and requires.
fn pinned_members(def: &Value) -> Vec<String> {
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    def.get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(name, p)| {
                    required.contains(&name.as_str())
                        && p.get("const").is_some_and(Value::is_string)
                        && p.get("type").and_then(Value::as_str) == Some("string")
                })
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The discriminating member of an `anyOf` of refs (`kind`, `type`): the one member every target
/// pins with a `const` and requires, with a different value in each. `Err` says why there is none.
fn tag_of_union(defs: &Map<String, Value>, any: &Value, prefix: &str) -> Result<String, String> {
    let Some(targets) = ref_branches(any, prefix) else {
        return Err("not an `anyOf` of two or more local `$ref`s".into());
    };
    let mut common: Option<Vec<String>> = None;
    for target in &targets {
        let key = target.replace("~1", "/").replace("~0", "~");
        let Some(def) = defs.get(&key) else {
            return Err(format!("`{key}` is not defined"));
        };
        let pinned = pinned_members(def);
        common = Some(match common {
            None => pinned,
            Some(c) => c.into_iter().filter(|m| pinned.contains(m)).collect(),
        });
    }
    let common = common.unwrap_or_default();
    let distinct = |member: &String| {
        let mut values: Vec<&Value> = targets
            .iter()
            .filter_map(|t| defs.get(&t.replace("~1", "/").replace("~0", "~")))
            .filter_map(|d| d.get("properties")?.get(member)?.get("const"))
            .collect();
        let n = values.len();
        values.sort_by_key(|v| v.to_string());
        values.dedup();
        values.len() == n
    };
    match common.iter().filter(|m| distinct(m)).collect::<Vec<_>>()[..] {
        [one] => Ok(one.clone()),
        [] => Err("its branches share no required member pinned with a distinct `const`".into()),
        ref many => Err(format!(
            "its branches share several pinned members ({})",
            many.iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[derive(Default)]
struct Signs {
    file_ref: bool,
    idiom: bool,
}

impl Signs {
    fn scan(&mut self, value: &Value) {
        match value {
            Value::Object(obj) => {
                if let Some(Value::String(target)) = obj.get("$ref") {
                    self.file_ref |= target.ends_with(FILE_REF_SUFFIX);
                }
                if let Some(Value::Object(patterns)) = obj.get("patternProperties") {
                    self.idiom |= patterns.keys().any(|k| alias_of_pattern(k).is_some());
                }
                if let Some(any) = obj.get("anyOf") {
                    self.idiom |= inlined_enum(any).is_some() || is_int32(any);
                }
                obj.values().for_each(|v| self.scan(v));
            }
            Value::Array(items) => items.iter().for_each(|v| self.scan(v)),
            _ => {}
        }
    }
}

/// `context_id` for the key `^(context_id)$`.
fn alias_of_pattern(key: &str) -> Option<&str> {
    let inner = key.strip_prefix("^(")?.strip_suffix(")$")?;
    let ok = !inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    ok.then_some(inner)
}

/// `{"type": "integer", "minimum": -2^31, "maximum": 2^31 - 1}` and nothing else.
fn is_int32_range(branch: &Map<String, Value>) -> bool {
    branch.len() == 3
        && branch.get("type").and_then(Value::as_str) == Some("integer")
        && branch.get("minimum").and_then(Value::as_i64) == Some(i32::MIN.into())
        && branch.get("maximum").and_then(Value::as_i64) == Some(i32::MAX.into())
}

/// `{"type": "string", <key>: ...}` and nothing else: the value of `key`.
fn string_branch<'a>(branch: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    (branch.len() == 2 && branch.get("type").and_then(Value::as_str) == Some("string"))
        .then(|| branch.get(key))
        .flatten()
}

/// An inlined ProtoJSON enum: `(zero value, the other values)`.
fn inlined_enum(any: &Value) -> Option<(String, Vec<String>)> {
    let branches = any.as_array().filter(|b| (2..=3).contains(&b.len()))?;
    let (mut zero, mut rest, mut int) = (None, None, false);
    for branch in branches {
        let branch = branch.as_object()?;
        if let Some(pattern) = string_branch(branch, "pattern") {
            let name = pattern.as_str()?.strip_prefix('^')?.strip_suffix('$')?;
            let is_value = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if !is_value || zero.replace(name.to_string()).is_some() {
                return None;
            }
        } else if let Some(values) = string_branch(branch, "enum") {
            let values = values
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()?;
            if rest.replace(values).is_some() {
                return None;
            }
        } else if is_int32_range(branch) && !int {
            int = true;
        } else {
            return None;
        }
    }
    if !int {
        return None;
    }
    Some((zero?, rest.unwrap_or_default()))
}

/// A ProtoJSON int32: a number in range, or a string of digits.
fn is_int32(any: &Value) -> bool {
    let Some([a, b]) = any.as_array().map(Vec::as_slice) else {
        return false;
    };
    let digits = |v: &Value| {
        v.as_object()
            .and_then(|o| string_branch(o, "pattern"))
            .and_then(Value::as_str)
            == Some(INT_STRING_PATTERN)
    };
    let range = |v: &Value| v.as_object().is_some_and(is_int32_range);
    (range(a) && digits(b)) || (digits(a) && range(b))
}

/// The type name of a definition key or file-name `$ref`: `lf.a2a.v1.Message.jsonschema.json` ->
/// `Message`, `"O Auth2 Security Scheme"` -> `OAuth2SecurityScheme`.
pub fn type_name(key: &str) -> String {
    let stem = key.strip_suffix(FILE_REF_SUFFIX).unwrap_or(key);
    let last = stem.rsplit('.').next().unwrap_or(stem);
    last.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `value` is the ProtoJSON zero value of a schema of type `ty`.
fn is_zero(ty: Option<&str>, value: &Value) -> bool {
    match ty {
        Some("string") => value.as_str() == Some(""),
        Some("boolean") => value.as_bool() == Some(false),
        Some("integer") | Some("number") => value.as_f64() == Some(0.0),
        _ => false,
    }
}

/// Our overlay: what the published schema cannot say (format in `spec/v1/README.md`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// `[message.Name]`: per message, by type name.
    #[serde(default)]
    pub message: BTreeMap<String, OverlayMessage>,
    /// `[enum.Name]`: names (and describes) the inlined enums, by their zero value.
    #[serde(default, rename = "enum")]
    pub enums: BTreeMap<String, OverlayEnum>,
    /// `[definition.Name]`: a whole definition the schema lacks, in our dialect.
    #[serde(default)]
    pub definition: BTreeMap<String, toml::Table>,
    /// `drop = [...]` (v0.3): definitions of the schema that are not generated, besides those the
    /// import drops by rule (the JSON-RPC envelope and the error objects).
    #[serde(default)]
    pub drop: Vec<String>,
    /// `[union.Name]` (v0.3): a named definition made from an inline `anyOf` of `$ref`s.
    #[serde(default)]
    pub union: BTreeMap<String, OverlayUnion>,
}

/// One `[union.Name]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayUnion {
    /// JSON pointer, in the published file, of the schema holding the `anyOf`
    /// (`/definitions/FilePart/properties/file`); that use becomes a `$ref` to the new definition.
    pub at: String,
    /// Absent: a tagged union (`oneOf` + `x-discriminator`). Present: the branches are merged into
    /// one object whose members that only some branches require form a oneof of this name.
    #[serde(default)]
    pub oneof: Option<String>,
    /// Its description.
    #[serde(default)]
    pub description: Option<String>,
}

/// One `[message.Name]` table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayMessage {
    /// Every property, in proto field order (the published schema sorts them by name).
    #[serde(default)]
    pub fields: Option<Vec<String>>,
    /// The REQUIRED fields (`google.api.field_behavior`).
    #[serde(default)]
    pub required: Vec<String>,
    /// The message's oneof.
    #[serde(default)]
    pub oneof: Option<OverlayOneof>,
    /// Properties the proto marks `[deprecated = true]`.
    #[serde(default)]
    pub deprecated: Vec<String>,
}

/// `oneof = { name = "...", members = [...] }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayOneof {
    /// The proto oneof's name (`content`, `payload`).
    pub name: String,
    /// The member properties.
    pub members: Vec<String>,
}

/// One `[enum.Name]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayEnum {
    /// The enum's zero value (`TASK_STATE_UNSPECIFIED`), which identifies it (v1).
    #[serde(default)]
    pub zero: Option<String>,
    /// Or (v0.3): the JSON pointer, in the published file, of the property holding the inline
    /// `{"type": "string", "enum": [...]}` (`/definitions/Message/properties/role`).
    #[serde(default)]
    pub at: Option<String>,
    /// Its description (the inlined enum has none of its own).
    #[serde(default)]
    pub description: Option<String>,
}

/// Reads an overlay file (syntax and unknown keys are reported with line and column).
pub fn read_overlay(path: &Path, label: &str, diags: &mut Diagnostics) -> Option<Source<Overlay>> {
    load::read_toml(path, label, diags)
}

/// A published schema rewritten into our dialect.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The schema in our dialect; label and SHA-256 are the published file's.
    pub schema: Source<Value>,
    /// What the generator decided on the schema's behalf.
    pub notes: Vec<Note>,
    /// `(pointer in the rewritten schema, file, pointer there, keep the rest of the pointer)`.
    origins: Vec<(String, String, String, bool)>,
}

impl Imported {
    /// Points diagnostics about the rewritten schema (from lowering and validation) back at the
    /// published file's own JSON pointers, or at the overlay's TOML path for what it added.
    pub fn remap(&self, diags: &mut Diagnostics) {
        for d in diags.0.iter_mut().filter(|d| d.file == self.schema.label) {
            let best = self
                .origins
                .iter()
                .filter(|(new, ..)| {
                    d.location == *new
                        || d.location
                            .strip_prefix(new.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                })
                .max_by_key(|(new, ..)| new.len());
            if let Some((new, file, old, keep_rest)) = best {
                let rest = if *keep_rest {
                    &d.location[new.len()..]
                } else {
                    ""
                };
                d.location = format!("{old}{rest}");
                d.file = file.clone();
            }
        }
    }
}

/// Rewrites a published schema into our dialect and applies the overlay. Every problem found is
/// added to `diags`; `None` when there was any (a published schema without an overlay is one).
pub fn import(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
) -> Option<Imported> {
    let errors_before = diags.0.len();
    let shape = detect(&schema.value);
    let file = schema.label.as_str();
    let Some(root) = schema.value.as_object() else {
        diags.push(file, "", "the schema must be a JSON object");
        return None;
    };
    if shape == Shape::Own {
        diags
            .push(
                file,
                "",
                "the schema is in a2a-codegen's own dialect, not a published layout",
            )
            .help("lower it as it is (`lower_types` does), without an overlay");
        return None;
    }
    if overlay.is_none() {
        diags
            .push(
                file,
                "",
                format!(
                    "this is {}; it does not say which fields are REQUIRED or which properties \
                     form a oneof, so a2a-codegen needs an overlay to read it",
                    shape.describe()
                ),
            )
            .help(format!(
                "put an `{}` beside it in the spec directory (a2a-codegen's {} is the one for \
                 A2A {}), or name one with `Config::overlay`; {} describes the format",
                load::OVERLAY_FILE,
                if shape == Shape::V03 {
                    "spec/v0_3/overlay.toml"
                } else {
                    "spec/v1/overlay.toml"
                },
                if shape == Shape::V03 {
                    "v0.3.0"
                } else {
                    "v1.0.x"
                },
                if shape == Shape::V03 {
                    "spec/v0_3/README.md"
                } else {
                    "spec/v1/README.md"
                },
            ));
    }
    let (container, defs) = match (root.get("$defs"), root.get("definitions")) {
        (Some(_), Some(_)) => {
            diags
                .push(file, "", "both `$defs` and `definitions` are present")
                .help("keep one container of definitions");
            return None;
        }
        (Some(d), None) => ("$defs", d),
        (None, Some(d)) => ("definitions", d),
        (None, None) => {
            diags
                .push(file, "", "the schema has no `$defs` or `definitions`")
                .help("a published schema keeps its types under `definitions` or `$defs`");
            return None;
        }
    };
    let Some(defs) = defs.as_object() else {
        diags.push(
            file,
            format!("/{container}"),
            "must be an object of named schemas",
        );
        return None;
    };
    let empty = Overlay::default();
    let (overlay_value, overlay_file) = match overlay {
        Some(o) => (&o.value, o.label.as_str()),
        None => (&empty, ""),
    };
    let mut im = Importer {
        file,
        container,
        shape,
        defs,
        keys: BTreeMap::new(),
        zero_names: BTreeMap::new(),
        enums: BTreeMap::new(),
        enum_sites: BTreeMap::new(),
        union_sites: BTreeMap::new(),
        dropped: BTreeSet::new(),
        closed: Vec::new(),
        diags,
    };
    let mut origins = Vec::new();

    // Names first, so that every `$ref` can be resolved whatever the order.
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for key in defs.keys() {
        let name = type_name(key);
        let at = pointer_push(&format!("/{container}"), key);
        if !naming::is_identifier(&name) {
            im.diags
                .push(file, &at, format!("`{key}` does not give a type name (got `{name}`)"))
                .help("a definition's key, without spaces, must be a message name such as `AgentCard`");
        } else if let Some(other) = seen.insert(name.clone(), key.clone()) {
            im.diags
                .push(
                    file,
                    &at,
                    format!("`{key}` and `{other}` both give the type name `{name}`"),
                )
                .help("every definition must have its own name");
        } else {
            im.keys.insert(key.clone(), name);
        }
    }
    for (name, e) in &overlay_value.enums {
        let at = pointer_push("/enum", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the enum like a Rust type, e.g. [enum.TaskState]");
        } else {
            match (&e.zero, &e.at) {
                (Some(zero), None) => {
                    if let Some(other) = im.zero_names.insert(zero.clone(), name.clone()) {
                        im.diags
                            .push(
                                overlay_file,
                                format!("{at}/zero"),
                                format!("`{zero}` already names enum `{other}`"),
                            )
                            .help("each inlined enum is named once, by its zero value");
                    }
                }
                (None, Some(site)) => {
                    if schema
                        .value
                        .pointer(site)
                        .and_then(|v| v.get("enum"))
                        .is_none()
                    {
                        im.diags
                            .push(
                                overlay_file,
                                format!("{at}/at"),
                                format!("the schema has no inline `enum` at `{site}`"),
                            )
                            .help(
                                "give the JSON pointer of the property holding the enum, e.g. \
                                   \"/definitions/Message/properties/role\"",
                            );
                    } else {
                        im.enum_sites.insert(site.clone(), name.clone());
                    }
                }
                _ => {
                    im.diags
                        .push(
                            overlay_file,
                            &at,
                            "an enum table needs exactly one of `zero` and `at`",
                        )
                        .help(
                            "`zero` names an inlined ProtoJSON enum (v1) by its zero value; `at` \
                             names an inline enum (v0.3) by the JSON pointer of its property",
                        );
                }
            }
        }
    }

    // Definitions that are not generated: by rule in a v0.3 schema, and as the overlay says.
    if shape == Shape::V03 {
        let dropped = dropped_by_rule(defs, &format!("#/{container}/"));
        im.dropped.extend(dropped);
    }
    for (i, name) in overlay_value.drop.iter().enumerate() {
        match im.keys.iter().find(|(_, n)| *n == name) {
            Some((key, _)) => {
                im.dropped.insert(key.clone());
            }
            None => {
                im.diags
                    .push(
                        overlay_file,
                        format!("/drop/{i}"),
                        format!("the schema has no definition `{name}`"),
                    )
                    .help("fix the name or remove it from `drop`");
            }
        }
    }
    let mut union_defs = Vec::new();
    for (name, u) in &overlay_value.union {
        let at = pointer_push("/union", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the union like a Rust type, e.g. [union.SendMessageResult]");
            continue;
        }
        if im.keys.values().any(|n| n == name) {
            im.diags
                .push(
                    overlay_file,
                    &at,
                    format!("the schema already defines `{name}`"),
                )
                .help("choose a name the schema does not use");
            continue;
        }
        let prefix = format!("#/{container}/");
        let any = schema.value.pointer(&u.at).and_then(|v| v.get("anyOf"));
        let Some(targets) = any.and_then(|a| ref_branches(a, &prefix)) else {
            im.diags
                .push(
                    overlay_file,
                    format!("{at}/at"),
                    format!("the schema has no `anyOf` of `$ref`s at `{}`", u.at),
                )
                .help(
                    "give the JSON pointer of the schema holding the `anyOf`, e.g. \
                       \"/definitions/SendMessageSuccessResponse/properties/result\"",
                );
            continue;
        };
        let any = any.expect("checked above");
        let anyof_at = format!("{}/anyOf", u.at);
        let def = match &u.oneof {
            None => match tag_of_union(defs, any, &prefix) {
                Ok(tag) => im.tagged(any, &tag, &anyof_at),
                Err(why) => {
                    im.diags
                        .push(
                            overlay_file,
                            format!("{at}/at"),
                            format!("the `anyOf` at `{}` is not a tagged union: {why}", u.at),
                        )
                        .help("add `oneof = \"<name>\"` to merge its branches into one object instead");
                    continue;
                }
            },
            Some(oneof) => {
                let keys: Vec<String> = targets
                    .iter()
                    .map(|t| t.replace("~1", "/").replace("~0", "~"))
                    .collect();
                match im.merged(&keys, oneof) {
                    Ok(def) => def,
                    Err(why) => {
                        im.diags
                            .push(overlay_file, format!("{at}/oneof"), why)
                            .help("merge only branches that differ in which members they require");
                        continue;
                    }
                }
            }
        };
        let mut def = def;
        if let Some(text) = &u.description {
            def.insert("description".into(), text.as_str().into());
        }
        im.union_sites.insert(u.at.clone(), name.clone());
        origins.push((
            pointer_push("/$defs", name),
            overlay_file.to_string(),
            at,
            false,
        ));
        union_defs.push((name.clone(), Value::Object(def)));
    }

    let mut out_defs = Map::new();
    for (key, def) in defs {
        let Some(name) = im.keys.get(key).cloned() else {
            continue;
        };
        if im.dropped.contains(key) {
            continue;
        }
        let at = pointer_push(&format!("/{container}"), key);
        let value = im.schema(def, &at, true);
        if def.get("anyOf").is_some() && value.get("oneOf").is_some() {
            // A union rewritten from `anyOf`: its branches point back at the `anyOf`'s.
            origins.push((
                format!("{}/oneOf", pointer_push("/$defs", &name)),
                file.to_string(),
                format!("{at}/anyOf"),
                true,
            ));
        }
        origins.push((pointer_push("/$defs", &name), file.to_string(), at, true));
        out_defs.insert(name, value);
    }
    for (name, found) in std::mem::take(&mut im.enums) {
        let mut def = Map::new();
        def.insert("type".into(), "string".into());
        def.insert(
            "enum".into(),
            found
                .values
                .iter()
                .map(|v| Value::from(v.as_str()))
                .collect(),
        );
        if let Some(text) = overlay_value
            .enums
            .get(&name)
            .and_then(|e| e.description.as_ref())
        {
            def.insert("description".into(), text.as_str().into());
        }
        origins.push((
            pointer_push("/$defs", &name),
            file.to_string(),
            found.pointer.clone(),
            false,
        ));
        if out_defs.contains_key(&name) {
            im.diags
                .push(
                    file,
                    &found.pointer,
                    format!("this enum would be named `{name}`, which is already a definition"),
                )
                .help(format!(
                    "name it in the overlay: [enum.<Name>] zero = \"{}\"",
                    found.values[0]
                ));
        }
        out_defs.insert(name.clone(), Value::Object(def));
        im.enums.insert(name, found);
    }
    for (name, def) in union_defs {
        out_defs.insert(name, def);
    }
    for (name, e) in &overlay_value.enums {
        if let Some(site) = &e.at {
            let found = im.enums.get(name).is_some_and(|f| f.pointer == *site);
            if !found && im.enum_sites.get(site) == Some(name) {
                im.diags
                    .push(
                        overlay_file,
                        format!("{}/at", pointer_push("/enum", name)),
                        format!("the enum at `{site}` is in a definition that is not generated"),
                    )
                    .help("remove the table");
            }
        }
        let Some(zero) = &e.zero else {
            continue;
        };
        let matched = im
            .enums
            .get(name)
            .is_some_and(|found| found.values.first() == Some(zero));
        if !matched && im.zero_names.get(zero) == Some(name) {
            im.diags
                .push(
                    overlay_file,
                    format!("{}/zero", pointer_push("/enum", name)),
                    format!("the schema has no inlined enum whose zero value is `{zero}`"),
                )
                .help("fix the value (the `pattern` branch of the enum's `anyOf`, without ^ and $), or remove the table");
        }
    }
    apply_messages(
        &overlay_value.message,
        &mut out_defs,
        overlay_file,
        im.diags,
        &mut origins,
    );
    for (name, table) in &overlay_value.definition {
        let at = pointer_push("/definition", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the definition like a Rust type, e.g. [definition.Empty]");
            continue;
        }
        if out_defs.contains_key(name) {
            im.diags
                .push(
                    overlay_file,
                    &at,
                    format!("the schema already defines `{name}`"),
                )
                .help("remove the table: the overlay adds only definitions the schema lacks");
            continue;
        }
        match serde_json::to_value(table) {
            Ok(value) => {
                out_defs.insert(name.clone(), value);
                origins.push((
                    pointer_push("/$defs", name),
                    overlay_file.to_string(),
                    at,
                    true,
                ));
            }
            Err(e) => {
                im.diags
                    .push(overlay_file, &at, format!("not a JSON schema: {e}"))
                    .help(
                        "write the definition as in a2a.schema.json, with TOML tables and arrays",
                    );
            }
        }
    }

    let mut out = Map::new();
    for (key, value) in root {
        match key.as_str() {
            "$defs" | "definitions" => {
                out.insert("$defs".into(), Value::Object(std::mem::take(&mut out_defs)));
            }
            // Annotations of the published file, and the entry point of a json-bundle: every
            // definition is generated anyway.
            "version" | "$id" => {}
            "$ref" if value.is_string() => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    let mut notes = Vec::new();
    if let Some(first) = im.closed.first() {
        let n = im.closed.len();
        notes.push(Note {
            file: file.to_string(),
            location: first.clone(),
            message: format!(
                "the schema closes {n} message{} with `additionalProperties: false`; a2a-codegen \
                 ignores it (A2A v1 §5.7: receivers skip unknown fields), so the generated types \
                 accept members they do not know",
                if n == 1 { "" } else { "s" }
            ),
        });
    }
    let by_rule = if shape == Shape::V03 {
        dropped_by_rule(defs, &format!("#/{container}/"))
    } else {
        BTreeSet::new()
    };
    if let Some(first) = by_rule.iter().next() {
        notes.push(Note {
            file: file.to_string(),
            location: pointer_push(&format!("/{container}"), first),
            message: format!(
                "the import leaves out the {} definitions of the JSON-RPC envelope and the error \
                 objects; the generator writes its own envelope from methods.toml and its error \
                 enum from errors.toml",
                by_rule.len()
            ),
        });
    }
    if diags.0.len() > errors_before {
        return None;
    }
    Some(Imported {
        schema: Source {
            label: schema.label.clone(),
            sha256: schema.sha256.clone(),
            value: Value::Object(out),
        },
        notes,
        origins,
    })
}

struct FoundEnum {
    values: Vec<String>,
    pointer: String,
}

/// The definitions a v0.3 schema holds for the JSON-RPC layer, which the generator writes itself:
/// every definition with a `jsonrpc` member (the envelope, requests and responses), every error
/// object (`code` and `message` members, `code` required), and every `anyOf` of `$ref`s that
/// point only at those (`A2AError`, `A2ARequest`, `JSONRPCResponse`, the `...Response` unions).
fn dropped_by_rule(defs: &Map<String, Value>, prefix: &str) -> BTreeSet<String> {
    let mut dropped: BTreeSet<String> = defs
        .iter()
        .filter(|(_, def)| {
            let props = def.get("properties").and_then(Value::as_object);
            let has = |m: &str| props.is_some_and(|p| p.contains_key(m));
            let requires = |m: &str| {
                def.get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(m)))
            };
            has("jsonrpc") || (has("code") && has("message") && requires("code"))
        })
        .map(|(key, _)| key.clone())
        .collect();
    loop {
        let more: Vec<String> = defs
            .iter()
            .filter(|(key, _)| !dropped.contains(*key))
            .filter(|(_, def)| {
                def.get("anyOf")
                    .and_then(|any| ref_branches(any, prefix))
                    .is_some_and(|targets| targets.iter().all(|t| dropped.contains(*t)))
            })
            .map(|(key, _)| key.clone())
            .collect();
        if more.is_empty() {
            return dropped;
        }
        dropped.extend(more);
    }
}

struct Importer<'a> {
    file: &'a str,
    container: &'static str,
    shape: Shape,
    /// The published definitions, by key.
    defs: &'a Map<String, Value>,
    /// The overlay's inline enums (`[enum.X] at`): name by the JSON pointer of the property.
    enum_sites: BTreeMap<String, String>,
    /// The overlay's unions (`[union.X]`): name by the JSON pointer of the `anyOf` it replaces.
    union_sites: BTreeMap<String, String>,
    /// Keys of the definitions that are not generated.
    dropped: BTreeSet<String>,
    /// Definition key -> type name.
    keys: BTreeMap<String, String>,
    /// The overlay's enum names, by zero value.
    zero_names: BTreeMap<String, String>,
    /// Inlined enums found so far, by name.
    enums: BTreeMap<String, FoundEnum>,
    /// Where `additionalProperties: false` was dropped.
    closed: Vec<String>,
    diags: &'a mut Diagnostics,
}

impl Importer<'_> {
    /// Rewrites one schema; `def` when it is a whole definition (not a property or item).
    fn schema(&mut self, schema: &Value, pointer: &str, def: bool) -> Value {
        let Value::Object(obj) = schema else {
            return schema.clone();
        };
        if let Some(name) = self.union_sites.get(pointer).cloned() {
            let mut out = Map::new();
            out.insert("$ref".into(), format!("#/$defs/{name}").into());
            self.keep_rest(obj, &mut out, &["anyOf"], |_| false);
            return Value::Object(out);
        }
        if let Some(name) = self.enum_sites.get(pointer).cloned() {
            let values = obj.get("enum").and_then(Value::as_array).and_then(|v| {
                v.iter()
                    .map(|x| x.as_str().map(String::from))
                    .collect::<Option<Vec<_>>>()
            });
            let Some(values) = values.filter(|v| !v.is_empty()) else {
                self.diags
                    .push(
                        self.file,
                        pointer_push(pointer, "enum"),
                        "must be a non-empty array of strings",
                    )
                    .help("an inline enum the overlay names lists its string values");
                return schema.clone();
            };
            self.record_enum(&name, values, pointer);
            let mut out = Map::new();
            out.insert("$ref".into(), format!("#/$defs/{name}").into());
            self.keep_rest(obj, &mut out, &["enum", "type"], |_| false);
            return Value::Object(out);
        }
        if let (Some(any), true, Shape::V03) = (obj.get("anyOf"), def, self.shape) {
            let prefix = format!("#/{}/", self.container);
            let at = pointer_push(pointer, "anyOf");
            match tag_of_union(self.defs, any, &prefix) {
                Ok(tag) => {
                    let mut out = self.tagged(any, &tag, &at);
                    self.keep_rest(obj, &mut out, &["anyOf"], |_| false);
                    return Value::Object(out);
                }
                Err(why) => {
                    self.diags
                        .push(self.file, &at, format!("not a tagged union: {why}"))
                        .help(
                            "a definition's `anyOf` is read as a union of `$ref`s whose targets \
                             pin a common member with `const`; drop the definition in the overlay \
                             if it is not part of the data model",
                        );
                    return Value::Object(Map::new());
                }
            }
        }
        if let Some(any) = obj.get("anyOf") {
            if let Some((zero, rest)) = inlined_enum(any) {
                let mut out = Map::new();
                if let Some(name) = self.inline_enum(obj, zero, rest, pointer) {
                    out.insert("$ref".into(), format!("#/$defs/{name}").into());
                }
                self.keep_rest(obj, &mut out, &["anyOf", "title", "default"], |v| {
                    v.as_i64() == Some(0) || v.as_str().is_some_and(|s| s.ends_with("_UNSPECIFIED"))
                });
                return Value::Object(out);
            }
            if is_int32(any) {
                let mut out = Map::new();
                out.insert("type".into(), "integer".into());
                out.insert("format".into(), "int32".into());
                self.keep_rest(obj, &mut out, &["anyOf", "default"], |v| {
                    is_zero(Some("integer"), v) || v.as_str() == Some("0")
                });
                return Value::Object(out);
            }
        }
        let ty = obj.get("type").and_then(Value::as_str);
        let mut out = Map::new();
        for (key, value) in obj {
            let at = pointer_push(pointer, key);
            match key.as_str() {
                "$schema" | "$id" | "title" if def => {}
                "$ref" => match value.as_str() {
                    Some(target) => {
                        if let Some(name) = self.resolve_ref(target, &at) {
                            out.insert(key.clone(), format!("#/$defs/{name}").into());
                        }
                    }
                    None => {
                        out.insert(key.clone(), value.clone());
                    }
                },
                "properties" if value.is_object() => {
                    let required: Vec<&str> = obj
                        .get("required")
                        .and_then(Value::as_array)
                        .map(|r| r.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let props = value.as_object().into_iter().flatten();
                    let props = props
                        .map(|(name, prop)| {
                            let prop_at = pointer_push(&at, name);
                            let mut prop = self.schema(prop, &prop_at, false);
                            // A default on a required member has nothing to fill in.
                            if required.contains(&name.as_str()) {
                                if let Value::Object(p) = &mut prop {
                                    p.remove("default");
                                }
                            }
                            (name.clone(), prop)
                        })
                        .collect();
                    out.insert(key.clone(), Value::Object(props));
                }
                "patternProperties" => self.aliases(obj, value, &at),
                "additionalProperties"
                    if value == &Value::Bool(false) && obj.contains_key("properties") =>
                {
                    self.closed.push(at);
                }
                // `{}` (any value) on an object without properties: a free-form object, which
                // is what `{"type": "object"}` means in our dialect.
                "additionalProperties"
                    if value.as_object().is_some_and(Map::is_empty)
                        && ty == Some("object")
                        && !obj.contains_key("properties") => {}
                "additionalProperties" | "items" if value.is_object() => {
                    out.insert(key.clone(), self.schema(value, &at, false));
                }
                "pattern" if ty == Some("string") && value.as_str() == Some(BASE64_PATTERN) => {
                    out.insert("format".into(), "byte".into());
                }
                "default" if is_zero(ty, value) => {}
                "propertyNames" if *value == serde_json::json!({"type": "string"}) => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Value::Object(out)
    }

    /// Copies the keys of a replaced `anyOf` schema that are not consumed (`skip`) and not a zero
    /// `default`; the lowerer judges them.
    fn keep_rest(
        &mut self,
        obj: &Map<String, Value>,
        out: &mut Map<String, Value>,
        skip: &[&str],
        zero_default: impl Fn(&Value) -> bool,
    ) {
        for (key, value) in obj {
            if skip.contains(&key.as_str()) && (key != "default" || zero_default(value)) {
                continue;
            }
            out.insert(key.clone(), value.clone());
        }
    }

    fn inline_enum(
        &mut self,
        obj: &Map<String, Value>,
        zero: String,
        rest: Vec<String>,
        pointer: &str,
    ) -> Option<String> {
        let from_title = obj
            .get("title")
            .and_then(Value::as_str)
            .map(|t| t.chars().filter(|c| !c.is_whitespace()).collect::<String>());
        let from_prefix = zero.strip_suffix("_UNSPECIFIED").map(naming::pascal_case);
        let name = self
            .zero_names
            .get(&zero)
            .cloned()
            .or(from_title.filter(|n| naming::is_identifier(n)))
            .or(from_prefix.filter(|n| naming::is_identifier(n)));
        let Some(name) = name else {
            self.diags
                .push(
                    self.file,
                    pointer,
                    format!("cannot name the inlined enum whose zero value is `{zero}`"),
                )
                .help(format!(
                    "name it in the overlay: [enum.<Name>] zero = \"{zero}\""
                ));
            return None;
        };
        let mut values = vec![zero];
        values.extend(rest);
        self.record_enum(&name, values, pointer);
        Some(name)
    }

    /// Records an enum found at `pointer`; every use of a name must list the same values.
    fn record_enum(&mut self, name: &str, values: Vec<String>, pointer: &str) {
        match self.enums.get(name) {
            Some(found) if found.values == values => {}
            Some(found) => {
                let message = format!(
                    "the enum `{name}` has the values {values:?} here, but {:?} at {}",
                    found.values, found.pointer
                );
                self.diags.push(self.file, pointer, message).help(
                    "every use of an enum must list the same values; name them apart in the \
                     overlay if they are different enums",
                );
            }
            None => {
                self.enums.insert(
                    name.to_string(),
                    FoundEnum {
                        values,
                        pointer: pointer.to_string(),
                    },
                );
            }
        }
    }

    /// `{"oneOf": [refs], "x-discriminator": tag}` for a tagged `anyOf` of refs at `pointer`.
    fn tagged(&mut self, any: &Value, tag: &str, pointer: &str) -> Map<String, Value> {
        let branches: Vec<Value> = any
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, b)| self.schema(b, &format!("{pointer}/{i}"), false))
            .collect();
        let mut out = Map::new();
        out.insert("oneOf".into(), branches.into());
        out.insert("x-discriminator".into(), tag.into());
        out
    }

    /// One object made of the definitions `keys` (the branches of an `anyOf`): every member of
    /// any branch; `required` those every branch requires; the members only some branches
    /// require form the oneof `name`.
    fn merged(&mut self, keys: &[String], name: &str) -> Result<Map<String, Value>, String> {
        let mut props = Map::new();
        let mut required: Vec<Vec<String>> = Vec::new();
        for key in keys {
            let Some(def) = self.defs.get(key) else {
                return Err(format!("`{key}` is not defined"));
            };
            let at = pointer_push(&format!("/{}", self.container), key);
            let Some(branch_props) = def.get("properties").and_then(Value::as_object) else {
                return Err(format!("`{key}` is not an object with properties"));
            };
            for (prop, schema) in branch_props {
                let prop_at = pointer_push(&pointer_push(&at, "properties"), prop);
                let value = self.schema(schema, &prop_at, false);
                let bare = |v: &Value| {
                    let mut v = v.clone();
                    if let Value::Object(o) = &mut v {
                        o.remove("description");
                    }
                    v
                };
                match props.get(prop) {
                    Some(existing) if bare(existing) != bare(&value) => {
                        return Err(format!("the branches disagree on the member `{prop}`"));
                    }
                    Some(_) => {}
                    None => {
                        props.insert(prop.clone(), value);
                    }
                }
            }
            required.push(
                def.get("required")
                    .and_then(Value::as_array)
                    .map(|r| {
                        r.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
            );
        }
        let all: Vec<String> = props
            .keys()
            .filter(|p| required.iter().all(|r| r.contains(p)))
            .cloned()
            .collect();
        let members: Vec<String> = props
            .keys()
            .filter(|p| !all.contains(p) && required.iter().any(|r| r.contains(p)))
            .cloned()
            .collect();
        if members.len() < 2 {
            return Err(format!(
                "the branches {} do not differ in two or more required members",
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !naming::is_identifier(&naming::snake_case(name)) {
            return Err(format!("`{name}` is not a oneof name"));
        }
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), Value::Object(props));
        if !all.is_empty() {
            out.insert("required".into(), all.into());
        }
        let branches: Vec<Value> = members
            .iter()
            .map(|m| serde_json::json!({ "required": [m] }))
            .collect();
        out.insert("oneOf".into(), branches.into());
        out.insert("x-oneof-name".into(), name.into());
        Ok(out)
    }

    fn resolve_ref(&mut self, target: &str, pointer: &str) -> Option<String> {
        let key = if let Some(local) = target.strip_prefix("#/") {
            let container = format!("{}/", self.container);
            match local.strip_prefix(&container).filter(|k| !k.contains('/')) {
                Some(key) => key.replace("~1", "/").replace("~0", "~"),
                None => {
                    self.diags
                        .push(
                            self.file,
                            pointer,
                            format!("unsupported `$ref` target `{target}`"),
                        )
                        .help(format!(
                            "a local reference must name a definition: \"#/{}Name\"",
                            container
                        ));
                    return None;
                }
            }
        } else if target.ends_with(FILE_REF_SUFFIX) {
            let name = type_name(target);
            if self.keys.values().any(|n| *n == name) {
                return Some(name);
            }
            self.diags
                .push(
                    self.file,
                    pointer,
                    format!("`$ref` names `{target}`, but the schema defines no `{name}`"),
                )
                .help("add the definition (or, if the schema lacks it, a [definition.Name] table to the overlay)");
            return None;
        } else {
            self.diags
                .push(self.file, pointer, format!("unsupported `$ref` target `{target}`"))
                .help("refer to a definition of the same file (\"#/$defs/Name\") or to a published file name (\"lf.a2a.v1.Name.jsonschema.json\")");
            return None;
        };
        match self.keys.get(&key) {
            Some(_) if self.dropped.contains(&key) => {
                self.diags
                    .push(
                        self.file,
                        pointer,
                        format!("`$ref` points at `{key}`, which is not generated"),
                    )
                    .help(
                        "remove it from the overlay's `drop`, or replace this use with a \
                         [union.Name] or [definition.Name] of the overlay",
                    );
                None
            }
            Some(name) => Some(name.clone()),
            None => {
                self.diags
                    .push(
                        self.file,
                        pointer,
                        format!("`$ref` points at `{key}`, which is not defined"),
                    )
                    .help(format!(
                        "define it under {} or fix the name",
                        self.container
                    ));
                None
            }
        }
    }

    /// Checks that every `patternProperties` entry is the snake_case alias of a property.
    fn aliases(&mut self, obj: &Map<String, Value>, patterns: &Value, pointer: &str) {
        let Some(patterns) = patterns.as_object() else {
            self.diags
                .push(self.file, pointer, "`patternProperties` must be an object");
            return;
        };
        let props = obj.get("properties").and_then(Value::as_object);
        for key in patterns.keys() {
            let at = pointer_push(pointer, key);
            match alias_of_pattern(key) {
                Some(alias)
                    if props.is_some_and(|p| {
                        p.keys()
                            .any(|camel| camel != alias && naming::snake_case(camel) == alias)
                    }) => {}
                Some(alias) => {
                    self.diags
                        .push(
                            self.file,
                            &at,
                            format!("`{alias}` is not the snake_case name of a property here"),
                        )
                        .help(
                            "a2a-codegen derives each property's snake_case alias itself \
                             (`context_id` for `contextId`); it reads `patternProperties` only \
                             as those aliases",
                        );
                }
                None => {
                    self.diags
                        .push(
                            self.file,
                            &at,
                            format!("unsupported `patternProperties` entry `{key}`"),
                        )
                        .help(
                            "`patternProperties` is read only as the ProtoJSON alias idiom \
                             `^(snake_name)$`; remove the entry",
                        );
                }
            }
        }
    }
}

/// Applies the `[message.Name]` tables.
fn apply_messages(
    messages: &BTreeMap<String, OverlayMessage>,
    defs: &mut Map<String, Value>,
    file: &str,
    diags: &mut Diagnostics,
    origins: &mut Vec<(String, String, String, bool)>,
) {
    for (name, msg) in messages {
        let at = pointer_push("/message", name);
        let Some(Value::Object(def)) = defs.get_mut(name) else {
            diags
                .push(file, &at, format!("the schema has no message `{name}`"))
                .help("fix the name (a definition's title without spaces, e.g. `OAuth2SecurityScheme`) or remove the table");
            continue;
        };
        let Some(Value::Object(props)) = def.get("properties") else {
            diags
                .push(
                    file,
                    &at,
                    format!("`{name}` is not a message (it has no properties)"),
                )
                .help("remove the table");
            continue;
        };
        let keys: Vec<String> = props.keys().cloned().collect();
        let mut known = |list: &[String], what: &str| {
            let mut ok = true;
            for (i, prop) in list.iter().enumerate() {
                if !keys.contains(prop) {
                    diags
                        .push(
                            file,
                            format!("{at}/{what}/{i}"),
                            format!("`{name}` has no property `{prop}`"),
                        )
                        .help("use the lowerCamelCase JSON name, as in the schema's `properties`");
                    ok = false;
                }
            }
            ok
        };
        let fields_ok = msg.fields.as_deref().is_none_or(|f| known(f, "fields"));
        let required_ok = known(&msg.required, "required");
        let deprecated_ok = known(&msg.deprecated, "deprecated");
        let members_ok = msg
            .oneof
            .as_ref()
            .is_none_or(|o| known(&o.members, "oneof/members"));

        if let (Some(fields), true) = (&msg.fields, fields_ok) {
            let mut ok = true;
            for (i, field) in fields.iter().enumerate() {
                if fields[..i].contains(field) {
                    diags
                        .push(
                            file,
                            format!("{at}/fields/{i}"),
                            format!("`{field}` is listed twice"),
                        )
                        .help("list every property once");
                    ok = false;
                }
            }
            let missing: Vec<&str> = keys
                .iter()
                .filter(|k| !fields.contains(k))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                diags
                    .push(
                        file,
                        format!("{at}/fields"),
                        format!("`fields` of `{name}` leaves out `{}`", missing.join("`, `")),
                    )
                    .help("list every property of the message, in proto field order");
                ok = false;
            }
            if ok {
                let props = def
                    .get_mut("properties")
                    .and_then(Value::as_object_mut)
                    .expect("checked above");
                let mut ordered = Map::new();
                for field in fields {
                    if let Some(value) = props.remove(field) {
                        ordered.insert(field.clone(), value);
                    }
                }
                *props = ordered;
            }
        }
        if required_ok && !msg.required.is_empty() {
            let mut required: Vec<Value> = def
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for field in &msg.required {
                if !required.iter().any(|r| r.as_str() == Some(field)) {
                    required.push(field.as_str().into());
                }
            }
            def.insert("required".into(), required.into());
            origins.push((
                format!("/$defs/{name}/required"),
                file.to_string(),
                format!("{at}/required"),
                true,
            ));
        }
        if deprecated_ok {
            if let Some(Value::Object(props)) = def.get_mut("properties") {
                for field in &msg.deprecated {
                    if let Some(Value::Object(prop)) = props.get_mut(field) {
                        prop.insert("deprecated".into(), true.into());
                    }
                }
            }
        }
        if let (Some(oneof), true) = (&msg.oneof, members_ok) {
            let mut ok = true;
            if !naming::is_identifier(&naming::snake_case(&oneof.name)) {
                diags
                    .push(
                        file,
                        format!("{at}/oneof/name"),
                        format!("`{}` is not a oneof name", oneof.name),
                    )
                    .help("use the proto oneof's name, such as \"content\"");
                ok = false;
            }
            if oneof.members.is_empty() {
                diags
                    .push(file, format!("{at}/oneof/members"), "a oneof needs members")
                    .help("list the member properties");
                ok = false;
            }
            for (i, member) in oneof.members.iter().enumerate() {
                if msg.required.contains(member) {
                    diags
                        .push(
                            file,
                            format!("{at}/oneof/members/{i}"),
                            format!("oneof member `{member}` is also listed in `required`"),
                        )
                        .help(
                            "a oneof member is present only when chosen; remove it from `required`",
                        );
                    ok = false;
                }
            }
            if def.contains_key("oneOf") || def.contains_key("x-oneof-name") {
                diags
                    .push(
                        file,
                        format!("{at}/oneof"),
                        format!("the schema already gives `{name}` a oneOf"),
                    )
                    .help("remove `oneof` from the table");
                ok = false;
            }
            if ok {
                let branches: Vec<Value> = oneof
                    .members
                    .iter()
                    .map(|m| serde_json::json!({ "required": [m] }))
                    .collect();
                def.insert("oneOf".into(), branches.into());
                def.insert("x-oneof-name".into(), oneof.name.as_str().into());
                origins.push((
                    format!("/$defs/{name}/oneOf"),
                    file.to_string(),
                    format!("{at}/oneof/members"),
                    true,
                ));
                origins.push((
                    format!("/$defs/{name}/x-oneof-name"),
                    file.to_string(),
                    format!("{at}/oneof/name"),
                    false,
                ));
            }
        }
    }
}

/// Lowers a schema of any layout to the model's types: our own dialect as written, a published
/// one through `import` with `overlay` (diagnostics point into the published file and the
/// overlay). What `Config` does for the schema, for tools that want the model.
pub fn lower_types(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
    notes: &mut Vec<Note>,
) -> BTreeMap<TypeId, TypeDef> {
    if detect(&schema.value) == Shape::Own {
        return crate::lower::lower_schema(schema, diags);
    }
    let Some(imported) = import(schema, overlay, diags) else {
        return BTreeMap::new();
    };
    notes.extend(imported.notes.iter().cloned());
    let mut own = Diagnostics::default();
    let types = crate::lower::lower_schema(&imported.schema, &mut own);
    imported.remap(&mut own);
    diags.0.extend(own.0);
    types
}

/// Where `Config` found an overlay.
pub(crate) struct OverlayPath {
    pub(crate) path: PathBuf,
    pub(crate) label: String,
    /// Named with `Config::overlay` (else found in the spec directory).
    pub(crate) explicit: bool,
}

/// `Config`'s hook: passes a schema in our dialect straight to `generate`; imports a published
/// one first (reading the overlay), maps diagnostics back, and names the overlay in the headers.
pub(crate) fn generate_with(
    schema: Source<Value>,
    overlay: Option<OverlayPath>,
    mut diags: Diagnostics,
    notes: &mut Vec<Note>,
    generate: impl FnOnce(Source<Value>, Diagnostics) -> Result<Vec<GeneratedFile>, Error>,
) -> Result<Vec<GeneratedFile>, Error> {
    let shape = detect(&schema.value);
    if shape == Shape::Own {
        if let Some(o) = overlay.filter(|o| o.explicit) {
            diags
                .push(
                    &o.label,
                    "",
                    format!(
                        "an overlay is given, but {} is in a2a-codegen's own dialect",
                        schema.label
                    ),
                )
                .help(
                    "the overlay completes the schema the A2A project publishes; remove the \
                     overlay setting, or use the published a2a.json as the schema",
                );
            return Err(Error::Input(diags));
        }
        return generate(schema, diags);
    }
    let overlay = match overlay {
        Some(o) => match read_overlay(&o.path, &o.label, &mut diags) {
            Some(source) => Some(source),
            None => return Err(Error::Input(diags)),
        },
        None => None,
    };
    let Some(imported) = import(&schema, overlay.as_ref(), &mut diags) else {
        return Err(Error::Input(diags));
    };
    notes.extend(imported.notes.iter().cloned());
    match generate(imported.schema.clone(), diags) {
        Err(Error::Input(mut diags)) => {
            imported.remap(&mut diags);
            Err(Error::Input(diags))
        }
        Ok(mut files) => {
            if let Some(overlay) = &overlay {
                let after = format!("// input: {} sha256:{}\n", schema.label, schema.sha256);
                let line = format!("// input: {} sha256:{}\n", overlay.label, overlay.sha256);
                for f in &mut files {
                    add_header_line(&mut f.contents, &after, &line);
                }
            }
            Ok(files)
        }
        Err(other) => Err(other),
    }
}

/// Inserts `line` after `after` in the header of a generated file (the lines before the first
/// blank line), when the header has `after`: the overlay is an input wherever the schema is.
fn add_header_line(contents: &mut String, after: &str, line: &str) {
    let header_end = contents.find("\n\n").unwrap_or(0);
    if let Some(at) = contents[..header_end + 1].find(after) {
        contents.insert_str(at + after.len(), line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn source(value: Value) -> Source<Value> {
        Source {
            label: "a2a.json".into(),
            sha256: "0".into(),
            value,
        }
    }

    fn overlay(text: &str) -> Source<Overlay> {
        Source {
            label: "overlay.toml".into(),
            sha256: "1".into(),
            value: toml::from_str(text).expect("a valid overlay"),
        }
    }

    fn enum_any(zero: &str, rest: &[&str]) -> Value {
        json!([
            {"pattern": format!("^{zero}$"), "type": "string"},
            {"enum": rest, "type": "string"},
            {"maximum": 2147483647, "minimum": -2147483648, "type": "integer"}
        ])
    }

    fn int32_any() -> Value {
        json!([
            {"maximum": 2147483647, "minimum": -2147483648, "type": "integer"},
            {"pattern": "^-?[0-9]+$", "type": "string"}
        ])
    }

    /// A small bundle in the v1.0.x layout.
    fn bundle() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Schemas",
            "version": "v1",
            "definitions": {
                "Struct": {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Struct", "type": "object"},
                "Task Status": {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "additionalProperties": false,
                    "title": "Task Status",
                    "type": "object",
                    "description": "A status.",
                    "patternProperties": {"^(page_size)$": {"type": "integer"}},
                    "properties": {
                        "metadata": {"$ref": "google.protobuf.Struct.jsonschema.json"},
                        "pageSize": {"anyOf": int32_any(), "description": "How many."},
                        "state": {"anyOf": enum_any("TASK_STATE_UNSPECIFIED", &["TASK_STATE_WORKING"]), "default": 0, "title": "Task State"},
                        "text": {"default": "", "type": "string"}
                    }
                },
                "O Auth Flows": {
                    "additionalProperties": false,
                    "title": "O Auth Flows",
                    "type": "object",
                    "properties": {
                        "raw": {"pattern": "^[A-Za-z0-9+/]*={0,2}$", "type": "string"},
                        "scopes": {"additionalProperties": {"type": "string"}, "propertyNames": {"type": "string"}, "type": "object"},
                        "status": {"$ref": "lf.a2a.v1.TaskStatus.jsonschema.json"}
                    }
                }
            }
        })
    }

    fn imported(schema: Value, overlay_text: &str) -> (Option<Imported>, Diagnostics) {
        let mut diags = Diagnostics::default();
        let o = overlay(overlay_text);
        let im = import(&source(schema), Some(&o), &mut diags);
        (im, diags)
    }

    fn defs_of(im: &Imported) -> &Map<String, Value> {
        im.schema.value["$defs"].as_object().unwrap()
    }

    #[test]
    fn titles_and_file_names_become_type_names() {
        assert_eq!(type_name("Agent Card"), "AgentCard");
        assert_eq!(type_name("O Auth2 Security Scheme"), "OAuth2SecurityScheme");
        assert_eq!(
            type_name("Authorization CodeO Auth Flow"),
            "AuthorizationCodeOAuthFlow"
        );
        assert_eq!(type_name("lf.a2a.v1.Message.jsonschema.json"), "Message");
        assert_eq!(
            type_name("google.protobuf.Struct.jsonschema.json"),
            "Struct"
        );
        assert_eq!(type_name("AgentCard"), "AgentCard");
    }

    #[test]
    fn shapes_are_detected() {
        assert_eq!(detect(&bundle()), Shape::Bundle);
        let file_ref_in_defs = json!({"$defs": {"A": {"$ref": "lf.a2a.v1.B.jsonschema.json"}}});
        assert_eq!(
            detect(&file_ref_in_defs),
            Shape::Own,
            "a bad ref of our dialect"
        );
        let own = json!({"$defs": {"A": {"type": "object", "properties": {}, "additionalProperties": false}}});
        assert_eq!(
            detect(&own),
            Shape::Own,
            "additionalProperties: false alone is not an idiom"
        );
        let local = json!({"$defs": {"A": {"type": "object", "properties": {"x": {"anyOf": int32_any()}}}}});
        assert_eq!(detect(&local), Shape::LocalBundle);
        let aliases = json!({"$defs": {"A": {"type": "object", "properties": {"aB": {}}, "patternProperties": {"^(a_b)$": {}}}}});
        assert_eq!(detect(&aliases), Shape::LocalBundle);
        let enums = json!({"$defs": {"A": {"type": "object", "properties": {"r": {"anyOf": enum_any("R_UNSPECIFIED", &["R_A"])}}}}});
        assert_eq!(detect(&enums), Shape::LocalBundle);
        // Other anyOf and patternProperties stay errors of our dialect.
        let other = json!({"$defs": {"A": {"properties": {"m": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "patternProperties": {"^x_": {}}}}});
        assert_eq!(detect(&other), Shape::Own);
        assert_eq!(detect(&json!([1])), Shape::Own);
        assert_eq!(detect(&json!({"$defs": {}, "definitions": {}})), Shape::Own);
    }

    #[test]
    fn refs_keys_and_keywords_are_rewritten() {
        let (im, diags) = imported(bundle(), "");
        assert!(diags.is_empty(), "{diags}");
        let im = im.unwrap();
        assert_eq!(detect(&bundle()), Shape::Bundle);
        let root = im.schema.value.as_object().unwrap();
        assert!(!root.contains_key("version") && !root.contains_key("definitions"));
        assert_eq!(root["title"], "Schemas");
        let defs = defs_of(&im);
        assert_eq!(defs["Struct"], json!({"type": "object"}));
        let status = &defs["TaskStatus"];
        assert_eq!(status["description"], "A status.");
        for gone in [
            "$schema",
            "title",
            "additionalProperties",
            "patternProperties",
        ] {
            assert!(status.get(gone).is_none(), "{gone}");
        }
        let props = &status["properties"];
        assert_eq!(props["metadata"], json!({"$ref": "#/$defs/Struct"}));
        assert_eq!(
            props["text"],
            json!({"type": "string"}),
            "zero default dropped"
        );
        assert_eq!(
            props["pageSize"],
            json!({"type": "integer", "format": "int32", "description": "How many."})
        );
        let flows = &defs["OAuthFlows"]["properties"];
        assert_eq!(flows["raw"], json!({"type": "string", "format": "byte"}));
        assert_eq!(
            flows["scopes"],
            json!({"additionalProperties": {"type": "string"}, "type": "object"})
        );
        assert_eq!(flows["status"], json!({"$ref": "#/$defs/TaskStatus"}));
    }

    #[test]
    fn inlined_enums_become_named_definitions() {
        let (im, diags) = imported(bundle(), "");
        assert!(diags.is_empty(), "{diags}");
        let im = im.unwrap();
        let defs = defs_of(&im);
        assert_eq!(
            defs["TaskState"],
            json!({"type": "string", "enum": ["TASK_STATE_UNSPECIFIED", "TASK_STATE_WORKING"]})
        );
        assert_eq!(
            defs["TaskStatus"]["properties"]["state"],
            json!({"$ref": "#/$defs/TaskState"})
        );
        // Named by the overlay, with its description.
        let text = "[enum.Lifecycle]\nzero = \"TASK_STATE_UNSPECIFIED\"\ndescription = \"Where a task is.\"\n";
        let im = imported(bundle(), text).0.unwrap();
        assert_eq!(defs_of(&im)["Lifecycle"]["description"], "Where a task is.");
        assert!(!defs_of(&im).contains_key("TaskState"));
        // Without a title: from the zero value's prefix.
        let mut schema = bundle();
        schema["definitions"]["Task Status"]["properties"]["state"]
            .as_object_mut()
            .unwrap()
            .remove("title");
        schema["definitions"]["Task Status"]["properties"]["role"] =
            json!({"anyOf": enum_any("ROLE_UNSPECIFIED", &["ROLE_USER", "ROLE_AGENT"])});
        let im = imported(schema, "").0.unwrap();
        assert_eq!(defs_of(&im)["Role"]["enum"][2], "ROLE_AGENT");
        assert!(defs_of(&im).contains_key("TaskState"));
    }

    #[test]
    fn enums_that_disagree_or_have_no_name_are_errors() {
        let mut schema = bundle();
        schema["definitions"]["O Auth Flows"]["properties"]["state"] = json!({"anyOf": enum_any("TASK_STATE_UNSPECIFIED", &["TASK_STATE_FAILED"]), "title": "Task State"});
        schema["definitions"]["O Auth Flows"]["properties"]["odd"] =
            json!({"anyOf": enum_any("ODD", &["ODD_A"])});
        let (im, diags) = imported(schema, "");
        assert!(im.is_none());
        let text = diags.to_string();
        assert!(
            text.contains("the enum `TaskState` has the values"),
            "{text}"
        );
        assert!(
            text.contains("/definitions/O Auth Flows/properties/odd")
                && text.contains("[enum.<Name>] zero = \"ODD\""),
            "{text}"
        );
    }

    #[test]
    fn other_idioms_are_left_to_the_lowerer_or_reported() {
        let mut schema = bundle();
        let status = &mut schema["definitions"]["Task Status"];
        status["patternProperties"]["^(nothing_here)$"] = json!({});
        status["patternProperties"]["^x_"] = json!({});
        status["properties"]["code"] =
            json!({"type": "string", "pattern": "^[A-Z]+$", "default": "A"});
        let (im, diags) = imported(schema.clone(), "");
        assert!(im.is_none());
        let text = diags.to_string();
        assert!(
            text.contains("`nothing_here` is not the snake_case name"),
            "{text}"
        );
        assert!(
            text.contains("unsupported `patternProperties` entry `^x_`"),
            "{text}"
        );
        // A pattern that is not base64 and a non-zero default pass through to the lowerer.
        let status = &mut schema["definitions"]["Task Status"];
        status.as_object_mut().unwrap().remove("patternProperties");
        let im = imported(schema, "").0.unwrap();
        assert_eq!(
            defs_of(&im)["TaskStatus"]["properties"]["code"],
            json!({"type": "string", "pattern": "^[A-Z]+$", "default": "A"})
        );
    }

    #[test]
    fn unresolvable_refs_are_errors_at_their_pointer() {
        let mut schema = bundle();
        schema["definitions"]["Struct"] = json!({"$ref": "lf.a2a.v1.Missing.jsonschema.json"});
        schema["definitions"]["O Auth Flows"]["properties"]["x"] =
            json!({"$ref": "https://example.com/x.json"});
        let (_, diags) = imported(schema, "");
        let text = diags.to_string();
        assert!(
            text.contains("the schema defines no `Missing`")
                && text.contains("at /definitions/Struct/$ref"),
            "{text}"
        );
        assert!(
            text.contains("at /definitions/O Auth Flows/properties/x/$ref"),
            "{text}"
        );
    }

    #[test]
    fn additional_properties_false_is_dropped_with_one_note() {
        let im = imported(bundle(), "").0.unwrap();
        assert_eq!(im.notes.len(), 1);
        let note = &im.notes[0];
        assert!(
            note.message.contains("closes 2 messages"),
            "{}",
            note.message
        );
        assert!(note.message.contains("§5.7"));
        assert_eq!(
            note.location,
            "/definitions/Task Status/additionalProperties"
        );
        assert!(note
            .to_string()
            .starts_with("note: the schema closes 2 messages"));
    }

    #[test]
    fn the_overlay_orders_requires_groups_and_adds() {
        let text = r#"
            [message.TaskStatus]
            fields = ["state", "text", "pageSize", "metadata"]
            required = ["state"]
            oneof = { name = "value", members = ["text", "pageSize"] }
            deprecated = ["metadata"]

            [definition.Empty]
            type = "object"
            description = "Nothing."
            properties = {}
        "#;
        let (im, diags) = imported(bundle(), text);
        assert!(diags.is_empty(), "{diags}");
        let im = im.unwrap();
        let status = &defs_of(&im)["TaskStatus"];
        let order: Vec<&String> = status["properties"].as_object().unwrap().keys().collect();
        assert_eq!(order, ["state", "text", "pageSize", "metadata"]);
        assert_eq!(status["required"], json!(["state"]));
        assert_eq!(
            status["oneOf"],
            json!([{"required": ["text"]}, {"required": ["pageSize"]}])
        );
        assert_eq!(status["x-oneof-name"], "value");
        assert_eq!(status["properties"]["metadata"]["deprecated"], true);
        assert_eq!(
            defs_of(&im)["Empty"],
            json!({"type": "object", "description": "Nothing.", "properties": {}})
        );
    }

    #[test]
    fn overlay_entries_the_schema_lacks_are_errors_at_their_toml_path() {
        let text = r#"
            [message.Nope]
            required = ["x"]

            [message.TaskStatus]
            fields = ["state", "text", "text", "bogus"]
            required = ["state", "ghost"]
            oneof = { name = "value", members = ["state", "phantom"] }
            deprecated = ["gone"]

            [message.Struct]
            required = ["x"]

            [enum.Kind]
            zero = "KIND_UNSPECIFIED"

            [definition.Struct]
            type = "object"
        "#;
        let (im, diags) = imported(bundle(), text);
        assert!(im.is_none());
        let found: Vec<(&str, &str)> = diags
            .0
            .iter()
            .map(|d| (d.file.as_str(), d.location.as_str()))
            .collect();
        for at in [
            "/message/Nope",
            "/message/TaskStatus/fields/3",
            "/message/TaskStatus/required/1",
            "/message/TaskStatus/oneof/members/1",
            "/message/TaskStatus/deprecated/0",
            "/message/Struct",
            "/enum/Kind/zero",
            "/definition/Struct",
        ] {
            assert!(found.contains(&("overlay.toml", at)), "{at} in {diags}");
        }
        // A list naming only known properties is then checked for repeats and gaps.
        let text = "[message.TaskStatus]\nfields = [\"state\", \"text\", \"text\"]\n";
        let (_, diags) = imported(bundle(), text);
        let text = diags.to_string();
        assert!(text.contains("`text` is listed twice"), "{text}");
        assert!(text.contains("leaves out `metadata`, `pageSize`"), "{text}");
        // A oneof name that gives no Rust name.
        let text = "[message.TaskStatus]\noneof = { name = \"1st\", members = [\"text\"] }\n";
        let (_, diags) = imported(bundle(), text);
        assert_eq!(
            diags.0[0].location, "/message/TaskStatus/oneof/name",
            "{diags}"
        );
        // A member that is also required.
        let text = "[message.TaskStatus]\nrequired = [\"text\"]\noneof = { name = \"v\", members = [\"text\"] }\n";
        let (_, diags) = imported(bundle(), text);
        assert!(
            diags.to_string().contains("also listed in `required`"),
            "{diags}"
        );
    }

    #[test]
    fn our_own_dialect_is_not_imported() {
        let mut diags = Diagnostics::default();
        let own = json!({"$defs": {"A": {"type": "object", "properties": {}}}});
        assert!(import(&source(own.clone()), None, &mut diags).is_none());
        assert!(diags.to_string().contains("own dialect"), "{diags}");
        let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
        let types = lower_types(&source(own), None, &mut diags, &mut notes);
        assert!(diags.is_empty() && notes.is_empty() && types.contains_key("A"));
    }

    #[test]
    fn a_published_schema_needs_an_overlay() {
        let mut diags = Diagnostics::default();
        assert!(import(&source(bundle()), None, &mut diags).is_none());
        let text = diags.to_string();
        assert!(
            text.contains("needs an overlay") && text.contains("overlay.toml"),
            "{text}"
        );
        assert!(text.contains("Config::overlay"), "{text}");
    }

    #[test]
    fn lowering_diagnostics_point_back_into_the_published_file_and_the_overlay() {
        let mut schema = bundle();
        schema["definitions"]["Task Status"]["properties"]["bad"] =
            json!({"type": "string", "minLength": 1});
        schema["definitions"]["O Auth Flows"]["properties"]["twice"] =
            json!({"anyOf": enum_any("TWICE_UNSPECIFIED", &["TWICE_A", "TWICE_A"])});
        let text = "[definition.Empty]\ntype = \"object\"\nproperties = {}\nminProperties = 0\n";
        let o = overlay(text);
        let mut diags = Diagnostics::default();
        let mut notes = Vec::new();
        lower_types(&source(schema), Some(&o), &mut diags, &mut notes);
        let found: Vec<(&str, &str)> = diags
            .0
            .iter()
            .map(|d| (d.file.as_str(), d.location.as_str()))
            .collect();
        assert!(
            found.contains(&(
                "a2a.json",
                "/definitions/Task Status/properties/bad/minLength"
            )),
            "{diags}"
        );
        assert!(
            found.contains(&("overlay.toml", "/definition/Empty/minProperties")),
            "{diags}"
        );
        // An enum definition is the import's own: its problems point at the inlined use.
        assert!(
            found.contains(&("a2a.json", "/definitions/O Auth Flows/properties/twice")),
            "{diags}"
        );
        assert_eq!(found.len(), 3, "{diags}");
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn local_refs_into_either_container_resolve_by_key() {
        let schema = json!({"definitions": {
            "Agent Card": {"type": "object", "properties": {"p": {"$ref": "#/definitions/Agent Provider"}}, "patternProperties": {}},
            "Agent Provider": {"type": "object", "properties": {"n": {"anyOf": int32_any()}}}
        }});
        assert_eq!(detect(&schema), Shape::LocalBundle);
        let im = imported(schema, "").0.unwrap();
        assert_eq!(
            defs_of(&im)["AgentCard"]["properties"]["p"],
            json!({"$ref": "#/$defs/AgentProvider"})
        );
    }

    #[test]
    fn the_overlay_is_named_in_the_header_after_the_schema() {
        let mut text =
            "// @generated\n// input: a sha256:1\n\nstruct A;\n// input: a sha256:1\n".to_string();
        add_header_line(
            &mut text,
            "// input: a sha256:1\n",
            "// input: o sha256:2\n",
        );
        assert_eq!(
            text,
            "// @generated\n// input: a sha256:1\n// input: o sha256:2\n\nstruct A;\n// input: a sha256:1\n"
        );
        let mut other = "// @generated\n// input: e sha256:3\n\nx".to_string();
        add_header_line(
            &mut other,
            "// input: a sha256:1\n",
            "// input: o sha256:2\n",
        );
        assert_eq!(other, "// @generated\n// input: e sha256:3\n\nx");
    }

    /// A small schema in the v0.3 layout.
    fn v03() -> Value {
        let rpc = json!({"const": "2.0", "type": "string"});
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {
                "A2AError": {"anyOf": [{"$ref": "#/definitions/JSONRPCError"}, {"$ref": "#/definitions/TaskNotFoundError"}]},
                "DataPart": {"type": "object", "required": ["data", "kind"], "properties": {
                    "data": {"additionalProperties": {}, "type": "object"},
                    "kind": {"const": "data", "type": "string"}}},
                "FilePart": {"type": "object", "required": ["file", "kind"], "properties": {
                    "file": {"anyOf": [{"$ref": "#/definitions/FileWithBytes"}, {"$ref": "#/definitions/FileWithUri"}], "description": "The file."},
                    "kind": {"const": "file", "type": "string"}}},
                "FileWithBytes": {"type": "object", "required": ["bytes"], "properties": {
                    "bytes": {"type": "string", "description": "Inline."}, "name": {"type": "string"}}},
                "FileWithUri": {"type": "object", "required": ["uri"], "properties": {
                    "name": {"type": "string"}, "uri": {"type": "string"}}},
                "JSONRPCError": {"type": "object", "required": ["code", "message"], "properties": {
                    "code": {"type": "integer"}, "data": {}, "message": {"type": "string"}}},
                "JSONRPCErrorResponse": {"type": "object", "required": ["error", "jsonrpc"], "properties": {
                    "error": {"$ref": "#/definitions/JSONRPCError"}, "jsonrpc": rpc}},
                "Message": {"type": "object", "required": ["kind", "role", "version"], "properties": {
                    "kind": {"const": "message", "type": "string"},
                    "metadata": {"additionalProperties": {}, "type": "object"},
                    "mode": {"default": "x", "type": "string"},
                    "role": {"enum": ["agent", "user"], "type": "string", "description": "Who."},
                    "version": {"default": "1.0", "type": "string"}}},
                "Part": {"anyOf": [{"$ref": "#/definitions/FilePart"}, {"$ref": "#/definitions/DataPart"}], "description": "A part."},
                "PartBase": {"type": "object", "properties": {"metadata": {"additionalProperties": {}, "type": "object"}}},
                "SendMessageRequest": {"type": "object", "required": ["jsonrpc", "method"], "properties": {
                    "jsonrpc": rpc, "method": {"const": "message/send", "type": "string"},
                    "params": {"$ref": "#/definitions/Message"}}},
                "SendMessageResponse": {"anyOf": [{"$ref": "#/definitions/JSONRPCErrorResponse"}, {"$ref": "#/definitions/SendMessageSuccessResponse"}]},
                "SendMessageSuccessResponse": {"type": "object", "required": ["jsonrpc", "result"], "properties": {
                    "jsonrpc": rpc,
                    "result": {"anyOf": [{"$ref": "#/definitions/Message"}, {"$ref": "#/definitions/FilePart"}]}}},
                "TaskNotFoundError": {"type": "object", "required": ["code", "message"], "properties": {
                    "code": {"const": -32001, "type": "integer"},
                    "message": {"default": "Task not found", "type": "string"}}}
            }
        })
    }

    const V03_OVERLAY: &str = r#"
        drop = ["PartBase", "FileWithBytes", "FileWithUri"]

        [union.SendResult]
        at = "/definitions/SendMessageSuccessResponse/properties/result"
        description = "What comes back."

        [union.FileContent]
        at = "/definitions/FilePart/properties/file"
        oneof = "source"

        [enum.Role]
        at = "/definitions/Message/properties/role"
        description = "Sender."

        [message.FileContent]
        fields = ["bytes", "uri", "name"]
    "#;

    #[test]
    fn the_v03_shape_is_detected() {
        assert_eq!(detect(&v03()), Shape::V03);
        let mut no_draft = v03();
        no_draft.as_object_mut().unwrap().remove("$schema");
        assert_eq!(
            detect(&no_draft),
            Shape::Own,
            "draft-07 is part of the rule"
        );
        let mut untagged = v03();
        for part in ["FilePart", "DataPart", "Message", "TaskNotFoundError"] {
            untagged["definitions"][part]["properties"]
                .as_object_mut()
                .unwrap()
                .retain(|k, _| k != "kind" && k != "code");
        }
        assert_eq!(detect(&untagged), Shape::Own, "no union tagged by a const");
        let defs_container = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$defs": v03()["definitions"].clone()});
        assert_eq!(detect(&defs_container), Shape::Own);
    }

    #[test]
    fn the_json_rpc_layer_of_v03_is_dropped_by_rule_with_one_note() {
        let defs = v03()["definitions"].as_object().unwrap().clone();
        let dropped = dropped_by_rule(&defs, "#/definitions/");
        assert_eq!(
            dropped.iter().map(String::as_str).collect::<Vec<_>>(),
            [
                "A2AError",
                "JSONRPCError",
                "JSONRPCErrorResponse",
                "SendMessageRequest",
                "SendMessageResponse",
                "SendMessageSuccessResponse",
                "TaskNotFoundError"
            ]
        );
        let (im, diags) = imported(v03(), V03_OVERLAY);
        assert!(diags.is_empty(), "{diags}");
        let im = im.unwrap();
        assert_eq!(detect(&v03()), Shape::V03);
        let names: Vec<&String> = defs_of(&im).keys().collect();
        assert_eq!(
            names,
            [
                "DataPart",
                "FilePart",
                "Message",
                "Part",
                "Role",
                "FileContent",
                "SendResult"
            ]
        );
        assert_eq!(im.notes.len(), 1);
        assert!(
            im.notes[0].message.contains("leaves out the 7 definitions"),
            "{}",
            im.notes[0]
        );
        assert_eq!(im.notes[0].location, "/definitions/A2AError");
    }

    #[test]
    fn v03_unions_tagged_by_a_const_become_discriminated_oneofs() {
        let im = imported(v03(), V03_OVERLAY).0.unwrap();
        let defs = defs_of(&im);
        assert_eq!(
            defs["Part"],
            json!({"oneOf": [{"$ref": "#/$defs/FilePart"}, {"$ref": "#/$defs/DataPart"}], "x-discriminator": "kind", "description": "A part."})
        );
        // An inline union of results, named by the overlay.
        assert_eq!(
            defs["SendResult"],
            json!({"oneOf": [{"$ref": "#/$defs/Message"}, {"$ref": "#/$defs/FilePart"}], "x-discriminator": "kind", "description": "What comes back."})
        );
        // The tag is the member every branch pins with a distinct const.
        let any = json!([{"$ref": "#/definitions/FilePart"}, {"$ref": "#/definitions/DataPart"}]);
        let defs = v03()["definitions"].as_object().unwrap().clone();
        assert_eq!(
            tag_of_union(&defs, &any, "#/definitions/"),
            Ok("kind".into())
        );
        let mut same = defs.clone();
        same["DataPart"]["properties"]["kind"]["const"] = "file".into();
        assert!(tag_of_union(&same, &any, "#/definitions/")
            .unwrap_err()
            .contains("no required member pinned with a distinct `const`"));
        let files =
            json!([{"$ref": "#/definitions/FileWithBytes"}, {"$ref": "#/definitions/FileWithUri"}]);
        assert!(tag_of_union(&defs, &files, "#/definitions/").is_err());
    }

    #[test]
    fn v03_file_shapes_merge_into_one_object_with_a_oneof() {
        let im = imported(v03(), V03_OVERLAY).0.unwrap();
        let defs = defs_of(&im);
        assert_eq!(
            defs["FileContent"],
            json!({
                "type": "object",
                "properties": {"bytes": {"type": "string", "description": "Inline."}, "uri": {"type": "string"}, "name": {"type": "string"}},
                "oneOf": [{"required": ["bytes"]}, {"required": ["uri"]}],
                "x-oneof-name": "source"
            })
        );
        assert_eq!(
            defs["FilePart"]["properties"]["file"],
            json!({"$ref": "#/$defs/FileContent", "description": "The file."})
        );
        // Branches that disagree on a member cannot merge.
        let mut schema = v03();
        schema["definitions"]["FileWithUri"]["properties"]["name"] = json!({"type": "integer"});
        let (_, diags) = imported(schema, V03_OVERLAY);
        assert!(
            diags
                .to_string()
                .contains("the branches disagree on the member `name`")
                && diags.0[0].location == "/union/FileContent/oneof",
            "{diags}"
        );
    }

    #[test]
    fn v03_inline_enums_free_form_objects_and_defaults() {
        let im = imported(v03(), V03_OVERLAY).0.unwrap();
        let defs = defs_of(&im);
        assert_eq!(
            defs["Role"],
            json!({"type": "string", "enum": ["agent", "user"], "description": "Sender."})
        );
        let props = &defs["Message"]["properties"];
        assert_eq!(
            props["role"],
            json!({"$ref": "#/$defs/Role", "description": "Who."})
        );
        assert_eq!(props["metadata"], json!({"type": "object"}));
        assert_eq!(
            defs["DataPart"]["properties"]["data"],
            json!({"type": "object"})
        );
        assert_eq!(props["kind"], json!({"const": "message", "type": "string"}));
        // A default on a required member is dropped; on an optional one it is kept.
        assert_eq!(props["version"], json!({"type": "string"}));
        assert_eq!(props["mode"], json!({"default": "x", "type": "string"}));
    }

    #[test]
    fn v03_overlay_mistakes_are_errors_at_their_toml_path() {
        let text = r#"
            drop = ["PartBase", "Nope"]

            [union.Bad]
            at = "/definitions/Message/properties/role"

            [union.Untagged]
            at = "/definitions/FilePart/properties/file"

            [union.Message]
            at = "/definitions/SendMessageSuccessResponse/properties/result"

            [enum.Role]
            at = "/definitions/Message/properties/nothing"

            [enum.Both]
            zero = "X_UNSPECIFIED"
            at = "/definitions/Message/properties/role"
        "#;
        let (im, diags) = imported(v03(), text);
        assert!(im.is_none());
        let found: Vec<(&str, &str)> = diags
            .0
            .iter()
            .map(|d| (d.file.as_str(), d.location.as_str()))
            .collect();
        for at in [
            "/drop/1",
            "/union/Bad/at",
            "/union/Untagged/at",
            "/union/Message",
            "/enum/Role/at",
            "/enum/Both",
        ] {
            assert!(found.contains(&("overlay.toml", at)), "{at} in {diags}");
        }
        let text = diags.to_string();
        assert!(text.contains("is not a tagged union"), "{text}");
        // A kept definition that refers to a dropped one.
        let text = V03_OVERLAY.replace("\"FileWithUri\"]", "\"FileWithUri\", \"DataPart\"]");
        let (_, diags) = imported(v03(), &text);
        assert!(
            diags.0.iter().any(|d| d.file == "a2a.json"
                && d.location == "/definitions/Part/anyOf/1/$ref"
                && d.message.contains("`DataPart`, which is not generated")),
            "{diags}"
        );
    }

    #[test]
    fn v03_lowering_diagnostics_point_back_into_the_published_file_and_the_overlay() {
        let mut schema = v03();
        schema["definitions"]["DataPart"]["properties"]["data"]["minProperties"] = 1.into();
        schema["definitions"]["FileWithUri"]["properties"]["uri"]["minLength"] = 1.into();
        let o = overlay(V03_OVERLAY);
        let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
        let types = lower_types(&source(schema), Some(&o), &mut diags, &mut notes);
        assert!(types.is_empty() || !diags.is_empty());
        let found: Vec<(&str, &str)> = diags
            .0
            .iter()
            .map(|d| (d.file.as_str(), d.location.as_str()))
            .collect();
        assert!(
            found.contains(&(
                "a2a.json",
                "/definitions/DataPart/properties/data/minProperties"
            )),
            "{diags}"
        );
        assert!(
            found.contains(&("overlay.toml", "/union/FileContent")),
            "{diags}"
        );
        // Without mistakes, the small schema lowers: Part is a tagged union on `kind`.
        let o = overlay(V03_OVERLAY);
        let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
        let types = lower_types(&source(v03()), Some(&o), &mut diags, &mut notes);
        assert!(diags.is_empty(), "{diags}");
        assert!(matches!(types["Part"].kind, crate::ir::TypeKind::Tagged(_)));
        assert!(matches!(
            types["FileContent"].kind,
            crate::ir::TypeKind::Struct(ref s) if s.oneof.is_some()
        ));
    }
}
