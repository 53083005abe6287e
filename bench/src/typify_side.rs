//! typify 0.8 on the official A2A schemas: schema file -> formatted Rust source, the rival side of
//! the generation bench.
//!
//! typify is given each file as published, after the rewrites it needs to read it at all
//! ([`prepare`]); each rewrite is listed in the output so that nothing is hidden.

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use schemars::schema::RootSchema;
use serde_json::{Map, Value};
use typify::{TypeSpace, TypeSpaceSettings};

/// typify's output for one schema.
#[derive(Clone, Debug)]
pub struct TypifyOutput {
    /// The generated module, formatted with prettyplease.
    pub code: String,
    /// What [`prepare`] changed in the schema before typify read it.
    pub rewrites: Vec<String>,
    /// Crates the generated code uses besides serde (`serde_json`, `regress`, `chrono`, `uuid`).
    pub uses: Vec<&'static str>,
}

/// Why typify could not generate code for a schema.
#[derive(Debug)]
pub enum TypifyError {
    /// The file could not be read or is not JSON.
    Read(String),
    /// [`prepare`] found something it cannot rewrite (a `$ref` to no definition, say).
    Prepare(String),
    /// The prepared schema is not a schemars 0.8 `RootSchema`.
    Schema(String),
    /// typify returned an error.
    Typify(String),
    /// typify panicked, with this message.
    Panic(String),
    /// typify's tokens are not a Rust file.
    Tokens(String),
}

impl fmt::Display for TypifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypifyError::Read(e) => write!(f, "cannot read the schema: {e}"),
            TypifyError::Prepare(e) => write!(f, "cannot prepare the schema for typify: {e}"),
            TypifyError::Schema(e) => write!(f, "not a schemars 0.8 RootSchema: {e}"),
            TypifyError::Typify(e) => write!(f, "typify failed: {e}"),
            TypifyError::Panic(e) => write!(f, "typify panicked: {e}"),
            TypifyError::Tokens(e) => write!(f, "typify's output does not parse as Rust: {e}"),
        }
    }
}

impl std::error::Error for TypifyError {}

/// Reads a schema file and runs [`generate_from_value`] on it.
pub fn generate(path: &Path) -> Result<TypifyOutput, TypifyError> {
    let bytes =
        std::fs::read(path).map_err(|e| TypifyError::Read(format!("{}: {e}", path.display())))?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| TypifyError::Read(format!("{}: {e}", path.display())))?;
    generate_from_value(value)
}

/// typify on a schema: [`prepare`], then [`generate_unprepared`].
pub fn generate_from_value(value: Value) -> Result<TypifyOutput, TypifyError> {
    let (value, rewrites) = prepare(value)?;
    let (code, uses) = generate_unprepared(value)?;
    Ok(TypifyOutput {
        code,
        rewrites,
        uses,
    })
}

/// typify on a schema exactly as given: `TypeSpace::add_root_schema` with default settings,
/// `to_stream`, then `syn` + `prettyplease`. Returns the formatted code and the crates it uses
/// (see [`TypifyOutput::uses`]). A panic inside typify comes back as [`TypifyError::Panic`].
pub fn generate_unprepared(value: Value) -> Result<(String, Vec<&'static str>), TypifyError> {
    let root: RootSchema =
        serde_json::from_value(value).map_err(|e| TypifyError::Schema(e.to_string()))?;
    let (tokens, uses) = catch_panic(|| {
        let mut space = TypeSpace::new(&TypeSpaceSettings::default());
        space
            .add_root_schema(root)
            .map_err(|e| TypifyError::Typify(e.to_string()))?;
        let uses = [
            (space.uses_serde_json(), "serde_json"),
            (space.uses_regress(), "regress"),
            (space.uses_chrono(), "chrono"),
            (space.uses_uuid(), "uuid"),
        ]
        .into_iter()
        .filter_map(|(used, name)| used.then_some(name))
        .collect::<Vec<_>>();
        Ok((space.to_stream(), uses))
    })??;
    let file: syn::File = syn::parse2(tokens).map_err(|e| TypifyError::Tokens(e.to_string()))?;
    Ok((prettyplease::unparse(&file), uses))
}

/// Runs `f`, turning a panic into [`TypifyError::Panic`] with its message: typify panics on some
/// inputs (a `$ref` to another file, for one) instead of returning an error.
fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, TypifyError> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        TypifyError::Panic(message)
    })
}

