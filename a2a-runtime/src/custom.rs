//! An agent's own error codes: the trait `#[derive(AgentError)]` (and the generator's custom error
//! tables) implement, and how such an error travels in a JSON-RPC error object.
//!
//! # The wire mapping
//!
//! A custom error is an ordinary JSON-RPC error object: its row's `code`, a `message` (the row's
//! default unless the agent says otherwise), and, as A2A v1 §9.5 asks, a `data` array of `@type`
//! objects:
//!
//! 1. a `google.rpc.ErrorInfo` whose `reason` is the row's reason (the variant's name in
//!    UPPER_SNAKE_CASE unless declared otherwise) and whose `domain` is the name of the type that
//!    declared it;
//! 2. for a variant with fields, one more object holding them, with `@type`
//!    [`FIELDS_TYPE_PREFIX`]`<Type>.<Variant>` and one member per field, named in lowerCamelCase
//!    like every A2A member, valued by the field's `serde` form.
//!
//! ```json
//! {"code": -32050, "message": "quota exceeded", "data": [
//!   {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA_EXCEEDED",
//!    "domain": "BillingError", "metadata": {}},
//!   {"@type": "type.a2a-codegen/BillingError.QuotaExceeded", "retryAfterSecs": 30}
//! ]}
//! ```
//!
//! A client reads the variant back from the code, and its fields from the object with the
//! variant's `@type`. The code alone is not proof: two agents may give -32050 different meanings,
//! so when `data` holds a `google.rpc.ErrorInfo`, the first one's `domain` must be the type's
//! (`BillingError`) for the error to be read as one of its variants ([`domain_matches`]); with no
//! ErrorInfo (an agent that sends none), the code decides. When the domain is another, the fields
//! object is missing, or a field does not decode, the error is not forced into the variant: the
//! client keeps it as the catch-all (`A2aError::Other`) with code, message and data intact.
//!
//! # Over HTTP+JSON
//!
//! The REST binding carries the same `@type` objects as a `google.rpc.Status`'s `details`, but its
//! `code` is the HTTP status, which several errors share: there the `ErrorInfo`'s `reason` names
//! the error. That is why every row has a reason of its own, in UPPER_SNAKE_CASE, distinct from
//! the A2A table's (checked by `#[derive(AgentError)]` and by the generator); [`from_reason`]
//! reads a variant back from a reason, a domain and the details.

use super::table::ErrorRow;
use crate::wire::detail::{ErrorDetail, ERROR_INFO_TYPE};
use serde_json::{Map, Value};

/// The type URL prefix of the object carrying a custom error's fields.
pub const FIELDS_TYPE_PREFIX: &str = a2a_facts::type_url::FIELDS_PREFIX;

/// An agent's own error type: one variant per code, each with its row (message, gRPC and HTTP
/// status), and fields that travel in the error's `data`.
///
/// Implement it with `#[derive(AgentError)]`, or generate the type from a custom error table; both
/// check at compile time that no code collides with the A2A error table or the JSON-RPC reserved
/// block.
pub trait AgentError: Sized {
    /// The `ErrorInfo` domain: the name of the declaring type.
    const DOMAIN: &'static str;

    /// One row per variant, in declaration order. `name` is the variant's name, `reason` the
    /// `ErrorInfo` reason (declared, or the name in UPPER_SNAKE_CASE; unique within the type),
    /// `standard` is false.
    const ROWS: &'static [ErrorRow];

    /// The JSON-RPC error code of this value.
    fn code(&self) -> i64;

    /// The fields object for the error's `data` (see the [module docs](self)); `None` for a
    /// variant without fields.
    fn fields_detail(&self) -> Option<ErrorDetail>;

    /// Rebuilds a value from a received code and `data`. `None` when the code is not one of this
    /// type's, or when a variant with fields finds no fields object it can decode.
    fn from_code_and_data(code: i64, data: Option<&Value>) -> Option<Self>;

