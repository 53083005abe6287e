//! Task histories in SQL (see `store`'s docs, "History"): a row per message in `a2a_history`,
//! numbered from 0 in the order they were added, and the count of messages ever added in
//! `a2a_tasks.history_len`. The task's JSON holds no history. A write adds its new messages as
//! rows (and a whole history replaces them); a read takes the rows below `history_len`, so it
//! sees no message a later write added, and only the last it was asked for.

use a2a_types::v1::Message;

use super::{backend, next, Bind, Migration};
use crate::store::{History, StoreError};

/// The step of the schema that keeps histories apart (PostgreSQL's sixth, SQLite's seventh):
/// the table and the count, then (`moves_histories`) each stored task's history moved out of
/// its JSON into rows, by [`SqlStore::move_out_of_json`](super::SqlStore::move_out_of_json). In
/// Rust, not SQL: PostgreSQL's JSON functions refuse a string holding `\u0000`, which a task's
/// JSON in `TEXT` may hold.
pub(crate) const fn history_migration(version: i64, sql: &'static str) -> Migration {
    Migration {
        version,
        description: "task histories a row per message",
        moves_histories: true,
        moves_artifacts: false,
        sql,
    }
}

/// The table of [`history_migration`], its `task_id` of type `$id` (the type of
/// `a2a_tasks.id`: on PostgreSQL with its collation, so that a join on it uses the key's index).
macro_rules! history_table {
    ($id:literal) => {
        concat!(
            "
CREATE TABLE a2a_history (
    tenant  TEXT   NOT NULL,
    task_id ",
            $id,
            " NOT NULL,
    idx     BIGINT NOT NULL,
    message TEXT   NOT NULL,
    PRIMARY KEY (tenant, task_id, idx)
);
ALTER TABLE a2a_tasks ADD COLUMN history_len BIGINT NOT NULL DEFAULT 0;
"
        )
    };
}
pub(crate) use history_table;

/// What a task write adds to its history, as one JSON array (bound once, split into rows by
/// the database: `Dialect::JSON_ROWS`).
#[derive(Clone, Copy)]
pub(crate) struct HistoryWrite<'a> {
    /// The messages, as a JSON array.
    pub(crate) json: &'a str,
    /// How many.
    pub(crate) count: i64,
    /// Whether they are the whole history (else they are appended).
    pub(crate) whole: bool,
    /// Whether rows may be stored already that the whole history replaces (not for a task
    /// just created).
    pub(crate) replaces: bool,
    /// The most messages kept, the newest.
    pub(crate) keep: Option<i64>,
}

/// The messages a write adds to a task's history, encoded: see [`Added::write`].
pub(crate) struct Added {
    json: String,
    count: i64,
    whole: bool,
    keep: Option<i64>,
}

impl Added {
    /// The messages of `history` that a write with `how` adds, as a JSON array: all of them for
    /// a whole history, else the last `new`.
    pub(crate) fn of(
        label: &'static str,
        history: &[Message],
        how: History,
    ) -> Result<Added, StoreError> {
        let (messages, whole, keep) = match how {
            History::Whole => (history, true, None),
            History::Append { new, keep } => {
                let new = (new as usize).min(history.len());
                (&history[history.len() - new..], false, keep)
            }
        };
        let json = serde_json::to_string(messages)
            .map_err(|e| backend(label, "encode a task's messages as JSON", e))?;
        Ok(Added {
            json,
            count: i64::try_from(messages.len()).unwrap_or(i64::MAX),
            whole,
            keep: keep.map(i64::from),
        })
    }

    /// What the task's write does with them.
    pub(crate) fn write(&self) -> HistoryWrite<'_> {
        HistoryWrite {
            json: &self.json,
            count: self.count,
            whole: self.whole,
            replaces: self.whole,
            keep: self.keep,
        }
    }
}

impl<'a> HistoryWrite<'a> {
    /// The `SET` of `history_len` in the task's update (a create sets it to `count`).
    pub(crate) fn set_len(&self, binds: &mut Vec<Bind<'a>>) -> String {
        let c = next(binds, Bind::Int(self.count));
        match self.whole {
            true => format!("history_len = {c}"),
            false => format!("history_len = history_len + {c}"),
        }
    }

