use a2a_types::v1::{Task, TaskPushNotificationConfig};
use sqlx::{PgPool, Postgres};
use std::time::Duration;

use super::sql::{Dialect, Migration, SqlStore};
use super::{
    ExpiredLease, Lease, LoggedEvent, OutboxId, PushConfigPage, PushConfigStore, Scope, StoreError,
    StoreFuture, Stored, TaskPage, TaskQuery, TaskStore, WriteWith,
};

impl Dialect for Postgres {
    const LABEL: &'static str = "PostgreSQL";
    const BEGIN_WRITE: &'static str = "BEGIN";
    // Held to the end of the migration transaction: replicas starting at once take turns, and
    // the second finds the schema done. The key is "a2agent1" in ASCII.
    const MIGRATION_LOCK: Option<&'static str> =
        Some("SELECT pg_advisory_xact_lock(7003767467225805873)");
    const BEGIN_SNAPSHOT: &'static str = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";
    const MIGRATIONS: &'static [Migration] = &[
        Migration {
            version: 1,
            description: "tasks and push configs",
            moves_histories: false,
            moves_artifacts: false,
            // Ids are compared bytewise (COLLATE "C"), as SQLite and the memory store compare
            // them, so every store lists in the same order whatever the database's locale.
            sql: r#"
CREATE TABLE a2a_tasks (
    tenant     TEXT   NOT NULL,
    id         TEXT   COLLATE "C" NOT NULL,
    context_id TEXT,
    state      TEXT   NOT NULL,
    status_s   BIGINT,
    status_n   BIGINT,
    sort_s     BIGINT NOT NULL,
    sort_n     BIGINT NOT NULL,
    version    BIGINT NOT NULL,
    task       TEXT   NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE INDEX a2a_tasks_by_update ON a2a_tasks (tenant, sort_s DESC, sort_n DESC, id DESC);
CREATE INDEX a2a_tasks_by_context
    ON a2a_tasks (tenant, context_id, sort_s DESC, sort_n DESC, id DESC);
CREATE INDEX a2a_tasks_by_state ON a2a_tasks (tenant, state, sort_s DESC, sort_n DESC, id DESC);
CREATE TABLE a2a_push_configs (
    tenant  TEXT NOT NULL,
    task_id TEXT NOT NULL,
    id      TEXT COLLATE "C" NOT NULL,
    config  TEXT NOT NULL,
    PRIMARY KEY (tenant, task_id, id)
);
"#,
        },
        super::sql::OWNERS,
        super::sql::EVENTS,
        super::sql::outbox_migration(4),
        super::sql::retention_migration(5),
        super::sql::history_migration(6, super::sql::history_table!("TEXT COLLATE \"C\"")),
        super::sql::counts_migration(7),
        super::sql::artifacts_migration(8, super::sql::artifacts_table!("TEXT COLLATE \"C\"")),
        super::sql::protocol_migration(9),
    ];
    const JSON_ROWS: &'static str =
        "(SELECT h.o - 1 AS i, h.e::text AS m FROM json_array_elements({array}::json) WITH ORDINALITY AS h(e, o)) AS r";
    const MESSAGES_AGG: &'static str = "string_agg(h.message, ',' ORDER BY h.idx)";
    const ARTIFACTS_AGG: &'static str =
        "string_agg('[' || a.chunk || ',' || a.artifact || ']', ',' ORDER BY a.idx)";
    const NOW_MS: &'static str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
    const WRITES_IN_WITH: bool = true;

    fn rows_affected(done: &Self::QueryResult) -> u64 {
        done.rows_affected()
    }
}

/// Tasks and push configs in PostgreSQL: both [`TaskStore`] and [`PushConfigStore`] (feature
/// `postgres`).
///
/// The store for several replicas of one agent: point every replica at the same database.
/// Each write is one statement whose `WHERE` names the version it read (optimistic
/// versioning), so two replicas updating one task never lose an update: one of them gets
/// [`StoreError::Conflict`] and retries on what the other wrote. Nothing is cached in the
/// process, so a task written by one replica is read by the next call on any other. The same
/// schema as [`SqliteStore`](crate::store::SqliteStore) (in PostgreSQL's types), created on first
/// connect and versioned in `a2a_schema_version`; concurrent first connects take turns on an
/// advisory lock. The tables (`a2a_tasks`,
/// `a2a_push_configs`, `a2a_schema_version`) are created in the connection's current schema
/// (`search_path`), so an agent may share a database with other tables.
///
/// A task is stored as its JSON (`TEXT`, so it reads back byte for byte) beside the indexed
/// columns lists filter and sort by. A list's count and page are read in one `REPEATABLE READ`
/// snapshot.
///
/// # TLS
///
/// This crate enables no TLS in sqlx: a connection URL with `sslmode=require` fails. To reach a
/// database over TLS, enable one of sqlx's TLS features in the application
/// (`sqlx = { version = "0.8", features = ["tls-rustls"] }`; cargo unifies features), and pass
/// the pool to [`PostgresStore::from_pool`] or the URL to [`PostgresStore::connect`].
///
/// ```no_run
/// use a2a_agent::store::{PostgresStore, TaskStore};
/// use std::sync::Arc;
///
/// # async fn demo() -> Result<(), a2a_agent::store::StoreError> {
/// let store = PostgresStore::connect("postgres://agent@db.internal/agent").await?;
/// let _tasks: Arc<dyn TaskStore> = Arc::new(store);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct PostgresStore {
    sql: SqlStore<Postgres>,
}

impl PostgresStore {
    /// The schema version this build writes: [`connect`](PostgresStore::connect) brings every
    /// database to it.
    pub const SCHEMA_VERSION: u32 = 9;

    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) with
    /// sqlx's default pool (up to 10 connections), and creates or migrates the schema.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot be reached, a migration fails, or its
    /// schema is newer than this build knows.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let pool = PgPool::connect(url)
            .await
            .map_err(|e| super::sql::backend(Postgres::LABEL, "connect to the database", e))?;
        PostgresStore::from_pool(pool).await
    }

    /// A store on a pool configured by the caller (its size, timeouts, TLS), after creating or
    /// migrating the schema. The pool's type is sqlx 0.8's.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot be reached through the pool, a migration
    /// fails, or its schema is newer than this build knows.
    pub async fn from_pool(pool: PgPool) -> Result<PostgresStore, StoreError> {
        SqlStore::migrate(&pool).await?;
        Ok(PostgresStore {
            // One pool serves both: PostgreSQL takes concurrent writers.
            sql: SqlStore::new(pool.clone(), pool),
        })
    }

    /// The newest migration the database has had: [`PostgresStore::SCHEMA_VERSION`] once
    /// connected.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the database cannot be read.
    pub async fn schema_version(&self) -> Result<u32, StoreError> {
        self.sql.schema_version().await
    }

    /// The store's pool.
    pub(crate) fn pool(&self) -> &PgPool {
        self.sql.pools()[1]
    }

    /// Closes the pool's connections, waiting for calls under way to finish.
    pub async fn close(&self) {
        self.sql.close().await;
    }
}

/// Fails to compile if opening is not `Send` (a spawned task could not open a store).
#[allow(dead_code)]
fn open_is_send() {
    fn send<T: Send>(_: T) {}
    send(PostgresStore::connect(""));
}

impl TaskStore for PostgresStore {
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

impl PushConfigStore for PostgresStore {
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
