use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[a2a(crate = a2a_types::v1)]
pub enum NotAString {
    #[a2a(code = 1)]
    Failed,
}

#[derive(Debug, AgentError)]
#[a2a(crate = "not a path")]
pub enum NotAPath {
    #[a2a(code = 1)]
    Failed,
}

#[derive(Debug, AgentError)]
#[a2a(crate = "a2a_types::v1<u8>")]
pub enum GenericPath {
    #[a2a(code = 1)]
    Failed,
}

#[derive(Debug, AgentError)]
#[a2a(crate = "::a2a_types::v1", crate = "::a2a_types::v1")]
pub enum TwoPaths {
    #[a2a(code = 1)]
    Failed,
}

fn main() {}
