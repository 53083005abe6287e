//! Calls over gRPC (features `client` and `grpc`): the card's `GRPC` interface on a tonic
//! channel (HTTP/2 in plain text to a `host:port` target or `http://host:port`, over TLS to
//! `https://host:port`), the module's
//! generated protobuf codec for the messages ([`ProtocolModule::GRPC_CLIENT`]), and an error
//! status read as the HTTP+JSON client reads the same `google.rpc.Status`, so that a call's
//! outcomes are the other bindings' outcomes: the typed result, the agent's typed error (by its
//! `ErrorInfo`, or its own error by its domain), or a [`ClientError`].

use super::reader::CallStream;
use super::Client;
use crate::client::error::{CallError, ClientError, ClientErrorKind};
use crate::client::message::HttpReply;
use crate::custom::AgentError;
use crate::rest::RestMethod;
use crate::table::Method;
use crate::version::{GrpcClientCodec, ProtocolModule, ProtocolVersion};
use crate::wire::ErrorDetail;
use bytes::Bytes;
use futures_util::StreamExt as _;
use http::HeaderMap;
use std::sync::OnceLock;
use std::time::Duration;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};
use tonic::{Code, Status};

/// Where a client's gRPC calls go: the endpoint, and its channel once the first call made it
/// (a channel needs a runtime, which building a client does not).
#[derive(Debug)]
pub(super) struct GrpcTarget {
    endpoint: Endpoint,
    channel: OnceLock<Channel>,
}

impl GrpcTarget {
    /// The target of a card's `GRPC` interface (`host:port`, or with `http://`; `https://` is
    /// TLS, verified against `roots` (PEM certificates) or, when there are none, the system's
    /// roots).
    pub(super) fn new(
        url: &str,
        connect_timeout: Option<Duration>,
        roots: &[Vec<u8>],
    ) -> Result<Self, String> {
        let full = match url.contains("://") {
            true => url.to_owned(),
            false => format!("http://{url}"),
        };
        let tls = full.starts_with("https://");
        let mut endpoint = Endpoint::from_shared(full)
            .map_err(|e| format!("the card's GRPC interface {url:?} is not a gRPC target: {e}"))?;
        if tls {
            let config = match roots.is_empty() {
                true => ClientTlsConfig::new().with_native_roots(),
                false => roots.iter().fold(ClientTlsConfig::new(), |config, pem| {
                    config.ca_certificate(Certificate::from_pem(pem))
                }),
            };
            endpoint = endpoint.tls_config(config).map_err(|e| {
                format!("the card's GRPC interface {url:?}: TLS cannot be set up: {e}")
            })?;
        }
        if let Some(timeout) = connect_timeout {
            endpoint = endpoint.connect_timeout(timeout);
        }
        Ok(GrpcTarget {
            endpoint,
            channel: OnceLock::new(),
        })
    }

    /// The channel (made on the first call; it connects, and reconnects, by itself).
    fn channel(&self) -> Channel {
        self.channel
            .get_or_init(|| self.endpoint.connect_lazy())
            .clone()
    }
}

/// The module's codec; the builder picks gRPC only for a module that has one.
fn codec<P: ProtocolModule>() -> Result<GrpcClientCodec, ClientError> {
    P::GRPC_CLIENT.ok_or_else(|| {
        ClientError::new(format!(
            "the A2A {} module was generated without its protobuf codec: it cannot call over gRPC",
            P::VERSION
        ))
        .with_kind(ClientErrorKind::Request)
    })
}

