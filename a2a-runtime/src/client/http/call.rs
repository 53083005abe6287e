//! The calls of a [`Client`]: preparing a method's HTTP request (the sans-IO
//! [`encode_call`], the interface's URL and tenant, the client's headers and credentials),
//! a unary call sent and its reply read whole under the limits, and the sending, timing and
//! failure naming that a stream ([`super::reader`]) and fetching the card share.

use super::reader::{CallStream, Phase, Reading};
use super::Client;
use crate::client::encode_call;
use crate::client::error::{CallError, ClientError, ClientErrorKind};
use crate::client::message::HttpReply;
use crate::custom::{AgentError, NoCustomErrors};
use crate::jsonrpc::RequestId;
use crate::limits::Limits;
use crate::rest::RestMethod;
use crate::table::Method;
use crate::version::{ProtocolModule, ProtocolVersion};
use http::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

impl<P: ProtocolModule> Client<P> {
    /// Calls method `M` with `params`: the method's result, the agent's typed error, or a
    /// [`ClientError`] (see the [module docs](crate::client#failures)). `M` is one of the module's method
    /// types (`a2a_types::v1::method::GetTask`); a streaming method is called with
    /// [`Client::stream`].
    pub async fn call<M>(&self, params: &M::Params) -> Result<M::Result, CallError<P::Error>>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned,
    {
        self.call_with::<M, NoCustomErrors>(params).await
    }

    /// [`Client::call`] for an agent with errors of its own, `E` (`#[derive(AgentError)]`): one
    /// of them comes back as `CallError::Custom`, with its fields.
    pub async fn call_with<M, E>(
        &self,
        params: &M::Params,
    ) -> Result<M::Result, CallError<P::Error, E>>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned,
        E: AgentError,
    {
        let inner = &*self.inner;
        if M::STREAMING {
            return Err(CallError::Malformed(
                ClientError::new(format!(
                    "{} answers with a stream: call it with `Client::stream`",
                    M::NAME
                ))
                .with_kind(ClientErrorKind::Request),
            ));
        }
        #[cfg(feature = "grpc")]
        if inner.binding == crate::version::Binding::Grpc {
            return self.grpc_call::<M, E>(params).await;
        }
        let prepared = self.prepare::<M>(params).map_err(CallError::Malformed)?;
        let (status, content_type, body) = read_reply(
            prepared.request,
            &prepared.what,
            inner.request_timeout,
            &inner.limits,
        )
        .await
        .map_err(CallError::Malformed)?;
        let reply = HttpReply {
            status,
            content_type: content_type.as_deref(),
            body: &body,
        };
        let decoder = inner
            .decoder::<P::Error, E>()
            .rest_v0_3(prepared.v0_3_method);
        decoder.decode_http(&reply)
    }

    /// Calls streaming method `M` with `params`: its events as they arrive, each the method's
    /// result type or the agent's typed error, read from the body incrementally (never buffered
    /// whole). The request is sent when the stream is first polled.
    ///
    /// An agent that refuses the call before streaming answers one JSON body instead: the
    /// stream's one item is that error. A stream that fails (the idle timeout, the connection
    /// breaking off, the body ending inside an event) ends with the failure as its last item.
    ///
    /// A `SubscribeToTask` stream resumes by itself instead, when its events carried SSE ids:
    /// the request is sent again with `Last-Event-ID`, the id of the last event received, and the
    /// agent sends the events after it (up to 3 times; an agent whose store keeps event logs
    /// gives the ids). The caller sees each event once, and the failure only when resuming
    /// fails. A `SendStreamingMessage` stream is not sent again (that would send its message
    /// again): to follow its task after a break, subscribe to it.
    pub fn stream<M>(&self, params: &M::Params) -> CallStream<M::Result, P::Error>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned + Send + 'static,
    {
        self.stream_with::<M, NoCustomErrors>(params)
    }

