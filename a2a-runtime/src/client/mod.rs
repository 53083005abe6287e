//! The client's side, whatever the binding: encode a call ([`encode_call`]), decode what came
//! back ([`Decoder`], the one entry point, for unary replies and streams over either binding),
//! and get one typed outcome: the method's result, the agent's error ([`CallError::Agent`], or
//! one of its own errors, [`CallError::Custom`]), or the client error saying what was wrong
//! ([`ClientError`]). Behind the `client` feature, [`Client`] does all of it over HTTP from an
//! agent card.
//!
//! Everything here is generic over a generated error enum (`A`, which implements
//! [`ErrorTable`]) and an agent's own errors (`E`, [`AgentError`]). A generated module names
//! these with its error enum filled in, so its users write `v1::Decoder`, `v1::CallError` and
//! `v1::StreamDecoder<T>`:
//!
//! ```text
//! let task: Task = Decoder::new().decode(body)?;                        // a JSON-RPC body
//! let task: Task = Decoder::new().binding(Binding::HttpJson).decode_http(&reply)?;
//! let mut events = Decoder::new().binding(binding).stream::<StreamResponse>();
//! let billing = Decoder::new().custom_errors::<BillingError>();        // CallError<BillingError>
//! ```
//!
//! Words: a server writes a *response*; a client reads a *reply* (the same message, seen from
//! the side that decodes it).
//!
//! # The HTTP client (feature `client`)
//!
//! The reqwest client (feature `client`): typed A2A calls to an agent, from its card, over
//! JSON-RPC or HTTP+JSON, and with the `grpc` feature over gRPC too (tonic's channel, the
//! module's protobuf codec: ask for [`Binding::Grpc`] in
//! [`ClientBuilder::bindings`]; the repository's `docs/grpc.md`).
//!
//! A [`Client<P>`] speaks the protocol version of one generated module `P` (the module's unit
//! type `Protocol`: `a2a_types::v1::Protocol` for A2A 1.0, `a2a_types::v0_3::Protocol` for 0.3).
//! It is built from the agent's card, fetched ([`Client::connect`]) or already in hand
//! ([`Client::from_card`]); the card's interface is picked with
//! [`pick_interface_in`](crate::version::pick_interface_in), among the interfaces of `P`'s
//! version only, by the caller's order of bindings (JSON-RPC, then HTTP+JSON, unless
//! [`ClientBuilder::bindings`] says otherwise). Then [`Client::call`] calls any method of the
//! module and [`Client::stream`] any streaming one, with the same outcomes as the codec's
//! decoders: the method's typed result, the agent's typed error, or a [`ClientError`] saying what
//! went wrong.
//!
//! Every byte on the wire is written and read by the sans-IO layer
//! ([`encode_call`], [`Decoder`]); this module only moves them, on
//! reqwest (rustls) and tokio.
//!
//! A call of A2A 1.0 with a bearer token, an error matched by its type, and a stream (an
//! `ignore`d block only because `a2a-types` is not a dependency of this crate: the workspace's
//! tests compile and run it, as written, against a local agent):
//!
//! ```ignore
//! use a2a_runtime::client::{Client, HeaderValue};
//! use a2a_types::v1::{method, A2aError, CallError, GetTaskRequest, Message, Part, PartContent};
//! use a2a_types::v1::{Protocol, Role, SendMessageRequest, StreamResponse};
//! use std::time::Duration;
//!
//! async fn talk(base_url: &str, token: &str) -> Result<(), Box<dyn std::error::Error>> {
//!     let bearer = HeaderValue::try_from(format!("Bearer {token}"))?;
//!     let client = Client::<Protocol>::builder()
//!         .request_timeout(Duration::from_secs(30))
//!         .stream_idle_timeout(Duration::from_secs(60))
//!         .auth(move |headers| {
//!             headers.insert("authorization", bearer.clone());
//!         })
//!         .connect(base_url) // GET <base_url>/.well-known/agent-card.json
//!         .await?;
//!
//!     let message = Message {
//!         message_id: "m-1".into(),
//!         role: Role::User,
//!         parts: vec![Part {
//!             content: PartContent::Text("hi".into()),
//!             ..Default::default()
//!         }],
//!         ..Default::default()
//!     };
//!     let params = SendMessageRequest {
//!         message,
//!         ..Default::default()
//!     };
//!     let reply = client.call::<method::SendMessage>(&params).await?;
//!     println!("{reply:?}");
//!
//!     let missing = GetTaskRequest {
//!         id: "t-404".into(),
//!         ..Default::default()
//!     };
//!     match client.call::<method::GetTask>(&missing).await {
//!         Ok(task) => println!("{:?}", task.status.state),
//!         Err(CallError::Agent(A2aError::TaskNotFound { .. })) => println!("no such task"),
//!         Err(CallError::Agent(other)) => {
//!             println!("the agent said {} ({})", other.message(), other.code())
//!         }
//!         Err(CallError::Malformed(e)) => println!("{:?}: {}", e.kind(), e.reason()),
//!     }
//!
//!     let mut events = client.stream::<method::SendStreamingMessage>(&params);
//!     while let Some(event) = events.next().await {
//!         match event? {
//!             StreamResponse::StatusUpdate(update) => println!("{:?}", update.status.state),
//!             other => println!("{other:?}"),
//!         }
//!     }
//!     Ok(())
//! }
//! ```
//!
//! ## What goes on the wire
//!
//! - JSON-RPC: every call a `POST` of the request object to the interface's URL, with
//!   `Content-Type: application/json` and a fresh numeric `id`. HTTP+JSON: the method's route
//!   below the interface's URL ([`encode_call`]), `Content-Type: application/json` when there is
//!   a body.
//! - `A2A-Version: <P::VERSION>` on every call, except for the v0.3 module, which sends none, as
//!   v0.3 clients do (an agent reads a missing header as 0.3).
//! - `Accept: application/json` for a call, `Accept: text/event-stream` for a stream.
//! - `A2A-Extensions` with the URIs of [`ClientBuilder::extension`], comma-separated; then the
//!   headers of [`ClientBuilder::header`]; then whatever the [`ClientBuilder::auth`] hook adds
//!   (last, so it may replace any of them).
//! - The tenant: when the card's interface names one and the params leave `tenant` empty, the
//!   call carries the interface's tenant (the spec's `AgentInterface.tenant`: "to be set in the
//!   request when calling the agent"); a tenant the params name is sent as it is.
//!
//! ## Failures
//!
//! A call that got no reply to decode is a `CallError::Malformed` too, whose
//! [`ClientError::kind`] says why and whose reason says where: [`ClientErrorKind::Connect`]
//! (refused, no such host, TLS), [`ClientErrorKind::ConnectTimeout`],
//! [`ClientErrorKind::RequestTimeout`], [`ClientErrorKind::IdleTimeout`] (a stream),
//! [`ClientErrorKind::Interrupted`] (the connection broke off, or a stream ended inside an
//! event), [`ClientErrorKind::Request`] (the params fill no route of the method). A reply that
//! broke the contract is [`ClientErrorKind::Malformed`], with its HTTP status
//! ([`ClientError::http_status`]) over either binding: a proxy's HTML 502, a body over the
//! [`Limits`] (refused as soon as it grows past them, never read whole). Nothing panics.
//!
//! ## Timeouts
//!
//! - Connect ([`ClientBuilder::connect_timeout`], 10 s by default): the TCP and TLS handshake.
//!   Set on the reqwest client this module builds; a client of your own
//!   ([`ClientBuilder::http_client`]) keeps its own settings.
//! - Request ([`ClientBuilder::request_timeout`], 60 s by default): from sending a call to the
//!   last byte of its reply; for a stream, to its response headers (or, when the agent answers
//!   with one JSON body instead, to that body's last byte).
//! - Stream idle ([`ClientBuilder::stream_idle_timeout`], 60 s by default): the longest a
//!   stream may go without a single byte arriving. Any bytes count, an SSE comment too (servers
//!   send them as keep-alives: sse-starlette, under a2a-sdk, every 15 s), so a long task that
//!   streams slowly is never cut off while its agent is alive. A stream has no total timeout.

