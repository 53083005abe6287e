use std::path::Path;
use std::time::Duration;

use a2a_types::v1::{Task, TaskPushNotificationConfig};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Sqlite;

use super::sql::{Dialect, Migration, SqlStore};
use super::{
    ExpiredLease, Lease, LoggedEvent, OutboxId, PushConfigPage, PushConfigStore, Scope, StoreError,
    StoreFuture, Stored, TaskPage, TaskQuery, TaskStore, WriteWith,
};

/// How long a statement waits for another process's write lock before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections that read; WAL lets them read while the writer writes.
const READERS: u32 = 4;

impl Dialect for Sqlite {
    const LABEL: &'static str = "SQLite";
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const MIGRATION_LOCK: Option<&'static str> = None;
    // Deferred: the snapshot is taken at the first read and kept to the end (WAL).
    const BEGIN_SNAPSHOT: &'static str = "BEGIN";
    const MIGRATIONS: &'static [Migration] = &[
        Migration {
            version: 1,
            description: "tasks and push configs",
            moves_histories: false,
            moves_artifacts: false,
            sql: "
CREATE TABLE a2a_tasks (
    tenant     TEXT    NOT NULL,
    id         TEXT    NOT NULL,
    context_id TEXT,
    state      TEXT    NOT NULL,
    status_s   INTEGER,
    status_n   INTEGER,
    sort_s     INTEGER NOT NULL,
    sort_n     INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    task       TEXT    NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX a2a_tasks_by_update ON a2a_tasks (tenant, sort_s DESC, sort_n DESC, id DESC);
CREATE INDEX a2a_tasks_by_context
    ON a2a_tasks (tenant, context_id, sort_s DESC, sort_n DESC, id DESC);
CREATE INDEX a2a_tasks_by_state ON a2a_tasks (tenant, state, sort_s DESC, sort_n DESC, id DESC);
CREATE TABLE a2a_push_configs (
    tenant  TEXT NOT NULL,
    task_id TEXT NOT NULL,
    id      TEXT NOT NULL,
    config  TEXT NOT NULL,
    PRIMARY KEY (tenant, task_id, id)
);
",
        },
        super::sql::OWNERS,
        super::sql::EVENTS,
        Migration {
            version: 4,
            description: "wake-ups between processes",
            moves_histories: false,
            moves_artifacts: false,
            // What a process asks the others (cluster::SqliteFeed): a cancel, a sweep.
            sql: "
CREATE TABLE a2a_wakeups (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    replica TEXT    NOT NULL,
    payload TEXT    NOT NULL,
    at      INTEGER NOT NULL
);
",
        },
        super::sql::outbox_migration(5),
        super::sql::retention_migration(6),
        super::sql::history_migration(7, super::sql::history_table!("TEXT")),
        super::sql::counts_migration(8),
        super::sql::artifacts_migration(9, super::sql::artifacts_table!("TEXT")),
        super::sql::protocol_migration(10),
    ];
    const JSON_ROWS: &'static str =
        "(SELECT h.key AS i, h.value AS m FROM json_each({array}) AS h) AS r";
    const MESSAGES_AGG: &'static str = "group_concat(h.message, ',' ORDER BY h.idx)";
    const ARTIFACTS_AGG: &'static str =
        "group_concat('[' || a.chunk || ',' || a.artifact || ']', ',' ORDER BY a.idx)";
    const NOW_MS: &'static str = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
    const WRITES_IN_WITH: bool = false;

    fn rows_affected(done: &Self::QueryResult) -> u64 {
        done.rows_affected()
    }
}

/// What an acknowledged write of a [`SqliteStore`] survives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// A power loss or an OS crash: each commit syncs the WAL (`synchronous = FULL`). The
    /// default.
    #[default]
    PowerLoss,
    /// A crash of the process only: no sync per commit (`synchronous = NORMAL`); a power loss may
    /// lose the last acknowledged commits, never the file's consistency.
    ProcessCrash,
}