/// Rewrites a published A2A schema into what typify 0.8 can read, returning the schema and one
/// line per kind of rewrite made (with counts). A schema typify reads as it is comes back
/// unchanged, with no lines.
///
/// The rewrites, and why each is needed:
///
/// 1. **Definition keys to type names.** The v1.0.1 bundle keys its `definitions` by each
///    message's *title*, the message name split into words (`"Agent Card"`, `"O Auth2 Security
///    Scheme"`). Removing the spaces gives the proto message name (`AgentCard`,
///    `OAuth2SecurityScheme`), which the `$ref`s of rewrite 2 can then point to.
/// 2. **File-name `$ref`s to local ones.** The bundle was merged from one file per message and
///    kept the file names as references (`"$ref": "lf.a2a.v1.AgentCard.jsonschema.json"`,
///    `"google.protobuf.Struct.jsonschema.json"`). typify takes every `$ref` that does not start
///    with `#` for an external reference and panics (`external references are not supported:
///    lf.a2a.v1.AgentCapabilities.jsonschema.json`); each one becomes
///    `#/definitions/<message name>`, and a reference to no definition is an error here.
/// 3. **`default` beside `anyOf` dropped.** The bundle inlines each proto enum (`TaskState`,
///    `Role`) at every use as `anyOf: [{pattern: "^X_UNSPECIFIED$"}, {enum: [...]}, {integer
///    range}]` with `"default": 0`. typify turns such an `anyOf` into a struct of optional
///    flattened members and then checks the default against that struct, which an integer is
///    not: `add_root_schema` fails with "value does not conform to the given schema" (9 such
///    properties in the v1.0.1 bundle). Without the `default` the `anyOf` is accepted.
pub fn prepare(mut value: Value) -> Result<(Value, Vec<String>), TypifyError> {
    let mut rewrites = Vec::new();
    let Some(definitions) = value.get_mut("definitions").and_then(Value::as_object_mut) else {
        return Err(TypifyError::Prepare("no `definitions` object".into()));
    };
    let renamed = rename_definitions(definitions);
    if renamed > 0 {
        rewrites.push(format!(
            "{renamed} definition keys: spaces removed (\"Agent Card\" -> \"AgentCard\")"
        ));
    }
    let names: Vec<String> = definitions.keys().cloned().collect();
    let mut refs = BTreeMap::new();
    rewrite_refs(&mut value, &names, &mut refs)?;
    let total: usize = refs.values().sum();
    if total > 0 {
        rewrites.push(format!(
            "{total} `$ref`s to file names rewritten to `#/definitions/<name>` ({} distinct)",
            refs.len()
        ));
    }
    let defaults = drop_any_of_defaults(&mut value);
    if defaults > 0 {
        rewrites.push(format!(
            "{defaults} `default`s beside an `anyOf` (inlined enums) dropped"
        ));
    }
    Ok((value, rewrites))
}

/// Removes `default` from every schema that has an `anyOf`; returns how many were removed.
fn drop_any_of_defaults(value: &mut Value) -> usize {
    match value {
        Value::Object(object) => {
            let dropped =
                usize::from(object.contains_key("anyOf") && object.remove("default").is_some());
            dropped + object.values_mut().map(drop_any_of_defaults).sum::<usize>()
        }
        Value::Array(items) => items.iter_mut().map(drop_any_of_defaults).sum(),
        _ => 0,
    }
}

/// Renames keys holding spaces; returns how many were renamed. Order is kept.
fn rename_definitions(definitions: &mut Map<String, Value>) -> usize {
    if !definitions.keys().any(|k| k.contains(' ')) {
        return 0;
    }
    let mut renamed = 0;
    let old = std::mem::take(definitions);
    for (key, schema) in old {
        let name: String = key.chars().filter(|c| *c != ' ').collect();
        renamed += usize::from(name != key);
        definitions.insert(name, schema);
    }
    renamed
}

/// The definition a file-name reference names: `lf.a2a.v1.AgentCard.jsonschema.json` ->
/// `AgentCard`; `None` for a local reference (`#/...`).
fn file_ref_target(reference: &str) -> Option<&str> {
    if reference.starts_with('#') {
        return None;
    }
    let stem = reference
        .strip_suffix(".jsonschema.json")
        .or_else(|| reference.strip_suffix(".json"))
        .unwrap_or(reference);
    Some(stem.rsplit('.').next().unwrap_or(stem))
}

