use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1, grpc = "NOTFOUND")]
    Misspelled,
    #[a2a(code = 2, grpc = "not_found")]
    Lowercase,
    #[a2a(code = 3, grpc = 5)]
    ANumber,
}

fn main() {}
