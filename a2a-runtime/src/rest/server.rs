//! The agent's side of the HTTP+JSON binding: requests, responses and dispatch.

use crate::body::trim;
use crate::custom::AgentError;
use crate::fault::Fault;
use crate::jsonrpc::{codes, RequestId};
use crate::rest::{
    match_path, parse_query, rest_reason, ParamKind, QueryParam, RestMethod, Route, CONTENT_TYPE,
};
use crate::sse::ServerEvent;
use crate::table::ErrorTable;
use crate::wire::detail::{ErrorDetail, A2A_DOMAIN, ERROR_INFO_TYPE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

// ----- requests, server side ----------------------------------------------------------------------

/// Reads a method's params from a matched route (§11.5): the path variables, then (for a route
/// whose request is the body) the JSON body, else the query parameters of `M::QUERY`, each read
/// by its kind. Unknown query parameters are ignored (§5.7 in spirit); a value that does not read
/// is an invalid-params fault with a `google.rpc.BadRequest` detail naming the parameter.
#[doc(hidden)]
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
///
/// Made by the `encode_rest_*` functions, or by [`RestResponse::new`] for a reply of one's own;
/// `#[non_exhaustive]`, so that a field added later breaks no caller.
///
/// ```
/// use a2a_runtime::rest::server::RestResponse;
///
/// let reply = RestResponse::new(429, "application/json", b"{}".to_vec()).with_retry_after(2);
/// assert_eq!((reply.status, reply.retry_after), (429, Some(2)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RestResponse {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` to send.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Whole seconds a client should wait before it tries again, sent as `Retry-After`: set on
    /// a reply that says the agent is busy for now ([`encode_rest_unavailable`]).
    pub retry_after: Option<u64>,
}

impl RestResponse {
    /// A reply with this status, content type and body, and no `Retry-After`.
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> RestResponse {
        RestResponse {
            status,
            content_type,
            body,
            retry_after: None,
        }
    }

    /// This reply, telling the client to wait `seconds` before it tries again (`Retry-After`).
    #[must_use]
    pub fn with_retry_after(self, seconds: u64) -> RestResponse {
        RestResponse {
            retry_after: Some(seconds),
            ..self
        }
    }
}

/// The success reply: the bare result, HTTP 200.
pub fn encode_rest_result<T: Serialize + ?Sized>(result: &T) -> RestResponse {
    RestResponse::new(
        200,
        CONTENT_TYPE,
        serde_json::to_vec(result).unwrap_or_else(|_| b"{}".to_vec()),
    )
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
    RestResponse::new(http, CONTENT_TYPE, body.to_string().into_bytes())
}

/// The type URL of `google.rpc.RetryInfo`: how long to wait before trying again.
pub const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// A `google.rpc.RetryInfo` detail: `retryDelay` as ProtoJSON writes a Duration (`"2s"`).
pub fn retry_info(retry_after: u64) -> ErrorDetail {
    ErrorDetail::new(RETRY_INFO_TYPE).with("retryDelay", format!("{retry_after}s"))
}

/// The reply of an agent that is busy for now (a cap reached, its store full), as the spec's
/// system errors suggest: HTTP 503, status `UNAVAILABLE`, a `google.rpc.RetryInfo` detail, and
/// `Retry-After: retry_after` (whole seconds).
pub fn encode_rest_unavailable(message: &str, retry_after: u64) -> RestResponse {
    status_response(503, "UNAVAILABLE", message, vec![retry_info(retry_after)])
        .with_retry_after(retry_after)
}

/// One SSE event of a streamed REST reply: the bare result in one `data:` line, or an event named
/// `error` carrying the Status (for a failure after the stream started).
pub fn encode_rest_event<T: Serialize + ?Sized, A: ErrorTable>(
    item: Result<&T, &A>,
) -> ServerEvent {
    match item {
        Ok(result) => ServerEvent::json(
            None,
            serde_json::to_vec(result).unwrap_or_else(|_| b"{}".to_vec()),
        ),
        Err(error) => ServerEvent::json(Some("error"), encode_rest_error(error).body),
    }
}

// ----- dispatch, server side ----------------------------------------------------------------------

/// The route of method `M` that `path` matches with `verb`, and the path's variables; `None` when
/// none does. `other_verb` is set when a route matches the path under another verb (the request
/// then deserves 405, not 404). The routes also served ([`RestMethod::ALSO_SERVED`]) count.
#[doc(hidden)]
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
#[doc(hidden)]
pub fn require(method: &str, checks: &[(&str, bool)]) -> Result<(), Fault> {
    let checks: Vec<(&str, bool)> = checks
        .iter()
        .map(|&(field, missing)| (field.strip_prefix("params.").unwrap_or(field), missing))
        .collect();
    match crate::jsonrpc::server::missing_fields(method, &checks) {
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
