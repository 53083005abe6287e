//! Fidelity guard: `spec/v1` must say exactly what the official A2A v1.0.1 inputs say.
//!
//! `spec/v1/a2a.schema.json`, `errors.toml` and `methods.toml` are written by hand. These tests hold
//! them against the normative proto, the published (lossy) JSON bundle and the error-code tables,
//! all read from the `shared/` reference folder through [`a2a_tests::shared_path`]. When that folder
//! is absent the shared-dependent tests print a skip and return (CI makes that a failure instead).
//!
//! The proto is read by a real protobuf compiler: a2a-codegen's proto route (protox's descriptors,
//! lowered to the generator's IR). [`the_proto_lowers_to_the_model_of_spec_v1`] compares that
//! model with the one of `spec/v1`, item by item; what the IR does not keep (the order of the
//! `$defs`, the schema's own spelling) is checked on its own.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

use a2a_codegen::ir::{Model, Presence, TypeDef, TypeKind};
use a2a_codegen::Config;
use a2a_tests::{shared_path, workspace_root};
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------------
// Loading

fn spec_file(name: &str) -> PathBuf {
    workspace_root().join("spec/v1").join(name)
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn our_schema() -> Value {
    let path = spec_file("a2a.schema.json");
    serde_json::from_str(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn defs(schema: &Value) -> &Map<String, Value> {
    schema["$defs"]
        .as_object()
        .expect("spec/v1/a2a.schema.json has a `$defs` object")
}

fn toml_table(name: &str) -> toml::Table {
    let path = spec_file(name);
    read(&path)
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The array of tables `key` (`[[key]]`) of a TOML document.
fn toml_rows<'a>(doc: &'a toml::Table, key: &str) -> Vec<&'a toml::Table> {
    doc.get(key)
        .and_then(|v| v.as_array())
        .unwrap_or_else(|| panic!("no [[{key}]] entries"))
        .iter()
        .map(|row| row.as_table().expect("[[...]] entries are tables"))
        .collect()
}

fn toml_str<'a>(row: &'a toml::Table, key: &str) -> &'a str {
    row.get(key)
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("row {row:?} lacks string key `{key}`"))
}

fn toml_int(row: &toml::Table, key: &str) -> i64 {
    row.get(key)
        .and_then(|v| v.as_integer())
        .unwrap_or_else(|| panic!("row {row:?} lacks integer key `{key}`"))
}

/// The reference file `rel` inside `shared/`, read to a string; `None` when the folder is absent.
fn shared_text(what: &str, rel: &str) -> Option<String> {
    shared_path(what, rel).map(|p| read(&p))
}

/// Where the official proto is, inside `shared/`.
const PROTO: &str = "a2a-spec/v1.0/a2a.proto";

/// The model of `spec/v1` as the generator reads it.
fn spec_model() -> Model {
    Config::new(workspace_root().join("spec/v1"))
        .source_label("spec/v1")
        .model()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The model of the official proto, with spec/v1's error and method tables (the proto has no
/// error table; `requires` and the method docs are ours): protox compiles it, a2a-codegen lowers
/// the descriptors. `None` (after the printed skip) when `shared/` is absent.
fn proto_model(what: &str) -> Option<Model> {
    let proto = shared_path(what, PROTO)?;
    let model = Config::new(workspace_root().join("spec/v1"))
        .source_label("spec/v1")
        .schema_file(proto)
        .model()
        .unwrap_or_else(|e| panic!("the official proto does not lower:\n{e}"));
    Some(model)
}

/// The official v1.0.1 bundle's `definitions`, keyed by proto name (the spaced title minus spaces).
fn load_bundle(what: &str) -> Option<BTreeMap<String, Value>> {
    let text = shared_text(what, "a2a-spec/v1.0/a2a.json")?;
    let bundle: Value = serde_json::from_str(&text).expect("bundle is JSON");
    let definitions = bundle["definitions"]
        .as_object()
        .expect("bundle has `definitions`");
    Some(
        definitions
            .iter()
            .map(|(title, def)| (title.replace(' ', ""), def.clone()))
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// JSON types of schema nodes, comparable between the bundle and our schema

#[derive(Debug, Clone, PartialEq, Eq)]
enum JType {
    String,
    Integer,
    Boolean,
    /// Any JSON value (google.protobuf.Value).
    Any,
    /// An object described by the named definition (a message, `Struct`, `Empty`).
    Object(String),
    Array(Box<JType>),
    Map(Box<JType>),
}

impl fmt::Display for JType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JType::String => write!(f, "string"),
            JType::Integer => write!(f, "integer"),
            JType::Boolean => write!(f, "boolean"),
            JType::Any => write!(f, "any"),
            JType::Object(name) => write!(f, "object {name}"),
            JType::Array(item) => write!(f, "array of {item}"),
            JType::Map(value) => write!(f, "map to {value}"),
        }
    }
}

