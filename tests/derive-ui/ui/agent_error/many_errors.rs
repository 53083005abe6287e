// Every problem of an enum is reported in one compile, a code and a reason the A2A table takes
// included (the const checks are emitted beside the macro's errors).
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
    #[a2a(code = -32001, colour = "blue")]
    TakenByTheTable,
    #[a2a(code = 10, reason = "not-upper")]
    BadReason,
    #[a2a(code = 11, reason = "BAD_MESSAGE")]
    SameReason,
    #[a2a(code = 12, reason = "VERSION_NOT_SUPPORTED", http = 0)]
    ReasonTakenByTheTable,
}

fn main() {}
