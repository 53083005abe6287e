//! Stage 1: read the input files into raw values, remembering where each came from.
//!
//! Nothing is interpreted here beyond syntax: the schema stays a `serde_json::Value` (so lowering
//! can name JSON pointers), the tables become plain serde structs.

use crate::diag::Diagnostics;
pub(crate) use crate::source::{read_bytes, utf8};
pub use crate::source::{sha256_hex, Source};
use serde::Deserialize;
use std::path::Path;

/// File name of the JSON Schema inside a spec directory.
pub const SCHEMA_FILE: &str = "a2a.schema.json";
/// File name of the error table inside a spec directory.
pub const ERRORS_FILE: &str = "errors.toml";
/// File name of the method table inside a spec directory.
pub const METHODS_FILE: &str = "methods.toml";
/// File name the A2A project publishes its schema under: a spec directory without
/// [`SCHEMA_FILE`] may hold the downloaded file as it is (with an overlay beside it).
pub const PUBLISHED_SCHEMA_FILE: &str = "a2a.json";

/// File name of the proto inside a spec directory (in place of a JSON Schema).
pub const PROTO_FILE: &str = "a2a.proto";

/// The data-model file of a spec directory: [`SCHEMA_FILE`]; else [`PROTO_FILE`] (the normative
/// form); else [`PUBLISHED_SCHEMA_FILE`]; [`SCHEMA_FILE`] when none is there (its absence is
/// then the error).
pub fn schema_file_in(dir: &Path) -> &'static str {
    [SCHEMA_FILE, PROTO_FILE, PUBLISHED_SCHEMA_FILE]
        .into_iter()
        .find(|f| dir.join(f).exists())
        .unwrap_or(SCHEMA_FILE)
}

/// Whether a spec file is a proto (by its extension, `.proto`), not a JSON Schema.
pub fn is_proto(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("proto"))
}

/// File name of the overlay inside a spec directory: what the schema the A2A project publishes
/// cannot say (see [`crate::import`]); read only when the schema is a published one.
pub const OVERLAY_FILE: &str = "overlay.toml";

/// `errors.toml` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawErrors {
    /// The rows, in order.
    #[serde(default)]
    pub error: Vec<RawError>,
}

/// One `[[error]]` row as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RawError {
    pub name: String,
    pub spec_name: String,
    pub code: i64,
    pub kind: String,
    pub grpc: String,
    pub http: i64,
    #[serde(default)]
    pub reason: Option<String>,
    pub message: String,
    pub doc: String,
}

/// A user's own error table (`Config::custom_errors`, `--custom-errors`): the row format of
/// `errors.toml`, where only `name` and `code` are required and `kind`, if given, is `"custom"`.
/// `reason` (the `google.rpc.ErrorInfo` reason) defaults to the name in UPPER_SNAKE_CASE; the
/// reasons are checked with the codes (see `validate`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCustomErrors {
    /// The name of the generated enum (default `CustomError`).
    #[serde(default, rename = "enum")]
    pub enum_name: Option<String>,
    /// The rows, in order.
    #[serde(default)]
    pub error: Vec<RawCustomError>,
}

/// One `[[error]]` row of a custom table as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RawCustomError {
    pub name: String,
    #[serde(default)]
    pub spec_name: Option<String>,
    pub code: i64,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub grpc: Option<String>,
    #[serde(default)]
    pub http: Option<i64>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub doc: Option<String>,
}

/// `methods.toml` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMethods {
    /// The A2A version the table's methods are served in (`"1.0"`, `"0.3"`): what the generated
    /// `Protocol` declares to a transport, which negotiates `A2A-Version` with it. Absent: the
    /// module gets its service trait but no `Protocol` or `A2aServer`.
    #[serde(default)]
    pub protocol_version: Option<String>,
    /// The rows, in order.
    #[serde(default)]
    pub method: Vec<RawMethod>,
}

/// One `[[method]]` row as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RawMethod {
    pub name: String,
    #[serde(default)]
    pub rust_name: Option<String>,
    pub params: String,
    pub result: String,
    pub streaming: bool,
    pub doc: String,
    /// Dotted JSON paths into the params that the method cannot run without (see
    /// [`crate::requires`]); absent means none.
    #[serde(default)]
    pub requires: Vec<String>,
    /// The method's HTTP+JSON routes (`google.api.http` rules), the primary one first; absent
    /// means none.
    #[serde(default)]
    pub http: Vec<RawHttpRule>,
    /// Routes a server also takes the method at, besides `http` (a client never sends them):
    /// where the spec's text or a2a-sdk's client use another verb than the proto; absent means
    /// none.
    #[serde(default)]
    pub http_also_served: Vec<RawHttpRule>,
    /// The error row (by `name`) a service without this method answers with: the default body of
    /// the method in the generated service trait. Absent: `UnsupportedOperation`.
    #[serde(default)]
    pub unsupported: Option<String>,
}

/// One entry of a method's `http` list as written: `{ verb = "GET", path = "/tasks/{id=*}" }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RawHttpRule {
    pub verb: String,
    pub path: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub response_body: Option<String>,
}

/// Reads one JSON Schema file (used for spec directories and single-file fixtures alike).
pub fn read_json(
    path: &Path,
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<serde_json::Value>> {
    let bytes = read_bytes(path, label, diags)?;
    parse_json(&bytes, label, diags)
}

/// Parses schema bytes already in memory.
pub fn parse_json(
    bytes: &[u8],
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<serde_json::Value>> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Some(Source {
            label: label.to_string(),
            sha256: sha256_hex(bytes),
            value,
        }),
        Err(e) => {
            diags
                .push(
                    label,
                    format!("line {}, column {}", e.line(), e.column()),
                    format!("not valid JSON: {e}"),
                )
                .help("fix the JSON syntax; the schema must be one JSON object");
            None
        }
    }
}

/// Reads one TOML table file if it exists.
pub fn read_toml_if_present<T: for<'de> Deserialize<'de>>(
    path: &Path,
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<T>> {
    if !path.exists() {
        return None;
    }
    read_toml(path, label, diags)
}

/// Reads one TOML table file (a missing file is a diagnostic).
pub fn read_toml<T: for<'de> Deserialize<'de>>(
    path: &Path,
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<T>> {
    let bytes = read_bytes(path, label, diags)?;
    parse_toml(&bytes, label, diags)
}

/// Parses one TOML table already in memory (an embedded spec's, or a file's bytes).
pub fn parse_toml<T: for<'de> Deserialize<'de>>(
    bytes: &[u8],
    label: &str,
    diags: &mut Diagnostics,
) -> Option<Source<T>> {
    let text = utf8(bytes, label, "save the file as UTF-8", diags)?;
    match toml::from_str::<T>(text) {
        Ok(value) => Some(Source {
            label: label.to_string(),
            sha256: sha256_hex(bytes),
            value,
        }),
        Err(e) => {
            let location = match e.span() {
                Some(span) => line_col(text, span.start),
                None => String::new(),
            };
            diags
                .push(
                    label,
                    location,
                    format!("invalid table: {}", e.message().trim_end()),
                )
                .help("see spec/v1/README.md for the table format");
            None
        }
    }
}

/// `line L, column C` (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_empty_input() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 4), "line 2, column 2");
        assert_eq!(line_col("ab", 0), "line 1, column 1");
    }
}
