//! For this workspace only, not part of a2a-codegen's API (hidden from its docs, and free to
//! change): the settings of the checked-in crate `a2a-types`, which the CLI's defaults, the
//! freshness test and the bench share, and the stage functions the workspace's import tests
//! (`tests/tests/import.rs`) call one by one.

/// Spec directory of the checked-in crate, relative to the workspace root.
pub const CHECKED_IN_SPEC: &str = "spec/v1";
/// Output directory of the checked-in crate, relative to the workspace root.
pub const CHECKED_IN_OUT: &str = "generated/src/v1";
/// Runtime path used inside the checked-in crate (a2a-types re-exports `a2a-runtime` as `rt`).
pub const CHECKED_IN_RUNTIME: &str = "crate::rt";

/// Spec directory of the checked-in v0.3 module, relative to the workspace root.
pub const CHECKED_IN_V0_3_SPEC: &str = "spec/v0_3";
/// Output directory of the checked-in v0.3 module, relative to the workspace root.
pub const CHECKED_IN_V0_3_OUT: &str = "generated/src/v0_3";

/// Spec directory of the checked-in v1.1 draft module, relative to the workspace root.
pub const CHECKED_IN_V1_1_DRAFT_SPEC: &str = "spec/v1_1_draft";
/// Output directory of the checked-in v1.1 draft module, relative to the workspace root.
pub const CHECKED_IN_V1_1_DRAFT_OUT: &str = "generated/src/v1_1_draft";

/// One checked-in module of `a2a-types`: its spec directory and output directory (relative to
/// the workspace root), and where it renders the error reference, if it does.
#[derive(Clone, Copy, Debug)]
pub struct CheckedIn {
    /// The spec directory.
    pub spec: &'static str,
    /// The output directory.
    pub out: &'static str,
    /// The error reference it renders (only the v1 module renders one).
    pub error_reference: Option<&'static str>,
}

/// Every checked-in module of `a2a-types`, v1 first: what `generate` and `check` without `--spec`
/// run, and what the freshness test checks.
pub const CHECKED_IN_MODULES: &[CheckedIn] = &[
    CheckedIn {
        spec: CHECKED_IN_SPEC,
        out: CHECKED_IN_OUT,
        error_reference: Some(CHECKED_IN_ERROR_REFERENCE),
    },
    CheckedIn {
        spec: CHECKED_IN_V0_3_SPEC,
        out: CHECKED_IN_V0_3_OUT,
        error_reference: None,
    },
    CheckedIn {
        spec: CHECKED_IN_V1_1_DRAFT_SPEC,
        out: CHECKED_IN_V1_1_DRAFT_OUT,
        error_reference: None,
    },
];

/// The cargo feature of `a2a-types` that turns on its `schemars::JsonSchema` impls.
pub const CHECKED_IN_JSON_SCHEMA_FEATURE: &str = "schemars";

/// What the headers of the checked-in crate tell a reader to run after changing its inputs.
pub const CHECKED_IN_REGENERATE: &str = "run `cargo run -p a2a-codegen -- generate`";

/// The error reference of the checked-in crate, relative to the workspace root.
pub const CHECKED_IN_ERROR_REFERENCE: &str = "generated/ERRORS.md";

pub use crate::import::{detect, read_overlay, Overlay, Shape};
pub use crate::load::{read_json, sha256_hex, Source};
pub use crate::lower::lower_schema;

use crate::ir::{TypeDef, TypeId};
use crate::{Diagnostics, Note};
use serde_json::Value;
use std::collections::BTreeMap;

/// Lowers a schema of any layout to the model's types: our own dialect as written, a published
/// one through the import with `overlay` (diagnostics point into the published file and the
/// overlay). What `Config` does for the schema, for tools that want the model.
pub fn lower_types(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
    notes: &mut Vec<Note>,
) -> BTreeMap<TypeId, TypeDef> {
    if detect(&schema.value) == Shape::Own {
        return lower_schema(schema, diags);
    }
    let Some(imported) = crate::import::import(schema, overlay, diags) else {
        return BTreeMap::new();
    };
    notes.extend(imported.notes.iter().cloned());
    let mut own = Diagnostics::default();
    let types = lower_schema(&imported.schema, &mut own);
    imported.remap(&mut own);
    diags.0.extend(own.0);
    types
}

/// The declarations of the proto at `path` as plain JSON: names, numbers, types, labels, oneofs,
/// no comments (format in `src/proto/outline.rs`). For the generator of the hand-made bufbuild
/// JSON Schema fixture (`a2a-codegen/examples/proto_outline.rs`). `Err` holds what the compiler
/// refused.
#[cfg(feature = "proto")]
pub fn proto_outline(path: &std::path::Path, label: &str) -> Result<Value, Diagnostics> {
    let mut diags = Diagnostics::default();
    match crate::proto::read(path, label, &mut diags) {
        Some(compiled) if diags.is_empty() => Ok(crate::proto::outline(&compiled.value)),
        _ => Err(diags),
    }
}
