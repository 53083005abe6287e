//! An agent's own error codes: the trait `#[derive(AgentError)]` (and the generator's custom error
//! tables) implement, and how such an error travels in a JSON-RPC error object.
//!
//! # The wire mapping
//!
//! A custom error is an ordinary JSON-RPC error object: its row's `code`, a `message` (the row's
//! default unless the agent says otherwise), and, as A2A v1 §9.5 asks, a `data` array of `@type`
//! objects:
//!
//! 1. a `google.rpc.ErrorInfo` whose `reason` is the variant's name in UPPER_SNAKE_CASE and whose
//!    `domain` is the name of the type that declared it;
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

use super::detail::{ErrorDetail, ERROR_INFO_TYPE};
use super::table::ErrorRow;
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

    /// One row per variant, in declaration order. `name` is the variant's name, `reason` its
    /// UPPER_SNAKE_CASE form, `standard` is false.
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
    match domain {
        Some(Some(domain)) => domain == E::DOMAIN,
        // No ErrorInfo, or one without a domain: the code decides.
        _ => true,
    }
}

/// Finds the fields object with this type URL in an error's `data` (used by derived code).
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
pub fn field<T: serde::de::DeserializeOwned>(object: &Map<String, Value>, name: &str) -> Option<T> {
    let value = object.get(name).cloned().unwrap_or(Value::Null);
    serde_json::from_value(value).ok()
}

/// Encodes one field for a fields object; a field whose `Serialize` fails is written as `null`
/// (the client then keeps the error as the catch-all). Used by derived code.
pub fn field_value<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The diagnostic of a code an agent error may not use, built at compile time: the const item
/// `#[derive(AgentError)]` emits per variant panics with it (`panic!("{}", message.as_str())`,
/// the one formatting a const panic allows), so that the error names the row that uses the code.
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
