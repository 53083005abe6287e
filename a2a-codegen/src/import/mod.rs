//! Reading the JSON Schema the A2A project publishes: a pre-pass that turns it, completed by an
//! overlay of our own, into a2a-codegen's own dialect (the one `spec/v1/a2a.schema.json` is
//! written in), so that lowering stays one code path.
//!
//! The published schema is generated from the proto by bufbuild's `protoc-gen-jsonschema`. It
//! says what the fields are and what JSON they hold, but not which fields are REQUIRED, what a
//! oneof is called (some versions of the plugin say which properties exclude each other), or in
//! which order the proto declares the fields; and it spells the model with keywords our dialect
//! does not use. The pre-pass rewrites the spelling, and the overlay
//! (`spec/v1/overlay.toml`, format in `spec/v1/README.md`; `spec/v0_3/overlay.toml` for the
//! v0.3.0 schema, additions in `spec/v0_3/README.md`) supplies what the schema cannot say.
//!
//! ## Shapes, and how they are told apart ([`detect`])
//!
//! | shape | container | `$ref` | recognised by |
//! |---|---|---|---|
//! | [`Shape::Own`] | `$defs` (or `definitions`) | `#/$defs/Name` | anything that is not one of those below |
//! | [`Shape::Bundle`] (v1.0.x `a2a.json`) | `definitions`, keyed by spaced titles (`"Agent Card"`) | file names (`lf.a2a.v1.Message.jsonschema.json`) | `definitions` in which some `$ref` names a `*.jsonschema.json` file |
//! | [`Shape::JsonBundle`] (the plugin's `target=json-bundle`) | `$defs`, keyed by full proto names plus `.jsonschema.json` (`lf.a2a.v1.Message.jsonschema.json`) | local (`#/$defs/lf.a2a.v1.Message.jsonschema.json`) | `$defs` in which some key ends like one of the plugin's schema files (`.jsonschema.json`; `.schema.json` and `.strict.json`, its other outputs, are refused when imported) |
//! | [`Shape::LocalBundle`] (after upstream PR #2074: the json-bundle with names shortened) | `$defs`, keyed by message names | local (`#/$defs/Message`) | some definition uses a ProtoJSON idiom of the generator (below) |
//! | [`Shape::V03`] (v0.3.x `a2a.json`, from TypeScript) | `definitions`, keyed by type names | local (`#/definitions/Part`) | `$schema` is draft-07 and some definition is an `anyOf` of 2+ refs whose targets all require a member pinned with a distinct `const` (`kind`, `type`) |
//!
//! The idioms: a `patternProperties` entry `^(snake_name)$` (the snake_case spelling of a
//! property), an `anyOf` that is an inlined enum (`[{"type": "string", "pattern":
//! "^X_UNSPECIFIED$"}, {"type": "string", "enum": [...]}, {"type": "integer", "minimum": ...,
//! "maximum": ...}]`; for a field with presence, a list item or a map value the zero value is
//! the first of the `enum` and there is no `pattern` branch), an `anyOf` that is an int32
//! (`[{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}, {"type": "string",
//! "pattern": "^-?[0-9]+$"}]`), or one that is a 64-bit integer (int64: `[{"type": "integer"},
//! {"type": "string", "pattern": "^-?[0-9]+$"}]`; uint64: `[{"type": "integer", "minimum": 0},
//! {"type": "string", "pattern": "^[0-9]+$"}]`; bounds that are the type's own, and a matching
//! `format`, may be added). Our dialect never uses them (the lowerer rejects them), nor
//! definition keys ending `.jsonschema.json` (no type name), so no schema that lowers today
//! changes meaning. `additionalProperties: false` alone is *not* an idiom, and a file-name
//! `$ref` under `$defs` is not a bundle: in our own schema both stay the errors they always were.
//!
//! ## What the pre-pass does ([`import`])
//!
//! - Definition keys become type names: a file-name suffix `.jsonschema.json` and a package prefix
//!   (`lf.a2a.v1.`, `google.protobuf.`) are cut, spaces removed (`"O Auth2 Security Scheme"` ->
//!   `OAuth2SecurityScheme`). `$ref`s (file names, or local pointers into the file's container)
//!   become `#/$defs/Name`. A json-bundle's root `$ref` (the message the plugin wrote it for)
//!   must name a definition, and is dropped with its `$id`.
//! - Inlined enums become named enum definitions: values in the order written, the zero value
//!   (`pattern`) first, so a value's index is its proto number. The name comes from the overlay
//!   (`[enum.TaskState] zero = "TASK_STATE_UNSPECIFIED"`), else from the property's `title`
//!   (`"Task State"`), else from the zero value's prefix (`TASK_STATE_UNSPECIFIED` -> `TaskState`).
//!   Every use with the same name must list the same values. (The schema gives names, not
//!   numbers: a proto enum numbered with gaps would be misnumbered; A2A's count 0, 1, 2, ...)
//! - int32 `anyOf`s become `{"type": "integer", "format": "int32"}`, 64-bit integer `anyOf`s
//!   `{"type": ["integer", "string"], "format": "int64"}` (or `"uint64"`); the base64 `pattern` of
//!   `bytes` becomes `"format": "byte"`; `propertyNames: {"type": "string"}` on maps is dropped.
//!   The `anyOf`s the plugin writes for int64, uint64, uint32, float and double (a JSON number or
//!   the strings ProtoJSON reads) are errors naming the protobuf type: the model has no such
//!   number (A2A v1.0.x uses none).
//! - A message's `allOf` is read as the plugin's oneof constraints (one entry per oneof: a
//!   `oneOf` of `{"required": [name]}` branches plus a `propertyNames` one, or an older `anyOf`
//!   of `required`/`not` pairs), whose members (JSON or proto names) must be those of the
//!   overlay's `oneof` for that message; a constrained oneof the overlay lacks, and, when the
//!   schema constrains any, an overlay oneof on a message it leaves unconstrained, are errors.
//!   The overlay still gives the oneof its name (`oneofs.rs`).
//! - `patternProperties` are dropped when every entry is the snake_case alias of a property (the
//!   generator derives and accepts those aliases itself); any other entry is an error.
//! - `default`s holding the ProtoJSON zero value (`""`, `false`, `0`, the enum's zero) are dropped.
//!   The bundle puts them on every field without explicit presence; they say nothing the type does
//!   not, and our dialect models every field that is not REQUIRED as optional (absent is visible),
//!   as `spec/v1` does. A non-zero `default` is kept and means what it means in our dialect.
//! - `additionalProperties: false` on messages is dropped, never turned into a closed struct: A2A
//!   v1 §5.7 says receivers skip unknown fields. The generator says so once, as a [`Note`].
//! - `$schema` and `$id` inside definitions, definition `title`s (the spaced names) and the
//!   top-level `version`, `$id` and `$ref` are dropped. A definition or property that is not a
//!   JSON object is an error (the generators write every one as an object). Anything else is kept for the lowerer, which
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
//!
//! ## Where each step lives
//!
//! [`import`] runs the steps in order, each a function of one file: `detect` (the layout, and the
//! published schema's container of definitions), `keys` (definition keys and `$ref`s to type
//! names), `enums` (the overlay's enum tables, naming and materialising inlined enums), `oneofs`
//! (the plugin's oneof constraints against the overlay), `v03` (what a v0.3 schema leaves out),
//! `unions` (tagged and merged unions), `rewrite` (one schema into our dialect), `importer` (the
//! state the steps share, which depends on none of them), `origin` (the remap table's entries), `idioms` (the ProtoJSON idioms it recognises) and `overlay` (the overlay's
//! format, its `[message]` and `[definition]` tables).