    /// [`Client::stream`] for an agent with errors of its own, `E`.
    pub fn stream_with<M, E>(&self, params: &M::Params) -> CallStream<M::Result, P::Error, E>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
        M::Result: DeserializeOwned + Send + 'static,
        E: AgentError + Send + 'static,
    {
        #[cfg(feature = "grpc")]
        if M::STREAMING && self.inner.binding == crate::version::Binding::Grpc {
            return self.grpc_stream::<M, E>(params);
        }
        let phase = match M::STREAMING {
            false => Phase::Failed(
                ClientError::new(format!(
                    "{} answers with one reply, not a stream: call it with `Client::call`",
                    M::NAME
                ))
                .with_kind(ClientErrorKind::Request),
            ),
            true => match self.prepare::<M>(params) {
                Ok(prepared) => Phase::Send(prepared),
                Err(e) => Phase::Failed(e),
            },
        };
        let reading = Reading::new(Arc::clone(&self.inner), phase);
        // A subscription resumes by itself where it broke off (the agent gives its events ids
        // and resumes after the one a request names); a stream that sends a message does not:
        // sent again, it would send the message again.
        let reading = match M::NAME {
            "SubscribeToTask" | "tasks/resubscribe" => reading.resumable(),
            _ => reading,
        };
        CallStream::new(reading)
    }

    /// `params` with the interface's tenant, when the interface names one and the params leave
    /// theirs empty (`None`: send them as they are).
    pub(super) fn with_tenant<M: Method>(&self, params: &M::Params) -> Option<M::Params>
    where
        M::Params: Clone,
    {
        let tenant = self.inner.interface.tenant.as_deref()?;
        if <M as Method>::tenant(params).is_some() {
            return None;
        }
        let mut filled = params.clone();
        <M as Method>::fill_tenant(&mut filled, tenant);
        Some(filled)
    }

    /// The HTTP request for a call of `M`, ready to send.
    fn prepare<M>(&self, params: &M::Params) -> Result<Prepared, ClientError>
    where
        M: RestMethod,
        M::Params: Serialize + Clone,
    {
        let inner = &*self.inner;
        let filled = self.with_tenant::<M>(params);
        let params = filled.as_ref().unwrap_or(params);
        let id = RequestId::from(inner.next_id.fetch_add(1, Ordering::Relaxed));
        let version = match P::VERSION {
            // A v0.3 client sends no `A2A-Version`: its absence means 0.3 (§3.6).
            ProtocolVersion::V0_3 => None,
            version => Some(version.as_str()),
        };
        // 0.3's HTTP+JSON binding (written by `encode_call`, no version) is read by translation.
        let v0_3_method = (P::VERSION == ProtocolVersion::V0_3
            && inner.binding == crate::version::Binding::HttpJson)
            .then_some(M::NAME);
        let request = encode_call::<M>(inner.binding, version, &id, params).map_err(|e| {
            ClientError::new(format!("{} cannot be sent: {e}", M::NAME))
                .with_kind(ClientErrorKind::Request)
        })?;
        let url = match request.path.is_empty() {
            true => inner.interface.url.clone(),
            false => format!(
                "{}{}",
                inner.interface.url.trim_end_matches('/'),
                request.path
            ),
        };
        let what = format!("{} {url} ({})", request.verb, M::NAME);
        let verb = reqwest::Method::from_bytes(request.verb.as_bytes()).map_err(|e| {
            ClientError::new(format!("{what}: {e}")).with_kind(ClientErrorKind::Request)
        })?;
        let mut headers = HeaderMap::new();
        for (name, value) in &request.headers {
            headers.insert(*name, HeaderValue::from_static(value));
        }
        for (name, value) in &inner.headers {
            headers.append(name, value.clone());
        }
        if let Some(auth) = &inner.auth {
            auth(&mut headers);
        }
        // With `otel`, the current span's trace goes with the call (unless set above).
        crate::telemetry::inject_current(&mut headers);
        let mut builder = inner.http.request(verb, url).headers(headers);
        if let Some(body) = request.body {
            builder = builder.body(body);
        }
        Ok(Prepared {
            request: builder,
            what,
            v0_3_method,
        })
    }
}

