//! The import's unit tests: shapes, rewrites, the overlay and its mistakes.

use super::keys::type_name;
use super::unions::tag_of_union;
use super::v03::dropped_by_rule;
use super::*;
// Import and lowering together, as the pipeline runs them.
use crate::pipeline::lower_types;
use serde_json::json;
use serde_json::Map;

fn source(value: Value) -> Source<Value> {
    Source {
        label: "a2a.json".into(),
        sha256: "0".into(),
        value,
    }
}

fn overlay(text: &str) -> Source<Overlay> {
    Source {
        label: "overlay.toml".into(),
        sha256: "1".into(),
        value: toml::from_str(text).expect("a valid overlay"),
    }
}

fn enum_any(zero: &str, rest: &[&str]) -> Value {
    json!([
        {"pattern": format!("^{zero}$"), "type": "string"},
        {"enum": rest, "type": "string"},
        {"maximum": 2147483647, "minimum": -2147483648, "type": "integer"}
    ])
}

fn int32_any() -> Value {
    json!([
        {"maximum": 2147483647, "minimum": -2147483648, "type": "integer"},
        {"pattern": "^-?[0-9]+$", "type": "string"}
    ])
}

/// A small bundle in the v1.0.x layout.
fn bundle() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Schemas",
        "version": "v1",
        "definitions": {
            "Struct": {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Struct", "type": "object"},
            "Task Status": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "additionalProperties": false,
                "title": "Task Status",
                "type": "object",
                "description": "A status.",
                "patternProperties": {"^(page_size)$": {"type": "integer"}},
                "properties": {
                    "metadata": {"$ref": "google.protobuf.Struct.jsonschema.json"},
                    "pageSize": {"anyOf": int32_any(), "description": "How many."},
                    "state": {"anyOf": enum_any("TASK_STATE_UNSPECIFIED", &["TASK_STATE_WORKING"]), "default": 0, "title": "Task State"},
                    "text": {"default": "", "type": "string"}
                }
            },
            "O Auth Flows": {
                "additionalProperties": false,
                "title": "O Auth Flows",
                "type": "object",
                "properties": {
                    "raw": {"pattern": "^[A-Za-z0-9+/]*={0,2}$", "type": "string"},
                    "scopes": {"additionalProperties": {"type": "string"}, "propertyNames": {"type": "string"}, "type": "object"},
                    "status": {"$ref": "lf.a2a.v1.TaskStatus.jsonschema.json"}
                }
            }
        }
    })
}

fn imported(schema: Value, overlay_text: &str) -> (Option<Imported>, Diagnostics) {
    let mut diags = Diagnostics::default();
    let o = overlay(overlay_text);
    let im = import(&source(schema), Some(&o), &mut diags);
    (im, diags)
}

fn defs_of(im: &Imported) -> &Map<String, Value> {
    im.schema.value["$defs"].as_object().unwrap()
}

#[test]
fn titles_and_file_names_become_type_names() {
    assert_eq!(type_name("Agent Card"), "AgentCard");
    assert_eq!(type_name("O Auth2 Security Scheme"), "OAuth2SecurityScheme");
    assert_eq!(
        type_name("Authorization CodeO Auth Flow"),
        "AuthorizationCodeOAuthFlow"
    );
    assert_eq!(type_name("lf.a2a.v1.Message.jsonschema.json"), "Message");
    assert_eq!(
        type_name("google.protobuf.Struct.jsonschema.json"),
        "Struct"
    );
    assert_eq!(type_name("AgentCard"), "AgentCard");
}

