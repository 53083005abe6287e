//! Error details: the objects an A2A v1 error carries in its `data` member.
//!
//! A2A v1.0.1 §9.5 makes a JSON-RPC error's `data` an array of objects, each naming its type in an
//! `@type` member (the ProtoJSON form of `google.protobuf.Any`). The two types agents use are
//! `google.rpc.ErrorInfo` (a machine-readable reason, a domain, string metadata) and
//! `google.rpc.BadRequest` (one violation per offending field). [`ErrorDetail`] holds any of them:
//! its type URL plus the other members as JSON, so a detail of a type this crate does not know
//! survives a round trip unchanged.

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// The type URL of `google.rpc.ErrorInfo`.
pub const ERROR_INFO_TYPE: &str = a2a_facts::type_url::ERROR_INFO;
/// The type URL of `google.rpc.BadRequest`.
pub const BAD_REQUEST_TYPE: &str = a2a_facts::type_url::BAD_REQUEST;
/// The `domain` A2A puts in the `ErrorInfo` of its own errors (v1 §10.6, §11.6).
pub const A2A_DOMAIN: &str = "a2a-protocol.org";

/// One entry of a v1 error's `data` array: an object with an `@type` and any other members.
///
/// ```
/// use a2a_runtime::wire::{ErrorDetail, A2A_DOMAIN};
///
/// let info = ErrorDetail::error_info("TASK_NOT_FOUND", A2A_DOMAIN, [("taskId", "t-1")]);
/// let json = serde_json::to_value(&info).unwrap();
/// assert_eq!(
///     json,
///     serde_json::json!({
///         "@type": "type.googleapis.com/google.rpc.ErrorInfo",
///         "reason": "TASK_NOT_FOUND",
///         "domain": "a2a-protocol.org",
///         "metadata": {"taskId": "t-1"}
///     })
/// );
/// let back: ErrorDetail = serde_json::from_value(json).unwrap();
/// assert_eq!(back.reason(), Some("TASK_NOT_FOUND"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorDetail {
    type_url: String,
    fields: Map<String, Value>,
}

impl ErrorDetail {
    /// A detail of this type with no other members yet.
    pub fn new(type_url: impl Into<String>) -> Self {
        ErrorDetail {
            type_url: type_url.into(),
            fields: Map::new(),
        }
    }

    /// Adds (or replaces) one member. `@type` cannot be set this way: it is the type URL.
    pub fn with(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        let name = name.into();
        if name != "@type" {
            self.fields.insert(name, value.into());
        }
        self
    }

    /// A `google.rpc.ErrorInfo`: `reason` (UPPER_SNAKE_CASE), `domain`, and string metadata.
    pub fn error_info<K, V>(
        reason: impl Into<String>,
        domain: impl Into<String>,
        metadata: impl IntoIterator<Item = (K, V)>,
    ) -> Self
    where
        K: Into<String>,
        V: Into<String>,
    {
        let metadata: Map<String, Value> = metadata
            .into_iter()
            .map(|(k, v)| (k.into(), Value::String(v.into())))
            .collect();
        ErrorDetail::new(ERROR_INFO_TYPE)
            .with("reason", reason.into())
            .with("domain", domain.into())
            .with("metadata", metadata)
    }

    /// A `google.rpc.BadRequest` with one `fieldViolations` entry per `(field, description)`.
    pub fn bad_request<F, D>(violations: impl IntoIterator<Item = (F, D)>) -> Self
    where
        F: Into<String>,
        D: Into<String>,
    {
        let violations: Vec<Value> = violations
            .into_iter()
            .map(|(field, description)| {
                let mut v = Map::new();
                v.insert("field".to_string(), Value::String(field.into()));
                v.insert("description".to_string(), Value::String(description.into()));
                Value::Object(v)
            })
            .collect();
        ErrorDetail::new(BAD_REQUEST_TYPE).with("fieldViolations", violations)
    }

    /// The `@type` URL.
    pub fn type_url(&self) -> &str {
        &self.type_url
    }

