//! The client's side of JSON-RPC 2.0: requests ([`encode_request`]), the response envelope,
//! the one choke point every reply body goes through, and the envelope's mapping to the call's
//! typed outcome (the reply mapping behind [`crate::client::Decoder`], as
//! [`crate::rest::client`] has the HTTP+JSON one).
//!
//! [`decode_envelope`] returns exactly one of three outcomes for any bytes:
//!
//! 1. `Ok(Envelope::Result(T))`: the reply's `result`, decoded as the method's result type;
//! 2. `Ok(Envelope::Error(RawError))`: a well-formed JSON-RPC error object (the agent said no);
//!    extra members are ignored, a missing or non-string `message` is `None`, `data` is kept;
//! 3. `Err(ClientError)`: anything that breaks the envelope, with a one-line reason (and the JSON
//!    path when the `result` does not decode). Nothing from serde_json leaks out as its own type.
//!
//! The success path parses the body once, straight into `T` (no `serde_json::Value`, no buffered
//! `RawValue`). Only when that fails is the body parsed again, as a `Value`, to say precisely what
//! was wrong: failures are rare and their cost does not matter.
//!
//! Rules (they are the ones the seed bug report fixed in the official Python SDK):
//! - the body must be a JSON object (a list or a string is malformed); one leading UTF-8 BOM is
//!   ignored (RFC 8259 §8.1 allows it); trailing non-whitespace is malformed;
//! - an `error` that is an object with an integer `code` is the agent's error, even next to a
//!   `result` (JSON-RPC allows only one; the error is the safer reading);
//! - a falsy `error` (`null`, `false`, `0`, `""`, `[]`, `{}`) next to a `result` is ignored, as the
//!   Python SDK does; without a `result` it is malformed;
//! - a truthy `error` that is not an object with an integer `code` (`"error": "boom"`) is malformed;
//! - neither `result` nor `error` is malformed, and so is `"result": null`, except for a method
//!   that returns nothing (`google.protobuf.Empty`, v0.3's null): its result reads from `null`, so
//!   `null`, `{}` and a reply without `result` are all success;
//! - `jsonrpc` and `id` are not checked: a client matches replies to requests by transport, and a
//!   wrong version string is no reason to lose an otherwise clear answer.

pub use super::RawError;
use super::RequestId;
use crate::body::{describe, not_json_reason, short_type_name, without_bom};
use crate::client::error::{CallError, ClientError};
use crate::client::events::Events;
use crate::custom::{domain_matches, AgentError};
use crate::limits::Limits;
use crate::table::ErrorTable;
use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// What a well-formed reply carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Envelope<T> {
    /// The `result`, decoded.
    Result(T),
    /// The `error` object.
    Error(RawError),
}

/// One decoded JSON-RPC envelope as the call's outcome: the result, the agent's error (one of
/// `E`'s when its code and domain say so, else `A`'s), or the client error.
pub(crate) fn call_result<T, A: ErrorTable, E: AgentError>(
    item: Result<Envelope<T>, ClientError>,
) -> Result<T, CallError<A, E>> {
    match item {
        Ok(Envelope::Result(t)) => Ok(t),
        Ok(Envelope::Error(raw)) => {
            // Custom codes never collide with the table (the derive checks at compile time), so
            // only a code the table does not take can be one of `E`'s, and only when its
            // ErrorInfo, if it has one, names `E`'s domain (another agent's -32050 is not ours).
            let data = raw.data.as_ref();
            let custom = match !A::is_code_taken(raw.code) && domain_matches::<E>(data) {
                true => E::from_code_and_data(raw.code, data),
                false => None,
            };
            if let Some(error) = custom {
                let message = raw.message.unwrap_or_else(|| String::from(error.message()));
                return Err(CallError::Custom { error, message });
            }
            Err(CallError::Agent(A::from_raw(raw)))
        }
        Err(e) => Err(CallError::Malformed(e)),
    }
}

/// Decodes one JSON-RPC response body. See the [module docs](self) for the rules.
///
/// ```
/// use a2a_runtime::jsonrpc::client::{decode_envelope, Envelope};
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found","x":1}}"#;
/// match decode_envelope::<serde_json::Value>(body) {
///     Ok(Envelope::Error(e)) => assert_eq!(e.code, -32001),
///     other => panic!("{other:?}"),
/// }
/// let err = decode_envelope::<serde_json::Value>(b"[1, 2]").unwrap_err();
/// assert_eq!(err.reason(), "the body is a JSON array, not an object");
/// ```
pub fn decode_envelope<T: DeserializeOwned>(body: &[u8]) -> Result<Envelope<T>, ClientError> {
    decode_envelope_limited(body, &Limits::DEFAULT)
}

