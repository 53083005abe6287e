//! Incremental Server-Sent Events decoding, for A2A streaming responses
//! (`text/event-stream`).
//!
//! [`SseDecoder`] is a push-style decoder: give it the response body's bytes
//! as they arrive, in chunks split anywhere (inside a UTF-8 sequence, between
//! a `\r` and its `\n`, inside a field name), and it hands back every event
//! whose terminating blank line has arrived. It does no I/O, knows nothing of
//! HTTP or reconnection, and does not parse the `data` as JSON.
//!
//! ```
//! use a2a_runtime::sse::{SseDecoder, SseEvent};
//!
//! let mut decoder = SseDecoder::new();
//! let mut events = Vec::new();
//! for chunk in [&b"id: 7\r\ndata: {\"a\""[..], b":1}\r", b"\n\r\n: keep-alive\n"] {
//!     for item in decoder.feed(chunk) {
//!         events.push(item.unwrap());
//!     }
//! }
//! decoder.finish().unwrap(); // the stream ended at an event boundary
//!
//! assert_eq!(
//!     events,
//!     [SseEvent {
//!         event: "message".to_owned(),
//!         data: r#"{"a":1}"#.to_owned(),
//!         last_event_id: "7".to_owned(),
//!         had_invalid_utf8: false,
//!     }]
//! );
//! ```
//!
//! # Rules
//!
//! The decoder follows the WHATWG HTML
//! [event stream interpretation](https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)
//! and nothing else:
//!
//! * The stream is UTF-8. One U+FEFF byte order mark at the very start of the
//!   stream is dropped; one anywhere else is an ordinary character.
//! * A line ends with CRLF, LF, or CR alone, and with nothing else: U+0085
//!   (NEL), U+2028, U+2029, vertical tab, form feed and the other characters
//!   that, for example, Python's `str.splitlines` breaks on are ordinary
//!   characters. A CR at the end of one chunk and an LF at the start of the
//!   next are one line end.
//! * A blank line dispatches the event. A line starting with `:` is a
//!   comment. Any other line is a field: the name is everything before the
//!   first `:`, the value everything after it with one leading space removed;
//!   a line without a `:` is a name with an empty value.
//! * `data` appends the value and a `\n` to the data buffer; `event` sets the
//!   event type; `id` sets the last event ID unless the value contains U+0000;
//!   `retry` sets the reconnection time (milliseconds) if the value is ASCII
//!   digits only (an empty value is ignored; a value beyond `u64::MAX`
//!   saturates). Any other field is ignored.
//! * On dispatch, an empty data buffer dispatches nothing. Otherwise one
//!   trailing `\n` is removed and the event is produced with its type
//!   (`message` if none was set), its data and the last event ID. Either way
//!   the data and event type buffers are reset; the last event ID persists.
//! * When the stream ends, an event that no blank line has ended is
//!   discarded (its `id` and `retry` fields have taken effect already).
//!
//! # Additions to the rules
//!
//! None of these changes how an event within the size limit decodes; they
//! report what the spec silently tolerates, and bound memory:
//!
//! * Invalid UTF-8 is replaced with U+FFFD (as the spec's decoding does), and
//!   the event records it in [`SseEvent::had_invalid_utf8`], so that a caller
//!   can refuse an event whose JSON had invalid bytes.
//! * An event may buffer at most [`SseDecoder::max_event_bytes`] bytes (16 MiB
//!   by default); a larger one yields [`SseError::EventTooLarge`] and is
//!   skipped up to the next blank line.
//! * [`SseDecoder::finish`] reports a stream that ended inside an event
//!   ([`SseError::UnterminatedEvent`]), which the spec discards without a
//!   word.
//!
//! # Why hand-written
//!
//! No SSE crate we found is a pure push-style byte decoder that meets all of
//! the above (a CR/LF pair split across chunks, no extra line ends, a bounded
//! event size, reporting invalid UTF-8), and the codec layer of this crate
//! carries no async runtime or HTTP stack for one to sit on. The rules are
//! short enough to implement directly (`memchr` finds the line ends).

use std::fmt;

/// The default for [`SseDecoder::max_event_bytes`]: 16 MiB.
///
/// ```
/// use a2a_runtime::sse::{SseDecoder, DEFAULT_MAX_EVENT_BYTES};
///
/// assert_eq!(DEFAULT_MAX_EVENT_BYTES, 16 * 1024 * 1024);
/// assert_eq!(SseDecoder::new().max_event_bytes(), DEFAULT_MAX_EVENT_BYTES);
/// ```
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// U+FEFF in UTF-8.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// The event type of an event without an `event` field.
const DEFAULT_EVENT_TYPE: &str = "message";

/// One dispatched event.
///
/// ```
/// use a2a_runtime::sse::SseDecoder;
///
/// let mut decoder = SseDecoder::new();
/// let items = decoder.feed(b"event: status\nid: 42\ndata: line 1\ndata: line 2\n\n");
/// let event = items[0].as_ref().unwrap();
/// assert_eq!(event.event, "status");
/// assert_eq!(event.data, "line 1\nline 2");
/// assert_eq!(event.last_event_id, "42");
/// assert!(!event.had_invalid_utf8);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SseEvent {
    /// The event type: the last `event` field's value, or `message` when the
    /// event had none (or an empty one).
    pub event: String,
    /// The `data` field values joined with `\n`.
    pub data: String,
    /// The stream's last event ID when the event was dispatched: set by the
    /// latest `id` field so far, in this event or an earlier one. Empty when
    /// no `id` field has set it (or one set it to the empty string).
    pub last_event_id: String,
    /// Whether a `data`, `event` or `id` value of this event held invalid
    /// UTF-8, which was replaced with U+FFFD.
    pub had_invalid_utf8: bool,
}

/// What went wrong in a stream. The decoder keeps going after either error.
///
/// ```
/// use a2a_runtime::sse::{SseDecoder, SseError};
///
/// let mut decoder = SseDecoder::with_max_event_bytes(8);
/// let items = decoder.feed(b"data: far too long\n\ndata: ok\n\n");
/// assert_eq!(items[0], Err(SseError::EventTooLarge { limit: 8 }));
/// assert_eq!(items[1].as_ref().unwrap().data, "ok");
///
/// decoder.feed(b"data: cut off");
/// let err = decoder.finish().unwrap_err();
/// assert_eq!(err, SseError::UnterminatedEvent);
/// assert_eq!(err.to_string(), "event stream ended in the middle of an event");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SseError {
    /// An event needed more than `limit` bytes of buffer (see
    /// [`SseDecoder::max_event_bytes`]). It was dropped, and the rest of it,
    /// up to the next blank line, is skipped; `id` and `retry` fields in that
    /// rest still take effect. Returned once per event, by the feed call
    /// during which the limit was crossed.
    EventTooLarge {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// The stream ended inside an event: after a `data`, `event`, `id` or
    /// `retry` line that no blank line followed, or inside a line that could
    /// still have become one. A final comment or ignored field, ended or not,
    /// does not count. As the spec requires, that event was not dispatched.
    /// Returned by [`SseDecoder::finish`].
    UnterminatedEvent,
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseError::EventTooLarge { limit } => write!(
                f,
                "event stream event exceeds the limit of {limit} bytes; skipped to the next blank line"
            ),
            SseError::UnterminatedEvent => {
                f.write_str("event stream ended in the middle of an event")
            }
        }
    }
}

