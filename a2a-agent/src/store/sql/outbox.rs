//! The push outbox in SQL (see `store`'s docs, "Push outbox"): the statements that queue a
//! logged event for the task's configs, claim configs with notifications to send, read and
//! clear what is queued, and the store's push-config operations beside them.

use std::time::Duration;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::TaskPushNotificationConfig;

use super::generic::sql_impl;
use super::{backend, Bind};
use crate::store::{
    config_id_for, effective_page_size, stored_config, token, Deliveries, Delivery, LoggedEvent,
    PushConfigPage, PushTarget, Scope, StoreError,
};

/// The fourth step of PostgreSQL's schema (the fifth of SQLite's): the push outbox (see
/// `store`'s docs, "Push outbox"). A row names an event of the log that a config of the task has
/// still to be sent, queued by the write that logged the event (`at`: when, by the database's
/// clock); a config's `sender` is the replica that sends its notifications, until
/// `sender_until`.
pub(crate) const fn outbox_migration(version: i64) -> super::Migration {
    super::Migration {
        version,
        description: "push outbox",
        moves_histories: false,
        moves_artifacts: false,
        sql: "
CREATE TABLE a2a_outbox (
    tenant    TEXT   NOT NULL,
    task_id   TEXT   NOT NULL,
    config_id TEXT   NOT NULL,
    seq       BIGINT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (tenant, task_id, config_id, seq)
);
CREATE INDEX a2a_outbox_by_age ON a2a_outbox (at);
ALTER TABLE a2a_push_configs ADD COLUMN sender TEXT;
ALTER TABLE a2a_push_configs ADD COLUMN sender_until BIGINT;
CREATE INDEX a2a_push_configs_by_sender ON a2a_push_configs (sender) WHERE sender IS NOT NULL;
",
    }
}

/// The ninth step of PostgreSQL's schema (the tenth of SQLite's): the A2A version of the call
/// that set each push config, the shape its notifications are sent in (`'0.3'` or `'1.0'`;
/// configs set before it are 1.0's, the only shape sent then).
pub(crate) const fn protocol_migration(version: i64) -> super::Migration {
    super::Migration {
        version,
        description: "the A2A version push configs were set in",
        moves_histories: false,
        moves_artifacts: false,
        sql: "ALTER TABLE a2a_push_configs ADD COLUMN protocol TEXT NOT NULL DEFAULT '1.0';",
    }
}

/// Queues an event for every config of its task: `$1` tenant, `$2` task id, `$3` the event's
/// sequence number. Run after the event is logged, in its transaction.
pub(crate) const QUEUE: &str = "INSERT INTO a2a_outbox (tenant, task_id, config_id, seq, at) \
    SELECT tenant, task_id, id, $3, {now} FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2";

/// [`QUEUE`] as a `WITH` entry of a task write whose `written` entry returns the new version.
pub(crate) fn queue_in_with(now: &str) -> String {
    format!(
        "queued AS (INSERT INTO a2a_outbox (tenant, task_id, config_id, seq, at) \
         SELECT c.tenant, c.task_id, c.id, w.version, {now} FROM a2a_push_configs c, written w \
         WHERE c.tenant = $1 AND c.task_id = $2)"
    )
}

/// Whether a config is free to claim by `$H`: unclaimed, claimed by it, or an expired claim.
const FREE: &str = "(sender IS NULL OR sender = $H OR sender_until < {now})";

/// Whether a task has any notification queued: `$1` tenant, `$2` task id.
const ANY_QUEUED: &str = "SELECT seq FROM a2a_outbox WHERE tenant = $1 AND task_id = $2 LIMIT 1";

/// Claims the configs of one task with notifications queued: `$1` tenant, `$2` task id, `$3` the
/// holder, `$4` the time to live in milliseconds.
const CLAIM_TASK: &str = "UPDATE a2a_push_configs SET sender = $3, sender_until = {now} + $4 \
    WHERE tenant = $1 AND task_id = $2 AND {free} AND EXISTS (SELECT 1 FROM a2a_outbox o \
    WHERE o.tenant = $1 AND o.task_id = $2 AND o.config_id = a2a_push_configs.id) \
    RETURNING tenant, task_id, id, config, protocol";