/// Tasks and push configs in a SQLite file: both [`TaskStore`] and [`PushConfigStore`] (feature
/// `sqlite`).
///
/// For one host: the file survives restarts, and several processes on the host may share it
/// (SQLite locks the file; the version check holds across them; with a
/// [`SqliteFeed`](crate::cluster::SqliteFeed) each, they share what is live too). Replicas on several hosts need
/// [`PostgresStore`](crate::store::PostgresStore): SQLite over a network file system is not safe.
///
/// - The file and its schema are created on first [`open`](SqliteStore::open); each open
///   applies the migrations the file has not had (see [`schema_version`](SqliteStore::schema_version)).
/// - WAL journal mode: readers never wait for the writer. By default `synchronous = FULL`: a
///   write is acknowledged once the WAL is synced, so it survives a power loss
///   ([`Durability::PowerLoss`]). [`open_with`](SqliteStore::open_with) and
///   [`Durability::ProcessCrash`] choose `synchronous = NORMAL` instead: no sync per commit, a
///   crash of the process loses nothing, a power loss (or an OS crash) may lose the last commits
///   (those since the last WAL checkpoint), never the file's consistency. What the sync costs:
///   bench/README.md, "SQLite durability".
/// - Writes go through one connection, so this process's writers queue in the pool instead of
///   polling SQLite's lock; reads use a pool of four. A writer in another process holding the
///   lock is waited for up to 10 s (the busy timeout), then the call fails with
///   [`StoreError::Backend`].
/// - A task is one row: its JSON (serde of [`a2a_types::v1::Task`]) and the columns lists
///   filter and sort by (tenant, id, context id, state, status time, last update time,
///   version).
///
/// # Migrations
///
/// Versioned by the store's own table, `a2a_schema_version` (version, description, time
/// applied), not sqlx's `migrate!`: the migrations are SQL text in this crate, applied in one
/// transaction (`BEGIN IMMEDIATE`, so two processes opening a new file do not both apply them),
/// and no proc-macro or migration directory is needed at build time. A file whose schema is
/// newer than this build knows is refused rather than misread.
///
/// ```
/// use a2a_agent::store::{Scope, SqliteStore, TaskStore};
/// use a2a_types::v1::Task;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let store = SqliteStore::open(dir.path().join("tasks.db")).await?;
/// store.create_task(Scope::default(), &Task { id: "t-1".into(), ..Default::default() }).await?;
/// assert_eq!(store.get_task(Scope::default(), "t-1").await?.unwrap().version, 1);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct SqliteStore {
    sql: SqlStore<Sqlite>,
}

impl SqliteStore {
    /// The schema version this build writes: [`open`](SqliteStore::open) brings every file to
    /// it.
    pub const SCHEMA_VERSION: u32 = 10;

    /// Opens the SQLite file at `path`, creating it and its schema when it does not exist, and
    /// applying any migration it has not had.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be opened or created, a migration fails, or
    /// its schema is newer than this build knows.
    pub async fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        Self::open_with(path, Durability::PowerLoss).await
    }

    /// [`open`](SqliteStore::open), with the durability of acknowledged writes chosen.
    ///
    /// # Errors
    ///
    /// As [`open`](SqliteStore::open).
    pub async fn open_with(
        path: impl AsRef<Path>,
        durability: Durability,
    ) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref();
        let fail = |e: sqlx::Error| {
            super::sql::backend(Sqlite::LABEL, format!("open `{}`", path.display()), e)
        };
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::PowerLoss => SqliteSynchronous::Full,
                Durability::ProcessCrash => SqliteSynchronous::Normal,
            })
            .busy_timeout(BUSY_TIMEOUT);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .map_err(fail)?;
        SqlStore::migrate(&writer).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(READERS)
            .connect_with(options)
            .await
            .map_err(fail)?;
        Ok(SqliteStore {
            sql: SqlStore::new(reader, writer),
        })
    }

    /// The store's pools: the readers, and the writer.
    pub(crate) fn pools(&self) -> (&SqlitePool, &SqlitePool) {
        let [reader, writer] = self.sql.pools();
        (reader, writer)
    }

    /// The newest migration the file has had: [`SqliteStore::SCHEMA_VERSION`] once opened.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be read.
    pub async fn schema_version(&self) -> Result<u32, StoreError> {
        self.sql.schema_version().await
    }

    /// Closes the connections, waiting for calls under way to finish (the store and its
    /// clones fail every call after). Dropping the store closes them too, without waiting.
    pub async fn close(&self) {
        self.sql.close().await;
    }
}

