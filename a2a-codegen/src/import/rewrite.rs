//! The rewrite of one published schema (a definition, property or item) into our dialect.

use super::idioms::{
    alias_of_pattern, inlined_enum, is_int32, is_zero, wide_integer, wide_number, BASE64_PATTERN,
};
use super::importer::{Importer, Shape};
use super::origin::Origin;
use super::unions::tag_of_union;
use crate::diag::pointer_push;
use crate::naming;
use serde_json::{Map, Value};

/// The rewritten schema's root: the published root's keywords, the definitions under `$defs`,
/// without the file's own annotations.
pub(super) fn rewrite_root(
    root: &Map<String, Value>,
    mut defs: Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in root {
        match key.as_str() {
            "$defs" | "definitions" => {
                out.insert("$defs".into(), Value::Object(std::mem::take(&mut defs)));
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
    out
}

impl Importer<'_> {
    /// Rewrites every generated definition into our dialect, under its type name.
    pub(super) fn rewrite_definitions(&mut self, origins: &mut Vec<Origin>) -> Map<String, Value> {
        let mut out_defs = Map::new();
        let defs = self.defs;
        for (key, def) in defs {
            let Some(name) = self.keys.get(key).cloned() else {
                continue;
            };
            if self.dropped.contains(key) {
                continue;
            }
            let at = pointer_push(&format!("/{}", self.container), key);
            if !def.is_object() {
                self.not_a_schema(&format!("the definition `{key}`"), def, &at);
                continue;
            }
            if let (Some(all_of), Some(obj), true) =
                (def.get("allOf"), def.as_object(), self.shape != Shape::V03)
            {
                self.read_oneof_constraints(&name, obj, all_of, &pointer_push(&at, "allOf"));
            }
            let value = self.schema(def, &at, true);
            if def.get("anyOf").is_some() && value.get("oneOf").is_some() {
                // A union rewritten from `anyOf`: its branches point back at the `anyOf`'s.
                origins.push(Origin {
                    new: format!("{}/oneOf", pointer_push("/$defs", &name)),
                    file: self.file.to_string(),
                    old: format!("{at}/anyOf"),
                    keep_rest: true,
                });
            }
            origins.push(Origin {
                new: pointer_push("/$defs", &name),
                file: self.file.to_string(),
                old: at,
                keep_rest: true,
            });
            out_defs.insert(name, value);
        }
        out_defs
    }

    /// Rewrites one schema; `def` when it is a whole definition (not a property or item). Steps:
    /// a site the overlay names (a union or an inline enum), a v0.3 definition's tagged union, an
    /// `anyOf` of a known shape, and otherwise each keyword in turn.
    pub(super) fn schema(&mut self, schema: &Value, pointer: &str, def: bool) -> Value {
        let Value::Object(obj) = schema else {
            return schema.clone();
        };
        if let Some(out) = self.named_site(schema, obj, pointer) {
            return out;
        }
        if let (Some(any), true, Shape::V03) = (obj.get("anyOf"), def, self.shape) {
            return self.union_definition(obj, any, pointer);
        }
        if let Some(out) = obj
            .get("anyOf")
            .and_then(|any| self.any_of(obj, any, pointer))
        {
            return out;
        }
        self.keywords(obj, pointer, def)
    }

    /// A union or inline enum the overlay names: a `$ref` to its new definition.
    fn named_site(
        &mut self,
        schema: &Value,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Option<Value> {
        if let Some(name) = self.union_sites.get(pointer).cloned() {
            let mut out = Map::new();
            out.insert("$ref".into(), format!("#/$defs/{name}").into());
            self.keep_rest(obj, &mut out, &["anyOf"], |_| false);
            return Some(Value::Object(out));
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
                return Some(schema.clone());
            };
            self.record_enum(&name, values, pointer);
            let mut out = Map::new();
            out.insert("$ref".into(), format!("#/$defs/{name}").into());
            self.keep_rest(obj, &mut out, &["enum", "type"], |_| false);
            return Some(Value::Object(out));
        }
        None
    }

    /// A v0.3 definition's `anyOf`: a tagged union, or an error saying why it is not one.
    fn union_definition(&mut self, obj: &Map<String, Value>, any: &Value, pointer: &str) -> Value {
        let prefix = format!("#/{}/", self.container);
        let at = pointer_push(pointer, "anyOf");
        match tag_of_union(self.defs, any, &prefix) {
            Ok(tag) => {
                let mut out = self.tagged(any, &tag, &at);
                self.keep_rest(obj, &mut out, &["anyOf"], |_| false);
                Value::Object(out)
            }
            Err(why) => {
                self.diags
                    .push(self.file, &at, format!("not a tagged union: {why}"))
                    .help(
                        "a definition's `anyOf` is read as a union of `$ref`s whose targets \
                         pin a common member with `const`; drop the definition in the overlay \
                         if it is not part of the data model",
                    );
                Value::Object(Map::new())
            }
        }
    }

    /// An `anyOf` of a shape the published generators write for one type: an inlined enum, an
    /// int32, a 64-bit integer (or an unsupported wide number, reported).
    fn any_of(&mut self, obj: &Map<String, Value>, any: &Value, pointer: &str) -> Option<Value> {
        if let Some(inlined) = inlined_enum(any) {
            let mut out = Map::new();
            if let Some(name) = self.inline_enum(obj, inlined, pointer) {
                out.insert("$ref".into(), format!("#/$defs/{name}").into());
            }
            self.keep_rest(obj, &mut out, &["anyOf", "title", "default"], |v| {
                v.as_i64() == Some(0) || v.as_str().is_some_and(|s| s.ends_with("_UNSPECIFIED"))
            });
            return Some(Value::Object(out));
        }
        if is_int32(any) {
            let mut out = Map::new();
            out.insert("type".into(), "integer".into());
            out.insert("format".into(), "int32".into());
            self.keep_rest(obj, &mut out, &["anyOf", "default"], |v| {
                is_zero(Some("integer"), v) || v.as_str() == Some("0")
            });
            return Some(Value::Object(out));
        }
        if let Some(format) = wide_integer(any) {
            let mut out = Map::new();
            out.insert("type".into(), serde_json::json!(["integer", "string"]));
            out.insert("format".into(), format.into());
            self.keep_rest(obj, &mut out, &["anyOf", "default"], |v| {
                is_zero(Some("integer"), v) || v.as_str() == Some("0")
            });
            return Some(Value::Object(out));
        }
        if let Some(kind) = wide_number(any) {
            self.unsupported_number(kind, pointer);
            return Some(Value::Object(Map::new()));
        }
        None
    }

    /// Every keyword of a schema in turn, sub-schemas rewritten.
    fn keywords(&mut self, obj: &Map<String, Value>, pointer: &str, def: bool) -> Value {
        let ty = obj.get("type").and_then(Value::as_str);
        let mut out = Map::new();
        for (key, value) in obj {
            let at = pointer_push(pointer, key);
            match key.as_str() {
                "$schema" | "$id" | "title" if def => {}
                // The oneof constraints, read by `read_oneof_constraints`.
                "allOf" if def && self.shape != Shape::V03 => {}
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
                    let props = self.properties(obj, value, &at);
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

    /// The members of `properties`, each rewritten; a default on a required member is dropped.
    fn properties(
        &mut self,
        obj: &Map<String, Value>,
        value: &Value,
        at: &str,
    ) -> Map<String, Value> {
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let props = value.as_object().into_iter().flatten();
        props
            .map(|(name, prop)| {
                let prop_at = pointer_push(at, name);
                if !prop.is_object() {
                    self.not_a_schema(&format!("the property `{name}`"), prop, &prop_at);
                }
                let mut prop = self.schema(prop, &prop_at, false);
                // A default on a required member has nothing to fill in.
                if required.contains(&name.as_str()) {
                    if let Value::Object(p) = &mut prop {
                        p.remove("default");
                    }
                }
                (name.clone(), prop)
            })
            .collect()
    }

    /// A definition or property that is not a schema object (the published generators write
    /// every one as an object).
    fn not_a_schema(&mut self, what: &str, value: &Value, pointer: &str) {
        let found = match value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        };
        self.diags
            .push(
                self.file,
                pointer,
                format!("{what} is {found}, not a schema object"),
            )
            .help(
                "the published schema writes every definition and property as a JSON object \
                 (`{\"type\": ...}`, `{\"$ref\": ...}`); the file is damaged or hand-edited: \
                 regenerate it, or fix the entry",
            );
    }

    /// A number type the model lacks, recognised by how protoc-gen-jsonschema spells it.
    fn unsupported_number(&mut self, kind: &str, pointer: &str) {
        let (what, help) = match kind {
            "int64" | "uint64" => (
                "a 64-bit integer: a JSON number, or a decimal string as ProtoJSON writes it",
                "a2a-codegen models no 64-bit integer yet (A2A v1.0.x has none); remove the field \
                 or give it a type the generator reads",
            ),
            "uint32" => (
                "an unsigned 32-bit integer: a JSON number, or a decimal string",
                "a2a-codegen models int32 but no unsigned integer (A2A v1.0.x has none); remove \
                 the field or make it an int32 in the proto",
            ),
            _ => (
                "a floating-point number: a JSON number, or a string (\"NaN\", \"Infinity\", \
                 \"-Infinity\", a numeric string) as ProtoJSON reads it",
                "a2a-codegen's `number` reads JSON numbers only, which would refuse what ProtoJSON \
                 writes for NaN and the infinities (A2A v1.0.x has no float or double); remove \
                 the field or extend the generator",
            ),
        };
        self.diags
            .push(
                self.file,
                pointer,
                format!(
                    "this `anyOf` is how protoc-gen-jsonschema writes a protobuf {kind}, {what}"
                ),
            )
            .help(help);
    }

    /// Copies the keys of a replaced `anyOf` schema that are not consumed (`skip`) and not a zero
    /// `default`; the lowerer judges them.
    pub(super) fn keep_rest(
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

    /// Checks that every `patternProperties` entry is the snake_case alias of a property.
    pub(super) fn aliases(&mut self, obj: &Map<String, Value>, patterns: &Value, pointer: &str) {
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
