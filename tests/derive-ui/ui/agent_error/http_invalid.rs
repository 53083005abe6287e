use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1, http = 99)]
    TooLow,
    #[a2a(code = 2, http = 600)]
    TooHigh,
    #[a2a(code = 3, http = 70000)]
    NotAU16,
    #[a2a(code = 4, http = "429")]
    AString,
    #[a2a(code = 5, http = -429)]
    Negative,
    #[a2a(code = 6, http = 429.0)]
    AFloat,
}

fn main() {}