/// A request ready to send, and how failures name it (`POST http://a/ (GetTask)`).
pub(super) struct Prepared {
    pub(super) request: reqwest::RequestBuilder,
    pub(super) what: String,
    /// The 0.3 method, when the call goes over 0.3's HTTP+JSON binding (its replies are read
    /// through the translation).
    pub(super) v0_3_method: Option<&'static str>,
}

/// Sends `request` and reads its reply whole, at most `limits.max_body_bytes()` of it, all within
/// `timeout`: status, content type, body.
pub(super) async fn read_reply(
    request: reqwest::RequestBuilder,
    what: &str,
    timeout: Option<Duration>,
    limits: &Limits,
) -> Result<(u16, Option<String>, Vec<u8>), ClientError> {
    let deadline = timeout.map(|t| Instant::now() + t);
    let work = async {
        let mut response = request.send().await.map_err(|e| send_error(&e, what))?;
        let (status, content_type) = head(&response);
        let body = read_body(&mut response, what, status, limits).await?;
        Ok((status, content_type, body))
    };
    match before(deadline, work).await {
        Some(outcome) => outcome,
        None => Err(request_timeout(what, timeout, "a complete reply")),
    }
}

/// The status and the content type of a response.
pub(super) fn head(response: &reqwest::Response) -> (u16, Option<String>) {
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (response.status().as_u16(), content_type)
}

/// Reads a body as it arrives, refusing it once it grows past the limit (or when its
/// `Content-Length` says it will).
pub(super) async fn read_body(
    response: &mut reqwest::Response,
    what: &str,
    status: u16,
    limits: &Limits,
) -> Result<Vec<u8>, ClientError> {
    let max = limits.max_body_bytes();
    let over = |reason: String| {
        ClientError::new(format!("{what}: HTTP {status}: {reason}")).with_http_status(status)
    };
    if let Some(length) = response.content_length() {
        if length > max as u64 {
            return Err(over(format!(
                "the body is {length} bytes (Content-Length), over the limit of {max}"
            )));
        }
    }
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    return Err(over(format!(
                        "the body is over the limit of {max} bytes ({} had arrived)",
                        body.len() + chunk.len()
                    )));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) => {
                return Err(ClientError::new(format!(
                    "{what}: the reply broke off after {} bytes: {}",
                    body.len(),
                    chain(&e)
                ))
                .with_kind(ClientErrorKind::Interrupted)
                .with_http_status(status))
            }
        }
    }
}

/// `work`'s output, or `None` when `deadline` passed first.
pub(super) async fn before<F: Future>(deadline: Option<Instant>, work: F) -> Option<F::Output> {
    match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, work).await.ok(),
        None => Some(work.await),
    }
}

pub(super) fn request_timeout(what: &str, timeout: Option<Duration>, awaited: &str) -> ClientError {
    let timeout = timeout.map_or(String::new(), |t| format!(" of {t:?}"));
    ClientError::new(format!(
        "{what}: no {awaited} within the request timeout{timeout}"
    ))
    .with_kind(ClientErrorKind::RequestTimeout)
}

/// The client error for a request that got no response.
pub(super) fn send_error(e: &reqwest::Error, what: &str) -> ClientError {
    let (kind, why) = if e.is_connect() && e.is_timeout() {
        (
            ClientErrorKind::ConnectTimeout,
            "no connection within the connect timeout",
        )
    } else if e.is_connect() {
        (ClientErrorKind::Connect, "could not connect")
    } else if e.is_timeout() {
        (
            ClientErrorKind::RequestTimeout,
            "the HTTP client's own timeout elapsed",
        )
    } else if e.is_builder() {
        (ClientErrorKind::Request, "the request could not be built")
    } else {
        (
            ClientErrorKind::Interrupted,
            "the connection broke off before a reply",
        )
    };
    ClientError::new(format!("{what}: {why}: {}", chain(e))).with_kind(kind)
}

/// An error with its sources, `: `-separated (reqwest's own message says little).
pub(super) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let next = s.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = s.source();
    }
    text
}