    /// This value's row.
    fn row(&self) -> &'static ErrorRow {
        let code = self.code();
        // Every code an implementation returns is one of its rows (the derive makes it so).
        Self::ROWS
            .iter()
            .find(|row| row.code == code)
            .unwrap_or(&UNLISTED)
    }

    /// The default message of this value's row.
    fn message(&self) -> &'static str {
        self.row().message
    }

    /// The `data` member: the `ErrorInfo`, then the fields object if the variant has fields.
    fn data(&self) -> Value {
        let row = self.row();
        let info = ErrorDetail::error_info(
            row.reason.unwrap_or(row.name),
            Self::DOMAIN,
            std::iter::empty::<(String, String)>(),
        );
        ErrorDetail::list_to_data(std::iter::once(info).chain(self.fields_detail()))
    }
}

/// The row of a code an implementation forgot to list (never used by derived code).
static UNLISTED: ErrorRow = ErrorRow {
    name: "Unlisted",
    spec_name: "Unlisted",
    code: 0,
    grpc: a2a_facts::custom::DEFAULT_GRPC,
    http: a2a_facts::custom::DEFAULT_HTTP,
    message: a2a_facts::custom::UNLISTED_MESSAGE,
    reason: None,
    standard: false,
    doc: "",
};

/// The type for "no custom errors": the default of the decoders' custom-error parameter. It has
/// no values, so a `CallError::Custom` holding it cannot occur and need not be matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoCustomErrors {}

impl AgentError for NoCustomErrors {
    const DOMAIN: &'static str = "";
    const ROWS: &'static [ErrorRow] = &[];

    fn code(&self) -> i64 {
        match *self {}
    }

    fn fields_detail(&self) -> Option<ErrorDetail> {
        match *self {}
    }

    fn from_code_and_data(_: i64, _: Option<&Value>) -> Option<Self> {
        None
    }
}

impl std::fmt::Display for NoCustomErrors {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {}
    }
}

impl std::error::Error for NoCustomErrors {}

/// Whether an error whose `data` is this may be one of `E`'s, as far as its domain tells: the
/// first `google.rpc.ErrorInfo` in `data`, when there is one with a `domain`, must name
/// [`AgentError::DOMAIN`]; without one, only the code can tell (and it is taken as telling).
///
/// ```
/// use a2a_runtime::custom::{domain_matches, AgentError};
/// use a2a_runtime::{ErrorDetail, ErrorRow};
/// use serde_json::{json, Value};
///
/// // What `#[derive(AgentError)]` writes, by hand: `DOMAIN` is the type's name.
/// struct BillingError;
/// impl AgentError for BillingError {
///     const DOMAIN: &'static str = "BillingError";
///     const ROWS: &'static [ErrorRow] = &[];
///     fn code(&self) -> i64 { -32050 }
///     fn fields_detail(&self) -> Option<ErrorDetail> { None }
///     fn from_code_and_data(code: i64, _: Option<&Value>) -> Option<Self> {
///         (code == -32050).then_some(BillingError)
///     }
/// }
///
/// let info = |domain: &str| json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "X", "domain": domain}]);
/// assert!(domain_matches::<BillingError>(Some(&info("BillingError"))));
/// assert!(!domain_matches::<BillingError>(Some(&info("SomeoneElsesError"))));
/// assert!(domain_matches::<BillingError>(None));
/// assert!(domain_matches::<BillingError>(Some(&json!("free-form data"))));
/// ```
pub fn domain_matches<E: AgentError>(data: Option<&Value>) -> bool {
    let Some(Value::Array(items)) = data else {
        return true;
    };
    let domain = items.iter().find_map(|item| match item {
        Value::Object(object)
            if object.get("@type").and_then(Value::as_str) == Some(ERROR_INFO_TYPE) =>
        {
            Some(object.get("domain").and_then(Value::as_str))
        }
        _ => None,
    });
    domain_is::<E>(domain.flatten())
}

/// Whether an `ErrorInfo` domain lets an error be one of `E`'s: [`AgentError::DOMAIN`], or none
/// at all (absent, or `""`, which ProtoJSON leaves out): then the code, or the reason, decides.
fn domain_is<E: AgentError>(domain: Option<&str>) -> bool {
    match domain {
        Some(domain) if !domain.is_empty() => domain == E::DOMAIN,
        _ => true,
    }
}

