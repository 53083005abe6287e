//! The gRPC binding (spec §10; features `server` and `grpc`): the `lf.a2a.v1.A2AService` rpcs of
//! a generated module with a protobuf codec, on tonic's framing.
//!
//! tonic does the wire: length-prefixed messages, the message-size limit, `grpc-status` in the
//! trailers, `grpc-status-details-bin`. The messages are the generated types' own protobuf codec
//! ([`GrpcCodec`](crate::service::GrpcCodec)): no prost. tonic's `Codec` here moves bytes
//! ([`crate::grpc::Raw`]), because the message type is known only once the path names the rpc,
//! and the generated decoder takes the rpc's name with the bytes.
//!
//! Every rpc is answered as tonic answers a server-streaming one: a unary reply is a stream of
//! one message, which on the wire is the same response (headers, one message, trailers), and an
//! error before any message is a trailers-only response, as for a unary rpc.

use super::http::{guarded, until_error, Settings, Trace};
use crate::service::{Dispatch, Outcome, Protocol, ServiceError};
use crate::table::ErrorTable;
use crate::version::{Binding, ProtocolModule};
use crate::wire::ErrorDetail;
use axum::body::Body;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::StreamExt as _;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tonic::{Code, Status};

/// The path prefix of the service's rpcs: `/lf.a2a.v1.A2AService/SendMessage` (the client's too).
pub use crate::grpc::SERVICE_PREFIX as GRPC_SERVICE_PREFIX;

/// The stream of reply messages of one call.
pub(super) type ReplyStream =
    Pin<Box<dyn futures_core::Stream<Item = Result<Vec<u8>, Status>> + Send>>;

/// What answering one call gives tonic: the reply messages, or the status of a call refused
/// before its first message.
pub(super) type CallFuture =
    Pin<Box<dyn Future<Output = Result<tonic::Response<ReplyStream>, Status>> + Send>>;

/// The refusal of a request that is not gRPC over HTTP/2 at a gRPC path: HTTP/1.1 (`505`), or
/// gRPC-Web and other content types (`415`), each with a line saying what is served. `None`:
/// serve it.
pub(super) fn refuse_transport(parts: &axum::http::request::Parts) -> Option<Response> {
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let refuse = |status: StatusCode, text: &'static str| {
        Some(
            (
                status,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                text,
            )
                .into_response(),
        )
    };
    if content_type.starts_with("application/grpc-web") {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "gRPC-Web is not served here: call over gRPC (HTTP/2, application/grpc)",
        );
    }
    if parts.version != axum::http::Version::HTTP_2 {
        return refuse(
            StatusCode::HTTP_VERSION_NOT_SUPPORTED,
            "gRPC is served over HTTP/2 only (h2c or TLS with ALPN h2)",
        );
    }
    let grpc = content_type == "application/grpc"
        || content_type.starts_with("application/grpc+")
        || content_type.starts_with("application/grpc;");
    if !grpc {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a gRPC request is sent as application/grpc (protobuf messages)",
        );
    }
    None
}

/// A status as a whole (trailers-only) response: what a call refused before tonic reads it gets.
pub(super) fn status_response(status: Status) -> Response {
    status.into_http::<Body>()
}

