//! [`PostgresFeed`]: the event feed of replicas on one PostgreSQL database, over
//! `LISTEN`/`NOTIFY`.

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::payload::{ends, next_batch, payloads, wakeups_of, Ends, Tasks};
use super::{EventFeed, Wakeup};
use crate::store::{PostgresStore, StoreError};

/// The channel every replica listens on.
const CHANNEL: &str = "a2a_events";
/// How long the listener waits before it tries a lost connection again, at most.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// The [`EventFeed`] of replicas that share a [`PostgresStore`]'s database (feature
/// `postgres`): one `LISTEN` connection per replica, and announcements sent with `NOTIFY`.
///
/// # How it sends
///
/// [`send`](EventFeed::send) queues the wake-up and returns. A task of the feed sends the
/// queue with `SELECT pg_notify(...)` on the store's pool, in a statement of its own after the
/// write's commit, never inside the writing transaction: PostgreSQL serializes the commits of
/// transactions that notify (a global lock held to the end of the WAL flush), so notifying in
/// the write would make every write of every replica wait in one line. What queues while one
/// notification is sent goes out in the next one, several tasks at once (a payload names the
/// tasks, up to 7,000 bytes), so a busy replica sends fewer notifications than it writes events.
/// A replica ignores its own announcements.
///
/// # When the connection drops
///
/// The listening connection is opened again (at once, then backing off up to 5 s while the
/// database cannot be reached), and the handler is told [`Wakeup::Resync`]: it reads the log of
/// every task it follows from the last event it sent, so nothing written meanwhile is lost.
///
/// ```no_run
/// use a2a_agent::cluster::PostgresFeed;
/// use a2a_agent::store::PostgresStore;
/// use a2a_agent::{AgentExecutor, ExecutorError, RequestHandler, TaskContext, TaskUpdater};
/// use std::sync::Arc;
///
/// # struct Done;
/// # impl AgentExecutor for Done {
/// #     async fn execute(&self, _: TaskContext, task: TaskUpdater) -> Result<(), ExecutorError> {
/// #         task.complete(None).await
/// #     }
/// # }
/// # async fn demo() -> Result<(), a2a_agent::store::StoreError> {
/// let store = PostgresStore::connect("postgres://agent@db.internal/agent").await?;
/// let feed = PostgresFeed::start(&store).await?;
/// let handler = RequestHandler::builder(Done)
///     .task_store(Arc::new(store))
///     .event_feed(Arc::new(feed))
///     .build();
/// # drop(handler);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct PostgresFeed {
    ends: Ends,
}

impl PostgresFeed {
    /// Opens the listening connection on `store`'s database (with the store pool's settings, in
    /// a pool of its own) and starts the feed's two tasks (the listener and the sender) on the
    /// current Tokio runtime. They end when the feed is dropped (the sender once it has sent what
    /// was queued; it also ends when the store's pool is closed).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the listening connection cannot be opened.
    pub async fn start(store: &PostgresStore) -> Result<PostgresFeed, StoreError> {
        let pool = store.pool().clone();
        // The listening connection in a pool of its own, so that it takes none of the store's.
        let options = pool.connect_options().as_ref().clone();
        let listening = PgPoolOptions::new()
            .max_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_lazy_with(options);
        let fail = |e| crate::store::backend_error("PostgreSQL", "listen for task events", e);
        let listener = open_listener(&listening).await.map_err(fail)?;
        let (ends, tasks) = ends();
        let Tasks {
            replica,
            wakeups,
            queued,
            stopped,
        } = tasks;
        tokio::spawn(listen(
            listening,
            listener,
            replica.clone(),
            wakeups,
            stopped,
        ));
        tokio::spawn(send(pool, replica, queued));
        Ok(PostgresFeed { ends })
    }
}

impl EventFeed for PostgresFeed {
    fn replica_id(&self) -> &str {
        self.ends.replica_id()
    }

    fn send(&self, wakeup: Wakeup) {
        self.ends.queue(wakeup);
    }

    fn wakeups(&self) -> broadcast::Receiver<Wakeup> {
        self.ends.subscribe()
    }
}

/// Sends what is queued: each time, everything queued so far, as few notifications as fit.
async fn send(pool: PgPool, replica: String, mut queued: mpsc::UnboundedReceiver<Wakeup>) {
    while let Some(wakeups) = next_batch(&mut queued).await {
        for payload in payloads(&replica, wakeups) {
            let sent = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(&payload)
                .execute(&pool)
                .await;
            match sent {
                Ok(_) => {}
                Err(sqlx::Error::PoolClosed) => return,
                // The others find the events at their next wake-up or resync; the log has them.
                Err(e) => tracing::warn!(
                    target: "a2a_agent::cluster",
                    error = %e,
                    "could not announce task events to the other replicas",
                ),
            }
        }
    }
}

/// A listener on [`CHANNEL`], on `pool`'s connection.
async fn open_listener(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Hears the other replicas' notifications and passes them on, until the feed is dropped; a
/// lost connection is opened again and followed by [`Wakeup::Resync`].
async fn listen(
    pool: PgPool,
    mut listener: PgListener,
    replica: String,
    wakeups: broadcast::Sender<Wakeup>,
    mut stop: oneshot::Receiver<()>,
) {
    loop {
        let received = tokio::select! {
            _ = &mut stop => return,
            received = listener.try_recv() => received,
        };
        match received {
            Ok(Some(notification)) => {
                for wakeup in wakeups_of(notification.payload(), &replica) {
                    let _ = wakeups.send(wakeup);
                }
            }
            // The connection dropped and is open again (sqlx reconnects and listens again
            // before it says so): what was sent meanwhile is in the logs.
            Ok(None) => {
                let _ = wakeups.send(Wakeup::Resync);
            }
            // The connection failed otherwise (the server ended it, or it could not be opened
            // again): a new listener, once the database answers.
            Err(e) => {
                tracing::warn!(
                    target: "a2a_agent::cluster",
                    error = %e,
                    "lost the connection that listens for task events; opening it again",
                );
                drop(listener);
                let mut backoff = Duration::from_millis(50);
                listener = loop {
                    tokio::select! {
                        _ = &mut stop => return,
                        () = tokio::time::sleep(backoff) => {}
                    }
                    match open_listener(&pool).await {
                        Ok(listener) => break listener,
                        Err(_) => backoff = (backoff * 2).min(MAX_BACKOFF),
                    }
                };
                let _ = wakeups.send(Wakeup::Resync);
            }
        }
    }
}
