// Every variant needs its own reason, declared or defaulted: the second is reported, naming the
// first.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = -32050, reason = "OUT_OF_QUOTA")]
    QuotaExceeded,
    #[a2a(code = -32051, reason = "OUT_OF_QUOTA")]
    QuotaAgain,
    #[a2a(code = -32052)]
    PlanExpired,
    #[a2a(code = -32053, reason = "PLAN_EXPIRED")]
    PlanOver,
    #[a2a(code = -32054)]
    HTTPError,
    #[a2a(code = -32055)]
    HttpError,
}

fn main() {}
