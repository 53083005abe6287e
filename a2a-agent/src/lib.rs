//! # a2a-agent
//!
//! The agent layer of A2A on `a2a-types`. For now: push notifications ([`push`]): the
//! screening of the webhook URLs clients register, so that a client cannot aim the agent at its
//! own network.
#![deny(missing_docs)]

pub mod push;
