//! A method's HTTP rules ([`HttpRule`]) checked against its request and response types: the same
//! checks whether the rules come from the `http` column of `methods.toml` or from the
//! `google.api.http` options of a proto, so that both routes refuse the same mistakes.

use crate::ir::*;
use std::collections::BTreeMap;

/// One thing wrong with a rule: which part (`verb`, `path`, `body`, `response_body`), what, and
/// what to do.
pub(crate) struct Problem {
    pub(crate) key: &'static str,
    pub(crate) message: String,
    pub(crate) help: String,
}

/// Checks one rule of a method whose request is `params` and reply `result`.
pub(crate) fn check(
    rule: &HttpRule,
    params: &str,
    result: &str,
    types: &BTreeMap<TypeId, TypeDef>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |key, message: String, help: &str| {
        problems.push(Problem {
            key,
            message,
            help: help.to_string(),
        })
    };
    if rule.verb.is_empty() || !rule.verb.bytes().all(|b| b.is_ascii_uppercase()) {
        problem(
            "verb",
            format!("`{}` is not an HTTP method", rule.verb),
            "write it in upper case: GET, POST, PUT, PATCH, DELETE (or a custom rule's method)",
        );
    }
    if !rule.path.starts_with('/') {
        problem(
            "path",
            format!("the path `{}` does not start with `/`", rule.path),
            "write the path template from the root, as google.api.http does: /tasks/{id}",
        );
    }
    let opens = rule.path.matches('{').count();
    let closes = rule.path.matches('}').count();
    let nested = rule
        .path
        .split('}')
        .any(|part| part.matches('{').count() > 1);
    if opens != closes || nested {
        problem(
            "path",
            format!("the braces of `{}` do not pair", rule.path),
            "each variable is one `{field}` or `{field=pattern}`",
        );
    } else {
        let mut seen = Vec::new();
        for var in rule.path_variables() {
            if seen.contains(&var) {
                problem(
                    "path",
                    format!("`{{{var}}}` is in `{}` twice", rule.path),
                    "each field fills one variable",
                );
            } else if field_path(types, params, var).is_none() {
                problem(
                    "path",
                    format!(
                        "the variable `{{{var}}}` of `{}` names no field of `{params}`",
                        rule.path
                    ),
                    "variables name request fields by their proto (snake_case) name, dotted through messages",
                );
            }
            seen.push(var);
        }
    }
    if let Some(body) = rule.body.as_deref().filter(|b| *b != "*") {
        if field_path(types, params, body).is_none() || body.contains('.') {
            problem(
                "body",
                format!("the body `{body}` names no field of `{params}`"),
                "`*` sends the whole request; else name one top-level field by its proto name",
            );
        }
    }
    if let Some(body) = &rule.response_body {
        if field_path(types, result, body).is_none() || body.contains('.') {
            problem(
                "response_body",
                format!("the response body `{body}` names no field of `{result}`"),
                "leave it out for the whole response; else name one top-level field by its proto name",
            );
        }
    }
    problems
}

/// The type of the field a dotted path of proto field names reaches from `ty`, through structs.
fn field_path<'t>(
    types: &'t BTreeMap<TypeId, TypeDef>,
    ty: &str,
    path: &str,
) -> Option<&'t TypeRef> {
    let mut current = ty;
    let mut found = None;
    for name in path.split('.') {
        let TypeKind::Struct(s) = &types.get(current)?.kind else {
            return None;
        };
        let proto_name = |json: &str, alias: &Option<String>| -> bool {
            alias.as_deref().unwrap_or(json) == name
        };
        let ty = s
            .fields
            .iter()
            .find(|f| proto_name(&f.json_name, &f.alias))
            .map(|f| &f.ty)
            .or_else(|| {
                s.oneof.as_ref().and_then(|o| {
                    o.group
                        .members
                        .iter()
                        .find(|m| proto_name(&m.json_name, &m.alias))
                        .map(|m| &m.ty)
                })
            })?;
        found = Some(ty);
        if let TypeRef::Named(next) = ty {
            current = next;
        } else {
            current = "";
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types() -> BTreeMap<TypeId, TypeDef> {
        let field = |json: &str, alias: Option<&str>| Field {
            json_name: json.into(),
            alias: alias.map(String::from),
            rust_name: alias.unwrap_or(json).into(),
            ty: TypeRef::String,
            presence: Presence::Optional,
            doc: None,
            deprecated: false,
            number: None,
            pointer: String::new(),
        };
        let def = TypeDef {
            name: "GetRequest".into(),
            doc: None,
            pointer: String::new(),
            kind: TypeKind::Struct(StructDef {
                fields: vec![field("taskId", Some("task_id")), field("id", None)],
                ..Default::default()
            }),
        };
        BTreeMap::from([("GetRequest".to_string(), def)])
    }

    fn rule(verb: &str, path: &str, body: Option<&str>) -> HttpRule {
        HttpRule {
            verb: verb.into(),
            path: path.into(),
            body: body.map(String::from),
            response_body: None,
        }
    }

    fn keys(rule: &HttpRule) -> Vec<&'static str> {
        check(rule, "GetRequest", "GetRequest", &types())
            .into_iter()
            .map(|p| p.key)
            .collect()
    }

    #[test]
    fn variables_and_bodies_name_request_fields_by_proto_name() {
        assert!(keys(&rule("GET", "/tasks/{task_id=*}/configs/{id}", None)).is_empty());
        assert!(keys(&rule("POST", "/tasks", Some("*"))).is_empty());
        assert!(keys(&rule("POST", "/tasks", Some("id"))).is_empty());
        assert_eq!(keys(&rule("GET", "/tasks/{taskId}", None)), ["path"]);
        assert_eq!(keys(&rule("POST", "/tasks", Some("nope"))), ["body"]);
        assert_eq!(keys(&rule("get", "tasks/{id}", None)), ["verb", "path"]);
        assert_eq!(keys(&rule("GET", "/tasks/{id}/{id}", None)), ["path"]);
        assert_eq!(keys(&rule("GET", "/tasks/{id", None)), ["path"]);
    }
}
