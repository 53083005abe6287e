//! `#[derive(AgentError)]` diagnostics: one file per mistake under `ui/agent_error/`, each with the
//! compiler output it must give (`.stderr`, rewritten under `A2A_BLESS=1` like every golden file:
//! the helper sets trybuild's `TRYBUILD=overwrite`), and the `pass_*` files that must compile and
//! run.

#[path = "../../../a2a-codegen/tests/support/golden.rs"]
mod golden;

#[test]
fn agent_error_derive_diagnostics() {
    golden::bless_trybuild();
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/agent_error/[!p]*.rs");
    cases.pass("ui/agent_error/pass_*.rs");
}

/// The `a2a-macros` crate docs list every diagnostic with its ui test (`(ui: `name`, ...)`):
/// every failing case here is named there, and every name there is a case here.
#[test]
fn every_ui_case_is_listed_in_the_macro_docs() {
    let docs = include_str!("../../../a2a-macros/src/lib.rs");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/agent_error");
    let mut cases: Vec<String> = std::fs::read_dir(dir)
        .expect("ui/agent_error")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_string))
        .filter(|stem| !stem.starts_with("pass_"))
        .collect();
    cases.sort();
    let listed: Vec<&str> = docs
        .split("(ui: ")
        .skip(1)
        .flat_map(|rest| rest.split(')').next().unwrap_or("").split(','))
        .map(|name| name.trim().trim_matches('`'))
        .collect();
    for case in &cases {
        assert!(
            listed.contains(&case.as_str()),
            "ui case `{case}` is not in the a2a-macros docs"
        );
    }
    for name in &listed {
        assert!(
            cases.iter().any(|c| c == name),
            "the a2a-macros docs name `{name}`, no ui case"
        );
    }
}
