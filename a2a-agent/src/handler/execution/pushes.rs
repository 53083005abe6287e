//! An execution's push notifications: the config that came with the message kept, each event
//! sent to the task's configs.

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig};

use super::Execution;
use crate::executor::AgentExecutor;

impl<E: AgentExecutor> Execution<E> {
    /// Keeps a push config that came with the message, as set in `protocol`, once its task
    /// exists.
    pub(super) async fn keep_push(
        &self,
        task_id: &str,
        mut config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
    ) {
        if let Some(store) = &self.shared.pushes {
            config.task_id = Some(task_id.to_owned());
            let kept = store.set_push_config_from(self.scope(), task_id, config, protocol);
            let _ = kept.await;
        }
    }

    /// Sends the event to the task's push configs, if it has any.
    pub(super) async fn notify(&self, event: StreamResponse) {
        if self.shared.dispatcher.is_none() {
            return;
        }
        if let Some(task) = &self.task {
            let tenant = self.tenant.as_deref();
            let trace = self.trace.clone();
            self.shared.push_event(tenant, &task.id, event, trace).await;
        }
    }
}
