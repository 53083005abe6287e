//! The HTTP+JSON (REST) binding of A2A v1 (spec §11), generic over a generated error table: the
//! same contract as the JSON-RPC side, on HTTP's terms.
//!
//! **Client.** [`decode_rest_response_with`] takes what came back ([`HttpReply`]: status,
//! content type, body) and gives the method's result, the agent's typed error or the client error
//! saying what was malformed:
//!
//! - a 2xx status is the bare result (an empty body reads as `null`, which only a message with no
//!   members, `Empty`, accepts); one leading UTF-8 BOM is ignored, as on the JSON-RPC side;
//! - any other status carries a `google.rpc.Status` as `{"error": {code, status, message,
//!   details}}` (or bare, `{code, message, details}`, as grpc-gateway writes it). The first
//!   `google.rpc.ErrorInfo` in `details` whose domain is `a2a-protocol.org` (or that names no
//!   domain: absent, empty or not a string) names the error by its `reason` ([`rest_reason`]: the
//!   table's reason column, and for the standard JSON-RPC rows the reasons a2a-sdk writes,
//!   `INVALID_PARAMS` and the like); one whose domain is the agent's own error type names one of
//!   its errors (`CallError::Custom`). With no such ErrorInfo, or a reason no table names, the
//!   error is the table's catch-all (`Other`) whose `code` is the HTTP status and whose `data` is
//!   the whole body (so nothing the agent said is lost; `details()` reads its `details`).
//!   Several errors share one HTTP status, so the status alone never picks a variant; a reason
//!   in another domain is that domain's, not A2A's (reasons are unique within a domain only);
//! - an RFC 9457 `application/problem+json` body (the spec's own §6.4 examples) and any other JSON
//!   error body are the catch-all too, with the body as `data`;
//! - a body that is not JSON (an HTML page from a proxy) is malformed, with the HTTP status kept
//!   ([`ClientError::http_status`]).
//!
//! [`RestStreamDecoder`] decodes `message:stream` and `tasks/{id}:subscribe` replies: SSE whose
//! events each carry one bare result, and whose event named `error` carries a Status (its
//! catch-all's `code` is the Status's own HTTP `code`, the stream itself being a 200). An event
//! with empty data carries nothing and is skipped, as a2a-sdk's reader skips it.
//!
//! **Routes.** A method's HTTP rules ([`Route`], from the proto's `google.api.http` options, in
//! the generated method table) say its verb, its path template and whether the request is the
//! body; fields not in the path travel as query parameters ([`QueryParam`]).
//! [`encode_rest_request`] builds the request for a method's params; [`decode_rest_params`] is the
//! server's way back.
//!
//! **Server.** [`encode_rest_result`], [`encode_rest_error`], [`encode_rest_custom_error`] and
//! [`encode_rest_event`] write the replies ([`RestResponse`]).

use crate::client::CallError;
use crate::custom::{from_reason, AgentError, NoCustomErrors};
use crate::detail::{ErrorDetail, A2A_DOMAIN, ERROR_INFO_TYPE};
use crate::envelope::{short_type_name, without_bom, ClientError};
use crate::limits::Limits;
use crate::server::{codes, Fault, RequestId};
use crate::sse::SseEvent;
use crate::stream::Events;
use crate::table::{ErrorRow, ErrorTable, Method};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::marker::PhantomData;

/// The content type the binding's requests and replies should carry (§11.1); `application/json`
/// is read alike.
pub const CONTENT_TYPE: &str = "application/a2a+json";

/// The ErrorInfo reasons of the standard JSON-RPC errors over REST, by code: the ones a2a-sdk
/// 1.3.0's server writes and its client maps back (`INVALID_PARAMS` and the like; the parse error
/// has none). A2A names only its own errors by reason.
pub const STANDARD_REASONS: [(i64, &str); 4] = a2a_facts::jsonrpc::STANDARD_REASONS;

