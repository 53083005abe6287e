//! The oneof constraints some versions of bufbuild's protoc-gen-jsonschema put on a message, one
//! `allOf` entry per proto oneof, read and held against the overlay's `oneof` (which names the
//! oneof: the schema cannot). Two spellings are read, each listing every name a member is
//! accepted under (the JSON name, and the proto name where it differs):
//!
//! - `{"oneOf": [{"required": ["text"]}, {"required": ["raw"]}, ..., {"propertyNames": {"not":
//!   {"enum": [all names]}}}]}` (the last branch: no member at all);
//! - `{"anyOf": [{"required": ["text"], "not": {"required": [the others]}}, ..., {"not":
//!   {"required": [all]}}]}`.
//!
//! A constraint the overlay lacks, or lists with other members, is an error; so is an overlay
//! oneof on a message without a constraint when the schema constrains the oneofs of others (it is
//! then a schema that marks its oneofs, and this one has none there).

use super::importer::{Importer, SchemaOneof};
use crate::diag::pointer_push;
use crate::naming;
use serde_json::{Map, Value};

impl Importer<'_> {
    /// Reads a message's `allOf` (at `pointer`) as oneof constraints, for the type `name`.
    pub(super) fn read_oneof_constraints(
        &mut self,
        name: &str,
        def: &Map<String, Value>,
        all_of: &Value,
        pointer: &str,
    ) {
        let Some(entries) = all_of.as_array() else {
            self.diags
                .push(self.file, pointer, "`allOf` must be an array")
                .help(ONEOF_HELP);
            return;
        };
        let props = def.get("properties").and_then(Value::as_object);
        for (i, entry) in entries.iter().enumerate() {
            let at = pointer_push(pointer, &i.to_string());
            let members = match members_of(entry, props) {
                Ok(members) => members,
                Err(why) => {
                    self.diags
                        .push(
                            self.file,
                            &at,
                            format!("not a oneof constraint of protoc-gen-jsonschema: {why}"),
                        )
                        .help(ONEOF_HELP);
                    continue;
                }
            };
            let found = self.schema_oneofs.entry(name.to_string()).or_default();
            if let Some(first) = found.first() {
                let message = format!(
                    "`{name}` has a second oneof constraint (the first is at {})",
                    first.pointer
                );
                self.diags.push(self.file, &at, message).help(
                    "a2a-codegen models one oneof per message (A2A has no message with two); \
                     move the second oneof's members into a message of their own",
                );
                continue;
            }
            found.push(SchemaOneof {
                pointer: at,
                members,
            });
        }
    }

    /// Holds the oneof constraints found against the overlay's `oneof`s.
    pub(super) fn check_oneofs_against_overlay(&mut self) {
        let overlay = self.overlay;
        let found = std::mem::take(&mut self.schema_oneofs);
        for (name, constraints) in &found {
            let Some(constraint) = constraints.first() else {
                continue;
            };
            let listed = overlay
                .value
                .message
                .get(name)
                .and_then(|m| m.oneof.as_ref());
            let shown = |members: &[String]| format!("`{}`", members.join("`, `"));
            match listed {
                None => {
                    self.diags
                        .push(
                            self.file,
                            &constraint.pointer,
                            format!(
                                "`{name}` has a oneof of {}, which the overlay does not declare",
                                shown(&constraint.members)
                            ),
                        )
                        .help(format!(
                            "add `oneof = {{ name = \"<the proto oneof's name>\", members = [\"{}\"] }}` \
                             to [message.{name}] in {} (the schema does not carry the oneof's name)",
                            constraint.members.join("\", \""),
                            label_or(overlay.label)
                        ));
                }
                Some(oneof) => {
                    let mut expected = constraint.members.clone();
                    let mut actual = oneof.members.clone();
                    expected.sort();
                    actual.sort();
                    if expected != actual {
                        self.diags
                            .push(
                                overlay.label,
                                format!("{}/oneof/members", pointer_push("/message", name)),
                                format!(
                                    "the oneof `{}` of `{name}` lists {}, but the schema's \
                                     constraint ({}) has {}",
                                    oneof.name,
                                    shown(&oneof.members),
                                    constraint.pointer,
                                    shown(&constraint.members)
                                ),
                            )
                            .help("list the members of the proto oneof, as the schema does");
                    }
                }
            }
        }
        if found.is_empty() {
            return;
        }
        // The schema marks oneofs: an overlay oneof on a message it leaves unmarked is stale.
        let defined: Vec<&String> = self.keys.values().collect();
        for (name, message) in &overlay.value.message {
            let Some(oneof) = &message.oneof else {
                continue;
            };
            if found.contains_key(name) || !defined.contains(&name) {
                continue;
            }
            self.diags
                .push(
                    overlay.label,
                    format!("{}/oneof", pointer_push("/message", name)),
                    format!(
                        "the overlay declares the oneof `{}` on `{name}`, but the schema, which \
                         constrains the oneofs of its messages, has no constraint there",
                        oneof.name
                    ),
                )
                .help(
                    "remove `oneof` from the table if the proto has no such oneof, or check that \
                     the schema was generated from the same proto as the overlay",
                );
        }
    }
}

