//! The service layer: what a generated module's service trait (`A2aService`, one `async fn` per
//! method of its table, the way tonic-build writes a trait from a proto service) is made of, and
//! the contract between a generated module and a transport.
//!
//! This module needs no async runtime and no HTTP stack: it names the [`Stream`] trait
//! (`futures-core`) and the `http` crate's [`HeaderMap`] and [`Extensions`], nothing more. The
//! transports live behind features (`server`: `server`).
//!
//! - [`RequestContext`]: what a method learns about the call besides its params: the protocol
//!   version and binding it came over, the tenant, the extensions the client asked for, the HTTP
//!   headers (for authentication) and whatever a tower layer put in the request's extensions.
//! - [`ServiceError`]: a method's error, a standard one of the module's table or one of the
//!   agent's own (`#[derive(AgentError)]`), ready for either binding.
//! - [`EventStream`]: a streaming method's reply, a boxed `Stream` of events. Boxed (not an
//!   associated type per method, as tonic does) so that an agent can return different streams
//!   from one method and a trait with a dozen methods stays readable; the box costs one
//!   allocation per stream, not per event.
//! - [`Protocol`] and [`Dispatch`]: implemented by generated code (`Protocol`, `A2aServer<S>`),
//!   used by a transport to decode a request, call the service and encode the outcome.
//!   [`Protocol`] holds only what the server decodes (the `Request` and `Reply` types, the
//!   decoders of both bindings); the version, the routes flag and the error enum, which a client
//!   needs too, are its supertrait [`ProtocolModule`].
//!
//! ```
//! use a2a_runtime::service::{events, ServiceError};
//! use a2a_runtime::ErrorTable;
//! # use a2a_runtime::ErrorRow;
//! # use a2a_runtime::jsonrpc::client::RawError;
//! # #[derive(Debug)] struct MyError(i64, String, Option<serde_json::Value>);
//! # impl ErrorTable for MyError {
//! #     fn from_code(code: i64, message: Option<String>, data: Option<serde_json::Value>) -> Self { MyError(code, message.unwrap_or_default(), data) }
//! #     fn code(&self) -> i64 { self.0 }
//! #     fn message(&self) -> &str { &self.1 }
//! #     fn data(&self) -> Option<&serde_json::Value> { self.2.as_ref() }
//! #     fn data_mut(&mut self) -> &mut Option<serde_json::Value> { &mut self.2 }
//! #     fn row(&self) -> Option<&'static ErrorRow> { None }
//! #     fn rows() -> &'static [ErrorRow] { &[] }
//! #     fn is_code_taken(_: i64) -> bool { false }
//! # }
//! // A stream of three events, the last one an error (sent as the stream's error event).
//! let stream = events::<u32, MyError>([
//!     Ok(1),
//!     Ok(2),
//!     Err(ServiceError::internal("the model went away")),
//! ]);
//! # drop(stream);
//! ```

use crate::custom::AgentError;
use crate::jsonrpc::server::{IncomingRequest, RejectedRequest};
use crate::limits::Limits;
use crate::rest::server::{
    encode_rest_custom_error, encode_rest_error, RestRejection, RestResponse,
};
use crate::table::ErrorTable;
use crate::version::{Binding, ProtocolModule, ProtocolVersion};
pub use futures_core::Stream;
pub use http::{Extensions, HeaderMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// What a method learns about the call besides its params.
///
/// Built by the transport for each request; `RequestContext::new` makes one for tests and for
/// calling a service directly.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RequestContext {
    /// The protocol version the request was served in (the `A2A-Version` it carried, or 0.3 for
    /// none, when the transport serves 0.3 beside 1.0).
    pub version: ProtocolVersion,
    /// The binding it came over.
    pub binding: Binding,
    /// The method's wire name (`SendMessage`, v0.3's `message/send`).
    pub method: &'static str,
    /// The tenant the call names (the `/{tenant}` of a REST route, or the params' `tenant`);
    /// `None` when it names none or an empty one.
    pub tenant: Option<String>,
    /// The extension URIs the client asked for in `A2A-Extensions` (comma-separated values of
    /// every such header, trimmed, empties dropped), in order.
    pub requested_extensions: Vec<String>,
    /// The request's HTTP headers, for authentication and anything else an agent reads.
    pub headers: HeaderMap,
    /// The request's extensions: what tower layers (authentication, tracing) put there.
    pub extensions: Extensions,
    /// Who is calling: what the server's authenticator (or a tower layer, through the request's
    /// extensions) said; [`Caller::anonymous`](crate::auth::Caller::anonymous) on a server
    /// without authentication. See [`crate::auth`].
    pub caller: crate::auth::Caller,
}

