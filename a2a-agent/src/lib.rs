//! # a2a-agent
//!
//! The agent layer of A2A on [`a2a_types`]. For now: push-notification delivery ([`push`]), the
//! part of an agent that POSTs task updates to the webhooks its clients registered, after
//! screening each webhook URL so that a client cannot aim the agent at its own network.
#![deny(missing_docs)]

pub mod push;
