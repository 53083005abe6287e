//! Which layout a schema is in ([`Shape`], [`detect`]): our own dialect, the v1 bundle (file-name
//! `$ref`s or the newer local layout) or the v0.3 schema.

use super::idioms::{alias_of_pattern, inlined_enum, is_int32};
use super::keys::FILE_REF_SUFFIX;
use super::unions::tag_of_union;
use serde_json::{Map, Value};

/// The `$schema` of JSON Schema draft-07 (with or without the trailing `#`).
pub(super) const DRAFT_07: &str = "http://json-schema.org/draft-07/schema";

/// The layouts of schema a2a-codegen reads. See the docs of the import module
/// (`src/import/mod.rs`) for the rules.
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
    pub(super) fn describe(self) -> &'static str {
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
pub(super) fn is_draft07(root: &Map<String, Value>) -> bool {
    root.get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.starts_with(DRAFT_07))
}

/// Some definition is an `anyOf` of local refs whose targets pin a common member with `const`.
pub(super) fn is_v03(defs: &Value) -> bool {
    let Some(defs) = defs.as_object() else {
        return false;
    };
    defs.values().any(|d| {
        d.get("anyOf")
            .is_some_and(|any| tag_of_union(defs, any, "#/definitions/").is_ok())
    })
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
