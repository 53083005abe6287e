//! A compiled proto's declarations as plain JSON, for tools outside the crate that render
//! something else from the same descriptors (the hand-made bufbuild JSON Schema fixture's
//! generator, `a2a-codegen/tests/fixtures/bufbuild/generate.py`). Only structure: names, numbers,
//! types, labels, oneofs and `deprecated` flags; no comments, so nothing of the proto's prose
//! travels through it.
//!
//! ```json
//! {"file": "a2a.proto", "package": "lf.a2a.v1",
//!  "roots": ["lf.a2a.v1.Task", ...],
//!  "messages": [{"full_name": "lf.a2a.v1.Task", "name": "Task", "deprecated": false,
//!                "fields": [{"name": "context_id", "json_name": "contextId", "number": 2,
//!                            "type": "string", "repeated": false, "presence": false,
//!                            "oneof": null, "deprecated": false}, ...]}, ...],
//!  "enums": [{"full_name": "lf.a2a.v1.Role", "name": "Role",
//!             "values": [{"name": "ROLE_UNSPECIFIED", "number": 0}, ...]}]}
//! ```
//!
//! `roots` are the file's top-level messages in declaration order; `messages` holds them and
//! every message they reach (nested ones, well-known types), fields in declaration order. A
//! field's `type` is the protobuf scalar name (`int32`, `sfixed64`, ...), `enum` or `message`
//! (with `type_name`, the full name), or `map` (with `key` and `value`, each a field of its own);
//! `presence` is protobuf's "has presence" (proto3 `optional`, oneof members, singular messages);
//! `oneof` names a real (not synthetic) oneof.

use super::Compiled;
use protox::prost_reflect::{EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// The outline of a compiled proto (format in the module docs).
pub(crate) fn outline(compiled: &Compiled) -> Value {
    let file = &compiled.file;
    let roots: Vec<MessageDescriptor> = file.messages().collect();
    let mut walk = Walk::default();
    for m in &roots {
        walk.message(m);
    }
    for e in file.enums() {
        walk.enumeration(&e);
    }
    json!({
        "file": file.name(),
        "package": file.package_name(),
        "roots": roots.iter().map(|m| m.full_name()).collect::<Vec<_>>(),
        "messages": walk.messages,
        "enums": walk.enums,
    })
}

#[derive(Default)]
struct Walk {
    seen: BTreeSet<String>,
    messages: Vec<Value>,
    enums: Vec<Value>,
}

impl Walk {
    fn message(&mut self, m: &MessageDescriptor) {
        if m.is_map_entry() || !self.seen.insert(m.full_name().to_string()) {
            return;
        }
        let at = self.messages.len();
        self.messages.push(Value::Null);
        // Declaration order: a field's source path ends with its index in the message.
        let mut declared: Vec<FieldDescriptor> = m.fields().collect();
        declared.sort_by_key(|f| f.path().last().copied());
        let fields: Vec<Value> = declared.iter().map(|f| self.field(f)).collect();
        let deprecated = m
            .descriptor_proto()
            .options
            .as_ref()
            .is_some_and(|o| o.deprecated());
        self.messages[at] = json!({
            "full_name": m.full_name(),
            "name": m.name(),
            "deprecated": deprecated,
            "fields": fields,
        });
        for child in m.child_messages() {
            self.message(&child);
        }
    }

    fn enumeration(&mut self, e: &EnumDescriptor) {
        if !self.seen.insert(e.full_name().to_string()) {
            return;
        }
        let values: Vec<Value> = e
            .values()
            .map(|v| json!({"name": v.name(), "number": v.number()}))
            .collect();
        self.enums.push(json!({
            "full_name": e.full_name(),
            "name": e.name(),
            "values": values,
        }));
    }

    fn field(&mut self, f: &FieldDescriptor) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), f.name().into());
        out.insert("json_name".into(), f.json_name().into());
        out.insert("number".into(), f.number().into());
        if f.is_map() {
            let entry = f.kind();
            let entry = entry.as_message().expect("a map field's kind is its entry");
            out.insert("type".into(), "map".into());
            for (key, number) in [("key", 1), ("value", 2)] {
                let part = entry
                    .get_field(number)
                    .expect("a map entry has a key and a value");
                out.insert(key.into(), self.field(&part));
            }
        } else {
            self.kind(&f.kind(), &mut out);
        }
        out.insert("repeated".into(), (f.is_list()).into());
        out.insert("presence".into(), f.supports_presence().into());
        let oneof = f.containing_oneof().filter(|o| !o.is_synthetic());
        out.insert(
            "oneof".into(),
            oneof.map_or(Value::Null, |o| o.name().into()),
        );
        let deprecated = f
            .field_descriptor_proto()
            .options
            .as_ref()
            .is_some_and(|o| o.deprecated());
        out.insert("deprecated".into(), deprecated.into());
        Value::Object(out)
    }

    fn kind(&mut self, kind: &Kind, out: &mut Map<String, Value>) {
        let scalar = match kind {
            Kind::Double => "double",
            Kind::Float => "float",
            Kind::Int32 => "int32",
            Kind::Int64 => "int64",
            Kind::Uint32 => "uint32",
            Kind::Uint64 => "uint64",
            Kind::Sint32 => "sint32",
            Kind::Sint64 => "sint64",
            Kind::Fixed32 => "fixed32",
            Kind::Fixed64 => "fixed64",
            Kind::Sfixed32 => "sfixed32",
            Kind::Sfixed64 => "sfixed64",
            Kind::Bool => "bool",
            Kind::String => "string",
            Kind::Bytes => "bytes",
            Kind::Message(m) => {
                out.insert("type".into(), "message".into());
                out.insert("type_name".into(), m.full_name().into());
                self.message(m);
                return;
            }
            Kind::Enum(e) => {
                out.insert("type".into(), "enum".into());
                out.insert("type_name".into(), e.full_name().into());
                self.enumeration(e);
                return;
            }
        };
        out.insert("type".into(), scalar.into());
    }
}
