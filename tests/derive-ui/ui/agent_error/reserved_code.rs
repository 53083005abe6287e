use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum Reserved {
    #[a2a(code = -32700)]
    Parse,
    #[a2a(code = -32600)]
    Request,
    #[a2a(code = -32601)]
    Method,
    #[a2a(code = -32602)]
    Params,
    #[a2a(code = -32603)]
    Internal,
    #[a2a(code = -32768)]
    BlockStart,
    #[a2a(code = -32100)]
    BlockEnd,
    #[a2a(code = -32500)]
    InTheBlock,
}

fn main() {}
