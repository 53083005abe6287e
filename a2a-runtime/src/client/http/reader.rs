//! The events of a streaming call: [`CallStream`], and the state machine behind it. A call goes
//! through phases ([`Phase`]: the request to send, then an SSE body to read, or one JSON reply
//! instead of a stream, or a failure before anything was sent); the body's reading is a
//! [`Reader`], which takes what the body does next ([`Arrival`]: bytes, its end, a broken
//! connection, an idle timeout) one step at a time and gives the items in order. The body is
//! anything that yields chunks ([`Chunks`]): the response on the wire, or a test's script.

use super::call::{before, chain, head, read_body, request_timeout, send_error, Prepared};
use super::Inner;
use crate::client::error::{CallError, ClientError, ClientErrorKind};
use crate::client::message::HttpReply;
use crate::client::StreamDecoder;
use crate::custom::{AgentError, NoCustomErrors};
use crate::table::ErrorTable;
use bytes::Bytes;
use futures_core::Stream;
use serde::de::DeserializeOwned;
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Instant;

/// The content type of a streamed reply.
const EVENT_STREAM: &str = crate::sse::CONTENT_TYPE;

/// The events of a streaming call ([`Client::stream`](super::Client::stream)): a [`Stream`] of
/// the method's result type or the call's error, read from the body as it arrives.
/// `next().await` works without importing a stream extension trait.
pub struct CallStream<T, A, E = NoCustomErrors> {
    inner: Pin<Box<dyn Stream<Item = Item<T, A, E>> + Send>>,
    /// Set once `inner` has ended: it is never polled again (an ended stream stays ended).
    ended: bool,
}

/// One event of a [`CallStream`].
type Item<T, A, E> = Result<T, CallError<A, E>>;

impl<T, A, E> CallStream<T, A, E>
where
    T: DeserializeOwned + Send + 'static,
    A: ErrorTable + Send + 'static,
    E: AgentError + Send + 'static,
{
    /// The stream of `reading`'s items.
    pub(super) fn new(reading: Reading<T, A, E>) -> Self {
        CallStream {
            inner: Box::pin(futures_util::stream::unfold(
                reading,
                |mut reading| async move {
                    let item = reading.next().await?;
                    Some((item, reading))
                },
            )),
            ended: false,
        }
    }
}

impl<T, A, E> CallStream<T, A, E> {
    /// The stream of these items (a gRPC call's messages).
    #[cfg(feature = "grpc")]
    pub(super) fn from_stream(items: impl Stream<Item = Item<T, A, E>> + Send + 'static) -> Self {
        CallStream {
            inner: Box::pin(items),
            ended: false,
        }
    }

    /// The next event; `None` once the stream has ended.
    pub async fn next(&mut self) -> Option<Result<T, CallError<A, E>>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl<T, A, E> Stream for CallStream<T, A, E> {
    type Item = Result<T, CallError<A, E>>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        let next = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(None) = next {
            self.ended = true;
        }
        next
    }
}

impl<T, A, E> fmt::Debug for CallStream<T, A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CallStream(..)")
    }
}

/// A streaming call in progress: the client it goes through, its phase, and how it resumes.
pub(super) struct Reading<T, A, E> {
    inner: Arc<Inner>,
    phase: Phase<T, A, E>,
    resume: Option<Resume>,
}

/// How many times a dropped stream is resumed, at most.
const RESUMES: u8 = 3;

/// A stream that resumes where it broke off: its request, sent again with the `Last-Event-ID`
/// of the last event received (the agent sends the events after it), a bounded number of times.
struct Resume {
    request: reqwest::RequestBuilder,
    what: String,
    v0_3_method: Option<&'static str>,
    left: u8,
    last_id: String,
}

