// Codes of the A2A error table are caught by the expansion's const checks, which read the
// generated table (`is_code_taken`, `ERROR_TABLE`): the error points at the code and names the
// row that takes it.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum Collides {
    #[a2a(code = -32001)]
    LikeTaskNotFound,
    #[a2a(code = 42)]
    Free,
    #[a2a(code = -32009)]
    LikeTheLastA2aRow,
}

fn main() {}
