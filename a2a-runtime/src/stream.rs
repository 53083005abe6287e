//! A streamed reply: SSE framing ([`super::sse`]) plus the envelope contract
//! ([`super::envelope`]) applied to every event's data.
//!
//! Each event's `data` is one JSON-RPC response; it decodes exactly as a unary body would (the
//! event's `event:` name does not matter: agents name error events differently, and the body says
//! what it is). An event whose data held invalid UTF-8 is malformed, not silently repaired.

use super::envelope::{decode_response_str, ClientError, Envelope};
use super::limits::Limits;
use super::sse::{SseDecoder, SseError, SseEvent};
use serde::de::DeserializeOwned;
use std::marker::PhantomData;

/// Incremental decoder of a streamed reply: feed bytes as they arrive, in any chunking.
///
/// ```
/// use a2a_runtime::envelope::Envelope;
/// use a2a_runtime::stream::EventStream;
///
/// let mut stream = EventStream::<serde_json::Value>::new();
/// let mut items = stream.feed(b"data: {\"result\": {\"a\"");
/// items.extend(stream.feed(b": 1}}\n\ndata: {\"error\": {\"code\": -32603}}\n\n"));
/// assert!(matches!(items[0], Ok(Envelope::Result(_))));
/// assert!(matches!(items[1], Ok(Envelope::Error(_))));
/// assert!(stream.finish().is_ok());
/// ```
#[derive(Debug, Default)]
pub struct EventStream<T> {
    events: Events,
    result: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> EventStream<T> {
    /// A decoder for a new stream.
    pub fn new() -> Self {
        EventStream::with_limits(Limits::DEFAULT)
    }

    /// A decoder whose events may be at most `limits.max_body_bytes()` long (counted as the SSE
    /// framing buffers them) and nest at most `limits.max_depth()` deep.
    pub fn with_limits(limits: Limits) -> Self {
        EventStream {
            events: Events::with_limits(limits),
            result: PhantomData,
        }
    }

    /// Feeds the next bytes; returns the items of every event they complete, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Envelope<T>, ClientError>> {
        self.feed_map(chunk, |item| item)
    }

    /// Like [`EventStream::feed`], passing each item through `f` on the way out, so that a caller
    /// converting items (generated code maps them to its typed errors) allocates one list, not two.
    pub fn feed_map<U>(
        &mut self,
        chunk: &[u8],
        mut f: impl FnMut(Result<Envelope<T>, ClientError>) -> U,
    ) -> Vec<U> {
        self.events.feed_map(chunk, |event| {
            f(event.and_then(|e| decode_response_str(&e.data)))
        })
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), ClientError> {
        self.events.finish()
    }
}

/// SSE framing with what every streamed reply checks before it reads an event's data, whatever
/// the binding: the JSON-RPC [`EventStream`] and the REST binding's `rest::RestStreamDecoder`.
#[derive(Debug, Default)]
pub(crate) struct Events {
    sse: SseDecoder,
    /// Framed events of the current chunk; kept to reuse its allocation.
    framed: Vec<Result<SseEvent, SseError>>,
    limits: Limits,
}

impl Events {
    pub(crate) fn with_limits(limits: Limits) -> Self {
        Events {
            sse: SseDecoder::with_max_event_bytes(limits.max_body_bytes()),
            framed: Vec::new(),
            limits,
        }
    }

    /// Feeds the next bytes; passes each event they complete, checked, through `f`, in order.
    /// An event with no data carries nothing and is skipped, as a2a-sdk's SSE reader does (for
    /// both bindings); one whose data held invalid UTF-8 or is over the limits is an error.
    pub(crate) fn feed_map<U>(
        &mut self,
        chunk: &[u8],
        f: impl FnMut(Result<SseEvent, ClientError>) -> U,
    ) -> Vec<U> {
        self.sse.feed_into(chunk, &mut self.framed);
        let limits = self.limits;
        self.framed
            .drain(..)
            .filter(|item| !matches!(item, Ok(event) if event.data.is_empty()))
            .map(|item| check_event(item, &limits))
            .map(f)
            .collect()
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub(crate) fn finish(&mut self) -> Result<(), ClientError> {
        self.sse.finish().map_err(sse_error)
    }
}

fn check_event(item: Result<SseEvent, SseError>, limits: &Limits) -> Result<SseEvent, ClientError> {
    let event = item.map_err(sse_error)?;
    if event.had_invalid_utf8 {
        return Err(ClientError::new("an event's data is not valid UTF-8"));
    }
    // The size was bounded while framing; the depth is checked here.
    limits
        .check(event.data.as_bytes())
        .map_err(|reason| ClientError::new(reason.replace("the body", "an event's data")))?;
    Ok(event)
}

fn sse_error(e: SseError) -> ClientError {
    ClientError::new(e.to_string())
}
