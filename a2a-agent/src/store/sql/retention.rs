//! Retention in SQL (see `store`'s docs, "Retention"): deleting a task with everything kept
//! for it, deleting ended tasks by age, and trimming the event logs of ended tasks.

use a2a_types::rt::UnixTime;

use super::generic::sql_impl;
use super::{backend, Bind, TERMINAL};
use crate::store::{Scope, StoreError};

/// The fifth step of PostgreSQL's schema (the sixth of SQLite's): an index of the ended tasks
/// by last update, which the deletion by age and the trimming of logs walk (its condition is
/// the one their statements name, so both databases use it).
pub(crate) const fn retention_migration(version: i64) -> super::Migration {
    super::Migration {
        version,
        description: "an index of ended tasks",
        moves_histories: false,
        moves_artifacts: false,
        sql: "
CREATE INDEX a2a_tasks_ended ON a2a_tasks (sort_s, sort_n) WHERE state IN \
('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED');
",
    }
}

/// Deletes one task: `$1` tenant, `$2` id; ends in its `WHERE` clause (an owner's condition
/// follows, then `RETURNING owner`, the count to take one from).
const DELETE_TASK: &str = "DELETE FROM a2a_tasks WHERE tenant = $1 AND id = $2";

/// What is kept for a task, deleted after it: `$1` tenant, `$2` id.
const DELETE_KEPT: [&str; 5] = [
    "DELETE FROM a2a_events WHERE tenant = $1 AND task_id = $2",
    "DELETE FROM a2a_history WHERE tenant = $1 AND task_id = $2",
    "DELETE FROM a2a_artifacts WHERE tenant = $1 AND task_id = $2",
    "DELETE FROM a2a_outbox WHERE tenant = $1 AND task_id = $2",
    "DELETE FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2",
];

/// Ended tasks last updated before (`$1` seconds, `$2` nanoseconds), oldest first, `$3` at most.
fn ended_before() -> String {
    format!(
        "SELECT tenant, id FROM a2a_tasks WHERE state IN {TERMINAL} AND (sort_s, sort_n) < ($1, $2) \
         ORDER BY sort_s, sort_n LIMIT $3"
    )
}

/// The logged events of the tasks that ended with a last update in `($1, $2)..($3, $4)`, but
/// each task's last one and those a push notification waits for.
fn trim_logs() -> String {
    format!(
        "DELETE FROM a2a_events WHERE (tenant, task_id) IN (SELECT tenant, id FROM a2a_tasks \
         WHERE state IN {TERMINAL} AND (sort_s, sort_n) >= ($1, $2) AND (sort_s, sort_n) < ($3, $4)) \
         AND seq < (SELECT t.version FROM a2a_tasks t \
         WHERE t.tenant = a2a_events.tenant AND t.id = a2a_events.task_id) \
         AND NOT EXISTS (SELECT 1 FROM a2a_outbox o WHERE o.tenant = a2a_events.tenant \
         AND o.task_id = a2a_events.task_id AND o.seq = a2a_events.seq)"
    )
}

fn time_binds<'a>(time: UnixTime) -> [Bind<'a>; 2] {
    [Bind::Int(time.seconds), Bind::Int(i64::from(time.nanos))]
}

sql_impl! {
    /// [`TaskStore::delete_task`](crate::store::TaskStore::delete_task).
    pub(crate) async fn delete_task(&self, scope: Scope<'_>, task_id: &str) -> Result<bool, StoreError> {
        let fail = |e| backend(DB::LABEL, format!("delete task `{task_id}`"), e);
        let mut tx = self.begin_write().await.map_err(fail)?;
        let deleted = Self::delete_in(&mut tx, scope, task_id).await.map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        Ok(deleted)
    }

    /// Deletes the task and what is kept for it, in `tx`; `true` when there was one.
    async fn delete_in(
        tx: &mut sqlx::Transaction<'_, DB>,
        scope: Scope<'_>,
        task_id: &str,
    ) -> Result<bool, sqlx::Error> {
        let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id)];
        let statement = format!("{} RETURNING owner", super::owned(DELETE_TASK, scope.owner, &mut binds));
        let owner: Option<String> = sqlx::query_scalar_with(&statement, Self::arguments(&binds)?)
            .fetch_optional(&mut **tx)
            .await?;
        let Some(owner) = owner else {
            return Ok(false);
        };
        for statement in DELETE_KEPT {
            sqlx::query_with(statement, Self::arguments(&binds[..2])?)
                .execute(&mut **tx)
                .await?;
        }
        let counted = super::Counted {
            owner: &owner,
            stripe: super::counts::stripe(task_id),
        };
        let (statement, binds) = counted.after(binds[0].clone(), -1);
        sqlx::query_with(&statement, Self::arguments(&binds)?)
            .execute(&mut **tx)
            .await?;
        Ok(true)
    }

    /// [`TaskStore::delete_ended`](crate::store::TaskStore::delete_ended): one transaction.
    pub(crate) async fn delete_ended(&self, before: UnixTime, limit: u32) -> Result<u64, StoreError> {
        let fail = |e| backend(DB::LABEL, "delete ended tasks", e);
        let mut binds = time_binds(before).to_vec();
        binds.push(Bind::Int(i64::from(limit)));
        let mut tx = self.begin_write().await.map_err(fail)?;
        let ended: Vec<(String, String)> = sqlx::query_as_with(&ended_before(), Self::arguments(&binds).map_err(fail)?)
            .fetch_all(&mut *tx)
            .await
            .map_err(fail)?;
        let mut deleted = 0;
        for (tenant, id) in &ended {
            let scope = Scope::tenant(Some(tenant));
            deleted += u64::from(Self::delete_in(&mut tx, scope, id).await.map_err(fail)?);
        }
        tx.commit().await.map_err(fail)?;
        Ok(deleted)
    }

    /// [`TaskStore::trim_ended_logs`](crate::store::TaskStore::trim_ended_logs).
    pub(crate) async fn trim_ended_logs(&self, from: UnixTime, to: UnixTime) -> Result<u64, StoreError> {
        let binds = [time_binds(from), time_binds(to)].concat();
        self.write(&trim_logs(), &binds)
            .await
            .map_err(|e| backend(DB::LABEL, "trim the logs of ended tasks", e))
    }
}

/// The retention methods of `TaskStore`, for a store whose `sql` field is a
/// [`SqlStore`](super::SqlStore): the same forwarding in both SQL stores, written once.
macro_rules! task_retention_methods {
    () => {
        fn delete_task<'a>(&'a self, scope: Scope<'a>, task_id: &'a str) -> StoreFuture<'a, bool> {
            Box::pin(self.sql.delete_task(scope, task_id))
        }

        fn delete_ended(
            &self,
            before: a2a_types::rt::UnixTime,
            limit: u32,
        ) -> StoreFuture<'_, u64> {
            Box::pin(self.sql.delete_ended(before, limit))
        }

        fn trim_ended_logs(
            &self,
            from: a2a_types::rt::UnixTime,
            to: a2a_types::rt::UnixTime,
        ) -> StoreFuture<'_, u64> {
            Box::pin(self.sql.trim_ended_logs(from, to))
        }
    };
}
pub(crate) use task_retention_methods;