/// The `google.rpc.ErrorInfo` reason that names a row over REST: its `reason` column, else for a
/// standard JSON-RPC row the reason of [`STANDARD_REASONS`]; `None` for a row with neither.
pub const fn rest_reason(row: &ErrorRow) -> Option<&'static str> {
    match row.reason {
        Some(reason) => Some(reason),
        None if row.standard => standard_reason(row.code),
        None => None,
    }
}

/// The reason of [`STANDARD_REASONS`] for a standard JSON-RPC code, if it has one.
pub use a2a_facts::jsonrpc::standard_reason;

// ----- replies, client side -----------------------------------------------------------------------

/// An HTTP reply as a REST client received it.
#[derive(Clone, Copy, Debug)]
pub struct HttpReply<'a> {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header, when there was one.
    pub content_type: Option<&'a str>,
    /// The body.
    pub body: &'a [u8],
}

/// Decodes a REST reply: the result as `T` at a 2xx status, else the agent's typed error (`A`,
/// or one of `E`'s), or the client error saying what was malformed. Never panics, whatever the
/// bytes. See the [module docs](self) for the rules.
pub fn decode_rest_response_with<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    reply: &HttpReply<'_>,
    limits: &Limits,
) -> Result<T, CallError<A, E>> {
    let malformed = |reason: String| {
        CallError::Malformed(ClientError::new(reason).with_http_status(reply.status))
    };
    if let Err(reason) = limits.check(reply.body) {
        return Err(malformed(reason));
    }
    if !(200..300).contains(&reply.status) {
        return Err(error_reply(reply));
    }
    let body = trim(reply.body);
    let text = if body.is_empty() {
        b"null".as_slice()
    } else {
        body
    };
    serde_json::from_slice::<T>(text).map_err(|e| {
        malformed(match body.is_empty() {
            true => format!(
                "HTTP {} with an empty body, where a `{}` was expected",
                reply.status,
                short_type_name::<T>()
            ),
            false => format!(
                "HTTP {}: the body is not a valid `{}`: {e}",
                reply.status,
                short_type_name::<T>()
            ),
        })
    })
}

/// [`decode_rest_response_with`] for an agent without errors of its own.
pub fn decode_rest_response<T: DeserializeOwned, A: ErrorTable>(
    reply: &HttpReply<'_>,
) -> Result<T, CallError<A, NoCustomErrors>> {
    decode_rest_response_with(reply, &Limits::DEFAULT)
}

/// The outcome of an error reply (a status outside 2xx).
fn error_reply<A: ErrorTable, E: AgentError>(reply: &HttpReply<'_>) -> CallError<A, E> {
    let body = trim(reply.body);
    match serde_json::from_slice::<Value>(body) {
        Ok(value) => error_from_body(reply.status, value),
        Err(_) => {
            let kind = reply.content_type.unwrap_or("no content type");
            let reason = match body.is_empty() {
                true => format!("HTTP {} with an empty body ({kind})", reply.status),
                false => format!(
                    "HTTP {} with a body that is not JSON ({kind}): {}",
                    reply.status,
                    excerpt(body)
                ),
            };
            CallError::Malformed(ClientError::new(reason).with_http_status(reply.status))
        }
    }
}

