use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a]
    Bare,
    #[a2a = "code = 2"]
    NameValue,
    #[a2a(code 3)]
    NoEquals,
}

fn main() {}
