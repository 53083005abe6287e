//! This workspace's own tasks, kept out of the published crates: the settings that produce the
//! checked-in crate `a2a-types` (`generated/`) from `spec/`, shared by `cargo xtask generate`,
//! `cargo xtask check`, the freshness test (`tests/freshness.rs`) and the generation bench.
//!
//! Everything here is a2a-codegen's public API used as a user would use it: one
//! [`Config`] per checked-in module.

pub mod cycles;

use a2a_codegen::{Config, Impls, JsonSchemaImpls};
use std::path::{Path, PathBuf};

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
    /// The conversion table to another module and that module's path (0.3 converts to 1.0).
    pub convert: Option<(&'static str, &'static str)>,
    /// Whether it has the protobuf codec (behind [`PROTOBUF_FEATURE`]): the modules whose spec
    /// numbers its fields (1.0 and the 1.1 draft; 0.3 has no proto numbers here).
    pub protobuf: bool,
}

/// Every checked-in module of `a2a-types`, v1 first.
pub const CHECKED_IN_MODULES: &[CheckedIn] = &[
    CheckedIn {
        spec: "spec/v1",
        out: "generated/src/v1",
        error_reference: Some("generated/ERRORS.md"),
        convert: None,
        protobuf: true,
    },
    CheckedIn {
        spec: "spec/v0_3",
        out: "generated/src/v0_3",
        error_reference: None,
        convert: Some(("spec/v0_3/convert.toml", "crate::v1")),
        protobuf: false,
    },
    CheckedIn {
        spec: "spec/v1_1_draft",
        out: "generated/src/v1_1_draft",
        error_reference: None,
        convert: None,
        protobuf: true,
    },
];

/// The runtime path inside `a2a-types` (it re-exports `a2a-runtime` as `rt`).
pub const RUNTIME_PATH: &str = "crate::rt";

/// The cargo feature of `a2a-types` that turns on its `schemars::JsonSchema` impls.
pub const JSON_SCHEMA_FEATURE: &str = "schemars";

/// The cargo feature of `a2a-types` that turns on its protobuf codec.
pub const PROTOBUF_FEATURE: &str = "protobuf";

/// What the headers of the checked-in crate tell a reader to run after changing its inputs.
pub const REGENERATE: &str = "run `cargo xtask generate`";

/// The command that regenerates the checked-in crate, as `check` prints it.
pub const GENERATE_COMMAND: &str = "cargo xtask generate";

/// The root of this workspace (the parent of `xtask/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// The settings of one checked-in module: labelled relative to the workspace root, runtime
/// `crate::rt`, schemars impls behind the feature `schemars`, the protobuf codec behind the
/// feature `protobuf` where the spec numbers its fields, the error reference where the module
/// renders one.
pub fn checked_in_module(root: &Path, module: &CheckedIn) -> Config {
    let mut config = Config::new(root.join(module.spec));
    config
        .source_label(module.spec)
        .regenerate_hint(REGENERATE)
        .out_dir(root.join(module.out))
        .runtime_path(RUNTIME_PATH)
        .json_schema(JsonSchemaImpls::Feature(JSON_SCHEMA_FEATURE.into()));
    if let Some(reference) = module.error_reference {
        config.error_reference(root.join(reference));
    }
    if let Some((table, path)) = module.convert {
        config.convert(root.join(table), path);
    }
    if module.protobuf {
        config.protobuf(Impls::Feature(PROTOBUF_FEATURE.into()));
    }
    config
}

/// The settings of the v1 module (`spec/v1` into `generated/src/v1`, with `generated/ERRORS.md`).
pub fn checked_in(root: &Path) -> Config {
    checked_in_module(root, &CHECKED_IN_MODULES[0])
}

/// The settings of every checked-in module, v1 first.
pub fn checked_in_all(root: &Path) -> Vec<Config> {
    CHECKED_IN_MODULES
        .iter()
        .map(|module| checked_in_module(root, module))
        .collect()
}