/// The error a JSON error body names: by the ErrorInfo reason of a `google.rpc.Status`, else the
/// table's catch-all with the body kept as `data`. `status` is the HTTP status, the catch-all's
/// `code` (for an SSE `error` event, the Status's own `code`, else 500).
pub fn error_from_body<A: ErrorTable, E: AgentError>(status: u16, body: Value) -> CallError<A, E> {
    let message = status_message(&body);
    // `{"error": Status}` as §11.6 writes it, or a bare Status (grpc-gateway's form).
    let status_object = match body.get("error") {
        Some(error) => error,
        None => &body,
    };
    let details = status_object
        .get("details")
        .filter(|d| d.is_array())
        .cloned();
    if let Some(details) = &details {
        for info in details
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| is_error_info(d))
        {
            let (reason, domain) = (
                info.get("reason").and_then(Value::as_str),
                info.get("domain")
                    .and_then(Value::as_str)
                    .filter(|d| !d.is_empty()),
            );
            let Some(reason) = reason else { continue };
            // No domain (absent, empty, not a string) is read as A2A's, as a2a-sdk reads it.
            if domain.is_none() || domain == Some(A2A_DOMAIN) {
                if let Some(row) = A::rows()
                    .iter()
                    .find(|row| rest_reason(row) == Some(reason))
                {
                    return CallError::Agent(A::from_code(
                        row.code,
                        message,
                        Some(details.clone()),
                    ));
                }
            } else if let Some(error) =
                from_reason::<E>(reason, domain.unwrap_or_default(), details)
            {
                let message = message.unwrap_or_else(|| error.message().to_owned());
                return CallError::Custom { error, message };
            }
        }
    }
    let message = message.unwrap_or_else(|| format!("HTTP {status}"));
    CallError::Agent(A::from_code(i64::from(status), Some(message), Some(body)))
}

/// The message an error body carries: a Status's `message`, a problem's `detail` or `title`.
fn status_message(body: &Value) -> Option<String> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    match body.get("error") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(error) => text(error.get("message")),
        None => text(body.get("detail"))
            .or_else(|| text(body.get("title")))
            .or_else(|| text(body.get("message"))),
    }
}

fn is_error_info(detail: &Value) -> bool {
    detail.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE)
}

/// The body without surrounding ASCII whitespace and without one leading UTF-8 BOM (RFC 8259
/// §8.1 lets a reader ignore it; a2a-sdk's does).
fn trim(body: &[u8]) -> &[u8] {
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

/// The first 80 characters of a body, quoted, for a reason.
pub(crate) fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        out.push_str("...");
    }
    format!("{out:?}")
}

// ----- streams, client side -----------------------------------------------------------------------

/// Decodes a streamed REST reply (SSE) incrementally: each event's data is one bare `T`; an event
/// named `error` carries a Status and becomes the typed error, as an error reply would (the
/// Status's own `code` standing for the HTTP status, since the stream's was 200). Feed bytes
/// as they arrive, split anywhere.
///
/// A streaming call answered with a plain JSON error instead (the agent failed before the stream
/// started) is an ordinary error reply: decode it with [`decode_rest_response_with`].
#[derive(Debug)]
pub struct RestStreamDecoder<T, A, E = NoCustomErrors> {
    events: Events,
    result: PhantomData<fn() -> T>,
    errors: PhantomData<fn() -> (A, E)>,
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> RestStreamDecoder<T, A, E> {
    /// A decoder for a stream (the agent answered with a 2xx status and `text/event-stream`).
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A decoder whose events may be at most so large and so deeply nested.
    pub fn with_limits(limits: Limits) -> Self {
        RestStreamDecoder {
            events: Events::with_limits(limits),
            result: PhantomData,
            errors: PhantomData,
        }
    }

    /// Feeds the next bytes; returns one item per event they complete, in order (an event with
    /// no data is skipped, as a2a-sdk's reader does).
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<T, CallError<A, E>>> {
        self.events.feed_map(chunk, decode_rest_event)
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), CallError<A, E>> {
        self.events.finish().map_err(CallError::Malformed)
    }
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> Default for RestStreamDecoder<T, A, E> {
    fn default() -> Self {
        Self::new()
    }
}

fn decode_rest_event<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    event: Result<SseEvent, ClientError>,
) -> Result<T, CallError<A, E>> {
    let malformed = |reason: String| CallError::Malformed(ClientError::new(reason));
    let event = event.map_err(CallError::Malformed)?;
    if event.event == "error" {
        return Err(match serde_json::from_str::<Value>(&event.data) {
            Ok(body) => error_from_body(event_status(&body), body),
            Err(e) => malformed(format!("an `error` event's data is not JSON: {e}")),
        });
    }
    serde_json::from_str::<T>(&event.data).map_err(|e| {
        malformed(format!(
            "an event's data is not a valid `{}`: {e}",
            short_type_name::<T>()
        ))
    })
}

/// The HTTP status an `error` event stands for: the Status's own `code` when it is an error
/// status (§11.6 writes the HTTP status there), else 500 (the stream's own 2xx says nothing).
fn event_status(body: &Value) -> u16 {
    body.get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| (400..=599).contains(c))
        .unwrap_or(500)
}