impl RequestContext {
    /// A context for a call of `method` in `version` over `binding`, with no tenant, headers or
    /// extensions, by the anonymous caller.
    pub fn new(version: ProtocolVersion, binding: Binding, method: &'static str) -> Self {
        RequestContext {
            version,
            binding,
            method,
            tenant: None,
            requested_extensions: Vec::new(),
            headers: HeaderMap::new(),
            extensions: Extensions::new(),
            caller: crate::auth::Caller::anonymous(),
        }
    }

    /// The value of header `name` when it is present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `Last-Event-ID` the request carried, when it is a sequence number: the last event of
    /// a stream the client saw, which a streaming method resumes after (see [`EventIds`]).
    pub fn last_event_id(&self) -> Option<u64> {
        self.header(LAST_EVENT_ID)
            .and_then(|v| v.trim().parse().ok())
    }

    /// The caller's W3C trace context (`traceparent`, `tracestate`), when the request carried a
    /// valid one. See [`crate::telemetry`].
    pub fn trace_context(&self) -> Option<crate::telemetry::TraceContext> {
        crate::telemetry::TraceContext::from_headers(&self.headers)
    }

    /// This context with its header values copied into buffers of their own, for a context kept
    /// after its request is answered (an execution's `TaskContext`, a queue of work).
    ///
    /// The server's header values share the connection's read buffer: a context that outlives
    /// its request keeps that buffer allocated, so the connection reads its next request into a
    /// new one, and the old one is freed wherever the context ends up dropped. A few small copies
    /// cost less.
    ///
    /// ```
    /// use a2a_runtime::service::RequestContext;
    /// use a2a_runtime::version::ProtocolVersion;
    /// use a2a_runtime::Binding;
    ///
    /// let mut cx = RequestContext::new(ProtocolVersion::V1_0, Binding::JsonRpc, "SendMessage");
    /// cx.headers.insert("authorization", "Bearer t0k3n".parse().unwrap());
    /// let kept = cx.detached();
    /// assert_eq!(kept.header("authorization"), Some("Bearer t0k3n"));
    /// ```
    #[must_use]
    pub fn detached(mut self) -> Self {
        let mut headers = HeaderMap::with_capacity(self.headers.len());
        for (name, value) in &self.headers {
            // A value that was a valid header value stays one: the copy cannot fail.
            let copied = http::HeaderValue::from_bytes(value.as_bytes())
                .map(|mut copied| {
                    copied.set_sensitive(value.is_sensitive());
                    copied
                })
                .unwrap_or_else(|_| value.clone());
            headers.append(name.clone(), copied);
        }
        self.headers = headers;
        self
    }

