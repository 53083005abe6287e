// A path that resolves but holds no generated table: rustc's own error, on the string.
use a2a_types::AgentError;

mod empty {}

#[derive(Debug, AgentError)]
#[a2a(crate = "crate::empty")]
pub enum BillingError {
    #[a2a(code = 1)]
    Failed,
}

fn main() {}
