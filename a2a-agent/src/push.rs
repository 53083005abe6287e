//! Push notifications: POSTing task updates to the webhooks clients register (A2A v1 §4.3).
//!
//! A client registers a [`TaskPushNotificationConfig`](a2a_types::v1::TaskPushNotificationConfig)
//! (`url`, optional `token` and `authentication`); on each update of the task the agent POSTs the
//! event as a [`StreamResponse`](a2a_types::v1::StreamResponse) JSON body (`{"statusUpdate":
//! {...}}`, `{"task": {...}}`: the shape of one streamed event) to the URL. Three layers:
//!
//! - [`PushUrlPolicy`] decides which URLs the agent agrees to call. A webhook URL comes from a
//!   client, so without screening a client could make the agent POST into the agent's own network
//!   (a cloud metadata service at 169.254.169.254, an admin port on localhost): by default only
//!   `https` to public addresses is accepted.
//! - [`PushSender`] delivers one event to one webhook: screening (again at connection time,
//!   against DNS rebinding), the headers the official SDK sends (`Authorization`,
//!   `X-A2A-Notification-Token`), bounded retries with backoff.
//! - [`PushDispatcher`] keeps one bounded queue per registration, so a task's events arrive in
//!   order and a slow webhook holds up neither the request that produced the event nor the other
//!   webhooks.
//!
//! ```no_run
//! use a2a_agent::push::{PushDispatcher, PushSender, PushUrlPolicy};
//! use a2a_types::v1::{StreamResponse, TaskPushNotificationConfig, TaskState, TaskStatus, TaskStatusUpdateEvent};
//!
//! # async fn example(configs: Vec<TaskPushNotificationConfig>) -> Result<(), Box<dyn std::error::Error>> {
//! let policy = PushUrlPolicy::default();
//! // At registration: refuse a bad URL before storing it.
//! for config in &configs {
//!     policy.resolve_and_screen(&config.url).await?;
//! }
//! // On each update: hand the event over and go on.
//! let dispatcher = PushDispatcher::new(PushSender::new(policy)?);
//! let event = StreamResponse::StatusUpdate(TaskStatusUpdateEvent {
//!     task_id: "t-1".into(),
//!     context_id: "ctx-1".into(),
//!     status: TaskStatus { state: TaskState::Completed, ..Default::default() },
//!     ..Default::default()
//! });
//! dispatcher.enqueue(configs, event);
//! # Ok(())
//! # }
//! ```

mod address;
mod dispatch;
mod outcome;
mod screen;
mod sender;

pub use dispatch::{DispatchStats, PushDispatcher};
pub use outcome::{Delivered, PushError, PushFailure};
pub use screen::{
    AddressClass, Lookup, PushResolver, PushUrlError, PushUrlPolicy, RefusedAddress, ScreenedUrl,
    SystemResolver,
};
pub use sender::{
    BuildError, Notification, PushSender, PushSenderBuilder, EVENT_ID_HEADER, MAX_ATTEMPTS,
    NOTIFICATION_TOKEN_HEADER,
};
