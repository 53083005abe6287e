use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1)]
    Fine,
    NoAttribute,
    #[a2a(message = "no code here", http = 402)]
    NoCode {
        amount: u64,
    },
}

fn main() {}