    /// The statements that write the rows, run after the task's write in its transaction (a
    /// database whose `WITH` does not write): with their binds, `$1` tenant and `$2` task id
    /// first. `rows` is the database's `JSON_ROWS`.
    pub(crate) fn after(
        &self,
        tenant: Bind<'a>,
        id: Bind<'a>,
        rows: &str,
    ) -> Vec<(String, Vec<Bind<'a>>)> {
        let mut statements = Vec::new();
        let key = || vec![tenant.clone(), id.clone()];
        if self.replaces {
            let delete = "DELETE FROM a2a_history WHERE tenant = $1 AND task_id = $2";
            statements.push((delete.to_owned(), key()));
        }
        if self.count > 0 {
            let rows = rows.replace("{array}", "$3");
            let insert = format!(
                "INSERT INTO a2a_history (tenant, task_id, idx, message) \
                 SELECT $1, $2, t.history_len - $4 + r.i, r.m FROM a2a_tasks t, {rows} \
                 WHERE t.tenant = $1 AND t.id = $2"
            );
            let mut binds = key();
            binds.extend([Bind::text(self.json), Bind::Int(self.count)]);
            statements.push((insert, binds));
        }
        if let Some(keep) = self.keep {
            let capped = "DELETE FROM a2a_history WHERE tenant = $1 AND task_id = $2 AND idx < \
                (SELECT history_len FROM a2a_tasks WHERE tenant = $1 AND id = $2) - $3";
            let mut binds = key();
            binds.push(Bind::Int(keep));
            statements.push((capped.to_owned(), binds));
        }
        statements
    }

    /// The same as `WITH` entries of a write whose `written` entry returns `history_len`
    /// (PostgreSQL): a rewritten history replaces rows in place and drops those past its end,
    /// so no two entries touch one row.
    pub(crate) fn in_with(&self, binds: &mut Vec<Bind<'a>>, rows: &str) -> Vec<String> {
        let mut entries = Vec::new();
        if self.count > 0 {
            let c = next(binds, Bind::Int(self.count));
            let j = next(binds, Bind::text(self.json));
            let rows = rows.replace("{array}", &j);
            entries.push(format!(
                "history AS (INSERT INTO a2a_history (tenant, task_id, idx, message) \
                 SELECT $1, $2, w.history_len - {c} + r.i, r.m FROM written w, {rows} \
                 ON CONFLICT (tenant, task_id, idx) DO UPDATE SET message = EXCLUDED.message)"
            ));
        }
        if self.replaces {
            entries.push(
                "history_cut AS (DELETE FROM a2a_history h USING written w \
                 WHERE h.tenant = $1 AND h.task_id = $2 AND h.idx >= w.history_len)"
                    .to_owned(),
            );
        }
        if let Some(keep) = self.keep {
            let k = next(binds, Bind::Int(keep));
            entries.push(format!(
                "history_capped AS (DELETE FROM a2a_history h USING written w \
                 WHERE h.tenant = $1 AND h.task_id = $2 AND h.idx < w.history_len - {k})"
            ));
        }
        entries
    }
}

/// The messages of a `Dialect::MESSAGES_AGG` (`None`: no message), decoded.
pub(crate) fn decode_joined(
    label: &'static str,
    task_id: &str,
    joined: Option<&str>,
) -> Result<Vec<Message>, StoreError> {
    decode_rows(label, task_id, joined, "history", |s| {
        serde_json::from_str(s)
    })
}

/// The rows of an aggregate that joins JSON values by commas (`None`: no row), as a JSON array
/// `parse`d (`serde_json::from_str`: this crate names no serde trait); `what` of task
/// `task_id` names them in an error.
pub(crate) fn decode_rows<T>(
    label: &'static str,
    task_id: &str,
    joined: Option<&str>,
    what: &str,
    parse: impl FnOnce(&str) -> serde_json::Result<Vec<T>>,
) -> Result<Vec<T>, StoreError> {
    let Some(joined) = joined else {
        return Ok(Vec::new());
    };
    parse(&format!("[{joined}]"))
        .map_err(|e| backend(label, format!("decode the {what} of task `{task_id}`"), e))
}

/// The history and artifact methods of `TaskStore`, for a store whose `sql` field is a
/// [`SqlStore`](super::SqlStore): the same forwarding in both SQL stores, written once.
macro_rules! task_history_methods {
    () => {
        fn get_task<'a>(
            &'a self,
            scope: Scope<'a>,
            task_id: &'a str,
        ) -> StoreFuture<'a, Option<Stored>> {
            Box::pin(self.sql.get_task(scope, task_id, None))
        }

        fn get_task_recent<'a>(
            &'a self,
            scope: Scope<'a>,
            task_id: &'a str,
            last: u32,
        ) -> StoreFuture<'a, Option<Stored>> {
            Box::pin(self.sql.get_task(scope, task_id, Some(last)))
        }

        fn appends_history(&self) -> bool {
            true
        }

        fn appends_artifacts(&self) -> bool {
            true
        }
    };
}
pub(crate) use task_history_methods;
