// Every problem of an enum is reported in one compile.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[a2a(krate = "x")]
pub enum BillingError {
    #[a2a(code = -32601, grpc = "NOPE")]
    Reserved,
    MissingCode,
    #[a2a(code = 7, http = 1000, colour = "red")]
    BadHttp {
        amount: u64,
    },
    #[a2a(code = 7)]
    SameCode,
    #[a2a(code = 8)]
    Tuple(u32),
    #[a2a(code = 9, message = 9)]
    BadMessage,
}

fn main() {}
