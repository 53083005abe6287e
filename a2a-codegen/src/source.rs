//! Reading one input file's bytes, remembering its label and SHA-256 ([`Source`]): what `load`
//! and `proto` both read files with, so that neither depends on the other for it.

use crate::diag::Diagnostics;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// One input file: its label (for messages and headers), its bytes' SHA-256, and its content.
#[derive(Clone, Debug)]
pub struct Source<T> {
    /// How the file is named in diagnostics and in `@generated` headers (never an absolute path).
    pub label: String,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// The parsed content.
    pub value: T,
}

/// The bytes of the file at `path`, or a diagnostic saying why it cannot be read.
pub(crate) fn read_bytes(path: &Path, label: &str, diags: &mut Diagnostics) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            diags
                .push(
                    label,
                    "",
                    format!("cannot read {}: {e}", display_path(path)),
                )
                .help("check the path of the spec directory or file (--spec, or Config::new)");
            None
        }
    }
}

fn display_path(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}

/// The bytes as text, or a diagnostic at the first byte that is not UTF-8 (with `help`).
pub(crate) fn utf8<'a>(
    bytes: &'a [u8],
    label: &str,
    help: &str,
    diags: &mut Diagnostics,
) -> Option<&'a str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) => {
            diags
                .push(
                    label,
                    format!("byte {}", e.valid_up_to()),
                    "not valid UTF-8",
                )
                .help(help);
            None
        }
    }
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