// ----- routes -------------------------------------------------------------------------------------

/// One HTTP rule of a method: a `google.api.http` binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The HTTP method (`GET`, `POST`, `DELETE`, ...).
    pub verb: &'static str,
    /// The path template as the proto writes it: literal segments, variables naming request
    /// fields by their proto name (`{id=*}`, `{task_id=*}`, `{tenant}`), and a `:verb` suffix on
    /// the last segment (`/tasks/{id=*}:cancel`).
    pub path: &'static str,
    /// What the body holds: `Some("*")` for the whole request, `Some(field)` for that field of
    /// it (by proto name); `None` for no body, the fields not in the path being query parameters.
    pub body: Option<&'static str>,
}

/// How a query parameter's value is read (§11.5): what JSON value it becomes in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A string, an enum name, a timestamp or bytes: kept as a JSON string.
    Text,
    /// `true` or `false`.
    Bool,
    /// A decimal integer.
    Integer,
    /// A decimal number.
    Number,
    /// An enum: its name, or its number in decimal.
    Enum,
}

/// A request field that may travel as a query parameter (a scalar or a list of scalars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryParam {
    /// The JSON (lowerCamelCase) name: the parameter's name.
    pub name: &'static str,
    /// The proto (snake_case) name, accepted too when it differs.
    pub alias: Option<&'static str>,
    /// How its value is read.
    pub kind: ParamKind,
    /// A repeated field: the parameter may repeat, or hold a comma-separated list.
    pub repeated: bool,
}

/// A method of the REST binding: its routes (the primary rule first, then the additional ones,
/// each `/{tenant}` form among them) and the fields that may travel as query parameters.
pub trait RestMethod: Method {
    /// The HTTP rules, in the proto's order.
    const ROUTES: &'static [Route];
    /// The params' scalar fields, by JSON name.
    const QUERY: &'static [QueryParam];
    /// Routes a server also takes the method at, besides [`Self::ROUTES`]; a client never sends
    /// them ([`encode_rest_request`] uses `ROUTES` only). For A2A v1: `SubscribeToTask` under
    /// `POST`, which the spec's §11.3.2 prints and a2a-sdk's client sends, where the proto says
    /// `GET` (the method table's `http_also_served`).
    const ALSO_SERVED: &'static [Route] = &[];
}

/// One piece of a path template.
#[derive(Debug, PartialEq)]
enum Piece<'t> {
    Literal(&'t str),
    /// A variable: the field's proto name.
    Var(&'t str),
}

/// The segments of a template, each a list of pieces (a segment may be `{id=*}:cancel`).
fn template_segments(template: &str) -> Vec<Vec<Piece<'_>>> {
    template
        .trim_start_matches('/')
        .split('/')
        .map(|segment| {
            let mut pieces = Vec::new();
            let mut rest = segment;
            while !rest.is_empty() {
                match rest.find('{') {
                    Some(0) => {
                        let end = rest.find('}').unwrap_or(rest.len() - 1);
                        let inner = &rest[1..end];
                        let name = inner.split('=').next().unwrap_or(inner);
                        pieces.push(Piece::Var(name));
                        rest = &rest[(end + 1).min(rest.len())..];
                    }
                    Some(i) => {
                        pieces.push(Piece::Literal(&rest[..i]));
                        rest = &rest[i..];
                    }
                    None => {
                        pieces.push(Piece::Literal(rest));
                        rest = "";
                    }
                }
            }
            pieces
        })
        .collect()
}