/// Resolves `$ref` strings to (definition name, definition) in one schema document.
struct Resolver<'a> {
    defs: BTreeMap<&'a str, &'a Value>,
    /// `true` for the bundle's file-name refs, `false` for our `#/$defs/Name` refs.
    file_refs: bool,
}

impl<'a> Resolver<'a> {
    fn ours(defs: &'a Map<String, Value>) -> Self {
        let defs = defs.iter().map(|(k, v)| (k.as_str(), v)).collect();
        Resolver {
            defs,
            file_refs: false,
        }
    }

    fn bundle(defs: &'a BTreeMap<String, Value>) -> Self {
        let defs = defs.iter().map(|(k, v)| (k.as_str(), v)).collect();
        Resolver {
            defs,
            file_refs: true,
        }
    }

    fn resolve(&self, reference: &str) -> Option<(&'a str, &'a Value)> {
        let name = if self.file_refs {
            // e.g. `lf.a2a.v1.Message.jsonschema.json`, `google.protobuf.Struct.jsonschema.json`
            let stem = reference.strip_suffix(".jsonschema.json")?;
            stem.strip_prefix("lf.a2a.v1.")
                .or_else(|| stem.strip_prefix("google.protobuf."))?
        } else {
            reference.strip_prefix("#/$defs/")?
        };
        self.defs.get_key_value(name).map(|(k, v)| (*k, *v))
    }
}

/// The JSON type a schema node accepts. Refs are resolved through `resolver`; an int32 `anyOf`
/// (integer | numeric string) is an integer and an inlined enum `anyOf` is a string.
fn json_type(schema: &Value, resolver: &Resolver<'_>) -> Result<JType, String> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let (name, target) = resolver
            .resolve(reference)
            .ok_or_else(|| format!("unresolvable $ref {reference:?}"))?;
        return match target.get("type").and_then(Value::as_str) {
            Some("object") => Ok(JType::Object(name.to_string())),
            _ => json_type(target, resolver),
        };
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let is_enum = branches.iter().any(|b| b.get("enum").is_some());
        let numeric_string = branches.iter().any(|b| {
            b.get("type").and_then(Value::as_str) == Some("string")
                && b.get("pattern").and_then(Value::as_str) == Some("^-?[0-9]+$")
        });
        let integer = branches
            .iter()
            .any(|b| b.get("type").and_then(Value::as_str) == Some("integer"));
        return match (is_enum, integer && numeric_string) {
            (true, _) => Ok(JType::String),
            (false, true) => Ok(JType::Integer),
            _ => Err(format!("unrecognized anyOf {schema}")),
        };
    }
    match schema.get("type").and_then(Value::as_str) {
        None => Ok(JType::Any),
        Some("string") => Ok(JType::String),
        Some("integer") => Ok(JType::Integer),
        Some("boolean") => Ok(JType::Boolean),
        Some("array") => Ok(JType::Array(Box::new(json_type(
            &schema["items"],
            resolver,
        )?))),
        Some("object") => match schema.get("additionalProperties") {
            Some(value @ Value::Object(_)) => Ok(JType::Map(Box::new(json_type(value, resolver)?))),
            _ => Err(format!("inline object schema {schema}")),
        },
        Some(other) => Err(format!("unsupported type {other:?}")),
    }
}

/// The `required` list of one of our definitions (empty when absent).
fn required_of(def: &Value) -> BTreeSet<String> {
    def.get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .map(|n| n.as_str().expect("required names").to_string())
                .collect()
        })
        .unwrap_or_default()
}

const WELL_KNOWN: [&str; 4] = ["Struct", "Value", "Timestamp", "Empty"];

// ---------------------------------------------------------------------------------------------
// Key order (serde_json without `preserve_order` sorts keys, so read the order separately)