/// Claims the configs of any task whose oldest queued notification is older than `$3`
/// milliseconds and that no live claim holds, the longest waiting first: `$1` the holder, `$2`
/// the time to live, `$4` the limit.
const CLAIM_STALE: &str = "UPDATE a2a_push_configs SET sender = $1, sender_until = {now} + $2 \
    WHERE {free} AND (tenant, task_id, id) IN (SELECT o.tenant, o.task_id, o.config_id \
    FROM a2a_outbox o JOIN a2a_push_configs c \
    ON c.tenant = o.tenant AND c.task_id = o.task_id AND c.id = o.config_id \
    WHERE o.at < {now} - $3 AND (c.sender IS NULL OR c.sender = $1 OR c.sender_until < {now}) \
    ORDER BY o.at LIMIT $4) \
    RETURNING tenant, task_id, id, config, protocol";

/// A config's queued notifications, oldest first, with their events: `$1` tenant, `$2` task id,
/// `$3` config id, `$4` the limit.
const PENDING: &str = "SELECT o.seq, e.event FROM a2a_outbox o JOIN a2a_events e \
    ON e.tenant = o.tenant AND e.task_id = o.task_id AND e.seq = o.seq \
    WHERE o.tenant = $1 AND o.task_id = $2 AND o.config_id = $3 ORDER BY o.seq LIMIT $4";

/// One notification done with: `$1` tenant, `$2` task id, `$3` config id, `$4` its sequence number.
const SENT: &str =
    "DELETE FROM a2a_outbox WHERE tenant = $1 AND task_id = $2 AND config_id = $3 AND seq = $4";

/// Gives a config's claim back: `$1` tenant, `$2` task id, `$3` config id, `$4` the holder.
const RELEASE: &str = "UPDATE a2a_push_configs SET sender = NULL, sender_until = NULL \
    WHERE tenant = $1 AND task_id = $2 AND id = $3 AND sender = $4";

/// Renews every claim of `$1` for `$2` milliseconds.
const RENEW_ALL: &str = "UPDATE a2a_push_configs SET sender_until = {now} + $2 WHERE sender = $1";

/// Gives back every claim of `$1`.
const RELEASE_ALL: &str =
    "UPDATE a2a_push_configs SET sender = NULL, sender_until = NULL WHERE sender = $1";

/// What a deleted config leaves queued: `$1` tenant, `$2` task id, `$3` config id.
const FORGET: &str = "DELETE FROM a2a_outbox WHERE tenant = $1 AND task_id = $2 AND config_id = $3";

/// `statement` with the holder's placeholder (`$H`: `holder`), the free condition and the clock
/// written in.
fn claim_statement(statement: &str, holder: &str, now: &str) -> String {
    let free = FREE.replace("$H", holder);
    super::expand(&statement.replace("{free}", &free), now)
}

/// A row of a claim: tenant, task id, config id, config JSON, protocol version.
type ClaimRow = (String, String, String, String, String);

fn delivery(
    label: &'static str,
    (tenant, task_id, config_id, json, protocol): ClaimRow,
) -> Delivery {
    // A config that no longer decodes is still claimed, so that its notifications are cleared
    // (a default config's empty URL is refused by the screening).
    let config = super::decode_config(label, &json).unwrap_or_default();
    Delivery {
        tenant,
        task_id,
        config_id,
        config,
        protocol: protocol_of(&protocol),
    }
}

/// A `protocol` column's value: one this crate wrote, or (written by a newer one) 1.0's shape.
fn protocol_of(column: &str) -> ProtocolVersion {
    ProtocolVersion::parse(column).unwrap_or(ProtocolVersion::V1_0)
}

/// A task's configs and their versions, by id: `$1` tenant, `$2` task id.
const TARGETS: &str =
    "SELECT config, protocol FROM a2a_push_configs WHERE tenant = $1 AND task_id = $2";

/// The binds that name a delivery's config: tenant, task id, config id.
fn key(delivery: &Delivery) -> Vec<Bind<'_>> {
    vec![
        Bind::text(&delivery.tenant),
        Bind::text(&delivery.task_id),
        Bind::text(&delivery.config_id),
    ]
}

