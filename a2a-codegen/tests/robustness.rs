//! The generator never panics and never emits invalid Rust, whatever schema it is given: every
//! input either generates code that parses, or fails with input diagnostics.

use a2a_codegen::{Config, Error};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Keys a schema might use, valid or not, so random inputs reach deep into the lowering code.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "additionalProperties",
    "enum",
    "const",
    "default",
    "format",
    "oneOf",
    "x-oneof-name",
    "x-discriminator",
    "$ref",
    "description",
    "deprecated",
    "examples",
    "anyOf",
    "pattern",
    "self",
    "Self",
    "type_",
    "r#x",
    "",
    "9lives",
    "fooBar",
    "foo_bar",
    "Unrecognized",
    "text",
    "crate",
];
const STRINGS: &[&str] = &[
    "object",
    "string",
    "integer",
    "number",
    "boolean",
    "array",
    "null",
    "int32",
    "int64",
    "byte",
    "date-time",
    "#/$defs/A",
    "#/$defs/B",
    "#/$defs/",
    "#/definitions/A",
    "A",
    "B",
    "content",
    "kind",
    "status-update",
    "SELF",
    "X_1",
    "1",
    "é",
    "",
];

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..3).prop_map(Value::from),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

/// A schema whose `$defs` hold random definitions named A, B and a few odd names.
fn schema() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(&["A", "B", "Self", "Agent Card", "AContent", "type"][..]);
    prop::collection::vec((names, json()), 0..4).prop_map(|defs| {
        let defs: Map<String, Value> = defs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        serde_json::json!({ "$defs": defs })
    })
}