use crate::custom::{AgentError, NoCustomErrors};
use crate::jsonrpc::client::{call_result, decode_envelope_limited, EventStream};
use crate::jsonrpc::RequestId;
use crate::limits::Limits;
use crate::rest::RestMethod;
use crate::table::{ErrorTable, Method};
use crate::version::{Binding, ProtocolVersion};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::marker::PhantomData;

pub(crate) mod error;
pub(crate) mod events;
#[cfg(feature = "client")]
mod http;
pub(crate) mod message;

pub use error::{CallError, ClientError, ClientErrorKind, RouteError};
#[cfg(feature = "client")]
pub use http::*;
pub use message::{HttpReply, HttpRequest};

// ----- decoding ------------------------------------------------------------------------------------

/// How to decode replies: the one entry point of the client's decoding, for unary replies
/// ([`decode`](Decoder::decode), [`decode_http`](Decoder::decode_http)) and streams
/// ([`stream`](Decoder::stream)), over either binding, with the same outcomes. Options are
/// builder methods; the defaults are JSON-RPC, [`Limits::DEFAULT`] and no errors of the
/// agent's own. A `Decoder` is `Copy`: build it once, use it for every call.
///
/// A generated module names it with its error table filled in (`v1::Decoder`).
///
/// Never panics, whatever the bytes: a reply that breaks the contract is
/// [`CallError::Malformed`] with the reason (and the JSON path when the result does not decode).
/// The rules are those of the bindings' modules: [`crate::jsonrpc::client`] (the envelope) and
/// [`crate::rest`] (status and `google.rpc.Status`).
pub struct Decoder<A, E = NoCustomErrors> {
    binding: Binding,
    limits: Limits,
    /// The 0.3 method whose replies come over 0.3's HTTP+JSON binding (read through
    /// [`crate::rest::v0_3`] first), for a 0.3 client over that binding.
    v0_3_method: Option<&'static str>,
    errors: PhantomData<fn() -> (A, E)>,
}

