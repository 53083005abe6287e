//! What only the v0.3 schema needs: leaving out its JSON-RPC layer by rule.

use super::unions::ref_branches;
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
