//! The v1 bundle's names: definition keys (spaced titles, file names) become type names, and
//! `$ref`s (file names, or local pointers into either container) become `#/$defs/Name`.

use super::rewrite::Importer;
use crate::diag::pointer_push;
use crate::naming;
use std::collections::BTreeMap;

/// Suffix of the file names the v1.0.x bundle's `$ref`s point at.
pub(super) const FILE_REF_SUFFIX: &str = ".jsonschema.json";

/// The type name of a definition key or file-name `$ref`: `lf.a2a.v1.Message.jsonschema.json` ->
/// `Message`, `"O Auth2 Security Scheme"` -> `OAuth2SecurityScheme`.
pub(super) fn type_name(key: &str) -> String {
    let stem = key.strip_suffix(FILE_REF_SUFFIX).unwrap_or(key);
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
                    .help(format!(
                        "define it under {} or fix the name",
                        self.container
                    ));
                None
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
