use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1, domain = "billing")]
    Quota,
    #[a2a(codes = 2)]
    Plan,
    #[a2a(code = 3, deprecated, nested(a = 1))]
    Flags,
}

fn main() {}
