//! The wire types apart from either binding: what the generated data model is made of beside
//! strings and numbers. [`Bytes`] (a `bytes` field, base64), [`Timestamp`] (an RFC 3339
//! `google.protobuf.Timestamp`), [`num`] (the ProtoJSON number forms), [`UnknownMember`] (the
//! extra variant of every oneof and tagged union) and [`ErrorDetail`] (the `@type` objects of a
//! v1 error's `data`). The common ones are re-exported at the crate root.

pub(crate) mod bytes;
pub(crate) mod detail;
pub mod num;
pub(crate) mod oneof;
mod timestamp;

pub use bytes::Bytes;
pub use detail::{ErrorDetail, A2A_DOMAIN, BAD_REQUEST_TYPE, ERROR_INFO_TYPE};
pub use oneof::UnknownMember;
pub use timestamp::{Timestamp, TimestampError, UnixTime};