    /// The members other than `@type`.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// One member other than `@type`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.get(name)
    }

    /// The `reason` of an `ErrorInfo` (`None` for other types or a non-string reason).
    pub fn reason(&self) -> Option<&str> {
        if self.type_url != ERROR_INFO_TYPE {
            return None;
        }
        self.get("reason").and_then(Value::as_str)
    }

    /// Reads the details out of an error's `data`: the objects of the array that carry a string
    /// `@type`, in order (for a REST reply kept whole, `{"error": {"details": [...]}}`, that
    /// array). Anything else (v0.3 agents send any JSON) gives no details.
    pub fn list_from(data: Option<&Value>) -> Vec<ErrorDetail> {
        // A REST catch-all keeps the whole `google.rpc.Status` reply (`{"error": {..., "details":
        // [...]}}`) as its data: its details are that array.
        let data = match data {
            Some(Value::Object(o)) => o.get("error").and_then(|e| e.get("details")),
            other => other,
        };
        let Some(Value::Array(items)) = data else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| match item {
                Value::Object(object) => ErrorDetail::from_object(object.clone()),
                _ => None,
            })
            .collect()
    }

    /// The `data` value for a list of details: a JSON array of their objects.
    pub fn list_to_data(details: impl IntoIterator<Item = ErrorDetail>) -> Value {
        Value::Array(details.into_iter().map(ErrorDetail::into_value).collect())
    }

    /// This detail as its JSON object.
    pub fn into_value(self) -> Value {
        let mut object = Map::with_capacity(self.fields.len() + 1);
        object.insert("@type".to_string(), Value::String(self.type_url));
        object.extend(self.fields);
        Value::Object(object)
    }

    fn from_object(mut object: Map<String, Value>) -> Option<ErrorDetail> {
        match object.remove("@type") {
            Some(Value::String(type_url)) => Some(ErrorDetail {
                type_url,
                fields: object,
            }),
            _ => None,
        }
    }
}

impl Serialize for ErrorDetail {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len() + 1))?;
        map.serialize_entry("@type", &self.type_url)?;
        for (name, value) in &self.fields {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// An object with a string `@type`; other members are kept as they are.
impl<'de> Deserialize<'de> for ErrorDetail {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        ErrorDetail::from_object(object)
            .ok_or_else(|| de::Error::custom("an error detail needs a string `@type` member"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bad_request_lists_field_violations() {
        let detail = ErrorDetail::bad_request([("message", "missing")]);
        assert_eq!(
            detail.into_value(),
            json!({
                "@type": BAD_REQUEST_TYPE,
                "fieldViolations": [{"field": "message", "description": "missing"}]
            })
        );
    }

    #[test]
    fn data_that_is_not_a_detail_array_gives_no_details() {
        for data in [
            json!(null),
            json!("boom"),
            json!({"@type": "x"}),
            json!([1, "a", {"no": "type"}, {"@type": 3}]),
        ] {
            assert!(ErrorDetail::list_from(Some(&data)).is_empty(), "{data}");
        }
        assert!(ErrorDetail::list_from(None).is_empty());
    }

    #[test]
    fn unknown_detail_types_round_trip() {
        let data = json!([
            {"@type": "type.example.com/Quota", "limit": 3, "nested": {"a": [1]}},
            {"@type": ERROR_INFO_TYPE, "reason": "R", "domain": "d", "metadata": {}}
        ]);
        let details = ErrorDetail::list_from(Some(&data));
        assert_eq!(details.len(), 2);
        assert_eq!(details[0].reason(), None);
        assert_eq!(details[1].reason(), Some("R"));
        assert_eq!(ErrorDetail::list_to_data(details), data);
    }

    #[test]
    fn the_type_url_cannot_be_overwritten_by_a_member() {
        let detail = ErrorDetail::new("a").with("@type", "b");
        assert_eq!(detail.type_url(), "a");
        assert!(detail.fields().is_empty());
    }

    #[test]
    fn deserializing_requires_a_string_type() {
        assert!(serde_json::from_str::<ErrorDetail>(r#"{"reason":"x"}"#).is_err());
        let d: ErrorDetail = serde_json::from_str(r#"{"reason":"x","@type":"t"}"#).unwrap();
        assert_eq!(d.type_url(), "t");
    }
}