impl std::error::Error for SseError {}

/// The fields the spec acts on; everything else is [`Field::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
    Other,
}

impl Field {
    fn from_name(name: &[u8]) -> Field {
        match name {
            b"data" => Field::Data,
            b"event" => Field::Event,
            b"id" => Field::Id,
            b"retry" => Field::Retry,
            _ => Field::Other,
        }
    }

    /// The field of a line of which only `line` followed by `more` has
    /// arrived, once that is decided: when a `:` has arrived, or when the
    /// name so far is not the start of a name in [`Field::from_name`].
    fn of_partial_line(line: &[u8], more: &[u8]) -> Option<Field> {
        const NAMES: [&[u8]; 4] = [b"data", b"event", b"id", b"retry"];
        let mut name = [0u8; 5];
        for (i, &b) in line.iter().chain(more).enumerate() {
            if b == b':' {
                return Some(Field::from_name(&name[..i]));
            }
            if i == name.len() {
                return Some(Field::Other);
            }
            name[i] = b;
            if !NAMES.iter().any(|known| known.starts_with(&name[..=i])) {
                return Some(Field::Other);
            }
        }
        None
    }
}

/// An incremental `text/event-stream` decoder; see the [module
/// documentation](self) for the rules it follows.
///
/// Feed it bytes with [`feed`](Self::feed) or [`feed_into`](Self::feed_into)
/// and call [`finish`](Self::finish) at the end of the stream. Each feed call
/// returns the events (and errors) completed by that chunk, in stream order.
/// How the stream is split into chunks changes only which call returns an
/// item: never the items, their order, or what `finish` reports.
///
/// After `finish`, the decoder is ready for the stream of a reconnection: it
/// keeps [`last_event_id`](Self::last_event_id) (to send as `Last-Event-ID`)
/// and [`retry`](Self::retry), and forgets everything else.
///
/// ```
/// use a2a_runtime::sse::SseDecoder;
///
/// let mut decoder = SseDecoder::new();
/// // Split inside "data", inside "é" (C3 A9) and between CR and LF.
/// let chunks: [&[u8]; 4] = [b"retry: 3000\nda", b"ta: caf\xC3", b"\xA9\r", b"\n\r\n"];
/// let mut items = Vec::new();
/// for chunk in chunks {
///     decoder.feed_into(chunk, &mut items);
/// }
/// assert_eq!(items.len(), 1);
/// assert_eq!(items[0].as_ref().unwrap().data, "café");
/// assert_eq!(decoder.retry(), Some(3000));
/// assert!(decoder.finish().is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct SseDecoder {
    max_event_bytes: usize,
    /// While at the start of the stream: how many bytes of a BOM have been
    /// matched (and held back). `None` once past the start.
    bom_matched: Option<usize>,
    /// The last chunk ended with a CR, so an LF first in the next chunk
    /// belongs to that line end.
    pending_cr: bool,
    /// The start of a line whose end has not arrived yet (empty while
    /// `discard_line`).
    line: Vec<u8>,
    /// The rest of the current line is dropped: it is a comment or a field
    /// that is ignored, or it made the event too large.
    discard_line: bool,
    data: String,
    event_type: String,
    last_event_id: String,
    retry: Option<u64>,
    /// A value of the current event held invalid UTF-8.
    had_invalid_utf8: bool,
    /// A `data`, `event`, `id` or `retry` line has come since the last blank
    /// line.
    in_event: bool,
    /// The current event exceeded the limit and the rest of it is skipped.
    skipping: bool,
}

impl Default for SseDecoder {
    /// Same as [`SseDecoder::new`].
    fn default() -> Self {
        SseDecoder::new()
    }
}

impl SseDecoder {
    /// A decoder at the start of a stream, with the default limit of
    /// [`DEFAULT_MAX_EVENT_BYTES`].
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// let decoder = SseDecoder::new();
    /// assert_eq!(decoder.last_event_id(), "");
    /// assert_eq!(decoder.retry(), None);
    /// ```
    pub fn new() -> Self {
        SseDecoder::with_max_event_bytes(DEFAULT_MAX_EVENT_BYTES)
    }

    /// A decoder at the start of a stream that buffers at most
    /// `max_event_bytes` per event (see [`max_event_bytes`](Self::max_event_bytes)).
    ///
    /// ```
    /// use a2a_runtime::sse::{SseDecoder, SseError};
    ///
    /// let mut decoder = SseDecoder::with_max_event_bytes(1024);
    /// let big = format!("data: {}\n\n", "x".repeat(2000));
    /// assert_eq!(
    ///     decoder.feed(big.as_bytes()),
    ///     [Err(SseError::EventTooLarge { limit: 1024 })]
    /// );
    /// ```
    pub fn with_max_event_bytes(max_event_bytes: usize) -> Self {
        SseDecoder {
            max_event_bytes,
            bom_matched: Some(0),
            pending_cr: false,
            line: Vec::new(),
            discard_line: false,
            data: String::new(),
            event_type: String::new(),
            last_event_id: String::new(),
            retry: None,
            had_invalid_utf8: false,
            in_event: false,
            skipping: false,
        }
    }

    /// The most an event may buffer, in bytes: its data (with the `\n` after
    /// each `data` line) and its event type, plus the line being received if
    /// that line is a `data`, `event`, `id` or `retry` field (name and all).
    /// Comments and ignored fields are never buffered and never count.
    ///
    /// An event that would need more yields [`SseError::EventTooLarge`]
    /// instead, and the decoder skips to the next blank line, so memory stays
    /// bounded whatever the stream holds. The last event ID is kept apart
    /// and is bounded by this limit through its line.
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// // "data: abc" is 9 bytes while it arrives; the buffered data is "abc\n".
    /// assert!(SseDecoder::with_max_event_bytes(9).feed(b"data: abc\n\n")[0].is_ok());
    /// assert!(SseDecoder::with_max_event_bytes(8).feed(b"data: abc\n\n")[0].is_err());
    /// ```
    pub fn max_event_bytes(&self) -> usize {
        self.max_event_bytes
    }