#[test]
fn shapes_are_detected() {
    assert_eq!(detect(&bundle()), Shape::Bundle);
    let file_ref_in_defs = json!({"$defs": {"A": {"$ref": "lf.a2a.v1.B.jsonschema.json"}}});
    assert_eq!(
        detect(&file_ref_in_defs),
        Shape::Own,
        "a bad ref of our dialect"
    );
    let own = json!({"$defs": {"A": {"type": "object", "properties": {}, "additionalProperties": false}}});
    assert_eq!(
        detect(&own),
        Shape::Own,
        "additionalProperties: false alone is not an idiom"
    );
    let local =
        json!({"$defs": {"A": {"type": "object", "properties": {"x": {"anyOf": int32_any()}}}}});
    assert_eq!(detect(&local), Shape::LocalBundle);
    let aliases = json!({"$defs": {"A": {"type": "object", "properties": {"aB": {}}, "patternProperties": {"^(a_b)$": {}}}}});
    assert_eq!(detect(&aliases), Shape::LocalBundle);
    let enums = json!({"$defs": {"A": {"type": "object", "properties": {"r": {"anyOf": enum_any("R_UNSPECIFIED", &["R_A"])}}}}});
    assert_eq!(detect(&enums), Shape::LocalBundle);
    // Other anyOf and patternProperties stay errors of our dialect.
    let other = json!({"$defs": {"A": {"properties": {"m": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "patternProperties": {"^x_": {}}}}});
    assert_eq!(detect(&other), Shape::Own);
    assert_eq!(detect(&json!([1])), Shape::Own);
    assert_eq!(detect(&json!({"$defs": {}, "definitions": {}})), Shape::Own);
}

#[test]
fn refs_keys_and_keywords_are_rewritten() {
    let (im, diags) = imported(bundle(), "");
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    assert_eq!(detect(&bundle()), Shape::Bundle);
    let root = im.schema.value.as_object().unwrap();
    assert!(!root.contains_key("version") && !root.contains_key("definitions"));
    assert_eq!(root["title"], "Schemas");
    let defs = defs_of(&im);
    assert_eq!(defs["Struct"], json!({"type": "object"}));
    let status = &defs["TaskStatus"];
    assert_eq!(status["description"], "A status.");
    for gone in [
        "$schema",
        "title",
        "additionalProperties",
        "patternProperties",
    ] {
        assert!(status.get(gone).is_none(), "{gone}");
    }
    let props = &status["properties"];
    assert_eq!(props["metadata"], json!({"$ref": "#/$defs/Struct"}));
    assert_eq!(
        props["text"],
        json!({"type": "string"}),
        "zero default dropped"
    );
    assert_eq!(
        props["pageSize"],
        json!({"type": "integer", "format": "int32", "description": "How many."})
    );
    let flows = &defs["OAuthFlows"]["properties"];
    assert_eq!(flows["raw"], json!({"type": "string", "format": "byte"}));
    assert_eq!(
        flows["scopes"],
        json!({"additionalProperties": {"type": "string"}, "type": "object"})
    );
    assert_eq!(flows["status"], json!({"$ref": "#/$defs/TaskStatus"}));
}

#[test]
fn inlined_enums_become_named_definitions() {
    let (im, diags) = imported(bundle(), "");
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    let defs = defs_of(&im);
    assert_eq!(
        defs["TaskState"],
        json!({"type": "string", "enum": ["TASK_STATE_UNSPECIFIED", "TASK_STATE_WORKING"]})
    );
    assert_eq!(
        defs["TaskStatus"]["properties"]["state"],
        json!({"$ref": "#/$defs/TaskState"})
    );
    // Named by the overlay, with its description.
    let text =
        "[enum.Lifecycle]\nzero = \"TASK_STATE_UNSPECIFIED\"\ndescription = \"Where a task is.\"\n";
    let im = imported(bundle(), text).0.unwrap();
    assert_eq!(defs_of(&im)["Lifecycle"]["description"], "Where a task is.");
    assert!(!defs_of(&im).contains_key("TaskState"));
    // Without a title: from the zero value's prefix.
    let mut schema = bundle();
    schema["definitions"]["Task Status"]["properties"]["state"]
        .as_object_mut()
        .unwrap()
        .remove("title");
    schema["definitions"]["Task Status"]["properties"]["role"] =
        json!({"anyOf": enum_any("ROLE_UNSPECIFIED", &["ROLE_USER", "ROLE_AGENT"])});
    let im = imported(schema, "").0.unwrap();
    assert_eq!(defs_of(&im)["Role"]["enum"][2], "ROLE_AGENT");
    assert!(defs_of(&im).contains_key("TaskState"));
}

#[test]
fn enums_that_disagree_or_have_no_name_are_errors() {
    let mut schema = bundle();
    schema["definitions"]["O Auth Flows"]["properties"]["state"] = json!({"anyOf": enum_any("TASK_STATE_UNSPECIFIED", &["TASK_STATE_FAILED"]), "title": "Task State"});
    schema["definitions"]["O Auth Flows"]["properties"]["odd"] =
        json!({"anyOf": enum_any("ODD", &["ODD_A"])});
    let (im, diags) = imported(schema, "");
    assert!(im.is_none());
    let text = diags.to_string();
    assert!(
        text.contains("the enum `TaskState` has the values"),
        "{text}"
    );
    assert!(
        text.contains("/definitions/O Auth Flows/properties/odd")
            && text.contains("[enum.<Name>] zero = \"ODD\""),
        "{text}"
    );
}

#[test]
fn other_idioms_are_left_to_the_lowerer_or_reported() {
    let mut schema = bundle();
    let status = &mut schema["definitions"]["Task Status"];
    status["patternProperties"]["^(nothing_here)$"] = json!({});
    status["patternProperties"]["^x_"] = json!({});
    status["properties"]["code"] = json!({"type": "string", "pattern": "^[A-Z]+$", "default": "A"});
    let (im, diags) = imported(schema.clone(), "");
    assert!(im.is_none());
    let text = diags.to_string();
    assert!(
        text.contains("`nothing_here` is not the snake_case name"),
        "{text}"
    );
    assert!(
        text.contains("unsupported `patternProperties` entry `^x_`"),
        "{text}"
    );
    // A pattern that is not base64 and a non-zero default pass through to the lowerer.
    let status = &mut schema["definitions"]["Task Status"];
    status.as_object_mut().unwrap().remove("patternProperties");
    let im = imported(schema, "").0.unwrap();
    assert_eq!(
        defs_of(&im)["TaskStatus"]["properties"]["code"],
        json!({"type": "string", "pattern": "^[A-Z]+$", "default": "A"})
    );
}

#[test]
fn unresolvable_refs_are_errors_at_their_pointer() {
    let mut schema = bundle();
    schema["definitions"]["Struct"] = json!({"$ref": "lf.a2a.v1.Missing.jsonschema.json"});
    schema["definitions"]["O Auth Flows"]["properties"]["x"] =
        json!({"$ref": "https://example.com/x.json"});
    let (_, diags) = imported(schema, "");
    let text = diags.to_string();
    assert!(
        text.contains("the schema defines no `Missing`")
            && text.contains("at /definitions/Struct/$ref"),
        "{text}"
    );
    assert!(
        text.contains("at /definitions/O Auth Flows/properties/x/$ref"),
        "{text}"
    );
}

#[test]
fn additional_properties_false_is_dropped_with_one_note() {
    let im = imported(bundle(), "").0.unwrap();
    assert_eq!(im.notes.len(), 1);
    let note = &im.notes[0];
    assert!(
        note.message.contains("closes 2 messages"),
        "{}",
        note.message
    );
    assert!(note.message.contains("§5.7"));
    assert_eq!(
        note.location,
        "/definitions/Task Status/additionalProperties"
    );
    assert!(note
        .to_string()
        .starts_with("note: the schema closes 2 messages"));
}

#[test]
fn the_overlay_orders_requires_groups_and_adds() {
    let text = r#"
            [message.TaskStatus]
            fields = ["state", "text", "pageSize", "metadata"]
            required = ["state"]
            oneof = { name = "value", members = ["text", "pageSize"] }
            deprecated = ["metadata"]

            [definition.Empty]
            type = "object"
            description = "Nothing."
            properties = {}
        "#;
    let (im, diags) = imported(bundle(), text);
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    let status = &defs_of(&im)["TaskStatus"];
    let order: Vec<&String> = status["properties"].as_object().unwrap().keys().collect();
    assert_eq!(order, ["state", "text", "pageSize", "metadata"]);
    assert_eq!(status["required"], json!(["state"]));
    assert_eq!(
        status["oneOf"],
        json!([{"required": ["text"]}, {"required": ["pageSize"]}])
    );
    assert_eq!(status["x-oneof-name"], "value");
    assert_eq!(status["properties"]["metadata"]["deprecated"], true);
    assert_eq!(
        defs_of(&im)["Empty"],
        json!({"type": "object", "description": "Nothing.", "properties": {}})
    );
}

#[test]
fn overlay_entries_the_schema_lacks_are_errors_at_their_toml_path() {
    let text = r#"
            [message.Nope]
            required = ["x"]

            [message.TaskStatus]
            fields = ["state", "text", "text", "bogus"]
            required = ["state", "ghost"]
            oneof = { name = "value", members = ["state", "phantom"] }
            deprecated = ["gone"]

            [message.Struct]
            required = ["x"]

            [enum.Kind]
            zero = "KIND_UNSPECIFIED"

            [definition.Struct]
            type = "object"
        "#;
    let (im, diags) = imported(bundle(), text);
    assert!(im.is_none());
    let found: Vec<(&str, &str)> = diags
        .0
        .iter()
        .map(|d| (d.file.as_str(), d.location.as_str()))
        .collect();
    for at in [
        "/message/Nope",
        "/message/TaskStatus/fields/3",
        "/message/TaskStatus/required/1",
        "/message/TaskStatus/oneof/members/1",
        "/message/TaskStatus/deprecated/0",
        "/message/Struct",
        "/enum/Kind/zero",
        "/definition/Struct",
    ] {
        assert!(found.contains(&("overlay.toml", at)), "{at} in {diags}");
    }
    // A list naming only known properties is then checked for repeats and gaps.
    let text = "[message.TaskStatus]\nfields = [\"state\", \"text\", \"text\"]\n";
    let (_, diags) = imported(bundle(), text);
    let text = diags.to_string();
    assert!(text.contains("`text` is listed twice"), "{text}");
    assert!(text.contains("leaves out `metadata`, `pageSize`"), "{text}");
    // A oneof name that gives no Rust name.
    let text = "[message.TaskStatus]\noneof = { name = \"1st\", members = [\"text\"] }\n";
    let (_, diags) = imported(bundle(), text);
    assert_eq!(
        diags.0[0].location, "/message/TaskStatus/oneof/name",
        "{diags}"
    );
    // A member that is also required.
    let text = "[message.TaskStatus]\nrequired = [\"text\"]\noneof = { name = \"v\", members = [\"text\"] }\n";
    let (_, diags) = imported(bundle(), text);
    assert!(
        diags.to_string().contains("also listed in `required`"),
        "{diags}"
    );
}

#[test]
fn our_own_dialect_is_not_imported() {
    let mut diags = Diagnostics::default();
    let own = json!({"$defs": {"A": {"type": "object", "properties": {}}}});
    assert!(import(&source(own.clone()), None, &mut diags).is_none());
    assert!(diags.to_string().contains("own dialect"), "{diags}");
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let types = lower_types(&source(own), None, &mut diags, &mut notes);
    assert!(diags.is_empty() && notes.is_empty() && types.contains_key("A"));
}

#[test]
fn a_published_schema_needs_an_overlay() {
    let mut diags = Diagnostics::default();
    assert!(import(&source(bundle()), None, &mut diags).is_none());
    let text = diags.to_string();
    assert!(
        text.contains("needs an overlay") && text.contains("overlay.toml"),
        "{text}"
    );
    assert!(text.contains("Config::overlay"), "{text}");
}

#[test]
fn lowering_diagnostics_point_back_into_the_published_file_and_the_overlay() {
    let mut schema = bundle();
    schema["definitions"]["Task Status"]["properties"]["bad"] =
        json!({"type": "string", "minLength": 1});
    schema["definitions"]["O Auth Flows"]["properties"]["twice"] =
        json!({"anyOf": enum_any("TWICE_UNSPECIFIED", &["TWICE_A", "TWICE_A"])});
    let text = "[definition.Empty]\ntype = \"object\"\nproperties = {}\nminProperties = 0\n";
    let o = overlay(text);
    let mut diags = Diagnostics::default();
    let mut notes = Vec::new();
    lower_types(&source(schema), Some(&o), &mut diags, &mut notes);
    let found: Vec<(&str, &str)> = diags
        .0
        .iter()
        .map(|d| (d.file.as_str(), d.location.as_str()))
        .collect();
    assert!(
        found.contains(&(
            "a2a.json",
            "/definitions/Task Status/properties/bad/minLength"
        )),
        "{diags}"
    );
    assert!(
        found.contains(&("overlay.toml", "/definition/Empty/minProperties")),
        "{diags}"
    );
    // An enum definition is the import's own: its problems point at the inlined use.
    assert!(
        found.contains(&("a2a.json", "/definitions/O Auth Flows/properties/twice")),
        "{diags}"
    );
    assert_eq!(found.len(), 3, "{diags}");
    assert_eq!(notes.len(), 1);
}

#[test]
fn local_refs_into_either_container_resolve_by_key() {
    let schema = json!({"definitions": {
        "Agent Card": {"type": "object", "properties": {"p": {"$ref": "#/definitions/Agent Provider"}}, "patternProperties": {}},
        "Agent Provider": {"type": "object", "properties": {"n": {"anyOf": int32_any()}}}
    }});
    assert_eq!(detect(&schema), Shape::LocalBundle);
    let im = imported(schema, "").0.unwrap();
    assert_eq!(
        defs_of(&im)["AgentCard"]["properties"]["p"],
        json!({"$ref": "#/$defs/AgentProvider"})
    );
}

/// A small schema in the v0.3 layout.
fn v03() -> Value {
    let rpc = json!({"const": "2.0", "type": "string"});
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "A2AError": {"anyOf": [{"$ref": "#/definitions/JSONRPCError"}, {"$ref": "#/definitions/TaskNotFoundError"}]},
            "DataPart": {"type": "object", "required": ["data", "kind"], "properties": {
                "data": {"additionalProperties": {}, "type": "object"},
                "kind": {"const": "data", "type": "string"}}},
            "FilePart": {"type": "object", "required": ["file", "kind"], "properties": {
                "file": {"anyOf": [{"$ref": "#/definitions/FileWithBytes"}, {"$ref": "#/definitions/FileWithUri"}], "description": "The file."},
                "kind": {"const": "file", "type": "string"}}},
            "FileWithBytes": {"type": "object", "required": ["bytes"], "properties": {
                "bytes": {"type": "string", "description": "Inline."}, "name": {"type": "string"}}},
            "FileWithUri": {"type": "object", "required": ["uri"], "properties": {
                "name": {"type": "string"}, "uri": {"type": "string"}}},
            "JSONRPCError": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"type": "integer"}, "data": {}, "message": {"type": "string"}}},
            "JSONRPCErrorResponse": {"type": "object", "required": ["error", "jsonrpc"], "properties": {
                "error": {"$ref": "#/definitions/JSONRPCError"}, "jsonrpc": rpc}},
            "Message": {"type": "object", "required": ["kind", "role", "version"], "properties": {
                "kind": {"const": "message", "type": "string"},
                "metadata": {"additionalProperties": {}, "type": "object"},
                "mode": {"default": "x", "type": "string"},
                "role": {"enum": ["agent", "user"], "type": "string", "description": "Who."},
                "version": {"default": "1.0", "type": "string"}}},
            "Part": {"anyOf": [{"$ref": "#/definitions/FilePart"}, {"$ref": "#/definitions/DataPart"}], "description": "A part."},
            "PartBase": {"type": "object", "properties": {"metadata": {"additionalProperties": {}, "type": "object"}}},
            "SendMessageRequest": {"type": "object", "required": ["jsonrpc", "method"], "properties": {
                "jsonrpc": rpc, "method": {"const": "message/send", "type": "string"},
                "params": {"$ref": "#/definitions/Message"}}},
            "SendMessageResponse": {"anyOf": [{"$ref": "#/definitions/JSONRPCErrorResponse"}, {"$ref": "#/definitions/SendMessageSuccessResponse"}]},
            "SendMessageSuccessResponse": {"type": "object", "required": ["jsonrpc", "result"], "properties": {
                "jsonrpc": rpc,
                "result": {"anyOf": [{"$ref": "#/definitions/Message"}, {"$ref": "#/definitions/FilePart"}]}}},
            "TaskNotFoundError": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"const": -32001, "type": "integer"},
                "message": {"default": "Task not found", "type": "string"}}}
        }
    })
}

