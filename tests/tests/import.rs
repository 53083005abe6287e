//! The official schema as published: the v1.0.1 bundle the A2A project serves (`a2a.json`, read
//! from `shared/` through [`a2a_tests::shared_path`], never copied into the checkout) and the
//! newer layout of its generator (upstream PR #2074: `$defs` keyed by message names, local
//! `$ref`s; built here from the bundle, as no file of it exists yet), each completed by
//! `spec/v1/overlay.toml`, lower to the same model as our own `spec/v1/a2a.schema.json` and
//! generate the same code. So does the format that generator runs on, bufbuild's
//! `protoc-gen-jsonschema` with `target=json-bundle`, from the hand-made fixture
//! `a2a-codegen/tests/fixtures/bufbuild/` (in the checkout: no release has published one), in
//! every spelling the plugin's versions give it. Plus the import's errors, as golden fixtures in
//! `a2a-codegen/tests/fixtures/import/` (`A2A_BLESS=1` rewrites the expected `.stderr`, through
//! the golden helper the generator's own tests use).

#[path = "../../a2a-codegen/tests/support/golden.rs"]
mod golden;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use a2a_codegen::ir::{TypeDef, TypeKind};
// The stages one by one, as the unstable feature `unstable-internals` exposes them for tests.
use a2a_codegen::internals::{self as load, lower_schema};
use a2a_codegen::internals::{self as import, Shape, Source};
use a2a_codegen::{Config, Diagnostics, Error, GeneratedFile};
use a2a_tests::{shared_path, workspace_root};
use serde_json::{json, Map, Value};

const BUNDLE: &str = "a2a-spec/v1.0/a2a.json";
/// The official v0.3.0 schema (`specification/json/a2a.json` at tag v0.3.0).
const V03: &str = "a2a-spec/v0.3.0/a2a.json";

fn spec_v1() -> PathBuf {
    workspace_root().join("spec/v1")
}

fn spec_v0_3() -> PathBuf {
    workspace_root().join("spec/v0_3")
}

fn read_schema(path: &Path, label: &str) -> Source<Value> {
    let mut diags = Diagnostics::default();
    load::read_json(path, label, &mut diags).unwrap_or_else(|| panic!("{diags}"))
}

fn bundle(what: &str) -> Option<Source<Value>> {
    shared_path(what, BUNDLE).map(|path| read_schema(&path, "a2a.json"))
}

fn our_overlay() -> Source<import::Overlay> {
    let mut diags = Diagnostics::default();
    import::read_overlay(
        &spec_v1().join("overlay.toml"),
        "spec/v1/overlay.toml",
        &mut diags,
    )
    .unwrap_or_else(|| panic!("{diags}"))
}

/// The model of `spec/v1/a2a.schema.json`, our own dialect.
fn our_types() -> BTreeMap<String, TypeDef> {
    let schema = read_schema(
        &spec_v1().join("a2a.schema.json"),
        "spec/v1/a2a.schema.json",
    );
    assert_eq!(import::detect(&schema.value), Shape::Own);
    let mut diags = Diagnostics::default();
    let types = lower_schema(&schema, &mut diags);
    assert!(diags.is_empty(), "{diags}");
    types
}

/// The model of a published schema with our overlay; asserts the one note about
/// `additionalProperties: false`.
fn imported_types(schema: &Source<Value>) -> BTreeMap<String, TypeDef> {
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let types = import::lower_types(schema, Some(&our_overlay()), &mut diags, &mut notes);
    assert!(diags.is_empty(), "{diags}");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0]
            .message
            .contains("closes 44 messages with `additionalProperties: false`"),
        "{}",
        notes[0]
    );
    types
}

/// The model without what may differ between the inputs: descriptions, JSON pointers, and the
/// protobuf field numbers, which our schema carries (`x-field-number`) and no published schema
/// does (a module generated from one cannot have the protobuf codec; docs/generating.md).
fn without_docs(types: &BTreeMap<String, TypeDef>) -> BTreeMap<String, TypeDef> {
    let mut types = types.clone();
    for def in types.values_mut() {
        def.doc = None;
        def.pointer.clear();
        let group = match &mut def.kind {
            TypeKind::Struct(s) => {
                for field in &mut s.fields {
                    field.doc = None;
                    field.pointer.clear();
                    field.number = None;
                }
                s.oneof.as_mut().map(|o| &mut o.group)
            }
            TypeKind::OneOf(group) => Some(group),
            TypeKind::Enum(_) | TypeKind::Alias(_) | TypeKind::Tagged(_) => None,
            // The IR is `#[non_exhaustive]`; a new kind with docs of its own would make the
            // compared models differ, so it cannot pass unnoticed.
            _ => None,
        };
        for member in group.into_iter().flat_map(|g| &mut g.members) {
            member.doc = None;
            member.number = None;
        }
    }
    types
}