    /// The last event ID: the value of the latest `id` field (without
    /// U+0000) so far, or empty. It survives [`finish`](Self::finish), to
    /// be sent as `Last-Event-ID` when reconnecting (if not empty).
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// decoder.feed(b"id: 5\ndata: x\n\nid: 6\n\n");
    /// assert_eq!(decoder.last_event_id(), "6"); // set even though no event followed
    /// ```
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// The reconnection time in milliseconds from the latest valid `retry`
    /// field, if any. It survives [`finish`](Self::finish).
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// decoder.feed(b"retry: 2500\nretry: soon\n\n");
    /// assert_eq!(decoder.retry(), Some(2500)); // "soon" is not digits: ignored
    /// ```
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Decodes the next chunk of the stream and returns the events (and
    /// errors) it completed, in stream order. A convenience for
    /// [`feed_into`](Self::feed_into), which can reuse one vector.
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// assert!(decoder.feed(b"data: hel").is_empty());
    /// let items = decoder.feed(b"lo\n\n");
    /// assert_eq!(items[0].as_ref().unwrap().data, "hello");
    /// ```
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<SseEvent, SseError>> {
        let mut out = Vec::new();
        self.feed_into(chunk, &mut out);
        out
    }

    /// Decodes the next chunk of the stream and appends the events (and
    /// errors) it completed to `out`, in stream order.
    ///
    /// ```
    /// use a2a_runtime::sse::SseDecoder;
    ///
    /// let mut decoder = SseDecoder::new();
    /// let mut out = Vec::new();
    /// for chunk in [&b"data: 1\n\nda"[..], b"ta: 2\n", b"\n"] {
    ///     out.clear();
    ///     decoder.feed_into(chunk, &mut out);
    ///     for item in &out {
    ///         println!("{}", item.as_ref().unwrap().data);
    ///     }
    /// }
    /// ```
    pub fn feed_into(&mut self, chunk: &[u8], out: &mut Vec<Result<SseEvent, SseError>>) {
        let mut chunk = chunk;
        if let Some(mut matched) = self.bom_matched {
            while matched < BOM.len() {
                let Some((&byte, rest)) = chunk.split_first() else {
                    self.bom_matched = Some(matched);
                    return;
                };
                if byte != BOM[matched] {
                    // Not a BOM after all: what was held back is stream data.
                    self.bom_matched = None;
                    self.feed_lines(&BOM[..matched], out);
                    self.feed_lines(chunk, out);
                    return;
                }
                matched += 1;
                chunk = rest;
            }
            self.bom_matched = None;
        }
        self.feed_lines(chunk, out);
    }

    /// Ends the stream. Returns [`SseError::UnterminatedEvent`] if it ended
    /// inside an event (see that variant), which is discarded, as it is in
    /// any case: only a blank line dispatches. A final comment or ignored
    /// field, ended or not, does not count.
    ///
    /// The decoder is then ready for a new stream (a reconnection's): a BOM
    /// at its start is dropped again, and [`last_event_id`](Self::last_event_id),
    /// [`retry`](Self::retry) and the limit are kept.
    ///
    /// ```
    /// use a2a_runtime::sse::{SseDecoder, SseError};
    ///
    /// let mut decoder = SseDecoder::new();
    /// decoder.feed(b"id: 1\ndata: complete\n\nid: 2\ndata: incompl");
    /// assert_eq!(decoder.finish(), Err(SseError::UnterminatedEvent));
    /// assert_eq!(decoder.last_event_id(), "2");
    ///
    /// // The reconnected stream.
    /// let items = decoder.feed(b"\xEF\xBB\xBFdata: again\n\n");
    /// assert_eq!(items[0].as_ref().unwrap().data, "again");
    /// assert_eq!(decoder.finish(), Ok(()));
    /// ```
    pub fn finish(&mut self) -> Result<(), SseError> {
        let held_bom = matches!(self.bom_matched, Some(n) if n > 0);
        let mid_event = self.in_event || self.skipping || held_bom || !self.line.is_empty();
        *self = SseDecoder {
            last_event_id: std::mem::take(&mut self.last_event_id),
            retry: self.retry,
            // Keep the buffers' capacity for the next stream.
            line: std::mem::take(&mut self.line),
            data: std::mem::take(&mut self.data),
            event_type: std::mem::take(&mut self.event_type),
            ..SseDecoder::with_max_event_bytes(self.max_event_bytes)
        };
        self.line.clear();
        self.data.clear();
        self.event_type.clear();
        if mid_event {
            Err(SseError::UnterminatedEvent)
        } else {
            Ok(())
        }
    }

    /// Splits `bytes` (past any BOM) into lines.
    fn feed_lines(&mut self, mut rest: &[u8], out: &mut Vec<Result<SseEvent, SseError>>) {
        if self.pending_cr {
            let Some((&first, after)) = rest.split_first() else {
                return;
            };
            self.pending_cr = false;
            if first == b'\n' {
                rest = after;
            }
        }
        while let Some(i) = memchr::memchr2(b'\n', b'\r', rest) {
            let next = match (rest[i], rest.get(i + 1)) {
                (b'\r', Some(b'\n')) => i + 2,
                (b'\r', None) => {
                    self.pending_cr = true;
                    i + 1
                }
                _ => i + 1,
            };
            self.end_line(&rest[..i], out);
            rest = &rest[next..];
        }
        self.continue_line(rest, out);
    }

    /// The current line continues with `bytes` (no line end among them).
    fn continue_line(&mut self, bytes: &[u8], out: &mut Vec<Result<SseEvent, SseError>>) {
        if bytes.is_empty() || self.discard_line {
            return;
        }
        // `None`: the name is not known yet, so the line is at most 5 bytes.
        if let Some(field) = Field::of_partial_line(&self.line, bytes) {
            if !self.acts_on(field) {
                self.discard_line();
                return;
            }
            // The test `process_line` applies to the whole line; passing it
            // here implies passing it there, so chunking cannot matter.
            if self.buffered() + self.line.len() + bytes.len() > self.max_event_bytes {
                self.too_large(out);
                self.discard_line();
                return;
            }
        }
        self.line.extend_from_slice(bytes);
    }

    /// The current line ends with `tail`.
    fn end_line(&mut self, tail: &[u8], out: &mut Vec<Result<SseEvent, SseError>>) {
        if self.discard_line {
            self.discard_line = false;
        } else if self.line.is_empty() {
            self.process_line(tail, out);
        } else {
            let mut line = std::mem::take(&mut self.line);
            line.extend_from_slice(tail);
            self.process_line(&line, out);
            line.clear();
            self.line = line;
        }
    }

    fn discard_line(&mut self) {
        self.line.clear();
        self.discard_line = true;
    }

    /// Whether a line of `field` changes anything.
    fn acts_on(&self, field: Field) -> bool {
        match field {
            Field::Data | Field::Event => !self.skipping,
            Field::Id | Field::Retry => true,
            Field::Other => false,
        }
    }

    /// Bytes buffered for the current event, not counting a partial line.
    fn buffered(&self) -> usize {
        self.data.len() + self.event_type.len()
    }

    /// The current event is too large: report it (once) and skip the rest.
    fn too_large(&mut self, out: &mut Vec<Result<SseEvent, SseError>>) {
        if !self.skipping {
            out.push(Err(SseError::EventTooLarge {
                limit: self.max_event_bytes,
            }));
            self.skipping = true;
        }
        self.data.clear();
        self.event_type.clear();
        self.had_invalid_utf8 = false;
    }

    /// Interprets one complete line (without its line end).
    fn process_line(&mut self, line: &[u8], out: &mut Vec<Result<SseEvent, SseError>>) {
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        // A comment has the empty name, which is `Other`.
        let field = Field::from_name(name);
        if !self.acts_on(field) {
            return;
        }
        // Also applied, to the part received so far, while the line arrives
        // (`continue_line`): failing there implies failing here.
        if self.buffered() + line.len() > self.max_event_bytes {
            self.too_large(out);
            return;
        }
        self.in_event = true;
        match field {
            Field::Data => {
                self.had_invalid_utf8 |= push_lossy(&mut self.data, value);
                self.data.push('\n');
            }
            Field::Event => {
                self.event_type.clear();
                self.had_invalid_utf8 |= push_lossy(&mut self.event_type, value);
            }
            Field::Id => {
                if !value.contains(&0) {
                    self.last_event_id.clear();
                    self.had_invalid_utf8 |= push_lossy(&mut self.last_event_id, value);
                }
            }
            Field::Retry => {
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) {
                    self.retry = Some(value.iter().fold(0u64, |n, &d| {
                        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    }));
                }
            }
            Field::Other => {}
        }
        // Replacement characters can make decoded text longer than its bytes.
        if self.buffered() > self.max_event_bytes {
            self.too_large(out);
        }
    }

