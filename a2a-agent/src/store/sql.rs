//! What the SQL stores share: the statements (one text for both dialects: SQLite and PostgreSQL
//! both read `$N` placeholders, `ON CONFLICT`, row-value comparisons), the columns a task is
//! indexed by, the migration runner, and [`sql_store!`], which writes the two traits' impls
//! for a store type over one sqlx database.
//!
//! Why a macro and not a function generic over `sqlx::Database`: the generic version needs a
//! dozen higher-ranked bounds (`for<'c> &'c mut DB::Connection: Executor<'c>`, `for<'q>
//! DB::Arguments<'q>: IntoArguments<'q, DB>`, `Encode`/`Decode` for each column type) repeated
//! on every impl, and rustc cannot always prove such futures `Send`. The macro expands to the
//! same code with concrete types; everything that is not a sqlx call is a plain function here.

use std::error::Error;
use std::fmt;

use a2a_types::v1::{Task, TaskPushNotificationConfig};

use super::{status_time, token, SortKey, StoreError, TaskQuery};

/// One dialect's statements and settings.
pub(crate) struct Dialect {
    /// The database's name in error messages.
    pub(crate) label: &'static str,
    /// Starts the migration transaction (SQLite: `BEGIN IMMEDIATE`, which takes the write lock
    /// at once, so two processes opening one new file do not both migrate).
    pub(crate) begin_migration: &'static str,
    /// Run first in the migration transaction (PostgreSQL: an advisory lock, so two replicas
    /// starting at once migrate one after the other).
    pub(crate) migration_lock: Option<&'static str>,
    /// Starts a read transaction in which a list's count and page see one snapshot.
    pub(crate) begin_snapshot: &'static str,
    /// The schema, in order; see [`Migration`].
    pub(crate) migrations: &'static [Migration],
}

impl fmt::Debug for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label)
    }
}

/// One step of the schema: applied once per database, in a transaction, and recorded in
/// `a2a_schema_version`. Never edit a released one: add the next.
pub(crate) struct Migration {
    pub(crate) version: i64,
    pub(crate) description: &'static str,
    pub(crate) sql: &'static str,
}

/// The table that records which migrations a database has had.
pub(crate) const CREATE_VERSION_TABLE: &str = "CREATE TABLE IF NOT EXISTS a2a_schema_version (
    version    BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TEXT NOT NULL
)";
pub(crate) const SCHEMA_VERSION: &str = "SELECT MAX(version) FROM a2a_schema_version";
pub(crate) const RECORD_MIGRATION: &str =
    "INSERT INTO a2a_schema_version (version, description, applied_at) VALUES ($1, $2, $3)";

pub(crate) const GET_TASK: &str =
    "SELECT task, version FROM a2a_tasks WHERE tenant = $1 AND id = $2";
pub(crate) const TASK_VERSION: &str = "SELECT version FROM a2a_tasks WHERE tenant = $1 AND id = $2";
pub(crate) const CREATE_TASK: &str = "INSERT INTO a2a_tasks
    (tenant, id, context_id, state, status_s, status_n, sort_s, sort_n, task, version)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)
    ON CONFLICT (tenant, id) DO NOTHING";
/// The optimistic write: the version check and the write are one statement.
pub(crate) const UPDATE_TASK: &str = "UPDATE a2a_tasks
    SET context_id = $3, state = $4, status_s = $5, status_n = $6, sort_s = $7, sort_n = $8,
        task = $9, version = version + 1
    WHERE tenant = $1 AND id = $2 AND version = $10";

pub(crate) const SET_CONFIG: &str = "INSERT INTO a2a_push_configs (tenant, task_id, id, config)
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (tenant, task_id, id) DO UPDATE SET config = excluded.config";
pub(crate) const GET_CONFIG: &str =
    "SELECT config FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2 AND id = $3";
/// `$3` is the last id of the previous page, `''` for the first (a stored id is never empty).
pub(crate) const LIST_CONFIGS: &str = "SELECT config, id FROM a2a_push_configs
    WHERE tenant = $1 AND task_id = $2 AND id > $3 ORDER BY id LIMIT $4";
pub(crate) const DELETE_CONFIG: &str =
    "DELETE FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2 AND id = $3";

/// The indexed columns of a task, and its JSON.
pub(crate) struct TaskRow {
    pub(crate) context_id: Option<String>,
    pub(crate) state: String,
    pub(crate) status_s: Option<i64>,
    pub(crate) status_n: Option<i64>,
    pub(crate) sort_s: i64,
    pub(crate) sort_n: i64,
    pub(crate) json: String,
}

