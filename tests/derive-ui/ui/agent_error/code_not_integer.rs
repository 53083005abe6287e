use a2a_types::AgentError;

const QUOTA: i64 = -32050;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = "-32050")]
    AString,
    #[a2a(code = 1.5)]
    AFloat,
    #[a2a(code = -2.0)]
    ANegativeFloat,
    #[a2a(code = QUOTA)]
    APath,
    #[a2a(code = 32000 + 50)]
    AnExpression,
    #[a2a(code = --1)]
    TwoMinuses,
}

fn main() {}
