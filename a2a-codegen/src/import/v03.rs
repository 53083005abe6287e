//! What only the v0.3 schema needs: leaving out its JSON-RPC layer by rule, and the definitions
//! the overlay's `drop` names.

use super::importer::{Importer, Published, Shape};
use super::unions::ref_branches;
use crate::diag::{pointer_push, Note};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The definitions a v0.3 schema holds for the JSON-RPC layer, which the generator writes itself:
/// every definition with a `jsonrpc` member (the envelope, requests and responses), every error
/// object (`code` and `message` members, `code` required), and every `anyOf` of `$ref`s that
/// point only at those (`A2AError`, `A2ARequest`, `JSONRPCResponse`, the `...Response` unions).
pub(super) fn dropped_by_rule(defs: &Map<String, Value>, prefix: &str) -> BTreeSet<String> {
    let mut dropped: BTreeSet<String> = defs
        .iter()
        .filter(|(_, def)| {
            let props = def.get("properties").and_then(Value::as_object);
            let has = |m: &str| props.is_some_and(|p| p.contains_key(m));
            let requires = |m: &str| {
                def.get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(m)))
            };
            has("jsonrpc") || (has("code") && has("message") && requires("code"))
        })
        .map(|(key, _)| key.clone())
        .collect();
    loop {
        let more: Vec<String> = defs
            .iter()
            .filter(|(key, _)| !dropped.contains(*key))
            .filter(|(_, def)| {
                def.get("anyOf")
                    .and_then(|any| ref_branches(any, prefix))
                    .is_some_and(|targets| targets.iter().all(|t| dropped.contains(*t)))
            })
            .map(|(key, _)| key.clone())
            .collect();
        if more.is_empty() {
            return dropped;
        }
        dropped.extend(more);
    }
}

impl Importer<'_> {
    /// Marks the definitions that are not generated: by rule in a v0.3 schema (returned, for
    /// [`left_out_note`]), and as the overlay's `drop` says.
    pub(super) fn drop_definitions(&mut self) -> BTreeSet<String> {
        let by_rule = if self.shape == Shape::V03 {
            dropped_by_rule(self.defs, &format!("#/{}/", self.container))
        } else {
            BTreeSet::new()
        };
        self.dropped.extend(by_rule.iter().cloned());
        let overlay = self.overlay;
        for (i, name) in overlay.value.drop.iter().enumerate() {
            match self.keys.iter().find(|(_, n)| *n == name) {
                Some((key, _)) => {
                    self.dropped.insert(key.clone());
                }
                None => {
                    self.diags
                        .push(
                            overlay.label,
                            format!("/drop/{i}"),
                            format!("the schema has no definition `{name}`"),
                        )
                        .help("fix the name or remove it from `drop`");
                }
            }
        }
        by_rule
    }
}

/// The one note about the JSON-RPC layer a v0.3 schema loses by rule, when it lost any.
pub(super) fn left_out_note(published: &Published<'_>, by_rule: &BTreeSet<String>) -> Option<Note> {
    let first = by_rule.iter().next()?;
    Some(Note {
        file: published.file.to_string(),
        location: pointer_push(&format!("/{}", published.container), first),
        message: format!(
            "the import leaves out the {} definitions of the JSON-RPC envelope and the error \
             objects; the generator writes its own envelope from methods.toml and its error \
             enum from errors.toml",
            by_rule.len()
        ),
    })
}