/// The template's variables, as proto field names, in order.
pub fn path_variables(template: &str) -> Vec<&str> {
    template_segments(template)
        .into_iter()
        .flatten()
        .filter_map(|p| match p {
            Piece::Var(name) => Some(name),
            Piece::Literal(_) => None,
        })
        .collect()
}

/// Matches a request path (without its query) against a template: the variables' values by proto
/// field name, percent-decoded, or `None` when the path is not this route's. A variable matches
/// one non-empty segment (or the part of it before a `:verb` suffix).
pub fn match_path(template: &str, path: &str) -> Option<Vec<(String, String)>> {
    let segments = template_segments(template);
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if segments.len() != parts.len() {
        return None;
    }
    // A `:verb` ends the last segment (`/tasks/t-1:cancel`); a template without one does not
    // match a path with one (values carry `:` percent-encoded), so `/tasks/{id=*}` is not
    // `/tasks/t-1:subscribe`.
    let template_verb = template
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains(':'));
    if !template_verb && parts.last().is_some_and(|last| last.contains(':')) {
        return None;
    }
    let mut values = Vec::new();
    for (pieces, part) in segments.iter().zip(parts) {
        let mut rest = part;
        for (i, piece) in pieces.iter().enumerate() {
            match piece {
                Piece::Literal(lit) => rest = rest.strip_prefix(lit)?,
                Piece::Var(name) => {
                    // Up to the next literal in this segment, else the rest of it.
                    let end = match pieces.get(i + 1) {
                        Some(Piece::Literal(next)) => rest.rfind(next)?,
                        _ => rest.len(),
                    };
                    let value = percent_decode(&rest[..end])?;
                    if value.is_empty() {
                        return None;
                    }
                    values.push((name.to_string(), value));
                    rest = &rest[end..];
                }
            }
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(values)
}

/// Percent-encodes a path segment or query value (RFC 3986: everything but the unreserved
/// characters).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Decodes `%XX` escapes; `None` for a broken escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Splits a query string (without the `?`) into decoded name/value pairs; `+` is a space, as in
/// forms. A pair whose escapes are broken is dropped.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let plus = |s: &str| s.replace('+', " ");
            Some((percent_decode(&plus(name))?, percent_decode(&plus(value))?))
        })
        .collect()
}

// ----- requests, client side ----------------------------------------------------------------------

/// An HTTP request of the REST binding, ready to send: relative to the agent's base URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The HTTP method.
    pub verb: &'static str,
    /// The path, with the query string when there is one (`/tasks/t-1?historyLength=2`).
    pub path: String,
    /// The JSON body, for a route whose request is the body.
    pub body: Option<Vec<u8>>,
}

/// Why params cannot be sent over a method's routes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteError(String);

impl std::fmt::Display for RouteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RouteError {}

