//! Reading the JSON Schema the A2A project publishes: a pre-pass that turns it, completed by an
//! overlay of our own, into a2a-codegen's own dialect (the one `spec/v1/a2a.schema.json` is
//! written in), so that lowering stays one code path.
//!
//! The published schema is generated from the proto by `protoc-gen-jsonschema`. It says what the
//! fields are and what JSON they hold, but not which fields are REQUIRED, which properties form a
//! oneof, or in which order the proto declares the fields; and it spells the model with keywords
//! our dialect does not use. The pre-pass rewrites the spelling, and the overlay
//! (`spec/v1/overlay.toml`, format in `spec/v1/README.md`; `spec/v0_3/overlay.toml` for the
//! v0.3.0 schema, additions in `spec/v0_3/README.md`) supplies what the schema cannot say.
//!
//! ## Shapes, and how they are told apart ([`detect`])
//!
//! | shape | container | `$ref` | recognised by |
//! |---|---|---|---|
//! | [`Shape::Own`] | `$defs` (or `definitions`) | `#/$defs/Name` | anything that is not one of the two below |
//! | [`Shape::Bundle`] (v1.0.x `a2a.json`) | `definitions`, keyed by spaced titles (`"Agent Card"`) | file names (`lf.a2a.v1.Message.jsonschema.json`) | `definitions` in which some `$ref` names a `*.jsonschema.json` file |
//! | [`Shape::LocalBundle`] (after upstream PR #2074) | `$defs`, keyed by message names | local (`#/$defs/Message`) | some definition uses a ProtoJSON idiom of the generator (below) |
//! | [`Shape::V03`] (v0.3.x `a2a.json`, from TypeScript) | `definitions`, keyed by type names | local (`#/definitions/Part`) | `$schema` is draft-07 and some definition is an `anyOf` of 2+ refs whose targets all require a member pinned with a distinct `const` (`kind`, `type`) |
//!
//! The idioms: a `patternProperties` entry `^(snake_name)$` (the snake_case spelling of a
//! property), an `anyOf` that is an inlined enum (`[{"type": "string", "pattern":
//! "^X_UNSPECIFIED$"}, {"type": "string", "enum": [...]}, {"type": "integer", "minimum": ...,
//! "maximum": ...}]`), or an `anyOf` that is an int32 (`[{"type": "integer", "minimum":
//! -2147483648, "maximum": 2147483647}, {"type": "string", "pattern": "^-?[0-9]+$"}]`). Our
//! dialect never uses them (the lowerer rejects them), so no schema that lowers today changes
//! meaning. `additionalProperties: false` alone is *not* an idiom, and a file-name `$ref` under
//! `$defs` is not a bundle: in our own schema both stay the errors they always were.
//!
//! ## What the pre-pass does ([`import`])
//!
//! - Definition keys become type names: a file-name suffix `.jsonschema.json` and a package prefix
//!   (`lf.a2a.v1.`, `google.protobuf.`) are cut, spaces removed (`"O Auth2 Security Scheme"` ->
//!   `OAuth2SecurityScheme`). `$ref`s (file names, or local pointers into the file's container)
//!   become `#/$defs/Name`.
//! - Inlined enums become named enum definitions: values in the order written, the zero value
//!   (`pattern`) first, so a value's index is its proto number. The name comes from the overlay
//!   (`[enum.TaskState] zero = "TASK_STATE_UNSPECIFIED"`), else from the property's `title`
//!   (`"Task State"`), else from the zero value's prefix (`TASK_STATE_UNSPECIFIED` -> `TaskState`).
//!   Every use with the same name must list the same values.
//! - int32 `anyOf`s become `{"type": "integer", "format": "int32"}`; the base64 `pattern` of
//!   `bytes` becomes `"format": "byte"`; `propertyNames: {"type": "string"}` on maps is dropped.
//! - `patternProperties` are dropped when every entry is the snake_case alias of a property (the
//!   generator derives and accepts those aliases itself); any other entry is an error.
//! - `default`s holding the ProtoJSON zero value (`""`, `false`, `0`, the enum's zero) are dropped.
//!   The bundle puts them on every field without explicit presence; they say nothing the type does
//!   not, and our dialect models every field that is not REQUIRED as optional (absent is visible),
//!   as `spec/v1` does. A non-zero `default` is kept and means what it means in our dialect.
//! - `additionalProperties: false` on messages is dropped, never turned into a closed struct: A2A
//!   v1 §5.7 says receivers skip unknown fields. The generator says so once, as a [`Note`].
//! - `$schema` and `$id` inside definitions, definition `title`s (the spaced names) and the
//!   top-level `version` and `$ref` are dropped. Anything else is kept for the lowerer, which
//!   reports what it does not support; its diagnostics are mapped back to the published file's
//!   own JSON pointers (or to the overlay's TOML path, for what the overlay added).
//!
//! For [`Shape::V03`] (format of its overlay in `spec/v0_3/README.md`):
//!
//! - The JSON-RPC layer is left out by rule (one [`Note`] says so): definitions with a `jsonrpc`
//!   member, error objects (`code` and `message` members, `code` required), and `anyOf`s of refs
//!   to those only. The overlay's `drop` leaves out more (the base shapes, which the concrete
//!   definitions repeat since the schema uses no `allOf`); a kept `$ref` to a dropped definition
//!   is an error.
//! - A definition that is an `anyOf` of refs to `const`-tagged definitions becomes
//!   `{"oneOf": [refs], "x-discriminator": member}`; any other `anyOf` definition is an error.
//! - `[union.Name] at = pointer` makes a definition of an inline `anyOf` of refs (a tagged union,
//!   or with `oneof = "name"` one object merging the branches, whose members only some branches
//!   require form the oneof); `[enum.Name] at = pointer` names an inline `enum`. Each use becomes
//!   a `$ref`.
//! - `additionalProperties: {}` on an object without properties is dropped (a free-form object);
//!   a `default` on a required member is dropped (it has nothing to fill in).
//!
//! Then the overlay is applied: property order, `required`, the oneof group, `deprecated` flags,
//! enum names and descriptions, and whole definitions the schema lacks (`Empty`). An overlay entry
//! that names a message, property or enum the schema lacks is an error at its TOML path.

