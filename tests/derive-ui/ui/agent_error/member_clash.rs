use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[allow(non_snake_case)]
pub enum BillingError {
    #[a2a(code = 1)]
    QuotaExceeded {
        retry_after: u32,
        retryAfter: u32,
        _retry_after_: u32,
    },
}

fn main() {}
