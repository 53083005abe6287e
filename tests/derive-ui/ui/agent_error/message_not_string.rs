use a2a_types::AgentError;

const MESSAGE: &str = "quota exceeded";

#[derive(Debug, AgentError)]
pub enum BillingError {
    #[a2a(code = 1, message = MESSAGE)]
    APath,
    #[a2a(code = 2, message = 42)]
    AnInteger,
    #[a2a(code = 3, message = b"bytes")]
    ByteString,
}

fn main() {}