impl TaskRow {
    pub(crate) fn of(label: &'static str, task: &Task) -> Result<TaskRow, StoreError> {
        let status = status_time(task);
        let sort = SortKey::of(task, status);
        let json = serde_json::to_string(task)
            .map_err(|e| backend(label, format!("encode task `{}` as JSON", task.id), e))?;
        Ok(TaskRow {
            context_id: task.context_id.clone(),
            state: task.status.state.as_str().to_owned(),
            status_s: status.map(|t| t.seconds),
            status_n: status.map(|t| i64::from(t.nanos)),
            sort_s: sort.seconds,
            sort_n: i64::from(sort.nanos),
            json,
        })
    }
}

/// A stored task's JSON, read back.
pub(crate) fn decode_task(label: &'static str, json: &str) -> Result<Task, StoreError> {
    serde_json::from_str(json).map_err(|e| backend(label, "decode a stored task", e))
}

/// A stored config's JSON, read back.
pub(crate) fn decode_config(
    label: &'static str,
    json: &str,
) -> Result<TaskPushNotificationConfig, StoreError> {
    serde_json::from_str(json).map_err(|e| backend(label, "decode a stored push config", e))
}

pub(crate) fn encode_config(
    label: &'static str,
    config: &TaskPushNotificationConfig,
) -> Result<String, StoreError> {
    serde_json::to_string(config).map_err(|e| backend(label, "encode a push config as JSON", e))
}

/// A value bound to a placeholder of a statement built at run time.
pub(crate) enum Bind {
    Int(i64),
    Text(String),
}

/// The two statements of a task list, and their binds (`$1` is the tenant in both).
pub(crate) struct ListStatements {
    /// `SELECT COUNT(*)` of the filtered set.
    pub(crate) count: String,
    pub(crate) count_binds: Vec<Bind>,
    /// `SELECT task, sort_s, sort_n, id` of one page, plus one row to tell whether another
    /// page follows.
    pub(crate) page: String,
    pub(crate) page_binds: Vec<Bind>,
}

pub(crate) fn list_statements(
    tenant: &str,
    query: &TaskQuery,
) -> Result<ListStatements, StoreError> {
    let after = match query.page_token.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(token::parse_task_token(t)?),
    };
    let mut filter = String::from("tenant = $1");
    let mut binds = vec![Bind::Text(tenant.to_owned())];
    if let Some(context_id) = &query.context_id {
        let p = next(&mut binds, Bind::Text(context_id.clone()));
        filter.push_str(&format!(" AND context_id = {p}"));
    }
    if let Some(state) = &query.state {
        let p = next(&mut binds, Bind::Text(state.as_str().to_owned()));
        filter.push_str(&format!(" AND state = {p}"));
    }
    if let Some(t) = query.status_timestamp_after {
        let s = next(&mut binds, Bind::Int(t.seconds));
        let n = next(&mut binds, Bind::Int(i64::from(t.nanos)));
        // A NULL status time compares as NULL: tasks without one never match.
        filter.push_str(&format!(" AND (status_s, status_n) >= ({s}, {n})"));
    }
    let count = format!("SELECT COUNT(*) FROM a2a_tasks WHERE {filter}");
    let count_binds = binds
        .iter()
        .map(|b| match b {
            Bind::Int(i) => Bind::Int(*i),
            Bind::Text(s) => Bind::Text(s.clone()),
        })
        .collect();
    let mut page_filter = filter;
    if let Some(after) = after {
        let s = next(&mut binds, Bind::Int(after.seconds));
        let n = next(&mut binds, Bind::Int(i64::from(after.nanos)));
        let id = next(&mut binds, Bind::Text(after.id));
        page_filter.push_str(&format!(" AND (sort_s, sort_n, id) < ({s}, {n}, {id})"));
    }
    let limit = next(&mut binds, Bind::Int(i64::from(query.page_size()) + 1));
    let page = format!(
        "SELECT task, sort_s, sort_n, id FROM a2a_tasks WHERE {page_filter} \
         ORDER BY sort_s DESC, sort_n DESC, id DESC LIMIT {limit}"
    );
    Ok(ListStatements {
        count,
        count_binds,
        page,
        page_binds: binds,
    })
}

/// Adds a bind and returns its placeholder.
fn next(binds: &mut Vec<Bind>, value: Bind) -> String {
    binds.push(value);
    format!("${}", binds.len())
}