/// Where a streaming call is.
pub(super) enum Phase<T, A, E> {
    /// The request could not be made: the stream's one item.
    Failed(ClientError),
    /// The request, not sent yet (it is sent when the stream is first polled).
    Send(Prepared),
    /// The agent answered with one reply instead of a stream (a refusal, a proxy's page), or the
    /// request got no response: the stream's one item.
    Reply(Item<T, A, E>),
    /// The SSE body, being read.
    Body(reqwest::Response, Reader<T, A, E>),
    /// Nothing more.
    Done,
}

impl<T, A, E> Reading<T, A, E>
where
    T: DeserializeOwned,
    A: ErrorTable,
    E: AgentError,
{
    pub(super) fn new(inner: Arc<Inner>, phase: Phase<T, A, E>) -> Self {
        Reading {
            inner,
            phase,
            resume: None,
        }
    }

    /// This call, resumed by itself when its stream breaks off after events that carried ids
    /// (see [`Resume`]).
    pub(super) fn resumable(mut self) -> Self {
        if let Phase::Send(prepared) = &self.phase {
            self.resume = prepared.request.try_clone().map(|request| Resume {
                request,
                what: prepared.what.clone(),
                v0_3_method: prepared.v0_3_method,
                left: RESUMES,
                last_id: String::new(),
            });
        }
        self
    }

    /// The stream's next item; `None` once it has ended.
    async fn next(&mut self) -> Option<Item<T, A, E>> {
        loop {
            match std::mem::replace(&mut self.phase, Phase::Done) {
                Phase::Done => return None,
                Phase::Failed(e) => return Some(Err(CallError::Malformed(e))),
                Phase::Reply(item) => return Some(item),
                Phase::Send(prepared) => self.phase = Self::start(&self.inner, prepared).await,
                Phase::Body(mut response, mut reader) => {
                    let item = reader.next(&mut response, self.inner.idle_timeout).await;
                    if let Some(resume) = &mut self.resume {
                        let id = reader.decoder.last_event_id();
                        if !id.is_empty() && id != resume.last_id {
                            resume.last_id = id.to_owned();
                        }
                    }
                    // An ended body is dropped at once (its connection with it).
                    if !reader.ended {
                        self.phase = Phase::Body(response, reader);
                        return item;
                    }
                    if let (Some(Err(CallError::Malformed(e))), Some(resume)) =
                        (&item, &mut self.resume)
                    {
                        let broke = matches!(
                            e.kind(),
                            ClientErrorKind::Interrupted | ClientErrorKind::IdleTimeout
                        );
                        if broke && resume.left > 0 && !resume.last_id.is_empty() {
                            if let Some(request) = resume.request.try_clone() {
                                resume.left -= 1;
                                tracing::debug!(
                                    target: "a2a_runtime::client",
                                    call = %resume.what,
                                    last_event_id = %resume.last_id,
                                    "resuming a stream that broke off: {}",
                                    e.reason()
                                );
                                let request =
                                    request.header(crate::service::LAST_EVENT_ID, &resume.last_id);
                                let what = resume.what.clone();
                                let v0_3_method = resume.v0_3_method;
                                self.phase = Phase::Send(Prepared {
                                    request,
                                    what,
                                    v0_3_method,
                                });
                                continue;
                            }
                        }
                    }
                    return item;
                }
            }
        }
    }

    /// Sends the request: the phase that reads its SSE body, or the one item of a reply that is
    /// not a stream (or of a request that got no response).
    async fn start(inner: &Inner, prepared: Prepared) -> Phase<T, A, E> {
        let Prepared {
            request,
            what,
            v0_3_method,
        } = prepared;
        let decoder = inner.decoder::<A, E>().rest_v0_3(v0_3_method);
        let deadline = inner.request_timeout.map(|t| Instant::now() + t);
        let response = match before(deadline, request.send()).await {
            Some(Ok(response)) => response,
            Some(Err(e)) => return Phase::Failed(send_error(&e, &what)),
            None => {
                let awaited = "response headers";
                return Phase::Failed(request_timeout(&what, inner.request_timeout, awaited));
            }
        };
        let (status, content_type) = head(&response);
        let is_sse = content_type.as_deref().is_some_and(|t| {
            t.get(..EVENT_STREAM.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(EVENT_STREAM))
        });
        if is_sse && (200..300).contains(&status) {
            let reader = Reader::new(decoder.stream(), what);
            return Phase::Body(response, reader);
        }
        // One JSON body instead of a stream (a refusal), or something else (a proxy's page).
        let mut response = response;
        let read = read_body(&mut response, &what, status, &inner.limits);
        let body = match before(deadline, read).await {
            Some(Ok(body)) => body,
            Some(Err(e)) => return Phase::Failed(e),
            None => {
                let awaited = "complete reply";
                return Phase::Failed(request_timeout(&what, inner.request_timeout, awaited));
            }
        };
        let reply = HttpReply {
            status,
            content_type: content_type.as_deref(),
            body: &body,
        };
        Phase::Reply(decoder.decode_http(&reply))
    }
}

