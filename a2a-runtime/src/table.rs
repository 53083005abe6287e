//! Static descriptions of the protocol's tables, which generated code fills in, and
//! [`ErrorTable`], what generic runtime code asks of a generated error enum.

use crate::fault::Fault;
use crate::jsonrpc::RawError;
use crate::wire::detail::{ErrorDetail, A2A_DOMAIN};
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use std::fmt;

/// One row of an error table: a JSON-RPC error code and what goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErrorRow {
    /// The generated variant's name (`TaskNotFound`).
    pub name: &'static str,
    /// The specification's name for it (`TaskNotFoundError`).
    pub spec_name: &'static str,
    /// The JSON-RPC error code.
    pub code: i64,
    /// The gRPC status code name (`NOT_FOUND`).
    pub grpc: &'static str,
    /// The HTTP status.
    pub http: u16,
    /// The default message.
    pub message: &'static str,
    /// The `google.rpc.ErrorInfo` reason, for A2A-specific errors.
    pub reason: Option<&'static str>,
    /// Whether this is one of the standard JSON-RPC 2.0 errors (else A2A-specific).
    pub standard: bool,
    /// One line of meaning.
    pub doc: &'static str,
}

/// A JSON-RPC method: its name on the wire, its params and result types, whether it streams.
///
/// Generated code implements it for one unit struct per method, so a client can write
/// `decode_reply::<method::GetTask>(body)` and get a `Task`.
pub trait Method {
    /// The method name on the wire (`GetTask`).
    const NAME: &'static str;
    /// Whether the reply is an SSE stream of `Result` items.
    const STREAMING: bool;
    /// The `params` type (an owned type: generated types are).
    type Params: 'static;
    /// The `result` type (per event, for a streaming method; owned as well).
    type Result: 'static;

    /// The tenant the params name (`None` when they name none, or have no `tenant` field): what
    /// a server reads for the request context.
    fn tenant(params: &Self::Params) -> Option<&str> {
        let _ = params;
        None
    }

    /// Sets the params' `tenant` (nothing when they have no such field): what a client does with
    /// the tenant its interface names, when the params leave theirs empty.
    fn fill_tenant(params: &mut Self::Params, tenant: &str) {
        let _ = (params, tenant);
    }
}

/// The gRPC status of an error code no row names.
pub const UNLISTED_GRPC: &str = a2a_facts::custom::DEFAULT_GRPC;
/// The HTTP status of an error code no row names.
pub const UNLISTED_HTTP: u16 = a2a_facts::custom::DEFAULT_HTTP;

/// A generated error enum (one variant per row of an error table, plus a catch-all for codes no
/// row names), as the generic runtime code sees it. Generated code implements the required
/// methods from its table; the provided ones, and [`error_info`], [`fmt_error`] and
/// [`serialize_error`], are the same for every table.
pub trait ErrorTable: Sized {
    /// The typed error for a code, with the table's default message when `message` is `None`.
    fn from_code(code: i64, message: Option<String>, data: Option<Value>) -> Self;

    /// The JSON-RPC error code.
    fn code(&self) -> i64;

    /// The message (the agent's, or the default).
    fn message(&self) -> &str;

    /// The `data` member, when the agent sent one.
    fn data(&self) -> Option<&Value>;

    /// The `data` member, to replace it.
    fn data_mut(&mut self) -> &mut Option<Value>;

    /// The table row of this error; `None` for the catch-all.
    fn row(&self) -> Option<&'static ErrorRow>;

    /// Every row of the table, in file order.
    fn rows() -> &'static [ErrorRow];

    /// Whether `code` is used by a row of the table or lies in the JSON-RPC reserved block; an
    /// agent's own errors never use such a code.
    fn is_code_taken(code: i64) -> bool;

    /// The typed error for a received error object.
    fn from_raw(raw: RawError) -> Self {
        Self::from_code(raw.code, raw.message, raw.data)
    }

    /// The error answering a request the runtime could not serve: the table's default message,
    /// then what was wrong; the fault's details as `data`.
    fn from_fault(fault: &Fault) -> Self {
        let message = match Self::from_code(fault.code, None, None).row() {
            Some(row) => format!("{}: {}", row.message, fault.detail),
            None => fault.detail.clone(),
        };
        let data = (!fault.details.is_empty())
            .then(|| ErrorDetail::list_to_data(fault.details.iter().cloned()));
        Self::from_code(fault.code, Some(message), data)
    }
}

/// The error of row `code` with the table's message, and the row's ErrorInfo (no metadata) as
/// `data` when the row has a reason: what a generated row constructor (`A2aError::task_not_found()`)
/// returns.
#[doc(hidden)]
pub fn standard<A: ErrorTable>(code: i64) -> A {
    let mut error = A::from_code(code, None, None);
    if let Some(info) = error_info(&error, std::iter::empty::<(String, String)>()) {
        *error.data_mut() = Some(ErrorDetail::list_to_data([info]));
    }
    error
}

/// The error's `data` with its ErrorInfo's metadata replaced (the row's ErrorInfo added first
/// when `data` has none); other details are kept. Unchanged when the row has no reason.
pub fn with_info<A, K, V>(mut error: A, metadata: impl IntoIterator<Item = (K, V)>) -> A
where
    A: ErrorTable,
    K: Into<String>,
    V: Into<String>,
{
    let Some(info) = error_info(&error, metadata) else {
        return error;
    };
    let mut details = ErrorDetail::list_from(error.data());
    details.retain(|d| d.type_url() != crate::wire::detail::ERROR_INFO_TYPE);
    details.insert(0, info);
    *error.data_mut() = Some(ErrorDetail::list_to_data(details));
    error
}

/// The `google.rpc.ErrorInfo` A2A v1 prescribes for `error`: its row's reason in the
/// `a2a-protocol.org` domain, with `metadata`. `None` when the row has no reason (the standard
/// JSON-RPC errors, and the catch-all).
pub fn error_info<A, K, V>(
    error: &A,
    metadata: impl IntoIterator<Item = (K, V)>,
) -> Option<ErrorDetail>
where
    A: ErrorTable,
    K: Into<String>,
    V: Into<String>,
{
    let reason = error.row()?.reason?;
    Some(ErrorDetail::error_info(reason, A2A_DOMAIN, metadata))
}

/// Writes `error` for people: `TaskNotFound (-32001): Task not found` (`Other` for a code no row
/// names).
pub fn fmt_error<A: ErrorTable>(error: &A, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let name = error.row().map_or("Other", |row| row.name);
    write!(f, "{} ({}): {}", name, error.code(), error.message())
}

/// Writes `error` as the JSON-RPC error object: `code`, `message`, and `data` when present.
pub fn serialize_error<A: ErrorTable, S: Serializer>(
    error: &A,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("code", &error.code())?;
    map.serialize_entry("message", error.message())?;
    if let Some(data) = error.data() {
        map.serialize_entry("data", data)?;
    }
    map.end()
}
