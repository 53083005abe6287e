//! The import's state ([`Importer`]), which every step of the import (`keys`, `enums`,
//! `oneofs`, `unions`, `v03`, `rewrite`) extends with its own methods, and the types that state
//! holds. It depends on no step, so the steps depend on it and not on each other.

use super::overlay::OverlayFile;
use crate::diag::{Diagnostics, Note};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The layouts of schema a2a-codegen reads. See the docs of the import module
/// (`src/import/mod.rs`) for the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// a2a-codegen's own dialect: lowered as written.
    Own,
    /// The bundle published for A2A v1.0.x (`a2a.json`): `definitions` keyed by spaced titles,
    /// `$ref`s to file names.
    Bundle,
    /// The layout of the A2A generator script since upstream PR #2074: `$defs` keyed by message
    /// names with local `$ref`s, otherwise like [`Shape::Bundle`].
    LocalBundle,
    /// What bufbuild's `protoc-gen-jsonschema` writes with `target=json-bundle` (the generator
    /// of the A2A schema since upstream PR #2074, before its script shortens the names): `$defs`
    /// keyed by full proto names plus `.jsonschema.json` (`lf.a2a.v1.Task.jsonschema.json`),
    /// local `$ref`s to them, otherwise the idioms of [`Shape::Bundle`]; some versions of the
    /// plugin add an `allOf` oneof constraint per proto oneof.
    JsonBundle,
    /// The schema published for A2A v0.3.x (`specification/json/a2a.json`, generated from
    /// TypeScript): draft-07 `definitions`, `#/definitions/...` refs, unions as `anyOf`s of refs
    /// told apart by a `const` member, the JSON-RPC envelope and error objects alongside the data
    /// model.
    V03,
}

/// A published schema as the import reads it: its layout and its container of definitions.
pub(super) struct Published<'a> {
    /// The file's label, for diagnostics.
    pub(super) file: &'a str,
    pub(super) shape: Shape,
    /// The whole schema, for the overlay's JSON pointers into it.
    pub(super) value: &'a Value,
    pub(super) root: &'a Map<String, Value>,
    /// `$defs` or `definitions`.
    pub(super) container: &'static str,
    /// The definitions, by key.
    pub(super) defs: &'a Map<String, Value>,
}

/// An enum found in the published schema.
pub(super) struct FoundEnum {
    /// Its values, in the order written (a v1 enum's zero value first).
    pub(super) values: Vec<String>,
    /// Where it was first found.
    pub(super) pointer: String,
}

/// A oneof constraint found in the schema.
pub(super) struct SchemaOneof {
    /// The JSON pointer of the `allOf` entry.
    pub(super) pointer: String,
    /// The member properties (JSON names), in the order written.
    pub(super) members: Vec<String>,
}

/// The import's state: what it knows of the published schema and the overlay, and what it has
/// found so far.
pub(super) struct Importer<'a> {
    /// The published file's label.
    pub(super) file: &'a str,
    /// The whole published schema, for the overlay's JSON pointers into it.
    pub(super) value: &'a Value,
    /// The overlay (an empty one when there is none).
    pub(super) overlay: OverlayFile<'a>,
    /// `$defs` or `definitions`.
    pub(super) container: &'static str,
    pub(super) shape: Shape,
    /// The published definitions, by key.
    pub(super) defs: &'a Map<String, Value>,
    /// The overlay's inline enums (`[enum.X] at`): name by the JSON pointer of the property.
    pub(super) enum_sites: BTreeMap<String, String>,
    /// The overlay's unions (`[union.X]`): name by the JSON pointer of the `anyOf` it replaces.
    pub(super) union_sites: BTreeMap<String, String>,
    /// Keys of the definitions that are not generated.
    pub(super) dropped: BTreeSet<String>,
    /// Definition key -> type name.
    pub(super) keys: BTreeMap<String, String>,
    /// The overlay's enum names, by zero value.
    pub(super) zero_names: BTreeMap<String, String>,
    /// Inlined enums found so far, by name.
    pub(super) enums: BTreeMap<String, FoundEnum>,
    /// Where `additionalProperties: false` was dropped.
    pub(super) closed: Vec<String>,
    /// The oneof constraints of the schema (`allOf`), by type name.
    pub(super) schema_oneofs: BTreeMap<String, Vec<SchemaOneof>>,
    pub(super) diags: &'a mut Diagnostics,
}

impl<'a> Importer<'a> {
    pub(super) fn new(
        published: &Published<'a>,
        overlay: OverlayFile<'a>,
        diags: &'a mut Diagnostics,
    ) -> Self {
        Importer {
            file: published.file,
            value: published.value,
            overlay,
            container: published.container,
            shape: published.shape,
            defs: published.defs,
            keys: BTreeMap::new(),
            zero_names: BTreeMap::new(),
            enums: BTreeMap::new(),
            enum_sites: BTreeMap::new(),
            union_sites: BTreeMap::new(),
            dropped: BTreeSet::new(),
            closed: Vec::new(),
            schema_oneofs: BTreeMap::new(),
            diags,
        }
    }

    /// The one note about `additionalProperties: false`, when the schema closes any message.
    pub(super) fn closed_note(&self) -> Option<Note> {
        let first = self.closed.first()?;
        let n = self.closed.len();
        Some(Note {
            file: self.file.to_string(),
            location: first.clone(),
            message: format!(
                "the schema closes {n} message{} with `additionalProperties: false`; a2a-codegen \
                 ignores it (A2A v1 §5.7: receivers skip unknown fields), so the generated types \
                 accept members they do not know",
                if n == 1 { "" } else { "s" }
            ),
        })
    }
}
