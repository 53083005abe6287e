//! Live streams: a task's events as a call's stream, from the task's broadcast channel, ending
//! where the method says.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use a2a_types::rt::service::EventIds;
use a2a_types::v1::{EventStream, ServiceError, StreamResponse, Task};
use tokio::sync::{broadcast, watch};

use super::live::{Sequenced, Subscription};
use crate::lifecycle::{is_settled, is_terminal, with_history};

/// Where a live stream ends.
#[derive(Clone, Copy)]
pub(super) enum StreamEnd {
    /// `SendStreamingMessage`: at a direct message or a status that settles the call (terminal
    /// or interrupted), as a blocking call returns there.
    AtSettled,
    /// `SubscribeToTask`: at a terminal state only (§3.1.6): a task that waits for input may
    /// go on, and the subscriber sees it through.
    AtTerminal,
}

impl StreamEnd {
    /// Whether `event` is the stream's last.
    fn is_last(self, event: &StreamResponse) -> bool {
        match (event, self) {
            (StreamResponse::Message(_), StreamEnd::AtSettled) => true,
            (StreamResponse::StatusUpdate(u), StreamEnd::AtSettled) => is_settled(&u.status.state),
            (StreamResponse::StatusUpdate(u), StreamEnd::AtTerminal) => {
                is_terminal(&u.status.state)
            }
            (StreamResponse::Task(t), _) => is_terminal(&t.status.state),
            _ => false,
        }
    }
}

/// The settled outcome of an execution, as its watchers see it: `None` until it settles.
pub(super) type Settled = watch::Receiver<Option<Result<Task, ServiceError>>>;

/// How a live stream begins: the events it sends before the live ones, the version they bring
/// it to (no live event of that version or an older one follows them), and where it gives each
/// event's SSE id (the version it made), when the task's events can be resumed from its log.
#[derive(Default)]
pub(super) struct Opening {
    pub(super) first: VecDeque<Sequenced>,
    pub(super) after: Option<u64>,
    pub(super) ids: Option<EventIds>,
}

/// One of the streams a handler serves at once: taken before a stream begins (none is left at
/// the cap), and given back when the stream ends or its client goes away.
pub(super) struct StreamSlot(Arc<AtomicUsize>);

impl StreamSlot {
    /// A slot of `open` (the streams served now), unless `max` are open already.
    pub(super) fn take(open: &Arc<AtomicUsize>, max: usize) -> Option<StreamSlot> {
        open.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < max).then_some(n + 1)
        })
        .ok()
        .map(|_| StreamSlot(Arc::clone(open)))
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What bounds one live stream: its slot among the handler's streams, and how long it may go
/// without an event before the handler ends it.
pub(super) struct Bounds {
    pub(super) slot: StreamSlot,
    pub(super) idle: Option<Duration>,
}

/// The live events as a stream, after the `opening` ones, ending after the event that `end`
/// names (or when the execution ends, for a stream that has its `settled`); `history_length`
/// trims a streamed Task's history. Read straight from the broadcast channel: no task of its
/// own, so a client that goes away drops it at once, and its slot with it. A stream that goes
/// `bounds.idle` without an event ends with a temporary error (subscribe again, with
/// `Last-Event-ID`, to go on).
pub(super) fn live_stream(
    events: Subscription,
    opening: Opening,
    settled: Option<Settled>,
    history_length: Option<i32>,
    end: StreamEnd,
    bounds: Bounds,
) -> EventStream<StreamResponse> {
    let state = Reader {
        events,
        after: opening.after,
        first: opening.first,
        ids: opening.ids,
        settled,
        ended: false,
        idle: bounds.idle,
        _slot: bounds.slot,
    };
    Box::pin(futures_util::stream::unfold(
        state,
        move |mut reader| async move {
            let event = reader.next(end).await?;
            let event = event.map(|event| match event {
                StreamResponse::Task(t) => StreamResponse::Task(with_history(t, history_length)),
                other => other,
            });
            Some((event, reader))
        },
    ))
}

/// A live stream's state between two events.
struct Reader {
    events: Subscription,
    /// The version the opening events brought the stream to: older events are not sent.
    after: Option<u64>,
    first: VecDeque<Sequenced>,
    ids: Option<EventIds>,
    settled: Option<Settled>,
    ended: bool,
    idle: Option<Duration>,
    /// Held while the stream lives.
    _slot: StreamSlot,
}

impl Reader {
    /// The next event, or `None` at the end.
    async fn next(&mut self, end: StreamEnd) -> Option<Result<StreamResponse, ServiceError>> {
        if self.ended {
            return None;
        }
        if let Some((version, first)) = self.first.pop_front() {
            self.give_id(version);
            self.ended = end.is_last(&first);
            return Some(Ok(first));
        }
        let received = loop {
            let received = match self.idle {
                None => self.receive().await,
                Some(idle) => match tokio::time::timeout(idle, self.receive()).await {
                    Ok(received) => received,
                    Err(_) => {
                        self.ended = true;
                        return Some(Err(super::errors::over_cap(format!(
                            "the stream had no event for {idle:?}, the most this agent keeps \
                             an idle stream open; subscribe to the task again (with \
                             Last-Event-ID, to resume after the last event received)"
                        ))));
                    }
                },
            };
            match received {
                Ok((Some(v), _)) if self.after.is_some_and(|after| v <= after) => continue,
                other => break other,
            }
        };
        match received {
            Ok((version, event)) => {
                self.give_id(version);
                self.ended = end.is_last(&event);
                Some(Ok(event))
            }
            Err(broadcast::error::RecvError::Lagged(n)) => {
                self.ended = true;
                Some(Err(ServiceError::internal(format!(
                    "the stream fell {n} events behind and was closed"
                ))))
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }

    /// Gives the event about to be sent its SSE id: the version it made, when it made one.
    fn give_id(&self, version: Option<u64>) {
        if let (Some(ids), Some(version)) = (&self.ids, version) {
            ids.next(version);
        }
    }

    /// The channel's next event; with `settled`, once the execution has ended, only what it sent
    /// before it did.
    async fn receive(&mut self) -> Result<Sequenced, broadcast::error::RecvError> {
        let Some(settled) = &mut self.settled else {
            return self.events.recv().await;
        };
        loop {
            tokio::select! {
                biased;
                event = self.events.recv() => return event,
                changed = settled.changed() => match changed {
                    Ok(()) => continue,
                    // The execution ended: what it sent is in the channel already.
                    Err(_) => return self.events.try_recv(),
                },
            }
        }
    }
}
