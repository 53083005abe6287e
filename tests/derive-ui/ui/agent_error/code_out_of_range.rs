use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum Limits {
    #[a2a(code = 9223372036854775808)]
    AboveMax,
    #[a2a(code = -9223372036854775809)]
    BelowMin,
    #[a2a(code = 340282366920938463463374607431768211456)]
    Huge,
    #[a2a(code = 42u8)]
    Suffixed,
}

fn main() {}
