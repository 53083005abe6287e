//! **Unstable**: the generator's stages one by one, for this workspace's tests and tools (the
//! import tests in `tests/tests/import.rs`, `examples/proto_outline.rs`). Compiled only with the
//! non-default cargo feature `unstable-internals`; not covered by semver, and free to change in
//! any release. Use [`Config`](crate::Config) instead.

pub use crate::import::{detect, read_overlay, Overlay, Shape};
pub use crate::load::{read_json, sha256_hex, Source};
pub use crate::lower::lower_schema;

use crate::ir::{TypeDef, TypeId};
use crate::{Diagnostics, Note};
use serde_json::Value;
use std::collections::BTreeMap;

/// Lowers a schema held in memory, of any layout, to the model's types: our own dialect as
/// written, a published one imported with `overlay` (diagnostics point into the published file
/// and the overlay). The pipeline's own import and lowering steps.
pub fn lower_types(
    schema: &Source<Value>,
    overlay: Option<&Source<Overlay>>,
    diags: &mut Diagnostics,
    notes: &mut Vec<Note>,
) -> BTreeMap<TypeId, TypeDef> {
    crate::pipeline::lower_types(schema, overlay, diags, notes)
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