/// Panics with a per-type diff (`-` spec/v1, `+` the published schema) unless the maps are equal.
fn assert_same<T: Debug + PartialEq>(
    what: &str,
    expected: &BTreeMap<String, T>,
    actual: &BTreeMap<String, T>,
) {
    let mut report = String::new();
    for name in expected
        .keys()
        .chain(actual.keys().filter(|k| !expected.contains_key(*k)))
    {
        match (expected.get(name), actual.get(name)) {
            (Some(e), Some(a)) if e == a => {}
            (Some(e), Some(a)) => report.push_str(&format!(
                "\n== {name} differs (- ours, + {what}):\n{}",
                golden::line_diff(&format!("{e:#?}"), &format!("{a:#?}"))
            )),
            (Some(_), None) => report.push_str(&format!("\n== {name}: missing from {what}\n")),
            (None, _) => report.push_str(&format!("\n== {name}: only in {what}\n")),
        }
    }
    assert!(report.is_empty(), "{what} is not our model:{report}");
}

/// The bundle rewritten the way the A2A generator script writes it since PR #2074 (its
/// `clean_schema_names.py`): `$defs` keyed by message names, refs `#/$defs/Name`, no `$schema`
/// inside definitions. Everything else (inlined enums, `patternProperties`, `additionalProperties:
/// false`, `default`s) stays as published.
fn newer_layout(bundle: &Value) -> Value {
    fn clean(name: &str) -> String {
        let name = name.strip_suffix(".jsonschema.json").unwrap_or(name);
        let name = name.strip_prefix("lf.a2a.v1.").unwrap_or(name);
        let name = name.strip_prefix("google.protobuf.").unwrap_or(name);
        name.replace(' ', "")
    }
    fn rewrite_refs(value: &mut Value) {
        match value {
            Value::Object(obj) => {
                if let Some(Value::String(target)) = obj.get_mut("$ref") {
                    *target = format!("#/$defs/{}", clean(target));
                }
                obj.values_mut().for_each(rewrite_refs);
            }
            Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
            _ => {}
        }
    }
    let mut root = bundle.as_object().expect("the bundle is an object").clone();
    let defs = root
        .remove("definitions")
        .expect("the bundle has `definitions`");
    let mut new_defs = Map::new();
    for (key, mut def) in defs.as_object().expect("an object").clone() {
        def.as_object_mut().expect("a schema").remove("$schema");
        rewrite_refs(&mut def);
        new_defs.insert(clean(&key), def);
    }
    root.insert("$defs".into(), Value::Object(new_defs));
    Value::Object(root)
}

#[test]
fn the_official_bundle_with_our_overlay_lowers_to_the_model_of_spec_v1() {
    let Some(bundle) = bundle("import: the official v1.0.1 bundle") else {
        return;
    };
    assert_eq!(import::detect(&bundle.value), Shape::Bundle);
    let ours = our_types();
    let published = imported_types(&bundle);
    assert_eq!(ours.len(), 50);
    assert_same(
        "the v1.0.1 bundle",
        &without_docs(&ours),
        &without_docs(&published),
    );
    // The overlay's enum descriptions and Empty carry our words; the rest are the bundle's.
    for name in ["TaskState", "Role", "Empty"] {
        assert_eq!(published[name].doc, ours[name].doc, "{name}");
    }
}

#[test]
fn the_newer_layout_with_our_overlay_lowers_to_the_model_of_spec_v1() {
    let Some(bundle) = bundle("import: the layout after PR #2074") else {
        return;
    };
    let value = newer_layout(&bundle.value);
    assert!(value.get("definitions").is_none());
    assert!(!value.to_string().contains(".jsonschema.json"));
    assert_eq!(import::detect(&value), Shape::LocalBundle);
    let newer = Source {
        label: "a2a.json".into(),
        sha256: bundle.sha256.clone(),
        value,
    };
    assert_same(
        "the newer layout",
        &without_docs(&our_types()),
        &without_docs(&imported_types(&newer)),
    );
}