mod detect;
mod enums;
mod idioms;
mod importer;
mod keys;
mod oneofs;
mod origin;
mod overlay;
mod rewrite;
mod unions;
mod v03;

pub use detect::detect;
pub use importer::Shape;
pub use overlay::{read_overlay, Overlay};

use crate::diag::{Diagnostics, Note};
use crate::load::Source;
use importer::{Importer, Published};
use origin::Origin;
use overlay::{add_definitions, apply_messages, OverlayFile};
use rewrite::rewrite_root;
use serde_json::Value;
use std::path::PathBuf;
use v03::left_out_note;

/// A published schema rewritten into our dialect.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The schema in our dialect; label and SHA-256 are the published file's.
    pub schema: Source<Value>,
    /// What the generator decided on the schema's behalf.
    pub notes: Vec<Note>,
    /// Where the parts of the rewritten schema came from.
    remap: Remap,
}

/// The import's table of where each part of the rewritten schema came from.
#[derive(Clone, Debug)]
pub struct Remap {
    /// The rewritten schema's label (the published file's).
    file: String,
    origins: Vec<Origin>,
}

impl Remap {
    /// Points diagnostics about the rewritten schema (from lowering and validation) back at the
    /// published file's own JSON pointers, or at the overlay's TOML path for what it added.
    pub fn apply(&self, diags: &mut Diagnostics) {
        for d in diags.0.iter_mut().filter(|d| d.file == self.file) {
            let best = self
                .origins
                .iter()
                .filter(|o| {
                    d.location == o.new
                        || d.location
                            .strip_prefix(o.new.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                })
                .max_by_key(|o| o.new.len());
            if let Some(origin) = best {
                let rest = if origin.keep_rest {
                    &d.location[origin.new.len()..]
                } else {
                    ""
                };
                d.location = format!("{}{rest}", origin.old);
                d.file = origin.file.clone();
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
    let published = Published::find(schema, overlay.is_some(), diags)?;
    let empty = Overlay::default();
    let overlay = match overlay {
        Some(o) => OverlayFile {
            value: &o.value,
            label: &o.label,
        },
        None => OverlayFile {
            value: &empty,
            label: "",
        },
    };
    let mut origins = Vec::new();
    let mut im = Importer::new(&published, overlay, diags);

    // Names first, so that every `$ref` can be resolved whatever the order.
    im.name_definitions();
    im.read_overlay_enums();
    let by_rule = im.drop_definitions();
    let unions = im.build_overlay_unions(&mut origins);
    let mut defs = im.rewrite_definitions(&mut origins);
    im.check_oneofs_against_overlay();
    im.check_entry_point(published.root);
    im.materialise_enums(&mut defs, &mut origins);
    defs.extend(unions);
    im.check_overlay_enums_were_found();
    apply_messages(&overlay, &mut defs, im.diags, &mut origins);
    add_definitions(&overlay, &mut defs, im.diags, &mut origins);

    let notes = [im.closed_note(), left_out_note(&published, &by_rule)]
        .into_iter()
        .flatten()
        .collect();
    if diags.0.len() > errors_before {
        return None;
    }
    Some(Imported {
        schema: Source {
            label: schema.label.clone(),
            sha256: schema.sha256.clone(),
            value: Value::Object(rewrite_root(published.root, defs)),
        },
        notes,
        remap: Remap {
            file: schema.label.clone(),
            origins,
        },
    })
}

/// Where `Config` found an overlay.
#[derive(Clone, Debug)]
pub(crate) struct OverlayPath {
    pub(crate) path: PathBuf,
    pub(crate) label: String,
    /// Named with `Config::overlay` (else found in the spec directory).
    pub(crate) explicit: bool,
}

/// A schema ready to lower: in our dialect, as written or imported.
pub(crate) struct Prepared {
    /// The schema in our dialect (label and SHA-256 are the input file's).
    pub(crate) schema: Source<Value>,
    /// Where diagnostics about the imported schema belong (`None`: the schema was ours).
    pub(crate) remap: Option<Remap>,
    /// The overlay that completed it, an input wherever the schema is: (label, SHA-256).
    pub(crate) overlay: Option<(String, String)>,
    /// What the import decided on the schema's behalf.
    pub(crate) notes: Vec<Note>,
}

/// Passes a schema in our dialect on as it is; imports a published one (reading the overlay).
/// An overlay given for a schema of our own is an error.
pub(crate) fn prepare(
    schema: Source<Value>,
    overlay: Option<OverlayPath>,
    diags: &mut Diagnostics,
) -> Option<Prepared> {
    if detect(&schema.value) == Shape::Own {
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
            return None;
        }
        return prepare_read(schema, None, diags);
    }
    let overlay = match overlay {
        Some(o) => Some(read_overlay(&o.path, &o.label, diags)?),
        None => None,
    };
    prepare_read(schema, overlay, diags)
}

/// [`prepare`] with the overlay already read: a schema in our dialect goes on as it is (the
/// overlay unused), a published one is imported with it.
pub(crate) fn prepare_read(
    schema: Source<Value>,
    overlay: Option<Source<Overlay>>,
    diags: &mut Diagnostics,
) -> Option<Prepared> {
    if detect(&schema.value) == Shape::Own {
        return Some(Prepared {
            schema,
            remap: None,
            overlay: None,
            notes: Vec::new(),
        });
    }
    let imported = import(&schema, overlay.as_ref(), diags)?;
    Some(Prepared {
        schema: imported.schema,
        remap: Some(imported.remap),
        overlay: overlay.map(|o| (o.label, o.sha256)),
        notes: imported.notes,
    })
}

#[cfg(test)]
mod tests;
