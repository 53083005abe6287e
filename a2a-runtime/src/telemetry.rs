//! Telemetry: W3C Trace Context (`traceparent`, `tracestate`) as a type, and, behind the `otel`
//! feature, OpenTelemetry: spans that join the caller's trace and the metrics of the server, the
//! executions and push delivery.
//!
//! **Without `otel`** (the default), a server reads a request's trace context
//! ([`RequestContext::trace_context`](crate::service::RequestContext::trace_context)) and records
//! its trace id on the call's `a2a.call` span (`trace_id`), and push notifications carry the trace
//! context of the call that started the execution, unchanged (W3C Trace Context §3.2: a party that
//! does not trace may pass `traceparent` on as it came). Nothing else is sent or measured.
//!
//! **With `otel`**, the application installs a `tracing-opentelemetry` layer and a meter provider
//! (see `examples/otel-agent`); then:
//!
//! - the server's `a2a.call` span takes the incoming `traceparent` as its OpenTelemetry parent,
//!   so the agent's spans (`a2a.call`, `a2a.execute`, `a2a.store`, `a2a.push`) join the caller's
//!   trace;
//! - the runtime's client sends the current span's context as `traceparent` and `tracestate`
//!   (unless the request already has a `traceparent`: a header set on the client wins);
//! - a push notification carries its `a2a.push` span's context, so the webhook joins the trace too;
//! - the instruments below record, through `opentelemetry::global::meter("a2a")`. Install the
//!   meter provider before the first request: the instruments are made once, on first use, from
//!   the provider installed then (OpenTelemetry's global meters do not follow a later one).
//!
//! | Instrument | Kind | Unit | Attributes |
//! |---|---|---|---|
//! | `rpc.server.call.duration` | histogram | s | `rpc.system` (`a2a`), `rpc.method`, `a2a.binding`, `a2a.outcome` (`ok`, `error`), `a2a.error_code` |
//! | `a2a.server.requests` | counter | `{request}` | the same |
//! | `a2a.server.active_streams` | up-down counter | `{stream}` | `rpc.method` |
//! | `a2a.tasks` | up-down counter | `{task}` | `a2a.task.state` |
//! | `a2a.push.deliveries` | counter | `{notification}` | `a2a.outcome` (`delivered`, `failed`, `dropped`) |
//!
//! A call's duration runs until it is answered (for a stream: until its first byte, as the
//! request log line says). `a2a.tasks` counts the tasks this process's executions moved: a task
//! is added to its new state and taken off its old one; the terminal states only grow (until a
//! restart). `a2a.outcome` is `error` for every error the call answered, the standard ones and the
//! agent's own, and `a2a.error_code` says which.

use http::{HeaderMap, HeaderValue};
use std::fmt;

/// The `traceparent` header.
pub const TRACEPARENT: &str = "traceparent";
/// The `tracestate` header.
pub const TRACESTATE: &str = "tracestate";

/// The most of `tracestate` kept: W3C Trace Context asks every party to pass on at least 512
/// characters; a longer one is dropped whole (cut anywhere, its last entry would be wrong).
const MAX_TRACESTATE: usize = 512;

/// A W3C trace context: the `traceparent` of a request (trace id, the caller's span id, flags)
/// and its `tracestate`.
///
/// Parsed by hand rather than through `opentelemetry`'s propagator: the format is four
/// hex fields, and a server without the `otel` feature reads it too.
///
/// ```
/// use a2a_runtime::telemetry::TraceContext;
///
/// let cx = TraceContext::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", Some("congo=t61rcWkgMzE"))
///     .expect("a valid traceparent");
/// assert_eq!(cx.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
/// assert!(cx.sampled());
/// assert_eq!(cx.traceparent(), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
/// // Upper-case hex, an all-zero id, version ff: not a trace context.
/// assert!(TraceContext::parse("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", None).is_none());
/// assert!(TraceContext::parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01", None).is_none());
/// assert!(TraceContext::parse("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", None).is_none());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// The trace's id (never all zeros).
    pub trace_id: [u8; 16],
    /// The id of the span that made the request (never all zeros).
    pub parent_id: [u8; 8],
    /// The trace flags (bit 0: sampled).
    pub flags: u8,
    /// The `tracestate`, as received (its entries are the vendors' own), when there was one of at
    /// most 512 bytes.
    pub state: Option<String>,
}

