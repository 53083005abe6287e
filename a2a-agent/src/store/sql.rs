//! What the SQL stores share: the statements (one text for both databases), the columns a task
//! is indexed by, and [`SqlStore`], the store logic written once over sqlx.
//!
//! # What differs between the databases
//!
//! Little. SQLite and PostgreSQL both read `$N` placeholders, `INSERT ... ON CONFLICT ... DO
//! NOTHING`/`DO UPDATE SET ... = excluded.…` and row-value comparisons, so every statement below
//! serves both. What differs is gathered in [`Dialect`], implemented for `sqlx::Sqlite` (in
//! `store::sqlite`) and `sqlx::Postgres` (in `store::postgres`): the name in error messages,
//! how write and list snapshot transactions begin, PostgreSQL's migration lock, the
//! schema (its column types differ), and the affected-row count of a write (an inherent method of
//! each driver's result type, not a trait method in sqlx 0.8).
//!
//! # Why generic over `sqlx::Database`, with the bounds in one place
//!
//! [`SqlStore<DB>`](SqlStore) is ordinary generic code: its methods are `async fn`s over any `DB:
//! Dialect` whose driver has what they use. What they use is spelled out once, in the
//! `where`-clause of its one `impl` block: connections that execute statements, arguments that
//! bind, and the Rust types that encode and decode. A missing bound or a wrong type is reported
//! in that code, not in a macro's expansion (the stores were a macro before, to avoid repeating
//! these bounds and for futures rustc could not prove `Send`).
//!
//! Each public store is a thin wrapper that boxes these futures in its own `TaskStore` and
//! `PushConfigStore` impls (a blanket impl over a private trait would hide them from the stores'
//! docs), so whether a future is `Send` is checked there, for the concrete driver; the
//! `open_is_send` checks beside each store do the same for the migration. With rustc 1.95 these
//! futures are `Send` for a generic `DB` too (checked when the macro this replaced was removed;
//! it had been chosen because rustc could not always prove that), but nothing relies on it. Two habits inside keep the proof simple:
//! migrations are run by a plain `for` over a slice (an iterator adapter's closure held across an
//! `.await` once defeated it; here, with rustc 1.95, it does not), and multi-statement text goes through
//! `Executor::execute` of a `&str`, not `sqlx::raw_sql`, whose future still fails the
//! `open_is_send` checks with rustc 1.95 ("implementation of `Executor` is not general enough").
//!
//! Values reach sqlx in one place: every statement's parameters are a list of [`Bind`]s, turned
//! into the driver's arguments by `SqlStore`, so the Rust types bound are the same four for
//! every statement.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;

use a2a_types::v1::{StreamResponse, Task, TaskPushNotificationConfig};

use super::{status_time, token, LoggedEvent, SortKey, StoreError, TaskQuery};

mod artifacts;
mod counts;
mod generic;
mod history;
mod leases;
mod moves;
mod outbox;
mod retention;
mod write;

pub(crate) use artifacts::{artifacts_migration, artifacts_table, ArtifactsWrite, ARTIFACTS_OF};
pub(crate) use counts::{counts_migration, Counted};
pub(crate) use generic::SqlStore;
pub(crate) use history::{
    history_migration, history_table, task_history_methods, Added, HistoryWrite,
};
pub(crate) use outbox::{outbox_migration, protocol_migration, push_outbox_methods};
pub(crate) use retention::{retention_migration, task_retention_methods};
pub(crate) use write::{create_task, update_task, Logged, TaskWrite};

/// What differs between the SQL databases: implemented for each sqlx driver a store runs on.
pub(crate) trait Dialect: sqlx::Database {
    /// The database's name in error messages.
    const LABEL: &'static str;
    /// Starts a write transaction: the migration, a logged write (SQLite: `BEGIN IMMEDIATE`,
    /// which takes the write lock at once, so two processes opening one new file do not both
    /// migrate, and a transaction never fails to upgrade a read lock).
    const BEGIN_WRITE: &'static str;
    /// Run first in the migration transaction (PostgreSQL: an advisory lock, so two replicas
    /// starting at once migrate one after the other).
    const MIGRATION_LOCK: Option<&'static str>;
    /// Starts a read transaction in which a list's count and page see one snapshot.
    const BEGIN_SNAPSHOT: &'static str;
    /// The schema, in order; see [`Migration`].
    const MIGRATIONS: &'static [Migration];
    /// Whether a statement's `WITH` may write (PostgreSQL): then a logged write is one
    /// statement; otherwise (SQLite) a transaction of two.
    const WRITES_IN_WITH: bool;
    /// The database's clock, in milliseconds since the Unix epoch, as an SQL expression: what
    /// leases are judged by.
    const NOW_MS: &'static str;
    /// The elements of a JSON array bound at `{array}`, as a `FROM` item `r` with the columns
    /// `i` (the element's place, from 0) and `m` (its JSON text): what splits a write's new
    /// messages into history rows.
    const JSON_ROWS: &'static str;
    /// The messages of the history rows `h` in order, joined by commas (`NULL` for none): an
    /// aggregate.
    const MESSAGES_AGG: &'static str;
    /// The artifact rows `a` in order, each as the JSON pair `[chunk,artifact]`, joined by
    /// commas (`NULL` for none): an aggregate.
    const ARTIFACTS_AGG: &'static str;

