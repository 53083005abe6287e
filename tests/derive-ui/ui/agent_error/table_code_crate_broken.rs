// With a broken `crate` key the table to check against is unknown: only the `crate` error shows,
// and the taken code is reported once the key is fixed (see table_code.rs).
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[a2a(crate = "not a path")]
pub enum BrokenPath {
    #[a2a(code = -32001)]
    Taken,
}

fn main() {}
