//! The push-config methods' checks: push notifications on, the URL screened, the cap per task,
//! and the caller's scope.

use std::sync::Arc;

use a2a_types::rt::service::RequestContext;
use a2a_types::v1::{A2aError, ServiceError, TaskPushNotificationConfig};

use super::errors::{invalid_params, scope_of, store_error, tenant_of};
use super::RequestHandler;
use crate::executor::AgentExecutor;
use crate::push::Notification;
use crate::store::{PushConfigStore, Scope, StoreError, TaskStore};

impl<E: AgentExecutor> RequestHandler<E> {
    /// Refuses a config when push notifications are off, or when the policy refuses its URL.
    pub(super) fn check_push(
        &self,
        config: &TaskPushNotificationConfig,
    ) -> Result<(), ServiceError> {
        let Some(dispatcher) = &self.shared.dispatcher else {
            return Err(A2aError::push_notification_not_supported().into());
        };
        dispatcher
            .sender()
            .policy()
            .screen(&config.url)
            .map(drop)
            .map_err(|e| invalid_params(format!("Invalid params: the push URL is refused: {e}")))
    }

    /// Refuses one push config more than the handler keeps per task (every caller's counted; a
    /// config that replaces one of its id is not one more).
    pub(super) async fn check_push_cap(
        &self,
        cx: &RequestContext,
        task_id: &str,
        config: &TaskPushNotificationConfig,
    ) -> Result<(), ServiceError> {
        let Some(store) = &self.shared.pushes else {
            return Ok(());
        };
        let max = self.shared.max_push_configs;
        let every_owner = Scope::tenant(tenant_of(cx));
        let size = u32::try_from(max + 1).unwrap_or(u32::MAX);
        let page = store.list_push_configs(every_owner, task_id, Some(size), None);
        let configs = page.await.map_err(store_error)?.configs;
        let replaces = |c: &TaskPushNotificationConfig| config.id.is_some() && c.id == config.id;
        if configs.len() >= max && !configs.iter().any(replaces) {
            return Err(invalid_params(format!(
                "Invalid params: task `{task_id}` has {max} push notification configs, the most \
                 this agent keeps per task; delete one first"
            )));
        }
        Ok(())
    }

    /// The push-config store and the call's scope, for a call about `task_id`:
    /// `PushNotificationNotSupported` when push notifications are off, `TaskNotFound` when the
    /// caller has no such task (it does not exist, or it is another's).
    pub(super) async fn push_scope<'a>(
        &'a self,
        cx: &'a RequestContext,
        task_id: &str,
    ) -> Result<(&'a Arc<dyn PushConfigStore>, Scope<'a>), ServiceError> {
        let store = self
            .shared
            .pushes
            .as_ref()
            .ok_or_else(|| ServiceError::from(A2aError::push_notification_not_supported()))?;
        // That it may see the task, no more: none of its history is read.
        self.shared.visible_recent(cx, task_id, Some(0)).await?;
        // The caller's own configs, whoever owns the task.
        Ok((store, scope_of(cx)))
    }
}

/// The 0.3 notification of task `task_id`: the task as stored, in 0.3's shape, as a2a-sdk 0.3
/// posts it after each event (not the event: 0.3's receivers read a task). `None` when the task
/// is gone, or cannot be carried by 0.3 at all (logged): nothing is sent then.
pub(super) async fn task_v0_3(
    tasks: &dyn TaskStore,
    scope: Scope<'_>,
    task_id: &str,
) -> Result<Option<Notification>, StoreError> {
    let stored = tasks.get_task(scope, task_id).await.inspect_err(|e| {
        tracing::warn!(task_id, error = %e, "could not read the task for its 0.3 push notifications");
    })?;
    let Some(stored) = stored else {
        return Ok(None);
    };
    match Notification::task_v0_3(stored.task) {
        Ok(notification) => Ok(Some(notification)),
        Err(e) => {
            tracing::warn!(task_id, error = %e, "the task cannot be sent to a 0.3 push config");
            Ok(None)
        }
    }
}