    /// How many rows a write changed.
    fn rows_affected(done: &Self::QueryResult) -> u64;
}

/// One step of the schema: applied once per database, in a transaction, and recorded in
/// `a2a_schema_version`. Never edit a released one: add the next.
pub(crate) struct Migration {
    pub(crate) version: i64,
    pub(crate) description: &'static str,
    /// Whether the histories kept in tasks' JSON are moved to their own rows after `sql` (see
    /// `history`): work in Rust, as it decodes each task.
    pub(crate) moves_histories: bool,
    /// The same for the artifacts (see `artifacts`).
    pub(crate) moves_artifacts: bool,
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

/// The second step of both databases' schema: owners (see `store`'s docs, "Owners"). Rows
/// stored before it belong to the anonymous caller, `''`.
pub(crate) const OWNERS: Migration = Migration {
    version: 2,
    description: "owners of tasks and push configs",
    moves_histories: false,
    moves_artifacts: false,
    sql: "
ALTER TABLE a2a_tasks ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (tenant, owner, sort_s DESC, sort_n DESC, id DESC);
ALTER TABLE a2a_push_configs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
",
};

/// The third step: each task's event log (see `store`'s docs, "Event logs"), and the columns
/// of an execution's lease on its task (who runs it, until when by the database's clock, in
/// milliseconds since the Unix epoch).
pub(crate) const EVENTS: Migration = Migration {
    version: 3,
    description: "task event logs and execution leases",
    moves_histories: false,
    moves_artifacts: false,
    sql: "
CREATE TABLE a2a_events (
    tenant  TEXT   NOT NULL,
    task_id TEXT   NOT NULL,
    seq     BIGINT NOT NULL,
    event   TEXT   NOT NULL,
    PRIMARY KEY (tenant, task_id, seq)
);
ALTER TABLE a2a_tasks ADD COLUMN lease_owner TEXT;
ALTER TABLE a2a_tasks ADD COLUMN lease_until BIGINT;
CREATE INDEX a2a_tasks_by_lease_expiry ON a2a_tasks (lease_until) WHERE lease_owner IS NOT NULL;
CREATE INDEX a2a_tasks_by_lease_holder ON a2a_tasks (lease_owner) WHERE lease_owner IS NOT NULL;
",
};

/// Logs one event: `$1` tenant, `$2` task id, `$3` the version it made, `$4` its JSON.
pub(crate) const LOG_EVENT: &str =
    "INSERT INTO a2a_events (tenant, task_id, seq, event) VALUES ($1, $2, $3, $4)";
/// A task's events after a version, oldest first.
pub(crate) const EVENTS_AFTER: &str = "SELECT seq, event FROM a2a_events
    WHERE tenant = $1 AND task_id = $2 AND seq > $3 ORDER BY seq LIMIT $4";

// The statements that read or change one row end in their `WHERE` clause: [`owned`] adds the
// owner's condition when the scope names one.
/// A task and, in the same statement, the last `$3` messages of its history ([`ALL_MESSAGES`]
/// for all) joined as by `{agg}`, the database's `Dialect::MESSAGES_AGG`: a range of the
/// history's key, so the read takes only those rows.
pub(crate) const GET_TASK: &str = "SELECT t.task, t.version, t.owner, \
    (SELECT {agg} FROM a2a_history h WHERE h.tenant = t.tenant AND h.task_id = t.id \
    AND h.idx >= t.history_len - $3 AND h.idx < t.history_len), {artifacts_of} \
    FROM a2a_tasks t WHERE t.tenant = $1 AND t.id = $2";
/// The `$3` of [`GET_TASK`] that reads every message: more than a history holds, and small
/// enough that `history_len - $3` does not overflow.
pub(crate) const ALL_MESSAGES: i64 = 1 << 62;
/// What a refused write is told by: the version, the state and the lease, and the database's
/// clock (`{now}`).
pub(crate) const TASK_VERSION: &str = "SELECT version, state, lease_owner, lease_until, {now} \
    FROM a2a_tasks WHERE tenant = $1 AND id = $2";

/// The states a write never moves a task out of: the v1 wire names of `lifecycle::is_terminal`'s
/// states (the `state` column holds wire names); the stores' conformance suite writes over each.
pub(crate) const TERMINAL: &str =
    "('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', \
    'TASK_STATE_REJECTED')";

/// A row of [`EVENTS_AFTER`] of task `task_id`, read.
pub(crate) fn logged_event(
    label: &'static str,
    task_id: &str,
    (seq, json): (i64, String),
) -> Result<LoggedEvent, StoreError> {
    Ok(LoggedEvent {
        version: u64::try_from(seq)
            .map_err(|e| backend(label, format!("read an event of task `{task_id}`"), e))?,
        event: decode_event(label, &json)?,
    })
}

/// A duration in whole milliseconds, as bound.
pub(crate) fn millis(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// `statement` with the database's clock (`{now}`) and the terminal states (`{terminal}`)
/// written in.
pub(crate) fn expand(statement: &str, now: &str) -> String {
    statement
        .replace("{now}", now)
        .replace("{terminal}", TERMINAL)
}

/// An upsert that leaves another owner's config of the same id as it is.
pub(crate) const SET_CONFIG: &str =
    "INSERT INTO a2a_push_configs (tenant, task_id, id, config, owner, protocol)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (tenant, task_id, id) DO UPDATE
    SET config = excluded.config, protocol = excluded.protocol
    WHERE a2a_push_configs.owner = excluded.owner";
pub(crate) const GET_CONFIG: &str =
    "SELECT config FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2 AND id = $3";
/// `$3` is the last id of the previous page, `''` for the first (a stored id is never empty).
pub(crate) const LIST_CONFIGS: &str = "SELECT config, id FROM a2a_push_configs
    WHERE tenant = $1 AND task_id = $2 AND id > $3";
pub(crate) const DELETE_CONFIG: &str =
    "DELETE FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2 AND id = $3";

/// `statement` (which ends in its `WHERE` clause) limited to `owner`'s row when there is one,
/// its bind added to `binds`.
pub(crate) fn owned<'a>(
    statement: &'static str,
    owner: Option<&'a str>,
    binds: &mut Vec<Bind<'a>>,
) -> Cow<'static, str> {
    match owner {
        None => Cow::Borrowed(statement),
        Some(owner) => {
            let p = next(binds, Bind::text(owner));
            Cow::Owned(format!("{statement} AND owner = {p}"))
        }
    }
}