sql_impl! {
    /// [`PushConfigStore::claim_deliveries`](crate::store::PushConfigStore::claim_deliveries).
    pub(crate) async fn claim_deliveries(
        &self,
        holder: &str,
        ttl: Duration,
        which: Deliveries<'_>,
        limit: u32,
    ) -> Result<Vec<Delivery>, StoreError> {
        let label = DB::LABEL;
        let ttl = Bind::Int(super::millis(ttl));
        if let Deliveries::Task { tenant, task_id } = which {
            // Most tasks have nothing queued: a read says so without a write (SQLite's one
            // writer is not taken for it).
            let binds = [Bind::text(tenant.unwrap_or_default()), Bind::text(task_id)];
            let queued: Option<(i64,)> = self
                .read_one(ANY_QUEUED, &binds)
                .await
                .map_err(|e| backend(label, "read the push outbox", e))?;
            if queued.is_none() {
                return Ok(Vec::new());
            }
        }
        let (statement, binds) = match which {
            Deliveries::Task { tenant, task_id } => (
                claim_statement(CLAIM_TASK, "$3", DB::NOW_MS),
                vec![Bind::text(tenant.unwrap_or_default()), Bind::text(task_id), Bind::text(holder), ttl],
            ),
            Deliveries::Stale { older_than } => (
                claim_statement(CLAIM_STALE, "$1", DB::NOW_MS),
                vec![
                    Bind::text(holder),
                    ttl,
                    Bind::Int(super::millis(older_than)),
                    Bind::Int(i64::from(limit.max(1))),
                ],
            ),
        };
        let rows: Vec<ClaimRow> = self
            .write_returning(&statement, &binds)
            .await
            .map_err(|e| backend(label, "claim push deliveries", e))?;
        Ok(rows.into_iter().map(|row| delivery(label, row)).collect())
    }

    /// [`PushConfigStore::queued_notifications`](crate::store::PushConfigStore::queued_notifications).
    pub(crate) async fn queued_notifications(
        &self,
        delivery: &Delivery,
        limit: u32,
    ) -> Result<Vec<LoggedEvent>, StoreError> {
        let label = DB::LABEL;
        let mut binds = key(delivery);
        binds.push(Bind::Int(i64::from(limit.max(1))));
        let rows: Vec<(i64, String)> = self.read_all(PENDING, &binds).await.map_err(|e| {
            backend(label, format!("read the outbox of task `{}`", delivery.task_id), e)
        })?;
        rows.into_iter()
            .map(|row| super::logged_event(label, &delivery.task_id, row))
            .collect()
    }

    /// [`PushConfigStore::notification_sent`](crate::store::PushConfigStore::notification_sent).
    pub(crate) async fn notification_sent(
        &self,
        delivery: &Delivery,
        version: u64,
    ) -> Result<(), StoreError> {
        let mut binds = key(delivery);
        binds.push(Bind::Int(i64::try_from(version).unwrap_or(i64::MAX)));
        self.write(SENT, &binds).await.map_err(|e| {
            backend(DB::LABEL, format!("clear the outbox of task `{}`", delivery.task_id), e)
        })?;
        Ok(())
    }

    /// [`PushConfigStore::release_delivery`](crate::store::PushConfigStore::release_delivery).
    pub(crate) async fn release_delivery(
        &self,
        delivery: &Delivery,
        holder: &str,
    ) -> Result<(), StoreError> {
        let mut binds = key(delivery);
        binds.push(Bind::text(holder));
        self.write(RELEASE, &binds)
            .await
            .map_err(|e| backend(DB::LABEL, "give back a push delivery", e))?;
        Ok(())
    }

    /// [`PushConfigStore::renew_deliveries`](crate::store::PushConfigStore::renew_deliveries)
    /// with a time to live, or `release_deliveries` without.
    pub(crate) async fn deliveries_of(
        &self,
        holder: &str,
        ttl: Option<Duration>,
    ) -> Result<u64, StoreError> {
        let (statement, binds) = match ttl {
            Some(ttl) => (RENEW_ALL, vec![Bind::text(holder), Bind::Int(super::millis(ttl))]),
            None => (RELEASE_ALL, vec![Bind::text(holder)]),
        };
        let statement = super::expand(statement, DB::NOW_MS);
        self.write(&statement, &binds)
            .await
            .map_err(|e| backend(DB::LABEL, "renew or give back push deliveries", e))
    }
    /// [`PushConfigStore::push_targets`](crate::store::PushConfigStore::push_targets).
    pub(crate) async fn push_targets(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        limit: u32,
    ) -> Result<Vec<PushTarget>, StoreError> {
        let label = DB::LABEL;
        let mut binds = vec![Bind::text(scope.tenant_key()), Bind::text(task_id)];
        let statement = super::owned(TARGETS, scope.owner, &mut binds);
        let limit = super::next(&mut binds, Bind::Int(i64::from(limit)));
        let statement = format!("{statement} ORDER BY id LIMIT {limit}");
        let rows: Vec<(String, String)> = self
            .read_all(&statement, &binds)
            .await
            .map_err(|e| backend(label, format!("read the push configs of task `{task_id}`"), e))?;
        rows.iter()
            .map(|(json, protocol)| {
                Ok(PushTarget {
                    config: super::decode_config(label, json)?,
                    protocol: protocol_of(protocol),
                })
            })
            .collect()
    }

    /// [`PushConfigStore::set_push_config_from`](crate::store::PushConfigStore::set_push_config_from).
    pub(crate) async fn set_push_config(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
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
            Bind::text(protocol.as_str()),
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
        let fail = |e| {
            backend(
                label,
                format!("delete push config `{config_id}` of task `{task_id}`"),
                e,
            )
        };
        let deleted = self.write(&statement, &binds).await.map_err(fail)?;
        if deleted > 0 {
            // What it had queued goes with it (a crash in between leaves rows no claim reads;
            // retention clears them with their task).
            self.write(FORGET, &binds[..3]).await.map_err(fail)?;
        }
        Ok(deleted > 0)
    }
}