/// [`decode_envelope`] under these [`Limits`]: a body over them is malformed, with the reason,
/// before any parsing.
pub fn decode_envelope_limited<T: DeserializeOwned>(
    body: &[u8],
    limits: &Limits,
) -> Result<Envelope<T>, ClientError> {
    limits.check(body).map_err(ClientError::new)?;
    let body = without_bom(body);
    match serde_json::from_slice::<Fast<T>>(body) {
        Ok(fast) => fast.finish(),
        Err(_) => slow_path::<T>(body),
    }
}

/// [`decode_envelope`] for a body already known to be UTF-8 (an SSE event's data, say): the
/// same rules and answers, without checking the UTF-8 a second time.
pub fn decode_envelope_str<T: DeserializeOwned>(body: &str) -> Result<Envelope<T>, ClientError> {
    let body = body.strip_prefix('\u{FEFF}').unwrap_or(body);
    match serde_json::from_str::<Fast<T>>(body) {
        Ok(fast) => fast.finish(),
        Err(_) => slow_path::<T>(body.as_bytes()),
    }
}

/// Classifies a decoded `error` member.
enum ErrorMember {
    /// `null`, `false`, `0`, `""`, `[]`, `{}`.
    Falsy,
    /// An object with an integer code.
    Object(RawError),
    /// Something else: the reason it is not an error object.
    Invalid(String),
}

impl ErrorMember {
    /// An object with these members (each `None` when absent; the last of duplicates wins).
    fn from_members(code: Option<Value>, message: Option<Value>, data: Option<Value>) -> Self {
        let code = match code {
            Some(Value::Number(n)) => match n.as_i64() {
                Some(code) => code,
                None => {
                    return ErrorMember::Invalid(format!("`error.code` is {n}, not an integer"))
                }
            },
            Some(other) => {
                return ErrorMember::Invalid(format!(
                    "`error.code` is {}, not an integer",
                    describe(&other)
                ))
            }
            None => return ErrorMember::Invalid("`error` has no `code`".to_string()),
        };
        let message = match message {
            Some(Value::String(s)) => Some(s),
            _ => None,
        };
        ErrorMember::Object(RawError {
            code,
            message,
            data,
        })
    }

    fn not_an_object(value: &Value) -> Self {
        ErrorMember::Invalid(format!("`error` is {}, not an object", describe(value)))
    }
}

/// Classifies the `error` member in one pass: members other than `code`, `message` and `data`
/// are skipped without being built (an agent may put anything beside them).
impl<'de> Deserialize<'de> for ErrorMember {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ErrorMemberVisitor)
    }
}

struct ErrorMemberVisitor;