const V03_OVERLAY: &str = r#"
        drop = ["PartBase", "FileWithBytes", "FileWithUri"]

        [union.SendResult]
        at = "/definitions/SendMessageSuccessResponse/properties/result"
        description = "What comes back."

        [union.FileContent]
        at = "/definitions/FilePart/properties/file"
        oneof = "source"

        [enum.Role]
        at = "/definitions/Message/properties/role"
        description = "Sender."

        [message.FileContent]
        fields = ["bytes", "uri", "name"]
    "#;

#[test]
fn the_v03_shape_is_detected() {
    assert_eq!(detect(&v03()), Shape::V03);
    let mut no_draft = v03();
    no_draft.as_object_mut().unwrap().remove("$schema");
    assert_eq!(
        detect(&no_draft),
        Shape::Own,
        "draft-07 is part of the rule"
    );
    let mut untagged = v03();
    for part in ["FilePart", "DataPart", "Message", "TaskNotFoundError"] {
        untagged["definitions"][part]["properties"]
            .as_object_mut()
            .unwrap()
            .retain(|k, _| k != "kind" && k != "code");
    }
    assert_eq!(detect(&untagged), Shape::Own, "no union tagged by a const");
    let defs_container = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$defs": v03()["definitions"].clone()});
    assert_eq!(detect(&defs_container), Shape::Own);
}