/// Where a streamed body's bytes come from: the response on the wire, or a test's script.
pub(super) trait Chunks: Send {
    /// The body's next bytes; `None` at its end; when the connection broke, why (with the
    /// causes).
    fn next_chunk(&mut self) -> impl Future<Output = Result<Option<Bytes>, String>> + Send;
}

impl Chunks for reqwest::Response {
    async fn next_chunk(&mut self) -> Result<Option<Bytes>, String> {
        self.chunk().await.map_err(|e| chain(&e))
    }
}

/// What a streamed body did next, as the [`Reader`] takes it.
#[derive(Debug)]
pub(super) enum Arrival {
    /// Bytes arrived.
    Bytes(Bytes),
    /// The body ended.
    End,
    /// The connection broke: why.
    Broken(String),
    /// No byte arrived within the idle timeout.
    Idle(Duration),
}

impl Arrival {
    /// What `body` does next, waiting at most `idle` for it.
    async fn of(body: &mut impl Chunks, idle: Option<Duration>) -> Arrival {
        let chunk = match idle {
            Some(idle) => match tokio::time::timeout(idle, body.next_chunk()).await {
                Ok(chunk) => chunk,
                Err(_) => return Arrival::Idle(idle),
            },
            None => body.next_chunk().await,
        };
        match chunk {
            Ok(Some(bytes)) => Arrival::Bytes(bytes),
            Ok(None) => Arrival::End,
            Err(why) => Arrival::Broken(why),
        }
    }
}

/// The reading of one SSE body: its decoder, the items decoded and not yet handed out, and what
/// a failure reports (how many events were handed out, how many bytes read). Sans-IO but for
/// [`Reader::next`], which only waits for the body's next [`Arrival`].
pub(super) struct Reader<T, A, E> {
    decoder: StreamDecoder<T, A, E>,
    /// How failures name the call (`POST http://a/ (SendStreamingMessage)`).
    what: String,
    /// Items decoded from the last bytes, not yet handed out.
    pending: VecDeque<Item<T, A, E>>,
    /// Items handed out.
    events: usize,
    /// Bytes read.
    bytes: usize,
    /// Whether the body has ended (well or not): nothing more is read.
    ended: bool,
}