    /// A blank line: dispatch the event, if it has data, and reset.
    fn dispatch(&mut self, out: &mut Vec<Result<SseEvent, SseError>>) {
        let had_invalid_utf8 = std::mem::take(&mut self.had_invalid_utf8);
        self.in_event = false;
        self.skipping = false;
        if self.data.is_empty() {
            self.event_type.clear();
            return;
        }
        // Copy out rather than take the buffer: it keeps its capacity for the next event, which
        // is usually about as large (a taken buffer would regrow from nothing, event after event).
        let data = String::from(&self.data[..self.data.len() - 1]); // without the last `\n`
        self.data.clear();
        let event = if self.event_type.is_empty() {
            DEFAULT_EVENT_TYPE.to_owned()
        } else {
            std::mem::take(&mut self.event_type)
        };
        out.push(Ok(SseEvent {
            event,
            data,
            last_event_id: self.last_event_id.clone(),
            had_invalid_utf8,
        }));
    }
}

/// Appends `bytes` decoded as UTF-8, with U+FFFD for each maximal invalid
/// sequence (as the WHATWG decoder does); returns whether any was invalid.
fn push_lossy(dst: &mut String, bytes: &[u8]) -> bool {
    if let Ok(text) = std::str::from_utf8(bytes) {
        dst.push_str(text);
        return false;
    }
    for chunk in bytes.utf8_chunks() {
        dst.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            dst.push(char::REPLACEMENT_CHARACTER);
        }
    }
    true
}

/// The content type of an event stream.
pub const CONTENT_TYPE: &str = "text/event-stream";

/// One event a server sends: its `event:` name (`None` for the default, `message`) and its data,
/// one line of JSON. [`to_bytes`](ServerEvent::to_bytes) frames it for a body written by hand;
/// a framework's own SSE type (axum's `Event`) takes the name and the data as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerEvent {
    /// The event's name, when it is not the default.
    pub event: Option<&'static str>,
    /// The event's data.
    pub data: String,
}

impl ServerEvent {
    /// An event with the default name carrying `data` (JSON the encoders wrote: UTF-8, one line).
    pub(crate) fn json(event: Option<&'static str>, data: Vec<u8>) -> Self {
        let data = String::from_utf8(data)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        ServerEvent { event, data }
    }

    /// The event framed for the wire: its `event:` line when it has a name, one `data:` line per
    /// line of data, then a blank line.
    pub fn to_bytes(&self) -> Vec<u8> {
        let data = frame(self.data.as_bytes());
        match self.event {
            None => data,
            Some(name) => [b"event: ", name.as_bytes(), b"\n", &data].concat(),
        }
    }
}

