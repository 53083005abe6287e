//! The client's side of the HTTP+JSON binding: replies, streams and requests (reached through
//! [`crate::client::Decoder`] and [`crate::client::encode_call`]).

use crate::body::{excerpt, short_type_name, trim};
use crate::client::error::{CallError, ClientError, RouteError};
use crate::client::events::Events;
use crate::client::message::{HttpReply, HttpRequest};
use crate::custom::{from_reason, AgentError};
use crate::limits::Limits;
use crate::rest::{path_variables, percent_encode, rest_reason, RestMethod};
use crate::rest::{template_segments, Piece};
use crate::sse::SseEvent;
use crate::table::ErrorTable;
use crate::wire::detail::{A2A_DOMAIN, ERROR_INFO_TYPE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::marker::PhantomData;

// ----- replies, client side -----------------------------------------------------------------------

/// Decodes a REST reply: the result as `T` at a 2xx status, else the agent's typed error (`A`,
/// or one of `E`'s), or the client error saying what was malformed. Never panics, whatever the
/// bytes. See the [binding's docs](crate::rest) for the rules.
pub(crate) fn decode<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    reply: &HttpReply<'_>,
    limits: &Limits,
) -> Result<T, CallError<A, E>> {
    decode_with(reply, limits, |text| serde_json::from_slice::<T>(text))
}

/// [`decode`], the result read from the body's text by `read` (0.3's binding reads it through
/// its translation).
pub(crate) fn decode_with<T, A: ErrorTable, E: AgentError>(
    reply: &HttpReply<'_>,
    limits: &Limits,
    read: impl FnOnce(&[u8]) -> serde_json::Result<T>,
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
    if let Some(status) = status_error_object(body) {
        return Err(error_from_body(event_status(&status), status));
    }
    let text = if body.is_empty() {
        b"null".as_slice()
    } else {
        body
    };
    read(text).map_err(|e| {
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

/// The members a `google.rpc.Status` has, as §11.6 writes it inside `{"error": ...}`.
const STATUS_MEMBERS: [&str; 4] = ["code", "status", "message", "details"];

/// A 2xx body that is a `google.rpc.Status` error object and nothing else (`{"error": {code,
/// status, message, details}}`, some of those four members, no other): an agent (or a proxy)
/// that put the error status in the body only. It names an error, so it is read as that error,
/// not handed to the result's decoder (which, tolerant of unknown members, would make an empty
/// result of it). Only a body whose first member is `error` is parsed a second time: a result is
/// decoded as it always is.
fn status_error_object(body: &[u8]) -> Option<Value> {
    let inside = body.strip_prefix(b"{")?;
    let first = inside.iter().position(|b| !b.is_ascii_whitespace())?;
    if !inside[first..].starts_with(br#""error""#) {
        return None;
    }
    let value: Value = serde_json::from_slice(body).ok()?;
    let object = value.as_object().filter(|o| o.len() == 1)?;
    let status = object.get("error")?.as_object()?;
    let only_status = !status.is_empty()
        && status
            .keys()
            .all(|key| STATUS_MEMBERS.contains(&key.as_str()));
    only_status.then_some(value)
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
pub(crate) fn error_from_body<A: ErrorTable, E: AgentError>(
    status: u16,
    body: Value,
) -> CallError<A, E> {
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
    // No ErrorInfo the table knows (0.3's table has no reasons): the error the body names by
    // the spec's name beside the Status (`type`, as a2a-sdk 1.3.0 answers its 0.3 REST clients).
    let named = body.get("type").and_then(Value::as_str);
    if let Some(row) = named.and_then(|name| A::rows().iter().find(|row| row.spec_name == name)) {
        return CallError::Agent(A::from_code(row.code, message, details));
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

// ----- streams, client side -----------------------------------------------------------------------

/// Decodes a streamed REST reply (SSE) incrementally: each event's data is one bare `T`; an event
/// named `error` carries a Status and becomes the typed error, as an error reply would (the
/// Status's own `code` standing for the HTTP status, since the stream's was 200). Feed bytes
/// as they arrive, split anywhere. Behind [`crate::client::StreamDecoder`].
///
/// A streaming call answered with a plain JSON error instead (the agent failed before the stream
/// started) is an ordinary error reply, read by [`decode`].
#[derive(Debug)]
pub(crate) struct EventDecoder<T> {
    events: Events,
    result: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> EventDecoder<T> {
    /// A decoder whose events may be at most so large and so deeply nested.
    pub(crate) fn with_limits(limits: Limits) -> Self {
        EventDecoder {
            events: Events::with_limits(limits),
            result: PhantomData,
        }
    }

    /// Feeds the next bytes; returns one item per event they complete, in order (an event with
    /// no data is skipped, as a2a-sdk's reader does).
    pub(crate) fn feed<A: ErrorTable, E: AgentError>(
        &mut self,
        chunk: &[u8],
    ) -> Vec<Result<T, CallError<A, E>>> {
        self.events.feed_map(chunk, decode_rest_event)
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub(crate) fn finish(&mut self) -> Result<(), ClientError> {
        self.events.finish()
    }

    /// The id of the last event the stream named (`""` when none did).
    pub(crate) fn last_event_id(&self) -> &str {
        self.events.last_event_id()
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

/// The HTTP status an `error` event (or a Status at a 2xx status) stands for: the Status's own
/// `code` when it is an error status (§11.6 writes the HTTP status there), else 500 (the reply's
/// own 2xx says nothing).
fn event_status(body: &Value) -> u16 {
    body.get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| (400..=599).contains(c))
        .unwrap_or(500)
}

// ----- requests, client side ----------------------------------------------------------------------

/// The request calling method `M` with `params` (§11.5): the route whose path variables the
/// params fill (the `/{tenant}` form when `tenant` is set), path variables percent-encoded, and
/// the other fields as the JSON body (`POST` routes; the fields the path binds are left out of a
/// `*` body, as google.api.http says) or as query parameters (camelCase names; booleans
/// `true`/`false`; numbers in decimal; enums by name; timestamps as written; a list as a repeated
/// parameter; objects never, as §11.5 says).
///
/// An error when no route can carry the params: a path variable's field is missing or empty.
pub(crate) fn encode_request<M: RestMethod>(params: &M::Params) -> Result<HttpRequest, RouteError>
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
            headers: Vec::new(),
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
        headers: Vec::new(),
        body: None,
    })
}