impl<T, A, E> Reader<T, A, E>
where
    T: DeserializeOwned,
    A: ErrorTable,
    E: AgentError,
{
    pub(super) fn new(decoder: StreamDecoder<T, A, E>, what: String) -> Self {
        Reader {
            decoder,
            what,
            pending: VecDeque::new(),
            events: 0,
            bytes: 0,
            ended: false,
        }
    }

    /// The next item: one already decoded, else one from what `body` does next (waiting at most
    /// `idle` each time); `None` once the body has ended.
    pub(super) async fn next(
        &mut self,
        body: &mut impl Chunks,
        idle: Option<Duration>,
    ) -> Option<Item<T, A, E>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                self.events += 1;
                return Some(item);
            }
            if self.ended {
                return None;
            }
            if let Some(last) = self.take(Arrival::of(body, idle).await) {
                return Some(last);
            }
        }
    }

    /// Takes what the body did: bytes are decoded into items to hand out; its end, a broken
    /// connection or an idle timeout ends the reading, with a last item saying why when it
    /// ended badly.
    pub(super) fn take(&mut self, arrival: Arrival) -> Option<Item<T, A, E>> {
        match arrival {
            Arrival::Bytes(chunk) => {
                self.bytes += chunk.len();
                self.pending.extend(self.decoder.feed(&chunk));
                None
            }
            Arrival::End => {
                self.ended = true;
                self.finish().err().map(Err)
            }
            Arrival::Broken(why) => {
                self.ended = true;
                Some(Err(self.failure(
                    format!(
                        "broke off after {} event(s) and {} bytes: {why}",
                        self.events, self.bytes
                    ),
                    ClientErrorKind::Interrupted,
                )))
            }
            Arrival::Idle(idle) => {
                self.ended = true;
                Some(Err(self.failure(
                    format!(
                        "was idle for longer than its idle timeout of {idle:?}, after {} \
                         event(s) and {} bytes",
                        self.events, self.bytes
                    ),
                    ClientErrorKind::IdleTimeout,
                )))
            }
        }
    }

    /// The body's end: an error when it stopped inside an event (the stream is truncated).
    fn finish(&mut self) -> Result<(), CallError<A, E>> {
        self.decoder.finish().map_err(|e| match e {
            CallError::Malformed(e) => self.failure(
                format!(
                    "is truncated after {} event(s): {}",
                    self.events,
                    e.reason()
                ),
                ClientErrorKind::Interrupted,
            ),
            other => other,
        })
    }

    /// The client error of a stream that `what` happened to.
    fn failure(&self, what: String, kind: ClientErrorKind) -> CallError<A, E> {
        CallError::Malformed(
            ClientError::new(format!("{}: the stream {what}", self.what)).with_kind(kind),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Decoder;
    use crate::limits::Limits;
    use crate::table::ErrorRow;
    use crate::version::Binding;
    use serde_json::{json, Value};

    /// An error table with no rows: every code is its catch-all, kept as received.
    #[derive(Clone, Debug, PartialEq)]
    struct Table {
        code: i64,
        message: String,
        data: Option<Value>,
    }

    impl ErrorTable for Table {
        fn from_code(code: i64, message: Option<String>, data: Option<Value>) -> Self {
            let message = message.unwrap_or_default();
            Table {
                code,
                message,
                data,
            }
        }
        fn code(&self) -> i64 {
            self.code
        }
        fn message(&self) -> &str {
            &self.message
        }
        fn data(&self) -> Option<&Value> {
            self.data.as_ref()
        }
        fn data_mut(&mut self) -> &mut Option<Value> {
            &mut self.data
        }
        fn row(&self) -> Option<&'static ErrorRow> {
            None
        }
        fn rows() -> &'static [ErrorRow] {
            &[]
        }
        fn is_code_taken(_: i64) -> bool {
            false
        }
    }

    /// One thing a scripted body does.
    enum Step {
        Bytes(&'static [u8]),
        Break(&'static str),
        /// Never yields again.
        Stall,
    }

    /// A body that does what its script says, then ends.
    struct Script(VecDeque<Step>);

    impl Chunks for Script {
        async fn next_chunk(&mut self) -> Result<Option<Bytes>, String> {
            match self.0.pop_front() {
                None => Ok(None),
                Some(Step::Bytes(bytes)) => Ok(Some(Bytes::from_static(bytes))),
                Some(Step::Break(why)) => Err(why.to_owned()),
                Some(Step::Stall) => std::future::pending().await,
            }
        }
    }

    const WHAT: &str = "POST http://agent.test/ (SendStreamingMessage)";

    type TestReader = Reader<Value, Table, NoCustomErrors>;

    fn reader(binding: Binding, limits: Limits) -> TestReader {
        let decoder = Decoder::<Table>::new().binding(binding).limits(limits);
        Reader::new(decoder.stream(), WHAT.to_owned())
    }

    /// Every item `reader` gives while reading `script`, to its end.
    async fn read_all(
        mut reader: TestReader,
        script: impl IntoIterator<Item = Step>,
        idle: Option<Duration>,
    ) -> Vec<Item<Value, Table, NoCustomErrors>> {
        let mut body = Script(script.into_iter().collect());
        let mut items = Vec::new();
        while let Some(item) = reader.next(&mut body, idle).await {
            items.push(item);
        }
        // Once ended, the reader stays ended and reads nothing more.
        assert!(reader.next(&mut body, idle).await.is_none());
        items
    }

    fn failed(reason: &str, kind: ClientErrorKind) -> Item<Value, Table, NoCustomErrors> {
        Err(CallError::Malformed(
            ClientError::new(reason).with_kind(kind),
        ))
    }

    const EVENT: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":1}}\n\n";

    #[test]
    fn an_event_split_across_chunks_is_one_item_once_complete() {
        let mut reader = reader(Binding::JsonRpc, Limits::DEFAULT);
        let first = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"res";
        assert!(reader
            .take(Arrival::Bytes(Bytes::from_static(first)))
            .is_none());
        assert!(reader
            .take(Arrival::Bytes(Bytes::from_static(b"ult\":{\"n\":7}}\r")))
            .is_none());
        assert!(reader.pending.is_empty(), "no item before the event ends");
        // The CR above and this LF are one line end; the blank line ends the event.
        assert!(reader
            .take(Arrival::Bytes(Bytes::from_static(b"\n\r\n")))
            .is_none());
        assert_eq!(reader.pending.len(), 1);
        assert_eq!(reader.bytes, first.len() + 14 + 3);
        assert!(
            reader.take(Arrival::End).is_none(),
            "a clean end has no item"
        );
        assert!(reader.ended);
    }

    #[tokio::test]
    async fn an_event_split_across_chunks_reads_as_one_event() {
        let items = read_all(
            reader(Binding::JsonRpc, Limits::DEFAULT),
            [
                Step::Bytes(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"res"),
                Step::Bytes(b"ult\":{\"n\":7}}\n"),
                Step::Bytes(b"\n"),
                Step::Bytes(EVENT),
            ],
            None,
        )
        .await;
        assert_eq!(items, [Ok(json!({"n": 7})), Ok(json!({"n": 1}))]);
    }

    #[tokio::test]
    async fn a_connection_dropped_mid_event_ends_the_stream_interrupted() {
        let partial: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{";
        let items = read_all(
            reader(Binding::JsonRpc, Limits::DEFAULT),
            [
                Step::Bytes(EVENT),
                Step::Bytes(partial),
                Step::Break("error decoding response body: connection reset"),
                Step::Bytes(EVENT),
            ],
            None,
        )
        .await;
        let reason = format!(
            "{WHAT}: the stream broke off after 1 event(s) and {} bytes: error decoding \
             response body: connection reset",
            EVENT.len() + partial.len()
        );
        assert_eq!(
            items,
            [
                Ok(json!({"n": 1})),
                failed(&reason, ClientErrorKind::Interrupted)
            ]
        );
    }

    #[tokio::test]
    async fn a_body_that_ends_mid_event_is_truncated() {
        let items = read_all(
            reader(Binding::JsonRpc, Limits::DEFAULT),
            [Step::Bytes(EVENT), Step::Bytes(b"data: {\"jsonrpc\"")],
            None,
        )
        .await;
        let reason = format!(
            "{WHAT}: the stream is truncated after 1 event(s): event stream ended in the \
             middle of an event"
        );
        assert_eq!(
            items,
            [
                Ok(json!({"n": 1})),
                failed(&reason, ClientErrorKind::Interrupted)
            ]
        );
    }

    #[tokio::test]
    async fn an_error_event_is_the_agents_typed_error() {
        // JSON-RPC: an error response as an event.
        let items = read_all(
            reader(Binding::JsonRpc, Limits::DEFAULT),
            [
                Step::Bytes(EVENT),
                Step::Bytes(
                    b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\
                      \"message\":\"Task not found\"}}\n\n",
                ),
            ],
            None,
        )
        .await;
        let not_found = Table {
            code: -32001,
            message: "Task not found".to_owned(),
            data: None,
        };
        assert_eq!(
            items,
            [Ok(json!({"n": 1})), Err(CallError::Agent(not_found))]
        );

        // HTTP+JSON: an event named `error` carrying a Status; its code stands for the status.
        let status = json!({"error": {"code": 404, "status": "NOT_FOUND", "message": "gone"}});
        let items = read_all(
            reader(Binding::HttpJson, Limits::DEFAULT),
            [
                Step::Bytes(b"data: {\"n\":1}\n\n"),
                Step::Bytes(
                    b"event: error\ndata: {\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\
                      \"message\":\"gone\"}}\n\n",
                ),
            ],
            None,
        )
        .await;
        let gone = Table {
            code: 404,
            message: "gone".to_owned(),
            data: Some(status),
        };
        assert_eq!(items, [Ok(json!({"n": 1})), Err(CallError::Agent(gone))]);
    }

    #[tokio::test]
    async fn an_oversized_event_is_malformed_and_the_next_one_still_reads() {
        let limits = Limits::DEFAULT.with_max_body_bytes(64);
        let items = read_all(
            reader(Binding::JsonRpc, limits),
            [
                Step::Bytes(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\""),
                Step::Bytes(b"far too long for a limit of sixty-four bytes\"}}\n\n"),
                Step::Bytes(EVENT),
            ],
            None,
        )
        .await;
        let reason = "event stream event exceeds the limit of 64 bytes; skipped to the next \
                      blank line";
        assert_eq!(
            items,
            [
                failed(reason, ClientErrorKind::Malformed),
                Ok(json!({"n": 1}))
            ]
        );
    }

    #[tokio::test]
    async fn a_stream_idle_past_its_timeout_ends_with_the_idle_timeout() {
        let idle = Duration::from_millis(20);
        let items = read_all(
            reader(Binding::JsonRpc, Limits::DEFAULT),
            [
                Step::Bytes(EVENT),
                Step::Bytes(b": keep-alive\n"),
                Step::Stall,
            ],
            Some(idle),
        )
        .await;
        let reason = format!(
            "{WHAT}: the stream was idle for longer than its idle timeout of 20ms, after 1 \
             event(s) and {} bytes",
            EVENT.len() + 13
        );
        assert_eq!(
            items,
            [
                Ok(json!({"n": 1})),
                failed(&reason, ClientErrorKind::IdleTimeout)
            ]
        );
    }

    #[tokio::test]
    async fn a_response_body_is_read_through_its_chunks() {
        // The same reader on a reqwest response (its body a stream that breaks off): the
        // response's own error, with its causes, is the reason.
        let chunks: Vec<Result<&'static [u8], std::io::Error>> = vec![
            Ok(EVENT),
            Ok(b"data: {"),
            Err(std::io::Error::other("connection reset")),
        ];
        let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
        let mut response = reqwest::Response::from(http::Response::new(body));
        let mut reader = reader(Binding::JsonRpc, Limits::DEFAULT);
        let first = reader.next(&mut response, None).await;
        assert_eq!(first, Some(Ok(json!({"n": 1}))));
        let Some(Err(CallError::Malformed(e))) = reader.next(&mut response, None).await else {
            panic!("the stream did not fail");
        };
        assert_eq!(e.kind(), ClientErrorKind::Interrupted);
        let prefix = format!(
            "{WHAT}: the stream broke off after 1 event(s) and {} bytes: ",
            EVENT.len() + 7
        );
        assert!(e.reason().starts_with(&prefix), "{}", e.reason());
        assert!(e.reason().ends_with("connection reset"), "{}", e.reason());
        assert!(reader.next(&mut response, None).await.is_none());
    }
}
