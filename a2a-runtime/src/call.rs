//! One client API over both HTTP bindings: pick the binding from the agent card
//! ([`crate::version::pick_interface`]), then encode calls and decode replies and streams through
//! the same functions, with the same outcomes: the method's typed result, the agent's typed error,
//! or the client error saying what was malformed.
//!
//! ```
//! use a2a_runtime::call::Binding;
//!
//! assert_eq!(Binding::of("HTTP+JSON"), Some(Binding::HttpJson));
//! assert_eq!(Binding::of("JSONRPC"), Some(Binding::JsonRpc));
//! assert_eq!(Binding::of("jsonrpc"), Some(Binding::JsonRpc)); // as pick_interface compares
//! assert_eq!(Binding::of("GRPC"), None); // served by the protobuf toolchain, not by this crate
//! ```
//!
//! A generated module (`a2a_types::v1`) names these with its error table filled in:
//! `encode_call::<method::GetTask>(binding, &id, &params)`, `decode_call::<method::GetTask>(binding,
//! &reply)`, `CallStreamDecoder::<StreamResponse>::new(binding)`.

use crate::client::{decode_response_with_limits, CallError, StreamDecoder};
use crate::custom::{AgentError, NoCustomErrors};
use crate::envelope::ClientError;
use crate::limits::Limits;
use crate::rest::{
    decode_rest_response_with, encode_rest_request, HttpReply, HttpRequest, RestMethod,
    RestStreamDecoder, RouteError,
};
use crate::server::{encode_request, RequestId};
use crate::table::ErrorTable;
use crate::version::binding;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The HTTP bindings this crate speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec §9): every call a POST to the interface's URL.
    JsonRpc,
    /// HTTP+JSON (spec §11): each method on its own route below the interface's URL.
    HttpJson,
}

impl Binding {
    /// The binding an agent card names (`protocolBinding`, or v0.3's `transport`), ignoring ASCII
    /// case as [`crate::version::pick_interface`] does; `None` for one this crate does not speak
    /// (gRPC).
    pub fn of(name: &str) -> Option<Binding> {
        [Binding::JsonRpc, Binding::HttpJson]
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// The name agent cards use for it.
    pub fn name(self) -> &'static str {
        match self {
            Binding::JsonRpc => binding::JSONRPC,
            Binding::HttpJson => binding::HTTP_JSON,
        }
    }
}

/// The HTTP request calling method `M` with `params` over `binding`: for JSON-RPC a POST of the
/// request object (with `id`) to the interface's URL itself (`path` is empty); for HTTP+JSON the
/// method's route below it ([`encode_rest_request`]; `id` is not sent).
pub fn encode_call<M>(
    binding: Binding,
    id: &RequestId,
    params: &M::Params,
) -> Result<HttpRequest, RouteError>
where
    M: RestMethod,
    M::Params: Serialize,
{
    match binding {
        Binding::JsonRpc => Ok(HttpRequest {
            verb: "POST",
            path: String::new(),
            body: Some(encode_request(id, M::NAME, params)),
        }),
        Binding::HttpJson => encode_rest_request::<M>(params),
    }
}

/// Decodes the reply to a call over `binding`: the JSON-RPC response in the body (whatever the
/// HTTP status), or the REST reply by its status ([`decode_rest_response_with`]). Over either
/// binding a malformed reply keeps its HTTP status ([`ClientError::http_status`]), and one that
/// is not a success says it (a proxy's HTML 502 in front of a JSON-RPC agent, say).
pub fn decode_call<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    binding: Binding,
    reply: &HttpReply<'_>,
    limits: &Limits,
) -> Result<T, CallError<A, E>> {
    match binding {
        Binding::JsonRpc => decode_response_with_limits(reply.body, limits).map_err(|e| match e {
            CallError::Malformed(e) if e.http_status().is_none() => {
                CallError::Malformed(with_status(e, reply))
            }
            other => other,
        }),
        Binding::HttpJson => decode_rest_response_with(reply, limits),
    }
}

/// A JSON-RPC body's client error with the reply's HTTP status, named in the reason when it is
/// not a success (the JSON-RPC decoder reads bodies only).
fn with_status(e: ClientError, reply: &HttpReply<'_>) -> ClientError {
    let status = reply.status;
    let e = match (200..300).contains(&status) {
        true => e,
        false => ClientError::new(format!(
            "HTTP {status} ({}): {}",
            reply.content_type.unwrap_or("no content type"),
            e.reason()
        ))
        .with_kind(e.kind()),
    };
    e.with_http_status(status)
}

/// Decodes a streamed reply (SSE) over either binding, fed in chunks split anywhere: each event
/// the typed result or the typed error, as [`decode_call`] gives them.
#[derive(Debug)]
pub enum CallStreamDecoder<T, A, E = NoCustomErrors> {
    /// Events that are JSON-RPC responses.
    JsonRpc(StreamDecoder<T, A, E>),
    /// Events that are bare results (an event named `error` carrying a Status).
    HttpJson(RestStreamDecoder<T, A, E>),
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> CallStreamDecoder<T, A, E> {
    /// A decoder for a stream over `binding`.
    pub fn new(binding: Binding) -> Self {
        Self::with_limits(binding, Limits::DEFAULT)
    }

    /// A decoder whose events may be at most so large and so deeply nested.
    pub fn with_limits(binding: Binding, limits: Limits) -> Self {
        match binding {
            Binding::JsonRpc => Self::JsonRpc(StreamDecoder::with_limits(limits)),
            Binding::HttpJson => Self::HttpJson(RestStreamDecoder::with_limits(limits)),
        }
    }

    /// Feeds the next bytes; returns one item per event they complete, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<T, CallError<A, E>>> {
        match self {
            Self::JsonRpc(d) => d.feed(chunk),
            Self::HttpJson(d) => d.feed(chunk),
        }
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), CallError<A, E>> {
        match self {
            Self::JsonRpc(d) => d.finish(),
            Self::HttpJson(d) => d.finish(),
        }
    }
}
