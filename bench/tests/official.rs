//! typify 0.8 on the official A2A schemas, read in place from `../shared`: what it fails on as
//! published, and that the rewrites of `a2a_bench::typify_side::prepare` are exactly what the
//! generation bench needs. If a typify upgrade reads the bundle as published, these fail and the
//! bench's documentation must change with them.

use a2a_bench::typify_side::{self, TypifyError};
use a2a_bench::{OFFICIAL_V0_3, OFFICIAL_V1};
use a2a_tests::shared_path;
use serde_json::Value;

fn read(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn typify_panics_on_the_v1_bundle_as_published() {
    let Some(path) = shared_path("typify on the published v1 bundle", OFFICIAL_V1) else {
        return;
    };
    match typify_side::generate_unprepared(read(&path)) {
        Err(TypifyError::Panic(message)) => assert!(
            message.starts_with("external references are not supported: lf.a2a.v1.")
                && message.ends_with(".jsonschema.json"),
            "{message}"
        ),
        other => panic!("expected typify to panic on the file-name $refs, got {other:?}"),
    }
}

#[test]
fn typify_reads_the_v1_bundle_after_the_three_rewrites() {
    let Some(path) = shared_path("typify on the rewritten v1 bundle", OFFICIAL_V1) else {
        return;
    };
    let out = typify_side::generate(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.rewrites,
        [
            "40 definition keys: spaces removed (\"Agent Card\" -> \"AgentCard\")",
            "70 `$ref`s to file names rewritten to `#/definitions/<name>` (33 distinct)",
            "9 `default`s beside an `anyOf` (inlined enums) dropped",
        ]
    );
    for name in [
        "pub struct Task {",
        "pub struct AgentCard {",
        "pub struct StreamResponse {",
    ] {
        assert!(out.code.contains(name), "no `{name}` in typify's output");
    }
    // What a2a-codegen's rustdoc says typify makes of the bundle: `deny_unknown_fields` from its
    // `additionalProperties: false`.
    assert!(out.code.contains("#[serde(deny_unknown_fields)]"));
}

#[test]
fn typify_reads_the_v0_3_schema_as_published() {
    let Some(path) = shared_path("typify on the published v0.3.0 schema", OFFICIAL_V0_3) else {
        return;
    };
    let out = typify_side::generate(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.rewrites.is_empty(), "{:?}", out.rewrites);
    // v0.3's `kind` unions become untagged enums (first match wins), as a2a-codegen's rustdoc says.
    assert!(out.code.contains("pub enum Part {"));
    assert!(out.code.contains("#[serde(untagged)]"));
}