impl<P: ProtocolModule> Client<P> {
    /// The request of a call of `M`: its message, and the metadata every call sends
    /// (`a2a-version`, `a2a-extensions`, the caller's headers and credentials, the trace).
    fn grpc_request<M>(
        &self,
        params: &M::Params,
    ) -> Result<(tonic::Request<Vec<u8>>, String), ClientError>
    where
        M: RestMethod,
        M::Params: Clone,
    {
        let inner = &*self.inner;
        let what = format!("gRPC {} at {}", M::NAME, inner.interface.url);
        let filled = self.with_tenant::<M>(params);
        let params = filled.as_ref().unwrap_or(params);
        let message = (codec::<P>()?.encode)(M::NAME, params).ok_or_else(|| {
            ClientError::new(format!(
                "{what}: the module has no gRPC message for these params"
            ))
            .with_kind(ClientErrorKind::Request)
        })?;
        let mut headers = HeaderMap::new();
        if P::VERSION != ProtocolVersion::V0_3 {
            headers.insert(
                ProtocolVersion::HEADER,
                http::HeaderValue::from_static(P::VERSION.as_str()),
            );
        }
        for (name, value) in &inner.headers {
            headers.append(name, value.clone());
        }
        if let Some(auth) = &inner.auth {
            auth(&mut headers);
        }
        crate::telemetry::inject_current(&mut headers);
        let metadata = tonic::metadata::MetadataMap::from_headers(headers);
        let request = tonic::Request::from_parts(metadata, tonic::Extensions::default(), message);
        Ok((request, what))
    }

    /// [`Client::call_with`] over gRPC.
    pub(super) async fn grpc_call<M, E>(
        &self,
        params: &M::Params,
    ) -> Result<M::Result, CallError<P::Error, E>>
    where
        M: RestMethod,
        M::Params: Clone,
        E: AgentError,
    {
        let inner = &*self.inner;
        let (mut request, what) = self
            .grpc_request::<M>(params)
            .map_err(CallError::Malformed)?;
        if let Some(timeout) = inner.request_timeout {
            request.set_timeout(timeout);
        }
        let mut grpc = ready(inner, &what).await?;
        let path = rpc_path(M::NAME);
        match grpc.unary(request, path, crate::grpc::Raw).await {
            Ok(reply) => decode::<P, M, E>(M::NAME, &reply.into_inner(), &what, inner),
            Err(status) => Err(status_error::<P, E>(&status, &what, inner)),
        }
    }

    /// [`Client::stream_with`] over gRPC: the rpc's messages as they arrive, each the method's
    /// result or the call's error (a stream that fails ends with the failure).
    pub(super) fn grpc_stream<M, E>(&self, params: &M::Params) -> CallStream<M::Result, P::Error, E>
    where
        M: RestMethod,
        M::Params: Clone,
        M::Result: Send + 'static,
        E: AgentError + Send + 'static,
    {
        let client = self.clone();
        let prepared = self.grpc_request::<M>(params);
        let started = async move {
            let inner = &*client.inner;
            let (request, what) = prepared.map_err(CallError::Malformed)?;
            let mut grpc = ready(inner, &what).await?;
            let path = rpc_path(M::NAME);
            let reply = grpc.server_streaming(request, path, crate::grpc::Raw).await;
            let messages = reply
                .map_err(|status| status_error::<P, E>(&status, &what, inner))?
                .into_inner();
            Ok::<_, CallError<P::Error, E>>((messages, what, client.clone()))
        };
        let events = futures_util::stream::once(started).flat_map(|started| match started {
            Err(e) => futures_util::stream::iter([Err(e)]).boxed(),
            Ok((messages, what, client)) => messages
                .map(move |message| {
                    let inner = &*client.inner;
                    match message {
                        Ok(bytes) => decode::<P, M, E>(M::NAME, &bytes, &what, inner),
                        Err(status) => Err(status_error::<P, E>(&status, &what, inner)),
                    }
                })
                .scan(false, |failed, item| {
                    // The items up to the first error: a failed stream ends with its failure.
                    let out = (!*failed).then(|| {
                        *failed = item.is_err();
                        item
                    });
                    std::future::ready(out)
                })
                .boxed(),
        });
        CallStream::from_stream(events)
    }
}

/// A gRPC client on the client's channel, ready for a call (connected, on the first).
async fn ready<A, E>(
    inner: &super::Inner,
    what: &str,
) -> Result<tonic::client::Grpc<Channel>, CallError<A, E>> {
    let target = inner.grpc.as_ref().ok_or_else(|| not_grpc(what))?;
    let mut grpc = tonic::client::Grpc::new(target.channel());
    grpc.ready()
        .await
        .map_err(|e| CallError::Malformed(transport(what, &e.to_string())))?;
    Ok(grpc)
}