/// Frames one SSE event whose data is `data`: one `data:` line per line of it, then a blank line.
/// The JSON the encoders write has no line breaks (strings escape them), so a response is one line.
///
/// ```
/// use a2a_runtime::sse::frame;
///
/// assert_eq!(frame(b"{\"a\":1}"), b"data: {\"a\":1}\n\n");
/// assert_eq!(frame(b"x\r\ny"), b"data: x\ndata: y\n\n");
/// ```
pub fn frame(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 8);
    let mut rest = data;
    loop {
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(&rest[..end]);
        out.push(b'\n');
        if end == rest.len() {
            break;
        }
        let skip = if rest[end..].starts_with(b"\r\n") {
            2
        } else {
            1
        };
        rest = &rest[end + skip..];
    }
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    type Item = Result<SseEvent, SseError>;

    fn ev(event: &str, data: &str, id: &str) -> SseEvent {
        SseEvent {
            event: event.to_owned(),
            data: data.to_owned(),
            last_event_id: id.to_owned(),
            had_invalid_utf8: false,
        }
    }

    fn msg(data: &str) -> SseEvent {
        ev("message", data, "")
    }

    /// Everything a decoder reports for a stream fed as `chunks`.
    #[derive(Debug, PartialEq)]
    struct Outcome {
        items: Vec<Item>,
        finish: Result<(), SseError>,
        last_event_id: String,
        retry: Option<u64>,
    }

    fn run_chunks(max: usize, chunks: &[&[u8]]) -> Outcome {
        let mut decoder = SseDecoder::with_max_event_bytes(max);
        let mut items = Vec::new();
        for chunk in chunks {
            decoder.feed_into(chunk, &mut items);
        }
        let last_event_id = decoder.last_event_id().to_owned();
        let retry = decoder.retry();
        Outcome {
            items,
            finish: decoder.finish(),
            last_event_id,
            retry,
        }
    }

    /// The events of a stream fed whole; panics on an error item.
    fn events(input: &[u8]) -> Vec<SseEvent> {
        events_chunked(&[input])
    }

    fn events_chunked(chunks: &[&[u8]]) -> Vec<SseEvent> {
        run_chunks(DEFAULT_MAX_EVENT_BYTES, chunks)
            .items
            .into_iter()
            .map(|item| item.expect("no error expected"))
            .collect()
    }

    /// A xorshift64 generator: deterministic pseudo-random numbers.
    struct Rng(u64);

    impl Rng {
        fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }

        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Uniform-ish in `0..n` (`n > 0`).
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Splits `input` at pseudo-random points; some splittings are all
    /// 1-byte chunks, and empty chunks occur too.
    fn random_chunks<'a>(input: &'a [u8], rng: &mut Rng) -> Vec<&'a [u8]> {
        let max_len = match rng.below(4) {
            0 => 1,
            1 => 4,
            2 => 16,
            _ => 64,
        };
        let mut chunks = Vec::new();
        let mut rest = input;
        while !rest.is_empty() {
            let len = if max_len == 1 {
                1
            } else {
                rng.below(max_len + 1).min(rest.len())
            };
            let (chunk, after) = rest.split_at(len);
            chunks.push(chunk);
            rest = after;
        }
        chunks
    }

    // ---- line ends ----

    #[test]
    fn lf_ends_lines() {
        assert_eq!(events(b"data: a\n\ndata: b\n\n"), [msg("a"), msg("b")]);
    }

    #[test]
    fn crlf_ends_lines() {
        assert_eq!(
            events(b"data: a\r\n\r\ndata: b\r\n\r\n"),
            [msg("a"), msg("b")]
        );
    }

    #[test]
    fn cr_alone_ends_lines() {
        assert_eq!(events(b"data: a\r\rdata: b\r\r"), [msg("a"), msg("b")]);
    }

    #[test]
    fn mixed_line_ends_in_one_stream() {
        assert_eq!(
            events(b"data: a\rdata: b\r\ndata: c\n\r\ndata: d\n\r"),
            [msg("a\nb\nc"), msg("d")]
        );
    }

    #[test]
    fn cr_at_chunk_end_then_lf_is_one_line_end() {
        // Were the LF a second line end, "data: a" would dispatch alone.
        assert_eq!(
            events_chunked(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]),
            [msg("a\nb")]
        );
        // Also with empty chunks between the CR and the LF.
        assert_eq!(
            events_chunked(&[b"data: a\r", b"", b"", b"\ndata: b\n\n"]),
            [msg("a\nb")]
        );
    }

    #[test]
    fn cr_at_chunk_end_then_other_byte() {
        assert_eq!(
            events_chunked(&[b"data: a\r", b"data: b\r", b"\r"]),
            [msg("a\nb")]
        );
        // A blank line made of a CR at a chunk end dispatches at once.
        let mut decoder = SseDecoder::new();
        assert!(decoder.feed(b"data: a\r").is_empty());
        assert_eq!(decoder.feed(b"\r"), [Ok(msg("a"))]);
    }

    #[test]
    fn lf_cr_is_two_line_ends() {
        assert_eq!(events(b"data: a\n\r"), [msg("a")]);
    }

    // ---- fields ----

    #[test]
    fn data_lines_join_with_lf_and_lose_one_trailing_lf() {
        assert_eq!(events(b"data: a\ndata: b\ndata: c\n\n"), [msg("a\nb\nc")]);
        assert_eq!(events(b"data: a\ndata\n\n"), [msg("a\n")]);
        assert_eq!(events(b"data\ndata\ndata\n\n"), [msg("\n\n")]);
    }

    #[test]
    fn data_without_colon_is_empty_value() {
        assert_eq!(events(b"data\n\n"), [msg("")]);
    }

    #[test]
    fn data_colon_without_space() {
        assert_eq!(events(b"data:x\n\n"), [msg("x")]);
        assert_eq!(events(b"data:\n\n"), [msg("")]);
    }

    #[test]
    fn only_one_leading_space_is_removed() {
        assert_eq!(events(b"data:  two spaces \n\n"), [msg(" two spaces ")]);
        assert_eq!(events(b"data:\tx\n\n"), [msg("\tx")]);
        assert_eq!(events(b"data: a: b\n\n"), [msg("a: b")]);
    }

    #[test]
    fn field_names_are_case_sensitive_and_exact() {
        assert_eq!(
            events(b"Data: a\ndata : b\n data: c\ndata: d\n\n"),
            [msg("d")]
        );
    }

    #[test]
    fn comments_are_ignored() {
        assert_eq!(
            events(b": hi\ndata: a\n:data: b\n:\ndata: c\n\n"),
            [msg("a\nc")]
        );
    }

    #[test]
    fn event_field_sets_type_and_resets_after_dispatch() {
        assert_eq!(
            events(b"event: first\nevent: update\ndata: a\n\ndata: b\n\nevent:\ndata: c\n\n"),
            [ev("update", "a", ""), msg("b"), msg("c")]
        );
    }

    #[test]
    fn id_field_sets_last_event_id_which_persists() {
        assert_eq!(
            events(b"id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 3\n\ndata: d\n\n"),
            [
                ev("message", "a", "1"),
                ev("message", "b", "1"),
                msg("c"),
                ev("message", "d", "3")
            ]
        );
    }

    #[test]
    fn id_containing_nul_is_ignored() {
        let out = run_chunks(
            DEFAULT_MAX_EVENT_BYTES,
            &[b"id: 1\n\nid: 2\x003\ndata: a\n\n"],
        );
        assert_eq!(out.items, [Ok(ev("message", "a", "1"))]);
        assert_eq!(out.last_event_id, "1");
    }

    #[test]
    fn id_applies_immediately_within_the_event() {
        assert_eq!(
            events(b"data: a\nid: 9\ndata: b\n\n"),
            [ev("message", "a\nb", "9")]
        );
    }

    #[test]
    fn retry_takes_ascii_digits_only() {
        let retry = |input: &[u8]| run_chunks(DEFAULT_MAX_EVENT_BYTES, &[input]).retry;
        assert_eq!(retry(b"retry: 1000\n"), Some(1000));
        assert_eq!(retry(b"retry:0042\n"), Some(42));
        assert_eq!(retry(b"retry: 1000\nretry: 10s\n"), Some(1000));
        assert_eq!(
            retry(b"retry: -1\nretry: 1.5\nretry:  5\nretry: \xD9\xA3\n"),
            None
        );
        assert_eq!(retry(b"retry:\nretry\n"), None);
        assert_eq!(retry(b"retry: 99999999999999999999999\n"), Some(u64::MAX));
        // Retry alone dispatches nothing.
        assert_eq!(events(b"retry: 5\n\n"), []);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        assert_eq!(
            events(b"foo: bar\nx\nretryx: 5\nevents: e\ndata: a\n\n"),
            [msg("a")]
        );
    }

    // ---- dispatch ----

    #[test]
    fn event_with_empty_data_buffer_is_not_dispatched() {
        assert_eq!(
            events(b"event: e\nid: 4\n\ndata: a\n\n"),
            [ev("message", "a", "4")]
        );
    }

    #[test]
    fn blank_lines_alone_dispatch_nothing() {
        assert_eq!(events(b"\n\n\r\n\r\r"), []);
        assert_eq!(events(b": c\n\n"), []);
    }

    // ---- BOM ----

    #[test]
    fn leading_bom_is_dropped() {
        assert_eq!(events(b"\xEF\xBB\xBFdata: a\n\n"), [msg("a")]);
        // Without the BOM being dropped, the first line's name is not "data".
        assert_eq!(events(b"\xEF\xBB\xBFdata: a\n\n").len(), 1);
    }

    #[test]
    fn leading_bom_split_across_chunks_is_dropped() {
        for chunks in [
            &[&b"\xEF"[..], b"\xBB\xBFdata: a\n\n"][..],
            &[b"\xEF\xBB", b"\xBFdata: a\n\n"],
            &[b"\xEF", b"\xBB", b"\xBF", b"data: a\n\n"],
            &[b"", b"\xEF", b"", b"\xBB\xBF", b"", b"data: a\n\n"],
        ] {
            assert_eq!(events_chunked(chunks), [msg("a")], "{chunks:?}");
        }
    }

    #[test]
    fn bom_after_the_start_is_data() {
        assert_eq!(
            events(b"data: a\n\ndata: \xEF\xBB\xBFb\n\n"),
            [msg("a"), msg("\u{FEFF}b")]
        );
        // A second BOM right after the first.
        assert_eq!(events(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n"), []);
        assert_eq!(
            events(b"\xEF\xBB\xBF\ndata:\xEF\xBB\xBF\n\n"),
            [msg("\u{FEFF}")]
        );
    }

    #[test]
    fn partial_bom_is_stream_data() {
        // EF BB then "d": the held-back bytes start the first line.
        let out = run_chunks(
            DEFAULT_MAX_EVENT_BYTES,
            &[b"\xEF\xBB", b"data: a\n\ndata: b\n\n"],
        );
        assert_eq!(out.items, [Ok(msg("b"))]);
        assert_eq!(
            run_chunks(DEFAULT_MAX_EVENT_BYTES, &[b"\xEF\xBB"]).finish,
            Err(SseError::UnterminatedEvent)
        );
    }

    // ---- characters that are not line ends ----

    #[test]
    fn unicode_line_separators_stay_in_data() {
        let input = "data: a\u{2028}b\u{2029}c\u{85}d\u{b}e\u{c}f\u{1c}g\u{1d}h\u{1e}i\n\n";
        assert_eq!(
            events(input.as_bytes()),
            [msg(
                "a\u{2028}b\u{2029}c\u{85}d\u{b}e\u{c}f\u{1c}g\u{1d}h\u{1e}i"
            )]
        );
        // The same with the raw NEL bytes split across chunks.
        assert_eq!(
            events_chunked(&[b"data: x\xC2", b"\x85y\n\n"]),
            [msg("x\u{85}y")]
        );
    }

    // ---- UTF-8 ----

    #[test]
    fn multibyte_char_split_across_chunks_decodes_intact() {
        let text = "data: é✓🚀\n\n".as_bytes();
        for split in 1..text.len() {
            let (a, b) = text.split_at(split);
            assert_eq!(events_chunked(&[a, b]), [msg("é✓🚀")], "split at {split}");
        }
        let bytes: Vec<&[u8]> = text.chunks(1).collect();
        assert_eq!(events_chunked(&bytes), [msg("é✓🚀")]);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_and_is_flagged() {
        let out = run_chunks(
            DEFAULT_MAX_EVENT_BYTES,
            &[b"data: a\xFFb\xE2\x82\ndata: c\n\ndata: fine\n\n"],
        );
        let mut bad = msg("a\u{FFFD}b\u{FFFD}\nc");
        bad.had_invalid_utf8 = true;
        assert_eq!(out.items, [Ok(bad), Ok(msg("fine"))]);
    }

    #[test]
    fn invalid_utf8_in_event_or_id_is_flagged() {
        let items = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[b"event: \xC0\ndata: a\n\n"]).items;
        assert_eq!(
            items,
            [Ok(SseEvent {
                had_invalid_utf8: true,
                ..ev("\u{FFFD}", "a", "")
            })]
        );
        let items = run_chunks(
            DEFAULT_MAX_EVENT_BYTES,
            &[b"id: \xFF\ndata: a\n\ndata: b\n\n"],
        )
        .items;
        assert_eq!(
            items,
            [
                Ok(SseEvent {
                    had_invalid_utf8: true,
                    ..ev("message", "a", "\u{FFFD}")
                }),
                Ok(ev("message", "b", "\u{FFFD}")),
            ]
        );
    }

    #[test]
    fn invalid_utf8_in_ignored_lines_is_not_flagged() {
        assert_eq!(
            events(b": \xFF\nx\xFF: 1\nretry: \xFF\ndata: a\n\n"),
            [msg("a")]
        );
    }

    #[test]
    fn invalid_utf8_split_across_chunks_matches_whole() {
        let input = b"data: \xF0\x9F\x9A\n\n";
        let whole = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[input]);
        for split in 1..input.len() {
            let (a, b) = input.split_at(split);
            assert_eq!(
                run_chunks(DEFAULT_MAX_EVENT_BYTES, &[a, b]),
                whole,
                "split at {split}"
            );
        }
        let Ok(event) = &whole.items[0] else { panic!() };
        assert_eq!(event.data, "\u{FFFD}");
        assert!(event.had_invalid_utf8);
    }

    // ---- end of stream ----

    #[test]
    fn unterminated_final_event_is_reported_by_finish() {
        for input in [
            &b"data: a\n\ndata: b"[..],
            b"data: a\n\ndata: b\n",
            b"data: a\n\ndata: b\r",
            b"data: a\n\nevent: e\n",
            b"data: a\n\nid: 2\n",
            b"data: a\n\nda",
            b"data: a\n\nretr",
            b"data: a\n\ndata",
        ] {
            let out = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[input]);
            assert_eq!(out.items, [Ok(msg("a"))], "{input:?}");
            assert_eq!(out.finish, Err(SseError::UnterminatedEvent), "{input:?}");
        }
    }

    #[test]
    fn stream_ending_at_a_boundary_finishes_cleanly() {
        for input in [
            &b""[..],
            b"\xEF\xBB\xBF",
            b"data: a\n\n",
            b"data: a\r\n\r\n",
            b"data: a\n\n: bye\n",
            b"data: a\n\n: bye",
            b"data: a\n\nunknown: x\n",
            b"data: a\n\nunknown-field-without-end",
            b"data: a\n\nx",
            b"data: a\n\ndatum",
        ] {
            let out = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[input]);
            assert_eq!(out.finish, Ok(()), "{input:?}");
        }
    }

    #[test]
    fn finish_resets_for_a_new_stream_but_keeps_id_and_retry() {
        let mut decoder = SseDecoder::new();
        decoder.feed(b"retry: 7\nid: x\nevent: e\ndata: lost");
        assert_eq!(decoder.finish(), Err(SseError::UnterminatedEvent));
        assert_eq!((decoder.last_event_id(), decoder.retry()), ("x", Some(7)));
        // The held partial line, event type and data are gone; a BOM is dropped again.
        assert_eq!(
            decoder.feed(b"\xEF\xBB\xBFdata: new\n\n"),
            [Ok(ev("message", "new", "x"))]
        );
        assert_eq!(decoder.finish(), Ok(()));
        assert_eq!(decoder.finish(), Ok(()));
    }

    #[test]
    fn pending_cr_does_not_survive_finish() {
        let mut decoder = SseDecoder::new();
        decoder.feed(b"data: a\n\r");
        assert_eq!(decoder.finish(), Ok(()));
        // A new stream starting with LF: a blank line, not the CR's partner.
        assert_eq!(decoder.feed(b"\xEF\xBB\xBF\ndata: b\n\n"), [Ok(msg("b"))]);
    }

    // ---- size limit ----

    #[test]
    fn too_large_event_is_an_error_and_decoder_recovers_at_blank_line() {
        let mut input = b"data: ok1\n\nid: 1\ndata: ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100));
        input.extend(b"\ndata: more\nid: 2\nevent: e\ndata: more\n\ndata: ok2\n\n");
        let out = run_chunks(64, &[&input]);
        assert_eq!(
            out.items,
            [
                Ok(msg("ok1")),
                Err(SseError::EventTooLarge { limit: 64 }),
                Ok(ev("message", "ok2", "2")),
            ]
        );
        assert_eq!(out.finish, Ok(()));
    }

    #[test]
    fn too_large_is_reported_while_the_line_still_arrives() {
        let mut decoder = SseDecoder::with_max_event_bytes(1000);
        assert!(decoder.feed(b"data: ").is_empty());
        let chunk = [b'y'; 600];
        assert!(decoder.feed(&chunk).is_empty());
        assert_eq!(
            decoder.feed(&chunk),
            [Err(SseError::EventTooLarge { limit: 1000 })]
        );
        // Nothing more is buffered, and no second error for the same event.
        for _ in 0..100 {
            assert!(decoder.feed(&chunk).is_empty());
            assert!(decoder.line.is_empty() && decoder.data.is_empty());
        }
        assert!(decoder.feed(b"\ndata: y\n").is_empty());
        assert_eq!(decoder.feed(b"\ndata: z\n\n"), [Ok(msg("z"))]);
    }

    #[test]
    fn too_large_counts_the_whole_event() {
        // Each line fits; together they do not.
        let mut input = Vec::new();
        for _ in 0..10 {
            input.extend(b"data: 0123456789\n");
        }
        input.extend(b"\n");
        let out = run_chunks(100, &[&input]);
        assert_eq!(out.items, [Err(SseError::EventTooLarge { limit: 100 })]);
        assert_eq!(out.finish, Ok(()));
    }

    #[test]
    fn stream_ending_while_skipping_is_unterminated() {
        let out = run_chunks(8, &[b"data: 0123456789\n"]);
        assert_eq!(out.items, [Err(SseError::EventTooLarge { limit: 8 })]);
        assert_eq!(out.finish, Err(SseError::UnterminatedEvent));
    }

    #[test]
    fn long_comments_and_unknown_fields_are_not_buffered_or_limited() {
        let mut decoder = SseDecoder::with_max_event_bytes(16);
        let filler = [b'z'; 1000];
        for start in [&b":"[..], b"comment-like-unknown: ", b"unknownfield"] {
            assert!(decoder.feed(start).is_empty());
            for _ in 0..10 {
                assert!(decoder.feed(&filler).is_empty());
                assert!(decoder.line.is_empty());
            }
            assert!(decoder.feed(b"\n").is_empty());
        }
        assert_eq!(decoder.feed(b"data: fits\n\n"), [Ok(msg("fits"))]);
    }

    #[test]
    fn replacement_growth_counts_toward_the_limit() {
        // The 11-byte line fits in 16; its 6 invalid bytes decode to 18
        // bytes of U+FFFD.
        let out = run_chunks(16, &[b"data:\xFF\xFF\xFF\xFF\xFF\xFF\n\n"]);
        assert_eq!(out.items, [Err(SseError::EventTooLarge { limit: 16 })]);
    }

    #[test]
    fn zero_limit_rejects_every_event() {
        let out = run_chunks(0, &[b"id: 1\n\ndata: a\n\n: c\n\n"]);
        let too_large = Err(SseError::EventTooLarge { limit: 0 });
        assert_eq!(out.items, [too_large.clone(), too_large]);
        assert_eq!(out.last_event_id, "");
    }

    // ---- chunking and robustness ----

    /// A realistic A2A stream: BOM, CRLF, comments, ids, multibyte text,
    /// multi-line data, an unknown field, a CR-only part and LF-only part.
    const REALISTIC: &[u8] = b"\xEF\xBB\xBF: connected\r\n\r\nretry: 3000\r\n\
id: 1\r\nevent: status-update\r\n\
data: {\"kind\":\"status-update\",\"status\":{\"state\":\"working\",\"message\":\"Gr\xC3\xBC\xC3\x9Fe \xE2\x9C\x93\"}}\r\n\r\n\
: keep-alive\r\n\r\n\
id: 2\r\ndata: {\"kind\":\"artifact-update\",\r\ndata:  \"text\":\"\xF0\x9F\x9A\x80 line\xE2\x80\xA8sep\xC2\x85nel\"}\r\n\r\n\
x-unknown: ignored\r\nid: 3\rdata: cr only\r\r\
event: end\ndata:{\"final\":true}\n\n\
data: unterminated";

    fn realistic_expected() -> Vec<Item> {
        vec![
            Ok(ev(
                "status-update",
                "{\"kind\":\"status-update\",\"status\":{\"state\":\"working\",\"message\":\"Grüße ✓\"}}",
                "1",
            )),
            Ok(ev(
                "message",
                "{\"kind\":\"artifact-update\",\n \"text\":\"🚀 line\u{2028}sep\u{85}nel\"}",
                "2",
            )),
            Ok(ev("message", "cr only", "3")),
            Ok(ev("end", "{\"final\":true}", "3")),
        ]
    }

    #[test]
    fn realistic_stream_decodes_as_expected() {
        let out = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[REALISTIC]);
        assert_eq!(out.items, realistic_expected());
        assert_eq!(out.finish, Err(SseError::UnterminatedEvent));
        assert_eq!(out.retry, Some(3000));
        assert_eq!(out.last_event_id, "3");
    }

    #[test]
    fn chunking_never_changes_the_result() {
        let whole = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[REALISTIC]);
        let mut rng = Rng::new(1);
        for round in 0..500 {
            let chunks = random_chunks(REALISTIC, &mut rng);
            assert_eq!(
                run_chunks(DEFAULT_MAX_EVENT_BYTES, &chunks),
                whole,
                "round {round}: {chunks:?}"
            );
        }
        let bytes: Vec<&[u8]> = REALISTIC.chunks(1).collect();
        assert_eq!(run_chunks(DEFAULT_MAX_EVENT_BYTES, &bytes), whole);
    }

    #[test]
    fn chunking_never_changes_the_result_with_a_small_limit() {
        let mut rng = Rng::new(2);
        for max in [0, 1, 5, 6, 7, 20, 40, 60, 80, 100] {
            let whole = run_chunks(max, &[REALISTIC]);
            for round in 0..50 {
                let chunks = random_chunks(REALISTIC, &mut rng);
                assert_eq!(run_chunks(max, &chunks), whole, "max {max} round {round}");
            }
        }
    }

    /// A stream of roughly SSE-shaped lines made of parts likely to
    /// exercise the decoder: known and unknown field names, comments, every
    /// line end, BOM and NEL bytes, NUL, broken UTF-8, and stray bytes.
    fn soup(rng: &mut Rng) -> Vec<u8> {
        const NAMES: &[&[u8]] = &[
            b"data",
            b"data",
            b"data",
            b"event",
            b"id",
            b"retry",
            b"",
            b"dat",
            b"datax",
            b"x",
            b"\xEF\xBB\xBF",
            b"\xEF\xBB",
        ];
        const SEPARATORS: &[&[u8]] = &[b"", b":", b": ", b":  ", b" :"];
        const VALUES: &[&[u8]] = &[
            b"x",
            b"42",
            b" ",
            b":",
            b"\0",
            b"\xEF\xBB\xBF",
            b"\xEF",
            b"\xC2\x85",
            b"\xE2\x80\xA8",
            b"\xC3\xA9",
            b"\xF0\x9F\x9A\x80",
            b"\xFF",
            b"\xE2\x82",
            b"\xC0",
        ];
        const ENDS: &[&[u8]] = &[
            b"\n",
            b"\r",
            b"\r\n",
            b"\n\n",
            b"\r\n\r\n",
            b"\r\r",
            b"\n\r",
        ];
        let pick = |rng: &mut Rng, from: &[&'static [u8]]| from[rng.below(from.len())];
        let mut out = Vec::new();
        for _ in 0..rng.below(12) {
            if rng.below(8) == 0 {
                for _ in 0..rng.below(4) {
                    out.push(rng.next() as u8);
                }
            }
            out.extend_from_slice(pick(rng, NAMES));
            out.extend_from_slice(pick(rng, SEPARATORS));
            for _ in 0..rng.below(5) {
                out.extend_from_slice(pick(rng, VALUES));
            }
            if rng.below(12) != 0 {
                out.extend_from_slice(pick(rng, ENDS));
            }
        }
        out
    }

    /// A direct reading of the spec over a whole stream (no limit): decode
    /// each line, then interpret it as text.
    fn reference(input: &[u8]) -> (Vec<Item>, String, Option<u64>) {
        let input = input.strip_prefix(&BOM[..]).unwrap_or(input);
        let mut lines = Vec::new();
        let (mut start, mut i) = (0, 0);
        while i < input.len() {
            match input[i] {
                b'\n' => {
                    lines.push(&input[start..i]);
                    i += 1;
                    start = i;
                }
                b'\r' => {
                    lines.push(&input[start..i]);
                    i += if input.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                    start = i;
                }
                _ => i += 1,
            }
        }
        let (mut items, mut data, mut event, mut id, mut retry) = (
            Vec::new(),
            String::new(),
            String::new(),
            String::new(),
            None,
        );
        let mut invalid = false;
        for raw in lines {
            let line = String::from_utf8_lossy(raw);
            let bad = matches!(line, std::borrow::Cow::Owned(_));
            if line.is_empty() {
                if !data.is_empty() {
                    data.pop();
                    items.push(Ok(SseEvent {
                        event: if event.is_empty() {
                            "message".into()
                        } else {
                            event.clone()
                        },
                        data: data.clone(),
                        last_event_id: id.clone(),
                        had_invalid_utf8: invalid,
                    }));
                }
                data.clear();
                event.clear();
                invalid = false;
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (name, value) = match line.split_once(':') {
                Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
                None => (&*line, ""),
            };
            match name {
                "data" => {
                    data.push_str(value);
                    data.push('\n');
                    invalid |= bad;
                }
                "event" => {
                    event = value.to_owned();
                    invalid |= bad;
                }
                "id" if !value.contains('\0') => {
                    id = value.to_owned();
                    invalid |= bad;
                }
                "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                    retry = Some(value.parse::<u64>().unwrap_or(u64::MAX));
                }
                _ => {}
            }
        }
        (items, id, retry)
    }

    #[test]
    fn realistic_stream_matches_reference() {
        let (items, id, retry) = reference(REALISTIC);
        let out = run_chunks(DEFAULT_MAX_EVENT_BYTES, &[REALISTIC]);
        assert_eq!(
            (out.items, out.last_event_id, out.retry),
            (items, id, retry)
        );
    }

    #[test]
    fn byte_soup_never_panics_and_is_chunking_independent() {
        let mut rng = Rng::new(3);
        for round in 0..4000 {
            let input = soup(&mut rng);
            let max = if rng.below(2) == 0 {
                DEFAULT_MAX_EVENT_BYTES
            } else {
                rng.below(40)
            };
            let whole = run_chunks(max, &[&input]);
            let chunks = random_chunks(&input, &mut rng);
            assert_eq!(
                run_chunks(max, &chunks),
                whole,
                "round {round}: {input:?} / {chunks:?}"
            );
            if max == DEFAULT_MAX_EVENT_BYTES {
                let (items, id, retry) = reference(&input);
                assert_eq!(
                    (&whole.items, &whole.last_event_id, whole.retry),
                    (&items, &id, retry),
                    "round {round}: {input:?}"
                );
            }
        }
    }

    #[test]
    fn uniform_random_bytes_never_panic() {
        let mut rng = Rng::new(4);
        for _ in 0..2000 {
            let len = rng.below(300);
            let input: Vec<u8> = (0..len).map(|_| (rng.next() >> 24) as u8).collect();
            let max = rng.below(64);
            let chunks = random_chunks(&input, &mut rng);
            assert_eq!(run_chunks(max, &chunks), run_chunks(max, &[&input]));
        }
    }
}
