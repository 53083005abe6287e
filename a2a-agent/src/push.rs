//! Push notifications: POSTing task updates to the webhooks clients register (A2A v1 §4.3).
//!
//! A client registers a `TaskPushNotificationConfig`
//! (`url`, optional `token` and `authentication`); on each update of the task the agent POSTs the
//! event as a `StreamResponse` JSON body to the URL. A webhook URL comes from a client, so
//! without screening a client could make the agent POST into the agent's own network (a cloud
//! metadata service at 169.254.169.254, an admin port on localhost): [`PushUrlPolicy`] decides
//! which URLs the agent agrees to call, by default only `https` to public addresses.

mod screen;

pub use screen::{
    AddressClass, Lookup, PushResolver, PushUrlError, PushUrlPolicy, RefusedAddress, ScreenedUrl,
    SystemResolver,
};
