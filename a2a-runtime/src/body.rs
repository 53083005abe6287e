//! What every reader of a body shares, on both bindings and both sides: the BOM rule and the
//! wording of its reasons.

use serde_json::Value;

/// The body without one leading UTF-8 BOM (RFC 8259 §8.1 lets a reader ignore it; a2a-sdk's
/// does), for every reader of a body: replies of both bindings and requests.
pub(crate) fn without_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body)
}

pub(crate) fn not_json_reason(body: &[u8], e: &serde_json::Error) -> String {
    if body.iter().all(u8::is_ascii_whitespace) {
        return "the body is empty".to_string();
    }
    let text = e.to_string();
    if text.contains("recursion limit") {
        return format!("the body nests too deeply to decode ({text})");
    }
    if std::str::from_utf8(body).is_err() && text.contains("invalid unicode") {
        return format!("the body is not valid UTF-8 ({text})");
    }
    format!("the body is not valid JSON: {text}")
}

/// `a2a_types::v1::types::Task` -> `Task` (generic arguments kept).
pub(crate) fn short_type_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    let head = full.split('<').next().unwrap_or(full);
    let start = head.rfind("::").map_or(0, |i| i + 2);
    &full[start..]
}

/// "a JSON array", "the string \"boom\"", ... for messages.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => "a JSON string".to_string(),
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Array(_) => "a JSON array".to_string(),
        Value::Object(_) => "a JSON object".to_string(),
    }
}

/// The first 80 characters of a body, quoted, for a reason.
pub(crate) fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        out.push_str("...");
    }
    format!("{out:?}")
}

/// The body without surrounding ASCII whitespace and without one leading UTF-8 BOM (RFC 8259
/// §8.1 lets a reader ignore it; a2a-sdk's does).
pub(crate) fn trim(body: &[u8]) -> &[u8] {
    let body = without_bom(body);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let end = body
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &body[start..end]
}
