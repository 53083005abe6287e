//! Several replicas of one agent on one database: how a task's live events reach the streams
//! that other replicas serve.
//!
//! The replica that runs a task writes each event to the task's event log (see
//! [`store`'s docs](crate::store#event-logs)) in the same transaction as the task's new version,
//! and after the commit [announces](EventFeed::announce) that the task's log grew. Every replica
//! hears the announcements ([`EventFeed::wakeups`]) and, for each task something of its own
//! follows (a `SubscribeToTask` stream, a cancel waiting for the end), reads the log from the last
//! version it has sent on. An announcement is only a wake-up: the log carries the order, so one
//! that is lost or late costs latency, never an event, and a feed that may have missed some says
//! so ([`Wakeup::Resync`]) and every followed task is read again.
//!
//! [`PostgresFeed`] is the feed of [`PostgresStore`](crate::store::PostgresStore): PostgreSQL's
//! `LISTEN`/`NOTIFY`, one listening connection per replica. A request handler is given its feed
//! with [`RequestHandlerBuilder::event_feed`](crate::RequestHandlerBuilder::event_feed).

use std::sync::Arc;

use tokio::sync::broadcast;

#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "postgres")]
pub use postgres::PostgresFeed;

/// Tells the replicas of an agent which tasks' logs grew (see the [module docs](self)).
pub trait EventFeed: Send + Sync + 'static {
    /// Tells every other replica that the task's log grew. Called after the write committed;
    /// returns at once (the feed sends in the background, and may send several at once).
    fn announce(&self, tenant: Option<&str>, task_id: &str);

    /// The announcements of the other replicas, from now on.
    fn wakeups(&self) -> broadcast::Receiver<Wakeup>;
}

impl<F: EventFeed + ?Sized> EventFeed for Arc<F> {
    fn announce(&self, tenant: Option<&str>, task_id: &str) {
        (**self).announce(tenant, task_id);
    }

    fn wakeups(&self) -> broadcast::Receiver<Wakeup> {
        (**self).wakeups()
    }
}

/// What a feed tells a replica.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wakeup {
    /// The log of this task grew.
    Task {
        /// The task's tenant (`""` for the default one).
        tenant: String,
        /// The task's id.
        task_id: String,
    },
    /// Announcements may have been missed (the feed reconnected, or fell behind): read every
    /// followed task's log again.
    Resync,
}
