//! The SQL of execution leases (see `store`'s docs, "Leases"), and what is read back: the
//! statements, the binds of [`TaskStore::set_lease`](crate::store::TaskStore::set_lease), why a
//! write was refused, and the tasks a recovery sweep settles. Plain functions over rows, so the
//! generic store only runs them.

use a2a_types::v1::TaskState;

use super::{backend, Bind};
use crate::lifecycle::is_terminal;
use crate::store::{ExpiredLease, Lease, Scope, StoreError, Stored};

/// Takes or renews a task's lease without writing the task: `$1` tenant, `$2` id, `$3` the
/// holder, `$4` the time to live in milliseconds; ends in its `WHERE` clause.
pub(crate) const HOLD_LEASE: &str =
    "UPDATE a2a_tasks SET lease_owner = $3, lease_until = {now} + $4 \
    WHERE tenant = $1 AND id = $2 AND state NOT IN {terminal} \
    AND (lease_owner IS NULL OR lease_owner = $3 OR lease_until < {now})";

/// Gives a task's lease back: `$1` tenant, `$2` id, `$3` the holder (another's is left as it
/// is); ends in its `WHERE` clause.
pub(crate) const RELEASE_LEASE: &str =
    "UPDATE a2a_tasks SET lease_owner = NULL, lease_until = NULL \
    WHERE tenant = $1 AND id = $2 AND lease_owner = $3";

/// The heartbeat: `$1` the holder, `$2` the time to live in milliseconds.
pub(crate) const RENEW_LEASES: &str =
    "UPDATE a2a_tasks SET lease_until = {now} + $2 WHERE lease_owner = $1";
/// A stopping replica's leases, expired now: `$1` the holder.
pub(crate) const RELEASE_LEASES: &str =
    "UPDATE a2a_tasks SET lease_until = 0 WHERE lease_owner = $1";
/// Tasks whose lease expired while they were running (not ended, and not waiting for input:
/// such a task was settled by its execution, which stopped only after), the longest expired
/// first: `$1` the limit.
pub(crate) const EXPIRED_LEASES: &str = "SELECT tenant, task, version, owner, lease_owner, \
    (SELECT {agg} FROM a2a_history h WHERE h.tenant = a2a_tasks.tenant \
    AND h.task_id = a2a_tasks.id AND h.idx < a2a_tasks.history_len), {artifacts_of} \
    FROM a2a_tasks WHERE lease_owner IS NOT NULL AND lease_until < {now} \
    AND state NOT IN {terminal} \
    AND state NOT IN ('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED') \
    ORDER BY lease_until LIMIT $1";

/// What a refused write reads of the task ([`TASK_VERSION`](super::TASK_VERSION)): its version,
/// state, lease holder and expiry, and the database's clock.
pub(crate) type RefusedRow = (i64, String, Option<String>, Option<i64>, i64);

/// A row of [`EXPIRED_LEASES`]: tenant, task JSON, version, owner, lease holder, history
/// (`Dialect::MESSAGES_AGG`), artifacts (`Dialect::ARTIFACTS_AGG`).
pub(crate) type ExpiredRow = (
    String,
    String,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
);

/// Why a write of `task_id` wrote nothing, from the task as read after it (`None`: it does not
/// exist): a terminal task, another holder's lease that runs, or else a stale version (`expected`,
/// `None` when none was named).
pub(crate) fn why_refused(
    row: Option<RefusedRow>,
    task_id: &str,
    lease: Lease<'_>,
    expected: Option<u64>,
) -> StoreError {
    let task_id = task_id.to_owned();
    match row {
        Some((_, state, ..))
            if TaskState::from_known_name(&state).is_some_and(|s| is_terminal(&s)) =>
        {
            StoreError::Terminal { task_id, state }
        }
        Some((_, _, Some(holder), Some(until), now))
            if until >= now && lease.holder().is_some_and(|h| h != holder) =>
        {
            StoreError::Leased { task_id, holder }
        }
        Some(_) => StoreError::Conflict {
            task_id,
            expected_version: expected,
        },
        None => StoreError::NotFound { task_id },
    }
}

/// The statement of [`TaskStore::set_lease`](crate::store::TaskStore::set_lease) (before the
/// clock and the owner's condition are written in) and its binds; `None` for [`Lease::Ignore`].
pub(crate) fn set_lease<'a>(
    scope: Scope<'a>,
    task_id: &'a str,
    lease: Lease<'a>,
) -> Option<(&'static str, Vec<Bind<'a>>)> {
    let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id)];
    match lease {
        Lease::Ignore => None,
        Lease::Hold { holder, ttl } => {
            binds.push(Bind::text(holder));
            binds.push(Bind::Int(super::millis(ttl)));
            Some((HOLD_LEASE, binds))
        }
        Lease::Release { holder } => {
            binds.push(Bind::text(holder));
            Some((RELEASE_LEASE, binds))
        }
    }
}

/// A row of [`EXPIRED_LEASES`], read.
pub(crate) fn expired_lease(
    label: &'static str,
    row: ExpiredRow,
) -> Result<ExpiredLease, StoreError> {
    let (tenant, json, version, owner, holder, messages, artifacts) = row;
    let version =
        u64::try_from(version).map_err(|e| backend(label, "read the version of a task", e))?;
    let mut task = super::decode_task(label, &json)?;
    task.history = super::history::decode_joined(label, &task.id, messages.as_deref())?;
    task.artifacts = super::artifacts::decode_joined(label, &task.id, artifacts.as_deref())?;
    Ok(ExpiredLease {
        tenant,
        stored: Stored {
            task,
            version,
            owner,
        },
        holder,
    })
}

/// The statement and binds of [`SqlStore::leases_of`](super::SqlStore::leases_of): every lease of
/// `holder` renewed for `ttl`, or with none, expired now.
pub(crate) fn leases_of(
    holder: &str,
    ttl: Option<std::time::Duration>,
) -> (&'static str, Vec<Bind<'_>>) {
    match ttl {
        Some(ttl) => (
            RENEW_LEASES,
            vec![Bind::text(holder), Bind::Int(super::millis(ttl))],
        ),
        None => (RELEASE_LEASES, vec![Bind::text(holder)]),
    }
}