/// A generated file without its header (which names the inputs) and without doc comments (the
/// published descriptions are not ours).
fn code_body(contents: &str) -> String {
    let body = contents.split_once("\n\n").map_or(contents, |(_, b)| b);
    body.lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with("///") && !l.starts_with("//!")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Per file, the lines where two generations differ, doc comments and headers aside; empty when
/// the code is the same.
fn code_differences(
    ours: &BTreeMap<String, String>,
    published: &BTreeMap<String, String>,
) -> String {
    let mut report = String::new();
    for (path, contents) in ours {
        let (expected, actual) = (code_body(contents), code_body(&published[path]));
        if expected != actual {
            report.push_str(&format!(
                "\n== {path}:\n{}",
                golden::line_diff(&expected, &actual)
                    .lines()
                    .filter(|l| !l.starts_with("  "))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    report
}

fn by_path(files: Vec<GeneratedFile>) -> BTreeMap<String, String> {
    files.into_iter().map(|f| (f.path, f.contents)).collect()
}

#[test]
fn the_bundle_in_the_spec_directory_generates_the_code_of_spec_v1() {
    let Some(bundle_path) = shared_path("import: code from the official bundle", BUNDLE) else {
        return;
    };
    let ours = Config::new(spec_v1())
        .source_label("spec/v1")
        .generate()
        .unwrap();
    // spec/v1 holds overlay.toml: with the published schema in place of ours it is picked up.
    let (files, notes) = Config::new(spec_v1())
        .source_label("spec/v1")
        .schema_file(&bundle_path)
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(notes.len(), 1, "{notes:?}");
    let (ours, published) = (by_path(ours), by_path(files));
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        published.keys().collect::<Vec<_>>()
    );
    let types = &published["types.rs"];
    let header = types.split_once("\n\n").unwrap().0;
    assert!(
        header.contains("// input: a2a.json sha256:ba4b702b")
            && header.contains("// input: spec/v1/overlay.toml sha256:"),
        "the header names the bundle and the overlay:\n{header}"
    );
    let report = code_differences(&ours, &published);
    assert!(
        report.is_empty(),
        "code from the bundle differs from spec/v1's (doc comments aside):{report}"
    );
}

// ---------------------------------------------------------------------------------------------
// bufbuild's json-bundle: the hand-made fixture of A2A v1.0.1 in the plugin's output format.

/// The fixture: A2A v1.0.1 as protoc-gen-jsonschema writes it with `target=json-bundle`.
fn json_bundle_path() -> PathBuf {
    workspace_root().join("a2a-codegen/tests/fixtures/bufbuild/a2a.jsonschema.bundle.json")
}

fn json_bundle() -> Source<Value> {
    read_schema(&json_bundle_path(), "a2a.jsonschema.bundle.json")
}

/// `statusUpdate` -> `status_update`: the proto names of A2A's oneof members.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The fixture's definition of the message `name`.
fn message_def<'a>(defs: &'a mut Map<String, Value>, name: &str) -> &'a mut Map<String, Value> {
    defs.get_mut(&format!("lf.a2a.v1.{name}.jsonschema.json"))
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no definition of {name}"))
}

/// How versions of the plugin constrain a oneof: the newer `oneOf` of one `required` branch per
/// accepted name plus one for none, or the older `anyOf` of `required`/`not` pairs.
#[derive(Clone, Copy)]
enum OneofSpelling {
    OneOf,
    AnyOfNot,
}

/// The fixture with an `allOf` oneof constraint on every message the overlay gives a oneof.
fn with_oneof_constraints(spelling: OneofSpelling) -> Value {
    let mut value = json_bundle().value;
    let defs = value["$defs"].as_object_mut().unwrap();
    for (name, message) in &our_overlay().value.message {
        let Some(oneof) = &message.oneof else {
            continue;
        };
        let members = &oneof.members;
        let constraint = match spelling {
            OneofSpelling::OneOf => {
                let names: Vec<String> = members
                    .iter()
                    .flat_map(|m| {
                        let proto = snake(m);
                        if proto == *m {
                            vec![m.clone()]
                        } else {
                            vec![m.clone(), proto]
                        }
                    })
                    .collect();
                let mut branches: Vec<Value> =
                    names.iter().map(|n| json!({"required": [n]})).collect();
                branches.push(json!({"propertyNames": {"not": {"enum": names}}}));
                json!({"oneOf": branches})
            }
            OneofSpelling::AnyOfNot => {
                let mut branches: Vec<Value> = members
                    .iter()
                    .map(|m| {
                        let others: Vec<&String> = members.iter().filter(|o| *o != m).collect();
                        json!({"required": [m], "not": {"required": others}})
                    })
                    .collect();
                branches.push(json!({"not": {"required": members}}));
                json!({"anyOf": branches})
            }
        };
        message_def(defs, name).insert("allOf".into(), json!([constraint]));
    }
    value
}

/// The fixture as the plugin wrote it before it marked deprecated fields (the v1.0.1 build).
fn without_deprecated_flags() -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(obj) => {
                obj.remove("deprecated");
                obj.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = json_bundle().value;
    let before = value.to_string().matches("\"deprecated\"").count();
    assert!(before > 0, "the fixture marks deprecated fields");
    strip(&mut value);
    value
}

/// The fixture after A2A's script shortens the names (`scripts/clean_schema_names.py` since PR
/// #2074): keys and refs lose the package and the suffix.
fn with_short_names() -> Value {
    fn short(key: &str) -> String {
        let key = key.strip_prefix("#/$defs/").unwrap_or(key);
        let key = key.strip_suffix(".jsonschema.json").unwrap_or(key);
        key.rsplit('.').next().unwrap().to_string()
    }
    fn refs(value: &mut Value) {
        match value {
            Value::Object(obj) => {
                if let Some(Value::String(target)) = obj.get_mut("$ref") {
                    *target = format!("#/$defs/{}", short(target));
                }
                obj.values_mut().for_each(refs);
            }
            Value::Array(items) => items.iter_mut().for_each(refs),
            _ => {}
        }
    }
    let mut value = json_bundle().value;
    let root = value.as_object_mut().unwrap();
    root.remove("$id");
    let defs = root.remove("$defs").unwrap();
    let mut shortened = Map::new();
    for (key, mut def) in defs.as_object().unwrap().clone() {
        refs(&mut def);
        shortened.insert(short(&key), def);
    }
    root.insert("$defs".into(), Value::Object(shortened));
    value
}

#[test]
fn the_bufbuild_json_bundle_with_our_overlay_lowers_to_the_model_of_spec_v1() {
    let bundle = json_bundle();
    assert_eq!(import::detect(&bundle.value), Shape::JsonBundle);
    let ours = our_types();
    let published = imported_types(&bundle);
    assert_same(
        "the bufbuild json-bundle",
        &without_docs(&ours),
        &without_docs(&published),
    );
    // What the overlay adds carries our words; the rest, the fixture's placeholders.
    for name in ["TaskState", "Role", "Empty"] {
        assert_eq!(published[name].doc, ours[name].doc, "{name}");
    }
    assert!(published["Task"]
        .doc
        .as_deref()
        .is_some_and(|d| d.starts_with("Placeholder")));
}

#[test]
fn every_spelling_of_the_json_bundle_lowers_to_the_model_of_spec_v1() {
    let ours = without_docs(&our_types());
    let variants = [
        (
            "oneof constraints as `oneOf`",
            with_oneof_constraints(OneofSpelling::OneOf),
            Shape::JsonBundle,
        ),
        (
            "oneof constraints as `anyOf`/`not`",
            with_oneof_constraints(OneofSpelling::AnyOfNot),
            Shape::JsonBundle,
        ),
        (
            "no deprecated flags",
            without_deprecated_flags(),
            Shape::JsonBundle,
        ),
        (
            "names shortened by A2A's script",
            with_short_names(),
            Shape::LocalBundle,
        ),
    ];
    for (what, value, shape) in variants {
        assert_eq!(import::detect(&value), shape, "{what}");
        let source = Source {
            label: "a2a.jsonschema.bundle.json".into(),
            sha256: "0".into(),
            value,
        };
        assert_same(what, &ours, &without_docs(&imported_types(&source)));
    }
}

#[test]
fn a_json_bundle_whose_oneofs_disagree_with_the_overlay_is_an_error() {
    let mut value = with_oneof_constraints(OneofSpelling::OneOf);
    // The proto gains a member the overlay does not list.
    let defs = value["$defs"].as_object_mut().unwrap();
    let part = message_def(defs, "Part");
    let branches = part["allOf"][0]["oneOf"].as_array_mut().unwrap();
    branches.insert(0, json!({"required": ["filename"]}));
    let source = Source {
        label: "a2a.jsonschema.bundle.json".into(),
        sha256: "0".into(),
        value,
    };
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    import::lower_types(&source, Some(&our_overlay()), &mut diags, &mut notes);
    let text = diags.to_string();
    assert!(
        text.contains("error: the oneof `content` of `Part` lists `text`, `raw`, `url`, `data`, but the schema's constraint (/$defs/lf.a2a.v1.Part.jsonschema.json/allOf/0) has `filename`, `text`, `raw`, `url`, `data`")
            && text.contains("--> spec/v1/overlay.toml at /message/Part/oneof/members"),
        "{text}"
    );
}

#[test]
fn the_bufbuild_json_bundle_generates_the_code_of_spec_v1() {
    let ours = Config::new(spec_v1())
        .source_label("spec/v1")
        .generate()
        .unwrap();
    let (files, notes) = Config::new(spec_v1())
        .source_label("spec/v1")
        .schema_file(json_bundle_path())
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(notes.len(), 1, "{notes:?}");
    let (ours, published) = (by_path(ours), by_path(files));
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        published.keys().collect::<Vec<_>>()
    );
    let header = published["types.rs"].split_once("\n\n").unwrap().0;
    assert!(
        header.contains("a2a.jsonschema.bundle.json sha256:")
            && header.contains("// input: spec/v1/overlay.toml sha256:"),
        "the header names the json-bundle and the overlay:\n{header}"
    );
    let report = code_differences(&ours, &published);
    assert!(
        report.is_empty(),
        "code from the json-bundle differs from spec/v1's (doc comments aside):{report}"
    );
    let changes = a2a_codegen::diff::diff(
        &Config::new(spec_v1()).model().unwrap(),
        &Config::new(spec_v1())
            .schema_file(json_bundle_path())
            .model()
            .unwrap_or_else(|e| panic!("{e}")),
    );
    assert!(changes.is_empty(), "{changes:#?}");
}

#[test]
fn a_json_bundle_without_an_overlay_says_what_it_lacks() {
    let err = Config::new(json_bundle_path())
        .source_label("a2a.jsonschema.bundle.json")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("error: this is the JSON Schema bundle bufbuild's protoc-gen-jsonschema writes (`target=json-bundle`")
            && err.contains("names no oneof")
            && err.contains("spec/v1/overlay.toml"),
        "{err}"
    );
    assert!(err.ends_with("1 error in the generator input"), "{err}");
}

