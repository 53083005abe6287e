//! What the gRPC server and client share (feature `grpc`): tonic's codec over raw message bytes.
//! The messages are read and written by a generated module's protobuf codec, which takes the
//! rpc's name with the bytes (the server knows the message type only once the path names the
//! rpc), so tonic only frames them.

use bytes::{Buf as _, BufMut as _, Bytes};

/// The path prefix of the service's rpcs: `/lf.a2a.v1.A2AService/SendMessage`.
pub const SERVICE_PREFIX: &str = "/lf.a2a.v1.A2AService/";
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::Status;

/// tonic's codec over raw message bytes: a message out is the bytes given, a message in the
/// bytes received.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(any(feature = "server", feature = "client")), allow(dead_code))]
pub(crate) struct Raw;

impl Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Bytes;
    type Encoder = Raw;
    type Decoder = Raw;

    fn encoder(&mut self) -> Raw {
        Raw
    }

    fn decoder(&mut self) -> Raw {
        Raw
    }
}

impl Encoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;

    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for Raw {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}