/// The outbox methods of `PushConfigStore` (and the two that keep each config's version), for a store whose `sql` field is a
/// [`SqlStore`](super::SqlStore): the same forwarding in both SQL stores, written once.
macro_rules! push_outbox_methods {
    () => {
        fn set_push_config_from<'a>(
            &'a self,
            scope: $crate::store::Scope<'a>,
            task_id: &'a str,
            config: a2a_types::v1::TaskPushNotificationConfig,
            protocol: a2a_types::rt::version::ProtocolVersion,
        ) -> StoreFuture<'a, a2a_types::v1::TaskPushNotificationConfig> {
            Box::pin(self.sql.set_push_config(scope, task_id, config, protocol))
        }

        fn push_targets<'a>(
            &'a self,
            scope: $crate::store::Scope<'a>,
            task_id: &'a str,
            limit: u32,
        ) -> StoreFuture<'a, Vec<$crate::store::PushTarget>> {
            Box::pin(self.sql.push_targets(scope, task_id, limit))
        }

        fn outbox(&self) -> Option<$crate::store::OutboxId> {
            self.sql.outbox()
        }

        fn claim_deliveries<'a>(
            &'a self,
            holder: &'a str,
            ttl: std::time::Duration,
            which: $crate::store::Deliveries<'a>,
            limit: u32,
        ) -> StoreFuture<'a, Vec<$crate::store::Delivery>> {
            Box::pin(self.sql.claim_deliveries(holder, ttl, which, limit))
        }

        fn queued_notifications<'a>(
            &'a self,
            delivery: &'a $crate::store::Delivery,
            limit: u32,
        ) -> StoreFuture<'a, Vec<$crate::store::LoggedEvent>> {
            Box::pin(self.sql.queued_notifications(delivery, limit))
        }

        fn notification_sent<'a>(
            &'a self,
            delivery: &'a $crate::store::Delivery,
            version: u64,
        ) -> StoreFuture<'a, ()> {
            Box::pin(self.sql.notification_sent(delivery, version))
        }

        fn release_delivery<'a>(
            &'a self,
            delivery: &'a $crate::store::Delivery,
            holder: &'a str,
        ) -> StoreFuture<'a, ()> {
            Box::pin(self.sql.release_delivery(delivery, holder))
        }

        fn renew_deliveries<'a>(
            &'a self,
            holder: &'a str,
            ttl: Option<std::time::Duration>,
        ) -> StoreFuture<'a, u64> {
            Box::pin(self.sql.deliveries_of(holder, ttl))
        }
    };
}
pub(crate) use push_outbox_methods;
