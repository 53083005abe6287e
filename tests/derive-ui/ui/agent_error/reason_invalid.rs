// A declared reason is a `google.rpc.ErrorInfo` reason: a string literal in UPPER_SNAKE_CASE
// (`[A-Z][A-Z0-9_]*`); each mistake is reported on the value.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = -32050, reason = "quota-exceeded")]
    QuotaExceeded,
    #[a2a(code = -32051, reason = "")]
    Empty,
    #[a2a(code = -32052, reason = "Plan_Expired")]
    PlanExpired,
    #[a2a(code = -32053, reason = "2FA_REQUIRED")]
    TwoFactor,
    #[a2a(code = -32054, reason = QUOTA)]
    NotAString,
    #[a2a(code = -32055, reason = "FINE")]
    Fine,
}

fn main() {}