/// The fixture is the proto as the plugin renders it (structure; `generate.py --check` compares
/// the whole file, with Python): every message reached, its properties by JSON name, its proto
/// names as aliases, its refs, enums and deprecated flags.
#[test]
fn the_bufbuild_fixture_renders_the_v1_0_1_proto() {
    let Some(proto) = shared_path("import: the bufbuild fixture", "a2a-spec/v1.0/a2a.proto") else {
        return;
    };
    let outline = a2a_codegen::internals::proto_outline(&proto, "a2a.proto")
        .unwrap_or_else(|d| panic!("{d}"));
    let bundle = json_bundle().value;
    let defs = bundle["$defs"].as_object().unwrap();
    let mut expected_keys = Vec::new();
    for message in outline["messages"].as_array().unwrap() {
        let full = message["full_name"].as_str().unwrap();
        let key = format!("{full}.jsonschema.json");
        if full.starts_with("google.protobuf.") {
            // Well-known types appear when a field uses them (not ListValue, reached only
            // through Value's own fields, which the plugin's custom schema does not have).
            if defs.contains_key(&key) {
                expected_keys.push(key);
            }
            continue;
        }
        expected_keys.push(key.clone());
        let def = &defs[&key];
        assert_eq!(def["type"], "object", "{full}");
        assert_eq!(def["additionalProperties"], false, "{full}");
        let props = def["properties"].as_object().unwrap();
        let fields = message["fields"].as_array().unwrap();
        let json_names: Vec<&str> = fields
            .iter()
            .map(|f| f["json_name"].as_str().unwrap())
            .collect();
        let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut sorted = json_names.clone();
        keys.sort();
        sorted.sort();
        assert_eq!(keys, sorted, "{full}");
        for f in fields {
            let (name, json_name) = (
                f["name"].as_str().unwrap(),
                f["json_name"].as_str().unwrap(),
            );
            let prop = &props[json_name];
            if name != json_name {
                assert_eq!(
                    &def["patternProperties"][format!("^({name})$")],
                    prop,
                    "{full}.{name}"
                );
            }
            assert_eq!(
                prop.get("deprecated") == Some(&json!(true)),
                f["deprecated"] == true,
                "{full}.{name}"
            );
            if f["type"] == "message" && f["repeated"] == false {
                let target = format!(
                    "#/$defs/{}.jsonschema.json",
                    f["type_name"].as_str().unwrap()
                );
                assert_eq!(prop["$ref"], json!(target), "{full}.{name}");
            }
            if f["type"] == "enum" {
                let e = outline["enums"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["full_name"] == f["type_name"])
                    .unwrap();
                let names: Vec<&Value> = e["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| &v["name"])
                    .collect();
                assert_eq!(
                    prop["anyOf"][0]["pattern"],
                    json!(format!("^{}$", names[0].as_str().unwrap()))
                );
                assert_eq!(
                    prop["anyOf"][1]["enum"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .collect::<Vec<_>>(),
                    names[1..]
                );
            }
        }
    }
    let mut keys: Vec<&String> = defs.keys().collect();
    keys.sort();
    expected_keys.sort();
    assert_eq!(keys, expected_keys.iter().collect::<Vec<_>>());
}

#[test]
fn shapes_of_the_real_inputs() {
    let ours = read_schema(&spec_v1().join("a2a.schema.json"), "a2a.schema.json");
    assert_eq!(import::detect(&ours.value), Shape::Own);
    assert_eq!(import::detect(&json_bundle().value), Shape::JsonBundle);
    let Some(bundle) = bundle("import: shapes") else {
        return;
    };
    assert_eq!(import::detect(&bundle.value), Shape::Bundle);
    assert_eq!(
        import::detect(&newer_layout(&bundle.value)),
        Shape::LocalBundle
    );
    // v0.3.0 is draft-07 with local refs and `anyOf` unions of `kind`-tagged definitions.
    if let Some(v03) = shared_path("import: shapes", V03) {
        let v03 = read_schema(&v03, "a2a.json");
        assert_eq!(import::detect(&v03.value), Shape::V03);
    }
    let ours = read_schema(&spec_v0_3().join("a2a.schema.json"), "a2a.schema.json");
    assert_eq!(import::detect(&ours.value), Shape::Own);
}

#[test]
fn a_bundle_without_an_overlay_says_what_to_add() {
    let Some(bundle_path) = shared_path("import: no overlay", BUNDLE) else {
        return;
    };
    let err = Config::new(&bundle_path)
        .source_label("a2a.json")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("error: this is the JSON Schema bundle the A2A project publishes")
            && err.contains("needs an overlay")
            && err.contains("--> a2a.json at (document root)")
            && err.contains("it has no `required` lists (no REQUIRED field) and no oneof groups")
            && err.contains("put an `overlay.toml` beside it")
            && err.contains("Config::overlay"),
        "{err}"
    );
    assert!(err.ends_with("1 error in the generator input"), "{err}");
    // Config::overlay completes it.
    let files = Config::new(&bundle_path)
        .overlay(spec_v1().join("overlay.toml"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(files.iter().any(|f| f.path == "types.rs"));
}

#[test]
fn the_v03_schema_without_an_overlay_says_what_it_really_lacks() {
    let Some(path) = shared_path("import: v0.3.0 without an overlay", V03) else {
        return;
    };
    // Its definitions have `required` lists (71 of 93): what it lacks is the rest.
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let defs = schema["definitions"].as_object().unwrap();
    let with_required = defs
        .values()
        .filter(|d| d.get("required").is_some())
        .count();
    assert_eq!((with_required, defs.len()), (71, 93));
    let err = Config::new(&path)
        .source_label("a2a.json")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sorts every object's properties by name (the field order is lost)")
            && err.contains("unions")
            && err.contains("enums inline and unnamed")
            && err.contains("spec/v0_3/overlay.toml")
            && !err.contains("REQUIRED"),
        "{err}"
    );
}

#[test]
fn diff_reads_official_files_beside_their_overlay() {
    let (Some(bundle), Some(v03)) = (
        shared_path("import: diff of official files", BUNDLE),
        shared_path("import: diff of official files", V03),
    ) else {
        return;
    };
    // A2A's files laid out as downloaded, one directory each, with our overlay and tables beside
    // them; diff is given the files.
    let lay_out = |name: &str, file: &Path, spec: PathBuf| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(file, dir.join("a2a.json")).unwrap();
        for table in ["overlay.toml", "errors.toml", "methods.toml"] {
            std::fs::copy(spec.join(table), dir.join(table)).unwrap();
        }
        dir.join("a2a.json")
    };
    let v1 = lay_out("official-v1-file", &bundle, spec_v1());
    let old = lay_out("official-v03-file", &v03, spec_v0_3());
    let report = a2a_codegen::diff::compare(&old, &v1).unwrap_or_else(|d| panic!("{d}"));
    let ours = a2a_codegen::diff::compare(&spec_v0_3(), &spec_v1()).unwrap();
    assert_eq!(report.changes, ours.changes);
    // The overlay named explicitly, the file alone in shared/.
    let named = a2a_codegen::diff::compare(
        a2a_codegen::diff::Input {
            path: &bundle,
            overlay: Some(&spec_v1().join("overlay.toml")),
        },
        a2a_codegen::diff::Input::new(&spec_v1().join("a2a.schema.json")),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    // spec/v1/a2a.schema.json has the tables beside it, the bundle in shared/ none.
    assert!(named
        .changes
        .iter()
        .all(|c| c.change == a2a_codegen::diff::ChangeKind::Added
            && matches!(
                c.kind,
                a2a_codegen::diff::ItemKind::Method | a2a_codegen::diff::ItemKind::Error
            )));
}

#[test]
fn an_overlay_for_our_own_dialect_is_an_error() {
    let err = Config::new(spec_v1())
        .source_label("spec/v1")
        .overlay("spec/v1/overlay.toml")
        .generate()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "an overlay is given, but spec/v1/a2a.schema.json is in a2a-codegen's own dialect"
        ) && err.contains("--> spec/v1/overlay.toml"),
        "{err}"
    );
}

