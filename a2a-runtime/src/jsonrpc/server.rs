//! The agent's side of JSON-RPC 2.0: reading a request, writing responses and stream events
//! (sent as the [module above](super) says: `200 OK`, [`CONTENT_TYPE`](super::CONTENT_TYPE)).
//!
//! Generated code builds its typed request enum on [`RawRequest`]: [`RawRequest::parse`] checks
//! the request object, the generated code looks the method up in its table and decodes the
//! `params` with [`RawRequest::params`]. Every problem is a [`Fault`] carrying the JSON-RPC code
//! to answer with:
//!
//! | code | when |
//! |---|---|
//! | -32700 | the body is not JSON (not UTF-8, a syntax error, trailing garbage, too deep) |
//! | -32600 | JSON, but not a request object: not an object (batches are not part of A2A), `jsonrpc` not `"2.0"`, `method` missing or not a string, `id` not a string, number or null |
//! | -32601 | the method is not in the table (the generated code decides) |
//! | -32602 | the `params` do not decode as the method's params type, or lack a field the method cannot run without ([`RawRequest::require`]) |
//!
//! Members the request object does not need are ignored at every depth (A2A v1 §5.7), at the top
//! level too (the official Python server rejects them; capture 012). A missing or `null`
//! `params` reads as `{}`: A2A params are messages, and an empty message then fails on its
//! required fields, if it has any, as -32602.
//!
//! Decoding parses the body once, keeping `params` as a borrowed [`RawValue`] slice, and then
//! decodes those bytes as the params type picked by the method (the method may come after the
//! params in the object, so the type is not known during the first pass).
//!
//! The encoders write compact JSON. They cannot fail: a result whose `Serialize` fails becomes an
//! internal error (-32603) response saying so, which is what the client should see anyway.

use super::{codes, RequestId};
use crate::body::{describe, not_json_reason};
use crate::fault::Fault;
use crate::limits::Limits;
use crate::sse::ServerEvent;
use crate::table::ErrorTable;
use crate::wire::ErrorDetail;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;

/// A JSON-RPC request object whose envelope is valid; `params` not decoded yet.
#[derive(Clone, Debug)]
pub struct RawRequest<'a> {
    id: Option<RequestId>,
    method: String,
    params: Option<&'a RawValue>,
}

impl<'a> RawRequest<'a> {
    /// Checks the request object (see the [module docs](self) for the rules). One leading UTF-8
    /// BOM is ignored.
    ///
    /// ```
    /// use a2a_runtime::jsonrpc::{codes, server::RawRequest, RequestId};
    ///
    /// let raw = RawRequest::parse(br#"{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"t"}}"#).unwrap();
    /// assert_eq!((raw.method(), raw.id()), ("GetTask", Some(&RequestId::from(7))));
    ///
    /// let fault = RawRequest::parse(br#"{"jsonrpc":"1.0","id":"a","method":"GetTask"}"#).unwrap_err();
    /// assert_eq!((fault.code, fault.id), (codes::INVALID_REQUEST, RequestId::from("a")));
    /// ```
    pub fn parse(body: &'a [u8]) -> Result<Self, Fault> {
        RawRequest::parse_limited(body, &Limits::DEFAULT)
    }

