// Reasons of the A2A error table are caught by the expansion's const checks, which read the
// generated table (`ERROR_TABLE`): over HTTP+JSON the reason names the error, so a custom error
// may not take a standard one's, nor the reason a standard JSON-RPC error is named by over REST
// (`INVALID_PARAMS`, as a2a-sdk names it). The error points at the reason (or at the name, for a
// default reason) and names the row.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum Collides {
    #[a2a(code = -32050, reason = "TASK_NOT_FOUND")]
    Missing,
    #[a2a(code = -32051)]
    UnsupportedOperation,
    #[a2a(code = -32052, reason = "FREE_REASON")]
    Free,
    #[a2a(code = -32053, reason = "INVALID_PARAMS")]
    LikeInvalidParams,
}

fn main() {}