impl<'de> Visitor<'de> for ErrorMemberVisitor {
    type Value = ErrorMember;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC error object")
    }

    fn visit_unit<E: de::Error>(self) -> Result<ErrorMember, E> {
        Ok(ErrorMember::Falsy)
    }

    fn visit_none<E: de::Error>(self) -> Result<ErrorMember, E> {
        Ok(ErrorMember::Falsy)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<ErrorMember, E> {
        Ok(match v {
            false => ErrorMember::Falsy,
            true => ErrorMember::not_an_object(&Value::Bool(true)),
        })
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<ErrorMember, E> {
        Ok(match v {
            0 => ErrorMember::Falsy,
            _ => ErrorMember::not_an_object(&Value::from(v)),
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<ErrorMember, E> {
        Ok(match v {
            0 => ErrorMember::Falsy,
            _ => ErrorMember::not_an_object(&Value::from(v)),
        })
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<ErrorMember, E> {
        Ok(if v == 0.0 {
            ErrorMember::Falsy
        } else {
            ErrorMember::not_an_object(&Value::from(v))
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ErrorMember, E> {
        Ok(match v {
            "" => ErrorMember::Falsy,
            _ => ErrorMember::not_an_object(&Value::String(v.to_string())),
        })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<ErrorMember, A::Error> {
        let mut empty = true;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(match empty {
            true => ErrorMember::Falsy,
            false => ErrorMember::not_an_object(&Value::Array(Vec::new())),
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ErrorMember, A::Error> {
        let (mut code, mut message, mut data) = (None, None, None);
        let mut empty = true;
        while let Some(key) = map.next_key::<ErrorKey>()? {
            empty = false;
            match key {
                ErrorKey::Code => code = Some(map.next_value()?),
                ErrorKey::Message => message = Some(map.next_value()?),
                ErrorKey::Data => data = Some(map.next_value()?),
                ErrorKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(match empty {
            true => ErrorMember::Falsy,
            false => ErrorMember::from_members(code, message, data),
        })
    }
}

member_keys!(ErrorKey { Code = "code", Message = "message", Data = "data" });

/// The fast path: one pass over the body, `result` decoded straight into `T`.
struct Fast<T> {
    result: Option<T>,
    error: Option<ErrorMember>,
}

impl<'de, T: Deserialize<'de>> Fast<T> {
    fn finish(self) -> Result<Envelope<T>, ClientError> {
        match (self.error, self.result) {
            (Some(ErrorMember::Object(raw)), _) => Ok(Envelope::Error(raw)),
            (Some(ErrorMember::Invalid(reason)), _) => Err(ClientError::new(reason)),
            (_, Some(result)) => Ok(Envelope::Result(result)),
            (Some(ErrorMember::Falsy), None) => Err(ClientError::new(
                "`error` is empty and there is no `result`",
            )),
            // A method that returns nothing: the reply may leave `result` out altogether (the
            // official SDK's v0.3 server drops a null result), so a result type that reads from
            // `null` (Empty, v0.3's null result) takes the reply as success; any other is malformed.
            (None, None) => T::deserialize(de::value::UnitDeserializer::<de::value::Error>::new())
                .map(Envelope::Result)
                .map_err(|_| ClientError::new("the reply has neither `result` nor `error`")),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Fast<T> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(FastVisitor(PhantomData))
    }
}

struct FastVisitor<T>(PhantomData<T>);

member_keys!(Key { Result = "result", Error = "error" });

impl<'de, T: Deserialize<'de>> Visitor<'de> for FastVisitor<T> {
    type Value = Fast<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC response object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fast<T>, A::Error> {
        let mut fast = Fast {
            result: None,
            error: None,
        };
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                // A `null` result fails here (no A2A result type decodes from null) and the slow
                // path then names it.
                Key::Result => fast.result = Some(map.next_value()?),
                Key::Error => fast.error = Some(map.next_value()?),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(fast)
    }
}

/// The slow path: the fast decode failed; parse again, as a `Value`, to say why. An error object
/// still wins here (the fast path fails when a `result` beside it does not decode).
fn slow_path<T: DeserializeOwned>(body: &[u8]) -> Result<Envelope<T>, ClientError> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(e) => return Err(ClientError::new(not_json_reason(body, &e))),
    };
    let Value::Object(mut object) = value else {
        return Err(ClientError::new(format!(
            "the body is {}, not an object",
            describe(&value)
        )));
    };
    // Deserializing from a `Value` cannot fail: every shape is classified.
    match object
        .remove("error")
        .and_then(|v| ErrorMember::deserialize(v).ok())
    {
        Some(ErrorMember::Object(raw)) => return Ok(Envelope::Error(raw)),
        Some(ErrorMember::Invalid(reason)) => return Err(ClientError::new(reason)),
        Some(ErrorMember::Falsy) | None => {}
    }
    let reason = match object.remove("result") {
        None => "the reply has neither `result` nor `error`".to_string(),
        // `null` means absent: a result that has a value for that (a list: empty) takes it. The
        // fast path already took the void results; this is the rare list case.
        Some(Value::Null) => match T::deserialize(
            de::value::SeqDeserializer::<_, de::value::Error>::new(std::iter::empty::<()>()),
        ) {
            Ok(empty) => return Ok(Envelope::Result(empty)),
            Err(_) => "`result` is null".to_string(),
        },
        Some(result) => match serde_path_to_error::deserialize::<_, T>(result) {
            Err(e) => {
                let path = e.path().to_string();
                let at = if path == "." {
                    String::new()
                } else {
                    format!(" at `result.{path}`")
                };
                format!(
                    "`result` does not decode as {}{at}: {}",
                    short_type_name::<T>(),
                    e.inner()
                )
            }
            // Decoding from a `Value` accepted what decoding from the bytes did not (it should
            // not happen); take the value rather than invent a reason.
            Ok(result) => return Ok(Envelope::Result(result)),
        },
    };
    Err(ClientError::new(reason))
}

/// Lenient, like the envelope: `code` must be an integer; a missing or non-string `message` is
/// `None`; `data` is kept; other members are ignored.
impl<'de> Deserialize<'de> for RawError {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match ErrorMember::deserialize(deserializer)? {
            ErrorMember::Object(raw) => Ok(raw),
            ErrorMember::Invalid(reason) => Err(de::Error::custom(reason)),
            ErrorMember::Falsy => Err(de::Error::custom(
                "an empty value is not a JSON-RPC error object",
            )),
        }
    }
}

/// A JSON-RPC request body: `{"jsonrpc":"2.0","id":..,"method":..,"params":..}`.
pub fn encode_request<P: Serialize + ?Sized>(id: &RequestId, method: &str, params: &P) -> Vec<u8> {
    struct Request<'a, P: ?Sized> {
        id: &'a RequestId,
        method: &'a str,
        params: &'a P,
    }
    impl<P: Serialize + ?Sized> Serialize for Request<'_, P> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(Some(4))?;
            map.serialize_entry("jsonrpc", "2.0")?;
            map.serialize_entry("id", self.id)?;
            map.serialize_entry("method", self.method)?;
            map.serialize_entry("params", self.params)?;
            map.end()
        }
    }
    // A request's params that cannot be written are the caller's bug, but a panic is not ours to
    // raise: write `{}` params, which the agent will reject with a clear invalid-params error.
    serde_json::to_vec(&Request { id, method, params }).unwrap_or_else(|_| {
        serde_json::to_vec(&Request {
            id,
            method,
            params: &serde_json::Map::new(),
        })
        .unwrap_or_default()
    })
}

// ----- streamed replies -----------------------------------------------------------------------

/// Incremental decoder of a streamed reply: feed bytes as they arrive, in any chunking.
///
/// ```
/// use a2a_runtime::jsonrpc::client::Envelope;
/// use a2a_runtime::jsonrpc::client::EventStream;
///
/// let mut stream = EventStream::<serde_json::Value>::new();
/// let mut items = stream.feed(b"data: {\"result\": {\"a\"");
/// items.extend(stream.feed(b": 1}}\n\ndata: {\"error\": {\"code\": -32603}}\n\n"));
/// assert!(matches!(items[0], Ok(Envelope::Result(_))));
/// assert!(matches!(items[1], Ok(Envelope::Error(_))));
/// assert!(stream.finish().is_ok());
/// ```
#[derive(Debug, Default)]
pub struct EventStream<T> {
    events: Events,
    result: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> EventStream<T> {
    /// A decoder for a new stream.
    pub fn new() -> Self {
        EventStream::with_limits(Limits::DEFAULT)
    }

    /// The id of the last event the stream named (`""` when none did): what a client resuming
    /// it sends as `Last-Event-ID`.
    pub fn last_event_id(&self) -> &str {
        self.events.last_event_id()
    }

    /// A decoder whose events may be at most `limits.max_body_bytes()` long (counted as the SSE
    /// framing buffers them) and nest at most `limits.max_depth()` deep.
    pub fn with_limits(limits: Limits) -> Self {
        EventStream {
            events: Events::with_limits(limits),
            result: PhantomData,
        }
    }

    /// Feeds the next bytes; returns the items of every event they complete, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Envelope<T>, ClientError>> {
        self.feed_map(chunk, |item| item)
    }

    /// Like [`EventStream::feed`], passing each item through `f` on the way out, so that a caller
    /// converting items (generated code maps them to its typed errors) allocates one list, not two.
    pub fn feed_map<U>(
        &mut self,
        chunk: &[u8],
        mut f: impl FnMut(Result<Envelope<T>, ClientError>) -> U,
    ) -> Vec<U> {
        self.events.feed_map(chunk, |event| {
            f(event.and_then(|e| decode_envelope_str(&e.data)))
        })
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), ClientError> {
        self.events.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::ClientErrorKind;

    #[test]
    fn a_client_error_is_malformed_unless_a_transport_says_otherwise() {
        let malformed = ClientError::new("the body is not JSON");
        assert_eq!(malformed.kind(), ClientErrorKind::Malformed);
        assert_eq!(
            malformed.to_string(),
            "malformed reply: the body is not JSON"
        );
        let refused = ClientError::new("POST http://a/: could not connect")
            .with_kind(ClientErrorKind::Connect);
        assert_eq!(refused.kind(), ClientErrorKind::Connect);
        assert_eq!(
            refused.to_string(),
            "call failed: POST http://a/: could not connect"
        );
        assert_eq!(refused.http_status(), None);
    }

    fn reason(body: &[u8]) -> String {
        match decode_envelope::<std::collections::BTreeMap<String, Value>>(body) {
            Err(e) => e.reason().to_string(),
            Ok(other) => panic!("expected malformed, got {other:?}"),
        }
    }

    #[test]
    fn short_type_names_drop_the_module_path() {
        assert_eq!(short_type_name::<ClientError>(), "ClientError");
        assert_eq!(
            short_type_name::<Vec<String>>(),
            "Vec<alloc::string::String>"
        );
    }

    #[test]
    fn malformed_bodies_get_one_line_reasons() {
        assert_eq!(reason(b""), "the body is empty");
        assert_eq!(
            reason(b"\"hello\""),
            "the body is the string \"hello\", not an object"
        );
        assert_eq!(
            reason(b"{\"id\":1}"),
            "the reply has neither `result` nor `error`"
        );
        assert_eq!(
            reason(b"{\"error\":\"boom\"}"),
            "`error` is the string \"boom\", not an object"
        );
        assert_eq!(
            reason(b"{\"error\":null}"),
            "`error` is empty and there is no `result`"
        );
        assert_eq!(
            reason(b"{\"error\":{\"code\":\"x\"}}"),
            "`error.code` is the string \"x\", not an integer"
        );
        assert_eq!(reason(b"{\"result\":null}"), "`result` is null");
        assert!(reason(b"{\"result\":{}} x")
            .starts_with("the body is not valid JSON: trailing characters"));
        assert!(reason(b"{\"result\":\"\xff\"}").starts_with("the body is not valid UTF-8"));
        let deep = format!("{{\"result\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(reason(deep.as_bytes()).starts_with("the body nests too deeply"));
    }

    #[test]
    fn result_type_mismatch_names_the_type_and_path() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Inner {
            n: u8,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Outer {
            inner: Vec<Inner>,
        }
        let err =
            decode_envelope::<Outer>(br#"{"result":{"inner":[{"n":1},{"n":300}]}}"#).unwrap_err();
        assert!(
            err.reason()
                .starts_with("`result` does not decode as Outer at `result.inner[1].n`"),
            "{}",
            err.reason()
        );
    }

    #[test]
    fn falsy_errors_next_to_a_result_are_ignored() {
        for error in ["null", "false", "0", "0.0", "\"\"", "[]", "{}"] {
            let body = format!(r#"{{"error":{error},"result":{{"a":1}}}}"#);
            assert!(
                matches!(
                    decode_envelope::<Value>(body.as_bytes()),
                    Ok(Envelope::Result(_))
                ),
                "{error}"
            );
        }
    }

    #[test]
    fn an_error_object_wins_over_a_result_in_either_order() {
        for body in [
            r#"{"result":{},"error":{"code":1}}"#,
            r#"{"error":{"code":1},"result":{}}"#,
        ] {
            assert!(matches!(
                decode_envelope::<Value>(body.as_bytes()),
                Ok(Envelope::Error(RawError { code: 1, .. }))
            ));
        }
    }

    #[test]
    fn error_objects_are_lenient_about_message_and_extras() {
        let body =
            br#"{"error":{"code":-32001,"message":7,"data":[{"@type":"x"}],"reason":"expired"}}"#;
        let Ok(Envelope::Error(raw)) = decode_envelope::<Value>(body) else {
            panic!()
        };
        assert_eq!(
            raw,
            RawError {
                code: -32001,
                message: None,
                data: Some(serde_json::json!([{"@type": "x"}]))
            }
        );
    }

    #[test]
    fn an_error_object_wins_even_when_the_result_beside_it_is_broken() {
        let body = br#"{"result":{"inner":"not a list"},"error":{"code":-32603}}"#;
        assert!(matches!(
            decode_envelope::<Vec<u8>>(body),
            Ok(Envelope::Error(RawError { code: -32603, .. }))
        ));
        let body = br#"{"result":null,"error":{"code":-32603}}"#;
        assert!(matches!(
            decode_envelope::<Vec<u8>>(body),
            Ok(Envelope::Error(_))
        ));
    }

    #[test]
    fn a_leading_bom_is_ignored() {
        assert!(matches!(
            decode_envelope::<Value>(b"\xEF\xBB\xBF{\"result\":1}"),
            Ok(Envelope::Result(_))
        ));
    }
}