/// The sort key of a listed row, for the next page's token.
pub(crate) fn row_key(
    label: &'static str,
    sort_s: i64,
    sort_n: i64,
    id: String,
) -> Result<SortKey, StoreError> {
    let nanos = u32::try_from(sort_n)
        .map_err(|e| backend(label, format!("read the sort time of task `{id}`"), e))?;
    Ok(SortKey {
        seconds: sort_s,
        nanos,
        id,
    })
}

/// `SELECT MAX(version)` read as the schema version.
pub(crate) fn schema_version(label: &'static str, max: Option<i64>) -> Result<u32, StoreError> {
    u32::try_from(max.unwrap_or(0)).map_err(|e| backend(label, "read the schema version", e))
}

/// What went wrong in a SQL store: which database, doing what, and the driver's error.
#[derive(Debug)]
pub(crate) struct BackendError {
    label: &'static str,
    action: String,
    source: Box<dyn Error + Send + Sync>,
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.label, self.action, self.source)
    }
}

impl Error for BackendError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.source)
    }
}

pub(crate) fn backend(
    label: &'static str,
    action: impl Into<String>,
    source: impl Into<Box<dyn Error + Send + Sync>>,
) -> StoreError {
    StoreError::Backend(Box::new(BackendError {
        label,
        action: action.into(),
        source: source.into(),
    }))
}

/// A schema newer than this build knows: refuse it rather than write rows it may misread.
#[derive(Debug)]
pub(crate) struct NewerSchema {
    pub(crate) found: i64,
    pub(crate) known: i64,
}

impl fmt::Display for NewerSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the database has schema version {}, newer than the {} this a2a-agent knows; \
             upgrade a2a-agent",
            self.found, self.known
        )
    }
}

impl Error for NewerSchema {}

