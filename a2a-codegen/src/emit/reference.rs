//! The human-readable error reference (`ERRORS.md`), rendered from the table with askama: text
//! for people comes from a template, Rust comes from `quote!`.

use crate::ir::{ErrorDef, ErrorKind};
use askama::Template;

#[derive(Template)]
#[template(path = "ERRORS.md", escape = "none")]
struct ErrorsDoc<'a> {
    label: &'a str,
    sha256: &'a str,
    regenerate: &'a str,
    a2a: Vec<&'a ErrorDef>,
    standard: Vec<&'a ErrorDef>,
    reserved_low: i64,
    reserved_high: i64,
}

/// Renders `ERRORS.md` for the table read from the file `label` with hash `sha256`; its header
/// tells a reader to `regenerate` after changing the table (as the code headers do).
pub fn render_error_reference(
    errors: &[ErrorDef],
    label: &str,
    sha256: &str,
    regenerate: &str,
) -> Result<String, String> {
    let doc = ErrorsDoc {
        label,
        sha256,
        regenerate,
        a2a: errors.iter().filter(|e| e.kind == ErrorKind::A2a).collect(),
        standard: errors
            .iter()
            .filter(|e| e.kind == ErrorKind::JsonRpc)
            .collect(),
        reserved_low: *crate::facts::RESERVED.start(),
        reserved_high: *crate::facts::RESERVED.end(),
    };
    let mut text = doc
        .render()
        .map_err(|e| format!("rendering ERRORS.md failed (a generator bug): {e}"))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}