#[test]
fn the_overlay_matches_spec_v1() {
    // Every REQUIRED mark and oneof of spec/v1 is in the overlay (the model test above proves
    // the converse); 61 REQUIRED fields, 5 oneofs.
    let overlay = our_overlay().value;
    let required: usize = overlay.message.values().map(|m| m.required.len()).sum();
    let oneofs: Vec<&str> = overlay
        .message
        .iter()
        .filter(|(_, m)| m.oneof.is_some())
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(required, 61);
    assert_eq!(
        oneofs,
        [
            "OAuthFlows",
            "Part",
            "SecurityScheme",
            "SendMessageResponse",
            "StreamResponse"
        ]
    );
    assert_eq!(overlay.message.len(), 44);
    assert_eq!(overlay.enums.len(), 2);
    assert_eq!(overlay.definition.keys().collect::<Vec<_>>(), ["Empty"]);
}

// ---------------------------------------------------------------------------------------------
// Error fixtures: a2a-codegen/tests/fixtures/import/<name>(.schema.json | /) -> <name>.stderr

fn fixtures() -> PathBuf {
    workspace_root().join("a2a-codegen/tests/fixtures/import")
}

#[test]
fn import_errors_match_their_fixtures() {
    let dir = fixtures();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.to_string_lossy().ends_with(".schema.json"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 3, "{inputs:?}");
    for input in inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name
            .strip_suffix(".schema.json")
            .unwrap_or(&name)
            .to_string();
        let label = format!("fixtures/import/{name}");
        let actual = match Config::new(&input).source_label(&label).generate() {
            Err(Error::Input(diags)) => format!("{diags}\n"),
            Err(other) => panic!("{name}: not an input error: {other}"),
            Ok(_) => panic!("{name}: generated, but should fail"),
        };
        golden::assert_golden(&dir.join(format!("{stem}.stderr")), &actual);
    }
}

