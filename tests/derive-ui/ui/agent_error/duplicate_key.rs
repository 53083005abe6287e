use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1, code = 2)]
    TwoCodes,
    #[a2a(code = 3, message = "one")]
    #[a2a(message = "two")]
    TwoMessages,
    #[a2a(
        code = 4,
        grpc = "NOT_FOUND",
        http = 404,
        grpc = "INTERNAL",
        http = 500
    )]
    TwoOfEach,
}

fn main() {}
