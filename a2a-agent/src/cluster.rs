//! Several replicas of one agent on one database: how a task's live events reach the streams
//! that other replicas serve.
//!
//! The replica that runs a task writes each event to the task's event log (see
//! [`store`'s docs](crate::store#event-logs)) in the same transaction as the task's new version,
//! and after the commit [announces](EventFeed::send) that the task's log grew. Every replica
//! hears the announcements ([`EventFeed::wakeups`]) and, for each task something of its own
//! follows (a `SubscribeToTask` stream, a cancel waiting for the end), reads the log from the last
//! version it has sent on. An announcement is only a wake-up: the log carries the order, so one
//! that is lost or late costs latency, never an event, and a feed that may have missed some says
//! so ([`Wakeup::Resync`]) and every followed task is read again.
//!
//! The feed also carries what replicas ask of each other: a cancel for the replica running a
//! task ([`Wakeup::Cancel`]), and a sweep when one stopped and gave its leases back
//! ([`Wakeup::Sweep`]). Which replica runs a task is its lease in the store (see
//! [`store`'s docs](crate::store#leases)).
//!
//! [`SqliteFeed`] is the feed of processes on one host that share a
//! [`SqliteStore`](crate::store::SqliteStore)'s file: it polls the file.
//!
//! [`PostgresFeed`] is the feed of [`PostgresStore`](crate::store::PostgresStore): PostgreSQL's
//! `LISTEN`/`NOTIFY`, one listening connection per replica. A request handler is given its feed
//! with [`RequestHandlerBuilder::event_feed`](crate::RequestHandlerBuilder::event_feed).

use tokio::sync::broadcast;

#[cfg(any(feature = "postgres", feature = "sqlite"))]
mod payload;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "sqlite")]
mod sqlite;
#[cfg(feature = "postgres")]
pub use postgres::PostgresFeed;
#[cfg(feature = "sqlite")]
pub use sqlite::SqliteFeed;

/// Tells the replicas of an agent which tasks' logs grew, and asks them to act (see the
/// [module docs](self)).
pub trait EventFeed: Send + Sync + 'static {
    /// This replica's id: the holder of the leases of the tasks it runs.
    fn replica_id(&self) -> &str;

    /// Sends `wakeup` to every other replica (a [`Wakeup::Task`] once the write it announces has
    /// committed). Returns at once: the feed sends in the background, and may send several
    /// wake-ups together.
    fn send(&self, wakeup: Wakeup);

    /// The other replicas' wake-ups, from now on.
    fn wakeups(&self) -> broadcast::Receiver<Wakeup>;
}

/// What one replica tells the others.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wakeup {
    /// The log of this task grew (or its lease was given back).
    Task {
        /// The task's tenant (`""` for the default one).
        tenant: String,
        /// The task's id.
        task_id: String,
    },
    /// Cancel this task (`CancelTask` served by a replica that does not run it): the replica
    /// running it runs the executor's cancel.
    Cancel {
        /// The task's tenant (`""` for the default one).
        tenant: String,
        /// The task's id.
        task_id: String,
        /// The id of the caller who asked (`""`: the anonymous caller), which the executor's
        /// cancel sees as its call's caller (without the claims, which stay where the call
        /// came in).
        caller: String,
    },
    /// Look for tasks whose lease expired now (a replica stopped and gave its leases back).
    Sweep,
    /// Wake-ups may have been missed (the feed reconnected, or fell behind): read every followed
    /// task's log again.
    Resync,
}

impl Wakeup {
    /// A [`Wakeup::Task`].
    pub fn task(tenant: Option<&str>, task_id: &str) -> Wakeup {
        Wakeup::Task {
            tenant: tenant.unwrap_or_default().to_owned(),
            task_id: task_id.to_owned(),
        }
    }
}