#[test]
fn the_json_rpc_layer_of_v03_is_dropped_by_rule_with_one_note() {
    let defs = v03()["definitions"].as_object().unwrap().clone();
    let dropped = dropped_by_rule(&defs, "#/definitions/");
    assert_eq!(
        dropped.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "A2AError",
            "JSONRPCError",
            "JSONRPCErrorResponse",
            "SendMessageRequest",
            "SendMessageResponse",
            "SendMessageSuccessResponse",
            "TaskNotFoundError"
        ]
    );
    let (im, diags) = imported(v03(), V03_OVERLAY);
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    assert_eq!(detect(&v03()), Shape::V03);
    let names: Vec<&String> = defs_of(&im).keys().collect();
    assert_eq!(
        names,
        [
            "DataPart",
            "FilePart",
            "Message",
            "Part",
            "Role",
            "FileContent",
            "SendResult"
        ]
    );
    assert_eq!(im.notes.len(), 1);
    assert!(
        im.notes[0].message.contains("leaves out the 7 definitions"),
        "{}",
        im.notes[0]
    );
    assert_eq!(im.notes[0].location, "/definitions/A2AError");
}

#[test]
fn v03_unions_tagged_by_a_const_become_discriminated_oneofs() {
    let im = imported(v03(), V03_OVERLAY).0.unwrap();
    let defs = defs_of(&im);
    assert_eq!(
        defs["Part"],
        json!({"oneOf": [{"$ref": "#/$defs/FilePart"}, {"$ref": "#/$defs/DataPart"}], "x-discriminator": "kind", "description": "A part."})
    );
    // An inline union of results, named by the overlay.
    assert_eq!(
        defs["SendResult"],
        json!({"oneOf": [{"$ref": "#/$defs/Message"}, {"$ref": "#/$defs/FilePart"}], "x-discriminator": "kind", "description": "What comes back."})
    );
    // The tag is the member every branch pins with a distinct const.
    let any = json!([{"$ref": "#/definitions/FilePart"}, {"$ref": "#/definitions/DataPart"}]);
    let defs = v03()["definitions"].as_object().unwrap().clone();
    assert_eq!(
        tag_of_union(&defs, &any, "#/definitions/"),
        Ok("kind".into())
    );
    let mut same = defs.clone();
    same["DataPart"]["properties"]["kind"]["const"] = "file".into();
    assert!(tag_of_union(&same, &any, "#/definitions/")
        .unwrap_err()
        .contains("no required member pinned with a distinct `const`"));
    let files =
        json!([{"$ref": "#/definitions/FileWithBytes"}, {"$ref": "#/definitions/FileWithUri"}]);
    assert!(tag_of_union(&defs, &files, "#/definitions/").is_err());
}