    /// The extension URIs listed in these `A2A-Extensions` headers (see
    /// [`RequestContext::requested_extensions`]).
    pub fn extensions_of(headers: &HeaderMap) -> Vec<String> {
        headers
            .get_all(EXTENSIONS_HEADER)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

pub use crate::version::EXTENSIONS_HEADER;

/// A method's error: a standard one of the module's table `A`, or one of the agent's own.
///
/// `From<A>` makes `?` and `.into()` work on the table's errors; an agent's own error goes in
/// through [`ServiceError::custom`]. Over JSON-RPC both become the error object; over HTTP+JSON a
/// standard error takes its row's HTTP status and ErrorInfo reason, a custom one its own row's.
#[derive(Clone, Debug)]
pub enum ServiceError<A> {
    /// An error of the module's table (or its catch-all).
    Standard(A),
    /// One of the agent's own errors, ready for either binding (boxed: it carries both replies,
    /// and a method's `Result` stays small).
    Custom(Box<CustomError<A>>),
}

/// One of the agent's own errors (see [`ServiceError::custom`]): its JSON-RPC error object and its
/// HTTP+JSON reply, both made when it was raised.
#[derive(Clone, Debug)]
pub struct CustomError<A> {
    /// The error object (the table's catch-all, with the custom code, message and data).
    pub error: A,
    /// The HTTP+JSON reply: the custom row's status, its ErrorInfo and fields as details.
    pub rest: RestResponse,
    /// The variant's name, for logs.
    pub name: &'static str,
}

impl<A> From<A> for ServiceError<A> {
    fn from(error: A) -> Self {
        ServiceError::Standard(error)
    }
}

impl<A: ErrorTable> ServiceError<A> {
    /// The agent's own error `e` (see `a2a_runtime::custom::AgentError`), with its row's message.
    pub fn custom<E: AgentError>(e: &E) -> Self {
        Self::custom_with_message(e, e.message())
    }

    /// The agent's own error `e` with this message in place of its row's.
    pub fn custom_with_message<E: AgentError>(e: &E, message: &str) -> Self {
        ServiceError::Custom(Box::new(CustomError {
            error: A::from_code(e.code(), Some(message.to_owned()), Some(e.data())),
            rest: encode_rest_custom_error(e, Some(message)),
            name: e.row().name,
        }))
    }

    /// The table's error for `code` with this message, and the row's ErrorInfo (A2A v1 §9.5)
    /// with `metadata` as its details when the row has a reason.
    pub fn from_code<K, V>(
        code: i64,
        message: impl Into<String>,
        metadata: impl IntoIterator<Item = (K, V)>,
    ) -> Self
    where
        K: Into<String>,
        V: Into<String>,
    {
        let error = A::from_code(code, Some(message.into()), None);
        ServiceError::Standard(crate::table::with_info(error, metadata))
    }

    /// A temporary refusal: the agent is busy for now (a cap reached, its store full) and the
    /// caller may try again in `retry_after` (rounded up to whole seconds, at least 1). Over
    /// JSON-RPC an internal error (-32603, the spec's code for temporary system errors) whose
    /// `data` holds a `google.rpc.RetryInfo`; over HTTP+JSON 503 Service Unavailable with the
    /// same detail and a `Retry-After` header.
    ///
    /// ```
    /// use std::time::Duration;
    /// use a2a_runtime::service::ServiceError;
    /// # use a2a_runtime::{ErrorRow, ErrorTable};
    /// # #[derive(Debug)] struct MyError(i64, String, Option<serde_json::Value>);
    /// # impl ErrorTable for MyError {
    /// #     fn from_code(code: i64, message: Option<String>, data: Option<serde_json::Value>) -> Self { MyError(code, message.unwrap_or_default(), data) }
    /// #     fn code(&self) -> i64 { self.0 }
    /// #     fn message(&self) -> &str { &self.1 }
    /// #     fn data(&self) -> Option<&serde_json::Value> { self.2.as_ref() }
    /// #     fn data_mut(&mut self) -> &mut Option<serde_json::Value> { &mut self.2 }
    /// #     fn row(&self) -> Option<&'static ErrorRow> { None }
    /// #     fn rows() -> &'static [ErrorRow] { &[] }
    /// #     fn is_code_taken(_: i64) -> bool { false }
    /// # }
    ///
    /// let busy = ServiceError::<MyError>::unavailable("too many streams", Duration::from_millis(1500));
    /// assert_eq!(busy.error().code(), -32603);
    /// let reply = busy.rest_response();
    /// assert_eq!((reply.status, reply.retry_after), (503, Some(2)));
    /// ```
    pub fn unavailable(message: impl Into<String>, retry_after: std::time::Duration) -> Self {
        let message = message.into();
        let seconds = retry_after
            .as_secs()
            .saturating_add(u64::from(retry_after.subsec_nanos() > 0))
            .max(1);
        let detail = crate::rest::server::retry_info(seconds);
        let data = crate::wire::detail::ErrorDetail::list_to_data([detail]);
        ServiceError::Custom(Box::new(CustomError {
            error: A::from_code(
                crate::jsonrpc::codes::INTERNAL_ERROR,
                Some(message.clone()),
                Some(data),
            ),
            rest: crate::rest::server::encode_rest_unavailable(&message, seconds),
            name: "Unavailable",
        }))
    }

    /// An internal error (-32603) with this message: what a failure of the agent itself answers.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::from_code(
            crate::jsonrpc::codes::INTERNAL_ERROR,
            message,
            std::iter::empty::<(String, String)>(),
        )
    }

