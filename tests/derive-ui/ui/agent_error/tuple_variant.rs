use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1)]
    QuotaExceeded(u32),
    #[a2a(code = 2)]
    Named { fine: u32 },
    #[a2a(code = 3)]
    Pair(String, u64),
}

fn main() {}