/// The variant of `E` that a `google.rpc.ErrorInfo` names, for a transport that names errors by
/// reason (the HTTP+JSON binding, whose `google.rpc.Status` carries the HTTP status, not the
/// JSON-RPC code): the row of [`AgentError::ROWS`] whose reason is `reason` (a row without one
/// answers to its name, as [`AgentError::data`] writes it), rebuilt by
/// [`AgentError::from_code_and_data`] from that row's code and `details`.
///
/// `domain` is the ErrorInfo's: it must be [`AgentError::DOMAIN`], or empty (an ErrorInfo
/// without a domain: the reason alone decides, as the code alone does in [`domain_matches`]).
/// `details` is the error's array of `@type` objects (the Status's `details`, the JSON-RPC
/// error's `data`), where a variant with fields finds them.
///
/// `None` when the domain is another type's, no row has the reason, or the variant's fields are
/// missing or do not decode: the caller keeps the error as its catch-all then.
///
/// ```
/// use a2a_runtime::custom::{from_reason, AgentError};
/// use a2a_runtime::{ErrorDetail, ErrorRow};
/// use serde_json::{json, Value};
///
/// // What `#[derive(AgentError)]` writes for
/// // `#[a2a(code = -32050, reason = "QUOTA_EXCEEDED")] OutOfQuota`, by hand.
/// #[derive(Debug, PartialEq)]
/// struct OutOfQuota;
/// impl AgentError for OutOfQuota {
///     const DOMAIN: &'static str = "BillingError";
///     const ROWS: &'static [ErrorRow] = &[ErrorRow {
///         name: "OutOfQuota", spec_name: "OutOfQuota", code: -32050, grpc: "RESOURCE_EXHAUSTED",
///         http: 429, message: "quota exceeded", reason: Some("QUOTA_EXCEEDED"),
///         standard: false, doc: "",
///     }];
///     fn code(&self) -> i64 { -32050 }
///     fn fields_detail(&self) -> Option<ErrorDetail> { None }
///     fn from_code_and_data(code: i64, _: Option<&Value>) -> Option<Self> {
///         (code == -32050).then_some(OutOfQuota)
///     }
/// }
///
/// // A REST error body: {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [..]}}
/// let details = json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
///                       "reason": "QUOTA_EXCEEDED", "domain": "BillingError"}]);
/// assert_eq!(from_reason::<OutOfQuota>("QUOTA_EXCEEDED", "BillingError", &details), Some(OutOfQuota));
/// assert_eq!(from_reason::<OutOfQuota>("QUOTA_EXCEEDED", "SomeoneElsesError", &details), None);
/// assert_eq!(from_reason::<OutOfQuota>("TASK_NOT_FOUND", "BillingError", &details), None);
/// ```
pub fn from_reason<E: AgentError>(reason: &str, domain: &str, details: &Value) -> Option<E> {
    if !domain_is::<E>(Some(domain)) {
        return None;
    }
    let row = E::ROWS
        .iter()
        .find(|row| row.reason.unwrap_or(row.name) == reason)?;
    E::from_code_and_data(row.code, Some(details))
}

/// Whether a row of `table` has the `ErrorInfo` reason `reason`: such a reason already names an
/// error of the table, so an agent's own error may not use it. A `const fn`, for the compile-time
/// check `#[derive(AgentError)]` emits per reason.
///
/// ```
/// use a2a_runtime::custom::is_reason_taken;
/// use a2a_runtime::ErrorRow;
///
/// const TABLE: &[ErrorRow] = &[ErrorRow {
///     name: "TaskNotFound", spec_name: "TaskNotFoundError", code: -32001, grpc: "NOT_FOUND",
///     http: 404, message: "Task not found", reason: Some("TASK_NOT_FOUND"), standard: false,
///     doc: "",
/// }];
/// const TAKEN: bool = is_reason_taken(TABLE, "TASK_NOT_FOUND");
/// assert!(TAKEN);
/// assert!(!is_reason_taken(TABLE, "QUOTA_EXCEEDED"));
/// ```
pub const fn is_reason_taken(table: &[ErrorRow], reason: &str) -> bool {
    reason_row(table, reason).is_some()
}

