// A variant without `reason` takes its name in UPPER_SNAKE_CASE; a name whose UPPER_SNAKE_CASE is
// no valid reason (not ASCII) is reported on the name, asking for `reason = "..."`.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = -32050)]
    ÜberLimit,
    #[a2a(code = -32051, reason = "OVER_LIMIT")]
    Überzogen,
}

fn main() {}
