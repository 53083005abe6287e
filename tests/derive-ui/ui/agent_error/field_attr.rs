use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1)]
    QuotaExceeded {
        #[a2a(rename = "seconds")]
        retry_after_secs: u32,
    },
}

fn main() {}
