//! `grpc-status-details-bin`: a binary `google.rpc.Status` with its details as `Any` messages,
//! written with the runtime's protobuf encoder from the details the error carries in ProtoJSON.
//!
//! Hand-written: the three detail messages A2A errors carry (`ErrorInfo`, `BadRequest`,
//! `RetryInfo`) are a few fields each, and the crates that have them (tonic-types, googleapis
//! bindings) bring prost with them, which this codec exists to avoid.

use crate::protobuf::{encode_key, encode_varint, WireType};
use crate::rest::server::RETRY_INFO_TYPE;
use crate::wire::detail::{BAD_REQUEST_TYPE, ERROR_INFO_TYPE};
use crate::wire::ErrorDetail;
use serde_json::Value;

/// Writes `google.rpc.Status { code = 1; message = 2; repeated Any details = 3 }`; a detail of a
/// type this file has no message for is left out (its JSON has no binary form here).
pub(super) fn status(code: i32, message: &str, details: &[ErrorDetail], buf: &mut Vec<u8>) {
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