impl TraceContext {
    /// The trace context of a request's headers: `None` when it has no `traceparent`, more than
    /// one, or one that is not valid (W3C Trace Context, version 00; a later version is read
    /// for its first four fields, as the standard says). Several `tracestate` headers are one
    /// list.
    pub fn from_headers(headers: &HeaderMap) -> Option<TraceContext> {
        let mut parents = headers.get_all(TRACEPARENT).iter();
        let parent = parents.next()?.to_str().ok()?;
        if parents.next().is_some() {
            return None;
        }
        let mut state = String::new();
        for value in headers.get_all(TRACESTATE) {
            let Ok(value) = value.to_str() else { continue };
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            if !state.is_empty() {
                state.push(',');
            }
            state.push_str(value);
        }
        Self::parse(parent, Some(&state))
    }

    /// Parses a `traceparent` value, with the request's `tracestate` if it had one.
    pub fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<TraceContext> {
        let value = traceparent.trim().as_bytes();
        if value.len() < 55 {
            return None;
        }
        let version = hex_byte(&value[0..2])?;
        if version == 0xff || (version == 0 && value.len() != 55) {
            return None;
        }
        if value.len() > 55 && value[55] != b'-' {
            return None;
        }
        if value[2] != b'-' || value[35] != b'-' || value[52] != b'-' {
            return None;
        }
        let mut trace_id = [0u8; 16];
        for (i, byte) in trace_id.iter_mut().enumerate() {
            *byte = hex_byte(&value[3 + 2 * i..5 + 2 * i])?;
        }
        let mut parent_id = [0u8; 8];
        for (i, byte) in parent_id.iter_mut().enumerate() {
            *byte = hex_byte(&value[36 + 2 * i..38 + 2 * i])?;
        }
        let flags = hex_byte(&value[53..55])?;
        if trace_id == [0; 16] || parent_id == [0; 8] {
            return None;
        }
        let state = tracestate
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.len() <= MAX_TRACESTATE)
            .map(str::to_owned);
        Some(TraceContext {
            trace_id,
            parent_id,
            flags,
            state,
        })
    }

    /// The trace id, as 32 lower-case hex digits.
    pub fn trace_id_hex(&self) -> String {
        hex(&self.trace_id)
    }

    /// Whether the caller sampled the trace (flag bit 0).
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }

    /// The `traceparent` value (version 00).
    pub fn traceparent(&self) -> String {
        format!(
            "00-{}-{}-{:02x}",
            hex(&self.trace_id),
            hex(&self.parent_id),
            self.flags
        )
    }

    /// Sets `traceparent` (and `tracestate`, when there is one) in `headers`, replacing any.
    pub fn insert_into(&self, headers: &mut HeaderMap) {
        if let Ok(value) = HeaderValue::from_str(&self.traceparent()) {
            headers.insert(TRACEPARENT, value);
        }
        headers.remove(TRACESTATE);
        if let Some(state) = &self.state {
            if let Ok(value) = HeaderValue::from_str(state) {
                headers.insert(TRACESTATE, value);
            }
        }
    }

    /// What an outgoing request made now should carry: with `otel`, the current span's context
    /// when it belongs to a trace; otherwise `inherited` (the context this work came with).
    pub fn outgoing(inherited: Option<&TraceContext>) -> Option<TraceContext> {
        #[cfg(feature = "otel")]
        if let Some(current) = otel::current() {
            return Some(current);
        }
        inherited.cloned()
    }
}

impl fmt::Debug for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TraceContext")
            .field("traceparent", &self.traceparent())
            .field("tracestate", &self.state)
            .finish()
    }
}

/// Two lower-case hex digits (the only case W3C Trace Context allows).
fn hex_byte(digits: &[u8]) -> Option<u8> {
    let digit = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    Some(digit(digits[0])? << 4 | digit(digits[1])?)
}

fn hex(bytes: &[u8]) -> String {
    use fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Makes `span` (not yet entered) a child of the caller's span in OpenTelemetry; a no-op without
/// the `otel` feature, or when no OpenTelemetry layer is installed.
#[cfg(any(feature = "server", feature = "otel"))]
pub fn adopt(span: &tracing::Span, parent: &TraceContext) {
    #[cfg(feature = "otel")]
    otel::adopt(span, parent);
    #[cfg(not(feature = "otel"))]
    let _ = (span, parent);
}

/// Sets `traceparent` and `tracestate` in `headers` from the current span, unless `headers`
/// already has a `traceparent` (for the runtime's client; a no-op without `otel`).
pub fn inject_current(headers: &mut HeaderMap) {
    #[cfg(feature = "otel")]
    if !headers.contains_key(TRACEPARENT) {
        if let Some(current) = otel::current() {
            current.insert_into(headers);
        }
    }
    #[cfg(not(feature = "otel"))]
    let _ = headers;
}

/// Records one answered call (see the module's table; a no-op without `otel`).
pub fn call_answered(
    method: &'static str,
    binding: &'static str,
    error_code: Option<i64>,
    elapsed: std::time::Duration,
) {
    #[cfg(feature = "otel")]
    otel::call_answered(method, binding, error_code, elapsed);
    #[cfg(not(feature = "otel"))]
    let _ = (method, binding, error_code, elapsed);
}

/// Counts a live stream of `method` until the guard is dropped (a no-op without `otel`).
pub fn stream_opened(method: &'static str) -> StreamGuard {
    #[cfg(feature = "otel")]
    otel::streams(method, 1);
    StreamGuard { method }
}

/// Takes a stream off `a2a.server.active_streams` when dropped.
#[derive(Debug)]
pub struct StreamGuard {
    method: &'static str,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        #[cfg(feature = "otel")]
        otel::streams(self.method, -1);
        #[cfg(not(feature = "otel"))]
        let _ = self.method;
    }
}

