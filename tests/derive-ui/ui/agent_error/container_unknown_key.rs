use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[a2a(domain = "billing", crate = "::a2a_types::v1")]
#[a2a(code = 1)]
pub enum BillingError {
    #[a2a(code = 1)]
    Failed,
}

fn main() {}