    /// The answer of a method this service does not serve: the table's error for `code` (the
    /// method table's `unsupported` column) saying which method. What a generated trait's
    /// default bodies return.
    pub fn unsupported(code: i64, method: &str) -> Self {
        let default = A::from_code(code, None, None);
        let message = format!("{}: this agent does not serve {method}", default.message());
        Self::from_code(code, message, std::iter::empty::<(String, String)>())
    }

    /// The same error in another module's table (another protocol version): the same code,
    /// message and data; an agent's own error keeps its HTTP+JSON reply.
    pub fn recode<B: ErrorTable>(self) -> ServiceError<B> {
        let recode =
            |a: &A| B::from_code(a.code(), Some(a.message().to_owned()), a.data().cloned());
        match self {
            ServiceError::Standard(a) => ServiceError::Standard(recode(&a)),
            ServiceError::Custom(c) => ServiceError::Custom(Box::new(CustomError {
                error: recode(&c.error),
                rest: c.rest,
                name: c.name,
            })),
        }
    }

    /// The JSON-RPC error object.
    pub fn error(&self) -> &A {
        match self {
            ServiceError::Standard(error) => error,
            ServiceError::Custom(custom) => &custom.error,
        }
    }

    /// The HTTP+JSON error reply.
    pub fn rest_response(&self) -> RestResponse {
        match self {
            ServiceError::Standard(error) => encode_rest_error(error),
            ServiceError::Custom(custom) => custom.rest.clone(),
        }
    }
}

impl<A: ErrorTable> fmt::Display for ServiceError<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = self.error();
        write!(f, "{} ({})", error.message(), error.code())
    }
}

impl<A: ErrorTable + fmt::Debug> std::error::Error for ServiceError<A> {}

/// The header a client resuming a stream sends: the `id` of the last event it saw.
pub const LAST_EVENT_ID: &str = "last-event-id";

/// Where a streaming method gives each event's SSE `id`: the sequence number a client sends back
/// as `Last-Event-ID` ([`RequestContext::last_event_id`]) to resume the stream after that event.
///
/// The server puts one in the extensions of every streaming call's context; the service takes it
/// (`cx.extensions.get::<EventIds>()`) and, when an event has an id, calls [`EventIds::next`] just
/// before its stream yields the event. An event without one is sent without an `id` line.
///
/// ```
/// use a2a_runtime::service::EventIds;
///
/// let ids = EventIds::default();
/// ids.next(7); // the stream is about to yield the event of sequence number 7
/// assert_eq!(ids.take(), Some(7)); // what the server writes as its `id:`
/// assert_eq!(ids.take(), None); // the next event has none unless given one
/// ```
#[derive(Clone, Debug, Default)]
pub struct EventIds(std::sync::Arc<std::sync::Mutex<Option<u64>>>);

impl EventIds {
    /// The id of the event the stream yields next.
    pub fn next(&self, id: u64) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(id);
    }

    /// The id given for the event just yielded, if any (and none for the next, until given).
    pub fn take(&self) -> Option<u64> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A streaming method's reply: events in order, each a result or an error. An error ends the
/// stream on the wire (sent as the stream's last event), and so does the stream's end.
pub type EventStream<T, A> = Pin<Box<dyn Stream<Item = Result<T, ServiceError<A>>> + Send>>;

/// A boxed future, `Send`: what [`Dispatch::dispatch`] returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// An [`EventStream`] of these items, in order (a stream that is ready at once: for replies known
/// up front, and for tests).
pub fn events<T, A>(
    items: impl IntoIterator<Item = Result<T, ServiceError<A>>>,
) -> EventStream<T, A>
where
    T: Send + 'static,
    A: Send + 'static,
{
    let items: Vec<_> = items.into_iter().collect();
    Box::pin(Iter(items.into_iter()))
}

