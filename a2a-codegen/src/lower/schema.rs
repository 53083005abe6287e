//! JSON Schema to the IR's types.
//!
//! This is deliberately a small, strict reader of the JSON Schema subset the A2A model needs, not a
//! general JSON Schema compiler: every keyword is either understood or reported with its JSON
//! pointer, so nothing in the input is silently dropped.

use crate::diag::{pointer_push, Diagnostics};
use crate::ir::*;
use crate::load::Source;
use crate::naming;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Keywords that only annotate; allowed at any schema position.
/// (`x-field-number`, the protobuf field number, is read where it means something, a property,
/// and ignored elsewhere.)
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "$comment",
    "examples",
    "deprecated",
    "x-field-number",
];

/// Every keyword the generator understands, for the help text of the unsupported-keyword error.
const SUPPORTED: &str = "$defs/definitions, $ref, type (object, array, string, integer, number, boolean, \
[integer, string] for 64-bit integers), properties, required, items, additionalProperties (a schema), enum, \
const, format (date-time, byte, int32, int64, uint64, double, float), oneOf of single-member `required`, x-oneof-name, oneOf of $refs with x-discriminator, x-field-number (a property's protobuf field number), default, description, title, \
examples, deprecated, $comment";

/// Schema dialects accepted in `$schema`.
const DIALECTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
];

struct Lowerer<'a> {
    file: &'a str,
    diags: &'a mut Diagnostics,
    defs: &'a Map<String, Value>,
    /// `#/$defs/` or `#/definitions/`: the ref prefix matching the container the file uses.
    ref_prefix: &'static str,
}

/// Lowers the schema's definitions into named types.
pub fn lower_schema(source: &Source<Value>, diags: &mut Diagnostics) -> BTreeMap<TypeId, TypeDef> {
    let file = source.label.as_str();
    let Some(root) = source.value.as_object() else {
        diags
            .push(file, "", "the schema must be a JSON object")
            .help("wrap the definitions in {\"$defs\": {...}}");
        return BTreeMap::new();
    };
    let mut lw = Lowerer {
        file,
        diags,
        defs: &EMPTY,
        ref_prefix: "#/$defs/",
    };
    lw.check_keywords(root, "", &["$schema", "$id", "$defs", "definitions"]);
    if let Some(dialect) = root.get("$schema") {
        if !dialect.as_str().is_some_and(|d| DIALECTS.contains(&d)) {
            lw.diags
                .push(
                    file,
                    "/$schema",
                    format!("unsupported schema dialect {dialect}"),
                )
                .help("use \"https://json-schema.org/draft/2020-12/schema\" (or draft-07)");
        }
    }
    let (container, prefix) = match (root.get("$defs"), root.get("definitions")) {
        (Some(_), Some(_)) => {
            lw.diags
                .push(file, "", "both `$defs` and `definitions` are present")
                .help("keep one container of definitions (`$defs` in JSON Schema 2020-12)");
            return BTreeMap::new();
        }
        (Some(d), None) => (("$defs", d), "#/$defs/"),
        (None, Some(d)) => (("definitions", d), "#/definitions/"),
        (None, None) => {
            lw.diags
                .push(file, "", "the schema has no `$defs`")
                .help("put every type under a top-level \"$defs\" object");
            return BTreeMap::new();
        }
    };
    let Some(defs) = container.1.as_object() else {
        lw.diags.push(
            file,
            format!("/{}", container.0),
            "must be an object of named schemas",
        );
        return BTreeMap::new();
    };
    lw.defs = defs;
    lw.ref_prefix = prefix;
    let mut types = BTreeMap::new();
    for (name, schema) in defs {
        let pointer = pointer_push(&format!("/{}", container.0), name);
        if let Some(def) = lw.lower_def(name, schema, &pointer) {
            types.insert(name.clone(), def);
        }
    }
    types
}

