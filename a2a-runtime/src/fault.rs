//! [`Fault`]: why a request cannot be served, and what to answer. Sans-IO and below both
//! bindings' servers: the request decoders of [`crate::jsonrpc::server`] and
//! [`crate::rest::server`] produce it, the error tables turn it into their error
//! ([`ErrorTable::from_fault`](crate::table::ErrorTable::from_fault)), and a transport answers
//! with that. Its public path is [`crate::server::Fault`].

use crate::jsonrpc::{codes, RequestId};
use crate::wire::ErrorDetail;

/// Why a request cannot be served, and what to answer: the JSON-RPC code, the id to echo, one
/// line saying what was wrong, and error details for the response's `data` (v1 §9.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// The id to answer with (`null` when the request's id could not be read).
    pub id: RequestId,
    /// One of the [`codes`].
    pub code: i64,
    /// What was wrong, in one line, for the error message.
    pub detail: String,
    /// Structured details: a `google.rpc.BadRequest` for params that do not decode.
    pub details: Vec<ErrorDetail>,
    /// Whether the request was a notification (a valid request object without `id`): JSON-RPC
    /// 2.0 §4.1 says the server must not answer it, even with an error. A body whose envelope is
    /// broken is never one (its id cannot be told), and is answered with id `null`.
    pub notification: bool,
}

impl Fault {
    pub(crate) fn new(id: RequestId, code: i64, detail: impl Into<String>) -> Self {
        Fault {
            id,
            code,
            detail: detail.into(),
            details: Vec::new(),
            notification: false,
        }
    }

    /// An invalid-params fault naming `field`, with a `google.rpc.BadRequest` violation for it.
    pub(crate) fn bad_field(id: RequestId, field: String, reason: String) -> Self {
        Fault {
            details: vec![ErrorDetail::bad_request([(field.clone(), reason.clone())])],
            ..Fault::new(id, codes::INVALID_PARAMS, format!("`{field}`: {reason}"))
        }
    }
}
