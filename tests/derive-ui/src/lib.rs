//! Nothing but a home for `tests/derive_ui.rs`: the `#[derive(AgentError)]` diagnostics, checked
//! with trybuild against the cases under `ui/agent_error/`.