#[test]
fn v03_file_shapes_merge_into_one_object_with_a_oneof() {
    let im = imported(v03(), V03_OVERLAY).0.unwrap();
    let defs = defs_of(&im);
    assert_eq!(
        defs["FileContent"],
        json!({
            "type": "object",
            "properties": {"bytes": {"type": "string", "description": "Inline."}, "uri": {"type": "string"}, "name": {"type": "string"}},
            "oneOf": [{"required": ["bytes"]}, {"required": ["uri"]}],
            "x-oneof-name": "source"
        })
    );
    assert_eq!(
        defs["FilePart"]["properties"]["file"],
        json!({"$ref": "#/$defs/FileContent", "description": "The file."})
    );
    // Branches that disagree on a member cannot merge.
    let mut schema = v03();
    schema["definitions"]["FileWithUri"]["properties"]["name"] = json!({"type": "integer"});
    let (_, diags) = imported(schema, V03_OVERLAY);
    assert!(
        diags
            .to_string()
            .contains("the branches disagree on the member `name`")
            && diags.0[0].location == "/union/FileContent/oneof",
        "{diags}"
    );
}

#[test]
fn v03_inline_enums_free_form_objects_and_defaults() {
    let im = imported(v03(), V03_OVERLAY).0.unwrap();
    let defs = defs_of(&im);
    assert_eq!(
        defs["Role"],
        json!({"type": "string", "enum": ["agent", "user"], "description": "Sender."})
    );
    let props = &defs["Message"]["properties"];
    assert_eq!(
        props["role"],
        json!({"$ref": "#/$defs/Role", "description": "Who."})
    );
    assert_eq!(props["metadata"], json!({"type": "object"}));
    assert_eq!(
        defs["DataPart"]["properties"]["data"],
        json!({"type": "object"})
    );
    assert_eq!(props["kind"], json!({"const": "message", "type": "string"}));
    // A default on a required member is dropped; on an optional one it is kept.
    assert_eq!(props["version"], json!({"type": "string"}));
    assert_eq!(props["mode"], json!({"default": "x", "type": "string"}));
}

#[test]
fn v03_overlay_mistakes_are_errors_at_their_toml_path() {
    let text = r#"
            drop = ["PartBase", "Nope"]

            [union.Bad]
            at = "/definitions/Message/properties/role"

            [union.Untagged]
            at = "/definitions/FilePart/properties/file"

            [union.Message]
            at = "/definitions/SendMessageSuccessResponse/properties/result"

            [enum.Role]
            at = "/definitions/Message/properties/nothing"

            [enum.Both]
            zero = "X_UNSPECIFIED"
            at = "/definitions/Message/properties/role"
        "#;
    let (im, diags) = imported(v03(), text);
    assert!(im.is_none());
    let found: Vec<(&str, &str)> = diags
        .0
        .iter()
        .map(|d| (d.file.as_str(), d.location.as_str()))
        .collect();
    for at in [
        "/drop/1",
        "/union/Bad/at",
        "/union/Untagged/at",
        "/union/Message",
        "/enum/Role/at",
        "/enum/Both",
    ] {
        assert!(found.contains(&("overlay.toml", at)), "{at} in {diags}");
    }
    let text = diags.to_string();
    assert!(text.contains("is not a tagged union"), "{text}");
    // A kept definition that refers to a dropped one.
    let text = V03_OVERLAY.replace("\"FileWithUri\"]", "\"FileWithUri\", \"DataPart\"]");
    let (_, diags) = imported(v03(), &text);
    assert!(
        diags.0.iter().any(|d| d.file == "a2a.json"
            && d.location == "/definitions/Part/anyOf/1/$ref"
            && d.message.contains("`DataPart`, which is not generated")),
        "{diags}"
    );
}

#[test]
fn v03_lowering_diagnostics_point_back_into_the_published_file_and_the_overlay() {
    let mut schema = v03();
    schema["definitions"]["DataPart"]["properties"]["data"]["minProperties"] = 1.into();
    schema["definitions"]["FileWithUri"]["properties"]["uri"]["minLength"] = 1.into();
    let o = overlay(V03_OVERLAY);
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let types = lower_types(&source(schema), Some(&o), &mut diags, &mut notes);
    assert!(types.is_empty() || !diags.is_empty());
    let found: Vec<(&str, &str)> = diags
        .0
        .iter()
        .map(|d| (d.file.as_str(), d.location.as_str()))
        .collect();
    assert!(
        found.contains(&(
            "a2a.json",
            "/definitions/DataPart/properties/data/minProperties"
        )),
        "{diags}"
    );
    assert!(
        found.contains(&("overlay.toml", "/union/FileContent")),
        "{diags}"
    );
    // Without mistakes, the small schema lowers: Part is a tagged union on `kind`.
    let o = overlay(V03_OVERLAY);
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let types = lower_types(&source(v03()), Some(&o), &mut diags, &mut notes);
    assert!(diags.is_empty(), "{diags}");
    assert!(matches!(types["Part"].kind, crate::ir::TypeKind::Tagged(_)));
    assert!(matches!(
        types["FileContent"].kind,
        crate::ir::TypeKind::Struct(ref s) if s.oneof.is_some()
    ));
}

