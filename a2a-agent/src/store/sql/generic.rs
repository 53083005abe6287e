//! [`SqlStore`]: the two store traits' logic over one sqlx database (see the
//! [parent module](super) for why it is generic and where its bounds live).

use std::fmt;

use std::time::Duration;

use a2a_types::v1::Task;
use sqlx::{Arguments, Executor, FromRow, Pool};

use super::{backend, Bind, Dialect, TaskRow};
use crate::store::{
    token, Artifacts, ExpiredLease, Lease, LoggedEvent, Scope, StoreError, Stored, TaskPage,
    TaskQuery, WriteWith,
};

/// A task as `GET_TASK` reads it: its JSON, version and owner, its history and its artifacts
/// (the aggregates).
type TaskRowRead = (String, i64, String, Option<String>, Option<String>);

/// A row of a list page: the task's JSON, its sort key (seconds, nanoseconds, id), its history
/// and its artifacts (the aggregates).
type ListRow = (String, i64, i64, String, Option<String>, Option<String>);

/// The pools of a SQL store, and every store operation on them, once for all databases.
///
/// `reader` serves reads, `writer` writes; they are one pool where the database takes
/// concurrent writers (PostgreSQL), two where it does not (SQLite).
pub(crate) struct SqlStore<DB: sqlx::Database> {
    reader: Pool<DB>,
    writer: Pool<DB>,
    /// Which store this is, for [`outbox`](crate::store::TaskStore::outbox): the same for its
    /// clones, another for each store opened.
    id: u64,
}

impl<DB: sqlx::Database> Clone for SqlStore<DB> {
    fn clone(&self) -> Self {
        SqlStore {
            reader: self.reader.clone(),
            writer: self.writer.clone(),
            id: self.id,
        }
    }
}

impl<DB: Dialect> fmt::Debug for SqlStore<DB> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqlStore")
            .field("database", &DB::LABEL)
            .field("reader", &self.reader)
            .field("writer", &self.writer)
            .finish()
    }
}

/// An `impl` block of [`SqlStore`]'s operations, under what they need of a driver, in one
/// place: connections (and so pools and transactions) that execute statements, arguments that
/// bind, the Rust types of `Bind` that encode, and those of the rows that decode. Both sqlx
/// drivers have all of it. A macro only so that the operations can live in more than one file
/// with the bounds written once; the methods keep their own spans, so an error in one is
/// reported in its code.
macro_rules! sql_impl {
    ($($body:tt)*) => {
        impl<DB> $crate::store::sql::SqlStore<DB>
        where
            DB: $crate::store::sql::Dialect,
            for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
            for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
            for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Decode<'q, DB> + sqlx::Type<DB>,
            for<'q> Option<i64>: sqlx::Encode<'q, DB>,
            for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
            for<'q> Option<&'q str>: sqlx::Encode<'q, DB>,
            for<'r> String: sqlx::Decode<'r, DB> + sqlx::Type<DB>,
            usize: sqlx::ColumnIndex<DB::Row>,
        {
            $($body)*
        }
    };
}
pub(crate) use sql_impl;

