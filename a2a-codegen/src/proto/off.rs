//! The proto route when a2a-codegen is built without its `proto` feature (protox and its
//! dependencies are not compiled): a `.proto` input is a clear error saying how to turn it on.
//! The types are uninhabited, so the callers' `match`es need no feature gates of their own.

use crate::diag::Diagnostics;
use crate::ir::{MethodDef, TypeDef, TypeId};
use crate::load::{RawMethods, Source};
use std::collections::BTreeMap;
use std::path::Path;

/// A compiled proto: never made without the feature.
#[derive(Clone, Debug)]
pub(crate) enum Compiled {}

/// One rpc: never made without the feature.
#[derive(Clone, Debug)]
pub(crate) enum Rpc {}

/// What a proto lowers to.
pub(crate) struct Lowered {
    pub(crate) types: BTreeMap<TypeId, TypeDef>,
    pub(crate) rpcs: Vec<Rpc>,
}

/// Refuses the proto at `path`: this build cannot compile it.
pub(crate) fn read(path: &Path, label: &str, diags: &mut Diagnostics) -> Option<Source<Compiled>> {
    diags
        .push(
            label,
            "",
            format!(
                "{} is a .proto, and this a2a-codegen was built without its `proto` feature \
                 (the protobuf compiler)",
                path.display()
            ),
        )
        .help(
            "enable it (`a2a-codegen = { version = \"...\", default-features = false, features \
             = [\"proto\"] }`; it is on by default), or give the JSON Schema instead",
        );
    None
}

pub(crate) fn lower(source: &Source<Compiled>, _: &mut Diagnostics) -> Lowered {
    match source.value {}
}

pub(crate) fn module_doc(source: &Source<Compiled>) -> String {
    match source.value {}
}

pub(crate) fn methods(
    rpcs: &[Rpc],
    _: Option<&Source<RawMethods>>,
    _: &str,
    _: &BTreeMap<TypeId, TypeDef>,
    _: &mut Diagnostics,
) -> Vec<MethodDef> {
    match rpcs.first() {
        None => Vec::new(),
        Some(rpc) => match *rpc {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proto_without_the_feature_is_an_error_saying_how_to_turn_it_on() {
        let mut diags = Diagnostics::default();
        assert!(read(Path::new("spec/a2a.proto"), "spec/a2a.proto", &mut diags).is_none());
        let text = diags.to_string();
        assert!(text.contains("built without its `proto` feature"), "{text}");
        assert!(text.contains("features = [\"proto\"]"), "{text}");
    }
}
