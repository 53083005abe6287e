//! Which layout a schema is in ([`Shape`], [`detect`]): our own dialect, the v1 bundle (file-name
//! `$ref`s), bufbuild's `json-bundle` (full proto names as `$defs` keys), the newer local layout
//! or the v0.3 schema.

use super::idioms::{alias_of_pattern, inlined_enum, is_int32, wide_integer};
use super::importer::{Published, Shape};
use super::keys::{bufbuild_suffix, FILE_REF_SUFFIX};
use super::unions::tag_of_union;
use crate::diag::Diagnostics;
use crate::load::{self, Source};
use serde_json::{Map, Value};

/// The `$schema` of JSON Schema draft-07 (with or without the trailing `#`).
pub(super) const DRAFT_07: &str = "http://json-schema.org/draft-07/schema";

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
            Shape::JsonBundle => {
                "the JSON Schema bundle bufbuild's protoc-gen-jsonschema writes (`target=json-bundle`: \
                 `$defs` keyed by full proto names plus `.jsonschema.json`)"
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
    // A key ending like the plugin's file names (`lf.a2a.v1.Task.jsonschema.json`) is no type
    // name of our dialect, so no schema that lowers today is taken for a json-bundle.
    let plugin_keys = defs
        .as_object()
        .is_some_and(|d| d.keys().any(|k| bufbuild_suffix(k).is_some()));
    if plugin_keys && !definitions {
        return Shape::JsonBundle;
    }
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
                    self.idiom |=
                        inlined_enum(any).is_some() || is_int32(any) || wide_integer(any).is_some();
                }
                obj.values().for_each(|v| self.scan(v));
            }
            Value::Array(items) => items.iter().for_each(|v| self.scan(v)),
            _ => {}
        }
    }
}

impl<'a> Published<'a> {
    /// Checks that `schema` is a published layout (one that needs an overlay: a missing one is
    /// reported, though the checks go on) with one container of definitions.
    pub(super) fn find(
        schema: &'a Source<Value>,
        has_overlay: bool,
        diags: &mut Diagnostics,
    ) -> Option<Self> {
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
        if !has_overlay {
            report_missing_overlay(file, shape, diags);
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
        Some(Published {
            file,
            shape,
            value: &schema.value,
            root,
            container,
            defs,
        })
    }
}

/// What a published schema cannot say, by shape: without an overlay it cannot be read.
fn report_missing_overlay(file: &str, shape: Shape, diags: &mut Diagnostics) {
    let v03 = shape == Shape::V03;
    let missing = if v03 {
        // Its own `required` lists are read as they are; what the overlay adds is the rest.
        "it sorts every object's properties by name (the field order is lost), leaves its unions \
         as inline `anyOf`s of refs with no name (the method results; FilePart's file, which is \
         a oneof) and its enums inline and unnamed, and holds base shapes that its concrete \
         types repeat"
    } else if shape == Shape::JsonBundle {
        "it has no `required` lists (no REQUIRED field), names no oneof (where it constrains one, \
         it says which properties exclude each other, not the oneof's name), sorts every \
         message's properties by name (the proto's field order is lost), inlines its enums \
         without their names and has no `Empty`"
    } else {
        "it has no `required` lists (no REQUIRED field) and no oneof groups, sorts every \
         message's properties by name (the proto's field order is lost), inlines its enums \
         without their names, marks no field deprecated and has no `Empty`"
    };
    diags
        .push(
            file,
            "",
            format!(
                "this is {}; {missing}, so a2a-codegen needs an overlay to read it",
                shape.describe()
            ),
        )
        .help(format!(
            "put an `{}` beside it (a2a-codegen's {} is the one for A2A {}), or name one with \
             `Config::overlay` (`--overlay`; `--old-overlay`, `--new-overlay` for diff); {} \
             describes the format",
            load::OVERLAY_FILE,
            if v03 {
                "spec/v0_3/overlay.toml"
            } else {
                "spec/v1/overlay.toml"
            },
            if v03 { "v0.3.0" } else { "v1.0.x" },
            if v03 {
                "spec/v0_3/README.md"
            } else {
                "spec/v1/README.md"
            },
        ));
}