    /// [`RawRequest::parse`] under these [`Limits`]: a body over them is an invalid request
    /// (-32600) saying which limit, refused before any parsing.
    pub fn parse_limited(body: &'a [u8], limits: &Limits) -> Result<Self, Fault> {
        if let Err(reason) = limits.check(body) {
            return Err(Fault::new(
                RequestId::Null,
                codes::INVALID_REQUEST,
                reason.replace("the body", "the request"),
            ));
        }
        let body = crate::body::without_bom(body);
        let members = match serde_json::from_slice::<Members<'a>>(body) {
            Ok(members) => members,
            Err(e) if e.is_data() => {
                // Valid JSON, but not an object (the only way the member visitor fails on data).
                let what = serde_json::from_slice::<Value>(body)
                    .map(|v| describe(&v))
                    .unwrap_or_else(|_| "not an object".to_string());
                let batch = if what == "a JSON array" {
                    " (JSON-RPC batches are not part of A2A)"
                } else {
                    ""
                };
                return Err(Fault::new(
                    RequestId::Null,
                    codes::INVALID_REQUEST,
                    format!("the request is {what}, not an object{batch}"),
                ));
            }
            Err(e) => {
                return Err(Fault::new(
                    RequestId::Null,
                    codes::PARSE_ERROR,
                    not_json_reason(body, &e).replace("the body", "the request"),
                ))
            }
        };
        let id = match members.id {
            None => None,
            Some(raw) => match serde_json::from_str::<RequestId>(raw.get()) {
                Ok(id) => Some(id),
                Err(e) => {
                    return Err(Fault::new(
                        RequestId::Null,
                        codes::INVALID_REQUEST,
                        // `e` names the type; serde_json appends a position we do not need.
                        strip_position(&e.to_string()),
                    ));
                }
            },
        };
        let response_id = id.clone().unwrap_or(RequestId::Null);
        let invalid = |detail: String| {
            Err(Fault::new(
                response_id.clone(),
                codes::INVALID_REQUEST,
                detail,
            ))
        };
        match members.jsonrpc.map(string_member) {
            Some(Ok(version)) if version == "2.0" => {}
            Some(Ok(version)) => {
                return invalid(format!(
                    "`jsonrpc` is {}; it must be \"2.0\"",
                    describe(&Value::String(version))
                ))
            }
            Some(Err(what)) => return invalid(format!("`jsonrpc` is {what}; it must be \"2.0\"")),
            None => return invalid("`jsonrpc` is missing; it must be \"2.0\"".to_string()),
        }
        let method = match members.method.map(string_member) {
            Some(Ok(method)) => method,
            Some(Err(what)) => return invalid(format!("`method` is {what}, not a string")),
            None => return invalid("`method` is missing".to_string()),
        };
        let params = members.params.filter(|raw| raw.get() != "null");
        Ok(RawRequest { id, method, params })
    }

    /// The request's id; `None` for a notification (no `id` member), which JSON-RPC says gets no
    /// response.
    pub fn id(&self) -> Option<&RequestId> {
        self.id.as_ref()
    }

    /// The id to put in a response: the request's, or `null` for a notification.
    pub fn response_id(&self) -> RequestId {
        self.id.clone().unwrap_or(RequestId::Null)
    }

    /// The method name as sent.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// Decodes the params as `P` (`{}` when absent or null). A failure is an invalid-params fault
    /// whose detail names the JSON path, with a `google.rpc.BadRequest` detail for the field.
    pub fn params<P: de::DeserializeOwned>(&self) -> Result<P, Fault> {
        let text = self.params.map_or("{}", RawValue::get);
        match serde_json::from_str::<P>(text) {
            Ok(params) => Ok(params),
            Err(_) => Err(self.params_fault::<P>(text)),
        }
    }

    /// Refuses params that lack what the method cannot run without: `checks` pairs each required
    /// field (`params.message.parts`) with whether it is missing in the decoded params (see
    /// `is_unset`). The fault is an invalid-params one naming the first missing field, with a
    /// `google.rpc.BadRequest` violation for each; a field below one already named is left out
    /// (without `message`, its `parts` go without saying).
    ///
    /// ```
    /// use a2a_runtime::jsonrpc::{codes, server::RawRequest};
    ///
    /// let raw = RawRequest::parse(br#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}"#).unwrap();
    /// let fault = raw.require("GetTask", &[("params.id", true)]).unwrap_err();
    /// assert_eq!(fault.code, codes::INVALID_PARAMS);
    /// assert_eq!(fault.detail, "`params.id`: GetTask cannot run without it (absent, null or empty)");
    /// assert!(raw.require("GetTask", &[("params.id", false)]).is_ok());
    /// ```
    pub fn require(&self, method: &str, checks: &[(&str, bool)]) -> Result<(), Fault> {
        match missing_fields(method, checks) {
            None => Ok(()),
            Some((detail, details)) => {
                let mut fault = self.fault(codes::INVALID_PARAMS, detail);
                fault.details = details;
                Err(fault)
            }
        }
    }

    /// A fault about this (valid) request object: answered with its id, or not at all when it is
    /// a notification.
    fn fault(&self, code: i64, detail: impl Into<String>) -> Fault {
        Fault {
            notification: self.is_notification(),
            ..Fault::new(self.response_id(), code, detail)
        }
    }

    /// Whether this is a notification: a request object without `id` (`"id": null` is a request
    /// with a null id). JSON-RPC 2.0 says a notification gets no response at all.
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }

    /// The fault for a method name the table does not have.
    pub fn unknown_method(&self) -> Fault {
        self.fault(
            codes::METHOD_NOT_FOUND,
            format!("no method is named {}", Value::String(self.method.clone())),
        )
    }

    /// The slow path of [`RawRequest::params`]: decode again, tracking the path, to say where.
    fn params_fault<P: de::DeserializeOwned>(&self, text: &str) -> Fault {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let (field, reason) = match serde_path_to_error::deserialize::<_, P>(&mut deserializer) {
            Ok(_) => ("params".to_string(), "the params do not decode".to_string()),
            Err(e) => {
                let path = e.path().to_string();
                let field = if path == "." {
                    "params".to_string()
                } else {
                    format!("params.{path}")
                };
                (field, strip_position(&e.inner().to_string()))
            }
        };
        Fault {
            notification: self.is_notification(),
            ..Fault::bad_field(self.response_id(), field, reason)
        }
    }
}