/// The stream behind [`events`]. Hand-written: `futures-util`'s `stream::iter` is a dependency
/// this layer does not otherwise need.
struct Iter<I>(I);

// Nothing of `Iter` is ever pinned in place (`poll_next` only calls `next`), so it may move.
impl<I> Unpin for Iter<I> {}

impl<I: Iterator> Stream for Iter<I> {
    type Item = I::Item;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<I::Item>> {
        Poll::Ready(self.0.next())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// `stream`'s events, each made an `R` by `f`: how a generated dispatcher turns a method's events
/// into its module's `Reply`.
pub fn map_events<T, R, A>(stream: EventStream<T, A>, f: fn(T) -> R) -> EventStream<R, A>
where
    T: 'static,
    R: Send + 'static,
    A: Send + 'static,
{
    Box::pin(MapEvents { inner: stream, f })
}

/// The stream behind [`map_events`]: both fields are `Unpin` (the inner stream is boxed), so no
/// pin projection is needed.
struct MapEvents<T, R, A> {
    inner: EventStream<T, A>,
    f: fn(T) -> R,
}

impl<T, R, A> Stream for MapEvents<T, R, A> {
    type Item = Result<R, ServiceError<A>>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let f = self.f;
        self.inner
            .as_mut()
            .poll_next(cx)
            .map(|item| item.map(|r| r.map(f)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// What a generated trait's default body returns: the table's error for `code` saying that this
/// agent does not serve `method` ([`ServiceError::unsupported`]); the call's context and params
/// are dropped unread.
#[doc(hidden)]
pub fn not_served<C, P, T, A: ErrorTable>(
    cx: C,
    params: P,
    code: i64,
    method: &str,
) -> std::future::Ready<Result<T, ServiceError<A>>> {
    drop((cx, params));
    std::future::ready(Err(ServiceError::unsupported(code, method)))
}

/// A unary method's call as a dispatcher answers it: its result made the module's `Reply` by
/// `wrap` (one arm of a generated `Dispatch::dispatch`).
#[doc(hidden)]
pub async fn unary<T, R, A>(
    call: impl Future<Output = Result<T, ServiceError<A>>>,
    wrap: fn(T) -> R,
) -> Result<Outcome<R, A>, ServiceError<A>> {
    call.await.map(|result| Outcome::Unary(wrap(result)))
}

/// A streaming method's call as a dispatcher answers it: each event made the module's `Reply` by
/// `wrap` ([`map_events`]).
#[doc(hidden)]
pub async fn streamed<T, R, A>(
    call: impl Future<Output = Result<EventStream<T, A>, ServiceError<A>>>,
    wrap: fn(T) -> R,
) -> Result<Outcome<R, A>, ServiceError<A>>
where
    T: 'static,
    R: Send + 'static,
    A: Send + 'static,
{
    call.await
        .map(|events| Outcome::Stream(map_events(events, wrap)))
}

/// What a call answered: one reply, or a stream of them (the module's `Reply` enum, one event
/// per item).
pub enum Outcome<R, A> {
    /// The method's result.
    Unary(R),
    /// A streaming method's events.
    Stream(EventStream<R, A>),
}

impl<R: fmt::Debug, A> fmt::Debug for Outcome<R, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Unary(reply) => f.debug_tuple("Unary").field(reply).finish(),
            Outcome::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

/// A generated module seen by a transport: how it decodes requests on either binding, and its
/// `Request` and `Reply` types. Implemented by the generated unit type `Protocol`.
///
/// The server's side of the module, and only that: what both sides need (the version, whether
/// the module has HTTP+JSON routes, the error enum) is the supertrait [`ProtocolModule`], whose
/// items (`VERSION`, `HTTP_JSON`, `Error`) a bound `P: Protocol` reaches as `P::VERSION` or
/// `P::Error` (spelled out, `<P as ProtocolModule>::Error`). A client names a module by
/// [`ProtocolModule`] alone, never by the request decoding below. A generated module implements
/// the two traits in two blocks, `impl ProtocolModule for Protocol` and
/// `impl service::Protocol for Protocol`.
pub trait Protocol: ProtocolModule {
    /// The module's `Request` enum (one variant per method, with its params).
    type Request: Send + 'static;
    /// The module's `Reply` enum; its `Serialize` writes the bare result.
    type Reply: serde::Serialize + Send + 'static;

    /// Decodes a JSON-RPC request body (the module's `decode_request_limited`).
    #[allow(clippy::result_large_err)]
    fn decode_jsonrpc(
        body: &[u8],
        limits: &Limits,
    ) -> Result<IncomingRequest<Self::Request>, RejectedRequest<Self::Error>>;

    /// Decodes an HTTP+JSON request (the module's `decode_rest_request`; a module without routes
    /// answers every path with 404).
    #[allow(clippy::result_large_err)]
    fn decode_rest(
        verb: &str,
        path: &str,
        query: &str,
        body: &[u8],
    ) -> Result<Self::Request, RestRejection<Self::Error>>;

    /// The method's wire name.
    fn method_name(request: &Self::Request) -> &'static str;

    /// The tenant the params name, if the params type has a `tenant` and it is not empty.
    fn tenant(request: &Self::Request) -> Option<&str>;

    /// The gRPC binding's codec, when the module was generated with its protobuf codec (and
    /// that codec's cargo feature is on): a server serves gRPC for a module that has one.
    const GRPC: Option<GrpcCodec<Self::Request, Self::Reply>> = None;
}

/// A generated module's gRPC codec (the binary protobuf form of its params and results, by rpc
/// name): what [`Protocol::GRPC`] holds, and a gRPC transport calls. Plain function pointers, so
/// that this layer needs neither the protobuf runtime nor an HTTP/2 stack.
pub struct GrpcCodec<Request, Reply> {
    /// The call of the rpc named (`SendMessage`) with this request message, under these limits;
    /// `None` when the module has no such rpc, `Err` (invalid params, with a
    /// `google.rpc.BadRequest` naming the field) when the message does not decode or lacks what
    /// the method cannot run without.
    pub decode: GrpcDecode<Request>,
    /// A reply's result message.
    pub encode: fn(&Reply) -> Vec<u8>,
}

/// [`GrpcCodec::decode`]: the rpc's name, the request message and the server's limits in; the
/// call, or the invalid-params fault, or `None` for an rpc the module does not have, out.
pub type GrpcDecode<Request> =
    fn(&str, &[u8], &Limits) -> Option<Result<Request, crate::fault::Fault>>;

impl<Request, Reply> Clone for GrpcCodec<Request, Reply> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Request, Reply> Copy for GrpcCodec<Request, Reply> {}

impl<Request, Reply> fmt::Debug for GrpcCodec<Request, Reply> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GrpcCodec")
    }
}

/// A service as a transport calls it: one request in, its outcome out. Implemented by a generated
/// module's `A2aServer<S>` for every `S: A2aService`; a transport holds one per version it serves.
pub trait Dispatch: Send + Sync + 'static {
    /// The generated module the service is written against.
    type Protocol: Protocol;

    /// Calls the method `request` names.
    #[allow(clippy::type_complexity)]
    fn dispatch(
        &self,
        cx: RequestContext,
        request: <Self::Protocol as Protocol>::Request,
    ) -> BoxFuture<
        Result<
            Outcome<<Self::Protocol as Protocol>::Reply, <Self::Protocol as ProtocolModule>::Error>,
            ServiceError<<Self::Protocol as ProtocolModule>::Error>,
        >,
    >;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_header_lists_are_split_and_trimmed() {
        let mut headers = HeaderMap::new();
        headers.append(EXTENSIONS_HEADER, " urn:a , urn:b,".parse().unwrap());
        headers.append(EXTENSIONS_HEADER, "urn:c".parse().unwrap());
        assert_eq!(
            RequestContext::extensions_of(&headers),
            ["urn:a", "urn:b", "urn:c"]
        );
    }
}
