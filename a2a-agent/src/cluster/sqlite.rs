//! [`SqliteFeed`]: the event feed of processes that share one SQLite file, by polling it.

use std::collections::BTreeSet;
use std::time::Duration;

use sqlx::sqlite::SqlitePool;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::payload::{ends, next_batch, payloads, wakeups_of, Ends};
use super::{EventFeed, Wakeup};
use crate::store::{SqliteStore, StoreError};

/// How many rows one poll reads at most (the next poll goes on).
const ROWS: i64 = 1000;
/// How often a poll also drops the sent wake-ups older than a minute.
const PRUNE_EVERY: u32 = 200;

/// The [`EventFeed`] of processes on one host that share a
/// [`SqliteStore`](crate::store::SqliteStore)'s file (feature `sqlite`): SQLite has no
/// notifications, so each process polls the file (every 25 ms unless set).
///
/// - A task's log grew: the poll reads the rows added to `a2a_events` since the last poll (by
///   rowid, through the index SQLite keeps anyway): the log is the announcement, and announcing
///   costs no write.
/// - What a process asks of the others (a cancel, a sweep) is a row of `a2a_wakeups`, read by
///   the same poll, and dropped after a minute.
///
/// A process that fell behind, or missed rows, reads every followed task's log again. With it,
/// processes sharing a file are replicas as those on PostgreSQL are (the same leases and logs),
/// with a poll's delay. Without it, a second process on the file shares its tasks but not what
/// is live (see the crate docs).
///
/// ```no_run
/// use a2a_agent::cluster::SqliteFeed;
/// use a2a_agent::store::SqliteStore;
/// # async fn demo() -> Result<(), a2a_agent::store::StoreError> {
/// let store = SqliteStore::open("tasks.db").await?;
/// let feed = SqliteFeed::start(&store).await?;
/// # drop(feed);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct SqliteFeed {
    ends: Ends,
}

impl SqliteFeed {
    /// Starts polling `store`'s file every 25 ms, on the current Tokio runtime.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be read.
    pub async fn start(store: &SqliteStore) -> Result<SqliteFeed, StoreError> {
        SqliteFeed::start_with(store, Duration::from_millis(25)).await
    }

    /// Starts polling `store`'s file every `poll`: the longest a wake-up waits.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be read.
    pub async fn start_with(store: &SqliteStore, poll: Duration) -> Result<SqliteFeed, StoreError> {
        let (reader, writer) = store.pools();
        let fail = |e| crate::store::backend_error("SQLite", "start polling for task events", e);
        // From now on: what was written before is in the logs, for whoever reads them.
        let marks: (i64, i64) = sqlx::query_as(
            "SELECT (SELECT COALESCE(MAX(rowid), 0) FROM a2a_events), \
             (SELECT COALESCE(MAX(id), 0) FROM a2a_wakeups)",
        )
        .fetch_one(reader)
        .await
        .map_err(fail)?;
        let (ends, tasks) = ends();
        let poller = Poller {
            pool: reader.clone(),
            replica: tasks.replica.clone(),
            wakeups: tasks.wakeups,
            events: marks.0,
            asked: marks.1,
        };
        tokio::spawn(poller.run(poll.max(Duration::from_millis(1)), tasks.stopped));
        tokio::spawn(send(writer.clone(), tasks.replica, tasks.queued));
        Ok(SqliteFeed { ends })
    }
}

impl EventFeed for SqliteFeed {
    fn replica_id(&self) -> &str {
        self.ends.replica_id()
    }

    fn send(&self, wakeup: Wakeup) {
        // A task's log is read by rowid: it needs no row of its own.
        if !matches!(wakeup, Wakeup::Task { .. }) {
            self.ends.queue(wakeup);
        }
    }

    fn wakeups(&self) -> broadcast::Receiver<Wakeup> {
        self.ends.subscribe()
    }
}

/// Writes what is queued into `a2a_wakeups`, several at once when they queue up.
async fn send(pool: SqlitePool, replica: String, mut queued: mpsc::UnboundedReceiver<Wakeup>) {
    while let Some(wakeups) = next_batch(&mut queued).await {
        for payload in payloads(&replica, wakeups) {
            let written = sqlx::query(
                "INSERT INTO a2a_wakeups (replica, payload, at) \
                 VALUES ($1, $2, CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER))",
            )
            .bind(&replica)
            .bind(&payload)
            .execute(&pool)
            .await;
            match written {
                Ok(_) => {}
                Err(sqlx::Error::PoolClosed) => return,
                Err(e) => tracing::warn!(
                    target: "a2a_agent::cluster",
                    error = %e,
                    "could not ask the other processes",
                ),
            }
        }
    }
}

/// Reads what the other processes wrote since the last poll.
struct Poller {
    pool: SqlitePool,
    replica: String,
    wakeups: broadcast::Sender<Wakeup>,
    /// The last rowid of `a2a_events` read.
    events: i64,
    /// The last id of `a2a_wakeups` read.
    asked: i64,
}

impl Poller {
    async fn run(mut self, poll: Duration, mut stop: oneshot::Receiver<()>) {
        let mut polls = 0u32;
        loop {
            tokio::select! {
                _ = &mut stop => return,
                () = tokio::time::sleep(poll) => {}
            }
            match self.poll().await {
                Ok(()) => {}
                Err(sqlx::Error::PoolClosed) => return,
                Err(e) => {
                    tracing::warn!(target: "a2a_agent::cluster", error = %e, "could not poll for task events");
                    // Whatever was missed is in the logs.
                    let _ = self.wakeups.send(Wakeup::Resync);
                }
            }
            polls = polls.wrapping_add(1);
            if polls % PRUNE_EVERY == 0 {
                let _ = sqlx::query(
                    "DELETE FROM a2a_wakeups \
                     WHERE at < CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER) - 60000",
                )
                .execute(&self.pool)
                .await;
            }
        }
    }

    /// One poll: the tasks whose logs grew, and what was asked.
    async fn poll(&mut self) -> Result<(), sqlx::Error> {
        let grown: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT rowid, tenant, task_id FROM a2a_events WHERE rowid > $1 ORDER BY rowid LIMIT $2",
        )
        .bind(self.events)
        .bind(ROWS)
        .fetch_all(&self.pool)
        .await?;
        let mut tasks = BTreeSet::new();
        for (rowid, tenant, task_id) in grown {
            self.events = rowid;
            tasks.insert(Wakeup::Task { tenant, task_id });
        }
        for wakeup in tasks {
            let _ = self.wakeups.send(wakeup);
        }
        let asked: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT id, replica, payload FROM a2a_wakeups WHERE id > $1 ORDER BY id LIMIT $2",
        )
        .bind(self.asked)
        .bind(ROWS)
        .fetch_all(&self.pool)
        .await?;
        for (id, from, payload) in asked {
            // Rows dropped before this process read them (it was paused past a minute).
            if id > self.asked + 1 && self.asked > 0 {
                let _ = self.wakeups.send(Wakeup::Resync);
            }
            self.asked = id;
            if from != self.replica {
                for wakeup in wakeups_of(&payload, &self.replica) {
                    let _ = self.wakeups.send(wakeup);
                }
            }
        }
        Ok(())
    }
}