/// The request calling method `M` with `params` (§11.5): the route whose path variables the
/// params fill (the `/{tenant}` form when `tenant` is set), path variables percent-encoded, and
/// the other fields as the JSON body (`POST` routes; the fields the path binds are left out of a
/// `*` body, as google.api.http says) or as query parameters (camelCase names; booleans
/// `true`/`false`; numbers in decimal; enums by name; timestamps as written; a list as a repeated
/// parameter; objects never, as §11.5 says).
///
/// An error when no route can carry the params: a path variable's field is missing or empty.
pub fn encode_rest_request<M: RestMethod>(params: &M::Params) -> Result<HttpRequest, RouteError>
where
    M::Params: Serialize,
{
    let value = serde_json::to_value(params).map_err(|e| RouteError(e.to_string()))?;
    let empty = Map::new();
    let object = value.as_object().unwrap_or(&empty);
    let text_of = |proto_name: &str| -> Option<String> {
        let json_name = a2a_facts::case::lower_camel(proto_name);
        match object.get(&json_name).or_else(|| object.get(proto_name))? {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    };
    // The routes whose variables are all set; among them the one using the most (with `tenant`
    // set, its `/{tenant}` form).
    let route = M::ROUTES
        .iter()
        .filter(|r| path_variables(r.path).iter().all(|v| text_of(v).is_some()))
        .max_by_key(|r| path_variables(r.path).len())
        .ok_or_else(|| {
            RouteError(format!(
                "{}: the params fill no route's path ({}): a path field is missing or empty",
                M::NAME,
                M::ROUTES
                    .iter()
                    .map(|r| r.path)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let mut path = String::new();
    let mut in_path = Vec::new();
    for pieces in template_segments(route.path) {
        path.push('/');
        for piece in pieces {
            match piece {
                Piece::Literal(lit) => path.push_str(lit),
                Piece::Var(name) => {
                    path.push_str(&percent_encode(&text_of(name).unwrap_or_default()));
                    in_path.push(a2a_facts::case::lower_camel(name));
                }
            }
        }
    }
    if let Some(field) = route.body {
        let body = match field {
            // Every field the path does not bind (google.api.http's `*`): not the path's own.
            "*" => serde_json::to_vec(&Value::Object(
                object
                    .iter()
                    .filter(|(name, _)| !in_path.contains(name))
                    .map(|(name, v)| (name.clone(), v.clone()))
                    .collect(),
            )),
            field => serde_json::to_vec(
                object
                    .get(&a2a_facts::case::lower_camel(field))
                    .unwrap_or(&Value::Null),
            ),
        }
        .map_err(|e| RouteError(e.to_string()))?;
        return Ok(HttpRequest {
            verb: route.verb,
            path,
            body: Some(body),
        });
    }
    let mut query = String::new();
    for (name, value) in object {
        if in_path.iter().any(|p| p == name) {
            continue;
        }
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        for item in items {
            let text = match item {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                // Objects and nulls never travel in a query (§11.5).
                _ => continue,
            };
            query.push(if query.is_empty() { '?' } else { '&' });
            query.push_str(&percent_encode(name));
            query.push('=');
            query.push_str(&percent_encode(&text));
        }
    }
    path.push_str(&query);
    Ok(HttpRequest {
        verb: route.verb,
        path,
        body: None,
    })
}

// ----- requests, server side ----------------------------------------------------------------------

/// Reads a method's params from a matched route (§11.5): the path variables, then (for a route
/// whose request is the body) the JSON body, else the query parameters of `M::QUERY`, each read
/// by its kind. Unknown query parameters are ignored (§5.7 in spirit); a value that does not read
/// is an invalid-params fault with a `google.rpc.BadRequest` detail naming the parameter.
pub fn decode_rest_params<M: RestMethod>(
    route: &Route,
    captures: Vec<(String, String)>,
    query: &str,
    body: &[u8],
) -> Result<M::Params, Fault>
where
    M::Params: DeserializeOwned,
{
    let mut object = Map::new();
    if route.body.is_some() && !trim(body).is_empty() {
        match serde_json::from_slice::<Value>(body) {
            Ok(Value::Object(map)) if route.body == Some("*") => object = map,
            Ok(value) if route.body != Some("*") => {
                let field = a2a_facts::case::lower_camel(route.body.unwrap_or_default());
                object.insert(field, value);
            }
            Ok(_) => return Err(fault("body", "the body must be a JSON object".into())),
            Err(e) => {
                let mut f = fault("body", format!("the body is not JSON: {e}"));
                f.code = codes::PARSE_ERROR;
                return Err(f);
            }
        }
    } else if route.body.is_none() {
        for (name, value) in parse_query(query) {
            let Some(param) = M::QUERY
                .iter()
                .find(|p| p.name == name || p.alias == Some(name.as_str()))
            else {
                continue;
            };
            let values: Vec<&str> = match param.repeated {
                true => value.split(',').collect(),
                false => vec![value.as_str()],
            };
            for text in values {
                let read = read_param(param, text)
                    .map_err(|reason| fault(&name, format!("`{name}={text}`: {reason}")))?;
                match param.repeated {
                    true => match object
                        .entry(param.name)
                        .or_insert_with(|| Value::Array(Vec::new()))
                    {
                        Value::Array(items) => items.push(read),
                        slot => *slot = Value::Array(vec![read]),
                    },
                    false => {
                        object.insert(param.name.to_owned(), read);
                    }
                }
            }
        }
    }
    // The path's values win over the body's: the route is what the request was sent to.
    for (proto_name, value) in captures {
        object.remove(&proto_name);
        object.insert(
            a2a_facts::case::lower_camel(&proto_name),
            Value::String(value),
        );
    }
    let value = Value::Object(object);
    let text = value.to_string();
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize::<_, M::Params>(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            "params".to_string()
        } else {
            path
        };
        fault(&field, e.inner().to_string())
    })
}

fn read_param(param: &QueryParam, text: &str) -> Result<Value, String> {
    match param.kind {
        ParamKind::Text => Ok(Value::String(text.to_owned())),
        ParamKind::Bool => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("expected `true` or `false`".into()),
        },
        ParamKind::Integer => text
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .map_err(|_| "expected a decimal integer".into()),
        ParamKind::Enum => Ok(match text.parse::<i64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::String(text.to_owned()),
        }),
        ParamKind::Number => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| "expected a decimal number".into()),
    }
}