#[test]
fn diff_sees_no_change_between_the_official_bundle_and_spec_v1() {
    let Some(bundle_path) = shared_path("import: diff of the official bundle", BUNDLE) else {
        return;
    };
    let ours = Config::new(spec_v1())
        .source_label("spec/v1")
        .model()
        .unwrap();
    let published = Config::new(spec_v1())
        .source_label("spec/v1")
        .schema_file(&bundle_path)
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let changes = a2a_codegen::diff::diff(&ours, &published);
    assert!(changes.is_empty(), "{changes:#?}");
}

#[test]
fn a_spec_directory_may_hold_the_published_file_under_its_own_name() {
    let Some(bundle_path) = shared_path("import: the downloaded a2a.json", BUNDLE) else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("downloaded-spec");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&bundle_path, dir.join("a2a.json")).unwrap();
    for file in ["overlay.toml", "errors.toml", "methods.toml"] {
        std::fs::copy(spec_v1().join(file), dir.join(file)).unwrap();
    }
    let mut config = Config::new(&dir);
    config.source_label("downloaded");
    assert!(config.input_paths().contains(&dir.join("a2a.json")));
    let published = config.model().unwrap_or_else(|e| panic!("{e}"));
    let ours = Config::new(spec_v1()).model().unwrap();
    let changes = a2a_codegen::diff::diff(&ours, &published);
    assert!(changes.is_empty(), "{changes:#?}");
}

