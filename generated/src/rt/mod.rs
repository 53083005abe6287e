//! The hand-written runtime that every generated module shares, reached by generated code through
//! one path (`::a2a_types::rt` by default), the way prost-generated code relies on the prost crate.
//!
//! - [`Timestamp`]: a `google.protobuf.Timestamp` kept as its RFC 3339 wire string, parsed on request.
//! - [`Bytes`]: a `bytes` field, standard base64 on encode, standard or URL-safe on decode.
//! - [`num`]: the ProtoJSON number forms (numbers or numeric strings) for the generated decoders.
//! - [`envelope`]: the JSON-RPC response envelope, the one choke point for every reply.
//! - [`sse`] and [`stream`]: incremental SSE framing, and the envelope applied to each event.
//! - [`limits`]: the largest body and the deepest nesting the decoders take.
//! - [`server`]: the agent's side: request objects, response and event encoding.
//! - [`custom`]: an agent's own error codes (the `AgentError` trait) and their wire mapping.
//! - [`detail`]: the `@type` objects of a v1 error's `data`.
//! - [`oneof`]: [`UnknownMember`], the extra variant of every oneof and tagged union.
//! - [`table`]: the static shapes of the error table and of methods.

/// Defines an enum of the member names a visitor looks for, plus `Other` for the rest, and its
/// `Deserialize` as an identifier: the shape every hand-written object visitor here uses.
macro_rules! member_keys {
    ($name:ident { $($variant:ident = $member:literal),* $(,)? }) => {
        enum $name {
            $($variant,)*
            Other,
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct KeyVisitor;
                impl serde::de::Visitor<'_> for KeyVisitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a member name")
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        Ok(match v {
                            $($member => $name::$variant,)*
                            _ => $name::Other,
                        })
                    }
                }
                deserializer.deserialize_identifier(KeyVisitor)
            }
        }
    };
}

mod bytes;
pub mod custom;
pub mod detail;
pub mod envelope;
pub mod limits;
pub mod num;
pub mod oneof;
pub mod server;
pub mod sse;
pub mod stream;
pub mod table;
mod timestamp;

pub use bytes::Bytes;
pub use detail::ErrorDetail;
pub use envelope::{ClientError, Envelope, RawError};
pub use limits::Limits;
pub use oneof::UnknownMember;
pub use server::{Fault, RawRequest, RequestId};
pub use table::{ErrorRow, Method};
pub use timestamp::{Timestamp, TimestampError, UnixTime};
