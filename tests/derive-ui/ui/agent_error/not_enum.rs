use a2a_types::AgentError;

#[derive(AgentError)]
pub struct QuotaExceeded {
    pub retry_after_secs: u32,
}

#[derive(AgentError)]
pub union Bits {
    pub code: i64,
}

fn main() {}
