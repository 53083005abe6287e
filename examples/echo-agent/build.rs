//! Generates the A2A v1 module, plus this agent's own error enum, and the A2A 0.3 module with its
//! conversions to v1, into OUT_DIR on every build
//! whose inputs changed (a2a-codegen prints `cargo:rerun-if-changed` for each of them).
//!
//! `main` returns the generator's error rather than unwrapping it, so a bad input fails the
//! build with the generator's report (file, JSON pointer or TOML row, what to do), not a panic.

fn main() -> Result<(), a2a_codegen::Error> {
    // The A2A v1 spec embedded in a2a-codegen: no file of this repository is needed.
    // With the protobuf codec of the same types: the agent serves gRPC too (a2a-runtime's `grpc`).
    a2a_codegen::Config::a2a_v1()
        .custom_errors("echo-errors.toml")
        .protobuf(a2a_codegen::Impls::Always)
        .single_file("a2a.rs")
        .write()?;
    // A2A 0.3 too, with the conversions to the module above (`crate::a2a`): the agent serves
    // 0.3 clients from its one 1.0 service (`a2a_v0_3::Compat`). In a directory of its own: a
    // write removes the generated files of its directory that it did not produce.
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    a2a_codegen::Config::a2a_v0_3()
        .convert_to_a2a_v1("crate::a2a")
        .single_file("a2a_v0_3.rs")
        .out_dir(out.join("v0_3"))
        .write()?;
    Ok(())
}
