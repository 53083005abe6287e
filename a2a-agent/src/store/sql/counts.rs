//! Kept counts of tasks (see `store`'s docs, "Counts"): what a list's `total_size` reads when the
//! list filters by nothing but its tenant and owner, instead of counting every row.
//!
//! `a2a_task_counts` holds, per tenant and owner, [`STRIPES`] rows whose sum is the number of
//! their tasks. A create adds one to a stripe in its own statement or transaction (only when it
//! wrote the task), a delete takes one away, so the sum agrees with the tasks in every snapshot.
//! Several rows, not one, because a row is locked from a write to its commit: with one, every
//! create of an owner would wait for the one before it to commit.

use super::{next, Bind};

/// The rows an owner's count is spread over.
pub(crate) const STRIPES: i64 = 32;

/// The step of both databases' schema that adds the counts (PostgreSQL 7, SQLite 8), counting
/// the tasks already stored.
pub(crate) const fn counts_migration(version: i64) -> super::Migration {
    super::Migration {
        version,
        description: "kept counts of tasks",
        moves_histories: false,
        moves_artifacts: false,
        sql: "
CREATE TABLE a2a_task_counts (
    tenant TEXT   NOT NULL,
    owner  TEXT   NOT NULL,
    stripe BIGINT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (tenant, owner, stripe)
);
INSERT INTO a2a_task_counts (tenant, owner, stripe, n)
    SELECT tenant, owner, 0, COUNT(*) FROM a2a_tasks GROUP BY tenant, owner;
",
    }
}

/// The stripe of task `id`: any stripe would keep the sum right; one picked by the id spreads
/// concurrent creates over the rows and gives a task's create and delete the same row.
pub(crate) fn stripe(id: &str) -> i64 {
    // FNV-1a: a hash that stays the same across builds and platforms, in four lines (std's
    // hasher is not promised to).
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    i64::try_from(hash % STRIPES.unsigned_abs()).unwrap_or(0)
}

/// Adds `delta` to the stripe `$3` of tenant `$1` and owner `$2`.
const ADD: &str = "INSERT INTO a2a_task_counts (tenant, owner, stripe, n) VALUES ($1, $2, $3, $4) \
    ON CONFLICT (tenant, owner, stripe) DO UPDATE SET n = a2a_task_counts.n + excluded.n";

/// A count's change: which tenant, owner and stripe.
#[derive(Clone, Copy)]
pub(crate) struct Counted<'a> {
    pub(crate) owner: &'a str,
    pub(crate) stripe: i64,
}

impl<'a> Counted<'a> {
    /// The statement that adds `delta`, and its binds, run in the write's transaction.
    pub(crate) fn after(self, tenant: Bind<'a>, delta: i64) -> (String, Vec<Bind<'a>>) {
        let binds = vec![
            tenant,
            Bind::text(self.owner),
            Bind::Int(self.stripe),
            Bind::Int(delta),
        ];
        (ADD.to_owned(), binds)
    }

    /// The same as a `WITH` entry that adds one when `written` returned a row (`$1` the
    /// tenant).
    pub(crate) fn in_with(self, binds: &mut Vec<Bind<'a>>) -> String {
        let o = next(binds, Bind::text(self.owner));
        let s = next(binds, Bind::Int(self.stripe));
        format!(
            "counted AS (INSERT INTO a2a_task_counts (tenant, owner, stripe, n) \
             SELECT $1, {o}, {s}, 1 FROM written \
             ON CONFLICT (tenant, owner, stripe) DO UPDATE SET n = a2a_task_counts.n + 1)"
        )
    }
}

/// The count of a list that filters by tenant (`$1`) and, when `owned`, by owner (`$2`) only:
/// the sum of the kept rows (`BIGINT`: PostgreSQL's `SUM` of one is `NUMERIC`).
pub(crate) fn kept_count(owned: bool) -> String {
    let count = "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM a2a_task_counts WHERE tenant = $1";
    match owned {
        true => format!("{count} AND owner = $2"),
        false => count.to_owned(),
    }
}
