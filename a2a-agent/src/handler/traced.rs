//! The stores as the handler calls them: each call in a span `a2a.store` (target
//! `a2a_agent::store`: `db.operation`, `a2a.task_id`), a child of the call's or the execution's.
//! With no subscriber the store's own future is returned as it is.

use std::sync::Arc;

use std::time::Duration;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::rt::UnixTime;
use a2a_types::v1::{Task, TaskPushNotificationConfig};

use crate::store::{
    Deliveries, Delivery, ExpiredLease, Lease, LoggedEvent, OutboxId, PushConfigPage,
    PushConfigStore, PushTarget, Scope, StoreFuture, Stored, TaskPage, TaskQuery, TaskStore,
    WriteWith,
};

/// `future` in a span for `operation` on `task_id`, when anyone listens.
fn traced<'a, T: 'a>(
    operation: &'static str,
    task_id: &str,
    future: StoreFuture<'a, T>,
) -> StoreFuture<'a, T> {
    let span = tracing::info_span!(
        target: "a2a_agent::store",
        "a2a.store",
        db.operation = operation,
        a2a.task_id = task_id,
    );
    if span.is_disabled() {
        return future;
    }
    Box::pin(tracing::Instrument::instrument(future, span))
}

/// A task store whose calls are traced.
pub(super) struct TracedTasks(pub(super) Arc<dyn TaskStore>);

impl TaskStore for TracedTasks {
    fn get_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
    ) -> StoreFuture<'a, Option<Stored>> {
        traced("get_task", task_id, self.0.get_task(scope, task_id))
    }

    fn create_task<'a>(&'a self, scope: Scope<'a>, task: &'a Task) -> StoreFuture<'a, u64> {
        traced("create_task", &task.id, self.0.create_task(scope, task))
    }

    fn update_task<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
    ) -> StoreFuture<'a, u64> {
        let future = self.0.update_task(scope, task, expected_version);
        traced("update_task", &task.id, future)
    }

    fn list_tasks<'a>(
        &'a self,
        scope: Scope<'a>,
        query: &'a TaskQuery,
    ) -> StoreFuture<'a, TaskPage> {
        traced("list_tasks", "", self.0.list_tasks(scope, query))
    }

    fn get_task_recent<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        last: u32,
    ) -> StoreFuture<'a, Option<Stored>> {
        traced(
            "get_task",
            task_id,
            self.0.get_task_recent(scope, task_id, last),
        )
    }

    fn appends_history(&self) -> bool {
        self.0.appends_history()
    }

    fn appends_artifacts(&self) -> bool {
        self.0.appends_artifacts()
    }

    fn keeps_events(&self) -> bool {
        self.0.keeps_events()
    }

    fn keeps_leases(&self) -> bool {
        self.0.keeps_leases()
    }

    fn create_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        let future = self.0.create_task_with(scope, task, with);
        traced("create_task", &task.id, future)
    }

    fn update_task_with<'a>(
        &'a self,
        scope: Scope<'a>,
        task: &'a Task,
        expected_version: u64,
        with: WriteWith<'a>,
    ) -> StoreFuture<'a, u64> {
        let future = self.0.update_task_with(scope, task, expected_version, with);
        traced("update_task", &task.id, future)
    }

    fn events_after<'a>(
        &'a self,
        tenant: Option<&'a str>,
        task_id: &'a str,
        after: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LoggedEvent>> {
        let future = self.0.events_after(tenant, task_id, after, limit);
        traced("events_after", task_id, future)
    }

    fn set_lease<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        lease: Lease<'a>,
    ) -> StoreFuture<'a, ()> {
        traced(
            "set_lease",
            task_id,
            self.0.set_lease(scope, task_id, lease),
        )
    }

    fn renew_leases<'a>(&'a self, holder: &'a str, ttl: Duration) -> StoreFuture<'a, u64> {
        traced("renew_leases", "", self.0.renew_leases(holder, ttl))
    }

    fn release_leases<'a>(&'a self, holder: &'a str) -> StoreFuture<'a, u64> {
        traced("release_leases", "", self.0.release_leases(holder))
    }

    fn expired_leases(&self, limit: u32) -> StoreFuture<'_, Vec<ExpiredLease>> {
        traced("expired_leases", "", self.0.expired_leases(limit))
    }

    fn outbox(&self) -> Option<OutboxId> {
        self.0.outbox()
    }

    fn delete_task<'a>(&'a self, scope: Scope<'a>, task_id: &'a str) -> StoreFuture<'a, bool> {
        traced("delete_task", task_id, self.0.delete_task(scope, task_id))
    }

    fn delete_ended(&self, before: UnixTime, limit: u32) -> StoreFuture<'_, u64> {
        traced("delete_ended", "", self.0.delete_ended(before, limit))
    }

    fn trim_ended_logs(&self, from: UnixTime, to: UnixTime) -> StoreFuture<'_, u64> {
        traced("trim_ended_logs", "", self.0.trim_ended_logs(from, to))
    }
}

/// A push-config store whose calls are traced.
pub(super) struct TracedPushConfigs(pub(super) Arc<dyn PushConfigStore>);

impl PushConfigStore for TracedPushConfigs {
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        traced(
            "set_push_config",
            task_id,
            self.0.set_push_config(scope, task_id, config),
        )
    }

    fn set_push_config_from<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        let future = self
            .0
            .set_push_config_from(scope, task_id, config, protocol);
        traced("set_push_config", task_id, future)
    }

    fn push_targets<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PushTarget>> {
        let future = self.0.push_targets(scope, task_id, limit);
        traced("push_targets", task_id, future)
    }

    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let future = self.0.get_push_config(scope, task_id, config_id);
        traced("get_push_config", task_id, future)
    }

    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage> {
        let future = self
            .0
            .list_push_configs(scope, task_id, page_size, page_token);
        traced("list_push_configs", task_id, future)
    }

    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool> {
        let future = self.0.delete_push_config(scope, task_id, config_id);
        traced("delete_push_config", task_id, future)
    }

    fn outbox(&self) -> Option<OutboxId> {
        self.0.outbox()
    }

    fn claim_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: Duration,
        which: Deliveries<'a>,
        limit: u32,
    ) -> StoreFuture<'a, Vec<Delivery>> {
        let task_id = match which {
            Deliveries::Task { task_id, .. } => task_id,
            Deliveries::Stale { .. } => "",
        };
        let future = self.0.claim_deliveries(holder, ttl, which, limit);
        traced("claim_deliveries", task_id, future)
    }

    fn queued_notifications<'a>(
        &'a self,
        delivery: &'a Delivery,
        limit: u32,
    ) -> StoreFuture<'a, Vec<LoggedEvent>> {
        let future = self.0.queued_notifications(delivery, limit);
        traced("queued_notifications", &delivery.task_id, future)
    }

    fn notification_sent<'a>(
        &'a self,
        delivery: &'a Delivery,
        version: u64,
    ) -> StoreFuture<'a, ()> {
        let future = self.0.notification_sent(delivery, version);
        traced("notification_sent", &delivery.task_id, future)
    }

    fn release_delivery<'a>(
        &'a self,
        delivery: &'a Delivery,
        holder: &'a str,
    ) -> StoreFuture<'a, ()> {
        let future = self.0.release_delivery(delivery, holder);
        traced("release_delivery", &delivery.task_id, future)
    }

    fn renew_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: Option<Duration>,
    ) -> StoreFuture<'a, u64> {
        traced("renew_deliveries", "", self.0.renew_deliveries(holder, ttl))
    }
}
