//! Live interop between a2a-types and the official Python SDK, a2a-sdk 1.3.0, in both directions,
//! both protocol versions and both JSON bindings of A2A 1.0. `tests/interop/run.sh` builds these
//! programs, installs the SDK into a virtualenv, and starts and stops every process:
//!
//! - `interop-client URL` drives a real a2a-sdk agent (`py/agent.py`) over JSON-RPC with
//!   a2a-runtime's reqwest client (`client::Client`) on `a2a_types::v1::Protocol`,
//!   every call and reply, SSE included, through it;
//! - `interop-client-v0-3 URL` drives the same agent in A2A 0.3, the same client on
//!   `a2a_types::v0_3::Protocol` only;
//! - `interop-client-rest URL` drives the same agent's REST routes (HTTP+JSON), the same client on
//!   `a2a_types::v1::Protocol` asked for HTTP+JSON;
//! - `interop-agent PORT_FILE` is an A2A agent, over JSON-RPC and REST: an executor on
//!   a2a-agent's request handler (`a2a_agent::RequestHandler`, served as `a2a_types::v1`'s
//!   `A2aServer` by a2a-runtime's server, and over JSON-RPC in A2A 0.3 too, as
//!   `a2a_types::v0_3::Compat` of the same handler), with one error of its own from
//!   `#[derive(AgentError)]`, which the SDK's own client calls (`py/client.py`,
//!   `py/client.py --rest`, and `py/client.py --v0.3` through its 0.3 compatibility layer).
//!
//! This library holds what the programs share: how a step of the run is reported, the agent's
//! own error type (the client side matches on it too), what the clients share besides their
//! `Client` ([`http`]: the runtime, one raw request for the steps that need one) and the agents'
//! plumbing ([`serve`]).

pub mod http;
pub mod serve;

use a2a_types::v1::{Message, Part, PartContent, Role};
use a2a_types::AgentError;

/// The `A2A-Version` value the v1 programs send and expect (a2a-sdk 1.3.0 refuses v1 calls
/// without it, reading a missing header as 0.3).
pub const PROTOCOL_VERSION: &str = "1.0";

/// The webhook URL the push-notification steps register. Nothing listens there: neither agent
/// under test delivers notifications for a task that is already finished.
pub const WEBHOOK_URL: &str = "http://127.0.0.1:9/a2a-webhook";

/// The interop agent's own errors, declared with the derive; its code is outside the A2A table.
#[derive(Clone, Debug, PartialEq, AgentError)]
pub enum InteropError {
    /// The caller has sent more messages than the agent allows; try again later.
    ///
    /// Over REST: HTTP 429, ErrorInfo reason `QUOTA_EXCEEDED` in the domain `InteropError`.
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

/// The steps of a run: each prints one line, `ok` with what it saw or `FAILED` with why. A failed
/// step does not stop the run (the later steps still say what they see); [`Steps::finish`] exits
/// with status 1 when any step failed, so `run.sh` can say which step broke first.
#[derive(Debug, Default)]
pub struct Steps {
    passed: usize,
    failed: Vec<String>,
}

impl Steps {
    /// Runs one step: `Ok` carries what the step saw, `Err` why it failed.
    pub fn step(&mut self, name: &str, step: impl FnOnce() -> Result<String, String>) {
        match step() {
            Ok(saw) => {
                self.passed += 1;
                println!("ok     {name}: {saw}");
            }
            Err(why) => {
                self.failed.push(name.to_string());
                println!("FAILED {name}: {why}");
            }
        }
    }

    /// Prints the tally against `peer`; exits with status 1 when a step failed.
    pub fn finish(self, program: &str, peer: &str) {
        let total = self.passed + self.failed.len();
        if self.failed.is_empty() {
            println!("{program}: all {total} steps passed against {peer}");
        } else {
            println!(
                "{program}: {} of {total} steps FAILED against {peer}: {}",
                self.failed.len(),
                self.failed.join("; ")
            );
            std::process::exit(1);
        }
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

/// The same helpers for A2A 0.3 messages (`a2a_types::v0_3`), whose parts are tagged by `kind`.
pub mod v0_3 {
    use a2a_types::v0_3::{Message, Part, Role, TextPart};

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
        Part::Text(TextPart {
            text: text.to_string(),
            metadata: None,
        })
    }

    /// The text parts of `parts`, joined with newlines.
    pub fn text_of(parts: &[Part]) -> String {
        parts
            .iter()
            .filter_map(|part| match part {
                Part::Text(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
