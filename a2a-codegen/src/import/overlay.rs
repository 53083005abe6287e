//! The overlay format (`spec/v1/README.md`, `spec/v0_3/README.md`): what the published schema
//! cannot say, read from TOML, and the `[message.X]` tables applied to the rewritten definitions.

use super::origin::Origin;
use crate::diag::{pointer_push, Diagnostics};
use crate::load::{self, Source};
use crate::naming;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

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

/// The overlay in use (an empty one when there is none) and its label.
#[derive(Clone, Copy)]
pub(super) struct OverlayFile<'a> {
    pub(super) value: &'a Overlay,
    pub(super) label: &'a str,
}

/// Applies the `[message.Name]` tables: field order, REQUIRED fields, deprecations and the
/// oneof, each after checking that the names it lists are the message's properties.
pub(super) fn apply_messages(
    overlay: &OverlayFile<'_>,
    defs: &mut Map<String, Value>,
    diags: &mut Diagnostics,
    origins: &mut Vec<Origin>,
) {
    let file = overlay.label;
    for (name, msg) in &overlay.value.message {
        let at = pointer_push("/message", name);
        let Some(def) = message_def(file, &at, name, defs, diags) else {
            continue;
        };
        let keys: Vec<String> = match def.get("properties") {
            Some(Value::Object(props)) => props.keys().cloned().collect(),
            _ => continue,
        };
        let cx = MessageTable {
            file,
            at: &at,
            name,
            keys: &keys,
        };
        let fields_ok = msg
            .fields
            .as_deref()
            .is_none_or(|f| cx.known(f, "fields", diags));
        let required_ok = cx.known(&msg.required, "required", diags);
        let deprecated_ok = cx.known(&msg.deprecated, "deprecated", diags);
        let members_ok = msg
            .oneof
            .as_ref()
            .is_none_or(|o| cx.known(&o.members, "oneof/members", diags));

        if let (Some(fields), true) = (&msg.fields, fields_ok) {
            cx.order_fields(fields, def, diags);
        }
        if required_ok && !msg.required.is_empty() {
            cx.add_required(&msg.required, def, origins);
        }
        if deprecated_ok {
            mark_deprecated(&msg.deprecated, def);
        }
        if let (Some(oneof), true) = (&msg.oneof, members_ok) {
            cx.add_oneof(oneof, &msg.required, def, diags, origins);
        }
    }
}

/// The definition a `[message.Name]` table names, when it is a message (one with properties).
fn message_def<'d>(
    file: &str,
    at: &str,
    name: &str,
    defs: &'d mut Map<String, Value>,
    diags: &mut Diagnostics,
) -> Option<&'d mut Map<String, Value>> {
    let Some(Value::Object(def)) = defs.get_mut(name) else {
        diags
            .push(file, at, format!("the schema has no message `{name}`"))
            .help("fix the name (a definition's title without spaces, e.g. `OAuth2SecurityScheme`) or remove the table");
        return None;
    };
    if !matches!(def.get("properties"), Some(Value::Object(_))) {
        diags
            .push(
                file,
                at,
                format!("`{name}` is not a message (it has no properties)"),
            )
            .help("remove the table");
        return None;
    }
    Some(def)
}

/// One `[message.Name]` table being applied: where it is, and the message's properties.
struct MessageTable<'a> {
    file: &'a str,
    /// The table's TOML path (`/message/Name`).
    at: &'a str,
    name: &'a str,
    /// The message's property names, as the schema has them.
    keys: &'a [String],
}