/// Writes the `TaskStore` and `PushConfigStore` impls for `$store`, a struct with fields
/// `reader` and `writer` (each a `sqlx::Pool<$db>`; the same pool where the database takes
/// concurrent writers) and `dialect: &'static Dialect`, plus `async fn migrate(&Pool<$db>,
/// &Dialect)` and `async fn read_schema_version`.
macro_rules! sql_store {
    ($store:ident, $db:ty) => {
        use a2a_types::v1::{Task, TaskPushNotificationConfig};
        use $crate::store::sql::{self as sql, backend, Bind, TaskRow};
        use $crate::store::{
            config_id_for, effective_page_size, stored_config, tenant_key, token, PushConfigPage,
            PushConfigStore, StoreError, StoreFuture, Stored, TaskPage, TaskQuery, TaskStore,
        };

        /// Brings the schema of `pool`'s database up to date, in one transaction.
        async fn migrate(
            pool: &sqlx::Pool<$db>,
            dialect: &'static sql::Dialect,
        ) -> Result<(), StoreError> {
            let label = dialect.label;
            let fail = |e: sqlx::Error| backend(label, "migrate the schema", e);
            let mut tx = pool
                .begin_with(dialect.begin_migration)
                .await
                .map_err(fail)?;
            if let Some(lock) = dialect.migration_lock {
                sqlx::query(lock).execute(&mut *tx).await.map_err(fail)?;
            }
            // Statements as plain text (`Executor::execute` of a `&str`): no binds, and
            // several statements in one text are run in turn. `sqlx::raw_sql` would do the
            // same, but its future cannot be proven `Send` here.
            sqlx::Executor::execute(&mut *tx, sql::CREATE_VERSION_TABLE)
                .await
                .map_err(fail)?;
            let current: Option<i64> = sqlx::query_scalar(sql::SCHEMA_VERSION)
                .fetch_one(&mut *tx)
                .await
                .map_err(fail)?;
            let current = current.unwrap_or(0);
            let known = dialect.migrations.last().map_or(0, |m| m.version);
            if current > known {
                return Err(backend(
                    label,
                    "open the database",
                    sql::NewerSchema {
                        found: current,
                        known,
                    },
                ));
            }
            // A plain loop over a slice: an iterator adapter's closure held across the awaits
            // below makes rustc fail to prove this future `Send`.
            for m in dialect.migrations {
                if m.version <= current {
                    continue;
                }
                sqlx::Executor::execute(&mut *tx, m.sql)
                    .await
                    .map_err(|e| {
                        backend(
                            label,
                            format!("apply migration {} ({})", m.version, m.description),
                            e,
                        )
                    })?;
                sqlx::query(sql::RECORD_MIGRATION)
                    .bind(m.version)
                    .bind(m.description)
                    .bind(a2a_types::rt::Timestamp::now().into_string())
                    .execute(&mut *tx)
                    .await
                    .map_err(fail)?;
            }
            tx.commit().await.map_err(fail)
        }

        /// The newest migration applied to `pool`'s database.
        async fn read_schema_version(
            pool: &sqlx::Pool<$db>,
            label: &'static str,
        ) -> Result<u32, StoreError> {
            let max: Option<i64> = sqlx::query_scalar(sql::SCHEMA_VERSION)
                .fetch_one(pool)
                .await
                .map_err(|e| backend(label, "read the schema version", e))?;
            sql::schema_version(label, max)
        }

        impl TaskStore for $store {
            fn get_task<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task_id: &'a str,
            ) -> StoreFuture<'a, Option<Stored>> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let row: Option<(String, i64)> = sqlx::query_as(sql::GET_TASK)
                        .bind(tenant_key(tenant))
                        .bind(task_id)
                        .fetch_optional(&self.reader)
                        .await
                        .map_err(|e| backend(label, format!("read task `{task_id}`"), e))?;
                    let Some((json, version)) = row else {
                        return Ok(None);
                    };
                    let version = u64::try_from(version).map_err(|e| {
                        backend(label, format!("read the version of task `{task_id}`"), e)
                    })?;
                    Ok(Some(Stored {
                        task: sql::decode_task(label, &json)?,
                        version,
                    }))
                })
            }

            fn create_task<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task: &'a Task,
            ) -> StoreFuture<'a, u64> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let row = TaskRow::of(label, task)?;
                    let done = sqlx::query(sql::CREATE_TASK)
                        .bind(tenant_key(tenant))
                        .bind(&task.id)
                        .bind(row.context_id)
                        .bind(row.state)
                        .bind(row.status_s)
                        .bind(row.status_n)
                        .bind(row.sort_s)
                        .bind(row.sort_n)
                        .bind(row.json)
                        .execute(&self.writer)
                        .await
                        .map_err(|e| backend(label, format!("create task `{}`", task.id), e))?;
                    if done.rows_affected() == 0 {
                        return Err(StoreError::Conflict {
                            task_id: task.id.clone(),
                            expected_version: None,
                        });
                    }
                    Ok(1)
                })
            }

            fn update_task<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task: &'a Task,
                expected_version: u64,
            ) -> StoreFuture<'a, u64> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let row = TaskRow::of(label, task)?;
                    // A version beyond i64 was never stored: no row can match it.
                    let written = match i64::try_from(expected_version) {
                        Err(_) => 0,
                        Ok(expected) => sqlx::query(sql::UPDATE_TASK)
                            .bind(tenant_key(tenant))
                            .bind(&task.id)
                            .bind(row.context_id)
                            .bind(row.state)
                            .bind(row.status_s)
                            .bind(row.status_n)
                            .bind(row.sort_s)
                            .bind(row.sort_n)
                            .bind(row.json)
                            .bind(expected)
                            .execute(&self.writer)
                            .await
                            .map_err(|e| backend(label, format!("update task `{}`", task.id), e))?
                            .rows_affected(),
                    };
                    if written == 1 {
                        return Ok(expected_version + 1);
                    }
                    // Nothing written: tell a stale version from a missing task.
                    let exists: Option<i64> = sqlx::query_scalar(sql::TASK_VERSION)
                        .bind(tenant_key(tenant))
                        .bind(&task.id)
                        .fetch_optional(&self.reader)
                        .await
                        .map_err(|e| backend(label, format!("read task `{}`", task.id), e))?;
                    Err(match exists {
                        Some(_) => StoreError::Conflict {
                            task_id: task.id.clone(),
                            expected_version: Some(expected_version),
                        },
                        None => StoreError::NotFound {
                            task_id: task.id.clone(),
                        },
                    })
                })
            }

            fn list_tasks<'a>(
                &'a self,
                tenant: Option<&'a str>,
                query: &'a TaskQuery,
            ) -> StoreFuture<'a, TaskPage> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let statements = sql::list_statements(tenant_key(tenant), query)?;
                    let page_size = query.page_size();
                    let fail = |e: sqlx::Error| backend(label, "list tasks", e);
                    // The count and the page from one snapshot, so total_size agrees with it.
                    let mut tx = self
                        .reader
                        .begin_with(self.dialect.begin_snapshot)
                        .await
                        .map_err(fail)?;
                    let mut count = sqlx::query_scalar::<_, i64>(&statements.count);
                    for b in &statements.count_binds {
                        count = match b {
                            Bind::Int(i) => count.bind(*i),
                            Bind::Text(s) => count.bind(s.as_str()),
                        };
                    }
                    let total = count.fetch_one(&mut *tx).await.map_err(fail)?;
                    let mut page =
                        sqlx::query_as::<_, (String, i64, i64, String)>(&statements.page);
                    for b in &statements.page_binds {
                        page = match b {
                            Bind::Int(i) => page.bind(*i),
                            Bind::Text(s) => page.bind(s.as_str()),
                        };
                    }
                    let mut rows = page.fetch_all(&mut *tx).await.map_err(fail)?;
                    tx.commit().await.map_err(fail)?;
                    let more = rows.len() > page_size as usize;
                    rows.truncate(page_size as usize);
                    let next_page_token = match (more, rows.last()) {
                        (true, Some((_, s, n, id))) => {
                            Some(token::task_token(&sql::row_key(label, *s, *n, id.clone())?))
                        }
                        _ => None,
                    };
                    let tasks = rows
                        .iter()
                        .map(|(json, ..)| sql::decode_task(label, json))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(TaskPage {
                        tasks,
                        next_page_token,
                        page_size,
                        total_size: u64::try_from(total).unwrap_or(0),
                    })
                })
            }
        }

        impl PushConfigStore for $store {
            fn set_push_config<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task_id: &'a str,
                config: TaskPushNotificationConfig,
            ) -> StoreFuture<'a, TaskPushNotificationConfig> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let id = config_id_for(&config);
                    let config = stored_config(config, tenant, task_id, id.clone());
                    sqlx::query(sql::SET_CONFIG)
                        .bind(tenant_key(tenant))
                        .bind(task_id)
                        .bind(&id)
                        .bind(sql::encode_config(label, &config)?)
                        .execute(&self.writer)
                        .await
                        .map_err(|e| {
                            backend(
                                label,
                                format!("set push config `{id}` of task `{task_id}`"),
                                e,
                            )
                        })?;
                    Ok(config)
                })
            }

            fn get_push_config<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task_id: &'a str,
                config_id: &'a str,
            ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let json: Option<String> = sqlx::query_scalar(sql::GET_CONFIG)
                        .bind(tenant_key(tenant))
                        .bind(task_id)
                        .bind(config_id)
                        .fetch_optional(&self.reader)
                        .await
                        .map_err(|e| {
                            backend(
                                label,
                                format!("read push config `{config_id}` of task `{task_id}`"),
                                e,
                            )
                        })?;
                    json.map(|j| sql::decode_config(label, &j)).transpose()
                })
            }

            fn list_push_configs<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task_id: &'a str,
                page_size: Option<u32>,
                page_token: Option<&'a str>,
            ) -> StoreFuture<'a, PushConfigPage> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let after = match page_token.filter(|t| !t.is_empty()) {
                        None => String::new(),
                        Some(t) => token::parse_config_token(t)?,
                    };
                    let page_size = effective_page_size(page_size) as usize;
                    let mut rows: Vec<(String, String)> = sqlx::query_as(sql::LIST_CONFIGS)
                        .bind(tenant_key(tenant))
                        .bind(task_id)
                        .bind(after)
                        .bind(page_size as i64 + 1)
                        .fetch_all(&self.reader)
                        .await
                        .map_err(|e| {
                            backend(label, format!("list push configs of task `{task_id}`"), e)
                        })?;
                    let more = rows.len() > page_size;
                    rows.truncate(page_size);
                    let next_page_token = match (more, rows.last()) {
                        (true, Some((_, id))) => Some(token::config_token(id)),
                        _ => None,
                    };
                    let configs = rows
                        .iter()
                        .map(|(json, _)| sql::decode_config(label, json))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(PushConfigPage {
                        configs,
                        next_page_token,
                    })
                })
            }

            fn delete_push_config<'a>(
                &'a self,
                tenant: Option<&'a str>,
                task_id: &'a str,
                config_id: &'a str,
            ) -> StoreFuture<'a, bool> {
                Box::pin(async move {
                    let label = self.dialect.label;
                    let done = sqlx::query(sql::DELETE_CONFIG)
                        .bind(tenant_key(tenant))
                        .bind(task_id)
                        .bind(config_id)
                        .execute(&self.writer)
                        .await
                        .map_err(|e| {
                            backend(
                                label,
                                format!("delete push config `{config_id}` of task `{task_id}`"),
                                e,
                            )
                        })?;
                    Ok(done.rows_affected() > 0)
                })
            }
        }
    };
}

pub(crate) use sql_store;
