//! [`SqlStore`]: the two store traits' logic over one sqlx database (see the
//! [parent module](super) for why it is generic and where its bounds live).

use std::fmt;

use std::time::Duration;

use a2a_types::v1::{Task, TaskPushNotificationConfig};
use sqlx::{Arguments, ColumnIndex, Decode, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::{backend, Bind, Dialect, TaskRow};
use crate::store::{
    config_id_for, effective_page_size, stored_config, token, ExpiredLease, Lease, LoggedEvent,
    PushConfigPage, Scope, StoreError, Stored, TaskPage, TaskQuery, WriteWith,
};

/// The pools of a SQL store, and every store operation on them, once for all databases.
///
/// `reader` serves reads, `writer` writes; they are one pool where the database takes
/// concurrent writers (PostgreSQL), two where it does not (SQLite).
pub(crate) struct SqlStore<DB: sqlx::Database> {
    reader: Pool<DB>,
    writer: Pool<DB>,
}

impl<DB: sqlx::Database> Clone for SqlStore<DB> {
    fn clone(&self) -> Self {
        SqlStore {
            reader: self.reader.clone(),
            writer: self.writer.clone(),
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

// What the store needs of a driver, in one place: connections (and so pools and transactions)
// that execute statements, arguments that bind, the Rust types of `Bind` that encode, and those
// of the rows that decode. Both sqlx drivers have all of it.
impl<DB> SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Decode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'r> String: Decode<'r, DB> + Type<DB>,
    usize: ColumnIndex<DB::Row>,
{
    /// The pools, reader then writer: for an event feed, and for a test to read the
    /// connections' settings.
    pub(crate) fn pools(&self) -> [&Pool<DB>; 2] {
        [&self.reader, &self.writer]
    }

    /// A store on `reader` and `writer`, whose database [`migrate`](Self::migrate) has brought
    /// up to date.
    pub(crate) fn new(reader: Pool<DB>, writer: Pool<DB>) -> SqlStore<DB> {
        SqlStore { reader, writer }
    }

    /// `binds` as the driver's arguments: the one place values meet sqlx. Encoding fails as
    /// `Query::bind` has it fail when the statement runs.
    fn arguments<'q>(binds: &'q [Bind<'_>]) -> Result<DB::Arguments<'q>, sqlx::Error> {
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
    async fn write(&self, statement: &str, binds: &[Bind<'_>]) -> Result<u64, sqlx::Error> {
        let done = sqlx::query_with(statement, Self::arguments(binds)?)
            .execute(&self.writer)
            .await?;
        Ok(DB::rows_affected(&done))
    }

    /// The row `statement` reads on the reader, if any.
    async fn read_one<O>(
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
    async fn read_all<O>(&self, statement: &str, binds: &[Bind<'_>]) -> Result<Vec<O>, sqlx::Error>
    where
        O: for<'r> FromRow<'r, DB::Row> + Send + Unpin,
    {
        sqlx::query_as_with(statement, Self::arguments(binds)?)
            .fetch_all(&self.reader)
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

    /// [`TaskStore::get_task`](crate::store::TaskStore::get_task).
    pub(crate) async fn get_task(
        &self,
        scope: Scope<'_>,
        task_id: &str,
    ) -> Result<Option<Stored>, StoreError> {
        let label = DB::LABEL;
        let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id)];
        let statement = super::owned(super::GET_TASK, scope.owner, &mut binds);
        let row: Option<(String, i64, String)> = self
            .read_one(&statement, &binds)
            .await
            .map_err(|e| backend(label, format!("read task `{task_id}`"), e))?;
        let Some((json, version, owner)) = row else {
            return Ok(None);
        };
        let version = u64::try_from(version)
            .map_err(|e| backend(label, format!("read the version of task `{task_id}`"), e))?;
        Ok(Some(Stored {
            task: super::decode_task(label, &json)?,
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
        let logged = super::Logged {
            event: event.as_deref(),
            in_with: DB::WRITES_IN_WITH,
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
        // A version beyond i64 was never stored: no row can match it.
        let written = match i64::try_from(expected_version) {
            Err(_) => 0,
            Ok(expected) => {
                let binds = row.binds(scope.tenant_key(), &task.id);
                let logged = super::Logged {
                    event: event.as_deref(),
                    in_with: DB::WRITES_IN_WITH,
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

    /// Runs a task write and returns how many rows it changed; with an event to log beside it,
    /// in a transaction that logs it when the write changed one row (and nothing otherwise).
    async fn write_logged(&self, write: &super::TaskWrite<'_>) -> Result<u64, sqlx::Error> {
        let Some(log) = &write.log else {
            return self.write(&write.statement, &write.binds).await;
        };
        let mut tx = self.writer.begin_with(DB::BEGIN_WRITE).await?;
        let done = sqlx::query_with(&write.statement, Self::arguments(&write.binds)?)
            .execute(&mut *tx)
            .await?;
        let written = DB::rows_affected(&done);
        if written == 1 {
            sqlx::query_with(super::LOG_EVENT, Self::arguments(log)?)
                .execute(&mut *tx)
                .await?;
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
        let statement = super::expand(super::leases::EXPIRED_LEASES, DB::NOW_MS);
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
        let mut rows: Vec<(String, i64, i64, String)> =
            sqlx::query_as_with(&statements.page, page_arguments)
                .fetch_all(&mut *tx)
                .await
                .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        let more = rows.len() > page_size as usize;
        rows.truncate(page_size as usize);
        let next_page_token = match (more, rows.last()) {
            (true, Some((_, s, n, id))) => Some(token::task_token(&super::row_key(
                label,
                *s,
                *n,
                id.clone(),
            )?)),
            _ => None,
        };
        let tasks = rows
            .iter()
            .map(|(json, ..)| super::decode_task(label, json))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TaskPage {
            tasks,
            next_page_token,
            page_size,
            total_size: u64::try_from(total).unwrap_or(0),
        })
    }

    /// [`PushConfigStore::set_push_config`](crate::store::PushConfigStore::set_push_config).
    pub(crate) async fn set_push_config(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, StoreError> {
        let label = DB::LABEL;
        let id = config_id_for(&config);
        let config = stored_config(config, scope.tenant, task_id, id.clone());
        let json = super::encode_config(label, &config)?;
        let binds = [
            Bind::text(scope.tenant_key()),
            Bind::text(task_id),
            Bind::text(&id),
            Bind::text(&json),
            Bind::text(scope.owner_key()),
        ];
        self.write(super::SET_CONFIG, &binds).await.map_err(|e| {
            backend(
                label,
                format!("set push config `{id}` of task `{task_id}`"),
                e,
            )
        })?;
        Ok(config)
    }

    /// [`PushConfigStore::get_push_config`](crate::store::PushConfigStore::get_push_config).
    pub(crate) async fn get_push_config(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        config_id: &str,
    ) -> Result<Option<TaskPushNotificationConfig>, StoreError> {
        let label = DB::LABEL;
        let mut binds = vec![
            Bind::text(scope.tenant_key()),
            Bind::text(task_id),
            Bind::text(config_id),
        ];
        let statement = super::owned(super::GET_CONFIG, scope.owner, &mut binds);
        let json: Option<(String,)> = self.read_one(&statement, &binds).await.map_err(|e| {
            backend(
                label,
                format!("read push config `{config_id}` of task `{task_id}`"),
                e,
            )
        })?;
        json.map(|(j,)| super::decode_config(label, &j)).transpose()
    }

    /// [`PushConfigStore::list_push_configs`](crate::store::PushConfigStore::list_push_configs).
    pub(crate) async fn list_push_configs(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        page_size: Option<u32>,
        page_token: Option<&str>,
    ) -> Result<PushConfigPage, StoreError> {
        let label = DB::LABEL;
        let after = match page_token.filter(|t| !t.is_empty()) {
            None => String::new(),
            Some(t) => token::parse_config_token(t)?,
        };
        let page_size = effective_page_size(page_size) as usize;
        let mut binds = vec![
            Bind::text(scope.tenant_key()),
            Bind::text(task_id),
            Bind::text(&after),
        ];
        let statement = super::owned(super::LIST_CONFIGS, scope.owner, &mut binds);
        let limit = super::next(&mut binds, Bind::Int(page_size as i64 + 1));
        let statement = format!("{statement} ORDER BY id LIMIT {limit}");
        let mut rows: Vec<(String, String)> = self
            .read_all(&statement, &binds)
            .await
            .map_err(|e| backend(label, format!("list push configs of task `{task_id}`"), e))?;
        let more = rows.len() > page_size;
        rows.truncate(page_size);
        let next_page_token = match (more, rows.last()) {
            (true, Some((_, id))) => Some(token::config_token(id)),
            _ => None,
        };
        let configs = rows
            .iter()
            .map(|(json, _)| super::decode_config(label, json))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PushConfigPage {
            configs,
            next_page_token,
        })
    }

    /// [`PushConfigStore::delete_push_config`](crate::store::PushConfigStore::delete_push_config).
    pub(crate) async fn delete_push_config(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        config_id: &str,
    ) -> Result<bool, StoreError> {
        let label = DB::LABEL;
        let mut binds = vec![
            Bind::text(scope.tenant_key()),
            Bind::text(task_id),
            Bind::text(config_id),
        ];
        let statement = super::owned(super::DELETE_CONFIG, scope.owner, &mut binds);
        let deleted = self.write(&statement, &binds).await.map_err(|e| {
            backend(
                label,
                format!("delete push config `{config_id}` of task `{task_id}`"),
                e,
            )
        })?;
        Ok(deleted > 0)
    }
}
