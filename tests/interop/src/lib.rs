//! Live interop between a2a-types and the official Python SDK, a2a-sdk 1.3.0, in both directions.
//! `tests/interop/run.sh` builds these programs, installs the SDK into a virtualenv, and starts and
//! stops every process:
//!
//! - `interop-client URL` drives a real a2a-sdk agent (`py/agent.py`) over HTTP with `ureq`,
//!   encoding every call and decoding every reply with a2a-types, SSE included;
//! - `interop-agent PORT_FILE` is an A2A agent on `axum`, built from the server-side pieces of
//!   a2a-types and one error of its own from `#[derive(AgentError)]`, which the SDK's own client
//!   (`py/client.py`) calls.
//!
//! This library holds what both programs share: how a step of the run is reported, and the
//! agent's own error type (the client side matches on it too).

use a2a_types::v1::{Message, Part, PartContent, Role};
use a2a_types::AgentError;

/// The `A2A-Version` value both programs send and expect (a2a-sdk 1.3.0 refuses calls without it,
/// reading a missing header as 0.3).
pub const PROTOCOL_VERSION: &str = "1.0";

/// The interop agent's own errors, declared with the derive; its code is outside the A2A table.
#[derive(Clone, Debug, PartialEq, AgentError)]
pub enum InteropError {
    /// The caller has sent more messages than the agent allows; try again later.
    #[a2a(
        code = -32050,
        message = "quota exceeded",
        grpc = "RESOURCE_EXHAUSTED",
        http = 429
    )]
    QuotaExceeded {
        /// Seconds until the quota resets.
        retry_after_secs: u32,
    },
}

/// The message text that makes the Rust agent answer with [`InteropError::QuotaExceeded`].
pub const QUOTA_TRIGGER: &str = "use up my quota";

/// A user message with one text part.
pub fn user_text(message_id: &str, text: &str) -> Message {
    Message {
        message_id: message_id.to_string(),
        role: Role::User,
        parts: vec![text_part(text)],
        ..Default::default()
    }
}

/// A text part.
pub fn text_part(text: &str) -> Part {
    Part {
        content: PartContent::Text(text.to_string()),
        metadata: None,
        filename: None,
        media_type: None,
    }
}

/// The text parts of `parts`, joined with newlines.
pub fn text_of(parts: &[Part]) -> String {
    parts
        .iter()
        .filter_map(|part| match &part.content {
            PartContent::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The steps of a run: each prints one line, `ok` with what it saw or `FAILED` with why; the first
/// failure ends the program with status 1, so `run.sh` can say which step broke.
#[derive(Debug, Default)]
pub struct Steps {
    passed: usize,
}

impl Steps {
    /// Runs one step: `Ok` carries what the step saw, `Err` why it failed. A failure prints the
    /// reason and exits with status 1.
    pub fn step(&mut self, name: &str, step: impl FnOnce() -> Result<String, String>) {
        match step() {
            Ok(saw) => {
                self.passed += 1;
                println!("ok     {name}: {saw}");
            }
            Err(why) => {
                println!("FAILED {name}: {why}");
                std::process::exit(1);
            }
        }
    }

    /// The number of steps that passed.
    pub fn passed(&self) -> usize {
        self.passed
    }
}

/// Fails a step unless `cond` holds.
pub fn ensure(cond: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(why())
    }
}
