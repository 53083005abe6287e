//! Unions: telling the branches of an `anyOf` of `$ref`s apart by a `const` member (the tag), and
//! writing them as a tagged `oneOf` or, for the overlay's `[union.X] oneof`, as one merged object.

use super::importer::Importer;
use super::origin::Origin;
use crate::diag::pointer_push;
use crate::naming;
use serde_json::{Map, Value};

/// The targets of an `anyOf` made of `{"$ref": "<prefix>Key"}` branches only.
pub(super) fn ref_branches<'a>(any: &'a Value, prefix: &str) -> Option<Vec<&'a str>> {
    let branches = any.as_array().filter(|b| b.len() >= 2)?;
    branches
        .iter()
        .map(|b| {
            let b = b.as_object().filter(|b| b.len() == 1)?;
            b.get("$ref")?.as_str()?.strip_prefix(prefix)
        })
        .collect()
}

/// The members a definition pins with `{"type": "string", "const": ...}` and requires.
pub(super) fn pinned_members(def: &Value) -> Vec<String> {
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    def.get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(name, p)| {
                    required.contains(&name.as_str())
                        && p.get("const").is_some_and(Value::is_string)
                        && p.get("type").and_then(Value::as_str) == Some("string")
                })
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The discriminating member of an `anyOf` of refs (`kind`, `type`): the one member every target
/// pins with a `const` and requires, with a different value in each. `Err` says why there is none.
pub(super) fn tag_of_union(
    defs: &Map<String, Value>,
    any: &Value,
    prefix: &str,
) -> Result<String, String> {
    let Some(targets) = ref_branches(any, prefix) else {
        return Err("not an `anyOf` of two or more local `$ref`s".into());
    };
    let mut common: Option<Vec<String>> = None;
    for target in &targets {
        let key = target.replace("~1", "/").replace("~0", "~");
        let Some(def) = defs.get(&key) else {
            return Err(format!("`{key}` is not defined"));
        };
        let pinned = pinned_members(def);
        common = Some(match common {
            None => pinned,
            Some(c) => c.into_iter().filter(|m| pinned.contains(m)).collect(),
        });
    }
    let common = common.unwrap_or_default();
    let distinct = |member: &String| {
        let mut values: Vec<&Value> = targets
            .iter()
            .filter_map(|t| defs.get(&t.replace("~1", "/").replace("~0", "~")))
            .filter_map(|d| d.get("properties")?.get(member)?.get("const"))
            .collect();
        let n = values.len();
        values.sort_by_key(|v| v.to_string());
        values.dedup();
        values.len() == n
    };
    match common.iter().filter(|m| distinct(m)).collect::<Vec<_>>()[..] {
        [one] => Ok(one.clone()),
        [] => Err("its branches share no required member pinned with a distinct `const`".into()),
        ref many => Err(format!(
            "its branches share several pinned members ({})",
            many.iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

impl Importer<'_> {
    /// `{"oneOf": [refs], "x-discriminator": tag}` for a tagged `anyOf` of refs at `pointer`.
    pub(super) fn tagged(&mut self, any: &Value, tag: &str, pointer: &str) -> Map<String, Value> {
        let branches: Vec<Value> = any
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, b)| self.schema(b, &format!("{pointer}/{i}"), false))
            .collect();
        let mut out = Map::new();
        out.insert("oneOf".into(), branches.into());
        out.insert("x-discriminator".into(), tag.into());
        out
    }

    /// One object made of the definitions `keys` (the branches of an `anyOf`): every member of
    /// any branch; `required` those every branch requires; the members only some branches
    /// require form the oneof `name`.
    pub(super) fn merged(
        &mut self,
        keys: &[String],
        name: &str,
    ) -> Result<Map<String, Value>, String> {
        let mut props = Map::new();
        let mut required: Vec<Vec<String>> = Vec::new();
        for key in keys {
            let Some(def) = self.defs.get(key) else {
                return Err(format!("`{key}` is not defined"));
            };
            let at = pointer_push(&format!("/{}", self.container), key);
            let Some(branch_props) = def.get("properties").and_then(Value::as_object) else {
                return Err(format!("`{key}` is not an object with properties"));
            };
            for (prop, schema) in branch_props {
                let prop_at = pointer_push(&pointer_push(&at, "properties"), prop);
                let value = self.schema(schema, &prop_at, false);
                let bare = |v: &Value| {
                    let mut v = v.clone();
                    if let Value::Object(o) = &mut v {
                        o.remove("description");
                    }
                    v
                };
                match props.get(prop) {
                    Some(existing) if bare(existing) != bare(&value) => {
                        return Err(format!("the branches disagree on the member `{prop}`"));
                    }
                    Some(_) => {}
                    None => {
                        props.insert(prop.clone(), value);
                    }
                }
            }
            required.push(
                def.get("required")
                    .and_then(Value::as_array)
                    .map(|r| {
                        r.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
            );
        }
        let all: Vec<String> = props
            .keys()
            .filter(|p| required.iter().all(|r| r.contains(p)))
            .cloned()
            .collect();
        let members: Vec<String> = props
            .keys()
            .filter(|p| !all.contains(p) && required.iter().any(|r| r.contains(p)))
            .cloned()
            .collect();
        if members.len() < 2 {
            return Err(format!(
                "the branches {} do not differ in two or more required members",
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !naming::is_identifier(&naming::snake_case(name)) {
            return Err(format!("`{name}` is not a oneof name"));
        }
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), Value::Object(props));
        if !all.is_empty() {
            out.insert("required".into(), all.into());
        }
        let branches: Vec<Value> = members
            .iter()
            .map(|m| serde_json::json!({ "required": [m] }))
            .collect();
        out.insert("oneOf".into(), branches.into());
        out.insert("x-oneof-name".into(), name.into());
        Ok(out)
    }

    /// Builds the definitions of the overlay's `[union.X]` tables (a tagged union, or one object
    /// merging the branches), and records the `anyOf` each replaces.
    pub(super) fn build_overlay_unions(&mut self, origins: &mut Vec<Origin>) -> Map<String, Value> {
        let overlay = self.overlay;
        let mut union_defs = Map::new();
        for (name, u) in &overlay.value.union {
            let at = pointer_push("/union", name);
            if !naming::is_identifier(name) {
                self.diags
                    .push(overlay.label, &at, format!("`{name}` is not a type name"))
                    .help("name the union like a Rust type, e.g. [union.SendMessageResult]");
                continue;
            }
            if self.keys.values().any(|n| n == name) {
                self.diags
                    .push(
                        overlay.label,
                        &at,
                        format!("the schema already defines `{name}`"),
                    )
                    .help("choose a name the schema does not use");
                continue;
            }
            let prefix = format!("#/{}/", self.container);
            let any = self.value.pointer(&u.at).and_then(|v| v.get("anyOf"));
            let Some(targets) = any.and_then(|a| ref_branches(a, &prefix)) else {
                self.diags
                    .push(
                        overlay.label,
                        format!("{at}/at"),
                        format!("the schema has no `anyOf` of `$ref`s at `{}`", u.at),
                    )
                    .help(
                        "give the JSON pointer of the schema holding the `anyOf`, e.g. \
                           \"/definitions/SendMessageSuccessResponse/properties/result\"",
                    );
                continue;
            };
            let any = any.expect("checked above");
            let anyof_at = format!("{}/anyOf", u.at);
            let def = match &u.oneof {
                None => match tag_of_union(self.defs, any, &prefix) {
                    Ok(tag) => self.tagged(any, &tag, &anyof_at),
                    Err(why) => {
                        self.diags
                            .push(
                                overlay.label,
                                format!("{at}/at"),
                                format!("the `anyOf` at `{}` is not a tagged union: {why}", u.at),
                            )
                            .help("add `oneof = \"<name>\"` to merge its branches into one object instead");
                        continue;
                    }
                },
                Some(oneof) => {
                    let keys: Vec<String> = targets
                        .iter()
                        .map(|t| t.replace("~1", "/").replace("~0", "~"))
                        .collect();
                    match self.merged(&keys, oneof) {
                        Ok(def) => def,
                        Err(why) => {
                            self.diags
                                .push(overlay.label, format!("{at}/oneof"), why)
                                .help(
                                    "merge only branches that differ in which members they require",
                                );
                            continue;
                        }
                    }
                }
            };
            let mut def = def;
            if let Some(text) = &u.description {
                def.insert("description".into(), text.as_str().into());
            }
            self.union_sites.insert(u.at.clone(), name.clone());
            origins.push(Origin {
                new: pointer_push("/$defs", name),
                file: overlay.label.to_string(),
                old: at,
                keep_rest: false,
            });
            union_defs.insert(name.clone(), Value::Object(def));
        }
        union_defs
    }
}