enum Ordered {
    /// A scalar or an array (their contents play no part in key order checks).
    Leaf,
    Object(Vec<(String, Ordered)>),
}

impl Ordered {
    fn get(&self, key: &str) -> Option<&Ordered> {
        match self {
            Ordered::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Ordered::Object(entries) => entries.iter().map(|(k, _)| k.as_str()).collect(),
            _ => vec![],
        }
    }
}

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor;
        impl<'de> serde::de::Visitor<'de> for OrderedVisitor {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_str<E>(self, _: &str) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered::Leaf)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Ordered, A::Error> {
                while seq.next_element::<Ordered>()?.is_some() {}
                Ok(Ordered::Leaf)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Ordered>()? {
                    entries.push(entry);
                }
                Ok(Ordered::Object(entries))
            }
        }
        deserializer.deserialize_any(OrderedVisitor)
    }
}

fn fail_if_any(problems: &[String], what: &str) {
    assert!(
        problems.is_empty(),
        "{} {what}:\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// Tests against the official bundle

#[test]
fn every_bundle_definition_exists_in_spec_with_same_properties_and_json_types() {
    let what = "every_bundle_definition_exists_in_spec_with_same_properties_and_json_types";
    let Some(bundle) = load_bundle(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    let ours_resolve = Resolver::ours(ours);
    let bundle_resolve = Resolver::bundle(&bundle);
    let mut problems = Vec::new();
    for (name, bundle_def) in &bundle {
        let Some(our_def) = ours.get(name) else {
            problems.push(format!("{name}: bundle definition has no $def in spec/v1"));
            continue;
        };
        let our_props = our_def.get("properties").and_then(Value::as_object);
        let Some(bundle_props) = bundle_def.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let Some(our_props) = our_props else {
            problems.push(format!("{name}: bundle has properties, spec/v1 has none"));
            continue;
        };
        for (prop, bundle_schema) in bundle_props {
            let Some(our_schema) = our_props.get(prop) else {
                problems.push(format!("{name}.{prop}: missing from spec/v1"));
                continue;
            };
            let theirs = json_type(bundle_schema, &bundle_resolve);
            let mine = json_type(our_schema, &ours_resolve);
            match (theirs, mine) {
                (Ok(theirs), Ok(mine)) if theirs == mine => {}
                (Ok(theirs), Ok(mine)) => {
                    problems.push(format!("{name}.{prop}: bundle {theirs}, spec/v1 {mine}"))
                }
                (theirs, mine) => problems.push(format!(
                    "{name}.{prop}: bundle {theirs:?}, spec/v1 {mine:?}"
                )),
            }
        }
        for prop in our_props.keys() {
            if !bundle_props.contains_key(prop) {
                problems.push(format!("{name}.{prop}: in spec/v1 but not in the bundle"));
            }
        }
    }
    fail_if_any(
        &problems,
        "disagreements between spec/v1 and the official v1.0.1 bundle",
    );
}

#[test]
fn snake_case_aliases_match_bundle_pattern_properties() {
    let what = "snake_case_aliases_match_bundle_pattern_properties";
    let Some(bundle) = load_bundle(what) else {
        return;
    };
    // The aliases the generator derives for spec/v1 (the snake_case of each camelCase name).
    let model = spec_model();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, bundle_def) in &bundle {
        let mut aliases = BTreeSet::new();
        if let Some(patterns) = bundle_def
            .get("patternProperties")
            .and_then(Value::as_object)
        {
            for key in patterns.keys() {
                match key.strip_prefix("^(").and_then(|k| k.strip_suffix(")$")) {
                    Some(alias) if !alias.is_empty() => {
                        aliases.insert(alias.to_string());
                    }
                    _ => problems.push(format!("{name}: pattern {key:?} is not ^(snake_name)$")),
                }
            }
        }
        let Some(TypeKind::Struct(s)) = model.types.get(name).map(|d| &d.kind) else {
            continue;
        };
        let members = s.oneof.iter().flat_map(|o| &o.group.members);
        let names = s
            .fields
            .iter()
            .map(|f| (&f.json_name, &f.alias))
            .chain(members.map(|m| (&m.json_name, &m.alias)));
        let mut used = BTreeSet::new();
        for (camel, alias) in names {
            let Some(snake) = alias else {
                continue;
            };
            checked += 1;
            if aliases.contains(snake) {
                used.insert(snake.clone());
            } else {
                problems.push(format!(
                    "{name}.{camel}: derived alias {snake:?} not in the bundle"
                ));
            }
        }
        for alias in aliases.difference(&used) {
            problems.push(format!(
                "{name}: bundle alias {alias:?} matches no spec/v1 property"
            ));
        }
    }
    assert!(
        checked > 0,
        "no camelCase property differs from its snake_case alias"
    );
    fail_if_any(&problems, "snake_case alias disagreements");
}

// ---------------------------------------------------------------------------------------------
// Tests against the normative proto

/// The model without what the two inputs say in their own words: descriptions (the proto's
/// comments, our schema's own text) and locations (JSON pointers, proto lines).
fn without_docs(model: &Model) -> Model {
    let mut model = model.clone();
    for def in model.types.values_mut() {
        def.doc = None;
        def.pointer.clear();
        let group = match &mut def.kind {
            TypeKind::Struct(s) => {
                for field in &mut s.fields {
                    field.doc = None;
                    field.pointer.clear();
                }
                s.oneof.as_mut().map(|o| &mut o.group)
            }
            TypeKind::OneOf(group) => Some(group),
            TypeKind::Enum(_) | TypeKind::Alias(_) | TypeKind::Tagged(_) => None,
            // The IR is `#[non_exhaustive]`; a new kind with docs of its own would make the two
            // models differ below, so it cannot pass unnoticed.
            _ => None,
        };
        for member in group.into_iter().flat_map(|g| &mut g.members) {
            member.doc = None;
        }
    }
    model
}

/// This one comparison holds every fact the proto gives against spec/v1 (it replaces a
/// hand-written line reader of the proto):
///
/// - every message and enum has a definition, and no other definition exists but the four
///   `google.protobuf` types the proto uses (the type maps are equal);
/// - every field is a property with the same wire name, snake_case alias (the proto field name),
///   type (`format: int32` for int32, `format: byte` for bytes, lists, maps, `$ref`s),
///   `deprecated` mark and presence: `required` lists exactly the REQUIRED fields;
/// - properties follow the proto's declaration order (field lists are compared in order);
/// - every property's `x-field-number` is the proto field's number (oneof members too);
/// - enum values are the proto's names in number order, numbered from 0 without gaps (a value's
///   index in our `enum` list is its number);
/// - the five oneofs: `x-oneof-name` is the proto oneof's name, `oneOf` lists exactly its members
///   in order, and none of them is required;
/// - `methods.toml` lists the rpcs in service order with their request, response, streaming and
///   `google.api.http` rules.
#[test]
fn the_proto_lowers_to_the_model_of_spec_v1() {
    let Some(proto) = proto_model("the_proto_lowers_to_the_model_of_spec_v1") else {
        return;
    };
    let ours = without_docs(&spec_model());
    let theirs = without_docs(&proto);
    let mut report = String::new();
    for name in ours.types.keys().chain(theirs.types.keys()) {
        match (ours.types.get(name), theirs.types.get(name)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => report.push_str(&format!(
                "\n== {name}:\n   spec/v1: {a:?}\n   proto:   {b:?}\n"
            )),
            (Some(_), None) => report.push_str(&format!("\n== {name}: not in the proto\n")),
            (None, _) => report.push_str(&format!("\n== {name}: missing from spec/v1\n")),
        }
    }
    for (a, b) in ours.methods.iter().zip(&theirs.methods) {
        if a != b {
            report.push_str(&format!(
                "\n== method {}:\n   methods.toml: {a:?}\n   proto:        {b:?}\n",
                a.name
            ));
        }
    }
    let names = |m: &Model| m.methods.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
    if names(&ours) != names(&theirs) {
        report.push_str(&format!(
            "\n== methods.toml rows {:?}, proto rpcs {:?}\n",
            names(&ours),
            names(&theirs)
        ));
    }
    assert!(report.is_empty(), "spec/v1 is not the proto:{report}");
    assert_eq!(ours, theirs);

    // The sizes of v1.0.1, so that a smaller input cannot pass unnoticed.
    let messages = |kind: fn(&TypeDef) -> bool| proto.types.values().filter(|d| kind(d)).count();
    assert_eq!(
        proto.types.len(),
        50,
        "44 messages, 2 enums, 4 well-known types"
    );
    assert_eq!(messages(|d| matches!(d.kind, TypeKind::Enum(_))), 2);
    let required: usize = proto
        .types
        .values()
        .map(|d| match &d.kind {
            TypeKind::Struct(s) => s
                .fields
                .iter()
                .filter(|f| f.presence == Presence::Required)
                .count(),
            _ => 0,
        })
        .sum();
    assert_eq!(required, 61, "the v1.0.1 proto marks 61 fields REQUIRED");
    let oneofs = messages(|d| match &d.kind {
        TypeKind::Struct(s) => s.oneof.is_some(),
        TypeKind::OneOf(_) => true,
        _ => false,
    });
    assert_eq!(oneofs, 5, "the v1.0.1 proto has five oneofs");
    assert_eq!(proto.methods.len(), 11, "A2A v1 has eleven methods");
    assert!(proto.methods.iter().all(|m| m.http.len() == 2));
}

/// The order of `$defs` (which the model does not keep: its types are a sorted map): the proto's
/// declaration order, messages and enums interleaved as in the file, then the well-known types.
#[test]
fn defs_follow_proto_declaration_order() {
    let Some(proto) = proto_model("defs_follow_proto_declaration_order") else {
        return;
    };
    // The proto route gives each declaration's position as `line L, column C`.
    let line = |def: &TypeDef| -> u32 {
        def.pointer
            .strip_prefix("line ")
            .and_then(|rest| rest.split(',').next())
            .and_then(|l| l.parse().ok())
            .unwrap_or_else(|| panic!("{}: no line in {:?}", def.name, def.pointer))
    };
    let mut declared: Vec<&TypeDef> = proto
        .types
        .values()
        .filter(|d| !WELL_KNOWN.contains(&d.name.as_str()))
        .collect();
    declared.sort_by_key(|d| line(d));
    let mut expected: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
    expected.extend(WELL_KNOWN);
    let path = spec_file("a2a.schema.json");
    let ordered: Ordered = serde_json::from_str(&read(&path)).expect("schema is JSON");
    let defs = ordered.get("$defs").expect("$defs");
    assert_eq!(
        defs.keys(),
        expected,
        "$defs must follow proto declaration order, then {WELL_KNOWN:?}"
    );
    // Properties in declaration order are part of the model comparison; here the file's own
    // key order is checked to be the model's field order.
    let model = spec_model();
    let mut problems = Vec::new();
    for (name, def) in &model.types {
        let TypeKind::Struct(s) = &def.kind else {
            continue;
        };
        let mut fields: Vec<&str> = s.fields.iter().map(|f| f.json_name.as_str()).collect();
        let members = s.oneof.iter().flat_map(|o| &o.group.members);
        let members: Vec<&str> = members.map(|m| m.json_name.as_str()).collect();
        let got = defs
            .get(name)
            .and_then(|d| d.get("properties"))
            .map(Ordered::keys);
        let got: Vec<&str> = got
            .unwrap_or_default()
            .into_iter()
            .filter(|k| !members.contains(k))
            .collect();
        fields.retain(|f| !members.contains(f));
        if got != fields {
            problems.push(format!("{name}: properties {got:?}, model {fields:?}"));
        }
    }
    fail_if_any(&problems, "property order disagreements");
}

// ---------------------------------------------------------------------------------------------
// Conventions the generator relies on (no reference folder needed)

#[test]
fn spec_schema_follows_generator_conventions() {
    let schema = our_schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(schema["title"].is_string() && schema["description"].is_string());
    let ours = defs(&schema);
    let mut problems = Vec::new();
    fn walk(node: &Value, at: &str, ours: &Map<String, Value>, problems: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    let here = format!("{at}/{key}");
                    match (key.as_str(), value) {
                        ("$ref", Value::String(r)) => {
                            let known = r
                                .strip_prefix("#/$defs/")
                                .is_some_and(|n| ours.contains_key(n));
                            if !known {
                                problems.push(format!("{here}: {r:?} is not a local $def"));
                            }
                        }
                        ("additionalProperties", Value::Bool(false)) => {
                            problems.push(format!("{here}: closed objects break §5.7"))
                        }
                        ("default" | "title", _) if !at.ends_with("/properties") => {
                            problems.push(format!("{here}: not used in spec/v1"))
                        }
                        _ => {}
                    }
                    walk(value, &here, ours, problems);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{at}/{i}"), ours, problems);
                }
            }
            _ => {}
        }
    }
    walk(&schema["$defs"], "#/$defs", ours, &mut problems);
    for (name, def) in ours {
        if def
            .get("description")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            problems.push(format!("{name}: no description"));
        }
        if let Some(props) = def.get("properties").and_then(Value::as_object) {
            for (prop, schema) in props {
                if schema
                    .get("description")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    problems.push(format!("{name}.{prop}: no description"));
                }
                let first = prop.chars().next().unwrap_or('_');
                if !first.is_ascii_lowercase() || prop.contains('_') {
                    problems.push(format!("{name}.{prop}: not a lowerCamelCase JSON name"));
                }
            }
            for req in required_of(def) {
                if !props.contains_key(&req) {
                    problems.push(format!("{name}: required {req:?} is not a property"));
                }
            }
            if def.get("required").is_some() && required_of(def).is_empty() {
                problems.push(format!("{name}: an empty `required` is left out"));
            }
        }
    }
    fail_if_any(&problems, "convention breaches in spec/v1/a2a.schema.json");
    assert_eq!(ours["Struct"]["type"], "object");
    assert!(
        ours["Struct"].get("properties").is_none()
            && ours["Struct"].get("additionalProperties").is_none()
    );
    assert!(
        ours["Value"].get("type").is_none(),
        "Value accepts any JSON value"
    );
    assert_eq!(ours["Timestamp"]["format"], "date-time");
    assert_eq!(ours["Empty"]["properties"], serde_json::json!({}));
}