/// `/lf.a2a.v1.A2AService/<rpc>`.
fn rpc_path(rpc: &str) -> http::uri::PathAndQuery {
    let path = format!("{}{rpc}", crate::grpc::SERVICE_PREFIX);
    // An rpc name of the method table is a path segment.
    path.parse()
        .unwrap_or_else(|_| http::uri::PathAndQuery::from_static("/"))
}

/// One reply message read as the method's result.
fn decode<P: ProtocolModule, M: Method, E>(
    rpc: &str,
    bytes: &Bytes,
    what: &str,
    inner: &super::Inner,
) -> Result<M::Result, CallError<P::Error, E>> {
    let malformed =
        |reason: String| CallError::Malformed(ClientError::new(format!("{what}: {reason}")));
    let codec = codec::<P>().map_err(CallError::Malformed)?;
    match (codec.decode)(rpc, bytes, &inner.limits) {
        Some(Ok(value)) => value
            .downcast::<M::Result>()
            .map(|value| *value)
            .map_err(|_| malformed("the module's gRPC codec gave another type".into())),
        Some(Err(e)) => Err(malformed(format!("the reply message does not decode: {e}"))),
        None => Err(malformed("the module has no such rpc".into())),
    }
}

/// What went wrong under a status tonic made itself: its message and the chain of causes
/// below it ("transport error" alone says nothing of a connection the peer closed).
fn transport_reason(status: &Status) -> String {
    let mut reason = status.message().to_owned();
    let mut cause = std::error::Error::source(status);
    while let Some(e) = cause {
        let text = e.to_string();
        if !reason.contains(&text) {
            reason = format!("{reason}: {text}");
        }
        cause = e.source();
    }
    reason
}

/// The error of a call answered with `status`: the agent's (its `google.rpc.Status`, read as the
/// HTTP+JSON client reads one), or the client's when the call got no answer.
fn status_error<P: ProtocolModule, E: AgentError>(
    status: &Status,
    what: &str,
    inner: &super::Inner,
) -> CallError<P::Error, E> {
    // tonic's own statuses (no connection, a broken stream, the client's deadline): no answer.
    let from_transport = std::error::Error::source(status).is_some() && status.details().is_empty();
    if from_transport || status.code() == Code::DeadlineExceeded && status.details().is_empty() {
        let kind = match status.code() {
            Code::DeadlineExceeded | Code::Cancelled => ClientErrorKind::RequestTimeout,
            Code::Unavailable => ClientErrorKind::Connect,
            _ => ClientErrorKind::Interrupted,
        };
        return CallError::Malformed(
            ClientError::new(format!("{what}: {}", transport_reason(status))).with_kind(kind),
        );
    }
    let (name, http) = crate::protobuf::status::CODES
        .iter()
        .find(|(_, number, _)| *number == status.code() as i32)
        .map_or(("UNKNOWN", 500), |(name, _, http)| (*name, *http));
    let details = crate::protobuf::status::decode_details(status.details());
    let body = serde_json::json!({"error": {
        "code": http,
        "status": name,
        "message": status.message(),
        "details": ErrorDetail::list_to_data(details),
    }});
    let body = body.to_string().into_bytes();
    let reply = HttpReply {
        status: http,
        content_type: Some(crate::rest::CONTENT_TYPE),
        body: &body,
    };
    match crate::rest::client::decode::<serde_json::Value, P::Error, E>(&reply, &inner.limits) {
        Err(CallError::Malformed(e)) => CallError::Malformed(
            ClientError::new(format!("{what}: {}", e.reason())).with_kind(e.kind()),
        ),
        Err(error) => error,
        // Not reached: an error status never decodes as a result.
        Ok(_) => CallError::Malformed(ClientError::new(format!("{what}: gRPC {name}"))),
    }
}

fn transport(what: &str, reason: &str) -> ClientError {
    ClientError::new(format!("{what}: could not connect: {reason}"))
        .with_kind(ClientErrorKind::Connect)
}

fn not_grpc<A, E>(what: &str) -> CallError<A, E> {
    CallError::Malformed(
        ClientError::new(format!("{what}: this client has no gRPC channel"))
            .with_kind(ClientErrorKind::Request),
    )
}
