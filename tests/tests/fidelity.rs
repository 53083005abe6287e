//! Fidelity guard: `spec/v1` must say exactly what the official A2A v1.0.1 inputs say.
//!
//! `spec/v1/a2a.schema.json`, `errors.toml` and `methods.toml` are written by hand. These tests hold
//! them against the normative proto, the published (lossy) JSON bundle and the error-code tables,
//! all read from the `shared/` reference folder through [`a2a_tests::shared_path`]. When that folder
//! is absent the shared-dependent tests print a skip and return (CI makes that a failure instead).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

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

fn load_proto(what: &str) -> Option<Proto> {
    shared_text(what, "a2a-spec/v1.0/a2a.proto").map(|text| Proto::parse(&text))
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
// Names

/// ProtoJSON's JSON name of a proto field: drop each `_` and upper-case the letter after it.
fn lower_camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper_next = false;
    for c in snake.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The snake_case alias the generator derives: `_` before each upper-case letter, lower-cased.
/// Digits stay attached to what precedes them (`oauth2MetadataUrl` -> `oauth2_metadata_url`).
fn camel_to_snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// A small line-based reader for the A2A proto (enough for its flat layout; tracks brace nesting)

#[derive(Debug)]
struct ProtoField {
    name: String,
    json_name: String,
    label: String,
    ty: String,
    required: bool,
    deprecated: bool,
}

#[derive(Debug)]
struct ProtoOneof {
    name: String,
    members: Vec<String>,
}

#[derive(Debug)]
struct ProtoMessage {
    name: String,
    fields: Vec<ProtoField>,
    oneofs: Vec<ProtoOneof>,
}

#[derive(Debug)]
struct ProtoEnum {
    name: String,
    values: Vec<(String, i64)>,
}

#[derive(Debug)]
struct ProtoRpc {
    name: String,
    request: String,
    response: String,
    streaming: bool,
}

#[derive(Debug, Default)]
struct Proto {
    messages: Vec<ProtoMessage>,
    enums: Vec<ProtoEnum>,
    rpcs: Vec<ProtoRpc>,
    /// Message and enum names in declaration order.
    order: Vec<String>,
}

#[derive(Debug)]
enum Block {
    Message(usize),
    Enum(usize),
    Oneof(usize, usize),
    Other,
}

/// `line` without a trailing `//` comment (a `//` inside a string literal is kept).
fn strip_comment(line: &str) -> &str {
    let mut in_string = false;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The type name of a proto type as our schema names it (`google.protobuf.X` -> `X`).
fn short_type(ty: &str) -> &str {
    ty.strip_prefix("google.protobuf.").unwrap_or(ty)
}

impl Proto {
    fn parse(text: &str) -> Proto {
        let mut proto = Proto::default();
        let mut stack: Vec<Block> = Vec::new();
        for raw in text.lines() {
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            let opens = line.matches('{').count();
            let closes = line.matches('}').count();
            if let Some(rest) = line.strip_prefix("rpc ") {
                proto.rpcs.push(Self::parse_rpc(rest));
            }
            if opens > 0 {
                let mut words = line.split_whitespace();
                let keyword = words.next().unwrap_or_default();
                let name = words
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches('{')
                    .to_string();
                let block = match keyword {
                    "message" => {
                        proto.order.push(name.clone());
                        proto.messages.push(ProtoMessage {
                            name,
                            fields: vec![],
                            oneofs: vec![],
                        });
                        Block::Message(proto.messages.len() - 1)
                    }
                    "enum" => {
                        proto.order.push(name.clone());
                        proto.enums.push(ProtoEnum {
                            name,
                            values: vec![],
                        });
                        Block::Enum(proto.enums.len() - 1)
                    }
                    "oneof" => {
                        let Some(Block::Message(m)) = stack.last() else {
                            panic!("oneof outside a message: {line}")
                        };
                        let m = *m;
                        proto.messages[m].oneofs.push(ProtoOneof {
                            name,
                            members: vec![],
                        });
                        Block::Oneof(m, proto.messages[m].oneofs.len() - 1)
                    }
                    _ => Block::Other,
                };
                stack.push(block);
                stack.extend((1..opens).map(|_| Block::Other));
            } else if closes == 0 {
                match stack.last() {
                    Some(Block::Message(m)) => Self::push_field(&mut proto, *m, None, line),
                    Some(Block::Oneof(m, o)) => Self::push_field(&mut proto, *m, Some(*o), line),
                    Some(Block::Enum(e)) => {
                        let (name, rest) = line.split_once('=').expect("enum value has `=`");
                        let number = rest.trim().trim_end_matches(';').split_whitespace().next();
                        let number = number.and_then(|n| n.parse().ok()).expect("enum number");
                        proto.enums[*e]
                            .values
                            .push((name.trim().to_string(), number));
                    }
                    _ => {}
                }
            }
            for _ in 0..closes {
                stack.pop().expect("balanced braces in the proto");
            }
        }
        assert!(stack.is_empty(), "unbalanced braces in the proto");
        proto
    }

    fn push_field(proto: &mut Proto, message: usize, oneof: Option<usize>, line: &str) {
        let first = line.split_whitespace().next().unwrap_or_default();
        if ["option", "reserved", "extensions"].contains(&first) {
            return;
        }
        let (label, rest) = match first {
            "optional" | "repeated" => (first.to_string(), line[first.len()..].trim_start()),
            _ => (String::new(), line),
        };
        let (ty, rest) = if rest.starts_with("map<") {
            let end = rest.find('>').expect("map<...> closes") + 1;
            (rest[..end].to_string(), &rest[end..])
        } else {
            let (ty, rest) = rest
                .split_once(char::is_whitespace)
                .expect("field has a type");
            (ty.to_string(), rest)
        };
        let name = rest
            .split('=')
            .next()
            .expect("field has a name")
            .trim()
            .to_string();
        let field = ProtoField {
            json_name: lower_camel(&name),
            required: line.contains("(google.api.field_behavior) = REQUIRED"),
            deprecated: line.contains("deprecated = true"),
            name,
            label,
            ty,
        };
        if let Some(o) = oneof {
            proto.messages[message].oneofs[o]
                .members
                .push(field.name.clone());
        }
        proto.messages[message].fields.push(field);
    }

    /// `Name(Request) returns (stream? Response) {`, with the leading `rpc ` removed.
    fn parse_rpc(rest: &str) -> ProtoRpc {
        let (name, rest) = rest.split_once('(').expect("rpc Name(");
        let (request, rest) = rest.split_once(')').expect("rpc request )");
        let rest = rest
            .trim()
            .strip_prefix("returns")
            .expect("rpc returns")
            .trim();
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
            .expect("returns (...)")
            .0;
        let inner = inner.trim();
        let (streaming, response) = match inner.strip_prefix("stream ") {
            Some(r) => (true, r.trim()),
            None => (false, inner),
        };
        ProtoRpc {
            name: name.trim().to_string(),
            request: short_type(request.trim()).to_string(),
            response: short_type(response).to_string(),
            streaming,
        }
    }

    fn message(&self, name: &str) -> Option<&ProtoMessage> {
        self.messages.iter().find(|m| m.name == name)
    }
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

fn properties_of(def: &Value) -> &Map<String, Value> {
    def.get("properties")
        .and_then(Value::as_object)
        .expect("message $def has `properties`")
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
    let schema = our_schema();
    let ours = defs(&schema);
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
        let Some(props) = ours
            .get(name)
            .and_then(|d| d.get("properties"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        let mut used = BTreeSet::new();
        for camel in props.keys() {
            let snake = camel_to_snake(camel);
            if &snake == camel {
                continue;
            }
            checked += 1;
            if aliases.contains(&snake) {
                used.insert(snake);
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

#[test]
fn every_proto_required_field_is_required_in_spec() {
    let what = "every_proto_required_field_is_required_in_spec";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    let mut problems = Vec::new();
    let mut total = 0;
    for message in &proto.messages {
        let Some(def) = ours.get(&message.name) else {
            problems.push(format!("{}: no $def", message.name));
            continue;
        };
        let expected: BTreeSet<String> = message
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.json_name.clone())
            .collect();
        total += expected.len();
        let actual = required_of(def);
        for missing in expected.difference(&actual) {
            problems.push(format!(
                "{}.{missing}: REQUIRED in the proto, not in `required`",
                message.name
            ));
        }
        for extra in actual.difference(&expected) {
            problems.push(format!(
                "{}.{extra}: in `required`, not REQUIRED in the proto",
                message.name
            ));
        }
        if def.get("required").is_some() && actual.is_empty() {
            problems.push(format!(
                "{}: empty `required` should be omitted",
                message.name
            ));
        }
    }
    for (name, def) in ours {
        if proto.message(name).is_none() && !required_of(def).is_empty() {
            problems.push(format!("{name}: not a proto message but has `required`"));
        }
    }
    fail_if_any(&problems, "`required` disagreements with the proto");
    assert_eq!(total, 61, "the v1.0.1 proto marks 61 fields REQUIRED");
    let ours_total: usize = ours.values().map(|d| required_of(d).len()).sum();
    assert_eq!(
        ours_total, 61,
        "spec/v1 must list exactly the 61 REQUIRED fields"
    );
}

#[test]
fn every_proto_message_and_enum_has_a_definition() {
    let what = "every_proto_message_and_enum_has_a_definition";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    assert_eq!(proto.messages.len(), 44, "the v1.0.1 proto has 44 messages");
    assert_eq!(proto.enums.len(), 2, "the v1.0.1 proto has 2 enums");
    let mut problems = Vec::new();
    for message in &proto.messages {
        match ours.get(&message.name) {
            None => problems.push(format!("message {}: no $def", message.name)),
            Some(def) if def["type"] != "object" || !def["properties"].is_object() => problems
                .push(format!(
                    "message {}: not an object with `properties`",
                    message.name
                )),
            Some(_) => {}
        }
    }
    for e in &proto.enums {
        match ours.get(&e.name) {
            None => problems.push(format!("enum {}: no $def", e.name)),
            Some(def) if def["type"] != "string" || !def["enum"].is_array() => {
                problems.push(format!("enum {}: not a string `enum`", e.name))
            }
            Some(_) => {}
        }
    }
    for name in ours.keys() {
        if !proto.order.contains(name) && !WELL_KNOWN.contains(&name.as_str()) {
            problems.push(format!(
                "$def {name}: neither a proto message/enum nor a google.protobuf type"
            ));
        }
    }
    fail_if_any(&problems, "missing or extra definitions");
}

#[test]
fn every_proto_field_is_a_property_with_the_matching_schema() {
    let what = "every_proto_field_is_a_property_with_the_matching_schema";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    let resolve = Resolver::ours(ours);
    let scalar = |ty: &str| match ty {
        "string" => Some((JType::String, None)),
        "bool" => Some((JType::Boolean, None)),
        "int32" => Some((JType::Integer, Some("int32"))),
        "bytes" => Some((JType::String, Some("byte"))),
        _ => None,
    };
    // The JSON type a proto type maps to, plus the `format` its scalar carries.
    let expected_of = |ty: &str| -> (JType, Option<&'static str>) {
        if let Some(s) = scalar(ty) {
            return s;
        }
        let ty = short_type(ty);
        let def = ours
            .get(ty)
            .unwrap_or_else(|| panic!("type {ty} has no $def"));
        match def.get("type").and_then(Value::as_str) {
            Some("object") => (JType::Object(ty.to_string()), None),
            _ => (json_type(def, &resolve).expect("well-formed $def"), None),
        }
    };
    let mut problems = Vec::new();
    let mut count = 0;
    for message in &proto.messages {
        let Some(props) = ours
            .get(&message.name)
            .and_then(|d| d["properties"].as_object())
        else {
            problems.push(format!("{}: no $def with properties", message.name));
            continue;
        };
        for field in &message.fields {
            count += 1;
            let at = format!("{}.{}", message.name, field.json_name);
            let Some(prop) = props.get(&field.json_name) else {
                problems.push(format!("{at}: no property"));
                continue;
            };
            if prop
                .get("description")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                problems.push(format!("{at}: no description"));
            }
            let (expected, format) = if let Some(inner) = field.ty.strip_prefix("map<") {
                let value = inner
                    .trim_end_matches('>')
                    .split(',')
                    .nth(1)
                    .expect("map value")
                    .trim();
                let (value, format) = expected_of(value);
                (
                    JType::Map(Box::new(value)),
                    format.map(|f| ("additionalProperties", f)),
                )
            } else if field.label == "repeated" {
                let (item, format) = expected_of(&field.ty);
                (JType::Array(Box::new(item)), format.map(|f| ("items", f)))
            } else {
                let (ty, format) = expected_of(&field.ty);
                (ty, format.map(|f| ("", f)))
            };
            match json_type(prop, &resolve) {
                Ok(actual) if actual == expected => {}
                Ok(actual) => problems.push(format!("{at}: proto {expected}, spec/v1 {actual}")),
                Err(e) => problems.push(format!("{at}: {e}")),
            }
            if let Some((container, format)) = format {
                let node = if container.is_empty() {
                    prop
                } else {
                    &prop[container]
                };
                if node.get("format").and_then(Value::as_str) != Some(format) {
                    problems.push(format!("{at}: scalar lacks `format: {format}`"));
                }
            }
            if prop.get("deprecated").is_some() != field.deprecated {
                problems.push(format!("{at}: `deprecated` differs from the proto"));
            }
        }
        let known: BTreeSet<&str> = message
            .fields
            .iter()
            .map(|f| f.json_name.as_str())
            .collect();
        for prop in props.keys() {
            if !known.contains(prop.as_str()) {
                problems.push(format!("{}.{prop}: not a field of the proto", message.name));
            }
        }
    }
    fail_if_any(&problems, "field/property disagreements with the proto");
    let total: usize = proto.messages.iter().map(|m| m.fields.len()).sum();
    assert_eq!(count, total);
}

#[test]
fn defs_and_properties_follow_proto_declaration_order() {
    let what = "defs_and_properties_follow_proto_declaration_order";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let path = spec_file("a2a.schema.json");
    let ordered: Ordered = serde_json::from_str(&read(&path)).expect("schema is JSON");
    let defs = ordered.get("$defs").expect("$defs");
    let mut expected: Vec<&str> = proto.order.iter().map(String::as_str).collect();
    expected.extend(WELL_KNOWN);
    assert_eq!(
        defs.keys(),
        expected,
        "$defs must follow proto declaration order, then {WELL_KNOWN:?}"
    );
    let mut problems = Vec::new();
    for message in &proto.messages {
        let want: Vec<&str> = message
            .fields
            .iter()
            .map(|f| f.json_name.as_str())
            .collect();
        let got = defs
            .get(&message.name)
            .and_then(|d| d.get("properties"))
            .map(Ordered::keys);
        if got.as_ref() != Some(&want) {
            problems.push(format!(
                "{}: properties {got:?}, proto order {want:?}",
                message.name
            ));
        }
    }
    fail_if_any(&problems, "property order disagreements with the proto");
}

#[test]
fn enum_values_match_proto_in_number_order() {
    let what = "enum_values_match_proto_in_number_order";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    for e in &proto.enums {
        let mut values = e.values.clone();
        values.sort_by_key(|(_, number)| *number);
        let numbers: Vec<i64> = values.iter().map(|(_, n)| *n).collect();
        let contiguous: Vec<i64> = (0..values.len() as i64).collect();
        assert_eq!(
            numbers, contiguous,
            "enum {} must be contiguous from 0",
            e.name
        );
        let expected: Vec<&str> = values.iter().map(|(name, _)| name.as_str()).collect();
        let actual: Vec<&str> = ours[&e.name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{} has an `enum` list", e.name))
            .iter()
            .map(|v| v.as_str().expect("enum values are strings"))
            .collect();
        assert_eq!(
            actual, expected,
            "enum {}: values must be listed by proto number",
            e.name
        );
    }
}

#[test]
fn oneofs_match_proto() {
    let what = "oneofs_match_proto";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let schema = our_schema();
    let ours = defs(&schema);
    let mut problems = Vec::new();
    let mut with_oneof = BTreeSet::new();
    for message in &proto.messages {
        let def = &ours[&message.name];
        match message.oneofs.as_slice() {
            [] => {}
            [oneof] => {
                with_oneof.insert(message.name.clone());
                if def.get("x-oneof-name").and_then(Value::as_str) != Some(oneof.name.as_str()) {
                    problems.push(format!(
                        "{}: x-oneof-name should be {:?}",
                        message.name, oneof.name
                    ));
                }
                let expected: Vec<Value> = oneof
                    .members
                    .iter()
                    .map(|m| serde_json::json!({ "required": [lower_camel(m)] }))
                    .collect();
                if def.get("oneOf") != Some(&Value::Array(expected.clone())) {
                    problems.push(format!(
                        "{}: oneOf is {}, proto gives {}",
                        message.name,
                        def.get("oneOf").unwrap_or(&Value::Null),
                        Value::Array(expected)
                    ));
                }
                let required = required_of(def);
                for member in &oneof.members {
                    let camel = lower_camel(member);
                    if !properties_of(def).contains_key(&camel) {
                        problems.push(format!(
                            "{}.{camel}: oneof member is not a property",
                            message.name
                        ));
                    }
                    if required.contains(&camel) {
                        problems.push(format!(
                            "{}.{camel}: oneof member is required",
                            message.name
                        ));
                    }
                }
            }
            _ => problems.push(format!(
                "{}: more than one oneof is not supported",
                message.name
            )),
        }
    }
    for (name, def) in ours {
        let has = def.get("oneOf").is_some() || def.get("x-oneof-name").is_some();
        if has && !with_oneof.contains(name) {
            problems.push(format!("{name}: oneOf/x-oneof-name without a proto oneof"));
        }
    }
    fail_if_any(&problems, "oneof disagreements with the proto");
    assert_eq!(with_oneof.len(), 5, "the v1.0.1 proto has five oneofs");
}

#[test]
fn derived_snake_case_aliases_are_the_proto_field_names() {
    let what = "derived_snake_case_aliases_are_the_proto_field_names";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let mismatches: Vec<String> = proto
        .messages
        .iter()
        .flat_map(|m| m.fields.iter().map(move |f| (m, f)))
        .filter(|(_, f)| camel_to_snake(&f.json_name) != f.name)
        .map(|(m, f)| {
            format!(
                "{}.{}: camel {} gives {}",
                m.name,
                f.name,
                f.json_name,
                camel_to_snake(&f.json_name)
            )
        })
        .collect();
    fail_if_any(
        &mismatches,
        "fields whose derived alias is not the proto name",
    );
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

    // Against the proto: the eleven rpcs, in service order.
    let what = "methods_and_errors_tables_are_consistent";
    let Some(proto) = load_proto(what) else {
        return;
    };
    let from_proto: Vec<(String, String, String, bool)> = proto
        .rpcs
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                r.request.clone(),
                r.response.clone(),
                r.streaming,
            )
        })
        .collect();
    let from_toml: Vec<(String, String, String, bool)> = methods
        .iter()
        .map(|m| {
            let streaming = m["streaming"].as_bool().expect("bool");
            let s = |k| toml_str(m, k).to_string();
            (s("name"), s("params"), s("result"), streaming)
        })
        .collect();
    assert_eq!(
        from_toml, from_proto,
        "methods.toml must list the proto rpcs in service order"
    );

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
