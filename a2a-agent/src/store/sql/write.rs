//! A task's write as one statement and what follows it: the optimistic version check, the
//! lease's conditions, the event logged, the notifications queued and the history's rows, in a
//! `WITH` where the database writes in one (PostgreSQL), in one transaction otherwise.

use super::{
    expand, millis, next, outbox, ArtifactsWrite, Bind, Counted, HistoryWrite, LOG_EVENT, TERMINAL,
};
use crate::store::Lease;

/// A write of a task, ready to run: the statement, its binds, and the statements to run after
/// it in the same transaction, when it wrote a row (the event to log, the notifications to
/// queue, the history rows), where the statement cannot do it itself.
pub(crate) struct TaskWrite<'a> {
    pub(crate) statement: String,
    pub(crate) binds: Vec<Bind<'a>>,
    pub(crate) after: Vec<(String, Vec<Bind<'a>>)>,
}

/// What a task write does beside the task's row: its event's JSON to log, whether it is queued
/// for the task's push configs too (the outbox), the messages it adds to the history, and
/// whether the database runs a write in a `WITH` (PostgreSQL: then the statement does all of
/// it, one round trip, one transaction).
#[derive(Clone, Copy)]
pub(crate) struct Logged<'a> {
    pub(crate) event: Option<&'a str>,
    pub(crate) queue: bool,
    pub(crate) history: Option<HistoryWrite<'a>>,
    /// The artifacts the write gives (see `artifacts`).
    pub(crate) artifacts: Option<&'a ArtifactsWrite>,
    /// The kept count a create adds one to (see `counts`).
    pub(crate) counted: Option<Counted<'a>>,
    pub(crate) in_with: bool,
    /// The database's `Dialect::JSON_ROWS`.
    pub(crate) json_rows: &'static str,
}

impl<'a> Logged<'a> {
    /// `write` (the statement that writes the task) with the event logged beside it, under
    /// `version`, and queued when it is to be, and the history's rows written; `now` is the
    /// database's clock.
    fn wrap(self, write: String, binds: Vec<Bind<'a>>, version: i64, now: &str) -> TaskWrite<'a> {
        let (tenant, id) = (binds[0].clone(), binds[1].clone());
        if self.event.is_none()
            && self.history.is_none()
            && self.artifacts.is_none()
            && self.counted.is_none()
        {
            return TaskWrite {
                statement: write,
                binds,
                after: Vec::new(),
            };
        }
        if !self.in_with {
            let mut after = Vec::new();
            if let Some(event) = self.event {
                let key = [tenant.clone(), id.clone(), Bind::Int(version)];
                let log = [&key[..], &[Bind::text(event)]].concat();
                after.push((LOG_EVENT.to_owned(), log));
                if self.queue {
                    after.push((expand(outbox::QUEUE, now), key.to_vec()));
                }
            }
            if let Some(counted) = self.counted {
                after.push(counted.after(tenant.clone(), 1));
            }
            if let Some(artifacts) = self.artifacts {
                after.extend(artifacts.after(&tenant, &id));
            }
            if let Some(history) = &self.history {
                after.extend(history.after(tenant, id, self.json_rows));
            }
            return TaskWrite {
                statement: write,
                binds,
                after,
            };
        }
        let mut binds = binds;
        let mut entries = Vec::new();
        if let Some(history) = &self.history {
            entries.extend(history.in_with(&mut binds, self.json_rows));
        }
        if let Some(artifacts) = self.artifacts {
            entries.extend(artifacts.in_with(&mut binds));
        }
        if let Some(counted) = self.counted {
            entries.push(counted.in_with(&mut binds));
        }
        if self.queue && self.event.is_some() {
            entries.push(outbox::queue_in_with(now));
        }
        // The last statement's count is the statement's: the event's insert (1, or 0 when the
        // write changed nothing), whatever the number of configs queued and rows written; or
        // the written row itself.
        let last = match self.event {
            Some(event) => {
                let e = next(&mut binds, Bind::text(event));
                format!(
                    "INSERT INTO a2a_events (tenant, task_id, seq, event) \
                     SELECT $1, $2, version, {e} FROM written"
                )
            }
            None => "SELECT 1 FROM written".to_owned(),
        };
        let entries: String = entries.iter().map(|e| format!(", {e}")).collect();
        let statement =
            format!("WITH written AS ({write} RETURNING version, history_len){entries} {last}");
        TaskWrite {
            statement,
            binds,
            after: Vec::new(),
        }
    }
}

/// The create of a task from its `$1` to `$9` [`TaskRow::binds`] and the owner (`$10`); with a
/// lease to hold, its holder and time to live are bound after them; `now` is the database's
/// clock.
pub(crate) fn create_task<'a>(
    mut binds: Vec<Bind<'a>>,
    lease: Lease<'a>,
    logged: Logged<'a>,
    now: &str,
) -> TaskWrite<'a> {
    let (mut columns, mut values) = (String::new(), String::new());
    if let Some(history) = &logged.history {
        let c = next(&mut binds, Bind::Int(history.count));
        columns.push_str(", history_len");
        values.push_str(&format!(", {c}"));
    }
    if let Lease::Hold { holder, ttl } = lease {
        let h = next(&mut binds, Bind::text(holder));
        let t = next(&mut binds, Bind::Int(millis(ttl)));
        columns.push_str(", lease_owner, lease_until");
        values.push_str(&format!(", {h}, {now} + {t}"));
    }
    let insert = format!(
        "INSERT INTO a2a_tasks (tenant, id, context_id, state, status_s, status_n, sort_s, sort_n, \
         task, owner, version{columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1{values}) \
         ON CONFLICT (tenant, id) DO NOTHING"
    );
    logged.wrap(insert, binds, 1, now)
}

/// The optimistic write of a task: the version check, the refusal of a terminal task, the
/// owner's and the lease's conditions and the write in one statement. `binds` holds
/// [`TaskRow::binds`] (`$1` to `$9`); the expected version and the rest are bound here.
pub(crate) fn update_task<'a>(
    mut binds: Vec<Bind<'a>>,
    expected: i64,
    owner: Option<&'a str>,
    lease: Lease<'a>,
    logged: Logged<'a>,
    now: &str,
) -> TaskWrite<'a> {
    let v = next(&mut binds, Bind::Int(expected));
    let mut set = String::from(
        "context_id = $3, state = $4, status_s = $5, status_n = $6, sort_s = $7, sort_n = $8, \
         task = $9, version = version + 1",
    );
    if let Some(history) = &logged.history {
        set.push_str(&format!(", {}", history.set_len(&mut binds)));
    }
    let mut condition =
        format!("tenant = $1 AND id = $2 AND version = {v} AND state NOT IN {TERMINAL}");
    if let Some(owner) = owner {
        let o = next(&mut binds, Bind::text(owner));
        condition.push_str(&format!(" AND owner = {o}"));
    }
    if let Some(holder) = lease.holder() {
        let h = next(&mut binds, Bind::text(holder));
        condition.push_str(&format!(
            " AND (lease_owner IS NULL OR lease_owner = {h} OR lease_until < {now})"
        ));
        match lease {
            Lease::Hold { ttl, .. } => {
                let t = next(&mut binds, Bind::Int(millis(ttl)));
                set.push_str(&format!(", lease_owner = {h}, lease_until = {now} + {t}"));
            }
            _ => set.push_str(", lease_owner = NULL, lease_until = NULL"),
        }
    }
    let update = format!("UPDATE a2a_tasks SET {set} WHERE {condition}");
    logged.wrap(update, binds, expected.saturating_add(1), now)
}
