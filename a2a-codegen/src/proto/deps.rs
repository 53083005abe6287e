//! The `google/api` protos the A2A proto imports, compiled into this crate from `spec/proto-deps`
//! (through the `spec` link beside the manifest, which `cargo package` follows), so that a build
//! script generating from a proto needs no copy of them. Where they come from, with hashes and
//! license: `spec/proto-deps/README.md`.

use protox::file::{File, FileResolver};

macro_rules! dep {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/spec/proto-deps/",
                $name
            )),
        )
    };
}

/// (import name, source) of every embedded file.
const FILES: &[(&str, &str)] = &[
    dep!("google/api/annotations.proto"),
    dep!("google/api/client.proto"),
    dep!("google/api/field_behavior.proto"),
    dep!("google/api/http.proto"),
    dep!("google/api/launch_stage.proto"),
];

/// The import names of the embedded files, for help texts.
pub(super) const NAMES: &[&str] = &[
    "google/api/annotations.proto",
    "google/api/client.proto",
    "google/api/field_behavior.proto",
    "google/api/http.proto",
    "google/api/launch_stage.proto",
];

/// Resolves the embedded files by import name.
pub(super) struct EmbeddedDeps;

impl FileResolver for EmbeddedDeps {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        match FILES.iter().find(|(n, _)| *n == name) {
            Some((name, source)) => File::from_source(name, source),
            None => Err(protox::Error::file_not_found(name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_embedded_files() {
        let names: Vec<&str> = FILES.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, NAMES);
        for name in NAMES {
            assert!(EmbeddedDeps.open_file(name).is_ok(), "{name} parses");
        }
    }
}