sql_impl! {
    /// The pools, reader then writer: for an event feed, and for a test to read the
    /// connections' settings.
    pub(crate) fn pools(&self) -> [&Pool<DB>; 2] {
        [&self.reader, &self.writer]
    }

    /// A store on `reader` and `writer`, whose database [`migrate`](Self::migrate) has brought
    /// up to date.
    pub(crate) fn new(reader: Pool<DB>, writer: Pool<DB>) -> SqlStore<DB> {
        static OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        SqlStore { reader, writer, id }
    }

    /// The outbox this store keeps: its own (see `TaskStore::outbox`).
    pub(crate) fn outbox(&self) -> Option<crate::store::OutboxId> {
        Some(crate::store::OutboxId(self.id))
    }

    /// A write transaction on the writer ([`Dialect::BEGIN_WRITE`]).
    pub(super) async fn begin_write(&self) -> Result<sqlx::Transaction<'_, DB>, sqlx::Error> {
        self.writer.begin_with(DB::BEGIN_WRITE).await
    }

    /// `binds` as the driver's arguments: the one place values meet sqlx. Encoding fails as
    /// `Query::bind` has it fail when the statement runs.
    pub(super) fn arguments<'q>(binds: &'q [Bind<'_>]) -> Result<DB::Arguments<'q>, sqlx::Error> {
        let mut arguments = DB::Arguments::default();
        for (i, bind) in binds.iter().enumerate() {
            let added = match bind {
                Bind::Int(v) => arguments.add(*v),
                Bind::Text(v) => arguments.add(&**v),
                Bind::NullableInt(v) => arguments.add(*v),
                Bind::NullableText(v) => arguments.add(*v),
            };
            added.map_err(|e| {
                sqlx::Error::Encode(format!("Encoding argument ${} failed: {e}", i + 1).into())
            })?;
        }
        Ok(arguments)
    }

    /// Runs `statement` on the writer and returns how many rows it changed.
    pub(super) async fn write(&self, statement: &str, binds: &[Bind<'_>]) -> Result<u64, sqlx::Error> {
        let done = sqlx::query_with(statement, Self::arguments(binds)?)
            .execute(&self.writer)
            .await?;
        Ok(DB::rows_affected(&done))
    }

    /// The row `statement` reads on the reader, if any.
    pub(super) async fn read_one<O>(
        &self,
        statement: &str,
        binds: &[Bind<'_>],
    ) -> Result<Option<O>, sqlx::Error>
    where
        O: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    {
        sqlx::query_as_with(statement, Self::arguments(binds)?)
            .fetch_optional(&self.reader)
            .await
    }

    /// The rows `statement` reads on the reader.
    pub(super) async fn read_all<O>(&self, statement: &str, binds: &[Bind<'_>]) -> Result<Vec<O>, sqlx::Error>
    where
        O: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    {
        sqlx::query_as_with(statement, Self::arguments(binds)?)
            .fetch_all(&self.reader)
            .await
    }

    /// The rows a writing `statement` (one with `RETURNING`) returns, run on the writer.
    pub(super) async fn write_returning<O>(
        &self,
        statement: &str,
        binds: &[Bind<'_>],
    ) -> Result<Vec<O>, sqlx::Error>
    where
        O: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    {
        sqlx::query_as_with(statement, Self::arguments(binds)?)
            .fetch_all(&self.writer)
            .await
    }

    /// Brings the schema of `pool`'s database up to date, in one transaction.
    pub(crate) async fn migrate(pool: &Pool<DB>) -> Result<(), StoreError> {
        let label = DB::LABEL;
        let fail = |e: sqlx::Error| backend(label, "migrate the schema", e);
        let mut tx = pool.begin_with(DB::BEGIN_WRITE).await.map_err(fail)?;
        if let Some(lock) = DB::MIGRATION_LOCK {
            sqlx::query(lock).execute(&mut *tx).await.map_err(fail)?;
        }
        // Statements as plain text (`Executor::execute` of a `&str`): no binds, and several
        // statements in one text are run in turn. `sqlx::raw_sql` would do the same, but rustc
        // cannot prove its future `Send` here.
        Executor::execute(&mut *tx, super::CREATE_VERSION_TABLE)
            .await
            .map_err(fail)?;
        let current: Option<i64> = sqlx::query_scalar(super::SCHEMA_VERSION)
            .fetch_one(&mut *tx)
            .await
            .map_err(fail)?;
        let current = current.unwrap_or(0);
        let known = DB::MIGRATIONS.last().map_or(0, |m| m.version);
        if current > known {
            return Err(backend(
                label,
                "open the database",
                super::NewerSchema {
                    found: current,
                    known,
                },
            ));
        }
        // A plain loop over a slice: an iterator adapter's closure held across the awaits below
        // once made rustc fail to prove this future `Send` (here, with rustc 1.95, it does not).
        for m in DB::MIGRATIONS {
            if m.version <= current {
                continue;
            }
            Executor::execute(&mut *tx, m.sql).await.map_err(|e| {
                backend(
                    label,
                    format!("apply migration {} ({})", m.version, m.description),
                    e,
                )
            })?;
            if m.moves_histories || m.moves_artifacts {
                let moved = Self::move_out_of_json(&mut tx, m.moves_histories, m.moves_artifacts);
                moved.await.map_err(|e| {
                    backend(label, format!("apply migration {} ({})", m.version, m.description), e)
                })?;
            }
            let applied_at = a2a_types::rt::Timestamp::now().into_string();
            let binds = [
                Bind::Int(m.version),
                Bind::text(m.description),
                Bind::text(&applied_at),
            ];
            sqlx::query_with(
                super::RECORD_MIGRATION,
                Self::arguments(&binds).map_err(fail)?,
            )
            .execute(&mut *tx)
            .await
            .map_err(fail)?;
        }
        tx.commit().await.map_err(fail)
    }

    /// The newest migration applied to the database.
    pub(crate) async fn schema_version(&self) -> Result<u32, StoreError> {
        let max: Option<i64> = sqlx::query_scalar(super::SCHEMA_VERSION)
            .fetch_one(&self.reader)
            .await
            .map_err(|e| backend(DB::LABEL, "read the schema version", e))?;
        super::schema_version(DB::LABEL, max)
    }

    /// Closes the pools, waiting for calls under way to finish (closing a closed pool again,
    /// as when reader and writer are one, returns at once).
    pub(crate) async fn close(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }

    /// `statement` with the history's and the artifacts' aggregates of the task `t` (its alias
    /// there) written in: `{agg}` and `{artifacts_of}`.
    fn aggregates(statement: &str, t: &str) -> String {
        let artifacts = super::ARTIFACTS_OF
            .replace("{t}", t)
            .replace("{artifacts}", DB::ARTIFACTS_AGG);
        statement
            .replace("{agg}", DB::MESSAGES_AGG)
            .replace("{artifacts_of}", &artifacts)
    }

    /// [`TaskStore::get_task`](crate::store::TaskStore::get_task), and with `last`,
    /// [`TaskStore::get_task_recent`](crate::store::TaskStore::get_task_recent).
    pub(crate) async fn get_task(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        last: Option<u32>,
    ) -> Result<Option<Stored>, StoreError> {
        let label = DB::LABEL;
        let last = last.map_or(super::ALL_MESSAGES, i64::from);
        let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id), Bind::Int(last)];
        let statement = Self::aggregates(super::GET_TASK, "t");
        let statement = super::owned_owned(statement, scope.owner, &mut binds);
        let row: Option<TaskRowRead> = self
            .read_one(&statement, &binds)
            .await
            .map_err(|e| backend(label, format!("read task `{task_id}`"), e))?;
        let Some((json, version, owner, messages, artifacts)) = row else {
            return Ok(None);
        };
        let version = u64::try_from(version)
            .map_err(|e| backend(label, format!("read the version of task `{task_id}`"), e))?;
        let mut task = super::decode_task(label, &json)?;
        task.history = super::history::decode_joined(label, task_id, messages.as_deref())?;
        task.artifacts = super::artifacts::decode_joined(label, task_id, artifacts.as_deref())?;
        Ok(Some(Stored {
            task,
            version,
            owner,
        }))
    }

    /// [`TaskStore::create_task_with`](crate::store::TaskStore::create_task_with) (and with
    /// nothing more, `create_task`).
    pub(crate) async fn create_task(
        &self,
        scope: Scope<'_>,
        task: &Task,
        with: WriteWith<'_>,
    ) -> Result<u64, StoreError> {
        let label = DB::LABEL;
        let row = TaskRow::of(label, task)?;
        let event = with
            .event
            .map(|e| super::encode_event(label, e))
            .transpose()?;
        let mut binds = row.binds(scope.tenant_key(), &task.id);
        binds.push(Bind::text(scope.owner_key()));
        let added = super::Added::of(label, &task.history, crate::store::History::Whole)?;
        let history = super::HistoryWrite {
            replaces: false,
            ..added.write()
        };
        let artifacts = super::ArtifactsWrite::of(label, &task.artifacts, Artifacts::Whole, false)?;
        let logged = super::Logged {
            event: event.as_deref(),
            queue: with.notify,
            history: Some(history),
            artifacts: Some(&artifacts),
            counted: Some(super::Counted {
                owner: scope.owner_key(),
                stripe: super::counts::stripe(&task.id),
            }),
            in_with: DB::WRITES_IN_WITH,
            json_rows: DB::JSON_ROWS,
        };
        let write = super::create_task(binds, with.lease, logged, DB::NOW_MS);
        let written = self
            .write_logged(&write)
            .await
            .map_err(|e| backend(label, format!("create task `{}`", task.id), e))?;
        if written == 0 {
            return Err(StoreError::Conflict {
                task_id: task.id.clone(),
                expected_version: None,
            });
        }
        Ok(1)
    }

    /// [`TaskStore::update_task_with`](crate::store::TaskStore::update_task_with) (and with
    /// nothing more, `update_task`).
    pub(crate) async fn update_task(
        &self,
        scope: Scope<'_>,
        task: &Task,
        expected_version: u64,
        with: WriteWith<'_>,
    ) -> Result<u64, StoreError> {
        let label = DB::LABEL;
        let row = TaskRow::of(label, task)?;
        let event = with
            .event
            .map(|e| super::encode_event(label, e))
            .transpose()?;
        let added = super::Added::of(label, &task.history, with.history)?;
        let artifacts = super::ArtifactsWrite::of(label, &task.artifacts, with.artifacts, true)?;
        // A version beyond i64 was never stored: no row can match it.
        let written = match i64::try_from(expected_version) {
            Err(_) => 0,
            Ok(expected) => {
                let binds = row.binds(scope.tenant_key(), &task.id);
                let logged = super::Logged {
                    event: event.as_deref(),
                    queue: with.notify,
                    history: Some(added.write()),
                    artifacts: Some(&artifacts),
                    counted: None,
                    in_with: DB::WRITES_IN_WITH,
                    json_rows: DB::JSON_ROWS,
                };
                let write = super::update_task(
                    binds,
                    expected,
                    scope.owner,
                    with.lease,
                    logged,
                    DB::NOW_MS,
                );
                self.write_logged(&write)
                    .await
                    .map_err(|e| backend(label, format!("update task `{}`", task.id), e))?
            }
        };
        if written == 1 {
            return Ok(expected_version + 1);
        }
        Err(self
            .refused(scope, &task.id, with.lease, Some(expected_version))
            .await)
    }

    /// Why a write of the task wrote nothing: a terminal task, another's lease, a stale version
    /// (`expected`; `None`: no version was named) or a missing task.
    async fn refused(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        lease: Lease<'_>,
        expected: Option<u64>,
    ) -> StoreError {
        let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id)];
        let statement = super::expand(super::TASK_VERSION, DB::NOW_MS);
        let statement = super::owned_owned(statement, scope.owner, &mut binds);
        let exists: Result<Option<super::leases::RefusedRow>, _> =
            self.read_one(&statement, &binds).await;
        match exists {
            Err(e) => backend(DB::LABEL, format!("read task `{task_id}`"), e),
            Ok(row) => super::leases::why_refused(row, task_id, lease, expected),
        }
    }

    /// [`TaskStore::set_lease`](crate::store::TaskStore::set_lease).
    pub(crate) async fn set_lease(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        lease: Lease<'_>,
    ) -> Result<(), StoreError> {
        let Some((statement, mut binds)) = super::leases::set_lease(scope, task_id, lease) else {
            return Ok(());
        };
        let statement = super::expand(statement, DB::NOW_MS);
        let statement = super::owned_owned(statement, scope.owner, &mut binds);
        // A lease given back between a refused take and the read that says why: take it again
        // (a bounded number of times: each retry means another replica moved in between).
        for _ in 0..8 {
            let written = self
                .write(&statement, &binds)
                .await
                .map_err(|e| backend(DB::LABEL, format!("set the lease of task `{task_id}`"), e))?;
            if written == 1 || !matches!(lease, Lease::Hold { .. }) {
                return Ok(());
            }
            match self.refused(scope, task_id, lease, None).await {
                StoreError::Conflict { .. } => continue,
                why => return Err(why),
            }
        }
        Err(StoreError::Conflict {
            task_id: task_id.to_owned(),
            expected_version: None,
        })
    }

    /// Runs a task write and returns how many rows it changed; with statements to run after it
    /// (an event to log, a history's rows), in a transaction that runs them when the write
    /// changed one row (and nothing otherwise).
    async fn write_logged(&self, write: &super::TaskWrite<'_>) -> Result<u64, sqlx::Error> {
        if write.after.is_empty() {
            return self.write(&write.statement, &write.binds).await;
        }
        let mut tx = self.writer.begin_with(DB::BEGIN_WRITE).await?;
        let done = sqlx::query_with(&write.statement, Self::arguments(&write.binds)?)
            .execute(&mut *tx)
            .await?;
        let written = DB::rows_affected(&done);
        if written == 1 {
            for (statement, binds) in &write.after {
                sqlx::query_with(statement, Self::arguments(binds)?)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        Ok(written)
    }

    /// Every lease of `holder`: renewed for `ttl` ([`TaskStore::renew_leases`]), or with none
    /// expired now ([`TaskStore::release_leases`]).
    ///
    /// [`TaskStore::renew_leases`]: crate::store::TaskStore::renew_leases
    /// [`TaskStore::release_leases`]: crate::store::TaskStore::release_leases
    pub(crate) async fn leases_of(
        &self,
        holder: &str,
        ttl: Option<Duration>,
    ) -> Result<u64, StoreError> {
        let (statement, binds) = super::leases::leases_of(holder, ttl);
        let statement = super::expand(statement, DB::NOW_MS);
        self.write(&statement, &binds)
            .await
            .map_err(|e| backend(DB::LABEL, "renew or give back the leases", e))
    }

    /// [`TaskStore::expired_leases`](crate::store::TaskStore::expired_leases).
    pub(crate) async fn expired_leases(&self, limit: u32) -> Result<Vec<ExpiredLease>, StoreError> {
        let label = DB::LABEL;
        let statement = Self::aggregates(super::leases::EXPIRED_LEASES, "a2a_tasks");
        let statement = super::expand(&statement, DB::NOW_MS);
        let rows: Vec<super::leases::ExpiredRow> = self
            .read_all(&statement, &[Bind::Int(i64::from(limit))])
            .await
            .map_err(|e| backend(label, "find expired leases", e))?;
        rows.into_iter()
            .map(|row| super::leases::expired_lease(label, row))
            .collect()
    }

    /// [`TaskStore::events_after`](crate::store::TaskStore::events_after).
    pub(crate) async fn events_after(
        &self,
        tenant: Option<&str>,
        task_id: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<LoggedEvent>, StoreError> {
        let label = DB::LABEL;
        // A version beyond i64 was never stored: nothing follows it.
        let Ok(after) = i64::try_from(after) else {
            return Ok(Vec::new());
        };
        let binds = [tenant.unwrap_or_default(), task_id].map(Bind::text);
        let binds = [&binds[..], &[Bind::Int(after), Bind::Int(i64::from(limit))]].concat();
        let rows: Vec<(i64, String)> = self
            .read_all(super::EVENTS_AFTER, &binds)
            .await
            .map_err(|e| backend(label, format!("read the events of task `{task_id}`"), e))?;
        rows.into_iter()
            .map(|row| super::logged_event(label, task_id, row))
            .collect()
    }

    /// [`TaskStore::list_tasks`](crate::store::TaskStore::list_tasks).
    pub(crate) async fn list_tasks(
        &self,
        scope: Scope<'_>,
        query: &TaskQuery,
    ) -> Result<TaskPage, StoreError> {
        let label = DB::LABEL;
        let statements = super::list_statements(scope.tenant_key(), scope.owner, query)?;
        let page_size = query.page_size();
        let fail = |e: sqlx::Error| backend(label, "list tasks", e);
        let page = Self::aggregates(&statements.page, "a2a_tasks");
        // The count and the page from one snapshot, so total_size agrees with it.
        let mut tx = self
            .reader
            .begin_with(DB::BEGIN_SNAPSHOT)
            .await
            .map_err(fail)?;
        let count_arguments = Self::arguments(&statements.count_binds).map_err(fail)?;
        let total: i64 = sqlx::query_scalar_with(&statements.count, count_arguments)
            .fetch_one(&mut *tx)
            .await
            .map_err(fail)?;
        let page_arguments = Self::arguments(&statements.page_binds).map_err(fail)?;
        let mut rows: Vec<ListRow> =
            sqlx::query_as_with(&page, page_arguments)
                .fetch_all(&mut *tx)
                .await
                .map_err(fail)?;
        let more = rows.len() > page_size as usize;
        rows.truncate(page_size as usize);
        tx.commit().await.map_err(fail)?;
        let mut tasks = Vec::with_capacity(rows.len());
        for (json, _, _, id, messages, artifacts) in &rows {
            let mut task = super::decode_task(label, json)?;
            task.history = super::history::decode_joined(label, id, messages.as_deref())?;
            task.artifacts = super::artifacts::decode_joined(label, id, artifacts.as_deref())?;
            tasks.push(task);
        }
        let next_page_token = match (more, rows.last()) {
            (true, Some((_, s, n, id, _, _))) => Some(token::task_token(&super::row_key(
                label,
                *s,
                *n,
                id.clone(),
            )?)),
            _ => None,
        };
        Ok(TaskPage {
            tasks,
            next_page_token,
            page_size,
            total_size: u64::try_from(total).unwrap_or(0),
        })
    }
}
