//! Moving what a task's JSON held into rows of its own, when a migration keeps it apart from
//! then on: the history (`history_migration`), the artifacts (`artifacts_migration`). In Rust,
//! not SQL: PostgreSQL's JSON functions refuse a string holding `\u0000`, which a task's JSON in
//! `TEXT` may hold.

use a2a_types::v1::Task;

use super::generic::sql_impl;
use super::{ArtifactsWrite, Bind, HistoryWrite};
use crate::store::Artifacts;

/// The tasks after (`$1` tenant, `$2` id), in key order, `$3` at most: a batch.
const TASKS_AFTER: &str = "SELECT tenant, id, task FROM a2a_tasks \
    WHERE (tenant, id) > ($1, $2) ORDER BY tenant, id LIMIT $3";

/// A task's JSON without what moved: `$1` tenant, `$2` id, `$3` the JSON.
const MOVED: &str = "UPDATE a2a_tasks SET task = $3 WHERE tenant = $1 AND id = $2";
/// The same, with the length of the history that moved (`$4`).
const MOVED_HISTORY: &str =
    "UPDATE a2a_tasks SET task = $3, history_len = $4 WHERE tenant = $1 AND id = $2";

sql_impl! {
    /// Moves every stored task's history (`histories`) and artifacts (`artifacts`) out of its
    /// JSON into rows, in the migration's transaction `tx`, a batch of tasks at a time. A task
    /// whose JSON does not decode is left as it is: a read reports it.
    pub(crate) async fn move_out_of_json(
        tx: &mut sqlx::Transaction<'_, DB>,
        histories: bool,
        artifacts: bool,
    ) -> Result<(), sqlx::Error> {
        const BATCH: i64 = 500;
        let encode = |e: serde_json::Error| sqlx::Error::Encode(Box::new(e));
        let (mut tenant, mut id) = (String::new(), String::new());
        loop {
            let binds = [Bind::text(&tenant), Bind::text(&id), Bind::Int(BATCH)];
            let rows: Vec<(String, String, String)> =
                sqlx::query_as_with(TASKS_AFTER, Self::arguments(&binds)?)
                    .fetch_all(&mut **tx)
                    .await?;
            for (t, i, json) in &rows {
                let Ok(mut task) = serde_json::from_str::<Task>(json) else {
                    continue;
                };
                let history = match histories {
                    true => std::mem::take(&mut task.history),
                    false => Vec::new(),
                };
                let moved_artifacts = match artifacts {
                    true => std::mem::take(&mut task.artifacts),
                    false => Vec::new(),
                };
                if history.is_empty() && moved_artifacts.is_empty() {
                    continue;
                }
                let head = serde_json::to_string(&task).map_err(encode)?;
                let messages = serde_json::to_string(&history).map_err(encode)?;
                let len = i64::try_from(history.len()).unwrap_or(i64::MAX);
                let key = [Bind::text(t), Bind::text(i)];
                let mut statements = Vec::new();
                let head_binds = [&key[..], &[Bind::text(&head)]].concat();
                statements.push(match histories {
                    true => (MOVED_HISTORY.to_owned(), [&head_binds[..], &[Bind::Int(len)]].concat()),
                    false => (MOVED.to_owned(), head_binds),
                });
                let write = HistoryWrite {
                    json: &messages,
                    count: len,
                    whole: true,
                    replaces: false,
                    keep: None,
                };
                if !history.is_empty() {
                    statements.extend(write.after(key[0].clone(), key[1].clone(), DB::JSON_ROWS));
                }
                let rows = ArtifactsWrite::of(DB::LABEL, &moved_artifacts, Artifacts::Whole, false)
                    .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
                statements.extend(rows.after(&key[0], &key[1]));
                for (statement, binds) in &statements {
                    sqlx::query_with(statement, Self::arguments(binds)?)
                        .execute(&mut **tx)
                        .await?;
                }
            }
            match rows.last() {
                Some((t, i, _)) if rows.len() as i64 == BATCH => (tenant, id) = (t.clone(), i.clone()),
                _ => return Ok(()),
            }
        }
    }
}