/// Whether a definition's `oneOf` has a `$ref` branch: a union of types, which must be tagged.
fn is_ref_union(obj: &Map<String, Value>) -> bool {
    obj.get("oneOf")
        .and_then(Value::as_array)
        .is_some_and(|b| b.iter().any(|b| b.get("$ref").is_some()))
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

impl Lowerer<'_> {
    fn error(&mut self, pointer: &str, message: impl Into<String>) -> &mut crate::diag::Diagnostic {
        self.diags.push(self.file, pointer, message)
    }

    /// Reports every key of `obj` that is neither an annotation nor in `allowed`.
    fn check_keywords(&mut self, obj: &Map<String, Value>, pointer: &str, allowed: &[&str]) {
        for key in obj.keys() {
            if ANNOTATIONS.contains(&key.as_str()) || allowed.contains(&key.as_str()) {
                continue;
            }
            let help = match key.as_str() {
                "additionalProperties" => {
                    "a map is `{\"type\": \"object\", \"additionalProperties\": <schema>}`; \
                    elsewhere it is not supported"
                        .to_string()
                }
                _ => format!(
                    "a2a-codegen supports: {SUPPORTED}; remove the keyword or extend the generator"
                ),
            };
            let at = pointer_push(pointer, key);
            self.error(&at, format!("unsupported JSON Schema keyword `{key}` here"))
                .help(help);
        }
    }

    fn doc(&mut self, obj: &Map<String, Value>, pointer: &str) -> Option<String> {
        let mut doc = String::new();
        for key in ["description", "title"] {
            match obj.get(key) {
                None => {}
                Some(Value::String(s)) if doc.is_empty() => doc = s.trim().to_string(),
                Some(Value::String(_)) => {}
                Some(_) => {
                    let at = pointer_push(pointer, key);
                    self.error(&at, format!("`{key}` must be a string"));
                }
            }
        }
        if let Some(examples) = obj.get("examples") {
            match examples.as_array() {
                Some(list) if !list.is_empty() => {
                    let shown: Vec<String> = list.iter().map(|e| format!("`{e}`")).collect();
                    if !doc.is_empty() {
                        doc.push_str("\n\n");
                    }
                    doc.push_str(&format!("Examples: {}.", shown.join(", ")));
                }
                Some(_) => {}
                None => {
                    let at = pointer_push(pointer, "examples");
                    self.error(&at, "`examples` must be an array");
                }
            }
        }
        (!doc.is_empty()).then_some(doc)
    }

    fn deprecated(&mut self, obj: &Map<String, Value>, pointer: &str) -> bool {
        match obj.get("deprecated") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                let at = pointer_push(pointer, "deprecated");
                self.error(&at, "`deprecated` must be true or false");
                false
            }
        }
    }

    fn lower_def(&mut self, name: &str, schema: &Value, pointer: &str) -> Option<TypeDef> {
        let obj = match schema {
            Value::Object(obj) => obj,
            Value::Bool(true) => &*EMPTY,
            _ => {
                self.error(pointer, "a definition must be a schema object");
                return None;
            }
        };
        let doc = self.doc(obj, pointer);
        let kind = if obj.contains_key("enum") {
            self.check_keywords(obj, pointer, &["type", "enum"]);
            TypeKind::Enum(self.lower_enum(obj, pointer)?)
        } else if obj.contains_key("x-discriminator") || is_ref_union(obj) {
            TypeKind::Tagged(self.lower_tagged(obj, pointer)?)
        } else if obj.get("type").and_then(Value::as_str) == Some("object")
            && (obj.contains_key("properties") || obj.contains_key("oneOf"))
        {
            self.lower_object(name, obj, pointer)?
        } else {
            TypeKind::Alias(self.type_ref(schema, pointer)?)
        };
        Some(TypeDef {
            name: name.to_string(),
            doc,
            pointer: pointer.to_string(),
            kind,
        })
    }

    fn lower_enum(&mut self, obj: &Map<String, Value>, pointer: &str) -> Option<EnumDef> {
        if let Some(ty) = obj.get("type") {
            if ty.as_str() != Some("string") {
                let at = pointer_push(pointer, "type");
                self.error(&at, "an enum must be a string enum")
                    .help("ProtoJSON enums are strings: use \"type\": \"string\"");
                return None;
            }
        }
        let at = pointer_push(pointer, "enum");
        let Some(values) = obj.get("enum").and_then(Value::as_array) else {
            self.error(&at, "`enum` must be an array of strings");
            return None;
        };
        let mut wires = Vec::new();
        for (i, v) in values.iter().enumerate() {
            match v.as_str() {
                Some(s) if !s.is_empty() && !wires.iter().any(|w: &String| w == s) => {
                    wires.push(s.to_string())
                }
                Some("") => {
                    self.error(
                        &pointer_push(&at, &i.to_string()),
                        "an enum value must not be empty",
                    );
                }
                Some(s) => {
                    self.error(
                        &pointer_push(&at, &i.to_string()),
                        format!("enum value `{s}` is listed twice"),
                    );
                }
                None => {
                    self.error(
                        &pointer_push(&at, &i.to_string()),
                        format!("enum value {v} is not a string"),
                    )
                    .help("only string enums are supported (ProtoJSON writes enum names)");
                }
            }
        }
        if wires.is_empty() {
            self.error(&at, "an enum needs at least one value");
            return None;
        }
        let variants = naming::enum_variant_names(&wires);
        let values = wires
            .into_iter()
            .zip(variants)
            .enumerate()
            .map(|(i, (wire, variant))| EnumValue {
                wire,
                variant,
                number: i as i32,
            })
            .collect();
        Some(EnumDef { values })
    }

    /// An object schema: a struct, or a bare oneof when the oneOf members are all it has. Steps:
    /// the object keywords, then each property as a oneof member, a `const` or a field, then the
    /// kind those make.
    fn lower_object(
        &mut self,
        name: &str,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Option<TypeKind> {
        self.check_keywords(
            obj,
            pointer,
            &[
                "type",
                "properties",
                "required",
                "oneOf",
                "x-oneof-name",
                "additionalProperties",
            ],
        );
        self.check_additional_properties(obj, pointer);
        let props_at = pointer_push(pointer, "properties");
        let props = match obj.get("properties") {
            None => &*EMPTY,
            Some(Value::Object(p)) => p,
            Some(_) => {
                self.error(&props_at, "`properties` must be an object");
                return None;
            }
        };
        let required = self.required_properties(obj, props, pointer);
        let members = self.oneof_members(obj, props, &required, pointer);

        let mut fields = Vec::new();
        let mut consts = Vec::new();
        let mut group = Vec::new();
        for (json_name, schema) in props {
            let at = pointer_push(&props_at, json_name);
            let prop = schema.as_object().unwrap_or(&*EMPTY);
            if members.contains(json_name) {
                group.extend(self.oneof_member(json_name, schema, prop, &at));
            } else if let Some(value) = prop.get("const") {
                let required = required.contains(json_name);
                consts.extend(self.const_field(json_name, prop, value, required, &at));
            } else {
                let required = required.contains(json_name);
                fields.extend(self.field(json_name, schema, prop, required, at));
            }
        }
        self.object_kind(
            name,
            obj,
            pointer,
            !members.is_empty(),
            fields,
            consts,
            group,
        )
    }

    /// `additionalProperties` beside `properties`: absent, `true` or `{}` (unknown members are
    /// always tolerated); anything else is an error.
    fn check_additional_properties(&mut self, obj: &Map<String, Value>, pointer: &str) {
        match obj.get("additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Object(o)) if o.is_empty() => {}
            Some(Value::Bool(false)) => {
                let at = pointer_push(pointer, "additionalProperties");
                self.error(&at, "`additionalProperties: false` is not supported")
                    .help("A2A v1 §5.7: receivers ignore unknown fields; delete it (unknown members are always tolerated)");
            }
            Some(_) => {
                let at = pointer_push(pointer, "additionalProperties");
                self.error(&at, "an object with `properties` cannot also have a map value schema")
                    .help("model the map as its own property: {\"type\": \"object\", \"additionalProperties\": <schema>}");
            }
        }
    }

    /// The `required` list, each name checked against `properties`.
    fn required_properties(
        &mut self,
        obj: &Map<String, Value>,
        props: &Map<String, Value>,
        pointer: &str,
    ) -> Vec<String> {
        let required = self.string_list(obj, "required", pointer);
        for r in &required {
            if !props.contains_key(r) {
                let at = pointer_push(pointer, "required");
                self.error(
                    &at,
                    format!("`required` names `{r}`, which is not a property"),
                )
                .help("add the property or remove the name");
            }
        }
        required
    }

    /// A property that is a member of the object's oneOf group.
    fn oneof_member(
        &mut self,
        json_name: &str,
        schema: &Value,
        prop: &Map<String, Value>,
        at: &str,
    ) -> Option<OneOfMember> {
        let ty = self.type_ref(schema, at);
        let doc = self.doc(prop, at);
        let deprecated = self.deprecated(prop, at);
        let number = self.field_number(prop, at);
        Some(OneOfMember {
            json_name: json_name.to_string(),
            alias: alias(json_name),
            variant: naming::pascal_case(json_name),
            ty: ty?,
            doc,
            deprecated,
            number,
        })
    }

    /// A property pinned to one value with `const`.
    fn const_field(
        &mut self,
        json_name: &str,
        prop: &Map<String, Value>,
        value: &Value,
        required: bool,
        at: &str,
    ) -> Option<ConstField> {
        self.check_keywords(prop, at, &["const", "type"]);
        let value = self.literal(value, &pointer_push(at, "const"))?;
        Some(ConstField {
            json_name: json_name.to_string(),
            alias: alias(json_name),
            value,
            required,
        })
    }

    /// A plain property: its type, its presence (required, defaulted or optional) and its Rust
    /// name.
    fn field(
        &mut self,
        json_name: &str,
        schema: &Value,
        prop: &Map<String, Value>,
        required: bool,
        at: String,
    ) -> Option<Field> {
        let ty = self.type_ref(schema, &at)?;
        let doc = self.doc(prop, &at);
        let deprecated = self.deprecated(prop, &at);
        let number = self.field_number(prop, &at);
        let presence = if required {
            Presence::Required
        } else if let Some(default) = prop.get("default") {
            Presence::Defaulted(self.default_literal(
                &ty,
                default,
                &pointer_push(&at, "default"),
            )?)
        } else {
            Presence::Optional
        };
        let rust_name = naming::snake_case(json_name);
        if !naming::is_identifier(&rust_name) {
            self.error(&at, format!("property `{json_name}` has no usable Rust name (got `{rust_name}`)"))
                .help("property names must contain a letter and consist of ASCII letters, digits, `_` or `-`");
            return None;
        }
        Some(Field {
            json_name: json_name.to_string(),
            alias: alias(json_name),
            rust_name,
            ty,
            presence,
            doc,
            deprecated,
            number,
            pointer: at,
        })
    }

    /// A property's `x-field-number`: its protobuf field number, `1..=536870911` and not in
    /// protobuf's reserved `19000..=19999`.
    fn field_number(&mut self, prop: &Map<String, Value>, pointer: &str) -> Option<u32> {
        let value = prop.get("x-field-number")?;
        let number = value.as_u64().and_then(|n| u32::try_from(n).ok());
        match number {
            Some(n @ 1..=536_870_911) if !(19_000..=19_999).contains(&n) => Some(n),
            _ => {
                let at = pointer_push(pointer, "x-field-number");
                self.error(&at, format!("`x-field-number` must be a protobuf field number, got {value}"))
                    .help("write the field's number in the proto: an integer from 1 to 536870911, outside 19000 to 19999");
                None
            }
        }
    }

    /// What an object's parts make: a struct when it has no oneOf members (`has_oneof`); a bare
    /// oneof when its members are all it has; a struct with a named oneof field otherwise
    /// (`x-oneof-name` names it).
    #[allow(clippy::too_many_arguments)]
    fn object_kind(
        &mut self,
        name: &str,
        obj: &Map<String, Value>,
        pointer: &str,
        has_oneof: bool,
        fields: Vec<Field>,
        consts: Vec<ConstField>,
        members: Vec<OneOfMember>,
    ) -> Option<TypeKind> {
        let oneof_name = match obj.get("x-oneof-name") {
            None => None,
            Some(Value::String(s)) if naming::is_identifier(&naming::snake_case(s)) => {
                Some(s.clone())
            }
            Some(_) => {
                let at = pointer_push(pointer, "x-oneof-name");
                self.error(&at, "`x-oneof-name` must be a name such as \"content\"");
                None
            }
        };
        if !has_oneof {
            if obj.contains_key("x-oneof-name") {
                let at = pointer_push(pointer, "x-oneof-name");
                self.error(&at, "`x-oneof-name` without a `oneOf`")
                    .help("remove it, or add the oneOf it names");
            }
            return Some(TypeKind::Struct(StructDef {
                fields,
                consts,
                oneof: None,
            }));
        }
        let group = OneOfGroup {
            name: oneof_name.clone(),
            members,
        };
        if fields.is_empty() && consts.is_empty() {
            return Some(TypeKind::OneOf(group));
        }
        let Some(oneof_name) = oneof_name else {
            self.error(pointer, "a `oneOf` beside other properties needs a name")
                .help("add \"x-oneof-name\": \"<the proto oneof's name>\" (e.g. \"content\"); it names the Rust field and enum");
            return None;
        };
        let rust_name = naming::snake_case(&oneof_name);
        let enum_name = format!("{name}{}", naming::pascal_case(&oneof_name));
        Some(TypeKind::Struct(StructDef {
            fields,
            consts,
            oneof: Some(OneOfField {
                rust_name,
                enum_name,
                group,
            }),
        }))
    }

    /// An internally tagged union: `{"oneOf": [{"$ref": ..}, ..], "x-discriminator": "kind"}`.
    /// Every branch is a `$ref` to an object definition that pins the tag property to a string with
    /// `const` and lists it in `required`; each tag value is used once.
    fn lower_tagged(&mut self, obj: &Map<String, Value>, pointer: &str) -> Option<TaggedUnion> {
        self.check_keywords(obj, pointer, &["type", "oneOf", "x-discriminator"]);
        if let Some(ty) = obj.get("type") {
            if ty.as_str() != Some("object") {
                let at = pointer_push(pointer, "type");
                self.error(
                    &at,
                    "a tagged union is an object: `type` must be \"object\" or absent",
                );
            }
        }
        let tag = match obj.get("x-discriminator") {
            None => {
                self.error(pointer, "a `oneOf` of `$ref`s needs `x-discriminator`")
                    .help("add \"x-discriminator\" naming the property whose `const` tells the variants \
                           apart (A2A v0.3: \"kind\"); a2a-codegen never guesses a variant by trying each \
                           branch in turn, as an untagged union does (it silently takes the first branch that fits)");
                None
            }
            Some(Value::String(t)) if !t.is_empty() => Some(t.clone()),
            Some(_) => {
                let at = pointer_push(pointer, "x-discriminator");
                self.error(
                    &at,
                    "`x-discriminator` must be the name of a property, such as \"kind\"",
                );
                None
            }
        };
        let at = pointer_push(pointer, "oneOf");
        let Some(branches) = obj
            .get("oneOf")
            .and_then(Value::as_array)
            .filter(|b| !b.is_empty())
        else {
            self.error(&at, "a tagged union needs `oneOf`: a non-empty array of `$ref`s")
                .help("list the variants: \"oneOf\": [{\"$ref\": \"#/$defs/A\"}, {\"$ref\": \"#/$defs/B\"}]");
            return None;
        };
        let mut variants: Vec<TaggedVariant> = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let b_at = pointer_push(&at, &i.to_string());
            let Some((b, target)) = branch
                .as_object()
                .and_then(|b| b.get("$ref").map(|t| (b, t)))
            else {
                self.error(&b_at, "a branch of a tagged union must be a `$ref`")
                    .help(
                        "move the branch's schema to $defs and write {\"$ref\": \"#/$defs/Name\"}",
                    );
                continue;
            };
            self.check_keywords(b, &b_at, &["$ref"]);
            let Some(TypeRef::Named(name)) = self.resolve_ref(target, &pointer_push(&b_at, "$ref"))
            else {
                continue;
            };
            let Some(tag) = &tag else { continue };
            let Some(value) = self.tag_value(&name, tag, &b_at) else {
                continue;
            };
            if let Some(other) = variants.iter().find(|v| v.value == value) {
                self.error(
                    &b_at,
                    format!(
                        "the tag value \"{value}\" of `{name}` is also the one of `{}` (branch {})",
                        other.ty, other.pointer
                    ),
                )
                .help(format!("each variant must pin `{tag}` to its own value"));
                continue;
            }
            variants.push(TaggedVariant {
                variant: naming::pascal_case(&value),
                value,
                ty: name,
                pointer: b_at,
            });
        }
        Some(TaggedUnion {
            tag: tag?,
            variants,
        })
    }

    /// The string a tagged union's branch target pins its tag property to, or a diagnostic.
    fn tag_value(&mut self, name: &str, tag: &str, b_at: &str) -> Option<String> {
        let container = self
            .ref_prefix
            .trim_start_matches('#')
            .trim_end_matches('/');
        let target_at = pointer_push(container, name);
        let def = self.defs.get(name).and_then(Value::as_object);
        let props = def
            .filter(|d| {
                d.get("type").and_then(Value::as_str) == Some("object")
                    && !d.contains_key("x-discriminator")
                    && !is_ref_union(d)
            })
            .and_then(|d| d.get("properties"))
            .and_then(Value::as_object);
        let Some(props) = props else {
            self.error(
                b_at,
                format!("`{name}` is not an object type, so it cannot carry the tag `{tag}`"),
            )
            .help(format!(
                "a tagged union's branches must be object definitions with \"properties\" (see {target_at})"
            ));
            return None;
        };
        let prop_at = pointer_push(&pointer_push(&target_at, "properties"), tag);
        let Some(prop) = props.get(tag) else {
            self.error(b_at, format!("`{name}` has no property `{tag}`, the union's tag"))
                .help(format!(
                    "add \"{tag}\": {{\"const\": \"<value>\"}} to {target_at}/properties and list it in `required`"
                ));
            return None;
        };
        let value = match prop.get("const") {
            Some(Value::String(v)) if !v.is_empty() => v.clone(),
            _ => {
                self.error(
                    b_at,
                    format!("`{name}.{tag}` does not pin a string with `const`"),
                )
                .help(format!(
                    "the tag names the variant: write {{\"const\": \"<value>\"}} (a non-empty string) at {prop_at}"
                ));
                return None;
            }
        };
        let required = def
            .and_then(|d| d.get("required"))
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|r| r.as_str() == Some(tag)));
        if !required {
            self.error(b_at, format!("`{name}.{tag}` is not listed in `required`"))
                .help(format!(
                    "the tag decides the variant, so every variant carries it: add \"{tag}\" to {target_at}/required"
                ));
            return None;
        }
        Some(value)
    }

    /// The property names of a `oneOf: [{"required": ["a"]}, {"required": ["b"]}]` group.
    fn oneof_members(
        &mut self,
        obj: &Map<String, Value>,
        props: &Map<String, Value>,
        required: &[String],
        pointer: &str,
    ) -> Vec<String> {
        let at = pointer_push(pointer, "oneOf");
        let Some(branches) = obj.get("oneOf") else {
            return Vec::new();
        };
        let help = "a2a-codegen reads `oneOf` only as the ProtoJSON oneof pattern: \
                    [{\"required\": [\"a\"]}, {\"required\": [\"b\"]}], each naming one property";
        let Some(branches) = branches.as_array().filter(|b| !b.is_empty()) else {
            self.error(&at, "`oneOf` must be a non-empty array")
                .help(help);
            return Vec::new();
        };
        let mut members = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let b_at = pointer_push(&at, &i.to_string());
            let names = branch
                .as_object()
                .filter(|b| b.len() == 1)
                .and_then(|b| b.get("required"))
                .and_then(Value::as_array)
                .filter(|r| r.len() == 1)
                .and_then(|r| r[0].as_str());
            let Some(member) = names else {
                self.error(&b_at, "unsupported `oneOf` branch").help(help);
                continue;
            };
            if !props.contains_key(member) {
                self.error(&b_at, format!("oneOf member `{member}` is not a property"))
                    .help("add it to `properties`");
            } else if required.iter().any(|r| r == member) {
                self.error(
                    &b_at,
                    format!("oneOf member `{member}` is also listed in `required`"),
                )
                .help("a oneof member is present only when chosen; remove it from `required`");
            } else if members.iter().any(|m| m == member) {
                self.error(&b_at, format!("oneOf member `{member}` is listed twice"));
            } else {
                members.push(member.to_string());
            }
        }
        members
    }

    fn string_list(&mut self, obj: &Map<String, Value>, key: &str, pointer: &str) -> Vec<String> {
        let Some(value) = obj.get(key) else {
            return Vec::new();
        };
        let at = pointer_push(pointer, key);
        match value.as_array().and_then(|a| {
            a.iter()
                .map(|v| v.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()
        }) {
            Some(list) => list,
            None => {
                self.error(&at, format!("`{key}` must be an array of property names"));
                Vec::new()
            }
        }
    }

    fn literal(&mut self, value: &Value, pointer: &str) -> Option<Literal> {
        Some(match value {
            Value::String(s) => Literal::String(s.clone()),
            Value::Bool(b) => Literal::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Literal::Integer(i),
                None => Literal::Number(n.as_f64().unwrap_or_default()),
            },
            _ => {
                self.error(pointer, format!("unsupported literal {value}"))
                    .help("use a string, number or boolean");
                return None;
            }
        })
    }

    fn default_literal(&mut self, ty: &TypeRef, value: &Value, pointer: &str) -> Option<Literal> {
        let lit = self.literal(value, pointer)?;
        let fits = match (ty, &lit) {
            (TypeRef::String, Literal::String(_)) | (TypeRef::Bool, Literal::Bool(_)) => true,
            (TypeRef::Int32, Literal::Integer(i)) => i32::try_from(*i).is_ok(),
            (TypeRef::Integer | TypeRef::Int64, Literal::Integer(_)) => true,
            (TypeRef::UInt64, Literal::Integer(i)) => *i >= 0,
            (TypeRef::Number, Literal::Integer(_) | Literal::Number(_)) => true,
            _ => false,
        };
        if !fits {
            self.error(pointer, format!("`default` {value} does not fit the property's type"))
                .help("defaults are supported on string, boolean, integer and number properties, with a value of that type");
            return None;
        }
        Some(lit)
    }

    /// A 64-bit integer, the one type array the dialect has: `{"type": ["integer", "string"],
    /// "format": "int64"}` (or `"uint64"`), the two JSON types ProtoJSON uses for it (written as a
    /// string, read from either). Any other type array is an error.
    fn wide_integer(
        &mut self,
        obj: &Map<String, Value>,
        types: &[Value],
        pointer: &str,
    ) -> Option<TypeRef> {
        let type_at = pointer_push(pointer, "type");
        let mut names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
        names.sort_unstable();
        if names.len() != types.len() || names != ["integer", "string"] {
            self.error(
                &type_at,
                "type arrays (nullable or union types) are not supported, except \
                 [\"integer\", \"string\"] for a 64-bit integer",
            )
            .help(
                "use one type (absent members are already `Option` unless required); a 64-bit \
                 integer is {\"type\": [\"integer\", \"string\"], \"format\": \"int64\"} (or \"uint64\")",
            );
            return None;
        }
        self.check_keywords(obj, pointer, &["type", "format", "default"]);
        match obj.get("format").and_then(Value::as_str) {
            Some("int64") => Some(TypeRef::Int64),
            Some("uint64") => Some(TypeRef::UInt64),
            _ => {
                let at = if obj.contains_key("format") {
                    pointer_push(pointer, "format")
                } else {
                    type_at
                };
                self.error(
                    &at,
                    "`type: [\"integer\", \"string\"]` needs `format` \"int64\" or \"uint64\"",
                )
                .help(
                    "say which 64-bit integer it is: \"format\": \"int64\" (signed) or \"uint64\"",
                );
                None
            }
        }
    }

    /// The type of a schema used in a position that holds a value (property, item, map value).
    fn type_ref(&mut self, schema: &Value, pointer: &str) -> Option<TypeRef> {
        let obj = match schema {
            Value::Bool(true) => return Some(TypeRef::Any),
            Value::Object(obj) => obj,
            Value::Bool(false) => {
                self.error(pointer, "the `false` schema matches nothing")
                    .help("remove the property");
                return None;
            }
            _ => {
                self.error(pointer, format!("expected a schema object, found {schema}"));
                return None;
            }
        };
        if let Some(target) = obj.get("$ref") {
            self.check_keywords(obj, pointer, &["$ref", "default"]);
            return self.resolve_ref(target, &pointer_push(pointer, "$ref"));
        }
        if obj.contains_key("enum") {
            self.error(pointer, "inline `enum` is not supported here")
                .help("move the enum to $defs and refer to it with $ref");
            return None;
        }
        if obj.contains_key("const") {
            self.error(
                pointer,
                "`const` is supported only directly on an object's property",
            );
            return None;
        }
        let ty = match obj.get("type") {
            None => {
                self.check_keywords(obj, pointer, &["default"]);
                return Some(TypeRef::Any);
            }
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(types)) => return self.wide_integer(obj, types, pointer),
            Some(other) => {
                self.error(
                    &pointer_push(pointer, "type"),
                    format!("`type` must be a string, found {other}"),
                );
                return None;
            }
        };
        let format = obj.get("format").and_then(Value::as_str);
        let format_at = pointer_push(pointer, "format");
        if obj.contains_key("format") && format.is_none() {
            self.error(&format_at, "`format` must be a string");
            return None;
        }
        match ty {
            "string" | "integer" | "number" => self.scalar_type(obj, ty, format, pointer),
            "boolean" => {
                self.check_keywords(obj, pointer, &["type", "default"]);
                Some(TypeRef::Bool)
            }
            "array" => self.array_type(obj, pointer),
            "object" => self.object_value_type(obj, pointer),
            "null" => {
                self.error(
                    &pointer_push(pointer, "type"),
                    "the `null` type is not supported",
                )
                .help(
                    "absence is already modelled: a property that is not required is an `Option`",
                );
                None
            }
            other => {
                self.error(
                    &pointer_push(pointer, "type"),
                    format!("unknown type `{other}`"),
                )
                .help("one of object, array, string, integer, number, boolean");
                None
            }
        }
    }

    /// A string, integer or number schema, by its `format`.
    fn scalar_type(
        &mut self,
        obj: &Map<String, Value>,
        ty: &str,
        format: Option<&str>,
        pointer: &str,
    ) -> Option<TypeRef> {
        let format_at = pointer_push(pointer, "format");
        let bad_format = |lw: &mut Self, allowed: &str| {
            lw.error(
                &format_at,
                format!(
                    "unsupported format `{}` for type `{ty}`",
                    format.unwrap_or_default()
                ),
            )
            .help(format!("supported here: {allowed}"));
            None
        };
        match ty {
            "string" => {
                self.check_keywords(obj, pointer, &["type", "format", "default"]);
                match format {
                    None => Some(TypeRef::String),
                    Some("byte") => Some(TypeRef::Bytes),
                    Some("date-time") => Some(TypeRef::Timestamp),
                    Some(_) => bad_format(self, "byte (base64), date-time (RFC 3339)"),
                }
            }
            "integer" => {
                self.check_keywords(obj, pointer, &["type", "format", "default"]);
                match format {
                    None => Some(TypeRef::Integer),
                    Some("int32") => Some(TypeRef::Int32),
                    // ProtoJSON writes 64-bit integers as strings, so the schema must admit both.
                    Some(f @ ("int64" | "uint64")) => {
                        self.error(
                            &pointer_push(pointer, "type"),
                            format!("`format: {f}` needs `\"type\": [\"integer\", \"string\"]`: ProtoJSON writes a 64-bit integer as a decimal string"),
                        )
                        .help(format!(
                            "write {{\"type\": [\"integer\", \"string\"], \"format\": \"{f}\"}} (read from a number or a string, written as a string)"
                        ));
                        None
                    }
                    Some(_) => bad_format(
                        self,
                        "int32; int64 and uint64 are `\"type\": [\"integer\", \"string\"]`",
                    ),
                }
            }
            // "number": type_ref passes only string, integer and number.
            _ => {
                self.check_keywords(obj, pointer, &["type", "format", "default"]);
                match format {
                    None | Some("double") | Some("float") => Some(TypeRef::Number),
                    Some(_) => bad_format(self, "double, float"),
                }
            }
        }
    }

    /// An array schema: a list of its `items`.
    fn array_type(&mut self, obj: &Map<String, Value>, pointer: &str) -> Option<TypeRef> {
        self.check_keywords(obj, pointer, &["type", "items"]);
        let Some(items) = obj.get("items") else {
            self.error(pointer, "an array needs `items`")
                .help("say what the list holds, e.g. \"items\": {\"type\": \"string\"}");
            return None;
        };
        Some(TypeRef::List(Box::new(
            self.type_ref(items, &pointer_push(pointer, "items"))?,
        )))
    }

    /// An object in a value position: a JSON object, or a map of its `additionalProperties`.
    fn object_value_type(&mut self, obj: &Map<String, Value>, pointer: &str) -> Option<TypeRef> {
        self.check_keywords(obj, pointer, &["type", "additionalProperties"]);
        if obj.contains_key("properties") || obj.contains_key("oneOf") {
            self.error(pointer, "inline object types are not supported here")
                .help("move the object to $defs and refer to it with $ref");
            return None;
        }
        match obj.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Some(TypeRef::JsonObject),
            Some(Value::Object(o)) if o.is_empty() => Some(TypeRef::JsonObject),
            Some(Value::Bool(false)) => {
                self.error(
                    &pointer_push(pointer, "additionalProperties"),
                    "an object that allows no members at all",
                )
                .help("use `\"properties\": {}` in a named $def for an empty message");
                None
            }
            Some(value) => {
                let value = self.type_ref(value, &pointer_push(pointer, "additionalProperties"))?;
                Some(TypeRef::Map(Box::new(value)))
            }
        }
    }

    fn resolve_ref(&mut self, target: &Value, pointer: &str) -> Option<TypeRef> {
        let Some(target) = target.as_str() else {
            self.error(pointer, "`$ref` must be a string");
            return None;
        };
        let name = target
            .strip_prefix(self.ref_prefix)
            .filter(|n| !n.contains('/'));
        match name {
            Some(name) if self.defs.contains_key(name) => Some(TypeRef::Named(name.to_string())),
            Some(name) => {
                let container = self.ref_prefix.trim_end_matches('/');
                self.error(
                    pointer,
                    format!("`$ref` points at `{name}`, which is not defined"),
                )
                .help(format!("define it under {container} or fix the name"));
                None
            }
            None => {
                let prefix = self.ref_prefix;
                self.error(pointer, format!("unsupported `$ref` target `{target}`"))
                    .help(format!(
                        "only local references of the form \"{prefix}Name\" are supported"
                    ));
                None
            }
        }
    }
}

/// The serde alias of a property whose Rust name differs from its JSON name.
fn alias(json_name: &str) -> Option<String> {
    Some(naming::snake_case(json_name)).filter(|s| s != json_name)
}
