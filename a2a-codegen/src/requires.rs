//! The `requires` key of `methods.toml`: dotted JSON paths into a method's params naming what the
//! method cannot run without. The server refuses (-32602) a request in which one of them is
//! missing: absent, `null` or empty, which all decode to the same unset value ("", [], 0, false,
//! an enum's `*_UNSPECIFIED` zero value, a message with nothing set).
//!
//! [`resolve`] turns one path into the steps the generated check walks, or says why the path
//! cannot be checked; validation reports the reason, and emission only walks resolved paths.

use crate::ir::{Model, Presence, TypeDef, TypeId, TypeKind, TypeRef};

/// One step of a resolved path: a struct field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The Rust field name (without `r#`).
    pub rust_name: String,
    /// Whether the field is an `Option` (not required, and not a list or map). A missing
    /// optional parent means nothing below it is checked: only what is sent must be complete.
    pub optional: bool,
    /// Whether the field holds an open enum: an empty string (`Unrecognized("")`) is as missing as
    /// the `*_UNSPECIFIED` value (protobuf reads both as 0, and so refuses both).
    pub open_enum: bool,
}

/// Resolves `path` (`message.parts`) against the params type `params`: every step but the last
/// must be an object field (not a list or map), and the last must have an unset value the
/// decoder can produce. The error says what is wrong, for a diagnostic.
pub fn resolve(model: &Model, params: &TypeId, path: &str) -> Result<Vec<Step>, String> {
    let segments: Vec<&str> = path.split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(format!(
            "`{path}` is not a dotted path of JSON member names (an empty segment)"
        ));
    }
    let mut ty = params.clone();
    let mut steps = Vec::with_capacity(segments.len());
    for (i, segment) in segments.iter().enumerate() {
        let at = segments[..i].join(".");
        let def = model
            .types
            .get(&ty)
            .ok_or_else(|| format!("`{ty}` is not a type of the schema"))?;
        let TypeKind::Struct(fields) = &def.kind else {
            return Err(format!(
                "`{at}` is a `{ty}`, which has no members to name (only objects do)"
            ));
        };
        let field = fields
            .fields
            .iter()
            .find(|f| f.json_name == *segment)
            .ok_or_else(|| {
                let known: Vec<&str> = fields.fields.iter().map(|f| f.json_name.as_str()).collect();
                let place = if at.is_empty() {
                    "the params".to_string()
                } else {
                    format!("`{at}`")
                };
                format!(
                    "{place} ({ty}) has no member `{segment}`; its members are: {}",
                    known.join(", ")
                )
            })?;
        let resolved = model.resolve(&field.ty);
        let collection = matches!(resolved, TypeRef::List(_) | TypeRef::Map(_));
        let last = i + 1 == segments.len();
        if !last {
            match resolved {
                TypeRef::Named(next) if !collection => ty = next.clone(),
                _ if collection => {
                    return Err(format!(
                        "`{}` is a list or map: a path cannot go through one (name it alone to \
                         require an element)",
                        segments[..=i].join(".")
                    ))
                }
                _ => {
                    return Err(format!(
                        "`{}` is not an object, so the path cannot go below it",
                        segments[..=i].join(".")
                    ))
                }
            }
        } else {
            if let Presence::Defaulted(_) = field.presence {
                return Err(format!(
                    "`{path}` has a schema default: when absent it is that default, never missing"
                ));
            }
            if let TypeRef::Named(id) = resolved {
                if let Some(TypeDef {
                    kind: TypeKind::Enum(e),
                    ..
                }) = model.types.get(id)
                {
                    let unset = e
                        .values
                        .iter()
                        .any(|v| v.number == 0 && v.wire.ends_with("_UNSPECIFIED"));
                    if !unset {
                        return Err(format!(
                            "`{path}` is the enum `{id}`, which has no `*_UNSPECIFIED` zero value: \
                             an absent value decodes as `{}`, so a missing one cannot be told \
                             from a sent one",
                            e.values.first().map_or("", |v| v.wire.as_str())
                        ));
                    }
                }
            }
        }
        let open_enum = matches!(resolved, TypeRef::Named(id)
            if matches!(model.types.get(id).map(|d| &d.kind), Some(TypeKind::Enum(_))));
        steps.push(Step {
            rust_name: field.rust_name.clone(),
            optional: matches!(field.presence, Presence::Optional) && !collection,
            open_enum,
        });
    }
    Ok(steps)
}