/// Fails to compile if opening is not `Send` (a spawned task could not open a store).
#[allow(dead_code)]
fn open_is_send() {
    fn send<T: Send>(_: T) {}
    send(SqliteStore::open(""));
}

impl TaskStore for SqliteStore {
    super::sql::task_history_methods!();

    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64> {
        Box::pin(self.sql.create_task(scope, task, WriteWith::default()))
    }

    fn update_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> StoreFuture<'a, u64> {
        Box::pin(
            self.sql
                .update_task(scope, task, expected_version, WriteWith::default()),
        )
    }

    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage> {
        Box::pin(self.sql.list_tasks(scope, query))
    }

    fn keeps_events(&self) -> bool {
        true
    }

    fn keeps_leases(&self) -> bool {
        true
    }

    fn outbox(&self) -> Option<OutboxId> {
        self.sql.outbox()
    }

    fn create_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(self.sql.create_task(scope, task, with))
    }

    fn update_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(self.sql.update_task(scope, task, expected_version, with))
    }

    fn set_lease<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        lease: Lease<'a>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.sql.set_lease(scope, task_id, lease))
    }

    fn renew_leases<'a>(&'a self, holder: &'a str, ttl: Duration) -> StoreFuture<'a, u64> {
        Box::pin(self.sql.leases_of(holder, Some(ttl)))
    }

    fn release_leases<'a>(&'a self, holder: &'a str) -> StoreFuture<'a, u64> {
        Box::pin(self.sql.leases_of(holder, None))
    }

    fn expired_leases(&self, limit: u32) -> StoreFuture<'_, Vec<ExpiredLease>> {
        Box::pin(self.sql.expired_leases(limit))
    }

    fn events_after<'a>(
        &'a self,
        tenant: Option<&'a str>,
        task_id: &'a str,
        after: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LoggedEvent>> {
        Box::pin(self.sql.events_after(tenant, task_id, after, limit))
    }

    super::sql::task_retention_methods!();
}

impl PushConfigStore for SqliteStore {
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        let protocol = a2a_types::rt::version::ProtocolVersion::V1_0;
        Box::pin(self.sql.set_push_config(scope, task_id, config, protocol))
    }

    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        Box::pin(self.sql.get_push_config(scope, task_id, config_id))
    }

    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage> {
        Box::pin(
            self.sql
                .list_push_configs(scope, task_id, page_size, page_token),
        )
    }

    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool> {
        Box::pin(self.sql.delete_push_config(scope, task_id, config_id))
    }

    super::sql::push_outbox_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn acknowledged_writes_survive_a_power_loss_unless_asked_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tasks.db");
        // PRAGMA synchronous: 2 is FULL, 1 is NORMAL; on the writer and the readers alike.
        for (store, expected) in [
            (SqliteStore::open(&path).await.unwrap(), 2),
            (
                SqliteStore::open_with(&path, Durability::ProcessCrash)
                    .await
                    .unwrap(),
                1,
            ),
        ] {
            for pool in store.sql.pools() {
                let (level,): (i64,) = sqlx::query_as("PRAGMA synchronous")
                    .fetch_one(pool)
                    .await
                    .unwrap();
                assert_eq!(level, expected);
                let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
                    .fetch_one(pool)
                    .await
                    .unwrap();
                assert_eq!(mode, "wal");
            }
            store.close().await;
        }
    }
}
