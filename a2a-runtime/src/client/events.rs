//! SSE framing with the checks every streamed reply gets before its data is read.

use crate::client::error::ClientError;
use crate::limits::Limits;
use crate::sse::{SseDecoder, SseError, SseEvent};

/// SSE framing with what every streamed reply checks before it reads an event's data, whatever
/// the binding: the JSON-RPC [`EventStream`] and the REST binding's event decoder.
#[derive(Debug, Default)]
pub(crate) struct Events {
    sse: SseDecoder,
    /// Framed events of the current chunk; kept to reuse its allocation.
    framed: Vec<Result<SseEvent, SseError>>,
    limits: Limits,
}

impl Events {
    /// The id of the last event the stream named (`""` when none did): what a client resuming it
    /// sends as `Last-Event-ID`.
    pub(crate) fn last_event_id(&self) -> &str {
        self.sse.last_event_id()
    }

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