/// What [`RawRequest::require`] (and the REST side's `rest::require`) says of params that lack
/// required fields: the fault's one line naming the first missing field, and a
/// `google.rpc.BadRequest` with a violation for each; `None` when nothing is missing. A field
/// below one already named is left out (without `message`, its `parts` go without saying).
pub(crate) fn missing_fields(
    method: &str,
    checks: &[(&str, bool)],
) -> Option<(String, Vec<ErrorDetail>)> {
    if checks.iter().all(|(_, missing)| !missing) {
        return None;
    }
    let reason = format!("{method} cannot run without it (absent, null or empty)");
    let mut named: Vec<&str> = Vec::new();
    for (field, missing) in checks {
        let below_named = named.iter().any(|parent| {
            field.len() > parent.len()
                && field.starts_with(parent)
                && field.as_bytes()[parent.len()] == b'.'
        });
        if *missing && !below_named {
            named.push(field);
        }
    }
    let first = named.first().copied().unwrap_or("params");
    let more = match named.len() {
        0 | 1 => String::new(),
        2 => " (and 1 more field)".to_string(),
        n => format!(" (and {} more fields)", n - 1),
    };
    let details = vec![ErrorDetail::bad_request(
        named
            .iter()
            .map(|field| (field.to_string(), reason.clone())),
    )];
    Some((format!("`{first}`: {reason}{more}"), details))
}

/// A JSON string member, or a description of what it was instead.
fn string_member(raw: &RawValue) -> Result<String, String> {
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(Value::String(s)) => Ok(s),
        Ok(other) => Err(describe(&other)),
        Err(e) => Err(strip_position(&e.to_string())),
    }
}

/// serde_json appends " at line 1 column 9" to its messages; our messages name JSON paths instead.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => message[..i].to_string(),
        _ => message.to_string(),
    }
}

/// The members of a request object the protocol reads, each kept as its raw JSON text.
struct Members<'a> {
    jsonrpc: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
}

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MembersVisitor)
    }
}

struct MembersVisitor;

member_keys!(Key { Jsonrpc = "jsonrpc", Id = "id", Method = "method", Params = "params" });

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Members<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC request object")
    }

    // A repeated member: the last one wins, as everywhere else in this crate.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
        let mut members = Members {
            jsonrpc: None,
            id: None,
            method: None,
            params: None,
        };
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Jsonrpc => members.jsonrpc = Some(map.next_value()?),
                Key::Id => members.id = Some(map.next_value()?),
                Key::Method => members.method = Some(map.next_value()?),
                Key::Params => members.params = Some(map.next_value()?),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(members)
    }
}

/// A decoded request with its id; `R` is a generated `Request` enum (one variant per method).
/// Generated modules name it with theirs filled in (`v1::IncomingRequest`).
#[derive(Clone, Debug, PartialEq)]
pub struct IncomingRequest<R> {
    /// The request's id; `None` for a notification, which JSON-RPC says gets no response.
    pub id: Option<RequestId>,
    /// The call.
    pub request: R,
}

impl<R> IncomingRequest<R> {
    /// The id to answer with: the request's, or `null` for a notification.
    pub fn response_id(&self) -> RequestId {
        self.id.clone().unwrap_or(RequestId::Null)
    }