/// An invalid-params fault naming `field`, with a `google.rpc.BadRequest` detail.
fn fault(field: &str, reason: String) -> Fault {
    Fault::bad_field(RequestId::Null, field.to_owned(), reason)
}

// ----- replies, server side -----------------------------------------------------------------------

/// An HTTP reply of the REST binding, ready to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestResponse {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` to send.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

/// The success reply: the bare result, HTTP 200.
pub fn encode_rest_result<T: Serialize + ?Sized>(result: &T) -> RestResponse {
    RestResponse {
        status: 200,
        content_type: CONTENT_TYPE,
        body: serde_json::to_vec(result).unwrap_or_else(|_| b"{}".to_vec()),
    }
}

/// The error reply (§11.6): the table's HTTP status (500 for the catch-all), and the
/// `google.rpc.Status` as `{"error": {code, status, message, details}}`. `details` are the
/// error's `@type` objects; when none is an ErrorInfo and the row has a reason ([`rest_reason`]:
/// the standard JSON-RPC rows under a2a-sdk's reasons too), the ErrorInfo A2A requires (reason,
/// domain `a2a-protocol.org`) comes first.
pub fn encode_rest_error<A: ErrorTable>(error: &A) -> RestResponse {
    error_response(error, None)
}

/// [`encode_rest_error`], under another HTTP status when `status` says so.
fn error_response<A: ErrorTable>(error: &A, status: Option<u16>) -> RestResponse {
    let row = error.row();
    let mut details = ErrorDetail::list_from(error.data());
    if let Some(reason) = row.and_then(rest_reason) {
        if !details.iter().any(|d| d.type_url() == ERROR_INFO_TYPE) {
            let info =
                ErrorDetail::error_info(reason, A2A_DOMAIN, std::iter::empty::<(String, String)>());
            details.insert(0, info);
        }
    }
    let http = status.unwrap_or_else(|| row.map_or(crate::table::UNLISTED_HTTP, |r| r.http));
    let grpc = row.map_or(crate::table::UNLISTED_GRPC, |r| r.grpc);
    status_response(http, grpc, error.message(), details)
}

/// The error reply for one of the agent's own errors: its row's HTTP and gRPC status, and its
/// `data` (the ErrorInfo in the type's domain, then the fields) as `details`. `message` replaces
/// the row's default.
pub fn encode_rest_custom_error<E: AgentError>(error: &E, message: Option<&str>) -> RestResponse {
    let row = error.row();
    let data = error.data();
    status_response(
        row.http,
        row.grpc,
        message.unwrap_or(row.message),
        ErrorDetail::list_from(Some(&data)),
    )
}

fn status_response(
    http: u16,
    grpc: &str,
    message: &str,
    details: Vec<ErrorDetail>,
) -> RestResponse {
    let body = serde_json::json!({
        "error": {
            "code": http,
            "status": grpc,
            "message": message,
            "details": ErrorDetail::list_to_data(details),
        }
    });
    RestResponse {
        status: http,
        content_type: CONTENT_TYPE,
        body: body.to_string().into_bytes(),
    }
}