impl<A> Decoder<A, NoCustomErrors> {
    /// A decoder of JSON-RPC replies under the default limits, for an agent without errors of
    /// its own.
    pub const fn new() -> Self {
        Decoder {
            binding: Binding::JsonRpc,
            limits: Limits::DEFAULT,
            v0_3_method: None,
            errors: PhantomData,
        }
    }
}

impl<A> Default for Decoder<A, NoCustomErrors> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A, E> Clone for Decoder<A, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A, E> Copy for Decoder<A, E> {}

impl<A, E> fmt::Debug for Decoder<A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoder")
            .field("binding", &self.binding)
            .field("limits", &self.limits)
            .field("custom_errors", &std::any::type_name::<E>())
            .finish()
    }
}

impl<A, E> Decoder<A, E> {
    /// Replies over `binding`: JSON-RPC (an envelope in the body, whatever the HTTP status) or
    /// HTTP+JSON (the bare result at a 2xx status, else a `google.rpc.Status`). gRPC replies
    /// are protobuf, not JSON: a decoder for [`Binding::Grpc`] reads every reply as malformed.
    pub const fn binding(mut self, binding: Binding) -> Self {
        self.binding = binding;
        self
    }

    /// Replies and events at most this large and this deeply nested (the defaults are 16 MiB
    /// and serde_json's depth of 128): one over them is malformed, with the reason, before any
    /// parsing.
    pub const fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads errors of the agent's own type `E2` (a `#[derive(AgentError)]` enum) as
    /// [`CallError::Custom`], with the variant's fields.
    pub const fn custom_errors<E2>(self) -> Decoder<A, E2> {
        Decoder {
            binding: self.binding,
            limits: self.limits,
            v0_3_method: self.v0_3_method,
            errors: PhantomData,
        }
    }

    /// Replies to a call of the 0.3 JSON-RPC method `method` over 0.3's HTTP+JSON binding (the
    /// ProtoJSON of 0.3's proto), read as that method's 0.3 JSON-RPC result; `None`: as the
    /// binding says.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) const fn rest_v0_3(mut self, method: Option<&'static str>) -> Self {
        self.v0_3_method = method;
        self
    }

    /// The binding the replies come over.
    pub const fn binding_of(&self) -> Binding {
        self.binding
    }
}

