// The codes are checked against the table of the module `crate` names, and the error names its
// row: A2A v0.3 has no rows at -32008 and -32009, so only -32007 is taken there.
use a2a_types::AgentError;

#[derive(Debug, AgentError)]
#[a2a(crate = "::a2a_types::v0_3")]
pub enum OnV03 {
    #[a2a(code = -32009)]
    FreeInV03,
    #[a2a(code = -32007)]
    LikeAuthenticatedExtendedCardNotConfigured,
}

fn main() {}
