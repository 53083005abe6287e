use a2a_types::AgentError;

#[derive(Debug, AgentError)]
pub enum WithParam<T> {
    #[a2a(code = 1)]
    Failed { value: T },
}

#[derive(Debug, AgentError)]
pub enum WithLifetime<'a> {
    #[a2a(code = 1)]
    Failed { value: &'a str },
}

#[derive(Debug, AgentError)]
pub enum WithWhereClause
where
    u8: Copy,
{
    #[a2a(code = 1)]
    Failed,
}

fn main() {}
