//! With feature `prost-baseline` only (the bench of `src/bin/protobuf_cost.rs`): prost-build's
//! structs for the normative A2A proto, the baseline a2a-types' protobuf codec is measured
//! against. Without the feature this does nothing, and the workspace's ordinary build compiles no
//! prost-build.
//!
//! The proto is read in place, never copied into the repository:
//! `${A2A_SHARED_DIR:-<workspace>/../shared}/a2a-spec/v1.0/a2a.proto`, its `google/api` imports
//! from `<workspace>/spec/proto-deps`. protox compiles it to a `FileDescriptorSet` (no `protoc` to
//! install) and prost-build writes `lf.a2a.v1.rs` into `OUT_DIR`; the binary includes it under
//! `cfg(prost_baseline)`. Without the proto, the build fails when `CI` is set (CI must measure),
//! and elsewhere it warns and sets `PROST_BASELINE_SKIPPED` (the reason), which the binary prints
//! as `SKIPPED ...` before exiting 0: the tests' rule for ../shared (`a2a_tests::shared_dir`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(prost_baseline)");
    // Without this line cargo would run the script again whenever any file of the package changes.
    println!("cargo::rerun-if-changed=build.rs");
    // The build-dependencies exist with the feature only, so the code that calls them is
    // compiled under it (the `CARGO_FEATURE_PROST_BASELINE` cargo sets for this script).
    #[cfg(feature = "prost-baseline")]
    baseline::build();
}

#[cfg(feature = "prost-baseline")]
mod baseline {
    use std::path::PathBuf;

    pub fn build() {
        println!("cargo::rerun-if-env-changed=A2A_SHARED_DIR");
        println!("cargo::rerun-if-env-changed=CI");
        let manifest =
            PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
        let workspace = manifest
            .parent()
            .expect("bench/ sits in the workspace")
            .to_path_buf();
        let shared = match std::env::var_os("A2A_SHARED_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => workspace.join("../shared"),
        };
        let dir = shared.join("a2a-spec/v1.0");
        let proto = dir.join("a2a.proto");
        let deps = workspace.join("spec/proto-deps");
        println!("cargo::rerun-if-changed={}", proto.display());
        println!("cargo::rerun-if-changed={}", deps.display());
        if !proto.is_file() {
            let why = format!(
                "prost-baseline: the normative proto is missing at {} (set A2A_SHARED_DIR or lay \
                 shared/ beside the checkout)",
                proto.display()
            );
            if std::env::var_os("CI").is_some() {
                panic!("{why}; CI is set, and CI must build the protobuf baseline");
            }
            println!("cargo::warning={why}; protobuf_cost will print SKIPPED");
            println!("cargo::rustc-env=PROST_BASELINE_SKIPPED={why}");
            return;
        }
        let fds = protox::compile(["a2a.proto"], [&dir, &deps]).unwrap_or_else(|e| {
            panic!(
                "prost-baseline: protox cannot compile {}: {e}",
                proto.display()
            )
        });
        // prost-build writes a file per package of the set, imports included (it needs their
        // messages to decide what to derive); the binary includes `lf.a2a.v1.rs` alone (the
        // imports are google.api options, and the google.protobuf types are prost-types').
        prost_build::Config::new()
            .compile_fds(fds)
            .unwrap_or_else(|e| panic!("prost-baseline: prost-build failed: {e}"));
        println!("cargo::rustc-cfg=prost_baseline");
    }
}