/// A tagged union over A and B whose branches are well formed or broken at random: the tag pinned
/// or not, required or not, clashing values, a missing keyword.
fn tagged_schema() -> impl Strategy<Value = Value> {
    let value =
        prop::sample::select(&["text", "file", "status-update", "status_update", "1x", ""][..]);
    // Mostly well formed, so that a good share of the cases generate code.
    let likely = || prop::bool::weighted(0.8);
    let branch = (value, likely(), likely()).prop_map(|(value, pinned, required)| {
        let kind = if pinned {
            serde_json::json!({ "const": value })
        } else {
            serde_json::json!({ "type": "string" })
        };
        let mut def = serde_json::json!({ "type": "object", "properties": { "kind": kind, "n": { "type": "integer" } } });
        if required {
            def["required"] = serde_json::json!(["kind"]);
        }
        def
    });
    (
        branch.clone(),
        branch,
        likely(),
        any::<bool>(),
        prop::option::of(json()),
    )
        .prop_map(|(a, b, keyword, nested, extra)| {
            let mut union =
                serde_json::json!({ "oneOf": [{ "$ref": "#/$defs/A" }, { "$ref": "#/$defs/B" }] });
            if keyword {
                union["x-discriminator"] = "kind".into();
            }
            let mut defs = serde_json::json!({ "A": a, "B": b, "U": union });
            if let Some(extra) = extra {
                defs["C"] = extra;
            }
            if nested {
                defs["A"]["properties"]["u"] =
                    serde_json::json!({ "type": "array", "items": { "$ref": "#/$defs/U" } });
            }
            serde_json::json!({ "$defs": defs })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_schemas_generate_or_fail_cleanly(schema in schema(), preserve in any::<bool>()) {
        let mut config = Config::new("unused");
        config.source_label("random.json").preserve_unknown_fields(preserve);
        match config.generate_from_str(&schema.to_string()) {
            Ok(files) => {
                for f in files {
                    prop_assert!(syn::parse_file(&f.contents).is_ok(), "{} does not parse", f.path);
                }
            }
            Err(Error::Input(diags)) => prop_assert!(!diags.0.is_empty()),
            Err(other) => prop_assert!(false, "unexpected error for {}: {}", schema, other),
        }
    }

    #[test]
    fn random_tagged_unions_generate_or_fail_cleanly(schema in tagged_schema(), preserve in any::<bool>()) {
        let mut config = Config::new("unused");
        config.source_label("random.json").preserve_unknown_fields(preserve);
        match config.generate_from_str(&schema.to_string()) {
            Ok(files) => {
                for f in files {
                    prop_assert!(syn::parse_file(&f.contents).is_ok(), "{} does not parse", f.path);
                }
            }
            Err(Error::Input(diags)) => prop_assert!(!diags.0.is_empty()),
            Err(other) => prop_assert!(false, "unexpected error for {}: {}", schema, other),
        }
    }

    #[test]
    fn arbitrary_bytes_are_a_clean_error(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Config::new("unused").generate_from_str(&text);
    }
}

/// Field declarations for random messages, as (type and name, options): most compile, and
/// together they reach every refusal of the proto lowering.
const PROTO_FIELDS: &[(&str, &str)] = &[
    ("string a", ""),
    ("int32 b", " [(google.api.field_behavior) = REQUIRED]"),
    ("optional bool c", ""),
    ("repeated B d", ""),
    ("map<string, A> e", ""),
    ("map<int32, string> f", ""),
    ("int64 g", ""),
    ("uint32 h", ""),
    ("google.protobuf.Struct i", ""),
    ("google.protobuf.Value j", ""),
    ("google.protobuf.Any k", ""),
    ("E l", ""),
    ("bytes m", " [deprecated = true]"),
    ("string type", ""),
    ("string self", ""),
    ("A own", ""),
    ("float n", ""),
    ("string o", " [json_name = \"a\"]"),
];

/// Whole declarations, well formed or not.
const PROTO_EXTRAS: &[&str] = &[
    "enum F { option allow_alias = true; F_UNSPECIFIED = 0; F_ONE = 1; F_TWO = 1; }",
    "message Value { string v = 1; }",
    "message Outer { message Inner { string x = 1; } Inner inner = 1; }",
    "service S { rpc Get(A) returns (B) { option (google.api.http) = { get: \"/a/{a}\" }; } }",
    "service S { rpc Get(A) returns (B) { option (google.api.http) = { post: \"/b\" body: \"zz\" }; } }",
    "service S { rpc Watch(A) returns (stream B); rpc Put(stream A) returns (google.protobuf.Empty); }",
    "extend google.protobuf.FieldOptions { string unit = 50000; }",
    "message {",
    "}",
];

/// A message named `name` with the given fields, some of them in a oneof (named with a suffix,
/// so that they differ from the fields).
fn proto_message(name: &'static str) -> impl Strategy<Value = String> {
    (
        prop::sample::subsequence(PROTO_FIELDS, 0..6),
        prop::sample::subsequence(PROTO_FIELDS, 0..3),
    )
        .prop_map(move |(fields, oneof)| {
            let mut text = format!("message {name} {{\n");
            let mut number = 1;
            for (decl, options) in fields {
                text.push_str(&format!("  {decl} = {number}{options};\n"));
                number += 1;
            }
            if !oneof.is_empty() {
                text.push_str("  oneof pick {\n");
                for (decl, options) in oneof {
                    text.push_str(&format!("    {decl}_in_pick = {number}{options};\n"));
                    number += 1;
                }
                text.push_str("  }\n");
            }
            text.push_str("}\n");
            text
        })
}

fn proto_source() -> impl Strategy<Value = String> {
    (
        proto_message("A"),
        proto_message("B"),
        prop::sample::subsequence(PROTO_EXTRAS, 0..3),
    )
        .prop_map(|(a, b, extras)| {
            let mut text = String::from(
                "syntax = \"proto3\";\npackage r;\nimport \"google/api/annotations.proto\";\n\
                 import \"google/api/field_behavior.proto\";\nimport \"google/protobuf/any.proto\";\n\
                 import \"google/protobuf/empty.proto\";\nimport \"google/protobuf/struct.proto\";\n\
                 import \"google/protobuf/descriptor.proto\";\n\
                 enum E { E_UNSPECIFIED = 0; E_ONE = 1; }\n",
            );
            text.push_str(&a);
            text.push_str(&b);
            for extra in extras {
                text.push_str(extra);
                text.push('\n');
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_protos_generate_or_fail_cleanly(source in proto_source()) {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("random-protos");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("random.proto");
        std::fs::write(&path, &source).unwrap();
        match Config::new(&path).source_label("random.proto").generate() {
            Ok(files) => {
                for f in files {
                    prop_assert!(syn::parse_file(&f.contents).is_ok(), "{} does not parse", f.path);
                }
            }
            Err(Error::Input(diags)) => prop_assert!(!diags.0.is_empty()),
            Err(other) => prop_assert!(false, "unexpected error for {}: {}", source, other),
        }
    }
}