fn rewrite_refs(
    value: &mut Value,
    names: &[String],
    counts: &mut BTreeMap<String, usize>,
) -> Result<(), TypifyError> {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(target) = file_ref_target(reference) {
                    if !names.iter().any(|n| n == target) {
                        return Err(TypifyError::Prepare(format!(
                            "`$ref` {reference:?} names no definition ({target:?})"
                        )));
                    }
                    let target = target.to_string();
                    *counts.entry(target.clone()).or_default() += 1;
                    *reference = format!("#/definitions/{target}");
                }
            }
            for child in object.values_mut() {
                rewrite_refs(child, names, counts)?;
            }
        }
        Value::Array(items) => {
            for child in items {
                rewrite_refs(child, names, counts)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn file_name_refs_and_titled_keys_are_rewritten() {
        let schema = json!({"definitions": {
            "Agent Card": {"type": "object", "properties": {
                "provider": {"$ref": "lf.a2a.v1.AgentProvider.jsonschema.json"},
                "meta": {"$ref": "google.protobuf.Struct.jsonschema.json"},
            }},
            "Agent Provider": {"type": "object", "properties": {"url": {"type": "string"}}},
            "Struct": {"type": "object"},
        }});
        let (schema, rewrites) = prepare(schema).unwrap();
        let defs = &schema["definitions"];
        assert_eq!(
            defs["AgentCard"]["properties"]["provider"]["$ref"],
            "#/definitions/AgentProvider"
        );
        assert_eq!(
            defs["AgentCard"]["properties"]["meta"]["$ref"],
            "#/definitions/Struct"
        );
        assert_eq!(rewrites.len(), 2, "{rewrites:?}");
        assert!(rewrites[0].starts_with("2 definition keys"), "{rewrites:?}");
        assert!(rewrites[1].starts_with("2 `$ref`s"), "{rewrites:?}");
    }

    #[test]
    fn a_schema_typify_reads_as_is_is_left_alone() {
        let schema = json!({"definitions": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/definitions/B"}}},
            "B": {"type": "string"},
        }});
        let (prepared, rewrites) = prepare(schema.clone()).unwrap();
        assert_eq!(prepared, schema);
        assert!(rewrites.is_empty());
    }

    #[test]
    fn a_reference_to_no_definition_is_an_error() {
        let schema = json!({"definitions": {"A": {"$ref": "lf.a2a.v1.Missing.jsonschema.json"}}});
        let err = prepare(schema).unwrap_err().to_string();
        assert!(err.contains("names no definition (\"Missing\")"), "{err}");
    }

    #[test]
    fn typify_output_is_formatted_rust() {
        let schema = json!({"definitions": {
            "Ping": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        }});
        let out = generate_from_value(schema).unwrap();
        assert!(out.code.contains("pub struct Ping"), "{}", out.code);
        assert!(
            out.code.contains("pub id: ::std::string::String"),
            "{}",
            out.code
        );
    }

    #[test]
    fn typify_rejects_a_default_beside_an_inlined_enum_and_prepare_drops_it() {
        // The shape of every enum-typed property of the v1.0.1 bundle (`TaskStatus.state`).
        let schema = json!({"definitions": {"TaskStatus": {"type": "object", "properties": {
            "state": {
                "anyOf": [
                    {"pattern": "^TASK_STATE_UNSPECIFIED$", "type": "string"},
                    {"enum": ["TASK_STATE_SUBMITTED", "TASK_STATE_WORKING"], "type": "string"},
                    {"maximum": 2147483647, "minimum": -2147483648, "type": "integer"},
                ],
                "default": 0,
                "title": "Task State",
            },
        }}}});
        let err = generate_unprepared(schema.clone()).unwrap_err().to_string();
        assert_eq!(
            err,
            "typify failed: value does not conform to the given schema"
        );
        let out = generate_from_value(schema).unwrap();
        assert_eq!(
            out.rewrites,
            ["1 `default`s beside an `anyOf` (inlined enums) dropped"]
        );
        assert!(out.code.contains("pub struct TaskState"), "{}", out.code);
    }

    #[test]
    fn a_panic_in_typify_becomes_an_error_with_its_message() {
        // typify 0.8 panics on a `$ref` that does not start with `#`, which prepare() would have
        // mapped (or refused), so call typify directly.
        let schema = json!({"definitions": {"A": {"$ref": "nowhere.json"}}});
        match generate_unprepared(schema) {
            Err(TypifyError::Panic(message)) => {
                assert_eq!(
                    message,
                    "external references are not supported: nowhere.json"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}