impl MessageTable<'_> {
    /// Whether every name in `list` (the table's entry `what`) is a property of the message;
    /// each one that is not is an error at its TOML path.
    fn known(&self, list: &[String], what: &str, diags: &mut Diagnostics) -> bool {
        let mut ok = true;
        for (i, prop) in list.iter().enumerate() {
            if !self.keys.contains(prop) {
                diags
                    .push(
                        self.file,
                        format!("{}/{what}/{i}", self.at),
                        format!("`{}` has no property `{prop}`", self.name),
                    )
                    .help("use the lowerCamelCase JSON name, as in the schema's `properties`");
                ok = false;
            }
        }
        ok
    }

    /// `fields`: the properties in proto field order, each listed once and none left out.
    fn order_fields(
        &self,
        fields: &[String],
        def: &mut Map<String, Value>,
        diags: &mut Diagnostics,
    ) {
        let (file, at) = (self.file, self.at);
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
        let missing: Vec<&str> = self
            .keys
            .iter()
            .filter(|k| !fields.contains(k))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            diags
                .push(
                    file,
                    format!("{at}/fields"),
                    format!(
                        "`fields` of `{}` leaves out `{}`",
                        self.name,
                        missing.join("`, `")
                    ),
                )
                .help("list every property of the message, in proto field order");
            ok = false;
        }
        if !ok {
            return;
        }
        let props = def
            .get_mut("properties")
            .and_then(Value::as_object_mut)
            .expect("a message has properties (message_def)");
        let mut ordered = Map::new();
        for field in fields {
            if let Some(value) = props.remove(field) {
                ordered.insert(field.clone(), value);
            }
        }
        *props = ordered;
    }

    /// `required`: added to the definition's own `required` list.
    fn add_required(
        &self,
        fields: &[String],
        def: &mut Map<String, Value>,
        origins: &mut Vec<Origin>,
    ) {
        let mut required: Vec<Value> = def
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for field in fields {
            if !required.iter().any(|r| r.as_str() == Some(field)) {
                required.push(field.as_str().into());
            }
        }
        def.insert("required".into(), required.into());
        origins.push(Origin {
            new: format!("/$defs/{}/required", self.name),
            file: self.file.to_string(),
            old: format!("{}/required", self.at),
            keep_rest: true,
        });
    }

    /// `oneof`: the ProtoJSON oneof pattern of our dialect, when its name and members are usable
    /// and the schema has no oneOf of its own.
    fn add_oneof(
        &self,
        oneof: &OverlayOneof,
        required: &[String],
        def: &mut Map<String, Value>,
        diags: &mut Diagnostics,
        origins: &mut Vec<Origin>,
    ) {
        let (file, at, name) = (self.file, self.at, self.name);
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
            if required.contains(member) {
                diags
                    .push(
                        file,
                        format!("{at}/oneof/members/{i}"),
                        format!("oneof member `{member}` is also listed in `required`"),
                    )
                    .help("a oneof member is present only when chosen; remove it from `required`");
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
        if !ok {
            return;
        }
        let branches: Vec<Value> = oneof
            .members
            .iter()
            .map(|m| serde_json::json!({ "required": [m] }))
            .collect();
        def.insert("oneOf".into(), branches.into());
        def.insert("x-oneof-name".into(), oneof.name.as_str().into());
        origins.push(Origin {
            new: format!("/$defs/{name}/oneOf"),
            file: file.to_string(),
            old: format!("{at}/oneof/members"),
            keep_rest: true,
        });
        origins.push(Origin {
            new: format!("/$defs/{name}/x-oneof-name"),
            file: file.to_string(),
            old: format!("{at}/oneof/name"),
            keep_rest: false,
        });
    }
}

/// `deprecated`: the properties get `"deprecated": true`.
fn mark_deprecated(fields: &[String], def: &mut Map<String, Value>) {
    if let Some(Value::Object(props)) = def.get_mut("properties") {
        for field in fields {
            if let Some(Value::Object(prop)) = props.get_mut(field) {
                prop.insert("deprecated".into(), true.into());
            }
        }
    }
}

/// Adds the `[definition.Name]` tables: whole definitions the schema lacks.
pub(super) fn add_definitions(
    overlay: &OverlayFile<'_>,
    defs: &mut Map<String, Value>,
    diags: &mut Diagnostics,
    origins: &mut Vec<Origin>,
) {
    let file = overlay.label;
    for (name, table) in &overlay.value.definition {
        let at = pointer_push("/definition", name);
        if !naming::is_identifier(name) {
            diags
                .push(file, &at, format!("`{name}` is not a type name"))
                .help("name the definition like a Rust type, e.g. [definition.Empty]");
            continue;
        }
        if defs.contains_key(name) {
            diags
                .push(file, &at, format!("the schema already defines `{name}`"))
                .help("remove the table: the overlay adds only definitions the schema lacks");
            continue;
        }
        match serde_json::to_value(table) {
            Ok(value) => {
                defs.insert(name.clone(), value);
                origins.push(Origin {
                    new: pointer_push("/$defs", name),
                    file: file.to_string(),
                    old: at,
                    keep_rest: true,
                });
            }
            Err(e) => {
                diags
                    .push(file, &at, format!("not a JSON schema: {e}"))
                    .help(
                        "write the definition as in a2a.schema.json, with TOML tables and arrays",
                    );
            }
        }
    }
}
