//! `grpc-status-details-bin`: a binary `google.rpc.Status` with its details as `Any` messages,
//! written from the details an error carries in ProtoJSON (the server), and read back into them
//! (the client); and the gRPC status codes by name, with the HTTP status of each.
//!
//! Hand-written: the three detail messages A2A errors carry (`ErrorInfo`, `BadRequest`,
//! `RetryInfo`) are a few fields each, and the crates that have them (tonic-types, googleapis
//! bindings) bring prost with them, which this codec exists to avoid.

use crate::protobuf::{encode_key, encode_varint, Limits, Reader, WireType};
use crate::rest::server::RETRY_INFO_TYPE;
use crate::wire::detail::{BAD_REQUEST_TYPE, ERROR_INFO_TYPE};
use crate::wire::ErrorDetail;
use serde_json::{Map, Value};

/// The gRPC status codes: name, number, and the HTTP status an HTTP+JSON reply of the same error
/// has (google.rpc.Code's own mapping). The server and the client read it (feature `grpc`).
#[cfg_attr(not(feature = "grpc"), allow(dead_code))]
pub(crate) const CODES: [(&str, i32, u16); 17] = [
    ("OK", 0, 200),
    ("CANCELLED", 1, 499),
    ("UNKNOWN", 2, 500),
    ("INVALID_ARGUMENT", 3, 400),
    ("DEADLINE_EXCEEDED", 4, 504),
    ("NOT_FOUND", 5, 404),
    ("ALREADY_EXISTS", 6, 409),
    ("PERMISSION_DENIED", 7, 403),
    ("RESOURCE_EXHAUSTED", 8, 429),
    ("FAILED_PRECONDITION", 9, 400),
    ("ABORTED", 10, 409),
    ("OUT_OF_RANGE", 11, 400),
    ("UNIMPLEMENTED", 12, 501),
    ("INTERNAL", 13, 500),
    ("UNAVAILABLE", 14, 503),
    ("DATA_LOSS", 15, 500),
    ("UNAUTHENTICATED", 16, 401),
];

/// Writes `google.rpc.Status { code = 1; message = 2; repeated Any details = 3 }`; a detail of a
/// type this file has no message for is left out (its JSON has no binary form here).
pub fn encode(code: i32, message: &str, details: &[ErrorDetail], buf: &mut Vec<u8>) {
    if code != 0 {
        encode_key(1, WireType::Varint, buf);
        // int32: a negative one is written as ten bytes, as protobuf does.
        encode_varint(i64::from(code) as u64, buf);
    }
    put_str(2, message, buf);
    for detail in details {
        if let Some(value) = detail_message(detail) {
            let mut any = Vec::new();
            put_str(1, detail.type_url(), &mut any);
            put_bytes(2, &value, &mut any);
            put_bytes(3, &any, buf);
        }
    }
}

/// The binary form of one detail, when its type is one of the three.
fn detail_message(detail: &ErrorDetail) -> Option<Vec<u8>> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
    let mut out = Vec::new();
    match detail.type_url() {
        ERROR_INFO_TYPE => {
            // ErrorInfo { reason = 1; domain = 2; map<string, string> metadata = 3 }
            put_str(1, &text(detail.get("reason")), &mut out);
            put_str(2, &text(detail.get("domain")), &mut out);
            if let Some(Value::Object(metadata)) = detail.get("metadata") {
                for (key, value) in metadata {
                    let mut entry = Vec::new();
                    put_str(1, key, &mut entry);
                    put_str(2, &text(Some(value)), &mut entry);
                    put_bytes(3, &entry, &mut out);
                }
            }
        }
        BAD_REQUEST_TYPE => {
            // BadRequest { repeated FieldViolation field_violations = 1 }
            // FieldViolation { field = 1; description = 2 }
            let violations = detail.get("fieldViolations").and_then(Value::as_array);
            for violation in violations.into_iter().flatten() {
                let mut v = Vec::new();
                put_str(1, &text(violation.get("field")), &mut v);
                put_str(2, &text(violation.get("description")), &mut v);
                put_bytes(1, &v, &mut out);
            }
        }
        RETRY_INFO_TYPE => {
            // RetryInfo { Duration retry_delay = 1 }, Duration { int64 seconds = 1 } from "2s"
            let delay = text(detail.get("retryDelay"));
            let seconds: u64 = delay.trim_end_matches('s').parse().unwrap_or(0);
            let mut duration = Vec::new();
            if seconds != 0 {
                encode_key(1, WireType::Varint, &mut duration);
                encode_varint(seconds, &mut duration);
            }
            put_bytes(1, &duration, &mut out);
        }
        _ => return None,
    }
    Some(out)
}

/// A string field, left out when empty (proto3's implicit presence).
fn put_str(number: u32, value: &str, buf: &mut Vec<u8>) {
    if !value.is_empty() {
        put_bytes(number, value.as_bytes(), buf);
    }
}