/// The row of `table` whose reason is `reason`: its own, or for a standard JSON-RPC row the one
/// it is named by over REST ([`crate::rest::STANDARD_REASONS`]: `INVALID_PARAMS` and the like).
const fn reason_row<'a>(table: &'a [ErrorRow], reason: &str) -> Option<&'a ErrorRow> {
    let mut i = 0;
    while i < table.len() {
        if let Some(row_reason) = crate::rest::rest_reason(&table[i]) {
            if str_eq(row_reason, reason) {
                return Some(&table[i]);
            }
        }
        i += 1;
    }
    None
}

/// `a == b`, in a `const fn`.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Finds the fields object with this type URL in an error's `data` (used by derived code).
#[doc(hidden)]
pub fn find_fields<'a>(data: Option<&'a Value>, type_url: &str) -> Option<&'a Map<String, Value>> {
    let Some(Value::Array(items)) = data else {
        return None;
    };
    items.iter().find_map(|item| match item {
        Value::Object(object)
            if object.get("@type").and_then(Value::as_str) == Some(type_url)
                && type_url != ERROR_INFO_TYPE =>
        {
            Some(object)
        }
        _ => None,
    })
}

/// Decodes one field from a fields object; an absent member decodes from `null` (so `Option`
/// fields may be left out). Used by derived code.
#[doc(hidden)]
pub fn field<T: serde::de::DeserializeOwned>(object: &Map<String, Value>, name: &str) -> Option<T> {
    let value = object.get(name).cloned().unwrap_or(Value::Null);
    serde_json::from_value(value).ok()
}

/// Encodes one field for a fields object; a field whose `Serialize` fails is written as `null`
/// (the client then keeps the error as the catch-all). Used by derived code.
#[doc(hidden)]
pub fn field_value<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The diagnostic of a code or reason an agent error may not use, built at compile time: the
/// const items `#[derive(AgentError)]` emits per variant panic with it
/// (`panic!("{}", message.as_str())`, the one formatting a const panic allows), so that the error
/// names the row that uses the code or reason.
#[doc(hidden)]
pub struct TakenMessage {
    bytes: [u8; TakenMessage::CAPACITY],
    len: usize,
}

impl TakenMessage {
    /// A piece that would overflow is left out (so the text stays UTF-8); no row comes close.
    const CAPACITY: usize = 512;

    /// Why `code` may not be used, or `None` when it is free. `taken` is the generated module's
    /// `is_code_taken(code)`, `table` its `ERROR_TABLE`, which names the row; `advice` ends the
    /// message.
    pub const fn new(table: &[ErrorRow], taken: bool, code: i64, advice: &str) -> Option<Self> {
        if !taken {
            return None;
        }
        let mut message = TakenMessage {
            bytes: [0; Self::CAPACITY],
            len: 0,
        };
        message.push("code ");
        message.push_code(code);
        let mut i = 0;
        let mut named = false;
        while i < table.len() {
            let row = &table[i];
            if row.code == code {
                message.push(" is taken by the standard error `");
                message.push(row.name);
                message.push(if row.standard {
                    "` (JSON-RPC)"
                } else {
                    "` (A2A)"
                });
                named = true;
                break;
            }
            i += 1;
        }
        if !named {
            message.push(" is inside the JSON-RPC reserved block ");
            message.push(a2a_facts::jsonrpc::RESERVED_TEXT);
        }
        message.push("; ");
        message.push(advice);
        Some(message)
    }

