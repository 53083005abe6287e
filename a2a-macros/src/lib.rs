//! Procedural macros for `a2a-types`.
//!
//! The `#[derive(AgentError)]` macro lands here in a later change; the crate already exists so that
//! the workspace layout is final and `a2a-types` can depend on it.