/// One SSE event of a streamed REST reply: the bare result in one `data:` line, or an event named
/// `error` carrying the Status (for a failure after the stream started).
pub fn encode_rest_event<T: Serialize + ?Sized, A: ErrorTable>(item: Result<&T, &A>) -> Vec<u8> {
    let mut out = Vec::new();
    match item {
        Ok(result) => {
            out.extend_from_slice(b"data: ");
            out.extend(serde_json::to_vec(result).unwrap_or_else(|_| b"{}".to_vec()));
        }
        Err(error) => {
            out.extend_from_slice(b"event: error\ndata: ");
            out.extend(encode_rest_error(error).body);
        }
    }
    out.extend_from_slice(b"\n\n");
    out
}

// ----- dispatch, server side ----------------------------------------------------------------------

/// The route of method `M` that `path` matches with `verb`, and the path's variables; `None` when
/// none does. `other_verb` is set when a route matches the path under another verb (the request
/// then deserves 405, not 404). The routes also served ([`RestMethod::ALSO_SERVED`]) count.
pub fn find_route<M: RestMethod>(
    verb: &str,
    path: &str,
    other_verb: &mut bool,
) -> Option<(&'static Route, Vec<(String, String)>)> {
    for route in M::ROUTES.iter().chain(M::ALSO_SERVED) {
        if let Some(captures) = match_path(route.path, path) {
            if route.verb.eq_ignore_ascii_case(verb) {
                return Some((route, captures));
            }
            *other_verb = true;
        }
    }
    None
}

/// Refuses params that lack what the method cannot run without, as the JSON-RPC side does
/// ([`crate::RawRequest::require`]): an invalid-params fault naming the fields. The checks name
/// them as JSON-RPC does (`params.message.messageId`); a REST request has no `params` member, so
/// the fault names them from the request's root (`message.messageId`), as its body and query do.
pub fn require(method: &str, checks: &[(&str, bool)]) -> Result<(), Fault> {
    let checks: Vec<(&str, bool)> = checks
        .iter()
        .map(|&(field, missing)| (field.strip_prefix("params.").unwrap_or(field), missing))
        .collect();
    match crate::server::missing_fields(method, &checks) {
        None => Ok(()),
        Some((detail, details)) => Err(Fault {
            details,
            ..Fault::new(RequestId::Null, codes::INVALID_PARAMS, detail)
        }),
    }
}

/// A REST request that cannot be served: the HTTP status and the error to answer with.
#[derive(Clone, Debug, PartialEq)]
pub struct RestRejection<A> {
    /// The HTTP status: the error's, or 404 for a path no route has, 405 for a verb the path's
    /// routes do not take.
    pub status: u16,
    /// The error.
    pub error: A,
}

impl<A: ErrorTable> RestRejection<A> {
    /// The rejection of a request no route takes: 404 when no route has the path, 405 when one
    /// has it under another verb (the error is the table's method-not-found either way).
    pub fn no_route(verb: &str, path: &str, other_verb: bool) -> Self {
        let (status, detail) = match other_verb {
            true => (405, format!("{verb} is not a method of {path}")),
            false => (404, format!("no route has the path {path}")),
        };
        let fault = Fault::new(RequestId::Null, codes::METHOD_NOT_FOUND, detail);
        RestRejection {
            status,
            error: A::from_fault(&fault),
        }
    }

    /// The reply to send.
    pub fn response(&self) -> RestResponse {
        error_response(&self.error, Some(self.status))
    }
}

impl<A: ErrorTable> From<Fault> for RestRejection<A> {
    fn from(fault: Fault) -> Self {
        let error = A::from_fault(&fault);
        let status = error.row().map_or(crate::table::UNLISTED_HTTP, |r| r.http);
        RestRejection { status, error }
    }
}