    /// Whether the request is a notification (no `id` member): JSON-RPC 2.0 says the server must
    /// not answer it at all. A2A defines no notifications, so an agent usually ignores one (over
    /// HTTP: an empty `204 No Content`).
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }
}

/// A request that cannot be served: the id to answer with and the error to answer, `A` being a
/// generated error enum (`v1::RejectedRequest` fills it in). Its [`RejectedRequest::response`] is
/// the whole response body, or nothing for a notification.
#[derive(Clone, Debug, PartialEq)]
pub struct RejectedRequest<A> {
    /// The request's id, or `null` when it could not be read.
    pub id: RequestId,
    /// `JsonParse`, `InvalidRequest`, `MethodNotFound` or `InvalidParams`; the message says what
    /// was wrong, and `InvalidParams` carries a `google.rpc.BadRequest` detail.
    pub error: A,
    /// Whether the request was a notification (a valid request object without `id`), which
    /// JSON-RPC 2.0 says gets no response, not even an error.
    pub notification: bool,
}

impl<A: Serialize> RejectedRequest<A> {
    /// The JSON-RPC error response body to send, or `None` for a notification (send nothing; over
    /// HTTP, `204 No Content`).
    pub fn response(&self) -> Option<Vec<u8>> {
        (!self.notification).then(|| self.to_response())
    }

    /// The JSON-RPC error response body, even for a notification (see
    /// [`RejectedRequest::response`], which leaves those out).
    pub fn to_response(&self) -> Vec<u8> {
        encode_error(&self.id, &self.error)
    }
}

impl<A: ErrorTable> From<Fault> for RejectedRequest<A> {
    fn from(fault: Fault) -> Self {
        let error = A::from_fault(&fault);
        RejectedRequest {
            id: fault.id,
            error,
            notification: fault.notification,
        }
    }
}

impl<A: fmt::Display> fmt::Display for RejectedRequest<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "request {} rejected: {}", self.id, self.error)
    }
}

impl<A: std::error::Error + 'static> std::error::Error for RejectedRequest<A> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A success response body: `{"jsonrpc":"2.0","id":..,"result":..}`.
pub fn encode_result<T: Serialize + ?Sized>(id: &RequestId, result: &T) -> Vec<u8> {
    match serde_json::to_vec(&Response {
        id,
        member: "result",
        value: result,
    }) {
        Ok(body) => body,
        Err(e) => encode_unencodable(id, &e),
    }
}

/// An error response body: `{"jsonrpc":"2.0","id":..,"error":..}`, where `error` serializes as
/// the JSON-RPC error object (the generated error enum does).
pub fn encode_error<E: Serialize + ?Sized>(id: &RequestId, error: &E) -> Vec<u8> {
    match serde_json::to_vec(&Response {
        id,
        member: "error",
        value: error,
    }) {
        Ok(body) => body,
        Err(e) => encode_unencodable(id, &e),
    }
}

/// One SSE event of a stream answering a streaming call: a result or an error (the generated
/// error enum), as a JSON-RPC response in its data (one line). [`ServerEvent::to_bytes`] frames
/// it; a framework's SSE type takes its data as it is.
pub fn encode_event<T: Serialize + ?Sized, E: Serialize + ?Sized>(
    id: &RequestId,
    item: Result<&T, &E>,
) -> ServerEvent {
    let body = match item {
        Ok(result) => encode_result(id, result),
        Err(error) => encode_error(id, error),
    };
    ServerEvent::json(None, body)
}

/// An internal error saying that the response could not be written. Built from strings only, so
/// writing it cannot fail.
fn encode_unencodable(id: &RequestId, e: &serde_json::Error) -> Vec<u8> {
    let mut error = serde_json::Map::new();
    error.insert("code".to_string(), codes::INTERNAL_ERROR.into());
    error.insert(
        "message".to_string(),
        format!("Internal error: the response could not be encoded ({e})").into(),
    );
    serde_json::to_vec(&Response {
        id,
        member: "error",
        value: &error,
    })
    .unwrap_or_default()
}

struct Response<'a, T: ?Sized> {
    id: &'a RequestId,
    member: &'static str,
    value: &'a T,
}