/// The deadline a call's `grpc-timeout` sets (gRPC over HTTP/2: up to 8 digits and a unit,
/// `H`, `M`, `S`, `m`, `u` or `n`); `None` when it sends none or one that does not read.
pub(super) fn timeout_of(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get("grpc-timeout")?.to_str().ok()?;
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// The gRPC status code of a status name (`NOT_FOUND`, the error table's `grpc` column);
/// `UNKNOWN` for a name gRPC does not have.
fn code_of(name: &str) -> Code {
    crate::protobuf::status::CODES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or(Code::Unknown, |(_, number, _)| Code::from_i32(*number))
}

/// A method's error as a gRPC status (spec §10.6): the code of its row's `grpc` column, its
/// message, and as details (`grpc-status-details-bin`) the `google.rpc.Status` carrying what its
/// HTTP+JSON reply carries: the `ErrorInfo` of an A2A error, a `BadRequest`, a `RetryInfo`.
pub(super) fn status_of<A: ErrorTable>(error: &ServiceError<A>) -> Status {
    // The HTTP+JSON reply is the `google.rpc.Status` in ProtoJSON, for standard and custom
    // errors alike: read back (errors only, so the round trip costs nothing that matters).
    let reply = error.rest_response();
    let parsed: Value = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
    let status = &parsed["error"];
    let code = code_of(status["status"].as_str().unwrap_or("UNKNOWN"));
    let message = status["message"]
        .as_str()
        .unwrap_or_else(|| error.error().message())
        .to_owned();
    let details = ErrorDetail::list_from(status.get("details"));
    with_details(code, message, &details)
}

/// A status with `details` encoded as a binary `google.rpc.Status` (`ErrorInfo`, `BadRequest` and
/// `RetryInfo`; a detail of another type is left out).
pub(super) fn with_details(code: Code, message: String, details: &[ErrorDetail]) -> Status {
    let mut buf = Vec::new();
    crate::protobuf::status::encode(code as i32, &message, details, &mut buf);
    Status::with_details(code, message, Bytes::from(buf))
}

/// A refusal of the whole call before the service runs, as a status.
pub(super) fn refusal(code: Code, message: impl Into<String>) -> Status {
    with_details(code, message.into(), &[])
}

/// Answers rpc `method` of `service`'s module: decodes the request message, builds the call's
/// context from the metadata (binding `GRPC`), calls the service under the call's deadline and
/// encodes the outcome.
pub(super) fn call<D: Dispatch>(
    service: &D,
    method: &str,
    request: tonic::Request<Bytes>,
    settings: &Settings,
) -> CallFuture {
    let Some(codec) = <D::Protocol as Protocol>::GRPC else {
        let status = refusal(Code::Unimplemented, "this service has no gRPC codec");
        return Box::pin(std::future::ready(Err(status)));
    };
    let (metadata, extensions, body) = request.into_parts();
    let decoded = (codec.decode)(method, &body, &settings.limits);
    let request = match decoded {
        None => {
            let status = refusal(
                Code::Unimplemented,
                format!("lf.a2a.v1.A2AService has no rpc {method:?}"),
            );
            return Box::pin(std::future::ready(Err(status)));
        }
        Some(Err(fault)) => {
            let error = <ErrorOf<D> as ErrorTable>::from_fault(&fault);
            let status = status_of(&ServiceError::Standard(error));
            return Box::pin(std::future::ready(Err(status)));
        }
        Some(Ok(request)) => request,
    };
    let headers = metadata.into_headers();
    let deadline = timeout_of(&headers).map(|t| tokio::time::Instant::now() + t);
    let mut parts = axum::http::Request::new(()).into_parts().0;
    parts.headers = headers;
    parts.extensions = extensions;
    let cx = match super::http::Served::<D>::context(parts, Binding::Grpc, &request) {
        Ok(cx) => cx,
        Err(refused) => {
            tracing::info!(target: "a2a_runtime::auth", reason = %refused, "request refused: tenant");
            let status = refusal(Code::PermissionDenied, "Permission denied");
            return Box::pin(std::future::ready(Err(status)));
        }
    };
    let encode = codec.encode;
    let trace = Trace::start(&cx);
    let future = trace.instrument(super::http::Served::<D>::call(
        service, cx, request, settings,
    ));
    Box::pin(async move {
        let outcome = match deadline {
            None => future.await,
            Some(deadline) => match tokio::time::timeout_at(deadline, future).await {
                Ok(outcome) => outcome,
                Err(_) => {
                    trace.end(Some(crate::jsonrpc::codes::INTERNAL_ERROR));
                    return Err(refusal(
                        Code::DeadlineExceeded,
                        "the call's deadline passed",
                    ));
                }
            },
        };
        trace.end(outcome.as_ref().err().map(|e| e.error().code()));
        let replies: ReplyStream = match outcome {
            Ok(Outcome::Unary(reply)) => Box::pin(futures_util::stream::once(std::future::ready(
                Ok(encode(&reply)),
            ))),
            Ok(Outcome::Stream(stream)) => {
                let replies =
                    until_error(guarded(stream, trace.method)).map(move |item| match item {
                        Ok(reply) => Ok(encode(&reply)),
                        Err(error) => Err(status_of(&error)),
                    });
                match deadline {
                    None => Box::pin(replies),
                    Some(deadline) => Box::pin(until_deadline(Box::pin(replies), deadline)),
                }
            }
            Err(error) => return Err(status_of(&error)),
        };
        Ok(tonic::Response::new(replies))
    })
}

/// One gRPC call as tonic's server calls it (a tower service of the decoded request bytes).
pub(super) struct Call {
    pub(super) endpoint: std::sync::Arc<dyn super::http::Endpoint>,
    pub(super) method: String,
    pub(super) settings: Settings,
}

impl tower_service::Service<tonic::Request<Bytes>> for Call {
    type Response = tonic::Response<ReplyStream>;
    type Error = Status;
    type Future = CallFuture;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Status>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: tonic::Request<Bytes>) -> CallFuture {
        self.endpoint
            .grpc_call(&self.method, request, &self.settings)
    }
}

type ErrorOf<D> = <<D as Dispatch>::Protocol as ProtocolModule>::Error;

/// `replies` until `deadline`, then `DEADLINE_EXCEEDED` as the stream's last item.
fn until_deadline(replies: ReplyStream, deadline: tokio::time::Instant) -> UntilDeadline {
    UntilDeadline {
        replies,
        deadline: Box::pin(tokio::time::sleep_until(deadline)),
        ended: false,
    }
}

/// The stream of [`until_deadline`] (both fields boxed, so no pin projection is needed).
struct UntilDeadline {
    replies: ReplyStream,
    deadline: Pin<Box<tokio::time::Sleep>>,
    ended: bool,
}

impl futures_core::Stream for UntilDeadline {
    type Item = Result<Vec<u8>, Status>;

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if self.ended {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = self.replies.as_mut().poll_next(cx) {
            self.ended = item.is_none();
            return Poll::Ready(item);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.ended = true;
                let status = refusal(Code::DeadlineExceeded, "the call's deadline passed");
                Poll::Ready(Some(Err(status)))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