// ---------------------------------------------------------------------------------------------
// The method and error tables

#[test]
fn methods_and_errors_tables_are_consistent() {
    let schema = our_schema();
    let ours = defs(&schema);

    // methods.toml: internal consistency.
    let methods_doc = toml_table("methods.toml");
    let methods = toml_rows(&methods_doc, "method");
    let mut problems = Vec::new();
    let mut method_names = BTreeSet::new();
    for m in &methods {
        let name = toml_str(m, "name");
        if !method_names.insert(name) {
            problems.push(format!("method {name}: listed twice"));
        }
        for key in ["params", "result"] {
            let def = toml_str(m, key);
            if !ours.contains_key(def) {
                problems.push(format!("method {name}: {key} {def:?} is not a $def"));
            }
        }
        let streaming = m
            .get("streaming")
            .and_then(|v| v.as_bool())
            .expect("streaming is a bool");
        if streaming && toml_str(m, "result") != "StreamResponse" {
            problems.push(format!(
                "method {name}: streaming result must be StreamResponse"
            ));
        }
        if toml_str(m, "doc").is_empty() {
            problems.push(format!("method {name}: empty doc"));
        }
    }
    assert_eq!(methods.len(), 11, "A2A v1 has eleven methods");

    // errors.toml: internal consistency.
    let errors_doc = toml_table("errors.toml");
    let errors = toml_rows(&errors_doc, "error");
    assert_eq!(
        errors.len(),
        14,
        "9 A2A errors + 5 standard JSON-RPC errors"
    );
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (i, e) in errors.iter().enumerate() {
        let name = toml_str(e, "name");
        let code = toml_int(e, "code");
        let kind = toml_str(e, "kind");
        if !codes.insert(code) {
            problems.push(format!("error code {code}: listed twice"));
        }
        if !names.insert(name) {
            problems.push(format!("error {name}: listed twice"));
        }
        let expected_kind = if i < 9 { "a2a" } else { "jsonrpc" };
        if kind != expected_kind {
            problems.push(format!(
                "error {name}: kind {kind:?}, expected {expected_kind:?} (A2A rows first)"
            ));
        }
        if e.contains_key("reason") != (kind == "a2a") {
            problems.push(format!("error {name}: `reason` belongs on A2A rows only"));
        }
        let spec_name = toml_str(e, "spec_name");
        let stem = spec_name.strip_suffix("Error").unwrap_or(spec_name);
        if !stem.eq_ignore_ascii_case(name) || !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            problems.push(format!("error {name}: not {spec_name} without `Error`"));
        }
        for key in ["grpc", "message", "doc"] {
            if toml_str(e, key).is_empty() {
                problems.push(format!("error {name}: empty {key}"));
            }
        }
        let http = toml_int(e, "http");
        if !(400..600).contains(&http) {
            problems.push(format!("error {name}: http {http} is not an error status"));
        }
    }
    fail_if_any(&problems, "problems in methods.toml / errors.toml");

    // The rows against the proto's rpcs: the_proto_lowers_to_the_model_of_spec_v1.
    let what = "methods_and_errors_tables_are_consistent";

    // Against error-codes.json.
    let Some(text) = shared_text(what, "a2a-spec/error-codes.json") else {
        return;
    };
    let table: Value = serde_json::from_str(&text).expect("error-codes.json is JSON");
    let by_code: BTreeMap<i64, &toml::Table> =
        errors.iter().map(|e| (toml_int(e, "code"), *e)).collect();
    let v03_messages: BTreeMap<i64, Vec<&str>> = table["versions"]["v0.3.0"]["a2a_errors"]
        .as_array()
        .expect("v0.3.0 a2a_errors")
        .iter()
        .map(|e| {
            let msgs = ["typical_message_spec_8_2", "schema_default_message"];
            (
                e["jsonrpc_code"].as_i64().expect("code"),
                msgs.iter().filter_map(|k| e[*k].as_str()).collect(),
            )
        })
        .collect();
    let a2a_rows = table["versions"]["v1.0.1"]["a2a_errors"]
        .as_array()
        .expect("v1.0.1 a2a_errors");
    let mut expected_codes = BTreeSet::new();
    for official in a2a_rows {
        let code = official["jsonrpc_code"].as_i64().expect("jsonrpc_code");
        expected_codes.insert(code);
        let Some(row) = by_code.get(&code) else {
            problems.push(format!(
                "code {code}: v1.0.1 A2A error missing from errors.toml"
            ));
            continue;
        };
        let checks = [
            (
                "spec_name",
                official["name"].as_str(),
                row.get("spec_name").and_then(|v| v.as_str()),
            ),
            (
                "grpc",
                official["grpc_status"].as_str(),
                row.get("grpc").and_then(|v| v.as_str()),
            ),
            (
                "reason",
                official["error_info_reason"].as_str(),
                row.get("reason").and_then(|v| v.as_str()),
            ),
            (
                "kind",
                Some("a2a"),
                row.get("kind").and_then(|v| v.as_str()),
            ),
        ];
        for (key, want, got) in checks {
            if want != got {
                problems.push(format!(
                    "code {code}: {key} {got:?}, error-codes.json {want:?}"
                ));
            }
        }
        if official["http_status"].as_i64() != Some(toml_int(row, "http")) {
            problems.push(format!("code {code}: http differs from error-codes.json"));
        }
        if let Some(allowed) = v03_messages.get(&code) {
            let message = toml_str(row, "message");
            if !allowed.contains(&message) {
                problems.push(format!(
                    "code {code}: message {message:?} is none of {allowed:?}"
                ));
            }
        }
    }
    for official in table["jsonrpc_standard"]
        .as_array()
        .expect("jsonrpc_standard")
    {
        let code = official["code"].as_i64().expect("code");
        expected_codes.insert(code);
        let Some(row) = by_code.get(&code) else {
            problems.push(format!(
                "code {code}: standard JSON-RPC error missing from errors.toml"
            ));
            continue;
        };
        let want_message = official["v1_0_x"]["standard_message_spec_9_5"].as_str();
        let checks = [
            (
                "spec_name",
                official["name"].as_str(),
                row.get("spec_name").and_then(|v| v.as_str()),
            ),
            (
                "message",
                want_message,
                row.get("message").and_then(|v| v.as_str()),
            ),
            (
                "kind",
                Some("jsonrpc"),
                row.get("kind").and_then(|v| v.as_str()),
            ),
        ];
        for (key, want, got) in checks {
            if want != got {
                problems.push(format!(
                    "code {code}: {key} {got:?}, error-codes.json {want:?}"
                ));
            }
        }
    }
    assert_eq!(
        codes, expected_codes,
        "errors.toml codes must be exactly the official ones"
    );
    fail_if_any(
        &problems,
        "disagreements between errors.toml and error-codes.json",
    );
}
