//! The generator's loader and pipeline: any text as a schema gives generated files or
//! diagnostics, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = a2a_codegen::Config::new("fuzz")
        .source_label("fuzz.json")
        .generate_from_str(text);
});
