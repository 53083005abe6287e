//! The client's errors, whatever the binding: [`ClientError`] (a reply that broke the decoding
//! contract, or a call that got no reply, with its [`ClientErrorKind`]), [`CallError`] (the one
//! outcome of a failed call: the agent's error or the client error) and [`RouteError`] (params
//! no REST route can carry). A leaf of the client's side: both bindings' decoders
//! ([`crate::jsonrpc::client`], [`crate::rest::client`]) and the client itself build on it, and
//! it names nothing of theirs.

use crate::custom::{AgentError, NoCustomErrors};
use std::fmt;

/// A reply that breaks the JSON-RPC envelope or the method's result type: what was wrong, in one
/// line. The client error of the A2A decoding contract.
///
/// A transport (the reqwest client of `a2a_runtime::client`) reports a call that got
/// no reply to decode the same way, with a [`ClientErrorKind`] other than `Malformed` saying why
/// (no connection, which timeout, a connection that broke off), so that a caller can tell what
/// is worth retrying without reading the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientError {
    reason: String,
    http_status: Option<u16>,
    kind: ClientErrorKind,
}

/// What kind of failure a [`ClientError`] is: a reply that broke the contract (what the decoders
/// report), or a call that got no reply to decode (what a transport reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClientErrorKind {
    /// The reply broke the contract: not JSON, not the method's result type, over a limit, an
    /// SSE stream that is not well framed. What every decoder reports.
    #[default]
    Malformed,
    /// The call could not be made: the params fill no route of the method, a header is not a
    /// valid header value, the URL is not one.
    Request,
    /// No connection could be made (refused, no such host, TLS).
    Connect,
    /// The connect timeout elapsed before a connection was made.
    ConnectTimeout,
    /// The request timeout elapsed before the reply was complete (for a stream: before its
    /// headers arrived).
    RequestTimeout,
    /// A stream was idle (no bytes at all) for longer than its idle timeout.
    IdleTimeout,
    /// The connection broke while the request was sent or the reply read, or a stream ended in
    /// the middle of an event: the reply is truncated.
    Interrupted,
}

impl ClientError {
    /// A client error with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        ClientError {
            reason: reason.into(),
            http_status: None,
            kind: ClientErrorKind::Malformed,
        }
    }

    /// This error, of this kind.
    pub fn with_kind(mut self, kind: ClientErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// What kind of failure this is; [`ClientErrorKind::Malformed`] unless a transport said
    /// otherwise.
    pub fn kind(&self) -> ClientErrorKind {
        self.kind
    }

    /// This error, for a reply that came with this HTTP status (the REST binding keeps it).
    pub fn with_http_status(mut self, status: u16) -> Self {
        self.http_status = Some(status);
        self
    }

    /// The HTTP status of the malformed reply, when the binding reported one (REST replies: a
    /// proxy's HTML 502 is malformed, and its status says what happened).
    pub fn http_status(&self) -> Option<u16> {
        self.http_status
    }

    /// What was wrong, as one line.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ClientErrorKind::Malformed => write!(f, "malformed reply: {}", self.reason),
            _ => write!(f, "call failed: {}", self.reason),
        }
    }
}

impl std::error::Error for ClientError {}

/// Why a call failed: the agent answered with an error (a standard one `A`, from the generated
/// error table, or one of the agent's own errors `E`), or the reply broke the contract.
///
/// `E` defaults to [`NoCustomErrors`], which has no values: then `Custom` cannot occur and a
/// `match` need not name it. Generated modules fix `A` (`v1::CallError<E>`).
#[derive(Clone, Debug, PartialEq)]
pub enum CallError<A, E = NoCustomErrors> {
    /// The agent sent a well-formed error: a row of the table, or the table's catch-all
    /// (`Other`) for a code neither the table nor `E` names.
    Agent(A),
    /// The agent sent one of its own errors, declared by `E`, with the fields it carried.
    Custom {
        /// The error, with its fields.
        error: E,
        /// The message the agent sent, or the row's default when it sent none.
        message: String,
    },
    /// The reply was malformed, or no reply came; the reason says how, the kind says which.
    Malformed(ClientError),
}

impl<A: fmt::Display, E: AgentError> fmt::Display for CallError<A, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Agent(e) => fmt::Display::fmt(e, f),
            Self::Custom { error, message } => {
                write!(f, "{} ({}): {}", error.row().name, error.code(), message)
            }
            Self::Malformed(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl<A, E> std::error::Error for CallError<A, E>
where
    A: std::error::Error + 'static,
    E: AgentError + fmt::Debug,
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Agent(e) => Some(e),
            Self::Custom { .. } => None,
            Self::Malformed(e) => Some(e),
        }
    }
}

/// Why params cannot be sent over a method's routes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteError(pub(crate) String);

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RouteError {}