// ---------------------------------------------------------------------------------------------
// v0.3.0: the official draft-07 schema, completed by spec/v0_3/overlay.toml, is spec/v0_3.

fn v03_overlay() -> Source<import::Overlay> {
    let mut diags = Diagnostics::default();
    import::read_overlay(
        &spec_v0_3().join("overlay.toml"),
        "spec/v0_3/overlay.toml",
        &mut diags,
    )
    .unwrap_or_else(|| panic!("{diags}"))
}

/// The model of `spec/v0_3/a2a.schema.json`.
fn our_v03_types() -> BTreeMap<String, TypeDef> {
    let schema = read_schema(
        &spec_v0_3().join("a2a.schema.json"),
        "spec/v0_3/a2a.schema.json",
    );
    let mut diags = Diagnostics::default();
    let types = lower_schema(&schema, &mut diags);
    assert!(diags.is_empty(), "{diags}");
    types
}

#[test]
fn the_official_v03_schema_with_our_overlay_lowers_to_the_model_of_spec_v0_3() {
    let Some(path) = shared_path("import: the official v0.3.0 schema", V03) else {
        return;
    };
    let official = read_schema(&path, "a2a.json");
    assert_eq!(import::detect(&official.value), Shape::V03);
    let (mut diags, mut notes) = (Diagnostics::default(), Vec::new());
    let published = import::lower_types(&official, Some(&v03_overlay()), &mut diags, &mut notes);
    assert!(diags.is_empty(), "{diags}");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].message.contains("leaves out the 48 definitions"),
        "{}",
        notes[0]
    );
    let ours = our_v03_types();
    assert_eq!(ours.len(), 48);
    assert_same(
        "the official v0.3.0 schema",
        &without_docs(&ours),
        &without_docs(&published),
    );
    // What the overlay names carries our words.
    for name in [
        "Role",
        "APIKeyLocation",
        "SendMessageResult",
        "StreamEvent",
        "FileContent",
        "TaskPushNotificationConfigList",
        "GetAuthenticatedExtendedCardParams",
    ] {
        assert_eq!(published[name].doc, ours[name].doc, "{name}");
    }
}

#[test]
fn diff_sees_no_change_between_the_official_v03_schema_and_spec_v0_3() {
    let Some(path) = shared_path("import: diff of the official v0.3.0 schema", V03) else {
        return;
    };
    let ours = Config::new(spec_v0_3())
        .source_label("spec/v0_3")
        .model()
        .unwrap();
    let published = Config::new(spec_v0_3())
        .source_label("spec/v0_3")
        .schema_file(&path)
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let changes = a2a_codegen::diff::diff(&ours, &published);
    assert!(changes.is_empty(), "{changes:#?}");
}

#[test]
fn the_official_v03_schema_generates_the_code_of_spec_v0_3() {
    let Some(path) = shared_path("import: code from the official v0.3.0 schema", V03) else {
        return;
    };
    let ours = Config::new(spec_v0_3())
        .source_label("spec/v0_3")
        .generate()
        .unwrap();
    let (files, notes) = Config::new(spec_v0_3())
        .source_label("spec/v0_3")
        .schema_file(&path)
        .generate_with_notes()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(notes.len(), 1, "{notes:?}");
    let (ours, published) = (by_path(ours), by_path(files));
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        published.keys().collect::<Vec<_>>()
    );
    let header = published["types.rs"].split_once("\n\n").unwrap().0;
    assert!(
        header.contains("// input: spec/v0_3/overlay.toml sha256:"),
        "{header}"
    );
    let report = code_differences(&ours, &published);
    assert!(
        report.is_empty(),
        "code from the official v0.3.0 schema differs from spec/v0_3's (doc comments aside):{report}"
    );
}