const ONEOF_HELP: &str = "a message's `allOf` is read only as protoc-gen-jsonschema's oneof \
     constraints: per oneof, a `oneOf` of `{\"required\": [name]}` branches plus one \
     `propertyNames` branch, or an `anyOf` of `{\"required\": [name], \"not\": {\"required\": \
     [...]}}` branches plus one `not` branch; remove anything else";

fn label_or(label: &str) -> &str {
    if label.is_empty() {
        "the overlay"
    } else {
        label
    }
}

/// The member properties of one oneof constraint, or why it is none.
fn members_of(entry: &Value, props: Option<&Map<String, Value>>) -> Result<Vec<String>, String> {
    let obj = entry.as_object().ok_or("an entry must be an object")?;
    let branches = match (obj.get("oneOf"), obj.get("anyOf"), obj.len()) {
        (Some(b), None, 1) | (None, Some(b), 1) => b,
        _ => return Err("an entry must be `{\"oneOf\": [...]}` or `{\"anyOf\": [...]}`".into()),
    };
    let branches = branches.as_array().ok_or("its branches must be an array")?;
    let mut members: Vec<String> = Vec::new();
    for (i, branch) in branches.iter().enumerate() {
        let branch = branch
            .as_object()
            .ok_or_else(|| format!("branch {i} is not an object"))?;
        for (key, value) in branch {
            match key.as_str() {
                "required" => {
                    let names = strings(value).filter(|n| n.len() == 1).ok_or_else(|| {
                        format!("`required` of branch {i} must name one property")
                    })?;
                    let member = property_of(&names[0], props)?;
                    if !members.contains(&member) {
                        members.push(member);
                    }
                }
                "not" => {
                    let names = value
                        .as_object()
                        .filter(|n| n.len() == 1)
                        .and_then(|n| n.get("required"))
                        .and_then(strings)
                        .ok_or_else(|| {
                            format!("`not` of branch {i} must be `{{\"required\": [names]}}`")
                        })?;
                    for name in &names {
                        property_of(name, props)?;
                    }
                }
                "propertyNames" => {
                    let only = |v: &Value, key: &str| {
                        v.as_object()
                            .filter(|o| o.len() == 1)
                            .and_then(|o| o.get(key))
                            .cloned()
                    };
                    let names = only(value, "not")
                        .and_then(|not| only(&not, "enum"))
                        .as_ref()
                        .and_then(strings)
                        .ok_or_else(|| {
                            format!(
                                "`propertyNames` of branch {i} must be `{{\"not\": {{\"enum\": [names]}}}}`"
                            )
                        })?;
                    for name in &names {
                        property_of(name, props)?;
                    }
                }
                other => return Err(format!("branch {i} has `{other}`")),
            }
        }
    }
    if members.is_empty() {
        return Err("no branch names a member (`{\"required\": [name]}`)".into());
    }
    Ok(members)
}

fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(String::from))
        .collect()
}

/// The property a name in a constraint stands for: itself, or the property whose snake_case
/// alias it is.
fn property_of(name: &str, props: Option<&Map<String, Value>>) -> Result<String, String> {
    let props = props.ok_or("the message has no `properties`")?;
    if props.contains_key(name) {
        return Ok(name.to_string());
    }
    props
        .keys()
        .find(|p| naming::snake_case(p) == name)
        .cloned()
        .ok_or_else(|| format!("`{name}` is neither a property nor a property's snake_case name"))
}
