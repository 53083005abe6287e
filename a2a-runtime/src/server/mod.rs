//! The agent's side, whatever the binding: [`Fault`], what a request that cannot be served
//! gets answered with, and behind the `server` feature the axum server ([`AgentRouter`],
//! [`serve`]) that carries a generated service over JSON-RPC and HTTP+JSON.
//!
//! # The HTTP server (feature `server`)
//!
//! The axum server (feature `server`): serves a generated module's service over JSON-RPC and
//! HTTP+JSON, with the agent card, from one [`AgentRouter`].
//!
//! Given the agent card and one service per protocol version (a generated module's
//! `A2aServer::new(agent)`), [`AgentRouter::into_router`] gives an [`axum::Router`] that serves:
//!
//! - the card at `/.well-known/agent-card.json`, with `Cache-Control: public, max-age=…`, an
//!   `ETag` (`304 Not Modified` on a matching `If-None-Match`) and `Last-Modified`; when a v0.3
//!   service is served too, the card carries v0.3's members beside v1's (`url`,
//!   `protocolVersion`, `preferredTransport`, `additionalInterfaces`,
//!   `supportsAuthenticatedExtendedCard`), as a2a-sdk serves it, so a v0.3 client finds its
//!   transport declared;
//! - JSON-RPC (a `POST` at the path of each `JSONRPC` interface of the card's
//!   `supportedInterfaces`) and the HTTP+JSON routes (below the path of each `HTTP+JSON`
//!   interface, tenant routes included), decoded and answered by the generated module's own
//!   decoders and encoders;
//! - `A2A-Version` negotiation (the header, or a query parameter of that name): the version picks
//!   the service; a version no service speaks gets `VersionNotSupported` on either binding. A
//!   request without it is 0.3 (spec §3.6), served when a v0.3 service is given (a2a-sdk's
//!   `enable_v0_3_compat`) and refused with `VersionNotSupported` when not;
//! - streams as SSE (`text/event-stream`): one event per item, a keep-alive comment on an idle
//!   stream, an error item as the stream's last event (JSON-RPC: an error response; HTTP+JSON: an
//!   event named `error` carrying the Status), and the end of the response when the stream ends.
//!   A streaming call refused before its stream begins gets one JSON reply, not a stream;
//! - content types: a body that says it is not JSON gets `ContentTypeNotSupported` (JSON-RPC:
//!   -32005 in an error response; HTTP+JSON: 415), a body over the limit the binding's invalid
//!   request (HTTP+JSON: 413), a JSON-RPC notification `204 No Content`;
//! - a method that panics answers `InternalError` (-32603; HTTP 500), and the server keeps
//!   serving; a stream that panics ends with the error event.
//!
//! The router is a plain `axum::Router`: add the tower layers you need (authentication, tracing,
//! CORS) with `.layer(..)`, merge your own routes with `.merge(..)`. What a layer puts in the
//! request's extensions reaches the service in [`RequestContext::extensions`](crate::service::RequestContext::extensions). Serve it with
//! `axum::serve`, or [`serve`] for graceful shutdown with a bounded grace period.
//!
//! ```no_run
//! # #[cfg(any())] mod hidden {
//! use a2a_types::v1::{self, A2aServer, A2aService, RequestContext, ServiceError};
//! # }
//! // (a complete agent: see the a2a-types crate docs and examples/echo-agent)
//! ```

use crate::jsonrpc::{codes, RequestId};
use crate::wire::ErrorDetail;

#[cfg(feature = "server")]
mod http;
#[cfg(feature = "server")]
pub use http::*;

/// Why a request cannot be served, and what to answer: the JSON-RPC code, the id to echo, one
/// line saying what was wrong, and error details for the response's `data` (v1 §9.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// The id to answer with (`null` when the request's id could not be read).
    pub id: RequestId,
    /// One of the [`codes`].
    pub code: i64,
    /// What was wrong, in one line, for the error message.
    pub detail: String,
    /// Structured details: a `google.rpc.BadRequest` for params that do not decode.
    pub details: Vec<ErrorDetail>,
    /// Whether the request was a notification (a valid request object without `id`): JSON-RPC
    /// 2.0 §4.1 says the server must not answer it, even with an error. A body whose envelope is
    /// broken is never one (its id cannot be told), and is answered with id `null`.
    pub notification: bool,
}

impl Fault {
    pub(crate) fn new(id: RequestId, code: i64, detail: impl Into<String>) -> Self {
        Fault {
            id,
            code,
            detail: detail.into(),
            details: Vec::new(),
            notification: false,
        }
    }

    /// An invalid-params fault naming `field`, with a `google.rpc.BadRequest` violation for it.
    pub(crate) fn bad_field(id: RequestId, field: String, reason: String) -> Self {
        Fault {
            details: vec![ErrorDetail::bad_request([(field.clone(), reason.clone())])],
            ..Fault::new(id, codes::INVALID_PARAMS, format!("`{field}`: {reason}"))
        }
    }
}
