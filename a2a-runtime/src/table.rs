//! Static descriptions of the protocol's tables, which generated code fills in, and
//! [`ErrorTable`], what generic runtime code asks of a generated error enum.

use crate::envelope::RawError;
use crate::server::Fault;

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
    /// The `params` type.
    type Params;
    /// The `result` type (per event, for a streaming method).
    type Result;
}

/// A generated error enum (one variant per row of an error table, plus a catch-all), as the
/// generic runtime code sees it: built from a received error object or from a request's
/// [`Fault`], and knowing which codes its table (or the JSON-RPC reserved block) takes.
pub trait ErrorTable: Sized {
    /// The typed error for a received error object.
    fn from_raw(raw: RawError) -> Self;

    /// The error answering a request the runtime could not serve.
    fn from_fault(fault: &Fault) -> Self;

    /// Whether `code` is used by a row of the table or lies in the JSON-RPC reserved block; an
    /// agent's own errors never use such a code.
    fn is_code_taken(code: i64) -> bool;
}