#[test]
fn the_v03_overlay_matches_spec_v0_3() {
    let overlay = v03_overlay().value;
    assert_eq!(overlay.message.len(), 37);
    assert!(overlay.message.values().all(|m| m.required.is_empty()
        && m.oneof.is_none()
        && m.deprecated.is_empty()
        && m.fields.is_some()));
    assert_eq!(
        overlay.union.keys().collect::<Vec<_>>(),
        ["FileContent", "SendMessageResult", "StreamEvent"]
    );
    assert_eq!(
        overlay.enums.keys().collect::<Vec<_>>(),
        ["APIKeyLocation", "Role"]
    );
    assert!(overlay
        .enums
        .values()
        .all(|e| e.zero.is_none() && e.at.is_some()));
    assert_eq!(overlay.drop.len(), 5);
    assert_eq!(
        overlay.definition.keys().collect::<Vec<_>>(),
        [
            "DeleteTaskPushNotificationConfigResult",
            "GetAuthenticatedExtendedCardParams",
            "TaskPushNotificationConfigList"
        ]
    );
}

/// Issue 5: what changed from v0.3.0 to v1, as `a2a-codegen diff` reports it. The official
/// v0.3.0 schema (with our overlay) gives the same report as spec/v0_3.
#[test]
fn the_v03_to_v1_report_names_the_big_changes() {
    use a2a_codegen::diff::{compare, ChangeKind, Class, ItemKind};
    let report = compare(&spec_v0_3(), &spec_v1()).unwrap_or_else(|d| panic!("{d}"));
    let text = report.to_text();
    let markdown = report.to_markdown().unwrap();
    let counts: Vec<(Class, usize)> = Class::ALL
        .into_iter()
        .map(|c| (c, report.count(c)))
        .collect();
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("v03-to-v1.md"),
        &markdown,
    )
    .unwrap();
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("v03-to-v1.txt"),
        &text,
    )
    .unwrap();
    println!(
        "v0.3 -> v1: {} changes {counts:?}; Markdown {} lines; {}",
        report.changes.len(),
        markdown.lines().count(),
        report.summary()
    );
    assert!(report.is_breaking());
    let has = |kind: ItemKind, path: &str, change: ChangeKind, class: Class| {
        let found = report
            .changes
            .iter()
            .any(|c| c.kind == kind && c.path == path && c.change == change && c.class == class);
        assert!(found, "no {class} {change} {kind} `{path}` in:\n{text}");
    };
    use ChangeKind::{Added, Changed, Removed};
    // Part: a union tagged on `kind` in v0.3, one struct with a `content` oneof in v1.
    has(ItemKind::Type, "Part", Changed, Class::Breaking);
    has(ItemKind::Type, "TextPart", Removed, Class::Breaking);
    // TaskState: kebab-case values become SCREAMING_SNAKE values with an UNSPECIFIED zero.
    // The same Rust variant with another wire spelling: one change, old -> new.
    has(
        ItemKind::Value,
        "TaskState::Submitted",
        Changed,
        Class::Breaking,
    );
    has(
        ItemKind::Value,
        "TaskState::Unspecified",
        Added,
        Class::Breaking,
    );
    // The `kind` consts are gone from the objects.
    has(ItemKind::Const, "Task.kind", Removed, Class::Behaviour);
    has(ItemKind::Const, "Message.kind", Removed, Class::Behaviour);
    // Methods are matched by Rust name: slash wire names become PascalCase ones (one change).
    has(ItemKind::Method, "SendMessage", Changed, Class::Breaking);
    has(ItemKind::Method, "ListTasks", Added, Class::Breaking);
    assert!(
        !report.changes.iter().any(|c| c.path.contains('/')),
        "a method path is a wire name:\n{text}"
    );
    // -32007 is renamed: one change from the old variant to the new one.
    has(
        ItemKind::Error,
        "A2aError::AuthenticatedExtendedCardNotConfigured",
        Changed,
        Class::Breaking,
    );
    let by_kind = |k: ChangeKind| report.changes.iter().filter(|c| c.change == k).count();
    println!(
        "v0.3 -> v1 by change: {} added, {} removed, {} changed",
        by_kind(Added),
        by_kind(Removed),
        by_kind(Changed)
    );
    if let Some(path) = shared_path("import: v0.3.0 -> v1 report", V03) {
        // The official file alone has no tables: a spec directory holding it with ours.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("official-v03-spec");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&path, dir.join("a2a.json")).unwrap();
        for file in ["overlay.toml", "errors.toml", "methods.toml"] {
            std::fs::copy(spec_v0_3().join(file), dir.join(file)).unwrap();
        }
        let official = compare(&dir, &spec_v1()).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(official.changes, report.changes);
    }
}
