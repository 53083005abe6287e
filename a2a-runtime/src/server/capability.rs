//! Capability validation (spec §3.3.4): what the card declares is what the server serves. A call
//! that needs a capability the card does not declare is refused before the service runs, on
//! every binding and in either version:
//!
//! - push-notification config operations without `capabilities.pushNotifications`:
//!   `PushNotificationNotSupportedError`;
//! - `SendStreamingMessage` and `SubscribeToTask` without `capabilities.streaming`:
//!   `UnsupportedOperationError`;
//! - `GetExtendedAgentCard` without `capabilities.extendedAgentCard` (0.3's
//!   `supportsAuthenticatedExtendedCard`): `UnsupportedOperationError`;
//! - any call that does not declare (in `A2A-Extensions`) every extension the card marks
//!   `required`: `ExtensionSupportRequiredError`.

use crate::service::{RequestContext, ServiceError};
use crate::table::ErrorTable;
use serde_json::{Map, Value};

/// `PushNotificationNotSupportedError`.
const PUSH_NOT_SUPPORTED: i64 = -32003;
/// `UnsupportedOperationError`.
const UNSUPPORTED_OPERATION: i64 = -32004;
/// `ExtensionSupportRequiredError`.
const EXTENSION_REQUIRED: i64 = -32008;

/// What the card declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Capabilities {
    streaming: bool,
    push: bool,
    extended: bool,
    /// The URIs of the extensions marked `required`.
    required: Vec<String>,
}

impl Capabilities {
    /// The capabilities of a card (1.0's shape, and 0.3's extended-card member).
    pub(super) fn of(card: &Map<String, Value>) -> Self {
        let caps = card.get("capabilities");
        let flag = |name: &str| {
            caps.and_then(|c| c.get(name))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        let required = caps
            .and_then(|c| c.get("extensions"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|e| e.get("required").and_then(Value::as_bool) == Some(true))
            .filter_map(|e| e.get("uri").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        let v0_3_extended = card
            .get("supportsAuthenticatedExtendedCard")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        Capabilities {
            streaming: flag("streaming"),
            push: flag("pushNotifications"),
            extended: flag("extendedAgentCard") || v0_3_extended,
            required,
        }
    }

    /// The error a call gets for a capability the card does not declare; `None`: serve it.
    pub(super) fn refusal<A: ErrorTable>(&self, cx: &RequestContext) -> Option<ServiceError<A>> {
        let method = cx.method;
        let refuse = |code: i64, message: String| {
            Some(ServiceError::from_code(
                code,
                message,
                std::iter::empty::<(String, String)>(),
            ))
        };
        let push = method.contains("PushNotificationConfig")
            || method.starts_with("tasks/pushNotificationConfig/");
        if push && !self.push {
            return refuse(
                PUSH_NOT_SUPPORTED,
                format!("{method}: this agent's card does not declare push notifications"),
            );
        }
        if super::http::is_streaming(method) && !self.streaming {
            return refuse(
                UNSUPPORTED_OPERATION,
                format!("{method}: this agent's card does not declare streaming"),
            );
        }
        let extended = matches!(
            method,
            "GetExtendedAgentCard" | "agent/getAuthenticatedExtendedCard"
        );
        if extended && !self.extended {
            return refuse(
                UNSUPPORTED_OPERATION,
                format!("{method}: this agent's card does not declare an extended card"),
            );
        }
        let missing: Vec<&str> = self
            .required
            .iter()
            .filter(|uri| !cx.requested_extensions.contains(uri))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return refuse(
                EXTENSION_REQUIRED,
                format!(
                    "this agent requires the extension{} {}: declare {} in A2A-Extensions",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", "),
                    if missing.len() == 1 { "it" } else { "them" },
                ),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::{Binding, ProtocolVersion};
    use serde_json::json;

    #[derive(Debug)]
    struct E(i64);

    impl ErrorTable for E {
        fn from_code(code: i64, _: Option<String>, _: Option<Value>) -> Self {
            E(code)
        }
        fn code(&self) -> i64 {
            self.0
        }
        fn message(&self) -> &str {
            ""
        }
        fn data(&self) -> Option<&Value> {
            None
        }
        fn data_mut(&mut self) -> &mut Option<Value> {
            unreachable!()
        }
        fn row(&self) -> Option<&'static crate::table::ErrorRow> {
            None
        }
        fn rows() -> &'static [crate::table::ErrorRow] {
            &[]
        }
        fn is_code_taken(_: i64) -> bool {
            false
        }
    }

    fn code(caps: &Capabilities, method: &'static str, extensions: &[&str]) -> Option<i64> {
        let mut cx = RequestContext::new(ProtocolVersion::V1_0, Binding::Grpc, method);
        cx.requested_extensions = extensions.iter().map(|e| (*e).to_owned()).collect();
        caps.refusal::<E>(&cx).map(|e| e.error().code())
    }

    #[test]
    fn a_card_without_capabilities_serves_the_core_methods_only() {
        let Value::Object(card) = json!({"name": "plain"}) else {
            unreachable!()
        };
        let caps = Capabilities::of(&card);
        assert_eq!(code(&caps, "SendMessage", &[]), None);
        assert_eq!(code(&caps, "GetTask", &[]), None);
        assert_eq!(code(&caps, "SendStreamingMessage", &[]), Some(-32004));
        assert_eq!(code(&caps, "tasks/resubscribe", &[]), Some(-32004));
        assert_eq!(
            code(&caps, "CreateTaskPushNotificationConfig", &[]),
            Some(-32003)
        );
        assert_eq!(
            code(&caps, "tasks/pushNotificationConfig/get", &[]),
            Some(-32003)
        );
        assert_eq!(code(&caps, "GetExtendedAgentCard", &[]), Some(-32004));
    }

    #[test]
    fn declared_capabilities_and_required_extensions() {
        let Value::Object(card) = json!({"capabilities": {
            "streaming": true, "pushNotifications": true, "extendedAgentCard": true,
            "extensions": [
                {"uri": "urn:a:required", "required": true},
                {"uri": "urn:a:optional"}
            ]
        }}) else {
            unreachable!()
        };
        let caps = Capabilities::of(&card);
        assert_eq!(
            code(&caps, "SendStreamingMessage", &["urn:a:required"]),
            None
        );
        assert_eq!(
            code(&caps, "GetExtendedAgentCard", &["urn:a:required"]),
            None
        );
        assert_eq!(code(&caps, "SendMessage", &[]), Some(-32008));
        assert_eq!(
            code(&caps, "SendMessage", &["urn:a:optional"]),
            Some(-32008)
        );
        assert_eq!(
            code(&caps, "SendMessage", &["urn:a:optional", "urn:a:required"]),
            None
        );
    }
}