/// A length-delimited field (bytes, or an embedded message), always written.
fn put_bytes(number: u32, value: &[u8], buf: &mut Vec<u8>) {
    encode_key(number, WireType::Len, buf);
    encode_varint(value.len() as u64, buf);
    buf.extend_from_slice(value);
}

/// Reads the details of a binary `google.rpc.Status` (`grpc-status-details-bin`) into their
/// ProtoJSON form: `ErrorInfo`, `BadRequest` and `RetryInfo` with their fields, any other type
/// with its type URL alone. Bytes that do not read give what was read before them.
pub fn decode_details(bytes: &[u8]) -> Vec<ErrorDetail> {
    let mut out = Vec::new();
    let _ = fields(bytes, |number, wire, r| {
        if (number, wire) == (3, WireType::Len) {
            out.push(any(r.read_len_delimited()?)?);
            return Ok(());
        }
        r.skip(number, wire)
    });
    out
}

type Read<'a> = Result<(), crate::protobuf::DecodeError>;

/// Calls `each` with every field of `bytes` (its number, wire type and the reader at its value).
fn fields<'a>(
    bytes: &'a [u8],
    mut each: impl FnMut(u32, WireType, &mut Reader<'a>) -> Read<'a>,
) -> Read<'a> {
    let mut r = Reader::new(bytes, Limits::DEFAULT)?;
    while !r.is_empty() {
        let (number, wire) = r.read_key()?;
        each(number, wire, &mut r)?;
    }
    Ok(())
}

/// A string field's value.
fn text(r: &mut Reader<'_>) -> Result<String, crate::protobuf::DecodeError> {
    Ok(String::from_utf8_lossy(r.read_len_delimited()?).into_owned())
}

/// One `google.protobuf.Any { type_url = 1; value = 2 }` as a detail.
fn any(bytes: &[u8]) -> Result<ErrorDetail, crate::protobuf::DecodeError> {
    let (mut type_url, mut value) = (String::new(), &[][..]);
    fields(bytes, |number, wire, r| match (number, wire) {
        (1, WireType::Len) => text(r).map(|t| type_url = t),
        (2, WireType::Len) => r.read_len_delimited().map(|v| value = v),
        _ => r.skip(number, wire),
    })?;
    let mut detail = ErrorDetail::new(type_url.clone());
    match type_url.as_str() {
        ERROR_INFO_TYPE => {
            let (mut reason, mut domain, mut metadata) = (String::new(), String::new(), Map::new());
            fields(value, |number, wire, r| match (number, wire) {
                (1, WireType::Len) => text(r).map(|t| reason = t),
                (2, WireType::Len) => text(r).map(|t| domain = t),
                (3, WireType::Len) => {
                    let (mut key, mut val) = (String::new(), String::new());
                    fields(r.read_len_delimited()?, |n, w, e| match (n, w) {
                        (1, WireType::Len) => text(e).map(|t| key = t),
                        (2, WireType::Len) => text(e).map(|t| val = t),
                        _ => e.skip(n, w),
                    })?;
                    metadata.insert(key, Value::String(val));
                    Ok(())
                }
                _ => r.skip(number, wire),
            })?;
            detail = detail
                .with("reason", reason)
                .with("domain", domain)
                .with("metadata", Value::Object(metadata));
        }
        BAD_REQUEST_TYPE => {
            let mut violations = Vec::new();
            fields(value, |number, wire, r| match (number, wire) {
                (1, WireType::Len) => {
                    let (mut field, mut description) = (String::new(), String::new());
                    fields(r.read_len_delimited()?, |n, w, v| match (n, w) {
                        (1, WireType::Len) => text(v).map(|t| field = t),
                        (2, WireType::Len) => text(v).map(|t| description = t),
                        _ => v.skip(n, w),
                    })?;
                    violations
                        .push(serde_json::json!({"field": field, "description": description}));
                    Ok(())
                }
                _ => r.skip(number, wire),
            })?;
            detail = detail.with("fieldViolations", Value::Array(violations));
        }
        RETRY_INFO_TYPE => {
            let mut seconds = 0u64;
            fields(value, |number, wire, r| match (number, wire) {
                (1, WireType::Len) => fields(r.read_len_delimited()?, |n, w, d| match (n, w) {
                    (1, WireType::Varint) => d.read_varint().map(|s| seconds = s),
                    _ => d.skip(n, w),
                }),
                _ => r.skip(number, wire),
            })?;
            detail = detail.with("retryDelay", format!("{seconds}s"));
        }
        _ => {}
    }
    Ok(detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_go_round() {
        let details = vec![
            ErrorDetail::error_info("TASK_NOT_FOUND", "a2a-protocol.org", [("taskId", "t-1")]),
            ErrorDetail::bad_request([("message.parts", "missing")]),
            crate::rest::server::retry_info(2),
        ];
        let mut buf = Vec::new();
        encode(5, "Task not found", &details, &mut buf);
        assert_eq!(decode_details(&buf), details);
        // Bytes that do not read: what came before them.
        assert_eq!(decode_details(&buf[..buf.len() - 1]).len(), 2);
        assert!(decode_details(b"\xff").is_empty());
    }
}
