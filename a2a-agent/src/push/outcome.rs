//! What became of a delivery: [`Delivered`], or [`PushError`] and its [`PushFailure`].

use std::fmt;
use std::time::Duration;

use super::PushUrlError;

/// A notification the webhook took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// POSTs made, the successful one included.
    pub attempts: u32,
    /// The webhook's answer (a 2xx).
    pub status: u16,
}

/// A notification that was not delivered: where to, after how many attempts, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushError {
    pub(super) url: String,
    pub(super) attempts: u32,
    pub(super) failure: PushFailure,
}

impl PushError {
    /// The webhook URL without what may be secret in it: no user name or password, no fragment,
    /// and the query replaced by `?…` (webhook URLs often carry a token there).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// POSTs attempted (0 when the URL was refused or the config was unusable before any).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The last failure.
    pub fn failure(&self) -> &PushFailure {
        &self.failure
    }
}

impl fmt::Display for PushError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.attempts {
            0 => write!(
                f,
                "push notification to {} not sent: {}",
                self.url, self.failure
            ),
            1 => write!(
                f,
                "push notification to {} failed after 1 attempt: {}",
                self.url, self.failure
            ),
            n => write!(
                f,
                "push notification to {} failed after {n} attempts: {}",
                self.url, self.failure
            ),
        }
    }
}

impl std::error::Error for PushError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.failure {
            PushFailure::Refused(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a delivery failed (the last attempt's reason, when there were several).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PushFailure {
    /// The URL, or an address its host resolved to at connection time, is refused by the
    /// policy. Never retried.
    Refused(PushUrlError),
    /// The webhook answered with this non-2xx status.
    Status(u16),
    /// No answer within the per-attempt timeout.
    Timeout(Duration),
    /// No connection: refused, unreachable, TLS failure, or the name did not resolve.
    Connect(String),
    /// The request failed after connecting (connection reset, protocol error).
    Request(String),
    /// The config's token or authentication is not a valid HTTP header value (a line break,
    /// say). Its value is not repeated here.
    InvalidHeader(&'static str),
}

impl PushFailure {
    /// Whether another attempt may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            PushFailure::Status(status) => matches!(status, 408 | 429 | 500..=599),
            PushFailure::Timeout(_) | PushFailure::Connect(_) | PushFailure::Request(_) => true,
            PushFailure::Refused(_) | PushFailure::InvalidHeader(_) => false,
        }
    }
}

impl fmt::Display for PushFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushFailure::Refused(e) => write!(f, "refused: {e}"),
            PushFailure::Status(status @ 300..=399) => {
                write!(
                    f,
                    "the webhook answered HTTP {status} (redirects are not followed)"
                )
            }
            PushFailure::Status(status) => write!(f, "the webhook answered HTTP {status}"),
            PushFailure::Timeout(after) => write!(f, "no answer within {after:?}"),
            PushFailure::Connect(reason) => write!(f, "could not connect: {reason}"),
            PushFailure::Request(reason) => write!(f, "the request failed: {reason}"),
            PushFailure::InvalidHeader(what) => {
                write!(f, "the config's {what} is not a valid HTTP header value")
            }
        }
    }
}
