//! The JSON-RPC 2.0 binding (spec §9), by side: [`client`] writes requests and reads replies
//! (the response envelope, the one choke point every reply body goes through, and streamed
//! replies), [`server`] reads requests and writes responses and stream events. What both sides
//! name is here: the request [`RequestId`], the [`codes`] and the error object [`RawError`] (which
//! the error tables read, below either side).
//!
//! On HTTP, every JSON-RPC response, success or error, is sent with status `200 OK` and the
//! content type [`CONTENT_TYPE`]; a streamed reply is `200 OK` with `text/event-stream`, one
//! response per event; a notification (a request without `id`) gets `204 No Content` and no
//! body. A client reads the body whatever the status.

use crate::body::describe;
use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::{Number, Value};
use std::fmt;

pub mod client;
pub mod server;

/// The content type of JSON-RPC requests and responses over HTTP (`application/a2a+json` is
/// read alike).
pub const CONTENT_TYPE: &str = "application/json";

/// The JSON-RPC 2.0 error codes the request side produces itself. They are fixed by JSON-RPC 2.0,
/// not by A2A; the generated error table gives each its variant and default message.
pub mod codes {
    /// The body is not JSON.
    pub const PARSE_ERROR: i64 = a2a_facts::jsonrpc::PARSE_ERROR;
    /// The body is JSON but not a valid request object.
    pub const INVALID_REQUEST: i64 = a2a_facts::jsonrpc::INVALID_REQUEST;
    /// No such method.
    pub const METHOD_NOT_FOUND: i64 = a2a_facts::jsonrpc::METHOD_NOT_FOUND;
    /// The params do not fit the method.
    pub const INVALID_PARAMS: i64 = a2a_facts::jsonrpc::INVALID_PARAMS;
    /// The server failed.
    pub const INTERNAL_ERROR: i64 = a2a_facts::jsonrpc::INTERNAL_ERROR;
}

/// A request `id`: a string, a number or `null`, echoed unchanged in the response.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A numeric id (kept as sent: integer or not).
    Number(Number),
    /// A string id.
    String(String),
    /// `null`: what a response carries when the request's id could not be read.
    Null,
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Number(n.into())
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        RequestId::String(s.to_string())
    }
}

impl From<String> for RequestId {
    fn from(s: String) -> Self {
        RequestId::String(s)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{}", Value::String(s.clone())),
            RequestId::Null => f.write_str("null"),
        }
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Number(n) => n.serialize(serializer),
            RequestId::String(s) => serializer.serialize_str(s),
            RequestId::Null => serializer.serialize_unit(),
        }
    }
}

/// A string, a number or `null`; anything else is an error.
impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Number(n) => Ok(RequestId::Number(n)),
            Value::String(s) => Ok(RequestId::String(s)),
            Value::Null => Ok(RequestId::Null),
            other => Err(de::Error::custom(format!(
                "`id` is {}; it must be a string, a number or null",
                describe(&other)
            ))),
        }
    }
}

/// A JSON-RPC error object as received: `code` is always present; `message` is `None` when it was
/// missing or not a string (callers fall back to their table's default message).
#[derive(Clone, Debug, PartialEq)]
pub struct RawError {
    /// The error code.
    pub code: i64,
    /// The message, when the agent sent a string.
    pub message: Option<String>,
    /// The `data` member, when present (any JSON, `null` included).
    pub data: Option<Value>,
}