/// A task moved from state `from` (`None` for a new task) to `to` (the states' wire names), for
/// `a2a.tasks` (a no-op without `otel`, or when the state did not change).
pub fn task_moved(from: Option<&str>, to: &str) {
    #[cfg(feature = "otel")]
    if from != Some(to) {
        otel::task_moved(from, to);
    }
    #[cfg(not(feature = "otel"))]
    let _ = (from, to);
}

/// One push notification `delivered`, `failed` (given up) or `dropped` (a full queue), for
/// `a2a.push.deliveries` (a no-op without `otel`).
pub fn push_outcome(outcome: &'static str) {
    #[cfg(feature = "otel")]
    otel::push_outcome(outcome);
    #[cfg(not(feature = "otel"))]
    let _ = outcome;
}

#[cfg(feature = "otel")]
mod otel {
    use super::TraceContext;
    use opentelemetry::metrics::{Counter, Histogram, UpDownCounter};
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    use opentelemetry::KeyValue;
    use std::str::FromStr;
    use std::sync::OnceLock;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    pub(super) fn adopt(span: &tracing::Span, parent: &TraceContext) {
        let state = parent
            .state
            .as_deref()
            .and_then(|s| TraceState::from_str(s).ok())
            .unwrap_or_default();
        let remote = SpanContext::new(
            TraceId::from_bytes(parent.trace_id),
            SpanId::from_bytes(parent.parent_id),
            TraceFlags::new(parent.flags),
            true,
            state,
        );
        // Fails only when no OpenTelemetry layer listens (or the span already started, which a
        // span made a line above has not): then there is no trace to join.
        let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(remote));
    }

    pub(super) fn current() -> Option<TraceContext> {
        let span = tracing::Span::current();
        if span.is_disabled() {
            return None;
        }
        let context = span.context();
        let span_ref = context.span();
        let current = span_ref.span_context();
        if !current.is_valid() {
            return None;
        }
        let state = current.trace_state().header();
        Some(TraceContext {
            trace_id: current.trace_id().to_bytes(),
            parent_id: current.span_id().to_bytes(),
            flags: current.trace_flags().to_u8(),
            state: (!state.is_empty()).then_some(state),
        })
    }

    struct Instruments {
        duration: Histogram<f64>,
        requests: Counter<u64>,
        streams: UpDownCounter<i64>,
        tasks: UpDownCounter<i64>,
        pushes: Counter<u64>,
    }

    fn instruments() -> &'static Instruments {
        static INSTRUMENTS: OnceLock<Instruments> = OnceLock::new();
        INSTRUMENTS.get_or_init(|| {
            let meter = opentelemetry::global::meter("a2a");
            Instruments {
                duration: meter
                    .f64_histogram("rpc.server.call.duration")
                    .with_unit("s")
                    .with_description("How long A2A calls took to be answered")
                    .with_boundaries(vec![
                        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                        5.0, 10.0, 30.0, 60.0,
                    ])
                    .build(),
                requests: meter
                    .u64_counter("a2a.server.requests")
                    .with_unit("{request}")
                    .with_description("A2A calls answered, by method and outcome")
                    .build(),
                streams: meter
                    .i64_up_down_counter("a2a.server.active_streams")
                    .with_unit("{stream}")
                    .with_description("Streams being served")
                    .build(),
                tasks: meter
                    .i64_up_down_counter("a2a.tasks")
                    .with_unit("{task}")
                    .with_description("Tasks this process's executions moved, by state")
                    .build(),
                pushes: meter
                    .u64_counter("a2a.push.deliveries")
                    .with_unit("{notification}")
                    .with_description("Push notifications, by outcome")
                    .build(),
            }
        })
    }

    pub(super) fn call_answered(
        method: &'static str,
        binding: &'static str,
        error_code: Option<i64>,
        elapsed: std::time::Duration,
    ) {
        let outcome = if error_code.is_some() { "error" } else { "ok" };
        // On the stack: no allocation per call.
        let attributes = [
            KeyValue::new("rpc.system", "a2a"),
            KeyValue::new("rpc.method", method),
            KeyValue::new("a2a.binding", binding),
            KeyValue::new("a2a.outcome", outcome),
            KeyValue::new("a2a.error_code", error_code.unwrap_or_default()),
        ];
        let attributes = match error_code {
            Some(_) => &attributes[..],
            None => &attributes[..4],
        };
        let instruments = instruments();
        instruments
            .duration
            .record(elapsed.as_secs_f64(), attributes);
        instruments.requests.add(1, attributes);
    }

    pub(super) fn streams(method: &'static str, change: i64) {
        instruments()
            .streams
            .add(change, &[KeyValue::new("rpc.method", method)]);
    }

    pub(super) fn task_moved(from: Option<&str>, to: &str) {
        let tasks = &instruments().tasks;
        if let Some(from) = from {
            tasks.add(-1, &[KeyValue::new("a2a.task.state", state(from))]);
        }
        tasks.add(1, &[KeyValue::new("a2a.task.state", state(to))]);
    }

    /// A state's name as an attribute value: the names of the v1 states without an allocation.
    fn state(name: &str) -> opentelemetry::Value {
        const KNOWN: [&str; 9] = [
            "TASK_STATE_UNSPECIFIED",
            "TASK_STATE_SUBMITTED",
            "TASK_STATE_WORKING",
            "TASK_STATE_COMPLETED",
            "TASK_STATE_FAILED",
            "TASK_STATE_CANCELED",
            "TASK_STATE_INPUT_REQUIRED",
            "TASK_STATE_REJECTED",
            "TASK_STATE_AUTH_REQUIRED",
        ];
        match KNOWN.iter().find(|known| **known == name) {
            Some(known) => (*known).into(),
            None => name.to_owned().into(),
        }
    }

    pub(super) fn push_outcome(outcome: &'static str) {
        instruments()
            .pushes
            .add(1, &[KeyValue::new("a2a.outcome", outcome)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn reads_the_w3c_examples_and_refuses_the_rest() {
        let cx = TraceContext::parse(PARENT, None).unwrap();
        assert_eq!(cx.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(
            cx.parent_id,
            [0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]
        );
        assert_eq!(cx.traceparent(), PARENT);
        assert!(
            TraceContext::parse(&PARENT.replace("-01", "-00"), None).is_some_and(|c| !c.sampled())
        );
        // A later version may append fields after a dash; version 00 may not.
        let later = "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes";
        assert!(TraceContext::parse(later, None).is_some());
        for bad in [
            "",
            "00",
            &format!("{PARENT}-x"),
            &format!("{PARENT}0"),
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
            "0é-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
        ] {
            assert!(TraceContext::parse(bad, None).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn headers_one_traceparent_and_the_state_joined() {
        let mut headers = HeaderMap::new();
        assert!(TraceContext::from_headers(&headers).is_none());
        headers.insert(TRACEPARENT, HeaderValue::from_static(PARENT));
        headers.append(TRACESTATE, HeaderValue::from_static("a=1"));
        headers.append(TRACESTATE, HeaderValue::from_static(" b=2 "));
        let cx = TraceContext::from_headers(&headers).unwrap();
        assert_eq!(cx.state.as_deref(), Some("a=1,b=2"));

        let mut out = HeaderMap::new();
        out.insert(TRACESTATE, HeaderValue::from_static("stale=1"));
        cx.insert_into(&mut out);
        assert_eq!(out[TRACEPARENT], PARENT);
        assert_eq!(out[TRACESTATE], "a=1,b=2");
        // Without otel there is no current span to prefer: the inherited context goes on as is.
        #[cfg(not(feature = "otel"))]
        assert_eq!(TraceContext::outgoing(Some(&cx)), Some(cx.clone()));

        // Two traceparents: which one is meant is unknown, so neither.
        headers.append(TRACEPARENT, HeaderValue::from_static(PARENT));
        assert!(TraceContext::from_headers(&headers).is_none());

        // A tracestate past 512 bytes is dropped whole.
        let long = "k=".to_owned() + &"v".repeat(600);
        assert!(TraceContext::parse(PARENT, Some(&long))
            .unwrap()
            .state
            .is_none());
    }
}
