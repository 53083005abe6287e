use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = -32050)]
    QuotaExceeded,
    #[a2a(code = 42)]
    PlanExpired,
    #[a2a(code = -32050)]
    QuotaAgain,
    #[a2a(code = 0x2a)]
    PlanAgain,
}

fn main() {}