mod detect;
mod enums;
mod idioms;
mod keys;
mod overlay;
mod rewrite;
mod unions;
mod v03;

pub use detect::{detect, Shape};
pub use keys::type_name;
pub use overlay::{read_overlay, Overlay};

use crate::diag::{pointer_push, Diagnostics, Note};
use crate::ir::{TypeDef, TypeId};
use crate::load::{self, Source};
use crate::naming;
use crate::{Error, GeneratedFile};
use overlay::apply_messages;
use rewrite::Importer;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use unions::{ref_branches, tag_of_union};
use v03::dropped_by_rule;

/// A published schema rewritten into our dialect.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The schema in our dialect; label and SHA-256 are the published file's.
    pub schema: Source<Value>,
    /// What the generator decided on the schema's behalf.
    pub notes: Vec<Note>,
    /// `(pointer in the rewritten schema, file, pointer there, keep the rest of the pointer)`.
    origins: Vec<(String, String, String, bool)>,
}

impl Imported {
    /// Points diagnostics about the rewritten schema (from lowering and validation) back at the
    /// published file's own JSON pointers, or at the overlay's TOML path for what it added.
    pub fn remap(&self, diags: &mut Diagnostics) {
        for d in diags.0.iter_mut().filter(|d| d.file == self.schema.label) {
            let best = self
                .origins
                .iter()
                .filter(|(new, ..)| {
                    d.location == *new
                        || d.location
                            .strip_prefix(new.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                })
                .max_by_key(|(new, ..)| new.len());
            if let Some((new, file, old, keep_rest)) = best {
                let rest = if *keep_rest {
                    &d.location[new.len()..]
                } else {
                    ""
                };
                d.location = format!("{old}{rest}");
                d.file = file.clone();
            }
        }
    }
}

/// Rewrites a published schema into our dialect and applies the overlay. Every problem found is
/// added to `diags`; `None` when there was any (a published schema without an overlay is one).
pub fn import(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
) -> Option<Imported> {
    let errors_before = diags.0.len();
    let shape = detect(&schema.value);
    let file = schema.label.as_str();
    let Some(root) = schema.value.as_object() else {
        diags.push(file, "", "the schema must be a JSON object");
        return None;
    };
    if shape == Shape::Own {
        diags
            .push(
                file,
                "",
                "the schema is in a2a-codegen's own dialect, not a published layout",
            )
            .help("lower it as it is (`lower_types` does), without an overlay");
        return None;
    }
    if overlay.is_none() {
        diags
            .push(
                file,
                "",
                format!(
                    "this is {}; it does not say which fields are REQUIRED or which properties \
                     form a oneof, so a2a-codegen needs an overlay to read it",
                    shape.describe()
                ),
            )
            .help(format!(
                "put an `{}` beside it in the spec directory (a2a-codegen's {} is the one for \
                 A2A {}), or name one with `Config::overlay`; {} describes the format",
                load::OVERLAY_FILE,
                if shape == Shape::V03 {
                    "spec/v0_3/overlay.toml"
                } else {
                    "spec/v1/overlay.toml"
                },
                if shape == Shape::V03 {
                    "v0.3.0"
                } else {
                    "v1.0.x"
                },
                if shape == Shape::V03 {
                    "spec/v0_3/README.md"
                } else {
                    "spec/v1/README.md"
                },
            ));
    }
    let (container, defs) = match (root.get("$defs"), root.get("definitions")) {
        (Some(_), Some(_)) => {
            diags
                .push(file, "", "both `$defs` and `definitions` are present")
                .help("keep one container of definitions");
            return None;
        }
        (Some(d), None) => ("$defs", d),
        (None, Some(d)) => ("definitions", d),
        (None, None) => {
            diags
                .push(file, "", "the schema has no `$defs` or `definitions`")
                .help("a published schema keeps its types under `definitions` or `$defs`");
            return None;
        }
    };
    let Some(defs) = defs.as_object() else {
        diags.push(
            file,
            format!("/{container}"),
            "must be an object of named schemas",
        );
        return None;
    };
    let empty = Overlay::default();
    let (overlay_value, overlay_file) = match overlay {
        Some(o) => (&o.value, o.label.as_str()),
        None => (&empty, ""),
    };
    let mut im = Importer {
        file,
        container,
        shape,
        defs,
        keys: BTreeMap::new(),
        zero_names: BTreeMap::new(),
        enums: BTreeMap::new(),
        enum_sites: BTreeMap::new(),
        union_sites: BTreeMap::new(),
        dropped: BTreeSet::new(),
        closed: Vec::new(),
        diags,
    };
    let mut origins = Vec::new();

    // Names first, so that every `$ref` can be resolved whatever the order.
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for key in defs.keys() {
        let name = type_name(key);
        let at = pointer_push(&format!("/{container}"), key);
        if !naming::is_identifier(&name) {
            im.diags
                .push(file, &at, format!("`{key}` does not give a type name (got `{name}`)"))
                .help("a definition's key, without spaces, must be a message name such as `AgentCard`");
        } else if let Some(other) = seen.insert(name.clone(), key.clone()) {
            im.diags
                .push(
                    file,
                    &at,
                    format!("`{key}` and `{other}` both give the type name `{name}`"),
                )
                .help("every definition must have its own name");
        } else {
            im.keys.insert(key.clone(), name);
        }
    }
    for (name, e) in &overlay_value.enums {
        let at = pointer_push("/enum", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the enum like a Rust type, e.g. [enum.TaskState]");
        } else {
            match (&e.zero, &e.at) {
                (Some(zero), None) => {
                    if let Some(other) = im.zero_names.insert(zero.clone(), name.clone()) {
                        im.diags
                            .push(
                                overlay_file,
                                format!("{at}/zero"),
                                format!("`{zero}` already names enum `{other}`"),
                            )
                            .help("each inlined enum is named once, by its zero value");
                    }
                }
                (None, Some(site)) => {
                    if schema
                        .value
                        .pointer(site)
                        .and_then(|v| v.get("enum"))
                        .is_none()
                    {
                        im.diags
                            .push(
                                overlay_file,
                                format!("{at}/at"),
                                format!("the schema has no inline `enum` at `{site}`"),
                            )
                            .help(
                                "give the JSON pointer of the property holding the enum, e.g. \
                                   \"/definitions/Message/properties/role\"",
                            );
                    } else {
                        im.enum_sites.insert(site.clone(), name.clone());
                    }
                }
                _ => {
                    im.diags
                        .push(
                            overlay_file,
                            &at,
                            "an enum table needs exactly one of `zero` and `at`",
                        )
                        .help(
                            "`zero` names an inlined ProtoJSON enum (v1) by its zero value; `at` \
                             names an inline enum (v0.3) by the JSON pointer of its property",
                        );
                }
            }
        }
    }

    // Definitions that are not generated: by rule in a v0.3 schema, and as the overlay says.
    if shape == Shape::V03 {
        let dropped = dropped_by_rule(defs, &format!("#/{container}/"));
        im.dropped.extend(dropped);
    }
    for (i, name) in overlay_value.drop.iter().enumerate() {
        match im.keys.iter().find(|(_, n)| *n == name) {
            Some((key, _)) => {
                im.dropped.insert(key.clone());
            }
            None => {
                im.diags
                    .push(
                        overlay_file,
                        format!("/drop/{i}"),
                        format!("the schema has no definition `{name}`"),
                    )
                    .help("fix the name or remove it from `drop`");
            }
        }
    }
    let mut union_defs = Vec::new();
    for (name, u) in &overlay_value.union {
        let at = pointer_push("/union", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the union like a Rust type, e.g. [union.SendMessageResult]");
            continue;
        }
        if im.keys.values().any(|n| n == name) {
            im.diags
                .push(
                    overlay_file,
                    &at,
                    format!("the schema already defines `{name}`"),
                )
                .help("choose a name the schema does not use");
            continue;
        }
        let prefix = format!("#/{container}/");
        let any = schema.value.pointer(&u.at).and_then(|v| v.get("anyOf"));
        let Some(targets) = any.and_then(|a| ref_branches(a, &prefix)) else {
            im.diags
                .push(
                    overlay_file,
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
            None => match tag_of_union(defs, any, &prefix) {
                Ok(tag) => im.tagged(any, &tag, &anyof_at),
                Err(why) => {
                    im.diags
                        .push(
                            overlay_file,
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
                match im.merged(&keys, oneof) {
                    Ok(def) => def,
                    Err(why) => {
                        im.diags
                            .push(overlay_file, format!("{at}/oneof"), why)
                            .help("merge only branches that differ in which members they require");
                        continue;
                    }
                }
            }
        };
        let mut def = def;
        if let Some(text) = &u.description {
            def.insert("description".into(), text.as_str().into());
        }
        im.union_sites.insert(u.at.clone(), name.clone());
        origins.push((
            pointer_push("/$defs", name),
            overlay_file.to_string(),
            at,
            false,
        ));
        union_defs.push((name.clone(), Value::Object(def)));
    }

    let mut out_defs = Map::new();
    for (key, def) in defs {
        let Some(name) = im.keys.get(key).cloned() else {
            continue;
        };
        if im.dropped.contains(key) {
            continue;
        }
        let at = pointer_push(&format!("/{container}"), key);
        let value = im.schema(def, &at, true);
        if def.get("anyOf").is_some() && value.get("oneOf").is_some() {
            // A union rewritten from `anyOf`: its branches point back at the `anyOf`'s.
            origins.push((
                format!("{}/oneOf", pointer_push("/$defs", &name)),
                file.to_string(),
                format!("{at}/anyOf"),
                true,
            ));
        }
        origins.push((pointer_push("/$defs", &name), file.to_string(), at, true));
        out_defs.insert(name, value);
    }
    for (name, found) in std::mem::take(&mut im.enums) {
        let mut def = Map::new();
        def.insert("type".into(), "string".into());
        def.insert(
            "enum".into(),
            found
                .values
                .iter()
                .map(|v| Value::from(v.as_str()))
                .collect(),
        );
        if let Some(text) = overlay_value
            .enums
            .get(&name)
            .and_then(|e| e.description.as_ref())
        {
            def.insert("description".into(), text.as_str().into());
        }
        origins.push((
            pointer_push("/$defs", &name),
            file.to_string(),
            found.pointer.clone(),
            false,
        ));
        if out_defs.contains_key(&name) {
            im.diags
                .push(
                    file,
                    &found.pointer,
                    format!("this enum would be named `{name}`, which is already a definition"),
                )
                .help(format!(
                    "name it in the overlay: [enum.<Name>] zero = \"{}\"",
                    found.values[0]
                ));
        }
        out_defs.insert(name.clone(), Value::Object(def));
        im.enums.insert(name, found);
    }
    for (name, def) in union_defs {
        out_defs.insert(name, def);
    }
    for (name, e) in &overlay_value.enums {
        if let Some(site) = &e.at {
            let found = im.enums.get(name).is_some_and(|f| f.pointer == *site);
            if !found && im.enum_sites.get(site) == Some(name) {
                im.diags
                    .push(
                        overlay_file,
                        format!("{}/at", pointer_push("/enum", name)),
                        format!("the enum at `{site}` is in a definition that is not generated"),
                    )
                    .help("remove the table");
            }
        }
        let Some(zero) = &e.zero else {
            continue;
        };
        let matched = im
            .enums
            .get(name)
            .is_some_and(|found| found.values.first() == Some(zero));
        if !matched && im.zero_names.get(zero) == Some(name) {
            im.diags
                .push(
                    overlay_file,
                    format!("{}/zero", pointer_push("/enum", name)),
                    format!("the schema has no inlined enum whose zero value is `{zero}`"),
                )
                .help("fix the value (the `pattern` branch of the enum's `anyOf`, without ^ and $), or remove the table");
        }
    }
    apply_messages(
        &overlay_value.message,
        &mut out_defs,
        overlay_file,
        im.diags,
        &mut origins,
    );
    for (name, table) in &overlay_value.definition {
        let at = pointer_push("/definition", name);
        if !naming::is_identifier(name) {
            im.diags
                .push(overlay_file, &at, format!("`{name}` is not a type name"))
                .help("name the definition like a Rust type, e.g. [definition.Empty]");
            continue;
        }
        if out_defs.contains_key(name) {
            im.diags
                .push(
                    overlay_file,
                    &at,
                    format!("the schema already defines `{name}`"),
                )
                .help("remove the table: the overlay adds only definitions the schema lacks");
            continue;
        }
        match serde_json::to_value(table) {
            Ok(value) => {
                out_defs.insert(name.clone(), value);
                origins.push((
                    pointer_push("/$defs", name),
                    overlay_file.to_string(),
                    at,
                    true,
                ));
            }
            Err(e) => {
                im.diags
                    .push(overlay_file, &at, format!("not a JSON schema: {e}"))
                    .help(
                        "write the definition as in a2a.schema.json, with TOML tables and arrays",
                    );
            }
        }
    }

    let mut out = Map::new();
    for (key, value) in root {
        match key.as_str() {
            "$defs" | "definitions" => {
                out.insert("$defs".into(), Value::Object(std::mem::take(&mut out_defs)));
            }
            // Annotations of the published file, and the entry point of a json-bundle: every
            // definition is generated anyway.
            "version" | "$id" => {}
            "$ref" if value.is_string() => {}
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    let mut notes = Vec::new();
    if let Some(first) = im.closed.first() {
        let n = im.closed.len();
        notes.push(Note {
            file: file.to_string(),
            location: first.clone(),
            message: format!(
                "the schema closes {n} message{} with `additionalProperties: false`; a2a-codegen \
                 ignores it (A2A v1 §5.7: receivers skip unknown fields), so the generated types \
                 accept members they do not know",
                if n == 1 { "" } else { "s" }
            ),
        });
    }
    let by_rule = if shape == Shape::V03 {
        dropped_by_rule(defs, &format!("#/{container}/"))
    } else {
        BTreeSet::new()
    };
    if let Some(first) = by_rule.iter().next() {
        notes.push(Note {
            file: file.to_string(),
            location: pointer_push(&format!("/{container}"), first),
            message: format!(
                "the import leaves out the {} definitions of the JSON-RPC envelope and the error \
                 objects; the generator writes its own envelope from methods.toml and its error \
                 enum from errors.toml",
                by_rule.len()
            ),
        });
    }
    if diags.0.len() > errors_before {
        return None;
    }
    Some(Imported {
        schema: Source {
            label: schema.label.clone(),
            sha256: schema.sha256.clone(),
            value: Value::Object(out),
        },
        notes,
        origins,
    })
}

/// Lowers a schema of any layout to the model's types: our own dialect as written, a published
/// one through `import` with `overlay` (diagnostics point into the published file and the
/// overlay). What `Config` does for the schema, for tools that want the model.
pub fn lower_types(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
    notes: &mut Vec<Note>,
) -> BTreeMap<TypeId, TypeDef> {
    if detect(&schema.value) == Shape::Own {
        return crate::lower::lower_schema(schema, diags);
    }
    let Some(imported) = import(schema, overlay, diags) else {
        return BTreeMap::new();
    };
    notes.extend(imported.notes.iter().cloned());
    let mut own = Diagnostics::default();
    let types = crate::lower::lower_schema(&imported.schema, &mut own);
    imported.remap(&mut own);
    diags.0.extend(own.0);
    types
}

/// Where `Config` found an overlay.
pub(crate) struct OverlayPath {
    pub(crate) path: PathBuf,
    pub(crate) label: String,
    /// Named with `Config::overlay` (else found in the spec directory).
    pub(crate) explicit: bool,
}

/// `Config`'s hook: passes a schema in our dialect straight to `generate`; imports a published
/// one first (reading the overlay), maps diagnostics back, and names the overlay in the headers.
pub(crate) fn generate_with(
    schema: Source<Value>,
    overlay: Option<OverlayPath>,
    mut diags: Diagnostics,
    notes: &mut Vec<Note>,
    generate: impl FnOnce(Source<Value>, Diagnostics) -> Result<Vec<GeneratedFile>, Error>,
) -> Result<Vec<GeneratedFile>, Error> {
    let shape = detect(&schema.value);
    if shape == Shape::Own {
        if let Some(o) = overlay.filter(|o| o.explicit) {
            diags
                .push(
                    &o.label,
                    "",
                    format!(
                        "an overlay is given, but {} is in a2a-codegen's own dialect",
                        schema.label
                    ),
                )
                .help(
                    "the overlay completes the schema the A2A project publishes; remove the \
                     overlay setting, or use the published a2a.json as the schema",
                );
            return Err(Error::Input(diags));
        }
        return generate(schema, diags);
    }
    let overlay = match overlay {
        Some(o) => match read_overlay(&o.path, &o.label, &mut diags) {
            Some(source) => Some(source),
            None => return Err(Error::Input(diags)),
        },
        None => None,
    };
    let Some(imported) = import(&schema, overlay.as_ref(), &mut diags) else {
        return Err(Error::Input(diags));
    };
    notes.extend(imported.notes.iter().cloned());
    match generate(imported.schema.clone(), diags) {
        Err(Error::Input(mut diags)) => {
            imported.remap(&mut diags);
            Err(Error::Input(diags))
        }
        Ok(mut files) => {
            if let Some(overlay) = &overlay {
                let after = format!("// input: {} sha256:{}\n", schema.label, schema.sha256);
                let line = format!("// input: {} sha256:{}\n", overlay.label, overlay.sha256);
                for f in &mut files {
                    add_header_line(&mut f.contents, &after, &line);
                }
            }
            Ok(files)
        }
        Err(other) => Err(other),
    }
}

/// Inserts `line` after `after` in the header of a generated file (the lines before the first
/// blank line), when the header has `after`: the overlay is an input wherever the schema is.
fn add_header_line(contents: &mut String, after: &str, line: &str) {
    let header_end = contents.find("\n\n").unwrap_or(0);
    if let Some(at) = contents[..header_end + 1].find(after) {
        contents.insert_str(at + after.len(), line);
    }
}

#[cfg(test)]
mod tests;
