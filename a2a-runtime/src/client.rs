//! The client's side, generic over a generated error enum: [`CallError`], the typed outcome of a
//! call, [`StreamDecoder`] for streamed replies, and the `decode_response*` functions.
//!
//! A generated module names these once with its own error enum filled in
//! (`pub type CallError<E = NoCustomErrors> = rt::client::CallError<A2aError, E>`), so its users
//! write `CallError`, `StreamDecoder::<Task>` and `decode_response::<Task>` as before. What varies
//! from one error table to the next sits behind [`ErrorTable`], which the generated enum
//! implements.

use super::custom::{domain_matches, AgentError, NoCustomErrors};
use super::envelope::{self, ClientError, Envelope};
use super::limits::Limits;
use super::stream::EventStream;
use super::table::ErrorTable;
use serde::de::DeserializeOwned;
use std::fmt;
use std::marker::PhantomData;

/// Why a call failed: the agent answered with an error (a standard one `A`, from the generated
/// error table, or one of the agent's own errors `E`), or the reply broke the contract.
///
/// `E` defaults to [`NoCustomErrors`], which has no values: then `Custom` cannot occur and a
/// `match` need not name it. Generated modules fix `A` (`v1::CallError<E>`).
#[derive(Clone, Debug, PartialEq)]
pub enum CallError<A, E = NoCustomErrors> {
    /// The agent sent a well-formed JSON-RPC error object: a row of the table, or the table's
    /// catch-all (`Other`) for a code neither the table nor `E` names.
    Agent(A),
    /// The agent sent one of its own errors, declared by `E`, with the fields it carried.
    Custom {
        /// The error, with its fields.
        error: E,
        /// The message the agent sent, or the row's default when it sent none.
        message: String,
    },
    /// The reply was malformed; the reason says how.
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

/// Decodes a streamed reply (an SSE body) incrementally, every event with the same contract as
/// [`decode_response_with`]. Feed bytes as they arrive, split anywhere. `A` is the generated
/// error enum, `E` the agent's own error type, if it has one.
///
/// An agent may answer a streaming call with one plain JSON body instead (content type
/// `application/json`, typically an error): decode that with [`decode_response_with`], which
/// gives the one item of such a stream.
#[derive(Debug)]
pub struct StreamDecoder<T, A, E = NoCustomErrors> {
    inner: EventStream<T>,
    errors: PhantomData<fn() -> (A, E)>,
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> Default for StreamDecoder<T, A, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: DeserializeOwned, A: ErrorTable, E: AgentError> StreamDecoder<T, A, E> {
    /// A decoder for a new stream.
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A decoder whose events may be at most so large and so deeply nested; an event over a limit
    /// is malformed, with the reason.
    pub fn with_limits(limits: Limits) -> Self {
        StreamDecoder {
            inner: EventStream::with_limits(limits),
            errors: PhantomData,
        }
    }

    /// Feeds the next bytes; returns one item per event they complete, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<T, CallError<A, E>>> {
        self.inner.feed_map(chunk, call_result::<T, A, E>)
    }

    /// Ends the stream: an error when it stopped in the middle of an event.
    pub fn finish(&mut self) -> Result<(), CallError<A, E>> {
        self.inner.finish().map_err(CallError::Malformed)
    }
}

/// One decoded envelope as the call's outcome: the result, the agent's error (one of `E`'s when
/// its code and domain say so, else `A`'s), or the client error.
pub fn call_result<T, A: ErrorTable, E: AgentError>(
    item: Result<Envelope<T>, ClientError>,
) -> Result<T, CallError<A, E>> {
    match item {
        Ok(Envelope::Result(t)) => Ok(t),
        Ok(Envelope::Error(raw)) => {
            // Custom codes never collide with the table (the derive checks at compile time), so
            // only a code the table does not take can be one of `E`'s, and only when its
            // ErrorInfo, if it has one, names `E`'s domain (another agent's -32050 is not ours).
            let data = raw.data.as_ref();
            let custom = match !A::is_code_taken(raw.code) && domain_matches::<E>(data) {
                true => E::from_code_and_data(raw.code, data),
                false => None,
            };
            if let Some(error) = custom {
                let message = raw.message.unwrap_or_else(|| String::from(error.message()));
                return Err(CallError::Custom { error, message });
            }
            Err(CallError::Agent(A::from_raw(raw)))
        }
        Err(e) => Err(CallError::Malformed(e)),
    }
}

/// Decodes a JSON-RPC response body: the `result` as `T`, the agent's typed error (`A`, or one of
/// `E`'s with the variant's fields), or the client error saying what was malformed. Never
/// panics, whatever the bytes.
pub fn decode_response_with<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    body: &[u8],
) -> Result<T, CallError<A, E>> {
    call_result(envelope::decode_response::<T>(body))
}

/// [`decode_response_with`] under these limits (the defaults are 16 MiB and serde_json's depth of
/// 128): a body over them is malformed, with the reason, before any parsing.
pub fn decode_response_with_limits<T: DeserializeOwned, A: ErrorTable, E: AgentError>(
    body: &[u8],
    limits: &Limits,
) -> Result<T, CallError<A, E>> {
    call_result(envelope::decode_response_limited::<T>(body, limits))
}
