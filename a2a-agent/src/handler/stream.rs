//! Live streams: a task's events as a call's stream, from the task's broadcast channel, ending
//! where the method says.

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

/// The live events as a stream, after `first` (with the version it shows: no event of that
/// version or an older one follows it), ending after the event that `end` names (or when the
/// execution ends, for a stream that has its `settled`); `history_length` trims a streamed
/// Task's history.
/// Read straight from the broadcast channel: no task of its own, so a client that goes away
/// drops it at once.
pub(super) fn live_stream(
    events: Subscription,
    first: Option<Sequenced>,
    settled: Option<Settled>,
    history_length: Option<i32>,
    end: StreamEnd,
) -> EventStream<StreamResponse> {
    let state = Reader {
        events,
        after: first.as_ref().and_then(|(v, _)| *v),
        first: first.map(|(_, event)| event),
        settled,
        ended: false,
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
    /// The version the stream's first event showed: older events are not sent.
    after: Option<u64>,
    first: Option<StreamResponse>,
    settled: Option<Settled>,
    ended: bool,
}

impl Reader {
    /// The next event, or `None` at the end.
    async fn next(&mut self, end: StreamEnd) -> Option<Result<StreamResponse, ServiceError>> {
        if self.ended {
            return None;
        }
        if let Some(first) = self.first.take() {
            self.ended = end.is_last(&first);
            return Some(Ok(first));
        }
        let received = loop {
            match self.receive().await {
                Ok((Some(v), _)) if self.after.is_some_and(|after| v <= after) => continue,
                other => break other,
            }
        };
        match received {
            Ok((_, event)) => {
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