impl<A: ErrorTable, E: AgentError> Decoder<A, E> {
    /// Decodes a reply body: for JSON-RPC the response envelope, for HTTP+JSON the bare result
    /// (a body alone is read as a `200 OK` reply; use [`decode_http`](Self::decode_http) when the
    /// status is known).
    ///
    /// ```
    /// use a2a_runtime::client::{CallError, Decoder};
    /// # use a2a_runtime::table::{ErrorTable, ErrorRow};
    /// # #[derive(Debug)] struct Err0(i64, Option<String>, Option<serde_json::Value>);
    /// # impl ErrorTable for Err0 {
    /// #     fn from_code(c: i64, m: Option<String>, d: Option<serde_json::Value>) -> Self { Err0(c, m, d) }
    /// #     fn code(&self) -> i64 { self.0 }
    /// #     fn message(&self) -> &str { self.1.as_deref().unwrap_or("") }
    /// #     fn data(&self) -> Option<&serde_json::Value> { self.2.as_ref() }
    /// #     fn data_mut(&mut self) -> &mut Option<serde_json::Value> { &mut self.2 }
    /// #     fn row(&self) -> Option<&'static ErrorRow> { None }
    /// #     fn rows() -> &'static [ErrorRow] { &[] }
    /// #     fn is_code_taken(_: i64) -> bool { false }
    /// # }
    /// // `Err0` stands for a generated error enum (`a2a_types::v1::A2aError`).
    /// let decoder = Decoder::<Err0>::new();
    /// let n: u32 = decoder.decode(br#"{"jsonrpc":"2.0","id":1,"result":7}"#).unwrap();
    /// assert_eq!(n, 7);
    /// match decoder.decode::<u32>(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001}}"#) {
    ///     Err(CallError::Agent(e)) => assert_eq!(e.code(), -32001),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(matches!(decoder.decode::<u32>(b"<html>"), Err(CallError::Malformed(_))));
    /// ```
    pub fn decode<T: DeserializeOwned>(&self, body: &[u8]) -> Result<T, CallError<A, E>> {
        match self.binding {
            Binding::JsonRpc => call_result(decode_envelope_limited(body, &self.limits)),
            Binding::HttpJson => self.decode_http(&HttpReply {
                status: 200,
                content_type: None,
                body,
            }),
            Binding::Grpc => Err(CallError::Malformed(grpc_is_not_json())),
        }
    }

    /// Decodes an HTTP reply (status, content type, body). Over either binding a malformed reply
    /// keeps its HTTP status ([`ClientError::http_status`]), and one that is not a success says
    /// it (a proxy's HTML 502 in front of a JSON-RPC agent, say).
    pub fn decode_http<T: DeserializeOwned>(
        &self,
        reply: &HttpReply<'_>,
    ) -> Result<T, CallError<A, E>> {
        match self.binding {
            Binding::JsonRpc => call_result(decode_envelope_limited(reply.body, &self.limits))
                .map_err(|e| match e {
                    CallError::Malformed(e) if e.http_status().is_none() => {
                        CallError::Malformed(with_status(e, reply))
                    }
                    other => other,
                }),
            Binding::HttpJson => match self.v0_3_method {
                Some(method) => crate::rest::client::decode_with(reply, &self.limits, |text| {
                    crate::rest::v0_3::read_result(method, text)
                }),
                None => crate::rest::client::decode(reply, &self.limits),
            },
            Binding::Grpc => Err(CallError::Malformed(grpc_is_not_json())),
        }
    }

    /// A decoder for one streamed reply (SSE, `text/event-stream`), fed in chunks split
    /// anywhere: each event the typed result or the typed error, as [`decode`](Self::decode)
    /// gives them.
    ///
    /// An agent may answer a streaming call with one plain JSON body instead (typically an
    /// error, before the stream began): decode that with [`decode_http`](Self::decode_http),
    /// which gives the one item of such a stream.
    pub fn stream<T: DeserializeOwned>(&self) -> StreamDecoder<T, A, E> {
        StreamDecoder {
            inner: match self.binding {
                Binding::JsonRpc => Inner::JsonRpc(EventStream::with_limits(self.limits)),
                Binding::HttpJson if self.v0_3_method.is_some() => {
                    Inner::HttpJsonV0_3(crate::rest::client::EventDecoder::with_limits(self.limits))
                }
                Binding::HttpJson => {
                    Inner::HttpJson(crate::rest::client::EventDecoder::with_limits(self.limits))
                }
                Binding::Grpc => Inner::NotJson(false),
            },
            errors: PhantomData,
        }
    }
}

/// What a JSON decoder says of a gRPC reply.
fn grpc_is_not_json() -> ClientError {
    ClientError::new("a gRPC reply is protobuf, not JSON: the JSON decoder cannot read it")
}

/// A JSON-RPC body's client error with the reply's HTTP status, named in the reason when it is
/// not a success (the envelope decoder reads bodies only).
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

/// Decodes one streamed reply incrementally (from [`Decoder::stream`]): feed bytes as they
/// arrive, split anywhere; each completed event is the typed result or the typed error.
#[derive(Debug)]
pub struct StreamDecoder<T, A, E = NoCustomErrors> {
    inner: Inner<T>,
    errors: PhantomData<fn() -> (A, E)>,
}

