// `crate` names a module of the user's that re-exports the generated table: a glob re-export
// brings the hidden `__derive` module along.
use a2a_types::AgentError;

mod my {
    pub use ::a2a_types::v1::*;
}

pub mod nested {
    pub mod a2a {
        pub use ::a2a_types::v1::*;
    }
}

#[derive(Debug, AgentError)]
#[a2a(crate = "my")]
pub enum ThroughGlob {
    #[a2a(code = -32050)]
    Busy { seconds: u8 },
}

#[derive(Debug, AgentError)]
#[a2a(crate = "crate::nested::a2a")]
pub enum ThroughCratePath {
    #[a2a(code = 42)]
    Gone,
}

#[derive(Debug, AgentError)]
#[a2a(crate = "::a2a_types::v1")]
pub enum TheDefaultSpelledOut {
    #[a2a(code = -32000)]
    First,
    #[a2a(code = -32010)]
    AfterTheTable,
    #[a2a(code = -32099)]
    Last,
    #[a2a(code = -32769)]
    BelowTheBlock,
}

fn main() {
    assert_eq!(ThroughGlob::Busy { seconds: 1 }.code(), -32050);
    assert_eq!(ThroughCratePath::Gone.code(), 42);
    assert_eq!(TheDefaultSpelledOut::ROWS.len(), 4);
}