/// [`owned`] of a statement built at run time.
pub(crate) fn owned_owned<'a>(
    statement: String,
    owner: Option<&'a str>,
    binds: &mut Vec<Bind<'a>>,
) -> String {
    match owner {
        None => statement,
        Some(owner) => {
            let p = next(binds, Bind::text(owner));
            format!("{statement} AND owner = {p}")
        }
    }
}

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
    /// The row of `task`, whose history and artifacts are kept apart (`history`, `artifacts`):
    /// its JSON holds neither.
    pub(crate) fn of(label: &'static str, task: &Task) -> Result<TaskRow, StoreError> {
        let status = status_time(task);
        let sort = SortKey::of(task, status);
        // Neither the history nor the artifacts: both are kept apart (`history`, `artifacts`).
        let head = crate::lifecycle::copy_of(task, false, false);
        let json = serde_json::to_string(&head)
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

    /// The binds `$1` to `$9` of [`create_task`] (which follows them with the owner) and
    /// [`update_task`] (with the expected version).
    pub(crate) fn binds<'a>(&'a self, tenant: &'a str, task_id: &'a str) -> Vec<Bind<'a>> {
        vec![
            Bind::text(tenant),
            Bind::text(task_id),
            Bind::NullableText(self.context_id.as_deref()),
            Bind::text(&self.state),
            Bind::NullableInt(self.status_s),
            Bind::NullableInt(self.status_n),
            Bind::Int(self.sort_s),
            Bind::Int(self.sort_n),
            Bind::text(&self.json),
        ]
    }
}

/// A stored task's JSON, read back.
pub(crate) fn decode_task(label: &'static str, json: &str) -> Result<Task, StoreError> {
    serde_json::from_str(json).map_err(|e| backend(label, "decode a stored task", e))
}

/// An event as the log keeps it: its JSON.
pub(crate) fn encode_event(
    label: &'static str,
    event: &StreamResponse,
) -> Result<String, StoreError> {
    serde_json::to_string(event).map_err(|e| backend(label, "encode an event as JSON", e))
}