#[derive(Debug)]
enum Inner<T> {
    /// Events that are JSON-RPC responses.
    JsonRpc(EventStream<T>),
    /// Events that are bare results (an event named `error` carrying a Status).
    HttpJson(crate::rest::client::EventDecoder<T>),
    /// The same over 0.3's binding: each result read as JSON, then as the 0.3 event it stands
    /// for (`crate::rest::v0_3::event_in`).
    HttpJsonV0_3(crate::rest::client::EventDecoder<serde_json::Value>),
    /// A gRPC stream, which is not SSE: its first bytes are malformed (`true` once said).
    NotJson(bool),
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> StreamDecoder<T, A, E> {
    /// Feeds the next bytes; returns one item per event they complete, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<T, CallError<A, E>>> {
        match &mut self.inner {
            Inner::JsonRpc(d) => d.feed_map(chunk, call_result::<T, A, E>),
            Inner::HttpJson(d) => d.feed(chunk),
            Inner::HttpJsonV0_3(d) => d
                .feed(chunk)
                .into_iter()
                .map(|item| {
                    let event = crate::rest::v0_3::event_in(item?);
                    serde_json::from_value(event).map_err(|e| {
                        CallError::Malformed(ClientError::new(format!(
                            "a 0.3 event does not decode: {e}"
                        )))
                    })
                })
                .collect(),
            Inner::NotJson(said) if !*said && !chunk.is_empty() => {
                *said = true;
                vec![Err(CallError::Malformed(grpc_is_not_json()))]
            }
            Inner::NotJson(_) => Vec::new(),
        }
    }

    /// The id of the last event the stream named (`""` when none did): what a client resuming
    /// it sends as `Last-Event-ID`.
    pub fn last_event_id(&self) -> &str {
        match &self.inner {
            Inner::JsonRpc(d) => d.last_event_id(),
            Inner::HttpJson(d) => d.last_event_id(),
            Inner::HttpJsonV0_3(d) => d.last_event_id(),
            Inner::NotJson(_) => "",
        }
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), CallError<A, E>> {
        match &mut self.inner {
            Inner::JsonRpc(d) => d.finish(),
            Inner::HttpJson(d) => d.finish(),
            Inner::HttpJsonV0_3(d) => d.finish(),
            Inner::NotJson(_) => Ok(()),
        }
        .map_err(CallError::Malformed)
    }
}

// ----- encoding ------------------------------------------------------------------------------------

/// The HTTP request calling method `M` with `params` over `binding`, in protocol `version` (sent
/// as `A2A-Version`; `None` for 0.3, whose clients send none: its absence means 0.3): for JSON-RPC a POST of the request object (with `id`) to the interface's
/// URL itself (`path` is empty); for HTTP+JSON the method's route below it (`id` is not sent;
/// see [`crate::rest`] for the routes). A generated module stamps its version in
/// (`v1::encode_call::<method::GetTask>(binding, &id, &params)`).
///
/// An error when no REST route can carry the params (a path field is missing or empty), and
/// for [`Binding::Grpc`].
pub fn encode_call<M>(
    binding: Binding,
    version: Option<&'static str>,
    id: &RequestId,
    params: &M::Params,
) -> Result<HttpRequest, RouteError>
where
    M: RestMethod,
    M::Params: Serialize,
{
    let mut request = match binding {
        Binding::JsonRpc => HttpRequest {
            verb: "POST",
            path: String::new(),
            headers: Vec::new(),
            body: Some(crate::jsonrpc::client::encode_request(id, M::NAME, params)),
        },
        // No version: a 0.3 call, whose HTTP+JSON binding is written by translation.
        Binding::HttpJson if version.is_none() => crate::rest::v0_3::encode_request::<M>(params)?,
        Binding::HttpJson => crate::rest::client::encode_request::<M>(params)?,
        Binding::Grpc => {
            return Err(RouteError(format!(
                "{} over gRPC is not an HTTP request this encoder writes (gRPC messages are \
                 protobuf)",
                M::NAME
            )))
        }
    };
    // `application/json` on both bindings: every server reads it (a2a-sdk 1.3.0's among them),
    // while `application/a2a+json` (§11.1's SHOULD for HTTP+JSON) is not read by all of them.
    let json = crate::jsonrpc::CONTENT_TYPE;
    if request.body.is_some() {
        request.headers.push(("Content-Type", json));
    }
    let accept = match <M as Method>::STREAMING {
        true => crate::sse::CONTENT_TYPE,
        false => json,
    };
    request.headers.push(("Accept", accept));
    if let Some(version) = version {
        request.headers.push((ProtocolVersion::HEADER, version));
    }
    Ok(request)
}
