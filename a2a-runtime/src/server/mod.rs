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
//!   A streaming call refused before its stream begins gets one JSON reply, not a stream
//!   (over JSON-RPC in 0.3: one SSE event carrying the error, which is all a2a-sdk 0.3's client
//!   reads from a streaming call);
//! - content types: a body that says it is not JSON gets `ContentTypeNotSupported` (JSON-RPC:
//!   -32005 in an error response; HTTP+JSON: 415), a body over the limit the binding's invalid
//!   request (HTTP+JSON: 413), a JSON-RPC notification `204 No Content`;
//! - a method that panics answers `InternalError` (-32603; HTTP 500), and the server keeps
//!   serving; a stream that panics ends with the error event;
//! - capability validation (spec §3.3.4), on every binding: a call needing a capability the card
//!   does not declare (streaming, push notifications, the extended card) is refused with the
//!   spec's error before the service runs, and so is a call that does not declare, in
//!   `A2A-Extensions`, an extension the card marks `required` (`ExtensionSupportRequiredError`);
//! - with the `grpc` feature, gRPC (spec §10) for a card that declares a `GRPC` interface: the
//!   rpcs of `lf.a2a.v1.A2AService` at `/lf.a2a.v1.A2AService/{rpc}` (`GRPC_SERVICE_PREFIX`) on
//!   the same port (HTTP/2), decoded and encoded by the module's generated protobuf codec
//!   ([`Protocol::GRPC`](crate::service::Protocol::GRPC)), errors as `google.rpc.Status` with their
//!   details, `grpc-timeout` honoured, `a2a-version` and `a2a-extensions` read from the metadata.
//!   HTTP/1.1 or gRPC-Web at those paths is refused (505, 415). See the repository's
//!   `docs/grpc.md`.
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

pub use crate::fault::Fault;

#[cfg(feature = "server")]
mod capability;
#[cfg(feature = "server")]
mod gate;
#[cfg(all(feature = "server", feature = "grpc"))]
mod grpc;
#[cfg(all(feature = "server", feature = "grpc"))]
pub use grpc::GRPC_SERVICE_PREFIX;
#[cfg(feature = "server")]
mod http;
#[cfg(feature = "server")]
mod serve;
#[cfg(feature = "server")]
pub use gate::JSONRPC_ACCESS_DENIED;
#[cfg(feature = "server")]
pub use http::*;
#[cfg(feature = "server")]
pub use serve::{serve, serve_with, ServeOptions};
