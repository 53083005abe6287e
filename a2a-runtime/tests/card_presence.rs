//! The field-presence table the card's canonical form uses (`trust::card_payload`, spec §8.4.1)
//! agrees with spec/v1/a2a.schema.json: every message the card reaches, every field, which are
//! REQUIRED, which have explicit presence (`optional`, "explicit presence" in the schema), which
//! are messages (`$ref` to an object), and which are neither.
#![cfg(feature = "trust")]

use serde_json::Value;

#[test]
fn the_card_presence_table_matches_spec_v1() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/v1/a2a.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let defs = &schema["$defs"];
    for (message, fields) in a2a_runtime::trust::presence_table() {
        let def = &defs[message];
        let properties = def["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{message} is not in the schema"));
        let required: Vec<&str> = def["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
        let mut schema_names: Vec<&str> = properties.keys().map(String::as_str).collect();
        // The card's `signatures` are never part of the canonical form.
        schema_names.retain(|n| !(message == "AgentCard" && *n == "signatures"));
        names.sort_unstable();
        schema_names.sort_unstable();
        assert_eq!(names, schema_names, "the fields of {message}");
        for (name, presence) in fields {
            let property = &properties[name];
            let expected = if required.contains(&name) {
                "required"
            } else if property.get("$ref").is_some() {
                "message" // a Struct (an extension's params) too
            } else if property["description"]
                .as_str()
                .is_some_and(|d| d.contains("explicit presence"))
            {
                "optional"
            } else {
                "implicit"
            };
            assert_eq!(presence, expected, "{message}.{name}");
        }
    }
}