impl<T: Serialize + ?Sized> Serialize for Response<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry(self.member, self.value)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::client::encode_request;
    use crate::sse::frame as sse_event;
    use serde_json::json;
    use serde_json::Number;

    fn fault(body: &[u8]) -> Fault {
        RawRequest::parse(body).unwrap_err()
    }

    #[test]
    fn non_json_is_a_parse_error_with_a_null_id() {
        for body in [
            &b""[..],
            b"{\"jsonrpc\": \"2.0\", \"id\": 1, ",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"} trailing",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
        ] {
            let f = fault(body);
            assert_eq!(
                (f.code, &f.id),
                (codes::PARSE_ERROR, &RequestId::Null),
                "{f:?}"
            );
        }
        assert_eq!(fault(b"  ").detail, "the request is empty");
    }

    #[test]
    fn json_that_is_not_a_request_object_is_an_invalid_request() {
        let cases: [(&[u8], &str); 7] = [
            (
                b"[]",
                "the request is a JSON array, not an object (JSON-RPC batches are not part of A2A)",
            ),
            (
                b"\"GetTask\"",
                "the request is the string \"GetTask\", not an object",
            ),
            (
                br#"{"id":1,"method":"GetTask"}"#,
                "`jsonrpc` is missing; it must be \"2.0\"",
            ),
            (
                br#"{"jsonrpc":"1.0","id":1,"method":"GetTask"}"#,
                "`jsonrpc` is the string \"1.0\"; it must be \"2.0\"",
            ),
            (
                br#"{"jsonrpc":2,"id":1,"method":"GetTask"}"#,
                "`jsonrpc` is the number 2; it must be \"2.0\"",
            ),
            (br#"{"jsonrpc":"2.0","id":1}"#, "`method` is missing"),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":["GetTask"]}"#,
                "`method` is a JSON array, not a string",
            ),
        ];
        for (body, detail) in cases {
            let f = fault(body);
            assert_eq!(f.code, codes::INVALID_REQUEST);
            assert_eq!(f.detail, detail);
        }
        // The id is echoed once it could be read, and `null` when it could not.
        assert_eq!(fault(br#"{"jsonrpc":"2.0","id":1}"#).id, RequestId::from(1));
        let f = fault(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"GetTask"}"#);
        assert_eq!((f.code, f.id), (codes::INVALID_REQUEST, RequestId::Null));
        assert_eq!(
            f.detail,
            "`id` is a JSON object; it must be a string, a number or null"
        );
    }

    #[test]
    fn extra_members_are_ignored_and_the_last_duplicate_wins() {
        let raw = RawRequest::parse(
            br#"{"xTrace":{"deep":[1]},"jsonrpc":"2.0","id":"a","method":"A","method":"B","params":{"x":1}}"#,
        )
        .unwrap();
        assert_eq!(raw.method(), "B");
        assert_eq!(raw.id(), Some(&RequestId::from("a")));
        assert_eq!(raw.params::<Value>().unwrap(), json!({"x": 1}));
    }

    #[test]
    fn ids_are_echoed_exactly() {
        for (id, expected) in [
            ("1.5", RequestId::Number(Number::from_f64(1.5).unwrap())),
            ("-7", RequestId::from(-7)),
            ("\"\\u0041\"", RequestId::from("A")),
            ("null", RequestId::Null),
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"M"}}"#);
            let raw = RawRequest::parse(body.as_bytes()).unwrap();
            assert_eq!(raw.id(), Some(&expected));
            let reply = encode_result(&raw.response_id(), &json!({}));
            let back: Value = serde_json::from_slice(&reply).unwrap();
            assert_eq!(back["id"], serde_json::to_value(&expected).unwrap());
        }
        let raw = RawRequest::parse(br#"{"jsonrpc":"2.0","method":"M"}"#).unwrap();
        assert_eq!((raw.id(), raw.response_id()), (None, RequestId::Null));
    }

    #[test]
    fn missing_or_null_params_read_as_an_empty_object() {
        for body in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"M"}"#[..],
            br#"{"jsonrpc":"2.0","id":1,"method":"M","params":null}"#,
        ] {
            let raw = RawRequest::parse(body).unwrap();
            assert_eq!(raw.params::<Value>().unwrap(), json!({}));
        }
    }

    #[test]
    fn params_that_do_not_decode_name_the_path_and_carry_a_bad_request() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Params {
            id: String,
        }
        let raw = RawRequest::parse(
            br#"{"jsonrpc":"2.0","id":1,"method":"M","params":{"id":{"not":"a string"}}}"#,
        )
        .unwrap();
        let f = raw.params::<Params>().unwrap_err();
        assert_eq!(
            (f.code, &f.id),
            (codes::INVALID_PARAMS, &RequestId::from(1))
        );
        assert_eq!(
            f.detail,
            "`params.id`: invalid type: map, expected a string"
        );
        assert_eq!(
            ErrorDetail::list_to_data(f.details),
            json!([{
                "@type": crate::wire::detail::BAD_REQUEST_TYPE,
                "fieldViolations": [{"field": "params.id", "description": "invalid type: map, expected a string"}]
            }])
        );
    }

    #[test]
    fn missing_required_fields_are_named_outermost_first() {
        let raw = RawRequest::parse(br#"{"jsonrpc":"2.0","id":"r","method":"M"}"#).unwrap();
        let f = raw
            .require(
                "M",
                &[
                    ("params.message", true),
                    ("params.message.parts", true),
                    ("params.messages", true),
                    ("params.id", true),
                    ("params.ok", false),
                ],
            )
            .unwrap_err();
        assert_eq!(
            (f.code, &f.id),
            (codes::INVALID_PARAMS, &RequestId::from("r"))
        );
        assert_eq!(
            f.detail,
            "`params.message`: M cannot run without it (absent, null or empty) (and 2 more fields)"
        );
        let reason = "M cannot run without it (absent, null or empty)";
        assert_eq!(
            ErrorDetail::list_to_data(f.details),
            json!([{
                "@type": crate::wire::detail::BAD_REQUEST_TYPE,
                "fieldViolations": [
                    {"field": "params.message", "description": reason},
                    {"field": "params.messages", "description": reason},
                    {"field": "params.id", "description": reason},
                ]
            }])
        );
        assert!(raw.require("M", &[("params.id", false)]).is_ok());
        assert!(raw.require("M", &[]).is_ok());
    }

    #[test]
    fn unknown_methods_echo_the_id() {
        let raw = RawRequest::parse(br#"{"jsonrpc":"2.0","id":"q","method":"Nope"}"#).unwrap();
        let f = raw.unknown_method();
        assert_eq!(
            (f.code, f.id),
            (codes::METHOD_NOT_FOUND, RequestId::from("q"))
        );
        assert_eq!(f.detail, "no method is named \"Nope\"");
    }

    #[test]
    fn encoders_write_the_envelope() {
        let id = RequestId::from("r");
        assert_eq!(
            encode_request(&id, "GetTask", &json!({"id": "t"})),
            br#"{"jsonrpc":"2.0","id":"r","method":"GetTask","params":{"id":"t"}}"#
        );
        assert_eq!(
            encode_result(&id, &json!({"a": 1})),
            br#"{"jsonrpc":"2.0","id":"r","result":{"a":1}}"#
        );
        assert_eq!(
            encode_error(&RequestId::Null, &json!({"code": -32700, "message": "m"})),
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#
        );
    }

    #[test]
    fn a_result_that_cannot_be_encoded_becomes_an_internal_error() {
        struct Broken;
        impl Serialize for Broken {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        let body: Value =
            serde_json::from_slice(&encode_result(&RequestId::from(1), &Broken)).unwrap();
        assert_eq!(body["id"], 1);
        assert_eq!(body["error"]["code"], codes::INTERNAL_ERROR);
        assert!(body.get("result").is_none());
        let body: Value =
            serde_json::from_slice(&encode_request(&RequestId::from(1), "M", &Broken)).unwrap();
        assert_eq!(body["params"], json!({}));
    }

    #[test]
    fn sse_events_split_every_line_ending() {
        assert_eq!(sse_event(b""), b"data: \n\n");
        assert_eq!(
            sse_event(b"a\rb\nc\r\n"),
            b"data: a\ndata: b\ndata: c\ndata: \n\n"
        );
        let mut decoder = crate::sse::SseDecoder::new();
        let mut events = Vec::new();
        decoder.feed_into(&sse_event("one\r\ntwo\u{2028}".as_bytes()), &mut events);
        let event = events.pop().unwrap().unwrap();
        assert_eq!(event.data, "one\ntwo\u{2028}");
    }
}
