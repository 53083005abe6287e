//! Prints the declarations of a proto as JSON (messages, fields, enums; no comments), compiled
//! by a2a-codegen's proto route. The generator of the hand-made bufbuild JSON Schema fixture
//! (`a2a-codegen/tests/fixtures/bufbuild/generate.py`) reads it:
//!
//!     cargo run -q -p a2a-codegen --example proto_outline -- path/to/a2a.proto > outline.json

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: proto_outline PATH.proto");
        return ExitCode::from(2);
    };
    let path = std::path::PathBuf::from(path);
    let label = path.display().to_string();
    match a2a_codegen::internals::proto_outline(&path, &label) {
        Ok(outline) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&outline).expect("JSON values serialise")
            );
            ExitCode::SUCCESS
        }
        Err(diags) => {
            eprintln!("{diags}");
            ExitCode::FAILURE
        }
    }
}