    /// Why `reason` may not be used, or `None` when no row of `table` (the generated module's
    /// `ERROR_TABLE`) has it; `advice` ends the message.
    pub const fn for_reason(table: &[ErrorRow], reason: &str, advice: &str) -> Option<Self> {
        let Some(row) = reason_row(table, reason) else {
            return None;
        };
        let mut message = TakenMessage {
            bytes: [0; Self::CAPACITY],
            len: 0,
        };
        message.push("reason `");
        message.push(reason);
        message.push("` is taken by the standard error `");
        message.push(row.name);
        message.push(if row.standard {
            "` (JSON-RPC)"
        } else {
            "` (A2A)"
        });
        message.push("; ");
        message.push(advice);
        Some(message)
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        let (bytes, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => "code taken",
        }
    }

    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if self.len + bytes.len() > Self::CAPACITY {
            return;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.bytes[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
    }

    const fn push_code(&mut self, code: i64) {
        if code < 0 {
            self.push("-");
        }
        let mut digits = [0u8; 20];
        let mut n = code.unsigned_abs();
        let mut count = 0;
        loop {
            digits[digits.len() - 1 - count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, digits) = digits.split_at(digits.len() - count);
        if let Ok(text) = core::str::from_utf8(digits) {
            self.push(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A hand-written `AgentError` as the derive writes one: a declared reason, a defaulted one, a
    /// row without a reason, and a variant with a field.
    #[derive(Debug, PartialEq)]
    enum Billing {
        OutOfQuota,
        PlanExpired,
        Legacy,
        Invoice { id: String },
    }

    const fn row(name: &'static str, code: i64, reason: Option<&'static str>) -> ErrorRow {
        ErrorRow {
            name,
            spec_name: name,
            code,
            grpc: "UNKNOWN",
            http: 500,
            message: "m",
            reason,
            standard: false,
            doc: "",
        }
    }

    const INVOICE_TYPE: &str = "type.a2a-codegen/Billing.Invoice";

    impl AgentError for Billing {
        const DOMAIN: &'static str = "Billing";
        const ROWS: &'static [ErrorRow] = &[
            row("OutOfQuota", -32050, Some("QUOTA_EXCEEDED")),
            row("PlanExpired", 42, Some("PLAN_EXPIRED")),
            row("Legacy", 43, None),
            row("Invoice", 44, Some("INVOICE_MISSING")),
        ];

        fn code(&self) -> i64 {
            match self {
                Self::OutOfQuota => -32050,
                Self::PlanExpired => 42,
                Self::Legacy => 43,
                Self::Invoice { .. } => 44,
            }
        }

        fn fields_detail(&self) -> Option<ErrorDetail> {
            match self {
                Self::Invoice { id } => {
                    Some(ErrorDetail::new(INVOICE_TYPE).with("id", field_value(id)))
                }
                _ => None,
            }
        }

        fn from_code_and_data(code: i64, data: Option<&Value>) -> Option<Self> {
            match code {
                -32050 => Some(Self::OutOfQuota),
                42 => Some(Self::PlanExpired),
                43 => Some(Self::Legacy),
                44 => Some(Self::Invoice {
                    id: field(find_fields(data, INVOICE_TYPE)?, "id")?,
                }),
                _ => None,
            }
        }
    }

    fn info(reason: &str, domain: &str) -> Value {
        json!({"@type": ERROR_INFO_TYPE, "reason": reason, "domain": domain})
    }

    #[test]
    fn from_reason_finds_the_row_by_reason_in_our_domain() {
        let details = json!([info("QUOTA_EXCEEDED", "Billing")]);
        assert_eq!(
            from_reason::<Billing>("QUOTA_EXCEEDED", "Billing", &details),
            Some(Billing::OutOfQuota)
        );
        assert_eq!(
            from_reason::<Billing>("PLAN_EXPIRED", "Billing", &json!([])),
            Some(Billing::PlanExpired)
        );
        // The variant's name is not its reason when a reason is declared.
        assert_eq!(
            from_reason::<Billing>("OUT_OF_QUOTA", "Billing", &details),
            None
        );
        assert_eq!(
            from_reason::<Billing>("OutOfQuota", "Billing", &details),
            None
        );
        // A row without a reason answers to its name, as `data()` writes it.
        assert_eq!(
            from_reason::<Billing>("Legacy", "Billing", &json!([])),
            Some(Billing::Legacy)
        );
        assert_eq!(
            Billing::Legacy.data()[0]["reason"],
            json!("Legacy"),
            "what the agent sends"
        );
    }

    #[test]
    fn from_reason_refuses_another_domain_and_unknown_reasons() {
        let details = json!([info("QUOTA_EXCEEDED", "a2a-protocol.org")]);
        assert_eq!(
            from_reason::<Billing>("QUOTA_EXCEEDED", "a2a-protocol.org", &details),
            None
        );
        assert_eq!(
            from_reason::<Billing>("QUOTA_EXCEEDED", "billing", &details),
            None
        );
        assert_eq!(
            from_reason::<Billing>("TASK_NOT_FOUND", "Billing", &details),
            None
        );
        assert_eq!(from_reason::<Billing>("", "Billing", &details), None);
        // No domain: the reason alone decides (as the code alone does over JSON-RPC).
        assert_eq!(
            from_reason::<Billing>("QUOTA_EXCEEDED", "", &json!([])),
            Some(Billing::OutOfQuota)
        );
        assert_eq!(
            from_reason::<NoCustomErrors>("QUOTA_EXCEEDED", "", &json!([])),
            None
        );
    }

    #[test]
    fn from_reason_rebuilds_the_fields_from_the_details() {
        let error = Billing::Invoice { id: "inv-7".into() };
        let details = error.data();
        assert_eq!(details[1]["@type"], json!(INVOICE_TYPE));
        assert_eq!(
            from_reason::<Billing>("INVOICE_MISSING", "Billing", &details),
            Some(error)
        );
        // Fields missing, or not decoding: not forced into the variant.
        let bare = json!([info("INVOICE_MISSING", "Billing")]);
        assert_eq!(
            from_reason::<Billing>("INVOICE_MISSING", "Billing", &bare),
            None
        );
        let garbled = json!([info("INVOICE_MISSING", "Billing"), {"@type": INVOICE_TYPE, "id": 7}]);
        assert_eq!(
            from_reason::<Billing>("INVOICE_MISSING", "Billing", &garbled),
            None
        );
        assert_eq!(
            from_reason::<Billing>("INVOICE_MISSING", "Billing", &json!("not an array")),
            None
        );
    }

    #[test]
    fn domain_matches_keeps_its_rules() {
        assert!(domain_matches::<Billing>(Some(&json!([info(
            "X", "Billing"
        )]))));
        assert!(!domain_matches::<Billing>(Some(&json!([info(
            "X", "Other"
        )]))));
        assert!(domain_matches::<Billing>(Some(&json!([info("X", "")]))));
        assert!(domain_matches::<Billing>(Some(
            &json!([{"@type": ERROR_INFO_TYPE, "reason": "X"}])
        )));
        assert!(domain_matches::<Billing>(None));
    }

    #[test]
    fn reason_checks_name_the_row() {
        const TABLE: &[ErrorRow] = &[
            row("TaskNotFound", -32001, Some("TASK_NOT_FOUND")),
            ErrorRow {
                standard: true,
                ..row("InvalidParams", -32602, None)
            },
        ];
        assert!(is_reason_taken(TABLE, "TASK_NOT_FOUND"));
        assert!(!is_reason_taken(TABLE, "TASK_NOT_FOUN"));
        assert!(!is_reason_taken(TABLE, "TASK_NOT_FOUND_"));
        assert!(
            !is_reason_taken(TABLE, "InvalidParams"),
            "rows without a reason take none"
        );
        assert!(!is_reason_taken(&[], "TASK_NOT_FOUND"));
        const MESSAGE: Option<TakenMessage> =
            TakenMessage::for_reason(TABLE, "TASK_NOT_FOUND", "pick another");
        assert_eq!(
            MESSAGE.as_ref().map(TakenMessage::as_str),
            Some("reason `TASK_NOT_FOUND` is taken by the standard error `TaskNotFound` (A2A); pick another")
        );
        assert!(TakenMessage::for_reason(TABLE, "QUOTA_EXCEEDED", "x").is_none());
    }
}