#[test]
fn sixty_four_bit_integer_any_ofs_become_our_type_array() {
    use super::idioms::wide_integer;
    let int64 = json!([{"type": "integer"}, {"type": "string", "pattern": "^-?[0-9]+$"}]);
    let uint64 =
        json!([{"type": "string", "pattern": "^[0-9]+$"}, {"type": "integer", "minimum": 0}]);
    assert_eq!(wide_integer(&int64), Some("int64"));
    assert_eq!(wide_integer(&uint64), Some("uint64"), "either order");
    let bounded = json!([
        {"type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX},
        {"type": "string", "pattern": "^-?[0-9]+$"}
    ]);
    assert_eq!(
        wide_integer(&bounded),
        Some("int64"),
        "the type's own bounds"
    );
    let bounded = json!([
        {"type": "integer", "minimum": 0, "maximum": u64::MAX},
        {"type": "string", "pattern": "^[0-9]+$"}
    ]);
    assert_eq!(wide_integer(&bounded), Some("uint64"));
    for not in [
        int32_any(),
        json!([{"type": "integer", "minimum": 0, "maximum": 4294967295_u32}, {"type": "string", "pattern": "^[0-9]+$"}]),
        json!([{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]),
        json!([{"type": "integer", "minimum": 0}, {"type": "string", "pattern": "^-?[0-9]+$"}]),
        json!([{"type": "integer", "format": "uint64"}, {"type": "string", "pattern": "^-?[0-9]+$"}]),
        json!([{"type": "integer", "multipleOf": 2}, {"type": "string", "pattern": "^-?[0-9]+$"}]),
        json!([{"type": "integer"}, {"type": "string"}]),
        json!([{"type": "integer"}]),
    ] {
        assert_eq!(wide_integer(&not), None, "{not}");
    }

    let schema = json!({"$defs": {"Task": {"type": "object", "properties": {
        "generation": {"anyOf": int64, "default": 0, "description": "Counter."},
        "size": {"anyOf": uint64, "default": "0"},
        "id": {"type": "string"}
    }}}});
    assert_eq!(detect(&schema), Shape::LocalBundle);
    let (im, diags) = imported(
        schema,
        "[message.Task]\nfields = [\"id\", \"generation\", \"size\"]\n",
    );
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    let props = &defs_of(&im)["Task"]["properties"];
    assert_eq!(
        props["generation"],
        json!({"type": ["integer", "string"], "format": "int64", "description": "Counter."}),
        "zero default dropped"
    );
    assert_eq!(
        props["size"],
        json!({"type": ["integer", "string"], "format": "uint64"})
    );
    let mut diags = Diagnostics::default();
    let types = crate::lower::lower_schema(&im.schema, &mut diags);
    assert!(diags.is_empty(), "{diags}");
    let crate::ir::TypeKind::Struct(task) = &types["Task"].kind else {
        panic!("Task is a struct")
    };
    let tys: Vec<_> = task.fields.iter().map(|f| f.ty.clone()).collect();
    assert_eq!(
        tys,
        [
            crate::ir::TypeRef::String,
            crate::ir::TypeRef::Int64,
            crate::ir::TypeRef::UInt64
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// bufbuild's json-bundle: `$defs` keyed by full proto names plus `.jsonschema.json`.

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A small json-bundle as protoc-gen-jsonschema writes it (`target=json-bundle`).
fn json_bundle() -> Value {
    json!({
        "$schema": DRAFT,
        "$id": "lf.demo.v1.Ping.jsonschema.bundle.json",
        "$ref": "#/$defs/lf.demo.v1.Ping.jsonschema.json",
        "$defs": {
            "google.protobuf.Struct.jsonschema.json": {"$schema": DRAFT, "title": "Struct", "type": "object"},
            "lf.demo.v1.Ping.jsonschema.json": {
                "$schema": DRAFT,
                "additionalProperties": false,
                "description": "A ping.",
                "title": "Ping",
                "type": "object",
                "patternProperties": {
                    "^(page_size)$": {"anyOf": int32_any()},
                    "^(request_id)$": {"type": "string", "default": ""}
                },
                "properties": {
                    "metadata": {"$ref": "#/$defs/google.protobuf.Struct.jsonschema.json"},
                    "pageSize": {"anyOf": int32_any()},
                    "requestId": {"type": "string", "default": ""},
                    "role": {"anyOf": enum_any("ROLE_UNSPECIFIED", &["ROLE_USER"]), "default": 0, "title": "Role"},
                    "text": {"type": "string"},
                    "data": {"$ref": "#/$defs/google.protobuf.Struct.jsonschema.json"}
                }
            }
        }
    })
}

/// The oneof constraint of a newer plugin: one `oneOf` branch per accepted name, one for none.
fn oneof_constraint(names: &[&str]) -> Value {
    let mut branches: Vec<Value> = names.iter().map(|n| json!({"required": [n]})).collect();
    branches.push(json!({"propertyNames": {"not": {"enum": names}}}));
    json!({"oneOf": branches})
}

const PING_OVERLAY: &str = r#"
    [message.Ping]
    fields = ["requestId", "role", "pageSize", "text", "data", "metadata"]
    required = ["requestId"]
    oneof = { name = "body", members = ["text", "data"] }
"#;

#[test]
fn json_bundles_are_detected_by_their_keys() {
    assert_eq!(detect(&json_bundle()), Shape::JsonBundle);
    // Any of the plugin's suffixes makes one (the others are refused when imported).
    let strict = json!({"$defs": {"lf.demo.v1.Ping.jsonschema.strict.json": {"type": "object"}}});
    assert_eq!(detect(&strict), Shape::JsonBundle);
    let proto_names = json!({"$defs": {"lf.demo.v1.Ping.schema.json": {"type": "object"}}});
    assert_eq!(detect(&proto_names), Shape::JsonBundle);
    // Under `definitions` it is the v1.0.x bundle's container, not a json-bundle.
    let titles = json!({"definitions": {"lf.demo.v1.Ping.jsonschema.json": {"type": "object"}}});
    assert_ne!(detect(&titles), Shape::JsonBundle);
    // The same bundle after A2A's script shortens its names is the local layout.
    let short = json!({"$defs": {"Ping": {"type": "object", "properties": {"pageSize": {"anyOf": int32_any()}}}}});
    assert_eq!(detect(&short), Shape::LocalBundle);
    assert_eq!(type_name("lf.demo.v1.Ping.schema.strict.json"), "Ping");
    assert_eq!(type_name("lf.demo.v1.Outer.Inner.jsonschema.json"), "Inner");
}

#[test]
fn a_json_bundle_is_rewritten_like_the_other_published_layouts() {
    let (im, diags) = imported(json_bundle(), PING_OVERLAY);
    assert!(diags.is_empty(), "{diags}");
    let im = im.unwrap();
    let root = im.schema.value.as_object().unwrap();
    assert_eq!(
        root.keys().collect::<Vec<_>>(),
        ["$schema", "$defs"],
        "$id and the entry point are dropped"
    );
    let defs = defs_of(&im);
    assert_eq!(defs["Struct"], json!({"type": "object"}));
    assert_eq!(
        defs["Role"]["enum"],
        json!(["ROLE_UNSPECIFIED", "ROLE_USER"])
    );
    let ping = &defs["Ping"];
    assert_eq!(ping["description"], "A ping.");
    assert_eq!(ping["required"], json!(["requestId"]));
    assert_eq!(ping["x-oneof-name"], "body");
    let props = &ping["properties"];
    assert_eq!(props["metadata"], json!({"$ref": "#/$defs/Struct"}));
    assert_eq!(props["role"], json!({"$ref": "#/$defs/Role"}));
    assert_eq!(
        props["pageSize"],
        json!({"type": "integer", "format": "int32"})
    );
    assert_eq!(props["requestId"], json!({"type": "string"}));
    assert_eq!(im.notes.len(), 1, "{:?}", im.notes);
    assert!(im.notes[0].message.contains("closes 1 message "));
    // It lowers: the oneof from the overlay, the aliases derived.
    let o = overlay(PING_OVERLAY);
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let types = lower_types(&source(json_bundle()), Some(&o), &mut diags, &mut notes);
    assert!(diags.is_empty(), "{diags}");
    let crate::ir::TypeKind::Struct(ping) = &types["Ping"].kind else {
        panic!("{:?}", types["Ping"]);
    };
    assert_eq!(ping.oneof.as_ref().unwrap().group.members.len(), 2);
    let aliases: Vec<_> = ping
        .fields
        .iter()
        .filter_map(|f| f.alias.as_deref())
        .collect();
    assert_eq!(aliases, ["request_id", "page_size"]);
}

#[test]
fn enums_of_fields_with_presence_list_their_zero_value_first() {
    let mut schema = json_bundle();
    let props = &mut schema["$defs"]["lf.demo.v1.Ping.jsonschema.json"]["properties"];
    let int = &int32_any()[0];
    // proto3 `optional`, a oneof member, a list item: no `pattern` branch, zero among the names.
    props["role"] = json!({"anyOf": [{"type": "string", "enum": ["ROLE_UNSPECIFIED", "ROLE_USER"]}, int], "title": "Role"});
    props["roles"] = json!({"type": "array", "items": {"anyOf": [{"type": "string", "enum": ["ROLE_UNSPECIFIED", "ROLE_USER"]}, int], "title": "Role"}});
    let text = PING_OVERLAY.replace("\"metadata\"]", "\"metadata\", \"roles\"]");
    let (im, diags) = imported(schema, &text);
    assert!(diags.is_empty(), "{diags}");
    let defs = defs_of(im.as_ref().unwrap());
    assert_eq!(
        defs["Role"]["enum"],
        json!(["ROLE_UNSPECIFIED", "ROLE_USER"])
    );
    assert_eq!(
        defs["Ping"]["properties"]["roles"],
        json!({"type": "array", "items": {"$ref": "#/$defs/Role"}})
    );
    // The other spelling of the same enum elsewhere agrees with it.
    assert_eq!(
        super::idioms::inlined_enum(&enum_any("ROLE_UNSPECIFIED", &["ROLE_USER"])),
        super::idioms::inlined_enum(
            &json!([{"type": "string", "enum": ["ROLE_UNSPECIFIED", "ROLE_USER"]}, int])
        )
    );
}

#[test]
fn oneof_constraints_are_held_against_the_overlay() {
    let ping = "lf.demo.v1.Ping.jsonschema.json";
    let with = |constraint: Value| {
        let mut schema = json_bundle();
        schema["$defs"][ping]["allOf"] = json!([constraint]);
        schema
    };
    // Both spellings of the plugin, members by JSON and proto name: what the overlay says.
    let newer = with(oneof_constraint(&["text", "data"]));
    let (im, diags) = imported(newer.clone(), PING_OVERLAY);
    assert!(diags.is_empty(), "{diags}");
    let ping_def = &defs_of(im.as_ref().unwrap())["Ping"];
    assert!(ping_def.get("allOf").is_none());
    assert_eq!(
        ping_def["oneOf"],
        json!([{"required": ["text"]}, {"required": ["data"]}])
    );
    let older = with(json!({"anyOf": [
        {"required": ["data"], "not": {"required": ["text"]}},
        {"required": ["text"], "not": {"required": ["data"]}},
        {"not": {"required": ["data", "text"]}}
    ]}));
    let (_, diags) = imported(older, PING_OVERLAY);
    assert!(diags.is_empty(), "{diags}");
    let by_alias = with(oneof_constraint(&["pageSize", "page_size", "text"]));
    let text = PING_OVERLAY.replace("[\"text\", \"data\"]", "[\"pageSize\", \"text\"]");
    let (_, diags) = imported(by_alias, &text);
    assert!(diags.is_empty(), "{diags}");

    // The overlay lacks the oneof: at the schema's constraint, saying what to add.
    let text = PING_OVERLAY.replace(
        "oneof = { name = \"body\", members = [\"text\", \"data\"] }",
        "",
    );
    let (im, diags) = imported(newer.clone(), &text);
    assert!(im.is_none());
    let d = &diags.0[0];
    assert_eq!(
        (d.file.as_str(), d.location.as_str()),
        ("a2a.json", "/$defs/lf.demo.v1.Ping.jsonschema.json/allOf/0"),
        "{diags}"
    );
    assert!(
        d.message
            .contains("a oneof of `text`, `data`, which the overlay does not declare"),
        "{diags}"
    );
    assert!(
        diags
            .to_string()
            .contains("members = [\"text\", \"data\"] }` to [message.Ping] in overlay.toml"),
        "{diags}"
    );
    // Other members: at the overlay's list.
    let text = PING_OVERLAY.replace("[\"text\", \"data\"]", "[\"text\", \"metadata\"]");
    let (_, diags) = imported(newer.clone(), &text);
    assert_eq!(diags.0.len(), 1, "{diags}");
    assert_eq!(
        (diags.0[0].file.as_str(), diags.0[0].location.as_str()),
        ("overlay.toml", "/message/Ping/oneof/members")
    );
    assert!(diags.0[0]
        .message
        .contains("lists `text`, `metadata`, but the schema's constraint"));
    // A schema that marks oneofs and none on a message the overlay gives one: stale overlay.
    let mut two = newer.clone();
    two["$defs"]["lf.demo.v1.Pong.jsonschema.json"] =
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
    let text = format!(
        "{PING_OVERLAY}\n[message.Pong]\noneof = {{ name = \"x\", members = [\"a\", \"b\"] }}\n"
    );
    let (_, diags) = imported(two, &text);
    assert!(
        diags.0.iter().any(|d| d.file == "overlay.toml"
            && d.location == "/message/Pong/oneof"
            && d.message.contains("has no constraint there")),
        "{diags}"
    );
    // Malformed constraints and a second oneof: errors at their pointers, no panic.
    for (bad, why) in [
        (
            json!({"oneOf": [{"required": ["nope"]}]}),
            "`nope` is neither a property",
        ),
        (
            json!({"oneOf": [{"required": ["text", "data"]}]}),
            "must name one property",
        ),
        (
            json!({"oneOf": [{"minProperties": 1}]}),
            "branch 0 has `minProperties`",
        ),
        (
            json!({"oneOf": {"required": ["text"]}}),
            "branches must be an array",
        ),
        (json!({"not": {}}), "must be `{\"oneOf\": [...]}`"),
        (
            json!({"anyOf": [{"not": {"required": ["text"]}}]}),
            "no branch names a member",
        ),
        (
            json!({"oneOf": [{"required": ["text"]}, {"propertyNames": {"pattern": "x"}}]}),
            "`propertyNames` of branch 1",
        ),
        (json!(7), "an entry must be an object"),
    ] {
        let (im, diags) = imported(with(bad.clone()), PING_OVERLAY);
        assert!(im.is_none(), "{bad}");
        assert!(
            diags.0.iter().any(
                |d| d.location == "/$defs/lf.demo.v1.Ping.jsonschema.json/allOf/0"
                    && d.message.contains(why)
                    && d.help
                        .as_deref()
                        .is_some_and(|h| h.contains("oneof constraints"))
            ),
            "{bad}: {diags}"
        );
    }
    let mut twice = json_bundle();
    twice["$defs"][ping]["allOf"] = json!([
        oneof_constraint(&["text", "data"]),
        oneof_constraint(&["pageSize", "role"])
    ]);
    let (_, diags) = imported(twice, PING_OVERLAY);
    assert!(
        diags
            .0
            .iter()
            .any(|d| d.location.ends_with("/allOf/1")
                && d.message.contains("second oneof constraint")),
        "{diags}"
    );
    let mut not_a_list = json_bundle();
    not_a_list["$defs"][ping]["allOf"] = json!({});
    let (_, diags) = imported(not_a_list, PING_OVERLAY);
    assert!(
        diags.to_string().contains("`allOf` must be an array"),
        "{diags}"
    );
}

#[test]
fn number_types_the_model_lacks_are_errors_naming_the_protobuf_type() {
    use super::idioms::wide_number;
    let non_finite = json!({"type": "string", "enum": ["Infinity", "-Infinity", "NaN"]});
    // (int64 and uint64 are read as the model's 64-bit integers first: see
    // `sixty_four_bit_integer_any_ofs_become_our_type_array`.)
    let cases = [
        (
            json!([{"type": "integer", "minimum": 0, "maximum": 4294967295u64}, {"type": "string", "pattern": "^[0-9]+$"}]),
            "uint32",
        ),
        (
            json!([{"type": "number", "minimum": -3.4028234663852886e38, "maximum": 3.4028234663852886e38}, non_finite, {"type": "string"}]),
            "float",
        ),
        (
            json!([{"type": "number"}, non_finite, {"type": "string"}]),
            "double",
        ),
    ];
    for (any, kind) in &cases {
        assert_eq!(wide_number(any), Some(*kind), "{any}");
    }
    assert_eq!(wide_number(&int32_any()), None);
    assert_eq!(
        wide_number(&json!([{"type": "integer"}, {"type": "string"}])),
        None
    );
    let mut schema = json_bundle();
    for (i, (any, _)) in cases.iter().enumerate() {
        schema["$defs"]["lf.demo.v1.Ping.jsonschema.json"]["properties"][format!("n{i}")] =
            json!({"anyOf": any, "default": 0});
    }
    let (im, diags) = imported(schema, "");
    assert!(im.is_none());
    for (i, (_, kind)) in cases.iter().enumerate() {
        let at = format!("/$defs/lf.demo.v1.Ping.jsonschema.json/properties/n{i}");
        assert!(
            diags.0.iter().any(|d| d.location == at
                && d.message.contains(&format!(
                    "how protoc-gen-jsonschema writes a protobuf {kind}"
                ))
                && d.help.is_some()),
            "{kind}: {diags}"
        );
    }
}

#[test]
fn other_outputs_of_the_plugin_are_refused_with_the_target_to_use() {
    for (key, what) in [
        ("lf.demo.v1.Ping.schema.json", "proto field names"),
        ("lf.demo.v1.Ping.jsonschema.strict.json", "strict output"),
        ("lf.demo.v1.Ping.schema.strict.json", "strict output"),
    ] {
        let schema =
            json!({"$defs": {key: {"type": "object", "properties": {"text": {"type": "string"}}}}});
        let (im, diags) = imported(schema, "");
        assert!(im.is_none());
        let d = diags
            .0
            .iter()
            .find(|d| d.location == format!("/$defs/{key}"))
            .unwrap_or_else(|| panic!("{key}: {diags}"));
        assert!(d.message.contains(what), "{d}");
        assert!(
            d.help.as_deref().unwrap().contains("target=json-bundle"),
            "{d}"
        );
    }
}

#[test]
fn a_json_bundle_entry_point_must_name_a_definition() {
    let mut schema = json_bundle();
    schema["$ref"] = json!("#/$defs/lf.demo.v1.Gone.jsonschema.json");
    let (_, diags) = imported(schema.clone(), PING_OVERLAY);
    assert!(
        diags
            .0
            .iter()
            .any(|d| d.location == "/$ref" && d.message.contains("not defined")),
        "{diags}"
    );
    schema["$ref"] = json!(3);
    let (_, diags) = imported(schema, PING_OVERLAY);
    assert!(
        diags.to_string().contains("`$ref` must be a string"),
        "{diags}"
    );
}
