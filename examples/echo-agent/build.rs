//! Generates the A2A v1 module, plus this agent's own error enum, into OUT_DIR on every build
//! whose inputs changed (a2a-codegen prints `cargo:rerun-if-changed` for each of them).
//!
//! `main` returns the generator's error rather than unwrapping it, so a bad input fails the
//! build with the generator's report (file, JSON pointer or TOML row, what to do), not a panic.

fn main() -> Result<(), a2a_codegen::Error> {
    // The A2A v1 spec embedded in a2a-codegen: no file of this repository is needed.
    a2a_codegen::Config::a2a_v1()
        .custom_errors("echo-errors.toml")
        .single_file("a2a.rs")
        .write()?;
    Ok(())
}
