//! The hand-written runtime that every generated module shares, reached by generated code through
//! one path (`::a2a_types::rt` by default), the way prost-generated code relies on the prost crate.
//!
//! - [`Timestamp`]: a `google.protobuf.Timestamp` kept as its RFC 3339 wire string, parsed on request.
//! - [`Bytes`]: a `bytes` field, standard base64 on encode, standard or URL-safe on decode.
//! - [`num`]: the ProtoJSON number forms (numbers or numeric strings) for the generated decoders.

mod bytes;
pub mod num;
pub mod sse;
mod timestamp;

pub use bytes::Bytes;
pub use timestamp::{Timestamp, TimestampError, UnixTime};
