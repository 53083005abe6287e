//! The v1 bundle's names: definition keys (spaced titles, file names, full proto names) become
//! type names, and `$ref`s (file names, or local pointers into either container) become
//! `#/$defs/Name`.

use super::importer::{Importer, Shape};
use crate::diag::pointer_push;
use crate::naming;
use std::collections::BTreeMap;

/// Suffix of the file names the v1.0.x bundle's `$ref`s point at, and of the `$defs` keys of a
/// json-bundle: bufbuild's protoc-gen-jsonschema names a message's schema with JSON names
/// `<full proto name>.jsonschema.json`.
pub(super) const FILE_REF_SUFFIX: &str = ".jsonschema.json";

/// The suffixes protoc-gen-jsonschema gives its schemas (`getID`), each with what it is when it
/// is not the one a2a-codegen reads ([`FILE_REF_SUFFIX`]: JSON names, lenient).
const BUFBUILD_SUFFIXES: &[(&str, Option<&str>)] = &[
    (FILE_REF_SUFFIX, None),
    (
        ".jsonschema.strict.json",
        Some(
            "protoc-gen-jsonschema's strict output (no proto-name aliases, no numbers as strings, \
             every field without presence required), which describes what a writer must emit, \
             not what a reader accepts",
        ),
    ),
    (
        ".schema.json",
        Some("protoc-gen-jsonschema's output with proto field names as properties (`context_id`)"),
    ),
    (
        ".schema.strict.json",
        Some("protoc-gen-jsonschema's strict output with proto field names as properties"),
    ),
];

/// The protoc-gen-jsonschema suffix a definition key ends with, and what the output is when
/// a2a-codegen does not read it.
pub(super) fn bufbuild_suffix(key: &str) -> Option<(&'static str, Option<&'static str>)> {
    BUFBUILD_SUFFIXES
        .iter()
        .find(|(suffix, _)| key.len() > suffix.len() && key.ends_with(suffix))
        .copied()
}

/// The type name of a definition key or file-name `$ref`: `lf.a2a.v1.Message.jsonschema.json` ->
/// `Message`, `"O Auth2 Security Scheme"` -> `OAuth2SecurityScheme`.
pub(super) fn type_name(key: &str) -> String {
    let stem = match bufbuild_suffix(key) {
        Some((suffix, _)) => &key[..key.len() - suffix.len()],
        None => key,
    };
    let last = stem.rsplit('.').next().unwrap_or(stem);
    last.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Importer<'_> {
    pub(super) fn resolve_ref(&mut self, target: &str, pointer: &str) -> Option<String> {
        let key = if let Some(local) = target.strip_prefix("#/") {
            let container = format!("{}/", self.container);
            match local.strip_prefix(&container).filter(|k| !k.contains('/')) {
                Some(key) => key.replace("~1", "/").replace("~0", "~"),
                None => {
                    self.diags
                        .push(
                            self.file,
                            pointer,
                            format!("unsupported `$ref` target `{target}`"),
                        )
                        .help(format!(
                            "a local reference must name a definition: \"#/{}Name\"",
                            container
                        ));
                    return None;
                }
            }
        } else if target.ends_with(FILE_REF_SUFFIX) {
            let name = type_name(target);
            if self.keys.values().any(|n| *n == name) {
                return Some(name);
            }
            self.diags
                .push(
                    self.file,
                    pointer,
                    format!("`$ref` names `{target}`, but the schema defines no `{name}`"),
                )
                .help("add the definition (or, if the schema lacks it, a [definition.Name] table to the overlay)");
            return None;
        } else {
            self.diags
                .push(self.file, pointer, format!("unsupported `$ref` target `{target}`"))
                .help("refer to a definition of the same file (\"#/$defs/Name\") or to a published file name (\"lf.a2a.v1.Name.jsonschema.json\")");
            return None;
        };
        match self.keys.get(&key) {
            Some(_) if self.dropped.contains(&key) => {
                self.diags
                    .push(
                        self.file,
                        pointer,
                        format!("`$ref` points at `{key}`, which is not generated"),
                    )
                    .help(
                        "remove it from the overlay's `drop`, or replace this use with a \
                         [union.Name] or [definition.Name] of the overlay",
                    );
                None
            }
            Some(name) => Some(name.clone()),
            None => {
                self.diags
                    .push(
                        self.file,
                        pointer,
                        format!("`$ref` points at `{key}`, which is not defined"),
                    )
                    .help(if self.shape == Shape::JsonBundle {
                        "a json-bundle holds every message its messages reach: fix the name, or \
                         regenerate the bundle from the whole proto"
                            .to_string()
                    } else {
                        format!("define it under {} or fix the name", self.container)
                    });
                None
            }
        }
    }

    /// A json-bundle's root `$ref` (the message the plugin wrote the bundle for) must name one of
    /// its definitions; it is dropped, as every definition is generated anyway.
    pub(super) fn check_entry_point(&mut self, root: &serde_json::Map<String, serde_json::Value>) {
        if self.shape != Shape::JsonBundle {
            return;
        }
        match root.get("$ref") {
            None => {}
            Some(serde_json::Value::String(target)) => {
                self.resolve_ref(target, "/$ref");
            }
            Some(_) => {
                self.diags
                    .push(self.file, "/$ref", "`$ref` must be a string")
                    .help("the bundle's `$ref` names the message it was written for, as \"#/$defs/<key>\"; or remove it");
            }
        }
    }

    /// Gives every definition key its type name; a key that gives none, or the name of another
    /// key, is an error.
    pub(super) fn name_definitions(&mut self) {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for key in self.defs.keys() {
            let name = type_name(key);
            let at = pointer_push(&format!("/{}", self.container), key);
            if let (Shape::JsonBundle, Some((_, Some(what)))) = (self.shape, bufbuild_suffix(key)) {
                self.diags
                    .push(self.file, &at, format!("`{key}` is a schema of {what}"))
                    .help(
                        "a2a-codegen reads the plugin's JSON-name, lenient bundle: generate it \
                         with `--jsonschema_opt=target=json-bundle` (keys end `.jsonschema.json`)",
                    );
            }
            if !naming::is_identifier(&name) {
                self.diags
                    .push(self.file, &at, format!("`{key}` does not give a type name (got `{name}`)"))
                    .help("a definition's key, without spaces, must be a message name such as `AgentCard`");
            } else if let Some(other) = seen.insert(name.clone(), key.clone()) {
                self.diags
                    .push(
                        self.file,
                        &at,
                        format!("`{key}` and `{other}` both give the type name `{name}`"),
                    )
                    .help("every definition must have its own name");
            } else {
                self.keys.insert(key.clone(), name);
            }
        }
    }
}