/// A logged event's JSON, read back.
pub(crate) fn decode_event(label: &'static str, json: &str) -> Result<StreamResponse, StoreError> {
    serde_json::from_str(json).map_err(|e| backend(label, "decode a logged event", e))
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

/// A value bound to a placeholder: every statement's parameters, in placeholder order.
#[derive(Clone, Debug)]
pub(crate) enum Bind<'a> {
    /// `BIGINT`/`INTEGER`.
    Int(i64),
    /// `TEXT`.
    Text(Cow<'a, str>),
    /// `BIGINT`/`INTEGER`, or `NULL`.
    NullableInt(Option<i64>),
    /// `TEXT`, or `NULL`.
    NullableText(Option<&'a str>),
}

impl<'a> Bind<'a> {
    /// Borrowed text.
    pub(crate) fn text(s: &'a str) -> Bind<'a> {
        Bind::Text(Cow::Borrowed(s))
    }
}

/// The two statements of a task list, and their binds (`$1` is the tenant in both).
pub(crate) struct ListStatements<'a> {
    /// `SELECT COUNT(*)` of the filtered set.
    pub(crate) count: String,
    pub(crate) count_binds: Vec<Bind<'a>>,
    /// `SELECT task, sort_s, sort_n, id` of one page, plus one row to tell whether another
    /// page follows.
    pub(crate) page: String,
    pub(crate) page_binds: Vec<Bind<'a>>,
}

pub(crate) fn list_statements<'a>(
    tenant: &'a str,
    owner: Option<&'a str>,
    query: &'a TaskQuery,
) -> Result<ListStatements<'a>, StoreError> {
    let after = match query.page_token.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(token::parse_task_token(t)?),
    };
    let mut filter = String::from("tenant = $1");
    let mut binds = vec![Bind::text(tenant)];
    // In the query itself: a page never holds another owner's rows.
    if let Some(owner) = owner {
        let p = next(&mut binds, Bind::text(owner));
        filter.push_str(&format!(" AND owner = {p}"));
    }
    if let Some(context_id) = &query.context_id {
        let p = next(&mut binds, Bind::text(context_id));
        filter.push_str(&format!(" AND context_id = {p}"));
    }
    if let Some(state) = &query.state {
        let p = next(&mut binds, Bind::text(state.as_str()));
        filter.push_str(&format!(" AND state = {p}"));
    }
    if let Some(t) = query.status_timestamp_after {
        let s = next(&mut binds, Bind::Int(t.seconds));
        let n = next(&mut binds, Bind::Int(i64::from(t.nanos)));
        // A NULL status time compares as NULL: tasks without one never match.
        filter.push_str(&format!(" AND (status_s, status_n) >= ({s}, {n})"));
    }
    // Filtered by tenant and owner only (the common list, and any caller's to repeat): the
    // kept count, not a count of every row; its binds are the filter's, `$1` and `$2`.
    let unfiltered = query.context_id.is_none()
        && query.state.is_none()
        && query.status_timestamp_after.is_none();
    let count = match unfiltered {
        true => counts::kept_count(owner.is_some()),
        false => format!("SELECT COUNT(*) FROM a2a_tasks WHERE {filter}"),
    };
    let count_binds = binds.clone();
    let mut page_filter = filter;
    if let Some(after) = after {
        let s = next(&mut binds, Bind::Int(after.seconds));
        let n = next(&mut binds, Bind::Int(i64::from(after.nanos)));
        let id = next(&mut binds, Bind::Text(Cow::Owned(after.id)));
        page_filter.push_str(&format!(" AND (sort_s, sort_n, id) < ({s}, {n}, {id})"));
    }
    let limit = next(&mut binds, Bind::Int(i64::from(query.page_size()) + 1));
    // Of each task, only the messages and artifacts returned are read.
    let last = query.history_length.map_or(ALL_MESSAGES, i64::from);
    let last = next(&mut binds, Bind::Int(last));
    let artifacts = match query.omit_artifacts {
        true => "NULL",
        false => "{artifacts_of}",
    };
    let page = format!(
        "SELECT task, sort_s, sort_n, id, (SELECT {{agg}} FROM a2a_history h \
         WHERE h.tenant = a2a_tasks.tenant AND h.task_id = a2a_tasks.id \
         AND h.idx >= a2a_tasks.history_len - {last} AND h.idx < a2a_tasks.history_len), \
         {artifacts} FROM a2a_tasks WHERE {page_filter} \
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
pub(crate) fn next<'a>(binds: &mut Vec<Bind<'a>>, value: Bind<'a>) -> String {
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
