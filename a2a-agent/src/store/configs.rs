//! [`PushConfigStore`]: where push-notification configs are kept, and the push outbox their
//! notifications wait in (see the [module docs](super#push-outbox)).

use std::time::Duration;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::TaskPushNotificationConfig;

use super::{
    Deliveries, Delivery, LoggedEvent, OutboxId, PushConfigPage, PushTarget, Scope, StoreFuture,
};
#[cfg(doc)]
use super::{StoreError, TaskStore, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

/// Where push-notification configs are kept, per tenant and task.
///
/// Configs are keyed by `(tenant, task_id, config id)`, and each records its owner (a scope with
/// an owner sees only that owner's). The store does not check that the task exists (the request
/// handler does, against its [`TaskStore`]).
pub trait PushConfigStore: Send + Sync + 'static {
    /// Stores `config` for the task, replacing the one with the same id (an upsert), and returns
    /// it as stored.
    ///
    /// A config without an id (or with an empty one) gets a fresh one, a UUID v4. The stored
    /// config's `task_id` is `task_id` and its `tenant` is the scope's (`None` for the default
    /// tenant), whatever `config` held in them; its owner is the scope's. A config of that id
    /// owned by another is left as it is (the call stores nothing and returns `config` as it
    /// would have been stored).
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig>;

    /// [`set_push_config`](Self::set_push_config) for a caller of A2A `protocol`: the task's
    /// notifications to this config are then sent in that version's shape (see
    /// [`PushTarget`]), as the caller's SDK reads them. Setting a config again records the
    /// version of the call that set it last.
    ///
    /// The default stores the config as `set_push_config` does and records no version: a store
    /// that does not override this (and [`push_targets`](Self::push_targets), and fill
    /// [`Delivery::protocol`]) has every notification sent in 1.0's shape, as a2a-sdk 1.3.0
    /// sends them. Every store of this crate overrides it.
    fn set_push_config_from<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        let _ = protocol;
        self.set_push_config(scope, task_id, config)
    }

    /// Up to `limit` of the task's configs (the scope's, in id order) with the version each
    /// was set by: where the request handler sends the task's notifications when the store
    /// keeps no [outbox](Self::outbox).
    ///
    /// The default reads the first page of [`list_push_configs`](Self::list_push_configs) and
    /// says 1.0 for each.
    fn push_targets<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PushTarget>> {
        Box::pin(async move {
            let page = self
                .list_push_configs(scope, task_id, Some(limit), None)
                .await?;
            Ok(page.configs.into_iter().map(PushTarget::v1).collect())
        })
    }

    /// The config `config_id` of the task, or `None`.
    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>>;

    /// One page of the task's configs, ordered by config id (bytewise).
    ///
    /// `page_size` is clamped to 1..=[`MAX_PAGE_SIZE`]; `None` or 0 means
    /// [`DEFAULT_PAGE_SIZE`]. `page_token` is a previous page's `next_page_token` (`None` or
    /// empty for the first page).
    ///
    /// # Errors
    ///
    /// [`StoreError::InvalidPageToken`] when `page_token` is not one a store of this crate
    /// issued for a config list.
    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage>;

    /// Deletes the config `config_id` of the task, with the notifications it had queued; `true`
    /// when there was one.
    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool>;

    /// The push outbox the configs' notifications are queued in (see the
    /// [module docs](super#push-outbox)); `None` unless a store keeps one. A task store with the
    /// same one queues them.
    fn outbox(&self) -> Option<OutboxId> {
        None
    }

    /// Claims for `holder`, until `ttl` from now by the database's clock, the configs `which`
    /// names that have notifications queued and no other live claim, and returns them (at most
    /// `limit` for [`Deliveries::Stale`]). A store without an outbox claims none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn claim_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: Duration,
        which: Deliveries<'a>,
        limit: u32,
    ) -> StoreFuture<'a, Vec<Delivery>> {
        let _ = (holder, ttl, which, limit);
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    /// Up to `limit` notifications queued for a claimed config, oldest first: each the logged
    /// event and its sequence number.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be read.
    fn queued_notifications<'a>(
        &'a self,
        delivery: &'a Delivery,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LoggedEvent>> {
        let _ = (delivery, limit);
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    /// Removes the notification of event `version` from the config's queue: sent, or given up
    /// after the sender's last attempt.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn notification_sent<'a>(
        &'a self,
        delivery: &'a Delivery,
        version: u64,
    ) -> StoreFuture<'a, ()> {
        let _ = (delivery, version);
        Box::pin(std::future::ready(Ok(())))
    }

    /// Gives back `holder`'s claim on the config (another's is left as it is).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn release_delivery<'a>(
        &'a self,
        delivery: &'a Delivery,
        holder: &'a str,
    ) -> StoreFuture<'a, ()> {
        let _ = (delivery, holder);
        Box::pin(std::future::ready(Ok(())))
    }

    /// Renews every claim `holder` has, to expire `ttl` from now (a replica's heartbeat); with
    /// no `ttl`, gives them all back (a replica that stops). Returns how many.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the store cannot be written.
    fn renew_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: Option<Duration>,
    ) -> StoreFuture<'a, u64> {
        let _ = (holder, ttl);
        Box::pin(std::future::ready(Ok(0)))
    }
}

/// The id a config is stored under: its own, or a fresh UUID v4.
pub(super) fn config_id_for(config: &TaskPushNotificationConfig) -> String {
    match config.id.as_deref() {
        Some(id) if !id.is_empty() => id.to_owned(),
        _ => uuid::Uuid::new_v4().to_string(),
    }
}

/// `config` as stored for `(tenant, task_id)` under `id`.
pub(super) fn stored_config(
    mut config: TaskPushNotificationConfig,
    tenant: Option<&str>,
    task_id: &str,
    id: String,
) -> TaskPushNotificationConfig {
    config.id = Some(id);
    config.task_id = Some(task_id.to_owned());
    config.tenant = tenant.filter(|t| !t.is_empty()).map(str::to_owned);
    config
}
