//! `#[derive(AgentError)]` diagnostics: one file per mistake under `ui/agent_error/`, each with the
//! compiler output it must give (`.stderr`, refreshed with `TRYBUILD=overwrite`), and the
//! `pass_*` files that must compile and run.

#[test]
fn agent_error_derive_diagnostics() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/agent_error/[!p]*.rs");
    cases.pass("ui/agent_error/pass_*.rs");
}
